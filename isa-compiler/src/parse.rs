//! Stage 1: text → syntax tree. pest does the grammar (`grammar.pest`); this file turns its
//! pairs into [`ast`](crate::ast) nodes with spans. A grammar error is one located diagnostic.

use crate::ast::*;
use crate::diag::Diagnostic;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;
use std::sync::OnceLock;

/// pest's generated parser of `grammar.pest`, checked in (the package `isa-grammar` (../grammar)
/// generates it again and says how to refresh it).
#[path = "grammar.rs"]
#[rustfmt::skip]
mod grammar;
use grammar::{IsaParser, Rule};

/// Parses a whole spec file.
pub fn parse_file(source: &str) -> Result<File, Diagnostic> {
    // A byte order mark is skipped (as rustc does); read as three blanks, spans stay file offsets.
    let source = &source
        .strip_prefix(crate::diag::BOM)
        .map_or_else(|| source.to_string(), |rest| format!("   {rest}"));
    too_many_brackets(source)?;
    let mut pairs = IsaParser::parse(Rule::file, source).map_err(|e| grammar_error(source, e))?;
    let file = pairs.next().expect("pest returns the file rule");
    too_deep_or_large(&file)?;
    let mut items = Vec::new();
    for p in file.into_inner() {
        if p.as_rule() == Rule::EOI {
            continue;
        }
        items.push(item(p));
    }
    Ok(File { items })
}

fn grammar_error(source: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let end = source[pos..].find(|c: char| c.is_whitespace()).map_or(source.len(), |n| pos + n.max(1));
    let message = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<String> = positives.iter().map(|r| describe(*r)).collect();
            names.sort();
            names.dedup();
            if names.is_empty() {
                "unexpected input".to_string()
            } else {
                format!("syntax error: expected {}", names.join(", "))
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let found: String = source[pos..].chars().take_while(|c| !c.is_whitespace()).take(20).collect();
    let label = if found.is_empty() { "here".to_string() } else { format!("found `{found}`") };
    let mut d = Diagnostic::error(Span { start: pos, end: end.min(source.len()) }, message);
    d.label(label);
    d
}

fn describe(r: Rule) -> String {
    match r {
        Rule::ident | Rule::any_ident => "a name".into(),
        Rule::int | Rule::signed_int => "a number".into(),
        Rule::string => "a string".into(),
        Rule::expr | Rule::bit_expr => "an expression".into(),
        Rule::bitspec | Rule::bit_piece => "a bit range like `7:0`".into(),
        Rule::type_expr => "a type".into(),
        Rule::variant => "an enum value".into(),
        Rule::field => "a field".into(),
        Rule::kw_use | Rule::use_group | Rule::enum_use => "`use`".into(),
        Rule::kw_zero | Rule::zero_bits => "`zero`".into(),
        Rule::kw_fields | Rule::field_run => "`fields`".into(),
        Rule::run_item => "a field of the run".into(),
        Rule::kw_form | Rule::form_def => "`form`".into(),
        Rule::execute_when => "`execute when`".into(),
        Rule::kw_reserved | Rule::reserved_def => "`reserved`".into(),
        Rule::kw_length | Rule::length_clause => "`length`".into(),
        Rule::EOI => "end of file".into(),
        Rule::target
        | Rule::enum_def
        | Rule::number_def
        | Rule::layout_def
        | Rule::format_def
        | Rule::template_def
        | Rule::property_decl
        | Rule::rule_def
        | Rule::machine_def
        | Rule::fn_def
        | Rule::hook_def
        | Rule::group_def
        | Rule::let_def
        | Rule::unit_def => "an item (`target`, `enum`, `format`, `layout`, `template`, ...)".into(),
        other => format!("{other:?}").replace('_', " "),
    }
}

fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span { start: s.start(), end: s.end() }
}

fn ident(p: Pair<Rule>) -> Ident {
    Ident { name: p.as_str().to_string(), span: span(&p) }
}

/// How deeply a spec may nest: each bracket, optional group or block is a level, and so is
/// each operator of an expression (`a && b && c` is a tree two deep, `!!x` too). The checker
/// walks these trees recursively: a few thousand levels overflowed its stack ("thread 'main'
/// has overflowed its stack": 3,000 parentheses around a constant, 2,000 `!`, 8,000 `&&`).
/// No spec written by hand comes near it.
pub const MAX_NESTING: usize = 256;

/// A spec nested deeper than [`MAX_NESTING`] is an error at the first place that passes it,
/// and so is a number literal past 64 bits (it was read as the largest 64-bit number: `a =
/// 99999999999999999999999` in a `u64` enum was 2^64 - 1, silently). One walk of the pairs in
/// order, keeping the ends and depths of the open ones (no recursion).
fn too_deep_or_large(file: &Pair<Rule>) -> Result<(), Diagnostic> {
    let mut open: Vec<(usize, usize)> = Vec::new();
    // The end of the last setting whose value is a word (up to 128 bits).
    let mut word_setting = 0;
    for p in file.clone().into_inner().flatten() {
        let at = p.as_span();
        while open.last().is_some_and(|&(end, _)| end <= at.start()) {
            open.pop();
        }
        let rule = p.as_rule();
        if rule == Rule::setting
            && p.clone().into_inner().next().is_some_and(|n| WORD_SETTINGS.contains(&n.as_str()))
        {
            word_setting = at.end();
        }
        // Below 17 characters every literal fits.
        if matches!(rule, Rule::int | Rule::signed_int) && at.end() - at.start() >= 17 {
            too_large(&p, rule == Rule::int && at.start() < word_setting)?;
        }
        // An operator deepens its expression (the one open) for what follows it in there.
        let depth = match open.last_mut() {
            Some((_, d)) if is_operator(rule) => {
                *d += 1;
                *d
            }
            last => last.map_or(0, |&mut (_, d)| d) + 1,
        };
        if depth > MAX_NESTING {
            let mut d = Diagnostic::error(span(&p), "nested too deeply");
            d.label(format!("more than {MAX_NESTING} levels of brackets, blocks and operators"));
            return Err(d);
        }
        if !is_operator(rule) {
            open.push((at.end(), depth));
        }
    }
    Ok(())
}

