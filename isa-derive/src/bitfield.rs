//! `#[derive(Bitfield)]`: the struct's attributes become the text of a one-format spec, which
//! goes through the same parser, checker and Rust backend as a spec file. Diagnostics on the
//! generated text are mapped back to the attribute (or the piece of it) they are about.

use isa_compiler::backend::rust::derive::{self, Member, MemberType};
use proc_macro2::{Ident, TokenStream};
use quote::ToTokens;
use std::fmt::Write;
use std::ops::Range;
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Data, DeriveInput, Fields, LitBool, LitInt, Token};

/// Words that start members or clauses in the spec language: a field called so is renamed in
/// the generated spec (and named back in messages).
const SPEC_KEYWORDS: &[&str] = &[
    "property",
    "syntax",
    "unused",
    "constraint",
    "execute",
    "view",
    "let",
    "if",
    "then",
    "else",
    "match",
    "each",
    "where",
    "in",
    "is",
    "default",
    "switch",
    "as",
    "true",
    "false",
];

/// One bit piece of a field attribute: its spec text, its tokens and its width if known.
struct Piece {
    text: String,
    tokens: TokenStream,
    width: u64,
}

/// A value of `is = ...` or `default = ...`.
struct Value {
    text: String,
    tokens: TokenStream,
}

struct FieldSpec {
    ident: Ident,
    /// The member's name without `r#`: what errors and messages call it.
    name: String,
    /// Its name in the generated spec.
    spec_name: String,
    ty: MemberType,
    attr: TokenStream,
    pieces: Vec<Piece>,
    fixed: Option<Value>,
    default: Option<Value>,
}

/// The text of the generated spec and, for ranges of it, the tokens they were written from.
#[derive(Default)]
struct Spec {
    text: String,
    regions: Vec<(Range<usize>, TokenStream)>,
}

impl Spec {
    /// Appends `text`, remembering that it comes from `tokens`.
    fn push(&mut self, text: &str, tokens: &TokenStream) {
        let start = self.text.len();
        self.text.push_str(text);
        self.regions.push((start..self.text.len(), tokens.clone()));
    }

    /// The tokens the innermost region around byte `pos` was written from.
    fn tokens_at(&self, pos: usize) -> Option<&TokenStream> {
        self.regions
            .iter()
            .filter(|(r, _)| r.start <= pos && (pos < r.end || (pos == r.end && r.is_empty())))
            .min_by_key(|(r, _)| r.len())
            .map(|(_, t)| t)
    }
}

pub fn expand(input: DeriveInput) -> TokenStream {
    match derive(&input) {
        Ok(tokens) => tokens,
        Err(e) => e.to_compile_error(),
    }
}

fn is_spec_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !SPEC_KEYWORDS.contains(&s)
}

fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let name = &input.ident;
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(&input.generics, "`Bitfield` structs cannot be generic"));
    }
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            name,
            "`Bitfield` is derived for structs with named fields, one per bit range",
        ));
    };
    let Fields::Named(named) = &data.fields else {
        return Err(syn::Error::new_spanned(
            name,
            "`Bitfield` is derived for structs with named fields, one per bit range",
        ));
    };
    let (width, width_attr) = struct_width(input)?;

    // Fields: their types and attributes. Every mistake is reported: the derive's own, then
    // the checker's on the fields that could be read.
    let mut errors = Vec::new();
    let mut fields = Vec::new();
    for (index, field) in named.named.iter().enumerate() {
        let Some(ident) = field.ident.clone() else { continue };
        match field_spec(index, ident, field) {
            Ok(f) => fields.push(f),
            Err(e) => errors.push(e),
        }
    }
    for f in &fields {
        let bits = total_width(&f.pieces);
        if let MemberType::Unsigned(have) | MemberType::Signed(have) = f.ty {
            if bits > u64::from(have) {
                errors.push(syn::Error::new_spanned(
                    &f.attr,
                    format!(
                        "field `{}` has {bits} bits, more than its type `{}` holds: use a type of at least \
                         {bits} bits",
                        f.name,
                        rust_name(f.ty),
                    ),
                ));
            }
        }
    }

    let spec = write_spec(name, width, &width_attr, &fields);

    // The same pipeline as a spec file.
    let checked = isa_compiler::check_source(&spec.text);
    if let Err(diagnostics) = &checked {
        for d in diagnostics {
            let tokens = spec.tokens_at(d.primary.span.start).unwrap_or(&width_attr);
            errors.push(syn::Error::new_spanned(tokens, message(d, &fields)));
        }
    }
    let mut errors = errors.into_iter();
    if let Some(mut first) = errors.next() {
        first.extend(errors);
        return Err(first);
    }
    let target = checked.map_err(|_| syn::Error::new_spanned(name, "the bit ranges have errors"))?;
    let format = target.formats.first().ok_or_else(|| syn::Error::new_spanned(name, "no format"))?;
    let members = fields
        .iter()
        .map(|f| {
            let field = format.fields.iter().position(|x| x.name == f.spec_name).ok_or_else(|| {
                syn::Error::new_spanned(
                    &f.attr,
                    format!("field `{}` is missing from the checked spec", f.name),
                )
            })?;
            Ok(Member { field, ident: f.ident.clone(), ty: f.ty, name: f.name.clone() })
        })
        .collect::<syn::Result<Vec<_>>>()?;
    derive::struct_impl(&target, 0, width, name, &members).map_err(|e| syn::Error::new_spanned(name, e))
}

