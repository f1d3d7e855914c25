//! The assembler's directive language, one core for every target: symbols, conditional
//! assembly, repetition, macros, includes and data. A dialect only spells the directives
//! ([`crate::target::Dialect::directives`]), like GNU as or LLVM MC's AsmParser with their
//! per-target spellings.
//!
//! [`expand`] is the first pass: it reads the source once, expands every directive and lays
//! out the program (each instruction one word, data in bytes), so every label has its address
//! when it ends. Instruction lines come out with the symbols they name replaced by their
//! values; what is left for the second pass are label references, read by the syntax engine
//! through [`crate::expr`]. The expansion is linear in the expanded text: bodies are stored
//! once and replayed, and nesting is bounded, so no source makes it recurse without end.

use crate::expr::{self, Names, Term, Value};
use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

pub use isa_runtime_base::Directive;

/// Bytes per value of a data directive.
fn data_width(d: Directive) -> Option<u8> {
    match d {
        Directive::Byte => Some(1),
        Directive::Short | Directive::Half => Some(2),
        Directive::Int | Directive::Float => Some(4),
        Directive::Long | Directive::Double => Some(8),
        _ => None,
    }
}

/// Reads the files `.include` names.
pub trait Includer {
    /// The file `name` (written `<name>` when `system`) included from file `from` (`None`: the
    /// main source): the name to show in diagnostics and the text, or why it cannot be read.
    fn load(&mut self, name: &str, system: bool, from: Option<&str>) -> Result<(String, String), String>;

    /// Files assembled before the source (vc4asm's `-i FILE`): each one's name and text.
    fn preludes(&mut self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// A warning about the program, with the text of its line: something assembled as the
    /// source says, but likely not as meant (vc4asm's P240: zeros inserted before an
    /// instruction after data). The program still assembles; by default warnings are dropped.
    fn warning(&mut self, warning: &crate::AsmError, line: &str) {
        let _ = (warning, line);
    }

    /// Whether the assembled program is also checked against the spec's constraints and
    /// program rules, each broken one a [`Includer::warning`] at its instruction's line
    /// (vc4asm's `-V`; `isa asm --validate`). Off by default.
    fn validates(&self) -> bool {
        false
    }

    /// Whether the target's control words (an interleaved stream's) are read, written and
    /// counted in addresses. Off, every statement is an instruction word: a list of them, as
    /// `disassemble_words` prints it (`isa asm --no-control-words`). On by default.
    fn scheduled(&self) -> bool {
        true
    }
}

/// An [`Includer`] for sources that include nothing: every `.include` is an error.
pub struct NoIncludes;

impl Includer for NoIncludes {
    fn load(&mut self, name: &str, _: bool, _: Option<&str>) -> Result<(String, String), String> {
        Err(format!("cannot include `{name}`: no files can be read here"))
    }
}

/// A line of one of the sources: file number (0: the main source), line number (1-based) and
/// its byte range in the file's text.
#[derive(Debug, Clone, Copy)]
pub struct SourceLine {
    file: u32,
    number: u32,
    start: u32,
    end: u32,
}

/// What a line was expanded in: a macro call, an include, a repetition.
#[derive(Debug, Clone)]
struct Frame {
    what: String,
    at: SourceLine,
    parent: Option<u32>,
}

/// A piece of an expanded line that replaced a symbol: `len` bytes at `at` stand for the
/// `original_len` bytes at `original` of the source line.
#[derive(Debug, Clone, Copy)]
struct Splice {
    at: usize,
    len: usize,
    original: usize,
    original_len: usize,
    /// A numeric label reference (`r:1f`) made the internal name of its definition, which
    /// messages quote as the source has it.
    numeric: bool,
}

/// A line of the expanded program.
#[derive(Debug)]
pub struct Expanded {
    /// The source line.
    pub line: SourceLine,
    /// Where it was expanded (an index into the frames).
    frame: Option<u32>,
    /// Byte offset in the source line of the text below.
    offset: usize,
    /// Its symbols replaced by their values (a boxed slice: one record per expanded line is
    /// kept until the program is assembled, so each is kept small).
    splices: Box<[Splice]>,
    /// What the line is.
    pub kind: Kind,
}

impl Expanded {
    /// Whether expansion replaced symbols in the line's text (else the text is the source's).
    pub fn replaced(&self) -> bool {
        !self.splices.is_empty()
    }

    /// Byte offset in the source statement of the expanded text.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

/// What an expanded line is.
#[derive(Debug)]
pub enum Kind {
    /// An instruction's text (the dialect's statement, its symbols replaced).
    Code(String),
    /// Data at a byte address: values of `width` bytes, each an expression's text and its
    /// byte offset in the line's text; floats for `.half`, `.float` and `.double`.
    Data {
        /// Bytes per value.
        width: u8,
        /// IEEE floats of the width rather than integers.
        float: bool,
        /// The expressions with their offsets in the text.
        values: Box<[(usize, usize)]>,
        /// The line's text after the directive, symbols replaced.
        text: Box<str>,
    },
    /// A statement of a data section ([`Spelling::data_sections`]): an entry of the table it
    /// fills (`[0] = 0.5`), its symbols replaced; [`crate::table::fill`] reads it.
    Entry {
        /// The section: an index into [`Spelling::data_sections`].
        section: u32,
        /// The statement's text.
        text: String,
    },
    /// The directive that writes the next group's control word as it is
    /// ([`Spelling::control`]): the statement's text, directive included. It takes no bytes
    /// of its own (the control word is laid out before every group anyway).
    Control(String),
    /// Zero bytes.
    Zeros(u64),
    /// Zero bytes up to the next multiple of `align` bytes (`.align`, or the padding that puts
    /// an instruction on a word boundary after data): `bytes` where expansion laid it out.
    Pad {
        /// The bytes at the expansion's addresses.
        bytes: u64,
        /// The multiple it pads to.
        align: u64,
        /// Whether it is the padding before an instruction after data (not `.align`).
        before_code: bool,
    },
    /// An `origin`: from here on, an address is the position laid out (an instruction's,
    /// data's) plus this many bytes, wrapping (a step back is a large number).
    Origin(u64),
    /// Single bits (`.bit`), each an expression as in [`Kind::Data`], from bit `first` of the
    /// last byte laid out (0: of a new byte); `bytes` new bytes are laid out for them.
    Bits {
        /// The bit (0–7) of the current byte where the first value goes; 0 starts a byte.
        first: u8,
        /// Bytes these values add.
        bytes: u64,
        /// The expressions with their offsets in the text.
        values: Box<[(usize, usize)]>,
        /// The line's text after the directive, symbols replaced.
        text: Box<str>,
    },
}

impl Kind {
    /// The expanded text of a line of code or data (its symbols replaced).
    fn text(&self) -> Option<&str> {
        match self {
            Kind::Code(code) => Some(code),
            Kind::Data { text, .. } | Kind::Bits { text, .. } => Some(text),
            Kind::Entry { text, .. } | Kind::Control(text) => Some(text),
            Kind::Zeros(_) | Kind::Pad { .. } | Kind::Origin(_) => None,
        }
    }
}

/// The expanded program: its lines, the labels' byte addresses and every error found.
pub struct Program {
    /// The lines, in order.
    pub lines: Vec<Expanded>,
    /// Label addresses.
    pub labels: BTreeMap<String, u64>,
    /// Labels whose addresses expansion read (in `.set`, `.if`, `.rep`, a symbol's value, ...),
    /// each with where, in the order read: a layout that moves such a label afterwards (the
    /// relaxation of instructions of different lengths) would leave the value stale.
    pub labels_read: Vec<(String, Located)>,
    /// Warnings found while expanding, in source order ([`Includer::warning`]).
    pub warnings: Vec<Located>,
    /// Whether the source set a symbol (`.set`, `.equ`, ...): with [`Program::labels`], whether
    /// a name in an operand may be one misspelt.
    pub symbols_set: bool,
    /// The number of `origin`s before each label defined after one (labels before the first
    /// are not kept): an origin may go back, so an address alone does not say which line a
    /// label is at ([`Program::label_line`]).
    pub label_origins: BTreeMap<String, u32>,
    files: Vec<SourceFile>,
    frames: Vec<Frame>,
}

/// A file of the program: its name, its text, the text its statements are read from (comments
/// blanked, line ends of statements spanning lines made blanks: the same bytes at the same
/// offsets) and where its lines start.
struct SourceFile {
    name: String,
    text: Rc<str>,
    code: Rc<str>,
    /// Empty once the text is let go ([`Expander::release`]).
    line_starts: Vec<usize>,
    /// Lines of the file before this text: a piece of the main source read in pieces
    /// ([`Source`]), or a macro's body copied out of one, starts further down the file.
    first_line: u32,
    /// Whether it is the main source (or a piece of it): errors in it name no file.
    main: bool,
    /// A piece of the main source: its text is let go once nothing points into it.
    piece: bool,
}

impl SourceFile {
    /// The number (from 0) of the line holding byte `pos`.
    fn line_index(&self, pos: usize) -> usize {
        self.line_starts.partition_point(|s| *s <= pos).max(1) - 1
    }

    /// The text of line number `n` (from 0), without its line end.
    fn line(&self, n: usize) -> &str {
        let begin = self.line_starts.get(n).copied().unwrap_or(self.text.len()).min(self.text.len());
        let line = self.text[begin..].split('\n').next().unwrap_or("");
        line.strip_suffix('\r').unwrap_or(line)
    }
}

/// An error of the expansion, at a byte range of an expanded line's text.
pub struct Located {
    /// Line and frame it is at.
    pub line: SourceLine,
    frame: Option<u32>,
    /// Byte offset in the line and length.
    pub pos: usize,
    /// Length in bytes.
    pub length: usize,
    /// What went wrong.
    pub message: String,
}

impl Program {
    /// The numbers of the program's `origin` lines, in order ([`Program::label_line`]).
    pub fn origin_lines(&self) -> Vec<usize> {
        self.lines
            .iter()
            .enumerate()
            .filter(|(_, l)| matches!(l.kind, Kind::Origin(_)))
            .map(|(k, _)| k)
            .collect()
    }

    /// The line label `name` at `address` stands before, where `addresses` holds each line's
    /// address in a layout of the program (origins counted) and `origins` its `origin` lines
    /// ([`Program::origin_lines`]): the first line at or after the address among the lines
    /// after as many origins as the label (an origin may go back, so an address alone may be
    /// several lines'); the end of those lines when none.
    pub fn label_line(&self, name: &str, address: u64, addresses: &[u64], origins: &[usize]) -> usize {
        let segment = self.label_origins.get(name).copied().unwrap_or(0) as usize;
        let from = segment.checked_sub(1).and_then(|k| origins.get(k)).map_or(0, |k| k + 1);
        let to = origins.get(segment).copied().unwrap_or(addresses.len()).max(from);
        let within = addresses.get(from..to).unwrap_or(&[]);
        from + within.partition_point(|a| *a < address)
    }

    /// Whether the program defines names an operand may refer to: labels or symbols.
    pub fn defines_names(&self) -> bool {
        self.symbols_set || !self.labels.is_empty()
    }

    /// The text of a source line (of a statement: the lines it spans).
    pub fn text(&self, line: &SourceLine) -> &str {
        self.files
            .get(line.file as usize)
            .and_then(|f| f.text.get(line.start as usize..line.end as usize))
            .unwrap_or("")
    }

    /// The text of `line`'s file after the statement: where the dialect ends statements with a
    /// separator, the separator, unless the file ends first.
    pub fn after(&self, line: &SourceLine) -> &str {
        self.files.get(line.file as usize).and_then(|f| f.text.get(line.end as usize..)).unwrap_or("")
    }

    /// The text of the source line error `e` is at.
    pub fn source_line(&self, e: &crate::AsmError) -> &str {
        // The main source may be in pieces: the one holding the line (still held).
        let line = e.line.saturating_sub(1);
        let holds = |f: &&SourceFile| {
            let first = f.first_line as usize;
            // A piece ending in a line end holds no line after it: that is the next piece's first.
            let end = f.line_starts.last().is_some_and(|&s| s > 0 && s == f.text.len());
            first <= line && line < first + f.line_starts.len() - usize::from(end)
        };
        let file = match &e.file {
            None => self.files.iter().filter(|f| f.main).find(holds),
            Some(name) => self.files.iter().filter(|f| !f.main).find(|f| &f.name == name),
        };
        file.map_or("", |f| f.line(line - f.first_line as usize))
    }

    /// Whether the text of every source is still held: [`expand_streaming`] lets go of the
    /// pieces of the main source that nothing points into, and an error in a line of one can
    /// no longer quote it.
    pub fn holds_sources(&self) -> bool {
        self.files.iter().all(|f| !f.piece || !f.line_starts.is_empty())
    }

    /// Turns an error at byte `pos` (length `len`) of expanded line `e`'s text into one at its
    /// source line: a position inside a replaced symbol points at the symbol.
    pub fn locate(&self, e: &Expanded, pos: usize, len: usize, message: String) -> crate::AsmError {
        // Each end of the span mapped to the source: a position inside a replaced symbol is the
        // whole symbol, one after it moves with the difference in length.
        let map = |p: usize, end: bool| {
            for s in e.splices.iter().rev() {
                if p >= s.at + s.len {
                    return p - (s.at + s.len) + s.original + s.original_len;
                }
                if p > s.at || (p == s.at && !end) {
                    return if end { s.original + s.original_len } else { s.original };
                }
            }
            p
        };
        let inside = e.splices.iter().find(|s| s.at <= pos && pos < s.at + s.len);
        let start = map(pos, false);
        let end = map(pos + len, true).max(inside.map_or(start, |s| s.original + s.original_len));
        let mut message = message;
        let source = self.text(&e.line).get(e.offset..).unwrap_or("");
        if let Some(code) = e.kind.text() {
            for s in e.splices.iter().filter(|s| s.numeric) {
                if let (Some(new), Some(old)) =
                    (code.get(s.at..s.at + s.len), source.get(s.original..s.original + s.original_len))
                {
                    message = message.replace(&format!("`{new}`"), &format!("`{old}`"));
                }
            }
            // A message quoting the text the symbols became says what the source wrote too,
            // as the underline shows it: "found `(RT)` (`RT` = 99)".
            let values: Vec<String> = e
                .splices
                .iter()
                .filter(|s| !s.numeric && s.at < pos + len.max(1) && pos < s.at + s.len)
                .filter_map(|s| {
                    let name = source.get(s.original..s.original + s.original_len)?;
                    Some(format!("`{name}` = {}", code.get(s.at..s.at + s.len)?))
                })
                .collect();
            let quoted = code.get(pos..pos + len).zip(source.get(start..end));
            if let Some((new, old)) = quoted.filter(|(new, old)| !values.is_empty() && new != old) {
                let new = format!("`{new}`");
                if message.contains(&new) {
                    message = message.replacen(&new, &format!("`{old}` ({})", values.join(", ")), 1);
                }
            }
        }
        self.error_at(&e.line, e.frame, e.offset + start, end - start, message)
    }

