//! The staged-search engine: iterative deepening over many roots at once,
//! for every solver that is a chain of stages.
//!
//! A [`Stage`] is data plus small functions: when a node can be pruned (its
//! lower bound, read from tables, exceeds the moves left), when it is a goal,
//! and its children (made in a batch, so that their table entries can be
//! prefetched together). [`deepen`] runs a stage from many roots — the
//! candidates an earlier stage handed on, each with the moves it already took
//! — deepening on the *total* length, so the shortest chain found first is the
//! shortest over all roots, with per-length node budgets shared among the
//! roots, several solutions collected after the first, and a [`Clock`] for the
//! whole solve. [`next_stage`] is the link between stages: it runs a
//! [`Link`] from every [`Chain`] an earlier stage handed on and hands on the
//! longer chains.
//!
//! What it is not for: a single optimal table walk (a complete distance table
//! is walked downhill, [`crate::walk_downhill`]) and the 3x3x3 two-phase
//! solver, whose search is tuned to its own coordinates.

use crate::SolveError;
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tablegen::cube::CubeN;
use tablegen::notation::{Move, MoveKind};

/// One stage of a solver as the engine sees it.
pub trait Stage {
    /// A search node: small and copied (and sent to the threads
    /// [`next_stage`] deals roots out to).
    type Node: Copy + Send + Sync;
    /// Whether `n` cannot reach a goal within `left` moves.
    fn prune(&self, n: &Self::Node, left: usize) -> bool;
    /// Whether `n`, not pruned with `left` moves left, is a goal; the tag
    /// says how (for example in which frame), for the caller.
    fn goal(&self, n: &Self::Node, left: usize) -> Option<u8>;
    /// Appends the children of `n` worth visiting with `left - 1` moves left
    /// (`left >= 1`) as (move index, child), after the move `prev`; returns how
    /// many it dropped by a cheap bound (they count as visited nodes).
    fn expand(
        &self,
        n: &Self::Node,
        prev: Option<usize>,
        left: usize,
        kids: &mut Vec<(usize, Self::Node)>,
    ) -> u64;
}

/// A root of a stage: its node, the moves before it, and a lower bound on
/// its total length (those moves plus the stage's bound).
#[derive(Clone, Copy, Debug)]
pub struct Root<N> {
    /// The node.
    pub node: N,
    /// Moves taken before this stage.
    pub before: usize,
    /// `before` plus a lower bound of this stage.
    pub lower: usize,
}

/// A solution of a stage: the root it starts from, its moves (indices), and
/// the goal's tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Index of the root.
    pub root: usize,
    /// Move indices.
    pub path: Vec<usize>,
    /// What [`Stage::goal`] said.
    pub tag: u8,
}

/// The time limits of one solve: past `soft` (the time budget) a search
/// stops as soon as it has something, or as soon as another search of the
/// same solve has an answer (unless the solve is going on for a target
/// length); past `hard` it stops with nothing.
#[derive(Clone, Copy, Debug)]
pub struct Clock<'a> {
    /// The time budget's end.
    pub soft: Instant,
    /// The hard limit's end.
    pub hard: Instant,
    /// The length of the best answer the solve's other searches (on other
    /// threads) have, `usize::MAX` while they have none: past `soft`, this
    /// search's own first result would come too late to matter.
    pub answered: Option<&'a AtomicUsize>,
    /// `(length, end)`: past `soft`, while the other searches' best answer
    /// is longer than `length` and `end` has not come, the solve goes on,
    /// and a search with nothing does not stop for their answer.
    pub target: Option<(usize, Instant)>,
}

impl Clock<'_> {
    /// Whether a search that has found something (or not) should stop,
    /// reading the time only every 16,384 nodes.
    #[inline]
    pub fn expired(&self, nodes: u64, found: bool) -> bool {
        nodes & 0x3fff == 0 && self.expired_now(found)
    }

    /// Whether a search that has found something (or not) should stop now.
    pub fn expired_now(&self, found: bool) -> bool {
        let now = Instant::now();
        if now >= self.hard {
            return true;
        }
        if now < self.soft {
            return false;
        }
        let answer = self
            .answered
            .map_or(usize::MAX, |a| a.load(Ordering::Relaxed));
        found || (answer != usize::MAX && !self.going_on(answer))
    }

    /// Whether a solve whose best answer has `answer` moves goes on for its
    /// target length: the answer is longer and the target's end has not
    /// come.
    pub fn going_on(&self, answer: usize) -> bool {
        (self.target).is_some_and(|(length, end)| answer > length && Instant::now() < end)
    }
}

/// How one total length's node budget is spent across the roots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// Each root in reach gets an equal share of what is left of the
    /// length's budget (a root whose goals are rare at this length does not
    /// starve the others).
    Equal,
    /// The roots are taken in order; one that uses up the length's budget
    /// ends the length and is passed over at the next lengths until every
    /// root in reach has been (else one hard root would be searched ever
    /// deeper while the others wait).
    PassOverSpent,
}

