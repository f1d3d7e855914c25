//! What every generated target provides, and the generic tools built on it once: the
//! assembler driver (lines, labels, comments), the disassembler and word/byte conversions.
//!
//! Generated code implements [`Isa`] for a unit struct per target; [`Target`] is the
//! object-safe face of it, so the `isa` command handles every target without matching on them.

use crate::bundle::{self, Schedule};
use crate::directives::{self, Directive, Handed, Includer, Kind, NoIncludes, Source};
use crate::expr::{self, Names};
use crate::format::{Format, Length};
use crate::print::Stop;
use crate::program::Violation;
use crate::syntax::{self, Context};
use crate::value::Value;
use crate::{AsmError, DecodeError, EncodeError};
use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;

/// A named syntax dialect of a target.
#[derive(Debug, PartialEq, Eq)]
pub struct Dialect {
    /// The dialect's name (`vc4asm`, `mesa`, ...).
    pub name: &'static str,
    /// Markers that start a comment running to the end of the line.
    pub comments: &'static [&'static str],
    /// Block comments' (opening, closing) markers (`/*`, `*/`); they may span lines.
    pub block_comments: &'static [(&'static str, &'static str)],
    /// Whether mnemonics and names are matched without regard to ASCII case.
    pub ignore_case: bool,
    /// Directive for raw words (`.long`): printed for words the syntax cannot show, accepted
    /// by the assembler.
    pub raw: Option<&'static str>,
    /// Text printed after every instruction (nvdisasm's ` ;`); optional when assembling.
    pub end: Option<&'static str>,
    /// An integer data directive given a float stores the float's IEEE double bits, cut to
    /// its width (vc4asm's `.int 0.`), where otherwise it is an error.
    pub float_bits: bool,
    /// A conditional still open at the end of a file is a warning, the file read as if it
    /// closed there (vc4asm's P145), where otherwise it is an error (GNU as's "end of file
    /// inside conditional").
    pub open_if_warns: bool,
    /// Text that ends every statement (grate's `;`): statements then span lines, and the
    /// printer ends each instruction with it.
    pub separator: Option<&'static str>,
    /// The directive that starts the instructions (grate's `.asm`), where programs have
    /// sections.
    pub code_section: Option<&'static str>,
    /// Directives that start sections of data entries (`.constants`), which the assembler
    /// reads past: they are not instructions.
    pub data_sections: &'static [&'static str],
    /// The assembler's directives as the dialect spells them (`.set`, `.if`, `.macro`...);
    /// with any, instruction operands also take expressions.
    pub directives: &'static [(&'static str, Directive)],
    /// What label references in expressions start with (vc4asm's `:` in `:loop`, and `r:`);
    /// the first also starts a definition (besides `name:`). Empty: plain names.
    pub label_prefixes: &'static [&'static str],
    /// How `isa disasm --listing` lays out a line, where the dialect says (nvdisasm's
    /// `/*0008*/` addresses and `/* 0x... */` word comments).
    pub listing: Option<&'static ListingStyle>,
}

/// A disassembler's listing layout (`listing { ... }` in a dialect): each instruction line is
/// `indent` blanks, the address between `address.0` and `address.1` in at least `address.2`
/// hex digits, then a field of `column` characters holding the pair's opening mark at column
/// `open.1` and the guard (the text's first word when it starts with `guard`) right-aligned,
/// then the rest of the text; the second of a pair ends with `close.1` blanks and `close.0`
/// instead of the dialect's end. Every word follows in a comment (`words.1`, `0x` and the
/// word's digits, `words.2`), all at one column `words.0` blanks after the longest text
/// ([`align_listing`]); the comment of a pair's second instruction, and each control word's,
/// stands on a line of its own.
#[derive(Debug, PartialEq, Eq)]
pub struct ListingStyle {
    /// Blanks before the address.
    pub indent: u32,
    /// The address's opening and closing text and its least number of hex digits.
    pub address: (&'static str, &'static str, u32),
    /// What starts a guard (`@`): the text's first word when it starts so.
    pub guard: &'static str,
    /// The width of the field before the mnemonic (guard and opening mark).
    pub column: u32,
    /// The opening mark of a pair and its column in that field.
    pub open: (&'static str, u32),
    /// The closing mark of a pair and the blanks before it.
    pub close: (&'static str, u32),
    /// The blanks after the longest text before the word comments, their opening and closing
    /// text.
    pub words: (u32, &'static str, &'static str),
    /// The end of an instruction whose slot is exactly the value given, in place of the
    /// dialect's (nvdisasm's `NOP;` where the schedule says nothing).
    pub end: Option<(&'static str, u64)>,
    /// A text holding this after a blank (nvdisasm's `???6`; empty: none) has that blank widened
    /// to the longest other text ([`align_listing`]).
    pub widen: &'static str,
}

/// A dialect name a target does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownDialect {
    /// The name asked for.
    pub name: String,
    /// The target's name.
    pub target: &'static str,
    /// The target's dialects, the default first.
    pub known: &'static [Dialect],
}

impl core::fmt::Display for UnknownDialect {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "unknown dialect `{}` for target {}; known dialects: ", self.name, self.target)?;
        write_dialect_list(self.known, f)
    }
}

impl core::error::Error for UnknownDialect {}

/// The index of dialect `name` among a target's `dialects` (ASCII case ignored, as tools read
/// names from command lines), or an error listing them.
pub fn find_dialect(
    target: &'static str,
    dialects: &'static [Dialect],
    name: &str,
) -> Result<usize, UnknownDialect> {
    dialects.iter().position(|d| d.name.eq_ignore_ascii_case(name)).ok_or_else(|| UnknownDialect {
        name: name.to_string(),
        target,
        known: dialects,
    })
}

/// Writes the dialects' names, comma-separated, the first marked as the default.
pub fn write_dialect_list(dialects: &[Dialect], out: &mut dyn core::fmt::Write) -> core::fmt::Result {
    if dialects.is_empty() {
        return out.write_str("none");
    }
    for (i, d) in dialects.iter().enumerate() {
        match i {
            0 => write!(out, "{} (default)", d.name)?,
            _ => write!(out, ", {}", d.name)?,
        }
    }
    Ok(())
}

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
    /// Values computed over a whole program ([`summarize`]); empty when the target has none.
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

/// The length in bytes of the instruction `word` starts: its encoding's length on a target
/// whose instructions differ in length, else the word's. A word that matches no encoding (a
/// raw directive's) is as many of the shortest lengths as hold its bits.
pub fn instruction_bytes<T: Isa>(word: u128) -> usize {
    let lengths = T::lengths();
    if lengths.is_empty() {
        return T::WORD_BITS.div_ceil(8) as usize;
    }
    let bits = T::match_format(word).and_then(|i| lengths.get(i)?.of(word)).unwrap_or_else(|| {
        let step = shortest_length::<T>();
        let used = 128 - word.leading_zeros();
        used.div_ceil(step).max(1) * step
    });
    bits.div_ceil(8) as usize
}

/// Decodes the instruction `bytes` start with, its words in the target's byte order (the
/// first byte the lowest where instructions differ in length, as [`split_stream`] reads them).
/// Fewer bytes than the instruction needs is [`DecodeError::Truncated`]; bytes after it are
/// not read. Where instructions differ in length, bytes no encoding matches are
/// [`DecodeError::NoMatchBytes`] of the shortest length.
pub fn decode_bytes<T: Isa>(bytes: &[u8]) -> Result<T::Instruction, DecodeError> {
    let max = T::WORD_BITS.div_ceil(8) as usize;
    let truncated = |needed| DecodeError::Truncated { needed, available: bytes.len() };
    if T::lengths().is_empty() {
        let word = bytes.get(..max).ok_or_else(|| truncated(max))?;
        return T::decode(word_from_bytes(word, T::LITTLE_ENDIAN));
    }
    let head = word_from_bytes(&bytes[..bytes.len().min(max)], true);
    if T::match_format(head).is_none() {
        // As `split_stream` steps over them: a piece of the shortest length.
        let length = shortest_length::<T>().div_ceil(8) as usize;
        let piece = bytes.get(..length).ok_or_else(|| truncated(length))?;
        return Err(DecodeError::NoMatchBytes { bytes: word_from_bytes(piece, true), length: length as u8 });
    }
    let needed = instruction_bytes::<T>(head);
    let own = bytes.get(..needed).ok_or_else(|| truncated(needed))?;
    T::decode(word_from_bytes(own, true)).map_err(in_bytes::<T>)
}

/// A target whose instructions differ in length: a word no encoding matches is reported as
/// its bytes in memory order ([`DecodeError::NoMatchBytes`]), as long as the
/// shortest instruction holding every set bit.
fn in_bytes<T: Isa>(e: DecodeError) -> DecodeError {
    match e {
        DecodeError::NoMatch { word } if !T::lengths().is_empty() => {
            DecodeError::NoMatchBytes { bytes: word, length: instruction_bytes::<T>(word) as u8 }
        }
        e => e,
    }
}

/// The shortest length in bits of any instruction.
fn shortest_length<T: Isa>() -> u32 {
    T::lengths().iter().filter_map(|l| l.bits.first()).min().copied().unwrap_or(T::WORD_BITS).max(8)
}

/// The instruction's own bits of `word`, where a shorter instruction is followed by others:
/// the bits past its length read as zero.
fn own_bits<T: Isa>(word: u128) -> u128 {
    let bytes = instruction_bytes::<T>(word);
    if T::lengths().is_empty() || bytes >= 16 {
        word
    } else {
        word & ((1u128 << (8 * bytes)) - 1)
    }
}

/// Splits a program of instructions that differ in length into their words, first byte the
/// lowest: each instruction's length is read from its first bytes. Bytes that match no
/// encoding are a piece of the shortest length (they list as the raw directive, as applegpu
/// steps over them); a last
/// instruction cut short keeps the bytes there are. The words alone do not always say how
/// long each piece was ([`split_pieces`] does).
pub fn split_stream<T: Isa>(bytes: &[u8]) -> Vec<u128> {
    split_pieces::<T>(bytes).into_iter().map(|(word, _)| word).collect()
}

/// Why a piece of a stream ([`split_pieces`]) of `length` bytes is no instruction of that
/// length: its word alone begins one of `own` bytes.
pub fn piece_of_another_length(length: usize, own: usize) -> String {
    alloc::format!(
        "a piece of {length} bytes where it stands (its length read with the bytes after it), which alone begins an instruction of {own} bytes"
    )
}

/// [`split_stream`] with each piece's length in bytes, as it was read from the stream. A
/// length rule may read bits past an instruction's short form (AGX's `42 f8` reads as a 2-byte
/// piece among the bytes that follow it, but alone begins one of 6 bytes), so a piece's word
/// may give another length than the piece had: a listing shows such a piece as data
/// ([`disassemble_words_from`]).
pub fn split_pieces<T: Isa>(bytes: &[u8]) -> Vec<(u128, usize)> {
    let max = T::WORD_BITS.div_ceil(8) as usize;
    let mut pieces = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let end = bytes.len().min(at + max);
        let word = word_from_bytes(&bytes[at..end], true);
        let length = match T::match_format(word) {
            Some(_) => instruction_bytes::<T>(word),
            None => shortest_length::<T>().div_ceil(8) as usize,
        };
        let length = length.clamp(1, end - at);
        pieces.push((word_from_bytes(&bytes[at..at + length], true), length));
        at += length;
    }
    pieces
}

/// The bytes of a program of instructions that differ in length, each word as long as its
/// instruction ([`instruction_bytes`]); with one length, every word whole.
pub fn join_stream<T: Isa>(words: &[u128]) -> Vec<u8> {
    let mut out = Vec::new();
    for w in words {
        word_to_bytes(*w, instruction_bytes::<T>(*w), T::LITTLE_ENDIAN, &mut out);
    }
    out
}

/// `summary name { max field; plus n; least m }` (spec): the largest value of `field` over a
/// program's instructions plus `plus`, at least `least` (grate's `used_tram_rows`; a shader's
/// register count is the same kind of value).
#[derive(Debug)]
pub struct Summary {
    /// Its name.
    pub name: &'static str,
    /// The field whose largest value it takes.
    pub field: &'static str,
    /// Added to that value.
    pub plus: u64,
    /// The least value, also that of a program whose words lack the field.
    pub least: u64,
}

/// Each of the target's summaries over `words`, by name, in declaration order.
pub fn summarize<T: Isa>(words: &[u128]) -> Vec<(&'static str, u64)> {
    let mut highest = alloc::vec![None; T::summaries().len()];
    for w in words {
        fold_summaries::<T>(*w, &mut highest);
    }
    summaries_of(T::summaries(), &highest)
}

/// [`summarize`] a word at a time: `highest` (one entry per summary, `None` at first) takes
/// the largest value of each summary's field plus its `plus` over the words seen so far, so
/// a program's summaries are known as its words go by without keeping them.
pub fn fold_summaries<T: Isa>(word: u128, highest: &mut [Option<u64>]) {
    for (s, high) in T::summaries().iter().zip(highest.iter_mut()) {
        let value = T::match_format(word).and_then(|i| T::formats().get(i)).and_then(|format| {
            let field = format.fields.iter().find(|f| f.name == s.field)?;
            Some(crate::bits::get(word, field.pieces).saturating_add(s.plus))
        });
        if let Some(v) = value {
            *high = Some(high.map_or(v, |h| h.max(v)));
        }
    }
}

/// The summaries' values from what [`fold_summaries`] kept: the largest value, at least the
/// summary's `least` (also the value of a program whose words lack the field).
fn summaries_of(summaries: &'static [Summary], highest: &[Option<u64>]) -> Vec<(&'static str, u64)> {
    summaries.iter().zip(highest).map(|(s, h)| (s.name, h.unwrap_or(0).max(s.least))).collect()
}

/// Words of `bits` bits as 32-bit parts in upload order: least significant part of each
/// word first when `low_first`, most significant first otherwise.
pub fn word_parts(words: &[u128], bits: u32, low_first: bool) -> Vec<u32> {
    let n = (bits / 32).max(1);
    words
        .iter()
        .flat_map(|w| (0..n).map(move |i| (w >> (32 * if low_first { i } else { n - 1 - i })) as u32))
        .collect()
}

/// The inverse of [`word_parts`]; `None` when the parts do not make whole words.
pub fn words_of_parts(parts: &[u32], bits: u32, low_first: bool) -> Option<Vec<u128>> {
    let n = (bits / 32).max(1) as usize;
    parts.len().is_multiple_of(n).then(|| {
        parts
            .chunks(n)
            .map(|c| {
                let mut ordered = c.to_vec();
                if low_first {
                    ordered.reverse();
                }
                ordered.iter().fold(0u128, |w, p| (w << 32) | u128::from(*p))
            })
            .collect()
    })
}

/// A program of one word stream as one JSON object, the shape a bundled program's is
/// ([`crate::bundle::Program::to_json`]): `streams` maps the target's name to its words as
/// 32-bit hex parts in upload order, `settings` each summary to its value.
pub fn program_json<T: Isa>(words: &[u128]) -> String {
    let mut json = ProgramJson::of::<T>();
    let mut out = String::new();
    json.start(&mut out);
    for w in words {
        json.word(*w, &mut out);
    }
    json.settings(&mut out);
    out.push('}');
    out
}

/// [`program_json`] written as the words come, so that a program of any size is written
/// without keeping its words: [`ProgramJson::start`] opens the object and the stream's list,
/// [`ProgramJson::word`] writes each word's parts, [`ProgramJson::settings`] closes the list
/// and writes the summaries (folds over the words, [`fold_summaries`], known at the end);
/// what follows them (the tables, [`crate::table::write_tables`]) and the closing `}` are the
/// caller's.
#[derive(Debug, Clone)]
pub struct ProgramJson {
    name: &'static str,
    bits: u32,
    low_first: bool,
    summaries: &'static [Summary],
    fold: fn(u128, &mut [Option<u64>]),
    highest: Vec<Option<u64>>,
    /// Parts written so far.
    parts: usize,
}

impl ProgramJson {
    /// The writer of target `T`'s programs.
    pub fn of<T: Isa>() -> Self {
        ProgramJson {
            name: T::NAME,
            bits: T::WORD_BITS,
            low_first: T::PARTS_LOW_FIRST,
            summaries: T::summaries(),
            fold: fold_summaries::<T>,
            highest: alloc::vec![None; T::summaries().len()],
            parts: 0,
        }
    }

    /// `{"streams": {"name": [`.
    pub fn start(&self, out: &mut String) {
        out.push_str("{\"streams\": {");
        crate::value::write_json_string(out, self.name);
        out.push_str(": [");
    }