/// Brackets nested deeper than [`MAX_NESTING`] are an error at the first past it, found before
/// the grammar reads them: pest's descent recurses per bracket too. Strings and comments are
/// skipped as the grammar reads them.
fn too_many_brackets(source: &str) -> Result<(), Diagnostic> {
    let b = source.as_bytes();
    let (mut i, mut depth) = (0, 0usize);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !b[i..].starts_with(b"*/") {
                    i += 1;
                }
                i += 1;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    let mut d = Diagnostic::error(Span { start: i, end: i + 1 }, "nested too deeply");
                    d.label(format!("more than {MAX_NESTING} levels of brackets"));
                    return Err(d);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

fn is_operator(r: Rule) -> bool {
    use Rule::*;
    matches!(
        r,
        or | and
            | eq
            | ne
            | le
            | ge
            | lt
            | gt
            | shl
            | shr
            | bor
            | bxor
            | band
            | add
            | sub
            | mul
            | div
            | rem
            | neg
            | not
    )
}

/// An `int` literal past 64 bits, or a `signed_int` one (a number format's argument) past
/// the signed 64-bit numbers, is an error at it.
fn too_large(p: &Pair<Rule>, word: bool) -> Result<(), Diagnostic> {
    let (fits, range) = match p.as_rule() {
        Rule::int if word => (wide_int(p.as_str()).is_some(), format!("the largest word is {}", u128::MAX)),
        Rule::int => (checked_int(p.as_str()).is_some(), format!("the largest number is {}", u64::MAX)),
        _ => (signed_value(p.as_str()).is_some(), format!("numbers here are {}..={}", i64::MIN, i64::MAX)),
    };
    if fits {
        return Ok(());
    }
    let bits = if word { 128 } else { 64 };
    let mut d = Diagnostic::error(span(p), format!("`{}` does not fit in {bits} bits", p.as_str()));
    d.label(range);
    Err(d)
}

/// The value of a `signed_int` literal; `None` outside the `i64` range.
fn signed_value(s: &str) -> Option<i64> {
    let m = i128::from(checked_int(s)?);
    i64::try_from(if s.starts_with('-') { -m } else { m }).ok()
}

/// The value of an `int` literal (a word setting's, [`WORD_SETTINGS`]); `None` past 128 bits.
fn wide_int(s: &str) -> Option<u128> {
    let s = s.replace('_', "");
    if let Some(h) = s.strip_prefix("0x") {
        u128::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b") {
        u128::from_str_radix(b, 2).ok()
    } else {
        s.parse().ok()
    }
}

/// The value of an `int` (or `signed_int`, by its magnitude) literal; `None` past 64 bits.
fn checked_int(s: &str) -> Option<u64> {
    u64::try_from(wide_int(s.trim_start_matches('-'))?).ok()
}

fn int_value(s: &str) -> u64 {
    let s = s.replace('_', "");
    let v = if let Some(h) = s.strip_prefix("0x") {
        u64::from_str_radix(h, 16)
    } else if let Some(b) = s.strip_prefix("0b") {
        u64::from_str_radix(b, 2)
    } else {
        s.parse()
    };
    // In range: [`too_large`] has refused the others.
    v.unwrap_or(u64::MAX)
}

fn string_value(p: Pair<Rule>) -> String {
    let inner = p.into_inner().next().map(|x| x.as_str()).unwrap_or("");
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Collects leading doc comments of an item; returns them joined and the remaining pairs.
fn docs<'a>(inner: &mut std::iter::Peekable<pest::iterators::Pairs<'a, Rule>>) -> String {
    let mut lines = Vec::new();
    while let Some(p) = inner.peek() {
        if p.as_rule() != Rule::doc {
            break;
        }
        let text = p.as_str().trim_start_matches('/');
        lines.push(text.strip_prefix(' ').unwrap_or(text).trim_end().to_string());
        inner.next();
    }
    lines.join("\n")
}

fn item(p: Pair<Rule>) -> Item {
    let sp = span(&p);
    let rule = p.as_rule();
    let mut inner = p.into_inner().peekable();
    let doc = docs(&mut inner);
    match rule {
        Rule::target => {
            let name = ident(inner.next().expect("target name"));
            let settings = inner.map(setting).collect();
            Item::Target(Target { doc, name, settings, span: sp })
        }
        Rule::enum_def => {
            let name = ident(inner.next().expect("enum name"));
            let repr = ident(inner.next().expect("enum repr"));
            let mut signature = None;
            let mut variants = Vec::new();
            let mut else_spellings = Vec::new();
            let mut uses = Vec::new();
            let mut spelled = None;
            let mut shares = None;
            let mut wrapped = Vec::new();
            for p in inner {
                match p.as_rule() {
                    Rule::signature => signature = Some(signature_of(p)),
                    Rule::enum_use => {
                        uses.extend(p.into_inner().filter(|i| i.as_rule() == Rule::ident).map(ident))
                    }
                    Rule::variant => variants.push(variant(p, &mut wrapped)),
                    Rule::else_spelling => {
                        let input = p.as_span().get_input();
                        let at = span(&p);
                        let head =
                            Ident { name: "else".into(), span: Span { start: at.start, end: at.start + 4 } };
                        let given = p.into_inner().map(spelling).collect();
                        else_spellings.extend(same_line(input, &head, given, &mut wrapped));
                    }
                    Rule::enum_shares => shares = Some(span(&p)),
                    Rule::enum_pattern => {
                        if let Some(text) = p.into_inner().next() {
                            let at = span(&text);
                            spelled = Some((string_value(text), at));
                        }
                    }
                    _ => {}
                }
            }
            Item::Enum(Enum {
                doc,
                name,
                repr,
                signature,
                uses,
                variants,
                else_spellings,
                spelled,
                shares,
                pattern_pending: false,
                wrapped,
            })
        }
        Rule::number_def => {
            let name = ident(inner.next().expect("number name"));
            let kind = ident(inner.next().expect("number kind"));
            let args = inner
                .map(|a| {
                    let mut it = a.into_inner();
                    let n = ident(it.next().expect("arg name"));
                    // In range: [`too_large`] has refused the others.
                    let v = it.next().map(|v| signed_value(v.as_str()).unwrap_or(0));
                    (n, v)
                })
                .collect();
            Item::Number(NumberDef { doc, name, kind, args })
        }
        Rule::layout_def if is_abi_layout(inner.clone()) => {
            let name = ident(inner.next().expect("layout name"));
            Item::AbiLayout(abi_layout(doc, name, sp, inner))
        }
        Rule::unit_def => {
            let mut inner = inner.skip_while(|p| p.as_rule() == Rule::kw_unit);
            let name = ident(inner.next().expect("unit name"));
            let bits = inner.next().expect("unit bits");
            let bits = (int_value(bits.as_str()), span(&bits));
            Item::Unit(UnitDef { doc, name, bits, settings: inner.map(setting).collect() })
        }
        Rule::layout_def | Rule::format_def => {
            let kind = if rule == Rule::format_def { LayoutKind::Format } else { LayoutKind::Data };
            let name = ident(inner.next().expect("layout name"));
            Item::Layout(body(kind, doc, name, sp, inner))
        }
        Rule::group_def => {
            // The group's doc describes the group; the formats that use it keep their own.
            let (name, params, body) = family(String::new(), sp, inner);
            Item::Group(Group { doc, name, params, body, after: 0, span: sp })
        }
        Rule::let_def => Item::Let(let_def(doc, inner)),
        Rule::template_def => Item::Template(template_def(doc, inner)),
        Rule::property_decl => {
            let name = ident(inner.next().expect("name"));
            let ty = ident(inner.next().expect("type"));
            let default = expr(inner.next().expect("default"));
            Item::Property(PropertyDecl { doc, name, ty, default })
        }
        Rule::rule_def => {
            let warning = inner.next().expect("kind").as_str() == "warning";
            let name = ident(inner.next().expect("name"));
            let message = string_value(inner.next().expect("message"));
            let body = quantified(inner.next().expect("body"));
            Item::Rule(crate::ast::Rule { doc, name, message, body, warning, span: sp })
        }
        Rule::machine_def => {
            let mut elements = None;
            let mut state = Vec::new();
            for s in inner {
                if s.as_rule() == Rule::elements_decl {
                    let at = span(&s);
                    let n = s.into_inner().find(|p| p.as_rule() == Rule::int).expect("count");
                    elements = Some((int_value(n.as_str()), at));
                    continue;
                }
                let mut it = s.into_inner().peekable();
                let d = docs(&mut it);
                let name = ident(it.next().expect("name"));
                let mut count = None;
                let mut ty = None;
                let mut per_element = false;
                for p in it {
                    match p.as_rule() {
                        Rule::int => count = Some(int_value(p.as_str())),
                        Rule::ident => ty = Some(ident(p)),
                        Rule::per_element => per_element = true,
                        _ => {}
                    }
                }
                state.push((d, name, count, ty.expect("type"), per_element));
            }
            Item::Machine(Machine { elements, state })
        }
        Rule::fn_def => {
            let name = ident(inner.next().expect("name"));
            let (sig, rest) = sig_and_rest(inner);
            let body = block(rest.expect("fn body"));
            Item::Fn(FnDef { doc, name, sig, body })
        }
        Rule::hook_def => {
            let name = ident(inner.next().expect("name"));
            let (sig, _) = sig_and_rest(inner);
            Item::Hook(HookDef { doc, name, sig })
        }
        other => unreachable!("grammar item {other:?}"),
    }
}

/// The members of a format, layout, group or form, in order.
fn body<'a>(
    kind: LayoutKind,
    doc: String,
    name: Ident,
    sp: Span,
    inner: impl Iterator<Item = Pair<'a, Rule>>,
) -> Layout {
    let mut l = Layout {
        kind,
        doc,
        name,
        width: None,
        fields: Vec::new(),
        unused: Vec::new(),
        union: None,
        syntax: Vec::new(),
        properties: Vec::new(),
        constraints: Vec::new(),
        execute: None,
        when: Vec::new(),
        reserved: None,
        lets: Vec::new(),
        templates: Vec::new(),
        uses: Vec::new(),
        forms: Vec::new(),
        runs: Vec::new(),
        span: sp,
    };
    for p in inner {
        match p.as_rule() {
            Rule::switch_type => l.union = Some(switch_type(p)),
            Rule::expr => l.width = Some(expr(p)),
            Rule::int => l.width = Some(Expr { kind: ExprKind::Int(int_value(p.as_str())), span: span(&p) }),
            Rule::field => l.fields.push(field(p)),
            Rule::view => {
                let sp = span(&p);
                let mut it = p.into_inner().peekable();
                let doc = docs(&mut it);
                let name = ident(it.next().expect("view name"));
                let ty = TypeExpr::Named(ident(it.next().expect("view type")));
                let bits = bitspec(it.next().expect("view bits"));
                l.fields.push(Field {
                    doc,
                    name,
                    count: None,
                    ty,
                    bits,
                    fixed: None,
                    allowed: None,
                    default: None,
                    element_defaults: Vec::new(),
                    view: true,
                    lengths: None,
                    span: sp,
                });
            }
            Rule::zero_bits => l.fields.extend(p.into_inner().skip(1).map(zero_field)),
            Rule::field_run => {
                let sp = span(&p);
                let mut it = p.into_inner().skip(1);
                let hi = expr(it.next().expect("first bit"));
                let lo = expr(it.next().expect("last bit"));
                let items = run_items(it, &mut l);
                l.runs.push(FieldRun { hi, lo, items, rows: Vec::new(), span: sp });
            }
            Rule::unused => {
                // The clause ends at its last range, not at the blanks after it that looking
                // for one more `, range` (or operator) skipped.
                let s = Span { end: p.as_span().start() + p.as_str().trim_end().len(), ..span(&p) };
                let mut it = p.into_inner().peekable();
                let doc = docs(&mut it);
                let mut next = it.next().expect("bits");
                let mut name = None;
                if next.as_rule() == Rule::ident {
                    name = Some(ident(next));
                    next = it.next().expect("bits");
                }
                let after = l.fields.len();
                let bits = std::iter::once(next).chain(it).flat_map(bitspec).collect();
                l.unused.push(Unused { doc, name, bits, after, span: s });
            }
            Rule::syntax_def => {
                let mut it = p.into_inner();
                let d = ident(it.next().expect("dialect"));
                l.syntax.push((d, template_body(it.next().expect("body"))));
            }
            Rule::property_def => {
                let mut it = p.into_inner();
                let n = ident(it.next().expect("name"));
                l.properties.push((n, expr(it.next().expect("value"))));
            }
            Rule::constraint => {
                let mut it = p.into_inner().peekable();
                let doc = docs(&mut it);
                let warning = it.next().expect("kind").as_str() == "warning";
                let name = ident(it.next().expect("name"));
                let message = string_value(it.next().expect("message"));
                let e = expr(it.next().expect("expr"));
                l.constraints.push(Constraint { doc, name, message, expr: e, warning });
            }
            Rule::execute => l.execute = Some(block(p.into_inner().next().expect("block"))),
            Rule::execute_when => l.when.push(expr(p.into_inner().nth(1).expect("condition"))),
            Rule::reserved_def => {
                let s = span(&p);
                l.reserved = Some((string_value(p.into_inner().nth(1).expect("reason")), s));
            }
            Rule::let_def => {
                let mut it = p.into_inner().peekable();
                let doc = docs(&mut it);
                l.lets.push(let_def(doc, it));
            }
            Rule::template_def => {
                let mut it = p.into_inner().peekable();
                let doc = docs(&mut it);
                l.templates.push(template_def(doc, it));
            }
            Rule::use_group => {
                let u = use_group(p, l.fields.len());
                l.uses.push(u);
            }
            Rule::format_use => {
                // `format name = group(args)`: the group's members come first.
                let sp = span(&p);
                let mut it = p.into_inner();
                let group = ident(it.next().expect("group name"));
                let args = it.next().map(|a| a.into_inner().map(family_arg).collect()).unwrap_or_default();
                l.uses.push(Use {
                    group,
                    args,
                    picks: Vec::new(),
                    prefix: None,
                    after: 0,
                    span: sp,
                    doc: None,
                });
            }
            Rule::form_def => {
                let sp = span(&p);
                let mut it = p.into_inner().peekable();
                let doc = docs(&mut it);
                let (name, params, body) = family(doc.clone(), sp, it.skip(1));
                l.forms.push(Group { doc, name, params, body, after: l.fields.len(), span: sp });
            }
            _ => {}
        }
    }
    l
}