/// The spec equivalent to the struct: a target with one format, named after the struct.
fn write_spec(name: &Ident, width: u32, width_attr: &TokenStream, fields: &[FieldSpec]) -> Spec {
    let format_name = {
        let n = name.unraw().to_string();
        if is_spec_ident(&n) {
            n
        } else {
            "bitfield".to_string()
        }
    };
    let mut spec = Spec::default();
    let header = format!(
        "target {format_name} {{\n    word {}\n    dialect rust {{ comment \"//\" }}\n}}\n\nformat {format_name} : ",
        width.div_ceil(8) * 8
    );
    spec.push(&header, width_attr);
    spec.push(&width.to_string(), width_attr);
    spec.push(" {\n", width_attr);
    for f in fields {
        let start = spec.text.len();
        spec.text.push_str("    ");
        spec.push(&f.spec_name, &f.attr);
        let bits = total_width(&f.pieces);
        let _ = write!(spec.text, ": {} @ ", f.ty.spec_type(bits.min(u64::from(u32::MAX)) as u32));
        if f.pieces.len() > 1 {
            spec.text.push('[');
        }
        for (i, p) in f.pieces.iter().enumerate() {
            if i > 0 {
                spec.text.push_str(", ");
            }
            spec.push(&p.text, &p.tokens);
        }
        if f.pieces.len() > 1 {
            spec.text.push(']');
        }
        if let Some(v) = &f.fixed {
            spec.text.push_str(" is ");
            spec.push(&v.text, &v.tokens);
        }
        if let Some(v) = &f.default {
            spec.text.push_str(" default ");
            spec.push(&v.text, &v.tokens);
        }
        spec.text.push_str(",\n");
        spec.regions.push((start..spec.text.len(), f.attr.clone()));
    }
    let tail = format!("\n    syntax rust {{ \"{format_name}\" }}\n}}\n");
    spec.push(&tail, width_attr);
    spec
}

fn total_width(pieces: &[Piece]) -> u64 {
    pieces.iter().fold(0u64, |a, p| a.saturating_add(p.width))
}

fn rust_name(ty: MemberType) -> String {
    match ty {
        MemberType::Bool => "bool".into(),
        MemberType::Unsigned(b) => format!("u{b}"),
        MemberType::Signed(b) => format!("i{b}"),
    }
}

/// A checker diagnostic as one line, with the spec's names of renamed fields put back.
fn message(d: &isa_compiler::Diagnostic, fields: &[FieldSpec]) -> String {
    let mut text = d.message.clone();
    let labels: Vec<&str> = std::iter::once(d.primary.message.as_str())
        .chain(d.secondary.iter().map(|l| l.message.as_str()))
        .filter(|m| !m.is_empty() && !d.message.contains(*m))
        .collect();
    if !labels.is_empty() {
        let _ = write!(text, " ({})", labels.join("; "));
    }
    for f in fields.iter().filter(|f| f.spec_name != f.name) {
        text = text.replace(&format!("`{}`", f.spec_name), &format!("`{}`", f.name));
    }
    text
}

