//! Data layouts (headers, descriptors): one bit-backed view type per layout.
//!
//! A layout `Name : WIDTH` becomes `pub struct Name { words: [u32; N] }` with N = WIDTH / 32
//! rounded up; bit `b` is bit `b % 32` of word `b / 32`, as in NVIDIA's `MW(hi:lo)` notation.
//! A view is valid by construction: `from_words` and `from_bytes` check every enum-typed field
//! (nested layouts and switch arms included), and every setter checks its value, so getters
//! never fail. Each view has:
//!
//! - `WIDTH`, `from_words`/`to_words` and `from_bytes`/`to_bytes` (little-endian words);
//! - a getter and a range-checked setter per field (`field(i)`/`set_field(i, v)` for arrays);
//!   nested layouts are read and written as their own views (the bits are copied);
//! - a switch field (`body: switch kind { ... }`) reads as `Option<LayoutBody>`, an enum of
//!   the arms, and writes the tag along with the payload;
//! - `fields()`/`value()`: every field by its spec name, nested as `Value::Struct` and
//!   `Value::Array`; `from_value()`, the inverse (also for JSON);
//! - `check()`: the layout's constraints over its leaves, each violation naming the paths it
//!   read and their values;
//! - `impl isa_runtime::layout::Layout`.
//!
//! A union (`layout Sph : 640 = switch common_word0.sph_type { ... }`) is an enum of its arms'
//! views with the same methods and getters for the fields every arm has. The `root` layout gets
//! `TARGET`, its `isa_runtime::layout::DataTarget`.

use super::model::{doc, lit, position, sint, uint, Model};
use super::names::{camel, snake};
use crate::ir::{self, Piece, Type};
use crate::placement::{self, Run};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// Rust for every layout of the target (nothing when it has none).
pub fn generate(m: &Model) -> TokenStream {
    if m.t.layouts.is_empty() {
        return TokenStream::new();
    }
    let mut out = quote! {
        /// Copies `width` bits from bit `from` of `src` to bit `to` of `dst` (layout views).
        fn copy_layout_bits(src: &[u32], from: u32, dst: &mut [u32], to: u32, width: u32) {
            let mut done = 0;
            while done < width {
                let n = (width - done).min(32);
                let bits = isa_runtime::bits::get_words(src, from + done, n);
                isa_runtime::bits::set_words(dst, to + done, n, bits);
                done += n;
            }
        }
    };
    for (i, l) in m.t.layouts.iter().enumerate() {
        out.extend(match &l.union {
            Some(u) => union_def(m, ir::LayoutId(i), l, u),
            None => layout_def(m, ir::LayoutId(i), l),
        });
        out.extend(layout_impl(m, ir::LayoutId(i)));
    }
    if let Some(root) = m.t.root {
        let ty = m.layout_ident(root);
        let (name, title) = (&m.t.name, &m.t.title);
        let doc = format!(
            " The `{name}` target: tools decode, encode and check its root layout `{}`.",
            m.t.layouts[root.0].name
        );
        out.extend(quote! {
            #[doc = #doc]
            pub static TARGET: isa_runtime::layout::Root<#ty> = isa_runtime::layout::Root::new(#name, #title);
        });
    }
    out
}

/// [`generate`] for a checked target, for callers outside the Rust backend (tests, tools).
pub fn generate_for(t: &ir::Target) -> TokenStream {
    generate(&Model::new(t))
}

/// Number of 32-bit words holding `width` bits.
fn words_for(width: u32) -> u32 {
    width.div_ceil(32)
}

/// The enum generated for switch field `field` of layout `l` (`Sph.maps` → `SphMaps`).
fn switch_ident(m: &Model, l: &ir::Layout, field: &ir::Field) -> Ident {
    m.type_ident(&format!("{}{}", camel(&l.name), camel(&field.name)))
}

/// A field element's place: its pieces, most significant first, each a bit-position
/// expression and the run it renders (width and the value bits it holds).
type Place = Vec<(TokenStream, Run)>;

