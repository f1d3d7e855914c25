//! The generated VideoCore IV interpreter running seed 004's two worked programs through an
//! embedder that implements `vc4::Semantics` (the uniform and varying FIFOs and the TLB), plus
//! the escape hatches: operations without semantics trap unless the embedder supplies them,
//! hooks for the SFU, load signals and semaphores, and the step limit. The machine has the
//! QPU's 16 elements: `state.acc[r][e]` is element e's accumulator r.

use std::collections::VecDeque;

use isa_generated::vc4::{self, Instruction, Machine, Semantics};
use isa_runtime::interp::Trap;

const TLB_COLOUR_ALL: u32 = 46;

/// A fragment shader's surroundings: uniform and varying streams, and a log of every I/O
/// register write (the tile buffer) and hook call.
#[derive(Debug, Default)]
struct Fragment {
    uniforms: VecDeque<u32>,
    /// (V, C) per varying: VARYING_READ returns V (to every element), and C then goes to r5.
    varyings: VecDeque<(u32, u32)>,
    /// The V of the varying being read.
    current_v: u32,
    /// The C coefficient of the varying read last, until every element has taken it.
    pending_c: Option<u32>,
    /// (file_b, address, value) of every I/O write of element 0.
    writes: Vec<(bool, u32, u32)>,
    /// (file_b, address, element, value) of every I/O write.
    element_writes: Vec<(bool, u32, u32, u32)>,
    /// The value the load signal being executed gives every element.
    current_r4: u32,
    /// r4 values for the load signals, in order.
    r4_loads: VecDeque<u32>,
    /// (signal, value) of every load signal.
    loads: Vec<(u32, u32)>,
    /// (acquire, number) of every semaphore access.
    semaphores: Vec<(bool, u32)>,
}

impl Semantics for Fragment {
    fn uniform(&mut self) -> u32 {
        self.uniforms.pop_front().expect("the program reads no more uniforms than it has")
    }
    fn varying(&mut self, element: u32) -> u32 {
        if element == 0 {
            let (v, c) = self.varyings.pop_front().expect("no more varyings than it has");
            (self.current_v, self.pending_c) = (v, Some(c));
        }
        self.current_v
    }
    fn varying_c(&mut self, element: u32) -> u32 {
        let c = self.pending_c.expect("C follows a varying read");
        if element == 15 {
            self.pending_c = None;
        }
        c
    }
    fn io_read(&mut self, file_b: bool, addr: u32, _element: u32) -> u32 {
        panic!("unexpected I/O read of {} {addr}", if file_b { 'B' } else { 'A' })
    }
    fn io_write(&mut self, file_b: bool, addr: u32, element: u32, value: u32) {
        if element == 0 {
            self.writes.push((file_b, addr, value));
        }
        self.element_writes.push((file_b, addr, element, value));
    }
    /// SFU_RECIP (52) as an exact reciprocal; the hardware's is an approximation.
    fn sfu(&mut self, addr: u32, value: u32) -> u32 {
        assert_eq!(addr, 52, "only recip is used here");
        (1.0 / f32::from_bits(value)).to_bits()
    }
    fn load_r4(&mut self, sig: u32, element: u32) -> u32 {
        if element == 0 {
            self.current_r4 = self.r4_loads.pop_front().expect("a value for the load signal");
            self.loads.push((sig, self.current_r4));
        }
        self.current_r4
    }
    fn semaphore_op(&mut self, acquire: bool, number: u32) {
        self.semaphores.push((acquire, number));
    }
}

