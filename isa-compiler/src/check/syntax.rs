//! Templates → per-format, per-dialect syntax. Each format's syntax is instantiated for its own
//! fields: calls bind parameters to fields, arms whose guards fold to false under the format's
//! fixed fields are dropped (so one template serves formats that lack some fields), and every
//! name is resolved here, once, for both the printer and the parser.

use super::cond::{self, Binding, Known, Scope};
use super::Checker;
use crate::ast::{self, Span};
use crate::ir::{self, CondExpr, NumStyle, NumberKind, Show, SyntaxArm, SyntaxItem, SyntaxPart, Type};
use std::collections::{BTreeMap, BTreeSet};

pub fn lower_all(cx: &mut Checker, file: &ast::File, origins: &super::fields::Origins, t: &mut ir::Target) {
    let mut templates: BTreeMap<&str, &ast::TemplateDef> = BTreeMap::new();
    for item in &file.items {
        if let ast::Item::Template(td) = item {
            templates.insert(&td.name.name, td);
        }
    }
    let cyclic = report_cycles(cx, &templates);
    // Every format's syntax is lowered against the target as it was before any of them (they
    // are stored after the walk): a clone of the whole target kept that state before.
    let mut lowered = Vec::with_capacity(origins.len());
    let target: &ir::Target = t;
    for &(id, decl) in origins {
        let format = target.format(id);
        for (d, _) in &decl.syntax {
            if super::dialect_index(target, &d.name).is_none() {
                cx.error(d.span, format!("unknown dialect `{}`", d.name)).note(format!(
                    "the target declares: {}",
                    target.dialects.iter().map(|d| d.name.as_str()).collect::<Vec<_>>().join(", ")
                ));
            }
        }
        let slots = format.slots();
        // The format's own templates (its groups' and forms') come before the file's.
        let mut scope = templates.clone();
        for td in &decl.templates {
            scope.insert(&td.name.name, td);
        }
        // Local templates may close cycles of their own (a repeat of a file-wide one is
        // reported once: diagnostics are unique by message and place).
        let local_cycles;
        let cyclic = if decl.templates.is_empty() {
            &cyclic
        } else {
            local_cycles = report_cycles(cx, &scope);
            &local_cycles
        };
        let mut out = Vec::new();
        for (di, dialect) in target.dialects.iter().enumerate() {
            // A reserved encoding is shown only by the dialects that say how (Mesa prints
            // reserved load-immediate modes; vc4asm has no text for them).
            let borrowed = decl.syntax.first().filter(|_| format.reserved.is_none());
            let body = decl.syntax.iter().find(|(d, _)| d.name == dialect.name).or(borrowed);
            let Some((_, body)) = body else {
                if di == 0 && decl.syntax.is_empty() {
                    cx.error(decl.name.span, format!("format `{}` has no syntax", decl.name.name))
                        .note(format!("add `syntax {} {{ \"mnemonic\" ... }}`", dialect.name));
                }
                out.push(ir::Syntax::default());
                continue;
            };
            let mut l = Lowerer {
                cx,
                t: target,
                format,
                slots: &slots,
                templates: &scope,
                cyclic,
                parts: Vec::new(),
                instances: Vec::new(),
                depth: 0,
            };
            l.parts.push(SyntaxPart { name: format.name.clone(), arms: Vec::new() });
            let arms = l.body(body, &[]);
            l.parts[0].arms = arms;
            out.push(ir::Syntax { parts: l.parts });
        }
        lowered.push((id, out));
    }
    for (id, out) in lowered {
        t.formats[id.0].syntax = out;
    }
}

