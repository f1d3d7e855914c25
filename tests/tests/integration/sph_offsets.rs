//! Every field of NVIDIA's `cla097sph.h` (tests/data/sph/cla097sph_fields.tsv) at the bits the
//! spec gives it, in both header types.
//!
//! For each define, the test finds the field's leaf in the header's `value()` (an explicit
//! mapping from the define's name to the spec's dotted path, below), sets it to all ones (a
//! bool to true, an enum to each value it defines), rebuilds the header with `from_value`, and
//! asserts that the bits that changed are exactly the define's `hi..=lo` and hold the value.
//! The header's reserved defines are checked the other way: their bits are kept by
//! `from_words`/`to_words`, are no field of `value()` (only its reserved members, issue 14,
//! hold them), and `from_value` gives them back, or writes them as zero when the value leaves
//! its reserved members out.

use super::sph_roundtrip::without_reserved_members;
use isa_generated::sph::Sph;
use isa_runtime::value::Value;

const FIELDS_TSV: &str = include_str!("../../data/sph/cla097sph_fields.tsv");

/// One row of the TSV: type ("T1"/"T2"), define name without its prefix, hi, lo.
struct Define {
    ty: &'static str,
    name: &'static str,
    hi: u32,
    lo: u32,
}

fn defines() -> Vec<Define> {
    let mut out = Vec::new();
    for line in FIELDS_TSV.lines() {
        if line.starts_with('#') || line.starts_with("type\t") || line.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells.len(), 4, "{line}");
        let hi: u32 = cells[2].parse().expect("hi");
        let lo: u32 = cells[3].parse().expect("lo");
        assert!(lo <= hi && hi < 640, "{line}");
        out.push(Define { ty: cells[0], name: cells[1], hi, lo });
    }
    assert!(out.len() > 700, "the TSV lists both types' fields");
    out
}

/// The all-zero header of a type, with the two enums that have no zero value set: type 1 is a
/// vertex shader (SphType VTG, ShaderType VERTEX), type 2 a pixel shader (PS, PIXEL).
fn zero_header(ty: &str) -> Sph {
    let mut words = [0u32; 20];
    words[0] = match ty {
        "T1" => 1 | (1 << 10),
        "T2" => 2 | (5 << 10),
        _ => panic!("type {ty}"),
    };
    Sph::from_words(words).unwrap_or_else(|e| panic!("the zero {ty} header decodes: {e:?}"))
}

// ---- From a define's name to the spec's dotted path ------------------------------------------

/// The fields of the common words, by the word that holds them (tables 3 to 7).
const COMMON_WORDS: [&[&str]; 5] = [
    &[
        "SPH_TYPE",
        "VERSION",
        "SHADER_TYPE",
        "MRT_ENABLE",
        "KILLS_PIXELS",
        "DOES_GLOBAL_STORE",
        "SASS_VERSION",
        "DOES_LOAD_OR_STORE",
        "DOES_FP64",
        "STREAM_OUT_MASK",
    ],
    &["SHADER_LOCAL_MEMORY_LOW_SIZE", "PER_PATCH_ATTRIBUTE_COUNT"],
    &["SHADER_LOCAL_MEMORY_HIGH_SIZE", "THREADS_PER_INPUT_PRIMITIVE"],
    &["SHADER_LOCAL_MEMORY_CRS_SIZE", "OUTPUT_TOPOLOGY"],
    &["MAX_OUTPUT_VERTEX_COUNT", "STORE_REQ_START", "STORE_REQ_END"],
];

/// Whether a define names reserved bits (no field of the spec's `value()`).
fn is_reserved(name: &str) -> bool {
    name.starts_with("RESERVED")
}

/// Splits `GENERIC_IMAP_X(3)` into `("GENERIC_IMAP_X", Some(3))`.
fn split_index(name: &str) -> (&str, Option<usize>) {
    match name.split_once('(') {
        Some((base, rest)) => (base, Some(rest.trim_end_matches(')').parse().expect("index"))),
        None => (name, None),
    }
}

