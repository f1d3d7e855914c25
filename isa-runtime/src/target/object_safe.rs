//! The object-safe [`Target`] trait and its forwarding implementation for every [`Isa`], so
//! tools handle every target without matching on them.

use super::assemble::{
    assemble_exact, assemble_files, assemble_program, assemble_program_reporting, assemble_stream, Assembled,
};
use super::dialect::Dialect;
use super::disasm::{
    disassemble_pieces, disassemble_program, disassemble_program_from, disassemble_word, disassemble_words,
    disassemble_words_from, text_of_word, Line,
};
use super::isa::Isa;
use super::json::{program_from_json, program_json, ProgramJson};
use super::listing::{listing_from, ListingLine};
use super::validate::Validate;
use super::words::{in_bytes, instruction_bytes, join_stream, split_pieces, split_stream};
use crate::bundle::{self, Schedule};
use crate::directives::{Includer, Source};
use crate::format::Format;
use crate::program::Violation;
use crate::value::Value;
use crate::{AsmError, DecodeError, EncodeError};
use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

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
