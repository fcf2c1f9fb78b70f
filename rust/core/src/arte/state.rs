//! The state of a game of Arte da Guerra and the queries derived from it (whose decision it
//! is, protection, quotas), plus the invariant every reachable state satisfies.

use super::cards::{Card, CardSet};
use super::rules::sudden_death_scores;
use super::{Deployment, DraftOrder, Options};
use crate::error::{Error, Result};
use crate::game::Player;
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Terrain drafts (one terrain card each per draft) and unit drafts (AG-2.1).
pub const TERRAIN_DRAFTS: usize = 3;
pub const UNIT_DRAFTS: usize = 9;
pub const DRAFTS: usize = TERRAIN_DRAFTS + UNIT_DRAFTS;
/// Rounds of combat and cards deployed per round (AG-5.1, AG-5.2).
pub const ROUNDS: u8 = 3;
pub const DEPLOY_PER_ROUND: usize = 3;

/// The kind of a draft, as the saved state names it (`terrain`, `units`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Terrain = 0,
    Units = 1,
}

/// The phase of the game, as the saved state names it (`draft` .. `sudden_death`, `over`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Draft,
    Terrain,
    Deploy,
    Combat,
    SuddenDeath,
    Over,
}

/// Where a draft stands; derived from which slots are hidden and taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The picker has drawn and must hide one card (AG-2.2).
    Hide,
    /// The other player takes any one of the three (AG-2.3).
    Choose,
    /// The picker takes one of the remaining two (AG-2.4).
    Keep,
}

/// The three cards of the draft in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    pub kind: Kind,
    pub picker: Player,
    /// The drawn cards in draw order; `None` once taken.
    pub slots: [Option<Card>; 3],
    /// The slot the picker turned face down.
    pub hidden: Option<u8>,
    /// Who took each slot.
    pub taken: [Option<Player>; 3],
}

impl Draft {
    pub fn stage(&self) -> Stage {
        if self.hidden.is_none() {
            Stage::Hide
        } else if self.taken.iter().all(Option::is_none) {
            Stage::Choose
        } else {
            Stage::Keep
        }
    }
    pub fn chooser(&self) -> Player {
        1 - self.picker
    }
    pub fn slot_of(&self, card: Card) -> Option<usize> {
        self.slots.iter().position(|s| *s == Some(card))
    }
}

/// A card in a hand. `secret`: the opponent has never seen it (the picker kept the face-down
/// draft card, AG-2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    pub card: Card,
    pub secret: bool,
}

/// One player's cards.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Side {
    /// Terrain cards drafted and not yet on a row.
    pub terrains: Vec<Held>,
    /// Unit cards drafted and not yet deployed.
    pub units: Vec<Held>,
    /// The terrain card of each row (row 1 = index 0).
    pub rows: [Option<Card>; 3],
    /// The unit card on each cell (index `(row - 1) * 3 + column`).
    pub field: [Option<Card>; 9],
    /// Secret terrain placements, revealed when both players have placed (AG-3.2).
    pub placing: Vec<(Card, u8)>,
    /// Secret deployments, revealed when both players have deployed (AG-5.2).
    pub deploying: Vec<(Card, u8)>,
    pub victory: Vec<Card>,
    pub defeated: Vec<Card>,
    /// The sudden-death choice: a card of the victory pile and a row (AG-8.2).
    pub pick: Option<(Card, u8)>,
}

impl Side {
    /// An empty side with room for a standard game's cards (no reallocation in play).
    pub fn with_capacity() -> Side {
        Side {
            terrains: Vec::with_capacity(TERRAIN_DRAFTS),
            units: Vec::with_capacity(UNIT_DRAFTS),
            victory: Vec::with_capacity(UNIT_DRAFTS),
            defeated: Vec::with_capacity(UNIT_DRAFTS),
            placing: Vec::with_capacity(3),
            deploying: Vec::with_capacity(DEPLOY_PER_ROUND),
            ..Side::default()
        }
    }

