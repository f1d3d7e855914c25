//! The documentation tables checked in under `docs/targets/` are regenerated from the specs and
//! compared: a spec change that is not followed by regenerating them fails here, with the
//! command to run.

use std::path::Path;

#[test]
fn checked_in_docs_match_the_specs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut stale = Vec::new();
    let mut specs: Vec<_> = std::fs::read_dir(root.join("isa-specs"))
        .expect("isa-specs/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "isa"))
        .collect();
    specs.sort();
    assert!(!specs.is_empty());
    for spec in specs {
        let source = std::fs::read_to_string(&spec).expect("spec readable");
        let target = isa_compiler::check_source(&source).expect("shipped specs check");
        for (ext, text) in [
            ("md", isa_compiler::backend::docs::markdown(&target)),
            ("html", isa_compiler::backend::docs::html(&target)),
        ] {
            let path = root.join("docs/targets").join(format!("{}.{ext}", target.name));
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale documentation: {stale:?}\nregenerate with:\n    cargo run -p isa-cli -- docs isa-specs/<spec>.isa -o docs/targets"
    );
}
