//! The interpreter skeleton: machine state, a `Semantics` trait with one method per
//! operation (bodies from the spec's semantics where it gives them) and the hooks, and a
//! `Machine` with the spec's functions, each format's `execute` block and a step/run loop.

use super::model::{doc, extract, Model};
use super::names::{camel, ident, method_part, snake};
use crate::ir::{
    self, ArithOp, BinOp, Builtin, CmpOp, ScalarType as T, SemBlock, SemExpr, SemKind, SemStmt, Type, UnOp,
    Values,
};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

fn ty(t: T) -> TokenStream {
    match t {
        T::Bool => quote!(bool),
        T::U32 => quote!(u32),
        T::I32 => quote!(i32),
        T::U64 => quote!(u64),
        T::F32 => quote!(f32),
        T::F64 => quote!(f64),
    }
}

struct Gen<'a> {
    m: &'a Model<'a>,
    sem: &'a ir::Semantics,
    /// The format whose fields `x` holds, in execute blocks.
    format: Option<&'a ir::Format>,
    /// Inside trait default methods: no machine state.
    pure: bool,
    /// The spec function being generated, to name it in traps.
    function: Option<&'a str>,
}

fn is_operation(e: &ir::Enum) -> bool {
    e.signature.as_ref().is_some_and(|(p, _)| !p.is_empty())
}

