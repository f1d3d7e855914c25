//! Validators: instruction properties, per-instruction constraints and program rules over
//! neighbouring instructions, as plain Rust over the typed instructions.

use super::model::{lit, tokens, Model};
use super::names::{camel, snake};
use crate::ir::{self, ArithOp, BinOp, CmpOp, CondExpr, RuleExpr, SlotId, Type, Values};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Bool,
    Int,
}

fn as_int((e, k): (TokenStream, Kind)) -> TokenStream {
    match k {
        Kind::Int => e,
        Kind::Bool => quote!((#e as i64)),
    }
}

fn as_bool((e, k): (TokenStream, Kind)) -> TokenStream {
    match k {
        Kind::Bool => e,
        Kind::Int => quote!((#e != 0)),
    }
}

pub(super) fn cmp_op(op: CmpOp) -> TokenStream {
    tokens(op.symbol())
}

fn arith_op(op: ArithOp) -> TokenStream {
    match op {
        ArithOp::Add => quote!(+),
        ArithOp::Sub => quote!(-),
        ArithOp::Mul => quote!(*),
        ArithOp::Div => quote!(/),
        ArithOp::Rem => quote!(%),
        ArithOp::BitAnd => quote!(&),
        ArithOp::BitOr => quote!(|),
        ArithOp::BitXor => quote!(^),
        ArithOp::Shl => quote!(<<),
        ArithOp::Shr => quote!(>>),
    }
}

/// A field slot of `f` read from the typed instruction `x`.
fn slot(m: &Model, f: &ir::Format, s: SlotId) -> (TokenStream, Kind) {
    let ir::Slot { field, element } = f.slots()[s.0];
    let field = f.field(field);
    if let Some(v) = field.fixed {
        let v = proc_macro2::Literal::i64_unsuffixed(v as i64);
        return (quote!(#v), Kind::Int);
    }
    let id = m.field_ident(&field.name);
    if field.is_tag {
        return match field.ty {
            Type::Bool => (quote!(x.#id()), Kind::Bool),
            Type::UInt(_)
            | Type::SInt(_)
            | Type::Enum(_)
            | Type::Number(_)
            | Type::Layout(_)
            | Type::Switch { .. } => (quote!((x.#id() as i64)), Kind::Int),
        };
    }
    let access = match element {
        Some(k) => {
            let k = lit(k as u128);
            quote!(x.#id[#k])
        }
        None => quote!(x.#id),
    };
    match field.ty {
        Type::Bool => (access, Kind::Bool),
        Type::Enum(_) | Type::Switch { .. } => (quote!((#access.bits() as i64)), Kind::Int),
        Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Layout(_) => {
            (quote!((#access as i64)), Kind::Int)
        }
    }
}

/// An instruction expression over the typed struct `x` of format `f`.
fn cond(m: &Model, f: &ir::Format, e: &CondExpr) -> (TokenStream, Kind) {
    let read = |s: SlotId| slot(m, f, s);
    // `sig == thrend` reads better than raw numbers.
    let named = |s: SlotId, v: i64, op: CmpOp| {
        let ir::Slot { field, element } = f.slots()[s.0];
        let field = f.field(field);
        let (Type::Enum(en), None, None) = (&field.ty, element, field.fixed) else { return None };
        let vi = m.t.enums[en.0].variants.iter().position(|x| x.values == Values::One(v as u64))?;
        let (id, ename, vname) = (m.field_ident(&field.name), m.enum_ident(*en), m.variant_ident(*en, vi));
        let op = cmp_op(op);
        Some(quote!((x.#id #op #ename::#vname)))
    };
    expr(e, &read, &named)
}

/// A data layout's constraint as a `bool` expression over `words` (its `[u32; N]`), reading
/// each leaf's raw bits.
pub fn layout_condition(leaves: &[ir::Leaf], e: &CondExpr) -> TokenStream {
    // The flat format of a layout's leaves has no arrays: slot `s` is leaf `s`.
    let read = |s: SlotId| {
        let Some(leaf) = leaves.get(s.0) else { return (quote!(0), Kind::Int) };
        let raw = super::layouts::read_words(&leaf.pieces);
        match leaf.ty {
            Type::Bool => (quote!((#raw != 0)), Kind::Bool),
            Type::SInt(w) => {
                let w = lit(w as u128);
                (quote!(isa_runtime::bits::sign_extend(#raw, #w)), Kind::Int)
            }
            Type::UInt(_) | Type::Enum(_) | Type::Number(_) | Type::Layout(_) | Type::Switch { .. } => {
                (quote!((#raw as i64)), Kind::Int)
            }
        }
    };
    as_bool(expr(e, &read, &|_, _, _| None))
}

/// A condition as Rust: `read` gives a slot's value, `named` may spell an enum comparison.
type Read<'a> = &'a dyn Fn(SlotId) -> (TokenStream, Kind);
type Named<'a> = &'a dyn Fn(SlotId, i64, CmpOp) -> Option<TokenStream>;

fn expr(e: &CondExpr, read: Read, named: Named) -> (TokenStream, Kind) {
    let go = |x: &CondExpr| expr(x, read, named);
    match e {
        CondExpr::Int(v) => {
            let v = proc_macro2::Literal::i64_unsuffixed(*v);
            (quote!(#v), Kind::Int)
        }
        CondExpr::Field(s) => read(*s),
        CondExpr::Param(_) | CondExpr::Pc => (quote!(0), Kind::Int),
        CondExpr::Not(x) => {
            let x = as_bool(go(x));
            (quote!(!#x), Kind::Bool)
        }
        CondExpr::And(xs) | CondExpr::Or(xs) => {
            let xs: Vec<TokenStream> = xs.iter().map(|x| as_bool(go(x))).collect();
            let joined = if matches!(e, CondExpr::And(_)) { quote!(#(#xs)&&*) } else { quote!(#(#xs)||*) };
            (quote!((#joined)), Kind::Bool)
        }
        CondExpr::Cmp(op, a, b) => {
            if let (CondExpr::Field(s), CondExpr::Int(v), CmpOp::Eq | CmpOp::Ne) = (&**a, &**b, op) {
                if let Some(t) = named(*s, *v, *op) {
                    return (t, Kind::Bool);
                }
            }
            let (ga, gb) = (go(a), go(b));
            let op = cmp_op(*op);
            // Two conditions compare as booleans (`(a == X) == (b == Y)`).
            if ga.1 == Kind::Bool && gb.1 == Kind::Bool {
                let (a, b) = (ga.0, gb.0);
                return (quote!((#a #op #b)), Kind::Bool);
            }
            let (a, b) = (as_int(ga), as_int(gb));
            (quote!((#a #op #b)), Kind::Bool)
        }
        CondExpr::Arith(op, a, b) => {
            let (a, b) = (as_int(go(a)), as_int(go(b)));
            let op = arith_op(*op);
            (quote!((#a #op #b)), Kind::Int)
        }
        CondExpr::If(c, a, b) => {
            let c = as_bool(go(c));
            let (a, b) = (go(a), go(b));
            if a.1 == Kind::Bool && b.1 == Kind::Bool {
                let (a, b) = (a.0, b.0);
                (quote!(if #c { #a } else { #b }), Kind::Bool)
            } else {
                let (a, b) = (as_int(a), as_int(b));
                (quote!(if #c { #a } else { #b }), Kind::Int)
            }
        }
        CondExpr::In(x, ranges) => {
            let x = as_int(go(x));
            // Adjacent ranges are one pattern; a single value is written alone.
            let joined = super::model::join_ranges(ranges.clone(), |n: i64| n.saturating_add(1));
            let pats = joined.iter().map(|(lo, hi)| {
                let (l, h) =
                    (proc_macro2::Literal::i64_unsuffixed(*lo), proc_macro2::Literal::i64_unsuffixed(*hi));
                if lo == hi {
                    quote!(#l)
                } else {
                    quote!(#l..=#h)
                }
            });
            (quote!(matches!(#x, #(#pats)|*)), Kind::Bool)
        }
    }
}

fn rule_expr(t: &ir::Target, vars: &[proc_macro2::Ident], e: &RuleExpr) -> (TokenStream, Kind) {
    match e {
        RuleExpr::Int(v) => {
            let v = proc_macro2::Literal::i64_unsuffixed(*v);
            (quote!(#v), Kind::Int)
        }
        RuleExpr::Var(i) => {
            let v = &vars[*i];
            (quote!(#v), Kind::Int)
        }
        RuleExpr::Len => (quote!(len), Kind::Int),
        RuleExpr::Prop(p, idx) => {
            let prop = t.property(*p);
            let name = format_ident!("{}", snake(&prop.name));
            let idx = as_int(rule_expr(t, vars, idx));
            if prop.is_bool {
                let d = prop.default != 0;
                (quote!(at(#idx).map_or(#d, Instruction::#name)), Kind::Bool)
            } else {
                let d = proc_macro2::Literal::i64_unsuffixed(prop.default);
                (quote!(at(#idx).map_or(#d, Instruction::#name)), Kind::Int)
            }
        }
        RuleExpr::Not(x) => {
            let x = as_bool(rule_expr(t, vars, x));
            (quote!(!#x), Kind::Bool)
        }
        RuleExpr::Binary(op, a, b) => {
            let (a, b) = (rule_expr(t, vars, a), rule_expr(t, vars, b));
            match op {
                BinOp::And | BinOp::Or => {
                    let (a, b) = (as_bool(a), as_bool(b));
                    let o = if *op == BinOp::And { quote!(&&) } else { quote!(||) };
                    (quote!((#a #o #b)), Kind::Bool)
                }
                BinOp::Cmp(c) => {
                    let (a, b, o) = (as_int(a), as_int(b), cmp_op(*c));
                    (quote!((#a #o #b)), Kind::Bool)
                }
                BinOp::Arith(x) => {
                    let (a, b, o) = (as_int(a), as_int(b), arith_op(*x));
                    (quote!((#a #o #b)), Kind::Int)
                }
            }
        }
    }
}

pub fn generate(m: &Model) -> TokenStream {
    let t = m.t;
    let target = format_ident!("{}", camel(&t.name));
    let mut props = TokenStream::new();
    for (pi, p) in t.properties.iter().enumerate() {
        let name = format_ident!("{}", snake(&p.name));
        let doc = format!(" {}", if p.doc.is_empty() { &p.name } else { &p.doc });
        let ret = if p.is_bool { quote!(bool) } else { quote!(i64) };
        let default = if p.is_bool {
            let d = p.default != 0;
            quote!(#d)
        } else {
            let d = proc_macro2::Literal::i64_unsuffixed(p.default);
            quote!(#d)
        };
        let mut arms = Vec::new();
        for (fi, f) in t.formats.iter().enumerate() {
            if let Some((_, e)) = f.properties.iter().find(|(i, _)| *i == ir::PropertyId(pi)) {
                let n = m.format_ident(fi);
                let v = cond(m, f, e);
                let v = if p.is_bool { as_bool(v) } else { as_int(v) };
                let binding = if v.to_string().contains("x .") { quote!(x) } else { quote!(_) };
                arms.push(quote!(Instruction::#n(#binding) => #v));
            }
        }
        let all = arms.len() == t.formats.len();
        let fallback = if all { quote!() } else { quote!(_ => #default,) };
        props.extend(quote! {
            #[doc = #doc]
            #[allow(clippy::nonminimal_bool, unused_parens)]
            pub fn #name(&self) -> #ret {
                match self {
                    #(#arms,)*
                    #fallback
                }
            }
        });
    }
    let mut constraint_arms = Vec::new();
    for (fi, f) in t.formats.iter().enumerate() {
        if f.constraints.is_empty() {
            continue;
        }
        let n = m.format_ident(fi);
        let checks = f.constraints.iter().map(|c| {
            let e = as_bool(cond(m, f, &c.expr));
            let (name, msg, reads, warning) = (&c.name, &c.message, &c.reads, c.warning);
            quote!(if !#e { out.push((#name, #msg, &[#(#reads),*] as &'static [&'static str], #warning)); })
        });
        constraint_arms.push(quote!(Instruction::#n(x) => { #(#checks)* }));
    }
    let uses_x = !constraint_arms.is_empty();
    let constraint_match =
        if uses_x { quote!(match self { #(#constraint_arms)* _ => {} }) } else { quote!() };
    let mut rule_arms = Vec::new();
    let mut rule_infos = Vec::new();
    let mut rule_fns = TokenStream::new();
    for (ri, r) in t.rules.iter().enumerate() {
        let vars: Vec<proc_macro2::Ident> =
            r.quantifiers.iter().map(|q| format_ident!("{}", q.var)).collect();
        let body = as_bool(rule_expr(t, &vars, &r.body));
        let (name, msg, warning) = (&r.name, &r.message, r.warning);
        let last = vars.last().cloned().unwrap_or_else(|| format_ident!("i"));
        let first = vars.first().cloned().unwrap_or_else(|| format_ident!("i"));
        let detail = if vars.len() > 1 {
            quote!(format!("with instruction {}", #first))
        } else {
            quote!(String::new())
        };
        let mut inner = quote! {
            if (0..len).contains(&#last) && !#body {
                out.push(Violation { rule: #name, message: #msg, index: #last as usize, layout: "", fields: &[], warning: #warning, detail: #detail });
            }
        };
        for (qi, q) in r.quantifiers.iter().enumerate().rev() {
            let v = &vars[qi];
            // The outermost variable takes only the values in `from..to`.
            let range = match (&q.range, qi) {
                (Some((lo, hi)), 0) => {
                    let (lo, hi) = (as_int(rule_expr(t, &vars, lo)), as_int(rule_expr(t, &vars, hi)));
                    quote!(i64::max(#lo, from)..=i64::min(#hi, to.saturating_sub(1)))
                }
                (Some((lo, hi)), _) => {
                    let (lo, hi) = (as_int(rule_expr(t, &vars, lo)), as_int(rule_expr(t, &vars, hi)));
                    quote!((#lo)..=(#hi))
                }
                (None, 0) => quote!(i64::max(0, from)..i64::min(len, to)),
                (None, _) => quote!(0..len),
            };
            let filter = match &q.filter {
                Some(f) => {
                    let f = as_bool(rule_expr(t, &vars, f));
                    quote!(if !#f { continue; })
                }
                None => quote!(),
            };
            inner = quote! {
                for #v in #range {
                    #filter
                    #inner
                }
            };
        }
        let doc = format!(" Rule `{}`: {}", r.name, r.message);
        let fname = format_ident!("rule_{}", snake(&r.name));
        rule_fns.extend(quote! {
            #[doc = #doc]
            #[allow(clippy::nonminimal_bool, unused_parens, clippy::int_plus_one, clippy::absurd_extreme_comparisons, clippy::double_parens, clippy::unnecessary_map_or, clippy::needless_parens_on_range_literals, unused_variables)]
            fn #fname(held: &isa_runtime::program::Held<'_, Instruction>, len: i64, from: i64, to: i64, out: &mut Vec<isa_runtime::program::Violation>) {
                use isa_runtime::program::Violation;
                let at = |i: i64| held.at(i);
                #inner
            }
        });
        rule_arms.push(quote!(#ri => #fname(held, len, from, to, out),));
        let reach = match r.reach {
            Some((before, after)) => quote!(Some((#before, #after))),
            None => quote!(None),
        };
        rule_infos.push(quote!(isa_runtime::program::Rule { name: #name, reach: #reach }));
    }
    let rule_match = if rule_arms.is_empty() {
        quote!(let _ = (rule, held, len, from, to, out);)
    } else {
        quote!(match rule { #(#rule_arms)* _ => {} })
    };
    quote! {
        #[allow(unused_parens, clippy::unnecessary_map_or, clippy::nonminimal_bool, clippy::double_parens, clippy::manual_range_patterns, clippy::collapsible_match, clippy::collapsible_if, clippy::collapsible_else_if)]
        impl Instruction {
            #props

            /// The per-instruction constraints this instruction breaks: (name, text, fields read,
            /// whether it is only a warning).
            #[allow(clippy::nonminimal_bool, unused_parens, clippy::type_complexity)]
            pub fn broken_constraints(&self) -> Vec<(&'static str, &'static str, &'static [&'static str], bool)> {
                #[allow(unused_mut)]
                let mut out = Vec::new();
                #constraint_match
                out
            }
        }

        /// Runs every constraint and program rule of the spec over a program
        /// ([`isa_runtime::program::check_program`]); [`isa_runtime::program::Window`] checks
        /// the same as the instructions come, holding only as many as the rules read ([`RULES`]).
        pub fn check_program(program: &[Instruction]) -> Vec<isa_runtime::program::Violation> {
            isa_runtime::program::check_program::<#target>(program)
        }

        /// The program rules, in the spec's order, with how many instructions before and after
        /// its outermost variable's each reads (`None`: anywhere in the program).
        pub static RULES: &[isa_runtime::program::Rule] = &[#(#rule_infos),*];

        /// Adds the constraints that `insn`, instruction number `index`, breaks to `out`.
        pub fn check_instruction(insn: &Instruction, index: usize, out: &mut Vec<isa_runtime::program::Violation>) {
            for (rule, message, fields, warning) in insn.broken_constraints() {
                out.push(isa_runtime::program::Violation { rule, message, index, layout: "", fields, warning, detail: String::new() });
            }
        }

        /// Checks rule number `rule` (as [`RULES`]) for the values of its outermost variable in
        /// `from..to`, reading the instructions `held` holds, the program being `len` long
        /// ([`isa_runtime::target::Isa::check_rule`]).
        pub fn check_rule(rule: usize, held: &isa_runtime::program::Held<'_, Instruction>, len: i64, from: i64, to: i64, out: &mut Vec<isa_runtime::program::Violation>) {
            #rule_match
        }

        #rule_fns
    }
}
