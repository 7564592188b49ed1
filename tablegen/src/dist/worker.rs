//! One worker of a timely BFS: its slice of the ranks, the layers it
//! expands and the ranks it receives, its checkpoints, and its reports to
//! the process that gathers the table (see [`super`]).

use super::*;

/// A test's fault: the layer of (space size, worker, depth) fails as a
/// failed read would.
#[cfg(test)]
pub(super) static FAIL_LAYER: std::sync::Mutex<Option<(u64, usize, u8)>> =
    std::sync::Mutex::new(None);

pub(super) fn run_worker<S: Space>(
    worker: &mut Worker,
    space: &S,
    tx: Option<mpsc::Sender<Report>>,
    saves: Option<Checkpoint>,
    stop_after: Option<u8>,
    budget: Option<u64>,
) -> Result<Option<Finished>, DistError> {
    let (index, peers) = (worker.index(), worker.peers());
    let size = space.size();
    let (len, lo, hi) = slice_of(size, peers, index);
    // Out of core, the slice lives on disk (in the checkpoint directory).
    // Of the worker's memory, an eighth holds the ranks it sends; those it
    // receives are gathered in a buffer of a sixth of it (plus a batch),
    // sorted through a second one as large.
    // A limit is a ceiling: no buffer is made larger than what the build can
    // put in it (a chunk's neighbours out, the slice's ranks in).
    let out_cap = budget.map_or(usize::MAX, |b| {
        (b / 64).clamp(1024, CHUNK * SLACK as u64) as usize
    });
    let disk: Option<Rc<RefCell<DiskSlice>>> = match (budget, &saves) {
        (Some(b), Some(c)) => Some(Rc::new(RefCell::new(DiskSlice::new(
            c.clone(),
            (b / 48).clamp(1024, len.max(1024)) as usize,
            out_cap + SLACK,
        )))),
        _ => None,
    };
    let table = Rc::new(RefCell::new(if disk.is_some() {
        Vec::new()
    } else {
        vec![UNREACHED; (hi - lo) as usize]
    }));
    let marked = Rc::new(Cell::new(0u64));

    // Ranks of the next layer, to their owners. A rank sent at time d (the
    // layer expanded) is at depth d + 1: a fast worker may already send the
    // next layer's ranks while this one waits, so the time tells.
    let (mut ranks, rank_probe) = {
        let (table, marked, disk) = (table.clone(), marked.clone(), disk.clone());
        channel(
            worker,
            "mark",
            move |r: &u64| r / len,
            move |time, data: &mut Vec<u64>| {
                if let Some(d) = &disk {
                    d.borrow_mut().take(data);
                    return;
                }
                let next = time as u8 + 1;
                let mut t = table.borrow_mut();
                let mut n = 0;
                for &r in data.iter() {
                    let cell = &mut t[(r - lo) as usize];
                    if *cell == UNREACHED {
                        *cell = next;
                        n += 1;
                    }
                }
                marked.set(marked.get() + n);
            },
        )
    };

    // Each worker's share of a round, to every worker, kept with the round
    // it was sent in: a fast worker's next round may arrive first.
    let got: Inbox = Rc::default();
    let (mut shares, share_probe) = {
        let got = got.clone();
        channel(
            worker,
            "shares",
            |x: &(u64, Share)| x.0,
            move |time, data: &mut Vec<_>| {
                got.borrow_mut().extend(data.drain(..).map(|x| (time, x)));
            },
        )
    };

    // Slices of the finished table, to worker 0: into memory, or out of
    // core into a file of one byte per rank.
    let whole: Rc<RefCell<Vec<u8>>> = Rc::default();
    let depths_file = match (&disk, &saves) {
        (Some(_), Some(c)) => Some(DiskSlice::depths_path(&c.dir, peers)),
        _ => None,
    };
    let file_error: Rc<RefCell<Option<DistError>>> = Rc::default();
    let gathered = match &depths_file {
        Some(path) => file_channel(worker, path, size, &file_error),
        None => bytes_channel(worker, "gather", &whole, size as usize, UNREACHED),
    };
    let (mut pieces, piece_probe) = gathered;

    // Layer bitmaps of every slice, to every worker: a layer whose frontier
    // is larger than what is left is pulled (each unreached rank looks for a
    // neighbour in the frontier), locally, from the whole frontier's bitmap.
    let frontier: Rc<RefCell<Vec<u8>>> = Rc::default();
    let (mut bits, bits_probe) =
        bytes_channel(worker, "frontier", &frontier, size.div_ceil(8) as usize, 0);
    let mut pulls: u32 = 0;

    let mut goals = space.goals();
    goals.sort_unstable();
    goals.dedup();
    let mine: Vec<u64> = goals
        .iter()
        .copied()
        .filter(|g| (lo..hi).contains(g))
        .collect();
    if disk.is_none() {
        let mut t = table.borrow_mut();
        for &g in &mine {
            t[(g - lo) as usize] = 0;
        }
    }
    let mut figures = Figures {
        histogram: vec![goals.len() as u64],
        spent: vec![0],
        own: vec![mine.len() as u64],
    };
    let mut depth: u8 = 0;

    // Resume: every worker says which depth its checkpoint reached (or that
    // its checkpoint is damaged: then every worker stops, and keeps its
    // files); the build goes on from the lowest.
    let mut error: Option<DistError> = None;
    let saved = match saves.as_ref().map(Checkpoint::load).transpose() {
        Ok(s) => s.flatten(),
        Err(e) => {
            error = Some(e);
            None
        }
    };
    let reached_before = saved.as_ref().map_or(0, |s| s.depth as u64 + 1);
    let mut round: u32 = 0;
    let all = round_trip(worker, &mut shares, &share_probe, &got, &mut round, {
        (reached_before, 0, 0.0, index as u64, error.is_some())
    });
    if all.iter().any(|s| s.1 .4) {
        return Err(error.unwrap_or(DistError::OtherWorker));
    }
    let common = all.iter().map(|s| s.1 .0).min().unwrap_or(0);
    if let (Some(c), Some(sv), true) = (&saves, &saved, common > 0) {
        let d = (common - 1) as u8;
        let restored = c.verify(d, &sv.figures.own).and_then(|()| match &disk {
            Some(ds) => ds.borrow_mut().restore(d),
            None => c.restore(&mut table.borrow_mut(), d),
        });
        // The histogram is every worker's: each layer's count must be the
        // sum of the slices' counts, which each worker has checked against
        // its own layers. A worker whose figures disagree names its file.
        for k in 0..=d as usize {
            let own = if restored.is_ok() {
                sv.figures.own[k]
            } else {
                0
            };
            let all = round_trip(worker, &mut shares, &share_probe, &got, &mut round, {
                (own, 0, 0.0, index as u64, restored.is_err())
            });
            let sum: u64 = all.iter().map(|s| s.1 .0).sum();
            if restored.is_ok() && !all.iter().any(|s| s.1 .4) && sum != sv.figures.histogram[k] {
                error.get_or_insert(DistError::Figures {
                    path: c.meta_path(),
                    depth: k,
                    said: sv.figures.histogram[k],
                    held: sum,
                });
            }
        }
        match restored {
            Ok(()) => {
                depth = d;
                figures = sv.figures.upto(d);
                if let Some(tx) = &tx {
                    let _ = tx.send(Report::Resumed {
                        depth,
                        reached: figures.histogram.iter().sum(),
                    });
                }
            }
            Err(e) => error = Some(e),
        }
    } else if let Some(c) = &saves {
        let started = c.clear(false).and_then(|()| match &disk {
            Some(ds) => ds
                .borrow_mut()
                .start(&mine)
                .and_then(|()| c.save_meta(0, &figures)),
            None => c.save(&table.borrow(), 0, &figures),
        });
        if let Err(e) = started {
            error = Some(e);
        }
    }
    // Whether the restore or first save failed anywhere is the first thing
    // the next round tells every worker.
    let mut reached: u64 = figures.histogram.iter().sum();
    let mut count = figures.histogram[depth as usize];
    let mut out: Vec<u64> = Vec::new();
    let mut batch: Vec<u64> = Vec::new();
    let in_core = disk.is_none();
    // Sends the ranks in `out` to their owners, sorted and without repeats.
    // Out of core, their owners sort them (one sort, not two), the ranks
    // are handed over, not copied, and `out` is given its exact room again.
    let mut flush = |out: &mut Vec<u64>, ranks: &mut InputHandleVec<u32, u64>| {
        if !out.is_empty() {
            if in_core {
                out.sort_unstable();
                out.dedup();
                batch.clone_from(out);
                ranks.send_batch(&mut batch);
            } else {
                ranks.send_batch(out);
            }
            out.clear();
        }
        if !in_core && out.capacity() < out_cap + SLACK {
            out.reserve_exact(out_cap + SLACK);
        }
    };
    loop {
        // A status round first: whether any worker failed to restore or to
        // save its checkpoint, so that all stop together.
        let all = round_trip(worker, &mut shares, &share_probe, &got, &mut round, {
            (0, 0, 0.0, index as u64, error.is_some())
        });
        if all.iter().any(|s| s.1 .4) {
            return Err(error.unwrap_or(DistError::OtherWorker));
        }
        if count == 0 {
            break;
        }
        if stop_after.is_some_and(|s| depth >= s) {
            return Err(DistError::Stopped(depth));
        }
        assert!(depth < UNREACHED - 1, "depth overflow");
        let start = Instant::now();
        let next = depth + 1;
        // Ranks are sent at the time of the layer they come from (after a
        // resume the input starts behind).
        if *ranks.time() < depth as u32 {
            ranks.advance_to(depth as u32);
        }
        let (mut found, mut expanded) = (0u64, 0u64);
        // Out of core, a layer is pulled only if the whole frontier's bitmap
        // (a bit per state) fits in the worker's memory; the buffers of
        // received ranks are given back for it.
        let pull =
            count > (size - reached) / 2 && budget.is_none_or(|b| size.div_ceil(8) <= b / 8 * 7);
        if let (Some(ds), false) = (&disk, pull) {
            if out.capacity() < out_cap + SLACK {
                out.reserve_exact(out_cap + SLACK);
            }
            // The layer's bitmap, read in order; every neighbour goes to its
            // owner (this worker too), in batches. (The reader is taken
            // before the loop: the slice is borrowed again when ranks
            // arrive, inside `worker.step`.)
            let layer = ds.borrow().layer(depth);
            let mut layer = match layer {
                Ok(l) => Some(l),
                Err(e) => {
                    error.get_or_insert(e);
                    None
                }
            };
            while let Some(l) = layer.as_mut() {
                let (at, chunk) = match l.next_chunk() {
                    Ok(Some(c)) => c,
                    Ok(None) => break,
                    Err(e) => {
                        error.get_or_insert(e);
                        break;
                    }
                };
                // A word of the bitmap at a time: a sparse layer is mostly
                // zero words.
                let first = lo + at * 8;
                for (i, word) in chunk.chunks(8).enumerate() {
                    let mut w = word
                        .iter()
                        .rev()
                        .fold(0u64, |acc, &b| acc << 8 | u64::from(b));
                    while w != 0 {
                        let r = first + i as u64 * 64 + w.trailing_zeros() as u64;
                        w &= w - 1;
                        space.for_each_neighbour(r, |x| {
                            expanded += 1;
                            out.push(x);
                            true
                        });
                        if out.len() >= out_cap {
                            flush(&mut out, &mut ranks);
                            worker.step();
                        }
                    }
                }
            }
            flush(&mut out, &mut ranks);
        } else if pull {
            // Everyone's frontier bitmap, then a local pull.
            if let Some(ds) = &disk {
                // Out of core: the layer's bitmap, read in order.
                ds.borrow_mut().release();
                out = Vec::new();
                let layer = ds.borrow().layer(depth);
                let sent = layer.and_then(|mut l| {
                    while let Some((at, chunk)) = l.next_chunk()? {
                        for p in 0..peers as u64 {
                            bits.send((p, lo / 8 + at, chunk.to_vec()));
                        }
                        worker.step();
                    }
                    Ok(())
                });
                if let Err(e) = sent {
                    error.get_or_insert(e);
                }
            } else {
                let t = table.borrow();
                let mine = layer_bits(&t, depth);
                for p in 0..peers as u64 {
                    for (i, piece) in mine.chunks(GATHER).enumerate() {
                        bits.send((p, lo / 8 + (i * GATHER) as u64, piece.to_vec()));
                    }
                    worker.step();
                }
            }
            pulls += 1;
            bits.advance_to(pulls);
            while bits_probe.less_than(bits.time()) {
                worker.step_or_park(Some(PARK));
            }
            let f = frontier.borrow();
            let hit = |r: u64, expanded: &mut u64| {
                let mut hit = false;
                space.for_each_neighbour(r, |x| {
                    *expanded += 1;
                    hit = f[(x / 8) as usize] >> (x % 8) & 1 == 1;
                    !hit
                });
                hit
            };
            if let Some(ds) = &disk {
                match ds.borrow_mut().pull(next, |r| hit(r, &mut expanded)) {
                    Ok(n) => found += n,
                    Err(e) => {
                        error.get_or_insert(e);
                    }
                }
            }
            // In core (out of core the table is empty).
            let mut t = table.borrow_mut();
            for (i, cell) in t.iter_mut().enumerate() {
                if *cell != UNREACHED {
                    continue;
                }
                if hit(lo + i as u64, &mut expanded) {
                    *cell = next;
                    found += 1;
                }
            }
        } else {
            let mut at = lo;
            while at < hi {
                let end = (at + CHUNK).min(hi);
                {
                    let mut t = table.borrow_mut();
                    for r in at..end {
                        if t[(r - lo) as usize] != depth {
                            continue;
                        }
                        space.for_each_neighbour(r, |x| {
                            expanded += 1;
                            if (lo..hi).contains(&x) {
                                let cell = &mut t[(x - lo) as usize];
                                if *cell == UNREACHED {
                                    *cell = next;
                                    found += 1;
                                }
                            } else {
                                out.push(x);
                            }
                            true
                        });
                    }
                }
                flush(&mut out, &mut ranks);
                worker.step();
                at = end;
            }
        }
        ranks.advance_to(next as u32);
        while rank_probe.less_than(ranks.time()) {
            worker.step_or_park(Some(PARK));
        }
        found += marked.replace(0);
        if let (Some(ds), false) = (&disk, pull) {
            match ds.borrow_mut().merge(next) {
                Ok(n) => found += n,
                Err(e) => {
                    error.get_or_insert(e);
                }
            }
        }
        #[cfg(test)]
        if FAIL_LAYER.lock().ok().and_then(|f| *f) == Some((size, index, depth)) {
            error.get_or_insert(DistError::Gather {
                path: "injected".into(),
                reason: format!("worker {index}'s layer {depth} failed (a test)"),
            });
        }
        // A worker whose layer failed (read, pull or merge) says so in the
        // layer's own round, and every worker stops before saving a
        // checkpoint of a layer that some slice does not have.
        let secs = start.elapsed().as_secs_f64();
        let all = round_trip(worker, &mut shares, &share_probe, &got, &mut round, {
            (found, expanded, secs, index as u64, error.is_some())
        });
        if all.iter().any(|s| s.1 .4) {
            return Err(error.unwrap_or(DistError::OtherWorker));
        }
        count = all.iter().map(|s| s.1 .0).sum();
        let (slowest, slowest_secs) = slowest_of(&all);
        reached += count;
        depth = next;
        let spent = &mut figures.spent;
        spent.push(spent.last().copied().unwrap_or(0) + all.iter().map(|s| s.1 .1).sum::<u64>());
        figures.histogram.push(count);
        figures.own.push(found);
        if let Some(tx) = &tx {
            let _ = tx.send(Report::Layer {
                depth,
                found: count,
                reached,
                slowest,
                slowest_secs,
            });
        }
        if let (Some(c), true, None) = (&saves, count > 0, &error) {
            let saved = match &disk {
                Some(_) => c.save_meta(depth, &figures),
                None => c.save(&table.borrow(), depth, &figures),
            };
            if let Err(e) = saved {
                error = Some(e);
            }
        }
    }
    let expansions = figures.spent.last().copied().unwrap_or(0);
    drop(tx);
    let mut histogram = figures.histogram;
    if histogram.last() == Some(&0) {
        histogram.pop();
    }
    // Every slice to worker 0, in pieces; out of core, a piece per worker
    // at a time, so that nothing piles up in worker 0's channels.
    if let Some(ds) = &disk {
        let mut reader = ds.borrow().depths(depth)?;
        let mut time = 0;
        while let Some((first, piece)) = reader.next_piece()? {
            pieces.send((0, first, piece));
            time += 1;
            pieces.advance_to(time);
            while piece_probe.less_than(pieces.time()) {
                worker.step_or_park(Some(PARK));
            }
        }
        drop(pieces);
        while !piece_probe.done() {
            worker.step_or_park(Some(PARK));
        }
    } else {
        {
            let t = table.borrow();
            for (i, piece) in t.chunks(GATHER).enumerate() {
                pieces.send((0, lo + (i * GATHER) as u64, piece.to_vec()));
                if i % 16 == 15 {
                    worker.step();
                }
            }
        }
        pieces.advance_to(1);
        while piece_probe.less_than(pieces.time()) {
            worker.step_or_park(Some(PARK));
        }
    }
    if let Some(c) = &saves {
        c.clear(true)?;
    }
    if index != 0 {
        return Ok(None);
    }
    let depths = match depths_file {
        Some(path) => {
            if let Some(e) = file_error.take() {
                return Err(e);
            }
            Depths::File(path)
        }
        None => Depths::Memory(std::mem::take(&mut *whole.borrow_mut())),
    };
    Ok(Some(Finished {
        depths,
        histogram,
        expansions,
        pulled: pulls,
    }))
}

/// The worker that took longest over a layer, and its time (ties: the lowest
/// index).
fn slowest_of(all: &[(u64, Share)]) -> (usize, f64) {
    let mut best = (usize::MAX, -1.0f64);
    for &(_, (_, _, secs, from, _)) in all {
        let from = from as usize;
        if secs > best.1 || (secs == best.1 && from < best.0) {
            best = (from, secs);
        }
    }
    best
}
