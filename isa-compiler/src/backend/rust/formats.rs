//! One struct per format: typed fields, `from_word` (checked decode of the fields),
//! `to_word` (range-checked encode, never truncating) and `fields` (values for tools).

use super::model::{
    doc_text, extract_text, hex_text, position_text, sint_name, str_lit, tokens, uint_name, Model,
};
use crate::ir::{self, Type};
use crate::placement;
use proc_macro2::TokenStream;
use std::fmt::Write;

pub fn generate(m: &Model, out: &mut super::Items) {
    for (fi, f) in m.t.formats.iter().enumerate() {
        out.push_text(&format_def(m, &m.format_ident(fi).to_string(), f));
    }
}

/// The structs of the decoder-only module ([`super::generate_decoder_compact_from`]): each
/// format's struct (`Clone` and `Copy` only) and `from_word`, without documentation, `to_word`,
/// `fields` or accessors. At 10,000 encodings the full structs with their derives were most of
/// what took rustc's front end past 19 GB.
pub fn generate_decoder(m: &Model, out: &mut super::Items) {
    for (fi, f) in m.t.formats.iter().enumerate() {
        out.push_text(&decoder_def(m, &m.format_ident(fi).to_string(), f));
    }
}

/// The struct member type of a field (arrays included).
fn member_type(m: &Model, f: &ir::Field) -> String {
    let ty = m.rust_type_name(&f.ty);
    match &f.array {
        Some((n, _)) => format!("[{ty}; {n}]"),
        None => ty,
    }
}

/// Statements OR-ing raw value `v` (a `u64`) into `word` at the field's pieces: element `i`
/// (a variable of the generated code) when `element`, else the field's own pieces.
pub fn insert(m: &Model, f: &ir::Field, element: bool) -> TokenStream {
    tokens(&insert_text(m, f, element))
}

/// [`insert`] as text.
fn insert_text(m: &Model, f: &ir::Field, element: bool) -> String {
    let word_ty = m.word;
    let runs = if element { placement::runs(f) } else { placement::piece_runs(&f.pieces) };
    let mut out = String::new();
    for r in runs.iter().rev() {
        let mask = hex_text((1u128 << r.width) - 1);
        let value =
            if r.value_lo == 0 { format!("v & {mask}") } else { format!("(v >> {}) & {mask}", r.value_lo) };
        let value = if word_ty == "u64" { format!("({value})") } else { format!("(({value}) as {word_ty})") };
        if (r.lo, r.stride) == (0, 0) {
            let _ = writeln!(out, "word |= {value};");
        } else {
            let _ = writeln!(out, "word |= {value} << ({});", position_text(r.lo, r.stride));
        }
    }
    out
}

/// The rustdoc section of format `f` giving its encoding: the word's fixed bits and where each
/// field sits, so `cargo doc` is a reference without the spec at hand.
fn encoding_doc(m: &Model, f: &ir::Format) -> String {
    let digits = m.t.word_bits.div_ceil(4) as usize + 2;
    let (mut fixed_mask, mut fixed_bits) = (0u128, 0u128);
    let mut rows = Vec::new();
    for field in f.fields.iter().filter(|x| !x.view) {
        let bits: Vec<String> = field
            .pieces
            .iter()
            .rev()
            .map(|p| match p.width {
                1 => p.lo.to_string(),
                w => format!("{}:{}", p.lo + w - 1, p.lo),
            })
            .collect();
        let value = match (&field.fixed, &field.allowed) {
            (Some(v), _) => {
                let ones = match field.width().min(64) {
                    0 => 0,
                    w => u64::MAX >> (64 - w),
                };
                fixed_mask |= crate::placement::place(&field.pieces, ones);
                fixed_bits |= crate::placement::place(&field.pieces, *v);
                format!("= {v:#x}")
            }
            (None, Some(ranges)) => {
                let ranges: Vec<String> = ranges
                    .iter()
                    .map(|(a, b)| if a == b { format!("{a:#x}") } else { format!("{a:#x}..={b:#x}") })
                    .collect();
                format!("in {}", ranges.join(", "))
            }
            (None, None) => String::new(),
        };
        let array = field.array.as_ref().map_or(String::new(), |(n, _)| format!(" (×{n})"));
        rows.push(format!("| {} | `{}`{array} | {value} |", bits.join(", "), field.name));
    }
    format!(
        "# Encoding\n\nA {}-bit word; `word & {fixed_mask:#0digits$x} == {fixed_bits:#0digits$x}` \
         (its fixed fields).\n\n| bits | field | value |\n|---|---|---|\n{}",
        m.t.word_bits,
        rows.join("\n"),
    )
}

