//! What every generated target provides, and the generic tools built on it once: the
//! assembler driver (lines, labels, comments), the disassembler and word/byte conversions.
//!
//! Generated code implements [`Isa`] for a unit struct per target; [`Target`] is the
//! object-safe face of it, so the `isa` command handles every target without matching on them.

mod assemble;
mod dialect;
mod disasm;
mod format_index;
mod isa;
mod json;
mod lines;
mod listing;
mod object_safe;
mod pieces;
mod statement;
mod summary;
mod validate;
mod words;

pub use assemble::{
    assemble, assemble_exact, assemble_files, assemble_program, assemble_program_reporting,
    assemble_scheduled, assemble_stream, Assembled, Statement, StatementError,
};
pub use dialect::{find_dialect, write_dialect_list, Dialect, ListingStyle, UnknownDialect};
pub use disasm::{
    data_text, disassemble, disassemble_pieces, disassemble_program, disassemble_program_from,
    disassemble_word, disassemble_words, disassemble_words_from, slot_text, text_of_word, Line,
};
pub use format_index::FormatIndex;
pub use isa::Isa;
pub use json::{program_from_json, program_json, ProgramJson};
pub use listing::{align_listing, listing_from, ListingLine};
pub use object_safe::{Decoded, Target};
pub(crate) use pieces::{alone_in_line, blank_comments_open, piece_end, section_directive, split_statements};
pub use statement::{assemble_one, assemble_statement, assemble_statement_with, mnemonics};
pub use summary::{fold_summaries, summarize, Summary};
pub use validate::Validate;
pub use words::{
    decode_bytes, instruction_bytes, join_stream, piece_of_another_length, split_pieces, split_stream,
    word_from_bytes, word_parts, word_to_bytes, words_of_parts,
};
