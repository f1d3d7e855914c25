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
    let b = t.bundles.expect("bundled");
    assert_eq!(b.keyword, "B");
    assert_eq!(b.streams.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["head", "alu"]);
    assert_eq!(b.units[0].max, Some(2));
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