    /// An error at byte `pos` (length `len`) of source line `line`, expanded in `frame`.
    fn error_at(
        &self,
        line: &SourceLine,
        frame: Option<u32>,
        pos: usize,
        len: usize,
        message: String,
    ) -> crate::AsmError {
        // The statement may span lines: the error is at the line holding its byte.
        let statement = line.end.saturating_sub(line.start) as usize;
        let pos = line.start as usize + pos.min(statement);
        let (number, text, begin) = match self.files.get(line.file as usize) {
            Some(f) if !f.line_starts.is_empty() => {
                let n = f.line_index(pos);
                (f.first_line as usize + n + 1, f.line(n), f.line_starts.get(n).copied().unwrap_or(0))
            }
            // A piece let go: the statement's first line, without its text.
            _ => (line.number as usize, "", pos),
        };
        let pos = pos.saturating_sub(begin).min(text.len());
        let end = (pos + len).min(text.len());
        let column = text.get(..pos).map_or(pos, |t| t.chars().count()) + 1;
        let length = text.get(pos..end).map_or(0, |t| t.chars().count());
        let mut expansion = Vec::new();
        let mut f = frame;
        while let Some(fr) = f.and_then(|i| self.frames.get(i as usize)) {
            expansion.push(crate::error::Expansion {
                file: self.file_name(fr.at.file),
                line: fr.at.number as usize,
                what: fr.what.clone(),
            });
            f = fr.parent;
        }
        crate::AsmError { line: number, column, length, message, file: self.file_name(line.file), expansion }
    }

    fn file_name(&self, file: u32) -> Option<String> {
        let f = self.files.get(file as usize);
        (file != 0 && !f.is_some_and(|f| f.main)).then(|| f.map(|f| f.name.clone()).unwrap_or_default())
    }

    /// The error `l` of the expansion, located.
    pub fn located(&self, l: &Located) -> crate::AsmError {
        self.error_at(&l.line, l.frame, l.pos, l.length, l.message.clone())
    }
}

/// How a dialect writes what the expansion reads.
pub struct Spelling<'a> {
    /// Comment markers.
    pub comments: &'a [&'static str],
    /// Directive spellings.
    pub directives: &'a [(&'static str, Directive)],
    /// What label references start with (vc4asm's `:` and `r:`); the first also starts a
    /// label's definition. Empty: plain names.
    pub label_prefixes: &'a [&'a str],
    /// Whether names match without regard to ASCII case.
    pub ignore_case: bool,
    /// Whether a statement may start with label definitions (`name:`, or the first label
    /// prefix and a name). Not where a program has no addresses for labels to name (bundles,
    /// whose units' words the schedule words place): there `ALU:` starts a unit, not a label.
    pub labels: bool,
    /// The raw-word directive ([`crate::target::Dialect::raw`]): with one `0x` word it stays
    /// the raw directive even where a data directive has the same spelling (vc4asm's `.long`).
    pub raw: Option<&'a str>,
    /// The directive starting the code section, if the dialect has sections
    /// ([`crate::target::Dialect::code_section`]).
    pub code_section: Option<&'a str>,
    /// The directives starting data sections, whose statements are table entries
    /// ([`Kind::Entry`]), expanded as code is (symbols, conditionals, repetitions, macros,
    /// includes). A section directive is a statement of its own (the splitter makes it one)
    /// and holds until the next, across includes and macros, as GNU as's sections do.
    pub data_sections: &'a [&'a str],
    /// How a file's text splits into statements, where the dialect has its own way
    /// (statements ending in a separator and spanning lines, block comments, sections):
    /// [`Split`]. `None`: one per line.
    pub statements: Option<Statements<'a>>,
    /// A conditional open at the end of a file is a warning, not an error
    /// ([`crate::target::Dialect::open_if_warns`]).
    pub open_if_warns: bool,
    /// The directive writing a group's control word as it is, where the target interleaves
    /// control words and its spec names one ([`crate::bundle::Schedule::raw_control`]):
    /// its statements are [`Kind::Control`].
    pub control: Option<&'a str>,
}

/// How a dialect splits a file's text into statements ([`Spelling::statements`]): the text,
/// whether it starts in a data section (where the piece before it ended), and whether more of
/// the file follows it (the main source read in pieces).
pub type Statements<'a> = &'a dyn Fn(&str, bool, bool) -> Split;

/// A text split into statements ([`Statements`]).
pub struct Split {
    /// The text to read them from: the same bytes at the same offsets, comments and the line
    /// ends inside statements blanked.
    pub code: String,
    /// Each statement's byte range.
    pub ranges: Vec<(usize, usize)>,
    /// How much of the text was split: all of it, or where more follows, up to where a piece
    /// may end (a line start with no statement and no block comment open; 0 if none). The
    /// rest is split again with the text that follows it.
    pub end: usize,
    /// Whether the statements after `end` are in a data section.
    pub in_data: bool,
}

impl<'a> Spelling<'a> {
    /// The spellings dialect `d` declares, with labels or not (a bundled target's units are
    /// no labels) and its own statement splitter where it has one.
    pub fn of(d: &'a crate::target::Dialect, labels: bool, statements: Option<Statements<'a>>) -> Self {
        Spelling {
            comments: d.comments,
            directives: d.directives,
            label_prefixes: d.label_prefixes,
            ignore_case: d.ignore_case,
            labels,
            raw: d.raw,
            code_section: d.code_section,
            data_sections: d.data_sections,
            statements,
            open_if_warns: d.open_if_warns,
            control: None,
        }
    }

    /// The longest label prefix `text` starts with (`r:` before `:`).
    fn label_prefix(&self, text: &str) -> Option<&'a str> {
        self.label_prefixes.iter().copied().filter(|p| text.starts_with(p)).max_by_key(|p| p.len())
    }
}

/// The layout of the program being expanded: how big an instruction is, where instruction
/// number `k` lies for targets with control words.
pub struct Layout<'a> {
    /// Bytes per instruction word.
    pub word_bytes: u64,
    /// An instruction after data starts at a multiple of this many bytes (zeros pad up to
    /// it): the word, or where instructions differ in length, the shortest instruction.
    pub code_align: u64,
    /// Byte address of instruction slot `k` when the target interleaves control words (data
    /// then fills whole slots, as raw words do); `None` for a plain stream of words and data.
    pub scheduled: Option<&'a dyn Fn(usize) -> u64>,
}

/// A symbol's value: a number, or text that is not one (a register name), put in place of the
/// symbol where it is used.
#[derive(Debug, Clone)]
enum Symbol {
    Number(Value),
    Text(String),
}

struct Binding {
    value: Symbol,
    constant: bool,
    /// The context it was set in (`Lset`), 0 for the global one.
    context: usize,
}

/// A function: its parameters and its body, one expression or lines ending in one.
struct Function {
    params: Vec<String>,
    body: Body,
}

enum Body {
    Expression(String),
    Lines(Rc<[SourceLine]>),
}

struct MacroDef {
    params: Vec<String>,
    body: Rc<[SourceLine]>,
}

/// How deep includes, macro calls and repetitions may nest (a macro calling itself, a file
/// including itself).
const MAX_DEPTH: usize = 64;

/// The most repetitions, macro calls and inclusions a program may expand (each is a frame its
/// errors are placed by, kept to the end): `.rep 99999999999999` took memory until none was
/// left, as did a macro calling itself twice (2^64 calls within [`MAX_DEPTH`]). The unit tests
/// reach a smaller one, in a few milliseconds.
const MAX_FRAMES: usize = if cfg!(test) { 1 << 12 } else { 1 << 20 };

struct Expander<'a> {
    spelling: &'a Spelling<'a>,
    layout: &'a Layout<'a>,
    includer: &'a mut dyn Includer,
    out: Program,
    errors: Vec<Located>,
    symbols: BTreeMap<String, Vec<Binding>>,
    macros: BTreeMap<String, Rc<MacroDef>>,
    functions: BTreeMap<String, Rc<Function>>,
    /// The open contexts for `Lset` (macro calls, includes, `Local` blocks): each one's number
    /// and the symbols set in it.
    contexts: Vec<(usize, Vec<String>)>,
    next_context: usize,
    /// How often each label whose name starts with a digit (`:1`, `:0_pass`) has been
    /// defined so far.
    numeric_labels: BTreeMap<String, u32>,
    /// Labels in the order they were defined (`Back` moves some).
    defined: Vec<String>,
    /// `Clone`s to fill in once every label is known: the first placeholder line, the label,
    /// the count.
    clones: Vec<(usize, String, usize)>,
    /// Bytes laid out so far (an instruction a word).
    bytes: u64,
    /// What the last `origin` adds to an address laid out ([`Kind::Origin`]).
    origin: u64,
    /// The `origin`s so far.
    origins: u32,
    /// Bits of the last byte that `.bit` values took (0: none, the next item starts a byte).
    bit_offset: u8,
    depth: usize,
    /// [`MAX_FRAMES`] frames are made: nothing more expands.
    exhausted: bool,
    /// The line being expanded, and the labels read so far (see [`Program::labels_read`]).
    current: Option<(SourceLine, Option<u32>)>,
    /// Where [`expand_streaming`] hands the lines as they are final.
    sink: Option<&'a mut Sink<'a>>,
    /// `Back` bodies being expanded (their lines move once the body ends: none is final).
    moving: usize,
    /// A `Clone` was read: its placeholders are filled once every line is known, so the lines
    /// are no longer handed over as they come.
    cloned: bool,
    labels_read: core::cell::RefCell<Vec<(String, Located)>>,
    /// Calls of the source's functions so far.
    calls: core::cell::Cell<usize>,
    /// The data section statements are in ([`Spelling::data_sections`]); `None`: code.
    section: Option<u32>,
    /// The next [`Expander::block`] is a whole file's (a main file, prelude or include), where
    /// a conditional left open may be a warning ([`Spelling::open_if_warns`]).
    whole_file: bool,
    /// The bytes a directive's spelling starts with (in both cases), a bit each: a text whose
    /// first byte is none of them starts no directive ([`Expander::directive`]).
    directive_starts: [u64; 4],
}

/// A conditional block being read: whether its current branch is taken, and whether one was.
struct Cond {
    taken: bool,
    done: bool,
    outer: bool,
    else_seen: bool,
    at: SourceLine,
    /// Where the opening directive is in its line, and its length.
    pos: (usize, usize),
}

/// Expands `source` (named `name` in diagnostics) in a dialect's spelling. Returns the program
/// and the errors found, in source order.
pub fn expand(
    name: &str,
    source: &str,
    spelling: &Spelling,
    layout: &Layout,
    includer: &mut dyn Includer,
) -> (Program, Vec<Located>) {
    let mut x = Expander::new(spelling, layout, includer, None);
    // The main source is file 0, whatever is read before it.
    let lines = x.add_file(name.to_string(), Rc::from(source));
    // At most a line (and its padding) per source line without macros or repetitions: room
    // for them at once rather than by doubling (the records are most of `asm`'s memory).
    x.out.lines.reserve(lines.len());
    x.run(&lines);
    (x.out, x.errors)
}

/// [`expand`], handing the lines to `sink` as they become final (with the program so far, to
/// locate errors in them) rather than keeping them: the program returned holds none, and the
/// memory the expansion keeps is that of its symbols, macros, labels and sources, not of the
/// expanded program. The lines come in order, each exactly once; the labels are final only at
/// the end, so a second pass reads the program again (the expansion is deterministic: the
/// same source, symbols and labels at every line).
///
/// `None` where the lines cannot be handed over before the end: a `Clone` fills its
/// placeholders from lines anywhere in the program (then [`expand`] keeps them all).
pub fn expand_streaming(
    name: &str,
    source: &mut dyn Source,
    spelling: &Spelling,
    layout: &Layout,
    includer: &mut dyn Includer,
    sink: &mut Sink<'_>,
) -> Option<Program> {
    let mut x = Expander::new(spelling, layout, includer, Some(sink));
    source.rewind();
    // The main source is file 0, whatever is read before it.
    let mut pieces = Pieces { source, name, next_line: 0, rest: String::new(), in_data: false, ended: false };
    let lines = pieces.next(&mut x).unwrap_or_default();
    for (prelude, text) in x.includer.preludes() {
        let prelude_lines = x.add_file(prelude, Rc::from(text));
        x.whole_file = true;
        x.block(&prelude_lines, None);
    }
    x.whole_file = true;
    x.block_in(&lines, None, Some(&mut pieces));
    x.fill_clones();
    x.out.labels_read = x.labels_read.take();
    if x.cloned {
        return None;
    }
    x.flush(0);
    Some(x.out)
}

/// The main source's pieces still to read, for [`Expander::block_in`].
struct Pieces<'s> {
    source: &'s mut dyn Source,
    name: &'s str,
    /// Lines of the main source read so far.
    next_line: u32,
    /// Where the dialect splits statements itself ([`Spelling::statements`]): the text after
    /// the last place a piece could end (a statement or block comment still open there),
    /// split again with the next piece, and whether it starts in a data section.
    rest: String,
    in_data: bool,
    /// The source has no more pieces.
    ended: bool,
}

impl Pieces<'_> {
    /// Reads the next piece and adds it to `x`'s files: its lines (none where no statement
    /// ends in it yet); `None` at the end of the source.
    fn next(&mut self, x: &mut Expander<'_>) -> Option<Vec<SourceLine>> {
        let first_line = self.next_line;
        let Some(split) = x.spelling.statements else {
            let text = self.source.piece()?;
            self.next_line += line_ends(&text);
            return Some(x.add_text(self.name.to_string(), Rc::from(text), first_line, true, true, None));
        };
        if self.ended {
            return None;
        }
        // Whether more follows is known only by reading on: a piece is split as if it did,
        // and what is left at the end is split whole.
        // A statement or block comment longer than a piece is held until it ends; the pieces
        // after it are read until the text is twice what was held, so that splitting it again
        // and again costs time linear in its length, not quadratic.
        let held = self.rest.len();
        let mut text = core::mem::take(&mut self.rest);
        let mut more = true;
        while more && (text.len() == held || text.len() < 2 * held) {
            match self.source.piece() {
                Some(piece) => text.push_str(&piece),
                None => more = false,
            }
        }
        if !more {
            self.ended = true;
            if text.is_empty() {
                return None;
            }
        }
        let split = split(&text, self.in_data, more);
        self.in_data = split.in_data;
        self.rest = text.split_off(split.end.min(text.len()));
        self.next_line += line_ends(&text);
        Some(x.add_text(self.name.to_string(), Rc::from(text), first_line, true, true, Some(split)))
    }
}

/// How many line ends (`\n`) `text` holds, counted in blocks the compiler vectorises (a
/// search for the character one match at a time cost about 150 instructions a line, a plain
/// byte loop 5 a byte).
fn line_ends(text: &str) -> u32 {
    text.as_bytes().chunks(128).map(|c| u32::from(c.iter().fold(0u8, |n, b| n + u8::from(*b == b'\n')))).sum()
}

/// Appends the offset after each line end (`\n`) of `text` to `out`: blocks of 32 bytes
/// without one are passed over at once ([`line_ends`]).
fn push_line_starts(text: &str, out: &mut Vec<usize>) {
    for (k, block) in text.as_bytes().chunks(32).enumerate() {
        // A bit for each line end of the block, then one push a bit.
        let mut ends = block.iter().enumerate().fold(0u32, |m, (i, b)| m | u32::from(*b == b'\n') << i);
        while ends != 0 {
            out.push(k * 32 + ends.trailing_zeros() as usize + 1);
            ends &= ends - 1;
        }
    }
}

/// What [`expand_streaming`] hands the lines to, with the program so far.
pub type Sink<'a> = dyn FnMut(&Program, Handed) + 'a;

/// What [`expand_streaming`] hands over, in the order found.
pub enum Handed {
    /// Lines that are final, in order.
    Lines(Vec<Expanded>),
    /// An error of the expansion ([`Program::located`] places it while its text is held).
    Error(Located),
    /// A warning of the expansion.
    Warning(Located),
}

