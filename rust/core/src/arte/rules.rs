//! The rules: setup, legal actions, validation with rule ids, and the effects of each action
//! with the automatic steps that follow (draws, reveals, round ends, scoring). Rule ids refer
//! to `docs/rules/arte-da-guerra.md`.

use super::cards::{Card, CardSet};
use super::combat::{attack_wins, card_score};
use super::notation::{cell_name, Action};
use super::state::{
    Arte, Combat, Draft, Held, Kind, Phase, Side, Stage, DRAFTS, ROUNDS, TERRAIN_DRAFTS,
};
use super::{Deployment, Options, RangedScoring, SuddenDeathRow};
use crate::error::{Error, Result};
use crate::game::Player;
use crate::rng::GameRng;

/// Why a pass or a defence is refused (turned into an error with its rule id on demand, so
/// that generating legal actions allocates nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    FirstTurn,
    ThreeCards,
    NoCard,
    Protected,
    ProtectedNoRanged,
}

impl Arte {
    /// A new game: both piles shuffled from `seed`, the first draft drawn (AG-1.4, AG-2.2).
    pub(super) fn setup(seed: u64, opts: &Options) -> Result<Arte> {
        let set = opts.card_set()?;
        let mut rng = GameRng::seed(seed);
        let nt = set.num_terrain() as Card;
        let mut terrain: Vec<Card> = (0..nt).collect();
        let mut units: Vec<Card> = (nt..set.len() as Card).collect();
        rng.shuffle(&mut terrain);
        rng.shuffle(&mut units);
        let mut g = Arte {
            opts: opts.clone(),
            set: std::sync::Arc::new(set),
            rng,
            phase: Phase::Draft,
            round: 0,
            first_attacker: None,
            piles: [terrain, units],
            draft: None,
            discard: Vec::new(),
            sides: [Side::with_capacity(), Side::with_capacity()],
            combat: None,
            winner: None,
        };
        g.discard.reserve(DRAFTS);
        g.next_draft();
        Ok(g)
    }

    // ---- legal actions ---------------------------------------------------------------

