//! Generated readers: for a format's syntax in a dialect whose every choice (an arm, an
//! optional group present or absent) the text decides by its next byte after blanks, a Rust
//! function that reads a statement one way, without the engine's walk over alternatives
//! (`isa_runtime::syntax::fast_in`). The first bytes each alternative may start with, what
//! follows it included, are worked out here from the description; a name's spellings are
//! found by a look-up written here once per name table ([`spell`]: a `match` on the text's
//! byte, spellings of up to eight bytes compared as one `u64`), numbers and conditions by the
//! runtime's steps, the engine's own. A syntax where two
//! alternatives may start with one byte (VideoCore IV's ALU, whose arms only their guards
//! tell apart), or that reads what the runtime's steps leave to the engine (labels, names
//! chosen by a condition, groups in any order, computed values), gets no reader: the engine
//! reads it as before. Where the text leaves a choice open, the reader answers "unsure" and
//! the engine decides, so a reader never changes what the assembler reads.

use super::model::{str_lit, Model};
use super::names::upper;
use super::tables::{expr, items, num_style_text, table_entries, table_ident, TableEntry};
use crate::ir::{self, CondExpr, NumStyle, Show, SyntaxItem};
use std::collections::BTreeSet;
use std::fmt::Write;

/// What a text may start with: each token a prefix of the text (blanks left out, lowercased,
/// `\0` for its end), or "anything" (a number).
#[derive(Clone, Default)]
struct Toks {
    toks: BTreeSet<String>,
    any: bool,
}

/// The most tokens kept (more: anything), and the longest token.
const TOKS: usize = 512;
const TOK_LEN: usize = 16;

fn list<'a>(toks: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::from("&[");
    for t in toks {
        str_lit(t, &mut out);
        out.push_str(", ");
    }
    out.push(']');
    out
}

fn norm(s: &str) -> String {
    s.bytes().filter(|c| *c != b' ' && *c != b'\t').map(|c| char::from(c.to_ascii_lowercase())).collect()
}

impl Toks {
    fn any() -> Toks {
        Toks { any: true, ..Toks::default() }
    }

    fn end() -> Toks {
        Toks { toks: BTreeSet::from(["\0".to_string()]), any: false }
    }

    /// `t` (not empty) then what `after` starts with: `t` lengthened by each of its tokens.
    fn then(t: &str, after: &Toks) -> Toks {
        let mut set = BTreeSet::new();
        // Many ways to go on: `t` alone (a shorter start of the same texts).
        if after.any || t.len() >= TOK_LEN || after.toks.len() > 32 {
            set.insert(t.chars().take(TOK_LEN).collect());
        } else {
            for a in &after.toks {
                set.insert(format!("{t}{a}").chars().take(TOK_LEN).collect());
            }
        }
        Toks { any: set.len() > TOKS, toks: set }
    }

    fn union(mut self, other: &Toks) -> Toks {
        self.toks.extend(other.toks.iter().cloned());
        self.any |= other.any;
        if self.toks.len() > TOKS {
            // Too many: their first bytes (shorter starts of the same texts).
            self.toks = self.toks.iter().map(|t| t.chars().take(3).collect()).collect();
            self.any |= self.toks.len() > TOKS;
        }
        self
    }

    /// Whether a text may start with one of these and with one of `other`'s.
    fn meet(&self, other: &Toks) -> bool {
        self.any
            || other.any
            || other
                .toks
                .iter()
                .any(|t| self.toks.iter().any(|u| u.starts_with(t.as_str()) || t.starts_with(u.as_str())))
    }

    /// Each token cut to its shortest start that no text starting with one of `other`'s may
    /// also start with (they do not [`Toks::meet`]): as Rust text, what tells a text of these
    /// from one of `other`.
    fn against(&self, other: &Toks) -> String {
        let apart = |t: &str| other.toks.iter().all(|u| !u.starts_with(t) && !t.starts_with(u.as_str()));
        let cut: BTreeSet<&str> = self
            .toks
            .iter()
            .map(|t| (1..=t.len()).map(|k| &t[..k]).find(|p| apart(p)).unwrap_or(t))
            .collect();
        // A token another holds the start of is not needed.
        let kept = cut.iter().filter(|t| !cut.iter().any(|u| u != *t && t.starts_with(u)));
        list(kept.copied())
    }

