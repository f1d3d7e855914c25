//! Rust-side names and types of everything in a target, computed once for every generator.

use super::names::{camel, ident, ident_text, snake};
use crate::ir::{self, Type};
use crate::placement::{self, Run};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::HashSet;

/// A switch-typed field's generated enum.
pub struct SwitchEnum {
    pub name: Ident,
    /// (tag value, variant ident, payload type tokens)
    pub arms: Vec<(u64, Ident, TokenStream)>,
    pub arm_types: Vec<Type>,
}

pub struct Model<'a> {
    pub t: &'a ir::Target,
    pub word_ty: TokenStream,
    /// The word type's name (`word_ty` as text).
    pub word: &'static str,
    pub switches: Vec<SwitchEnum>,
    /// The names generated types take (see [`Self::names_a_type`]), gathered once: asked for
    /// every field of every encoding, a walk over the formats made generation quadratic
    /// (10,000 encodings: 20 s, most of it CamelCasing format names).
    type_names: HashSet<String>,
    /// The CamelCase names of the layouts.
    layout_names: HashSet<String>,
    /// Per enum, once asked for (see `formats::total_enum_read`): its name and the value
    /// standing for the case the compiler cannot rule out, when every value of its bits has a
    /// variant. Asked for every enum field of every encoding, twice: each time it tried every
    /// value of the bits and spelt the names again.
    pub total_enums: Vec<std::cell::OnceCell<Option<(String, String)>>>,
}

/// Smallest unsigned Rust integer holding `bits` bits.
pub fn uint(bits: u32) -> TokenStream {
    format_ident!("{}", uint_name(bits)).into_token_stream_()
}

/// The name of the smallest unsigned Rust integer holding `bits` bits.
pub fn uint_name(bits: u32) -> &'static str {
    match bits {
        0..=8 => "u8",
        9..=16 => "u16",
        17..=32 => "u32",
        33..=64 => "u64",
        _ => "u128",
    }
}

/// Smallest signed Rust integer holding `bits` bits.
pub fn sint(bits: u32) -> TokenStream {
    format_ident!("{}", sint_name(bits)).into_token_stream_()
}

/// The name of the smallest signed Rust integer holding `bits` bits.
pub fn sint_name(bits: u32) -> &'static str {
    match bits {
        0..=8 => "i8",
        9..=16 => "i16",
        17..=32 => "i32",
        _ => "i64",
    }
}

