//! Families → plain formats, on the syntax tree, before anything else is checked.
//!
//! A `use` of a group puts the group's members where the `use` stands; a body with forms (its
//! own, or a used group's) becomes one format per form, named `format_form`; parameters are
//! replaced by their arguments, `let` names by their values, and `execute when c` wraps the
//! execute block in `if c`. Later stages see only plain formats, and what they report points
//! into the group, form or `let` where the fact is written once.
//!
//! Precedence is that of inheritance: what a body declares itself replaces what it includes
//! (syntax per dialect, properties, constraints, lets and templates by name, `execute`); two
//! included bodies that declare the same thing are an error naming both, except when both are
//! the same declaration reached twice (two groups that both use `guarded`). Fields never replace
//! each other: a field declared twice is reported by the field checker, with both places.

use super::Checker;
use crate::ast::{self, Expr, ExprKind, Ident, Layout, MatchBody, Span, Stmt, TItem, TableChoice};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

/// One encoding a body yields: the names of the forms it took, and its members.
type Alternative = (Vec<String>, Layout);

/// A combination of included bodies: the forms taken, and each body with the field position
/// of its `use`.
type Combination = (Vec<String>, Vec<(usize, Layout)>);

/// Expands every family of `file`; groups and lets stay in the file (for the symbol table)
/// and are ignored by the later stages.
pub fn expand(cx: &mut Checker, file: &ast::File) -> ast::File {
    let mut groups = BTreeMap::new();
    let mut global_lets = Vec::new();
    for item in &file.items {
        match item {
            ast::Item::Group(g) => {
                groups.entry(g.name.name.clone()).or_insert_with(|| g.clone());
            }
            ast::Item::Let(l) => global_lets.push(l.clone()),
            _ => {}
        }
    }
    // The target's dialects: a variant spelled for each of them needs no pattern.
    let dialects: Vec<&str> = file
        .items
        .iter()
        .filter_map(|i| if let ast::Item::Target(t) = i { Some(&t.settings) } else { None })
        .flatten()
        .filter(|s| s.name.name == "dialect")
        .flat_map(|s| &s.values)
        .filter_map(|v| if let ast::SettingValue::Name(n, _) = v { Some(n.name.as_str()) } else { None })
        .collect();
    // Spelled from their patterns first, so that an enum including another takes its spellings.
    let patterned: Vec<ast::Enum> = file
        .items
        .iter()
        .filter_map(|i| {
            if let ast::Item::Enum(e) = i {
                Some(spelled_by_pattern(cx, e, &dialects))
            } else {
                None
            }
        })
        .collect::<Vec<_>>()
        .iter()
        .map(|e| numbered(cx, e))
        .collect();
    let enums: BTreeMap<String, ast::Enum> =
        patterned.iter().map(|e| (e.name.name.clone(), e.clone())).collect();
    let mut patterned = patterned.into_iter();
    let (global_calls, global_lets): (Vec<ast::LetDef>, Vec<ast::LetDef>) =
        global_lets.into_iter().partition(|l| !l.params.is_empty());
    let mut widths: BTreeMap<String, u64> = BTreeMap::new();
    for item in &file.items {
        match item {
            ast::Item::Enum(e) => {
                if let Some(w) = int_type_width(&e.repr.name) {
                    widths.insert(e.name.name.clone(), w);
                }
            }
            ast::Item::Layout(l) if l.kind == ast::LayoutKind::Data => {
                let w = l.width.as_ref().and_then(|w| super::fields::const_eval(w, None));
                if let Some(w) = w.and_then(|w| u64::try_from(w).ok()) {
                    widths.insert(l.name.name.clone(), w);
                }
            }
            ast::Item::Number(n) => {
                let arg = |k: &str| n.args.iter().find(|(a, _)| a.name == k).and_then(|(_, v)| *v);
                let w = match n.kind.name.as_str() {
                    "float" => Some(
                        arg("sign").unwrap_or(0)
                            + arg("exponent").unwrap_or(0)
                            + arg("mantissa").unwrap_or(0),
                    ),
                    "fixed" => arg("width"),
                    _ => None,
                };
                if let Some(w) = w.and_then(|w| u64::try_from(w).ok()) {
                    widths.insert(n.name.name.clone(), w);
                }
            }
            _ => {}
        }
    }
    let layouts = file
        .items
        .iter()
        .filter_map(|i| if let ast::Item::Layout(l) = i { Some(l.name.name.clone()) } else { None })
        .collect();
    let mut x = Expander {
        cx,
        groups,
        stack: Vec::new(),
        global_calls,
        widths,
        layouts,
        templates: BTreeMap::new(),
        given: Vec::new(),
        used: RefCell::new(Vec::new()),
        passes_pieces: false,
    };
    let globals = x.resolve_lets(&global_lets, &[]);
    for item in &file.items {
        if let ast::Item::Template(t) = item {
            let mut t = t.clone();
            let shadow: Vec<String> = t.params.iter().map(|p| p.name.clone()).collect();
            // A call's mistakes are reported here, once (the copy below makes them again).
            let call_errors = RefCell::new(Vec::new());
            Subst { calls: &x.global_calls, call_errors: Some(&call_errors), ..Subst::new(&globals) }
                .template_body(&mut t.body, &shadow);
            for (at, message) in call_errors.into_inner() {
                x.cx.error(at, message);
            }
            x.passes_pieces |= passes_pieces(&t.body);
            x.templates.entry(t.name.name.clone()).or_insert(t);
        }
    }
    let mut items = Vec::with_capacity(file.items.len());
    for item in &file.items {
        match item {
            ast::Item::Enum(e) => {
                let e = patterned.next().unwrap_or_else(|| e.clone());
                let e = if e.uses.is_empty() { e } else { enum_with_uses(x.cx, &enums, &e, &mut Vec::new()) };
                items.push(ast::Item::Enum(every_nth_value(x.cx, e)));
            }
            ast::Item::Layout(l) => {
                let alternatives = x.flatten(l, &[], None, l.span);
                if l.kind == ast::LayoutKind::Data && (alternatives.len() > 1 || !l.forms.is_empty()) {
                    x.cx.error(l.name.span, format!("layout `{}` has forms", l.name.name))
                        .note("forms are alternative encodings of a format; a data layout is one structure");
                }
                for (forms, mut body) in alternatives {
                    if !forms.is_empty() {
                        body.name.name = format!("{}_{}", l.name.name, forms.join("_"));
                    }
                    x.finish(&mut body, &globals);
                    items.push(ast::Item::Layout(body));
                }
            }
            ast::Item::Template(t) => {
                let mut t = t.clone();
                let shadow: Vec<String> = t.params.iter().map(|p| p.name.clone()).collect();
                Subst { calls: &x.global_calls, ..Subst::new(&globals) }.template_body(&mut t.body, &shadow);
                items.push(ast::Item::Template(t));
            }
            other => items.push(other.clone()),
        }
    }
    // A row or a piece of syntax nothing names would be dropped unsaid.
    let used = x.used.take();
    let mut unused: Vec<(Span, String, Span)> =
        x.given.drain(..).filter(|(at, _, _)| !used.contains(at)).collect();
    unused.sort_by_key(|(at, _, _)| (at.start, at.end));
    unused.dedup_by(|a, b| a.0 == b.0);
    for (at, message, param) in unused {
        x.cx.error(at, message).with(param, "the parameter").note(
            "a `fields { ... }` argument stands where a run names its parameter, a `syntax { ... }` argument where a syntax names it as an item",
        );
    }
    ast::File { items }
}

struct Expander<'c> {
    cx: &'c mut Checker,
    groups: BTreeMap<String, ast::Group>,
    /// The groups being expanded, outermost first, with the `use` that entered each.
    stack: Vec<(String, Span)>,
    /// The file's lets with parameters (`let lane(i) = ...`).
    global_calls: Vec<ast::LetDef>,
    /// The widths of the file's enums, number formats and data layouts of a constant width,
    /// for `fields` runs.
    widths: BTreeMap<String, u64>,
    /// The names of the file's layouts (one of no constant width is no width a run can use).
    layouts: std::collections::BTreeSet<String>,
    /// The file's templates, the file's lets substituted.
    templates: BTreeMap<String, ast::TemplateDef>,
    /// Where each row or piece of syntax given as an argument is written, with what to say
    /// if nothing names it; and the places of those something named (placed, shown, or
    /// reported standing where it cannot).
    given: Vec<(Span, String, Span)>,
    used: RefCell<Vec<Span>>,
    /// Whether one of the file's templates calls another with a piece of syntax.
    passes_pieces: bool,
}