    pub fn field_count(&self) -> usize {
        self.field.iter().flatten().count()
    }
    pub fn has_unit(&self, card: Card) -> bool {
        self.units.iter().any(|h| h.card == card)
    }
    pub fn has_terrain(&self, card: Card) -> bool {
        self.terrains.iter().any(|h| h.card == card)
    }
    /// Is the card on `cell` behind another card of its column (AG-5.3)?
    pub fn protected(&self, cell: u8) -> bool {
        let (row, col) = (cell / 3, cell % 3);
        (0..row).any(|r| self.field[(r * 3 + col) as usize].is_some())
    }
    /// Terrain cards still to be placed this phase.
    pub fn placing_quota(&self) -> usize {
        self.terrains.len().min(3)
    }
}

/// The combat part of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combat {
    /// Whose combat turn it is.
    pub attacker: Player,
    /// Turns (attacks and passes) completed this round.
    pub turn: u8,
    /// Passes in a row just before this turn (0 or 1).
    pub passes: u8,
    /// The attacking cell while the defender chooses.
    pub attack: Option<u8>,
}

#[derive(Clone, Debug)]
pub struct Arte {
    pub(super) opts: Options,
    /// The card set through a handle of this game's own: cloning a state bumps only the
    /// outer counter, so games on different threads never write to the one counter of the
    /// shared set (that cache line bouncing between cores cost 60% more CPU time per game in a
    /// 2-thread tournament).
    #[allow(clippy::redundant_allocation)] // the outer Arc is the per-game handle
    pub(super) set: Arc<Arc<CardSet>>,
    pub(super) rng: GameRng,
    pub(super) phase: Phase,
    /// The combat round, 1..=3; 0 before the first.
    pub(super) round: u8,
    /// Round 1's first attacker, from the coin toss (AG-5.1); `None` before it.
    pub(super) first_attacker: Option<Player>,
    /// The undrawn piles `[terrain, units]`; the last card is the top.
    pub(super) piles: [Vec<Card>; 2],
    pub(super) draft: Option<Draft>,
    /// Draft cards nobody took, face up (AG-2.5).
    pub(super) discard: Vec<Card>,
    pub(super) sides: [Side; 2],
    pub(super) combat: Option<Combat>,
    pub(super) winner: Option<Player>,
}

impl Arte {
    pub fn card_set(&self) -> &CardSet {
        &self.set
    }

    /// The first attacker of round `round` (they alternate, AG-5.1).
    pub(super) fn round_first(&self, round: u8) -> Player {
        self.first_attacker.unwrap_or(0) ^ usize::from(round.saturating_sub(1) & 1)
    }

    /// The sudden-death attacker: the last round's second player (AG-8.2).
    pub(super) fn sd_attacker(&self) -> Player {
        1 - self.round_first(self.round)
    }

    /// Completed drafts (each gives one card to each player).
    pub(super) fn drafts_done(&self) -> usize {
        let owned: usize = self
            .sides
            .iter()
            .map(|s| s.terrains.len() + s.units.len())
            .sum();
        let current = self
            .draft
            .as_ref()
            .map_or(0, |d| d.taken.iter().flatten().count());
        owned.saturating_sub(current) / 2
    }

    /// The picker of the draft that follows `done` completed drafts (AG-2.1).
    pub(super) fn draft_picker(&self, done: usize) -> Player {
        match self.opts.draft_order {
            DraftOrder::Restart if done >= TERRAIN_DRAFTS => (done - TERRAIN_DRAFTS) % 2,
            _ => done % 2,
        }
    }

    /// How many cards player `p` deploys this round: 3, or all it has left (AG-5.2). In the
    /// alternating variant the cards already deployed this round are on the field.
    pub(super) fn deploy_quota(&self, p: Player) -> usize {
        let s = &self.sides[p];
        match self.opts.deployment {
            Deployment::Simultaneous => s.units.len().min(DEPLOY_PER_ROUND),
            Deployment::Alternating => (s.units.len() + s.field_count()).min(DEPLOY_PER_ROUND),
        }
    }

    fn deployed(&self, p: Player) -> usize {
        match self.opts.deployment {
            Deployment::Simultaneous => self.sides[p].deploying.len(),
            Deployment::Alternating => self.sides[p].field_count(),
        }
    }

