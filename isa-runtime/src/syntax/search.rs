//! The backtracking search that reads a text into field values (the assembler's direction):
//! its state and marks to go back to, the entry points (`parse`, `parses`, `parse_prefix`),
//! and the walk over syntaxes, items, optional groups, any-order groups, tables and numbers.
//! Recognition and condition solving, which it calls, are files of their own.

use super::eval::{bind, bound_value, eval, eval_in, print_only, self_describing, Bound};
use super::failure::{Failure, Want};
use super::memo::{Follow, Memo, PaySets, Payers, PayersOf, ReadSets, Scratch, TableIndexes};
use super::names::Table;
use super::printer::{write_number, Printer};
use super::scan::{
    field_raw, label_len, literal_at, number_start, scan_integer, scan_number, skip_blanks, takes_expression,
    Unfit,
};
use super::solve::note_spelling;
use super::tree::{Arm, Expr, Item, Num, Show, Slot, Syntax};
use crate::expr::Value;
use crate::format::Format;
use alloc::string::String;
use alloc::vec::Vec;

/// What the parser needs from its surroundings.
pub struct Context<'a> {
    /// Address of the instruction being parsed.
    pub pc: u64,
    /// Resolves a label to its address.
    pub labels: &'a dyn Fn(&str) -> Option<u64>,
    /// Match literals and names without regard to ASCII case.
    pub ignore_case: bool,
    /// Reads an expression at the start of the text (a dialect with directives: symbols
    /// replaced, label references and arithmetic left): its value and length. Tried where a
    /// number goes, after a plain number.
    pub expression: Option<&'a dyn Fn(&str) -> crate::expr::Reading>,
}

#[derive(Clone, Default)]
pub(super) struct State {
    pub(super) vals: Vec<Option<u64>>,
    /// The fields `vals` has been given, in order, so a reading that fails can be undone
    /// ([`State::undo`]) rather than tried on a copy.
    pub(super) assigned: Vec<Slot>,
    pub(super) deferred: Vec<(&'static Expr, bool, Frame)>,
    /// For each of `deferred`, the fields it reads ([`slot_bits`]): only those an assignment
    /// can decide. None once it holds: fields keep their values, so it holds for good.
    pub(super) reads: Vec<u64>,
    /// (index in `reads`, what it was) for each entry cleared, so undoing can restore it.
    pub(super) settled: Vec<(usize, u64)>,
    /// Whether an assignment has made a deferred condition false: every later one then
    /// fails too, as it would if all of them were checked each time.
    pub(super) violated: bool,
    /// Fields whose value the text has spelled out (non-empty) somewhere.
    pub(super) shown: Vec<Slot>,
    /// Fields read through an empty alias (a spelling the printer would not leave empty): their
    /// value must be spelled out at another place of the line.
    pub(super) owed: Vec<Slot>,
}

/// A copy of a call's parameter bindings, kept with a deferred condition: inline when short,
/// so deferring allocates nothing.
#[derive(Clone)]
pub(super) enum Frame {
    Few(u8, [Bound; 6]),
    Many(Vec<Bound>),
}

impl Frame {
    pub(super) fn new(frame: &[Bound]) -> Self {
        let mut few = [Bound::Const(0); 6];
        match few.get_mut(..frame.len()) {
            Some(head) => {
                head.copy_from_slice(frame);
                Frame::Few(frame.len() as u8, few)
            }
            None => Frame::Many(frame.to_vec()),
        }
    }
}

impl core::ops::Deref for Frame {
    type Target = [Bound];

    fn deref(&self) -> &[Bound] {
        match self {
            Frame::Few(n, few) => &few[..*n as usize],
            Frame::Many(many) => many,
        }
    }
}

/// How far a [`State`] had got, to go back there when a reading fails.
pub(super) struct Mark {
    assigned: usize,
    deferred: usize,
    settled: usize,
    shown: usize,
    violated: bool,
    /// `owed` loses entries as well as gaining them; it is short and mostly empty, so it is
    /// copied inline (a mark allocates nothing).
    owed: Owed,
}

/// A copy of [`State::owed`]: inline when short.
enum Owed {
    Few(u8, [Slot; 6]),
    Many(Vec<Slot>),
}

impl Owed {
    fn new(owed: &[Slot]) -> Self {
        let mut few = [0; 6];
        match few.get_mut(..owed.len()) {
            Some(head) => {
                head.copy_from_slice(owed);
                Owed::Few(owed.len() as u8, few)
            }
            None => Owed::Many(owed.to_vec()),
        }
    }

    fn as_slice(&self) -> &[Slot] {
        match self {
            Owed::Few(n, few) => &few[..*n as usize],
            Owed::Many(many) => many,
        }
    }
}

impl State {
    pub(super) fn mark(&self) -> Mark {
        Mark {
            assigned: self.assigned.len(),
            deferred: self.deferred.len(),
            settled: self.settled.len(),
            shown: self.shown.len(),
            violated: self.violated,
            owed: Owed::new(&self.owed),
        }
    }