/// How a stage deepens.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    /// Solutions wanted.
    pub want: usize,
    /// Node budget of the first total length.
    pub level_nodes: u64,
    /// Each further length's budget is this many times the last one's ...
    pub growth: u64,
    /// ... and from this many lengths over the first, a length has no
    /// budget (it runs to completion).
    pub unlimited_after: u32,
    /// How a length's budget is shared.
    pub share: Share,
    /// Once something is found, stop when the nodes visited pass this.
    pub enough_nodes: u64,
    /// Once something is found, go on for at most this many more nodes.
    pub more_nodes: u64,
    /// Once something is found, the time budget is not read for this many
    /// more nodes (more solutions for the next stage; the hard limit still
    /// holds).
    pub grace_nodes: u64,
    /// Nodes in all, after which the search gives up.
    pub max_nodes: u64,
    /// The longest total length tried.
    pub max_total: usize,
    /// Threads [`next_stage`] deals the roots out among (in turn, best
    /// bound first), each searching its share on its share of every node
    /// budget until the threads have `want` solutions between them; the
    /// solutions are merged shortest first. 0 or 1: one search on the
    /// caller's thread.
    pub threads: usize,
}

impl Policy {
    /// No node budgets: every length up to `max_total` runs to completion
    /// until `want` solutions are found.
    pub fn exhaustive(want: usize, max_total: usize) -> Policy {
        Policy {
            want,
            level_nodes: u64::MAX,
            growth: 1,
            unlimited_after: 0,
            share: Share::Equal,
            enough_nodes: u64::MAX,
            more_nodes: u64::MAX,
            grace_nodes: 0,
            max_nodes: u64::MAX,
            max_total,
            threads: 1,
        }
    }

    /// One of `parts` threads' share of every node budget (a budget of
    /// "none" stays none); the solutions wanted are counted over all the
    /// threads.
    fn share_of(&self, parts: usize) -> Policy {
        let p = parts.max(1);
        let part = |x: u64| {
            if x == u64::MAX {
                x
            } else {
                x / p as u64
            }
        };
        Policy {
            level_nodes: part(self.level_nodes),
            enough_nodes: part(self.enough_nodes),
            more_nodes: part(self.more_nodes),
            grace_nodes: part(self.grace_nodes),
            max_nodes: part(self.max_nodes),
            threads: 1,
            ..*self
        }
    }
}

/// What a run of [`deepen`] gives.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The solutions found, in the order found.
    pub found: Vec<Found>,
    /// Nodes visited.
    pub nodes: u64,
    /// The clock stopped the search.
    pub expired: bool,
    /// `found` are the spares ([`Verdict::Spare`]): none better was found.
    pub spares: bool,
}

/// Iterative deepening on the total length over `roots` (best first by
/// `lower`), as `policy` says.
pub fn deepen<S: Stage>(
    stage: &S,
    roots: &[Root<S::Node>],
    policy: &Policy,
    clock: Clock,
) -> Outcome {
    deepen_accepting(stage, roots, policy, clock, &|_, _, _| Verdict::Yes, None)
}

/// What [`deepen_accepting`] makes of a goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not a solution: the search goes on below it.
    No,
    /// A solution, kept aside: the search goes on below it, and the spares
    /// are the answer only where it finds no better one.
    Spare,
    /// A solution.
    Yes,
}

/// [`deepen`] keeping only the goals `accept(root, path, tag)` takes; the
/// search goes on below a goal it refuses. Where it found none it takes,
/// the first `policy.want` it kept as spares are the answer; past
/// `spares_by`, a spare ends the search as a solution would past the budget.
pub fn deepen_accepting<S: Stage>(
    stage: &S,
    roots: &[Root<S::Node>],
    policy: &Policy,
    clock: Clock,
    accept: &dyn Fn(usize, &[usize], u8) -> Verdict,
    spares_by: Option<Instant>,
) -> Outcome {
    deepen_run(stage, roots, policy, clock, accept, spares_by, None)
}

