//! Semantics: machine state, functions, hooks, the semantics of operation enums and each
//! format's `execute` block, typed here so the interpreter backend emits plain Rust.

use super::cond::{bin_op, un_op};
use super::Checker;
use crate::ast::{self, Span};
use crate::ir::{self, ArithOp, BinOp, Builtin, ScalarType as T, SemBlock, SemExpr, SemKind, SemStmt};
use std::collections::HashMap;

/// Resolves a scalar type name.
pub fn scalar(cx: &mut Checker, id: &ast::Ident) -> T {
    match id.name.as_str() {
        "bool" => T::Bool,
        "u32" => T::U32,
        "i32" | "s32" => T::I32,
        "u64" => T::U64,
        "f32" => T::F32,
        "f64" => T::F64,
        other => {
            cx.error(id.span, format!("unknown value type `{other}`"))
                .note("semantics use `bool`, `u32`, `i32`, `u64`, `f32`, `f64`");
            T::U32
        }
    }
}

/// The most values one state array holds (its length, times the machine's elements when it is
/// per element): 512 KiB of u64.
const MAX_STATE_ENTRIES: u64 = 65_536;

pub fn lower(cx: &mut Checker, file: &ast::File, origins: &super::fields::Origins, t: &mut ir::Target) {
    let mut sem = ir::Semantics::default();
    let mut any = false;
    // Functions are methods of the generated machine and hooks of its `Semantics` trait, named
    // in snake_case: two names that differ only where snake_case loses it (`readA` and
    // `read_a`) would be one method twice. (The same name twice is reported with the names.)
    let mut methods: HashMap<(&str, String), &ast::Ident> = HashMap::new();
    for item in &file.items {
        let (what, name) = match item {
            ast::Item::Fn(f) => ("function", &f.name),
            ast::Item::Hook(h) => ("hook", &h.name),
            _ => continue,
        };
        let snake = crate::backend::rust::names::snake(&name.name);
        match methods.get(&(what, snake.clone())) {
            Some(old) if old.name != name.name => {
                cx.error(
                    name.span,
                    format!(
                        "the {what}s `{}` and `{}` are both the method `{snake}` in the generated Rust",
                        old.name, name.name
                    ),
                )
                .with(old.span, format!("`{}` defined here", old.name))
                .note(format!("the generated Rust names a {what} in snake_case; rename one of them"));
            }
            Some(_) => {}
            None => {
                methods.insert((what, snake), name);
            }
        }
    }
    for item in &file.items {
        match item {
            ast::Item::Machine(m) => {
                any = true;
                if let Some((n, at)) = m.elements {
                    match u32::try_from(n) {
                        Ok(n) if (1..=1024).contains(&n) && sem.elements.is_none() => sem.elements = Some(n),
                        Ok(_) if sem.elements.is_some() => {
                            cx.error(at, "`elements` declared twice");
                        }
                        _ => {
                            cx.error(at, format!("a machine of {n} elements"))
                                .note("`elements n` takes 1 to 1024 SIMD elements");
                        }
                    }
                }
                for (doc, name, count, ty, per_element) in &m.state {
                    if sem.state.iter().any(|s| s.name == name.name) {
                        cx.error(name.span, format!("state `{}` declared twice", name.name));
                    }
                    let ty = scalar(cx, ty);
                    // The generated machine keeps each array inline: its length is bounded, and
                    // a number that a u32 cannot hold was cut to its low bits before.
                    let lanes = if *per_element { u64::from(sem.elements.unwrap_or(1)) } else { 1 };
                    if let Some(c) = *count {
                        if c == 0 || c.saturating_mul(lanes) > MAX_STATE_ENTRIES {
                            cx.error(name.span, format!("state `{}` of {c} entries", name.name)).note(format!(
                                "a state array holds 1 to {MAX_STATE_ENTRIES} values (times the machine's elements when per element): the generated machine keeps it inline"
                            ));
                        }
                    }
                    sem.state.push(ir::StateElem {
                        name: name.name.clone(),
                        doc: doc.clone(),
                        count: count.map(|c| c as u32),
                        ty,
                        per_element: *per_element,
                    });
                }
            }
            ast::Item::Hook(h) => {
                any = true;
                builtin_name(cx, &h.name, "hook");
                let params = h.sig.params.iter().map(|(n, ty)| (n.name.clone(), scalar(cx, ty))).collect();
                let ret = h.sig.ret.as_ref().map(|r| scalar(cx, r));
                sem.hooks.push(ir::Hook { name: h.name.name.clone(), doc: h.doc.clone(), params, ret });
            }
            ast::Item::Fn(f) => {
                any = true;
                builtin_name(cx, &f.name, "fn");
                let params = f.sig.params.iter().map(|(n, ty)| (n.name.clone(), scalar(cx, ty))).collect();
                let ret = f.sig.ret.as_ref().map(|r| scalar(cx, r));
                sem.functions.push(ir::Function {
                    name: f.name.name.clone(),
                    doc: f.doc.clone(),
                    params,
                    ret,
                    body: SemBlock::default(),
                });
            }
            _ => {}
        }
    }
    if sem.elements.is_none() {
        for item in &file.items {
            if let ast::Item::Machine(m) = item {
                for (_, name, _, _, per_element) in &m.state {
                    if *per_element {
                        cx.error(
                            name.span,
                            format!("`{}` is per element, but the machine has no elements", name.name),
                        )
                        .note("declare the SIMD width first: `machine { elements 16 ... }`");
                    }
                }
            }
        }
    }
    // Bodies, now that every signature is known. They are lowered against the target as it
    // is here and stored after the walk (a clone of the whole target kept that state before,
    // paid by every spec, with semantics or not).
    let snapshot: &ir::Target = t;
    let mut variant_semantics = Vec::new();
    let mut executes = Vec::new();
    let mut fi = 0;
    let mut calls: Vec<Vec<(usize, Span)>> = Vec::new();
    for item in &file.items {
        if let ast::Item::Fn(f) = item {
            let (params, ret) = (sem.functions[fi].params.clone(), sem.functions[fi].ret);
            let mut l = Lower {
                cx,
                t: snapshot,
                sem: &sem,
                format: None,
                locals: params,
                in_variant: false,
                lockstep: Lockstep::Free,
                calls: Vec::new(),
            };
            let body = l.block(&f.body, ret);
            calls.push(std::mem::take(&mut l.calls));
            sem.functions[fi].body = body;
            fi += 1;
        }
    }
    recursion(cx, &sem, &calls);
    // Operation semantics.
    let mut ei = 0;
    for item in &file.items {
        if let ast::Item::Enum(e) = item {
            if ei >= snapshot.enums.len() {
                break;
            }
            let (params, ret) = snapshot.enums[ei].signature.clone().unwrap_or_default();
            for (vi, v) in e.variants.iter().enumerate() {
                if let Some(body) = &v.semantics {
                    any = true;
                    let mut l = Lower {
                        cx,
                        t: snapshot,
                        sem: &sem,
                        format: None,
                        locals: params.clone(),
                        in_variant: true,
                        lockstep: Lockstep::Free,
                        calls: Vec::new(),
                    };
                    let x = l.expr(body, ret);
                    variant_semantics.push((ei, vi, x));
                }
            }
            ei += 1;
        }
    }
    // Execute blocks.
    for &(id, decl) in origins {
        if let Some(b) = &decl.execute {
            any = true;
            let mut l = Lower {
                cx,
                t: snapshot,
                sem: &sem,
                format: Some(id),
                locals: Vec::new(),
                in_variant: false,
                lockstep: Lockstep::Outside,
                calls: Vec::new(),
            };
            let block = l.block(b, None);
            executes.push((id, block));
        }
    }
    for (ei, vi, x) in variant_semantics {
        if let Some(slot) = t.enums[ei].variants.get_mut(vi) {
            slot.semantics = Some(x);
        }
    }
    for (id, block) in executes {
        t.formats[id.0].execute = Some(block);
    }
    if any {
        t.semantics = Some(sem);
    }
}

