//! Reading numbers and literals at a place of the text: integers in every base, floats,
//! C's spellings of NaN and infinity, a number style's digits, labels, blanks. Pure functions
//! of the text, apart from any syntax, so both readers and the analyses share them.

use super::analysis::separator;
use super::names::is_word;
use super::tree::Num;

/// A signed decimal integer at the start of `s`: (value, length).
pub(super) fn scan_decimal(s: &str) -> Option<(i128, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    let neg = matches!(b.first(), Some(b'-'));
    if neg || matches!(b.first(), Some(b'+')) {
        i = 1;
    }
    let start = i;
    let mut v: i128 = 0;
    while i < b.len() && b[i].is_ascii_digit() && i - start < 30 {
        v = v * 10 + (b[i] - b'0') as i128;
        i += 1;
    }
    if i == start {
        return None;
    }
    Some((if neg { -v } else { v }, i))
}

/// A number literal at the start of `s` (decimal, `0x` hex, `0b` binary, optional sign):
/// (value, length).
pub(super) fn scan_integer(s: &str) -> Option<(i128, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    let neg = matches!(b.first(), Some(b'-'));
    if neg || matches!(b.first(), Some(b'+')) {
        i = 1;
    }
    let (radix, skip) = match (b.get(i), b.get(i + 1)) {
        (Some(b'0'), Some(b'x' | b'X')) => (16, 2),
        (Some(b'0'), Some(b'b' | b'B')) => (2, 2),
        _ => (10, 0),
    };
    i += skip;
    // Python's `'0x%X'` puts a negative value's sign after the prefix (`0x-A`).
    let neg = if radix == 16 && !neg && b.get(i) == Some(&b'-') {
        i += 1;
        true
    } else {
        neg
    };
    let start = i;
    let mut v: i128 = 0;
    while i < b.len() {
        let d = match (b[i] as char).to_digit(radix) {
            Some(d) => d,
            None => break,
        };
        if i - start > 32 {
            return None;
        }
        // 33 hex digits overflow: no number, as too many digits are.
        v = v.checked_mul(radix as i128)?.checked_add(d as i128)?;
        i += 1;
    }
    if i == start {
        return None;
    }
    Some((if neg { -v } else { v }, i))
}

/// Bare binary digits at the start of `s` (for `{field:06b}` after a literal `0b`).
fn scan_bin_digits(s: &str) -> Option<(i128, usize)> {
    let len = s.bytes().take_while(|b| *b == b'0' || *b == b'1').count();
    if len == 0 || len > 64 {
        return None;
    }
    i128::from_str_radix(&s[..len], 2).ok().map(|v| (v, len))
}

/// Bare hex digits at the start of `s` (for `{field:08x}` after a literal `0x`).
fn scan_hex_digits(s: &str) -> Option<(i128, usize)> {
    let len = s.bytes().take_while(|b| b.is_ascii_hexdigit()).count();
    if len == 0 || len > 32 {
        return None;
    }
    i128::from_str_radix(&s[..len], 16).ok().map(|v| (v, len))
}

/// A float literal (`1.5`, `-0.25`, `1e3`, `1.`) at the start of `s`: (value, length).
pub(super) fn scan_float(s: &str) -> Option<(f64, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        i = 1;
    }
    let digits_start = i;
    let mut point = false;
    // One point, and not one that starts a suffix (`0.5.NEG`, `1.NEG` read as 0.5 and 1).
    while i < b.len()
        && (b[i].is_ascii_digit()
            || (b[i] == b'.'
                && !point
                && !b.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'.')))
    {
        point |= b[i] == b'.';
        i += 1;
    }
    if i == digits_start {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
            j += 1;
        }
        let e0 = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > e0 {
            i = j;
        }
    }
    s[..i].parse::<f64>().ok().map(|v| (v, i))
}

/// What C's `%f` prints for IEEE singles that are not numbers (`nan`, `-inf`) at the start of
/// `s`: (the quiet NaN's or the infinity's bits, length).
fn scan_c_special(s: &str) -> Option<(i128, usize)> {
    let negative = s.starts_with('-');
    let body = &s[usize::from(negative)..];
    let bits: u32 = if body.starts_with("nan") {
        0x7fc0_0000
    } else if body.starts_with("inf") {
        0x7f80_0000
    } else {
        return None;
    };
    let sign = if negative { 0x8000_0000 } else { 0 };
    Some(((bits | sign) as i128, usize::from(negative) + 3))
}

/// Where a number starting at `pos` begins: blanks before it are skipped, unless it follows a
/// letter or digit (`ra 5` is not `ra5`).
pub(super) fn number_start(text: &str, pos: usize) -> usize {
    if pos > 0 && text.as_bytes().get(pos - 1).is_some_and(|b| is_word(*b)) {
        pos
    } else {
        skip_blanks(text, pos)
    }
}

