//! Who holds what: the opponent's hand weighted by its last troop play.
//!
//! An option of the redraw ([`BattleLine::resample_with`]), not its default: the search
//! plays better without it (research/issue-14-round27.md).
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

/// The settings that scored best when measured: β = 3, K = 8 (research/issue-14-round16.md).
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
    let mut flags = g.flags;
    let fl = flags.get_mut(flag)?;
    if fl.side(opp).last() != Some(&card) {
        return None;
    }
    fl.len[opp] -= 1;
    fl.cards[opp][fl.len[opp] as usize] = Card(0);
    if fl.claimed == Some(opp as u8) {
        fl.claimed = None;
    }
    let pool = g.unseen | 1u64 << card.0;
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