/// [`deepen_accepting`], one of several threads' runs when `shared` is
/// given: the solutions every thread has found; once they are
/// `policy.want`, every run stops.
fn deepen_run<S: Stage>(
    stage: &S,
    roots: &[Root<S::Node>],
    policy: &Policy,
    clock: Clock,
    accept: &dyn Fn(usize, &[usize], u8) -> Verdict,
    spares_by: Option<Instant>,
    shared: Option<&AtomicUsize>,
) -> Outcome {
    let mut run = Run {
        shared,
        elsewhere: false,
        stage,
        accept,
        nodes: 0,
        path: Vec::new(),
        root: 0,
        found: Vec::new(),
        spare: Vec::new(),
        spares_by,
        want: policy.want.max(1),
        level_end: 0,
        enough: policy.enough_nodes,
        more: policy.more_nodes,
        grace: policy.grace_nodes,
        grace_end: u64::MAX,
        clock,
        expired: clock.expired_now(false),
        kids: Vec::new(),
    };
    let Some(first) = roots.iter().map(|r| r.lower).min() else {
        return Outcome::default();
    };
    let mut spent = vec![false; roots.len()];
    let mut total = first;
    while total <= policy.max_total
        && !run.expired
        && !run.elsewhere
        && run.nodes < policy.max_nodes
    {
        let over = (total - first) as u32;
        let mut budget = if over >= policy.unlimited_after {
            u64::MAX
        } else {
            policy
                .level_nodes
                .saturating_mul(policy.growth.saturating_pow(over))
        };
        match policy.share {
            Share::Equal => {
                let mut eligible = roots.iter().filter(|r| r.lower <= total).count() as u64;
                for (k, r) in roots.iter().enumerate() {
                    if r.lower > total {
                        continue;
                    }
                    let before = run.nodes;
                    run.level_end = before.saturating_add(budget / eligible);
                    eligible -= 1;
                    run.root = k;
                    run.dfs(&r.node, total - r.before, None);
                    budget = budget.saturating_sub(run.nodes - before);
                    if run.done() {
                        break;
                    }
                }
            }
            Share::PassOverSpent => {
                let level_end = run.nodes.saturating_add(budget).min(policy.max_nodes);
                if !(0..roots.len()).any(|k| !spent[k] && roots[k].lower <= total) {
                    spent.iter_mut().for_each(|x| *x = false);
                }
                run.level_end = level_end;
                for (k, r) in roots.iter().enumerate() {
                    if r.lower > total || spent[k] {
                        continue;
                    }
                    run.root = k;
                    if run.dfs(&r.node, total - r.before, None) && run.done() {
                        break;
                    }
                    if run.nodes > run.level_end {
                        spent[k] = true;
                        break;
                    }
                }
            }
        }
        if run.done() || !run.found.is_empty() && policy.share == Share::PassOverSpent {
            break;
        }
        total += 1;
    }
    let spares = run.found.is_empty() && !run.spare.is_empty();
    let found = if spares { run.spare } else { run.found };
    Outcome {
        found,
        nodes: run.nodes,
        expired: run.expired,
        spares,
    }
}

/// A partial solution handed from stage to stage.
#[derive(Clone, Debug)]
pub struct Chain {
    /// The frame (whole-cube turn) the chain began in, by the solver's count.
    pub axis: usize,
    /// Its moves so far, in that frame.
    pub moves: Vec<Move>,
    /// Each stage's number of moves.
    pub lens: Vec<usize>,
    /// The state after them.
    pub state: Vec<u8>,
    /// What its stages marked on the way (the 5x5x5's recoloured tredges,
    /// the 4x4x4's frame turn).
    pub marks: u16,
}

/// A root of a [`Link`]: its node, its bound, and the set it stands for
/// (handed back to [`Link::land`]; 0 for most stages).
#[derive(Clone, Copy, Debug)]
pub struct Rooted<N> {
    /// The node.
    pub node: N,
    /// A lower bound of the stage from it.
    pub bound: usize,
    /// What the root takes the state as (the 5x5x5's recoloured tredges).
    pub set: u16,
}

/// A stage as a link of a chain: its moves, its name, its roots in a state,
/// and what a path found from them makes of the chain.
pub trait Link: Stage {
    /// The stage's moves (a found path's indices are into these).
    fn moves(&self) -> &[Move];
    /// The stage's name in solutions and errors.
    fn name(&self) -> &'static str;
    /// The roots of a state.
    fn roots(&self, state: &[u8]) -> Result<Vec<Rooted<Self::Node>>, SolveError>;
    /// The state and marks after `path` from `chain`, found from a root of
    /// `set` to a goal of `tag`: by default the moves applied.
    fn land(
        &self,
        cube: &CubeN,
        chain: &Chain,
        set: u16,
        path: &[Move],
        tag: u8,
    ) -> (Vec<u8>, u16) {
        let _ = (set, tag);
        let mut s = chain.state.clone();
        cube.apply_alg(&mut s, path);
        (s, chain.marks)
    }
    /// Whether a goal's landed state (see [`Link::land`]), `len` moves into
    /// the chain, ends the stage: by default every one. For a check the
    /// stage's nodes cannot make, such as what the next stage needs.
    fn accept(&self, state: &[u8], marks: u16, len: usize) -> bool {
        let _ = (state, marks, len);
        true
    }
    /// Whether an accepted goal is one of the stage's first choice; the
    /// others are kept aside and are the answer only where the search finds
    /// none of the first choice: by default every one.
    fn prefer(&self, _state: &[u8], _marks: u16) -> bool {
        true
    }
    /// Past this, a goal the stage does not prefer ends the search where it
    /// has found none it prefers: by default never.
    fn spares_by(&self) -> Option<Instant> {
        None
    }
    /// Chains of one key are one (the first is kept): by default the
    /// state and marks.
    fn key(&self, state: &[u8], marks: u16) -> Vec<u8> {
        let mut k = state.to_vec();
        k.extend(marks.to_le_bytes());
        k
    }
}