    /// The next word's 32-bit parts in upload order.
    pub fn word(&mut self, word: u128, out: &mut String) {
        use core::fmt::Write;
        for part in word_parts(&[word], self.bits, self.low_first) {
            let _ = write!(out, "{}\"{part:08x}\"", if self.parts > 0 { ", " } else { "" });
            self.parts += 1;
        }
        (self.fold)(word, &mut self.highest);
    }

    /// `]}, "settings": {...}`: the list closed and each summary's value over the words.
    pub fn settings(&self, out: &mut String) {
        use core::fmt::Write;
        out.push_str("]}, \"settings\": {");
        for (i, (name, value)) in summaries_of(self.summaries, &self.highest).iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            crate::value::write_json_string(out, name);
            let _ = write!(out, ": {value}");
        }
        out.push('}');
    }
}

/// Reads the JSON object [`program_json`] writes back into the program's words. Its summaries
/// must be what the words give (a listing would give those, so a different value is an
/// error, never silently changed); other keys (the data sections' tables) are left to
/// [`crate::table::listing`].
pub fn program_from_json<T: Isa>(text: &str) -> Result<Vec<u128>, String> {
    let value = crate::value::parse_json(text).map_err(|e| alloc::format!("{e}"))?;
    let streams = value.get("streams").and_then(|s| s.entries()).ok_or("no `streams` object")?;
    let mut parts = Vec::new();
    for (name, words) in streams {
        if name != T::NAME {
            return Err(alloc::format!(
                "no stream `{name}`: a {} program is the one stream `{}`",
                T::NAME,
                T::NAME
            ));
        }
        for item in words.items().ok_or_else(|| alloc::format!("stream `{name}` is a list"))? {
            let text = item.as_name().unwrap_or("");
            match u32::from_str_radix(text, 16) {
                Ok(p) if !text.is_empty() => parts.push(p),
                _ => return Err(alloc::format!("stream `{name}`: {item:?} is no 32-bit hex word")),
            }
        }
    }
    let words = words_of_parts(&parts, T::WORD_BITS, T::PARTS_LOW_FIRST)
        .ok_or_else(|| alloc::format!("{} parts do not make {}-bit words", parts.len(), T::WORD_BITS))?;
    let given = value.get("settings").and_then(|s| s.entries()).unwrap_or_default();
    let computed = summarize::<T>(&words);
    for (name, v) in given {
        match computed.iter().find(|(n, _)| *n == name) {
            None => return Err(alloc::format!("no setting `{name}`")),
            Some((_, c)) if v.as_u64() != Some(*c) => {
                return Err(alloc::format!("setting `{name}` is {v:?}, but the words give {c}"))
            }
            Some(_) => {}
        }
    }
    Ok(words)
}

/// Sets the target's program-end bit on the last of `words`, if its encoding has one.
fn finish_program<T: Isa>(words: &mut [u128]) {
    if let Some(last) = words.last_mut() {
        if let Some(mask) = T::match_format(*last).and_then(|i| T::program_end().get(i)) {
            *last |= mask;
        }
    }
}

/// How a word prints in a dialect.
enum Shown {
    /// The dialect's text for it.
    Text(String),
    /// The word decodes, but no arm of the dialect's syntax shows it.
    Hidden {
        /// The word's encoding.
        format: &'static str,
    },
}

/// Prints a word (at address `pc`) in dialect number `dialect`, from its raw bits so views and
/// values the typed instruction rejects (Mesa's `???`) still print where the dialect spells
/// them.
fn show<T: Isa>(word: u128, dialect: usize, pc: u64) -> Result<Shown, DecodeError> {
    let word = own_bits::<T>(word);
    let decoded = T::decode(word);
    // A word the typed instruction holds whole prints through the target's compiled printer.
    // The engine below prints the others from their raw bits: words the typed decoder
    // rejects, and words with don't-care bits set, which a view may show (Mesa's `load_imm`).
    if let Some(insn) = decoded.as_ref().ok().filter(|insn| T::encode(insn) == Ok(word)) {
        let mut out = String::new();
        return Ok(match T::write_text(insn, dialect, pc, &mut out) {
            Ok(()) => {
                let d = dialect_of::<T>(dialect);
                out.push_str(d.end.unwrap_or(""));
                out.push_str(d.separator.unwrap_or(""));
                Shown::Text(out)
            }
            Err(_) => Shown::Hidden { format: T::formats()[T::format_index(insn)].name },
        });
    }
    let Some(index) = T::match_format(word) else {
        return Err(decoded.err().unwrap_or(DecodeError::NoMatch { word }));
    };
    let format = T::formats()[index];
    let d = dialect_of::<T>(dialect);
    if let Some(syntax) = format.syntax.get(dialect) {
        let mut out = String::new();
        if syntax::print(syntax, &format.unpack(word), pc, &mut out) {
            out.push_str(d.end.unwrap_or(""));
            out.push_str(d.separator.unwrap_or(""));
            return Ok(Shown::Text(out));
        }
    }
    decoded?;
    Ok(Shown::Hidden { format: format.name })
}

/// `bytes` as dialect `d`'s byte data directive (`.byte 0x62, 0x00`), with `comment` after the
/// dialect's comment marker when given: how a listing shows bytes that are no whole word (a
/// binary that ends inside an instruction), so they assemble back as they are. `None` if the
/// dialect has no byte directive.
pub fn data_text(d: &Dialect, bytes: &[u8], comment: Option<&dyn core::fmt::Display>) -> Option<String> {
    let directive = d.directives.iter().find(|(_, k)| *k == directives::Directive::Byte)?.0;
    let values: Vec<String> = bytes.iter().map(|b| alloc::format!("0x{b:02x}")).collect();
    let mut out = alloc::format!("{directive} {}{}", values.join(", "), d.separator.unwrap_or(""));
    if let (Some(comment), Some(marker)) = (comment, d.comments.first()) {
        out.push_str(&alloc::format!(" {marker} {comment}"));
    }
    Some(out)
}

/// Dialect number `dialect` of `T` (the default one if there is no such dialect).
fn dialect_of<T: Isa>(dialect: usize) -> &'static Dialect {
    T::dialects().get(dialect).unwrap_or(&T::dialects()[0])
}

/// `word` as dialect `d`'s raw directive (`.long 0x...`), with `comment` after the dialect's
/// comment marker when given; `None` if the dialect has no raw directive.
fn raw_text<T: Isa>(d: &Dialect, word: u128, comment: Option<&dyn core::fmt::Display>) -> Option<String> {
    let raw = d.raw?;
    let digits = if T::lengths().is_empty() {
        T::WORD_BITS.div_ceil(4) as usize
    } else {
        2 * instruction_bytes::<T>(word)
    };
    let mut out =
        alloc::format!("{raw} 0x{word:0digits$x}{}{}", d.end.unwrap_or(""), d.separator.unwrap_or(""));
    if let (Some(comment), Some(marker)) = (comment, d.comments.first()) {
        out.push_str(&alloc::format!(" {marker} {comment}"));
    }
    Some(out)
}

/// Prints a word (at address `pc`) in dialect number `dialect`, from its raw bits so views and
/// values the typed instruction rejects (Mesa's `???`) still print where the dialect spells
/// them. Words the dialect cannot show use its raw directive; words that do not decode and
/// cannot be shown are the decode error.
pub fn disassemble_word<T: Isa>(word: u128, dialect: usize, pc: u64) -> Result<String, DecodeError> {
    match show::<T>(word, dialect, pc)? {
        Shown::Text(text) => Ok(text),
        Shown::Hidden { .. } => Ok(raw_text::<T>(dialect_of::<T>(dialect), word, None).unwrap_or_default()),
    }
}

/// The text of a word (at address `pc`) in dialect number `dialect`, printed from its raw bits
/// as [`disassemble_word`] prints it; `None` when no arm of the dialect's syntax shows the word.
pub fn text_of_word<T: Isa>(word: u128, dialect: usize, pc: u64) -> Result<Option<String>, DecodeError> {
    Ok(match show::<T>(word, dialect, pc)? {
        Shown::Text(text) => Some(text),
        Shown::Hidden { .. } => None,
    })
}

/// A listing's line for one word: its text, which the assembler reads back to the same word
/// wherever the dialect has a raw directive, and why it did not decode. A word the dialect
/// cannot show, undecodable ones included, is the raw directive with the reason as a comment;
/// so is a word whose text assembles to another word (a dialect that does not print every
/// bit, such as Mesa's, or don't-care bits), with the text in the comment. A word that does
/// not decode is reported, and its raw line gives the reason, whether or not the dialect
/// prints it (Mesa's `???`, reserved encodings): every dialect counts the same words as
/// undecodable.
///
/// The program's `last` word is compared as the assembler makes it, with its program-end bit
/// set ([`Isa::program_end`]): a last word without it is listed raw.
///
/// The third value is the word's own text where the line is raw only because that text
/// assembles to another word (bits the dialect does not print): a listing whose comments
/// carry the words shows it, as the vendor's disassembler does, and keeps the word in its
/// comment ([`listing_from`]).
fn listed<T: Isa>(
    word: u128,
    dialect: usize,
    pc: u64,
    last: bool,
    reading: &mut Reading,
) -> (String, Option<DecodeError>, Option<String>) {
    let d = dialect_of::<T>(dialect);
    match show::<T>(word, dialect, pc) {
        Ok(Shown::Text(text)) => {
            let error = T::decode(word).err();
            // Read back as the assembler reads a line: a text it would take for a label or cut
            // at a comment marker does not give the word back either.
            let back = match split_line(&text, d) {
                (None, code, _) => {
                    let ctx = Context { pc, labels: &|_| None, ignore_case: d.ignore_case, expression: None };
                    read_statement::<T>(code, dialect, &ctx, reading)
                }
                _ => Err(StatementError { pos: 0, length: 0, message: String::new() }),
            };
            let back = match back {
                Ok(Statement::Instruction(insn)) => T::encode(&insn).ok().map(|mut w| {
                    if last {
                        finish_program::<T>(core::slice::from_mut(&mut w));
                    }
                    w
                }),
                Ok(Statement::Raw(w)) => Some(w),
                Err(_) => None,
            };
            let (why, shared) = match (back, &error) {
                (Some(w), _) if w == word => return (text, error, None),
                // Why the word is no instruction says more than a text that is not it.
                (_, Some(e)) => (alloc::format!("{}", e.reason()), false),
                (Some(w), None) => (alloc::format!("{text} (assembles to {w:#x})"), true),
                (None, None) => (alloc::format!("{text} (does not assemble)"), false),
            };
            let raw = raw_text::<T>(d, word, Some(&why));
            let shared = (shared && raw.is_some()).then(|| text.clone());
            (raw.unwrap_or(text), error, shared)
        }
        Ok(Shown::Hidden { format }) => {
            let why = alloc::format!("{format}: no arm of the {} syntax shows this word", d.name);
            (raw_text::<T>(d, word, Some(&why)).unwrap_or_default(), None, None)
        }
        Err(e) => {
            let text =
                raw_text::<T>(d, word, Some(&e.reason())).unwrap_or_else(|| alloc::format!("<error: {e}>"));
            (text, Some(e), None)
        }
    }
}

/// Prints scheduling slot `slot` in dialect number `dialect` (its fields as numbers when the
/// dialect gives the slot no syntax).
pub fn slot_text(s: &Schedule, slot: u64, dialect: usize) -> String {
    let values = s.slot.unpack(u128::from(slot));
    let mut out = String::new();
    if let Some(syntax) = s.slot.syntax.get(dialect) {
        if syntax::print(syntax, &values, 0, &mut out) {
            return out;
        }
    }
    alloc::format!("{{slot {slot:#x}}}")
}

/// One line of a disassembled program.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Byte address of the word.
    pub address: u64,
    /// Its scheduling slot, printed (instructions of targets with control words).
    pub slot: Option<String>,
    /// The instruction; a word the dialect cannot show is its raw directive with the reason
    /// as a comment (`<error: ...>` in a dialect without a raw directive).
    pub text: String,
    /// Why the word did not decode (a control word: why it could not be read as one).
    pub error: Option<DecodeError>,
}

impl core::fmt::Display for Line {
    /// The slot, two spaces and the instruction.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if let Some(slot) = &self.slot {
            write!(f, "{slot}  ")?;
        }
        f.write_str(&self.text)
    }
}

/// Prints a whole program in dialect number `dialect`: one line per instruction, with its
/// scheduling slot where the target has control words. A control word that cannot be read is
/// listed with its group as raw words, the reason as a comment, and the listing goes on.
pub fn disassemble_program<T: Isa>(words: &[u128], dialect: usize) -> Vec<Line> {
    collect_lines(words.len(), |out| disassemble_program_from::<T>(words, 0, true, dialect, out))
}

/// The lines a streaming lister hands on, gathered.
fn collect_lines(capacity: usize, list: impl FnOnce(&mut dyn FnMut(Line))) -> Vec<Line> {
    let mut lines = Vec::with_capacity(capacity);
    list(&mut |line| lines.push(line));
    lines
}

/// [`disassemble_program`] of a piece of a program, handing each line to `out` as it is made,
/// so a program of any size is listed piece by piece: `words` are the program's words from
/// word number `first` on, which starts a group of a target with control words (a multiple of
/// the group's size) when `words` is not the last piece; `last` says it is.
pub fn disassemble_program_from<T: Isa>(
    words: &[u128],
    first: usize,
    last: bool,
    dialect: usize,
    out: &mut dyn FnMut(Line),
) {
    let Some(s) = T::schedule() else {
        return disassemble_words_from::<T>(words, &[], first, last, dialect, out);
    };
    let bytes = u64::from(T::WORD_BITS.div_ceil(8));
    let d = dialect_of::<T>(dialect);
    let group = s.slots as usize + 1;
    let index = worth_indexing(words.len()).then(|| format_index::<T>(dialect));
    let mut reading = Reading::indexed(index.as_deref());
    for (g, chunk) in words.chunks(group).enumerate() {
        let address = |i: usize| (first + g * group + i) as u64 * bytes;
        let (control, instructions) = (chunk[0], &chunk[1..]);
        let raw = |word: u128, why: &dyn core::fmt::Display| {
            raw_text::<T>(d, word, Some(why)).unwrap_or_else(|| alloc::format!("<error: {why}>"))
        };
        match s.read_control(control, instructions.len()) {
            Ok(slots) if !instructions.is_empty() => {
                for (i, (word, slot)) in instructions.iter().zip(slots).enumerate() {
                    let (text, error, _) = listed::<T>(*word, dialect, address(i + 1), false, &mut reading);
                    let slot = Some(slot_text(s, slot, dialect));
                    out(Line { address: address(i + 1), slot, text, error });
                }
            }
            // A control word at the very end has no instruction to carry its slots.
            Ok(_) => {
                let text = raw(control, &"a control word with no instruction after it");
                out(Line { address: address(0), slot: None, text, error: None });
            }
            Err(e) => {
                out(Line {
                    address: address(0),
                    slot: None,
                    text: raw(control, &e.reason()),
                    error: Some(e),
                });
                for (i, word) in instructions.iter().enumerate() {
                    let text = raw(*word, &"in the group of a control word that cannot be read");
                    out(Line { address: address(i + 1), slot: None, text, error: None });
                }
            }
        }
    }
}

