//! The quick reader: reads the common line without the search's backtracking machinery,
//! walking the readings in the search's order; a line it cannot settle is left to the search.

use super::eval::{bind, bound_value, eval, eval_in, self_describing, Bound, Defaulted};
use super::memo::{Payers, PayersOf, Scratch, TableIndexes};
use super::names::{prints_text, Table};
use super::scan::{
    fits_width, literal_at, number_start, scan_integer, scan_number, skip_blanks, takes_expression,
};
use super::search::Context;
use super::solve::holds;
use super::tree::{Arm, Cmp, Expr, Item, Num, Show, Slot, Syntax};
use crate::format::Format;
use alloc::vec::Vec;

/// What [`quick_in`] makes of a text for one format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Quick {
    /// The search reads the text to these values, its reading ending here: what [`parses_in`](super::parses_in)
    /// (or, for a prefix, [`parse_prefix_in`](super::parse_prefix_in)) gives.
    Read(Vec<u64>, usize),
    /// The search does not read the text.
    Never,
    /// Not decided here: the search must be asked.
    Unsure,
}

/// How many item lists the quick reader enters before it leaves a text to the search. Walking
/// to the first reading in the search's order, it decides most lines in a few dozen (Maxwell's);
/// a line of VideoCore IV's vc4asm syntax that needs hundreds is cheaper for the search, whose
/// recognition prunes what the walk would enter (the 794 golden lines as one program, scratch
/// driver: budget 1,000 read 344 lines and took 380k steps, 200 read 191 in 25k steps and was
/// the faster, as were 100 and 50).
const QUICK_BUDGET: u32 = 200;