/// A link that prefers the goals passing a check on the state they land in
/// (what a later stage needs of it): the search goes on below the others and
/// keeps them aside, the answer only where it finds no goal that passes
/// ([`Verdict::Spare`]); past the instant given, such a goal ends the search.
pub struct Checked<'a, L: Link>(
    pub &'a L,
    pub &'a (dyn Fn(&[u8]) -> bool + Sync),
    pub Instant,
);

impl<L: Link> Stage for Checked<'_, L> {
    type Node = L::Node;
    fn prune(&self, n: &Self::Node, left: usize) -> bool {
        self.0.prune(n, left)
    }
    fn goal(&self, n: &Self::Node, left: usize) -> Option<u8> {
        self.0.goal(n, left)
    }
    fn expand(
        &self,
        n: &Self::Node,
        prev: Option<usize>,
        left: usize,
        kids: &mut Vec<(usize, Self::Node)>,
    ) -> u64 {
        self.0.expand(n, prev, left, kids)
    }
}

impl<L: Link> Link for Checked<'_, L> {
    fn moves(&self) -> &[Move] {
        self.0.moves()
    }
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn roots(&self, state: &[u8]) -> Result<Vec<Rooted<Self::Node>>, SolveError> {
        self.0.roots(state)
    }
    fn land(
        &self,
        cube: &CubeN,
        chain: &Chain,
        set: u16,
        path: &[Move],
        tag: u8,
    ) -> (Vec<u8>, u16) {
        self.0.land(cube, chain, set, path, tag)
    }
    fn accept(&self, state: &[u8], marks: u16, len: usize) -> bool {
        self.0.accept(state, marks, len)
    }
    fn prefer(&self, state: &[u8], marks: u16) -> bool {
        self.0.prefer(state, marks) && (self.1)(state)
    }
    fn spares_by(&self) -> Option<Instant> {
        Some(self.2)
    }
    fn key(&self, state: &[u8], marks: u16) -> Vec<u8> {
        self.0.key(state, marks)
    }
}

