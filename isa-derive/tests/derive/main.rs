//! Targets compiled through `target!` from the specs in `tests/specs`, one binary (one link of
//! every generated target): run one module with `cargo test -p isa-derive --test derive <module>`.

mod bundles;
mod guarded_view;
mod interleaved;
mod marked;
mod placement;
mod random_specs;
mod signed_guard;
mod target;
mod varlen;