/// Whether a `layout` takes parameters, counts in a unit or has conditional members: then
/// it is an ABI layout, a table of positions rather than a bit view.
fn is_abi_layout<'a>(mut inner: impl Iterator<Item = Pair<'a, Rule>>) -> bool {
    inner.any(|p| matches!(p.as_rule(), Rule::layout_params | Rule::unit_size | Rule::layout_if))
}

/// The parameters, size and members of an ABI layout (after its name).
fn abi_layout<'a>(
    doc: String,
    name: Ident,
    sp: Span,
    inner: impl Iterator<Item = Pair<'a, Rule>>,
) -> AbiLayout {
    let mut l = AbiLayout {
        doc,
        name,
        params: Vec::new(),
        unit: None,
        size: Expr { kind: ExprKind::Int(0), span: sp },
        members: Vec::new(),
        unsupported: Vec::new(),
        span: sp,
    };
    for p in inner {
        match p.as_rule() {
            Rule::layout_params => {
                for param in p.into_inner() {
                    let mut it = param.into_inner();
                    let name = ident(it.next().expect("parameter name"));
                    let ty = it.next().map(ident);
                    let range = it.next().map(|r| {
                        let rs = span(&r);
                        let mut b = r.into_inner();
                        let lo = int_value(b.next().expect("lo").as_str());
                        let hi = int_value(b.next().expect("hi").as_str());
                        (lo, hi, rs)
                    });
                    l.params.push(LayoutParam { name, ty, range });
                }
            }
            Rule::unit_size => {
                let mut it = p.into_inner();
                l.unit = Some(ident(it.next().expect("unit")));
                l.size = expr(it.next().expect("size"));
            }
            Rule::expr => l.size = expr(p),
            Rule::switch_type => l.unsupported.push(span(&p)),
            _ => abi_member(p, &[], &mut l),
        }
    }
    l
}