/// Lists a piece of a program in dialect number `dialect`'s listing style
/// ([`ListingStyle`]), as NVIDIA's `nvdisasm -hex` prints one: every line with its address
/// and word, control words in comments of their own, and what the control words imply shown
/// on the text: the schedule's marks ([`crate::bundle::SlotMark`], nvdisasm's `.reuse`) and
/// the dual-issued pairs. Each line goes to `out` with the error of a word that did not
/// decode. `words` start a group (word number `first`; `last`: they end the program);
/// `paired` says the piece's first instruction closes a pair the last piece opened, and is
/// left saying it for the next piece. A word that prints no text is the dialect's raw
/// directive, as in [`disassemble_program_from`]. Nothing is listed for a target without
/// control words or a dialect without a listing style.
pub fn listing_from<T: Isa>(
    words: &[u128],
    first: usize,
    last: bool,
    dialect: usize,
    paired: &mut bool,
    out: &mut dyn FnMut(ListingLine),
) {
    let (Some(s), Some(style)) = (T::schedule(), dialect_of::<T>(dialect).listing) else { return };
    let d = dialect_of::<T>(dialect);
    let bytes = u64::from(T::WORD_BITS.div_ceil(8));
    let alone =
        |word: u128| ListingLine { text: String::new(), word: Some(word), error: None, raw: false, guard: 0 };
    let group = s.slots as usize + 1;
    let index = worth_indexing(words.len()).then(|| format_index::<T>(dialect));
    let mut reading = Reading::indexed(index.as_deref());
    let last_word = words.len().saturating_sub(1);
    for (g, chunk) in words.chunks(group).enumerate() {
        let at = |i: usize| first + g * group + i;
        let (control, instructions) = (chunk[0], &chunk[1..]);
        out(alone(control));
        let slots = s.read_control(control, instructions.len());
        if let Err(e) = &slots {
            let why = e.reason();
            for (i, word) in instructions.iter().enumerate() {
                let text = raw_text::<T>(d, *word, Some(&why)).unwrap_or_default();
                let (line, guard) = listing_line(style, at(i + 1) as u64 * bytes, "", &text, false, false);
                out(ListingLine { text: line, word: Some(*word), error: None, raw: true, guard });
            }
            *paired = false;
            continue;
        }
        let slots = slots.unwrap_or_default();
        for (i, (word, slot)) in instructions.iter().zip(slots).enumerate() {
            let pc = at(i + 1) as u64 * bytes;
            let end = last && g * group + i + 1 == last_word;
            // A word whose text is another's too shows that text here, as nvdisasm prints it:
            // the word comment holds its bits, and the listing reader keeps them for a line
            // left as it is (isa-cli `listing::keep_unedited`).
            let (text, error, shared) = listed::<T>(*word, dialect, pc, end, &mut reading);
            let close = core::mem::take(paired);
            let open = !close && s.pairs(slot);
            *paired = open;
            let shown =
                marked::<T>(*word, shared.as_deref().unwrap_or(&text), slot, s, dialect, pc, style.guard);
            let (body, decorated) = match &shown {
                Some(t) => (t.as_str(), true),
                None => (text.as_str(), false),
            };
            let close = close && decorated;
            let end_text = if decorated && !close {
                let end = match style.end {
                    Some((e, quiet)) if quiet == slot => e,
                    _ => d.end.unwrap_or(""),
                };
                alloc::format!("{end}{}", d.separator.unwrap_or(""))
            } else {
                String::new()
            };
            let (line, guard) = listing_line(style, pc, &end_text, body, open, close);
            if close {
                out(ListingLine { text: line, word: None, error, raw: false, guard });
                out(alone(*word));
            } else {
                out(ListingLine { text: line, word: Some(*word), error, raw: !decorated, guard });
            }
        }
    }
}

/// One line of a listing ([`listing_from`]): its text (empty on a word's own line) and the
/// word its comment holds, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct ListingLine {
    /// The text before the word comment.
    pub text: String,
    /// The word in the line's comment.
    pub word: Option<u128>,
    /// Why the word did not decode.
    pub error: Option<DecodeError>,
    /// The text is the dialect's raw directive (with its reason), which the alignment of the
    /// word comments leaves out.
    pub raw: bool,
    /// Characters of the guard (and the blank after it) in the guard's field of `text`, which
    /// the alignment of the word comments counts once more ([`align_listing`]).
    pub guard: usize,
}

/// Writes listing lines with their word comments at one column, as nvdisasm aligns them:
/// `style.words.0` blanks after the longest text with a word, and not left of the end of the
/// longest text without one (raw directives, which the disassembler does not print, left
/// out); each comment is `style.words.1`, the word in `word_bits / 4` hex digits after
/// `0x`, and `style.words.2`. A text's length counts its guard twice: nvdisasm 11.8 measures
/// the columns before the text and then the whole instruction, guard included, though the
/// guard stands in those columns (`@!P0 ` puts every comment 5 columns further right when its
/// line is the longest; research §G.7).
///
/// With `style.widen` (`???`), a text holding it after a blank has that blank widened so that
/// it starts where the longest text ends: each text measured from its mnemonic, its guard
/// added, and such a text only up to that blank. Its comment stands one blank nearer, its guard
/// counted once. nvdisasm 11.8 so prints `DEPBAR.LE ???6, 0x3;` (a scoreboard above 5): it
/// measures `???6` and what follows as nothing, then pads it out to the widest (research §G.7).
pub fn align_listing(lines: &[ListingLine], style: &ListingStyle, word_bits: u32, out: &mut dyn FnMut(&str)) {
    let widened = widen_listing(lines, style);
    let lines: &[ListingLine] = widened.as_deref().unwrap_or(lines);
    let marked = |l: &ListingLine| widens(l, style);
    let width = |l: &ListingLine| l.text.chars().count() + if marked(l) { 0 } else { l.guard };
    let slack = |l: &ListingLine| (style.words.0 as usize).saturating_sub(usize::from(marked(l)));
    let with = lines
        .iter()
        .filter(|l| l.word.is_some() && !l.text.is_empty() && !l.raw)
        .map(|l| width(l) + slack(l))
        .max();
    let without = lines.iter().filter(|l| l.word.is_none() && !l.raw).map(width).max().unwrap_or(0);
    let column = with.unwrap_or(0).max(without);
    let digits = word_bits.div_ceil(4) as usize;
    let mut line = String::new();
    for l in lines {
        line.clear();
        line.push_str(&l.text);
        if let Some(word) = l.word {
            let blanks = column.saturating_sub(l.text.chars().count());
            line.push_str(&" ".repeat(blanks));
            line.push_str(&alloc::format!("{}0x{word:0digits$x}{}", style.words.1, style.words.2));
        }
        out(&line);
    }
}

/// The lines with `style.widen`'s blanks widened ([`align_listing`]), or `None` when no line
/// holds it.
fn widen_listing(lines: &[ListingLine], style: &ListingStyle) -> Option<Vec<ListingLine>> {
    let marker = alloc::format!(" {}", style.widen);
    let marked = |l: &ListingLine| widens(l, style);
    if !lines.iter().any(marked) {
        return None;
    }
    // Where the mnemonic starts: after the address's closing text and the guard's field.
    let start = |l: &ListingLine| {
        let a1 = style.address.1;
        l.text.find(a1).map(|at| l.text[..at + a1.len()].chars().count() + style.column as usize)
    };
    let measured = |l: &ListingLine| {
        let end = if marked(l) { l.text.find(marker.as_str())? + 1 } else { l.text.len() };
        Some(l.text[..end].chars().count().checked_sub(start(l)?)? + l.guard)
    };
    let longest = lines.iter().filter(|l| l.word.is_some() && !l.raw).filter_map(measured).max().unwrap_or(0);
    let widened = lines
        .iter()
        .map(|l| {
            let (Some(from), Some(at)) = (start(l).filter(|_| marked(l)), l.text.find(marker.as_str()))
            else {
                return l.clone();
            };
            let before = l.text[..at].chars().count().saturating_sub(from);
            let blanks = longest.saturating_sub(before).max(1);
            let text = alloc::format!("{}{}{}", &l.text[..at], " ".repeat(blanks), &l.text[at + 1..]);
            ListingLine { text, ..l.clone() }
        })
        .collect();
    Some(widened)
}

/// Whether `l` holds `style.widen` after a blank.
fn widens(l: &ListingLine, style: &ListingStyle) -> bool {
    !style.widen.is_empty() && !l.raw && l.text.contains(alloc::format!(" {}", style.widen).as_str())
}

/// One instruction line of a listing: indent, address, the field holding the pair's opening
/// mark and the guard, the text and its end (or the pair's closing mark); with the characters
/// of the guard and its blank (0 without a guard).
fn listing_line(
    style: &ListingStyle,
    pc: u64,
    end: &str,
    text: &str,
    open: bool,
    close: bool,
) -> (String, usize) {
    let (a0, a1, digits) = style.address;
    let mut field: Vec<char> = alloc::vec![' '; style.column as usize];
    let (guard, rest) = match text.split_once(' ') {
        Some((g, rest)) if !style.guard.is_empty() && g.starts_with(style.guard) => (g, rest),
        _ => ("", text),
    };
    if open {
        for (k, c) in style.open.0.chars().enumerate() {
            if let Some(x) = field.get_mut(style.open.1 as usize + k) {
                *x = c;
            }
        }
    }
    if !guard.is_empty() {
        let g: Vec<char> = alloc::format!("{guard} ").chars().collect();
        let from = field.len().saturating_sub(g.len());
        field.truncate(from);
        field.extend(g);
    }
    let field: String = field.into_iter().collect();
    let tail = if close {
        alloc::format!("{}{}", " ".repeat(style.close.1 as usize), style.close.0)
    } else {
        end.into()
    };
    let line = alloc::format!(
        "{}{a0}{pc:0w$x}{a1}{field}{rest}{tail}",
        " ".repeat(style.indent as usize),
        w = digits as usize
    );
    (line, if guard.is_empty() { 0 } else { guard.chars().count() + 1 })
}

/// The text of instruction `word` with the marks its slot implies ([`crate::bundle::SlotMark`]),
/// without the dialect's end; `None` when `listed` is not the word's printed text (a raw
/// directive) or the word's syntax cannot say where its operands are.
fn marked<T: Isa>(
    word: u128,
    listed: &str,
    slot: u64,
    s: &Schedule,
    dialect: usize,
    pc: u64,
    guard: &str,
) -> Option<String> {
    let d = dialect_of::<T>(dialect);
    let word = own_bits::<T>(word);
    let format = T::formats()[T::match_format(word)?];
    let syntax = format.syntax.get(dialect)?;
    let mut text = String::new();
    let values = format.unpack(word);
    let (complete, shown) = syntax::print_showing(syntax, &values, pc, &mut text);
    let ending = alloc::format!("{}{}", d.end.unwrap_or(""), d.separator.unwrap_or(""));
    if !complete || listed.strip_suffix(ending.as_str()) != Some(text.as_str()) {
        return None;
    }
    let Some(mark) = s.mark_for(format, &values) else { return Some(text) };
    let flags = s.slot.unpack(u128::from(slot));
    let set = |k: usize| mark.flags.get(k).and_then(|f| flags.get(usize::from(*f))).is_some_and(|v| *v != 0);
    let mut inserts: Vec<(usize, &str)> = Vec::new();
    if mark.mnemonic {
        // The text numbered by the first flags' value, after the mnemonic (the first word
        // after the guard).
        let bits = mark.texts.len().trailing_zeros() as usize;
        let value = (0..bits).filter(|k| set(*k)).map(|k| 1usize << k).sum::<usize>();
        let start = match text.split_once(' ') {
            Some((g, _)) if !guard.is_empty() && g.starts_with(guard) => g.len() + 1,
            _ => 0,
        };
        let end = text[start..].find(' ').map_or(text.len(), |e| start + e);
        if let Some(t) = mark.texts.get(value).filter(|t| !t.is_empty()) {
            inserts.push((end, t));
        }
    } else {
        for k in (0..mark.flags.len()).filter(|k| set(*k)) {
            let Some(mark_text) = mark.texts.get(k).or(mark.texts.last()) else { continue };
            let field = mark.operands.get(k).and_then(|o| format.field(o));
            let Some(at) = field.and_then(|f| shown.get(f).copied().flatten()) else { continue };
            inserts.push((operand_end(&text, at), mark_text));
        }
    }
    inserts.sort_by_key(|i| core::cmp::Reverse(i.0));
    for (at, t) in inserts {
        text.insert_str(at, t);
    }
    Some(text)
}

/// Where the operand holding offset `at` of `text` ends: at the next `,` outside brackets
/// (or the text's end), blanks before it left out.
fn operand_end(text: &str, at: usize) -> usize {
    let mut depth = 0i32;
    let mut end = text.len();
    for (i, c) in text[at..].char_indices() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth <= 0 => {
                end = at + i;
                break;
            }
            _ => {}
        }
    }
    at + text[at..end].trim_end().len()
}

/// Prints words that are all instructions (no control words, whatever the target) in dialect
/// number `dialect`, one line per word.
pub fn disassemble_words<T: Isa>(words: &[u128], dialect: usize) -> Vec<Line> {
    collect_lines(words.len(), |out| disassemble_words_from::<T>(words, &[], 0, true, dialect, out))
}

/// Prints a byte stream of instructions that differ in length, split into its pieces as
/// [`split_pieces`] reads them, in dialect number `dialect`: [`disassemble_words_from`] with
/// each piece's length.
pub fn disassemble_pieces<T: Isa>(pieces: &[(u128, usize)], dialect: usize) -> Vec<Line> {
    let (words, lengths): (Vec<u128>, Vec<usize>) = pieces.iter().copied().unzip();
    collect_lines(words.len(), |out| disassemble_words_from::<T>(&words, &lengths, 0, true, dialect, out))
}

/// [`disassemble_words`] of the words from word number `first` on, handing each line to `out`;
/// `last`: the words end the program. Where instructions differ in length, `first` is the
/// byte address of the first word and `lengths` the words' lengths in bytes as the stream
/// held them ([`split_pieces`]; a word without one is as long as its instruction): a piece
/// whose word says another length — its instruction's length rule reads bits past the
/// piece — would assemble to other bytes, text and raw directive alike, so it lists as the
/// dialect's byte directive with the reason, which the assembler writes as it is.
pub fn disassemble_words_from<T: Isa>(
    words: &[u128],
    lengths: &[usize],
    first: usize,
    last: bool,
    dialect: usize,
    out: &mut dyn FnMut(Line),
) {
    let bytes = u64::from(T::WORD_BITS.div_ceil(8));
    // Instructions of different lengths: `first` is the piece's byte address.
    let variable = !T::lengths().is_empty();
    let mut address = if variable { first as u64 } else { first as u64 * bytes };
    let index = worth_indexing(words.len()).then(|| format_index::<T>(dialect));
    let mut reading = Reading::indexed(index.as_deref());
    for (i, word) in words.iter().enumerate() {
        let own = instruction_bytes::<T>(*word);
        let length = if variable { lengths.get(i).copied().unwrap_or(own) } else { bytes as usize };
        let data = (variable && length != own).then(|| {
            let mut piece = Vec::with_capacity(length);
            word_to_bytes(*word, length, true, &mut piece);
            let why = piece_of_another_length(length, own);
            let error = DecodeError::NoMatchBytes { bytes: *word, length: length as u8 };
            (data_text(dialect_of::<T>(dialect), &piece, Some(&why)), error)
        });
        let (text, error) = match data {
            Some((Some(text), error)) => (text, Some(error)),
            // The program's last word reads back with the program-end bit the assembler sets
            // there. (A dialect without a byte directive shows a piece of another length as
            // its word: the best it can.)
            _ => {
                let (text, error, _) =
                    listed::<T>(*word, dialect, address, last && i + 1 == words.len(), &mut reading);
                (text, error)
            }
        };
        out(Line { address, slot: None, text, error });
        address += if variable { length as u64 } else { bytes };
    }
}

/// Prints `insn` (at address `pc`) in dialect number `dialect`. Its word is the dialect's raw
/// directive where no syntax shows it, and bare hex (`0x...`) in a dialect without one: text,
/// never an error message standing in for an instruction.
pub fn disassemble<T: Isa>(insn: &T::Instruction, dialect: usize, pc: u64) -> Result<String, EncodeError> {
    let word = T::encode(insn)?;
    Ok(match disassemble_word::<T>(word, dialect, pc) {
        Ok(text) if !text.is_empty() => text,
        _ => {
            raw_text::<T>(dialect_of::<T>(dialect), word, None).unwrap_or_else(|| alloc::format!("{word:#x}"))
        }
    })
}

/// Splits a source line into (label, instruction text and its byte offset).
fn split_line<'a>(line: &'a str, dialect: &Dialect) -> (Option<&'a str>, &'a str, usize) {
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
    let mut packer =
        Packer::<T> { held: None, group: Vec::new(), write, scheduled, target: core::marker::PhantomData };
    let tables = assemble_lines::<T, (u128, bool)>(
        name,
        source,
        dialect,
        includer,
        &convert,
        report,
        &mut |slot, (w, text), length| packer.push(slot, w, text, length),
    );
    packer.finish();
    tables
}

/// Writes a program's words in order as they come ([`bundle::pack_program`] as a stream): the
/// last one held back, for the program-end bit goes on the last instruction, and where the
/// target interleaves control words, each group's instructions until its control word is
/// written before them.
struct Packer<'w, T> {
    /// The last word: slot, word, whether it is an instruction's (not a raw or data word), its
    /// length where not its own.
    held: Option<(u64, u128, bool, Option<usize>)>,
    group: Vec<(u64, u128)>,
    write: &'w mut dyn FnMut(u128, Option<usize>),
    /// Whether the target's control words are written ([`Includer::scheduled`]).
    scheduled: bool,
    target: core::marker::PhantomData<T>,
}