/// Runs a stage from every chain at once, from at most `max_roots` roots
/// (the best by their bound; ties in the chains' order): up to
/// `policy.want` longer chains, shortest in total first. `trace`, if given,
/// gets one line on the search.
pub fn next_stage<L: Link + Sync>(
    cube: &CubeN,
    stage: &L,
    chains: &[Chain],
    policy: &Policy,
    max_roots: usize,
    clock: Clock,
    trace: Option<fn(&str)>,
) -> Result<Vec<Chain>, SolveError> {
    let (moves, name) = (stage.moves(), stage.name());
    let mut roots = Vec::new();
    let mut owner = Vec::new();
    for (k, c) in chains.iter().enumerate() {
        for r in stage.roots(&c.state)? {
            roots.push(Root {
                node: r.node,
                before: c.moves.len(),
                lower: c.moves.len() + r.bound,
            });
            owner.push((k, r.set));
        }
    }
    let mut order: Vec<usize> = (0..roots.len()).collect();
    order.sort_by_key(|&k| roots[k].lower);
    order.truncate(max_roots.max(1));
    let roots: Vec<Root<L::Node>> = order.iter().map(|&k| roots[k]).collect();
    let owner: Vec<(usize, u16)> = order.iter().map(|&k| owner[k]).collect();
    let t0 = Instant::now();
    let accept = |root: usize, path: &[usize], tag: u8| {
        let (k, set) = owner[root];
        let m: Vec<Move> = path.iter().map(|&i| moves[i]).collect();
        let (state, marks) = stage.land(cube, &chains[k], set, &m, tag);
        if !stage.accept(&state, marks, chains[k].moves.len() + m.len()) {
            Verdict::No
        } else if stage.prefer(&state, marks) {
            Verdict::Yes
        } else {
            Verdict::Spare
        }
    };
    let found = deepen_shared(stage, &roots, policy, clock, &accept, stage.spares_by());
    if let Some(trace) = trace {
        let mut lows: Vec<usize> = roots.iter().map(|r| r.lower - r.before).collect();
        lows.sort_unstable();
        trace(&format!(
            "{name}: {} roots, bounds {:?}.., found {} in {:?} ({} nodes), lens {:?}",
            roots.len(),
            &lows[..lows.len().min(8)],
            found.found.len(),
            t0.elapsed(),
            found.nodes,
            found
                .found
                .iter()
                .map(|f| roots[f.root].before + f.path.len())
                .take(8)
                .collect::<Vec<_>>()
        ));
    }
    if found.found.is_empty() {
        return Err(if found.expired {
            SolveError::OutOfTime(name.into())
        } else {
            SolveError::Internal(format!("{name} found nothing"))
        });
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for f in found.found {
        let (k, set) = owner[f.root];
        let c = &chains[k];
        let m: Vec<Move> = f.path.iter().map(|&i| moves[i]).collect();
        let (state, marks) = stage.land(cube, c, set, &m, f.tag);
        if !seen.insert(stage.key(&state, marks)) {
            continue;
        }
        let mut all = c.moves.clone();
        all.extend(&m);
        let mut lens = c.lens.clone();
        lens.push(m.len());
        out.push(Chain {
            axis: c.axis,
            moves: all,
            lens,
            state,
            marks,
        });
    }
    Ok(out)
}

/// [`deepen`] on `policy.threads` threads of the current rayon pool
/// ([`next_stage`]'s way: the roots dealt out in turn, best first).
pub fn deepen_on_threads<S: Stage + Sync>(
    stage: &S,
    roots: &[Root<S::Node>],
    policy: &Policy,
    clock: Clock,
) -> Outcome {
    deepen_shared(stage, roots, policy, clock, &|_, _, _| Verdict::Yes, None)
}

/// [`deepen_accepting`] on `policy.threads` threads of the current rayon
/// pool: the roots dealt out in turn (so each thread's share has bounds
/// like the others'), each share deepened on its own with its share of the
/// node budgets ([`Policy::share_of`]) until the threads have found
/// `policy.want` between them, the solutions merged by total length (ties:
/// the thread order), the nodes added up.
fn deepen_shared<S: Stage + Sync>(
    stage: &S,
    roots: &[Root<S::Node>],
    policy: &Policy,
    clock: Clock,
    accept: &(dyn Fn(usize, &[usize], u8) -> Verdict + Sync),
    spares_by: Option<Instant>,
) -> Outcome {
    let parts = policy.threads.min(roots.len());
    if parts <= 1 {
        return deepen_accepting(stage, roots, policy, clock, accept, spares_by);
    }
    let share = policy.share_of(parts);
    let found = AtomicUsize::new(0);
    let outs: Vec<Outcome> = (0..parts)
        .into_par_iter()
        .map(|t| {
            let index: Vec<usize> = (t..roots.len()).step_by(parts).collect();
            let mine: Vec<Root<S::Node>> = index.iter().map(|&k| roots[k]).collect();
            let accept_mine = |root: usize, path: &[usize], tag: u8| accept(index[root], path, tag);
            let mut out = deepen_run(
                stage,
                &mine,
                &share,
                clock,
                &accept_mine,
                spares_by,
                Some(&found),
            );
            for f in &mut out.found {
                f.root = index[f.root];
            }
            out
        })
        .collect();
    // Spares only where no thread found better, as on one thread.
    let spares = outs.iter().all(|o| o.spares || o.found.is_empty());
    let mut merged = Outcome {
        spares: spares && outs.iter().any(|o| o.spares),
        ..Outcome::default()
    };
    for o in outs {
        merged.nodes += o.nodes;
        merged.expired |= o.expired;
        if o.spares == spares {
            merged.found.extend(o.found);
        }
    }
    // Stable: within one length, the first thread's first.
    merged
        .found
        .sort_by_key(|f| roots[f.root].before + f.path.len());
    merged
}

/// One deepening run's state.
struct Run<'a, S: Stage> {
    stage: &'a S,
    accept: &'a dyn Fn(usize, &[usize], u8) -> Verdict,
    nodes: u64,
    path: Vec<usize>,
    root: usize,
    found: Vec<Found>,
    /// Goals kept aside ([`Verdict::Spare`]), at most `want`.
    spare: Vec<Found>,
    /// Past this, a spare ends the search.
    spares_by: Option<Instant>,
    want: usize,
    /// Node count at which the current root's length is given up.
    level_end: u64,
    enough: u64,
    more: u64,
    grace: u64,
    /// Node count until which the time budget is not read (set at the first
    /// solution).
    grace_end: u64,
    clock: Clock<'a>,
    expired: bool,
    /// Children per depth (reused).
    kids: Vec<Vec<(usize, S::Node)>>,
    /// On several threads: the solutions all have found.
    shared: Option<&'a AtomicUsize>,
    /// The threads have found `want` between them.
    elsewhere: bool,
}

