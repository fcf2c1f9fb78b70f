//! The rule-based player (`Knowledge::heuristic_action`, issue 14): STRIFULL played by rules of
//! thumb, without search, from what the player to move sees (SK-10).
//!
//! Setup: swap troops so that each zone holds the troops whose stat it uses (ATK in attack,
//! DEF in defence, SK-6.1); the leader's token is the element most of the own troops share,
//! and the leader stands in the row with most of them (SK-6.3). Turns: a battle move or a
//! replacement only when it clearly improves that fit; the leader's ability on the own
//! attacker most likely to fight, or on an opposing defender; then the attack with the best
//! chance of winning its die roll (SK-6), counting double a kill that eliminates a row and
//! the risk of losing a troop that holds half a row alone. Face-down opposing troops count
//! as the mean of the opponent's unseen cards.

use super::effects::Effect;
use super::evaluate::{OTHER_STAT, ROW, TROOP, ZONE_STAT};
use super::notation::Action;
use super::state::{cell_at, row_of, zone_of, Step, Strifull, CELLS};
use crate::rng::GameRng;

/// Below this gain (in stat points) a setup change or battle move is not worth making.
const MOVE_MARGIN: f64 = 1.0;
/// The value of eliminating (or losing) a row, in troops.
const ROW_VALUE: f64 = 2.0;

/// The probability that the side with `adv` points of advantage over the other (negative: the
/// other has it) wins, ties and loses the 1d6-each roll (SK-6.2): the 36 rolls counted.
const fn roll_odds(adv: i32) -> (f64, f64, f64) {
    let (mut win, mut tie, mut lose) = (0, 0, 0);
    let mut a = 1;
    while a <= 6 {
        let mut b = 1;
        while b <= 6 {
            let d = a - b + adv;
            if d > 0 {
                win += 1;
            } else if d == 0 {
                tie += 1;
            } else {
                lose += 1;
            }
            b += 1;
        }
        a += 1;
    }
    (win as f64 / 36.0, tie as f64 / 36.0, lose as f64 / 36.0)
}

/// [`roll_odds`] of every advantage that changes the odds (beyond 6 points either way the
/// roll is decided), computed once: the attacks are judged at every attack step of the
/// settle of every search leaf (round 10 of issue 14: −3.3% instructions an iteration).
const ODDS: [(f64, f64, f64); 13] = {
    let mut t = [(0.0, 0.0, 0.0); 13];
    let mut i = 0;
    while i < 13 {
        t[i] = roll_odds(i as i32 - 6);
        i += 1;
    }
    t
};

/// [`roll_odds`] of an advantage, from [`ODDS`].
fn int_odds(adv: i32) -> (f64, f64, f64) {
    ODDS[(adv.clamp(-6, 6) + 6) as usize]
}

/// The heuristic player's move, `None` when the game is over.
pub(crate) fn heuristic_action(g: &Strifull, rng: &mut GameRng) -> Option<Action> {
    choose(g, rng, false)
}

/// The heuristic move with the attack judged by `evaluate`'s material
/// ([`Ctx::material_attack_score`]): a kill or a loss counts the troop, and when it empties
/// a half-row the row with every troop still in it (SK-7.1), instead of a troop, and two
/// more for a row.
pub(crate) fn material_action(g: &Strifull, rng: &mut GameRng) -> Option<Action> {
    choose(g, rng, true)
}

/// The search's routine decision ([`crate::knowledge::Knowledge::routine_action`], ISMCTS's opt-in
/// `routine`, off for STRIFULL by default: [`super::evaluate::SEARCH`]): below the root the
/// attack (SK-4.1 steps IV-IX) is played by [`material_action`] instead of branched on;
/// every other decision is searched.
pub(crate) fn routine_action(g: &Strifull, rng: &mut GameRng) -> Option<Action> {
    if g.step == Step::Attack {
        material_action(g, rng)
    } else {
        None
    }
}