/// `#[bits(width = N)]` on the struct.
fn struct_width(input: &DeriveInput) -> syn::Result<(u32, TokenStream)> {
    let mut found = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("bits")) {
        if found.is_some() {
            return Err(syn::Error::new_spanned(attr, "the struct's `#[bits(width = N)]` is given twice"));
        }
        let mut width = None;
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("width") {
                let lit: LitInt = meta.value()?.parse()?;
                let w: u32 = lit.base10_parse()?;
                if !(1..=128).contains(&w) {
                    return Err(syn::Error::new_spanned(&lit, "a `Bitfield` is 1 to 128 bits wide"));
                }
                width = Some(w);
                Ok(())
            } else {
                Err(meta.error("the struct's attribute is `#[bits(width = N)]`"))
            }
        })?;
        match width {
            Some(w) => found = Some((w, attr.to_token_stream())),
            None => return Err(syn::Error::new_spanned(attr, "say the word's width: `#[bits(width = 32)]`")),
        }
    }
    found.ok_or_else(|| {
        syn::Error::new_spanned(
            &input.ident,
            "a `Bitfield` struct says its width in bits: `#[bits(width = 32)]` on the struct",
        )
    })
}

fn field_spec(index: usize, ident: Ident, field: &syn::Field) -> syn::Result<FieldSpec> {
    let name = ident.unraw().to_string();
    let ty = match &field.ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            p.path.get_ident().and_then(|i| MemberType::from_name(&i.to_string()))
        }
        _ => None,
    }
    .ok_or_else(|| {
        syn::Error::new_spanned(
            &field.ty,
            format!("field `{name}`: a `Bitfield` field is `bool`, `u8`..`u64` or `i8`..`i64`"),
        )
    })?;
    let mut attrs = field.attrs.iter().filter(|a| a.path().is_ident("bits"));
    let attr = attrs.next().ok_or_else(|| {
        syn::Error::new_spanned(
            &ident,
            format!("field `{name}` has no bits: say where it is, e.g. `#[bits(7:0)]` or `#[bits(5)]`"),
        )
    })?;
    if let Some(again) = attrs.next() {
        return Err(syn::Error::new_spanned(
            again,
            format!("field `{name}` has two `#[bits(...)]` attributes"),
        ));
    }
    let (pieces, fixed, default) = field_attr(attr)?;
    let spec_name = if is_spec_ident(&name) { name.clone() } else { format!("__field{index}") };
    Ok(FieldSpec { ident, name, spec_name, ty, attr: attr.to_token_stream(), pieces, fixed, default })
}

/// `#[bits(63:60)]`, `#[bits(5)]`, `#[bits(32 +: 8)]`, `#[bits(45:44, 14:10)]` (a concatenation,
/// most significant piece first), then optionally `is = V` and `default = V`.
fn field_attr(attr: &Attribute) -> syn::Result<(Vec<Piece>, Option<Value>, Option<Value>)> {
    let parser = |input: ParseStream| {
        let mut pieces = Vec::new();
        let mut fixed = None;
        let mut default = None;
        while !input.is_empty() {
            if input.peek(syn::Ident::peek_any) && input.peek2(Token![=]) {
                let key: Ident = input.call(Ident::parse_any)?;
                let _: Token![=] = input.parse()?;
                let value = value(input)?;
                match key.to_string().as_str() {
                    "is" if fixed.is_none() => fixed = Some(value),
                    "default" if default.is_none() => default = Some(value),
                    "is" | "default" => {
                        return Err(syn::Error::new_spanned(&key, format!("`{key}` is given twice")))
                    }
                    _ => {
                        return Err(syn::Error::new_spanned(
                            &key,
                            format!("unknown setting `{key}`: a field takes `is = V` and `default = V`"),
                        ))
                    }
                }
            } else if fixed.is_some() || default.is_some() {
                return Err(input.error("bit ranges come before `is` and `default`"));
            } else {
                pieces.push(piece(input)?);
            }
            if input.is_empty() {
                break;
            }
            let _: Token![,] = input.parse()?;
        }
        if pieces.is_empty() {
            return Err(syn::Error::new(
                input.span(),
                "say where the field's bits are: `#[bits(7:0)]`, `#[bits(5)]` or `#[bits(8 +: 4)]`",
            ));
        }
        Ok((pieces, fixed, default))
    };
    match &attr.meta {
        syn::Meta::List(list) => parser.parse2(list.tokens.clone()).map_err(|e| {
            if list.tokens.is_empty() {
                syn::Error::new_spanned(attr, e.to_string())
            } else {
                e
            }
        }),
        _ => Err(syn::Error::new_spanned(attr, "say where the field's bits are: `#[bits(7:0)]`")),
    }
}