impl<S: Stage> Run<'_, S> {
    /// Enough solutions (here or on all threads), or the node budget spent
    /// with some, or out of time.
    fn done(&self) -> bool {
        self.expired
            || self.elsewhere
            || self.found.len() >= self.want
            || self
                .shared
                .is_some_and(|c| c.load(Ordering::Relaxed) >= self.want)
            || (!self.found.is_empty() && self.nodes > self.enough)
    }

    /// Visits `n` with `left` moves left; true once the search should stop.
    fn dfs(&mut self, n: &S::Node, left: usize, prev: Option<usize>) -> bool {
        self.nodes += 1;
        if self.clock.expired(
            self.nodes,
            !self.found.is_empty() && self.nodes >= self.grace_end,
        ) {
            self.expired = true;
        }
        if self.nodes & 0x3fff == 0
            && self.found.is_empty()
            && !self.spare.is_empty()
            && self.spares_by.is_some_and(|t| Instant::now() >= t)
        {
            self.expired = true;
        }
        if self.nodes & 0x3fff == 0
            && self
                .shared
                .is_some_and(|c| c.load(Ordering::Relaxed) >= self.want)
        {
            self.elsewhere = true;
        }
        if self.expired || self.elsewhere || self.nodes > self.level_end {
            return true;
        }
        if self.stage.prune(n, left) {
            return false;
        }
        let verdict = self
            .stage
            .goal(n, left)
            .map(|tag| (tag, (self.accept)(self.root, &self.path, tag)));
        if let Some((tag, Verdict::Spare)) = verdict {
            let fresh = !self
                .spare
                .iter()
                .any(|f| f.root == self.root && f.path == self.path);
            if fresh && self.spare.len() < self.want {
                self.spare.push(Found {
                    root: self.root,
                    path: self.path.clone(),
                    tag,
                });
            }
        }
        if let Some((tag, Verdict::Yes)) = verdict {
            // A length cut short by its budget can give the same path again
            // at the next length.
            if !self
                .found
                .iter()
                .any(|f| f.root == self.root && f.path == self.path)
            {
                if self.found.is_empty() {
                    self.level_end = self.level_end.min(self.nodes.saturating_add(self.more));
                    self.grace_end = self.nodes.saturating_add(self.grace);
                }
                if let Some(c) = self.shared {
                    c.fetch_add(1, Ordering::Relaxed);
                }
                self.found.push(Found {
                    root: self.root,
                    path: self.path.clone(),
                    tag,
                });
            }
            return self.done();
        }
        if left == 0 {
            return false;
        }
        if !self.found.is_empty() && self.nodes > self.enough {
            return true;
        }
        let depth = self.path.len();
        if self.kids.len() <= depth {
            self.kids.resize_with(depth + 1, Vec::new);
        }
        let mut kids = std::mem::take(&mut self.kids[depth]);
        kids.clear();
        self.nodes += self.stage.expand(n, prev, left, &mut kids);
        let mut stop = false;
        for &(i, child) in &kids {
            self.path.push(i);
            stop = self.dfs(&child, left - 1, Some(i));
            self.path.pop();
            if stop {
                break;
            }
        }
        self.kids[depth] = kids;
        stop
    }
}

/// Order key of a block turn within its axis: turns on one axis commute, so a
/// search takes them only in increasing key order.
fn axis_key(m: Move) -> (usize, usize) {
    let layer = match m.kind {
        MoveKind::Block(d) => d as usize,
        _ => 0,
    };
    (m.face.axis(), m.face as usize * 4 + layer)
}

/// The usual move-order pruning: after `prev`, `m` is searched unless both
/// turn the same axis and `m` does not come later in the axis order (no two
/// turns of one block in a row; of commuting turns, one order).
#[inline]
pub fn allowed(prev: Option<Move>, m: Move) -> bool {
    match prev {
        None => true,
        Some(p) => {
            let (a, k) = axis_key(p);
            let (b, l) = axis_key(m);
            a != b || l > k
        }
    }
}

