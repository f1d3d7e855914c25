//! The `isa` spec compiler.
//!
//! ```text
//! .isa text ──parse──▶ ast ──check──▶ ir ──backends──▶ Rust source, documentation tables
//! ```
//!
//! [`compile`] is the whole pipeline; each stage lives in its own module.
//!
//! Beside the IR, [`placement`] answers every question about where bits lie: the pieces of a
//! field or of array element `i` (arrays keep signed strides), nested layout members at their
//! absolute bits, masks, fixed and default words. It returns data and knows nothing of tokens or
//! text; the checker, the Rust backend (formats, layouts, the derive macro) and the documentation
//! all call it and render its answers their own way, so they cannot disagree about a bit.
#![deny(missing_docs)]

pub mod ast;
pub mod backend;
pub mod check;
pub mod diag;
pub mod ir;
pub mod parse;
pub mod placement;

pub use diag::{Diagnostic, Diagnostics};

/// Parses and checks a spec: the front half of the pipeline.
pub fn check_source(source: &str) -> Result<ir::Target, Diagnostics> {
    let ast = parse::parse_file(source).map_err(Diagnostics::from)?;
    check::check(&ast)
}

/// Everything the compiler makes of one spec.
#[derive(Debug, Clone)]
pub struct Output {
    /// The checked model.
    pub target: ir::Target,
    /// The target's Rust module.
    pub rust: String,
    /// Documentation tables, Markdown.
    pub markdown: String,
    /// Documentation tables, standalone HTML.
    pub html: String,
}

/// The whole pipeline for one spec file; on mistakes, the rendered diagnostics
/// (`file:line:col` and a snippet for every error, rustc style).
pub fn compile(file_name: &str, source: &str) -> Result<Output, String> {
    let render = |d: &Diagnostics| diag::render(file_name, source, d);
    let ast = parse::parse_file(source).map_err(|d| render(&d.into()))?; // text → syntax tree
    let target = check::check(&ast).map_err(|d| render(&d))?; // syntax tree → checked IR
    let rust = backend::rust::generate_from(&target, file_name); // IR → Rust
    let markdown = backend::docs::markdown(&target); // IR → documentation
    let html = backend::docs::html(&target);
    Ok(Output { target, rust, markdown, html })
}