/// Rust source text as tokens, for the parts of the backend that build token streams around
/// items written as text. The text is the backend's own; should it not lex, the tokens are a
/// `compile_error!` saying so, which the formatted module shows.
pub fn tokens(text: &str) -> TokenStream {
    text.parse().unwrap_or_else(|e: proc_macro2::LexError| {
        let message = format!("isa: generated text does not lex: {e}");
        quote!(compile_error!(#message);)
    })
}

/// Appends `s` as a string literal, escaped as `proc_macro2::Literal::string` escapes it.
pub fn str_lit(s: &str, out: &mut String) {
    out.push('"');
    // Printable ASCII other than the quote and the backslash stands for itself: copied a run at
    // a time (char by char, this was about a quarter of writing the encoding structs).
    let plain = |b: &u8| (b' '..=b'~').contains(b) && *b != b'"' && *b != b'\\';
    let mut rest = s;
    loop {
        let run = rest.bytes().position(|b| !plain(&b)).unwrap_or(rest.len());
        out.push_str(&rest[..run]);
        rest = &rest[run..];
        let mut chars = rest.chars();
        let Some(c) = chars.next() else { break };
        match c {
            '\0' if chars.as_str().starts_with(|n: char| ('0'..='7').contains(&n)) => out.push_str(r"\x00"),
            '\0' => out.push_str(r"\0"),
            '\'' => out.push(c),
            _ => out.extend(c.escape_debug()),
        }
        rest = chars.as_str();
    }
    out.push('"');
}

impl<'a> Model<'a> {
    pub fn new(t: &'a ir::Target) -> Self {
        let mut m = Model {
            t,
            word_ty: uint(t.word_bits),
            word: uint_name(t.word_bits),
            switches: Vec::new(),
            type_names: HashSet::new(),
            layout_names: t.layouts.iter().map(|l| camel(&l.name)).collect(),
            total_enums: t.enums.iter().map(|_| std::cell::OnceCell::new()).collect(),
        };
        // Switch names first: a layout's type name depends on them (see `type_ident`), and
        // the arms' payload types name layouts.
        let mut arm_lists = Vec::new();
        for f in &t.formats {
            for field in &f.fields {
                if let Type::Switch { arms, .. } = &field.ty {
                    let types: Vec<Type> = arms.iter().map(|a| a.1.clone()).collect();
                    if m.switches.iter().any(|s| s.arm_types == types) {
                        continue;
                    }
                    let mut name = format_ident!("{}", camel(&field.name));
                    if m.switches.iter().any(|s| s.name == name)
                        || t.enums.iter().any(|e| name == camel(&e.name))
                    {
                        name = format_ident!("{}{}", camel(&f.name), camel(&field.name));
                    }
                    m.switches.push(SwitchEnum { name, arms: Vec::new(), arm_types: types });
                    arm_lists.push(arms);
                }
            }
        }
        m.type_names = super::target_type_name(t)
            .into_iter()
            .chain(["Instruction".to_string()])
            .chain(t.enums.iter().map(|e| camel(&e.name)))
            .chain(t.formats.iter().map(|f| camel(&f.name)))
            .chain(m.switches.iter().map(|s| s.name.to_string()))
            .collect();
        let filled: Vec<_> = arm_lists
            .iter()
            .map(|arms| {
                arms.iter()
                    .map(|(v, ty)| (*v, format_ident!("{}", m.type_label(ty)), m.rust_type(ty)))
                    .collect::<Vec<_>>()
            })
            .collect();
        for (s, arms) in m.switches.iter_mut().zip(filled) {
            s.arms = arms;
        }
        m
    }

    /// Whether `name` is the name of the target's unit struct, an enum, an instruction format,
    /// a switch or `Instruction`.
    fn names_a_type(&self, name: &str) -> bool {
        self.type_names.contains(name)
    }

    /// `name` as a type name, with `Layout` appended if it would clash with the target's unit
    /// struct, an enum, an instruction format, a switch or `Instruction`.
    pub fn type_ident(&self, name: &str) -> Ident {
        if self.names_a_type(name) {
            format_ident!("{name}Layout")
        } else {
            format_ident!("{name}")
        }
    }

    /// The view type of layout `id`: its CamelCase name, with `Layout` appended when another
    /// generated type already has that name (the target's unit struct `Sph` for layout `Sph`).
    /// Every mention of the type goes through here, so declaration and uses agree.
    pub fn layout_ident(&self, id: ir::LayoutId) -> Ident {
        self.type_ident(&camel(&self.t.layouts[id.0].name))
    }

    fn type_label(&self, ty: &Type) -> String {
        match ty {
            Type::Enum(e) => camel(&self.t.enums[e.0].name),
            Type::Layout(l) => camel(&self.t.layouts[l.0].name),
            Type::Bool => "Bool".into(),
            Type::UInt(w) => format!("U{w}"),
            Type::SInt(w) => format!("S{w}"),
            Type::Number(n) => camel(&self.t.numbers[n.0].name),
            Type::Switch { .. } => "Switch".into(),
        }
    }

    /// The Rust type of a field of type `ty` (one element).
    pub fn rust_type(&self, ty: &Type) -> TokenStream {
        format_ident!("{}", self.rust_type_name(ty)).into_token_stream_()
    }

    /// The name of the Rust type of a field of type `ty` (one element): always one identifier.
    pub fn rust_type_name(&self, ty: &Type) -> String {
        match ty {
            Type::Bool => "bool".into(),
            Type::UInt(w) => uint_name(*w).into(),
            Type::SInt(w) => sint_name(*w).into(),
            Type::Enum(e) => camel(&self.t.enums[e.0].name),
            Type::Number(n) => uint_name(self.t.numbers[n.0].kind.width()).into(),
            Type::Layout(l) => self.layout_ident(*l).to_string(),
            Type::Switch { arms, .. } => {
                let types: Vec<Type> = arms.iter().map(|a| a.1.clone()).collect();
                match self.switches.iter().find(|s| s.arm_types == types) {
                    Some(s) => s.name.to_string(),
                    None => "u64".into(),
                }
            }
        }
    }

    pub fn enum_ident(&self, e: ir::EnumId) -> Ident {
        format_ident!("{}", camel(&self.t.enums[e.0].name))
    }

    pub fn variant_ident(&self, e: ir::EnumId, v: usize) -> Ident {
        format_ident!("{}", camel(&self.t.enums[e.0].variants[v].name))
    }

    pub fn format_ident(&self, f: usize) -> Ident {
        format_ident!("{}", camel(&self.t.formats[f].name))
    }

    /// The variant of the generated `Dialect` enum for dialect number `d`.
    pub fn dialect_ident(&self, d: usize) -> Ident {
        format_ident!("{}", camel(&self.t.dialects[d].name))
    }

    pub fn field_ident(&self, name: &str) -> Ident {
        ident(&snake(name))
    }

    /// [`Self::field_ident`] as text (`r#type` for a keyword).
    pub fn field_name(&self, name: &str) -> String {
        ident_text(&snake(name))
    }

    /// The integer type of an enum's range and catch-all values (what [`Self::payload_ident`]'s
    /// `new` takes and `get` gives).
    pub fn payload_ty(&self, e: ir::EnumId) -> TokenStream {
        uint(self.t.enums[e.0].width)
    }

    /// The checked value type of variant `v` of enum `e` (a range or the catch-all): the
    /// enum's and the variant's CamelCase names (`Reg` + `R` = `RegR`), with `Value` appended
    /// when another generated type already has that name.
    pub fn payload_ident(&self, e: ir::EnumId, v: usize) -> Ident {
        let name =
            format!("{}{}", camel(&self.t.enums[e.0].name), camel(&self.t.enums[e.0].variants[v].name));
        let taken = self.names_a_type(&name) || name == "Dialect" || self.layout_names.contains(&name);
        if taken {
            format_ident!("{name}Value")
        } else {
            format_ident!("{name}")
        }
    }
}

/// `Ident` → tokens without importing `ToTokens` everywhere.
pub trait IntoTokens {
    fn into_token_stream_(self) -> TokenStream;
}

impl IntoTokens for Ident {
    fn into_token_stream_(self) -> TokenStream {
        quote!(#self)
    }
}

/// Inclusive ranges `(lo, hi)` sorted, those that overlap or touch (`next(hi)` is the value
/// after `hi`) joined into one: adjacent values become one pattern (clippy's
/// `manual_range_patterns`).
pub fn join_ranges<T: Ord + Copy>(mut ranges: Vec<(T, T)>, next: impl Fn(T) -> T) -> Vec<(T, T)> {
    ranges.sort_unstable();
    let mut joined: Vec<(T, T)> = Vec::new();
    for (lo, hi) in ranges {
        match joined.last_mut() {
            Some(last) if lo <= next(last.1) => last.1 = last.1.max(hi),
            _ => joined.push((lo, hi)),
        }
    }
    joined
}

/// An unsuffixed integer literal.
pub fn lit(v: u128) -> proc_macro2::Literal {
    proc_macro2::Literal::u128_unsuffixed(v)
}

/// A hex literal, readable in masks.
pub fn hex(v: u128) -> proc_macro2::Literal {
    if v < 10 {
        return lit(v);
    }
    hex_text(v).parse().unwrap_or_else(|_| lit(v))
}

/// [`hex`] as text.
pub fn hex_text(v: u128) -> String {
    if v < 10 {
        v.to_string()
    } else {
        format!("0x{v:x}")
    }
}

/// The field `word` of a runtime error, from `word` of type `word_ty`: without a cast where it
/// already is the runtime's `u128`.
pub fn word_field(word_ty: &TokenStream) -> TokenStream {
    if word_ty.to_string() == "u128" {
        quote!(word)
    } else {
        quote!(word: word as u128)
    }
}

/// `word` as a `u64` (no cast when the word already is one).
pub fn word_u64(word_ty: &TokenStream, shifted: TokenStream) -> TokenStream {
    if word_ty.to_string() == "u64" {
        shifted
    } else {
        quote!((#shifted as u64))
    }
}

/// A bit position as an expression of the element index `i` (a variable of the generated
/// code): `12`, `i`, `4 * i`, `12 + 4 * i`, `7 - 2 * i`.
pub fn position(lo: u32, stride: i64) -> TokenStream {
    tokens(&position_text(lo, stride))
}

/// [`position`] as text.
pub fn position_text(lo: u32, stride: i64) -> String {
    let step = match stride.unsigned_abs() {
        1 => "i".to_string(),
        s => format!("{s} * i"),
    };
    match (lo, stride) {
        (_, 0) => lo.to_string(),
        (0, s) if s > 0 => step,
        (_, s) if s > 0 => format!("{lo} + {step}"),
        _ => format!("{lo} - {step}"),
    }
}

/// Expression extracting the pieces of a field from `word` (most significant piece first),
/// as `u64`.
pub fn extract(word_ty: &TokenStream, pieces: &[ir::Piece]) -> TokenStream {
    let word = if word_ty.to_string() == "u64" { "u64" } else { "" };
    tokens(&extract_text(word, &placement::piece_runs(pieces)))
}

/// Expression extracting a field from `word` as `u64`, from its runs (element `i` when they
/// move with the index), as text, for a word of type `word` (a cast to `u64` unless it is one).
pub fn extract_text(word: &str, runs: &[Run]) -> String {
    let mut acc: Option<String> = None;
    for r in runs {
        let mask = hex_text(((1u128 << r.width) - 1).min(u128::from(u64::MAX)));
        let shifted = match (r.lo, r.stride) {
            (0, 0) => "word".to_string(),
            (lo, 0) => format!("(word >> {lo})"),
            (lo, stride) => format!("(word >> ({}))", position_text(lo, stride)),
        };
        let part = if word == "u64" {
            format!("({shifted} & {mask})")
        } else {
            format!("(({shifted} as u64) & {mask})")
        };
        acc = Some(match acc {
            None => part,
            Some(prev) => format!("(({prev} << {}) | {part})", r.width),
        });
    }
    acc.unwrap_or_else(|| "0u64".to_string())
}

/// Rustdoc attributes for spec prose: one per line, nothing for no text. Brackets outside code
/// spans are escaped: the spec's `a[0x70]` is text, not an intra-doc link.
pub fn doc(text: &str) -> TokenStream {
    let mut out = String::new();
    doc_text(text, &mut out);
    tokens(&out)
}

/// [`doc`] as text: a `#[doc = "..."]` line for each line of `text`.
pub fn doc_text(text: &str, out: &mut String) {
    let mut escaped = String::new();
    for line in text.lines() {
        escaped.clear();
        escaped.push(' ');
        // Only brackets outside code spans are escaped: a line without any is copied whole.
        if !line.contains(['[', ']']) {
            escaped.push_str(line);
            out.push_str("#[doc = ");
            str_lit(&escaped, out);
            out.push_str("]\n");
            continue;
        }
        // A code span opens and closes with a run of backticks (`` ` `` and ``` `` ```).
        let mut in_code = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '`' => {
                    escaped.push(c);
                    while chars.next_if_eq(&'`').is_some() {
                        escaped.push('`');
                    }
                    in_code = !in_code;
                    continue;
                }
                '[' | ']' if !in_code => escaped.push('\\'),
                _ => {}
            }
            escaped.push(c);
        }
        out.push_str("#[doc = ");
        str_lit(&escaped, out);
        out.push_str("]\n");
    }
}