/// The distance of a neighbour of a state at distance `d`, from the
/// neighbour's residue `t` (distance mod 3, as `trit` tables store it):
/// neighbours are one nearer, level or one further, and the residue says
/// which. Following a mod-3 table move by move gives an exact bound.
#[inline]
pub fn next_distance(d: u8, t: u8) -> u8 {
    match (t + 3 - d % 3) % 3 {
        0 => d,
        1 => d + 1,
        _ => d.saturating_sub(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A toy stage: a counter to bring from `start` to 0 with moves -1, -2,
    /// +1 (indices 0, 1, 2); bound: ceil(x / 2).
    struct Counter;

    impl Stage for Counter {
        type Node = i32;
        fn prune(&self, n: &i32, left: usize) -> bool {
            (n.unsigned_abs() as usize).div_ceil(2) > left
        }
        fn goal(&self, n: &i32, _left: usize) -> Option<u8> {
            (*n == 0).then_some(0)
        }
        fn expand(
            &self,
            n: &i32,
            _prev: Option<usize>,
            left: usize,
            kids: &mut Vec<(usize, i32)>,
        ) -> u64 {
            let mut dropped = 0;
            for (i, d) in [-1, -2, 1].into_iter().enumerate() {
                let c = n + d;
                if self.prune(&c, left - 1) {
                    dropped += 1;
                } else {
                    kids.push((i, c));
                }
            }
            dropped
        }
    }

    fn clock(ms: u64) -> Clock<'static> {
        let now = Instant::now();
        Clock {
            soft: now + Duration::from_millis(ms),
            hard: now + Duration::from_millis(ms),
            answered: None,
            target: None,
        }
    }

    /// Past the time budget a search with nothing stops only once another
    /// search of the solve has an answer; before it, never; past the hard
    /// limit, always.
    #[test]
    fn clock_stops_a_late_search_once_another_has_an_answer() {
        let now = Instant::now();
        let hour = Duration::from_secs(3600);
        let answer = AtomicUsize::new(usize::MAX);
        // (`now` itself is past by the time it is read again; an instant
        // before it might not exist on a machine booted a moment ago.)
        let past_budget = Clock {
            soft: now,
            hard: now + hour,
            answered: Some(&answer),
            target: None,
        };
        assert!(!past_budget.expired_now(false));
        assert!(past_budget.expired_now(true));
        answer.store(44, Ordering::Relaxed);
        assert!(past_budget.expired_now(false));
        let in_budget = Clock {
            soft: now + hour,
            ..past_budget
        };
        assert!(!in_budget.expired_now(false));
        assert!(!in_budget.expired_now(true));
        let past_hard = Clock {
            hard: now,
            answered: None,
            ..past_budget
        };
        assert!(past_hard.expired_now(false));
    }

    /// Going on for a target length: past the budget, a search with nothing
    /// does not stop for another's answer longer than the target before the
    /// target's end; it does for one as short, and after the end.
    #[test]
    fn clock_goes_on_while_the_answer_is_longer_than_the_target() {
        let now = Instant::now();
        let hour = Duration::from_secs(3600);
        let answer = AtomicUsize::new(45);
        let going_on = Clock {
            soft: now,
            hard: now + hour,
            answered: Some(&answer),
            target: Some((43, now + hour)),
        };
        assert!(!going_on.expired_now(false));
        // What a search has found still goes on to the next phase.
        assert!(going_on.expired_now(true));
        answer.store(43, Ordering::Relaxed);
        assert!(going_on.expired_now(false));
        answer.store(45, Ordering::Relaxed);
        let ended = Clock {
            target: Some((43, now)),
            ..going_on
        };
        assert!(ended.expired_now(false));
    }

    fn policy(share: Share, want: usize) -> Policy {
        Policy {
            want,
            level_nodes: 1000,
            growth: 4,
            unlimited_after: 6,
            share,
            enough_nodes: u64::MAX,
            more_nodes: u64::MAX,
            grace_nodes: 0,
            max_nodes: u64::MAX,
            max_total: 40,
            threads: 1,
        }
    }

    /// The shortest total over several roots wins: a root with more moves
    /// before it but a shorter stage can beat one with none.
    #[test]
    fn shortest_total_over_roots() {
        let roots = [
            Root {
                node: 9,
                before: 0,
                lower: 5,
            },
            Root {
                node: 2,
                before: 3,
                lower: 4,
            },
        ];
        for share in [Share::Equal, Share::PassOverSpent] {
            let out = deepen(&Counter, &roots, &policy(share, 1), clock(10_000));
            assert_eq!(out.found.len(), 1);
            let f = &out.found[0];
            assert_eq!((f.root, f.path.as_slice()), (1, &[1][..]), "{share:?}");
        }
    }

    /// Several solutions of the shortest length are collected, each once.
    #[test]
    fn several_solutions_each_once() {
        let roots = [Root {
            node: 4,
            before: 0,
            lower: 2,
        }];
        let out = deepen(&Counter, &roots, &policy(Share::Equal, 50), clock(10_000));
        // Length 2: only -2 -2. Length 3: the orders of -1 -1 -2 (3), and
        // -2 -2 can't be followed by anything at 0. Further: longer paths.
        assert_eq!(out.found[0].path, vec![1, 1]);
        let mut paths: Vec<_> = out.found.iter().map(|f| f.path.clone()).collect();
        paths.sort();
        paths.dedup();
        assert_eq!(paths.len(), out.found.len());
        assert!(out.found.len() >= 4);
    }

    /// Spares: a goal the search prefers is the answer even when spares
    /// were met before it; where it meets none it prefers, the spares are
    /// the answer (past `spares_by`, at once; before it, once the lengths
    /// run out).
    #[test]
    fn spares_are_the_answer_only_without_a_preferred_goal() {
        let roots = [Root {
            node: 4,
            before: 0,
            lower: 2,
        }];
        // Paths with a +1 are preferred: the shortest is of length 4.
        let plus = |_: usize, p: &[usize], _: u8| {
            if p.contains(&2) {
                Verdict::Yes
            } else {
                Verdict::Spare
            }
        };
        let far = Some(Instant::now() + Duration::from_secs(60));
        let out = deepen_accepting(
            &Counter,
            &roots,
            &policy(Share::Equal, 1),
            clock(10_000),
            &plus,
            far,
        );
        assert_eq!(out.found.len(), 1);
        assert!(out.found[0].path.contains(&2));
        assert_eq!(out.found[0].path.len(), 4);
        // Nothing preferred within 6 moves: the spares, shortest first.
        let never = |_: usize, _: &[usize], _: u8| Verdict::Spare;
        let mut p = policy(Share::Equal, 3);
        p.max_total = 6;
        let out = deepen_accepting(&Counter, &roots, &p, clock(10_000), &never, far);
        assert_eq!(out.found.len(), 3);
        assert_eq!(out.found[0].path, vec![1, 1]);
        // Past `spares_by`, the first spares end the search (the lengths
        // would go on to 40).
        let now = Some(Instant::now());
        let out = deepen_accepting(
            &Counter,
            &roots,
            &policy(Share::Equal, 3),
            clock(10_000),
            &never,
            now,
        );
        assert!(out.expired && !out.found.is_empty());
        assert_eq!(out.found[0].path, vec![1, 1]);
    }

    /// Dealt out among threads, the roots give the same shortest total as
    /// on one thread, the solutions are merged shortest first with each
    /// root's index its own, and one thread's spares are dropped where
    /// another found a preferred goal.
    #[test]
    fn threads_share_the_roots() {
        let roots: Vec<Root<i32>> = [(9, 0), (2, 3), (4, 1), (7, 0), (6, 2)]
            .iter()
            .map(|&(node, before)| Root {
                node,
                before,
                lower: before + (node as usize).div_ceil(2),
            })
            .collect();
        let total = |o: &Outcome| -> Vec<usize> {
            o.found
                .iter()
                .map(|f| roots[f.root].before + f.path.len())
                .collect()
        };
        let yes = |_: usize, _: &[usize], _: u8| Verdict::Yes;
        let one = deepen_shared(
            &Counter,
            &roots,
            &policy(Share::Equal, 6),
            clock(10_000),
            &yes,
            None,
        );
        let mut p = policy(Share::Equal, 6);
        p.threads = 2;
        let two = deepen_shared(&Counter, &roots, &p, clock(10_000), &yes, None);
        assert_eq!(total(&one)[0], total(&two)[0]);
        assert!(total(&two).windows(2).all(|w| w[0] <= w[1]));
        assert!(two.found.len() >= 6);
        for f in &two.found {
            // Each path brings its own root's counter to 0.
            let end: i32 = f.path.iter().map(|&m| [-1, -2, 1][m]).sum::<i32>() + roots[f.root].node;
            assert_eq!(end, 0);
        }
        // Root 1 (node 2) is preferred only: the other thread's spares go.
        let only_root_1 = |r: usize, _: &[usize], _: u8| {
            if r == 1 {
                Verdict::Yes
            } else {
                Verdict::Spare
            }
        };
        p.max_total = 12;
        let out = deepen_shared(&Counter, &roots, &p, clock(10_000), &only_root_1, None);
        assert!(!out.spares && !out.found.is_empty());
        assert!(out.found.iter().all(|f| f.root == 1));
    }

    /// A search with no time left stops at once with nothing.
    #[test]
    fn the_clock_stops_a_search() {
        let roots = [Root {
            node: 1000,
            before: 0,
            lower: 500,
        }];
        let out = deepen(&Counter, &roots, &policy(Share::Equal, 1), clock(0));
        assert!(out.expired && out.found.is_empty());
    }

    #[test]
    fn move_order_and_residues() {
        use tablegen::notation::Face;
        let r = Move::block(Face::R, 1, 1);
        let l = Move::block(Face::L, 1, 1);
        let u = Move::block(Face::U, 1, 1);
        assert!(!allowed(Some(r), r));
        assert!(allowed(Some(r), l) != allowed(Some(l), r));
        assert!(allowed(Some(r), u) && allowed(Some(u), r));
        for d in 0..20u8 {
            for n in [d.saturating_sub(1), d, d + 1] {
                if n.abs_diff(d) <= 1 {
                    assert_eq!(next_distance(d, n % 3), n, "{d} -> {n}");
                }
            }
        }
    }
}
