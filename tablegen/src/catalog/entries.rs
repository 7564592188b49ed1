//! The catalog's entries: every table the toolkit builds, and the move sets
//! and projections they share.

use super::{SpaceDef, TableDef};
use crate::cube::CubeN;
use crate::notation::{Face, Move};
use crate::projection::{centres_solve, Block, Orbit, ProjectionDef};
use crate::{cube4, cube5, domino, kociemba, optimal3};
use tablefmt::Encoding;

/// The 36 outer block turns of an NxNxN (face and 2-layer wide turns).
fn obtm36() -> Vec<Move> {
    CubeN::block_turns(2)
}

/// The moves that keep U/D staged on any cube: the 36 outer block turns of
/// at most two layers without the wide quarter turns of R, L, F and B.
pub fn lr_stage_moves() -> Vec<Move> {
    use Face::*;
    without_wide_quarters(obtm36(), &[R, L, F, B])
}

/// The moves that keep every centre on its axis and the wing parity: the 18
/// outer turns and the six wide half turns.
pub fn axis_moves() -> Vec<Move> {
    use Face::*;
    without_wide_quarters(lr_stage_moves(), &[U, D])
}

/// `obtm36` without the quarter turns of the given wide moves.
fn without_wide_quarters(moves: Vec<Move>, faces: &[Face]) -> Vec<Move> {
    moves
        .into_iter()
        .filter(|m| !(m.deepest_layer() == Some(2) && m.turns != 2 && faces.contains(&m.face)))
        .collect()
}

fn ud_stage(n: usize, orbit: Orbit) -> ProjectionDef {
    ProjectionDef {
        n,
        orbit,
        blocks: vec![Block {
            faces: Face::ALL.to_vec(),
            marked: vec![Face::U, Face::D],
        }],
    }
}

/// The L/R centres of `orbit` among the four side faces (U/D staged).
fn lr_stage(n: usize, orbit: Orbit) -> ProjectionDef {
    use Face::*;
    ProjectionDef {
        n,
        orbit,
        blocks: vec![Block {
            faces: vec![R, F, L, B],
            marked: vec![R, L],
        }],
    }
}

/// Domino positions by distance, half-turn metric (established in docs/domino.md).
pub const DOMINO_HTM: &[u64] = &[
    1, 7, 34, 168, 807, 3768, 17250, 77696, 342305, 1472169, 6052497, 22364538, 65693109,
    121339537, 127175987, 58226238, 3627117, 32344, 28,
];
/// Domino positions by distance, U2 counted as two moves.
pub const DOMINO_QTM: &[u64] = &[
    1, 6, 27, 120, 529, 2280, 9797, 41602, 172877, 703124, 2753752, 9959476, 31168445, 74084200,
    115192427, 108804334, 53758865, 9617394, 156080, 264,
];

