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

/// A seed derived from the secret `key` and `parts` by a keyed one-way function
/// (SipHash-2-4, a pseudorandom function made for short inputs, from the `siphasher`
/// crate): every seed handed to an agent comes through here, so what an agent sees of it
/// (its seed, its copy's RNG) does not lead back to `key` (the match seed that deals the
/// cards) nor to another seat's seed. [`mix64`] is invertible and must not be used for that.
/// Only an unguessable `key` (e.g. [`os_seed`]) keeps the deal secret: a small key can be
/// found by trying keys.
pub fn derive(key: u64, parts: &[u64]) -> u64 {
    use std::hash::Hasher;
    // The 128-bit SipHash key: the secret, and a constant naming this use.
    let mut h = siphasher::sip::SipHasher24::new_with_keys(key, 0x6B69_6E67_646F_6D73);
    for &p in parts {
        h.write_u64(p);
    }
    h.write_usize(parts.len());
    h.finish()
}

/// A seed from the operating system's random source, for runs the caller gave no seed:
/// unguessable, and reported with the results so that the run can be repeated.
pub fn os_seed() -> u64 {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_ok() {
        return u64::from_le_bytes(bytes);
    }
    // No OS source (should not happen): std's hasher keys, themselves drawn from the OS.
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}

/// SplitMix64's finalizer: a cheap bijective mixer for deriving seeds (not for seeds an
/// agent sees: it can be run backwards; use [`derive()`]).
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

    /// SplitMix64's finalizer run backwards: what an agent could do with a `mix64` seed.
    fn unmix64(mut z: u64) -> u64 {
        z ^= z >> 31 ^ z >> 62;
        z = z.wrapping_mul(0x3196_42B2_D24D_8EC3);
        z ^= z >> 27 ^ z >> 54;
        z = z.wrapping_mul(0x96DE_1B17_3F11_9089);
        z ^= z >> 30 ^ z >> 60;
        z.wrapping_sub(0x9E37_79B9_7F4A_7C15)
    }

    #[test]
    fn mix64_is_invertible_and_derive_is_keyed() {
        for z in [0, 1, 42, u64::MAX, 0x1234_5678_9ABC_DEF0] {
            assert_eq!(unmix64(mix64(z)), z);
        }
        // derive depends on the key and on every part, and is not mix64 of them
        let d = derive(7, &[1, 2]);
        assert_eq!(d, derive(7, &[1, 2]));
        assert_ne!(d, derive(8, &[1, 2]));
        assert_ne!(d, derive(7, &[2, 1]));
        assert_ne!(d, derive(7, &[1, 2, 0]));
        assert_ne!(unmix64(d) ^ 7, mix64(1) ^ mix64(2));
        // two seats' seeds with the same count are not related by xor of their inputs
        let (a, b) = (derive(7, &[0, 5]), derive(7, &[1, 5]));
        assert_ne!(a ^ b, 1);
        assert_ne!(unmix64(a) ^ unmix64(b), 1);
    }

    #[test]
    fn os_seeds_differ() {
        assert_ne!(os_seed(), os_seed());
    }

    #[test]
    fn bad_state_is_rejected() {
        assert!(serde_json::from_str::<GameRng>("\"00\"").is_err());
        assert!(serde_json::from_str::<GameRng>(&format!("\"{}\"", "0".repeat(64))).is_err());
    }
}
