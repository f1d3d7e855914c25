//! `stream` and `bundle` target settings (isa-specs/README.md §2): what a mistake in them is
//! told as, each at its place in the spec.

use crate::common::diagnose;

/// A target with streams `alu` (formats `add`) and `head` (computed from `alu`'s count), with
/// `settings` added to its bundle and `stream_extra` to its streams.
fn spec(stream_extra: &str, settings: &str) -> String {
    format!(
        "target t {{\n    word 32\n    dialect asm\n    stream head {{ bits 32; computed head; count ops, alu }}\n    stream alu {{ bits 32; formats add }}\n{stream_extra}    bundle b {{\n        keyword \"B\"\n        unit alu {{ label \"ALU:\"; max 2 }}\n{settings}    }}\n}}\nformat head : 32 {{\n    ops: u2 @ 1:0\n    unused @ 31:2\n    syntax asm {{ \"h\" }}\n}}\nformat add : 32 {{\n    rd: u8 @ 7:0\n    unused @ 31:8\n    syntax asm {{ \"add r\" {{rd}} }}\n}}\n"
    )
}

#[test]
fn a_good_bundle_checks() {
    let source = spec("", "");
    let t = isa_compiler::check_source(&source)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("b.isa", &source, &d)));
    let (streams, b) = t.bundled().expect("bundled");
    assert_eq!(b.keyword, "B");
    assert_eq!(streams.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["head", "alu"]);
    assert!(t.interleaved().is_none());
    assert_eq!(b.units[0].max, Some(2));
}

/// A bundled target reads each stream a word of the stream's width at a time, so a format
/// narrower than the target's word (a 32-bit computed head beside 64-bit words, as Tegra's
/// 32-bit streams beside its 64-bit ALU words) does not make its program a byte stream, and
/// big-endian words are allowed; without bundles such a format still needs `byte_order little`.
#[test]
fn a_bundled_target_takes_narrower_formats_in_either_byte_order() {
    let wide = |order: &str| {
        spec("", "")
            .replace("    word 32\n", &format!("    word 64\n    byte_order {order}\n"))
            .replace("stream alu { bits 32;", "stream alu { bits 64;")
            .replace("    unused @ 31:8\n", "    unused @ 63:8\n")
            .replace("format add : 32 {", "format add {")
    };
    for order in ["big", "little"] {
        let source = wide(order);
        let t = isa_compiler::check_source(&source)
            .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("b.isa", &source, &d)));
        let (streams, _) = t.bundled().expect("bundled");
        assert_eq!(streams.iter().map(|s| s.bits).collect::<Vec<_>>(), [32, 64], "{order}");
    }
    let plain = "target t {\n    word 64\n    byte_order big\n    dialect asm\n}\nformat h : 32 {\n    op: u8 @ 7:0 is 1\n    unused @ 31:8\n    syntax asm { \"h\" }\n}\nformat w {\n    op: u8 @ 7:0 is 2\n    unused @ 63:8\n    syntax asm { \"w\" }\n}\n";
    let d = diagnose(plain);
    assert!(d.contains("`h` makes instructions differ in length, which needs `byte_order little`"), "{d}");
}

#[test]
fn stream_mistakes_are_located() {
    let d = diagnose(&spec("    stream mem { bits 48; formats load }\n", ""));
    assert!(d.contains("a stream's words are 32, 64, 96 or 128 bits"), "{d}");
    assert!(d.contains("bad.isa:6:23"), "{d}");
    assert!(d.contains("unknown format `load`"), "{d}");
    let d = diagnose(&spec("    stream mem { bits 32; reset 0x100000000; colour 3 }\n", ""));
    assert!(d.contains("the reset word does not fit the stream's 32 bits"), "{d}");
    assert!(d.contains("unknown stream setting `colour`"), "{d}");
}

