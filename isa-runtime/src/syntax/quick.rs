//! The quick reader: reads the common line without the search's backtracking machinery,
//! walking the readings in the search's order; a line it cannot settle is left to the search.

use super::analysis::separator;
use super::eval::{
    bind, bound_value, compare, eval, in_ranges, self_describing, slot_bits, value_in, Bound, Defaulted,
};
use super::facts::{equal_pair, force, same_value, Fact};
use super::memo::{Payers, PayersOf, ReadSets, Scratch, TableIndexes};
use super::names::{prints_text, Table};
use super::printer::write_number;
use super::reading::{giving, Giving};
use super::scan::{
    field_raw, label_len, literal_at, number_start, scan_integer, scan_number, skip_blanks, takes_expression,
};
use super::search::{settles, Context};
use super::tree::{Arm, Cmp, Expr, Item, Num, Show, Slot, Syntax};
use crate::format::Format;
use alloc::string::String;
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
/// recognition prunes what the walk would enter. Since the readings its checks' facts rule out
/// end where they contradict ([`force`]), more VideoCore IV lines are read within a budget
/// (the 794 golden lines as one program, callgrind: 200 read 659 and took 237M instructions,
/// 400 read 717 in 228M, 1,000 read 720 in 230M; before the facts, 200 was the fastest).
/// Since a reading the search's own settling fails is walked past ([`settles`]), a line all of
/// whose readings fail so is decided here (`Never`): VideoCore IV's `mov r0, 5`, which vc4asm
/// reads as `ldi`, takes up to ~800 steps for the small-immediate format, where the search
/// took ~0.9M instructions (the golden program, callgrind: 400 left 45 of its statements to
/// the search, 1,000 leaves 19, 200.4k -> 185.1k instructions a line).
const QUICK_BUDGET: u32 = 1000;

/// How many item lists the walk enters before it looks for the literals of an arm or optional
/// group in the text ([`QuickReader::literals_lack`]): a text read in fewer steps (most of
/// Maxwell's lines) would pay more for looking than it saves (callgrind a line, looking from
/// the first step, the 16th, the 40th: Maxwell 17.20k, 17.01k, 16.98k; VC4 135.7k, 135.8k,
/// 140.1k).
const LITERALS_ASKED: u32 = 16;

/// A field that a check needs in (`true`) or out of (`false`) ranges ([`QuickState::ranges`]).
type InRanges = (Slot, Span, bool);

/// The values a check on one field speaks of: its ranges (`op_add in {7, 8, 23, 24}`), or the
/// one range a comparison with a constant gives (`waddr_mul < 32`).
#[derive(Clone, Copy)]
enum Span {
    Listed(&'static [(i64, i64)]),
    One(i64, i64),
}

impl Span {
    fn has(self, v: i64) -> bool {
        match self {
            Span::Listed(r) => in_ranges(r, v),
            Span::One(lo, hi) => (lo..=hi).contains(&v),
        }
    }