impl Expander<'_> {
    /// The encodings `body` yields with its parameters bound; `picks` are the forms a `use`
    /// chose (none: every form), `site` is where the expansion was asked for.
    fn flatten(
        &mut self,
        body: &Layout,
        bindings: &[(String, Expr)],
        picks: Option<&[(Ident, Vec<Expr>)]>,
        site: Span,
    ) -> Vec<Alternative> {
        let spliced;
        let body = match self.splice(body, bindings) {
            Some(b) => {
                spliced = b;
                &spliced
            }
            None => body,
        };
        let mut own = body.clone();
        own.uses.clear();
        own.forms.clear();
        // Parameters are bound here, types included: a parameter standing as a type takes the
        // type its argument names.
        let types = RefCell::new(Vec::new());
        let misplaced = RefCell::new(Vec::new());
        Subst {
            types: Some(&types),
            misplaced: Some(&misplaced),
            used: Some(&self.used),
            ..Subst::new(bindings)
        }
        .layout(&mut own);
        for (at, message, bound) in misplaced.into_inner() {
            self.cx.error(at, message).with(bound, "bound here");
        }
        for (arg, at) in types.into_inner() {
            self.cx
                .error(arg, "this argument stands where a type is wanted")
                .with(at, "used as a type here")
                .note("a parameter used as a field's type takes a type name: `use mem(0x1de8, MemSize)`");
        }

        // What each `use` and the forms contribute, at the field position they stand.
        let mut parts: Vec<(usize, Vec<Alternative>)> = Vec::new();
        let mut use_bits = Vec::with_capacity(body.uses.len());
        for (k, u) in body.uses.iter().enumerate() {
            if let Some(alternatives) = self.use_group(u, bindings) {
                // In a run the group stands for its bits: every form must lie at the same ones.
                let spans: Vec<Option<(u64, u64)>> =
                    alternatives.iter().map(|(_, l)| bits_spanned(l)).collect();
                let in_run = own
                    .runs
                    .iter()
                    .flat_map(|r| &r.items)
                    .any(|i| matches!(i, ast::RunItem::Use(j) if *j == k));
                let moves = spans.windows(2).any(|w| w[0] != w[1]);
                if in_run && moves {
                    self.cx
                        .error(
                            u.span,
                            format!(
                                "the forms of `{}` lie at different bits: a `fields` run cannot hold it",
                                u.group.name
                            ),
                        )
                        .note("write the `use` on its own line");
                }
                // Reported: the run then gives it the bits its other items leave.
                use_bits.push(if moves { None } else { spans.first().copied().flatten() });
                parts.push((u.after, alternatives));
            } else {
                use_bits.push(None);
            }
        }
        let runs = std::mem::take(&mut own.runs);
        for mut run in runs {
            let subst = Subst::new(bindings);
            subst.expr(&mut run.hi, &[]);
            subst.expr(&mut run.lo, &[]);
            self.place(&mut own, &run, &body.uses, &use_bits);
        }
        if body.forms.is_empty() {
            if let Some(p) = picks.filter(|p| !p.is_empty()) {
                self.cx
                    .error(p[0].0.span, format!("`{}` has no forms to pick", body.name.name))
                    .with(body.name.span, "declared here");
            }
        } else {
            let mut alternatives = Vec::new();
            for (form, args) in self.chosen_forms(body, picks, site) {
                let mut inner = bindings.to_vec();
                for (p, a) in form.params.iter().zip(&args) {
                    self.note_given(a, &form.name.name, "form", p);
                }
                inner.extend(form.params.iter().map(|p| p.name.clone()).zip(args));
                for (mut names, layout) in self.flatten(&form.body, &inner, None, form.span) {
                    names.insert(0, form.name.name.clone());
                    alternatives.push((names, layout));
                }
            }
            let after = body.forms.first().map_or(0, |f| f.after);
            parts.push((after, alternatives));
        }

        // Every combination of the parts' alternatives, assembled around the own members.
        let mut combos: Vec<Combination> = vec![(Vec::new(), Vec::new())];
        for (after, alternatives) in parts {
            let mut next = Vec::with_capacity(combos.len() * alternatives.len());
            for (names, included) in &combos {
                for (more, layout) in &alternatives {
                    let mut names = names.clone();
                    names.extend(more.iter().cloned());
                    let mut included = included.clone();
                    included.push((after, layout.clone()));
                    next.push((names, included));
                }
            }
            combos = next;
        }
        // The own body is cloned for every combination but the last, which takes it: a plain
        // format (one combination) is then cloned once here, not twice.
        let last = combos.len().saturating_sub(1);
        let mut out = Vec::with_capacity(combos.len());
        let mut own = Some(own);
        for (k, (names, included)) in combos.into_iter().enumerate() {
            let body = if k == last { own.take() } else { own.clone() };
            if let Some(body) = body {
                out.push((names, self.assemble(body, included)));
            }
        }
        out
    }

    /// Gives the fields and unused bits of a `fields` run their bits: side by side from the
    /// first bit down, each as wide as its type; the widths must fill the range.
    fn place(
        &mut self,
        body: &mut Layout,
        run: &ast::FieldRun,
        uses: &[ast::Use],
        use_bits: &[Option<(u64, u64)>],
    ) {
        // After a mistake the items are still placed (from the first bit, or from the top of
        // their widths), so that their names stay known and no follow-on error is reported.
        let mut widths = Vec::with_capacity(run.items.len());
        for item in &run.items {
            if let ast::RunItem::Use(i) = item {
                // A group's own bits; one that failed to expand was reported at its `use`.
                widths.push(use_bits[*i].map_or(0, |(hi, lo)| (hi - lo).saturating_add(1)));
                continue;
            }
            let (ty, at) = match item {
                ast::RunItem::Use(_) => continue,
                ast::RunItem::Field(i) => match &body.fields[*i].ty {
                    ast::TypeExpr::Named(t) => (t.name.clone(), body.fields[*i].span),
                    ast::TypeExpr::Switch { span, .. } => (String::new(), *span),
                },
                ast::RunItem::Unused(i, t) => (t.name.clone(), body.unused[*i].span),
            };
            let w = if ty == "bool" {
                Some(1)
            } else {
                int_type_width(&ty).or_else(|| self.widths.get(&ty).copied())
            };
            if w.is_none() && !self.reported_as_unknown(&ty) {
                self.cx.error(at, "a `fields` run cannot tell this type's width").note(
                    "a run places `bool`, `uN`, `sN`, enums, number formats and layouts of a constant width; write any other field with its bits: `name: T @ hi:lo`",
                );
            }
            widths.push(w.unwrap_or(0));
        }
        let total = widths.iter().fold(0u64, |a, w| a.saturating_add(*w));
        let bit = |e: &Expr| super::fields::const_eval(e, None).and_then(|v| u64::try_from(v).ok());
        let hi = match (bit(&run.hi), bit(&run.lo)) {
            (Some(hi), Some(lo)) if lo <= hi => {
                let span = (hi - lo).saturating_add(1);
                if total != span && !widths.contains(&0) {
                    let mut d = self.cx.error(
                        run.span,
                        format!("the items of this run are {total} bits wide, its range {hi}:{lo} is {span}"),
                    );
                    for row in &run.rows {
                        d = d.with(*row, "with the items of this row");
                    }
                    d.note("each item is as wide as its type: a name alone is a `bool`, `_` one unused bit, `_: u3` three");
                }
                hi
            }
            (Some(hi), Some(lo)) => {
                self.cx.error(
                    run.span,
                    format!("a `fields` run goes from its first bit down: `{lo}:{hi}`, not `{hi}:{lo}`"),
                );
                lo
            }
            _ => {
                self.cx
                    .error(run.span, "the bits of a `fields` run are numbers")
                    .note("write its first and last bit, or bind them with a group's numbers: `fields @ 50:39 { ... }`");
                total.saturating_sub(1)
            }
        };
        // Items after one of unknown width are placed from the last bit up; a single one of
        // unknown width takes the bits the others leave.
        let lo = bit(&run.lo).filter(|lo| *lo <= hi).unwrap_or(0);
        let unknown: Vec<usize> = (0..widths.len()).filter(|k| widths[*k] == 0).collect();
        if let [one] = unknown[..] {
            widths[one] = hi.saturating_add(1).saturating_sub(lo).saturating_sub(total);
        }
        let unknown = widths.iter().position(|w| *w == 0).unwrap_or(widths.len());
        let mut top = hi;
        let mut misplaced = false;
        for (k, (item, w)) in run.items.iter().zip(&widths).enumerate() {
            let w = *w;
            if w == 0 {
                continue;
            }
            let below = widths[k + 1..].iter().fold(lo, |a, w| a.saturating_add(*w));
            let from = if k < unknown { top } else { below.saturating_add(w - 1) };
            let low = from.saturating_add(1).saturating_sub(w);
            let sp = match item {
                ast::RunItem::Field(i) => body.fields[*i].span,
                ast::RunItem::Unused(i, _) => body.unused[*i].span,
                ast::RunItem::Use(i) => {
                    // The group's fields keep the bits it gives them: the run only says they lie here.
                    if let Some((ghi, glo)) = use_bits[*i].filter(|b| *b != (from, low)) {
                        misplaced = true;
                        self.cx
                            .error(uses[*i].span, format!("group `{}` declares bits {ghi}:{glo}, this run puts it at {from}:{low}", uses[*i].group.name))
                            .note("a `use` in a run stands where its group's bits are: move it, or the items before it");
                    }
                    top = low.saturating_sub(1);
                    continue;
                }
            };
            let int = |v: u64| Expr { kind: ExprKind::Int(v), span: sp };
            let piece = if w == 1 {
                ast::BitPiece::Bit(int(from), sp)
            } else {
                ast::BitPiece::Range(int(from), int(low), sp)
            };
            match item {
                ast::RunItem::Field(i) if body.fields[*i].name.name == crate::parse::ZERO_ITEM => {
                    // `0: u3` is `zero @ hi:lo`: a fixed field named after its bits.
                    let f = &mut body.fields[*i];
                    f.name.name = if w == 1 { format!("zero_{from}") } else { format!("zero_{from}_{low}") };
                    f.bits = vec![piece];
                }
                ast::RunItem::Field(i) => body.fields[*i].bits = vec![piece],
                ast::RunItem::Unused(i, _) => body.unused[*i].bits = vec![piece],
                ast::RunItem::Use(_) => {}
            }
            top = low.saturating_sub(1);
        }
        // After a misplaced group the run's unused bits would only overlap it: they are dropped.
        if misplaced {
            for item in &run.items {
                if let ast::RunItem::Unused(i, _) = item {
                    body.unused[*i].bits.clear();
                }
            }
        }
    }

    /// Whether `ty` names no type at all, which the type checker reports.
    fn reported_as_unknown(&self, ty: &str) -> bool {
        !ty.is_empty() && !self.layouts.contains(ty)
    }

    /// The alternatives of the group a `use` names, or `None` after reporting why not.
    fn use_group(&mut self, u: &ast::Use, bindings: &[(String, Expr)]) -> Option<Vec<Alternative>> {
        let Some(group) = self.groups.get(&u.group.name).cloned() else {
            self.cx.error(u.group.span, format!("unknown group `{}`", u.group.name));
            return None;
        };
        if let Some(at) = self.stack.iter().position(|(g, _)| *g == group.name.name) {
            let path: Vec<&str> = self.stack[at..].iter().map(|(g, _)| g.as_str()).collect();
            self.cx
                .error(u.span, format!("group `{}` includes itself", group.name.name))
                .label(format!("{} → {}", path.join(" → "), group.name.name))
                .with(self.stack[at].1, "entered here");
            return None;
        }
        if u.args.len() != group.params.len() {
            self.cx
                .error(
                    u.span,
                    format!(
                        "group `{}` takes {}, {} given",
                        group.name.name,
                        arguments(group.params.len()),
                        u.args.len()
                    ),
                )
                .with(group.name.span, "declared here");
            return None;
        }
        let mut inner = Vec::new();
        for (p, a) in group.params.iter().zip(&u.args) {
            self.note_given(a, &group.name.name, "group", p);
            inner.push((p.name.clone(), self.argument(a, bindings)));
        }
        let picks: Vec<(Ident, Vec<Expr>)> = u
            .picks
            .iter()
            .map(|(name, args)| (name.clone(), args.iter().map(|a| self.argument(a, bindings)).collect()))
            .collect();
        self.stack.push((group.name.name.clone(), u.span));
        let mut out = self.flatten(&group.body, &inner, Some(&picks), u.span);
        self.stack.pop();
        if let Some(prefix) = &u.prefix {
            out.iter_mut().for_each(|(_, body)| prefixed(body, &prefix.name));
        }
        Some(out)
    }

    /// Notes a row or piece of syntax written as the argument `a` of `p`, which something must
    /// name.
    fn note_given(&mut self, a: &Expr, owner: &str, kind: &str, p: &Ident) {
        let message = match a.kind {
            ExprKind::Fields(_) => format!(
                "this row of fields is never placed: {kind} `{owner}` names `{}` in no `fields` run",
                p.name
            ),
            ExprKind::Syntax(_) => format!(
                "this piece of syntax is never shown: {kind} `{owner}` names `{}` in no syntax",
                p.name
            ),
            _ => return,
        };
        self.given.push((a.span, message, p.span));
    }

    /// An argument of a `use` with the parameters of the body it stands in bound: in a row of
    /// fields or a piece of syntax too, which may name them (`use g(fields { sat, mods })`).
    fn argument(&mut self, a: &Expr, bindings: &[(String, Expr)]) -> Expr {
        let mut a = a.clone();
        let subst = Subst::new(bindings);
        match &mut a.kind {
            ExprKind::Fields(l) => {
                if let Some(spliced) = self.splice(l, bindings) {
                    **l = spliced;
                }
                subst.layout(l);
            }
            ExprKind::Syntax(items) => {
                let misplaced = RefCell::new(Vec::new());
                Subst { misplaced: Some(&misplaced), used: Some(&self.used), ..Subst::new(bindings) }
                    .titems(items, &[]);
                for (at, message, bound) in misplaced.into_inner() {
                    self.cx.error(at, message).with(bound, "bound here");
                }
            }
            _ => subst.expr(&mut a, &[]),
        }
        a
    }

    /// `body` with the rows of fields its parameters are bound to put where its runs name them
    /// (`fields @ 50:39 { sat, mods }`), or `None` when no run names one. A run item naming a
    /// parameter bound to a piece of syntax is reported and dropped.
    fn splice(&mut self, body: &Layout, bindings: &[(String, Expr)]) -> Option<Layout> {
        // The run items that name a parameter: a bare name (a `bool` with no clauses).
        let bound = |f: &ast::Field| -> Option<&Expr> {
            let plain = matches!(&f.ty, ast::TypeExpr::Named(t) if t.name == "bool" && t.span == f.name.span)
                && f.fixed.is_none()
                && f.default.is_none()
                && f.allowed.is_none()
                && f.count.is_none();
            let (_, e) = bindings.iter().find(|(k, _)| *k == f.name.name).filter(|_| plain)?;
            matches!(e.kind, ExprKind::Fields(_) | ExprKind::Syntax(_)).then_some(e)
        };
        for f in body.runs.iter().flat_map(|r| &r.items).filter_map(|i| match i {
            ast::RunItem::Field(k) => Some(&body.fields[*k]),
            _ => None,
        }) {
            if let Some(e) = bound(f) {
                self.used.borrow_mut().push(e.span);
            }
        }
        let named: Vec<usize> = body
            .runs
            .iter()
            .flat_map(|r| &r.items)
            .filter_map(|i| if let ast::RunItem::Field(k) = i { Some(*k) } else { None })
            .filter(|k| bound(&body.fields[*k]).is_some())
            .collect();
        if named.is_empty() {
            return None;
        }
        let mut out = body.clone();
        out.fields.clear();
        // Where each old field (and the end) lands, and what each named field becomes.
        let mut new_pos = Vec::with_capacity(body.fields.len() + 1);
        let mut replaced: BTreeMap<usize, Vec<ast::RunItem>> = BTreeMap::new();
        let mut row_uses: Vec<(usize, Vec<ast::Use>)> = Vec::new();
        for (k, f) in body.fields.iter().enumerate() {
            new_pos.push(out.fields.len());
            let Some(e) = named.contains(&k).then(|| bound(f)).flatten() else {
                out.fields.push(f.clone());
                continue;
            };
            let ExprKind::Fields(row) = &e.kind else {
                self.cx
                    .error(
                        f.span,
                        format!(
                            "`{}` is a piece of syntax: it stands in a syntax, not in a `fields` run",
                            f.name.name
                        ),
                    )
                    .with(e.span, "bound here");
                // Reported: an item of no known width stands in, taking the bits the others
                // leave, so that the run reports nothing more.
                let ty = Ident { name: super::types::NOT_A_TYPE.to_string(), span: f.span };
                let after = out.fields.len();
                let unused =
                    ast::Unused { doc: String::new(), name: None, bits: Vec::new(), after, span: f.span };
                replaced.insert(k, vec![ast::RunItem::Unused(out.unused.len(), ty)]);
                out.unused.push(unused);
                continue;
            };
            let (base, unused_base) = (out.fields.len(), out.unused.len());
            out.fields.extend(row.fields.iter().cloned());
            out.unused.extend(row.unused.iter().map(|u| ast::Unused { after: u.after + base, ..u.clone() }));
            row_uses.push((
                k,
                row.uses.iter().map(|u| ast::Use { after: u.after + base, ..u.clone() }).collect(),
            ));
            // A row's uses are numbered once all are placed (below): `Use(j)` is the row's `j`th.
            let items = row.runs.iter().flat_map(|r| &r.items).map(|i| match i {
                ast::RunItem::Field(j) => ast::RunItem::Field(base + j),
                ast::RunItem::Unused(j, t) => ast::RunItem::Unused(unused_base + j, t.clone()),
                ast::RunItem::Use(j) => ast::RunItem::Use(ROW_USE + j),
            });
            replaced.insert(k, items.collect());
        }
        new_pos.push(out.fields.len());
        // The body's own unused bits keep their places among the fields.
        for u in out.unused.iter_mut().take(body.unused.len()) {
            u.after = new_pos[u.after.min(body.fields.len())];
        }
        // The uses in the order of the text: a row's where its parameter stands, before the
        // body's uses that come after it (the order in which their fields are included).
        let mut uses = Vec::with_capacity(body.uses.len());
        let mut use_pos = Vec::with_capacity(body.uses.len());
        let mut row_base: BTreeMap<usize, usize> = BTreeMap::new();
        let mut pending = row_uses.into_iter().peekable();
        for u in &body.uses {
            while let Some((k, more)) = pending.next_if(|(k, _)| *k < u.after) {
                row_base.insert(k, uses.len());
                uses.extend(more);
            }
            use_pos.push(uses.len());
            uses.push(ast::Use { after: new_pos[u.after.min(body.fields.len())], ..u.clone() });
        }
        for (k, more) in pending {
            row_base.insert(k, uses.len());
            uses.extend(more);
        }
        out.uses = uses;
        for (k, items) in replaced.iter_mut() {
            for item in items.iter_mut() {
                if let ast::RunItem::Use(j) = item {
                    *j = row_base.get(k).copied().unwrap_or(0) + (*j - ROW_USE);
                }
            }
        }
        for form in &mut out.forms {
            form.after = new_pos[form.after.min(body.fields.len())];
        }
        for run in &mut out.runs {
            let items = std::mem::take(&mut run.items);
            for item in items {
                match item {
                    ast::RunItem::Field(k) => match replaced.get(&k) {
                        Some(more) => {
                            run.items.extend(more.iter().cloned());
                            if let Some(ExprKind::Fields(_)) = bound(&body.fields[k]).map(|e| &e.kind) {
                                run.rows.extend(bound(&body.fields[k]).map(|e| e.span));
                            }
                        }
                        None => run.items.push(ast::RunItem::Field(new_pos[k])),
                    },
                    ast::RunItem::Use(j) => run.items.push(ast::RunItem::Use(use_pos[j])),
                    other => run.items.push(other),
                }
            }
        }
        Some(out)
    }

    /// The forms a `use` picked (with their arguments), or every form when it picked none.
    fn chosen_forms(
        &mut self,
        body: &Layout,
        picks: Option<&[(Ident, Vec<Expr>)]>,
        site: Span,
    ) -> Vec<(ast::Group, Vec<Expr>)> {
        let mut out = Vec::new();
        match picks.filter(|p| !p.is_empty()) {
            None => {
                for form in &body.forms {
                    if form.params.is_empty() {
                        out.push((form.clone(), Vec::new()));
                    } else {
                        self.cx
                            .error(site, format!("form `{}` takes parameters", form.name.name))
                            .with(form.name.span, "declared here")
                            .note(format!(
                                "pick the forms with their arguments: `use {} {{ {}(...) }}`",
                                body.name.name, form.name.name
                            ));
                    }
                }
            }
            Some(picks) => {
                for (name, args) in picks {
                    let Some(form) = body.forms.iter().find(|f| f.name.name == name.name) else {
                        let names: Vec<&str> = body.forms.iter().map(|f| f.name.name.as_str()).collect();
                        self.cx
                            .error(name.span, format!("`{}` has no form `{}`", body.name.name, name.name))
                            .note(format!("its forms: {}", names.join(", ")));
                        continue;
                    };
                    if out.iter().any(|(f, _): &(ast::Group, _)| f.name.name == name.name) {
                        self.cx.error(name.span, format!("form `{}` is picked twice", name.name));
                        continue;
                    }
                    if form.params.len() != args.len() {
                        self.cx
                            .error(
                                name.span,
                                format!(
                                    "form `{}` takes {}, {} given",
                                    name.name,
                                    arguments(form.params.len()),
                                    args.len()
                                ),
                            )
                            .with(form.name.span, "declared here");
                        continue;
                    }
                    out.push((form.clone(), args.clone()));
                }
            }
        }
        out
    }

    /// `own` with the included bodies' members: fields where each `use` or form stands, the
    /// rest merged with the own declarations taking precedence.
    fn assemble(&mut self, mut own: Layout, included: Vec<(usize, Layout)>) -> Layout {
        // Fields, in the order the text gives them.
        let own_fields = std::mem::take(&mut own.fields);
        let own_unused = std::mem::take(&mut own.unused);
        let count = own_fields.len();
        let mut own_fields = own_fields.into_iter();
        let mut fields = Vec::with_capacity(count);
        let mut unused = Vec::new();
        for i in 0..=count {
            for (_, layout) in included.iter().filter(|(after, _)| *after == i) {
                let base = fields.len();
                unused
                    .extend(layout.unused.iter().map(|u| ast::Unused { after: u.after + base, ..u.clone() }));
                for f in &layout.fields {
                    if Self::new_field(&fields, f) {
                        fields.push(f.clone());
                    }
                }
            }
            let base = fields.len();
            unused.extend(
                own_unused.iter().filter(|u| u.after == i).map(|u| ast::Unused { after: base, ..u.clone() }),
            );
            if let Some(f) = own_fields.next() {
                if Self::new_field(&fields, &f) {
                    fields.push(f);
                }
            }
        }
        // Everything else: the included bodies first, then the own members replace theirs.
        let mut merged = Members::default();
        for (_, layout) in &included {
            merged.include(self, layout);
        }
        merged.replace_with(&mut own);
        let mut out = own;
        out.fields = fields;
        out.unused = unused;
        merged.write_into(&mut out);
        // A form's doc says which form this is: it follows the format's.
        if !included.is_empty() {
            let docs = std::iter::once(out.doc.as_str()).chain(included.iter().map(|(_, l)| l.doc.as_str()));
            out.doc = docs.filter(|d| !d.is_empty()).collect::<Vec<_>>().join("\n\n");
            let own_when = std::mem::take(&mut out.when);
            out.when = included.iter().flat_map(|(_, l)| l.when.iter().cloned()).chain(own_when).collect();
            // A form of a reserved family is reserved too.
            if out.reserved.is_none() {
                out.reserved = included.iter().find_map(|(_, l)| l.reserved.clone());
            }
        }
        out
    }

    /// Whether `f` is new to `fields`: not the same declaration reached twice at the same
    /// place; a real clash stays, for the field checker to report with both places.
    fn new_field(fields: &[ast::Field], f: &ast::Field) -> bool {
        !fields.iter().any(|x| x.name.name == f.name.name && x.span == f.span && same_placement(x, f))
    }

    /// Resolves `lets` (each value with the lets it reads substituted), on top of `outer`
    /// (which they shadow). A `let` in a cycle is reported once and stands for 0 afterwards,
    /// so its uses do not report again.
    fn resolve_lets(&mut self, lets: &[ast::LetDef], outer: &[(String, Expr)]) -> Vec<(String, Expr)> {
        let mut done: Vec<(String, Expr)> = Vec::new();
        let mut cyclic: Vec<String> = Vec::new();
        for l in lets {
            let value = match self.resolve_let(l, lets, outer, &mut Vec::new(), &mut cyclic) {
                Some(v) => v,
                None => Expr { kind: ExprKind::Int(0), span: l.value.span },
            };
            done.push((l.name.name.clone(), value));
        }
        done.extend(outer.iter().filter(|(n, _)| !lets.iter().any(|l| l.name.name == *n)).cloned());
        done
    }

    fn resolve_let(
        &mut self,
        l: &ast::LetDef,
        lets: &[ast::LetDef],
        outer: &[(String, Expr)],
        visiting: &mut Vec<String>,
        cyclic: &mut Vec<String>,
    ) -> Option<Expr> {
        if cyclic.contains(&l.name.name) {
            return None;
        }
        if let Some(at) = visiting.iter().position(|n| *n == l.name.name) {
            let path = visiting[at..].join(" → ");
            self.cx
                .error(l.name.span, format!("`let {}` refers to itself", l.name.name))
                .label(format!("{path} → {}", l.name.name));
            cyclic.extend(visiting[at..].iter().cloned());
            return None;
        }
        visiting.push(l.name.name.clone());
        let mut value = l.value.clone();
        let mut map: Vec<(String, Expr)> = outer.to_vec();
        for other in lets {
            if mentions(&value, &other.name.name) {
                let v = self.resolve_let(other, lets, outer, visiting, cyclic)?;
                map.retain(|(n, _)| *n != other.name.name);
                map.push((other.name.name.clone(), v));
            }
        }
        Subst::new(&map).expr(&mut value, &[]);
        visiting.pop();
        if too_large(&value) {
            self.cx
                .error(l.name.span, format!("`let {}` is too large written out", l.name.name))
                .label(format!("more than {MAX_TERMS} terms, or {} levels deep", crate::parse::MAX_NESTING))
                .note("a let stands for its value wherever it is named: `let a = b + b` doubles `b`, and a chain of them doubles it again at each step");
            cyclic.push(l.name.name.clone());
            return None;
        }
        Some(value)
    }

    /// The last step for one format: lets substituted (its own, then the file's), `when`
    /// applied to `execute`.
    fn finish(&mut self, body: &mut Layout, globals: &[(String, Expr)]) {
        for l in &body.lets {
            if let Some(f) = body.fields.iter().find(|f| f.name.name == l.name.name) {
                self.cx
                    .error(l.name.span, format!("`{}` is both a field and a `let`", l.name.name))
                    .with(f.name.span, "the field");
            }
        }
        let lets = std::mem::take(&mut body.lets);
        let (mut calls, lets): (Vec<ast::LetDef>, Vec<ast::LetDef>) =
            lets.into_iter().partition(|l| !l.params.is_empty());
        let map = self.resolve_lets(&lets, globals);
        // A let with parameters is written out where it is called: its value with the plain
        // lets substituted here, its parameters bound at each call.
        let own: Vec<String> = calls.iter().chain(&lets).map(|l| l.name.name.clone()).collect();
        calls.extend(self.global_calls.iter().filter(|l| !own.contains(&l.name.name)).cloned());
        for c in &mut calls {
            let shadow: Vec<String> = c.params.iter().map(|p| p.name.clone()).collect();
            Subst::new(&map).expr(&mut c.value, &shadow);
        }
        let texts = RefCell::new(Vec::new());
        let call_errors = RefCell::new(Vec::new());
        let subst = Subst {
            map: &map,
            texts: Some(&texts),
            calls: &calls,
            call_errors: Some(&call_errors),
            used: Some(&self.used),
            ..Subst::new(&[])
        };
        subst.layout(body);
        // The file's templates this format's syntax reaches that read its own lets are its
        // own copies, with the lets' values; calls with pieces of syntax get copies of their own.
        self.own_templates(body, &map, &calls, &own, &texts, &call_errors);
        for (at, message) in call_errors.into_inner() {
            self.cx.error(at, message);
        }
        // A string argument is text for the syntax (a row of fields goes in a run); anywhere
        // else it has no value.
        for (at, what) in texts.into_inner() {
            let note = match what {
                "a row of fields" => "a `fields { ... }` parameter stands in a run of the group: `fields @ 50:39 { sat, mods }`",
                "a piece of syntax" => "a `syntax { ... }` parameter stands where a syntax or template names it as an item: `syntax d { guard m \" \" {rd} }`",
                _ => "a string parameter prints where the syntax names it: `syntax d { guard m \" \" {rd} }`",
            };
            let what = if what == "a string" { "a string argument" } else { what };
            self.cx.error(at, format!("{what} stands where a value is wanted")).note(note);
        }
        // What a constant parameter decides is decided before anything reads the names.
        for (_, e) in &mut body.properties {
            fold_expr(e);
        }
        for c in &mut body.constraints {
            fold_expr(&mut c.expr);
        }
        if let Some(b) = &mut body.execute {
            fold_block(b);
        }
        let bodies =
            body.syntax.iter_mut().map(|(_, b)| b).chain(body.templates.iter_mut().map(|t| &mut t.body));
        for b in bodies {
            for arm in &mut b.arms {
                arm.guard.iter_mut().for_each(fold_expr);
                fold_items(&mut arm.items);
            }
        }
        if let Some(cond) = conjunction(std::mem::take(&mut body.when)) {
            body.execute = body
                .execute
                .take()
                .map(|block| ast::Block { stmts: vec![Stmt::If(cond, block, None)], value: None });
        }
    }
}

