//! Data layouts beyond their own fields: unions chosen by a tag their arms share, constraints
//! over leaf paths (`common_word0.shader_type`), and the target's root layout.

use super::{cond, types, Checker};
use crate::ast;
use crate::ir::{self, LayoutId, Type};

/// Checks unions, layout constraints and `root`; fills the layouts' `union`, `leaves` and
/// `constraints` and the target's `root`.
pub fn check(cx: &mut Checker, file: &ast::File, t: &mut ir::Target) {
    let decls: Vec<&ast::Layout> = file
        .items
        .iter()
        .filter_map(|i| match i {
            ast::Item::Layout(l) if l.kind == ast::LayoutKind::Data => Some(l),
            _ => None,
        })
        .collect();
    if decls.len() != t.layouts.len() || !acyclic(cx, t, &decls) {
        return;
    }
    for (i, decl) in decls.iter().enumerate() {
        members_allowed(cx, decl);
        if let Some(ast::TypeExpr::Switch { tag, arms, span }) = &decl.union {
            if let Some(u) = union(cx, t, decl, tag, arms, *span) {
                t.layouts[i].union = Some(u);
            }
        }
    }
    nested_unions(cx, t, &decls);
    for (i, decl) in decls.iter().enumerate() {
        if decl.constraints.is_empty() {
            continue;
        }
        let leaves = crate::placement::leaves(t, LayoutId(i));
        let constraints = constraints(cx, t, decl, t.layouts[i].width, &leaves);
        let l = &mut t.layouts[i];
        l.leaves = leaves;
        l.constraints = constraints;
    }
    root(cx, file, t);
}

/// The layouts a field of type `ty` nests.
fn nested(ty: &Type) -> Vec<LayoutId> {
    match ty {
        Type::Layout(n) => vec![*n],
        Type::Switch { arms, .. } => arms.iter().flat_map(|(_, ty)| nested(ty)).collect(),
        _ => Vec::new(),
    }
}

/// A layout cannot contain itself, directly or through others: reports each cycle (found from
/// its first layout in declaration order, see cycles.rs) at the field that closes it. Returns
/// whether there is none.
fn acyclic(cx: &mut Checker, t: &ir::Target, decls: &[&ast::Layout]) -> bool {
    // An edge per nested layout, at the field that nests it.
    let edges: Vec<Vec<(usize, ast::Span)>> = t
        .layouts
        .iter()
        .zip(decls)
        .map(|(l, decl)| {
            l.fields
                .iter()
                .enumerate()
                .flat_map(|(fi, f)| {
                    let at = decl.fields.get(fi).map_or(decl.name.span, |f| f.name.span);
                    nested(&f.ty).into_iter().map(move |n| (n.0, at))
                })
                .collect()
        })
        .collect();
    let found = super::cycles::cycles(&edges);
    for cycle in &found {
        let (Some(&last), Some(&at)) = (cycle.nodes.last(), cycle.at.last()) else { continue };
        let names: Vec<&str> = cycle.nodes.iter().map(|i| t.layouts[*i].name.as_str()).collect();
        cx.error(at, format!("layout `{}` contains itself", t.layouts[last].name))
            .label(format!("through {}", names.join(" → ")))
            .note("a layout has a fixed width: it cannot nest itself");
    }
    found.is_empty()
}

/// Syntax, properties and semantics belong to instructions.
fn members_allowed(cx: &mut Checker, decl: &ast::Layout) {
    let what = if let Some((d, _)) = decl.syntax.first() {
        Some(("a syntax", d.span))
    } else if let Some((p, _)) = decl.properties.first() {
        Some(("a property", p.span))
    } else {
        decl.execute.as_ref().map(|_| ("semantics", decl.name.span))
    };
    if let Some((what, span)) = what {
        cx.error(span, format!("a data layout cannot have {what}"))
            .note("syntax, properties and `execute` belong to instruction formats; layouts have fields and constraints");
    }
}