fn assemble(source: &str) -> Vec<Instruction> {
    vc4::assemble(source, vc4::Dialect::Vc4asm)
        .unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{source}"))
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

// ---- (a) Seed 004: uniforms converted and packed into an RGBA colour -------------------------

const UNIFORM_PROGRAM: &str = isa_tests::VC4_UNIFORM_PROGRAM;

/// Runs the uniform program on four uniforms; returns the machine after the run.
fn run_uniform_program(rgba: [f32; 4]) -> Machine<Fragment> {
    let program = assemble(UNIFORM_PROGRAM);
    assert_eq!(program[0].encode(), Ok(0xd140_59e5_2082_0df7));
    let mut m = Machine::new(Fragment { uniforms: rgba.map(f).into(), ..Fragment::default() });
    assert_eq!(m.run(&program, 100), Ok(8), "8 instructions: thread end and two delay slots");
    assert!(m.state.done);
    assert!(m.semantics.uniforms.is_empty(), "every uniform was read once");
    m
}

#[test]
fn uniforms_packed_into_rgba_reach_the_tlb() {
    // The seed's uniforms: red 0.0, green 1.0, blue 0.0, alpha 1.0.
    let m = run_uniform_program([0.0, 1.0, 0.0, 1.0]);
    // 8a is the low byte (red), 8d the high byte (alpha).
    assert_eq!(m.semantics.writes, [(false, TLB_COLOUR_ALL, 0xff00_ff00)]);
    // Every element wrote the same colour, in element order.
    let all: Vec<_> = (0..16).map(|e| (false, TLB_COLOUR_ALL, e, 0xff00_ff00)).collect();
    assert_eq!(m.semantics.element_writes, all);
    assert_eq!(m.state.acc[5], [0xff00_ff00; 16]);
}

#[test]
fn mul_pack_rounds_to_nearest_and_saturates() {
    // 0.5 * 255 = 127.5 rounds to 0x80; 0.25 * 255 = 63.75 to 0x40.
    let m = run_uniform_program([0.5, 0.25, 1.0, 0.0]);
    assert_eq!(m.semantics.writes, [(false, TLB_COLOUR_ALL, 0x00ff_4080)]);
    // Out-of-range values saturate to 0 and 255.
    let m = run_uniform_program([-1.0, 2.0, 1.0 / 255.0, 0.5]);
    assert_eq!(m.semantics.writes, [(false, TLB_COLOUR_ALL, 0x8001_ff00)]);
}

#[test]
fn each_pack_inserts_one_byte() {
    let program = assemble(UNIFORM_PROGRAM);
    let mut m =
        Machine::new(Fragment { uniforms: [0.0, 1.0, 0.5, 1.0].map(f).into(), ..Fragment::default() });
    m.state.acc[5] = [0x1234_5678; 16];
    let mut r5 = Vec::new();
    for _ in 0..4 {
        assert_eq!(m.step_program(&program), Ok(true));
        r5.push(m.state.acc[5][0]);
        assert_eq!(m.state.acc[5], [m.state.acc[5][0]; 16], "every element packs the same");
    }
    // Each MUL pack replaces its byte and keeps the other three.
    assert_eq!(r5, [0x1234_5600, 0x1234_ff00, 0x1280_ff00, 0xff80_ff00]);
    assert_eq!(m.state.pc, 32);
}

// ---- (b) Seed 004: varyings interpolated as V * W + C ---------------------------------------

const VARYING_PROGRAM: &str = isa_tests::VC4_VARYING_PROGRAM;

#[test]
fn varyings_interpolate_as_v_times_w_plus_c() {
    let program = assemble(VARYING_PROGRAM);
    assert_eq!(vc4::check_program(&program), []);
    let (w, varyings) = (2.0, [(0.25, 0.5), (1.5, -1.0), (0.75, 0.125)]);
    let mut m = Machine::new(Fragment {
        varyings: varyings.iter().map(|&(v, c)| (f(v), f(c))).collect(),
        ..Fragment::default()
    });
    // W arrives in ra15 before the shader starts.
    m.state.ra[15] = [f(w); 16];
    assert_eq!(m.run(&program, 100), Ok(7));
    // 0.25 * 2 + 0.5 = 1.0, 1.5 * 2 - 1 = 2.0, 0.75 * 2 + 0.125 = 1.625: exact in binary.
    assert_eq!(m.state.acc[0], [f(1.0); 16]);
    assert_eq!(m.state.acc[1], [f(2.0); 16]);
    assert_eq!(m.state.acc[2], [f(1.625); 16]);
    // The last varying's C is still in r5; every varying was read once.
    assert_eq!(m.state.acc[5], [f(0.125); 16]);
    assert!(m.semantics.varyings.is_empty() && m.semantics.pending_c.is_none());
    assert_eq!(m.semantics.writes, []);
}

/// The seed's varying program on all 16 elements with a W of each element's own (ra15 holds
/// one per pixel): element e computes V · W(e) + C for each varying. W(e) = e + 0.5 and the
/// V, C below keep every product and sum exact in binary, so the expected values are the
/// real-number results, whatever the rounding.
#[test]
fn varyings_interpolate_in_each_element_with_its_own_w() {
    let program = assemble(VARYING_PROGRAM);
    let varyings = [(0.25f32, 0.5f32), (1.5, -1.0), (0.75, 0.125)];
    let mut m = Machine::new(Fragment {
        varyings: varyings.iter().map(|&(v, c)| (f(v), f(c))).collect(),
        ..Fragment::default()
    });
    let w: [f32; 16] = core::array::from_fn(|e| e as f32 + 0.5);
    m.state.ra[15] = w.map(f);
    assert_eq!(m.run(&program, 100), Ok(7));
    for (k, (v, c)) in varyings.iter().enumerate() {
        let want: [u32; 16] = core::array::from_fn(|e| f(v * w[e] + c));
        assert_eq!(m.state.acc[k], want, "varying {k}");
    }
    // Element 15, worked by hand: 0.25 · 15.5 + 0.5 = 4.375; 1.5 · 15.5 - 1 = 22.25.
    assert_eq!((m.state.acc[0][15], m.state.acc[1][15]), (f(4.375), f(22.25)));
}

#[test]
fn the_varying_read_writes_c_after_the_instruction_reads_r5() {
    // The worked word adds the previous C (in r5) and reads the next varying in the same
    // instruction: its fadd sees the old r5, and r5 holds the new C afterwards.
    let program = assemble(VARYING_PROGRAM);
    let mut m = Machine::new(Fragment {
        varyings: [(f(1.0), f(10.0)), (f(3.0), f(20.0))].into(),
        ..Fragment::default()
    });
    m.state.ra[15] = [f(4.0); 16];
    m.step_program(&program).unwrap();
    assert_eq!((m.state.acc[0], m.state.acc[5]), ([f(4.0); 16], [f(10.0); 16]));
    m.step_program(&program).unwrap();
    assert_eq!(m.state.acc[0], [f(14.0); 16], "1 * 4 + 10");
    assert_eq!((m.state.acc[1], m.state.acc[5]), ([f(12.0); 16], [f(20.0); 16]));
}

// ---- Operations without semantics ---------------------------------------------------------

/// An embedder that replaces the mul pipe's per-byte saturating add with a wrapping one, and
/// supplies the saturating 32-bit pack the spec leaves open.
#[derive(Default)]
struct WithV8adds(Fragment);

impl Semantics for WithV8adds {
    fn uniform(&mut self) -> u32 {
        self.0.uniform()
    }
    fn varying(&mut self, element: u32) -> u32 {
        self.0.varying(element)
    }
    fn varying_c(&mut self, element: u32) -> u32 {
        self.0.varying_c(element)
    }
    fn io_read(&mut self, file_b: bool, addr: u32, element: u32) -> u32 {
        self.0.io_read(file_b, addr, element)
    }
    fn io_write(&mut self, file_b: bool, addr: u32, element: u32, value: u32) {
        self.0.io_write(file_b, addr, element, value)
    }
    fn sfu(&mut self, addr: u32, value: u32) -> u32 {
        self.0.sfu(addr, value)
    }
    fn load_r4(&mut self, sig: u32, element: u32) -> u32 {
        self.0.load_r4(sig, element)
    }
    fn semaphore_op(&mut self, acquire: bool, number: u32) {
        self.0.semaphore_op(acquire, number)
    }
    fn mul_op_v8adds(&mut self, a: u32, b: u32) -> Result<u32, Trap> {
        let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
        Ok(u32::from_le_bytes([0, 1, 2, 3].map(|i| a[i].wrapping_add(b[i]))))
    }
    fn regfile_pack_sat32(&mut self, value: u32, _old: u32) -> Result<u32, Trap> {
        Ok(value)
    }
}

#[test]
fn an_operation_without_semantics_traps_unless_the_embedder_supplies_it() {
    // The saturating 32-bit pack needs the ALU's overflow, which no reference gives.
    let program = assemble("ldi r0, 5\nmov ra1.32s, r0\nnop;  thrend\nnop\nnop");
    let mut m = Machine::new(Fragment::default());
    assert_eq!(m.run(&program, 100), Err(Trap::Unimplemented("RegfilePack::sat32")));
    assert_eq!(m.state.pc, 8, "stopped at the pack");
    let mut m = Machine::new(WithV8adds::default());
    assert_eq!(m.run(&program, 100), Ok(5));
    assert_eq!(m.state.ra[1], [5; 16]);
}

#[test]
fn the_embedders_operation_replaces_the_specs() {
    let program =
        assemble("ldi r1, 0x80ff0102\nldi r2, 0x80020304\nnop; v8adds r0, r1, r2\nnop;  thrend\nnop\nnop");
    // The spec's v8adds saturates each byte: 0x80 + 0x80 and 0xff + 0x02 give 0xff.
    let mut m = Machine::new(Fragment::default());
    assert_eq!(m.run(&program, 100), Ok(6));
    assert_eq!(m.state.acc[0], [0xffff_0406; 16]);
    // This embedder's wraps: 0x00 and 0x01.
    let mut m = Machine::new(WithV8adds::default());
    assert_eq!(m.run(&program, 100), Ok(6));
    assert_eq!(m.state.acc[0], [0x0001_0406; 16]);
}

// ---- Step limit, branches, packs and the other hooks -------------------------------------

#[test]
fn the_step_limit_is_enforced() {
    // A branch to itself with three delay slots loops forever.
    let program = assemble("brr -, -32\nnop\nnop\nnop");
    let mut m = Machine::new(Fragment::default());
    assert_eq!(m.run(&program, 1000), Err(Trap::StepLimit));
    // The uniform program needs exactly 8 steps.
    let program = assemble(UNIFORM_PROGRAM);
    let uniforms = || VecDeque::from([0.0, 1.0, 0.0, 1.0].map(f));
    let mut m = Machine::new(Fragment { uniforms: uniforms(), ..Fragment::default() });
    assert_eq!(m.run(&program, 7), Err(Trap::StepLimit));
    assert_eq!(m.state.pc, 56, "seven instructions ran");
    let mut m = Machine::new(Fragment { uniforms: uniforms(), ..Fragment::default() });
    assert_eq!(m.run(&program, 8), Ok(8));
    // A halted machine executes nothing more.
    assert_eq!(m.run(&program, 8), Ok(0));
    assert_eq!(m.step_program(&program), Ok(false));
}

#[test]
fn a_branch_takes_effect_after_three_delay_slots_and_links() {
    let program = assemble(
        "brr ra4, 16\nmov r0, 1\nmov r1, 2\nmov r2, 3\nmov r0, 9\nmov r1, 9\nnop;  thrend\nnop\nnop",
    );
    let mut m = Machine::new(Fragment::default());
    // The branch, three delay slots, then the thread end and its two delay slots.
    assert_eq!(m.run(&program, 100), Ok(7));
    assert_eq!(m.state.acc[..3], [[1; 16], [2; 16], [3; 16]]);
    // The link register holds the address after the delay slots; the target is that plus 16.
    assert_eq!(m.state.ra[4], [32; 16]);
}

#[test]
fn regfile_a_packs_and_unpacks() {
    let program = assemble(
        "ldi ra1, 0xaabbccdd\nldi r0, 0x1ff\nmov ra1.8bi, r0\nldi r0, -5\nmov ra2.8asi, r0\n\
         mov r1, ra1.8ci\nnop; fmul r2, ra1.8df, 1.0",
    );
    let mut m = Machine::new(Fragment::default());
    m.state.ra[2] = [0x1122_3344; 16];
    assert_eq!(m.run(&program, 100), Ok(7));
    // 8b: the low byte replaces byte b. 8a saturated: -5 clamps to 0.
    assert_eq!(m.state.ra[1], [0xaabb_ffdd; 16]);
    assert_eq!(m.state.ra[2], [0x1122_3300; 16]);
    // Integer unpack of byte c; float unpack of byte d (0xaa / 255).
    assert_eq!(m.state.acc[1], [0xbb; 16]);
    assert_eq!(m.state.acc[2], [f(170.0 / 255.0); 16]);
}

#[test]
fn sfu_load_signal_and_semaphore_hooks() {
    let program = assemble(
        "ldi r0, 0x40000000\nmov recip, r0\nnop\nnop\nmov r1, r4\nnop;  ldtmu0\nmov r2, r4\n\
         sacq -, 9\nsrel -, 3",
    );
    assert_eq!(vc4::check_program(&program), []);
    let mut m = Machine::new(Fragment { r4_loads: [0xdead_beef].into(), ..Fragment::default() });
    assert_eq!(m.run(&program, 100), Ok(9));
    assert_eq!(m.state.acc[1], [f(0.5); 16], "recip(2.0) through the sfu hook, read from r4");
    assert_eq!(m.state.acc[2], [0xdead_beef; 16]);
    assert_eq!(m.semantics.loads, [(10, 0xdead_beef)], "ldtmu0 is signal 10");
    assert_eq!(m.semantics.semaphores, [(true, 9), (false, 3)]);
    assert_eq!(m.semantics.writes, [], "the SFU write is not an io_write");
}

#[test]
fn per_element_loads_give_each_element_its_value() {
    let signed = [-2, 1, 0, -1, 1, 1, -2, 0, 0, -1, -1, 1, 0, -2, 1, 0];
    let unsigned = [3, 0, 1, 2, 2, 3, 0, 1, 3, 3, 0, 0, 1, 2, 3, 1];
    let list = |v: &[i32]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
    let program = assemble(&format!("ldipes r0, [{}]\nldipeu r1, [{}]", list(&signed), list(&unsigned)));
    // Element i's value: imm bit 16 + i is its high bit, bit i its low bit.
    let imm = |v: &[i32]| {
        v.iter()
            .enumerate()
            .fold(0u32, |w, (i, &x)| w | ((x as u32 >> 1 & 1) << (16 + i)) | ((x as u32 & 1) << i))
    };
    assert_eq!(program[0].encode().map(|w| w as u32), Ok(imm(&signed)));
    assert_eq!(program[1].encode().map(|w| w as u32), Ok(imm(&unsigned)));
    let mut m = Machine::new(Fragment::default());
    assert_eq!(m.run(&program, 10), Ok(2));
    assert_eq!(m.state.acc[0][0], -2i32 as u32, "element 0");
    assert_eq!(m.state.acc[1][0], 3);
    assert_eq!(m.state.acc[0], signed.map(|x| x as u32));
    assert_eq!(m.state.acc[1], unsigned.map(|x| x as u32));
}

/// Runs `source` on a fresh machine to its end; returns the machine.
fn run(source: &str) -> Machine<Fragment> {
    let program = assemble(source);
    let mut m = Machine::new(Fragment::default());
    let steps = m.run(&program, 100).unwrap_or_else(|t| panic!("{t}\n{source}"));
    assert_eq!(steps as usize, program.len());
    m
}

#[test]
fn sixteen_elements_compute_sixteen_results() {
    // r0 = element number (ra38); r1 = per-element signed immediates; then per element
    // r2 = e * e + v and r3 = (e << 4) - v, as a QPU runs them.
    let v = [1, -2, 0, 1, -1, -1, 0, 1, -2, -2, 1, 0, 0, 1, -1, -2];
    let list = v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
    let m = run(&format!(
        "mov r0, elem_num\nldipes r1, [{list}]\nnop; mul24 r2, r0, r0\nadd r2, r2, r1\nshl r3, r0, 4\nsub r3, r3, r1"
    ));
    let expect =
        |f: &dyn Fn(i32, i32) -> i32| -> [u32; 16] { std::array::from_fn(|e| f(e as i32, v[e]) as u32) };
    assert_eq!(m.state.acc[0], expect(&|e, _| e));
    assert_eq!(m.state.acc[2], expect(&|e, x| e * e + x));
    assert_eq!(m.state.acc[3], expect(&|e, x| (e << 4) - x));
    // Sixteen different results.
    let mut distinct = m.state.acc[2].to_vec();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 16, "{:?}", m.state.acc[2]);
}

