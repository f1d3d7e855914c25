//! The printer: writes the first arm whose guard holds (the disassembler's direction), and the
//! number styles' writers that generated printers share.

use super::eval::{bind, bound_value, eval, Bound};
use super::tree::{Expr, Item, Num, Show, Syntax};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

/// Prints the instruction whose raw field values are `values` with `syntax`. Returns whether
/// the text is complete: false when no arm applied or a value had no spelling (the text then
/// holds a placeholder, and callers fall back to the dialect's raw directive or an error).
pub fn print(syntax: &Syntax, values: &[u64], pc: u64, out: &mut String) -> bool {
    let vals: Vec<Option<u64>> = values.iter().map(|v| Some(*v)).collect();
    let mut p = Printer { vals: &vals, pc, complete: true, shown: None };
    let _ = p.syntax(syntax, &[], out);
    p.complete
}

/// [`print`], also telling where each field's value was shown: for every field (by index)
/// the byte offset in `out` just after its first shown value, `None` where it was not shown.
/// A listing puts marks after the operands holding fields (nvdisasm's `R4.reuse`).
pub fn print_showing(
    syntax: &Syntax,
    values: &[u64],
    pc: u64,
    out: &mut String,
) -> (bool, Vec<Option<usize>>) {
    let vals: Vec<Option<u64>> = values.iter().map(|v| Some(*v)).collect();
    let mut p = Printer { vals: &vals, pc, complete: true, shown: Some(alloc::vec![None; values.len()]) };
    let _ = p.syntax(syntax, &[], out);
    (p.complete, p.shown.unwrap_or_default())
}

pub(super) struct Printer<'a> {
    pub(super) vals: &'a [Option<u64>],
    pub(super) pc: u64,
    pub(super) complete: bool,
    /// Where each field's value ended in the text, when asked for ([`print_showing`]).
    pub(super) shown: Option<Vec<Option<usize>>>,
}

impl Printer<'_> {
    fn holds(&self, e: &Expr, frame: &[Bound]) -> bool {
        eval(e, frame, self.vals, self.pc).unwrap_or(0) != 0
    }

    fn syntax(&mut self, syntax: &Syntax, frame: &[Bound], out: &mut String) -> fmt::Result {
        for arm in syntax.arms.iter().filter(|a| !a.alias) {
            if arm.guard.is_none_or(|g| self.holds(g, frame)) {
                return self.items(arm.items, frame, out);
            }
        }
        self.complete = false;
        write!(out, "<{}?>", syntax.name)
    }

    fn items(&mut self, items: &[Item], frame: &[Bound], out: &mut String) -> fmt::Result {
        for item in items {
            match item {
                Item::Lit(s) => out.push_str(s),
                Item::Show(e, show) => {
                    let v = match e {
                        Expr::Arith(..) | Expr::If(..) => eval(e, frame, self.vals, self.pc),
                        _ => bound_value(bind(e, frame), self.vals),
                    };
                    self.show(v.unwrap_or(0) as u64, show, frame, out)?;
                    if let (Some(shown), Bound::Slot(slot)) = (self.shown.as_mut(), bind(e, frame)) {
                        if let Some(at @ None) = shown.get_mut(usize::from(slot)) {
                            *at = Some(out.len());
                        }
                    }
                }
                Item::Call(sub, args) => {
                    let inner: Vec<Bound> = args.iter().map(|a| bind(a, frame)).collect();
                    self.syntax(sub, &inner, out)?;
                }
                Item::Opt(cond, body) => {
                    if self.holds(cond, frame) {
                        self.items(body, frame, out)?;
                    }
                }
                Item::AnyOrder(sep, groups) => {
                    let mut written = false;
                    for g in groups.iter() {
                        match g {
                            Item::Opt(cond, body) if self.holds(cond, frame) => {
                                if core::mem::replace(&mut written, true) {
                                    out.push_str(sep);
                                }
                                self.items(body, frame, out)?;
                            }
                            Item::Opt(..) => {}
                            other => self.items(core::slice::from_ref(other), frame, out)?,
                        }
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn show(&mut self, v: u64, show: &Show, frame: &[Bound], out: &mut String) -> fmt::Result {
        let table = match show {
            Show::Table(t) => t,
            Show::TableIf(c, a, e) => {
                if self.holds(c, frame) {
                    a
                } else {
                    e
                }
            }
            Show::Num(Num::Target { bits, base, upper }) => {
                let base = eval(base, frame, self.vals, self.pc).unwrap_or(0) as i128;
                let target = base + crate::bits::sign_extend(v, *bits) as i128;
                return if *upper { write_hex_upper(target, out) } else { write_hex_value(target, out) };
            }
            Show::Num(n) => return write_number(v, *n, out),
        };
        match table.write(v, out) {
            Some(r) => r,
            None => {
                self.complete = false;
                write!(out, "<{}?{v}>", table.name)
            }
        }
    }
}

/// Writes `v` in number style `n` (a [`Num::Target`] as its displacement alone).
pub fn write_number(v: u64, n: Num, out: &mut dyn Write) -> fmt::Result {
    match n {
        Num::Dec => write!(out, "{v}"),
        Num::DecPadded { digits } => write!(out, "{v:0w$}", w = digits as usize),
        Num::Signed { bits, plus } => {
            let s = crate::bits::sign_extend(v, bits);
            if plus && s >= 0 {
                out.write_char('+')?;
            }
            write!(out, "{s}")
        }
        Num::Label { bits, .. } => write!(out, "{}", crate::bits::sign_extend(v, bits)),
        Num::Hex { digits, prefix, upper } => {
            if prefix {
                out.write_str("0x")?;
            }
            if upper {
                write!(out, "{v:0width$X}", width = digits as usize)
            } else {
                write!(out, "{v:0width$x}", width = digits as usize)
            }
        }
        Num::Bin { digits } => write!(out, "{v:0width$b}", width = digits as usize),
        Num::CFloat => crate::number::write_c_f(out, v as u32),
        Num::HexValue { bits, signed, scale } => {
            let x = if signed { crate::bits::sign_extend(v, bits) as i128 } else { v as i128 };
            write_hex_value(x * scale as i128, out)
        }
        Num::Decimal { format } => format.write_decimal(v, out).unwrap_or(Err(fmt::Error)),
        Num::Float { format, precision, exponent } => {
            let x = format.decode(v);
            if exponent {
                crate::number::write_c_e(out, x, precision as usize)
            } else {
                crate::number::write_c_g(out, x, precision as usize)
            }
        }
        Num::Target { bits, upper: false, .. } => {
            write_hex_value(crate::bits::sign_extend(v, bits) as i128, out)
        }
        Num::Target { bits, upper: true, .. } => {
            write_hex_upper(crate::bits::sign_extend(v, bits) as i128, out)
        }
    }
}

/// Writes `0x1F`, `0x-20`: upper-case digits and the sign after the prefix, as Python's
/// `'0x%X' % x` writes them (applegpu's branch targets). [`scan_integer`](super::scan::scan_integer) reads both back.
pub fn write_hex_upper(x: i128, out: &mut dyn Write) -> fmt::Result {
    if x < 0 {
        write!(out, "0x-{:X}", x.unsigned_abs())
    } else {
        write!(out, "0x{x:X}")
    }
}

/// Writes `0x1f`, `-0x20`.
pub fn write_hex_value(x: i128, out: &mut dyn Write) -> fmt::Result {
    if x < 0 {
        write!(out, "-0x{:x}", x.unsigned_abs())
    } else {
        write!(out, "0x{x:x}")
    }
}
