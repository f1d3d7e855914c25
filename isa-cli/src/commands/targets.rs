//! `isa targets`: the built-in targets, one per line in aligned columns: name, word bits,
//! dialects (default first) and title.

use crate::builtin::{builtin_targets, data_targets};
use crate::error::{Error, Outcome, Result};
use std::io::Write;

/// Prints the table of built-in targets.
pub fn run() -> Result<Outcome> {
    let rows: Vec<[String; 4]> = builtin_targets()
        .iter()
        .map(|t| {
            let dialects: Vec<&str> = t.dialects().iter().map(|d| d.name).collect();
            let mut dialects = dialects.join(",");
            // A target with instructions and ABI layouts (agx) says both.
            if let Some(a) = crate::builtin::abi_targets().iter().find(|a| a.name == t.name()) {
                dialects.push_str(&format!("; {} ABI layouts", a.layouts.len()));
            }
            [t.name().to_string(), format!("{}-bit", t.word_bits()), dialects, t.title().to_string()]
        })
        .chain(data_targets().iter().map(|t| {
            [
                t.name().to_string(),
                format!("{}-byte", t.bytes()),
                format!("layout {}", t.root()),
                t.title().to_string(),
            ]
        }))
        .chain(
            // A target of ABI layouts only is listed too.
            crate::builtin::abi_targets()
                .iter()
                .filter(|a| {
                    !builtin_targets().iter().any(|t| t.name() == a.name)
                        && !data_targets().iter().any(|t| t.name() == a.name)
                })
                .map(|a| {
                    [
                        a.name.to_string(),
                        "-".to_string(),
                        format!("{} ABI layouts", a.layouts.len()),
                        a.title.to_string(),
                    ]
                }),
        )
        .collect();
    let width = |col: usize| rows.iter().map(|r| r[col].len()).max().unwrap_or(0);
    let (w0, w1, w2) = (width(0), width(1), width(2));
    let mut out = super::stdout();
    for [name, bits, dialects, title] in &rows {
        writeln!(out, "{name:w0$}  {bits:>w1$}  {dialects:w2$}  {title}").map_err(Error::output)?;
    }
    out.flush().map_err(Error::output)?;
    Ok(Outcome::Success)
}
