//! The rule-based player (the `Heuristic` agent, issue 14): rules of thumb, no search, only
//! public information (the board is open; it never reads unrevealed picks or the dice).
//!
//! - Selection: the strongest Star still allowed (Vida, Armadura, Agilidade and powers).
//! - Placement: the free placement zone nearest a Renown marker.
//! - A play: collect a marker when standing on one; otherwise a weak Star (Vida under a
//!   third) keeps out of the enemies' reach, and a healthy one heads for the nearest
//!   marker, then ends its play. Stars play in the order of their distance to a marker.
//!
//! `rng` breaks ties among equally good choices.

use super::content::Star;
use super::notation::Action;
use super::state::{Phase, Zinordia};
use crate::hex::coords::distance;
use crate::hex::Hex;
use crate::rng::GameRng;

/// A Star's printed strength for picking.
fn worth(d: &Star) -> i64 {
    i64::from(d.vida)
        + 2 * i64::from(d.armadura)
        + 3 * i64::from(d.agilidade)
        + 2 * i64::from(d.poder_fisico.max(d.poder_magico))
        + i64::from(d.amago) / 2
}

/// The best-scoring action (highest score), ties broken by `rng`.
fn best(actions: &[Action], rng: &mut GameRng, score: impl Fn(Action) -> i64) -> Option<Action> {
    let top = actions.iter().map(|&a| score(a)).max()?;
    let tied: Vec<Action> = actions.iter().copied().filter(|&a| score(a) == top).collect();
    tied.get(rng.below(tied.len().max(1))).copied()
}

impl Zinordia {
    fn nearest_marker(&self, h: Hex) -> Option<u32> {
        self.markers.iter().map(|&m| distance(h, m)).min()
    }

    /// Distance from `h` to the nearest Star of another team.
    fn nearest_enemy(&self, h: Hex, star: usize) -> u32 {
        let sh = &self.shared;
        let team = sh.team(sh.owner(star));
        (0..self.stars.len())
            .filter(|&s| sh.team(sh.owner(s)) != team)
            .filter_map(|s| self.stars[s].zone)
            .map(|e| distance(h, e))
            .min()
            .unwrap_or(u32::MAX)
    }
}

pub(crate) fn choose(g: &Zinordia, rng: &mut GameRng) -> Option<Action> {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    if legal.is_empty() {
        return None;
    }
    let sh = &g.shared;
    let zone = |z: u8| sh.zones.get(usize::from(z)).copied();
    let far = i64::from(u16::MAX);
    match g.phase {
        Phase::Over => None,
        Phase::Select { .. } => best(&legal, rng, |a| match a {
            Action::Pick(r) => sh.content.stars.get(usize::from(r)).map_or(0, worth),
            _ => i64::MIN,
        }),
        Phase::Place { .. } => best(&legal, rng, |a| match a {
            Action::Place { zone: z, .. } => zone(z)
                .and_then(|h| g.nearest_marker(h))
                .map_or(0, |d| -i64::from(d)),
            _ => i64::MIN,
        }),
        Phase::Main => match g.play {
            None => best(&legal, rng, |a| match a {
                Action::Play(slot) => {
                    let s = g.turn_player() * sh.per_player + usize::from(slot);
                    g.stars[s]
                        .zone
                        .and_then(|h| g.nearest_marker(h))
                        .map_or(0, |d| far - i64::from(d))
                }
                // Playing every Star is free: end the turn only when nothing else is left.
                _ => i64::MIN,
            }),
            Some(play) => {
                if legal.contains(&Action::Collect) {
                    return Some(Action::Collect);
                }
                let st = &g.stars[play.star];
                let weak = u32::from(st.vida) * 3 < u32::from(g.star_data(play.star).vida);
                let here = st.zone;
                let score = |h: Option<Hex>| -> i64 {
                    let Some(h) = h else { return i64::MIN };
                    let enemy = i64::from(g.nearest_enemy(h, play.star).min(99));
                    let marker = g.nearest_marker(h).map_or(0, i64::from);
                    if weak {
                        enemy * 100 - marker
                    } else {
                        -marker * 100 + enemy.min(3)
                    }
                };
                let stay = score(here);
                let chosen = best(&legal, rng, |a| match a {
                    Action::Move(z) => score(zone(z)),
                    Action::EndPlay => stay,
                    _ => i64::MIN,
                });
                // Moving to an equally good zone is no better than stopping.
                match chosen {
                    Some(Action::Move(z)) if score(zone(z)) <= stay => Some(Action::EndPlay),
                    other => other,
                }
            }
        },
    }
}
