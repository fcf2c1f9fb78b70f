//! Observation tensors as their nonzero entries, so that a buffer holding one game's last
//! observation is rewritten only where the next one differs (issue 16).
//!
//! A game's observation writer puts its values into a [`Sink`]: [`Dense`] fills a whole
//! buffer (`Game::observation`), [`Sparse`] keeps the nonzero entries. The batch keeps each
//! game's last [`Sparse`] observation beside the caller's buffer and [`rewrite`]s only the
//! entries that changed: a Battle Line step changes a few of its 1,707 floats, and writing
//! (and first reading) the untouched cache lines of 1,024 games' observations cost more
//! than the move itself. Both sinks are fed by the same writer, so the two forms agree.

use std::iter::repeat;

/// Where an observation writer puts its values. Entries never set are zero; each entry is
/// set at most once per observation (so the dense and sparse forms agree).
pub trait Sink {
    fn set(&mut self, i: usize, v: f32);
    /// 1.0 where `on`, else left zero.
    fn flag(&mut self, i: usize, on: bool) {
        if on {
            self.set(i, 1.0);
        }
    }
}

/// A whole buffer, zeroed when made: every element ends up written.
pub struct Dense<'a>(&'a mut [f32]);

impl<'a> Dense<'a> {
    pub fn cleared(out: &'a mut [f32]) -> Self {
        out.fill(0.0);
        Dense(out)
    }
}

impl Sink for Dense<'_> {
    fn set(&mut self, i: usize, v: f32) {
        if let Some(x) = self.0.get_mut(i) {
            *x = v;
        }
    }
}

/// An observation as its nonzero entries (index, value), in the order written.
#[derive(Clone, Debug, Default)]
pub struct Sparse {
    entries: Vec<(u32, f32)>,
    /// A dense buffer for [`Sparse::fill_from_dense`] (games without a sparse writer).
    dense: Vec<f32>,
}

impl Sink for Sparse {
    fn set(&mut self, i: usize, v: f32) {
        // Observations are far shorter than 2^32 entries (the batch refuses larger ones).
        if v != 0.0 {
            if let Ok(i) = u32::try_from(i) {
                self.entries.push((i, v));
            }
        }
    }
}

impl Sparse {
    pub fn clear(&mut self) {
        self.entries.clear();
    }
    pub fn entries(&self) -> &[(u32, f32)] {
        &self.entries
    }
    /// Become a copy of `other`'s entries (reusing this one's allocation).
    pub fn copy_from(&mut self, other: &Sparse) {
        self.entries.clone_from(&other.entries);
    }
    /// Trade entries with `other` (each keeps its dense buffer): cheaper than a copy.
    pub fn swap_entries(&mut self, other: &mut Sparse) {
        std::mem::swap(&mut self.entries, &mut other.entries);
    }
    /// The nonzero entries of the `len`-float observation `write` puts in a zeroed buffer:
    /// for games whose writer only knows dense buffers. The buffer is reused.
    pub fn fill_from_dense(&mut self, len: usize, write: impl FnOnce(&mut [f32])) {
        self.entries.clear();
        self.dense.clear();
        self.dense.resize(len, 0.0);
        write(&mut self.dense);
        let nonzero = self.dense.iter().enumerate().filter(|(_, &v)| v != 0.0);
        // Observations are far shorter than 2^32 entries (the batch refuses larger ones).
        self.entries.extend(nonzero.map(|(i, &v)| (i as u32, v)));
    }
}

/// Rewrite `out`, which holds the observation `old` (zeros elsewhere), so that it holds
/// `new`, writing only the entries whose value changes. `scratch`: as long as `out`, all
/// zeros, and left so (a per-thread buffer that stays in the cache).
pub fn rewrite(out: &mut [f32], old: &Sparse, new: &Sparse, scratch: &mut [f32]) {
    // The old values laid out densely in the scratch buffer, ...
    for &(i, v) in &old.entries {
        if let Some(s) = scratch.get_mut(i as usize) {
            *s = v;
        }
    }
    // ... each new entry written where it differs (bit for bit) and marked done by zeroing
    // its scratch slot, ...
    for &(i, v) in &new.entries {
        let i = i as usize;
        if let (Some(s), Some(o)) = (scratch.get_mut(i), out.get_mut(i)) {
            if s.to_bits() != v.to_bits() {
                *o = v;
            }
            *s = 0.0;
        }
    }
    // ... then the old entries the new observation does not have are cleared.
    for &(i, _) in &old.entries {
        let i = i as usize;
        if let (Some(s), Some(o)) = (scratch.get_mut(i), out.get_mut(i)) {
            if s.to_bits() != 0 {
                *o = 0.0;
                *s = 0.0;
            }
        }
    }
}

/// Rewrite a mask row, which holds exactly the ids `old`, to hold `new`: the old ids
/// cleared, then the new ones set (mostly the same few cache lines, and cheaper than
/// merging the two lists); ids past the row are ignored.
pub fn rewrite_mask(mask: &mut [bool], old: &[u32], new: &[u32]) {
    for (&i, on) in old
        .iter()
        .zip(repeat(false))
        .chain(new.iter().zip(repeat(true)))
    {
        if let Some(m) = mask.get_mut(i as usize) {
            *m = on;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::GameRng;

    /// A random sparse observation of `len` floats: some zeros, some repeats of one value.
    fn random(rng: &mut GameRng, len: usize) -> (Vec<f32>, Sparse) {
        let mut dense = vec![0.0; len];
        let mut s = Sparse::default();
        let mut order: Vec<usize> = (0..len).collect();
        rng.shuffle(&mut order);
        for i in order {
            let v = match rng.below(4) {
                0 => 1.0,
                1 => 0.5,
                _ => 0.0,
            };
            dense[i] = v;
            s.set(i, v);
        }
        (dense, s)
    }

    #[test]
    fn rewriting_gives_the_new_observation_and_leaves_the_scratch_zero() {
        let mut rng = GameRng::seed(3);
        let len = 50;
        let mut scratch = vec![0.0; len];
        let (mut out, mut old) = random(&mut rng, len);
        for _ in 0..200 {
            let (dense, new) = random(&mut rng, len);
            rewrite(&mut out, &old, &new, &mut scratch);
            assert_eq!(out, dense);
            assert!(scratch.iter().all(|&s| s == 0.0));
            old.copy_from(&new);
        }
    }

    #[test]
    fn the_dense_fallback_keeps_the_nonzero_entries() {
        let mut s = Sparse::default();
        s.fill_from_dense(5, |d| {
            d[1] = 2.0;
            d[4] = -0.5;
        });
        assert_eq!(s.entries(), &[(1, 2.0), (4, -0.5)]);
    }

    #[test]
    fn mask_rewriting_leaves_exactly_the_new_ids() {
        let mut mask = vec![false; 10];
        for &i in &[1, 3, 5] {
            mask[i] = true;
        }
        rewrite_mask(&mut mask, &[1, 3, 5], &[0, 3, 9, 12]);
        let on: Vec<usize> = (0..10).filter(|&i| mask[i]).collect();
        assert_eq!(on, vec![0, 3, 9]);
        rewrite_mask(&mut mask, &[0, 3, 9], &[]);
        assert!(mask.iter().all(|&m| !m));
    }
}