#[test]
fn the_mul_pipe_rotates_its_inputs_across_elements() {
    // `r0 >> 3` (a mul-pipe move): element i reads element (i - 3) mod 16's r0.
    let m = run("mov r0, elem_num\nnop\nmov r1, r0 >> 3\nldi r5rep, 6\nnop\nmov r2, r1 << r5");
    let rotated: [u32; 16] = std::array::from_fn(|i| ((i + 16 - 3) % 16) as u32);
    assert_eq!(m.state.acc[1], rotated);
    // By r5 (6, read from element 0): element i reads element (i - 6) of r1, (i - 9) of r0.
    let by_r5: [u32; 16] = std::array::from_fn(|i| ((i + 32 - 9) % 16) as u32);
    assert_eq!(m.state.acc[2], by_r5);
}

#[test]
fn flags_are_per_element_and_branches_test_all_or_any() {
    // N is set in elements 0-7 (e - 8 < 0); the conditional move writes only there.
    let m = run("mov r0, elem_num\nsub.setf r1, r0, 8\nmov.ifn r2, 1\nmov.ifnn r3, 1");
    let low: [u32; 16] = std::array::from_fn(|e| (e < 8) as u32);
    assert_eq!(m.state.nf, low.map(|x| x == 1));
    assert_eq!(m.state.zf, std::array::from_fn(|e| e == 8));
    assert_eq!(m.state.acc[2], low);
    assert_eq!(m.state.acc[3], low.map(|x| 1 - x));
    // Branch conditions: "any N" is taken, "all N" is not. A taken branch skips the `ldi`
    // after its delay slots.
    let taken = |cond: &str| {
        let program = assemble(&format!(
            "mov r0, elem_num\nsub.setf r1, r0, 8\nbrr.{cond} -, 8\nnop\nnop\nnop\nldi r3, 7\nnop"
        ));
        let mut m = Machine::new(Fragment::default());
        let steps = m.run(&program, 100).unwrap_or_else(|t| panic!("{t}"));
        assert_eq!(steps, if m.state.acc[3] == [7; 16] { 8 } else { 7 });
        m.state.acc[3] != [7; 16]
    };
    assert!(taken("anyn"));
    assert!(!taken("alln"));
    assert!(taken("anynn"));
    assert!(!taken("allz"));
    assert!(taken("anyz"), "element 8 has Z");
}

