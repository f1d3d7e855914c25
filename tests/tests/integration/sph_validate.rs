//! The rules of NVIDIA's Shader Program Header document as `sph.isa`'s constraints: every
//! constraint with headers that keep it and a header that breaks it, asserting the rule's name
//! and the fields it names.
//!
//! The headers are the ones Mesa's nvc0 driver writes (facts C.5; `nvc0_program.c`):
//! vertex `hdr[0] = 0x20461`, tessellation init `0x20061 | 2 << 10`, tessellation
//! `0x20061 | 3 << 10`, geometry `0x20061 | 4 << 10` with the stream-out mask, fragment
//! `0x21462`; `hdr[4] = 0xff000` (StoreReqStart 0xff > StoreReqEnd 0: no range) for the
//! vertex and tessellation stages.

use isa_generated::sph::Sph;

/// A header from its first five words (the maps are zero).
fn header(common: [u32; 5]) -> Sph {
    let mut words = [0u32; 20];
    words[..5].copy_from_slice(&common);
    Sph::from_words(words).unwrap_or_else(|e| panic!("{common:08x?} decodes: {e:?}"))
}

/// The rules a header breaks, sorted.
fn broken(common: [u32; 5]) -> Vec<&'static str> {
    let violations = header(common).check();
    for v in &violations {
        assert!(!v.message.is_empty(), "{v:?} carries the document's rule");
        assert!(!v.fields.is_empty(), "{v:?} names its fields");
    }
    let mut rules: Vec<&'static str> = violations.iter().map(|v| v.rule).collect();
    rules.sort_unstable();
    rules
}

/// Asserts that the header breaks exactly `rule`, and that the violation names `fields` (the
/// dotted paths the constraint reads, in any order).
fn breaks(common: [u32; 5], rule: &str, fields: &[&str]) {
    let violations = header(common).check();
    let rules: Vec<&str> = violations.iter().map(|v| v.rule).collect();
    assert_eq!(rules, [rule], "{common:08x?}: {violations:?}");
    let mut named: Vec<&str> = violations[0].fields.to_vec();
    named.sort_unstable();
    let mut expected = fields.to_vec();
    expected.sort_unstable();
    assert_eq!(named, expected, "{rule}: the fields it reads");
}

// Word 0 of each stage (nvc0): SphType, Version 3, ShaderType, SassVersion 1.
const VS: u32 = 0x0002_0461;
const TCS: u32 = 0x0002_0061 | (2 << 10);
const TES: u32 = 0x0002_0061 | (3 << 10);
const GS: u32 = 0x0002_0061 | (4 << 10);
const FS: u32 = 0x0002_1462;
/// MrtEnable (bit 14) and KillsPixels (bit 15).
const MRT: u32 = 1 << 14;
const KILL: u32 = 1 << 15;
/// StoreReqStart 0xff, StoreReqEnd 0: no attribute range (nvc0's vertex and tessellation
/// headers).
const NO_STORE_REQ: u32 = 0xff << 12;

/// Word 3 with ShaderLocalMemoryCrsSize `crs` and OutputTopology `topology`.
const fn word3(crs: u32, topology: u32) -> u32 {
    crs | (topology << 24)
}

/// Word 4 with MaxOutputVertexCount, StoreReqStart and StoreReqEnd.
const fn word4(max_vertices: u32, start: u32, end: u32) -> u32 {
    max_vertices | (start << 12) | (end << 24)
}

/// A geometry shader as nvc0 writes it: stream 0 on, `invocations` threads per primitive,
/// triangle strips of at most `max` vertices.
const fn geometry(invocations: u32, max: u32) -> [u32; 5] {
    [GS | (1 << 28), 0, invocations << 24, word3(0, 7), word4(max, 0, 0)]
}

const SHADER_TYPE: &str = "common_word0.shader_type";

#[test]
fn word_0_as_the_drivers_write_it() {
    assert_eq!(VS, 0x0002_0461, "the issue's vertex shader word 0");
    assert_eq!(GS, 0x0002_1061);
    let h = header([FS, 0, 0, 0, 0]);
    assert!(matches!(h, Sph::SphType2(_)), "nvc0's fragment shader is type 2");
    assert!(matches!(header([VS, 0, 0, 0, 0]), Sph::SphType1(_)));
}

