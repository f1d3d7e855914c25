//! A downstream crate that describes NVIDIA's Shader Program Header with the repository's spec,
//! `isa-specs/sph.isa`, and gets its types from `isa_derive::target!` at compile time: the
//! same code `isa-generated` has, without a build script. The 80-byte header is one union
//! `sph::Sph` of the two layouts `sph::SphType1` (vertex, tessellation and geometry programs)
//! and `sph::SphType2` (pixel programs), chosen by `CommonWord0.SphType`.

/// The `sph` target. The path is relative to this crate's Cargo.toml; the crate is rebuilt
/// when the spec changes.
pub mod sph {
    isa_derive::target!("../../isa-specs/sph.isa");
}
