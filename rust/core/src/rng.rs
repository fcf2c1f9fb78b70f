//! The seeded random number generator every game and agent uses.
//!
//! Xoshiro256++ from `rand_xoshiro`: fast, small, and the same stream on every machine.
//! Its state is four `u64` words, serialized as one hex string so that a game's JSON stays
//! exact in any JSON reader (no integers beyond 2^53).

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRng(Xoshiro256PlusPlus);

impl GameRng {
    /// A generator from a 64-bit seed (expanded with SplitMix64, as `rand` does).
    pub fn seed(seed: u64) -> Self {
        GameRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// A generator for the `index`-th independent stream under `seed` (games of a batch,
    /// determinizations of a search): the same pair always gives the same stream.
    pub fn stream(seed: u64, index: u64) -> Self {
        GameRng::seed(mix64(
            seed ^ mix64(index.wrapping_add(0x9E37_79B9_7F4A_7C15)),
        ))
    }

    /// A uniform integer in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        self.0.random_range(0..n)
    }

    /// A die roll, 1..=sides.
    pub fn roll(&mut self, sides: u32) -> u32 {
        self.0.random_range(1..=sides)
    }

    /// A uniform float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0.random::<f64>()
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.random::<u64>()
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// Moves `m` elements drawn uniformly without replacement to the front of `items` (the
    /// first `m` steps of a forward Fisher-Yates shuffle; `m` at most `items.len()`).
    pub fn draw_front<T>(&mut self, items: &mut [T], m: usize) {
        for i in 0..m {
            let j = i + self.below(items.len() - i);
            items.swap(i, j);
        }
    }

    /// A uniformly chosen element, or None for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len())])
        }
    }

    #[allow(
        clippy::expect_used,
        reason = "rand_xoshiro's own serde form of its state; no user input involved"
    )]
    fn words(&self) -> [u64; 4] {
        // rand_xoshiro serializes its state as `{"s": [u64; 4]}`.
        let v = serde_json::to_value(&self.0).expect("xoshiro state serializes");
        let s = &v["s"];
        std::array::from_fn(|i| s[i].as_u64().expect("xoshiro state word"))
    }

    fn from_words(w: [u64; 4]) -> Option<Self> {
        if w == [0; 4] {
            return None; // the all-zero state is a fixed point of xoshiro
        }
        serde_json::from_value(serde_json::json!({ "s": w }))
            .ok()
            .map(GameRng)
    }
}

/// SplitMix64's finalizer: a cheap bijective mixer for deriving seeds.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Serialize for GameRng {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let w = self.words();
        s.serialize_str(&format!(
            "{:016x}{:016x}{:016x}{:016x}",
            w[0], w[1], w[2], w[3]
        ))
    }
}

impl<'de> Deserialize<'de> for GameRng {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let bad = || serde::de::Error::custom("rng state must be 64 hex digits, not all zero");
        if text.len() != 64 || !text.is_ascii() {
            return Err(bad());
        }
        let mut w = [0u64; 4];
        for (i, word) in w.iter_mut().enumerate() {
            *word = u64::from_str_radix(&text[i * 16..i * 16 + 16], 16).map_err(|_| bad())?;
        }
        GameRng::from_words(w).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips_through_json() {
        let mut a = GameRng::seed(7);
        a.next_u64();
        let text = serde_json::to_string(&a).unwrap();
        let mut b: GameRng = serde_json::from_str(&text).unwrap();
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn same_seed_same_stream_and_streams_differ() {
        let mut a = GameRng::stream(1, 0);
        let mut b = GameRng::stream(1, 0);
        let mut c = GameRng::stream(1, 1);
        let (x, y, z) = (a.next_u64(), b.next_u64(), c.next_u64());
        assert_eq!(x, y);
        assert_ne!(x, z);
    }

    #[test]
    fn bad_state_is_rejected() {
        assert!(serde_json::from_str::<GameRng>("\"00\"").is_err());
        assert!(serde_json::from_str::<GameRng>(&format!("\"{}\"", "0".repeat(64))).is_err());
    }
}
