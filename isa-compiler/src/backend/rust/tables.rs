//! Static descriptions for the runtime's syntax engine (fields, name tables, syntaxes, dialects)
//! and the target's `Isa` implementation. Printing and parsing both run on these tables, so the
//! disassembler and the assembler cannot disagree.

use super::model::{lit, str_lit, tokens, Model};
use super::names::{camel, upper};
use crate::ir::{self, ArithOp, CmpOp, CondExpr, NumStyle, Show, SyntaxItem, Type, Values};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::fmt::Write;

/// The runtime `Expr` of condition or value `e`, as Rust text.
pub(super) fn expr(e: &CondExpr, out: &mut String) {
    match e {
        CondExpr::Int(v) => {
            let _ = write!(out, "Expr::Int({v})");
        }
        CondExpr::Field(s) => {
            let _ = write!(out, "Expr::Field({})", s.0);
        }
        CondExpr::Param(p) => {
            let _ = write!(out, "Expr::Param({p})");
        }
        CondExpr::Pc => out.push_str("Expr::Pc"),
        CondExpr::Not(x) => {
            out.push_str("Expr::Not(&");
            expr(x, out);
            out.push(')');
        }
        CondExpr::And(xs) | CondExpr::Or(xs) => {
            out.push_str(if matches!(e, CondExpr::And(_)) { "Expr::And(&[" } else { "Expr::Or(&[" });
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                expr(x, out);
            }
            out.push_str("])");
        }
        CondExpr::Cmp(op, a, b) => {
            let op = match op {
                CmpOp::Eq => "Cmp::Eq",
                CmpOp::Ne => "Cmp::Ne",
                CmpOp::Lt => "Cmp::Lt",
                CmpOp::Le => "Cmp::Le",
                CmpOp::Gt => "Cmp::Gt",
                CmpOp::Ge => "Cmp::Ge",
            };
            let _ = write!(out, "Expr::Cmp({op}, &");
            expr(a, out);
            out.push_str(", &");
            expr(b, out);
            out.push(')');
        }
        CondExpr::Arith(op, a, b) => {
            let op = match op {
                ArithOp::Add => "Arith::Add",
                ArithOp::Sub => "Arith::Sub",
                ArithOp::Mul => "Arith::Mul",
                ArithOp::Div => "Arith::Div",
                ArithOp::Rem => "Arith::Rem",
                ArithOp::BitAnd => "Arith::And",
                ArithOp::BitOr => "Arith::Or",
                ArithOp::BitXor => "Arith::Xor",
                ArithOp::Shl => "Arith::Shl",
                ArithOp::Shr => "Arith::Shr",
            };
            let _ = write!(out, "Expr::Arith({op}, &");
            expr(a, out);
            out.push_str(", &");
            expr(b, out);
            out.push(')');
        }
        CondExpr::If(c, a, b) => {
            out.push_str("Expr::If(&");
            expr(c, out);
            out.push_str(", &");
            expr(a, out);
            out.push_str(", &");
            expr(b, out);
            out.push(')');
        }
        CondExpr::In(x, ranges) => {
            out.push_str("Expr::In(&");
            expr(x, out);
            out.push_str(", &[");
            for (i, (lo, hi)) in ranges.iter().enumerate() {
                let _ = write!(out, "{}({lo}, {hi})", if i > 0 { ", " } else { "" });
            }
            out.push_str("])");
        }
    }
}

pub(super) fn table_ident(m: &Model, e: ir::EnumId, d: usize) -> Ident {
    format_ident!("{}_{}", upper(&camel(&m.t.enums[e.0].name)), upper(&m.t.dialects[d].name))
}

