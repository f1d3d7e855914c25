//! Generated readers: the runtime of the Rust functions the compiler writes for a format's
//! syntax whose every choice the text decides by its next byte (`isa_compiler`'s
//! `backend::rust::readers`).
//!
//! A generated reader walks one reading only: at an arm or an optional group it takes the one
//! alternative whose possible first bytes (worked out from the description when the code was
//! generated, what follows included) hold the text's next byte after blanks; a name is the one
//! spelling there after which the text's next byte is one the rest may start with, its
//! spellings found by the table's generated look-up ([`Spell`], [`Names`]), which the test
//! builds hold to the engine's index at every name read. Where the
//! text leaves that open, or anything goes otherwise than a plain reading, it answers
//! [`Quick::Unsure`] and the engine ([`super::quick_in`], then the search) decides: no other
//! reading of the text exists, so a reading it completes, and whose checks hold on the
//! defaults, is the engine's first reading and the engine's answer. Each step below is the
//! quick reader's own (the same assignments, checks, settling), without its walk over
//! alternatives, its undo log and its facts. The differential test
//! `format_index::generated_readers_read_what_the_engine_reads` holds every reader to the
//! engine on every golden line and the texts of random words.

use super::eval::{bind, bound_value, eval, self_describing, Bound};
use super::memo::Scratch;
use super::names::{is_word, prints_text, spelled, Table};
use super::quick::Quick;
use super::reading::{giving, Giving};
use super::scan::{
    field_raw, literal_at, number_start, scan_decimal, scan_number, skip_blanks, takes_expression,
};
use super::search::Context;
use super::tree::{Expr, Item, Num};
use crate::format::Format;
use alloc::vec::Vec;

/// A generated reader: true when it read the whole text one way, its values in the [`Fast`].
pub type Reader = fn(&mut Fast<'_>) -> bool;

/// A generated name look-up: the spellings of one name table in one dialect that match at the
/// text's place, given to [`Names`] (written once per table and shared by every reader that
/// shows a value through it).
pub type Spell = fn(&mut Names<'_>);

/// The most spellings a [`Spell`] keeps at one place (more: the reader is unsure).
const SPELLINGS: usize = 4;

/// The text at a name's place as a generated [`Spell`] reads it, and the spellings it found
/// there after which the text goes on as the reading may: each the length of text it covers
/// and its value, once. A spelling matches as in the engine's tables ([`Table`]): a whole
/// word, blanks skipped before punctuation.
pub struct Names<'a> {
    /// The text from the name's place.
    text: &'a str,
    fold: bool,
    /// Blanks at the place.
    skip: usize,
    /// What may come after the name (after blanks).
    follow: &'a ByteSet,
    found: [(usize, u64); SPELLINGS],
    n: usize,
    over: bool,
}

/// Up to eight bytes of `b`, little-endian, zero past its end; lowercased when folding.
#[inline]
fn pack8(b: &[u8], fold: bool) -> u64 {
    let w = match b.first_chunk::<8>() {
        Some(w) => u64::from_le_bytes(*w),
        None => b.iter().rev().fold(0, |w, c| w << 8 | u64::from(*c)),
    };
    match fold {
        // ASCII capitals (0x41 to 0x5a) get bit 5, each byte on its own.
        true => {
            let low7 = w & 0x7f7f_7f7f_7f7f_7f7f;
            let above_z = low7 + 0x2525_2525_2525_2525;
            let from_a = low7 + 0x3f3f_3f3f_3f3f_3f3f;
            let upper = from_a & !above_z & !w & 0x8080_8080_8080_8080;
            w | upper >> 2
        }
        false => w,
    }
}

impl<'a> Names<'a> {
    #[inline]
    fn new(text: &'a str, fold: bool, follow: &'a ByteSet) -> Names<'a> {
        let b = text.as_bytes();
        let skip = b.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
        Names { text, fold, skip, follow, found: [(0, 0); SPELLINGS], n: 0, over: false }
    }

    /// The byte that chooses the entries to try: the first after blanks, lowercased (256 at
    /// the text's end).
    #[inline]
    pub fn head(&self) -> u16 {
        self.text.as_bytes().get(self.skip).map_or(256, |c| u16::from(c.to_ascii_lowercase()))
    }

    /// A spelling found: `len` bytes of text for value `v`, kept where it ends a word and the
    /// text's next byte after blanks is one that may follow.
    #[inline]
    fn found(&mut self, len: usize, v: u64) {
        let b = self.text.as_bytes();
        if len > 0 && len < b.len() && is_word(b[len - 1]) && is_word(b[len]) {
            return;
        }
        if !in_set(self.follow, next_byte(self.text, len)) || self.found[..self.n].contains(&(len, v)) {
            return;
        }
        if self.n == SPELLINGS {
            self.over = true;
            return;
        }
        self.found[self.n] = (len, v);
        self.n += 1;
    }

    /// A spelling of one to eight bytes, as packed by the compiler (`exact`, and `lower`
    /// lowercased, over the bytes of `mask`): at the place, or after its blanks.
    #[inline]
    pub fn plain(&mut self, exact: u64, lower: u64, mask: u64, len: usize, after_blanks: bool, v: u64) {
        let skip = if after_blanks { self.skip } else { 0 };
        let w = pack8(&self.text.as_bytes()[skip..], self.fold);
        let key = if self.fold { lower } else { exact };
        if (w ^ key) & mask == 0 {
            self.found(len + skip, v);
        }
    }

    /// The empty spelling, which matches anywhere.
    #[inline]
    pub fn empty(&mut self, v: u64) {
        self.found(0, v);
    }

    /// Any other spelling (blanks in it, or longer than eight bytes).
    pub fn spelling(&mut self, s: &str, v: u64) {
        if let Some(len) = spelled(self.text, s, self.fold) {
            self.found(len, v);
        }
    }

    /// A range of values printed as `prefix`, the number `value + shift`, `suffix`.
    pub fn range(&mut self, prefix: &str, suffix: &str, lo: u64, hi: u64, shift: i64) {
        let fold = self.fold;
        let same = |t: &str, p: &str| {
            t.len() >= p.len()
                && p.bytes().zip(t.bytes()).all(|(p, t)| p == t || (fold && p.eq_ignore_ascii_case(&t)))
        };
        if !same(self.text, prefix) {
            return;
        }
        let after = &self.text[prefix.len()..];
        if let Some((n, len)) = scan_decimal(after) {
            let v = n - i128::from(shift);
            if same(&after[len..], suffix) && v >= i128::from(lo) && v <= i128::from(hi) {
                self.found(prefix.len() + len + suffix.len(), v as u64);
            }
        }
    }

    /// The spellings found.
    #[cfg(debug_assertions)]
    fn spellings(&self) -> &[(usize, u64)] {
        &self.found[..self.n]
    }
}