struct Lower<'a, 'c> {
    cx: &'c mut Checker,
    t: &'a ir::Target,
    sem: &'a ir::Semantics,
    format: Option<ir::FormatId>,
    locals: Vec<(String, T)>,
    in_variant: bool,
    lockstep: Lockstep,
    /// The spec functions this body calls, where: a function's calls are the edges in which
    /// recursion is looked for.
    calls: Vec<(usize, Span)>,
}

/// Where per-element state may be read: an execute block runs once per instruction, so it
/// reaches per-element state only inside `each element`, `in_element`, `all` or `any`; a
/// function runs in its caller's element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lockstep {
    Outside,
    Inside,
    Free,
}

fn ex(kind: SemKind, ty: T) -> SemExpr {
    SemExpr { kind, ty }
}

impl Lower<'_, '_> {
    fn err(&mut self, span: Span, msg: impl Into<String>) -> SemExpr {
        self.cx.error(span, msg);
        ex(SemKind::Int(0), T::U32)
    }

    fn block(&mut self, b: &ast::Block, want: Option<T>) -> SemBlock {
        let depth = self.locals.len();
        let mut stmts = Vec::new();
        for s in &b.stmts {
            match s {
                ast::Stmt::Let(name, e) => {
                    let v = self.expr(e, None);
                    self.locals.push((name.name.clone(), v.ty));
                    stmts.push(SemStmt::Let(name.name.clone(), v.ty, v));
                }
                ast::Stmt::Assign(name, idx, e) => {
                    let Some(si) = self.sem.state.iter().position(|s| s.name == name.name) else {
                        self.cx.error(name.span, format!("`{}` is not machine state", name.name)).note(
                            "assignments write state declared in `machine { ... }`; use `let` for locals",
                        );
                        continue;
                    };
                    let (count, ty) = (self.sem.state[si].count, self.sem.state[si].ty);
                    self.per_element_access(si, name.span);
                    let index = match (idx, count) {
                        (Some(i), Some(_)) => Some(self.expr(i, Some(T::U32))),
                        (None, None) => None,
                        (Some(i), None) => {
                            self.cx.error(i.span, format!("`{}` is not an array", name.name));
                            None
                        }
                        (None, Some(_)) => {
                            self.cx.error(
                                name.span,
                                format!("`{}` is an array: write `{}[index]`", name.name, name.name),
                            );
                            None
                        }
                    };
                    let v = self.expr(e, Some(ty));
                    let v = self.coerce(v, ty, e.span);
                    stmts.push(SemStmt::Assign(si, index, v));
                }
                ast::Stmt::If(c, a, b) => {
                    let c = self.cond(c);
                    let a = self.block(a, None);
                    let b = b.as_ref().map(|b| self.block(b, None));
                    stmts.push(SemStmt::If(c, a, b));
                }
                ast::Stmt::EachElement(body, at) => {
                    if self.sem.elements.is_none() {
                        self.cx
                            .error(*at, "`each element` in a machine without elements")
                            .note("declare the SIMD width: `machine { elements 16 ... }`");
                    }
                    let outer = self.lockstep;
                    if outer == Lockstep::Outside {
                        self.lockstep = Lockstep::Inside;
                    }
                    let body = self.block(body, None);
                    self.lockstep = outer;
                    stmts.push(SemStmt::EachElement(body));
                }
                ast::Stmt::For { var, lo, hi, inclusive, body } => {
                    // The bounds are u32 values: another integer type is not converted
                    // unsaid (a u64 bound cut to 32 bits, an i32 -1 run to 2^32 - 1).
                    let [lo_v, hi_v] = [lo, hi].map(|b| {
                        let v = self.expr(b, Some(T::U32));
                        if matches!(v.ty, T::I32 | T::U64) {
                            self.cx
                                .error(b.span, format!("a loop bound is a `u32`, not `{}`", type_name(v.ty)))
                                .note("convert explicitly: `u32(x)`");
                        }
                        self.coerce(v, T::U32, b.span)
                    });
                    self.locals.push((var.name.clone(), T::U32));
                    let body = self.block(body, None);
                    self.locals.pop();
                    let var = var.name.clone();
                    stmts.push(SemStmt::For { var, lo: lo_v, hi: hi_v, inclusive: *inclusive, body });
                }
                ast::Stmt::Expr(e) => {
                    let v = self.expr(e, None);
                    stmts.push(SemStmt::Expr(v));
                }
            }
        }
        let value = b.value.as_ref().map(|v| {
            let x = self.expr(v, want);
            Box::new(match want {
                Some(w) => self.coerce(x, w, v.span),
                None => x,
            })
        });
        if let (Some(w), None) = (want, &value) {
            let _ = w;
        }
        self.locals.truncate(depth);
        SemBlock { stmts, value }
    }