/// The spec's dotted path of the field a (non-reserved) define names.
fn leaf_path(name: &str) -> String {
    let (base, index) = split_index(name);
    let lower = base.to_lowercase();
    for (w, names) in COMMON_WORDS.iter().enumerate() {
        if names.contains(&base) {
            return format!("common_word{w}.{lower}");
        }
    }
    let i = || index.unwrap_or_else(|| panic!("{name} has an index"));
    // GENERIC_IMAP_X(i) -> imap_generic_vector[i].imap_x (tables 18 to 20).
    for map in ["imap", "omap"] {
        let generic = format!("generic_{map}_");
        if let Some(c) = lower.strip_prefix(&generic) {
            return format!("{map}_generic_vector[{}].{map}_{c}", i());
        }
        // TEX_IMAP_S(i) -> imap_fixed_fnc_texture[i].imap_s (tables 21 to 23).
        let tex = format!("tex_{map}_");
        if let Some(c) = lower.strip_prefix(&tex) {
            return format!("{map}_fixed_fnc_texture[{}].{map}_{c}", i());
        }
    }
    // Type 2's OMAP (table 2 and table 24).
    match base {
        "OMAP_RED" | "OMAP_GREEN" | "OMAP_BLUE" | "OMAP_ALPHA" => {
            return format!("omap_target[{}].{lower}", i());
        }
        "OMAP_SAMPLE_MASK" | "OMAP_DEPTH" => return lower,
        _ => {}
    }
    // IMAP_xxx / OMAP_xxx: the system values and colours (tables 8 to 12, 14 to 17).
    let (map, rest) = lower.split_at(4);
    assert!(map == "imap" || map == "omap", "{name}: no rule maps it to a field");
    let rest = &rest[1..];
    let group = if rest.starts_with("tessellation_lod_") || rest.starts_with("tessellation_interior_") {
        "system_values_a"
    } else if ["primitive_id", "rt_array_index", "viewport_index", "point_size"].contains(&rest)
        || rest.starts_with("position_")
    {
        "system_values_b"
    } else if rest.starts_with("color_") {
        "color"
    } else {
        "system_values_c"
    };
    format!("{map}_{group}.{lower}")
}

#[test]
fn the_mapping_spells_the_spec_s_paths() {
    assert_eq!(leaf_path("SPH_TYPE"), "common_word0.sph_type");
    assert_eq!(leaf_path("STORE_REQ_END"), "common_word4.store_req_end");
    assert_eq!(leaf_path("GENERIC_IMAP_X(0)"), "imap_generic_vector[0].imap_x");
    assert_eq!(leaf_path("TEX_OMAP_Q(9)"), "omap_fixed_fnc_texture[9].omap_q");
    assert_eq!(leaf_path("OMAP_ALPHA(7)"), "omap_target[7].omap_alpha");
    assert_eq!(leaf_path("OMAP_DEPTH"), "omap_depth");
    assert_eq!(leaf_path("IMAP_TESSELLATION_LOD_LEFT"), "imap_system_values_a.imap_tessellation_lod_left");
    assert_eq!(leaf_path("OMAP_POSITION_W"), "omap_system_values_b.omap_position_w");
    assert_eq!(leaf_path("IMAP_COLOR_FRONT_DIFFUSE_RED"), "imap_color.imap_color_front_diffuse_red");
    assert_eq!(leaf_path("IMAP_COLOR_SPECULAR_ALPHA"), "imap_color.imap_color_specular_alpha");
    assert_eq!(leaf_path("OMAP_CLIP_DISTANCE7"), "omap_system_values_c.omap_clip_distance7");
    assert_eq!(leaf_path("IMAP_VERTEX_ID"), "imap_system_values_c.imap_vertex_id");
}

// ---- Paths into a Value ----------------------------------------------------------------------

enum Step {
    Field(String),
    Index(usize),
}

/// `a.b[3].c` as steps: field a, field b, element 3, field c.
fn steps(path: &str) -> Vec<Step> {
    let mut out = Vec::new();
    for part in path.split('.') {
        match part.split_once('[') {
            Some((name, index)) => {
                out.push(Step::Field(name.to_string()));
                out.push(Step::Index(index.trim_end_matches(']').parse().expect("index")));
            }
            None => out.push(Step::Field(part.to_string())),
        }
    }
    out
}

