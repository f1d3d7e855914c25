//! What the diagnostics tests share: a spec's rendered diagnostics, and specs under one header.

/// The rendered diagnostics of a spec that must not check.
pub fn diagnose(source: &str) -> String {
    match isa_compiler::check_source(source) {
        Ok(_) => panic!("expected diagnostics for:\n{source}"),
        Err(d) => isa_compiler::diag::render("bad.isa", source, &d),
    }
}

/// The target every test spec starts with.
pub const HEAD: &str = "target t {\n    word 32\n    dialect asm\n}\n";

/// `body` under [`HEAD`].
pub fn spec(body: &str) -> String {
    format!("{HEAD}{body}")
}
