//! Encode and decode for a struct declared in a downstream crate: the second front door.
//!
//! `#[derive(isa_derive::Bitfield)]` turns the bit-range attributes of a struct into a spec with
//! one format, checks it like any spec and calls [`struct_impl`], which renders, from the checked
//! [`ir::Format`], an `impl` block for the user's own struct. Fields are extracted, sign-extended,
//! range-checked and inserted as `formats` does for a generated struct; what
//! differs is that the members keep the Rust types the user gave them (`waddr: u32` for six
//! bits), so the range checks follow those types, and that `from_word` checks the fixed
//! (`is`) bits itself, since no decision tree runs before it.

use super::formats;
use super::model::{extract, hex, lit, uint, Model};
use crate::ir::{self, Type};
use crate::placement;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

/// The Rust type of a member of the user's struct.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberType {
    /// `bool`.
    Bool,
    /// `u8`, `u16`, `u32` or `u64` (the width in bits).
    Unsigned(u32),
    /// `i8`, `i16`, `i32` or `i64` (the width in bits).
    Signed(u32),
}

impl MemberType {
    /// The member type named `name` (`bool`, `u8`..`u64`, `i8`..`i64`), if supported.
    pub fn from_name(name: &str) -> Option<MemberType> {
        Some(match name {
            "bool" => MemberType::Bool,
            "u8" => MemberType::Unsigned(8),
            "u16" => MemberType::Unsigned(16),
            "u32" => MemberType::Unsigned(32),
            "u64" => MemberType::Unsigned(64),
            "i8" => MemberType::Signed(8),
            "i16" => MemberType::Signed(16),
            "i32" => MemberType::Signed(32),
            "i64" => MemberType::Signed(64),
            _ => return None,
        })
    }

    /// Bits the type holds (1 for `bool`).
    pub fn bits(self) -> u32 {
        match self {
            MemberType::Bool => 1,
            MemberType::Unsigned(b) | MemberType::Signed(b) => b,
        }
    }

    /// The spec type of a field of `width` bits held in this type (`u6`, `s12`, `bool`).
    pub fn spec_type(self, width: u32) -> String {
        match self {
            MemberType::Bool => "bool".into(),
            MemberType::Unsigned(_) => format!("u{width}"),
            MemberType::Signed(_) => format!("s{width}"),
        }
    }

