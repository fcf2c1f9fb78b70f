//! The heuristic evaluation (`Game::evaluate`), for the greedy agent and the leaves of
//! search: a win probability, zero-sum (one player's value is the other's negated), scoring
//! a whole world.
//!
//! A handful of differences between the sides ([`Inputs`], player 0's minus player 1's) go
//! into a logistic: `P(player 0 wins) = sigmoid(w · x)`, and the value is `2 P − 1`. The
//! weights ([`WEIGHTS`]) are fitted by maximum likelihood to the results of played games
//! (`rust/core/examples/arte_fit.rs`, figures in docs/agents.md). An attack in progress is
//! valued as resolved by the defender's best answer.
//!
//! Agents only call it on worlds redrawn by `resample_hidden`, so the opponent's secret cards
//! it reads are a guess consistent with what the searcher saw.

use super::cards::Card;
use super::combat::{card_score, strength};
use super::notation::Action;
use super::rules::score_combat;
use super::state::{Arte, Kind, Phase, Side, Stage, UNIT_DRAFTS};
use crate::game::{Game, Player, SearchParams};

/// Arte da Guerra's search settings (`Game::search_params`): ISMCTS explores with c = 0.2
/// rather than 0.1. Its leaf values swing by whole cards of the victory-pile lead, so the
/// default exploration left good second moves unvisited. ISMCTS@1000 against the heuristic
/// player (200 games, seed 1): c = 0.1 73.5%, 0.2 79.5%, 0.3 78.5%, 0.4 72.0%; against
/// Greedy (200 games, seed 103): 63.5%, 65.5%, 63.5% (docs/agents.md).
pub(super) const SEARCH: SearchParams = SearchParams {
    exploration: 0.2,
    ..SearchParams::DEFAULT
};

/// The model's inputs, each player 0's minus player 1's.
pub const NUM_INPUTS: usize = 11;
/// The inputs' names, in order (for the fit's printout).
pub const INPUT_NAMES: [&str; NUM_INPUTS] = [
    "lost",
    "lost_late",
    "victory",
    "hand",
    "field",
    "terrain",
    "sure",
    "draft",
    "sudden_death",
    "hand_top",
    "tempo",
];

/// The weights of [`Inputs::x`], in log-odds of player 0's win per unit of each, as fitted
/// by `cargo run --release --example arte_fit -- 4000 1` (4,000 games of the heuristic
/// player with 0/10/25% random moves; the fit keeps every weight at least zero, and `hand`,
/// `terrain` and `sure` came out at zero beside the others: the cards in hand count by how
/// far they are above the mean card, `hand_top`). Held-out log-loss 0.524 against 0.579
/// for the evaluate before (docs/agents.md).
#[rustfmt::skip]
pub const WEIGHTS: [f64; NUM_INPUTS] = [0.179, 1.686, 0.429, 0.000, 0.371, 0.000, 0.000, 0.176, 0.580, 0.930, 0.251];

/// What `evaluate` reads of a position, player 0's minus player 1's:
/// - `lost`: cards in the opponent's defeated pile minus the own, each field card sure to
///   win an attack (`sure`) counted as the opponent's card it will take (AG-8.1: every card
///   not defeated ends in the victory pile, so this is the final lead if nothing else falls;
///   cashing a sure attack in leaves it unchanged);
/// - `lost_late`: `lost` times the share of the 18 unit cards already resolved (a lead is
///   safer the fewer cards remain to change it);
/// - `victory`: the victory-pile lead (what sudden death draws on);
/// - `hand`, `field`: the unit cards in hand and on the field, each as its strength (mean of
///   attack and defence scores, AG-4) on its best row or its own, in units of the set's mean
///   card;
/// - `terrain`: terrain cards held and placed, by how much they lift an average card;
/// - `sure`: cards on the field that beat every defence the opponent may choose (AG-6.4,
///   AG-6.5);
/// - `draft`: a draft in progress, as the cards will probably go (picker's and chooser's
///   best choices);
/// - `sudden_death`: the share of the defender's answers the attacker's pick beats, as an
///   edge in −1..1;
/// - `hand_top`: the cards in hand by how far each is above the mean card (`max(0, s − 1)`):
///   the strong cards win attacks, an average one only trades;
/// - `tempo`: in combat, 1 when player 0 is the one to attack, −1 when player 1 is.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Inputs {
    pub x: [f64; NUM_INPUTS],
}

