//! What a player sees, as numbers (the observation tensor), as text (render), and as a value
//! (the heuristic evaluation). All three use only what that player may see (AG-9). Layouts
//! are documented in `docs/arte.md`.

use super::cards::{favour_text, Card};
use super::combat::{card_score, strength};
use super::notation::{cell_name, Action};
use super::rules::score_combat;
use super::state::{Arte, Kind, Phase, Side, Stage};
use crate::game::{Game, Player};
use std::fmt::Write;

/// Features per row of the observation (`shape = [cards + 1, FEATURES]`).
pub const FEATURES: usize = 52;

// Row 0: global features.
const G_PHASE: usize = 0; // 6: draft, terrain, deploy, combat, sudden_death, over
const G_STAGE: usize = 6; // 3: hide, choose, keep
const G_TO_ACT: usize = 9;
const G_PICKER: usize = 10;
const G_ROUND: usize = 11; // 3
const G_FIRST: usize = 14;
const G_ATTACK_STAGE: usize = 15;
const G_DEFEND_STAGE: usize = 16;
const G_FIRST_TURN: usize = 17;
const G_PASSES: usize = 18;
const G_SD_ATTACKER: usize = 19;
const G_HANDS: usize = 20; // 4: my terrains/3, opp terrains/3, my units/9, opp units/9
const G_OPP_SECRET: usize = 24;
const G_PILES: usize = 25; // 2
const G_VICTORY: usize = 27; // 2: mine, opp (/9)
const G_DEFEATED: usize = 29; // 2
const G_OPP_ORDERS: usize = 31;
const G_OPP_PICKED: usize = 32;
const G_DRAFTS: usize = 33;
const G_RESULT: usize = 34; // 2: I won, opp won
const G_MY_ORDERS: usize = 36;

// Rows 1..: one per card (row 1 + card id).
const C_UNITS: usize = 0; // 4: unit counts C G A M
const C_FAVOURS: usize = 4; // 4: terrain values / 3
const C_IS_TERRAIN: usize = 8;
const C_UNKNOWN: usize = 9;
const C_MY_HAND: usize = 10;
const C_OPP_HAND: usize = 11;
const C_SLOT: usize = 12;
const C_SLOT_DOWN: usize = 13;
const C_DISCARD: usize = 14;
const C_MY_VICTORY: usize = 15;
const C_OPP_VICTORY: usize = 16;
const C_MY_DEFEATED: usize = 17;
const C_OPP_DEFEATED: usize = 18;
const C_MY_ROW: usize = 19; // 3
const C_OPP_ROW: usize = 22; // 3
const C_MY_CELL: usize = 25; // 9
const C_OPP_CELL: usize = 34; // 9
const C_PENDING: usize = 43;
const C_ATTACKING: usize = 44;
const C_ATTACK: usize = 45;
const C_DEFENCE: usize = 46;
const C_PROTECTED: usize = 47;
const C_MY_PICK: usize = 48; // 3
const C_MY_SECRET: usize = 51;