impl Expander<'_> {
    /// Gives `body` its own copies of the file's templates its syntax reaches (directly or
    /// through other templates) that read one of its lets (`own`), with their values; and,
    /// for every call with a `syntax { ... }` argument, a copy of the template called with
    /// that parameter replaced by the piece, named `name@k` (its parts keep the name).
    fn own_templates(
        &mut self,
        body: &mut Layout,
        map: &[(String, Expr)],
        calls: &[ast::LetDef],
        own: &[String],
        texts: &RefCell<Vec<(Span, &'static str)>>,
        call_errors: &RefCell<Vec<(Span, String)>>,
    ) {
        let subst =
            Subst { map, texts: Some(texts), calls, call_errors: Some(call_errors), ..Subst::new(&[]) };
        if !own.is_empty() || self.passes_pieces {
            let mut seen: Vec<String> = body.templates.iter().map(|t| t.name.name.clone()).collect();
            let mut todo: Vec<String> = Vec::new();
            let roots = body.syntax.iter().map(|(_, b)| b).chain(body.templates.iter().map(|t| &t.body));
            roots.for_each(|b| called(b, &mut todo));
            while let Some(name) = todo.pop() {
                if seen.contains(&name) {
                    continue;
                }
                seen.push(name.clone());
                let Some(t) = self.templates.get(&name) else { continue };
                called(&t.body, &mut todo);
                let shadow: Vec<String> = t.params.iter().map(|p| p.name.clone()).collect();
                let mut names = Vec::new();
                body_names(&t.body, &mut names);
                if names.iter().any(|n| own.contains(n) && !shadow.contains(n)) || passes_pieces(&t.body) {
                    let mut copy = t.clone();
                    subst.template_body(&mut copy.body, &shadow);
                    body.templates.push(copy);
                }
            }
        }
        // Calls with pieces of syntax, outermost first; a copy may pass its pieces on.
        let mut made: Vec<(String, String)> = Vec::new();
        let mut from = 0;
        let mut syntax_done = false;
        loop {
            let locals: Vec<(String, Vec<Ident>)> =
                body.templates.iter().map(|t| (t.name.name.clone(), t.params.clone())).collect();
            let mut work = Vec::new();
            if !syntax_done {
                for (_, b) in &mut body.syntax {
                    self.specialize(b, &[], &locals, &mut work, &mut made);
                }
                syntax_done = true;
            }
            let count = body.templates.len();
            for t in &mut body.templates[from..] {
                let params: Vec<String> = t.params.iter().map(|p| p.name.clone()).collect();
                self.specialize(&mut t.body, &params, &locals, &mut work, &mut made);
            }
            from = count;
            if work.is_empty() {
                break;
            }
            for (name, callee, pieces, extra, at) in work {
                let Some(mut t) = self.templates_of(body, &callee) else { continue };
                if made.len() > 64 {
                    self.cx
                        .error(at, format!("template `{callee}` is given pieces of syntax too deeply"))
                        .note("a template that passes a piece of syntax on to itself makes a copy each time");
                    return;
                }
                let misplaced = RefCell::new(Vec::new());
                let before = self.used.borrow().len();
                let own_params: Vec<String> = t
                    .params
                    .iter()
                    .map(|p| p.name.clone())
                    .filter(|p| !pieces.iter().any(|(n, _)| n == p))
                    .collect();
                // Where the copy names a piece where a value is wanted, `subst` reports it below.
                Subst { misplaced: Some(&misplaced), used: Some(&self.used), ..Subst::new(&pieces) }
                    .template_body(&mut t.body, &own_params);
                for (at, message, bound) in misplaced.into_inner() {
                    self.cx.error(at, message).with(bound, "bound here");
                }
                // A piece the template never names would be dropped unsaid.
                let named: Vec<Span> = self.used.borrow()[before..].to_vec();
                for (p, piece) in &pieces {
                    if !named.contains(&piece.span) {
                        let param = t.params.iter().find(|q| q.name == *p).map_or(t.name.span, |q| q.span);
                        self.cx
                            .error(
                                piece.span,
                                format!("this piece of syntax is never shown: template `{callee}` names `{p}` as no item"),
                            )
                            .with(param, "the parameter")
                            .note("a `syntax { ... }` argument stands where the template names its parameter as an item");
                    }
                }
                t.params.retain(|p| !pieces.iter().any(|(n, _)| *n == p.name));
                t.params.extend(extra);
                let shadow: Vec<String> = t.params.iter().map(|p| p.name.clone()).collect();
                subst.template_body(&mut t.body, &shadow);
                t.name.name = name;
                body.templates.push(t);
            }
        }
        inline_copies(body);
    }

    /// The template `name` as a format whose own templates are `body`'s sees it: its own,
    /// else the file's.
    fn templates_of(&self, body: &Layout, name: &str) -> Option<ast::TemplateDef> {
        body.templates.iter().find(|t| t.name.name == name).or_else(|| self.templates.get(name)).cloned()
    }

    /// Replaces the calls in `b` that pass a piece of syntax by calls of a copy of the
    /// template, queued in `work` (its name, the template, the pieces by parameter, the
    /// parameters of the caller the pieces read, where); the same call reuses its copy. A
    /// piece may read the caller's parameters (`caller_params`): the copy takes them as
    /// parameters of its own, after the others.
    fn specialize(
        &mut self,
        b: &mut ast::TemplateBody,
        caller_params: &[String],
        locals: &[(String, Vec<Ident>)],
        work: &mut Vec<Specialization>,
        made: &mut Vec<(String, String)>,
    ) {
        let mut stack: Vec<&mut Vec<TItem>> = b.arms.iter_mut().map(|a| &mut a.items).collect();
        while let Some(items) = stack.pop() {
            for item in items.iter_mut() {
                let (name, args, at) = match item {
                    TItem::Call(name, args, at)
                        if args.iter().any(|a| matches!(a.kind, ExprKind::Syntax(_))) =>
                    {
                        (name, args, at)
                    }
                    TItem::Opt(_, inner, _) | TItem::AnyOrder(_, inner, _) => {
                        stack.push(inner);
                        continue;
                    }
                    _ => continue,
                };
                let params = match locals.iter().find(|(n, _)| *n == name.name) {
                    Some((_, p)) => p.clone(),
                    None => match self.templates.get(&name.name) {
                        Some(t) => t.params.clone(),
                        None => continue, // the syntax checker reports the name
                    },
                };
                if params.len() != args.len() {
                    continue; // the syntax checker reports the count
                }
                let key = format!(
                    "{}{:?}",
                    name.name,
                    args.iter().map(|a| (a.span.start, a.span.end)).collect::<Vec<_>>()
                );
                let mut pieces = Vec::new();
                let mut extra: Vec<Ident> = Vec::new();
                let mut rest = Vec::new();
                for (p, a) in params.iter().zip(args.iter()) {
                    let ExprKind::Syntax(items) = &a.kind else { continue };
                    let mut items = items.clone();
                    let mut read = Vec::new();
                    items_names(&items, &mut read);
                    for n in caller_params.iter().filter(|n| read.contains(n)) {
                        let fresh = format!("{n}@{}", p.name);
                        if !extra.iter().any(|e| e.name == fresh) {
                            extra.push(Ident { name: fresh.clone(), span: a.span });
                            rest.push(Expr { kind: ExprKind::Name(n.clone()), span: a.span });
                        }
                        let to = [(n.clone(), Expr { kind: ExprKind::Name(fresh), span: a.span })];
                        Subst::new(&to).titems(&mut items, &[]);
                    }
                    pieces.push((p.name.clone(), Expr { kind: ExprKind::Syntax(items), span: a.span }));
                }
                let copy = match made.iter().find(|(k, _)| *k == key) {
                    Some((_, n)) => n.clone(),
                    None => {
                        let base = name.name.split('@').next().unwrap_or_default();
                        let n = format!("{base}@{}", made.len() + 1);
                        made.push((key, n.clone()));
                        work.push((n.clone(), name.name.clone(), pieces, extra, *at));
                        n
                    }
                };
                args.retain(|a| !matches!(a.kind, ExprKind::Syntax(_)));
                args.extend(rest);
                name.name = copy;
            }
        }
    }
}

