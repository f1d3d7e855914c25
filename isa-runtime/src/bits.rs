//! Bit pieces: where a field's bits live in a word.
//!
//! A field is a concatenation of pieces, most significant piece first, so scattered fields such
//! as the QPU's per-element immediates (element i = bit 16+i : bit i) need no special code.

/// One contiguous run of bits of a field: `width` bits starting at bit `lo` of the word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// Least significant bit of the run in the word.
    pub lo: u32,
    /// Number of bits.
    pub width: u32,
}

/// Mask of the low `width` bits (`width` may be 64).
#[inline]
pub const fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Reads a field made of `pieces` (most significant first) from `word`.
pub fn get(word: u128, pieces: &[Piece]) -> u64 {
    let mut value: u64 = 0;
    for p in pieces {
        let part = ((word >> p.lo) as u64) & mask(p.width);
        value = if p.width >= 64 { part } else { (value << p.width) | part };
    }
    value
}

/// Writes `value` into the field made of `pieces` (most significant first) of `word`.
/// Bits of `value` above the field's width are ignored: range checks happen before.
pub fn set(word: &mut u128, pieces: &[Piece], mut value: u64) {
    for p in pieces.iter().rev() {
        let m = mask(p.width) as u128;
        *word = (*word & !(m << p.lo)) | (((value as u128) & m) << p.lo);
        value = if p.width >= 64 { 0 } else { value >> p.width };
    }
}

/// Total width in bits of a field made of `pieces`.
pub fn width(pieces: &[Piece]) -> u32 {
    pieces.iter().map(|p| p.width).sum()
}

/// Sign-extends the low `width` bits of `value`.
#[inline]
pub const fn sign_extend(value: u64, width: u32) -> i64 {
    if width == 0 || width >= 64 {
        value as i64
    } else {
        let shift = 64 - width;
        ((value << shift) as i64) >> shift
    }
}

/// Reads `width` bits at absolute bit `lo` of a little-endian array of 32-bit words
/// (bit b lives in word b / 32): the layout of wide headers such as NVIDIA's SPH.
pub fn get_words(words: &[u32], lo: u32, width: u32) -> u64 {
    let mut value = 0u64;
    for i in 0..width {
        let b = lo + i;
        let bit = (words[(b / 32) as usize] >> (b % 32)) & 1;
        value |= (bit as u64) << i;
    }
    value
}

/// Writes the low `width` bits of `value` at absolute bit `lo` of an array of 32-bit words.
pub fn set_words(words: &mut [u32], lo: u32, width: u32, value: u64) {
    for i in 0..width {
        let b = lo + i;
        let w = &mut words[(b / 32) as usize];
        let bit = 1u32 << (b % 32);
        if (value >> i) & 1 == 1 {
            *w |= bit;
        } else {
            *w &= !bit;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scattered_pieces_round_trip() {
        // Element 3 of a QPU per-element immediate: MSB at bit 19, LSB at bit 3.
        let pieces = [Piece { lo: 19, width: 1 }, Piece { lo: 3, width: 1 }];
        let mut w = 0u128;
        set(&mut w, &pieces, 0b10);
        assert_eq!(w, 1 << 19);
        assert_eq!(get(w, &pieces), 0b10);
        set(&mut w, &pieces, 0b01);
        assert_eq!(w, 1 << 3);
    }

    #[test]
    fn words_layout_matches_bit_numbering() {
        let mut words = [0u32; 20];
        set_words(&mut words, 160, 1, 1);
        assert_eq!(words[5], 1);
        set_words(&mut words, 30, 4, 0b1111);
        assert_eq!((words[0] >> 30, words[1] & 3), (3, 3));
        assert_eq!(get_words(&words, 30, 4), 0b1111);
    }

    #[test]
    fn sign_extension() {
        assert_eq!(sign_extend(0xffff_fff8, 32), -8);
        assert_eq!(sign_extend(0b10, 2), -2);
        assert_eq!(sign_extend(5, 64), 5);
    }
}
