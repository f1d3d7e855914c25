//! Rust-side names and types of everything in a target, computed once for every generator.

use super::names::{camel, ident, snake};
use crate::ir::{self, Type};
use crate::placement::{self, Run};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

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
    pub switches: Vec<SwitchEnum>,
    /// The CamelCase names of the target's enums and formats, for [`Model::names_a_type`]:
    /// asked once per enum payload a decoder reads, a walk over every format was quadratic
    /// (the 10,000-encoding synthetic spec's generation spent minutes there in a build
    /// script's unoptimised compiler).
    type_names: std::collections::HashSet<String>,
}

/// Smallest unsigned Rust integer holding `bits` bits.
pub fn uint(bits: u32) -> TokenStream {
    match bits {
        0..=8 => quote!(u8),
        9..=16 => quote!(u16),
        17..=32 => quote!(u32),
        33..=64 => quote!(u64),
        _ => quote!(u128),
    }
}

/// Smallest signed Rust integer holding `bits` bits.
pub fn sint(bits: u32) -> TokenStream {
    match bits {
        0..=8 => quote!(i8),
        9..=16 => quote!(i16),
        17..=32 => quote!(i32),
        _ => quote!(i64),
    }
}

impl<'a> Model<'a> {
    pub fn new(t: &'a ir::Target) -> Self {
        let type_names =
            t.enums.iter().map(|e| camel(&e.name)).chain(t.formats.iter().map(|f| camel(&f.name))).collect();
        let mut m = Model { t, word_ty: uint(t.word_bits), switches: Vec::new(), type_names };
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
        super::target_type_name(self.t).as_deref() == Some(name)
            || name == "Instruction"
            || self.type_names.contains(name)
            || self.switches.iter().any(|s| s.name == name)
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
        match ty {
            Type::Bool => quote!(bool),
            Type::UInt(w) => uint(*w),
            Type::SInt(w) => sint(*w),
            Type::Enum(e) => self.enum_ident(*e).into_token_stream_(),
            Type::Number(n) => uint(self.t.numbers[n.0].kind.width()),
            Type::Layout(l) => self.layout_ident(*l).into_token_stream_(),
            Type::Switch { arms, .. } => {
                let types: Vec<Type> = arms.iter().map(|a| a.1.clone()).collect();
                match self.switches.iter().find(|s| s.arm_types == types) {
                    Some(s) => s.name.clone().into_token_stream_(),
                    None => quote!(u64),
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
        let taken = self.names_a_type(&name)
            || name == "Dialect"
            || self.t.layouts.iter().any(|l| camel(&l.name) == name);
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
    format!("0x{v:x}").parse().unwrap_or_else(|_| lit(v))
}

/// `word` as a `u64` (no cast when the word already is one).
/// The field `word` of a runtime error, from `word` of type `word_ty`: without a cast where it
/// already is the runtime's `u128`.
pub fn word_field(word_ty: &TokenStream) -> TokenStream {
    if word_ty.to_string() == "u128" {
        quote!(word)
    } else {
        quote!(word: word as u128)
    }
}

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
    let lo_lit = lit(u128::from(lo));
    let step = match stride.unsigned_abs() {
        1 => quote!(i),
        s => {
            let s = lit(u128::from(s));
            quote!(#s * i)
        }
    };
    match (lo, stride) {
        (_, 0) => quote!(#lo_lit),
        (0, s) if s > 0 => step,
        (_, s) if s > 0 => quote!(#lo_lit + #step),
        _ => quote!(#lo_lit - #step),
    }
}

/// Expression extracting the pieces of a field from `word` (most significant piece first),
/// as `u64`.
pub fn extract(word_ty: &TokenStream, pieces: &[ir::Piece]) -> TokenStream {
    extract_runs(word_ty, &placement::piece_runs(pieces))
}

/// Expression extracting a field from `word` as `u64`: element `i` when its runs move with
/// the index.
pub fn extract_runs(word_ty: &TokenStream, runs: &[Run]) -> TokenStream {
    let mut acc: Option<TokenStream> = None;
    for r in runs {
        let mask = hex(((1u128 << r.width) - 1).min(u128::from(u64::MAX)));
        let shifted = match (r.lo, r.stride) {
            (0, 0) => quote!(word),
            (lo, 0) => {
                let lo = lit(u128::from(lo));
                quote!((word >> #lo))
            }
            (lo, stride) => {
                let at = position(lo, stride);
                quote!((word >> (#at)))
            }
        };
        let w = word_u64(word_ty, shifted);
        let part = quote!((#w & #mask));
        acc = Some(match acc {
            None => part,
            Some(prev) => {
                let w = lit(u128::from(r.width));
                quote!(((#prev << #w) | #part))
            }
        });
    }
    acc.unwrap_or_else(|| quote!(0u64))
}

/// Rustdoc attributes for spec prose: one per line, nothing for no text. Brackets outside code
/// spans are escaped: the spec's `a[0x70]` is text, not an intra-doc link.
pub fn doc(text: &str) -> TokenStream {
    let lines = text.lines().map(|line| {
        let mut out = String::from(" ");
        // A code span opens and closes with a run of backticks (`` ` `` and ``` `` ```).
        let mut in_code = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '`' => {
                    out.push(c);
                    while chars.next_if_eq(&'`').is_some() {
                        out.push('`');
                    }
                    in_code = !in_code;
                    continue;
                }
                '[' | ']' if !in_code => out.push('\\'),
                _ => {}
            }
            out.push(c);
        }
        out
    });
    quote!(#(#[doc = #lines])*)
}
