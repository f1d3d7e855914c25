//! Name tables: a field's spellings in one dialect, how a spelling matches text (blanks and
//! separators), and the index of a table's entries by first character. Shared by the
//! printer, the search, the quick reader and the analyses.

use super::analysis::separator;
use super::failure::Expected;
use super::scan::scan_decimal;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::{self, Write};

/// A name table: spellings of a field's values in one dialect.
#[derive(Debug)]
pub struct Table {
    /// What the names are, for error messages ("register", "condition").
    pub name: &'static str,
    /// The entries, in order: the first that matches a value prints it.
    pub entries: &'static [Entry],
}

/// A [`Table`]'s entries by the character they start with ([`Table::index`]).
pub(super) struct TableIndex {
    /// Entry numbers, by bucket and in table order within each.
    order: Vec<u32>,
    /// Where each bucket's run of `order` starts (the last ends where the next starts): 0 to
    /// 255 by the text's first character (lowercased), 256 to 511 by its first after blanks,
    /// 512 the entries that may match any text.
    starts: Vec<u32>,
    /// For each entry, its spelling as a [`Plain`] word where it is one.
    plain: Vec<Option<Plain>>,
    /// The entries whose spelling is a [`Plain`] word of letters, digits and `_` (not after
    /// blanks), kept out of the buckets: such a spelling matches only where the text's run of
    /// word characters is exactly it, so they are found by that run. By hash of the run
    /// lowercased (a power of two of slots, at most half full; empty when there are none):
    /// (lowercased spelling, start in `words`, count; 0 for a free slot).
    word_slots: Vec<(u64, u32, u32)>,
    /// Entry numbers of the word spellings, by lowercased spelling and in table order within each.
    words: Vec<u32>,
    /// [`Table::blanks`].
    pub(super) blanks: (bool, bool),
}

