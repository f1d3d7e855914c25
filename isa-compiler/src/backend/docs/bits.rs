//! Bit tables and diagrams: the Bits, Word and Offset cells, the box diagrams and the match
//! patterns. Where bits lie comes from [`crate::placement`]; this module only writes it down.

use crate::ir::{Field, Piece};
use crate::placement;

/// Widest format or layout drawn as a bit diagram; wider ones get only the table.
const MAX_DIAGRAM_BITS: u32 = 1 << 14;
/// Bits per line of a bit diagram (one 32-bit word, as the reference documents draw them).
const DIAGRAM_ROW_BITS: u32 = 32;

/// Who owns one bit of a format or layout, for the bit diagrams.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Owner {
    /// No field, no `unused`: the spec says nothing about the bit.
    Undeclared,
    /// Declared don't-care.
    Unused,
    /// Piece `1` of field `0`.
    Field(usize, usize),
}

/// `hi:lo`, or the bit alone for one bit.
pub(super) fn range_text(lo: u64, width: u64) -> String {
    if width <= 1 {
        lo.to_string()
    } else {
        format!("{}:{lo}", lo.saturating_add(width - 1))
    }
}

pub(super) fn pieces_text(pieces: &[Piece]) -> String {
    pieces.iter().map(|p| range_text(u64::from(p.lo), u64::from(p.width))).collect::<Vec<_>>().join(", ")
}

/// A bit position of element `i`: `16+i`, `i`, `32+8i`.
fn indexed_bit(bit: u64, stride: i64) -> String {
    let term = match stride {
        1 => "i".to_string(),
        -1 => "-i".to_string(),
        s => format!("{s}i"),
    };
    match (bit, stride) {
        (_, 0) => bit.to_string(),
        (0, _) => term,
        (_, s) if s < 0 => format!("{bit}{term}"),
        _ => format!("{bit}+{term}"),
    }
}

