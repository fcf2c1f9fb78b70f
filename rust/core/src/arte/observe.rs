//! What a player sees: the observation tensor, the text picture (render), and the
//! determinization of everything else (`resample_hidden`). All use only what that player may
//! see (AG-9); the JSON view is `json.rs`. Layouts are documented in `docs/arte.md`.

use super::cards::{favour_text, Card};
use super::combat::card_score;
use super::notation::cell_name;
use super::state::{Arte, Kind, Phase, Stage};
use crate::game::Player;
use crate::rng::GameRng;
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
    /// The bounds of the observation ([`crate::Game::observation_bounds`]), from the
    /// card-data format (`cards.rs`): a unit card shows 1 to 3 units (a type may repeat), a
    /// terrain favours a type with a value 1..=9, and the twelve drafts deal 9 terrain and 27
    /// unit cards in all; everything else is a flag or a share in [0, 1].
    pub(super) fn observation_bounds_of(&self) -> crate::game::ObservationBounds {
        let rows = self.set.len() + 1;
        let low = vec![0.0; rows * FEATURES];
        let mut high = vec![1.0; rows * FEATURES];
        let mut set = |i: usize, v: f32| {
            if let Some(h) = high.get_mut(i) {
                *h = v;
            }
        };
        set(G_HANDS, 9.0 / 3.0); // terrain cards in a hand / 3
        set(G_HANDS + 1, 9.0 / 3.0);
        set(G_HANDS + 2, 27.0 / 9.0); // unit cards in a hand / 9
        set(G_HANDS + 3, 27.0 / 9.0);
        set(G_OPP_SECRET, (9.0 + 27.0) / 9.0); // the opponent's secret hand cards / 9
        for k in 0..2 {
            set(G_VICTORY + k, 27.0 / 9.0); // victory and defeated piles / 9
            set(G_DEFEATED + k, 27.0 / 9.0);
        }
        set(G_OPP_ORDERS, (3.0 + 9.0) / 3.0); // secret orders (3 placements, 9 deployments) / 3
        set(G_MY_ORDERS, (3.0 + 9.0) / 3.0);
        for row in 1..rows {
            let at = row * FEATURES;
            for k in 0..4 {
                set(at + C_UNITS + k, 3.0); // units of each type on a card
                set(at + C_FAVOURS + k, 9.0 / 3.0); // terrain value / 3
            }
            // attack / defence score / 10: 3 units at 9, +1 row bonus
            set(at + C_ATTACK, 3.0 * (9.0 + 1.0) / 10.0);
            set(at + C_DEFENCE, 3.0 * (9.0 + 1.0) / 10.0);
        }
        (low, high)
    }

    pub(super) fn observe(&self, p: Player, out: &mut [f32]) {
        let set = &*self.set;
        let n = set.len();
        if out.len() < (n + 1) * FEATURES {
            return;
        }
        self.observe_globals(p, out);
        self.observe_cards(p, out);
    }

    /// The global row of `p`'s observation (`out` holds every row).
    fn observe_globals(&self, p: Player, out: &mut [f32]) {
        let set = &*self.set;
        let q = 1 - p;
        let (me, opp) = (&self.sides[p], &self.sides[q]);
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
    }

    /// The card rows of `p`'s observation: contents, where each card is as far as `p`
    /// knows, scores on the fields.
    fn observe_cards(&self, p: Player, out: &mut [f32]) {
        let set = &*self.set;
        let n = set.len();
        let q = 1 - p;
        let (me, opp) = (&self.sides[p], &self.sides[q]);
        let idx = |c: Card, f: usize| (1 + c as usize) * FEATURES + f;
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
        let status = self.status_line();
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
        for p in [1, 0] {
            self.picture_side(&mut o, p, viewer);
        }
        self.picture_draft(&mut o, viewer);
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

    /// The picture's first line: where the game is.
    fn status_line(&self) -> String {
        let who = |p: Player| format!("player {p}");
        match self.phase {
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
        }
    }

    /// Player `p`'s part of the picture, as `viewer` sees it.
    fn picture_side(&self, o: &mut String, p: Player, viewer: Option<Player>) {
        let set = &*self.set;
        let who = |p: Player| format!("player {p}");
        let hidden = "?".to_string();
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
        self.picture_field(o, p);
        if p == 1 {
            let _ = writeln!(o, "  {}", "=".repeat(82));
        }
    }

    /// Player `p`'s field, row by row, its own side towards the middle.
    fn picture_field(&self, o: &mut String, p: Player) {
        let set = &*self.set;
        let s = &self.sides[p];
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
    }

    /// The draft's slots, as `viewer` sees them.
    fn picture_draft(&self, o: &mut String, viewer: Option<Player>) {
        let set = &*self.set;
        let who = |p: Player| format!("player {p}");
        let hidden = "?".to_string();
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
    }
}

// ---- determinization ------------------------------------------------------------------
//
// A state consistent with one player's view, everything hidden from that player redrawn
// (AG-9): the undrawn piles, the opponent's secret hand cards, draft cards the player has
// not seen, the opponent's secret placements, deployments and sudden-death pick, and the RNG
// (the coin toss still to come).

