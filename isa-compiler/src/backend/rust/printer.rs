//! Compiled printers: every dialect's syntax of every encoding as Rust that writes a typed
//! instruction's text into a `core::fmt::Write`, reading the struct's fields directly. No
//! allocation, no walk over the static syntax tables: guards become `if`s, name tables become
//! `match`es giving a `&'static str` (numbered names such as `R12` spelled out here, in a
//! `static`), sub-syntaxes become methods taking their parameters. The pieces go through an
//! `isa_runtime::print::Out`: appended straight to a `String`, or gathered on the stack and
//! handed to any other writer in one `write_str`.
//!
//! The interpreted engine (`isa_runtime::syntax::print`) is the reference these must agree
//! with, value for value: expressions are evaluated as it evaluates them (raw field values as
//! `i64`, wrapping arithmetic, division by zero giving 0), and where it would print an
//! incomplete text (no arm applies, a value without a spelling) the printer stops with
//! `Stop::Unshown`.

use super::model::{extract_text, hex_text, lit, str_lit, Model};
use super::names::snake;
use super::tables::{num_style_text, printed_parts, table_entries, used_tables, TableEntry};
use crate::ir::{self, ArithOp, CondExpr, NumStyle, Show, SyntaxItem, Type};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::fmt::Write;

/// The printers of every encoding, the `match`es of the name tables they use, and
/// `Instruction::write_text`: one module, written as Rust text (the printers straight from the
/// IR, see [`super::formats::format_def`] for why text).
pub fn generate(m: &Model, out: &mut super::Items) {
    let mut spells = String::new();
    for (ei, d) in used_tables(m.t.formats.iter(), true) {
        super::write_compact(spell_fn(m, ir::EnumId(ei), d), 0, true, &mut spells);
        spells.push('\n');
    }
    let mut printers = String::new();
    let mut arms = String::new();
    let styles = Styles::default();
    for (fi, f) in m.t.formats.iter().enumerate() {
        let name = m.format_ident(fi).to_string();
        format_printer(m, &name, f, &styles, &mut printers);
        for (d, syntax) in f.syntax.iter().enumerate() {
            if !syntax.parts.is_empty() {
                let _ = writeln!(
                    arms,
                    "(Instruction::{name}(x), Dialect::{}) => x.{}(pc, out),",
                    m.dialect_ident(d),
                    part_ident(m, d, 0)
                );
            }
        }
    }
    let consts = styles.consts();
    // In a module of their own so one `allow` covers every printer: parameters and `pc` go
    // unread, and the engine's expressions are kept as written. `print` by its path, not
    // imported: a format may be called `stop` or `write`.
    out.push_text(&format!(
        r####"mod printers {{
#![allow(unused_variables, unused_imports, unused_parens, clippy::unnecessary_cast, clippy::nonminimal_bool, clippy::overly_complex_bool_expr, clippy::needless_return, clippy::too_many_arguments, clippy::manual_range_patterns, clippy::manual_range_contains, clippy::identity_op)]
use super::*;
use isa_runtime::print;
use core::fmt::Write as _;
{consts}{spells}{printers}
impl Instruction {{
#[doc = r" Writes the instruction's text (at address `pc`) in `dialect` into `out` (a"]
#[doc = r" `String`, appended to, or any `dyn core::fmt::Write`), without allocating"]
#[doc = r" beyond the `String`'s growth; `Stop::Unshown` when the dialect has no text for"]
#[doc = r" it (what was written before the printer stopped stays written)."]
#[inline]
pub fn write_text<S: print::Sink + ?Sized>(&self, dialect: Dialect, pc: u64, out: &mut S) -> Result<(), print::Stop> {{
self.print_text(dialect, pc, &mut out.out())
}}
#[doc = r" [`Instruction::write_text`] once the writer is known."]
fn print_text(&self, dialect: Dialect, pc: u64, out: &mut print::Out<'_>) -> Result<(), print::Stop> {{
#[allow(unreachable_patterns)]
let shown = match (self, dialect) {{
{arms}_ => Err(print::Stop::Unshown),
}};
out.flush().and(shown)
}}
}}
}}
"####
    ));
}

fn spell_ident(m: &Model, e: ir::EnumId, d: usize) -> Ident {
    format_ident!("spell_{}_{}", snake(&m.t.enums[e.0].name), snake(&m.t.dialects[d].name))
}