/// One member of an ABI layout under the conditions `when`; `if` blocks add theirs.
fn abi_member(p: Pair<Rule>, when: &[Expr], l: &mut AbiLayout) {
    // The rule's own span runs over the blanks after it.
    let sp = Span { start: p.as_span().start(), end: p.as_span().start() + p.as_str().trim_end().len() };
    match p.as_rule() {
        Rule::layout_if => {
            let mut it = p.into_inner();
            let mut inner_when = when.to_vec();
            inner_when.push(expr(it.next().expect("condition")));
            for m in it {
                abi_member(m, &inner_when, l);
            }
        }
        Rule::field => {
            let f = field(p);
            if f.fixed.is_some() || f.allowed.is_some() || f.default.is_some() {
                l.unsupported.push(sp);
            }
            let ty = match f.ty {
                TypeExpr::Named(t) => Some(t),
                TypeExpr::Switch { span, .. } => {
                    l.unsupported.push(span);
                    None
                }
            };
            l.members.push(AbiMember {
                doc: f.doc,
                name: Some(f.name),
                reserved: false,
                count: f.count,
                ty,
                at: f.bits,
                when: when.to_vec(),
                span: sp,
            });
        }
        Rule::unused => {
            let mut it = p.into_inner().peekable();
            let doc = docs(&mut it);
            let mut next = it.next().expect("bits");
            let mut name = None;
            if next.as_rule() == Rule::ident {
                name = Some(ident(next));
                next = it.next().expect("bits");
            }
            l.members.push(AbiMember {
                doc,
                name,
                reserved: true,
                count: None,
                ty: None,
                at: std::iter::once(next).chain(it).flat_map(bitspec).collect(),
                when: when.to_vec(),
                span: sp,
            });
        }
        _ => l.unsupported.push(sp),
    }
}

/// An argument of a group or form: an expression, a string (text the syntax prints), a row of
/// fields or a piece of syntax.
fn family_arg(p: Pair<Rule>) -> Expr {
    let sp = span(&p);
    match p.as_rule() {
        Rule::string => Expr { kind: ExprKind::Str(string_value(p)), span: sp },
        Rule::syntax_arg => {
            let items = p.into_inner().next().map(seq).unwrap_or_default();
            Expr { kind: ExprKind::Syntax(items), span: sp }
        }
        Rule::fields_arg => {
            let name = Ident { name: "fields".into(), span: sp };
            let mut l = body(LayoutKind::Format, String::new(), name, sp, std::iter::empty());
            let items = run_items(p.into_inner().skip(1), &mut l);
            let zero = Expr { kind: ExprKind::Int(0), span: sp };
            l.runs.push(FieldRun { hi: zero.clone(), lo: zero, items, rows: Vec::new(), span: sp });
            Expr { kind: ExprKind::Fields(Box::new(l)), span: sp }
        }
        _ => expr(p),
    }
}

