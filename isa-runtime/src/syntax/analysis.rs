//! Static analyses of a syntax, answered from the description alone before any text is read:
//! whether a text may match at all, the words every arm needs, the mnemonics and leads a
//! syntax starts with, what may follow each lead, and the bytes a text may hold. The format
//! index and the search's pruning use them; they never decide a reading, only rule one out.

use super::names::{is_word, Entry, Table};
use super::scan::takes_expression;
use super::tree::{Arm, Expr, Item, Num, Show, Syntax};
use super::walk::{self, After, At, Visit, MNEMONIC_DEPTH};
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
    /// that every arm needs somewhere in the text it reads, its own literals' or those of a
    /// sub-syntax it calls whose every arm needs it (Maxwell's mnemonics, inside the template
    /// a guard and the destination come from): the longest word of an arm that every arm has
    /// too, or inside a word of its own (`ISCADD` of `ISCADD.PO`). `None` when the arms share
    /// none.
    pub fn required_word(&self) -> Option<&'static str> {
        needed_words(self.arms, 0).into_iter().fold(None, |best: Option<&'static str>, w| match best {
            Some(b) if b.len() >= w.len() => Some(b),
            _ => Some(w),
        })
    }
}

/// The words every one of `arms` needs ([`Syntax::required_word`]), the first arm's first:
/// of an arm's literals, and of the sub-syntaxes it calls outside optional groups, each of
/// whose arms needs them (to [`MNEMONIC_DEPTH`] calls).
fn needed_words(arms: &'static [Arm], depth: u32) -> Vec<&'static str> {
    let of_arm = |arm: &'static Arm| {
        let mut out = Vec::new();
        for item in arm.items {
            match item {
                Item::Lit(s) => out.extend(words(s)),
                Item::Call(sub, _) if depth < MNEMONIC_DEPTH => out.extend(needed_words(sub.arms, depth + 1)),
                _ => {}
            }
        }
        out
    };
    // A word is needed where every arm has it or a word holding it: the arms of Maxwell's
    // `iscadd_head` (`ISCADD.PO` and `ISCADD`) both need `ISCADD` in the text.
    let of_arms: Vec<Vec<&'static str>> = arms.iter().map(of_arm).collect();
    let mut out: Vec<&'static str> = Vec::new();
    for &w in of_arms.iter().flatten() {
        if !out.contains(&w) && of_arms.iter().all(|ws| ws.iter().any(|x| x.contains(w))) {
            out.push(w);
        }
    }
    out
}

impl Syntax {
    /// The mnemonics of this syntax: the words (letters, digits, `_`) its arms can start with,
    /// after parts that can be empty and prefixes that start with punctuation; literal text and
    /// name-table spellings alike. Added to `out` in order, without repeats.
    pub fn mnemonics(&self, out: &mut Vec<&'static str>) {
        walk::arms(&mut Mnemonics { out, prefix: false }, self.arms, None, 0);
    }
}

/// [`Syntax::mnemonics`]: the words found, and whether the item just looked at was a prefix.
struct Mnemonics<'o> {
    out: &'o mut Vec<&'static str>,
    prefix: bool,
}

/// How a literal or spelling starts, for finding mnemonics.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lead {
    /// It can match no text: what follows leads.
    Empty,
    /// It starts with a word (collected): a mnemonic.
    Word,
    /// It starts with punctuation (a `@P0 ` guard): a prefix, skipped like an empty one.
    Prefix,
}

impl Mnemonics<'_> {
    fn lead_of(&mut self, s: &'static str) -> Lead {
        let t = s.trim_start_matches([' ', '\t']);
        let word = &t[..t.bytes().take_while(|b| is_word(*b)).count()];
        if t.is_empty() {
            Lead::Empty
        } else if word.is_empty() {
            Lead::Prefix
        } else {
            if !self.out.contains(&word) {
                self.out.push(word);
            }
            Lead::Word
        }
    }
}

