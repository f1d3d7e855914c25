//! What generated printers share.
//!
//! The Rust backend compiles every dialect's syntax of every encoding into a function that
//! writes a typed instruction's text straight into a [`fmt::Write`], with no allocation and no
//! walk over the static syntax tables. The interpreted engine ([`crate::syntax::print`]) stays
//! the reference: it prints words the typed decoder rejects, and the differential tests check
//! that both give the same text for every word. The small pieces every printer needs (numbers,
//! numbered names, a line buffer) are written once here rather than once per encoding.

use crate::syntax::{write_hex_upper, write_hex_value, Num};
use crate::target::Isa;
use alloc::string::String;
use core::fmt::{self, Write};

/// Why a generated printer stopped before the end of the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The writer failed.
    Write,
    /// The dialect has no text for this instruction: no arm of a syntax applies, or a value has
    /// no spelling (the engine's incomplete text). Callers fall back to the raw directive.
    Unshown,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stop::Write => "the writer failed",
            Stop::Unshown => "the dialect has no text for this instruction",
        })
    }
}

impl core::error::Error for Stop {}

impl From<fmt::Error> for Stop {
    fn from(_: fmt::Error) -> Self {
        Stop::Write
    }
}

/// Where a generated printer writes. Into a `String` the pieces go straight in, each a
/// `push_str`. Into any other writer the text is gathered on the stack and handed over in one
/// `write_str` when the printer ends ([`Out::flush`]) or the buffer fills: an instruction's text
/// is a few dozen short pieces (mnemonic, suffixes, register names, commas), and a dynamic call
/// on the writer for each cost more than the rest of the printer. Only whole `str`s go in, so
/// the buffer always holds UTF-8.
pub struct Out<'w> {
    to: To<'w>,
}

enum To<'w> {
    /// Appended to directly: no buffer to clear, check or copy (gathering into a buffer and
    /// copying the line into the `String` afterwards took a third of a VC4 word's printing).
    Text(&'w mut String),
    Gather {
        buf: [u8; OUT_BYTES],
        len: usize,
        sink: &'w mut dyn Write,
    },
}

/// The text an [`Out`] gathers before it writes to its writer: longer than any line of the
/// targets, so one instruction is one `write_str`.
const OUT_BYTES: usize = 128;

/// What a generated printer can write into: a `String` (appended to directly), a [`LineBuf`],
/// a `fmt::Formatter`, or any `dyn fmt::Write` (through a buffer on the stack).
pub trait Sink {
    /// The printer's view of `self`.
    fn out(&mut self) -> Out<'_>;
}

impl Sink for String {
    #[inline]
    fn out(&mut self) -> Out<'_> {
        Out { to: To::Text(self) }
    }
}

impl Sink for dyn Write + '_ {
    #[inline]
    fn out(&mut self) -> Out<'_> {
        Out::new(self)
    }
}

impl Sink for fmt::Formatter<'_> {
    #[inline]
    fn out(&mut self) -> Out<'_> {
        Out::new(self)
    }
}

impl Sink for LineBuf {
    #[inline]
    fn out(&mut self) -> Out<'_> {
        Out::new(self)
    }
}

impl<'w> Out<'w> {
    /// Nothing gathered yet; `sink` receives the text.
    #[inline]
    pub fn new(sink: &'w mut dyn Write) -> Self {
        Out { to: To::Gather { buf: [0; OUT_BYTES], len: 0, sink } }
    }

    /// Appends `s`.
    #[inline]
    pub fn str(&mut self, s: &str) -> Result<(), Stop> {
        match &mut self.to {
            To::Text(text) => {
                text.push_str(s);
                Ok(())
            }
            To::Gather { buf, len, .. } => {
                let end = *len + s.len();
                match buf.get_mut(*len..end) {
                    Some(dest) => {
                        dest.copy_from_slice(s.as_bytes());
                        *len = end;
                        Ok(())
                    }
                    None => self.spill(s),
                }
            }
        }
    }

    /// Appends `s` when the buffer cannot hold it: what it holds goes to the writer first.
    #[cold]
    fn spill(&mut self, s: &str) -> Result<(), Stop> {
        self.flush()?;
        if let To::Gather { buf, len, sink } = &mut self.to {
            match buf.get_mut(..s.len()) {
                Some(dest) => {
                    dest.copy_from_slice(s.as_bytes());
                    *len = s.len();
                }
                None => sink.write_str(s)?,
            }
        }
        Ok(())
    }

