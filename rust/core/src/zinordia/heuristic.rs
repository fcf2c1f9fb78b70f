//! The rule-based player (the `Heuristic` agent, issue 14): rules of thumb, no search, only
//! public information (the board is open; it never reads unrevealed picks or the dice).
//!
//! - Selection: the strongest Star still allowed (Vida, Armadura, Agilidade, powers).
//! - Placement: the free placement zone nearest a Renown marker.
//! - Which Star plays: the one that can hit an enemy now, else the one nearest a marker.
//! - A play: a kill if an ability can make one (1 Renown plus the victim's, ZN-12.3); else
//!   collect a marker when standing on one; else the affordable ability doing the most damage
//!   through Armadura to enemies (the weakest first), or healing a hurt ally; else move: a
//!   weak Star (Vida under a third) away from the enemies, a healthy one toward the nearest
//!   marker (toward the nearest enemy once the markers are gone); then end the play.
//! - A reaction window: the first reaction offered, paying Âmago rather than the alternative
//!   cost; decline when there is none.
//!
//! `rng` breaks ties among equally good choices.

use std::cell::Cell;
use std::thread::LocalKey;

use super::ability::{Ability, Effect, Stat};
use super::content::Star;
use super::notation::Action;
use super::state::{Phase, Play, Zinordia};
use crate::hex::coords::distance;
use crate::hex::Hex;
use crate::rng::GameRng;

/// A Star's printed strength for picking.
pub(super) fn worth(d: &Star) -> i64 {
    i64::from(d.vida)
        + 2 * i64::from(d.armadura)
        + 3 * i64::from(d.agilidade)
        + 2 * i64::from(d.poder_fisico.max(d.poder_magico))
        + i64::from(d.amago) / 2
}

thread_local! {
    /// The legal actions of the decision in hand and their scores: ISMCTS asks this player
    /// for every routine decision and every settled turn, so a fresh list each time spent
    /// much of its cost growing and freeing these (see [`with_buffer`]).
    static LEGAL: Cell<Vec<Action>> = const { Cell::new(Vec::new()) };
    static SCORES: Cell<Vec<i64>> = const { Cell::new(Vec::new()) };
}

/// `f` with the thread's buffer `cell`, emptied. The buffer is taken out of its cell for
/// the call (and put back after), so a nested call would find an empty one and grow its
/// own rather than clobber this one.
fn with_buffer<T, R>(cell: &'static LocalKey<Cell<Vec<T>>>, f: impl FnOnce(&mut Vec<T>) -> R) -> R {
    let mut buffer = cell.take();
    buffer.clear();
    let r = f(&mut buffer);
    cell.set(buffer);
    r
}

/// The best-scoring action (highest score), ties broken by `rng`.
fn best(actions: &[Action], rng: &mut GameRng, score: impl FnMut(Action) -> i64) -> Option<Action> {
    best_scored(actions, rng, score).map(|(a, _)| a)
}

/// [`best`] with the chosen action's score: every action is scored once, and the tie is
/// broken by one draw among the tied, in the actions' order.
fn best_scored(
    actions: &[Action],
    rng: &mut GameRng,
    score: impl FnMut(Action) -> i64,
) -> Option<(Action, i64)> {
    with_buffer(&SCORES, |scores| {
        scores.extend(actions.iter().copied().map(score));
        let top = scores.iter().copied().max()?;
        let tied = scores.iter().filter(|&&s| s == top).count();
        let pick = rng.below(tied.max(1));
        actions
            .iter()
            .zip(scores.iter())
            .filter(|&(_, &s)| s == top)
            .nth(pick)
            .map(|(&a, &s)| (a, s))
    })
}

/// A score at least this high is a kill.
const KILL: i64 = 10_000;

impl Zinordia {
    fn nearest_marker(&self, h: Hex) -> Option<u32> {
        self.markers.iter().map(|&m| distance(h, m)).min()
    }

