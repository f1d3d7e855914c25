//! The Tegra vertex target (`isa-specs/tegra_vs.isa`) on grate's own test programs
//! (grate-driver/grate `tests/grate/asm/vs_*.txt` and the vertex shaders of its tests, copied
//! to `tests/data/tegra/` with grate's licence): every one assembles, and the words grate's
//! assembler makes for them (facts-tegra-agx.md A.3, derived from `vpe_vliw.h` and
//! `vertex_asm.y`) come out, part3 (bits 127:96) first.

use isa_generated::tegra_vs::TegraVs;
use isa_runtime::target::{assemble_program, disassemble_program};

/// The 15 vertex programs.
const PROGRAMS: &[&str] = &[
    "cube2_vs.txt",
    "filter_quad_vs.txt",
    "sky_vs.txt",
    "stencil_test_vs.txt",
    "texture_wrap_vs.txt",
    "vs_attribute_relative_addressing.txt",
    "vs_branching.txt",
    "vs_constant.txt",
    "vs_constant_relative_addressing.txt",
    "vs_export_relative_addressing.txt",
    "vs_function.txt",
    "vs_mov.txt",
    "vs_predicate.txt",
    "vs_stack.txt",
    "vs_uniform.txt",
];

fn program(name: &str) -> String {
    let path = format!("{}/data/tegra/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn words(name: &str) -> Vec<u128> {
    assemble_program::<TegraVs>(&program(name), 0).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

#[test]
fn every_vertex_program_assembles() {
    for name in PROGRAMS {
        let w = words(name);
        eprintln!("{name}");
        for (word, line) in w.iter().zip(disassemble_program::<TegraVs>(&w, 0)) {
            eprintln!("  {word:032x}  {}", line.text);
        }
    }
}

/// grate's words for `vs_mov.txt` (facts A.3): the second instruction carries the end bit the
/// assembler sets on the last instruction.
#[test]
fn vs_mov_is_grates_words() {
    assert_eq!(
        words("vs_mov.txt"),
        [0x4000006c_0040000d_8106c003_6001ff80, 0x4000006c_0040010d_8106c003_6001ff9d]
    );
}

/// grate's words for `vs_function.txt` (facts A.3): CAL's target in the rC swizzle bits, A0 as
/// ARL's destination (rD 0), relative attribute addressing, RET taking the vector rD (63) and
/// a left-out scalar operation leaving its rD at 0.
#[test]
fn vs_function_is_grates_words() {
    assert_eq!(
        words("vs_function.txt"),
        [
            0x0000086c_5b44d00d_8186c000_40019ffc,
            0x481f806c_0040020d_8106c003_6001e001,
            0x481f886d_6040050d_8106c003_6001ff9c,
            0x001f806c_0000000d_8006c003_60001ffd,
        ]
    );
}
