//! Units and ABI layouts: layouts whose size, positions, array lengths and members depend on
//! typed parameters. Every layout is checked for every value of its parameters (they are
//! declared with ranges), so a member outside the layout or two members sharing a register is
//! reported with the parameter values where it happens, in the unit's register names.

use super::Checker;
use crate::ast::{self, Span};
use crate::ir::{self, AbiExpr, ArithOp, CmpOp};

/// How many parameter combinations a layout may have: each is checked.
const MAX_COMBINATIONS: u64 = 1 << 16;

/// Checks every `unit` and ABI layout; fills `t.units` and `t.abi_layouts`.
pub fn check(cx: &mut Checker, file: &ast::File, t: &mut ir::Target) {
    for item in &file.items {
        if let ast::Item::Unit(u) = item {
            let unit = unit(cx, u);
            t.units.push(unit);
        }
    }
    for item in &file.items {
        if let ast::Item::AbiLayout(l) = item {
            if let Some(layout) = abi_layout(cx, t, l) {
                t.abi_layouts.push(layout);
            }
        }
    }
}

fn unit(cx: &mut Checker, u: &ast::UnitDef) -> ir::Unit {
    let (bits, bits_span) = u.bits;
    let bits = match u32::try_from(bits) {
        Ok(b @ 1..=4096) => b,
        _ => {
            cx.error(bits_span, "a unit is 1 to 4096 bits");
            1
        }
    };
    let mut register: Option<(String, u64, Span)> = None;
    let mut parts: Option<(Vec<String>, Span)> = None;
    for s in &u.settings {
        match (s.name.name.as_str(), s.values.as_slice()) {
            ("register", [ast::SettingValue::Str(prefix, _), ast::SettingValue::Int(width, sp)]) => {
                register = Some((prefix.clone(), *width, *sp))
            }
            ("halves" | "parts", values) if !values.is_empty() => {
                let names: Option<Vec<String>> = values
                    .iter()
                    .map(|v| if let ast::SettingValue::Str(p, _) = v { Some(p.clone()) } else { None })
                    .collect();
                match names {
                    Some(names) => parts = Some((names, s.name.span)),
                    None => {
                        cx.error(
                            s.name.span,
                            "the parts of a register are named by strings: `halves \"l\", \"h\"`",
                        );
                    }
                }
            }
            _ => {
                cx.error(s.name.span, format!("unknown or malformed unit setting `{}`", s.name.name))
                    .note("unit settings: `register \"r\", 32` (prefix and bits of a register), `halves \"l\", \"h\"` (the suffix of each unit of a register)");
            }
        }
    }
    let registers = register.and_then(|(prefix, width, sp)| {
        let units = if width > 0 && width % u64::from(bits) == 0 {
            u32::try_from(width / u64::from(bits)).ok()
        } else {
            None
        };
        let Some(units) = units else {
            cx.error(
                sp,
                format!("a register of unit `{}` is a whole number of {bits}-bit units", u.name.name),
            );
            return None;
        };
        let parts = match parts.take() {
            Some((names, _)) if names.len() as u64 == u64::from(units) => names,
            Some((names, sp)) => {
                cx.error(sp, format!("{} part names for a register of {units} units", names.len()))
                    .note("name every unit of a register, lowest first");
                Vec::new()
            }
            None if units > 1 => {
                cx.error(
                    u.name.span,
                    format!("a register of unit `{}` has {units} units: name them", u.name.name),
                )
                .note("e.g. `halves \"l\", \"h\"`");
                Vec::new()
            }
            None => Vec::new(),
        };
        Some(ir::Registers { prefix, units, parts })
    });
    if let Some((_, sp)) = parts {
        cx.error(sp, "parts name the units of a register: declare `register \"prefix\", bits` too");
    }
    ir::Unit { name: u.name.name.clone(), doc: u.doc.clone(), bits, registers }
}

