//! What every generated target provides, and the generic tools built on it once: the
//! assembler driver (lines, labels, comments), the disassembler and word/byte conversions.
//!
//! Generated code implements [`Isa`] for a unit struct per target; [`Target`] is the
//! object-safe face of it, so the `isa` command handles every target without matching on them.

use crate::format::Format;
use crate::program::Violation;
use crate::syntax::{self, Context};
use crate::value::Value;
use crate::{AsmError, DecodeError, EncodeError};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// A named syntax dialect of a target.
#[derive(Debug)]
pub struct Dialect {
    /// The dialect's name (`vc4asm`, `mesa`, ...).
    pub name: &'static str,
    /// Markers that start a comment running to the end of the line.
    pub comments: &'static [&'static str],
    /// Whether mnemonics and names are matched without regard to ASCII case.
    pub ignore_case: bool,
    /// Directive for raw words (`.long`): printed for words the syntax cannot show, accepted
    /// by the assembler.
    pub raw: Option<&'static str>,
}

/// A generated target: its instruction type, decoder, encoder and descriptions.
pub trait Isa: Sync + 'static {
    /// The target's instruction type (one variant per encoding).
    type Instruction: Clone + core::fmt::Debug;
    /// Short name (`vc4`).
    const NAME: &'static str;
    /// Full name.
    const TITLE: &'static str;
    /// Bits per instruction word.
    const WORD_BITS: u32;
    /// Byte order of words in memory.
    const LITTLE_ENDIAN: bool;
    /// Syntax dialects; the first is the default.
    fn dialects() -> &'static [Dialect];
    /// Every encoding, in the order the assembler tries them.
    fn formats() -> &'static [&'static Format];

    /// Decodes one word.
    fn decode(word: u128) -> Result<Self::Instruction, DecodeError>;
    /// The encoding whose pattern (opcode bits) matches the word, without checking its fields.
    fn match_format(word: u128) -> Option<usize>;
    /// Encodes one instruction.
    fn encode(insn: &Self::Instruction) -> Result<u128, EncodeError>;
    /// Index in [`Isa::formats`] of the instruction's encoding.
    fn format_index(insn: &Self::Instruction) -> usize;
    /// Every field of the instruction by its spec name, typed.
    fn fields(insn: &Self::Instruction) -> Vec<(&'static str, Value)>;
    /// Runs the per-instruction constraints and program rules of the spec.
    fn check_program(program: &[Self::Instruction]) -> Vec<Violation>;
}

/// Prints a word (at address `pc`) in dialect number `dialect`, from its raw bits so views and
/// values the typed instruction rejects (Mesa's `???`) still print where the dialect spells
/// them. Words the dialect cannot show use its raw directive; words that do not decode and
/// cannot be shown are the decode error.
pub fn disassemble_word<T: Isa>(word: u128, dialect: usize, pc: u64) -> Result<String, DecodeError> {
    let decoded = T::decode(word);
    let Some(index) = T::match_format(word) else {
        return Err(decoded.err().unwrap_or(DecodeError::NoMatch { word }));
    };
    let format = T::formats()[index];
    let d = T::dialects().get(dialect).unwrap_or(&T::dialects()[0]);
    let mut out = String::new();
    if let Some(syntax) = format.syntax.get(dialect) {
        if syntax::print(syntax, &format.unpack(word), pc, &mut out) {
            return Ok(out);
        }
    }
    decoded?;
    match d.raw {
        Some(raw) => {
            let digits = T::WORD_BITS.div_ceil(4) as usize;
            Ok(alloc::format!("{raw} 0x{word:0digits$x}"))
        }
        None => Ok(out),
    }
}

/// Prints `insn` (at address `pc`) in dialect number `dialect`.
pub fn disassemble<T: Isa>(insn: &T::Instruction, dialect: usize, pc: u64) -> Result<String, EncodeError> {
    let word = T::encode(insn)?;
    Ok(disassemble_word::<T>(word, dialect, pc).unwrap_or_else(|e| e.to_string()))
}

