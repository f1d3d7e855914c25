//! AGX instructions against applegpu's own disassembler, class by class: random words of each
//! class, with the text applegpu printed for them (tests/data/agx/applegpu.tsv; how it was made
//! is in tests/data/agx/README.md). Each word decodes to applegpu's text; the text assembles to
//! bytes that print it again, no longer than the word, and to exactly the bytes applegpu's own
//! assembler wrote for it where that assembler could read it back.

use isa_generated::agx::Agx;
use isa_runtime::target::{assemble_program, disassemble_word, instruction_bytes, join_stream, split_stream};
use std::collections::BTreeMap;

struct Case {
    class: String,
    bytes: Vec<u8>,
    text: String,
    assembled: Option<Vec<u8>>,
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex")).collect()
}

fn cases() -> Vec<Case> {
    let path = format!("{}/data/agx/applegpu.tsv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("tests/data/agx/applegpu.tsv");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 4, "{l}");
            Case {
                class: cols[0].to_string(),
                bytes: hex(cols[1]),
                text: cols[2].to_string(),
                assembled: (cols[3] != "-").then(|| hex(cols[3])),
            }
        })
        .collect()
}

/// Every class the spec describes has cases, and every case prints as applegpu printed it.
#[test]
fn random_words_of_every_class_print_as_applegpu_prints_them() {
    let mut failures = Vec::new();
    let mut per_class: BTreeMap<&str, usize> = BTreeMap::new();
    let cases = cases();
    for c in &cases {
        *per_class.entry(c.class.as_str()).or_default() += 1;
        let words = split_stream::<Agx>(&c.bytes);
        let ours = words.first().map(|w| (instruction_bytes::<Agx>(*w), disassemble_word::<Agx>(*w, 0, 0)));
        match ours {
            Some((n, Ok(t))) if n == c.bytes.len() && t == c.text => {}
            other => failures.push(format!(
                "{} {}: applegpu `{}`, ours {other:?}",
                c.class,
                hex_of(&c.bytes),
                c.text
            )),
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
    assert!(per_class.values().all(|n| *n >= 20), "{per_class:?}");
}

#[test]
fn applegpu_text_assembles_back() {
    let mut failures = Vec::new();
    for c in cases() {
        let back = match assemble_program::<Agx>(&c.text, 0) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("{}: {e:?}", c.text));
                continue;
            }
        };
        let bytes = join_stream::<Agx>(&back);
        let again = disassemble_word::<Agx>(back[0], 0, 0);
        if again.as_deref() != Ok(c.text.as_str()) || bytes.len() > c.bytes.len() {
            failures.push(format!("{}: {} prints {again:?}", c.text, hex_of(&bytes)));
        }
        if let Some(a) = &c.assembled {
            if *a != bytes {
                failures.push(format!(
                    "{}: applegpu assembles {}, ours {}",
                    c.text,
                    hex_of(a),
                    hex_of(&bytes)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

fn hex_of(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
