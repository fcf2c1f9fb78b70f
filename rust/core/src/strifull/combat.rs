//! Attacks and abilities in play: targets (SK-5), combat values with every modifier
//! (SK-6.1-6.4, SK-9), the dice and the result (SK-6.5-6.8), row elimination and its
//! consequences (SK-7), victory (SK-8), and turn-start growth.

use super::content::{Element, TroopCard};
use super::effects::{Ability, Cond, Effect, ElemSel, RowSel, To, Trigger};
use super::state::{
    cell_at, col_of, row_of, zone_of, Cell, CombatLog, CombatResult, Outcome, Step, Strifull,
    CELLS, EMPTY, LEADER_SOURCE,
};
use super::MutualWipeout;

/// The troop an ability query is about: where it stands, its role in combat (the trigger
/// that applies to it) and its combat opponent's cell on the other side.
#[derive(Clone, Copy)]
struct Subject {
    side: usize,
    cell: usize,
    combat: Option<Trigger>,
    foe_cell: Option<usize>,
}

impl Strifull {
    /// Whether `cond` holds for the troop at (`side`, `cell`), for an ability owned by player
    /// `owner` whose source stands in `source_row` (a leader: the leader's row). `foe` is the
    /// subject's opponent in combat, if any.
    pub(crate) fn holds(
        &self,
        cond: &Cond,
        owner: usize,
        source_row: usize,
        side: usize,
        cell: usize,
        foe: Option<Element>,
    ) -> bool {
        let own = &self.sides[owner];
        if let Some(z) = cond.zone {
            if zone_of(cell) != z.index() {
                return false;
            }
        }
        if let Some(r) = cond.row {
            let row = row_of(cell);
            let ok = match r {
                RowSel::Row(n) => row == n as usize,
                RowSel::Leader => row == own.leader_row as usize,
                RowSel::Same => row == source_row,
            };
            if !ok {
                return false;
            }
        }
        if let Some(e) = cond.element {
            let card = self.sides[side].cells[cell].card;
            if card == super::state::EMPTY {
                return false;
            }
            let mine = self.troop(card).element;
            let ok = match e {
                ElemSel::Is(x) => mine == x,
                ElemSel::Leader => own.element == Some(mine),
            };
            if !ok {
                return false;
            }
        }
        if let Some(e) = cond.foe_element {
            let Some(f) = foe else { return false };
            let ok = match e {
                ElemSel::Is(x) => f == x,
                ElemSel::Leader => own.element == Some(f),
            };
            if !ok {
                return false;
            }
        }
        true
    }

    fn card_at(&self, side: usize, cell: usize) -> &TroopCard {
        self.troop(self.sides[side].cells[cell].card)
    }