/// Most values a numbered range of a name table may hold for its names to be spelled out in
/// the printer (a `static` of strings, one copy per name); wider ranges print the number.
const SPELLED_RANGE: u64 = 512;

/// `spell_<enum>_<dialect>(v, out)`: the name table as a `match` giving each value's text,
/// first entry first, written with one copy. A numbered range (`R{v}`) is a `static` of its
/// names, built here, so printing a register is an index, not a number formatted at run time.
fn spell_fn(m: &Model, e: ir::EnumId, d: usize) -> TokenStream {
    let id = spell_ident(m, e, d);
    if let Some(f) = spell_array_fn(m, e, d, &id) {
        return f;
    }
    let mut arms: Vec<TokenStream> = Vec::new();
    let mut has_else = false;
    for entry in table_entries(&m.t.enums[e.0], d) {
        arms.push(match entry {
            TableEntry::Name(text, x) => {
                let x = lit(x as u128);
                quote!(#x => #text)
            }
            TableEntry::Range { prefix, suffix, lo, hi, shift } if hi - lo < SPELLED_RANGE => {
                let names = (lo..=hi).map(|v| format!("{prefix}{}{suffix}", v as i64 + shift));
                let n = lit(u128::from(hi - lo + 1));
                let index = match lo {
                    0 => quote!(v as usize),
                    _ => {
                        let lo = lit(lo as u128);
                        quote!((v - #lo) as usize)
                    }
                };
                let (lo, hi) = (lit(lo as u128), lit(hi as u128));
                quote!(#lo..=#hi => {
                    static NAMES: [&str; #n] = [#(#names),*];
                    NAMES[#index]
                })
            }
            TableEntry::Range { prefix, suffix, lo, hi, shift } => {
                let (lo, hi) = (lit(lo as u128), lit(hi as u128));
                let n = match shift {
                    0 => quote!(v as i64),
                    _ => {
                        let shift = proc_macro2::Literal::i64_unsuffixed(shift);
                        quote!(v as i64 + #shift)
                    }
                };
                quote!(#lo..=#hi => return print::numbered(#prefix, #n, #suffix, out))
            }
            TableEntry::Many(text, lo, hi) => {
                let (lo, hi) = (lit(lo as u128), lit(hi as u128));
                quote!(#lo..=#hi => #text)
            }
            TableEntry::Else(text) => {
                has_else = true;
                quote!(_ => #text)
            }
        });
        if has_else {
            break;
        }
    }
    if !has_else {
        arms.push(quote!(_ => return Err(print::Stop::Unshown)));
    }
    quote! {
        #[allow(unreachable_patterns, clippy::match_overlapping_arm)]
        fn #id(v: u64, out: &mut print::Out<'_>) -> Result<(), print::Stop> {
            let text: &'static str = match v {
                #(#arms,)*
            };
            out.str(text)
        }
    }
}

/// Widest enum whose name table [`spell_array_fn`] spells through an array.
const ARRAY_TABLE_BITS: u32 = 8;

/// `spell_<enum>_<dialect>(v, out)` for an enum of at most [`ARRAY_TABLE_BITS`] bits: every
/// value's text (the first entry that holds for it, as the `match` of [`spell_fn`] tries them)
/// in a `static` indexed by the value. A `match` on values giving texts of different lengths
/// compiled to a jump per name (VC4's condition names were a tenth of its printing time);
/// this is one load, small enough to inline. `None` when a range spells a number at run time.
fn spell_array_fn(m: &Model, e: ir::EnumId, d: usize, id: &Ident) -> Option<TokenStream> {
    let width = m.t.enums[e.0].width;
    if width > ARRAY_TABLE_BITS {
        return None;
    }
    let n = 1usize << width;
    let mut texts: Vec<Option<String>> = vec![None; n];
    let mut fill = |lo: u64, hi: u64, text: &dyn Fn(u64) -> String| {
        for v in lo..=hi.min(n as u64 - 1) {
            texts[v as usize].get_or_insert_with(|| text(v));
        }
    };
    let mut rest = None;
    for entry in table_entries(&m.t.enums[e.0], d) {
        match entry {
            TableEntry::Name(text, x) => fill(x, x, &|_| text.clone()),
            TableEntry::Range { prefix, suffix, lo, hi, shift } => {
                fill(lo, hi, &|v| format!("{prefix}{}{suffix}", v as i64 + shift))
            }
            TableEntry::Many(text, lo, hi) => fill(lo, hi, &|_| text.clone()),
            TableEntry::Else(text) => {
                fill(0, n as u64 - 1, &|_| text.clone());
                rest = Some(text);
                break;
            }
        }
    }
    // A value wider than the field (an expression's) takes the `else` spelling, if any.
    let rest = match rest {
        Some(text) => quote!(out.str(#text)),
        None => quote!(Err(print::Stop::Unshown)),
    };
    let n_lit = lit(n as u128);
    Some(if texts.iter().all(Option::is_some) {
        let texts = texts.iter().flatten();
        quote! {
            #[inline]
            fn #id(v: u64, out: &mut print::Out<'_>) -> Result<(), print::Stop> {
                static NAMES: [&str; #n_lit] = [#(#texts),*];
                match NAMES.get(v as usize) {
                    Some(text) if v < #n_lit => out.str(text),
                    _ => #rest,
                }
            }
        }
    } else {
        let texts = texts.iter().map(|t| match t {
            Some(t) => quote!(Some(#t)),
            None => quote!(None),
        });
        quote! {
            #[inline]
            fn #id(v: u64, out: &mut print::Out<'_>) -> Result<(), print::Stop> {
                static NAMES: [Option<&str>; #n_lit] = [#(#texts),*];
                match NAMES.get(v as usize) {
                    Some(Some(text)) if v < #n_lit => out.str(text),
                    Some(None) if v < #n_lit => Err(print::Stop::Unshown),
                    _ => #rest,
                }
            }
        }
    })
}

/// The raw value (a `u64`, as the engine's `Format::unpack` gives it) of slot `s`, from the
/// fields of `self`.
fn slot_value(m: &Model, f: &ir::Format, s: ir::SlotId) -> String {
    let slot = f.slots()[s.0];
    let field = f.field(slot.field);
    let from_word = || {
        let pieces = crate::placement::element_pieces(field, slot.element.unwrap_or(0));
        let x = extract_text(m.word, &crate::placement::piece_runs(&pieces));
        format!("(match self.to_word() {{ Ok(word) => {x}, Err(_) => return Err(print::Stop::Unshown) }})")
    };
    if field.view {
        return from_word();
    }
    if let Some(v) = field.fixed {
        return v.to_string();
    }
    if field.is_tag {
        let tag = slot.field.0;
        return match f.fields.iter().find(|x| matches!(x.ty, Type::Switch { tag: t, .. } if t == tag)) {
            Some(dep) => format!("self.{}.tag()", m.field_name(&dep.name)),
            None => from_word(),
        };
    }
    let id = m.field_name(&field.name);
    let x = match slot.element {
        Some(e) => format!("self.{id}[{e}]"),
        None => format!("self.{id}"),
    };
    match &field.ty {
        Type::Bool | Type::UInt(_) | Type::Number(_) => format!("({x} as u64)"),
        Type::SInt(w) => format!("(({x} as u64) & {})", hex_text((1u128 << w) - 1)),
        Type::Enum(_) | Type::Switch { .. } => format!("{x}.bits()"),
        Type::Layout(_) => from_word(),
    }
}

/// Expressions of one format's printer, as Rust text.
struct Exprs<'a> {
    m: &'a Model<'a>,
    f: &'a ir::Format,
    /// Parameters of each sub-syntax of the dialect being printed.
    arity: Vec<usize>,
    styles: &'a Styles,
}

/// The number styles the printers use, each a constant of the printers' module, named by
/// what it shows (`SIGNED_8`, `HEX_8_0X`): by its value, its name.
#[derive(Default)]
struct Styles(std::cell::RefCell<std::collections::BTreeMap<String, String>>);

impl Styles {
    /// The constant holding style `n`.
    fn name(&self, n: &NumStyle) -> String {
        let mut value = String::new();
        num_style_text(n, &mut value);
        let mut map = self.0.borrow_mut();
        let count = map.len();
        map.entry(value)
            .or_insert_with(|| match n {
                NumStyle::Dec => "DEC".to_string(),
                NumStyle::DecPadded { digits } => format!("DEC_{digits}"),
                NumStyle::Signed { bits, plus } => {
                    format!("SIGNED_{bits}{}", if *plus { "_PLUS" } else { "" })
                }
                NumStyle::Hex { digits, prefix, upper } => {
                    let case = if *upper { "_UPPER" } else { "" };
                    format!("HEX_{digits}{}{case}", if *prefix { "_0X" } else { "" })
                }
                NumStyle::Bin { digits } => format!("BIN_{digits}"),
                NumStyle::CFloat => "C_FLOAT".to_string(),
                NumStyle::HexValue { bits, signed, scale } => {
                    format!("HEX_VALUE_{}{bits}_X{scale}", if *signed { "S" } else { "U" })
                }
                // Styles with a number format or an expression: numbered.
                NumStyle::Float { .. } => format!("FLOAT_{count}"),
                NumStyle::Decimal { .. } => format!("DECIMAL_{count}"),
                NumStyle::Target { bits, .. } => format!("TARGET_{bits}_{count}"),
                NumStyle::Label { bits, .. } => format!("LABEL_{bits}_{count}"),
            })
            .clone()
    }

    /// The constants, in the order of their values, as the token form had them.
    fn consts(&self) -> String {
        let map = self.0.borrow();
        map.iter().map(|(value, name)| format!("const {name}: Num = {value};\n")).collect()
    }
}

impl Exprs<'_> {
    /// `e` as the engine evaluates it, an `i64`.
    fn value(&self, e: &CondExpr) -> String {
        match e {
            CondExpr::Int(v) => format!("{v}i64"),
            CondExpr::Field(s) => format!("({} as i64)", slot_value(self.m, self.f, *s)),
            CondExpr::Param(p) => param(*p),
            CondExpr::Pc => "(pc as i64)".to_string(),
            CondExpr::Not(_) | CondExpr::And(_) | CondExpr::Or(_) | CondExpr::Cmp(..) | CondExpr::In(..) => {
                format!("({} as i64)", self.cond(e))
            }
            CondExpr::Arith(op, a, b) => {
                let (a, b) = (self.value(a), self.value(b));
                match op {
                    ArithOp::Add => format!("{a}.wrapping_add({b})"),
                    ArithOp::Sub => format!("{a}.wrapping_sub({b})"),
                    ArithOp::Mul => format!("{a}.wrapping_mul({b})"),
                    ArithOp::Div => format!("{a}.checked_div({b}).unwrap_or(0)"),
                    ArithOp::Rem => format!("{a}.checked_rem({b}).unwrap_or(0)"),
                    ArithOp::BitAnd => format!("({a} & {b})"),
                    ArithOp::BitOr => format!("({a} | {b})"),
                    ArithOp::BitXor => format!("({a} ^ {b})"),
                    ArithOp::Shl => format!("{a}.wrapping_shl({b} as u32)"),
                    ArithOp::Shr => format!("{a}.wrapping_shr({b} as u32)"),
                }
            }
            CondExpr::If(c, a, b) => {
                let (c, a, b) = (self.cond(c), self.value(a), self.value(b));
                format!("(if {c} {{ {a} }} else {{ {b} }})")
            }
        }
    }

    /// Whether `e` holds (is non-zero), a `bool`.
    fn cond(&self, e: &CondExpr) -> String {
        match e {
            CondExpr::Not(x) => format!("(!{})", self.cond(x)),
            CondExpr::And(xs) if xs.is_empty() => "true".to_string(),
            CondExpr::Or(xs) if xs.is_empty() => "false".to_string(),
            CondExpr::And(xs) => {
                format!("({})", xs.iter().map(|x| self.cond(x)).collect::<Vec<_>>().join(" && "))
            }
            CondExpr::Or(xs) => {
                format!("({})", xs.iter().map(|x| self.cond(x)).collect::<Vec<_>>().join(" || "))
            }
            CondExpr::Cmp(op, a, b) => {
                let (a, b) = (self.value(a), self.value(b));
                let op = op.symbol();
                format!("({a} {op} {b})")
            }
            CondExpr::In(x, ranges) => {
                let pats: Vec<String> = ranges.iter().map(|(lo, hi)| format!("{lo}i64..={hi}i64")).collect();
                format!("matches!({}, {})", self.value(x), pats.join(" | "))
            }
            CondExpr::Int(_)
            | CondExpr::Field(_)
            | CondExpr::Param(_)
            | CondExpr::Pc
            | CondExpr::Arith(..)
            | CondExpr::If(..) => format!("({} != 0)", self.value(e)),
        }
    }

    /// The value a shown item or a call argument stands for, as the engine binds it: a field
    /// (or a parameter bound to one), negated any number of times, or a constant; any other
    /// expression is 0. A `u64`.
    fn bound(&self, e: &CondExpr) -> String {
        let (mut inner, mut negations) = (e, 0usize);
        while let CondExpr::Not(x) = inner {
            inner = x;
            negations += 1;
        }
        let base = match inner {
            CondExpr::Field(s) => slot_value(self.m, self.f, *s),
            CondExpr::Param(p) => format!("({} as u64)", param(*p)),
            CondExpr::Int(v) => {
                // Each `!` of a constant is taken (`!!3` is 1).
                let v = (0..negations).fold(*v, |v, _| i64::from(v == 0));
                return format!("{}u64", v as u64);
            }
            _ => return "0u64".to_string(),
        };
        // A field's `!`s cancel in pairs, as the engine's `NotSlot` flips back to `Slot`.
        if negations % 2 == 1 {
            format!("(({base} == 0) as u64)")
        } else {
            base
        }
    }

    /// Statements writing `items`.
    fn items(&self, d: usize, items: &[SyntaxItem], out: &mut String) {
        for item in items {
            match item {
                SyntaxItem::Lit(s) if s.is_empty() => {}
                SyntaxItem::Lit(s) => {
                    out.push_str("out.str(");
                    str_lit(s, out);
                    out.push_str(")?;\n");
                }
                SyntaxItem::Show(e, show) => {
                    let v = match e {
                        CondExpr::Arith(..) | CondExpr::If(..) => format!("({} as u64)", self.value(e)),
                        _ => self.bound(e),
                    };
                    let _ = match show {
                        Show::Table(t) => writeln!(out, "{}({v}, out)?;", spell_ident(self.m, *t, d)),
                        Show::TableIf(c, a, b) => {
                            let (a, b) = (spell_ident(self.m, *a, d), spell_ident(self.m, *b, d));
                            writeln!(
                                out,
                                "if {} {{ {a}({v}, out)? }} else {{ {b}({v}, out)? }}",
                                self.cond(c)
                            )
                        }
                        Show::Num(NumStyle::Target { bits, base, upper }) => {
                            let f = if *upper { "target_upper" } else { "target" };
                            writeln!(out, "print::{f}({}, {bits}, {v}, out)?;", self.value(base))
                        }
                        Show::Num(n) => writeln!(out, "print::number({v}, {}, out)?;", self.styles.name(n)),
                    };
                }
                SyntaxItem::Call(k, args) => {
                    let _ = write!(out, "self.{}(pc, out", part_ident(self.m, d, *k));
                    for a in args {
                        let _ = write!(out, ", {} as i64", self.bound(a));
                    }
                    // Parameters the call does not give read as 0.
                    for _ in 0..self.arity[*k].saturating_sub(args.len()) {
                        out.push_str(", 0i64");
                    }
                    out.push_str(")?;\n");
                }
                SyntaxItem::Opt(c, body) => {
                    let _ = writeln!(out, "if {} {{", self.cond(c));
                    self.items(d, body, out);
                    out.push_str("}\n");
                }
                SyntaxItem::AnyOrder(sep, groups) if sep.is_empty() => self.items(d, groups, out),
                // The separator before each group written after the first.
                SyntaxItem::AnyOrder(sep, groups) => {
                    out.push_str("{\nlet mut written = false;\n");
                    for g in groups {
                        match g {
                            SyntaxItem::Opt(c, body) => {
                                let _ =
                                    write!(out, "if {} {{\nprint::separator(&mut written, ", self.cond(c));
                                str_lit(sep, out);
                                out.push_str(", out)?;\n");
                                self.items(d, body, out);
                                out.push_str("}\n");
                            }
                            other => self.items(d, core::slice::from_ref(other), out),
                        }
                    }
                    out.push_str("}\n");
                }
            }
        }
    }
}

fn param(p: usize) -> String {
    format!("p{p}")
}

fn part_ident(m: &Model, d: usize, k: usize) -> String {
    format!("print_{}_{k}", snake(&m.t.dialects[d].name))
}

/// The printer methods of format `f` (struct `name`): one per dialect and sub-syntax.
fn format_printer(m: &Model, name: &str, f: &ir::Format, styles: &Styles, out: &mut String) {
    let mut methods = String::new();
    for (d, syntax) in f.syntax.iter().enumerate() {
        if syntax.parts.is_empty() {
            continue;
        }
        let x = Exprs { m, f, arity: arities(syntax), styles };
        let printed = printed_parts(syntax);
        for (k, part) in syntax.parts.iter().enumerate() {
            if !printed[k] {
                continue;
            }
            methods.push_str("#[doc = ");
            str_lit(&format!(" `{}` in the `{}` dialect.", part.name, m.t.dialects[d].name), &mut methods);
            let _ = write!(methods, "]\nfn {}(&self, pc: u64, out: &mut print::Out<'_>", part_ident(m, d, k));
            for p in 0..x.arity[k] {
                let _ = write!(methods, ", {}: i64", param(p));
            }
            methods.push_str(") -> Result<(), print::Stop> {\n");
            let mut closed = false;
            for arm in part.arms.iter().filter(|a| !a.alias) {
                match &arm.guard {
                    Some(g) => {
                        let _ = writeln!(methods, "if {} {{", x.cond(g));
                        x.items(d, &arm.items, &mut methods);
                        methods.push_str("return Ok(());\n}\n");
                    }
                    None => {
                        x.items(d, &arm.items, &mut methods);
                        methods.push_str("Ok(())\n");
                        closed = true;
                        break;
                    }
                }
            }
            if !closed {
                methods.push_str("Err(print::Stop::Unshown)\n");
            }
            methods.push_str("}\n");
        }
    }
    if !methods.is_empty() {
        let _ = write!(out, "impl {name} {{\n{methods}}}\n");
    }
}

/// How many parameters each part of `syntax` takes: as many as it reads or any call gives.
fn arities(syntax: &ir::Syntax) -> Vec<usize> {
    fn calls(items: &[SyntaxItem], arity: &mut [usize]) {
        for item in items {
            match item {
                SyntaxItem::Call(k, args) => {
                    if let Some(a) = arity.get_mut(*k) {
                        *a = (*a).max(args.len());
                    }
                }
                SyntaxItem::Opt(_, body) | SyntaxItem::AnyOrder(_, body) => calls(body, arity),
                SyntaxItem::Lit(_) | SyntaxItem::Show(..) => {}
            }
        }
    }
    let mut arity: Vec<usize> = syntax.parts.iter().map(params_read).collect();
    for part in &syntax.parts {
        for arm in &part.arms {
            calls(&arm.items, &mut arity);
        }
    }
    arity
}

/// How many parameters a sub-syntax reads (one more than the highest it names).
fn params_read(part: &ir::SyntaxPart) -> usize {
    fn expr_max(e: &CondExpr, max: &mut Option<usize>) {
        match e {
            CondExpr::Param(p) => *max = Some(max.map_or(*p, |m| m.max(*p))),
            CondExpr::Int(_) | CondExpr::Field(_) | CondExpr::Pc => {}
            CondExpr::Not(x) | CondExpr::In(x, _) => expr_max(x, max),
            CondExpr::And(xs) | CondExpr::Or(xs) => xs.iter().for_each(|x| expr_max(x, max)),
            CondExpr::Cmp(_, a, b) | CondExpr::Arith(_, a, b) => {
                expr_max(a, max);
                expr_max(b, max);
            }
            CondExpr::If(c, a, b) => {
                expr_max(c, max);
                expr_max(a, max);
                expr_max(b, max);
            }
        }
    }
    fn items_max(items: &[SyntaxItem], max: &mut Option<usize>) {
        for item in items {
            match item {
                SyntaxItem::Lit(_) => {}
                SyntaxItem::Show(e, show) => {
                    expr_max(e, max);
                    match show {
                        Show::TableIf(c, ..) => expr_max(c, max),
                        Show::Num(NumStyle::Target { base, .. } | NumStyle::Label { base, .. }) => {
                            expr_max(base, max)
                        }
                        Show::Table(_) | Show::Num(_) => {}
                    }
                }
                SyntaxItem::Call(_, args) => args.iter().for_each(|a| expr_max(a, max)),
                SyntaxItem::Opt(c, body) => {
                    expr_max(c, max);
                    items_max(body, max);
                }
                SyntaxItem::AnyOrder(_, body) => items_max(body, max),
            }
        }
    }
    let mut max = None;
    for arm in &part.arms {
        if let Some(g) = &arm.guard {
            expr_max(g, &mut max);
        }
        items_max(&arm.items, &mut max);
    }
    max.map_or(0, |m| m + 1)
}
