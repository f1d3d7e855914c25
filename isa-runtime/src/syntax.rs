//! The bidirectional syntax engine.
//!
//! A dialect's syntax for an encoding is a [`Syntax`]: ordered arms, each an optional guard and
//! a sequence of [`Item`]s (literals, field values shown through name tables or number formats,
//! calls of named sub-syntaxes, optional groups). The same static description is
//!
//! - **printed** ([`print`]): the first arm whose guard holds is written out; and
//! - **parsed** ([`parse`]): a backtracking matcher reads text into field values. Guards and the
//!   conditions of optional groups are *solved*: `field == value` assigns the field, `!flag`
//!   clears it, disjunctions become choices, and what cannot be solved yet is checked once every
//!   field is known (after defaults).
//!
//! Parsing in more detail:
//!
//! - A text that no reading of the syntax matches when guards are ignored (a context-free
//!   superset, decided by memoised recognition) fails at once, with the furthest position any
//!   reading reached.
//! - Where only success matters (the assembler trying formats), an arm, an optional group
//!   (present or absent) or a name is not tried when the text after it could not be read,
//!   guards ignored, judged by its next token: the search keeps a stack of what follows the
//!   item at hand, and a memoised first-token check of each item list at each position rules
//!   out most arms before their guards are solved. Name tables are indexed by the character a
//!   spelling starts with.
//! - Choices (`a || b`, `!(a && b)`) are deferred while the text is read and made after it, so
//!   a line fails in its text once rather than once per combination of choices; a deferred
//!   condition that an assignment decides wrongly ends that reading at once.
//! - Names are matched like literals (a blank matches any run of blanks); a table's first
//!   spelling of a value is printed, all are accepted. An empty spelling of a value the table
//!   prints as text means "written at another place of the line" and must be matched by a
//!   non-empty spelling of the same field elsewhere. Where only success matters, such a
//!   reading ends at once when nothing after it can spell the field out: no name table that
//!   shows the field follows in the syntax, or none of their names for the value occurs in the
//!   rest of the text (the quick reader judges the text alike).
//! - Numbers skip blanks before them (unless they follow a letter or digit); a signed field
//!   takes its signed range, an unsigned one also the negative numbers of its width; a 32-bit
//!   hole reads a literal with a fraction or an exponent as an IEEE single.
//! - A number shown for a field the line has already given is an echo (Mesa's `0x3f800000
//!   (1.000000)`): it must be the printer's text for that value, which it then agrees with.
//!
//! - Before the search, the assembler asks the quick reader ([`quick_in`]), which reads the
//!   common line without backtracking machinery: it walks the readings the items allow,
//!   makes the assignments that guards state outright, and checks the other conditions once
//!   on the values with defaults. It walks them in the search's order: where the first
//!   reading it finds settles (its checks hold on the defaults), that is the search's reading;
//!   where it finds none, the search finds none; anything else is left to the search.
//!
//! Because both directions walk one description, `parse(print(x)) == x` holds whenever the
//! printed text determines every field, which the generated targets' property tests check on
//! random words.

use crate::expr::Value;
use crate::format::Format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::{self, Write};

/// Index of a field in its format's field list.
pub type Slot = u16;

