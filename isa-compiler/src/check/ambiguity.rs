//! Ambiguity is a compile error: two encodings whose patterns can match one word are reported
//! with both definitions and a word they both match.

use super::Checker;
use crate::ir;

/// `slot` is the format of an interleaved stream's slots, which is not an instruction.
pub fn check(cx: &mut Checker, t: &ir::Target, slot: Option<ir::FormatId>) {
    // A bundled program's words are read per stream: only formats of one stream can be confused.
    let groups: Vec<Vec<&ir::Format>> = match t.bundled() {
        Some((streams, _)) => {
            streams.iter().map(|s| s.formats.iter().map(|f| &t.formats[f.0]).collect()).collect()
        }
        None => vec![t
            .formats
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(ir::FormatId(*i)) != slot)
            .map(|(_, f)| f)
            .collect()],
    };
    for formats in &groups {
        check_group(cx, t, formats);
    }
}

fn check_group(cx: &mut Checker, t: &ir::Target, formats: &[&ir::Format]) {
    let fixed: Vec<(u128, u128)> = formats.iter().map(|f| fixed_bits(&f.pattern)).collect();
    let mut pairs = Vec::new();
    overlapping(formats, &fixed, (0..formats.len()).collect(), &mut pairs);
    // A format both halves of a split keep is met twice with its partners there.
    pairs.sort_unstable();
    pairs.dedup();
    let mut done = None;
    for (i, j, word) in pairs {
        if done == Some(i) {
            continue;
        }
        let (a, b) = (formats[i], formats[j]);
        if cx.is_full() {
            // Nobody will read the rest: count one more error for `a` and move on, so
            // mutually overlapping formats cost one search each, not one per pair.
            cx.error(b.span, format!("encodings `{}` and `{}` are ambiguous", a.name, b.name));
            done = Some(i);
            continue;
        }
        let digits = (t.word_bits as usize).div_ceil(4);
        cx.error(b.span, format!("encodings `{}` and `{}` are ambiguous", a.name, b.name))
            .label(format!("`{}` matches word {word:#0w$x} ...", b.name, w = digits + 2))
            .with(a.span, format!("... and so does `{}`", a.name))
            .note("give one of them a fixed field value (`is`) or a restriction (`in`) the other excludes");
    }
}

/// The bits every word of a pattern has alike (mask, value): fixed in each of its cubes, to
/// the same value.
fn fixed_bits(pattern: &[(u128, u128)]) -> (u128, u128) {
    let Some(&(_, first)) = pattern.first() else { return (0, 0) };
    let mask = pattern.iter().fold(u128::MAX, |m, (mc, vc)| m & mc & !(vc ^ first));
    (mask, first & mask)
}

/// The pairs of `group` (ascending indices into `formats`) that match a common word, with
/// the word. Only formats on the same side of a bit both fix can share a word, so a large
/// group is split at the bit that divides it most evenly (a format that does not fix the bit
/// goes to both sides) and pairs are tried only within the parts: comparing every pair of
/// 10,000 encodings took most of the checker's time.
fn overlapping(
    formats: &[&ir::Format],
    fixed: &[(u128, u128)],
    group: Vec<usize>,
    out: &mut Vec<(usize, usize, u128)>,
) {
    const SMALL: usize = 16;
    if group.len() > SMALL {
        let sides = |bit: u32| {
            let b = 1u128 << bit;
            let (mut zeros, mut ones) = (0, 0);
            for &i in &group {
                let (m, v) = fixed[i];
                if m & b != 0 {
                    if v & b != 0 {
                        ones += 1;
                    } else {
                        zeros += 1;
                    }
                }
            }
            (zeros, ones)
        };
        let fixed_somewhere = group.iter().fold(0, |m, &i| m | fixed[i].0);
        let best = (0..128)
            .filter(|bit| fixed_somewhere >> bit & 1 != 0)
            .map(|bit| (sides(bit), bit))
            .max_by_key(|((z, o), bit)| (*z.min(o), *bit));
        if let Some(((zeros, ones), bit)) = best.filter(|((z, o), _)| *z.min(o) > 0) {
            let unfixed = group.len() - zeros - ones;
            // Each part smaller by a quarter at least, so that splits stay few.
            if 4 * (unfixed + zeros.max(ones)) <= 3 * group.len() {
                let b = 1u128 << bit;
                let side = |one: bool| {
                    let keep = |&&i: &&usize| fixed[i].0 & b == 0 || (fixed[i].1 & b != 0) == one;
                    group.iter().filter(keep).copied().collect::<Vec<_>>()
                };
                let (low, high) = (side(false), side(true));
                overlapping(formats, fixed, low, out);
                overlapping(formats, fixed, high, out);
                return;
            }
        }
    }
    for (k, &i) in group.iter().enumerate() {
        for &j in &group[k + 1..] {
            if let Some(word) = common_word(&formats[i].pattern, &formats[j].pattern) {
                out.push((i, j, word));
            }
        }
    }
}

/// A word matched by both patterns (unions of mask/value cubes), if any.
pub fn common_word(a: &[(u128, u128)], b: &[(u128, u128)]) -> Option<u128> {
    for (ma, va) in a {
        for (mb, vb) in b {
            if (va ^ vb) & ma & mb == 0 {
                return Some(va | vb);
            }
        }
    }
    None
}
