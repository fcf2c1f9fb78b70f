//! The heuristic value of a position (`evaluate`), for the greedy agent and the leaves of
//! search, and the formation judgement the heuristic player shares.
//!
//! `evaluate` is a win probability, zero-sum (one player's value is the other's negated),
//! scoring a whole world. Each unclaimed flag gets a chance that player 0 wins it: near
//! certain when a claim can be proved now, otherwise a logistic of what each side can
//! still become (the strongest formation its owner's hand and the troop deck complete, and
//! how many of its cards must still be drawn), the cards already on each side, and the
//! tactics cards the limit (BL-6.1: at most one ahead of the opponent) keeps stuck in
//! hand. The flags then combine, as if independent, into the chance that player 0 wins
//! the game by its rules (three adjacent flags or any five, BL-11.1-2), by summing over
//! every way the open flags can fall ([`win_probability`]): a flag that completes a
//! breakthrough counts for more than one that does not, with no extra term. The value is
//! `2 P − 1`, sharpened by one fitted factor. The weights are fitted by maximum likelihood
//! to the results of played games (`rust/bench/examples/bl_fit.rs`, figures in
//! research/issue-14.md).
//!
//! Agents only call it on worlds redrawn by `resample_hidden`, so the opponent's hand it
//! reads is a guess consistent with what the searcher saw.
//!
//! The heuristic player judges from its own sight instead (`side_value` with
//! `MISS_MINE` / `MISS_THEIRS`): its hand for sure, the opponent's unknown hand as any
//! troop it does not hold.

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

/// How many inputs each open flag gives the win-probability model ([`FlagInputs`]).
pub const NUM_INPUTS: usize = 5;

/// The model's weights: per open flag, the log-odds that player 0 wins it are
/// `inputs · flag`; a flag one player can prove now (not yet claimed) has log-odds
/// `±proved`; the flags combine into P(player 0 wins the game) ([`win_probability`]), and the
/// value is `2 σ(sharp · logit P) − 1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub flag: [f64; NUM_INPUTS],
    pub proved: f64,
    pub sharp: f64,
}

/// What one position tells the model, player 0's side minus player 1's, for each flag.
#[derive(Clone, Copy, Debug, Default)]
pub struct FlagInputs {
    /// Flags claimed by player 0 / by player 1.
    pub won: [u16; 2],
    /// Per unclaimed flag: +1 if player 0 can prove a claim now, -1 if player 1 can, else 0.
    pub proved: [i8; NUM_FLAGS],
    /// Per unclaimed, unproved flag: the inputs (see [`BattleLine::flag_inputs`]).
    pub x: [[f64; NUM_INPUTS]; NUM_FLAGS],
}

impl FlagInputs {
    /// Per-flag log-odds that player 0 wins it (claimed flags: unused).
    pub fn logits(&self, w: &Weights) -> [f64; NUM_FLAGS] {
        std::array::from_fn(|f| {
            if self.proved[f] != 0 {
                f64::from(self.proved[f]) * w.proved
            } else {
                self.x[f].iter().zip(&w.flag).map(|(x, w)| x * w).sum()
            }
        })
    }
}

/// Who wins once every flag is decided, as player 0's score, for each set of flags player 0
/// holds (bit `f` = flag `f`): a breakthrough (three adjacent, BL-11.1) wins, even against
/// five flags (it needs three claims, five need five, so it is almost always first); with
/// none on either side the player holding five or more wins (BL-11.2); if both sides hold a
/// breakthrough it depends on which came first, unknown here, so it counts half.
pub static OUTCOME: [f64; 1 << NUM_FLAGS] = {
    let mut t = [0.0; 1 << NUM_FLAGS];
    let all = (1u32 << NUM_FLAGS) - 1;
    let mut m = 0u32;
    while m <= all {
        let o = all & !m;
        let b0 = m & (m >> 1) & (m >> 2) != 0;
        let b1 = o & (o >> 1) & (o >> 2) != 0;
        t[m as usize] = match (b0, b1) {
            (true, false) => 1.0,
            (false, true) => 0.0,
            (true, true) => 0.5,
            (false, false) => {
                if m.count_ones() >= 5 {
                    1.0
                } else {
                    0.0
                }
            }
        };
        m += 1;
    }
    t
};

