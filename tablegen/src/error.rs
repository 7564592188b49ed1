//! The errors of the puzzle models: a facelet state that is no real puzzle
//! ([`StateError`], the user's input) and a move set a coordinate space cannot
//! take ([`ModelError`], a fault of the catalog or of the caller).
//!
//! The errors of other concepts stand with them: [`crate::notation`]'s
//! [`NotationError`](crate::notation::NotationError), [`crate::cube`]'s
//! [`MoveFitError`](crate::cube::MoveFitError), [`crate::catalog`]'s
//! [`BuildError`](crate::catalog::BuildError), [`crate::artifact`]'s
//! [`CatalogMismatch`](crate::artifact::CatalogMismatch).

use crate::cube::MoveFitError;
use crate::notation::{Face, Move};

/// Why a facelet state is not a legal state of its puzzle: the rule it
/// breaks, as one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// A character of a state string that is no colour letter, at its
    /// 1-based position in the string as given.
    #[error("unknown colour {colour:?} at character {at} of the state (a state is only the letters U R F D L B, no spaces)")]
    UnknownColour {
        /// The character.
        colour: char,
        /// Its 1-based position.
        at: usize,
    },
    /// A state of an NxNxN with another number of facelets than 6 N^2;
    /// `fits` names the size whose length it has, where a message says so.
    #[error("a {n}x{n}x{n} state has {} facelets, got {got}{}", 6 * .n * .n, fits_note(.fits))]
    Length {
        /// The cube size N.
        n: usize,
        /// The facelets given.
        got: usize,
        /// The size of the cube with `got` facelets, when one has and the
        /// message names it.
        fits: Option<usize>,
    },
    /// A colour that does not appear N^2 times.
    #[error("colour {} appears {count} times (a {n}x{n}x{n} has {} of each colour)", .colour.letter(), .n * .n)]
    ColourCount {
        /// The colour.
        colour: Face,
        /// How often it appears.
        count: usize,
        /// The cube size N.
        n: usize,
    },
    /// A centre orbit without four facelets of each colour.
    #[error("centre orbit {orbit} ({cells}): colour {} appears {count} times, not 4", .colour.letter())]
    CentreOrbit {
        /// The orbit's 1-based number.
        orbit: usize,
        /// Which centres the orbit holds (`X-centres 1 in from the corner`).
        cells: String,
        /// The first colour that does not appear four times.
        colour: Face,
        /// How often it appears.
        count: usize,
    },
    /// A wing orbit whose wings are not the 24 of a real cube.
    #[error("wing orbit {orbit}: {problem}")]
    WingOrbit {
        /// The orbit's 1-based number.
        orbit: usize,
        /// What is wrong with its wings.
        problem: WingProblem,
    },
    /// A corner slot showing colours no corner has (in that order).
    #[error("the corner at {slot} shows {shows}, which no corner has")]
    UnknownCorner {
        /// The slot (`URF`).
        slot: String,
        /// Its colours, clockwise.
        shows: String,
    },
    /// A corner piece in two slots.
    #[error("corner {0} appears twice")]
    CornerTwice(String),
    /// Corner twists that do not sum to 0 mod 3.
    #[error("a corner is twisted (corner twists do not sum to 0 mod 3)")]
    Twist,
    /// Centres no whole-cube rotation brings home.
    #[error("the centres are not those of a cube (two centres share a colour or are mirrored)")]
    Centres,
    /// An edge slot showing colours no edge has.
    #[error("the edge at {slot} shows {shows}, which no edge has")]
    UnknownEdge {
        /// The slot (`UR`).
        slot: String,
        /// Its colours.
        shows: String,
    },
    /// An edge piece in two slots.
    #[error("edge {0} appears twice")]
    EdgeTwice(String),
    /// Edge flips that do not sum to an even number.
    #[error("an edge is flipped (edge flips do not sum to an even number)")]
    Flip,
    /// Corner and edge permutations of different parities.
    #[error("two pieces are swapped (corner and edge permutation parities differ)")]
    Parity,
    /// A 2x2x2 without the corner coloured D, B, L.
    #[error("no corner shows the colours D, B, L in clockwise order")]
    NoDblCorner,
    /// A wing slot of a 4x4x4 showing colours no wing has.
    #[error("the wing at facelets {}/{} shows {shows}, which no wing has", .facelets[0], .facelets[1])]
    UnknownWing {
        /// The slot's two facelets.
        facelets: [usize; 2],
        /// Its colours.
        shows: String,
    },
    /// A wing piece of a 4x4x4 in two slots.
    #[error("wing {0} appears twice")]
    WingTwice(String),
}

/// What is wrong with the wings of one orbit ([`StateError::WingOrbit`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WingProblem {
    /// A wing of the orbit in two slots.
    #[error("wing {0} appears twice")]
    Twice(String),
    /// A wing no wing of the orbit is, and one the orbit lacks.
    #[error("a wing shows {shows}, which no wing of this orbit has (wing {missing} is missing)")]
    Foreign {
        /// The colours shown.
        shows: String,
        /// A wing of the orbit not there.
        missing: String,
    },
    /// A wing of the orbit not there.
    #[error("wing {0} is missing")]
    Missing(String),
    /// Any other difference from the 24 wings of a real cube.
    #[error("its wings are not the 24 of a real cube")]
    NotReal,
}

