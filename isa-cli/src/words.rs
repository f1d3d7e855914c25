//! Instruction words in and out: hex text (`0x` prefix and `_` separators allowed, one word per
//! line, `#` comments) and binary files (whole words in the target's byte order).

use isa_runtime::target::{word_from_bytes, word_to_bytes, Target};

/// Bytes per instruction word of a target of `word_bits` bits.
pub fn word_bytes(word_bits: u32) -> usize {
    word_bits.div_ceil(8) as usize
}

/// `word` as zero-padded lower-case hex (as many digits as a `word_bits`-bit word has), no prefix.
pub fn to_hex(word: u128, word_bits: u32) -> String {
    let digits = word_bits.div_ceil(4) as usize;
    format!("{word:0digits$x}")
}

/// Parses one hex word: optional `0x`, digits with optional `_` separators, and a value that
/// fits in `word_bits` bits.
pub fn parse_hex(text: &str, word_bits: u32) -> Result<u128, String> {
    // Binary junk fed by mistake stays readable in the message.
    let shown = text.escape_debug();
    let digits = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")).unwrap_or(text);
    if !digits.chars().any(|c| c.is_ascii_hexdigit()) {
        return Err(format!("`{shown}` is not a hex word"));
    }
    let mut value: u128 = 0;
    for c in digits.chars() {
        if c == '_' {
            continue;
        }
        let Some(d) = c.to_digit(16) else {
            return Err(format!("`{shown}` is not a hex word: unexpected `{}`", c.escape_debug()));
        };
        if value >> 124 != 0 {
            return Err(format!("`{shown}` has more than 128 bits"));
        }
        value = (value << 4) | d as u128;
    }
    if word_bits < 128 && value >> word_bits != 0 {
        return Err(format!("`{shown}` does not fit in a {word_bits}-bit word"));
    }
    Ok(value)
}

/// A line of hex text without its `#` comment and surrounding blanks.
pub fn strip_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or("").trim()
}

/// The words of a hex text: (1-based line number, word text) for every line that is not blank
/// or a `#` comment; text after `#` on a line is a comment.
pub fn hex_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(n, line)| {
        let code = strip_comment(line);
        (!code.is_empty()).then_some((n + 1, code))
    })
}

/// Parses a hex text of one word per line; errors are `(line, message)`.
pub fn parse_hex_text(text: &str, word_bits: u32) -> Result<Vec<u128>, Vec<(usize, String)>> {
    let mut words = Vec::new();
    let mut errors = Vec::new();
    for (line, code) in hex_lines(text) {
        match parse_hex(code, word_bits) {
            Ok(w) => words.push(w),
            Err(e) => errors.push((line, e)),
        }
    }
    if errors.is_empty() {
        Ok(words)
    } else {
        Err(errors)
    }
}

/// Splits `bytes` into the target's words; a trailing partial word is an error.
pub fn from_binary(bytes: &[u8], target: &dyn Target) -> Result<Vec<u128>, String> {
    let size = word_bytes(target.word_bits());
    if size == 0 || size > 16 {
        return Err(format!(
            "target {} has {}-bit words; only words of 1 to 128 bits can be read",
            target.name(),
            target.word_bits()
        ));
    }
    let rest = bytes.len() % size;
    if rest != 0 {
        return Err(format!(
            "{} bytes is not a whole number of {size}-byte {} words ({rest} bytes left over)",
            bytes.len(),
            target.name()
        ));
    }
    Ok(bytes.chunks_exact(size).map(|c| word_from_bytes(c, target.little_endian())).collect())
}

/// The words as bytes in the target's byte order.
pub fn to_binary(words: &[u128], target: &dyn Target) -> Vec<u8> {
    let size = word_bytes(target.word_bits());
    let mut out = Vec::with_capacity(words.len() * size);
    for w in words {
        word_to_bytes(*w, size, target.little_endian(), &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_words() {
        assert_eq!(parse_hex("d14059e520820df7", 64), Ok(0xd140_59e5_2082_0df7));
        assert_eq!(parse_hex("0xd140_59e5_2082_0df7", 64), Ok(0xd140_59e5_2082_0df7));
        assert_eq!(parse_hex("0X0", 64), Ok(0));
        assert!(parse_hex("", 64).is_err());
        assert!(parse_hex("0x", 64).is_err());
        assert!(parse_hex("_", 64).is_err());
        assert!(parse_hex("12g4", 64).is_err());
        assert!(parse_hex("1_0000_0000_0000_0000", 64).is_err());
        assert!(parse_hex(&"f".repeat(33), 128).is_err());
        assert_eq!(parse_hex(&"f".repeat(32), 128), Ok(u128::MAX));
        assert_eq!(parse_hex("00000000000000001", 64), Ok(1));
        assert_eq!(to_hex(0x20, 64), "0000000000000020");
    }

    #[test]
    fn hex_text() {
        let text = "# program\n\n0x1 # first\n  2\n";
        let lines: Vec<_> = hex_lines(text).collect();
        assert_eq!(lines, [(3, "0x1"), (4, "2")]);
        assert_eq!(parse_hex_text(text, 32), Ok(vec![1, 2]));
        let err = parse_hex_text("1\nzz\n\u{1}\n", 32).unwrap_err();
        assert_eq!(err[0].0, 2);
        assert_eq!(err[1], (3, "`\\u{1}` is not a hex word".to_string()));
    }
}