fn at_mut<'a>(v: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let Some((first, rest)) = path.split_first() else { return Some(v) };
    let next = match (first, v) {
        (Step::Field(name), Value::Struct(fields)) => {
            &mut fields.iter_mut().find(|f| f.0 == name.as_str())?.1
        }
        (Step::Index(i), Value::Array(items)) => items.get_mut(*i)?,
        _ => return None,
    };
    at_mut(next, rest)
}

/// Every leaf (not a struct or array) of a value, by dotted path.
fn leaves(v: &Value, path: &str, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Struct(fields) => {
            for (name, x) in fields {
                let p = if path.is_empty() { name.to_string() } else { format!("{path}.{name}") };
                leaves(x, &p, out);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                leaves(x, &format!("{path}[{i}]"), out);
            }
        }
        other => out.push((path.to_string(), other.clone())),
    }
}

// ---- Bits ------------------------------------------------------------------------------------

fn bit(words: &[u32; 20], b: u32) -> bool {
    (words[(b / 32) as usize] >> (b % 32)) & 1 == 1
}

fn set_bit(words: &mut [u32; 20], b: u32) {
    words[(b / 32) as usize] |= 1 << (b % 32);
}

/// Bits hi..=lo of the header as a number.
fn field_bits(words: &[u32; 20], hi: u32, lo: u32) -> u64 {
    (lo..=hi).rev().fold(0, |acc, b| (acc << 1) | u64::from(bit(words, b)))
}

/// The bits that differ between two headers.
fn changed_bits(a: &[u32; 20], b: &[u32; 20]) -> Vec<u32> {
    (0..640).filter(|&x| bit(a, x) != bit(b, x)).collect()
}

// ---- Enum values (the document's enum tables; table 13 for PixelImap) ------------------------

const SHADER_TYPE: &[(&str, u64)] =
    &[("VERTEX", 1), ("TESSELLATION_INIT", 2), ("TESSELLATION", 3), ("GEOMETRY", 4), ("PIXEL", 5)];
const OUTPUT_TOPOLOGY: &[(&str, u64)] = &[("POINTLIST", 1), ("LINESTRIP", 6), ("TRIANGLESTRIP", 7)];
const PIXEL_IMAP: &[(&str, u64)] =
    &[("UNUSED", 0), ("CONSTANT", 1), ("PERSPECTIVE", 2), ("SCREEN_LINEAR", 3)];

/// The values of the enum a leaf holds, chosen by the field's name.
fn enum_values(path: &str) -> &'static [(&'static str, u64)] {
    if path.ends_with(".shader_type") {
        SHADER_TYPE
    } else if path.ends_with(".output_topology") {
        OUTPUT_TOPOLOGY
    } else {
        PIXEL_IMAP
    }
}

// ---- The tests -------------------------------------------------------------------------------

/// Sets the leaf `path` of header `base` to `new` through `value()`/`from_value()` and asserts
/// that only bits hi..=lo changed and that they hold `expect`.
fn assert_sets(base: &Sph, d: &Define, path: &str, new: Value, expect: u64) {
    let mut v = base.value();
    let slot =
        at_mut(&mut v, &steps(path)).unwrap_or_else(|| panic!("{} {}: no field `{path}`", d.ty, d.name));
    *slot = new.clone();
    let h = Sph::from_value(&v).unwrap_or_else(|e| panic!("{} {} = {new:?}: {e:?}", d.ty, d.name));
    let (before, after) = (base.to_words(), h.to_words());
    let outside: Vec<u32> =
        changed_bits(&before, &after).into_iter().filter(|b| !(d.lo..=d.hi).contains(b)).collect();
    assert!(
        outside.is_empty(),
        "{} {} ({path} = {new:?}) changed bits {outside:?} outside {}:{}",
        d.ty,
        d.name,
        d.hi,
        d.lo
    );
    assert_eq!(
        field_bits(&after, d.hi, d.lo),
        expect,
        "{} {} ({path} = {new:?}) at {}:{}",
        d.ty,
        d.name,
        d.hi,
        d.lo
    );
}

