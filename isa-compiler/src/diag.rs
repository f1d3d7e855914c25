//! Diagnostics: every mistake in a spec is reported with file, line, column and a snippet,
//! rendered like rustc's (by codespan-reporting), several per run.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::NoColor, Chars, Config};

/// A byte range in the source file: where a syntax-tree node, a diagnostic or an IR entity
/// was written. It lives here, beside the diagnostics, so the IR needs nothing of the syntax tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// Start offset.
    pub start: usize,
    /// End offset (exclusive).
    pub end: usize,
}

/// A labelled span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What is said there.
    pub message: String,
}

/// One error in a spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The headline.
    pub message: String,
    /// The main location.
    pub primary: Label,
    /// Related locations (e.g. the other definition of a duplicate).
    pub secondary: Vec<Label>,
    /// Extra lines (`= note: ...`).
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            message: message.into(),
            primary: Label { span, message: String::new() },
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Sets the primary label's text.
    pub fn label(&mut self, message: impl Into<String>) -> &mut Self {
        self.primary.message = message.into();
        self
    }

    /// Adds a secondary label.
    pub fn with(&mut self, span: Span, message: impl Into<String>) -> &mut Self {
        self.secondary.push(Label { span, message: message.into() });
        self
    }

    /// Adds a note.
    pub fn note(&mut self, note: impl Into<String>) -> &mut Self {
        self.notes.push(note.into());
        self
    }
}

/// How many errors are shown in full; the rest are only counted, as rustc caps its output, so
/// a spec with thousands of mistakes gives a readable report (and the checker can stop working
/// out what nobody will read).
pub const SHOWN: usize = 50;

/// The errors of one spec: the first [`SHOWN`] in full, and how many more were found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics {
    shown: Vec<Diagnostic>,
    more: usize,
}

impl Diagnostics {
    /// Adds an error: kept in full while fewer than [`SHOWN`] are, else only counted.
    pub fn push(&mut self, d: Diagnostic) -> Option<&mut Diagnostic> {
        if self.is_full() {
            self.more += 1;
            return None;
        }
        self.shown.push(d);
        self.shown.last_mut()
    }

    /// Whether further errors are only counted.
    pub fn is_full(&self) -> bool {
        self.shown.len() >= SHOWN
    }

    /// How many errors were counted beyond the ones shown.
    pub fn more(&self) -> usize {
        self.more
    }

    /// How many errors were found in all.
    pub fn total(&self) -> usize {
        self.shown.len() + self.more
    }
}

impl std::ops::Deref for Diagnostics {
    type Target = [Diagnostic];
    fn deref(&self) -> &[Diagnostic] {
        &self.shown
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.shown.iter()
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics { shown: vec![d], more: 0 }
    }
}

impl From<Vec<Diagnostic>> for Diagnostics {
    fn from(list: Vec<Diagnostic>) -> Self {
        let mut out = Diagnostics::default();
        for d in list {
            out.push(d);
        }
        out
    }
}

/// A leading UTF-8 byte order mark is not part of the text: the parser reads it as blanks (so
/// byte offsets stay those of the file) and columns do not count it (as rustc does).
pub const BOM: &str = "\u{feff}";

/// Line and column (1-based, in characters) of byte offset `pos` in `source`.
pub fn line_col(source: &str, pos: usize) -> (usize, usize) {
    let pos = pos.min(source.len());
    let before = &source[..pos];
    let before = before.strip_prefix(BOM).unwrap_or(before);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Renders diagnostics as plain text: the ones shown, "... and N more errors" when some were only
/// counted, and "found N errors" (all of them).
pub fn render(file_name: &str, source: &str, diagnostics: &Diagnostics) -> String {
    // Spans are offsets in `source`; the snippets are shown without a byte order mark.
    let skip = if source.starts_with(BOM) { BOM.len() } else { 0 };
    let shown = &source[skip..];
    let file = SimpleFile::new(file_name, shown);
    let config = Config { chars: Chars::ascii(), ..Config::default() };
    let mut out = NoColor::new(Vec::new());
    for d in diagnostics.iter() {
        let clamp = |s: Span| {
            let start = s.start.saturating_sub(skip).min(shown.len());
            start..s.end.saturating_sub(skip).clamp(start, shown.len())
        };
        let mut labels = vec![CsLabel::primary((), clamp(d.primary.span)).with_message(&d.primary.message)];
        for l in &d.secondary {
            labels.push(CsLabel::secondary((), clamp(l.span)).with_message(&l.message));
        }
        let cs =
            CsDiagnostic::error().with_message(&d.message).with_labels(labels).with_notes(d.notes.clone());
        let _ = term::emit(&mut out, &config, &file, &cs);
    }
    let mut text = String::from_utf8_lossy(&out.into_inner()).into_owned();
    let more = diagnostics.more();
    if more > 0 {
        text.push_str(&format!("... and {more} more error{}\n\n", if more == 1 { "" } else { "s" }));
    }
    let n = diagnostics.total();
    text.push_str(&format!("found {n} error{}\n", if n == 1 { "" } else { "s" }));
    text
}

/// The first diagnostic as one line, `file:line:col: message`, for compile errors in macros.
pub fn one_line(file_name: &str, source: &str, d: &Diagnostic) -> String {
    let (line, col) = line_col(source, d.primary.span.start);
    let mut s = format!("{file_name}:{line}:{col}: {}", d.message);
    if !d.primary.message.is_empty() {
        s.push_str(&format!(" ({})", d.primary.message));
    }
    s
}
