//! The generated VideoCore IV interpreter running seed 004's two worked programs through an
//! embedder that implements `vc4::Semantics` (the uniform and varying FIFOs and the TLB), plus
//! the escape hatches: operations without semantics trap unless the embedder supplies them,
//! hooks for the SFU, load signals and semaphores, and the step limit.

use std::collections::VecDeque;

use isa_generated::vc4::{self, Instruction, Machine, Semantics};
use isa_runtime::interp::Trap;

const TLB_COLOUR_ALL: u32 = 46;

/// A fragment shader's surroundings: uniform and varying streams, and a log of every I/O
/// register write (the tile buffer) and hook call.
#[derive(Debug, Default)]
struct Fragment {
    uniforms: VecDeque<u32>,
    /// (V, C) per varying: VARYING_READ returns V, and C then goes to r5.
    varyings: VecDeque<(u32, u32)>,
    /// The C coefficient of the varying read last, until the machine takes it.
    pending_c: Option<u32>,
    /// (file_b, address, value) of every I/O write.
    writes: Vec<(bool, u32, u32)>,
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
    fn varying(&mut self) -> u32 {
        let (v, c) = self.varyings.pop_front().expect("no more varyings than it has");
        self.pending_c = Some(c);
        v
    }
    fn varying_c(&mut self) -> u32 {
        self.pending_c.take().expect("C follows a varying read")
    }
    fn io_read(&mut self, file_b: bool, addr: u32) -> u32 {
        panic!("unexpected I/O read of {} {addr}", if file_b { 'B' } else { 'A' })
    }
    fn io_write(&mut self, file_b: bool, addr: u32, value: u32) {
        self.writes.push((file_b, addr, value));
    }
    /// SFU_RECIP (52) as an exact reciprocal; the hardware's is an approximation.
    fn sfu(&mut self, addr: u32, value: u32) -> u32 {
        assert_eq!(addr, 52, "only recip is used here");
        (1.0 / f32::from_bits(value)).to_bits()
    }
    fn load_r4(&mut self, sig: u32) -> u32 {
        let value = self.r4_loads.pop_front().expect("a value for the load signal");
        self.loads.push((sig, value));
        value
    }
    fn semaphore_op(&mut self, acquire: bool, number: u32) {
        self.semaphores.push((acquire, number));
    }
}