fn abi_layout(cx: &mut Checker, t: &ir::Target, l: &ast::AbiLayout) -> Option<ir::AbiLayout> {
    for sp in &l.unsupported {
        cx.error(*sp, "an ABI layout has fields, `unused` ranges and `if` blocks only")
            .note("a layout with parameters or a unit is a table of positions: no clauses, switches, syntax or constraints");
    }
    let mut params = Vec::new();
    for p in &l.params {
        if let Some(ty) = param_type(cx, p) {
            params.push(ir::AbiParam { name: p.name.name.clone(), ty });
        }
    }
    if params.len() != l.params.len() {
        return None;
    }
    let combinations = params.iter().try_fold(1u64, |n, p| {
        let (lo, hi) = p.ty.range();
        n.checked_mul((hi - lo + 1) as u64).filter(|&n| n <= MAX_COMBINATIONS)
    });
    if combinations.is_none() {
        cx.error(
            l.name.span,
            format!("`{}` has more than {MAX_COMBINATIONS} parameter combinations", l.name.name),
        )
        .note("every combination is checked: narrow the ranges with `in lo..=hi`");
        return None;
    }
    let unit = match &l.unit {
        None => None,
        Some(u) => match t.units.iter().position(|x| x.name == u.name) {
            Some(i) => Some(ir::UnitId(i)),
            None => {
                cx.error(u.span, format!("unknown unit `{}`", u.name))
                    .note("declare it: `unit name : bits { ... }`");
                return None;
            }
        },
    };
    let unit_bits = unit.map_or(1, |u| t.units[u.0].bits);
    let scope = Scope { params: &params, index: false };
    let size = lower(cx, &scope, &l.size);
    names_are_distinct(cx, l);
    let mut members = Vec::new();
    for m in &l.members {
        if let Some(member) = member(cx, t, &params, unit_bits, unit, m) {
            members.push((member, m.span));
        }
    }
    let layout = ir::AbiLayout {
        name: l.name.name.clone(),
        doc: l.doc.clone(),
        params,
        unit,
        size: size?,
        members: members.iter().map(|(m, _)| m.clone()).collect(),
        span: l.span,
    };
    if members.len() == l.members.len() {
        check_every_value(cx, t, &layout, &l.size, &members);
    }
    Some(layout)
}

/// Parameters and named members are distinct, and none takes a name the generated layout
/// uses for itself (each becomes a method).
fn names_are_distinct(cx: &mut Checker, l: &ast::AbiLayout) {
    const GENERATED: &[&str] = &[
        "new",
        "size",
        "size_bits",
        "members",
        "place_of",
        "view",
        "layout",
        "into_inner",
        "check",
        "layout_name",
        "put",
    ];
    let mut seen: Vec<&ast::Ident> = Vec::new();
    let names = l.params.iter().map(|p| &p.name).chain(l.members.iter().filter_map(|m| m.name.as_ref()));
    for name in names {
        if GENERATED.contains(&name.name.as_str())
            || name.name.ends_with("_count")
            || name.name.starts_with("set_")
        {
            cx.error(name.span, format!("`{}` is a name the generated layout uses", name.name)).note(
                "`new`, `size`, `size_bits`, `members`, `view`, `<array>_count` and the view's `check`, `layout`, \
                 `into_inner` and `set_<member>` are its methods: rename this",
            );
        }
        if let Some(first) = seen.iter().find(|x| x.name == name.name) {
            cx.error(name.span, format!("`{}` is declared twice in `{}`", name.name, l.name.name))
                .with(first.span, "first declared here");
        } else {
            seen.push(name);
        }
    }
}

fn param_type(cx: &mut Checker, p: &ast::LayoutParam) -> Option<ir::AbiParamType> {
    let Some(ty) = &p.ty else {
        cx.error(p.name.span, format!("parameter `{}` has no type", p.name.name))
            .label("give it one")
            .note("`n: u8 in 0..=32` (an integer in a range) or `compute: bool`");
        return None;
    };
    if ty.name == "bool" {
        if let Some((_, _, sp)) = p.range {
            cx.error(sp, "a `bool` parameter has no range");
        }
        return Some(ir::AbiParamType::Bool);
    }
    let bits = ty.name.strip_prefix('u').and_then(|d| d.parse::<u32>().ok()).filter(|b| (1..=32).contains(b));
    let Some(bits) = bits else {
        cx.error(ty.span, format!("`{}` is not a parameter type", ty.name))
            .label("expected `bool` or `u1` to `u32`");
        return None;
    };
    let largest = (1u64 << bits) - 1;
    let (min, max) = match p.range {
        None => (0, largest),
        Some((lo, hi, sp)) => {
            if lo > hi || hi > largest {
                cx.error(sp, format!("`{lo}..={hi}` is not a range of `{}` values", ty.name))
                    .label(format!("expected lo ≤ hi ≤ {largest}"));
                return None;
            }
            (lo, hi)
        }
    };
    Some(ir::AbiParamType::UInt { bits, min: min as u32, max: max as u32 })
}

