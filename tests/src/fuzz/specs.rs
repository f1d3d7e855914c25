//! Specs through the checker: the shipped specs mutated token by token, and small generated
//! specs (and their mutations). The checker never panics or hangs; what it rejects it rejects
//! with diagnostics located in the spec; what it accepts goes through the backends (the Rust
//! module and the documentation), and on to rustc in [`super::rustc`].

use super::{Rand, NUMBERS_SPEC};
use std::fmt::Write as _;

/// One lexical token of a spec, or the blanks and comments between tokens.
#[derive(Debug, Clone, PartialEq)]
struct Token {
    text: String,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Blank,
    Ident,
    Number,
    Str,
    Punct,
}

const PUNCTS: &[&str] =
    &["..=", "+:", "=>", "==", "!=", "&&", "||", "<<", ">>", "<=", ">=", "..", "->", "::"];

/// Splits a spec into tokens; concatenating them gives the spec back.
fn lex(source: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(c) = rest.chars().next() {
        let (len, kind) = if c.is_whitespace() {
            (rest.find(|c: char| !c.is_whitespace()).unwrap_or(rest.len()), Kind::Blank)
        } else if rest.starts_with("//") {
            (rest.find('\n').unwrap_or(rest.len()), Kind::Blank)
        } else if c == '"' {
            let mut end = rest.len();
            let mut escaped = false;
            for (i, ch) in rest.char_indices().skip(1) {
                match ch {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        end = i + 1;
                        break;
                    }
                    _ => escaped = false,
                }
            }
            (end, Kind::Str)
        } else if c.is_ascii_digit() {
            (
                rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len()),
                Kind::Number,
            )
        } else if c.is_alphabetic() || c == '_' {
            (rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len()), Kind::Ident)
        } else {
            let len = PUNCTS.iter().find(|p| rest.starts_with(*p)).map_or(c.len_utf8(), |p| p.len());
            (len, Kind::Punct)
        };
        out.push(Token { text: rest[..len].to_string(), kind });
        rest = &rest[len..];
    }
    out
}

/// Strings a spec might hold where another string was.
const STRINGS: &[&str] =
    &["\"\"", "\"{v}\"", "\"{\"", "\"}\"", "\"\\\"\"", "\" \"", "\"r{v-99}\"", "\"{v+1}\"", "\"é\""];

/// One token-level mutation of `source` (a spec); `rng` decides which and where.
pub fn mutate(source: &str, rng: &mut Rand) -> String {
    let mut toks = lex(source);
    let real: Vec<usize> = (0..toks.len()).filter(|&i| toks[i].kind != Kind::Blank).collect();
    let Some(&at) = rng.pick(&real) else { return source.to_string() };
    // A token near `at`: most mutations that matter are local (a field and its neighbour).
    let near = |rng: &mut Rand| {
        let k = real.iter().position(|&i| i == at).unwrap_or(0) as isize + rng.below(17) as isize - 8;
        real[k.clamp(0, real.len() as isize - 1) as usize]
    };
    let of_kind =
        |kind: Kind| -> Vec<usize> { real.iter().copied().filter(|&i| toks[i].kind == kind).collect() };
    match rng.below(13) {
        0 => toks[at].text.clear(),
        1 => {
            let copy = toks[at].clone();
            toks.insert(at, Token { text: " ".into(), kind: Kind::Blank });
            toks.insert(at, copy);
        }
        2 => {
            let other = near(rng);
            let a = toks[at].text.clone();
            toks[at].text = std::mem::replace(&mut toks[other].text, a);
        }
        3 | 4 => {
            // A number at the edge of some width (bit positions, widths, values).
            let numbers = of_kind(Kind::Number);
            if let Some(&i) = rng.pick(&numbers) {
                toks[i].text = (*rng.pick(NUMBERS_SPEC).unwrap_or(&"0")).to_string();
            }
        }
        5 => {
            // A name where another was: a field for another, an enum for a type, a keyword.
            let names = of_kind(Kind::Ident);
            if let (Some(&i), Some(&j)) = (rng.pick(&names), rng.pick(&names)) {
                toks[i].text = toks[j].text.clone();
            }
        }
        6 => {
            // A bit range `hi:lo`: reversed, or moved by one.
            let ranges: Vec<usize> = (2..toks.len())
                .filter(|&i| {
                    toks[i].kind == Kind::Number
                        && toks[i - 1].text == ":"
                        && toks[i - 2].kind == Kind::Number
                })
                .collect();
            if let Some(&i) = rng.pick(&ranges) {
                if rng.one_in(2) {
                    let hi = toks[i - 2].text.clone();
                    toks[i - 2].text = std::mem::replace(&mut toks[i].text, hi);
                } else {
                    let shift =
                        |t: &str, d: i64| t.parse::<i64>().map_or(t.to_string(), |v| (v + d).to_string());
                    let d = if rng.one_in(2) { 1 } else { -1 };
                    toks[i - 2].text = shift(&toks[i - 2].text, d);
                    toks[i].text = shift(&toks[i].text, d);
                }
            }
        }
        7..=9 => return mutate_lines(source, rng),
        10 => toks.truncate(at),
        11 => {
            let strings = of_kind(Kind::Str);
            if let Some(&i) = rng.pick(&strings) {
                toks[i].text = (*rng.pick(STRINGS).unwrap_or(&"\"\"")).to_string();
            }
        }
        _ => {
            let other = near(rng);
            let copy = toks[other].clone();
            toks.insert(at, Token { text: " ".into(), kind: Kind::Blank });
            toks.insert(at, copy);
        }
    }
    toks.into_iter().map(|t| t.text).collect()
}

/// A line-level mutation: delete, duplicate or swap lines (a field twice, a field gone).
fn mutate_lines(source: &str, rng: &mut Rand) -> String {
    let mut lines: Vec<&str> = source.lines().collect();
    if lines.is_empty() {
        return String::new();
    }
    let at = rng.below(lines.len());
    match rng.below(3) {
        0 => {
            lines.remove(at);
        }
        1 => {
            let to = if rng.one_in(2) { at } else { rng.below(lines.len()) };
            lines.insert(to, lines[at]);
        }
        _ => {
            let other = (at + 1 + rng.below(3)).min(lines.len() - 1);
            lines.swap(at, other);
        }
    }
    lines.join("\n") + "\n"
}

