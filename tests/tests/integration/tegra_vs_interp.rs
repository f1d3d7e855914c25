//! The generated Tegra vertex interpreter (`tegra_vs.isa`'s machine and execute block) running
//! programs in grate's syntax on given attributes and constants. Expected exports are computed
//! here from the inputs (a matrix product, the programs' own comments), never read from the
//! interpreter.
//!
//! State layout: `state.attribute[i][lane]`, `state.constant[i][lane]`, `state.export[i][lane]`
//! and `state.r[i][lane]` hold the 32-bit patterns of the components, lane 0 being x.

use isa_generated::tegra_vs::{Instruction, Machine, Semantics, TegraVs};
use isa_runtime::interp::Trap;
use isa_runtime::table::{self, Filled};
use isa_runtime::target::{assemble, Isa};

/// A vertex program has no I/O beyond the machine's registers.
#[derive(Debug, Default)]
struct Vertex;

impl Semantics for Vertex {}

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn v4(x: [f32; 4]) -> [u32; 4] {
    x.map(f)
}

/// The program, and a machine with its `.constants` loaded (four words per index, x first).
fn load(source: &str) -> (Vec<Instruction>, Machine<Vertex>) {
    let program = assemble::<TegraVs>(source, 0).unwrap_or_else(|e| panic!("does not assemble: {e:?}"));
    let filled: Filled = table::read(source, &TegraVs::dialects()[0], TegraVs::tables()).expect("constants");
    let mut m = Machine::new(Vertex);
    for (word, value) in filled[0].1.words().expect("constants are words") {
        m.state.constant[(*word / 4) as usize][(*word % 4) as usize] = *value;
    }
    (program, m)
}

/// tests/data/tegra/transform_vs.txt: export 0 is the position by the matrix in c[0..3] (one
/// row per DP4), export 7 the colour times 0.5 plus 0.25 (c[4].x and c[4].y from its
/// `.constants`), saturated; r3 is r2 by -r1.wzyx, r4.x the reciprocal of -|0.25|.
#[test]
fn transform_vs_exports_the_matrix_product() {
    let (program, mut m) = load(&isa_tests::tegra_program("transform_vs.txt"));
    assert_eq!(m.state.constant[4], [f(0.5), f(0.25), 0, 0], "c[4] from .constants");
    let rows = [[2.0, 0.0, 0.5, 1.0], [0.0, -3.0, 0.0, 0.25], [1.0, 1.0, 1.0, 0.0], [0.0, 0.0, -1.0, 4.0]];
    for (i, row) in rows.iter().enumerate() {
        m.state.constant[i] = v4(*row);
    }
    let position = [1.5, -2.0, 0.5, 1.0];
    let colour = [1.0, 0.25, -1.0, 3.0];
    m.state.attribute[0] = v4(position);
    m.state.attribute[1] = v4(colour);
    assert_eq!(m.run(&program, 100), Ok(8));
    assert!(m.state.done);
    let product: [f32; 4] = rows.map(|row| (0..4).map(|k| row[k] * position[k]).sum());
    assert_eq!(product, [4.25, 6.25, 0.0, 3.5]);
    assert_eq!(m.state.export[0], v4(product));
    assert_eq!(m.state.r[1], v4(product));
    let scaled = colour.map(|c| c * 0.5 + 0.25);
    assert_eq!(m.state.r[2], v4(scaled));
    assert_eq!(m.state.export[7], v4(scaled.map(|c| c.clamp(0.0, 1.0))));
    assert_eq!(m.state.export[7], v4([0.75, 0.375, 0.0, 1.0]));
    let r1_wzyx = [product[3], product[2], product[1], product[0]];
    assert_eq!(m.state.r[3], v4([0, 1, 2, 3].map(|i| scaled[i] * -r1_wzyx[i])));
    assert_eq!(m.state.r[4][0], f(1.0 / -0.25), "RCPs r4.x***");
    assert_eq!(m.state.r[4][1..], [0, 0, 0], "the other lanes are not written");
}