/// The whole catalog.
pub fn catalog() -> Vec<TableDef> {
    use Face::*;
    let lr_moves = lr_stage_moves();
    let centres_moves = without_wide_quarters(lr_moves.clone(), &[U, D]);
    vec![
        TableDef {
            id: "2x2x2-htm",
            puzzle: "2x2x2",
            summary: "2x2x2 distance to solved, half-turn metric (optimal solver)",
            space: SpaceDef::Cube2 { qtm: false },
            encoding: Encoding::Nibble,
            expected_states: 3_674_160,
            expected_histogram: Some(&[
                1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
            ]),
            source: "OEIS A079761",
        },
        TableDef {
            id: "2x2x2-qtm",
            puzzle: "2x2x2",
            summary: "2x2x2 distance to solved, quarter-turn metric",
            space: SpaceDef::Cube2 { qtm: true },
            encoding: Encoding::Nibble,
            expected_states: 3_674_160,
            expected_histogram: Some(&[
                1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536,
                90280, 276,
            ]),
            source: "OEIS A079762",
        },
        TableDef {
            id: "pyraminx",
            puzzle: "pyraminx",
            summary: "Pyraminx without tips, distance to solved (tips are solved apart)",
            space: SpaceDef::Pyraminx,
            encoding: Encoding::Nibble,
            expected_states: 933_120,
            expected_histogram: Some(&[
                1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32,
            ]),
            source: "OEIS A079744",
        },
        TableDef {
            id: "domino",
            puzzle: "domino",
            summary: "3x3x2 Domino, every position (mod the U-D turn), moves U U' U2 R2 L2 F2 B2",
            space: SpaceDef::Domino { qtm: false },
            encoding: Encoding::Trit,
            expected_states: domino::STATES,
            expected_histogram: Some(DOMINO_HTM),
            source: "8!^2/4 (D. T. Winter 1992); histogram: two methods of ours, docs/domino.md",
        },
        TableDef {
            id: "domino-qtm",
            puzzle: "domino",
            summary: "3x3x2 Domino where U2 counts two moves (U U' R2 L2 F2 B2)",
            space: SpaceDef::Domino { qtm: true },
            encoding: Encoding::Trit,
            expected_states: domino::STATES,
            expected_histogram: Some(DOMINO_QTM),
            source: "8!^2/4 (D. T. Winter 1992); histogram: two methods of ours, docs/domino.md",
        },
        TableDef {
            id: "3x3x3-phase1-twist-slice",
            puzzle: "3x3x3",
            summary:
                "two-phase, phase 1 bound: twist x UD-slice, one twist per class under x2 y2 z2 and the L-R mirror",
            space: SpaceDef::Cube3(kociemba::PhaseSpace::TwistSlice),
            encoding: Encoding::Nibble,
            expected_states: 324 * 495,
            expected_histogram: None,
            source: "324 twist classes (Burnside; min2phase's N_TWIST_SYM) x C(12,4); = unreduced BFS = hash-set BFS",
        },
        TableDef {
            id: "3x3x3-phase1-flip-slice",
            puzzle: "3x3x3",
            summary: "two-phase, phase 1 bound: flip x UD-slice, one flip per class under x2 y2 z2 and the L-R mirror",
            space: SpaceDef::Cube3(kociemba::PhaseSpace::FlipSlice),
            encoding: Encoding::Nibble,
            expected_states: 336 * 495,
            expected_histogram: None,
            source: "336 flip classes (Burnside; min2phase's N_FLIP_SYM) x C(12,4); = unreduced BFS = hash-set BFS",
        },
        TableDef {
            id: "3x3x3-phase1-twist-flip",
            puzzle: "3x3x3",
            summary: "two-phase, phase 1 bound: twist x flip, one flip per class under x2 y2 z2 and the L-R mirror",
            space: SpaceDef::Cube3(kociemba::PhaseSpace::TwistFlip),
            encoding: Encoding::Nibble,
            expected_states: 336 * 2187,
            expected_histogram: None,
            source: "336 flip classes (Burnside) x 3^7; equals the unreduced 3^7 x 2^11 BFS",
        },
        TableDef {
            id: "3x3x3-phase2-cperm-sperm",
            puzzle: "3x3x3",
            summary: "two-phase, phase 2 bound: corner perm (class under x2 y2 z2 and the L-R mirror) x slice perm",
            space: SpaceDef::Cube3(kociemba::PhaseSpace::CornerPermSlicePerm),
            encoding: Encoding::Nibble,
            expected_states: 5376 * 24,
            expected_histogram: None,
            source: "5376 classes (Burnside) x 4!; = unreduced 8! x 4! BFS = hash-set BFS",
        },
        TableDef {
            id: "3x3x3-phase2-eperm-sperm",
            puzzle: "3x3x3",
            summary: "two-phase, phase 2 bound: U/D edge perm (class under x2 y2 z2 and the L-R mirror) x slice perm",
            space: SpaceDef::Cube3(kociemba::PhaseSpace::EdgePermSlicePerm),
            encoding: Encoding::Nibble,
            expected_states: 5328 * 24,
            expected_histogram: None,
            source: "5328 classes (Burnside) x 4!; = unreduced 8! x 4! BFS = hash-set BFS",
        },
        TableDef {
            id: "3x3x3-phase2-eperm-ccomb",
            puzzle: "3x3x3",
            summary: "two-phase, phase 2 bound: U/D edge perm (class under x2 y2 z2 and the L-R mirror) x D-corner positions",
            space: SpaceDef::Cube3(kociemba::PhaseSpace::EdgePermCornerComb),
            encoding: Encoding::Nibble,
            expected_states: 5328 * 70,
            expected_histogram: None,
            source: "5328 classes (Burnside) x C(8,4); = unreduced 8! x C(8,4) BFS = hash-set BFS over cubies (min2phase uses this pair)",
        },
        TableDef {
            id: "3x3x3-optimal-corners",
            puzzle: "3x3x3",
            summary: "optimal solver bound: every corner (permutation class under the 16 U-D symmetries x twist)",
            space: SpaceDef::Optimal3(optimal3::OptimalSpace::Corners),
            encoding: Encoding::Nibble,
            expected_states: optimal3::CPERM_CLASSES as u64 * 2187,
            expected_histogram: None,
            source: "2768 classes (Kociemba; Burnside) x 3^7; unreduced: 88,179,840 corner positions, = unreduced BFS",
        },
        TableDef {
            id: "3x3x3-optimal-flipslice-twist",
            puzzle: "3x3x3",
            summary: "optimal solver bound: phase-1 coset (flip-slice class under the 16 U-D symmetries x twist)",
            space: SpaceDef::Optimal3(optimal3::OptimalSpace::FlipSliceTwist),
            encoding: Encoding::Nibble,
            expected_states: optimal3::FLIPSLICE_CLASSES as u64 * 2187,
            expected_histogram: None,
            source: "64,430 classes (Kociemba; Burnside) x 3^7; unreduced: the 2,217,093,120 cosets at M. Reid's depths (1995)",
        },
        TableDef {
            id: "3x3x3-optimal-flipslicesorted-twist",
            puzzle: "3x3x3",
            summary: "optimal solver bound, larger: flip x slice edges' positions and order (class under the 16 U-D symmetries) x twist, mod 3",
            space: SpaceDef::Optimal3(optimal3::OptimalSpace::FlipSortedSliceTwist),
            encoding: Encoding::Trit,
            expected_states: optimal3::FLIPSSLICE_CLASSES as u64 * 2187,
            expected_histogram: None,
            source: "1,523,864 classes (Burnside) x 3^7; unreduced, the same as a hash-set BFS of the raw triples (to depth 7)",
        },
        TableDef {
            id: "3x3x3-optimal-flipslicesorted-twist-parity",
            puzzle: "3x3x3",
            summary: "optimal solver bound, largest: flip x slice edges' positions and order (class under the 16 U-D symmetries) x twist x corner parity, mod 3",
            space: SpaceDef::Optimal3(optimal3::OptimalSpace::FlipSortedSliceTwistParity),
            encoding: Encoding::Trit,
            expected_states: optimal3::FLIPSSLICE_CLASSES as u64 * 2187 * 2,
            expected_histogram: None,
            source: "1,523,864 classes (Burnside) x 3^7 x 2; unreduced, the same as a hash-set BFS of the raw quadruples (to depth 7); each entry pair's least is the parity-free table's entry",
        },
        TableDef {
            id: "4x4x4-ud-stage",
            puzzle: "4x4x4",
            summary: "4x4x4 U/D centres staged to U or D, 36 outer block turns",
            space: SpaceDef::Facelets {
                def: ud_stage(4, Orbit::AllCentres),
                moves: obtm36(),
            },
            encoding: Encoding::Nibble,
            expected_states: 735_471,
            expected_histogram: None,
            source: "C(24,8)",
        },
        TableDef {
            id: "4x4x4-lr-stage",
            puzzle: "4x4x4",
            summary: "4x4x4 L/R centres staged once U/D are; no Rw Lw Fw Bw quarter turns",
            space: SpaceDef::Facelets {
                def: ProjectionDef {
                    n: 4,
                    orbit: Orbit::AllCentres,
                    blocks: vec![Block {
                        faces: vec![R, F, L, B],
                        marked: vec![R, L],
                    }],
                },
                moves: lr_moves.clone(),
            },
            encoding: Encoding::Nibble,
            expected_states: 12_870,
            expected_histogram: None,
            source: "C(16,8)",
        },
        TableDef {
            id: "4x4x4-centers-solve",
            puzzle: "4x4x4",
            summary: "4x4x4 centres solved once staged; wide moves only as half turns",
            space: SpaceDef::Facelets {
                def: centres_solve(4, Orbit::AllCentres),
                moves: centres_moves.clone(),
            },
            encoding: Encoding::Nibble,
            expected_states: 343_000,
            expected_histogram: None,
            source: "C(8,4)^3",
        },
        TableDef {
            id: "4x4x4-sides-stage",
            puzzle: "4x4x4",
            summary:
                "4x4x4 L/R and F/B centres staged so that <U,D,R,L,F2,B2,wide halves> solves them",
            space: SpaceDef::Reduction4 {
                space: cube4::Reduction4::SideCentres,
                moves: lr_moves.clone(),
            },
            encoding: Encoding::Nibble,
            expected_states: 900_900,
            expected_histogram: None,
            source: "16!/(4! 4! 8!)",
        },
        TableDef {
            id: "4x4x4-sides-parity",
            puzzle: "4x4x4",
            summary:
                "4x4x4 sides stage with an even wing permutation (the phase-2 bound that sees OLL parity)",
            space: SpaceDef::Reduction4 {
                space: cube4::Reduction4::SideCentresParity,
                moves: lr_moves.clone(),
            },
            encoding: Encoding::Nibble,
            expected_states: 2 * 900_900,
            expected_histogram: None,
            source: "16!/(4! 4! 8!) x 2 (wing parity)",
        },
        TableDef {
            id: "4x4x4-sides-parity-either",
            puzzle: "4x4x4",
            summary:
                "4x4x4 sides-parity, least of both frames (as is, turned by y): the phase-2 bound of either frame at once",
            space: SpaceDef::Reduction4 {
                space: cube4::Reduction4::SideCentresParityEither,
                moves: lr_moves.clone(),
            },
            encoding: Encoding::Nibble,
            expected_states: 2 * 900_900,
            expected_histogram: None,
            source: "16!/(4! 4! 8!) x 2 (wing parity); every entry = the least of 4x4x4-sides-parity as is and turned by y",
        },
        TableDef {
            id: "4x4x4-wings-split3",
            puzzle: "4x4x4",
            summary: "4x4x4 three dedges with one wing in each class (any three); the lr-stage moves",
            space: SpaceDef::Reduction4 {
                space: cube4::Reduction4::Split(3),
                moves: lr_moves.clone(),
            },
            encoding: Encoding::Nibble,
            expected_states: 2_018_940,
            expected_histogram: None,
            source: "C(24,6) x 5 x 3 (three unordered pairs of slots)",
        },
        TableDef {
            id: "4x4x4-wings-pair",
            puzzle: "4x4x4",
            summary: "4x4x4 all twelve dedges paired in <U,D,R,L,F2,B2,Uw2,Dw2,Rw2,Lw2,Fw2,Bw2> (distance mod 3)",
            space: SpaceDef::Reduction4 {
                space: cube4::Reduction4::PairAll,
                moves: cube4::pairing_moves(),
            },
            encoding: Encoding::Trit,
            expected_states: 239_500_800,
            expected_histogram: None,
            source: "12!/2 (even relative permutations)",
        },
        TableDef {
            id: "4x4x4-pair-centres",
            puzzle: "4x4x4",
            summary: "4x4x4 centres and PLL parity in the pairing group without Dw2 Lw2 Bw2 (the pairing phase's centre bound; solved up to x2, y2, z2)",
            space: SpaceDef::Reduction4 {
                space: cube4::Reduction4::PairCentres,
                moves: cube4::pairing_moves_without_dlb_wide(),
            },
            encoding: Encoding::Nibble,
            expected_states: 117_600,
            expected_histogram: None,
            source: "70 x 70 x 12 (U/D, L/R, F/B centres; L/R and F/B tied) x 2 (PLL parity)",
        },
        TableDef {
            id: "5x5x5-ud-t-stage",
            puzzle: "5x5x5",
            summary: "5x5x5 U/D T-centres staged (IDA* heuristic), 36 outer block turns",
            space: SpaceDef::Facelets {
                def: ud_stage(5, Orbit::TCentres(1)),
                moves: obtm36(),
            },
            encoding: Encoding::Nibble,
            expected_states: 735_471,
            expected_histogram: None,
            source: "C(24,8)",
        },
        TableDef {
            id: "5x5x5-ud-x-stage",
            puzzle: "5x5x5",
            summary: "5x5x5 U/D X-centres staged (IDA* heuristic), 36 outer block turns",
            space: SpaceDef::Facelets {
                def: ud_stage(5, Orbit::XCentres(1)),
                moves: obtm36(),
            },
            encoding: Encoding::Nibble,
            expected_states: 735_471,
            expected_histogram: None,
            source: "C(24,8)",
        },
        TableDef {
            id: "5x5x5-lr-t-stage",
            puzzle: "5x5x5",
            summary: "5x5x5 L/R T-centres staged once U/D are; no Rw Lw Fw Bw quarter turns",
            space: SpaceDef::Facelets {
                def: lr_stage(5, Orbit::TCentres(1)),
                moves: without_wide_quarters(obtm36(), &[R, L, F, B]),
            },
            encoding: Encoding::Nibble,
            expected_states: 12_870,
            expected_histogram: None,
            source: "C(16,8)",
        },
        TableDef {
            id: "5x5x5-lr-x-stage",
            puzzle: "5x5x5",
            summary: "5x5x5 L/R X-centres staged once U/D are; no Rw Lw Fw Bw quarter turns",
            space: SpaceDef::Facelets {
                def: lr_stage(5, Orbit::XCentres(1)),
                moves: without_wide_quarters(obtm36(), &[R, L, F, B]),
            },
            encoding: Encoding::Nibble,
            expected_states: 12_870,
            expected_histogram: None,
            source: "C(16,8)",
        },
        TableDef {
            id: "5x5x5-t-centres-solve",
            puzzle: "5x5x5",
            summary: "5x5x5 T-centres solved once staged; wide moves only as half turns",
            space: SpaceDef::Facelets {
                def: centres_solve(5, Orbit::TCentres(1)),
                moves: centres_moves.clone(),
            },
            encoding: Encoding::Nibble,
            expected_states: 343_000,
            expected_histogram: None,
            source: "C(8,4)^3",
        },
        TableDef {
            id: "5x5x5-x-centres-solve",
            puzzle: "5x5x5",
            summary: "5x5x5 X-centres solved once staged; wide moves only as half turns",
            space: SpaceDef::Facelets {
                def: centres_solve(5, Orbit::XCentres(1)),
                moves: centres_moves.clone(),
            },
            encoding: Encoding::Nibble,
            expected_states: 343_000,
            expected_histogram: None,
            source: "C(8,4)^3",
        },
        TableDef {
            id: "5x5x5-lr-x-parity",
            puzzle: "5x5x5",
            summary: "5x5x5 L/R X-centres staged once U/D are, with an even wing permutation",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::LrParity,
                moves: lr_stage_moves(),
            },
            encoding: Encoding::Nibble,
            expected_states: cube5::LR_PARITY,
            expected_histogram: None,
            source: "C(16,8) x 2 (wing parity)",
        },
        TableDef {
            id: "5x5x5-fb-centres-eo",
            puzzle: "5x5x5",
            summary: "5x5x5 F/B T- and X-centres arranged for the pairing group, midges oriented; centres on their axes",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::FbEo,
                moves: axis_moves(),
            },
            encoding: Encoding::Nibble,
            expected_states: cube5::FB_EO,
            expected_histogram: None,
            source: "C(8,4)^2 x 2^11",
        },
        TableDef {
            id: "5x5x5-wings-split",
            puzzle: "5x5x5",
            summary: "5x5x5 high wings in the high slots (the wing classes of the pairing group); centres on their axes",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::WingsSplit,
                moves: axis_moves(),
            },
            encoding: Encoding::Nibble,
            expected_states: cube5::SPLIT_SETS,
            expected_histogram: None,
            source: "C(24,12)",
        },
        TableDef {
            id: "5x5x5-tredges-pair",
            puzzle: "5x5x5",
            summary: "5x5x5 every high wing with its midge in <U,D,R,L,F2,B2,Uw2,Dw2,Rw2,Lw2,Fw2,Bw2> (distance mod 3)",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::MidPair,
                moves: cube4::pairing_moves(),
            },
            encoding: Encoding::Trit,
            expected_states: 479_001_600,
            expected_histogram: None,
            source: "12! (relative permutations of both parities)",
        },
        TableDef {
            id: "5x5x5-e-slice-high",
            puzzle: "5x5x5",
            summary: "5x5x5 four tredges' midges and high wings paired in the E slice, in <U,D,R,L,F2,B2,Uw2,Dw2,Rw2,Lw2,Fw2,Bw2>",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::ESlice(true),
                moves: cube4::pairing_moves(),
            },
            encoding: Encoding::Nibble,
            expected_states: crate::pair5::E_SLICE_STATES,
            expected_histogram: None,
            source: "C(12,4) x 12*11*10*9",
        },
        TableDef {
            id: "5x5x5-e-slice-low",
            puzzle: "5x5x5",
            summary: "5x5x5 four tredges' midges and low wings paired in the E slice, in <U,D,R,L,F2,B2,Uw2,Dw2,Rw2,Lw2,Fw2,Bw2>",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::ESlice(false),
                moves: cube4::pairing_moves(),
            },
            encoding: Encoding::Nibble,
            expected_states: crate::pair5::E_SLICE_STATES,
            expected_histogram: None,
            source: "C(12,4) x 12*11*10*9",
        },
        TableDef {
            id: "5x5x5-side-centres",
            puzzle: "5x5x5",
            summary: "5x5x5 R/L/F/B T- and X-centres together, from the pairing group to the arrangements of <U,D,R2,L2,F2,B2,Rw2,Lw2,Fw2,Bw2>",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::Sides,
                moves: cube4::pairing_moves(),
            },
            encoding: Encoding::Nibble,
            expected_states: crate::pair5::SIDE_STATES,
            expected_histogram: None,
            source: "70^2 R/L x 432 F/B arrangements",
        },
        TableDef {
            id: "5x5x5-split-eo",
            puzzle: "5x5x5",
            summary: "5x5x5 high wings in the high slots with every midge oriented, up to 16 symmetries and the class swap; centres on their axes",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::SplitEo,
                moves: axis_moves(),
            },
            encoding: Encoding::Nibble,
            expected_states: crate::split5::SPLIT_EO_ENTRIES,
            expected_histogram: Some(&[
                1, 1, 5, 38, 308, 3_216, 34_162, 315_492, 2_416_258, 13_698_067, 47_646_663,
                74_936_949, 34_414_060, 2_741_214, 19_835, 35,
            ]),
            source: "86,048 split classes (Burnside; cube555's phase-3 count) x 2^11",
        },
        TableDef {
            id: "5x5x5-split-eo-classes",
            puzzle: "5x5x5",
            summary: "not distances: 5x5x5-split-eo's classes (each split's class and symmetry, each class's least split and stabiliser), so that a solver maps them instead of finding them at every start",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::SplitEoClasses,
                moves: axis_moves(),
            },
            encoding: Encoding::Word,
            expected_states: crate::split5::SPLIT_EO_CLASS_WORDS,
            expected_histogram: Some(&[1_352_078, 86_048, 86_048]),
            source: "parts: C(23,12) splits without slot 23 (formula); 86,048 classes twice (Burnside; cube555's phase-3 count)",
        },
        TableDef {
            id: "5x5x5-e-slice-three",
            puzzle: "5x5x5",
            summary: "5x5x5 three tredges (midges, high and low wings) paired in the E slice, in <U,D,R,L,F2,B2,Uw2,Dw2,Rw2,Lw2,Fw2,Bw2> (distance mod 3)",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::ETriple,
                moves: cube4::pairing_moves(),
            },
            encoding: Encoding::Trit,
            expected_states: crate::pair5::E_TRIPLE_STATES,
            expected_histogram: None,
            source: "C(12,3) x (12*11*10)^2",
        },
        TableDef {
            id: "5x5x5-e-four-rl",
            puzzle: "5x5x5",
            summary: "5x5x5 four tredges (midges, high and low wings) from the R/L layers paired in the E slice, in <R,L,U2,D2,F2,B2,Uw2,Dw2,Rw2,Lw2,Fw2,Bw2>, up to 4 rotations (distance mod 3)",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::EFour,
                moves: crate::pair5::rl_pair_moves(),
            },
            encoding: Encoding::Trit,
            expected_states: crate::pair5::E_FOUR_RL_ENTRIES,
            expected_histogram: Some(&[
                1, 2, 10, 56, 337, 2_100, 12_525, 71_445, 385_107, 1_889_220, 7_564_378, 19_318_262,
                18_165_899, 2_335_978, 9_560,
            ]),
            source: "29,616 classes of the midges with their high wings (cube555's count) x 8*7*6*5; histogram: cube555's published Phase4EdgeSym entries per depth (cs0x7f/cube555, PruningValue.txt; weighted by the states each stands for = the 197,568,000 states' depths, test)",
        },
        e_four_both(),
        TableDef {
            id: "5x5x5-last8-edges",
            puzzle: "5x5x5",
            summary: "5x5x5 U/D-layer high and low wings with their midges in <U,D,R2,L2,F2,B2,Rw2,Lw2,Fw2,Bw2>, up to 8 symmetries (distance mod 3)",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::Last8,
                moves: crate::pair5::last8_moves(),
            },
            encoding: Encoding::Trit,
            expected_states: crate::pair5::LAST8_STATES,
            expected_histogram: None,
            source: "8! x 8!/2 up to 8 symmetries (Burnside)",
        },
        TableDef {
            id: "5x5x5-last8-low-centres",
            puzzle: "5x5x5",
            summary: "5x5x5 U/D-layer low wings with their midges and the U/D T- and X-centres together in <U,D,R2,L2,F2,B2,Rw2,Lw2,Fw2,Bw2> (distance mod 3)",
            space: SpaceDef::Reduction5 {
                space: cube5::Reduction5::Last8Centres,
                moves: crate::pair5::last8_moves(),
            },
            encoding: Encoding::Trit,
            expected_states: crate::pair5::LAST8_CENTRES_STATES,
            expected_histogram: Some(&[
                1, 4, 30, 196, 1_315, 8_527, 54_089, 335_196, 1_983_675, 10_389_623, 40_762_934,
                86_158_440, 54_686_120, 3_185_914, 1_936,
            ]),
            source: "8! x C(8,4)^2; histogram: cube555's published Phase5LEdgeSymCenter counts (cs0x7f/cube555, PruningValue.txt)",
        },
        TableDef {
            id: "5x5x5-ud-stage-d5",
            puzzle: "5x5x5",
            summary: "5x5x5 U/D T- and X-centres staged together, all states within 5 moves",
            space: SpaceDef::SparseFacelets {
                def: ProjectionDef {
                    n: 5,
                    orbit: Orbit::Union(vec![Orbit::TCentres(1), Orbit::XCentres(1)]),
                    blocks: vec![Block {
                        faces: Face::ALL.to_vec(),
                        marked: vec![U, D],
                    }],
                },
                moves: obtm36(),
                max_depth: 5,
            },
            encoding: Encoding::Fst,
            expected_states: 0,
            expected_histogram: None,
            source: "hash-set BFS on the facelet model (test)",
        },
        TableDef {
            id: "5x5x5-ud-stage-hashed",
            puzzle: "5x5x5",
            summary: "5x5x5 U/D T- and X-centres staged together, every state within 7 moves up to 16 symmetries, hashed to 2^27 buckets keeping the least depth (a lower bound)",
            space: SpaceDef::HashedCentres5 {
                t: ud_stage(5, Orbit::TCentres(1)),
                x: ud_stage(5, Orbit::XCentres(1)),
                moves: obtm36(),
            },
            encoding: Encoding::Crumb,
            expected_states: 1 << crate::centres5::BUCKET_BITS,
            expected_histogram: None,
            source: "2^27 buckets; the BFS's states per depth are cube555's published Phase1CenterSym counts (test)",
        },
        TableDef {
            id: "nnn-route-oblique-cycles",
            puzzle: "NxNxN",
            summary: "6x6x6 and up: the route's oblique-centre commutators behind every setup of up to two turns, once per effect",
            space: SpaceDef::Cycles(crate::cycles::CycleSpace::Oblique),
            encoding: Encoding::Fst,
            expected_states: 715_904,
            expected_histogram: None,
            source: "an exact set of every (cycle, setup) pair's effect (test)",
        },
        TableDef {
            id: "nnn-route-t-cycles",
            puzzle: "NxNxN",
            summary: "7x7x7 and up (odd): the route's T-centre commutators behind every setup of up to two turns, once per effect",
            space: SpaceDef::Cycles(crate::cycles::CycleSpace::T),
            encoding: Encoding::Fst,
            expected_states: 266_656,
            expected_histogram: None,
            source: "an exact set of every (cycle, setup) pair's effect (test)",
        },
    ]
}