/// The slot of a lowercased word in [`TableIndex::word_slots`] of `len` (a power of two) slots.
#[inline]
fn word_hash(w: u64, len: usize) -> usize {
    (w.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as usize & (len - 1)
}

/// A spelling of one to eight bytes compared at once as a `u64` (the name's whole-word end
/// is checked apart): word characters starting with a letter or digit (`ra12`, `nop`),
/// matched where the text's next bytes are those; or starting with punctuation and holding
/// no blank or separator (`.F32`, `|`), matched after the blanks at the text's start.
#[derive(Clone, Copy)]
struct Plain {
    /// The spelling's bytes, little-endian, and the same lowercased.
    exact: u64,
    lower: u64,
    /// The bytes the spelling covers.
    mask: u64,
    len: u8,
    after_blanks: bool,
}

impl Plain {
    fn of(s: &str) -> Option<Plain> {
        let b = s.as_bytes();
        if b.is_empty() || b.len() > 8 {
            return None;
        }
        let after_blanks = match b[0].is_ascii_alphanumeric() {
            true if b.iter().all(|c| is_word(*c)) => false,
            // As [`spelled`] reads it: blanks skipped before it, then byte for byte.
            false if b.iter().all(|c| !matches!(c, b' ' | b'\t') && !separator(*c)) => true,
            _ => return None,
        };
        let (exact, lower) = (pack8(b), pack8(&b.to_ascii_lowercase()));
        let mask = if b.len() == 8 { u64::MAX } else { (1u64 << (8 * b.len())) - 1 };
        Some(Plain { exact, lower, mask, len: b.len() as u8, after_blanks })
    }
}

/// Up to eight bytes, little-endian, zero past their end.
#[inline]
pub(super) fn pack8(b: &[u8]) -> u64 {
    if let Some(eight) = b.first_chunk::<8>() {
        return u64::from_le_bytes(*eight);
    }
    let mut w = 0;
    for (i, c) in b.iter().enumerate() {
        w |= u64::from(*c) << (8 * i);
    }
    w
}

/// ASCII capitals of a packed word lowercased (each byte on its own, all at once: a byte of
/// `A`..=`Z` gains bit 5).
#[inline]
fn lower8(w: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let low = w & LOW7;
    // Bit 7 of each byte: its low seven bits at least `A`, above `Z`; no carry leaves a byte.
    let from_a = low + 0x3f3f_3f3f_3f3f_3f3f;
    let past_z = low + 0x2525_2525_2525_2525;
    let upper = from_a & !past_z & !w & HIGH;
    w | upper >> 2
}

/// One entry of a [`Table`].
#[derive(Debug)]
pub enum Entry {
    /// One value, one spelling.
    Name(&'static str, u64),
    /// A range `lo..=hi` printed as `prefix`, `value + shift` in decimal, `suffix`.
    Range {
        /// Text before the number.
        prefix: &'static str,
        /// Text after the number.
        suffix: &'static str,
        /// First value.
        lo: u64,
        /// Last value.
        hi: u64,
        /// Printed number minus value.
        shift: i64,
    },
    /// One spelling for every value of `lo..=hi` (e.g. Mesa's `???`); printed, never parsed.
    Many(&'static str, u64, u64),
    /// Printed for any value no earlier entry names (e.g. `???`); never parsed.
    Else(&'static str),
}

impl Table {
    /// Writes the spelling of `value`, if the table has one.
    pub fn write(&self, value: u64, out: &mut dyn Write) -> Option<fmt::Result> {
        for e in self.entries {
            match *e {
                Entry::Name(s, v) if v == value => return Some(out.write_str(s)),
                Entry::Range { prefix, suffix, lo, hi, shift } if (lo..=hi).contains(&value) => {
                    return Some(write!(out, "{prefix}{}{suffix}", value as i64 + shift));
                }
                Entry::Many(s, lo, hi) if (lo..=hi).contains(&value) => return Some(out.write_str(s)),
                Entry::Else(s) => return Some(out.write_str(s)),
                _ => {}
            }
        }
        None
    }

    /// The spellings the assembler accepts, for error messages: a range as its ends
    /// (`` `R0`..`R254` ``), each other name quoted.
    pub fn expected(&self) -> impl Iterator<Item = Expected> + '_ {
        self.entries.iter().filter_map(|e| match *e {
            Entry::Name(s, _) if !s.trim().is_empty() => {
                Some(Expected::Name(alloc::format!("`{}`", s.trim())))
            }
            Entry::Range { prefix, suffix, lo, hi, shift } => {
                let end = |v: u64| alloc::format!("`{prefix}{}{suffix}`", v as i64 + shift);
                Some(if lo == hi {
                    Expected::Name(end(lo))
                } else {
                    Expected::Range(alloc::format!("{}..{}", end(lo), end(hi)))
                })
            }
            _ => None,
        })
    }

    /// The value spelled `name` exactly, if any.
    pub fn lookup(&self, name: &str) -> Option<u64> {
        let mut found = None;
        self.candidates(name, 0, false, &mut |len, v| {
            if len == name.len() && found.is_none() {
                found = Some(v);
            }
        });
        found
    }

    fn candidates(&self, text: &str, pos: usize, fold: bool, f: &mut dyn FnMut(usize, u64)) {
        self.candidates_among(0..self.entries.len(), None, text, pos, fold, f)
    }

    /// Where each entry's spelling must match the text ([`Table::candidates`]): its first
    /// character against the text's first (`Some(false)`), against the text's first after
    /// blanks (`Some(true)`), or anything (`None`); with that character, lowercased.
    fn head(e: &Entry) -> Option<(bool, u8)> {
        match *e {
            Entry::Name(s, _) => match s.as_bytes().iter().position(|c| *c != b' ') {
                None => None,
                Some(0) if s.as_bytes()[0].is_ascii_alphanumeric() => Some((false, s.as_bytes()[0])),
                Some(i) => Some((true, s.as_bytes()[i])),
            },
            Entry::Range { prefix, .. } => prefix.bytes().next().map(|b| (false, b)),
            // Never read: filed where no text looks.
            Entry::Many(..) | Entry::Else(_) => Some((false, 0)),
        }
        .map(|(after_blanks, b)| (after_blanks, b.to_ascii_lowercase()))
    }

    /// The entries by the character they must start with ([`Table::head`]), so that reading
    /// a name looks only at the entries that can match there.
    pub(super) fn index(&self) -> TableIndex {
        let plain: Vec<Option<Plain>> = self
            .entries
            .iter()
            .map(|e| match *e {
                Entry::Name(s, _) => Plain::of(s),
                _ => None,
            })
            .collect();
        let word = |i: usize| plain[i].filter(|p| !p.after_blanks);
        // The word spellings, by lowercased spelling (in table order within each).
        let mut keyed: Vec<(u64, u32)> =
            (0..self.entries.len()).filter_map(|i| Some((word(i)?.lower, i as u32))).collect();
        keyed.sort_unstable();
        let words: Vec<u32> = keyed.iter().map(|k| k.1).collect();
        let distinct = keyed.windows(2).filter(|w| w[0].0 != w[1].0).count() + usize::from(!keyed.is_empty());
        let mut word_slots = Vec::new();
        if distinct > 0 {
            word_slots = vec![(0u64, 0u32, 0u32); (2 * distinct).next_power_of_two().max(8)];
            let mask = word_slots.len() - 1;
            let mut at = 0;
            while at < keyed.len() {
                let key = keyed[at].0;
                let n = keyed[at..].iter().take_while(|k| k.0 == key).count();
                let mut slot = word_hash(key, word_slots.len());
                while word_slots[slot].2 != 0 {
                    slot = (slot + 1) & mask;
                }
                word_slots[slot] = (key, at as u32, n as u32);
                at += n;
            }
        }
        let bucket = |e: &Entry| match Table::head(e) {
            Some((false, b)) => usize::from(b),
            Some((true, b)) => 256 + usize::from(b),
            None => 512,
        };
        let mut starts = vec![0u32; 514];
        for (i, e) in self.entries.iter().enumerate() {
            if word(i).is_none() {
                starts[bucket(e) + 1] += 1;
            }
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        let mut next = starts.clone();
        let mut order = vec![0u32; starts[starts.len() - 1] as usize];
        for (i, e) in self.entries.iter().enumerate() {
            if word(i).is_none() {
                let b = bucket(e);
                order[next[b] as usize] = i as u32;
                next[b] += 1;
            }
        }
        TableIndex { order, starts, plain, word_slots, words, blanks: self.blanks() }
    }

    /// Whether a spelling of the table may hold blanks or separators other than at its ends
    /// (its reading then crosses blanks: `nop;` reads `nop ;`), and whether one ends in a blank.
    pub(super) fn blanks(&self) -> (bool, bool) {
        let (mut inner, mut trailing) = (false, false);
        for e in self.entries {
            let (core, blanks) = match *e {
                Entry::Name(s, _) => {
                    let core = s.trim_start_matches(' ');
                    trailing |= core.ends_with([' ', '\t']);
                    (core.trim_end_matches([' ', '\t']), [' ', '\t', ',', ';'])
                }
                // A range's prefix and suffix are compared byte for byte, around the digits: a
                // blank in either is crossed.
                Entry::Range { prefix, suffix, .. } => {
                    inner |= suffix.contains([' ', '\t']);
                    (prefix.trim_start_matches(' '), [' ', '\t', ' ', ' '])
                }
                Entry::Many(..) | Entry::Else(_) => continue,
            };
            inner |= core.contains(blanks);
        }
        (inner, trailing)
    }

    /// The entries of `index` whose word spelling is the text's run of word characters at the
    /// start of `bytes` (lowercased: the caller compares them exactly where case matters).
    #[inline]
    fn word_entries<'i>(index: &'i TableIndex, bytes: &[u8]) -> &'i [u32] {
        if index.word_slots.is_empty() || !bytes.first().is_some_and(|b| b.is_ascii_alphanumeric()) {
            return &[];
        }
        let n = bytes.iter().take(9).take_while(|b| is_word(**b)).count();
        if n > 8 {
            return &[];
        }
        let key = lower8(pack8(&bytes[..n]));
        let mask = index.word_slots.len() - 1;
        let mut slot = word_hash(key, index.word_slots.len());
        loop {
            let (k, start, count) = index.word_slots[slot];
            if count == 0 {
                return &[];
            }
            if k == key {
                return &index.words[start as usize..(start + count) as usize];
            }
            slot = (slot + 1) & mask;
        }
    }

    /// [`Table::candidates`] through the table's [`Table::index`].
    pub(super) fn candidates_indexed(
        &self,
        index: &TableIndex,
        text: &str,
        pos: usize,
        fold: bool,
        f: &mut dyn FnMut(usize, u64),
    ) {
        let bytes = text.as_bytes().get(pos..).unwrap_or_default();
        let first = bytes.first().map_or(0, |b| b.to_ascii_lowercase());
        let after = bytes.iter().find(|b| **b != b' ' && **b != b'\t').map_or(0, |b| b.to_ascii_lowercase());
        let run = |b: usize| &index.order[index.starts[b] as usize..index.starts[b + 1] as usize];
        let (mut x, mut y, mut z) = (run(usize::from(first)), run(256 + usize::from(after)), run(512));
        let mut w = Table::word_entries(index, bytes);
        // Mostly one run has entries: it is the order.
        let one = match (x.is_empty(), y.is_empty(), z.is_empty(), w.is_empty()) {
            (_, true, true, true) => Some(x),
            (true, false, true, true) => Some(y),
            (true, true, false, true) => Some(z),
            (true, true, true, false) => Some(w),
            _ => None,
        };
        if let Some(run) = one {
            return self.candidates_among(
                run.iter().map(|&k| k as usize),
                Some(&index.plain),
                text,
                pos,
                fold,
                f,
            );
        }
        // The three runs (entries of distinct buckets) merged, in table order: sorted together
        // when few, as they mostly are.
        let mut few = [0u32; 32];
        let n = x.len() + y.len() + z.len() + w.len();
        if n <= few.len() {
            few[..x.len()].copy_from_slice(x);
            few[x.len()..x.len() + y.len()].copy_from_slice(y);
            few[x.len() + y.len()..x.len() + y.len() + z.len()].copy_from_slice(z);
            few[n - w.len()..n].copy_from_slice(w);
            few[..n].sort_unstable();
            return self.candidates_among(
                few[..n].iter().map(|&k| k as usize),
                Some(&index.plain),
                text,
                pos,
                fold,
                f,
            );
        }
        let merged = core::iter::from_fn(|| {
            let head = [x.first(), y.first(), z.first(), w.first()].into_iter().flatten().min().copied()?;
            for r in [&mut x, &mut y, &mut z, &mut w] {
                if r.first() == Some(&head) {
                    *r = &r[1..];
                }
            }
            Some(head as usize)
        });
        self.candidates_among(merged, Some(&index.plain), text, pos, fold, f)
    }

    /// The spellings of the entries numbered `among` (in order) that match at `pos`; `plain`,
    /// the index's [`Plain`] spellings, compared at once.
    fn candidates_among(
        &self,
        among: impl Iterator<Item = usize>,
        plain: Option<&[Option<Plain>]>,
        text: &str,
        pos: usize,
        fold: bool,
        f: &mut dyn FnMut(usize, u64),
    ) {
        let rest = &text[pos..];
        // Names are whole words: `b` does not match the start of `bogus`.
        let word_end = |len: usize| {
            let (last, next) = (rest[..len].bytes().last(), rest.as_bytes().get(len));
            !matches!((last, next), (Some(l), Some(n)) if is_word(l) && is_word(*n))
        };
        let mut f = |len: usize, v: u64| {
            if word_end(len) {
                f(len, v)
            }
        };
        // A spelling's first character other than a space must be the text's first (a word
        // character) or its first after blanks (punctuation, or after a space): a byte
        // compare rules out most spellings before they are matched.
        let bytes = rest.as_bytes();
        let first = bytes.first().copied();
        let first_after_blanks = bytes.iter().copied().find(|b| *b != b' ' && *b != b'\t');
        let same = |a: Option<u8>, c: u8| a.is_some_and(|a| a == c || (fold && a.eq_ignore_ascii_case(&c)));
        // The text's next eight bytes, and those after its blanks, for the plain spellings.
        let fold8 = |w: u64| if fold { lower8(w) } else { w };
        let word = fold8(pack8(bytes));
        // Found when first needed.
        let mut after: Option<(u64, usize)> = None;
        for (i, e) in among.filter_map(|i| Some((i, self.entries.get(i)?))) {
            if let Some(Some(p)) = plain.and_then(|p| p.get(i)) {
                let (Entry::Name(_, v), key) = (e, if fold { p.lower } else { p.exact }) else { continue };
                let (w, skip) = match p.after_blanks {
                    false => (word, 0),
                    true => *after.get_or_insert_with(|| {
                        let blanks = bytes.iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
                        (fold8(pack8(&bytes[blanks..])), blanks)
                    }),
                };
                if (w ^ key) & p.mask == 0 {
                    f(usize::from(p.len) + skip, *v);
                }
                continue;
            }
            match *e {
                Entry::Name(s, v) => {
                    let head = match s.as_bytes().iter().position(|c| *c != b' ') {
                        None => true,
                        Some(0) if s.as_bytes()[0].is_ascii_alphanumeric() => same(first, s.as_bytes()[0]),
                        Some(i) => same(first_after_blanks, s.as_bytes()[i]),
                    };
                    if !head {
                        continue;
                    }
                    if let Some(len) = spelled(rest, s, fold) {
                        f(len, v);
                    }
                }
                Entry::Range { prefix, suffix, lo, hi, shift } => {
                    if !starts_with(rest, prefix, fold) {
                        continue;
                    }
                    let after = &rest[prefix.len()..];
                    if let Some((n, len)) = scan_decimal(after) {
                        let tail = &after[len..];
                        let v = n - shift as i128;
                        if starts_with(tail, suffix, fold) && v >= lo as i128 && v <= hi as i128 {
                            f(prefix.len() + len + suffix.len(), v as u64);
                        }
                    }
                }
                Entry::Many(..) | Entry::Else(_) => {}
            }
        }
    }
}

/// The length of the text at the start of `text` that spelling `s` matches. Spellings match
/// like literals: a blank matches any run of blanks (or none), and blanks before a spelling that
/// starts with punctuation, or before a separator in it, are skipped (`r0 >> 1` matches the
/// spelling `>> 1`, `nop ;` the spelling `nop;`).
pub(super) fn spelled(text: &str, s: &str, fold: bool) -> Option<usize> {
    let t = text.as_bytes();
    let blanks = |mut p: usize| {
        while p < t.len() && (t[p] == b' ' || t[p] == b'\t') {
            p += 1;
        }
        p
    };
    let mut p = 0;
    if s.as_bytes().first().is_some_and(|c| !c.is_ascii_alphanumeric() && *c != b' ') {
        p = blanks(p);
    }
    for &c in s.as_bytes() {
        if separator(c) {
            p = blanks(p);
        }
        if c == b' ' {
            p = blanks(p);
        } else if p < t.len() && (t[p] == c || (fold && t[p].eq_ignore_ascii_case(&c))) {
            p += 1;
        } else {
            return None;
        }
    }
    Some(p)
}

pub(super) fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn starts_with(text: &str, prefix: &str, fold: bool) -> bool {
    // Byte for byte (prefixes are short: a call to `memcmp` cost more than the compare); a
    // prefix that matches ends where a character of `text` does, as the prefix is a `str`
    // (folding changes ASCII letters only).
    text.len() >= prefix.len()
        && prefix.bytes().zip(text.bytes()).all(|(p, t)| p == t || (fold && p.eq_ignore_ascii_case(&t)))
}

/// Whether table `t` prints value `v` as some text ([`note_spelling`]): what [`Table::write`]
/// writes for it is not empty (a range's number always shows).
pub(super) fn prints_text(t: &Table, v: u64) -> bool {
    for e in t.entries {
        match *e {
            Entry::Name(s, w) if w == v => return !s.is_empty(),
            Entry::Range { lo, hi, .. } if (lo..=hi).contains(&v) => return true,
            Entry::Many(s, lo, hi) if (lo..=hi).contains(&v) => return !s.is_empty(),
            Entry::Else(s) => return !s.is_empty(),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::fixtures::{IDLE, OP, REG};

    /// `lower8` lowercases each byte as `to_ascii_lowercase` does (bytes past ASCII kept), a
    /// byte beside any other; `pack8` packs short and long slices alike.
    #[test]
    fn packed_words_lowercase_byte_by_byte() {
        for b in 0..=255u8 {
            for other in [0u8, b'Z', 0xff, b'@', b'['] {
                let bytes = [b, other, b, b'A', other, b, 0x80 | b, b];
                let want = u64::from_le_bytes(bytes.map(|c| c.to_ascii_lowercase()));
                assert_eq!(lower8(pack8(&bytes)), want, "{bytes:?}");
            }
        }
        assert_eq!(pack8(b"ab"), 0x6261);
        assert_eq!(pack8(b"abcdefghij"), u64::from_le_bytes(*b"abcdefgh"));
    }

    /// The index by first character finds, at every place of every text, the spellings the
    /// plain walk over every entry finds, in the same order (case folded or not).
    #[test]
    fn indexed_names_are_the_names_of_the_plain_walk() {
        static MIXED: Table = Table {
            name: "Mixed",
            entries: &[
                Entry::Name("", 0),
                Entry::Name("ra5", 1),
                Entry::Range { prefix: "ra", suffix: "", lo: 0, hi: 31, shift: 0 },
                Entry::Name(".16a", 2),
                Entry::Name(" >> 1", 3),
                Entry::Range { prefix: "", suffix: "s", lo: 0, hi: 9, shift: 0 },
                Entry::Many("???", 40, 50),
                Entry::Name("R5", 4),
                Entry::Name("nop;", 5),
                Entry::Name("ra5_x", 6),
                Entry::Name("abcdefgh", 7),
                Entry::Name("abcdefghi", 8),
                Entry::Name("|", 9),
                Entry::Name(".16ab", 10),
                Entry::Else("?"),
            ],
        };
        let texts = [
            "ra5.16a",
            "RA5 .16a",
            "r5 >> 1, 3s",
            "  nop ;",
            "ra31 >>1",
            "",
            "?? 7s",
            "\tR5",
            "rA5_X, ra5_",
            "abcdefgh abcdefghi ABCDEFGHIJ abcdefg",
            "ra5\u{e9}",
            " \t.16a .16A.16ab |x| |",
        ];
        for table in [&MIXED, &REG, &OP, &IDLE] {
            let index = table.index();
            for text in texts {
                for pos in (0..=text.len()).filter(|p| text.is_char_boundary(*p)) {
                    for fold in [false, true] {
                        let (mut plain, mut indexed) = (Vec::new(), Vec::new());
                        table.candidates(text, pos, fold, &mut |len, v| plain.push((len, v)));
                        table.candidates_indexed(&index, text, pos, fold, &mut |len, v| {
                            indexed.push((len, v))
                        });
                        assert_eq!(plain, indexed, "{} at {pos} of {text:?} (fold {fold})", table.name);
                    }
                }
            }
        }
        // `prints_text` says whether `write` writes any text, the empty alias (0) and the
        // value no entry names (60) among the values.
        for table in [&MIXED, &REG, &OP, &IDLE] {
            for v in 0..64 {
                let mut out = alloc::string::String::new();
                let written = table.write(v, &mut out).is_some() && !out.is_empty();
                assert_eq!(prints_text(table, v), written, "{} value {v}", table.name);
            }
        }
        assert!(!prints_text(&MIXED, 0) && prints_text(&MIXED, 1) && prints_text(&MIXED, 60));
        // Not vacuous: the walk finds names here.
        let mut found = Vec::new();
        MIXED.candidates("RA5 .16a", 0, true, &mut |len, v| found.push((len, v)));
        assert_eq!(found, [(0, 0), (3, 1), (3, 5)]);
    }
}
