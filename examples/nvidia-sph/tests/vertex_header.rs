//! An ordinary vertex shader's header, built with the types `target!` generates: word 0 as
//! nvc0 and NAK write it (0x00020461: SphType VTG, Version 3, ShaderType VERTEX, SassVersion 1),
//! generic input 0 read (bits 192..=195), the position written (bits 428..=431), no store
//! range (StoreReqStart 0xff > StoreReqEnd 0). It keeps every rule of the spec.

use isa_runtime::value::Value;
use nvidia_sph::sph::{ShaderType, Sph, SphType, SphType1};

fn vertex_header() -> Sph {
    // The two enums without a zero value must be given; every other field starts at zero.
    let mut h = SphType1::from_value(&Value::Struct(vec![(
        "common_word0",
        Value::Struct(vec![("sph_type", Value::Enum("VTG")), ("shader_type", Value::Enum("VERTEX"))]),
    )]))
    .expect("a minimal type 1 header");

    let mut w0 = h.common_word0();
    assert!(w0.set_version(32).is_err(), "Version is 5 bits");
    w0.set_shader_type(ShaderType::VERTEX).expect("an enum value");
    w0.set_version(3).expect("5 bits");
    w0.set_sass_version(1).expect("4 bits");
    h.set_common_word0(w0).expect("the same SphType");

    let mut w4 = h.common_word4();
    w4.set_store_req_start(0xff).expect("8 bits");
    h.set_common_word4(w4).expect("a word");

    // Generic input 0, all four components.
    let mut input = h.imap_generic_vector(0).expect("vector 0");
    input.set_imap_x(true).expect("bool");
    input.set_imap_y(true).expect("bool");
    input.set_imap_z(true).expect("bool");
    input.set_imap_w(true).expect("bool");
    h.set_imap_generic_vector(0, input).expect("index 0");
    assert!(h.imap_generic_vector(32).is_none(), "32 vectors");

    // The position output.
    let mut outputs = h.omap_system_values_b();
    outputs.set_omap_position_x(true).expect("bool");
    outputs.set_omap_position_y(true).expect("bool");
    outputs.set_omap_position_z(true).expect("bool");
    outputs.set_omap_position_w(true).expect("bool");
    h.set_omap_system_values_b(outputs).expect("8 bits");

    Sph::SphType1(h)
}

fn bit(words: &[u32; 20], b: usize) -> bool {
    (words[b / 32] >> (b % 32)) & 1 == 1
}

#[test]
fn builds_an_ordinary_vertex_shader_header() {
    let h = vertex_header();
    let words = h.to_words();
    assert_eq!(words[0], 0x0002_0461);
    assert_eq!(words[4], 0x000f_f000, "StoreReqStart 0xff, as nvc0 writes it");
    // Generic input 0 from bit 192 (word 6), the position from bit 428 (word 13, bit 12).
    assert!((192..=195).all(|b| bit(&words, b)));
    assert!((428..=431).all(|b| bit(&words, b)));
    let set: usize = words.iter().map(|w| w.count_ones() as usize).sum();
    assert_eq!(set, 0x0002_0461u32.count_ones() as usize + 8 + 4 + 4, "nothing else is set");

    assert_eq!(h.common_word0().sph_type(), SphType::VTG);
    assert_eq!(h.common_word0().shader_type(), ShaderType::VERTEX);
    assert!(h.check().is_empty(), "{:?}", h.check());
}

#[test]
fn round_trips_through_bytes_and_values() {
    let h = vertex_header();
    let bytes = h.to_bytes();
    assert_eq!(bytes.len(), 80);
    assert_eq!(&bytes[..4], &[0x61, 0x04, 0x02, 0x00]);
    assert_eq!(Sph::from_bytes(&bytes), Ok(h));
    assert_eq!(Sph::from_value(&h.value()), Ok(h));
}

#[test]
fn a_vertex_header_with_pixel_fields_breaks_the_rules() {
    let Sph::SphType1(mut h) = vertex_header() else { unreachable!() };
    let mut w0 = h.common_word0();
    w0.set_kills_pixels(true).expect("bool");
    h.set_common_word0(w0).expect("a word");
    let violations = Sph::SphType1(h).check();
    let rules: Vec<&str> = violations.iter().map(|v| v.rule).collect();
    assert_eq!(rules, ["kills_pixels_pixel_only"]);
    assert!(violations[0].fields.contains(&"common_word0.kills_pixels"));
}