    /// Who deploys next in the deployment phase, if anyone.
    pub(super) fn deployer(&self) -> Option<Player> {
        let first = self.round_first(self.round);
        let second = 1 - first;
        let open = |p: Player| self.deployed(p) < self.deploy_quota(p);
        match self.opts.deployment {
            // The first attacker orders first; the other sees none of it (AG-5.2).
            Deployment::Simultaneous => [first, second].into_iter().find(|&p| open(p)),
            // One card each in turn, the first attacker first.
            Deployment::Alternating => match (open(first), open(second)) {
                (true, true) if self.deployed(first) <= self.deployed(second) => Some(first),
                (_, true) => Some(second),
                (true, false) => Some(first),
                (false, false) => None,
            },
        }
    }

    /// Who places terrain next, if anyone (player 0 first; secret, AG-3.2).
    pub(super) fn placer(&self) -> Option<Player> {
        (0..2).find(|&p| self.sides[p].placing.len() < self.sides[p].placing_quota())
    }

    pub(super) fn current(&self) -> Option<Player> {
        match self.phase {
            Phase::Draft => self.draft.as_ref().map(|d| match d.stage() {
                Stage::Hide | Stage::Keep => d.picker,
                Stage::Choose => d.chooser(),
            }),
            Phase::Terrain => self.placer(),
            Phase::Deploy => self.deployer(),
            Phase::Combat => self.combat.map(|c| match c.attack {
                None => c.attacker,
                Some(_) => 1 - c.attacker,
            }),
            Phase::SuddenDeath => {
                let att = self.sd_attacker();
                Some(if self.sides[att].pick.is_none() {
                    att
                } else {
                    1 - att
                })
            }
            Phase::Over => None,
        }
    }

    /// Every card of the set in exactly one place (piles, draft, discard, hands, rows,
    /// fields, victory and defeated piles), each of the right kind, and the references
    /// (secret orders, picks) pointing at cards where they must be. `Err` says what is wrong.
    pub fn check_invariants(&self) -> std::result::Result<(), String> {
        let set = &self.set;
        let mut seen = vec![0u8; set.len()];
        let mut note = |c: Card, want_terrain: Option<bool>, place: &str| -> Result<(), String> {
            let i = c as usize;
            if i >= seen.len() {
                return Err(format!("{place}: card id {c} out of range"));
            }
            if let Some(t) = want_terrain {
                if set.is_terrain(c) != t {
                    return Err(format!(
                        "{place}: {} is the wrong kind of card",
                        set.label(c)
                    ));
                }
            }
            seen[i] += 1;
            Ok(())
        };
        for c in &self.piles[0] {
            note(*c, Some(true), "terrain pile")?;
        }
        for c in &self.piles[1] {
            note(*c, Some(false), "unit pile")?;
        }
        if let Some(d) = &self.draft {
            for c in d.slots.iter().flatten() {
                note(*c, Some(d.kind == Kind::Terrain), "draft")?;
            }
        }
        for c in &self.discard {
            note(*c, None, "discard")?;
        }
        for (p, s) in self.sides.iter().enumerate() {
            for h in &s.terrains {
                note(h.card, Some(true), &format!("player {p} terrain hand"))?;
            }
            for h in &s.units {
                note(h.card, Some(false), &format!("player {p} unit hand"))?;
            }
            for c in s.rows.iter().flatten() {
                note(*c, Some(true), &format!("player {p} rows"))?;
            }
            for c in s.field.iter().flatten() {
                note(*c, Some(false), &format!("player {p} field"))?;
            }
            for c in s.victory.iter().chain(&s.defeated) {
                note(*c, Some(false), &format!("player {p} victory/defeated"))?;
            }
        }
        if let Some(c) = seen.iter().position(|&n| n != 1) {
            return Err(format!(
                "card {} is in {} places, not exactly one",
                set.label(c as Card),
                seen[c]
            ));
        }
        for (p, s) in self.sides.iter().enumerate() {
            for (i, &(c, row)) in s.placing.iter().enumerate() {
                if !s.has_terrain(c) || row > 2 || s.rows[row as usize].is_some() {
                    return Err(format!(
                        "player {p} placing[{i}] is not a free row for a held terrain"
                    ));
                }
                if s.placing[..i].iter().any(|&(c2, r2)| c2 == c || r2 == row) {
                    return Err(format!("player {p} placing[{i}] repeats a card or row"));
                }
            }
            for (i, &(c, cell)) in s.deploying.iter().enumerate() {
                if !s.has_unit(c) || cell > 8 || s.field[cell as usize].is_some() {
                    return Err(format!(
                        "player {p} deploying[{i}] is not a free cell for a held unit"
                    ));
                }
                if s.deploying[..i]
                    .iter()
                    .any(|&(c2, x2)| c2 == c || x2 == cell)
                {
                    return Err(format!("player {p} deploying[{i}] repeats a card or cell"));
                }
            }
            if let Some((c, row)) = s.pick {
                if !s.victory.contains(&c) || row > 2 {
                    return Err(format!("player {p} pick is not a card of its victory pile"));
                }
            }
        }
        Ok(())
    }