/// `source` after 1 to `max` mutations.
pub fn mutated(source: &str, max: usize, rng: &mut Rand) -> String {
    let mut out = source.to_string();
    for _ in 0..1 + rng.below(max) {
        out = mutate(&out, rng);
    }
    out
}

/// A small random spec: a target with one or two dialects, enums, and a few formats whose
/// fields, clauses, views, arrays, groups, templates and guarded syntax arms are drawn at
/// random; semantics; an interleaved stream or bundles; ABI layouts. Every one is accepted
/// (the formats' opcodes differ, the fields do not overlap, the layouts' members neither);
/// mutations of them reach the rest.
pub fn generate(rng: &mut Rand) -> String {
    let word = *rng.pick(&[8u32, 16, 32, 32, 64, 64, 128]).unwrap_or(&32);
    let mut s = String::new();
    let two = rng.one_in(3);
    let _ = writeln!(s, "/// A generated target.\ntarget g {{\n    word {word}");
    if rng.one_in(2) {
        let _ = writeln!(s, "    byte_order {}", if rng.one_in(2) { "big" } else { "little" });
    }
    let raw = if rng.one_in(4) { "" } else { " raw \".word\"" };
    let _ = writeln!(s, "    dialect a {{ comment \"#\"{raw} }}");
    if two {
        let end = if rng.one_in(2) { " end \" ;\"" } else { "" };
        let _ = writeln!(s, "    dialect b {{ comment \"//\" raw \".w\" ignore_case true{end} }}");
    }
    s.push_str("}\n\n");

    // Enums: their widths and a variant name of each.
    let mut enums: Vec<(String, u32, Option<String>)> = Vec::new();
    for e in 0..rng.below(4) {
        let width = 1 + rng.below(6) as u32;
        let size = 1u64 << width;
        let name = format!("E{e}");
        // One enum in three spells its values by a pattern (README §4): then every range and
        // catch-all has a spelling of its own.
        let pattern = rng.one_in(3);
        let spelled = if !pattern {
            ""
        } else if rng.one_in(2) {
            " spelled \".{NAME}\""
        } else {
            " spelled \"{name}_x\""
        };
        // The header goes in once the values are written: an enum whose values share a
        // spelling (`""` twice, one enum in three may) says `shares spellings` (README §4).
        let header_at = s.len();
        let may_share = rng.one_in(3);
        let mut empties = 0;
        let mut v = 0u64;
        // Whether the last variant ended at `v - 1`: the next may then leave out its value.
        let mut follows = true;
        // A variant of one value, for `default` clauses (a range's name is not a value).
        let mut single = None;
        let mut k = 0;
        while v < size {
            let vname = format!("v{k}");
            k += 1;
            // The first variant is one value, so no enum is empty.
            match if k == 1 { 4 } else { rng.below(5) } {
                0 if v + 1 < size => {
                    // Ranges are `r1`, one values `v2`: a range spelled `v1{v}` would print
                    // `v11`, a one value's name.
                    let vname = format!("r{}", k - 1);
                    let hi = (v + 1 + rng.below(4) as u64).min(size - 1);
                    let spelled = if two && rng.one_in(2) {
                        format!(" a \"{vname}{{v}}\" b \"X{{v}}\"")
                    } else if pattern {
                        format!(" \"{vname}.{{v}}\"")
                    } else {
                        String::new()
                    };
                    let _ = writeln!(s, "    {vname}({v}..={hi}){spelled}");
                    v = hi + 1;
                    follows = true;
                }
                1 => {
                    v += 1 + rng.below(3) as u64;
                    follows = false;
                    continue;
                }
                // A pattern's enum keeps its first value for the pattern, so that it spells one.
                _ if pattern && k == 1 => {
                    let _ = writeln!(s, "    {vname} = {v}");
                    single.get_or_insert_with(|| vname.clone());
                    v += 1;
                }
                _ => {
                    let spelled = match rng.below(4) {
                        0 => format!(" \".{vname}\""),
                        1 if two => format!(" a \"{vname}\" b \"{}\"", vname.to_uppercase()),
                        2 if empties == 0 || may_share => {
                            empties += 1;
                            " \"\"".to_string()
                        }
                        _ => String::new(),
                    };
                    // The value the previous variant's is followed by, left out (README §4);
                    // a comma first, or a spelling that ends the line before takes it as a dialect.
                    if follows && k > 1 && rng.one_in(2) {
                        let _ = writeln!(s, "    , {vname}{spelled}");
                    } else {
                        let _ = writeln!(s, "    {vname} = {v}{spelled}");
                    }
                    single.get_or_insert_with(|| vname.clone());
                    v += 1;
                    follows = true;
                }
            }
            if k > 12 {
                break;
            }
        }
        match rng.below(4) {
            0 if pattern => s.push_str("    rest(_) \"rest{v}\"\n"),
            0 => s.push_str("    rest(_)\n"),
            1 => s.push_str("    , else \"???\"\n"),
            _ => {}
        }
        s.push_str("}\n\n");
        let shares = if empties > 1 { " shares spellings" } else { "" };
        s.insert_str(header_at, &format!("enum {name} : u{width}{spelled}{shares} {{\n"));
        if pattern && rng.one_in(2) {
            // The same table under another pattern (README §4): it respells what `name`'s
            // pattern spelled, its first value at least.
            let other = if spelled.contains("NAME") { "{name}_y" } else { ".{NAME}_Y" };
            let _ = writeln!(s, "enum {name}r : u{width} spelled \"{other}\"{shares} {{ use {name} }}\n");
            enums.push((format!("{name}r"), width, single.clone()));
        }
        enums.push((name, width, single));
    }

    // A group of fields every format may use: a predicate at the bottom of the word.
    let group = rng.one_in(3) && word >= 16;
    if group {
        s.push_str("group guarded {\n    neg: bool @ 3\n    pred: u3 @ 2:0 default 7\n");
        s.push_str("    template guard {\n        | pred == 7 && !neg => \"\"\n        | _ => \"@\" [neg: \"!\"] \"P\" {pred} \" \"\n    }\n}\n\n");
    }
    if rng.one_in(3) {
        s.push_str("/// Shows a value in hex.\ntemplate hex(x) { \"0x\" {x:x} }\n\n");
    }

    // Semantics, one spec in two (README §11): state, a hook, helper functions, and an
    // `execute` block in most formats.
    let sem = rng.one_in(2);
    let hook = sem && rng.one_in(2);
    if sem {
        s.push_str("machine {\n    /// Registers.\n    r[8]: u32\n    acc: u32\n    flag: bool\n    wide: u64\n    done: bool\n}\n\n");
        if hook {
            s.push_str("/// Memory, the embedder's.\nhook load(address: u32) -> u32\n\n");
        }
        let body =
            Semantics { uints: vec!["a".into(), "b".into()], bools: Vec::new(), hook, lets: 0, in_mix: true }
                .block(rng, 2);
        let _ = writeln!(s, "fn mix(a: u32, b: u32) -> u32 {{\n{body}    a ^ b\n}}\n");
        if rng.one_in(2) {
            let body = Semantics { uints: Vec::new(), bools: Vec::new(), hook, lets: 0, in_mix: false }
                .block(rng, 2);
            let _ = writeln!(s, "fn step() {{\n{body}}}\n");
        }
    }

    let formats = 1 + rng.below(5);
    let op_bits = (usize::BITS - formats.leading_zeros()).max(1);
    // The formats' names and the fields each has, for the streams.
    let (mut names, mut format_fields) = (Vec::new(), Vec::new());
    for f in 0..formats {
        let _ = writeln!(s, "/// Format {f}.\nformat f{f} {{");
        let _ = writeln!(s, "    op: u{op_bits} @ {}:{} is {f}", word - 1, word - op_bits);
        let bottom = if group { 4 } else { 0 };
        if group {
            s.push_str("    use guarded\n");
        }
        let mut hi = word - op_bits; // the next free bit, exclusive
        let mut shown: Vec<String> = Vec::new();
        let mut flags: Vec<String> = Vec::new();
        // The format's scalar fields, which a stream's marks may name.
        let mut fields: Vec<String> = Vec::new();
        // What an `execute` block reads: fields as `u32` (array elements too), and `bool`s.
        let mut uints: Vec<String> = Vec::new();
        let mut n = 0;
        while hi > bottom && n < 6 {
            let free = hi - bottom;
            let name = format!("x{n}");
            n += 1;
            match rng.below(9) {
                0 => {
                    let w = 1 + rng.below(free.min(8) as usize) as u32;
                    let zero = if rng.one_in(2) { "unused" } else { "zero" };
                    let _ = writeln!(s, "    {zero} @ {}:{}", hi - 1, hi - w);
                    hi -= w;
                }
                1 => {
                    let _ = writeln!(s, "    {name}: bool @ {}", hi - 1);
                    hi -= 1;
                    fields.push(name.clone());
                    flags.push(name);
                }
                2 if !enums.is_empty() => {
                    let (e, w, v) = rng.pick(&enums).cloned().unwrap_or_default();
                    if w > free {
                        continue;
                    }
                    let clause = match v {
                        Some(v) if rng.one_in(3) => format!(" default {v}"),
                        _ => String::new(),
                    };
                    let _ = writeln!(s, "    {name}: {e} @ {}:{}{clause}", hi - 1, hi - w);
                    hi -= w;
                    shown.push(format!("{{{name}}}"));
                    fields.push(name.clone());
                    uints.push(name);
                }
                3 if free >= 4 => {
                    // An array of two-bit elements, ascending or descending.
                    let count = 2 + rng.below((free / 2 - 1).min(3) as usize) as u32;
                    let lo = hi - 2 * count;
                    let bits = if rng.one_in(2) {
                        format!("{lo} + 2 * i +: 2")
                    } else {
                        format!("{} - 2 * i +: 2", hi - 2)
                    };
                    let _ = writeln!(s, "    {name}[{count}]: u2 @ {bits}");
                    for i in 0..count {
                        shown.push(format!("{{{name}[{i}]}}"));
                        uints.push(format!("{name}[{i}]"));
                    }
                    hi = lo;
                }
                4 if free >= 2 => {
                    let w = 2 + rng.below(free.min(16) as usize - 1) as u32;
                    let _ = writeln!(s, "    {name}: s{w} @ {}:{}", hi - 1, hi - w);
                    shown.push(format!("{{{name}:s}}"));
                    fields.push(name.clone());
                    uints.push(format!("u32(i32({name}) + 1)"));
                    hi -= w;
                }
                _ => {
                    let w = 1 + rng.below(free.min(20) as usize) as u32;
                    let max = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
                    let clause = match rng.below(5) {
                        0 => format!(" default {}", rng.bits() & max),
                        1 if w > 1 => format!(" in 0..={}", (max / 2).max(1)),
                        _ => String::new(),
                    };
                    let _ = writeln!(s, "    {name}: u{w} @ {}:{}{clause}", hi - 1, hi - w);
                    let hole = match rng.below(4) {
                        0 => format!("{{{name}:#x}}"),
                        1 if s.contains("template hex") => format!("hex({name})"),
                        _ => format!("{{{name}}}"),
                    };
                    shown.push(hole);
                    fields.push(name.clone());
                    uints.push(name);
                    hi -= w;
                }
            }
        }
        // Don't-care bits in pieces of at most 64 bits, as every piece is.
        while hi > bottom {
            let lo = hi.saturating_sub(64).max(bottom);
            let _ = writeln!(s, "    unused @ {}:{lo}", hi - 1);
            hi = lo;
        }
        if word >= 16 && rng.one_in(4) {
            let _ = writeln!(s, "    view all: u{} @ {}:0", word.min(64), word.min(64) - 1);
        }
        let guard = if group { "guard " } else { "" };
        let flag_items: String = flags.iter().map(|f| format!(" [{f}: \".{f}\"]")).collect();
        let operands =
            if shown.is_empty() { String::new() } else { format!(" \" \" {}", shown.join(" \", \" ")) };
        let body = format!("{guard}\"m{f}\"{flag_items}{operands}");
        let _ = writeln!(s, "    syntax a {{ {body} }}");
        if two {
            match (rng.below(3), flags.first()) {
                (0, Some(flag)) => {
                    let _ = writeln!(
                        s,
                        "    syntax b {{\n        | {flag} => {body}\n        | _ => {body}\n    }}"
                    );
                }
                _ => {
                    let _ = writeln!(s, "    syntax b {{ {} }}", body.replace("\"m", "\"M"));
                }
            }
        }
        if sem && !rng.one_in(4) {
            let body = Semantics { uints, bools: flags.clone(), hook, lets: 0, in_mix: false }.block(rng, 3);
            let _ = writeln!(s, "    execute {{\n{body}    }}");
        }
        s.push_str("}\n\n");
        names.push(format!("f{f}"));
        format_fields.push(fields);
    }

    // Words beside the instructions (README §2), drawn last so the rest of a spec is as it was:
    // one spec in six an interleaved stream, one in six (of 32-bit multiples) bundles.
    let settings = match rng.below(6) {
        0 => interleaved(rng, word, &format_fields, &mut s),
        1 if word.is_multiple_of(32) => bundles(rng, word, &names, &mut s),
        _ => String::new(),
    };
    if let Some(at) = s.find("\n}\n\n") {
        s.insert_str(at + 1, &settings);
    }
    // ABI layouts (README §9), one spec in three.
    if rng.one_in(3) {
        abi_layouts(rng, &mut s);
    }
    s
}

