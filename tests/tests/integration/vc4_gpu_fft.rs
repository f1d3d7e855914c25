//! GPU_FFT assembles to the words vc4asm 0.3 assembles from the same files (README in
//! tests/data/vc4/gpu_fft): every program of the FFT library, 256 to 2048k points, and its
//! transpose, with the VC4 target's prelude (`isa-specs/vc4.qinc`, `isa asm -i vc4.qinc`) for
//! the VPM/VDW setup functions vc4asm's `vc4.qinc` gives them. Neither the sources nor vc4asm's
//! output on them are in this repository (someone else's code, and a tool's output on it): the
//! two program tests read the sources from `ISA_GPU_FFT_DIR` (vc4asm's `test/` directory) and
//! the binaries the user's own vc4asm made of them (`gpu_fft_N.bin`) from
//! `ISA_GPU_FFT_EXPECTED_DIR` (default: the sources' directory), and are ignored unless asked for
//! (vc4asm's `rpi_shader.qasm` from the same directory likewise, against `rpi_shader.bin`):
//! `ISA_GPU_FFT_DIR=... cargo test -p isa-tests --test integration vc4_gpu_fft -- --ignored`.

use isa_runtime::directives::Includer;
use isa_runtime::target::Target;
use std::path::{Path, PathBuf};

fn vc4() -> &'static dyn Target {
    isa_generated::targets().iter().copied().find(|t| t.name() == "vc4").expect("vc4 target")
}

/// vc4asm's binaries of the programs, made by the user (README in tests/data/vc4/gpu_fft).
fn expected() -> PathBuf {
    std::env::var_os("ISA_GPU_FFT_EXPECTED_DIR").map_or_else(sources, PathBuf::from)
}

/// The GPU_FFT sources, outside the repository.
fn sources() -> PathBuf {
    PathBuf::from(std::env::var_os("ISA_GPU_FFT_DIR").expect("ISA_GPU_FFT_DIR: vc4asm's test/ directory"))
}

/// The program's directory for `.include` (`None`: the sources'), the target's prelude before
/// the source; the warnings reported.
#[derive(Default)]
struct Files(Option<PathBuf>, Vec<String>);

impl Includer for Files {
    fn load(&mut self, name: &str, _: bool, _: Option<&str>) -> Result<(String, String), String> {
        let dir = self.0.clone().unwrap_or_else(sources);
        let text = std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}"))?;
        Ok((name.to_string(), text))
    }

    fn warning(&mut self, warning: &isa_runtime::AsmError, _: &str) {
        self.1.push(format!("{}: {}", warning.line, warning.message));
    }

    fn preludes(&mut self) -> Vec<(String, String)> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../isa-specs/vc4.qinc");
        vec![("vc4.qinc".into(), std::fs::read_to_string(path).expect("the VC4 prelude"))]
    }
}

/// Assembles `gpu_fft_{name}.qasm`, unchanged (vc4asm's `mov -, sacq(i)` is read by the
/// semaphore's `alias` arm), and compares it with vc4asm's words: the number of words.
fn same_as_vc4asm(name: &str) -> usize {
    program_same_as_vc4asm(&format!("gpu_fft_{name}"))
}

/// Assembles `{stem}.qasm` from vc4asm's `test/` directory and compares it with vc4asm's
/// `{stem}.bin`: the number of words.
fn program_same_as_vc4asm(stem: &str) -> usize {
    program_in_same_as_vc4asm(None, stem).0
}

/// Assembles `{stem}.qasm` from `dir` (`None`: vc4asm's `test/` directory) and compares it
/// with vc4asm's `{stem}.bin`: the number of words, and the warnings (`line: message`).
fn program_in_same_as_vc4asm(dir: Option<PathBuf>, stem: &str) -> (usize, Vec<String>) {
    let file = format!("{stem}.qasm");
    let source = std::fs::read_to_string(dir.clone().unwrap_or_else(sources).join(&file)).expect("program");
    let mut errors = Vec::new();
    let mut files = Files(dir, Vec::new());
    let words = vc4().assemble_files(&file, &source, 0, &mut files, &mut |e, line| {
        errors.push(format!(
            "{}:{}:{}: {} | {line}",
            e.file.as_deref().unwrap_or(&file),
            e.line,
            e.column,
            e.message
        ))
    });
    assert!(errors.is_empty(), "{file}:\n{}", errors.join("\n"));
    let words = words.expect("words");
    // vc4asm's `-o` writes each 64-bit word little-endian.
    let binary = std::fs::read(expected().join(format!("{stem}.bin"))).expect("vc4asm's binary");
    assert_eq!(binary.len() % 8, 0, "{file}: vc4asm's binary is whole 64-bit words");
    let expected: Vec<u128> = binary
        .chunks_exact(8)
        .map(|w| u128::from(u64::from_le_bytes(w.try_into().expect("8 bytes"))))
        .collect();
    for (k, (got, want)) in words.iter().zip(&expected).enumerate() {
        assert_eq!(got, want, "{file}: word {k} is {got:016x}, vc4asm's {want:016x}");
    }
    assert_eq!(words.len(), expected.len(), "{file}: word count");
    (words.len(), files.1)
}

