//! The player's moves and xpat2's piles in words, for the message that
//! refuses a move: `10♥ 9♠ 8♦ from column 2 onto J♠ in column 4`.

use crate::cards::{Card, Name, SUITS};
use crate::state::Dest;
use crate::xpat2::Board;

const SUIT_SYMBOLS: [&str; SUITS] = ["♣", "♠", "♥", "♦"];

/// Pile `pile` of xpat2's array in words: `column 2`, `free cell 1`.
fn pile_name(board: &Board, pile: usize) -> String {
    if pile < SUITS {
        format!("the {} foundation", SUIT_SYMBOLS[pile])
    } else if board.is_cell(pile) {
        format!("free cell {}", pile - board.cell_pile(0) + 1)
    } else if pile < board.piles() - 1 {
        format!("column {}", pile - board.column_pile(0) + 1)
    } else {
        "the deck".to_string()
    }
}

/// The player's move in words: `10♥ 9♠ 8♦ from column 2 onto J♠ in
/// column 4`.
pub(super) fn describe(
    board: &Board,
    block: &[Card],
    src: usize,
    dst: usize,
    onto: Option<Card>,
) -> String {
    let cards: Vec<String> = block.iter().map(|&c| Name(c).to_string()).collect();
    let to = match onto {
        _ if dst < SUITS => "to the foundation".to_string(),
        Some(c) => format!("onto {} in {}", Name(c), pile_name(board, dst)),
        None if board.is_cell(dst) => format!("to {}", pile_name(board, dst)),
        None => format!("to the empty {}", pile_name(board, dst)),
    };
    format!("{} from {} {to}", cards.join(" "), pile_name(board, src))
}

/// Where a move sends its card, in words.
pub(super) fn to_where(dest: Dest) -> String {
    match dest {
        Dest::Card(c) => format!("onto {}", Name(c)),
        Dest::EmptyColumn => "to an empty column".to_string(),
        Dest::Register => "to a free cell".to_string(),
        Dest::Foundation => "to the foundation".to_string(),
        Dest::TurnUp => "turned up to its column's top".to_string(),
        Dest::TurnDown => "with its column's top card turned down beneath it".to_string(),
        Dest::Redeal => "redealt".to_string(),
    }
}
