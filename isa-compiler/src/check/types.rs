//! Enums, number formats and the types fields can have.

use super::{dialect_index, Checker};
use crate::ast::{self, Span};
use crate::ir::{self, EnumId, NumberId, Type};
use std::collections::{BTreeMap, HashMap};

/// Declares every enum and number format of the file (in order), and reserves layout ids.
pub fn declare(cx: &mut Checker, file: &ast::File, t: &mut ir::Target) {
    for item in &file.items {
        match item {
            ast::Item::Enum(e) => {
                let en = enum_def(cx, e, t);
                t.enums.push(en);
            }
            ast::Item::Number(n) => {
                let nf = number_def(cx, n);
                t.numbers.push(nf);
            }
            _ => {}
        }
    }
}

/// Reports a range `lo..=hi` written backwards (it holds no value); returns whether it holds one.
/// Every range of values says so the same way: enum values, `in` sets, match arms.
pub fn nonempty<V: PartialOrd + std::fmt::Display>(cx: &mut Checker, span: Span, lo: V, hi: V) -> bool {
    if lo > hi {
        cx.error(span, "empty range: the first value is above the last")
            .label(format!("{lo}..={hi} holds no value"));
        return false;
    }
    true
}

/// The bounds of one element of a value set (`5`, or `lo..=hi`), and where it is written.
pub fn set_bounds(e: &ast::SetElem) -> (&ast::Atom, &ast::Atom, Span) {
    let (a, b) = match e {
        ast::SetElem::One(a) => (a, a),
        ast::SetElem::Range(a, b) => (a, b),
    };
    (a, b, Span { start: atom_span(a).start, end: atom_span(b).end })
}

/// Where a value of a set is written.
pub fn atom_span(a: &ast::Atom) -> Span {
    match a {
        ast::Atom::Int(_, s) | ast::Atom::Neg(_, s) => *s,
        ast::Atom::Name(id) => id.span,
    }
}

/// Width of `uN`/`sN`/`bool` type names.
pub fn int_type(name: &str) -> Option<Type> {
    if name == "bool" {
        return Some(Type::Bool);
    }
    let (signed, digits) = if let Some(d) = name.strip_prefix('u') {
        (false, d)
    } else if let Some(d) = name.strip_prefix('s').or_else(|| name.strip_prefix('i')) {
        (true, d)
    } else {
        return None;
    };
    let w: u32 = digits.parse().ok()?;
    if w == 0 || w > 64 || digits.starts_with('0') {
        return None;
    }
    Some(if signed { Type::SInt(w) } else { Type::UInt(w) })
}

