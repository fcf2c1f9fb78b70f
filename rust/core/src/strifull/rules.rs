//! The turn machine: which decisions exist in each step (legal actions, generated in
//! ascending id order), why an action is illegal (with its rule id), and applying actions.

use super::content::ELEMENTS;
use super::effects::{Effect, To};
use super::notation::Action;
use super::state::{
    cell_at, row_of, zone_of, Cell, FirstRoll, Outcome, Side, Step, Strifull, CELLS, DIRS,
    MAX_CHANGES,
};
use crate::error::{Error, Result};

/// Why an action is illegal. Built without allocating: move generation rejects many
/// candidates through the same checks, and only `check` turns a reason into an [`Error`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Illegal {
    rule: &'static str,
    /// The reason; `{}` stands for `arg`.
    text: &'static str,
    arg: usize,
}

impl Illegal {
    fn error(self) -> Error {
        Error::illegal(self.rule, self.text.replace("{}", &self.arg.to_string()))
    }
}

fn err<T>(rule: &'static str, text: &'static str) -> std::result::Result<T, Illegal> {
    Err(Illegal { rule, text, arg: 0 })
}

fn err_n<T>(rule: &'static str, text: &'static str, arg: usize) -> std::result::Result<T, Illegal> {
    Err(Illegal { rule, text, arg })
}

impl Strifull {
    /// Call `f` on every legal action in ascending id order; `f` returns false to stop.
    pub(crate) fn for_each_legal(&self, mut f: impl FnMut(Action) -> bool) {
        self.gen_step(self.step, self.actor as usize, &mut f);
    }

    /// Whether `step` offers player `p` anything but `pass`.
    fn has_choice(&self, step: Step, p: usize) -> bool {
        let mut found = false;
        self.gen_step(step, p, &mut |a| {
            if a != Action::Pass {
                found = true;
                return false;
            }
            true
        });
        found
    }

    fn gen_step<F: FnMut(Action) -> bool>(&self, step: Step, p: usize, f: &mut F) {
        macro_rules! emit {
            ($a:expr) => {
                if !f($a) {
                    return;
                }
            };
        }
        let side = &self.sides[p];
        match step {
            Step::Over => {}
            Step::Changes => {
                emit!(Action::Pass);
                if side.changes >= MAX_CHANGES {
                    return;
                }
                for a in 0..CELLS {
                    for b in a + 1..CELLS {
                        if self.swap_error(p, a, b).is_ok() {
                            emit!(Action::Swap(a as u8, b as u8));
                        }
                    }
                }
                for c in 0..CELLS {
                    if self.pile_swap_error(p, c).is_ok() {
                        emit!(Action::PileSwap(c as u8));
                    }
                }
            }
            Step::Element => {
                for e in ELEMENTS {
                    emit!(Action::Element(e));
                }
            }
            Step::LeaderRow | Step::LeaderMove | Step::Relocate => {
                if step == Step::LeaderMove {
                    emit!(Action::Pass);
                }
                for r in 1..=3u8 {
                    if self.leader_error(step, p, r).is_ok() {
                        emit!(Action::Leader(r));
                    }
                }
            }
            Step::Move => {
                emit!(Action::Pass);
                // The conditions of `move_error`, with the half-row counts computed once
                // (the property tests check that both agree on every id).
                let mut half = [[0u8; 3]; 2];
                for c in 0..CELLS {
                    if side.cells[c].occupied() {
                        half[zone_of(c)][row_of(c) - 1] += 1;
                    }
                }
                let only_row = self
                    .shared
                    .options
                    .moves_in_leader_row_only
                    .then_some(side.leader_row as usize);
                for c in 0..CELLS {
                    if side.cells[c].is_empty() || only_row.is_some_and(|r| r != row_of(c)) {
                        continue;
                    }
                    let (z, r) = (zone_of(c), row_of(c));
                    for d in DIRS {
                        let Some(to) = d.dest(c) else { continue };
                        if !side.live[row_of(to) - 1] {
                            continue;
                        }
                        let changes_half = zone_of(to) != z || row_of(to) != r;
                        if side.cells[to].is_empty() && changes_half && half[z][r - 1] == 1 {
                            continue;
                        }
                        emit!(Action::Move(c as u8, d));
                    }
                }
                if !side.pile.is_empty() {
                    for c in 0..CELLS {
                        if side.cells[c].occupied() {
                            emit!(Action::Replace(c as u8));
                        }
                    }
                }
            }
            Step::Ability => {
                emit!(Action::Pass);
                // Nothing to target without a usable activated ability.
                let usable = !self.ability_used
                    && self
                        .leader(p)
                        .activated()
                        .is_some_and(|ab| ab.uses.is_none_or(|u| self.sides[p].uses < u));
                if !usable {
                    return;
                }
                for c in 0..CELLS {
                    if self.ability_error(p, true, c).is_ok() {
                        emit!(Action::AbilityFoe(c as u8));
                    }
                }
                for c in 0..CELLS {
                    if self.ability_error(p, false, c).is_ok() {
                        emit!(Action::AbilityOwn(c as u8));
                    }
                }
            }
            Step::Attack => {
                let masks = self.all_attack_targets(p);
                let any = masks.iter().any(|&m| m != 0);
                for (a, &mask) in masks.iter().enumerate() {
                    for t in 0..9 {
                        if mask & (1 << t) != 0 {
                            // A pass is legal only without any attack, so it comes first
                            // (id 0) only in that case; attacks are emitted in id order.
                            emit!(Action::Attack(a as u8, (9 + t) as u8));
                        }
                    }
                }
                if !any {
                    emit!(Action::Pass);
                }
            }
            Step::StepUp => {
                emit!(Action::Pass);
                emit!(Action::StepUp);
            }
        }
    }

