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

use crate::expr::{self, Names, Value};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// What a directive does. A dialect gives each the spellings its community writes
/// (`set ".set", ".equ", ".define"` in the spec's dialect declaration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Directive {
    /// `NAME, expr`: gives a symbol a value from this line on.
    Set,
    /// `NAME, expr`: like `Set`, but the value is final.
    Const,
    /// `NAME`: forgets a symbol (restoring the value it shadowed).
    Unset,
    /// `expr`: assembles what follows if the value is non-zero.
    If,
    /// `expr`: the next branch of an `If`.
    Elseif,
    /// The last branch of an `If`.
    Else,
    /// Ends an `If`.
    Endif,
    /// `NAME`: assembles what follows if the symbol is defined.
    Ifset,
    /// `[NAME,] count`: repeats the lines up to its `Endr`, the symbol counting from 0.
    Rep,
    /// Ends a `Rep`.
    Endr,
    /// `NAME[, ARG...]`: defines a macro up to its `Endm`; `NAME args` then expands it.
    Macro,
    /// Ends a `Macro`.
    Endm,
    /// `expr`: an error unless the value is non-zero.
    Assert,
    /// `"file"` or `<file>`: assembles another file here.
    Include,
    /// `expr, ...`: 8-bit integers.
    Byte,
    /// `expr, ...`: 16-bit integers.
    Short,
    /// `expr, ...`: 32-bit integers.
    Int,
    /// `expr, ...`: 64-bit integers.
    Long,
    /// `expr, ...`: IEEE singles.
    Float,
    /// `bytes`: zero bytes up to the next multiple of `bytes` (a power of two).
    Align,
}

impl Directive {
    /// Every directive, in the order of the language reference.
    pub const ALL: &'static [Directive] = &[
        Directive::Set,
        Directive::Const,
        Directive::Unset,
        Directive::If,
        Directive::Elseif,
        Directive::Else,
        Directive::Endif,
        Directive::Ifset,
        Directive::Rep,
        Directive::Endr,
        Directive::Macro,
        Directive::Endm,
        Directive::Assert,
        Directive::Include,
        Directive::Byte,
        Directive::Short,
        Directive::Int,
        Directive::Long,
        Directive::Float,
        Directive::Align,
    ];

    /// The directive's name in a spec's dialect declaration (`set`, `endif`).
    pub fn name(self) -> &'static str {
        match self {
            Directive::Set => "set",
            Directive::Const => "const",
            Directive::Unset => "unset",
            Directive::If => "if",
            Directive::Elseif => "elseif",
            Directive::Else => "else",
            Directive::Endif => "endif",
            Directive::Ifset => "ifset",
            Directive::Rep => "rep",
            Directive::Endr => "endr",
            Directive::Macro => "macro",
            Directive::Endm => "endm",
            Directive::Assert => "assert",
            Directive::Include => "include",
            Directive::Byte => "byte",
            Directive::Short => "short",
            Directive::Int => "int",
            Directive::Long => "long",
            Directive::Float => "float",
            Directive::Align => "align",
        }
    }

    /// Bytes per value of a data directive.
    fn data_width(self) -> Option<u8> {
        match self {
            Directive::Byte => Some(1),
            Directive::Short => Some(2),
            Directive::Int | Directive::Float => Some(4),
            Directive::Long => Some(8),
            _ => None,
        }
    }
}

/// Reads the files `.include` names.
pub trait Includer {
    /// The file `name` (written `<name>` when `system`) included from file `from` (`None`: the
    /// main source): the name to show in diagnostics and the text, or why it cannot be read.
    fn load(&mut self, name: &str, system: bool, from: Option<&str>) -> Result<(String, String), String>;
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
    /// Its symbols replaced by their values.
    splices: Vec<Splice>,
    /// What the line is.
    pub kind: Kind,
}

/// What an expanded line is.
#[derive(Debug)]
pub enum Kind {
    /// An instruction's text (the dialect's statement, its symbols replaced).
    Code(String),
    /// Data at a byte address: values of `width` bytes, each an expression's text and its
    /// byte offset in the line's text; floats for `.float`.
    Data {
        /// Bytes per value.
        width: u8,
        /// IEEE singles rather than integers.
        float: bool,
        /// The expressions with their offsets in the text.
        values: Vec<(usize, usize)>,
        /// The line's text after the directive, symbols replaced.
        text: String,
    },
    /// Zero bytes (alignment, or the padding that puts an instruction on a word boundary).
    Zeros(u64),
}

/// The expanded program: its lines, the labels' byte addresses and every error found.
pub struct Program {
    /// The lines, in order.
    pub lines: Vec<Expanded>,
    /// Label addresses.
    pub labels: BTreeMap<String, u64>,
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
    line_starts: Vec<usize>,
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
    /// The text of a source line (of a statement: the lines it spans).
    pub fn text(&self, line: &SourceLine) -> &str {
        self.files
            .get(line.file as usize)
            .and_then(|f| f.text.get(line.start as usize..line.end as usize))
            .unwrap_or("")
    }