fn enum_def(cx: &mut Checker, e: &ast::Enum, t: &ir::Target) -> ir::Enum {
    let width = match int_type(&e.repr.name) {
        Some(Type::UInt(w)) => w,
        _ => {
            cx.error(e.repr.span, format!("`{}` is not an enum width", e.repr.name))
                .label("expected `uN`, e.g. `u4`");
            8
        }
    };
    let limit = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
    for (d, head) in &e.wrapped {
        let (h, n) = (&head.name, &d.name);
        if n == "else" {
            // `else` is no variant name: the only other reading is a dialect called `else`.
            cx.error(d.span, format!("`else` on a line after `{h}` needs a comma before it"))
                .label(format!(
                    "without a comma this reads as a spelling of `{h}` in a dialect called `else`"
                ))
                .with(head.span, format!("`{h}` is on this line"))
                .note(format!("end the line before with a comma, or write `, else \"...\"` on `{h}`'s line"));
            continue;
        }
        cx.error(d.span, format!("`{n}` starts a line after `{h}`: a variant, or `{h}`'s spelling in dialect `{n}`?"))
            .label("a dialect's spelling is written on its variant's line, or on a line indented past its name")
            .with(head.span, format!("`{h}` is on this line"))
            .note(format!(
                "for a variant, put a comma before it (`x = 0 \".X\", {n} \".Y\"`); for a spelling, indent it past `{h}` or move it up to `{h}`'s line"
            ));
    }
    let mut variants: Vec<ir::Variant> = Vec::new();
    // Values taken so far, disjoint, by their first value (enums run to 65,536 values and more:
    // each lookup is a logarithmic search, not a scan).
    let mut seen: BTreeMap<u64, (u64, Span, &str)> = BTreeMap::new();
    let mut names: HashMap<&str, Span> = HashMap::new();
    // The generated enum's variants are the values' names in CamelCase: two names that differ
    // only where CamelCase loses it (`f0` and `F0`, `a_b` and `aB`) would be one variant twice.
    let mut rust_names: HashMap<String, &ast::Ident> = HashMap::new();
    // An operation's values are also methods of the `Semantics` trait, in snake_case: `NOP` and
    // `nop` (or `Nop`) would be one method twice.
    let operation = e.signature.as_ref().is_some_and(|s| !s.params.is_empty());
    let mut method_names: HashMap<String, &ast::Ident> = HashMap::new();
    for v in &e.variants {
        if let Some(old) = names.get(v.name.name.as_str()) {
            cx.error(
                v.name.span,
                format!("enum value `{}` is defined twice in `{}`", v.name.name, e.name.name),
            )
            .with(*old, "first defined here");
            continue;
        }
        names.insert(&v.name.name, v.name.span);
        let camel = crate::backend::rust::names::camel(&v.name.name);
        if let Some(old) = rust_names.get(&camel) {
            cx.error(
                v.name.span,
                format!(
                    "enum values `{}` and `{}` of `{}` are both `{camel}` in the generated Rust",
                    old.name, v.name.name, e.name.name
                ),
            )
            .with(old.span, format!("`{}` defined here", old.name))
            .note("the generated enum names its variants in CamelCase; rename one of the values");
        } else {
            rust_names.insert(camel, &v.name);
        }
        if operation {
            let snake = crate::backend::rust::names::method_part(&v.name.name);
            match method_names.get(&snake) {
                Some(old) => {
                    cx.error(
                        v.name.span,
                        format!(
                            "operations `{}` and `{}` of `{}` are both the method `…_{snake}` in the generated Rust",
                            old.name, v.name.name, e.name.name
                        ),
                    )
                    .with(old.span, format!("`{}` defined here", old.name))
                    .note("the generated `Semantics` trait names an operation's method in snake_case; rename one of the values");
                }
                None => {
                    method_names.insert(snake, &v.name);
                }
            }
        }
        let (values, lo, hi, sp) = match &v.value {
            ast::VariantValue::One(x, sp) => (ir::Values::One(*x), *x, *x, *sp),
            ast::VariantValue::Range(lo, hi, sp) => {
                nonempty(cx, *sp, *lo, *hi);
                (ir::Values::Range(*lo, *hi), *lo, *hi, *sp)
            }
            ast::VariantValue::Rest(sp) => (ir::Values::Rest, 0, 0, *sp),
            // Numbered by `families::numbered` before the enum gets here.
            ast::VariantValue::Next(sp) => (ir::Values::One(0), 0, 0, *sp),
        };
        if !matches!(values, ir::Values::Rest) {
            if hi > limit {
                cx.error(sp, format!("value {hi} does not fit the {width}-bit enum `{}`", e.name.name))
                    .label(format!("largest {width}-bit value is {limit}"));
            }
            // Among disjoint ranges, only the last one starting at or below `hi` can reach `lo`.
            match seen.range(..=hi).next_back() {
                Some((_, (end, old, other))) if *end >= lo => {
                    cx.error(sp, format!("`{}` reuses a value of `{other}`", v.name.name))
                        .label("overlapping value")
                        .with(*old, format!("`{other}` has it"));
                }
                _ if lo <= hi => {
                    seen.insert(lo, (hi, sp, &v.name.name));
                }
                _ => {}
            }
        }
        let spellings =
            spellings_for(cx, &v.spellings, t, &v.name.name, !matches!(values, ir::Values::One(_)));
        // A range prints `value + shift` as a signed 64-bit number: past it a value would print
        // wrapped (`a(0..=18446744073709551615)` printed its last as `a-1`) or overflow.
        let printed = match values {
            ir::Values::Range(lo, hi) => Some((lo, hi)),
            ir::Values::Rest => Some((0, (1u64 << width.min(63)) - 1)),
            ir::Values::One(_) => None,
        };
        if let Some((lo, hi)) = printed {
            let shifts =
                spellings.iter().flatten().filter_map(|s| s.value.as_ref().map(|v| (v.shift, &s.text)));
            let past = shifts
                .map(|(shift, text)| {
                    (i128::from(lo) + i128::from(shift), i128::from(hi) + i128::from(shift), text)
                })
                .find(|(a, b, _)| *a < i128::from(i64::MIN) || *b > i128::from(i64::MAX));
            if let Some((a, b, text)) = past {
                let at = v.spellings.iter().find(|(_, t, _)| t == text).map_or(v.name.span, |(_, _, sp)| *sp);
                cx.error(at, format!("`{}` prints {a}..={b}, past the signed 64-bit numbers", text))
                    .label(format!("the values {lo}..={hi} of `{}`", v.name.name))
                    .note(format!(
                        "a range's spelling prints value + shift between {} and {}",
                        i64::MIN,
                        i64::MAX
                    ));
            }
        }
        variants.push(ir::Variant {
            name: v.name.name.clone(),
            doc: v.doc.clone(),
            values,
            spellings,
            semantics: None,
        });
    }
    if e.variants.is_empty() {
        // No word holds a value of it: a format with a field of this type could never decode.
        cx.error(e.name.span, format!("enum `{}` has no values", e.name.name))
            .label("give it at least one value")
            .note("a field of an enum without values can hold nothing, so its format would never decode");
    }
    let signature = e.signature.as_ref().map(|s| {
        let params =
            s.params.iter().map(|(n, ty)| (n.name.clone(), super::semantics::scalar(cx, ty))).collect();
        let ret = s.ret.as_ref().map(|r| super::semantics::scalar(cx, r));
        (params, ret)
    });
    let mut else_spellings = vec![None; t.dialects.len()];
    for (d, text, _) in &e.else_spellings {
        match d {
            None => else_spellings.iter_mut().filter(|x| x.is_none()).for_each(|x| *x = Some(text.clone())),
            Some(d) => match dialect_index(t, &d.name) {
                Some(i) => else_spellings[i] = Some(text.clone()),
                None => {
                    cx.error(d.span, format!("unknown dialect `{}`", d.name));
                }
            },
        }
    }
    shared_spellings(cx, e, &variants, t, limit);
    ir::Enum { name: e.name.name.clone(), doc: e.doc.clone(), width, variants, signature, else_spellings }
}

