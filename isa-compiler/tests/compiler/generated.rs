//! The generated Rust of small specs, as snapshots: a change to the compiler shows its effect
//! on generated code in review (rust-analyzer's and iced's habit). The specs are the ones the
//! derive tests compile and run (`isa-derive/tests/specs/`), so what is shown here is also
//! known to compile and behave; `cargo insta review` accepts an intended change.

fn generated(path: &str) -> String {
    let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    match isa_compiler::compile(path, &source) {
        Ok(out) => out.rust,
        Err(rendered) => panic!("{rendered}"),
    }
}

/// Two formats of a 16-bit machine: enums, decoder, encoder, syntax tables, assembler.
#[test]
fn toy_target() {
    insta::assert_snapshot!(generated("isa-derive/tests/specs/toy.isa"));
}

/// Groups, forms, lets, `zero` and `execute when` expanded: six encodings and an interpreter.
#[test]
fn family_target() {
    insta::assert_snapshot!(generated("isa-derive/tests/specs/family.isa"));
}

/// The `if`s and `match`es of `tokens` (at any depth) whose condition is a block (`if { … } {`):
/// clippy's `blocks_in_conditions` rejects them. Parentheses around the block do not hide it.
fn block_conditions(tokens: proc_macro2::TokenStream, found: &mut Vec<String>) {
    use proc_macro2::{Delimiter, TokenTree};
    fn is_block(t: &TokenTree) -> bool {
        match t {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => true,
            TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => {
                let mut inner = g.stream().into_iter();
                matches!((inner.next(), inner.next()), (Some(t), None) if is_block(&t))
            }
            _ => false,
        }
    }
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, t) in trees.iter().enumerate() {
        match t {
            TokenTree::Ident(k) if k == "if" || k == "match" => {
                // `if { … } && x {` is a condition holding a block, not a block: not linted.
                let body = trees
                    .get(i + 2)
                    .is_some_and(|b| matches!(b, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace));
                if let Some(next) = trees.get(i + 1).filter(|n| body && is_block(n)) {
                    found.push(format!("{k} {}", next.to_string().chars().take(120).collect::<String>()));
                }
            }
            TokenTree::Group(g) => block_conditions(g.stream(), found),
            _ => {}
        }
    }
}

/// No generated `if` or `match` has a block as its condition, also where the condition calls
/// a function whose arguments call the machine (bound first since agx.isa's `fcmpsel` met it).
#[test]
fn no_block_is_a_condition() {
    for path in ["isa-derive/tests/specs/hygiene.isa", "isa-specs/agx.isa"] {
        let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
        let source = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
        let target = isa_compiler::check_source(&source)
            .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render(path, &source, &d)));
        let mut found = Vec::new();
        block_conditions(isa_compiler::backend::rust::generate_tokens(&target), &mut found);
        assert!(found.is_empty(), "{path}: {found:#?}");
    }
}

/// The build script's unformatted module is the formatted one (`isa gen`'s), token for token:
/// formatted with prettyplease, it reads the same, for the derive tests' specs, VC4 and a
/// synthetic spec. (Every shipped spec's unformatted module is what `isa-generated` compiles.)
#[test]
fn unformatted_module_is_the_formatted_one() {
    let dir = format!("{}/..", env!("CARGO_MANIFEST_DIR"));
    let entries =
        std::fs::read_dir(format!("{dir}/isa-derive/tests/specs")).unwrap_or_else(|e| panic!("{e}"));
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "isa"))
        .collect();
    paths.sort();
    paths.push(format!("{dir}/isa-specs/vc4.isa").into());
    let mut sources: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
            )
        })
        .collect();
    sources.push(("synthetic".into(), super::synthetic::spec(20)));
    let mut compared = 0;
    for (path, source) in &sources {
        // Some of the derive tests' specs are meant not to check.
        let Ok(target) = isa_compiler::check_source(source) else { continue };
        let formatted = isa_compiler::backend::rust::generate_from(&target, "x.isa");
        let compact = isa_compiler::backend::rust::generate_compact_from(&target, "x.isa");
        let file = syn::parse_file(&compact).unwrap_or_else(|e| panic!("{path}: {e}"));
        let header = "// Generated by isa from x.isa. Do not edit: change the spec and regenerate.\n\n";
        assert_eq!(format!("{header}{}", prettyplease::unparse(&file)), formatted, "{path}");
        compared += 1;
    }
    assert!(compared >= 9, "{compared} specs compared");
}

/// The `Ok(…)`s of `tokens` (at any depth) that wrap one call and its `?`, `Ok(self.f(x)?)`:
/// clippy's `needless_question_mark` rejects them (the call's own `Result` is the value).
fn rewrapped_results(tokens: proc_macro2::TokenStream, found: &mut Vec<String>) {
    use proc_macro2::{Delimiter, TokenTree};
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, t) in trees.iter().enumerate() {
        if let TokenTree::Group(g) = t {
            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
            let after_ok = i > 0 && matches!(&trees[i - 1], TokenTree::Ident(k) if k == "Ok");
            let one_call = matches!(inner.last(), Some(TokenTree::Punct(p)) if p.as_char() == '?')
                && inner[..inner.len() - 1].iter().all(|t| match t {
                    TokenTree::Punct(p) => matches!(p.as_char(), '.' | ':'),
                    TokenTree::Group(g) => g.delimiter() == Delimiter::Parenthesis,
                    _ => true,
                });
            if after_ok && g.delimiter() == Delimiter::Parenthesis && one_call {
                found.push(format!("Ok({})", g.stream()));
            }
            rewrapped_results(g.stream(), found);
        }
    }
}

/// No generated function returns `Ok(call?)`: a spec function whose body is one call of a
/// function or an operation (maxwell.isa's `cc_holds`, a CC test of the flags) returns the call.
#[test]
fn no_result_is_unwrapped_and_wrapped_again() {
    for path in ["isa-derive/tests/specs/hygiene.isa", "isa-specs/maxwell.isa"] {
        let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
        let source = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
        let target = isa_compiler::check_source(&source)
            .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render(path, &source, &d)));
        let mut found = Vec::new();
        rewrapped_results(isa_compiler::backend::rust::generate_tokens(&target), &mut found);
        assert!(found.is_empty(), "{path}: {found:#?}");
    }
}