/// Splits a source line into (label, instruction text and its byte offset).
fn split_line<'a>(line: &'a str, dialect: &Dialect) -> (Option<&'a str>, &'a str, usize) {
    let mut end = line.len();
    for marker in dialect.comments {
        if let Some(i) = line.find(marker) {
            end = end.min(i);
        }
    }
    let code = &line[..end];
    let start = code.len() - code.trim_start().len();
    let rest = &code[start..];
    let ident_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'))
        .unwrap_or(rest.len());
    let starts_ok = rest.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '.');
    if starts_ok
        && ident_len > 0
        && rest[ident_len..].starts_with(':')
        && !rest[ident_len..].starts_with("::")
    {
        let label = &rest[..ident_len];
        let after = &rest[ident_len + 1..];
        let skip = after.len() - after.trim_start().len();
        let offset = start + ident_len + 1 + skip;
        return (Some(label), code[offset..].trim_end(), offset);
    }
    (None, rest.trim_end(), start)
}

/// Assembles `source` in dialect number `dialect`: one instruction per line, `label:` prefixes,
/// comments. Returns every error found (each with line and column), never panics.
pub fn assemble<T: Isa>(source: &str, dialect: usize) -> Result<Vec<T::Instruction>, Vec<AsmError>> {
    let d = T::dialects().get(dialect).unwrap_or(&T::dialects()[0]);
    let word_bytes = T::WORD_BITS.div_ceil(8) as u64;
    // Pass 1: label addresses.
    let mut labels: Vec<(&str, u64)> = Vec::new();
    let mut errors = Vec::new();
    let mut count = 0u64;
    for (n, line) in source.lines().enumerate() {
        let (label, code, _) = split_line(line, d);
        if let Some(l) = label {
            if labels.iter().any(|(x, _)| *x == l) {
                errors.push(AsmError {
                    line: n + 1,
                    column: 1,
                    message: alloc::format!("label `{l}` defined twice"),
                });
            }
            labels.push((l, count * word_bytes));
        }
        if !code.is_empty() {
            count += 1;
        }
    }
    // Pass 2: instructions.
    let lookup = |name: &str| labels.iter().find(|(l, _)| *l == name).map(|(_, a)| *a);
    let mut program = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let (_, code, offset) = split_line(line, d);
        if code.is_empty() {
            continue;
        }
        let pc = program.len() as u64 * word_bytes;
        match assemble_one::<T>(code, dialect, pc, &lookup, d.ignore_case) {
            Ok(insn) => program.push(insn),
            Err((pos, message)) => {
                let column = line[..(offset + pos).min(line.len())].chars().count() + 1;
                errors.push(AsmError { line: n + 1, column, message });
                // Keep addresses right for later lines.
                if let Ok(nop) = T::decode(0) {
                    program.push(nop);
                } else if let Some(first) = program.first().cloned() {
                    program.push(first);
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(program)
    } else {
        Err(errors)
    }
}

/// Assembles one instruction's text; on failure returns the byte offset and a message.
pub fn assemble_one<T: Isa>(
    text: &str,
    dialect: usize,
    pc: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
    ignore_case: bool,
) -> Result<T::Instruction, (usize, String)> {
    let ctx = Context { pc, labels, ignore_case };
    if let Some(raw) = T::dialects().get(dialect).and_then(|d| d.raw) {
        if let Some(rest) = text.strip_prefix(raw) {
            let digits = rest.trim().trim_start_matches("0x").replace('_', "");
            return match u128::from_str_radix(&digits, 16) {
                Ok(word) if rest.starts_with(char::is_whitespace) => {
                    T::decode(word).map_err(|e| (0, e.to_string()))
                }
                _ => Err((raw.len(), alloc::format!("`{raw}` takes a hexadecimal word"))),
            };
        }
    }
    let mut best: Option<syntax::Failure> = None;
    for format in T::formats() {
        let Some(syntax) = format.syntax.get(dialect) else {
            continue;
        };
        match syntax::parse(format, syntax, text, &ctx) {
            Ok(values) => {
                let word = format.pack(&values);
                return T::decode(word).map_err(|e| (0, e.to_string()));
            }
            Err(f) => {
                if best.as_ref().is_none_or(|b| f.pos > b.pos) {
                    best = Some(f);
                } else if let Some(b) = best.as_mut().filter(|b| b.pos == f.pos) {
                    b.expected.extend(f.expected);
                }
            }
        }
    }
    let f = best.unwrap_or(syntax::Failure { pos: 0, expected: Vec::new() });
    Err((f.pos, f.message(text)))
}

/// An instruction decoded by a [`Target`]: its encoding's name and its fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The encoding (format) name.
    pub name: &'static str,
    /// Every field by its spec name.
    pub fields: Vec<(&'static str, Value)>,
}

/// The object-safe face of a generated target, for tools that handle every target alike.
pub trait Target: Sync {
    /// Short name.
    fn name(&self) -> &'static str;
    /// Full name.
    fn title(&self) -> &'static str;
    /// Bits per instruction word.
    fn word_bits(&self) -> u32;
    /// Byte order of words in memory.
    fn little_endian(&self) -> bool;
    /// Syntax dialects; the first is the default.
    fn dialects(&self) -> &'static [Dialect];
    /// Decodes one word into its encoding name and fields.
    fn decode(&self, word: u128) -> Result<Decoded, DecodeError>;
    /// Decodes and prints one word at address `pc`.
    fn disassemble(&self, word: u128, dialect: usize, pc: u64) -> Result<String, DecodeError>;
    /// Assembles source text into words.
    fn assemble(&self, source: &str, dialect: usize) -> Result<Vec<u128>, Vec<AsmError>>;
    /// Decodes a program and runs the spec's validators on it.
    fn check(&self, words: &[u128]) -> Result<Vec<Violation>, (usize, DecodeError)>;
}

impl<T: Isa> Target for T {
    fn name(&self) -> &'static str {
        T::NAME
    }
    fn title(&self) -> &'static str {
        T::TITLE
    }
    fn word_bits(&self) -> u32 {
        T::WORD_BITS
    }
    fn little_endian(&self) -> bool {
        T::LITTLE_ENDIAN
    }
    fn dialects(&self) -> &'static [Dialect] {
        <T as Isa>::dialects()
    }
    fn decode(&self, word: u128) -> Result<Decoded, DecodeError> {
        let insn = T::decode(word)?;
        Ok(Decoded { name: T::formats()[T::format_index(&insn)].name, fields: T::fields(&insn) })
    }
    fn disassemble(&self, word: u128, dialect: usize, pc: u64) -> Result<String, DecodeError> {
        disassemble_word::<T>(word, dialect, pc)
    }
    fn assemble(&self, source: &str, dialect: usize) -> Result<Vec<u128>, Vec<AsmError>> {
        let program = assemble::<T>(source, dialect)?;
        let mut words = Vec::with_capacity(program.len());
        for insn in &program {
            match T::encode(insn) {
                Ok(w) => words.push(w),
                Err(e) => return Err(alloc::vec![AsmError { line: 0, column: 0, message: e.to_string() }]),
            }
        }
        Ok(words)
    }
    fn check(&self, words: &[u128]) -> Result<Vec<Violation>, (usize, DecodeError)> {
        let mut program = Vec::with_capacity(words.len());
        for (i, w) in words.iter().enumerate() {
            program.push(T::decode(*w).map_err(|e| (i, e))?);
        }
        Ok(T::check_program(&program))
    }
}

/// Reads one word of `bits` bits from `bytes` in the given byte order.
pub fn word_from_bytes(bytes: &[u8], little_endian: bool) -> u128 {
    let mut w = 0u128;
    for (i, b) in bytes.iter().enumerate() {
        let shift = if little_endian { 8 * i } else { 8 * (bytes.len() - 1 - i) };
        w |= (*b as u128) << shift;
    }
    w
}

/// Writes the low `bytes` bytes of `word` in the given byte order.
pub fn word_to_bytes(word: u128, bytes: usize, little_endian: bool, out: &mut Vec<u8>) {
    for i in 0..bytes {
        let shift = if little_endian { 8 * i } else { 8 * (bytes - 1 - i) };
        out.push((word >> shift) as u8);
    }
}