/// An interleaved stream: a control word of `n` slots before every `n` instructions, its slot
/// format appended to `s`; marks on the first format's fields, a pair condition, and the
/// listing of dialect `a`, at random. Returns the target's settings.
fn interleaved(rng: &mut Rand, word: u32, operands: &[Vec<String>], s: &mut String) -> String {
    let widths: Vec<u32> = [4u32, 8, 16, 21].into_iter().filter(|w| *w <= word).collect();
    let w = *rng.pick(&widths).unwrap_or(&4);
    let every = 1 + rng.below((word / w).min(3) as usize) as u32;
    let cycles = 2 + rng.below(w.min(5) as usize - 1) as u32;
    let flags = if w - cycles >= 2 && rng.one_in(2) { 1 + rng.below(2) as u32 } else { 0 };
    let _ = writeln!(
        s,
        "/// The slot of an instruction.\nformat sl : {w} {{\n    cycles: u{cycles} @ {}:0",
        cycles - 1
    );
    if flags > 0 {
        let _ = writeln!(s, "    reuse[{flags}]: bool @ {cycles} + i");
    }
    let used = cycles + flags;
    if used < w {
        let _ = writeln!(s, "    unused @ {}:{used}", w - 1);
    }
    s.push_str("    syntax a { \"[\" {cycles} \"]\" }\n}\n\n");
    let mut stream = format!("    stream control {{\n        every {every}; slot sl; pad 0x0\n");
    if flags > 0 {
        let fields = operands.first().cloned().unwrap_or_default();
        let named: Vec<String> =
            (0..flags).map(|_| rng.pick(&fields).cloned().unwrap_or_else(|| "_".into())).collect();
        let _ = writeln!(stream, "        mark reuse {{ text \".reuse\"; operands {} }}", named.join(", "));
        if rng.one_in(2) {
            let _ = writeln!(stream, "        mark reuse {{ formats f0 }}");
        }
    }
    if rng.one_in(2) {
        let _ = writeln!(stream, "        pair when {{ cycles {} }}", rng.below(2));
    }
    stream.push_str("    }\n");
    if rng.one_in(2) {
        // A listing of dialect `a`: a dialect's settings may be given again after it.
        let listing = "    listing dump { indent 4; address \"/*\", \"*/\", 4; open \"{\", 1; close \"}\", 2; words 2, \"/* \", \" */\" }";
        if let Some(at) = s.find("    dialect a {") {
            let end = s[at..].find('}').map_or(at, |e| at + e);
            s.insert_str(end, &format!("\n    {listing}\n    "));
        }
    }
    stream
}