#[test]
fn the_carry_flag_is_the_carry_of_add_and_the_borrow_of_sub() {
    // -1 + e carries out of bit 31 for every e > 0.
    let m = run("mov r0, elem_num\nldi r1, -1\nadd.setf r2, r1, r0\nmov.ifc r3, 1");
    assert_eq!(m.state.cf, std::array::from_fn(|e| e > 0));
    assert_eq!(m.state.acc[3], std::array::from_fn(|e| (e > 0) as u32));
    // e - 5 borrows for e < 5 (unsigned); Mesa's usub_borrow reads C the same way.
    let m = run("mov r0, elem_num\nsub.setf r2, r0, 5\nmov.ifcc r3, 1");
    assert_eq!(m.state.cf, std::array::from_fn(|e| e < 5));
    assert_eq!(m.state.acc[3], std::array::from_fn(|e| (e >= 5) as u32));
    // A float operation leaves C clear.
    let m = run("ldi r1, -1\nmov r0, 1\nadd.setf r2, r1, r0\nfadd.setf r2, r0, r0");
    assert_eq!(m.state.cf, [false; 16]);
}

#[test]
fn byte_lane_operations() {
    // Bytes (low first) a = [02, 01, ff, 80], b = [04, 03, 02, 80], worked by hand.
    let m = run(
        "ldi r1, 0x80ff0102\nldi r2, 0x80020304\nnop; v8min r0, r1, r2\nnop; v8max r3, r1, r2\n         av8subs r0, r2, r1; v8muld r1, r1, r2",
    );
    assert_eq!(m.state.acc[3], [0x80ff_0304; 16], "max: 04 03 ff 80");
    // min ran before the next word overwrote r0: a v8subs of b - a: 02, 02, 00 (saturated), 00.
    assert_eq!(m.state.acc[0], [0x0000_0202; 16]);
    // v8muld: 02*04/255 → 0, 01*03/255 → 0, ff*02/255 = 2, 80*80/255 = 64.25 → 0x40.
    assert_eq!(m.state.acc[1], [0x4002_0000; 16]);
}