    fn enemies(&self, star: usize) -> impl Iterator<Item = usize> + '_ {
        let sh = &self.shared;
        let team = sh.team(sh.owner(star));
        (0..self.stars.len()).filter(move |&s| sh.team(sh.owner(s)) != team && self.alive(s))
    }

    /// Distance from `h` to the nearest Star of another team.
    fn nearest_enemy(&self, h: Hex, star: usize) -> u32 {
        self.enemies(star)
            .filter_map(|s| self.stars[s].zone)
            .map(|e| distance(h, e))
            .min()
            .unwrap_or(u32::MAX)
    }

    /// What an ability's damage and healing effects amount to for its user `s`.
    fn amounts(&self, s: usize, ab: &Ability) -> (u32, u32) {
        let pf = self.stat(s, Stat::PoderFisico);
        let pm = self.stat(s, Stat::PoderMagico);
        let (mut damage, mut heal) = (0, 0);
        for e in &ab.effects {
            match e {
                Effect::Damage { hits, .. } => {
                    let a = e.amount().map_or(0, |a| a.value(pf, pm));
                    damage += a * u32::from(*hits);
                }
                Effect::Heal { .. } => heal += e.amount().map_or(0, |a| a.value(pf, pm)),
                _ => {}
            }
        }
        (damage, heal)
    }

    /// The worth of activating ability `i` of the playing Star on zone `z` (`amounts`: what
    /// the ability's damage and healing effects amount to, [`Zinordia::amounts`]).
    fn activation_score(&self, play: Play, i: u8, z: u8, alt: bool, amounts: (u32, u32)) -> i64 {
        let s = play.star;
        let (Some(ab), Some(&h)) = (self.ability(s, i), self.shared.zones.get(usize::from(z)))
        else {
            return i64::MIN;
        };
        let (damage, heal) = amounts;
        let team = self.shared.team(self.shared.owner(s));
        let mut score: i64 = 0;
        self.each_affected(s, ab, Some(h), &mut |t| {
            let st = &self.stars[t];
            let ally = self.shared.team(self.shared.owner(t)) == team;
            let through = damage.saturating_sub(u32::from(st.armadura));
            if ally {
                score -= 20 * i64::from(through.min(u32::from(st.vida)));
                let missing =
                    u32::from(self.star_data(t).vida - st.vida.min(self.star_data(t).vida));
                if u32::from(st.vida) * 2 < u32::from(self.star_data(t).vida) {
                    score += 5 * i64::from(heal.min(missing));
                }
            } else if damage > 0 {
                score += 10 * i64::from(through.min(u32::from(st.vida)));
                // The weakest first.
                score += 100 / (1 + i64::from(st.vida));
                if through >= u32::from(st.vida) {
                    score += KILL + 1000 * i64::from(st.renown);
                }
            }
        });
        if alt {
            score -= 5;
        }
        score
    }
}

/// The activations of one play scored for the rule-based player, each ability's amounts
/// worked out once and each (ability, zone) scored once for both ways of paying (the
/// legal activations come in id order: an ability's two costs on a zone are neighbours).
struct ActivationScores {
    play: Play,
    amounts: [Option<(u32, u32)>; super::content::ABILITIES],
    /// The last (ability, zone) scored and its score without the alternative cost's malus.
    last: Option<(u8, u8, i64)>,
}

impl ActivationScores {
    fn new(play: Play) -> Self {
        ActivationScores {
            play,
            amounts: [None; super::content::ABILITIES],
            last: None,
        }
    }

    fn score(&mut self, g: &Zinordia, ability: u8, target: u8, alt: bool) -> i64 {
        let base = match self.last {
            Some((i, z, base)) if i == ability && z == target => base,
            _ => {
                let amounts = match self.amounts.get(usize::from(ability)).copied().flatten() {
                    Some(a) => a,
                    None => {
                        let a = g
                            .ability(self.play.star, ability)
                            .map_or((0, 0), |ab| g.amounts(self.play.star, ab));
                        if let Some(slot) = self.amounts.get_mut(usize::from(ability)) {
                            *slot = Some(a);
                        }
                        a
                    }
                };
                let base = g.activation_score(self.play, ability, target, false, amounts);
                self.last = Some((ability, target, base));
                base
            }
        };
        if alt && base != i64::MIN {
            base - 5
        } else {
            base
        }
    }
}

pub(crate) fn choose(g: &Zinordia, rng: &mut GameRng) -> Option<Action> {
    with_buffer(&LEGAL, |legal| {
        g.legal_actions(legal);
        choose_among(g, legal, rng)
    })
}