impl Gen<'_> {
    /// `acc = acc;` outside a SIMD machine does nothing, and Rust warns of a field assigned to
    /// itself: it is left out.
    fn no_op(&self, s: &SemStmt) -> bool {
        self.sem.elements.is_none()
            && matches!(s, SemStmt::Assign(si, None, v) if matches!(v.kind, SemKind::State(s, None) if s == *si))
    }

    fn block(&self, b: &SemBlock) -> TokenStream {
        let stmts = b.stmts.iter().filter(|s| !self.no_op(s)).map(|s| self.stmt(s));
        match &b.value {
            Some(v) => {
                let v = self.expr(v);
                quote!({ #(#stmts)* #v })
            }
            None => quote!({ #(#stmts)* }),
        }
    }

    fn stmt(&self, s: &SemStmt) -> TokenStream {
        match s {
            SemStmt::Let(n, t, e) => {
                let (n, t, e) = (self.local(n), ty(*t), self.expr(e));
                quote!(let #n: #t = #e;)
            }
            SemStmt::Assign(si, idx, e) => {
                let elem = &self.sem.state[*si];
                let name = ident(&elem.name);
                let e = self.expr(e);
                if self.sem.elements.is_none() {
                    return match idx {
                        None => quote!(self.state.#name = #e;),
                        Some(i) => {
                            let i = self.expr(i);
                            quote! {
                                let index = #i as usize;
                                let value = #e;
                                if let Some(slot) = self.state.#name.get_mut(index) {
                                    *slot = value;
                                }
                            }
                        }
                    };
                }
                // A SIMD machine: inside `each element` writes land in the pending state, so
                // every element reads the state as it was before the block.
                let index = idx.as_ref().map(|i| {
                    let i = self.expr(i);
                    quote!(let index = #i as usize;)
                });
                let place = match (idx.is_some(), elem.per_element) {
                    (false, false) => quote!(Some(&mut state.#name)),
                    (true, false) => quote!(state.#name.get_mut(index)),
                    (false, true) => quote!(state.#name.get_mut(element)),
                    (true, true) => quote!(state.#name.get_mut(index).and_then(|v| v.get_mut(element))),
                };
                let element = elem.per_element.then(|| quote!(let element = self.element;));
                quote! {
                    #index
                    let value = #e;
                    #element
                    let state = match self.lockstep.as_mut() { Some(pending) => pending, None => &mut self.state };
                    if let Some(slot) = #place {
                        *slot = value;
                    }
                }
            }
            SemStmt::EachElement(body) => {
                let body = self.block(body);
                let n = proc_macro2::Literal::usize_unsuffixed(self.sem.elements.unwrap_or(1) as usize);
                quote! {
                    let outermost = self.lockstep.is_none();
                    if outermost {
                        self.lockstep = Some(self.state.clone());
                    }
                    let saved = self.element;
                    for element in 0..#n {
                        self.element = element;
                        #body
                    }
                    self.element = saved;
                    if outermost {
                        if let Some(pending) = self.lockstep.take() {
                            self.state = pending;
                        }
                    }
                }
            }
            SemStmt::For { var, lo, hi, inclusive, body } => {
                // A range of constant bounds that holds no value runs nothing: no loop is
                // written (clippy's `reversed_empty_ranges` rejects `for k in 5..1`).
                if let (SemKind::Int(a), SemKind::Int(b)) = (&lo.kind, &hi.kind) {
                    if if *inclusive { a > b } else { a >= b } {
                        return quote!();
                    }
                }
                let (var, lo, hi, body) = (self.local(var), self.expr(lo), self.expr(hi), self.block(body));
                if *inclusive {
                    quote!(for #var in (#lo)..=(#hi) #body)
                } else {
                    quote!(for #var in (#lo)..(#hi) #body)
                }
            }
            SemStmt::If(c, a, b) => {
                let (bind, c) = self.condition(c);
                let a = self.block(a);
                // An `else` that does nothing (`else { }`, or a loop over an empty range) is
                // left out: clippy's `needless_else` rejects `else {}`.
                match b.as_ref().map(|b| self.block(b)).filter(|b| !is_empty_block(b)) {
                    Some(b) => quote!(#bind if #c #a else #b),
                    None => quote!(#bind if #c #a),
                }
            }
            // `unmodelled();` and `illegal();` as statements return the trap.
            SemStmt::Expr(SemExpr {
                kind: SemKind::Builtin(b @ (Builtin::Unmodelled | Builtin::Illegal), _),
                ..
            }) => {
                let trap = self.trap(*b);
                quote!(return Err(#trap);)
            }
            SemStmt::Expr(e) => {
                let e = self.expr(e);
                quote!(#e;)
            }
        }
    }

    /// The trap `unmodelled()` (or `illegal()`) stops with, naming the format or function.
    fn trap(&self, b: Builtin) -> TokenStream {
        let what = if b == Builtin::Illegal { "illegal" } else { "not modelled" };
        let label = match (self.format, self.function) {
            (Some(f), _) => format!("{}: {what}", f.name),
            (None, Some(name)) => format!("{name}: {what}"),
            (None, None) => what.to_string(),
        };
        if b == Builtin::Illegal {
            quote!(isa_runtime::interp::Trap::Illegal(#label))
        } else {
            quote!(isa_runtime::interp::Trap::Unimplemented(#label))
        }
    }

    /// A spec local. In an execute block `x` is the instruction, so locals there get a prefix
    /// no field access can collide with; elsewhere only names the generated code binds do.
    fn local(&self, name: &str) -> proc_macro2::Ident {
        match self.format {
            Some(_) => format_ident!("local_{}", name),
            None => spec_local(name),
        }
    }

    fn field(&self, id: ir::FieldId) -> TokenStream {
        let Some(f) = self.format else { return quote!(0u32) };
        let field = f.field(id);
        if let Some(v) = field.fixed {
            if field.ty == Type::Bool {
                let b = v != 0;
                return quote!(#b);
            }
            let v = proc_macro2::Literal::u32_suffixed(v as u32);
            return quote!(#v);
        }
        if field.view {
            // A view has no member: read its bits back from the encoded word.
            let bits = extract(&self.m.word_ty, &field.pieces);
            return match field.ty {
                Type::Bool => quote!(({ let word = x.to_word().unwrap_or_default(); #bits } != 0)),
                Type::UInt(_)
                | Type::SInt(_)
                | Type::Enum(_)
                | Type::Number(_)
                | Type::Layout(_)
                | Type::Switch { .. } => {
                    quote!(({ let word = x.to_word().unwrap_or_default(); #bits } as u32))
                }
            };
        }
        let id = self.m.field_ident(&field.name);
        if field.is_tag {
            return match field.ty {
                Type::Bool => quote!(x.#id()),
                Type::UInt(_)
                | Type::SInt(_)
                | Type::Enum(_)
                | Type::Number(_)
                | Type::Layout(_)
                | Type::Switch { .. } => quote!((x.#id() as u32)),
            };
        }
        match field.ty {
            Type::Bool => quote!(x.#id),
            Type::Enum(_) | Type::Switch { .. } => quote!((x.#id.bits() as u32)),
            Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Layout(_) => quote!((x.#id as u32)),
        }
    }

    /// Element `i` of an array field; past its end, 0 or `false` (never a panic).
    fn field_at(&self, id: ir::FieldId, i: &SemExpr) -> TokenStream {
        let Some(f) = self.format else { return quote!(0u32) };
        let field = f.field(id);
        let id = self.m.field_ident(&field.name);
        let i = self.expr(i);
        let get = quote!(x.#id.get(#i as usize));
        match field.ty {
            Type::Bool => quote!(#get.copied().unwrap_or(false)),
            Type::Enum(_) | Type::Switch { .. } => quote!(#get.map_or(0u32, |v| v.bits() as u32)),
            Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Layout(_) => {
                quote!(#get.map_or(0u32, |v| *v as u32))
            }
        }
    }

    fn expr(&self, e: &SemExpr) -> TokenStream {
        match &e.kind {
            SemKind::Int(v) => match e.ty {
                T::I32 => {
                    let l = proc_macro2::Literal::i32_suffixed(*v as i32);
                    quote!(#l)
                }
                T::U64 => {
                    let l = proc_macro2::Literal::u64_suffixed(*v as u64);
                    quote!(#l)
                }
                T::F32 => {
                    let l = proc_macro2::Literal::f32_suffixed(*v as f32);
                    quote!(#l)
                }
                T::F64 => {
                    let l = proc_macro2::Literal::f64_suffixed(*v as f64);
                    quote!(#l)
                }
                T::Bool => {
                    let b = *v != 0;
                    quote!(#b)
                }
                T::U32 => {
                    let l = proc_macro2::Literal::u32_suffixed(*v as u32);
                    quote!(#l)
                }
            },
            SemKind::Float(f) if e.ty == T::F64 => {
                let l = proc_macro2::Literal::f64_suffixed(*f);
                quote!(#l)
            }
            SemKind::Float(f) => {
                let l = proc_macro2::Literal::f32_suffixed(*f as f32);
                quote!(#l)
            }
            SemKind::Bool(b) => quote!(#b),
            SemKind::Local(n) => {
                let n = self.local(n);
                quote!(#n)
            }
            SemKind::VariantValue => quote!(v),
            SemKind::Field(fi) => self.field(*fi),
            SemKind::FieldAt(fi, i) => self.field_at(*fi, i),
            SemKind::State(si, idx) => {
                let elem = &self.sem.state[*si];
                let name = ident(&elem.name);
                match (idx, elem.per_element) {
                    (None, false) => quote!(self.state.#name),
                    // An index that calls the machine (`r[f(x)]`) is computed first: the
                    // call borrows the machine mutably, `get` the state.
                    (Some(i), false) if calls_machine(i) => {
                        let i = self.expr(i);
                        quote!({
                            let index = #i as usize;
                            self.state.#name.get(index).copied().unwrap_or_default()
                        })
                    }
                    (Some(i), false) => {
                        let i = self.expr(i);
                        quote!(self.state.#name.get(#i as usize).copied().unwrap_or_default())
                    }
                    (None, true) => quote!(self.state.#name.get(self.element).copied().unwrap_or_default()),
                    (Some(i), true) => {
                        let i = self.expr(i);
                        quote!({
                            let index = #i as usize;
                            self.state.#name.get(index).and_then(|v| v.get(self.element)).copied().unwrap_or_default()
                        })
                    }
                }
            }
            SemKind::Element => quote!((self.element as u32)),
            SemKind::Unary(op, x) => {
                let xs = self.expr(x);
                match (op, x.ty) {
                    (UnOp::Not, _) => quote!((!#xs)),
                    (UnOp::Neg, T::F32 | T::F64) => quote!((-#xs)),
                    (UnOp::Neg, _) => quote!(#xs.wrapping_neg()),
                }
            }
            SemKind::Binary(op, a, b) => self.binary(*op, a, b),
            SemKind::If(c, a, b) => {
                let (bind, c) = self.condition(c);
                let (a, b) = (self.expr(a), self.expr(b));
                match bind {
                    Some(bind) => quote!({ #bind if #c { #a } else { #b } }),
                    None => quote!((if #c { #a } else { #b })),
                }
            }
            SemKind::Match(s, arms) => {
                let (bind, s) = self.scrutinee(s);
                let pattern = |ranges: &[(u64, u64)]| {
                    let pats = ranges.iter().map(|(lo, hi)| {
                        let lo = proc_macro2::Literal::u32_unsuffixed(*lo as u32);
                        let hi = proc_macro2::Literal::u32_unsuffixed(*hi as u32);
                        if lo.to_string() == hi.to_string() {
                            quote!(#lo)
                        } else {
                            quote!(#lo..=#hi)
                        }
                    });
                    quote!(#(#pats)|*)
                };
                // `x in {set}`: a `true` arm and a `false` default.
                if let [(Some(ranges), yes), (None, no)] = arms.as_slice() {
                    let is = |b: &SemBlock, v: bool| {
                        b.stmts.is_empty()
                            && matches!(b.value.as_deref(), Some(SemExpr { kind: SemKind::Bool(x), .. }) if *x == v)
                    };
                    if is(yes, true) && is(no, false) {
                        let pats = pattern(ranges);
                        return match bind {
                            Some(bind) => quote!({ #bind matches!(#s, #pats) }),
                            None => quote!(matches!(#s, #pats)),
                        };
                    }
                }
                let mut has_default = false;
                let arms_ts: Vec<TokenStream> = arms
                    .iter()
                    .map(|(set, body)| {
                        let body = self.block(body);
                        match set {
                            None => {
                                has_default = true;
                                quote!(_ => #body)
                            }
                            Some(ranges) => {
                                let pats = pattern(ranges);
                                quote!(#pats => #body)
                            }
                        }
                    })
                    .collect();
                let default = if has_default { quote!() } else { quote!(_ => Default::default(),) };
                match bind {
                    Some(bind) => quote!({ #bind match #s { #(#arms_ts,)* #default } }),
                    None => quote!(match #s { #(#arms_ts,)* #default }),
                }
            }
            SemKind::Builtin(b, args) => self.builtin(*b, args),
            SemKind::Call(..) | SemKind::Op(..) => self.fallible_call(e, quote!(?)).unwrap_or_default(),
            SemKind::Hook(hi, args) => {
                let name = ident(&snake(&self.sem.hooks[*hi].name));
                self.call(quote!(self.semantics.#name), args, quote!())
            }
        }
    }

    /// A call of a spec function or an operation (which return a `Result`) followed by `suffix`:
    /// `?` inside an expression, nothing as the tail of a function returning the same `Result`;
    /// `None` for any other expression.
    fn fallible_call(&self, e: &SemExpr, suffix: TokenStream) -> Option<TokenStream> {
        match &e.kind {
            SemKind::Call(fi, args) => {
                let name = ident(&snake(&self.sem.functions[*fi].name));
                Some(self.call(quote!(self.#name), args, suffix))
            }
            SemKind::Op(en, sel, args) => {
                let name = format_ident!("apply_{}", snake(&camel(&self.m.t.enums[en.0].name)));
                let all: Vec<SemExpr> =
                    std::iter::once((**sel).clone()).chain(args.iter().cloned()).collect();
                Some(self.call(quote!(self.#name), &all, suffix))
            }
            _ => None,
        }
    }

    /// The condition of an `if`, bound first to `condition` where its Rust is a block (a call
    /// whose arguments call the machine, an element switch, a view's bits): a block in an `if`
    /// condition is what clippy's `blocks_in_conditions` rejects.
    fn condition(&self, c: &SemExpr) -> (Option<TokenStream>, TokenStream) {
        let c = self.expr(c);
        if !is_block(&c) {
            return (None, c);
        }
        (Some(quote!(let condition: bool = #c;)), quote!(condition))
    }

    /// The same for the value a `match` selects on (the lint covers `match` too).
    fn scrutinee(&self, s: &SemExpr) -> (Option<TokenStream>, TokenStream) {
        let t = ty(s.ty);
        let s = self.expr(s);
        if !is_block(&s) {
            return (None, s);
        }
        (Some(quote!(let scrutinee: #t = #s;)), quote!(scrutinee))
    }

    /// A call of a method of the machine. Arguments that call the machine themselves are
    /// evaluated first, into locals, so no argument borrows the machine during the call.
    fn call(&self, callee: TokenStream, args: &[SemExpr], suffix: TokenStream) -> TokenStream {
        if !args.iter().any(calls_machine) {
            let args = args.iter().map(|a| self.expr(a));
            return quote!(#callee(#(#args),*)#suffix);
        }
        let names: Vec<_> = (0..args.len()).map(|i| format_ident!("arg{i}")).collect();
        let lets = args.iter().zip(&names).map(|(a, n)| {
            let (t, e) = (ty(a.ty), self.expr(a));
            quote!(let #n: #t = #e;)
        });
        quote!({ #(#lets)* #callee(#(#names),*)#suffix })
    }

    fn binary(&self, op: BinOp, a: &SemExpr, b: &SemExpr) -> TokenStream {
        let (x, y) = (self.expr(a), self.expr(b));
        let float = matches!(a.ty, T::F32 | T::F64);
        match op {
            BinOp::And => quote!((#x && #y)),
            BinOp::Or => quote!((#x || #y)),
            BinOp::Cmp(CmpOp::Eq) => quote!((#x == #y)),
            BinOp::Cmp(CmpOp::Ne) => quote!((#x != #y)),
            BinOp::Cmp(CmpOp::Lt) => quote!((#x < #y)),
            BinOp::Cmp(CmpOp::Le) => quote!((#x <= #y)),
            BinOp::Cmp(CmpOp::Gt) => quote!((#x > #y)),
            BinOp::Cmp(CmpOp::Ge) => quote!((#x >= #y)),
            BinOp::Arith(ArithOp::Add) if float => quote!((#x + #y)),
            BinOp::Arith(ArithOp::Sub) if float => quote!((#x - #y)),
            BinOp::Arith(ArithOp::Mul) if float => quote!((#x * #y)),
            BinOp::Arith(ArithOp::Div) if float => quote!((#x / #y)),
            BinOp::Arith(ArithOp::Rem) if float => quote!((#x % #y)),
            BinOp::Arith(ArithOp::Add) => quote!(#x.wrapping_add(#y)),
            BinOp::Arith(ArithOp::Sub) => quote!(#x.wrapping_sub(#y)),
            BinOp::Arith(ArithOp::Mul) => quote!(#x.wrapping_mul(#y)),
            BinOp::Arith(ArithOp::Div) => quote!(#x.checked_div(#y).unwrap_or(0)),
            BinOp::Arith(ArithOp::Rem) => quote!(#x.checked_rem(#y).unwrap_or(0)),
            BinOp::Arith(ArithOp::BitAnd) => quote!((#x & #y)),
            BinOp::Arith(ArithOp::BitOr) => quote!((#x | #y)),
            BinOp::Arith(ArithOp::BitXor) => quote!((#x ^ #y)),
            BinOp::Arith(ArithOp::Shl) => quote!(#x.wrapping_shl(#y as u32)),
            BinOp::Arith(ArithOp::Shr) => quote!(#x.wrapping_shr(#y as u32)),
        }
    }

    fn builtin(&self, b: Builtin, args: &[SemExpr]) -> TokenStream {
        let xs: Vec<TokenStream> = args.iter().map(|a| self.expr(a)).collect();
        let t0 = args.first().map_or(T::U32, |a| a.ty);
        let a = xs.first().cloned().unwrap_or_else(|| quote!(0u32));
        let second = xs.get(1).cloned().unwrap_or_else(|| quote!(0u32));
        match b {
            Builtin::F32 => quote!(f32::from_bits(#a)),
            Builtin::Bits => quote!(#a.to_bits()),
            Builtin::F64 => quote!(f64::from_bits(#a)),
            Builtin::ToFloat64 if t0 == T::U64 => {
                let mode = xs.get(1).cloned().unwrap_or_else(|| quote!(isa_runtime::arith::NEAREST));
                let signed = xs.get(2).cloned().unwrap_or_else(|| quote!(false));
                quote!(isa_runtime::arith::f64_from_u64(#a, #mode, #signed))
            }
            // A u32, an i32 or an f32 is exact as a double.
            Builtin::ToFloat64 => quote!(f64::from(#a)),
            Builtin::ToInt64 => quote!(((#a as i64) as u64)),
            Builtin::ToUint64 => quote!((#a as u64)),
            Builtin::ToFloat => quote!((#a as f32)),
            Builtin::ToInt => quote!((#a as i32)),
            Builtin::U32 => quote!((#a as u32)),
            Builtin::I32 => quote!((#a as i32)),
            Builtin::U64 => quote!((#a as u64)),
            Builtin::Popc => quote!(#a.count_ones()),
            Builtin::Brev => quote!(#a.reverse_bits()),
            // Floats by IEEE 754-2019's minimumNumber/maximumNumber: `f32::min` leaves the sign
            // of a zero open, so the result could change with the optimisation level.
            Builtin::Min if matches!(t0, T::F32 | T::F64) => {
                quote!(isa_runtime::arith::min_number(#a, #second))
            }
            Builtin::Max if matches!(t0, T::F32 | T::F64) => {
                quote!(isa_runtime::arith::max_number(#a, #second))
            }
            Builtin::Min => quote!(#a.min(#second)),
            Builtin::Max => quote!(#a.max(#second)),
            Builtin::Abs => match t0 {
                T::F32 | T::F64 => quote!(#a.abs()),
                T::I32 => quote!(#a.wrapping_abs()),
                T::Bool | T::U32 | T::U64 => a,
            },
            Builtin::Clamp => {
                let hi = xs.get(2).cloned().unwrap_or_else(|| quote!(0u32));
                if matches!(t0, T::F32 | T::F64) {
                    quote!(isa_runtime::arith::min_number(isa_runtime::arith::max_number(#a, #second), #hi))
                } else {
                    quote!(#a.max(#second).min(#hi))
                }
            }
            Builtin::Clz => quote!(#a.leading_zeros()),
            Builtin::RotR => quote!(#a.rotate_right(#second)),
            Builtin::InElement => {
                let n = proc_macro2::Literal::usize_unsuffixed(self.sem.elements.unwrap_or(1) as usize);
                quote!({
                    let index = (#a as usize) % #n;
                    let saved = self.element;
                    self.element = index;
                    let value = #second;
                    self.element = saved;
                    value
                })
            }
            Builtin::All | Builtin::Any => {
                let n = proc_macro2::Literal::usize_unsuffixed(self.sem.elements.unwrap_or(1) as usize);
                let (start, combine) = match b {
                    Builtin::All => (quote!(true), quote!(&&)),
                    _ => (quote!(false), quote!(||)),
                };
                quote!({
                    let saved = self.element;
                    let mut result = #start;
                    for element in 0..#n {
                        self.element = element;
                        let holds = #a;
                        result = result #combine holds;
                    }
                    self.element = saved;
                    result
                })
            }
            Builtin::Fma => {
                let c = xs.get(2).cloned().unwrap_or_else(|| quote!(0.0f32));
                let mode = xs.get(3).cloned().unwrap_or_else(|| quote!(isa_runtime::arith::NEAREST));
                let f = if t0 == T::F64 { quote!(fma64) } else { quote!(fma) };
                quote!(isa_runtime::arith::#f(#a, #second, #c, #mode))
            }
            Builtin::FAdd | Builtin::FMul => {
                let mode = xs.get(2).cloned().unwrap_or_else(|| quote!(isa_runtime::arith::NEAREST));
                let f = match (b == Builtin::FAdd, t0 == T::F64) {
                    (true, false) => quote!(add),
                    (false, false) => quote!(mul),
                    (true, true) => quote!(add64),
                    (false, true) => quote!(mul64),
                };
                quote!(isa_runtime::arith::#f(#a, #second, #mode))
            }
            Builtin::ToFloatRounded if t0 == T::F64 => quote!(isa_runtime::arith::f64_to_f32(#a, #second)),
            Builtin::ToFloatRounded if args.len() == 3 => {
                let signed = xs.get(2).cloned().unwrap_or_else(|| quote!(false));
                quote!(isa_runtime::arith::f32_from_u64(#a, #second, #signed))
            }
            Builtin::ToFloatRounded if t0 == T::U64 => quote!(isa_runtime::arith::from_u64(#a, #second)),
            Builtin::ToFloatRounded => quote!(isa_runtime::arith::from_int(#a as i64, #second)),
            Builtin::RoundInt if t0 == T::F64 => quote!(isa_runtime::arith::round_int64(#a, #second)),
            Builtin::RoundInt => quote!(isa_runtime::arith::round_int(#a, #second)),
            Builtin::ToUint => quote!((#a as u32)),
            Builtin::Ftz => quote!(isa_runtime::arith::flush_subnormal(#a)),
            Builtin::F16 => quote!(isa_runtime::arith::f16_to_f32(#a)),
            Builtin::Bits16 if args.len() == 2 => quote!(isa_runtime::arith::f32_to_f16_rounded(#a, #second)),
            Builtin::Bits16 => quote!(isa_runtime::arith::f32_to_f16(#a)),
            Builtin::Sqrt => quote!(isa_runtime::arith::sqrt(#a)),
            Builtin::Exp2 => quote!(isa_runtime::arith::exp2(#a)),
            Builtin::Log2 => quote!(isa_runtime::arith::log2(#a)),
            Builtin::Sin => quote!(isa_runtime::arith::sin(#a)),
            Builtin::Cos => quote!(isa_runtime::arith::cos(#a)),
            Builtin::BytesAddSat => quote!(isa_runtime::arith::bytes_add_sat(#a, #second)),
            Builtin::BytesSubSat => quote!(isa_runtime::arith::bytes_sub_sat(#a, #second)),
            Builtin::BytesMin => quote!(isa_runtime::arith::bytes_min(#a, #second)),
            Builtin::BytesMax => quote!(isa_runtime::arith::bytes_max(#a, #second)),
            Builtin::BytesMul => quote!(isa_runtime::arith::bytes_mul(#a, #second)),
            Builtin::Prmt => {
                let sel = xs.get(2).cloned().unwrap_or_else(|| quote!(0u32));
                quote!(isa_runtime::arith::prmt(#a, #second, #sel))
            }
            Builtin::Bfe
            | Builtin::Bfi
            | Builtin::Sext
            | Builtin::Shl
            | Builtin::Shr
            | Builtin::Asr
            | Builtin::Lut3
            | Builtin::Bfind
            | Builtin::UaddOverflows
            | Builtin::SaddOverflows
            | Builtin::UaddSat
            | Builtin::SaddSat => int_builtin(b, args, &xs),
            // As a value (`let hi = unmodelled()`, an argument), a `u32` that is never there:
            // `?` on an `Err` leaves with the trap where a `return` inside an expression would be
            // clippy's `diverging_sub_expression`.
            Builtin::Unmodelled | Builtin::Illegal => {
                let trap = self.trap(b);
                quote!(Err::<u32, isa_runtime::interp::Trap>(#trap)?)
            }
        }
    }
}

/// The integer builtins of `isa_runtime::arith`, which take `u64` values and the width: a `u32`
/// value is widened for the call and its result narrowed back.
fn int_builtin(b: Builtin, args: &[SemExpr], xs: &[TokenStream]) -> TokenStream {
    let narrow = args.first().is_some_and(|a| a.ty == T::U32);
    let width = proc_macro2::Literal::u32_unsuffixed(if narrow { 32 } else { 64 });
    let wide = |i: usize| {
        let x = xs.get(i).cloned().unwrap_or_else(|| quote!(0));
        if narrow {
            quote!((#x as u64))
        } else {
            x
        }
    };
    let arg = |i: usize, default: TokenStream| xs.get(i).cloned().unwrap_or(default);
    let f = quote!(isa_runtime::arith);
    let value = match b {
        Builtin::Bfe => {
            let (x, pos, len, signed) =
                (wide(0), arg(1, quote!(0)), arg(2, quote!(0)), arg(3, quote!(false)));
            quote!(#f::bfe(#x, #width, #pos, #len, #signed))
        }
        Builtin::Bfi => {
            let (x, base, pos, len) = (wide(0), wide(1), arg(2, quote!(0)), arg(3, quote!(0)));
            quote!(#f::bfi(#x, #base, #width, #pos, #len))
        }
        Builtin::Sext | Builtin::Shl | Builtin::Shr | Builtin::Asr => {
            let name = match b {
                Builtin::Sext => quote!(sext),
                Builtin::Shl => quote!(shl),
                Builtin::Shr => quote!(shr),
                _ => quote!(asr),
            };
            let (x, n) = (wide(0), arg(1, quote!(0)));
            quote!(#f::#name(#x, #width, #n))
        }
        Builtin::Lut3 => {
            let (x, y, z, lut) = (wide(0), wide(1), wide(2), arg(3, quote!(0)));
            quote!(#f::lut3(#x, #y, #z, #width, #lut))
        }
        Builtin::Bfind => {
            let (x, signed, shift) = (wide(0), arg(1, quote!(false)), arg(2, quote!(false)));
            return quote!(#f::bfind(#x, #width, #signed, #shift));
        }
        _ => {
            let name = match b {
                Builtin::UaddOverflows => quote!(uadd_overflows),
                Builtin::SaddOverflows => quote!(sadd_overflows),
                Builtin::UaddSat => quote!(uadd_sat),
                _ => quote!(sadd_sat),
            };
            let (x, y, carry) = (wide(0), wide(1), arg(2, quote!(false)));
            quote!(#f::#name(#x, #y, #width, #carry))
        }
    };
    if narrow && !matches!(b, Builtin::UaddOverflows | Builtin::SaddOverflows) {
        quote!((#value as u32))
    } else {
        value
    }
}

/// The Rust name of a spec parameter or local outside execute blocks: its own, unless the
/// generated code binds that name around spec expressions (the temporaries of state writes,
/// argument lists and SIMD loops), or it starts with the prefix renamed ones get.
fn spec_local(name: &str) -> proc_macro2::Ident {
    const BOUND: &[&str] = &[
        "index",
        "value",
        "state",
        "element",
        "saved",
        "result",
        "holds",
        "outermost",
        "pending",
        "x",
        "v",
        "sel",
        "condition",
        "scrutinee",
    ];
    let numbered_arg =
        name.strip_prefix("arg").is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    if BOUND.contains(&name) || numbered_arg || name.starts_with("local_") {
        format_ident!("local_{}", name)
    } else {
        ident(name)
    }
}

/// Whether generated Rust is an empty block, `{}`.
fn is_empty_block(ts: &TokenStream) -> bool {
    use proc_macro2::{Delimiter, TokenTree};
    let mut trees = ts.clone().into_iter();
    match (trees.next(), trees.next()) {
        (Some(TokenTree::Group(g)), None) => g.delimiter() == Delimiter::Brace && g.stream().is_empty(),
        _ => false,
    }
}

/// Whether generated Rust is one block (`{ let arg0 = …; f(arg0) }`).
/// Parentheses do not count: `if ({ … }) {` is the same block to clippy.
fn is_block(ts: &TokenStream) -> bool {
    use proc_macro2::{Delimiter, TokenTree};
    let mut trees = ts.clone().into_iter();
    match (trees.next(), trees.next()) {
        (Some(TokenTree::Group(g)), None) => match g.delimiter() {
            Delimiter::Brace => true,
            Delimiter::Parenthesis => is_block(&g.stream()),
            _ => false,
        },
        _ => false,
    }
}

/// Whether a block can stop at `unmodelled()`, leaving code after it unreachable.
fn block_traps(b: &SemBlock) -> bool {
    b.stmts.iter().any(|s| match s {
        SemStmt::Let(_, _, e) | SemStmt::Expr(e) => traps(e),
        SemStmt::Assign(_, i, e) => i.as_ref().is_some_and(traps) || traps(e),
        SemStmt::If(c, a, b) => traps(c) || block_traps(a) || b.as_ref().is_some_and(block_traps),
        SemStmt::EachElement(body) => block_traps(body),
        SemStmt::For { lo, hi, body, .. } => traps(lo) || traps(hi) || block_traps(body),
    }) || b.value.as_deref().is_some_and(traps)
}

fn traps(e: &SemExpr) -> bool {
    match &e.kind {
        SemKind::Builtin(Builtin::Unmodelled | Builtin::Illegal, _) => true,
        SemKind::Builtin(_, xs) | SemKind::Call(_, xs) | SemKind::Hook(_, xs) => xs.iter().any(traps),
        SemKind::Op(_, sel, xs) => traps(sel) || xs.iter().any(traps),
        SemKind::Unary(_, x) => traps(x),
        SemKind::Binary(_, a, b) => traps(a) || traps(b),
        SemKind::If(c, a, b) => traps(c) || traps(a) || traps(b),
        SemKind::Match(s, arms) => traps(s) || arms.iter().any(|(_, b)| block_traps(b)),
        SemKind::State(_, i) => i.as_deref().is_some_and(traps),
        SemKind::FieldAt(_, i) => traps(i),
        SemKind::Int(_)
        | SemKind::Float(_)
        | SemKind::Bool(_)
        | SemKind::Local(_)
        | SemKind::Field(_)
        | SemKind::VariantValue
        | SemKind::Element => false,
    }
}

/// Whether evaluating `e` calls a method of the machine (a function, hook or operation).
fn calls_machine(e: &SemExpr) -> bool {
    match &e.kind {
        SemKind::Call(..) | SemKind::Hook(..) | SemKind::Op(..) => true,
        SemKind::Unary(_, x) => calls_machine(x),
        SemKind::Binary(_, a, b) => calls_machine(a) || calls_machine(b),
        SemKind::If(c, a, b) => calls_machine(c) || calls_machine(a) || calls_machine(b),
        // The SIMD builtins switch the executing element.
        SemKind::Builtin(Builtin::InElement | Builtin::All | Builtin::Any, _) => true,
        SemKind::Builtin(_, xs) => xs.iter().any(calls_machine),
        SemKind::State(_, Some(i)) | SemKind::FieldAt(_, i) => calls_machine(i),
        SemKind::Match(..) => true,
        SemKind::Int(_)
        | SemKind::Float(_)
        | SemKind::Bool(_)
        | SemKind::Local(_)
        | SemKind::Field(_)
        | SemKind::State(_, None)
        | SemKind::VariantValue
        | SemKind::Element => false,
    }
}

pub fn generate(m: &Model) -> TokenStream {
    let t = m.t;
    let Some(sem) = &t.semantics else { return TokenStream::new() };
    let g = Gen { m, sem, format: None, pure: false, function: None };
    let _ = g.pure;
    // State.
    // Per-element state is one value per SIMD element: `[T; elements]`, inside any array.
    let elements = sem.elements.map(proc_macro2::Literal::u32_unsuffixed);
    let value_ty = |s: &ir::StateElem| {
        let t = ty(s.ty);
        match (&elements, s.per_element) {
            (Some(n), true) => quote!([#t; #n]),
            _ => t,
        }
    };
    let value_default = |s: &ir::StateElem| match (&elements, s.per_element) {
        (Some(n), true) => quote!([Default::default(); #n]),
        _ => quote!(Default::default()),
    };
    let fields = sem.state.iter().map(|s| {
        let (n, st) = (ident(&s.name), value_ty(s));
        let doc = doc(if s.doc.is_empty() { "State element." } else { &s.doc });
        match s.count {
            Some(c) => {
                let c = proc_macro2::Literal::u32_unsuffixed(c);
                quote!(#doc pub #n: [#st; #c])
            }
            None => quote!(#doc pub #n: #st),
        }
    });
    // `Default` by hand: arrays longer than 32 have no derived one (a register file of 255).
    let defaults = sem.state.iter().map(|s| {
        let (n, v) = (ident(&s.name), value_default(s));
        match s.count {
            Some(c) => {
                let c = proc_macro2::Literal::u32_unsuffixed(c);
                quote!(#n: [#v; #c])
            }
            None => quote!(#n: #v),
        }
    });
    let has = |name: &str| sem.state.iter().any(|s| s.name == name);
    // Semantics trait: hooks, then one method per operation.
    let hooks = sem.hooks.iter().map(|h| {
        let name = ident(&snake(&h.name));
        // A declaration without a body: its parameter names cannot collide.
        let params = h.params.iter().map(|(n, t)| {
            let (n, t) = (ident(n), ty(*t));
            quote!(#n: #t)
        });
        let doc = doc(&format!("Hook `{}`: {}", h.name, h.doc));
        match h.ret {
            Some(r) => {
                let r = ty(r);
                quote!(#doc fn #name(&mut self, #(#params),*) -> #r;)
            }
            None => quote!(#doc fn #name(&mut self, #(#params),*);),
        }
    });
    let mut ops = TokenStream::new();
    let mut dispatch = TokenStream::new();
    for (ei, e) in t.enums.iter().enumerate() {
        let Some((params, ret)) = &e.signature else { continue };
        let ret_t = ty(ret.unwrap_or(T::U32));
        let dname = format_ident!("{}", snake(&camel(&e.name)));
        let apply = format_ident!("apply_{}", dname);
        let ename = &e.name;
        let param_ts: Vec<TokenStream> = params
            .iter()
            .map(|(n, t)| {
                let (n, t) = (spec_local(n), ty(*t));
                quote!(#n: #t)
            })
            .collect();
        let param_names: Vec<_> = params.iter().map(|(n, _)| spec_local(n)).collect();
        let mut arms = Vec::new();
        for (vi, v) in e.variants.iter().enumerate() {
            let ranged = !matches!(v.values, Values::One(_));
            let pat = match &v.values {
                Values::One(x) => {
                    let x = proc_macro2::Literal::u32_unsuffixed(*x as u32);
                    quote!(#x)
                }
                Values::Range(lo, hi) => {
                    let (lo, hi) = (
                        proc_macro2::Literal::u32_unsuffixed(*lo as u32),
                        proc_macro2::Literal::u32_unsuffixed(*hi as u32),
                    );
                    quote!(#lo..=#hi)
                }
                Values::Rest => quote!(_),
            };
            let _ = vi;
            if is_operation(e) {
                let mname = format_ident!("{}_{}", dname, method_part(&v.name));
                let label = format!("{}::{}", e.name, v.name);
                let vparam = if ranged { quote!(v: u32,) } else { quote!() };
                let varg = if ranged { quote!(sel,) } else { quote!() };
                let body = match &v.semantics {
                    Some(s) => {
                        let gp = Gen { m, sem, format: None, pure: true, function: None };
                        let x = gp.expr(s);
                        quote!(Ok(#x))
                    }
                    None => quote!(Err(isa_runtime::interp::Trap::Unimplemented(#label))),
                };
                let doc = doc(&format!(
                    "`{}` of `{ename}`{}",
                    v.name,
                    if v.doc.is_empty() { String::new() } else { format!(": {}", v.doc) }
                ));
                ops.extend(quote! {
                    #doc
                    fn #mname(&mut self, #vparam #(#param_ts),*) -> Result<#ret_t, isa_runtime::interp::Trap> {
                        #body
                    }
                });
                arms.push(quote!(#pat => self.semantics.#mname(#varg #(#param_names),*)));
            } else {
                let label = format!("{}::{}", e.name, v.name);
                let body = match &v.semantics {
                    Some(s) => {
                        let x = g.expr(s);
                        quote!({ let v = sel; let _ = v; Ok(#x) })
                    }
                    None => quote!(Err(isa_runtime::interp::Trap::Unimplemented(#label))),
                };
                arms.push(quote!(#pat => #body));
            }
        }
        let label = format!("{}: undefined value", e.name);
        let _ = ei;
        let doc = format!(" Applies the semantics of the `{ename}` value `sel`.");
        dispatch.extend(quote! {
            #[doc = #doc]
            #[allow(unused_variables, clippy::match_overlapping_arm)]
            pub fn #apply(&mut self, sel: u32, #(#param_ts),*) -> Result<#ret_t, isa_runtime::interp::Trap> {
                match sel {
                    #(#arms,)*
                    _ => Err(isa_runtime::interp::Trap::Unimplemented(#label)),
                }
            }
        });
    }
    // Spec functions.
    let mut funcs = TokenStream::new();
    let mut step_fn = quote!();
    for f in &sem.functions {
        let name = ident(&snake(&f.name));
        let params = f.params.iter().map(|(n, t)| {
            let (n, t) = (spec_local(n), ty(*t));
            quote!(#n: #t)
        });
        let ret = ty(f.ret.unwrap_or(T::Bool));
        // A body that is one expression is returned as it is (no braces around it).
        let gf = Gen { function: Some(&f.name), ..Gen { m, sem, format: None, pure: false, function: None } };
        // Statements that write nothing (`acc = acc;`, a loop over `0..0`) leave none either.
        let nothing = f.body.stmts.iter().all(|s| gf.no_op(s) || gf.stmt(s).is_empty());
        let body = match (&f.body.value, nothing) {
            (Some(v), true) => gf.expr(v),
            _ => gf.block(&f.body),
        };
        let doc = format!(
            " Spec function `{}`{}",
            f.name,
            if f.doc.is_empty() { String::new() } else { format!(": {}", f.doc) }
        );
        // Code after an `unmodelled()` trap is unreachable by design.
        let unreachable = block_traps(&f.body).then(|| quote!(#[allow(unreachable_code)]));
        // A body that is one call of a function or an operation returns that call's own result:
        // `Ok(call?)` is what clippy's `needless_question_mark` rejects.
        let tail = match (&f.body.value, nothing) {
            (Some(v), true) => gf.fallible_call(v, quote!()),
            _ => None,
        };
        let (ret_ty, tail) = match f.ret {
            Some(_) => {
                (quote!(Result<#ret, isa_runtime::interp::Trap>), tail.unwrap_or_else(|| quote!(Ok(#body))))
            }
            None => (quote!(Result<(), isa_runtime::interp::Trap>), quote!(#body Ok(()))),
        };
        funcs.extend(quote! {
            #[doc = #doc]
            #[allow(unused_parens, unused_variables, clippy::unnecessary_cast, clippy::match_overlapping_arm)]
            #unreachable
            pub fn #name(&mut self, #(#params),*) -> #ret_ty {
                #tail
            }
        });
        if f.name == "step" && f.params.is_empty() {
            step_fn = quote!(self.step()?;);
        }
    }
    // Execute blocks.
    let mut exec_fns = TokenStream::new();
    let mut exec_arms = Vec::new();
    for (fi, f) in t.formats.iter().enumerate() {
        let n = m.format_ident(fi);
        let Some(b) = &f.execute else {
            let label = format!("format `{}` has no execute block", f.name);
            exec_arms
                .push(quote!(Instruction::#n(_) => Err(isa_runtime::interp::Trap::Unimplemented(#label))));
            continue;
        };
        let gf = Gen { m, sem, format: Some(f), pure: false, function: None };
        let body = gf.block(b);
        let unreachable = block_traps(b).then(|| quote!(#[allow(unreachable_code)]));
        let fname = format_ident!("execute_{}", snake(&f.name));
        let doc = format!(" Executes a `{}` instruction.", f.name);
        exec_fns.extend(quote! {
            #[doc = #doc]
            #[allow(unused_parens, unused_variables, clippy::unnecessary_cast)]
            #unreachable
            pub fn #fname(&mut self, x: &#n) -> Result<(), isa_runtime::interp::Trap> {
                #body
                Ok(())
            }
        });
        exec_arms.push(quote!(Instruction::#n(x) => self.#fname(x)));
    }
    let target = format_ident!("{}", super::names::camel(&t.name));
    let step_loop = if has("pc") {
        let done_check = if has("done") { quote!(self.state.done ||) } else { quote!() };
        let run_doc = quote! {
            /// Runs until the program halts; returns the number of instructions executed.
            /// Executing more than `max_steps` instructions is a `StepLimit` trap.
        };
        if t.variable_length() {
            // A byte stream: the instructions' addresses are worked out once per run (a
            // binary search finds the one at `pc`), not by walking the program every step.
            quote! {
                /// Whether the program has ended (the spec's `done`), or `pc` is just past its
                /// last instruction.
                pub fn halted(&self, program: &[Instruction]) -> bool {
                    #done_check self.state.pc as u64 == isa_runtime::interp::stream_end::<#target>(program)
                }

                fn halted_at(&self, addresses: &isa_runtime::interp::Addresses) -> bool {
                    #done_check self.state.pc as u64 == addresses.end()
                }

                /// Executes the instruction at `pc` (unless the program has halted), advances `pc`
                /// and runs the spec's `step`. Returns false once the program has halted. It
                /// works out the program's addresses: to step through a program, make them once
                /// and call [`Self::step_program_at`].
                pub fn step_program(&mut self, program: &[Instruction]) -> Result<bool, isa_runtime::interp::Trap> {
                    let addresses = isa_runtime::interp::Addresses::of::<#target>(program);
                    self.step_program_at(program, &addresses)
                }

                /// [`Self::step_program`] with the program's addresses
                /// (`Addresses::of(program)`) made by the caller.
                pub fn step_program_at(
                    &mut self,
                    program: &[Instruction],
                    addresses: &isa_runtime::interp::Addresses,
                ) -> Result<bool, isa_runtime::interp::Trap> {
                    if self.halted_at(addresses) {
                        return Ok(false);
                    }
                    let pc = self.state.pc;
                    let out = || isa_runtime::interp::Trap::PcOutOfRange(pc as u64);
                    let index = addresses.index(pc as u64).ok_or_else(out)?;
                    let insn = *program.get(index).ok_or_else(out)?;
                    let next = addresses.start(index + 1).ok_or_else(out)?;
                    self.execute(&insn)?;
                    if self.state.pc == pc {
                        self.state.pc = next as _;
                    }
                    #step_fn
                    Ok(!self.halted_at(addresses))
                }

                #run_doc
                pub fn run(&mut self, program: &[Instruction], max_steps: u64) -> Result<u64, isa_runtime::interp::Trap> {
                    let addresses = isa_runtime::interp::Addresses::of::<#target>(program);
                    let mut executed = 0u64;
                    while !self.halted_at(&addresses) {
                        if executed == max_steps {
                            return Err(isa_runtime::interp::Trap::StepLimit);
                        }
                        self.step_program_at(program, &addresses)?;
                        executed += 1;
                    }
                    Ok(executed)
                }
            }
        } else {
            quote! {
                /// Whether the program has ended (the spec's `done`), or `pc` is just past its
                /// last instruction.
                pub fn halted(&self, program: &[Instruction]) -> bool {
                    #done_check isa_runtime::bundle::index::<#target>(self.state.pc as u64) == program.len()
                }

                /// Executes the instruction at `pc` (unless the program has halted), advances `pc`
                /// and runs the spec's `step`. Returns false once the program has halted.
                pub fn step_program(&mut self, program: &[Instruction]) -> Result<bool, isa_runtime::interp::Trap> {
                    if self.halted(program) {
                        return Ok(false);
                    }
                    let pc = self.state.pc;
                    let index = isa_runtime::bundle::index::<#target>(pc as u64);
                    let insn = *program.get(index).ok_or(isa_runtime::interp::Trap::PcOutOfRange(pc as u64))?;
                    self.execute(&insn)?;
                    // The next instruction's address (past a control word, where the target has them).
                    if self.state.pc == pc {
                        self.state.pc = isa_runtime::bundle::address::<#target>(index + 1) as _;
                    }
                    #step_fn
                    Ok(!self.halted(program))
                }

                #run_doc
                pub fn run(&mut self, program: &[Instruction], max_steps: u64) -> Result<u64, isa_runtime::interp::Trap> {
                    let mut executed = 0u64;
                    while !self.halted(program) {
                        if executed == max_steps {
                            return Err(isa_runtime::interp::Trap::StepLimit);
                        }
                        self.step_program(program)?;
                        executed += 1;
                    }
                    Ok(executed)
                }
            }
        }
    } else {
        quote!()
    };
    let exec_match = quote!(match insn { #(#exec_arms,)* });
    // A SIMD machine: the executing element, and the state writes of `each element` pending
    // until every element has run (a trap inside leaves none behind for the next instruction).
    let (simd_fields, simd_reset, simd_new) = if sem.elements.is_some() {
        (
            quote! {
                /// The SIMD element executing (inside `each element`, `in_element`, `all`, `any`).
                element: usize,
                /// The state `each element` writes to while its elements read `state`.
                lockstep: Option<State>,
            },
            quote! {
                self.element = 0;
                self.lockstep = None;
            },
            quote!(element: 0, lockstep: None),
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    quote! {
        /// Machine state.
        #[derive(Debug, Clone, PartialEq)]
        pub struct State {
            #(#fields,)*
        }

        #[allow(clippy::derivable_impls)]
        impl Default for State {
            fn default() -> Self {
                State { #(#defaults,)* }
            }
        }

        /// The embedder's side of the interpreter: the hooks (I/O the spec leaves to Rust) and
        /// one method per operation, whose default bodies come from the spec's semantics.
        // Float semantics test NaN as `a == a` and ordered inequality as `a < b || a > b`, which
        // clippy would rewrite to forms that differ on NaN (and `!(a >= b)` is "less or unordered").
        // A spec may compare a value with a bound its type always meets (`r[3] >= 0` of a `u32`).
        #[allow(unused_variables, unused_parens, unused_comparisons, clippy::unnecessary_cast, clippy::double_parens, clippy::manual_clamp, clippy::eq_op, clippy::double_comparisons, clippy::nonminimal_bool, clippy::neg_cmp_op_on_partial_ord, clippy::too_many_arguments, clippy::absurd_extreme_comparisons)]
        pub trait Semantics {
            #(#hooks)*
            #ops
        }

        /// An interpreter: state plus the embedder's semantics.
        #[derive(Debug, Clone, Default)]
        pub struct Machine<S: Semantics> {
            /// The machine state.
            pub state: State,
            /// The embedder's hooks and operations.
            pub semantics: S,
            #simd_fields
        }

        #[allow(unused_parens, unused_comparisons, clippy::absurd_extreme_comparisons, clippy::unnecessary_cast, clippy::collapsible_match, clippy::collapsible_if, clippy::manual_clamp, clippy::too_many_arguments, clippy::redundant_locals, clippy::manual_range_patterns, clippy::needless_parens_on_range_literals, clippy::let_and_return, clippy::double_parens, clippy::unnecessary_map_or, clippy::collapsible_else_if, clippy::identity_op, clippy::eq_op, clippy::double_comparisons, clippy::nonminimal_bool, clippy::neg_cmp_op_on_partial_ord)]
        impl<S: Semantics> Machine<S> {
            /// A machine in the default state.
            pub fn new(semantics: S) -> Self {
                Machine { state: State::default(), semantics, #simd_new }
            }

            /// Executes one instruction.
            pub fn execute(&mut self, insn: &Instruction) -> Result<(), isa_runtime::interp::Trap> {
                #simd_reset
                #exec_match
            }

            #exec_fns
            #funcs
            #dispatch
            #step_loop
        }
    }
}