/// Bundles: the formats spread over one or two streams of `word`-bit words, each a unit of the
/// bundle (at most a few times when a computed stream counts it), a computed head stream whose
/// format is appended to `s`, and at random a unit of formats narrower than the word (appended
/// to `s`) in a stream of their width, a stream without formats, header settings, limits and
/// slots. Returns the target's settings.
fn bundles(rng: &mut Rand, word: u32, formats: &[String], s: &mut String) -> String {
    let split = formats.len() > 1 && rng.one_in(2);
    let (first, second) =
        formats.split_at(if split { 1 + rng.below(formats.len() - 1) } else { formats.len() });
    let mut streams = Vec::new();
    for (k, list) in [first, second].into_iter().enumerate().filter(|(_, l)| !l.is_empty()) {
        let reset = if rng.one_in(3) { "; reset 0x1".to_string() } else { String::new() };
        streams.push((
            format!("u{k}"),
            format!("    stream u{k} {{ bits {word}; formats {}{reset} }}\n", list.join(", ")),
        ));
    }
    // One bundled target in two wider than 32 bits has a unit of narrower instructions, in a
    // stream of their width (README §3: a bundled target reads each stream a word of its own
    // `bits` at a time, 32-bit parts, in the target's byte order, big or little as drawn
    // above; Tegra's 32-bit streams beside its 64-bit words).
    let widths: Vec<u32> = [32u32, 64, 96].into_iter().filter(|w| *w < word).collect();
    if let Some(&w) = rng.pick(&widths).filter(|_| rng.one_in(2)) {
        let mut list = Vec::new();
        for k in 0..1 + rng.below(2) {
            let x = (w - 2).min(1 + rng.below(6) as u32);
            let _ = writeln!(
                s,
                "/// A narrow unit's instruction.\nformat n{k} : {w} {{\n    op: u2 @ {}:{} is {k}",
                w - 1,
                w - 2
            );
            if w - 2 > x {
                let _ = writeln!(s, "    unused @ {}:{x}", w - 3);
            }
            let _ = writeln!(s, "    x: u{x} @ {}:0\n    syntax a {{ \"n{k} \" {{x}} }}", x - 1);
            if s.contains("    dialect b {") {
                let _ = writeln!(s, "    syntax b {{ \"N{k} \" {{x}} }}");
            }
            s.push_str("}\n\n");
            list.push(format!("n{k}"));
        }
        streams
            .push(("n".to_string(), format!("    stream n {{ bits {w}; formats {} }}\n", list.join(", "))));
    }
    let raw = rng.one_in(3);
    // Which units are counted (at most `max` times a bundle), and which have a `first`.
    let counted: Vec<bool> = streams.iter().map(|_| rng.one_in(2)).collect();
    let mut head_fields = String::new();
    let mut head_settings = String::new();
    let mut bit = 0;
    for (k, (name, _)) in streams.iter().enumerate() {
        if !counted[k] {
            continue;
        }
        let _ = writeln!(head_fields, "    c{k}: u2 @ {}:{bit}", bit + 1);
        let _ = write!(head_settings, "; count c{k}, {name}");
        bit += 2;
        if rng.one_in(2) {
            let _ = writeln!(head_fields, "    a{k}: u6 @ {}:{bit}", bit + 5);
            let _ = write!(head_settings, "; first a{k}, {name}");
            bit += 6;
        }
    }
    let mut out = String::new();
    if bit > 0 {
        // As wide as the instructions: formats of other widths would make them differ in length.
        let _ = writeln!(out, "    stream head {{ bits {word}; computed head{head_settings} }}");
        let mut unused = String::new();
        let mut hi = word;
        while hi > bit {
            let lo = hi.saturating_sub(64).max(bit);
            let _ = writeln!(unused, "    unused @ {}:{lo}", hi - 1);
            hi = lo;
        }
        let _ = writeln!(s, "/// What a bundle holds.\nformat head : {word} {{\n{head_fields}{unused}    syntax a {{ \"h\" }}\n}}\n");
    }
    for (_, text) in &streams {
        out.push_str(text);
    }
    if raw {
        out.push_str("    stream raw { bits 32 }\n");
    }
    out.push_str("    bundle b {\n        keyword \"B\"\n");
    if rng.one_in(3) {
        let _ = writeln!(out, "        max {}", 1 + rng.below(64));
    }
    if rng.one_in(3) {
        out.push_str("        header size { max 4 }, count\n");
    }
    for (k, (name, _)) in streams.iter().enumerate() {
        let mut unit = format!("label \"U{k}:\"");
        if counted[k] {
            let _ = write!(unit, "; max {}", 1 + rng.below(3));
            if rng.one_in(3) {
                let _ = write!(unit, "; total {}", 1 + rng.below(40));
            }
        }
        if rng.one_in(4) {
            unit.push_str(&format!("; slots \"S{k}a:\", \"S{k}b:\""));
        }
        let _ = writeln!(out, "        unit {name} {{ {unit} }}");
    }
    if raw {
        out.push_str("        unit raw { label \"RAW:\" }\n");
    }
    out.push_str("    }\n");
    out
}