/// The main source of [`expand_streaming`], read a piece at a time so that it is never held
/// whole: a file of gigabytes is read as it is assembled.
pub trait Source {
    /// Starts again from the beginning (the assembler reads the source once a pass).
    fn rewind(&mut self);
    /// The next piece of the text: whole lines (the last may end without a line end); `None`
    /// at the end.
    fn piece(&mut self) -> Option<String>;
}

/// A text held whole, as a [`Source`]: one piece.
pub struct Text<'a> {
    text: &'a str,
    read: bool,
}

impl<'a> Text<'a> {
    /// `text` as a source.
    pub fn new(text: &'a str) -> Self {
        Text { text, read: false }
    }
}

impl Source for Text<'_> {
    fn rewind(&mut self) {
        self.read = false;
    }
    fn piece(&mut self) -> Option<String> {
        (!core::mem::replace(&mut self.read, true)).then(|| self.text.to_string())
    }
}

/// The whole text of `source`, from its start.
pub fn read_all(source: &mut dyn Source) -> String {
    source.rewind();
    let mut text = String::new();
    while let Some(piece) = source.piece() {
        text.push_str(&piece);
    }
    text
}

/// Lines an expansion handed to a sink keeps back, so that `Back` (which moves lines over at
/// most five instructions) and the padding after data see the lines before them.
const KEEP: usize = 8;

/// Lines an expansion handed to a sink gathers before handing them over.
const GATHER: usize = 1024;

/// Where the first comment marker of `line` starts (its length if none). A marker inside
/// double quotes closed on the line starts no comment: `.include "a//b"` names `a//b`.
pub(crate) fn comment_start(line: &str, comments: &[&str]) -> usize {
    // Byte by byte: a marker's first byte and the quote start characters (a UTF-8 sequence's
    // later bytes start none), so the positions looked at are the characters'. Only a byte
    // that starts a marker or is a quote is looked at further.
    let b = line.as_bytes();
    let mut quoted = false;
    if comments.iter().any(|m| m.is_empty()) {
        // An empty marker matches at any character: the plain walk.
        for (i, c) in line.char_indices() {
            if c == '"' {
                quoted = !quoted && line[i + 1..].contains('"');
                continue;
            }
            if !quoted {
                return i;
            }
        }
        return line.len();
    }
    // One marker (most dialects): the first of its first byte and a quote, eight bytes at a
    // time; where a quote comes first, the walk below from the start.
    if let [m] = comments {
        let m = m.as_bytes();
        let head = m[0];
        let mut from = 0;
        loop {
            match find_either(&b[from..], head, b'"').map(|i| from + i) {
                None => return line.len(),
                Some(i) if b[i] == b'"' => break,
                Some(i) if b[i..].starts_with(m) => return i,
                Some(i) => from = i + 1,
            }
        }
    }
    // Without quotes (most lines): the first place any marker occurs, each found by a search
    // for its first byte.
    if !b.contains(&b'"') {
        let first_at = |m: &str| {
            let head = m.as_bytes()[0];
            let mut from = 0;
            while let Some(k) = b[from..].iter().position(|&c| c == head) {
                if b[from + k..].starts_with(m.as_bytes()) {
                    return Some(from + k);
                }
                from += k + 1;
            }
            None
        };
        return comments.iter().filter_map(|m| first_at(m)).min().unwrap_or(line.len());
    }
    for (i, &c) in b.iter().enumerate() {
        if c == b'"' {
            // A quote opens a string only where another closes it.
            quoted = !quoted && b[i + 1..].contains(&b'"');
            continue;
        }
        if !quoted && comments.iter().any(|m| m.as_bytes()[0] == c && b[i..].starts_with(m.as_bytes())) {
            return i;
        }
    }
    line.len()
}

/// Where the first byte `x` or `y` of `b` is: eight bytes at a time until a word holds one
/// (a word `w` holds a zero byte where `(w - 0x01..01) & !w & 0x80..80` is not zero), then
/// byte by byte (a line's search for its comment marker was 8 instructions a byte).
fn find_either(b: &[u8], x: u8, y: u8) -> Option<usize> {
    const LOW: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = LOW << 7;
    let (wx, wy) = (LOW * u64::from(x), LOW * u64::from(y));
    let mut at = 0;
    for chunk in b.chunks_exact(8) {
        let w = u64::from_le_bytes([
            chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
        ]);
        let (a, c) = (w ^ wx, w ^ wy);
        if (a.wrapping_sub(LOW) & !a | c.wrapping_sub(LOW) & !c) & HIGH != 0 {
            break;
        }
        at += 8;
    }
    b[at..].iter().position(|&c| c == x || c == y).map(|i| at + i)
}

/// Byte ranges of the comma-separated parts of `text` at the top level (commas inside
/// parentheses or quotes do not separate), each trimmed; none for blank text.
fn split_args(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if text.trim().is_empty() {
        return out;
    }
    let (mut depth, mut quoted, mut start) = (0i32, false, 0);
    let mut push = |s: usize, e: usize| {
        let part = &text[s..e];
        let lead = part.len() - part.trim_start().len();
        // A blank argument (`a, , b`) is the empty range where it stands.
        out.push((s + lead, s + lead + part.trim().len()));
    };
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                push(start, i);
                start = i + 1;
            }
            _ => {}
        }
    }
    push(start, text.len());
    out
}

impl<'a> Expander<'a> {
    /// An expander with nothing defined yet, handing its lines to `sink` if there is one.
    fn new(
        spelling: &'a Spelling<'a>,
        layout: &'a Layout<'a>,
        includer: &'a mut dyn Includer,
        sink: Option<&'a mut Sink<'a>>,
    ) -> Self {
        Expander {
            spelling,
            layout,
            includer,
            out: Program {
                lines: Vec::new(),
                labels: BTreeMap::new(),
                labels_read: Vec::new(),
                symbols_set: false,
                label_origins: BTreeMap::new(),
                warnings: Vec::new(),
                files: Vec::new(),
                frames: Vec::new(),
            },
            errors: Vec::new(),
            symbols: BTreeMap::new(),
            macros: BTreeMap::new(),
            functions: BTreeMap::new(),
            contexts: Vec::new(),
            next_context: 1,
            numeric_labels: BTreeMap::new(),
            defined: Vec::new(),
            clones: Vec::new(),
            bytes: 0,
            origin: 0,
            origins: 0,
            bit_offset: 0,
            depth: 0,
            exhausted: false,
            current: None,
            labels_read: core::cell::RefCell::new(Vec::new()),
            calls: core::cell::Cell::new(0),
            section: None,
            whole_file: false,
            sink,
            moving: 0,
            cloned: false,
            directive_starts: {
                let mut set = [0u64; 4];
                for (d, _) in spelling.directives {
                    match d.as_bytes().first() {
                        Some(&b) => {
                            for b in [b, b.to_ascii_lowercase(), b.to_ascii_uppercase()] {
                                set[usize::from(b / 64)] |= 1 << (b % 64);
                            }
                        }
                        // An empty spelling is any line's empty head (`(` first): every line
                        // is looked up.
                        None => set = [u64::MAX; 4],
                    }
                }
                set
            },
        }
    }
}