/// The items of a `fields` run (or of a `fields { ... }` argument), added to `l`: fields,
/// unused bits, zero bits and uses, in order.
fn run_items<'a>(it: impl Iterator<Item = Pair<'a, Rule>>, l: &mut Layout) -> Vec<RunItem> {
    let mut items = Vec::new();
    for item in it {
        let isp = span(&item);
        match item.clone().into_inner().next() {
            Some(u) if u.as_rule() == Rule::use_group => {
                items.push(RunItem::Use(l.uses.len()));
                l.uses.push(use_group(u, l.fields.len()));
                continue;
            }
            Some(z) if z.as_rule() == Rule::zero_item => {
                // Named `zero_hi_lo` when the run places it.
                let mut z = z.into_inner().peekable();
                let doc = docs(&mut z);
                let ty = z.next().map_or(Ident { name: "u1".into(), span: isp }, ident);
                items.push(RunItem::Field(l.fields.len()));
                l.fields.push(Field {
                    doc,
                    name: Ident { name: ZERO_ITEM.into(), span: isp },
                    count: None,
                    ty: TypeExpr::Named(ty),
                    bits: Vec::new(),
                    fixed: Some(Expr { kind: ExprKind::Int(0), span: isp }),
                    allowed: None,
                    default: None,
                    element_defaults: Vec::new(),
                    view: false,
                    lengths: None,
                    span: isp,
                });
                continue;
            }
            _ => {}
        }
        let mut f = field(item);
        if f.name.name == "_" {
            let ty = match f.ty {
                TypeExpr::Named(t) => t,
                TypeExpr::Switch { span, .. } => Ident { name: "a switch".into(), span },
            };
            let bits = Vec::new();
            let after = l.fields.len();
            items.push(RunItem::Unused(l.unused.len(), ty));
            l.unused.push(Unused { doc: f.doc, name: None, bits, after, span: isp });
        } else {
            f.span = isp;
            items.push(RunItem::Field(l.fields.len()));
            l.fields.push(f);
        }
    }
    items
}

/// The name a run's `0` item has until the run places it (then `zero_hi_lo`, as `zero @`).
pub const ZERO_ITEM: &str = "0";

/// The name, parameters and members of a group or form (after its keyword).
fn family<'a>(
    doc: String,
    sp: Span,
    inner: impl Iterator<Item = Pair<'a, Rule>>,
) -> (Ident, Vec<Ident>, Layout) {
    let mut inner = inner.filter(|p| p.as_rule() != Rule::kw_group).peekable();
    let name = ident(inner.next().expect("group name"));
    let mut params = Vec::new();
    if inner.peek().map(|p| p.as_rule()) == Some(Rule::family_params) {
        params = inner.next().map(|p| p.into_inner().map(ident).collect()).unwrap_or_default();
    }
    let body = body(LayoutKind::Format, doc, name.clone(), sp, inner);
    (name, params, body)
}

/// `zero @ hi:lo`: a field `zero_hi_lo` fixed to 0 (`zero_b` for one bit).
fn zero_field(p: Pair<Rule>) -> Field {
    let sp = span(&p);
    let bounds: Vec<(u64, Span)> = p.into_inner().map(|x| (int_value(x.as_str()), span(&x))).collect();
    let int = |(v, span): (u64, Span)| Expr { kind: ExprKind::Int(v), span };
    let (name, width, bits) = match bounds.as_slice() {
        [hi, lo] => (
            format!("zero_{}_{}", hi.0, lo.0),
            hi.0.saturating_sub(lo.0).saturating_add(1),
            BitPiece::Range(int(*hi), int(*lo), sp),
        ),
        [bit, ..] => (format!("zero_{}", bit.0), 1, BitPiece::Bit(int(*bit), sp)),
        [] => (String::from("zero"), 1, BitPiece::Bit(int((0, sp)), sp)),
    };
    Field {
        doc: String::new(),
        name: Ident { name, span: sp },
        count: None,
        ty: TypeExpr::Named(Ident { name: format!("u{width}"), span: sp }),
        bits: vec![bits],
        fixed: Some(Expr { kind: ExprKind::Int(0), span: sp }),
        allowed: None,
        default: None,
        element_defaults: Vec::new(),
        view: false,
        lengths: None,
        span: sp,
    }
}

/// `let name = expr` (after its doc comment).
fn let_def<'a>(doc: String, mut inner: impl Iterator<Item = Pair<'a, Rule>>) -> LetDef {
    let name = ident(inner.next().expect("let name"));
    let mut next = inner.next().expect("let value");
    let mut params = Vec::new();
    if next.as_rule() == Rule::family_params {
        params = next.into_inner().map(ident).collect();
        next = inner.next().expect("let value");
    }
    LetDef { doc, name, params, value: expr(next) }
}

/// `template name(params) { body }` (after its doc comment).
fn template_def<'a>(doc: String, inner: impl Iterator<Item = Pair<'a, Rule>>) -> TemplateDef {
    let mut name = None;
    let mut params = Vec::new();
    let mut body = None;
    for p in inner {
        match p.as_rule() {
            Rule::ident if name.is_none() => name = Some(ident(p)),
            Rule::ident => params.push(ident(p)),
            Rule::template_body => body = Some(template_body(p)),
            _ => {}
        }
    }
    TemplateDef { doc, name: name.expect("template name"), params, body: body.expect("template body") }
}

fn sig_and_rest<'a>(inner: impl Iterator<Item = Pair<'a, Rule>>) -> (Signature, Option<Pair<'a, Rule>>) {
    let mut params = Vec::new();
    let mut ret = None;
    let mut rest = None;
    for p in inner {
        match p.as_rule() {
            Rule::param => {
                let mut it = p.into_inner();
                params.push((ident(it.next().expect("name")), ident(it.next().expect("type"))));
            }
            Rule::ident => ret = Some(ident(p)),
            Rule::block => rest = Some(p),
            _ => {}
        }
    }
    (Signature { params, ret }, rest)
}

fn signature_of(p: Pair<Rule>) -> Signature {
    sig_and_rest(p.into_inner()).0
}

fn setting(p: Pair<Rule>) -> Setting {
    let mut it = p.into_inner();
    let name = ident(it.next().expect("setting name"));
    let values = it
        .map(|v| {
            let mut vi = v.into_inner();
            let inner = vi.next().expect("setting value");
            match inner.as_rule() {
                Rule::string => {
                    let s = span(&inner);
                    SettingValue::Str(string_value(inner), s)
                }
                // Past 64 bits only in a word setting: [`too_large`] refused the others.
                Rule::int => match checked_int(inner.as_str()) {
                    Some(v) => SettingValue::Int(v, span(&inner)),
                    None => SettingValue::Wide(wide_int(inner.as_str()).unwrap_or(u128::MAX), span(&inner)),
                },
                _ => SettingValue::Name(ident(inner), vi.map(setting).collect()),
            }
        })
        .collect::<Vec<_>>();
    Setting { name, values }
}

