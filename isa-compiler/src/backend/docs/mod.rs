//! Documentation tables (Markdown and HTML) generated from the spec.
//!
//! The tables follow the shape of the hardware reference documents: one bit-layout table per
//! encoding or data layout, one value table per enum. The work is split by concern:
//!
//! - `model`: the view model, typed rows and sections computed from the IR;
//! - `abi`: the view model of units and ABI layouts (expressions, worked examples);
//! - `bits`: the Bits/Word/Offset cells, bit diagrams and patterns, written from what
//!   [`crate::placement`] answers;
//! - `outline`: the document laid out once from the model: headings, paragraphs (all the
//!   prose), tables and lists;
//! - `markdown`, `html`: the two documents, each writing the outline in its syntax;
//! - `render`: the Markdown/HTML escaping of cells and the text conventions both share.

mod abi;
mod bits;
mod html;
mod markdown;
mod model;
mod outline;
mod render;

use crate::ir;

/// The target's documentation as Markdown.
pub fn markdown(t: &ir::Target) -> String {
    markdown::document(&outline::document(&model::target(t)))
}

/// The target's documentation as a standalone HTML page.
pub fn html(t: &ir::Target) -> String {
    html::document(&outline::document(&model::target(t)))
}
