//! One struct per format: typed fields, `from_word` (checked decode of the fields),
//! `to_word` (range-checked encode, never truncating) and `fields` (values for tools).

use super::model::{doc, extract, extract_runs, hex, lit, position, sint, uint, Model};
use crate::ir::{self, Type};
use crate::placement;
use proc_macro2::TokenStream;
use quote::quote;

pub fn generate(m: &Model, out: &mut super::Items) {
    for (fi, f) in m.t.formats.iter().enumerate() {
        out.push(format_def(m, m.format_ident(fi), f));
    }
}

/// The struct member type of a field (arrays included).
fn member_type(m: &Model, f: &ir::Field) -> TokenStream {
    let ty = m.rust_type(&f.ty);
    match &f.array {
        Some((n, _)) => {
            let n = lit(*n as u128);
            quote!([#ty; #n])
        }
        None => ty,
    }
}

/// Statements OR-ing raw value `v` (a `u64`) into `word` at the field's pieces: element `i`
/// (a variable of the generated code) when `element`, else the field's own pieces.
pub fn insert(m: &Model, f: &ir::Field, element: bool) -> TokenStream {
    let word_ty = &m.word_ty;
    let runs = if element { placement::runs(f) } else { placement::piece_runs(&f.pieces) };
    let mut out = TokenStream::new();
    for r in runs.iter().rev() {
        let mask = hex((1u128 << r.width) - 1);
        let value = if r.value_lo == 0 {
            quote!(v & #mask)
        } else {
            let o = lit(u128::from(r.value_lo));
            quote!((v >> #o) & #mask)
        };
        let value =
            if word_ty.to_string() == "u64" { quote!((#value)) } else { quote!(((#value) as #word_ty)) };
        if (r.lo, r.stride) == (0, 0) {
            out.extend(quote!(word |= #value;));
        } else {
            let shift = position(r.lo, r.stride);
            out.extend(quote!(word |= #value << (#shift);));
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

/// The typed struct `name` of format `f`: fields, checked decode and encode, accessors.
pub fn format_def(m: &Model, name: proc_macro2::Ident, f: &ir::Format) -> TokenStream {
    let spec_name = &f.name;
    let encoding = encoding_doc(m, f);
    let syntax = syntax_doc(m, f);
    let own = f.doc.trim_end();
    let docs = doc(&[own, &encoding, &syntax]
        .iter()
        .filter(|x| !x.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("\n\n"));
    let word_ty = &m.word_ty;
    let mut members = Vec::new();
    let mut decode = Vec::new();
    let mut encode = Vec::new();
    let mut values = Vec::new();
    let mut accessors = Vec::new();
    let fixed_word = placement::fixed_bits(&f.fields);
    for (idx, field) in f.fields.iter().enumerate() {
        let fname = &field.name;
        let id = m.field_ident(fname);
        let fdoc = doc(&field.doc);
        if field.view {
            continue;
        }
        if let Some(v) = field.fixed {
            let fv = fixed_value(m, &field.ty, v);
            values.push(quote!((#fname, #fv)));
            continue;
        }
        if field.is_tag {
            // Implied by the switch field that depends on it.
            let (Some(dep), tag_ty) =
                (f.fields.iter().find(|x| matches!(x.ty, Type::Switch { tag, .. } if tag == idx)), &field.ty)
            else {
                continue;
            };
            let dep_id = m.field_ident(&dep.name);
            let (ret, conv) = match tag_ty {
                Type::Bool => (quote!(bool), quote!(self.#dep_id.tag() != 0)),
                Type::UInt(_)
                | Type::SInt(_)
                | Type::Enum(_)
                | Type::Number(_)
                | Type::Layout(_)
                | Type::Switch { .. } => (uint(field.width()), {
                    let t = uint(field.width());
                    quote!(self.#dep_id.tag() as #t)
                }),
            };
            let adoc = format!(" `{fname}`: implied by the variant of `{}`.", dep.name);
            accessors.push(quote! {
                #[doc = #adoc]
                pub fn #id(&self) -> #ret {
                    #conv
                }
            });
            let v = match tag_ty {
                Type::Bool => quote!(isa_runtime::value::Value::Bool(self.#id())),
                Type::UInt(_)
                | Type::SInt(_)
                | Type::Enum(_)
                | Type::Number(_)
                | Type::Layout(_)
                | Type::Switch { .. } => quote!(isa_runtime::value::Value::Uint(self.#id() as u64)),
            };
            values.push(quote!((#fname, #v)));
            continue;
        }
        let ty = member_type(m, field);
        members.push(quote!(#fdoc pub #id: #ty));
        let width = field.width();
        // Decode.
        let elem_decode = |raw: TokenStream| -> TokenStream {
            if let Some(read) = number_read(&field.ty, width, &raw) {
                return read;
            }
            match &field.ty {
                Type::Bool | Type::UInt(_) | Type::Number(_) | Type::SInt(_) => unreachable!("read above"),
                Type::Enum(e) => match total_enum_read(m, *e, width, raw.clone()) {
                    // Every value of the bits has a variant: no error to build.
                    Some(read) if field.array.is_none() => read,
                    _ => {
                        let en = m.enum_ident(*e);
                        quote!({ let raw = #raw; #en::from_bits(raw).ok_or_else(|| undefined(#fname, raw))? })
                    }
                },
                Type::Switch { tag, .. } => {
                    let sw = m.rust_type(&field.ty);
                    let tag_raw = extract(&m.word_ty, &f.fields[*tag].pieces);
                    quote!({ let raw = #raw; #sw::from_bits(#tag_raw, raw).ok_or_else(|| undefined(#fname, raw))? })
                }
                Type::Layout(l) => {
                    let ln = m.layout_ident(*l);
                    let words = layout_words(m, *l);
                    quote!({ let raw = #raw; #ln::from_words([#(#words),*])? })
                }
            }
        };
        match &field.array {
            None => {
                let d = elem_decode(extract(&m.word_ty, &field.pieces));
                decode.push(quote!(#id: #d));
            }
            Some((n, _)) => {
                let n_lit = lit(*n as u128);
                let d = elem_decode(extract_runs(&m.word_ty, &placement::runs(field)));
                let init = match &field.ty {
                    Type::Bool => quote!(false),
                    Type::Enum(e) => {
                        let en = m.enum_ident(*e);
                        let first = m.variant_ident(*e, 0);
                        match m.t.enums[e.0].variants[0].values {
                            ir::Values::One(_) => quote!(#en::#first),
                            ir::Values::Range(..) | ir::Values::Rest => {
                                let pt = m.payload_ident(*e, 0);
                                quote!(#en::#first(#pt::MIN))
                            }
                        }
                    }
                    Type::Layout(l) => {
                        let ln = m.layout_ident(*l);
                        let n = lit(layout_word_count(m, *l) as u128);
                        quote!(#ln { words: [0; #n] })
                    }
                    Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Switch { .. } => quote!(0),
                };
                decode.push(quote!(#id: {
                    let mut out = [#init; #n_lit];
                    for (i, slot) in out.iter_mut().enumerate() {
                        *slot = #d;
                    }
                    out
                }));
            }
        }
        // Encode.
        let check_and_raw = |val: TokenStream| -> TokenStream {
            match &field.ty {
                Type::Bool => quote!(let v = #val as u64;),
                Type::UInt(_) | Type::Number(_) if rust_bits(width) > width => {
                    let max = hex((1u128 << width) - 1);
                    let w = lit(width as u128);
                    quote! {
                        let v = #val as u64;
                        if v > #max {
                            return Err(isa_runtime::EncodeError::OutOfRange { format: #spec_name, field: #fname, value: v as i128, bits: #w, signed: false });
                        }
                    }
                }
                Type::UInt(_) | Type::Number(_) => quote!(let v = #val as u64;),
                Type::SInt(w) => {
                    let rust_bits = match *w {
                        0..=8 => 8,
                        9..=16 => 16,
                        17..=32 => 32,
                        _ => 64,
                    };
                    let wl = lit(*w as u128);
                    if rust_bits > *w {
                        let min = -(1i128 << (w - 1));
                        let max = (1i128 << (w - 1)) - 1;
                        let (min, max) = (
                            proc_macro2::Literal::i128_unsuffixed(min),
                            proc_macro2::Literal::i128_unsuffixed(max),
                        );
                        quote! {
                            let s = #val as i64;
                            if !(#min..=#max).contains(&s) {
                                return Err(isa_runtime::EncodeError::OutOfRange { format: #spec_name, field: #fname, value: s as i128, bits: #wl, signed: true });
                            }
                            let v = s as u64;
                        }
                    } else {
                        quote!(let v = #val as u64;)
                    }
                }
                // An enum value is always one the spec defines (range and catch-all values are
                // checked when made), so its bits fit the field.
                Type::Enum(_) | Type::Switch { .. } => quote!(let v = #val.bits();),
                Type::Layout(l) => {
                    let parts = (0..layout_word_count(m, *l)).map(|k| {
                        let shift = lit(32 * k as u128);
                        quote!((u64::from(words[#k]) << #shift))
                    });
                    quote!(let v = { let words = (#val).to_words(); 0u64 #(| #parts)* };)
                }
            }
        };
        let allowed = match &field.allowed {
            Some(ranges) if field.array.is_none() => {
                let pats = ranges.iter().map(|(lo, hi)| {
                    let (lo, hi) = (lit(*lo as u128), lit(*hi as u128));
                    quote!(#lo..=#hi)
                });
                quote! {
                    if !matches!(v, #(#pats)|*) {
                        return Err(isa_runtime::EncodeError::NotAllowed { format: #spec_name, field: #fname, value: v });
                    }
                }
            }
            _ => quote!(),
        };
        match &field.array {
            None => {
                let check = check_and_raw(quote!(self.#id));
                let ins = insert(m, field, false);
                let tag_ins = match &field.ty {
                    Type::Switch { tag, .. } => {
                        let tag_field = &f.fields[*tag];
                        let ins_tag = insert(m, tag_field, false);
                        quote!({ let v = self.#id.tag(); #ins_tag })
                    }
                    Type::Bool
                    | Type::UInt(_)
                    | Type::SInt(_)
                    | Type::Enum(_)
                    | Type::Number(_)
                    | Type::Layout(_) => quote!(),
                };
                encode.push(quote!({ #check #allowed #ins #tag_ins }));
                let v = value_of(m, &field.ty, quote!(self.#id));
                values.push(quote!((#fname, #v)));
            }
            Some(_) => {
                let check = check_and_raw(quote!(element));
                let ins = insert(m, field, true);
                encode.push(quote! {
                    for (i, &element) in self.#id.iter().enumerate() {
                        #check
                        #ins
                    }
                });
                let v = value_of(m, &field.ty, quote!(x));
                values.push(
                    quote!((#fname, isa_runtime::value::Value::Array(self.#id.iter().map(|&x| #v).collect()))),
                );
            }
        }
    }
    let fixed = hex(fixed_word);
    let uses_undefined = f.fields.iter().any(|x| {
        x.fixed.is_none()
            && !x.view
            && !x.is_tag
            && match x.ty {
                Type::Enum(e) => {
                    x.array.is_some() || total_enum_read(m, e, x.width(), TokenStream::new()).is_none()
                }
                Type::Switch { .. } => true,
                Type::Bool | Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Layout(_) => false,
            }
    });
    let undefined_fn = if uses_undefined {
        let word = super::model::word_field(&m.word_ty);
        quote! {
            let undefined = |field: &'static str, value: u64| isa_runtime::DecodeError::UndefinedValue {
                format: #spec_name, field, value, #word,
            };
        }
    } else {
        quote!()
    };
    let uses_word = decode.iter().any(|_| true);
    let word_param = if uses_word { quote!(word) } else { quote!(_word) };
    // A format of fixed fields only sets no bit: `mut` would be an unused-mut warning.
    let word_binding = if encode.is_empty() { quote!(word) } else { quote!(mut word) };
    quote! {
        #docs
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct #name {
            #(#members,)*
        }

        #[allow(unused_parens)]
        impl #name {
            /// The encoding's name in the spec.
            pub const NAME: &'static str = #spec_name;
            /// The bits every word of this encoding has (its fixed fields).
            pub const FIXED_BITS: #word_ty = #fixed;

            /// Decodes the fields of a word already known to match this encoding.
            // Inlined into the decoder's leaf (`decode_leaf`), the fields are written straight
            // into the `Instruction`: out of line, they were stored byte by byte and copied
            // again with wide loads that wait on those stores (most of the decoder's time on
            // VC4, and on Maxwell, whose large decoder inlined none of them).
            #[inline]
            #[allow(unused_parens)]
            pub fn from_word(#word_param: #word_ty) -> Result<Self, isa_runtime::DecodeError> {
                #undefined_fn
                Ok(#name {
                    #(#decode,)*
                })
            }

            /// Encodes the instruction; a value that does not fit its field is an error.
            #[allow(clippy::unnecessary_cast)]
            pub fn to_word(&self) -> Result<#word_ty, isa_runtime::EncodeError> {
                let #word_binding: #word_ty = Self::FIXED_BITS;
                #(#encode)*
                Ok(word)
            }

            /// Every field by its spec name, for generic tools.
            pub fn fields(&self) -> Vec<(&'static str, isa_runtime::value::Value)> {
                vec![#(#values,)*]
            }

            #(#accessors)*
        }
    }
}

/// The typed reads of a format's stored fields, in struct order, when none of them can fail:
/// booleans, integers, and enums with a variant for every value of the field's bits (no
/// arrays, switches or layout views). Each is (the struct member, its type, the expression
/// reading it from `word`). Encodings whose reads are the same token for token share one
/// function reading them (the decoder's layout leaves, [`super::instruction`]).
pub fn total_reads(m: &Model, f: &ir::Format) -> Option<Vec<(proc_macro2::Ident, TokenStream, TokenStream)>> {
    let mut out = Vec::new();
    for field in &f.fields {
        if field.view || field.fixed.is_some() {
            continue;
        }
        if field.is_tag || field.array.is_some() {
            return None;
        }
        let width = field.width();
        let raw = extract(&m.word_ty, &field.pieces);
        let read = match &field.ty {
            Type::Enum(e) => total_enum_read(m, *e, width, raw)?,
            ty => number_read(ty, width, &raw)?,
        };
        out.push((m.field_ident(&field.name), member_type(m, field), read));
    }
    Some(out)
}

/// The read of raw field bits `raw` (a `u64` of `width` bits) as a flag or a number, which
/// cannot fail; `None` for the other types.
fn number_read(ty: &Type, width: u32, raw: &TokenStream) -> Option<TokenStream> {
    Some(match ty {
        Type::Bool => quote!(#raw != 0),
        Type::UInt(_) | Type::Number(_) => {
            let t = uint(width);
            quote!(#raw as #t)
        }
        Type::SInt(w) => {
            let t = sint(*w);
            let w = lit(*w as u128);
            quote!(isa_runtime::bits::sign_extend(#raw, #w) as #t)
        }
        _ => return None,
    })
}

/// The read of raw field bits `raw` (a `u64` of `width` bits) as enum `e` when every value of
/// the bits has a variant: `from_bits` cannot refuse one, so the read needs no error, and the
/// first variant's value stands for the case the compiler cannot rule out. `None` when some
/// value has no variant.
fn total_enum_read(m: &Model, e: ir::EnumId, width: u32, raw: TokenStream) -> Option<TokenStream> {
    let en = &m.t.enums[e.0];
    let covered = en.variants.iter().any(|v| matches!(v.values, ir::Values::Rest))
        || (width <= 16 && (0..1u64 << width).all(|v| en.variant_of(v).is_some()));
    if !covered || en.variants.is_empty() || width != en.width {
        return None;
    }
    let name = m.enum_ident(e);
    let first = m.variant_ident(e, 0);
    let fallback = match en.variants[0].values {
        ir::Values::One(_) => quote!(#name::#first),
        ir::Values::Range(..) | ir::Values::Rest => {
            let pt = m.payload_ident(e, 0);
            quote!(#name::#first(#pt::MIN))
        }
    };
    Some(quote!({ let raw = #raw; match #name::from_bits(raw) { Some(v) => v, None => #fallback } }))
}

/// How many 32-bit words hold the view of layout `l` when it is a format field: a field's
/// value is a `u64`, so at most two.
fn layout_word_count(m: &Model, l: ir::LayoutId) -> usize {
    (m.t.layouts[l.0].width.div_ceil(32) as usize).min(2)
}

/// The words of a layout view, from raw field value `raw` (a `u64`), least significant first.
fn layout_words(m: &Model, l: ir::LayoutId) -> Vec<TokenStream> {
    (0..layout_word_count(m, l))
        .map(|k| match k {
            0 => quote!(raw as u32),
            _ => {
                let shift = lit(32 * k as u128);
                quote!((raw >> #shift) as u32)
            }
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

fn value_of(m: &Model, ty: &Type, x: TokenStream) -> TokenStream {
    match ty {
        Type::Bool => quote!(isa_runtime::value::Value::Bool(#x)),
        Type::UInt(_) | Type::Number(_) => quote!(isa_runtime::value::Value::Uint(#x as u64)),
        Type::SInt(_) => quote!(isa_runtime::value::Value::Int(#x as i64)),
        Type::Enum(_) | Type::Switch { .. } => quote!(#x.value()),
        // `x` may be `*x`: the parentheses keep the dereference on the view.
        Type::Layout(_) => {
            let _ = m;
            quote!((#x).value())
        }
    }
}

fn fixed_value(m: &Model, ty: &Type, v: u64) -> TokenStream {
    match ty {
        Type::Enum(e) => {
            let en = m.enum_ident(*e);
            let vl = lit(v as u128);
            quote!(#en::from_bits(#vl).map_or(isa_runtime::value::Value::Uint(#vl), #en::value))
        }
        Type::Bool => {
            let b = v != 0;
            quote!(isa_runtime::value::Value::Bool(#b))
        }
        Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Layout(_) | Type::Switch { .. } => {
            let vl = lit(v as u128);
            quote!(isa_runtime::value::Value::Uint(#vl))
        }
    }
}