impl Visit for Mnemonics<'_> {
    const EVERY_ITEM: bool = false;

    fn text(&mut self, s: &'static str, _: &At) -> Option<bool> {
        let lead = self.lead_of(s);
        self.prefix = lead == Lead::Prefix;
        Some(lead != Lead::Word)
    }

    fn table(&mut self, _: &Expr, t: &'static Table, _: &At) -> Option<bool> {
        let mut empty = false;
        for e in t.entries {
            // A range's spellings are a prefix and a number (`r0`..`r3`): operands, not mnemonics.
            let Entry::Name(text, _) = *e else { continue };
            empty |= self.lead_of(text) != Lead::Word;
        }
        Some(empty)
    }

    // A number starts an operand: a mnemonic, if any, was before it.
    fn number(&mut self, _: &Expr, _: &Num) -> Option<bool> {
        Some(false)
    }

    // A prefix arm makes the whole list skippable for its caller.
    fn prefix(&mut self) -> bool {
        core::mem::take(&mut self.prefix)
    }

    fn too_deep(&mut self) -> Option<bool> {
        Some(false)
    }
}

impl Syntax {
    /// The texts one of which starts every text this syntax reads (after leading blanks),
    /// guards and conditions ignored, so a superset: literals and name-table spellings up to
    /// their first blank, through optional parts and sub-syntaxes. `None` when a reading may
    /// start with anything (a number, or nothing at all). The assembler indexes formats by
    /// them: a line is parsed only by the formats whose syntax can start it.
    pub fn leads(&self) -> Option<Vec<&'static str>> {
        let mut v = Leads { out: Vec::new(), walked: Vec::new() };
        match walk::arms(&mut v, self.arms, None, 0) {
            // Collected with repeats (a template called at several places gives its leads
            // again); the first of each is kept, in order.
            Some(false) => {
                let mut seen = alloc::collections::BTreeSet::new();
                v.out.retain(|lead| seen.insert(*lead));
                Some(v.out)
            }
            _ => None,
        }
    }
}

/// [`Syntax::leads`]: the leads found, and the sub-syntaxes whose leads are in the list
/// already: (address, depth walked at, whether one of their readings can be empty).
struct Leads {
    out: Vec<&'static str>,
    walked: Vec<(usize, u32, bool)>,
}

impl Visit for Leads {
    const EVERY_ITEM: bool = false;

    fn text(&mut self, s: &'static str, _: &At) -> Option<bool> {
        Some(lead_of(s, &mut self.out))
    }

    fn table(&mut self, _: &Expr, t: &'static Table, _: &At) -> Option<bool> {
        let mut empty = false;
        for e in t.entries {
            match *e {
                Entry::Name(s, _) => empty |= lead_of(s, &mut self.out),
                // A range's spelling without a prefix starts with its number.
                Entry::Range { prefix, .. } => {
                    if lead_of(prefix, &mut self.out) {
                        return None;
                    }
                }
                // Printed, never read.
                Entry::Many(..) | Entry::Else(_) => {}
            }
        }
        Some(empty)
    }

    fn number(&mut self, _: &Expr, _: &Num) -> Option<bool> {
        None
    }

    // A template called at several places gives the same leads each time: walked once, and
    // again only deeper than before (where the walk could reach the limit).
    fn known(&mut self, sub: &'static Syntax, depth: u32) -> Option<bool> {
        let key = sub.arms.as_ptr() as usize;
        self.walked.iter().find(|(k, d, _)| *k == key && depth < *d).map(|&(_, _, empty)| empty)
    }

    fn walked(&mut self, sub: &'static Syntax, depth: u32, empty: bool) {
        self.walked.push((sub.arms.as_ptr() as usize, depth + 1, empty));
    }

