//! With the `bench` feature: writes the decoding part of the synthetic specs' Rust modules
//! (`isa_compiler::backend::rust::generate_decoder_compact_from`) to
//! `$OUT_DIR/synthetic_<n>.rs`, n = 100, 2,000 and 10,000. Without it, nothing.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "bench")]
    generate();
}

#[cfg(feature = "bench")]
#[path = "../../isa-compiler/tests/compiler/synthetic.rs"]
mod synthetic;

#[cfg(feature = "bench")]
fn generate() {
    println!("cargo:rerun-if-changed=../../isa-compiler/tests/compiler/synthetic.rs");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    for n in [100, 2_000, 10_000] {
        let Ok(target) = isa_compiler::check_source(&synthetic::spec(n)) else {
            panic!("the synthetic spec of {n} encodings does not check")
        };
        let code = isa_compiler::backend::rust::generate_decoder_compact_from(&target, "synthetic.isa");
        let file = out.join(format!("synthetic_{n}.rs"));
        if let Err(e) = std::fs::write(&file, code) {
            panic!("cannot write {}: {e}", file.display());
        }
    }
}