/// The rustdoc section of format `f` giving its syntax in every dialect that shows it: each
/// sub-syntax as a template (`{field}` a value, `[...]` optional text, `{part}` a sub-syntax,
/// arms separated by `|`).
fn syntax_doc(m: &Model, f: &ir::Format) -> String {
    let slots = f.slots();
    let mut out = String::from("# Syntax\n");
    for (d, syntax) in f.syntax.iter().enumerate() {
        if syntax.parts.is_empty() {
            continue;
        }
        out.push_str(&format!("\n`{}`:\n", m.t.dialects[d].name));
        let mut shown = Vec::new();
        for part in &syntax.parts {
            let arms: Vec<String> = part
                .arms
                .iter()
                .map(|arm| {
                    let mut text = String::new();
                    syntax_items(&arm.items, f, &slots, syntax, &mut text);
                    text
                })
                .collect();
            // A sub-syntax called from several places is instantiated once per call.
            let line = format!("- `{}`: `` {} ``\n", part.name, arms.join(" | "));
            if !shown.contains(&line) {
                out.push_str(&line);
                shown.push(line);
            }
        }
    }
    out
}

fn syntax_items(
    items: &[ir::SyntaxItem],
    f: &ir::Format,
    slots: &[ir::Slot],
    s: &ir::Syntax,
    out: &mut String,
) {
    for item in items {
        match item {
            ir::SyntaxItem::Lit(text) => out.push_str(text),
            ir::SyntaxItem::Show(ir::CondExpr::Field(slot), _) => {
                let name = slots.get(slot.0).map(|x| (&f.field(x.field).name, x.element));
                match name {
                    Some((name, Some(e))) => out.push_str(&format!("{{{name}[{e}]}}")),
                    Some((name, None)) => out.push_str(&format!("{{{name}}}")),
                    None => out.push_str("{…}"),
                }
            }
            ir::SyntaxItem::Show(..) => out.push_str("{…}"),
            ir::SyntaxItem::Call(part, _) => {
                let name = s.parts.get(*part).map_or("…", |p| p.name.as_str());
                out.push_str(&format!("{{{name}}}"));
            }
            ir::SyntaxItem::Opt(_, inner) => {
                out.push('[');
                syntax_items(inner, f, slots, s, out);
                out.push(']');
            }
            ir::SyntaxItem::AnyOrder(_, inner) => syntax_items(inner, f, slots, s, out),
        }
    }
}

/// The typed struct `name` of format `f`: fields, checked decode and encode, accessors, as
/// Rust source text. Written as text straight from the IR, not as tokens: at thousands of
/// encodings, making, copying and freeing a token stream per encoding was the largest part of
/// generating the module (about 120 ns a token).
pub fn format_def(m: &Model, name: &str, f: &ir::Format) -> String {
    format_text(m, name, f, true)
}

/// The struct of format `f` for the decoder-only module: members and `from_word` alone (see
/// [`generate_decoder`]).
fn decoder_def(m: &Model, name: &str, f: &ir::Format) -> String {
    format_text(m, name, f, false)
}

