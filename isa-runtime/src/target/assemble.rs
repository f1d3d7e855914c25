//! The assembler's public entry points (program, stream, scheduled, exact) and the bundling of
//! instructions with their scheduling slots.

use super::dialect::Dialect;
use super::disasm::finish_program;
use super::isa::Isa;
use super::lines::assemble_lines;
use super::object_safe::Target;
use super::words::word_to_bytes;
use crate::bundle;
use crate::directives::{self, Includer, NoIncludes, Source};
use crate::syntax::{self, Context};
use crate::AsmError;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Splits a source line into (label, instruction text and its byte offset).
pub(super) fn split_line<'a>(line: &'a str, dialect: &Dialect) -> (Option<&'a str>, &'a str, usize) {
    let code = &line[..directives::comment_start(line, dialect.comments)];
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

/// One statement of assembly source: an instruction, or a word given by the dialect's raw
/// directive, which stands for exactly its bits.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement<I> {
    /// An instruction's text, read into its typed value.
    Instruction(I),
    /// The raw directive's word, as written (don't-care and reserved bits included).
    Raw(u128),
}

/// Assembles `source` in dialect number `dialect`: one instruction per line, `label:` prefixes,
/// comments. Returns every error found (each with line and column), never panics. A raw
/// directive's word is decoded into its typed instruction (which holds no don't-care bits; for
/// the words exactly as written use [`assemble_program`]).
pub fn assemble<T: Isa>(source: &str, dialect: usize) -> Result<Vec<T::Instruction>, Vec<AsmError>> {
    Ok(assemble_scheduled::<T>(source, dialect)?.into_iter().map(|(_, insn)| insn).collect())
}

/// Assembles `source` into the program's words: with control words where the target has
/// them (each line may start with its slot; a line without one gets the default slot). A raw
/// directive emits exactly its word.
pub fn assemble_program<T: Isa>(source: &str, dialect: usize) -> Result<Vec<u128>, Vec<AsmError>> {
    let mut errors = Vec::new();
    match assemble_program_reporting::<T>(source, dialect, &mut |e, _| errors.push(e.clone())) {
        Some(words) => Ok(words),
        None => Err(errors),
    }
}

/// [`assemble_program`] handing each error to `report` as it is found, with the text of its
/// line; `None` when there was one.
pub fn assemble_program_reporting<T: Isa>(
    source: &str,
    dialect: usize,
    report: &mut dyn FnMut(&AsmError, &str),
) -> Option<Vec<u128>> {
    assemble_files::<T>("", source, dialect, &mut NoIncludes, report)
}

/// [`assemble_program_reporting`] of a source named `name` whose `.include`s `includer` reads.
/// A program that ends in data shorter than its last word has that word padded with zeros;
/// [`assemble_exact`] says how many of its bytes are the program's.
pub fn assemble_files<T: Isa>(
    name: &str,
    source: &str,
    dialect: usize,
    includer: &mut dyn Includer,
    report: &mut dyn FnMut(&AsmError, &str),
) -> Option<Vec<u128>> {
    assemble_exact::<T>(name, source, dialect, includer, report).map(|a| a.words)
}

/// An assembled program: its words, and the words that data makes at another length than
/// their own: where instructions differ in length, data whose bytes begin an instruction of
/// another length (a listing's piece that the length rule read short among the bytes after
/// it); on any target, a program that ends in data shorter than its last word (a binary cut
/// inside an instruction or a word, listed as data). [`Assembled::bytes`] writes it byte for
/// byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembled {
    /// The words, control words included where the target has them.
    pub words: Vec<u128>,
    /// The words written at another length than their own (a fixed-length word's size, or
    /// the length of the instruction its bytes begin), as (word number, bytes), in order.
    pub lengths: Vec<(usize, usize)>,
    /// What the program's data sections write into the target's tables
    /// ([`crate::table::fill`]), read from the expanded program.
    pub tables: crate::table::Filled,
}

impl Assembled {
    /// How many bytes word number `i` takes in memory.
    pub fn length(&self, i: usize, target: &dyn Target) -> usize {
        match self.lengths.binary_search_by_key(&i, |(k, _)| *k) {
            Ok(k) => self.lengths[k].1,
            Err(_) if target.variable_length() => {
                self.words.get(i).map_or(0, |w| target.instruction_bytes(*w))
            }
            Err(_) => target.word_bits().div_ceil(8) as usize,
        }
    }

    /// The program in memory order: each word at its [`Assembled::length`] (a word cut short
    /// keeps its first bytes in memory order).
    pub fn bytes(&self, target: &dyn Target) -> Vec<u8> {
        let mut out = Vec::new();
        let size = target.word_bits().div_ceil(8) as usize;
        for (i, w) in self.words.iter().enumerate() {
            let length = self.length(i, target);
            if target.variable_length() {
                word_to_bytes(*w, length, true, &mut out);
            } else {
                let start = out.len();
                word_to_bytes(*w, size, target.little_endian(), &mut out);
                out.truncate(start + length.min(size));
            }
        }
        out
    }
}