/// nvc0's and NAK's headers of every stage keep every rule.
#[test]
fn real_headers_keep_every_rule() {
    let headers: [(&str, [u32; 5]); 9] = [
        ("vertex", [VS, 0, 0, 0, NO_STORE_REQ]),
        ("vertex, attributes 0..=31 stored back", [VS, 0, 0, 0, word4(0, 0, 31)]),
        // 6 + 4 * 2 per-patch attributes, 3 threads per patch.
        ("tessellation init", [TCS, 14 << 24, 3 << 24, 0, NO_STORE_REQ]),
        ("tessellation", [TES, 0, 0, 0, NO_STORE_REQ]),
        ("geometry", geometry(1, 4)),
        ("geometry, points on four streams", [GS | (0xf << 28), 0, 32 << 24, word3(0, 1), word4(1024, 0, 0)]),
        ("fragment (nvc0)", [FS, 0, 0, 0, 0]),
        ("fragment with MRT and kill (NAK)", [0x0002_5462 | KILL, 0, 0, 0, 0]),
        (
            "fragment with a call/return stack and no store range",
            [FS | MRT, 0, 0, word3(0x8000, 0), NO_STORE_REQ],
        ),
    ];
    for (what, common) in headers {
        assert_eq!(broken(common), Vec::<&str>::new(), "{what}: {common:08x?}");
    }
}

/// Every constraint of `sph.isa` has a test here.
#[test]
fn every_constraint_is_tested() {
    let spec = include_str!("../../../isa-specs/sph.isa");
    let mut declared: Vec<&str> = spec
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("constraint "))
        .map(|rest| rest.split_whitespace().next().unwrap_or(""))
        .collect();
    declared.sort_unstable();
    let mut tested = vec![
        "sph_type_matches_shader_type",
        "crs_size_multiple_of_512",
        "crs_size_at_most_1mib",
        "geometry_output_topology",
        "geometry_max_output_vertex_count",
        "mrt_enable_pixel_only",
        "kills_pixels_pixel_only",
        "stream_out_mask_geometry_only",
        "per_patch_attribute_count_tessellation_init_only",
        "threads_per_input_primitive_unused",
        "output_topology_geometry_only",
        "max_output_vertex_count_geometry_only",
        "store_req_ignored",
    ];
    tested.sort_unstable();
    assert_eq!(declared, tested);
}

/// "SPH Overall Structure": PS is for pixel programs, VTG for every other one.
#[test]
fn sph_type_matches_shader_type() {
    let fields = ["common_word0.sph_type", SHADER_TYPE];
    // A vertex shader's header with SphType PS.
    breaks([0x0002_0462, 0, 0, 0, NO_STORE_REQ], "sph_type_matches_shader_type", &fields);
    // A pixel shader's header with SphType VTG.
    breaks([0x0002_1461, 0, 0, 0, 0], "sph_type_matches_shader_type", &fields);
    // Every non-pixel stage with VTG, PIXEL with PS.
    for w0 in [VS, TCS, TES, GS, FS] {
        let h = header([w0, 0, 0, 0, 0]);
        assert!(!h.check().iter().any(|v| v.rule == "sph_type_matches_shader_type"), "{w0:08x}");
    }
}

/// Table 6: ShaderLocalMemoryCrsSize, in bytes per warp, is a multiple of 512 and at most
/// 1 megabyte.
#[test]
fn crs_size() {
    let field = ["common_word3.shader_local_memory_crs_size"];
    for ok in [0, 512, 0x8000, 0x10_0000] {
        assert_eq!(broken([VS, 0, 0, word3(ok, 0), NO_STORE_REQ]), Vec::<&str>::new(), "{ok:#x}");
    }
    breaks([VS, 0, 0, word3(768, 0), NO_STORE_REQ], "crs_size_multiple_of_512", &field);
    breaks([FS, 0, 0, word3(16, 0), 0], "crs_size_multiple_of_512", &field);
    // 1 MiB + 512: a multiple of 512, too big.
    breaks([VS, 0, 0, word3(0x10_0200, 0), NO_STORE_REQ], "crs_size_at_most_1mib", &field);
    // The largest value the 24 bits hold breaks both.
    assert_eq!(
        broken([VS, 0, 0, word3(0xff_ffff, 0), NO_STORE_REQ]),
        ["crs_size_at_most_1mib", "crs_size_multiple_of_512"]
    );
}