/// A cube's corner through a perspective transform written for this test in grate's syntax:
/// MUL/MAD rows (column-major: the position's components broadcast by swizzle), RCP of w, and
/// the divided position exported — the value computed here with the same matrix.
#[test]
fn cube_corner_through_mul_mad_and_rcp() {
    let source = "
.attributes [0] = \"position\";
.exports [0] = \"gl_Position\"; [1] = \"ndc\";
.asm
EXEC MULv r0.xyzw, a[0].xxxx, c[0].xyzw ;
EXEC MADv r0.xyzw, a[0].yyyy, c[1].xyzw, r0.xyzw ;
EXEC MADv r0.xyzw, a[0].zzzz, c[2].xyzw, r0.xyzw ;
EXEC(export[0]=vector) MADv r1.xyzw, a[0].wwww, c[3].xyzw, r0.xyzw ;
EXEC RCPs r2.xyzw, r1.wwww ;
EXEC(export[1]=vector) MULv r63.xyz*, r1.xyzw, r2.xyzw ;
";
    let (program, mut m) = load(source);
    // Columns of a projection by a translation along z (column-major, as GL uploads them).
    let columns = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, -1.5, -1.0], [0.0, 0.0, 2.0, 4.0]];
    for (i, c) in columns.iter().enumerate() {
        m.state.constant[i] = v4(*c);
    }
    let corner = [1.0, -1.0, 1.0, 1.0];
    m.state.attribute[0] = v4(corner);
    assert_eq!(m.run(&program, 100), Ok(6));
    let clip: [f32; 4] =
        std::array::from_fn(|row| (0..4).fold(0.0, |acc, k| acc + columns[k][row] * corner[k]));
    assert_eq!(clip, [1.0, -1.0, 0.5, 3.0]);
    assert_eq!(m.state.export[0], v4(clip));
    let w = 1.0 / clip[3];
    assert_eq!(m.state.export[1][..3], v4([clip[0] * w, clip[1] * w, clip[2] * w, 0.0])[..3]);
    assert_eq!(m.state.export[1][3], 0, "w is not written");
}

/// Predicates: `(cs)(cwr)(cr=n)` keeps a result in condition register n, `(cc)(cr=n)(gt)` then
/// writes only the components whose condition value is above zero (the component the
/// predicate swizzle picks); without `(cc)` the write is unconditional.
#[test]
fn condition_registers_mask_writes() {
    let source = "
.constants [0].x = 1.0; [0].y = 2.0; [0].z = 3.0; [0].w = 4.0;
           [1].x = 2.0; [1].y = 2.0; [1].z = 2.0; [1].w = 2.0;
.asm
EXEC MOVv r1.xyzw, c[0].xyzw ;
EXEC(cs)(cwr)(cr=1) SLTv r63.xyzw, r1.xyzw, c[1].xyzw ;
EXEC(cc)(cr=1)(gt) MOVv r5.xyzw, c[1].xyzw ;
EXEC(cc)(cr=1)(eq)(p.wzyx) MOVv r6.xyzw, c[0].xyzw ;
EXEC(cr=1)(gt) MOVv r7.xyzw, c[0].xyzw ;
";
    let (program, mut m) = load(source);
    assert_eq!(m.run(&program, 10), Ok(5));
    // SLT: (1 < 2, 2 < 2, 3 < 2, 4 < 2) = (1, 0, 0, 0).
    assert_eq!(m.state.cc[1], v4([1.0, 0.0, 0.0, 0.0]));
    assert_eq!(m.state.r[5], [f(2.0), 0, 0, 0]);
    // (p.wzyx): component x tests w's condition (0: equal), w tests x's (1: not).
    assert_eq!(m.state.r[6], [f(1.0), f(2.0), f(3.0), 0]);
    assert_eq!(m.state.r[7], v4([1.0, 2.0, 3.0, 4.0]));
}

/// An operation the spec leaves to the embedder traps; so does a POPA on an empty stack.
#[test]
fn unmodelled_operations_trap() {
    for text in ["EXEC LITs r0.xyzw, c[0].xxxx ;", "EXEC POPAs ;", "EXEC SSGv r0.xyzw ;"] {
        let (program, mut m) = load(text);
        assert!(matches!(m.run(&program, 10), Err(Trap::Unimplemented(_))), "{text}");
    }
}