#[test]
fn float16_unpack_and_pack() {
    // ra1 = half b 1.0 (0x3c00), half a -2.5 (0xc100).
    let m = run(
        "ldi ra1, 0x3c00c100\nnop\nnop; fmul r2, ra1.16af, 1.0\nnop; fmul r3, ra1.16bf, 4.0\n         ldi r0, 0x3fe00000\nldi ra2, 0x12345678\nfadd ra2.16af, r0, r0",
    );
    assert_eq!(m.state.acc[2], [(-2.5f32).to_bits(); 16]);
    assert_eq!(m.state.acc[3], [4.0f32.to_bits(); 16]);
    // 1.75 + 1.75 = 3.5 = float16 0x4300 into half a; half b kept.
    assert_eq!(m.state.ra[2], [0x1234_4300; 16]);
}

#[test]
fn flags_and_conditions() {
    // sub.setf sets Z when equal; the conditional moves then pick one value.
    let program = assemble("ldi r0, 7\nsub.setf r1, r0, 7\nmov.ifz r2, 1\nmov.ifnz r3, 1");
    let mut m = Machine::new(Fragment::default());
    m.state.acc[3] = [42; 16];
    assert_eq!(m.run(&program, 10), Ok(4));
    assert!(m.state.zf == [true; 16] && m.state.nf == [false; 16]);
    assert_eq!((m.state.acc[2], m.state.acc[3]), ([1; 16], [42; 16]));
}

