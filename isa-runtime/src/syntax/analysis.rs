//! Static analyses of a syntax, answered from the description alone before any text is read:
//! whether a text may match at all, the words every arm needs, the mnemonics and leads a
//! syntax starts with, what may follow each lead, and the bytes a text may hold. The format
//! index and the search's pruning use them; they never decide a reading, only rule one out.

use super::names::{is_word, Entry, Table};
use super::scan::takes_expression;
use super::tree::{Arm, Expr, Item, Show, Syntax};
use alloc::vec::Vec;

impl Syntax {
    /// Whether `text` can match: some arm has every word of its literals (runs without blanks,
    /// which the parser matches verbatim) somewhere in the text, and for each sub-syntax it
    /// calls an arm that can match likewise, and for each name table it shows a spelling whose
    /// words are all in the text. A quick rejection the assembler runs before parsing; it never
    /// rejects text the parser accepts.
    pub fn may_match(&self, text: &str, ignore_case: bool) -> bool {
        arms_may_match(self.arms, text, ignore_case, 0)
    }
}

fn arms_may_match(arms: &[Arm], text: &str, ignore_case: bool, depth: u32) -> bool {
    arms.iter().any(|arm| arm.items.iter().all(|item| item_may_match(item, text, ignore_case, depth)))
}

/// Whether every word of `s` (runs without blanks or separators, before which the text may
/// have blanks) is somewhere in `text`.
fn words_in(s: &str, text: &str, ignore_case: bool) -> bool {
    words(s).all(|w| contains(text, w, ignore_case))
}

/// The runs of a literal or spelling that the text holds verbatim: split at blanks and before
/// separators (`,` `;`), which the text may have blanks before (`nop;` is `nop` and `;`).
fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(' ').flat_map(|w| {
        let mut rest = w;
        core::iter::from_fn(move || {
            let cut =
                rest.bytes().enumerate().skip(1).find(|&(_, c)| separator(c)).map_or(rest.len(), |(i, _)| i);
            let (word, tail) = rest.split_at(cut);
            rest = tail;
            (!word.is_empty()).then_some(word)
        })
    })
}

/// A separator: inside a literal or spelling, blanks before it are skipped (`nop ;` reads as
/// the spelling `nop;`).
pub(super) fn separator(c: u8) -> bool {
    c == b',' || c == b';'
}

fn item_may_match(item: &Item, text: &str, ignore_case: bool, depth: u32) -> bool {
    match item {
        Item::Lit(s) => words_in(s, text, ignore_case),
        // A computed value is read as the printer's text, which may be any spelling.
        Item::Show(Expr::Arith(..) | Expr::If(..), _) => true,
        Item::Show(_, Show::Table(t)) => table_may_match(t, text, ignore_case),
        Item::Show(_, Show::TableIf(_, a, b)) => {
            table_may_match(a, text, ignore_case) || table_may_match(b, text, ignore_case)
        }
        Item::Show(_, Show::Num(_)) => true,
        Item::Call(sub, _) if depth < MNEMONIC_DEPTH => {
            arms_may_match(sub.arms, text, ignore_case, depth + 1)
        }
        Item::Call(..) | Item::Opt(..) | Item::AnyOrder(..) => true,
    }
}

/// Whether some spelling the parser reads from `t` has all its words in `text`.
fn table_may_match(t: &Table, text: &str, ignore_case: bool) -> bool {
    t.entries.iter().any(|e| match *e {
        Entry::Name(s, _) => words_in(s, text, ignore_case),
        // The prefix and suffix are matched as written, blanks included.
        Entry::Range { prefix, suffix, .. } => {
            (prefix.is_empty() || contains(text, prefix, ignore_case))
                && (suffix.is_empty() || contains(text, suffix, ignore_case))
        }
        Entry::Many(..) | Entry::Else(_) => false,
    })
}

impl Syntax {
    /// A word of literal text (a run without blanks, as [`Syntax::may_match`] takes them)
    /// that every arm needs somewhere in the text it reads: the longest of the first arm's
    /// that every other arm has too. `None` when the arms share none.
    pub fn required_word(&self) -> Option<&'static str> {
        let words = |arm: &'static Arm| {
            arm.items
                .iter()
                .filter_map(|item| if let Item::Lit(s) = item { Some(*s) } else { None })
                .flat_map(words)
        };
        let (first, rest) = self.arms.split_first()?;
        words(first).filter(|w| rest.iter().all(|arm| words(arm).any(|x| x == *w))).fold(
            None,
            |best: Option<&'static str>, w| match best {
                Some(b) if b.len() >= w.len() => Some(b),
                _ => Some(w),
            },
        )
    }
}

