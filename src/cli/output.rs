//! The program's two streams, and what happens when writing to them fails.
//!
//! Stdout carries the verdict, so a line that cannot be written there is an
//! error (exit 3) — except for a reader that went away (`xpat-solver … |
//! head`), which asked for no more: the exit code still carries the
//! verdict. Stderr carries progress and messages; a failure there is
//! ignored, since there is nowhere left to report it and a search must not
//! die for its progress line.

use std::borrow::Cow;
use std::fmt;
use std::io::{ErrorKind, Write};
use std::path::Path;

use anyhow::{Context, Result};

/// Writes one line to stdout (the `say!` macro's body).
pub(super) fn say(line: fmt::Arguments) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{line}").and_then(|()| out.flush()) {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => {
            Err(e).context("cannot write to standard output")
        }
        _ => Ok(()),
    }
}

/// Writes `text` to stderr as it is (progress rewrites its line in place).
pub(super) fn note(text: fmt::Arguments) {
    let _ = std::io::stderr().write_fmt(text);
}

/// Says an error: one line on stderr, whatever the message holds.
pub(super) fn error(message: &str) {
    note(format_args!("xpat-solver: {}\n", escape(message)));
}

/// `text` with its control characters written as escapes (`\n`,
/// `\u{1b}`): a newline in a file name must not split a one-line message,
/// nor an escape sequence in it reach the terminal.
pub(super) fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_debug().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// A path as messages show it: lossy UTF-8, control characters escaped.
pub(super) struct Shown<'a>(pub &'a Path);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escape(&self.0.to_string_lossy()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        assert_eq!(escape("a.sol"), "a.sol");
        assert_eq!(escape("a\nb"), "a\\nb");
        assert_eq!(escape("\u{1b}[31mred"), "\\u{1b}[31mred");
        assert_eq!(escape("9♠ → ok"), "9♠ → ok");
        let shown = Shown(Path::new("dir\r/x.sol")).to_string();
        assert_eq!(shown, "dir\\r/x.sol");
    }
}