impl Arte {
    pub(super) fn observe(&self, p: Player, out: &mut [f32]) {
        let set = &*self.set;
        let n = set.len();
        if out.len() < (n + 1) * FEATURES {
            return;
        }
        let q = 1 - p;
        let (me, opp) = (&self.sides[p], &self.sides[q]);
        let idx = |c: Card, f: usize| (1 + c as usize) * FEATURES + f;

        // Global row.
        let phase = match self.phase {
            Phase::Draft => 0,
            Phase::Terrain => 1,
            Phase::Deploy => 2,
            Phase::Combat => 3,
            Phase::SuddenDeath => 4,
            Phase::Over => 5,
        };
        out[G_PHASE + phase] = 1.0;
        if let Some(d) = &self.draft {
            let st = match d.stage() {
                Stage::Hide => 0,
                Stage::Choose => 1,
                Stage::Keep => 2,
            };
            out[G_STAGE + st] = 1.0;
            out[G_PICKER] = f32::from(d.picker == p);
        }
        out[G_TO_ACT] = f32::from(self.current() == Some(p));
        if (1..=3).contains(&self.round) {
            out[G_ROUND + self.round as usize - 1] = 1.0;
            out[G_FIRST] = f32::from(self.round_first(self.round) == p);
        }
        if let Some(c) = self.combat {
            out[G_ATTACK_STAGE] = f32::from(c.attack.is_none());
            out[G_DEFEND_STAGE] = f32::from(c.attack.is_some());
            out[G_FIRST_TURN] = f32::from(c.turn == 0);
            out[G_PASSES] = f32::from(c.passes);
        }
        if matches!(self.phase, Phase::SuddenDeath | Phase::Over) && self.round > 0 {
            out[G_SD_ATTACKER] = f32::from(self.sd_attacker() == p);
        }
        out[G_HANDS] = me.terrains.len() as f32 / 3.0;
        out[G_HANDS + 1] = opp.terrains.len() as f32 / 3.0;
        out[G_HANDS + 2] = me.units.len() as f32 / 9.0;
        out[G_HANDS + 3] = opp.units.len() as f32 / 9.0;
        out[G_OPP_SECRET] = opp
            .terrains
            .iter()
            .chain(&opp.units)
            .filter(|h| h.secret)
            .count() as f32
            / 9.0;
        out[G_PILES] = self.piles[0].len() as f32 / set.num_terrain().max(1) as f32;
        out[G_PILES + 1] = self.piles[1].len() as f32 / set.num_units().max(1) as f32;
        out[G_VICTORY] = me.victory.len() as f32 / 9.0;
        out[G_VICTORY + 1] = opp.victory.len() as f32 / 9.0;
        out[G_DEFEATED] = me.defeated.len() as f32 / 9.0;
        out[G_DEFEATED + 1] = opp.defeated.len() as f32 / 9.0;
        out[G_OPP_ORDERS] = (opp.placing.len() + opp.deploying.len()) as f32 / 3.0;
        out[G_MY_ORDERS] = (me.placing.len() + me.deploying.len()) as f32 / 3.0;
        out[G_OPP_PICKED] = f32::from(opp.pick.is_some());
        out[G_DRAFTS] = if self.phase == Phase::Draft {
            self.drafts_done() as f32 / 12.0
        } else {
            1.0
        };
        if self.phase == Phase::Over {
            out[G_RESULT] = f32::from(self.winner == Some(p));
            out[G_RESULT + 1] = f32::from(self.winner == Some(q));
        }

        // Card rows: contents, then where each card is as far as p knows.
        for c in 0..n as Card {
            if set.is_terrain(c) {
                let t = set.terrain_card(c);
                for u in 0..4 {
                    out[idx(c, C_FAVOURS + u)] = f32::from(t.favours[u]) / 3.0;
                }
                out[idx(c, C_IS_TERRAIN)] = 1.0;
            } else {
                let u = set.unit_card(c);
                for k in 0..4 {
                    out[idx(c, C_UNITS + k)] = f32::from(u.counts[k]);
                }
            }
            out[idx(c, C_UNKNOWN)] = 1.0;
        }
        let mut at = |c: Card, f: usize| {
            out[idx(c, C_UNKNOWN)] = 0.0;
            out[idx(c, f)] = 1.0;
        };
        for h in me.terrains.iter().chain(&me.units) {
            at(h.card, C_MY_HAND);
            if h.secret {
                at(h.card, C_MY_SECRET);
            }
        }
        for h in opp.terrains.iter().chain(&opp.units) {
            if !h.secret {
                at(h.card, C_OPP_HAND);
            }
        }
        if let Some(d) = &self.draft {
            for i in 0..3 {
                if let Some(c) = d.slots[i] {
                    if self.sees_slot(Some(p), d, i) {
                        at(c, C_SLOT);
                        if d.hidden == Some(i as u8) {
                            at(c, C_SLOT_DOWN);
                        }
                    }
                }
            }
        }
        for &c in &self.discard {
            at(c, C_DISCARD);
        }
        for (s, vic, def, row, cell) in [
            (me, C_MY_VICTORY, C_MY_DEFEATED, C_MY_ROW, C_MY_CELL),
            (opp, C_OPP_VICTORY, C_OPP_DEFEATED, C_OPP_ROW, C_OPP_CELL),
        ] {
            for &c in &s.victory {
                at(c, vic);
            }
            for &c in &s.defeated {
                at(c, def);
            }
            for r in 0..3 {
                if let Some(c) = s.rows[r] {
                    at(c, row + r);
                }
            }
            for x in 0..9 {
                if let Some(c) = s.field[x] {
                    at(c, cell + x);
                }
            }
        }
        for &(c, r) in &me.placing {
            at(c, C_MY_ROW + r as usize);
            at(c, C_PENDING);
        }
        for &(c, x) in &me.deploying {
            at(c, C_MY_CELL + x as usize);
            at(c, C_PENDING);
        }
        if let Some((c, r)) = me.pick {
            at(c, C_MY_PICK + r as usize);
        }
        // Scores of the cards on the fields, and the attacking card.
        for (side, s) in [(p, me), (q, opp)] {
            for x in 0..9u8 {
                if let Some(c) = s.field[x as usize] {
                    let r = (x / 3) as usize;
                    let t = s.rows[r].map(|t| set.terrain_card(t));
                    let u = set.unit_card(c);
                    out[idx(c, C_ATTACK)] = card_score(u, t, r, true, false) as f32 / 10.0;
                    out[idx(c, C_DEFENCE)] = card_score(u, t, r, false, false) as f32 / 10.0;
                    out[idx(c, C_PROTECTED)] = f32::from(s.protected(x));
                    if let Some(cb) = self.combat {
                        if cb.attacker == side && cb.attack == Some(x) {
                            out[idx(c, C_ATTACKING)] = 1.0;
                        }
                    }
                }
            }
        }
    }