    fn cond(&mut self, e: &ast::Expr) -> SemExpr {
        let c = self.expr(e, Some(T::Bool));
        if c.ty != T::Bool {
            self.cx.error(e.span, "expected a condition (a `bool`)");
        }
        c
    }

    fn coerce(&mut self, x: SemExpr, want: T, span: Span) -> SemExpr {
        if x.ty == want {
            return x;
        }
        match (&x.kind, want) {
            (SemKind::Int(v), T::U32 | T::I32) if *v > i128::from(u32::MAX) => {
                self.cx
                    .error(span, format!("{v} does not fit a 32-bit `{}`", type_name(want)))
                    .note(format!("as a u64: `u64({v})`"));
                ex(SemKind::Int(0), want)
            }
            (SemKind::Int(v), T::U32 | T::I32 | T::U64) => ex(SemKind::Int(*v), want),
            // A float constant takes the float type its place wants (`x < 0.0` of an f64).
            _ if is_float(x.ty) && is_float(want) && float_constant(&x) => retype(x, want),
            (_, T::U32 | T::I32 | T::U64) if !is_float(x.ty) && x.ty != T::Bool => {
                let b = match want {
                    T::U32 => Builtin::U32,
                    T::U64 => Builtin::U64,
                    _ => Builtin::I32,
                };
                ex(SemKind::Builtin(b, vec![x]), want)
            }
            _ => {
                self.cx.error(span, format!("expected a value of type `{}`, found `{}`", type_name(want), type_name(x.ty)))
                    .note("convert explicitly: `f32(bits)`, `f64(bits)`, `bits(float)`, `float(int)`, `float64(x)`, `int(float)`, `u32(x)`, `i32(x)`");
                x
            }
        }
    }

    fn expr(&mut self, e: &ast::Expr, want: Option<T>) -> SemExpr {
        use ast::ExprKind as K;
        match &e.kind {
            // A number past 32 bits is a u64 unless a 32-bit value is wanted, where it is an
            // error (`pc = 4294967296` and `for k in 0..4294967296` were 0, silently).
            K::Int(v) => {
                let ty = match want {
                    Some(t @ (T::U32 | T::I32 | T::U64)) => t,
                    _ if *v > u64::from(u32::MAX) => T::U64,
                    _ => T::U32,
                };
                self.coerce(ex(SemKind::Int(*v as i128), T::U64), ty, e.span)
            }
            // Semantics compute in f32: a constant that becomes infinite there is an error.
            K::Float(f) if want == Some(T::F64) => ex(SemKind::Float(*f), T::F64),
            K::Float(f) if !(*f as f32).is_finite() => {
                self.err(e.span, format!("{f} does not fit a 32-bit float"))
            }
            K::Float(f) => ex(SemKind::Float(*f), T::F32),
            K::Bool(b) => ex(SemKind::Bool(*b), T::Bool),
            // Only a group's argument is a string; the family expansion reports it in a value.
            K::Str(_) => self.err(e.span, "a string has no value"),
            K::Syntax(_) | K::Fields(_) => {
                self.err(e.span, "a row of fields or a piece of syntax has no value")
            }
            K::Name(n) => self.name(n, e.span),
            K::Index(base, idx) => {
                if let K::Name(n) = &base.kind {
                    if let Some(si) = self.sem.state.iter().position(|s| s.name == *n) {
                        if self.sem.state[si].count.is_none() {
                            return self.err(idx.span, format!("`{n}` is not an array"));
                        }
                        let ty = self.sem.state[si].ty;
                        self.per_element_access(si, base.span);
                        let i = self.expr(idx, Some(T::U32));
                        return ex(SemKind::State(si, Some(Box::new(i))), ty);
                    }
                    // An element of an array field: `ra_swizzle[3 - element]`.
                    if let Some(f) = self.format {
                        let format = self.t.format(f);
                        if let Some(fi) = format.fields.iter().position(|x| x.name == *n && x.array.is_some())
                        {
                            let field = &format.fields[fi];
                            if field.view || field.fixed.is_some() || field.is_tag {
                                return self
                                    .err(base.span, format!("`{n}` is not an array of stored fields"));
                            }
                            let ty = if field.ty == ir::Type::Bool { T::Bool } else { T::U32 };
                            let i = self.expr(idx, Some(T::U32));
                            return ex(SemKind::FieldAt(ir::FieldId(fi), Box::new(i)), ty);
                        }
                    }
                }
                self.err(e.span, "only machine state arrays and array fields can be indexed")
            }
            K::Call(name, args) => self.call(name, args, e.span, want),
            K::Unary(op, x) => {
                let x = self.expr(x, want);
                let ty = x.ty;
                ex(SemKind::Unary(un_op(*op), Box::new(x)), ty)
            }
            K::Binary(op, a, b) => self.binary(bin_op(*op), a, b, e.span, want),
            K::If(c, a, b) => {
                let c = self.cond(c);
                let a = self.expr(a, want);
                let b = self.expr(b, Some(a.ty));
                let b = self.coerce(b, a.ty, e.span);
                let ty = a.ty;
                ex(SemKind::If(Box::new(c), Box::new(a), Box::new(b)), ty)
            }
            K::Match(s, arms) => {
                let scrutinee = self.expr(s, Some(T::U32));
                let enum_ty = self.enum_of(s);
                let top = self.matched_top(&scrutinee, s.span);
                let mut out = Vec::new();
                let mut ty = want;
                // The values earlier arms match: an arm (or a value of one) that can match
                // nothing more is unreachable, which rustc rejects in the generated `match`.
                let mut earlier: Vec<(u64, u64)> = Vec::new();
                let all = match scrutinee.ty {
                    T::U32 => Some(u64::from(u32::MAX)),
                    T::U64 => Some(u64::MAX),
                    _ => None,
                };
                for (set, body) in arms {
                    let set = set.as_ref().map(|set| self.reachable_set(set, enum_ty, top, &mut earlier));
                    if set.is_none() {
                        if let Some(max) = all.filter(|&max| covers(&earlier, 0, max)) {
                            let span = match body {
                                ast::MatchBody::Expr(x) => x.span,
                                ast::MatchBody::Block(_) => e.span,
                            };
                            self.cx
                                .error(span, "unreachable match arm: earlier arms match every value")
                                .label(format!("`_` after arms that match 0..={max}"));
                        }
                        earlier.push((0, u64::MAX));
                    }
                    let block = match body {
                        ast::MatchBody::Expr(x) => {
                            let v = self.expr(x, ty);
                            let v = match ty {
                                Some(t) => self.coerce(v, t, x.span),
                                None => v,
                            };
                            ty = Some(v.ty);
                            SemBlock { stmts: Vec::new(), value: Some(Box::new(v)) }
                        }
                        ast::MatchBody::Block(b) => {
                            let blk = self.block(b, ty);
                            if let Some(v) = &blk.value {
                                ty = Some(v.ty);
                            }
                            blk
                        }
                    };
                    out.push((set, block));
                }
                ex(SemKind::Match(Box::new(scrutinee), out), ty.unwrap_or(T::U32))
            }
            K::InSet(x, set) => {
                let scrutinee = self.expr(x, Some(T::U32));
                let en = self.enum_of(x);
                let top = self.matched_top(&scrutinee, x.span);
                let ranges = self.reachable_set(set, en, top, &mut Vec::new());
                let yes =
                    SemBlock { stmts: Vec::new(), value: Some(Box::new(ex(SemKind::Bool(true), T::Bool))) };
                let no =
                    SemBlock { stmts: Vec::new(), value: Some(Box::new(ex(SemKind::Bool(false), T::Bool))) };
                ex(SemKind::Match(Box::new(scrutinee), vec![(Some(ranges), yes), (None, no)]), T::Bool)
            }
            K::Member(_, m) => self.err(m.span, "members are not available in semantics"),
        }
    }

