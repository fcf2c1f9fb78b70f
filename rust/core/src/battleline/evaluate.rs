//! The heuristic value of a position (`evaluate`), for the greedy agent and the leaves of
//! search, and the formation judgement the heuristic player shares. Uses public information
//! and the evaluated player's own hand (and what Scout told them), nothing else.
//!
//! Each unclaimed flag is judged by what each side can still become: the strongest
//! formation the cards that may still join it allow (for the player: their hand for sure,
//! the unseen troops elsewhere at a cost per card still to be found; for the opponent: every
//! troop the player does not hold). A hand clogged with tactics cards that cannot be played
//! (the tactics limit, BL-6.1: at most one ahead of the opponent) costs, because each such
//! card is a troop the hand does not hold.

use super::cards::Card;
use super::formation::{best_completion, best_formation, Formation};
use super::state::*;
use crate::error::Result;

/// A formation's standing on one scale for every flag: kind (0 Host .. 4 Wedge) plus the
/// total as a fraction; under Fog only the total counts.
pub(crate) fn rank(f: &Formation, size: usize) -> f64 {
    let total = f64::from(f.total) / (10.0 * size as f64);
    if f.fog {
        5.0 * total
    } else {
        f64::from(f.kind as u8) + total
    }
}

/// What a side can still become: the best formation it completes with `sure` and `maybe`
/// cards, less `miss` for each card that must still come from `maybe`; a complete side is
/// its own formation; `-1` when too few cards remain to complete it.
pub(crate) fn side_value(
    side: &[Card],
    size: usize,
    fog: bool,
    sure: u64,
    maybe: u64,
    miss: f64,
) -> f64 {
    if side.len() >= size {
        return rank(&best_formation(side, fog), size);
    }
    match best_completion(side, sure | maybe, size, fog) {
        Some(f) => {
            let missing = (f.completion_bits() & !sure).count_ones();
            rank(&f, size) - miss * f64::from(missing)
        }
        None => -1.0,
    }
}

/// Cost per card still to be found, for the player (their hand is known) and for the
/// opponent (whose seven unknown cards may hold it).
pub(crate) const MISS_MINE: f64 = 1.0;
pub(crate) const MISS_THEIRS: f64 = 0.6;

impl BattleLine {
    /// Heuristic value for `player` in [-1, 1]: flags won, claims that can be proved now,
    /// what each side of every other flag can still become, and the cost of tactics cards
    /// in hand that cannot be played.
    pub fn evaluate_for(&self, player: usize) -> Result<f64> {
        let (me, op) = me_and_opponent(player)?;
        if self.phase == Phase::Over {
            return Ok(match self.winner {
                Some(w) if w as usize == me => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            });
        }
        let hand = self.hands[me].troops();
        let op_known = self.known[me].opp_hand.troops();
        // Troops that may still reach the opponent: unseen, not in my hand.
        let elsewhere = self.unseen & !hand;
        let mut per_flag = [0.0f64; NUM_FLAGS];
        for (f, fl) in self.flags.iter().enumerate() {
            per_flag[f] = match fl.claimed {
                Some(w) if w as usize == me => 1.0,
                Some(_) => -1.0,
                None => {
                    if self.claim_proof(f, me).is_some_and(|p| p.holds()) {
                        0.9
                    } else if self.claim_proof(f, op).is_some_and(|p| p.holds()) {
                        -0.9
                    } else {
                        let size = fl.capacity();
                        let fog = fl.fog.is_some();
                        let mine = side_value(fl.side(me), size, fog, hand, elsewhere, MISS_MINE);
                        let theirs = side_value(
                            fl.side(op),
                            size,
                            fog,
                            op_known,
                            elsewhere & !op_known,
                            MISS_THEIRS,
                        );
                        // Cards on the table count more than hopes: they race to complete.
                        let progress = 0.15 * (fl.side(me).len() as f64 - fl.side(op).len() as f64)
                            / size as f64;
                        ((mine - theirs) * 0.8 + progress).tanh() * 0.7
                    }
                }
            };
        }
        let total: f64 = per_flag.iter().sum();
        // Three adjacent flags win: reward the best window of three.
        let window = per_flag
            .windows(3)
            .map(|w| w.iter().sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        let worst = per_flag
            .windows(3)
            .map(|w| w.iter().sum::<f64>())
            .fold(f64::INFINITY, f64::min);
        // Tactics in hand: one playable card is an option; every other one is a slot that
        // holds no troop, more so while the limit forbids playing any.
        let tactics = self.hands[me].tactics().len() as f64;
        let playable = f64::from(u8::from(self.tactics_played[me] <= self.tactics_played[op]));
        let clog = (tactics - playable).max(0.0);
        let hand_term = 0.04 * tactics.min(playable) - 0.12 * clog;
        let score = total / 5.0 + 0.25 * (window + worst) / 3.0 + hand_term;
        Ok((score.tanh() * 0.95).clamp(-0.95, 0.95))
    }
}
