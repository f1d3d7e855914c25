//! The decoders of synthetic specs of 100, 2,000 and 10,000 encodings (`isa-compiler`'s
//! `tests/compiler/synthetic.rs`: a 14-bit opcode numbering the encodings, two registers and an
//! immediate each), for `benches/decode.rs`: decode time per word should not grow much with the
//! number of encodings. Only the decoder of each generated module is built (enums, encoding
//! structs with `from_word`, `Instruction` with `decode`:
//! `isa_compiler::backend::rust::generate_decoder_compact_from`), and only with the `bench`
//! feature.
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "bench")]
extern crate alloc;

/// The synthetic spec of 100 encodings.
#[cfg(feature = "bench")]
#[allow(clippy::all, unused_imports)]
pub mod n100 {
    include!(concat!(env!("OUT_DIR"), "/synthetic_100.rs"));
}

/// The synthetic spec of 2,000 encodings.
#[cfg(feature = "bench")]
#[allow(clippy::all, unused_imports)]
pub mod n2000 {
    include!(concat!(env!("OUT_DIR"), "/synthetic_2000.rs"));
}

/// The synthetic spec of 10,000 encodings.
#[cfg(feature = "bench")]
#[allow(clippy::all, unused_imports)]
pub mod n10000 {
    include!(concat!(env!("OUT_DIR"), "/synthetic_10000.rs"));
}