/// Writes the copies made for pieces of syntax (`t@k`) whose body is one sequence (no arms)
/// where they are called, their parameters bound to the call's arguments: the syntax is then
/// what it would be with the template's text written out in place (`rd_ra(syntax { "SHL" })
/// src_b` prints and reads as `guard "SHL" " " dst(rd, cc) ", " {ra} ", " src_b`).
fn inline_copies(body: &mut Layout) {
    let plain = |t: &ast::TemplateDef| {
        t.name.name.contains('@') && matches!(&t.body.arms[..], [arm] if arm.guard.is_none() && !arm.alias)
    };
    let copies: Vec<ast::TemplateDef> = body.templates.iter().filter(|t| plain(t)).cloned().collect();
    if copies.is_empty() {
        return;
    }
    body.templates.retain(|t| !plain(t));
    fn write_out(items: &mut Vec<TItem>, copies: &[ast::TemplateDef], depth: u32) {
        let mut out = Vec::with_capacity(items.len());
        let mut joined = false;
        for item in std::mem::take(items) {
            match item {
                TItem::Call(name, args, at) => match copies.iter().find(|t| t.name.name == name.name) {
                    Some(t) if depth < 32 && t.params.len() == args.len() => {
                        let map: Vec<(String, Expr)> =
                            t.params.iter().map(|p| p.name.clone()).zip(args).collect();
                        let mut more = t.body.arms[0].items.clone();
                        Subst::new(&map).titems(&mut more, &[]);
                        write_out(&mut more, copies, depth + 1);
                        out.extend(more);
                        joined = true;
                    }
                    _ => out.push(TItem::Call(name, args, at)),
                },
                TItem::Opt(c, mut inner, at) => {
                    write_out(&mut inner, copies, depth);
                    out.push(TItem::Opt(c, inner, at));
                }
                TItem::AnyOrder(sep, mut inner, at) => {
                    write_out(&mut inner, copies, depth);
                    out.push(TItem::AnyOrder(sep, inner, at));
                }
                other => out.push(other),
            }
        }
        if joined {
            join_literals(&mut out);
        }
        *items = out;
    }
    let bodies = body.syntax.iter_mut().map(|(_, b)| b).chain(body.templates.iter_mut().map(|t| &mut t.body));
    for b in bodies {
        for arm in &mut b.arms {
            write_out(&mut arm.items, &copies, 0);
        }
    }
}

/// A copy of a template called with pieces of syntax: its name, the template's, the pieces by
/// parameter, the caller's parameters the pieces read, where it is called.
type Specialization = (String, String, Vec<(String, Expr)>, Vec<Ident>, Span);