/// [`format_def`] when `full`, else [`decoder_def`].
fn format_text(m: &Model, name: &str, f: &ir::Format, full: bool) -> String {
    let spec_name = {
        let mut s = String::new();
        str_lit(&f.name, &mut s);
        s
    };
    let mut out = String::with_capacity(4096);
    if full {
        let encoding = encoding_doc(m, f);
        let syntax = syntax_doc(m, f);
        let own = f.doc.trim_end();
        doc_text(
            &[own, &encoding, &syntax]
                .iter()
                .filter(|x| !x.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join("\n\n"),
            &mut out,
        );
    }
    let word_ty = m.word;
    let mut members = String::new();
    let mut decode = String::new();
    let mut encode = String::new();
    let mut values = String::new();
    let mut accessors = String::new();
    let fixed_word = placement::fixed_bits(&f.fields);
    for (idx, field) in f.fields.iter().enumerate() {
        if field.view {
            continue;
        }
        let mut fname = String::new();
        str_lit(&field.name, &mut fname);
        let id = m.field_name(&field.name);
        if let Some(v) = field.fixed {
            let _ = write!(values, "({fname}, {}),", fixed_value(m, &field.ty, v));
            continue;
        }
        if field.is_tag {
            // Implied by the switch field that depends on it.
            let (Some(dep), tag_ty) =
                (f.fields.iter().find(|x| matches!(x.ty, Type::Switch { tag, .. } if tag == idx)), &field.ty)
            else {
                continue;
            };
            let dep_id = m.field_name(&dep.name);
            let (ret, conv) = match tag_ty {
                Type::Bool => ("bool", format!("self.{dep_id}.tag() != 0")),
                Type::UInt(_)
                | Type::SInt(_)
                | Type::Enum(_)
                | Type::Number(_)
                | Type::Layout(_)
                | Type::Switch { .. } => {
                    let t = uint_name(field.width());
                    (t, format!("self.{dep_id}.tag() as {t}"))
                }
            };
            accessors.push_str("#[doc = ");
            str_lit(&format!(" `{}`: implied by the variant of `{}`.", field.name, dep.name), &mut accessors);
            let _ = writeln!(accessors, "]\npub fn {id}(&self) -> {ret} {{\n{conv}\n}}");
            let v = match tag_ty {
                Type::Bool => format!("isa_runtime::value::Value::Bool(self.{id}())"),
                Type::UInt(_)
                | Type::SInt(_)
                | Type::Enum(_)
                | Type::Number(_)
                | Type::Layout(_)
                | Type::Switch { .. } => format!("isa_runtime::value::Value::Uint(self.{id}() as u64)"),
            };
            let _ = write!(values, "({fname}, {v}),");
            continue;
        }
        if full {
            doc_text(&field.doc, &mut members);
        }
        let _ = writeln!(members, "pub {id}: {},", member_type(m, field));
        let width = field.width();
        // Decode.
        let elem_decode = |raw: String| -> String {
            if let Some(read) = number_read(&field.ty, width, &raw) {
                return read;
            }
            match &field.ty {
                Type::Bool | Type::UInt(_) | Type::Number(_) | Type::SInt(_) => unreachable!("read above"),
                Type::Enum(e) => match total_enum_read(m, *e, width, &raw) {
                    // Every value of the bits has a variant: no error to build.
                    Some(read) if field.array.is_none() => read,
                    _ => {
                        let en = m.enum_ident(*e);
                        format!("{{ let raw = {raw}; {en}::from_bits(raw).ok_or_else(|| undefined({fname}, raw))? }}")
                    }
                },
                Type::Switch { tag, .. } => {
                    let sw = m.rust_type_name(&field.ty);
                    let tag_raw = extract_text(m.word, &placement::piece_runs(&f.fields[*tag].pieces));
                    format!("{{ let raw = {raw}; {sw}::from_bits({tag_raw}, raw).ok_or_else(|| undefined({fname}, raw))? }}")
                }
                Type::Layout(l) => {
                    let ln = m.layout_ident(*l);
                    let words = layout_words(m, *l).join(", ");
                    format!("{{ let raw = {raw}; {ln}::from_words([{words}])? }}")
                }
            }
        };
        match &field.array {
            None => {
                let d = elem_decode(extract_text(m.word, &placement::piece_runs(&field.pieces)));
                let _ = writeln!(decode, "{id}: {d},");
            }
            Some((n, _)) => {
                let d = elem_decode(extract_text(m.word, &placement::runs(field)));
                let init = match &field.ty {
                    Type::Bool => "false".to_string(),
                    Type::Enum(e) => {
                        let en = m.enum_ident(*e);
                        let first = m.variant_ident(*e, 0);
                        match m.t.enums[e.0].variants[0].values {
                            ir::Values::One(_) => format!("{en}::{first}"),
                            ir::Values::Range(..) | ir::Values::Rest => {
                                let pt = m.payload_ident(*e, 0);
                                format!("{en}::{first}({pt}::MIN)")
                            }
                        }
                    }
                    Type::Layout(l) => {
                        let ln = m.layout_ident(*l);
                        format!("{ln} {{ words: [0; {}] }}", layout_word_count(m, *l))
                    }
                    Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Switch { .. } => "0".to_string(),
                };
                let i = element_index(field);
                let _ = writeln!(
                    decode,
                    "{id}: {{\nlet mut out = [{init}; {n}];\nfor ({i}, slot) in out.iter_mut().enumerate() {{\n*slot = {d};\n}}\nout\n}},"
                );
            }
        }
        // Encode.
        let check_and_raw = |val: &str| -> String {
            match &field.ty {
                Type::Bool => format!("let v = {val} as u64;\n"),
                Type::UInt(_) | Type::Number(_) if rust_bits(width) > width => {
                    let max = hex_text((1u128 << width) - 1);
                    format!(
                        "let v = {val} as u64;\nif v > {max} {{\nreturn Err(isa_runtime::EncodeError::OutOfRange {{ format: {spec_name}, field: {fname}, value: v as i128, bits: {width}, signed: false }});\n}}\n"
                    )
                }
                Type::UInt(_) | Type::Number(_) => format!("let v = {val} as u64;\n"),
                Type::SInt(w) => {
                    if rust_bits(*w) > *w {
                        let min = -(1i128 << (w - 1));
                        let max = (1i128 << (w - 1)) - 1;
                        format!(
                            "let s = {val} as i64;\nif !({min}..={max}).contains(&s) {{\nreturn Err(isa_runtime::EncodeError::OutOfRange {{ format: {spec_name}, field: {fname}, value: s as i128, bits: {w}, signed: true }});\n}}\nlet v = s as u64;\n"
                        )
                    } else {
                        format!("let v = {val} as u64;\n")
                    }
                }
                // An enum value is always one the spec defines (range and catch-all values are
                // checked when made), so its bits fit the field.
                Type::Enum(_) | Type::Switch { .. } => format!("let v = {val}.bits();\n"),
                Type::Layout(l) => {
                    let parts: String = (0..layout_word_count(m, *l))
                        .map(|k| format!(" | (u64::from(words[{k}usize]) << {})", 32 * k))
                        .collect();
                    format!("let v = {{ let words = ({val}).to_words(); 0u64{parts} }};\n")
                }
            }
        };
        let allowed = match &field.allowed {
            Some(ranges) if field.array.is_none() => {
                let pats: Vec<String> = ranges.iter().map(|(lo, hi)| format!("{lo}..={hi}")).collect();
                // The ranges are the field's bits: a signed value's (`v` is it sign-extended
                // to 64 bits) are its low `w`.
                let bits = match field.ty {
                    Type::SInt(w) if w < 64 => format!("v & {}", hex_text((1u128 << w) - 1)),
                    _ => "v".to_string(),
                };
                format!(
                    "if !matches!({bits}, {}) {{\nreturn Err(isa_runtime::EncodeError::NotAllowed {{ format: {spec_name}, field: {fname}, value: v }});\n}}\n",
                    pats.join(" | ")
                )
            }
            _ => String::new(),
        };
        match &field.array {
            None => {
                let check = check_and_raw(&format!("self.{id}"));
                let ins = insert_text(m, field, false);
                let tag_ins = match &field.ty {
                    Type::Switch { tag, .. } => {
                        let ins_tag = insert_text(m, &f.fields[*tag], false);
                        format!("{{\nlet v = self.{id}.tag();\n{ins_tag}}}\n")
                    }
                    Type::Bool
                    | Type::UInt(_)
                    | Type::SInt(_)
                    | Type::Enum(_)
                    | Type::Number(_)
                    | Type::Layout(_) => String::new(),
                };
                let _ = writeln!(encode, "{{\n{check}{allowed}{ins}{tag_ins}}}");
                let v = value_of(&field.ty, &format!("self.{id}"));
                let _ = write!(values, "({fname}, {v}),");
            }
            Some(_) => {
                let check = check_and_raw("element");
                let ins = insert_text(m, field, true);
                let i = element_index(field);
                let _ = writeln!(
                    encode,
                    "for ({i}, &element) in self.{id}.iter().enumerate() {{\n{check}{ins}}}"
                );
                let v = value_of(&field.ty, "x");
                // `| &x|` spaced as the token form was: prettyplease keeps a macro's spacing.
                let _ = write!(
                    values,
                    "({fname}, isa_runtime::value::Value::Array(self.{id}.iter().map(| &x| {v}).collect())),"
                );
            }
        }
    }
    let fixed = hex_text(fixed_word);
    let uses_undefined = f.fields.iter().any(|x| {
        x.fixed.is_none()
            && !x.view
            && !x.is_tag
            && match x.ty {
                Type::Enum(e) => x.array.is_some() || !total_enum(m, e, x.width()),
                Type::Switch { .. } => true,
                Type::Bool | Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Layout(_) => false,
            }
    });
    let undefined_fn = if uses_undefined {
        let word = if word_ty == "u128" { "word" } else { "word: word as u128" };
        format!(
            "let undefined = |field: &'static str, value: u64| isa_runtime::DecodeError::UndefinedValue {{\nformat: {spec_name}, field, value, {word},\n}};\n"
        )
    } else {
        String::new()
    };
    let word_param = if decode.is_empty() { "_word" } else { "word" };
    // A format of fixed fields only sets no bit: `mut` would be an unused-mut warning.
    let word_binding = if encode.is_empty() { "word" } else { "mut word" };
    // The `#[doc = r"..."]` attributes are the `///` comments the token form had, token for
    // token. `from_word` is inlined into the decoder's leaf (`decode_leaf`), the fields written
    // straight into the `Instruction`: out of line, they were stored byte by byte and copied
    // again with wide loads that wait on those stores (most of the decoder's time on VC4, and
    // on Maxwell, whose large decoder inlined none of them).
    if !full {
        let _ = write!(
            out,
            r####"#[derive(Clone, Copy)]
pub struct {name} {{
{members}}}

#[allow(unused_parens, dead_code)]
impl {name} {{
#[inline]
fn from_word({word_param}: {word_ty}) -> Result<Self, isa_runtime::DecodeError> {{
{undefined_fn}Ok({name} {{
{decode}}})
}}
}}
"####
        );
        return out;
    }
    let _ = write!(
        out,
        r####"#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct {name} {{
{members}}}

#[allow(unused_parens)]
impl {name} {{
#[doc = r" The encoding's name in the spec."]
pub const NAME: &'static str = {spec_name};
#[doc = r" The bits every word of this encoding has (its fixed fields)."]
pub const FIXED_BITS: {word_ty} = {fixed};
#[doc = r" Decodes the fields of a word already known to match this encoding."]
#[inline]
#[allow(unused_parens)]
pub fn from_word({word_param}: {word_ty}) -> Result<Self, isa_runtime::DecodeError> {{
{undefined_fn}Ok({name} {{
{decode}}})
}}
#[doc = r" Encodes the instruction; a value that does not fit its field is an error."]
#[allow(clippy::unnecessary_cast)]
pub fn to_word(&self) -> Result<{word_ty}, isa_runtime::EncodeError> {{
let {word_binding}: {word_ty} = Self::FIXED_BITS;
{encode}Ok(word)
}}
#[doc = r" Every field by its spec name, for generic tools."]
pub fn fields(&self) -> Vec<(&'static str, isa_runtime::value::Value)> {{
vec![{values}]
}}
{accessors}}}
"####
    );
    out
}

