//! Ambiguity is a compile error: two encodings whose patterns can match one word are reported
//! with both definitions and a word they both match.

use super::Checker;
use crate::ir;

/// `slot` is the format of an interleaved stream's slots, which is not an instruction.
pub fn check(cx: &mut Checker, t: &ir::Target, slot: Option<ir::FormatId>) {
    // A bundled program's words are read per stream: only formats of one stream can be confused.
    let groups: Vec<Vec<&ir::Format>> = match t.bundled() {
        Some((streams, _)) => {
            streams.iter().map(|s| s.formats.iter().map(|f| &t.formats[f.0]).collect()).collect()
        }
        None => vec![t
            .formats
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(ir::FormatId(*i)) != slot)
            .map(|(_, f)| f)
            .collect()],
    };
    for formats in &groups {
        check_group(cx, t, formats);
    }
}

fn check_group(cx: &mut Checker, t: &ir::Target, formats: &[&ir::Format]) {
    for (i, a) in formats.iter().enumerate() {
        for b in &formats[i + 1..] {
            if let Some(word) = common_word(&a.pattern, &b.pattern) {
                if cx.is_full() {
                    // Nobody will read the rest: count one more error for `a` and move on, so
                    // mutually overlapping formats cost one search each, not one per pair.
                    cx.error(b.span, format!("encodings `{}` and `{}` are ambiguous", a.name, b.name));
                    break;
                }
                let digits = (t.word_bits as usize).div_ceil(4);
                cx.error(b.span, format!("encodings `{}` and `{}` are ambiguous", a.name, b.name))
                    .label(format!("`{}` matches word {word:#0w$x} ...", b.name, w = digits + 2))
                    .with(a.span, format!("... and so does `{}`", a.name))
                    .note("give one of them a fixed field value (`is`) or a restriction (`in`) the other excludes");
            }
        }
    }
}

/// A word matched by both patterns (unions of mask/value cubes), if any.
pub fn common_word(a: &[(u128, u128)], b: &[(u128, u128)]) -> Option<u128> {
    for (ma, va) in a {
        for (mb, vb) in b {
            if (va ^ vb) & ma & mb == 0 {
                return Some(va | vb);
            }
        }
    }
    None
}