    fn too_deep(&mut self) -> Option<bool> {
        None
    }
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

/// Adds byte `b` to `set`, and its other case when `fold` and `b` is a letter.
pub fn add_byte(set: &mut Bytes, b: u8, fold: bool) {
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

/// The bytes of `set`, in order (read from its set bits).
pub fn bytes_of(set: &Bytes) -> impl Iterator<Item = u8> + '_ {
    set.iter().enumerate().flat_map(|(i, &bits)| {
        let mut rest = bits;
        core::iter::from_fn(move || {
            let b = rest.trailing_zeros();
            rest &= rest.wrapping_sub(1);
            (b < 64).then(|| (i * 64) as u8 + b as u8)
        })
    })
}

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
        let mut v = LeadFollows { fold: ignore_case, out: Vec::new(), after: None };
        match walk::arms(&mut v, self.arms, None, 0)? {
            false => Some(v.out),
            true => None,
        }
    }
}

/// [`Syntax::lead_follows`]: as [`Leads`], each lead with what may follow it; what follows the
/// item at hand, the same for each of its spellings, is found once (`after`).
struct LeadFollows {
    fold: bool,
    out: Follows,
    after: Option<Bytes>,
}

impl LeadFollows {
    fn spelling(&mut self, s: &'static str, at: &At) -> bool {
        let mut leads = Vec::new();
        let empty = lead_of(s, &mut leads);
        for lead in leads {
            // A lead that is the whole spelling, or cut at blanks that end it, is followed by
            // what follows the item (a blank in a literal may match none); one cut at blanks
            // before more of the spelling by blanks or that spelling's first byte; one cut
            // before a separator by that byte (or the blanks before it).
            let t = s.trim_start_matches(' ');
            let rest = &t[lead.len()..];
            let more = rest.trim_start_matches(' ');
            let follow = match more.bytes().next() {
                None => *self.after.get_or_insert_with(|| first_after(at, self.fold)),
                Some(b) => {
                    let mut set = [0; 4];
                    add_byte(&mut set, b' ', false);
                    add_byte(&mut set, b'\t', false);
                    add_byte(&mut set, b, self.fold);
                    set
                }
            };
            self.out.push((lead, follow));
        }
        empty
    }
}

impl Visit for LeadFollows {
    const EVERY_ITEM: bool = false;

    fn item(&mut self, _: &At) -> Option<()> {
        self.after = None;
        Some(())
    }

    fn text(&mut self, s: &'static str, at: &At) -> Option<bool> {
        Some(self.spelling(s, at))
    }

    fn table(&mut self, _: &Expr, t: &'static Table, at: &At) -> Option<bool> {
        let mut empty = false;
        for e in t.entries {
            match *e {
                Entry::Name(s, _) => empty |= self.spelling(s, at),
                // A number follows the prefix.
                Entry::Range { prefix, .. } => {
                    let mut leads = Vec::new();
                    if lead_of(prefix, &mut leads) {
                        return None;
                    }
                    self.out.extend(leads.into_iter().map(|lead| (lead, ANY_BYTE)));
                }
                Entry::Many(..) | Entry::Else(_) => {}
            }
        }
        Some(empty)
    }

    fn number(&mut self, _: &Expr, _: &Num) -> Option<bool> {
        None
    }

    fn too_deep(&mut self) -> Option<bool> {
        None
    }
}

/// The bytes that may start the text read after the item at hand, then what comes after its
/// list, and so on outwards, with blanks; every byte at the end of the syntax.
fn first_after(at: &At, fold: bool) -> Bytes {
    let mut set = [0; 4];
    add_byte(&mut set, b' ', false);
    add_byte(&mut set, b'\t', false);
    let first = After { items: at.items, i: at.i + 1, outer: at.then };
    let mut next = Some(&first);
    while let Some(a) = next {
        let (first, empty) = first_of_items(&a.items[a.i.min(a.items.len())..], at.depth, fold);
        union(&mut set, &first);
        if !empty {
            return set;
        }
        next = a.outer;
    }
    ANY_BYTE
}

/// The bytes a text read by `items` may start with (blanks aside), and whether it may be
/// empty.
fn first_of_items(items: &'static [Item], depth: u32, fold: bool) -> (Bytes, bool) {
    let mut v = First { fold, set: [0; 4] };
    let empty = walk::items(&mut v, items, None, depth).unwrap_or(true);
    (v.set, empty)
}

