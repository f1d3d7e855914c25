//! The Apple AGX ABI of non-monolithic programs (seed 000, Mesa's `src/asahi/compiler/README.md`)
//! through the generated `agx` module: every member's place for every parameter value the
//! layouts take, against the seed's formulas (in 16-bit units: attribute bases at 4i, clamps at
//! 4n + 2i, base vertex 6n, base instance 6n + 2, draw ID 6n + 4, input assembly 6n + 8; totals
//! 6n + 5 and 6n + 12), and the worked values the issue names.

use isa_generated::agx::{
    FragmentEpilogUniforms, FragmentInputs, FragmentOutputs, SpecialRegisters, VertexPrologUniforms,
    VertexRegisters, ABI, GPR_HALF, UNIFORM_HALF,
};
use isa_runtime::abi::{ParamError, Place, ViewError};

/// `length` 16-bit units from unit `offset`, in bits.
fn halves(offset: u32, length: u32) -> Place {
    Place { offset: 16 * offset, width: 16 * length }
}

#[test]
fn vertex_prolog_uniforms_follow_the_seed_for_every_n() {
    for n in 0..=32u8 {
        for compute in [false, true] {
            let l = VertexPrologUniforms::new(n, compute).expect("n is in range");
            let n32 = u32::from(n);
            let total = if compute { 6 * n32 + 12 } else { 6 * n32 + 5 };
            assert_eq!(l.size(), total, "n = {n}, compute = {compute}");
            assert_eq!(l.size_bits(), 16 * total);
            assert_eq!(l.attrib_base_count(), n32);
            for i in 0..n32 {
                assert_eq!(l.attrib_base(i), Some(halves(4 * i, 4)), "base {i} of {n}");
                assert_eq!(l.attrib_clamp(i), Some(halves(4 * n32 + 2 * i, 2)), "clamp {i} of {n}");
            }
            assert_eq!(l.attrib_base(n32), None, "no attribute past the last");
            assert_eq!(l.base_vertex(), halves(6 * n32, 2));
            assert_eq!(l.base_instance(), halves(6 * n32 + 2, 2));
            assert_eq!(l.draw_id(), halves(6 * n32 + 4, 1));
            assert_eq!(l.input_assembly(), compute.then(|| halves(6 * n32 + 8, 4)));
            // Nothing overlaps, and the members end where the layout does.
            let mut places: Vec<Place> = l.members().iter().map(|m| m.place).collect();
            places.sort_by_key(|p| p.offset);
            for pair in places.windows(2) {
                assert!(pair[0].offset + pair[0].width <= pair[1].offset, "{pair:?}");
            }
            let end = places.last().map_or(0, |p| p.offset + p.width);
            assert_eq!(end, l.size_bits(), "n = {n}, compute = {compute}");
        }
    }
}

#[test]
fn worked_values_of_the_issue() {
    // n = 3: 23 slots for a hardware vertex shader, 30 for a hardware compute shader.
    assert_eq!(VertexPrologUniforms::new(3, false).map(|l| l.size()), Ok(23));
    assert_eq!(VertexPrologUniforms::new(3, true).map(|l| l.size()), Ok(30));
    let l = VertexPrologUniforms::new(3, true).expect("in range");
    assert_eq!(UNIFORM_HALF.name(l.draw_id()), "u11l");
    assert_eq!(l.input_assembly().map(|p| UNIFORM_HALF.name(p)).as_deref(), Some("u13_u14"));
    // Attribute 2 is the vector r16..r19.
    let v = VertexRegisters::new(3).expect("in range");
    let attribute = v.attribute(2).expect("three attributes");
    assert_eq!(GPR_HALF.name(attribute), "r16_r17_r18_r19");
    assert_eq!(attribute, Place { offset: 16 * 32, width: 128 });
    assert_eq!(GPR_HALF.name(v.vertex_id()), "r5");
    assert_eq!(GPR_HALF.name(v.instance_id()), "r6");
    // 30 attributes fit without spilling: the last one ends at r127.
    let full = VertexRegisters::new(30).expect("in range");
    assert_eq!(full.attribute(29).map(|p| GPR_HALF.name(p)).as_deref(), Some("r124_r125_r126_r127"));
    // Render target 1's colour starts at r8 (also the dual-source colour).
    let f = FragmentOutputs::new(2, true, true, true, true).expect("in range");
    assert_eq!(f.colour(1).map(|p| GPR_HALF.name(p)).as_deref(), Some("r8_r9_r10_r11"));
    assert_eq!(f.colour(0).map(|p| GPR_HALF.name(p)).as_deref(), Some("r4_r5_r6_r7"));
    assert_eq!(f.depth().map(|p| GPR_HALF.name(p)).as_deref(), Some("r2"));
    assert_eq!(f.stencil().map(|p| GPR_HALF.name(p)).as_deref(), Some("r3l"));
    assert_eq!(f.emitted_sample_mask().map(|p| GPR_HALF.name(p)).as_deref(), Some("r3h"));
    assert_eq!(f.nesting_counter().map(|p| GPR_HALF.name(p)).as_deref(), Some("r0l"));
    assert_eq!(f.sample_mask().map(|p| GPR_HALF.name(p)).as_deref(), Some("r0h"));
}

