//! Issue 14, "nothing changes silently", on NVIDIA's Shader Program Header:
//!
//! - the bits no field names (65 of a type-1 header's 640, 77 of a type 2's: the ranges of
//!   `sph_roundtrip`, counted there from the document's tables) are members of the decoded
//!   value, so decode → JSON text → encode gives back all 640 bits, and `check()` warns about
//!   each range that is not zero, naming its bits and value;
//! - a value that does not fit its field is `EncodeError::OutOfRange` naming the field, its
//!   width and the value, through the typed setters and through JSON (what `isa encode`
//!   reads) — for the catch-all `unset(_)` of OutputTopology too, which used to take 17 as 1
//!   and 2^40 as 0.

use super::sph_roundtrip::{
    bytes_of, with_types, without_reserved, RESERVED_COMMON, RESERVED_TYPE1, RESERVED_TYPE2,
};
use isa_generated::sph::{CommonWord3, OutputTopology, OutputTopologyUnset, TARGET};
use isa_runtime::layout::DataTarget;
use isa_runtime::value::parse_json;
use isa_runtime::EncodeError;
use proptest::prelude::*;

/// nvc0's vertex-shader header (facts C.5): word 0 0x00020461 (VTG, version 3, VERTEX, SASS
/// version 1), StoreReqStart 0xff, generic input 0 X and output position XYZW. No reserved bit
/// is set.
const VS_HEADER: [u32; 20] =
    [0x00020461, 0, 0, 0, 0x000ff000, 0, 0x1, 0, 0, 0, 0, 0, 0, 0xf000, 0, 0, 0, 0, 0, 0];

/// The header's JSON as `isa decode --json` prints it.
fn json_of(words: &[u32; 20]) -> String {
    let value = TARGET.decode(&bytes_of(words)).unwrap_or_else(|e| panic!("{words:08x?}: {e}"));
    let mut json = String::new();
    value.write_json(&mut json);
    json
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1024,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Random headers of both types: decode, print JSON, read it back, encode: the same 80
    /// bytes, every one of the 640 bits.
    #[test]
    fn every_bit_survives_decode_json_encode(
        words in proptest::array::uniform20(any::<u32>()),
        sph_type in 1u32..=2,
        shader_type in 1u32..=5,
    ) {
        let w = with_types(words, sph_type, shader_type);
        let json = json_of(&w);
        let read = parse_json(&json);
        prop_assert!(read.is_ok(), "{json}: {read:?}");
        let encoded = TARGET.encode(&read.unwrap());
        prop_assert!(encoded.is_ok(), "{json}: {encoded:?}");
        let encoded = encoded.unwrap();
        let changed: Vec<u32> = (0..640u32)
            .filter(|b| (encoded[(b / 8) as usize] ^ bytes_of(&w)[(b / 8) as usize]) >> (b % 8) & 1 != 0)
            .collect();
        prop_assert_eq!(changed, Vec::<u32>::new(), "bits changed by decode → encode of {:08x?}", w);
    }
}

#[test]
fn bits_21_to_25_show_in_json_and_are_a_warning() {
    let mut w = VS_HEADER;
    w[0] |= 0x1f << 21;
    let json = json_of(&w);
    assert!(
        json.starts_with(
            r#"{"common_word0":{"sph_type":"VTG","version":3,"shader_type":"VERTEX","mrt_enable":false,"kills_pixels":false,"does_global_store":false,"sass_version":1,"does_load_or_store":false,"does_fp64":false,"stream_out_mask":0,"reserved_25_21":31},"#
        ),
        "{json}"
    );
    // The JSON encodes back to the same header, bits 21-25 included.
    let read = parse_json(&json).expect("decode's JSON reads back");
    assert_eq!(TARGET.encode(&read), Ok(bytes_of(&w)));
    // Exactly one warning, about exactly those bits.
    let found = TARGET.check(&bytes_of(&w)).expect("decodes");
    let seen: Vec<_> =
        found.iter().map(|v| (v.rule, v.message, v.fields, v.warning, v.detail.as_str())).collect();
    assert_eq!(
        seen,
        [(
            "reserved",
            "reserved bits 25:21 are not zero",
            &["common_word0.reserved_25_21"][..],
            true,
            "common_word0.reserved_25_21 = 0x1f"
        )]
    );
    // One of them set is the same warning with its value.
    w[0] = VS_HEADER[0] | 1 << 24;
    let found = TARGET.check(&bytes_of(&w)).expect("decodes");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].detail, "common_word0.reserved_25_21 = 0x8");
    // nvc0's header sets none: no warning.
    assert_eq!(TARGET.check(&bytes_of(&VS_HEADER)), Ok(Vec::new()));
}

