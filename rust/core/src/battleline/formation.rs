//! Formations and the exact search behind claim proofs.
//!
//! [`best_completion`] answers, for the cards already on one side of a flag (troops and
//! wild morale cards) and a pool of troop cards that may still join them: which formation of
//! `size` cards (3, or 4 under Mud) is the strongest that can be reached, choosing both the
//! completing cards from the pool and the colour/value of every wild card. With an empty pool
//! and a complete side it is the side's own best formation ([`best_formation`]).
//!
//! The search never enumerates card combinations. A formation's strength is ordered by kind
//! first and total second, so it tries the kinds from Wedge down and stops at the first that
//! some completion reaches; within a kind the best total has a closed form:
//! - Wedge / Skirmish Line: the run of `size` consecutive values, from the highest start
//!   down; the values missing from the fixed troops must be covered by the wild cards (each
//!   within its range) and by pool cards (of the colour, for a Wedge);
//! - Phalanx: the highest value with enough pool cards of that value;
//! - Battalion Order: per colour, the fixed values plus the wilds' maxima plus the `m`
//!   highest pool cards of that colour;
//! - Host (and everything under Fog, where only the total counts): the same over all colours.
//!
//! Pools and sets are bitsets over the 60 troops (`u64`, bit = card id), values are 10-bit
//! masks (bit `v - 1` for value `v`). A typical call is a few dozen bit operations.

use super::cards::{troops_of, Card};
use std::fmt;

/// Formation kinds, weakest first (the derived order is the strength order).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Kind {
    Host = 0,
    Skirmish = 1,
    Battalion = 2,
    Phalanx = 3,
    Wedge = 4,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Host,
        Kind::Skirmish,
        Kind::Battalion,
        Kind::Phalanx,
        Kind::Wedge,
    ];
    /// The name used in the API (`"wedge"`, `"phalanx"`, `"battalion"`, `"skirmish"`, `"host"`).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Host => "host",
            Kind::Skirmish => "skirmish",
            Kind::Battalion => "battalion",
            Kind::Phalanx => "phalanx",
            Kind::Wedge => "wedge",
        }
    }
    /// The rulebook's name (`Wedge`, `Phalanx`, `Battalion Order`, `Skirmish Line`, `Host`).
    pub const fn title(self) -> &'static str {
        match self {
            Kind::Host => "Host",
            Kind::Skirmish => "Skirmish Line",
            Kind::Battalion => "Battalion Order",
            Kind::Phalanx => "Phalanx",
            Kind::Wedge => "Wedge",
        }
    }
}

/// A formation with every card resolved: which troop each card stands for (its own identity
/// for a troop; the colour and value chosen for a wild card).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Formation {
    /// The kind; always `Host` under Fog, where formations do not count.
    pub kind: Kind,
    /// Sum of the values.
    pub total: u8,
    /// Whether Fog applies (only the total counts).
    pub fog: bool,
    len: u8,
    added: u8,
    cards: [Card; 4],
    resolved: [Card; 4],
}

impl Formation {
    /// Comparable strength: kind then total, or only the total under Fog.
    #[inline]
    pub fn strength(&self) -> u16 {
        if self.fog {
            u16::from(self.total)
        } else {
            (self.kind as u16) << 6 | u16::from(self.total)
        }
    }
    /// The cards: the given ones in their order, then the completing cards (ascending).
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
    /// The troop each card of [`Formation::cards`] stands for.
    pub fn resolved(&self) -> &[Card] {
        &self.resolved[..self.len as usize]
    }
    /// The cards taken from the pool to complete the side (empty for a complete side).
    pub fn completion(&self) -> &[Card] {
        &self.cards[(self.len - self.added) as usize..self.len as usize]
    }
    /// The completing cards as a troop bitset.
    pub fn completion_bits(&self) -> u64 {
        self.completion().iter().fold(0u64, |a, c| a | 1u64 << c.0)
    }
    /// `(card, colour index, value)` for every wild card of the formation.
    pub fn wild_choices(&self) -> impl Iterator<Item = (Card, u8, u8)> + '_ {
        self.cards()
            .iter()
            .zip(self.resolved())
            .filter(|(c, _)| c.is_morale())
            .map(|(c, r)| (*c, r.colour(), r.value()))
    }
}