/// A set of bytes (0 to 255) and the text's end (256), as the generated code writes them.
pub type ByteSet = [u64; 5];

/// The most checks a generated reading keeps (more: unsure).
const CHECKS: usize = 16;

/// Working memory of the generated readers, kept in [`Scratch`].
#[derive(Default)]
pub(super) struct FastState {
    vals: Vec<Option<u64>>,
    settled: Vec<Option<u64>>,
}

/// What a generated reader reads with: the text, where it is, the values given so far and the
/// conditions to check once the reading is complete.
pub struct Fast<'a> {
    format: &'a Format,
    text: &'a str,
    ctx: &'a Context<'a>,
    pos: usize,
    st: &'a mut FastState,
    /// The engine's name indexes, which the test builds hold every generated look-up to.
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    tables: &'a mut super::memo::TableIndexes,
    checks: [(&'static Expr, bool, &'static [Bound]); CHECKS],
    n_checks: usize,
    /// Fields spelled out, and fields owed (an empty alias of a name printed as text).
    shown: u64,
}

/// The first byte at or after `pos` that is no blank, or 256 at the text's end.
#[inline]
fn next_byte(text: &str, pos: usize) -> u16 {
    let b = text.as_bytes();
    let mut p = pos;
    while p < b.len() && (b[p] == b' ' || b[p] == b'\t') {
        p += 1;
    }
    b.get(p).map_or(256, |c| u16::from(*c))
}

/// Whether the text from `pos` goes on with `token` (blanks left out, lowercased; `\0`: the
/// text's end), blanks skipped and case ignored.
fn starts_with(text: &str, pos: usize, token: &str) -> bool {
    let b = text.as_bytes();
    let mut p = pos;
    for &c in token.as_bytes() {
        while p < b.len() && (b[p] == b' ' || b[p] == b'\t') {
            p += 1;
        }
        match b.get(p) {
            None => return c == 0,
            Some(x) if x.to_ascii_lowercase() == c => p += 1,
            Some(_) => return false,
        }
    }
    true
}

/// Whether `set` holds byte (or end) `b`.
#[inline]
pub fn in_set(set: &ByteSet, b: u16) -> bool {
    set[usize::from(b >> 6)] >> (b & 63) & 1 == 1
}