/// Resolves `layout L : w = switch tag { value => Arm, ... }`.
fn union(
    cx: &mut Checker,
    t: &ir::Target,
    decl: &ast::Layout,
    tag: &[ast::Ident],
    arms: &[(ast::Expr, ast::Ident)],
    span: ast::Span,
) -> Option<ir::Union> {
    if let Some(f) = decl.fields.first() {
        cx.error(f.name.span, "a union layout has no fields of its own")
            .note("its arms are layouts with the fields; the union only chooses one of them");
        return None;
    }
    let width = t.layouts.iter().find(|l| l.name == decl.name.name).map_or(0, |l| l.width);
    let path = tag.iter().map(|x| x.name.as_str()).collect::<Vec<_>>().join(".");
    let mut tag_leaf: Option<ir::Leaf> = None;
    let mut out = Vec::new();
    for (value, arm) in arms {
        let Some(id) = t.layouts.iter().position(|l| l.name == arm.name) else {
            cx.error(arm.span, format!("unknown layout `{}`", arm.name))
                .label("a union's arms are data layouts");
            continue;
        };
        let l = &t.layouts[id];
        if l.width != width {
            cx.error(arm.span, format!("arm `{}` is {} bits but the union is {width}", arm.name, l.width));
            continue;
        }
        let leaves = crate::placement::leaves(t, LayoutId(id));
        let Some(leaf) = leaves.into_iter().find(|x| x.path == path) else {
            cx.error(arm.span, format!("layout `{}` has no field `{path}`", arm.name))
                .with(span, "the union is chosen by this field, which every arm must have");
            continue;
        };
        match &tag_leaf {
            Some(first) if first.pieces != leaf.pieces || first.ty != leaf.ty => {
                cx.error(
                    arm.span,
                    format!("`{path}` is not at the same bits with the same type in every arm"),
                )
                .note("the tag must be readable before the arm is known");
                continue;
            }
            Some(_) => {}
            None => tag_leaf = Some(leaf.clone()),
        }
        let Some(v) = types::constant(cx, t, &leaf.ty, value) else { continue };
        if out.iter().any(|(x, _)| *x == v) {
            cx.error(value.span, format!("tag value {v} chooses two arms"));
            continue;
        }
        out.push((v, LayoutId(id)));
    }
    let leaf = tag_leaf?;
    Some(ir::Union { tag: path, tag_pieces: leaf.pieces, tag_ty: leaf.ty, arms: out })
}

/// A union is a whole value: it is not nested in other layouts or arms of other unions.
fn nested_unions(cx: &mut Checker, t: &ir::Target, decls: &[&ast::Layout]) {
    for (l, decl) in t.layouts.iter().zip(decls) {
        for (f, fd) in l.fields.iter().zip(&decl.fields) {
            if let Some(n) =
                nested(&f.ty).iter().find(|n| t.layouts.get(n.0).is_some_and(|x| x.union.is_some()))
            {
                cx.error(fd.name.span, format!("union layout `{}` cannot be nested", t.layouts[n.0].name))
                    .note("nest one of its arms, or make the tag a field of this layout and use `switch`");
            }
        }
        if let Some(u) = &l.union {
            for (_, arm) in &u.arms {
                if t.layouts[arm.0].union.is_some() {
                    cx.error(decl.name.span, format!("arm `{}` is itself a union", t.layouts[arm.0].name));
                }
            }
        }
    }
}

/// Lowers a layout's constraints over its leaves.
fn constraints(
    cx: &mut Checker,
    t: &ir::Target,
    decl: &ast::Layout,
    width: u32,
    leaves: &[ir::Leaf],
) -> Vec<ir::Constraint> {
    // The leaves seen as the fields of one flat format, named by path.
    let flat = ir::Format {
        name: decl.name.name.clone(),
        doc: String::new(),
        width,
        fields: leaves
            .iter()
            .map(|x| {
                ir::Field::plain(
                    x.path.clone(),
                    String::new(),
                    x.ty.clone(),
                    x.pieces.clone(),
                    decl.name.span,
                )
            })
            .collect(),
        unused: Vec::new(),
        pattern: Vec::new(),
        syntax: Vec::new(),
        properties: Vec::new(),
        constraints: Vec::new(),
        execute: None,
        reserved: None,
        length: None,
        span: decl.name.span,
    };
    let slots = flat.slots();
    let scope = cond::Scope { t, format: &flat, slots: &slots, params: &[] };
    decl.constraints
        .iter()
        .map(|c| {
            let (expr, _) = cond::lower(cx, &scope, &c.expr);
            let reads = cond::reads(&expr)
                .into_iter()
                .filter_map(|s| leaves.get(s.0))
                .map(|x| x.path.clone())
                .collect();
            ir::Constraint {
                name: c.name.name.clone(),
                doc: c.doc.clone(),
                message: c.message.clone(),
                reads,
                expr,
                warning: c.warning,
            }
        })
        .collect()
}

/// `root Name`: the layout tools decode and encode for this target.
fn root(cx: &mut Checker, file: &ast::File, t: &mut ir::Target) {
    let settings =
        file.items.iter().filter_map(|i| if let ast::Item::Target(x) = i { Some(x) } else { None });
    for s in settings.flat_map(|x| &x.settings).filter(|s| s.name.name == "root") {
        match s.values.first() {
            Some(ast::SettingValue::Name(id, _)) => match t.layouts.iter().position(|l| l.name == id.name) {
                Some(i) => t.root = Some(LayoutId(i)),
                None => {
                    cx.error(id.span, format!("unknown layout `{}`", id.name))
                        .label("`root` names the data layout the target is made of");
                }
            },
            _ => {
                cx.error(s.name.span, "`root` takes a layout name (`root Sph`)");
            }
        }
    }
}