    // ---- why an action is illegal ------------------------------------------------------

    fn swap_error(&self, p: usize, a: usize, b: usize) -> std::result::Result<(), Illegal> {
        let s = &self.sides[p];
        changes_left(s)?;
        if a == b || a >= CELLS || b >= CELLS {
            return err("SK-3.3", "a swap needs two different cells");
        }
        if s.cells[a].is_empty() || s.cells[b].is_empty() {
            return err("SK-3.3", "a setup swap exchanges two of your troops");
        }
        Ok(())
    }

    fn pile_swap_error(&self, p: usize, c: usize) -> std::result::Result<(), Illegal> {
        let s = &self.sides[p];
        changes_left(s)?;
        if s.pile.is_empty() {
            return err("SK-3.3", "the pile is empty");
        }
        if s.cells[c].is_empty() {
            return err("SK-3.3", "no troop there to swap with the pile");
        }
        Ok(())
    }

    fn leader_error(&self, step: Step, p: usize, r: u8) -> std::result::Result<(), Illegal> {
        let s = &self.sides[p];
        let r = r as usize;
        match step {
            Step::LeaderRow => {
                if !s.row_live(r) {
                    return err_n("SK-3.5", "row {} is eliminated", r);
                }
            }
            Step::LeaderMove => {
                if !s.row_live(r) {
                    return err_n("SK-4.5", "row {} is eliminated", r);
                }
                if r == s.leader_row as usize {
                    return err_n("SK-4.5", "the leader already stands in row {}", r);
                }
            }
            Step::Relocate => {
                let here = s.leader_row as usize;
                if !s.row_live(r) || here.abs_diff(r) != 1 {
                    return err_n(
                        "SK-7.2",
                        "the leader moves from fallen row {} to an adjacent live row",
                        here,
                    );
                }
            }
            _ => return err("SK-4.1", "the leader does not move in this step"),
        }
        Ok(())
    }

    pub(crate) fn move_error(
        &self,
        p: usize,
        c: usize,
        d: super::state::Dir,
    ) -> std::result::Result<(), Illegal> {
        let s = &self.sides[p];
        if c >= CELLS || s.cells[c].is_empty() {
            return err("SK-4.2", "no troop of yours stands there");
        }
        let Some(to) = d.dest(c) else {
            return err("SK-4.2", "that move leaves the zone");
        };
        if self.shared.options.moves_in_leader_row_only && row_of(c) != s.leader_row as usize {
            return err(
                "SK-4.2",
                "with moves_in_leader_row_only, only a troop in the leader's row moves",
            );
        }
        if !s.row_live(row_of(to)) {
            return err_n("SK-4.2", "row {} is eliminated", row_of(to));
        }
        let changes_half = zone_of(c) != zone_of(to) || row_of(c) != row_of(to);
        if s.cells[to].is_empty() && changes_half && s.half_count(zone_of(c), row_of(c)) == 1 {
            return err(
                "SK-4.3",
                "that move would empty half a row; rows fall only to attacks",
            );
        }
        Ok(())
    }

