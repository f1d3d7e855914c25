//! `table` target settings: tables of 32-bit words a program's data sections fill (grate's
//! `.constants`), each entry writing one part of an entry in a declared number format.

use super::Checker;
use crate::ast;
use crate::ir;

const TABLE_SETTINGS: &str =
    "table settings: `section \".constants\"`, `entries 32`, `part l { word 0; lsb 0; bits 10; number fx10 }`, `plain l`";
const PART_SETTINGS: &str = "part settings: `word 0`, `lsb 0`, `bits 10`, `number fx10`";

/// Reads the target's `table` settings into `t.tables`.
pub fn extract(cx: &mut Checker, file: &ast::File, t: &mut ir::Target) {
    let Some(target) =
        file.items.iter().find_map(|i| if let ast::Item::Target(t) = i { Some(t) } else { None })
    else {
        return;
    };
    for s in target.settings.iter().filter(|s| s.name.name == "table") {
        let Some(ast::SettingValue::Name(name, nested)) = s.values.first() else {
            cx.error(
                s.name.span,
                "`table` names the table: `table constants { section \".constants\"; entries 32 }`",
            );
            continue;
        };
        if t.tables.iter().any(|x| x.name == name.name) {
            cx.error(name.span, format!("table `{}` declared twice", name.name));
            continue;
        }
        let mut table = ir::Table {
            name: name.name.clone(),
            section: String::new(),
            entries: 0,
            words: 1,
            parts: Vec::new(),
        };
        let mut plain = None;
        for n in nested {
            match (n.name.name.as_str(), n.values.first()) {
                ("section", Some(ast::SettingValue::Str(v, _))) => table.section = v.clone(),
                ("entries", Some(ast::SettingValue::Int(v, sp))) => match u32::try_from(*v) {
                    Ok(v) if v > 0 => table.entries = v,
                    _ => {
                        cx.error(*sp, "a table has 1 to 2^32-1 entries");
                    }
                },
                ("plain", Some(ast::SettingValue::Name(p, _))) => plain = Some(p.clone()),
                ("part", Some(ast::SettingValue::Name(p, settings))) => {
                    if let Some(part) = part(cx, t, p, settings) {
                        if table.parts.iter().any(|x| x.name == part.name) {
                            cx.error(p.span, format!("part `{}` declared twice", p.name));
                        }
                        table.words = table.words.max(part.word + 1);
                        table.parts.push(part);
                    }
                }
                _ => {
                    cx.error(n.name.span, format!("unknown or malformed table setting `{}`", n.name.name))
                        .note(TABLE_SETTINGS);
                }
            }
        }
        if table.section.is_empty() || table.entries == 0 {
            cx.error(name.span, format!("table `{}` needs its `section` and `entries`", name.name))
                .note(TABLE_SETTINGS);
        }
        if !t.dialects.iter().all(|d| d.data_sections.contains(&table.section)) {
            cx.error(name.span, format!("`{}` is not a `data_section` of every dialect", table.section));
        }
        // The part `[i] = v` writes has no selector.
        if let Some(p) = plain {
            match table.parts.iter_mut().find(|x| x.name == p.name) {
                Some(part) => part.name.clear(),
                None => {
                    cx.error(p.span, format!("table `{}` has no part `{}`", name.name, p.name));
                }
            }
        }
        t.tables.push(table);
    }
}

/// One `part name { ... }` of a table.
fn part(
    cx: &mut Checker,
    t: &ir::Target,
    name: &ast::Ident,
    settings: &[ast::Setting],
) -> Option<ir::TablePart> {
    let mut part = ir::TablePart { name: name.name.clone(), word: 0, lsb: 0, bits: 0, number: None };
    let mut ok = true;
    for n in settings {
        match (n.name.name.as_str(), n.values.first()) {
            ("word", Some(ast::SettingValue::Int(v, sp))) => match u32::try_from(*v) {
                Ok(v) if v < 1 << 16 => part.word = v,
                _ => {
                    cx.error(*sp, "an entry has at most 65536 words");
                    ok = false;
                }
            },
            ("lsb", Some(ast::SettingValue::Int(v, _))) => part.lsb = u32::try_from(*v).unwrap_or(u32::MAX),
            ("bits", Some(ast::SettingValue::Int(v, _))) => part.bits = u32::try_from(*v).unwrap_or(u32::MAX),
            ("number", Some(ast::SettingValue::Name(v, _))) => {
                match t.numbers.iter().find(|x| x.name == v.name) {
                    Some(f) => part.number = Some(f.kind),
                    None => {
                        cx.error(v.span, format!("unknown number format `{}`", v.name));
                        ok = false;
                    }
                }
            }
            _ => {
                cx.error(n.name.span, format!("unknown or malformed part setting `{}`", n.name.name))
                    .note(PART_SETTINGS);
                ok = false;
            }
        }
    }
    // Without `bits`, a part is as wide as its number format.
    if part.bits == 0 {
        part.bits = part.number.map_or(0, |k| k.width());
    }
    if part.bits == 0 || part.lsb.saturating_add(part.bits) > 32 {
        cx.error(
            name.span,
            format!("part `{}` must lie within its 32-bit word (lsb + bits <= 32, bits >= 1)", name.name),
        );
        ok = false;
    }
    ok.then_some(part)
}