#[test]
fn every_define_is_a_field_at_its_bits() {
    let mut checked = 0;
    for d in defines().iter().filter(|d| !is_reserved(d.name)) {
        let base = zero_header(d.ty);
        let path = leaf_path(d.name);
        let width = d.hi - d.lo + 1;
        let mut v = base.value();
        let current = at_mut(&mut v, &steps(&path))
            .unwrap_or_else(|| panic!("{} {}: the header has no field `{path}`", d.ty, d.name))
            .clone();
        match current {
            // The tag: type 1 headers hold VTG (1) there, type 2 headers PS (2).
            _ if path == "common_word0.sph_type" => {
                let (name, raw) = if d.ty == "T1" { ("VTG", 1) } else { ("PS", 2) };
                assert_eq!(current, Value::Enum(name), "{}", d.ty);
                assert_eq!(field_bits(&base.to_words(), d.hi, d.lo), raw, "{}", d.ty);
            }
            Value::Bool(false) => {
                assert_eq!(width, 1, "{} {}: a bool is one bit", d.ty, d.name);
                assert_sets(&base, d, &path, Value::Bool(true), 1);
            }
            Value::Uint(0) => {
                let ones = (1u64 << width) - 1;
                assert_sets(&base, d, &path, Value::Uint(ones), ones);
            }
            Value::Enum(_) | Value::Variant(..) => {
                for &(name, raw) in enum_values(&path) {
                    assert!(raw < (1 << width), "{} {}: {name} fits", d.ty, d.name);
                    assert_sets(&base, d, &path, Value::Enum(name), raw);
                }
            }
            other => panic!("{} {}: `{path}` is {other:?} in the zero header", d.ty, d.name),
        }
        checked += 1;
    }
    assert!(checked > 650, "{checked}");
}

/// The header's reserved defines (RESERVED_COMMON_A/B/C, type 2's RESERVED) are reserved in the
/// spec: kept as they are by `from_words`/`to_words`, no field of `value()` but one of its
/// reserved members, given back by `from_value`, and written as zero by `from_value` when the
/// value leaves the reserved members out.
#[test]
fn reserved_defines_are_reserved() {
    let mut checked = 0;
    for d in defines().iter().filter(|d| is_reserved(d.name)) {
        let base = zero_header(d.ty);
        let mut words = base.to_words();
        for b in d.lo..=d.hi {
            set_bit(&mut words, b);
        }
        let h = Sph::from_words(words).unwrap_or_else(|e| panic!("{} {}: {e:?}", d.ty, d.name));
        assert_eq!(h.to_words(), words, "{} {}: reserved bits are kept", d.ty, d.name);
        assert_eq!(
            without_reserved_members(&h.value()),
            without_reserved_members(&base.value()),
            "{} {}: reserved bits are no field",
            d.ty,
            d.name
        );
        assert_ne!(h.value(), base.value(), "{} {}: a reserved member shows them", d.ty, d.name);
        let rebuilt = Sph::from_value(&h.value()).expect("from_value");
        assert_eq!(rebuilt.to_words(), words, "{} {}: from_value gives them back", d.ty, d.name);
        let rebuilt = Sph::from_value(&without_reserved_members(&h.value())).expect("from_value");
        assert_eq!(rebuilt.to_words(), base.to_words(), "{} {}: from_value writes zeros", d.ty, d.name);
        checked += 1;
    }
    // 5 + 1 + 4 in each type's common words, and type 2's 30 bits from 610.
    assert_eq!(checked, 2 * 10 + 30);
}

/// The fields the document has and cla097sph.h does not: table 11's "Reserved" bool and table
/// 17's OmapSystemValuesReserved17, at the bit between FogCoordinate and
/// TessellationEvaluationPointU.
const DOCUMENT_ONLY: [(&str, &str, u32); 3] = [
    ("T1", "imap_system_values_c.reserved", 347),
    ("T1", "omap_system_values_c.omap_system_values_reserved17", 587),
    ("T2", "imap_system_values_c.reserved", 475),
];

