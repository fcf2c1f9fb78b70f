//! The heuristic value of a position for Greedy and ISMCTS: Renown first (it decides the
//! game, ZN-12.6), then the teams' remaining strength (Vida and Armadura of Stars on the
//! board: a defeated Star also gives its killer Renown, ZN-12.3), then how close each
//! team's Stars stand to the Renown markers left. Built only from public information (the
//! board is open; unrevealed picks are not read).

use super::state::{Phase, Zinordia};
use crate::game::{Player, SearchParams};
use crate::hex::coords::distance;

/// Zinordia's search settings. A turn is many decisions (which Star plays, each step, the
/// ability, collecting a marker), so Greedy judges a move after the rest of its turn is
/// played by the rule-based player (`settle`), and attacks roll dice, so on several redraws.
/// Against the heuristic player (100 games, seed 1, seats swapped): plain Greedy 23%;
/// settling 53% with 1 redraw, 71% with 4, 74% with 8 (research/issue-14.md, "Zinordia").
/// ISMCTS scores its leaves the same way, after the rule-based player finishes the leaf's
/// turn (`ismcts_settle`, one whole turn): a leaf in the middle of a turn (a Star moved, its
/// attack not yet made) misjudges the turn. Against the settled Greedy 255 of 400 fresh
/// games (63.8%) where leaves scored mid-turn had 211 (52.8%), at 1.17 times the old
/// default's instructions an iteration (research/issue-14-round11-zin.md). From round
/// 13 to 18 each expansion below the root judged 16 untried actions rather than the usual 8
/// (`ismcts_expand_samples`): against the settled Greedy 179 of 300 fresh games (seeds 253,
/// 254) where 8 had 170, and 69-0-31 where 8 had 64-0-36 on seed 103, at 1.17 times the
/// instructions an iteration (research/issue-14-round13-zin.md).
///
/// Since round 19 the search plays the routine decisions below the root by the rule-based
/// player (`ismcts_routine`: reaction windows, setup, the turn's last Star's play, the
/// steps after a play's activation), so the tree branches on the decisions that matter
/// and reaches further on the same iterations; its expansions judge 8 candidates again,
/// which keeps the cost an iteration within 1.20 times the default before it (1.17×,
/// where the routine with 16 cost 1.375×). Against the settled Greedy 281 of 400 fresh
/// games (70.25%) where the default before had 238; against Heuristic 197-0-3 where it had
/// 186-0-14 (research/issue-14-round19.md).
pub(super) const SEARCH: SearchParams = SearchParams {
    greedy_samples: 4,
    greedy_settle: true,
    ismcts_settle: true,
    ismcts_settle_turns: 1,
    ismcts_routine: true,
    ismcts_expand_samples: 8,
    ..SearchParams::DEFAULT
};

impl Zinordia {
    /// A team's strength in [0, 1]: the mean over its Star slots of (Vida + Armadura) over
    /// the printed maximum, 0 for a defeated Star.
    fn strength(&self, team: usize) -> f64 {
        let sh = &self.shared;
        let (mut sum, mut count) = (0.0, 0usize);
        for s in 0..self.stars.len() {
            if sh.team(sh.owner(s)) != team {
                continue;
            }
            count += 1;
            if self.stars[s].defeated {
                continue;
            }
            let d = self.star_data(s);
            let max = f64::from(d.vida) + f64::from(d.armadura);
            let now = f64::from(self.stars[s].vida) + f64::from(self.stars[s].armadura);
            sum += (now / max.max(1.0)).min(1.0);
        }
        if count == 0 {
            0.0
        } else {
            sum / count as f64
        }
    }

    /// How near a team's Stars stand to the markers left, in [0, 1]: for each Star on the
    /// board, 1 / (1 + distance to the nearest marker), averaged.
    fn marker_pull(&self, team: usize) -> f64 {
        let sh = &self.shared;
        if self.markers.is_empty() {
            return 0.0;
        }
        let (mut sum, mut count) = (0.0, 0usize);
        for (s, st) in self.stars.iter().enumerate() {
            let Some(h) = st.zone else { continue };
            if sh.team(sh.owner(s)) != team {
                continue;
            }
            let near = self
                .markers
                .iter()
                .map(|&m| distance(h, m))
                .min()
                .unwrap_or(0);
            sum += 1.0 / (1.0 + f64::from(near));
            count += 1;
        }
        if count == 0 {
            0.0
        } else {
            sum / count as f64
        }
    }

    /// The value for `player` (its team), in [-1, 1]; the true result once over.
    pub(super) fn value(&self, player: Player) -> f64 {
        let sh = &self.shared;
        if self.phase == Phase::Over {
            return self.returns().get(player).copied().unwrap_or(0.0);
        }
        if self.stars.is_empty() {
            return 0.0;
        }
        let me = sh.team(player);
        // The other teams, in team order (an iterator, not a list: a hot path of the search).
        let others = || (0..sh.num_teams()).filter(move |&t| t != me);
        let target = f64::from(sh.mode().target.max(1));
        let best_other = others().map(|t| self.team_renown(t)).max().unwrap_or(0);
        let renown = (f64::from(self.team_renown(me)) - f64::from(best_other)) / target;
        let rivals = others().count();
        let mean = |f: &dyn Fn(usize) -> f64| {
            if rivals == 0 {
                0.0
            } else {
                others().map(f).sum::<f64>() / rivals as f64
            }
        };
        let strength = self.strength(me) - mean(&|t| self.strength(t));
        let pull = self.marker_pull(me) - mean(&|t| self.marker_pull(t));
        (1.5 * renown + 0.8 * strength + 0.2 * pull).tanh() * 0.95
    }
}