impl fmt::Display for Formation {
    /// `Wedge 27: R10 R9 R8` / `Host 24 (Fog): ...`; wild cards show their choice:
    /// `Alexander=B10`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.fog {
            write!(f, "total {} under Fog:", self.total)?;
        } else {
            write!(f, "{} {}:", self.kind.title(), self.total)?;
        }
        for (c, r) in self.cards().iter().zip(self.resolved()) {
            if c.is_morale() {
                write!(f, " {c}={r}")?;
            } else {
                write!(f, " {c}")?;
            }
        }
        Ok(())
    }
}

// ---- masks ---------------------------------------------------------------------------------

const TEN: u16 = 0x3FF;

/// Troop bits of value `v` (index `v - 1`) in every colour.
const VALUE_MASK: [u64; 10] = {
    let mut m = [0u64; 10];
    let mut v = 0;
    while v < 10 {
        let mut c = 0;
        while c < 6 {
            m[v] |= 1u64 << (c * 10 + v);
            c += 1;
        }
        v += 1;
    }
    m
};

#[inline]
fn colour_slice(pool: u64, c: u32) -> u16 {
    (pool >> (10 * c)) as u16 & TEN
}

/// Values (bits) present in the pool in any colour.
#[inline]
fn value_presence(pool: u64) -> u16 {
    let mut m = 0u16;
    for c in 0..6 {
        m |= colour_slice(pool, c);
    }
    m
}

#[inline]
fn bits16(mut m: u16) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros();
            m &= m - 1;
            Some(b)
        }
    })
}

/// The fixed part of a side, summarised.
#[derive(Clone, Copy, Debug, Default)]
struct Parts {
    nt: u32,
    nw: u32,
    sum: u32,
    /// Colours of the fixed troops (bit per colour).
    colours: u8,
    /// Values of the fixed troops (bit `v - 1`).
    values: u16,
    /// Two fixed troops share a value.
    dup: bool,
    leader: bool,
    cav: bool,
    shield: bool,
}

impl Parts {
    #[inline]
    fn of(fixed: &[Card]) -> Parts {
        let mut p = Parts::default();
        for &c in fixed {
            if c.is_troop() {
                let vb = 1u16 << (c.value() - 1);
                p.dup |= p.values & vb != 0;
                p.values |= vb;
                p.colours |= 1 << c.colour();
                p.sum += u32::from(c.value());
                p.nt += 1;
            } else {
                p.nw += 1;
                match c {
                    Card::CAVALRY => p.cav = true,
                    Card::SHIELD => p.shield = true,
                    _ => p.leader = true,
                }
            }
        }
        p
    }
    #[inline]
    fn wild_max(&self) -> u32 {
        10 * u32::from(self.leader) + 8 * u32::from(self.cav) + 3 * u32::from(self.shield)
    }
    /// The only colour a same-colour formation can take, if the troops fix one; `None` if
    /// they have several colours; `Some(None)` if there are no troops.
    #[inline]
    fn single_colour(&self) -> Option<Option<u32>> {
        match self.colours.count_ones() {
            0 => Some(None),
            1 => Some(Some(self.colours.trailing_zeros())),
            _ => None,
        }
    }
}

/// Value bits chosen for each wild card of a run (0 where absent).
#[derive(Clone, Copy, Default)]
struct WildBits {
    leader: u16,
    cav: u16,
    shield: u16,
}