/// ABI layouts: typed parameters, members at positions that depend on them (arrays of `n`
/// elements, `if` blocks), counted in bits or in a unit of 16 or 32 bits with register names.
fn abi_layouts(rng: &mut Rand, s: &mut String) {
    let unit = rng.below(3);
    let (bits, name) = match unit {
        0 => (1u32, String::new()),
        1 => {
            s.push_str("/// A 16-bit half of a register.\nunit half : 16 {\n    register \"u\", 32\n    halves \"l\", \"h\"\n}\n\n");
            (16, "half".to_string())
        }
        _ => {
            s.push_str("/// A 32-bit register.\nunit reg : 32 {\n    register \"r\", 32\n}\n\n");
            (32, "reg".to_string())
        }
    };
    for l in 0..1 + rng.below(2) {
        let max_n = 1 + rng.below(6) as u64;
        let flag = rng.one_in(2);
        let n_ty = if rng.one_in(3) { "u3".to_string() } else { format!("u4 in 0..={max_n}") };
        let max_n = if n_ty == "u3" { 7 } else { max_n };
        let mut params = format!("n: {n_ty}");
        if flag {
            params.push_str(", c: bool");
        }
        // Offsets so far, in units: `c0 + k * n`.
        let (mut c0, mut k) = (0u64, 0u64);
        let expr = |c0: u64, k: u64| match (c0, k) {
            (c, 0) => format!("{c}"),
            (0, k) => format!("{k} * n"),
            (c, k) => format!("{c} + {k} * n"),
        };
        let types: Vec<(&str, u32)> = [("bool", 1), ("u8", 8), ("u16", 16), ("u32", 32), ("u64", 64)]
            .into_iter()
            .filter(|(_, w)| w % bits == 0)
            .collect();
        let mut body = String::new();
        for m in 0..1 + rng.below(4) {
            let (ty, w) = *rng.pick(&types).unwrap_or(&("u32", 32));
            let len = u64::from(w / bits);
            match rng.below(3) {
                0 => {
                    let at = expr(c0, k);
                    let _ = writeln!(body, "    m{m}[n]: {ty} @ {at} + {len} * i");
                    k += len;
                }
                1 => {
                    let _ = writeln!(body, "    unused gap{m} @ {} +: {len}", expr(c0, k));
                    c0 += len;
                }
                _ => {
                    let _ = writeln!(body, "    m{m}: {ty} @ {}", expr(c0, k));
                    c0 += len;
                }
            }
        }
        let without = expr(c0, k);
        if flag {
            let (ty, w) = *rng.pick(&types).unwrap_or(&("u32", 32));
            let _ = writeln!(body, "    if c {{\n        extra: {ty} @ {without}\n    }}");
            c0 += u64::from(w / bits);
        }
        let with = expr(c0, k);
        let _ = max_n;
        let size = if flag && rng.one_in(2) { format!("if c then {with} else {without}") } else { with };
        let size = if name.is_empty() { size } else { format!("{name}[{size}]") };
        let _ = writeln!(s, "/// An ABI layout.\nlayout A{l}({params}) : {size} {{\n{body}}}\n");
    }
}

/// Statements and expressions of a generated spec's semantics (README §11), over the names it
/// may read: `u32` values, `bool`s, the machine's state (`r[8]`, `acc`, `flag`, `wide`), the
/// `load` hook, `mix`, and the `let`s and loop variables in scope.
struct Semantics {
    uints: Vec<String>,
    bools: Vec<String>,
    hook: bool,
    lets: usize,
    /// In `mix`'s body, which calls no `mix`.
    in_mix: bool,
}

