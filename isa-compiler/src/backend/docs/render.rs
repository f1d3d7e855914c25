//! The text conventions of cells, shared by both documents.
//!
//! Text cells use the doc-comment convention (Markdown with `code` spans); each document escapes
//! them for its output: `md_inline`/`md_block` for Markdown, `html_inline`/`html_block` for HTML.

// ---- Writing cell text -----------------------------------------------------------------------------

/// GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens.
pub(super) fn slug(text: &str) -> String {
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c == ' ' {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// A Markdown code span holding `text` exactly (a longer fence when it contains backticks).
pub(super) fn code(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    if longest > 0 || (text.starts_with(' ') && text.ends_with(' ') && !text.trim().is_empty()) {
        format!("{fence} {text} {fence}")
    } else if text.is_empty() {
        // An empty spelling: the spec writes it `""`.
        "`\"\"`".to_string()
    } else {
        format!("{fence}{text}{fence}")
    }
}

// ---- Escaping --------------------------------------------------------------------------------------

/// Doc-comment text split into plain text and `code` spans (CommonMark fences: a run of N
/// backticks closes at the next run of exactly N; an unclosed run is plain text).
enum Span<'a> {
    Text(&'a str),
    Code(&'a str),
}

fn spans(text: &str) -> Vec<Span<'_>> {
    let bytes = text.as_bytes();
    let run_at = |i: usize| bytes[i..].iter().take_while(|&&b| b == b'`').count();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let n = run_at(i);
        // Find the closing run of exactly n backticks.
        let mut j = i + n;
        let mut close = None;
        while j < bytes.len() {
            if bytes[j] == b'`' {
                let m = run_at(j);
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                if start < i {
                    out.push(Span::Text(&text[start..i]));
                }
                out.push(Span::Code(&text[i..j + n]));
                i = j + n;
                start = i;
            }
            None => i += n,
        }
    }
    if start < text.len() {
        out.push(Span::Text(&text[start..]));
    }
    out
}

/// Markdown for one table cell: one line, `|` escaped (also in code spans, as GitHub tables
/// need), `<` outside code spans so no text is taken for an HTML tag.
pub(super) fn md_inline(text: &str) -> String {
    let one_line = text.replace("\r\n", " ").replace(['\n', '\r'], " ");
    md_escape(&one_line, true)
}

/// Markdown for a paragraph of doc text: the lines kept, `<` escaped outside code spans.
pub(super) fn md_block(text: &str) -> String {
    md_escape(text, false)
}

fn md_escape(text: &str, in_table: bool) -> String {
    let mut out = String::new();
    for span in spans(text) {
        match span {
            Span::Code(c) if in_table => out.push_str(&c.replace('|', "\\|")),
            Span::Code(c) => out.push_str(c),
            Span::Text(t) => {
                for ch in t.chars() {
                    match ch {
                        '|' if in_table => out.push_str("\\|"),
                        '<' => out.push_str("&lt;"),
                        _ => out.push(ch),
                    }
                }
            }
        }
    }
    out
}

/// HTML for a table cell: escaped, code spans as `<code>`.
pub(super) fn html_inline(text: &str) -> String {
    let mut out = String::new();
    for span in spans(text) {
        match span {
            Span::Text(t) => out.push_str(&escape_html(t)),
            Span::Code(c) => {
                let inner = c.trim_matches('`');
                // CommonMark strips one space each side when both are there.
                let inner = match inner.strip_prefix(' ').and_then(|x| x.strip_suffix(' ')) {
                    Some(x) if !x.trim().is_empty() => x,
                    _ => inner,
                };
                out.push_str("<code>");
                out.push_str(&escape_html(inner));
                out.push_str("</code>");
            }
        }
    }
    out
}

pub(super) fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// HTML for doc text: paragraphs at blank lines.
pub(super) fn html_block(text: &str) -> String {
    let mut out = String::new();
    for para in text.split("\n\n").filter(|p| !p.trim().is_empty()) {
        out.push_str("<p>");
        out.push_str(&html_inline(para.trim()));
        out.push_str("</p>\n");
    }
    out
}