/// A member's position, length, count and condition as expressions.
fn member(
    cx: &mut Checker,
    t: &ir::Target,
    params: &[ir::AbiParam],
    unit_bits: u32,
    unit: Option<ir::UnitId>,
    m: &ast::AbiMember,
) -> Option<ir::AbiMember> {
    let name = m.name.as_ref().map(|n| n.name.clone());
    let outer = Scope { params, index: false };
    let count = m.count.as_ref().map(|c| lower(cx, &outer, c));
    let scope = Scope { params, index: m.count.is_some() };
    let mut when = None;
    for c in &m.when {
        let c = lower(cx, &outer, c)?;
        when = Some(match when {
            None => c,
            Some(w) => AbiExpr::And(Box::new(w), Box::new(c)),
        });
    }
    let [piece] = m.at.as_slice() else {
        cx.error(m.span, "a member of an ABI layout is one range of units");
        return None;
    };
    let unit_name = unit.map_or("bit".to_string(), |u| format!("`{}`", t.units[u.0].name));
    // The type's width, in units.
    let typed = match &m.ty {
        None => None,
        Some(ty) => {
            let bits = type_bits(cx, t, ty)?;
            if bits % unit_bits != 0 {
                cx.error(
                    ty.span,
                    format!(
                        "`{}` is {bits} bits: not a whole number of {unit_bits}-bit {unit_name} units",
                        ty.name
                    ),
                );
                return None;
            }
            Some(i64::from(bits / unit_bits))
        }
    };
    let (offset, length) = match piece {
        ast::BitPiece::Bit(at, _) => match typed {
            Some(len) => (lower(cx, &scope, at)?, AbiExpr::Int(len)),
            None => (lower(cx, &scope, at)?, AbiExpr::Int(1)),
        },
        ast::BitPiece::Width(at, len, _) => (lower(cx, &scope, at)?, lower(cx, &scope, len)?),
        ast::BitPiece::Range(hi, lo, _) => {
            let (hi, lo) = (lower(cx, &scope, hi)?, lower(cx, &scope, lo)?);
            let len = AbiExpr::Arith(
                ArithOp::Add,
                Box::new(AbiExpr::Arith(ArithOp::Sub, Box::new(hi), Box::new(lo.clone()))),
                Box::new(AbiExpr::Int(1)),
            );
            (lo, len)
        }
    };
    if let (Some(len), ast::BitPiece::Width(..) | ast::BitPiece::Range(..)) = (typed, piece) {
        if length.constant() != Some(len) {
            let ty = m.ty.as_ref().map_or("", |t| t.name.as_str());
            cx.error(m.span, format!("the length written is not the {len} units of `{ty}`"))
                .note("a field's length follows from its type: write only its position, `@ pos`");
            return None;
        }
    }
    Some(ir::AbiMember {
        name,
        doc: m.doc.clone(),
        reserved: m.reserved,
        type_name: m.ty.as_ref().map(|t| t.name.clone()),
        count: match count {
            Some(c) => Some(c?),
            None => None,
        },
        offset,
        length,
        when,
    })
}

/// Bits of a member's type: `bool`, `uN`/`sN` (any width: an ABI member is only placed),
/// an enum, a number format or a data layout.
fn type_bits(cx: &mut Checker, t: &ir::Target, ty: &ast::Ident) -> Option<u32> {
    if ty.name == "bool" {
        return Some(1);
    }
    let int = ty.name.strip_prefix('u').or_else(|| ty.name.strip_prefix('s'));
    if let Some(bits) = int.and_then(|d| d.parse::<u32>().ok()).filter(|b| (1..=4096).contains(b)) {
        return Some(bits);
    }
    if let Some(e) = t.enums.iter().find(|e| e.name == ty.name) {
        return Some(e.width);
    }
    if let Some(n) = t.numbers.iter().find(|n| n.name == ty.name) {
        return Some(n.kind.width());
    }
    if let Some(l) = t.layouts.iter().find(|l| l.name == ty.name) {
        return Some(l.width);
    }
    cx.error(ty.span, format!("unknown type `{}`", ty.name))
        .label("not an enum, number format, layout or `bool`/`uN`/`sN`");
    None
}

/// The names an expression of an ABI layout may use.
struct Scope<'a> {
    params: &'a [ir::AbiParam],
    /// Inside an array member: `i` is the element.
    index: bool,
}

