//! Instruction words in and out: binary files (whole words in the target's byte order) and
//! hex text, read by one reader ([`HexReader`]) for every command:
//!
//! - words one or several to a line, separated by blanks or commas, with or without `0x`,
//!   `_` separators allowed (`0x20820df7, 0xd14059e5,` as vc4asm's `-c` output writes);
//! - `#` and `//` comments; a leading `address:` is skipped (`00000008: 4c98...`);
//! - a line's words are its leading hex tokens written alike (all with `0x`, or all without
//!   and with as many digits as the first); the first other token starts text that is ignored,
//!   such as the disassembly after each word of Mesa's and envydis' dumps;
//! - a text whose first words are in nvdisasm's or cuobjdump's `/* 0x... */` comments (`-hex`
//!   output) is read from those comments alone, in order; the rest of its lines is the
//!   listing's text, its heading before the first comment included;
//! - on a target whose words are wider than 32 bits, a token of exactly 8 digits is a 32-bit
//!   piece: consecutive pieces make one word in the target's byte order (first piece lowest on
//!   a little-endian target), as 32-bit dumps of memory hold them.

use isa_runtime::target::{word_from_bytes, Target};

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

/// The text before the line's first `#` or `//` comment, without surrounding blanks.
fn strip_comment(line: &str) -> &str {
    let end = [line.find('#'), line.find("//")].into_iter().flatten().min().unwrap_or(line.len());
    line[..end].trim()
}

/// The contents of the `/* 0x... */` comments of a line, in order.
fn hex_comments(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("/*") {
        let body = &rest[start + 2..];
        let (inner, after) = body.split_once("*/").unwrap_or((body, ""));
        let inner = inner.trim();
        if inner.starts_with("0x") || inner.starts_with("0X") {
            out.push(inner);
        }
        rest = after;
    }
    out
}

/// What one line of hex text gave: a word, or a line that could not be read.
#[derive(Debug, Clone, PartialEq)]
pub enum Read {
    /// A whole word.
    Word(u128),
    /// A line that could not be read: its number (as given to [`HexReader::line`]), its text
    /// (empty for the end of the text) and why.
    Bad { line: usize, text: String, message: String },
}

/// Where a text holds its words, decided by its first line that holds any.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Form {
    /// No line has given a word or a `/* 0x... */` comment yet.
    Undecided,
    /// Words are the lines' leading hex tokens.
    Plain,
    /// Words are only in `/* 0x... */` comments (nvdisasm's and cuobjdump's `-hex` output).
    Comments,
}

/// Unreadable lines held while a text's form is undecided; past this many the text is plain
/// hex whose first lines are wrong, and memory stays bounded whatever the input.
const HELD_LINES: usize = 64;

/// Reads the words of hex text one line at a time, in every form the module describes, in
/// memory that does not grow with the text. The form is decided by the first line holding a
/// word or a `/* 0x... */` comment: lines before it that are not hex are held back, dropped as
/// a listing's heading when comments decide it and reported as errors otherwise.
pub struct HexReader {
    word_bits: u32,
    little_endian: bool,
    form: Form,
    /// 32-bit pieces of the word being read, as written.
    pieces: Vec<u128>,
    /// Unreadable lines while the form is undecided.
    held: Vec<Read>,
    /// The number of the last line read.
    last_line: usize,
}

impl HexReader {
    /// A reader of `word_bits`-bit words in the given byte order.
    pub fn new(word_bits: u32, little_endian: bool) -> Self {
        HexReader {
            word_bits,
            little_endian,
            form: Form::Undecided,
            pieces: Vec::new(),
            held: Vec::new(),
            last_line: 0,
        }
    }

    /// 32-bit pieces per word, when the words are wider than 32 bits and made of such pieces.
    fn pieces_per_word(&self) -> Option<usize> {
        (self.word_bits > 32 && self.word_bits & 31 == 0).then_some(self.word_bits as usize / 32)
    }

    /// What line number `number` (`text`) gives, in order: held lines it releases, then its
    /// words or its error.
    pub fn line(&mut self, number: usize, text: &str) -> Vec<Read> {
        self.last_line = number;
        let mut out = Vec::new();
        if !hex_comments(text).is_empty() {
            // An nvdisasm listing: what came before the first comment was its heading.
            if self.form == Form::Undecided {
                self.held.clear();
            }
            self.form = Form::Comments;
        }
        match self.words(text) {
            Ok(words) if words.is_empty() && self.pieces.is_empty() => {}
            Ok(words) => {
                if self.form == Form::Undecided {
                    self.form = Form::Plain;
                    out.append(&mut self.held);
                }
                out.extend(words.into_iter().map(Read::Word));
            }
            Err(message) => {
                let bad = Read::Bad { line: number, text: text.to_string(), message };
                if self.form == Form::Undecided {
                    self.held.push(bad);
                    if self.held.len() > HELD_LINES {
                        self.form = Form::Plain;
                        out.append(&mut self.held);
                    }
                } else {
                    out.push(bad);
                }
            }
        }
        out
    }

