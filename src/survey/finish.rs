//! How a survey run ends: its exit code, and after a stop, what was kept
//! and the command that continues it.

use super::args::{EXIT_USAGE, Plan};
use super::say::{self, shown};
use super::signals::EXIT_INTERRUPTED;
use super::summary::Results;
use super::table::Table;

/// Why a run ended before its last deal.
pub enum Stop {
    /// A signal (Ctrl-C, SIGTERM) asked the run to stop.
    Interrupted,
    /// Whoever read stdout went away (`survey ... | head`).
    ReaderGone,
    /// Writing failed; the message says what.
    Failed(String),
}

/// The exit code, and what the user needs to know after a stop.
pub fn finish(
    stop: Option<Stop>,
    plan: &Plan,
    table: &Table,
    results: &Results,
    done: u64,
    todo: u64,
) -> u8 {
    let kept = match table.path() {
        Some(path) => format!("the rows so far are in {}", shown(path)),
        None => "the rows so far went to stdout (with --out FILE, --resume can continue)".into(),
    };
    match stop {
        None if results.undecided() > 0 => 1,
        None => 0,
        Some(Stop::ReaderGone) => EXIT_INTERRUPTED,
        Some(Stop::Interrupted) => {
            say::note(&format!(
                "survey: interrupted after {done} of {todo} deals; {kept}"
            ));
            if table.path().is_some() {
                say::note(&format!("to resume: {}", resume_command(&plan.words)));
            }
            EXIT_INTERRUPTED
        }
        Some(Stop::Failed(message)) => {
            say::error(&format!("{message}; {kept}"));
            EXIT_USAGE
        }
    }
}

/// The command line that continues this survey: the same words, with
/// `--resume`, quoted for a POSIX shell where needed.
fn resume_command(words: &[String]) -> String {
    let program = std::env::args()
        .next()
        .unwrap_or_else(|| "xpat-solver".into());
    let mut line = vec![shell_word(&program), "survey".to_string()];
    line.extend(words.iter().map(|w| shell_word(w)));
    if !words.iter().any(|w| w == "--resume") {
        line.push("--resume".into());
    }
    line.join(" ")
}

fn shell_word(word: &str) -> String {
    let plain = |b: u8| b.is_ascii_alphanumeric() || b"-_./,:=+@%".contains(&b);
    if !word.is_empty() && word.bytes().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resume_commands_quote_what_a_shell_would_split() {
        assert_eq!(shell_word("fc,st"), "fc,st");
        assert_eq!(shell_word("my file.csv"), "'my file.csv'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
        let line = resume_command(&["fc".into(), "1-9".into(), "--out".into(), "a b.csv".into()]);
        assert!(
            line.ends_with(" survey fc 1-9 --out 'a b.csv' --resume"),
            "{line}"
        );
        let again = resume_command(&["fc".into(), "1".into(), "--resume".into()]);
        assert_eq!(again.matches("--resume").count(), 1);
    }
}
