//! What the quick reader and the generated readers (`fast`) share of a reading: making a
//! condition come out true or false while the statement is read (the assignments it makes
//! whatever the defaults at once: a one-bit field, `field == value`, conjunctions of them; the
//! rest kept as a check), what giving a value to a binding means for its field, and carrying
//! values over the checks' equalities when it is settled.

use super::eval::{bind, bound_value, eval, Bound};
use super::tree::Slot;
use super::tree::{Cmp, Expr};

/// What giving a value to a binding means ([`giving`]).
pub(super) enum Giving {
    /// A constant: whether it is the value.
    Decided(bool),
    /// A view, which a reading does not assign (the search writes it back into its fields).
    View,
    /// The field takes this value (one it may hold), unless it has another already.
    Field(Slot, u64),
}

/// What giving `v` to `b` means: a constant must be `v`, a negated flag takes `1 - v`, a
/// value the field cannot hold is refused (`Decided(false)`).
#[inline]
pub(super) fn giving(fields: &[crate::format::FieldInfo], b: Bound, v: u64) -> Giving {
    let slot = match b {
        Bound::Const(c) => return Giving::Decided(c as u64 == v),
        Bound::Slot(s) | Bound::NotSlot(s) => s,
    };
    let field = &fields[slot as usize];
    if field.view {
        return Giving::View;
    }
    let v = match b {
        Bound::NotSlot(_) if v > 1 => return Giving::Decided(false),
        Bound::NotSlot(_) => 1 - v,
        _ => v,
    };
    match super::solve::holds(field, v) {
        true => Giving::Field(slot, v),
        false => Giving::Decided(false),
    }
}

/// A reading a condition is required of: its values so far, how it assigns a field and keeps a
/// check, and how it finds a frame's bindings.
pub(super) trait Reading {
    /// Where a template's parameters are bound.
    type Frame: Copy;
    fn frame(&self, f: Self::Frame) -> &[Bound];
    /// The values given so far, by field.
    fn vals(&self) -> &[Option<u64>];
    /// The address the statement is read at.
    fn pc(&self) -> u64;
    /// The width of field `slot`.
    fn width(&self, slot: Slot) -> u32;
    /// Gives a field a value: false where that contradicts a value given or what the field holds.
    fn assign(&mut self, b: Bound, v: u64) -> bool;
    /// Keeps `e == want` for the end of the reading: false when it cannot be kept.
    fn check(&mut self, e: &'static Expr, want: bool, f: Self::Frame) -> bool;
}

/// Makes `e` come out `want` in `r`: false when an assignment contradicts a value already given.
pub(super) fn require<R: Reading>(r: &mut R, e: &'static Expr, want: bool, f: R::Frame) -> bool {
    let named = |x: &Expr| matches!(x, Expr::Field(_) | Expr::Param(_));
    match e {
        Expr::Not(x) => return require(r, x, !want, f),
        Expr::And(xs) if want => return xs.iter().all(|x| require(r, x, true, f)),
        Expr::Or(xs) if !want => return xs.iter().all(|x| require(r, x, false, f)),
        Expr::Field(_) | Expr::Param(_) => {
            let b = bind(e, r.frame(f));
            match b {
                Bound::Const(c) => return (c != 0) == want,
                Bound::Slot(s) | Bound::NotSlot(s) if r.width(s) == 1 => return r.assign(b, want as u64),
                _ => {}
            }
        }
        Expr::Cmp(op, a, c) if (*op == Cmp::Eq && want) || (*op == Cmp::Ne && !want) => {
            // As the search: a field compared with what the values known give takes it.
            let (pc, frame, vals) = (r.pc(), r.frame(f), r.vals());
            let target = match (&**a, &**c) {
                (x, Expr::Int(v)) if named(x) => Some((x, *v)),
                (Expr::Int(v), x) if named(x) => Some((x, *v)),
                (x, y) if named(x) && eval(x, frame, vals, pc).is_none() => {
                    eval(y, frame, vals, pc).map(|v| (x, v))
                }
                (y, x) if named(x) && eval(x, frame, vals, pc).is_none() => {
                    eval(y, frame, vals, pc).map(|v| (x, v))
                }
                _ => None,
            };
            if let Some((x, v)) = target {
                let b = bind(x, r.frame(f));
                return r.assign(b, v as u64);
            }
        }
        _ => {}
    }
    r.check(e, want, f)
}

/// Carries values over the equalities among `checks` (`a == b`, or `a != b` to come out false,
/// between two fields) into `settled`, until none changes: a field the text did not give takes
/// the value of one it did. False where a view or a negated bit would have to take a value.
pub(super) fn carry_equalities<'f, I>(
    fields: &[crate::format::FieldInfo],
    settled: &mut [Option<u64>],
    checks: impl Fn() -> I,
) -> bool
where
    I: Iterator<Item = (&'static Expr, bool, &'f [Bound])>,
{
    let named = |x: &Expr| matches!(x, Expr::Field(_) | Expr::Param(_));
    let mut changed = true;
    while changed {
        changed = false;
        for (e, want, frame) in checks() {
            let (a, b) = match (e, want) {
                (Expr::Cmp(Cmp::Eq, a, b), true) | (Expr::Cmp(Cmp::Ne, a, b), false) => (a, b),
                _ => continue,
            };
            if !named(a) || !named(b) {
                continue;
            }
            let (x, y) = (bind(a, frame), bind(b, frame));
            let (to, v) = match (bound_value(x, settled), bound_value(y, settled)) {
                (Some(v), None) => (y, v as u64),
                (None, Some(v)) => (x, v as u64),
                _ => continue,
            };
            let (slot, v) = match to {
                Bound::Const(_) => continue,
                Bound::Slot(s) => (s, v),
                Bound::NotSlot(_) if v > 1 => return false,
                Bound::NotSlot(s) => (s, 1 - v),
            };
            if fields[slot as usize].view {
                return false;
            }
            settled[slot as usize] = Some(v);
            changed = true;
        }
    }
    true
}