    /// Can `viewer` (`None`: the omniscient) see draft slot `i`?
    pub(super) fn sees_slot(&self, viewer: Option<Player>, d: &Draft, i: usize) -> bool {
        match viewer {
            None => true,
            Some(p) => p == d.picker || (d.stage() != Stage::Hide && d.hidden != Some(i as u8)),
        }
    }

    /// The phase-specific consistency a loaded state must have, so that play can go on.
    pub(super) fn check_phase(&self) -> Result<()> {
        let bad = |path: &str, why: &str| Err(Error::state(path, why));
        let ph = self.phase;
        if self.draft.is_some() != (ph == Phase::Draft) {
            return bad("$.draft", "present exactly in the draft phase");
        }
        if self.combat.is_some() != (ph == Phase::Combat) {
            return bad("$.combat", "present exactly in the combat phase");
        }
        if self.winner.is_some() && ph != Phase::Over {
            return bad("$.winner", "only a finished game has a winner");
        }
        let want_round = match ph {
            Phase::Draft | Phase::Terrain => 0..=0,
            Phase::Deploy | Phase::Combat => 1..=ROUNDS,
            Phase::SuddenDeath | Phase::Over => ROUNDS..=ROUNDS,
        };
        if !want_round.contains(&self.round) {
            return bad("$.round", "does not fit the phase");
        }
        if self.first_attacker.is_some() != (self.round > 0) {
            return bad(
                "$.first_attacker",
                "set (0 or 1) exactly once the combat rounds have begun",
            );
        }
        for p in 0..self.sides.len() {
            self.check_side(p)?;
        }
        match ph {
            Phase::Draft => self.check_draft()?,
            Phase::Terrain => {
                if self.placer().is_none() {
                    return bad("$.players", "nobody has terrain left to place");
                }
            }
            Phase::Deploy => {
                if self.deployer().is_none() {
                    return bad("$.players", "nobody has units left to deploy");
                }
            }
            Phase::Combat => {
                let Some(c) = self.combat else { return Ok(()) };
                if c.passes == 1 && c.turn == 0 {
                    return bad("$.combat.passes", "nobody may pass on the first turn");
                }
                if let Some(att) = c.attack {
                    let s = &self.sides[c.attacker];
                    if s.field[att as usize].is_none() || s.protected(att) {
                        return bad("$.combat.attack", "not an unprotected card of the attacker");
                    }
                }
            }
            Phase::SuddenDeath => {
                let (a, b) = (self.sides[0].victory.len(), self.sides[1].victory.len());
                if a != b || a == 0 {
                    return bad(
                        "$.players",
                        "sudden death needs equal, non-empty victory piles",
                    );
                }
                if self.sides[1 - self.sd_attacker()].pick.is_some() {
                    return bad(
                        "$.players",
                        "the defender picks second, and that ends the game",
                    );
                }
            }
            Phase::Over => self.check_over()?,
        }
        Ok(())
    }

