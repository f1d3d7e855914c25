//! Property tests of the Shader Program Header over random headers: twenty random words with
//! word 0's SphType forced to VTG (1) or PS (2) and its ShaderType to a defined stage (1..=5);
//! every other enum field decodes whatever it holds (PixelImap defines all four 2-bit values,
//! OutputTopology has a catch-all).
//!
//! - `to_words(from_words(w)) == w`, and the same through bytes;
//! - `from_value(value(h)) == h`, every bit, reserved ones included (they are members of the
//!   value); without its reserved members (hand-written JSON) exactly the reserved bits clear;
//! - an SphType other than 1 and 2, or a ShaderType outside 1..=5, is a typed
//!   `DecodeError::UndefinedValue` naming the field and the value.

use isa_generated::sph::Sph;
use isa_runtime::value::Value;
use isa_runtime::DecodeError;
use proptest::prelude::*;

/// The reserved bits (the spec's `unused`) of both types, as hi..=lo ranges: CommonWord0's
/// 25:21, CommonWord3's 31:28, CommonWord4's 23:20, and the Reserved rows of table 8
/// (ImapSystemValuesA from bit 160).
pub const RESERVED_COMMON: [(u32, u32); 5] = [(25, 21), (127, 124), (151, 148), (163, 160), (183, 170)];
/// Type 1: ImapReserved 399:392, OmapSystemValuesA's Reserved rows (table 14, from bit 400),
/// OmapReserved 639:632.
pub const RESERVED_TYPE1: [(u32, u32); 4] = [(399, 392), (403, 400), (423, 410), (639, 632)];
/// Type 2: ImapReserved 575:560 and OmapReserved 639:610.
pub const RESERVED_TYPE2: [(u32, u32); 2] = [(575, 560), (639, 610)];

/// The words with type `sph_type`'s reserved bits cleared.
pub fn without_reserved(mut words: [u32; 20], sph_type: u32) -> [u32; 20] {
    let own: &[(u32, u32)] = if sph_type == 1 { &RESERVED_TYPE1 } else { &RESERVED_TYPE2 };
    for &(hi, lo) in RESERVED_COMMON.iter().chain(own) {
        for b in lo..=hi {
            words[(b / 32) as usize] &= !(1 << (b % 32));
        }
    }
    words
}