/// P(player 0 wins the game) if each flag `f` not in `won[0] | won[1]` goes to player 0 with
/// probability `p[f]`, independently: the sum of [`OUTCOME`] over every way the open flags
/// can fall, computed flag by flag from left to right over what decides the game — player
/// 0's count (capped at five) and the current run of adjacent flags while neither side has
/// broken through, then the other side's run — a few dozen states instead of 512 outcomes.
pub fn win_probability(p: &[f64; NUM_FLAGS], won: [u16; 2]) -> f64 {
    type Counts = [f64; 6];
    // Player 0's count so far, index 5 for five or more, the runs ending at the last flag.
    let up = |a: &Counts, x: f64| -> Counts {
        [
            0.0,
            a[0] * x,
            a[1] * x,
            a[2] * x,
            a[3] * x,
            (a[4] + a[5]) * x,
        ]
    };
    let scale = |a: &Counts, x: f64| -> Counts { a.map(|v| v * x) };
    let add = |a: &Counts, b: &Counts| -> Counts { std::array::from_fn(|i| a[i] + b[i]) };
    let sum = |a: &Counts| -> f64 { a.iter().sum() };
    // Runs of one or two flags of player 0 (p1, p2) or of player 1 (q1, q2).
    let (mut p1, mut p2, mut q1, mut q2) = ([0.0; 6], [0.0; 6], [0.0; 6], [0.0; 6]);
    // After player 0 (player 1) broke through: the other side's run of 0, 1 or 2 flags.
    let (mut after0, mut after1) = ([0.0f64; 3], [0.0f64; 3]);
    let mut both = 0.0;
    for (f, &pf) in p.iter().enumerate() {
        let x = if won[0] >> f & 1 == 1 {
            1.0
        } else if won[1] >> f & 1 == 1 {
            0.0
        } else {
            pf
        };
        let y = 1.0 - x;
        if f == 0 {
            p1[1] = x;
            q1[0] = y;
            continue;
        }
        let broke0 = x * sum(&p2);
        let broke1 = y * sum(&q2);
        both += y * after0[2] + x * after1[2];
        after0 = [
            x * after0.iter().sum::<f64>() + broke0,
            y * after0[0],
            y * after0[1],
        ];
        after1 = [
            y * after1.iter().sum::<f64>() + broke1,
            x * after1[0],
            x * after1[1],
        ];
        let (np1, np2) = (up(&add(&q1, &q2), x), up(&p1, x));
        let (nq1, nq2) = (scale(&add(&p1, &p2), y), scale(&q1, y));
        (p1, p2, q1, q2) = (np1, np2, nq1, nq2);
    }
    p1[5] + p2[5] + q1[5] + q2[5] + after0.iter().sum::<f64>() + 0.5 * both
}

/// The logistic function: log-odds to a probability.
#[inline]
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Player 0's value from the flags' log-odds: `2 σ(sharp · logit P) − 1`.
pub fn value_of(inputs: &FlagInputs, w: &Weights) -> f64 {
    let z = inputs.logits(w);
    let p = z.map(sigmoid);
    let prob = win_probability(&p, inputs.won).clamp(1e-9, 1.0 - 1e-9);
    let logit = (prob / (1.0 - prob)).ln();
    2.0 * sigmoid(w.sharp * logit) - 1.0
}

/// The fitted weights: `bl_fit 1500 1` (`rust/bench/examples/bl_fit.rs`; 1,500 games of the
/// heuristic player with some random moves, 66k positions, every fifth game held out),
/// held-out log-loss 0.613 where the previous hand-shaped `evaluate` had 0.627.
/// Per flag, in log-odds: 0.41 a formation kind of difference, −0.08 a card still to be
/// drawn, 0.57 a whole side's cards already played (formations race to complete); a
/// proved claim 3.3 (96.5%: Deserter, Traitor or Redeploy may still undo it).
pub const WEIGHTS: Weights = Weights {
    flag: [0.413, -0.083, 0.568, -0.044, 0.052],
    proved: 3.322,
    sharp: 1.309,
};

impl BattleLine {
    /// Heuristic value for `player` in [-1, 1], zero-sum: `evaluate_for(0) ==
    /// -evaluate_for(1)`; the true result once the game is over, else `2 P - 1` for the
    /// model's chance `P` that `player` wins (module docs), within ±0.99.
    ///
    /// It scores a whole world: both hands count for sure, the troop deck is what is left.
    /// Agents call it only on worlds redrawn by `resample_hidden` (the searcher's own hand
    /// and the table kept, the rest drawn), so what it reads of the opponent's hand is a
    /// guess consistent with what the searcher saw; averaged over such draws it is the
    /// searcher's expectation.
    pub fn evaluate_for(&self, player: usize) -> Result<f64> {
        let (me, _) = me_and_opponent(player)?;
        Ok(self.evaluate_both()[me])
    }