/// Reports two values of enum `e` that one dialect's assembler reads from the same text: a
/// spelling of both (`a = 1 ".A"`, `b = 2 ".A"`; the assembler's reading is not said and one of
/// them does not print back to itself), a name a range also spells (`r5` beside `r(0..=7)
/// "r{v}"`) or two ranges that print a number alike with different shifts. Texts compare as the
/// assembler matches them: blanks left out, and without case in an `ignore_case` dialect. A
/// range's text without `{v}` (`???`) and `else` are only printed, and take no part.
fn shared_spellings(cx: &mut Checker, e: &ast::Enum, variants: &[ir::Variant], t: &ir::Target, limit: u64) {
    /// A range's parsed texts: prefix and suffix (compared), printed numbers, shift, variant.
    struct Ranged<'a> {
        prefix: String,
        suffix: String,
        lo: i128,
        hi: i128,
        shift: i128,
        text: &'a ir::ValueText,
        at: usize,
    }
    let mut shared = false;
    // (the later variant, its value, the earlier, its value, the text, the dialects).
    #[allow(clippy::type_complexity)]
    let mut found: Vec<(usize, u64, usize, u64, String, Vec<&str>)> = Vec::new();
    for (d, dialect) in t.dialects.iter().enumerate() {
        let key = |text: &str| -> String {
            let k: String = text.chars().filter(|c| *c != ' ' && *c != '\t').collect();
            if dialect.ignore_case {
                k.to_ascii_lowercase()
            } else {
                k
            }
        };
        let mut names: HashMap<String, (u64, usize, &str)> = HashMap::new();
        let mut ranges: Vec<Ranged> = Vec::new();
        // (the variant, its value, the other variant, its value, the text): the first of each pair.
        let mut pairs: Vec<(usize, u64, usize, u64, String)> = Vec::new();
        for (i, v) in variants.iter().enumerate() {
            for s in v.spellings.get(d).map(Vec::as_slice).unwrap_or_default() {
                match (&v.values, &s.value) {
                    (ir::Values::One(x), _) => match names.get(&key(&s.text)) {
                        Some(&(y, j, _)) if y != *x => pairs.push((i, *x, j, y, s.text.clone())),
                        Some(_) => {}
                        None => {
                            names.insert(key(&s.text), (*x, i, &s.text));
                        }
                    },
                    (ir::Values::Range(..) | ir::Values::Rest, Some(vt)) => {
                        let (lo, hi) = match v.values {
                            ir::Values::Range(lo, hi) => (lo, hi),
                            _ => (0, limit),
                        };
                        let shift = i128::from(vt.shift);
                        ranges.push(Ranged {
                            prefix: key(&vt.prefix),
                            suffix: key(&vt.suffix),
                            lo: i128::from(lo) + shift,
                            hi: i128::from(hi) + shift,
                            shift,
                            text: vt,
                            at: i,
                        });
                    }
                    _ => {}
                }
            }
        }
        // The value range `r` reads from text `k`, if it reads one.
        let reads = |r: &Ranged, k: &str| -> Option<i128> {
            let middle = k.strip_prefix(r.prefix.as_str())?.strip_suffix(r.suffix.as_str())?;
            let digits = middle.strip_prefix(['-', '+']).unwrap_or(middle);
            if digits.is_empty() || digits.len() > 30 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let n: i128 = middle.parse().ok()?;
            (r.lo..=r.hi).contains(&n).then_some(n - r.shift)
        };
        let printed = |r: &Ranged, n: i128| format!("{}{n}{}", r.text.prefix, r.text.suffix);
        for r in &ranges {
            for (k, &(x, j, text)) in &names {
                if let Some(v) = reads(r, k).filter(|&v| v != i128::from(x)) {
                    pairs.push((r.at, v as u64, j, x, text.to_string()));
                }
            }
        }
        let mut budget: i128 = 1 << 16;
        for (a, r) in ranges.iter().enumerate() {
            for q in &ranges[a + 1..] {
                if r.shift == q.shift && r.prefix == q.prefix && r.suffix == q.suffix {
                    // The same number is the same value: two variants never share one.
                    continue;
                }
                let hit = if r.prefix == q.prefix && r.suffix == q.suffix {
                    let n = r.lo.max(q.lo);
                    (n <= r.hi.min(q.hi)).then(|| printed(r, n))
                } else {
                    // Prefixes that differ (`r` and `r1`) meet only in some texts, where one
                    // prefix (and suffix) starts (ends) the other: try each range's texts on the
                    // other (`r{v}` reads `r00`, which `r{v}0` prints), within a budget (a spec
                    // of thousands of such ranges is checked in time).
                    let nested = |a: &str, b: &str, end: bool| {
                        if end {
                            a.ends_with(b) || b.ends_with(a)
                        } else {
                            a.starts_with(b) || b.starts_with(a)
                        }
                    };
                    let meet = nested(&r.prefix, &q.prefix, false) && nested(&r.suffix, &q.suffix, true);
                    let mut hit = None;
                    for (x, y) in [(r, q), (q, r)] {
                        let size = x.hi - x.lo + 1;
                        if !meet || hit.is_some() || size > budget {
                            continue;
                        }
                        budget -= size;
                        hit = (x.lo..=x.hi).map(|n| printed(x, n)).find(|t| reads(y, &key(t)).is_some());
                    }
                    hit
                };
                if let Some(text) = hit {
                    let (Some(x), Some(y)) = (reads(r, &key(&text)), reads(q, &key(&text))) else { continue };
                    if x != y {
                        pairs.push((q.at, y as u64, r.at, x as u64, text));
                    }
                }
            }
        }
        shared |= !pairs.is_empty();
        for (i, x, j, y, text) in pairs {
            // The later value is the one in error; a pair in several dialects is one error.
            let (i, x, j, y) = if i > j { (i, x, j, y) } else { (j, y, i, x) };
            match found.iter_mut().find(|f| (f.0, f.2, &f.4) == (i, j, &text)) {
                Some(f) => f.5.push(&dialect.name),
                None => found.push((i, x, j, y, text, vec![&dialect.name])),
            }
        }
    }
    if e.shares.is_none() {
        for (i, x, j, y, text, dialects) in found {
            let (a, b) = (&e.variants[i], &e.variants[j]);
            let s = if dialects.len() > 1 { "s" } else { "" };
            let dialects = dialects.iter().map(|d| format!("`{d}`")).collect::<Vec<_>>().join(", ");
            cx.error(
                a.name.span,
                format!("`{}` ({x}) and `{}` ({y}) are both spelled `{text}` in dialect{s} {dialects}", a.name.name, b.name.name),
            )
            .label(format!("the assembler would read `{text}` as either"))
            .with(b.name.span, format!("`{}` is spelled `{text}` too", b.name.name))
            .note(format!(
                "in enum `{}`: the assembler reads `{text}` as the first of them the line allows, so the other does \
                 not print back to itself unless the syntax around the field tells them apart",
                e.name.name
            ))
            .note("spell them apart, or say so: `shares spellings` after the enum's type (README §4)");
        }
    }
    if let (Some(at), false) = (e.shares, shared) {
        cx.error(at, format!("no two values of `{}` share a spelling", e.name.name))
            .label("`shares spellings` says nothing here")
            .note("remove it: it marks an enum whose values the assembler reads from one text");
    }
}