    /// The words that one line completes.
    fn words(&mut self, line: &str) -> Result<Vec<u128>, String> {
        let tokens: Vec<&str> = if self.form == Form::Comments {
            hex_comments(line)
        } else {
            strip_comment(line)
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .collect()
        };
        let mut tokens = tokens.as_slice();
        // An `address:` in front of a dump's words.
        if let Some((first, rest)) = tokens.split_first() {
            if first.strip_suffix(':').is_some_and(|a| parse_hex(a, 128).is_ok()) {
                tokens = rest;
            }
        }
        let mut words = Vec::new();
        let Some(first) = tokens.first() else { return Ok(words) };
        let prefixed = |t: &str| t.starts_with("0x") || t.starts_with("0X");
        let digits = |t: &str| {
            t.trim_start_matches("0x").trim_start_matches("0X").chars().filter(|c| *c != '_').count()
        };
        for (i, token) in tokens.iter().enumerate() {
            let alike = if prefixed(first) {
                prefixed(token)
            } else {
                !prefixed(token) && digits(token) == digits(first)
            };
            let value = parse_hex(token, 128);
            match value {
                Ok(_) if !alike => break,
                Err(e) if i == 0 || (alike && prefixed(token)) => return Err(e),
                Err(_) => break,
                Ok(value) => {
                    if let Some(word) = self.word(token, value, digits(token))? {
                        words.push(word);
                    }
                }
            }
        }
        Ok(words)
    }

    /// A token's value as a whole word, or as a piece (`None` until the word is complete).
    fn word(&mut self, token: &str, value: u128, digits: usize) -> Result<Option<u128>, String> {
        let bits = self.word_bits;
        match self.pieces_per_word() {
            Some(n) if digits == 8 => {
                self.pieces.push(value);
                if self.pieces.len() < n {
                    return Ok(None);
                }
                let pieces = std::mem::take(&mut self.pieces);
                let ordered: Vec<u128> =
                    if self.little_endian { pieces.into_iter().rev().collect() } else { pieces };
                Ok(Some(ordered.into_iter().fold(0, |word, piece| (word << 32) | piece)))
            }
            _ if !self.pieces.is_empty() => {
                let needed = self.pieces_per_word().unwrap_or(0) - self.pieces.len();
                // The unfinished word is reported once; reading starts afresh after it.
                self.pieces.clear();
                Err(format!(
                    "`{}` is a whole word, but the {bits}-bit word begun by 8-digit pieces needs {needed} more",
                    token.escape_debug()
                ))
            }
            _ => parse_hex(token, bits).map(Some),
        }
    }

    /// At the end of the text: the lines still held (a text that never gave a word), and an
    /// error if a word was begun by pieces and not completed.
    pub fn finish(&mut self) -> Vec<Read> {
        let mut out = std::mem::take(&mut self.held);
        if let Some(n) = self.pieces_per_word().filter(|_| !self.pieces.is_empty()) {
            let message = format!(
                "the text ends inside a {}-bit word: {} of its {n} 8-digit (32-bit) pieces given \
                 (write a whole word with all {} digits)",
                self.word_bits,
                self.pieces.len(),
                self.word_bits / 4
            );
            out.push(Read::Bad { line: self.last_line, text: String::new(), message });
        }
        out
    }
}

/// Reads every word of a hex text; errors are `(line, message)`.
pub fn parse_hex_text(
    text: &str,
    word_bits: u32,
    little_endian: bool,
) -> Result<Vec<u128>, Vec<(usize, String)>> {
    let mut reader = HexReader::new(word_bits, little_endian);
    let mut words = Vec::new();
    let mut errors = Vec::new();
    let mut take = |read: Vec<Read>| {
        for r in read {
            match r {
                Read::Word(w) => words.push(w),
                Read::Bad { line, message, .. } => errors.push((line, message)),
            }
        }
    };
    for (n, line) in text.lines().enumerate() {
        take(reader.line(n + 1, line));
    }
    take(reader.finish());
    if errors.is_empty() {
        Ok(words)
    } else {
        Err(errors)
    }
}

