//! Integration tests of the isa workspace live in `tests/`; this crate has no code of its own.
