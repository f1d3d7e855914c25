//! Words and bytes: instruction lengths, splitting a byte stream into instructions and
//! joining it back, 32-bit upload parts, and a word's bytes in either byte order.

use super::isa::Isa;
use crate::DecodeError;
use alloc::string::String;
use alloc::vec::Vec;

/// The length in bytes of the instruction `word` starts: its encoding's length on a target
/// whose instructions differ in length, else the word's. A word that matches no encoding (a
/// raw directive's) is as many of the shortest lengths as hold its bits.
pub fn instruction_bytes<T: Isa>(word: u128) -> usize {
    let lengths = T::lengths();
    if lengths.is_empty() {
        return T::WORD_BITS.div_ceil(8) as usize;
    }
    let bits = T::match_format(word).and_then(|i| lengths.get(i)?.of(word)).unwrap_or_else(|| {
        let step = shortest_length::<T>();
        let used = 128 - word.leading_zeros();
        used.div_ceil(step).max(1) * step
    });
    bits.div_ceil(8) as usize
}

/// Decodes the instruction `bytes` start with, its words in the target's byte order (the
/// first byte the lowest where instructions differ in length, as [`split_stream`] reads them).
/// Fewer bytes than the instruction needs is [`DecodeError::Truncated`]; bytes after it are
/// not read. Where instructions differ in length, bytes no encoding matches are
/// [`DecodeError::NoMatchBytes`] of the shortest length.
pub fn decode_bytes<T: Isa>(bytes: &[u8]) -> Result<T::Instruction, DecodeError> {
    let max = T::WORD_BITS.div_ceil(8) as usize;
    let truncated = |needed| DecodeError::Truncated { needed, available: bytes.len() };
    if T::lengths().is_empty() {
        let word = bytes.get(..max).ok_or_else(|| truncated(max))?;
        return T::decode(word_from_bytes(word, T::LITTLE_ENDIAN));
    }
    let head = word_from_bytes(&bytes[..bytes.len().min(max)], true);
    if T::match_format(head).is_none() {
        // As `split_stream` steps over them: a piece of the shortest length.
        let length = shortest_length::<T>().div_ceil(8) as usize;
        let piece = bytes.get(..length).ok_or_else(|| truncated(length))?;
        return Err(DecodeError::NoMatchBytes { bytes: word_from_bytes(piece, true), length: length as u8 });
    }
    let needed = instruction_bytes::<T>(head);
    let own = bytes.get(..needed).ok_or_else(|| truncated(needed))?;
    T::decode(word_from_bytes(own, true)).map_err(in_bytes::<T>)
}

/// A target whose instructions differ in length: a word no encoding matches is reported as
/// its bytes in memory order ([`DecodeError::NoMatchBytes`]), as long as the
/// shortest instruction holding every set bit.
pub(super) fn in_bytes<T: Isa>(e: DecodeError) -> DecodeError {
    match e {
        DecodeError::NoMatch { word } if !T::lengths().is_empty() => {
            DecodeError::NoMatchBytes { bytes: word, length: instruction_bytes::<T>(word) as u8 }
        }
        e => e,
    }
}

/// The shortest length in bits of any instruction.
pub(super) fn shortest_length<T: Isa>() -> u32 {
    T::lengths().iter().filter_map(|l| l.bits.first()).min().copied().unwrap_or(T::WORD_BITS).max(8)
}

/// The instruction's own bits of `word`, where a shorter instruction is followed by others:
/// the bits past its length read as zero.
pub(super) fn own_bits<T: Isa>(word: u128) -> u128 {
    let bytes = instruction_bytes::<T>(word);
    if T::lengths().is_empty() || bytes >= 16 {
        word
    } else {
        word & ((1u128 << (8 * bytes)) - 1)
    }
}