fn variant(p: Pair<Rule>, wrapped: &mut Vec<(Ident, Ident)>) -> Variant {
    let sp = span(&p);
    let input = p.as_span().get_input();
    let mut it = p.into_inner().peekable();
    let doc = docs(&mut it);
    let name = ident(it.next().expect("variant name"));
    let value = if it.peek().map(|p| p.as_rule()) != Some(Rule::variant_value) {
        VariantValue::Next(name.span)
    } else {
        let vv = it.next().expect("variant value");
        let vsp = span(&vv);
        let inner = vv.into_inner().next().expect("value");
        match inner.as_rule() {
            Rule::int => VariantValue::One(int_value(inner.as_str()), vsp),
            Rule::range => {
                let mut r = inner.into_inner();
                let lo = int_value(r.next().expect("lo").as_str());
                let hi = int_value(r.next().expect("hi").as_str());
                VariantValue::Range(lo, hi, vsp)
            }
            _ => VariantValue::Rest(vsp),
        }
    };
    let mut spellings = Vec::new();
    let mut semantics = None;
    for p in it {
        match p.as_rule() {
            Rule::spelling => spellings.push(spelling(p)),
            Rule::expr => semantics = Some(expr(p)),
            _ => {}
        }
    }
    let spellings = same_line(input, &name, spellings, wrapped);
    Variant { doc, name, value, spellings, semantics, span: sp }
}

/// The spellings up to the first one whose dialect name starts a line after `head` (the
/// variant's name or `else`) at or left of `head`'s column; that one is recorded in `wrapped`
/// for the checker to refuse. A name starting a later line may as well be the next variant
/// (`x = 0 ".X"` and on the next line `nv ".Y"`): a dialect's spelling is written on its
/// variant's line or on a line that continues it, indented past the variant's name.
fn same_line(
    input: &str,
    head: &Ident,
    spellings: Vec<(Option<Ident>, String, Span)>,
    wrapped: &mut Vec<(Ident, Ident)>,
) -> Vec<(Option<Ident>, String, Span)> {
    let mut kept = Vec::with_capacity(spellings.len());
    for s in spellings {
        if let Some(d) = &s.0 {
            let line_start = input[..d.span.start].rfind('\n').map_or(0, |n| n + 1);
            let starts_line =
                line_start > head.span.start && input[line_start..d.span.start].trim().is_empty();
            if starts_line && column(input, d.span.start) <= column(input, head.span.start) {
                wrapped.push((d.clone(), head.clone()));
                break;
            }
        }
        kept.push(s);
    }
    kept
}

/// The column where `at` is shown, from 0, a tab reaching the next multiple of 8 (as a terminal
/// shows it), so that a line indented with tabs compares with one indented with blanks.
fn column(input: &str, at: usize) -> usize {
    let line = &input[input[..at].rfind('\n').map_or(0, |n| n + 1)..at];
    line.chars().fold(0, |col, c| if c == '\t' { col / 8 * 8 + 8 } else { col + 1 })
}

fn spelling(p: Pair<Rule>) -> (Option<Ident>, String, Span) {
    let mut s = p.into_inner().peekable();
    let dialect = if s.peek().map(|x| x.as_rule()) == Some(Rule::any_ident) {
        Some(ident(s.next().expect("dialect")))
    } else {
        None
    };
    let str_pair = s.next().expect("spelling string");
    let ssp = span(&str_pair);
    (dialect, string_value(str_pair), ssp)
}

/// `use group(args) { forms } as prefix`, standing after `after` fields.
fn use_group(p: Pair<Rule>, after: usize) -> Use {
    let mut it = p.clone().into_inner().peekable();
    // Doc comments before it: kept only to be reported, from the first to the last.
    let mut doc: Option<Span> = None;
    while let Some(d) = it.next_if(|x| x.as_rule() == Rule::doc) {
        let s = span(&d);
        doc = Some(doc.map_or(s, |first| Span { start: first.start, end: s.end }));
    }
    // From `use` to its last token: the rule's own span runs over the blanks after it.
    let sp = {
        let start = it.next().map_or(p.as_span().start(), |kw| kw.as_span().start());
        let end = p.into_inner().last().map_or(start, |x| x.as_span().end());
        Span { start, end }
    };
    let group = ident(it.next().expect("group name"));
    let mut args = Vec::new();
    let mut picks = Vec::new();
    let mut prefix = None;
    for x in it {
        match x.as_rule() {
            Rule::family_args => args = x.into_inner().map(family_arg).collect(),
            Rule::use_prefix => prefix = x.into_inner().nth(1).map(ident),
            Rule::form_picks => {
                for pick in x.into_inner() {
                    let mut pi = pick.into_inner();
                    let name = ident(pi.next().expect("form name"));
                    let args =
                        pi.next().map(|a| a.into_inner().map(family_arg).collect()).unwrap_or_default();
                    picks.push((name, args));
                }
            }
            _ => {}
        }
    }
    Use { group, args, picks, prefix, after, span: sp, doc }
}

fn field(p: Pair<Rule>) -> Field {
    let sp = span(&p);
    let mut it = p.into_inner().peekable();
    let doc = docs(&mut it);
    let name = ident(it.next().expect("field name"));
    let mut count = None;
    if it.peek().map(|x| x.as_rule()) == Some(Rule::expr) {
        count = Some(expr(it.next().expect("count")));
    }
    // A run item has no bits (placed later) and may have no type (a `bool`).
    let ty = match it.peek().map(|x| x.as_rule()) {
        Some(Rule::type_expr) => type_expr(it.next().expect("type")),
        _ => TypeExpr::Named(Ident { name: "bool".into(), span: name.span }),
    };
    let bits = match it.peek().map(|x| x.as_rule()) {
        Some(Rule::bitspec) => bitspec(it.next().expect("bits")),
        _ => Vec::new(),
    };
    let mut f = Field {
        doc,
        name,
        count,
        ty,
        bits,
        fixed: None,
        allowed: None,
        default: None,
        element_defaults: Vec::new(),
        view: false,
        lengths: None,
        span: sp,
    };
    for clause in it {
        let c = clause.into_inner().next().expect("clause");
        match c.as_rule() {
            Rule::length_clause => {
                let s = span(&c);
                f.lengths = Some((c.into_inner().skip(1).map(|n| int_value(n.as_str())).collect(), s));
            }
            Rule::is_clause => f.fixed = Some(expr(c.into_inner().next().expect("value"))),
            Rule::in_clause => f.allowed = Some(value_set(c.into_inner().next().expect("set"))),
            Rule::default_clause => {
                let v = c.into_inner().next().expect("value");
                match v.as_rule() {
                    Rule::element_defaults => f.element_defaults = v.into_inner().map(expr).collect(),
                    _ => f.default = Some(expr(v)),
                }
            }
            _ => {}
        }
    }
    f
}