fn choose(g: &Strifull, rng: &mut GameRng, material: bool) -> Option<Action> {
    let p = g.actor as usize;
    let mut best: Vec<Action> = Vec::new();
    let mut best_score = f64::NEG_INFINITY;
    let ctx = Ctx::new(g, p, material);
    g.for_each_legal(|a| {
        let s = ctx.score(a);
        if s > best_score + 1e-9 {
            best_score = s;
            best.clear();
            best.push(a);
        } else if (s - best_score).abs() <= 1e-9 {
            best.push(a);
        }
        true
    });
    rng.choose(&best).copied()
}

/// What the mover knows, computed once per decision.
struct Ctx<'a> {
    g: &'a Strifull,
    p: usize,
    /// Mean (ATK, DEF) of the opponent's cards the mover cannot see.
    unseen: (f64, f64),
    /// Mean (ATK, DEF) of the mover's pile (its multiset is known: deck minus field).
    pile: (f64, f64),
    /// Per own cell: the troop's (ATK, DEF) and whether it shares the leader's element,
    /// `None` for an empty cell. Only the setup and battle-move steps fill it: they judge
    /// up to 171 swaps, each reading four troops.
    own: [Option<(i8, i8, bool)>; CELLS],
    /// The face-up troops whose abilities reach others ([`Strifull::aura_sources`]), read
    /// once for every attack judged.
    sources: u64,
    /// The attack judged by material ([`Ctx::material_attack_score`]).
    material: bool,
}