#[test]
fn conditional_members_are_absent_without_their_condition() {
    let f = FragmentOutputs::new(1, false, false, false, false).expect("in range");
    assert_eq!((f.nesting_counter(), f.sample_mask(), f.depth(), f.stencil()), (None, None, None, None));
    assert_eq!(f.emitted_sample_mask(), None);
    let names: Vec<String> = f.members().into_iter().map(|m| m.name).collect();
    assert_eq!(names, ["colour[0]"]);
    assert_eq!(f.size(), 16, "r0..r7 in halves");
    let inputs = FragmentInputs::new(false).expect("bool");
    assert_eq!((inputs.size(), inputs.members().len()), (0, 0), "no inputs without sample shading");
    let inputs = FragmentInputs::new(true).expect("bool");
    assert_eq!(inputs.sample_mask().map(|p| GPR_HALF.name(p)).as_deref(), Some("r0h"));
}

#[test]
fn fixed_registers_and_uniforms() {
    let s = SpecialRegisters::new().expect("no parameters");
    assert_eq!(GPR_HALF.name(s.nesting_counter()), "r0l");
    assert_eq!(GPR_HALF.name(s.link()), "r1");
    let u = FragmentEpilogUniforms::new().expect("no parameters");
    assert_eq!(UNIFORM_HALF.name(u.render_target_heap()), "u0_u1");
    let blend: Vec<String> =
        (0..4).filter_map(|i| u.blend_constant(i)).map(|p| UNIFORM_HALF.name(p)).collect();
    assert_eq!(blend, ["u2", "u3", "u4", "u5"]);
    assert_eq!(UNIFORM_HALF.name(u.root_descriptor()), "u6_u7");
}

#[test]
fn parameters_out_of_range_are_typed_errors() {
    let e = VertexPrologUniforms::new(33, false).expect_err("33 attributes are too many");
    assert!(matches!(e, ParamError::OutOfRange { value: 33, .. }), "{e:?}");
    assert_eq!(e.to_string(), "VertexPrologUniforms: `n` = 33 is out of range 0..=32");
    assert!(VertexRegisters::new(31).is_err(), "30 attributes without spilling");
    assert!(FragmentOutputs::new(9, false, false, false, false).is_err());
}

#[test]
fn the_generic_face_places_by_name() {
    let layout = ABI.layout("VertexPrologUniforms").expect("listed");
    let placed = layout.place_named(&[("n", 3), ("compute", 1)]).expect("in range");
    assert_eq!(placed.size, 30 * 16);
    let last = placed.members.last().expect("members");
    assert_eq!((last.name.as_str(), last.place), ("input_assembly", halves(26, 4)));
    assert!(matches!(layout.place_named(&[("n", 3)]), Err(ParamError::Missing { .. })));
    assert!(matches!(layout.place_named(&[("n", 3), ("compute", 2)]), Err(ParamError::OutOfRange { .. })));
    assert!(matches!(
        layout.place_named(&[("n", 3), ("compute", 0), ("m", 1)]),
        Err(ParamError::Unknown { .. })
    ));
    let names: Vec<&str> = ABI.layouts.iter().map(|l| l.name()).collect();
    assert_eq!(
        names,
        [
            "SpecialRegisters",
            "VertexPrologUniforms",
            "VertexRegisters",
            "FragmentInputs",
            "FragmentOutputs",
            "FragmentEpilogUniforms"
        ]
    );
}