/// Place the wild cards on distinct missing values of a run (`missing`), within their
/// ranges, so that every value left over is available from the pool (`avail`). Returns the
/// wild placements and the values the pool must supply.
#[inline]
fn place_wilds(missing: u16, avail: u16, p: &Parts) -> Option<(WildBits, u16)> {
    let mut w = WildBits::default();
    let mut m = missing;
    if p.cav {
        w.cav = m & 1 << 7;
        if w.cav == 0 {
            return None;
        }
        m &= !w.cav;
    }
    let shield_opts: u16 = if p.shield { m & 0b111 } else { 0 };
    if p.shield && shield_opts == 0 {
        return None;
    }
    // Try each shield placement (or none), then let the leader cover what the pool cannot.
    let mut opts = shield_opts;
    loop {
        let sb = if p.shield {
            if opts == 0 {
                return None;
            }
            let b = opts & opts.wrapping_neg();
            opts &= opts - 1;
            b
        } else {
            0
        };
        let rest = m & !sb;
        let need = rest & !avail;
        let ok = if p.leader {
            match need.count_ones() {
                0 if rest != 0 => {
                    // Any value: take the lowest, keeping the pool's higher cards free.
                    w.leader = rest & rest.wrapping_neg();
                    true
                }
                1 => {
                    w.leader = need;
                    true
                }
                _ => false,
            }
        } else {
            need == 0
        };
        if ok {
            w.shield = sb;
            return Some((w, rest & !w.leader));
        }
        if !p.shield {
            return None;
        }
    }
}

/// Builder for the result.
struct Out {
    f: Formation,
}

impl Out {
    fn new(fixed: &[Card], kind: Kind, total: u32, fog: bool) -> Out {
        let mut f = Formation {
            kind,
            total: total as u8,
            fog,
            len: fixed.len() as u8,
            added: 0,
            cards: [Card(0); 4],
            resolved: [Card(0); 4],
        };
        for (i, &c) in fixed.iter().enumerate() {
            f.cards[i] = c;
            f.resolved[i] = c;
        }
        Out { f }
    }
    #[inline]
    fn add(&mut self, c: Card) {
        let i = self.f.len as usize;
        self.f.cards[i] = c;
        self.f.resolved[i] = c;
        self.f.len += 1;
        self.f.added += 1;
    }
    /// Resolve every wild card with `pick(card) -> (colour, value)`.
    fn resolve(mut self, mut pick: impl FnMut(Card) -> (u8, u8)) -> Formation {
        for i in 0..self.f.len as usize {
            let c = self.f.cards[i];
            if c.is_morale() {
                let (col, v) = pick(c);
                self.f.resolved[i] = Card::troop(col, v);
            }
        }
        self.f
    }
}

fn default_colour(p: &Parts) -> u8 {
    if p.colours == 0 {
        0
    } else {
        p.colours.trailing_zeros() as u8
    }
}

fn wild_value(c: Card, w: &WildBits) -> u8 {
    let b = match c {
        Card::CAVALRY => w.cav,
        Card::SHIELD => w.shield,
        _ => w.leader,
    };
    b.trailing_zeros() as u8 + 1
}

/// Starts `s` (bits) of the runs `s..s + size` of set bits of `x` that contain `values`.
#[inline]
fn run_starts(x: u16, size: u32, values: u16) -> u16 {
    let mut r = x;
    for k in 1..size {
        r &= x >> k;
    }
    if values != 0 {
        let lo = values.trailing_zeros();
        let hi = 15 - values.leading_zeros();
        // s <= lo and s + size - 1 >= hi.
        let upto_lo = (2u16 << lo).wrapping_sub(1);
        let from = (hi + 1).saturating_sub(size);
        r &= upto_lo & !((1u16 << from) - 1);
    }
    r
}

/// The total of the run of `size` values starting at bit `start`.
#[inline]
fn run_total(start: u32, size: u32) -> u32 {
    size * (start + 1) + size * (size - 1) / 2
}