/// A condition or value over the fields of the instruction being printed or parsed.
#[derive(Debug)]
pub enum Expr {
    /// A constant.
    Int(i64),
    /// A field's raw value.
    Field(Slot),
    /// A parameter of the enclosing sub-syntax.
    Param(u8),
    /// The address of the instruction (for pc-relative operands).
    Pc,
    /// Logical not (0 ↔ 1).
    Not(&'static Expr),
    /// All must hold.
    And(&'static [Expr]),
    /// At least one must hold.
    Or(&'static [Expr]),
    /// A comparison.
    Cmp(Cmp, &'static Expr, &'static Expr),
    /// Integer arithmetic.
    Arith(Arith, &'static Expr, &'static Expr),
    /// `if c then a else b`.
    If(&'static Expr, &'static Expr, &'static Expr),
    /// Membership in inclusive ranges.
    In(&'static Expr, &'static [(i64, i64)]),
}

/// Arithmetic operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arith {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
}

/// Comparison operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// A named syntax: ordered arms, the first whose guard holds is printed.
#[derive(Debug)]
pub struct Syntax {
    /// Name in the spec (the format's name for a top-level syntax).
    pub name: &'static str,
    /// The arms, in order.
    pub arms: &'static [Arm],
}

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
fn separator(c: u8) -> bool {
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
const MNEMONIC_DEPTH: u32 = 32;

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
    /// ([`Context::expression`]): such a number may hold any byte. A text holding a byte not
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

/// The token at `pos` of `text` (after blanks), as (start, length): a run of characters up
/// to a blank, `,` or `;`, or that one punctuation character; length 0 at the end of the text.
/// A number followed by punctuation is the number alone (`16` of `tram16.xyzw`'s `16.xyzw`).
pub fn token_at(text: &str, pos: usize) -> (usize, usize) {
    let start = skip_blanks(text, pos.min(text.len()));
    let rest = &text[start..];
    let len = match rest.find([' ', '\t', ',', ';']) {
        Some(0) => 1,
        Some(n) => n,
        None => rest.len(),
    };
    let number = scan_float(rest).map(|(_, l)| l).into_iter().chain(scan_integer(rest).map(|(_, l)| l)).max();
    match number {
        Some(n) if n < len && !rest[n..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') => {
            (start, n)
        }
        _ => (start, len),
    }
}

/// Whether `needle` occurs in `hay` (ASCII case ignored when `ignore_case`).
fn contains(hay: &str, needle: &str, ignore_case: bool) -> bool {
    if !ignore_case {
        return hay.contains(needle);
    }
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    n.len() <= h.len() && h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

/// One arm of a [`Syntax`].
#[derive(Debug)]
pub struct Arm {
    /// When this arm applies; `None` always applies.
    pub guard: Option<&'static Expr>,
    /// What is printed / parsed.
    pub items: &'static [Item],
    /// Read by the assembler, never printed: another spelling of what an earlier arm prints.
    pub alias: bool,
}

/// One element of a syntax sequence.
#[derive(Debug)]
pub enum Item {
    /// Literal text. A space matches any run of blanks (including none) when parsing.
    Lit(&'static str),
    /// A field (or parameter) shown in some way.
    Show(&'static Expr, Show),
    /// A named sub-syntax, called with arguments (fields, negated fields, constants).
    Call(&'static Syntax, &'static [Expr]),
    /// An optional group: printed when the condition holds; when parsing, its presence makes
    /// the condition true and its absence makes it false.
    Opt(&'static Expr, &'static [Item]),
    /// Optional groups (each an [`Item::Opt`]) read in any order, each at most once; printed
    /// in the order written. The text (empty: none) stands between the groups written.
    AnyOrder(&'static str, &'static [Item]),
}

/// How a value is shown.
#[derive(Debug)]
pub enum Show {
    /// Through a name table.
    Table(&'static Table),
    /// Through one of two name tables, chosen by a condition (e.g. register file by `ws`).
    TableIf(&'static Expr, &'static Table, &'static Table),
    /// As a number.
    Num(Num),
}

/// Number display styles.
#[derive(Debug, Clone, Copy)]
pub enum Num {
    /// Unsigned decimal.
    Dec,
    /// Unsigned decimal with at least `digits` digits (zero-padded).
    DecPadded {
        /// Minimum digits.
        digits: u8,
    },
    /// Signed decimal of a `bits`-wide two's complement value, with `+` on positives if `plus`.
    Signed {
        /// Width of the value.
        bits: u32,
        /// Print a `+` before non-negative values.
        plus: bool,
    },
    /// Hexadecimal with at least `digits` digits, with a `0x` prefix if `prefix`.
    Hex {
        /// Minimum digits (zero-padded).
        digits: u8,
        /// Print `0x`.
        prefix: bool,
        /// Upper-case digits (`0x1A`).
        upper: bool,
    },
    /// Binary digits, at least `digits` of them (zero-padded), without a prefix.
    Bin {
        /// Minimum digits (zero-padded).
        digits: u8,
    },
    /// An IEEE single (the field's bits) printed like C's `%f`.
    CFloat,
    /// An integer in hexadecimal with `0x` and a `-` before negative values (`-0x60`): the
    /// field's `bits`-wide value, two's complement when `signed`, times `scale`. Parsing takes
    /// a number that is a multiple of `scale` (a word index shown as a byte offset).
    HexValue {
        /// Width of the field.
        bits: u32,
        /// Read the field as two's complement.
        signed: bool,
        /// What one unit of the field is worth.
        scale: u32,
    },
    /// A floating-point value (the field's bits in `format`) printed like C's `%.{precision}g`,
    /// or `%.{precision}e` when `exponent`. Parsing takes a decimal literal the format holds
    /// exactly.
    Float {
        /// The field's number format (a float or a fixed-point one).
        format: crate::number::Number,
        /// Digits (significant for `g`, after the point for `e`).
        precision: u8,
        /// `%e` rather than `%g`.
        exponent: bool,
    },
    /// A value in a declared number format (float or fixed point) as the shortest decimal
    /// that reads back to the same bits, always with a point and never with an exponent
    /// (`1.0`, `-0.5`, `0.099998474`): [`crate::number::Number::write_decimal`]. A value no
    /// decimal reads back to is not shown by this style: a guard must leave it to another arm.
    Decimal {
        /// The field's number format.
        format: crate::number::Number,
    },
    /// A pc-relative displacement shown as the absolute address `base + displacement`, in
    /// hexadecimal with `0x`: parsing takes an address or a label.
    Target {
        /// Width of the displacement.
        bits: u32,
        /// What the displacement is relative to (an expression over `Pc` and fields).
        base: &'static Expr,
        /// Upper-case digits, the sign after the prefix (`0x1A`, `0x-A`: Python's `'0x%X'`).
        upper: bool,
    },
    /// A signed pc-relative displacement: when parsing, a label name is also accepted and
    /// becomes `label address - base`.
    Label {
        /// Width of the displacement.
        bits: u32,
        /// What the displacement is relative to (an expression over `Pc` and fields).
        base: &'static Expr,
    },
}

/// A name table: spellings of a field's values in one dialect.
#[derive(Debug)]
pub struct Table {
    /// What the names are, for error messages ("register", "condition").
    pub name: &'static str,
    /// The entries, in order: the first that matches a value prints it.
    pub entries: &'static [Entry],
}

/// A [`Table`]'s entries by the character they start with ([`Table::index`]).
struct TableIndex {
    /// Entry numbers, by bucket and in table order within each.
    order: Vec<u32>,
    /// Where each bucket's run of `order` starts (the last ends where the next starts): 0 to
    /// 255 by the text's first character (lowercased), 256 to 511 by its first after blanks,
    /// 512 the entries that may match any text.
    starts: Vec<u32>,
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
        self.candidates_among(0..self.entries.len(), text, pos, fold, f)
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
    fn index(&self) -> TableIndex {
        let bucket = |e: &Entry| match Table::head(e) {
            Some((false, b)) => usize::from(b),
            Some((true, b)) => 256 + usize::from(b),
            None => 512,
        };
        let mut starts = vec![0u32; 514];
        for e in self.entries {
            starts[bucket(e) + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        let mut next = starts.clone();
        let mut order = vec![0u32; self.entries.len()];
        for (i, e) in self.entries.iter().enumerate() {
            let b = bucket(e);
            order[next[b] as usize] = i as u32;
            next[b] += 1;
        }
        TableIndex { order, starts }
    }

    /// [`Table::candidates`] through the table's [`Table::index`].
    fn candidates_indexed(
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
        // Mostly one run has entries: it is the order.
        let one = match (x.is_empty(), y.is_empty(), z.is_empty()) {
            (_, true, true) => Some(x),
            (true, false, true) => Some(y),
            (true, true, false) => Some(z),
            _ => None,
        };
        if let Some(run) = one {
            return self.candidates_among(run.iter().map(|&k| k as usize), text, pos, fold, f);
        }
        // The three runs merged, in table order.
        let merged = core::iter::from_fn(|| {
            let head = [x.first(), y.first(), z.first()].into_iter().flatten().min().copied()?;
            for r in [&mut x, &mut y, &mut z] {
                if r.first() == Some(&head) {
                    *r = &r[1..];
                }
            }
            Some(head as usize)
        });
        self.candidates_among(merged, text, pos, fold, f)
    }

    /// The spellings of the entries numbered `among` (in order) that match at `pos`.
    fn candidates_among(
        &self,
        among: impl Iterator<Item = usize>,
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
        for e in among.filter_map(|i| self.entries.get(i)) {
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
fn spelled(text: &str, s: &str, fold: bool) -> Option<usize> {
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

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn starts_with(text: &str, prefix: &str, fold: bool) -> bool {
    if fold {
        text.len() >= prefix.len()
            && text.is_char_boundary(prefix.len())
            && text[..prefix.len()].eq_ignore_ascii_case(prefix)
    } else {
        text.starts_with(prefix)
    }
}

/// A signed decimal integer at the start of `s`: (value, length).
fn scan_decimal(s: &str) -> Option<(i128, usize)> {
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
fn scan_integer(s: &str) -> Option<(i128, usize)> {
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
fn scan_float(s: &str) -> Option<(f64, usize)> {
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

/// The fields (not views) that share bits with view `slot`, in field order.
fn view_parts(format: &crate::format::Format, slot: Slot) -> impl Iterator<Item = Slot> + '_ {
    let mut view = 0u128;
    crate::bits::set(&mut view, format.fields[slot as usize].pieces, u64::MAX);
    format.fields.iter().enumerate().filter_map(move |(i, f)| {
        let mut own = 0u128;
        crate::bits::set(&mut own, f.pieces, u64::MAX);
        (!f.view && own & view != 0).then_some(i as Slot)
    })
}

/// The values with each view that has none filled in from the fields that make it up, when all
/// of them are known (`defaults`: or have a default); `None` when no view gains a value. Views
/// with bits no field owns stay unknown.
fn made_up_views(
    format: &crate::format::Format,
    vals: &[Option<u64>],
    defaults: bool,
) -> Option<Vec<Option<u64>>> {
    let mut out: Option<Vec<Option<u64>>> = None;
    for (i, f) in format.fields.iter().enumerate() {
        if !f.view || vals[i].is_some() || print_only(format, i as Slot) {
            continue;
        }
        let mut word = 0u128;
        let mut all = true;
        for part in view_parts(format, i as Slot) {
            let field = &format.fields[part as usize];
            match vals[part as usize].or(if defaults { field.default } else { None }) {
                Some(v) => crate::bits::set(&mut word, field.pieces, v),
                None => {
                    all = false;
                    break;
                }
            }
        }
        if all {
            out.get_or_insert_with(|| vals.to_vec())[i] = Some(crate::bits::get(word, f.pieces));
        }
    }
    out
}

/// Whether field `slot` is a view that cannot be read back: one with bits no field owns. A view
/// of whole fields reads back into them; a view of part of a field (Maxwell's half-precision
/// immediate in the low 16 bits of a 20-bit one) reads back into that part, the field's other
/// bits zero.
fn print_only(format: &crate::format::Format, slot: Slot) -> bool {
    let field = &format.fields[slot as usize];
    if !field.view {
        return false;
    }
    let mut view = 0u128;
    crate::bits::set(&mut view, field.pieces, u64::MAX);
    let covered = view_parts(format, slot).fold(0u128, |m, s| {
        let mut own = m;
        crate::bits::set(&mut own, format.fields[s as usize].pieces, u64::MAX);
        own
    });
    covered & view != view
}

/// A parameter binding of a sub-syntax call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Slot(Slot),
    NotSlot(Slot),
    Const(i64),
}

#[inline]
fn bind(e: &Expr, frame: &[Bound]) -> Bound {
    match e {
        Expr::Field(s) => Bound::Slot(*s),
        Expr::Param(n) => frame[*n as usize],
        Expr::Int(v) => Bound::Const(*v),
        Expr::Not(x) => match bind(x, frame) {
            Bound::Slot(s) => Bound::NotSlot(s),
            Bound::NotSlot(s) => Bound::Slot(s),
            Bound::Const(v) => Bound::Const((v == 0) as i64),
        },
        // The compiler only passes fields, negated fields and constants.
        _ => Bound::Const(0),
    }
}

/// The fields `e` reads through `frame`, as a set of bits (field `s` is bit `s % 64`: a
/// superset when a format has more than 64 fields).
fn slot_bits(e: &Expr, frame: &[Bound]) -> u64 {
    match e {
        Expr::Field(_) | Expr::Param(_) => match bind(e, frame) {
            Bound::Slot(s) | Bound::NotSlot(s) => 1 << (s % 64),
            Bound::Const(_) => 0,
        },
        Expr::Int(_) | Expr::Pc => 0,
        Expr::Not(x) | Expr::In(x, _) => slot_bits(x, frame),
        Expr::And(xs) | Expr::Or(xs) => xs.iter().fold(0, |m, x| m | slot_bits(x, frame)),
        Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) => slot_bits(a, frame) | slot_bits(b, frame),
        Expr::If(c, a, b) => slot_bits(c, frame) | slot_bits(a, frame) | slot_bits(b, frame),
    }
}

/// The fields that the parameters in `params` (bit `n` for parameter `n`) stand for in `frame`,
/// as [`slot_bits`] gives them: what a shape memoised once per item list is worth in a call.
fn bound_slot_bits(params: u64, frame: &[Bound]) -> u64 {
    let mut bits = 0;
    let mut p = params;
    while p != 0 {
        let n = p.trailing_zeros() as usize;
        p &= p - 1;
        if let Some(Bound::Slot(s) | Bound::NotSlot(s)) = frame.get(n) {
            bits |= 1 << (s % 64);
        }
    }
    bits
}

/// Whether an optional group's condition reads only fields the group itself shows
/// (`[vertex != rz: ", " {vertex}]`): written out, the group says the value outright, so the
/// assembler reads it as written even when it is the value that leaves the group out.
fn self_describing(cond: &Expr, body: &[Item], frame: &[Bound]) -> bool {
    let mut any = false;
    let all = each_read(cond, frame, &mut |s| {
        any = true;
        shows(body, frame, s, 0)
    });
    any && all
}

/// Calls `f` on each field slot `e` reads through `frame` while it returns true; whether it
/// always did.
fn each_read(e: &Expr, frame: &[Bound], f: &mut dyn FnMut(Slot) -> bool) -> bool {
    match e {
        Expr::Field(_) | Expr::Param(_) => match bind(e, frame) {
            Bound::Slot(s) | Bound::NotSlot(s) => f(s),
            Bound::Const(_) => true,
        },
        Expr::Int(_) | Expr::Pc => true,
        Expr::Not(x) | Expr::In(x, _) => each_read(x, frame, f),
        Expr::And(xs) | Expr::Or(xs) => xs.iter().all(|x| each_read(x, frame, f)),
        Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) => each_read(a, frame, f) && each_read(b, frame, f),
        Expr::If(c, a, b) => each_read(c, frame, f) && each_read(a, frame, f) && each_read(b, frame, f),
    }
}

/// Whether `items` show field `slot`: in holes, and through the templates they call, in holes
/// and in the guards that choose what is printed (`component(c)`'s `| c == x => "x"`).
fn shows(items: &[Item], frame: &[Bound], slot: Slot, depth: u32) -> bool {
    items.iter().any(|item| match item {
        Item::Show(e, _) => !each_read(e, frame, &mut |s| s != slot),
        Item::Call(sub, args) if depth < MNEMONIC_DEPTH => with_frame(args, frame, &mut |inner| {
            sub.arms.iter().any(|arm| {
                arm.guard.is_some_and(|g| !each_read(g, inner, &mut |s| s != slot))
                    || shows(arm.items, inner, slot, depth + 1)
            })
        }),
        _ => false,
    })
}

/// Calls `f` with the frame of a call with arguments `args` made in `frame` (on the stack when
/// it is short).
fn with_frame<R>(args: &[Expr], frame: &[Bound], f: &mut dyn FnMut(&[Bound]) -> R) -> R {
    let mut few = [Bound::Const(0); 8];
    if args.len() <= few.len() {
        for (b, a) in few.iter_mut().zip(args.iter()) {
            *b = bind(a, frame);
        }
        f(&few[..args.len()])
    } else {
        let many: Vec<Bound> = args.iter().map(|a| bind(a, frame)).collect();
        f(&many)
    }
}

fn bound_value(b: Bound, vals: &[Option<u64>]) -> Option<i64> {
    bound_in(b, vals)
}

/// Field values an expression is evaluated over.
trait Values {
    fn get(&self, slot: Slot) -> Option<u64>;
}

impl Values for [Option<u64>] {
    fn get(&self, slot: Slot) -> Option<u64> {
        self[slot as usize]
    }
}

/// The values known so far, with defaults for the fields not known yet (without copying them).
struct Defaulted<'a> {
    vals: &'a [Option<u64>],
    fields: &'a [crate::format::FieldInfo],
}

impl Values for Defaulted<'_> {
    fn get(&self, slot: Slot) -> Option<u64> {
        self.vals[slot as usize].or(self.fields[slot as usize].default)
    }
}

#[inline]
fn bound_in<V: Values + ?Sized>(b: Bound, vals: &V) -> Option<i64> {
    match b {
        Bound::Slot(s) => vals.get(s).map(|v| v as i64),
        Bound::NotSlot(s) => vals.get(s).map(|v| (v == 0) as i64),
        Bound::Const(v) => Some(v),
    }
}

fn eval(e: &Expr, frame: &[Bound], vals: &[Option<u64>], pc: u64) -> Option<i64> {
    eval_in(e, frame, vals, pc)
}

fn eval_in<V: Values + ?Sized>(e: &Expr, frame: &[Bound], vals: &V, pc: u64) -> Option<i64> {
    match e {
        Expr::Int(v) => Some(*v),
        Expr::Field(s) => vals.get(*s).map(|v| v as i64),
        Expr::Param(n) => bound_in(frame[*n as usize], vals),
        Expr::Pc => Some(pc as i64),
        Expr::Not(x) => eval_in(x, frame, vals, pc).map(|v| (v == 0) as i64),
        Expr::And(xs) => {
            let mut all = Some(1);
            for x in xs.iter() {
                match eval_in(x, frame, vals, pc) {
                    Some(0) => return Some(0),
                    Some(_) => {}
                    None => all = None,
                }
            }
            all
        }
        Expr::Or(xs) => {
            let mut any = Some(0);
            for x in xs.iter() {
                match eval_in(x, frame, vals, pc) {
                    Some(0) => {}
                    Some(_) => return Some(1),
                    None => any = None,
                }
            }
            any
        }
        Expr::Cmp(op, a, b) => {
            // The common leaf `field == constant`, without a call per side.
            let a = match a {
                Expr::Field(s) => vals.get(*s).map(|v| v as i64),
                Expr::Param(n) => bound_in(frame[*n as usize], vals),
                _ => eval_in(a, frame, vals, pc),
            }?;
            let b = match b {
                Expr::Int(v) => *v,
                _ => eval_in(b, frame, vals, pc)?,
            };
            Some(compare(*op, a, b) as i64)
        }
        Expr::Arith(op, a, b) => {
            let (a, b) = (eval_in(a, frame, vals, pc)?, eval_in(b, frame, vals, pc)?);
            Some(match op {
                Arith::Add => a.wrapping_add(b),
                Arith::Sub => a.wrapping_sub(b),
                Arith::Mul => a.wrapping_mul(b),
                Arith::Div => a.checked_div(b).unwrap_or(0),
                Arith::Rem => a.checked_rem(b).unwrap_or(0),
                Arith::And => a & b,
                Arith::Or => a | b,
                Arith::Xor => a ^ b,
                Arith::Shl => a.wrapping_shl(b as u32),
                Arith::Shr => a.wrapping_shr(b as u32),
            })
        }
        Expr::If(c, a, b) => match eval_in(c, frame, vals, pc)? {
            0 => eval_in(b, frame, vals, pc),
            _ => eval_in(a, frame, vals, pc),
        },
        Expr::In(x, ranges) => {
            let v = eval_in(x, frame, vals, pc)?;
            Some(ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&v)) as i64)
        }
    }
}

/// [`eval`] over the known values and over the known values with defaults
/// ([`Defaulted`]) in one walk: `(known, defaulted)`.
fn eval_both(
    e: &Expr,
    frame: &[Bound],
    vals: &[Option<u64>],
    fields: &[crate::format::FieldInfo],
    pc: u64,
) -> (Option<i64>, Option<i64>) {
    let field = |s: Slot| {
        let v = vals[s as usize];
        (v.map(|v| v as i64), v.or(fields[s as usize].default).map(|v| v as i64))
    };
    let both = |x: Option<i64>| (x, x);
    // The common leaves (`field == constant`, a flag) without a call per part.
    let leaf = |x: &Expr| match x {
        Expr::Field(s) => Some(field(*s)),
        Expr::Cmp(op, a, b) => match (&**a, &**b) {
            (Expr::Field(s), Expr::Int(v)) => {
                let (k, d) = field(*s);
                let cmp = |x: Option<i64>| x.map(|x| compare(*op, x, *v) as i64);
                Some((cmp(k), cmp(d)))
            }
            _ => None,
        },
        _ => None,
    };
    if let Some(r) = leaf(e) {
        return r;
    }
    match e {
        Expr::Int(v) => both(Some(*v)),
        Expr::Field(s) => field(*s),
        Expr::Param(n) => match frame[*n as usize] {
            Bound::Slot(s) => field(s),
            Bound::NotSlot(s) => {
                let (k, d) = field(s);
                (k.map(|v| (v == 0) as i64), d.map(|v| (v == 0) as i64))
            }
            Bound::Const(v) => both(Some(v)),
        },
        Expr::Pc => both(Some(pc as i64)),
        Expr::Not(x) => {
            let (k, d) = eval_both(x, frame, vals, fields, pc);
            (k.map(|v| (v == 0) as i64), d.map(|v| (v == 0) as i64))
        }
        Expr::And(xs) | Expr::Or(xs) => {
            // `And` stops at a false part, `Or` at a true one; each side on its own.
            let or = matches!(e, Expr::Or(_));
            let (stop, go) = (or as i64, (!or) as i64);
            let (mut k, mut d) = (Some(go), Some(go));
            let (mut k_done, mut d_done) = (false, false);
            for x in xs.iter() {
                let (xk, xd) = leaf(x).unwrap_or_else(|| eval_both(x, frame, vals, fields, pc));
                if !k_done {
                    match xk {
                        Some(v) if (v != 0) as i64 == stop => {
                            k = Some(stop);
                            k_done = true;
                        }
                        Some(_) => {}
                        None => k = None,
                    }
                }
                if !d_done {
                    match xd {
                        Some(v) if (v != 0) as i64 == stop => {
                            d = Some(stop);
                            d_done = true;
                        }
                        Some(_) => {}
                        None => d = None,
                    }
                }
                if k_done && d_done {
                    break;
                }
            }
            (k, d)
        }
        Expr::Cmp(op, a, b) => {
            let (ak, ad) = eval_both(a, frame, vals, fields, pc);
            let (bk, bd) = eval_both(b, frame, vals, fields, pc);
            let cmp = |a: Option<i64>, b: Option<i64>| Some(compare(*op, a?, b?) as i64);
            (cmp(ak, bk), cmp(ad, bd))
        }
        _ => (eval_in(e, frame, vals, pc), eval_in(e, frame, &Defaulted { vals, fields }, pc)),
    }
}

fn compare(op: Cmp, a: i64, b: i64) -> bool {
    match op {
        Cmp::Eq => a == b,
        Cmp::Ne => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
    }
}

// ---------------------------------------------------------------------------------------------
// Printing

/// Prints the instruction whose raw field values are `values` with `syntax`. Returns whether
/// the text is complete: false when no arm applied or a value had no spelling (the text then
/// holds a placeholder, and callers fall back to the dialect's raw directive or an error).
pub fn print(syntax: &Syntax, values: &[u64], pc: u64, out: &mut String) -> bool {
    let vals: Vec<Option<u64>> = values.iter().map(|v| Some(*v)).collect();
    let mut p = Printer { vals: &vals, pc, complete: true, shown: None };
    let _ = p.syntax(syntax, &[], out);
    p.complete
}

/// [`print`], also telling where each field's value was shown: for every field (by index)
/// the byte offset in `out` just after its first shown value, `None` where it was not shown.
/// A listing puts marks after the operands holding fields (nvdisasm's `R4.reuse`).
pub fn print_showing(
    syntax: &Syntax,
    values: &[u64],
    pc: u64,
    out: &mut String,
) -> (bool, Vec<Option<usize>>) {
    let vals: Vec<Option<u64>> = values.iter().map(|v| Some(*v)).collect();
    let mut p = Printer { vals: &vals, pc, complete: true, shown: Some(alloc::vec![None; values.len()]) };
    let _ = p.syntax(syntax, &[], out);
    (p.complete, p.shown.unwrap_or_default())
}

struct Printer<'a> {
    vals: &'a [Option<u64>],
    pc: u64,
    complete: bool,
    /// Where each field's value ended in the text, when asked for ([`print_showing`]).
    shown: Option<Vec<Option<usize>>>,
}

impl Printer<'_> {
    fn holds(&self, e: &Expr, frame: &[Bound]) -> bool {
        eval(e, frame, self.vals, self.pc).unwrap_or(0) != 0
    }

    fn syntax(&mut self, syntax: &Syntax, frame: &[Bound], out: &mut String) -> fmt::Result {
        for arm in syntax.arms.iter().filter(|a| !a.alias) {
            if arm.guard.is_none_or(|g| self.holds(g, frame)) {
                return self.items(arm.items, frame, out);
            }
        }
        self.complete = false;
        write!(out, "<{}?>", syntax.name)
    }

    fn items(&mut self, items: &[Item], frame: &[Bound], out: &mut String) -> fmt::Result {
        for item in items {
            match item {
                Item::Lit(s) => out.push_str(s),
                Item::Show(e, show) => {
                    let v = match e {
                        Expr::Arith(..) | Expr::If(..) => eval(e, frame, self.vals, self.pc),
                        _ => bound_value(bind(e, frame), self.vals),
                    };
                    self.show(v.unwrap_or(0) as u64, show, frame, out)?;
                    if let (Some(shown), Bound::Slot(slot)) = (self.shown.as_mut(), bind(e, frame)) {
                        if let Some(at @ None) = shown.get_mut(usize::from(slot)) {
                            *at = Some(out.len());
                        }
                    }
                }
                Item::Call(sub, args) => {
                    let inner: Vec<Bound> = args.iter().map(|a| bind(a, frame)).collect();
                    self.syntax(sub, &inner, out)?;
                }
                Item::Opt(cond, body) => {
                    if self.holds(cond, frame) {
                        self.items(body, frame, out)?;
                    }
                }
                Item::AnyOrder(sep, groups) => {
                    let mut written = false;
                    for g in groups.iter() {
                        match g {
                            Item::Opt(cond, body) if self.holds(cond, frame) => {
                                if core::mem::replace(&mut written, true) {
                                    out.push_str(sep);
                                }
                                self.items(body, frame, out)?;
                            }
                            Item::Opt(..) => {}
                            other => self.items(core::slice::from_ref(other), frame, out)?,
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn show(&mut self, v: u64, show: &Show, frame: &[Bound], out: &mut String) -> fmt::Result {
        let table = match show {
            Show::Table(t) => t,
            Show::TableIf(c, a, e) => {
                if self.holds(c, frame) {
                    a
                } else {
                    e
                }
            }
            Show::Num(Num::Target { bits, base, upper }) => {
                let base = eval(base, frame, self.vals, self.pc).unwrap_or(0) as i128;
                let target = base + crate::bits::sign_extend(v, *bits) as i128;
                return if *upper { write_hex_upper(target, out) } else { write_hex_value(target, out) };
            }
            Show::Num(n) => return write_number(v, *n, out),
        };
        match table.write(v, out) {
            Some(r) => r,
            None => {
                self.complete = false;
                write!(out, "<{}?{v}>", table.name)
            }
        }
    }
}

/// Writes `v` in number style `n` (a [`Num::Target`] as its displacement alone).
pub fn write_number(v: u64, n: Num, out: &mut dyn Write) -> fmt::Result {
    match n {
        Num::Dec => write!(out, "{v}"),
        Num::DecPadded { digits } => write!(out, "{v:0w$}", w = digits as usize),
        Num::Signed { bits, plus } => {
            let s = crate::bits::sign_extend(v, bits);
            if plus && s >= 0 {
                out.write_char('+')?;
            }
            write!(out, "{s}")
        }
        Num::Label { bits, .. } => write!(out, "{}", crate::bits::sign_extend(v, bits)),
        Num::Hex { digits, prefix, upper } => {
            if prefix {
                out.write_str("0x")?;
            }
            if upper {
                write!(out, "{v:0width$X}", width = digits as usize)
            } else {
                write!(out, "{v:0width$x}", width = digits as usize)
            }
        }
        Num::Bin { digits } => write!(out, "{v:0width$b}", width = digits as usize),
        Num::CFloat => crate::number::write_c_f(out, v as u32),
        Num::HexValue { bits, signed, scale } => {
            let x = if signed { crate::bits::sign_extend(v, bits) as i128 } else { v as i128 };
            write_hex_value(x * scale as i128, out)
        }
        Num::Decimal { format } => format.write_decimal(v, out).unwrap_or(Err(fmt::Error)),
        Num::Float { format, precision, exponent } => {
            let x = format.decode(v);
            if exponent {
                crate::number::write_c_e(out, x, precision as usize)
            } else {
                crate::number::write_c_g(out, x, precision as usize)
            }
        }
        Num::Target { bits, upper: false, .. } => {
            write_hex_value(crate::bits::sign_extend(v, bits) as i128, out)
        }
        Num::Target { bits, upper: true, .. } => {
            write_hex_upper(crate::bits::sign_extend(v, bits) as i128, out)
        }
    }
}

/// Writes `0x1F`, `0x-20`: upper-case digits and the sign after the prefix, as Python's
/// `'0x%X' % x` writes them (applegpu's branch targets). [`scan_integer`] reads both back.
pub fn write_hex_upper(x: i128, out: &mut dyn Write) -> fmt::Result {
    if x < 0 {
        write!(out, "0x-{:X}", x.unsigned_abs())
    } else {
        write!(out, "0x{x:X}")
    }
}

/// Writes `0x1f`, `-0x20`.
pub fn write_hex_value(x: i128, out: &mut dyn Write) -> fmt::Result {
    if x < 0 {
        write!(out, "-0x{:x}", x.unsigned_abs())
    } else {
        write!(out, "0x{x:x}")
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing

/// One thing the parser would have accepted where it failed. Messages list ranges first, as
/// they say most in least space (how registers are written), then other kinds, then names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Expected {
    /// A range of a name table's spellings: `` `R0`..`R254` ``.
    Range(String),
    /// Text of another kind: a literal (`` `,` ``), "a number", "end of line".
    Kind(String),
    /// One spelling of a name table: `` `RZ` ``.
    Name(String),
    /// A name where a number goes, which the program's symbols and labels do not define: the
    /// message then says so rather than list the rest.
    Undefined,
}

impl Expected {
    fn text(&self) -> &str {
        match self {
            Expected::Range(s) | Expected::Kind(s) | Expected::Name(s) => s,
            Expected::Undefined => "a defined symbol or label",
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Expected::Range(_) => 0,
            Expected::Kind(_) | Expected::Undefined => 1,
            Expected::Name(_) => 2,
        }
    }
}

/// What the parser would have accepted where a reading failed, kept as references into the
/// static description: most readings that fail are abandoned for another that goes further,
/// so the text of an [`Expected`] is only made for the failure reported.
#[derive(Clone, Copy)]
enum Want {
    /// Text of a kind ("a number", "end of line").
    Kind(&'static str),
    /// A literal, shown trimmed in backquotes.
    Lit(&'static str),
    /// Any spelling of a name table.
    Table(&'static Table),
    /// A value that fits this many bits.
    Fits(u32),
    /// A value in one of these ranges (the values an encoding allows for its field).
    Within(&'static [(u64, u64)]),
    /// The field named, written out (not only through an empty alias).
    WrittenOut(&'static str),
    /// An operand for the field named.
    OperandFor(&'static str),
    /// A name the program defines (the text has one it does not).
    Defined,
}

impl Want {
    fn expand(self, out: &mut Vec<Expected>) {
        match self {
            Want::Kind(s) => out.push(Expected::Kind(s.into())),
            Want::Lit(s) => out.push(Expected::Kind(alloc::format!("`{}`", s.trim()))),
            Want::Table(t) => out.extend(t.expected()),
            Want::Fits(width) => out.push(Expected::Kind(alloc::format!("a value that fits {width} bits"))),
            Want::Within(ranges) => {
                let ranges: Vec<String> = ranges
                    .iter()
                    .map(
                        |(lo, hi)| {
                            if lo == hi {
                                alloc::format!("{lo}")
                            } else {
                                alloc::format!("{lo}..={hi}")
                            }
                        },
                    )
                    .collect();
                out.push(Expected::Kind(alloc::format!("a value in {}", ranges.join(", "))));
            }
            Want::WrittenOut(name) => out.push(Expected::Kind(alloc::format!("`{name}` written out"))),
            Want::OperandFor(name) => out.push(Expected::Kind(alloc::format!("an operand for `{name}`"))),
            Want::Defined => out.push(Expected::Undefined),
        }
    }
}

/// Where a parse failed and what would have been accepted there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Byte offset in the text.
    pub pos: usize,
    /// What was expected at `pos`.
    pub expected: Vec<Expected>,
}

impl Failure {
    /// How many of the things expected a message lists.
    pub const SHOWN: usize = 10;

    /// A one-line description: "expected `,` or a number, found `x`", with the whole token
    /// found.
    pub fn message(&self, text: &str) -> String {
        let mut seen: Vec<&Expected> = Vec::new();
        for e in &self.expected {
            if !seen.iter().any(|s| s.text() == e.text()) {
                seen.push(e);
            }
        }
        seen.sort_by_key(|e| e.rank());
        let shown = seen.len().min(Self::SHOWN);
        let (start, len) = token_at(text, self.pos);
        if len > 0 && seen.contains(&&Expected::Undefined) {
            return alloc::format!("undefined symbol or label `{}`", &text[start..start + len]);
        }
        let mut m = String::from("expected ");
        for (i, e) in seen.iter().take(shown).enumerate() {
            if i > 0 {
                m.push_str(if i + 1 == shown && seen.len() == shown { " or " } else { ", " });
            }
            m.push_str(e.text());
        }
        if seen.len() > shown {
            m.push_str(&alloc::format!(" or {} more", seen.len() - shown));
        }
        if len == 0 {
            m.push_str(", found end of line");
        } else {
            m.push_str(&alloc::format!(", found `{}`", &text[start..start + len]));
        }
        m
    }
}

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
struct State {
    vals: Vec<Option<u64>>,
    /// The fields `vals` has been given, in order, so a reading that fails can be undone
    /// ([`State::undo`]) rather than tried on a copy.
    assigned: Vec<Slot>,
    deferred: Vec<(&'static Expr, bool, Frame)>,
    /// For each of `deferred`, the fields it reads ([`slot_bits`]): only those an assignment
    /// can decide. None once it holds: fields keep their values, so it holds for good.
    reads: Vec<u64>,
    /// (index in `reads`, what it was) for each entry cleared, so undoing can restore it.
    settled: Vec<(usize, u64)>,
    /// Whether an assignment has made a deferred condition false: every later one then
    /// fails too, as it would if all of them were checked each time.
    violated: bool,
    /// Fields whose value the text has spelled out (non-empty) somewhere.
    shown: Vec<Slot>,
    /// Fields read through an empty alias (a spelling the printer would not leave empty): their
    /// value must be spelled out at another place of the line.
    owed: Vec<Slot>,
}

/// A copy of a call's parameter bindings, kept with a deferred condition: inline when short,
/// so deferring allocates nothing.
#[derive(Clone)]
enum Frame {
    Few(u8, [Bound; 6]),
    Many(Vec<Bound>),
}

impl Frame {
    fn new(frame: &[Bound]) -> Self {
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
struct Mark {
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
    fn mark(&self) -> Mark {
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
    fn undo(&mut self, m: &Mark) {
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

type K<'k> = &'k mut dyn FnMut(&mut Parser, usize, &mut State) -> bool;

/// What [`Parser::ends`] is asked: (item list's address, index in it, position in the text).
type EndsKey = (usize, u32, u32);

/// Answers by (static description's address, index, position), for one parse: an
/// open-addressing hash table whose values are ranges of one shared list of items. Kept from
/// one parse to the next ([`Scratch`]): a slot is taken only when it carries the current
/// parse's stamp, so emptying the table is one increment.
struct Memo<T> {
    /// Slots of the table (a power of two of them, at most half full), with the stamp of the
    /// parse that filled each.
    slots: Vec<(u32, EndsKey, (u32, u32))>,
    /// The current parse's stamp (never 0, the stamp of a slot never filled).
    stamp: u32,
    /// How many slots are taken.
    len: usize,
    /// Every answer's items, one range each.
    items: Vec<T>,
}

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo { slots: Vec::new(), stamp: 1, len: 0, items: Vec::new() }
    }
}

impl<T> Memo<T> {
    /// Forgets every answer, keeping the memory.
    fn clear(&mut self) {
        self.len = 0;
        self.items.clear();
        if self.stamp == u32::MAX {
            self.slots.iter_mut().for_each(|s| s.0 = 0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }

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

    fn get(&self, key: EndsKey) -> Option<core::ops::Range<usize>> {
        if self.slots.is_empty() {
            return None;
        }
        let (stamp, _, (a, b)) = self.slots[self.slot(key)];
        (stamp == self.stamp).then_some(a as usize..b as usize)
    }

    /// The answer for `key` if there is one; else `None`, with `empty` filed as its answer
    /// (what a re-entry at the same place gets while the answer is worked out). One probe
    /// for both.
    fn get_or_file(
        &mut self,
        key: EndsKey,
        empty: core::ops::Range<usize>,
    ) -> Option<core::ops::Range<usize>> {
        self.reserve();
        let i = self.slot(key);
        let (stamp, _, (a, b)) = self.slots[i];
        if stamp == self.stamp {
            return Some(a as usize..b as usize);
        }
        self.len += 1;
        self.slots[i] = (self.stamp, key, (empty.start as u32, empty.end as u32));
        None
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

    fn insert(&mut self, key: EndsKey, ends: core::ops::Range<usize>) {
        self.reserve();
        let i = self.slot(key);
        if self.slots[i].0 != self.stamp {
            self.len += 1;
        }
        self.slots[i] = (self.stamp, key, (ends.start as u32, ends.end as u32));
    }
}

/// The [`Table::index`] of each table met, by the table's address.
#[derive(Default)]
struct TableIndexes {
    by_address: alloc::collections::BTreeMap<usize, TableIndex>,
}

impl TableIndexes {
    fn get(&mut self, t: &'static Table) -> &TableIndex {
        self.by_address.entry(t as *const Table as usize).or_insert_with(|| t.index())
    }
}

/// An entry of [`Parser::follow`]: what the search reads after the item at hand (the rest of an
/// item list from an index; `None` where not known) and the entry's number.
type Follow = (Option<(&'static [Item], usize)>, u32);

/// Memory a parse works in, kept for the next so that reading many lines allocates once.
#[derive(Default)]
pub struct Scratch {
    memo: Memo<usize>,
    follow: Vec<Follow>,
    pays: Vec<u64>,
    pay_sets: PaySets,
    reach: Memo<()>,
    payers_of: PayersOf,
    starts: Memo<()>,
    tables: TableIndexes,
    spellings: Memo<(usize, u64)>,
    /// The text and case folding `spellings` answers for: kept while the formats of one
    /// statement are tried in turn (name tables are shared between formats).
    spelled: (String, bool),
    collecting: Vec<usize>,
    mids: Vec<usize>,
    reads: ReadSets,
    /// The state of the last parse, whose lists are emptied and filled again.
    state: State,
    /// The quick reader's ([`quick_in`]).
    quick: QuickState,
}

/// What each item list may spell out through a name table, from each index on, by the list's
/// address: the fields it shows through a table and the parameters it shows so (bit `n` for
/// `Param(n)`), through the sub-syntaxes it calls, all their arms, and optional groups. A value
/// owed ([`note_spelling`]) can only be spelled out by such a name. The descriptions are static,
/// so answers hold from one parse to the next.
#[derive(Default)]
struct PaySets {
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
    fn mask(&mut self, items: &'static [Item], i: usize, frame: &[Bound]) -> u64 {
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
struct Payers(Option<Vec<(Slot, usize, bool, &'static Table)>>);

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
        Payers(complete.then_some(out))
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
    fn may_spell(&self, slot: Slot, val: Option<u64>, rest: &str, fold: bool) -> bool {
        let (Some(payers), Some(val)) = (&self.0, val) else { return true };
        let from = payers.partition_point(|p| p.0 < slot);
        payers[from..].iter().take_while(|p| p.0 == slot).any(|&(_, _, negated, t)| {
            let v = match negated {
                true if val > 1 => return true,
                true => 1 - val,
                false => val,
            };
            t.entries.iter().any(|e| match *e {
                Entry::Name(s, x) if x == v && !s.is_empty() => {
                    let run = first_run(s);
                    run.is_empty() || contains(rest, run, fold)
                }
                Entry::Range { prefix, lo, hi, .. } if (lo..=hi).contains(&v) => {
                    let run = first_run(prefix);
                    run.is_empty() || contains(rest, run, fold)
                }
                _ => false,
            })
        })
    }
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
struct PayersOf {
    by_syntax: alloc::collections::BTreeMap<(usize, usize), Payers>,
}

impl PayersOf {
    fn take(&mut self, format: &Format, syntax: &'static Syntax) -> Payers {
        let key = (format as *const Format as usize, syntax as *const Syntax as usize);
        self.by_syntax.remove(&key).unwrap_or_else(|| Payers::of(syntax))
    }

    fn give_back(&mut self, format: &Format, syntax: &'static Syntax, payers: Payers) {
        let key = (format as *const Format as usize, syntax as *const Syntax as usize);
        self.by_syntax.insert(key, payers);
    }
}

/// What each condition deferred so far reads, by the condition's address: the fields it names
/// and the parameters it reads, so [`slot_bits`] through a frame is a few bit operations. The
/// descriptions are static, so answers hold from one parse to the next.
#[derive(Default)]
struct ReadSets {
    /// (address, fields as [`slot_bits`] sets them, parameters read: bit `n` for `Param(n)`),
    /// address 0 for a free slot; a power of two of them, at most half full.
    slots: Vec<(usize, u64, u64)>,
    len: usize,
}

impl ReadSets {
    /// The fields `e` reads through `frame`, as [`slot_bits`] gives them.
    fn bits(&mut self, e: &'static Expr, frame: &[Bound]) -> u64 {
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
fn leaf_bits(e: &Expr, frame: &[Bound]) -> Option<u64> {
    let named = |x: &Expr| matches!(x, Expr::Field(_) | Expr::Param(_));
    match e {
        Expr::Field(_) | Expr::Param(_) => Some(slot_bits(e, frame)),
        Expr::Not(x) if named(x) => Some(slot_bits(x, frame)),
        Expr::Cmp(_, a, b) if named(a) && matches!(**b, Expr::Int(_)) => Some(slot_bits(a, frame)),
        _ => None,
    }
}

/// Whether a text can start at a place ([`Parser::starts`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Start {
    /// Nothing it reads matches there.
    Never = 0,
    /// Its first token may match there.
    Maybe = 1,
    /// It reads nothing there (what follows it decides).
    Empty = 2,
}

impl Start {
    fn from(n: usize) -> Self {
        match n {
            0 => Start::Never,
            2 => Start::Empty,
            _ => Start::Maybe,
        }
    }

    /// Of two alternatives: the one that says more may match.
    fn or(self, other: Start) -> Start {
        match (self, other) {
            (Start::Maybe, _) | (_, Start::Maybe) => Start::Maybe,
            (Start::Empty, _) | (_, Start::Empty) => Start::Empty,
            _ => Start::Never,
        }
    }
}

struct Parser<'t> {
    format: &'t Format,
    text: &'t str,
    ctx: &'t Context<'t>,
    furthest: usize,
    expected: Vec<Want>,
    result: Option<Vec<u64>>,
    budget: u32,
    /// [`Parser::ends`]' answers: end positions.
    memo: Memo<usize>,
    /// [`Parser::starts`]' answers, each as the range `a..a` of its [`Start`] number `a`.
    starts: Memo<()>,
    /// The name tables met so far, indexed (static: kept from one parse to the next).
    tables: TableIndexes,
    /// What the search reads after the item at hand, innermost last: the rest of each
    /// enclosing item list (from an index), or `None` where that is not known (inside a group
    /// read in any order). Below the first entry is the end of the line. Each entry has a
    /// number of its own ([`Parser::entries`]) that names it with every entry below it.
    follow: Vec<Follow>,
    /// How many entries `follow` has been given in this parse: the next entry's number.
    entries: u32,
    /// [`Parser::follow_reaches`]' answers by (the number of the follow entry on top, position),
    /// each as the range `a..a` of the answer as a number.
    reach: Memo<()>,
    /// For each entry of `follow`, the fields whose value it and the entries below it may spell
    /// out through a name table (bit `s % 64` for field `s`; all bits where not known): a
    /// value owed ([`note_spelling`]) that no entry can spell out ends the reading at once.
    pays: Vec<u64>,
    /// What each item list may spell out ([`PaySets`]).
    pay_sets: PaySets,
    /// Whether the search skips, unsolved, arms, optional groups and names after which the
    /// line cannot be read to its end whatever the guards ([`Parser::viable`]); off when a
    /// failure is described, so that the search still names what each of them expected.
    prune: bool,
    /// [`Parser::spellings`]' answers: (length, value) of each spelling a table has at a
    /// position, read once however often the search comes back there.
    spellings: Memo<(usize, u64)>,
    /// End positions being collected by the [`Parser::ends`] calls in progress (each call's
    /// own above those of its callers).
    collecting: Vec<usize>,
    /// Start positions of the rest of an item list, likewise stacked.
    mids: Vec<usize>,
    /// What deferred conditions read.
    reads: ReadSets,
    /// While reading the text, choices are deferred to [`Parser::resolve`].
    lazy: bool,
    /// Whether text may follow what the syntax reads ([`parse_prefix`]).
    prefix: bool,
    /// Where the accepted reading ended.
    end: usize,
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
    let mut p = Parser {
        format,
        text,
        ctx,
        furthest: 0,
        expected: Vec::new(),
        result: None,
        budget: SEARCH_BUDGET,
        memo: core::mem::take(&mut scratch.memo),
        follow: core::mem::take(&mut scratch.follow),
        entries: 0,
        reach: core::mem::take(&mut scratch.reach),
        pays: core::mem::take(&mut scratch.pays),
        pay_sets: core::mem::take(&mut scratch.pay_sets),
        starts: core::mem::take(&mut scratch.starts),
        tables: core::mem::take(&mut scratch.tables),
        prune: !describe,
        spellings: core::mem::take(&mut scratch.spellings),
        collecting: core::mem::take(&mut scratch.collecting),
        mids: core::mem::take(&mut scratch.mids),
        reads: core::mem::take(&mut scratch.reads),
        lazy: true,
        prefix,
        end: 0,
        recognize: None,
        root: syntax,
        payers: None,
        payers_of: core::mem::take(&mut scratch.payers_of),
    };
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
    };
    result
}

/// Where a number starting at `pos` begins: blanks before it are skipped, unless it follows a
/// letter or digit (`ra 5` is not `ra5`).
fn number_start(text: &str, pos: usize) -> usize {
    if pos > 0 && text.as_bytes().get(pos - 1).is_some_and(|b| is_word(*b)) {
        pos
    } else {
        skip_blanks(text, pos)
    }
}

/// A number for a hole of style `n` on a `width`-bit field, at the start of `s`: (value,
/// length). In a 32-bit hole a decimal literal with a fraction or an exponent (`1.5`, `-0.5`,
/// `1e3`) is an IEEE single and gives its bits.
fn scan_number(n: Num, width: u32, s: &str) -> Option<(i128, usize)> {
    match n {
        Num::CFloat => {
            scan_float(s).map(|(f, len)| ((f as f32).to_bits() as i128, len)).or_else(|| scan_c_special(s))
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
                        return Some(((f as f32).to_bits() as i128, len));
                    }
                }
            }
            int
        }
    }
}

/// Whether a number shown as `n` may be written as an expression (not bare hex digits after a
/// literal `0x`).
fn takes_expression(n: &Num) -> bool {
    !matches!(n, Num::Hex { prefix: false, .. } | Num::Bin { .. })
}

/// The length of the label name at the start of `s`.
fn label_len(s: &str) -> usize {
    s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')).unwrap_or(s.len())
}

/// Records how a table spelled field `b`'s value `v` (`len` bytes). An empty spelling of a value
/// the table prints as text is an alias meaning "written elsewhere in the line" (vc4asm takes a
/// condition on the opcode or on the destination): the value must then be spelled out at
/// another place, or the line is not read this way. This keeps a value from going unwritten
/// altogether when it has empty aliases at two places.
fn note_spelling(b: Bound, t: &Table, len: usize, v: u64, st: &mut State) {
    let slot = match b {
        Bound::Slot(s) | Bound::NotSlot(s) => s,
        Bound::Const(_) => return,
    };
    if len > 0 {
        if !st.shown.contains(&slot) {
            st.shown.push(slot);
        }
        st.owed.retain(|x| *x != slot);
    } else if !st.shown.contains(&slot) && !st.owed.contains(&slot) && prints_text(t, v) {
        st.owed.push(slot);
    }
}

/// Whether requiring `e` can assign a field, rather than only check it at the end: a field or
/// parameter, a comparison of one with a constant, or a combination with such a part.
fn solvable(e: &Expr) -> bool {
    let named = |x: &Expr| matches!(x, Expr::Field(_) | Expr::Param(_));
    match e {
        Expr::Field(_) | Expr::Param(_) => true,
        Expr::Not(x) => solvable(x),
        Expr::Cmp(Cmp::Eq | Cmp::Ne, a, b) => {
            (named(a) && matches!(**b, Expr::Int(_))) || (named(b) && matches!(**a, Expr::Int(_)))
        }
        Expr::And(xs) | Expr::Or(xs) => xs.iter().any(solvable),
        Expr::In(x, _) => named(x),
        _ => false,
    }
}

/// Whether field `f` can hold the raw value `v`: its bits within the field's width, and one of
/// the values its encoding allows (its `in` clause; an enum's defined values).
fn holds(f: &crate::format::FieldInfo, v: u64) -> bool {
    let width = crate::bits::width(f.pieces);
    (width == 0 || width >= 64 || v >> width == 0)
        && (f.allowed.is_empty() || f.allowed.iter().any(|(lo, hi)| (*lo..=*hi).contains(&v)))
}

/// The most values [`Parser::require`] tries for a field an `in` guard names: a set larger
/// than this (`imm in {0..=0xffff}`) is checked at the end, as other conditions are.
const IN_CHOICES: u64 = 256;

/// The raw values of a field `width` bits wide that `x in ranges` makes true (`want`) or
/// false, in order, when there are at most [`IN_CHOICES`] of them.
fn in_choices(ranges: &[(i64, i64)], want: bool, width: u32) -> Option<Vec<u64>> {
    let top = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
    let inside = |v: u64| ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&(v as i64)));
    let mut out = Vec::new();
    if want {
        for &(lo, hi) in ranges {
            // Guards compare a field's raw value read as an `i64` ([`eval`]): below 64 bits a
            // range below zero holds none of them, a 64-bit field's top half reads negative
            // (`x in {0xfffffffffffffff0..=0xffffffffffffffff}` is -16..=-1).
            let (lo, hi) = if width >= 64 { (lo, hi) } else { (lo.max(0), hi.min(top as i64)) };
            if hi < lo {
                continue;
            }
            if (i128::from(hi) - i128::from(lo)) + out.len() as i128 >= i128::from(IN_CHOICES) {
                return None;
            }
            for v in (lo..=hi).map(|v| v as u64) {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    } else {
        if top >= IN_CHOICES {
            return None;
        }
        out.extend((0..=top).filter(|v| !inside(*v)));
    }
    Some(out)
}

/// Matches literal `s` in `text` at `pos` ([`Parser::literal`]); returns the end. Blanks before
/// punctuation, inside the literal where it has spaces, and before its separators (`,` `;`)
/// are skipped.
fn literal_at(text: &str, s: &str, pos: usize, ignore_case: bool) -> Option<usize> {
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

fn skip_blanks(text: &str, mut pos: usize) -> usize {
    let b = text.as_bytes();
    while pos < b.len() && (b[pos] == b' ' || b[pos] == b'\t') {
        pos += 1;
    }
    pos
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

    fn fail(&mut self, pos: usize, what: &'static str) -> bool {
        self.fail_with(pos, Want::Kind(what))
    }

    /// Fails at `pos` where any spelling of `tables` would have been read.
    fn fail_table(&mut self, pos: usize, tables: &[&'static Table]) -> bool {
        for t in tables {
            self.fail_with(pos, Want::Table(t));
        }
        false
    }

    fn fail_with(&mut self, pos: usize, what: Want) -> bool {
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

    /// Whether `syntax` can match the whole text from `pos` when guards, conditions and value
    /// ranges are ignored: a context-free superset of what the parser accepts, decided in
    /// polynomial time by memoising the end positions of every item sequence.
    fn recognizes(&mut self, syntax: &'static Syntax, pos: usize) -> bool {
        let base = self.mids.len();
        for arm in syntax.arms {
            let ends = self.ends(arm.items, 0, pos);
            for k in ends {
                let e = self.memo.items[k];
                self.mids.push(e);
            }
        }
        let text = self.text;
        let mut ok = false;
        for k in base..self.mids.len() {
            let e = skip_blanks(text, self.mids[k]);
            if e == text.len() || self.prefix {
                ok = true;
            } else {
                self.fail(e, "end of line");
            }
        }
        self.mids.truncate(base);
        ok
    }

    /// The positions where `items[i..]` can end when it starts at `pos` (guards ignored), as
    /// indices into the memo's list of ends. Nothing is allocated per call: positions being
    /// collected sit on the two stacks `mids` and `collecting`, each call above its caller's.
    fn ends(&mut self, items: &'static [Item], i: usize, pos: usize) -> core::ops::Range<usize> {
        let key = (items.as_ptr() as usize, i as u32, pos as u32);
        // A re-entry at the same place (no text consumed) adds nothing.
        if let Some(r) = self.memo.get_or_file(key, 0..0) {
            return r;
        }
        let out = self.collecting.len();
        let mids = self.mids.len();
        match items.get(i) {
            None => self.collecting.push(pos),
            Some(Item::Lit(s)) => match self.literal(s, pos) {
                Some(end) => self.mids.push(end),
                None => {
                    self.fail_with(skip_blanks(self.text, pos), Want::Lit(s));
                }
            },
            Some(Item::Show(e, show)) => {
                let view = matches!(e, Expr::Field(s) if print_only(self.format, *s));
                if !view {
                    self.show_ends(show, pos);
                }
                if self.mids.len() == mids {
                    match show {
                        Show::Table(t) => self.fail_table(pos, &[t]),
                        Show::TableIf(_, a, b) => self.fail_table(pos, &[a, b]),
                        Show::Num(_) if view => self.fail(pos, "text this dialect only prints"),
                        Show::Num(_) => self.fail(pos, "a number"),
                    };
                }
            }
            Some(Item::Call(sub, _)) => {
                for arm in sub.arms {
                    for k in self.ends(arm.items, 0, pos) {
                        let e = self.memo.items[k];
                        self.mids.push(e);
                    }
                }
            }
            Some(Item::Opt(_, body)) => {
                self.mids.push(pos);
                for k in self.ends(body, 0, pos) {
                    let e = self.memo.items[k];
                    self.mids.push(e);
                }
            }
            // Any sequence of the groups (a superset: repeats allowed), the separator before
            // each but the first.
            Some(Item::AnyOrder(sep, groups)) => {
                self.mids.push(pos);
                let mut k = mids;
                while k < self.mids.len() {
                    let at = match self.mids[k] {
                        at if at == pos || sep.is_empty() => at,
                        at => match self.literal(sep, at) {
                            Some(after) => after,
                            None => {
                                k += 1;
                                continue;
                            }
                        },
                    };
                    for g in groups.iter() {
                        if let Item::Opt(_, body) = g {
                            for j in self.ends(body, 0, at) {
                                let e = self.memo.items[j];
                                if !self.mids[mids..].contains(&e) {
                                    self.mids.push(e);
                                }
                            }
                        }
                    }
                    k += 1;
                }
            }
        }
        // The rest of the list from each place this item can end.
        if items.get(i).is_some() {
            for m in mids..self.mids.len() {
                let at = self.mids[m];
                for k in self.ends(items, i + 1, at) {
                    let e = self.memo.items[k];
                    if !self.collecting[out..].contains(&e) {
                        self.collecting.push(e);
                    }
                }
            }
        }
        self.mids.truncate(mids);
        let first = self.memo.items.len();
        self.memo.items.extend_from_slice(&self.collecting[out..]);
        self.collecting.truncate(out);
        let r = first..self.memo.items.len();
        self.memo.insert(key, r.clone());
        r
    }

    /// Pushes onto `mids` where a value shown with `show` can end when it starts at `pos`.
    fn show_ends(&mut self, show: &Show, pos: usize) {
        let text = self.text;
        match show {
            Show::Table(t) => self.push_spelling_ends(t, pos),
            Show::TableIf(_, a, b) => {
                self.push_spelling_ends(a, pos);
                self.push_spelling_ends(b, pos);
            }
            Show::Num(n) => {
                let out = &mut self.mids;
                let start = number_start(text, pos);
                let rest = &text[start..];
                match n {
                    Num::Label { .. } | Num::Target { .. } => {
                        let len = scan_integer(rest).map(|x| x.1).or_else(|| {
                            let len = label_len(rest);
                            (len > 0 && (self.ctx.labels)(&rest[..len]).is_some()).then_some(len)
                        });
                        out.extend(len.map(|l| start + l));
                    }
                    // The field's width decides whether a float literal is read: allow both.
                    _ => {
                        for width in [0, 32] {
                            out.extend(scan_number(*n, width, rest).map(|x| start + x.1));
                        }
                    }
                }
                if let Some(read) = self.ctx.expression.filter(|_| takes_expression(n)) {
                    // An undefined name ends where it would if it were defined: the parser then
                    // says so at the name.
                    out.extend(read(rest).map_or_else(|e| e.end, |x| Some(x.1)).map(|end| start + end));
                }
            }
        }
    }

    /// Pushes onto `mids` where each spelling of `t` at `pos` ends, in table order.
    fn push_spelling_ends(&mut self, t: &'static Table, pos: usize) {
        let (in_order, _) = self.spellings(t, pos);
        for k in in_order {
            let len = self.spellings.items[k].0;
            self.mids.push(pos + len);
        }
    }

    /// Whether `items[i..]` read from `pos`, then what [`Parser::follow`] says comes after,
    /// can read the line when guards, conditions and value ranges are ignored, judged by the
    /// first token ([`Parser::starts`]). A superset of what the search reads: where it is
    /// false, the search would fail whatever its guards made of the fields, so it is not tried.
    fn viable(&mut self, items: &'static [Item], i: usize, pos: usize) -> bool {
        match self.starts(items, i, pos) {
            Start::Never => false,
            Start::Maybe => true,
            Start::Empty => self.completes(self.follow.len(), pos),
        }
    }

    /// Whether `items[i..]` read from `pos`, then what [`Parser::follow`] says comes after, can
    /// read the rest of the line when guards, conditions and value ranges are ignored, as
    /// [`Parser::recognizes`] judges the whole line (from the memoised end positions of each
    /// item list). A superset of what the search reads, as [`Parser::viable`], but judged on
    /// the whole rest of the line rather than its first token: a reading that cannot get to
    /// the end of the line is not tried, whatever its guards.
    fn reaches_end(&mut self, items: &'static [Item], i: usize, pos: usize) -> bool {
        let depth = self.follow.len();
        self.ends_reach(items, i, pos, depth)
    }

    /// [`Parser::reaches_end`] with the first `depth` entries of [`Parser::follow`] after.
    fn ends_reach(&mut self, items: &'static [Item], i: usize, pos: usize, depth: usize) -> bool {
        let ends = self.ends(items, i, pos);
        ends.into_iter().any(|k| {
            let end = self.memo.items[k];
            self.follow_reaches(depth, end)
        })
    }

    /// Whether the first `depth` entries of [`Parser::follow`] can read the rest of the line
    /// from `pos` ([`Parser::reaches_end`]); the end of the line below them. An entry that is
    /// not known (inside a group read in any order) can.
    ///
    /// Answers are kept by the top entry's number and the position: the entries below an entry
    /// stay as they are while it is on the stack (one taken off for a while is put back on the
    /// same ones), so an answer holds as long as that entry is there.
    fn follow_reaches(&mut self, depth: usize, pos: usize) -> bool {
        match depth.checked_sub(1).map(|d| self.follow[d]) {
            None => self.prefix || skip_blanks(self.text, pos) == self.text.len(),
            Some((None, _)) => true,
            Some((Some((items, i)), id)) => {
                let key = (id as usize, 0, pos as u32);
                // A re-entry at the same place (no text consumed) says it may.
                if let Some(r) = self.reach.get_or_file(key, 1..1) {
                    return r.start == 1;
                }
                let answer = self.ends_reach(items, i, pos, depth - 1);
                self.reach.insert(key, usize::from(answer)..usize::from(answer));
                answer
            }
        }
    }

    /// Whether the first `depth` entries of [`Parser::follow`] (the innermost last) can read
    /// the line from `pos`, as [`Parser::viable`]; the end of the line below them.
    fn completes(&mut self, depth: usize, pos: usize) -> bool {
        let mut d = depth;
        loop {
            let Some((next, _)) = d.checked_sub(1).map(|d| self.follow[d]) else {
                return self.prefix || skip_blanks(self.text, pos) == self.text.len();
            };
            let Some((items, i)) = next else { return true };
            match self.starts(items, i, pos) {
                Start::Never => return false,
                Start::Maybe => return true,
                Start::Empty => d -= 1,
            }
        }
    }

    /// Whether the text read by `items[i..]` can start at `pos`, guards ignored, judged by
    /// the first item that reads text there: a literal or a name of a table that matches, a
    /// number (not looked at), a call one of whose arms can start there.
    fn starts(&mut self, items: &'static [Item], i: usize, pos: usize) -> Start {
        let key = (items.as_ptr() as usize, i as u32, pos as u32);
        // A re-entry at the same place (a template calling itself first) decides nothing.
        if let Some(r) = self.starts.get_or_file(key, Start::Maybe as usize..Start::Maybe as usize) {
            return Start::from(r.start);
        }
        let mut answer = Start::Empty;
        for item in items.iter().skip(i) {
            let first = match item {
                Item::Lit(s) => match self.literal(s, pos) {
                    Some(end) if end > pos => Start::Maybe,
                    Some(_) => Start::Empty,
                    None => Start::Never,
                },
                Item::Show(Expr::Arith(..) | Expr::If(..), _) | Item::Show(_, Show::Num(_)) => Start::Maybe,
                Item::Show(_, Show::Table(t)) => self.table_starts(t, pos),
                Item::Show(_, Show::TableIf(_, a, b)) => {
                    self.table_starts(a, pos).or(self.table_starts(b, pos))
                }
                Item::Call(sub, _) => {
                    let mut any = Start::Never;
                    for arm in sub.arms {
                        any = any.or(self.starts(arm.items, 0, pos));
                        if any == Start::Maybe {
                            break;
                        }
                    }
                    any
                }
                Item::Opt(_, body) => match self.starts(body, 0, pos) {
                    Start::Maybe => Start::Maybe,
                    Start::Never | Start::Empty => Start::Empty,
                },
                Item::AnyOrder(..) => Start::Maybe,
            };
            if first != Start::Empty {
                answer = first;
                break;
            }
        }
        self.starts.insert(key, answer as usize..answer as usize);
        answer
    }

    /// [`Parser::starts`] for a name of `t`: one at `pos` that reads text, only empty ones, or
    /// none.
    fn table_starts(&mut self, t: &'static Table, pos: usize) -> Start {
        let (in_order, _) = self.spellings(t, pos);
        let mut answer = Start::Never;
        for k in in_order {
            match self.spellings.items[k].0 {
                0 => answer = Start::Empty,
                _ => return Start::Maybe,
            }
        }
        answer
    }

    /// The spellings of `t` at `pos` as (length, value), as indices into `self.spellings`:
    /// in table order, and longest first (the order the search tries them).
    fn spellings(
        &mut self,
        t: &'static Table,
        pos: usize,
    ) -> (core::ops::Range<usize>, core::ops::Range<usize>) {
        let key = (t as *const Table as usize, 0, pos as u32);
        let r = match self.spellings.get(key) {
            Some(r) => r,
            None => {
                let items = &mut self.spellings.items;
                let first = items.len();
                let index = self.tables.get(t);
                t.candidates_indexed(index, self.text, pos, self.ctx.ignore_case, &mut |len, v| {
                    items.push((len, v))
                });
                let n = items.len() - first;
                items.extend_from_within(first..first + n);
                items[first + n..].sort_by_key(|c| core::cmp::Reverse(c.0));
                let r = first..items.len();
                self.spellings.insert(key, r.clone());
                r
            }
        };
        let mid = r.start + r.len() / 2;
        (r.start..mid, mid..r.end)
    }

    /// The known values, with defaults for the fields not known yet.
    fn defaulted<'s>(&'s self, st: &'s State) -> Defaulted<'s> {
        Defaulted { vals: &st.vals, fields: self.format.fields }
    }

    fn finish(&mut self, pos: usize, st: &mut State) -> bool {
        let pos = skip_blanks(self.text, pos);
        if pos != self.text.len() && !self.prefix {
            return self.fail(pos, "end of line");
        }
        self.end = pos;
        // A value owed fails the reading in `complete` whatever the choices: when only success
        // matters, they are not made.
        if self.prune && !st.owed.is_empty() {
            return false;
        }
        // Equalities between a field the text gave and one it did not (`mov`'s two equal
        // inputs) carry the value over before defaults apply.
        let mut changed = true;
        while changed {
            changed = false;
            // Assigning adds no deferred condition: the list can be walked by index.
            for i in 0..st.deferred.len() {
                let (e, want, frame) = &st.deferred[i];
                let (a, b) = match (e, want) {
                    (Expr::Cmp(Cmp::Eq, a, b), true) | (Expr::Cmp(Cmp::Ne, a, b), false) => (a, b),
                    _ => continue,
                };
                if !matches!(a, Expr::Field(_) | Expr::Param(_))
                    || !matches!(b, Expr::Field(_) | Expr::Param(_))
                {
                    continue;
                }
                let (x, y) = (bind(a, frame), bind(b, frame));
                match (bound_value(x, &st.vals), bound_value(y, &st.vals)) {
                    (Some(v), None) => changed |= self.assign(y, v as u64, st),
                    (None, Some(v)) => changed |= self.assign(x, v as u64, st),
                    _ => {}
                }
            }
        }
        self.resolve(pos, st)
    }

    /// Settles the deferred conditions once the text is read. Choices (`a || b`, `!(a && b)`)
    /// are not made while reading, so a line that fails in its text fails once rather than
    /// once per combination of choices; here each condition the defaults do not already
    /// satisfy is solved in turn, trying its parts in order.
    fn resolve(&mut self, pos: usize, st: &mut State) -> bool {
        // A view the text did not spell (AGX's texture index `v`, read as its register and
        // half) has the value its fields make up once they are known, as the printer sees it.
        let views = made_up_views(self.format, &st.vals, false);
        let vals = views.as_deref().unwrap_or(&st.vals);
        let with_defaults = made_up_views(self.format, &st.vals, true);
        let defaulted =
            Defaulted { vals: with_defaults.as_deref().unwrap_or(&st.vals), fields: self.format.fields };
        let mut open = Vec::new();
        for (i, (e, want, frame)) in st.deferred.iter().enumerate() {
            match eval(e, frame, vals, self.ctx.pc) {
                Some(v) if (v != 0) == *want => continue,
                Some(_) => return self.fail(pos, "operands consistent with each other"),
                None => {}
            }
            if eval_in(e, frame, &defaulted, self.ctx.pc).is_some_and(|v| (v != 0) == *want) {
                continue;
            }
            if solvable(e) {
                open.push(i);
            }
        }
        if open.is_empty() {
            return self.complete(pos, st);
        }
        // Solve one open condition, then the rest. One that can only be deferred again (a
        // `!=` whose field another condition assigns) is left for later: try each first.
        for i in open {
            let mut trial = st.clone();
            let (e, want, frame) = trial.deferred.remove(i);
            trial.reads.remove(i);
            let known = trial.vals.iter().filter(|v| v.is_some()).count();
            let left = trial.deferred.len();
            let lazy = core::mem::replace(&mut self.lazy, false);
            let ok = self.require(e, want, &frame, pos, &mut trial, &mut |p, pos, st| {
                let progress =
                    st.vals.iter().filter(|v| v.is_some()).count() > known || st.deferred.len() <= left;
                progress && p.resolve(pos, st)
            });
            self.lazy = lazy;
            if ok {
                *st = trial;
                return true;
            }
        }
        // No way to satisfy the conditions left: said at the end of the line, not left to an
        // earlier reading's expectation (which named an operand the text spells correctly).
        self.fail(pos, "operands consistent with each other")
    }

    /// Fills in the defaults and checks every deferred condition.
    fn complete(&mut self, pos: usize, st: &mut State) -> bool {
        if let Some(&slot) = st.owed.first() {
            let name = self.format.fields[slot as usize].name;
            return self.fail_with(pos, Want::WrittenOut(name));
        }
        let mut vals = Vec::with_capacity(st.vals.len());
        let mut word = 0u128;
        for (i, v) in st.vals.iter().enumerate() {
            let field = &self.format.fields[i];
            if field.view {
                vals.push(0);
                continue;
            }
            match v.or(field.default) {
                Some(v) => {
                    crate::bits::set(&mut word, field.pieces, v);
                    vals.push(v)
                }
                None => return self.fail_with(pos, Want::OperandFor(field.name)),
            }
        }
        // Deferred conditions see views as the fields make them up, as the printer does.
        let known: Vec<Option<u64>> = self
            .format
            .fields
            .iter()
            .zip(&vals)
            .map(|(f, v)| Some(if f.view { crate::bits::get(word, f.pieces) } else { *v }))
            .collect();
        for (e, want, frame) in &st.deferred {
            if (eval(e, frame, &known, self.ctx.pc).unwrap_or(0) != 0) != *want {
                return self.fail(pos, "operands consistent with each other");
            }
        }
        self.result = Some(vals);
        true
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
    fn literal(&self, s: &str, pos: usize) -> Option<usize> {
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
                    (_, Value::Float(f)) if width == 32 => Some(i128::from((f as f32).to_bits())),
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
        // A signed field takes its signed range; an unsigned one its unsigned range or the
        // negative numbers of the same width (`-1` for all ones). A signed field shown as raw
        // hex bits (`#x`: Maxwell's `[0xfffff8]`; `#x*4`: ATOMS's `[0xda914c]`) also reads what
        // it prints.
        let raw_hex = matches!(n, Num::Hex { .. } | Num::Bin { .. } | Num::HexValue { signed: false, .. });
        let fits = |value: i128| fits_width(value, width, signed, raw_hex);
        let mut fitted = false;
        let mut within = allowed.is_empty();
        for (value, len) in readings.into_iter().flatten() {
            if !fits(value) {
                continue;
            }
            fitted = true;
            let len = start - pos + len;
            let raw = (value as u64) & crate::bits::mask(width);
            // A field the encoding allows only some values of (`in 0..=15`) takes only those.
            if !allowed.is_empty() && !allowed.iter().any(|(lo, hi)| (*lo..=*hi).contains(&raw)) {
                continue;
            }
            within = true;
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

    /// Gives the field bound to `b` the raw value `v`. Fails when it already has another
    /// value, or when a deferred condition that the new value decides comes out wrong: such a
    /// path could only fail at the end of the line, after trying every way to read the rest.
    fn assign(&mut self, b: Bound, v: u64, st: &mut State) -> bool {
        let slot = match b {
            Bound::Const(c) => return c as u64 == v,
            Bound::Slot(s) => s,
            Bound::NotSlot(s) => s,
        };
        let v = match b {
            Bound::NotSlot(_) if v > 1 => return false,
            Bound::NotSlot(_) => 1 - v,
            _ => v,
        };
        // Guards compare raw bits, as the printer reads them: `x == -1` on a 4-bit field is
        // no value of it (the printer never takes that arm), not the bits 0xf; and an `in`
        // guard's choice is a value the field can hold (an enum's, not a hole between them).
        if !holds(&self.format.fields[slot as usize], v) {
            return false;
        }
        match st.vals[slot as usize] {
            Some(old) => return old == v,
            None => {
                st.vals[slot as usize] = Some(v);
                st.assigned.push(slot);
            }
        }
        // A view reads back into the fields that make it up (AGX's uniform number is the
        // high type bit above the register bits): each gets its bits of the value, and a field
        // the view covers only in part gets zero in its other bits.
        if self.format.fields[slot as usize].view {
            let view = self.format.fields[slot as usize].pieces;
            let mut word = 0u128;
            crate::bits::set(&mut word, view, v);
            for part in view_parts(self.format, slot) {
                let bits = crate::bits::get(word, self.format.fields[part as usize].pieces);
                if !self.assign(Bound::Slot(part), bits, st) {
                    return false;
                }
            }
        }
        // Unless one was already false, every deferred condition was undecided or true before:
        // only those reading this field can have changed.
        let bit = 1u64 << (slot % 64);
        let mut holds = !st.violated;
        // The fields known (bit `s` for field `s`), when each has a bit of its own.
        let mut known = None;
        for k in 0..st.deferred.len() {
            if !holds {
                break;
            }
            if st.reads[k] & bit == 0 {
                continue;
            }
            let (e, want, ref frame) = st.deferred[k];
            // Every field it reads known: looked at whole (assigning a view assigns the fields
            // that make it up first), which finds whatever looking at the parts reading this
            // field would. Not contradicted, it holds, and since fields keep their values no
            // later assignment can change that, so none checks it again.
            if self.format.fields.len() <= 64 {
                let known = *known.get_or_insert_with(|| {
                    st.vals.iter().enumerate().fold(0u64, |m, (i, v)| m | (u64::from(v.is_some()) << i))
                });
                if st.reads[k] & !known == 0 {
                    if self.contradicts(e, want, frame, &st.vals, bit, false) {
                        holds = false;
                        continue;
                    }
                    st.settled.push((k, st.reads[k]));
                    st.reads[k] = 0;
                    continue;
                }
            }
            if self.contradicts(e, want, frame, &st.vals, bit, true) {
                holds = false;
            }
        }
        st.violated = !holds;
        holds
    }

    /// Whether `e`, a condition that must come out `want`, now comes out otherwise (evaluates
    /// to the other truth value; undecided is not a contradiction): as evaluating it whole,
    /// but looking into `&&`, `||` and `!`. With `changed_only`, `e` was not contradicted
    /// before the field of `bit` was given its value, so of the parts any one of which
    /// contradicts it (`a && b` that must hold, `a || b` that must not), only those reading
    /// that field can now: the others are skipped unevaluated.
    fn contradicts(
        &mut self,
        e: &'static Expr,
        want: bool,
        frame: &[Bound],
        vals: &[Option<u64>],
        bit: u64,
        changed_only: bool,
    ) -> bool {
        match e {
            Expr::Not(x) => self.contradicts(x, !want, frame, vals, bit, changed_only),
            // Evaluated whole, `a && b` is false as soon as one part is, `a || b` true.
            Expr::And(xs) | Expr::Or(xs) if matches!(e, Expr::And(_)) == want => xs.iter().any(|x| {
                (!changed_only || leaf_bits(x, frame).unwrap_or_else(|| self.reads.bits(x, frame)) & bit != 0)
                    && self.contradicts(x, want, frame, vals, bit, changed_only)
            }),
            // `a && b` that must not hold is contradicted when every part holds (`a || b` that
            // must hold when none does); a part may have held before, so each is looked at.
            Expr::And(xs) | Expr::Or(xs) => {
                xs.iter().all(|x| self.contradicts(x, want, frame, vals, bit, false))
            }
            _ => eval(e, frame, vals, self.ctx.pc).is_some_and(|v| (v != 0) != want),
        }
    }

    /// Makes `e` evaluate to `want`, calling `k` on every way found until one succeeds.
    fn require(
        &mut self,
        e: &'static Expr,
        want: bool,
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        let (known, defaulted) = eval_both(e, frame, &st.vals, self.format.fields, self.ctx.pc);
        if let Some(v) = known {
            return (v != 0) == want && k(self, pos, st);
        }
        // When the defaults of the unknown fields already give `want`, check it once every
        // field is known rather than guessing values now: text that does not mention a field
        // leaves it at its default, and no choice is made that could multiply backtracking.
        if defaulted.is_some_and(|v| (v != 0) == want) {
            return self.defer(e, want, frame, pos, st, k);
        }
        match e {
            Expr::Field(_) | Expr::Param(_) => {
                let b = bind(e, frame);
                let one_bit = match b {
                    Bound::Slot(s) | Bound::NotSlot(s) => {
                        crate::bits::width(self.format.fields[s as usize].pieces) == 1
                    }
                    Bound::Const(_) => true,
                };
                if one_bit {
                    self.assign(b, want as u64, st) && k(self, pos, st)
                } else {
                    self.defer(e, want, frame, pos, st, k)
                }
            }
            Expr::Not(x) => self.require(x, !want, frame, pos, st, k),
            Expr::And(xs) if want => self.require_all(xs, true, frame, pos, st, k),
            Expr::Or(xs) if !want => self.require_all(xs, false, frame, pos, st, k),
            Expr::And(xs) | Expr::Or(xs) => {
                // A choice: try each part that can be solved (one that names a field value,
                // directly or inside a nested `&&`/`||`). Parts that cannot be solved are checked
                // at the end, as a last alternative, once every field is known.
                // A set (`op in {1..=7}`) is no choice here: the text usually gives its field,
                // and branching on each one cost VideoCore IV's 48 set guards 13 % of its
                // assembly; the end settles a field still unknown.
                let choice = |x: &&Expr| solvable(x) && !matches!(x, Expr::In(..));
                let parts = xs.iter().filter(choice).count();
                if parts == 0 || self.lazy {
                    return self.defer(e, want, frame, pos, st, k);
                }
                for x in xs.iter().filter(choice) {
                    let mark = st.mark();
                    if self.require(x, want, frame, pos, st, k) {
                        return true;
                    }
                    st.undo(&mark);
                }
                if parts < xs.len() {
                    return self.defer(e, want, frame, pos, st, k);
                }
                false
            }
            Expr::Cmp(op, a, b) if (*op == Cmp::Eq && want) || (*op == Cmp::Ne && !want) => {
                let (va, vb) = (eval(a, frame, &st.vals, self.ctx.pc), eval(b, frame, &st.vals, self.ctx.pc));
                let target = match (va, vb) {
                    (None, Some(v)) if matches!(a, Expr::Field(_) | Expr::Param(_)) => {
                        Some((bind(a, frame), v))
                    }
                    (Some(v), None) if matches!(b, Expr::Field(_) | Expr::Param(_)) => {
                        Some((bind(b, frame), v))
                    }
                    _ => None,
                };
                match target {
                    Some((bound, v)) => self.assign(bound, v as u64, st) && k(self, pos, st),
                    None => self.defer(e, want, frame, pos, st, k),
                }
            }
            // A field in a set of values (`sel in {0..=3}`): a choice among them, made after
            // the text as other choices are, so the text settles the field where it shows it.
            Expr::In(x, ranges) if !self.lazy && matches!(**x, Expr::Field(_) | Expr::Param(_)) => {
                let b = bind(x, frame);
                let width = match b {
                    Bound::Slot(s) | Bound::NotSlot(s) => {
                        crate::bits::width(self.format.fields[s as usize].pieces)
                    }
                    Bound::Const(_) => return self.defer(e, want, frame, pos, st, k),
                };
                let width = if matches!(b, Bound::NotSlot(_)) { 1 } else { width };
                let Some(values) = in_choices(ranges, want, width) else {
                    return self.defer(e, want, frame, pos, st, k);
                };
                for v in values {
                    let mark = st.mark();
                    if self.assign(b, v, st) && k(self, pos, st) {
                        return true;
                    }
                    st.undo(&mark);
                }
                false
            }
            _ => self.defer(e, want, frame, pos, st, k),
        }
    }

    fn require_all(
        &mut self,
        xs: &'static [Expr],
        want: bool,
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        match xs.split_first() {
            None => k(self, pos, st),
            Some((x, rest)) => self.require(x, want, frame, pos, st, &mut |p, pos, st| {
                p.require_all(rest, want, frame, pos, st, &mut *k)
            }),
        }
    }

    fn defer(
        &mut self,
        e: &'static Expr,
        want: bool,
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        // A template called at several places defers the same condition again: once is
        // enough, and every assignment checks fewer.
        let again = st.deferred.iter().any(|(x, w, f)| core::ptr::eq(*x, e) && *w == want && f[..] == *frame);
        if !again {
            st.deferred.push((e, want, Frame::new(frame)));
            let bits = self.reads.bits(e, frame);
            st.reads.push(bits);
        }
        k(self, pos, st)
    }
}

// ---- The quick reader ------------------------------------------------------------------------

/// What [`quick_in`] makes of a text for one format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Quick {
    /// The search reads the text to these values, its reading ending here: what [`parses_in`]
    /// (or, for a prefix, [`parse_prefix_in`]) gives.
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
struct QuickState {
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
/// name must spell out elsewhere in the line, as in the search ([`note_spelling`]).
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

/// Whether table `t` prints value `v` as some text ([`note_spelling`]).
fn prints_text(t: &Table, v: u64) -> bool {
    let mut printed = Nonempty(false);
    t.write(v, &mut printed).is_some() && printed.0
}

/// A writer that only notes whether anything was written.
struct Nonempty(bool);

impl Write for Nonempty {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 |= !s.is_empty();
        Ok(())
    }
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

    /// The values an `in` guard offers a 3-bit field: raw values, so a range below zero
    /// offers none and one across zero only its non-negative part.
    #[test]
    fn in_guard_choices_are_raw_values() {
        assert_eq!(in_choices(&[(4, 5), (0, 1)], true, 3), Some(vec![4, 5, 0, 1]));
        assert_eq!(in_choices(&[(-5, -1)], true, 3), Some(vec![]));
        assert_eq!(in_choices(&[(-2, 1), (6, 20)], true, 3), Some(vec![0, 1, 6, 7]));
        assert_eq!(in_choices(&[(0, 3)], false, 3), Some(vec![4, 5, 6, 7]));
        assert_eq!(in_choices(&[(0, 300)], true, 16), None);
        // A 64-bit field's raw values from 2^63 up read negative: 0xfffffffffffffffe and up.
        assert_eq!(in_choices(&[(-2, -1)], true, 64), Some(vec![u64::MAX - 1, u64::MAX]));
        assert_eq!(
            in_choices(&[(i64::MAX - 1, i64::MAX)], true, 64),
            Some(vec![(1 << 63) - 2, (1 << 63) - 1])
        );
        assert_eq!(in_choices(&[(i64::MIN, i64::MAX)], true, 64), None);
    }

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

    static FADD: Syntax = Syntax {
        name: "fadd",
        arms: &[
            Arm { guard: None, items: &[Item::Lit("FADD.FTZ "), Item::Lit(" , ")], alias: false },
            Arm {
                guard: None,
                items: &[Item::Lit("FADD "), Item::Opt(&Expr::Int(1), &[Item::Lit(".SAT")])],
                alias: false,
            },
        ],
    };

    static REG: Table = Table {
        name: "Reg",
        entries: &[
            Entry::Range { prefix: "R", suffix: "", lo: 0, hi: 254, shift: 0 },
            Entry::Name("RZ", 255),
        ],
    };
    static OP: Table = Table { name: "Op", entries: &[Entry::Name("fadd", 0), Entry::Name("add", 1)] };

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
                Entry::Else("?"),
            ],
        };
        let texts = ["ra5.16a", "RA5 .16a", "r5 >> 1, 3s", "  nop ;", "ra31 >>1", "", "?? 7s", "\tR5"];
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
        // Not vacuous: the walk finds names here.
        let mut found = Vec::new();
        MIXED.candidates("RA5 .16a", 0, true, &mut |len, v| found.push((len, v)));
        assert_eq!(found, [(0, 0), (3, 1), (3, 5)]);
    }
    static IDLE: Table = Table { name: "Idle", entries: &[Entry::Name("", 0), Entry::Name("nop", 1)] };
    /// `@P0 ` or nothing, as a guard before a mnemonic.
    static GUARD: Syntax = Syntax {
        name: "guard",
        arms: &[
            Arm { guard: None, items: &[], alias: false },
            Arm {
                guard: None,
                items: &[Item::Lit("@"), Item::Show(&Expr::Int(0), Show::Table(&REG)), Item::Lit(" ")],
                alias: false,
            },
        ],
    };
    static LINE: Syntax = Syntax {
        name: "line",
        arms: &[
            Arm {
                guard: None,
                items: &[Item::Call(&GUARD, &[]), Item::Lit("MOV "), Item::Lit(", ")],
                alias: false,
            },
            Arm {
                guard: None,
                items: &[Item::Show(&Expr::Int(0), Show::Table(&IDLE)), Item::Lit("read ")],
                alias: false,
            },
            Arm {
                guard: None,
                items: &[Item::Show(&Expr::Int(0), Show::Table(&OP)), Item::Lit(" ")],
                alias: false,
            },
            Arm {
                guard: None,
                items: &[Item::Show(&Expr::Int(0), Show::Table(&REG)), Item::Lit(" = ")],
                alias: false,
            },
        ],
    };

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
    fn failures_list_ranges_first_and_the_whole_token() {
        let f = Failure {
            pos: 4,
            expected: vec![
                Expected::Name("`RZ`".into()),
                Expected::Kind("a number".into()),
                Expected::Range("`R0`..`R254`".into()),
                Expected::Kind("a number".into()),
            ],
        };
        assert_eq!(
            f.message("MOV a_very_long_operand_name, R1"),
            "expected `R0`..`R254`, a number or `RZ`, found `a_very_long_operand_name`"
        );
        assert_eq!(
            REG.expected().collect::<Vec<_>>(),
            [Expected::Range("`R0`..`R254`".into()), Expected::Name("`RZ`".into())]
        );
        let many =
            Failure { pos: 3, expected: (0..12).map(|i| Expected::Name(alloc::format!("`n{i}`"))).collect() };
        assert_eq!(
            many.message("abc"),
            "expected `n0`, `n1`, `n2`, `n3`, `n4`, `n5`, `n6`, `n7`, `n8`, `n9` or 2 more, found end of line"
        );
        assert_eq!(token_at("a, b", 1), (1, 1));
        assert_eq!(token_at("a  bogus;x", 1), (3, 5));
        assert_eq!(token_at("a ", 1), (2, 0));
        assert_eq!(token_at("tram16.xyzw, x", 4), (4, 2));
        assert_eq!(token_at("-1.5.x", 0), (0, 4));
        assert_eq!(token_at("0x1f)", 0), (0, 4));
        assert_eq!(token_at("12abc.x", 0), (0, 7));
    }

    /// An optional guard, an operation name, a register.
    static OP_REG: Syntax = Syntax {
        name: "op_reg",
        arms: &[Arm {
            guard: None,
            items: &[
                Item::Call(&GUARD, &[]),
                Item::Show(&Expr::Int(0), Show::Table(&OP)),
                Item::Lit(" "),
                Item::Show(&Expr::Int(0), Show::Table(&REG)),
            ],
            alias: false,
        }],
    };

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