    /// [`BattleLine::evaluate_for`] of player 0 and of player 1, from one evaluation.
    pub fn evaluate_both(&self) -> [f64; 2] {
        if self.phase == Phase::Over {
            return match self.winner {
                Some(0) => [1.0, -1.0],
                Some(_) => [-1.0, 1.0],
                None => [0.0, 0.0],
            };
        }
        // Kept inside (-1, 1): a won game is worth more than any running one.
        let v = value_of(&self.flag_inputs(), &WEIGHTS).clamp(-0.99, 0.99);
        [v, -v]
    }

    /// The model's inputs for this whole world (both hands read): per open flag, player
    /// 0's minus player 1's
    /// 0. the rank (`rank`) of the best formation the side can still become, from its
    ///    owner's hand and the troop deck (−1 if too few troops are left to complete it),
    /// 1. the cards of that formation still to come from the troop deck,
    /// 2. the cards on the side, over the formation size,
    /// 3. tactics cards in hand that the limit (BL-6.1) keeps there, beyond one playable,
    /// 4. a playable tactics card in hand (0 or 1).
    ///
    /// The last two are the same for every flag.
    pub fn flag_inputs(&self) -> FlagInputs {
        let pools = self.pools();
        self.flag_inputs_by(|f, p| {
            let (rank, missing, _) = self.side_input(f, p, pools);
            (rank, missing)
        })
    }

    /// Each player's hand troops and the troops still to be drawn (neither on the table,
    /// in the discard, nor in a hand): what a side's best completion is drawn from.
    pub(super) fn pools(&self) -> ([u64; 2], u64) {
        let hands = [self.hands[0].troops(), self.hands[1].troops()];
        (hands, self.unseen & !hands[0] & !hands[1])
    }

    /// Inputs 0 and 1 of `p`'s side of open flag `f`: the rank of the best formation it can
    /// still become from its owner's hand and the troop deck (−1 if too few troops are
    /// left), the cards of it still to come from the deck; and the cards that completion
    /// adds (none for a complete side), which `judge.rs` reads to know whether a card
    /// leaving the hand could change it.
    pub(super) fn side_input(&self, f: usize, p: usize, pools: ([u64; 2], u64)) -> (f64, f64, u64) {
        let (hands, deck) = pools;
        let fl = &self.flags[f];
        let size = fl.capacity();
        let fog = fl.fog.is_some();
        let cards = fl.side(p);
        if cards.len() >= size {
            return (rank(&best_formation(cards, fog), size), 0.0, 0);
        }
        match best_completion(cards, hands[p] | deck, size, fog) {
            Some(b) => {
                let bits = b.completion_bits();
                let missing = (bits & !hands[p]).count_ones();
                (rank(&b, size), f64::from(missing), bits)
            }
            // Too few troops left to complete it: below every formation.
            None => (-1.0, 0.0, 0),
        }
    }

    /// [`BattleLine::flag_inputs`] with inputs 0 and 1 of each side from `side(flag,
    /// player)`, called only for the open flags neither side can prove.
    pub(super) fn flag_inputs_by(
        &self,
        mut side: impl FnMut(usize, usize) -> (f64, f64),
    ) -> FlagInputs {
        let tactics = |p: usize| {
            let held = self.hands[p].tactics().len() as f64;
            let playable = f64::from(u8::from(
                self.tactics_played[p] <= self.tactics_played[1 - p],
            ));
            ((held - playable).max(0.0), held.min(playable))
        };
        let (t0, t1) = (tactics(0), tactics(1));
        let mut out = FlagInputs::default();
        for (f, fl) in self.flags.iter().enumerate() {
            if let Some(p) = fl.claimed {
                out.won[p as usize & 1] |= 1 << f;
                continue;
            }
            if self.claim_proof(f, 0).is_some_and(|p| p.holds()) {
                out.proved[f] = 1;
                continue;
            }
            if self.claim_proof(f, 1).is_some_and(|p| p.holds()) {
                out.proved[f] = -1;
                continue;
            }
            let size = fl.capacity();
            let (a, b) = (side(f, 0), side(f, 1));
            out.x[f] = [
                a.0 - b.0,
                a.1 - b.1,
                (fl.side(0).len() as f64 - fl.side(1).len() as f64) / size as f64,
                t0.0 - t1.0,
                t0.1 - t1.1,
            ];
        }
        out
    }
}