#[test]
#[ignore = "needs vc4asm's test programs: set ISA_GPU_FFT_DIR"]
fn vc4asm_own_test_and_sample_programs_assemble_as_vc4asm_does() {
    // vc4asm's test/ programs besides GPU_FFT, and sample/simple/smitest.qasm (beside test/),
    // with vc4asm's word counts. smitest writes the mul pack `.8abcds` (vc4asm's 11, which no
    // reference defines: a warning each time, 7 words); parser.macro leaves an `.if` open at its
    // end (vc4asm's P145.20 there: a warning, its line 8).
    let programs = [
        ("gpu_fft_256_new", 235),
        ("parser.rot", 19),
        ("asm.misc", 9),
        ("asm.macro", 6),
        ("validator.VPM", 6),
    ];
    for (stem, words) in programs {
        assert_eq!(program_in_same_as_vc4asm(None, stem).0, words, "{stem}");
    }
    let (words, warnings) = program_in_same_as_vc4asm(None, "parser.macro");
    assert_eq!(words, 4);
    assert_eq!(warnings, ["8: `.if` without its end: closed at the end of the file"]);
    let (words, warnings) = program_in_same_as_vc4asm(Some(sources().join("../sample/simple")), "smitest");
    assert_eq!(words, 130);
    assert_eq!(warnings.iter().filter(|w| w.contains("mul pack (pm = 1)")).count(), 7, "{warnings:#?}");
}

#[test]
#[ignore = "needs vc4asm's test programs: set ISA_GPU_FFT_DIR"]
fn the_raspberry_pi_shader_assembles_as_vc4asm_does() {
    // vc4asm's `rpi_shader.qasm` (with its includes, beside it): vector rotations on file-A
    // mul sources, `bra -, ra31`, `nop ; ...`, `mov r3, 0` beside an add operation, a load
    // immediate followed by `; nop`, and the prelude's `dma_h8p`.
    assert_eq!(program_same_as_vc4asm("rpi_shader"), 678);
}

#[test]
#[ignore = "needs GPU_FFT's sources: set ISA_GPU_FFT_DIR"]
fn the_transpose_assembles_as_vc4asm_does() {
    assert_eq!(same_as_vc4asm("trans"), 126);
}

#[test]
#[ignore = "needs GPU_FFT's sources: set ISA_GPU_FFT_DIR"]
fn every_fft_size_assembles_as_vc4asm_does() {
    // Word counts of vc4asm's binaries (bytes / 8).
    let sizes = [
        ("256", 321),
        ("512", 450),
        ("1k", 447),
        ("2k", 679),
        ("4k", 434),
        ("8k", 516),
        ("16k", 562),
        ("32k", 538),
        ("64k", 772),
        ("128k", 605),
        ("256k", 698),
        ("512k", 781),
        ("1024k", 707),
        ("2048k", 1103),
    ];
    for (name, words) in sizes {
        assert_eq!(same_as_vc4asm(name), words, "gpu_fft_{name}");
    }
}

#[test]
fn the_prelude_gives_the_setup_words_of_the_reference() {
    // Worked from the VPM/VCD register formats (Broadcom's reference guide, tables 32 and 34):
    // a generic block write of one 32-bit row, stride 1, at Y 16 is NUM 1 << 20 | STRIDE
    // 1 << 12 | SIZE 2 << 8 | 16; a VDW store of 16 rows of 16 words horizontally from Y 0
    // is ID 2 << 30 | UNITS 16 << 23 | DEPTH 16 << 16 | HORIZ 1 << 14.
    let source = "\
ldi r0, vpm_setup(1, 1, v32(16, 0))
ldi r1, vdw_setup_0(16, 16, dma_h32(0, 0))
ldi r2, vdw_setup_1(0x40)
ldi r3, vpm_setup(1, -1, h32(5))
";
    let mut errors = Vec::new();
    let words = vc4().assemble_files("setup.qasm", source, 0, &mut Files::default(), &mut |e, _| {
        errors.push(e.message.clone())
    });
    assert!(errors.is_empty(), "{errors:?}");
    let imm: Vec<u32> = words.expect("words").iter().map(|w| *w as u32).collect();
    assert_eq!(imm, [0x0010_1210, 0x8810_4000, 0xc000_0040, 0x0013_fa05]);
}

#[test]
fn the_prelude_reverses_bits() {
    // reverseBits(x, n): the low n bits of x backwards (GPU_FFT's twiddle order): 1 in 3 bits
    // 001 -> 100 = 4; ~6 in 4 bits 1001 -> 1001 = 9; 13 in 4 bits 1101 -> 1011 = 11; 6 in 3
    // bits 110 -> 011 = 3; 0x80000000 in 32 bits -> 1.
    let source = "\
.byte reverseBits(1, 3), reverseBits(~6, 4), reverseBits(16 - 3, 4), reverseBits(6, 3)
.int reverseBits(0x80000000, 32)
";
    let mut errors = Vec::new();
    let words = vc4().assemble_files("bits.qasm", source, 0, &mut Files::default(), &mut |e, _| {
        errors.push(e.message.clone())
    });
    assert!(errors.is_empty(), "{errors:?}");
    // Data in 64-bit words, little-endian: the four bytes, then the int after them.
    assert_eq!(words.expect("words"), [0x0000_0001_030b_0904]);
}
