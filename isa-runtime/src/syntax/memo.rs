//! The search's working memory, kept from one parse to the next ([`Scratch`]): the memo table
//! of recognition answers, name-table indexes, and the static answers of what each item list
//! may spell out and what each condition reads. Separate because it outlives a parse and is
//! keyed by the static descriptions' addresses.

use super::analysis::{contains, separator};
use super::eval::{bind, bound_slot_bits, slot_bits, Bound};
use super::names::{Entry, Table, TableIndex};
use super::quick::QuickState;
use super::search::{EndsKey, State};
use super::tree::{Expr, Item, Show, Slot, Syntax};
use super::walk::MNEMONIC_DEPTH;
use crate::format::Format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Answers by (static description's address, index, position), for one parse: an
/// open-addressing hash table whose values are ranges of one shared list of items. Kept from
/// one parse to the next ([`Scratch`]): a slot is taken only when it carries the current
/// parse's stamp, so emptying the table is one increment.
pub(super) struct Memo<T> {
    /// Slots of the table (a power of two of them, at most half full), with the stamp of the
    /// parse that filled each.
    slots: Vec<(u32, EndsKey, (u32, u32))>,
    /// The current parse's stamp (never 0, the stamp of a slot never filled).
    stamp: u32,
    /// How many slots are taken.
    len: usize,
    /// Every answer's items, one range each.
    pub(super) items: Vec<T>,
}

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo { slots: Vec::new(), stamp: 1, len: 0, items: Vec::new() }
    }
}

impl<T> Memo<T> {
    /// Forgets every answer, keeping the memory.
    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.items.clear();
        if self.stamp == u32::MAX {
            self.slots.iter_mut().for_each(|s| s.0 = 0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    #[inline]
    fn slot(&self, key: EndsKey) -> usize {
        // The item list's address varies most; positions and indices are small.
        let h = (key.0 as u64 ^ (u64::from(key.1) << 40) ^ (u64::from(key.2) << 20))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mask = self.slots.len() - 1;
        let mut i = (h >> 32) as usize & mask;
        while self.slots[i].0 == self.stamp {
            if self.slots[i].1 == key {
                break;
            }
            i = (i + 1) & mask;
        }
        i
    }

    #[inline]
    pub(super) fn get(&self, key: EndsKey) -> Option<core::ops::Range<usize>> {
        if self.slots.is_empty() {
            return None;
        }
        let (stamp, _, (a, b)) = self.slots[self.slot(key)];
        (stamp == self.stamp).then_some(a as usize..b as usize)
    }

    /// The answer for `key` if there is one; else `empty` filed as its answer (what a
    /// re-entry at the same place gets while the answer is worked out) and where, for
    /// [`Memo::answer`]. One probe for both.
    #[inline]
    pub(super) fn get_or_file(
        &mut self,
        key: EndsKey,
        empty: core::ops::Range<usize>,
    ) -> Result<core::ops::Range<usize>, Filed> {
        self.reserve();
        let i = self.slot(key);
        let (stamp, _, (a, b)) = self.slots[i];
        if stamp == self.stamp {
            return Ok(a as usize..b as usize);
        }
        self.len += 1;
        self.slots[i] = (self.stamp, key, (empty.start as u32, empty.end as u32));
        Err(Filed { slot: i, size: self.slots.len() })
    }

    /// Gives the answer filed for `key` ([`Memo::get_or_file`]): in its slot, without a probe,
    /// unless the table has grown since (a slot taken keeps its key until then).
    #[inline]
    pub(super) fn answer(&mut self, filed: Filed, key: EndsKey, ends: core::ops::Range<usize>) {
        let size = self.slots.len();
        match self.slots.get_mut(filed.slot).filter(|_| filed.size == size) {
            Some(slot) => slot.2 = (ends.start as u32, ends.end as u32),
            None => self.insert(key, ends),
        }
    }

    /// Room for one more answer.
    #[inline]
    fn reserve(&mut self) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
    }

    /// Twice the slots, the answers filed again.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        let old = core::mem::replace(&mut self.slots, vec![(0, (0, 0, 0), (0, 0)); size]);
        for (stamp, k, v) in old {
            if stamp == self.stamp {
                let i = self.slot(k);
                self.slots[i] = (stamp, k, v);
            }
        }
    }

