//! Who holds what: the opponent's hand weighted by its last troop play (issue 14, round 15).
//!
//! The opponent chose its last play from its hand: a hand that held a much better troop
//! play than the one made is unlikely. The model: the opponent plays troop `c` on flag `f`
//! with probability proportional to `exp(β · s(c, f))` among the troop plays its hand
//! allowed, `s` a score of the play on the table as it stood before (the played card taken
//! back), computed from the public table alone: the heuristic player's `placement` with
//! the hand unknown (every unseen troop a card still to be found). A redrawn hand `H` is
//! then weighted by the likelihood of the play made, `1 / Σ_{c ∈ H ∪ {c*}} Σ_f exp(β (s(c,
//! f) − s(c*, f*)))` (the numerator is the same for every hand). One troop of the current
//! hand is the card drawn after the play, not yet held when it was made; which one is not
//! known, so the likelihood is averaged over it.
//!
//! The last plays are public (everyone saw them), so they are part of the saved state, the
//! view and the position string, and the redraw stays a function of the view.
//!
//! The table of `Σ_f exp(β s(c, f))` per card depends on the public table only, so it is
//! computed once per position and kept in a thread-local cache: every redraw of a search
//! reuses it. [`hand_weight`] reads it.

use super::cards::Card;
use super::evaluate::{side_value, MISS_THEIRS};
use super::heuristic::{placement, Pool};
use super::state::*;
use std::cell::RefCell;

/// The model's settings: sharpness β and the pool size K of the redraw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InferSettings {
    pub beta: f64,
    pub pool: usize,
}

/// The settings of the library's redraw: β = 3, K = 8 (round 15 chose them; with the
/// search's root halving over 8 moves they scored 395 of 600 games against Greedy where the
/// uniform redraw scored 364, docs/research/issue-14-round16.md).
pub const SETTINGS: InferSettings = InferSettings { beta: 3.0, pool: 8 };

#[derive(Clone, Copy, PartialEq)]
struct Key {
    flags: [Flag; NUM_FLAGS],
    unseen: u64,
    card: Card,
    flag: u8,
    opp: u8,
    beta: u64,
}

/// Per troop id, `Σ_f exp(β (s(c, f) − s(c*, f*)))` over the flags free before the play.
#[derive(Clone, Copy)]
pub struct PlayTable {
    pub mass: [f64; 60],
    pub played: Card,
}

thread_local! {
    static CACHE: RefCell<Option<(Key, Option<PlayTable>)>> = const { RefCell::new(None) };
}

/// The score of `opp` playing troop `c` on flag `f` of `flags` (the table before the
/// play), `pool` the troops not on the table nor in the discard: the heuristic player's
/// `placement` with the hand unknown.
fn score(flags: &[Flag; NUM_FLAGS], opp: usize, c: Card, f: usize, pool: u64, op: f64) -> f64 {
    let pool = Pool {
        unseen: pool,
        hand: 0,
        elsewhere: pool,
    };
    placement(&flags[f], opp, c, pool, op)
}

fn build(g: &BattleLine, opp: usize, card: Card, flag: usize, beta: f64) -> Option<PlayTable> {
    build_from(&g.flags, g.unseen, opp, card, flag, beta)
}

fn build_from(
    flags: &[Flag; NUM_FLAGS],
    unseen: u64,
    opp: usize,
    card: Card,
    flag: usize,
    beta: f64,
) -> Option<PlayTable> {
    let mut flags = *flags;
    let fl = flags.get_mut(flag)?;
    if fl.side(opp).last() != Some(&card) {
        return None;
    }
    fl.len[opp] -= 1;
    fl.cards[opp][fl.len[opp] as usize] = Card(0);
    if fl.claimed == Some(opp as u8) {
        fl.claimed = None;
    }
    let pool = unseen | 1u64 << card.0;
    let mut free = [false; NUM_FLAGS];
    let mut op = [0.0; NUM_FLAGS];
    for (f, fl) in flags.iter().enumerate() {
        free[f] = (fl.claimed.is_none() || f == flag) && fl.has_room(opp);
        if free[f] {
            op[f] = side_value(
                fl.side(1 - opp),
                fl.capacity(),
                fl.fog.is_some(),
                0,
                pool,
                MISS_THEIRS,
            );
        }
    }
    let s_star = score(&flags, opp, card, flag, pool, op[flag]);
    let mut mass = [0.0; 60];
    let mut bits = pool;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let c = Card(i as u8);
        mass[i] = (0..NUM_FLAGS)
            .filter(|&f| free[f])
            .map(|f| (beta * (score(&flags, opp, c, f, pool, op[f]) - s_star)).exp())
            .sum();
    }
    Some(PlayTable { mass, played: card })
}

/// The table for the redraw of `opp`'s hand in `g`, when `opp`'s latest turn was a troop
/// play and the redrawing player is about to play (so the table is as that play left it,
/// claims aside); `None` otherwise.
pub fn play_table(g: &BattleLine, opp: usize, beta: f64) -> Option<PlayTable> {
    if g.phase != Phase::Play || g.to_move as usize == opp {
        return None;
    }
    let (card, flag) = g.last_play[opp]?;
    let key = Key {
        flags: g.flags,
        unseen: g.unseen,
        card,
        flag,
        opp: opp as u8,
        beta: beta.to_bits(),
    };
    CACHE.with(|cell| {
        let mut cache = cell.borrow_mut();
        if let Some((k, t)) = cache.as_ref() {
            if *k == key {
                return *t;
            }
        }
        let t = build(g, opp, card, flag as usize, beta);
        *cache = Some((key, t));
        t
    })
}

