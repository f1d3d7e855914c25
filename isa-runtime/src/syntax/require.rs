//! Making a condition come out true or false while a statement is read: what the quick reader
//! and the generated readers (`fast`) share. The assignments a condition makes whatever the
//! defaults are made at once (a one-bit field, `field == value`, conjunctions of them); the rest
//! is kept as a check for the end of the reading.

use super::eval::{bind, eval, Bound};
use super::tree::Slot;
use super::tree::{Cmp, Expr};

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