/// The four tredges of the R/L-layer stage with their low wings and both R/L
/// centre orbits, up to symmetry (the high wings' states are read through a
/// reflection: [`crate::pair5::EFourMirror`]).
fn e_four_both() -> TableDef {
    TableDef {
        id: "5x5x5-e-four-rl-centres",
        puzzle: "5x5x5",
        summary: "5x5x5 four tredges' midges and low wings (the high ones through a reflection) with the R/L T- and X-centres, paired in the E slice in <R,L,U2,D2,F2,B2,Uw2,Dw2,Rw2,Lw2,Fw2,Bw2>, up to 4 rotations (distance mod 3)",
        space: SpaceDef::Reduction5 {
            space: cube5::Reduction5::EFourBoth { high: false },
            moves: crate::pair5::rl_pair_moves(),
        },
        encoding: Encoding::Trit,
        expected_states: crate::pair5::E_FOUR_BOTH_ENTRIES,
        expected_histogram: Some(&[
            6, 12, 78, 516, 3_047, 20_246, 129_232, 792_151, 4_459_706, 20_441_854, 57_963_527,
            55_470_719, 5_829_269, 8_037,
        ]),
        source: "29,616 edge classes (cube555's count) x C(8,4)^2; histogram: cube555's published Phase4MLEdgeSymUDCenter entries per depth (cs0x7f/cube555, PruningValue.txt; its states per depth = our BFS's, test)",
    }
}
