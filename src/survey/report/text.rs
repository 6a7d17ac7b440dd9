//! Words on the report page: text made safe for HTML, and counts of deals
//! in words, shared by the page and its plots.

use std::borrow::Cow;

/// `text` safe as HTML text and in a quoted attribute.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"', '\'']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `1 deal`, `2 deals`.
pub fn deals(n: u64) -> String {
    match n {
        1 => "1 deal".into(),
        n => format!("{n} deals"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_leaves_plain_text_and_quotes_markup() {
        assert!(matches!(escape("FreeCell 123"), Cow::Borrowed(_)));
        assert_eq!(
            escape("<script>a&b</script>\"'"),
            "&lt;script&gt;a&amp;b&lt;/script&gt;&quot;&#39;"
        );
        assert_eq!(escape("é ♣"), "é ♣");
    }
}
