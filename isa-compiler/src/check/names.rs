//! The symbol table: every top-level name, and duplicate definitions.

use crate::ast::{self, Span};
use crate::diag::Diagnostic;
use std::collections::BTreeMap;

/// What a top-level name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Enum,
    Number,
    Layout,
    Format,
    Template,
    Property,
    Rule,
    Function,
    Hook,
    Group,
    Let,
    Unit,
}

impl Kind {
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Enum => "enum",
            Kind::Number => "number format",
            Kind::Layout => "layout",
            Kind::Format => "format",
            Kind::Template => "template",
            Kind::Property => "property",
            Kind::Rule => "rule",
            Kind::Function => "function",
            Kind::Hook => "hook",
            Kind::Group => "group",
            Kind::Let => "let",
            Kind::Unit => "unit",
        }
    }
}

#[derive(Debug, Default)]
pub struct Names {
    pub items: BTreeMap<String, (Kind, Span)>,
}

/// Collects names; reports duplicates with both locations.
pub fn collect(file: &ast::File, diags: &mut Vec<Diagnostic>) -> Names {
    let mut names = Names::default();
    for item in &file.items {
        let (kind, id) = match item {
            ast::Item::Target(_) | ast::Item::Machine(_) => continue,
            ast::Item::Enum(e) => (Kind::Enum, &e.name),
            ast::Item::Number(n) => (Kind::Number, &n.name),
            ast::Item::Layout(l) if l.kind == ast::LayoutKind::Format => (Kind::Format, &l.name),
            ast::Item::Layout(l) => (Kind::Layout, &l.name),
            ast::Item::Template(t) => (Kind::Template, &t.name),
            ast::Item::Property(p) => (Kind::Property, &p.name),
            ast::Item::Rule(r) => (Kind::Rule, &r.name),
            ast::Item::Fn(f) => (Kind::Function, &f.name),
            ast::Item::Hook(h) => (Kind::Hook, &h.name),
            ast::Item::Group(g) => (Kind::Group, &g.name),
            ast::Item::Let(l) => (Kind::Let, &l.name),
            ast::Item::Unit(u) => (Kind::Unit, &u.name),
            ast::Item::AbiLayout(l) => (Kind::Layout, &l.name),
        };
        if let Some((old_kind, old_span)) = names.items.get(&id.name) {
            let mut d = Diagnostic::error(id.span, format!("`{}` is defined twice", id.name));
            d.label(format!("this {} ...", kind.describe()))
                .with(*old_span, format!("... has the same name as this {}", old_kind.describe()));
            diags.push(d);
            continue;
        }
        names.items.insert(id.name.clone(), (kind, id.span));
    }
    names
}