/// Table 6: a geometry shader's OutputTopology is POINTLIST, LINESTRIP or TRIANGLESTRIP.
#[test]
fn geometry_output_topology() {
    let fields = [SHADER_TYPE, "common_word3.output_topology"];
    for topology in [1, 6, 7] {
        let mut gs = geometry(1, 4);
        gs[3] = word3(0, topology);
        assert_eq!(broken(gs), Vec::<&str>::new(), "{topology}");
    }
    // Left 0, and a value the document does not define (it decodes: the enum has a catch-all).
    for topology in [0, 3, 15] {
        let mut gs = geometry(1, 4);
        gs[3] = word3(0, topology);
        breaks(gs, "geometry_output_topology", &fields);
    }
}

/// Table 6's "greater than zero and ... a maximum of 1024" (printed under OutputTopology,
/// meaning table 7's MaxOutputVertexCount; nvc0 clamps it to 1..=1024).
#[test]
fn geometry_max_output_vertex_count() {
    let fields = [SHADER_TYPE, "common_word4.max_output_vertex_count"];
    for max in [1, 4, 1024] {
        assert_eq!(broken(geometry(1, max)), Vec::<&str>::new(), "{max}");
    }
    for max in [0, 1025, 0xfff] {
        breaks(geometry(1, max), "geometry_max_output_vertex_count", &fields);
    }
}

/// Table 3: MrtEnable is only used for pixel shaders.
#[test]
fn mrt_enable_pixel_only() {
    let fields = [SHADER_TYPE, "common_word0.mrt_enable"];
    assert_eq!(broken([FS | MRT, 0, 0, 0, 0]), Vec::<&str>::new());
    breaks([VS | MRT, 0, 0, 0, NO_STORE_REQ], "mrt_enable_pixel_only", &fields);
    let mut gs = geometry(1, 4);
    gs[0] |= MRT;
    breaks(gs, "mrt_enable_pixel_only", &fields);
}

/// Table 3: KillsPixels is only used for pixel shaders.
#[test]
fn kills_pixels_pixel_only() {
    let fields = [SHADER_TYPE, "common_word0.kills_pixels"];
    assert_eq!(broken([FS | KILL, 0, 0, 0, 0]), Vec::<&str>::new());
    breaks([TES | KILL, 0, 0, 0, NO_STORE_REQ], "kills_pixels_pixel_only", &fields);
    let mut gs = geometry(1, 4);
    gs[0] |= KILL;
    breaks(gs, "kills_pixels_pixel_only", &fields);
}

/// Table 3: StreamOutMask enables the geometry shader's output streams.
#[test]
fn stream_out_mask_geometry_only() {
    let fields = [SHADER_TYPE, "common_word0.stream_out_mask"];
    for mask in [0, 1, 0xf] {
        let mut gs = geometry(1, 4);
        gs[0] = GS | (mask << 28);
        assert_eq!(broken(gs), Vec::<&str>::new(), "{mask}");
    }
    breaks([VS | (1 << 28), 0, 0, 0, NO_STORE_REQ], "stream_out_mask_geometry_only", &fields);
    breaks([FS | (0xf << 28), 0, 0, 0, 0], "stream_out_mask_geometry_only", &fields);
}

/// Table 4: PerPatchAttributeCount is only used on tessellation init shaders.
#[test]
fn per_patch_attribute_count_tessellation_init_only() {
    let fields = [SHADER_TYPE, "common_word1.per_patch_attribute_count"];
    assert_eq!(broken([TCS, 0xff << 24, 0, 0, NO_STORE_REQ]), Vec::<&str>::new());
    breaks([TES, 8 << 24, 0, 0, NO_STORE_REQ], "per_patch_attribute_count_tessellation_init_only", &fields);
    breaks([VS, 1 << 24, 0, 0, NO_STORE_REQ], "per_patch_attribute_count_tessellation_init_only", &fields);
    // The local memory size in the same word is any stage's.
    assert_eq!(broken([VS, 0x00ff_fff0, 0, 0, NO_STORE_REQ]), Vec::<&str>::new());
}

