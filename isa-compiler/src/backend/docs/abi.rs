//! The view model of units and ABI layouts: each member's position, length and condition as
//! expressions of the parameters, and worked tables in register names for example values.

use super::render::code;
use crate::ir::{self, AbiExpr, AbiParamType, ArithOp};

/// A unit of ABI layouts.
pub(super) struct Unit {
    pub(super) name: String,
    pub(super) bits: u32,
    pub(super) names: String,
    pub(super) doc: String,
}

/// An ABI layout: its parameters, its size and member table as expressions, and examples.
pub(super) struct AbiLayout {
    pub(super) name: String,
    pub(super) anchor: String,
    pub(super) doc: String,
    pub(super) params: String,
    pub(super) unit: String,
    pub(super) size: String,
    pub(super) rows: Vec<Row>,
    pub(super) examples: Vec<Example>,
}

/// One member: where it lies as expressions of the parameters.
pub(super) struct Row {
    pub(super) member: String,
    pub(super) ty: String,
    pub(super) position: String,
    pub(super) length: String,
    pub(super) when: String,
    pub(super) doc: String,
}

/// The layout for one choice of parameters.
pub(super) struct Example {
    pub(super) values: String,
    pub(super) size: String,
    pub(super) rows: Vec<ExampleRow>,
}

pub(super) struct ExampleRow {
    pub(super) member: String,
    pub(super) place: String,
    pub(super) position: String,
    pub(super) bits: String,
}

pub(super) fn units(t: &ir::Target) -> Vec<Unit> {
    t.units
        .iter()
        .map(|u| Unit {
            name: code(&u.name),
            bits: u.bits,
            names: match &u.registers {
                Some(r) => {
                    let sample = [(0, 1), (1, 1), (0, u64::from(r.units)), (0, 2 * u64::from(r.units))];
                    let mut names: Vec<String> = sample
                        .iter()
                        .filter_map(|&(o, l)| u.register_names(o, l))
                        .map(|n| code(&n))
                        .collect();
                    names.dedup();
                    names.join(", ")
                }
                None => "—".to_string(),
            },
            doc: u.doc.clone(),
        })
        .collect()
}