#[test]
fn bundle_mistakes_are_located() {
    let d = diagnose(&spec("", "        unit mem { label \"M:\" }\n        unit head { label \"H:\" }\n"));
    assert!(d.contains("unknown stream `mem`"), "{d}");
    assert!(d.contains("stream `head` is computed: no unit writes it"), "{d}");
    let d = diagnose(&spec("    stream mem { bits 32 }\n", "        unit mem { label \"M:\"; max 3 }\n"));
    assert!(d.contains("no computed stream counts the unit `M:`"), "{d}");
    let d = diagnose(&spec("", "        unit alu { label \"A:\" }\n"));
    assert!(d.contains("two units of stream `alu`"), "{d}");
}

/// A target whose control word comes before every `every` instructions, with `extra` settings
/// added to the target.
fn interleaved(every: &str, extra: &str) -> String {
    format!(
        "target t {{\n    word 64\n    dialect asm\n    stream control {{ every {every}; slot slot; pad 0x5000000000000000 }}\n{extra}}}\nformat slot : 21 {{\n    stall: u4 @ 3:0\n    unused @ 20:4\n    syntax asm {{ \"[\" {{stall}} \"]\" }}\n}}\nformat nop {{\n    op: u8 @ 63:56 is 0x50\n    unused @ 55:0\n    syntax asm {{ \"nop\" }}\n}}\n"
    )
}

/// An interleaved stream is the one stream of its target; the slot format leaves the
/// instructions.
#[test]
fn an_interleaved_stream_checks() {
    let source = interleaved("3", "");
    let t = isa_compiler::check_source(&source)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("s.isa", &source, &d)));
    let s = t.interleaved().expect("interleaved");
    assert_eq!((s.slot.name.as_str(), s.slot.width, s.every, s.pad), ("slot", 21, 3, 0x5000000000000000));
    assert_eq!(t.formats.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["nop"]);
    assert!(t.bundled().is_none());
    assert_eq!(t.streams.as_ref().map(|s| s.streams[0].bits), Some(64));
}

/// Found by the spec fuzzer (seed 20261128, generated #158): on a 128-bit target the pad
/// word's range check shifted a `u128` by 128 (a panic in a debug build). A pad that is an
/// instruction checks; one that is none is an error at it.
#[test]
fn an_interleaved_stream_of_128_bit_words() {
    let source = |pad: &str| {
        format!(
            "target t {{\n    word 128\n    dialect asm\n    stream control {{ every 3; slot slot; pad {pad} }}\n}}\nformat slot : 21 {{\n    stall: u4 @ 3:0\n    unused @ 20:4\n    syntax asm {{ \"[\" {{stall}} \"]\" }}\n}}\nformat nop {{\n    op: u8 @ 7:0 is 0x50\n    unused @ 127:64\n    unused @ 63:8\n    syntax asm {{ \"nop\" }}\n}}\n"
        )
    };
    let good = source("0x50");
    let t = isa_compiler::check_source(&good)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("s.isa", &good, &d)));
    assert_eq!(t.interleaved().map(|s| (s.every, s.pad)), Some((3, 0x50)));
    let d = diagnose(&source("0x1"));
    assert!(d.contains("the pad word 0x1 is no instruction of this target"), "{d}");
    assert!(d.contains("bad.isa:4:46"), "{d}");
}

