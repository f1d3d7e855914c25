//! The NVIDIA Shader Program Header as a data layout (groundwork for the SPH issue): word 0 of
//! an ordinary vertex shader and the absolute bit offsets of the maps, checked against
//! NVIDIA's cla097sph.h and the drivers' headers (shared/reference/facts, section C).

use isa_generated::sph::{ImapVector, OmapTarget, ShaderType, Sph, SphMaps, SphType};

fn vertex_header() -> Sph {
    let mut words = [0u32; 20];
    words[0] = 0x0002_0461; // nvc0 and NAK: SphType VTG, Version 3, ShaderType VERTEX, SassVersion 1.
    Sph::from_words(words).expect("a valid header")
}

#[test]
fn vertex_shader_word_0() {
    let h = vertex_header();
    assert_eq!(h.sph_type(), SphType::VTG);
    assert_eq!(h.version(), 3);
    assert_eq!(h.shader_type(), ShaderType::VERTEX);
    assert_eq!(h.sass_version(), 1);
    assert!(!h.mrt_enable() && !h.kills_pixels());
    assert_eq!(h.to_words()[0], 0x0002_0461);
    let bytes = h.to_bytes();
    assert_eq!(&bytes[..4], &[0x61, 0x04, 0x02, 0x00]);
    assert_eq!(Sph::from_bytes(&bytes).map(|x| x.to_words()), Ok(h.to_words()));
}

#[test]
fn undefined_sph_type_is_a_typed_error() {
    let err = Sph::from_words([0; 20]).expect_err("SphType 0 is undefined");
    assert!(
        matches!(err, isa_runtime::DecodeError::UndefinedValue { field: "sph_type", value: 0, .. }),
        "{err:?}"
    );
}

/// Type 1: the input map starts at bit 160, generic vector i's X at 192 + 4i; the output map
/// at bit 400, generic X(i) at 432 + 4i (facts C.2).
#[test]
fn type1_map_offsets() {
    let mut h = vertex_header();
    let Some(SphMaps::Type1Maps(mut maps)) = h.maps() else { panic!("VTG header has type-1 maps") };
    let all = ImapVector::from_words([0xf]).expect("4 bools");
    maps.set_imap_generic_vector(0, all).expect("index 0");
    maps.set_omap_generic_vector(31, all).expect("index 31");
    h.set_maps(SphMaps::Type1Maps(maps)).expect("same tag");
    let w = h.to_words();
    assert_eq!(w[6] & 0xf, 0xf, "imap generic 0 at bits 192..195");
    // OMAP generic 31: 432 + 124 = 556..559 → word 17, bits 12..15.
    assert_eq!((w[17] >> 12) & 0xf, 0xf);
}

/// Type 2: the pixel program's render-target outputs start at bit 576 (facts C.3).
#[test]
fn type2_render_targets_from_bit_576() {
    let mut words = [0u32; 20];
    words[0] = 0x0002_1462; // nvc0's fragment shader: SphType PS, ShaderType PIXEL.
    let mut h = Sph::from_words(words).expect("a valid header");
    assert_eq!(h.sph_type(), SphType::PS);
    let Some(SphMaps::Type2Maps(mut maps)) = h.maps() else { panic!("PS header has type-2 maps") };
    maps.set_omap_target(0, OmapTarget::from_words([0xf]).expect("4 bools")).expect("target 0");
    maps.set_omap_depth(true).expect("bool");
    h.set_maps(SphMaps::Type2Maps(maps)).expect("same tag");
    let w = h.to_words();
    assert_eq!(w[18] & 0xf, 0xf, "target 0 RGBA at bits 576..579");
    assert_eq!((w[19] >> 1) & 1, 1, "depth at bit 609");
}

#[test]
fn out_of_range_values_are_errors() {
    let mut h = vertex_header();
    assert!(h.set_version(32).is_err(), "version is 5 bits");
    assert!(h.set_version(31).is_ok());
}