/// A condition the quick reader checks once a reading is complete: the condition, the truth
/// it must have, and its frame (start and length in [`QuickState::frames`]).
type Check = (&'static Expr, bool, u32, u32);

/// Working memory of the quick reader, kept in [`Scratch`] from one text to the next.
#[derive(Default)]
pub(super) struct QuickState {
    vals: Vec<Option<u64>>,
    assigned: Vec<Slot>,
    checks: Vec<Check>,
    frames: Vec<Bound>,
    /// Fields a name has spelled out (bit `s` for field `s`), and fields read through an
    /// empty alias of a name the table prints as text, whose value must be spelled out
    /// elsewhere in the line ([`note_spelling`]).
    shown: u64,
    owed: u64,
    /// The values of the first complete reading, settled ([`settle`]), and where it ends.
    found: Vec<u64>,
    found_end: usize,
    /// Complete readings met (the walk stops at the first).
    readings: u32,
    /// Working memory of [`settle`].
    settled: Vec<Option<u64>>,
    values: Vec<u64>,
    /// A construct the quick reader leaves to the search was met, or the budget ran out.
    unsure: bool,
    steps: u32,
    /// The spellings of the names being read, innermost last ([`QuickReader::spellings`]).
    spelled: Vec<(usize, u64)>,
}

/// Reads `text` with `syntax` without the search's machinery, for the common line whose
/// syntax reads it one way only. It walks every reading of the text that the syntax's items
/// allow (literals, names, numbers, calls, optional groups), with the assignments that guards
/// and conditions make outright (a flag, `field == value`, and their conjunctions) and the
/// values the text gives; every other condition is kept, to be checked once the reading is
/// complete, on the values with defaults ([`settle`]). The readings are walked in the
/// search's order (arms whose guards the defaults satisfy first, optional groups absent first
/// where the defaults make their conditions false, longest names first), and the assignments
/// are the search's (a field compared with a value known takes it), so the state each
/// ordering decision sees is the search's. The first complete reading that no value given
/// contradicts is then the first the search completes: when it settles it is the search's
/// ([`Quick::Read`]): the search reads the same items, makes the same assignments, leaves
/// unsolved conditions to the defaults and checks them as here. No reading at all is
/// [`Quick::Never`]: every reading of the search is one of these. Anything else (a first
/// reading with a check that fails and that the search might satisfy by choosing values,
/// constructs it does not read: an assigned view, echoes, labels, expressions, groups in any
/// order) is [`Quick::Unsure`]. An empty alias of a name the table prints as text owes the value, which a
/// name must spell out elsewhere in the line, as in the search ([`note_spelling`](super::solve::note_spelling)).
/// The differential test `format_index::quick_reader_reads_what_the_search_reads` holds it to
/// the search on every golden line and the texts of random words.
pub fn quick_in(
    scratch: &mut Scratch,
    format: &Format,
    syntax: &'static Syntax,
    text: &str,
    ctx: &Context,
    prefix: bool,
) -> Quick {
    let mut st = core::mem::take(&mut scratch.quick);
    st.vals.clear();
    st.vals.extend(format.fields.iter().map(|f| f.fixed));
    st.assigned.clear();
    st.checks.clear();
    st.frames.clear();
    st.shown = 0;
    st.owed = 0;
    st.readings = 0;
    st.unsure = false;
    st.steps = 0;
    st.spelled.clear();
    let mut q = QuickReader {
        format,
        text,
        ctx,
        prefix,
        st,
        tables: core::mem::take(&mut scratch.tables),
        root: syntax,
        payers: None,
        payers_of: core::mem::take(&mut scratch.payers_of),
    };
    let start = skip_blanks(text, 0);
    q.syntax(syntax, (0, 0), start, &mut |q, pos| {
        let end = skip_blanks(q.text, pos);
        // As the search's `complete`: a value owed is no reading.
        if (end != q.text.len() && !q.prefix) || q.st.owed != 0 {
            return;
        }
        // A condition the values the text gave already make false ends the reading, as an
        // assignment that contradicts a deferred condition ends the search's.
        let st = &q.st;
        let contradicted = st.checks.iter().any(|&(e, want, at, len)| {
            let frame = &st.frames[at as usize..(at + len) as usize];
            eval(e, frame, &st.vals, q.ctx.pc).is_some_and(|v| (v != 0) != want)
        });
        if contradicted {
            return;
        }
        // The first reading in the search's order is the search's if it settles; one that
        // does not might be read by the search with values it chooses.
        if !settle(q.format, &mut q.st, q.ctx.pc) {
            return q.unsure();
        }
        let st = &mut q.st;
        core::mem::swap(&mut st.found, &mut st.values);
        st.found_end = end;
        st.readings = 1;
    });
    let QuickReader { st: state, tables, payers, mut payers_of, .. } = q;
    if let Some(payers) = payers {
        payers_of.give_back(format, syntax, payers);
    }
    scratch.payers_of = payers_of;
    let answer = match (state.unsure, state.readings) {
        (true, _) => Quick::Unsure,
        (false, 0) => Quick::Never,
        (false, _) => Quick::Read(state.found.clone(), state.found_end),
    };
    scratch.quick = state;
    scratch.tables = tables;
    answer
}

/// Settles a complete reading as the search's `finish`, `resolve` and `complete` do when no
/// choice is left to make: equalities between a field the text gave and one it did not carry
/// the value over, the other fields take their defaults, a view is 0 among the values and
/// made up from the fields for the checks. True, with the values in `st.values`, when every
/// check holds on them: the search, reading the same items, makes no choice (every condition
/// it deferred holds on the defaults) and gives these values. False where a field has no
/// value, a view would be written back, or a check fails (the search might satisfy it by
/// choosing values).
fn settle(format: &Format, st: &mut QuickState, pc: u64) -> bool {
    let QuickState { vals, checks, frames, settled, values, .. } = st;
    settled.clone_from(vals);
    let named = |x: &Expr| matches!(x, Expr::Field(_) | Expr::Param(_));
    let mut changed = true;
    while changed {
        changed = false;
        for &(e, want, at, len) in checks.iter() {
            let (a, b) = match (e, want) {
                (Expr::Cmp(Cmp::Eq, a, b), true) | (Expr::Cmp(Cmp::Ne, a, b), false) => (a, b),
                _ => continue,
            };
            if !named(a) || !named(b) {
                continue;
            }
            let frame = &frames[at as usize..(at + len) as usize];
            let (x, y) = (bind(a, frame), bind(b, frame));
            let (to, v) = match (bound_value(x, settled), bound_value(y, settled)) {
                (Some(v), None) => (y, v as u64),
                (None, Some(v)) => (x, v as u64),
                _ => continue,
            };
            let (slot, v) = match to {
                Bound::Const(_) => continue,
                Bound::Slot(s) => (s, v),
                Bound::NotSlot(_) if v > 1 => return false,
                Bound::NotSlot(s) => (s, 1 - v),
            };
            if format.fields[slot as usize].view {
                return false;
            }
            settled[slot as usize] = Some(v);
            changed = true;
        }
    }
    values.clear();
    let mut word = 0u128;
    let mut views = false;
    for (v, f) in settled.iter_mut().zip(format.fields) {
        if f.view {
            views = true;
            values.push(0);
            continue;
        }
        match v.or(f.default) {
            Some(x) => {
                *v = Some(x);
                crate::bits::set(&mut word, f.pieces, x);
                values.push(x);
            }
            None => return false,
        }
    }
    if views {
        for (v, f) in settled.iter_mut().zip(format.fields).filter(|(_, f)| f.view) {
            *v = Some(crate::bits::get(word, f.pieces));
        }
    }
    checks.iter().all(|&(e, want, at, len)| {
        let frame = &frames[at as usize..(at + len) as usize];
        eval(e, frame, settled, pc).is_some_and(|v| (v != 0) == want)
    })
}

struct QuickReader<'t> {
    format: &'t Format,
    text: &'t str,
    ctx: &'t Context<'t>,
    prefix: bool,
    st: QuickState,
    tables: TableIndexes,
    /// The syntax being read, and the tables that spell out its fields ([`Parser::payable`]).
    root: &'static Syntax,
    payers: Option<Payers>,
    payers_of: PayersOf,
}

