//! The rules: setup, legal actions, validation with rule ids, and the effects of each action
//! with the automatic steps that follow (draws, reveals, round ends, scoring). Rule ids refer
//! to `docs/rules/arte-da-guerra.md`.

use super::cards::{Card, CardSet, UnitCard};
use super::combat::{attack_wins, card_score};
use super::notation::{cell_name, Action};
use super::state::{
    Arte, Combat, Draft, Held, Kind, Phase, Side, Stage, DRAFTS, ROUNDS, TERRAIN_DRAFTS,
};
use super::{Deployment, Options, RangedScoring, SuddenDeathRow};
use crate::error::{Error, Result};
use crate::game::Player;
use crate::rng::GameRng;

/// Why an action is illegal now. Built without allocating (move generation rejects many
/// candidates through the same conditions); only `check` words it, with its rule id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Illegal {
    /// Not an action of this phase or stage (AG-1.5; AG-8.5 once over).
    WrongPhase,
    NotDrawn(Card),
    FaceDown,
    NotOffered(Card),
    HiddenTaken,
    TerrainNotInHand(Card),
    UnitNotInHand(Card),
    AlreadyPlaced(Card),
    RowTaken(u8),
    AlreadyDeployed(Card),
    CellTaken(u8),
    NoAttacker(u8),
    BehindAnother(u8),
    FirstTurn,
    ThreeCards(usize),
    NoDefender(u8),
    Protected(u8),
    ProtectedNoRanged(u8),
    NotWon(Card),
    FrontRowOnly,
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

    // ---- legality: one set of conditions ---------------------------------------------
    //
    // Each kind of action has one function saying why it is illegal now (`Err(Illegal)`),
    // built without allocating. `legal` offers every candidate of the phase that its
    // function accepts; `check` runs the same function and only then words the refusal.

    /// The legal actions, generated directly in ascending id order (see `notation`).
    pub(super) fn legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let mut offer = |a: Action, ok: bool| {
            if ok {
                out.push(a);
            }
        };
        match self.phase {
            Phase::Draft => {
                let Some(d) = &self.draft else { return };
                let drawn = || sorted(d.slots.iter().flatten().copied());
                if d.stage() == Stage::Hide {
                    for c in drawn() {
                        offer(Action::Hide(c), self.hide_illegal(c).is_ok());
                    }
                } else {
                    offer(Action::TakeHidden, self.take_hidden_illegal().is_ok());
                    for c in drawn() {
                        offer(Action::Take(c), self.take_illegal(c).is_ok());
                    }
                }
            }
            Phase::Terrain => {
                let Some(p) = self.placer() else { return };
                let s = &self.sides[p];
                // place_illegal, its card and row conditions apart (each checked once).
                let rows = [0, 1, 2].map(|r| place_row_illegal(s, r).is_ok());
                for t in sorted(s.terrains.iter().map(|h| h.card)) {
                    if place_card_illegal(s, t).is_ok() {
                        for (row, free) in (0..3).zip(rows) {
                            offer(Action::Place(t, row), free);
                        }
                    }
                }
            }
            Phase::Deploy => {
                let Some(p) = self.deployer() else { return };
                let s = &self.sides[p];
                // deploy_illegal, its card and cell conditions apart (each checked once).
                let mut cells = [false; 9];
                for (cell, free) in (0..9).zip(cells.iter_mut()) {
                    *free = deploy_cell_illegal(s, cell).is_ok();
                }
                for u in sorted(s.units.iter().map(|h| h.card)) {
                    if deploy_card_illegal(s, u).is_ok() {
                        for (cell, free) in (0..9).zip(cells) {
                            offer(Action::Deploy(u, cell), free);
                        }
                    }
                }
            }
            Phase::Combat => {
                let Some(c) = self.combat else { return };
                if c.attack.is_none() {
                    offer(Action::Pass, self.pass_illegal().is_ok());
                    for cell in 0..9 {
                        offer(Action::Attack(cell), self.attack_illegal(cell).is_ok());
                    }
                } else {
                    for cell in 0..9 {
                        offer(Action::Defend(cell), self.defend_illegal(cell).is_ok());
                    }
                }
            }
            Phase::SuddenDeath => {
                let Some(p) = self.current() else { return };
                for card in sorted(self.sides[p].victory.iter().copied()) {
                    for row in 0..3 {
                        offer(
                            Action::Pick(card, row),
                            self.pick_illegal(card, row).is_ok(),
                        );
                    }
                }
            }
            Phase::Over => {}
        }
    }

    /// Validate `a` for the current player without changing anything.
    pub(super) fn check(&self, a: Action) -> Result<()> {
        let verdict = match a {
            Action::Hide(c) => self.hide_illegal(c),
            Action::Take(c) => self.take_illegal(c),
            Action::TakeHidden => self.take_hidden_illegal(),
            Action::Place(t, row) => match self.placer() {
                Some(p) if self.phase == Phase::Terrain => place_illegal(&self.sides[p], t, row),
                _ => Err(Illegal::WrongPhase),
            },
            Action::Deploy(u, cell) => match self.deployer() {
                Some(p) if self.phase == Phase::Deploy => deploy_illegal(&self.sides[p], u, cell),
                _ => Err(Illegal::WrongPhase),
            },
            Action::Attack(cell) => self.attack_illegal(cell),
            Action::Pass => self.pass_illegal(),
            Action::Defend(cell) => self.defend_illegal(cell),
            Action::Pick(u, row) => self.pick_illegal(u, row),
        };
        verdict.map_err(|why| self.refusal(why, a))
    }

    /// The draft in progress, at a stage where `hiding` says whether a card is to be hidden.
    fn draft_at(&self, hiding: bool) -> Result<&Draft, Illegal> {
        match &self.draft {
            Some(d) if self.phase == Phase::Draft && (d.stage() == Stage::Hide) == hiding => Ok(d),
            _ => Err(Illegal::WrongPhase),
        }
    }

    /// AG-2.2: the picker hides one of the three drawn cards.
    fn hide_illegal(&self, c: Card) -> Result<(), Illegal> {
        let d = self.draft_at(true)?;
        d.slot_of(c).map(|_| ()).ok_or(Illegal::NotDrawn(c))
    }

    /// AG-2.3, AG-2.4: take a face-up draft card. The face-down card is named as such only
    /// to a mover who knows it (the picker); to the chooser it reads like any card not on
    /// offer (AG-9.2).
    fn take_illegal(&self, c: Card) -> Result<(), Illegal> {
        let d = self.draft_at(false)?;
        match d.slot_of(c) {
            Some(i) if d.hidden != Some(i as u8) => Ok(()),
            Some(i) if self.sees_slot(self.current(), d, i) => Err(Illegal::FaceDown),
            _ => Err(Illegal::NotOffered(c)),
        }
    }

    /// AG-2.3, AG-2.4: take the face-down card, if nobody has.
    fn take_hidden_illegal(&self) -> Result<(), Illegal> {
        let d = self.draft_at(false)?;
        match d.hidden {
            Some(h) if d.slots.get(h as usize).is_some_and(Option::is_some) => Ok(()),
            _ => Err(Illegal::HiddenTaken),
        }
    }

    /// AG-6.2: attack with an own card that nothing stands in front of.
    fn attack_illegal(&self, cell: u8) -> Result<(), Illegal> {
        let c = self.combat.filter(|c| c.attack.is_none());
        let c = c
            .filter(|_| self.phase == Phase::Combat)
            .ok_or(Illegal::WrongPhase)?;
        let s = &self.sides[c.attacker];
        if s.field.get(cell as usize).is_none_or(Option::is_none) {
            Err(Illegal::NoAttacker(cell))
        } else if s.protected(cell) {
            Err(Illegal::BehindAnother(cell))
        } else {
            Ok(())
        }
    }

    /// AG-7.1, AG-7.2: pass, not on either player's first turn of the round (turns 0 and 1
    /// alternate between the players), and only with at most two cards.
    fn pass_illegal(&self) -> Result<(), Illegal> {
        let c = self.combat.filter(|c| c.attack.is_none());
        let c = c
            .filter(|_| self.phase == Phase::Combat)
            .ok_or(Illegal::WrongPhase)?;
        let on_field = self.sides[c.attacker].field_count();
        if c.turn < 2 {
            Err(Illegal::FirstTurn)
        } else if on_field > 2 {
            Err(Illegal::ThreeCards(on_field))
        } else {
            Ok(())
        }
    }

    /// AG-6.3, AG-6.4: defend with an own card; a protected one only against a purely ranged
    /// attack, and only if it holds an archer or mage.
    fn defend_illegal(&self, cell: u8) -> Result<(), Illegal> {
        let c = self.combat.filter(|_| self.phase == Phase::Combat);
        let (c, att) = c
            .and_then(|c| Some((c, c.attack?)))
            .ok_or(Illegal::WrongPhase)?;
        let d = &self.sides[1 - c.attacker];
        let Some(card) = d.field.get(cell as usize).copied().flatten() else {
            return Err(Illegal::NoDefender(cell));
        };
        if !d.protected(cell) {
            return Ok(());
        }
        let attacking = self.sides[c.attacker]
            .field
            .get(att as usize)
            .copied()
            .flatten();
        if !attacking.is_some_and(|a| self.set.unit_card(a).only_ranged()) {
            Err(Illegal::Protected(cell))
        } else if self.set.unit_card(card).any_ranged() {
            Ok(())
        } else {
            Err(Illegal::ProtectedNoRanged(cell))
        }
    }

    /// AG-8.2: a card of the own victory pile, on a row the options allow.
    fn pick_illegal(&self, u: Card, row: u8) -> Result<(), Illegal> {
        let p = self
            .current()
            .filter(|_| self.phase == Phase::SuddenDeath)
            .ok_or(Illegal::WrongPhase)?;
        if !self.sides[p].victory.contains(&u) {
            Err(Illegal::NotWon(u))
        } else if !self.pick_rows().contains(&row) {
            Err(Illegal::FrontRowOnly)
        } else {
            Ok(())
        }
    }

    fn pick_rows(&self) -> std::ops::Range<u8> {
        match self.opts.sudden_death_row {
            SuddenDeathRow::Chosen => 0..3,
            SuddenDeathRow::Front => 0..1,
        }
    }

    /// The refusal of `a` for `why`, with its rule id.
    fn refusal(&self, why: Illegal, a: Action) -> Error {
        let set = &*self.set;
        let label = |c: Card| {
            if (c as usize) < set.len() {
                set.label(c)
            } else {
                format!("card #{c}")
            }
        };
        let x = |cell: u8| cell_name(cell % 9);
        // Taking in the draft breaks AG-2.3 for the chooser, AG-2.4 for the picker.
        let take_rule = || match self.draft.as_ref().map(Draft::stage) {
            Some(Stage::Choose) => "AG-2.3",
            _ => "AG-2.4",
        };
        match why {
            Illegal::WrongPhase => self.wrong_phase(a),
            Illegal::NotDrawn(c) => Error::illegal(
                "AG-2.2",
                format!("{} is not one of the three drawn cards", label(c)),
            ),
            Illegal::FaceDown => {
                Error::illegal(take_rule(), "that card is face down: take it with `take ?`")
            }
            Illegal::NotOffered(c) => Error::illegal(
                take_rule(),
                format!("{} is not a draft card that can be taken", label(c)),
            ),
            Illegal::HiddenTaken => {
                Error::illegal(take_rule(), "the face-down card has been taken")
            }
            Illegal::TerrainNotInHand(c) => Error::illegal(
                "AG-3.2",
                format!("{} is not a terrain card in your hand", label(c)),
            ),
            Illegal::UnitNotInHand(c) => Error::illegal(
                "AG-5.2",
                format!("{} is not a unit card in your hand", label(c)),
            ),
            Illegal::AlreadyPlaced(c) => {
                Error::illegal("AG-3.2", format!("{} is already placed", label(c)))
            }
            Illegal::RowTaken(row) => {
                Error::illegal("AG-3.2", format!("row {} already has its terrain", row + 1))
            }
            Illegal::AlreadyDeployed(c) => Error::illegal(
                "AG-5.2",
                format!("{} is already deployed this round", label(c)),
            ),
            Illegal::CellTaken(cell) => {
                Error::illegal("AG-5.2", format!("cell {} is not empty", x(cell)))
            }
            Illegal::NoAttacker(cell) => Error::illegal(
                "AG-6.2",
                format!("no own card on {} to attack with", x(cell)),
            ),
            Illegal::BehindAnother(cell) => Error::illegal(
                "AG-6.2",
                format!("{} is behind another card and cannot attack", x(cell)),
            ),
            Illegal::FirstTurn => Error::illegal(
                "AG-7.1",
                "each player's first turn of a round must attack; passing is not allowed",
            ),
            Illegal::ThreeCards(n) => Error::illegal(
                "AG-7.2",
                format!("a player may pass only with at most two cards on the field ({n} there)"),
            ),
            Illegal::NoDefender(cell) if cell > 8 => Error::illegal("AG-6.3", "no such cell"),
            Illegal::NoDefender(cell) => Error::illegal(
                "AG-6.3",
                format!("no own card on {} to defend with", x(cell)),
            ),
            Illegal::Protected(cell) => Error::illegal(
                "AG-6.3",
                format!(
                    "{} is protected by the card in front of it; only against a purely \
                     ranged attack may a protected card defend",
                    x(cell)
                ),
            ),
            Illegal::ProtectedNoRanged(cell) => Error::illegal(
                "AG-6.4",
                format!(
                    "{} is protected and holds no archer or mage, so it cannot defend",
                    x(cell)
                ),
            ),
            Illegal::NotWon(c) => Error::illegal(
                "AG-8.2",
                format!("{} is not in your victory pile", label(c)),
            ),
            Illegal::FrontRowOnly => Error::illegal(
                "AG-8.2",
                "with sudden_death_row = \"front\" the card fights on row 1",
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

    // ---- effects ---------------------------------------------------------------------

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
    let ranged_only = ranged_only(mode, acard, dcard, d.protected(def_cell));
    let (ar, dr) = ((att_cell / 3) as usize, (def_cell / 3) as usize);
    let terrain = |s: &Side, r: usize| set.row_terrain(s.rows[r]);
    (
        card_score(acard, terrain(a, ar), ar, true, ranged_only),
        card_score(dcard, terrain(d, dr), dr, false, ranged_only),
        ranged_only,
    )
}

/// AG-6.4: does only the archers' and mages' score count when `acard` attacks `dcard` (the
/// defender protected or not)?
pub(super) fn ranged_only(
    mode: RangedScoring,
    acard: &UnitCard,
    dcard: &UnitCard,
    def_protected: bool,
) -> bool {
    acard.only_ranged()
        && match mode {
            // Only when the defender uses the exception: it stands behind another card.
            RangedScoring::Exception => def_protected,
            // Whenever a card holding ranged units meets a purely ranged attack.
            RangedScoring::RangedDefender => dcard.any_ranged(),
        }
}

/// AG-6.4: may `dcard`, protected, defend against `acard`? Only against a purely ranged
/// attack, and only if it holds ranged units (the legality check names which part fails).
pub(super) fn reaches_protected(acard: &UnitCard, dcard: &UnitCard) -> bool {
    acard.only_ranged() && dcard.any_ranged()
}

/// Sudden-death scores: attack (with the row bonus) and defence, each on its chosen row.
pub(super) fn sudden_death_scores(
    set: &CardSet,
    sides: &[Side; 2],
    att: Player,
    (ac, ar): (Card, u8),
    (dc, dr): (Card, u8),
) -> (u32, u32) {
    let terrain = |p: Player, r: u8| set.row_terrain(sides[p].rows[r as usize]);
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

/// AG-3.2: place a terrain card of the hand, not yet placed, on a row without terrain.
fn place_illegal(s: &Side, t: Card, row: u8) -> Result<(), Illegal> {
    place_card_illegal(s, t)?;
    place_row_illegal(s, row)
}

fn place_card_illegal(s: &Side, t: Card) -> Result<(), Illegal> {
    if !s.has_terrain(t) {
        Err(Illegal::TerrainNotInHand(t))
    } else if s.placing.iter().any(|&(c, _)| c == t) {
        Err(Illegal::AlreadyPlaced(t))
    } else {
        Ok(())
    }
}

fn place_row_illegal(s: &Side, row: u8) -> Result<(), Illegal> {
    if s.rows.get(row as usize).is_none_or(Option::is_some)
        || s.placing.iter().any(|&(_, r)| r == row)
    {
        Err(Illegal::RowTaken(row))
    } else {
        Ok(())
    }
}

/// AG-5.2: deploy a unit card of the hand, not yet deployed, on an empty cell.
fn deploy_illegal(s: &Side, u: Card, cell: u8) -> Result<(), Illegal> {
    deploy_card_illegal(s, u)?;
    deploy_cell_illegal(s, cell)
}

fn deploy_card_illegal(s: &Side, u: Card) -> Result<(), Illegal> {
    if !s.has_unit(u) {
        Err(Illegal::UnitNotInHand(u))
    } else if s.deploying.iter().any(|&(c, _)| c == u) {
        Err(Illegal::AlreadyDeployed(u))
    } else {
        Ok(())
    }
}

fn deploy_cell_illegal(s: &Side, cell: u8) -> Result<(), Illegal> {
    if s.field.get(cell as usize).is_none_or(Option::is_some)
        || s.deploying.iter().any(|&(_, x)| x == cell)
    {
        Err(Illegal::CellTaken(cell))
    } else {
        Ok(())
    }
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