/// Spellings per dialect: the dialect's own, else the default strings, else the name. A ranged
/// variant's `{v}` is parsed here, once; its text without `{v}` is printed for every value alike.
fn spellings_for(
    cx: &mut Checker,
    given: &[(Option<ast::Ident>, String, Span)],
    t: &ir::Target,
    name: &str,
    ranged: bool,
) -> Vec<Vec<ir::Spelling>> {
    let mut default: Vec<ir::Spelling> = Vec::new();
    let mut per: Vec<Vec<ir::Spelling>> = vec![Vec::new(); t.dialects.len()];
    for (d, text, sp) in given {
        let value = match placeholder(text) {
            Ok(v) if ranged => Some(v),
            // A range spelled without `{v}` (Mesa's `???`) prints but cannot be parsed back.
            Err(m) if ranged && text.contains("{v") => {
                cx.error(*sp, m);
                None
            }
            _ => None,
        };
        let spelling = ir::Spelling { text: text.clone(), value };
        match d {
            None => default.push(spelling),
            Some(d) => match dialect_index(t, &d.name) {
                Some(i) => per[i].push(spelling),
                None if d.name == "else" => {
                    cx.error(d.span, format!("`else` after a spelling of `{name}` needs a comma before it"))
                        .label(format!(
                            "without a comma this reads as a spelling of `{name}` in a dialect called `else`"
                        ))
                        .note("write `x = 0 \".X\", else \"?\"`");
                }
                None => {
                    let known: Vec<&str> = t.dialects.iter().map(|d| d.name.as_str()).collect();
                    cx.error(d.span, format!("unknown dialect `{}`", d.name))
                        .note(format!("the target declares: {}", known.join(", ")))
                        .note("a variant without a value after a spelling reads as that spelling's dialect: put a comma before it (`x = 0 \".X\", y \".Y\"`)");
                }
            },
        }
    }
    if default.is_empty() {
        let text = if ranged { format!("{name}{{v}}") } else { name.to_string() };
        let value = if ranged { placeholder(&text).ok() } else { None };
        default.push(ir::Spelling { text, value });
    }
    per.into_iter().map(|p| if p.is_empty() { default.clone() } else { p }).collect()
}