impl Semantics {
    /// A `u32` expression, `depth` levels deep at most.
    fn uint(&self, rng: &mut Rand, depth: u32) -> String {
        let leaf = depth == 0 || rng.one_in(3);
        if leaf {
            return match rng.below(5) {
                0 => format!("{}", rng.below(300)),
                1 => "acc".into(),
                2 => format!("r[{}]", rng.below(8)),
                _ => rng.pick(&self.uints).cloned().unwrap_or_else(|| "acc".into()),
            };
        }
        let (a, b) = (self.uint(rng, depth - 1), self.uint(rng, depth - 1));
        match rng.below(14) {
            0 => format!("({a} + {b})"),
            1 => format!("({a} - {b})"),
            2 => format!("({a} * {b})"),
            3 => format!("({a} ^ {b})"),
            4 => format!("({a} & {b})"),
            5 => format!("({a} | {b})"),
            6 => format!("({a} >> ({b} & 31))"),
            7 => format!("({a} << ({b} & 31))"),
            8 => format!("r[{a} & 7]"),
            9 if !self.in_mix => format!("mix({a}, {b})"),
            10 => format!("min({a}, clz({b}))"),
            11 if self.hook => format!("load({a})"),
            12 => format!("u32(wide + u64({a}))"),
            13 => format!("(match {a} & 3 {{ 0 => {b}, 1..=2 => popc({a}), _ => 7 }})"),
            _ => format!("rotr({a}, {b} & 31)"),
        }
    }

    /// A `bool` expression.
    fn cond(&self, rng: &mut Rand, depth: u32) -> String {
        match rng.below(5) {
            0 => "flag".into(),
            1 if !self.bools.is_empty() => rng.pick(&self.bools).cloned().unwrap_or_default(),
            2 if depth > 0 => format!("({} && !({}))", self.cond(rng, depth - 1), self.cond(rng, depth - 1)),
            _ => {
                let op = rng.pick(&["==", "!=", "<", "<=", ">", ">="]).copied().unwrap_or("==");
                format!("{} {op} {}", self.uint(rng, depth.min(1)), self.uint(rng, depth.min(1)))
            }
        }
    }

    /// A block's statements, each on its own line, `depth` levels of blocks deep at most.
    fn block(&mut self, rng: &mut Rand, depth: u32) -> String {
        let mut out = String::new();
        let scope = (self.uints.len(), self.lets);
        for _ in 0..1 + rng.below(4) {
            let line = match rng.below(9) {
                0 => {
                    let name = format!("t{}", self.lets);
                    self.lets += 1;
                    let line = format!("let {name} = {};", self.uint(rng, 2));
                    self.uints.push(name);
                    line
                }
                1 => format!("acc = {};", self.uint(rng, 2)),
                2 => format!("flag = {};", self.cond(rng, 1)),
                3 => format!("wide = wide + u64({});", self.uint(rng, 1)),
                4 if depth > 0 => {
                    let c = self.cond(rng, 1);
                    let then = self.block(rng, depth - 1);
                    let other = if rng.one_in(2) {
                        format!(" else {{\n{}}}", self.block(rng, depth - 1))
                    } else {
                        String::new()
                    };
                    format!("if {c} {{\n{then}}}{other}")
                }
                5 if depth > 0 => {
                    // `k` is a `u32` of the loop's block alone; bounds read once.
                    let hi = if rng.one_in(2) {
                        format!("{}", rng.below(5))
                    } else {
                        format!("({} & 7)", self.uint(rng, 0))
                    };
                    let dots = if rng.one_in(3) { "..=" } else { ".." };
                    self.uints.push("k".into());
                    let body = self.block(rng, depth - 1);
                    self.uints.pop();
                    format!("for k in {}{dots}{hi} {{\n{body}}}", rng.below(3))
                }
                6 if rng.one_in(8) => "if flag { unmodelled(); }".into(),
                7 if !self.in_mix => format!("mix({}, acc);", self.uint(rng, 1)),
                _ => format!("r[{} & 7] = {};", self.uint(rng, 1), self.uint(rng, 2)),
            };
            out.push_str(&line);
            out.push('\n');
        }
        // The block's `let`s go out of scope with it.
        self.uints.truncate(scope.0);
        out
    }
}

/// The parts of a spec case whose CPU time the stage adds up ([`SpecTimes`]).
#[derive(Debug, Clone, Copy)]
pub enum Phase {
    /// Making the case's spec: generating it, mutating it.
    Make,
    /// `isa_compiler::check_source`: parsing and checking.
    Check,
    /// The Rust backend, on an accepted spec.
    Rust,
    /// The documentation backends (Markdown and HTML), on an accepted spec.
    Docs,
    /// Rendering the diagnostics of a rejected spec.
    Diagnostics,
}

/// Nanoseconds spent in each [`Phase`] by every case so far (cases run on the guard's worker
/// thread, so the totals are shared).
static PHASE_NANOS: [std::sync::atomic::AtomicU64; 5] = [const { std::sync::atomic::AtomicU64::new(0) }; 5];

/// Runs `f`, adding its time to `phase`.
fn timed<R>(phase: Phase, f: impl FnOnce() -> R) -> R {
    let start = std::time::Instant::now();
    let r = f();
    let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
    PHASE_NANOS[phase as usize].fetch_add(nanos, std::sync::atomic::Ordering::Relaxed);
    r
}

/// Seconds spent in each phase of the spec stage so far (on the clock, in the worker: on an
/// idle machine its CPU time), rustc excluded.
#[derive(Debug, Default, Clone, Copy)]
pub struct SpecTimes {
    /// Generating and mutating specs.
    pub make: f64,
    /// Parsing and checking.
    pub check: f64,
    /// The Rust backend.
    pub rust: f64,
    /// The documentation backends.
    pub docs: f64,
    /// Rendering diagnostics.
    pub diagnostics: f64,
}

impl SpecTimes {
    /// The totals so far.
    pub fn now() -> Self {
        let s = |p: Phase| PHASE_NANOS[p as usize].load(std::sync::atomic::Ordering::Relaxed) as f64 / 1e9;
        SpecTimes {
            make: s(Phase::Make),
            check: s(Phase::Check),
            rust: s(Phase::Rust),
            docs: s(Phase::Docs),
            diagnostics: s(Phase::Diagnostics),
        }
    }
}

impl std::fmt::Display for SpecTimes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "make {:.1} s, check {:.1} s, rust {:.1} s, docs {:.1} s, diagnostics {:.1} s",
            self.make, self.check, self.rust, self.docs, self.diagnostics
        )
    }
}

/// What the checker made of one spec.
#[derive(Debug)]
pub enum Checked {
    /// Accepted: the generated Rust module and the name of its instruction type, if any.
    Accepted {
        /// The Rust module.
        rust: String,
        /// The type implementing `isa_runtime::target::Isa`.
        unit: Option<String>,
    },
    /// Rejected with diagnostics; `unlocated` says what is wrong with them, if anything.
    Rejected {
        /// A diagnostic that does not point into the spec, or no diagnostic at all.
        unlocated: Option<String>,
    },
}