pub(super) fn abi_layout(t: &ir::Target, l: &ir::AbiLayout, anchor: String) -> AbiLayout {
    let unit = l.unit.map(|u| &t.units[u.0]);
    let unit_text = unit.map_or("bits".to_string(), |u| format!("{}-bit {} units", u.bits, code(&u.name)));
    let params = if l.params.is_empty() {
        "none".to_string()
    } else {
        l.params
            .iter()
            .map(|p| match p.ty {
                AbiParamType::Bool => format!("{}: bool", code(&p.name)),
                AbiParamType::UInt { min, max, .. } => format!("{} in {min}..={max}", code(&p.name)),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let rows = l
        .members
        .iter()
        .map(|m| {
            let name = m.name.clone().unwrap_or_else(|| "reserved".into());
            Row {
                member: match &m.count {
                    Some(c) => code(&format!("{name}[{}]", expr(l, c))),
                    None => code(&name),
                },
                ty: m.type_name.as_deref().map_or("reserved".to_string(), code),
                position: code(&expr(l, &m.offset)),
                length: code(&expr(l, &m.length)),
                when: m.when.as_ref().map_or(String::new(), |w| code(&expr(l, w))),
                doc: m.doc.clone(),
            }
        })
        .collect();
    AbiLayout {
        name: l.name.clone(),
        anchor,
        doc: l.doc.clone(),
        params,
        unit: unit_text,
        size: code(&expr(l, &l.size)),
        rows,
        examples: example_values(l).iter().map(|v| example(l, unit, v)).collect(),
    }
}

/// The values shown worked out: integers at 3 (or the nearest in range), booleans false then
/// true.
fn example_values(l: &ir::AbiLayout) -> Vec<Vec<i64>> {
    let base: Vec<i64> = l
        .params
        .iter()
        .map(|p| match p.ty {
            AbiParamType::Bool => 0,
            AbiParamType::UInt { .. } => 3.clamp(p.ty.range().0, p.ty.range().1),
        })
        .collect();
    let has_bool = l.params.iter().any(|p| p.ty == AbiParamType::Bool);
    let mut all_true = base.clone();
    for (v, p) in all_true.iter_mut().zip(&l.params) {
        if p.ty == AbiParamType::Bool {
            *v = 1;
        }
    }
    if has_bool {
        vec![base, all_true]
    } else {
        vec![base]
    }
}

fn example(l: &ir::AbiLayout, unit: Option<&ir::Unit>, values: &[i64]) -> Example {
    let place = |offset: i64, length: i64| -> String {
        unit.and_then(|u| u.register_names(offset as u64, length as u64))
            .map_or_else(|| format!("{offset}..{}", offset + length - 1), |n| code(&n))
    };
    let size = l.size.eval(values, 0).unwrap_or(0);
    let mut rows = Vec::new();
    for m in &l.members {
        if m.when.as_ref().is_some_and(|w| w.eval(values, 0) == Some(0)) {
            continue;
        }
        let count = m.count.as_ref().map_or(Some(1), |c| c.eval(values, 0)).unwrap_or(0);
        for i in 0..count {
            let (Some(o), Some(len)) = (m.offset.eval(values, i), m.length.eval(values, i)) else { continue };
            let name = m.name.as_deref().unwrap_or("reserved");
            let bits = unit.map_or(1, |u| i64::from(u.bits));
            rows.push(ExampleRow {
                member: code(&match m.count {
                    Some(_) => format!("{name}[{i}]"),
                    None => name.to_string(),
                }),
                place: place(o, len),
                position: if len == 1 { o.to_string() } else { format!("{o}..{}", o + len - 1) },
                bits: format!("{}", len * bits),
            });
        }
    }
    let values_text = l
        .params
        .iter()
        .zip(values)
        .map(|(p, v)| match p.ty {
            AbiParamType::Bool => format!("{} = {}", p.name, *v != 0),
            AbiParamType::UInt { .. } => format!("{} = {v}", p.name),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let size_text = match size {
        0 => "0".to_string(),
        1 => format!("1 ({})", place(0, 1)),
        s => format!("{s} ({} to {})", place(0, 1), place(s - 1, 1)),
    };
    Example { values: values_text, size: size_text, rows }
}

/// Binding strength, loosest first, for parentheses.
fn strength(e: &AbiExpr) -> u8 {
    match e {
        AbiExpr::If(..) => 0,
        AbiExpr::Or(..) => 1,
        AbiExpr::And(..) => 2,
        AbiExpr::Cmp(..) => 3,
        AbiExpr::Arith(op, ..) => match op {
            ArithOp::BitOr => 4,
            ArithOp::BitXor => 5,
            ArithOp::BitAnd => 6,
            ArithOp::Shl | ArithOp::Shr => 7,
            ArithOp::Add | ArithOp::Sub => 8,
            ArithOp::Mul | ArithOp::Div | ArithOp::Rem => 9,
        },
        AbiExpr::Not(_) => 10,
        AbiExpr::Int(_) | AbiExpr::Param(_) | AbiExpr::Index => 11,
    }
}

/// An expression as the documents write it: `6n + 5`, `4(i + 1)`, `if compute then ... else ...`.
pub(super) fn expr(l: &ir::AbiLayout, e: &AbiExpr) -> String {
    let sub = |x: &AbiExpr, min: u8| {
        let text = expr(l, x);
        if strength(x) < min {
            format!("({text})")
        } else {
            text
        }
    };
    match e {
        AbiExpr::Int(v) => v.to_string(),
        AbiExpr::Param(k) => l.params.get(*k).map_or("?".into(), |p| p.name.clone()),
        AbiExpr::Index => "i".into(),
        AbiExpr::Not(a) => format!("!{}", sub(a, 10)),
        AbiExpr::And(a, b) => format!("{} && {}", sub(a, 2), sub(b, 3)),
        AbiExpr::Or(a, b) => format!("{} || {}", sub(a, 1), sub(b, 2)),
        AbiExpr::Cmp(op, a, b) => {
            let op = op.symbol();
            format!("{} {op} {}", sub(a, 4), sub(b, 4))
        }
        AbiExpr::Arith(ArithOp::Mul, a, b)
            if matches!(**a, AbiExpr::Int(_)) && matches!(**b, AbiExpr::Param(_) | AbiExpr::Index) =>
        {
            // A coefficient before a name or a parenthesis: `6n`, `4(i + 1)`.
            format!("{}{}", expr(l, a), expr(l, b))
        }
        AbiExpr::Arith(ArithOp::Mul, a, b) if matches!(**a, AbiExpr::Int(_)) && strength(b) == 8 => {
            format!("{}({})", expr(l, a), expr(l, b))
        }
        AbiExpr::Arith(op, a, b) => {
            let s = strength(e);
            let op = match op {
                ArithOp::Add => "+",
                ArithOp::Sub => "-",
                ArithOp::Mul => "*",
                ArithOp::Div => "/",
                ArithOp::Rem => "%",
                ArithOp::BitAnd => "&",
                ArithOp::BitOr => "|",
                ArithOp::BitXor => "^",
                ArithOp::Shl => "<<",
                ArithOp::Shr => ">>",
            };
            format!("{} {op} {}", sub(a, s), sub(b, s + 1))
        }
        AbiExpr::If(c, a, b) => format!("if {} then {} else {}", expr(l, c), expr(l, a), expr(l, b)),
    }
}