/// Every reserved bit of each type set (and nothing else that is not needed to decode): one
/// warning per range of the document's tables, at its bits in the header, and no warning once
/// those bits are clear.
#[test]
fn each_reserved_range_is_one_warning() {
    for (sph_type, shader_type, own, paths) in [
        (
            1,
            1,
            &RESERVED_TYPE1[..],
            &[
                "imap_reserved",
                "omap_system_values_a.reserved_3_0",
                "omap_system_values_a.reserved_23_10",
                "omap_reserved",
            ][..],
        ),
        (2, 5, &RESERVED_TYPE2[..], &["imap_reserved", "omap_reserved"][..]),
    ] {
        let all = with_types([!0; 20], sph_type, shader_type);
        let clear = without_reserved(all, sph_type);
        let only_reserved: [u32; 20] = std::array::from_fn(|i| all[i] & !clear[i]);
        let w = with_types(only_reserved, sph_type, shader_type);
        let mut found: Vec<(String, String)> = TARGET
            .check(&bytes_of(&w))
            .expect("decodes")
            .into_iter()
            .filter(|v| v.warning)
            .map(|v| (v.message.to_string(), v.fields.join(",")))
            .collect();
        found.sort();
        let common_paths = [
            "common_word0.reserved_25_21",
            "common_word3.reserved_31_28",
            "common_word4.reserved_23_20",
            "imap_system_values_a.reserved_3_0",
            "imap_system_values_a.reserved_23_10",
        ];
        let mut expected: Vec<(String, String)> = RESERVED_COMMON
            .iter()
            .chain(own)
            .zip(common_paths.iter().chain(paths))
            .map(|((hi, lo), path)| (format!("reserved bits {hi}:{lo} are not zero"), path.to_string()))
            .collect();
        expected.sort();
        assert_eq!(found, expected, "type {sph_type}");
        let none = TARGET.check(&bytes_of(&with_types(clear, sph_type, shader_type))).expect("decodes");
        assert!(none.iter().all(|v| !v.warning), "type {sph_type}: {none:?}");
    }
}