/// Whether `b` calls a template with a piece of syntax.
fn passes_pieces(b: &ast::TemplateBody) -> bool {
    fn items(list: &[TItem]) -> bool {
        list.iter().any(|i| match i {
            TItem::Call(_, args, _) => args.iter().any(|a| matches!(a.kind, ExprKind::Syntax(_))),
            TItem::Opt(_, inner, _) | TItem::AnyOrder(_, inner, _) => items(inner),
            _ => false,
        })
    }
    b.arms.iter().any(|a| items(&a.items))
}

/// The templates `b` calls, added to `out`.
fn called(b: &ast::TemplateBody, out: &mut Vec<String>) {
    fn items(list: &[TItem], out: &mut Vec<String>) {
        for i in list {
            match i {
                TItem::Call(name, _, _) => out.push(name.name.clone()),
                TItem::Opt(_, inner, _) | TItem::AnyOrder(_, inner, _) => items(inner, out),
                _ => {}
            }
        }
    }
    b.arms.iter().for_each(|a| items(&a.items, out));
}

/// The names a template body reads (fields, lets, parameters, lets called), added to `out`.
fn body_names(b: &ast::TemplateBody, out: &mut Vec<String>) {
    for arm in &b.arms {
        if let Some(g) = &arm.guard {
            expr_names(g, out);
        }
        items_names(&arm.items, out);
    }
}

/// The names syntax items read, added to `out`.
fn items_names(list: &[TItem], out: &mut Vec<String>) {
    for i in list {
        match i {
            TItem::Lit(..) => {}
            TItem::Hole { expr, table, base, .. } => {
                expr_names(expr, out);
                if let Some(TableChoice::If(c, _, _)) = table {
                    expr_names(c, out);
                }
                if let Some(b) = base {
                    expr_names(b, out);
                }
            }
            TItem::Call(name, args, _) => {
                out.push(name.name.clone());
                args.iter().for_each(|a| expr_names(a, out));
            }
            TItem::Opt(c, inner, _) => {
                expr_names(c, out);
                items_names(inner, out);
            }
            TItem::AnyOrder(_, inner, _) => items_names(inner, out),
        }
    }
}

/// The names an expression reads (and the lets it calls), added to `out`.
fn expr_names(e: &Expr, out: &mut Vec<String>) {
    fn walk(e: &Expr, out: &mut Vec<String>) {
        match &e.kind {
            ExprKind::Name(n) => out.push(n.clone()),
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) => {}
            ExprKind::Str(_) | ExprKind::Fields(_) => {}
            ExprKind::Syntax(items) => items_names(items, out),
            ExprKind::Member(x, _) | ExprKind::InSet(x, _) | ExprKind::Unary(_, x) => walk(x, out),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            ExprKind::Call(name, args) => {
                out.push(name.name.clone());
                args.iter().for_each(|a| walk(a, out));
            }
            ExprKind::If(c, a, b) => {
                walk(c, out);
                walk(a, out);
                walk(b, out);
            }
            ExprKind::Match(x, _) => {
                // Blocks in expressions are not in syntax; the scrutinee is enough to tell.
                walk(x, out);
            }
        }
    }
    walk(e, out);
}

/// Where a row's uses are numbered from until the body's uses around them are placed.
const ROW_USE: usize = usize::MAX / 2;

/// The highest and lowest bit a body's fields and unused bits take (`None` when one of them
/// is not a number).
fn bits_spanned(l: &Layout) -> Option<(u64, u64)> {
    let mut bits = Vec::new();
    let pieces = l
        .fields
        .iter()
        .filter(|f| !f.view)
        .flat_map(|f| &f.bits)
        .chain(l.unused.iter().flat_map(|u| &u.bits));
    for piece in pieces {
        let v = |e: &Expr| super::fields::const_eval(e, None).and_then(|v| u64::try_from(v).ok());
        match piece {
            ast::BitPiece::Bit(b, _) => bits.push(v(b)?),
            ast::BitPiece::Range(hi, lo, _) => bits.extend([v(hi)?, v(lo)?]),
            ast::BitPiece::Width(lo, w, _) => {
                let lo = v(lo)?;
                bits.extend([lo, lo.checked_add(v(w)?)?.checked_sub(1)?]);
            }
        }
    }
    Some((*bits.iter().max()?, *bits.iter().min()?))
}

/// The width of the integer type names: `u6` is 6 bits, `s20` 20.
fn int_type_width(name: &str) -> Option<u64> {
    let digits = name.strip_prefix('u').or_else(|| name.strip_prefix('s'))?;
    digits.parse().ok().filter(|w| (1..=128).contains(w))
}

/// `enum E : uN { use Other, ... }`: `Other`'s values (and theirs, recursively) in its order,
/// then `E`'s own. An own value replaces an included one of its name or of a value it holds,
/// in its place: `enum LdSize : u3 { use MemSize, u128 = 7 ".U.128" }` is `MemSize` with 7
/// spelled otherwise. An included range must be replaced whole or not at all (else its other
/// values would vanish unsaid); an operation enum is included only by one with its signature.
fn enum_with_uses(
    cx: &mut Checker,
    enums: &BTreeMap<String, ast::Enum>,
    e: &ast::Enum,
    stack: &mut Vec<String>,
) -> ast::Enum {
    stack.push(e.name.name.clone());
    let mut inherited: Vec<ast::Variant> = Vec::new();
    let mut else_spellings = Vec::new();
    let mut reported = false;
    for u in &e.uses {
        let Some(base) = enums.get(&u.name) else {
            cx.error(u.span, format!("unknown enum `{}`", u.name));
            reported = true;
            continue;
        };
        if stack.contains(&base.name.name) {
            let path = stack.join(" → ");
            cx.error(u.span, format!("enum `{}` includes itself", base.name.name))
                .label(format!("{path} → {}", base.name.name));
            reported = true;
            continue;
        }
        /// `(a: u32, b: u32) -> u32` as a text, to compare two signatures.
        fn signature(s: &Option<ast::Signature>) -> Option<String> {
            s.as_ref().map(|s| {
                let params: Vec<String> =
                    s.params.iter().map(|(n, t)| format!("{}: {}", n.name, t.name)).collect();
                format!("({}) -> {}", params.join(", "), s.ret.as_ref().map_or("", |r| r.name.as_str()))
            })
        }
        if base.signature.is_some() && signature(&base.signature) != signature(&e.signature) {
            cx.error(u.span, format!("`{}` is an operation enum with another signature", base.name.name))
                .with(base.name.span, "declared here")
                .note("an enum that includes an operation enum declares the same parameters and result");
            reported = true;
            continue;
        }
        let base = if base.uses.is_empty() { base.clone() } else { enum_with_uses(cx, enums, base, stack) };
        let mut base_variants = base.variants;
        // The enum's own pattern spells the included values another pattern spelled: `enum
        // CcCond : u5 spelled ".{NAME}" { use CcTest }` is `CcTest`'s `CC.LT` as `.LT`.
        // A pattern without a name was reported (`spelled_by_pattern`) and spells nothing.
        let named = |p: &String| p.contains("{NAME}") || p.contains("{name}");
        if let Some((pattern, at)) = e.spelled.as_ref().filter(|(p, _)| named(p) && p != "{name}") {
            let patterns: Vec<Span> =
                enums.values().filter_map(|x| x.spelled.as_ref().map(|s| s.1)).collect();
            for v in &mut base_variants {
                let name = v.name.name.strip_suffix('_').unwrap_or(&v.name.name).to_string();
                for (_, text, by) in v.spellings.iter_mut().filter(|(_, _, by)| patterns.contains(by)) {
                    *text = pattern.replace("{NAME}", &name.to_uppercase()).replace("{name}", &name);
                    *by = *at;
                }
            }
        }
        inherited.extend(base_variants);
        else_spellings.extend(base.else_spellings);
    }
    stack.pop();
    let range = |v: &ast::VariantValue| match *v {
        ast::VariantValue::One(n, _) => Some((n, n)),
        ast::VariantValue::Range(lo, hi, _) => Some((lo, hi)),
        ast::VariantValue::Rest(_) | ast::VariantValue::Next(_) => None,
    };
    let mut variants: Vec<ast::Variant> = Vec::new();
    let mut own: Vec<Option<&ast::Variant>> = e.variants.iter().map(Some).collect();
    for v in inherited {
        let replaces = |o: &ast::Variant| {
            o.name.name == v.name.name
                || match (range(&o.value), range(&v.value)) {
                    (Some((a, b)), Some((c, d))) => a <= d && c <= b,
                    _ => matches!(
                        (&o.value, &v.value),
                        (ast::VariantValue::Rest(_), ast::VariantValue::Rest(_))
                    ),
                }
        };
        let replacing: Vec<usize> = (0..own.len()).filter(|&i| replaces(&e.variants[i])).collect();
        if replacing.is_empty() {
            variants.push(v);
            continue;
        }
        if let Some((lo, hi)) = range(&v.value).filter(|(lo, hi)| lo < hi) {
            let covered = |n: u64| {
                replacing.iter().any(|&i| range(&e.variants[i].value).is_some_and(|(a, b)| a <= n && n <= b))
            };
            if let Some(n) = (lo..=hi).find(|&n| !covered(n)) {
                cx.error(
                    e.variants[replacing[0]].span,
                    format!("replaces part of `{}({lo}..={hi})`", v.name.name),
                )
                .with(v.span, "the included range")
                .note(format!("{n} would be left without a value; replace all of the range"));
            }
        }
        // The replacing values stand where the first value they replace stood.
        variants.extend(replacing.iter().filter_map(|&i| own[i].take()).cloned());
    }
    variants.extend(own.into_iter().flatten().cloned());
    if let Some((_, at)) = e.spelled.as_ref().filter(|_| e.pattern_pending && !reported) {
        if !variants.iter().any(|v| v.spellings.iter().any(|(_, _, by)| by == at)) {
            cx.error(*at, "no value takes the spelling pattern").note(
                "a pattern spells the enum's own one-value variants without a spelling, and the values \
                 it includes that another pattern spelled",
            );
        }
    }
    // The own spellings of undefined values, per dialect, replace the included ones.
    else_spellings.retain(|(d, _, _): &(Option<Ident>, String, Span)| {
        !e.else_spellings.iter().any(|(o, _, _)| o.as_ref().map(|i| &i.name) == d.as_ref().map(|i| &i.name))
    });
    else_spellings.extend(e.else_spellings.iter().cloned());
    ast::Enum { uses: Vec::new(), variants, else_spellings, ..e.clone() }
}

/// `enum Round : u2 { rn = 0, rm, rp, rz }`: a variant without a value holds the one after the
/// previous variant's last (1, 2, 3), the first of an enum 0. One after a catch-all `x(_)`, or
/// the first after a `use` (whose values it would continue is not said, wherever the `use`
/// stands among the variants), is an error.
fn numbered(cx: &mut Checker, e: &ast::Enum) -> ast::Enum {
    let mut e = e.clone();
    let mut next: Option<u64> = if e.uses.is_empty() { Some(0) } else { None };
    let mut after = None;
    let mut dropped = Vec::new();
    let mut before = 0;
    for v in &mut e.variants {
        // A `use` between the previous variant and this one: the values it brings come between.
        if e.uses.iter().any(|u| (before..v.span.start).contains(&u.span.start)) {
            next = None;
            after = None;
        }
        before = v.span.start;
        match v.value {
            ast::VariantValue::One(n, _) | ast::VariantValue::Range(_, n, _) => next = n.checked_add(1),
            ast::VariantValue::Rest(at) => {
                next = None;
                after = Some(at);
            }
            ast::VariantValue::Next(at) => match next {
                Some(n) => {
                    v.value = ast::VariantValue::One(n, at);
                    next = n.checked_add(1);
                }
                None => {
                    let why = match after {
                        Some(_) => "it follows a catch-all, which holds no last value",
                        None if e.uses.is_empty() => "the value before it is the largest there is",
                        None => "a `use` stands before it, and which included value it follows is not said",
                    };
                    let mut d = cx.error(at, format!("`{}` has no value: {why}", v.name.name));
                    if let Some(rest) = after {
                        d = d.with(rest, "the catch-all");
                    }
                    d.note("give it one: `name = 4`");
                    dropped.push(v.name.name.clone());
                }
            },
        }
    }
    // Reported: left out, so that no value it was given is reported again.
    e.variants.retain(|v| !matches!(v.value, ast::VariantValue::Next(_)) || !dropped.contains(&v.name.name));
    e
}

