//! Cutting source text into statements: comments blanked, lines split at the dialect's
//! separators, data and section directives recognised.

use super::assemble::split_line;
use super::dialect::Dialect;
use crate::directives;
use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// One statement of a source text: its code without label and comments, and where it is.
struct Piece<'a> {
    /// Byte offset of `code` in the source.
    start: usize,
    /// The statement's text; in a dialect with a separator, its line ends are blanks.
    code: alloc::borrow::Cow<'a, str>,
    /// Its label and the label's byte offset in the source.
    label: Option<(&'a str, usize)>,
}

/// `source` with every comment of dialect `d` (line and block comments) blanked out byte for
/// byte, line ends kept, so offsets and line numbers stay those of the source. A string in
/// double quotes closed on its line is no comment's start: grate's `.uniforms [0] =
/// "a//b";` names `a//b` (its lexers read `"..."` as one token). Also where a block comment
/// that `source` does not close opens.
pub(crate) fn blank_comments_open(source: &str, d: &Dialect) -> (String, Option<usize>) {
    let mut out = source.as_bytes().to_vec();
    let mut open = None;
    let mut i = 0;
    while i < source.len() {
        let rest = &source[i..];
        if let Some(after) = rest.strip_prefix('"') {
            let line = after.find('\n').unwrap_or(after.len());
            if let Some(close) = after[..line].find('"') {
                i += close + 2;
                continue;
            }
        }
        let block = d.block_comments.iter().find(|(open, _)| rest.starts_with(open));
        let end = if let Some((start, close)) = block {
            match rest[start.len()..].find(close) {
                Some(e) => i + start.len() + e + close.len(),
                None => {
                    open = Some(i);
                    source.len()
                }
            }
        } else if d.comments.iter().any(|m| rest.starts_with(m)) {
            rest.find('\n').map_or(source.len(), |e| i + e)
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        for b in &mut out[i..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        i = end;
    }
    // Whole comments (ASCII-delimited) became ASCII blanks: still UTF-8.
    (String::from_utf8(out).unwrap_or_default(), open)
}

/// The statements of a file's `text` in dialect `d` ([`directives::Spelling::statements`]):
/// the text to read them from and each statement's byte range ([`pieces`]), `in_data` when
/// the text starts in a data section. Where `more` of the file follows (the main source read
/// in pieces), only the statements certainly whole are split: up to the start of the last line
/// at which no block comment and no statement is open ([`piece_end`]); the rest is split with
/// what follows.
pub(crate) fn split_statements(text: &str, d: &Dialect, in_data: bool, more: bool) -> directives::Split {
    let (blanked, open) = if !d.block_comments.is_empty() || d.separator.is_some() {
        let (b, open) = blank_comments_open(text, d);
        (Some(b), open)
    } else {
        (None, None)
    };
    let alone = |line: &str| alone_in_line(line, d);
    let end = if more { piece_end(blanked.as_deref().unwrap_or(text), open, d, &alone) } else { text.len() };
    // Cut at a line start outside comments and quotes: the blanked prefix is the prefix's own.
    let text = &text[..end];
    let blanked = blanked.map(|mut b| {
        b.truncate(end);
        b
    });
    let mut in_data = in_data;
    let ranges: Vec<(usize, usize)> = pieces(text, &blanked, d, &mut in_data)
        .iter()
        .map(|p| (p.label.map_or(p.start, |(_, at)| at.min(p.start)), p.start + p.code.len()))
        .collect();
    let code = blanked.unwrap_or_else(|| text.to_string());
    let code = if d.separator.is_some() { code.replace(['\n', '\r', '\t'], " ") } else { code };
    directives::Split { code, ranges, end, in_data }
}

/// Where a piece of a file's text may end, its comments blanked (`blanked`; a block comment
/// opened at `open` and not closed in it): the start of the last line before which no block
/// comment is open and, where the dialect ends statements with a separator, the last statement
/// ended with it (only blanks after it), or with lines that are statements of their own which
/// no separator ends (`alone`: a section directive, [`alone_in_line`]; a bundled program's
/// header settings too). 0 where there is none: the piece is read with more.
pub(crate) fn piece_end(
    blanked: &str,
    open: Option<usize>,
    d: &Dialect,
    alone: &dyn Fn(&str) -> bool,
) -> usize {
    let limit = open.unwrap_or(blanked.len());
    // Line starts from the last one not past the limit, backwards.
    let mut at = blanked[..limit].rfind('\n').map_or(0, |n| n + 1);
    loop {
        let mut before = blanked[..at].trim_end();
        // Lines that are whole statements without a separator end what is before them.
        loop {
            let (head, last) = before.rsplit_once('\n').unwrap_or(("", before));
            let last = last.trim();
            if last.is_empty() || !alone(last) {
                break;
            }
            before = head.trim_end();
        }
        if d.separator.is_none_or(|sep| before.is_empty() || before.ends_with(sep)) {
            return at;
        }
        match blanked[..before.len()].rfind('\n') {
            Some(n) => at = n + 1,
            None => return 0,
        }
    }
}

/// Whether `line` (trimmed) is a section directive alone, a statement of its own that no
/// separator ends ([`piece_end`]).
pub(crate) fn alone_in_line(line: &str, d: &Dialect) -> bool {
    section_directive(line, d).is_some_and(|(_, n)| n == line.len())
}

/// The statements of `source` in dialect `d`: one per line, or, where the dialect has a
/// separator, one per separator (spanning lines); block comments anywhere. A section directive
/// is a statement of its own wherever it starts a word outside quotes (an empty section ends
/// at the next directive, with no separator between); a data section's statements have no
/// labels (the expansion reads them as table entries).
fn pieces<'a>(
    source: &'a str,
    blanked: &'a Option<String>,
    d: &Dialect,
    in_data: &mut bool,
) -> Vec<Piece<'a>> {
    let mut out = Vec::new();
    let text = blanked.as_deref().unwrap_or(source);
    let sections: Vec<&str> = d.code_section.iter().chain(d.data_sections.iter()).copied().collect();
    // `chunk` starts at byte `start` of `text`; `flat` when its line ends were made blanks.
    let mut push = |start: usize, chunk: &str, flat: bool| {
        let (mut start, mut chunk) = (start, chunk);
        // Section directives, each a statement of its own, and the pieces between them.
        while let Some(cut) = crate::table::next_directive(chunk, &sections, d.ignore_case) {
            let Some((data, len)) = section_directive(&chunk[cut..], d) else { break };
            if !chunk[..cut].trim().is_empty() {
                out.push(piece(text, start, &chunk[..cut], flat, *in_data, d));
            }
            let code = chunk[cut..cut + len].trim_start();
            let at = start + cut + len - code.len();
            let code =
                if flat { Cow::Owned(code.to_string()) } else { Cow::Borrowed(&text[at..at + code.len()]) };
            out.push(Piece { start: at, code, label: None });
            *in_data = data;
            start += cut + len;
            chunk = &chunk[cut + len..];
            if chunk.trim().is_empty() {
                return;
            }
        }
        out.push(piece(text, start, chunk, flat, *in_data, d));
    };
    match d.separator {
        Some(sep) => {
            let mut start = 0;
            while start < text.len() {
                let end = text[start..].find(sep).map_or(text.len(), |e| start + e);
                let chunk = &text[start..end];
                if !chunk.trim().is_empty() {
                    push(start, &chunk.replace(['\n', '\r', '\t'], " "), true);
                }
                start = end + sep.len();
            }
        }
        None => {
            let mut start = 0;
            for line in text.split('\n') {
                let len = line.len();
                push(start, line.strip_suffix('\r').unwrap_or(line), false);
                start += len + 1;
            }
        }
    }
    out
}