/// Hand-written JSON need not mention reserved bits: absent, they are zero.
#[test]
fn absent_reserved_members_are_zero() {
    let v = parse_json(
        r#"{"common_word0": {"sph_type": "PS", "version": 3, "shader_type": "PIXEL", "sass_version": 1}}"#,
    )
    .expect("JSON");
    let bytes = TARGET.encode(&v).expect("encodes");
    assert_eq!(&bytes[..4], &0x0002_1462u32.to_le_bytes());
    assert!(bytes[4..].iter().all(|b| *b == 0));
    // Named, they are written.
    let v = parse_json(
        r#"{"common_word0": {"sph_type": "PS", "shader_type": "PIXEL", "reserved_25_21": 3}, "omap_reserved": 1073741823}"#,
    )
    .expect("JSON");
    let bytes = TARGET.encode(&v).expect("encodes");
    assert_eq!(&bytes[..4], &(2u32 | 5 << 10 | 3 << 21).to_le_bytes());
    // omap_reserved of type 2 is bits 639:610: word 19's bits 31:2.
    assert_eq!(&bytes[76..], &0xffff_fffcu32.to_le_bytes());
    // A reserved member is range-checked like any field.
    let v = parse_json(r#"{"common_word0": {"sph_type": "PS", "reserved_25_21": 32}}"#).expect("JSON");
    let err = TARGET.encode(&v).expect_err("32 does not fit");
    assert_eq!(
        err.to_string(),
        "SphType2: value 32 does not fit field `common_word0.reserved_25_21` (5-bit unsigned)"
    );
    assert_eq!(
        Err::<(), _>(err.cause().clone()),
        Err(EncodeError::OutOfRange {
            format: "CommonWord0",
            field: "reserved_25_21",
            value: 32,
            bits: 5,
            signed: false
        })
    );
}

#[test]
fn output_topology_that_does_not_fit_is_an_error() {
    let out_of_range = |value: i128| EncodeError::OutOfRange {
        format: "CommonWord3",
        field: "output_topology",
        value,
        bits: 4,
        signed: false,
    };
    // The typed value: the catch-all holds a value of the 4-bit field that no named topology
    // has (POINTLIST 1, LINESTRIP 6, TRIANGLESTRIP 7), so `Unset(17)` cannot be made.
    assert_eq!(OutputTopologyUnset::new(17), None);
    assert_eq!(OutputTopologyUnset::new(16), None);
    assert_eq!(OutputTopologyUnset::new(6), None, "LINESTRIP is named");
    let unset15 = OutputTopologyUnset::new(15).expect("15 fits and has no name");
    assert_eq!(unset15.get(), 15);
    let mut word3 = CommonWord3::default();
    assert_eq!(word3.set_output_topology(OutputTopology::Unset(unset15)), Ok(()));
    assert_eq!(word3.to_words(), [15 << 24]);
    assert_eq!(OutputTopology::from_bits(17), None);
    assert_eq!(OutputTopology::from_bits(1 << 40), None);
    assert_eq!(OutputTopology::from_bits(15), Some(OutputTopology::Unset(unset15)));
    // JSON, as `isa encode` reads it: the issue's 17 and 2^40, and -1.
    for (text, value) in [("17", 17), ("1099511627776", 1 << 40), ("-1", -1), ("16", 16)] {
        let json = format!(
            r#"{{"common_word0": {{"sph_type": "VTG", "shader_type": "GEOMETRY"}}, "common_word3": {{"output_topology": {text}}}}}"#
        );
        let err = TARGET.encode(&parse_json(&json).expect("JSON")).expect_err(text);
        // The nested layout's error, named by the path the JSON took to it from the header,
        // read as the union's arm its SphType chose (issue 14).
        assert_eq!(err.cause(), &out_of_range(value));
        assert_eq!(
            err,
            EncodeError::Within {
                layout: "SphType1",
                path: "common_word3".into(),
                error: Box::new(out_of_range(value))
            }
        );
        assert_eq!(
            err.to_string(),
            format!(
                "SphType1: value {value} does not fit field `common_word3.output_topology` (4-bit unsigned)"
            )
        );
    }
    // 15 fits: the catch-all takes it.
    let json = r#"{"common_word0": {"sph_type": "VTG", "shader_type": "GEOMETRY"}, "common_word3": {"output_topology": 15}}"#;
    let bytes = TARGET.encode(&parse_json(json).expect("JSON")).expect("15 fits");
    assert_eq!(&bytes[12..16], &(15u32 << 24).to_le_bytes());
}

/// Unsigned fields read from JSON: a number wider than the field or its Rust type, or negative,
/// is out of range, never wrapped.
#[test]
fn integers_that_do_not_fit_are_errors() {
    for (text, value) in
        [("32", 32), ("1099511627776", 1 << 40), ("-1", -1), ("18446744073709551615", u64::MAX.into())]
    {
        let json = format!(r#"{{"common_word0": {{"sph_type": "VTG", "version": {text}}}}}"#);
        assert_eq!(
            TARGET.encode(&parse_json(&json).expect("JSON")).map_err(|e| e.cause().clone()),
            Err(EncodeError::OutOfRange {
                format: "CommonWord0",
                field: "version",
                value,
                bits: 5,
                signed: false
            }),
            "{text}"
        );
    }
    // Wider than 64 bits: the JSON is not read at all.
    let json = r#"{"common_word0": {"sph_type": "VTG", "version": 18446744073709551616}}"#;
    assert_eq!(
        parse_json(json).map_err(|e| e.to_string()),
        Err("JSON at byte 48: integer wider than 64 bits (no field holds it)".to_string())
    );
}