fn assemble(source: &str) -> Vec<Instruction> {
    vc4::assemble(source, None).unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{source}"))
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
    assert_eq!(m.state.acc[5], 0xff00_ff00);
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
    m.state.acc[5] = 0x1234_5678;
    let mut r5 = Vec::new();
    for _ in 0..4 {
        assert_eq!(m.step_program(&program), Ok(true));
        r5.push(m.state.acc[5]);
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
    m.state.ra[15] = f(w);
    assert_eq!(m.run(&program, 100), Ok(7));
    // 0.25 * 2 + 0.5 = 1.0, 1.5 * 2 - 1 = 2.0, 0.75 * 2 + 0.125 = 1.625: exact in binary.
    assert_eq!(m.state.acc[0], f(1.0));
    assert_eq!(m.state.acc[1], f(2.0));
    assert_eq!(m.state.acc[2], f(1.625));
    // The last varying's C is still in r5; every varying was read once.
    assert_eq!(m.state.acc[5], f(0.125));
    assert!(m.semantics.varyings.is_empty() && m.semantics.pending_c.is_none());
    assert_eq!(m.semantics.writes, []);
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
    m.state.ra[15] = f(4.0);
    m.step_program(&program).unwrap();
    assert_eq!((m.state.acc[0], m.state.acc[5]), (f(4.0), f(10.0)));
    m.step_program(&program).unwrap();
    assert_eq!(m.state.acc[0], f(14.0), "1 * 4 + 10");
    assert_eq!((m.state.acc[1], m.state.acc[5]), (f(12.0), f(20.0)));
}

// ---- Operations without semantics ---------------------------------------------------------

/// An embedder that supplies the mul pipe's per-byte saturating add.
#[derive(Default)]
struct WithV8adds(Fragment);

impl Semantics for WithV8adds {
    fn uniform(&mut self) -> u32 {
        self.0.uniform()
    }
    fn varying(&mut self) -> u32 {
        self.0.varying()
    }
    fn varying_c(&mut self) -> u32 {
        self.0.varying_c()
    }
    fn io_read(&mut self, file_b: bool, addr: u32) -> u32 {
        self.0.io_read(file_b, addr)
    }
    fn io_write(&mut self, file_b: bool, addr: u32, value: u32) {
        self.0.io_write(file_b, addr, value)
    }
    fn sfu(&mut self, addr: u32, value: u32) -> u32 {
        self.0.sfu(addr, value)
    }
    fn load_r4(&mut self, sig: u32) -> u32 {
        self.0.load_r4(sig)
    }
    fn semaphore_op(&mut self, acquire: bool, number: u32) {
        self.0.semaphore_op(acquire, number)
    }
    fn mul_op_v8adds(&mut self, a: u32, b: u32) -> Result<u32, Trap> {
        let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
        Ok(u32::from_le_bytes([0, 1, 2, 3].map(|i| a[i].saturating_add(b[i]))))
    }
}

#[test]
fn an_operation_without_semantics_traps_unless_the_embedder_supplies_it() {
    let program =
        assemble("ldi r1, 0x80ff0102\nldi r2, 0x80020304\nnop; v8adds r0, r1, r2\nnop;  thrend\nnop\nnop");
    let mut m = Machine::new(Fragment::default());
    assert_eq!(m.run(&program, 100), Err(Trap::Unimplemented("MulOp::v8adds")));
    assert_eq!(m.state.pc, 16, "stopped at the v8adds");
    let mut m = Machine::new(WithV8adds::default());
    assert_eq!(m.run(&program, 100), Ok(6));
    assert_eq!(m.state.acc[0], 0xffff_0406);
    // The add pipe's v8adds has no semantics either.
    let program = assemble("av8adds r0, r1, r2");
    assert_eq!(
        Machine::new(Fragment::default()).run(&program, 10),
        Err(Trap::Unimplemented("AddOp::v8adds"))
    );
    // Nor has a float16 unpack.
    let program = assemble("nop; fmul r2, ra1.16af, 1.0");
    assert_eq!(
        Machine::new(Fragment::default()).run(&program, 10),
        Err(Trap::Unimplemented("UnpackFloat::u16a"))
    );
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
    assert_eq!(&m.state.acc[..3], &[1, 2, 3]);
    // The link register holds the address after the delay slots; the target is that plus 16.
    assert_eq!(m.state.ra[4], 32);
}

#[test]
fn regfile_a_packs_and_unpacks() {
    let program = assemble(
        "ldi ra1, 0xaabbccdd\nldi r0, 0x1ff\nmov ra1.8bi, r0\nldi r0, -5\nmov ra2.8asi, r0\n\
         mov r1, ra1.8ci\nnop; fmul r2, ra1.8df, 1.0",
    );
    let mut m = Machine::new(Fragment::default());
    m.state.ra[2] = 0x1122_3344;
    assert_eq!(m.run(&program, 100), Ok(7));
    // 8b: the low byte replaces byte b. 8a saturated: -5 clamps to 0.
    assert_eq!(m.state.ra[1], 0xaabb_ffdd);
    assert_eq!(m.state.ra[2], 0x1122_3300);
    // Integer unpack of byte c; float unpack of byte d (0xaa / 255).
    assert_eq!(m.state.acc[1], 0xbb);
    assert_eq!(m.state.acc[2], f(170.0 / 255.0));
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
    assert_eq!(m.state.acc[1], f(0.5), "recip(2.0) through the sfu hook, read from r4");
    assert_eq!(m.state.acc[2], 0xdead_beef);
    assert_eq!(m.semantics.loads, [(10, 0xdead_beef)], "ldtmu0 is signal 10");
    assert_eq!(m.semantics.semaphores, [(true, 9), (false, 3)]);
    assert_eq!(m.semantics.writes, [], "the SFU write is not an io_write");
}

#[test]
fn per_element_loads_give_element_0() {
    let program = assemble(
        "ldipes r0, [-2,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0]\nldipeu r1, [3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]",
    );
    let mut m = Machine::new(Fragment::default());
    assert_eq!(m.run(&program, 10), Ok(2));
    assert_eq!(m.state.acc[0], -2i32 as u32);
    assert_eq!(m.state.acc[1], 3);
}

#[test]
fn flags_and_conditions() {
    // sub.setf sets Z when equal; the conditional moves then pick one value.
    let program = assemble("ldi r0, 7\nsub.setf r1, r0, 7\nmov.ifz r2, 1\nmov.ifnz r3, 1");
    let mut m = Machine::new(Fragment::default());
    m.state.acc[3] = 42;
    assert_eq!(m.run(&program, 10), Ok(4));
    assert!(m.state.zf && !m.state.nf);
    assert_eq!((m.state.acc[2], m.state.acc[3]), (1, 42));
}