/// Bytes in memory order from hex text (`e2 00 34 12`, `e2003412`; blanks and `_` ignored).
pub fn bytes_from_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace() && *b != b'_').collect();
    if !digits.len().is_multiple_of(2) {
        return Err(format!("`{}` is not a whole number of bytes", text.trim()));
    }
    digits
        .chunks(2)
        .map(|pair| {
            let hex = std::str::from_utf8(pair).ok();
            hex.and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("`{}` is not hex bytes", text.trim()))
        })
        .collect()
}

/// Bytes at the end of a program that are no whole word: the start of an instruction (or of a
/// fixed-length word) that the file ends inside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    /// The bytes, in memory order.
    pub bytes: Vec<u8>,
    /// Their byte address in the program.
    pub at: u64,
    /// Why they are no word, in words a listing shows as a comment.
    pub reason: String,
}

/// Splits `bytes` into the target's words; a trailing partial word is an error. Instructions
/// of different lengths are read one after another, each as long as its first bytes say; bytes
/// that end inside the last one are the same error (listed in full, it would assemble longer).
pub fn from_binary(bytes: &[u8], target: &dyn Target) -> Result<Vec<u128>, String> {
    match split_binary(bytes, target)? {
        (pieces, None) => Ok(pieces.into_iter().map(|(w, _)| w).collect()),
        (_, Some(cut)) => Err(cut.reason),
    }
}

/// A binary's words, each with its length in bytes, and the bytes that end it inside a word.
pub type Split = (Vec<(u128, usize)>, Option<Cut>);

/// [`from_binary`] with each word's length in bytes as the binary holds it (a fixed-length
/// target's word size; where instructions differ in length, each piece's as
/// [`Target::split_pieces`] reads it, which its word alone may not say), handing back the bytes
/// that end inside a word apart from the whole words rather than refusing them (`disasm` lists
/// them as data).
pub fn split_binary(bytes: &[u8], target: &dyn Target) -> Result<Split, String> {
    if target.variable_length() {
        let mut pieces = target.split_pieces(bytes);
        // Only the last piece can be cut short: its bytes are the rest of the stream, so the
        // length its word says is the one the splitter read there.
        let Some(&(last, length)) = pieces.last() else { return Ok((pieces, None)) };
        let needed = target.instruction_bytes(last);
        if length < needed {
            pieces.pop();
            let at = bytes.len() - length;
            let reason = format!(
                "{} bytes end inside an instruction: the {} instruction at byte {at} needs {needed} bytes, {length} are left",
                bytes.len(),
                target.name(),
            );
            return Ok((pieces, Some(Cut { bytes: bytes[at..].to_vec(), at: at as u64, reason })));
        }
        return Ok((pieces, None));
    }
    let size = word_bytes(target.word_bits());
    if size == 0 || size > 16 {
        return Err(format!(
            "target {} has {}-bit words; only words of 1 to 128 bits can be read",
            target.name(),
            target.word_bits()
        ));
    }
    let rest = bytes.len() % size;
    let words =
        bytes.chunks_exact(size).map(|c| (word_from_bytes(c, target.little_endian()), size)).collect();
    if rest != 0 {
        let at = bytes.len() - rest;
        let reason = partial(bytes.len() as u64, size, target);
        return Ok((words, Some(Cut { bytes: bytes[at..].to_vec(), at: at as u64, reason })));
    }
    Ok((words, None))
}

