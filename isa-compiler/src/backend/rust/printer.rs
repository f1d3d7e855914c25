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

use super::model::{extract, lit, Model};
use super::names::snake;
use super::tables::{num_style, printed_parts, table_entries, used_tables, TableEntry};
use crate::ir::{self, ArithOp, CmpOp, CondExpr, NumStyle, Show, SyntaxItem, Type};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// The printers of every encoding, the `match`es of the name tables they use, and
/// `Instruction::write_text`.
pub fn generate(m: &Model) -> TokenStream {
    let mut items = TokenStream::new();
    for (ei, d) in used_tables(m.t.formats.iter(), true) {
        items.extend(spell_fn(m, ir::EnumId(ei), d));
    }
    let mut arms = Vec::new();
    let styles = Styles::default();
    for (fi, f) in m.t.formats.iter().enumerate() {
        let name = m.format_ident(fi);
        items.extend(format_printer(m, &name, f, &styles));
        for (d, syntax) in f.syntax.iter().enumerate() {
            if !syntax.parts.is_empty() {
                let (dialect, top) = (m.dialect_ident(d), part_ident(m, d, 0));
                arms.push(quote!((Instruction::#name(x), Dialect::#dialect) => x.#top(pc, out)));
            }
        }
    }
    let consts = styles.consts();
    // In a module of their own so one `allow` covers every printer: parameters and `pc` go
    // unread, and the engine's expressions are kept as written.
    quote! {
        mod printers {
            #![allow(unused_variables, unused_imports, unused_parens, clippy::unnecessary_cast, clippy::nonminimal_bool, clippy::overly_complex_bool_expr, clippy::needless_return, clippy::too_many_arguments, clippy::manual_range_patterns, clippy::manual_range_contains, clippy::identity_op)]
            use super::*;
            // Paths, not imports: a format may be called `stop` or `write`.
            use isa_runtime::print;
            use core::fmt::Write as _;

            #consts
            #items

            impl Instruction {
                /// Writes the instruction's text (at address `pc`) in `dialect` into `out` (a
                /// `String`, appended to, or any `dyn core::fmt::Write`), without allocating
                /// beyond the `String`'s growth; `Stop::Unshown` when the dialect has no text for
                /// it (what was written before the printer stopped stays written).
                #[inline]
                pub fn write_text<S: print::Sink + ?Sized>(&self, dialect: Dialect, pc: u64, out: &mut S) -> Result<(), print::Stop> {
                    self.print_text(dialect, pc, &mut out.out())
                }

                /// [`Instruction::write_text`] once the writer is known.
                fn print_text(&self, dialect: Dialect, pc: u64, out: &mut print::Out<'_>) -> Result<(), print::Stop> {
                    #[allow(unreachable_patterns)]
                    let shown = match (self, dialect) {
                        #(#arms,)*
                        _ => Err(print::Stop::Unshown),
                    };
                    // What was printed goes to the writer even when the printer stopped.
                    out.flush().and(shown)
                }
            }
        }
    }
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
fn slot_value(m: &Model, f: &ir::Format, s: ir::SlotId) -> TokenStream {
    let slot = f.slots()[s.0];
    let field = f.field(slot.field);
    let from_word = || {
        let pieces = crate::placement::element_pieces(field, slot.element.unwrap_or(0));
        let x = extract(&m.word_ty, &pieces);
        quote!((match self.to_word() { Ok(word) => #x, Err(_) => return Err(print::Stop::Unshown) }))
    };
    if field.view {
        return from_word();
    }
    if let Some(v) = field.fixed {
        let v = lit(v as u128);
        return quote!(#v);
    }
    if field.is_tag {
        let tag = slot.field.0;
        return match f.fields.iter().find(|x| matches!(x.ty, Type::Switch { tag: t, .. } if t == tag)) {
            Some(dep) => {
                let dep = m.field_ident(&dep.name);
                quote!(self.#dep.tag())
            }
            None => from_word(),
        };
    }
    let id = m.field_ident(&field.name);
    let x = match slot.element {
        Some(e) => {
            let e = lit(e as u128);
            quote!(self.#id[#e])
        }
        None => quote!(self.#id),
    };
    match &field.ty {
        Type::Bool | Type::UInt(_) | Type::Number(_) => quote!((#x as u64)),
        Type::SInt(w) => {
            let mask = super::model::hex((1u128 << w) - 1);
            quote!(((#x as u64) & #mask))
        }
        Type::Enum(_) | Type::Switch { .. } => quote!(#x.bits()),
        Type::Layout(_) => from_word(),
    }
}

/// Expressions of one format's printer.
struct Exprs<'a> {
    m: &'a Model<'a>,
    f: &'a ir::Format,
    /// Parameters of each sub-syntax of the dialect being printed.
    arity: Vec<usize>,
    styles: &'a Styles,
}

/// The number styles the printers use, each a constant of the printers' module, named by
/// what it shows (`SIGNED_8`, `HEX_8_0X`).
#[derive(Default)]
struct Styles(std::cell::RefCell<std::collections::BTreeMap<String, (Ident, TokenStream)>>);

impl Styles {
    /// The constant holding style `n`.
    fn name(&self, n: &NumStyle) -> Ident {
        let value = num_style(n);
        let mut map = self.0.borrow_mut();
        let count = map.len();
        let entry = map.entry(value.to_string()).or_insert_with(|| {
            let name = match n {
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
            };
            (format_ident!("{name}"), value)
        });
        entry.0.clone()
    }

    fn consts(&self) -> TokenStream {
        let map = self.0.borrow();
        let consts = map.values().map(|(name, value)| quote!(const #name: Num = #value;));
        quote!(#(#consts)*)
    }
}

impl Exprs<'_> {
    /// `e` as the engine evaluates it, an `i64`.
    fn value(&self, e: &CondExpr) -> TokenStream {
        match e {
            CondExpr::Int(v) => {
                let l = proc_macro2::Literal::i64_suffixed(*v);
                quote!(#l)
            }
            CondExpr::Field(s) => {
                let v = slot_value(self.m, self.f, *s);
                quote!((#v as i64))
            }
            CondExpr::Param(p) => {
                let p = param(*p);
                quote!(#p)
            }
            CondExpr::Pc => quote!((pc as i64)),
            CondExpr::Not(_) | CondExpr::And(_) | CondExpr::Or(_) | CondExpr::Cmp(..) | CondExpr::In(..) => {
                let c = self.cond(e);
                quote!((#c as i64))
            }
            CondExpr::Arith(op, a, b) => {
                let (a, b) = (self.value(a), self.value(b));
                match op {
                    ArithOp::Add => quote!(#a.wrapping_add(#b)),
                    ArithOp::Sub => quote!(#a.wrapping_sub(#b)),
                    ArithOp::Mul => quote!(#a.wrapping_mul(#b)),
                    ArithOp::Div => quote!(#a.checked_div(#b).unwrap_or(0)),
                    ArithOp::Rem => quote!(#a.checked_rem(#b).unwrap_or(0)),
                    ArithOp::BitAnd => quote!((#a & #b)),
                    ArithOp::BitOr => quote!((#a | #b)),
                    ArithOp::BitXor => quote!((#a ^ #b)),
                    ArithOp::Shl => quote!(#a.wrapping_shl(#b as u32)),
                    ArithOp::Shr => quote!(#a.wrapping_shr(#b as u32)),
                }
            }
            CondExpr::If(c, a, b) => {
                let (c, a, b) = (self.cond(c), self.value(a), self.value(b));
                quote!((if #c { #a } else { #b }))
            }
        }
    }

    /// Whether `e` holds (is non-zero), a `bool`.
    fn cond(&self, e: &CondExpr) -> TokenStream {
        match e {
            CondExpr::Not(x) => {
                let x = self.cond(x);
                quote!((!#x))
            }
            CondExpr::And(xs) if xs.is_empty() => quote!(true),
            CondExpr::Or(xs) if xs.is_empty() => quote!(false),
            CondExpr::And(xs) => {
                let xs = xs.iter().map(|x| self.cond(x));
                quote!((#(#xs)&&*))
            }
            CondExpr::Or(xs) => {
                let xs = xs.iter().map(|x| self.cond(x));
                quote!((#(#xs)||*))
            }
            CondExpr::Cmp(op, a, b) => {
                let (a, b) = (self.value(a), self.value(b));
                match op {
                    CmpOp::Eq => quote!((#a == #b)),
                    CmpOp::Ne => quote!((#a != #b)),
                    CmpOp::Lt => quote!((#a < #b)),
                    CmpOp::Le => quote!((#a <= #b)),
                    CmpOp::Gt => quote!((#a > #b)),
                    CmpOp::Ge => quote!((#a >= #b)),
                }
            }
            CondExpr::In(x, ranges) => {
                let x = self.value(x);
                let pats = ranges.iter().map(|(lo, hi)| {
                    let (lo, hi) =
                        (proc_macro2::Literal::i64_suffixed(*lo), proc_macro2::Literal::i64_suffixed(*hi));
                    quote!(#lo..=#hi)
                });
                quote!(matches!(#x, #(#pats)|*))
            }
            CondExpr::Int(_)
            | CondExpr::Field(_)
            | CondExpr::Param(_)
            | CondExpr::Pc
            | CondExpr::Arith(..)
            | CondExpr::If(..) => {
                let v = self.value(e);
                quote!((#v != 0))
            }
        }
    }

    /// The value a shown item or a call argument stands for, as the engine binds it: a field
    /// (or a parameter bound to one), negated any number of times, or a constant; any other
    /// expression is 0. A `u64`.
    fn bound(&self, e: &CondExpr) -> TokenStream {
        let (mut inner, mut negations) = (e, 0usize);
        while let CondExpr::Not(x) = inner {
            inner = x;
            negations += 1;
        }
        let base = match inner {
            CondExpr::Field(s) => slot_value(self.m, self.f, *s),
            CondExpr::Param(p) => {
                let p = param(*p);
                quote!((#p as u64))
            }
            CondExpr::Int(v) => {
                // Each `!` of a constant is taken (`!!3` is 1).
                let v = (0..negations).fold(*v, |v, _| i64::from(v == 0));
                let v = proc_macro2::Literal::u64_suffixed(v as u64);
                return quote!(#v);
            }
            _ => return quote!(0u64),
        };
        // A field's `!`s cancel in pairs, as the engine's `NotSlot` flips back to `Slot`.
        if negations % 2 == 1 {
            quote!(((#base == 0) as u64))
        } else {
            base
        }
    }

    /// Statements writing `items`.
    fn items(&self, d: usize, items: &[SyntaxItem]) -> TokenStream {
        let mut out = TokenStream::new();
        for item in items {
            out.extend(match item {
                SyntaxItem::Lit(s) if s.is_empty() => quote!(),
                SyntaxItem::Lit(s) => quote!(out.str(#s)?;),
                SyntaxItem::Show(e, show) => {
                    let v = match e {
                        CondExpr::Arith(..) | CondExpr::If(..) => {
                            let x = self.value(e);
                            quote!((#x as u64))
                        }
                        _ => self.bound(e),
                    };
                    match show {
                        Show::Table(t) => {
                            let t = spell_ident(self.m, *t, d);
                            quote!(#t(#v, out)?;)
                        }
                        Show::TableIf(c, a, b) => {
                            let c = self.cond(c);
                            let (a, b) = (spell_ident(self.m, *a, d), spell_ident(self.m, *b, d));
                            quote!(if #c { #a(#v, out)? } else { #b(#v, out)? })
                        }
                        Show::Num(NumStyle::Target { bits, base, upper }) => {
                            let base = self.value(base);
                            let bits = lit(*bits as u128);
                            if *upper {
                                quote!(print::target_upper(#base, #bits, #v, out)?;)
                            } else {
                                quote!(print::target(#base, #bits, #v, out)?;)
                            }
                        }
                        Show::Num(n) => {
                            let n = self.styles.name(n);
                            quote!(print::number(#v, #n, out)?;)
                        }
                    }
                }
                SyntaxItem::Call(k, args) => {
                    let part = part_ident(self.m, d, *k);
                    let given = args.iter().map(|a| {
                        let a = self.bound(a);
                        quote!(#a as i64)
                    });
                    // Parameters the call does not give read as 0.
                    let missing = self.arity[*k].saturating_sub(args.len());
                    let zeros = (0..missing).map(|_| quote!(0i64));
                    quote!(self.#part(pc, out #(, #given)* #(, #zeros)*)?;)
                }
                SyntaxItem::Opt(c, body) => {
                    let c = self.cond(c);
                    let body = self.items(d, body);
                    quote!(if #c { #body })
                }
                SyntaxItem::AnyOrder(sep, groups) if sep.is_empty() => self.items(d, groups),
                // The separator before each group written after the first.
                SyntaxItem::AnyOrder(sep, groups) => {
                    let groups = groups.iter().map(|g| match g {
                        SyntaxItem::Opt(c, body) => {
                            let c = self.cond(c);
                            let body = self.items(d, body);
                            quote!(if #c { print::separator(&mut written, #sep, out)?; #body })
                        }
                        other => self.items(d, core::slice::from_ref(other)),
                    });
                    quote!({ let mut written = false; #(#groups)* })
                }
            });
        }
        out
    }
}

fn param(p: usize) -> Ident {
    format_ident!("p{p}")
}

fn part_ident(m: &Model, d: usize, k: usize) -> Ident {
    format_ident!("print_{}_{k}", snake(&m.t.dialects[d].name))
}

/// The printer methods of format `f` (struct `name`): one per dialect and sub-syntax.
fn format_printer(m: &Model, name: &Ident, f: &ir::Format, styles: &Styles) -> TokenStream {
    let mut methods = TokenStream::new();
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
            let id = part_ident(m, d, k);
            let params = (0..x.arity[k]).map(|p| {
                let p = param(p);
                quote!(#p: i64)
            });
            let mut body = TokenStream::new();
            let mut closed = false;
            for arm in part.arms.iter().filter(|a| !a.alias) {
                let items = x.items(d, &arm.items);
                match &arm.guard {
                    Some(g) => {
                        let g = x.cond(g);
                        body.extend(quote!(if #g { #items return Ok(()); }));
                    }
                    None => {
                        body.extend(quote!(#items Ok(())));
                        closed = true;
                        break;
                    }
                }
            }
            if !closed {
                body.extend(quote!(Err(print::Stop::Unshown)));
            }
            let doc = format!(" `{}` in the `{}` dialect.", part.name, m.t.dialects[d].name);
            methods.extend(quote! {
                #[doc = #doc]
                fn #id(&self, pc: u64, out: &mut print::Out<'_> #(, #params)*) -> Result<(), print::Stop> {
                    #body
                }
            });
        }
    }
    if methods.is_empty() {
        return methods;
    }
    quote!(impl #name { #methods })
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
