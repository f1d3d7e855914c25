//! What a failed reading reports: what would have been accepted where it failed
//! ([`Expected`]), kept cheap until the failure is reported, and the message naming the token
//! found there.

use super::names::Table;
use super::scan::{scan_float, scan_integer, skip_blanks};
use alloc::string::String;
use alloc::vec::Vec;

/// The token at `pos` of `text` (after blanks), as (start, length): a run of characters up
/// to a blank, `,` or `;`, or that one punctuation character; length 0 at the end of the text.
/// A number followed by punctuation is the number alone (`16` of `tram16.xyzw`'s `16.xyzw`).
pub fn token_at(text: &str, pos: usize) -> (usize, usize) {
    let start = skip_blanks(text, pos.min(text.len()));
    let rest = &text[start..];
    let len = match rest.find([' ', '\t', ',', ';']) {
        Some(0) => 1,
        Some(n) => n,
        None => rest.len(),
    };
    let number = scan_float(rest).map(|(_, l)| l).into_iter().chain(scan_integer(rest).map(|(_, l)| l)).max();
    match number {
        Some(n) if n < len && !rest[n..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') => {
            (start, n)
        }
        _ => (start, len),
    }
}

/// One thing the parser would have accepted where it failed. Messages list ranges first, as
/// they say most in least space (how registers are written), then other kinds, then names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Expected {
    /// A range of a name table's spellings: `` `R0`..`R254` ``.
    Range(String),
    /// Text of another kind: a literal (`` `,` ``), "a number", "end of line".
    Kind(String),
    /// One spelling of a name table: `` `RZ` ``.
    Name(String),
    /// A name where a number goes, which the program's symbols and labels do not define: the
    /// message then says so rather than list the rest.
    Undefined,
}

impl Expected {
    fn text(&self) -> &str {
        match self {
            Expected::Range(s) | Expected::Kind(s) | Expected::Name(s) => s,
            Expected::Undefined => "a defined symbol or label",
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Expected::Range(_) => 0,
            Expected::Kind(_) | Expected::Undefined => 1,
            Expected::Name(_) => 2,
        }
    }
}

/// What the parser would have accepted where a reading failed, kept as references into the
/// static description: most readings that fail are abandoned for another that goes further,
/// so the text of an [`Expected`] is only made for the failure reported.
#[derive(Clone, Copy)]
pub(super) enum Want {
    /// Text of a kind ("a number", "end of line").
    Kind(&'static str),
    /// A literal, shown trimmed in backquotes.
    Lit(&'static str),
    /// Any spelling of a name table.
    Table(&'static Table),
    /// A value that fits this many bits.
    Fits(u32),
    /// A value in one of these ranges (the values an encoding allows for its field).
    Within(&'static [(u64, u64)]),
    /// The field named, written out (not only through an empty alias).
    WrittenOut(&'static str),
    /// An operand for the field named.
    OperandFor(&'static str),
    /// A name the program defines (the text has one it does not).
    Defined,
}

impl Want {
    pub(super) fn expand(self, out: &mut Vec<Expected>) {
        match self {
            Want::Kind(s) => out.push(Expected::Kind(s.into())),
            Want::Lit(s) => out.push(Expected::Kind(alloc::format!("`{}`", s.trim()))),
            Want::Table(t) => out.extend(t.expected()),
            Want::Fits(width) => out.push(Expected::Kind(alloc::format!("a value that fits {width} bits"))),
            Want::Within(ranges) => {
                let ranges: Vec<String> = ranges
                    .iter()
                    .map(
                        |(lo, hi)| {
                            if lo == hi {
                                alloc::format!("{lo}")
                            } else {
                                alloc::format!("{lo}..={hi}")
                            }
                        },
                    )
                    .collect();
                out.push(Expected::Kind(alloc::format!("a value in {}", ranges.join(", "))));
            }
            Want::WrittenOut(name) => out.push(Expected::Kind(alloc::format!("`{name}` written out"))),
            Want::OperandFor(name) => out.push(Expected::Kind(alloc::format!("an operand for `{name}`"))),
            Want::Defined => out.push(Expected::Undefined),
        }
    }
}

/// Where a parse failed and what would have been accepted there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Byte offset in the text.
    pub pos: usize,
    /// What was expected at `pos`.
    pub expected: Vec<Expected>,
}

impl Failure {
    /// How many of the things expected a message lists.
    pub const SHOWN: usize = 10;

    /// A one-line description: "expected `,` or a number, found `x`", with the whole token
    /// found.
    pub fn message(&self, text: &str) -> String {
        let mut seen: Vec<&Expected> = Vec::new();
        for e in &self.expected {
            if !seen.iter().any(|s| s.text() == e.text()) {
                seen.push(e);
            }
        }
        seen.sort_by_key(|e| e.rank());
        let shown = seen.len().min(Self::SHOWN);
        let (start, len) = token_at(text, self.pos);
        if len > 0 && seen.contains(&&Expected::Undefined) {
            return alloc::format!("undefined symbol or label `{}`", &text[start..start + len]);
        }
        let mut m = String::from("expected ");
        for (i, e) in seen.iter().take(shown).enumerate() {
            if i > 0 {
                m.push_str(if i + 1 == shown && seen.len() == shown { " or " } else { ", " });
            }
            m.push_str(e.text());
        }
        if seen.len() > shown {
            m.push_str(&alloc::format!(" or {} more", seen.len() - shown));
        }
        if len == 0 {
            m.push_str(", found end of line");
        } else {
            m.push_str(&alloc::format!(", found `{}`", &text[start..start + len]));
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::fixtures::REG;
    use alloc::vec;

    #[test]
    fn failures_list_ranges_first_and_the_whole_token() {
        let f = Failure {
            pos: 4,
            expected: vec![
                Expected::Name("`RZ`".into()),
                Expected::Kind("a number".into()),
                Expected::Range("`R0`..`R254`".into()),
                Expected::Kind("a number".into()),
            ],
        };
        assert_eq!(
            f.message("MOV a_very_long_operand_name, R1"),
            "expected `R0`..`R254`, a number or `RZ`, found `a_very_long_operand_name`"
        );
        assert_eq!(
            REG.expected().collect::<Vec<_>>(),
            [Expected::Range("`R0`..`R254`".into()), Expected::Name("`RZ`".into())]
        );
        let many =
            Failure { pos: 3, expected: (0..12).map(|i| Expected::Name(alloc::format!("`n{i}`"))).collect() };
        assert_eq!(
            many.message("abc"),
            "expected `n0`, `n1`, `n2`, `n3`, `n4`, `n5`, `n6`, `n7`, `n8`, `n9` or 2 more, found end of line"
        );
        assert_eq!(token_at("a, b", 1), (1, 1));
        assert_eq!(token_at("a  bogus;x", 1), (3, 5));
        assert_eq!(token_at("a ", 1), (2, 0));
        assert_eq!(token_at("tram16.xyzw, x", 4), (4, 2));
        assert_eq!(token_at("-1.5.x", 0), (0, 4));
        assert_eq!(token_at("0x1f)", 0), (0, 4));
        assert_eq!(token_at("12abc.x", 0), (0, 7));
    }
}
