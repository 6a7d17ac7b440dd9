//! Bytes from the user (a line of a solution file, a path) as a one-line
//! message shows them. Solution files, outputs and surveys all quote
//! with it; callers outside the crate find it as `solution::quote`.
//!
//! Such bytes may hold anything: a tab or a byte-order mark the reader
//! cannot see, a newline that would split the message, an escape sequence
//! that would drive the terminal, or a gigabyte of NULs. So every character
//! that is not plainly printable is escaped (`\t`, `\u{feff}`, `\0`), bytes
//! that are not UTF-8 show as `�`, and at most [`QUOTE_CHARS`] characters
//! of the escaped text are shown, cut with `…`.

/// The most characters of escaped text a message quotes: enough to
/// recognize a line, few enough that a message stays one screen line.
pub const QUOTE_CHARS: usize = 80;

/// `bytes` escaped and cut to [`QUOTE_CHARS`] characters (plus `…`).
pub fn quote(bytes: &[u8]) -> String {
    quote_at_most(bytes, QUOTE_CHARS)
}

/// `bytes` escaped and cut to `max` characters (plus `…`): a path, say,
/// whose distinguishing part may lie past the first 80.
pub fn quote_at_most(bytes: &[u8], max: usize) -> String {
    // A character never takes more than 4 bytes: what lies past the bytes
    // of max + 1 characters is never shown, so it is never decoded.
    let head = &bytes[..bytes.len().min(4 * (max + 1))];
    let text = String::from_utf8_lossy(head);
    let mut shown = String::new();
    let mut count = 0;
    for c in text.chars() {
        // Each character escaped on its own, a combining mark too: a
        // message about a bad line shows what is there, not how it renders.
        let escaped = c.escape_debug();
        let len = escaped.len();
        if count + len > max {
            shown.push('…');
            return shown;
        }
        shown.extend(escaped);
        count += len;
    }
    if head.len() < bytes.len() {
        shown.push('…');
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_a_reader_cannot_see_or_a_terminal_would_obey() {
        assert_eq!(quote(b"1\tT"), "1\\tT");
        assert_eq!(quote(b"1 T\r"), "1 T\\r");
        assert_eq!(quote(b"a\nb"), "a\\nb");
        assert_eq!(quote(b"\x1b[2J"), "\\u{1b}[2J");
        assert_eq!(quote(b"\0"), "\\0");
        assert_eq!(quote("\u{feff}1 T".as_bytes()), "\\u{feff}1 T");
        assert_eq!(quote(b"1 \xff"), "1 \u{fffd}");
        assert_eq!(quote("9♠".as_bytes()), "9♠");
    }

    #[test]
    fn cuts_long_text_at_a_whole_escape() {
        let long = quote(&[b'7'; 1000]);
        assert_eq!(long, format!("{}…", "7".repeat(QUOTE_CHARS)));
        // 80 escaped NULs would be 160 characters: 40 fit.
        assert_eq!(quote(&[0; 1000]), format!("{}…", "\\0".repeat(40)));
        // Exactly the limit is shown whole; one more is cut.
        assert_eq!(quote(&[b'x'; QUOTE_CHARS]), "x".repeat(QUOTE_CHARS));
        assert!(quote(&[b'x'; QUOTE_CHARS + 1]).ends_with('…'));
        // Never half an escape: `\u{1b}` is 6 characters, 13 fit in 80.
        let escapes = quote(&[0x1b; 100]);
        assert_eq!(escapes, format!("{}…", "\\u{1b}".repeat(13)));
    }

    #[test]
    fn multibyte_text_past_the_decoded_head_is_still_cut() {
        // 400 four-byte characters: only the head is decoded, and the
        // quote is cut at the limit, never at a split character.
        let text = "😀".repeat(400);
        let q = quote(text.as_bytes());
        assert_eq!(q, format!("{}…", "😀".repeat(QUOTE_CHARS)));
    }
}