/// The typed reads of a format's stored fields, in struct order, when none of them can fail:
/// booleans, integers, and enums with a variant for every value of the field's bits (no
/// arrays, switches or layout views). Each is (the struct member, its type, the expression
/// reading it from `word`), the type and the read as text: compared by the decoder's layout
/// leaves ([`super::instruction`]), which lex only the reads of each layout's first encoding,
/// where lexing every encoding's reads and printing them back for the comparison was a fifth of
/// generating 10,000 encodings. Encodings whose reads are the same text share one function
/// reading them.
pub fn total_reads(m: &Model, f: &ir::Format) -> Option<Vec<(proc_macro2::Ident, String, String)>> {
    let mut out = Vec::new();
    for field in &f.fields {
        if field.view || field.fixed.is_some() {
            continue;
        }
        if field.is_tag || field.array.is_some() {
            return None;
        }
        let width = field.width();
        let raw = extract_text(m.word, &placement::piece_runs(&field.pieces));
        let read = match &field.ty {
            Type::Enum(e) => total_enum_read(m, *e, width, &raw)?,
            ty => number_read(ty, width, &raw)?,
        };
        out.push((m.field_ident(&field.name), member_type(m, field), read));
    }
    Some(out)
}

/// The read of raw field bits `raw` (a `u64` of `width` bits) as a flag or a number, which
/// cannot fail; `None` for the other types.
fn number_read(ty: &Type, width: u32, raw: &str) -> Option<String> {
    Some(match ty {
        Type::Bool => format!("{raw} != 0"),
        Type::UInt(_) | Type::Number(_) => format!("{raw} as {}", uint_name(width)),
        Type::SInt(w) => format!("isa_runtime::bits::sign_extend({raw}, {w}) as {}", sint_name(*w)),
        _ => return None,
    })
}