// ---- grate's programs (ISA_GRATE_TESTS_DIR) ------------------------------------------------

fn grate(name: &str) -> (Vec<Instruction>, Machine<Vertex>) {
    load(&isa_tests::grate_program(name))
}

const POSITION: [f32; 4] = [0.25, -0.5, 0.75, 1.0];
const COLOUR: [f32; 4] = [0.125, 0.375, 0.625, 0.875];

/// vs_function: `ARLv A0.xy**, c[77]` with c[77] = (-1.5, -3.3) floors to A0 = (-2, -4);
/// CAL 2 runs `a[A0.y + 5]` = a[1] into export 7, RET goes back to 1, whose `a[A0.x + 2]` =
/// a[0] goes to export 0 and ends the program: grate's position and colour.
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn vs_function_calls_and_returns() {
    let (program, mut m) = grate("vs_function.txt");
    m.state.attribute[0] = v4(POSITION);
    m.state.attribute[1] = v4(COLOUR);
    assert_eq!(m.run(&program, 100), Ok(3), "0, 2 (call), 1 (return, end)");
    assert_eq!(m.state.a0[..2], [-2, -4]);
    assert_eq!(m.state.export[0], v4(POSITION));
    assert_eq!(m.state.export[7], v4(COLOUR));
    assert_eq!(m.state.sp, 0);
}

/// vs_stack: A0 = floor(c[77]) = (-2, 0, 0, 0) is pushed, the function at 6 sets A0 to
/// floor(c[123].y) = floor(-3.3) = -4 and exports a[A0.x + 5] = a[1], RET returns to 3, POPA
/// restores A0, and a[A0.x + 2] = a[0] is the position.
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn vs_stack_pushes_and_pops_the_address_register() {
    let (program, mut m) = grate("vs_stack.txt");
    m.state.attribute[0] = v4(POSITION);
    m.state.attribute[1] = v4(COLOUR);
    assert_eq!(m.run(&program, 100), Ok(8), "0, 1, 2, 6, 7, 3, 4, 5");
    assert_eq!(m.state.a0, [-2, 0, 0, 0]);
    assert_eq!(m.state.sp, 0);
    assert_eq!(m.state.export[0], v4(POSITION));
    assert_eq!(m.state.export[7], v4(COLOUR));
}

/// vs_branching: BRA 3 skips the EXEC_ENDs at 1 and 2, 3 exports the position and branches
/// to 7, which exports the colour and ends.
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn vs_branching_skips_to_its_targets() {
    let (program, mut m) = grate("vs_branching.txt");
    m.state.attribute[0] = v4(POSITION);
    m.state.attribute[1] = v4(COLOUR);
    assert_eq!(m.run(&program, 100), Ok(3));
    assert_eq!(m.state.export[0], v4(POSITION));
    assert_eq!(m.state.export[7], v4(COLOUR));
}

/// vs_export_relative_addressing, by its comments: ARL gives A0.x = floor(3.3) = 3 and
/// A0.z = floor(1.5) = 1, ARR A0.y = round(7.3) = 7 and A0.w = round(-8.3) = -8, ARA A0.x =
/// 3 + 1 = 4. Then export[A0.z + 6] = 7 takes a[1].xy, export[A0.w + 15] = 7 takes a[1].z
/// (a[A0.w + 9] = a[1]), export[A0.y] = 7 takes c[133].z = 0.1 into x, export[A0.x + 3] = 7
/// takes c[133].x = 0.4 into w; the scalar MOVs exports the position.
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn vs_export_relative_addressing_moves_the_colour() {
    let (program, mut m) = grate("vs_export_relative_addressing.txt");
    m.state.attribute[0] = v4(POSITION);
    m.state.attribute[1] = v4(COLOUR);
    assert_eq!(m.run(&program, 100), Ok(7));
    assert_eq!(m.state.a0, [4, 7, 1, -8]);
    assert_eq!(m.state.export[0], v4(POSITION));
    assert_eq!(m.state.export[7], v4([0.1, COLOUR[1], COLOUR[2], 0.4]));
}