/// The logistic: `1 / (1 + e^−z)`.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Player 0's value in [-1, 1] under weights `w`: `2 sigmoid(w · x) − 1`.
pub fn value_of(inputs: &Inputs, w: &[f64; NUM_INPUTS]) -> f64 {
    let z: f64 = inputs.x.iter().zip(w).map(|(x, w)| x * w).sum();
    (0.5 * z).tanh()
}

impl Arte {
    /// The heuristic value for `p` in [-1, 1]: the fitted win probability of the whole
    /// world, as `2 P − 1`; a finished game its true result.
    pub(super) fn heuristic(&self, p: Player) -> f64 {
        if self.phase == Phase::Over {
            return self.returns()[p];
        }
        if let Some(g) = self.attack_resolved() {
            return g.heuristic(p);
        }
        let v = value_of(&self.eval_inputs(), &WEIGHTS);
        if p == 0 {
            v
        } else {
            -v
        }
    }

    /// The model's inputs for this position as it stands (an attack in progress not
    /// resolved: [`Arte::attack_resolved`] gives the state `evaluate` reads then).
    pub fn eval_inputs(&self) -> Inputs {
        let (a, b) = (&self.sides[0], &self.sides[1]);
        let lost = b.defeated.len() as f64 - a.defeated.len() as f64;
        let resolved: usize = self
            .sides
            .iter()
            .map(|s| s.defeated.len() + s.victory.len())
            .sum();
        let late = resolved as f64 / (2 * UNIT_DRAFTS) as f64;
        let victory = a.victory.len() as f64 - b.victory.len() as f64;
        let (h0, f0, t0, q0) = self.side_strength(0);
        let (h1, f1, t1, q1) = self.side_strength(1);
        let tempo = match (self.phase, self.combat) {
            (Phase::Combat, Some(c)) => {
                if c.attacker == 0 {
                    1.0
                } else {
                    -1.0
                }
            }
            _ => 0.0,
        };
        let sure = if self.phase == Phase::Combat {
            f64::from(self.sure_winners(0)) - f64::from(self.sure_winners(1))
        } else {
            0.0
        };
        let sd = match self.phase {
            Phase::SuddenDeath => {
                let att = self.sd_attacker();
                let e = self.sudden_death_edge();
                if att == 0 {
                    e
                } else {
                    -e
                }
            }
            _ => 0.0,
        };
        Inputs {
            x: [
                lost + sure,
                (lost + sure) * late,
                victory,
                h0 - h1,
                f0 - f1,
                t0 - t1,
                sure,
                self.draft_edge(),
                sd,
                q0 - q1,
                tempo,
            ],
        }
    }

    /// With an attack pending, the state after the defender's best answer (a winning
    /// defence if there is one, with the weakest card that wins; else the weakest card).
    pub fn attack_resolved(&self) -> Option<Arte> {
        let c = self.combat?;
        let att = c.attack?;
        Some(self.resolve_attack(c.attacker, att))
    }

    /// How many of `p`'s field cards beat every defence the opponent may choose against
    /// them (AG-6.3, AG-6.4; ties go to the defence, AG-6.5); a card with no possible
    /// defender counts too.
    fn sure_winners(&self, p: Player) -> u32 {
        let set = &*self.set;
        let (a, d) = (&self.sides[p], &self.sides[1 - p]);
        let mut n = 0;
        for x in 0..9u8 {
            let Some(ac) = a.field[x as usize] else {
                continue;
            };
            let ranged = set.unit_card(ac).only_ranged();
            let beaten = (0..9u8).all(|y| {
                let Some(dc) = d.field[y as usize] else {
                    return true;
                };
                let may = !d.protected(y) || (ranged && set.unit_card(dc).any_ranged());
                if !may {
                    return true;
                }
                let (at, de, _) =
                    score_combat(set, self.opts.ranged_scoring, (a, ac, x), (d, dc, y));
                at > de
            });
            n += u32::from(beaten);
        }
        n
    }

