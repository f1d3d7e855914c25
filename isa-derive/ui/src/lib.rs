//! No code: the package holds the compile-fail test of isa-derive (`tests/ui.rs`).