/// Every field of `value()` is named by a define, except the document-only ones (the reserved
/// members of `value()` are no fields).
#[test]
fn every_field_has_a_define() {
    let all = defines();
    for ty in ["T1", "T2"] {
        let mapped: Vec<String> =
            all.iter().filter(|d| d.ty == ty && !is_reserved(d.name)).map(|d| leaf_path(d.name)).collect();
        let mut found = Vec::new();
        leaves(&without_reserved_members(&zero_header(ty).value()), "", &mut found);
        let unmapped: Vec<&str> =
            found.iter().map(|(p, _)| p.as_str()).filter(|p| !mapped.iter().any(|m| m == p)).collect();
        let expected: Vec<&str> = DOCUMENT_ONLY.iter().filter(|x| x.0 == ty).map(|x| x.1).collect();
        assert_eq!(unmapped, expected, "{ty}");
        assert_eq!(found.len(), mapped.len() + expected.len(), "{ty}: one field per define");
    }
}

#[test]
fn document_only_fields_at_their_bits() {
    for (ty, path, b) in DOCUMENT_ONLY {
        let d = Define { ty, name: path, hi: b, lo: b };
        assert_sets(&zero_header(ty), &d, path, Value::Bool(true), 1);
    }
}

/// The bits that no define and no document-only field names are reserved in the spec (the
/// document's Reserved rows of tables 8 and 14, and ImapReserved/OmapReserved of tables 1
/// and 2): setting one changes no field, only a reserved member.
#[test]
fn the_other_bits_are_reserved() {
    let all = defines();
    for ty in ["T1", "T2"] {
        let base = zero_header(ty);
        let named = |b: u32| {
            all.iter().any(|d| d.ty == ty && (d.lo..=d.hi).contains(&b))
                || DOCUMENT_ONLY.iter().any(|x| x.0 == ty && x.2 == b)
        };
        let free: Vec<u32> = (0..640).filter(|&b| !named(b)).collect();
        for &b in &free {
            let mut words = base.to_words();
            set_bit(&mut words, b);
            let h = Sph::from_words(words).unwrap_or_else(|e| panic!("{ty} bit {b}: {e:?}"));
            assert_eq!(
                without_reserved_members(&h.value()),
                without_reserved_members(&base.value()),
                "{ty}: bit {b} belongs to no field"
            );
            assert_eq!(h.to_words(), words, "{ty}: bit {b} is kept");
            assert_eq!(
                Sph::from_value(&h.value()).map(|x| x.to_words()),
                Ok(words),
                "{ty}: bit {b} comes back"
            );
        }
        // Type 1: 160..=163, 170..=183 and the same in the OMAP from 400; 392..=399; 632..=639.
        // Type 2: 160..=163, 170..=183; 560..=575.
        assert_eq!(free.len(), if ty == "T1" { 2 * 18 + 8 + 8 } else { 18 + 16 }, "{ty}: {free:?}");
    }
}

/// The issue's examples: type 1's input map from bit 160 and output map from bit 400, type 2's
/// render-target outputs from bit 576.
#[test]
fn the_maps_start_where_the_issue_says() {
    let find = |ty: &str, name: &str| {
        defines().into_iter().find(|d| d.ty == ty && d.name == name).unwrap_or_else(|| panic!("{ty} {name}"))
    };
    assert_eq!(find("T1", "IMAP_TESSELLATION_LOD_LEFT").lo, 164, "table 8: 4 reserved bits from 160");
    assert_eq!(find("T1", "OMAP_TESSELLATION_LOD_LEFT").lo, 404, "table 14: 4 reserved bits from 400");
    assert_eq!(find("T2", "OMAP_RED(0)").lo, 576);
    assert_eq!(find("T1", "GENERIC_OMAP_X(0)").lo, 432);
    assert_eq!(find("T2", "GENERIC_IMAP_W(31)").hi, 447);
}