/// A word setting (`pad`, `reset`) is a word of up to 128 bits, where other numbers stop at 64:
/// on a 128-bit target whose NOP's opcode is bits 127:120, the pad is that NOP's word, its
/// high half included (a 64-bit setting could only give the low half). Past 128 bits, and a
/// count past 64, are errors at the literal.
#[test]
fn a_pad_word_may_be_128_bits() {
    let source = |pad: &str, every: &str| {
        format!(
            "target t {{\n    word 128\n    dialect asm\n    stream control {{ every {every}; slot slot; pad {pad} }}\n}}\nformat slot : 21 {{\n    stall: u4 @ 3:0\n    unused @ 20:4\n    syntax asm {{ \"[\" {{stall}} \"]\" }}\n}}\nformat nop {{\n    op: u8 @ 127:120 is 0x50\n    unused @ 119:64\n    unused @ 63:0\n    syntax asm {{ \"nop\" }}\n}}\n"
        )
    };
    let good = source("0x5000_0000_0000_0000_0000_0000_0000_0007", "3");
    let t = isa_compiler::check_source(&good)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("s.isa", &good, &d)));
    assert_eq!(t.interleaved().map(|s| s.pad), Some(0x50 << 120 | 7));
    let d = diagnose(&source("0x1_5000_0000_0000_0000_0000_0000_0000_0000", "3"));
    assert!(d.contains("does not fit in 128 bits"), "{d}");
    let d = diagnose(&source("0x50", "0x1_0000_0000_0000_0000"));
    assert!(d.contains("does not fit in 64 bits"), "{d}");
    // The high half alone is no NOP: the word is compared whole.
    let d = diagnose(&source("0x5000_0000_0000_0000_0000_0000_0000_0000", "3").replace("is 0x50", "is 0x51"));
    assert!(d.contains("the pad word 0x50000000000000000000000000000000 is no instruction"), "{d}");
}

/// Grouping by a count and writing bundles are one mechanism's two kinds: a target declaring
/// both is an error at each other stream and at the bundle, pointing at the interleaved one.
#[test]
fn an_interleaved_stream_and_bundles_are_not_both() {
    let extra = "    stream alu { bits 64; formats nop }\n    bundle b { keyword \"B\"; unit alu { label \"A:\" } }\n";
    let d = diagnose(&interleaved("3", extra));
    assert_eq!(
        d.matches("a program is either instructions grouped behind control words or bundles, not both")
            .count(),
        2,
        "{d}"
    );
    assert!(d.contains("bad.isa:5:5"), "{d}");
    assert!(d.contains("bad.isa:6:5"), "{d}");
    assert!(d.contains("the instructions are grouped here (`every`)"), "{d}");
}

/// The former `schedule` setting is told how it is spelled now; interleaved settings on a
/// bundled stream and bundle settings on an interleaved one are errors.
#[test]
fn interleaved_stream_mistakes_are_located() {
    let d = diagnose(&interleaved("3", "    schedule slot { slots 3 pad 0x5000000000000000 }\n"));
    assert!(d.contains("`schedule` is a stream interleaved with the instructions"), "{d}");
    assert!(d.contains("bad.isa:5:5"), "{d}");
    let d = diagnose(&interleaved("4", ""));
    assert!(d.contains("`every N` must fit N slots of 21 bits in the 64-bit control word"), "{d}");
    let d = diagnose(&interleaved("3; reset 0x0; bits 32", ""));
    assert!(d.contains("`reset` is not a setting of an interleaved stream"), "{d}");
    assert!(d.contains("an interleaved stream's words are the 64-bit instruction words"), "{d}");
    let d = diagnose(&spec("    stream mem { bits 32; slot add }\n", ""));
    assert!(d.contains("`slot` belongs to an interleaved stream"), "{d}");
    // `raw_control` names one directive (issue 15).
    let good = interleaved("3; raw_control \".control\"", "");
    let t = isa_compiler::check_source(&good)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("s.isa", &good, &d)));
    assert_eq!(t.interleaved().and_then(|s| s.raw_control.as_deref()), Some(".control"));
    let d = diagnose(&interleaved("3; raw_control \". control\"", ""));
    assert!(d.contains("`raw_control` names a directive: one word"), "{d}");
    assert!(d.contains("bad.isa:4:43"), "{d}");
    let d = diagnose(&interleaved("3; raw_control 1", ""));
    assert!(d.contains("`raw_control` takes the directive's spelling"), "{d}");
    assert!(d.contains("bad.isa:4:31"), "{d}");
    let d = diagnose(&spec("    stream mem { bits 32; raw_control \".control\" }\n", ""));
    assert!(d.contains("`raw_control` belongs to an interleaved stream"), "{d}");
}
