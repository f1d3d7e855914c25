//! Random specs (written by `isa-compiler/tests/compiler/placement.rs`, `write_compiled_samples`),
//! compiled: for every leaf of the format the spec's `// ref` lines list the word bits of its
//! value bits. Decoding a word with exactly those bits set must give that leaf all ones and
//! every other leaf zero, and encoding the decoded instruction must give the word back.

use isa_runtime::value::Value;
use isa_runtime::{DecodeError, EncodeError};

mod random_0 {
    isa_derive::target!("tests/specs/random_0.isa");
}
mod random_1 {
    isa_derive::target!("tests/specs/random_1.isa");
}
mod random_2 {
    isa_derive::target!("tests/specs/random_2.isa");
}

/// What a target makes of a word: its fields by name, and the word it encodes back to.
type Decoded = Result<(Vec<(&'static str, Value)>, Result<u128, EncodeError>), DecodeError>;

/// Every leaf of a decoded value with its path (`x0[1].g0`), for unsigned leaves.
fn leaves(prefix: &str, value: &Value, out: &mut Vec<(String, u64)>) {
    match value {
        Value::Uint(v) => out.push((prefix.to_string(), *v)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                leaves(&format!("{prefix}[{i}]"), item, out);
            }
        }
        Value::Struct(fields) => {
            for (name, v) in fields {
                leaves(&format!("{prefix}.{name}"), v, out);
            }
        }
        other => panic!("{prefix}: unexpected value {other:?}"),
    }
}

fn check(source: &str, decode: impl Fn(u128) -> Decoded) {
    const OP: u128 = 1 << 120;
    let refs: Vec<(&str, Vec<u32>)> = source
        .lines()
        .filter_map(|l| l.strip_prefix("// ref "))
        .map(|l| {
            let mut parts = l.split_whitespace();
            let path = parts.next().expect("a path");
            (path, parts.map(|b| b.parse().expect("a bit number")).collect())
        })
        .collect();
    assert!(!refs.is_empty(), "the spec lists its reference bits");
    for (path, bits) in &refs {
        let word = bits.iter().fold(OP, |w, b| w | 1u128 << b);
        let (fields, encoded) = decode(word).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        let mut all = Vec::new();
        for (name, v) in &fields {
            if *name != "op" {
                leaves(name, v, &mut all);
            }
        }
        let ones = if bits.len() >= 64 { u64::MAX } else { (1u64 << bits.len()) - 1 };
        for (leaf, v) in &all {
            let want = if leaf == path { ones } else { 0 };
            assert_eq!(*v, want, "{leaf} after setting {path}");
        }
        assert!(all.iter().any(|(leaf, _)| leaf == path), "{path} is a leaf of the format");
        assert_eq!(encoded, Ok(word), "{path}: encode after decode");
    }
}

#[test]
fn random_0() {
    check(include_str!("../specs/random_0.isa"), |w| {
        random_0::Instruction::decode(w).map(|i| (i.fields(), i.encode()))
    });
}

#[test]
fn random_1() {
    check(include_str!("../specs/random_1.isa"), |w| {
        random_1::Instruction::decode(w).map(|i| (i.fields(), i.encode()))
    });
}

#[test]
fn random_2() {
    check(include_str!("../specs/random_2.isa"), |w| {
        random_2::Instruction::decode(w).map(|i| (i.fields(), i.encode()))
    });
}