/// `enum Round : u2 spelled ".{NAME}" { rn = 0 "", rm = 1, .. }`: each one-value variant with no
/// spelling for every dialect is spelled by the pattern, `{NAME}` its name in capitals and
/// `{name}` its name as written, a trailing `_` (which keeps a keyword a name: `is_`) left out;
/// `rm = 1` is `rm = 1 ".RM"`. A pattern without a name, an unknown `{..}` in it, a range or
/// catch-all left to it, and a pattern no variant takes are errors.
fn spelled_by_pattern(cx: &mut Checker, e: &ast::Enum, dialects: &[&str]) -> ast::Enum {
    let mut e = e.clone();
    let Some((pattern, at)) = e.spelled.clone() else { return e };
    let mut names = 0;
    let mut rest = pattern.as_str();
    while let Some(open) = rest.find('{') {
        let Some(len) = rest[open..].find('}') else {
            cx.error(at, "unclosed `{` in the spelling pattern");
            return e;
        };
        match &rest[open + 1..open + len] {
            "NAME" | "name" => names += 1,
            other => {
                cx.error(at, format!("`{{{other}}}` in a spelling pattern")).note(
                    "a pattern holds `{NAME}` (the variant's name in capitals) or `{name}` (as written)",
                );
                return e;
            }
        }
        rest = &rest[open + len + 1..];
    }
    if names == 0 {
        cx.error(at, "the spelling pattern holds no `{NAME}` or `{name}`")
            .note("every variant it spells would print alike; `spelled \".{NAME}\"` spells `rm` as `.RM`");
        return e;
    }
    if pattern == "{name}" {
        cx.error(at, "the spelling pattern `{name}` spells each variant as its name, as no pattern does")
            .note("leave the pattern out");
        return e;
    }
    let mut taken = false;
    let mut ranges = false;
    for v in &mut e.variants {
        let spelled = |d: &str| v.spellings.iter().any(|(x, _, _)| x.as_ref().is_some_and(|x| x.name == d));
        let every = !dialects.is_empty() && dialects.iter().all(|d| spelled(d));
        if every || v.spellings.iter().any(|(d, _, _)| d.is_none()) {
            continue;
        }
        if !matches!(v.value, ast::VariantValue::One(..) | ast::VariantValue::Next(_)) {
            ranges = true;
            cx.error(
                v.name.span,
                format!("`{}` holds more than one value: the spelling pattern spells one", v.name.name),
            )
            .with(at, "the pattern")
            .note("spell a range with its number: `r(0..=7) \"R{v}\"`");
            continue;
        }
        let name = v.name.name.strip_suffix('_').unwrap_or(&v.name.name);
        let text = pattern.replace("{NAME}", &name.to_uppercase()).replace("{name}", name);
        v.spellings.push((None, text, at));
        taken = true;
    }
    if !e.uses.is_empty() {
        // Unless an own variant took it, decided with the included values (`enum_with_uses`),
        // which the pattern may spell.
        e.pattern_pending = !taken && !ranges;
    } else if e.variants.is_empty() {
        cx.error(at, "no variant takes the spelling pattern: the enum has no variants of its own")
            .note("a pattern spells the enum's own variants; those `use` brings keep their spellings");
    } else if !taken && !ranges {
        cx.error(at, "no variant takes the spelling pattern: each has a spelling of its own")
            .note("leave the pattern out, or the spellings it gives");
    }
    e
}

/// A range spelled by its value divided, `q(6..=14) "{v/2}"`: its values are every N-th from
/// `lo` (6, 8, .., 14), each a value of its own named and spelled by its number v/N (`q3 = 6
/// "3"`, .., `q7 = 14 "7"`); the values between them are left to other variants. Every
/// spelling of such a range divides by the same N.
/// The most values one `{v/N}` range spells one by one ([`every_nth_value`]).
const DIVIDED_VALUES: u64 = 1 << 16;

fn every_nth_value(cx: &mut Checker, mut e: ast::Enum) -> ast::Enum {
    /// `N` of the first `{v/N}` in `text`: `Some(Err(..))` when it is no positive number.
    fn divisor(text: &str) -> Option<Result<(u64, std::ops::Range<usize>), String>> {
        let start = text.find("{v/")?;
        let Some(len) = text[start..].find('}') else { return Some(Err("unclosed `{v/`".into())) };
        let inner = &text[start + 3..start + len];
        Some(match inner.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok((n, start..start + len + 1)),
            _ => Err(format!("`{{v/{inner}}}`: expected `{{v/N}}` with N a positive number")),
        })
    }
    if !e.variants.iter().any(|v| v.spellings.iter().any(|(_, text, _)| text.contains("{v/"))) {
        return e;
    }
    let mut variants = Vec::with_capacity(e.variants.len());
    for mut v in std::mem::take(&mut e.variants) {
        let mut n = None;
        for (_, text, at) in &mut v.spellings {
            match divisor(text) {
                None => {}
                Some(Err(m)) => {
                    cx.error(*at, m);
                    // Reported: the range goes on as spelled by `{v}`.
                    let start = text.find("{v/").unwrap_or(0);
                    let end = text[start..].find('}').map_or(text.len(), |e| start + e + 1);
                    text.replace_range(start..end, "{v}");
                }
                Some(Ok((d, _))) => match n {
                    None => n = Some((d, *at)),
                    Some((first, at0)) if first != d => {
                        cx.error(
                            *at,
                            format!("this spelling divides by {d}, another of `{}` by {first}", v.name.name),
                        )
                        .with(at0, "divides by another number");
                    }
                    Some(_) => {}
                },
            }
        }
        let Some((n, at)) = n else {
            variants.push(v);
            continue;
        };
        let ast::VariantValue::Range(lo, hi, range_at) = v.value else {
            cx.error(at, "`{v/N}` spells the values of a range").label("not a range of values");
            variants.push(v);
            continue;
        };
        // Each value becomes a variant of its own: `r(0..=2^64-1) "{v/1}"` would be 2^64 of
        // them (the checker hung). Past the limit the range stays one, spelled by `{v}`.
        let count = if lo <= hi { u128::from((hi - lo) / n) + 1 } else { 0 };
        if count > u128::from(DIVIDED_VALUES) {
            cx.error(at, format!("`{{v/{n}}}` spells {count} values of `{}` one by one", v.name.name))
                .label(format!("at most {DIVIDED_VALUES}"))
                .note("a range spelled by `{v}` (or `{v+N}`, `{v-N}`) holds any number of values");
            for (_, text, _) in &mut v.spellings {
                if let Some(Ok((_, place))) = divisor(text) {
                    text.replace_range(place, "{v}");
                }
            }
            variants.push(v);
            continue;
        }
        for value in (lo..=hi).step_by(usize::try_from(n).unwrap_or(usize::MAX)) {
            let shown = (value / n).to_string();
            let spellings = v
                .spellings
                .iter()
                .map(|(d, text, sp)| {
                    let text = match divisor(text) {
                        Some(Ok((_, place))) => {
                            format!("{}{shown}{}", &text[..place.start], &text[place.end..])
                        }
                        _ => text.clone(),
                    };
                    (d.clone(), text, *sp)
                })
                .collect();
            variants.push(ast::Variant {
                name: Ident { name: format!("{}{shown}", v.name.name), span: v.name.span },
                value: ast::VariantValue::One(value, range_at),
                spellings,
                ..v.clone()
            });
        }
    }
    e.variants = variants;
    e
}

/// `use g as a`: the names a group's body declares (fields, views, lets, templates) become
/// `a_name`, where declared and wherever the body reads them, so one group can describe several
/// operands of an instruction (AGX's sources A, B and C).
fn prefixed(body: &mut Layout, prefix: &str) {
    let renamed = |n: &str| format!("{prefix}_{n}");
    // A let with parameters keeps its name: it is called, not named.
    let values = body
        .fields
        .iter()
        .map(|f| &f.name)
        .chain(body.lets.iter().filter(|l| l.params.is_empty()).map(|l| &l.name));
    let map: Vec<(String, Expr)> = values
        .map(|n| (n.name.clone(), Expr { kind: ExprKind::Name(renamed(&n.name)), span: n.span }))
        .collect();
    // References point at the declaration they now name.
    Subst::new(&map).layout(body);
    let templates: Vec<String> = body.templates.iter().map(|t| t.name.name.clone()).collect();
    fn calls(items: &mut [TItem], templates: &[String], renamed: &dyn Fn(&str) -> String) {
        for item in items {
            match item {
                TItem::Call(name, _, _) if templates.contains(&name.name) => name.name = renamed(&name.name),
                TItem::Opt(_, inner, _) | TItem::AnyOrder(_, inner, _) => calls(inner, templates, renamed),
                _ => {}
            }
        }
    }
    let bodies = body.syntax.iter_mut().map(|(_, b)| b).chain(body.templates.iter_mut().map(|t| &mut t.body));
    for b in bodies {
        b.arms.iter_mut().for_each(|arm| calls(&mut arm.items, &templates, &renamed));
    }
    for f in &mut body.fields {
        f.name.name = renamed(&f.name.name);
        if let ast::TypeExpr::Switch { tag, .. } = &mut f.ty {
            if let [t] = tag.as_mut_slice() {
                if map.iter().any(|(n, _)| *n == t.name) {
                    t.name = renamed(&t.name);
                }
            }
        }
    }
    for l in body.lets.iter_mut().filter(|l| l.params.is_empty()) {
        l.name.name = renamed(&l.name.name);
    }
    for t in &mut body.templates {
        t.name.name = renamed(&t.name.name);
    }
}

/// "1 argument", "2 arguments".
fn arguments(n: usize) -> String {
    if n == 1 {
        "1 argument".into()
    } else {
        format!("{n} arguments")
    }
}

/// `a && b && ...`, or `None` for no condition.
fn conjunction(conds: Vec<Expr>) -> Option<Expr> {
    conds.into_iter().reduce(|a, b| {
        let span = Span { start: a.span.start.min(b.span.start), end: a.span.end.max(b.span.end) };
        Expr { kind: ExprKind::Binary(ast::BinOp::And, Box::new(a), Box::new(b)), span }
    })
}

/// Whether `e` reads the name `n` anywhere.
fn mentions(e: &Expr, n: &str) -> bool {
    let mut found = false;
    let probe = [(n.to_string(), Expr { kind: ExprKind::Bool(true), span: Span::default() })];
    let mut copy = e.clone();
    Subst::new(&probe).visit(&mut copy, &[], &mut |_| found = true);
    found
}

/// The members other than fields, with where each came from, merged by name.
#[derive(Default)]
struct Members {
    syntax: Vec<(Ident, ast::TemplateBody)>,
    properties: Vec<(Ident, Expr)>,
    constraints: Vec<ast::Constraint>,
    lets: Vec<ast::LetDef>,
    templates: Vec<ast::TemplateDef>,
    execute: Option<(ast::Block, Span)>,
}

/// Whether two fields of one declaration are that field reached twice (a group two included
/// groups use) rather than the declaration placed twice: a group used twice with other bits,
/// type or value (`use g(7)` and `use g(3)` for `x: u4 @ at:at - 3`), or a row of fields named
/// in two runs (`fields @ 31:16 { r, r }`), whose second field would otherwise be dropped.
fn same_placement(a: &ast::Field, b: &ast::Field) -> bool {
    use super::fields::const_eval;
    let value = |e: &Expr| const_eval(e, None);
    let piece = |p: &ast::BitPiece| match p {
        ast::BitPiece::Range(hi, lo, _) => (0, value(hi), value(lo)),
        ast::BitPiece::Width(lo, w, _) => (1, value(lo), value(w)),
        ast::BitPiece::Bit(x, _) => (2, value(x), None),
    };
    let ty = |f: &ast::Field| match &f.ty {
        ast::TypeExpr::Named(t) => Some(t.name.clone()),
        ast::TypeExpr::Switch { .. } => None,
    };
    a.bits.iter().map(piece).eq(b.bits.iter().map(piece))
        && ty(a) == ty(b)
        && a.fixed.as_ref().map(value) == b.fixed.as_ref().map(value)
}