impl Expander<'_> {
    /// The preludes, then the main source's `lines`; then the `Clone`s filled in.
    fn run(&mut self, lines: &[SourceLine]) {
        for (prelude, text) in self.includer.preludes() {
            let prelude_lines = self.add_file(prelude, Rc::from(text));
            self.whole_file = true;
            self.block(&prelude_lines, None);
        }
        self.whole_file = true;
        self.block(lines, None);
        self.fill_clones();
        self.out.labels_read = self.labels_read.take();
    }

    /// Hands the lines that are final to the sink, if there is one, all but the last `keep`.
    fn flush(&mut self, keep: usize) {
        if self.moving > 0 || self.cloned {
            return;
        }
        if let Some(sink) = self.sink.as_mut() {
            // Errors and warnings while the text they are at is held.
            for e in core::mem::take(&mut self.errors) {
                sink(&self.out, Handed::Error(e));
            }
            for w in core::mem::take(&mut self.out.warnings) {
                sink(&self.out, Handed::Warning(w));
            }
            // Only relaxation reads them (and it keeps the program).
            self.labels_read.borrow_mut().clear();
            let end = self.out.lines.len().saturating_sub(keep);
            if end > 0 {
                let lines: Vec<Expanded> = self.out.lines.drain(..end).collect();
                sink(&self.out, Handed::Lines(lines));
            }
        }
    }

    fn add_file(&mut self, name: String, text: Rc<str>) -> Vec<SourceLine> {
        let main = self.out.files.is_empty();
        self.add_text(name, text, 0, main, false, None)
    }

    /// A file's text (or a piece of the main source's, `first_line` lines down) and its lines:
    /// its statements as `split` (a piece's) or the dialect's splitter finds them, or one a line.
    fn add_text(
        &mut self,
        name: String,
        text: Rc<str>,
        first_line: u32,
        main: bool,
        piece: bool,
        split: Option<Split>,
    ) -> Vec<SourceLine> {
        let file = self.out.files.len() as u32;
        let mut line_starts = alloc::vec![0];
        push_line_starts(&text, &mut line_starts);
        let mut lines = Vec::new();
        let split = split.or_else(|| self.spelling.statements.map(|s| s(&text, false, false)));
        let code = match split {
            Some(Split { code, ranges, .. }) => {
                for (start, end) in ranges {
                    let n = line_starts.partition_point(|s| *s <= start).max(1) - 1;
                    lines.push(SourceLine {
                        file,
                        number: first_line + n as u32 + 1,
                        start: start as u32,
                        end: end as u32,
                    });
                }
                // The statements' text must lie where the source's does.
                if code.len() == text.len() {
                    Rc::from(code)
                } else {
                    text.clone()
                }
            }
            None => {
                // One line a line start ([`line_starts`]'s), the last only if it holds text.
                let bytes = text.as_bytes();
                for (n, &start) in line_starts.iter().enumerate() {
                    let next = line_starts.get(n + 1).copied();
                    if next.is_none() && start == bytes.len() {
                        break;
                    }
                    let mut end = next.map_or(bytes.len(), |e| e - 1);
                    if end > start && bytes[end - 1] == b'\r' {
                        end -= 1;
                    }
                    lines.push(SourceLine {
                        file,
                        number: first_line + n as u32 + 1,
                        start: start as u32,
                        end: end as u32,
                    });
                }
                text.clone()
            }
        };
        self.out.files.push(SourceFile { name, text, code, line_starts, first_line, main, piece });
        lines
    }

    /// A macro's or function's body kept past the piece of the main source it is in: its
    /// lines' text copied into a file of its own (the same name and line numbers), so the
    /// piece can be let go. Bodies elsewhere are returned as they are.
    fn own(&mut self, body: Rc<[SourceLine]>) -> Rc<[SourceLine]> {
        let (Some(first), Some(last)) = (body.first(), body.last()) else { return body };
        let Some(f) = self.out.files.get(first.file as usize).filter(|f| f.piece) else { return body };
        let (start, end) = (first.start as usize, (last.end as usize).max(first.start as usize));
        let n = f.line_index(start);
        let line_starts: Vec<usize> =
            f.line_starts[n..].iter().take_while(|&&p| p <= end).map(|p| p.saturating_sub(start)).collect();
        let copy = SourceFile {
            name: f.name.clone(),
            text: Rc::from(f.text.get(start..end).unwrap_or("")),
            code: Rc::from(f.code.get(start..end).unwrap_or("")),
            line_starts,
            first_line: f.first_line + n as u32,
            main: f.main,
            piece: false,
        };
        let file = self.out.files.len() as u32;
        self.out.files.push(copy);
        let moved: Vec<SourceLine> = body
            .iter()
            .map(|l| SourceLine { file, start: l.start - start as u32, end: l.end - start as u32, ..*l })
            .collect();
        Rc::from(moved)
    }

    /// Lets go of the text of the main source's pieces that nothing points into any more: not
    /// the lines still to read (`window`), nor the expanded lines not handed over, nor open
    /// conditionals (`open`). First hands over the lines that are final, and the errors and
    /// warnings found so far, while their text is held.
    fn release(&mut self, window: &[SourceLine], open: &[SourceLine]) {
        if self.sink.is_none() || self.moving > 0 || self.cloned {
            return;
        }
        self.flush(KEEP);
        let live: alloc::collections::BTreeSet<u32> = window
            .iter()
            .chain(open)
            .map(|l| l.file)
            .chain(self.out.lines.iter().map(|e| e.line.file))
            .chain(self.current.map(|(l, _)| l.file))
            .collect();
        for (k, f) in self.out.files.iter_mut().enumerate() {
            if f.piece && !f.line_starts.is_empty() && !live.contains(&(k as u32)) {
                f.text = Rc::from("");
                f.code = Rc::from("");
                f.line_starts = Vec::new();
            }
        }
    }

    fn text(&self, line: &SourceLine) -> Rc<str> {
        match self.out.files.get(line.file as usize) {
            Some(f) => Rc::from(f.code.get(line.start as usize..line.end as usize).unwrap_or("")),
            None => Rc::from(""),
        }
    }

    fn error(&mut self, line: SourceLine, frame: Option<u32>, pos: usize, length: usize, message: String) {
        self.errors.push(Located { line, frame, pos, length, message });
    }

    fn frame(&mut self, what: String, at: SourceLine, parent: Option<u32>) -> Option<u32> {
        if self.out.frames.len() >= MAX_FRAMES {
            // Reported once; every expansion after it stops ([`Expander::block_in`]).
            if !self.exhausted {
                self.exhausted = true;
                let message = format!(
                    "the program expands more than {MAX_FRAMES} repetitions, macro calls and inclusions"
                );
                self.error(at, parent, 0, 0, message);
            }
            return parent;
        }
        self.out.frames.push(Frame { what, at, parent });
        Some(self.out.frames.len() as u32 - 1)
    }

    /// Whether `text`, starting with a directive `len` bytes long, is the raw directive with one
    /// hexadecimal word.
    fn is_raw_word(&self, text: &str, len: usize) -> bool {
        let arg = text[len..].trim();
        self.spelling.raw == Some(&text[..len])
            && (arg.starts_with("0x") || arg.starts_with("0X"))
            && !arg.contains([',', ' ', '\t'])
    }

    /// The directive a line's text starts with: it, its length.
    fn directive(&self, text: &str) -> Option<(Directive, usize)> {
        // Most lines start with no directive's first byte: they are not looked up.
        let first = text.as_bytes().first().copied().unwrap_or(0);
        if self.directive_starts[usize::from(first / 64)] >> (first % 64) & 1 == 0 {
            return None;
        }
        let word = text.find([' ', '\t', '(']).unwrap_or(text.len());
        let head = &text[..word];
        self.spelling.directives.iter().find_map(|(s, d)| {
            let same = if self.spelling.ignore_case { s.eq_ignore_ascii_case(head) } else { *s == head };
            same.then_some((*d, word))
        })
    }

    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.symbols.get(name).and_then(|b| b.last())
    }

    fn bind(&mut self, name: &str, value: Symbol) {
        self.symbols.entry(name.to_string()).or_default().push(Binding {
            value,
            constant: false,
            context: 0,
        });
    }

    fn unbind(&mut self, name: &str) {
        if let Some(b) = self.symbols.get_mut(name) {
            b.pop();
            if b.is_empty() {
                self.symbols.remove(name);
            }
        }
    }

    /// Opens a context for `Lset` symbols.
    fn enter_context(&mut self) {
        self.contexts.push((self.next_context, Vec::new()));
        self.next_context += 1;
    }

    /// Closes the innermost context: its `Lset` symbols are forgotten.
    fn leave_context(&mut self) {
        let Some((context, names)) = self.contexts.pop() else { return };
        for name in names {
            if self.lookup(&name).is_some_and(|b| b.context == context) {
                self.unbind(&name);
            }
        }
    }

    /// Sets `name` in the global context (`Set`, `Const`) or the current one (`Lset`, `Lconst`).
    fn assign(&mut self, name: &str, value: Symbol, constant: bool, local: bool) {
        self.out.symbols_set = true;
        let context = if local { self.contexts.last().map_or(0, |c| c.0) } else { 0 };
        let stack = self.symbols.entry(name.to_string()).or_default();
        match stack.last_mut() {
            // A symbol of this context (or a global one set again) is replaced.
            Some(top) if !local || top.context == context => {
                *top = Binding { value, constant, context: top.context };
            }
            _ => {
                stack.push(Binding { value, constant, context });
                if let Some((_, names)) = self.contexts.last_mut().filter(|_| local) {
                    names.push(name.to_string());
                }
            }
        }
    }

    /// A symbol's value as a term: a number, a register name, or nothing usable in an
    /// expression (other text, such as a label reference left for the second pass).
    fn symbol_term(&self, name: &str, locals: &[(String, Term)], depth: usize) -> Option<Term> {
        if let Some((_, t)) = locals.iter().rev().find(|(n, _)| n == name) {
            return Some(*t);
        }
        match &self.lookup(name)?.value {
            Symbol::Number(v) => Some(Term::Value(*v)),
            Symbol::Text(t) if expr::name_len(t) == t.len() => expr::Name::new(t).map(Term::Name),
            // A label reference (`r:loop + 8`), once its label is known.
            Symbol::Text(t) if depth < MAX_DEPTH => self.evaluate_in(t, &[], depth + 1).ok(),
            Symbol::Text(_) => None,
        }
    }

    /// Evaluates the expression making up all of `text`, names standing for registers where
    /// the dialect's labels have a prefix; `locals` are a function's arguments and symbols.
    fn evaluate_in(
        &self,
        text: &str,
        locals: &[(String, Term)],
        depth: usize,
    ) -> Result<Term, expr::ExprError> {
        let text = &self.numeric_references(text);
        let symbol = |n: &str| self.symbol_term(n, locals, depth);
        let label = |n: &str| {
            let a = self.out.labels.get(n)?;
            if let Some((line, frame)) = self.current {
                let at = Located { line, frame, pos: 0, length: 0, message: String::new() };
                self.labels_read.borrow_mut().push((n.to_string(), at));
            }
            Some(*a as i64)
        };
        let call = |n: &str, args: &[Term]| {
            let f = self.functions.get(n)?;
            self.calls.set(self.calls.get() + 1);
            Some(self.call_function(n, f, args, depth + 1))
        };
        let names = Names {
            symbol: &symbol,
            label: &label,
            label_prefixes: self.spelling.label_prefixes,
            call: Some(&call),
            bare_names: !self.spelling.label_prefixes.is_empty(),
        };
        let (v, end) = expr::evaluate_term(text, 0, &names)?;
        if end < text.trim_end().len() {
            let len = text[end..].trim().len();
            let message = format!("unexpected `{}` after the expression", text[end..].trim());
            return Err(expr::ExprError {
                pos: end + (text.len() - end - text[end..].trim_start().len()),
                length: len,
                message,
                undefined: false,
                end: None,
            });
        }
        Ok(v)
    }

    /// Evaluates the expression making up all of `text` to a number.
    fn evaluate(&self, text: &str) -> Result<Value, expr::ExprError> {
        match self.evaluate_in(text, &[], 0)? {
            Term::Value(v) => Ok(v),
            Term::Name(n) => Err(expr::ExprError {
                pos: text.len() - text.trim_start().len(),
                length: text.trim().len(),
                message: format!("{n:?} is not a number"),
                undefined: false,
                end: None,
            }),
        }
    }

    /// Calls function `f` named `name` with `args`: its value, or why there is none.
    fn call_function(&self, name: &str, f: &Function, args: &[Term], depth: usize) -> Result<Term, String> {
        if depth >= MAX_DEPTH {
            return Err(format!("function calls nested deeper than {MAX_DEPTH} levels"));
        }
        if args.len() != f.params.len() {
            let n = f.params.len();
            return Err(format!(
                "function `{name}` takes {n} argument{}, found {}",
                if n == 1 { "" } else { "s" },
                args.len()
            ));
        }
        let mut locals: Vec<(String, Term)> = f.params.iter().cloned().zip(args.iter().copied()).collect();
        // The innermost function names itself; the calls around it add nothing.
        let in_function = |e: expr::ExprError| match e.message.starts_with("in function `") {
            true => e.message,
            false => format!("in function `{name}`: {}", e.message),
        };
        let lines = match &f.body {
            Body::Expression(text) => return self.evaluate_in(text, &locals, depth).map_err(in_function),
            Body::Lines(lines) => lines.clone(),
        };
        // The body: conditionals, assertions and symbols, then the line with the value.
        let mut taken: Vec<(bool, bool)> = Vec::new();
        for line in lines.iter() {
            let full = self.text(line);
            let code = full[..comment_start(&full, self.spelling.comments)].trim();
            if code.is_empty() {
                continue;
            }
            let active = taken.iter().all(|t| t.0);
            let directive = self.directive(code);
            let args_of = |len: usize| code[len..].trim();
            let truth = |text: &str| match self.evaluate_in(text, &locals, depth) {
                Ok(Term::Value(v)) => Ok(v.truth()),
                Ok(Term::Name(n)) => Err(format!("in function `{name}`: {n:?} is not a condition")),
                Err(e) => Err(in_function(e)),
            };
            match directive {
                Some((Directive::If, len)) => {
                    let t = active && truth(args_of(len))?;
                    taken.push((t, t));
                }
                Some((d @ (Directive::Elseif | Directive::Else), len)) => {
                    let outer = taken.len() < 2 || taken[..taken.len() - 1].iter().all(|t| t.0);
                    let Some(&(_, done)) = taken.last() else {
                        return Err(format!("in function `{name}`: `{}` without `.if`", &code[..len]));
                    };
                    let t = outer && !done && (d == Directive::Else || truth(args_of(len))?);
                    if let Some(last) = taken.last_mut() {
                        *last = (t, done || t);
                    }
                }
                Some((Directive::Endif, _)) => {
                    taken.pop();
                }
                _ if !active => {}
                Some((Directive::Assert, len)) => {
                    if !truth(args_of(len))? {
                        return Err(format!("in function `{name}`: assertion failed: {}", args_of(len)));
                    }
                }
                // In a function every symbol is the call's own.
                Some((Directive::Set | Directive::Lset | Directive::Const | Directive::Lconst, len)) => {
                    let args = args_of(len);
                    let parts = split_args(args);
                    let [(s, e), (vs, ve)] = parts.as_slice() else {
                        return Err(format!(
                            "in function `{name}`: `{}` expects `NAME, value`",
                            &code[..len]
                        ));
                    };
                    let value = self.evaluate_in(&args[*vs..*ve], &locals, depth).map_err(in_function)?;
                    locals.push((args[*s..*e].to_string(), value));
                }
                Some((_, len)) => {
                    return Err(format!("in function `{name}`: `{}` cannot be in a function", &code[..len]));
                }
                None => return self.evaluate_in(code, &locals, depth).map_err(in_function),
            }
        }
        Err(format!("function `{name}` gives no value"))
    }

    /// A symbol's value from `text`: a number if it evaluates, a register name, else (a name
    /// nothing defines as a number, a label further on, a packed register `ra0.8a`) the text
    /// with its symbols replaced.
    fn value(&self, text: &str) -> Result<Symbol, expr::ExprError> {
        match self.evaluate_in(text, &[], 0) {
            // A label's address stays a reference: an instruction reads it relative to itself.
            Ok(Term::Value(Value::Address(_))) => Ok(Symbol::Text(self.substitute(text, &[]).0)),
            Ok(Term::Value(v)) => Ok(Symbol::Number(v)),
            Ok(Term::Name(n)) => Ok(Symbol::Text(n.as_str().to_string())),
            // A label defined later is left for the second pass, like any text.
            // Text with no name or number in it is kept as written (vc4asm's `-`: no register).
            Err(e)
                if e.undefined
                    || self.starts_with_register(text)
                    || !text.contains(char::is_alphanumeric) =>
            {
                Ok(Symbol::Text(self.substitute(text, &[]).0))
            }
            Err(e) => Err(e),
        }
    }

    /// Whether `text` starts with a bare name that is no symbol and no function call: a
    /// register, maybe with a suffix (`ra0.8a`).
    fn starts_with_register(&self, text: &str) -> bool {
        let text = text.trim_start();
        let len = expr::name_len(text);
        !self.spelling.label_prefixes.is_empty()
            && len > 0
            && !text[len..].starts_with('(')
            && self.lookup(&text[..len]).is_none()
    }

    /// `text` with numeric label references (`r:1f`, `:1`, `:1b`) made the names of the
    /// definitions they mean: the next one (`f`) or the last one.
    fn numeric_references(&self, text: &str) -> String {
        if !self.spelling.label_prefixes.iter().any(|p| text.contains(p)) {
            return text.to_string();
        }
        let b = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while i < text.len() {
            let prefix = self.spelling.label_prefix(&text[i..]);
            let after_word = i > 0 && expr::is_name_byte(b[i - 1]);
            if let Some(p) = prefix.filter(|_| !after_word) {
                let digits_at = i + p.len();
                let digits = text[digits_at..].bytes().take_while(u8::is_ascii_digit).count();
                let run = text[digits_at..].bytes().take_while(|c| expr::is_name_byte(*c)).count();
                // Digits alone may take a direction (`1f`, `1b`); a name (`0_pass`) may not.
                let suffix = b.get(digits_at + digits).copied().filter(|c| matches!(c, b'f' | b'b'));
                let suffix = suffix.filter(|_| digits + 1 == run);
                let end = digits_at + if suffix.is_some() { digits } else { run };
                let ends = digits_at + run;
                if digits > 0 {
                    let name = &text[digits_at..end];
                    let count = self.numeric_labels.get(name).copied().unwrap_or(0);
                    let k = if suffix == Some(b'f') { count } else { count.saturating_sub(1) };
                    out.push_str(p);
                    out.push_str(&numeric_label(name, k));
                    i = ends;
                    continue;
                }
            }
            let c = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + c]);
            i += c;
        }
        out
    }

    /// `text` with every symbol name replaced by its value, and the byte ranges in `fixed`
    /// replaced by the texts given (operands already evaluated); where the replacements are.
    fn substitute(&self, text: &str, fixed: &[(usize, usize, String)]) -> (String, Vec<Splice>) {
        // Nothing to replace: no operand evaluated, no symbol defined, no label prefix (so no
        // numeric label reference). Most lines of a program without symbols.
        if fixed.is_empty()
            && self.symbols.is_empty()
            && !self.spelling.label_prefixes.iter().any(|p| text.contains(p))
        {
            return (text.to_string(), Vec::new());
        }
        let b = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut splices = Vec::new();
        let mut i = 0;
        let mut copied = 0;
        let mut fixed = fixed.iter().peekable();
        while i < b.len() {
            if let Some((s, e, value)) = fixed.peek().filter(|f| f.0 == i) {
                out.push_str(&text[copied..i]);
                let at = out.len();
                out.push_str(value);
                splices.push(Splice {
                    at,
                    len: value.len(),
                    original: *s,
                    original_len: e - s,
                    numeric: false,
                });
                copied = *e;
                i = *e;
                fixed.next();
                continue;
            }
            // Numeric label references: the definition they mean.
            let prefix = self.spelling.label_prefix(&text[i..]);
            if let Some(p) = prefix.filter(|p| b.get(i + p.len()).is_some_and(u8::is_ascii_digit)) {
                let end =
                    i + p.len() + text[i + p.len()..].bytes().take_while(|c| expr::is_name_byte(*c)).count();
                let named = self.numeric_references(&text[i..end]);
                if named != text[i..end] {
                    out.push_str(&text[copied..i]);
                    let at = out.len();
                    out.push_str(&named);
                    splices.push(Splice {
                        at,
                        len: named.len(),
                        original: i,
                        original_len: end - i,
                        numeric: true,
                    });
                    copied = end;
                }
                i = end;
                continue;
            }
            let len = expr::name_len(&text[i..]);
            let after_word = i > 0 && (expr::is_name_byte(b[i - 1]) || b[i - 1] == b'.');
            let after_prefix = self.spelling.label_prefixes.iter().any(|p| text[..i].ends_with(p));
            if len == 0 || after_word || after_prefix {
                i += text[i..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
            let name = &text[i..i + len];
            if let Some(binding) = self.lookup(name) {
                out.push_str(&text[copied..i]);
                let at = out.len();
                match &binding.value {
                    Symbol::Number(Value::Float(f)) => out.push_str(&format!("{f:?}")),
                    Symbol::Number(v) => out.push_str(&v.int().unwrap_or(0).to_string()),
                    Symbol::Text(t) => out.push_str(t),
                }
                splices.push(Splice {
                    at,
                    len: out.len() - at,
                    original: i,
                    original_len: len,
                    numeric: false,
                });
                copied = i + len;
            }
            i += len;
        }
        out.push_str(&text[copied..]);
        (out, splices)
    }

    /// The operands of instruction text `text` that only the expansion can evaluate (function
    /// calls, register arithmetic such as `ra0 + 1`): each one's byte range and its value's
    /// text. The rest is left for the second pass. An error in a function is reported.
    fn operand_values(
        &mut self,
        text: &str,
        at: usize,
        line: SourceLine,
        frame: Option<u32>,
    ) -> Vec<(usize, usize, String)> {
        let mut out = Vec::new();
        if self.spelling.label_prefixes.is_empty() {
            return out;
        }
        let mut start = 0;
        for part in text.split(';') {
            let lead = part.len() - part.trim_start().len();
            // The operands follow the mnemonic.
            let Some(gap) = part[lead..].find([' ', '\t']) else {
                start += part.len() + 1;
                continue;
            };
            let ops_at = lead + gap;
            for (s, e) in split_args(&part[ops_at..]) {
                let (s, e) = (start + ops_at + s, start + ops_at + e);
                let operand = &text[s..e];
                let calls = self.calls_function(operand);
                if !calls && !operand.contains(['+', '-', '*', '/', '%', '<', '>', '&', '|', '^', '~', '(']) {
                    continue;
                }
                match self.evaluate_in(operand, &[], 0) {
                    Ok(Term::Name(n)) => out.push((s, e, n.as_str().to_string())),
                    Ok(Term::Value(Value::Int(v))) => out.push((s, e, v.to_string())),
                    Ok(Term::Value(Value::Float(f))) if calls => out.push((s, e, format!("{f:?}"))),
                    Ok(_) => {}
                    Err(err) if calls && !err.undefined && err.message.starts_with("in function") => {
                        self.error(line, frame, at + s + err.pos, err.length, err.message);
                        // Said once: the instruction reads a stand-in.
                        out.push((s, e, "0".into()));
                    }
                    // Not a value as a whole (`r0 << (1 << i)`, a vector rotation): its
                    // parenthesised constants are.
                    Err(_) => out
                        .extend(self.constant_groups(operand).into_iter().map(|(a, b, v)| (s + a, s + b, v))),
                }
            }
            start += part.len() + 1;
        }
        out
    }

    /// The parenthesised groups of `text` (not function arguments) whose value is an
    /// integer now: each one's byte range and value.
    fn constant_groups(&self, text: &str) -> Vec<(usize, usize, String)> {
        let mut out = Vec::new();
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let called = i > 0 && expr::is_name_byte(b[i - 1]);
            if b[i] != b'(' || called {
                i += 1;
                continue;
            }
            let mut depth = 0;
            let close = (i..b.len()).find(|&k| {
                depth += match b[k] {
                    b'(' => 1,
                    b')' => -1,
                    _ => 0,
                };
                depth == 0
            });
            let Some(close) = close else { break };
            if let Ok(Term::Value(Value::Int(v))) = self.evaluate_in(&text[i..=close], &[], 0) {
                out.push((i, close + 1, v.to_string()));
            }
            i = close + 1;
        }
        out
    }

    /// Whether `text` calls a function this program defines.
    fn calls_function(&self, text: &str) -> bool {
        !self.functions.is_empty()
            && text.match_indices('(').any(|(i, _)| {
                let before = &text[..i];
                let name_at = before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_').len();
                self.functions.contains_key(&before[name_at..])
            })
    }
    /// Expands `lines` in `frame`.
    fn block(&mut self, lines: &[SourceLine], frame: Option<u32>) {
        self.block_in(lines, frame, None);
    }

    /// [`Expander::block`], the lines after `lines` read from `more` as they are needed: at
    /// the end of those read, or where a block (`.macro`, `.rep`, ...) opened in them ends
    /// further on. The lines read are let go as the expansion moves past them, and the text
    /// of the pieces they are in with them ([`Expander::release`]).
    fn block_in(&mut self, lines: &[SourceLine], frame: Option<u32>, mut more: Option<&mut Pieces<'_>>) {
        let whole_file = core::mem::take(&mut self.whole_file);
        // Past [`MAX_FRAMES`] no block expands any more (the main file's lines go on).
        if self.exhausted && !whole_file {
            return;
        }
        if self.depth >= MAX_DEPTH {
            if let Some(first) = lines.first() {
                self.error(*first, frame, 0, 0, format!("expansion nested deeper than {MAX_DEPTH} levels"));
            }
            return;
        }
        self.depth += 1;
        let mut conds: Vec<Cond> = Vec::new();
        let mut lines: Cow<'_, [SourceLine]> = Cow::Borrowed(lines);
        let mut i = 0;
        // Reads the next piece into `lines`, letting go of the lines before `i` (but the one
        // being read) and of the pieces nothing points into; false at the end of the source.
        let mut read_more =
            |x: &mut Self, lines: &mut Cow<'_, [SourceLine]>, i: &mut usize, conds: &[Cond]| {
                let Some(pieces) = more.as_deref_mut() else { return false };
                let from = i.saturating_sub(1);
                let window = lines.to_mut();
                window.drain(..from);
                *i -= from;
                let open: Vec<SourceLine> = conds.iter().map(|c| c.at).collect();
                x.release(window, &open);
                let Some(added) = pieces.next(x) else { return false };
                window.extend(added);
                true
            };
        loop {
            if i == lines.len() && !read_more(self, &mut lines, &mut i, &conds) {
                break;
            }
            if i == lines.len() {
                continue;
            }
            if self.out.lines.len() >= GATHER + KEEP {
                self.flush(KEEP);
            }
            let line = lines[i];
            i += 1;
            self.current = Some((line, frame));
            // The line's text in its file's (shared, not copied: nothing is allocated for a
            // line).
            let file = self.out.files.get(line.file as usize).map(|f| f.code.clone());
            let full =
                file.as_deref().and_then(|c| c.get(line.start as usize..line.end as usize)).unwrap_or("");
            let code_end = comment_start(full, self.spelling.comments);
            let code = &full[..code_end];
            let start = code.len() - code.trim_start().len();
            let text = code[start..].trim_end();
            let active = conds.last().is_none_or(|c| c.taken);
            let directive = self.directive(text);
            // Conditionals are read even where lines are skipped, to find their ends.
            match directive {
                Some((d @ (Directive::If | Directive::Ifset), len)) => {
                    let taken = active && self.condition(d, &text[len..], start + len, line, frame);
                    conds.push(Cond {
                        taken,
                        done: taken,
                        outer: active,
                        else_seen: false,
                        at: line,
                        pos: (start, len),
                    });
                    continue;
                }
                Some((d @ (Directive::Elseif | Directive::Else), len)) => {
                    let Some(c) = conds.last() else {
                        self.error(
                            line,
                            frame,
                            start,
                            len,
                            format!("`{}` without an open conditional", &text[..len]),
                        );
                        continue;
                    };
                    if c.else_seen {
                        self.error(
                            line,
                            frame,
                            start,
                            len,
                            format!("`{}` after the conditional's last branch", &text[..len]),
                        );
                        continue;
                    }
                    let (outer, done) = (c.outer, c.done);
                    let taken = outer
                        && !done
                        && (d == Directive::Else
                            || self.condition(Directive::If, &text[len..], start + len, line, frame));
                    if let Some(c) = conds.last_mut() {
                        c.taken = taken;
                        c.done |= taken;
                        c.else_seen = d == Directive::Else;
                    }
                    continue;
                }
                Some((Directive::Endif, len)) => {
                    if conds.pop().is_none() {
                        self.error(
                            line,
                            frame,
                            start,
                            len,
                            format!("`{}` without an open conditional", &text[..len]),
                        );
                    }
                    continue;
                }
                _ => {}
            }
            if !active {
                continue;
            }
            if let Some(section) = self.section_directive(text) {
                self.section = section;
                continue;
            }
            match directive {
                Some((d, len)) if block_end(d).is_some() => {
                    let end = block_end(d).unwrap_or(d);
                    // A block may end in a piece not read yet.
                    let body_end = loop {
                        match self.find_end(&lines, i, d, end) {
                            Some(k) => break Some(k),
                            None if read_more(self, &mut lines, &mut i, &conds) => {}
                            None => break None,
                        }
                    };
                    let Some(body_end) = body_end else {
                        self.error(line, frame, start, len, format!("`{}` without its end", &text[..len]));
                        return self.leave();
                    };
                    let body: Rc<[SourceLine]> = Rc::from(&lines[i..body_end]);
                    i = body_end + 1;
                    let (args, at) = (&text[len..], start + len);
                    match d {
                        Directive::Rep => self.rep(args, at, line, frame, &body),
                        Directive::Foreach => self.foreach(args, at, line, frame, &body),
                        Directive::Macro => {
                            let body = self.own(body);
                            self.define_macro(args, at, line, frame, body)
                        }
                        Directive::Func => {
                            let body = self.own(body);
                            self.define_function(args, at, line, frame, Body::Lines(body))
                        }
                        Directive::Back => self.back(args, at, line, frame, &body),
                        _ => {
                            self.enter_context();
                            self.block(&body, frame);
                            self.leave_context();
                        }
                    }
                }
                Some((d, len)) if Directive::ALL.iter().any(|open| block_end(*open) == Some(d)) => {
                    self.error(line, frame, start, len, format!("`{}` without its start", &text[..len]));
                }
                Some((_, len)) if self.is_raw_word(text, len) => self.statement(code, line, frame),
                Some((d, len)) => self.directive_line(d, text, start, len, line, frame),
                None => self.statement(code, line, frame),
            }
        }
        // An open conditional at the end of a block is an error, as an open `.rep` or
        // `.macro` is (GNU as: "end of file inside conditional"). At the end of a file a
        // dialect may make it a warning (vc4asm's P145): the file is read as if it closed
        // there, and the warning says so, so the lines kept or dropped are not silent.
        for c in conds.iter().rev() {
            let (at, (pos, len)) = (c.at, c.pos);
            let full = self.text(&at);
            let name = full.get(pos..pos + len).unwrap_or("conditional").to_string();
            if whole_file && self.spelling.open_if_warns {
                let message = format!("`{name}` without its end: closed at the end of the file");
                self.out.warnings.push(Located { line: at, frame, pos, length: len, message });
            } else {
                self.error(at, frame, pos, len, format!("`{name}` without its end"));
                break;
            }
        }
        self.leave();
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Where the block opened by `open` before line `from` ends (nested ones skipped).
    fn find_end(
        &self,
        lines: &[SourceLine],
        from: usize,
        open: Directive,
        close: Directive,
    ) -> Option<usize> {
        let mut depth = 0usize;
        for (k, line) in lines.iter().enumerate().skip(from) {
            let full = self.text(line);
            let code = &full[..comment_start(&full, self.spelling.comments)];
            match self.directive(code.trim()) {
                Some((d, _)) if d == open => depth += 1,
                Some((d, _)) if d == close && depth == 0 => return Some(k),
                Some((d, _)) if d == close => depth -= 1,
                _ => {}
            }
        }
        None
    }

    /// The value of an `.if`/`.elseif` expression or an `.ifset` name: `args`, at byte `at` of
    /// the line.
    fn condition(
        &mut self,
        d: Directive,
        args: &str,
        at: usize,
        line: SourceLine,
        frame: Option<u32>,
    ) -> bool {
        let lead = args.len() - args.trim_start().len();
        let arg = args.trim();
        if d == Directive::Ifset {
            if expr::name_len(arg) != arg.len() || arg.is_empty() {
                self.error(line, frame, at + lead, arg.len(), "expected a symbol name".into());
                return false;
            }
            return self.lookup(arg).is_some() || self.macros.contains_key(arg);
        }
        match self.evaluate(arg) {
            Ok(v) => v.truth(),
            Err(e) => {
                self.error(line, frame, at + lead + e.pos, e.length, e.message);
                false
            }
        }
    }

    /// `.rep [NAME,] count` with its body.
    fn rep(&mut self, args: &str, at: usize, line: SourceLine, frame: Option<u32>, body: &Rc<[SourceLine]>) {
        let parts = split_args(args);
        // vc4asm writes `.rep i, 15` and `.rep i 15`: a leading name is the counter.
        let lead = args.len() - args.trim_start().len();
        let first_name = expr::name_len(&args[lead..]);
        let (counter, count_at) = match parts.as_slice() {
            [(s, e), (c, _)] if expr::name_len(&args[*s..*e]) == e - s => (Some(&args[*s..*e]), *c),
            [(s, e)]
                if first_name > 0
                    && first_name < e - s
                    && self.lookup(&args[*s..*s + first_name]).is_none() =>
            {
                (Some(&args[*s..*s + first_name]), *s + first_name)
            }
            [(s, _)] => (None, *s),
            _ => {
                self.error(line, frame, at, args.len(), "expected `[counter,] count`".into());
                return;
            }
        };
        let count_text = args[count_at..].trim();
        let count_at = count_at + (args[count_at..].len() - args[count_at..].trim_start().len());
        let count = match self.evaluate(count_text) {
            Ok(v) => match v.int() {
                Some(n) if n >= 0 => n as u64,
                _ => {
                    self.error(
                        line,
                        frame,
                        at + count_at,
                        count_text.len(),
                        "the count must be an integer ≥ 0".into(),
                    );
                    return;
                }
            },
            Err(e) => return self.error(line, frame, at + count_at + e.pos, e.length, e.message),
        };
        for k in 0..count {
            if let Some(c) = counter {
                self.bind(c, Symbol::Number(Value::Int(k as i64)));
            }
            let f = self.frame(format!("in repetition {k} of the block at"), line, frame);
            if self.exhausted {
                break;
            }
            let errors = self.errors.len();
            self.block(body, f);
            if let Some(c) = counter {
                self.unbind(c);
            }
            // A body that fails once fails every time: stop at the first failing pass.
            if self.errors.len() > errors {
                break;
            }
        }
    }

    /// `.macro NAME[, ARG...]` with its body.
    fn define_macro(
        &mut self,
        args: &str,
        at: usize,
        line: SourceLine,
        frame: Option<u32>,
        body: Rc<[SourceLine]>,
    ) {
        let parts = split_args(args);
        let mut names = Vec::new();
        for (s, e) in &parts {
            let name = &args[*s..*e];
            if expr::name_len(name) != name.len() || name.is_empty() {
                self.error(line, frame, at + s, e - s, "expected a name".into());
                return;
            }
            names.push(name.to_string());
        }
        if names.is_empty() {
            return self.error(line, frame, at, 0, "expected the macro's name".into());
        }
        let name = names.remove(0);
        self.macros.insert(name, Rc::new(MacroDef { params: names, body }));
    }

    /// A directive other than the block ones.
    fn directive_line(
        &mut self,
        d: Directive,
        text: &str,
        start: usize,
        len: usize,
        line: SourceLine,
        frame: Option<u32>,
    ) {
        let args = &text[len..];
        let at = start + len;
        let parts = split_args(args);
        let arg = |k: usize| parts.get(k).map(|&(s, e)| (&args[s..e], at + s));
        match d {
            Directive::Set | Directive::Const | Directive::Lset | Directive::Lconst => {
                // `NAME(ARG, ...) expr`: a function in a line.
                let lead = args.len() - args.trim_start().len();
                let head = expr::name_len(&args[lead..]);
                if head > 0 && args[lead + head..].starts_with('(') {
                    let close = args[lead..].find(')').map_or(args.len(), |c| lead + c + 1);
                    let body = args[close..].trim().to_string();
                    if body.is_empty() {
                        return self.error(
                            line,
                            frame,
                            at,
                            args.len(),
                            "expected the function's value".into(),
                        );
                    }
                    return self.define_function(&args[..close], at, line, frame, Body::Expression(body));
                }
                let (Some((name, name_at)), Some((value, value_at)), 2) = (arg(0), arg(1), parts.len())
                else {
                    return self.error(line, frame, at, args.len(), "expected `NAME, value`".into());
                };
                if expr::name_len(name) != name.len() || name.is_empty() {
                    return self.error(line, frame, name_at, name.len(), "expected a symbol name".into());
                }
                let local = matches!(d, Directive::Lset | Directive::Lconst);
                let context = if local { self.contexts.last().map_or(0, |c| c.0) } else { 0 };
                // A constant is final where it was set; a local context may shadow it.
                if self.lookup(name).is_some_and(|b| b.constant && (!local || b.context == context)) {
                    let message = format!("`{name}` is a constant: it cannot be set again");
                    return self.error(line, frame, name_at, name.len(), message);
                }
                match self.value(value) {
                    Ok(v) => {
                        let constant = matches!(d, Directive::Const | Directive::Lconst);
                        self.assign(name, v, constant, local);
                    }
                    Err(e) => self.error(line, frame, value_at + e.pos, e.length, e.message),
                }
            }
            Directive::Unset => match arg(0) {
                Some((name, _)) if parts.len() == 1 && self.lookup(name).is_some() => self.unbind(name),
                Some((name, name_at)) if parts.len() == 1 => {
                    self.error(line, frame, name_at, name.len(), format!("`{name}` is not set"))
                }
                _ => self.error(line, frame, at, args.len(), "expected a symbol name".into()),
            },
            Directive::Lunset => match arg(0) {
                Some((name, _))
                    if parts.len() == 1
                        && self
                            .lookup(name)
                            .is_some_and(|b| Some(b.context) == self.contexts.last().map(|c| c.0)) =>
                {
                    self.unbind(name)
                }
                Some((name, name_at)) if parts.len() == 1 => self.error(
                    line,
                    frame,
                    name_at,
                    name.len(),
                    format!("`{name}` is not set in this context"),
                ),
                _ => self.error(line, frame, at, args.len(), "expected a symbol name".into()),
            },
            Directive::Assert => {
                let (Some((cond, cond_at)), 1) = (arg(0), parts.len()) else {
                    return self.error(line, frame, at, args.len(), "expected a condition".into());
                };
                match self.evaluate(cond) {
                    Ok(v) if v.truth() => {}
                    Ok(_) => {
                        self.error(line, frame, cond_at, cond.len(), format!("assertion failed: {cond}"))
                    }
                    Err(e) => self.error(line, frame, cond_at + e.pos, e.length, e.message),
                }
            }
            Directive::Include => self.include(args, at, line, frame),
            Directive::Origin => self.origin(args, at, line, frame),
            Directive::Clone => self.clone_instructions(args, at, line, frame),
            // Nothing in a plain binary; a label named must exist by the end (second pass).
            Directive::Global | Directive::Section => {}
            Directive::Align => {
                let (Some((n, n_at)), 1) = (arg(0), parts.len()) else {
                    return self.error(line, frame, at, args.len(), "expected the alignment in bytes".into());
                };
                match self.evaluate(n).map(|v| v.int()) {
                    Ok(Some(0)) => {}
                    Ok(Some(n)) if n > 0 && (n as u64).is_power_of_two() => {
                        // A byte `.bit` values left open is complete.
                        self.bit_offset = 0;
                        let pad = (n as u64 - self.bytes % n as u64) % n as u64;
                        self.pad(pad, n as u64, false, line, frame);
                    }
                    Ok(_) => {
                        self.error(line, frame, n_at, n.len(), "the alignment must be a power of two".into())
                    }
                    Err(e) => self.error(line, frame, n_at + e.pos, e.length, e.message),
                }
            }
            _ => {
                let width = data_width(d);
                if width.is_none() && d != Directive::Bit {
                    return;
                }
                if parts.is_empty() {
                    return self.error(line, frame, at, 0, "expected values".into());
                }
                // Values that evaluate here (user functions, `.func`'s `h32(y)` from vc4.qinc,
                // are known only here) stand as numbers; the others (a label further on) are
                // read in the second pass, and so are values of labels alone, which the second
                // pass knows at their final addresses.
                let mut known = Vec::new();
                for &(s, e) in &parts {
                    let (reads, calls) = (self.labels_read.borrow().len(), self.calls.get());
                    let value = self.evaluate(&args[s..e]);
                    if self.labels_read.borrow().len() > reads && self.calls.get() == calls && value.is_ok() {
                        self.labels_read.borrow_mut().truncate(reads);
                        continue;
                    }
                    match value {
                        Ok(Value::Int(v)) => known.push((s, e, v.to_string())),
                        Ok(Value::Float(f)) => known.push((s, e, format!("{f:?}"))),
                        // Said here, where the functions are known (a failed `.assert`).
                        Err(x) if !x.undefined => {
                            self.error(line, frame, at + s + x.pos, x.length, x.message);
                            known.push((s, e, "0".into()));
                        }
                        _ => {}
                    }
                }
                let (replaced, splices) = self.substitute(args, &known);
                let values = split_args(&replaced);
                let kind = match width {
                    Some(width) => {
                        self.bytes += values.len() as u64 * u64::from(width);
                        self.bit_offset = 0;
                        let float = matches!(d, Directive::Half | Directive::Float | Directive::Double);
                        Kind::Data { width, float, values: values.into(), text: replaced.into() }
                    }
                    None => {
                        // The bits go on in the last byte a `.bit` line left open.
                        let first = self.bit_offset;
                        let end = u64::from(first) + values.len() as u64;
                        let bytes = end.div_ceil(8) - u64::from(first > 0);
                        self.bytes += bytes;
                        self.bit_offset = (end % 8) as u8;
                        Kind::Bits { first, bytes, values: values.into(), text: replaced.into() }
                    }
                };
                self.out.lines.push(Expanded { line, frame, offset: at, splices: splices.into(), kind });
            }
        }
    }

    /// `n` zero bytes up to a multiple of `align`; kept when none are needed, since a layout
    /// with other lengths may need some.
    fn pad(&mut self, n: u64, align: u64, before_code: bool, line: SourceLine, frame: Option<u32>) {
        self.bytes += n;
        self.bit_offset = 0;
        let kind = Kind::Pad { bytes: n, align, before_code };
        self.out.lines.push(Expanded { line, frame, offset: 0, splices: Box::default(), kind });
    }

    /// `.foreach NAME, expr, ...` with its body.
    fn foreach(
        &mut self,
        args: &str,
        at: usize,
        line: SourceLine,
        frame: Option<u32>,
        body: &Rc<[SourceLine]>,
    ) {
        let parts = split_args(args);
        // vc4asm writes `.foreach reg ra0, rb1` too: the name, then the values.
        let lead = args.len() - args.trim_start().len();
        let name_end = lead + expr::name_len(&args[lead..]);
        if name_end == lead {
            return self.error(line, frame, at, args.len(), "expected `NAME, value, ...`".into());
        }
        let name = args[lead..name_end].to_string();
        let values_at = match parts.first() {
            Some(&(s, e)) if e == name_end && s == lead => parts.get(1).map_or(args.len(), |p| p.0),
            _ => name_end,
        };
        let mut values = Vec::new();
        for (s, e) in split_args(&args[values_at..]) {
            match self.value(&args[values_at + s..values_at + e]) {
                Ok(v) => values.push(v),
                Err(err) => {
                    return self.error(line, frame, at + values_at + s + err.pos, err.length, err.message)
                }
            }
        }
        for (k, v) in values.into_iter().enumerate() {
            self.bind(&name, v);
            let f = self.frame(format!("in repetition {k} of the block at"), line, frame);
            if self.exhausted {
                break;
            }
            let errors = self.errors.len();
            self.block(body, f);
            self.unbind(&name);
            if self.errors.len() > errors {
                break;
            }
        }
    }

    /// `NAME(ARG, ...)` of a function definition (`args`, at byte `at`), with its body.
    fn define_function(&mut self, args: &str, at: usize, line: SourceLine, frame: Option<u32>, body: Body) {
        let lead = args.len() - args.trim_start().len();
        let head = expr::name_len(&args[lead..]);
        let open = lead + head;
        let params_text = args[open..].trim_end();
        let inner = params_text.strip_prefix('(').and_then(|p| p.strip_suffix(')'));
        let (Some(inner), true) = (inner, head > 0) else {
            return self.error(line, frame, at + lead, args.trim().len(), "expected `NAME(ARG, ...)`".into());
        };
        let mut params = Vec::new();
        for (s, e) in split_args(inner) {
            let p = &inner[s..e];
            if expr::name_len(p) != p.len() || p.is_empty() {
                return self.error(line, frame, at + open + 1 + s, e - s, "expected a parameter name".into());
            }
            params.push(p.to_string());
        }
        self.functions.insert(args[lead..open].to_string(), Rc::new(Function { params, body }));
    }

    /// `.back count` with its body: the body's instructions go before the last `count`
    /// instructions (vc4asm allows up to 5, the delay slots of a branch and a little more).
    fn back(&mut self, args: &str, at: usize, line: SourceLine, frame: Option<u32>, body: &Rc<[SourceLine]>) {
        let count = match self.evaluate(args.trim()).map(|v| v.int()) {
            Ok(Some(n)) if (0..=5).contains(&n) => n as usize,
            Ok(_) => {
                return self.error(line, frame, at, args.len(), "the count must be an integer 0 to 5".into())
            }
            Err(e) => {
                let lead = args.len() - args.trim_start().len();
                return self.error(line, frame, at + lead + e.pos, e.length, e.message);
            }
        };
        if self.layout.scheduled.is_some() {
            let message = "instructions cannot move on a target with control words".into();
            return self.error(line, frame, at, args.len(), message);
        }
        // Where the last `count` instructions start: no data among them.
        let mut from = self.out.lines.len();
        let mut found = 0;
        while found < count {
            match self.out.lines[..from].last().map(|l| &l.kind) {
                Some(Kind::Code(_)) => found += 1,
                Some(_) | None => {
                    let message = format!("there are no {count} instructions right before to go back over");
                    return self.error(line, frame, at, args.len(), message);
                }
            }
            from -= 1;
        }
        let (mark, bytes, labels) = (self.out.lines.len(), self.bytes, self.defined.len());
        let back_bytes = count as u64 * self.layout.word_bytes;
        self.moving += 1;
        self.block(body, frame);
        self.moving -= 1;
        let moved: Vec<Expanded> = self.out.lines.drain(mark..).collect();
        if moved.iter().any(|l| !matches!(l.kind, Kind::Code(_))) {
            let message = "only instructions can move back".into();
            return self.error(line, frame, at, args.len(), message);
        }
        let moved_bytes = self.bytes - bytes;
        self.out.lines.splice(from..from, moved);
        // Labels after the first instruction gone over move on (one before it now labels the
        // moved code, as in vc4asm); labels of the body move back.
        let start = bytes - back_bytes;
        for (k, name) in self.defined.iter().enumerate() {
            if let Some(a) = self.out.labels.get_mut(name) {
                if k < labels && *a > start && *a <= bytes {
                    *a += moved_bytes;
                } else if k >= labels {
                    *a -= back_bytes;
                }
            }
        }
    }

    /// `.clone label, count`: placeholders for `count` instructions, filled in from the
    /// label's once the whole program is read.
    fn clone_instructions(&mut self, args: &str, at: usize, line: SourceLine, frame: Option<u32>) {
        let parts = split_args(args);
        let [(ls, le), (cs, ce)] = parts.as_slice() else {
            return self.error(line, frame, at, args.len(), "expected `label, count`".into());
        };
        let count = match self.evaluate(&args[*cs..*ce]).map(|v| v.int()) {
            Ok(Some(n)) if n >= 0 => n as usize,
            Ok(_) => {
                return self.error(line, frame, at + cs, ce - cs, "the count must be an integer ≥ 0".into())
            }
            Err(e) => return self.error(line, frame, at + cs + e.pos, e.length, e.message),
        };
        // The label: written with its prefix, or a symbol holding such a reference.
        let (text, _) = self.substitute(&args[*ls..*le], &[]);
        let text = text.trim();
        let prefix = self.spelling.label_prefix(text);
        let name = prefix.map_or(text, |p| &text[p.len()..]);
        let len = if prefix.is_some() { expr::label_name_len(name) } else { expr::name_len(name) };
        if len != name.len() || name.is_empty() {
            return self.error(line, frame, at + ls, le - ls, "expected a label".into());
        }
        self.clones.push((self.out.lines.len(), name.to_string(), count));
        self.cloned = true;
        self.bit_offset = 0;
        for _ in 0..count {
            self.bytes += self.layout.word_bytes;
            self.out.lines.push(Expanded {
                line,
                frame,
                offset: at + ls,
                splices: Box::default(),
                kind: Kind::Code(String::new()),
            });
        }
    }

    /// Fills every `.clone`'s placeholders with the instructions at its label.
    fn fill_clones(&mut self) {
        if self.clones.is_empty() {
            return;
        }
        let origins = self.out.origin_lines();
        // The address of every line (an origin's shift added: a label's address is so).
        let mut addresses = Vec::with_capacity(self.out.lines.len());
        let (mut address, mut shift) = (0u64, 0u64);
        for l in &self.out.lines {
            if let Kind::Origin(s) = l.kind {
                shift = s;
            }
            addresses.push(address.wrapping_add(shift));
            address += match &l.kind {
                Kind::Code(_) => self.layout.word_bytes,
                Kind::Entry { .. } | Kind::Origin(_) | Kind::Control(_) => 0,
                Kind::Zeros(n) | Kind::Pad { bytes: n, .. } => *n,
                Kind::Data { width, values, .. } => u64::from(*width) * values.len() as u64,
                Kind::Bits { bytes, .. } => *bytes,
            };
        }
        for (at, name, count) in core::mem::take(&mut self.clones) {
            let Some(&target) = self.out.labels.get(&name) else {
                let l = &self.out.lines[at];
                let message = format!("undefined label `{name}`");
                self.error(l.line, l.frame, l.offset, name.len(), message);
                // Said once: the placeholders stay empty words.
                for l in &mut self.out.lines[at..at + count] {
                    l.kind = Kind::Zeros(self.layout.word_bytes);
                }
                continue;
            };
            // An origin may go back: the label's lines are among those after its origin.
            let first = self.out.label_line(&name, target, &addresses, &origins);
            for k in 0..count {
                let source = self.out.lines.get(first + k).filter(|l| matches!(l.kind, Kind::Code(_)));
                let Some(source) = source else {
                    let l = &self.out.lines[at];
                    let message = format!("there are no {count} instructions at `{name}` to clone");
                    self.error(l.line, l.frame, l.offset, name.len(), message);
                    for l in &mut self.out.lines[at + k..at + count] {
                        l.kind = Kind::Zeros(self.layout.word_bytes);
                    }
                    break;
                };
                let copy = Expanded {
                    line: source.line,
                    frame: source.frame,
                    offset: source.offset,
                    splices: source.splices.clone(),
                    kind: match &source.kind {
                        Kind::Code(t) => Kind::Code(t.clone()),
                        _ => Kind::Zeros(0),
                    },
                };
                self.out.lines[at + k] = copy;
            }
        }
    }

    /// `.include "file"` or `.include <file>`.
    fn include(&mut self, args: &str, at: usize, line: SourceLine, frame: Option<u32>) {
        let arg = args.trim();
        let arg_at = at + (args.len() - args.trim_start().len());
        let (name, system) = if let Some(n) = arg.strip_prefix('"').and_then(|a| a.strip_suffix('"')) {
            (n, false)
        } else if let Some(n) = arg.strip_prefix('<').and_then(|a| a.strip_suffix('>')) {
            (n, true)
        } else {
            return self.error(line, frame, arg_at, arg.len(), "expected `\"file\"` or `<file>`".into());
        };
        let from = self.out.files.get(line.file as usize).map(|f| f.name.clone());
        let from = from.as_deref().filter(|_| line.file != 0);
        match self.includer.load(name, system, from) {
            Ok((shown, text)) => {
                let lines = self.add_file(shown, Rc::from(text));
                let f = self.frame("in the file included from".into(), line, frame);
                self.enter_context();
                self.whole_file = true;
                self.block(&lines, f);
                self.leave_context();
            }
            Err(message) => self.error(line, frame, arg_at, arg.len(), message),
        }
    }

    /// Whether `text` is a section directive: `Some(None)` for the code section's,
    /// `Some(Some(k))` for data section `k`'s.
    fn section_directive(&self, text: &str) -> Option<Option<u32>> {
        let same = |d: &str| {
            if self.spelling.ignore_case {
                d.eq_ignore_ascii_case(text)
            } else {
                d == text
            }
        };
        if self.spelling.code_section.is_some_and(same) {
            return Some(None);
        }
        self.spelling.data_sections.iter().position(|d| same(d)).map(|k| Some(k as u32))
    }

    /// A line that is no directive: labels, then an instruction or a macro call; in a data
    /// section, a macro call or a table entry.
    fn statement(&mut self, code: &str, line: SourceLine, frame: Option<u32>) {
        if let Some(section) = self.section {
            let at = code.len() - code.trim_start().len();
            let text = code[at..].trim_end();
            let head = expr::name_len(text);
            if let Some(m) = self.macros.get(&text[..head]).cloned().filter(|_| head > 0) {
                if text[head..].is_empty() || text[head..].starts_with([' ', '\t']) {
                    return self.call(&m, &text[..head], &text[head..], at + head, line, frame);
                }
            }
            // A quoted name is kept as written: no symbol is replaced inside quotes.
            let mut quoted = Vec::new();
            let mut open = None;
            for (i, c) in text.char_indices().filter(|(_, c)| *c == '"') {
                match open.take() {
                    Some(start) => quoted.push((start, i + c.len_utf8(), text[start..=i].to_string())),
                    None => open = Some(i),
                }
            }
            let (replaced, mut splices) = self.substitute(text, &quoted);
            splices.retain(|s| !quoted.iter().any(|q| q.0 == s.original));
            self.out.lines.push(Expanded {
                line,
                frame,
                offset: at,
                splices: splices.into(),
                kind: Kind::Entry { section, text: replaced },
            });
            return;
        }
        let mut rest_at = code.len() - code.trim_start().len();
        // Labels: `:name` (the dialect's prefix) or `name:`, several on one line.
        while self.spelling.labels {
            let rest = &code[rest_at..];
            // The prefix alone before a blank (vc4asm's `:       bra -, ra_link`) names no
            // label: vc4asm's Parser::parseLabel only marks the instruction a branch target.
            let anonymous = self.spelling.label_prefixes.first().and_then(|p| rest.strip_prefix(p));
            if let Some(after) = anonymous.filter(|a| a.starts_with([' ', '\t'])) {
                rest_at += rest.len() - after.trim_start().len();
                continue;
            }
            let prefixed = self.spelling.label_prefixes.first().and_then(|p| {
                // `::name` marks a global label (vc4asm); it is a label all the same.
                let skip =
                    if rest.starts_with(p) && rest[p.len()..].starts_with(p) { 2 * p.len() } else { p.len() };
                let after = rest.strip_prefix(p).map(|_| &rest[skip.min(rest.len())..])?;
                // `:1`: a numeric label, defined as often as wanted; `:0_pass` a name.
                let digits = after.bytes().take_while(u8::is_ascii_digit).count();
                let len =
                    if digits > 0 && after[digits..].bytes().next().is_none_or(|c| !expr::is_name_byte(c)) {
                        digits
                    } else {
                        expr::label_name_len(after)
                    };
                (len > 0).then_some((skip, len, skip + len))
            });
            let suffixed = || {
                let len = label_len(rest);
                (len > 0 && rest[len..].starts_with(':') && !rest[len..].starts_with("::")).then_some((
                    0,
                    len,
                    len + 1,
                ))
            };
            let Some((skip, len, used)) = prefixed.or_else(suffixed) else { break };
            let mut name = rest[skip..skip + len].to_string();
            if name.starts_with(|c: char| c.is_ascii_digit()) {
                let count = self.numeric_labels.entry(name.clone()).or_insert(0);
                name = numeric_label(&name, *count);
                *count += 1;
            }
            let address = self.address();
            if self.out.labels.insert(name.clone(), address).is_some() {
                self.error(line, frame, rest_at + skip, len, format!("label `{name}` defined twice"));
            }
            if self.origins > 0 {
                self.out.label_origins.insert(name.clone(), self.origins);
            }
            self.defined.push(name);
            let after = &rest[used..];
            rest_at += used + (after.len() - after.trim_start().len());
        }
        let text = code[rest_at..].trim_end();
        if text.is_empty() {
            return;
        }
        // A group's control word as it is: no bytes of its own.
        if let Some(control) = self.spelling.control {
            let head = &text[..text.find([' ', '\t']).unwrap_or(text.len())];
            if head == control || self.spelling.ignore_case && head.eq_ignore_ascii_case(control) {
                let kind = Kind::Control(text.to_string());
                self.out.lines.push(Expanded { line, frame, offset: rest_at, splices: Box::default(), kind });
                return;
            }
        }
        // Data after labels (GPU_FFT's `:0_tw .int 4`): the label is the data's address.
        if let Some((d, len)) = self.directive(text) {
            use Directive::{Align, Bit, Byte, Double, Float, Half, Int, Long, Short};
            let data = matches!(d, Byte | Short | Int | Long | Float | Half | Double | Bit | Align);
            if data && !self.is_raw_word(text, len) {
                return self.directive_line(d, text, rest_at, len, line, frame);
            }
        }
        // A macro call: the macro's name, then its arguments.
        let head = expr::name_len(text);
        if head > 0 && !self.macros.is_empty() {
            let name = &text[..head];
            if let Some(m) = self.macros.get(name).cloned() {
                if text[head..].is_empty() || text[head..].starts_with([' ', '\t']) {
                    return self.call(&m, name, &text[head..], rest_at + head, line, frame);
                }
            }
        }
        // An instruction: on a word boundary after data.
        let align = self.layout.code_align.max(1);
        let pad = (align - self.bytes % align) % align;
        // Table entries are no data here, nor origins: they take no bytes.
        let after_data = self
            .out
            .lines
            .iter()
            .rev()
            .find(|l| !matches!(l.kind, Kind::Entry { .. } | Kind::Origin(_) | Kind::Control(_)))
            .is_some_and(|l| !matches!(l.kind, Kind::Code(_)));
        if after_data {
            // Where every instruction is a word, as vc4asm warns (P240): a label before the
            // zeros stays at the data's end, not at the instruction.
            if pad > 0 && align == self.layout.word_bytes {
                let message = alloc::format!(
                    "{pad} bytes of zeros align this instruction after data; a label before them \
                     is the data's end"
                );
                let length = text.trim_end().len();
                self.out.warnings.push(Located { line, frame, pos: rest_at, length, message });
            }
            self.pad(pad, align, true, line, frame);
        }
        let fixed = self.operand_values(text, rest_at, line, frame);
        let (replaced, splices) = self.substitute(text, &fixed);
        self.bytes += self.layout.word_bytes;
        self.bit_offset = 0;
        self.out.lines.push(Expanded {
            line,
            frame,
            offset: rest_at,
            splices: splices.into(),
            kind: Kind::Code(replaced),
        });
    }

    /// The address of what comes next.
    fn address(&self) -> u64 {
        match self.layout.scheduled {
            // Data takes whole instruction slots, as a raw word does: the slot it is in and
            // the bytes into it.
            Some(address) => {
                let word = self.layout.word_bytes.max(1);
                (address((self.bytes / word) as usize) + self.bytes % word).wrapping_add(self.origin)
            }
            None => self.bytes.wrapping_add(self.origin),
        }
    }

    /// `origin address`: what follows is addressed from `address`, the words staying where
    /// they are. The step from the address laid out must keep each word's place: a whole
    /// number of groups (a control word and its slots) on a target with control words, of
    /// the instructions' alignment elsewhere.
    fn origin(&mut self, args: &str, at: usize, line: SourceLine, frame: Option<u32>) {
        let parts = split_args(args);
        let [(s, e)] = parts.as_slice() else {
            return self.error(line, frame, at, args.len(), "expected the address of what follows".into());
        };
        let (text, at) = (&args[*s..*e], at + s);
        let address = match self.evaluate(text) {
            Ok(Value::Int(v)) if v >= 0 => v as u64,
            Ok(Value::Int(v)) => {
                let message = format!("an address is not negative: {v}");
                return self.error(line, frame, at, text.len(), message);
            }
            Ok(_) => {
                let message = "an origin is an integer: the address of what follows".into();
                return self.error(line, frame, at, text.len(), message);
            }
            Err(e) => return self.error(line, frame, at + e.pos, e.length, e.message),
        };
        let laid = self.address().wrapping_sub(self.origin);
        let (unit, what) = match self.layout.scheduled {
            Some(slot) => {
                // A group's bytes: from slot 0 to the first slot after a control word.
                let word = self.layout.word_bytes.max(1);
                let next = (1..=256).find(|&k| slot(k) - slot(k - 1) > word).unwrap_or(1);
                (slot(next) - slot(0), "a control word and its instructions")
            }
            None => (self.layout.code_align.max(1), "the instructions' alignment"),
        };
        let step = i128::from(address) - i128::from(laid);
        if step.rem_euclid(i128::from(unit)) != 0 {
            let message = format!(
                "what follows is laid out at {laid:#x}, and {address:#x} is not a whole number of \
                 {unit} bytes ({what}) from there: its words would not stand where their addresses say"
            );
            return self.error(line, frame, at, text.len(), message);
        }
        let shift = address.wrapping_sub(laid);
        self.origin = shift;
        self.origins += 1;
        let kind = Kind::Origin(shift);
        self.out.lines.push(Expanded { line, frame, offset: at, splices: Box::default(), kind });
    }

    /// Expands macro `m` called with `args` (at byte `at` of the line).
    fn call(
        &mut self,
        m: &MacroDef,
        name: &str,
        args: &str,
        at: usize,
        line: SourceLine,
        frame: Option<u32>,
    ) {
        let parts = split_args(args);
        if parts.len() != m.params.len() {
            let message = format!(
                "macro `{name}` takes {} argument{}, found {}",
                m.params.len(),
                if m.params.len() == 1 { "" } else { "s" },
                parts.len()
            );
            return self.error(line, frame, at - name.len(), name.len(), message);
        }
        let mut values = Vec::new();
        for (s, e) in &parts {
            match self.value(&args[*s..*e]) {
                Ok(v) => values.push(v),
                Err(err) => return self.error(line, frame, at + s + err.pos, err.length, err.message),
            }
        }
        for (p, v) in m.params.iter().zip(values) {
            self.bind(p, v);
        }
        let what = format!("in macro `{name}` called from");
        let f = self.frame(what, line, frame);
        self.enter_context();
        self.block(&m.body.clone(), f);
        self.leave_context();
        for p in &m.params {
            self.unbind(p);
        }
    }
}