/// Reads `text` with `format`'s generated `reader`: [`Quick::Read`] with what the engine reads
/// ([`super::quick_in`]'s answer, or the search's where that is unsure), or [`Quick::Unsure`].
/// Never [`Quick::Never`]: a reading it does not complete is left to the engine. A text read
/// as a prefix, or at an address, is not asked here (the caller asks the engine).
pub fn fast_in(scratch: &mut Scratch, format: &Format, reader: Reader, text: &str, ctx: &Context) -> Quick {
    let st = &mut scratch.fast;
    st.vals.clear();
    st.vals.extend(format.fields.iter().map(|f| f.fixed));
    if format.fields.len() > 64 {
        return Quick::Unsure;
    }
    let mut f = Fast {
        format,
        text,
        ctx,
        pos: skip_blanks(text, 0),
        st,
        tables: &mut scratch.tables,
        checks: [(&Expr::Int(0), true, &[]); CHECKS],
        n_checks: 0,
        shown: 0,
    };
    if !reader(&mut f) {
        return Quick::Unsure;
    }
    let end = skip_blanks(f.text, f.pos);
    if end != f.text.len() {
        return Quick::Unsure;
    }
    match f.settle() {
        Some(values) => Quick::Read(values, end),
        None => Quick::Unsure,
    }
}

