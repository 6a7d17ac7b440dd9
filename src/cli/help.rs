//! What `--help` teaches beyond clap's list of options: the three forms of
//! the command, the games (from the rules' table, so a new row shows up
//! here by itself), the exit codes, examples and the solution file format.

use std::fmt::Write;

use xpat_solver::rules::{GAMES, MAX_SEED, Rules};

/// The command's forms, each with what it does.
pub(super) const USAGE_FORMS: &str = "\
xpat-solver RULE.SEED                 show the deal, normalized
       xpat-solver RULE.SEED -check FILE     replay the solution in FILE
       xpat-solver RULE.SEED -search FILE    search, write a solution to FILE
       xpat-solver --from-xpat2 SAVE -search FILE
                                             win a player's xpat2 game from where they saved it
       xpat-solver --from-xpat2 SAVE -check FILE
                                             replay FILE from the player's position";

/// The end of every usage error: the short form, and where to learn more.
pub(super) const USAGE_LINE: &str =
    "usage: xpat-solver RULE.SEED|--from-xpat2 SAVE [-check FILE | -search FILE] (see --help)";

const EXIT_CODES: &str = "\
Last line on stdout, and exit code:
  -check   SUCCES (0), ECHEC k (1): move k illegal, or not won after k-1 moves
  -search  SUCCES (0): solution written; ECHEC (1): a limit stopped the search;
           INSOLUBLE (2): the whole space was searched, no solution exists
  any      3: bad arguments or a file that cannot be read or written";

const EXAMPLES: &str = "\
Examples:
  xpat-solver FreeCell.123456                 show the deal, normalized
  xpat-solver fc.123456 -search out.sol       solve it, write the moves to out.sol
  xpat-solver fc.123456 -check out.sol        replay a solution file
  xpat-solver st.35 -search st35.sol --timeout 10
  xpat-solver bd.7 -search bd7.sol --xpat2 .  also write BakersDozen.000000007 for xpat2
  xpat-solver fc.123 -search fc.sol --html fc.html
                                              also write a web page that replays it

From a player's game (--from-xpat2 SAVE, a file saved in xpat2 mid-game):
  xpat-solver --from-xpat2 FreeCell.000000123 -search rest.sol --xpat2 won --html won.html
the game comes from the save; the search starts from the player's position
(their moves replayed, the ones they undid left out): SUCCES, INSOLUBLE (no
win from here) or ECHEC. rest.sol holds only the moves from there on, so
-check it with the same --from-xpat2 SAVE. The save 'won' keeps the player's
moves and opens at their position, Redo plays the rest (--xpat2-at end: the
won game); won.html replays the whole game, won.html#k at their position.
A move in the save the solver cannot follow: exit 3, the move named.";

const SOLUTION_FILES: &str = "\
A solution file has one move per line: CARD DEST, where CARD is 0..51
(rank = CARD/4 + 1, suit = CARD%4: 0 clubs, 1 spades, 2 hearts, 3 diamonds)
and DEST is the card it goes onto, V (an empty column) or T (a free cell).
Cards go to the foundation by themselves and no line says so, unless
--foundation free: then nothing moves by itself, the deal is not normalized,
and every foundation move is a line CARD F. --rules xpat2 reads such files
and, as xpat2 allows, a foundation's top card coming back (CARD DEST, as any
move; not in Midnight Oil), and in Midnight Oil two redeals (a line R) and
one turn of a column: CARD U (the buried CARD comes up to its column's top)
or CARD D (the column's top card goes down beneath the buried CARD).";

const OTHER_COMMANDS: &str = "\
Other commands:
  xpat-solver survey GAMES SEEDS ...          many deals at once, a summary per game
                                              (xpat-solver survey --help)
  xpat-solver completions SHELL               the completion script of bash, zsh, fish,
                                              elvish or powershell, on stdout
  xpat-solver manpage [COMMAND] [--out FILE]  the manual page (roff), on stdout";

/// Everything after the options, in the order a newcomer reads it.
pub(super) fn after_help() -> String {
    [
        &games(),
        EXIT_CODES,
        EXAMPLES,
        SOLUTION_FILES,
        OTHER_COMMANDS,
    ]
    .join("\n\n")
}

/// One line per row of [`GAMES`]: name, alias, columns, free cells.
fn games() -> String {
    let mut text = String::from("Games (RULE is the name or the alias, spelled exactly so):\n");
    for rules in &GAMES {
        let _ = writeln!(
            text,
            "  {:<12} {:<3} {:>2} columns, {}",
            rules.name,
            rules.alias,
            rules.columns,
            free_cells(rules)
        );
    }
    let _ = write!(
        text,
        "SEED runs from 1 to {MAX_SEED} as in xpat2; leading zeros are fine (fc.000123456)."
    );
    text
}

fn free_cells(rules: &Rules) -> String {
    match (rules.registers, rules.dealt_to_registers) {
        (0, _) => "no free cell".to_string(),
        (n, 0) => format!("{n} free cells"),
        (n, dealt) => format!("{n} free cells ({dealt} cards dealt to them)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_of_the_table_is_listed_with_its_shape() {
        let text = games();
        for rules in &GAMES {
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{} ", rules.name)))
                .unwrap_or_else(|| panic!("{} missing:\n{text}", rules.name));
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(words[1], rules.alias, "{line}");
            assert_eq!(words[2], rules.columns.to_string(), "{line}");
        }
        assert!(text.contains("Seahaven     st  10 columns, 4 free cells (2 cards dealt to them)"));
        assert!(text.contains("MidnightOil  mo  18 columns, no free cell"));
    }
}
