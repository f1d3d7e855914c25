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

// The macros' own tests (`mod tests` of src/bitfield.rs and src/target.rs, on their private
// functions) run in this binary, which is built anyway: the two sources are compiled into it,
// with `cfg(test)`. A unit-test harness of the proc-macro crate would compile the crate a
// second time and link the compiler once more for them (`[lib] test = false`).
#[allow(dead_code)]
#[path = "../../src/bitfield.rs"]
mod macro_bitfield;
#[allow(dead_code)]
#[path = "../../src/target.rs"]
mod macro_target;