    /// The field and span of a check on one field: `x in {..}`, or `x` compared by order with
    /// a constant (on either side).
    fn of(e: &Expr, frame: &[Bound]) -> Option<(Slot, Span)> {
        let slot = |x: &Expr| match matches!(x, Expr::Field(_) | Expr::Param(_)).then(|| bind(x, frame)) {
            Some(Bound::Slot(s)) => Some(s),
            _ => None,
        };
        match e {
            Expr::In(x, ranges) => Some((slot(x)?, Span::Listed(ranges))),
            Expr::Cmp(op, a, b) => {
                let (x, op, c) = match (&**a, &**b) {
                    (x, Expr::Int(c)) => (x, *op, *c),
                    (Expr::Int(c), x) => (x, flipped(*op)?, *c),
                    _ => return None,
                };
                let span = match op {
                    Cmp::Lt => Span::One(i64::MIN, c.checked_sub(1)?),
                    Cmp::Le => Span::One(i64::MIN, c),
                    Cmp::Gt => Span::One(c.checked_add(1)?, i64::MAX),
                    Cmp::Ge => Span::One(c, i64::MAX),
                    Cmp::Eq | Cmp::Ne => return None,
                };
                Some((slot(x)?, span))
            }
            _ => None,
        }
    }
}

/// `op` with its operands swapped (`3 < x` is `x > 3`); `None` for `==` and `!=`, which
/// [`Span::of`] leaves to the facts ([`force`]).
fn flipped(op: Cmp) -> Option<Cmp> {
    match op {
        Cmp::Lt => Some(Cmp::Gt),
        Cmp::Le => Some(Cmp::Ge),
        Cmp::Gt => Some(Cmp::Lt),
        Cmp::Ge => Some(Cmp::Le),
        Cmp::Eq | Cmp::Ne => None,
    }
}

/// A condition the quick reader checks once a reading is complete: the condition, the truth
/// it must have, and its frame (start and length in [`QuickState::frames`]).
type Check = (&'static Expr, bool, u32, u32);

/// Working memory of the quick reader, kept in [`Scratch`] from one text to the next.
#[derive(Default)]
pub(super) struct QuickState {
    vals: Vec<Option<u64>>,
    assigned: Vec<Slot>,
    /// The fields of `assigned` (bit `s % 64` for field `s`).
    known: u64,
    /// The checks kept, each with the fields it reads ([`ReadSets::bits`]; `u64::MAX` until
    /// found).
    checks: Vec<(Check, u64)>,
    /// What the checks force on fields not known yet, given the fields known ([`force`]).
    facts: Vec<Fact>,
    /// Pairs of fields not known yet that a check makes equal (`mul_a == mul_b`).
    same: Vec<(Slot, Slot)>,
    /// Fields not known yet that a check needs in (`true`) or out of (`false`) ranges
    /// (`op_add in {7, 8, 23, 24}`): a value given against one ends the reading.
    ranges: Vec<InRanges>,
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
    /// The text `spellings` answers for, and for each (table's address, position) met in
    /// it, where its spellings are in `spelled_once` and how many (`u32::MAX`: too many).
    spelled_text: String,
    spelled_fold: bool,
    spellings: Vec<((usize, u32), u32, u32)>,
    /// `spellings` by (table's address, position): index + 1, by hash (a power of two long,
    /// at most half full; empty until the first name is read).
    spelling_slots: Vec<u32>,
    spelled_once: Vec<(usize, u64)>,
    /// For (format and syntax, field, value) owed, where the text's last name that may spell
    /// it out starts ([`Payers::last_spelling`]): for `spelled_text`.
    #[allow(clippy::type_complexity)]
    spelled_last: Vec<((usize, usize), Slot, Option<u64>, Option<usize>)>,
    /// The same by (table's address, value).
    spelled_tables: Vec<(usize, u64, Option<usize>)>,
    /// The printer's text of a value known, where a number shows it again ([`QuickReader::number`]).
    echo: String,
    /// Whether the walk keeps how far it read ([`quick_prefix_in`]).
    track: bool,
    /// Every byte of the text the walk has read is below `reach` (past the text's length:
    /// its end was seen).
    reach: usize,
    /// Where a reading of a prefix ended: the byte there was only seen to be no blank (or
    /// the text's end).
    stop: Option<usize>,
    /// The walk read something the text's bytes alone do not decide (an expression that did
    /// not read).
    untracked: bool,
    /// The answers [`quick_prefix_in`] remembers.
    prefixes: Vec<Prefix>,
    /// Which of `prefixes` the next new answer replaces.
    next_prefix: usize,
    /// By syntax address, whether a syntax reads the address ([`reads_pc`]).
    pc_read: Vec<(usize, bool)>,
    /// How arms are ordered on the defaults, by format, syntax and frame ([`Fits`]).
    fits: Fits,
    /// Names read in earlier texts, by the bytes their reading looked at ([`Words`]).
    words: Words,
    /// For `spelled_text`: the last word looked up in `words`, by position and whether its
    /// trailing blanks count ([`word_reach`]): where it reaches and its bytes' hash
    /// ([`Words::hash_bytes`]), the same for every table read there.
    word_at: Option<(usize, bool, usize, u64)>,
}

/// The spellings of tables read at the start of a word in any text: by table, case folding,
/// the bytes the reading looks at ([`word_reach`]) and whether the text ended among them, the
/// (length, value) pairs [`QuickReader::spellings`] found there (or that there were too
/// many). A name's reading looks at no other byte, so another text with those bytes has the
/// same spellings. Kept from one text to the next; forgotten when it grows past
/// [`WORDS`] keys. An open-addressed table.
#[derive(Default)]
struct Words {
    /// Index + 1 into `keys`, by hash (a power of two long, at most half full).
    slots: Vec<u32>,
    keys: Vec<WordKey>,
    bytes: Vec<u8>,
    spelled: Vec<(usize, u64)>,
}

struct WordKey {
    table: usize,
    fold: bool,
    end: bool,
    /// Where its bytes are in [`Words::bytes`], and how many.
    bytes: (u32, u32),
    /// Where its spellings are in [`Words::spelled`] and how many (`u32::MAX`: too many).
    at: u32,
    n: u32,
}

/// How many keys [`Words`] keeps before it forgets them all.
const WORDS: usize = 4096;

impl Words {
    fn hash(table: usize, fold: bool, end: bool, bytes: &[u8]) -> u64 {
        Words::hash_with(Words::hash_bytes(bytes), table, fold, end)
    }

    /// The part of [`Words::hash`] that the bytes give (the same for every table).
    fn hash_bytes(bytes: &[u8]) -> u64 {
        let k = 0x9e37_79b9_7f4a_7c15u64;
        let mut h = (bytes.len() as u64).wrapping_mul(k);
        for chunk in bytes.chunks(8) {
            h = (h ^ super::names::pack8(chunk)).wrapping_mul(k);
        }
        h
    }

    fn hash_with(bytes: u64, table: usize, fold: bool, end: bool) -> u64 {
        let h = (bytes ^ table as u64 ^ u64::from(fold) << 62 ^ u64::from(end) << 63)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^ (h >> 31)
    }

    /// The slot of a key in `slots`: where it is, or the free slot where it would go.
    fn find(&self, h: u64, table: usize, fold: bool, end: bool, bytes: &[u8]) -> (usize, Option<&WordKey>) {
        let mask = self.slots.len() - 1;
        let mut at = h as usize & mask;
        loop {
            match self.slots[at] {
                0 => return (at, None),
                i => {
                    let key = &self.keys[i as usize - 1];
                    let (b, n) = key.bytes;
                    if key.table == table
                        && key.fold == fold
                        && key.end == end
                        && self.bytes[b as usize..(b + n) as usize] == *bytes
                    {
                        return (at, Some(key));
                    }
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// The spellings kept for the key: `Some(None)` for too many, `None` for none kept.
    fn get(&self, h: u64, table: usize, fold: bool, end: bool, bytes: &[u8]) -> Option<Option<(u32, u32)>> {
        if self.slots.is_empty() {
            return None;
        }
        let key = self.find(h, table, fold, end, bytes).1?;
        Some((key.n != u32::MAX).then_some((key.at, key.n)))
    }

    /// Keeps `spelled` (`None`: too many) for the key, which is not kept yet.
    fn put(&mut self, table: usize, fold: bool, end: bool, bytes: &[u8], spelled: Option<&[(usize, u64)]>) {
        if self.keys.len() >= WORDS || self.slots.is_empty() {
            self.keys.clear();
            self.bytes.clear();
            self.spelled.clear();
            self.slots.clear();
            self.slots.resize(64, 0);
        } else if 2 * (self.keys.len() + 1) > self.slots.len() {
            let size = 2 * self.slots.len();
            self.slots.clear();
            self.slots.resize(size, 0);
            for (i, key) in self.keys.iter().enumerate() {
                let (b, n) = key.bytes;
                let bytes = &self.bytes[b as usize..(b + n) as usize];
                let mut at = Words::hash(key.table, key.fold, key.end, bytes) as usize & (size - 1);
                while self.slots[at] != 0 {
                    at = (at + 1) & (size - 1);
                }
                self.slots[at] = i as u32 + 1;
            }
        }
        let h = Words::hash(table, fold, end, bytes);
        let (slot, _) = self.find(h, table, fold, end, bytes);
        let key = WordKey {
            table,
            fold,
            end,
            bytes: (self.bytes.len() as u32, bytes.len() as u32),
            at: self.spelled.len() as u32,
            n: spelled.map_or(u32::MAX, |s| s.len() as u32),
        };
        self.bytes.extend_from_slice(bytes);
        if let Some(s) = spelled {
            self.spelled.extend_from_slice(s);
        }
        self.keys.push(key);
        self.slots[slot] = self.keys.len() as u32;
    }
}

/// For each call shape met (format, syntax, frame), the truth of each arm's guard on the
/// values with defaults where the walk has assigned none of the fields it reads (those then
/// hold what a reading starts with: the fixed values, else the defaults), found the first time
/// the shape is entered so, and what each guard reads: the arms' order ([`QuickReader::syntax`])
/// without evaluating every guard at every call; and the guards compiled for the shape, the
/// steps of entering each arm ([`Step`]). Every syntax with a guard has its shapes kept. An
/// open-addressed table.
#[derive(Default)]
struct Fits {
    /// Index + 1 into `shapes`, by hash (a power of two long, at most half full).
    table: Vec<u32>,
    shapes: Vec<FitShape>,
    /// For each shape's arms from its `at`: the fields its guard reads ([`slot_bits`]; all
    /// bits where it reads the address).
    reads: Vec<u64>,
    /// For each shape's arms from its `at`: where the steps of entering the arm (every earlier
    /// guard false, its own true: [`Step`]) are in `steps`.
    entries: Vec<(u32, u32)>,
    steps: Vec<Step>,
    parts: Vec<Part>,
    /// For each shape's arms from its `at`: where its guard's truths on the values of the
    /// fields it reads that the walk has assigned are kept in `memos` (index + 1; 0: none yet).
    memo_at: Vec<u32>,
    memos: Vec<FitMemos>,
}

/// The last truths of an arm's guard on the values with defaults where the walk has assigned
/// some of the fields it reads ([`QuickReader::fitting`]): by those fields (bit `s` for field
/// `s`) and their values ([`fit_key`]). The other fields it reads hold what a reading starts
/// with (the fixed values, else the defaults), so the truth follows from these.
#[derive(Clone, Copy, Default)]
struct FitMemos {
    keys: [(u64, u64); FIT_MEMOS],
    /// Bit `i`: the truth kept with `keys[i]`.
    fit: u8,
    /// Which entry the next truth replaces.
    next: u8,
}

/// How many truths [`FitMemos`] keeps for an arm.
const FIT_MEMOS: usize = 4;

impl FitMemos {
    fn get(&self, key: (u64, u64)) -> Option<bool> {
        (0..FIT_MEMOS).find(|&i| self.keys[i] == key).map(|i| self.fit >> i & 1 == 1)
    }

    fn put(&mut self, key: (u64, u64), fit: bool) {
        let i = usize::from(self.next) % FIT_MEMOS;
        self.keys[i] = key;
        self.fit = self.fit & !(1 << i) | u8::from(fit) << i;
        self.next = (i + 1) as u8;
    }
}

/// The bits of word `w` of a set of `n` arms (bit `i % 64` of word `i / 64` for arm `i`).
fn arm_bits(n: usize, w: usize) -> u64 {
    match n.saturating_sub(64 * w) {
        0 => 0,
        k if k >= 64 => u64::MAX,
        k => (1 << k) - 1,
    }
}

/// The fields of `mask` (bit `s` for field `s`, none empty) with their values, as one key of
/// [`FitMemos`]: up to six values below 1,024, ten bits each (`None` for more, or larger).
fn fit_key(mask: u64, vals: &[Option<u64>]) -> Option<(u64, u64)> {
    if mask.count_ones() > 6 {
        return None;
    }
    let mut packed = 0u64;
    let mut m = mask;
    while m != 0 {
        let v = vals[m.trailing_zeros() as usize]?;
        if v >= 1 << 10 {
            return None;
        }
        packed = packed << 10 | v;
        m &= m - 1;
    }
    Some((mask, packed))
}

/// What [`QuickReader::require`] does with a guard, worked out once for a call shape
/// ([`Fits`]): the negations, conjunctions and disjunctions it takes apart, the parameters
/// bound to the frame's fields, and the assignments whose value the guard gives, checked
/// against the field (its width, its allowed values) when compiled. Entering an arm is
/// then a run of these steps, not a walk of the guards' trees.
#[derive(Clone, Copy)]
enum Step {
    /// The field takes the value (one it may hold; the field no view).
    Set(Slot, u64),
    /// The requirement cannot hold.
    Fail,
    /// [`QuickReader::require`] at run time (a comparison of two fields, whose assignment
    /// depends on which is known; an assignment to a view).
    Require(&'static Expr, bool),
    /// Kept as a check ([`QuickReader::check`]); what it reads in the part at `.2` of
    /// [`Fits::parts`].
    Check(&'static Expr, bool, u32),
    /// Kept as a check that some part of a conjunction (`false`) or disjunction (`true`) come
    /// out the truth wanted, its parts from `.2` to `.3` in [`Fits::parts`]: what it forces
    /// ([`force`]) found from them.
    Some(&'static Expr, bool, u32, u32),
}

/// A part of a [`Step::Some`]: the part, and what it compares where it is a leaf
/// ([`leaf_in`](super::eval::leaf_in)), its operands bound to the frame.
#[derive(Clone, Copy)]
struct Part {
    expr: &'static Expr,
    leaf: Leaf,
    /// For the first part of a [`Step::Some`], and the part of a [`Step::Check`]: the fields
    /// the whole check reads ([`slot_bits`], as [`ReadSets::bits`] gives them).
    bits: u64,
}

#[derive(Clone, Copy)]
enum Leaf {
    Cmp(Cmp, Bound, Bound),
    Truth(Bound),
    Not(Bound),
    In(Bound, &'static [(i64, i64)]),
    /// Not a leaf: evaluated as an expression.
    Other,
}

impl Leaf {
    fn of(e: &Expr, frame: &[Bound]) -> Leaf {
        let operand =
            |x: &Expr| matches!(x, Expr::Int(_) | Expr::Field(_) | Expr::Param(_)).then(|| bind(x, frame));
        let leaf = match e {
            Expr::Cmp(op, a, b) => operand(a).zip(operand(b)).map(|(a, b)| Leaf::Cmp(*op, a, b)),
            Expr::Not(x) => operand(x).map(Leaf::Not),
            Expr::In(x, ranges) => operand(x).map(|x| Leaf::In(x, ranges)),
            _ => operand(e).map(Leaf::Truth),
        };
        leaf.unwrap_or(Leaf::Other)
    }

    /// The leaf's value on the values known, two unknown fields that `same` makes equal
    /// compared as equal ([`same_value`]); `None` for [`Leaf::Other`] too.
    #[inline(always)]
    fn value(self, vals: &[Option<u64>], same: &[(Slot, Slot)]) -> Option<i64> {
        let get = |b: Bound| bound_value(b, vals);
        match self {
            Leaf::Cmp(op @ (Cmp::Eq | Cmp::Ne), Bound::Slot(s), Bound::Slot(t))
                if !same.is_empty()
                    && vals[s as usize].is_none()
                    && vals[t as usize].is_none()
                    && same.iter().any(|&p| p == (s, t) || p == (t, s)) =>
            {
                Some((op == Cmp::Eq) as i64)
            }
            Leaf::Cmp(op, a, b) => Some(compare(op, get(a)?, get(b)?) as i64),
            Leaf::Truth(a) => get(a),
            Leaf::Not(a) => get(a).map(|v| (v == 0) as i64),
            Leaf::In(a, ranges) => get(a).map(|v| in_ranges(ranges, v) as i64),
            Leaf::Other => None,
        }
    }
}

/// The steps of requiring `e` to come out `want` in `frame` ([`Step`]), as
/// [`QuickReader::require`] takes it apart.
fn compile(
    fields: &[crate::format::FieldInfo],
    e: &'static Expr,
    want: bool,
    frame: &[Bound],
    out: &mut Vec<Step>,
    parts: &mut Vec<Part>,
) {
    let named = |x: &Expr| matches!(x, Expr::Field(_) | Expr::Param(_));
    // `assign` of a value the guard gives: what it decides before the values are known.
    let set = |b: Bound, v: u64, out: &mut Vec<Step>| match giving(fields, b, v) {
        Giving::Decided(true) => {}
        Giving::Decided(false) => out.push(Step::Fail),
        Giving::View => out.push(Step::Require(e, want)),
        Giving::Field(slot, v) => out.push(Step::Set(slot, v)),
    };
    match e {
        Expr::Not(x) => return compile(fields, x, !want, frame, out, parts),
        Expr::And(xs) if want => return xs.iter().for_each(|x| compile(fields, x, true, frame, out, parts)),
        Expr::Or(xs) if !want => return xs.iter().for_each(|x| compile(fields, x, false, frame, out, parts)),
        // Some part must come out `want`.
        Expr::And(xs) | Expr::Or(xs) => {
            let start = parts.len() as u32;
            parts.extend(xs.iter().map(|x| Part { expr: x, leaf: Leaf::of(x, frame), bits: 0 }));
            if let Some(first) = parts.get_mut(start as usize) {
                first.bits = slot_bits(e, frame);
            }
            return out.push(Step::Some(e, want, start, parts.len() as u32));
        }
        Expr::Field(_) | Expr::Param(_) => {
            let b = bind(e, frame);
            match b {
                Bound::Const(c) => {
                    if (c != 0) != want {
                        out.push(Step::Fail);
                    }
                    return;
                }
                Bound::Slot(s) | Bound::NotSlot(s) if crate::bits::width(fields[s as usize].pieces) == 1 => {
                    return set(b, want as u64, out)
                }
                _ => {}
            }
        }
        Expr::Cmp(op, a, c) if (*op == Cmp::Eq && want) || (*op == Cmp::Ne && !want) => match (&**a, &**c) {
            (x, Expr::Int(v)) | (Expr::Int(v), x) if named(x) => return set(bind(x, frame), *v as u64, out),
            (x, y) if named(x) || named(y) => return out.push(Step::Require(e, want)),
            _ => {}
        },
        _ => {}
    }
    parts.push(Part { expr: e, leaf: Leaf::Other, bits: slot_bits(e, frame) });
    out.push(Step::Check(e, want, parts.len() as u32 - 1));
}

struct FitShape {
    /// The address of the format's fields.
    format: usize,
    syntax: usize,
    frame: [Bound; FIT_FRAME],
    frame_len: u8,
    at: u32,
    /// Arms whose truth on the starting values is known, and that truth.
    known: [u64; 4],
    fit: [u64; 4],
    /// Every field a guard of its arms reads ([`Fits::reads`]); whether every guard's truth
    /// on the starting values is known; the arms without guards.
    reads: u64,
    complete: bool,
    unguarded: [u64; 4],
}

/// The longest frame whose shape [`Fits`] keeps (longer: the guards are evaluated each time).
const FIT_FRAME: usize = 8;

impl Fits {
    fn hash(format: usize, syntax: usize, frame: &[Bound]) -> u64 {
        let mut h = (format as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ syntax as u64;
        for b in frame {
            let x = match *b {
                Bound::Slot(s) => u64::from(s) | 1 << 62,
                Bound::NotSlot(s) => u64::from(s) | 2 << 62,
                Bound::Const(v) => v as u64,
            };
            h = (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        h ^ (h >> 29)
    }

    /// The shape of a call of `syntax` in `frame`, filed when first met; `None` for a frame
    /// longer than [`FIT_FRAME`].
    fn shape(
        &mut self,
        fields: &'static [crate::format::FieldInfo],
        syntax: &'static Syntax,
        frame: &[Bound],
    ) -> Option<usize> {
        if frame.len() > FIT_FRAME {
            return None;
        }
        let format = fields.as_ptr() as usize;
        let key = syntax as *const Syntax as usize;
        if self.table.is_empty() {
            self.table = alloc::vec![0; 64];
        }
        let mask = self.table.len() - 1;
        let mut at = Fits::hash(format, key, frame) as usize & mask;
        loop {
            match self.table[at] {
                0 => break,
                i => {
                    let sh = &self.shapes[i as usize - 1];
                    if sh.format == format
                        && sh.syntax == key
                        && usize::from(sh.frame_len) == frame.len()
                        && sh.frame[..frame.len()] == *frame
                    {
                        return Some(i as usize - 1);
                    }
                }
            }
            at = (at + 1) & mask;
        }
        let mut fr = [Bound::Const(0); FIT_FRAME];
        fr[..frame.len()].copy_from_slice(frame);
        let first = self.reads.len() as u32;
        self.memo_at.extend(syntax.arms.iter().take(256).map(|_| 0));
        self.reads.extend(syntax.arms.iter().take(256).map(|arm| match arm.guard {
            Some(g) if expr_reads_pc(g) => u64::MAX,
            Some(g) => slot_bits(g, frame),
            None => 0,
        }));
        // Entering arm `i`: every earlier guard of an arm that is no alias false (an alias
        // requires none), then its own true.
        for (i, arm) in syntax.arms.iter().enumerate().take(256) {
            let start = self.steps.len() as u32;
            if !arm.alias {
                for earlier in &syntax.arms[..i] {
                    if let Arm { guard: Some(g), alias: false, .. } = earlier {
                        compile(fields, g, false, frame, &mut self.steps, &mut self.parts);
                    }
                }
            }
            if let Some(g) = arm.guard {
                compile(fields, g, true, frame, &mut self.steps, &mut self.parts);
            }
            self.entries.push((start, self.steps.len() as u32));
        }
        self.shapes.push(FitShape {
            format,
            syntax: key,
            frame: fr,
            frame_len: frame.len() as u8,
            at: first,
            known: [0; 4],
            fit: [0; 4],
            reads: self.reads[first as usize..].iter().fold(0, |m, r| m | r),
            complete: false,
            unguarded: syntax.arms.iter().take(256).enumerate().fold([0; 4], |mut m, (i, arm)| {
                m[i / 64] |= u64::from(arm.guard.is_none()) << (i % 64);
                m
            }),
        });
        let index = self.shapes.len() - 1;
        self.table[at] = index as u32 + 1;
        if 2 * self.shapes.len() > self.table.len() {
            let mut table = alloc::vec![0u32; 2 * self.table.len()];
            let mask = table.len() - 1;
            for (i, sh) in self.shapes.iter().enumerate() {
                let mut at =
                    Fits::hash(sh.format, sh.syntax, &sh.frame[..usize::from(sh.frame_len)]) as usize & mask;
                while table[at] != 0 {
                    at = (at + 1) & mask;
                }
                table[at] = i as u32 + 1;
            }
            self.table = table;
        }
        Some(index)
    }
}

/// An answer of [`quick_prefix_in`] kept for the texts that start alike: the format and syntax
/// (addresses), the case folding and whether expressions were read, the bytes the walk read
/// (`whole`: the text was those bytes and ended there), where the reading ended if only the
/// blankness of the byte there was seen (and whether it was a byte), and the answer.
struct Prefix {
    format: usize,
    syntax: usize,
    fold: bool,
    expression: bool,
    read: Vec<u8>,
    whole: bool,
    stop: Option<(usize, bool)>,
    answer: Quick,
}

/// How many answers [`quick_prefix_in`] keeps.
const PREFIXES: usize = 8;

/// The slot of (table's address, position) in [`QuickState::spelling_slots`] of `len` (a power
/// of two) slots.
fn spelling_hash(key: (usize, u32), len: usize) -> usize {
    let h = (key.0 as u64 ^ u64::from(key.1) << 40).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> 32) as usize & (len - 1)
}

/// Where a word read at `pos` ends at most: the blanks there, the run of other bytes after
/// them, and the byte after that (a number's or a name's reading looks no further); with
/// `trailing`, the blanks after the run too (a name whose spelling ends in a blank).
fn word_reach(text: &str, pos: usize, trailing: bool) -> usize {
    let b = text.as_bytes();
    let mut p = skip_blanks(text, pos);
    while p < b.len() && b[p] != b' ' && b[p] != b'\t' {
        p += 1;
    }
    if trailing {
        p = skip_blanks(text, p);
    }
    p + 1
}

/// Where [`literal_at`] reading `s` at `pos` has read up to at most: it reads the same bytes
/// up to where it fails.
fn literal_reach(text: &str, s: &str, pos: usize) -> usize {
    let mut p = pos;
    let mut reach = pos;
    if s.as_bytes().first().is_some_and(|c| !c.is_ascii_alphanumeric()) {
        p = skip_blanks(text, p);
    }
    for &c in s.as_bytes() {
        if separator(c) || c == b' ' {
            p = skip_blanks(text, p);
        }
        reach = reach.max(p + 1);
        if c != b' ' {
            p += 1;
        }
    }
    reach.max(p + 1)
}

/// Whether value `v` given to field `slot` is against one of `ranges` ([`QuickState::ranges`]):
/// the check it came from is then false on the values known, as it would be at the reading's
/// end (`vc4asm_add`'s one-source arm, whose guard `op_add in {7, 8, 23, 24}` is kept as a
/// check, read as `add`).
fn out_of_ranges(ranges: &[InRanges], slot: Slot, v: u64) -> bool {
    ranges.iter().any(|&(t, span, want)| t == slot && span.has(v as i64) != want)
}

/// Whether the text from `pos` holds the bytes of the literals of `items` (their blanks left
/// out) in their order: a reading of `items` reads each literal's bytes as written, blanks
/// apart ([`literal_at`]), one literal after the other, so where the text lacks them no
/// reading exists (`"mov" ... ", 0"` on `mov r0, r2`).
fn literals_in_order(items: &[Item], text: &str, pos: usize, fold: bool) -> bool {
    let b = text.as_bytes();
    let mut p = pos;
    for item in items {
        let Item::Lit(s) = item else { continue };
        for &c in s.as_bytes() {
            if c == b' ' {
                continue;
            }
            match b[p.min(b.len())..].iter().position(|&x| x == c || (fold && x.eq_ignore_ascii_case(&c))) {
                Some(at) => p += at + 1,
                None => return false,
            }
        }
    }
    true
}

/// Whether `syntax` reads the instruction's address anywhere (a condition, a shown value, a
/// branch target's base), through the syntaxes it calls; `depth` bounds the calls followed
/// (deeper: taken to read it).
fn reads_pc(syntax: &Syntax, depth: u32) -> bool {
    use expr_reads_pc as expr;
    fn items(list: &[Item], depth: u32) -> bool {
        list.iter().any(|item| match item {
            Item::Lit(_) => false,
            Item::Show(e, show) => {
                expr(e)
                    || match show {
                        Show::Num(Num::Target { base, .. } | Num::Label { base, .. }) => expr(base),
                        Show::Num(_) | Show::Table(_) => false,
                        Show::TableIf(c, ..) => expr(c),
                    }
            }
            Item::Call(sub, args) => args.iter().any(expr) || reads_pc(sub, depth + 1),
            Item::Opt(c, body) => expr(c) || items(body, depth),
            Item::AnyOrder(_, body) => items(body, depth),
        })
    }
    depth > 16 || syntax.arms.iter().any(|a| a.guard.is_some_and(expr) || items(a.items, depth))
}

/// Whether `e` reads the instruction's address.
fn expr_reads_pc(e: &Expr) -> bool {
    match e {
        Expr::Pc => true,
        Expr::Int(_) | Expr::Field(_) | Expr::Param(_) => false,
        Expr::Not(x) | Expr::In(x, _) => expr_reads_pc(x),
        Expr::And(xs) | Expr::Or(xs) => xs.iter().any(expr_reads_pc),
        Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) => expr_reads_pc(a) || expr_reads_pc(b),
        Expr::If(c, a, b) => expr_reads_pc(c) || expr_reads_pc(a) || expr_reads_pc(b),
    }
}

/// [`quick_in`] of a prefix (a scheduling slot before its instruction), remembering its last
/// answers: a text that starts with the bytes an answer's walk read (and, where the reading
/// ended after blanks, has a byte that is no blank there, as that one had) gets the same
/// answer, for the walk reads nothing else. Not remembered: a syntax that reads the
/// instruction's address, an expression the context's reader did not read (what such
/// readings look at is not known). The answers hold for one program (an expression may read
/// its labels): [`forget_prefixes`] when another starts.
pub fn quick_prefix_in(
    scratch: &mut Scratch,
    format: &Format,
    syntax: &'static Syntax,
    text: &str,
    ctx: &Context,
) -> Quick {
    let st = &mut scratch.quick;
    let key = syntax as *const Syntax as usize;
    let pc = match st.pc_read.iter().find(|(k, _)| *k == key) {
        Some(&(_, pc)) => pc,
        None => {
            let pc = reads_pc(syntax, 0);
            st.pc_read.push((key, pc));
            pc
        }
    };
    if pc {
        return quick_in(scratch, format, syntax, text, ctx, true);
    }
    let fid = format as *const Format as usize;
    let expression = ctx.expression.is_some();
    let bytes = text.as_bytes();
    let hit = st.prefixes.iter().find(|p| {
        p.format == fid
            && p.syntax == key
            && p.fold == ctx.ignore_case
            && p.expression == expression
            && bytes.starts_with(&p.read)
            && (!p.whole || bytes.len() == p.read.len())
            && p.stop.is_none_or(|(at, byte)| match bytes.get(at) {
                Some(b) => byte && *b != b' ' && *b != b'\t',
                None => !byte,
            })
    });
    if let Some(p) = hit {
        return match &p.answer {
            Quick::Read(values, end) => Quick::Read(answer_of(&mut scratch.spare, values), *end),
            other => other.clone(),
        };
    }
    st.track = true;
    let answer = quick_in(scratch, format, syntax, text, ctx, true);
    let st = &mut scratch.quick;
    st.track = false;
    if st.untracked {
        return answer;
    }
    // Bytes, not text: the walk may have read part of a character.
    let (read, whole) = match st.reach > text.len() {
        true => (bytes, true),
        false => (&bytes[..st.reach], false),
    };
    // The byte where the reading stopped, if the bytes read do not hold it.
    let stop = st.stop.filter(|&at| at >= read.len() && !whole).map(|at| (at, at < text.len()));
    let prefix = Prefix {
        format: fid,
        syntax: key,
        fold: ctx.ignore_case,
        expression,
        read: read.to_vec(),
        whole,
        stop,
        answer: answer.clone(),
    };
    if st.prefixes.len() < PREFIXES {
        st.prefixes.push(prefix);
    } else {
        let at = st.next_prefix % PREFIXES;
        st.prefixes[at] = prefix;
        st.next_prefix = at + 1;
    }
    answer
}

/// `values` in the vector given back last ([`give_back`]), else a new one.
fn answer_of(spare: &mut Vec<u64>, values: &[u64]) -> Vec<u64> {
    let mut out = core::mem::take(spare);
    out.clear();
    out.extend_from_slice(values);
    out
}

/// Takes back the values of an answer ([`Quick::Read`]) once they are used: the next answer
/// is made in them rather than in a new vector.
pub fn give_back(scratch: &mut Scratch, values: Vec<u64>) {
    if values.capacity() > scratch.spare.capacity() {
        scratch.spare = values;
    }
}

/// Forgets the answers [`quick_prefix_in`] kept (another program starts: its labels differ).
pub fn forget_prefixes(scratch: &mut Scratch) {
    scratch.quick.prefixes.clear();
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
/// ordering decision sees is the search's. A reading is left as soon as what its checks force
/// on fields not known yet contradicts itself ([`force`]: `mov r0, r1` read as the mul pipe's
/// `mov`, whose arm needs `pm` set while the mul pack's arms read clear it): the search fails
/// it too, every condition being one the search must satisfy. The first complete reading that
/// no value given contradicts is then the first the search completes: when it settles it is the search's
/// ([`Quick::Read`]): the search reads the same items, makes the same assignments, leaves
/// unsolved conditions to the defaults and checks them as here. No reading at all is
/// [`Quick::Never`]: every reading of the search is one of these. A complete reading with a
/// check that fails on the defaults is given to the search's own settling ([`settles`]): where
/// that fails, the search goes on to its next reading, and so does the walk. Anything else (a
/// reading with a check that fails and that the search satisfies by choosing values,
/// constructs it does not read: an assigned view, an echo that ends apart from the plain
/// number, labels, expressions read otherwise than the number, groups in any
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
    // Borrowed, not moved out and back: the state is some 500 bytes, copied at each move.
    let st = &mut scratch.quick;
    st.vals.clear();
    st.vals.extend(format.fields.iter().map(|f| f.fixed));
    st.assigned.clear();
    st.known = 0;
    st.checks.clear();
    st.facts.clear();
    st.same.clear();
    st.ranges.clear();
    st.frames.clear();
    st.shown = 0;
    st.owed = 0;
    st.readings = 0;
    st.unsure = false;
    st.steps = 0;
    st.spelled.clear();
    st.reach = 0;
    st.stop = None;
    st.untracked = false;
    if st.spelled_text != text || st.spelled_fold != ctx.ignore_case {
        st.spelled_text.clear();
        st.spelled_text.push_str(text);
        st.spelled_fold = ctx.ignore_case;
        st.spellings.clear();
        st.spelling_slots.fill(0);
        st.spelled_once.clear();
        st.spelled_last.clear();
        st.spelled_tables.clear();
        st.word_at = None;
    }
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
        reads: core::mem::take(&mut scratch.reads),
    };
    let start = skip_blanks(text, 0);
    q.syntax(syntax, (0, 0), start, &mut |q, pos| {
        let end = skip_blanks(q.text, pos);
        if q.st.track {
            q.saw_stop(end);
        }
        // As the search's `complete`: a value owed is no reading.
        if (end != q.text.len() && !q.prefix) || q.st.owed != 0 {
            return;
        }
        // The first reading in the search's order is the search's if it settles; one that
        // does not might be read by the search with values it chooses.
        let (holds, kept) = settle(q.format, q.st, q.ctx.pc);
        // A condition the values the text gave already make false ends the reading, as an
        // assignment that contradicts a deferred condition ends the search's. Where every
        // check holds on the settled values, which keep every value known, none is false
        // on the values known (a condition false on them is false on any that keep them).
        if !(holds && kept) {
            let st = &q.st;
            let contradicted = st.checks.iter().any(|&((e, want, at, len), _)| {
                let frame = &st.frames[at as usize..(at + len) as usize];
                eval(e, frame, &st.vals, q.ctx.pc).is_some_and(|v| (v != 0) != want)
            });
            if contradicted {
                return;
            }
        }
        if !holds {
            // Where the checks force contradictory values on the fields the text left open,
            // no choice of the search's satisfies them all ([`unsatisfiable`]): no reading.
            if !q.prefix && unsatisfiable(q.format, q.st, q.ctx.pc) {
                return;
            }
            // Where the search's own settling fails the reading too ([`settles`]), the search
            // goes on to its next reading, and so does the walk.
            let st = &q.st;
            let (vals, assigned, frames) = (&st.vals, &st.assigned, &st.frames);
            let checks: Vec<Check> = st.checks.iter().map(|c| c.0).collect();
            if !q.prefix
                && !settles(
                    q.format,
                    q.root,
                    q.text,
                    q.ctx,
                    vals,
                    assigned,
                    &checks,
                    frames,
                    end,
                    &mut q.reads,
                )
            {
                return;
            }
            return q.unsure();
        }
        let st = &mut q.st;
        core::mem::swap(&mut st.found, &mut st.values);
        st.found_end = end;
        st.readings = 1;
    });
    let QuickReader { st: state, tables, payers, mut payers_of, reads, .. } = q;
    let state = &*state;
    if let Some(payers) = payers {
        payers_of.give_back(format, syntax, payers);
    }
    scratch.payers_of = payers_of;
    let answer = match (state.unsure, state.readings) {
        (true, _) => Quick::Unsure,
        (false, 0) => Quick::Never,
        (false, _) => Quick::Read(answer_of(&mut scratch.spare, &state.found), state.found_end),
    };
    scratch.tables = tables;
    scratch.reads = reads;
    answer
}

/// Settles a complete reading as the search's `finish`, `resolve` and `complete` do when no
/// choice is left to make: equalities between a field the text gave and one it did not carry
/// the value over, the other fields take their defaults, a view is 0 among the values and
/// made up from the fields for the checks. True, with the values in `st.values`, when every
/// check holds on them: the search, reading the same items, makes no choice (every condition
/// it deferred holds on the defaults) and gives these values. False where a field has no
/// value, a view would be written back, or a check fails (the search might satisfy it by
/// choosing values). With it, whether the settled values keep every value known (a view
/// made up from the word may differ from the value it had).
fn settle(format: &Format, st: &mut QuickState, pc: u64) -> (bool, bool) {
    let QuickState { vals, checks, frames, settled, values, .. } = st;
    settled.clone_from(vals);
    let framed =
        || checks.iter().map(|&((e, want, at, len), _)| (e, want, &frames[at as usize..(at + len) as usize]));
    if !super::reading::carry_equalities(format.fields, settled, framed) {
        return (false, true);
    }
    values.clear();
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
                values.push(x);
            }
            None => return (false, true),
        }
    }
    // The word, where a view is made up from it.
    let mut kept = true;
    if views {
        let word = format.pack(values);
        for (v, f) in settled.iter_mut().zip(format.fields).filter(|(_, f)| f.view) {
            let made = crate::bits::get(word, f.pieces);
            kept &= v.is_none_or(|old| old == made);
            *v = Some(made);
        }
    }
    let holds = checks.iter().all(|&((e, want, at, len), _)| {
        let frame = &frames[at as usize..(at + len) as usize];
        eval(e, frame, settled, pc).is_some_and(|v| (v != 0) == want)
    });
    (holds, kept)
}

/// How many times [`unsatisfiable`] goes over the checks, each time with the values the
/// facts found before make known.
const FORCE_PASSES: usize = 4;

/// Whether no values of the fields a complete reading left open satisfy its checks, as
/// [`force`] finds it: each check forces its facts again with every value known at the
/// reading's end (a check kept early forced nothing on a field whose value came later), and
/// the values the facts make equal (`field == value`, two fields made equal) count as known
/// in the next pass. Every fact follows from a check that must hold, so a reading this
/// rejects is one the search's settling ([`settles`]) fails too: every value it chooses
/// keeps the values known, and it completes only where every check holds.
fn unsatisfiable(format: &Format, st: &mut QuickState, pc: u64) -> bool {
    let QuickState { vals, checks, frames, facts, same, settled, .. } = st;
    settled.clone_from(vals);
    let mark = facts.len();
    let mut applied = 0;
    let mut contradiction = false;
    for pass in 0..FORCE_PASSES {
        // The values the facts and the fields made equal make known.
        let mut grew = false;
        for &(s, equal, v) in &facts[applied..] {
            if equal && settled[s as usize].is_none() {
                settled[s as usize] = Some(v);
                grew = true;
            }
        }
        applied = facts.len();
        for &(s, t) in same.iter() {
            match (settled[s as usize], settled[t as usize]) {
                (Some(v), None) => settled[t as usize] = Some(v),
                (None, Some(v)) => settled[s as usize] = Some(v),
                _ => continue,
            }
            grew = true;
        }
        // Nothing more known: the checks force nothing new.
        if pass > 0 && !grew {
            break;
        }
        contradiction = checks.iter().any(|&((e, want, at, len), _)| {
            let frame = &frames[at as usize..(at + len) as usize];
            !force(format.fields, pc, e, want, frame, settled, same, facts)
        });
        if contradiction {
            break;
        }
    }
    facts.truncate(mark);
    contradiction
}

struct QuickReader<'t> {
    format: &'t Format,
    text: &'t str,
    ctx: &'t Context<'t>,
    prefix: bool,
    st: &'t mut QuickState,
    tables: TableIndexes,
    /// The syntax being read, and the tables that spell out its fields ([`Parser::payable`]).
    root: &'static Syntax,
    payers: Option<Payers>,
    payers_of: PayersOf,
    /// What each condition reads ([`ReadSets`], the search's).
    reads: ReadSets,
}

/// A frame of the quick reader: start and length in [`QuickState::frames`].
type QFrame = (u32, u32);

type QK<'k> = &'k mut dyn FnMut(&mut QuickReader, usize);

/// How far a quick reading had got: lengths of `assigned`, `checks` and `frames`; `shown`
/// and `owed`; lengths of `facts` and `same`; the fields known; the length of `ranges`.
type QMark = (usize, usize, usize, u64, u64, usize, usize, u64, usize);

impl QuickReader<'_> {
    /// The spellings of `t` at `pos`, each (length, value) once, longest first, pushed on
    /// [`QuickState::spelled`]: where they start there; `None` (nothing pushed) when there
    /// are more than sixteen. The caller truncates `spelled` back to the start.
    fn spellings(&mut self, t: &'static Table, pos: usize) -> Option<usize> {
        if self.st.track {
            let reach = match self.tables.get(t).blanks {
                (true, _) => usize::MAX,
                (false, trailing) => word_reach(self.text, pos, trailing),
            };
            self.saw(reach);
        }
        let st = &mut self.st;
        let start = st.spelled.len();
        // A table's spellings at a position depend on the text alone: read once a text.
        let key = (t as *const Table as usize, pos as u32);
        if st.spelling_slots.is_empty() {
            st.spelling_slots = alloc::vec![0; 64];
        }
        let mut slot = spelling_hash(key, st.spelling_slots.len());
        loop {
            match st.spelling_slots[slot] {
                0 => break,
                i => {
                    let (k, at, n) = st.spellings[i as usize - 1];
                    if k == key {
                        if n == u32::MAX {
                            return None;
                        }
                        st.spelled.extend_from_slice(&st.spelled_once[at as usize..(at + n) as usize]);
                        return Some(start);
                    }
                }
            }
            slot = (slot + 1) & (st.spelling_slots.len() - 1);
        }
        let found = self.read_spellings(t, pos);
        let st = &mut self.st;
        let at = st.spelled_once.len() as u32;
        match found {
            Some(start) => {
                st.spelled_once.extend_from_slice(&st.spelled[start..]);
                st.spellings.push((key, at, (st.spelled.len() - start) as u32));
            }
            None => st.spellings.push((key, at, u32::MAX)),
        }
        st.spelling_slots[slot] = st.spellings.len() as u32;
        if 2 * st.spellings.len() > st.spelling_slots.len() {
            let size = 2 * st.spelling_slots.len();
            st.spelling_slots.clear();
            st.spelling_slots.resize(size, 0);
            for (i, &(k, ..)) in st.spellings.iter().enumerate() {
                let mut slot = spelling_hash(k, size);
                while st.spelling_slots[slot] != 0 {
                    slot = (slot + 1) & (size - 1);
                }
                st.spelling_slots[slot] = i as u32 + 1;
            }
        }
        found
    }

    /// [`QuickReader::spellings`] read from the table, or from [`Words`] where another text
    /// had the bytes the reading looks at.
    fn read_spellings(&mut self, t: &'static Table, pos: usize) -> Option<usize> {
        let QuickReader { st, tables, text, ctx, .. } = self;
        let index = tables.get(t);
        let fold = ctx.ignore_case;
        // The bytes the reading looks at, and whether the text ends among them: a table whose
        // spellings cross no blank reads a word ([`word_reach`]).
        let looked = match index.blanks {
            (true, _) => None,
            (false, trailing) => {
                let (reach, hash) = match st.word_at {
                    Some((p, tr, reach, hash)) if p == pos && tr == trailing => (reach, hash),
                    _ => {
                        let reach = word_reach(text, pos, trailing);
                        let hash = Words::hash_bytes(&text.as_bytes()[pos..reach.min(text.len())]);
                        st.word_at = Some((pos, trailing, reach, hash));
                        (reach, hash)
                    }
                };
                Some((&text.as_bytes()[pos..reach.min(text.len())], reach > text.len(), hash))
            }
        };
        let table = t as *const Table as usize;
        if let Some((bytes, end, hash)) = looked {
            let h = Words::hash_with(hash, table, fold, end);
            if let Some(found) = st.words.get(h, table, fold, end, bytes) {
                let start = st.spelled.len();
                return found.map(|(at, n)| {
                    st.spelled.extend_from_slice(&st.words.spelled[at as usize..(at + n) as usize]);
                    start
                });
            }
        }
        let found = Self::spellings_of(st, t, index, text, pos, fold);
        if let Some((bytes, end, _)) = looked {
            let got = found.map(|start| &st.spelled[start..]);
            st.words.put(table, fold, end, bytes, got);
        }
        found
    }

    /// The spellings of `t` at `pos` ([`QuickReader::spellings`]) from the table's index.
    fn spellings_of(
        st: &mut QuickState,
        t: &'static Table,
        index: &super::names::TableIndex,
        text: &str,
        pos: usize,
        fold: bool,
    ) -> Option<usize> {
        let spelled = &mut st.spelled;
        let start = spelled.len();
        let mut many = false;
        t.candidates_indexed(index, text, pos, fold, &mut |len, v| {
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

    /// Notes that the walk read bytes below `reach` ([`QuickState::reach`]).
    fn saw(&mut self, reach: usize) {
        self.st.reach = self.st.reach.max(reach);
    }

    /// Notes that a reading ended at `end` after blanks: the bytes before it read, the one
    /// there seen to be no blank. A second reading that ends elsewhere reads both bytes.
    fn saw_stop(&mut self, end: usize) {
        self.saw(end);
        match self.st.stop {
            Some(at) if at != end => self.saw(at.max(end) + 1),
            _ => self.st.stop = Some(end),
        }
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
        let st = &self.st;
        (
            st.assigned.len(),
            st.checks.len(),
            st.frames.len(),
            st.shown,
            st.owed,
            st.facts.len(),
            st.same.len(),
            st.known,
            st.ranges.len(),
        )
    }

    /// [`note_spelling`] on bit sets: false for a field beyond the 64th, left to the search.
    #[inline]
    fn note(&mut self, b: Bound, t: &'static Table, len: usize, v: u64) -> bool {
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
    #[inline(always)]
    fn payable(&mut self, pos: usize) -> bool {
        self.st.owed == 0 || self.payable_owed(pos)
    }

    /// [`QuickReader::payable`] where a value is owed.
    fn payable_owed(&mut self, pos: usize) -> bool {
        if self.payers.is_none() {
            self.payers = Some(self.payers_of.take(self.format, self.root));
        }
        if self.st.track {
            self.saw(usize::MAX);
        }
        let Some(payers) = &self.payers else { return true };
        let (text, fold) = (self.text, self.ctx.ignore_case);
        // The payers are the format's and syntax's.
        let key = (self.format as *const Format as usize, self.root as *const Syntax as usize);
        let st = &mut *self.st;
        let mut owed = st.owed;
        while owed != 0 {
            let s = owed.trailing_zeros() as Slot;
            owed &= owed - 1;
            let val = st.vals[s as usize];
            if text.get(pos..).is_none() {
                if !payers.may_spell(s, val, "", fold) {
                    return false;
                }
                continue;
            }
            // Where the text spells the value last, found once a reading of the text.
            let at = match st.spelled_last.iter().find(|e| e.0 == key && e.1 == s && e.2 == val) {
                Some(e) => e.3,
                None => {
                    let at = payers.last_spelling(s, val, text, fold, &mut st.spelled_tables);
                    st.spelled_last.push((key, s, val, at));
                    at
                }
            };
            if at.is_none_or(|at| at < pos) {
                return false;
            }
        }
        true
    }

    fn undo(&mut self, m: QMark) {
        while self.st.assigned.len() > m.0 {
            if let Some(s) = self.st.assigned.pop() {
                self.st.vals[s as usize] = None;
            }
        }
        self.st.checks.truncate(m.1);
        self.st.frames.truncate(m.2);
        self.st.shown = m.3;
        self.st.owed = m.4;
        self.st.facts.truncate(m.5);
        self.st.same.truncate(m.6);
        self.st.known = m.7;
        self.st.ranges.truncate(m.8);
    }

    /// Derives again what the checks reading the fields of `bits` (bit `s % 64` for field `s`)
    /// force ([`force`]): false when two contradict, or a check is false on the values known.
    fn reforce(&mut self, bits: u64) -> bool {
        let QuickState { vals, checks, facts, same, frames, .. } = &mut self.st;
        for &mut ((e, want, at, len), ref mut reads) in checks.iter_mut() {
            let frame = &frames[at as usize..(at + len) as usize];
            // What a check reads is found when first asked.
            if *reads == u64::MAX {
                *reads = self.reads.bits(e, frame);
            }
            if *reads & bits == 0 {
                continue;
            }
            if !force(self.format.fields, self.ctx.pc, e, want, frame, vals, same, facts) {
                return false;
            }
        }
        true
    }

    /// Keeps check `e` (to come out `want`): what it forces, checked against what the others
    /// force ([`force`]). False when they contradict: the search fails the reading too.
    fn check(&mut self, e: &'static Expr, want: bool, f: QFrame) -> bool {
        self.st.checks.push(((e, want, f.0, f.1), u64::MAX));
        self.keep_span(e, want, f);
        // Two unknown fields made equal: what the checks reading either force may grow.
        if let Some((s, t)) = equal_pair(self.format.fields, e, want, self.frame(f), &self.st.vals) {
            self.st.same.push((s, t));
            return self.reforce(1 << (s % 64) | 1 << (t % 64));
        }
        let QuickState { vals, facts, same, frames, .. } = &mut self.st;
        let frame = &frames[f.0 as usize..(f.0 + f.1) as usize];
        force(self.format.fields, self.ctx.pc, e, want, frame, vals, same, facts)
    }

    /// A check on one field not known yet that needs it in a span (or out of it,
    /// [`Span::of`]): its value is checked against the span as it is given ([`out_of_ranges`]),
    /// not at the reading's end. Both ways of keeping a check do this: a guard compiled for
    /// its call's shape ([`Step::Check`]) as much as one required at run time.
    fn keep_span(&mut self, e: &'static Expr, want: bool, f: QFrame) {
        if let Some((s, span)) = Span::of(e, self.frame(f)) {
            if self.st.vals[s as usize].is_none() {
                self.st.ranges.push((s, span, want));
            }
        }
    }

    /// [`QuickReader::check`] of a [`Step::Check`]: no pair of fields is made equal by it (a
    /// comparison of fields is a [`Step::Require`]).
    fn check_kept(&mut self, e: &'static Expr, want: bool, at: u32, f: QFrame) -> bool {
        self.keep_span(e, want, f);
        let st = &mut *self.st;
        st.checks.push(((e, want, f.0, f.1), st.fits.parts[at as usize].bits));
        let QuickState { vals, facts, same, frames, .. } = st;
        let frame = &frames[f.0 as usize..(f.0 + f.1) as usize];
        force(self.format.fields, self.ctx.pc, e, want, frame, vals, same, facts)
    }

    /// [`QuickReader::check`] of a [`Step::Some`]: what [`force`] does with it, its parts'
    /// leaves compared as compiled.
    fn check_some(&mut self, e: &'static Expr, want: bool, start: u32, end: u32, f: QFrame) -> bool {
        let st = &mut *self.st;
        let reads = match start < end {
            true => st.fits.parts[start as usize].bits,
            false => u64::MAX,
        };
        st.checks.push(((e, want, f.0, f.1), reads));
        // No pair of fields is made equal by a conjunction or disjunction ([`equal_pair`]).
        let QuickState { vals, facts, same, frames, fits, .. } = st;
        let frame = &frames[f.0 as usize..(f.0 + f.1) as usize];
        let mut open = None;
        for part in &fits.parts[start as usize..end as usize] {
            let v = match part.leaf {
                Leaf::Other => same_value(part.expr, frame, vals, same, self.ctx.pc),
                leaf => leaf.value(vals, same),
            };
            match v {
                Some(v) if (v != 0) == want => return true,
                Some(_) => {}
                None if open.is_some() => return true,
                None => open = Some(part.expr),
            }
        }
        open.is_some_and(|x| force(self.format.fields, self.ctx.pc, x, want, frame, vals, same, facts))
    }

    /// [`Parser::assign`] without deferred conditions (they are checked at the end). A view
    /// is left to the search (which writes it back into the fields it shares bits with).
    fn assign(&mut self, b: Bound, v: u64) -> bool {
        let (slot, v) = match giving(self.format.fields, b, v) {
            Giving::Decided(ok) => return ok,
            Giving::View => {
                self.unsure();
                return false;
            }
            Giving::Field(slot, v) => (slot, v),
        };
        match self.st.vals[slot as usize] {
            Some(old) => old == v,
            None => {
                self.st.vals[slot as usize] = Some(v);
                self.st.assigned.push(slot);
                self.st.known |= 1 << (slot % 64);
                // What the checks forced on the field, and what they force now it is known.
                !self.st.facts.iter().any(|&(t, equal, w)| t == slot && equal != (w == v))
                    && !out_of_ranges(&self.st.ranges, slot, v)
            }
        }
    }

    /// [`QuickReader::assign`] of value `v` to field `slot`, which the field may hold and is
    /// no view ([`Step::Set`]).
    fn set(&mut self, slot: Slot, v: u64) -> bool {
        let st = &mut *self.st;
        match st.vals[slot as usize] {
            Some(old) => old == v,
            None => {
                st.vals[slot as usize] = Some(v);
                st.assigned.push(slot);
                st.known |= 1 << (slot % 64);
                !st.facts.iter().any(|&(t, equal, w)| t == slot && equal != (w == v))
                    && !out_of_ranges(&st.ranges, slot, v)
            }
        }
    }

    /// Makes `e` come out `want`: the assignments [`Parser::require`] makes whatever the
    /// defaults (a one-bit field, `field == value`, conjunctions of them), the rest kept as
    /// checks. False when an assignment contradicts a value already given.
    fn require(&mut self, e: &'static Expr, want: bool, f: QFrame) -> bool {
        super::reading::require(self, e, want, f)
    }

    /// Whether `e` holds on the values with defaults for the unknown fields (undecided: it
    /// does), as the search orders arms and optional groups.
    #[inline]
    fn fits(&self, e: &Expr, f: QFrame) -> Option<i64> {
        let defaulted = Defaulted { vals: &self.st.vals, fields: self.format.fields };
        value_in(e, self.frame(f), &defaulted, self.ctx.pc)
    }

    /// Which arms of `syntax` (at most 256) have guards that hold on the values with defaults
    /// for the unknown fields (undecided: they do), bit `i` for arm `i`: taken from [`Fits`]
    /// for a guard that reads no field the walk has assigned.
    fn fitting(&mut self, syntax: &'static Syntax, f: QFrame) -> ([u64; 4], Option<usize>) {
        let mut fitting = [0u64; 4];
        // What the guards see of the format is its fields (static, as the syntax is).
        let fields = self.format.fields;
        let QuickState { fits, frames, known, .. } = &mut *self.st;
        let frame = &frames[f.0 as usize..(f.0 + f.1) as usize];
        // Arms without guards need neither (a shape's look-up costs more than walking them).
        let shape = match syntax.arms.iter().any(|a| a.guard.is_some()) {
            true => fits.shape(fields, syntax, frame),
            false => None,
        };
        let Some(shape) = shape else {
            for (index, arm) in syntax.arms.iter().enumerate() {
                let fit = arm.guard.is_none_or(|g| self.fits(g, f).unwrap_or(1) != 0);
                fitting[index / 64] |= u64::from(fit) << (index % 64);
            }
            return (fitting, None);
        };
        let known = *known;
        let sh = &fits.shapes[shape];
        // No guard reads a field the walk assigned, and every truth is known.
        if sh.complete && sh.reads & known == 0 {
            for (w, out) in fitting.iter_mut().enumerate() {
                *out = sh.fit[w] | sh.unguarded[w];
            }
            return (fitting, Some(shape));
        }
        let at = sh.at as usize;
        for (index, arm) in syntax.arms.iter().enumerate() {
            let Some(g) = arm.guard else {
                fitting[index / 64] |= 1 << (index % 64);
                continue;
            };
            let (word, bit) = (index / 64, 1u64 << (index % 64));
            let st = &mut *self.st;
            let still = st.fits.reads[at + index] & known == 0;
            if still && st.fits.shapes[shape].known[word] & bit != 0 {
                fitting[word] |= st.fits.shapes[shape].fit[word] & bit;
                continue;
            }
            // The fields it reads that the walk assigned, and their values: a guard that reads
            // the address, or more fields than a key holds, is evaluated each time (so is every
            // guard of a format of more than 64 fields, whose bits stand for several).
            let reads = st.fits.reads[at + index];
            let mask = reads & known;
            let key = match !still && reads != u64::MAX && fields.len() <= 64 {
                true => fit_key(mask, &st.vals),
                false => None,
            };
            if let Some(key) = key {
                let memo = st.fits.memo_at[at + index];
                if let Some(fit) = memo.checked_sub(1).and_then(|i| st.fits.memos[i as usize].get(key)) {
                    fitting[word] |= u64::from(fit) << (index % 64);
                    continue;
                }
            }
            let fit = self.fits(g, f).unwrap_or(1) != 0;
            if fit {
                fitting[word] |= bit;
            }
            if let Some(key) = key {
                let fits = &mut self.st.fits;
                if fits.memo_at[at + index] == 0 {
                    fits.memos.push(FitMemos::default());
                    fits.memo_at[at + index] = fits.memos.len() as u32;
                }
                let i = fits.memo_at[at + index] as usize - 1;
                fits.memos[i].put(key, fit);
            }
            if still {
                let sh = &mut self.st.fits.shapes[shape];
                sh.known[word] |= bit;
                if fit {
                    sh.fit[word] |= bit;
                }
            }
        }
        let sh = &mut self.st.fits.shapes[shape];
        sh.complete = (0..4).all(|w| sh.known[w] | sh.unguarded[w] == arm_bits(syntax.arms.len(), w));
        (fitting, Some(shape))
    }

    fn syntax(&mut self, syntax: &'static Syntax, f: QFrame, pos: usize, k: QK) {
        // In the search's order ([`Parser::syntax`]): the arms whose guards the defaults of
        // the unknown fields satisfy first, then the others, each in the written order.
        if syntax.arms.len() > 256 {
            return self.unsure();
        }
        let (fitting, shape) = self.fitting(syntax, f);
        let at = shape.map(|sh| self.st.fits.shapes[sh].at as usize);
        let words = syntax.arms.len().div_ceil(64);
        for first in [true, false] {
            for (w, &fit) in fitting[..words].iter().enumerate() {
                let mut arms = match first {
                    true => fit,
                    false => !fit & arm_bits(syntax.arms.len(), w),
                };
                while arms != 0 {
                    let index = w * 64 + arms.trailing_zeros() as usize;
                    arms &= arms - 1;
                    self.arm(syntax, index, &syntax.arms[index], at, f, pos, k);
                }
            }
        }
    }

    /// Reads arm `index` of `syntax`, then `k`; `at`, where the call's shape has its arms'
    /// steps of entering them ([`Fits::entries`]), if it has them.
    #[allow(clippy::too_many_arguments)]
    fn arm(
        &mut self,
        syntax: &'static Syntax,
        index: usize,
        arm: &'static Arm,
        at: Option<usize>,
        f: QFrame,
        pos: usize,
        k: QK,
    ) {
        if self.done() || self.literal_fails(arm.items, pos) || self.literals_lack(arm.items, pos) {
            return;
        }
        let m = self.mark();
        // As the search: choosing an arm that is no alias makes every earlier guard false.
        let mut ok = true;
        if let Some(at) = at {
            let (start, end) = self.st.fits.entries[at + index];
            for j in start..end {
                ok = match self.st.fits.steps[j as usize] {
                    Step::Set(s, v) => self.set(s, v),
                    Step::Fail => false,
                    Step::Require(e, want) => self.require(e, want, f),
                    Step::Check(e, want, at) => self.check_kept(e, want, at, f),
                    Step::Some(e, want, start, end) => self.check_some(e, want, start, end, f),
                };
                if !ok {
                    break;
                }
            }
            if ok {
                self.items(arm.items, 0, f, pos, k);
            }
            return self.undo(m);
        }
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
                Item::Lit(s) => match self.literal(s, pos) {
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
    fn literal_fails(&mut self, items: &[Item], pos: usize) -> bool {
        matches!(items.first(), Some(Item::Lit(s)) if self.literal(s, pos).is_none())
    }

    /// Whether the text from `pos` lacks the bytes of the literals of `items` in their order
    /// ([`literals_in_order`]): no reading of them exists, and an arm or optional group of
    /// them is not entered (`vc4asm_mul_op`'s arms of two sources on `mov r0, r2`). Not asked
    /// of a prefix: where the walk keeps what it read ([`quick_prefix_in`]) it reads no further
    /// than its items do, and its answers are a fresh walk's.
    fn literals_lack(&self, items: &[Item], pos: usize) -> bool {
        self.st.steps >= LITERALS_ASKED
            && !self.prefix
            && !literals_in_order(items, self.text, pos, self.ctx.ignore_case)
    }

    /// [`literal_at`], the bytes it reads noted.
    fn literal(&mut self, s: &str, pos: usize) -> Option<usize> {
        if self.st.track {
            self.saw(literal_reach(self.text, s, pos));
        }
        literal_at(self.text, s, pos, self.ctx.ignore_case)
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
        let start = number_start(self.text, pos);
        if self.st.track {
            self.saw(word_reach(self.text, pos, false));
        }
        let text = &self.text[start..];
        // A value already given is echoed as the search's `echo` reads it: the printer's text
        // for the value, which must end there; then the plain number, read as below.
        let echo = match bound_value(b, &self.st.vals).filter(|_| !is_target) {
            Some(v) => {
                let mut echo = core::mem::take(&mut self.st.echo);
                echo.clear();
                let written = write_number(v as u64, n, &mut echo).is_ok();
                let ends_here =
                    !text.as_bytes().get(echo.len()).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'.');
                let end =
                    (written && text.starts_with(echo.as_str()) && ends_here).then_some(start + echo.len());
                if self.st.track {
                    self.saw(start + echo.len() + 1);
                }
                self.st.echo = echo;
                Some(end)
            }
            None => None,
        };
        let plain = self.plain_number(b, n, f, start, width, signed, allowed);
        if self.st.unsure {
            return None;
        }
        match (echo.flatten(), plain) {
            (None, end) | (end, None) => end,
            (Some(a), Some(z)) if a == z => Some(a),
            // Two readings that end apart: the search tries both in turn.
            (Some(_), Some(_)) => {
                self.unsure();
                None
            }
        }
    }

    /// The plain number (or expression) of [`QuickReader::number`] at `start`: where it ends,
    /// its value assigned (or agreeing with the value known).
    #[allow(clippy::too_many_arguments)]
    fn plain_number(
        &mut self,
        b: Bound,
        n: Num,
        f: QFrame,
        start: usize,
        width: u32,
        signed: bool,
        allowed: &[(u64, u64)],
    ) -> Option<usize> {
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
                // A label, where the program has one of that name (as the search reads it);
                // else no plain reading, as in the search (`BRA CC.NEU, 0xe8` read first
                // without its optional `CC.NEU, `).
                None => {
                    let len = label_len(text);
                    if len > 0 && (self.ctx.labels)(&text[..len]).is_some() {
                        self.unsure();
                        return None;
                    }
                    None
                }
            },
            _ => scan_number(n, width, text),
        };
        // An expression that reads more (or other) text than the plain number.
        if let Some(read) = self.ctx.expression.filter(|_| takes_expression(&n)) {
            let read = read(text);
            if self.st.track {
                // An expression read looks no further than the run of bytes where it ends
                // (past blanks: an operator's first bytes); where it fails, not known.
                match &read {
                    Ok((_, len)) => self.saw(start + word_reach(text, *len, false)),
                    Err(_) => self.st.untracked = true,
                }
            }
            // As the search: a float where the field takes no float (not 32 bits wide, no
            // float style) is no reading (`ra5.16a`'s `5.16`).
            let no_float = |v: &crate::expr::Value| {
                matches!(v, crate::expr::Value::Float(_))
                    && width != 32
                    && !matches!(
                        n,
                        Num::Float { .. } | Num::Decimal { .. } | Num::Label { .. } | Num::Target { .. }
                    )
            };
            if let Ok((v, len)) = read {
                if plain.is_none_or(|p| p.1 != len) && !no_float(&v) {
                    self.unsure();
                    return None;
                }
            }
        }
        let (value, len) = plain?;
        let raw = field_raw(value, n, width, signed, allowed).ok()?;
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
                    if present && (self.literal_fails(body, pos) || self.literals_lack(body, pos)) {
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

impl super::reading::Reading for QuickReader<'_> {
    type Frame = QFrame;
    fn frame(&self, f: QFrame) -> &[Bound] {
        QuickReader::frame(self, f)
    }
    fn vals(&self) -> &[Option<u64>] {
        &self.st.vals
    }
    fn pc(&self) -> u64 {
        self.ctx.pc
    }
    fn width(&self, slot: Slot) -> u32 {
        crate::bits::width(self.format.fields[slot as usize].pieces)
    }
    fn assign(&mut self, b: Bound, v: u64) -> bool {
        QuickReader::assign(self, b, v)
    }
    fn check(&mut self, e: &'static Expr, want: bool, f: QFrame) -> bool {
        QuickReader::check(self, e, want, f)
    }
}