/// The likelihood (up to a constant) of the play made, had the hand held the troops
/// `troops` (the played card is counted in whether or not it is among them).
#[inline]
pub fn hand_weight(t: &PlayTable, troops: u64) -> f64 {
    let troops = troops & !(1u64 << t.played.0);
    // One of the hand's troops is (about as likely as any other) the card drawn after the
    // play, not yet held when it was made: the likelihood averaged over which.
    let n = troops.count_ones();
    if n == 0 {
        return 1.0 / t.mass[t.played.id()];
    }
    // Each sum without the drawn card added afresh (subtracting it from `z` can cancel
    // to nothing when one card dominates).
    let mut sum = 0.0;
    let mut bits = troops;
    while bits != 0 {
        let d = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let mut zd = t.mass[t.played.id()];
        let mut rest = troops & !(1u64 << d);
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            zd += t.mass[i];
        }
        sum += 1.0 / zd;
    }
    sum / f64::from(n)
}

thread_local! {
    /// Round 27 (scratch): set while an ISMCTS agent chooses its move.
    pub static R27_SEARCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Round 27 (scratch): how many of the opponent's latest troop plays the redraw reads
/// (`KINGDOMS_R27_L`, unset or 0: only the last turn's, as the library does).
pub fn r27_depth() -> usize {
    static ONLY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let only = *ONLY.get_or_init(|| std::env::var("KINGDOMS_R27_ONLY_SEARCH").is_ok());
    if only && !R27_SEARCHING.with(|c| c.get()) {
        return 0;
    }
    static L: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *L.get_or_init(|| {
        std::env::var("KINGDOMS_R27_L")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
            .min(HIST)
    })
}

/// One of the opponent's past plays as the redraw reads it: its table and the troops the
/// opponent drew since.
#[derive(Clone, Copy)]
pub struct PastTable {
    pub table: PlayTable,
    pub drawn: u32,
}

thread_local! {
    static MULTI: RefCell<([Option<(Key, Option<PlayTable>)>; 16], usize)> =
        const { RefCell::new(([None; 16], 0)) };
}

/// The tables of `opp`'s latest `depth` troop plays, newest first (round 27, scratch), when
/// the redrawing player is about to play; the count filled.
pub fn past_tables(g: &BattleLine, opp: usize, beta: f64, depth: usize) -> ([Option<PastTable>; HIST], usize) {
    let mut out = [None; HIST];
    if g.phase != Phase::Play || g.to_move as usize == opp {
        return (out, 0);
    }
    let mut n = 0;
    for past in g.hist[opp].iter().take(depth).flatten() {
        let key = Key {
            flags: past.flags,
            unseen: past.unseen,
            card: past.card,
            flag: past.flag,
            opp: opp as u8,
            beta: beta.to_bits(),
        };
        let t = MULTI.with(|cell| {
            let mut cache = cell.borrow_mut();
            for (k, t) in cache.0.iter().flatten() {
                if *k == key {
                    return *t;
                }
            }
            let t = build_from(&past.flags, past.unseen, opp, past.card, past.flag as usize, beta);
            let at = cache.1;
            cache.0[at] = Some((key, t));
            cache.1 = (at + 1) % 16;
            t
        });
        let Some(table) = t else { break };
        out[n] = Some(PastTable {
            table,
            drawn: u32::from(g.troop_draws[opp].wrapping_sub(past.draws_at)),
        });
        n += 1;
    }
    (out, n)
}

/// The likelihood (up to a constant) of the opponent's past plays `tables` (newest first),
/// had its hand held the troops `troops` (round 27, scratch). For each play, the troops held
/// then are the hand's and those played since, less the ones drawn since (which: averaged
/// exactly over one, over 4 random choices of more, from `rng`).
pub fn hand_weight_multi(tables: &[Option<PastTable>], troops: u64, rng: &mut crate::rng::GameRng) -> f64 {
    let mut later = 0u64;
    let mut w = 1.0;
    for t in tables.iter().flatten() {
        let played = t.table.played;
        let held = (troops | later) & !(1u64 << played.0);
        let mut cards = [0usize; 64];
        let mut m = 0;
        let mut bits = held;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            cards[m] = i;
            m += 1;
        }
        let d = (t.drawn as usize).min(m);
        let base = t.table.mass[played.id()];
        let all: f64 = cards[..m].iter().map(|&i| t.table.mass[i]).sum();
        let lik = match d {
            0 => 1.0 / (base + all),
            1 => {
                // Each sum without the drawn card added afresh, as `hand_weight` does.
                let mut sum = 0.0;
                for x in 0..m {
                    let z: f64 = base
                        + cards[..m]
                            .iter()
                            .enumerate()
                            .filter(|&(y, _)| y != x)
                            .map(|(_, &i)| t.table.mass[i])
                            .sum::<f64>();
                    sum += 1.0 / z;
                }
                sum / m as f64
            }
            _ => {
                let mut sum = 0.0;
                for _ in 0..4 {
                    let mut cs = cards;
                    for i in 0..d {
                        let j = i + rng.below(m - i);
                        cs.swap(i, j);
                    }
                    let z: f64 = base + cs[d..m].iter().map(|&i| t.table.mass[i]).sum::<f64>();
                    sum += 1.0 / z;
                }
                sum / 4.0
            }
        };
        w *= lik;
        later |= 1u64 << played.0;
    }
    w
}