/// Templates that call each other in a cycle print without end (the disassembler would recurse
/// until the stack overflows): each cycle is an error showing every call on it. Returns the
/// templates on a cycle.
fn report_cycles<'a>(
    cx: &mut Checker,
    templates: &BTreeMap<&'a str, &'a ast::TemplateDef>,
) -> BTreeSet<&'a str> {
    fn calls<'t>(items: &'t [ast::TItem], out: &mut Vec<(&'t str, Span)>) {
        for it in items {
            match it {
                ast::TItem::Call(name, _, _) => out.push((&name.name, name.span)),
                ast::TItem::Opt(_, body, _) | ast::TItem::AnyOrder(_, body, _) => calls(body, out),
                ast::TItem::Lit(..) | ast::TItem::Hole { .. } => {}
            }
        }
    }
    // Nodes are the templates in name order; cycles.rs finds each cycle from its first.
    let names: Vec<&'a str> = templates.keys().copied().collect();
    let edges: Vec<Vec<(usize, Span)>> = templates
        .values()
        .map(|td| {
            let mut out = Vec::new();
            for arm in &td.body.arms {
                calls(&arm.items, &mut out);
            }
            out.into_iter()
                .filter_map(|(callee, at)| Some((names.binary_search(&callee).ok()?, at)))
                .collect()
        })
        .collect();
    let mut cyclic = BTreeSet::new();
    for cycle in super::cycles::cycles(&edges) {
        let n = cycle.nodes.len();
        let calls: Vec<(&str, &str, Span)> =
            (0..n).map(|i| (names[cycle.nodes[i]], names[cycle.nodes[(i + 1) % n]], cycle.at[i])).collect();
        cyclic.extend(cycle.nodes.iter().map(|&i| names[i]));
        report_cycle(cx, &calls);
    }
    cyclic
}

/// One cycle of calls (caller, callee, where), in the order the search found them.
fn report_cycle(cx: &mut Checker, cycle: &[(&str, &str, Span)]) {
    let names: Vec<String> = cycle.iter().map(|(caller, _, _)| format!("`{caller}`")).collect();
    let message = match names.as_slice() {
        [one] => format!("template {one} calls itself"),
        [a, b] => format!("templates {a} and {b} call each other"),
        [rest @ .., last] => format!("templates {} and {last} call each other in a cycle", rest.join(", ")),
        [] => return,
    };
    let (first, rest) = (&cycle[0], &cycle[1..]);
    let d = cx.error(first.2, message).label(format!("`{}` calls `{}` ...", first.0, first.1));
    for (caller, callee, span) in rest {
        d.with(*span, format!("... `{caller}` calls `{callee}`"));
    }
    d.note("a template that calls itself, directly or through others, prints without end: break the cycle");
}

struct Lowerer<'a, 'c> {
    cx: &'c mut Checker,
    t: &'a ir::Target,
    format: &'a ir::Format,
    slots: &'a [ir::Slot],
    templates: &'a BTreeMap<&'a str, &'a ast::TemplateDef>,
    /// Templates on a reported cycle: calls to them are not followed.
    cyclic: &'a BTreeSet<&'a str>,
    parts: Vec<SyntaxPart>,
    instances: Vec<(String, usize)>,
    depth: usize,
}