    /// The text of the source line error `e` is at.
    pub fn source_line(&self, e: &crate::AsmError) -> &str {
        let file = match &e.file {
            None => self.files.first(),
            Some(name) => self.files.iter().skip(1).find(|f| &f.name == name),
        };
        file.map_or("", |f| f.line(e.line.saturating_sub(1)))
    }

    /// Turns an error at byte `pos` (length `len`) of expanded line `e`'s text into one at its
    /// source line: a position inside a replaced symbol points at the symbol.
    pub fn locate(&self, e: &Expanded, pos: usize, len: usize, message: String) -> crate::AsmError {
        let mut at = (pos, len);
        for s in e.splices.iter().rev() {
            if pos >= s.at + s.len {
                at = (pos - (s.at + s.len) + s.original + s.original_len, len);
                break;
            }
            if pos >= s.at {
                at = (s.original, s.original_len);
                break;
            }
        }
        if e.splices.first().is_none_or(|s| pos < s.at) {
            at = (pos, len);
        }
        self.error_at(&e.line, e.frame, e.offset + at.0, at.1, message)
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
            Some(f) => {
                let n = f.line_index(pos);
                (n + 1, f.line(n), f.line_starts.get(n).copied().unwrap_or(0))
            }
            None => (line.number as usize, "", pos),
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
        (file != 0).then(|| self.files.get(file as usize).map(|f| f.name.clone()).unwrap_or_default())
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
    /// The raw-word directive ([`crate::target::Dialect::raw`]): with one `0x` word it stays
    /// the raw directive even where a data directive has the same spelling (vc4asm's `.long`).
    pub raw: Option<&'a str>,
    /// How a file's text splits into statements, where the dialect has its own way
    /// (statements ending in a separator and spanning lines, block comments, sections): the
    /// text to read them from (the same bytes at the same offsets, comments and the line ends
    /// inside statements blanked) and each statement's byte range. `None`: one per line.
    #[allow(clippy::type_complexity)]
    pub statements: Option<&'a dyn Fn(&str) -> (String, Vec<(usize, usize)>)>,
}

/// The layout of the program being expanded: how big an instruction is, where instruction
/// number `k` lies for targets with control words.
pub struct Layout<'a> {
    /// Bytes per instruction word.
    pub word_bytes: u64,
    /// Byte address of instruction `k` when the target interleaves control words (data is
    /// then not allowed); `None` for a plain stream of words and data.
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
}

struct MacroDef {
    params: Vec<String>,
    body: Rc<[SourceLine]>,
}

/// How deep includes, macro calls and repetitions may nest (a macro calling itself, a file
/// including itself).
const MAX_DEPTH: usize = 64;

struct Expander<'a> {
    spelling: &'a Spelling<'a>,
    layout: &'a Layout<'a>,
    includer: &'a mut dyn Includer,
    out: Program,
    errors: Vec<Located>,
    symbols: BTreeMap<String, Vec<Binding>>,
    macros: BTreeMap<String, Rc<MacroDef>>,
    /// Bytes laid out so far, and instructions so far.
    bytes: u64,
    instructions: usize,
    depth: usize,
}

/// A conditional block being read: whether its current branch is taken, and whether one was.
struct Cond {
    taken: bool,
    done: bool,
    outer: bool,
    else_seen: bool,
    at: SourceLine,
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
    let mut x = Expander {
        spelling,
        layout,
        includer,
        out: Program { lines: Vec::new(), labels: BTreeMap::new(), files: Vec::new(), frames: Vec::new() },
        errors: Vec::new(),
        symbols: BTreeMap::new(),
        macros: BTreeMap::new(),
        bytes: 0,
        instructions: 0,
        depth: 0,
    };
    let lines = x.add_file(name.to_string(), Rc::from(source));
    x.block(&lines, None);
    (x.out, x.errors)
}