/// How the start of an item sequence reads, for finding mnemonics.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lead {
    /// It can match no text: what follows leads.
    Empty,
    /// It starts with a word (collected) or a number: a mnemonic, if any, is found there.
    Word,
    /// It starts with punctuation (a `@P0 ` guard): a prefix, skipped like an empty one.
    Prefix,
}

impl Syntax {
    /// The mnemonics of this syntax: the words (letters, digits, `_`) its arms can start with,
    /// after parts that can be empty and prefixes that start with punctuation; literal text and
    /// name-table spellings alike. Added to `out` in order, without repeats.
    pub fn mnemonics(&self, out: &mut Vec<&'static str>) {
        lead_of_arms(self.arms, out, 0);
    }
}

/// How deep calls are followed when collecting mnemonics (the checker rejects cycles; this
/// only bounds the walk).
pub(super) const MNEMONIC_DEPTH: u32 = 32;

fn lead_of_arms(arms: &'static [Arm], out: &mut Vec<&'static str>, depth: u32) -> Lead {
    let mut lead = Lead::Word;
    for arm in arms {
        match lead_of_items(arm.items, out, depth) {
            Lead::Word => {}
            _ => lead = Lead::Empty,
        }
    }
    lead
}

fn lead_of_items(items: &'static [Item], out: &mut Vec<&'static str>, depth: u32) -> Lead {
    for item in items {
        let lead = match item {
            Item::Lit(s) => lead_of_text(s, out),
            Item::Show(_, Show::Table(t)) => lead_of_table(t, out),
            Item::Show(_, Show::TableIf(_, a, b)) => match (lead_of_table(a, out), lead_of_table(b, out)) {
                (Lead::Word, Lead::Word) => Lead::Word,
                _ => Lead::Empty,
            },
            Item::Show(_, Show::Num(_)) => Lead::Word,
            Item::Call(sub, _) if depth < MNEMONIC_DEPTH => lead_of_arms(sub.arms, out, depth + 1),
            Item::Call(..) => Lead::Word,
            Item::Opt(_, body) | Item::AnyOrder(_, body) => {
                lead_of_items(body, out, depth + 1);
                Lead::Empty
            }
        };
        match lead {
            Lead::Word => return Lead::Word,
            // A prefix arm makes the whole sequence skippable for its caller.
            Lead::Prefix => return Lead::Prefix,
            Lead::Empty => {}
        }
    }
    Lead::Empty
}

fn lead_of_table(t: &'static Table, out: &mut Vec<&'static str>) -> Lead {
    let mut lead = Lead::Word;
    for e in t.entries {
        // A range's spellings are a prefix and a number (`r0`..`r3`): operands, not mnemonics.
        let Entry::Name(text, _) = *e else { continue };
        if lead_of_text(text, out) != Lead::Word {
            lead = Lead::Empty;
        }
    }
    lead
}

fn lead_of_text(s: &'static str, out: &mut Vec<&'static str>) -> Lead {
    let t = s.trim_start_matches([' ', '\t']);
    let word = &t[..t.bytes().take_while(|b| is_word(*b)).count()];
    if t.is_empty() {
        Lead::Empty
    } else if word.is_empty() {
        Lead::Prefix
    } else {
        if !out.contains(&word) {
            out.push(word);
        }
        Lead::Word
    }
}

impl Syntax {
    /// The texts one of which starts every text this syntax reads (after leading blanks),
    /// guards and conditions ignored, so a superset: literals and name-table spellings up to
    /// their first blank, through optional parts and sub-syntaxes. `None` when a reading may
    /// start with anything (a number, or nothing at all). The assembler indexes formats by
    /// them: a line is parsed only by the formats whose syntax can start it.
    pub fn leads(&self) -> Option<Vec<&'static str>> {
        let mut out = Vec::new();
        match leads_of_arms(self.arms, &mut out, 0, &mut Vec::new()) {
            // Collected with repeats (a template called at several places gives its leads
            // again); the first of each is kept, in order.
            Some(false) => {
                let mut seen = alloc::collections::BTreeSet::new();
                out.retain(|lead| seen.insert(*lead));
                Some(out)
            }
            _ => None,
        }
    }
}