/// The (enum, dialect) name tables some syntax of `formats` shows values through; with
/// `printed_only`, only those the printer writes (not those only `alias` arms read).
pub(super) fn used_tables<'a>(
    formats: impl Iterator<Item = &'a ir::Format>,
    printed_only: bool,
) -> std::collections::BTreeSet<(usize, usize)> {
    fn walk(items: &[SyntaxItem], d: usize, out: &mut std::collections::BTreeSet<(usize, usize)>) {
        for it in items {
            match it {
                SyntaxItem::Show(_, Show::Table(e)) => {
                    out.insert((e.0, d));
                }
                SyntaxItem::Show(_, Show::TableIf(_, a, b)) => {
                    out.insert((a.0, d));
                    out.insert((b.0, d));
                }
                SyntaxItem::Opt(_, body) | SyntaxItem::AnyOrder(_, body) => walk(body, d, out),
                SyntaxItem::Lit(_) | SyntaxItem::Show(_, Show::Num(_)) | SyntaxItem::Call(..) => {}
            }
        }
    }
    let mut out = std::collections::BTreeSet::new();
    for f in formats {
        for (d, syntax) in f.syntax.iter().enumerate() {
            let printed = printed_parts(syntax);
            for (part, printed) in syntax.parts.iter().zip(printed) {
                if printed_only && !printed {
                    continue;
                }
                for arm in part.arms.iter().filter(|a| !(printed_only && a.alias)) {
                    walk(&arm.items, d, &mut out);
                }
            }
        }
    }
    out
}

/// Which parts of `syntax` the printer can reach: the top level and what its printed arms call
/// (a template only an `alias` arm calls is read, never printed).
pub(super) fn printed_parts(syntax: &ir::Syntax) -> Vec<bool> {
    fn walk(syntax: &ir::Syntax, items: &[SyntaxItem], seen: &mut [bool]) {
        for item in items {
            match item {
                SyntaxItem::Call(k, _) => {
                    if seen.get(*k) == Some(&false) {
                        seen[*k] = true;
                        for arm in syntax.parts[*k].arms.iter().filter(|a| !a.alias) {
                            walk(syntax, &arm.items, seen);
                        }
                    }
                }
                SyntaxItem::Opt(_, body) | SyntaxItem::AnyOrder(_, body) => walk(syntax, body, seen),
                SyntaxItem::Lit(_) | SyntaxItem::Show(..) => {}
            }
        }
    }
    let mut seen = vec![false; syntax.parts.len()];
    if let Some(top) = syntax.parts.first() {
        seen[0] = true;
        for arm in top.arms.iter().filter(|a| !a.alias) {
            walk(syntax, &arm.items, &mut seen);
        }
    }
    seen
}

/// One spelling rule of a name table, in the order the printer tries them: the first that
/// holds for a value prints it.
pub(super) enum TableEntry {
    /// One value, one spelling.
    Name(String, u64),
    /// `lo..=hi` printed as `prefix`, `value + shift`, `suffix`.
    Range { prefix: String, suffix: String, lo: u64, hi: u64, shift: i64 },
    /// One spelling for every value of `lo..=hi`.
    Many(String, u64, u64),
    /// Any value no earlier entry names.
    Else(String),
}

/// The entries of enum `e`'s name table in dialect `d`: spelled values and ranges, then the
/// rest-of-values ranges, then the `else` spelling.
pub(super) fn table_entries(e: &ir::Enum, d: usize) -> Vec<TableEntry> {
    let mut entries = Vec::new();
    let mut rest = Vec::new();
    for v in &e.variants {
        for s in v.spellings.get(d).map(Vec::as_slice).unwrap_or_default() {
            let (lo, hi) = match v.values {
                Values::One(x) => {
                    entries.push(TableEntry::Name(s.text.clone(), x));
                    continue;
                }
                Values::Range(lo, hi) => (lo, hi),
                Values::Rest => (0, (1u64 << e.width.min(63)) - 1),
            };
            let entry = match &s.value {
                Some(ir::ValueText { prefix, shift, suffix }) => TableEntry::Range {
                    prefix: prefix.clone(),
                    suffix: suffix.clone(),
                    lo,
                    hi,
                    shift: *shift,
                },
                None => TableEntry::Many(s.text.clone(), lo, hi),
            };
            if matches!(v.values, Values::Rest) {
                rest.push(entry);
            } else {
                entries.push(entry);
            }
        }
    }
    entries.extend(rest);
    if let Some(Some(s)) = e.else_spellings.get(d) {
        entries.push(TableEntry::Else(s.clone()));
    }
    entries
}

