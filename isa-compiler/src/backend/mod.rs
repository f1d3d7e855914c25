//! Stage 4: backends. Each reads the checked [`ir`](crate::ir) and writes one artefact.
//!
//! - [`rust`]: the target's Rust source (types, decoder, encoder, syntax tables, validators,
//!   interpreter);
//! - [`docs`]: documentation tables in Markdown and HTML.

pub mod docs;
pub mod rust;