impl<T: Isa> Packer<'_, T> {
    fn push(&mut self, slot: u64, word: u128, instruction: bool, length: Option<usize>) {
        if let Some((slot, word, _, length)) = self.held.replace((slot, word, instruction, length)) {
            self.add(slot, word, length);
        }
    }

    fn add(&mut self, slot: u64, word: u128, length: Option<usize>) {
        let Some(s) = T::schedule().filter(|_| self.scheduled) else {
            return (self.write)(word, length);
        };
        self.group.push((slot, word));
        if self.group.len() == s.slots as usize {
            self.write_group();
        }
    }

    /// The group's control word and words, the missing slots padded as
    /// [`bundle::pack_program`] pads them.
    fn write_group(&mut self) {
        for w in bundle::pack_program::<T>(&core::mem::take(&mut self.group)) {
            (self.write)(w, None);
        }
    }

    fn finish(mut self) {
        if let Some((slot, mut word, instruction, length)) = self.held.take() {
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
                _ => self.add(slot, word, length),
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
    fn at(pos: usize, message: String) -> Self {
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

/// Reads the scheduling slot at the start of `code`: its raw bits and the byte offset where the
/// instruction starts. Text that does not start a slot gets the default slot; a slot that
/// starts but is wrong is an error at its position. A slot is read in `scratch`, and read
/// again to describe a failure only when that fails.
fn read_slot<T: Isa>(
    code: &str,
    dialect: usize,
    ctx: &Context,
    scratch: &mut syntax::Scratch,
) -> Result<(u64, usize), StatementError> {
    let Some(s) = T::schedule() else { return Ok((0, 0)) };
    let Some(syntax) = s.slot.syntax.get(dialect) else { return Ok((s.default_slot, 0)) };
    let quick = match syntax::quick_in(scratch, s.slot, syntax, code, ctx, true) {
        syntax::Quick::Read(values, end) => Some((values, end)),
        syntax::Quick::Never => None,
        syntax::Quick::Unsure => syntax::parse_prefix_in(scratch, s.slot, syntax, code, ctx),
    };
    let read = match quick {
        Some(read) => Ok(read),
        None => syntax::parse_prefix(s.slot, syntax, code, ctx),
    };
    match read {
        Ok((values, end)) if end > 0 => {
            let raw = s.slot.pack(&values) as u64;
            (s.check)(raw).map(|_| (raw, end)).map_err(|e| StatementError::at(0, e.to_string()))
        }
        Err(f) if f.pos > 0 => {
            let (start, length) = syntax::token_at(code, f.pos);
            let message = alloc::format!("in the scheduling slot: {}", f.message(code));
            Err(StatementError { pos: start, length, message })
        }
        _ => Ok((s.default_slot, 0)),
    }
}

/// One statement of a source text: its code without label and comments, and where it is.
struct Piece<'a> {
    /// Byte offset of `code` in the source.
    start: usize,
    /// The statement's text; in a dialect with a separator, its line ends are blanks.
    code: alloc::borrow::Cow<'a, str>,
    /// Its label and the label's byte offset in the source.
    label: Option<(&'a str, usize)>,
}

/// `source` with every comment of dialect `d` (line and block comments) blanked out byte for
/// byte, line ends kept, so offsets and line numbers stay those of the source. A string in
/// double quotes closed on its line is no comment's start: grate's `.uniforms [0] =
/// "a//b";` names `a//b` (its lexers read `"..."` as one token). Also where a block comment
/// that `source` does not close opens.
pub(crate) fn blank_comments_open(source: &str, d: &Dialect) -> (String, Option<usize>) {
    let mut out = source.as_bytes().to_vec();
    let mut open = None;
    let mut i = 0;
    while i < source.len() {
        let rest = &source[i..];
        if let Some(after) = rest.strip_prefix('"') {
            let line = after.find('\n').unwrap_or(after.len());
            if let Some(close) = after[..line].find('"') {
                i += close + 2;
                continue;
            }
        }
        let block = d.block_comments.iter().find(|(open, _)| rest.starts_with(open));
        let end = if let Some((start, close)) = block {
            match rest[start.len()..].find(close) {
                Some(e) => i + start.len() + e + close.len(),
                None => {
                    open = Some(i);
                    source.len()
                }
            }
        } else if d.comments.iter().any(|m| rest.starts_with(m)) {
            rest.find('\n').map_or(source.len(), |e| i + e)
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        for b in &mut out[i..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        i = end;
    }
    // Whole comments (ASCII-delimited) became ASCII blanks: still UTF-8.
    (String::from_utf8(out).unwrap_or_default(), open)
}

/// The statements of a file's `text` in dialect `d` ([`directives::Spelling::statements`]):
/// the text to read them from and each statement's byte range ([`pieces`]), `in_data` when
/// the text starts in a data section. Where `more` of the file follows (the main source read
/// in pieces), only the statements certainly whole are split: up to the start of the last line
/// at which no block comment and no statement is open ([`piece_end`]); the rest is split with
/// what follows.
pub(crate) fn split_statements(text: &str, d: &Dialect, in_data: bool, more: bool) -> directives::Split {
    let (blanked, open) = if !d.block_comments.is_empty() || d.separator.is_some() {
        let (b, open) = blank_comments_open(text, d);
        (Some(b), open)
    } else {
        (None, None)
    };
    let alone = |line: &str| alone_in_line(line, d);
    let end = if more { piece_end(blanked.as_deref().unwrap_or(text), open, d, &alone) } else { text.len() };
    // Cut at a line start outside comments and quotes: the blanked prefix is the prefix's own.
    let text = &text[..end];
    let blanked = blanked.map(|mut b| {
        b.truncate(end);
        b
    });
    let mut in_data = in_data;
    let ranges: Vec<(usize, usize)> = pieces(text, &blanked, d, &mut in_data)
        .iter()
        .map(|p| (p.label.map_or(p.start, |(_, at)| at.min(p.start)), p.start + p.code.len()))
        .collect();
    let code = blanked.unwrap_or_else(|| text.to_string());
    let code = if d.separator.is_some() { code.replace(['\n', '\r', '\t'], " ") } else { code };
    directives::Split { code, ranges, end, in_data }
}

/// Where a piece of a file's text may end, its comments blanked (`blanked`; a block comment
/// opened at `open` and not closed in it): the start of the last line before which no block
/// comment is open and, where the dialect ends statements with a separator, the last statement
/// ended with it (only blanks after it), or with lines that are statements of their own which
/// no separator ends (`alone`: a section directive, [`alone_in_line`]; a bundled program's
/// header settings too). 0 where there is none: the piece is read with more.
pub(crate) fn piece_end(
    blanked: &str,
    open: Option<usize>,
    d: &Dialect,
    alone: &dyn Fn(&str) -> bool,
) -> usize {
    let limit = open.unwrap_or(blanked.len());
    // Line starts from the last one not past the limit, backwards.
    let mut at = blanked[..limit].rfind('\n').map_or(0, |n| n + 1);
    loop {
        let mut before = blanked[..at].trim_end();
        // Lines that are whole statements without a separator end what is before them.
        loop {
            let (head, last) = before.rsplit_once('\n').unwrap_or(("", before));
            let last = last.trim();
            if last.is_empty() || !alone(last) {
                break;
            }
            before = head.trim_end();
        }
        if d.separator.is_none_or(|sep| before.is_empty() || before.ends_with(sep)) {
            return at;
        }
        match blanked[..before.len()].rfind('\n') {
            Some(n) => at = n + 1,
            None => return 0,
        }
    }
}

/// Whether `line` (trimmed) is a section directive alone, a statement of its own that no
/// separator ends ([`piece_end`]).
pub(crate) fn alone_in_line(line: &str, d: &Dialect) -> bool {
    section_directive(line, d).is_some_and(|(_, n)| n == line.len())
}

/// The statements of `source` in dialect `d`: one per line, or, where the dialect has a
/// separator, one per separator (spanning lines); block comments anywhere. A section directive
/// is a statement of its own wherever it starts a word outside quotes (an empty section ends
/// at the next directive, with no separator between); a data section's statements have no
/// labels (the expansion reads them as table entries).
fn pieces<'a>(
    source: &'a str,
    blanked: &'a Option<String>,
    d: &Dialect,
    in_data: &mut bool,
) -> Vec<Piece<'a>> {
    let mut out = Vec::new();
    let text = blanked.as_deref().unwrap_or(source);
    let sections: Vec<&str> = d.code_section.iter().chain(d.data_sections.iter()).copied().collect();
    // `chunk` starts at byte `start` of `text`; `flat` when its line ends were made blanks.
    let mut push = |start: usize, chunk: &str, flat: bool| {
        let (mut start, mut chunk) = (start, chunk);
        // Section directives, each a statement of its own, and the pieces between them.
        while let Some(cut) = crate::table::next_directive(chunk, &sections, d.ignore_case) {
            let Some((data, len)) = section_directive(&chunk[cut..], d) else { break };
            if !chunk[..cut].trim().is_empty() {
                out.push(piece(text, start, &chunk[..cut], flat, *in_data, d));
            }
            let code = chunk[cut..cut + len].trim_start();
            let at = start + cut + len - code.len();
            let code =
                if flat { Cow::Owned(code.to_string()) } else { Cow::Borrowed(&text[at..at + code.len()]) };
            out.push(Piece { start: at, code, label: None });
            *in_data = data;
            start += cut + len;
            chunk = &chunk[cut + len..];
            if chunk.trim().is_empty() {
                return;
            }
        }
        out.push(piece(text, start, chunk, flat, *in_data, d));
    };
    match d.separator {
        Some(sep) => {
            let mut start = 0;
            while start < text.len() {
                let end = text[start..].find(sep).map_or(text.len(), |e| start + e);
                let chunk = &text[start..end];
                if !chunk.trim().is_empty() {
                    push(start, &chunk.replace(['\n', '\r', '\t'], " "), true);
                }
                start = end + sep.len();
            }
        }
        None => {
            let mut start = 0;
            for line in text.split('\n') {
                let len = line.len();
                push(start, line.strip_suffix('\r').unwrap_or(line), false);
                start += len + 1;
            }
        }
    }
    out
}

/// The statement `chunk` at byte `start` of `text` (`flat`: its line ends made blanks): its
/// label and code, or in a data section, its text whole (a table entry has no label).
fn piece<'a>(text: &'a str, start: usize, chunk: &str, flat: bool, in_data: bool, d: &Dialect) -> Piece<'a> {
    let (label, code, offset) = if in_data {
        let code = chunk[..directives::comment_start(chunk, d.comments)].trim();
        (None, code, chunk.len() - chunk.trim_start().len())
    } else {
        split_line(chunk, d)
    };
    let label = label.map(|l| {
        let at = start + (l.as_ptr() as usize - chunk.as_ptr() as usize);
        (&text[at..at + l.len()], at)
    });
    let code = if flat {
        Cow::Owned(code.to_string())
    } else {
        Cow::Borrowed(&text[start + offset..start + offset + code.len()])
    };
    Piece { start: start + offset, code, label }
}

/// The section directive that starts `chunk` (after blanks), if any: whether it starts a data
/// section, and the bytes up to its end.
pub(crate) fn section_directive(chunk: &str, d: &Dialect) -> Option<(bool, usize)> {
    let rest = chunk.trim_start();
    let skipped = chunk.len() - rest.len();
    let directives =
        d.code_section.iter().map(|c| (false, *c)).chain(d.data_sections.iter().map(|s| (true, *s)));
    for (data, directive) in directives {
        let Some(head) = rest.get(..directive.len()) else { continue };
        let same = if d.ignore_case { head.eq_ignore_ascii_case(directive) } else { head == directive };
        let ends =
            rest[directive.len()..].chars().next().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        if same && ends {
            return Some((data, skipped + directive.len()));
        }
    }
    None
}

/// The expression reader of the final read and of relaxation: its names are labels only (at
/// `labels`), since expansion replaced every symbol; `expression` is `None` for a dialect
/// without directives. Binds `$names` and `$expression` in the caller.
macro_rules! label_expressions {
    ($labels:expr, $named:expr, $d:expr, $names:ident, $expression:ident) => {
        let label = |name: &str| $labels.get(name).map(|a| *a as i64);
        let $names = Names {
            symbol: &|_| None,
            label: &label,
            label_prefixes: $d.label_prefixes,
            call: None,
            bare_names: false,
        };
        // An operand starting with a name, in a program that defines none, is no symbol nor
        // label misspelt: it reads as text that is not a number at all, and errors list what
        // the operand takes (a name further in, `1 + x`, is still said to be undefined).
        let named = $named;
        let read_expression = |text: &str| {
            expr::evaluate(text, 0, &$names).map_err(|e| match e {
                e if e.undefined && !named && e.pos == 0 => {
                    expr::ExprError { undefined: false, end: None, ..e }
                }
                e => e,
            })
        };
        let $expression = (!$d.directives.is_empty()).then_some(&read_expression as &dyn Fn(&str) -> _);
    };
}

/// Assembles every statement of `source` (one per line, or per separator where the dialect has
/// one: [`pieces`]) into its scheduling slot and what `convert` makes of it (data becomes raw
/// words); `convert`'s errors are reported at the statement. Each error goes to `report` as it
/// is found, with its line's text; the program is returned when there was none. Two passes:
/// [`directives::expand`] lays the program out (labels get their addresses), then every
/// statement is read; both are linear in the expanded source. Where instructions differ in
/// length, [`relax`] moves the labels to the instructions' byte offsets in between. Data that
/// ends the program is written as it is: its last piece may be shorter than a word, and its
/// length is returned with the statements ([`Assembled::lengths`]); so is that of data whose
/// bytes begin an instruction of another length, where instructions differ in length.
fn assemble_lines<T: Isa, X>(
    name: &str,
    source: &mut dyn Source,
    dialect: usize,
    includer: &mut dyn Includer,
    convert: &dyn Fn(Statement<T::Instruction>) -> Result<X, String>,
    report: &mut dyn FnMut(&AsmError, &str),
    emit: &mut dyn FnMut(u64, X, Option<usize>),
) -> Option<crate::table::Filled> {
    let d = dialect_of::<T>(dialect);
    // The target's control words, unless every statement is an instruction word.
    let schedule = T::schedule().filter(|_| includer.scheduled());
    // Statements spanning lines, block comments and sections: the dialect's own statements,
    // each where it is in the source.
    let split = |text: &str, in_data: bool, more: bool| split_statements(text, d, in_data, more);
    let own_statements = d.separator.is_some()
        || !d.block_comments.is_empty()
        || d.code_section.is_some()
        || !d.data_sections.is_empty();
    let spelling =
        directives::Spelling::of(d, true, own_statements.then_some(&split as directives::Statements));
    let word_bytes = u64::from(T::WORD_BITS.div_ceil(8));
    // Instructions that differ in length: labels at the instructions' real byte offsets, data
    // padded only to the shortest instruction.
    let variable = !T::lengths().is_empty() && T::schedule().is_none();
    let code_align = if variable { u64::from(shortest_length::<T>().div_ceil(8)) } else { word_bytes };
    let scheduled = |k: usize| bundle::address::<T>(k);
    let layout = directives::Layout {
        word_bytes,
        code_align,
        scheduled: schedule.is_some().then_some(&scheduled as &dyn Fn(usize) -> u64),
    };
    // The `-i` files, read once for both passes.
    let preludes = includer.preludes();
    let validates = includer.validates();
    let mut given = Given { inner: includer, preludes };
    let mut failed = false;
    // Pass 1: expansion and label addresses. Where the layout is final when expansion ends
    // (every instruction a word), its lines are counted and dropped as they come, and pass 2
    // expands the source again and writes each line as it comes: the memory is that of the
    // symbols, labels and sources, not of the program. Where instructions differ in length
    // (relaxation lays the program out again and again) or a `.clone` copies lines from
    // anywhere, the expanded lines are kept.
    let code_lines =
        |lines: &[directives::Expanded]| lines.iter().filter(|e| matches!(e.kind, Kind::Code(_))).count();
    let mut statements = 0usize;
    // The expansion's errors and warnings, placed as they are found (with their line's text,
    // while it is held), reported once the pass is over.
    let (mut errors, mut warnings) = (Vec::new(), Vec::new());
    let streamed = if variable {
        None
    } else {
        directives::expand_streaming(name, source, &spelling, &layout, &mut given, &mut |p, handed| {
            let keep = |list: &mut Vec<(AsmError, String)>, l: &directives::Located| {
                let e = p.located(l);
                let line = p.source_line(&e).to_string();
                list.push((e, line));
            };
            match handed {
                Handed::Lines(lines) => statements += code_lines(&lines),
                Handed::Error(e) => keep(&mut errors, &e),
                Handed::Warning(w) => keep(&mut warnings, &w),
            }
        })
    };
    let streaming = streamed.is_some();
    let mut program = match streamed {
        Some(p) => p,
        None => {
            // Held whole: the first pass's findings are found again.
            let text = directives::read_all(source);
            let (p, e) = directives::expand(name, &text, &spelling, &layout, &mut given);
            statements = code_lines(&p.lines);
            let placed = |l: &directives::Located| {
                let e = p.located(l);
                let line = p.source_line(&e).to_string();
                (e, line)
            };
            errors = e.iter().map(placed).collect();
            warnings = p.warnings.iter().map(placed).collect();
            p
        }
    };
    for (e, line) in errors {
        failed = true;
        report(&e, &line);
    }
    for (w, line) in warnings {
        given.inner.warning(&w, &line);
    }
    // Each error with the text of the source line it is at (a statement may span lines), or
    // the text kept with it where the line may have been let go.
    let mut fail = |program: &directives::Program, e: AsmError, line: Option<&str>| {
        failed = true;
        report(&e, line.unwrap_or_else(|| program.source_line(&e)));
    };
    // One index of the dialect's formats for relaxation and the final read, where there are
    // enough statements to pay for it.
    let index = worth_indexing(statements).then(|| format_index::<T>(dialect));
    let relaxed = if variable {
        match relax::<T>(&program, dialect, word_bytes, index.as_deref()) {
            Ok(r) => Some(r),
            Err(e) => {
                fail(&program, e, None);
                None
            }
        }
    } else {
        None
    };
    let defines_names = program.defines_names();
    let labels = core::mem::take(&mut program.labels);
    let labels_at = relaxed.as_ref().map_or(&labels, |r| &r.labels);
    // Pass 2: statements and data, every label known.
    let lookup = |name: &str| labels_at.get(name).copied();
    label_expressions!(labels_at, defines_names, d, names, expression);
    let mut reading = Reading::indexed(index.as_deref());
    reading.scratch = take_scratch();
    // Instructions so far, failed ones included, so later addresses stay right; bytes of data
    // not yet in a word.
    let mut index = 0usize;
    let mut bytes = 0u64;
    let mut data: Vec<u8> = Vec::new();
    // Where each data line's bytes start in `data`, to locate an error in them, with the
    // line's text (its piece of the source may be let go before the word is made).
    let mut data_lines: Vec<(usize, directives::Expanded, String)> = Vec::new();
    // The most bytes a word takes: data is made into words as soon as more bytes than that
    // follow it (the same words as at the next instruction: a piece's length is read off
    // that many bytes), so a long run of data is not held until its end.
    let longest = T::WORD_BITS.div_ceil(8) as usize;
    // Data as words: whole words, or where instructions differ in length, pieces as long as
    // the instruction each piece's bytes begin where they can be ([`data_piece`]), so that
    // every byte is written as it is. A piece written at another length than its word's own
    // goes with its length: at the end of the program (`end`) the last piece, as long as the
    // bytes left; where instructions differ in length, any piece. `all`: every byte (an
    // instruction or the end follows), else only the words more bytes follow.
    let words_of = |program: &directives::Program,
                    data: &mut Vec<u8>,
                    lines: &mut Vec<(usize, directives::Expanded, String)>,
                    emit: &mut dyn FnMut(u64, X, Option<usize>),
                    end: bool,
                    all: bool|
     -> Option<(AsmError, String)> {
        let line_at = |offset: usize| lines.iter().rev().find(|(s, ..)| *s <= offset).or(lines.first());
        let mut error = None;
        let mut at = 0;
        while at < data.len() && (all || data.len() - at > longest) {
            let start = at;
            let length = if variable {
                data_piece::<T>(&data[at..])
            } else {
                data.len().min(at + word_bytes as usize) - at
            };
            // A fixed-length word's bytes from its first one in memory order, zeros after a
            // short last piece (which its length then cuts off again).
            let mut piece = data[at..at + length].to_vec();
            if !variable {
                piece.resize(word_bytes as usize, 0);
            }
            let word = word_from_bytes(&piece, T::LITTLE_ENDIAN);
            at += length;
            let written = if variable { instruction_bytes::<T>(word) } else { word_bytes as usize };
            let cut = (written != length && (variable || end && at == data.len())).then_some(length);
            match convert(Statement::Raw(word)) {
                // A data word takes the slot a raw word without one does.
                Ok(x) => emit(schedule.map_or(0, |s| s.default_slot), x, cut),
                Err(message) => {
                    if let Some((_, e, text)) = line_at(start) {
                        error = Some((program.locate(e, 0, 0, message), text.clone()));
                    }
                }
            }
        }
        // The lines from the one holding the first byte left.
        let first = if all { lines.len() } else { lines.iter().rposition(|(s, ..)| *s <= at).unwrap_or(0) };
        lines.drain(..first);
        for line in lines.iter_mut() {
            line.0 = line.0.saturating_sub(at);
        }
        data.drain(..at);
        error
    };
    let mut last_data = false;
    // The instructions, each located at its line (with the line's text, which streaming lets
    // go), to check the program's rules at the end when asked (`-V`: the rules relate
    // instructions anywhere in the program, so these are held).
    let mut checked: Vec<(T::Instruction, AsmError, String)> = Vec::new();
    let shared = core::cell::RefCell::new(given);
    // The tables the data sections' entries fill, line by line.
    let mut filler = crate::table::Filler::new(d.data_sections, T::tables(), d.ignore_case);
    let mut step = |program: &directives::Program, n_line: usize, e: directives::Expanded| {
        if last_data {
            // The data so far made into the words more bytes follow.
            if let Some((err, line)) = words_of(program, &mut data, &mut data_lines, &mut *emit, false, false)
            {
                fail(program, err, Some(&line));
            }
        }
        match &e.kind {
            Kind::Zeros(_) | Kind::Pad { .. } => {
                // Padding as the real layout needs it, where relaxation laid the program out.
                let n = match (&e.kind, &relaxed) {
                    (Kind::Pad { .. }, Some(r)) => r.addresses[n_line + 1] - r.addresses[n_line],
                    (Kind::Zeros(n) | Kind::Pad { bytes: n, .. }, _) => *n,
                    _ => 0,
                };
                data.extend(core::iter::repeat_n(0, n as usize));
                bytes += n;
                last_data = true;
                let line = data_line(program, &e);
                data_lines.push((data.len() - n as usize, e, line));
            }
            Kind::Data { width, float, values, text } => {
                let first = data.len();
                for &(s, end) in values {
                    let value = &text[s..end];
                    let bad = |message: String| program.locate(&e, s, end - s, message);
                    let v = match expr::evaluate(value, 0, &names) {
                        Ok((v, len)) if len == value.len() => v,
                        Ok((_, len)) => {
                            let message = alloc::format!("unexpected `{}` after the value", &value[len..]);
                            fail(program, program.locate(&e, s + len, value.len() - len, message), None);
                            continue;
                        }
                        Err(x) => {
                            fail(program, program.locate(&e, s + x.pos, x.length, x.message), None);
                            continue;
                        }
                    };
                    let bits = u32::from(*width) * 8;
                    let raw = match (float, v) {
                        (true, v) => {
                            let f = match v {
                                expr::Value::Float(f) => f,
                                other => other.int().unwrap_or(0) as f64,
                            };
                            match width {
                                2 => u64::from(crate::arith::f64_to_f16(f)),
                                4 => u64::from((f as f32).to_bits()),
                                _ => f.to_bits(),
                            }
                        }
                        (false, expr::Value::Float(f)) if d.float_bits => {
                            f.to_bits() & crate::bits::mask(bits)
                        }
                        (false, expr::Value::Float(_)) => {
                            fail(program, bad("an integer directive takes integers".into()), None);
                            continue;
                        }
                        (false, v) => {
                            let x = i128::from(v.int().unwrap_or(0));
                            if bits < 64 && (x < -(1i128 << (bits - 1)) || x >= 1i128 << bits) {
                                fail(
                                    program,
                                    bad(alloc::format!("{value} does not fit in {bits} bits")),
                                    None,
                                );
                                continue;
                            }
                            x as u64
                        }
                    };
                    let mut le = Vec::new();
                    word_to_bytes(u128::from(raw), *width as usize, T::LITTLE_ENDIAN, &mut le);
                    data.extend(le);
                }
                bytes += u64::from(*width) * values.len() as u64;
                last_data = true;
                let line = data_line(program, &e);
                data_lines.push((first, e, line));
            }
            Kind::Bits { first, bytes: added, values, text } => {
                let start = data.len();
                let mut bit = *first;
                for &(s, end) in values {
                    let value = &text[s..end];
                    let v = match expr::evaluate(value, 0, &names) {
                        Ok((expr::Value::Int(v @ 0..=1), len)) if len == value.len() => v as u8,
                        Ok(_) => {
                            let message = alloc::format!("{value} is not a bit (0 or 1)");
                            fail(program, program.locate(&e, s, end - s, message), None);
                            0
                        }
                        Err(x) => {
                            fail(program, program.locate(&e, s + x.pos, x.length, x.message), None);
                            0
                        }
                    };
                    // A line that starts a byte, or goes past the one left open, opens one.
                    if bit == 0 || data.is_empty() {
                        data.push(0);
                    }
                    if let Some(last) = data.last_mut() {
                        *last |= v << bit;
                    }
                    bit = (bit + 1) % 8;
                }
                bytes += added;
                last_data = true;
                let line = data_line(program, &e);
                data_lines.push((start, e, line));
            }
            Kind::Entry { .. } => {
                if let Some(err) = filler.line(program, &e) {
                    fail(program, err, None);
                }
            }
            Kind::Code(text) => {
                if core::mem::take(&mut last_data) {
                    if let Some((err, line)) =
                        words_of(program, &mut data, &mut data_lines, &mut *emit, false, true)
                    {
                        fail(program, err, Some(&line));
                    }
                }
                let pc = match &relaxed {
                    Some(r) => r.addresses[n_line],
                    // Data before fills whole slots (raw words): the slot is the word count.
                    None if schedule.is_some() => bundle::address::<T>((bytes / word_bytes) as usize),
                    None => bytes,
                };
                let code = text.as_str();
                // The first instruction past the target's limit is the error (once).
                if T::max_instructions() == Some(index) {
                    let skip = code.len() - code.trim_start().len();
                    let message = alloc::format!("a program holds at most {index} instructions");
                    fail(program, program.locate(&e, skip, code.trim().len(), message), None);
                }
                index += 1;
                bytes += word_bytes;
                let mut error = |err: StatementError, skip: usize| {
                    fail(program, program.locate(&e, skip + err.pos, err.length, err.message), None);
                };
                let ctx = Context { pc, labels: &lookup, ignore_case: d.ignore_case, expression };
                let slot = match schedule {
                    Some(_) => read_slot::<T>(code, dialect, &ctx, &mut reading.scratch),
                    None => Ok((0, 0)),
                };
                let (slot, skip) = match slot {
                    Ok(s) => s,
                    Err(err) => {
                        error(err, 0);
                        return;
                    }
                };
                let skip = skip + (code.len() - skip - code[skip..].trim_start().len());
                let text = code[skip..].trim_start();
                match read_statement::<T>(text, dialect, &ctx, &mut reading) {
                    Ok(statement) => {
                        if let Statement::Instruction(insn) = &statement {
                            for message in T::warnings(insn) {
                                let w = program.locate(&e, skip, text.trim_end().len(), message.into());
                                shared.borrow_mut().inner.warning(&w, program.source_line(&w));
                            }
                            if validates {
                                let at = program.locate(&e, skip, text.trim_end().len(), String::new());
                                let line = program.source_line(&at).to_string();
                                checked.push((insn.clone(), at, line));
                            }
                        }
                        match convert(statement) {
                            Ok(x) => emit(slot, x, None),
                            Err(message) => error(StatementError::at(0, message), skip),
                        }
                    }
                    Err(err) => error(err, skip),
                }
            }
        }
    };
    let program = if streaming {
        // The first pass's sources go before the second reads them again.
        drop(program);
        let mut n_line = 0usize;
        let again = directives::expand_streaming(
            name,
            source,
            &spelling,
            &layout,
            &mut Shared(&shared),
            &mut |p, handed| {
                // Its errors and warnings are the first pass's again, reported already.
                if let Handed::Lines(lines) = handed {
                    for e in lines {
                        step(p, n_line, e);
                        n_line += 1;
                    }
                }
            },
        );
        again?
    } else {
        let lines = core::mem::take(&mut program.lines);
        for (n_line, e) in lines.into_iter().enumerate() {
            step(&program, n_line, e);
        }
        program
    };
    give_back_scratch(core::mem::take(&mut reading.scratch));
    if last_data {
        // Data that ends the program: no instruction follows, so nothing pads it and it is
        // written as it is, its last piece as long as the bytes left.
        if let Some((err, line)) = words_of(&program, &mut data, &mut data_lines, emit, true, true) {
            fail(&program, err, Some(&line));
        }
    }
    // The spec's constraints and rules over the instructions in program order, each broken
    // one at the line of the instruction it is reported at; the spec's per-instruction
    // `warning`s were reported above already.
    if validates && !failed {
        let insns: Vec<T::Instruction> = checked.iter().map(|(i, ..)| i.clone()).collect();
        for v in T::check_program(&insns) {
            let Some((_, at, line)) = checked.get(v.index) else { continue };
            if v.warning && v.layout.is_empty() && T::warnings(&insns[v.index]).contains(&v.message) {
                continue;
            }
            let mut message = alloc::format!("{} (`{}`)", v.message, v.rule);
            if let Some(other) = v.detail.strip_prefix("with instruction ") {
                // The other instruction of a rule over two, by its line.
                let at = other.parse::<usize>().ok().and_then(|k| checked.get(k));
                if let Some((_, o, _)) = at {
                    message = alloc::format!("{message}, with the instruction at line {}", o.line);
                }
            } else if !v.detail.is_empty() {
                message = alloc::format!("{message}: {}", v.detail);
            }
            let w = AsmError { message, ..at.clone() };
            shared.borrow_mut().inner.warning(&w, line);
        }
    }
    (!failed).then_some(filler.filled)
}

/// The text of the source line data line `e` starts at.
fn data_line(program: &directives::Program, e: &directives::Expanded) -> String {
    program.source_line(&program.locate(e, 0, 0, String::new())).to_string()
}

/// The includer of both passes of [`assemble_lines`]: the `-i` files read once, given to each.
struct Given<'a> {
    inner: &'a mut dyn Includer,
    preludes: Vec<(String, String)>,
}

