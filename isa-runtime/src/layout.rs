//! What every generated data layout provides, and the object-safe face of a target whose
//! root is a data layout (a header such as NVIDIA's SPH), so tools handle it generically.

use crate::program::Violation;
use crate::value::Value;
use crate::{DecodeError, EncodeError};
use alloc::vec::Vec;
use core::marker::PhantomData;

/// A generated layout view (or a union of views chosen by a tag).
pub trait Layout: Sized {
    /// The layout's name in the spec.
    const NAME: &'static str;
    /// Width in bits.
    const WIDTH: u32;
    /// Reads the layout from its 32-bit words (bit b is bit b % 32 of word b / 32).
    fn from_word_slice(words: &[u32]) -> Result<Self, DecodeError>;
    /// The layout's words.
    fn words(&self) -> Vec<u32>;
    /// Every field by name (nested layouts as structs).
    fn value(&self) -> Value;
    /// Builds the layout from a value of [`Layout::value`]'s shape (or JSON read into one).
    fn from_value(value: &Value) -> Result<Self, EncodeError>;
    /// The spec's constraints that the layout breaks.
    fn check(&self) -> Vec<Violation>;
}

/// A target whose root is a data layout, for tools that handle every target alike.
pub trait DataTarget: Sync {
    /// Short name (`sph`).
    fn name(&self) -> &'static str;
    /// Full name.
    fn title(&self) -> &'static str;
    /// The root layout's name.
    fn root(&self) -> &'static str;
    /// Size in bytes.
    fn bytes(&self) -> usize;
    /// Decodes the layout from its bytes (little-endian 32-bit words).
    fn decode(&self, bytes: &[u8]) -> Result<Value, DecodeError>;
    /// Encodes a value of the shape [`DataTarget::decode`] returns.
    fn encode(&self, value: &Value) -> Result<Vec<u8>, EncodeError>;
    /// Decodes the layout and runs the spec's constraints on it.
    fn check(&self, bytes: &[u8]) -> Result<Vec<Violation>, DecodeError>;
}

/// The [`DataTarget`] of a generated root layout `L`.
pub struct Root<L> {
    name: &'static str,
    title: &'static str,
    layout: PhantomData<fn() -> L>,
}

impl<L> Root<L> {
    /// The target `name` (`title`) whose root layout is `L`.
    pub const fn new(name: &'static str, title: &'static str) -> Self {
        Root { name, title, layout: PhantomData }
    }
}

/// A layout's `N` words from exactly `4 * N` bytes (little-endian words).
pub fn words_from_bytes<const N: usize>(bytes: &[u8]) -> Result<[u32; N], DecodeError> {
    let mut words = [0u32; N];
    read_words(bytes, &mut words)?;
    Ok(words)
}

/// Fills `words` from exactly `4 * words.len()` bytes (little-endian words).
fn read_words(bytes: &[u8], words: &mut [u32]) -> Result<(), DecodeError> {
    if bytes.len() != 4 * words.len() {
        return Err(DecodeError::Truncated { needed: 4 * words.len(), available: bytes.len() });
    }
    for (word, c) in words.iter_mut().zip(bytes.chunks_exact(4)) {
        *word = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    Ok(())
}

/// A layout's `B = 4 * N` bytes (little-endian words).
pub fn bytes_from_words<const N: usize, const B: usize>(words: &[u32; N]) -> [u8; B] {
    let mut bytes = [0u8; B];
    for (chunk, word) in bytes.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    bytes
}

fn words_of(bytes: &[u8], width: u32) -> Result<Vec<u32>, DecodeError> {
    let mut words = alloc::vec![0u32; width.div_ceil(32) as usize];
    read_words(bytes, &mut words)?;
    Ok(words)
}

impl<L: Layout> DataTarget for Root<L> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn title(&self) -> &'static str {
        self.title
    }
    fn root(&self) -> &'static str {
        L::NAME
    }
    fn bytes(&self) -> usize {
        L::WIDTH.div_ceil(32) as usize * 4
    }
    fn decode(&self, bytes: &[u8]) -> Result<Value, DecodeError> {
        Ok(L::from_word_slice(&words_of(bytes, L::WIDTH)?)?.value())
    }
    fn encode(&self, value: &Value) -> Result<Vec<u8>, EncodeError> {
        Ok(L::from_value(value)?.words().iter().flat_map(|w| w.to_le_bytes()).collect())
    }
    fn check(&self, bytes: &[u8]) -> Result<Vec<Violation>, DecodeError> {
        Ok(L::from_word_slice(&words_of(bytes, L::WIDTH)?)?.check())
    }
}
