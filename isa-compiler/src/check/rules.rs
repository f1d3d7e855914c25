//! Validators: instruction properties, per-instruction constraints and program rules over
//! neighbouring instructions.

use super::cond::{self, bin_op, un_op, Scope};
use super::Checker;
use crate::ast;
use crate::ir::{self, ArithOp, BinOp, RuleExpr, UnOp};

/// Declares properties (before formats define them).
pub fn properties(cx: &mut Checker, file: &ast::File, t: &mut ir::Target) {
    for item in &file.items {
        if let ast::Item::Property(p) = item {
            let is_bool = match p.ty.name.as_str() {
                "bool" => true,
                "int" => false,
                other => {
                    cx.error(p.ty.span, format!("property type `{other}` is not `bool` or `int`"));
                    true
                }
            };
            let default = match super::fields::const_eval(&p.default, None) {
                Some(v) => v,
                None => match &p.default.kind {
                    ast::ExprKind::Bool(b) => *b as i64,
                    _ => {
                        cx.error(p.default.span, "a property's default is a constant");
                        0
                    }
                },
            };
            t.properties.push(ir::Property {
                name: p.name.name.clone(),
                doc: p.doc.clone(),
                is_bool,
                default,
            });
        }
    }
}

/// Lowers format properties and constraints, and program rules.
pub fn lower(cx: &mut Checker, file: &ast::File, origins: &super::fields::Origins, t: &mut ir::Target) {
    // Each format's properties and constraints are lowered against the target as it was
    // before any of them (they are stored after the walk): a clone of the whole target kept
    // that state before, most of the time of this pass at 10,000 encodings.
    let mut lowered = Vec::with_capacity(origins.len());
    let target: &ir::Target = t;
    for &(id, decl) in origins {
        let format = target.format(id);
        let slots = format.slots();
        let scope = Scope { t: target, format, slots: &slots, params: &[] };
        let mut properties = Vec::with_capacity(decl.properties.len());
        let mut constraints = Vec::with_capacity(decl.constraints.len());
        for (name, e) in &decl.properties {
            let Some(pi) = target.properties.iter().position(|p| p.name == name.name) else {
                cx.error(name.span, format!("unknown property `{}`", name.name))
                    .note("declare it at the top level: `property name: bool = false`");
                continue;
            };
            let (c, _) = cond::lower(cx, &scope, e);
            properties.push((ir::PropertyId(pi), c));
        }
        for c in &decl.constraints {
            let (e, _) = cond::lower(cx, &scope, &c.expr);
            let reads = cond::reads(&e)
                .into_iter()
                .filter_map(|s| {
                    let slot = slots.get(s.0)?;
                    let name = &format.field(slot.field).name;
                    let element = slot.element;
                    Some(element.map_or_else(|| name.clone(), |k| format!("{name}[{k}]")))
                })
                .collect();
            constraints.push(ir::Constraint {
                name: c.name.name.clone(),
                doc: c.doc.clone(),
                message: c.message.clone(),
                reads,
                expr: e,
                warning: c.warning,
            });
        }
        lowered.push((id, properties, constraints));
    }
    for (id, properties, constraints) in lowered {
        let format = &mut t.formats[id.0];
        format.properties.extend(properties);
        format.constraints.extend(constraints);
    }
    for item in &file.items {
        if let ast::Item::Rule(r) = item {
            let mut quantifiers = Vec::new();
            let mut vars: Vec<String> = Vec::new();
            let mut q = &r.body;
            let body = loop {
                vars.push(q.var.name.clone());
                let range =
                    q.range.as_ref().map(|(a, b)| (rule_expr(cx, t, &vars, a), rule_expr(cx, t, &vars, b)));
                let filter = q.filter.as_ref().map(|f| rule_expr(cx, t, &vars, f));
                quantifiers.push(ir::Quantifier { var: q.var.name.clone(), range, filter });
                match &*q.body {
                    ast::QBody::Nested(n) => q = n,
                    ast::QBody::Expr(e) => break rule_expr(cx, t, &vars, e),
                }
            };
            let reach = reach(&quantifiers, &body);
            t.rules.push(ir::Rule {
                name: r.name.name.clone(),
                doc: r.doc.clone(),
                message: r.message.clone(),
                quantifiers,
                body,
                warning: r.warning,
                reach,
            });
        }
    }
}

