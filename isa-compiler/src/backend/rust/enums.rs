//! Rust enums for the spec's enums and for switch-typed fields.

use super::model::{doc, lit, Model};
use super::names::camel;
use crate::ir::{self, Values};
use proc_macro2::TokenStream;
use quote::quote;

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
                from_bits_one.push(quote!(#x => Some(#name::#vid)));
                names.push(quote!(#name::#vid => #spec_name));
                values.push(quote!(#name::#vid => isa_runtime::value::Value::Enum(#spec_name)));
                named.push(quote!((#spec_name, None) => Some(#name::#vid)));
            }
            Values::Range(lo, hi) => {
                let (lo, hi) = (lit(*lo as u128), lit(*hi as u128));
                variants.push(quote!(#vdoc #vid(#payload)));
                to_bits.push(quote!(#name::#vid(v) => v as u64));
                from_bits_range.push(quote!(#lo..=#hi => Some(#name::#vid(bits as #payload))));
                named.push(quote!((#spec_name, Some(v)) if (#lo..=#hi).contains(&v) => Some(#name::#vid(v as #payload))));
                names.push(quote!(#name::#vid(_) => #spec_name));
                values
                    .push(quote!(#name::#vid(v) => isa_runtime::value::Value::Variant(#spec_name, v as u64)));
            }
            Values::Rest => {
                variants.push(quote!(#vdoc #vid(#payload)));
                to_bits.push(quote!(#name::#vid(v) => v as u64));
                // The payload's Rust type is wider than the field: a value that does not fit
                // the field is no value of the enum (never cut to the field's bits).
                rest = Some(if e.width < 64 {
                    quote!(_ if bits >> #width != 0 => None, _ => Some(#name::#vid(bits as #payload)))
                } else {
                    quote!(_ => Some(#name::#vid(bits as #payload)))
                });
                named.push(quote!((#spec_name, Some(v)) => Self::from_bits(v).filter(|x| matches!(x, #name::#vid(_)))));
                names.push(quote!(#name::#vid(_) => #spec_name));
                values
                    .push(quote!(#name::#vid(v) => isa_runtime::value::Value::Variant(#spec_name, v as u64)));
            }
        }
    }
    let fallback = rest.unwrap_or_else(|| quote!(_ => None));
    let validity = if e.has_payload() {
        quote! {
            /// Whether the value is one this enum defines (a range variant's payload is in its
            /// range, a catch-all variant's fits the field and is no other variant's value).
            pub fn is_valid(self) -> bool {
                Self::from_bits(self.bits()) == Some(self)
            }
        }
    } else {
        quote! {
            /// Whether the value is one this enum defines (always, for an enum without payloads).
            pub fn is_valid(self) -> bool {
                true
            }
        }
    };
    quote! {
        #docs
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum #name {
            #(#variants,)*
        }

        impl #name {
            /// Width of the field in bits.
            pub const WIDTH: u32 = #width;

            /// The raw field value.
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

            #validity
        }
    }
}

fn switch_def(m: &Model, s: &super::model::SwitchEnum) -> TokenStream {
    let name = &s.name;
    let variants = s.arms.iter().map(|(_, v, ty)| quote!(#v(#ty)));
    let tags = s.arms.iter().map(|(t, v, _)| {
        let t = lit(*t as u128);
        quote!(#name::#v(_) => #t)
    });
    let bits = s.arms.iter().map(|(_, v, _)| quote!(#name::#v(x) => x.bits()));
    let from = s.arms.iter().map(|(t, v, ty)| {
        let t = lit(*t as u128);
        quote!(#t => #ty::from_bits(bits).map(#name::#v))
    });
    let values = s.arms.iter().map(|(_, v, _)| quote!(#name::#v(x) => x.value()));
    let valid = s.arms.iter().map(|(_, v, _)| quote!(#name::#v(x) => x.is_valid()));
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
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum #name {
            #(#variants,)*
        }

        impl #name {
            /// The tag field's value this variant implies.
            pub const fn tag(self) -> u64 {
                match self {
                    #(#tags,)*
                }
            }

            /// The raw field value.
            pub const fn bits(self) -> u64 {
                match self {
                    #(#bits,)*
                }
            }

            /// The value of a raw field under a tag, if the spec defines it.
            pub fn from_bits(tag: u64, bits: u64) -> Option<Self> {
                match tag {
                    #(#from,)*
                    _ => None,
                }
            }

            /// The value for generic tools (JSON).
            pub fn value(self) -> isa_runtime::value::Value {
                match self {
                    #(#values,)*
                }
            }

            /// Whether the payload is a value its enum defines.
            pub fn is_valid(self) -> bool {
                match self {
                    #(#valid,)*
                }
            }
        }
    }
}