/// Why `len` bytes are not a program of `size`-byte words.
pub fn partial(len: u64, size: usize, target: &dyn Target) -> String {
    let rest = len % size as u64;
    format!(
        "{len} bytes is not a whole number of {size}-byte {} words ({rest} bytes left over)",
        target.name()
    )
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

    fn read(text: &str, bits: u32, le: bool) -> Result<Vec<u128>, Vec<(usize, String)>> {
        parse_hex_text(text, bits, le)
    }

    #[test]
    fn hex_text() {
        let text = "# program\n\n0x1 # first\n  2\n";
        assert_eq!(read(text, 32, true), Ok(vec![1, 2]));
        let err = read("1\nzz\n\u{1}\n", 32, true).unwrap_err();
        assert_eq!(err[0].0, 2);
        assert_eq!(err[1], (3, "`\\u{1}` is not a hex word".to_string()));
    }

    #[test]
    fn several_words_to_a_line() {
        let text = "0xd14059e520820df7 0x100009e7009e7000\n0x1, 0x2 // two\n";
        assert_eq!(read(text, 64, true), Ok(vec![0xd14059e520820df7, 0x100009e7009e7000, 1, 2]));
        assert_eq!(
            read("d14059e520820df7, 100009e7009e7000,", 64, true),
            Ok(vec![0xd14059e520820df7, 0x100009e7009e7000])
        );
    }

    #[test]
    fn vc4asm_c_output_is_read_as_32_bit_pieces_low_first() {
        // vc4asm test/asm.misc.hex: `mov`-style words, low half first as in memory.
        let text = "0x0c067980, 0x1a020827,\n0x00000000, 0xe0d202a7,\n";
        assert_eq!(read(text, 64, true), Ok(vec![0x1a020827_0c067980, 0xe0d202a7_00000000]));
        // One piece to a line (vc4asm sample/simple/numbers.hex) and big-endian order.
        assert_eq!(read("0x00000001,\n0x00000002,\n", 64, true), Ok(vec![0x00000002_00000001]));
        assert_eq!(read("00000001 00000002\n", 64, false), Ok(vec![0x00000001_00000002]));
        // The seed word's halves in vc4asm's order.
        assert_eq!(read("0x20820df7 0xd14059e5", 64, true), Ok(vec![0xd14059e5_20820df7]));
        // A 32-bit target reads 8 digits as a whole word.
        assert_eq!(read("0x20820df7 0xd14059e5", 32, true), Ok(vec![0x20820df7, 0xd14059e5]));
        let err = read("0x20820df7\n", 64, true).unwrap_err();
        assert_eq!(err.len(), 1);
        assert!(err[0].1.contains("1 of its 2 8-digit (32-bit) pieces"), "{}", err[0].1);
        let err = read("0x20820df7 0x1\n", 64, true).unwrap_err();
        assert!(err[0].1.contains("`0x1` is a whole word"), "{}", err[0].1);
    }

    #[test]
    fn nvdisasm_hex_comments() {
        // nvdisasm -hex (sm_50): a control word alone on its line, then instructions with
        // their address and text.
        let text = "\t.headerflags\t@\"EF_CUDA_SM52\"\n\
            .text.k:\n\
            \x20       /* 0x001fc400fe2007f6 */\n\
            \x20       /*0008*/                   MOV R1, c[0x0][0x20] ;      /* 0x4c98078000870001 */\n\
            \x20       /*0010*/                   EXIT ;                      /* 0xe30000000007000f */\n";
        assert_eq!(
            read(text, 64, true),
            Ok(vec![0x001fc400fe2007f6, 0x4c98078000870001, 0xe30000000007000f])
        );
    }

    #[test]
    fn a_heading_is_held_until_the_form_is_known() {
        // Before an nvdisasm comment: the listing's heading, not errors.
        assert_eq!(read("code for sm_52\n.text.k:\n/* 0x1 */ /* 0x2 */\n", 64, true), Ok(vec![1, 2]));
        // Before a plain word: errors, reported in order.
        let err = read("code\nzz\n0x1\n", 64, true).unwrap_err();
        assert_eq!(err.iter().map(|e| e.0).collect::<Vec<_>>(), [1, 2]);
        // Only so many lines are held: past them the text is plain, and a late comment
        // cannot make them a heading.
        let junk = "zz\n".repeat(HELD_LINES + 1);
        let err = read(&format!("{junk}/* 0x1 */\n"), 64, true).unwrap_err();
        assert_eq!(err.len(), HELD_LINES + 1);
        let mut reader = HexReader::new(64, true);
        assert!(reader.line(1, "zz").is_empty());
        assert_eq!(reader.finish().len(), 1);
    }

    #[test]
    fn dumps_with_addresses_and_text() {
        // Mesa's vc4_dump_program: the word, then its disassembly.
        let mesa = "0xd14059e520820df7 sig_small_imm nop nop, uni, 1.0 ; fmul r5.8a, uni, 1.0\n";
        assert_eq!(read(mesa, 64, true), Ok(vec![0xd14059e520820df7]));
        // envydis-style: address, words, text (`add` is hex-looking, but written unlike them).
        let envydis = "00000008: 4c98078000870001 add b32 $r1 c0[0x20]\n0x10: 0x1 0x2\n";
        assert_eq!(read(envydis, 64, true), Ok(vec![0x4c98078000870001, 1, 2]));
        assert!(read("0x1 0xzz\n", 64, true).is_err());
        assert!(read("mov r0, r1\n", 64, true).is_err());
    }
}