/// The Bits cell: pieces most significant first; array pieces as functions of the index `i`.
pub(super) fn field_bits_text(f: &Field) -> String {
    placement::runs(f)
        .iter()
        .map(|r| {
            let (lo, stride) = (u64::from(r.lo), r.stride);
            if stride == 0 {
                range_text(lo, u64::from(r.width))
            } else if r.width <= 1 {
                indexed_bit(lo, stride)
            } else {
                format!("{}:{}", indexed_bit(lo + u64::from(r.width) - 1, stride), indexed_bit(lo, stride))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn width_text(f: &Field) -> String {
    match &f.array {
        Some((n, _)) => format!("{n} × {}", f.width()),
        None => f.width().to_string(),
    }
}

/// The order of a format's table rows: hardware order, as the reference documents print their
/// tables — the field whose highest bit (over all array elements) is most significant first,
/// fields ending at the same bit in spec order. Formats built from groups and forms list their
/// fields in inclusion order, which is no order a reader of the word expects.
pub(super) fn hardware_order(fields: &[Field]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fields.len()).collect();
    // Stable: ties keep spec order.
    order.sort_by_key(|&k| std::cmp::Reverse(placement::span(&fields[k]).1));
    order
}

pub(super) fn lowest_bit(pieces: &[Piece]) -> u64 {
    placement::pieces_span(pieces).0
}

/// The (stride, index) terms of an array field, for offsets: the stride of its lowest piece.
pub(super) fn array_terms(f: &Field, var: &str) -> Vec<(i64, String)> {
    match placement::runs(f).iter().min_by_key(|r| r.lo) {
        Some(r) if r.stride != 0 => vec![(r.stride, var.to_string())],
        _ => Vec::new(),
    }
}

/// `64`, or `64 + 8i + 2j` inside arrays.
pub(super) fn offset_text(lo: u64, terms: &[(i64, String)]) -> String {
    let mut text = lo.to_string();
    for (stride, var) in terms {
        if *stride < 0 {
            text.push_str(&format!(" - {}{var}", stride.unsigned_abs()));
        } else {
            text.push_str(&format!(" + {stride}{var}"));
        }
    }
    text
}

/// The 32-bit word(s) of some pieces: `2`, or `2-3` when they straddle words.
pub(super) fn pieces_words_text(pieces: &[Piece]) -> String {
    let (lo, end) = placement::pieces_span(pieces);
    words_text(lo, end.saturating_sub(1).max(lo))
}

/// The 32-bit word(s) of a field over all its array elements.
pub(super) fn field_words_text(f: &Field) -> String {
    let (lo, hi) = span_of(f);
    words_text(lo, hi)
}

/// Lowest and highest bit of a field, over all its array elements.
pub(super) fn span_of(f: &Field) -> (u64, u64) {
    let (lo, end) = placement::span(f);
    let hi = end.saturating_sub(1);
    (lo.min(hi), hi)
}

/// `2`, or `2-5` for bits spanning words.
fn words_text(lo: u64, hi: u64) -> String {
    if lo / 32 == hi / 32 {
        format!("{}", lo / 32)
    } else {
        format!("{}-{}", lo / 32, hi / 32)
    }
}

/// Who owns each bit (index = bit number), or `None` when too wide to draw.
pub(super) fn owners(width: u32, fields: &[Field], unused: &[Piece]) -> Option<Vec<Owner>> {
    if width == 0 || width > MAX_DIAGRAM_BITS {
        return None;
    }
    let mut owners = vec![Owner::Undeclared; width as usize];
    let mut mark = |lo: u64, w: u64, o: Owner| {
        for b in lo..lo.saturating_add(w).min(u64::from(width)) {
            owners[b as usize] = o;
        }
    };
    for p in unused {
        mark(u64::from(p.lo), u64::from(p.width), Owner::Unused);
    }
    for (fi, f) in fields.iter().enumerate().filter(|(_, f)| !f.view) {
        for i in 0..placement::element_count(f) {
            for (k, p) in placement::element_pieces(f, i).into_iter().enumerate() {
                mark(u64::from(p.lo), u64::from(p.width), Owner::Field(fi, k));
            }
        }
    }
    Some(owners)
}

pub(super) fn undeclared_text(owners: Option<&[Owner]>) -> String {
    let Some(owners) = owners else {
        return String::new();
    };
    let mut ranges = Vec::new();
    let mut b = owners.len();
    while b > 0 {
        b -= 1;
        if owners[b] != Owner::Undeclared {
            continue;
        }
        let hi = b;
        while b > 0 && owners[b - 1] == Owner::Undeclared {
            b -= 1;
        }
        ranges.push(range_text(b as u64, (hi - b + 1) as u64));
    }
    ranges.join(", ")
}

/// A box diagram of the bits, most significant first, one 32-bit word per line; a run of bits
/// of one field piece is one box (`unused`: don't-care, `?`: undeclared):
///
/// ```text
///  63 60 59    57  56  55  52
/// +-----+--------+----+------+
/// | sig | unpack | pm | pack |
/// +-----+--------+----+------+
/// ```
pub(super) fn diagram(width: u32, fields: &[Field], owners: Option<&[Owner]>) -> String {
    let Some(owners) = owners else {
        return String::new();
    };
    let mut out = String::new();
    let mut row_hi = width;
    while row_hi > 0 {
        let row_lo = row_hi.saturating_sub(DIAGRAM_ROW_BITS);
        // Segments of this row: (hi, lo, label).
        let mut segments: Vec<(u32, u32, String)> = Vec::new();
        let mut b = row_hi;
        while b > row_lo {
            b -= 1;
            let owner = owners[b as usize];
            let hi = b;
            while b > row_lo && owners[(b - 1) as usize] == owner {
                b -= 1;
            }
            let label = match owner {
                Owner::Undeclared => "?".to_string(),
                Owner::Unused => "unused".to_string(),
                Owner::Field(fi, _) => fields.get(fi).map_or("?".into(), |f| f.name.clone()),
            };
            segments.push((hi, b, label));
        }
        let mut numbers = String::new();
        let mut border = String::from("+");
        let mut labels = String::from("|");
        for (hi, lo, label) in &segments {
            let (hi_text, lo_text) = (hi.to_string(), lo.to_string());
            let nums_len = if hi == lo { hi_text.len() } else { hi_text.len() + 1 + lo_text.len() };
            let w = (label.chars().count() + 2).max(nums_len);
            numbers.push(' ');
            if hi == lo {
                numbers.push_str(&format!("{hi_text:^w$}"));
            } else {
                let gap = w - hi_text.len() - lo_text.len();
                numbers.push_str(&hi_text);
                numbers.push_str(&" ".repeat(gap));
                numbers.push_str(&lo_text);
            }
            border.push_str(&"-".repeat(w));
            border.push('+');
            labels.push_str(&format!("{label:^w$}"));
            labels.push('|');
        }
        out.push_str(numbers.trim_end());
        out.push('\n');
        out.push_str(&border);
        out.push('\n');
        out.push_str(&labels);
        out.push('\n');
        out.push_str(&border);
        out.push('\n');
        row_hi = row_lo;
    }
    out
}

/// A match pattern as bits from the most significant: `0`/`1` fixed, `x` any; nibbles spaced.
pub(super) fn pattern_text(width: u32, mask: u128, value: u128) -> String {
    let mut text = String::new();
    for b in (0..width.min(128)).rev() {
        let bit = 1u128 << b;
        text.push(if mask & bit == 0 {
            'x'
        } else if value & bit != 0 {
            '1'
        } else {
            '0'
        });
        if b % 4 == 0 && b > 0 {
            text.push(' ');
        }
    }
    text
}