    /// Hands what was gathered to the writer.
    #[inline]
    pub fn flush(&mut self) -> Result<(), Stop> {
        let To::Gather { buf, len, sink } = &mut self.to else { return Ok(()) };
        if *len == 0 {
            return Ok(());
        }
        // Whole `str`s only were copied in: the bytes are UTF-8.
        let text = core::str::from_utf8(&buf[..*len]).unwrap_or("");
        *len = 0;
        Ok(sink.write_str(text)?)
    }
}

impl Write for Out<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.str(s).map_err(|_| fmt::Error)
    }
}

/// Writes `v` in number style `n` (any style but [`Num::Target`], which needs the address).
pub fn number(v: u64, n: Num, out: &mut dyn Write) -> Result<(), Stop> {
    Ok(crate::syntax::write_number(v, n, out)?)
}

/// Writes an `any_order`'s separator `sep` unless this is the first group `written`.
pub fn separator(written: &mut bool, sep: &str, out: &mut dyn Write) -> Result<(), Stop> {
    if core::mem::replace(written, true) {
        out.write_str(sep)?;
    }
    Ok(())
}

/// Writes a `bits`-wide pc-relative displacement `v` as the absolute address `base + v`.
pub fn target(base: i64, bits: u32, v: u64, out: &mut dyn Write) -> Result<(), Stop> {
    Ok(write_hex_value(base as i128 + crate::bits::sign_extend(v, bits) as i128, out)?)
}

/// Writes a `bits`-wide pc-relative displacement `v` as the absolute address `base + v` in
/// upper-case hex, the sign after the prefix (`0x1A`, `0x-A`).
pub fn target_upper(base: i64, bits: u32, v: u64, out: &mut dyn Write) -> Result<(), Stop> {
    Ok(write_hex_upper(base as i128 + crate::bits::sign_extend(v, bits) as i128, out)?)
}

/// Writes a numbered name (`r12`): `prefix`, `n` in decimal, `suffix`.
pub fn numbered(prefix: &str, n: i64, suffix: &str, out: &mut dyn Write) -> Result<(), Stop> {
    out.write_str(prefix)?;
    write!(out, "{n}")?;
    Ok(out.write_str(suffix)?)
}

/// `Display` of a generated instruction: its text in the default dialect, through the
/// compiled printer into a line on the stack. One the dialect cannot show, or whose line is too
/// long, prints as [`crate::target::disassemble`] prints it (the raw directive where the syntax
/// cannot show it); one whose fields do not encode has no text and shows its fields (`Debug`).
/// Never an error message in place of an instruction: callers that want the error call
/// `encode`.
pub fn display<T: Isa>(insn: &T::Instruction, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let mut line = LineBuf::new();
    if T::encode(insn).is_ok() && T::write_text(insn, 0, 0, &mut line).is_ok() {
        let d = &T::dialects()[0];
        f.write_str(line.as_str())?;
        f.write_str(d.end.unwrap_or(""))?;
        return f.write_str(d.separator.unwrap_or(""));
    }
    match crate::target::disassemble::<T>(insn, 0, 0) {
        Ok(text) => f.write_str(&text),
        Err(_) => write!(f, "{insn:?}"),
    }
}

/// A line of text on the stack, for callers that must not show half a line when a printer
/// stops ([`Stop::Unshown`]) and must not allocate either. Writing past its end is an error.
pub struct LineBuf {
    bytes: [u8; LINE_BYTES],
    len: usize,
}

/// The longest line a [`LineBuf`] holds; longer lines take the engine's (allocating) path.
const LINE_BYTES: usize = 256;

impl LineBuf {
    /// An empty line.
    pub const fn new() -> Self {
        LineBuf { bytes: [0; LINE_BYTES], len: 0 }
    }

    /// The text written so far.
    pub fn as_str(&self) -> &str {
        // Only whole `str`s are ever copied in, so the bytes are UTF-8 up to `len`.
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

impl Default for LineBuf {
    fn default() -> Self {
        Self::new()
    }
}

impl Write for LineBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let dest = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        dest.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_buf_holds_text_and_refuses_overflow() {
        let mut b = LineBuf::new();
        assert_eq!(numbered("r", 12, ".x", &mut b), Ok(()));
        assert_eq!(b.as_str(), "r12.x");
        let long = [b'x'; LINE_BYTES];
        assert_eq!(b.write_str(core::str::from_utf8(&long).unwrap_or("")), Err(fmt::Error));
        assert_eq!(b.as_str(), "r12.x");
    }

    #[test]
    fn target_adds_the_sign_extended_displacement() {
        let mut b = LineBuf::new();
        // 0x1f8 is -8 in 9 bits: 0x100 - 8.
        assert_eq!(target(0x100, 9, 0x1f8, &mut b), Ok(()));
        assert_eq!(b.as_str(), "0xf8");
    }
}