/// [`first_of_items`]: the bytes found.
struct First {
    fold: bool,
    set: Bytes,
}

impl First {
    fn spelling(&mut self, s: &str) -> bool {
        match s.trim_start_matches(' ').bytes().next() {
            Some(b) => {
                add_byte(&mut self.set, b, self.fold);
                false
            }
            None => true,
        }
    }
}

impl Visit for First {
    const EVERY_ITEM: bool = false;

    fn text(&mut self, s: &'static str, _: &At) -> Option<bool> {
        Some(self.spelling(s))
    }

    fn table(&mut self, e: &Expr, t: &'static Table, _: &At) -> Option<bool> {
        // A computed value is read as the printer's text.
        if let Expr::Arith(..) | Expr::If(..) = e {
            self.set = ANY_BYTE;
            return Some(true);
        }
        let mut empty = false;
        for e in t.entries {
            match *e {
                Entry::Name(s, _) => empty |= self.spelling(s),
                Entry::Range { prefix, .. } => {
                    if self.spelling(prefix) {
                        self.set = ANY_BYTE;
                    }
                }
                Entry::Many(..) | Entry::Else(_) => {}
            }
        }
        Some(empty)
    }

    fn number(&mut self, _: &Expr, _: &Num) -> Option<bool> {
        self.set = ANY_BYTE;
        Some(true)
    }

    fn too_deep(&mut self) -> Option<bool> {
        self.set = ANY_BYTE;
        Some(true)
    }
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
        let mut v = TextBytes { fold: ignore_case, set: [0; 4], expressions: false, seen: alloc::vec![self] };
        add_byte(&mut v.set, b' ', false);
        add_byte(&mut v.set, b'\t', false);
        walk::arms(&mut v, self.arms, None, 0);
        (v.set, v.expressions)
    }
}

/// [`Syntax::text_bytes`]: the bytes found, whether a number takes an expression, and the
/// sub-syntaxes walked (each once, at any depth).
struct TextBytes {
    fold: bool,
    set: Bytes,
    expressions: bool,
    seen: Vec<*const Syntax>,
}

impl TextBytes {
    fn spelling(&mut self, s: &str) {
        s.bytes().for_each(|b| add_byte(&mut self.set, b, self.fold));
    }
}

impl Visit for TextBytes {
    const EVERY_ITEM: bool = true;
    const DEPTH: u32 = u32::MAX;

    fn text(&mut self, s: &'static str, _: &At) -> Option<bool> {
        self.spelling(s);
        Some(false)
    }

    fn table(&mut self, _: &Expr, t: &'static Table, _: &At) -> Option<bool> {
        for e in t.entries {
            match *e {
                Entry::Name(s, _) => self.spelling(s),
                Entry::Range { prefix, suffix, .. } => {
                    self.spelling(prefix);
                    self.spelling(suffix);
                    self.spelling("+-0123456789");
                }
                Entry::Many(..) | Entry::Else(_) => {}
            }
        }
        Some(false)
    }

    fn number(&mut self, _: &Expr, n: &Num) -> Option<bool> {
        (0..=255u8)
            .filter(|b| b.is_ascii_alphanumeric() || b"_.-+".contains(b))
            .for_each(|b| add_byte(&mut self.set, b, false));
        self.expressions |= takes_expression(n);
        Some(false)
    }

    fn between(&mut self, s: &'static str) -> Option<()> {
        self.spelling(s);
        Some(())
    }

    fn known(&mut self, sub: &'static Syntax, _: u32) -> Option<bool> {
        if self.seen.contains(&(sub as *const Syntax)) {
            return Some(false);
        }
        self.seen.push(sub);
        None
    }

    fn too_deep(&mut self) -> Option<bool> {
        Some(false)
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
        let mut walk =
            CommaFollows { fold: ignore_case, budget: COMMA_WALK, set: [0; 4], tables: Default::default() };
        walk::arms(&mut walk, self.arms, None, 0)?;
        Some(walk.set)
    }
}