    fn replace_error(&self, p: usize, c: usize) -> std::result::Result<(), Illegal> {
        let s = &self.sides[p];
        if c >= CELLS || s.cells[c].is_empty() {
            return err("SK-4.4", "no troop of yours stands there");
        }
        if s.pile.is_empty() {
            return err("SK-4.4", "the pile is empty");
        }
        Ok(())
    }

    fn ability_error(&self, p: usize, foe: bool, c: usize) -> std::result::Result<(), Illegal> {
        let Some(ab) = self.leader(p).activated() else {
            return err("SK-4.6", "this leader has no activated ability");
        };
        if self.ability_used {
            return err("SK-4.6", "the leader's ability was used this turn");
        }
        if let Some(u) = ab.uses {
            if self.sides[p].uses >= u {
                return err_n("SK-4.6", "the ability's {} uses are spent", u as usize);
            }
        }
        let wants_foe = ab.to == To::Foe;
        if wants_foe != foe {
            return err(
                "SK-4.6",
                if wants_foe {
                    "this ability targets an opposing troop"
                } else {
                    "this ability targets an own troop"
                },
            );
        }
        let side = if foe { 1 - p } else { p };
        let cell = match self.sides[side].cells.get(c) {
            Some(cell) if cell.occupied() => *cell,
            _ => return err("SK-4.6", "no troop stands there"),
        };
        if ab.effect == Effect::Reveal && cell.revealed {
            return err("SK-4.6", "that troop is already face up");
        }
        if !self.holds(
            &ab.cond,
            p,
            self.sides[p].leader_row as usize,
            side,
            c,
            None,
        ) {
            return err(
                "SK-4.6",
                "that troop does not meet the ability's conditions",
            );
        }
        Ok(())
    }

    fn attack_error(&self, p: usize, a: usize, t: usize) -> std::result::Result<(), Illegal> {
        if a >= 9 || self.sides[p].cells[a].is_empty() {
            return err("SK-5.1", "attack with one of your attack-zone troops");
        }
        if !(9..CELLS).contains(&t) || self.sides[1 - p].cells[t].is_empty() {
            return err("SK-5.2", "the target is an opposing defence-zone troop");
        }
        if self.attack_targets(p, a) & (1 << (t - 9)) == 0 {
            return err(
                "SK-5.3",
                "not a frontal target (first troop of the column) nor a flank target (next to an empty cell)",
            );
        }
        Ok(())
    }