/// [`choose`] among the legal actions `legal`.
fn choose_among(g: &Zinordia, legal: &[Action], rng: &mut GameRng) -> Option<Action> {
    if legal.is_empty() {
        return None;
    }
    let sh = &g.shared;
    let zone = |z: u8| sh.zones.get(usize::from(z)).copied();
    let far = i64::from(u16::MAX);
    if !g.offers.is_empty() {
        // A reaction window: react (paying Âmago first) when possible.
        return best(legal, rng, |a| match a {
            Action::React { alt: false, .. } => 2,
            Action::React { alt: true, .. } => 1,
            _ => 0,
        });
    }
    match g.phase {
        Phase::Over => None,
        Phase::Select { .. } => best(legal, rng, |a| match a {
            Action::Pick(r) => sh.content.stars.get(usize::from(r)).map_or(0, worth),
            _ => i64::MIN,
        }),
        Phase::Place { .. } => best(legal, rng, |a| match a {
            Action::Place { zone: z, .. } => zone(z)
                .and_then(|h| g.nearest_marker(h))
                .map_or(0, |d| -i64::from(d)),
            _ => i64::MIN,
        }),
        Phase::Main => match g.play {
            None => best(legal, rng, |a| match a {
                Action::Play(slot) => {
                    let s = g.turn_player() * sh.per_player + usize::from(slot);
                    let Some(h) = g.stars[s].zone else { return 0 };
                    // A Star with an enemy within reach of an ability plays first.
                    let reach = g
                        .star_data(s)
                        .abilities
                        .iter()
                        .map(|ab| u32::from(ab.range) + u32::from(g.agilidade(s)))
                        .max()
                        .unwrap_or(0);
                    let threat = i64::from(g.nearest_enemy(h, s) <= reach) * far;
                    let marker = g.nearest_marker(h).map_or(0, |d| far - i64::from(d));
                    threat + marker
                }
                // Playing every Star is free: end the turn only when nothing else is left.
                _ => i64::MIN,
            }),
            Some(play) => play_step(g, play, legal, rng),
        },
    }
}

/// One decision inside a play.
fn play_step(g: &Zinordia, play: Play, legal: &[Action], rng: &mut GameRng) -> Option<Action> {
    let sh = &g.shared;
    let zone = |z: u8| sh.zones.get(usize::from(z)).copied();
    let mut scores = ActivationScores::new(play);
    let scored = best_scored(legal, rng, |a| match a {
        Action::Activate {
            ability,
            target,
            alt,
        } => scores.score(g, ability, target, alt),
        _ => i64::MIN,
    });
    let attack = scored.map(|(a, _)| a);
    let attack_score = match scored {
        Some((Action::Activate { .. }, s)) => s,
        _ => i64::MIN,
    };
    if attack_score >= KILL {
        return attack;
    }
    if legal.contains(&Action::Collect) {
        return Some(Action::Collect);
    }
    if attack_score > 0 {
        return attack;
    }
    let st = &g.stars[play.star];
    let weak = u32::from(st.vida) * 3 < u32::from(g.star_data(play.star).vida);
    let markers_left = !g.markers.is_empty();
    let score = |h: Option<Hex>| -> i64 {
        let Some(h) = h else { return i64::MIN };
        let enemy = i64::from(g.nearest_enemy(h, play.star).min(99));
        let marker = g.nearest_marker(h).map_or(0, i64::from);
        if weak {
            enemy * 100 - marker
        } else if markers_left {
            -marker * 100 - enemy
        } else {
            -enemy
        }
    };
    let stay = score(st.zone);
    let chosen = best(legal, rng, |a| match a {
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

/// The decisions ISMCTS takes by rule below its root (`Knowledge::routine_action`, the search's
/// opt-in `routine`), so the tree branches on which Star plays, where it goes before its
/// activation and what it activates:
/// - a reaction window, and setup (selection, placement): the rule-based player's answer;
/// - the turn's last Star still to play plays (ending the turn instead forfeits a play that
///   could always be a pass, ZN-6.7);
/// - after the play's activation only movement and ending the play are left (ZN-6.4,
///   ZN-10.7): the rule-based player's step (a weak Star away from the enemies, a healthy
///   one toward a marker or an enemy).
///
/// Collecting a marker is left to the search: `evaluate` already ranks it first among the
/// moves an expansion judges, and a kill from the marker's zone may be worth more.
pub(crate) fn routine(g: &Zinordia, rng: &mut GameRng) -> Option<Action> {
    if !g.offers.is_empty() {
        return choose(g, rng);
    }
    match g.phase {
        Phase::Over => None,
        Phase::Select { .. } | Phase::Place { .. } => choose(g, rng),
        Phase::Main => match g.play {
            None => {
                let p = g.turn_player();
                let mut left = g.still_to_play(p).map(|s| s - p * g.shared.per_player);
                match (left.next(), left.next()) {
                    (Some(slot), None) => u8::try_from(slot).ok().map(Action::Play),
                    _ => None,
                }
            }
            Some(play) if play.activated => {
                // Built here rather than by `legal_actions`, whose activation scan costs
                // more than the rest of this decision.
                with_buffer(&LEGAL, |legal| {
                    g.moves(play, legal);
                    legal.push(Action::EndPlay);
                    play_step(g, play, legal, rng)
                })
            }
            Some(_) => None,
        },
    }
}