/// The statement `chunk` at byte `start` of `text` (`flat`: its line ends made blanks): its
/// label and code, or in a data section, its text whole (a table entry has no label).
fn piece<'a>(text: &'a str, start: usize, chunk: &str, flat: bool, in_data: bool, d: &Dialect) -> Piece<'a> {
    let (label, code, offset) = if in_data {
        let code = chunk[..directives::comment_start(chunk, d.comments)].trim();
        (None, code, chunk.len() - chunk.trim_start().len())
    } else {
        split_line(chunk, d)
    };
    let label = label.map(|l| {
        let at = start + (l.as_ptr() as usize - chunk.as_ptr() as usize);
        (&text[at..at + l.len()], at)
    });
    let code = if flat {
        Cow::Owned(code.to_string())
    } else {
        Cow::Borrowed(&text[start + offset..start + offset + code.len()])
    };
    Piece { start: start + offset, code, label }
}

/// The section directive that starts `chunk` (after blanks), if any: whether it starts a data
/// section, and the bytes up to its end.
pub(crate) fn section_directive(chunk: &str, d: &Dialect) -> Option<(bool, usize)> {
    let rest = chunk.trim_start();
    let skipped = chunk.len() - rest.len();
    let directives =
        d.code_section.iter().map(|c| (false, *c)).chain(d.data_sections.iter().map(|s| (true, *s)));
    for (data, directive) in directives {
        let Some(head) = rest.get(..directive.len()) else { continue };
        let same = if d.ignore_case { head.eq_ignore_ascii_case(directive) } else { head == directive };
        let ends =
            rest[directive.len()..].chars().next().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        if same && ends {
            return Some((data, skipped + directive.len()));
        }
    }
    None
}
