//! `isa targets`: the built-in targets, one per line in aligned columns: name, what a unit of
//! it is (an instruction word, a header), what it holds (encodings and their dialects, the root
//! data layout and its parameters, ABI layouts) and title. Everything comes from the generated
//! tables, alike for every target.

use crate::builtin::{abi_targets, builtin_targets, data_targets};
use crate::error::{Error, Outcome, Result};
use isa_runtime::abi::AbiTarget;
use std::io::Write;

/// "6 ABI layouts" of the target called `name`, if it has any; `besides` is not counted.
fn abi_summary(name: &str, besides: Option<&str>) -> Option<String> {
    let abi: &AbiTarget = abi_targets().iter().copied().find(|a| a.name == name)?;
    let n = abi.layouts.iter().filter(|l| Some(l.name()) != besides).count();
    match (n, besides) {
        (0, _) => None,
        (1, None) => Some("1 ABI layout".into()),
        (n, None) => Some(format!("{n} ABI layouts")),
        (1, Some(_)) => Some("1 more layout".into()),
        (n, Some(_)) => Some(format!("{n} more layouts")),
    }
}

/// Prints the table of built-in targets.
pub fn run() -> Result<Outcome> {
    let rows: Vec<[String; 4]> = builtin_targets()
        .iter()
        .map(|t| {
            let dialects: Vec<&str> = t.dialects().iter().map(|d| d.name).collect();
            let n = t.formats().len();
            let mut holds =
                format!("{n} encoding{} in {}", if n == 1 { "" } else { "s" }, dialects.join(", "));
            if dialects.len() > 1 {
                holds.push_str(" (first the default)");
            }
            if let Some(abi) = abi_summary(t.name(), None) {
                holds.push_str("; ");
                holds.push_str(&abi);
            }
            let word = format!("{}-bit words", t.word_bits());
            [t.name().to_string(), word, holds, t.title().to_string()]
        })
        .chain(data_targets().iter().map(|t| {
            // The root layout as `isa layout` names it: with its parameters (a union's tag).
            let root = abi_targets()
                .iter()
                .find(|a| a.name == t.name())
                .and_then(|a| a.layout(t.root()))
                .map(|l| {
                    let params: Vec<String> = l.params().iter().map(|p| p.to_string()).collect();
                    format!("{}({})", l.name(), params.join(", "))
                })
                .unwrap_or_else(|| t.root().to_string());
            let mut holds = format!("data layout {root}");
            if let Some(more) = abi_summary(t.name(), Some(t.root())) {
                holds.push_str("; ");
                holds.push_str(&more);
            }
            [t.name().to_string(), format!("{}-byte header", t.bytes()), holds, t.title().to_string()]
        }))
        .chain(
            // A target of ABI layouts only is listed too.
            abi_targets()
                .iter()
                .filter(|a| {
                    !builtin_targets().iter().any(|t| t.name() == a.name)
                        && !data_targets().iter().any(|t| t.name() == a.name)
                })
                .map(|a| {
                    let holds = abi_summary(a.name, None).unwrap_or_default();
                    [a.name.to_string(), "-".to_string(), holds, a.title.to_string()]
                }),
        )
        .collect();
    let width = |col: usize| rows.iter().map(|r| r[col].len()).max().unwrap_or(0);
    let (w0, w1, w2) = (width(0), width(1), width(2));
    let mut out = super::stdout();
    for [name, unit, holds, title] in &rows {
        writeln!(out, "{name:w0$}  {unit:>w1$}  {holds:w2$}  {title}").map_err(Error::output)?;
    }
    out.flush().map_err(Error::output)?;
    Ok(Outcome::Success)
}
