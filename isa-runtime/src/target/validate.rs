//! [`Validate`]: the object-safe face of a program validator, reading words as they come.

use super::isa::Isa;
use crate::bundle;
use crate::program::Violation;
use crate::DecodeError;
use alloc::boxed::Box;
use alloc::vec::Vec;

/// A program's validation as its words are read ([`Target::validator`](super::Target::validator)): the object-safe face
/// of [`crate::program::Window`], decoding each piece of words as it comes.
pub trait Validate {
    /// Decodes the next piece of the program's words (whole control groups where the target
    /// has control words; `first` the number of its first word) and checks what can be
    /// checked, handing each violation found to `found`; a word that does not decode is an
    /// error naming its number.
    fn push(
        &mut self,
        words: &[u128],
        first: usize,
        found: &mut dyn FnMut(&Violation),
    ) -> Result<(), (usize, DecodeError)>;
    /// The program has ended: the rest of the checks; every violation, in
    /// [`Isa::check_program`]'s order.
    fn finish(self: Box<Self>, found: &mut dyn FnMut(&Violation)) -> Vec<Violation>;
    /// The number of the first instruction still held (no violation found later names one
    /// before it).
    fn first_held(&self) -> usize;
    /// The most instructions held at once so far.
    fn most_held(&self) -> usize;
    /// The rules that may read anywhere in the program, for which it is held whole.
    fn whole_program(&self) -> Vec<&'static str>;
}

impl<T: Isa> Validate for crate::program::Window<T> {
    fn push(
        &mut self,
        words: &[u128],
        first: usize,
        found: &mut dyn FnMut(&Violation),
    ) -> Result<(), (usize, DecodeError)> {
        for (word, _, w) in bundle::split::<T>(words).map_err(|(k, e)| (first + k, e))? {
            let insn = T::decode(w).map_err(|e| (first + word, e))?;
            crate::program::Window::push(self, insn, found);
        }
        Ok(())
    }
    fn finish(self: Box<Self>, found: &mut dyn FnMut(&Violation)) -> Vec<Violation> {
        crate::program::Window::finish(*self, found)
    }
    fn first_held(&self) -> usize {
        crate::program::Window::first_held(self)
    }
    fn most_held(&self) -> usize {
        crate::program::Window::most_held(self)
    }
    fn whole_program(&self) -> Vec<&'static str> {
        crate::program::Window::whole_program(self)
    }
}