impl Includer for Given<'_> {
    fn load(&mut self, name: &str, system: bool, from: Option<&str>) -> Result<(String, String), String> {
        self.inner.load(name, system, from)
    }
    fn preludes(&mut self) -> Vec<(String, String)> {
        self.preludes.clone()
    }
    fn warning(&mut self, warning: &AsmError, line: &str) {
        self.inner.warning(warning, line);
    }
    fn validates(&self) -> bool {
        self.inner.validates()
    }
    fn scheduled(&self) -> bool {
        self.inner.scheduled()
    }
}

/// [`Given`] shared by the second pass's expansion (which reads the includes again) and the
/// statements read as it hands them over (whose warnings go to the same includer).
struct Shared<'r, 'a>(&'r core::cell::RefCell<Given<'a>>);

impl Includer for Shared<'_, '_> {
    fn load(&mut self, name: &str, system: bool, from: Option<&str>) -> Result<(String, String), String> {
        self.0.borrow_mut().load(name, system, from)
    }
    fn preludes(&mut self) -> Vec<(String, String)> {
        self.0.borrow_mut().preludes()
    }
    fn warning(&mut self, warning: &AsmError, line: &str) {
        self.0.borrow_mut().warning(warning, line);
    }
    fn validates(&self) -> bool {
        self.0.borrow().validates()
    }
    fn scheduled(&self) -> bool {
        self.0.borrow().scheduled()
    }
}

/// The length of the piece of data that `bytes` start with, where instructions differ in
/// length: as many bytes as the instruction they begin (by the target's `length` rule, as
/// [`split_pieces`] reads them back), or the bytes left where fewer. A piece whose word alone
/// says another length (its length rule reads bits past the piece, or the bytes end first) is
/// written at this length all the same ([`Assembled::lengths`]): data is written as it is.
fn data_piece<T: Isa>(bytes: &[u8]) -> usize {
    let max = T::WORD_BITS.div_ceil(8) as usize;
    let head = &bytes[..bytes.len().min(max)];
    // Bytes that begin no instruction are a piece of the shortest length.
    let word = word_from_bytes(head, T::LITTLE_ENDIAN);
    let length = match T::match_format(word) {
        Some(_) => instruction_bytes::<T>(word),
        None => shortest_length::<T>().div_ceil(8) as usize,
    };
    bytes.len().min(length).max(1)
}

