//! Expressions over one instruction's fields (guards, conditions, properties, constraints):
//! name resolution against the format's fields and template parameters, enum values resolved
//! by the type of what they are compared with, and folding of fixed fields.

use super::Checker;
use crate::ast;
use crate::ir::{self, ArithOp, BinOp, CmpOp, CondExpr, FieldId, Slot, SlotId, Type, UnOp};

/// What a template parameter is bound to at one instantiation.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub expr: CondExpr,
    pub ty: Option<Type>,
    /// A string argument: the text the template prints where it names the parameter.
    pub text: Option<String>,
}

/// Name resolution context.
pub struct Scope<'a> {
    pub t: &'a ir::Target,
    pub format: &'a ir::Format,
    pub slots: &'a [Slot],
    pub params: &'a [(String, Binding)],
}

impl Scope<'_> {
    fn slot_of(&self, field: usize, element: Option<u32>) -> Option<SlotId> {
        let field = FieldId(field);
        self.slots.iter().position(|s| s.field == field && s.element == element).map(SlotId)
    }

    fn field_type(&self, slot: SlotId) -> Type {
        self.format.field(self.slots[slot.0].field).ty.clone()
    }
}

/// The slots `e` reads, in order of first use.
pub fn reads(e: &CondExpr) -> Vec<SlotId> {
    fn walk(e: &CondExpr, out: &mut Vec<SlotId>) {
        match e {
            CondExpr::Field(s) if !out.contains(s) => out.push(*s),
            CondExpr::Not(x) | CondExpr::In(x, _) => walk(x, out),
            CondExpr::And(v) | CondExpr::Or(v) => v.iter().for_each(|x| walk(x, out)),
            CondExpr::Cmp(_, a, b) | CondExpr::Arith(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            CondExpr::If(c, a, b) => {
                walk(c, out);
                walk(a, out);
                walk(b, out);
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(e, &mut out);
    out
}

/// `a.b[3].c` as a dotted path, when `e` is a chain of names, members and constant indices.
fn path_of(e: &ast::Expr) -> Option<String> {
    use ast::ExprKind as K;
    match &e.kind {
        K::Name(n) => Some(n.clone()),
        K::Member(base, m) => Some(format!("{}.{}", path_of(base)?, m.name)),
        K::Index(base, idx) => Some(format!("{}[{}]", path_of(base)?, super::fields::const_eval(idx, None)?)),
        _ => None,
    }
}

/// The slot of the layout leaf `e` names by its dotted path, if it names one.
fn leaf_slot(s: &Scope, e: &ast::Expr) -> Option<SlotId> {
    let p = path_of(e)?;
    let fi = s.format.fields.iter().position(|f| f.name == p)?;
    s.slot_of(fi, None)
}

/// Lowers `e`; returns the expression and, for field-like values, its type.
pub fn lower(cx: &mut Checker, s: &Scope, e: &ast::Expr) -> (CondExpr, Option<Type>) {
    use ast::ExprKind as K;
    match &e.kind {
        K::Int(v) => (CondExpr::Int(*v as i64), None),
        K::Bool(b) => (CondExpr::Int(*b as i64), Some(Type::Bool)),
        K::Name(n) => {
            if let Some(i) = s.params.iter().position(|(p, _)| p == n) {
                if s.params[i].1.text.is_some() {
                    cx.error(e.span, format!("`{n}` is text (a string argument), not a value"))
                        .note("a string parameter prints where the syntax names it as an item");
                    return (CondExpr::Int(0), None);
                }
                return (CondExpr::Param(i), s.params[i].1.ty.clone());
            }
            if n == "pc" {
                return (CondExpr::Pc, None);
            }
            if let Some(fi) = s.format.fields.iter().position(|f| f.name == *n) {
                if s.format.fields[fi].array.is_some() {
                    cx.error(e.span, format!("`{n}` is an array: write `{n}[k]`"));
                    return (CondExpr::Int(0), None);
                }
                if let Some(slot) = s.slot_of(fi, None) {
                    return (CondExpr::Field(slot), Some(s.field_type(slot)));
                }
            }
            cx.error(e.span, format!("unknown name `{n}`"))
                .label(format!("not a field of `{}` or a parameter", s.format.name));
            (CondExpr::Int(0), None)
        }
        // A leaf of a data layout, by its dotted path.
        K::Member(..) | K::Index(..) if leaf_slot(s, e).is_some() => match leaf_slot(s, e) {
            Some(slot) => (CondExpr::Field(slot), Some(s.field_type(slot))),
            None => (CondExpr::Int(0), None),
        },
        K::Member(..) => {
            let p = path_of(e).unwrap_or_else(|| "this".into());
            cx.error(e.span, format!("unknown field path `{p}`"))
                .label(format!("not a leaf field of `{}`", s.format.name));
            (CondExpr::Int(0), None)
        }
        K::Index(base, idx) => {
            if let K::Name(n) = &base.kind {
                if let Some(fi) = s.format.fields.iter().position(|f| f.name == *n) {
                    // A constant, or a template parameter whose argument is one (`wait[i]`).
                    let k = match super::fields::const_eval(idx, None) {
                        Some(k) => Some(k),
                        None => match lower(cx, s, idx).0 {
                            CondExpr::Int(k) => Some(k),
                            CondExpr::Param(p) => match s.params[p].1.expr {
                                CondExpr::Int(k) => Some(k),
                                _ => None,
                            },
                            _ => None,
                        },
                    };
                    let Some(k) = k else {
                        cx.error(idx.span, format!("an index of array `{n}` is a constant"))
                            .note("an array is indexed by a number, or by a template parameter whose argument is one (`wait[b]` in `mark(3)`)");
                        return (CondExpr::Int(0), None);
                    };
                    if let Some(slot) = u32::try_from(k).ok().and_then(|k| s.slot_of(fi, Some(k))) {
                        return (CondExpr::Field(slot), Some(s.field_type(slot)));
                    }
                    cx.error(idx.span, format!("index {k} is outside array `{n}`"));
                    return (CondExpr::Int(0), None);
                }
            }
            cx.error(e.span, "expected an array field indexed by a constant");
            (CondExpr::Int(0), None)
        }
        K::Unary(op, x) => match un_op(*op) {
            UnOp::Not => (CondExpr::Not(Box::new(lower(cx, s, x).0)), Some(Type::Bool)),
            UnOp::Neg => {
                (CondExpr::Arith(ArithOp::Sub, Box::new(CondExpr::Int(0)), Box::new(lower(cx, s, x).0)), None)
            }
        },
        K::Binary(op, a, b) => match bin_op(*op) {
            op @ (BinOp::And | BinOp::Or) => {
                let (la, lb) = (lower(cx, s, a).0, lower(cx, s, b).0);
                let mut parts = Vec::new();
                for x in [la, lb] {
                    match (op, x) {
                        (BinOp::And, CondExpr::And(v)) | (BinOp::Or, CondExpr::Or(v)) => parts.extend(v),
                        (_, x) => parts.push(x),
                    }
                }
                (if op == BinOp::And { CondExpr::And(parts) } else { CondExpr::Or(parts) }, Some(Type::Bool))
            }
            BinOp::Cmp(op) => {
                let (la, ta) = lower_against(cx, s, a, None);
                let (lb, tb) = lower_against(cx, s, b, ta.as_ref());
                // `x == 300` on a u8 never holds (and `!=` always does): an error at the number,
                // as a set member the field cannot hold is (`holds_any`).
                if matches!(op, CmpOp::Eq | CmpOp::Ne) {
                    for (x, tx, c) in [(&la, &ta, b), (&lb, &tb, a)] {
                        if let Some(v) = constant_number(c) {
                            if !holds_any(cx, x, tx.as_ref(), s, v, v, c.span, true) {
                                return (CondExpr::Int(i64::from(op == CmpOp::Ne)), Some(Type::Bool));
                            }
                        }
                    }
                }
                (CondExpr::Cmp(op, Box::new(la), Box::new(lb)), Some(Type::Bool))
            }
            BinOp::Arith(op) => {
                let (la, _) = lower(cx, s, a);
                let (lb, _) = lower(cx, s, b);
                (CondExpr::Arith(op, Box::new(la), Box::new(lb)), None)
            }
        },
        K::InSet(x, set) => {
            let (lx, tx) = lower(cx, s, x);
            let mut ranges = Vec::new();
            let mut refused = false;
            for el in set {
                let (a, b, span) = super::types::set_bounds(el);
                // Numbers are written unsigned: a range is empty as they are written, and one
                // across 2^63 is two ranges of the values guards compare (a 64-bit field's
                // raw bits read as an `i64`, 2^63 and up negative).
                let (lo, hi) = if let (ast::Atom::Int(lo, _), ast::Atom::Int(hi, _)) = (a, b) {
                    if !super::types::nonempty(cx, span, *lo, *hi) {
                        continue;
                    }
                    (i128::from(*lo), i128::from(*hi))
                } else {
                    let (Some(lo), Some(hi)) =
                        (set_atom(cx, s, a, tx.as_ref()), set_atom(cx, s, b, tx.as_ref()))
                    else {
                        continue;
                    };
                    if !super::types::nonempty(cx, span, lo, hi) {
                        continue;
                    }
                    (lo, hi)
                };
                if !holds_any(cx, &lx, tx.as_ref(), s, lo, hi, span, false) {
                    refused = true;
                    continue;
                }
                let (lo, hi) = (lo as i64, hi as i64);
                if lo <= hi {
                    ranges.push((lo, hi));
                } else {
                    ranges.extend([(lo, i64::MAX), (i64::MIN, hi)]);
                }
            }
            if refused && ranges.is_empty() {
                // Each member is an error already; the set holds nothing.
                return (CondExpr::Int(0), Some(Type::Bool));
            }
            (CondExpr::In(Box::new(lx), ranges), Some(Type::Bool))
        }
        K::If(c, a, b) => {
            let c = lower(cx, s, c).0;
            let (a, ta) = lower(cx, s, a);
            let b = lower(cx, s, b).0;
            (CondExpr::If(Box::new(c), Box::new(a), Box::new(b)), ta)
        }
        _ => {
            cx.error(e.span, "this expression is not allowed here").note(
                "instruction conditions use fields, numbers, enum values, `pc`, comparisons, `&&`, `||`, `!`, arithmetic and `if .. then .. else`",
            );
            (CondExpr::Int(0), None)
        }
    }
}

/// A number written as one (`300`, `-5`), as an exact value.
fn constant_number(e: &ast::Expr) -> Option<i128> {
    match &e.kind {
        ast::ExprKind::Int(v) => Some(i128::from(*v)),
        ast::ExprKind::Unary(ast::UnOp::Neg, x) => constant_number(x).map(|v| -v),
        _ => None,
    }
}

/// A member of a set as a number: a negative one (`-4`) is a value of a signed field or of an
/// expression; one below the smallest `i64` is an error at it.
fn set_atom(cx: &mut Checker, s: &Scope, a: &ast::Atom, ty: Option<&Type>) -> Option<i128> {
    match a {
        ast::Atom::Int(v, _) => Some(i128::from(*v)),
        ast::Atom::Neg(v, sp) => {
            let v = -i128::from(*v);
            if v < i128::from(i64::MIN) {
                cx.error(*sp, format!("{v} is below the smallest 64-bit value, {}", i64::MIN));
                return None;
            }
            Some(v)
        }
        ast::Atom::Name(id) => {
            let e = ast::Expr { kind: ast::ExprKind::Name(id.name.clone()), span: id.span };
            match lower_against(cx, s, &e, ty).0 {
                CondExpr::Int(v) => Some(i128::from(v)),
                _ => {
                    cx.error(id.span, format!("`{}` is not a constant", id.name));
                    None
                }
            }
        }
    }
}

/// Whether the set member `lo..=hi` holds a value of the field `x` reads (of type `ty`); a
/// member that holds none is an error where it is written. A signed field's values are its
/// two's-complement values (guards rewrite them over its bits), an unsigned one's its bits;
/// an expression (`a + b`) may have any value. `compared`: the number of a `==` or `!=`.
#[allow(clippy::too_many_arguments)]
fn holds_any(
    cx: &mut Checker,
    x: &CondExpr,
    ty: Option<&Type>,
    s: &Scope,
    lo: i128,
    hi: i128,
    span: ast::Span,
    compared: bool,
) -> bool {
    let (min, max, what) = match ty {
        Some(Type::SInt(w)) if (1..=64).contains(w) => {
            let m = 1i128 << (w - 1);
            (-m, m - 1, format!("a signed {w}-bit field"))
        }
        Some(Type::UInt(w)) if (1..=64).contains(w) => {
            (0, (1i128 << w) - 1, format!("an unsigned {w}-bit field"))
        }
        Some(Type::Bool) => (0, 1, "a `bool`".to_string()),
        // An enum's names resolve to its values; a number outside them is its own check.
        Some(Type::Enum(_)) => (0, i128::from(u64::MAX), "an enum".to_string()),
        _ => return true,
    };
    if hi >= min && lo <= max {
        return true;
    }
    let name = match x {
        CondExpr::Field(slot) => s.format.field(s.slots[slot.0].field).name.clone(),
        CondExpr::Param(p) => s.params.get(*p).map_or_else(String::new, |b| b.0.clone()),
        _ => "the value".to_string(),
    };
    let member = if lo == hi { format!("{lo}") } else { format!("{lo}..={hi}") };
    let d = cx.error(span, format!("`{name}` is never {member}: its values are {min}..={max}"));
    if compared {
        d.label("no value of the field is this number").note(format!(
            "`{name}` is {what}; compared with this number, `==` never holds and `!=` always does"
        ));
    } else {
        d.label("no value of the field is this member")
            .note(format!("`{name}` is {what}; a set's members are its values, as its text shows them"));
    }
    false
}

/// Lowers `e`, resolving a bare name that is not a field as a value of `expected`'s enum.
pub fn lower_against(
    cx: &mut Checker,
    s: &Scope,
    e: &ast::Expr,
    expected: Option<&Type>,
) -> (CondExpr, Option<Type>) {
    if let ast::ExprKind::Name(n) = &e.kind {
        // Compared with an enum, a name the enum defines means that value, even where a field
        // has the same name (`sig == small_imm` in the format that has a `small_imm` field).
        let names_variant = |ty: &Type| match ty {
            Type::Enum(id) => s.t.enums[id.0].variants.iter().any(|v| v.name == *n),
            Type::Switch { arms, .. } => arms.iter().any(
                |(_, t)| matches!(t, Type::Enum(id) if s.t.enums[id.0].variants.iter().any(|v| v.name == *n)),
            ),
            _ => false,
        };
        let is_param = s.params.iter().any(|(p, _)| p == n);
        let is_local = is_param || s.format.fields.iter().any(|f| f.name == *n) || n == "pc";
        if !is_param && (!is_local || expected.is_some_and(names_variant)) {
            if let Some(Type::Switch { arms, .. }) = expected {
                // A switch-typed field: the name must mean the same value in every arm that has it.
                let mut found: Option<i64> = None;
                let mut clash = false;
                for (_, ty) in arms {
                    if let Type::Enum(id) = ty {
                        if let Some(ir::Variant { values: ir::Values::One(v), .. }) =
                            s.t.enums[id.0].variants.iter().find(|v| v.name == *n)
                        {
                            clash |= found.is_some_and(|f| f != *v as i64);
                            found = Some(*v as i64);
                        }
                    }
                }
                match (found, clash) {
                    (Some(v), false) => return (CondExpr::Int(v), None),
                    (Some(_), true) => {
                        cx.error(e.span, format!("`{n}` means different values depending on the switch; compare the raw number"));
                        return (CondExpr::Int(0), None);
                    }
                    (None, _) => {}
                }
            }
            if let Some(Type::Enum(id)) = expected {
                let en = &s.t.enums[id.0];
                return match en.variants.iter().find(|v| v.name == *n) {
                    Some(ir::Variant { values: ir::Values::One(v), .. }) => (CondExpr::Int(*v as i64), None),
                    Some(_) => {
                        cx.error(e.span, format!("`{n}` names several values of `{}`", en.name));
                        (CondExpr::Int(0), None)
                    }
                    None => {
                        cx.error(e.span, format!("`{n}` is not a value of enum `{}`", en.name));
                        (CondExpr::Int(0), None)
                    }
                };
            }
        }
    }
    lower(cx, s, e)
}

/// What folding knows about a slot: its value (fixed fields) or the ranges it is restricted to.
pub enum Known {
    /// Nothing.
    Nothing,
    /// A fixed value.
    Value(i64),
    /// One of these inclusive ranges.
    Ranges(Vec<(i64, i64)>),
}

/// Substitutes known slot values (fixed fields) and constant parameters, and simplifies;
/// comparisons that a field's allowed values decide fold too.
pub fn fold(e: &CondExpr, known: &dyn Fn(SlotId) -> Known, params: &[(String, Binding)]) -> CondExpr {
    use CondExpr as C;
    let f = |x: &CondExpr| fold(x, known, params);
    match e {
        C::Field(s) => match known(*s) {
            Known::Value(v) => C::Int(v),
            _ => C::Field(*s),
        },
        C::Param(p) => match params.get(*p).map(|b| &b.1.expr) {
            Some(C::Int(v)) => C::Int(*v),
            _ => e.clone(),
        },
        C::Not(x) => match f(x) {
            C::Int(v) => C::Int((v == 0) as i64),
            x => C::Not(Box::new(x)),
        },
        C::And(xs) | C::Or(xs) => {
            let is_and = matches!(e, C::And(_));
            let mut out = Vec::new();
            for x in xs {
                match f(x) {
                    C::Int(0) if is_and => return C::Int(0),
                    C::Int(0) => {}
                    C::Int(_) if !is_and => return C::Int(1),
                    C::Int(_) => {}
                    // Nested conjunctions (disjunctions) flatten: the parser chooses among
                    // the parts of one level.
                    C::And(inner) if is_and => out.extend(inner),
                    C::Or(inner) if !is_and => out.extend(inner),
                    x => out.push(x),
                }
            }
            match (out.len(), is_and) {
                (0, true) => C::Int(1),
                (0, false) => C::Int(0),
                (1, _) => out.pop().unwrap_or(C::Int(0)),
                (_, true) => C::And(out),
                (_, false) => C::Or(out),
            }
        }
        C::Cmp(op, a, b) => {
            let (a, b) = (f(a), f(b));
            match (&a, &b) {
                (C::Int(x), C::Int(y)) => C::Int(op.holds(*x, *y) as i64),
                (C::Field(s), C::Int(v)) | (C::Int(v), C::Field(s))
                    if matches!(op, CmpOp::Eq | CmpOp::Ne) =>
                {
                    match known(*s) {
                        Known::Ranges(r) if !r.iter().any(|(lo, hi)| (*lo..=*hi).contains(v)) => {
                            C::Int((*op == CmpOp::Ne) as i64)
                        }
                        _ => C::Cmp(*op, Box::new(a), Box::new(b)),
                    }
                }
                _ => C::Cmp(*op, Box::new(a), Box::new(b)),
            }
        }
        C::Arith(op, a, b) => {
            let (a, b) = (f(a), f(b));
            match (&a, &b) {
                (C::Int(x), C::Int(y)) => match op.apply(*x, *y) {
                    Some(v) => C::Int(v),
                    None => C::Arith(*op, Box::new(a), Box::new(b)),
                },
                // `x & 0` is 0 whatever `x` holds (a mask a parameter made empty); the Rust
                // written for it would be "&-masking with zero", which clippy refuses.
                (C::Int(0), _) | (_, C::Int(0)) if *op == ArithOp::BitAnd => C::Int(0),
                _ => C::Arith(*op, Box::new(a), Box::new(b)),
            }
        }
        C::If(c, a, b) => match f(c) {
            C::Int(0) => f(b),
            C::Int(_) => f(a),
            c => C::If(Box::new(c), Box::new(f(a)), Box::new(f(b))),
        },
        C::In(x, ranges) => match f(x) {
            C::Int(v) => C::Int(ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&v)) as i64),
            x => C::In(Box::new(x), ranges.clone()),
        },
        C::Int(_) | C::Pc => e.clone(),
    }
}

/// The IR's operator for a spec's binary operator: the one place the checker maps them.
pub fn bin_op(op: ast::BinOp) -> BinOp {
    use ast::BinOp as A;
    match op {
        A::And => BinOp::And,
        A::Or => BinOp::Or,
        A::Eq => BinOp::Cmp(CmpOp::Eq),
        A::Ne => BinOp::Cmp(CmpOp::Ne),
        A::Lt => BinOp::Cmp(CmpOp::Lt),
        A::Le => BinOp::Cmp(CmpOp::Le),
        A::Gt => BinOp::Cmp(CmpOp::Gt),
        A::Ge => BinOp::Cmp(CmpOp::Ge),
        A::Add => BinOp::Arith(ArithOp::Add),
        A::Sub => BinOp::Arith(ArithOp::Sub),
        A::Mul => BinOp::Arith(ArithOp::Mul),
        A::Div => BinOp::Arith(ArithOp::Div),
        A::Rem => BinOp::Arith(ArithOp::Rem),
        A::BitAnd => BinOp::Arith(ArithOp::BitAnd),
        A::BitOr => BinOp::Arith(ArithOp::BitOr),
        A::BitXor => BinOp::Arith(ArithOp::BitXor),
        A::Shl => BinOp::Arith(ArithOp::Shl),
        A::Shr => BinOp::Arith(ArithOp::Shr),
    }
}

/// The IR's operator for a spec's unary operator.
pub fn un_op(op: ast::UnOp) -> UnOp {
    match op {
        ast::UnOp::Neg => UnOp::Neg,
        ast::UnOp::Not => UnOp::Not,
    }
}