/// How far a rule looks from its outermost variable's instruction ([`ir::Rule::reach`]).
///
/// A window holding the instructions `i - before..=i + after` evaluates the rule for `i` as
/// the whole program does, the program's length known only to be at least `i + after + 1`:
/// every index read (and the innermost variable, at which a violation is reported, checked
/// against `len`) is covered, and whether `i` is in the outermost range is already decided.
fn reach(quantifiers: &[ir::Quantifier], body: &RuleExpr) -> Option<(u32, u32)> {
    // Each variable's offsets from the outermost one.
    let mut offsets: Vec<(i64, i64)> = Vec::new();
    let mut far = (0i64, 0i64);
    for (k, q) in quantifiers.iter().enumerate() {
        let range = match (k, &q.range) {
            (0, None) => (0, 0),
            // The outermost range: a constant start and a constant end or `len` plus or
            // minus a constant; `i <= len - c` is known once instruction `i + c - 1` is.
            (0, Some((lo, hi))) => {
                if !constant(lo) {
                    return None;
                }
                if let Some(c) = from_end(hi)? {
                    far.1 = far.1.max(c.saturating_sub(1));
                }
                (0, 0)
            }
            (_, Some((lo, hi))) => (offset(lo, &offsets)?.0, offset(hi, &offsets)?.1),
            (_, None) => return None,
        };
        offsets.push(range);
    }
    // A violation is reported at the innermost variable's instruction, if it is in the program.
    if let Some(&(lo, hi)) = offsets.last() {
        far = (far.0.max(-lo), far.1.max(hi));
    }
    let mut exprs: Vec<&RuleExpr> = quantifiers.iter().filter_map(|q| q.filter.as_ref()).collect();
    exprs.push(body);
    while let Some(e) = exprs.pop() {
        match e {
            RuleExpr::Int(_) | RuleExpr::Var(_) => {}
            RuleExpr::Len => return None,
            RuleExpr::Prop(_, index) => {
                let (lo, hi) = offset(index, &offsets)?;
                far = (far.0.max(-lo), far.1.max(hi));
            }
            RuleExpr::Not(a) => exprs.push(a),
            RuleExpr::Binary(_, a, b) => exprs.extend([&**a, &**b]),
        }
    }
    Some((u32::try_from(far.0).ok()?, u32::try_from(far.1).ok()?))
}

/// Whether `e` is a constant (no variable, `len` or property).
fn constant(e: &RuleExpr) -> bool {
    match e {
        RuleExpr::Int(_) => true,
        RuleExpr::Var(_) | RuleExpr::Len | RuleExpr::Prop(..) => false,
        RuleExpr::Not(a) => constant(a),
        RuleExpr::Binary(_, a, b) => constant(a) && constant(b),
    }
}

/// The end of the outermost range: `Some(None)` for a constant, `Some(Some(c))` for
/// `len - c` (`len + c` is `-c`), `None` for anything else.
fn from_end(e: &RuleExpr) -> Option<Option<i64>> {
    use ir::{ArithOp, BinOp};
    match e {
        _ if constant(e) => Some(None),
        RuleExpr::Len => Some(Some(0)),
        RuleExpr::Binary(BinOp::Arith(op @ (ArithOp::Add | ArithOp::Sub)), a, b) => {
            let c = match (op, &**a, &**b) {
                (ArithOp::Sub, RuleExpr::Len, RuleExpr::Int(c)) => *c,
                (ArithOp::Add, RuleExpr::Len, RuleExpr::Int(c))
                | (ArithOp::Add, RuleExpr::Int(c), RuleExpr::Len) => c.checked_neg()?,
                _ => return None,
            };
            Some(Some(c))
        }
        _ => None,
    }
}

/// The offsets from the outermost variable an index `e` takes: a variable plus or minus a
/// constant; `None` for anything else.
fn offset(e: &RuleExpr, offsets: &[(i64, i64)]) -> Option<(i64, i64)> {
    use ir::{ArithOp, BinOp};
    match e {
        RuleExpr::Var(v) => offsets.get(*v).copied(),
        RuleExpr::Binary(BinOp::Arith(ArithOp::Add), a, b) => match (&**a, &**b) {
            (x, RuleExpr::Int(c)) | (RuleExpr::Int(c), x) => {
                offset(x, offsets).map(|(lo, hi)| (lo + c, hi + c))
            }
            _ => None,
        },
        RuleExpr::Binary(BinOp::Arith(ArithOp::Sub), a, b) => match &**b {
            RuleExpr::Int(c) => offset(a, offsets).map(|(lo, hi)| (lo - c, hi - c)),
            _ => None,
        },
        _ => None,
    }
}

fn rule_expr(cx: &mut Checker, t: &ir::Target, vars: &[String], e: &ast::Expr) -> RuleExpr {
    use ast::ExprKind as K;
    match &e.kind {
        K::Int(v) => RuleExpr::Int(*v as i64),
        K::Bool(b) => RuleExpr::Int(*b as i64),
        K::Name(n) if n == "len" => RuleExpr::Len,
        K::Name(n) => match vars.iter().position(|v| v == n) {
            Some(i) => RuleExpr::Var(i),
            None => {
                cx.error(e.span, format!("unknown name `{n}`"))
                    .note("rules use quantifier variables, `len` and `property[index]`");
                RuleExpr::Int(0)
            }
        },
        K::Index(base, idx) => match &base.kind {
            K::Name(p) => match t.properties.iter().position(|x| x.name == *p) {
                Some(pi) => RuleExpr::Prop(ir::PropertyId(pi), Box::new(rule_expr(cx, t, vars, idx))),
                None => {
                    cx.error(base.span, format!("unknown property `{p}`"));
                    RuleExpr::Int(0)
                }
            },
            _ => {
                cx.error(e.span, "expected `property[index]`");
                RuleExpr::Int(0)
            }
        },
        K::Unary(op, x) => match un_op(*op) {
            UnOp::Not => RuleExpr::Not(Box::new(rule_expr(cx, t, vars, x))),
            UnOp::Neg => RuleExpr::Binary(
                BinOp::Arith(ArithOp::Sub),
                Box::new(RuleExpr::Int(0)),
                Box::new(rule_expr(cx, t, vars, x)),
            ),
        },
        K::Binary(op, a, b) => RuleExpr::Binary(
            bin_op(*op),
            Box::new(rule_expr(cx, t, vars, a)),
            Box::new(rule_expr(cx, t, vars, b)),
        ),
        _ => {
            cx.error(e.span, "this expression is not allowed in a rule");
            RuleExpr::Int(0)
        }
    }
}