    /// Full validation of `a` for the player to act.
    pub(crate) fn check(&self, a: Action) -> Result<()> {
        let p = self.actor as usize;
        let wrong = |rule: &'static str, what: &str| -> Result<()> {
            Err(Error::illegal(
                rule,
                format!(
                    "player {p} is in step {:?}: {what}; {} is not one",
                    self.step.name(),
                    a.notation()
                ),
            ))
        };
        let r = match (self.step, a) {
            (Step::Over, _) => return Err(Error::illegal("SK-8.1", "the game is over")),
            (Step::Changes, Action::Pass) => Ok(()),
            (Step::Changes, Action::Swap(x, y)) => self.swap_error(p, x as usize, y as usize),
            (Step::Changes, Action::PileSwap(c)) => self.pile_swap_error(p, c as usize),
            (Step::Changes, _) => return wrong("SK-3.3", "swap X Y, swap X pile or pass"),
            (Step::Element, Action::Element(_)) => Ok(()),
            (Step::Element, _) => return wrong("SK-3.4", "choose the leader's element"),
            (Step::LeaderRow, Action::Leader(r)) => self.leader_error(Step::LeaderRow, p, r),
            (Step::LeaderRow, _) => return wrong("SK-3.5", "place the leader in a row"),
            (Step::Move, Action::Pass) => Ok(()),
            (Step::Move, Action::Move(c, d)) => self.move_error(p, c as usize, d),
            (Step::Move, Action::Replace(c)) => self.replace_error(p, c as usize),
            (Step::Move, _) => return wrong("SK-4.1", "a battle move, a replace or pass"),
            (Step::LeaderMove, Action::Pass) => Ok(()),
            (Step::LeaderMove, Action::Leader(r)) => self.leader_error(Step::LeaderMove, p, r),
            (Step::LeaderMove, _) => return wrong("SK-4.1", "leader R or pass"),
            (Step::Ability, Action::Pass) => Ok(()),
            (Step::Ability, Action::AbilityFoe(c)) => self.ability_error(p, true, c as usize),
            (Step::Ability, Action::AbilityOwn(c)) => self.ability_error(p, false, c as usize),
            (Step::Ability, _) => return wrong("SK-4.1", "the leader's ability or pass"),
            (Step::Attack, Action::Attack(x, t)) => self.attack_error(p, x as usize, t as usize),
            (Step::Attack, Action::Pass) => {
                if self.has_choice(Step::Attack, p) {
                    err("SK-4.7", "the attack is not optional while one is possible")
                } else {
                    Ok(())
                }
            }
            (Step::Attack, _) => return wrong("SK-4.7", "an attack"),
            (Step::Relocate, Action::Leader(r)) => self.leader_error(Step::Relocate, p, r),
            (Step::Relocate, _) => return wrong("SK-7.2", "the leader's new row"),
            (Step::StepUp, Action::StepUp | Action::Pass) => Ok(()),
            (Step::StepUp, _) => return wrong("SK-7.3", "up or pass"),
        };
        r.map_err(Illegal::error)
    }

    // ---- applying ------------------------------------------------------------------------

    /// Apply an action already validated by [`Strifull::check`].
    pub(crate) fn apply_checked(&mut self, a: Action) {
        let p = self.actor as usize;
        match (self.step, a) {
            (Step::Changes, Action::Swap(x, y)) => {
                self.sides[p].cells.swap(x as usize, y as usize);
                self.after_change(p);
            }
            (Step::Changes, Action::PileSwap(c)) => {
                let s = &mut self.sides[p];
                if let Some(top) = s.pile.pop() {
                    let old = s.cells[c as usize].card;
                    s.cells[c as usize] = Cell::new(top);
                    s.pile_known = s.pile_known.min(s.pile.len() as u8);
                    s.pile.push_bottom(old);
                    s.pile_known += 1;
                }
                self.after_change(p);
            }
            (Step::Changes, _) => self.step = Step::Element,
            (Step::Element, Action::Element(e)) => {
                self.sides[p].element = Some(e);
                self.step = Step::LeaderRow;
            }
            (Step::LeaderRow, Action::Leader(r)) => {
                self.sides[p].leader_row = r;
                if p == 0 {
                    self.actor = 1;
                    self.step = Step::Changes;
                } else {
                    self.roll_first_player();
                }
            }
            (Step::Move, Action::Move(c, d)) => {
                if let Some(to) = d.dest(c as usize) {
                    self.sides[p].cells.swap(c as usize, to);
                }
                self.advance(Step::LeaderMove);
            }
            (Step::Move, Action::Replace(c)) => {
                let s = &mut self.sides[p];
                if let Some(top) = s.pile.pop() {
                    s.grave.push(s.cells[c as usize].card);
                    s.cells[c as usize] = Cell::new(top);
                    s.pile_known = s.pile_known.min(s.pile.len() as u8);
                }
                self.advance(Step::LeaderMove);
            }
            (Step::Move, _) => self.advance(Step::LeaderMove),
            (Step::LeaderMove, Action::Leader(r)) => {
                self.sides[p].leader_row = r;
                self.advance(Step::Ability);
            }
            (Step::LeaderMove, _) => self.advance(Step::Ability),
            (Step::Ability, Action::AbilityFoe(c)) => {
                self.use_ability(p, 1 - p, c as usize);
                self.advance(Step::Attack);
            }
            (Step::Ability, Action::AbilityOwn(c)) => {
                self.use_ability(p, p, c as usize);
                self.advance(Step::Attack);
            }
            (Step::Ability, _) => self.advance(Step::Attack),
            (Step::Attack, Action::Attack(x, t)) => {
                self.resolve_attack(x as usize, t as usize);
                self.next_pending();
            }
            (Step::Attack, _) => self.end_turn(),
            (Step::Relocate, Action::Leader(r)) => {
                self.sides[p].leader_row = r;
                self.pop_pending();
                self.next_pending();
            }
            (Step::StepUp, act) => {
                if act == Action::StepUp {
                    self.step_up(p);
                }
                self.pop_pending();
                self.next_pending();
            }
            // `check` admits nothing else.
            _ => {}
        }
    }

    fn after_change(&mut self, p: usize) {
        self.sides[p].changes += 1;
        if self.sides[p].changes >= MAX_CHANGES {
            self.step = Step::Element;
        }
    }

    /// SK-3.6: both roll a die, ties reroll; the higher starts.
    fn roll_first_player(&mut self) {
        let mut rerolls = 0u8;
        let dice = loop {
            let d = [self.rng.roll(6) as u8, self.rng.roll(6) as u8];
            if d[0] != d[1] {
                break d;
            }
            rerolls = rerolls.saturating_add(1);
        };
        let first = u8::from(dice[1] > dice[0]);
        self.first = Some(FirstRoll {
            player: first,
            dice,
            rerolls,
        });
        self.turn = 1;
        self.turn_player = first;
        self.begin_turn();
    }

    /// SK-4.8: the turn player's turn starts: turn-start abilities, then step I.
    fn begin_turn(&mut self) {
        let p = self.turn_player as usize;
        self.actor = p as u8;
        self.ability_used = false;
        self.turn_mod = None;
        self.turn_start_effects(p);
        self.advance(Step::Move);
    }

    fn end_turn(&mut self) {
        self.turn_player = 1 - self.turn_player;
        self.turn = self.turn.saturating_add(1);
        self.begin_turn();
    }

    /// Go to `step` of the turn, skipping optional steps that offer nothing but `pass`
    /// (SK-4.1).
    fn advance(&mut self, mut step: Step) {
        let p = self.turn_player as usize;
        self.actor = p as u8;
        loop {
            match step {
                Step::Move | Step::LeaderMove | Step::Ability if !self.has_choice(step, p) => {
                    step = match step {
                        Step::Move => Step::LeaderMove,
                        Step::LeaderMove => Step::Ability,
                        _ => Step::Attack,
                    };
                }
                _ => break,
            }
        }
        self.step = step;
    }

    /// After an attack: the next owed decision (SK-7.2, SK-7.3), else the next turn.
    fn next_pending(&mut self) {
        if self.outcome != Outcome::Running {
            self.step = Step::Over;
            self.pending_len = 0;
            return;
        }
        match self.pending_slice().first() {
            Some(&(q, st)) => {
                self.step = st;
                self.actor = q;
            }
            None => self.end_turn(),
        }
    }

    fn use_ability(&mut self, p: usize, side: usize, c: usize) {
        let Some(ab) = self.leader(p).activated().copied() else {
            return;
        };
        match ab.effect {
            Effect::Reveal => self.sides[side].cells[c].revealed = true,
            Effect::Stat { atk, def } => {
                self.turn_mod = Some(super::state::TurnMod {
                    side: side as u8,
                    cell: c as u8,
                    atk,
                    def,
                })
            }
            _ => {}
        }
        self.sides[p].uses = self.sides[p].uses.saturating_add(1);
        self.ability_used = true;
    }

    /// SK-7.3: the cards of row 3 (and a leader there) move up to fallen row 2.
    fn step_up(&mut self, p: usize) {
        let s = &mut self.sides[p];
        if s.live[1] || !s.live[2] {
            return;
        }
        for z in 0..2 {
            for k in 0..3 {
                s.cells[cell_at(z, 2, k)] = s.cells[cell_at(z, 3, k)];
                s.cells[cell_at(z, 3, k)] = Cell::NONE;
            }
        }
        s.live[1] = true;
        s.live[2] = false;
        if s.leader_row == 3 {
            s.leader_row = 2;
        }
    }
}

/// SK-3.3: a side has a setup change left.
fn changes_left(s: &Side) -> std::result::Result<(), Illegal> {
    if s.changes >= MAX_CHANGES {
        return err_n(
            "SK-3.3",
            "all {} setup changes are made",
            MAX_CHANGES as usize,
        );
    }
    Ok(())
}
