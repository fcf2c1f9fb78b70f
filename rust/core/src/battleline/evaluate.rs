//! The heuristic value of a position (`evaluate`), for the greedy agent and the leaves of
//! search, and the formation judgement the heuristic player shares.
//!
//! `evaluate` is zero-sum (one player's value is the other's negated) and scores a whole
//! world: each unclaimed flag is judged by what each side can still become, the strongest
//! formation its owner's hand (for sure) and the troop deck (at a cost per card still to be
//! drawn) complete. Agents only call it on worlds redrawn by `resample_hidden`, so the
//! opponent's hand it reads is a guess consistent with what the searcher saw. A hand
//! clogged with tactics cards that cannot be played (the tactics limit, BL-6.1: at most one
//! ahead of the opponent) costs, because each such card is a troop the hand does not hold.
//!
//! The heuristic player judges from its own sight instead ([`side_value`] with
//! [`MISS_MINE`] / [`MISS_THEIRS`]): its hand for sure, the opponent's unknown hand as any
//! troop it does not hold.

use super::cards::Card;
use super::formation::{best_completion, best_formation, Formation};
use super::state::*;
use crate::error::Result;
use crate::game::SearchParams;

/// Battle Line's search settings ([`crate::game::Game::search_params`]).
///
/// Greedy scores each move on 3 redraws of the hidden cards: `evaluate` reads the
/// opponent's redrawn hand, so one redraw judged every move on a single guess of it.
/// Against the heuristic player, 200 games on each of seeds 1, 2, 3, 7 (docs/agents.md):
/// 1 redraw 55.2% (53.5-58.0%), 2 59.0%, 3 65.2% (61.0-68.0%), 4 63.8% (58.0-66.0%), 8
/// 68.8% (67.0-69.5%). 3 is the fewest that clear 60% on every seed, and a stronger Greedy
/// leaves ISMCTS@1000 less of a margin over it (against 8 redraws: 55.0%, seed 103).
///
/// ISMCTS explores with c = 0.2: against the heuristic player at 1,000 iterations (200
/// games, seeds 1 and 2) c = 0.1 scored 67.0% and 65.5%, c = 0.2 68.5% and 72.0%.
// Every field is set today; the update keeps this compiling when `SearchParams` grows.
#[allow(clippy::needless_update)]
pub(super) const SEARCH: SearchParams = SearchParams {
    exploration: 0.2,
    greedy_samples: 3,
    ..SearchParams::DEFAULT
};

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

/// Cost per card of a side's best completion still to be drawn from the troop deck (in
/// a whole world, where both hands are known). Measured (docs/agents.md): 0.2-0.4 play
/// alike for Greedy; 1.0 made it much weaker.
pub(crate) const MISS_DECK: f64 = 0.3;

impl BattleLine {
    /// Heuristic value for `player` in [-1, 1], zero-sum: `evaluate_for(0) ==
    /// -evaluate_for(1)`. Flags won, claims that can be proved now, what each side of
    /// every other flag can still become, and the cost of tactics cards in hand that cannot
    /// be played.
    ///
    /// It scores a whole world: both hands count for sure, each card a side still needs
    /// from the troop deck costs [`MISS_DECK`]. Agents call it only on worlds redrawn by
    /// `resample_hidden` (the searcher's own hand and the table kept, the rest drawn), so
    /// what it reads of the opponent's hand is a guess consistent with what the searcher
    /// saw; averaged over such draws it is the searcher's expectation.
    pub fn evaluate_for(&self, player: usize) -> Result<f64> {
        let (me, _) = me_and_opponent(player)?;
        if self.phase == Phase::Over {
            return Ok(match self.winner {
                Some(w) if w as usize == me => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            });
        }
        let v = self.standing();
        Ok(if me == 0 { v } else { -v })
    }

    /// Player 0's value in a running game (player 1's is its negation).
    fn standing(&self) -> f64 {
        let hands = [self.hands[0].troops(), self.hands[1].troops()];
        // Troops still to be drawn: neither on the table, in the discard, nor in a hand.
        let deck = self.unseen & !hands[0] & !hands[1];
        let mut per_flag = [0.0f64; NUM_FLAGS];
        for (f, fl) in self.flags.iter().enumerate() {
            per_flag[f] = match fl.claimed {
                Some(0) => 1.0,
                Some(_) => -1.0,
                None => {
                    if self.claim_proof(f, 0).is_some_and(|p| p.holds()) {
                        0.9
                    } else if self.claim_proof(f, 1).is_some_and(|p| p.holds()) {
                        -0.9
                    } else {
                        let size = fl.capacity();
                        let fog = fl.fog.is_some();
                        let side =
                            |p: usize| side_value(fl.side(p), size, fog, hands[p], deck, MISS_DECK);
                        // Cards on the table count more than hopes: they race to complete.
                        let progress = 0.15 * (fl.side(0).len() as f64 - fl.side(1).len() as f64)
                            / size as f64;
                        ((side(0) - side(1)) * 0.8 + progress).tanh() * 0.7
                    }
                }
            };
        }
        let total: f64 = per_flag.iter().sum();
        // Three adjacent flags win: the best window of three for player 0 and the worst
        // (the opponent's best), so swapping the players negates the sum.
        let window = per_flag
            .windows(3)
            .map(|w| w.iter().sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        let worst = per_flag
            .windows(3)
            .map(|w| w.iter().sum::<f64>())
            .fold(f64::INFINITY, f64::min);
        let score =
            total / 5.0 + 0.25 * (window + worst) / 3.0 + self.hand_term(0) - self.hand_term(1);
        (score.tanh() * 0.95).clamp(-0.95, 0.95)
    }

    /// Tactics in `p`'s hand: one playable card is an option; every other one is a slot
    /// that holds no troop, more so while the limit (BL-6.1) forbids playing any.
    fn hand_term(&self, p: usize) -> f64 {
        let tactics = self.hands[p].tactics().len() as f64;
        let playable = f64::from(u8::from(
            self.tactics_played[p] <= self.tactics_played[1 - p],
        ));
        let clog = (tactics - playable).max(0.0);
        0.04 * tactics.min(playable) - 0.12 * clog
    }
}