fn lower(cx: &mut Checker, scope: &Scope, e: &ast::Expr) -> Option<AbiExpr> {
    use ast::{BinOp as B, ExprKind as K};
    let bin = |a, b| (Box::new(a), Box::new(b));
    Some(match &e.kind {
        K::Int(v) => match i64::try_from(*v) {
            Ok(v) => AbiExpr::Int(v),
            Err(_) => {
                cx.error(e.span, "number too large");
                return None;
            }
        },
        K::Bool(b) => AbiExpr::Int(i64::from(*b)),
        K::Name(n) if n == "i" && scope.index => AbiExpr::Index,
        K::Name(n) => match scope.params.iter().position(|p| p.name == *n) {
            Some(k) => AbiExpr::Param(k),
            None => {
                let d = cx.error(e.span, format!("unknown name `{n}`"));
                d.label("not a parameter of this layout");
                if n == "i" {
                    d.note("`i` is the element of an array member: `name[count]: type @ position`");
                }
                return None;
            }
        },
        K::Unary(ast::UnOp::Not, a) => AbiExpr::Not(Box::new(lower(cx, scope, a)?)),
        K::Unary(ast::UnOp::Neg, a) => {
            let (z, a) = bin(AbiExpr::Int(0), lower(cx, scope, a)?);
            AbiExpr::Arith(ArithOp::Sub, z, a)
        }
        K::If(c, a, b) => AbiExpr::If(
            Box::new(lower(cx, scope, c)?),
            Box::new(lower(cx, scope, a)?),
            Box::new(lower(cx, scope, b)?),
        ),
        K::Binary(op, a, b) => {
            let (a, b) = (lower(cx, scope, a), lower(cx, scope, b));
            let (a, b) = bin(a?, b?);
            match op {
                B::And => AbiExpr::And(a, b),
                B::Or => AbiExpr::Or(a, b),
                B::Eq => AbiExpr::Cmp(CmpOp::Eq, a, b),
                B::Ne => AbiExpr::Cmp(CmpOp::Ne, a, b),
                B::Lt => AbiExpr::Cmp(CmpOp::Lt, a, b),
                B::Le => AbiExpr::Cmp(CmpOp::Le, a, b),
                B::Gt => AbiExpr::Cmp(CmpOp::Gt, a, b),
                B::Ge => AbiExpr::Cmp(CmpOp::Ge, a, b),
                B::Add => AbiExpr::Arith(ArithOp::Add, a, b),
                B::Sub => AbiExpr::Arith(ArithOp::Sub, a, b),
                B::Mul => AbiExpr::Arith(ArithOp::Mul, a, b),
                B::Div => AbiExpr::Arith(ArithOp::Div, a, b),
                B::Rem => AbiExpr::Arith(ArithOp::Rem, a, b),
                B::BitAnd => AbiExpr::Arith(ArithOp::BitAnd, a, b),
                B::BitOr => AbiExpr::Arith(ArithOp::BitOr, a, b),
                B::BitXor => AbiExpr::Arith(ArithOp::BitXor, a, b),
                B::Shl => AbiExpr::Arith(ArithOp::Shl, a, b),
                B::Shr => AbiExpr::Arith(ArithOp::Shr, a, b),
            }
        }
        _ => {
            cx.error(e.span, "not an expression of the layout's parameters")
                .note("ABI layouts compute with their parameters, numbers, `i`, arithmetic, comparisons and `if ... then ... else ...`");
            return None;
        }
    })
}