/// How many times [`relax`] lays a program out before giving up.
const MAX_LAYOUTS: usize = 16;

/// A program of instructions that differ in length laid out at their real byte offsets.
struct Relaxed {
    /// Every label's byte address.
    labels: BTreeMap<String, u64>,
    /// The byte address of every line of the program, then of its end.
    addresses: Vec<u64>,
}

/// Places the labels of a program whose instructions differ in length at the instructions'
/// real byte offsets. [`directives::expand`] counts every instruction as a whole word; an
/// instruction's length may depend on its operands, and so on a label's address. As GNU as
/// relaxes its frags: assemble every instruction with the current addresses, take each one's
/// length, lay the program out again and repeat until no address changes. Each label stays
/// with the line it was before. A program whose layout does not settle in [`MAX_LAYOUTS`]
/// passes is an error at the first instruction that still changes length. An instruction that
/// does not assemble keeps a whole word (pass 2 reports it).
fn relax<T: Isa>(
    program: &directives::Program,
    dialect: usize,
    word_bytes: u64,
    index: Option<&FormatIndex>,
) -> Result<Relaxed, AsmError> {
    let d = dialect_of::<T>(dialect);
    // Each line's length as expansion laid it out, and where the lines start.
    let expanded: Vec<u64> = program
        .lines
        .iter()
        .map(|e| match &e.kind {
            Kind::Zeros(n) | Kind::Pad { bytes: n, .. } => *n,
            Kind::Data { width, values, .. } => u64::from(*width) * values.len() as u64,
            Kind::Bits { bytes, .. } => *bytes,
            Kind::Code(_) => word_bytes,
            Kind::Entry { .. } => 0,
        })
        .collect();
    let starts = |lengths: &[u64]| {
        let mut at = 0u64;
        let mut out = Vec::with_capacity(lengths.len() + 1);
        for l in lengths {
            out.push(at);
            at += l;
        }
        out.push(at);
        out
    };
    let mut addresses = starts(&expanded);
    // Each label's line (the first one starting at or after it) and its offset from it.
    let last = program.lines.len();
    let anchors: Vec<(&String, usize, u64)> = program
        .labels
        .iter()
        .map(|(name, &a)| {
            let mut k = addresses.partition_point(|x| *x < a).min(last);
            if addresses[k] > a && k > 0 {
                k -= 1;
            }
            // A label where data ends and an instruction's padding starts labels the
            // instruction, as GNU as pulls a label to the code it aligns (tc-mips.c,
            // `mips_align`): a branch to it lands on the instruction, not on the zeros.
            let padding = matches!(program.lines.get(k), Some(l) if matches!(l.kind, Kind::Pad { before_code: true, .. }));
            if padding && a == addresses[k] {
                k += 1;
            }
            (name, k, a.saturating_sub(addresses[k]))
        })
        .collect();
    let mut labels = program.labels.clone();
    let mut lengths = expanded;
    let mut reading = Reading::indexed(index);
    let mut unsettled = 0;
    for _ in 0..MAX_LAYOUTS {
        let lookup = |name: &str| labels.get(name).copied();
        label_expressions!(labels, program.defines_names(), d, _names, expression);
        let mut changed = None;
        for (k, e) in program.lines.iter().enumerate() {
            let length = match &e.kind {
                Kind::Code(code) => {
                    let ctx =
                        Context { pc: addresses[k], labels: &lookup, ignore_case: d.ignore_case, expression };
                    let word = match read_statement::<T>(code.trim_start(), dialect, &ctx, &mut reading) {
                        Ok(Statement::Instruction(insn)) => T::encode(&insn).ok(),
                        Ok(Statement::Raw(word)) => Some(word),
                        Err(_) => None,
                    };
                    word.map_or(word_bytes, |w| instruction_bytes::<T>(w) as u64)
                }
                // Alignment from the line's address in this layout.
                Kind::Pad { align, .. } => (align - addresses[k] % align) % align,
                _ => continue,
            };
            if length != lengths[k] {
                lengths[k] = length;
                changed = changed.or(Some(k));
            }
        }
        let Some(first) = changed else {
            return stale_reads(program, &labels).map(|()| Relaxed { labels, addresses });
        };
        unsettled = first;
        addresses = starts(&lengths);
        for (name, k, offset) in &anchors {
            if let Some(a) = labels.get_mut(*name) {
                *a = addresses[*k] + offset;
            }
        }
    }
    // The last layout changed a length: the first instruction it changed is the error.
    let mut error = program.locate(&program.lines[unsettled], 0, 0, String::new());
    error.message = alloc::format!(
        "the instructions' lengths do not settle in {MAX_LAYOUTS} layouts (an instruction's length \
         depends on a label's address, which depends on its length)"
    );
    Err(error)
}

/// A value expansion computed from a label that the real layout moved is stale (`.set n, b - a`,
/// `.if`, `.rep`, a symbol standing for a label): the first such read is an error at its line.
fn stale_reads(program: &directives::Program, labels: &BTreeMap<String, u64>) -> Result<(), AsmError> {
    for (name, at) in &program.labels_read {
        let (Some(expanded), Some(real)) = (program.labels.get(name), labels.get(name)) else { continue };
        if expanded != real {
            let mut error = program.located(at);
            error.message = alloc::format!(
                "this line reads label `{name}` while the program is expanded, when it is at \
                 {expanded:#x} (every instruction counted a whole word); the instructions' lengths \
                 put it at {real:#x}: use the label where the instructions are read (an operand, \
                 data), or addresses that do not depend on the lengths"
            );
            return Err(error);
        }
    }
    Ok(())
}

/// Assembles one instruction's text; on failure says where and why. A raw directive's word is
/// decoded into its typed instruction.
pub fn assemble_one<T: Isa>(
    text: &str,
    dialect: usize,
    pc: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
    ignore_case: bool,
) -> Result<T::Instruction, StatementError> {
    match assemble_statement::<T>(text, dialect, pc, labels, ignore_case)? {
        Statement::Instruction(insn) => Ok(insn),
        Statement::Raw(word) => T::decode(word).map_err(|e| StatementError::at(0, e.to_string())),
    }
}

/// Reads a raw directive's operand: one hex word (`0x` prefix and `_` separators allowed)
/// that fits in the target's words; on failure the byte offset in `rest` and a message.
fn raw_word<T: Isa>(raw: &str, rest: &str) -> Result<u128, StatementError> {
    let operand = rest.trim();
    let at = rest.len() - rest.trim_start().len();
    let digits = operand.strip_prefix("0x").or_else(|| operand.strip_prefix("0X")).unwrap_or(operand);
    let error = |message: String| StatementError { pos: at, length: operand.len(), message };
    let expected = || error(alloc::format!("`{raw}` takes one hexadecimal word"));
    if at == 0 || !digits.chars().any(|c| c.is_ascii_hexdigit()) {
        return Err(expected());
    }
    let mut word = 0u128;
    for c in digits.chars().filter(|c| *c != '_') {
        let digit = c.to_digit(16).ok_or_else(expected)?;
        if word >> 124 != 0 || (T::WORD_BITS < 128 && ((word << 4) | u128::from(digit)) >> T::WORD_BITS != 0)
        {
            return Err(error(alloc::format!("`{operand}` does not fit in a {}-bit word", T::WORD_BITS)));
        }
        word = (word << 4) | u128::from(digit);
    }
    Ok(word)
}

/// Reads one statement's text: the raw directive's word as written, or an instruction; on
/// failure says where and why.
pub fn assemble_statement<T: Isa>(
    text: &str,
    dialect: usize,
    pc: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
    ignore_case: bool,
) -> Result<Statement<T::Instruction>, StatementError> {
    let ctx = Context { pc, labels, ignore_case, expression: None };
    read_statement::<T>(text, dialect, &ctx, &mut Reading::default())
}

/// [`assemble_statement`] trying only the formats `index` (of the same target and dialect)
/// gives for the text: the same statement, found sooner. For reading many statements.
pub fn assemble_statement_with<T: Isa>(
    text: &str,
    dialect: usize,
    pc: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
    index: &FormatIndex,
) -> Result<Statement<T::Instruction>, StatementError> {
    let ctx = Context { pc, labels, ignore_case: index.ignore_case, expression: None };
    read_statement::<T>(text, dialect, &ctx, &mut Reading::indexed(Some(index)))
}

/// The mnemonics of dialect number `dialect`: what its encodings' syntaxes can start with
/// ([`syntax::Syntax::mnemonics`]), in the order of the encodings.
pub fn mnemonics<T: Isa>(dialect: usize) -> Vec<&'static str> {
    let mut out = Vec::new();
    for syntax in T::formats().iter().filter_map(|f| f.syntax.get(dialect)) {
        syntax.mnemonics(&mut out);
    }
    out
}

/// The encodings of one dialect by the texts their syntaxes can start with
/// ([`syntax::Syntax::leads`]), built once per program (once per process with the `std`
/// feature, [`format_index`]): a line is parsed only by the formats
/// whose syntax can start it, in the order of [`Isa::formats`]. Where many formats share a
/// lead (a guard such as `@P0 ` before any instruction), they are narrowed by a word each of
/// them needs somewhere in the text ([`syntax::Syntax::required_word`]).
pub struct FormatIndex {
    /// Each format's leads.
    leads: ByFirstByte,
    /// Formats whose syntax may start with anything, with a bit per format.
    any: Vec<u64>,
    /// Each format's required word, if it has one.
    words: ByFirstByte,
    /// The formats with a required word, a bit each.
    worded: Vec<u64>,
    /// Each format's [`syntax::Syntax::text_bytes`] (every byte for a format without a syntax
    /// in the dialect) and [`syntax::Syntax::comma_follows`].
    bytes: Vec<(syntax::Bytes, bool, Option<syntax::Bytes>)>,
    ignore_case: bool,
}

/// How many formats may share a lead before their required words are looked for too.
const SHARED_LEAD: u32 = 4;

/// Texts with the formats each belongs to, by first byte. Formats that share a text (and what
/// may follow it) share an entry: many formats of a target start alike (a guard such as `@P0`
/// before any instruction, one mnemonic for the register, constant and immediate forms), and
/// the text is compared once for all of them.
struct ByFirstByte {
    /// The entries, by first byte.
    entries: Vec<LeadEntry>,
    /// The formats of each entry.
    formats: Vec<u32>,
    /// Where each first byte's run of `entries` starts (and byte 255's ends).
    starts: Vec<u32>,
}