fn wedge(fixed: &[Card], p: &Parts, pool: u64, size: u32, fog: bool) -> Option<Formation> {
    let colour_choice = p.single_colour()?;
    if p.nw == 0 {
        // No wild card: per colour, the highest run of the colour's unseen cards and the
        // fixed troops.
        let colours = match colour_choice {
            Some(c) => c..c + 1,
            None => 0..6,
        };
        let mut best: Option<(u32, u32)> = None;
        for c in colours {
            let starts = run_starts(colour_slice(pool, c) | p.values, size, p.values);
            if starts != 0 {
                let s = 15 - starts.leading_zeros();
                if best.is_none_or(|(bs, _)| s > bs) {
                    best = Some((s, c));
                }
            }
        }
        let (start, c) = best?;
        let run = ((1u16 << size) - 1) << start;
        let mut out = Out::new(fixed, Kind::Wedge, run_total(start, size), fog);
        for b in bits16(run & !p.values) {
            out.add(Card::troop(c as u8, b as u8 + 1));
        }
        return Some(out.f);
    }
    for start in (0..=10 - size).rev() {
        let run = ((1u16 << size) - 1) << start;
        if p.values & !run != 0 {
            continue;
        }
        let missing = run & !p.values;
        let colours = match colour_choice {
            Some(c) => c..c + 1,
            None => 0..6,
        };
        for c in colours {
            let avail = colour_slice(pool, c);
            if let Some((w, need)) = place_wilds(missing, avail, p) {
                let mut out = Out::new(fixed, Kind::Wedge, run_total(start, size), fog);
                for b in bits16(need) {
                    out.add(Card::troop(c as u8, b as u8 + 1));
                }
                return Some(out.resolve(|card| (c as u8, wild_value(card, &w))));
            }
        }
    }
    None
}

fn phalanx(
    fixed: &[Card],
    p: &Parts,
    pool: u64,
    size: u32,
    m: u32,
    fog: bool,
) -> Option<Formation> {
    let mut allowed: u16 = TEN;
    if p.nt > 0 {
        if p.values.count_ones() != 1 {
            return None;
        }
        allowed = p.values;
    }
    if p.cav {
        allowed &= 1 << 7;
    }
    if p.shield {
        allowed &= 0b111;
    }
    while allowed != 0 {
        let b = 15 - allowed.leading_zeros();
        allowed &= !(1 << b);
        let cands = pool & VALUE_MASK[b as usize];
        if cands.count_ones() >= m {
            let v = b as u8 + 1;
            let mut out = Out::new(fixed, Kind::Phalanx, size * u32::from(v), fog);
            let mut used: u8 = p.colours;
            for (i, c) in troops_of(cands).enumerate() {
                if i as u32 == m {
                    break;
                }
                used |= 1 << c.colour();
                out.add(c);
            }
            return Some(out.resolve(|_| {
                let col = (!used).trailing_zeros().min(5) as u8;
                used |= 1 << col;
                (col, v)
            }));
        }
    }
    None
}

/// The `m` highest values of a 10-bit colour slice: (sum, chosen bits), if it has `m`.
#[inline]
fn top_of_slice(slice: u16, m: u32) -> Option<(u32, u16)> {
    if slice.count_ones() < m {
        return None;
    }
    let mut s = slice;
    let mut sum = 0;
    let mut chosen = 0;
    for _ in 0..m {
        let b = 15 - s.leading_zeros();
        s &= !(1 << b);
        chosen |= 1 << b;
        sum += b + 1;
    }
    Some((sum, chosen))
}

fn battalion(fixed: &[Card], p: &Parts, pool: u64, m: u32, fog: bool) -> Option<Formation> {
    let colours = match p.single_colour()? {
        Some(c) => c..c + 1,
        None => 0..6,
    };
    let mut best: Option<(u32, u32, u16)> = None;
    for c in colours {
        if let Some((s, chosen)) = top_of_slice(colour_slice(pool, c), m) {
            if best.is_none_or(|(bs, _, _)| s > bs) {
                best = Some((s, c, chosen));
            }
        }
    }
    let (s, c, chosen) = best?;
    let total = p.sum + p.wild_max() + s;
    let mut out = Out::new(fixed, Kind::Battalion, total, fog);
    for b in bits16(chosen) {
        out.add(Card::troop(c as u8, b as u8 + 1));
    }
    Some(out.resolve(|card| (c as u8, card.max_value())))
}