/// ` (the length of a KxKxK)` when `fits` names a size.
fn fits_note(fits: &Option<usize>) -> String {
    fits.map(|k| format!(" (the length of a {k}x{k}x{k})"))
        .unwrap_or_default()
}

/// Why a coordinate space cannot be made for a move set: the moves leave
/// the space (they mix what it keeps apart) or the space is not what it
/// should be. The catalog's spaces and the solvers' stages never see one; it
/// is a fault of the catalog or of the caller, not of the user's input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// A move that does not fit the cube the space is of.
    #[error(transparent)]
    Move(#[from] MoveFitError),
    /// A move that takes wings from one class to the other.
    #[error("move {0} moves wings between the classes")]
    MixesClasses(Move),
    /// A move that takes an edge piece out of the R and L layers.
    #[error("move {0} takes edge pieces out of the R and L layers")]
    LeavesLayers(Move),
    /// A move that permutes the two wing classes with different parities.
    #[error("move {0} permutes the two classes with different parities")]
    ClassParities(Move),
    /// A move that takes U/D centres to the sides.
    #[error("move {0} moves U/D centres to the sides")]
    UdCentresToSides(Move),
    /// A projection tracking more than 64 facelets.
    #[error("more than 64 tracked facelets")]
    TooManyFacelets,
    /// A projection too large to rank densely where a dense one is needed.
    #[error("the projection is too large to rank densely")]
    NotDense,
    /// A move that takes a projection's facelets out of their block.
    #[error("move {0} does not keep the projection's blocks")]
    Blocks(Move),
    /// A move the 4x4x4 part of a 5x5x5 has no move for.
    #[error(
        "move {0} turns a middle layer (the 4x4x4 part is defined for one- and two-layer turns)"
    )]
    MiddleLayer(Move),
    /// A move after which the midges cannot be read (it moves the middle
    /// centres); `state` is why.
    #[error("move {mv} does not keep the midges' frame: {state}")]
    MidgeFrame {
        /// The move.
        mv: Move,
        /// What reading the midges after it found.
        state: StateError,
    },
    /// A move that flips midges.
    #[error("move {0} flips midges")]
    FlipsMidges(Move),
    /// A move whose facelet permutation is not one.
    #[error("not a permutation")]
    NotAPermutation,
    /// A move that takes a side centre off the sides.
    #[error("{0} moves a side centre off the sides")]
    SideCentreOff(Move),
    /// A move that takes a side centre to another group of eight.
    #[error("{0} moves a side centre to another group")]
    SideCentreGroup(Move),
    /// Another number of F/B centre arrangements than the pairing group has.
    #[error("{0} F/B arrangements, expected {expected}", expected = crate::pair5::FB_ARRANGEMENTS)]
    FbArrangements(usize),
    /// A move that takes a U/D-layer piece (`piece`: wing or midge) into the
    /// E slice.
    #[error("{mv} moves a U/D-layer {piece} into the E slice")]
    IntoESlice {
        /// The move.
        mv: Move,
        /// `wing` or `midge`.
        piece: &'static str,
    },
    /// More symmetries than a node encodes.
    #[error("{0} symmetries (at most 16 are encoded)")]
    Symmetries(usize),
    /// A space whose symmetries do not hold (`0` says which part).
    #[error("the symmetries do not hold: {0}")]
    Symmetry(&'static str),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages are those the strings had (the CLI's one-line errors
    /// and the tests of other crates read them).
    #[test]
    fn messages_are_the_rules_in_words() {
        let length = |fits| StateError::Length {
            n: 3,
            got: 96,
            fits,
        };
        assert_eq!(
            length(Some(4)).to_string(),
            "a 3x3x3 state has 54 facelets, got 96 (the length of a 4x4x4)"
        );
        assert_eq!(
            length(None).to_string(),
            "a 3x3x3 state has 54 facelets, got 96"
        );
        let count = StateError::ColourCount {
            colour: Face::B,
            count: 8,
            n: 3,
        };
        assert_eq!(
            count.to_string(),
            "colour B appears 8 times (a 3x3x3 has 9 of each colour)"
        );
        let wing = StateError::WingOrbit {
            orbit: 2,
            problem: WingProblem::Foreign {
                shows: "UU".into(),
                missing: "UF".into(),
            },
        };
        assert_eq!(
            wing.to_string(),
            "wing orbit 2: a wing shows UU, which no wing of this orbit has (wing UF is missing)"
        );
        let r3 = Move::block(Face::R, 3, 1);
        let frame = ModelError::MidgeFrame {
            mv: r3,
            state: StateError::Centres,
        };
        assert_eq!(
            frame.to_string(),
            "move 3Rw does not keep the midges' frame: the centres are not those of a cube (two centres share a colour or are mirrored)"
        );
        assert_eq!(
            ModelError::FbArrangements(431).to_string(),
            "431 F/B arrangements, expected 432"
        );
        let fit = MoveFitError::InnerLayer {
            mv: crate::notation::parse_token("3R").unwrap(),
            layer: 3,
            n: 3,
        };
        assert_eq!(
            ModelError::from(fit).to_string(),
            "3R turns inner layer 3 but a 3x3x3 has inner layers 2..2"
        );
    }
}