/// Where the first comment marker of `line` starts (its length if none).
fn comment_start(line: &str, comments: &[&str]) -> usize {
    comments.iter().filter_map(|m| line.find(m)).min().unwrap_or(line.len())
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
        out.push((s + lead, s + part.trim_end().len()));
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

impl Expander<'_> {
    fn add_file(&mut self, name: String, text: Rc<str>) -> Vec<SourceLine> {
        let file = self.out.files.len() as u32;
        let mut line_starts = alloc::vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut lines = Vec::new();
        let code = match self.spelling.statements {
            Some(split) => {
                let (code, ranges) = split(&text);
                for (start, end) in ranges {
                    let n = line_starts.partition_point(|s| *s <= start).max(1) - 1;
                    lines.push(SourceLine {
                        file,
                        number: n as u32 + 1,
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
                let mut start = 0usize;
                for (n, line) in text.split_inclusive('\n').enumerate() {
                    let body = line.strip_suffix('\n').unwrap_or(line);
                    let body = body.strip_suffix('\r').unwrap_or(body);
                    lines.push(SourceLine {
                        file,
                        number: n as u32 + 1,
                        start: start as u32,
                        end: (start + body.len()) as u32,
                    });
                    start += line.len();
                }
                text.clone()
            }
        };
        self.out.files.push(SourceFile { name, text, code, line_starts });
        lines
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
        self.symbols.entry(name.to_string()).or_default().push(Binding { value, constant: false });
    }

    fn unbind(&mut self, name: &str) {
        if let Some(b) = self.symbols.get_mut(name) {
            b.pop();
            if b.is_empty() {
                self.symbols.remove(name);
            }
        }
    }

    /// Evaluates the expression making up all of `text`: its value, or the error at its token.
    fn evaluate(&self, text: &str) -> Result<Value, expr::ExprError> {
        let symbol = |n: &str| match self.lookup(n).map(|b| &b.value) {
            Some(Symbol::Number(v)) => Some(*v),
            _ => None,
        };
        let label = |n: &str| self.out.labels.get(n).map(|a| *a as i64);
        let names = Names { symbol: &symbol, label: &label, label_prefixes: self.spelling.label_prefixes };
        let (v, end) = expr::evaluate(text, 0, &names)?;
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

    /// A symbol's value from `text`: a number if it evaluates, else (a name nothing defines
    /// as a number: a register, a label further on) the text with its symbols replaced.
    fn value(&self, text: &str) -> Result<Symbol, expr::ExprError> {
        match self.evaluate(text) {
            Ok(v) => Ok(Symbol::Number(v)),
            // A label defined later is left for the second pass, like any text.
            Err(e) if e.undefined => Ok(Symbol::Text(self.substitute(text).0)),
            Err(e) => Err(e),
        }
    }

    /// `text` with every symbol name replaced by its value, and where the replacements are.
    fn substitute(&self, text: &str) -> (String, Vec<Splice>) {
        let b = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut splices = Vec::new();
        let mut i = 0;
        let mut copied = 0;
        while i < b.len() {
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
                splices.push(Splice { at, len: out.len() - at, original: i, original_len: len });
                copied = i + len;
            }
            i += len;
        }
        out.push_str(&text[copied..]);
        (out, splices)
    }

    /// Expands `lines` in `frame`.
    fn block(&mut self, lines: &[SourceLine], frame: Option<u32>) {
        if self.depth >= MAX_DEPTH {
            if let Some(first) = lines.first() {
                self.error(*first, frame, 0, 0, format!("expansion nested deeper than {MAX_DEPTH} levels"));
            }
            return;
        }
        self.depth += 1;
        let mut conds: Vec<Cond> = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i];
            i += 1;
            let full = self.text(&line);
            let code_end = comment_start(&full, self.spelling.comments);
            let code = &full[..code_end];
            let start = code.len() - code.trim_start().len();
            let text = code[start..].trim_end();
            let active = conds.last().is_none_or(|c| c.taken);
            let directive = self.directive(text);
            // Conditionals are read even where lines are skipped, to find their ends.
            match directive {
                Some((d @ (Directive::If | Directive::Ifset), len)) => {
                    let taken = active && self.condition(d, &text[len..], start + len, line, frame);
                    conds.push(Cond { taken, done: taken, outer: active, else_seen: false, at: line });
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
            match directive {
                Some((d @ (Directive::Rep | Directive::Macro), len)) => {
                    let end = if d == Directive::Rep { Directive::Endr } else { Directive::Endm };
                    let Some(body_end) = self.find_end(lines, i, d, end) else {
                        self.error(line, frame, start, len, format!("`{}` without its end", &text[..len]));
                        return self.leave();
                    };
                    let body: Rc<[SourceLine]> = Rc::from(&lines[i..body_end]);
                    i = body_end + 1;
                    if d == Directive::Rep {
                        self.rep(&text[len..], start + len, line, frame, &body);
                    } else {
                        self.define_macro(&text[len..], start + len, line, frame, body);
                    }
                }
                Some((d @ (Directive::Endr | Directive::Endm), len)) => {
                    self.error(line, frame, start, len, format!("`{}` without its start", &text[..len]));
                    let _ = d;
                }
                Some((_, len)) if self.is_raw_word(text, len) => self.statement(code, line, frame),
                Some((d, len)) => self.directive_line(d, text, start, len, line, frame),
                None => self.statement(code, line, frame),
            }
        }
        if let Some(c) = conds.last() {
            let at = c.at;
            self.error(at, frame, 0, 0, "conditional without its end".into());
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
            Directive::Set | Directive::Const => {
                let (Some((name, name_at)), Some((value, value_at)), 2) = (arg(0), arg(1), parts.len())
                else {
                    return self.error(line, frame, at, args.len(), "expected `NAME, value`".into());
                };
                if expr::name_len(name) != name.len() || name.is_empty() {
                    return self.error(line, frame, name_at, name.len(), "expected a symbol name".into());
                }
                if self.lookup(name).is_some_and(|b| b.constant) {
                    let message = format!("`{name}` is a constant: it cannot be set again");
                    return self.error(line, frame, name_at, name.len(), message);
                }
                match self.value(value) {
                    Ok(v) => {
                        let constant = d == Directive::Const;
                        let stack = self.symbols.entry(name.to_string()).or_default();
                        stack.pop();
                        stack.push(Binding { value: v, constant });
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
            Directive::Align => {
                let (Some((n, n_at)), 1) = (arg(0), parts.len()) else {
                    return self.error(line, frame, at, args.len(), "expected the alignment in bytes".into());
                };
                match self.evaluate(n).map(|v| v.int()) {
                    Ok(Some(0)) => {}
                    Ok(Some(n)) if n > 0 && (n as u64).is_power_of_two() => {
                        let pad = (n as u64 - self.bytes % n as u64) % n as u64;
                        self.zeros(pad, line, frame);
                    }
                    Ok(_) => {
                        self.error(line, frame, n_at, n.len(), "the alignment must be a power of two".into())
                    }
                    Err(e) => self.error(line, frame, n_at + e.pos, e.length, e.message),
                }
            }
            _ => {
                let Some(width) = d.data_width() else { return };
                if self.layout.scheduled.is_some() {
                    let message = "data between instructions of a target with control words".into();
                    return self.error(line, frame, start, len, message);
                }
                if parts.is_empty() {
                    return self.error(line, frame, at, 0, "expected values".into());
                }
                let (replaced, splices) = self.substitute(args);
                let values = split_args(&replaced);
                self.bytes += values.len() as u64 * u64::from(width);
                let float = d == Directive::Float;
                let kind = Kind::Data { width, float, values, text: replaced };
                self.out.lines.push(Expanded { line, frame, offset: at, splices, kind });
            }
        }
    }

    fn zeros(&mut self, n: u64, line: SourceLine, frame: Option<u32>) {
        if n > 0 {
            self.bytes += n;
            self.out.lines.push(Expanded {
                line,
                frame,
                offset: 0,
                splices: Vec::new(),
                kind: Kind::Zeros(n),
            });
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
                self.block(&lines, f);
            }
            Err(message) => self.error(line, frame, arg_at, arg.len(), message),
        }
    }

    /// A line that is no directive: labels, then an instruction or a macro call.
    fn statement(&mut self, code: &str, line: SourceLine, frame: Option<u32>) {
        let mut rest_at = code.len() - code.trim_start().len();
        // Labels: `:name` (the dialect's prefix) or `name:`, several on one line.
        loop {
            let rest = &code[rest_at..];
            let prefixed = self.spelling.label_prefixes.first().and_then(|p| {
                // `::name` marks a global label (vc4asm); it is a label all the same.
                let skip =
                    if rest.starts_with(p) && rest[p.len()..].starts_with(p) { 2 * p.len() } else { p.len() };
                let len = rest.strip_prefix(p).map(|_| expr::name_len(&rest[skip.min(rest.len())..]))?;
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
            let name = &rest[skip..skip + len];
            let address = self.address();
            if self.out.labels.insert(name.to_string(), address).is_some() {
                self.error(line, frame, rest_at + skip, len, format!("label `{name}` defined twice"));
            }
            let after = &rest[used..];
            rest_at += used + (after.len() - after.trim_start().len());
        }
        let text = code[rest_at..].trim_end();
        if text.is_empty() {
            return;
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
        if self.layout.scheduled.is_none() {
            let pad = (self.layout.word_bytes - self.bytes % self.layout.word_bytes) % self.layout.word_bytes;
            self.zeros(pad, line, frame);
        }
        let (replaced, splices) = self.substitute(text);
        self.bytes += self.layout.word_bytes;
        self.instructions += 1;
        self.out.lines.push(Expanded { line, frame, offset: rest_at, splices, kind: Kind::Code(replaced) });
    }

    /// The address of what comes next.
    fn address(&self) -> u64 {
        match self.layout.scheduled {
            Some(address) => address(self.instructions),
            None => self.bytes,
        }
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
        self.block(&m.body.clone(), f);
        for p in &m.params {
            self.unbind(p);
        }
    }
}

/// The length of a `name:` label's name at the start of `s` (the assembler's plain labels).
fn label_len(s: &str) -> usize {
    let starts = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '.');
    if !starts {
        return 0;
    }
    s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')).unwrap_or(s.len())
}