/// The whole front of the pipeline on one spec: check, then on acceptance the Rust backend
/// and the documentation; on rejection, the diagnostics rendered. Panics are the caller's.
pub fn check_spec(source: &str) -> Checked {
    check_spec_for(source, true)
}

/// [`check_spec`], with the Rust module formatted only when `formatted` (it is going to rustc):
/// otherwise the backend makes its tokens and [`Checked::Accepted`]'s `rust` is empty.
/// Formatting (syn and prettyplease) is most of the backend's time, and most accepted
/// mutations of the shipped specs are not compiled.
pub fn check_spec_for(source: &str, formatted: bool) -> Checked {
    let checked = timed(Phase::Check, || isa_compiler::check_source(source));
    match checked {
        Ok(target) => {
            let rust = timed(Phase::Rust, || {
                if formatted {
                    isa_compiler::backend::rust::generate_from(&target, "fuzz.isa")
                } else {
                    drop(isa_compiler::backend::rust::generate_tokens(&target));
                    String::new()
                }
            });
            timed(Phase::Docs, || {
                let _ = isa_compiler::backend::docs::markdown(&target);
                let _ = isa_compiler::backend::docs::html(&target);
            });
            Checked::Accepted { rust, unit: isa_compiler::backend::rust::target_type_name(&target) }
        }
        Err(diagnostics) => {
            let _ =
                timed(Phase::Diagnostics, || isa_compiler::diag::render("fuzz.isa", source, &diagnostics));
            let inside = |s: isa_compiler::diag::Span| {
                s.start <= s.end
                    && s.end <= source.len()
                    && source.is_char_boundary(s.start)
                    && source.is_char_boundary(s.end)
            };
            let unlocated = if diagnostics.total() == 0 {
                Some("rejected without a diagnostic".to_string())
            } else {
                diagnostics.iter().find_map(|d| {
                    let spans = std::iter::once(&d.primary).chain(&d.secondary);
                    spans
                        .clone()
                        .any(|l| !inside(l.span))
                        .then(|| format!("a span outside the spec: {}", d.message))
                })
            };
            Checked::Rejected { unlocated }
        }
    }
}

/// How many specs of each kind to try, and which accepted ones go on to rustc.
#[derive(Debug, Clone)]
pub struct SpecPlan {
    /// Mutations of the shipped specs and of generated specs.
    pub mutated: u64,
    /// Generated specs, unmutated.
    pub generated: u64,
    /// At most this many mutations per mutated spec.
    pub max_mutations: usize,
    /// Whether accepted specs go through rustc.
    pub compile: bool,
    /// One in this many accepted mutations of the shipped specs goes through rustc (0: none):
    /// they are large, rustc takes seconds for each. Which ones is decided by the seed and the
    /// case's number alone ([`compiles_shipped`]), so that shards of a run compile what the
    /// whole run would. Accepted generated specs always go through rustc.
    pub compile_shipped_one_in: u64,
    /// The cases to run: case numbers `first..end` of the stage's `generated + mutated`
    /// (`None`: to the last). A run cut in shards (`--spec-from`, `--spec-to`) adds up to the
    /// whole run, each case depending on the seed and its number alone.
    pub first: u64,
    /// See [`SpecPlan::first`].
    pub end: Option<u64>,
}

impl SpecPlan {
    /// `generated` generated specs and no mutations, none compiled: the plan whose cases
    /// ([`spec_case`]) are the generator's specs alone.
    pub fn generated_only(generated: u64) -> Self {
        SpecPlan {
            mutated: 0,
            generated,
            max_mutations: 1,
            compile: false,
            compile_shipped_one_in: 0,
            first: 0,
            end: None,
        }
    }

    /// The case numbers this plan runs.
    pub fn cases(&self) -> std::ops::Range<u64> {
        let all = self.generated + self.mutated;
        self.first.min(all)..self.end.unwrap_or(all).clamp(self.first.min(all), all)
    }
}

/// Whether case `case` of the run seeded `seed`, a mutation of a shipped spec, goes through
/// rustc when the checker accepts it (one in [`SpecPlan::compile_shipped_one_in`]).
pub fn compiles_shipped(plan: &SpecPlan, seed: u64, case: u64) -> bool {
    // A case seed's lowest bit is always set: the bits above it decide.
    plan.compile_shipped_one_in != 0
        && (super::case_seed(seed, 0xc0de, case) >> 1).is_multiple_of(plan.compile_shipped_one_in)
}

/// What the specs did.
#[derive(Debug, Default, Clone)]
pub struct SpecCounts {
    /// Mutated specs tried.
    pub mutated: u64,
    /// Generated specs tried.
    pub generated: u64,
    /// Specs the checker accepted.
    pub accepted: u64,
    /// Specs it rejected with located diagnostics.
    pub rejected: u64,
    /// Rejections without a diagnostic pointing into the spec.
    pub unlocated: u64,
    /// Cases that panicked (checker or backends).
    pub panics: u64,
    /// Cases that missed their deadline.
    pub hangs: u64,
    /// Accepted specs whose Rust rustc compiled with `-D warnings`, decode check run.
    pub compiled: u64,
    /// Accepted specs whose Rust was the same as an earlier one's (compiled once).
    pub same_code: u64,
    /// Accepted specs not sent to rustc (mutations of shipped specs not chosen, or compiling off).
    pub not_compiled: u64,
    /// Accepted specs whose Rust did not compile (or warned).
    pub compile_failures: u64,
    /// Accepted specs with a format for which no word decodes.
    pub undecodable: u64,
    /// The number of the next case to run: a run stopped here goes on with `--spec-from`
    /// this number.
    pub next: u64,
}

impl std::fmt::Display for SpecCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "mutated {}, generated {}, accepted {}, rejected {} (unlocated {}), panics {}, hangs {}; \
             rustc: compiled {} (+{} with the same code), not compiled {}, compile failures {}, \
             specs with a format that decodes nothing {}; next case {}",
            self.mutated,
            self.generated,
            self.accepted,
            self.rejected,
            self.unlocated,
            self.panics,
            self.hangs,
            self.compiled,
            self.same_code,
            self.not_compiled,
            self.compile_failures,
            self.undecodable,
            self.next
        )
    }
}