/// Whether every value of a field of `width` bits has a variant of enum `e` (see
/// [`total_enum_read`]).
fn total_enum(m: &Model, e: ir::EnumId, width: u32) -> bool {
    total_enum_names(m, e, width).is_some()
}

/// For a field of `width` bits of enum `e` whose every value has a variant: the enum's name and
/// the value standing for the case the compiler cannot rule out (the first variant's), worked
/// out once per enum.
fn total_enum_names<'m>(m: &'m Model, e: ir::EnumId, width: u32) -> Option<&'m (String, String)> {
    let en = &m.t.enums[e.0];
    if width != en.width {
        return None;
    }
    m.total_enums[e.0]
        .get_or_init(|| {
            let covered = en.variants.iter().any(|v| matches!(v.values, ir::Values::Rest))
                || (width <= 16 && (0..1u64 << width).all(|v| en.variant_of(v).is_some()));
            if !covered || en.variants.is_empty() {
                return None;
            }
            let name = m.enum_ident(e);
            let first = m.variant_ident(e, 0);
            let fallback = match en.variants[0].values {
                ir::Values::One(_) => format!("{name}::{first}"),
                ir::Values::Range(..) | ir::Values::Rest => {
                    format!("{name}::{first}({}::MIN)", m.payload_ident(e, 0))
                }
            };
            Some((name.to_string(), fallback))
        })
        .as_ref()
}

