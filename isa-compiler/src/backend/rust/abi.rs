//! ABI layouts: per layout, a struct of its checked parameters with the place of every member
//! and the total size for them, a static describing it for tools (`isa layout`), and per target
//! `ABI`, the list of them.
//!
//! Expressions are evaluated in `i64`: the checker evaluated every one for every parameter value
//! without overflow, and `new` admits only those values.

use super::model::{doc, Model};
use super::names::{camel, ident, upper};
use crate::ir::{self, AbiExpr, AbiParamType, ArithOp};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The ABI layouts of a target, their units and `ABI`.
pub fn generate(m: &Model) -> TokenStream {
    let t = m.t;
    if t.abi_layouts.is_empty() && t.layouts.is_empty() {
        return TokenStream::new();
    }
    let mut out = TokenStream::new();
    for u in &t.units {
        out.extend(unit_static(u));
    }
    let mut statics = Vec::new();
    for l in &t.abi_layouts {
        out.extend(layout(t, l));
        let info = format_ident!("{}", upper(&l.name));
        statics.push(quote!(&#info));
    }
    for (i, l) in t.layouts.iter().enumerate() {
        out.extend(data_layout(t, ir::LayoutId(i)));
        let info = format_ident!("{}_PLACES", upper(&l.name));
        statics.push(quote!(&#info));
    }
    let (name, title) = (&t.name, &t.title);
    out.extend(quote! {
        /// The target's ABI layouts, for tools (`isa layout`).
        pub static ABI: isa_runtime::abi::AbiTarget = isa_runtime::abi::AbiTarget {
            name: #name,
            title: #title,
            layouts: &[#(#statics),*],
        };
    });
    out
}

fn unit_static(u: &ir::Unit) -> TokenStream {
    let name_ident = format_ident!("{}", upper(&u.name));
    let (name, bits) = (&u.name, u.bits);
    let registers = match &u.registers {
        Some(r) => {
            let (prefix, units, parts) = (&r.prefix, r.units, &r.parts);
            quote!(Some(isa_runtime::abi::Registers { prefix: #prefix, units: #units, parts: &[#(#parts),*] }))
        }
        None => quote!(None),
    };
    let d = doc(if u.doc.is_empty() { "A unit of ABI layouts." } else { &u.doc });
    quote! {
        #d
        pub static #name_ident: isa_runtime::abi::Unit = isa_runtime::abi::Unit { name: #name, bits: #bits, registers: #registers };
    }
}

/// A data layout's places for `isa layout`: its members at fixed bits (nested layouts
/// flattened), per arm for a union, whose tag becomes the one parameter.
fn data_layout(t: &ir::Target, id: ir::LayoutId) -> TokenStream {
    let l = &t.layouts[id.0];
    let info = format_ident!("{}_PLACES", upper(&l.name));
    let (name, size) = (&l.name, l.width);
    let summary = format!(" Where the members of data layout `{name}` lie, for `isa layout`.");
    let members = |id: ir::LayoutId| {
        let places = crate::placement::fixed_places(t, id).into_iter().map(|p| {
            let (path, offset, width, reserved) = (p.path, p.piece.lo, p.piece.width, p.reserved);
            quote!(isa_runtime::abi::FixedMember { name: #path, offset: #offset, width: #width, reserved: #reserved })
        });
        quote!(&[#(#places),*])
    };
    let (params, variants) = match &l.union {
        Some(u) => {
            let tag = u.tag.rsplit('.').next().unwrap_or(&u.tag);
            let named: Vec<_> = u
                .arms
                .iter()
                .map(|(value, _)| {
                    let value_u32 = u32::try_from(*value).unwrap_or(u32::MAX);
                    let label = match &u.tag_ty {
                        ir::Type::Enum(e) => t.enums[e.0]
                            .variant_of(*value)
                            .map_or_else(|| value.to_string(), |v| t.enums[e.0].variants[v].name.clone()),
                        _ => value.to_string(),
                    };
                    quote!((#label, #value_u32))
                })
                .collect();
            let arms = u.arms.iter().map(|(value, arm)| {
                let value = i64::try_from(*value).unwrap_or(i64::MAX);
                let m = members(*arm);
                quote!((#value, #m))
            });
            (
                quote!(&[isa_runtime::abi::Param { name: #tag, kind: isa_runtime::abi::ParamKind::Enum { values: &[#(#named),*] } }]),
                quote!(&[#(#arms),*]),
            )
        }
        None => {
            let m = members(id);
            (quote!(&[]), quote!(&[(0, #m)]))
        }
    };
    let ldoc = &l.doc;
    quote! {
        #[doc = #summary]
        pub static #info: isa_runtime::abi::DataLayout = isa_runtime::abi::DataLayout {
            name: #name,
            doc: #ldoc,
            size: #size,
            params: #params,
            variants: #variants,
        };
    }
}

/// The Rust type of a parameter.
fn param_type(ty: AbiParamType) -> TokenStream {
    match ty {
        AbiParamType::Bool => quote!(bool),
        AbiParamType::UInt { bits, .. } => super::model::uint(bits),
    }
}

fn param_static(p: &ir::AbiParam) -> TokenStream {
    let name = &p.name;
    let kind = match p.ty {
        AbiParamType::Bool => quote!(isa_runtime::abi::ParamKind::Bool),
        AbiParamType::UInt { min, max, .. } => {
            quote!(isa_runtime::abi::ParamKind::Int { min: #min, max: #max })
        }
    };
    quote!(isa_runtime::abi::Param { name: #name, kind: #kind })
}

fn layout(t: &ir::Target, l: &ir::AbiLayout) -> TokenStream {
    let expr = |e: &AbiExpr| expr(&l.params, e);
    let ty = format_ident!("{}", camel(&l.name));
    let info = format_ident!("{}", upper(&l.name));
    let info_ty = format_ident!("{}Layout", camel(&l.name));
    let name = &l.name;
    let unit = match l.unit {
        Some(u) => {
            let u = format_ident!("{}", upper(&t.units[u.0].name));
            quote!(&#u)
        }
        None => quote!(&isa_runtime::abi::Unit::BIT),
    };
    let unit_name = l.unit.map_or("bit", |u| t.units[u.0].name.as_str());
    let pnames: Vec<_> = l.params.iter().map(|p| ident(&p.name)).collect();
    let ptypes: Vec<_> = l.params.iter().map(|p| param_type(p.ty)).collect();
    let pstatics: Vec<_> = l.params.iter().map(param_static).collect();
    let checks = l.params.iter().enumerate().filter_map(|(k, p)| {
        let v = ident(&p.name);
        match p.ty {
            AbiParamType::Bool => None,
            AbiParamType::UInt { .. } => {
                Some(quote!(isa_runtime::abi::check_param(#name, Self::PARAMS[#k], i64::from(#v))?;))
            }
        }
    });
    // Every expression reads the parameters as `i64` locals.
    let locals = quote!(#(let #pnames = i64::from(self.#pnames);)*);
    let size_u32 = as_u32(&l.params, &l.size);
    let mut accessors = TokenStream::new();
    let mut pushes = TokenStream::new();
    let (mut getters, mut setters, mut checks_view) =
        (TokenStream::new(), TokenStream::new(), TokenStream::new());
    for m in &l.members {
        let Some(mname) = &m.name else {
            pushes.extend(member_push(&l.params, m, "reserved"));
            continue;
        };
        pushes.extend(member_push(&l.params, m, mname));
        if m.reserved {
            continue;
        }
        let f = ident(mname);
        let d = doc(&m.doc);
        if let Some(v) = value_type(t, m) {
            let (g, st, c) = view_member(mname, m, &v);
            getters.extend(g);
            setters.extend(st);
            checks_view.extend(c);
        }
        let (offset, length) = (expr(&m.offset), expr(&m.length));
        let when = m.when.as_ref().map(|w| {
            let w = atom(&l.params, w);
            quote!(if #w == 0 { return None; })
        });
        match &m.count {
            Some(count) => {
                let count_fn = format_ident!("{}_count", mname);
                let count_u32 = as_u32(&l.params, count);
                let count_doc =
                    format!(" How many `{mname}` elements there are (0 when the member is absent).");
                let count_when = m.when.as_ref().map(|w| {
                    let w = atom(&l.params, w);
                    quote!(if #w == 0 { return 0; })
                });
                accessors.extend(quote! {
                    #[doc = #count_doc]
                    #[allow(unused_variables)]
                    pub fn #count_fn(&self) -> u32 {
                        #locals
                        #count_when
                        #count_u32
                    }
                    #d
                    #[doc = ""]
                    #[doc = " Element `i`: `None` past the last element."]
                    #[allow(unused_variables)]
                    pub fn #f(&self, i: u32) -> Option<isa_runtime::abi::Place> {
                        if i >= self.#count_fn() {
                            return None;
                        }
                        #locals
                        let i = i64::from(i);
                        Some(Self::place_of(#offset, #length))
                    }
                });
            }
            None if m.when.is_some() => accessors.extend(quote! {
                #d
                #[doc = ""]
                #[doc = " `None` when the member is absent for these parameters."]
                #[allow(unused_variables)]
                pub fn #f(&self) -> Option<isa_runtime::abi::Place> {
                    #locals
                    #when
                    Some(Self::place_of(#offset, #length))
                }
            }),
            None => accessors.extend(quote! {
                #d
                #[allow(unused_variables)]
                pub fn #f(&self) -> isa_runtime::abi::Place {
                    #locals
                    Self::place_of(#offset, #length)
                }
            }),
        }
    }
    let d = doc(&l.doc);
    let size_doc = format!(" The size in `{unit_name}` units.");
    let new_doc = " The layout for these parameters, or the first one out of its range.";
    let info_doc = format!(" `{name}` for tools: [`isa_runtime::abi::AbiLayout`].");
    // `place` checks integers against their ranges before narrowing them.
    let narrowed: Vec<TokenStream> = l
        .params
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let rust = param_type(p.ty);
            match p.ty {
                AbiParamType::Bool => quote!(values[#k] != 0),
                AbiParamType::UInt { .. } => quote!(#rust::try_from(values[#k]).unwrap_or(#rust::MAX)),
            }
        })
        .collect();
    let doc_text = &l.doc;
    let view_ty = format_ident!("{}View", camel(&l.name));
    let view_doc = doc(&format!(
        "The values of a `{name}` in a buffer of bytes (`{}::view`): a getter and a setter (`set_`) per member, and `check`.",
        camel(&l.name)
    ));
    quote! {
        #d
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct #ty {
            #(#pnames: #ptypes,)*
        }

        impl #ty {
            /// The layout's name in the spec.
            pub const NAME: &'static str = #name;
            /// Its parameters, in order.
            pub const PARAMS: &'static [isa_runtime::abi::Param] = &[#(#pstatics),*];
            /// What positions and sizes count in.
            pub const UNIT: &'static isa_runtime::abi::Unit = #unit;

            #[doc = #new_doc]
            pub fn new(#(#pnames: #ptypes),*) -> Result<Self, isa_runtime::abi::ParamError> {
                #(#checks)*
                Ok(#ty { #(#pnames),* })
            }

            #(
                #[doc = concat!(" The parameter `", stringify!(#pnames), "`.")]
                pub fn #pnames(&self) -> #ptypes {
                    self.#pnames
                }
            )*

            #[doc = #size_doc]
            #[allow(unused_variables)]
            pub fn size(&self) -> u32 {
                #locals
                #size_u32
            }

            /// The size in bits.
            pub fn size_bits(&self) -> u32 {
                self.size() * Self::UNIT.bits
            }

            /// `length` units from unit `offset`, in bits.
            fn place_of(offset: i64, length: i64) -> isa_runtime::abi::Place {
                let bits = i64::from(Self::UNIT.bits);
                isa_runtime::abi::Place { offset: (offset * bits) as u32, width: (length * bits) as u32 }
            }

            #accessors

            /// Every member present for these parameters (array elements one by one), in spec order.
            #[allow(unused_variables)]
            pub fn members(&self) -> Vec<isa_runtime::abi::Member> {
                let mut members = Vec::new();
                #locals
                #pushes
                members
            }
        }

        impl #ty {
            /// A view of the layout's values in `data`: byte `b` holds bits `8b` to `8b + 7`
            /// (unit `k` of a 16-bit unit is bytes `2k` and `2k + 1`, low byte first). A
            /// buffer shorter than the layout is refused.
            pub fn view<D: AsRef<[u8]>>(self, data: D) -> Result<#view_ty<D>, isa_runtime::abi::ViewError> {
                let needed = self.size_bits().div_ceil(8) as usize;
                let available = data.as_ref().len();
                if available < needed {
                    return Err(isa_runtime::abi::ViewError::TooShort { layout: #name, needed, available });
                }
                Ok(#view_ty { layout: self, data })
            }
        }

        #view_doc
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct #view_ty<D> {
            layout: #ty,
            data: D,
        }

        impl<D: AsRef<[u8]>> #view_ty<D> {
            /// The layout and its parameters.
            pub fn layout(&self) -> &#ty {
                &self.layout
            }

            /// The buffer.
            pub fn into_inner(self) -> D {
                self.data
            }

            // For the getters' and setters' errors: a layout of reserved members has none.
            #[allow(dead_code)]
            fn layout_name(&self) -> &'static str {
                #name
            }

            /// Checks the values: the buffer holds the layout, and every member's value fits
            /// its type (a member may be wider than its type, rounded up to whole units).
            #[allow(unused_variables)]
            pub fn check(&self) -> Result<(), isa_runtime::abi::ViewError> {
                let data = self.data.as_ref();
                let needed = self.layout.size_bits().div_ceil(8) as usize;
                if data.len() < needed {
                    return Err(isa_runtime::abi::ViewError::TooShort { layout: #name, needed, available: data.len() });
                }
                #checks_view
                Ok(())
            }

            #getters
        }

        impl<D: AsRef<[u8]> + AsMut<[u8]>> #view_ty<D> {
            /// Writes `value` into `place` after checking it fits `bits`.
            #[allow(dead_code)]
            fn put(&mut self, member: &str, place: isa_runtime::abi::Place, value: u128, bits: u32) -> Result<(), isa_runtime::abi::ViewError> {
                if !isa_runtime::abi::fits(value, bits) {
                    return Err(isa_runtime::abi::ViewError::TooWide { layout: #name, member: String::from(member), value, bits });
                }
                isa_runtime::abi::write_bits(self.data.as_mut(), place, value);
                Ok(())
            }

            #setters
        }

        #[doc = #info_doc]
        pub struct #info_ty;

        #[doc = #info_doc]
        pub static #info: #info_ty = #info_ty;

        impl isa_runtime::abi::AbiLayout for #info_ty {
            fn name(&self) -> &'static str {
                #name
            }
            fn doc(&self) -> &'static str {
                #doc_text
            }
            fn unit(&self) -> &'static isa_runtime::abi::Unit {
                #ty::UNIT
            }
            fn params(&self) -> &'static [isa_runtime::abi::Param] {
                #ty::PARAMS
            }
            fn place(&self, values: &[i64]) -> Result<isa_runtime::abi::Placed, isa_runtime::abi::ParamError> {
                for (k, param) in #ty::PARAMS.iter().enumerate() {
                    let Some(&value) = values.get(k) else {
                        return Err(isa_runtime::abi::ParamError::Missing { layout: #name, param: *param });
                    };
                    isa_runtime::abi::check_param(#name, *param, value)?;
                }
                let layout = #ty::new(#(#narrowed),*)?;
                Ok(isa_runtime::abi::Placed { size: layout.size_bits(), members: layout.members() })
            }
        }
    }
}

/// The Rust type a view reads a member as, and its type's width in bits: `bool`, or the
/// smallest unsigned integer holding the type (`uN`/`sN`, an enum, a number format or a data
/// layout as raw bits); `None` past 128 bits (such a member has places, no value accessors).
struct ValueType {
    rust: TokenStream,
    bits: u32,
    boolean: bool,
}

fn value_type(t: &ir::Target, m: &ir::AbiMember) -> Option<ValueType> {
    let name = m.type_name.as_deref()?;
    if name == "bool" {
        return Some(ValueType { rust: quote!(bool), bits: 1, boolean: true });
    }
    let int = name.strip_prefix('u').or_else(|| name.strip_prefix('s')).and_then(|d| d.parse::<u32>().ok());
    let bits = int
        .or_else(|| t.enums.iter().find(|e| e.name == name).map(|e| e.width))
        .or_else(|| t.numbers.iter().find(|n| n.name == name).map(|n| n.kind.width()))
        .or_else(|| t.layouts.iter().find(|l| l.name == name).map(|l| l.width))?;
    let rust = match bits {
        0..=8 => quote!(u8),
        9..=16 => quote!(u16),
        17..=32 => quote!(u32),
        33..=64 => quote!(u64),
        65..=128 => quote!(u128),
        _ => return None,
    };
    Some(ValueType { rust, bits, boolean: false })
}

/// A view's getter and setter of member `name`, and its part of `check`.
fn view_member(name: &str, m: &ir::AbiMember, v: &ValueType) -> (TokenStream, TokenStream, TokenStream) {
    let f = ident(name);
    let set = format_ident!("set_{}", name);
    let (rust, bits) = (&v.rust, v.bits);
    let read = if v.boolean {
        quote!(isa_runtime::abi::read_bits(self.data.as_ref(), p) != 0)
    } else {
        quote!(isa_runtime::abi::read_bits(self.data.as_ref(), p) as #rust)
    };
    let widen = if v.bits > 64 { quote!(value) } else { quote!(u128::from(value)) };
    let getter_doc = format!(" The value of `{name}`.");
    let setter_doc = format!(" Writes `{name}`.");
    let check_one = |label: TokenStream| {
        quote! {
            let value = isa_runtime::abi::read_bits(data, p);
            if !isa_runtime::abi::fits(value, #bits) {
                return Err(isa_runtime::abi::ViewError::TooWide { layout: self.layout_name(), member: #label, value, bits: #bits });
            }
        }
    };
    match (&m.count, &m.when) {
        (Some(_), _) => {
            let count_fn = format_ident!("{}_count", name);
            let check = check_one(quote!(format!("{}[{}]", #name, i)));
            (
                quote! {
                    #[doc = #getter_doc]
                    #[doc = ""]
                    #[doc = " Element `i`: `None` past the last element."]
                    pub fn #f(&self, i: u32) -> Option<#rust> {
                        let p = self.layout.#f(i)?;
                        Some(#read)
                    }
                },
                quote! {
                    #[doc = #setter_doc]
                    #[doc = ""]
                    #[doc = " Element `i`; an element past the last, or a value wider than the type, is an error."]
                    pub fn #set(&mut self, i: u32, value: #rust) -> Result<(), isa_runtime::abi::ViewError> {
                        let count = self.layout.#count_fn();
                        let p = self.layout.#f(i).ok_or(isa_runtime::abi::ViewError::NoElement {
                            layout: self.layout_name(), member: #name, index: i, count,
                        })?;
                        self.put(&format!("{}[{}]", #name, i), p, #widen, #bits)
                    }
                },
                quote! {
                    for i in 0..self.layout.#count_fn() {
                        if let Some(p) = self.layout.#f(i) {
                            #check
                        }
                    }
                },
            )
        }
        (None, Some(_)) => {
            let check = check_one(quote!(String::from(#name)));
            (
                quote! {
                    #[doc = #getter_doc]
                    #[doc = ""]
                    #[doc = " `None` when the member is absent for these parameters."]
                    pub fn #f(&self) -> Option<#rust> {
                        let p = self.layout.#f()?;
                        Some(#read)
                    }
                },
                quote! {
                    #[doc = #setter_doc]
                    #[doc = ""]
                    #[doc = " An absent member, or a value wider than the type, is an error."]
                    pub fn #set(&mut self, value: #rust) -> Result<(), isa_runtime::abi::ViewError> {
                        let p = self.layout.#f().ok_or(isa_runtime::abi::ViewError::Absent { layout: self.layout_name(), member: #name })?;
                        self.put(#name, p, #widen, #bits)
                    }
                },
                quote! {
                    if let Some(p) = self.layout.#f() {
                        #check
                    }
                },
            )
        }
        (None, None) => {
            let check = check_one(quote!(String::from(#name)));
            (
                quote! {
                    #[doc = #getter_doc]
                    pub fn #f(&self) -> #rust {
                        let p = self.layout.#f();
                        #read
                    }
                },
                quote! {
                    #[doc = #setter_doc]
                    #[doc = ""]
                    #[doc = " A value wider than the type is an error."]
                    pub fn #set(&mut self, value: #rust) -> Result<(), isa_runtime::abi::ViewError> {
                        let p = self.layout.#f();
                        self.put(#name, p, #widen, #bits)
                    }
                },
                quote! {
                    {
                        let p = self.layout.#f();
                        #check
                    }
                },
            )
        }
    }
}

/// Pushes a member's present elements onto `members` (inside `members()`).
fn member_push(params: &[ir::AbiParam], m: &ir::AbiMember, name: &str) -> TokenStream {
    let expr = |e: &AbiExpr| expr(params, e);
    let (offset, length) = (expr(&m.offset), expr(&m.length));
    let reserved = m.reserved;
    let body = match &m.count {
        Some(count) => {
            let count_atom = atom(params, count);
            quote! {
                for i in 0..#count_atom {
                    members.push(isa_runtime::abi::Member {
                        name: format!("{}[{}]", #name, i),
                        place: Self::place_of(#offset, #length),
                        reserved: #reserved,
                    });
                }
            }
        }
        None => quote! {
            members.push(isa_runtime::abi::Member {
                name: String::from(#name),
                place: Self::place_of(#offset, #length),
                reserved: #reserved,
            });
        },
    };
    match &m.when {
        Some(w) => {
            let w = atom(params, w);
            quote!(if #w != 0 { #body })
        }
        None => quote!({ #body }),
    }
}

/// A count or size as `u32` (the checker proved it is one for every parameter value).
fn as_u32(params: &[ir::AbiParam], e: &AbiExpr) -> TokenStream {
    match e.constant().and_then(|v| u32::try_from(v).ok()) {
        Some(v) => {
            let v = proc_macro2::Literal::u32_suffixed(v);
            quote!(#v)
        }
        None => {
            let e = atom(params, e);
            quote!(#e as u32)
        }
    }
}

/// An expression that an operator may follow (`as u32`, a range).
fn atom(params: &[ir::AbiParam], e: &AbiExpr) -> TokenStream {
    let (tokens, strength) = rust_expr(params, e);
    if strength < 8 {
        quote!((#tokens))
    } else {
        tokens
    }
}

/// An expression as `i64` Rust over the parameter locals and `i`, constants folded, with
/// parentheses only where Rust needs them.
fn expr(params: &[ir::AbiParam], e: &AbiExpr) -> TokenStream {
    rust_expr(params, e).0
}

/// The tokens and how tightly they bind: 0 an `if`, 1 a comparison, 2 `|`, 3 `^`, 4 `&`,
/// 5 shifts, 6 `+`/`-`, 7 `*`/`/`/`%`, 8 an atom.
fn rust_expr(params: &[ir::AbiParam], e: &AbiExpr) -> (TokenStream, u8) {
    if let Some(v) = e.constant() {
        let v = proc_macro2::Literal::i64_unsuffixed(v);
        return if v.to_string().starts_with('-') { (quote!((#v)), 8) } else { (quote!(#v), 8) };
    }
    let operand = |x: &AbiExpr, min: u8| {
        let (tokens, strength) = rust_expr(params, x);
        if strength < min {
            quote!((#tokens))
        } else {
            tokens
        }
    };
    // A truth value as a Rust `bool`.
    let truth = |x: &AbiExpr| {
        let x = operand(x, 2);
        quote!(#x != 0)
    };
    match e {
        AbiExpr::Int(v) => {
            let v = proc_macro2::Literal::i64_unsuffixed(*v);
            (quote!(#v), 8)
        }
        AbiExpr::Param(k) => {
            let name = ident(params.get(*k).map_or("_", |p| p.name.as_str()));
            (quote!(#name), 8)
        }
        AbiExpr::Index => (quote!(i), 8),
        AbiExpr::Not(a) => {
            let a = operand(a, 2);
            (quote!(i64::from(#a == 0)), 8)
        }
        AbiExpr::And(a, b) => {
            let (a, b) = (truth(a), truth(b));
            (quote!(i64::from(#a && #b)), 8)
        }
        AbiExpr::Or(a, b) => {
            let (a, b) = (truth(a), truth(b));
            (quote!(i64::from(#a || #b)), 8)
        }
        AbiExpr::Cmp(op, a, b) => {
            let (a, b) = (operand(a, 2), operand(b, 2));
            let op = super::validate::cmp_op(*op);
            (quote!(i64::from(#a #op #b)), 8)
        }
        AbiExpr::Arith(op, a, b) => {
            let (strength, op) = match op {
                ArithOp::BitOr => (2, quote!(|)),
                ArithOp::BitXor => (3, quote!(^)),
                ArithOp::BitAnd => (4, quote!(&)),
                ArithOp::Shl => (5, quote!(<<)),
                ArithOp::Shr => (5, quote!(>>)),
                ArithOp::Add => (6, quote!(+)),
                ArithOp::Sub => (6, quote!(-)),
                ArithOp::Mul => (7, quote!(*)),
                ArithOp::Div => (7, quote!(/)),
                ArithOp::Rem => (7, quote!(%)),
            };
            let (a, b) = (operand(a, strength), operand(b, strength + 1));
            (quote!(#a #op #b), strength)
        }
        AbiExpr::If(c, a, b) => {
            let (c, a, b) = (truth(c), expr(params, a), expr(params, b));
            (quote!(if #c { #a } else { #b }), 0)
        }
    }
}