/// Places every member for every parameter value: the size is not negative, every member lies
/// inside the layout, and no two members share a unit. Reports the first value that breaks
/// each rule, once per member.
fn check_every_value(
    cx: &mut Checker,
    t: &ir::Target,
    l: &ir::AbiLayout,
    size_expr: &ast::Expr,
    members: &[(ir::AbiMember, Span)],
) {
    let unit = l.unit.map(|u| &t.units[u.0]);
    let unit_name = unit.map_or("bit", |u| u.name.as_str());
    let place = |offset: i64, length: i64| -> String {
        match unit.and_then(|u| u.register_names(offset as u64, length as u64)) {
            Some(names) => names,
            None => format!("`{unit_name}` units {offset}..{}", offset + length - 1),
        }
    };
    let mut reported = vec![false; members.len() + 1];
    let mut values: Vec<i64> = l.params.iter().map(|p| p.ty.range().0).collect();
    loop {
        let with = describe_values(l, &values);
        match l.size.eval(&values, 0) {
            Some(size) if size >= 0 => {
                // (first unit, end, member, element) of every present member.
                let mut taken: Vec<(i64, i64, usize, Option<i64>)> = Vec::new();
                for (k, (m, span)) in members.iter().enumerate() {
                    let present = m.when.as_ref().map_or(Some(true), |w| w.eval(&values, 0).map(|v| v != 0));
                    let count = m.count.as_ref().map_or(Some(1), |c| c.eval(&values, 0));
                    let (Some(present), Some(count)) = (present, count) else {
                        if !std::mem::replace(&mut reported[k], true) {
                            cx.error(
                                *span,
                                format!("{with}: this member's count or condition cannot be computed"),
                            )
                            .note("an overflow or a division by zero");
                        }
                        continue;
                    };
                    if !present {
                        continue;
                    }
                    if count < 0 && !std::mem::replace(&mut reported[k], true) {
                        cx.error(*span, format!("{with}: the array has {count} elements"));
                    }
                    for i in 0..count.max(0) {
                        let element = m.count.as_ref().map(|_| i);
                        let (offset, length) = (m.offset.eval(&values, i), m.length.eval(&values, i));
                        let what = member_name(m, element);
                        match (offset, length) {
                            (Some(o), Some(len)) if o >= 0 && len > 0 && o + len <= size => {
                                taken.push((o, o + len, k, element));
                            }
                            (Some(o), Some(len)) if o >= 0 && len > 0 => {
                                if !std::mem::replace(&mut reported[k], true) {
                                    let extent = match size {
                                        0 => String::new(),
                                        1 => format!(": {}", place(0, 1)),
                                        _ => format!(": {} to {}", place(0, 1), place(size - 1, 1)),
                                    };
                                    cx.error(
                                        *span,
                                        format!(
                                            "{with}: {what} at {} lies outside the layout",
                                            place(o, len)
                                        ),
                                    )
                                    .label(format!("the layout is {size} `{unit_name}` units{extent}"));
                                }
                                break;
                            }
                            _ => {
                                if !std::mem::replace(&mut reported[k], true) {
                                    cx.error(*span, format!("{with}: {what} has no place (offset {offset:?}, length {length:?} `{unit_name}` units)"))
                                        .note("positions are at least 0 and lengths at least 1");
                                }
                                break;
                            }
                        }
                    }
                }
                taken.sort_unstable();
                for pair in taken.windows(2) {
                    let ((a_lo, a_end, a, ai), (b_lo, b_end, b, bi)) = (pair[0], pair[1]);
                    if b_lo < a_end && !std::mem::replace(&mut reported[b], true) {
                        let (ma, mb) = (&members[a], &members[b]);
                        cx.error(
                            mb.1,
                            format!(
                                "{with}: {} at {} overlaps {} at {}",
                                member_name(&mb.0, bi),
                                place(b_lo, b_end - b_lo),
                                member_name(&ma.0, ai),
                                place(a_lo, a_end - a_lo)
                            ),
                        )
                        .with(ma.1, "this member");
                    }
                }
            }
            _ => {
                if !std::mem::replace(&mut reported[members.len()], true) {
                    cx.error(
                        size_expr.span,
                        format!("{with}: the size is not a number of `{unit_name}` units"),
                    )
                    .note("it is negative, overflows or divides by zero");
                }
            }
        }
        if cx.is_full() || !next_values(l, &mut values) {
            break;
        }
    }
}

/// `a[i]`, `a` or `reserved units`.
fn member_name(m: &ir::AbiMember, element: Option<i64>) -> String {
    let name = m.name.as_deref().unwrap_or("reserved");
    match element {
        Some(i) => format!("`{name}[{i}]`"),
        None => format!("`{name}`"),
    }
}

/// `with n = 3, compute = true` (or `for the layout` without parameters).
fn describe_values(l: &ir::AbiLayout, values: &[i64]) -> String {
    if l.params.is_empty() {
        return format!("in `{}`", l.name);
    }
    let parts: Vec<String> = l
        .params
        .iter()
        .zip(values)
        .map(|(p, v)| match p.ty {
            ir::AbiParamType::Bool => format!("{} = {}", p.name, *v != 0),
            ir::AbiParamType::UInt { .. } => format!("{} = {v}", p.name),
        })
        .collect();
    format!("with {}", parts.join(", "))
}

/// Steps to the next combination of parameter values (the last parameter fastest); false after
/// the last.
fn next_values(l: &ir::AbiLayout, values: &mut [i64]) -> bool {
    for (p, v) in l.params.iter().zip(values.iter_mut()).rev() {
        let (lo, hi) = p.ty.range();
        if *v < hi {
            *v += 1;
            return true;
        }
        *v = lo;
    }
    false
}