/// r5 written through address 37 has one value per quad (file A, `r5quad`: element 0, 4, 8 or
/// 12 of each quad) or one for the whole QPU (file B, `r5rep`: element 0's), per the table of
/// write addresses; a conditional write whose quad leader does not write leaves that quad alone.
#[test]
fn r5_writes_broadcast_per_quad_or_to_every_element() {
    let m = run("mov r0, elem_num\nnop\nadd r5quad, r0, 3");
    assert_eq!(m.state.acc[5], std::array::from_fn(|e| (e & 12) as u32 + 3));
    let m = run("mov r0, elem_num\nnop\nadd r5rep, r0, 3");
    assert_eq!(m.state.acc[5], [3; 16]);
    // A conditional write: only element 4 (quad 1's leader) writes, and its quad takes 4; the
    // other quads keep the 1 loaded before.
    let m = run("ldi r5quad, 1\nmov r0, elem_num\nsub.setf r1, r0, 4\nmov.ifz r5quad, r0");
    assert_eq!(m.state.acc[5], std::array::from_fn(|e| if e / 4 == 1 { 4 } else { 1 }));
    // Only element 9 writes; its leader (8) does not, so element 9 keeps its own 9.
    let m = run("ldi r5quad, 1\nmov r0, elem_num\nsub.setf r1, r0, 9\nmov.ifz r5quad, r0");
    assert_eq!(m.state.acc[5], std::array::from_fn(|e| if e == 9 { 9 } else { 1 }));
}