/// An entry of [`ByFirstByte`]: (first byte, lowercased when case is ignored; text; the bytes
/// that may come right after it in the text a format reads, if not any; its formats as a range
/// of [`ByFirstByte::formats`]).
type LeadEntry = (u8, &'static str, Option<syntax::Bytes>, (u32, u32));

impl ByFirstByte {
    fn new(mut given: Vec<(u8, &'static str, u32, Option<syntax::Bytes>)>) -> Self {
        given.sort_by(|a, b| (a.0, a.1, a.3).cmp(&(b.0, b.1, b.3)).then(a.2.cmp(&b.2)));
        let mut entries: Vec<LeadEntry> = Vec::new();
        let mut formats = Vec::with_capacity(given.len());
        for (b, t, i, follows) in given {
            let k = formats.len() as u32;
            match entries.last_mut() {
                Some(e) if e.0 == b && e.1 == t && e.2 == follows => e.3 .1 = k + 1,
                _ => entries.push((b, t, follows, (k, k + 1))),
            }
            formats.push(i);
        }
        let mut starts = Vec::with_capacity(257);
        let mut k = 0;
        for b in 0..=256usize {
            while k < entries.len() && usize::from(entries[k].0) < b {
                k += 1;
            }
            starts.push(k as u32);
        }
        ByFirstByte { entries, formats, starts }
    }

    /// Sets in `out` the bit of each format with a text that `text` starts with.
    fn mark(&self, text: &[u8], ignore_case: bool, out: &mut [u64]) {
        let Some(&b) = text.first() else { return };
        let b = usize::from(if ignore_case { b.to_ascii_lowercase() } else { b });
        let run = &self.entries[self.starts[b] as usize..self.starts[b + 1] as usize];
        for (_, t, follows, (from, to)) in run {
            let t = t.as_bytes();
            let starts = text.len() >= t.len()
                && if ignore_case { text[..t.len()].eq_ignore_ascii_case(t) } else { text[..t.len()] == *t };
            let follows = || match (follows, text.get(t.len())) {
                (Some(set), Some(&b)) => syntax::has_byte(set, b),
                _ => true,
            };
            if starts && follows() {
                for &i in &self.formats[*from as usize..*to as usize] {
                    out[i as usize / 64] |= 1 << (i % 64);
                }
            }
        }
    }
}

impl FormatIndex {
    /// The index of dialect number `dialect` of `T`.
    pub fn new<T: Isa>(dialect: usize) -> Self {
        let ignore_case = dialect_of::<T>(dialect).ignore_case;
        let formats = T::formats();
        let bits = alloc::vec![0u64; formats.len().div_ceil(64)];
        let (mut any, mut worded) = (bits.clone(), bits);
        let (mut leads, mut words) = (Vec::new(), Vec::new());
        let mut bytes = alloc::vec![([u64::MAX; 4], false, None); formats.len()];
        let first =
            |t: &str| if ignore_case { t.as_bytes()[0].to_ascii_lowercase() } else { t.as_bytes()[0] };
        for (i, f) in formats.iter().enumerate() {
            let Some(syntax) = f.syntax.get(dialect) else { continue };
            let (set, expressions) = syntax.text_bytes(ignore_case);
            bytes[i] = (set, expressions, syntax.comma_follows(ignore_case));
            match syntax.leads() {
                Some(texts) => {
                    // What may follow each lead, at every place the syntax has it.
                    let mut follows: BTreeMap<&str, syntax::Bytes> = BTreeMap::new();
                    for (lead, f) in syntax.lead_follows(ignore_case).into_iter().flatten() {
                        let set = follows.entry(lead).or_insert([0; 4]);
                        set.iter_mut().zip(f).for_each(|(a, b)| *a |= b);
                    }
                    let follow = |t: &str| follows.get(t).copied();
                    leads.extend(texts.into_iter().map(|t| (first(t), t, i as u32, follow(t))))
                }
                None => any[i / 64] |= 1 << (i % 64),
            }
            if let Some(word) = syntax.required_word() {
                words.push((first(word), word, i as u32, None));
                worded[i / 64] |= 1 << (i % 64);
            }
        }
        FormatIndex {
            leads: ByFirstByte::new(leads),
            any,
            words: ByFirstByte::new(words),
            worded,
            bytes,
            ignore_case,
        }
    }

    /// Whether format `i` may read the whole of `statement` (its text without the dialect's
    /// end mark and separator, as [`assemble_statement`] reads it): false when it holds a byte
    /// that no reading of the format's syntax holds ([`syntax::Syntax::text_bytes`]; with
    /// `expressions`, where the context reads expressions for numbers, a format with a number
    /// that takes one may hold any byte), or a `,` outside parentheses followed by a byte that
    /// comes after no `,` of a reading ([`syntax::Syntax::comma_follows`]).
    pub fn may_read(&self, i: usize, statement: &str, expressions: bool) -> bool {
        self.may_read_shape(i, &Shape::of(statement), expressions)
    }

    /// [`FormatIndex::may_read`] of a statement of shape `text`.
    fn may_read_shape(&self, i: usize, text: &Shape, expressions: bool) -> bool {
        let Some((set, takes_expressions, commas)) = self.bytes.get(i) else { return true };
        let within = |a: &syntax::Bytes, b: &syntax::Bytes| a.iter().zip(b).all(|(a, b)| a & !b == 0);
        (expressions && *takes_expressions || within(&text.bytes, set))
            && commas.as_ref().is_none_or(|c| within(&text.after_commas, c))
    }

    /// The formats (indices in [`Isa::formats`]) that may read `text`, in order: every other
    /// one fails on it.
    pub fn formats(&self, text: &str) -> Vec<usize> {
        let (mut bits, mut spare) = (Vec::new(), Vec::new());
        self.candidates(text, &mut bits, &mut spare);
        (0..bits.len() * 64).filter(|i| bits[i / 64] >> (i % 64) & 1 == 1).collect()
    }

    /// Sets in `out` a bit for each format that may read `text`, the others cleared (`spare`
    /// is working memory).
    fn candidates(&self, text: &str, out: &mut Vec<u64>, spare: &mut Vec<u64>) {
        out.clone_from(&self.any);
        let text = text.trim_start_matches([' ', '\t']).as_bytes();
        self.leads.mark(text, self.ignore_case, out);
        let shared = out.iter().zip(&self.any).map(|(o, a)| (o & !a).count_ones()).sum::<u32>();
        if shared <= SHARED_LEAD {
            return;
        }
        // The formats whose required word the text has (anywhere), and those without one.
        spare.clear();
        spare.extend(self.worded.iter().map(|w| !w));
        for p in 0..text.len() {
            // Only where a required word starts with the byte there.
            let b = usize::from(if self.ignore_case { text[p].to_ascii_lowercase() } else { text[p] });
            if self.words.starts[b] != self.words.starts[b + 1] {
                self.words.mark(&text[p..], self.ignore_case, spare);
            }
        }
        out.iter_mut().zip(spare.iter()).for_each(|(o, s)| *o &= s);
    }
}

/// What [`FormatIndex::may_read`] looks at in a statement: its bytes, and the first byte
/// after each `,` outside parentheses (blanks skipped), a bit each.
struct Shape {
    bytes: syntax::Bytes,
    after_commas: syntax::Bytes,
}

impl Shape {
    fn of(text: &str) -> Self {
        let add = |set: &mut syntax::Bytes, b: u8| set[usize::from(b / 64)] |= 1 << (b % 64);
        let (mut bytes, mut after_commas) = ([0u64; 4], [0u64; 4]);
        let (mut depth, mut comma) = (0u32, false);
        for b in text.bytes() {
            add(&mut bytes, b);
            if comma && b != b' ' && b != b'\t' {
                add(&mut after_commas, b);
                comma = false;
            }
            match b {
                b'(' => depth += 1,
                b')' => depth = depth.saturating_sub(1),
                b',' => comma = depth == 0,
                _ => {}
            }
        }
        Shape { bytes, after_commas }
    }
}

/// What reading the statements of a program keeps from one statement to the next.
#[derive(Default)]
struct Reading<'a> {
    /// The dialect's formats by how their texts start (none: every format is tried).
    index: Option<&'a FormatIndex>,
    /// The formats that may read the statement at hand, a bit each.
    candidates: Vec<u64>,
    /// Working memory of the index.
    spare: Vec<u64>,
    /// The dialect's [`mnemonics`], once an error has needed them, for the next error.
    mnemonics: Option<Vec<&'static str>>,
    /// The parser's tables, for the next parse.
    scratch: syntax::Scratch,
    /// For each format (by index), how many statements the quick reader left to the search
    /// and how many it read: a format it mostly leaves (VideoCore IV's ALU syntax, read many
    /// ways) is no longer asked, so its walk is not paid on top of the search's.
    unsure: Vec<(u32, u32)>,
}

/// How many statements the quick reader may leave a format to the search before it is no
/// longer asked for that format, unless it read as many ([`Reading::unsure`]): its walk is
/// paid on top of the search's for every statement it leaves (VideoCore IV's golden program,
/// criterion: asking while it read a quarter as many was 25 % slower than before the walk
/// followed the search's order, when it was soon no longer asked).
const UNSURE_LIMIT: u32 = 8;

impl<'a> Reading<'a> {
    /// For reading many statements through `index` (none: every format is tried).
    fn indexed(index: Option<&'a FormatIndex>) -> Self {
        Reading { index, ..Reading::default() }
    }
}

/// The [`FormatIndex`] of dialect number `dialect` of `T`. With the `std` feature it is built
/// once per target and dialect in a process and shared by every program read after (the
/// index is a fact of the static tables); without it, built for each call.
fn format_index<T: Isa>(dialect: usize) -> Arc<FormatIndex> {
    #[cfg(feature = "std")]
    {
        type Built = Vec<(core::any::TypeId, usize, Arc<FormatIndex>)>;
        static BUILT: std::sync::Mutex<Built> = std::sync::Mutex::new(Vec::new());
        let key = core::any::TypeId::of::<T>();
        let mut built = BUILT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((.., index)) = built.iter().find(|(t, d, _)| *t == key && *d == dialect) {
            return index.clone();
        }
        let index = Arc::new(FormatIndex::new::<T>(dialect));
        built.push((key, dialect, index.clone()));
        index
    }
    #[cfg(not(feature = "std"))]
    Arc::new(FormatIndex::new::<T>(dialect))
}

/// The parser's working memory for a program: with the `std` feature one a program before
/// left ([`give_back_scratch`]), whose name-table indexes and static answers (what each item
/// list may spell out, what each condition reads) hold for every target, as they are keyed by
/// the static descriptions' addresses; else a new one.
fn take_scratch() -> syntax::Scratch {
    #[cfg(feature = "std")]
    if let Some(scratch) = SCRATCH.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop() {
        return scratch;
    }
    syntax::Scratch::default()
}

/// Keeps `scratch` for the next program ([`take_scratch`]).
fn give_back_scratch(scratch: syntax::Scratch) {
    #[cfg(feature = "std")]
    {
        let mut kept = SCRATCH.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // One for each program read at once, up to a few threads' worth.
        if kept.len() < 8 {
            kept.push(scratch);
        }
    }
    #[cfg(not(feature = "std"))]
    drop(scratch);
}

/// Working memory kept from one program to the next ([`take_scratch`]).
#[cfg(feature = "std")]
static SCRATCH: std::sync::Mutex<Vec<syntax::Scratch>> = std::sync::Mutex::new(Vec::new());

/// Whether reading `statements` statements is worth building a [`FormatIndex`], which gives
/// the same statements (it only leaves out formats that cannot read them) but costs more to
/// build than trying every format on one statement. Measured with callgrind: VideoCore IV's
/// index about 4.1 million instructions (its syntax starts with every operation's name),
/// Maxwell's about 2.7 million, against about 3,000 per format checked without it
/// ([`syntax::Syntax::may_match`]; 297 formats). Without the `std` feature (the index built
/// for each program) one-line programs (`vc4::assemble("nop")`) and single listed words go
/// without; with it the index is built once a process, and every program uses it.
fn worth_indexing(statements: usize) -> bool {
    // Built once a process with `std` ([`format_index`]): worth it for any program.
    cfg!(feature = "std") || statements > 1
}

/// [`assemble_statement`] with what the statements before it left in `reading`.
fn read_statement<T: Isa>(
    text: &str,
    dialect: usize,
    ctx: &Context,
    reading: &mut Reading,
) -> Result<Statement<T::Instruction>, StatementError> {
    let ignore_case = ctx.ignore_case;
    // The dialect's statement terminator (nvdisasm's ` ;`) may end the text.
    let end = T::dialects().get(dialect).and_then(|d| d.end).map(str::trim).filter(|e| !e.is_empty());
    let text = end.and_then(|e| text.trim_end().strip_suffix(e)).map_or(text, str::trim_end);
    // A printed line ends with the dialect's separator (the assembler's statements do not).
    let separator = T::dialects().get(dialect).and_then(|d| d.separator);
    let text = separator.and_then(|e| text.strip_suffix(e)).map_or(text, str::trim_end);
    if let Some(raw) = T::dialects().get(dialect).and_then(|d| d.raw) {
        if let Some(rest) = text.strip_prefix(raw) {
            return raw_word::<T>(raw, rest)
                .map(Statement::Raw)
                .map_err(|e| StatementError { pos: raw.len() + e.pos, ..e });
        }
    }
    let decode = |format: &Format, values: &[u64]| {
        let mut word = format.pack(values);
        // The assembler picks the shortest length that holds the instruction (the search for
        // the format's length only where lengths differ).
        let lengths = T::lengths();
        if let Some(length) = (!lengths.is_empty())
            .then(|| T::formats().iter().position(|f| core::ptr::eq(*f, format)))
            .flatten()
            .and_then(|i| lengths.get(i))
        {
            word = length.shortest(word);
        }
        T::decode(word).map(Statement::Instruction).map_err(|e| StatementError::at(0, e.to_string()))
    };
    let syntaxes = || T::formats().iter().filter_map(|f| Some((*f, f.syntax.get(dialect)?)));
    // Formats whose syntax cannot start the text, or whose literals it lacks, cannot match:
    // only the others are parsed...
    let indexed = reading.index.is_some();
    let scratch = &mut reading.scratch;
    let unsure = &mut reading.unsure;
    unsure.resize(T::formats().len(), (0, 0));
    let mut first = |i: usize, format: &'static Format| {
        let syntax = format.syntax.get(dialect)?;
        // The quick reader decides the common line; the search the rest.
        let (left, read) = unsure[i];
        if left < UNSURE_LIMIT || left <= read {
            match syntax::quick_in(scratch, format, syntax, text, ctx, false) {
                syntax::Quick::Read(values, _) => {
                    unsure[i].1 += 1;
                    return Some(values);
                }
                syntax::Quick::Never => return None,
                syntax::Quick::Unsure => unsure[i].0 += 1,
            }
        }
        // Without the index, a format whose literals the text lacks is not searched; with
        // it the search's recognition rules such a text out at its first step.
        (indexed || syntax.may_match(text, ignore_case))
            .then(|| syntax::parses_in(scratch, format, syntax, text, ctx))?
    };
    match reading.index {
        Some(index) => {
            index.candidates(text, &mut reading.candidates, &mut reading.spare);
            // A format that cannot hold some byte of the text, or have it after a `,`, is not
            // asked (Maxwell's `FFMA` with a register operand, `ffma_r`, on `c[0x0][0x10]`
            // or on `0.25`).
            let shape = Shape::of(text);
            let expressions = ctx.expression.is_some();
            for (w, &bits) in reading.candidates.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    let format = T::formats()[i];
                    bits &= bits - 1;
                    if !index.may_read_shape(i, &shape, expressions) {
                        continue;
                    }
                    if let Some(values) = first(i, format) {
                        return decode(format, &values);
                    }
                }
            }
        }
        None => {
            for (i, format) in T::formats().iter().enumerate() {
                if let Some(values) = first(i, format) {
                    return decode(format, &values);
                }
            }
        }
    }
    // ... and when none reads the line, every one is, so the error names what each expected
    // (a format the first pass skipped may still read it).
    let mut best: Option<syntax::Failure> = None;
    for (format, syntax) in syntaxes() {
        let f = match syntax::parse(format, syntax, text, ctx) {
            Ok(values) => return decode(format, &values),
            Err(f) => f,
        };
        if best.as_ref().is_none_or(|b| f.pos > b.pos) {
            best = Some(f);
        } else if let Some(b) = best.as_mut().filter(|b| b.pos == f.pos) {
            b.expected.extend(f.expected);
        }
    }
    let f = best.unwrap_or(syntax::Failure { pos: 0, expected: Vec::new() });
    let mnemonics = reading.mnemonics.get_or_insert_with(|| self::mnemonics::<T>(dialect));
    Err(explain(text, &f, mnemonics, ignore_case))
}

/// The heads of `text`: in each part between `;`s, the first word (letters, digits, `_`) that
/// starts the part or follows a blank (`@P0 FADD`: `FADD`), as byte ranges. Where a dialect's
/// mnemonic is, if the text has one.
fn heads(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut part_has_head = false;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b';' {
            part_has_head = false;
        } else if word(b[i]) {
            let start = i;
            while i < b.len() && word(b[i]) {
                i += 1;
            }
            let after_blank = start == 0 || matches!(b[start - 1], b' ' | b'\t' | b';');
            if after_blank && !part_has_head {
                out.push((start, i));
                part_has_head = true;
            }
            continue;
        }
        i += 1;
    }
    out
}