    /// The value a unit card would have in player `s`'s hand (its best row, its own secret
    /// terrain orders counted), in units of the set's mean card.
    fn unit_value(&self, s: Player, card: Card) -> f64 {
        let set = &*self.set;
        let rows = self.rows_as_known(&self.sides[s]);
        let u = set.unit_card(card);
        (0..3)
            .map(|r| strength(set, u, rows[r], r))
            .fold(0.0, f64::max)
            / set.mean_strength.max(1e-9)
    }

    /// A draft in progress, valued for player 0 (its cards minus player 1's) as the cards
    /// will probably go: the chooser takes the best face-up card unless the face-down one is
    /// worth more on average (what the chooser can know), the picker then the better of the
    /// rest. Each card counts at its true value to the side that gets it.
    fn draft_edge(&self) -> f64 {
        let Some(d) = &self.draft else { return 0.0 };
        if d.stage() == Stage::Hide {
            return 0.0;
        }
        let unseen = match d.kind {
            Kind::Units => 1.0,
            Kind::Terrain => self.average_terrain(),
        };
        let (picker, chooser) = (d.picker, d.chooser());
        let sign = |s: Player| if s == 0 { 1.0 } else { -1.0 };
        let value = |s: Player, i: usize| -> f64 {
            match d.slots[i] {
                Some(c) => match d.kind {
                    Kind::Units => self.unit_value(s, c),
                    Kind::Terrain => self.set.terrain_quality[c as usize],
                },
                None => 0.0,
            }
        };
        let open: Vec<usize> = (0..3).filter(|&i| d.slots[i].is_some()).collect();
        match d.stage() {
            Stage::Choose => {
                // The chooser sees the face-up cards only; the face-down one is average to it.
                let best_shown = open
                    .iter()
                    .copied()
                    .filter(|&i| d.hidden != Some(i as u8))
                    .max_by(|&a, &b| value(chooser, a).total_cmp(&value(chooser, b)));
                let take = match (best_shown, d.hidden) {
                    (Some(b), Some(h)) if value(chooser, b) < unseen => h as usize,
                    (Some(b), _) => b,
                    (None, Some(h)) => h as usize,
                    (None, None) => return 0.0,
                };
                let rest = open
                    .iter()
                    .filter(|&&i| i != take)
                    .map(|&i| value(picker, i))
                    .fold(0.0, f64::max);
                sign(chooser) * value(chooser, take) + sign(picker) * rest
            }
            Stage::Keep => {
                let best = open.iter().map(|&i| value(picker, i)).fold(0.0, f64::max);
                sign(picker) * best
            }
            Stage::Hide => 0.0,
        }
    }

    /// The strength of a side's unit cards in hand and on the field, in units of the set's
    /// mean card, and of its terrain cards; the side's secret orders count where they go.
    fn side_strength(&self, p: Player) -> (f64, f64, f64, f64) {
        let set = &*self.set;
        let s = &self.sides[p];
        let mean = set.mean_strength.max(1e-9);
        let rows = self.rows_as_known(s);
        let (mut hand, mut field, mut sq) = (0.0, 0.0, 0.0);
        for h in &s.units {
            let u = set.unit_card(h.card);
            // Cards ordered onto the field (secret deployment) count where they go.
            let value = match s.deploying.iter().find(|(c, _)| *c == h.card) {
                Some(&(_, x)) => strength(set, u, rows[(x / 3) as usize], (x / 3) as usize),
                None => (0..3)
                    .map(|r| strength(set, u, rows[r], r))
                    .fold(0.0, f64::max),
            };
            hand += value / mean;
            sq += (value / mean - 1.0).max(0.0);
        }
        for x in 0..9u8 {
            if let Some(c) = s.field[x as usize] {
                let r = (x / 3) as usize;
                field += strength(set, set.unit_card(c), rows[r], r) / mean;
            }
        }
        // Terrain cards, by how much they lift an average card (what matters while no unit
        // card is held yet).
        let mut terrain = 0.0;
        for h in &s.terrains {
            terrain += set.terrain_quality[h.card as usize];
        }
        for t in s.rows.iter().flatten() {
            terrain += set.terrain_quality[*t as usize];
        }
        (hand, field, terrain, sq)
    }