fn type_expr(p: Pair<Rule>) -> TypeExpr {
    let inner = p.into_inner().next().expect("type");
    match inner.as_rule() {
        Rule::switch_type => switch_type(inner),
        _ => TypeExpr::Named(ident(inner)),
    }
}

fn switch_type(p: Pair<Rule>) -> TypeExpr {
    let sp = span(&p);
    let mut it = p.into_inner();
    let tag = it.next().expect("tag").into_inner().map(ident).collect();
    let mut arms = Vec::new();
    while let Some(e) = it.next() {
        let ty = ident(it.next().expect("arm type"));
        arms.push((expr(e), ty));
    }
    TypeExpr::Switch { tag, arms, span: sp }
}

fn bitspec(p: Pair<Rule>) -> Vec<BitPiece> {
    p.into_inner().map(bit_piece).collect()
}

fn bit_expr(p: Pair<Rule>) -> Expr {
    match p.as_rule() {
        Rule::int => Expr { kind: ExprKind::Int(int_value(p.as_str())), span: span(&p) },
        _ => expr(p),
    }
}

fn bit_piece(p: Pair<Rule>) -> BitPiece {
    let sp = span(&p);
    let text = p.as_str().to_string();
    let parts: Vec<Pair<Rule>> = p.into_inner().collect();
    let mut it = parts.into_iter();
    let first = bit_expr(it.next().expect("bit"));
    match it.next() {
        None => BitPiece::Bit(first, sp),
        Some(second) => {
            let second = bit_expr(second);
            if text.contains("+:") {
                BitPiece::Width(first, second, sp)
            } else {
                BitPiece::Range(first, second, sp)
            }
        }
    }
}

fn value_set(p: Pair<Rule>) -> Vec<SetElem> {
    p.into_inner()
        .map(|e| {
            let mut it = e.into_inner();
            let a = atom(it.next().expect("atom"));
            match it.next() {
                Some(b) => SetElem::Range(a, atom(b)),
                None => SetElem::One(a),
            }
        })
        .collect()
}

fn atom(p: Pair<Rule>) -> Atom {
    let inner = p.into_inner().next().expect("atom");
    match inner.as_rule() {
        Rule::int => Atom::Int(int_value(inner.as_str()), span(&inner)),
        Rule::neg_int => {
            let at = span(&inner);
            Atom::Neg(int_value(inner.into_inner().next().expect("magnitude").as_str()), at)
        }
        _ => Atom::Name(ident(inner)),
    }
}

fn template_body(p: Pair<Rule>) -> TemplateBody {
    let sp = span(&p);
    let mut arms = Vec::new();
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::arm => {
                let mut it = x.into_inner().peekable();
                let alias = it.next_if(|g| g.as_rule() == Rule::kw_alias).is_some();
                let g = it.next().expect("guard");
                let guard = if g.as_rule() == Rule::wildcard { None } else { Some(expr(g)) };
                let items = seq(it.next().expect("seq"));
                arms.push(TemplateArm { guard, items, alias });
            }
            Rule::seq => arms.push(TemplateArm { guard: None, items: seq(x), alias: false }),
            _ => {}
        }
    }
    TemplateBody { arms, span: sp }
}

fn seq(p: Pair<Rule>) -> Vec<TItem> {
    p.into_inner().map(titem).collect()
}

fn titem(p: Pair<Rule>) -> TItem {
    let sp = span(&p);
    match p.as_rule() {
        Rule::string => TItem::Lit(string_value(p), sp),
        Rule::hole => {
            let mut it = p.into_inner();
            let e = expr(it.next().expect("hole expr"));
            let mut fmt = None;
            let mut table = None;
            let mut base = None;
            for x in it {
                match x.as_rule() {
                    Rule::expr => base = Some(expr(x)),
                    Rule::fmt_spec => fmt = Some((x.as_str().to_string(), span(&x))),
                    Rule::table_choice => {
                        let mut t = x.into_inner();
                        let first = t.next().expect("table");
                        table = Some(if first.as_rule() == Rule::expr {
                            let c = expr(first);
                            let a = ident(t.next().expect("then"));
                            let b = ident(t.next().expect("else"));
                            TableChoice::If(c, a, b)
                        } else {
                            TableChoice::One(ident(first))
                        });
                    }
                    _ => {}
                }
            }
            TItem::Hole { expr: e, fmt, table, base, span: sp }
        }
        Rule::call => {
            let mut it = p.into_inner();
            let name = ident(it.next().expect("callee"));
            TItem::Call(name, it.map(family_arg).collect(), sp)
        }
        Rule::opt_group => {
            let mut it = p.into_inner();
            let c = expr(it.next().expect("condition"));
            TItem::Opt(c, seq(it.next().expect("seq")), sp)
        }
        Rule::any_order => {
            let mut separator = None;
            let mut groups = Vec::new();
            for g in p.into_inner() {
                match g.as_rule() {
                    Rule::kw_any_order | Rule::kw_separator => {}
                    Rule::string => separator = Some((string_value(g.clone()), span(&g))),
                    _ => groups.push(titem(g)),
                }
            }
            TItem::AnyOrder(separator, groups, sp)
        }
        other => unreachable!("template item {other:?}"),
    }
}

fn quantified(p: Pair<Rule>) -> Quantified {
    let mut it = p.into_inner().peekable();
    let var = ident(it.next().expect("var"));
    let mut range = None;
    let mut filter = None;
    let rest: Vec<Pair<Rule>> = it.collect();
    let n = rest.len();
    let mut idx = 0;
    // Layout: [lo hi]? [filter]? body — body is the last pair.
    let body_pair = rest[n - 1].clone();
    let middle = &rest[..n - 1];
    if middle.len() >= 2 {
        range = Some((expr(middle[0].clone()), expr(middle[1].clone())));
        idx = 2;
    }
    if middle.len() > idx {
        filter = Some(expr(middle[idx].clone()));
    }
    let body = match body_pair.as_rule() {
        Rule::quantified => QBody::Nested(quantified(body_pair)),
        _ => QBody::Expr(expr(body_pair)),
    };
    Quantified { var, range, filter, body: Box::new(body) }
}

fn block(p: Pair<Rule>) -> Block {
    let mut stmts = Vec::new();
    let mut value = None;
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::stmt => stmts.push(stmt(x.into_inner().next().expect("stmt"))),
            Rule::expr => value = Some(Box::new(expr(x))),
            _ => {}
        }
    }
    Block { stmts, value }
}