    /// Side `p`'s hands, orders, field and piles fit the phase.
    fn check_side(&self, p: Player) -> Result<()> {
        let ph = self.phase;
        let s = &self.sides[p];
        let path = |k: &str| format!("$.players[{p}].{k}");
        if !s.placing.is_empty() && ph != Phase::Terrain {
            return Err(Error::state(path("placing"), "only while placing terrain"));
        }
        if !s.deploying.is_empty()
            && (ph != Phase::Deploy || self.opts.deployment != Deployment::Simultaneous)
        {
            return Err(Error::state(
                path("deploying"),
                "only while deploying in secret",
            ));
        }
        if s.pick.is_some() && !matches!(ph, Phase::SuddenDeath | Phase::Over) {
            return Err(Error::state(path("pick"), "only in sudden death"));
        }
        let field = s.field_count();
        let fine = match ph {
            Phase::Combat => field > 0,
            Phase::Deploy => match self.opts.deployment {
                Deployment::Simultaneous => field == 0,
                Deployment::Alternating => field <= self.deploy_quota(p),
            },
            _ => field == 0,
        };
        if !fine {
            return Err(Error::state(
                path("field"),
                "the field does not fit the phase (empty outside combat, not empty in it)",
            ));
        }
        if matches!(ph, Phase::Draft | Phase::Terrain) {
            if s.rows.iter().any(Option::is_some) || !s.victory.is_empty() || !s.defeated.is_empty()
            {
                return Err(Error::state(
                    path("rows"),
                    "rows, victory and defeated piles are empty before the rounds",
                ));
            }
        } else if !s.terrains.is_empty() {
            return Err(Error::state(
                path("terrains"),
                "terrain cards are all on the rows once the rounds begin",
            ));
        }
        if s.terrains.len() > 3 {
            return Err(Error::state(path("terrains"), "at most 3 terrain cards"));
        }
        Ok(())
    }

    /// The draft in progress fits the drafts done (AG-2.1).
    fn check_draft(&self) -> Result<()> {
        let bad = |path: &str, why: &str| Err(Error::state(path, why));
        let Some(d) = &self.draft else { return Ok(()) };
        let done = self.drafts_done();
        if done >= DRAFTS {
            return bad("$.draft", "all twelve drafts are done");
        }
        let kind = if done < TERRAIN_DRAFTS {
            Kind::Terrain
        } else {
            Kind::Units
        };
        if d.kind != kind {
            return bad("$.draft.kind", "does not fit the drafts done so far");
        }
        if d.picker != self.draft_picker(done) {
            return bad("$.draft.picker", "not this draft's picker (AG-2.1)");
        }
        let taken: Vec<Player> = d.taken.iter().flatten().copied().collect();
        for (i, slot) in d.slots.iter().enumerate() {
            if slot.is_some() == d.taken[i].is_some() {
                return Err(Error::state(
                    format!("$.draft.slots[{i}]"),
                    "a slot holds a card exactly when nobody took it",
                ));
            }
        }
        let ok = match (d.hidden, taken.as_slice()) {
            (None, []) => true,
            (Some(_), []) => true,
            (Some(_), [p]) => *p == d.chooser(),
            _ => false,
        };
        if !ok {
            return bad(
                "$.draft.taken",
                "the chooser takes first, after the picker hid a card",
            );
        }
        for (p, s) in self.sides.iter().enumerate() {
            let mine = usize::from(taken.contains(&p));
            let (t, u) = match d.kind {
                Kind::Terrain => (s.terrains.len().saturating_sub(mine), s.units.len()),
                Kind::Units => (s.terrains.len(), s.units.len().saturating_sub(mine)),
            };
            if t != done.min(TERRAIN_DRAFTS) || u != done.saturating_sub(TERRAIN_DRAFTS) {
                return Err(Error::state(
                    format!("$.players[{p}]"),
                    "hand sizes do not fit the drafts done",
                ));
            }
        }
        Ok(())
    }

    /// A finished game's winner agrees with the victory piles and sudden-death picks.
    fn check_over(&self) -> Result<()> {
        let bad = |path: &str, why: &str| Err(Error::state(path, why));
        let (a, b) = (self.sides[0].victory.len(), self.sides[1].victory.len());
        let want = if a != b {
            Some(if a > b { 0 } else { 1 })
        } else if a == 0 {
            None
        } else {
            let att = self.sd_attacker();
            match (self.sides[att].pick, self.sides[1 - att].pick) {
                (Some(x), Some(y)) => {
                    let (at, de) = sudden_death_scores(&self.set, &self.sides, att, x, y);
                    Some(if super::combat::attack_wins(at, de) {
                        att
                    } else {
                        1 - att
                    })
                }
                _ => return bad("$.players", "a tied game ends with both sudden-death picks"),
            }
        };
        if self.winner != want {
            return bad(
                "$.winner",
                "does not agree with the victory piles and picks",
            );
        }
        Ok(())
    }
}