    /// As Rust text: `None` for anything, else the tokens cut to four bytes (what may follow
    /// a name; more than 24 of them: `None`).
    fn text(&self) -> String {
        let cut: BTreeSet<&str> = self.toks.iter().map(|t| &t[..t.len().min(4)]).collect();
        match self.any || cut.len() > 24 {
            true => "None".into(),
            false => format!("Some({})", list(cut.into_iter())),
        }
    }
}

/// Bytes 0 to 255 and the text's end (256).
type Set = [u64; 5];

const ALL: Set = [u64::MAX, u64::MAX, u64::MAX, u64::MAX, 1];

/// The most steps (literals, names, numbers, conditions) a reader is written with: a syntax
/// larger than this is left to the engine (the generated crate's build time).
const STEPS: usize = 160;

/// The deepest nesting of sub-syntaxes a reader follows.
const DEPTH: usize = 12;

fn add(set: &mut Set, b: u16) {
    set[usize::from(b >> 6)] |= 1 << (b & 63);
}

fn add_byte(set: &mut Set, c: u8) {
    add(set, u16::from(c.to_ascii_lowercase()));
    add(set, u16::from(c.to_ascii_uppercase()));
}

fn union(a: Set, b: Set) -> Set {
    [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3], a[4] | b[4]]
}

fn disjoint(a: &Set, b: &Set) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == 0)
}

fn has(set: &Set, b: u16) -> bool {
    set[usize::from(b >> 6)] >> (b & 63) & 1 == 1
}

/// A `match` pattern of the bytes of `set` (ranges where they run).
fn pattern(set: &Set) -> String {
    let mut out = String::new();
    let mut b = 0u16;
    while b <= 256 {
        if !has(set, b) {
            b += 1;
            continue;
        }
        let start = b;
        while b < 256 && has(set, b + 1) {
            b += 1;
        }
        if !out.is_empty() {
            out.push_str(" | ");
        }
        let _ = match start == b {
            true => write!(out, "{start}"),
            false => write!(out, "{start}..={b}"),
        };
        b += 1;
    }
    if out.is_empty() {
        out.push_str("_ if false");
    }
    out
}

fn set_text(set: &Set) -> String {
    format!("[{:#x}, {:#x}, {:#x}, {:#x}, {:#x}]", set[0], set[1], set[2], set[3], set[4])
}

/// A parameter binding as the compiler knows it (the runtime's `Bound`).
#[derive(Clone, Copy)]
enum Bound {
    Slot(usize),
    NotSlot(usize),
    Const(i64),
}

fn bind(e: &CondExpr, frame: &[Bound]) -> Bound {
    match e {
        CondExpr::Field(s) => Bound::Slot(s.0),
        CondExpr::Param(n) => frame.get(*n).copied().unwrap_or(Bound::Const(0)),
        CondExpr::Int(v) => Bound::Const(*v),
        CondExpr::Not(x) => match bind(x, frame) {
            Bound::Slot(s) => Bound::NotSlot(s),
            Bound::NotSlot(s) => Bound::Slot(s),
            Bound::Const(v) => Bound::Const((v == 0) as i64),
        },
        _ => Bound::Const(0),
    }
}

fn frame_text(frame: &[Bound]) -> String {
    let mut out = String::from("&[");
    for (i, b) in frame.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = match b {
            Bound::Slot(s) => write!(out, "S({s})"),
            Bound::NotSlot(s) => write!(out, "N({s})"),
            Bound::Const(v) => write!(out, "C({v})"),
        };
    }
    out.push(']');
    out
}

fn expr_text(e: &CondExpr) -> String {
    let mut out = String::from("&");
    expr(e, &mut out);
    out
}

struct Gen<'a> {
    m: &'a Model<'a>,
    d: usize,
    syntax: &'a ir::Syntax,
    /// The statics of the syntax's parts (`items` names them).
    parts: Vec<String>,
    prefix: String,
    out: String,
    statics: String,
    steps: usize,
    /// The (enum, dialect) name tables the reader reads names of.
    tables: BTreeSet<(usize, usize)>,
}