/// A view of the values in a buffer sized at run time (16-bit uniform slot `k` is bytes 2k and
/// 2k + 1, low byte first): each setter writes the slots the seed gives the member, each getter
/// reads them back, and `check` and the setters refuse what does not fit.
#[test]
fn views_read_and_write_the_values_where_the_seed_places_them() {
    let n = 3u32;
    let layout = VertexPrologUniforms::new(3, true).expect("in range");
    let slots = 6 * n + 12;
    let mut buffer = vec![0u8; 2 * slots as usize];
    let mut view = layout.view(&mut buffer[..]).expect("30 slots fit");
    for i in 0..n {
        view.set_attrib_base(i, 0x1111_2222_3333_0000 + u64::from(i)).expect("element");
        view.set_attrib_clamp(i, 0x4000 + i).expect("element");
    }
    view.set_base_vertex(7).expect("fits");
    view.set_base_instance(9).expect("fits");
    view.set_draw_id(0xabcd).expect("fits");
    view.set_input_assembly(0x8000_0000_1234).expect("compute has it");
    assert_eq!(view.check(), Ok(()));
    assert_eq!(view.attrib_base(2), Some(0x1111_2222_3333_0002));
    assert_eq!(
        (view.attrib_clamp(1), view.draw_id(), view.input_assembly()),
        (Some(0x4001), 0xabcd, Some(0x8000_0000_1234))
    );
    assert_eq!(
        view.set_attrib_base(3, 0),
        Err(ViewError::NoElement {
            layout: "VertexPrologUniforms",
            member: "attrib_base",
            index: 3,
            count: 3
        })
    );
    // The bytes, slot by slot: the seed's places (draw ID in slot 6n + 4, input assembly from
    // slot 6n + 8, attribute 1's clamp in slots 4n + 2 and 4n + 3), low half first.
    let slot = |k: u32| u16::from_le_bytes([buffer[2 * k as usize], buffer[2 * k as usize + 1]]);
    assert_eq!(slot(6 * n + 4), 0xabcd);
    assert_eq!(
        [slot(6 * n + 8), slot(6 * n + 9), slot(6 * n + 10), slot(6 * n + 11)],
        [0x1234, 0, 0x8000, 0]
    );
    assert_eq!([slot(4 * n + 2), slot(4 * n + 3)], [0x4001, 0]);
    assert_eq!([slot(8), slot(9), slot(10), slot(11)], [0x0002, 0x3333, 0x2222, 0x1111]);
    assert_eq!([slot(6 * n), slot(6 * n + 2)], [7, 9]);

    // A vertex shader has no input-assembly pointer; a buffer one slot short is refused.
    let vertex = VertexPrologUniforms::new(3, false).expect("in range");
    let mut short = [0u8; 2 * 22];
    assert_eq!(
        vertex.view(&mut short[..]).err(),
        Some(ViewError::TooShort { layout: "VertexPrologUniforms", needed: 46, available: 44 })
    );
    let mut exact = [0u8; 2 * 23];
    let mut view = vertex.view(&mut exact[..]).expect("23 slots");
    assert_eq!(view.input_assembly(), None);
    assert_eq!(
        view.set_input_assembly(1),
        Err(ViewError::Absent { layout: "VertexPrologUniforms", member: "input_assembly" })
    );

    // Registers: render target 1's colour is r8..r11 (bytes 32..48 of the register file).
    let outputs = FragmentOutputs::new(2, false, true, false, false).expect("in range");
    let mut registers = [0u8; 4 * 12];
    let mut view = outputs.view(&mut registers[..]).expect("r0..r11");
    view.set_colour(1, 0x0403_0201_u128 | 0x0d0c_0b0a_u128 << 96).expect("element");
    view.set_depth(0x3f80_0000).expect("writes depth");
    let r = |k: usize| {
        u32::from_le_bytes([
            registers[4 * k],
            registers[4 * k + 1],
            registers[4 * k + 2],
            registers[4 * k + 3],
        ])
    };
    assert_eq!([r(8), r(9), r(10), r(11), r(2)], [0x0403_0201, 0, 0, 0x0d0c_0b0a, 0x3f80_0000]);
}