/// The read of raw field bits `raw` (a `u64` of `width` bits) as enum `e` when every value of
/// the bits has a variant: `from_bits` cannot refuse one, so the read needs no error, and the
/// first variant's value stands for the case the compiler cannot rule out. `None` when some
/// value has no variant.
fn total_enum_read(m: &Model, e: ir::EnumId, width: u32, raw: &str) -> Option<String> {
    let (name, fallback) = total_enum_names(m, e, width)?;
    Some(format!(
        "{{ let raw = {raw}; match {name}::from_bits(raw) {{ Some(v) => v, None => {fallback} }} }}"
    ))
}

/// How many 32-bit words hold the view of layout `l` when it is a format field: a field's
/// value is a `u64`, so at most two.
fn layout_word_count(m: &Model, l: ir::LayoutId) -> usize {
    (m.t.layouts[l.0].width.div_ceil(32) as usize).min(2)
}

/// The words of a layout view, from raw field value `raw` (a `u64`), least significant first.
fn layout_words(m: &Model, l: ir::LayoutId) -> Vec<String> {
    (0..layout_word_count(m, l))
        .map(|k| match k {
            0 => "raw as u32".to_string(),
            _ => format!("(raw >> {}) as u32", 32 * k),
        })
        .collect()
}

/// Bits of the Rust integer a field of `width` bits is stored in.
fn rust_bits(width: u32) -> u32 {
    match width {
        0..=8 => 8,
        9..=16 => 16,
        17..=32 => 32,
        33..=64 => 64,
        _ => 128,
    }
}

fn value_of(ty: &Type, x: &str) -> String {
    match ty {
        Type::Bool => format!("isa_runtime::value::Value::Bool({x})"),
        Type::UInt(_) | Type::Number(_) => format!("isa_runtime::value::Value::Uint({x} as u64)"),
        Type::SInt(_) => format!("isa_runtime::value::Value::Int({x} as i64)"),
        Type::Enum(_) | Type::Switch { .. } => format!("{x}.value()"),
        // `x` may be `*x`: the parentheses keep the dereference on the view.
        Type::Layout(_) => format!("({x}).value()"),
    }
}

fn fixed_value(m: &Model, ty: &Type, v: u64) -> String {
    match ty {
        Type::Enum(e) => {
            let en = m.enum_ident(*e);
            format!("{en}::from_bits({v}).map_or(isa_runtime::value::Value::Uint({v}), {en}::value)")
        }
        Type::Bool => format!("isa_runtime::value::Value::Bool({})", v != 0),
        Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Layout(_) | Type::Switch { .. } => {
            format!("isa_runtime::value::Value::Uint({v})")
        }
    }
}

/// The name of an array's element index in the loops that decode and encode it: `i`, or `_`
/// where no element's bits depend on it (an array of one element has stride 0; an unused `i`
/// is a warning, an error under `-D warnings`).
fn element_index(field: &ir::Field) -> &'static str {
    if placement::runs(field).iter().any(|r| r.stride != 0) {
        "i"
    } else {
        "_"
    }
}