/// Adds the leads of `arms` to `out`: whether one of them can read no text (so what follows
/// leads too), or `None` when a reading may start with anything.
/// Sub-syntaxes whose leads are in the list already: (address, depth walked at, whether one
/// of their readings can be empty).
type Walked = Vec<(usize, u32, bool)>;

fn leads_of_arms(
    arms: &'static [Arm],
    out: &mut Vec<&'static str>,
    depth: u32,
    walked: &mut Walked,
) -> Option<bool> {
    let mut empty = false;
    for arm in arms {
        empty |= leads_of_items(arm.items, out, depth, walked)?;
    }
    Some(empty)
}

fn leads_of_items(
    items: &'static [Item],
    out: &mut Vec<&'static str>,
    depth: u32,
    walked: &mut Walked,
) -> Option<bool> {
    for item in items {
        let empty = match item {
            Item::Lit(s) => lead_of(s, out),
            Item::Show(_, Show::Table(t)) => leads_of_table(t, out)?,
            Item::Show(_, Show::TableIf(_, a, b)) => leads_of_table(a, out)? | leads_of_table(b, out)?,
            Item::Show(_, Show::Num(_)) => return None,
            Item::Call(sub, _) if depth < MNEMONIC_DEPTH => {
                // A template called at several places gives the same leads each time: walked
                // once, and again only deeper than before (where the walk could reach the limit).
                let key = sub.arms.as_ptr() as usize;
                match walked.iter().find(|(k, d, _)| *k == key && depth < *d) {
                    Some(&(_, _, empty)) => empty,
                    None => {
                        let empty = leads_of_arms(sub.arms, out, depth + 1, walked)?;
                        walked.push((key, depth + 1, empty));
                        empty
                    }
                }
            }
            Item::Call(..) => return None,
            Item::Opt(_, body) => {
                leads_of_items(body, out, depth + 1, walked)?;
                true
            }
            // Each group (an optional one) may come first, without a separator.
            Item::AnyOrder(_, groups) => {
                for g in groups.iter() {
                    leads_of_items(core::slice::from_ref(g), out, depth + 1, walked)?;
                }
                true
            }
        };
        if !empty {
            return Some(false);
        }
    }
    Some(true)
}

fn leads_of_table(t: &'static Table, out: &mut Vec<&'static str>) -> Option<bool> {
    let mut empty = false;
    for e in t.entries {
        match *e {
            Entry::Name(s, _) => empty |= lead_of(s, out),
            // A range's spelling without a prefix starts with its number.
            Entry::Range { prefix, .. } => {
                if lead_of(prefix, out) {
                    return None;
                }
            }
            // Printed, never read.
            Entry::Many(..) | Entry::Else(_) => {}
        }
    }
    Some(empty)
}

/// Adds the lead of a literal or spelling `s` to `out`, repeats and all (what it reads up to its
/// first blank, which may match no blanks): whether it reads only blanks.
fn lead_of(s: &'static str, out: &mut Vec<&'static str>) -> bool {
    // Only a space matches blanks; the text's own blanks before it are skipped.
    // The lead ends at a blank, or before a separator the text may have blanks before.
    let t = s.trim_start_matches(' ');
    let end =
        t.bytes().enumerate().skip(1).find(|&(_, c)| c == b' ' || separator(c)).map_or(t.len(), |(i, _)| i);
    let lead = &t[..end];
    if lead.is_empty() {
        return true;
    }
    out.push(lead);
    false
}

/// A set of bytes (bit `b` for byte `b`).
pub type Bytes = [u64; 4];

/// Every byte.
const ANY_BYTE: Bytes = [u64::MAX; 4];

fn add_byte(set: &mut Bytes, b: u8, fold: bool) {
    set[usize::from(b / 64)] |= 1 << (b % 64);
    if fold && b.is_ascii_alphabetic() {
        let o = b ^ 0x20;
        set[usize::from(o / 64)] |= 1 << (o % 64);
    }
}

fn union(set: &mut Bytes, other: &Bytes) {
    set.iter_mut().zip(other).for_each(|(a, b)| *a |= b);
}

/// Whether `set` has byte `b`.
pub fn has_byte(set: &Bytes, b: u8) -> bool {
    set[usize::from(b / 64)] >> (b % 64) & 1 == 1
}