/// The directive ending a block directive's body.
fn block_end(open: Directive) -> Option<Directive> {
    match open {
        Directive::Rep => Some(Directive::Endr),
        Directive::Foreach => Some(Directive::Endfor),
        Directive::Macro => Some(Directive::Endm),
        Directive::Func => Some(Directive::Endf),
        Directive::Local => Some(Directive::Endloc),
        Directive::Back => Some(Directive::Endb),
        _ => None,
    }
}

/// The label name standing for definition `k` (from 0) of label `n`, a name starting with a
/// digit: a numeric label (`:1`) or a name like GPU_FFT's `:0_pass`, defined in each
/// repetition of a block. vc4asm 0.3 (src/Parser.cpp, `defineLabel`) lets every label whose
/// name starts with a digit be defined again; a reference means the last definition, or the
/// next one before the first. A source writing such a name itself gets "defined twice",
/// never a silently different address.
fn numeric_label(n: &str, k: u32) -> String {
    format!("_{n}_{k}")
}

/// The length of a `name:` label's name at the start of `s` (the assembler's plain labels).
fn label_len(s: &str) -> usize {
    let starts = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '.');
    if !starts {
        return 0;
    }
    s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')).unwrap_or(s.len())
}

#[cfg(test)]
mod tests {
    use super::{
        expand, split_args, Directive, Handed, Kind, Layout, NoIncludes, Program, Source, Spelling, Text,
    };
    use alloc::rc::Rc;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    #[test]
    fn a_comment_starts_at_its_first_marker_outside_a_closed_quote() {
        use super::comment_start;
        let long = "[B------:R-:W-:Y:S00]  @P0 FADD R0, R1, R2 ; // the sum";
        assert_eq!(comment_start(long, &["//"]), long.find("//").unwrap());
        assert_eq!(comment_start("FADD R0, R1, R2 ;", &["//"]), 17);
        // A marker's first byte alone, and bytes past the eighth.
        assert_eq!(comment_start("a / b / c / d / e // f", &["//"]), 18);
        assert_eq!(comment_start(".include \"a//b\" // c", &["//"]), 16);
        // A quote that no other closes opens no string.
        assert_eq!(comment_start("x \" y // z", &["//"]), 6);
        assert_eq!(comment_start("mov r0, 1 # one", &["#", ";"]), 10);
        assert_eq!(comment_start("mov r0, 1 ; one # two", &["#", ";"]), 10);
    }