fn stmt(p: Pair<Rule>) -> Stmt {
    match p.as_rule() {
        Rule::let_stmt => {
            let mut it = p.into_inner();
            let n = ident(it.next().expect("name"));
            Stmt::Let(n, expr(it.next().expect("value")))
        }
        Rule::assign_stmt => {
            let mut it = p.into_inner();
            let mut place = it.next().expect("place").into_inner();
            let n = ident(place.next().expect("name"));
            let index = place.next().map(expr);
            Stmt::Assign(n, index, expr(it.next().expect("value")))
        }
        Rule::if_stmt => if_stmt(p),
        Rule::each_element => {
            let at = span(&p);
            Stmt::EachElement(block(p.into_inner().next().expect("block")), at)
        }
        Rule::for_stmt => {
            let mut it = p.into_inner().filter(|x| x.as_rule() != Rule::kw_for);
            let var = ident(it.next().expect("variable"));
            let lo = expr(it.next().expect("from"));
            let inclusive = it.next().expect("range").as_str() == "..=";
            let hi = expr(it.next().expect("to"));
            Stmt::For { var, lo, hi, inclusive, body: block(it.next().expect("body")) }
        }
        Rule::expr_stmt => Stmt::Expr(expr(p.into_inner().next().expect("expr"))),
        other => unreachable!("statement {other:?}"),
    }
}

fn if_stmt(p: Pair<Rule>) -> Stmt {
    let mut it = p.into_inner();
    let c = expr(it.next().expect("condition"));
    let then = block(it.next().expect("then"));
    let els = it.next().map(|e| match e.as_rule() {
        Rule::if_stmt => Block { stmts: vec![if_stmt(e)], value: None },
        _ => block(e),
    });
    Stmt::If(c, then, els)
}

fn pratt() -> &'static PrattParser<Rule> {
    static P: OnceLock<PrattParser<Rule>> = OnceLock::new();
    P.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or, Assoc::Left))
            .op(Op::infix(Rule::and, Assoc::Left))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left))
            .op(Op::infix(Rule::bor, Assoc::Left))
            .op(Op::infix(Rule::bxor, Assoc::Left))
            .op(Op::infix(Rule::band, Assoc::Left))
            .op(Op::infix(Rule::shl, Assoc::Left) | Op::infix(Rule::shr, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left)
                | Op::infix(Rule::div, Assoc::Left)
                | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg) | Op::prefix(Rule::not))
            .op(Op::postfix(Rule::index) | Op::postfix(Rule::member_access) | Op::postfix(Rule::in_set))
    })
}

/// Builds an expression from an `expr` pair.
fn expr(p: Pair<Rule>) -> Expr {
    pratt()
        .map_primary(primary)
        .map_prefix(|op, rhs| {
            let sp = Span { start: op.as_span().start(), end: rhs.span.end };
            let u = if op.as_rule() == Rule::neg { UnOp::Neg } else { UnOp::Not };
            Expr { kind: ExprKind::Unary(u, Box::new(rhs)), span: sp }
        })
        .map_postfix(|lhs, op| {
            let sp = Span { start: lhs.span.start, end: op.as_span().end() };
            match op.as_rule() {
                Rule::index => {
                    let i = expr(op.into_inner().next().expect("index"));
                    Expr { kind: ExprKind::Index(Box::new(lhs), Box::new(i)), span: sp }
                }
                Rule::in_set => {
                    let set = value_set(op.into_inner().next().expect("set"));
                    Expr { kind: ExprKind::InSet(Box::new(lhs), set), span: sp }
                }
                _ => {
                    let m = ident(op.into_inner().next().expect("member"));
                    Expr { kind: ExprKind::Member(Box::new(lhs), m), span: sp }
                }
            }
        })
        .map_infix(|lhs, op, rhs| {
            let sp = Span { start: lhs.span.start, end: rhs.span.end };
            let b = match op.as_rule() {
                Rule::or => BinOp::Or,
                Rule::and => BinOp::And,
                Rule::eq => BinOp::Eq,
                Rule::ne => BinOp::Ne,
                Rule::lt => BinOp::Lt,
                Rule::le => BinOp::Le,
                Rule::gt => BinOp::Gt,
                Rule::ge => BinOp::Ge,
                Rule::bor => BinOp::BitOr,
                Rule::bxor => BinOp::BitXor,
                Rule::band => BinOp::BitAnd,
                Rule::shl => BinOp::Shl,
                Rule::shr => BinOp::Shr,
                Rule::add => BinOp::Add,
                Rule::sub => BinOp::Sub,
                Rule::mul => BinOp::Mul,
                Rule::div => BinOp::Div,
                _ => BinOp::Rem,
            };
            Expr { kind: ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)), span: sp }
        })
        .parse(p.into_inner())
}

fn primary(p: Pair<Rule>) -> Expr {
    let sp = span(&p);
    let kind = match p.as_rule() {
        Rule::int => ExprKind::Int(int_value(p.as_str())),
        Rule::float => ExprKind::Float(p.as_str().parse().unwrap_or(0.0)),
        Rule::boolean => ExprKind::Bool(p.as_str() == "true"),
        Rule::ident => ExprKind::Name(p.as_str().to_string()),
        Rule::expr => return expr(p),
        Rule::call_expr => {
            let mut it = p.into_inner();
            let name = ident(it.next().expect("callee"));
            ExprKind::Call(name, it.map(expr).collect())
        }
        Rule::if_expr => {
            let mut it = p.into_inner();
            let c = expr(it.next().expect("cond"));
            let a = expr(it.next().expect("then"));
            let b = expr(it.next().expect("else"));
            ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
        }
        Rule::match_expr => {
            let mut it = p.into_inner();
            let scrutinee = expr(it.next().expect("scrutinee"));
            let arms = it
                .map(|arm| {
                    let mut a = arm.into_inner();
                    let pat = a.next().expect("pattern");
                    let set = if pat.as_rule() == Rule::wildcard { None } else { Some(value_set(pat)) };
                    let body = a.next().expect("arm body");
                    let body = match body.as_rule() {
                        Rule::block => MatchBody::Block(block(body)),
                        _ => MatchBody::Expr(expr(body)),
                    };
                    (set, body)
                })
                .collect();
            ExprKind::Match(Box::new(scrutinee), arms)
        }
        other => unreachable!("primary {other:?}"),
    };
    Expr { kind, span: sp }
}