    /// The legal actions, generated directly in ascending id order (see `notation`).
    pub(super) fn legal(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Draft => {
                let Some(d) = &self.draft else { return };
                let stage = d.stage();
                let face_down = |i: usize| stage != Stage::Hide && d.hidden == Some(i as u8);
                let shown = sorted((0..3).filter(|&i| !face_down(i)).filter_map(|i| d.slots[i]));
                match stage {
                    Stage::Hide => out.extend(shown.map(Action::Hide)),
                    Stage::Choose | Stage::Keep => {
                        if (0..3).any(|i| face_down(i) && d.slots[i].is_some()) {
                            out.push(Action::TakeHidden);
                        }
                        out.extend(shown.map(Action::Take));
                    }
                }
            }
            Phase::Terrain => {
                let Some(p) = self.placer() else { return };
                let s = &self.sides[p];
                let free: Vec<u8> = (0..3u8)
                    .filter(|&r| {
                        s.rows[r as usize].is_none() && !s.placing.iter().any(|o| o.1 == r)
                    })
                    .collect();
                for t in sorted(s.terrains.iter().map(|h| h.card)) {
                    if !s.placing.iter().any(|o| o.0 == t) {
                        out.extend(free.iter().map(|&r| Action::Place(t, r)));
                    }
                }
            }
            Phase::Deploy => {
                let Some(p) = self.deployer() else { return };
                let s = &self.sides[p];
                let mut free = [false; 9];
                for (x, f) in free.iter_mut().enumerate() {
                    *f = s.field[x].is_none() && !s.deploying.iter().any(|o| o.1 as usize == x);
                }
                for u in sorted(s.units.iter().map(|h| h.card)) {
                    if !s.deploying.iter().any(|o| o.0 == u) {
                        out.extend(
                            (0..9u8)
                                .filter(|&x| free[x as usize])
                                .map(|x| Action::Deploy(u, x)),
                        );
                    }
                }
            }
            Phase::Combat => {
                let Some(c) = self.combat else { return };
                match c.attack {
                    None => {
                        if self.pass_refusal(&c).is_none() {
                            out.push(Action::Pass);
                        }
                        let s = &self.sides[c.attacker];
                        for cell in 0..9u8 {
                            if s.field[cell as usize].is_some() && !s.protected(cell) {
                                out.push(Action::Attack(cell));
                            }
                        }
                    }
                    Some(att) => {
                        for cell in 0..9u8 {
                            if self.defend_refusal(c.attacker, att, cell).is_none() {
                                out.push(Action::Defend(cell));
                            }
                        }
                    }
                }
            }
            Phase::SuddenDeath => {
                let Some(p) = self.current() else { return };
                for card in sorted(self.sides[p].victory.iter().copied()) {
                    out.extend(self.pick_rows().map(|row| Action::Pick(card, row)));
                }
            }
            Phase::Over => {}
        }
    }

    fn pick_rows(&self) -> std::ops::Range<u8> {
        match self.opts.sudden_death_row {
            SuddenDeathRow::Chosen => 0..3,
            SuddenDeathRow::Front => 0..1,
        }
    }

    // ---- validation ------------------------------------------------------------------

    /// Why the attacker may not pass now, if it may not (AG-7.1, AG-7.2).
    fn pass_refusal(&self, c: &Combat) -> Option<Refusal> {
        if c.turn == 0 {
            Some(Refusal::FirstTurn)
        } else if self.sides[c.attacker].field_count() > 2 {
            Some(Refusal::ThreeCards)
        } else {
            None
        }
    }

    /// Why the defender may not defend with the card on `cell` against the attack from
    /// `att`, if it may not (AG-6.3, AG-6.4).
    fn defend_refusal(&self, attacker: Player, att: u8, cell: u8) -> Option<Refusal> {
        let d = &self.sides[1 - attacker];
        let Some(card) = d.field.get(cell as usize).copied().flatten() else {
            return Some(Refusal::NoCard);
        };
        if !d.protected(cell) {
            return None;
        }
        let attacking = self.sides[attacker].field[att as usize];
        let pure_ranged = attacking.is_some_and(|a| self.set.unit_card(a).only_ranged());
        if !pure_ranged {
            Some(Refusal::Protected)
        } else if self.set.unit_card(card).any_ranged() {
            None
        } else {
            Some(Refusal::ProtectedNoRanged)
        }
    }

    fn refusal_error(&self, r: Refusal, cell: u8) -> Error {
        let x = cell_name(cell % 9);
        match r {
            Refusal::FirstTurn => Error::illegal(
                "AG-7.1",
                "the first turn of a round must attack; passing is not allowed",
            ),
            Refusal::ThreeCards => Error::illegal(
                "AG-7.2",
                format!(
                    "a player may pass only with at most two cards on the field ({} there)",
                    self.combat
                        .map_or(0, |c| self.sides[c.attacker].field_count())
                ),
            ),
            Refusal::NoCard => {
                Error::illegal("AG-6.3", format!("no own card on {x} to defend with"))
            }
            Refusal::Protected => Error::illegal(
                "AG-6.3",
                format!(
                    "{x} is protected by the card in front of it; only against a purely \
                     ranged attack may a protected card defend"
                ),
            ),
            Refusal::ProtectedNoRanged => Error::illegal(
                "AG-6.4",
                format!("{x} is protected and holds no archer or mage, so it cannot defend"),
            ),
        }
    }

    fn wrong_phase(&self, a: Action) -> Error {
        let now = match self.phase {
            Phase::Draft => match self.draft.as_ref().map(Draft::stage) {
                Some(Stage::Hide) => "the picker hides a drawn card (hide <card>)",
                _ => "a draft card is taken (take <card> / take ?)",
            },
            Phase::Terrain => "terrain cards are placed on rows (place T<n> <row>)",
            Phase::Deploy => "unit cards are deployed (deploy U<n> <cell>)",
            Phase::Combat => match self.combat.and_then(|c| c.attack) {
                None => "the attacker attacks or passes (attack <cell> / pass)",
                Some(_) => "the defender defends (defend <cell>)",
            },
            Phase::SuddenDeath => "sudden death: pick a victory card and a row (pick U<n> <row>)",
            Phase::Over => "nothing: the game is over",
        };
        let rule = if self.phase == Phase::Over {
            "AG-8.5"
        } else {
            "AG-1.5"
        };
        Error::illegal(
            rule,
            format!(
                "{} is not possible now: {now}",
                super::notation::notation(&self.set, a)
            ),
        )
    }

    /// Validate `a` for the current player without changing anything.
    pub(super) fn check(&self, a: Action) -> Result<()> {
        let set = &*self.set;
        let label = |c: Card| {
            if (c as usize) < set.len() {
                set.label(c)
            } else {
                format!("card #{c}")
            }
        };
        match (self.phase, a) {
            (Phase::Draft, Action::Hide(c)) => {
                let d = self.draft.as_ref().ok_or_else(|| self.wrong_phase(a))?;
                if d.stage() != Stage::Hide {
                    return Err(self.wrong_phase(a));
                }
                if d.slot_of(c).is_none() {
                    return Err(Error::illegal(
                        "AG-2.2",
                        format!("{} is not one of the three drawn cards", label(c)),
                    ));
                }
                Ok(())
            }
            (Phase::Draft, Action::Take(c)) => {
                let d = self.draft.as_ref().ok_or_else(|| self.wrong_phase(a))?;
                if d.stage() == Stage::Hide {
                    return Err(self.wrong_phase(a));
                }
                let rule = if d.stage() == Stage::Choose {
                    "AG-2.3"
                } else {
                    "AG-2.4"
                };
                // The face-down card is named as such only to a mover who knows it (the
                // picker); to the chooser it reads like any card not on offer (AG-9).
                let mover = self.current();
                match d.slot_of(c) {
                    Some(i) if d.hidden == Some(i as u8) && self.sees_slot(mover, d, i) => Err(
                        Error::illegal(rule, "that card is face down: take it with `take ?`"),
                    ),
                    Some(i) if d.hidden != Some(i as u8) => Ok(()),
                    _ => Err(Error::illegal(
                        rule,
                        format!("{} is not a draft card that can be taken", label(c)),
                    )),
                }
            }
            (Phase::Draft, Action::TakeHidden) => {
                let d = self.draft.as_ref().ok_or_else(|| self.wrong_phase(a))?;
                if d.stage() == Stage::Hide {
                    return Err(self.wrong_phase(a));
                }
                let rule = if d.stage() == Stage::Choose {
                    "AG-2.3"
                } else {
                    "AG-2.4"
                };
                match d.hidden {
                    Some(h) if d.slots[h as usize].is_some() => Ok(()),
                    _ => Err(Error::illegal(rule, "the face-down card has been taken")),
                }
            }
            (Phase::Terrain, Action::Place(t, row)) => {
                let p = self.placer().ok_or_else(|| self.wrong_phase(a))?;
                let s = &self.sides[p];
                if !s.has_terrain(t) {
                    return Err(Error::illegal(
                        "AG-3.2",
                        format!("{} is not a terrain card in your hand", label(t)),
                    ));
                }
                if s.placing.iter().any(|&(c, _)| c == t) {
                    return Err(Error::illegal(
                        "AG-3.2",
                        format!("{} is already placed", label(t)),
                    ));
                }
                if row > 2
                    || s.rows[row as usize].is_some()
                    || s.placing.iter().any(|&(_, r)| r == row)
                {
                    return Err(Error::illegal(
                        "AG-3.2",
                        format!("row {} already has its terrain", row + 1),
                    ));
                }
                Ok(())
            }
            (Phase::Deploy, Action::Deploy(u, cell)) => {
                let p = self.deployer().ok_or_else(|| self.wrong_phase(a))?;
                let s = &self.sides[p];
                if !s.has_unit(u) {
                    return Err(Error::illegal(
                        "AG-5.2",
                        format!("{} is not a unit card in your hand", label(u)),
                    ));
                }
                if s.deploying.iter().any(|&(c, _)| c == u) {
                    return Err(Error::illegal(
                        "AG-5.2",
                        format!("{} is already deployed this round", label(u)),
                    ));
                }
                if cell > 8
                    || s.field[cell as usize].is_some()
                    || s.deploying.iter().any(|&(_, x)| x == cell)
                {
                    return Err(Error::illegal(
                        "AG-5.2",
                        format!("cell {} is not empty", cell_name(cell % 9)),
                    ));
                }
                Ok(())
            }
            (Phase::Combat, Action::Attack(cell)) => {
                let c = self.combat.ok_or_else(|| self.wrong_phase(a))?;
                if c.attack.is_some() {
                    return Err(self.wrong_phase(a));
                }
                let s = &self.sides[c.attacker];
                if cell > 8 || s.field[cell as usize].is_none() {
                    return Err(Error::illegal(
                        "AG-6.2",
                        format!("no own card on {} to attack with", cell_name(cell % 9)),
                    ));
                }
                if s.protected(cell) {
                    return Err(Error::illegal(
                        "AG-6.2",
                        format!(
                            "{} is behind another card and cannot attack",
                            cell_name(cell)
                        ),
                    ));
                }
                Ok(())
            }
            (Phase::Combat, Action::Pass) => {
                let c = self.combat.ok_or_else(|| self.wrong_phase(a))?;
                if c.attack.is_some() {
                    return Err(self.wrong_phase(a));
                }
                match self.pass_refusal(&c) {
                    None => Ok(()),
                    Some(r) => Err(self.refusal_error(r, 0)),
                }
            }
            (Phase::Combat, Action::Defend(cell)) => {
                let c = self.combat.ok_or_else(|| self.wrong_phase(a))?;
                let att = c.attack.ok_or_else(|| self.wrong_phase(a))?;
                if cell > 8 {
                    return Err(Error::illegal("AG-6.3", "no such cell"));
                }
                match self.defend_refusal(c.attacker, att, cell) {
                    None => Ok(()),
                    Some(r) => Err(self.refusal_error(r, cell)),
                }
            }
            (Phase::SuddenDeath, Action::Pick(u, row)) => {
                let p = self.current().ok_or_else(|| self.wrong_phase(a))?;
                if !self.sides[p].victory.contains(&u) {
                    return Err(Error::illegal(
                        "AG-8.2",
                        format!("{} is not in your victory pile", label(u)),
                    ));
                }
                if !self.pick_rows().contains(&row) {
                    return Err(Error::illegal(
                        "AG-8.2",
                        "with sudden_death_row = \"front\" the card fights on row 1",
                    ));
                }
                Ok(())
            }
            _ => Err(self.wrong_phase(a)),
        }
    }

    // ---- effects ---------------------------------------------------------------------

    /// Validate, then play `a`; on `Err` nothing has changed.
    pub(super) fn play(&mut self, a: Action) -> Result<()> {
        self.check(a)?;
        self.play_checked(a);
        Ok(())
    }

    /// Play `a`, already accepted by [`Arte::check`].
    pub(super) fn play_checked(&mut self, a: Action) {
        match a {
            Action::Hide(c) => {
                if let Some(d) = &mut self.draft {
                    d.hidden = d.slot_of(c).map(|i| i as u8);
                }
            }
            Action::Take(c) => {
                let slot = self.draft.as_ref().and_then(|d| d.slot_of(c));
                if let Some(i) = slot {
                    self.take_slot(i);
                }
            }
            Action::TakeHidden => {
                let slot = self.draft.as_ref().and_then(|d| d.hidden);
                if let Some(i) = slot {
                    self.take_slot(i as usize);
                }
            }
            Action::Place(t, row) => {
                if let Some(p) = self.placer() {
                    self.sides[p].placing.push((t, row));
                }
                if self.placer().is_none() {
                    self.reveal_terrain();
                }
            }
            Action::Deploy(u, cell) => {
                if let Some(p) = self.deployer() {
                    let s = &mut self.sides[p];
                    match self.opts.deployment {
                        Deployment::Simultaneous => s.deploying.push((u, cell)),
                        Deployment::Alternating => {
                            s.units.retain(|h| h.card != u);
                            s.field[cell as usize] = Some(u);
                        }
                    }
                }
                if self.deployer().is_none() {
                    self.reveal_deployment();
                }
            }
            Action::Attack(cell) => {
                if let Some(c) = &mut self.combat {
                    c.attack = Some(cell);
                }
            }
            Action::Defend(cell) => self.resolve_combat(cell),
            Action::Pass => {
                if let Some(mut c) = self.combat {
                    c.turn = c.turn.saturating_add(1);
                    c.passes += 1;
                    c.attacker = 1 - c.attacker;
                    self.combat = Some(c);
                    // Two passes in a row end the round (AG-7.3).
                    if c.passes >= 2 {
                        self.end_round();
                    }
                }
            }
            Action::Pick(u, row) => {
                if let Some(p) = self.current() {
                    self.sides[p].pick = Some((u, row));
                }
                if self.sides.iter().all(|s| s.pick.is_some()) {
                    self.resolve_sudden_death();
                }
            }
        }
    }

    /// The current player takes draft slot `i`; after the picker's take the last card is
    /// revealed and discarded and the next draft begins (AG-2.3 to AG-2.5).
    fn take_slot(&mut self, i: usize) {
        let Some(d) = &mut self.draft else { return };
        let Some(card) = d.slots[i].take() else {
            return;
        };
        let stage_choose = d.taken.iter().all(Option::is_none);
        let player = if stage_choose { d.chooser() } else { d.picker };
        d.taken[i] = Some(player);
        // The picker keeping the face-down card keeps it secret from the chooser (AG-2.6);
        // a chooser who takes it took a card the picker has seen.
        let secret = !stage_choose && d.hidden == Some(i as u8);
        let held = Held { card, secret };
        let kind = d.kind;
        if stage_choose {
            self.add_to_hand(player, kind, held);
            return;
        }
        let rest = std::mem::take(&mut d.slots);
        self.add_to_hand(player, kind, held);
        self.discard.extend(rest.into_iter().flatten());
        self.draft = None;
        self.next_draft();
    }

    fn add_to_hand(&mut self, p: Player, kind: Kind, held: Held) {
        match kind {
            Kind::Terrain => self.sides[p].terrains.push(held),
            Kind::Units => self.sides[p].units.push(held),
        }
    }

    /// Draw the next draft, or go on to terrain placement after the twelfth (AG-2.1).
    pub(super) fn next_draft(&mut self) {
        let done = self.drafts_done();
        let kind = if done < TERRAIN_DRAFTS {
            Kind::Terrain
        } else if done < DRAFTS {
            Kind::Units
        } else {
            return self.start_placement();
        };
        let pile = &mut self.piles[kind as usize];
        if pile.len() < 3 {
            // Unreachable with a validated card set; a hand-built state ends the draft here.
            return self.start_placement();
        }
        let mut slots = [None; 3];
        for slot in &mut slots {
            *slot = pile.pop();
        }
        self.phase = Phase::Draft;
        self.draft = Some(Draft {
            kind,
            picker: self.draft_picker(done),
            slots,
            hidden: None,
            taken: [None; 3],
        });
    }

    fn start_placement(&mut self) {
        self.phase = Phase::Terrain;
        self.draft = None;
        if self.placer().is_none() {
            self.reveal_terrain();
        }
    }

    /// Both players have placed their terrain: turn the rows face up, toss the coin for the
    /// first attacker and start round 1 (AG-3.2, AG-5.1).
    fn reveal_terrain(&mut self) {
        for s in &mut self.sides {
            for (t, row) in std::mem::take(&mut s.placing) {
                s.terrains.retain(|h| h.card != t);
                s.rows[row as usize] = Some(t);
            }
        }
        self.first_attacker = Some(self.rng.below(2));
        self.start_round(1);
    }

    fn start_round(&mut self, round: u8) {
        self.round = round;
        self.phase = Phase::Deploy;
        self.combat = None;
        if self.deployer().is_none() {
            self.reveal_deployment();
        }
    }

    /// Both players have deployed: the cards are face up and combat begins, unless a side has
    /// no card (AG-5.2, AG-7.4).
    fn reveal_deployment(&mut self) {
        for s in &mut self.sides {
            for (u, cell) in std::mem::take(&mut s.deploying) {
                s.units.retain(|h| h.card != u);
                s.field[cell as usize] = Some(u);
            }
        }
        if self.sides.iter().any(|s| s.field_count() == 0) {
            self.end_round();
        } else {
            self.phase = Phase::Combat;
            self.combat = Some(Combat {
                attacker: self.round_first(self.round),
                turn: 0,
                passes: 0,
                attack: None,
            });
        }
    }

    /// The attack score, defence score and whether only ranged units count, for the attack
    /// on the current combat with the defender's card on `def_cell`.
    pub(super) fn combat_scores(&self, att_cell: u8, def_cell: u8) -> Option<(u32, u32, bool)> {
        let attacker = self.combat?.attacker;
        let (a, d) = (&self.sides[attacker], &self.sides[1 - attacker]);
        let ac = a.field[att_cell as usize]?;
        let dc = d.field[def_cell as usize]?;
        Some(score_combat(
            &self.set,
            self.opts.ranged_scoring,
            (a, ac, att_cell),
            (d, dc, def_cell),
        ))
    }

    fn resolve_combat(&mut self, def_cell: u8) {
        let Some(mut c) = self.combat else { return };
        let Some(att_cell) = c.attack else { return };
        let Some((attack, defence, _)) = self.combat_scores(att_cell, def_cell) else {
            return;
        };
        let attacker = c.attacker;
        let defender = 1 - attacker;
        let ac = self.sides[attacker].field[att_cell as usize].take();
        let dc = self.sides[defender].field[def_cell as usize].take();
        let (Some(ac), Some(dc)) = (ac, dc) else {
            return;
        };
        // The winning card to its owner's victory pile, the other to the defeated (AG-6.6).
        if attack_wins(attack, defence) {
            self.sides[attacker].victory.push(ac);
            self.sides[defender].defeated.push(dc);
        } else {
            self.sides[defender].victory.push(dc);
            self.sides[attacker].defeated.push(ac);
        }
        c.attack = None;
        c.turn = c.turn.saturating_add(1);
        c.passes = 0;
        c.attacker = defender;
        self.combat = Some(c);
        if self.sides.iter().any(|s| s.field_count() == 0) {
            self.end_round();
        }
    }

    /// Every card still on a field goes to its owner's victory pile; the next round or the
    /// end of the game follows (AG-7.5, AG-8.1).
    fn end_round(&mut self) {
        for s in &mut self.sides {
            for cell in 0..9 {
                if let Some(c) = s.field[cell].take() {
                    s.victory.push(c);
                }
            }
        }
        self.combat = None;
        if self.round < ROUNDS {
            self.start_round(self.round + 1);
        } else {
            self.finish();
        }
    }

    fn finish(&mut self) {
        let (v0, v1) = (self.sides[0].victory.len(), self.sides[1].victory.len());
        if v0 != v1 {
            self.phase = Phase::Over;
            self.winner = Some(if v0 > v1 { 0 } else { 1 });
        } else if v0 == 0 {
            // Only a hand-built state can get here: nothing to fight the sudden death with.
            self.phase = Phase::Over;
            self.winner = None;
        } else {
            self.phase = Phase::SuddenDeath;
        }
    }

    /// Sudden death: the attacker's card on its row against the defender's (AG-8.3).
    fn resolve_sudden_death(&mut self) {
        let att = self.sd_attacker();
        let def = 1 - att;
        let (Some((ac, ar)), Some((dc, dr))) = (self.sides[att].pick, self.sides[def].pick) else {
            return;
        };
        let (attack, defence) =
            sudden_death_scores(&self.set, &self.sides, att, (ac, ar), (dc, dr));
        self.phase = Phase::Over;
        self.winner = Some(if attack_wins(attack, defence) {
            att
        } else {
            def
        });
    }
}

