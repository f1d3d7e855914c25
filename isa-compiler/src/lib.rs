//! The `isa` spec compiler.
//!
//! ```text
//! .isa text ──parse──▶ ast ──check──▶ ir ──backends──▶ Rust source, documentation tables
//! ```
//!
//! [`compile`] is the whole pipeline; each stage lives in its own module.
#![deny(missing_docs)]

pub mod ast;
pub mod backend;
pub mod check;
pub mod diag;
pub mod ir;
pub mod parse;

pub use diag::Diagnostic;

/// Parses and checks a spec: the front half of the pipeline.
pub fn check_source(source: &str) -> Result<ir::Target, Vec<Diagnostic>> {
    let ast = parse::parse_file(source).map_err(|d| vec![d])?;
    check::check(&ast)
}

/// The whole pipeline for one spec file: Rust source, or rendered diagnostics
/// (`file:line:col` and a snippet for every error).
pub fn compile_to_rust(file_name: &str, source: &str) -> Result<String, String> {
    check_source(source).map(|t| backend::rust::generate(&t)).map_err(|d| diag::render(file_name, source, &d))
}