impl Gen<'_> {
    /// The bytes (after blanks) a text that `items` then `follow` read may start with.
    fn first_seq(&self, items: &[SyntaxItem], follow: Set, depth: usize) -> Set {
        items.iter().rev().fold(follow, |after, it| self.first_item(it, after, depth))
    }

    fn first_item(&self, it: &SyntaxItem, after: Set, depth: usize) -> Set {
        match it {
            SyntaxItem::Lit(s) => match s.bytes().find(|c| *c != b' ') {
                Some(c) => {
                    let mut set = [0; 5];
                    add_byte(&mut set, c);
                    set
                }
                None => after,
            },
            SyntaxItem::Show(_, Show::Table(t)) => self.first_table(*t, after),
            SyntaxItem::Show(_, Show::TableIf(_, a, b)) => {
                union(self.first_table(*a, after), self.first_table(*b, after))
            }
            SyntaxItem::Show(_, Show::Num(_)) | SyntaxItem::AnyOrder(..) => ALL,
            SyntaxItem::Call(k, _) if depth < DEPTH => match self.syntax.parts.get(*k) {
                Some(part) => part
                    .arms
                    .iter()
                    .fold([0; 5], |set, arm| union(set, self.first_seq(&arm.items, after, depth + 1))),
                None => ALL,
            },
            SyntaxItem::Call(..) => ALL,
            SyntaxItem::Opt(_, body) => union(self.first_seq(body, after, depth), after),
        }
    }

    fn toks_seq(&self, items: &[SyntaxItem], follow: &Toks, depth: usize) -> Toks {
        items.iter().rev().fold(follow.clone(), |after, it| self.toks_item(it, &after, depth))
    }

    fn toks_item(&self, it: &SyntaxItem, after: &Toks, depth: usize) -> Toks {
        match it {
            SyntaxItem::Lit(s) => match norm(s) {
                n if n.is_empty() => after.clone(),
                n => Toks::then(&n, after),
            },
            SyntaxItem::Show(_, Show::Table(t)) => self.toks_table(*t, after),
            SyntaxItem::Show(_, Show::TableIf(_, a, b)) => {
                self.toks_table(*a, after).union(&self.toks_table(*b, after))
            }
            SyntaxItem::Show(_, Show::Num(_)) | SyntaxItem::AnyOrder(..) => Toks::any(),
            SyntaxItem::Call(k, _) if depth < DEPTH => match self.syntax.parts.get(*k) {
                Some(part) => part.arms.iter().fold(Toks::default(), |set, arm| {
                    set.union(&self.toks_seq(&arm.items, after, depth + 1))
                }),
                None => Toks::any(),
            },
            SyntaxItem::Call(..) => Toks::any(),
            SyntaxItem::Opt(_, body) => self.toks_seq(body, after, depth).union(after),
        }
    }

    fn toks_table(&self, t: ir::EnumId, after: &Toks) -> Toks {
        let mut set = Toks::default();
        let mut empty = false;
        for e in table_entries(&self.m.t.enums[t.0], self.d) {
            match &e {
                TableEntry::Name(s, _) => match norm(s) {
                    n if n.is_empty() => empty = true,
                    n => set = set.union(&Toks::then(&n, after)),
                },
                // A number follows the prefix.
                TableEntry::Range { prefix, .. } => match norm(prefix) {
                    n if n.is_empty() => return Toks::any(),
                    n => set = set.union(&Toks::then(&n, &Toks::any())),
                },
                TableEntry::Many(..) | TableEntry::Else(_) => continue,
            }
        }
        if empty {
            set = set.union(after);
        }
        set
    }

    fn first_table(&self, t: ir::EnumId, after: Set) -> Set {
        let mut set = [0; 5];
        let mut empty = false;
        for e in table_entries(&self.m.t.enums[t.0], self.d) {
            let head = match &e {
                TableEntry::Name(s, _) => s.bytes().find(|c| *c != b' '),
                TableEntry::Range { prefix, .. } => match prefix.bytes().find(|c| *c != b' ') {
                    Some(c) => Some(c),
                    None => {
                        for c in b"0123456789+-" {
                            add_byte(&mut set, *c);
                        }
                        continue;
                    }
                },
                TableEntry::Many(..) | TableEntry::Else(_) => continue,
            };
            match head {
                Some(c) => add_byte(&mut set, c),
                None => empty = true,
            }
        }
        if empty {
            set = union(set, after);
        }
        set
    }

    fn step(&mut self) -> Option<()> {
        self.steps += 1;
        (self.steps <= STEPS).then_some(())
    }

    /// Writes the reading of `items` in `frame`, `follow` what may come after them.
    fn seq(
        &mut self,
        items: &[SyntaxItem],
        frame: &[Bound],
        follow: (Set, &Toks),
        depth: usize,
    ) -> Option<()> {
        for (i, it) in items.iter().enumerate() {
            let rest = self.first_seq(&items[i + 1..], follow.0, depth);
            let toks = self.toks_seq(&items[i + 1..], follow.1, depth);
            self.item(it, frame, (rest, &toks), depth)?;
        }
        Some(())
    }

    fn item(&mut self, it: &SyntaxItem, frame: &[Bound], follow: (Set, &Toks), depth: usize) -> Option<()> {
        let (rest, toks) = follow;
        let fr = frame_text(frame);
        match it {
            SyntaxItem::Lit(s) if s.is_empty() => {}
            SyntaxItem::Lit(s) => {
                self.step()?;
                self.out.push_str("if !f.lit(");
                str_lit(s, &mut self.out);
                self.out.push_str(") { return false; }\n");
            }
            SyntaxItem::Show(e, show) => {
                if !matches!(e, CondExpr::Field(_) | CondExpr::Param(_) | CondExpr::Not(_) | CondExpr::Int(_))
                {
                    return None;
                }
                self.step()?;
                match show {
                    Show::Table(t) => {
                        self.tables.insert((t.0, self.d));
                        let _ = writeln!(
                            self.out,
                            "if !f.name({}, &{}, {}, {fr}, &{}, {}) {{ return false; }}",
                            expr_text(e),
                            table_ident(self.m, *t, self.d),
                            spell_name(self.m, *t, self.d),
                            set_text(&rest),
                            toks.text()
                        );
                    }
                    Show::Num(NumStyle::Target { .. } | NumStyle::Label { .. }) | Show::TableIf(..) => {
                        return None
                    }
                    Show::Num(n) => {
                        let mut style = String::new();
                        num_style_text(n, &mut style);
                        let _ = writeln!(
                            self.out,
                            "if !f.number({}, {style}, {fr}) {{ return false; }}",
                            expr_text(e)
                        );
                    }
                }
            }
            SyntaxItem::Call(k, args) => {
                if depth >= DEPTH {
                    return None;
                }
                let inner: Vec<Bound> = args.iter().map(|a| bind(a, frame)).collect();
                self.part(*k, &inner, (rest, toks), depth + 1)?;
            }
            SyntaxItem::Opt(c, body) => {
                let present = self.first_seq(body, rest, depth);
                // Decided by the next byte, else by the group's first literal where nothing
                // read without the group may start as it does.
                let body_toks = self.toks_seq(body, toks, depth);
                let lead = (!body_toks.meet(toks)).then(|| body_toks.against(toks));
                if lead.is_none() && !disjoint(&present, &rest) {
                    return None;
                }
                self.step()?;
                // The group as a static, for the runtime to see whether it shows its condition.
                let name = format!("{}_OPT{}", self.prefix, self.statics.len());
                let mut text = String::new();
                items(self.m, &self.parts, self.d, std::slice::from_ref(it), &mut text);
                let _ = writeln!(self.statics, "static {name}: Item = {text};");
                match lead {
                    Some(list) => {
                        let _ = writeln!(
                            self.out,
                            "if f.starts_any({list}) {{ if !f.present(&{name}, {fr}) {{ return false; }}"
                        );
                        self.seq(body, frame, (rest, toks), depth)?;
                        let _ = writeln!(
                            self.out,
                            "}} else if !f.require({}, false, {fr}) {{ return false; }}",
                            expr_text(c)
                        );
                    }
                    None => {
                        let _ = writeln!(
                            self.out,
                            "match f.peek() {{\n{} => {{ if !f.present(&{name}, {fr}) {{ return false; }}",
                            pattern(&present)
                        );
                        self.seq(body, frame, (rest, toks), depth)?;
                        let _ = writeln!(
                            self.out,
                            "}}\n{} => {{ if !f.require({}, false, {fr}) {{ return false; }} }}\n_ => return false,\n}}",
                            pattern(&rest),
                            expr_text(c)
                        );
                    }
                }
            }
            SyntaxItem::AnyOrder(..) => return None,
        }
        Some(())
    }

    /// Writes the reading of part `k` (its arms chosen by the next byte) in `frame`.
    fn part(&mut self, k: usize, frame: &[Bound], follow: (Set, &Toks), depth: usize) -> Option<()> {
        let part = &self.syntax.parts.get(k)?.arms;
        let firsts: Vec<Set> = part.iter().map(|arm| self.first_seq(&arm.items, follow.0, depth)).collect();
        // Arms told apart by the next byte, else by the tokens they start with.
        let mut by_byte = true;
        for (i, a) in firsts.iter().enumerate() {
            if firsts[..i].iter().any(|b| !disjoint(a, b)) {
                by_byte = false;
            }
        }
        let mut toks = Vec::new();
        if !by_byte {
            toks = part.iter().map(|arm| self.toks_seq(&arm.items, follow.1, depth)).collect::<Vec<_>>();
            for (i, a) in toks.iter().enumerate() {
                if toks[..i].iter().any(|b| a.meet(b)) {
                    return None;
                }
            }
        }
        let fr = frame_text(frame);
        let choose = part.len() > 1;
        if choose && by_byte {
            self.out.push_str("match f.peek() {\n");
        }
        for (i, arm) in part.iter().enumerate() {
            if choose && by_byte {
                if firsts[i] == [0; 5] {
                    continue;
                }
                let _ = writeln!(self.out, "{} => {{", pattern(&firsts[i]));
            } else if choose {
                let others = toks
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .fold(Toks::default(), |a, (_, t)| a.union(t));
                let _ = writeln!(self.out, "if f.starts_any({}) {{", toks[i].against(&others));
            }
            // As the engine: an arm that is no alias makes every earlier guard false.
            if !arm.alias {
                for earlier in part[..i].iter().filter(|a| !a.alias) {
                    if let Some(g) = &earlier.guard {
                        self.step()?;
                        let _ = writeln!(
                            self.out,
                            "if !f.require({}, false, {fr}) {{ return false; }}",
                            expr_text(g)
                        );
                    }
                }
            }
            if let Some(g) = &arm.guard {
                self.step()?;
                let _ = writeln!(self.out, "if !f.require({}, true, {fr}) {{ return false; }}", expr_text(g));
            }
            self.seq(&arm.items, frame, follow, depth)?;
            if choose && by_byte {
                self.out.push_str("}\n");
            } else if choose {
                self.out.push_str("} else ");
            }
        }
        if choose && by_byte {
            self.out.push_str("_ => return false,\n}\n");
        } else if choose {
            self.out.push_str("{ return false; }\n");
        }
        Some(())
    }
}

