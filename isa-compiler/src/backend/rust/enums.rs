//! Rust enums for the spec's enums and for switch-typed fields.

use super::model::{doc, join_ranges, lit, Model};
use super::names::camel;
use crate::ir::{self, Values};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub fn generate(m: &Model) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, e) in m.t.enums.iter().enumerate() {
        out.extend(enum_def(m, ir::EnumId(i), e));
    }
    for s in &m.switches {
        out.extend(switch_def(m, s));
    }
    out
}

fn enum_def(m: &Model, id: ir::EnumId, e: &ir::Enum) -> TokenStream {
    let name = m.enum_ident(id);
    let payload = m.payload_ty(id);
    let docs = doc(&e.doc);
    let width = lit(e.width as u128);
    let mut variants = Vec::new();
    let mut to_bits = Vec::new();
    let mut from_bits_one = Vec::new();
    let mut from_bits_range = Vec::new();
    let mut names = Vec::new();
    let mut values = Vec::new();
    let mut named = Vec::new();
    let mut rest = None;
    let mut payload_types = TokenStream::new();
    // A fieldless enum whose distinct values fit a byte keeps one byte with its raw values as
    // discriminants.
    let raw_values: std::collections::BTreeSet<u64> = e
        .variants
        .iter()
        .filter_map(|v| match v.values {
            Values::One(x) => Some(x),
            Values::Range(..) | Values::Rest => None,
        })
        .collect();
    let discriminants = !e.has_payload()
        && raw_values.len() == e.variants.len()
        && raw_values.last().is_none_or(|&max| max <= 0xff);
    // A range and one other value (`Reg`: `r(0..=254)`, `rz = 255`): the range's value type
    // stores `n ^ rz` (see `payload_def`), so `rz` is the zero left over, and `from_bits` reads
    // both in one arm that LLVM compiles to that xor (two arms left a compare and a select in
    // every register field the decoder reads: Maxwell 5.9 against 5.0 ns a word).
    let paired = match e.variants.as_slice() {
        [a, b] => match (&a.values, &b.values) {
            (Values::Range(lo, hi), Values::One(k)) if !(lo..=hi).contains(&k) => Some((0, 1, *k)),
            (Values::One(k), Values::Range(lo, hi)) if !(lo..=hi).contains(&k) => Some((1, 0, *k)),
            _ => None,
        },
        _ => None,
    };
    for (vi, v) in e.variants.iter().enumerate() {
        let vid = m.variant_ident(id, vi);
        let vdoc = doc(&v.doc);
        let spec_name = &v.name;
        match &v.values {
            Values::One(x) => {
                let raw = *x;
                let x = lit(*x as u128);
                // The raw value as the discriminant: `bits` is a cast and `from_bits` a range
                // check, not two lookup tables, in the decoder's and printer's hot paths.
                if discriminants {
                    let d = lit(raw as u128);
                    variants.push(quote!(#vdoc #vid = #d));
                } else {
                    variants.push(quote!(#vdoc #vid));
                }
                to_bits.push(quote!(#name::#vid => #x));
                if paired.is_none() {
                    from_bits_one.push(quote!(#x => Some(#name::#vid)));
                }
                names.push(quote!(#name::#vid => #spec_name));
                values.push(quote!(#name::#vid => isa_runtime::value::Value::Enum(#spec_name)));
                named.push(quote!((#spec_name, None) => Some(#name::#vid)));
            }
            Values::Range(lo, hi) => {
                let pt = m.payload_ident(id, vi);
                payload_types.extend(payload_def(m, id, vi));
                let (lo, hi) = (lit(*lo as u128), lit(*hi as u128));
                variants.push(quote!(#vdoc #vid(#pt)));
                to_bits.push(quote!(#name::#vid(v) => v.get() as u64));
                from_bits_range.push(match paired {
                    Some((_, other, k)) => {
                        let nonzero = format_ident!("NonZero{}", payload.to_string().to_uppercase());
                        let one = m.variant_ident(id, other);
                        let raw = if k == 0 {
                            quote!(bits as #payload)
                        } else {
                            let k = lit(k as u128);
                            quote!((bits as #payload) ^ #k)
                        };
                        // One range where the other value is next to it (`0..=255`).
                        let pat = match v.values {
                            Values::Range(a, b) if k == b + 1 => {
                                let (a, k) = (lit(a as u128), lit(k as u128));
                                quote!(#a..=#k)
                            }
                            Values::Range(a, b) if k + 1 == a => {
                                let (k, b) = (lit(k as u128), lit(b as u128));
                                quote!(#k..=#b)
                            }
                            _ => {
                                let k = lit(k as u128);
                                quote!(#lo..=#hi | #k)
                            }
                        };
                        quote!(#pat => match core::num::#nonzero::new(#raw) {
                            Some(x) => Some(#name::#vid(#pt(x))),
                            None => Some(#name::#one),
                        })
                    }
                    None => quote!(#lo..=#hi => match #pt::new(bits as #payload) {
                        Some(v) => Some(#name::#vid(v)),
                        None => None,
                    }),
                });
                named.push(quote!((#spec_name, Some(v)) if (#lo..=#hi).contains(&v) => #pt::new(v as #payload).map(#name::#vid)));
                names.push(quote!(#name::#vid(_) => #spec_name));
                values.push(
                    quote!(#name::#vid(v) => isa_runtime::value::Value::Variant(#spec_name, v.get() as u64)),
                );
            }
            Values::Rest => {
                let pt = m.payload_ident(id, vi);
                payload_types.extend(payload_def(m, id, vi));
                variants.push(quote!(#vdoc #vid(#pt)));
                to_bits.push(quote!(#name::#vid(v) => v.get() as u64));
                // The payload's Rust type is wider than the field: a value that does not fit
                // the field is no value of the enum (never cut to the field's bits).
                let checked = quote!(match #pt::new(bits as #payload) {
                    Some(v) => Some(#name::#vid(v)),
                    None => None,
                });
                rest = Some(if e.width < 64 {
                    quote!(_ if bits >> #width != 0 => None, _ => #checked)
                } else {
                    quote!(_ => #checked)
                });
                named.push(quote!((#spec_name, Some(v)) => Self::from_bits(v).filter(|x| matches!(x, #name::#vid(_)))));
                names.push(quote!(#name::#vid(_) => #spec_name));
                values.push(
                    quote!(#name::#vid(v) => isa_runtime::value::Value::Variant(#spec_name, v.get() as u64)),
                );
            }
        }
    }
    let fallback = rest.unwrap_or_else(|| quote!(_ => None));
    // A payload of a 64-bit field is a `u64` already.
    let wide =
        if e.has_payload() && e.width > 32 { quote!(#[allow(clippy::unnecessary_cast)]) } else { quote!() };
    quote! {
        #payload_types

        #docs
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum #name {
            #(#variants,)*
        }

        impl #name {
            /// Width of the field in bits.
            pub const WIDTH: u32 = #width;

            /// The raw field value.
            #wide
            pub const fn bits(self) -> u64 {
                match self {
                    #(#to_bits,)*
                }
            }

            /// The value a raw field holds, if the spec defines it.
            pub const fn from_bits(bits: u64) -> Option<Self> {
                #[allow(clippy::match_overlapping_arm)]
                match bits {
                    #(#from_bits_one,)*
                    #(#from_bits_range,)*
                    #fallback
                }
            }

            /// The value's name in the spec.
            pub const fn name(self) -> &'static str {
                match self {
                    #(#names,)*
                }
            }

            /// The value for generic tools (JSON).
            #wide
            pub fn value(self) -> isa_runtime::value::Value {
                match self {
                    #(#values,)*
                }
            }

            /// The value [`Self::value`] gives (or its name as text, or its raw number), if the
            /// spec defines it.
            pub fn from_value(value: &isa_runtime::value::Value) -> Option<Self> {
                let (name, v) = match value {
                    isa_runtime::value::Value::Variant(name, v) => (*name, Some(*v)),
                    _ => match value.as_name() {
                        Some(text) => isa_runtime::value::split_variant(text),
                        None => return Self::from_bits(value.as_u64()?),
                    },
                };
                #[allow(clippy::match_overlapping_arm, unreachable_patterns)]
                match (name, v) {
                    #(#named,)*
                    _ => None,
                }
            }
        }
    }
}

/// The value type of variant `vi` of enum `id` (a range or the catch-all): a private field
/// that only `new` fills, so an enum value always holds a value the spec defines and encoders
/// need no check (`Reg::R(255)` does not compile; `RegR::new(255)` is `None` where 255 is RZ).
///
/// The field stores `n ^ K` in a `NonZero` integer, `K` a value the variant does not hold (the
/// enum's first single value where there is one): the zero left over is a niche, so `Reg`
/// (`R(RegR)` or `Rz`) is one byte, the raw field's bits xor `K`, as cheap to decode as a `u8`.
fn payload_def(m: &Model, id: ir::EnumId, vi: usize) -> TokenStream {
    let e = &m.t.enums[id.0];
    let v = &e.variants[vi];
    let pt = m.payload_ident(id, vi);
    let payload = m.payload_ty(id);
    let type_bits: u32 = match e.width {
        0..=8 => 8,
        9..=16 => 16,
        17..=32 => 32,
        33..=64 => 64,
        _ => 128,
    };
    let type_max: u128 = if type_bits == 128 { u128::MAX } else { (1u128 << type_bits) - 1 };
    let field_max: u128 = if e.width >= 128 { u128::MAX } else { (1u128 << e.width) - 1 };
    let ones: Vec<u128> = e
        .variants
        .iter()
        .filter_map(|x| match x.values {
            Values::One(n) => Some(n as u128),
            Values::Range(..) | Values::Rest => None,
        })
        .collect();
    let ranges: Vec<(u128, u128)> = e
        .variants
        .iter()
        .filter_map(|x| match x.values {
            Values::Range(lo, hi) => Some((lo as u128, hi as u128)),
            Values::One(_) | Values::Rest => None,
        })
        .collect();
    // The values the variant holds: its range (or the field) less what other variants hold
    // (single values come first in `from_bits`; the catch-all is what no other variant holds).
    let (lo, hi, rest) = match v.values {
        Values::Range(lo, hi) => (lo as u128, hi as u128, false),
        Values::One(_) | Values::Rest => (0, field_max, true),
    };
    let taken_by = |n: u128| -> Option<u128> {
        if ones.contains(&n) {
            return Some(n);
        }
        if rest {
            return ranges.iter().find(|(a, b)| (*a..=*b).contains(&n)).map(|r| r.1);
        }
        None
    };
    let valid = |n: u128| (lo..=hi).contains(&n) && taken_by(n).is_none();
    let min = {
        let mut n = Some(lo);
        while let Some(x) = n.filter(|&x| x <= hi) {
            match taken_by(x) {
                Some(end) => n = end.checked_add(1),
                None => break,
            }
        }
        n.filter(|&x| x <= hi)
    };
    let max = {
        let mut n = Some(hi);
        while let Some(x) = n.filter(|&x| x >= lo) {
            match taken_by(x) {
                Some(_) if rest => {
                    let start = ranges.iter().find(|(a, b)| (*a..=*b).contains(&x)).map_or(x, |r| r.0);
                    n = start.checked_sub(1);
                }
                Some(_) => n = x.checked_sub(1),
                None => break,
            }
        }
        n.filter(|&x| x >= lo)
    };
    let key = ones
        .iter()
        .copied()
        .chain([0, field_max.saturating_add(1), hi.saturating_add(1), lo.saturating_sub(1)])
        .find(|&k| k <= type_max && !valid(k));
    // The check `new` makes, as a `const` expression over `n`.
    let mut conds = Vec::new();
    if lo > 0 {
        let lo = lit(lo);
        conds.push(quote!(n >= #lo));
    }
    if hi < type_max {
        let hi = lit(hi);
        conds.push(quote!(n <= #hi));
    }
    // Other variants' values, adjacent ones as one range (clippy's manual_range_patterns).
    let mut taken: Vec<(u128, u128)> =
        ones.iter().filter(|&&n| (lo..=hi).contains(&n)).map(|&n| (n, n)).collect();
    if rest {
        taken.extend(ranges.iter().copied());
    }
    let runs = join_ranges(taken, |n| n.saturating_add(1));
    let others: Vec<TokenStream> = runs
        .iter()
        .map(|&(a, b)| {
            if a == b {
                let a = lit(a);
                quote!(#a)
            } else {
                let (a, b) = (lit(a), lit(b));
                quote!(#a..=#b)
            }
        })
        .collect();
    if !others.is_empty() {
        conds.push(quote!(!matches!(n, #(#others)|*)));
    }
    let both_ends = lo > 0 && hi < type_max;
    let cond = if conds.is_empty() { quote!(true) } else { quote!(#(#conds)&&*) };
    let nonzero = format_ident!("NonZero{}", payload.to_string().to_uppercase());
    let (field_ty, make, get, at) = match key {
        Some(k) => {
            let stored = if k == 0 {
                quote!(n)
            } else {
                let k = lit(k);
                quote!(n ^ #k)
            };
            let get = if k == 0 {
                quote!(self.0.get())
            } else {
                let k = lit(k);
                quote!(self.0.get() ^ #k)
            };
            let nz = nonzero.clone();
            let at = move |n: u128| {
                let (s, nonzero) = (lit(n ^ k), &nz);
                quote!(Self(match core::num::#nonzero::new(#s) {
                    Some(x) => x,
                    None => core::num::#nonzero::MIN,
                }))
            };
            (
                quote!(core::num::#nonzero),
                quote!(match core::num::#nonzero::new(#stored) {
                    Some(x) => Some(Self(x)),
                    None => None,
                }),
                get,
                Box::new(at) as Box<dyn Fn(u128) -> TokenStream>,
            )
        }
        None => {
            let at = move |n: u128| {
                let n = lit(n);
                quote!(Self(#n))
            };
            (
                quote!(#payload),
                quote!(Some(Self(n))),
                quote!(self.0),
                Box::new(at) as Box<dyn Fn(u128) -> TokenStream>,
            )
        }
    };
    let bounds = match (min, max) {
        (Some(a), Some(b)) => {
            let (ma, mb) = (at(a), at(b));
            quote! {
                /// The smallest value.
                pub const MIN: Self = #ma;
                /// The largest value.
                pub const MAX: Self = #mb;
            }
        }
        _ => quote!(),
    };
    // `contains` is no `const fn`.
    let range_allow = if both_ends { quote!(#[allow(clippy::manual_range_contains)]) } else { quote!() };
    let what = match v.values {
        Values::Range(a, b) => format!("`{}` {a}..={b}", v.name),
        Values::One(_) | Values::Rest => {
            format!("`{}`: a value no other variant of `{}` has", v.name, e.name)
        }
    };
    let en = m.enum_ident(id);
    let vid = m.variant_ident(id, vi);
    let doc = format!(
        " A value of [`{en}::{vid}`] ({what}): [`{pt}::new`] refuses any other, so a [`{en}`] always holds a value the spec defines."
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub struct #pt(#field_ty);

        impl #pt {
            #bounds

            /// The value `n`, if the variant holds it.
            #range_allow
            pub const fn new(n: #payload) -> Option<Self> {
                if #cond {
                    #make
                } else {
                    None
                }
            }

            /// The value.
            pub const fn get(self) -> #payload {
                #get
            }
        }

        impl core::fmt::Debug for #pt {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Debug::fmt(&self.get(), f)
            }
        }

        impl core::fmt::Display for #pt {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Display::fmt(&self.get(), f)
            }
        }

        impl From<#pt> for #payload {
            fn from(v: #pt) -> #payload {
                v.get()
            }
        }
    }
}

/// The most entries of a switch field's table of values ([`switch_table_width`]).
const SWITCH_TABLE_MAX: u128 = 256;

/// The bits a switch field's `from_bits` indexes its table with, beside the tag, when it reads
/// its value from a table: tags 0, 1, ... in order, every arm an enum (whose `from_bits` is a
/// `const fn`), and at most [`SWITCH_TABLE_MAX`] (tag, bits) pairs. The table is one load and
/// no branch, where a `match` on the tag was a branch on it: VideoCore IV's `pack` under `pm`,
/// a random bit of the `vc4/decode` words, where it made most of the decoder's mispredicted
/// branches (cachegrind's simulation: 0.72 → 0.16 a word, the hand-written decoder 0.20;
/// reading every arm and then picking one by the tag, 0.52: LLVM branched on an arm's check).
fn switch_table_width(m: &Model, s: &super::model::SwitchEnum) -> Option<u32> {
    if !s.arms.iter().enumerate().all(|(i, (tag, _, _))| *tag == i as u64) {
        return None;
    }
    let mut width = 0;
    for ty in &s.arm_types {
        match ty {
            ir::Type::Enum(e) => width = width.max(m.t.enums[e.0].width),
            ir::Type::Bool
            | ir::Type::UInt(_)
            | ir::Type::SInt(_)
            | ir::Type::Number(_)
            | ir::Type::Layout(_)
            | ir::Type::Switch { .. } => return None,
        }
    }
    (width <= 8 && (s.arms.len() as u128) << width <= SWITCH_TABLE_MAX).then_some(width)
}

fn switch_def(m: &Model, s: &super::model::SwitchEnum) -> TokenStream {
    let name = &s.name;
    let variants: Vec<_> = s.arms.iter().map(|(_, v, ty)| quote!(#v(#ty))).collect();
    let tags: Vec<_> = s
        .arms
        .iter()
        .map(|(t, v, _)| {
            let t = lit(*t as u128);
            quote!(#name::#v(_) => #t)
        })
        .collect();
    let bits = s.arms.iter().map(|(_, v, _)| quote!(#name::#v(x) => x.bits()));
    let from = s.arms.iter().map(|(t, v, ty)| {
        let t = lit(*t as u128);
        quote!(#t => #ty::from_bits(bits).map(#name::#v))
    });
    let values: Vec<_> = s.arms.iter().map(|(_, v, _)| quote!(#name::#v(x) => x.value())).collect();
    let from_bits = match switch_table_width(m, s) {
        Some(width) => {
            // One table of every (tag, bits) pair's value, filled at compile time by the arms'
            // own `from_bits`.
            let size = lit((s.arms.len() as u128) << width);
            let arms = lit(s.arms.len() as u128);
            let w = lit(width as u128);
            let mask = lit((1u128 << width) - 1);
            let fill = s.arms.iter().map(|(t, v, ty)| {
                let t = lit(*t as u128);
                quote!(#t => match #ty::from_bits((i & #mask) as u64) {
                    Some(x) => Some(#name::#v(x)),
                    None => None,
                })
            });
            quote! {
                pub fn from_bits(tag: u64, bits: u64) -> Option<Self> {
                    const TABLE: [Option<#name>; #size] = {
                        let mut table = [None; #size];
                        let mut i = 0;
                        while i < #size {
                            table[i] = match i >> #w {
                                #(#fill,)*
                                _ => None,
                            };
                            i += 1;
                        }
                        table
                    };
                    if tag < #arms && bits <= #mask {
                        TABLE[((tag << #w) | bits) as usize]
                    } else {
                        None
                    }
                }
            }
        }
        None => quote! {
            pub fn from_bits(tag: u64, bits: u64) -> Option<Self> {
                match tag {
                    #(#from,)*
                    _ => None,
                }
            }
        },
    };
    let arm_names: Vec<String> = s
        .arm_types
        .iter()
        .map(|t| match t {
            ir::Type::Enum(e) => camel(&m.t.enums[e.0].name),
            ir::Type::Bool
            | ir::Type::UInt(_)
            | ir::Type::SInt(_)
            | ir::Type::Number(_)
            | ir::Type::Layout(_)
            | ir::Type::Switch { .. } => "value".into(),
        })
        .collect();
    let doc = format!(" A field whose meaning depends on a tag field: one of {}.", arm_names.join(", "));
    let more = quote! {
        /// The raw field value.
        pub const fn bits(self) -> u64 {
            match self {
                #(#bits,)*
            }
        }

        /// The value of a raw field under a tag, if the spec defines it.
        #from_bits
    };
    tagged_enum(&doc, name, &variants, &tags, &values, more)
}

/// The enum of a field whose type a tag field chooses (in formats and in layouts): one
/// variant an arm, with the tag each implies and its value for generic tools; `more` adds
/// methods.
pub(super) fn tagged_enum(
    doc: &str,
    name: &proc_macro2::Ident,
    variants: &[TokenStream],
    tags: &[TokenStream],
    values: &[TokenStream],
    more: TokenStream,
) -> TokenStream {
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum #name {
            #(#variants,)*
        }

        impl #name {
            /// The raw value of the tag field this variant implies.
            pub const fn tag(self) -> u64 {
                match self {
                    #(#tags,)*
                }
            }

            #more

            /// The value for generic tools (JSON).
            pub fn value(self) -> isa_runtime::value::Value {
                match self {
                    #(#values,)*
                }
            }
        }
    }
}
