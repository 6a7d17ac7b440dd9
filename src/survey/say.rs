//! The survey's two streams, as `-search` treats them (docs/hostile-input.md): a message stderr cannot take (`2>/dev/full`, a terminal that
//! went away) is dropped and the survey goes on; what stdout carries (rows
//! without `--out`, the summary) is written with its error returned, for
//! the caller to make it exit 3, or a stop when the reader went away.
//! Nothing here panics, as `print!` and `eprintln!` do on a failed write.
//!
//! Every message is one line: the paths and fields in it are quoted where
//! it is made ([`shown`], [`crate::solution::quote`]), and whatever control
//! character is left (a clap message quoting an argument, say) is escaped
//! here before it reaches the terminal.

use std::borrow::Cow;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::solution::{quote, quote_at_most};

/// The most characters of a path a message shows (as `-search`'s).
const PATH_QUOTE: usize = 240;

/// `path` as a one-line message shows it: escaped, quoted, cut.
pub fn shown(path: &Path) -> String {
    format!(
        "'{}'",
        quote_at_most(path.as_os_str().as_bytes(), PATH_QUOTE)
    )
}

/// `text` with its control characters escaped (`\n`, `\u{1b}`), and
/// nothing else changed.
pub fn one_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut line = String::with_capacity(text.len() + 8);
    let mut bytes = [0; 4];
    for c in text.chars() {
        match c.is_control() {
            true => line.push_str(&quote(c.encode_utf8(&mut bytes).as_bytes())),
            false => line.push(c),
        }
    }
    Cow::Owned(line)
}

/// A line on stderr (the newline added), or nothing when stderr cannot
/// take it.
pub fn note(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{}", one_line(line));
}

/// Lines of our own making on stderr as they are (the summary table
/// without `--out`), or nothing when stderr cannot take them.
pub fn block(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// An error: `xpat-solver survey: MESSAGE`, one line on stderr.
pub fn error(message: &str) {
    note(&format!("xpat-solver survey: {message}"));
}

/// `text` on stdout, flushed: `Err` when stdout cannot take it.
pub fn out(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_stay_on_one_line() {
        assert_eq!(one_line("plain 'a.csv'"), "plain 'a.csv'");
        assert_eq!(one_line("a\nb\u{1b}[2J\r"), "a\\nb\\u{1b}[2J\\r");
        assert_eq!(shown(Path::new("dir\n/x.csv")), "'dir\\n/x.csv'");
        let long = shown(Path::new(&"d/".repeat(500)));
        assert!(long.chars().count() < PATH_QUOTE + 4, "{long}");
    }
}