impl<'a> Ctx<'a> {
    fn new(g: &'a Strifull, p: usize, material: bool) -> Ctx<'a> {
        let q = 1 - p;
        let mean = |cards: &mut dyn Iterator<Item = u8>| {
            let (mut a, mut d, mut n) = (0.0, 0.0, 0.0);
            for c in cards {
                let t = g.troop(c);
                a += f64::from(t.atk);
                d += f64::from(t.def);
                n += 1.0;
            }
            if n == 0.0 {
                (3.5, 3.5)
            } else {
                (a / n, d / n)
            }
        };
        let s = &g.sides[q];
        let unseen = mean(
            &mut s
                .cells
                .iter()
                .filter(|c| c.occupied() && !c.revealed)
                .map(|c| c.card)
                .chain(s.pile.as_slice().iter().copied()),
        );
        let pile = mean(&mut g.sides[p].pile.as_slice().iter().copied());
        let mut own = [None; CELLS];
        if matches!(g.step, Step::Changes | Step::Move) {
            let side = &g.sides[p];
            for (o, cell) in own.iter_mut().zip(&side.cells) {
                if cell.occupied() {
                    let t = g.troop(cell.card);
                    *o = Some((t.atk, t.def, side.element == Some(t.element)));
                }
            }
        }
        let sources = if g.step == Step::Attack {
            g.aura_sources()
        } else {
            0
        };
        Ctx {
            g,
            p,
            unseen,
            pile,
            own,
            sources,
            material,
        }
    }

    /// How well the own troop now at cell `from` would fit cell `c`: the stat its zone uses,
    /// plus the leader bonus in the leader's row (SK-6.1, SK-6.3); 0 for an empty cell.
    fn fit(&self, from: usize, c: usize) -> f64 {
        let Some((atk, def, leader_element)) = self.own[from] else {
            return 0.0;
        };
        let stat = if zone_of(c) == 0 { atk } else { def };
        let bonus = leader_element && row_of(c) == self.g.sides[self.p].leader_row as usize;
        f64::from(stat) + f64::from(u8::from(bonus))
    }

    /// The fit of the whole field after swapping the contents of cells `a` and `b`, minus
    /// before.
    fn swap_gain(&self, a: usize, b: usize) -> f64 {
        self.fit(b, a) + self.fit(a, b) - self.fit(a, a) - self.fit(b, b)
    }

    /// Own troops in `row` of the element `e`.
    fn row_count(&self, row: usize, e: Option<super::content::Element>) -> f64 {
        let s = &self.g.sides[self.p];
        (0..CELLS)
            .filter(|&c| row_of(c) == row && s.cells[c].occupied())
            .filter(|&c| e.is_none_or(|e| self.g.troop(s.cells[c].card).element == e))
            .count() as f64
    }

    fn score(&self, a: Action) -> f64 {
        let g = self.g;
        let s = &g.sides[self.p];
        match (g.step, a) {
            (Step::StepUp, Action::StepUp) => 1.0,
            (Step::LeaderMove, Action::Pass) => {
                // Stay unless another row holds clearly more troops of the leader's element.
                self.row_count(s.leader_row as usize, s.element) + MOVE_MARGIN
            }
            (_, Action::Pass) => 0.0,
            (_, Action::Swap(x, y)) => self.swap_gain(x as usize, y as usize) - MOVE_MARGIN,
            (_, Action::PileSwap(c)) => {
                let c = c as usize;
                let (atk, def) = self.pile;
                let mean = if zone_of(c) == 0 { atk } else { def };
                mean - self.fit(c, c) - 2.0 * MOVE_MARGIN
            }
            (_, Action::Element(e)) => (1..=3).map(|r| self.row_count(r, Some(e))).sum(),
            (_, Action::Leader(r)) => {
                // The row with most troops of the token's element; defence rows weigh less.
                self.row_count(r as usize, s.element) + 0.1 * self.row_count(r as usize, None)
            }
            (_, Action::Move(c, d)) => match d.dest(c as usize) {
                Some(to) => self.swap_gain(c as usize, to) - MOVE_MARGIN,
                None => f64::NEG_INFINITY,
            },
            (_, Action::Replace(c)) => {
                let c = c as usize;
                let (atk, def) = self.pile;
                let mean = if zone_of(c) == 0 { atk } else { def };
                // The replaced troop is lost for good: only a clearly weak one goes.
                mean - self.fit(c, c) - 2.0 * MOVE_MARGIN
            }
            (_, Action::AbilityOwn(c)) => {
                let c = c as usize;
                let t = g.troop(s.cells[c].card);
                // The attacker most likely to fight next: the strongest in the attack zone.
                let stat = if zone_of(c) == 0 { t.atk } else { t.def / 2 };
                0.5 + f64::from(stat) / 10.0
            }
            (_, Action::AbilityFoe(c)) => {
                let c = c as usize;
                let q = 1 - self.p;
                let cell = g.sides[q].cells[c];
                let reveal = g
                    .leader(self.p)
                    .activated()
                    .is_some_and(|ab| matches!(ab.effect, Effect::Reveal));
                let known = g.sees(Some(self.p), q, c);
                let def = if known {
                    f64::from(g.troop(cell.card).def)
                } else {
                    self.unseen.1
                };
                let base = if reveal && known { 0.1 } else { 0.5 };
                base + if zone_of(c) == 1 { def / 10.0 } else { 0.0 }
            }
            (_, Action::Attack(att, t)) if self.material => {
                self.material_attack_score(att as usize, t as usize)
            }
            (_, Action::Attack(att, t)) => self.attack_score(att as usize, t as usize),
            _ => 0.0,
        }
    }

    /// The expected gain of attacking the opposing troop at `t` with the own troop at `a`:
    /// +1 a kill, -1 a loss, a row for emptying a half-row (SK-7).
    fn attack_score(&self, a: usize, t: usize) -> f64 {
        let g = self.g;
        let (p, q) = (self.p, 1 - self.p);
        let (win, tie, lose) = self.attack_odds(a, t);
        let kills_row = g.sides[q].half_count(1, row_of(t)) == 1;
        let loses_row = g.sides[p].half_count(0, row_of(a)) == 1;
        let kill = 1.0 + if kills_row { ROW_VALUE } else { 0.0 };
        let loss = 1.0 + if loses_row { ROW_VALUE } else { 0.0 };
        (win + tie) * kill - (lose + tie) * loss
    }

    /// What `evaluate` counts for side `side`'s troop at `c` (its troop weight and its
    /// stats, the one its zone uses weighted more, SK-6.1), as the mover sees it: a troop
    /// the mover cannot see at the mean of the opponent's unseen cards.
    fn material(&self, side: usize, c: usize) -> f64 {
        let g = self.g;
        let cell = g.sides[side].cells[c];
        let (atk, def) = if g.sees(Some(self.p), side, c) {
            let t = g.troop(cell.card);
            (
                f64::from(t.atk) + f64::from(cell.atk),
                f64::from(t.def) + f64::from(cell.def),
            )
        } else {
            self.unseen
        };
        let (zone_stat, other) = if zone_of(c) == 0 {
            (atk, def)
        } else {
            (def, atk)
        };
        TROOP + ZONE_STAT * zone_stat + OTHER_STAT * other
    }

    /// What side `side` loses when its troop at `c` falls: the troop, and when it held its
    /// half-row alone the row, with every troop still in it (SK-7.1).
    fn fall(&self, side: usize, c: usize) -> f64 {
        let s = &self.g.sides[side];
        let row = row_of(c);
        if s.half_count(zone_of(c), row) > 1 {
            return self.material(side, c);
        }
        let mut v = ROW;
        for zone in 0..2 {
            for col in 0..3 {
                let x = cell_at(zone, row, col);
                if s.cells[x].occupied() {
                    v += self.material(side, x);
                }
            }
        }
        v
    }

    /// The attack judged by `evaluate`'s material: the chance of a kill (win or tie) times
    /// what the opponent loses, minus the chance of a loss (lose or tie) times what the
    /// mover loses, each a troop or a row with its content ([`Ctx::fall`]); the odds are
    /// [`Ctx::attack_odds`], as [`Ctx::attack_score`]'s.
    fn material_attack_score(&self, a: usize, t: usize) -> f64 {
        let (p, q) = (self.p, 1 - self.p);
        let (win, tie, lose) = self.attack_odds(a, t);
        (win + tie) * self.fall(q, t) - (lose + tie) * self.fall(p, a)
    }

    /// The odds (win, tie, lose) of the mover's troop at `a` attacking the opposing troop at
    /// `t` (SK-7), as the mover sees them: an unseen defender at the unseen mean, against the
    /// attacker's own numbers.
    fn attack_odds(&self, a: usize, t: usize) -> (f64, f64, f64) {
        let g = self.g;
        let (p, q) = (self.p, 1 - self.p);
        let (av, dv) = if g.sees(Some(p), q, t) {
            let sources = self.sources;
            let use_def = g.forces_defence(q, t, a, sources);
            (
                g.combat_value(p, a, true, use_def, t, sources),
                g.combat_value(q, t, false, false, a, sources),
            )
        } else {
            let cell = g.sides[p].cells[a];
            let tr = g.troop(cell.card);
            let s = &g.sides[p];
            let bonus = s.element == Some(tr.element) && row_of(a) == s.leader_row as usize;
            let av = i32::from(tr.atk) + i32::from(cell.atk) + i32::from(u8::from(bonus));
            (av, self.unseen.1.round() as i32)
        };
        int_odds(av - dv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SK-6.2: the roll odds of an advantage add up to 1, favour the side holding it, are
    /// the 36 rolls' counts (a tie needs equal dice plus advantage), and the table holds
    /// them, the decided rolls beyond it included.
    #[test]
    fn roll_odds_follow_the_advantage() {
        for adv in -9..=9 {
            let (w, t, l) = int_odds(adv);
            assert!((w + t + l - 1.0).abs() < 1e-12, "{adv}");
            assert_eq!(int_odds(adv), roll_odds(adv), "{adv}");
            if adv > 0 {
                assert!(w > l, "{adv}");
            }
        }
        assert_eq!(int_odds(0), (15.0 / 36.0, 6.0 / 36.0, 15.0 / 36.0));
        assert_eq!(int_odds(1), (21.0 / 36.0, 5.0 / 36.0, 10.0 / 36.0));
        assert_eq!(int_odds(-2), (6.0 / 36.0, 4.0 / 36.0, 26.0 / 36.0));
        assert_eq!(int_odds(6), (1.0, 0.0, 0.0));
        assert_eq!(int_odds(-9), (0.0, 0.0, 1.0));
    }
}