fn skirmish(fixed: &[Card], p: &Parts, pool: u64, size: u32, fog: bool) -> Option<Formation> {
    if p.dup {
        return None;
    }
    let avail = value_presence(pool);
    if p.nw == 0 {
        let starts = run_starts(avail | p.values, size, p.values);
        if starts == 0 {
            return None;
        }
        let start = 15 - starts.leading_zeros();
        let run = ((1u16 << size) - 1) << start;
        let mut out = Out::new(fixed, Kind::Skirmish, run_total(start, size), fog);
        for b in bits16(run & !p.values) {
            let c = (pool & VALUE_MASK[b as usize]).trailing_zeros();
            out.add(Card(c as u8));
        }
        return Some(out.f);
    }
    for start in (0..=10 - size).rev() {
        let run = ((1u16 << size) - 1) << start;
        if p.values & !run != 0 {
            continue;
        }
        if let Some((w, need)) = place_wilds(run & !p.values, avail, p) {
            let mut out = Out::new(fixed, Kind::Skirmish, run_total(start, size), fog);
            for b in bits16(need) {
                let c = (pool & VALUE_MASK[b as usize]).trailing_zeros();
                out.add(Card(c as u8));
            }
            let col = default_colour(p);
            return Some(out.resolve(|card| (col, wild_value(card, &w))));
        }
    }
    None
}

/// The highest total: fixed troops, wild maxima, and the `m` highest pool cards.
fn host(fixed: &[Card], p: &Parts, pool: u64, m: u32, fog: bool) -> Formation {
    let mut out = Out::new(fixed, Kind::Host, 0, fog);
    let mut total = p.sum + p.wild_max();
    let mut left = m;
    let mut v = 10usize;
    while left > 0 && v > 0 {
        let mut cands = pool & VALUE_MASK[v - 1];
        while left > 0 && cands != 0 {
            let c = cands.trailing_zeros();
            cands &= cands - 1;
            out.add(Card(c as u8));
            total += v as u32;
            left -= 1;
        }
        v -= 1;
    }
    out.f.total = total as u8;
    let col = default_colour(p);
    out.resolve(|card| (col, card.max_value()))
}

/// The strongest formation of `size` cards that `fixed` can become with cards from `pool`,
/// considering only kinds `>= min_kind` (ignored under Fog). `None` if the pool holds too
/// few cards or no completion reaches `min_kind`.
///
/// Preconditions (checked by the public entry points, not here): `fixed` holds distinct
/// troop or morale cards, at most `size <= 4` of them, none of them in `pool`.
pub fn search(
    fixed: &[Card],
    pool: u64,
    size: usize,
    fog: bool,
    min_kind: Kind,
) -> Option<Formation> {
    let m = (size - fixed.len()) as u32;
    if pool.count_ones() < m {
        return None;
    }
    let p = Parts::of(fixed);
    let size = size as u32;
    if !fog {
        if let Some(f) = wedge(fixed, &p, pool, size, fog) {
            return Some(f);
        }
        if min_kind > Kind::Phalanx {
            return None;
        }
        if let Some(f) = phalanx(fixed, &p, pool, size, m, fog) {
            return Some(f);
        }
        if min_kind > Kind::Battalion {
            return None;
        }
        if let Some(f) = battalion(fixed, &p, pool, m, fog) {
            return Some(f);
        }
        if min_kind > Kind::Skirmish {
            return None;
        }
        if let Some(f) = skirmish(fixed, &p, pool, size, fog) {
            return Some(f);
        }
        if min_kind > Kind::Host {
            return None;
        }
    }
    Some(host(fixed, &p, pool, m, fog))
}

/// [`search`] over all kinds.
#[inline]
pub fn best_completion(fixed: &[Card], pool: u64, size: usize, fog: bool) -> Option<Formation> {
    search(fixed, pool, size, fog, Kind::Host)
}

/// The best formation of a complete side (wild cards resolved in the owner's favour).
/// Preconditions as [`search`]; `cards` must not be empty.
pub fn best_formation(cards: &[Card], fog: bool) -> Formation {
    best_completion(cards, 0, cards.len(), fog).unwrap_or_else(|| {
        // Unreachable with an empty pool and m = 0; keep a total function anyway.
        let p = Parts::of(cards);
        host(cards, &p, 0, 0, fog)
    })
}