/// Table 5: ThreadsPerInputPrimitive is unused for VERTEX, TESSELLATION and PIXEL.
#[test]
fn threads_per_input_primitive_unused() {
    let fields = [SHADER_TYPE, "common_word2.threads_per_input_primitive"];
    assert_eq!(broken([TCS, 0, 4 << 24, 0, NO_STORE_REQ]), Vec::<&str>::new());
    assert_eq!(broken(geometry(32, 4)), Vec::<&str>::new());
    breaks([VS, 0, 1 << 24, 0, NO_STORE_REQ], "threads_per_input_primitive_unused", &fields);
    breaks([TES, 0, 3 << 24, 0, NO_STORE_REQ], "threads_per_input_primitive_unused", &fields);
    breaks([FS, 0, 1 << 24, 0, 0], "threads_per_input_primitive_unused", &fields);
}

/// Table 6: OutputTopology is only used with geometry shaders.
#[test]
fn output_topology_geometry_only() {
    let fields = [SHADER_TYPE, "common_word3.output_topology"];
    breaks([VS, 0, 0, word3(0, 7), NO_STORE_REQ], "output_topology_geometry_only", &fields);
    breaks([FS, 0, 0, word3(0, 1), 0], "output_topology_geometry_only", &fields);
    // The CRS size in the same word is any stage's.
    assert_eq!(broken([TCS, 0, 0, word3(512, 0), NO_STORE_REQ]), Vec::<&str>::new());
}

/// Table 7: MaxOutputVertexCount is only used with geometry shaders.
#[test]
fn max_output_vertex_count_geometry_only() {
    let fields = [SHADER_TYPE, "common_word4.max_output_vertex_count"];
    breaks([VS, 0, 0, 0, NO_STORE_REQ | 4], "max_output_vertex_count_geometry_only", &fields);
    breaks([FS, 0, 0, 0, word4(1, 0, 0)], "max_output_vertex_count_geometry_only", &fields);
}

/// Table 7's note: StoreReqStart/End are ignored for geometry and pixel shaders, so a range
/// there is a mistake; StoreReqStart > StoreReqEnd (no range) and both zero are not.
#[test]
fn store_req_ignored() {
    let fields = [SHADER_TYPE, "common_word4.store_req_start", "common_word4.store_req_end"];
    // Where they are used, any range is fine.
    for w4 in [NO_STORE_REQ, word4(0, 0, 0), word4(0, 0, 31), word4(0, 4, 4)] {
        assert_eq!(broken([VS, 0, 0, 0, w4]), Vec::<&str>::new(), "{w4:08x}");
        assert_eq!(broken([TES, 0, 0, 0, w4]), Vec::<&str>::new(), "{w4:08x}");
    }
    // Geometry and pixel shaders: no range, or both zero.
    for (start, end) in [(0, 0), (0xff, 0), (5, 4)] {
        assert_eq!(broken([FS, 0, 0, 0, word4(0, start, end)]), Vec::<&str>::new(), "{start} {end}");
        let mut gs = geometry(1, 4);
        gs[4] = word4(4, start, end);
        assert_eq!(broken(gs), Vec::<&str>::new(), "{start} {end}");
    }
    // A range.
    breaks([FS, 0, 0, 0, word4(0, 0, 31)], "store_req_ignored", &fields);
    breaks([FS, 0, 0, 0, word4(0, 0xff, 0xff)], "store_req_ignored", &fields);
    let mut gs = geometry(1, 4);
    gs[4] = word4(4, 2, 2);
    breaks(gs, "store_req_ignored", &fields);
}

/// A header breaking several rules reports each, naming its own fields.
#[test]
fn several_violations_each_name_their_field() {
    // A vertex shader with MrtEnable, KillsPixels, 3 per-patch attributes and a topology.
    let h = header([VS | MRT | KILL, 3 << 24, 0, word3(0, 7), NO_STORE_REQ]);
    let mut found: Vec<(&str, &str)> = h
        .check()
        .iter()
        .map(|v| (v.rule, *v.fields.iter().find(|f| **f != SHADER_TYPE).expect("a field besides the stage")))
        .collect();
    found.sort_unstable();
    assert_eq!(
        found,
        [
            ("kills_pixels_pixel_only", "common_word0.kills_pixels"),
            ("mrt_enable_pixel_only", "common_word0.mrt_enable"),
            ("output_topology_geometry_only", "common_word3.output_topology"),
            ("per_patch_attribute_count_tessellation_init_only", "common_word1.per_patch_attribute_count"),
        ]
    );
}