    fn average_terrain(&self) -> f64 {
        let q = &self.set.terrain_quality;
        q.iter().sum::<f64>() / q.len().max(1) as f64
    }

    /// The terrain of each row: the rows, else (before placement) the owner's secret
    /// placement orders, else the best terrain in hand for that row.
    fn rows_as_known(&self, s: &Side) -> [Option<Card>; 3] {
        let mut rows = s.rows;
        for &(t, r) in &s.placing {
            rows[r as usize] = Some(t);
        }
        if rows.iter().all(Option::is_none) {
            // Before placement: assume the best terrain card held on every row.
            let best = s.terrains.iter().map(|h| h.card).max_by_key(|&t| {
                let f = self.set.terrain_card(t).favours;
                f.iter().map(|&v| u32::from(v)).sum::<u32>()
            });
            rows = [best; 3];
        }
        rows
    }

    /// The state after the defender answers the attack from `att` with its best card.
    fn resolve_attack(&self, attacker: Player, att: u8) -> Arte {
        let set = &*self.set;
        let d = 1 - attacker;
        let mut best: Option<(bool, f64, u8)> = None;
        let mut legal = Vec::new();
        self.legal(&mut legal);
        for a in legal {
            let Action::Defend(x) = a else { continue };
            let (Some(ac), Some(dc)) = (
                self.sides[attacker].field[att as usize],
                self.sides[d].field[x as usize],
            ) else {
                continue;
            };
            let (at, de, _) = score_combat(
                set,
                self.opts.ranged_scoring,
                (&self.sides[attacker], ac, att),
                (&self.sides[d], dc, x),
            );
            let wins = de >= at;
            let r = (x / 3) as usize;
            let cost = strength(set, set.unit_card(dc), self.sides[d].rows[r], r);
            let better = match best {
                None => true,
                Some((bw, bc, _)) => (wins && !bw) || (wins == bw && cost < bc),
            };
            if better {
                best = Some((wins, cost, x));
            }
        }
        let mut g = self.clone();
        if let Some((_, _, x)) = best {
            // A legal defence from the list above: it applies.
            let _ = crate::game::Game::apply(&mut g, Action::Defend(x));
        }
        g
    }

    /// In sudden death, once the attacker has picked: the share of the defender's possible
    /// answers its card beats, as an edge in -1..1 for the attacker; else 0.
    fn sudden_death_edge(&self) -> f64 {
        let att = self.sd_attacker();
        let Some((c, r)) = self.sides[att].pick else {
            return 0.0;
        };
        let set = &*self.set;
        let s = &self.sides[att];
        let t = s.rows[r as usize].map(|t| set.terrain_card(t));
        let attack = card_score(set.unit_card(c), t, r as usize, true, false);
        let d = &self.sides[1 - att];
        let rows = match self.opts.sudden_death_row {
            super::SuddenDeathRow::Chosen => 3,
            super::SuddenDeathRow::Front => 1,
        };
        let (mut beaten, mut all) = (0u32, 0u32);
        for &dc in &d.victory {
            for dr in 0..rows {
                let t = d.rows[dr].map(|t| set.terrain_card(t));
                all += 1;
                beaten += u32::from(attack > card_score(set.unit_card(dc), t, dr, false, false));
            }
        }
        if all == 0 {
            0.0
        } else {
            2.0 * f64::from(beaten) / f64::from(all) - 1.0
        }
    }
}
