//! Diagnostics: every mistake in a spec is reported with file, line, column and a snippet,
//! rendered like rustc's (by codespan-reporting), several per run.

use crate::ast::Span;
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::NoColor, Chars, Config};

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

/// Line and column (1-based, in characters) of byte offset `pos` in `source`.
pub fn line_col(source: &str, pos: usize) -> (usize, usize) {
    let pos = pos.min(source.len());
    let before = &source[..pos];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Renders diagnostics as plain text, ending with "found N errors".
pub fn render(file_name: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    let file = SimpleFile::new(file_name, source);
    let config = Config { chars: Chars::ascii(), ..Config::default() };
    let mut out = NoColor::new(Vec::new());
    for d in diagnostics {
        let clamp = |s: Span| s.start.min(source.len())..s.end.clamp(s.start.min(source.len()), source.len());
        let mut labels = vec![CsLabel::primary((), clamp(d.primary.span)).with_message(&d.primary.message)];
        for l in &d.secondary {
            labels.push(CsLabel::secondary((), clamp(l.span)).with_message(&l.message));
        }
        let cs =
            CsDiagnostic::error().with_message(&d.message).with_labels(labels).with_notes(d.notes.clone());
        let _ = term::emit(&mut out, &config, &file, &cs);
    }
    let mut text = String::from_utf8_lossy(&out.into_inner()).into_owned();
    let n = diagnostics.len();
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
