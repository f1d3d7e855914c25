//! What the quick reader's checks force on fields not known yet: `field == value` or
//! `field != value` facts, whose contradictions end a reading before its end (a reading the
//! search would read to its end and fail in its choices).

use super::eval::{bind, bound_value, eval, Bound};
use super::tree::{Cmp, Expr, Slot};
use alloc::vec::Vec;

/// A field's value forced by conditions that must hold: (field, equal, value) for
/// `field == value` (equal) or `field != value`.
pub(super) type Fact = (Slot, bool, u64);

/// The two fields `e`, a condition that must come out `want`, makes equal when both are not
/// known yet (`a == b`, or `a != b` that must not hold).
pub(super) fn equal_pair(
    fields: &[crate::format::FieldInfo],
    e: &Expr,
    want: bool,
    frame: &[Bound],
    vals: &[Option<u64>],
) -> Option<(Slot, Slot)> {
    let (a, b) = match (e, want) {
        (Expr::Cmp(Cmp::Eq, a, b), true) | (Expr::Cmp(Cmp::Ne, a, b), false) => (a, b),
        _ => return None,
    };
    let slot = |x: &Expr| match x {
        Expr::Field(_) | Expr::Param(_) => match bind(x, frame) {
            Bound::Slot(s) if vals[s as usize].is_none() && !fields[s as usize].view => Some(s),
            _ => None,
        },
        _ => None,
    };
    Some((slot(a)?, slot(b)?))
}

/// Adds to `facts` what `e`, a condition that must come out `want`, forces on the fields not
/// known yet, given those known (`vals`) and the pairs of unknown fields made equal (`same`):
/// `field == value` or `field != value` where the condition cannot hold otherwise (a flag it
/// needs; of `a && b` that must not hold with `a` true, what makes `b` false). False when the
/// condition is already false, or a fact contradicts one already there: no values of the
/// unknown fields then satisfy every condition, and the reading fails whatever follows.
/// Every fact follows from a condition the reading must satisfy, so a reading this fails is
/// one no search completes.
#[allow(clippy::too_many_arguments)]
pub(super) fn force(
    fields: &[crate::format::FieldInfo],
    pc: u64,
    e: &Expr,
    want: bool,
    frame: &[Bound],
    vals: &[Option<u64>],
    same: &[(Slot, Slot)],
    facts: &mut Vec<Fact>,
) -> bool {
    let named = |x: &Expr| matches!(x, Expr::Field(_) | Expr::Param(_));
    match e {
        Expr::Not(x) => force(fields, pc, x, !want, frame, vals, same, facts),
        Expr::And(xs) | Expr::Or(xs) if matches!(e, Expr::And(_)) == want => {
            xs.iter().all(|x| force(fields, pc, x, want, frame, vals, same, facts))
        }
        Expr::And(xs) | Expr::Or(xs) => {
            // Some part must come out `want`: none can, a contradiction; one only, that one.
            let mut open = None;
            for x in xs.iter() {
                match same_value(x, frame, vals, same, pc) {
                    Some(v) if (v != 0) == want => return true,
                    Some(_) => {}
                    None if open.is_some() => return true,
                    None => open = Some(x),
                }
            }
            open.is_some_and(|x| force(fields, pc, x, want, frame, vals, same, facts))
        }
        Expr::Field(_) | Expr::Param(_) => match bind(e, frame) {
            Bound::Slot(s) | Bound::NotSlot(s) if vals[s as usize].is_none() => {
                // `f` is `f != 0`, `!f` is `f == 0`.
                let equal = matches!(bind(e, frame), Bound::NotSlot(_)) == want;
                fact(fields, s, equal, 0, vals, facts)
            }
            b => bound_value(b, vals).is_none_or(|v| (v != 0) == want),
        },
        Expr::Cmp(op @ (Cmp::Eq | Cmp::Ne), a, b) => {
            let equal = (*op == Cmp::Eq) == want;
            let (x, v) = match (eval(a, frame, vals, pc), eval(b, frame, vals, pc)) {
                (Some(x), Some(y)) => return (x == y) == equal,
                (None, Some(v)) if named(a) => (a, v),
                (Some(v), None) if named(b) => (b, v),
                _ => return same_value(e, frame, vals, same, pc).is_none_or(|v| (v != 0) == want),
            };
            match (bind(x, frame), v) {
                (Bound::Slot(s), 0..) => fact(fields, s, equal, v as u64, vals, facts),
                // `!f == 1` is `f == 0`; `!f == 0` is `f != 0`.
                (Bound::NotSlot(s), 0 | 1) => fact(fields, s, equal == (v == 1), 0, vals, facts),
                _ => true,
            }
        }
        _ => eval(e, frame, vals, pc).is_none_or(|v| (v != 0) == want),
    }
}

/// [`eval`], with two unknown fields that `same` makes equal compared as equal.
#[inline(always)]
pub(super) fn same_value(
    x: &Expr,
    frame: &[Bound],
    vals: &[Option<u64>],
    same: &[(Slot, Slot)],
    pc: u64,
) -> Option<i64> {
    if !same.is_empty() {
        if let Some(v) = same_pair(x, frame, vals, same) {
            return Some(v);
        }
    }
    eval(x, frame, vals, pc)
}

/// [`same_value`] of a comparison of two unknown fields that `same` makes equal; `None` for
/// anything else.
#[inline(always)]
fn same_pair(x: &Expr, frame: &[Bound], vals: &[Option<u64>], same: &[(Slot, Slot)]) -> Option<i64> {
    if let Expr::Cmp(op @ (Cmp::Eq | Cmp::Ne), a, b) = x {
        if let (Expr::Field(_) | Expr::Param(_), Expr::Field(_) | Expr::Param(_)) = (&**a, &**b) {
            if let (Bound::Slot(s), Bound::Slot(t)) = (bind(a, frame), bind(b, frame)) {
                if vals[s as usize].is_none()
                    && vals[t as usize].is_none()
                    && same.iter().any(|&p| p == (s, t) || p == (t, s))
                {
                    return Some((*op == Cmp::Eq) as i64);
                }
            }
        }
    }
    None
}

/// Adds the fact `field s == v` (`equal`) or `!= v` to `facts` ([`force`]), unless the field
/// is known or a view; false when a fact there contradicts it.
fn fact(
    fields: &[crate::format::FieldInfo],
    s: Slot,
    equal: bool,
    v: u64,
    vals: &[Option<u64>],
    facts: &mut Vec<Fact>,
) -> bool {
    let field = &fields[s as usize];
    if field.view || vals[s as usize].is_some() {
        return true;
    }
    // A flag that is not one value is the other.
    let (equal, v) = match crate::bits::width(field.pieces) == 1 && !equal && v <= 1 {
        true => (true, 1 - v),
        false => (equal, v),
    };
    for &(t, e, w) in facts.iter() {
        if t == s {
            if (equal && e && w != v) || (equal != e && w == v) {
                return false;
            }
            if e == equal && w == v {
                return true;
            }
        }
    }
    facts.push((s, equal, v));
    true
}