/// A place at constant bit positions.
fn fixed_place(pieces: &[Piece]) -> Place {
    placement::piece_runs(pieces)
        .into_iter()
        .map(|r| {
            let lo = lit(u128::from(r.lo));
            (quote!(#lo), r)
        })
        .collect()
}

/// Element `i` (a `u32` variable in the generated code) of an array field.
fn element_place(f: &ir::Field) -> Place {
    placement::runs(f).into_iter().map(|r| (position(r.lo, r.stride), r)).collect()
}

/// Expression reading the raw bits at constant `pieces` of `words` (a `[u32; N]`) as a `u64`.
pub(super) fn read_words(pieces: &[Piece]) -> TokenStream {
    read_raw(&quote!(&words), &fixed_place(pieces))
}

/// Expression reading the raw bits of `place` from `src` (a `&[u32]`) as a `u64`.
fn read_raw(src: &TokenStream, place: &Place) -> TokenStream {
    let mut acc: Option<TokenStream> = None;
    for (at, r) in place {
        let w = lit(u128::from(r.width));
        let part = quote!(isa_runtime::bits::get_words(#src, #at, #w));
        acc = Some(match acc {
            None => part,
            Some(prev) => quote!(((#prev << #w) | #part)),
        });
    }
    acc.unwrap_or_else(|| quote!(0u64))
}

/// Statements writing raw `u64` value `v` into `place` of `dst` (a `&mut [u32]`).
fn write_raw(dst: &TokenStream, place: &Place) -> TokenStream {
    let mut out = TokenStream::new();
    for (at, r) in place.iter().rev() {
        let w = lit(u128::from(r.width));
        let value = if r.value_lo == 0 {
            quote!(v)
        } else {
            let o = lit(u128::from(r.value_lo));
            quote!(v >> #o)
        };
        out.extend(quote!(isa_runtime::bits::set_words(#dst, #at, #w, #value);));
    }
    out
}

/// A value of enum `e` for a raw value the enum does not define. Views are checked when they
/// are made, so this is never returned; it keeps getters total without a panic path.
fn enum_fallback(m: &Model, e: ir::EnumId) -> TokenStream {
    let en = m.enum_ident(e);
    let payload = m.payload_ty(e);
    let variants = &m.t.enums[e.0].variants;
    let (vi, v) = variants
        .iter()
        .enumerate()
        .find(|(_, v)| v.values == ir::Values::Rest)
        .or_else(|| variants.iter().enumerate().next())
        .expect("an enum has variants");
    let vid = m.variant_ident(e, vi);
    let pt = m.payload_ident(e, vi);
    match v.values {
        ir::Values::One(_) => quote!(#en::#vid),
        ir::Values::Range(..) => quote!(#en::#vid(#pt::MIN)),
        ir::Values::Rest => quote!(#en::#vid(match #pt::new(raw as #payload) {
            Some(v) => v,
            None => #pt::MIN,
        })),
    }
}

/// Expression reading an element of type `ty` at `place` of `src` (a `&[u32]`).
fn read_typed(m: &Model, ty: &Type, src: &TokenStream, place: &Place) -> TokenStream {
    let raw = read_raw(src, place);
    match ty {
        Type::Bool => quote!(#raw != 0),
        Type::UInt(w) => {
            let t = uint(*w);
            quote!(#raw as #t)
        }
        Type::Number(n) => {
            let t = uint(m.t.numbers[n.0].kind.width());
            quote!(#raw as #t)
        }
        Type::SInt(w) => {
            let t = sint(*w);
            let w = lit(*w as u128);
            quote!(isa_runtime::bits::sign_extend(#raw, #w) as #t)
        }
        Type::Enum(e) => {
            let en = m.enum_ident(*e);
            let fallback = enum_fallback(m, *e);
            quote!({
                let raw = #raw;
                #en::from_bits(raw).unwrap_or(#fallback)
            })
        }
        Type::Layout(l) => {
            let ln = m.layout_ident(*l);
            let n = lit(words_for(m.t.layouts[l.0].width) as u128);
            let mut copies = TokenStream::new();
            for (at, r) in place.iter().rev() {
                let (to, w) = (lit(u128::from(r.value_lo)), lit(u128::from(r.width)));
                copies.extend(quote!(copy_layout_bits(#src, #at, &mut words, #to, #w);));
            }
            quote!({
                let mut words = [0u32; #n];
                #copies
                #ln { words }
            })
        }
        // Switches are read by their own getter; a switch arm is never a switch.
        Type::Switch { .. } => quote!(()),
    }
}

/// Statements checking value `val` of type `ty` and writing it at `place` of `dst`;
/// `err_field` names the field in the error.
fn write_typed(
    ty: &Type,
    val: &TokenStream,
    dst: &TokenStream,
    place: &Place,
    spec_name: &str,
    err_field: &str,
) -> TokenStream {
    let width: u32 = place.iter().map(|(_, r)| r.width).sum();
    let write = write_raw(dst, place);
    let out_of_range = |value: TokenStream, signed: bool| {
        let w = lit(width as u128);
        quote!(return Err(isa_runtime::EncodeError::OutOfRange {
            format: #spec_name, field: #err_field, value: #value, bits: #w, signed: #signed,
        });)
    };
    match ty {
        Type::Bool => quote! {
            let v = u64::from(#val);
            #write
        },
        Type::UInt(_) | Type::Number(_) => {
            let t = uint(width);
            let check = if rust_bits(width) > width {
                let max = lit(ir_mask(width) as u128);
                let err = out_of_range(quote!(i128::from(#val)), false);
                quote!(if #val > #max { #err })
            } else {
                quote!()
            };
            let conv = match (t.to_string() == "u64", val.to_string() == "v") {
                (true, true) => quote!(),
                (true, false) => quote!(let v = #val;),
                (false, _) => quote!(let v = u64::from(#val);),
            };
            quote! {
                #check
                #conv
                #write
            }
        }
        Type::SInt(w) => {
            let check = if rust_bits(*w) > *w {
                let min = proc_macro2::Literal::i128_unsuffixed(-(1i128 << (w - 1)));
                let max = proc_macro2::Literal::i128_unsuffixed((1i128 << (w - 1)) - 1);
                let err = out_of_range(quote!(i128::from(#val)), true);
                quote!(if !(#min..=#max).contains(&#val) { #err })
            } else {
                quote!()
            };
            let t = sint(*w);
            let conv =
                if t.to_string() == "i64" { quote!(#val as u64) } else { quote!(i64::from(#val) as u64) };
            quote! {
                #check
                let v = #conv;
                #write
            }
        }
        // An enum value is always one the spec defines: its bits fit the field.
        Type::Enum(_) => {
            quote! {
                let v = #val.bits();
                #write
            }
        }
        Type::Layout(_) => {
            let mut copies = TokenStream::new();
            for (at, r) in place.iter().rev() {
                let (from, w) = (lit(u128::from(r.value_lo)), lit(u128::from(r.width)));
                copies.extend(quote!(copy_layout_bits(&#val.words, #from, #dst, #at, #w);));
            }
            copies
        }
        Type::Switch { .. } => quote!(),
    }
}

/// Bits of the Rust integer a field of `width` bits is stored in.
fn rust_bits(width: u32) -> u32 {
    match width {
        0..=8 => 8,
        9..=16 => 16,
        17..=32 => 32,
        _ => 64,
    }
}

/// Mask of the low `width` bits.
fn ir_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// `Value` of typed expression `x` of type `ty`.
fn value_of(m: &Model, ty: &Type, x: TokenStream) -> TokenStream {
    match ty {
        Type::Bool => quote!(isa_runtime::value::Value::Bool(#x)),
        Type::UInt(w) if rust_bits(*w) == 64 => quote!(isa_runtime::value::Value::Uint(#x)),
        Type::Number(n) if rust_bits(m.t.numbers[n.0].kind.width()) == 64 => {
            quote!(isa_runtime::value::Value::Uint(#x))
        }
        Type::UInt(_) | Type::Number(_) => quote!(isa_runtime::value::Value::Uint(u64::from(#x))),
        Type::SInt(w) if rust_bits(*w) == 64 => quote!(isa_runtime::value::Value::Int(#x)),
        Type::SInt(_) => quote!(isa_runtime::value::Value::Int(i64::from(#x))),
        Type::Enum(_) => quote!(#x.value()),
        Type::Layout(_) => quote!(isa_runtime::value::Value::Struct(#x.fields())),
        Type::Switch { .. } => quote!(#x.value()),
    }
}

/// Decode checks of layout `l` laid out at `place` (absolute, most significant first) of
/// `words`: every enum field that can hold an undefined value, and every switch tag.
fn decode_checks(m: &Model, top: &str, l: &ir::Layout, place: &[Piece], prefix: &str, out: &mut TokenStream) {
    for f in l.fields.iter().filter(|f| !f.view) {
        let count = f.array.as_ref().map(|a| a.0);
        for i in 0..count.unwrap_or(1) {
            let path = match count {
                Some(_) => format!("{prefix}{}[{i}]", f.name),
                None => format!("{prefix}{}", f.name),
            };
            let at = placement::sub_pieces(place, &placement::element_pieces(f, i));
            match &f.ty {
                Type::Switch { tag, arms } => {
                    let tag_at = placement::sub_pieces(place, &l.fields[*tag].pieces);
                    let raw = read_raw(&quote!(&words), &fixed_place(&tag_at));
                    let mut cases = TokenStream::new();
                    for (value, ty) in arms {
                        let mut body = TokenStream::new();
                        type_checks(m, top, ty, &at, &path, &mut body);
                        let value = lit(*value as u128);
                        cases.extend(quote!(#value => { #body }));
                    }
                    let err = undefined(top, &path, &tag_at);
                    out.extend(quote! {
                        match #raw {
                            #cases
                            raw => return Err(#err),
                        }
                    });
                }
                ty => type_checks(m, top, ty, &at, &path, out),
            }
        }
    }
}

/// Decode checks of one element of type `ty` at `at`.
fn type_checks(m: &Model, top: &str, ty: &Type, at: &[Piece], path: &str, out: &mut TokenStream) {
    match ty {
        Type::Enum(e) if !m.t.enums[e.0].is_total() => {
            let en = m.enum_ident(*e);
            let raw = read_raw(&quote!(&words), &fixed_place(at));
            let err = undefined(top, path, at);
            out.extend(quote! {
                let raw = #raw;
                if #en::from_bits(raw).is_none() {
                    return Err(#err);
                }
            });
        }
        Type::Layout(l) => {
            decode_checks(m, top, &m.t.layouts[l.0], at, &format!("{path}."), out);
        }
        Type::Bool
        | Type::UInt(_)
        | Type::SInt(_)
        | Type::Enum(_)
        | Type::Number(_)
        | Type::Switch { .. } => {}
    }
}

/// The decode error for undefined value `raw` of field `path` at `at`: its `word` is the
/// 32-bit word holding the field's least significant bit.
fn undefined(top: &str, path: &str, at: &[Piece]) -> TokenStream {
    let word = lit(at.last().map_or(0, |p| p.lo / 32) as u128);
    quote!(isa_runtime::DecodeError::UndefinedValue {
        format: #top, field: #path, value: raw, word: u128::from(words[#word]),
    })
}

/// Whether the all-zero view is valid (then the layout implements `Default`).
fn zero_is_valid(m: &Model, l: &ir::Layout) -> bool {
    l.fields.iter().filter(|f| !f.view).all(|f| type_zero_is_valid(m, &f.ty))
}

fn type_zero_is_valid(m: &Model, ty: &Type) -> bool {
    match ty {
        Type::Enum(e) => m.t.enums[e.0].variant_of(0).is_some(),
        Type::Layout(l) => zero_is_valid(m, &m.t.layouts[l.0]),
        Type::Switch { arms, .. } => arms.iter().any(|(v, ty)| *v == 0 && type_zero_is_valid(m, ty)),
        Type::Bool | Type::UInt(_) | Type::SInt(_) | Type::Number(_) => true,
    }
}

/// The enum of a switch field's arms, with its tag and value.
fn switch_def(m: &Model, l: &ir::Layout, f: &ir::Field) -> TokenStream {
    let Type::Switch { arms, tag } = &f.ty else { return quote!() };
    let name = switch_ident(m, l, f);
    let tag_name = &l.fields[*tag].name;
    let mut variants = Vec::new();
    let mut tags = Vec::new();
    let mut values = Vec::new();
    for (value, ty) in arms {
        let v = arm_ident(m, ty);
        let rt = elem_type(m, ty);
        let value = lit(*value as u128);
        let x = value_of(m, ty, quote!(x));
        variants.push(quote!(#v(#rt)));
        tags.push(quote!(#name::#v(_) => #value));
        values.push(quote!(#name::#v(x) => #x));
    }
    let doc = format!(" `{}.{}`: its type is chosen by `{tag_name}`.", l.name, f.name);
    super::enums::tagged_enum(&doc, &name, &variants, &tags, &values, quote!())
}

/// The Rust type of one element of a field (layouts as their views).
fn elem_type(m: &Model, ty: &Type) -> TokenStream {
    match ty {
        Type::Layout(l) => {
            let id = m.layout_ident(*l);
            quote!(#id)
        }
        Type::Bool
        | Type::UInt(_)
        | Type::SInt(_)
        | Type::Enum(_)
        | Type::Number(_)
        | Type::Switch { .. } => m.rust_type(ty),
    }
}

fn arm_ident(m: &Model, ty: &Type) -> Ident {
    format_ident!(
        "{}",
        match ty {
            Type::Enum(e) => camel(&m.t.enums[e.0].name),
            Type::Layout(l) => m.layout_ident(*l).to_string(),
            Type::Bool => "Bool".into(),
            Type::UInt(w) => format!("U{w}"),
            Type::SInt(w) => format!("S{w}"),
            Type::Number(n) => camel(&m.t.numbers[n.0].name),
            Type::Switch { .. } => "Switch".into(),
        }
    )
}

/// Getter, setter and `fields()` entry of one field.
struct Accessors {
    methods: TokenStream,
    value: Option<TokenStream>,
}

fn field_accessors(m: &Model, l: &ir::Layout, f: &ir::Field) -> Accessors {
    let spec_name = &l.name;
    let fname = &f.name;
    let get = m.field_ident(fname);
    let set = format_ident!("set_{}", snake(fname));
    let fdoc = doc(&f.doc);
    let this = quote!(&self.words);
    let this_mut = quote!(&mut self.words);
    let bits = describe_bits(f);
    let get_doc = format!(" `{fname}` ({bits}).");
    let set_doc = format!(" Sets `{fname}`; a value that does not fit its bits is an error.");
    if let Type::Switch { tag, arms } = &f.ty {
        let sw = switch_ident(m, l, f);
        let place = fixed_place(&f.pieces);
        let tag_place = fixed_place(&l.fields[*tag].pieces);
        let tag_raw = read_raw(&this, &tag_place);
        let mut reads = TokenStream::new();
        let mut writes = TokenStream::new();
        for (value, ty) in arms {
            let v = arm_ident(m, ty);
            let value = lit(*value as u128);
            let read = read_typed(m, ty, &this, &place);
            reads.extend(quote!(#value => Some(#sw::#v(#read)),));
            let write = write_typed(ty, &quote!(x), &this_mut, &place, spec_name, fname);
            writes.extend(quote!(#sw::#v(x) => { #write }));
        }
        let tag_write = write_raw(&this_mut, &tag_place);
        let get_doc = format!(" `{fname}` ({bits}), read as the arm its tag chooses (`None`: no arm).");
        let set_doc = format!(" Sets `{fname}` and its tag `{}`.", l.fields[*tag].name);
        return Accessors {
            methods: quote! {
                #fdoc
                #[doc = #get_doc]
                pub fn #get(&self) -> Option<#sw> {
                    match #tag_raw {
                        #reads
                        _ => None,
                    }
                }

                #[doc = #set_doc]
                pub fn #set(&mut self, v: #sw) -> Result<(), isa_runtime::EncodeError> {
                    match v {
                        #writes
                    }
                    let v = v.tag();
                    #tag_write
                    Ok(())
                }
            },
            value: Some(
                quote!((#fname, self.#get().map_or(isa_runtime::value::Value::Uint(#tag_raw), #sw::value))),
            ),
        };
    }
    let ty = elem_type(m, &f.ty);
    let value = if f.view { None } else { Some(()) };
    // A tag's setter re-checks the whole view: the switch it drives must still decode.
    let commit = |body: TokenStream| -> TokenStream {
        if f.is_tag {
            // `body` leaves the raw value in `v`.
            quote! {
                let mut words = self.words;
                #body
                if Self::from_words(words).is_err() {
                    return Err(isa_runtime::EncodeError::NotAllowed {
                        format: #spec_name, field: #fname, value: v,
                    });
                }
                self.words = words;
                Ok(())
            }
        } else {
            quote! {
                #body
                Ok(())
            }
        }
    };
    let dst = if f.is_tag { quote!(&mut words) } else { this_mut.clone() };
    match &f.array {
        None => {
            let place = fixed_place(&f.pieces);
            let read = read_typed(m, &f.ty, &this, &place);
            let write = write_typed(&f.ty, &quote!(v), &dst, &place, spec_name, fname);
            let setter = if f.view {
                quote!()
            } else {
                let body = commit(write);
                quote! {
                    #[doc = #set_doc]
                    pub fn #set(&mut self, v: #ty) -> Result<(), isa_runtime::EncodeError> {
                        #body
                    }
                }
            };
            let v = value_of(m, &f.ty, quote!(self.#get()));
            Accessors {
                methods: quote! {
                    #fdoc
                    #[doc = #get_doc]
                    pub fn #get(&self) -> #ty {
                        #read
                    }

                    #setter
                },
                value: value.map(|_| quote!((#fname, #v))),
            }
        }
        Some((n, _)) => {
            let place = element_place(f);
            let read = read_typed(m, &f.ty, &this, &place);
            let write = write_typed(&f.ty, &quote!(v), &dst, &place, spec_name, fname);
            let count = lit(*n as u128);
            let index_bits = lit((32 - n.saturating_sub(1).leading_zeros()).max(1) as u128);
            let index_field = format!("{fname}[]");
            let get_doc = format!(" Element `i` of `{fname}` ({bits}); `None` past the last of {n}.");
            let set_doc = format!(
                " Sets element `i` of `{fname}`; an index past the last of {n} or a value that does not fit is an error."
            );
            let setter = if f.view {
                quote!()
            } else {
                let body = commit(write);
                quote! {
                    #[doc = #set_doc]
                    pub fn #set(&mut self, i: usize, v: #ty) -> Result<(), isa_runtime::EncodeError> {
                        if i >= #count {
                            return Err(isa_runtime::EncodeError::OutOfRange {
                                format: #spec_name, field: #index_field, value: i as i128, bits: #index_bits, signed: false,
                            });
                        }
                        let i = i as u32;
                        #body
                    }
                }
            };
            let v = value_of(m, &f.ty, quote!(x));
            Accessors {
                methods: quote! {
                    #fdoc
                    #[doc = #get_doc]
                    pub fn #get(&self, i: usize) -> Option<#ty> {
                        if i >= #count {
                            return None;
                        }
                        let i = i as u32;
                        Some(#read)
                    }

                    #setter
                },
                value: value.map(|_| {
                    quote!((#fname, isa_runtime::value::Value::Array(
                        (0..#count).filter_map(|i| self.#get(i)).map(|x| #v).collect()
                    )))
                }),
            }
        }
    }
}

/// `bits 13:10`, `bits 192 + 4 * i +: 4`, `bits [639:576, ...]` for documentation.
fn describe_bits(f: &ir::Field) -> String {
    match &f.array {
        Some((_, strides)) if f.pieces.len() == 1 => {
            let (p, stride) = (f.pieces[0], strides.first().copied().unwrap_or(0));
            let sign = if stride < 0 { '-' } else { '+' };
            format!("bits {} {sign} {} * i +: {}", p.lo, stride.unsigned_abs(), p.width)
        }
        _ => format!("bits {}", bits_text(&f.pieces)),
    }
}

/// Layout `l` with its reserved members ([`placement::reserved_members`]) after its fields, as
/// unsigned fields: they get a getter, a setter, a place in `value()` and in `from_value()`
/// like any field, so a view's value holds every bit of it.
fn with_reserved(l: &ir::Layout) -> ir::Layout {
    let mut out = l.clone();
    for r in placement::reserved_members(l) {
        let declared = l.reserved.iter().find(|d| {
            d.pieces.iter().any(|p| p.lo <= r.piece.lo && r.piece.lo + r.piece.width <= p.lo + p.width)
        });
        let mut doc = declared.map_or_else(String::new, |d| d.doc.clone());
        if !doc.is_empty() {
            doc.push('\n');
        }
        doc.push_str("Reserved: bits no field names, kept as read so that encoding gives every bit back.");
        out.fields.push(ir::Field::plain(
            r.name,
            doc,
            Type::UInt(r.piece.width),
            vec![r.piece],
            crate::diag::Span::default(),
        ));
    }
    out
}

fn layout_def(m: &Model, id: ir::LayoutId, l: &ir::Layout) -> TokenStream {
    let l = &with_reserved(l);
    let name = m.layout_ident(id);
    let spec_name = &l.name;
    let docs = doc(&l.doc);
    let n_words = words_for(l.width);
    let n = lit(n_words as u128);
    let n_bytes = lit(n_words as u128 * 4);
    let width = lit(l.width as u128);
    let mut switches = TokenStream::new();
    let mut methods = TokenStream::new();
    let mut values = Vec::new();
    for f in &l.fields {
        if matches!(f.ty, Type::Switch { .. }) {
            switches.extend(switch_def(m, l, f));
        }
        let a = field_accessors(m, l, f);
        methods.extend(a.methods);
        values.extend(a.value);
    }
    let mut checks = TokenStream::new();
    decode_checks(m, spec_name, l, &[Piece { lo: 0, width: l.width }], "", &mut checks);
    let top_bits = l.width % 32;
    let clear_top = if top_bits == 0 {
        quote!()
    } else {
        let last = lit(n_words as u128 - 1);
        let mask = lit(((1u64 << top_bits) - 1) as u128);
        quote!(words[#last] &= #mask;)
    };
    let words_param = if clear_top.is_empty() { quote!(words) } else { quote!(mut words) };
    let from_value = from_value_fn(m, l);
    let check = check_fn(m, id, l);
    let default = if zero_is_valid(m, l) {
        let d = format!(" All bits zero (a valid `{spec_name}`).");
        quote! {
            impl Default for #name {
                #[doc = #d]
                fn default() -> Self {
                    #name { words: [0; #n] }
                }
            }
        }
    } else {
        quote!()
    };
    let from_words_doc = if top_bits == 0 {
        " Reads the layout from its words; an enum field holding a value the spec does not define is an error.".to_string()
    } else {
        format!(
            " Reads the layout from its words; an enum field holding a value the spec does not define is an error. \
             Bits above bit {} are not part of the layout and are cleared.",
            l.width - 1
        )
    };
    quote! {
        #switches

        #docs
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct #name {
            words: [u32; #n],
        }

        #default

        #[allow(unused_parens, clippy::identity_op, clippy::redundant_closure)]
        impl #name {
            /// The layout's name in the spec.
            pub const NAME: &'static str = #spec_name;
            /// Width in bits.
            pub const WIDTH: u32 = #width;

            #[doc = #from_words_doc]
            pub fn from_words(#words_param: [u32; #n]) -> Result<Self, isa_runtime::DecodeError> {
                #clear_top
                #checks
                Ok(#name { words })
            }

            /// The layout's words: bit b is bit b % 32 of word b / 32.
            pub fn to_words(&self) -> [u32; #n] {
                self.words
            }

            /// Reads the layout from exactly its size in bytes (little-endian words).
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, isa_runtime::DecodeError> {
                Self::from_words(isa_runtime::layout::words_from_bytes(bytes)?)
            }

            /// The layout's bytes (little-endian words).
            pub fn to_bytes(&self) -> [u8; #n_bytes] {
                isa_runtime::layout::bytes_from_words(&self.words)
            }

            /// Every field by its spec name, for generic tools (nested layouts as structs).
            pub fn fields(&self) -> Vec<(&'static str, isa_runtime::value::Value)> {
                vec![#(#values,)*]
            }

            /// Every field by its spec name as one value (what `isa decode --json` prints).
            pub fn value(&self) -> isa_runtime::value::Value {
                isa_runtime::value::Value::Struct(self.fields())
            }

            #from_value

            #check

            #methods
        }
    }
}

/// `from_value`: the inverse of `value()`, also taking JSON read into a `Value`. Missing
/// fields are zero; unknown or ill-typed fields are errors.
fn from_value_fn(m: &Model, l: &ir::Layout) -> TokenStream {
    let spec_name = &l.name;
    let n = lit(words_for(l.width) as u128);
    let mut arms = TokenStream::new();
    let mut deferred = TokenStream::new();
    let mut apply = TokenStream::new();
    for f in l.fields.iter().filter(|f| !f.view) {
        let fname = &f.name;
        let words = quote!(&mut x.words);
        match (&f.ty, &f.array) {
            (Type::Switch { tag, arms: choices }, _) => {
                let var = format_ident!("pending_{}", snake(fname));
                let tag_raw = read_raw(&quote!(&x.words), &fixed_place(&l.fields[*tag].pieces));
                let place = fixed_place(&f.pieces);
                let mut cases = TokenStream::new();
                for (value, ty) in choices {
                    let conv = convert(m, ty, fname, &quote!(v));
                    let write = write_typed(ty, &quote!(e), &words, &place, spec_name, fname);
                    let value = lit(*value as u128);
                    cases.extend(quote!(#value => { let e = #conv; #write }));
                }
                arms.extend(quote!(#fname => #var = Some(v),));
                deferred.extend(quote!(let mut #var: Option<&isa_runtime::value::Value> = None;));
                let unknown = format!("its tag `{}` chooses no type", l.fields[*tag].name);
                // Written after every other field, when the tag is known.
                apply.extend(quote! {
                    if let Some(v) = #var {
                        match #tag_raw {
                            #cases
                            _ => return Err(invalid(#fname, #unknown)),
                        }
                    }
                });
            }
            (ty, None) => {
                let conv = convert(m, ty, fname, &quote!(v));
                let write = write_typed(ty, &quote!(e), &words, &fixed_place(&f.pieces), spec_name, fname);
                arms.extend(quote!(#fname => { let e = #conv; #write }));
            }
            (ty, Some((count, _))) => {
                let conv = convert(m, ty, fname, &quote!(item));
                let write = write_typed(ty, &quote!(e), &words, &element_place(f), spec_name, fname);
                let len = lit(*count as u128);
                let want = format!("expected an array of {count} elements");
                arms.extend(quote!(#fname => {
                    let Some(items) = v.items().filter(|items| items.len() == #len) else {
                        return Err(invalid(#fname, #want));
                    };
                    for (i, item) in (0u32..).zip(items) {
                        let e = #conv;
                        #write
                    }
                }));
            }
        }
    }
    quote! {
        /// Builds the layout from a value of `value()`'s shape (or JSON read into one): fields
        /// by name, enums by name or number. Missing fields are zero; an unknown field, a value
        /// of the wrong kind or one that does not fit is an error.
        pub fn from_value(value: &isa_runtime::value::Value) -> Result<Self, isa_runtime::EncodeError> {
            let invalid = |field: &str, reason: &'static str| isa_runtime::EncodeError::Invalid {
                format: #spec_name, field: field.into(), reason,
            };
            let Some(entries) = value.entries() else {
                return Err(invalid("", "expected an object of fields"));
            };
            let mut x = Self { words: [0; #n] };
            #deferred
            for (key, v) in entries {
                match key {
                    #arms
                    _ => return Err(invalid(key, "no such field")),
                }
            }
            #apply
            Self::from_words(x.words).map_err(|e| match e {
                isa_runtime::DecodeError::UndefinedValue { field, .. } => {
                    invalid(field, "missing, or a value the spec does not define")
                }
                _ => invalid("", "not a valid layout"),
            })
        }
    }
}

/// Expression converting `v` (a `&Value`) to the Rust type of `ty` inside `from_value`,
/// returning an `EncodeError` naming field `fname` when it cannot.
fn convert(m: &Model, ty: &Type, fname: &str, v: &TokenStream) -> TokenStream {
    let kind = |reason: &str| quote!(invalid(#fname, #reason));
    match ty {
        Type::Bool => {
            let err = kind("expected true or false");
            quote!(#v.as_bool().ok_or_else(|| #err)?)
        }
        Type::UInt(_) | Type::Number(_) => {
            let w = match ty {
                Type::Number(n) => m.t.numbers[n.0].kind.width(),
                Type::UInt(w) => *w,
                Type::Bool | Type::SInt(_) | Type::Enum(_) | Type::Layout(_) | Type::Switch { .. } => 0,
            };
            let t = uint(w);
            let err = kind("expected a non-negative integer");
            let bits = lit(w as u128);
            // A negative number or one wider than the Rust type does not fit either; the
            // setter's check then holds the value to the field's own width.
            quote!({
                let n = #v.as_integer().ok_or_else(|| #err)?;
                #t::try_from(n).map_err(|_| isa_runtime::EncodeError::OutOfRange {
                    format: Self::NAME, field: #fname, value: n, bits: #bits, signed: false,
                })?
            })
        }
        Type::SInt(w) => {
            let t = sint(*w);
            let err = kind("expected an integer");
            let bits = lit(*w as u128);
            quote!({
                let n = #v.as_integer().ok_or_else(|| #err)?;
                #t::try_from(n).map_err(|_| isa_runtime::EncodeError::OutOfRange {
                    format: Self::NAME, field: #fname, value: n, bits: #bits, signed: true,
                })?
            })
        }
        Type::Enum(e) => {
            let en = m.enum_ident(*e);
            let err = kind(&format!("not a value of `{}`", m.t.enums[e.0].name));
            let width = m.t.enums[e.0].width;
            let bits = lit(width as u128);
            let max = lit(ir_mask(width) as u128);
            // A number the field cannot hold says so (a catch-all variant would otherwise
            // seem to take it); one that fits but that no variant has is not a value.
            quote!(match #en::from_value(#v) {
                Some(x) => x,
                None => return Err(match #v.as_integer() {
                    Some(n) if !(0..=#max).contains(&n) => isa_runtime::EncodeError::OutOfRange {
                        format: Self::NAME, field: #fname, value: n, bits: #bits, signed: false,
                    },
                    _ => #err,
                }),
            })
        }
        Type::Layout(l) => {
            let ln = m.layout_ident(*l);
            // A nested layout's error names the path from this layout down.
            let at =
                if v.to_string() == "item" { quote!(&format!("{}[{}]", #fname, i)) } else { quote!(#fname) };
            quote!(#ln::from_value(#v).map_err(|e| e.within(Self::NAME, #at))?)
        }
        Type::Switch { .. } => quote!(()),
    }
}

/// `check` (every broken constraint, then a warning for every reserved member, nested ones
/// included, that is not zero) and `broken_constraints` (the layout's constraints over its raw
/// words, then its nested layouts'; what an enclosing layout's `check` asks of them, since it
/// warns about their reserved bits itself, by their paths in it).
fn check_fn(m: &Model, id: ir::LayoutId, l: &ir::Layout) -> TokenStream {
    let own = constraint_checks(m, l);
    let mut nested = TokenStream::new();
    for f in l.fields.iter().filter(|f| !f.view) {
        let Type::Layout(n) = f.ty else { continue };
        if !has_checks(m, n) {
            continue;
        }
        let get = m.field_ident(&f.name);
        nested.extend(match f.array {
            None => quote!(out.extend(self.#get().broken_constraints());),
            Some((count, _)) => {
                let count = lit(count as u128);
                quote!(for i in 0..#count { out.extend(self.#get(i).map(|x| x.broken_constraints()).unwrap_or_default()); })
            }
        });
    }
    let reserved = reserved_warnings(m, id, l);
    let constraints = if own.is_empty() && nested.is_empty() {
        quote! {
            /// The spec's constraints this layout breaks (it declares none).
            pub fn broken_constraints(&self) -> Vec<isa_runtime::program::Violation> {
                Vec::new()
            }
        }
    } else {
        let words = if own.is_empty() { quote!() } else { quote!(let words = self.to_words();) };
        quote! {
            /// The spec's constraints this layout and the layouts in it break, each naming the
            /// fields it reads.
            #[allow(clippy::nonminimal_bool, unused_parens, clippy::double_parens, clippy::unnecessary_cast)]
            pub fn broken_constraints(&self) -> Vec<isa_runtime::program::Violation> {
                #words
                let mut out = Vec::new();
                #own
                #nested
                out
            }
        }
    };
    let check = if reserved.is_empty() {
        quote! {
            /// The spec's constraints this layout breaks (it has no reserved bits to warn about).
            pub fn check(&self) -> Vec<isa_runtime::program::Violation> {
                self.broken_constraints()
            }
        }
    } else {
        quote! {
            /// The spec's constraints this layout breaks, then a warning for each reserved
            /// member that is not zero (bits no field names: the hardware may give them a
            /// meaning the spec does not know).
            #[allow(clippy::identity_op, unused_parens)]
            pub fn check(&self) -> Vec<isa_runtime::program::Violation> {
                let words = self.to_words();
                let mut out = self.broken_constraints();
                #reserved
                out
            }
        }
    };
    quote!(#constraints #check)
}

/// Statements pushing a warning for each reserved member of layout `id` or of a layout nested
/// in it whose bits (read from `words`) are not zero.
fn reserved_warnings(m: &Model, id: ir::LayoutId, l: &ir::Layout) -> TokenStream {
    let layout_name = &l.name;
    let mut out = TokenStream::new();
    for r in placement::reserved_leaves(m.t, id) {
        let raw = read_raw(&quote!(&words), &fixed_place(&r.pieces));
        let chosen = r.when.iter().map(|(tag, value)| {
            let tag = read_raw(&quote!(&words), &fixed_place(tag));
            let value = lit(*value as u128);
            quote!(&& #tag == #value)
        });
        let message = format!("reserved bits {} are not zero", bits_text(&r.pieces));
        let path = &r.path;
        out.extend(quote! {
            let raw = #raw;
            if raw != 0 #(#chosen)* {
                out.push(isa_runtime::program::Violation {
                    rule: "reserved",
                    message: #message,
                    index: 0,
                    layout: #layout_name,
                    fields: &[#path],
                    warning: true,
                    detail: format!("{} = {:#x}", #path, raw),
                });
            }
        });
    }
    out
}

/// `25:21`, `7`, or `[31:28, 3:0]`: bits as the documents write them.
fn bits_text(pieces: &[Piece]) -> String {
    let one = |p: &Piece| {
        if p.width == 1 {
            format!("{}", p.lo)
        } else {
            format!("{}:{}", p.lo + p.width - 1, p.lo)
        }
    };
    match pieces {
        [p] => one(p),
        _ => format!("[{}]", pieces.iter().map(one).collect::<Vec<_>>().join(", ")),
    }
}

/// Whether layout `id` or a layout nested in it has constraints.
fn has_checks(m: &Model, id: ir::LayoutId) -> bool {
    fn walk(t: &ir::Target, id: ir::LayoutId, depth: u32) -> bool {
        let Some(l) = t.layouts.get(id.0) else { return false };
        depth < 16
            && (!l.constraints.is_empty()
                || l.fields.iter().any(|f| matches!(f.ty, Type::Layout(n) if walk(t, n, depth + 1)))
                || l.union.as_ref().is_some_and(|u| u.arms.iter().any(|(_, a)| walk(t, *a, depth + 1))))
    }
    walk(m.t, id, 0)
}

/// Statements pushing a `Violation` for each broken constraint of `l` (over `words`); the
/// detail shows the values the constraint read.
fn constraint_checks(m: &Model, l: &ir::Layout) -> TokenStream {
    let mut out = TokenStream::new();
    for c in &l.constraints {
        let ok = super::validate::layout_condition(&l.leaves, &c.expr);
        let (name, message, reads, warning) = (&c.name, &c.message, &c.reads, c.warning);
        let layout_name = &l.name;
        let mut shown = Vec::new();
        for path in reads {
            let Some(leaf) = l.leaves.iter().find(|x| x.path == *path) else { continue };
            let raw = read_raw(&quote!(&words), &fixed_place(&leaf.pieces));
            let text = match &leaf.ty {
                Type::Enum(e) => {
                    let en = m.enum_ident(*e);
                    quote!(match #en::from_bits(raw) {
                        Some(x) => format!("{} = {}", #path, x.name()),
                        None => format!("{} = {}", #path, raw),
                    })
                }
                Type::Bool => quote!(format!("{} = {}", #path, raw != 0)),
                Type::SInt(w) => {
                    let w = lit(*w as u128);
                    quote!(format!("{} = {}", #path, isa_runtime::bits::sign_extend(raw, #w)))
                }
                _ => quote!(format!("{} = {}", #path, raw)),
            };
            shown.push(quote!({ let raw = #raw; #text }));
        }
        out.extend(quote! {
            if !#ok {
                out.push(isa_runtime::program::Violation {
                    rule: #name,
                    message: #message,
                    index: 0,
                    layout: #layout_name,
                    fields: &[#(#reads),*],
                    warning: #warning,
                    detail: [#(#shown),*].join(", "),
                });
            }
        });
    }
    out
}

/// A union layout: an enum of its arms, chosen by the tag they share.
fn union_def(m: &Model, id: ir::LayoutId, l: &ir::Layout, u: &ir::Union) -> TokenStream {
    let name = m.layout_ident(id);
    let spec_name = &l.name;
    let docs = doc(&l.doc);
    let n_words = words_for(l.width);
    let n = lit(n_words as u128);
    let n_bytes = lit(n_words as u128 * 4);
    let width = lit(l.width as u128);
    let tag_path = &u.tag;
    let tag_raw = read_raw(&quote!(&words), &fixed_place(&u.tag_pieces));
    let mut variants = Vec::new();
    let mut decode_arms = Vec::new();
    let mut encode_arms = Vec::new();
    let mut each = Vec::new();
    for (value, arm) in &u.arms {
        let a = m.layout_ident(*arm);
        let v = lit(*value as u128);
        let adoc = format!(
            " `{tag_path}` = {}: layout `{}`.",
            value_name(m, &u.tag_ty, *value),
            m.t.layouts[arm.0].name
        );
        variants.push(quote!(#[doc = #adoc] #a(#a)));
        decode_arms.push(quote!(#v => Ok(#name::#a(#a::from_words(words)?))));
        encode_arms.push(quote!(Some(#v) => Ok(#name::#a(#a::from_value(value)?))));
        each.push(a);
    }
    let err = undefined(spec_name, tag_path, &u.tag_pieces);
    let tag_value = match &u.tag_ty {
        Type::Enum(e) => {
            let en = m.enum_ident(*e);
            quote!(#en::from_value(tag).map(|x| x.bits()))
        }
        Type::Bool => quote!(tag.as_bool().map(u64::from)),
        Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Layout(_) | Type::Switch { .. } => {
            quote!(tag.as_u64())
        }
    };
    // Getters for the fields every arm has at the same bits with the same type.
    let mut common = TokenStream::new();
    if let Some((_, first)) = u.arms.first() {
        for f in
            m.t.layouts[first.0].fields.iter().filter(|f| !f.view && !matches!(f.ty, Type::Switch { .. }))
        {
            let shared = u.arms.iter().all(|(_, a)| {
                m.t.layouts[a.0]
                    .fields
                    .iter()
                    .any(|g| g.name == f.name && g.ty == f.ty && g.pieces == f.pieces && g.array == f.array)
            });
            if !shared {
                continue;
            }
            let get = m.field_ident(&f.name);
            let ty = elem_type(m, &f.ty);
            let gdoc = format!(" `{}` (every arm has it).", f.name);
            common.extend(match f.array {
                None => quote! {
                    #[doc = #gdoc]
                    pub fn #get(&self) -> #ty {
                        match self { #(#name::#each(x) => x.#get(),)* }
                    }
                },
                Some(_) => quote! {
                    #[doc = #gdoc]
                    pub fn #get(&self, i: usize) -> Option<#ty> {
                        match self { #(#name::#each(x) => x.#get(i),)* }
                    }
                },
            });
        }
    }
    let own = constraint_checks(m, l);
    let words = if own.is_empty() { quote!() } else { quote!(let words = self.to_words();) };
    let missing = format!("missing: `{tag_path}` chooses the layout");
    let unknown = format!("`{tag_path}` holds a value that chooses no layout");
    quote! {
        #docs
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum #name {
            #(#variants,)*
        }

        #[allow(unused_parens, clippy::identity_op, clippy::nonminimal_bool, clippy::double_parens, clippy::unnecessary_cast)]
        impl #name {
            /// The layout's name in the spec.
            pub const NAME: &'static str = #spec_name;
            /// Width in bits.
            pub const WIDTH: u32 = #width;

            /// Reads the layout from its words: the tag chooses the arm, which checks its fields.
            pub fn from_words(words: [u32; #n]) -> Result<Self, isa_runtime::DecodeError> {
                let raw = #tag_raw;
                match raw {
                    #(#decode_arms,)*
                    _ => Err(#err),
                }
            }

            /// The layout's words: bit b is bit b % 32 of word b / 32.
            pub fn to_words(&self) -> [u32; #n] {
                match self { #(#name::#each(x) => x.to_words(),)* }
            }

            /// Reads the layout from exactly its size in bytes (little-endian words).
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, isa_runtime::DecodeError> {
                Self::from_words(isa_runtime::layout::words_from_bytes(bytes)?)
            }

            /// The layout's bytes (little-endian words).
            pub fn to_bytes(&self) -> [u8; #n_bytes] {
                match self { #(#name::#each(x) => x.to_bytes(),)* }
            }

            /// The arm's fields as one value (what `isa decode --json` prints).
            pub fn value(&self) -> isa_runtime::value::Value {
                match self { #(#name::#each(x) => x.value(),)* }
            }

            /// Builds the layout from a value of `value()`'s shape: its tag chooses the arm.
            pub fn from_value(value: &isa_runtime::value::Value) -> Result<Self, isa_runtime::EncodeError> {
                let invalid = |reason: &'static str| isa_runtime::EncodeError::Invalid {
                    format: #spec_name, field: #tag_path.into(), reason,
                };
                let tag = value.path(#tag_path).ok_or_else(|| invalid(#missing))?;
                match #tag_value {
                    #(#encode_arms,)*
                    _ => Err(invalid(#unknown)),
                }
            }

            /// The spec's constraints this header breaks, each naming the fields it reads.
            pub fn check(&self) -> Vec<isa_runtime::program::Violation> {
                #words
                let mut out = Vec::new();
                #own
                out.extend(match self { #(#name::#each(x) => x.check(),)* });
                out
            }

            #common
        }
    }
}

/// The name of value `v` of a tag of type `ty`, for documentation.
fn value_name(m: &Model, ty: &Type, v: u64) -> String {
    match ty {
        Type::Enum(e) => m.t.enums[e.0]
            .variant_of(v)
            .map_or_else(|| v.to_string(), |i| m.t.enums[e.0].variants[i].name.clone()),
        Type::Bool
        | Type::UInt(_)
        | Type::SInt(_)
        | Type::Number(_)
        | Type::Layout(_)
        | Type::Switch { .. } => v.to_string(),
    }
}

/// `impl isa_runtime::layout::Layout` for a layout's view.
fn layout_impl(m: &Model, id: ir::LayoutId) -> TokenStream {
    let name = m.layout_ident(id);
    let n_words = words_for(m.t.layouts[id.0].width);
    let n = lit(n_words as u128);
    let n_bytes = lit(n_words as u128 * 4);
    quote! {
        impl isa_runtime::layout::Layout for #name {
            const NAME: &'static str = #name::NAME;
            const WIDTH: u32 = #name::WIDTH;

            fn from_word_slice(words: &[u32]) -> Result<Self, isa_runtime::DecodeError> {
                let words: [u32; #n] = words.try_into().map_err(|_| isa_runtime::DecodeError::Truncated {
                    needed: #n_bytes, available: words.len() * 4,
                })?;
                #name::from_words(words)
            }

            fn words(&self) -> Vec<u32> {
                self.to_words().to_vec()
            }

            fn value(&self) -> isa_runtime::value::Value {
                #name::value(self)
            }

            fn from_value(value: &isa_runtime::value::Value) -> Result<Self, isa_runtime::EncodeError> {
                #name::from_value(value)
            }

            fn check(&self) -> Vec<isa_runtime::program::Violation> {
                #name::check(self)
            }
        }
    }
}