impl Members {
    /// Adds an included body's members; the same name from two included bodies is an error.
    fn include(&mut self, x: &mut Expander, l: &Layout) {
        fn add<T: Clone>(
            x: &mut Expander,
            list: &mut Vec<T>,
            item: &T,
            key: impl Fn(&T) -> &Ident,
            what: &str,
        ) {
            match list.iter().find(|e| key(e).name == key(item).name) {
                Some(first) if key(first).span == key(item).span => {}
                Some(first) => {
                    let first = key(first).span;
                    let name = &key(item).name;
                    x.cx.error(key(item).span, format!("{what} `{name}` comes from two included bodies"))
                        .with(first, "the other")
                        .note("declare it in the including format or group to choose one");
                }
                None => list.push(item.clone()),
            }
        }
        for s in &l.syntax {
            add(x, &mut self.syntax, s, |s| &s.0, "syntax for dialect");
        }
        for p in &l.properties {
            add(x, &mut self.properties, p, |p| &p.0, "property");
        }
        for c in &l.constraints {
            add(x, &mut self.constraints, c, |c| &c.name, "constraint");
        }
        for d in &l.lets {
            add(x, &mut self.lets, d, |d| &d.name, "let");
        }
        for t in &l.templates {
            add(x, &mut self.templates, t, |t| &t.name, "template");
        }
        if let Some(b) = &l.execute {
            match &self.execute {
                Some((_, first)) if *first != l.span => {
                    x.cx.error(l.name.span, "`execute` comes from two included bodies")
                        .with(*first, "the other")
                        .note("declare `execute` in the including format or group to choose one");
                }
                Some(_) => {}
                None => self.execute = Some((b.clone(), l.span)),
            }
        }
    }

    /// The own declarations replace included ones of the same name (and an earlier one of the
    /// same name in the own body), taken out of `own`.
    fn replace_with(&mut self, own: &mut Layout) {
        fn put<T>(list: &mut Vec<T>, items: Vec<T>, key: impl Fn(&T) -> &str) {
            for item in items {
                list.retain(|e| key(e) != key(&item));
                list.push(item);
            }
        }
        put(&mut self.syntax, std::mem::take(&mut own.syntax), |s| &s.0.name);
        put(&mut self.properties, std::mem::take(&mut own.properties), |p| &p.0.name);
        put(&mut self.constraints, std::mem::take(&mut own.constraints), |c| &c.name.name);
        put(&mut self.lets, std::mem::take(&mut own.lets), |d| &d.name.name);
        put(&mut self.templates, std::mem::take(&mut own.templates), |t| &t.name.name);
        if let Some(b) = own.execute.take() {
            self.execute = Some((b, own.span));
        }
    }

    fn write_into(self, out: &mut Layout) {
        out.syntax = self.syntax;
        out.properties = self.properties;
        out.constraints = self.constraints;
        out.lets = self.lets;
        out.templates = self.templates;
        out.execute = self.execute.map(|(b, _)| b);
    }
}

/// A parameter standing where its argument cannot: where, the message, where it was bound.
type Misplaced = (Span, String, Span);

/// Replaces names by expressions (parameters by arguments, lets by values), leaving alone
/// the names a template parameter, a `let` statement or an array index `i` shadows.
/// The most terms a let (or a call of one) may be written out to, and how deep: lets are
/// substituted where they are named, so a chain of `let a = b + b` doubles at each step (25 of
/// them ran for minutes and took gigabytes before, as did 30 nested calls of `let f(x) = x +
/// x`), and a chain of `let a = b + 1` is as deep as it is long (the checker's walks recurse:
/// [`crate::parse::MAX_NESTING`] levels, as for what is written).
pub const MAX_TERMS: usize = 100_000;

/// Whether `e` has more than [`MAX_TERMS`] terms or more than [`crate::parse::MAX_NESTING`]
/// levels (counted up to there, no further).
fn too_large(e: &Expr) -> bool {
    fn count(e: &Expr, n: &mut usize, depth: usize) {
        *n += 1;
        if depth > crate::parse::MAX_NESTING {
            *n = MAX_TERMS + 1;
        }
        if *n > MAX_TERMS {
            return;
        }
        let d = depth + 1;
        match &e.kind {
            ExprKind::Member(x, _) | ExprKind::InSet(x, _) | ExprKind::Unary(_, x) => count(x, n, d),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                count(a, n, d);
                count(b, n, d);
            }
            ExprKind::If(c, a, b) => {
                count(c, n, d);
                count(a, n, d);
                count(b, n, d);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| count(a, n, d)),
            ExprKind::Match(x, arms) => {
                count(x, n, d);
                for (_, body) in arms {
                    match body {
                        MatchBody::Expr(v) => count(v, n, d),
                        MatchBody::Block(_) => *n += 1,
                    }
                }
            }
            _ => {}
        }
    }
    let mut n = 0;
    count(e, &mut n, 0);
    n > MAX_TERMS
}

struct Subst<'a> {
    map: &'a [(String, Expr)],
    /// Where a string (an argument bound to a parameter) stands in an expression, collected.
    texts: Option<&'a RefCell<Vec<(Span, &'static str)>>>,
    /// A parameter bound to a row of fields or a piece of syntax standing where the other is
    /// wanted, collected (where, message).
    misplaced: Option<&'a RefCell<Vec<Misplaced>>>,
    /// Whether names standing as types are replaced too (parameters, not lets), and where an
    /// argument that names no type stood as one (the argument, the type's place), collected.
    types: Option<&'a RefCell<Vec<(Span, Span)>>>,
    /// Lets with parameters, written out at their calls; their values have no plain lets left.
    calls: &'a [ast::LetDef],
    /// Calls of them that could not be written out (wrong number of arguments, a let that
    /// calls itself), collected.
    call_errors: Option<&'a RefCell<Vec<(Span, String)>>>,
    /// How many calls deep the expansion is.
    depth: Cell<u32>,
    /// Where the rows and pieces of syntax named (shown, or reported misplaced) are written.
    used: Option<&'a RefCell<Vec<Span>>>,
}

impl<'a> Subst<'a> {
    fn new(map: &'a [(String, Expr)]) -> Self {
        Subst {
            map,
            texts: None,
            misplaced: None,
            types: None,
            calls: &[],
            call_errors: None,
            depth: Cell::new(0),
            used: None,
        }
    }

    /// Whether there is nothing to do.
    fn idle(&self) -> bool {
        self.map.is_empty() && self.texts.is_none() && self.calls.is_empty()
    }

    fn layout(&self, l: &mut Layout) {
        if self.idle() {
            return;
        }
        for f in &mut l.fields {
            for e in f
                .count
                .iter_mut()
                .chain(f.fixed.iter_mut())
                .chain(f.default.iter_mut())
                .chain(&mut f.element_defaults)
            {
                self.expr(e, &[]);
            }
            for b in &mut f.bits {
                let shadow = ["i".to_string()];
                match b {
                    ast::BitPiece::Range(a, c, _) | ast::BitPiece::Width(a, c, _) => {
                        self.expr(a, &shadow);
                        self.expr(c, &shadow);
                    }
                    ast::BitPiece::Bit(a, _) => self.expr(a, &shadow),
                }
            }
            match &mut f.ty {
                ast::TypeExpr::Named(t) => self.type_name(t),
                ast::TypeExpr::Switch { arms, .. } => {
                    for (e, t) in arms {
                        self.expr(e, &[]);
                        self.type_name(t);
                    }
                }
            }
        }
        for (_, body) in &mut l.syntax {
            self.template_body(body, &[]);
        }
        for (_, e) in &mut l.properties {
            self.expr(e, &[]);
        }
        for c in &mut l.constraints {
            self.expr(&mut c.expr, &[]);
        }
        for w in &mut l.when {
            self.expr(w, &[]);
        }
        for d in &mut l.lets {
            self.expr(&mut d.value, &[]);
        }
        for t in &mut l.templates {
            let shadow: Vec<String> = t.params.iter().map(|p| p.name.clone()).collect();
            self.template_body(&mut t.body, &shadow);
        }
        if let Some(b) = &mut l.execute {
            self.block(b, &[]);
        }
    }

    /// A type name that is a parameter becomes the type its argument names.
    fn type_name(&self, t: &mut Ident) {
        let Some(types) = self.types else { return };
        match self.map.iter().find(|(k, _)| *k == t.name) {
            Some((_, Expr { kind: ExprKind::Name(n), span })) => *t = Ident { name: n.clone(), span: *span },
            Some((_, other)) => {
                types.borrow_mut().push((other.span, t.span));
                t.name = super::types::NOT_A_TYPE.to_string();
            }
            None => {}
        }
    }

    fn template_body(&self, body: &mut ast::TemplateBody, shadow: &[String]) {
        for arm in &mut body.arms {
            if let Some(g) = &mut arm.guard {
                self.expr(g, shadow);
            }
            self.titems(&mut arm.items, shadow);
        }
    }

    fn titems(&self, items: &mut Vec<TItem>, shadow: &[String]) {
        let mut texts = false;
        // A parameter bound to a piece of syntax, named as an item, is those items.
        if items.iter().any(|i| self.fragment(i, shadow).is_some()) {
            let mut out = Vec::with_capacity(items.len());
            for item in std::mem::take(items) {
                if let (Some(used), TItem::Call(name, _, _)) = (self.used, &item) {
                    if let Some((_, e)) = self.map.iter().find(|(k, _)| *k == name.name) {
                        if matches!(e.kind, ExprKind::Syntax(_) | ExprKind::Fields(_))
                            && !shadow.contains(&name.name)
                        {
                            used.borrow_mut().push(e.span);
                        }
                    }
                }
                match self.fragment(&item, shadow) {
                    Some(Ok(more)) => {
                        out.extend(more.iter().cloned());
                        texts = true;
                    }
                    Some(Err(message)) => {
                        if let (Some(m), TItem::Call(name, _, at)) = (self.misplaced, &item) {
                            let bound =
                                self.map.iter().find(|(k, _)| *k == name.name).map_or(*at, |(_, e)| e.span);
                            m.borrow_mut().push((*at, message, bound));
                        }
                    }
                    None => out.push(item),
                }
            }
            *items = out;
        }
        for item in items.iter_mut() {
            // A parameter bound to a string, named as an item, is that text.
            if let TItem::Call(name, args, at) = item {
                if let Some((_, Expr { kind: ExprKind::Str(text), .. })) =
                    self.map.iter().find(|(k, _)| *k == name.name).filter(|_| !shadow.contains(&name.name))
                {
                    if args.is_empty() {
                        *item = TItem::Lit(text.clone(), *at);
                        texts = true;
                        continue;
                    }
                }
            }
            match item {
                TItem::Lit(..) => {}
                TItem::Hole { expr, table, base, .. } => {
                    self.expr(expr, shadow);
                    match table {
                        Some(TableChoice::If(c, a, b)) => {
                            self.expr(c, shadow);
                            self.type_name(a);
                            self.type_name(b);
                        }
                        Some(TableChoice::One(t)) => self.type_name(t),
                        None => {}
                    }
                    if let Some(b) = base {
                        self.expr(b, shadow);
                    }
                }
                // A string stays a template's argument (its text), a piece of syntax too, with
                // the names in it replaced.
                TItem::Call(_, args, _) => {
                    for a in args.iter_mut() {
                        match &mut a.kind {
                            ExprKind::Str(_) => {}
                            ExprKind::Syntax(inner) => self.titems(inner, shadow),
                            _ => {
                                // A piece of syntax passed on to a template is named here.
                                if let (Some(used), ExprKind::Name(n)) = (self.used, &a.kind) {
                                    let bound =
                                        self.map.iter().find(|(k, _)| k == n).filter(|_| !shadow.contains(n));
                                    if let Some((_, e @ Expr { kind: ExprKind::Syntax(_), .. })) = bound {
                                        used.borrow_mut().push(e.span);
                                    }
                                }
                                self.expr(a, shadow)
                            }
                        }
                    }
                }
                TItem::Opt(c, inner, _) => {
                    self.expr(c, shadow);
                    self.titems(inner, shadow);
                }
                TItem::AnyOrder(_, groups, _) => self.titems(groups, shadow),
            }
        }
        if texts {
            join_literals(items);
        }
    }