/// A frame of the quick reader: start and length in [`QuickState::frames`].
type QFrame = (u32, u32);

type QK<'k> = &'k mut dyn FnMut(&mut QuickReader, usize);

/// How far a quick reading had got: lengths of `assigned`, `checks` and `frames`; `shown`
/// and `owed`.
type QMark = (usize, usize, usize, u64, u64);

impl QuickReader<'_> {
    /// The spellings of `t` at `pos`, each (length, value) once, longest first, pushed on
    /// [`QuickState::spelled`]: where they start there; `None` (nothing pushed) when there
    /// are more than sixteen. The caller truncates `spelled` back to the start.
    fn spellings(&mut self, t: &'static Table, pos: usize) -> Option<usize> {
        let QuickReader { st, tables, text, ctx, .. } = self;
        let spelled = &mut st.spelled;
        let start = spelled.len();
        let mut many = false;
        let index = tables.get(t);
        t.candidates_indexed(index, text, pos, ctx.ignore_case, &mut |len, v| {
            if many || spelled[start..].contains(&(len, v)) {
                return;
            }
            match spelled.len() - start < 16 {
                true => spelled.push((len, v)),
                false => many = true,
            }
        });
        if many {
            spelled.truncate(start);
            return None;
        }
        // Longest first, as the search tries them (a stable sort: the table's order among
        // spellings of one length).
        if spelled.len() - start > 1 {
            spelled[start..].sort_by_key(|c| core::cmp::Reverse(c.0));
        }
        Some(start)
    }

    fn done(&self) -> bool {
        self.st.unsure || self.st.readings > 0
    }

    fn unsure(&mut self) {
        self.st.unsure = true;
    }

    fn frame(&self, f: QFrame) -> &[Bound] {
        &self.st.frames[f.0 as usize..(f.0 + f.1) as usize]
    }

    fn mark(&self) -> QMark {
        (self.st.assigned.len(), self.st.checks.len(), self.st.frames.len(), self.st.shown, self.st.owed)
    }

    /// [`note_spelling`] on bit sets: false for a field beyond the 64th, left to the search.
    fn note(&mut self, b: Bound, t: &Table, len: usize, v: u64) -> bool {
        let slot = match b {
            Bound::Slot(s) | Bound::NotSlot(s) => s,
            Bound::Const(_) => return true,
        };
        if slot >= 64 {
            return false;
        }
        let bit = 1u64 << slot;
        if len > 0 {
            self.st.shown |= bit;
            self.st.owed &= !bit;
        } else if (self.st.shown | self.st.owed) & bit == 0 && prints_text(t, v) {
            self.st.owed |= bit;
        }
        true
    }

    /// Whether every value owed may still be spelled out in the text from `pos` on, as the
    /// search judges it ([`Parser::payable`]): a reading where one cannot is no reading.
    fn payable(&mut self, pos: usize) -> bool {
        if self.st.owed == 0 {
            return true;
        }
        if self.payers.is_none() {
            self.payers = Some(self.payers_of.take(self.format, self.root));
        }
        let Some(payers) = &self.payers else { return true };
        let rest = self.text.get(pos..).unwrap_or_default();
        let mut owed = self.st.owed;
        while owed != 0 {
            let s = owed.trailing_zeros() as Slot;
            owed &= owed - 1;
            if !payers.may_spell(s, self.st.vals[s as usize], rest, self.ctx.ignore_case) {
                return false;
            }
        }
        true
    }

    fn undo(&mut self, m: QMark) {
        for s in self.st.assigned.drain(m.0..) {
            self.st.vals[s as usize] = None;
        }
        self.st.checks.truncate(m.1);
        self.st.frames.truncate(m.2);
        self.st.shown = m.3;
        self.st.owed = m.4;
    }

    /// [`Parser::assign`] without deferred conditions (they are checked at the end). A view
    /// is left to the search (which writes it back into the fields it shares bits with).
    fn assign(&mut self, b: Bound, v: u64) -> bool {
        let slot = match b {
            Bound::Const(c) => return c as u64 == v,
            Bound::Slot(s) | Bound::NotSlot(s) => s,
        };
        if self.format.fields[slot as usize].view {
            self.unsure();
            return false;
        }
        let v = match b {
            Bound::NotSlot(_) if v > 1 => return false,
            Bound::NotSlot(_) => 1 - v,
            _ => v,
        };
        if !holds(&self.format.fields[slot as usize], v) {
            return false;
        }
        match self.st.vals[slot as usize] {
            Some(old) => old == v,
            None => {
                self.st.vals[slot as usize] = Some(v);
                self.st.assigned.push(slot);
                true
            }
        }
    }

    /// Makes `e` come out `want`: the assignments [`Parser::require`] makes whatever the
    /// defaults (a one-bit field, `field == value`, conjunctions of them), the rest kept as
    /// checks. False when an assignment contradicts a value already given.
    fn require(&mut self, e: &'static Expr, want: bool, f: QFrame) -> bool {
        let named = |x: &Expr| matches!(x, Expr::Field(_) | Expr::Param(_));
        match e {
            Expr::Not(x) => return self.require(x, !want, f),
            Expr::And(xs) if want => return xs.iter().all(|x| self.require(x, true, f)),
            Expr::Or(xs) if !want => return xs.iter().all(|x| self.require(x, false, f)),
            Expr::Field(_) | Expr::Param(_) => {
                let b = bind(e, self.frame(f));
                match b {
                    Bound::Const(c) => return (c != 0) == want,
                    Bound::Slot(s) | Bound::NotSlot(s)
                        if crate::bits::width(self.format.fields[s as usize].pieces) == 1 =>
                    {
                        return self.assign(b, want as u64)
                    }
                    _ => {}
                }
            }
            Expr::Cmp(op, a, c) if (*op == Cmp::Eq && want) || (*op == Cmp::Ne && !want) => {
                // As the search: a field compared with what the values known give takes it.
                let (pc, frame) = (self.ctx.pc, self.frame(f));
                let target = match (&**a, &**c) {
                    (x, Expr::Int(v)) if named(x) => Some((x, *v)),
                    (Expr::Int(v), x) if named(x) => Some((x, *v)),
                    (x, y) if named(x) && eval(x, frame, &self.st.vals, pc).is_none() => {
                        eval(y, frame, &self.st.vals, pc).map(|v| (x, v))
                    }
                    (y, x) if named(x) && eval(x, frame, &self.st.vals, pc).is_none() => {
                        eval(y, frame, &self.st.vals, pc).map(|v| (x, v))
                    }
                    _ => None,
                };
                if let Some((x, v)) = target {
                    let b = bind(x, self.frame(f));
                    return self.assign(b, v as u64);
                }
            }
            _ => {}
        }
        self.st.checks.push((e, want, f.0, f.1));
        true
    }

    /// Whether `e` holds on the values with defaults for the unknown fields (undecided: it
    /// does), as the search orders arms and optional groups.
    fn fits(&self, e: &Expr, f: QFrame) -> Option<i64> {
        let defaulted = Defaulted { vals: &self.st.vals, fields: self.format.fields };
        eval_in(e, self.frame(f), &defaulted, self.ctx.pc)
    }

    fn syntax(&mut self, syntax: &'static Syntax, f: QFrame, pos: usize, k: QK) {
        // In the search's order ([`Parser::syntax`]): the arms whose guards the defaults of
        // the unknown fields satisfy first, then the others, each in the written order.
        let mut fitting = [0u64; 4];
        for (index, arm) in syntax.arms.iter().enumerate().take(256) {
            let fit = arm.guard.is_none_or(|g| self.fits(g, f).unwrap_or(1) != 0);
            fitting[index / 64] |= u64::from(fit) << (index % 64);
        }
        if syntax.arms.len() > 256 {
            return self.unsure();
        }
        for first in [true, false] {
            for (index, arm) in syntax.arms.iter().enumerate() {
                if (fitting[index / 64] >> (index % 64) & 1 == 1) == first {
                    self.arm(syntax, index, arm, f, pos, k);
                }
            }
        }
    }

    /// Reads arm `index` of `syntax`, then `k`.
    fn arm(
        &mut self,
        syntax: &'static Syntax,
        index: usize,
        arm: &'static Arm,
        f: QFrame,
        pos: usize,
        k: QK,
    ) {
        if self.done() || self.literal_fails(arm.items, pos) {
            return;
        }
        let m = self.mark();
        // As the search: choosing an arm that is no alias makes every earlier guard false.
        let mut ok = true;
        if !arm.alias {
            for earlier in &syntax.arms[..index] {
                if let Arm { guard: Some(g), alias: false, .. } = earlier {
                    ok = ok && self.require(g, false, f);
                }
            }
        }
        if let Some(g) = arm.guard {
            ok = ok && self.require(g, true, f);
        }
        if ok {
            self.items(arm.items, 0, f, pos, k);
        }
        self.undo(m);
    }

    /// Reads `items[i..]` from `pos`, then `k`. An item read one way only (a literal, a
    /// number, a name with one spelling there) is followed in this loop rather than by a
    /// call: what it assigns is undone by whoever made the last choice, as a call's would be
    /// (every caller marks before it calls and undoes after); each item still takes a step.
    fn items(&mut self, items: &'static [Item], mut i: usize, f: QFrame, mut pos: usize, k: QK) {
        loop {
            if self.done() {
                return;
            }
            self.st.steps += 1;
            if self.st.steps > QUICK_BUDGET {
                return self.unsure();
            }
            let Some(item) = items.get(i) else {
                return k(self, pos);
            };
            match item {
                Item::Lit(s) => match literal_at(self.text, s, pos, self.ctx.ignore_case) {
                    Some(end) => pos = end,
                    None => return,
                },
                Item::Show(e, Show::Num(n)) if !matches!(e, Expr::Arith(..) | Expr::If(..)) => {
                    match self.number(e, *n, f, pos) {
                        Some(end) => pos = end,
                        None => return,
                    }
                }
                Item::Show(e, Show::Table(t)) if !matches!(e, Expr::Arith(..) | Expr::If(..)) => {
                    let Some(start) = self.spellings(t, pos) else { return self.unsure() };
                    if self.st.spelled.len() - start != 1 {
                        return self.choose(e, t, start, items, i, f, pos, k);
                    }
                    let (len, v) = self.st.spelled[start];
                    self.st.spelled.truncate(start);
                    let b = bind(e, self.frame(f));
                    if !self.assign(b, v) {
                        return;
                    }
                    if !self.note(b, t, len, v) {
                        return self.unsure();
                    }
                    if !self.payable(pos + len) {
                        return;
                    }
                    pos += len;
                }
                _ => return self.item(item, items, i, f, pos, k),
            }
            i += 1;
        }
    }

    /// Whether `items` start with a literal that the text at `pos` does not have: no reading
    /// of them exists, whatever their conditions would assign (an arm or an optional group
    /// that starts so is not entered; the search fails on it at that literal).
    fn literal_fails(&self, items: &[Item], pos: usize) -> bool {
        matches!(items.first(), Some(Item::Lit(s)) if literal_at(self.text, s, pos, self.ctx.ignore_case).is_none())
    }

    /// Reads a name of `t` for `e` at `pos` (its spellings there pushed from `start` on
    /// [`QuickState::spelled`], more than one or none), each spelling in turn, then
    /// `items[i + 1..]` and `k`.
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &mut self,
        e: &'static Expr,
        t: &'static Table,
        start: usize,
        items: &'static [Item],
        i: usize,
        f: QFrame,
        pos: usize,
        k: QK,
    ) {
        let mut rest = |q: &mut QuickReader, pos: usize| q.items(items, i + 1, f, pos, &mut *k);
        let b = bind(e, self.frame(f));
        let end = self.st.spelled.len();
        for j in start..end {
            let (len, v) = self.st.spelled[j];
            let m = self.mark();
            if self.assign(b, v) {
                if !self.note(b, t, len, v) {
                    return self.unsure();
                }
                if self.payable(pos + len) {
                    rest(self, pos + len);
                }
            }
            self.undo(m);
            if self.done() {
                return;
            }
        }
        self.st.spelled.truncate(start);
    }

    /// Reads a number for `e`, shown as `n`, at `pos`: where it ends, its value assigned;
    /// `None` where none is read (the walk made unsure where the search must decide).
    fn number(&mut self, e: &'static Expr, n: Num, f: QFrame, pos: usize) -> Option<usize> {
        let b = bind(e, self.frame(f));
        let (width, signed, allowed) = match b {
            Bound::Slot(s) | Bound::NotSlot(s) => {
                let fi = &self.format.fields[s as usize];
                (crate::bits::width(fi.pieces), fi.signed, fi.allowed)
            }
            Bound::Const(_) => (64, false, &[][..]),
        };
        let is_target = matches!(n, Num::Label { .. } | Num::Target { .. });
        // A value already given is echoed ([`Parser::echo`]): the search's business.
        if !is_target && bound_value(b, &self.st.vals).is_some() {
            self.unsure();
            return None;
        }
        let start = number_start(self.text, pos);
        let text = &self.text[start..];
        let plain = match n {
            Num::Label { .. } | Num::Target { .. } => match scan_integer(text) {
                Some((x, len)) => match n {
                    Num::Target { base, .. } => match eval(base, self.frame(f), &self.st.vals, self.ctx.pc) {
                        Some(base) => Some((x - base as i128, len)),
                        None => {
                            self.unsure();
                            return None;
                        }
                    },
                    _ => Some((x, len)),
                },
                // A label.
                None => {
                    self.unsure();
                    return None;
                }
            },
            _ => scan_number(n, width, text),
        };
        // An expression that reads more (or other) text than the plain number.
        if let Some(read) = self.ctx.expression.filter(|_| takes_expression(&n)) {
            if let Ok((_, len)) = read(text) {
                if plain.is_none_or(|p| p.1 != len) {
                    self.unsure();
                    return None;
                }
            }
        }
        let (value, len) = plain?;
        let raw_hex = matches!(n, Num::Hex { .. } | Num::Bin { .. } | Num::HexValue { signed: false, .. });
        if !fits_width(value, width, signed, raw_hex) {
            return None;
        }
        let raw = (value as u64) & crate::bits::mask(width);
        if !allowed.is_empty() && !allowed.iter().any(|(lo, hi)| (*lo..=*hi).contains(&raw)) {
            return None;
        }
        self.assign(b, raw).then_some(start + len)
    }

    /// Reads `item`, `items[i]`, which may be read several ways, then `items[i + 1..]` and `k`.
    fn item(&mut self, item: &'static Item, items: &'static [Item], i: usize, f: QFrame, pos: usize, k: QK) {
        let mut rest = |q: &mut QuickReader, pos: usize| q.items(items, i + 1, f, pos, &mut *k);
        match item {
            Item::Show(Expr::Arith(..) | Expr::If(..), _) => self.unsure(),
            // Read in [`QuickReader::items`].
            Item::Lit(_) | Item::Show(_, Show::Num(_) | Show::Table(_)) => {}
            Item::Show(e, Show::TableIf(c, a, other)) => {
                // As the search: a name both tables give the same value leaves the condition
                // free, a name of one table only makes it true (`a`) or false.
                let b = bind(e, self.frame(f));
                let Some(start) = self.spellings(a, pos) else { return self.unsure() };
                let mid = self.st.spelled.len();
                if self.spellings(other, pos).is_none() {
                    return self.unsure();
                }
                let (in_a, in_other) = self.st.spelled[start..].split_at(mid - start);
                let mut cands = [(0usize, 0u64, None::<bool>); 32];
                let mut n = 0;
                for &(len, v) in in_a {
                    let want = if in_other.contains(&(len, v)) { None } else { Some(true) };
                    cands[n] = (len, v, want);
                    n += 1;
                }
                for &(len, v) in in_other {
                    if !in_a.contains(&(len, v)) {
                        cands[n] = (len, v, Some(false));
                        n += 1;
                    }
                }
                self.st.spelled.truncate(start);
                cands[..n].sort_by_key(|c| core::cmp::Reverse(c.0));
                for &(len, v, want) in &cands[..n] {
                    let t = if want == Some(false) { other } else { a };
                    let m = self.mark();
                    if self.assign(b, v) {
                        if !self.note(b, t, len, v) {
                            return self.unsure();
                        }
                        if self.payable(pos + len) && want.is_none_or(|w| self.require(c, w, f)) {
                            rest(self, pos + len);
                        }
                    }
                    self.undo(m);
                    if self.done() {
                        return;
                    }
                }
            }
            Item::Call(sub, args) => {
                let m = self.mark();
                let at = self.st.frames.len() as u32;
                for a in args.iter() {
                    let b = bind(a, self.frame(f));
                    self.st.frames.push(b);
                }
                self.syntax(sub, (at, args.len() as u32), pos, &mut rest);
                self.undo(m);
            }
            Item::Opt(cond, body) => {
                // As the search: present first, unless the defaults of the unknown fields make
                // the condition false.
                let absent_first = self.fits(cond, f).is_some_and(|v| v == 0);
                for present in [!absent_first, absent_first] {
                    if self.done() {
                        return;
                    }
                    if present && self.literal_fails(body, pos) {
                        continue;
                    }
                    let m = self.mark();
                    if present {
                        // A group that shows the fields its condition reads is read as written.
                        if self_describing(cond, body, self.frame(f)) || self.require(cond, true, f) {
                            self.items(body, 0, f, pos, &mut rest);
                        }
                    } else if self.require(cond, false, f) {
                        rest(self, pos);
                    }
                    self.undo(m);
                }
            }
            Item::AnyOrder(..) => self.unsure(),
        }
    }
}