/// Where a walk for [`Syntax::lead_follows`] goes on once an item list is read: the rest of
/// an enclosing list (from an index), or anywhere (`None`: after a group read in any order).
type Then = Option<(&'static [Item], usize)>;

/// Leads, each with the bytes that may follow it ([`Syntax::lead_follows`]).
type Follows = Vec<(&'static str, Bytes)>;

impl Syntax {
    /// For each lead of [`Syntax::leads`] (found the same way, guards ignored), the bytes
    /// that may come right after it in a text this syntax reads: the first bytes of what can
    /// follow it, always with blanks; every byte after a lead cut short at a blank or a
    /// separator, before a number, or at the end of the syntax. A lead found at several places
    /// is listed once for each. `None` where [`Syntax::leads`] gives none. With the leads, the
    /// assembler's format index tells `IADD32I` from `IADD` (whose `IADD` is followed by `.`,
    /// a blank or a register).
    pub fn lead_follows(&self, ignore_case: bool) -> Option<Follows> {
        let mut out = Vec::new();
        match follows_of_arms(self.arms, &mut Vec::new(), 0, ignore_case, &mut out)? {
            false => Some(out),
            true => None,
        }
    }
}

fn follows_of_arms(
    arms: &'static [Arm],
    then: &mut Vec<Then>,
    depth: u32,
    fold: bool,
    out: &mut Follows,
) -> Option<bool> {
    let mut empty = false;
    for arm in arms {
        empty |= follows_of_items(arm.items, then, depth, fold, out)?;
    }
    Some(empty)
}

/// As [`leads_of_items`], each lead with what may follow it.
fn follows_of_items(
    items: &'static [Item],
    then: &mut Vec<Then>,
    depth: u32,
    fold: bool,
    out: &mut Follows,
) -> Option<bool> {
    for (i, item) in items.iter().enumerate() {
        // What follows the item, the same for each of its spellings: found once.
        let mut after = None;
        let mut spelling = |s: &'static str, out: &mut Follows| {
            let mut leads = Vec::new();
            let empty = lead_of(s, &mut leads);
            for lead in leads {
                // A lead that is the whole spelling is followed by what follows the item.
                let whole = s.trim_start_matches(' ') == lead;
                let follow = match whole {
                    true => *after.get_or_insert_with(|| first_after(items, i + 1, then, depth, fold)),
                    false => ANY_BYTE,
                };
                out.push((lead, follow));
            }
            empty
        };
        let empty = match item {
            Item::Lit(s) => spelling(s, out),
            Item::Show(_, Show::Table(t)) => follows_of_table(t, &mut spelling, out)?,
            Item::Show(_, Show::TableIf(_, a, b)) => {
                follows_of_table(a, &mut spelling, out)? | follows_of_table(b, &mut spelling, out)?
            }
            Item::Show(_, Show::Num(_)) => return None,
            Item::Call(sub, _) if depth < MNEMONIC_DEPTH => {
                then.push(Some((items, i + 1)));
                let empty = follows_of_arms(sub.arms, then, depth + 1, fold, out);
                then.pop();
                empty?
            }
            Item::Call(..) => return None,
            Item::Opt(_, body) => {
                then.push(Some((items, i + 1)));
                let r = follows_of_items(body, then, depth + 1, fold, out);
                then.pop();
                r?;
                true
            }
            Item::AnyOrder(_, groups) => {
                // After a group, another (or the separator before it) may come: anything may follow.
                then.push(None);
                let r = groups.iter().try_for_each(|g| {
                    follows_of_items(core::slice::from_ref(g), then, depth + 1, fold, out).map(|_| ())
                });
                then.pop();
                r?;
                true
            }
        };
        if !empty {
            return Some(false);
        }
    }
    Some(true)
}

fn follows_of_table(
    t: &'static Table,
    spelling: &mut dyn FnMut(&'static str, &mut Follows) -> bool,
    out: &mut Follows,
) -> Option<bool> {
    let mut empty = false;
    for e in t.entries {
        match *e {
            Entry::Name(s, _) => empty |= spelling(s, out),
            // A number follows the prefix.
            Entry::Range { prefix, .. } => {
                let mut leads = Vec::new();
                if lead_of(prefix, &mut leads) {
                    return None;
                }
                out.extend(leads.into_iter().map(|lead| (lead, ANY_BYTE)));
            }
            Entry::Many(..) | Entry::Else(_) => {}
        }
    }
    Some(empty)
}

/// The bytes that may start the text read from `items[i..]` on, then what `then` says comes
/// next (innermost last), with blanks; every byte at the end of the syntax.
fn first_after(items: &'static [Item], i: usize, then: &[Then], depth: u32, fold: bool) -> Bytes {
    let mut set = [0; 4];
    add_byte(&mut set, b' ', false);
    add_byte(&mut set, b'\t', false);
    let mut next = Some((items, i));
    let mut rest = then.len();
    loop {
        let Some((items, i)) = next else { return ANY_BYTE };
        let (first, empty) = first_of_items(&items[i.min(items.len())..], depth, fold);
        union(&mut set, &first);
        if !empty {
            return set;
        }
        if rest == 0 {
            return ANY_BYTE;
        }
        rest -= 1;
        next = then[rest];
    }
}

/// The bytes a text read by `items` may start with (blanks aside), and whether it may be
/// empty.
fn first_of_items(items: &'static [Item], depth: u32, fold: bool) -> (Bytes, bool) {
    let mut set = [0; 4];
    for item in items {
        let (first, empty) = first_of_item(item, depth, fold);
        union(&mut set, &first);
        if !empty {
            return (set, false);
        }
    }
    (set, true)
}

fn first_of_item(item: &'static Item, depth: u32, fold: bool) -> (Bytes, bool) {
    let text = |s: &str, set: &mut Bytes| match s.trim_start_matches(' ').bytes().next() {
        Some(b) => {
            add_byte(set, b, fold);
            false
        }
        None => true,
    };
    let table = |t: &Table, set: &mut Bytes| {
        let mut empty = false;
        for e in t.entries {
            match *e {
                Entry::Name(s, _) => empty |= text(s, set),
                Entry::Range { prefix, .. } => {
                    if text(prefix, set) {
                        *set = ANY_BYTE;
                    }
                }
                Entry::Many(..) | Entry::Else(_) => {}
            }
        }
        empty
    };
    let mut set = [0; 4];
    let empty = match item {
        Item::Lit(s) => text(s, &mut set),
        // A computed value is read as the printer's text.
        Item::Show(Expr::Arith(..) | Expr::If(..), _) | Item::Show(_, Show::Num(_)) => {
            return (ANY_BYTE, true)
        }
        Item::Show(_, Show::Table(t)) => table(t, &mut set),
        Item::Show(_, Show::TableIf(_, a, b)) => table(a, &mut set) | table(b, &mut set),
        Item::Call(sub, _) if depth < MNEMONIC_DEPTH => {
            let mut empty = false;
            for arm in sub.arms {
                let (first, e) = first_of_items(arm.items, depth + 1, fold);
                union(&mut set, &first);
                empty |= e;
            }
            empty
        }
        Item::Call(..) => return (ANY_BYTE, true),
        Item::Opt(_, body) => {
            set = first_of_items(body, depth + 1, fold).0;
            true
        }
        Item::AnyOrder(_, groups) => {
            set = first_of_items(groups, depth + 1, fold).0;
            for g in groups.iter() {
                union(&mut set, &first_of_item(g, depth + 1, fold).0);
            }
            true
        }
    };
    (set, empty)
}

impl Syntax {
    /// The bytes a text this syntax reads whole may hold: blanks, the bytes of its literals
    /// and of the spellings of its tables (a range's prefix, suffix, sign and digits), and for
    /// a number what a number, a label or an echoed value is written with (letters, digits,
    /// `_`, `.`, `-`, `+`); with `ignore_case`, both cases of each letter. Also whether a
    /// number of it takes an expression where the context has a reader for them
    /// ([`Context::expression`](super::Context::expression)): such a number may hold any byte. A text holding a byte not
    /// in the set is no reading of this syntax, whatever reads it (the quick reader or the
    /// search): the assembler's format index leaves such formats out.
    pub fn text_bytes(&self, ignore_case: bool) -> (Bytes, bool) {
        let mut set = [0; 4];
        add_byte(&mut set, b' ', false);
        add_byte(&mut set, b'\t', false);
        let mut expressions = false;
        let mut seen = Vec::new();
        bytes_of_arms(self, ignore_case, &mut seen, &mut set, &mut expressions);
        (set, expressions)
    }
}

/// How many items [`Syntax::comma_follows`] looks at before it gives up.
const COMMA_WALK: u32 = 20_000;

impl Syntax {
    /// The bytes that may come first after a `,` of a text this syntax reads whole, blanks
    /// skipped: for each `,` of a literal or a name, the next character of it other than a
    /// blank, else the first bytes of what may follow the literal or name (every byte at the
    /// end of the syntax, after a group read in any order, or where the walk is too long or
    /// too deep). A number holds no `,`, and an expression only inside parentheses (a
    /// function's arguments, [`crate::expr`]): the assembler's format index leaves out a
    /// format for a text with a `,` outside parentheses followed by a byte not in the set
    /// (Maxwell's `FFMA R12, R12, 0.25, -R15` for the register form `ffma_r`, whose operands
    /// start with `R`, `-`, `|` or `!`). `None`: a text may have a `,` anywhere.
    pub fn comma_follows(&self, ignore_case: bool) -> Option<Bytes> {
        let mut walk = CommaWalk { budget: COMMA_WALK, set: [0; 4], tables: Default::default() };
        for arm in self.arms {
            commas_of_items(arm.items, &mut Vec::new(), 0, ignore_case, &mut walk)?;
        }
        Some(walk.set)
    }
}

/// What [`Syntax::comma_follows`] works with: the items it may still look at, the bytes
/// found, and whether each table met has a `,` in a spelling (by address; a table is met at
/// every place it is shown).
struct CommaWalk {
    budget: u32,
    set: Bytes,
    tables: alloc::collections::BTreeMap<usize, bool>,
}

/// [`Syntax::comma_follows`] of `items`, then what `then` says comes next; `None` where the
/// walk gives up.
fn commas_of_items(
    items: &'static [Item],
    then: &mut Vec<Then>,
    depth: u32,
    fold: bool,
    walk: &mut CommaWalk,
) -> Option<()> {
    for (i, item) in items.iter().enumerate() {
        walk.budget = walk.budget.checked_sub(1)?;
        let text = |s: &str, set: &mut Bytes| {
            for (j, _) in s.match_indices(',') {
                match s[j + 1..].bytes().find(|b| *b != b' ' && *b != b'\t') {
                    Some(b) => add_byte(set, b, fold),
                    None => union(set, &first_after(items, i + 1, then, depth, fold)),
                }
            }
        };
        let table = |t: &Table, walk: &mut CommaWalk| {
            let spellings = || {
                t.entries.iter().flat_map(|e| match *e {
                    Entry::Name(s, _) => [s, ""],
                    Entry::Range { prefix, suffix, .. } => [prefix, suffix],
                    Entry::Many(..) | Entry::Else(_) => ["", ""],
                })
            };
            let commas = *walk
                .tables
                .entry(t as *const Table as usize)
                .or_insert_with(|| spellings().any(|s| s.contains(',')));
            if commas {
                spellings().for_each(|s| text(s, &mut walk.set));
            }
        };
        match item {
            Item::Lit(s) => text(s, &mut walk.set),
            Item::Show(_, Show::Num(_)) => {}
            Item::Show(_, Show::Table(t)) => table(t, walk),
            Item::Show(_, Show::TableIf(_, a, b)) => {
                table(a, walk);
                table(b, walk);
            }
            Item::Call(_, _) if depth >= MNEMONIC_DEPTH => return None,
            Item::Call(sub, _) => {
                then.push(Some((items, i + 1)));
                let r = sub
                    .arms
                    .iter()
                    .try_for_each(|arm| commas_of_items(arm.items, then, depth + 1, fold, walk));
                then.pop();
                r?;
            }
            Item::Opt(_, body) => {
                then.push(Some((items, i + 1)));
                let r = commas_of_items(body, then, depth + 1, fold, walk);
                then.pop();
                r?;
            }
            Item::AnyOrder(between, groups) => {
                // After a group, another (or the text between) may come: anything may follow.
                if between.contains(',') {
                    return None;
                }
                then.push(None);
                let r = groups
                    .iter()
                    .try_for_each(|g| commas_of_items(core::slice::from_ref(g), then, depth + 1, fold, walk));
                then.pop();
                r?;
            }
        }
    }
    Some(())
}

/// [`Syntax::text_bytes`] of `syntax`, each sub-syntax walked once (`seen`).
fn bytes_of_arms(
    syntax: &Syntax,
    fold: bool,
    seen: &mut Vec<*const Syntax>,
    set: &mut Bytes,
    expressions: &mut bool,
) {
    if seen.contains(&(syntax as *const Syntax)) {
        return;
    }
    seen.push(syntax);
    for arm in syntax.arms {
        bytes_of_items(arm.items, fold, seen, set, expressions);
    }
}

fn bytes_of_items(
    items: &'static [Item],
    fold: bool,
    seen: &mut Vec<*const Syntax>,
    set: &mut Bytes,
    expressions: &mut bool,
) {
    let text = |s: &str, set: &mut Bytes| s.bytes().for_each(|b| add_byte(set, b, fold));
    let number = |set: &mut Bytes| {
        (0..=255u8)
            .filter(|b| b.is_ascii_alphanumeric() || b"_.-+".contains(b))
            .for_each(|b| add_byte(set, b, false))
    };
    let table = |t: &Table, set: &mut Bytes| {
        for e in t.entries {
            match *e {
                Entry::Name(s, _) => text(s, set),
                Entry::Range { prefix, suffix, .. } => {
                    text(prefix, set);
                    text(suffix, set);
                    text("+-0123456789", set);
                }
                Entry::Many(..) | Entry::Else(_) => {}
            }
        }
    };
    for item in items {
        match item {
            Item::Lit(s) => text(s, set),
            Item::Show(_, Show::Num(n)) => {
                number(set);
                *expressions |= takes_expression(n);
            }
            Item::Show(_, Show::Table(t)) => table(t, set),
            Item::Show(_, Show::TableIf(_, a, b)) => {
                table(a, set);
                table(b, set);
            }
            Item::Call(sub, _) => bytes_of_arms(sub, fold, seen, set, expressions),
            Item::Opt(_, body) => bytes_of_items(body, fold, seen, set, expressions),
            Item::AnyOrder(between, groups) => {
                text(between, set);
                bytes_of_items(groups, fold, seen, set, expressions);
            }
        }
    }
}

/// Whether `needle` occurs in `hay` (ASCII case ignored when `ignore_case`).
pub(super) fn contains(hay: &str, needle: &str, ignore_case: bool) -> bool {
    if !ignore_case {
        return hay.contains(needle);
    }
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    n.len() <= h.len() && h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::fixtures::{FADD, GUARD, LINE, OP_REG, REG};
    use crate::syntax::names::{spelled, Entry, Table};
    use crate::syntax::tree::{Arm, Expr, Item, Num, Show, Syntax};

    #[test]
    fn mnemonics_are_the_leading_words_after_empty_parts_and_prefixes() {
        let mut m = Vec::new();
        LINE.mnemonics(&mut m);
        // The guard's `@` arm is a prefix and its empty arm nothing: `MOV` leads. An empty
        // spelling lets `read` lead; a table's names lead; a range (`R0`..`R254`) is an
        // operand, but its table's single name `RZ` is a word like any other.
        assert_eq!(m, ["MOV", "nop", "read", "fadd", "add", "RZ"]);
        let mut m = Vec::new();
        FADD.mnemonics(&mut m);
        assert_eq!(m, ["FADD"]);
    }

    #[test]
    fn leads_are_what_every_reading_starts_with() {
        // The guard may be empty (`MOV` leads) or start with `@`; an empty spelling lets
        // `read` lead too; a range leads with its prefix.
        assert_eq!(LINE.leads().as_deref(), Some(&["@", "MOV", "nop", "read", "fadd", "add", "R", "RZ"][..]));
        assert_eq!(FADD.leads().as_deref(), Some(&["FADD.FTZ", "FADD"][..]));
        // A syntax that can read nothing, or starts with a number, may start with anything.
        assert_eq!(GUARD.leads(), None);
        static NUMBER: Syntax = Syntax {
            name: "number",
            arms: &[Arm {
                guard: None,
                alias: false,
                items: &[Item::Show(&Expr::Int(0), Show::Num(Num::Dec))],
            }],
        };
        assert_eq!(NUMBER.leads(), None);
        static BARE: Table = Table {
            name: "Bare",
            entries: &[Entry::Range { prefix: "", suffix: "", lo: 0, hi: 3, shift: 0 }],
        };
        static RANGE: Syntax = Syntax {
            name: "range",
            arms: &[Arm {
                guard: None,
                alias: false,
                items: &[Item::Lit(" "), Item::Show(&Expr::Int(0), Show::Table(&BARE))],
            }],
        };
        assert_eq!(RANGE.leads(), None);
    }

    #[test]
    fn lead_follows_are_the_bytes_that_may_come_after_each_lead() {
        // `IADD`, then `.X` or blanks or a register (a blank in a literal may match none):
        // never a digit, so `IADD32I` is not read.
        static IADD: Syntax = Syntax {
            name: "iadd",
            arms: &[Arm {
                guard: None,
                alias: false,
                items: &[
                    Item::Call(&GUARD, &[]),
                    Item::Lit("IADD"),
                    Item::Opt(&Expr::Int(1), &[Item::Lit(".X")]),
                    Item::Lit(" "),
                    Item::Show(&Expr::Int(0), Show::Table(&REG)),
                ],
            }],
        };
        let follows = IADD.lead_follows(false).expect("leads");
        let of = |lead: &str| follows.iter().find(|(l, _)| *l == lead).map(|(_, f)| *f).expect("a lead");
        let iadd = of("IADD");
        for b in [b'.', b' ', b'\t', b'R'] {
            assert!(has_byte(&iadd, b), "{}", b as char);
        }
        for b in [b'3', b'X', b'r', b','] {
            assert!(!has_byte(&iadd, b), "{}", b as char);
        }
        // With case ignored, `r` may follow too.
        assert!(has_byte(&IADD.lead_follows(true).expect("leads")[1].1, b'r'));
        // The guard's `@` is followed by a register; `FADD.FTZ ` is cut at its blank, and a
        // lead at the end of the syntax may be followed by anything.
        assert_eq!(of("@"), {
            let mut set = [0; 4];
            for b in [b' ', b'\t', b'R'] {
                add_byte(&mut set, b, false);
            }
            set
        });
        let fadd = FADD.lead_follows(false).expect("leads");
        assert!(fadd.iter().all(|(_, f)| *f == ANY_BYTE), "{fadd:?}");
        assert_eq!(GUARD.lead_follows(false), None);
    }

    #[test]
    fn required_words_are_literal_words_every_arm_has() {
        // FADD's arms share `FADD` only (`FADD.FTZ` is one word of the first arm).
        static BOTH: Syntax = Syntax {
            name: "both",
            arms: &[
                Arm { guard: None, alias: false, items: &[Item::Lit("FADD.FTZ "), Item::Lit(" , ")] },
                Arm { guard: None, alias: false, items: &[Item::Lit("FADD "), Item::Lit(", ")] },
            ],
        };
        assert_eq!(BOTH.required_word(), Some(","));
        assert_eq!(FADD.required_word(), None);
        // The longest word the arm needs.
        static ONE: Syntax = Syntax {
            name: "one",
            arms: &[Arm {
                guard: None,
                alias: false,
                items: &[Item::Call(&GUARD, &[]), Item::Lit("MOV32I "), Item::Lit(", ")],
            }],
        };
        assert_eq!(ONE.required_word(), Some("MOV32I"));
        // Words inside calls and optional groups are not needed.
        assert_eq!(GUARD.required_word(), None);
    }

    #[test]
    fn may_match_needs_a_spelling_of_every_table_and_sub_syntax() {
        assert!(OP_REG.may_match("@R1 add R2", false));
        assert!(OP_REG.may_match("fadd RZ", false));
        // No spelling of `OP` anywhere.
        assert!(!OP_REG.may_match("sub R2", false));
        // No register: neither the range's prefix `R` nor `RZ`.
        assert!(!OP_REG.may_match("add x", false));
        assert!(OP_REG.may_match("ADD r2", true));
    }

    #[test]
    fn may_match_needs_every_literal_word_of_some_arm() {
        assert!(FADD.may_match("FADD.FTZ R0, R1", false));
        // The second arm: its optional `.SAT` is not required.
        assert!(FADD.may_match("FADD R0", false));
        assert!(!FADD.may_match("FMUL R0, R1", false));
        assert!(!FADD.may_match("fadd r0", false));
        assert!(FADD.may_match("fadd r0", true));
        assert!(FADD.may_match("Fadd.ftz r0, r1", true));
        assert!(!FADD.may_match("FAD", true));
    }

    #[test]
    fn blanks_before_a_separator_inside_a_spelling_are_skipped() {
        // vc4asm's `nop ; nop` is the spelling `nop; nop`; other punctuation stays verbatim.
        assert_eq!(spelled("nop ; nop", "nop; nop", false), Some(9));
        assert_eq!(spelled("nop;nop", "nop; nop", false), Some(7));
        assert_eq!(spelled("a , b", "a, b", false), Some(5));
        assert_eq!(spelled("r0 .8a", "r0.8a", false), None);
        assert_eq!(spelled("> >1", ">>1", false), None);
        assert_eq!(words("nop; nop;").collect::<Vec<_>>(), ["nop", ";", "nop", ";"]);
        assert_eq!(words(";  read").collect::<Vec<_>>(), [";", "read"]);
        let mut leads = Vec::new();
        lead_of("nop; ", &mut leads);
        assert_eq!(leads, ["nop"]);
    }
}
