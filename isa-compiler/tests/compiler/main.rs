//! The compiler's tests, one binary (one link of the compiler and its dependencies, not one per
//! file): each module is a concern, run one with `cargo test -p isa-compiler --test compiler
//! <module>`.

mod abi_layouts;
mod bundles;
mod common;
mod contract;
mod diagnostics;
mod docs_tables;
mod families;
mod generated;
mod layouts;
mod placement;
mod reference_snippets;
mod rustdoc;
mod scaling;
mod summaries;
mod synthetic;
mod units;
mod word_tables;