    pub(super) fn insert(&mut self, key: EndsKey, ends: core::ops::Range<usize>) {
        self.reserve();
        let i = self.slot(key);
        if self.slots[i].0 != self.stamp {
            self.len += 1;
        }
        self.slots[i] = (self.stamp, key, (ends.start as u32, ends.end as u32));
    }
}

/// Where [`Memo::get_or_file`] filed a key: its slot, and the table's size then.
pub(super) struct Filed {
    slot: usize,
    size: usize,
}

/// The [`Table::index`] of each table met, by the table's address: an open-addressing hash
/// table (a probe or two where a map walked a tree at every name read).
#[derive(Default)]
pub(super) struct TableIndexes {
    /// (address, number in `indexes`), address 0 for a free slot; a power of two of them, at
    /// most half full.
    slots: Vec<(usize, u32)>,
    indexes: Vec<TableIndex>,
}

impl TableIndexes {
    #[inline]
    pub(super) fn get(&mut self, t: &'static Table) -> &TableIndex {
        let key = t as *const Table as usize;
        if !self.slots.is_empty() {
            let (k, n) = self.slots[self.find(key)];
            if k == key {
                return &self.indexes[n as usize];
            }
        }
        self.insert(t)
    }

    #[cold]
    #[inline(never)]
    fn insert(&mut self, t: &'static Table) -> &TableIndex {
        let key = t as *const Table as usize;
        if 2 * (self.indexes.len() + 1) > self.slots.len() {
            let size = (self.slots.len() * 2).max(64);
            let old = core::mem::replace(&mut self.slots, vec![(0, 0); size]);
            for entry in old.into_iter().filter(|x| x.0 != 0) {
                let i = self.find(entry.0);
                self.slots[i] = entry;
            }
        }
        let i = self.find(key);
        self.slots[i] = (key, self.indexes.len() as u32);
        self.indexes.push(t.index());
        &self.indexes[self.indexes.len() - 1]
    }

    #[inline]
    fn find(&self, key: usize) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        while self.slots[i].0 != 0 && self.slots[i].0 != key {
            i = (i + 1) & mask;
        }
        i
    }
}