impl Fast<'_> {
    /// The text's next byte after blanks (256: its end), which decides the next choice.
    #[inline]
    pub fn peek(&self) -> u16 {
        next_byte(self.text, self.pos)
    }

    /// Whether the text goes on with one of `tokens` (blanks left out, lowercased; `\0`: the
    /// text's end), which decides a choice the next byte does not.
    pub fn starts_any(&self, tokens: &[&str]) -> bool {
        tokens.iter().any(|t| starts_with(self.text, self.pos, t))
    }

    /// Reads literal `s`.
    #[inline]
    pub fn lit(&mut self, s: &str) -> bool {
        match literal_at(self.text, s, self.pos, self.ctx.ignore_case) {
            Some(end) => {
                self.pos = end;
                true
            }
            None => false,
        }
    }

    /// The quick reader's `assign` without facts: false where the value contradicts one
    /// given, the field cannot hold it, or the field is a view.
    fn assign(&mut self, b: Bound, v: u64) -> bool {
        let (slot, v) = match giving(self.format.fields, b, v) {
            Giving::Decided(ok) => return ok,
            Giving::View => return false,
            Giving::Field(slot, v) => (slot, v),
        };
        match self.st.vals[slot as usize] {
            Some(old) => old == v,
            None => {
                self.st.vals[slot as usize] = Some(v);
                true
            }
        }
    }

    /// Keeps a check for the end of the reading; false when there are too many.
    fn check(&mut self, e: &'static Expr, want: bool, frame: &'static [Bound]) -> bool {
        if self.n_checks == CHECKS {
            return false;
        }
        self.checks[self.n_checks] = (e, want, frame);
        self.n_checks += 1;
        true
    }

    /// Makes `e` come out `want` as the quick reader's `require` does: the assignments it
    /// makes outright, the rest kept as checks. False where an assignment contradicts.
    pub fn require(&mut self, e: &'static Expr, want: bool, frame: &'static [Bound]) -> bool {
        super::reading::require(self, e, want, frame)
    }

    /// An optional group `opt` (an [`Item::Opt`]) read as present: its condition made true,
    /// unless the group shows what its condition reads.
    pub fn present(&mut self, opt: &'static Item, frame: &'static [Bound]) -> bool {
        match opt {
            Item::Opt(cond, body) => self_describing(cond, body, frame) || self.require(cond, true, frame),
            _ => false,
        }
    }

    /// Reads a name of `t` for `e`, its spellings at the text's place found by `spell` (the
    /// table's generated look-up): the one spelling after which the next byte (after blanks)
    /// is in `follow`, and the text goes on with one of `tokens` (`None`: anything), what the
    /// rest of the reading may start with.
    #[allow(clippy::too_many_arguments)]
    pub fn name(
        &mut self,
        e: &'static Expr,
        t: &'static Table,
        spell: Spell,
        frame: &'static [Bound],
        follow: &ByteSet,
        tokens: Option<&[&str]>,
    ) -> bool {
        let (text, pos) = (self.text, self.pos);
        let mut names = Names::new(&text[pos..], self.ctx.ignore_case, follow);
        spell(&mut names);
        #[cfg(debug_assertions)]
        self.same_as_the_index(t, &names);
        if names.over {
            return false;
        }
        let mut n = names.n;
        if n > 1 {
            if let Some(tokens) = tokens {
                let mut m = 0;
                for k in 0..n {
                    let (len, v) = names.found[k];
                    if tokens.iter().any(|tok| starts_with(text, pos + len, tok)) {
                        names.found[m] = (len, v);
                        m += 1;
                    }
                }
                n = m;
            }
        }
        let [(len, v)] = names.found[..n] else { return false };
        let b = bind(e, frame);
        if !self.assign(b, v) {
            return false;
        }
        // A value owed (an empty alias of a name printed as text) is left to the engine.
        if let Bound::Slot(s) | Bound::NotSlot(s) = b {
            if s >= 64 {
                return false;
            }
            if len > 0 {
                self.shown |= 1 << s;
            } else if self.shown & 1 << s == 0 && prints_text(t, v) {
                return false;
            }
        }
        self.pos += len;
        true
    }

    /// A generated look-up finds the spellings the engine's index of the table finds (where
    /// the text goes on as `follow` allows), in the test builds: the generated readers'
    /// differential test asks every reader's names.
    #[cfg(debug_assertions)]
    fn same_as_the_index(&mut self, t: &'static Table, names: &Names<'_>) {
        if names.over {
            return;
        }
        let (text, pos) = (self.text, self.pos);
        let index = self.tables.get(t);
        let mut engine = Vec::new();
        t.candidates_indexed(index, text, pos, self.ctx.ignore_case, &mut |len, v| {
            if in_set(names.follow, next_byte(text, pos + len)) && !engine.contains(&(len, v)) {
                engine.push((len, v));
            }
        });
        let mut generated = names.spellings().to_vec();
        engine.sort_unstable();
        generated.sort_unstable();
        assert!(
            engine == generated,
            "table {} at {:?}: generated {generated:?}, engine {engine:?}",
            t.name,
            &text[pos..]
        );
    }

    /// Reads a number shown as `n` for `e`, as the quick reader's `plain_number` does; a value
    /// already given (an echo), a label or an expression read otherwise is left to the engine.
    pub fn number(&mut self, e: &'static Expr, n: Num, frame: &'static [Bound]) -> bool {
        if matches!(n, Num::Label { .. } | Num::Target { .. }) {
            return false;
        }
        let b = bind(e, frame);
        if bound_value(b, &self.st.vals).is_some() {
            return false;
        }
        let (width, signed, allowed) = match b {
            Bound::Slot(s) | Bound::NotSlot(s) => {
                let fi = &self.format.fields[s as usize];
                (crate::bits::width(fi.pieces), fi.signed, fi.allowed)
            }
            Bound::Const(_) => (64, false, &[][..]),
        };
        let start = number_start(self.text, self.pos);
        let text = &self.text[start..];
        let plain = scan_number(n, width, text);
        if let Some(read) = self.ctx.expression.filter(|_| takes_expression(&n)) {
            let no_float = |v: &crate::expr::Value| {
                matches!(v, crate::expr::Value::Float(_))
                    && width != 32
                    && !matches!(n, Num::Float { .. } | Num::Decimal { .. })
            };
            if let Ok((v, len)) = read(text) {
                if plain.is_none_or(|p| p.1 != len) && !no_float(&v) {
                    return false;
                }
            }
        }
        let Some((value, len)) = plain else { return false };
        let Ok(raw) = field_raw(value, n, width, signed, allowed) else { return false };
        if !self.assign(b, raw) {
            return false;
        }
        self.pos = start + len;
        true
    }

    /// The quick reader's `settle`: the values with defaults where every check holds on them.
    fn settle(&mut self) -> Option<Vec<u64>> {
        let st = &mut *self.st;
        let checks = &self.checks[..self.n_checks];
        let pc = self.ctx.pc;
        st.settled.clone_from(&st.vals);
        let settled = &mut st.settled;
        if !super::reading::carry_equalities(self.format.fields, settled, || checks.iter().copied()) {
            return None;
        }
        let mut values = Vec::with_capacity(settled.len());
        for (v, f) in settled.iter_mut().zip(self.format.fields) {
            // A view is made up from the word: left to the engine.
            if f.view {
                return None;
            }
            let x = v.or(f.default)?;
            *v = Some(x);
            values.push(x);
        }
        checks
            .iter()
            .all(|&(e, want, frame)| eval(e, frame, settled, pc).is_some_and(|v| (v != 0) == want))
            .then_some(values)
    }
}

impl super::reading::Reading for Fast<'_> {
    type Frame = &'static [Bound];
    fn frame(&self, f: &'static [Bound]) -> &[Bound] {
        f
    }
    fn vals(&self) -> &[Option<u64>] {
        &self.st.vals
    }
    fn pc(&self) -> u64 {
        self.ctx.pc
    }
    fn width(&self, slot: super::tree::Slot) -> u32 {
        crate::bits::width(self.format.fields[slot as usize].pieces)
    }
    fn assign(&mut self, b: Bound, v: u64) -> bool {
        Fast::assign(self, b, v)
    }
    fn check(&mut self, e: &'static Expr, want: bool, f: &'static [Bound]) -> bool {
        Fast::check(self, e, want, f)
    }
}
