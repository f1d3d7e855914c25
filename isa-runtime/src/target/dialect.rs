//! Dialects: a target's named syntaxes, their listing styles, and finding one by name.

use crate::directives::Directive;
use alloc::string::{String, ToString};

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
/// ([`align_listing`](super::align_listing)); the comment of a pair's second instruction, and each control word's,
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
    /// to the longest other text ([`align_listing`](super::align_listing)).
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