/// The shipped specs, by file name.
pub fn shipped() -> Vec<(String, String)> {
    let dir = super::repository().join("isa-specs");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "isa"))
        .filter_map(|p| {
            Some((p.file_name()?.to_string_lossy().into_owned(), std::fs::read_to_string(&p).ok()?))
        })
        .collect();
    out.sort();
    out
}

/// Most mutations are cheap to check, but one the checker accepts goes through the backends,
/// whose cost grows faster than the spec (generating the largest shipped spec's Rust takes over
/// ten times as long as a spec a third of its size): a spec is picked with a weight of the
/// largest spec's size over its own, at most [`MAX_WEIGHT`], so every shipped spec is mutated
/// and the small ones, which hold the same constructs, most often.
fn base<'a>(bases: &'a [(String, String)], rng: &mut Rand) -> &'a (String, String) {
    let largest = bases.iter().map(|(_, t)| t.len()).max().unwrap_or(1).max(1);
    let weight = |t: &str| (largest / t.len().max(1)).clamp(1, MAX_WEIGHT);
    let total: usize = bases.iter().map(|(_, t)| weight(t)).sum();
    let mut pick = rng.below(total);
    for b in bases {
        let w = weight(&b.1);
        if pick < w {
            return b;
        }
        pick -= w;
    }
    &bases[0]
}

/// The most a small shipped spec is preferred over the largest (see [`base`]).
pub const MAX_WEIGHT: usize = 8;

/// Case `case` of the spec stage: its origin (for the report) and its text.
pub fn spec_case(
    plan: &SpecPlan,
    bases: &[(String, String)],
    seed: u64,
    case: u64,
) -> (String, String, bool) {
    let mut rng = Rand::new(super::case_seed(seed, 0x5bec, case));
    if case < plan.generated {
        return (format!("generated #{case}"), generate(&mut rng), false);
    }
    let k = case - plan.generated;
    // Two in three mutate a shipped spec, the third a fresh generated one.
    if k % 3 < 2 && !bases.is_empty() {
        let (name, text) = base(bases, &mut rng);
        (format!("{name} mutated #{case}"), mutated(text, plan.max_mutations, &mut rng), true)
    } else {
        let text = generate(&mut rng);
        (format!("generated and mutated #{case}"), mutated(&text, plan.max_mutations, &mut rng), false)
    }
}

/// Runs the spec stage: every case through [`check_spec`] under `guard`, every accepted one
/// (per `plan`) through `scratch`.
pub fn fuzz_specs(
    plan: &SpecPlan,
    seed: u64,
    guard: &mut super::guard::Guard,
    findings: &mut super::Findings,
    mut scratch: Option<&mut super::rustc::Scratch>,
    progress: &mut dyn FnMut(&SpecCounts) -> bool,
) -> SpecCounts {
    use super::guard::Outcome;
    let bases = shipped();
    let mut counts = SpecCounts::default();
    let mut seen = std::collections::HashSet::new();
    let mut batch: Vec<super::rustc::Unit> = Vec::new();
    let cases = plan.cases();
    for case in cases.clone() {
        let (origin, source, from_shipped) = timed(Phase::Make, || spec_case(plan, &bases, seed, case));
        // Known before checking: only the Rust that goes to rustc is formatted.
        let wanted =
            plan.compile && scratch.is_some() && (!from_shipped || compiles_shipped(plan, seed, case));
        if from_shipped {
            counts.mutated += 1;
        } else if case < plan.generated {
            counts.generated += 1;
        } else {
            counts.mutated += 1;
        }
        findings.in_flight("isa", &source);
        let input = source.clone();
        match guard.run(move || check_spec_for(&input, wanted)) {
            Outcome::Done(Checked::Rejected { unlocated }) => {
                counts.rejected += 1;
                if let Some(why) = unlocated {
                    counts.unlocated += 1;
                    findings.record("spec-unlocated", "isa", &format!("{origin}: {why}"), &source);
                }
            }
            Outcome::Done(Checked::Accepted { rust, unit }) => {
                counts.accepted += 1;
                if !wanted {
                    counts.not_compiled += 1;
                } else if !seen.insert(hash(&rust)) {
                    counts.same_code += 1;
                } else {
                    batch.push(super::rustc::Unit { origin, source, rust, unit });
                }
            }
            Outcome::Panicked(message) => {
                counts.panics += 1;
                findings.record("spec-panic", "isa", &format!("{origin}: panic: {message}"), &source);
            }
            Outcome::Hung => {
                counts.hangs += 1;
                findings.record("spec-hang", "isa", &format!("{origin}: hang"), &source);
            }
        }
        let size: usize = batch.iter().map(|u| u.rust.len()).sum();
        counts.next = case + 1;
        let stop = !progress(&counts);
        let last = stop || case + 1 == cases.end;
        if let Some(s) = scratch.as_deref_mut() {
            if !batch.is_empty() && (last || batch.len() >= 48 || size > 3 << 20) {
                compile_batch(s, std::mem::take(&mut batch), &mut counts, findings);
            }
        }
        if stop {
            break;
        }
    }
    findings.clear_in_flight("isa");
    counts
}

/// Compiles a batch and records what failed.
fn compile_batch(
    scratch: &mut super::rustc::Scratch,
    batch: Vec<super::rustc::Unit>,
    counts: &mut SpecCounts,
    findings: &mut super::Findings,
) {
    use super::rustc::Verdict;
    let verdicts = scratch.compile(&batch);
    for (unit, verdict) in batch.iter().zip(verdicts) {
        match verdict {
            Verdict::Fine => counts.compiled += 1,
            Verdict::Undecodable(formats) => {
                counts.compiled += 1;
                counts.undecodable += 1;
                let what = format!("{}: no word decodes as {}", unit.origin, formats.join(", "));
                findings.record("spec-undecodable", "isa", &what, &unit.source);
            }
            Verdict::CompileError(message) => {
                counts.compile_failures += 1;
                let what = format!("{}: the generated Rust does not compile:\n{message}", unit.origin);
                let path = findings.record("spec-rustc", "isa", &what, &unit.source);
                let _ = std::fs::write(path.with_extension("rs"), &unit.rust);
            }
        }
    }
}

fn hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}