    fn tokens(self) -> TokenStream {
        let name = match self {
            MemberType::Bool => "bool".to_string(),
            MemberType::Unsigned(b) => format!("u{b}"),
            MemberType::Signed(b) => format!("i{b}"),
        };
        let id = Ident::new(&name, proc_macro2::Span::call_site());
        quote!(#id)
    }
}

/// A member of the user's struct and the format field it holds.
#[derive(Debug, Clone)]
pub struct Member {
    /// Index of the field in the format's `fields`.
    pub field: usize,
    /// The member's identifier, as the user wrote it.
    pub ident: Ident,
    /// The member's Rust type.
    pub ty: MemberType,
    /// The name errors report (`EncodeError::OutOfRange { field, .. }`).
    pub name: String,
}

/// Renders `impl <self_ty> { BITS, FIXED_BITS, DEFAULT, from_word, to_word }` for an existing
/// struct whose members hold the fields of format number `format` of `t`, a format `width` bits
/// wide (`BITS`; the IR does not keep a format's declared width). Words are the target's word
/// type. Every field of the format needs a member; a member whose type cannot hold its field is
/// an error.
///
/// - `from_word(word)` is `DecodeError::NoMatch` when the fixed (`is`) bits differ, and otherwise
///   never fails: signed fields are sign-extended, bits no field owns are ignored.
/// - `to_word(&self)` starts from the fixed bits; a value that does not fit its field is
///   `EncodeError::OutOfRange` (never truncated), a fixed member holding another value than its
///   `is` is `EncodeError::NotAllowed`.
/// - `DEFAULT` holds every field's `default` (fixed fields their value, the rest 0 or false).
pub fn struct_impl(
    t: &ir::Target,
    format: usize,
    width: u32,
    self_ty: &Ident,
    members: &[Member],
) -> Result<TokenStream, String> {
    let m = Model::new(t);
    let f = t.formats.get(format).ok_or_else(|| format!("no format number {format}"))?;
    let format_name = &f.name;
    let bits = lit(width as u128);
    let word_ty = uint(t.word_bits);
    for (i, field) in f.fields.iter().enumerate() {
        if !field.view && !members.iter().any(|x| x.field == i) {
            return Err(format!("field `{}` has no member", field.name));
        }
    }
    let mut defaults = Vec::new();
    let mut decode = Vec::new();
    let mut encode = Vec::new();
    for member in members {
        let field = f.fields.get(member.field).ok_or_else(|| format!("no field number {}", member.field))?;
        let id = &member.ident;
        let fname = &member.name;
        let w = field.width();
        if field.array.is_some() || field.view {
            return Err(format!("`{fname}`: arrays and views are not supported here"));
        }
        match (&field.ty, member.ty) {
            (Type::Bool, MemberType::Bool) if w == 1 => {}
            (Type::UInt(_), MemberType::Unsigned(b)) | (Type::SInt(_), MemberType::Signed(b)) if b >= w => {}
            _ => {
                return Err(format!(
                    "`{fname}`: a `{}` cannot hold a {w}-bit field of type `{}`",
                    member.ty.tokens(),
                    member.ty.spec_type(w)
                ))
            }
        }
        let rust_ty = member.ty.tokens();
        // The value of a raw constant, typed as the member.
        let constant = |raw: u64| -> TokenStream {
            match member.ty {
                MemberType::Bool => {
                    let b = raw != 0;
                    quote!(#b)
                }
                MemberType::Unsigned(_) => {
                    let v = lit(raw as u128);
                    quote!(#v)
                }
                MemberType::Signed(_) => {
                    let v = isa_sign_extend(raw, w);
                    let l = Literal::i64_unsuffixed(v);
                    quote!(#l)
                }
            }
        };
        let default = constant(field.fixed.or(field.default).unwrap_or(0));
        defaults.push(quote!(#id: #default));
        // Decode.
        let raw = extract(&word_ty, &field.pieces);
        let value = match (field.fixed, member.ty) {
            (Some(v), _) => constant(v),
            (None, MemberType::Bool) => quote!((#raw) != 0),
            (None, MemberType::Unsigned(_)) => quote!((#raw) as #rust_ty),
            (None, MemberType::Signed(_)) => {
                let wl = lit(w as u128);
                quote!(isa_runtime::bits::sign_extend(#raw, #wl) as #rust_ty)
            }
        };
        decode.push(quote!(#id: #value));
        // Encode: the raw value `v` (a `u64`), range-checked against the field, not the type.
        let check = match member.ty {
            MemberType::Bool => quote!(let v = self.#id as u64;),
            MemberType::Unsigned(b) if b > w => {
                let max = hex((1u128 << w) - 1);
                let wl = lit(w as u128);
                quote! {
                    let v = self.#id as u64;
                    if v > #max {
                        return Err(isa_runtime::EncodeError::OutOfRange {
                            format: #format_name, field: #fname, value: v as i128, bits: #wl, signed: false,
                        });
                    }
                }
            }
            MemberType::Unsigned(_) => quote!(let v = self.#id as u64;),
            MemberType::Signed(b) if b > w => {
                let min = Literal::i128_unsuffixed(-(1i128 << (w - 1)));
                let max = Literal::i128_unsuffixed((1i128 << (w - 1)) - 1);
                let wl = lit(w as u128);
                quote! {
                    let s = self.#id as i64;
                    if !(#min..=#max).contains(&s) {
                        return Err(isa_runtime::EncodeError::OutOfRange {
                            format: #format_name, field: #fname, value: s as i128, bits: #wl, signed: true,
                        });
                    }
                    let v = s as u64;
                }
            }
            MemberType::Signed(_) => quote!(let v = self.#id as i64 as u64;),
        };
        match field.fixed {
            Some(fixed) => {
                let fl = hex(fixed as u128);
                let mk = hex((1u128 << w) - 1);
                encode.push(quote!({
                    #check
                    if v & #mk != #fl {
                        return Err(isa_runtime::EncodeError::NotAllowed { format: #format_name, field: #fname, value: v });
                    }
                }));
            }
            None => {
                let ins = formats::insert(&m, field, false);
                encode.push(quote!({ #check #ins }));
            }
        }
    }
    // The fixed bits as a test on the word.
    let matches: Vec<TokenStream> = f
        .pattern
        .iter()
        .filter(|(mask, _)| *mask != 0)
        .map(|(mask, value)| {
            let (mask, value) = (hex(*mask), hex(*value));
            quote!(word & #mask == #value)
        })
        .collect();
    let check_fixed = if matches.is_empty() {
        quote!()
    } else {
        quote! {
            if !(#(#matches)||*) {
                return Err(isa_runtime::DecodeError::NoMatch { word: word as u128 });
            }
        }
    };
    let fixed = hex(placement::fixed_bits(&f.fields));
    let word_param = if decode.is_empty() && matches.is_empty() { quote!(_word) } else { quote!(word) };
    // A format of fixed fields only sets no bit: `mut` would be an unused-mut warning.
    let word_binding = if encode.is_empty() { quote!(word) } else { quote!(mut word) };
    Ok(quote! {
        impl #self_ty {
            /// Bits in a word.
            pub const BITS: u32 = #bits;
            /// The bits every word has: its fixed (`is`) fields.
            pub const FIXED_BITS: #word_ty = #fixed;
            /// Every field at its `default` (fixed fields at their value, others 0 or false).
            pub const DEFAULT: Self = Self { #(#defaults,)* };

            /// Decodes a word. A word whose fixed (`is`) bits differ is
            /// `DecodeError::NoMatch`; bits no field owns are ignored.
            #[allow(unused_parens, clippy::unnecessary_cast)]
            pub fn from_word(#word_param: #word_ty) -> Result<Self, isa_runtime::DecodeError> {
                #check_fixed
                Ok(Self { #(#decode,)* })
            }

            /// Encodes the fields. A value that does not fit its bits is
            /// `EncodeError::OutOfRange` (never truncated); a fixed field holding another value
            /// than its `is` is `EncodeError::NotAllowed`.
            #[allow(clippy::unnecessary_cast, clippy::identity_op)]
            pub fn to_word(&self) -> Result<#word_ty, isa_runtime::EncodeError> {
                let #word_binding: #word_ty = Self::FIXED_BITS;
                #(#encode)*
                Ok(word)
            }
        }
    })
}

fn isa_sign_extend(raw: u64, w: u32) -> i64 {
    if w == 0 || w >= 64 {
        raw as i64
    } else {
        let shift = 64 - w;
        ((raw << shift) as i64) >> shift
    }
}
