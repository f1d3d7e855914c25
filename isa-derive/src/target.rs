//! `target!("path.isa")`: a whole target from a spec file of the invoking crate.

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use std::path::{Path, PathBuf};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, ExprMacro, Lit, LitStr, Token};

/// Lints generated code is exempt from: the user cannot edit it, and a target's items are
/// there whether the crate uses them or not.
fn allow_attribute() -> syn::Attribute {
    syn::parse_quote!(#[allow(
        unused,
        missing_docs,
        missing_debug_implementations,
        nonstandard_style,
        clippy::all,
        clippy::pedantic,
        rustdoc::all
    )])
}

/// The macro's argument: a string literal, or `concat!` of string literals and `env!("VAR")`.
struct SpecPath {
    tokens: TokenStream,
    value: String,
}

impl Parse for SpecPath {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let expr: Expr = input.parse()?;
        let _: Option<Token![,]> = input.parse()?;
        if !input.is_empty() {
            return Err(input.error("`target!` takes one spec path: `target!(\"specs/x.isa\")`"));
        }
        let value = path_value(&expr)?;
        Ok(SpecPath { tokens: expr.to_token_stream(), value })
    }
}

fn path_value(expr: &Expr) -> syn::Result<String> {
    match expr {
        Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Ok(s.value()),
        Expr::Macro(ExprMacro { mac, .. }) if mac.path.is_ident("concat") => {
            let parts = mac.parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)?;
            parts.iter().map(path_value).collect()
        }
        Expr::Macro(ExprMacro { mac, .. }) if mac.path.is_ident("env") => {
            let name: LitStr = mac.parse_body()?;
            std::env::var(name.value()).map_err(|_| {
                syn::Error::new_spanned(
                    &name,
                    format!("environment variable `{}` is not set while expanding `target!`", name.value()),
                )
            })
        }
        _ => Err(syn::Error::new_spanned(
            expr,
            "`target!` takes the spec's path as a string literal (relative to the crate's \
             Cargo.toml), or `concat!` of string literals and `env!(\"VAR\")`",
        )),
    }
}

/// Where the spec is: relative paths are relative to the invoking crate's manifest directory.
fn resolve(path: &str) -> PathBuf {
    let p = Path::new(path);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(dir) => Path::new(&dir).join(p),
        None => p.to_path_buf(),
    }
}

pub fn expand(input: TokenStream) -> TokenStream {
    let spec: SpecPath = match syn::parse2(input) {
        Ok(s) => s,
        Err(e) => return e.to_compile_error(),
    };
    let error = |message: String| syn::Error::new_spanned(&spec.tokens, message);
    let path = resolve(&spec.value);
    let shown = spec.value.as_str();
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            let place = if Path::new(shown).is_absolute() {
                String::new()
            } else {
                format!(" (looked for `{}`)", path.display())
            };
            return error(format!("cannot read spec file `{shown}`{place}: {e}")).to_compile_error();
        }
    };
    // Rebuild when the spec changes: rustc records the included file as a dependency.
    let track = match path.to_str() {
        Some(p) => {
            let lit = LitStr::new(p, Span::call_site());
            quote!(
                const _: &[u8] = include_bytes!(#lit);
            )
        }
        None => {
            return error(format!("the spec's path `{}` is not UTF-8", path.display())).to_compile_error()
        }
    };
    let target = match isa_compiler::check_source(&source) {
        Ok(t) => t,
        Err(diagnostics) => {
            let mut errors = diagnostics
                .iter()
                .map(|d| error(isa_compiler::diag::one_line(shown, &source, d)))
                .collect::<Vec<_>>()
                .into_iter();
            let mut first = errors.next().unwrap_or_else(|| error(format!("{shown}: the spec has errors")));
            for e in errors {
                first.combine(e);
            }
            let errors = first.to_compile_error();
            return quote!(#track #errors);
        }
    };
    // The module's tokens as they are: formatting them as text to parse it back was most of
    // the macro's time.
    let mut file = match syn::parse2::<syn::File>(isa_compiler::backend::rust::generate_tokens(&target)) {
        Ok(f) => f,
        Err(e) => {
            return error(format!("{shown}: the generated code does not parse: {e}")).to_compile_error()
        }
    };
    for item in &mut file.items {
        if let Some(attrs) = attrs_mut(item) {
            attrs.insert(0, allow_attribute());
        }
    }
    let items = &file.items;
    quote! {
        #track
        #(#items)*
    }
}

fn attrs_mut(item: &mut syn::Item) -> Option<&mut Vec<syn::Attribute>> {
    use syn::Item::*;
    Some(match item {
        Const(i) => &mut i.attrs,
        Enum(i) => &mut i.attrs,
        ExternCrate(i) => &mut i.attrs,
        Fn(i) => &mut i.attrs,
        ForeignMod(i) => &mut i.attrs,
        Impl(i) => &mut i.attrs,
        Macro(i) => &mut i.attrs,
        Mod(i) => &mut i.attrs,
        Static(i) => &mut i.attrs,
        Struct(i) => &mut i.attrs,
        Trait(i) => &mut i.attrs,
        TraitAlias(i) => &mut i.attrs,
        Type(i) => &mut i.attrs,
        Union(i) => &mut i.attrs,
        Use(i) => &mut i.attrs,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracks_the_spec_and_allows_lints() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/specs/toy.isa");
        let out = expand(quote!(#path)).to_string();
        assert!(out.starts_with(&format!("const _ : & [u8] = include_bytes ! ({path:?}) ;")), "{out}");
        assert!(out.contains("pub struct Toy"), "{out}");
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains("# [allow (unused"), "{out}");
    }

    #[test]
    fn spec_errors_are_compile_errors() {
        // The compile-fail test's spec, in the isa-derive-ui package.
        let out = expand(quote!("ui/tests/ui/spec_error.isa")).to_string();
        assert!(out.contains("include_bytes"), "{out}");
        assert!(
            out.contains("ui/tests/ui/spec_error.isa:9:10: value 4 does not fit the 2-bit enum `Cond`"),
            "{out}"
        );
        assert_eq!(out.matches("compile_error").count(), 6, "{out}");
    }

    #[test]
    fn unreadable_specs_are_compile_errors() {
        let out = expand(quote!("tests/specs/none.isa")).to_string();
        assert!(out.contains("cannot read spec file `tests/specs/none.isa` (looked for `"), "{out}");
        assert!(!out.contains("include_bytes"), "{out}");
        let out = expand(quote!(concat!(env!("ISA_DERIVE_NO_SUCH_VARIABLE"), "/x.isa"))).to_string();
        assert!(out.contains("environment variable `ISA_DERIVE_NO_SUCH_VARIABLE` is not set"), "{out}");
    }
}
