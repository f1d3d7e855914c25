//! ABI layouts (`check::abi`): typed parameters, units, conditional members, checked for every
//! parameter value; each mistake is a located diagnostic naming the values and registers.

use crate::common::{diagnose, spec};
use isa_compiler::check_source;
use isa_compiler::ir::AbiParamType;

const UNITS: &str = "unit half : 16 {\n    register \"r\", 32\n    halves \"l\", \"h\"\n}\n";

fn abi(body: &str) -> String {
    spec(&format!("{UNITS}{body}"))
}

#[test]
fn the_seed_vertex_uniforms_check_and_evaluate() {
    let t = check_source(&abi(
        "layout U(n: u8 in 0..=32, compute: bool) : half[if compute then 6 * n + 12 else 6 * n + 5] {
    base[n]: u64 @ 4 * i
    clamp[n]: u32 @ 4 * n + 2 * i
    base_vertex: u32 @ 6 * n
    base_instance: u32 @ 6 * n + 2
    draw_id: u16 @ 6 * n + 4
    if compute {
        unused @ 6 * n + 5 +: 3
        input_assembly: u64 @ 6 * n + 8
    }
}\n",
    ))
    .expect("checks");
    let l = &t.abi_layouts[0];
    assert_eq!(l.params[0].ty, AbiParamType::UInt { bits: 8, min: 0, max: 32 });
    assert_eq!(l.params[1].ty, AbiParamType::Bool);
    // n = 3: 23 slots, or 30 for compute.
    assert_eq!(l.size.eval(&[3, 0], 0), Some(23));
    assert_eq!(l.size.eval(&[3, 1], 0), Some(30));
    // clamp[1] of 3 attributes at 4n + 2i = 14, two slots long.
    assert_eq!(l.members[1].offset.eval(&[3, 0], 1), Some(14));
    assert_eq!(l.members[1].length.eval(&[3, 0], 1), Some(2));
    assert_eq!(l.members[6].when.as_ref().and_then(|w| w.eval(&[3, 0], 0)), Some(0));
    assert_eq!(l.members[6].when.as_ref().and_then(|w| w.eval(&[3, 1], 0)), Some(1));
}

#[test]
fn a_member_outside_for_some_values_names_them_and_the_registers() {
    let d = diagnose(&abi("layout U(n: u8 in 0..=4, compute: bool) : half[6 * n + 11] {
    draw_id: u16 @ 6 * n + 4
    if compute {
        input_assembly: u64 @ 6 * n + 8
    }
}\n"));
    assert!(
        d.contains("with n = 0, compute = true: `input_assembly` at r4_r5 lies outside the layout"),
        "{d}"
    );
    assert!(d.contains("the layout is 11 `half` units: r0l to r5l"), "{d}");
    assert!(d.contains("bad.isa:12:9"), "located at the member: {d}");
}

/// Found by the spec fuzzer (seed 20261125014, agx.isa mutated #4672): a member of
/// `2 * 0xffffffff` units hung the checker, which named every register of it in the error.
/// A range longer than 64 registers is given by its units.
#[test]
fn a_huge_member_outside_is_reported_at_once() {
    let d = diagnose(&abi("layout V(n: u8 in 0..=2) : half[2 * (8 + 4 * n)] {
    unused undefined @ 0 +: 2 * 0xffffffff
}\n"));
    assert!(
        d.contains("with n = 0: `undefined` at `half` units 0..8589934589 lies outside the layout"),
        "{d}"
    );
    // 64 registers are still named.
    let d = diagnose(&abi("layout W(n: u8 in 0..=0) : half[2] {\n    unused wide @ 0 +: 128\n}\n"));
    assert!(d.contains("at r0_r1_"), "{d}");
    assert!(d.contains("_r63 lies outside the layout"), "{d}");
}

#[test]
fn overlapping_members_are_reported_with_both() {
    let d = diagnose(&abi("layout F(depth: bool) : half[8] {
    colour: u32 @ 4
    if depth {
        z: u32 @ 5
    }
}\n"));
    assert!(d.contains("with depth = true: `z` at r2h_r3l overlaps `colour` at r2"), "{d}");
}

#[test]
fn parameters_need_types_and_ranges_that_fit() {
    let d = diagnose(&abi("layout A(n) : half[n] {\n}\n"));
    assert!(d.contains("parameter `n` has no type"), "{d}");
    let d = diagnose(&abi("layout A(n: u8 in 0..=300) : half[n] {\n}\n"));
    assert!(d.contains("`0..=300` is not a range of `u8` values"), "{d}");
    let d = diagnose(&abi("layout A(n: f32) : half[n] {\n}\n"));
    assert!(d.contains("`f32` is not a parameter type"), "{d}");
    let d = diagnose(&abi("layout A(a: u16, b: u16) : half[1] {\n}\n"));
    assert!(d.contains("more than 65536 parameter combinations"), "{d}");
}

#[test]
fn member_types_are_whole_units_and_names_are_known() {
    let d = diagnose(&abi("layout A : half[2] {\n    b: u8 @ 0\n}\n"));
    assert!(d.contains("`u8` is 8 bits: not a whole number of 16-bit `half` units"), "{d}");
    let d = diagnose(&abi("layout A(n: u4) : half[n] {\n    x: u16 @ m\n}\n"));
    assert!(d.contains("unknown name `m`"), "{d}");
    let d = diagnose(&abi("layout A(n: u4) : half[2 * n] {\n    x: u16 @ i\n}\n"));
    assert!(d.contains("`i` is the element of an array member"), "{d}");
    let d = diagnose(&abi("layout A : nibble[2] {\n}\n"));
    assert!(d.contains("unknown unit `nibble`"), "{d}");
    let d = diagnose(&abi("layout A(n: u4) : half[n] {\n    x: u16 @ 0 is 3\n}\n"));
    assert!(d.contains("an ABI layout has fields, `unused` ranges and `if` blocks only"), "{d}");
}

#[test]
fn units_name_every_part_of_a_register() {
    let d = diagnose(&spec("unit q : 8 {\n    register \"r\", 32\n    halves \"l\", \"h\"\n}\n"));
    assert!(d.contains("2 part names for a register of 4 units"), "{d}");
    let d = diagnose(&spec("unit q : 16 {\n    register \"r\", 24\n}\n"));
    assert!(d.contains("a register of unit `q` is a whole number of 16-bit units"), "{d}");
}

#[test]
fn a_size_that_goes_negative_is_reported() {
    let d = diagnose(&abi("layout A(n: u4) : half[n - 1] {\n}\n"));
    assert!(d.contains("with n = 0: the size is not a number of `half` units"), "{d}");
}

#[test]
fn names_are_distinct_and_free_for_the_generated_methods() {
    let d = diagnose(&abi("layout A(depth: bool) : half[4] {\n    depth: u32 @ 0\n}\n"));
    assert!(d.contains("`depth` is declared twice in `A`"), "{d}");
    let d = diagnose(&abi("layout A : half[4] {\n    size: u32 @ 0\n}\n"));
    assert!(d.contains("`size` is a name the generated layout uses"), "{d}");
    // The view's methods too: `check`, and a setter `set_<member>` per member.
    let d = diagnose(&abi("layout A : half[4] {\n    check: u32 @ 0\n    set_x: u16 @ 2\n}\n"));
    assert!(d.contains("`check` is a name the generated layout uses"), "{d}");
    assert!(d.contains("`set_x` is a name the generated layout uses"), "{d}");
}
