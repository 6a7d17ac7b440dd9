//! A thread's depth-first stack of components, the exhaustive search's
//! (`workers.rs`) and a dive's (`dives.rs`).

use crate::state::{Move, State};

/// One component being searched by a thread, depth-first: the children not entered
/// yet (a position of each new component it leads to, with the moves
/// there from the component's first position), the next one to enter
/// last.
pub(super) struct Frame {
    pub(super) children: Vec<(State, Vec<Move>)>,
    /// Moves from the start to this component's first position.
    pub(super) depth: usize,
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