    // ---- render ----------------------------------------------------------------------

    pub(super) fn picture(&self, viewer: Option<Player>) -> String {
        let set = &*self.set;
        let mut o = String::new();
        let who = |p: Player| format!("player {p}");
        let status = match self.phase {
            Phase::Draft => match &self.draft {
                Some(d) => format!(
                    "{} draft {} of 12, {} {}",
                    if d.kind == Kind::Terrain {
                        "terrain"
                    } else {
                        "unit"
                    },
                    self.drafts_done() + 1,
                    who(self.current().unwrap_or(0)),
                    match d.stage() {
                        Stage::Hide => "(picker) to hide a card",
                        Stage::Choose => "to choose a card",
                        Stage::Keep => "(picker) to take a card",
                    }
                ),
                None => "draft".into(),
            },
            Phase::Terrain => format!(
                "terrain placement (secret), {} to place",
                who(self.current().unwrap_or(0))
            ),
            Phase::Deploy => format!(
                "round {} of 3, deployment{}, {} to deploy",
                self.round,
                if self.opts.deployment == super::Deployment::Simultaneous {
                    " (secret)"
                } else {
                    ""
                },
                who(self.current().unwrap_or(0))
            ),
            Phase::Combat => match self.combat {
                Some(c) => match c.attack {
                    None => format!(
                        "round {} of 3, combat turn {}, {} to attack or pass{}",
                        self.round,
                        c.turn + 1,
                        who(c.attacker),
                        if c.passes > 0 {
                            " (the other passed)"
                        } else {
                            ""
                        }
                    ),
                    Some(x) => format!(
                        "round {} of 3, combat turn {}, {} attacks with {}; {} to defend",
                        self.round,
                        c.turn + 1,
                        who(c.attacker),
                        cell_name(x),
                        who(1 - c.attacker)
                    ),
                },
                None => "combat".into(),
            },
            Phase::SuddenDeath => format!(
                "sudden death: {} attacks; {} to pick in secret",
                who(self.sd_attacker()),
                who(self.current().unwrap_or(0))
            ),
            Phase::Over => match self.winner {
                Some(w) => format!("game over: {} wins", who(w)),
                None => "game over: drawn".into(),
            },
        };
        let _ = writeln!(o, "Arte da Guerra: {status}");
        if let Some(fa) = self.first_attacker {
            let _ = writeln!(
                o,
                "first attacker: round 1 {}, round 2 {}, round 3 {}",
                who(fa),
                who(1 - fa),
                who(fa)
            );
        }
        let hidden = "?".to_string();
        for p in [1, 0] {
            let s = &self.sides[p];
            let own = viewer.is_none_or(|v| v == p);
            let role = match viewer {
                None => "",
                Some(v) if v == p => " (you)",
                Some(_) => " (opponent)",
            };
            let _ = writeln!(
                o,
                "\n{}{role}: victory {}, defeated {}",
                who(p),
                s.victory.len(),
                s.defeated.len()
            );
            let hand = |hs: &[super::state::Held]| -> String {
                if hs.is_empty() {
                    return "-".into();
                }
                hs.iter()
                    .map(|h| {
                        if own || !h.secret {
                            let d = set.describe(h.card);
                            if h.secret {
                                format!("{d}*")
                            } else {
                                d
                            }
                        } else {
                            hidden.clone()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            if !s.terrains.is_empty() || self.phase == Phase::Draft {
                let _ = writeln!(o, "  terrain hand: {}", hand(&s.terrains));
            }
            let _ = writeln!(o, "  unit hand: {}", hand(&s.units));
            if !s.placing.is_empty() {
                let orders = if own {
                    s.placing
                        .iter()
                        .map(|&(t, r)| format!("{} on row {}", set.label(t), r + 1))
                        .collect::<Vec<_>>()
                        .join(", ")
                } else {
                    format!("{} card(s), face down", s.placing.len())
                };
                let _ = writeln!(o, "  placing: {orders}");
            }
            if !s.deploying.is_empty() {
                let orders = if own {
                    s.deploying
                        .iter()
                        .map(|&(u, x)| format!("{} on {}", set.label(u), cell_name(x)))
                        .collect::<Vec<_>>()
                        .join(", ")
                } else {
                    format!("{} card(s), face down", s.deploying.len())
                };
                let _ = writeln!(o, "  deploying: {orders}");
            }
            if let Some((c, r)) = s.pick {
                let text = if own || self.phase == Phase::Over {
                    format!("{} on row {}", set.describe(c), r + 1)
                } else {
                    "chosen, face down".into()
                };
                let _ = writeln!(o, "  sudden-death pick: {text}");
            }
            if s.rows.iter().any(Option::is_some) || s.field_count() > 0 {
                let order: [usize; 3] = if p == 1 { [2, 1, 0] } else { [0, 1, 2] };
                for r in order {
                    let terrain = match s.rows[r] {
                        Some(t) => {
                            let tc = set.terrain_card(t);
                            format!("{} {}({})", set.label(t), tc.name, favour_text(&tc.favours))
                        }
                        None => "-".into(),
                    };
                    let bonus = ["C", "G", "A"][r];
                    let _ = write!(o, "  row {} [+1 {bonus}] {terrain:<24}", r + 1);
                    for col in 0..3 {
                        let x = (r * 3 + col) as u8;
                        let cell = match s.field[x as usize] {
                            Some(c) => {
                                let t = s.rows[r].map(|t| set.terrain_card(t));
                                let u = set.unit_card(c);
                                format!(
                                    "{} {} {}/{}",
                                    set.label(c),
                                    u.letters(),
                                    card_score(u, t, r, true, false),
                                    card_score(u, t, r, false, false)
                                )
                            }
                            None => format!("{}:.", cell_name(x)),
                        };
                        let _ = write!(o, " | {cell:<14}");
                    }
                    o.truncate(o.trim_end().len());
                    let _ = writeln!(o);
                }
            }
            if p == 1 {
                let _ = writeln!(o, "  {}", "=".repeat(82));
            }
        }
        if let Some(d) = &self.draft {
            let slots: Vec<String> = (0..3)
                .map(|i| match (d.slots[i], d.taken[i]) {
                    (_, Some(t)) => format!("[taken by {}]", who(t)),
                    (Some(c), None) => {
                        let down = d.hidden == Some(i as u8);
                        let face = if self.sees_slot(viewer, d, i) {
                            set.describe(c)
                        } else {
                            hidden.clone()
                        };
                        if down {
                            format!("[face down: {face}]")
                        } else {
                            format!("[{face}]")
                        }
                    }
                    (None, None) => "[]".into(),
                })
                .collect();
            let _ = writeln!(o, "\ndraft, picker {}: {}", who(d.picker), slots.join(" "));
        }
        let discard: Vec<String> = self.discard.iter().map(|&c| set.label(c)).collect();
        let _ = writeln!(
            o,
            "\npiles: terrain {}, units {}; discarded: {}",
            self.piles[0].len(),
            self.piles[1].len(),
            if discard.is_empty() {
                "-".into()
            } else {
                discard.join(" ")
            }
        );
        o
    }

    // ---- evaluation ------------------------------------------------------------------

    /// The heuristic value for `p` in [-1, 1], from what `p` sees: the victory-pile lead,
    /// plus the strength of the cards each player holds and fields (each card as its mean
    /// attack and defence score on its best row, relative to the set's mean), with an
    /// attack in progress valued as the defender's best answer.
    pub(super) fn heuristic(&self, p: Player) -> f64 {
        if self.phase == Phase::Over {
            return self.returns()[p];
        }
        if let Some(c) = self.combat {
            if let Some(att) = c.attack {
                return self.value_of_attack(p, c.attacker, att);
            }
        }
        let q = 1 - p;
        let mut lead = self.sides[p].victory.len() as f64 - self.sides[q].victory.len() as f64;
        if self.phase == Phase::SuddenDeath {
            lead += self.sudden_death_edge(p);
        }
        let mut strength = self.side_strength(p, true) - self.side_strength(q, false);
        strength += self.draft_edge(p);
        (0.5 * (lead + 0.25 * strength)).tanh()
    }

    /// The value a unit card would have in player `s`'s hand (its best row), in units of the
    /// set's mean card; `known`: whether the evaluator sees `s`'s own secrets.
    fn unit_value(&self, s: Player, card: Card, known: bool) -> f64 {
        let set = &*self.set;
        let rows = self.rows_as_known(&self.sides[s], known);
        let u = set.unit_card(card);
        (0..3)
            .map(|r| strength(set, u, rows[r], r))
            .fold(0.0, f64::max)
            / set.mean_strength.max(1e-9)
    }

    /// A draft in progress, valued for `p` (mine minus theirs) as the cards will
    /// probably go: the chooser takes the best face-up card unless the face-down one is worth
    /// more on average (what the chooser can know), the picker then the better of the rest.
    /// A face-down card `p` cannot see counts as an average card.
    fn draft_edge(&self, p: Player) -> f64 {
        let Some(d) = &self.draft else { return 0.0 };
        if d.stage() == Stage::Hide {
            return 0.0;
        }
        let unseen = match d.kind {
            Kind::Units => 1.0,
            Kind::Terrain => self.average_terrain(),
        };
        let (picker, chooser) = (d.picker, d.chooser());
        let sign = |s: Player| if s == p { 1.0 } else { -1.0 };
        // A card's value to side `s`, as far as `p` knows (None: the face-down card unseen).
        let value = |s: Player, i: usize| -> f64 {
            match d.slots[i] {
                Some(c) if self.sees_slot(Some(p), d, i) => match d.kind {
                    Kind::Units => self.unit_value(s, c, s == p),
                    Kind::Terrain => self.set.terrain_quality[c as usize],
                },
                _ => unseen,
            }
        };
        let open: Vec<usize> = (0..3).filter(|&i| d.slots[i].is_some()).collect();
        match d.stage() {
            Stage::Choose => {
                // The chooser sees the face-up cards only; the face-down one is average to it.
                let shown: Vec<usize> = open
                    .iter()
                    .copied()
                    .filter(|&i| d.hidden != Some(i as u8))
                    .collect();
                let best_shown = shown
                    .iter()
                    .copied()
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

    /// The strength of a side's cards in hand and on the field, in units of the set's mean
    /// card; `known`: the side's owner is evaluating (its secret cards and orders count).
    fn side_strength(&self, p: Player, known: bool) -> f64 {
        let set = &*self.set;
        let s = &self.sides[p];
        let mean = set.mean_strength.max(1e-9);
        let rows = self.rows_as_known(s, known);
        let mut total = 0.0;
        for h in &s.units {
            if h.secret && !known {
                total += 1.0;
                continue;
            }
            // Cards ordered onto the field (own secret deployment) count where they go.
            let placed = if known {
                s.deploying
                    .iter()
                    .find(|(c, _)| *c == h.card)
                    .map(|&(_, x)| x)
            } else {
                None
            };
            let u = set.unit_card(h.card);
            let value = match placed {
                Some(x) => strength(set, u, rows[(x / 3) as usize], (x / 3) as usize),
                None => (0..3)
                    .map(|r| strength(set, u, rows[r], r))
                    .fold(0.0, f64::max),
            };
            total += value / mean;
        }
        for x in 0..9u8 {
            if let Some(c) = s.field[x as usize] {
                let r = (x / 3) as usize;
                total += strength(set, set.unit_card(c), rows[r], r) / mean;
            }
        }
        // Terrain cards, by how much they lift an average card (what matters while no unit
        // card is held yet); unseen ones count as average.
        let average = self.average_terrain();
        for h in &s.terrains {
            total += if h.secret && !known {
                average
            } else {
                set.terrain_quality[h.card as usize]
            };
        }
        for t in s.rows.iter().flatten() {
            total += set.terrain_quality[*t as usize];
        }
        total
    }

    fn average_terrain(&self) -> f64 {
        let q = &self.set.terrain_quality;
        q.iter().sum::<f64>() / q.len().max(1) as f64
    }

    /// The terrain of each row as the evaluator knows it: the rows, else (before placement)
    /// the owner's own placement orders, else the best terrain in hand for that row.
    fn rows_as_known(&self, s: &Side, known: bool) -> [Option<Card>; 3] {
        let mut rows = s.rows;
        if known {
            for &(t, r) in &s.placing {
                rows[r as usize] = Some(t);
            }
        }
        if rows.iter().all(Option::is_none) {
            // Before placement: assume the best visible terrain card on every row.
            let best = s
                .terrains
                .iter()
                .filter(|h| known || !h.secret)
                .map(|h| h.card)
                .max_by_key(|&t| {
                    let f = self.set.terrain_card(t).favours;
                    f.iter().map(|&v| u32::from(v)).sum::<u32>()
                });
            rows = [best; 3];
        }
        rows
    }

    /// An attack is pending: value it as resolved by the defender's best answer (a winning
    /// defence if there is one, with the weakest card that wins; else the weakest card).
    fn value_of_attack(&self, p: Player, attacker: Player, att: u8) -> f64 {
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
        let Some((_, _, x)) = best else { return 0.0 };
        let mut g = self.clone();
        if crate::game::Game::apply(&mut g, Action::Defend(x)).is_err() {
            return 0.0;
        }
        g.heuristic(p)
    }

    /// In sudden death, before the result: for the attacker who has picked, the share of the
    /// defender's possible answers its card beats (as an edge in -1..1); else 0.
    fn sudden_death_edge(&self, p: Player) -> f64 {
        let att = self.sd_attacker();
        if p != att {
            return 0.0;
        }
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