/// Splits a program of instructions that differ in length into their words, first byte the
/// lowest: each instruction's length is read from its first bytes. Bytes that match no
/// encoding are a piece of the shortest length (they list as the raw directive, as applegpu
/// steps over them); a last
/// instruction cut short keeps the bytes there are. The words alone do not always say how
/// long each piece was ([`split_pieces`] does).
pub fn split_stream<T: Isa>(bytes: &[u8]) -> Vec<u128> {
    split_pieces::<T>(bytes).into_iter().map(|(word, _)| word).collect()
}

/// Why a piece of a stream ([`split_pieces`]) of `length` bytes is no instruction of that
/// length: its word alone begins one of `own` bytes.
pub fn piece_of_another_length(length: usize, own: usize) -> String {
    alloc::format!(
        "a piece of {length} bytes where it stands (its length read with the bytes after it), which alone begins an instruction of {own} bytes"
    )
}

/// [`split_stream`] with each piece's length in bytes, as it was read from the stream. A
/// length rule may read bits past an instruction's short form (AGX's `42 f8` reads as a 2-byte
/// piece among the bytes that follow it, but alone begins one of 6 bytes), so a piece's word
/// may give another length than the piece had: a listing shows such a piece as data
/// ([`disassemble_words_from`](super::disassemble_words_from)).
pub fn split_pieces<T: Isa>(bytes: &[u8]) -> Vec<(u128, usize)> {
    let max = T::WORD_BITS.div_ceil(8) as usize;
    let mut pieces = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let end = bytes.len().min(at + max);
        let word = word_from_bytes(&bytes[at..end], true);
        let length = match T::match_format(word) {
            Some(_) => instruction_bytes::<T>(word),
            None => shortest_length::<T>().div_ceil(8) as usize,
        };
        let length = length.clamp(1, end - at);
        pieces.push((word_from_bytes(&bytes[at..at + length], true), length));
        at += length;
    }
    pieces
}

/// The bytes of a program of instructions that differ in length, each word as long as its
/// instruction ([`instruction_bytes`]); with one length, every word whole.
pub fn join_stream<T: Isa>(words: &[u128]) -> Vec<u8> {
    let mut out = Vec::new();
    for w in words {
        word_to_bytes(*w, instruction_bytes::<T>(*w), T::LITTLE_ENDIAN, &mut out);
    }
    out
}

/// Words of `bits` bits as 32-bit parts in upload order: least significant part of each
/// word first when `low_first`, most significant first otherwise.
pub fn word_parts(words: &[u128], bits: u32, low_first: bool) -> Vec<u32> {
    let n = (bits / 32).max(1);
    words
        .iter()
        .flat_map(|w| (0..n).map(move |i| (w >> (32 * if low_first { i } else { n - 1 - i })) as u32))
        .collect()
}

/// The inverse of [`word_parts`]; `None` when the parts do not make whole words.
pub fn words_of_parts(parts: &[u32], bits: u32, low_first: bool) -> Option<Vec<u128>> {
    let n = (bits / 32).max(1) as usize;
    parts.len().is_multiple_of(n).then(|| {
        parts
            .chunks(n)
            .map(|c| {
                let mut ordered = c.to_vec();
                if low_first {
                    ordered.reverse();
                }
                ordered.iter().fold(0u128, |w, p| (w << 32) | u128::from(*p))
            })
            .collect()
    })
}

/// Reads one word of `bits` bits from `bytes` in the given byte order.
pub fn word_from_bytes(bytes: &[u8], little_endian: bool) -> u128 {
    let mut w = 0u128;
    for (i, b) in bytes.iter().enumerate() {
        let shift = if little_endian { 8 * i } else { 8 * (bytes.len() - 1 - i) };
        w |= (*b as u128) << shift;
    }
    w
}

/// Writes the low `bytes` bytes of `word` in the given byte order.
pub fn word_to_bytes(word: u128, bytes: usize, little_endian: bool, out: &mut Vec<u8>) {
    for i in 0..bytes {
        let shift = if little_endian { 8 * i } else { 8 * (bytes - 1 - i) };
        out.push((word >> shift) as u8);
    }
}