/// An entry of [`Parser::follow`]: what the search reads after the item at hand (the rest of an
/// item list from an index; `None` where not known) and the entry's number.
pub(super) type Follow = (Option<(&'static [Item], usize)>, u32);

/// Memory a parse works in, kept for the next so that reading many lines allocates once.
#[derive(Default)]
pub struct Scratch {
    pub(super) memo: Memo<usize>,
    pub(super) follow: Vec<Follow>,
    pub(super) pays: Vec<u64>,
    pub(super) pay_sets: PaySets,
    pub(super) reach: Memo<()>,
    pub(super) payers_of: PayersOf,
    pub(super) starts: Memo<()>,
    pub(super) tables: TableIndexes,
    pub(super) spellings: Memo<(usize, u64)>,
    /// The text and case folding `spellings` answers for: kept while the formats of one
    /// statement are tried in turn (name tables are shared between formats).
    pub(super) spelled: (String, bool),
    pub(super) collecting: Vec<usize>,
    pub(super) mids: Vec<usize>,
    pub(super) reads: ReadSets,
    /// The state of the last parse, whose lists are emptied and filled again.
    pub(super) state: State,
    /// The quick reader's ([`quick_in`]).
    pub(super) quick: QuickState,
    /// The generated readers' ([`super::fast_in`]).
    pub(super) fast: super::fast::FastState,
    /// A vector of values given back ([`give_back`]) for the quick reader's next answer.
    pub(super) spare: Vec<u64>,
    /// For the target whose formats start at the address kept, each format's packing by its
    /// index, once the format has read a statement (the assembler's; kept between programs).
    pub(crate) packings: (usize, Vec<Option<crate::format::Packing>>),
}

/// What each item list may spell out through a name table, from each index on, by the list's
/// address: the fields it shows through a table and the parameters it shows so (bit `n` for
/// `Param(n)`), through the sub-syntaxes it calls, all their arms, and optional groups. A value
/// owed ([`note_spelling`]) can only be spelled out by such a name. The descriptions are static,
/// so answers hold from one parse to the next.
#[derive(Default)]
pub(super) struct PaySets {
    /// (address, where its answers start in `shapes`), address 0 for a free slot; a power of
    /// two of them, at most half full.
    slots: Vec<(usize, u32)>,
    len: usize,
    /// For each list met, for each index `i` up to its length: (fields, parameters) of
    /// `items[i..]`.
    shapes: Vec<(u64, u64)>,
}

impl PaySets {
    /// The fields `items[i..]` may spell out through a name table, read through `frame`: bit
    /// `s % 64` for field `s`, all bits where that is not known.
    #[inline]
    pub(super) fn mask(&mut self, items: &'static [Item], i: usize, frame: &[Bound]) -> u64 {
        let (fields, params) = self.shape(items, i, 0);
        if params == u64::MAX {
            return u64::MAX;
        }
        fields | bound_slot_bits(params, frame)
    }

    fn shape(&mut self, items: &'static [Item], i: usize, depth: u32) -> (u64, u64) {
        if i >= items.len() {
            return (0, 0);
        }
        let key = items.as_ptr() as usize;
        if !self.slots.is_empty() {
            let (k, at) = self.slots[self.find(key)];
            if k == key {
                return self.shapes[at as usize + i];
            }
        }
        if depth > MNEMONIC_DEPTH {
            return (u64::MAX, u64::MAX);
        }
        // From the last item back, each suffix the union of its first item and the rest.
        let mut suffix = vec![(0u64, 0u64); items.len() + 1];
        for (j, item) in items.iter().enumerate().rev() {
            let (mut fields, mut params) = suffix[j + 1];
            self.item_shape(item, depth, &mut fields, &mut params);
            suffix[j] = (fields, params);
        }
        if 2 * (self.len + 1) > self.slots.len() {
            let size = (self.slots.len() * 2).max(64);
            let old = core::mem::replace(&mut self.slots, vec![(0, 0); size]);
            for entry in old.into_iter().filter(|x| x.0 != 0) {
                let s = self.find(entry.0);
                self.slots[s] = entry;
            }
        }
        let s = self.find(key);
        if self.slots[s].0 != key {
            self.slots[s] = (key, self.shapes.len() as u32);
            self.len += 1;
            self.shapes.extend_from_slice(&suffix);
        }
        suffix[i]
    }

    fn item_shape(&mut self, item: &'static Item, depth: u32, fields: &mut u64, params: &mut u64) {
        // What an expression naming a field or parameter adds (others: not known).
        fn named(e: &Expr, fields: &mut u64, params: &mut u64) {
            match e {
                Expr::Field(s) => *fields |= 1 << (s % 64),
                Expr::Param(n) => *params |= if *n < 64 { 1 << n } else { u64::MAX },
                Expr::Not(x) => named(x, fields, params),
                Expr::Int(_) => {}
                _ => *fields = u64::MAX,
            }
        }
        match item {
            Item::Lit(_) | Item::Show(_, Show::Num(_)) => {}
            // Computed values are echoes, read without a name table.
            Item::Show(Expr::Arith(..) | Expr::If(..), _) => {}
            Item::Show(e, _) => named(e, fields, params),
            Item::Call(sub, args) => {
                for arm in sub.arms {
                    let (f, mut p) = self.shape(arm.items, 0, depth + 1);
                    *fields |= f;
                    if p == u64::MAX {
                        *fields = u64::MAX;
                        continue;
                    }
                    while p != 0 {
                        let n = p.trailing_zeros() as usize;
                        p &= p - 1;
                        if let Some(a) = args.get(n) {
                            named(a, fields, params);
                        }
                    }
                }
            }
            Item::Opt(_, body) => {
                let (f, p) = self.shape(body, 0, depth + 1);
                *fields |= f;
                *params |= p;
            }
            Item::AnyOrder(_, groups) => {
                for g in groups.iter() {
                    self.item_shape(g, depth + 1, fields, params);
                }
            }
        }
    }

    fn find(&self, key: usize) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        while self.slots[i].0 != 0 && self.slots[i].0 != key {
            i = (i + 1) & mask;
        }
        i
    }
}

/// The name tables that show each field of a format's syntax: (field, table, whether the table
/// spells the field's negation), sorted; `None` where the syntax is too deep to walk. A value
/// owed ([`note_spelling`]) is spelled out only by a non-empty name of such a table for it.
/// Kept with them ([`Runs`]): for each (field, value) asked about, the runs of text one of
/// those names starts with.
pub(super) struct Payers(Option<Vec<(Slot, usize, bool, &'static Table)>>, core::cell::RefCell<Runs>);

/// For each (field, value) a value owed has had ([`Payers::runs`]): the first runs of the
/// non-empty names that may spell it out ([`first_run`]), each once, and none that another of
/// them starts (where the longer occurs, the shorter occurs at the same place, so the longer
/// decides nothing); or that one of them has no run (any text may spell it). The tables and
/// their names are static, so the answers hold from one text to the next: a text is then
/// searched for these few runs rather than every name of every table being looked at again.
#[derive(Default)]
pub(super) struct Runs {
    /// (field, value, start in `runs`, count; `u32::MAX`: a name with no run).
    by_value: Vec<(Slot, u64, u32, u32)>,
    runs: Vec<&'static str>,
}

/// What [`Payers::runs`] finds for a (field, value).
enum Spelled {
    /// Any text may spell it (a name with no run, a value a negated table cannot hold).
    Anywhere,
    /// The runs one of its names starts with, as a range of [`Runs::runs`].
    Runs(core::ops::Range<usize>),
}

impl Payers {
    fn of(syntax: &'static Syntax) -> Self {
        let mut out = Vec::new();
        let mut seen = Vec::new();
        let mut complete = true;
        for arm in syntax.arms {
            Self::walk(arm.items, &[], 0, &mut seen, &mut out, &mut complete);
        }
        out.sort_by_key(|p| (p.0, p.1, p.2));
        out.dedup_by_key(|p| (p.0, p.1, p.2));
        Payers(complete.then_some(out), Default::default())
    }

    fn walk(
        items: &'static [Item],
        frame: &[Bound],
        depth: u32,
        seen: &mut Vec<(usize, Vec<Bound>)>,
        out: &mut Vec<(Slot, usize, bool, &'static Table)>,
        complete: &mut bool,
    ) {
        if depth > MNEMONIC_DEPTH {
            *complete = false;
            return;
        }
        for item in items {
            match item {
                Item::Lit(_)
                | Item::Show(_, Show::Num(_))
                | Item::Show(Expr::Arith(..) | Expr::If(..), _) => {}
                Item::Show(e, show) => {
                    let (slot, negated) = match bind(e, frame) {
                        Bound::Slot(s) => (s, false),
                        Bound::NotSlot(s) => (s, true),
                        Bound::Const(_) => continue,
                    };
                    let mut add =
                        |t: &'static Table| out.push((slot, t as *const Table as usize, negated, t));
                    match show {
                        Show::Table(t) => add(t),
                        Show::TableIf(_, a, b) => {
                            add(a);
                            add(b);
                        }
                        Show::Num(_) => {}
                    }
                }
                Item::Call(sub, args) => {
                    let inner: Vec<Bound> = args.iter().map(|a| bind(a, frame)).collect();
                    let key = *sub as *const Syntax as usize;
                    if seen.iter().any(|(k, f)| *k == key && *f == inner) {
                        continue;
                    }
                    seen.push((key, inner.clone()));
                    for arm in sub.arms {
                        Self::walk(arm.items, &inner, depth + 1, seen, out, complete);
                    }
                }
                Item::Opt(_, body) => Self::walk(body, frame, depth + 1, seen, out, complete),
                Item::AnyOrder(_, groups) => {
                    for g in groups.iter() {
                        if let Item::Opt(_, body) = g {
                            Self::walk(body, frame, depth + 1, seen, out, complete);
                        }
                    }
                }
            }
        }
    }

    /// Whether field `slot`, whose value is `val`, may be spelled out by a name in `rest`: some
    /// table that shows it has a non-empty name for the value whose first run of text (up to a
    /// blank or a separator, which a name matches with blanks around) occurs in `rest`.
    pub(super) fn may_spell(&self, slot: Slot, val: Option<u64>, rest: &str, fold: bool) -> bool {
        let (Some(payers), Some(val)) = (&self.0, val) else { return true };
        let runs = &mut *self.1.borrow_mut();
        match Self::runs(payers, runs, slot, val) {
            Spelled::Anywhere => true,
            Spelled::Runs(r) => runs.runs[r].iter().any(|run| contains(rest, run, fold)),
        }
    }

    /// The runs of text the names that may spell out field `slot`'s value `val` start with
    /// ([`Runs`]), worked out the first time a (field, value) is asked about.
    fn runs(
        payers: &[(Slot, usize, bool, &'static Table)],
        runs: &mut Runs,
        slot: Slot,
        val: u64,
    ) -> Spelled {
        let spelled = |&(_, _, start, n): &(Slot, u64, u32, u32)| match n {
            u32::MAX => Spelled::Anywhere,
            _ => Spelled::Runs(start as usize..(start + n) as usize),
        };
        if let Some(e) = runs.by_value.iter().find(|e| e.0 == slot && e.1 == val) {
            return spelled(e);
        }
        let start = runs.runs.len();
        let mut anywhere = false;
        let from = payers.partition_point(|p| p.0 < slot);
        for &(_, _, negated, t) in payers[from..].iter().take_while(|p| p.0 == slot) {
            let v = match negated {
                true if val > 1 => {
                    anywhere = true;
                    break;
                }
                true => 1 - val,
                false => val,
            };
            for e in t.entries {
                let run = match *e {
                    Entry::Name(s, x) if x == v && !s.is_empty() => first_run(s),
                    Entry::Range { prefix, lo, hi, .. } if (lo..=hi).contains(&v) => first_run(prefix),
                    _ => continue,
                };
                if run.is_empty() {
                    anywhere = true;
                    break;
                }
                runs.runs.push(run);
            }
            if anywhere {
                break;
            }
        }
        // Each run once, and none that a shorter one starts: where it occurs, the shorter
        // occurs at the same place (with or without case), so it moves no answer.
        let mut kept = runs.runs.split_off(start);
        kept.sort_by_key(|r| (r.len(), *r));
        kept.dedup();
        for (i, run) in kept.iter().enumerate() {
            if !kept[..i].iter().any(|shorter| run.starts_with(shorter)) {
                runs.runs.push(run);
            }
        }
        let n = if anywhere { u32::MAX } else { (runs.runs.len() - start) as u32 };
        if anywhere {
            runs.runs.truncate(start);
        }
        let entry = (slot, val, start as u32, n);
        runs.by_value.push(entry);
        spelled(&entry)
    }
}

impl Payers {
    /// Where in `text` the last name that may spell out field `slot`, whose value is `val`,
    /// starts ([`Payers::may_spell`]: the first run of one of its names): `Some(usize::MAX)`
    /// where any rest of the text may spell it (an unknown value, a name with no run, no
    /// payers known), `None` where no rest can. [`Payers::may_spell`] of `text[pos..]` is then
    /// whether this is `Some(at)` with `at >= pos`: an occurrence in the rest is one in `text`
    /// at or after `pos`, and the converse. `tables` keeps where each run ([`Runs`], by its
    /// address and length) last occurs in `text`, shared by the fields and formats asking.
    pub(super) fn last_spelling(
        &self,
        slot: Slot,
        val: Option<u64>,
        text: &str,
        fold: bool,
        tables: &mut Vec<(usize, u64, Option<usize>)>,
    ) -> Option<usize> {
        let (Some(payers), Some(val)) = (&self.0, val) else { return Some(usize::MAX) };
        let runs = &mut *self.1.borrow_mut();
        let range = match Self::runs(payers, runs, slot, val) {
            Spelled::Anywhere => return Some(usize::MAX),
            Spelled::Runs(r) => r,
        };
        let mut last = None;
        for run in &runs.runs[range] {
            // Keyed by the run's address and length: the tables of a text share their runs.
            let key = run.as_ptr() as usize;
            let at = match tables.iter().find(|e| e.0 == key && e.1 == run.len() as u64) {
                Some(e) => e.2,
                None => {
                    let at = rfind(text, run, fold);
                    tables.push((key, run.len() as u64, at));
                    at
                }
            };
            last = last.max(at);
        }
        last
    }
}

/// Where the last occurrence of `needle` (not empty) in `hay` starts (ASCII case ignored when
/// `fold`): a plain scan, the texts and names being short.
fn rfind(hay: &str, needle: &str, fold: bool) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let first = n[0];
    let len = n.len();
    if len > h.len() {
        return None;
    }
    let mut i = h.len() - len + 1;
    while i > 0 {
        i -= 1;
        let c = h[i];
        let hit = match fold {
            false => c == first && &h[i..i + len] == n,
            true => c.eq_ignore_ascii_case(&first) && h[i..i + len].eq_ignore_ascii_case(n),
        };
        if hit {
            return Some(i);
        }
    }
    None
}

/// The text at the start of spelling `s` (after its blanks) that a match has in one piece: up
/// to a blank or a separator ([`spelled`] skips blanks at both).
fn first_run(s: &str) -> &str {
    let s = s.trim_start_matches(' ');
    let end =
        s.bytes().enumerate().position(|(i, c)| c == b' ' || (i > 0 && separator(c))).unwrap_or(s.len());
    &s[..end]
}

/// [`Payers`] of each (format, syntax) read so far, kept from one parse to the next.
#[derive(Default)]
pub(super) struct PayersOf {
    by_syntax: alloc::collections::BTreeMap<(usize, usize), Payers>,
}

impl PayersOf {
    pub(super) fn take(&mut self, format: &Format, syntax: &'static Syntax) -> Payers {
        let key = (format as *const Format as usize, syntax as *const Syntax as usize);
        self.by_syntax.remove(&key).unwrap_or_else(|| Payers::of(syntax))
    }

    pub(super) fn give_back(&mut self, format: &Format, syntax: &'static Syntax, payers: Payers) {
        let key = (format as *const Format as usize, syntax as *const Syntax as usize);
        self.by_syntax.insert(key, payers);
    }
}

/// What each condition deferred so far reads, by the condition's address: the fields it names
/// and the parameters it reads, so [`slot_bits`] through a frame is a few bit operations. The
/// descriptions are static, so answers hold from one parse to the next.
#[derive(Default)]
pub(super) struct ReadSets {
    /// (address, fields as [`slot_bits`] sets them, parameters read: bit `n` for `Param(n)`),
    /// address 0 for a free slot; a power of two of them, at most half full.
    slots: Vec<(usize, u64, u64)>,
    len: usize,
}

impl ReadSets {
    /// The fields `e` reads through `frame`, as [`slot_bits`] gives them.
    #[inline]
    pub(super) fn bits(&mut self, e: &'static Expr, frame: &[Bound]) -> u64 {
        let (fields, params) = self.shape(e);
        if params == u64::MAX {
            return slot_bits(e, frame);
        }
        fields | bound_slot_bits(params, frame)
    }

    fn shape(&mut self, e: &'static Expr) -> (u64, u64) {
        let key = e as *const Expr as usize;
        if 2 * (self.len + 1) > self.slots.len() {
            let size = (self.slots.len() * 2).max(64);
            let old = core::mem::replace(&mut self.slots, vec![(0, 0, 0); size]);
            for entry in old.into_iter().filter(|x| x.0 != 0) {
                let i = self.find(entry.0);
                self.slots[i] = entry;
            }
        }
        let i = self.find(key);
        if self.slots[i].0 != key {
            let (mut fields, mut params) = (0, 0);
            shape_of(e, &mut fields, &mut params);
            self.slots[i] = (key, fields, params);
            self.len += 1;
        }
        (self.slots[i].1, self.slots[i].2)
    }

    fn find(&self, key: usize) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        while self.slots[i].0 != 0 && self.slots[i].0 != key {
            i = (i + 1) & mask;
        }
        i
    }
}

/// The fields `e` names (bit `s % 64`) and the parameters it reads (bit `n`; all bits when a
/// parameter number is 64 or more).
fn shape_of(e: &Expr, fields: &mut u64, params: &mut u64) {
    match e {
        Expr::Field(s) => *fields |= 1 << (s % 64),
        Expr::Param(n) => *params |= if *n < 64 { 1 << n } else { u64::MAX },
        Expr::Int(_) | Expr::Pc => {}
        Expr::Not(x) | Expr::In(x, _) => shape_of(x, fields, params),
        Expr::And(xs) | Expr::Or(xs) => xs.iter().for_each(|x| shape_of(x, fields, params)),
        Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) => {
            shape_of(a, fields, params);
            shape_of(b, fields, params);
        }
        Expr::If(c, a, b) => {
            shape_of(c, fields, params);
            shape_of(a, fields, params);
            shape_of(b, fields, params);
        }
    }
}

/// The fields a leaf condition reads (a field, its negation, a comparison of one with a
/// constant), as [`slot_bits`] gives them, without [`ReadSets`]' table; `None` for others.
#[inline]
pub(super) fn leaf_bits(e: &Expr, frame: &[Bound]) -> Option<u64> {
    let named = |x: &Expr| matches!(x, Expr::Field(_) | Expr::Param(_));
    match e {
        Expr::Field(_) | Expr::Param(_) => Some(slot_bits(e, frame)),
        Expr::Not(x) if named(x) => Some(slot_bits(x, frame)),
        Expr::Cmp(_, a, b) if named(a) && matches!(**b, Expr::Int(_)) => Some(slot_bits(a, frame)),
        _ => None,
    }
}