/// Scores of an attack `(side, card, cell)` against a defence, with the ranged-defence rule:
/// returns (attack, defence, ranged_only).
pub(super) fn score_combat(
    set: &CardSet,
    mode: RangedScoring,
    (a, ac, att_cell): (&Side, Card, u8),
    (d, dc, def_cell): (&Side, Card, u8),
) -> (u32, u32, bool) {
    let acard = set.unit_card(ac);
    let dcard = set.unit_card(dc);
    let ranged_only = acard.only_ranged()
        && match mode {
            // Only when the defender uses the exception: it stands behind another card.
            RangedScoring::Exception => d.protected(def_cell),
            // Whenever a card holding ranged units meets a purely ranged attack.
            RangedScoring::RangedDefender => dcard.any_ranged(),
        };
    let (ar, dr) = ((att_cell / 3) as usize, (def_cell / 3) as usize);
    let terrain = |s: &Side, r: usize| {
        s.rows[r]
            .filter(|&t| set.is_terrain(t))
            .map(|t| set.terrain_card(t))
    };
    (
        card_score(acard, terrain(a, ar), ar, true, ranged_only),
        card_score(dcard, terrain(d, dr), dr, false, ranged_only),
        ranged_only,
    )
}

/// Sudden-death scores: attack (with the row bonus) and defence, each on its chosen row.
pub(super) fn sudden_death_scores(
    set: &CardSet,
    sides: &[Side; 2],
    att: Player,
    (ac, ar): (Card, u8),
    (dc, dr): (Card, u8),
) -> (u32, u32) {
    let terrain = |p: Player, r: u8| {
        sides[p].rows[r as usize]
            .filter(|&t| set.is_terrain(t))
            .map(|t| set.terrain_card(t))
    };
    (
        card_score(
            set.unit_card(ac),
            terrain(att, ar),
            ar as usize,
            true,
            false,
        ),
        card_score(
            set.unit_card(dc),
            terrain(1 - att, dr),
            dr as usize,
            false,
            false,
        ),
    )
}

/// Cards in ascending id order, without allocating (hands are kept in the order they were
/// drawn, which views rely on).
fn sorted(cards: impl Iterator<Item = Card>) -> impl Iterator<Item = Card> {
    let mut bits = [0u64; 4];
    for c in cards {
        bits[(c >> 6) as usize] |= 1 << (c & 63);
    }
    (0..4usize).flat_map(move |w| {
        let mut word = bits[w];
        std::iter::from_fn(move || {
            if word == 0 {
                return None;
            }
            let b = word.trailing_zeros();
            word &= word - 1;
            Some((w * 64 + b as usize) as Card)
        })
    })
}
