//! The heuristic value of a position for Greedy and ISMCTS: Renown first (it decides the
//! game, ZN-12.6), then the teams' remaining strength (Vida and Armadura of Stars on the
//! board: a defeated Star also gives its killer Renown, ZN-12.3), then how close each
//! team's Stars stand to the Renown markers left. Built only from public information (the
//! board is open; unrevealed picks are not read).

use super::state::{Phase, Zinordia};
use crate::game::Player;
use crate::hex::coords::distance;

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