    /// The items a syntax item stands for when it names a parameter bound to a piece of syntax
    /// (`Err`: a parameter bound to a row of fields, or called with arguments).
    fn fragment<'i>(&'i self, item: &TItem, shadow: &[String]) -> Option<Result<&'i [TItem], String>> {
        let TItem::Call(name, args, _) = item else { return None };
        if shadow.contains(&name.name) {
            return None;
        }
        match &self.map.iter().find(|(k, _)| *k == name.name)?.1.kind {
            ExprKind::Syntax(items) if args.is_empty() => Some(Ok(items)),
            ExprKind::Syntax(_) => {
                Some(Err(format!("`{}` is a piece of syntax: it takes no arguments", name.name)))
            }
            ExprKind::Fields(_) => Some(Err(format!(
                "`{}` is a row of fields: it stands in a `fields` run, not in a syntax",
                name.name
            ))),
            _ => None,
        }
    }

    fn block(&self, b: &mut ast::Block, shadow: &[String]) {
        if !self.idle() {
            self.block_visit(b, &mut shadow.to_vec(), &mut |_| {});
        }
    }

    fn expr(&self, e: &mut Expr, shadow: &[String]) {
        if !self.idle() {
            self.visit(e, shadow, &mut |_| {});
        }
    }

    /// Substitutes in `e`, calling `hit` for every replaced name.
    fn visit(&self, e: &mut Expr, shadow: &[String], hit: &mut dyn FnMut(&str)) {
        match &mut e.kind {
            ExprKind::Name(n) => {
                if shadow.contains(n) {
                    return;
                }
                if let Some((name, value)) = self.map.iter().find(|(k, _)| k == n) {
                    hit(name);
                    *e = value.clone();
                    // A let's value may call a let with parameters.
                    self.write_out_calls(e);
                }
            }
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) => {}
            ExprKind::Str(_) | ExprKind::Syntax(_) | ExprKind::Fields(_) => {
                if let Some(texts) = self.texts {
                    // Reported once, here; 0 stands in so that nothing reports it again.
                    let what = match e.kind {
                        ExprKind::Str(_) => "a string",
                        ExprKind::Syntax(_) => "a piece of syntax",
                        _ => "a row of fields",
                    };
                    texts.borrow_mut().push((e.span, what));
                    if let Some(used) = self.used {
                        used.borrow_mut().push(e.span);
                    }
                    e.kind = ExprKind::Int(0);
                }
            }
            ExprKind::Member(base, _) => self.visit(base, shadow, hit),
            ExprKind::Index(base, index) => {
                self.visit(base, shadow, hit);
                self.visit(index, shadow, hit);
            }
            ExprKind::InSet(x, _) | ExprKind::Unary(_, x) => self.visit(x, shadow, hit),
            ExprKind::Call(name, args) => {
                args.iter_mut().for_each(|a| self.visit(a, shadow, hit));
                if !shadow.contains(&name.name) {
                    self.call(e);
                }
            }
            ExprKind::Binary(_, a, b) => {
                self.visit(a, shadow, hit);
                self.visit(b, shadow, hit);
            }
            ExprKind::If(c, a, b) => {
                self.visit(c, shadow, hit);
                self.visit(a, shadow, hit);
                self.visit(b, shadow, hit);
            }
            ExprKind::Match(x, arms) => {
                self.visit(x, shadow, hit);
                for (_, body) in arms {
                    match body {
                        MatchBody::Expr(v) => self.visit(v, shadow, hit),
                        MatchBody::Block(b) => {
                            // Blocks inside expressions: substitute, honouring their lets.
                            let mut inner = shadow.to_vec();
                            self.block_visit(b, &mut inner, hit);
                        }
                    }
                }
            }
        }
    }

    /// `e`, a call of a let with parameters, replaced by that let's value with the arguments
    /// bound (and the calls in it written out too).
    fn call(&self, e: &mut Expr) {
        let ExprKind::Call(name, args) = &e.kind else { return };
        let Some(l) = self.calls.iter().find(|l| l.name.name == name.name) else { return };
        let mistake = if args.len() != l.params.len() {
            Some(format!("`let {}` takes {}, {} given", l.name.name, arguments(l.params.len()), args.len()))
        } else if self.depth.get() >= 32 {
            Some(format!("`let {}` calls itself", l.name.name))
        } else {
            None
        };
        if let Some(message) = mistake {
            if let Some(errors) = self.call_errors {
                errors.borrow_mut().push((e.span, message));
            }
            // Reported once, here; 0 stands in so that nothing reports it again.
            e.kind = ExprKind::Int(0);
            return;
        }
        let bindings: Vec<(String, Expr)> =
            l.params.iter().map(|p| p.name.clone()).zip(args.iter().cloned()).collect();
        let mut value = l.value.clone();
        Subst::new(&bindings).expr(&mut value, &[]);
        self.depth.set(self.depth.get() + 1);
        self.write_out_calls(&mut value);
        self.depth.set(self.depth.get() - 1);
        if too_large(&value) {
            if let Some(errors) = self.call_errors {
                let message = format!(
                    "`{}(...)` is too large written out (more than {MAX_TERMS} terms, or {} levels deep)",
                    l.name.name,
                    crate::parse::MAX_NESTING
                );
                errors.borrow_mut().push((e.span, message));
            }
            e.kind = ExprKind::Int(0);
            return;
        }
        *e = value;
    }

    /// Writes out the calls of lets with parameters in `e` (whose names are already substituted).
    fn write_out_calls(&self, e: &mut Expr) {
        if !self.calls.is_empty() {
            let calls_only = Subst { calls: self.calls, call_errors: self.call_errors, ..Subst::new(&[]) };
            calls_only.depth.set(self.depth.get());
            calls_only.visit(e, &[], &mut |_| {});
        }
    }

    fn block_visit(&self, b: &mut ast::Block, shadow: &mut Vec<String>, hit: &mut dyn FnMut(&str)) {
        for s in &mut b.stmts {
            match s {
                Stmt::Let(name, e) => {
                    self.visit(e, shadow, hit);
                    shadow.push(name.name.clone());
                }
                Stmt::Assign(_, index, e) => {
                    if let Some(i) = index {
                        self.visit(i, shadow, hit);
                    }
                    self.visit(e, shadow, hit);
                }
                Stmt::If(c, then, otherwise) => {
                    self.visit(c, shadow, hit);
                    let mut inner = shadow.clone();
                    self.block_visit(then, &mut inner, hit);
                    if let Some(o) = otherwise {
                        let mut inner = shadow.clone();
                        self.block_visit(o, &mut inner, hit);
                    }
                }
                Stmt::EachElement(body, _) => {
                    let mut inner = shadow.clone();
                    self.block_visit(body, &mut inner, hit);
                }
                Stmt::For { var, lo, hi, body, .. } => {
                    self.visit(lo, shadow, hit);
                    self.visit(hi, shadow, hit);
                    let mut inner = shadow.clone();
                    inner.push(var.name.clone());
                    self.block_visit(body, &mut inner, hit);
                }
                Stmt::Expr(e) => self.visit(e, shadow, hit),
            }
        }
        if let Some(v) = &mut b.value {
            self.visit(v, shadow, hit);
        }
    }
}

/// Whether `e`, with no name in it, always holds (`Some(true)`) or never (`Some(false)`): a
/// parameter bound to a constant (`if wide`, `p == 2 && x`) is decided before names are read.
fn constant_truth(e: &Expr) -> Option<bool> {
    use ast::BinOp::*;
    let value = |e: &Expr| match e.kind {
        ExprKind::Bool(b) => Some(i64::from(b)),
        _ => super::fields::const_eval(e, None),
    };
    match &e.kind {
        ExprKind::Bool(b) => Some(*b),
        ExprKind::Unary(ast::UnOp::Not, x) => constant_truth(x).map(|t| !t),
        ExprKind::Binary(And, a, b) => match (constant_truth(a), constant_truth(b)) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        },
        ExprKind::Binary(Or, a, b) => match (constant_truth(a), constant_truth(b)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        ExprKind::Binary(op @ (Eq | Ne | Lt | Le | Gt | Ge), a, b) => {
            let (a, b) = (value(a)?, value(b)?);
            Some(match op {
                Eq => a == b,
                Ne => a != b,
                Lt => a < b,
                Le => a <= b,
                Gt => a > b,
                _ => a >= b,
            })
        }
        _ => value(e).map(|v| v != 0),
    }
}

/// Folds what a constant condition decides in an expression: `if c then a else b` is `a` or
/// `b`, `c && x` is `x` or false, `c || x` is true or `x`; the branch not taken is dropped
/// unread.
fn fold_expr(e: &mut Expr) {
    use ast::BinOp::{And, Or};
    let decided = match &mut e.kind {
        ExprKind::If(c, a, b) => match constant_truth(c) {
            Some(t) => Some(std::mem::replace(
                if t { &mut **a } else { &mut **b },
                Expr { kind: ExprKind::Bool(false), span: e.span },
            )),
            None => None,
        },
        ExprKind::Binary(op @ (And | Or), a, b) => match (constant_truth(a), *op == And) {
            (Some(t), and) if t == and => {
                Some(std::mem::replace(&mut **b, Expr { kind: ExprKind::Bool(false), span: e.span }))
            }
            (Some(t), _) => Some(Expr { kind: ExprKind::Bool(t), span: e.span }),
            (None, _) => None,
        },
        _ => None,
    };
    if let Some(d) = decided {
        *e = d;
        return fold_expr(e);
    }
    match &mut e.kind {
        ExprKind::Name(_) | ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) => {}
        ExprKind::Str(_) | ExprKind::Syntax(_) | ExprKind::Fields(_) => {}
        ExprKind::Member(x, _) | ExprKind::InSet(x, _) | ExprKind::Unary(_, x) => fold_expr(x),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
            fold_expr(a);
            fold_expr(b);
        }
        ExprKind::Call(_, args) => args.iter_mut().for_each(fold_expr),
        ExprKind::If(c, a, b) => {
            fold_expr(c);
            fold_expr(a);
            fold_expr(b);
        }
        ExprKind::Match(x, arms) => {
            fold_expr(x);
            for (_, body) in arms {
                match body {
                    MatchBody::Expr(v) => fold_expr(v),
                    MatchBody::Block(b) => fold_block(b),
                }
            }
        }
    }
}

/// [`fold_expr`] in the expressions of a syntax's items.
fn fold_items(items: &mut [TItem]) {
    for item in items {
        match item {
            TItem::Lit(..) => {}
            TItem::Hole { expr, table, base, .. } => {
                fold_expr(expr);
                if let Some(TableChoice::If(c, _, _)) = table {
                    fold_expr(c);
                }
                base.iter_mut().for_each(fold_expr);
            }
            TItem::Call(_, args, _) => args.iter_mut().for_each(fold_expr),
            TItem::Opt(c, inner, _) => {
                fold_expr(c);
                fold_items(inner);
            }
            TItem::AnyOrder(_, inner, _) => fold_items(inner),
        }
    }
}

/// [`fold_expr`] in a block, and `if c { .. } else { .. }` with a constant `c` is the branch
/// taken (in place when it declares no `let`, else under `if true`).
fn fold_block(b: &mut ast::Block) {
    let stmts = std::mem::take(&mut b.stmts);
    for mut s in stmts {
        match &mut s {
            Stmt::If(c, then, otherwise) => {
                if let Some(t) = constant_truth(c) {
                    let empty = ast::Block { stmts: Vec::new(), value: None };
                    let taken = if t { Some(std::mem::replace(then, empty)) } else { otherwise.take() };
                    let Some(mut taken) = taken else { continue };
                    fold_block(&mut taken);
                    let lets = taken.stmts.iter().any(|s| matches!(s, Stmt::Let(..)));
                    if lets || taken.value.is_some() {
                        let yes = Expr { kind: ExprKind::Bool(true), span: c.span };
                        b.stmts.push(Stmt::If(yes, taken, None));
                    } else {
                        b.stmts.extend(taken.stmts);
                    }
                    continue;
                }
                fold_expr(c);
                fold_block(then);
                if let Some(o) = otherwise {
                    fold_block(o);
                }
            }
            Stmt::Let(_, e) | Stmt::Expr(e) => fold_expr(e),
            Stmt::Assign(_, index, e) => {
                index.iter_mut().for_each(fold_expr);
                fold_expr(e);
            }
            Stmt::EachElement(body, _) => fold_block(body),
            Stmt::For { lo, hi, body, .. } => {
                fold_expr(lo);
                fold_expr(hi);
                fold_block(body);
            }
        }
        b.stmts.push(s);
    }
    if let Some(v) = &mut b.value {
        fold_expr(v);
    }
}

/// Literals side by side become one, as if the syntax had written them as one: the text a
/// parameter stood for joins the literals beside it.
fn join_literals(items: &mut Vec<TItem>) {
    items.dedup_by(|next, prev| match (prev, next) {
        (TItem::Lit(a, _), TItem::Lit(b, _)) => {
            a.push_str(b);
            true
        }
        _ => false,
    });
}