/// Kind and total of fully resolved troops (colour, value) — the definition the search
/// implements, used by tests and the brute-force checker.
pub fn classify(resolved: &[Card], fog: bool) -> (Kind, u32) {
    let total: u32 = resolved.iter().map(|c| u32::from(c.value())).sum();
    if fog {
        return (Kind::Host, total);
    }
    let mut vals: Vec<u8> = resolved.iter().map(|c| c.value()).collect();
    vals.sort_unstable();
    let same_colour = resolved.windows(2).all(|w| w[0].colour() == w[1].colour());
    let consecutive = vals.windows(2).all(|w| w[1] == w[0] + 1);
    let same_value = vals.windows(2).all(|w| w[1] == w[0]);
    let kind = if same_colour && consecutive {
        Kind::Wedge
    } else if same_value {
        Kind::Phalanx
    } else if same_colour {
        Kind::Battalion
    } else if consecutive {
        Kind::Skirmish
    } else {
        Kind::Host
    };
    (kind, total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battleline::cards::parse_cards;

    fn cards(s: &str) -> Vec<Card> {
        parse_cards(&s.split_whitespace().collect::<Vec<_>>()).unwrap()
    }
    fn best(s: &str, fog: bool) -> Formation {
        best_formation(&cards(s), fog)
    }

    #[test]
    fn bl_5_kinds_of_complete_sides() {
        assert_eq!(best("B3 B4 B5", false).kind, Kind::Wedge);
        assert_eq!(best("R7 B7 G7", false).kind, Kind::Phalanx);
        assert_eq!(best("R2 R5 R9", false).kind, Kind::Battalion);
        assert_eq!(best("R1 B2 G3", false).kind, Kind::Skirmish);
        let h = best("R1 B5 G9", false);
        assert_eq!((h.kind, h.total), (Kind::Host, 15));
        // Fog: only the total counts (BL-6.2).
        let f = best("B3 B4 B5", true);
        assert_eq!((f.kind, f.total, f.strength()), (Kind::Host, 12, 12));
    }

    #[test]
    fn bl_4_wild_cards_resolve_for_their_owner() {
        // Leader completes a Wedge at the top.
        let f = best("R9 R8 Alexander", false);
        assert_eq!((f.kind, f.total), (Kind::Wedge, 27));
        assert_eq!(f.resolved()[2], Card::troop(0, 10));
        // Cavalry is an 8 of any colour.
        let f = best("G9 G10 Cavalry", false);
        assert_eq!((f.kind, f.total), (Kind::Wedge, 27));
        // Shield bearers at most 3.
        let f = best("Y1 Y2 Shield", false);
        assert_eq!((f.kind, f.total), (Kind::Wedge, 6));
        let f = best("Y9 Y10 Shield", false);
        assert_eq!((f.kind, f.total), (Kind::Battalion, 22));
        // Three wilds: Leader, Cavalry, Shield can't be a run (8 and <=3): Phalanx impossible
        // (8 vs <=3), best is a Battalion 10+8+3.
        let f = best("Darius Cavalry Shield", false);
        assert_eq!((f.kind, f.total), (Kind::Battalion, 21));
        let f = best("Alexander Cavalry B9", false);
        assert_eq!((f.kind, f.total), (Kind::Wedge, 27));
        let f = best("Alexander Cavalry B8", false);
        assert_eq!((f.kind, f.total), (Kind::Phalanx, 24));
    }

    #[test]
    fn completion_picks_pool_cards() {
        // Empty side, pool of three high reds: Wedge R8-R10.
        let pool = cards("R8 R9 R10 B1").iter().fold(0u64, |a, c| a | 1 << c.0);
        let f = best_completion(&[], pool, 3, false).unwrap();
        assert_eq!((f.kind, f.total), (Kind::Wedge, 27));
        assert_eq!(f.completion().len(), 3);
        // Too few cards: no completion.
        assert!(best_completion(&[], pool, 4, false).is_some());
        assert!(best_completion(&[], 0b11, 3, false).is_none());
    }
}