    /// Every ability that reaches the subject with an effect of the kinds in `want` (bits of
    /// `Effect::bit`): from its own card (face up or in its own combat), from the face-up
    /// troops in `sources` (see [`Strifull::aura_sources`]), from both leaders, and from its
    /// combat opponent's card and leader (`to = "foe"`). Calls `f` for each whose conditions
    /// hold.
    fn each_reaching(
        &self,
        subject: Subject,
        want: u16,
        sources: u64,
        f: &mut dyn FnMut(&Ability),
    ) {
        let Subject {
            side,
            cell,
            combat,
            foe_cell,
        } = subject;
        let foe_side = 1 - side;
        let foe = foe_cell.map(|c| self.card_at(foe_side, c).element);
        let row = row_of(cell);
        let wanted = |ab: &Ability| ab.effect.bit() & want != 0;
        // The subject's own card: continuous and its combat trigger, reaching itself.
        let me = self.card_at(side, cell);
        for ab in me.abilities.iter().filter(|_| me.kinds & want != 0) {
            if wanted(ab)
                && ab.to == To::Subject
                && (ab.trigger == Trigger::WhileRevealed || Some(ab.trigger) == combat)
                && self.holds(&ab.cond, side, row, side, cell, foe)
            {
                f(ab);
            }
        }
        // Other face-up troops on both fields: continuous effects on allies / enemies.
        let mut bits = sources;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (s, c) = (i / CELLS, i % CELLS);
            if s == side && c == cell {
                continue;
            }
            let src = self.troop(self.sides[s].cells[c].card);
            if src.reach_kinds & want == 0 {
                continue;
            }
            for ab in &src.abilities {
                let reaches = match ab.to {
                    To::Allies => s == side,
                    To::Enemies => s != side,
                    _ => false,
                };
                if reaches
                    && wanted(ab)
                    && ab.trigger == Trigger::WhileRevealed
                    && self.holds(&ab.cond, s, row_of(c), side, cell, foe)
                {
                    f(ab);
                }
            }
        }
        // Leaders: continuous effects, and the subject's leader's combat trigger.
        for s in 0..2 {
            let lrow = self.sides[s].leader_row as usize;
            let leader = self.leader(s);
            if leader.kinds & want == 0 {
                continue;
            }
            for ab in &leader.abilities {
                if !wanted(ab) {
                    continue;
                }
                let reaches = match (ab.trigger, ab.to) {
                    (Trigger::WhileRevealed, To::Allies) => s == side,
                    (Trigger::WhileRevealed, To::Enemies) => s != side,
                    (t, To::Subject) => s == side && Some(t) == combat,
                    _ => false,
                };
                if reaches && self.holds(&ab.cond, s, lrow, side, cell, foe) {
                    f(ab);
                }
            }
        }
        // The foe's own card and leader: combat effects aimed at their foe (`to = "foe"`).
        let foe_trig = match combat {
            Some(Trigger::OnAttack) => Some(Trigger::OnDefence),
            Some(Trigger::OnDefence) => Some(Trigger::OnAttack),
            _ => None,
        };
        if let (Some(fc), Some(foe_trig)) = (foe_cell, foe_trig) {
            let mine = Some(self.card_at(side, cell).element);
            for ab in &self.card_at(foe_side, fc).abilities {
                if wanted(ab)
                    && ab.to == To::Foe
                    && ab.trigger == foe_trig
                    && self.holds(&ab.cond, foe_side, row_of(fc), foe_side, fc, mine)
                {
                    f(ab);
                }
            }
            let lrow = self.sides[foe_side].leader_row as usize;
            for ab in &self.leader(foe_side).abilities {
                if wanted(ab)
                    && ab.to == To::Foe
                    && ab.trigger == foe_trig
                    && self.holds(&ab.cond, foe_side, lrow, foe_side, fc, mine)
                {
                    f(ab);
                }
            }
        }
    }

    /// The face-up troops whose abilities reach other troops (bit `side * 18 + cell`): the
    /// only cards besides the combatants and leaders whose abilities can matter.
    pub(crate) fn aura_sources(&self) -> u64 {
        let mut bits = 0u64;
        for s in 0..2 {
            for (c, cell) in self.sides[s].cells.iter().enumerate() {
                if cell.occupied() && cell.revealed && self.troop(cell.card).reach_kinds != 0 {
                    bits |= 1 << (s * CELLS + c);
                }
            }
        }
        bits
    }

    /// SK-5.4: may the troop at attack cell `a` of player `p` attack any defence cell?
    /// `allies_may` says whether any allied source (a face-up troop reaching allies, or the
    /// leader) has an attack_any effect at all; without one only the troop's own card
    /// needs a look.
    pub(crate) fn can_attack_any(
        &self,
        p: usize,
        a: usize,
        allies_may: bool,
        sources: u64,
    ) -> bool {
        if !allies_may && self.card_at(p, a).kinds & Effect::ATTACK_ANY == 0 {
            return false;
        }
        let mut any = false;
        self.each_reaching(
            Subject {
                side: p,
                cell: a,
                combat: Some(Trigger::OnAttack),
                foe_cell: None,
            },
            Effect::ATTACK_ANY,
            sources,
            &mut |_| any = true,
        );
        any
    }

    /// Whether some allied source other than a troop's own card could grant attack_any.
    fn allies_may_attack_any(&self, p: usize) -> bool {
        self.leader(p).kinds & Effect::ATTACK_ANY != 0
            || self.sides[p].cells.iter().any(|c| {
                c.occupied()
                    && c.revealed
                    && self.troop(c.card).reach_kinds & Effect::ATTACK_ANY != 0
            })
    }

    /// The opponent's defence zone as seen by player `p`'s attackers: (occupied cells,
    /// flank targets, frontal target of each column), as 9-bit masks over the zone
    /// (bit `(row - 1) * 3 + column`).
    fn defence_masks(&self, p: usize) -> (u16, u16, [u16; 3]) {
        let foe = &self.sides[1 - p];
        let mut occ = 0u16;
        let mut live = 0u16;
        for i in 0..9 {
            if foe.cells[9 + i].occupied() {
                occ |= 1 << i;
            }
            if foe.live[i / 3] {
                live |= 1 << i;
            }
        }
        const ALL: u16 = 0o777;
        const COL_A: u16 = 0b001_001_001;
        const COL_C: u16 = 0b100_100_100;
        // SK-5.3: a flank opens next to an empty cell (of a live row, unless the option
        // counts eliminated rows' cells too).
        let mut open = !occ & ALL;
        if !self.shared.options.dead_cells_open_flanks {
            open &= live;
        }
        let near_open =
            ((open << 3) | (open >> 3) | ((open << 1) & !COL_A) | ((open >> 1) & !COL_C)) & ALL;
        let flank = occ & near_open;
        // SK-5.2: the frontal target is the first troop of the column (lowest row).
        let mut front = [0u16; 3];
        for (k, f) in front.iter_mut().enumerate() {
            for row in 0..3 {
                let bit = 1 << (row * 3 + k);
                if occ & bit != 0 {
                    *f = bit;
                    break;
                }
            }
        }
        (occ, flank, front)
    }

    /// The legal targets of player `p`'s troop at attack cell `a`: a bit mask over the
    /// opponent's defence cells (bit `cell - 9`). SK-5.2 frontal, SK-5.3 flank, SK-5.4.
    pub(crate) fn attack_targets(&self, p: usize, a: usize) -> u16 {
        let (occ, flank, front) = self.defence_masks(p);
        if self.can_attack_any(p, a, self.allies_may_attack_any(p), self.aura_sources()) {
            occ
        } else {
            flank | front[col_of(a)]
        }
    }

    /// [`Strifull::attack_targets`] for every attack cell of player `p` at once (0 for an
    /// empty cell).
    pub(crate) fn all_attack_targets(&self, p: usize) -> [u16; 9] {
        let (occ, flank, front) = self.defence_masks(p);
        let allies_may = self.allies_may_attack_any(p);
        let sources = if allies_may { self.aura_sources() } else { 0 };
        let mut out = [0u16; 9];
        for (a, m) in out.iter_mut().enumerate() {
            if self.sides[p].cells[a].is_empty() {
                continue;
            }
            *m = if self.can_attack_any(p, a, allies_may, sources) {
                occ
            } else {
                flank | front[col_of(a)]
            };
        }
        out
    }

    /// SK-9.3 use_defence: must the attacker of the troop at (`q`, `t`) use its DEF?
    pub(crate) fn forces_defence(&self, q: usize, t: usize, a: usize, sources: u64) -> bool {
        let mut any = false;
        self.each_reaching(
            Subject {
                side: q,
                cell: t,
                combat: Some(Trigger::OnDefence),
                foe_cell: Some(a),
            },
            Effect::USE_DEFENCE,
            sources,
            &mut |_| any = true,
        );
        any
    }

    /// SK-6.1-6.4: the combat value of the troop at (`side`, `cell`) against the troop at
    /// `foe_cell` of the other side, as attacker or defender.
    pub(crate) fn combat_value(
        &self,
        side: usize,
        cell: usize,
        attacking: bool,
        use_defence: bool,
        foe_cell: usize,
        sources: u64,
    ) -> i32 {
        let card = self.card_at(side, cell);
        let foe = self.card_at(1 - side, foe_cell);
        let on_atk = attacking && !use_defence;
        let pick = |atk: i8, def: i8| i32::from(if on_atk { atk } else { def });
        let here = self.sides[side].cells[cell];
        let mut v = pick(card.atk, card.def) + pick(here.atk, here.def);
        let trig = if attacking {
            Trigger::OnAttack
        } else {
            Trigger::OnDefence
        };
        self.each_reaching(
            Subject {
                side,
                cell,
                combat: Some(trig),
                foe_cell: Some(foe_cell),
            },
            Effect::STAT,
            sources,
            &mut |ab| {
                if let Effect::Stat { atk, def } = ab.effect {
                    v += pick(atk, def);
                }
            },
        );
        if let Some(m) = self.turn_mod {
            if m.side as usize == side && m.cell as usize == cell {
                v += pick(m.atk, m.def);
            }
        }
        let s = &self.sides[side];
        if s.element == Some(card.element) && row_of(cell) == s.leader_row as usize {
            v += 1; // SK-6.3
        }
        if card.element.beats(foe.element) {
            v += 1; // SK-6.4
        }
        v.max(0)
    }

    /// SK-9.3 tie: does the defeat of the troop at (`side`, `cell`) become a tie?
    fn defeat_is_tie(&self, side: usize, cell: usize, foe_cell: usize, sources: u64) -> bool {
        let mut any = false;
        self.each_reaching(
            Subject {
                side,
                cell,
                combat: Some(Trigger::OnDefeat),
                foe_cell: Some(foe_cell),
            },
            Effect::TIE,
            sources,
            &mut |_| any = true,
        );
        any
    }

    /// SK-9.3 survive: the die faces a falling troop survives on, one per ability (at
    /// most four are kept).
    fn survival_thresholds(
        &self,
        side: usize,
        cell: usize,
        foe_cell: usize,
        sources: u64,
    ) -> ([u8; 4], usize) {
        let mut out = [0u8; 4];
        let mut n = 0;
        self.each_reaching(
            Subject {
                side,
                cell,
                combat: Some(Trigger::OnDefeat),
                foe_cell: Some(foe_cell),
            },
            Effect::SURVIVE,
            sources,
            &mut |ab| {
                if let Effect::Survive { roll } = ab.effect {
                    if n < out.len() {
                        out[n] = roll;
                        n += 1;
                    }
                }
            },
        );
        (out, n)
    }

    /// Turn steps V-IX: player `turn_player`'s troop at `a` attacks the defence troop at `t`.
    pub(crate) fn resolve_attack(&mut self, a: usize, t: usize) {
        let p = self.turn_player as usize;
        let q = 1 - p;
        // SK-5.5: both are revealed.
        self.sides[p].cells[a].revealed = true;
        self.sides[q].cells[t].revealed = true;
        let cards = [self.sides[p].cells[a].card, self.sides[q].cells[t].card];
        let sources = self.aura_sources();
        let uses_defence = self.forces_defence(q, t, a, sources);
        let va = self.combat_value(p, a, true, uses_defence, t, sources);
        let vd = self.combat_value(q, t, false, false, a, sources);
        // SK-6.5: both roll; the side with the advantage adds it.
        let dice = [self.rng.roll(6) as u8, self.rng.roll(6) as u8];
        let adv = va - vd;
        let ta = i32::from(dice[0]) + adv.max(0);
        let td = i32::from(dice[1]) + (-adv).max(0);
        let result = match ta.cmp(&td) {
            std::cmp::Ordering::Greater => CombatResult::Attacker,
            std::cmp::Ordering::Less => CombatResult::Defender,
            std::cmp::Ordering::Equal => CombatResult::Tie,
        };
        // SK-6.6: the loser falls; a tie fells both.
        let mut fell = match result {
            CombatResult::Attacker => [false, true],
            CombatResult::Defender => [true, false],
            CombatResult::Tie => [true, true],
        };
        let lost = fell;
        // SK-6.7: a defeat turned into a tie takes the winner too.
        let mut tie_by_ability = false;
        match result {
            CombatResult::Attacker if self.defeat_is_tie(q, t, a, sources) => {
                fell[0] = true;
                tie_by_ability = true;
            }
            CombatResult::Defender if self.defeat_is_tie(p, a, t, sources) => {
                fell[1] = true;
                tie_by_ability = true;
            }
            _ => {}
        }
        // SK-6.8: survival rolls for each defeated troop.
        let tie_is_defeat = self.shared.options.tie_is_defeat;
        let who = [(p, a, t), (q, t, a)];
        let mut survival = [[0u8; 2]; 2];
        let mut survived = [false; 2];
        for i in 0..2 {
            let defeated = fell[i] && (tie_is_defeat || (lost[i] && result != CombatResult::Tie));
            if !defeated {
                continue;
            }
            let (s, c, fc) = who[i];
            let mut k = 0;
            let (needs, n) = self.survival_thresholds(s, c, fc, sources);
            for &need in &needs[..n] {
                let die = self.rng.roll(6) as u8;
                if k < 2 {
                    survival[i][k] = die;
                    k += 1;
                }
                if die >= need {
                    survived[i] = true;
                    break;
                }
            }
        }
        for i in 0..2 {
            if fell[i] && !survived[i] {
                let (s, c, _) = who[i];
                let card = self.sides[s].cells[c].card;
                self.sides[s].grave.push(card);
                self.sides[s].cells[c] = Cell::NONE;
            }
        }
        // SK-7.1: rows with an empty half fall.
        let rows_lost = [self.eliminate_rows(p), self.eliminate_rows(q)];
        self.last_combat = Some(CombatLog {
            player: p as u8,
            cells: [a as u8, t as u8],
            cards,
            values: [clamp8(va), clamp8(vd)],
            uses_defence,
            dice,
            result,
            tie_by_ability,
            fell,
            survival,
            survived,
            rows_lost,
        });
        // SK-8: victory.
        let out = [
            self.sides[p].live_rows() == 0,
            self.sides[q].live_rows() == 0,
        ];
        self.outcome = match out {
            [true, true] => match self.shared.options.mutual_wipeout {
                MutualWipeout::Draw => Outcome::Draw,
                MutualWipeout::AttackerWins => Outcome::Win(p as u8),
            },
            [true, false] => Outcome::Win(q as u8),
            [false, true] => Outcome::Win(p as u8),
            [false, false] => Outcome::Running,
        };
        if self.outcome != Outcome::Running {
            return;
        }
        // SK-7.2, SK-7.3: the consequences, attacker's side first.
        for (s, lost) in [(p, rows_lost[0]), (q, rows_lost[1])] {
            self.after_rows_lost(s, lost);
        }
    }

    /// SK-7.1: eliminate every live row of `side` with an empty attack or defence half;
    /// returns the eliminated rows as bits (row r = bit r-1).
    fn eliminate_rows(&mut self, side: usize) -> u8 {
        let mut bits = 0u8;
        for row in 1..=3 {
            let s = &self.sides[side];
            if !s.row_live(row) || (s.half_count(0, row) > 0 && s.half_count(1, row) > 0) {
                continue;
            }
            let s = &mut self.sides[side];
            for z in 0..2 {
                for k in 0..3 {
                    let c = cell_at(z, row, k);
                    if s.cells[c].occupied() {
                        s.grave.push(s.cells[c].card);
                        s.cells[c] = Cell::NONE;
                    }
                }
            }
            s.live[row - 1] = false;
            bits |= 1 << (row - 1);
        }
        bits
    }

    /// SK-7.2 and SK-7.3 for a side that lost rows (bits) and still has a live row.
    fn after_rows_lost(&mut self, side: usize, lost: u8) {
        if lost == 0 {
            return;
        }
        let s = &self.sides[side];
        let here = s.leader_row as usize;
        if !s.row_live(here) {
            let adjacent: Vec<usize> = [here.wrapping_sub(1), here + 1]
                .into_iter()
                .filter(|&r| s.row_live(r))
                .collect();
            match adjacent.as_slice() {
                [r] => self.sides[side].leader_row = *r as u8,
                [_, _] => self.push_pending(side as u8, Step::Relocate),
                _ => {
                    // No adjacent live row: the nearest live one (there is exactly one).
                    if let Some(r) = (1..=3).find(|&r| s.row_live(r)) {
                        self.sides[side].leader_row = r as u8;
                    }
                }
            }
        }
        if lost & 0b010 != 0 && self.sides[side].live[2] {
            self.push_pending(side as u8, Step::StepUp);
        }
    }

    /// SK-9.1 turn_start: growth counters on player `p`'s face-up troops.
    pub(crate) fn turn_start_effects(&mut self, p: usize) {
        let any = self.leader(p).kinds & Effect::GROW != 0
            || self.sides[p].cells.iter().any(|c| {
                c.occupied() && c.revealed && self.troop(c.card).kinds & Effect::GROW != 0
            });
        if !any {
            return;
        }
        // (cell, source card, source ability as in `Growth`, atk, def, max)
        let mut grows: Vec<(usize, u8, u8, i8, i8, u8)> = Vec::new();
        for c in 0..CELLS {
            let cl = self.sides[p].cells[c];
            if cl.is_empty() || !cl.revealed {
                continue;
            }
            let row = row_of(c);
            for (ai, ab) in self.troop(cl.card).abilities.iter().enumerate() {
                if let (Trigger::TurnStart, To::Subject, Effect::Grow { atk, def, max }) =
                    (ab.trigger, ab.to, ab.effect)
                {
                    if self.holds(&ab.cond, p, row, p, c, None) {
                        grows.push((c, cl.card, ai as u8, atk, def, max));
                    }
                }
            }
            for src in 0..CELLS {
                let sc = self.sides[p].cells[src];
                if src == c || sc.is_empty() || !sc.revealed {
                    continue;
                }
                for (ai, ab) in self.troop(sc.card).abilities.iter().enumerate() {
                    if let (Trigger::TurnStart, To::Allies, Effect::Grow { atk, def, max }) =
                        (ab.trigger, ab.to, ab.effect)
                    {
                        if self.holds(&ab.cond, p, row_of(src), p, c, None) {
                            grows.push((c, sc.card, ai as u8, atk, def, max));
                        }
                    }
                }
            }
            let lrow = self.sides[p].leader_row as usize;
            for (ai, ab) in self.leader(p).abilities.iter().enumerate() {
                if let (Trigger::TurnStart, To::Allies, Effect::Grow { atk, def, max }) =
                    (ab.trigger, ab.to, ab.effect)
                {
                    if self.holds(&ab.cond, p, lrow, p, c, None) {
                        grows.push((c, EMPTY, ai as u8 | LEADER_SOURCE, atk, def, max));
                    }
                }
            }
        }
        // SK-9.1: each source keeps its own counter and its own cap; the counters add up.
        for (c, card, ability, atk, def, max) in grows {
            self.sides[p].cells[c].grow(card, ability, atk, def, max);
        }
    }
}

fn clamp8(v: i32) -> i8 {
    v.clamp(i8::MIN as i32, i8::MAX as i32) as i8
}