impl Lowerer<'_, '_> {
    fn known(&self) -> impl Fn(ir::SlotId) -> Known + '_ {
        move |slot: ir::SlotId| {
            let Some(s) = self.slots.get(slot.0) else {
                return Known::Nothing;
            };
            let field = self.format.field(s.field);
            match (s.element, field.fixed, &field.allowed) {
                (None, Some(v), _) => Known::Value(v as i64),
                (None, None, Some(r)) => {
                    Known::Ranges(r.iter().map(|(a, b)| (*a as i64, *b as i64)).collect())
                }
                _ => Known::Nothing,
            }
        }
    }

    /// Lowers and folds a condition; the right of `&&` is not resolved once the left folds to
    /// false, so a guard like `sig == small_imm && small_imm >= 48` works in formats without
    /// a `small_imm` field.
    /// Checks an `any_order`'s separator: text that tells the groups apart (a blank matches any
    /// run of blanks or none), and that no group writes itself.
    fn separator(&mut self, sep: &str, span: Span, groups: &[ast::TItem]) {
        let text = sep.trim();
        if text.is_empty() {
            self.cx
                .error(span, "an `any_order` separator needs text other than blanks")
                .note("a blank reads any run of blanks or none, so it cannot tell the groups apart");
            return;
        }
        for g in groups {
            let ast::TItem::Opt(_, body, group) = g else { continue };
            let lit = |item: Option<&ast::TItem>, f: &dyn Fn(&str) -> bool| match item {
                Some(ast::TItem::Lit(s, _)) => f(s.trim()),
                _ => false,
            };
            if lit(body.first(), &|s| s.starts_with(text)) || lit(body.last(), &|s| s.ends_with(text)) {
                self.cx
                    .error(*group, format!("this group writes the separator `{sep}` itself"))
                    .label("the `any_order` writes it between the groups written")
                    .note("leave it out of the group's text");
            }
        }
    }

    fn lower_cond(&mut self, e: &ast::Expr, params: &[(String, Binding)]) -> CondExpr {
        if let ast::ExprKind::Binary(ast::BinOp::And, a, b) = &e.kind {
            let left = self.lower_cond(a, params);
            if left == CondExpr::Int(0) {
                return left;
            }
            let right = self.lower_cond(b, params);
            return cond::fold(&CondExpr::And(vec![left, right]), &self.known(), params);
        }
        let scope = Scope { t: self.t, format: self.format, slots: self.slots, params };
        let (c, _) = cond::lower(self.cx, &scope, e);
        // Constants folded first (`-1` is `0 - 1`), so that a signed field's comparison with
        // one is seen as such.
        let c = cond::fold(&c, &|_| Known::Nothing, params);
        let c = self.signed_values(&c, params, e.span);
        let c = cond::fold(&c, &self.known(), params);
        self.raw_comparisons(&c, e.span);
        c
    }

    /// The width of the signed field `e` reads (a field, or a parameter bound to one), when
    /// it is narrower than 64 bits (a 64-bit field's raw bits read as an `i64` are its value).
    fn signed_width(&self, e: &CondExpr, params: &[(String, Binding)]) -> Option<u32> {
        let ty = match e {
            CondExpr::Field(slot) => self.format.field(self.slots[slot.0].field).ty.clone(),
            CondExpr::Param(p) => params.get(*p)?.1.ty.clone()?,
            _ => return None,
        };
        match ty {
            Type::SInt(w) if (1..64).contains(&w) => Some(w),
            _ => None,
        }
    }

    /// A guard reads a signed field's value, as its text shows it (`x < 0` holds for the
    /// negative values): the printer and the assembler read raw bits, so each comparison of a
    /// signed field is rewritten over its bits. `x == -1` compares the bits of -1 (so the
    /// assembler still assigns them), `x in {-2..=1}` the bits of each value, `x < c` the bits
    /// with the sign bit flipped (`x ^ 2^(w-1) < c + 2^(w-1)`: the order of the values), and
    /// elsewhere (`x + 1`, `x == y`) the field's bits sign-extend (`(x ^ m) - m`). A constant
    /// no value of the field equals is an error.
    fn signed_values(&mut self, c: &CondExpr, params: &[(String, Binding)], span: Span) -> CondExpr {
        use ir::{ArithOp, CmpOp};
        let arith = |op, a, b| CondExpr::Arith(op, Box::new(a), Box::new(b));
        match c {
            CondExpr::Cmp(op, a, b) => {
                // A signed field against a constant: over its bits.
                let lone = match (&**a, &**b) {
                    (x, CondExpr::Int(v)) => self.signed_width(x, params).map(|w| (x, *v, w, *op)),
                    (CondExpr::Int(v), x) => {
                        let flipped = match op {
                            CmpOp::Lt => CmpOp::Gt,
                            CmpOp::Le => CmpOp::Ge,
                            CmpOp::Gt => CmpOp::Lt,
                            CmpOp::Ge => CmpOp::Le,
                            other => *other,
                        };
                        self.signed_width(x, params).map(|w| (x, *v, w, flipped))
                    }
                    _ => None,
                };
                if let Some((x, v, w, op)) = lone {
                    let m = 1i64 << (w - 1);
                    if matches!(op, CmpOp::Eq | CmpOp::Ne) {
                        if !(-m..m).contains(&v) {
                            let name = self.value_name(x, params);
                            self.cx
                                .error(
                                    span,
                                    format!("a guard compares `{name}`'s values ({}..={}), which are never {v}", -m, m - 1),
                                )
                                .note(format!(
                                    "`{name}` is a signed {w}-bit field: guards read its value, as its text shows it"
                                ));
                            return CondExpr::Int((op == CmpOp::Ne) as i64);
                        }
                        return CondExpr::Cmp(
                            op,
                            Box::new(x.clone()),
                            Box::new(CondExpr::Int(v & ((m << 1) - 1))),
                        );
                    }
                    let biased = arith(ArithOp::BitXor, x.clone(), CondExpr::Int(m));
                    return CondExpr::Cmp(op, Box::new(biased), Box::new(CondExpr::Int(v.saturating_add(m))));
                }
                let (a, b) = (self.signed_operand(a, params, span), self.signed_operand(b, params, span));
                CondExpr::Cmp(*op, Box::new(a), Box::new(b))
            }
            CondExpr::In(x, ranges) => match self.signed_width(x, params) {
                Some(w) => {
                    let m = 1i64 << (w - 1);
                    let mut bits = Vec::new();
                    for &(lo, hi) in ranges {
                        let (lo, hi) = (lo.max(-m), hi.min(m - 1));
                        if lo > hi {
                            continue;
                        }
                        if lo < 0 {
                            bits.push((lo + 2 * m, hi.min(-1) + 2 * m));
                        }
                        if hi >= 0 {
                            bits.push((lo.max(0), hi));
                        }
                    }
                    if bits.is_empty() {
                        let name = self.value_name(x, params);
                        self.cx
                            .error(span, format!("a guard's set holds none of `{name}`'s values ({}..={})", -m, m - 1))
                            .note(format!(
                                "`{name}` is a signed {w}-bit field: guards read its value, as its text shows it"
                            ));
                        return CondExpr::Int(0);
                    }
                    CondExpr::In(x.clone(), bits)
                }
                None => CondExpr::In(Box::new(self.signed_operand(x, params, span)), ranges.clone()),
            },
            CondExpr::Not(x) => CondExpr::Not(Box::new(self.signed_values(x, params, span))),
            CondExpr::And(xs) => {
                CondExpr::And(xs.iter().map(|x| self.signed_values(x, params, span)).collect())
            }
            CondExpr::Or(xs) => {
                CondExpr::Or(xs.iter().map(|x| self.signed_values(x, params, span)).collect())
            }
            CondExpr::If(k, a, b) => CondExpr::If(
                Box::new(self.signed_values(k, params, span)),
                Box::new(self.signed_operand(a, params, span)),
                Box::new(self.signed_operand(b, params, span)),
            ),
            CondExpr::Arith(op, a, b) => {
                arith(*op, self.signed_operand(a, params, span), self.signed_operand(b, params, span))
            }
            _ => c.clone(),
        }
    }

    /// `e` as a value: a signed field's bits sign-extended, `(x ^ m) - m`.
    fn signed_operand(&mut self, e: &CondExpr, params: &[(String, Binding)], span: Span) -> CondExpr {
        use ir::ArithOp;
        match self.signed_width(e, params) {
            Some(w) => {
                let m = CondExpr::Int(1i64 << (w - 1));
                let flipped = CondExpr::Arith(ArithOp::BitXor, Box::new(e.clone()), Box::new(m.clone()));
                CondExpr::Arith(ArithOp::Sub, Box::new(flipped), Box::new(m))
            }
            None => self.signed_values(e, params, span),
        }
    }

    /// The name of the field `e` reads (a parameter's own name).
    fn value_name(&self, e: &CondExpr, params: &[(String, Binding)]) -> String {
        match e {
            CondExpr::Field(slot) => self.format.field(self.slots[slot.0].field).name.clone(),
            CondExpr::Param(p) => params.get(*p).map_or_else(String::new, |b| b.0.clone()),
            _ => String::new(),
        }
    }

    /// Guards compare a field's raw bits in the printer and the assembler ([`Self::signed_values`]
    /// has rewritten a signed field's comparisons over its bits): `y != 99` on a 4-bit field
    /// always holds, so it is reported where it is written rather than left an arm the printer
    /// never takes (or always does).
    fn raw_comparisons(&mut self, c: &CondExpr, span: Span) {
        match c {
            CondExpr::Not(x) => self.raw_comparisons(x, span),
            CondExpr::And(xs) | CondExpr::Or(xs) => xs.iter().for_each(|x| self.raw_comparisons(x, span)),
            CondExpr::Cmp(ir::CmpOp::Eq | ir::CmpOp::Ne, a, b) => {
                let ((CondExpr::Field(slot), CondExpr::Int(v)) | (CondExpr::Int(v), CondExpr::Field(slot))) =
                    (&**a, &**b)
                else {
                    return;
                };
                let field = self.format.field(self.slots[slot.0].field);
                let width = field.width();
                if width == 0 || width >= 64 || (0..1i64 << width).contains(v) {
                    return;
                }
                let top = (1i64 << width) - 1;
                self.cx.error(
                    span,
                    format!("a guard compares `{}`'s raw bits (0..={top}), which are never {v}", field.name),
                );
            }
            _ => {}
        }
    }

    fn body(&mut self, body: &ast::TemplateBody, params: &[(String, Binding)]) -> Vec<SyntaxArm> {
        let mut arms: Vec<SyntaxArm> = Vec::new();
        // After an arm that always applies no printed arm is reachable; aliases still read.
        let mut closed = false;
        for arm in &body.arms {
            if closed && !arm.alias {
                continue;
            }
            let guard = match &arm.guard {
                None => None,
                Some(g) => match self.lower_cond(g, params) {
                    CondExpr::Int(0) => continue,
                    CondExpr::Int(_) => None,
                    c => Some(c),
                },
            };
            // An arm whose guard an earlier arm already took is unreachable: skip it unresolved.
            if !arm.alias && guard.is_some() && arms.iter().any(|a| !a.alias && a.guard == guard) {
                continue;
            }
            let items = self.items(&arm.items, params);
            closed |= !arm.alias && guard.is_none();
            arms.push(SyntaxArm { guard, items, alias: arm.alias });
        }
        if arms.is_empty() {
            self.cx
                .error(body.span, format!("no arm of this syntax applies to format `{}`", self.format.name));
        } else if arms.iter().all(|a| a.alias) {
            self.cx.error(
                body.span,
                format!(
                    "only `alias` arms of this syntax apply to format `{}`: the printer needs an arm it writes",
                    self.format.name
                ),
            );
        }
        arms
    }

    fn items(&mut self, items: &[ast::TItem], params: &[(String, Binding)]) -> Vec<SyntaxItem> {
        let mut out = Vec::new();
        // Whether the last item is a string parameter's text (the only literal a call gives).
        let mut text_last = false;
        for it in items {
            let text_before = std::mem::take(&mut text_last);
            match it {
                ast::TItem::Lit(s, _) => match out.last_mut() {
                    Some(SyntaxItem::Lit(before)) if text_before => before.push_str(s),
                    _ => out.push(SyntaxItem::Lit(s.clone())),
                },
                ast::TItem::Hole { expr, fmt, table, base, span } => {
                    if let Some(x) = self.hole(expr, fmt, table, base, *span, params) {
                        out.push(x);
                    }
                }
                ast::TItem::Call(name, args, span) => {
                    match (self.call(name, args, *span, params), out.last_mut()) {
                        // Text joins the literals beside it, as if written as one.
                        (Some(SyntaxItem::Lit(text)), Some(SyntaxItem::Lit(before))) => {
                            before.push_str(&text);
                            text_last = true;
                        }
                        (Some(x), _) => {
                            text_last = matches!(x, SyntaxItem::Lit(_));
                            out.push(x);
                        }
                        (None, _) => {}
                    }
                }
                ast::TItem::Opt(c, body, _) => match self.lower_cond(c, params) {
                    CondExpr::Int(0) => {}
                    CondExpr::Int(_) => out.extend(self.items(body, params)),
                    c => {
                        let inner = self.items(body, params);
                        out.push(SyntaxItem::Opt(c, inner));
                    }
                },
                ast::TItem::AnyOrder(separator, groups, _) => {
                    if let Some((sep, span)) = separator {
                        self.separator(sep, *span, groups);
                    }
                    // A group that can never be present drops out; one always present is still
                    // one of the groups (it is read wherever it stands).
                    let mut lowered = Vec::new();
                    for g in groups {
                        if let ast::TItem::Opt(c, body, _) = g {
                            match self.lower_cond(c, params) {
                                CondExpr::Int(0) => {}
                                c => {
                                    let inner = self.items(body, params);
                                    lowered.push(SyntaxItem::Opt(c, inner));
                                }
                            }
                        }
                    }
                    let separator = separator.as_ref().map_or(String::new(), |(s, _)| s.clone());
                    out.push(SyntaxItem::AnyOrder(separator, lowered));
                }
            }
        }
        out
    }

    fn value(&mut self, e: &ast::Expr, params: &[(String, Binding)]) -> Option<(CondExpr, Option<Type>)> {
        let scope = Scope { t: self.t, format: self.format, slots: self.slots, params };
        let (c, ty) = cond::lower(self.cx, &scope, e);
        let text = |(p, b): &(String, Binding)| {
            b.text.is_some() && matches!(&e.kind, ast::ExprKind::Name(n) if n == p)
        };
        if params.iter().any(text) {
            return None; // reported by `lower`
        }
        match &c {
            CondExpr::Field(_) | CondExpr::Param(_) => Some((c, ty)),
            // A value computed from fields (the second register of a pair, `{n + 1}`): the
            // assembler reads it as an echo of the fields the line gave before it.
            CondExpr::Arith(..) | CondExpr::If(..) => Some((c, None)),
            _ => {
                self.cx
                    .error(e.span, "a template shows a field or a parameter")
                    .note("to show a computed value, give it a name table (`as`) or a field of its own");
                None
            }
        }
    }

    fn enum_named(&mut self, id: &ast::Ident) -> Option<ir::EnumId> {
        match self.t.enums.iter().position(|e| e.name == id.name) {
            Some(i) => Some(ir::EnumId(i)),
            // No type at all, reported where it is named.
            None if id.name == super::types::NOT_A_TYPE || self.cx.has_error_at(id.span) => None,
            None => {
                self.cx.error(id.span, format!("unknown name table `{}`", id.name)).label("expected an enum");
                None
            }
        }
    }

    fn hole(
        &mut self,
        expr: &ast::Expr,
        fmt: &Option<(String, Span)>,
        table: &Option<ast::TableChoice>,
        base: &Option<ast::Expr>,
        span: Span,
        params: &[(String, Binding)],
    ) -> Option<SyntaxItem> {
        let (value, ty) = self.value(expr, params)?;
        let width = match &ty {
            Some(Type::Bool) => 1,
            Some(Type::UInt(w)) | Some(Type::SInt(w)) => *w,
            Some(Type::Enum(e)) => self.t.enums[e.0].width,
            Some(Type::Number(n)) => self.t.numbers[n.0].kind.width(),
            _ => 64,
        };
        if let Some(b) = base {
            let base = self.lower_cond(b, params);
            // `{imm:#x @ base}` shows the absolute target in hex (`#X`: upper case, the sign
            // after the prefix); `{imm @ base}` the displacement.
            let style = match fmt {
                Some((f, _)) if f == "#x" || f == "#X" => {
                    NumStyle::Target { bits: width, base, upper: f == "#X" }
                }
                Some((f, fsp)) => {
                    self.cx
                        .error(
                            *fsp,
                            format!("a pc-relative hole takes no format but `#x` or `#X`, not `{f}`"),
                        )
                        .note(
                            "`{imm @ pc + 8}` shows the displacement, `{imm:#x @ pc + 8}` the target address",
                        );
                    return None;
                }
                None => NumStyle::Label { bits: width, base },
            };
            return Some(SyntaxItem::Show(value, Show::Num(style)));
        }
        let show = match (table, fmt) {
            (Some(ast::TableChoice::One(id)), _) => Show::Table(self.enum_named(id)?),
            (Some(ast::TableChoice::If(c, a, b)), _) => {
                let (ea, eb) = (self.enum_named(a)?, self.enum_named(b)?);
                match self.lower_cond(c, params) {
                    CondExpr::Int(0) => Show::Table(eb),
                    CondExpr::Int(_) => Show::Table(ea),
                    c => Show::TableIf(c, ea, eb),
                }
            }
            (None, Some((f, fsp))) => {
                let float = match &ty {
                    Some(Type::Number(n)) => Some(self.t.numbers[n.0].kind),
                    Some(Type::UInt(w)) | Some(Type::SInt(w)) => ieee_format(*w),
                    _ => None,
                };
                Show::Num(num_style(self.cx, f, *fsp, width, float)?)
            }
            (None, None) => {
                match ty {
                    Some(Type::Enum(e)) => Show::Table(e),
                    Some(Type::Bool) | Some(Type::UInt(_)) => Show::Num(NumStyle::Dec),
                    Some(Type::SInt(w)) => Show::Num(NumStyle::Signed { bits: w, plus: false }),
                    Some(Type::Switch { .. }) => {
                        self.cx.error(span, "this field's meaning depends on another field: say which table to show it with")
                        .note("e.g. `{pack as (if pm then MulPack else RegfilePack)}`");
                        return None;
                    }
                    _ => Show::Num(NumStyle::Dec),
                }
            }
        };
        // A parameter whose argument is a number shows one text at this call: it is that text,
        // printed and read as a literal (`{b}` of `wait_mark(0)` is `0`).
        if let (CondExpr::Param(p), Show::Num(NumStyle::Dec)) = (&value, &show) {
            if let Some(CondExpr::Int(k @ 0..)) = params.get(*p).map(|(_, b)| &b.expr) {
                return Some(SyntaxItem::Lit(k.to_string()));
            }
        }
        Some(SyntaxItem::Show(value, show))
    }

    fn call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        params: &[(String, Binding)],
    ) -> Option<SyntaxItem> {
        // A parameter bound to a string, named as an item, is that text.
        if let Some((_, b)) = params.iter().find(|(p, b)| *p == name.name && b.text.is_some()) {
            if args.is_empty() {
                return b.text.clone().map(SyntaxItem::Lit);
            }
        }
        let Some(td) = self.templates.get(name.name.as_str()).copied() else {
            self.cx.error(name.span, format!("unknown template `{}`", name.name));
            return None;
        };
        if self.cyclic.contains(name.name.as_str()) {
            return None;
        }
        if td.params.len() != args.len() {
            self.cx
                .error(
                    span,
                    format!(
                        "template `{}` takes {} arguments, {} given",
                        name.name,
                        td.params.len(),
                        args.len()
                    ),
                )
                .with(td.name.span, "defined here");
            return None;
        }
        let mut bindings = Vec::new();
        for (p, a) in td.params.iter().zip(args) {
            if let ast::ExprKind::Str(text) = &a.kind {
                let text = Some(text.clone());
                bindings.push((p.name.clone(), Binding { expr: CondExpr::Int(0), ty: None, text }));
                continue;
            }
            if matches!(a.kind, ast::ExprKind::Syntax(_) | ast::ExprKind::Fields(_)) {
                self.cx
                    .error(a.span, "a template argument is a field, `!field`, a parameter, a constant or a string")
                    .note("a `syntax { ... }` or `fields { ... }` argument is for a group: `format f = g(fields { ... })`");
                return None;
            }
            let scope = Scope { t: self.t, format: self.format, slots: self.slots, params };
            let (c, ty) = cond::lower(self.cx, &scope, a);
            let c = cond::fold(&c, &self.known(), params);
            let ok = match &c {
                CondExpr::Field(_) | CondExpr::Param(_) | CondExpr::Int(_) => true,
                CondExpr::Not(x) => matches!(**x, CondExpr::Field(_) | CondExpr::Param(_)),
                _ => false,
            };
            if !ok {
                self.cx.error(a.span, "a template argument is a field, `!field`, a parameter or a constant");
                return None;
            }
            let ty = if matches!(c, CondExpr::Not(_)) { Some(Type::Bool) } else { ty };
            bindings.push((p.name.clone(), Binding { expr: c, ty, text: None }));
        }
        let key = format!(
            "{}{:?}",
            name.name,
            bindings.iter().map(|b| (&b.1.expr, &b.1.ty, &b.1.text)).collect::<Vec<_>>()
        );
        if let Some((_, idx)) = self.instances.iter().find(|(k, _)| *k == key) {
            let args = bindings.into_iter().map(|b| b.1.expr).collect();
            return Some(SyntaxItem::Call(*idx, args));
        }
        if self.depth > 16 {
            self.cx.error(span, format!("template `{}` calls itself too deeply", name.name));
            return None;
        }
        let idx = self.parts.len();
        // A copy made for a piece of syntax (`t@2`, families.rs) is shown as the template.
        let shown = name.name.split('@').next().unwrap_or_default().to_string();
        self.parts.push(SyntaxPart { name: shown, arms: Vec::new() });
        self.instances.push((key, idx));
        // Inside the template, parameters are referred to positionally; constant bindings fold.
        let inner: Vec<(String, Binding)> = bindings
            .iter()
            .enumerate()
            .map(|(i, (n, b))| {
                let expr = match b.expr {
                    CondExpr::Int(v) => CondExpr::Int(v),
                    _ => CondExpr::Param(i),
                };
                (n.clone(), Binding { expr, ty: b.ty.clone(), text: b.text.clone() })
            })
            .collect();
        self.depth += 1;
        let arms = self.body(&td.body, &inner);
        self.depth -= 1;
        self.parts[idx].arms = arms;
        let args = bindings.into_iter().map(|b| b.1.expr).collect();
        Some(SyntaxItem::Call(idx, args))
    }
}