/// [`assemble_files`] keeping the length of data that ends the program inside a word: data
/// after the last instruction is written as it is, not padded (no instruction follows whose
/// start needs the padding), so a listing that ends in part of a word assembles back to the
/// same bytes (issue 12).
pub fn assemble_exact<T: Isa>(
    name: &str,
    source: &str,
    dialect: usize,
    includer: &mut dyn Includer,
    report: &mut dyn FnMut(&AsmError, &str),
) -> Option<Assembled> {
    let (mut words, mut lengths) = (Vec::new(), Vec::new());
    let mut text = directives::Text::new(source);
    let tables = assemble_stream::<T>(name, &mut text, dialect, includer, report, &mut |w, length| {
        if let Some(n) = length {
            lengths.push((words.len(), n));
        }
        words.push(w);
    })?;
    Some(Assembled { words, lengths, tables })
}

/// [`assemble_exact`] handing each word of the program to `write` in order as it is made,
/// with its length in bytes where it is not its own ([`Assembled::lengths`]), rather than
/// keeping them (the last one held back for the program-end bit, a target's control words
/// with their group): with [`directives::expand_streaming`], the memory of assembling is that
/// of the symbols, labels and sources, whatever the program's size. Returns the tables the
/// data sections fill ([`Assembled::tables`]) when the program has no error; words already
/// written before an error was found are not taken back (a caller writes them where it can
/// drop them).
pub fn assemble_stream<T: Isa>(
    name: &str,
    source: &mut dyn Source,
    dialect: usize,
    includer: &mut dyn Includer,
    report: &mut dyn FnMut(&AsmError, &str),
    write: &mut dyn FnMut(u128, Option<usize>),
) -> Option<crate::table::Filled> {
    // Instructions carry whether they were text: a raw directive's word stays as written.
    let convert = |statement| match statement {
        Statement::Instruction(insn) => T::encode(&insn).map(|w| (w, true)).map_err(|e| e.to_string()),
        Statement::Raw(word) => Ok((word, false)),
    };
    let scheduled = includer.scheduled();
    let packer = core::cell::RefCell::new(Packer::<T> {
        held: None,
        group: Vec::new(),
        next_control: None,
        control: None,
        write,
        scheduled,
        target: core::marker::PhantomData,
    });
    let tables = assemble_lines::<T, (u128, bool)>(
        name,
        source,
        dialect,
        includer,
        &convert,
        report,
        &mut |slot, (w, text), length| packer.borrow_mut().push(slot, w, text, length),
        &mut |control| {
            packer.borrow_mut().next_control = Some(control);
            Ok(())
        },
    );
    let packer = packer.into_inner();
    packer.finish();
    tables
}

/// A word held back ([`Packer::held`]): slot, word, whether it is an instruction's, its
/// length where not its own, the control word written as it is for the group it starts.
type Held = (u64, u128, bool, Option<usize>, Option<u128>);

/// Writes a program's words in order as they come ([`bundle::pack_program`] as a stream): the
/// last one held back, for the program-end bit goes on the last instruction, and where the
/// target interleaves control words, each group's instructions until its control word is
/// written before them.
struct Packer<'w, T> {
    /// The last word: slot, word, whether it is an instruction's (not a raw or data word), its
    /// length where not its own.
    held: Option<Held>,
    group: Vec<(u64, u128)>,
    /// A control word written as it is, for the group of the next word pushed.
    next_control: Option<u128>,
    /// The group's control word where it is written as it is (not made of its slots).
    control: Option<u128>,
    write: &'w mut dyn FnMut(u128, Option<usize>),
    /// Whether the target's control words are written ([`Includer::scheduled`]).
    scheduled: bool,
    target: core::marker::PhantomData<T>,
}

impl<T: Isa> Packer<'_, T> {
    fn push(&mut self, slot: u64, word: u128, instruction: bool, length: Option<usize>) {
        let control = self.next_control.take();
        if let Some((slot, word, _, length, control)) =
            self.held.replace((slot, word, instruction, length, control))
        {
            self.add(slot, word, length, control);
        }
    }

    fn add(&mut self, slot: u64, word: u128, length: Option<usize>, control: Option<u128>) {
        let Some(s) = T::schedule().filter(|_| self.scheduled) else {
            return (self.write)(word, length);
        };
        // The assembler puts a written control word at a group's start only.
        if control.is_some() {
            self.control = control;
        }
        self.group.push((slot, word));
        if self.group.len() == s.slots as usize {
            self.write_group();
        }
    }

    /// The group's control word and words, the missing slots padded as
    /// [`bundle::pack_program`] pads them.
    fn write_group(&mut self) {
        // Written as it is packed, the group's memory kept for the next one.
        if let Some(s) = T::schedule() {
            let write = &mut *self.write;
            match self.control.take() {
                Some(control) => {
                    write(control, None);
                    for i in 0..s.slots as usize {
                        write(self.group.get(i).map_or(s.pad, |g| g.1), None);
                    }
                }
                None => bundle::pack_group(s, &self.group, &mut |w| write(w, None)),
            }
        }
        self.group.clear();
    }

    fn finish(mut self) {
        if let Some((slot, mut word, instruction, length, control)) = self.held.take() {
            if instruction {
                finish_program::<T>(core::slice::from_mut(&mut word));
            }
            match length {
                // With control words, only the last word can be short: data that ends the
                // program inside a word, which no group holds (a binary of whole groups and
                // then those bytes, as `disasm` lists it), so it follows the groups.
                Some(_) if T::schedule().is_some() && self.scheduled => {
                    if !self.group.is_empty() {
                        self.write_group();
                    }
                    return (self.write)(word, length);
                }
                _ => self.add(slot, word, length, control),
            }
        }
        if !self.group.is_empty() {
            self.write_group();
        }
    }
}