impl Arte {
    pub(super) fn resample(&self, p: Player, seed: u64) -> Arte {
        let mut g = self.clone();
        let q = 1 - p;
        let mut rng = GameRng::stream(seed, 0);
        g.rng = GameRng::stream(seed, 1);

        // Cards p cannot identify, per kind, are dealt again into the same places.
        for kind in [Kind::Terrain, Kind::Units] {
            let k = kind as usize;
            let unseen_slots: Vec<usize> = match &g.draft {
                Some(d) if d.kind == kind => (0..3)
                    .filter(|&i| d.slots[i].is_some() && !self.sees_slot(Some(p), d, i))
                    .collect(),
                _ => Vec::new(),
            };
            let mut pool: Vec<Card> = g.piles[k].clone();
            {
                let held = match kind {
                    Kind::Terrain => &g.sides[q].terrains,
                    Kind::Units => &g.sides[q].units,
                };
                pool.extend(held.iter().filter(|h| h.secret).map(|h| h.card));
            }
            if let Some(d) = &g.draft {
                pool.extend(unseen_slots.iter().filter_map(|&i| d.slots[i]));
            }
            // Sorted before the shuffle, so the draw depends on the view and the seed alone,
            // not on where the hidden cards really are (else a seeded agent's move would).
            pool.sort_unstable();
            rng.shuffle(&mut pool);
            let mut deal = pool.into_iter();
            for c in g.piles[k].iter_mut() {
                *c = deal.next().unwrap_or(*c);
            }
            let held = match kind {
                Kind::Terrain => &mut g.sides[q].terrains,
                Kind::Units => &mut g.sides[q].units,
            };
            for h in held.iter_mut().filter(|h| h.secret) {
                h.card = deal.next().unwrap_or(h.card);
            }
            if let Some(d) = &mut g.draft {
                for &i in &unseen_slots {
                    d.slots[i] = deal.next().or(d.slots[i]);
                }
            }
            g.bias_hidden_slot(kind, &unseen_slots);
        }

        // The opponent's secret orders: which of its cards, and where.
        let s = &mut g.sides[q];
        if !s.placing.is_empty() {
            let mut cards: Vec<Card> = s.terrains.iter().map(|h| h.card).collect();
            let mut rows: Vec<u8> = (0..3u8).filter(|&r| s.rows[r as usize].is_none()).collect();
            rng.shuffle(&mut cards);
            rng.shuffle(&mut rows);
            let n = s.placing.len();
            s.placing = cards.into_iter().zip(rows).take(n).collect();
        }
        if !s.deploying.is_empty() {
            let mut cards: Vec<Card> = s.units.iter().map(|h| h.card).collect();
            let mut cells: Vec<u8> = (0..9u8)
                .filter(|&x| s.field[x as usize].is_none())
                .collect();
            rng.shuffle(&mut cards);
            rng.shuffle(&mut cells);
            let n = s.deploying.len();
            s.deploying = cards.into_iter().zip(cells).take(n).collect();
        }
        if g.phase == Phase::SuddenDeath && s.pick.is_some() {
            let rows = match g.opts.sudden_death_row {
                super::SuddenDeathRow::Chosen => 3,
                super::SuddenDeathRow::Front => 1,
            };
            if let Some(&c) = rng.choose(&s.victory) {
                s.pick = Some((c, rng.below(rows) as u8));
            }
        }
        g
    }
}

impl Arte {
    /// In a redrawn state: the draft's face-down card, when the redrawing player did not see
    /// it (`unseen`: the chooser's view), is drawn as a picker would have hidden it, the card
    /// it wants most (AG-2.2; the rule-based player's rule): if the picker values a face-up
    /// card above it (`heuristic::draft_value`, in the redrawn state), it is swapped with the
    /// first card of the redrawn undrawn pile that the picker values at least as much as
    /// every face-up card (none: left as drawn). Both places are unseen to the redrawing
    /// player, and the choice reads only the redrawn state, so the redraw stays a function of
    /// the view and the seed. It makes the search stronger than a uniform redraw
    /// (research/issue-14-round13-arte.md).
    fn bias_hidden_slot(&mut self, kind: Kind, unseen: &[usize]) {
        let Some(d) = &self.draft else { return };
        if d.kind != kind {
            return;
        }
        let Some(h) = d.hidden.map(usize::from) else {
            return;
        };
        if !unseen.contains(&h) {
            return;
        }
        let Some(hc) = d.slots[h] else { return };
        let picker = d.picker;
        let value = |c: Card| super::heuristic::draft_value(self, picker, c);
        let Some(bar) = (0..3)
            .filter(|&i| i != h)
            .filter_map(|i| d.slots[i])
            .map(value)
            .reduce(f64::max)
        else {
            return;
        };
        if value(hc) >= bar {
            return;
        }
        let k = kind as usize;
        let Some(j) = self.piles[k].iter().position(|&c| value(c) >= bar) else {
            return;
        };
        let c = self.piles[k][j];
        self.piles[k][j] = hc;
        if let Some(d) = &mut self.draft {
            d.slots[h] = Some(c);
        }
    }
}