/// Splits a range spelling such as `"r{v-32}"` into prefix, printed minus raw value, suffix.
fn placeholder(text: &str) -> Result<ir::ValueText, String> {
    let start = text.find("{v").ok_or("a range of values needs `{v}` in its spelling")?;
    let end = start + text[start..].find('}').ok_or("unclosed `{v`")?;
    let inner = text[start + 2..end].trim();
    let shift = if inner.is_empty() {
        0
    } else if let Some(n) = inner.strip_prefix('+') {
        n.trim().parse::<i64>().map_err(|_| format!("`{{v{inner}}}`: expected `{{v+N}}` or `{{v-N}}`"))?
    } else if let Some(n) = inner.strip_prefix('-') {
        -n.trim().parse::<i64>().map_err(|_| format!("`{{v{inner}}}`: expected `{{v+N}}` or `{{v-N}}`"))?
    } else {
        return Err(format!("`{{v{inner}}}`: expected `{{v}}`, `{{v+N}}`, `{{v-N}}` or `{{v/N}}`"));
    };
    Ok(ir::ValueText { prefix: text[..start].to_string(), shift, suffix: text[end + 1..].to_string() })
}

fn number_def(cx: &mut Checker, n: &ast::NumberDef) -> ir::NumberFormat {
    let arg = |name: &str| n.args.iter().find(|(a, _)| a.name == name).map(|(_, v)| *v);
    let get = |cx: &mut Checker, name: &str| -> i64 {
        match arg(name) {
            Some(Some(v)) => v,
            Some(None) => 1,
            None => {
                cx.error(n.kind.span, format!("number format `{}` needs `{name}:`", n.name.name));
                0
            }
        }
    };
    let kind = match n.kind.name.as_str() {
        "float" => {
            let k = ir::NumberKind::Float {
                sign: get(cx, "sign") as u32,
                exponent: get(cx, "exponent") as u32,
                mantissa: get(cx, "mantissa") as u32,
                bias: get(cx, "bias") as i32,
                specials: arg("specials").is_some(),
                truncate: arg("truncate").is_some(),
            };
            if k.width() == 0 || k.width() > 64 {
                cx.error(n.name.span, "a float format is 1 to 64 bits wide");
            }
            k
        }
        "fixed" => ir::NumberKind::Fixed {
            width: get(cx, "width") as u32,
            fraction: get(cx, "fraction") as u32,
            signed: arg("signed").is_some(),
        },
        other => {
            cx.error(n.kind.span, format!("unknown number format kind `{other}`"))
                .note("kinds: `float(...)`, `fixed(...)`");
            ir::NumberKind::Fixed { width: 1, fraction: 0, signed: false }
        }
    };
    for (a, _) in &n.args {
        let known =
            ["sign", "exponent", "mantissa", "bias", "specials", "truncate", "width", "fraction", "signed"];
        if !known.contains(&a.name.as_str()) {
            cx.error(a.span, format!("unknown number format parameter `{}`", a.name));
        }
    }
    ir::NumberFormat { name: n.name.name.clone(), doc: n.doc.clone(), kind }
}

