//! Midnight Oil under xpat2's complete rules (SPEC §10) as the page shows
//! it: each move played on the game's own [`Table`], whose columns are in
//! xpat2's order (the order a redeal reads them in), and what it changed
//! read from the columns before and after it. So after a redeal the page's
//! columns are the Table's, the layout `-check` and `-search` play on.

use crate::cards::{Card, SUITS, suit};
use crate::midnight::Table;
use crate::rules::Rules;
use crate::state::{Dest, Move};

use super::shown::{Rewrite, Shown, Step};
use super::words::{in_words, redeal_in_words, turn_down_in_words};

/// Plays `mv` on `table`: what the page shows of it, or why it cannot.
/// Nothing goes up by itself under these rules: a move's changes are its
/// own.
pub(super) fn play(table: &mut Table, mv: Move, rules: &'static Rules) -> Result<Shown, String> {
    let before = table.columns();
    if let Err(illegal) = table.try_apply(mv) {
        let why = crate::check::explain(rules, mv.card, illegal);
        return Err(format!("is illegal: {why}"));
    }
    let after = table.columns();
    // Pile of the column whose top card was `card`.
    let topped_by = |card| {
        before
            .iter()
            .position(|column| column.last() == Some(&card))
            .map(|i| SUITS + i)
    };
    let card_step = |to: Option<usize>| {
        let (Some(from), Some(to)) = (topped_by(mv.card), to) else {
            return Err("cannot be laid out: its card is no column's top".to_string());
        };
        Ok(vec![Step {
            card: mv.card,
            from,
            to,
        }])
    };
    let (steps, rewrites, words) = match mv.dest {
        Dest::Foundation => (
            card_step(Some(suit(mv.card) as usize))?,
            Vec::new(),
            in_words(mv, &[]),
        ),
        Dest::Card(onto) => (card_step(topped_by(onto))?, Vec::new(), in_words(mv, &[])),
        Dest::Redeal => {
            let number = rules.redeals - table.redeals_left();
            let words = redeal_in_words(number, rules.redeals);
            (Vec::new(), rewrites(&before, &after, None), words)
        }
        Dest::TurnUp => {
            let marked = Some(mv.card);
            (
                Vec::new(),
                rewrites(&before, &after, marked),
                in_words(mv, &[]),
            )
        }
        Dest::TurnDown => {
            // The column's top card went down: the page marks it.
            let top = before
                .iter()
                .find(|column| column.contains(&mv.card))
                .and_then(|column| column.last().copied());
            let Some(top) = top else {
                return Err("cannot be laid out: its card is in no column".to_string());
            };
            let words = turn_down_in_words(top, mv.card);
            (Vec::new(), rewrites(&before, &after, Some(top)), words)
        }
        // The Table refuses them: Midnight Oil has neither.
        Dest::EmptyColumn | Dest::Register => {
            return Err("cannot be laid out: Midnight Oil has no such pile".to_string());
        }
    };
    Ok(Shown {
        mv,
        steps,
        rewrites,
        words,
    })
}

/// The columns a move changed, as they were and as they are.
fn rewrites(before: &[Vec<Card>], after: &[Vec<Card>], marked: Option<Card>) -> Vec<Rewrite> {
    before
        .iter()
        .zip(after)
        .enumerate()
        .filter(|(_, (was, now))| was != now)
        .map(|(i, (was, now))| Rewrite {
            pile: SUITS + i,
            was: was.clone(),
            now: now.clone(),
            marked,
        })
        .collect()
}