/// [`assemble`] keeping each instruction's scheduling slot.
pub fn assemble_scheduled<T: Isa>(
    source: &str,
    dialect: usize,
) -> Result<Vec<(u64, T::Instruction)>, Vec<AsmError>> {
    let convert = |statement| match statement {
        Statement::Instruction(insn) => Ok(insn),
        Statement::Raw(word) => T::decode(word).map_err(|e| e.to_string()),
    };
    let mut errors = Vec::new();
    let mut report = |e: &AsmError, _: &str| errors.push(e.clone());
    let mut program = Vec::new();
    let assembled = assemble_lines::<T, T::Instruction>(
        "",
        &mut directives::Text::new(source),
        dialect,
        &mut NoIncludes,
        &convert,
        &mut report,
        &mut |slot, insn, _| program.push((slot, insn)),
        // Typed instructions carry slots, not control words: a control word written as it
        // is has no place among them, and is refused rather than dropped.
        &mut |_| {
            Err("typed instructions carry slots, not control words: a control word written as it is \
                 needs the program's words (`assemble_program`, `isa asm`)"
                .into())
        },
    );
    match assembled {
        Some(_) => {
            // The program-end bit goes on the last instruction, as for the words.
            if let Some((_, last)) = program.last_mut() {
                if let Ok(mut word) = T::encode(last) {
                    finish_program::<T>(core::slice::from_mut(&mut word));
                    if let Ok(finished) = T::decode(word) {
                        *last = finished;
                    }
                }
            }
            Ok(program)
        }
        None => Err(errors),
    }
}

/// Why a statement's text does not assemble.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementError {
    /// Byte offset in the text.
    pub pos: usize,
    /// Bytes of the token the error is about (0: none, or the end of the text).
    pub length: usize,
    /// What went wrong, in the syntax's words.
    pub message: String,
}

impl StatementError {
    pub(super) fn at(pos: usize, message: String) -> Self {
        StatementError { pos, length: 0, message }
    }
}

impl core::fmt::Display for StatementError {
    /// The column (from 1, counting bytes) and the message, as a line's error reads.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", self.pos + 1, self.message)
    }
}

impl core::error::Error for StatementError {}

/// The last slot [`read_slot`] packed: its field values and raw bits (which passed the
/// schedule's check). A program's lines mostly repeat the slot before them (nvdisasm's
/// `[B------:R-:W-:Y:S00]`), whose values are then compared, not packed and checked again.
pub(super) type LastSlot = Option<(Vec<u64>, u64)>;

/// Reads the scheduling slot at the start of `code`: its raw bits and the byte offset where the
/// instruction starts. Text that does not start a slot gets the default slot; a slot that
/// starts but is wrong is an error at its position. A slot is read in `scratch`, and read
/// again to describe a failure only when that fails; `last` is the slot read before
/// ([`LastSlot`]).
pub(super) fn read_slot<T: Isa>(
    code: &str,
    dialect: usize,
    ctx: &Context,
    scratch: &mut syntax::Scratch,
    last: &mut LastSlot,
) -> Result<(u64, usize), StatementError> {
    let Some(s) = T::schedule() else { return Ok((0, 0)) };
    let Some(syntax) = s.slot.syntax.get(dialect) else { return Ok((s.default_slot, 0)) };
    let quick = match syntax::quick_prefix_in(scratch, s.slot, syntax, code, ctx) {
        syntax::Quick::Read(values, end) => Some((values, end)),
        syntax::Quick::Never => None,
        syntax::Quick::Unsure => syntax::parse_prefix_in(scratch, s.slot, syntax, code, ctx),
    };
    let read = match quick {
        Some(read) => Ok(read),
        None => syntax::parse_prefix(s.slot, syntax, code, ctx),
    };
    match read {
        Ok((values, end)) if end > 0 => match last {
            Some((v, raw)) if *v == values => {
                syntax::give_back(scratch, values);
                Ok((*raw, end))
            }
            _ => {
                let raw = s.slot.pack(&values) as u64;
                (s.check)(raw).map_err(|e| StatementError::at(0, e.to_string()))?;
                *last = Some((values, raw));
                Ok((raw, end))
            }
        },
        Err(f) if f.pos > 0 => {
            let (start, length) = syntax::token_at(code, f.pos);
            let message = alloc::format!("in the scheduling slot: {}", f.message(code));
            Err(StatementError { pos: start, length, message })
        }
        _ => Ok((s.default_slot, 0)),
    }
}
