//! Integration tests of the isa workspace live in `tests/`; this crate holds what several of
//! them share: the seed documents' worked programs and a deterministic random generator, and the
//! fuzzer ([`fuzz`]) that the `fuzz` binary runs in full and the tests run a slice of.

pub mod fuzz;

/// Seed 004's uniform example: four uniforms converted and packed into r5 with the MUL packs
/// 8a, 8b, 8c, 8d (the first instruction is the seed's worked word 0xD14059E5_20820DF7), the
/// colour written to TLB_COLOUR_ALL, then thread end and its two delay slots.
pub const VC4_UNIFORM_PROGRAM: &str = "
.long 0xd14059e520820df7
nop; fmul r5quad.8bsf, unif, 1.0
nop; fmul r5quad.8csf, unif, 1.0
nop; fmul r5quad.8dsf, unif, 1.0
mov tlbc, r5
nop;  thrend
nop
nop
";

/// Seed 004's varying example: three varyings interpolated as V * W + C through r5 (the second
/// instruction is the seed's second worked encoding), then thread end and two delay slots.
pub const VC4_VARYING_PROGRAM: &str = "
nop; fmul r0, ra15, vary
.long 0x11024821213e3177
fadd r1, r1, r5; fmul r2, ra15, vary
fadd r2, r2, r5
nop;  thrend
nop
nop
";

/// A program of grate's `tests/grate/asm/` (grate-driver/grate), read from the directory
/// `ISA_GRATE_TESTS_DIR` names: grate's programs are its own code and are not in this
/// repository (tests/data/tegra/README.md). The tests that read them are `#[ignore]`d.
pub fn grate_program(name: &str) -> String {
    let Some(dir) = std::env::var_os("ISA_GRATE_TESTS_DIR") else {
        panic!("ISA_GRATE_TESTS_DIR: the directory of grate's tests/grate/asm programs");
    };
    let path = std::path::Path::new(&dir).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A Tegra program of our own under tests/data/tegra.
pub fn tegra_program(name: &str) -> String {
    let path = format!("{}/data/tegra/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Files for `.include`, held in memory: (name, text) pairs.
pub struct MemoryFiles(pub &'static [(&'static str, &'static str)]);

impl isa_runtime::directives::Includer for MemoryFiles {
    fn load(&mut self, name: &str, _: bool, _: Option<&str>) -> Result<(String, String), String> {
        match self.0.iter().find(|(n, _)| *n == name) {
            Some((n, text)) => Ok((n.to_string(), text.to_string())),
            None => Err(format!("cannot find `{name}`")),
        }
    }
}

/// xorshift64*: small, fast and deterministic, so every run checks the same words.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}