/// The name of format `f`'s reader in dialect `d`.
fn reader_name(m: &Model, f: &ir::Format, d: usize) -> String {
    format!("read_{}_{}", f.name, m.t.dialects[d].name).to_lowercase()
}

/// The readers of format `f` (Rust text: functions and the statics they use), and for each
/// dialect that has one its function's name; adds the (enum, dialect) name tables they read
/// names of to `tables` (each gets a [`spell`] function).
pub(super) fn readers(
    m: &Model,
    f: &ir::Format,
    tables: &mut BTreeSet<(usize, usize)>,
) -> (String, Vec<(usize, String)>) {
    let mut text = String::new();
    let mut names = Vec::new();
    if f.slots().len() > 64 {
        return (text, names);
    }
    for (d, syntax) in f.syntax.iter().enumerate() {
        if syntax.parts.is_empty() {
            continue;
        }
        let fname = upper(&f.name);
        let dname = upper(&m.t.dialects[d].name);
        let parts = (0..syntax.parts.len()).map(|k| format!("{fname}_{dname}_{k}")).collect();
        let mut g = Gen {
            m,
            d,
            syntax,
            parts,
            prefix: format!("{fname}_{dname}_READ"),
            out: String::new(),
            statics: String::new(),
            steps: 0,
            tables: BTreeSet::new(),
        };
        let mut end = [0; 5];
        add(&mut end, 256);
        let end_toks = Toks::end();
        if g.part(0, &[], (end, &end_toks), 0).is_none() {
            continue;
        }
        let name = reader_name(m, f, d);
        let _ = writeln!(
            text,
            "{}/// The generated reader of `{}` in dialect `{}` (`isa_runtime::syntax::fast_in`).\nfn {name}(f: &mut isa_runtime::syntax::Fast<'_>) -> bool {{\n#[allow(unused_imports)]\nuse isa_runtime::syntax::Bound::{{Const as C, NotSlot as N, Slot as S}};\n{}true\n}}",
            g.statics, f.name, m.t.dialects[d].name, g.out
        );
        names.push((d, name));
        tables.extend(g.tables);
    }
    (text, names)
}