/// The IEEE binary format `width` bits wide, if there is one.
fn ieee_format(width: u32) -> Option<NumberKind> {
    let (exponent, mantissa, bias) = match width {
        16 => (5, 10, 15),
        32 => (8, 23, 127),
        64 => (11, 52, 1023),
        _ => return None,
    };
    Some(NumberKind::Float { sign: 1, exponent, mantissa, bias, specials: true, truncate: false })
}

/// Parses a number format spec: `x`, `08x`, `#x`, `#08x`, `d`, `+d`, `cfloat`; `-#x` (hex
/// with a minus sign, the field read as two's complement) and `#x*4` (the value times 4);
/// `.20g` and `.20e` (C's `%g` / `%e` of a float field: a declared float format, or a 16-,
/// 32- or 64-bit field read as IEEE).
fn num_style(
    cx: &mut Checker,
    f: &str,
    span: Span,
    width: u32,
    float: Option<NumberKind>,
) -> Option<NumStyle> {
    if f == "decimal" {
        return match float {
            Some(format) => Some(NumStyle::Decimal { format }),
            None => {
                cx.error(span, "`decimal` shows a value of a number format: the field needs one").note(
                    "declare one (`number fx10 = fixed(...)`) or use a 16-, 32- or 64-bit field (IEEE)",
                );
                None
            }
        };
    }
    if let Some(p) = f.strip_prefix('.') {
        let (digits, exponent) = match (p.strip_suffix('g'), p.strip_suffix('e')) {
            (Some(d), _) => (d, false),
            (_, Some(d)) => (d, true),
            _ => ("", false),
        };
        return match (digits.parse::<u8>(), float) {
            (Ok(precision), Some(format)) if precision <= 40 => {
                Some(NumStyle::Float { format, precision, exponent })
            }
            (Ok(_), None) => {
                cx.error(span, format!("`{f}` shows a number: the field needs a number format"))
                    .note("declare one (`number f20 = float(...)`) or use a 16-, 32- or 64-bit field (IEEE)");
                None
            }
            _ => {
                cx.error(span, format!("unknown number format `{f}`"))
                    .note("float formats: `.20g`, `.6e` (C's `%g`, `%e`)");
                None
            }
        };
    }
    let hex_value = f.starts_with("-#") || f.contains('*');
    if hex_value {
        let (head, scale) = match f.split_once('*') {
            Some((h, n)) => (h, n.parse::<u32>().ok().filter(|n| *n > 0)),
            None => (f, Some(1)),
        };
        let signed = head.starts_with('-');
        return match (head.trim_start_matches('-'), scale) {
            ("#x", Some(scale)) => Some(NumStyle::HexValue { bits: width, signed, scale }),
            _ => {
                cx.error(span, format!("unknown number format `{f}`"))
                    .note("signed and scaled hex: `-#x`, `#x*4`, `-#x*4`");
                None
            }
        };
    }
    let style = match f {
        "d" | "u" => NumStyle::Dec,
        _ if f.len() > 1 && f.ends_with('d') && f[..f.len() - 1].parse::<u8>().is_ok() => {
            NumStyle::DecPadded { digits: f[..f.len() - 1].parse().unwrap_or(0) }
        }
        "s" | "i" => NumStyle::Signed { bits: width, plus: false },
        "+" | "+d" | "+s" => NumStyle::Signed { bits: width, plus: true },
        "cfloat" => NumStyle::CFloat,
        _ if f.ends_with('b') && (f.len() == 1 || f[..f.len() - 1].parse::<u8>().is_ok()) => {
            NumStyle::Bin { digits: f[..f.len() - 1].parse().unwrap_or(0) }
        }
        _ => {
            let (prefix, rest) = match f.strip_prefix('#') {
                Some(r) => (true, r),
                None => (false, f),
            };
            let (digits, upper) = match (rest.strip_suffix('x'), rest.strip_suffix('X')) {
                (Some(d), _) => (Some(d), false),
                (_, Some(d)) => (Some(d), true),
                _ => (None, false),
            };
            match digits {
                Some(d) if d.is_empty() || d.parse::<u8>().is_ok() => {
                    NumStyle::Hex { digits: d.parse().unwrap_or(0), prefix, upper }
                }
                _ => {
                    cx.error(span, format!("unknown number format `{f}`"))
                        .note("formats: `d` (decimal), `02d` (zero-padded decimal), `s` (signed), `+` (signed with `+`), `x`, `08x`, `#x`, `#08x` (hex), `cfloat` (C `%f` of an f32)");
                    return None;
                }
            }
        }
    };
    Some(style)
}