/// The type name a group's type parameter takes when its argument names no type: that error is
/// reported at the argument, and every later check passes over the name in silence.
pub const NOT_A_TYPE: &str = "<not a type>";

/// Resolves a type name used by a field.
pub fn resolve(cx: &mut Checker, t: &ir::Target, layouts: &[(String, u32)], id: &ast::Ident) -> Option<Type> {
    if id.name == NOT_A_TYPE {
        return None;
    }
    if let Some(ty) = int_type(&id.name) {
        return Some(ty);
    }
    if let Some(i) = t.enums.iter().position(|e| e.name == id.name) {
        return Some(Type::Enum(EnumId(i)));
    }
    if let Some(i) = t.numbers.iter().position(|n| n.name == id.name) {
        return Some(Type::Number(NumberId(i)));
    }
    if let Some(i) = layouts.iter().position(|(n, _)| *n == id.name) {
        return Some(Type::Layout(ir::LayoutId(i)));
    }
    cx.error(id.span, format!("unknown type `{}`", id.name))
        .label("not an enum, number format, layout or `bool`/`uN`/`sN`");
    None
}

/// Width in bits of a type.
pub fn width(t: &ir::Target, layouts: &[(String, u32)], ty: &Type) -> u32 {
    match ty {
        Type::Bool => 1,
        Type::UInt(w) | Type::SInt(w) => *w,
        Type::Enum(e) => t.enums[e.0].width,
        Type::Number(n) => t.numbers[n.0].kind.width(),
        Type::Layout(l) => layouts[l.0].1,
        Type::Switch { arms, .. } => arms.iter().map(|(_, ty)| width(t, layouts, ty)).max().unwrap_or(0),
    }
}

/// Resolves a constant for a field of type `ty`: a number, an enum value name, `true`/`false`.
pub fn constant(cx: &mut Checker, t: &ir::Target, ty: &Type, e: &ast::Expr) -> Option<u64> {
    match &e.kind {
        ast::ExprKind::Int(v) => Some(*v),
        ast::ExprKind::Bool(b) => Some(*b as u64),
        ast::ExprKind::Unary(ast::UnOp::Neg, x) => {
            if let ast::ExprKind::Int(v) = x.kind {
                let w = match ty {
                    Type::SInt(w) => *w,
                    _ => 64,
                };
                Some((v as i64).wrapping_neg() as u64 & crate::check::fields::mask(w))
            } else {
                cx.error(e.span, "expected a constant");
                None
            }
        }
        ast::ExprKind::Name(n) => match ty {
            Type::Enum(id) => {
                let en = &t.enums[id.0];
                match en.variants.iter().find(|v| v.name == *n) {
                    Some(v) => match v.values {
                        ir::Values::One(x) => Some(x),
                        _ => {
                            cx.error(e.span, format!("`{n}` names a range of values; give the number"));
                            None
                        }
                    },
                    None => {
                        cx.error(e.span, format!("`{n}` is not a value of enum `{}`", en.name));
                        None
                    }
                }
            }
            _ => {
                cx.error(e.span, format!("`{n}` is not a constant of this field's type"));
                None
            }
        },
        // Arithmetic over numbers, e.g. a family's opcode parameter `op >> 3` once bound.
        _ => match crate::check::fields::const_eval(e, None) {
            Some(v) if v >= 0 => Some(v as u64),
            _ => {
                cx.error(e.span, "expected a constant (a number or an enum value)");
                None
            }
        },
    }
}