/// The name of the generated look-up of enum `e`'s spellings in dialect `d`.
fn spell_name(m: &Model, e: ir::EnumId, d: usize) -> String {
    format!("names_{}", table_ident(m, e, d)).to_lowercase()
}

/// A spelling the runtime compares as one `u64` (`isa_runtime`'s `names::Plain`): one to
/// eight bytes, word characters starting with a letter or digit (matched at the place), or
/// punctuation first and no blank or separator (matched after the place's blanks). As Rust
/// text, the arguments of `Names::plain` before the value.
fn plain(s: &str) -> Option<String> {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 8 {
        return None;
    }
    let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    let after_blanks = match b[0].is_ascii_alphanumeric() {
        true if b.iter().all(word) => false,
        false if b.iter().all(|c| !matches!(c, b' ' | b'\t' | b',' | b';')) => true,
        _ => return None,
    };
    let pack = |b: &[u8]| b.iter().rev().fold(0u64, |w, c| w << 8 | u64::from(*c));
    let mask = if b.len() == 8 { u64::MAX } else { (1u64 << (8 * b.len())) - 1 };
    Some(format!(
        "{:#x}, {:#x}, {mask:#x}, {}, {after_blanks}",
        pack(b),
        pack(&b.to_ascii_lowercase()),
        b.len()
    ))
}