/// `value` without the reserved members of its layouts: the spec's named `unused` ranges
/// (`imap_reserved`, `omap_reserved`) and the unnamed ones (`reserved_25_21`). Table 11's bool
/// field `reserved` is a field and stays.
pub fn without_reserved_members(value: &Value) -> Value {
    match value {
        Value::Struct(fields) => Value::Struct(
            fields
                .iter()
                .filter(|(name, _)| !name.starts_with("reserved_") && !name.ends_with("_reserved"))
                .map(|(name, v)| (*name, without_reserved_members(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_reserved_members).collect()),
        other => other.clone(),
    }
}

/// Word 0 with SphType (bits 4:0) and ShaderType (bits 13:10) replaced.
pub fn with_types(mut words: [u32; 20], sph_type: u32, shader_type: u32) -> [u32; 20] {
    words[0] = (words[0] & !0x1f & !(0xf << 10)) | sph_type | (shader_type << 10);
    words
}

pub fn bytes_of(words: &[u32; 20]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn the_reserved_bits_are_the_spec_s() {
    // The ranges above, counted: 5 + 4 + 4 + 4 + 14 common bits, then 8 + 4 + 14 + 8 (type 1)
    // and 16 + 30 (type 2).
    let count = |words: [u32; 20]| words.iter().map(|w| w.count_zeros()).sum::<u32>();
    assert_eq!(count(without_reserved([!0; 20], 1)), 31 + 34);
    assert_eq!(count(without_reserved([!0; 20], 2)), 31 + 46);
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2048,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn words_round_trip(
        words in proptest::array::uniform20(any::<u32>()),
        sph_type in 1u32..=2,
        shader_type in 1u32..=5,
    ) {
        let w = with_types(words, sph_type, shader_type);
        let h = Sph::from_words(w);
        prop_assert!(h.is_ok(), "{w:08x?}: {h:?}");
        let h = h.unwrap();
        prop_assert_eq!(h.to_words(), w);
        prop_assert_eq!(matches!(h, Sph::SphType1(_)), sph_type == 1);
        // Bytes are the words, little-endian.
        let bytes = h.to_bytes();
        prop_assert_eq!(bytes.to_vec(), bytes_of(&w));
        prop_assert_eq!(Sph::from_bytes(&bytes).map(|x| x.to_words()), Ok(w));
        // The validators never panic, and every violation says what it is.
        for v in h.check() {
            prop_assert!(!v.rule.is_empty() && !v.message.is_empty() && !v.fields.is_empty(), "{v:?}");
        }
    }

    /// JSON text a user might hand `isa encode`: the decoded header's JSON with one value
    /// replaced by something random (a number, a string, a nested object, an array, garbage).
    /// Reading and encoding it is a value or a typed error, never a panic.
    #[test]
    fn edited_json_never_panics(
        words in proptest::array::uniform20(any::<u32>()),
        sph_type in 1u32..=2,
        cut in any::<prop::sample::Index>(),
        junk in prop_oneof![
            Just("7".to_string()), Just("-1".to_string()), Just("1e99".to_string()),
            Just("\"VTG\"".to_string()), Just("\"r(5)\"".to_string()), Just("{}".to_string()),
            Just("[]".to_string()), Just("[true,".to_string()), Just("null".to_string()),
            "[ -~]{0,12}",
        ],
    ) {
        let h = Sph::from_words(with_types(words, sph_type, if sph_type == 2 { 5 } else { 1 })).expect("valid");
        let mut json = String::new();
        h.value().write_json(&mut json);
        // Replace the value after one `:` with the junk.
        let colons: Vec<usize> = json.match_indices(':').map(|(i, _)| i).collect();
        let at = colons[cut.index(colons.len())] + 1;
        let end = json[at..].find([',', '}']).map_or(json.len(), |e| at + e);
        let edited = format!("{}{}{}", &json[..at], junk, &json[end..]);
        if let Ok(v) = isa_runtime::value::parse_json(&edited) {
            let _ = Sph::from_value(&v);
        }
    }

    #[test]
    fn value_round_trips_every_bit(
        words in proptest::array::uniform20(any::<u32>()),
        sph_type in 1u32..=2,
        shader_type in 1u32..=5,
    ) {
        let w = with_types(words, sph_type, shader_type);
        let h = Sph::from_words(w).expect("forced valid");
        let rebuilt = Sph::from_value(&h.value());
        prop_assert!(rebuilt.is_ok(), "{w:08x?}: {rebuilt:?}");
        let rebuilt = rebuilt.unwrap();
        prop_assert_eq!(rebuilt.to_words(), w);
        prop_assert_eq!(rebuilt, h);
        // The value without its reserved members, as a user writes it: the reserved bits are
        // zero, and only they differ.
        let bare = Sph::from_value(&without_reserved_members(&h.value()));
        prop_assert!(bare.is_ok(), "{w:08x?}: {bare:?}");
        let bare = bare.unwrap();
        prop_assert_eq!(bare.to_words(), without_reserved(w, sph_type));
        prop_assert_eq!(without_reserved_members(&bare.value()), without_reserved_members(&h.value()));
        prop_assert_eq!(bare, Sph::from_words(without_reserved(w, sph_type)).expect("valid"));
    }

    #[test]
    fn undefined_sph_type_is_a_typed_error(
        words in proptest::array::uniform20(any::<u32>()),
        sph_type in prop_oneof![Just(0u32), 3u32..32],
        shader_type in 1u32..=5,
    ) {
        let w = with_types(words, sph_type, shader_type);
        match Sph::from_words(w) {
            Err(DecodeError::UndefinedValue { field, value, .. }) => {
                prop_assert!(field.ends_with("sph_type"), "{field}");
                prop_assert_eq!(value, u64::from(sph_type));
            }
            other => prop_assert!(false, "SphType {}: {:?}", sph_type, other),
        }
        prop_assert!(Sph::from_bytes(&bytes_of(&w)).is_err());
    }

    #[test]
    fn undefined_shader_type_is_a_typed_error(
        words in proptest::array::uniform20(any::<u32>()),
        sph_type in 1u32..=2,
        shader_type in prop_oneof![Just(0u32), 6u32..16],
    ) {
        let w = with_types(words, sph_type, shader_type);
        match Sph::from_words(w) {
            Err(DecodeError::UndefinedValue { field, value, .. }) => {
                prop_assert!(field.ends_with("shader_type"), "{field}");
                prop_assert_eq!(value, u64::from(shader_type));
            }
            other => prop_assert!(false, "ShaderType {}: {:?}", shader_type, other),
        }
    }
}

/// Too few or too many bytes are a typed error.
#[test]
fn header_size_is_80_bytes() {
    let w = with_types([0; 20], 1, 1);
    let bytes = bytes_of(&w);
    assert_eq!(bytes.len(), 80);
    assert!(Sph::from_bytes(&bytes).is_ok());
    assert_eq!(
        Sph::from_bytes(&bytes[..76]).map(|h| h.to_words()),
        Err(DecodeError::Truncated { needed: 80, available: 76 })
    );
}
