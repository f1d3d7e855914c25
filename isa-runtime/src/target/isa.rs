//! The [`Isa`] trait: what every generated target implements (its instruction type, decoder,
//! encoder and static descriptions). Everything else in this module is built on it.

use super::dialect::Dialect;
use super::summary::Summary;
use crate::bundle::Schedule;
use crate::format::{Format, Length};
use crate::print::Stop;
use crate::program::Violation;
use crate::syntax;
use crate::value::Value;
use crate::{DecodeError, EncodeError};
use alloc::string::String;
use alloc::vec::Vec;

/// A generated target: its instruction type, decoder, encoder and descriptions.
pub trait Isa: Sized + Sync + 'static {
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
    /// Runs the per-instruction constraints and program rules of the spec
    /// ([`crate::program::check_program`]).
    fn check_program(program: &[Self::Instruction]) -> Vec<Violation> {
        crate::program::check_program::<Self>(program)
    }
    /// Adds the spec's per-instruction constraints that `insn`, instruction number `index`,
    /// breaks to `out`.
    fn check_instruction(insn: &Self::Instruction, index: usize, out: &mut Vec<Violation>) {
        let _ = (insn, index, out);
    }
    /// The spec's program rules, in its order, with how far each reads.
    fn rules() -> &'static [crate::program::Rule] {
        &[]
    }
    /// Checks program rule number `rule` (as [`Isa::rules`]) for the values of its outermost
    /// variable in `from..to` that its own range holds, in order, reading the instructions
    /// `held` holds, the program being `len` instructions long; adds what it breaks to `out`.
    /// Checked in consecutive pieces, a rule finds what it finds over the whole range, in the
    /// same order ([`crate::program::Window`] says when a piece's instructions and `len` are
    /// enough).
    fn check_rule(
        rule: usize,
        held: &crate::program::Held<'_, Self::Instruction>,
        len: i64,
        from: i64,
        to: i64,
        out: &mut Vec<Violation>,
    ) {
        let _ = (rule, held, len, from, to, out);
    }
    /// The texts of the spec's per-instruction `warning`s that `insn` breaks (something that
    /// assembles but is likely not meant: vc4asm's file-A rotation); the assembler reports them
    /// at the instruction's line.
    fn warnings(insn: &Self::Instruction) -> Vec<&'static str> {
        let _ = insn;
        Vec::new()
    }
    /// The words that travel beside the target's instructions, if any: bundles or one stream
    /// interleaved with the instructions ([`Isa::bundles`] and [`Isa::schedule`] view it).
    fn streams() -> Option<&'static crate::bundle::Streams> {
        None
    }
    /// The scheduling control words of the target's programs (its interleaved stream), if it
    /// has them: a view of [`Isa::streams`].
    fn schedule() -> Option<&'static Schedule> {
        Self::streams().and_then(crate::bundle::Streams::schedule)
    }
    /// Per encoding (as [`Isa::formats`]), the bit the assembler sets on a program's last
    /// instruction (grate's end-of-program bit); empty when the target has none.
    fn program_end() -> &'static [u128] {
        &[]
    }
    /// The most instructions a program may hold (the `max_instructions` target setting), if
    /// the target limits them.
    fn max_instructions() -> Option<usize> {
        None
    }
    /// How the target's programs are bundled into several word streams, if they are (its
    /// other kind of streams, beside [`Isa::schedule`]).
    fn bundles() -> Option<&'static crate::bundle::Bundles> {
        Self::streams().and_then(crate::bundle::Streams::bundles)
    }
    /// Values computed over a whole program ([`summarize`](super::summarize)); empty when the target has none.
    fn summaries() -> &'static [Summary] {
        &[]
    }
    /// Tables of words the program's data sections fill (`.constants`); empty when none.
    fn tables() -> &'static [crate::table::Table] {
        &[]
    }
    /// Whether a word wider than 32 bits is uploaded least significant part first (the
    /// target's `part_order low_first`); most significant first otherwise.
    const PARTS_LOW_FIRST: bool = false;
    /// Per encoding (as [`Isa::formats`]), how long its instructions are; empty when every
    /// instruction is one word of [`Isa::WORD_BITS`] bits.
    fn lengths() -> &'static [Length] {
        &[]
    }
    /// The generated reader of encoding `format` (as [`Isa::formats`]) in dialect `dialect`,
    /// if the compiler wrote one ([`crate::syntax::fast_in`]): asked before the quick reader.
    fn reader(format: usize, dialect: usize) -> Option<crate::syntax::Reader> {
        let _ = (format, dialect);
        None
    }
    /// Writes `insn`'s text (at address `pc`) in dialect number `dialect`, without the
    /// dialect's end and separator; [`Stop::Unshown`] when the dialect has no text for it.
    /// Generated targets compile their printers; this default runs the syntax engine on the
    /// encoded word.
    fn write_text(
        insn: &Self::Instruction,
        dialect: usize,
        pc: u64,
        out: &mut dyn crate::print::Sink,
    ) -> Result<(), Stop> {
        let word = Self::encode(insn).map_err(|_| Stop::Unshown)?;
        let format = Self::formats()[Self::format_index(insn)];
        let syntax = format.syntax.get(dialect).ok_or(Stop::Unshown)?;
        let mut text = String::new();
        if !syntax::print(syntax, &format.unpack(word), pc, &mut text) {
            return Err(Stop::Unshown);
        }
        let mut out = out.out();
        out.str(&text)?;
        out.flush()
    }
}