    fn name(&mut self, n: &str, span: Span) -> SemExpr {
        if let Some((_, ty)) = self.locals.iter().rev().find(|(l, _)| l == n) {
            return ex(SemKind::Local(n.to_string()), *ty);
        }
        if self.in_variant && n == "v" {
            return ex(SemKind::VariantValue, T::U32);
        }
        if let Some(si) = self.sem.state.iter().position(|s| s.name == n) {
            if self.sem.state[si].count.is_some() {
                return self.err(span, format!("`{n}` is an array: write `{n}[index]`"));
            }
            self.per_element_access(si, span);
            return ex(SemKind::State(si, None), self.sem.state[si].ty);
        }
        if let Some(f) = self.format {
            let format = self.t.format(f);
            if let Some(fi) = format.fields.iter().position(|x| x.name == n) {
                let ty = if format.fields[fi].ty == ir::Type::Bool { T::Bool } else { T::U32 };
                return ex(SemKind::Field(ir::FieldId(fi)), ty);
            }
        }
        if n == "element" && self.sem.elements.is_some() {
            if self.lockstep == Lockstep::Outside {
                self.cx
                    .error(span, "`element` outside `each element`")
                    .note("an execute block runs once per instruction; per-element work goes in `each element { ... }`");
            }
            return ex(SemKind::Element, T::U32);
        }
        self.err(span, format!("unknown name `{n}`"))
    }

    /// Per-element state read or written where no element is executing is an error.
    fn per_element_access(&mut self, si: usize, span: Span) {
        if self.sem.state[si].per_element && self.lockstep == Lockstep::Outside {
            let name = self.sem.state[si].name.clone();
            self.cx
                .error(span, format!("per-element state `{name}` outside `each element`"))
                .note("an execute block runs once per instruction: write `each element { ... }`, or read one element with `in_element(i, x)`");
        }
    }

    fn enum_of(&self, e: &ast::Expr) -> Option<ir::EnumId> {
        if let (ast::ExprKind::Name(n), Some(f)) = (&e.kind, self.format) {
            let format = self.t.format(f);
            if let Some(field) = format.fields.iter().find(|x| x.name == *n) {
                if let ir::Type::Enum(id) = field.ty {
                    return Some(id);
                }
            }
        }
        None
    }

    /// The largest value a `match` or `in` set can test its value against: the generated Rust
    /// matches the value itself, so it must be an integer and each pattern must fit its type
    /// (rustc rejects a float or bool scrutinee with integer patterns, and a literal past the
    /// type's range). None, after an error, for any other type.
    fn matched_top(&mut self, scrutinee: &SemExpr, span: Span) -> Option<u64> {
        match scrutinee.ty {
            T::U32 => Some(u64::from(u32::MAX)),
            T::U64 => Some(u64::MAX),
            T::I32 => Some(i32::MAX as u64),
            t => {
                let hint = match t {
                    T::Bool => "test it with `if`",
                    _ => "match its bits: `bits(x)`",
                };
                self.cx
                    .error(
                        span,
                        format!("a value of type `{}` cannot be matched against numbers", type_name(t)),
                    )
                    .label(format!("`{}`", type_name(t)))
                    .note(format!("match and `in` take `u32`, `u64` or `i32`; {hint}"));
                None
            }
        }
    }

    /// The ranges of a match arm's value set (or of an `in` set), each an error where the
    /// ranges before it (`earlier`, then the set's own) already hold all its values: rustc
    /// rejects such a pattern in the generated `match` as unreachable. A range past `top`, the
    /// matched type's largest value, is an error too.
    fn reachable_set(
        &mut self,
        set: &[ast::SetElem],
        en: Option<ir::EnumId>,
        top: Option<u64>,
        earlier: &mut Vec<(u64, u64)>,
    ) -> Vec<(u64, u64)> {
        let spanned = self.value_set_spanned(set, en);
        for &(lo, hi, span) in &spanned {
            if let Some(top) = top.filter(|&top| hi > top) {
                self.cx
                    .error(span, format!("{hi} is past the matched value's largest, {top}"))
                    .label("no value of the matched type is this large");
            }
            if covers(earlier, lo, hi) {
                self.cx
                    .error(span, "unreachable match arm: the values before it already hold all of it")
                    .label(format!("{lo}..={hi} is matched before"));
            }
            earlier.push((lo, hi));
        }
        spanned.into_iter().map(|(lo, hi, _)| (lo, hi)).collect()
    }