fn tables(m: &Model) -> TokenStream {
    let mut out = TokenStream::new();
    for (ei, d) in used_tables(m.t.formats.iter().chain(m.t.interleaved().map(|s| &s.slot)), false) {
        let e = &m.t.enums[ei];
        let id = table_ident(m, ir::EnumId(ei), d);
        let name = &e.name;
        let entries = table_entries(e, d).into_iter().map(|entry| match entry {
            TableEntry::Name(text, x) => {
                let x = lit(x as u128);
                quote!(Entry::Name(#text, #x))
            }
            TableEntry::Range { prefix, suffix, lo, hi, shift } => {
                let (lo, hi) = (lit(lo as u128), lit(hi as u128));
                let shift = proc_macro2::Literal::i64_unsuffixed(shift);
                quote!(Entry::Range { prefix: #prefix, suffix: #suffix, lo: #lo, hi: #hi, shift: #shift })
            }
            TableEntry::Many(text, lo, hi) => {
                let (lo, hi) = (lit(lo as u128), lit(hi as u128));
                quote!(Entry::Many(#text, #lo, #hi))
            }
            TableEntry::Else(text) => quote!(Entry::Else(#text)),
        });
        out.extend(quote! {
            static #id: Table = Table { name: #name, entries: &[#(#entries),*] };
        });
    }
    out
}

/// A declared number format as the runtime's `Number`.
fn number_format(k: &crate::ir::NumberKind) -> String {
    match *k {
        crate::ir::NumberKind::Float { sign, exponent, mantissa, bias, specials, truncate } => format!(
            "isa_runtime::number::Number::Float(isa_runtime::number::FloatFormat {{ sign: {sign}, exponent: {exponent}, mantissa: {mantissa}, bias: {bias}, specials: {specials}, truncate: {truncate} }})"
        ),
        crate::ir::NumberKind::Fixed { width, fraction, signed } => format!(
            "isa_runtime::number::Number::Fixed(isa_runtime::number::FixedFormat {{ width: {width}, fraction: {fraction}, signed: {signed} }})"
        ),
    }
}

/// The runtime `Num` style of `n`, as Rust text.
pub(super) fn num_style_text(n: &NumStyle, out: &mut String) {
    let _ = match n {
        NumStyle::Dec => write!(out, "Num::Dec"),
        NumStyle::DecPadded { digits } => write!(out, "Num::DecPadded {{ digits: {digits} }}"),
        NumStyle::Signed { bits, plus } => write!(out, "Num::Signed {{ bits: {bits}, plus: {plus} }}"),
        NumStyle::Hex { digits, prefix, upper } => {
            write!(out, "Num::Hex {{ digits: {digits}, prefix: {prefix}, upper: {upper} }}")
        }
        NumStyle::Bin { digits } => write!(out, "Num::Bin {{ digits: {digits} }}"),
        NumStyle::CFloat => write!(out, "Num::CFloat"),
        NumStyle::HexValue { bits, signed, scale } => {
            write!(out, "Num::HexValue {{ bits: {bits}, signed: {signed}, scale: {scale} }}")
        }
        NumStyle::Float { format, precision, exponent } => write!(
            out,
            "Num::Float {{ format: {}, precision: {precision}, exponent: {exponent} }}",
            number_format(format)
        ),
        NumStyle::Decimal { format } => write!(out, "Num::Decimal {{ format: {} }}", number_format(format)),
        NumStyle::Target { bits, base, upper } => {
            let _ = write!(out, "Num::Target {{ bits: {bits}, base: &");
            expr(base, out);
            write!(out, ", upper: {upper} }}")
        }
        NumStyle::Label { bits, base } => {
            let _ = write!(out, "Num::Label {{ bits: {bits}, base: &");
            expr(base, out);
            write!(out, " }}")
        }
    };
}

/// The runtime `Item`s of syntax items `xs` of dialect `d`, as text separated by `, `; `parts`
/// names the statics of the syntax's parts.
pub(super) fn items(m: &Model, parts: &[String], d: usize, xs: &[SyntaxItem], out: &mut String) {
    for (i, it) in xs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match it {
            SyntaxItem::Lit(s) => {
                out.push_str("Item::Lit(");
                str_lit(s, out);
                out.push(')');
            }
            SyntaxItem::Show(e, show) => {
                out.push_str("Item::Show(&");
                expr(e, out);
                match show {
                    Show::Table(t) => {
                        let _ = write!(out, ", Show::Table(&{}))", table_ident(m, *t, d));
                    }
                    Show::TableIf(c, a, b) => {
                        out.push_str(", Show::TableIf(&");
                        expr(c, out);
                        let _ = write!(out, ", &{}, &{}))", table_ident(m, *a, d), table_ident(m, *b, d));
                    }
                    Show::Num(n) => {
                        out.push_str(", Show::Num(");
                        num_style_text(n, out);
                        out.push_str("))");
                    }
                }
            }
            SyntaxItem::Call(k, args) => {
                let _ = write!(out, "Item::Call(&{}, &[", parts[*k]);
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    expr(a, out);
                }
                out.push_str("])");
            }
            SyntaxItem::Opt(c, body) => {
                out.push_str("Item::Opt(&");
                expr(c, out);
                out.push_str(", &[");
                items(m, parts, d, body, out);
                out.push_str("])");
            }
            SyntaxItem::AnyOrder(sep, groups) => {
                out.push_str("Item::AnyOrder(");
                str_lit(sep, out);
                out.push_str(", &[");
                items(m, parts, d, groups, out);
                out.push_str("])");
            }
        }
    }
}

/// The static description (`NAME_FIELDS`, syntaxes, `NAME_FORMAT`) of format `f`, as Rust
/// text (see [`super::formats::format_def`] for why text).
pub fn format_statics(m: &Model, f: &ir::Format) -> String {
    let mut out = String::with_capacity(1024);
    let fname = upper(&f.name);
    let _ = write!(out, "static {fname}_FIELDS: &[FieldInfo] = &[");
    for (i, &ir::Slot { field, element }) in f.slots().iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let field = f.field(field);
        out.push_str("FieldInfo::new(");
        match element {
            Some(e) => str_lit(&format!("{}[{e}]", field.name), &mut out),
            None => str_lit(&field.name, &mut out),
        }
        out.push_str(", &[");
        for (k, p) in crate::placement::element_pieces(field, element.unwrap_or(0)).into_iter().enumerate() {
            let _ =
                write!(out, "{}Piece {{ lo: {}, width: {} }}", if k > 0 { ", " } else { "" }, p.lo, p.width);
        }
        out.push_str("])");
        // `FieldInfo::new` says unsigned, default 0, not fixed, no view, any value; the rest is
        // said only where it differs.
        if matches!(field.ty, Type::SInt(_)) {
            out.push_str(".signed()");
        }
        // Fields the text does not give are 0 unless the spec names a default.
        let element_default = field.element_defaults.get(element.unwrap_or(0) as usize).copied();
        match element_default.or(field.default).or(if field.view { None } else { Some(0) }) {
            Some(0) => {}
            Some(v) => {
                let _ = write!(out, ".default(Some({v}))");
            }
            None => out.push_str(".default(None)"),
        }
        if let Some(v) = field.fixed {
            let _ = write!(out, ".fixed({v})");
        }
        if field.view {
            out.push_str(".view()");
        }
        // The values the field can hold: its `in` clause's, and of an enum only those the enum
        // defines (the decoder refuses others), so the assembler chooses no other.
        let defined = match &field.ty {
            Type::Enum(id) => m.t.enums[id.0].defined(),
            _ => None,
        };
        let allowed: Vec<(u64, u64)> = match (&field.allowed, defined) {
            (Some(a), Some(d)) => a
                .iter()
                .flat_map(|&(lo, hi)| d.iter().map(move |&(l, h)| (lo.max(l), hi.min(h))))
                .filter(|(lo, hi)| lo <= hi)
                .collect(),
            (Some(a), None) => a.clone(),
            (None, Some(d)) => d,
            (None, None) => Vec::new(),
        };
        if !allowed.is_empty() {
            out.push_str(".allowed(&[");
            for (k, &(lo, hi)) in allowed.iter().enumerate() {
                let _ = write!(out, "{}({lo}, {hi})", if k > 0 { ", " } else { "" });
            }
            out.push_str("])");
        }
    }
    out.push_str("];\n");
    let mut tops = Vec::new();
    for (d, syntax) in f.syntax.iter().enumerate() {
        let dname = upper(&m.t.dialects[d].name);
        let mut parts: Vec<String> =
            (0..syntax.parts.len().max(1)).map(|k| format!("{fname}_{dname}_{k}")).collect();
        if syntax.parts.is_empty() {
            let _ = write!(out, "static {}: Syntax = Syntax {{ name: ", parts[0]);
            str_lit(&f.name, &mut out);
            out.push_str(", arms: &[] };\n");
        }
        for (k, part) in syntax.parts.iter().enumerate() {
            let _ = write!(out, "static {}: Syntax = Syntax {{\nname: ", parts[k]);
            str_lit(&part.name, &mut out);
            out.push_str(",\narms: &[");
            for (i, arm) in part.arms.iter().enumerate() {
                out.push_str(if i > 0 { ", Arm { guard: " } else { "Arm { guard: " });
                match &arm.guard {
                    Some(g) => {
                        out.push_str("Some(&");
                        expr(g, &mut out);
                        out.push(')');
                    }
                    None => out.push_str("None"),
                }
                out.push_str(", items: &[");
                items(m, &parts, d, &arm.items, &mut out);
                let _ = write!(out, "], alias: {} }}", arm.alias);
            }
            out.push_str("],\n};\n");
        }
        tops.push(parts.swap_remove(0));
    }
    let _ = write!(out, "static {fname}_FORMAT: Format = Format {{ name: ");
    str_lit(&f.name, &mut out);
    let _ = write!(out, ", fields: {fname}_FIELDS, syntax: &[");
    for (i, top) in tops.iter().enumerate() {
        let _ = write!(out, "{}&{top}", if i > 0 { ", " } else { "" });
    }
    out.push_str("] };\n");
    out
}

pub fn generate(m: &Model, items: &mut super::Items) {
    let t = m.t;
    items.push(tables(m));
    let mut readers = Vec::new();
    let mut read_tables = std::collections::BTreeSet::new();
    for (i, f) in t.formats.iter().enumerate() {
        let (text, names) = super::readers::readers(m, f, &mut read_tables);
        let statics = format_statics(m, f);
        items.push_text(&if text.is_empty() { statics } else { statics + &text });
        readers.extend(names.into_iter().map(|(d, name)| (i, d, name)));
    }
    // The readers' name look-ups, one per table.
    for (e, d) in read_tables {
        items.push_text(&super::readers::spell(m, ir::EnumId(e), d));
    }
    // The generated readers, asked before the engine.
    let reader = if readers.is_empty() {
        quote!()
    } else {
        let arms = readers.iter().map(|(i, d, name)| {
            let (i, d, name) = (lit(*i as u128), lit(*d as u128), format_ident!("{name}"));
            quote!((#i, #d) => Some(#name),)
        });
        quote! {
            fn reader(format: usize, dialect: usize) -> Option<isa_runtime::syntax::Reader> {
                match (format, dialect) {
                    #(#arms)*
                    _ => None,
                }
            }
        }
    };
    let mut out = TokenStream::new();
    let format_ids = t.formats.iter().map(|f| format_ident!("{}_FORMAT", upper(&f.name)));
    let dialects = t.dialects.iter().map(|d| {
        let name = &d.name;
        let comments = &d.comments;
        let ic = d.ignore_case;
        let float_bits = d.float_bits;
        let open_if_warns = d.open_if_warns;
        let raw = match &d.raw {
            Some(r) => quote!(Some(#r)),
            None => quote!(None),
        };
        let end = match &d.end {
            Some(e) => quote!(Some(#e)),
            None => quote!(None),
        };
        let separator = match &d.separator {
            Some(e) => quote!(Some(#e)),
            None => quote!(None),
        };
        let blocks = d.block_comments.iter().map(|(o, c)| quote!((#o, #c)));
        let code_section = match &d.code_section {
            Some(e) => quote!(Some(#e)),
            None => quote!(None),
        };
        let data_sections = &d.data_sections;
        let directives = d.directives.iter().map(|(spelling, directive)| {
            let variant = format_ident!("{}", format!("{directive:?}"));
            quote!((#spelling, isa_runtime::directives::Directive::#variant))
        });
        let label_prefixes = &d.label_prefixes;
        let listing = match &d.listing {
            Some(l) => {
                let (indent, column) = (l.indent, l.column);
                let (a0, a1, digits) = (&l.address.0, &l.address.1, l.address.2);
                let guard = &l.guard;
                let (open, open_at) = (&l.open.0, l.open.1);
                let (close, close_gap) = (&l.close.0, l.close.1);
                let (words, w0, w1) = (l.words.0, &l.words.1, &l.words.2);
                let widen = &l.widen;
                let end = match &l.end {
                    Some((e, v)) => quote!(Some((#e, #v))),
                    None => quote!(None),
                };
                quote!(Some(&isa_runtime::target::ListingStyle {
                    indent: #indent,
                    address: (#a0, #a1, #digits),
                    guard: #guard,
                    column: #column,
                    open: (#open, #open_at),
                    close: (#close, #close_gap),
                    words: (#words, #w0, #w1),
                    end: #end,
                    widen: #widen,
                }))
            }
            None => quote!(None),
        };
        quote!(isa_runtime::target::Dialect {
            name: #name,
            comments: &[#(#comments),*],
            block_comments: &[#(#blocks),*],
            ignore_case: #ic,
            raw: #raw,
            end: #end,
            float_bits: #float_bits,
            open_if_warns: #open_if_warns,
            separator: #separator,
            code_section: #code_section,
            data_sections: &[#(#data_sections),*],
            directives: &[#(#directives),*],
            label_prefixes: &[#(#label_prefixes),*],
            listing: #listing,
        })
    });
    let target = format_ident!("{}", camel(&t.name));
    let dialect_enum = dialect_enum(m, &target);
    let tname = &t.name;
    let title = &t.title;
    let bits = lit(t.word_bits as u128);
    let le = t.little_endian;
    let word_ty = &m.word_ty;
    let target_doc = format!(" The `{}` target: {}.", t.name, t.title);
    let streams = super::streams::isa_methods(t);
    // A 128-bit target's words are the runtime's: nothing to narrow or widen.
    // Words of 65 to 128 bits are all `u128`.
    let runtime_word = word_ty.to_string() == "u128";
    let (encode_body, wide_word) = if runtime_word {
        (quote!(insn.encode()), quote!(word))
    } else {
        (quote!(insn.encode().map(u128::from)), quote!(word as u128))
    };
    let (decode_body, match_body) = if runtime_word {
        (quote!(Instruction::decode(word)), quote!(Instruction::match_format(word)))
    } else {
        (
            quote! {
                match #word_ty::try_from(word) {
                    Ok(w) => Instruction::decode(w),
                    Err(_) => Err(isa_runtime::DecodeError::NoMatch { word }),
                }
            },
            quote!(#word_ty::try_from(word).ok().and_then(Instruction::match_format)),
        )
    };
    // Per encoding, the bit the assembler sets on a program's last instruction (0: none).
    let program_end = match &t.program_end {
        Some(name) => {
            let masks = t.formats.iter().map(|f| {
                let mask = f
                    .fields
                    .iter()
                    .find(|x| &x.name == name)
                    .map_or(0, |x| crate::placement::place(&x.pieces, 1));
                lit(mask)
            });
            quote! {
                fn program_end() -> &'static [u128] {
                    &[#(#masks),*]
                }
            }
        }
        None => quote!(),
    };
    let max_instructions = t.max_instructions.map(|n| {
        let n = proc_macro2::Literal::usize_unsuffixed(n as usize);
        quote! {
            fn max_instructions() -> Option<usize> {
                Some(#n)
            }
        }
    });
    let word_tables = word_tables(t);
    // Values over a whole program, and the order a wide word's parts are uploaded in.
    let summaries = if t.summaries.is_empty() {
        quote!()
    } else {
        let items = t.summaries.iter().map(|s| {
            let (name, field, plus, least) = (&s.name, &s.field, s.plus, s.least);
            quote!(isa_runtime::target::Summary { name: #name, field: #field, plus: #plus, least: #least })
        });
        quote! {
            fn summaries() -> &'static [isa_runtime::target::Summary] {
                &[#(#items),*]
            }
        }
    };
    let parts_low_first = if t.parts_low_first {
        quote!(
            const PARTS_LOW_FIRST: bool = true;
        )
    } else {
        quote!()
    };
    // Instructions of different lengths: how long each encoding's are.
    let lengths = if t.variable_length() {
        quote! {
            fn lengths() -> &'static [isa_runtime::format::Length] {
                LENGTHS
            }
        }
    } else {
        quote!()
    };
    if t.variable_length() {
        let entries = t.formats.iter().map(|f| {
            let pieces = f.length.iter().flat_map(|l| &f.field(l.field).pieces).map(|p| {
                let (lo, w) = (lit(p.lo.into()), lit(p.width.into()));
                quote!(Piece { lo: #lo, width: #w })
            });
            let bits = f.lengths().into_iter().map(|b| lit(b.into()));
            quote!(isa_runtime::format::Length { field: &[#(#pieces),*], bits: &[#(#bits),*] })
        });
        out.extend(quote! {
            /// Per encoding (as [`FORMATS`]), how long its instructions are.
            pub static LENGTHS: &[isa_runtime::format::Length] = &[#(#entries),*];
        });
    }
    out.extend(quote! {
        /// Every encoding's description, in the order the assembler tries them.
        pub static FORMATS: &[&Format] = &[#(&#format_ids),*];

        /// The syntax dialects, as [`Dialect::ALL`]; the first is the default.
        pub static DIALECTS: &[isa_runtime::target::Dialect] = &[#(#dialects),*];

        #dialect_enum

        #[doc = #target_doc]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
        pub struct #target;

        impl isa_runtime::target::Isa for #target {
            type Instruction = Instruction;
            const NAME: &'static str = #tname;
            const TITLE: &'static str = #title;
            const WORD_BITS: u32 = #bits;
            const LITTLE_ENDIAN: bool = #le;

            fn dialects() -> &'static [isa_runtime::target::Dialect] {
                DIALECTS
            }

            fn formats() -> &'static [&'static Format] {
                FORMATS
            }

            fn decode(word: u128) -> Result<Instruction, isa_runtime::DecodeError> {
                #decode_body
            }

            fn match_format(word: u128) -> Option<usize> {
                #match_body
            }

            fn encode(insn: &Instruction) -> Result<u128, isa_runtime::EncodeError> {
                #encode_body
            }

            fn format_index(insn: &Instruction) -> usize {
                insn.format_index()
            }

            fn fields(insn: &Instruction) -> Vec<(&'static str, isa_runtime::value::Value)> {
                insn.fields()
            }

            fn check_instruction(insn: &Instruction, index: usize, out: &mut Vec<isa_runtime::program::Violation>) {
                check_instruction(insn, index, out)
            }

            fn rules() -> &'static [isa_runtime::program::Rule] {
                RULES
            }

            fn check_rule(rule: usize, held: &isa_runtime::program::Held<'_, Instruction>, len: i64, from: i64, to: i64, out: &mut Vec<isa_runtime::program::Violation>) {
                check_rule(rule, held, len, from, to, out)
            }

            fn warnings(insn: &Instruction) -> Vec<&'static str> {
                insn.broken_constraints().into_iter().filter(|c| c.3).map(|c| c.1).collect()
            }

            fn write_text(insn: &Instruction, dialect: usize, pc: u64, out: &mut dyn isa_runtime::print::Sink) -> Result<(), isa_runtime::print::Stop> {
                match Dialect::ALL.get(dialect) {
                    Some(d) => insn.write_text(*d, pc, out),
                    None => Err(isa_runtime::print::Stop::Unshown),
                }
            }

            #streams
            #reader
            #program_end
            #max_instructions
            #summaries
            #word_tables
            #parts_low_first
            #lengths
        }

        impl core::fmt::Display for Instruction {
            /// The instruction in the default dialect.
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                isa_runtime::print::display::<#target>(self, f)
            }
        }

        impl core::str::FromStr for Instruction {
            type Err = isa_runtime::target::StatementError;

            /// Reads one instruction in the default dialect, at address 0 and without labels.
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                let ignore_case = DIALECTS.first().is_some_and(|d| d.ignore_case);
                isa_runtime::target::assemble_one::<#target>(text, 0, 0, &|_| None, ignore_case)
            }
        }

        impl TryFrom<#word_ty> for Instruction {
            type Error = isa_runtime::DecodeError;

            /// Decodes a word, as [`Instruction::decode`].
            fn try_from(word: #word_ty) -> Result<Self, Self::Error> {
                Instruction::decode(word)
            }
        }

        impl TryFrom<&[u8]> for Instruction {
            type Error = isa_runtime::DecodeError;

            /// Decodes the instruction the bytes start with, in the target's byte order; fewer
            /// bytes than it needs is `DecodeError::Truncated`.
            fn try_from(bytes: &[u8]) -> Result<Self, Self::Error> {
                isa_runtime::target::decode_bytes::<#target>(bytes)
            }
        }

        /// Prints a word in `dialect`.
        pub fn disassemble(word: #word_ty, dialect: Dialect) -> Result<String, isa_runtime::DecodeError> {
            isa_runtime::target::disassemble_word::<#target>(#wide_word, dialect.index(), 0)
        }

        /// Assembles source text in `dialect`; every error carries its line and column.
        pub fn assemble(source: &str, dialect: Dialect) -> Result<Vec<Instruction>, Vec<isa_runtime::AsmError>> {
            isa_runtime::target::assemble::<#target>(source, dialect.index())
        }
    });
    items.push(out);
}

/// The `Dialect` enum: one variant per dialect, the first the default, so a dialect is
/// named by a type rather than a string that may be misspelt.
fn dialect_enum(m: &Model, target: &Ident) -> TokenStream {
    let t = m.t;
    let variants: Vec<_> = (0..t.dialects.len()).map(|d| m.dialect_ident(d)).collect();
    let docs = t.dialects.iter().enumerate().map(|(i, d)| {
        let default = if i == 0 { " (the default)" } else { "" };
        format!(" The `{}` dialect{default}.", d.name)
    });
    let defaults = (0..t.dialects.len()).map(|i| if i == 0 { quote!(#[default]) } else { quote!() });
    let indices = (0..t.dialects.len()).map(|i| lit(i as u128));
    let names = t.dialects.iter().map(|d| &d.name);
    let doc = format!(" A syntax dialect of the `{}` target.", t.name);
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub enum Dialect {
            #(#[doc = #docs] #defaults #variants,)*
        }

        impl Dialect {
            /// Every dialect, the default first (in the order of [`DIALECTS`]).
            pub const ALL: &'static [Dialect] = &[#(Dialect::#variants),*];

            /// The dialect's number: its index in [`Dialect::ALL`] and [`DIALECTS`].
            pub const fn index(self) -> usize {
                match self {
                    #(Dialect::#variants => #indices,)*
                }
            }

            /// The dialect's name in the spec.
            pub const fn name(self) -> &'static str {
                match self {
                    #(Dialect::#variants => #names,)*
                }
            }

            /// How the dialect writes comments, raw words and directives.
            pub fn spelling(self) -> &'static isa_runtime::target::Dialect {
                &DIALECTS[self.index()]
            }
        }

        impl core::fmt::Display for Dialect {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl core::str::FromStr for Dialect {
            type Err = isa_runtime::target::UnknownDialect;

            /// The dialect of that name, ASCII case ignored.
            fn from_str(name: &str) -> Result<Self, Self::Err> {
                let i = isa_runtime::target::find_dialect(<#target as isa_runtime::target::Isa>::NAME, DIALECTS, name)?;
                Ok(Dialect::ALL[i])
            }
        }
    }
}

/// `fn tables()` of a target whose data sections fill tables of words.
fn word_tables(t: &ir::Target) -> TokenStream {
    if t.tables.is_empty() {
        return quote!();
    }
    let items = t.tables.iter().map(|table| {
        let parts = table.parts.iter().map(|p| {
            let (name, word, lsb, bits) = (&p.name, lit(p.word.into()), lit(p.lsb.into()), lit(p.bits.into()));
            let number = match &p.number {
                Some(k) => {
                    let n = tokens(&number_format(k));
                    quote!(Some(#n))
                }
                None => quote!(None),
            };
            quote!(isa_runtime::table::Part { name: #name, word: #word, lsb: #lsb, bits: #bits, number: #number })
        });
        let (name, section, entries, words) =
            (&table.name, &table.section, lit(table.entries.into()), lit(table.words.into()));
        let names = match table.names {
            Some(n) => {
                let n = lit(n.into());
                quote!(Some(#n))
            }
            None => quote!(None),
        };
        quote!(isa_runtime::table::Table {
            name: #name, section: #section, entries: #entries, words: #words, parts: &[#(#parts),*],
            names: #names
        })
    });
    quote! {
        fn tables() -> &'static [isa_runtime::table::Table] {
            &[#(#items),*]
        }
    }
}
