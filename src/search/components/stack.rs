//! A thread's depth-first stack of components, the exhaustive search's
//! (`workers.rs`) and a dive's (`dives.rs`).

use super::{Class, Losses};
use crate::state::{Move, State};

/// One component being searched by a thread, depth-first: the children not entered
/// yet (a position of each new component it leads to, with the moves
/// there from the component's first position), the next one to enter
/// last.
pub(super) struct Frame {
    pub(super) children: Vec<(State, Vec<Move>)>,
    /// Moves from the start to this component's first position.
    pub(super) depth: usize,
    /// The component's first position, for the tests of loss.
    pub(super) first: State,
    /// The thread's count of components expanded when this one was.
    pub(super) entered: u64,
    /// Whether the tests of loss have been asked of it.
    pub(super) tested: bool,
}

impl Frame {
    /// The frame of `first`, expanded as the thread's `entered`th
    /// component, with its `children`; `depth` moves from the start.
    pub(super) fn new(
        first: &State,
        children: Vec<(State, Vec<Move>)>,
        depth: usize,
        entered: u64,
    ) -> Frame {
        Frame {
            children,
            depth,
            first: first.clone(),
            entered,
            tested: false,
        }
    }
}

/// The next component of the search: the top frame's next
/// child, backing up past frames done; `path` made the moves to it.
pub(super) fn next(frames: &mut Vec<Frame>, path: &mut Vec<Move>) -> Option<State> {
    loop {
        let frame = frames.last_mut()?;
        let Some((child, moves)) = frame.children.pop() else {
            frames.pop();
            continue;
        };
        path.truncate(frame.depth);
        path.extend(moves);
        return Some(child);
    }
}

/// Asks the triple test, then the suitless game (`Losses::proven_lost`),
/// of the components whose subtrees have grown large: each frame once,
/// when [`SUBTREE_FOR_TRIPLES`] components have been expanded since it
/// was (`expanded` is the thread's count now), the nearest the start
/// first. A component the test finds lost is left with
/// all it has not entered yet: every position reachable from a lost one
/// is lost, so its children are (their names, stored, are of lost
/// components: skipping them loses no win). Its name, with those of the
/// components entered beneath it, is kept for good (`Losses::cut`): the
/// dives pass near the start again and again, and the exhaustive search
/// may meet a component a dive cut.
///
/// Why not every component: the triple test costs tens of milliseconds,
/// two hundred expansions, and most components' subtrees are smaller
/// than that; a subtree that grows past it is one the test may cut
/// whole. Each frame is asked once, so the test's cost stays a share of
/// the search's (the suitless game, dearer, keeps to a share of its own).
pub(super) fn cut_lost(frames: &mut Vec<Frame>, expanded: u64, lost: &mut Losses) {
    for i in 0..frames.len() {
        let frame = &mut frames[i];
        if frame.tested || expanded - frame.entered < SUBTREE_FOR_TRIPLES {
            continue;
        }
        frame.tested = true;
        if lost.proven_lost(&frame.first) {
            for cut in frames.drain(i..) {
                lost.cut(Class::of(&cut.first).name);
            }
            return;
        }
    }
}

/// Components expanded below a component before the triple test is asked
/// of it: some two hundred expansions cost what a test costs. In the
/// unit tests, whose small games have small subtrees, a few: the searches
/// of small games ask it (it finds nothing there the pair test misses,
/// and must not: their verdicts are the plain ones).
pub(super) const SUBTREE_FOR_TRIPLES: u64 = if cfg!(test) { 4 } else { 200 };

#[cfg(test)]
mod tests {
    use super::{Frame, SUBTREE_FOR_TRIPLES, cut_lost};
    use crate::search::components::{Class, Losses};
    use crate::state::State;

    fn start(deal: &str) -> State {
        State::new(&crate::deal::Deal::new(deal.parse().expect("a deal")))
    }

    /// A stack whose middle frame is lost by triples (bd.5837's start:
    /// the pair test passes it) between two that are not (bd.1's start,
    /// and bd.3's, standing for a component entered beneath the lost
    /// one): the test is asked of each frame once its subtree is large,
    /// the nearest the start first, and the lost one is left with
    /// everything above it, their names kept.
    #[test]
    fn a_component_lost_by_triples_is_left_with_what_it_had_not_entered() {
        let (live, lost, beneath) = (start("bd.1"), start("bd.5837"), start("bd.3"));
        let child = || vec![(live.clone(), Vec::new())];
        let mut frames = vec![
            Frame::new(&live, child(), 0, 1),
            Frame::new(&lost, child(), 0, 2),
            Frame::new(&beneath, child(), 0, 3),
        ];
        let mut losses = Losses::new(true);
        // No subtree is large yet: nothing asked.
        cut_lost(&mut frames, SUBTREE_FOR_TRIPLES, &mut losses);
        assert_eq!((frames.len(), losses.triple_tests), (3, 0));
        // The first two are: the first passes, the second is cut with
        // the frame above it.
        cut_lost(&mut frames, SUBTREE_FOR_TRIPLES + 2, &mut losses);
        assert_eq!(frames.len(), 1);
        assert!(frames[0].tested);
        assert_eq!((losses.triple_tests, losses.triple_cuts), (2, 1));
        // The cut components are kept, for any dive or search that meets
        // them again; the live one is not.
        assert!(losses.met(&Class::of(&lost).name));
        assert!(losses.met(&Class::of(&beneath).name));
        assert!(!losses.met(&Class::of(&live).name));
        // A frame is asked once.
        cut_lost(&mut frames, 10 * SUBTREE_FOR_TRIPLES, &mut losses);
        assert_eq!((frames.len(), losses.triple_tests), (1, 2));
        // Without the pair test (`--no-pairs`), no triple test either.
        let mut frames = vec![Frame::new(&lost, child(), 0, 1)];
        let mut without = Losses::new(false);
        cut_lost(&mut frames, 10 * SUBTREE_FOR_TRIPLES, &mut without);
        assert_eq!((frames.len(), without.triple_tests), (1, 0));
    }
}