    #[test]
    fn line_starts_are_after_each_line_end() {
        let text = "a\n".repeat(40) + "\n\nlast line without an end";
        let mut starts = Vec::new();
        super::push_line_starts(&text, &mut starts);
        let expected: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
        assert_eq!(starts, expected);
    }

    /// vc4asm's comments and label prefixes, no directives.
    fn vc4asm_labels() -> Spelling<'static> {
        Spelling {
            comments: &["#"],
            directives: &[],
            label_prefixes: &[":", "r:"],
            ignore_case: false,
            labels: true,
            raw: None,
            code_section: None,
            data_sections: &[],
            statements: None,
            open_if_warns: false,
            control: None,
        }
    }

    /// `source` expanded with vc4asm's label prefixes and 8-byte instructions, no directives.
    fn expand_vc4asm_labels(source: &str) -> Program {
        let spelling = vc4asm_labels();
        let layout = Layout { word_bytes: 8, code_align: 8, scheduled: None };
        let (program, errors) = expand("t.qasm", source, &spelling, &layout, &mut NoIncludes);
        let messages: Vec<_> = errors.iter().map(|e| e.message.as_str()).collect();
        assert!(messages.is_empty(), "{messages:?}");
        program
    }

    fn code(program: &Program) -> Vec<&str> {
        let mut code = Vec::new();
        for line in &program.lines {
            if let Kind::Code(c) = &line.kind {
                code.push(c.as_str());
            }
        }
        code
    }

    /// `origin`: what follows is addressed from its value, the words staying where they are.
    /// On a target with a control word before every three 8-byte instructions (Maxwell's
    /// layout: instruction k at word k / 3 * 4 + 1 + k % 3), `.origin 0x1008` puts the next
    /// instruction, laid out at 0x8, at 0x1008: a label there is 0x1008, one after three more
    /// instructions 0x1028 (the control word at 0x1020 skipped), and an origin may go back (a
    /// listing of several functions starts each at 0; here after two groups). A step that is not a whole number of
    /// 32-byte groups, a negative, a float, a name nothing defines yet, a value past 64 bits and
    /// a missing address are errors at the operand.
    #[test]
    fn an_origin_addresses_what_follows() {
        let directives = [(".org", Directive::Origin)];
        let spelling = Spelling { directives: &directives, label_prefixes: &[], ..vc4asm_labels() };
        let slot = |k: usize| (k / 3 * 4 + 1 + k % 3) as u64 * 8;
        let layout = Layout { word_bytes: 8, code_align: 8, scheduled: Some(&slot) };
        let run = |source: &str| {
            let (p, errors) = expand("t.s", source, &spelling, &layout, &mut NoIncludes);
            let errors: Vec<_> = errors.iter().map(|e| (e.line.number, e.pos, e.message.clone())).collect();
            let labels: Vec<_> = p.labels.iter().map(|(n, a)| (n.clone(), *a)).collect();
            (labels, errors)
        };
        let (labels, errors) = run(".org 0x1008\na: nop\nnop\nnop\nb: nop\nnop\nnop\n.org 0x8\nc: nop\n");
        assert_eq!(errors, []);
        assert_eq!(labels, [("a".into(), 0x1008), ("b".into(), 0x1028), ("c".into(), 0x8)]);
        // Laid out at 0x30 (the fifth instruction): 0x18 is 24 bytes back from there.
        let (_, errors) = run("nop\nnop\nnop\nnop\n.org 0x18\n.org 0x50\n");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!((errors[0].0, errors[0].1), (5, 5));
        assert!(errors[0].2.contains("laid out at 0x30") && errors[0].2.contains("32 bytes"), "{errors:?}");
        let bad = [".org -8", ".org 1.5", ".org later", ".org 0x10000000000000000", ".org", ".org 8, 16"];
        for source in bad {
            let (_, errors) = run(source);
            assert_eq!(errors.len(), 1, "{source}: {errors:?}");
        }
        let (_, errors) = run(".org -8\n");
        assert_eq!(errors[0].2, "an address is not negative: -8");
    }

    #[test]
    fn a_label_may_start_with_a_digit_beside_numeric_labels() {
        // vc4asm's GPU_FFT (test/gpu_fft_256_new.qasm) defines `:0_pass` in each repetition of
        // a block; vc4asm's src/Parser.cpp lets a label starting with a digit be defined again
        // (like `:1`), a reference naming the last definition, or the next before the first.
        let p = expand_vc4asm_labels(
            "brr -, r:0_pass\n:1\n:0_pass nop\nbrr -, r:1b\n:1\nbrr -, r:0_pass\nbrr -, r:1f\n:1\n::2_end nop\n\
             :0_pass nop\nbrr -, r:0_pass\n",
        );
        let labels: Vec<_> = p.labels.iter().map(|(n, a)| (n.as_str(), *a)).collect();
        // Instructions at 0, 8, ... 56; the second `:1` stands before the one at 24.
        assert_eq!(
            labels,
            [("_0_pass_0", 8), ("_0_pass_1", 48), ("_1_0", 8), ("_1_1", 24), ("_1_2", 40), ("_2_end_0", 40)]
        );
        // The references name the definition they mean.
        assert_eq!(
            code(&p),
            [
                "brr -, r:_0_pass_0",
                "nop",
                "brr -, r:_1_0",
                "brr -, r:_0_pass_0",
                "brr -, r:_1_2",
                "nop",
                "nop",
                "brr -, r:_0_pass_1"
            ]
        );
    }

    #[test]
    fn streaming_hands_the_lines_over_as_they_come() {
        // 5,000 instructions with labels both ways: handed over in batches of at most
        // GATHER + KEEP lines, in order, each once; the labels are those `expand` finds, and
        // the program returned keeps no line.
        let mut source = alloc::string::String::from("brr -, r:end\n");
        for k in 0..5000 {
            source.push_str(&alloc::format!(":l{k}\nnop\n"));
        }
        source.push_str(":end\nbrr -, r:l0\n");
        let whole = expand_vc4asm_labels(&source);
        let spelling = vc4asm_labels();
        let layout = Layout { word_bytes: 8, code_align: 8, scheduled: None };
        let mut batches = Vec::new();
        let mut code = Vec::new();
        let mut errors = 0;
        let streamed = super::expand_streaming(
            "t.qasm",
            &mut Text::new(&source),
            &spelling,
            &layout,
            &mut NoIncludes,
            &mut |_, handed| match handed {
                Handed::Lines(lines) => {
                    batches.push(lines.len());
                    for l in lines {
                        if let Kind::Code(c) = l.kind {
                            code.push(c);
                        }
                    }
                }
                Handed::Error(_) | Handed::Warning(_) => errors += 1,
            },
        );
        let program = streamed.expect("no `.clone`: streamed");
        assert!(errors == 0 && program.lines.is_empty());
        assert_eq!(program.labels, whole.labels);
        assert_eq!(code, self::code(&whole));
        assert_eq!(code.len(), 5002);
        assert!(
            batches.len() >= 4 && batches.iter().all(|&n| n <= super::GATHER + super::KEEP),
            "{batches:?}"
        );
    }

    /// A source in pieces that counts how many were read.
    struct Counted {
        pieces: Vec<String>,
        next: usize,
        read: Rc<core::cell::Cell<usize>>,
    }

    impl Source for Counted {
        fn rewind(&mut self) {
            self.next = 0;
        }
        fn piece(&mut self) -> Option<String> {
            let piece = self.pieces.get(self.next)?.clone();
            self.next += 1;
            self.read.set(self.next);
            Some(piece)
        }
    }

    /// grate's spelling: `;` ends a statement, `/* */` comments anywhere, sections.
    fn grate_dialect() -> crate::target::Dialect {
        crate::target::Dialect {
            name: "grate",
            comments: &["//"],
            block_comments: &[("/*", "*/")],
            ignore_case: true,
            raw: None,
            end: None,
            float_bits: false,
            open_if_warns: false,
            separator: Some(";"),
            code_section: Some(".asm"),
            data_sections: &[".constants"],
            directives: &[(".rep", Directive::Rep), (".endr", Directive::Endr)],
            label_prefixes: &[],
            listing: None,
        }
    }

    /// Past `MAX_FRAMES` repetitions and macro calls the expansion stops with one error at the
    /// directive: before, `.rep 99999999999999` (and a macro calling itself twice, 2^64 calls
    /// within the depth limit) kept a frame per repetition until memory ran out.
    #[test]
    fn a_huge_expansion_is_an_error_not_out_of_memory() {
        let spelling = Spelling {
            directives: &[
                (".rep", Directive::Rep),
                (".endr", Directive::Endr),
                (".macro", Directive::Macro),
                (".endm", Directive::Endm),
            ],
            ..vc4asm_labels()
        };
        let layout = Layout { word_bytes: 8, code_align: 8, scheduled: None };
        let message = alloc::format!(
            "the program expands more than {} repetitions, macro calls and inclusions",
            super::MAX_FRAMES
        );
        for source in ["nop\n.rep 99999999999999\nnop\n.endr\nnop\n", ".macro m\nm\nm\n.endm\nm\n"] {
            let (program, errors) = expand("t.qasm", source, &spelling, &layout, &mut NoIncludes);
            let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
            assert!(
                messages.contains(&message.as_str()),
                "{source}: {:?}",
                &messages[..messages.len().min(3)]
            );
            assert!(program.frames.len() <= super::MAX_FRAMES);
        }
        // Below it a repetition expands every time.
        let (program, errors) =
            expand("t.qasm", ".rep 1000\nnop\n.endr\n", &spelling, &layout, &mut NoIncludes);
        assert!(errors.is_empty());
        assert_eq!(code(&program).len(), 1000);
    }

    #[test]
    fn a_block_comment_over_many_pieces_is_split_in_linear_time() {
        // A block comment of 400 pieces between two statements: it is held until it ends, and
        // the text handed to the splitter adds up to a few times the source, not to the square
        // of its pieces (each piece added and the whole held text split again: 200 times).
        let dialect = grate_dialect();
        let comment_line = "   a comment line; with a separator and \" a quote\n";
        let mut pieces = alloc::vec![String::from("MOV r1, r2 ;\n/*\n")];
        pieces.extend((0..400).map(|_| comment_line.repeat(20)));
        pieces.push(String::from("*/\nADD r3, r4, r5 ;\n"));
        let whole: usize = pieces.iter().map(String::len).sum();
        let split_bytes = core::cell::Cell::new(0usize);
        let split = |text: &str, in_data: bool, more: bool| {
            split_bytes.set(split_bytes.get() + text.len());
            crate::target::split_statements(text, &dialect, in_data, more)
        };
        let spelling = Spelling::of(&dialect, true, Some(&split));
        let layout = Layout { word_bytes: 8, code_align: 8, scheduled: None };
        let mut source = Counted { pieces, next: 0, read: Rc::new(core::cell::Cell::new(0)) };
        let mut got: Vec<(String, u32)> = Vec::new();
        super::expand_streaming("t.s", &mut source, &spelling, &layout, &mut NoIncludes, &mut |_, h| {
            if let Handed::Lines(lines) = h {
                got.extend(lines.into_iter().filter_map(|l| match l.kind {
                    Kind::Code(c) => Some((c, l.line.number)),
                    _ => None,
                }));
            }
        })
        .expect("streamed");
        let got: Vec<(&str, u32)> = got.iter().map(|(c, n)| (c.trim(), *n)).collect();
        assert_eq!(got, [("MOV r1, r2", 1), ("ADD r3, r4, r5", 2 + 400 * 20 + 2)]);
        assert!(split_bytes.get() <= 4 * whole, "{} bytes split for {whole}", split_bytes.get());
    }

    #[test]
    fn statements_spanning_lines_are_read_a_piece_at_a_time() {
        // grate's spelling (`;` ends a statement, `/* */` comments anywhere, sections) in 56
        // pieces of 30 lines cut anywhere: inside statements, inside block comments (one
        // holding `;` and a quote that closes nowhere), inside a data section, a statement
        // spanning three pieces. The statements come as `expand` makes them from the whole
        // text, at the same lines, and at most two pieces are held at the end.
        let dialect = grate_dialect();
        let mut lines: Vec<String> = Vec::new();
        for k in 0..1000 {
            match k % 5 {
                0 => lines.extend(["/* a comment;".into(), " with \" a quote */".into()]),
                1 => lines.push(alloc::format!("MOV r{k},")),
                2 => lines.push(alloc::format!("  r{} ; ADD r1, r2, r3 ; SUB", k + 1)),
                3 => lines.extend([alloc::format!("  r{k}, r1"), "// a line comment".into(), ";".into()]),
                _ => lines.push(alloc::format!("l{k}: NOP /* c */ ;")),
            }
            if k == 100 {
                lines.extend([
                    ".constants".into(),
                    "[1] =".into(),
                    "2;".into(),
                    "[3] = 4;".into(),
                    ".asm".into(),
                ]);
            }
            if k == 200 {
                lines.push("LONG a,".into());
                lines.extend((0..70).map(|j| alloc::format!("  b{j},")));
                lines.push("  c;".into());
            }
        }
        let pieces: Vec<String> = lines.chunks(30).map(|c| c.join("\n") + "\n").collect();
        let whole: String = pieces.concat();
        let split = |text: &str, in_data: bool, more: bool| {
            crate::target::split_statements(text, &dialect, in_data, more)
        };
        let spelling = Spelling::of(&dialect, true, Some(&split));
        let layout = Layout { word_bytes: 8, code_align: 8, scheduled: None };
        let (expected, errors) = expand("t.s", &whole, &spelling, &layout, &mut NoIncludes);
        assert!(errors.is_empty());
        let read = Rc::new(core::cell::Cell::new(0));
        let n = pieces.len();
        let mut source = Counted { pieces, next: 0, read };
        let mut got: Vec<(String, u32)> = Vec::new();
        let program =
            super::expand_streaming("t.s", &mut source, &spelling, &layout, &mut NoIncludes, &mut |_, h| {
                if let Handed::Lines(lines) = h {
                    got.extend(lines.into_iter().filter_map(|l| match l.kind {
                        Kind::Code(c) | Kind::Entry { text: c, .. } => Some((c, l.line.number)),
                        _ => None,
                    }));
                }
            })
            .expect("streamed");
        let want: Vec<(String, u32)> = expected
            .lines
            .iter()
            .filter_map(|l| match &l.kind {
                Kind::Code(c) | Kind::Entry { text: c, .. } => Some((c.clone(), l.line.number)),
                _ => None,
            })
            .collect();
        assert!(n >= 40 && want.len() > 700, "{n} pieces, {} statements", want.len());
        assert_eq!(got, want);
        let held = program.files.iter().filter(|f| f.piece && !f.line_starts.is_empty()).count();
        assert!(held <= 2, "{held} pieces held");
    }

    #[test]
    fn pieces_are_read_as_the_lines_are_handed_over_and_let_go() {
        // 50 pieces of 100 lines: macros defined in the first piece and called in the last
        // ones, a `.rep` and an `.if` open across the ends of pieces, an error in a macro
        // called at line 4,611. The lines come as `expand` makes them from the whole text;
        // each batch is handed over with at most a few pieces read past it, and at the end at
        // most two pieces' text is held (the macros' bodies kept on their own).
        let mut lines: Vec<String> = (0..5000).map(|k| alloc::format!("nop{k}")).collect();
        lines[0] = ".macro m".into();
        lines[1] = "in_m".into();
        lines[2] = ".endm".into();
        lines[3] = ".macro bad".into();
        lines[4] = ".if )".into();
        lines[5] = ".endif".into();
        lines[6] = ".endm".into();
        lines[1097] = ".rep 3".into();
        lines[1098] = "in_rep".into();
        lines[1101] = ".endr".into();
        lines[2099] = ".if 1".into();
        lines[2101] = ".endif".into();
        lines[4550] = "m".into();
        lines[4610] = "bad".into();
        let pieces: Vec<String> = lines.chunks(100).map(|c| c.join("\n") + "\n").collect();
        let whole: String = pieces.concat();
        let spelling = Spelling {
            comments: &["#"],
            directives: &[
                (".macro", Directive::Macro),
                (".endm", Directive::Endm),
                (".rep", Directive::Rep),
                (".endr", Directive::Endr),
                (".if", Directive::If),
                (".endif", Directive::Endif),
                (".set", Directive::Set),
            ],
            label_prefixes: &[],
            ignore_case: false,
            labels: true,
            raw: None,
            code_section: None,
            data_sections: &[],
            statements: None,
            open_if_warns: false,
            control: None,
        };
        let layout = Layout { word_bytes: 8, code_align: 8, scheduled: None };
        let (expected, expected_errors) = expand("t.s", &whole, &spelling, &layout, &mut NoIncludes);
        let read = Rc::new(core::cell::Cell::new(0));
        let mut source = Counted { pieces, next: 0, read: read.clone() };
        let (mut code, mut handed, mut errors) = (Vec::new(), 0usize, Vec::new());
        let mut first_batch_at = None;
        let program =
            super::expand_streaming("t.s", &mut source, &spelling, &layout, &mut NoIncludes, &mut |p, h| {
                match h {
                    Handed::Lines(lines) => {
                        handed += lines.len();
                        first_batch_at.get_or_insert(read.get());
                        assert!(
                            read.get() * 100 <= handed + 400,
                            "{} pieces read, {handed} lines handed",
                            read.get()
                        );
                        code.extend(lines.into_iter().filter_map(|l| match l.kind {
                            Kind::Code(c) => Some(c),
                            _ => None,
                        }));
                    }
                    Handed::Error(e) => {
                        let e = p.located(&e);
                        let line = p.source_line(&e).to_string();
                        errors.push((
                            e.line,
                            e.column,
                            line,
                            e.expansion.iter().map(|x| x.line).collect::<Vec<_>>(),
                        ));
                    }
                    Handed::Warning(_) => {}
                }
            })
            .expect("no `.clone`: streamed");
        assert_eq!(code, self::code(&expected));
        assert!(code.iter().filter(|c| *c == "in_rep").count() == 3 && code.contains(&"in_m".to_string()));
        assert!(first_batch_at.is_some_and(|n| n <= 12), "{first_batch_at:?}");
        assert_eq!(expected_errors.len(), 1);
        let e = expected.located(&expected_errors[0]);
        assert_eq!((e.line, e.column, expected.source_line(&e)), (5, 5, ".if )"));
        assert_eq!(errors, [(5, 5, ".if )".to_string(), alloc::vec![4611])]);
        let held = program.files.iter().filter(|f| f.piece && !f.line_starts.is_empty()).count();
        assert!(held <= 2, "{held} pieces held");
    }

    #[test]
    fn blank_arguments_are_empty_ranges_where_they_stand() {
        // The fuzzer's `host_int, , quad_y`: the blank argument sliced past its own end.
        assert_eq!(split_args("a, , b"), [(0, 1), (3, 3), (5, 6)]);
        assert_eq!(split_args(" f(1, 2) ,x "), [(1, 8), (10, 11)]);
    }
}