    /// The ranges of a value set, each with where it is written.
    fn value_set_spanned(&mut self, set: &[ast::SetElem], en: Option<ir::EnumId>) -> Vec<(u64, u64, Span)> {
        let mut out = Vec::new();
        for el in set {
            let (a, b, span) = super::types::set_bounds(el);
            let (Some(lo), Some(hi)) = (self.atom(a, en), self.atom(b, en)) else {
                continue;
            };
            if super::types::nonempty(self.cx, span, lo, hi) {
                out.push((lo, hi, span));
            }
        }
        out
    }

    fn atom(&mut self, a: &ast::Atom, en: Option<ir::EnumId>) -> Option<u64> {
        match a {
            ast::Atom::Int(v, _) => Some(*v),
            ast::Atom::Neg(v, sp) => {
                self.cx
                    .error(*sp, format!("-{v} is no value here: semantics read fields as unsigned numbers"))
                    .note("negative members are values of signed fields in guards, constraints and `in` clauses");
                None
            }
            ast::Atom::Name(id) => {
                let found = en
                    .and_then(|e| self.t.enums[e.0].variants.iter().find(|v| v.name == id.name))
                    .and_then(|v| match v.values {
                        ir::Values::One(x) => Some(x),
                        _ => None,
                    });
                if found.is_none() {
                    self.cx.error(id.span, format!("`{}` is not a value here", id.name));
                }
                found
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, span: Span, want: Option<T>) -> SemExpr {
        match op {
            BinOp::And | BinOp::Or => {
                let (x, y) = (self.cond(a), self.cond(b));
                ex(SemKind::Binary(op, Box::new(x), Box::new(y)), T::Bool)
            }
            BinOp::Cmp(_) => {
                // `op_add == nop`: resolve a bare enum value against the other side's enum.
                let x = self.expr(a, None);
                let y = match (&b.kind, self.enum_of(a)) {
                    (ast::ExprKind::Name(n), Some(en)) if !self.is_bound(n) => {
                        match self.t.enums[en.0]
                            .variants
                            .iter()
                            .find(|v| v.name == *n)
                            .map(|v| v.values.clone())
                        {
                            Some(ir::Values::One(v)) => ex(SemKind::Int(v as i128), x.ty),
                            _ => self.err(
                                b.span,
                                format!("`{n}` is not a value of `{}`", self.t.enums[en.0].name),
                            ),
                        }
                    }
                    _ => self.expr(b, Some(x.ty)),
                };
                let (x, y) = self.unify(x, y, span);
                ex(SemKind::Binary(op, Box::new(x), Box::new(y)), T::Bool)
            }
            BinOp::Arith(ArithOp::Shl | ArithOp::Shr) => {
                let x = self.expr(a, want);
                let y = self.expr(b, Some(T::U32));
                let ty = x.ty;
                ex(SemKind::Binary(op, Box::new(x), Box::new(y)), ty)
            }
            BinOp::Arith(_) => {
                let x = self.expr(a, want);
                let y = self.expr(b, Some(x.ty));
                let (x, y) = self.unify(x, y, span);
                let ty = x.ty;
                ex(SemKind::Binary(op, Box::new(x), Box::new(y)), ty)
            }
        }
    }

    fn is_bound(&self, n: &str) -> bool {
        self.locals.iter().any(|(l, _)| l == n)
            || self.sem.state.iter().any(|s| s.name == n)
            || self.format.is_some_and(|f| self.t.format(f).fields.iter().any(|x| x.name == n))
    }

    fn unify(&mut self, x: SemExpr, y: SemExpr, span: Span) -> (SemExpr, SemExpr) {
        if x.ty == y.ty {
            return (x, y);
        }
        if let SemKind::Int(_) = y.kind {
            let t = x.ty;
            return (x, self.coerce(y, t, span));
        }
        if let SemKind::Int(_) = x.kind {
            let t = y.ty;
            return (self.coerce(x, t, span), y);
        }
        if is_float(x.ty) && is_float(y.ty) && float_constant(&x) {
            let t = y.ty;
            return (retype(x, t), y);
        }
        let t = x.ty;
        let y = self.coerce(y, t, span);
        (x, y)
    }

    fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span, want: Option<T>) -> SemExpr {
        let n = name.name.as_str();
        let builtin = |b: Builtin, ty: T| (b, ty);
        let b = match n {
            "f32" => Some(builtin(Builtin::F32, T::F32)),
            "bits" => Some(builtin(Builtin::Bits, T::U32)),
            "float" => Some(builtin(Builtin::ToFloat, T::F32)),
            "int" => Some(builtin(Builtin::ToInt, T::I32)),
            "u32" => Some(builtin(Builtin::U32, T::U32)),
            "i32" => Some(builtin(Builtin::I32, T::I32)),
            "u64" => Some(builtin(Builtin::U64, T::U64)),
            "popc" => Some(builtin(Builtin::Popc, T::U32)),
            "brev" => Some(builtin(Builtin::Brev, T::U32)),
            "min" => Some(builtin(Builtin::Min, T::U32)),
            "max" => Some(builtin(Builtin::Max, T::U32)),
            "abs" => Some(builtin(Builtin::Abs, T::U32)),
            "clamp" => Some(builtin(Builtin::Clamp, T::U32)),
            "clz" => Some(builtin(Builtin::Clz, T::U32)),
            "rotr" => Some(builtin(Builtin::RotR, T::U32)),
            _ => None,
        };
        if let Some(x) = self.typed_builtin(n, args, span) {
            return x;
        }
        if let Some(x) = self.int_builtin(n, args, span, want) {
            return x;
        }
        if let Some((b, ty)) = b {
            let arity = match b {
                Builtin::Min | Builtin::Max | Builtin::RotR => 2,
                Builtin::Clamp => 3,
                _ => 1,
            };
            if args.len() != arity {
                return self.err(span, format!("`{n}` takes {arity} argument(s)"));
            }
            let hint = match b {
                Builtin::F32 | Builtin::Bits => None,
                Builtin::Min | Builtin::Max | Builtin::Abs | Builtin::Clamp => want,
                _ => None,
            };
            let mut xs: Vec<SemExpr> = Vec::new();
            for a in args {
                let h = xs.first().map(|x: &SemExpr| x.ty).or(hint);
                xs.push(self.expr(a, h));
            }
            let ty = match b {
                Builtin::Min | Builtin::Max | Builtin::Abs | Builtin::Clamp => xs[0].ty,
                Builtin::Bits if xs[0].ty == T::F64 => T::U64,
                _ => ty,
            };
            if matches!(b, Builtin::Min | Builtin::Max | Builtin::Clamp) {
                let t0 = xs[0].ty;
                xs = xs.into_iter().map(|x| self.coerce(x, t0, span)).collect();
            }
            return ex(SemKind::Builtin(b, xs), ty);
        }
        if let Some(fi) = self.sem.functions.iter().position(|f| f.name == n) {
            let f = &self.sem.functions[fi];
            let (params, ret) = (f.params.clone(), f.ret);
            let xs = self.args(&params, args, span, n);
            self.calls.push((fi, name.span));
            return ex(SemKind::Call(fi, xs), ret.unwrap_or(T::U32));
        }
        if let Some(hi) = self.sem.hooks.iter().position(|h| h.name == n) {
            let h = &self.sem.hooks[hi];
            let (params, ret) = (h.params.clone(), h.ret);
            let xs = self.args(&params, args, span, n);
            return ex(SemKind::Hook(hi, xs), ret.unwrap_or(T::U32));
        }
        // An enum-typed field called like a function applies the operation it holds.
        if let Some(f) = self.format {
            let format = self.t.format(f);
            if let Some(fi) = format.fields.iter().position(|x| x.name == n) {
                if let ir::Type::Enum(en) = format.fields[fi].ty {
                    if let Some((params, ret)) = self.t.enums[en.0].signature.clone() {
                        let xs = self.args(&params, args, span, n);
                        let sel = ex(SemKind::Field(ir::FieldId(fi)), T::U32);
                        return ex(SemKind::Op(en, Box::new(sel), xs), ret.unwrap_or(T::U32));
                    }
                }
                return self.err(name.span, format!("field `{n}` does not hold an operation"));
            }
        }
        // `Enum(value, args...)`: the semantics of the enum value held by `value` (operations,
        // or value tables such as small immediates).
        if let Some(en) = self.t.enums.iter().position(|e| e.name == n) {
            let Some((params, ret)) = self.t.enums[en].signature.clone() else {
                return self.err(name.span, format!("enum `{n}` has no semantics signature"));
            };
            if args.len() != params.len() + 1 {
                return self.err(span, format!("`{n}(value, ...)` takes {} argument(s)", params.len() + 1));
            }
            let sel = self.expr(&args[0], Some(T::U32));
            let xs = self.args(&params, &args[1..], span, n);
            return ex(SemKind::Op(ir::EnumId(en), Box::new(sel), xs), ret.unwrap_or(T::U32));
        }
        self.err(name.span, format!("unknown function `{n}`"))
    }

    /// The builtins with fixed parameter types (floats, rounding, float16, byte lanes) and the
    /// SIMD ones (`in_element`, `all`, `any`); `None` for other names.
    fn typed_builtin(&mut self, n: &str, args: &[ast::Expr], span: Span) -> Option<SemExpr> {
        use Builtin as B;
        const F: T = T::F32;
        if let Some(x) = self.float_builtin(n, args, span) {
            return Some(x);
        }
        let (b, params, ret): (Builtin, &[T], T) = match (n, args.len()) {
            ("in_element", _) => return Some(self.in_element(args, span)),
            ("all", _) => (B::All, &[T::Bool], T::Bool),
            ("any", _) => (B::Any, &[T::Bool], T::Bool),
            ("f64", _) => (B::F64, &[T::U64], T::F64),
            ("f16", _) => (B::F16, &[T::U32], F),
            ("bits16", 2) => (B::Bits16, &[F, T::U32], T::U32),
            ("bits16", _) => (B::Bits16, &[F], T::U32),
            ("sqrt", _) => (B::Sqrt, &[F], F),
            ("exp2", _) => (B::Exp2, &[F], F),
            ("log2", _) => (B::Log2, &[F], F),
            ("sin", _) => (B::Sin, &[F], F),
            ("cos", _) => (B::Cos, &[F], F),
            ("bytes_add_sat", _) => (B::BytesAddSat, &[T::U32, T::U32], T::U32),
            ("bytes_sub_sat", _) => (B::BytesSubSat, &[T::U32, T::U32], T::U32),
            ("bytes_min", _) => (B::BytesMin, &[T::U32, T::U32], T::U32),
            ("bytes_max", _) => (B::BytesMax, &[T::U32, T::U32], T::U32),
            ("bytes_mul", _) => (B::BytesMul, &[T::U32, T::U32], T::U32),
            ("prmt", _) => (B::Prmt, &[T::U32, T::U32, T::U32], T::U32),
            ("unmodelled", _) => (B::Unmodelled, &[], T::U32),
            ("illegal", _) => (B::Illegal, &[], T::U32),
            _ => return None,
        };
        if args.len() != params.len() {
            return Some(
                self.err(span, format!("`{n}` takes {} argument(s), {} given", params.len(), args.len())),
            );
        }
        // `all` and `any` look at every element: per-element state is readable in them.
        let outer = self.lockstep;
        if matches!(b, B::All | B::Any) {
            self.need_elements(n, span);
            if outer == Lockstep::Outside {
                self.lockstep = Lockstep::Inside;
            }
        }
        let xs = params
            .iter()
            .zip(args)
            .map(|(&ty, a)| {
                let x = self.expr(a, Some(ty));
                self.coerce(x, ty, a.span)
            })
            .collect();
        self.lockstep = outer;
        Some(ex(SemKind::Builtin(b, xs), ret))
    }

    /// The builtins of `f32` or `f64` values (the type of the floats is `f64` when a float argument
    /// is one, a float constant taking it) and the conversions between the two and integers;
    /// `None` for other names.
    fn float_builtin(&mut self, n: &str, args: &[ast::Expr], span: Span) -> Option<SemExpr> {
        use Builtin as B;
        // The builtin, its float arguments, its `u32` arguments (rounding modes) after them, and
        // its result: the floats' type (`None`) or another.
        let (b, floats, modes, ret) = match (n, args.len()) {
            ("fma", 4) => (B::Fma, 3, 1, None),
            ("fma", _) => (B::Fma, 3, 0, None),
            ("fadd", _) => (B::FAdd, 2, 1, None),
            ("fmul", _) => (B::FMul, 2, 1, None),
            ("round_int", _) => (B::RoundInt, 1, 1, None),
            ("ftz", _) => (B::Ftz, 1, 0, None),
            ("uint", _) => (B::ToUint, 1, 0, Some(T::U32)),
            ("int64", _) => (B::ToInt64, 1, 0, Some(T::U64)),
            ("uint64", _) => (B::ToUint64, 1, 0, Some(T::U64)),
            ("float" | "float64", 2..) => return Some(self.conversion(n, args, span)),
            ("float64", _) => return Some(self.conversion(n, args, span)),
            _ => return None,
        };
        if args.len() != floats + modes {
            return Some(
                self.err(span, format!("`{n}` takes {} argument(s), {} given", floats + modes, args.len())),
            );
        }
        let xs: Vec<SemExpr> = args[..floats].iter().map(|a| self.expr(a, None)).collect();
        let ft = if xs.iter().any(|x| x.ty == T::F64) { T::F64 } else { T::F32 };
        let mut out: Vec<SemExpr> =
            xs.into_iter().zip(args).map(|(x, a)| self.coerce(x, ft, a.span)).collect();
        for a in &args[floats..] {
            let r = self.expr(a, Some(T::U32));
            out.push(self.coerce(r, T::U32, a.span));
        }
        Some(ex(SemKind::Builtin(b, out), ret.unwrap_or(ft)))
    }

    /// `float(x, r)` (to `f32`: from a `u32`, `i32`, `u64` or `f64`) and `float64(x)`,
    /// `float64(x, r)` (to `f64`: from those integers or an `f32`); with a third argument
    /// `signed` (a `bool`), a `u64` converts as the signed integer its bits hold.
    fn conversion(&mut self, n: &str, args: &[ast::Expr], span: Span) -> SemExpr {
        let wide = n == "float64";
        if args.is_empty() || args.len() > 3 {
            return self.err(span, format!("`{n}` takes 1 to 3 argument(s), {} given", args.len()));
        }
        let x = self.expr(&args[0], None);
        let from = if wide { [T::U32, T::I32, T::U64, T::F32] } else { [T::U32, T::I32, T::U64, T::F64] };
        if !from.contains(&x.ty) || (args.len() == 3 && x.ty != T::U64) {
            let what = if args.len() == 3 {
                "a `u64` (with `signed`)".to_string()
            } else {
                format!("a `u32`, `i32`, `u64` or `{}`", type_name(from[3]))
            };
            return self
                .err(args[0].span, format!("`{n}(x, ...)` converts {what}, not `{}`", type_name(x.ty)));
        }
        let mut xs = vec![x];
        for (a, t) in args[1..].iter().zip([T::U32, T::Bool]) {
            let v = self.expr(a, Some(t));
            xs.push(self.coerce(v, t, a.span));
        }
        let (b, ty) = if wide { (Builtin::ToFloat64, T::F64) } else { (Builtin::ToFloatRounded, T::F32) };
        ex(SemKind::Builtin(b, xs), ty)
    }

    /// The integer builtins of `u32` and `u64` values (bit fields, sign extension, clamped
    /// shifts, truth tables, adds with carry); `None` for other names. The value type is `u64`
    /// when a value argument is (or, with only literals, when the context wants one), else
    /// `u32`; counts and positions are `u32`, carries `bool`.
    fn int_builtin(&mut self, n: &str, args: &[ast::Expr], span: Span, want: Option<T>) -> Option<SemExpr> {
        use Builtin as B;
        // V: a value of the operation's type, C: a `u32` count, F: a `bool` flag.
        #[derive(Clone, Copy, PartialEq)]
        enum P {
            V,
            C,
            F,
        }
        use P::{C, F, V};
        let (b, params, flag): (Builtin, &[P], bool) = match (n, args.len()) {
            ("bfe", 4) => (B::Bfe, &[V, C, C, F], false),
            ("bfe", _) => (B::Bfe, &[V, C, C], false),
            ("bfi", _) => (B::Bfi, &[V, V, C, C], false),
            ("sext", _) => (B::Sext, &[V, C], false),
            ("shl", _) => (B::Shl, &[V, C], false),
            ("shr", _) => (B::Shr, &[V, C], false),
            ("asr", _) => (B::Asr, &[V, C], false),
            ("lut3", _) => (B::Lut3, &[V, V, V, C], false),
            ("bfind", 3) => (B::Bfind, &[V, F, F], false),
            ("bfind", 2) => (B::Bfind, &[V, F], false),
            ("bfind", _) => (B::Bfind, &[V], false),
            ("uadd_overflows", 3) => (B::UaddOverflows, &[V, V, F], true),
            ("uadd_overflows", _) => (B::UaddOverflows, &[V, V], true),
            ("sadd_overflows", 3) => (B::SaddOverflows, &[V, V, F], true),
            ("sadd_overflows", _) => (B::SaddOverflows, &[V, V], true),
            ("uadd_sat", 3) => (B::UaddSat, &[V, V, F], false),
            ("uadd_sat", _) => (B::UaddSat, &[V, V], false),
            ("sadd_sat", 3) => (B::SaddSat, &[V, V, F], false),
            ("sadd_sat", _) => (B::SaddSat, &[V, V], false),
            _ => return None,
        };
        if args.len() != params.len() {
            return Some(
                self.err(span, format!("`{n}` takes {} argument(s), {} given", params.len(), args.len())),
            );
        }
        let hint = if flag || b == B::Bfind { None } else { want.filter(|&t| t == T::U64) };
        let xs: Vec<SemExpr> = params
            .iter()
            .zip(args)
            .map(|(&p, a)| match p {
                V => self.expr(a, hint),
                C => self.expr(a, Some(T::U32)),
                F => self.expr(a, Some(T::Bool)),
            })
            .collect();
        let wide = params.iter().zip(&xs).any(|(&p, x)| p == V && x.ty == T::U64);
        let literals = params.iter().zip(&xs).all(|(&p, x)| p != V || matches!(x.kind, SemKind::Int(_)));
        let vt = if wide || (literals && hint == Some(T::U64)) { T::U64 } else { T::U32 };
        let xs = params
            .iter()
            .zip(xs)
            .zip(args)
            .map(|((&p, x), a)| {
                let t = match p {
                    V => vt,
                    C => T::U32,
                    F => T::Bool,
                };
                self.coerce(x, t, a.span)
            })
            .collect();
        let ty = match b {
            _ if flag => T::Bool,
            B::Bfind => T::U32,
            _ => vt,
        };
        Some(ex(SemKind::Builtin(b, xs), ty))
    }

    /// `in_element(i, x)`: `x` as element `i` sees it (the index in the caller's context).
    fn in_element(&mut self, args: &[ast::Expr], span: Span) -> SemExpr {
        self.need_elements("in_element", span);
        let [i, x] = args else {
            return self.err(span, format!("`in_element` takes 2 argument(s), {} given", args.len()));
        };
        let i = self.expr(i, Some(T::U32));
        let i = self.coerce(i, T::U32, args[0].span);
        let outer = self.lockstep;
        if outer == Lockstep::Outside {
            self.lockstep = Lockstep::Inside;
        }
        let x = self.expr(x, None);
        self.lockstep = outer;
        let ty = x.ty;
        ex(SemKind::Builtin(Builtin::InElement, vec![i, x]), ty)
    }

    fn need_elements(&mut self, n: &str, span: Span) {
        if self.sem.elements.is_none() {
            self.cx
                .error(span, format!("`{n}` in a machine without elements"))
                .note("declare the SIMD width: `machine { elements 16 ... }`");
        }
    }

    fn args(&mut self, params: &[(String, T)], args: &[ast::Expr], span: Span, n: &str) -> Vec<SemExpr> {
        if params.len() != args.len() {
            self.cx.error(span, format!("`{n}` takes {} argument(s), {} given", params.len(), args.len()));
            return Vec::new();
        }
        params
            .iter()
            .zip(args)
            .map(|((_, ty), a)| {
                let x = self.expr(a, Some(*ty));
                self.coerce(x, *ty, a.span)
            })
            .collect()
    }
}

/// The builtins' names: a call of one of them never reaches a spec function of that name.
const BUILTINS: &str =
    "f32 f64 bits float float64 int int64 uint64 u32 i32 u64 popc brev min max abs clamp clz rotr in_element all any fma \
     fadd fmul round_int uint ftz f16 bits16 sqrt exp2 log2 sin cos bytes_add_sat bytes_sub_sat \
     bytes_min bytes_max bytes_mul prmt unmodelled illegal bfe bfi sext shl shr asr lut3 bfind uadd_overflows \
     sadd_overflows uadd_sat sadd_sat";

/// A spec function or hook named as a builtin could never be called: an error.
/// A function that calls itself, directly or through others, is an error at the call that closes
/// the cycle: the generated interpreter would recurse without bound (a stack overflow, not a
/// trap), and nothing an instruction does needs it (a repetition is a `for` loop).
fn recursion(cx: &mut Checker, sem: &ir::Semantics, calls: &[Vec<(usize, Span)>]) {
    for cycle in super::cycles::cycles(calls) {
        let names: Vec<&str> = cycle.nodes.iter().map(|&p| sem.functions[p].name.as_str()).collect();
        let Some(&at) = cycle.at.last() else { continue };
        let how = match names.len() {
            1 => format!("`{}` calls itself", names[0]),
            _ => format!("`{}` calls itself through `{}`", names[0], names[1..].join("` → `")),
        };
        cx.error(at, how).note(
            "the semantics language has no recursion (the generated interpreter would overflow its stack): write a repetition as `for k in lo..hi { }`",
        );
    }
}

fn builtin_name(cx: &mut Checker, name: &ast::Ident, what: &str) {
    if BUILTINS.split_whitespace().any(|b| b == name.name) {
        cx.error(name.span, format!("`{what} {}` has the name of a builtin", name.name))
            .note("calls of that name call the builtin: rename the function (the builtins are listed in the language reference)");
    }
}

/// A scalar type's name.
pub fn type_name(t: T) -> &'static str {
    match t {
        T::Bool => "bool",
        T::U32 => "u32",
        T::I32 => "i32",
        T::U64 => "u64",
        T::F32 => "f32",
        T::F64 => "f64",
    }
}

fn is_float(t: T) -> bool {
    matches!(t, T::F32 | T::F64)
}

/// A float literal, or one negated: it takes the float type its place wants.
fn float_constant(x: &SemExpr) -> bool {
    match &x.kind {
        SemKind::Float(_) => true,
        SemKind::Unary(_, inner) => float_constant(inner),
        _ => false,
    }
}

/// A float constant as the float type `t`.
fn retype(x: SemExpr, t: T) -> SemExpr {
    let kind = match x.kind {
        SemKind::Unary(op, inner) => SemKind::Unary(op, Box::new(retype(*inner, t))),
        k => k,
    };
    ex(kind, t)
}

/// Whether the ranges `set` (in any order, overlapping or not) hold every value of `lo..=hi`.
fn covers(set: &[(u64, u64)], lo: u64, hi: u64) -> bool {
    let mut ranges: Vec<(u64, u64)> = set.iter().copied().filter(|&(a, b)| b >= lo && a <= hi).collect();
    ranges.sort_unstable();
    let mut next = lo;
    for (a, b) in ranges {
        if a > next {
            return false;
        }
        if b >= hi {
            return true;
        }
        next = next.max(b + 1);
    }
    false
}
