//! The heuristic value of a position (`evaluate`), for the greedy agent and as a
//! tie-breaker in search. Public information only.

use super::formation::best_completion;
use super::state::*;
use crate::error::Result;

impl BattleLine {
    /// Heuristic value for `player` in [-1, 1] from public information only: flags won,
    /// claims that can be proved now, and the best formations each side can still reach.
    pub fn evaluate_for(&self, player: usize) -> Result<f64> {
        let (me, op) = me_and_opponent(player)?;
        if self.phase == Phase::Over {
            return Ok(match self.winner {
                Some(w) if w as usize == me => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            });
        }
        let potential = |fl: &Flag, p: usize| -> f64 {
            let side = fl.side(p);
            let size = fl.capacity();
            match best_completion(side, self.unseen, size, fl.fog.is_some()) {
                None => 0.0,
                Some(form) => {
                    let kind = if form.fog {
                        0.0
                    } else {
                        form.kind as u8 as f64
                    };
                    let strength = (kind + f64::from(form.total) / (10.0 * size as f64)) / 5.0;
                    // The more of the formation is on the table, the more it is worth.
                    strength * (0.35 + 0.65 * side.len() as f64 / size as f64)
                }
            }
        };
        let mut per_flag = [0.0f64; NUM_FLAGS];
        for (f, fl) in self.flags.iter().enumerate() {
            per_flag[f] = match fl.claimed {
                Some(w) if w as usize == me => 1.0,
                Some(_) => -1.0,
                None => {
                    if self.claim_proof(f, me).is_some_and(|p| p.holds()) {
                        0.85
                    } else if self.claim_proof(f, op).is_some_and(|p| p.holds()) {
                        -0.85
                    } else {
                        (2.0 * (potential(fl, me) - potential(fl, op))).tanh() * 0.6
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
        let score = total / 5.0 + 0.25 * (window + worst) / 3.0;
        Ok((score.tanh() * 0.95).clamp(-0.95, 0.95))
    }
}