/// [`Syntax::comma_follows`]: the items it may still look at, the bytes found, and whether
/// each table met has a `,` in a spelling (by address; a table is met at every place it is
/// shown).
struct CommaFollows {
    fold: bool,
    budget: u32,
    set: Bytes,
    tables: alloc::collections::BTreeMap<usize, bool>,
}

impl CommaFollows {
    fn spelling(&mut self, s: &str, at: &At) {
        for (j, _) in s.match_indices(',') {
            match s[j + 1..].bytes().find(|b| *b != b' ' && *b != b'\t') {
                Some(b) => add_byte(&mut self.set, b, self.fold),
                None => union(&mut self.set, &first_after(at, self.fold)),
            }
        }
    }
}

impl Visit for CommaFollows {
    const EVERY_ITEM: bool = true;

    fn item(&mut self, _: &At) -> Option<()> {
        self.budget = self.budget.checked_sub(1)?;
        Some(())
    }

    fn text(&mut self, s: &'static str, at: &At) -> Option<bool> {
        self.spelling(s, at);
        Some(false)
    }

    fn table(&mut self, _: &Expr, t: &'static Table, at: &At) -> Option<bool> {
        let spellings = || {
            t.entries.iter().flat_map(|e| match *e {
                Entry::Name(s, _) => [s, ""],
                Entry::Range { prefix, suffix, .. } => [prefix, suffix],
                Entry::Many(..) | Entry::Else(_) => ["", ""],
            })
        };
        let commas = *self
            .tables
            .entry(t as *const Table as usize)
            .or_insert_with(|| spellings().any(|s| s.contains(',')));
        if commas {
            spellings().for_each(|s| self.spelling(s, at));
        }
        Some(false)
    }

    fn number(&mut self, _: &Expr, _: &Num) -> Option<bool> {
        Some(false)
    }

    fn between(&mut self, s: &'static str) -> Option<()> {
        (!s.contains(',')).then_some(())
    }

    fn too_deep(&mut self) -> Option<bool> {
        None
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
        // The guard's `@` is followed by a register; `FADD.FTZ ` is cut at its blank, which
        // may match none: what follows is the blanks or the next literal's ` , `; `FADD ` is
        // followed by an optional `.SAT` at the end of the syntax, so by anything.
        assert_eq!(of("@"), {
            let mut set = [0; 4];
            for b in [b' ', b'\t', b'R'] {
                add_byte(&mut set, b, false);
            }
            set
        });
        let fadd = FADD.lead_follows(false).expect("leads");
        let mut blanks_or_comma = [0; 4];
        for b in [b' ', b'\t', b','] {
            add_byte(&mut blanks_or_comma, b, false);
        }
        assert_eq!(fadd, [("FADD.FTZ", blanks_or_comma), ("FADD", ANY_BYTE)]);
        assert_eq!(GUARD.lead_follows(false), None);
    }

    #[test]
    fn required_words_are_literal_words_every_arm_has() {
        // Both arms need `,`, and `FADD`: the second's word, inside the first's `FADD.FTZ`.
        static BOTH: Syntax = Syntax {
            name: "both",
            arms: &[
                Arm { guard: None, alias: false, items: &[Item::Lit("FADD.FTZ "), Item::Lit(" , ")] },
                Arm { guard: None, alias: false, items: &[Item::Lit("FADD "), Item::Lit(", ")] },
            ],
        };
        assert_eq!(BOTH.required_word(), Some("FADD"));
        assert!(BOTH.may_match("FADD.FTZ R0, R1", false));
        // `FADD.FTZ` alone is no word both need: the second arm's text need not hold it.
        static SHORT: Syntax = Syntax {
            name: "short",
            arms: &[
                Arm { guard: None, alias: false, items: &[Item::Lit("FADD.FTZ "), Item::Lit("R")] },
                Arm { guard: None, alias: false, items: &[Item::Lit("FMUL "), Item::Lit("R")] },
            ],
        };
        assert_eq!(SHORT.required_word(), Some("R"));
        // The fixture's second arm has no `,`: `FADD` only.
        assert_eq!(FADD.required_word(), Some("FADD"));
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