/// A number for a hole of style `n` on a `width`-bit field, at the start of `s`: (value,
/// length). In a 32-bit hole a decimal literal with a fraction or an exponent (`1.5`, `-0.5`,
/// `1e3`) is an IEEE single and gives its bits.
pub(super) fn scan_number(n: Num, width: u32, s: &str) -> Option<(i128, usize)> {
    match n {
        Num::CFloat => {
            // A literal no single comes near is no number here ([`crate::number::float_literal`]).
            let single = |(f, len)| crate::number::float_literal(f, 4).ok().map(|b| (b as i128, len));
            scan_float(s).and_then(single).or_else(|| scan_c_special(s))
        }
        Num::Hex { prefix: false, .. } => scan_hex_digits(s),
        Num::Bin { .. } => scan_bin_digits(s),
        Num::Float { format, .. } | Num::Decimal { format } => {
            scan_float(s).and_then(|(f, len)| format.read(f).map(|r| (r as i128, len)))
        }
        Num::HexValue { scale, .. } => scan_integer(s).and_then(|(v, len)| {
            let scale = scale.max(1) as i128;
            (v % scale == 0).then_some((v / scale, len))
        }),
        _ => {
            let int = scan_integer(s);
            if width == 32 {
                if let Some((f, len)) = scan_float(s) {
                    if int.is_none_or(|(_, l)| len > l)
                        && s[..len].bytes().any(|b| !b.is_ascii_digit() && b != b'-' && b != b'+')
                    {
                        return crate::number::float_literal(f, 4).ok().map(|b| (b as i128, len));
                    }
                }
            }
            int
        }
    }
}

/// Whether a number shown as `n` may be written as an expression (not bare hex digits after a
/// literal `0x`).
pub(super) fn takes_expression(n: &Num) -> bool {
    !matches!(n, Num::Hex { prefix: false, .. } | Num::Bin { .. })
}

/// The length of the label name at the start of `s`.
pub(super) fn label_len(s: &str) -> usize {
    s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')).unwrap_or(s.len())
}

/// Matches literal `s` in `text` at `pos` ([`Parser::literal`]); returns the end. Blanks before
/// punctuation, inside the literal where it has spaces, and before its separators (`,` `;`)
/// are skipped.
pub(super) fn literal_at(text: &str, s: &str, pos: usize, ignore_case: bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut p = pos;
    if s.as_bytes().first().is_some_and(|c| !c.is_ascii_alphanumeric()) {
        p = skip_blanks(text, p);
    }
    for &c in s.as_bytes() {
        if separator(c) {
            p = skip_blanks(text, p);
        }
        if c == b' ' {
            p = skip_blanks(text, p);
        } else if p < bytes.len() && (bytes[p] == c || (ignore_case && bytes[p].eq_ignore_ascii_case(&c))) {
            p += 1;
        } else {
            return None;
        }
    }
    Some(p)
}

/// Whether a number read for a field `width` bits wide fits it ([`Parser::number`]): a signed
/// field takes its signed range, an unsigned one its unsigned range or the negative numbers of
/// the same width (`-1` for all ones); a signed field shown as raw bits (`raw_hex`) also reads
/// what it prints.
fn fits_width(value: i128, width: u32, signed: bool, raw_hex: bool) -> bool {
    if width >= 64 {
        return true;
    }
    let lo = -(1i128 << (width - 1));
    let hi = if signed && !raw_hex { (1i128 << (width - 1)) - 1 } else { (1i128 << width) - 1 };
    value >= lo && value <= hi
}

/// Why a number read is no value of its field ([`field_raw`]).
pub(super) enum Unfit {
    /// It does not fit the field's width.
    Width,
    /// It fits, but the encoding allows only other values (`in 0..=15`).
    Allowed,
}

/// The raw bits a number read for a field shown as `n` gives it. A signed field takes its
/// signed range; an unsigned one its unsigned range or the negative numbers of the same width
/// (`-1` for all ones). A signed field shown as raw hex bits (`#x`: Maxwell's `[0xfffff8]`;
/// `#x*4`: ATOMS's `[0xda914c]`) also reads what it prints.
pub(super) fn field_raw(
    value: i128,
    n: super::tree::Num,
    width: u32,
    signed: bool,
    allowed: &[(u64, u64)],
) -> Result<u64, Unfit> {
    use super::tree::Num;
    let raw_hex = matches!(n, Num::Hex { .. } | Num::Bin { .. } | Num::HexValue { signed: false, .. });
    if !fits_width(value, width, signed, raw_hex) {
        return Err(Unfit::Width);
    }
    let raw = (value as u64) & crate::bits::mask(width);
    match allowed.is_empty() || allowed.iter().any(|(lo, hi)| (*lo..=*hi).contains(&raw)) {
        true => Ok(raw),
        false => Err(Unfit::Allowed),
    }
}

pub(super) fn skip_blanks(text: &str, mut pos: usize) -> usize {
    let b = text.as_bytes();
    while pos < b.len() && (b[pos] == b' ' || b[pos] == b'\t') {
        pos += 1;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 33 hexadecimal digits are no number (the fuzz found a multiplication overflowing here).
    #[test]
    fn hex_that_overflows_is_no_number() {
        assert_eq!(scan_integer("0x-340282366920938463463374607431768211456"), None);
        assert_eq!(scan_integer("0x-A"), Some((-10, 4)));
    }
}