fn piece(input: ParseStream) -> syn::Result<Piece> {
    let first: LitInt = input.parse()?;
    let a: u64 = first.base10_parse()?;
    if input.peek(Token![:]) {
        let colon: Token![:] = input.parse()?;
        let second: LitInt = input.parse()?;
        let b: u64 = second.base10_parse()?;
        let tokens = quote::quote!(#first #colon #second);
        // A range written low to high is the checker's to report; its width is still known.
        let width = a.abs_diff(b).saturating_add(1);
        Ok(Piece { text: format!("{a}:{b}"), tokens, width })
    } else if input.peek(Token![+]) && input.peek2(Token![:]) {
        let plus: Token![+] = input.parse()?;
        let colon: Token![:] = input.parse()?;
        let second: LitInt = input.parse()?;
        let b: u64 = second.base10_parse()?;
        let tokens = quote::quote!(#first #plus #colon #second);
        Ok(Piece { text: format!("{a} +: {b}"), tokens, width: b })
    } else {
        Ok(Piece { text: a.to_string(), tokens: first.to_token_stream(), width: 1 })
    }
}

fn value(input: ParseStream) -> syn::Result<Value> {
    if input.peek(LitBool) {
        let b: LitBool = input.parse()?;
        return Ok(Value { text: b.value.to_string(), tokens: b.to_token_stream() });
    }
    let minus: Option<Token![-]> = input.parse()?;
    let lit: LitInt =
        input.parse().map_err(|e| syn::Error::new(e.span(), "expected a number, `true` or `false`"))?;
    let v: u64 = lit.base10_parse()?;
    Ok(match minus {
        Some(m) => Value { text: format!("-{v}"), tokens: quote::quote!(#m #lit) },
        None => Value { text: v.to_string(), tokens: lit.to_token_stream() },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_of(input: DeriveInput) -> String {
        let Data::Struct(data) = &input.data else { panic!("a struct") };
        let (width, attr) = struct_width(&input).unwrap();
        let fields: Vec<FieldSpec> = data
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| field_spec(i, f.ident.clone().unwrap(), f).unwrap())
            .collect();
        write_spec(&input.ident, width, &attr, &fields).text
    }

    #[test]
    fn writes_the_equivalent_spec() {
        let text = spec_of(syn::parse_quote! {
            #[bits(width = 12)]
            struct Insn {
                #[bits(11:9, is = 0x5)]
                opcode: u8,
                #[bits(8 +: 1, default = true)]
                flag: bool,
                #[bits(7:6, 1:0)]
                split: u32,
                #[bits(5:2, default = -1)]
                default: i8,
            }
        });
        assert_eq!(
            text,
            "target Insn {\n    word 16\n    dialect rust { comment \"//\" }\n}\n\n\
             format Insn : 12 {\n\
             \x20   opcode: u3 @ 11:9 is 5,\n\
             \x20   flag: bool @ 8 +: 1 default true,\n\
             \x20   split: u4 @ [7:6, 1:0],\n\
             \x20   __field3: s4 @ 5:2 default -1,\n\
             \n    syntax rust { \"Insn\" }\n}\n"
        );
        assert!(isa_compiler::check_source(&text).is_ok());
    }

    #[test]
    fn expands_to_an_impl() {
        let out = expand(syn::parse_quote! {
            #[bits(width = 16)]
            struct Insn {
                #[bits(15:12, is = 3)]
                opcode: u8,
                #[bits(11:0)]
                imm: i16,
            }
        })
        .to_string();
        assert!(out.starts_with("impl Insn"), "{out}");
        assert!(out.contains("pub const FIXED_BITS : u16 = 0x3000"), "{out}");
        assert!(out.contains("pub fn from_word"), "{out}");
        assert!(out.contains("pub fn to_word"), "{out}");
    }

    #[test]
    fn errors_point_at_the_attribute() {
        let out = expand(syn::parse_quote! {
            #[bits(width = 8)]
            struct Insn {
                #[bits(7:4)]
                a: u8,
                #[bits(4:0)]
                b: u8,
            }
        })
        .to_string();
        assert!(out.contains("compile_error"), "{out}");
        assert!(out.contains("fields `a` and `b` overlap at bit 4"), "{out}");
    }
}