/// The generated look-up of enum `e`'s spellings in dialect `d` (`isa_runtime::syntax::
/// Names`): each entry tried only where the text's first byte after blanks is the one it
/// starts with (a `match` on that byte), the rest (an empty spelling, a range without a
/// prefix) everywhere. It finds what the engine's index of the table finds, in any order.
pub(super) fn spell(m: &Model, e: ir::EnumId, d: usize) -> String {
    let mut always = String::new();
    let mut by_head: std::collections::BTreeMap<u8, String> = std::collections::BTreeMap::new();
    for entry in table_entries(&m.t.enums[e.0], d) {
        let (head, call) = match &entry {
            TableEntry::Name(s, v) => {
                let head = s.bytes().find(|c| *c != b' ');
                let call = match plain(s) {
                    None if s.is_empty() => format!("n.empty({v});\n"),
                    Some(args) => format!("n.plain({args}, {v});\n"),
                    None => {
                        let mut t = String::from("n.spelling(");
                        str_lit(s, &mut t);
                        let _ = writeln!(t, ", {v});");
                        t
                    }
                };
                (head, call)
            }
            TableEntry::Range { prefix, suffix, lo, hi, shift } => {
                // Matched at the place itself: a prefix starting with a blank is tried anywhere.
                let head = prefix.bytes().next().filter(|c| !matches!(c, b' ' | b'\t'));
                let mut call = String::from("n.range(");
                str_lit(prefix, &mut call);
                call.push_str(", ");
                str_lit(suffix, &mut call);
                let _ = writeln!(call, ", {lo}, {hi}, {shift});");
                (head, call)
            }
            TableEntry::Many(..) | TableEntry::Else(_) => continue,
        };
        match head {
            Some(c) => by_head.entry(c.to_ascii_lowercase()).or_default().push_str(&call),
            None => always.push_str(&call),
        }
    }
    let name = spell_name(m, e, d);
    let mut out = format!(
        "/// The spellings of `{}` in dialect `{}` at the text's place (the generated readers' names).\nfn {name}(n: &mut isa_runtime::syntax::Names<'_>) {{\n{always}",
        m.t.enums[e.0].name, m.t.dialects[d].name
    );
    match by_head.len() {
        0 => {}
        1 => {
            for (c, calls) in &by_head {
                let _ = writeln!(out, "if n.head() == {c} {{\n{calls}}}");
            }
        }
        _ => {
            out.push_str("match n.head() {\n");
            for (c, calls) in &by_head {
                let _ = writeln!(out, "{c} => {{\n{calls}}}");
            }
            out.push_str("_ => {}\n}\n");
        }
    }
    out.push_str("}\n");
    out
}