/// Edit distance between `a` and `b`, ASCII case ignored.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<u8> = b.bytes().map(|c| c.to_ascii_lowercase()).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().map(|c| c.to_ascii_lowercase()).enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let next = (prev + usize::from(ca != b[j])).min(row[j] + 1).min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// A failed statement in the syntax's words: an unknown mnemonic with the nearest ones of the
/// dialect, or the operand of a known mnemonic that does not fit and what fits there.
fn explain(text: &str, f: &syntax::Failure, mnemonics: &[&'static str], ignore_case: bool) -> StatementError {
    let known =
        |w: &str| mnemonics.iter().any(|m| if ignore_case { m.eq_ignore_ascii_case(w) } else { *m == w });
    let (start, length) = syntax::token_at(text, f.pos);
    let heads = heads(text);
    if let Some(&(s, e)) = heads.iter().find(|(s, e)| *s <= start && !known(&text[*s..*e])) {
        let word = &text[s..e];
        let mut message = alloc::format!("unknown mnemonic `{word}`");
        let mut near: Vec<(usize, usize, &str)> = Vec::new();
        for (i, m) in mnemonics.iter().enumerate() {
            let d = distance(word, m);
            if d <= (word.len() / 3).max(1) && !near.iter().any(|(_, _, n)| n.eq_ignore_ascii_case(m)) {
                near.push((d, i, m));
            }
        }
        near.sort();
        if !near.is_empty() {
            let names: Vec<String> = near.iter().take(3).map(|(_, _, m)| alloc::format!("`{m}`")).collect();
            message.push_str(&alloc::format!("; did you mean {}?", names.join(", ")));
        }
        return StatementError { pos: s, length: e - s, message };
    }
    let detail = f.message(text);
    // The mnemonic the failing operand belongs to: the last head before it.
    let message = match heads.iter().rev().find(|(_, e)| *e <= start) {
        Some(&(s, e)) => {
            let between = &text[e..start];
            if between.contains([' ', '\t', ',']) {
                let operand = 1 + between.matches(',').count();
                alloc::format!("operand {operand} of `{}`: {detail}", &text[s..e])
            } else {
                alloc::format!("after `{}`: {detail}", &text[s..start])
            }
        }
        None => detail,
    };
    StatementError { pos: start, length, message }
}

/// An instruction decoded by a [`Target`]: its encoding's name and its fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The encoding (format) name.
    pub name: &'static str,
    /// Every field by its spec name.
    pub fields: Vec<(&'static str, Value)>,
}

/// A program's validation as its words are read ([`Target::validator`]): the object-safe face
/// of [`crate::program::Window`], decoding each piece of words as it comes.
pub trait Validate {
    /// Decodes the next piece of the program's words (whole control groups where the target
    /// has control words; `first` the number of its first word) and checks what can be
    /// checked, handing each violation found to `found`; a word that does not decode is an
    /// error naming its number.
    fn push(
        &mut self,
        words: &[u128],
        first: usize,
        found: &mut dyn FnMut(&Violation),
    ) -> Result<(), (usize, DecodeError)>;
    /// The program has ended: the rest of the checks; every violation, in
    /// [`Isa::check_program`]'s order.
    fn finish(self: Box<Self>, found: &mut dyn FnMut(&Violation)) -> Vec<Violation>;
    /// The number of the first instruction still held (no violation found later names one
    /// before it).
    fn first_held(&self) -> usize;
    /// The most instructions held at once so far.
    fn most_held(&self) -> usize;
    /// The rules that may read anywhere in the program, for which it is held whole.
    fn whole_program(&self) -> Vec<&'static str>;
}

impl<T: Isa> Validate for crate::program::Window<T> {
    fn push(
        &mut self,
        words: &[u128],
        first: usize,
        found: &mut dyn FnMut(&Violation),
    ) -> Result<(), (usize, DecodeError)> {
        for (word, _, w) in bundle::split::<T>(words).map_err(|(k, e)| (first + k, e))? {
            let insn = T::decode(w).map_err(|e| (first + word, e))?;
            crate::program::Window::push(self, insn, found);
        }
        Ok(())
    }
    fn finish(self: Box<Self>, found: &mut dyn FnMut(&Violation)) -> Vec<Violation> {
        crate::program::Window::finish(*self, found)
    }
    fn first_held(&self) -> usize {
        crate::program::Window::first_held(self)
    }
    fn most_held(&self) -> usize {
        crate::program::Window::most_held(self)
    }
    fn whole_program(&self) -> Vec<&'static str> {
        crate::program::Window::whole_program(self)
    }
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
    /// Every encoding, in the order the assembler tries them.
    fn formats(&self) -> &'static [&'static Format];
    /// Decodes one word and encodes the instruction again: the index of its encoding in
    /// [`Target::formats`] and what the encoder makes of it (the word itself, but for the
    /// encoding's don't-care bits), so tools can check the round trip without the typed API.
    fn reencode(&self, word: u128) -> Result<(usize, Result<u128, EncodeError>), DecodeError>;
    /// Decodes and prints one word at address `pc`.
    fn disassemble(&self, word: u128, dialect: usize, pc: u64) -> Result<String, DecodeError>;
    /// A word's text in a dialect ([`text_of_word`]): `None` when no arm of its syntax shows
    /// the word (where [`Target::disassemble`] writes the raw directive).
    fn text_of_word(&self, word: u128, dialect: usize, pc: u64) -> Result<Option<String>, DecodeError>;
    /// Assembles source text into words.
    fn assemble(&self, source: &str, dialect: usize) -> Result<Vec<u128>, Vec<AsmError>>;
    /// Assembles source text into words, handing each error to `report` as it is found with
    /// the text of its line; `None` when there was one.
    fn assemble_reporting(
        &self,
        source: &str,
        dialect: usize,
        report: &mut dyn FnMut(&AsmError, &str),
    ) -> Option<Vec<u128>>;
    /// [`Target::assemble_reporting`] of a source named `name` (for diagnostics) whose
    /// `.include`s `includer` reads.
    fn assemble_files(
        &self,
        name: &str,
        source: &str,
        dialect: usize,
        includer: &mut dyn Includer,
        report: &mut dyn FnMut(&AsmError, &str),
    ) -> Option<Vec<u128>>;
    /// [`Target::assemble_files`] with the length of data that ends the program inside a
    /// word ([`assemble_exact`]).
    fn assemble_exact(
        &self,
        name: &str,
        source: &str,
        dialect: usize,
        includer: &mut dyn Includer,
        report: &mut dyn FnMut(&AsmError, &str),
    ) -> Option<Assembled>;
    /// [`Target::assemble_exact`] handing the words to `write` in order as they are made, each
    /// with its length where not its own ([`assemble_stream`]); returns
    /// [`Assembled::tables`] when there was no error.
    fn assemble_stream(
        &self,
        name: &str,
        source: &mut dyn Source,
        dialect: usize,
        includer: &mut dyn Includer,
        report: &mut dyn FnMut(&AsmError, &str),
        write: &mut dyn FnMut(u128, Option<usize>),
    ) -> Option<crate::table::Filled>;
    /// Decodes a program and runs the spec's validators on it; violations name instructions
    /// by their index among the program's instructions (control words not counted).
    fn check(&self, words: &[u128]) -> Result<Vec<Violation>, (usize, DecodeError)>;
    /// A validation of a program read piece by piece, holding only the instructions its rules
    /// read ([`crate::program::Window`]).
    fn validator(&self) -> Box<dyn Validate>;
    /// The most instructions a program may hold, if the target limits them
    /// ([`Isa::max_instructions`]).
    fn max_instructions(&self) -> Option<usize>;
    /// Prints a whole program (with each instruction's scheduling slot where the target has
    /// control words).
    fn disassemble_program(&self, words: &[u128], dialect: usize) -> Vec<Line>;
    /// Prints words that are all instructions, without control words whatever the target.
    fn disassemble_words(&self, words: &[u128], dialect: usize) -> Vec<Line>;
    /// Lists a piece of a program (its words from word number `first` on, a group's first
    /// word where the target has control words; `last` if it ends the program), handing each
    /// line to `out` as it is made; with `schedule` false every word is an instruction.
    fn disassemble_from(
        &self,
        words: &[u128],
        first: usize,
        last: bool,
        dialect: usize,
        schedule: bool,
        out: &mut dyn FnMut(Line),
    );
    /// Lists a piece of a byte stream of instructions that differ in length, from byte
    /// `address` on: its words with their lengths as the stream held them ([`split_pieces`]),
    /// a piece whose word says another length listed as data ([`disassemble_words_from`]).
    fn disassemble_stream_from(
        &self,
        words: &[u128],
        lengths: &[usize],
        address: u64,
        last: bool,
        dialect: usize,
        out: &mut dyn FnMut(Line),
    );
    /// Prints a whole byte stream split into pieces ([`Target::split_pieces`]):
    /// [`disassemble_pieces`].
    fn disassemble_pieces(&self, pieces: &[(u128, usize)], dialect: usize) -> Vec<Line>;
    /// Lists a piece of a program in the dialect's listing style ([`listing_from`]); nothing
    /// for a target without control words or a dialect without a listing style.
    fn listing_from(
        &self,
        words: &[u128],
        first: usize,
        last: bool,
        dialect: usize,
        paired: &mut bool,
        out: &mut dyn FnMut(ListingLine),
    );
    /// The words that travel beside the target's instructions, if any ([`Isa::streams`]): the
    /// one description of both kinds, which [`Target::schedule`] and [`Target::bundles`] view.
    fn streams(&self) -> Option<&'static crate::bundle::Streams>;
    /// The control words interleaved with the instructions, if the target has them (a view of
    /// [`Target::streams`]).
    fn schedule(&self) -> Option<&'static Schedule> {
        self.streams().and_then(crate::bundle::Streams::schedule)
    }
    /// How the target's programs are bundled into streams, if they are (a view of
    /// [`Target::streams`]).
    fn bundles(&self) -> Option<&'static crate::bundle::Bundles> {
        self.streams().and_then(crate::bundle::Streams::bundles)
    }
    /// Tables of words the program's data sections fill ([`Isa::tables`]).
    fn tables(&self) -> &'static [crate::table::Table];
    /// A program of one word stream as JSON, with its summaries ([`program_json`]).
    fn program_json(&self, words: &[u128]) -> String;
    /// [`Target::program_json`] written as the words come ([`ProgramJson`]).
    fn program_json_writer(&self) -> ProgramJson;
    /// The words of a program of one word stream from its JSON ([`program_from_json`]).
    fn program_from_json(&self, text: &str) -> Result<Vec<u128>, String>;
    /// Assembles a bundled program into its streams ([`crate::bundle::assemble`]).
    fn assemble_bundles(&self, source: &str, dialect: usize)
        -> Result<crate::bundle::Program, Vec<AsmError>>;
    /// [`Target::assemble_bundles`] of a source named `name` whose `.include`s `includer`
    /// reads, handing each error to `report` with the text of its line
    /// ([`crate::bundle::assemble_files`]); `None` when there was one.
    fn assemble_bundle_files(
        &self,
        name: &str,
        source: &mut dyn Source,
        dialect: usize,
        includer: &mut dyn Includer,
        report: &mut dyn FnMut(&AsmError, &str),
    ) -> Option<crate::bundle::Program>;
    /// Prints a bundled program's streams as bundles ([`crate::bundle::disassemble`]).
    fn disassemble_bundles(
        &self,
        program: &crate::bundle::Program,
        dialect: usize,
    ) -> Result<String, crate::bundle::StreamError>;
    /// Whether instructions differ in length: programs are byte streams
    /// ([`split_stream`], [`join_stream`]).
    fn variable_length(&self) -> bool;
    /// The length in bytes of the instruction `word` starts ([`instruction_bytes`]).
    fn instruction_bytes(&self, word: u128) -> usize;
    /// A program's bytes split into its instructions' words ([`split_stream`]).
    fn split_stream(&self, bytes: &[u8]) -> Vec<u128>;
    /// A program's bytes split into its instructions' words, each with its length in bytes as
    /// the stream held it ([`split_pieces`]).
    fn split_pieces(&self, bytes: &[u8]) -> Vec<(u128, usize)>;
    /// A program's words as bytes, each as long as its instruction ([`join_stream`]).
    fn join_stream(&self, words: &[u128]) -> Vec<u8>;
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
        let insn = T::decode(word).map_err(in_bytes::<T>)?;
        Ok(Decoded { name: T::formats()[T::format_index(&insn)].name, fields: T::fields(&insn) })
    }
    fn formats(&self) -> &'static [&'static Format] {
        T::formats()
    }
    fn reencode(&self, word: u128) -> Result<(usize, Result<u128, EncodeError>), DecodeError> {
        let insn = T::decode(word)?;
        Ok((T::format_index(&insn), T::encode(&insn)))
    }
    fn disassemble(&self, word: u128, dialect: usize, pc: u64) -> Result<String, DecodeError> {
        disassemble_word::<T>(word, dialect, pc)
    }
    fn text_of_word(&self, word: u128, dialect: usize, pc: u64) -> Result<Option<String>, DecodeError> {
        text_of_word::<T>(word, dialect, pc)
    }
    fn assemble(&self, source: &str, dialect: usize) -> Result<Vec<u128>, Vec<AsmError>> {
        assemble_program::<T>(source, dialect)
    }
    fn assemble_reporting(
        &self,
        source: &str,
        dialect: usize,
        report: &mut dyn FnMut(&AsmError, &str),
    ) -> Option<Vec<u128>> {
        assemble_program_reporting::<T>(source, dialect, report)
    }
    fn assemble_files(
        &self,
        name: &str,
        source: &str,
        dialect: usize,
        includer: &mut dyn Includer,
        report: &mut dyn FnMut(&AsmError, &str),
    ) -> Option<Vec<u128>> {
        assemble_files::<T>(name, source, dialect, includer, report)
    }
    fn assemble_exact(
        &self,
        name: &str,
        source: &str,
        dialect: usize,
        includer: &mut dyn Includer,
        report: &mut dyn FnMut(&AsmError, &str),
    ) -> Option<Assembled> {
        assemble_exact::<T>(name, source, dialect, includer, report)
    }
    fn assemble_stream(
        &self,
        name: &str,
        source: &mut dyn Source,
        dialect: usize,
        includer: &mut dyn Includer,
        report: &mut dyn FnMut(&AsmError, &str),
        write: &mut dyn FnMut(u128, Option<usize>),
    ) -> Option<crate::table::Filled> {
        assemble_stream::<T>(name, source, dialect, includer, report, write)
    }
    fn check(&self, words: &[u128]) -> Result<Vec<Violation>, (usize, DecodeError)> {
        let program: Vec<T::Instruction> =
            bundle::decode_program::<T>(words)?.into_iter().map(|s| s.insn).collect();
        Ok(T::check_program(&program))
    }
    fn validator(&self) -> Box<dyn Validate> {
        Box::new(crate::program::Window::<T>::new())
    }
    fn max_instructions(&self) -> Option<usize> {
        T::max_instructions()
    }
    fn disassemble_program(&self, words: &[u128], dialect: usize) -> Vec<Line> {
        disassemble_program::<T>(words, dialect)
    }
    fn disassemble_words(&self, words: &[u128], dialect: usize) -> Vec<Line> {
        disassemble_words::<T>(words, dialect)
    }
    fn disassemble_from(
        &self,
        words: &[u128],
        first: usize,
        last: bool,
        dialect: usize,
        schedule: bool,
        out: &mut dyn FnMut(Line),
    ) {
        if schedule {
            disassemble_program_from::<T>(words, first, last, dialect, out)
        } else {
            disassemble_words_from::<T>(words, &[], first, last, dialect, out)
        }
    }

    fn disassemble_stream_from(
        &self,
        words: &[u128],
        lengths: &[usize],
        address: u64,
        last: bool,
        dialect: usize,
        out: &mut dyn FnMut(Line),
    ) {
        disassemble_words_from::<T>(words, lengths, address as usize, last, dialect, out)
    }

    fn disassemble_pieces(&self, pieces: &[(u128, usize)], dialect: usize) -> Vec<Line> {
        disassemble_pieces::<T>(pieces, dialect)
    }

    fn listing_from(
        &self,
        words: &[u128],
        first: usize,
        last: bool,
        dialect: usize,
        paired: &mut bool,
        out: &mut dyn FnMut(ListingLine),
    ) {
        listing_from::<T>(words, first, last, dialect, paired, out)
    }
    fn streams(&self) -> Option<&'static crate::bundle::Streams> {
        T::streams()
    }
    fn tables(&self) -> &'static [crate::table::Table] {
        T::tables()
    }
    fn program_json(&self, words: &[u128]) -> String {
        program_json::<T>(words)
    }
    fn program_json_writer(&self) -> ProgramJson {
        ProgramJson::of::<T>()
    }
    fn program_from_json(&self, text: &str) -> Result<Vec<u128>, String> {
        program_from_json::<T>(text)
    }
    fn assemble_bundles(
        &self,
        source: &str,
        dialect: usize,
    ) -> Result<crate::bundle::Program, Vec<AsmError>> {
        crate::bundle::assemble::<T>(source, dialect)
    }
    fn assemble_bundle_files(
        &self,
        name: &str,
        source: &mut dyn Source,
        dialect: usize,
        includer: &mut dyn Includer,
        report: &mut dyn FnMut(&AsmError, &str),
    ) -> Option<crate::bundle::Program> {
        crate::bundle::assemble_files::<T>(name, source, dialect, includer, report)
    }
    fn disassemble_bundles(
        &self,
        program: &crate::bundle::Program,
        dialect: usize,
    ) -> Result<String, crate::bundle::StreamError> {
        crate::bundle::disassemble::<T>(program, dialect)
    }
    fn variable_length(&self) -> bool {
        !T::lengths().is_empty()
    }
    fn instruction_bytes(&self, word: u128) -> usize {
        instruction_bytes::<T>(word)
    }
    fn split_stream(&self, bytes: &[u8]) -> Vec<u128> {
        split_stream::<T>(bytes)
    }
    fn split_pieces(&self, bytes: &[u8]) -> Vec<(u128, usize)> {
        split_pieces::<T>(bytes)
    }
    fn join_stream(&self, words: &[u128]) -> Vec<u8> {
        join_stream::<T>(words)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{Expected, Failure};
    use alloc::vec;

    #[test]
    fn edit_distance_ignores_case() {
        assert_eq!(distance("fad", "fadd"), 1);
        assert_eq!(distance("fad", "add"), 2);
        assert_eq!(distance("FADD", "fadd"), 0);
        assert_eq!(distance("", "mov"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn heads_are_the_first_words_of_each_part() {
        let text = "@P0 FADD R0, R1; fmul r2, r3";
        let words: Vec<&str> = heads(text).iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(words, ["FADD", "fmul"]);
    }

    const MNEMONICS: &[&str] = &["fadd", "add", "fmul", "mov"];

    #[test]
    fn an_unknown_mnemonic_is_named_with_the_nearest_ones() {
        let f = Failure { pos: 0, expected: vec![Expected::Name("`fadd`".into())] };
        let e = explain("nonsense_op r0, r1", &f, MNEMONICS, true);
        assert_eq!(
            e,
            StatementError { pos: 0, length: 11, message: "unknown mnemonic `nonsense_op`".into() }
        );
        let e = explain("fadx r0, r1", &f, MNEMONICS, true);
        assert_eq!((e.pos, e.length), (0, 4));
        assert_eq!(e.message, "unknown mnemonic `fadx`; did you mean `fadd`?");
        let e = explain("ad r0", &f, MNEMONICS, true);
        assert_eq!(e.message, "unknown mnemonic `ad`; did you mean `add`?");
        // Case matters where the dialect says so; the suggestion shows the right case.
        let e = explain("FMUL r0", &f, MNEMONICS, false);
        assert_eq!(e.message, "unknown mnemonic `FMUL`; did you mean `fmul`?");
        // The second part of a line has its own mnemonic.
        let f = Failure { pos: 17, expected: vec![] };
        let e = explain("fadd r0, r1, r2; fmull r3", &f, MNEMONICS, true);
        assert_eq!((e.pos, e.length), (17, 5));
        assert_eq!(e.message, "unknown mnemonic `fmull`; did you mean `fmul`?");
    }

    #[test]
    fn an_undefined_name_is_said_to_be_one_whatever_else_was_expected() {
        let expected = vec![Expected::Range("`r0`..`r5`".into()), Expected::Undefined];
        let f = Failure { pos: 13, expected };
        let e = explain("fadd r0, r1, r:nowhere + 4", &f, MNEMONICS, true);
        assert_eq!(e.message, "operand 3 of `fadd`: undefined symbol or label `r:nowhere`");
        assert_eq!((e.pos, e.length), (13, 9));
    }

    #[test]
    fn a_bad_operand_is_named_by_its_position() {
        let f = Failure { pos: 13, expected: vec![Expected::Range("`r0`..`r5`".into())] };
        let e = explain("fadd r0, r1, bogus_operand", &f, MNEMONICS, true);
        assert_eq!(e.message, "operand 3 of `fadd`: expected `r0`..`r5`, found `bogus_operand`");
        assert_eq!((e.pos, e.length), (13, 13));
        let f = Failure { pos: 4, expected: vec![Expected::Name("`.sf`".into())] };
        let e = explain("fadd.bogus r0", &f, MNEMONICS, true);
        assert_eq!(e.message, "after `fadd`: expected `.sf`, found `.bogus`");
        assert_eq!((e.pos, e.length), (4, 6));
        let f = Failure { pos: 7, expected: vec![Expected::Kind("`,`".into())] };
        let e = explain("mov r0", &f, MNEMONICS, true);
        assert_eq!(e.message, "operand 1 of `mov`: expected `,`, found end of line");
        assert_eq!((e.pos, e.length), (6, 0));
    }
}