    /// Forgets everything learnt since `m`. Fields are only ever assigned once and the other
    /// lists only grow (but `owed`), so this is the state at `m` exactly.
    pub(super) fn undo(&mut self, m: &Mark) {
        for s in self.assigned.drain(m.assigned..) {
            self.vals[s as usize] = None;
        }
        self.deferred.truncate(m.deferred);
        self.reads.truncate(m.deferred);
        // Latest first, so each entry gets back what it had at `m`.
        while self.settled.len() > m.settled {
            if let Some((k, reads)) = self.settled.pop().filter(|(k, _)| *k < self.reads.len()) {
                self.reads[k] = reads;
            }
        }
        self.shown.truncate(m.shown);
        self.violated = m.violated;
        let owed = m.owed.as_slice();
        if self.owed != owed {
            self.owed.clear();
            self.owed.extend_from_slice(owed);
        }
    }
}

pub(super) type K<'k> = &'k mut dyn FnMut(&mut Parser, usize, &mut State) -> bool;

/// What [`Parser::ends`] is asked: (item list's address, index in it, position in the text).
pub(super) type EndsKey = (usize, u32, u32);

pub(super) struct Parser<'t> {
    pub(super) format: &'t Format,
    pub(super) text: &'t str,
    pub(super) ctx: &'t Context<'t>,
    furthest: usize,
    expected: Vec<Want>,
    pub(super) result: Option<Vec<u64>>,
    budget: u32,
    /// [`Parser::ends`]' answers: end positions.
    pub(super) memo: Memo<usize>,
    /// [`Parser::starts`]' answers, each as the range `a..a` of its [`Start`] number `a`.
    pub(super) starts: Memo<()>,
    /// The name tables met so far, indexed (static: kept from one parse to the next).
    pub(super) tables: TableIndexes,
    /// What the search reads after the item at hand, innermost last: the rest of each
    /// enclosing item list (from an index), or `None` where that is not known (inside a group
    /// read in any order). Below the first entry is the end of the line. Each entry has a
    /// number of its own ([`Parser::entries`]) that names it with every entry below it.
    pub(super) follow: Vec<Follow>,
    /// How many entries `follow` has been given in this parse: the next entry's number.
    entries: u32,
    /// [`Parser::follow_reaches`]' answers by (the number of the follow entry on top, position),
    /// each as the range `a..a` of the answer as a number.
    pub(super) reach: Memo<()>,
    /// For each entry of `follow`, the fields whose value it and the entries below it may spell
    /// out through a name table (bit `s % 64` for field `s`; all bits where not known): a
    /// value owed ([`note_spelling`]) that no entry can spell out ends the reading at once.
    pays: Vec<u64>,
    /// What each item list may spell out ([`PaySets`]).
    pay_sets: PaySets,
    /// Whether the search skips, unsolved, arms, optional groups and names after which the
    /// line cannot be read to its end whatever the guards ([`Parser::viable`]); off when a
    /// failure is described, so that the search still names what each of them expected.
    pub(super) prune: bool,
    /// [`Parser::spellings`]' answers: (length, value) of each spelling a table has at a
    /// position, read once however often the search comes back there.
    pub(super) spellings: Memo<(usize, u64)>,
    /// End positions being collected by the [`Parser::ends`] calls in progress (each call's
    /// own above those of its callers).
    pub(super) collecting: Vec<usize>,
    /// Start positions of the rest of an item list, likewise stacked.
    pub(super) mids: Vec<usize>,
    /// What deferred conditions read.
    pub(super) reads: ReadSets,
    /// While reading the text, choices are deferred to [`Parser::resolve`].
    pub(super) lazy: bool,
    /// Whether text may follow what the syntax reads ([`parse_prefix`]).
    pub(super) prefix: bool,
    /// Where the accepted reading ended.
    pub(super) end: usize,
    /// During a speculative search ([`read`]): the syntax and start that recognition checks
    /// when the small budget runs out.
    recognize: Option<(&'static Syntax, usize)>,
    /// The syntax being read.
    root: &'static Syntax,
    /// The name tables that can spell out each field of the syntax ([`Payers`]), taken from
    /// `payers_of` when a value is first owed.
    payers: Option<Payers>,
    payers_of: PayersOf,
}

/// Parses `text` (one instruction, without label or comment) with `syntax`, returning every
/// field's raw value.
pub fn parse(
    format: &Format,
    syntax: &'static Syntax,
    text: &str,
    ctx: &Context,
) -> Result<Vec<u64>, Failure> {
    parse_text(format, syntax, text, ctx, false).map(|(values, _)| values)
}

/// [`parse`] when only success matters: a failure is not described (the assembler tries
/// formats in turn and describes failures only when none reads the line).
pub fn parses(format: &Format, syntax: &'static Syntax, text: &str, ctx: &Context) -> Option<Vec<u64>> {
    parses_in(&mut Scratch::default(), format, syntax, text, ctx)
}

/// [`parses`] working in `scratch`, which it leaves for the next parse: reading many lines
/// then allocates its tables once.
pub fn parses_in(
    scratch: &mut Scratch,
    format: &Format,
    syntax: &'static Syntax,
    text: &str,
    ctx: &Context,
) -> Option<Vec<u64>> {
    read(format, syntax, text, ctx, false, false, scratch).ok().map(|(values, _)| values)
}

/// Parses the start of `text` with `syntax` (a scheduling slot before an instruction),
/// returning every field's raw value and where the slot's text ends.
pub fn parse_prefix(
    format: &Format,
    syntax: &'static Syntax,
    text: &str,
    ctx: &Context,
) -> Result<(Vec<u64>, usize), Failure> {
    parse_text(format, syntax, text, ctx, true)
}

/// [`parse_prefix`] when only success matters, working in `scratch` ([`parses_in`]): the same
/// values and end when it reads the text, `None` where [`parse_prefix`] fails.
pub fn parse_prefix_in(
    scratch: &mut Scratch,
    format: &Format,
    syntax: &'static Syntax,
    text: &str,
    ctx: &Context,
) -> Option<(Vec<u64>, usize)> {
    read(format, syntax, text, ctx, true, false, scratch).ok()
}

fn parse_text(
    format: &Format,
    syntax: &'static Syntax,
    text: &str,
    ctx: &Context,
    prefix: bool,
) -> Result<(Vec<u64>, usize), Failure> {
    read(format, syntax, text, ctx, prefix, true, &mut Scratch::default())
        .map_err(|f| f.unwrap_or(Failure { pos: 0, expected: Vec::new() }))
}

/// How many steps (item lists entered) a search may take before it gives up.
const SEARCH_BUDGET: u32 = 2_000_000;

/// How many steps a search for a text's values only may take before recognition is run
/// first ([`read`]).
const SPECULATIVE_BUDGET: u32 = 4_000;

impl<'t> Parser<'t> {
    /// A search of `text` from `root` that works in `scratch`'s memory (lent: the lists are
    /// taken, and [`read`] gives them back emptied).
    fn lent(
        format: &'t Format,
        root: &'static Syntax,
        text: &'t str,
        ctx: &'t Context<'t>,
        prefix: bool,
        prune: bool,
        scratch: &mut Scratch,
    ) -> Self {
        use core::mem::take;
        Parser {
            format,
            text,
            ctx,
            furthest: 0,
            expected: Vec::new(),
            result: None,
            budget: SEARCH_BUDGET,
            memo: take(&mut scratch.memo),
            follow: take(&mut scratch.follow),
            entries: 0,
            reach: take(&mut scratch.reach),
            pays: take(&mut scratch.pays),
            pay_sets: take(&mut scratch.pay_sets),
            starts: take(&mut scratch.starts),
            tables: take(&mut scratch.tables),
            prune,
            spellings: take(&mut scratch.spellings),
            collecting: take(&mut scratch.collecting),
            mids: take(&mut scratch.mids),
            reads: take(&mut scratch.reads),
            lazy: true,
            prefix,
            end: 0,
            recognize: None,
            root,
            payers: None,
            payers_of: take(&mut scratch.payers_of),
        }
    }
}

/// Reads `text`: the values and where the reading ended, or, when `describe`, why not.
fn read(
    format: &Format,
    syntax: &'static Syntax,
    text: &str,
    ctx: &Context,
    prefix: bool,
    describe: bool,
    scratch: &mut Scratch,
) -> Result<(Vec<u64>, usize), Option<Failure>> {
    let mut p = Parser::lent(format, syntax, text, ctx, prefix, !describe, scratch);
    // Every field unknown but the fixed ones; the lists of the last parse emptied, not freed.
    let fresh = |mut st: State| {
        st.vals.clear();
        st.vals.extend(format.fields.iter().map(|f| f.fixed));
        st.assigned.clear();
        st.deferred.clear();
        st.reads.clear();
        st.settled.clear();
        st.violated = false;
        st.shown.clear();
        st.owed.clear();
        st
    };
    let mut st = fresh(core::mem::take(&mut scratch.state));
    // A table's spellings at a position depend on the text alone: those found for the same
    // text (another format of the same statement) are kept.
    let mut spelled = core::mem::take(&mut scratch.spelled);
    if spelled.0 != text || spelled.1 != ctx.ignore_case {
        p.spellings.clear();
        spelled.0.clear();
        spelled.0.push_str(text);
        spelled.1 = ctx.ignore_case;
    }
    let start = skip_blanks(text, 0);
    // When only success matters, the search runs with a small budget first: a text it reads
    // needs no recognition (which accepts a superset), and one it rejects within the budget is
    // rejected. When the small budget runs out, recognition is asked there ([`Parser::step`]):
    // text no reading matches whatever the fields ends the search, other text goes on with
    // the rest of the full budget, where it is (the search below, after recognition, is the
    // same search step for step, so going on gives what starting it again would).
    let result = if !describe {
        p.budget = SPECULATIVE_BUDGET;
        p.recognize = Some((syntax, start));
        p.syntax(syntax, &[], start, &mut st, &mut |p, pos, st| p.finish(pos, st));
        p.result.take().map(|v| (v, p.end)).ok_or(None)
    } else if !p.recognizes(syntax, start) {
        // Text that no reading of the syntax matches, whatever the fields, fails here quickly;
        // the search would try every way to satisfy the guards before giving up.
        Err(Some(p.failure()))
    } else {
        p.furthest = 0;
        p.expected.clear();
        p.syntax(syntax, &[], start, &mut st, &mut |p, pos, st| p.finish(pos, st));
        p.result.take().map(|v| (v, p.end)).ok_or_else(|| Some(p.failure()))
    };
    p.memo.clear();
    p.starts.clear();
    p.reach.clear();
    p.follow.clear();
    p.pays.clear();
    p.collecting.clear();
    p.mids.clear();
    *scratch = Scratch {
        memo: p.memo,
        follow: p.follow,
        reach: p.reach,
        pays: p.pays,
        pay_sets: p.pay_sets,
        starts: p.starts,
        tables: p.tables,
        payers_of: {
            let mut of = p.payers_of;
            if let Some(payers) = p.payers {
                of.give_back(format, syntax, payers);
            }
            of
        },
        spellings: p.spellings,
        spelled,
        collecting: p.collecting,
        mids: p.mids,
        reads: p.reads,
        state: st,
        quick: core::mem::take(&mut scratch.quick),
        fast: core::mem::take(&mut scratch.fast),
        spare: core::mem::take(&mut scratch.spare),
        packings: core::mem::take(&mut scratch.packings),
    };
    result
}

/// Whether the search, having read all of `text` to `end` with the fields `vals` (those in
/// `assigned` given by the reading, the others fixed) and the conditions `checks` left for
/// after the text (each with its frame in `frames`), settles that reading: its [`finish`](Parser::finish)
/// (equalities carried over, choices made, defaults filled in and every condition checked)
/// run on that state. The quick reader asks it of a reading whose conditions fail on the
/// defaults: where the search's own settling fails, the search goes on to its next reading,
/// and so does the walk. `reads` is the search's [`ReadSets`], lent.
#[allow(clippy::too_many_arguments)]
pub(super) fn settles(
    format: &Format,
    root: &'static Syntax,
    text: &str,
    ctx: &Context,
    vals: &[Option<u64>],
    assigned: &[Slot],
    checks: &[(&'static Expr, bool, u32, u32)],
    frames: &[Bound],
    end: usize,
    reads: &mut ReadSets,
) -> bool {
    let mut scratch = Scratch { reads: core::mem::take(reads), ..Scratch::default() };
    let mut p = Parser::lent(format, root, text, ctx, false, true, &mut scratch);
    let mut st = State { vals: vals.to_vec(), assigned: assigned.to_vec(), ..State::default() };
    for &(e, want, at, len) in checks {
        let frame = &frames[at as usize..(at + len) as usize];
        let again = st.deferred.iter().any(|(x, w, f)| core::ptr::eq(*x, e) && *w == want && f[..] == *frame);
        if !again {
            st.deferred.push((e, want, Frame::new(frame)));
            let bits = p.reads.bits(e, frame);
            st.reads.push(bits);
        }
    }
    let ok = p.finish(end, &mut st);
    *reads = p.reads;
    ok
}

impl Parser<'_> {
    /// Takes a step of the budget; false once it has run out. A speculative search ([`read`])
    /// whose small budget runs out asks recognition once: when some reading of the syntax
    /// matches the text (guards ignored), it goes on with the rest of the full budget; else it
    /// ends, as the search would after trying every way to satisfy the guards.
    fn step(&mut self) -> bool {
        if self.budget == 0 {
            match self.recognize.take() {
                Some((syntax, start)) if self.recognizes(syntax, start) => {
                    self.budget = SEARCH_BUDGET - SPECULATIVE_BUDGET;
                }
                _ => return false,
            }
        }
        self.budget -= 1;
        true
    }

    pub(super) fn fail(&mut self, pos: usize, what: &'static str) -> bool {
        self.fail_with(pos, Want::Kind(what))
    }

    /// Fails at `pos` where any spelling of `tables` would have been read.
    pub(super) fn fail_table(&mut self, pos: usize, tables: &[&'static Table]) -> bool {
        for t in tables {
            self.fail_with(pos, Want::Table(t));
        }
        false
    }

    pub(super) fn fail_with(&mut self, pos: usize, what: Want) -> bool {
        if pos > self.furthest {
            self.furthest = pos;
            self.expected.clear();
        }
        if pos == self.furthest {
            self.expected.push(what);
        }
        false
    }

    /// The failure the furthest reading met, in words.
    fn failure(&self) -> Failure {
        let mut expected = Vec::new();
        for w in &self.expected {
            w.expand(&mut expected);
        }
        Failure { pos: self.furthest, expected }
    }

    fn syntax(&mut self, syntax: &'static Syntax, frame: &[Bound], pos: usize, st: &mut State, k: K) -> bool {
        // Arms whose guard the defaults of still-unknown fields satisfy go first, so text that
        // does not mention a field leaves it at its default.
        // (Every failed arm is undone, so the state is the same for each arm here.)
        let fits = |p: &Self, arm: &Arm, st: &State| {
            arm.guard.is_none_or(|g| eval_in(g, frame, &p.defaulted(st), p.ctx.pc).unwrap_or(1) != 0)
        };
        // Arms after which the line cannot be read are left out before their guards are
        // looked at.
        let (mut fitting, mut open) = (0u128, 0u128);
        for (index, arm) in syntax.arms.iter().enumerate().take(128) {
            if !self.prune || self.viable(arm.items, 0, pos) && self.reaches_end(arm.items, 0, pos) {
                open |= 1 << index;
                fitting |= u128::from(fits(self, arm, st)) << index;
            }
        }
        for first in [true, false] {
            for (index, arm) in syntax.arms.iter().enumerate() {
                let (open, fit) = match index < 128 {
                    true => (open >> index & 1 == 1, fitting >> index & 1 == 1),
                    false => (
                        !self.prune || self.viable(arm.items, 0, pos) && self.reaches_end(arm.items, 0, pos),
                        fits(self, arm, st),
                    ),
                };
                if !open || fit != first {
                    continue;
                }
                let mark = st.mark();
                let items = arm.items;
                let guard = arm.guard;
                // The printer takes the first arm whose guard holds, so choosing this arm also
                // means every earlier guard is false; an alias is read on its own guard.
                let earlier = if arm.alias { &[] } else { &syntax.arms[..index] };
                let ok = self.require_no_guard(earlier, frame, pos, st, &mut |p, pos, st| match guard {
                    None => p.items(items, 0, frame, pos, st, &mut *k),
                    Some(g) => p.require(g, true, frame, pos, st, &mut |p, pos, st| {
                        p.items(items, 0, frame, pos, st, &mut *k)
                    }),
                });
                if ok {
                    return true;
                }
                st.undo(&mark);
            }
        }
        false
    }

    /// Makes the guard of every arm in `arms` false, then continues with `k`.
    fn require_no_guard(
        &mut self,
        arms: &'static [Arm],
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        match arms.split_first() {
            None => k(self, pos, st),
            // The printer never takes an alias, so its guard says nothing about what it chose.
            Some((Arm { guard: None, .. } | Arm { alias: true, .. }, rest)) => {
                self.require_no_guard(rest, frame, pos, st, k)
            }
            Some((Arm { guard: Some(x), .. }, rest)) => {
                self.require(x, false, frame, pos, st, &mut |p, pos, st| {
                    p.require_no_guard(rest, frame, pos, st, &mut *k)
                })
            }
        }
    }

    /// Makes every condition in `xs` false, then continues with `k`.
    fn require_none(
        &mut self,
        xs: &[&'static Expr],
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        match xs.split_first() {
            None => k(self, pos, st),
            Some((x, rest)) => self.require(x, false, frame, pos, st, &mut |p, pos, st| {
                p.require_none(rest, frame, pos, st, &mut *k)
            }),
        }
    }

    fn items(
        &mut self,
        items: &'static [Item],
        i: usize,
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        if !self.step() {
            return false;
        }
        let Some(item) = items.get(i) else {
            return k(self, pos, st);
        };
        // What follows the item is the rest of the list, then what followed the list.
        self.entries += 1;
        self.follow.push((Some((items, i + 1)), self.entries));
        let pays = self.pays.last().copied().unwrap_or(0) | self.pay_sets.mask(items, i + 1, frame);
        self.pays.push(pays);
        let ok = self.item(item, items, i, frame, pos, st, k);
        self.follow.pop();
        self.pays.pop();
        ok
    }

    /// Reads `item`, `items[i]`, then the rest of `items` and `k` ([`Parser::items`]).
    #[allow(clippy::too_many_arguments)]
    fn item(
        &mut self,
        item: &'static Item,
        items: &'static [Item],
        i: usize,
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        // Reading the rest, its entry of `follow` is no longer to come: taken off meanwhile.
        let mut rest = |p: &mut Parser, pos: usize, st: &mut State| {
            let next = p.follow.pop();
            let pays = p.pays.pop();
            let ok = p.items(items, i + 1, frame, pos, st, &mut *k);
            p.follow.extend(next);
            p.pays.extend(pays);
            ok
        };
        match item {
            Item::Lit(s) => match self.literal(s, pos) {
                Some(end) => rest(self, end, st),
                None => self.fail_with(skip_blanks(self.text, pos), Want::Lit(s)),
            },
            Item::Show(e @ (Expr::Arith(..) | Expr::If(..)), show) => {
                // A computed value (`r4_r5`'s `{n + 1}`) echoes fields the line gave before it:
                // the text must be what the printer writes for them.
                let Some(v) = eval(e, frame, &st.vals, self.ctx.pc) else {
                    return self.fail(pos, "a value that follows from the operands before it");
                };
                let mut printer = Printer { vals: &st.vals, pc: self.ctx.pc, complete: true, shown: None };
                let mut echo = String::new();
                if printer.show(v as u64, show, frame, &mut echo).is_err() || !printer.complete {
                    return self.fail(pos, "a value the dialect can show");
                }
                match self.literal(&echo, pos) {
                    Some(end) => rest(self, end, st),
                    None => self.fail(skip_blanks(self.text, pos), "the value the operands before it give"),
                }
            }
            Item::Show(e, show) => {
                let b = bind(e, frame);
                if let Bound::Slot(s) | Bound::NotSlot(s) = b {
                    if print_only(self.format, s) {
                        return self.fail(pos, "text this dialect only prints");
                    }
                }
                self.show(b, show, frame, pos, st, &mut rest)
            }
            Item::Call(sub, args) => {
                let mut few = [Bound::Const(0); 8];
                let many: Vec<Bound>;
                let inner = if args.len() <= few.len() {
                    for (b, a) in few.iter_mut().zip(args.iter()) {
                        *b = bind(a, frame);
                    }
                    &few[..args.len()]
                } else {
                    many = args.iter().map(|a| bind(a, frame)).collect();
                    &many
                };
                self.syntax(sub, inner, pos, st, &mut rest)
            }
            Item::Opt(cond, body) => {
                // Presence first, unless the defaults of unknown fields make the condition
                // false: then absence first, so unmentioned fields keep their defaults.
                let body: &'static [Item] = body;
                let absent_first =
                    eval_in(cond, frame, &self.defaulted(st), self.ctx.pc).is_some_and(|v| v == 0);
                let mut as_written = None;
                let depth = self.follow.len();
                let (can_be, can_not) = match self.prune {
                    true => (
                        self.viable(body, 0, pos) && self.reaches_end(body, 0, pos),
                        self.completes(depth, pos) && self.follow_reaches(depth, pos),
                    ),
                    false => (true, true),
                };
                for present in [!absent_first, absent_first] {
                    if !(if present { can_be } else { can_not }) {
                        continue;
                    }
                    let mark = st.mark();
                    let ok =
                        if present && *as_written.get_or_insert_with(|| self_describing(cond, body, frame)) {
                            self.items(body, 0, frame, pos, st, &mut rest)
                        } else if present {
                            self.require(cond, true, frame, pos, st, &mut |p, pos, st| {
                                p.items(body, 0, frame, pos, st, &mut rest)
                            })
                        } else {
                            self.require(cond, false, frame, pos, st, &mut rest)
                        };
                    if ok {
                        return true;
                    }
                    st.undo(&mark);
                }
                false
            }
            Item::AnyOrder(sep, groups) => self.any_order(sep, groups, 0, frame, pos, st, &mut rest),
        }
    }

    /// Reads the groups of an [`Item::AnyOrder`] not in `used` (a bit per group) in any order:
    /// at `pos`, each unused group that is present there (after the separator `sep` once a group
    /// was read), then the rest; once none is, every unused group is absent.
    #[allow(clippy::too_many_arguments)]
    fn any_order(
        &mut self,
        sep: &'static str,
        groups: &'static [Item],
        used: u64,
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        if !self.step() {
            return false;
        }
        // Where the next group starts: after the separator, unless it is the first.
        let start = match used {
            0 => Some(pos),
            _ if sep.is_empty() => Some(pos),
            _ => self.literal(sep, pos),
        };
        let unused = groups.iter().enumerate().filter(|(n, _)| *n < 64 && used & (1 << n) == 0);
        for (n, g) in unused.filter(|_| start.is_some()) {
            let (Item::Opt(cond, body), Some(start)) = (g, start) else { continue };
            // Only a group whose text starts here can be present here.
            if self.ends(body, 0, start).all(|k| self.memo.items[k] == start) {
                continue;
            }
            let body: &'static [Item] = body;
            let mark = st.mark();
            let mut present = |p: &mut Parser, _: usize, st: &mut State| {
                // After the group another may come: what follows it is not known.
                p.entries += 1;
                p.follow.push((None, p.entries));
                p.pays.push(u64::MAX);
                let ok = p.items(body, 0, frame, start, st, &mut |p, after, st| {
                    let unknown = p.follow.pop();
                    let pays = p.pays.pop();
                    let ok =
                        after > start && p.any_order(sep, groups, used | (1 << n), frame, after, st, &mut *k);
                    p.follow.extend(unknown);
                    p.pays.extend(pays);
                    ok
                });
                p.follow.pop();
                p.pays.pop();
                ok
            };
            let ok = if self_describing(cond, body, frame) {
                present(self, pos, st)
            } else {
                self.require(cond, true, frame, pos, st, &mut |p, pos, st| present(p, pos, st))
            };
            if ok {
                return true;
            }
            st.undo(&mark);
        }
        let absent: Vec<&'static Expr> = groups
            .iter()
            .enumerate()
            .filter(|(n, _)| *n >= 64 || used & (1 << n) == 0)
            .filter_map(|(_, g)| if let Item::Opt(c, _) = g { Some(*c) } else { None })
            .collect();
        self.require_none(&absent, frame, pos, st, k)
    }

    /// Whether every value owed ([`note_spelling`]) may still be spelled out by what follows
    /// ([`Parser::pays`]): where one cannot, the reading fails at its end whatever it reads
    /// in between, so it is not read on when only success matters.
    fn payable(&mut self, st: &State, pos: usize) -> bool {
        if !self.prune || st.owed.is_empty() {
            return true;
        }
        let pays = self.pays.last().copied().unwrap_or(0);
        if !st.owed.iter().all(|s| pays & (1 << (s % 64)) != 0) {
            return false;
        }
        // A name that spells the value out must be in the rest of the text.
        if self.payers.is_none() {
            self.payers = Some(self.payers_of.take(self.format, self.root));
        }
        let Some(payers) = &self.payers else { return true };
        let rest = self.text.get(pos..).unwrap_or_default();
        st.owed.iter().all(|&s| payers.may_spell(s, st.vals[s as usize], rest, self.ctx.ignore_case))
    }

    /// Matches literal `s` at `pos`; returns the end. Blanks before punctuation, inside the
    /// literal where it has spaces, and before its separators (`,` `;`) are skipped.
    pub(super) fn literal(&self, s: &str, pos: usize) -> Option<usize> {
        literal_at(self.text, s, pos, self.ctx.ignore_case)
    }

    fn show(
        &mut self,
        b: Bound,
        show: &'static Show,
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        match show {
            Show::Table(t) => self.table(t, b, pos, st, k),
            Show::TableIf(c, a, e) => {
                // A name both tables give the same value leaves the condition free (a register
                // valid in either file says nothing of the file); a name only one table has
                // makes the condition true or false.
                let (in_a, _) = self.spellings(a, pos);
                let (in_e, _) = self.spellings(e, pos);
                let (in_a, in_e) = (&self.spellings.items[in_a], &self.spellings.items[in_e]);
                // On the stack unless the names are many: reading a name allocates nothing.
                let mut few = [(0usize, 0u64, None::<bool>); 16];
                let mut many = Vec::new();
                let room = in_a.len() + in_e.len();
                let cands = match few.get_mut(..room) {
                    Some(few) => few,
                    None => {
                        many.resize(room, (0, 0, None));
                        &mut many[..]
                    }
                };
                let mut n = 0;
                for &(len, v) in in_a {
                    let want = if in_e.contains(&(len, v)) { None } else { Some(true) };
                    cands[n] = (len, v, want);
                    n += 1;
                }
                for &(len, v) in in_e {
                    if !in_a.contains(&(len, v)) {
                        cands[n] = (len, v, Some(false));
                        n += 1;
                    }
                }
                let cands = &mut cands[..n];
                cands.sort_by_key(|c| core::cmp::Reverse(c.0));
                for &(len, v, want) in cands.iter() {
                    let mark = st.mark();
                    if !self.assign(b, v, st) {
                        st.undo(&mark);
                        continue;
                    }
                    note_spelling(b, if want == Some(false) { e } else { a }, len, v, st);
                    if !self.payable(st, pos + len) {
                        st.undo(&mark);
                        continue;
                    }
                    let ok = match want {
                        None => k(self, pos + len, st),
                        Some(w) => self.require(c, w, frame, pos + len, st, &mut *k),
                    };
                    if ok {
                        return true;
                    }
                    st.undo(&mark);
                }
                self.fail_table(pos, &[a, e])
            }
            Show::Num(n) => self.number(*n, b, frame, pos, st, k),
        }
    }

    fn table(&mut self, t: &'static Table, b: Bound, pos: usize, st: &mut State, k: K) -> bool {
        let (_, longest_first) = self.spellings(t, pos);
        let depth = self.follow.len();
        for i in longest_first {
            let (len, v) = self.spellings.items[i];
            if self.prune && !(self.completes(depth, pos + len) && self.follow_reaches(depth, pos + len)) {
                continue;
            }
            let mark = st.mark();
            if self.assign(b, v, st) {
                note_spelling(b, t, len, v, st);
                if self.payable(st, pos + len) && k(self, pos + len, st) {
                    return true;
                }
            }
            st.undo(&mark);
        }
        self.fail_table(pos, &[t])
    }

    fn number(&mut self, n: Num, b: Bound, frame: &[Bound], pos: usize, st: &mut State, k: K) -> bool {
        let (width, signed, allowed) = match b {
            Bound::Slot(s) | Bound::NotSlot(s) => {
                let f = &self.format.fields[s as usize];
                (crate::bits::width(f.pieces), f.signed, f.allowed)
            }
            Bound::Const(_) => (64, false, &[][..]),
        };
        let start = number_start(self.text, pos);
        let rest = &self.text[start..];
        // A value the line has already given may be shown again in a lossy style (Mesa's
        // `0x00000001 (0.000000)`): there the text is an echo, read as what the printer writes
        // for that value, so it agrees with the value rather than setting it.
        if let Some(echo) = self.echo(n, b, st) {
            let ends_here =
                !rest.as_bytes().get(echo.len()).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'.');
            if rest.starts_with(echo.as_str()) && ends_here && k(self, start + echo.len(), st) {
                return true;
            }
        }
        // The plain number first, then an expression ending elsewhere (`4 * 8`, `:loop`).
        let mut readings: [Option<(i128, usize)>; 2] = [None; 2];
        let plain = match n {
            Num::Label { base, .. } | Num::Target { base, .. } => match scan_integer(rest) {
                Some((x, len)) if matches!(n, Num::Target { .. }) => {
                    eval(base, frame, &st.vals, self.ctx.pc).map(|base| (x - base as i128, len))
                }
                Some(x) => Some(x),
                None => {
                    let len = label_len(rest);
                    let label = &rest[..len];
                    let addr = if len > 0 { (self.ctx.labels)(label) } else { None };
                    match (addr, eval(base, frame, &st.vals, self.ctx.pc)) {
                        (Some(a), Some(base)) => Some((a as i128 - base as i128, len)),
                        _ => None,
                    }
                }
            },
            _ => scan_number(n, width, rest),
        };
        readings[0] = plain;
        if let Some(read) = self.ctx.expression.filter(|_| takes_expression(&n)) {
            let read = match read(rest) {
                Ok(r) => Some(r),
                // A name nothing defines, where a number goes: said at the name.
                Err(e) if e.undefined => {
                    self.fail_with(start + e.pos, Want::Defined);
                    None
                }
                Err(_) => None,
            };
            if let Some((v, len)) = read.filter(|(_, len)| plain.is_none_or(|p| p.1 != *len)) {
                let value = match (n, v) {
                    // A label's address is a target: relative to the base where the field is.
                    (Num::Label { base, .. } | Num::Target { base, .. }, Value::Address(a)) => {
                        eval(base, frame, &st.vals, self.ctx.pc).map(|base| a as i128 - base as i128)
                    }
                    (Num::Target { base, .. }, Value::Int(x)) => {
                        eval(base, frame, &st.vals, self.ctx.pc).map(|base| x as i128 - base as i128)
                    }
                    (Num::Float { format, .. } | Num::Decimal { format }, Value::Float(f)) => {
                        format.read(f).map(i128::from)
                    }
                    (_, Value::Float(f)) if width == 32 => {
                        crate::number::float_literal(f, 4).ok().map(i128::from)
                    }
                    (_, Value::Float(_)) => None,
                    (_, Value::Int(x) | Value::Address(x)) => Some(i128::from(x)),
                };
                readings[1] = value.map(|v| (v, len));
            }
        }
        if readings.iter().all(Option::is_none) {
            let what = match n {
                Num::Label { .. } | Num::Target { .. } => "a number or label",
                Num::Hex { prefix: false, .. } => "hex digits",
                Num::Bin { .. } => "binary digits",
                _ => "a number",
            };
            return self.fail(pos, what);
        }
        let mut fitted = false;
        let mut within = allowed.is_empty();
        for (value, len) in readings.into_iter().flatten() {
            let raw = match field_raw(value, n, width, signed, allowed) {
                Err(Unfit::Width) => continue,
                Err(Unfit::Allowed) => {
                    fitted = true;
                    continue;
                }
                Ok(raw) => raw,
            };
            fitted = true;
            within = true;
            let len = start - pos + len;
            let mark = st.mark();
            if self.assign(b, raw, st) && k(self, pos + len, st) {
                return true;
            }
            st.undo(&mark);
        }
        if !fitted {
            return self.fail_with(pos, Want::Fits(width));
        }
        if !within {
            return self.fail_with(pos, Want::Within(allowed));
        }
        false
    }

    /// The text the printer writes for the value `b` already holds, shown in style `n`; `None`
    /// when the value is not known yet or the style depends on the instruction's address.
    fn echo(&self, n: Num, b: Bound, st: &State) -> Option<String> {
        if matches!(n, Num::Label { .. } | Num::Target { .. }) {
            return None;
        }
        let v = bound_value(b, &st.vals)? as u64;
        let mut text = String::new();
        write_number(v, n, &mut text).ok()?;
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::printer::print;
    use crate::syntax::tree::{Arm, Cmp, Expr, Item, Num, Show, Syntax};
    use alloc::vec;

    /// A guard assigns only raw values of its field, as the printer compares them: `x == -1`
    /// on a signed 4-bit field is no value of it (the printer reads 0xf as 15 and takes the
    /// other arm), so `m1` does not assemble; before, it assembled to 0xf, which prints `f -1`.
    /// An in-range constant still settles the field (`m7` is 7).
    #[test]
    fn a_guard_assigns_only_raw_values_of_its_field() {
        use crate::bits::Piece;
        static FIELDS: [crate::format::FieldInfo; 1] =
            [crate::format::FieldInfo::new("x", &[Piece { lo: 0, width: 4 }]).signed().default(None)];
        static SYNTAX: Syntax = Syntax {
            name: "f",
            arms: &[
                Arm {
                    guard: Some(&Expr::Cmp(Cmp::Eq, &Expr::Field(0), &Expr::Int(-1))),
                    items: &[Item::Lit("m1")],
                    alias: false,
                },
                Arm {
                    guard: Some(&Expr::Cmp(Cmp::Eq, &Expr::Field(0), &Expr::Int(7))),
                    items: &[Item::Lit("m7")],
                    alias: false,
                },
                Arm {
                    guard: None,
                    items: &[
                        Item::Lit("f "),
                        Item::Show(&Expr::Field(0), Show::Num(Num::Signed { bits: 4, plus: false })),
                    ],
                    alias: false,
                },
            ],
        };
        let format = Format { name: "f", fields: &FIELDS, syntax: &[] };
        let ctx = Context { pc: 0, labels: &|_| None, ignore_case: false, expression: None };
        assert_eq!(parses(&format, &SYNTAX, "m1", &ctx), None);
        assert_eq!(parses(&format, &SYNTAX, "m7", &ctx), Some(vec![7]));
        assert_eq!(parses(&format, &SYNTAX, "f -1", &ctx), Some(vec![0xf]));
        let mut text = String::new();
        assert!(print(&SYNTAX, &[0xf], 0, &mut text));
        assert_eq!(text, "f -1");
    }

    /// An `in` guard's choice is a value the field can hold: of {2..=7}, a field allowing
    /// 0..=1 and 4..=5 (an enum with holes) is settled to 4, not 2.
    #[test]
    fn an_in_guard_chooses_an_allowed_value() {
        use crate::bits::Piece;
        static FIELDS: [crate::format::FieldInfo; 1] =
            [crate::format::FieldInfo::new("size", &[Piece { lo: 0, width: 3 }])
                .default(None)
                .allowed(&[(0, 1), (4, 5)])];
        static SYNTAX: Syntax = Syntax {
            name: "st",
            arms: &[
                Arm {
                    guard: Some(&Expr::In(&Expr::Field(0), &[(0, 1)])),
                    items: &[Item::Lit("st.narrow")],
                    alias: false,
                },
                Arm {
                    guard: Some(&Expr::In(&Expr::Field(0), &[(2, 7)])),
                    items: &[Item::Lit("st.wide")],
                    alias: false,
                },
            ],
        };
        let format = Format { name: "st", fields: &FIELDS, syntax: &[] };
        let ctx = Context { pc: 0, labels: &|_| None, ignore_case: false, expression: None };
        assert_eq!(parses(&format, &SYNTAX, "st.wide", &ctx), Some(vec![4]));
        assert_eq!(parses(&format, &SYNTAX, "st.narrow", &ctx), Some(vec![0]));
    }
}
