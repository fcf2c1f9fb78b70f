//! The rule-based player (`Game::heuristic_action`, issue 14): STRIFULL played by rules of
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
use super::effects::RowSel;
use super::evaluate::{OTHER_STAT, ROW, TROOP, ZONE_STAT};
use super::notation::Action;
use super::state::{cell_at, col_of, row_of, zone_of, Step, Strifull, CELLS};
use crate::rng::GameRng;
use std::cell::RefCell;

/// Below this gain (in stat points) a setup change or battle move is not worth making.
const MOVE_MARGIN: f64 = 1.0;
/// The value of eliminating (or losing) a row, in troops.
const ROW_VALUE: f64 = 2.0;
/// The settle's move ([`fight_settle_action`]): how much the opponent's best reply attack weighs
/// against the own attack this turn, when a battle or leader move is judged (the reply
/// comes after the own attack has changed the field, so it counts for less).
const EXPOSURE: f64 = 0.5;
/// The settle's move: a stat point of fit (the stat a troop's zone uses, SK-6.1) in
/// troops, when a battle move is judged by its fights first.
const FIT_WEIGHT: f64 = 0.1;

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

/// A best attack, 0 without any.
fn finite_or_zero(best: f64) -> f64 {
    if best.is_finite() {
        best
    } else {
        0.0
    }
}

/// The heuristic player's move, `None` when the game is over.
pub(crate) fn heuristic_action(g: &Strifull, rng: &mut GameRng) -> Option<Action> {
    choose(g, rng, Rule::HEURISTIC)
}

/// The settle move judged by the fights (issue 14 rounds 10-11, a candidate, not the
/// default): the heuristic player's, except that the battle move (SK-4.2) and the leader's
/// move (SK-4.5) are judged by the fights they prepare: the mover's best attack this turn
/// minus half the opponent's best reply attack, the field's fit a small tie-break (round
/// 10's rule, commit 3355bf7, computed incrementally). Stronger than the Heuristic agent's
/// rule, so only the search may use it.
pub(crate) fn fight_settle_action(g: &Strifull, rng: &mut GameRng) -> Option<Action> {
    choose(
        g,
        rng,
        Rule {
            moves: Moves::Fights,
            material: false,
        },
    )
}

/// The settle move judged by the exposure alone (issue 14 round 12, a candidate, not the
/// default): as [`fight_settle_action`], but a battle or leader move is judged only by
/// how it changes the opponent's best reply attack ([`EXPOSURE`] of it), the field's fit a
/// small tie-break; the mover's own attack this turn is not looked at (about half the
/// attacks judged).
pub(crate) fn exposure_settle_action(g: &Strifull, rng: &mut GameRng) -> Option<Action> {
    choose(
        g,
        rng,
        Rule {
            moves: Moves::Exposure,
            material: false,
        },
    )
}

/// The search's settle move ([`crate::game::Game::playout_action`]): the heuristic
/// player's, or with the trial switch `STRIFULL_SETTLE=fight` (read once)
/// [`fight_settle_action`] (round 11 measured it +28% an iteration and no gain on 400
/// fresh games against Greedy, docs/research/issue-14-round11-st.md), with
/// `STRIFULL_SETTLE=exposure` [`exposure_settle_action`] (round 12).
pub(crate) fn playout_action(g: &Strifull, rng: &mut GameRng) -> Option<Action> {
    static RULE: std::sync::OnceLock<Rule> = std::sync::OnceLock::new();
    let rule = *RULE.get_or_init(|| {
        let v = std::env::var("STRIFULL_SETTLE").unwrap_or_default();
        let has = |w: &str| v.split(',').any(|x| x == w);
        Rule {
            moves: if has("fight") {
                Moves::Fights
            } else if has("exposure") {
                Moves::Exposure
            } else {
                Moves::Fit
            },
            material: has("material"),
        }
    });
    choose(g, rng, rule)
}

/// The heuristic move with the attack judged by `evaluate`'s material ([`Rule::material`]):
/// a kill or a loss counts the troop, and when it empties a half-row the row with every
/// troop still in it (SK-7.1), instead of a troop and two.
pub(crate) fn material_action(g: &Strifull, rng: &mut GameRng) -> Option<Action> {
    choose(
        g,
        rng,
        Rule {
            moves: Moves::Fit,
            material: true,
        },
    )
}

/// The search's routine decisions ([`crate::game::Game::routine_action`], ISMCTS's
/// `routine=1`), a round-12 trial: with `STRIFULL_ROUTINE` (read once) a comma list of
/// `attack`, `leader` (the leader move and ability), `post` (SK-7.2, SK-7.3), the steps it
/// names are played by the heuristic move (`material`: the attack judged by material);
/// unset, none is routine.
pub(crate) fn routine_action(g: &Strifull, rng: &mut GameRng) -> Option<Action> {
    static STEPS: std::sync::OnceLock<(bool, bool, bool, bool)> = std::sync::OnceLock::new();
    let (attack, leader, post, material) = *STEPS.get_or_init(|| {
        let v = std::env::var("STRIFULL_ROUTINE").unwrap_or_default();
        let has = |w: &str| v.split(',').any(|x| x == w);
        (has("attack"), has("leader"), has("post"), has("material"))
    });
    let routine = match g.step {
        Step::Attack => attack,
        Step::LeaderMove | Step::Ability => leader,
        Step::Relocate | Step::StepUp => post,
        _ => false,
    };
    if !routine {
        return None;
    }
    choose(
        g,
        rng,
        Rule {
            moves: Moves::Fit,
            material,
        },
    )
}

/// How the battle and leader moves and the attack are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rule {
    moves: Moves,
    /// The attack judged by the material `evaluate` counts (the troops a kill or loss
    /// takes, a row's whole content and the row itself when it falls, SK-7.1) instead of
    /// by troops.
    material: bool,
}

impl Rule {
    /// The Heuristic agent's rule.
    const HEURISTIC: Rule = Rule {
        moves: Moves::Fit,
        material: false,
    };
}

/// Which rule judges the battle and leader moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Moves {
    /// The Heuristic agent's: the field's fit.
    Fit,
    /// The fights they prepare: own attack minus [`EXPOSURE`] × the reply.
    Fights,
    /// The reply alone: − [`EXPOSURE`] × the reply.
    Exposure,
}

fn choose(g: &Strifull, rng: &mut GameRng, rule: Rule) -> Option<Action> {
    let p = g.actor as usize;
    let mut best: Vec<Action> = Vec::new();
    let mut best_score = f64::NEG_INFINITY;
    let ctx = Ctx::new(g, p, rule);
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
    /// The same, rounded, as a fight with an unseen troop uses it.
    unseen_whole: (i32, i32),
    /// Mean (ATK, DEF) of the mover's pile (its multiset is known: deck minus field).
    pile: (f64, f64),
    /// Per own cell: the troop's (ATK, DEF) and whether it shares the leader's element,
    /// `None` for an empty cell. Only the setup and battle-move steps fill it: they judge
    /// up to 171 swaps, each reading four troops.
    own: [Option<(i8, i8, bool)>; CELLS],
    /// The face-up troops whose abilities reach others ([`Strifull::aura_sources`]), read
    /// once for every attack judged.
    sources: u64,
    /// The settle's rule: the battle and leader moves judged by their fights.
    fights: Option<Box<Fights>>,
    /// The attack judged by material ([`Rule::material`]).
    material: bool,
}

/// What the fights rule knows of the game as it stands, computed once per battle-move or
/// leader-move decision: every attack each side has, judged by [`Ctx::fight`], so that a
/// move is judged by re-judging only the attacks it can change.
struct Fights {
    /// [`Strifull::aura_sources`] of the game.
    sources: u64,
    /// Per side (0 the mover, 1 the opponent): whether each attacker may attack any
    /// defender (SK-5.4; for the opponent only when the mover sees it), its targets, the
    /// value of each attack and the best of each attacker (`NEG_INFINITY`: none).
    any: [[bool; 9]; 2],
    targets: [[u16; 9]; 2],
    value: [[[f64; 9]; 9]; 2],
    best_of: [[f64; 9]; 2],
    /// The best attack of the mover and of the opponent (0 without one).
    best: [f64; 2],
    /// Per side: [`Strifull::defence_masks`] and [`Strifull::allies_may_attack_any`] in the
    /// game (a move that leaves the defence zone's troops in place leaves the first).
    masks: [(u16, u16, [u16; 3]); 2],
    allies_may: [bool; 2],
    /// The mover's abilities (leader, troops) may read the leader's row (`row = "leader"`
    /// or `"same"` for the leader's own): a leader move then re-judges every attack.
    leader_row_matters: bool,
    /// A copy of the game a move is tried on and undone.
    scratch: RefCell<Strifull>,
    /// Whether the mover's own attack counts ([`Moves::Fights`]); without it
    /// ([`Moves::Exposure`]) the mover's attacks are not judged and count 0.
    own: bool,
}

impl<'a> Ctx<'a> {
    fn new(g: &'a Strifull, p: usize, rule: Rule) -> Ctx<'a> {
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
        let mut ctx = Ctx {
            g,
            p,
            unseen,
            unseen_whole: (unseen.0.round() as i32, unseen.1.round() as i32),
            pile,
            own,
            sources,
            fights: None,
            material: rule.material,
        };
        if rule.moves != Moves::Fit && matches!(g.step, Step::Move | Step::LeaderMove) {
            ctx.fights = Some(Box::new(ctx.judge_all(rule.moves == Moves::Fights)));
        }
        ctx
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
        if let Some(f) = &self.fights {
            match a {
                Action::Move(c, d) => {
                    return match d.dest(c as usize) {
                        Some(to) => self.move_score(f, c as usize, to),
                        None => f64::NEG_INFINITY,
                    }
                }
                Action::Leader(r) if g.step == Step::LeaderMove => {
                    return self.leader_score(f, r);
                }
                Action::Pass => return 0.0,
                Action::Replace(c) => {
                    let c = c as usize;
                    let (atk, def) = self.pile;
                    let mean = if zone_of(c) == 0 { atk } else { def };
                    // The replaced troop is lost for good: only a clearly weak one goes.
                    return FIT_WEIGHT * (mean - self.fit(c, c) - 2.0 * MOVE_MARGIN);
                }
                _ => {}
            }
        }
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
        let (av, dv) = if g.sees(Some(p), q, t) {
            let sources = self.sources;
            let use_def = g.forces_defence(q, t, a, sources);
            (
                g.combat_value(p, a, true, use_def, t, sources),
                g.combat_value(q, t, false, false, a, sources),
            )
        } else {
            // Unseen defender: the attacker's own numbers against the unseen mean.
            let cell = g.sides[p].cells[a];
            let tr = g.troop(cell.card);
            let s = &g.sides[p];
            let bonus = s.element == Some(tr.element) && row_of(a) == s.leader_row as usize;
            let av = i32::from(tr.atk) + i32::from(cell.atk) + i32::from(u8::from(bonus));
            (av, self.unseen.1.round() as i32)
        };
        let (win, tie, lose) = int_odds(av - dv);
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

    /// The attack judged by `evaluate`'s material ([`Rule::material`]): the chance of a
    /// kill (win or tie) times what the opponent loses, minus the chance of a loss (lose
    /// or tie) times what the mover loses, each a troop or a row with its content
    /// ([`Ctx::fall`]); the roll odds as [`Ctx::attack_score`] has them.
    fn material_attack_score(&self, a: usize, t: usize) -> f64 {
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
        let (win, tie, lose) = int_odds(av - dv);
        (win + tie) * self.fall(q, t) - (lose + tie) * self.fall(p, a)
    }

    /// The expected gain, for the side `by`, of its troop at `a` attacking the other side's
    /// troop at `t` in `h` (the game or a move tried on its copy), as the mover can judge
    /// it: a troop the mover cannot see counts as the mean of its side's unseen cards
    /// (rounded), without bonuses. +1 a kill, -1 a loss, a row for emptying a half-row
    /// (SK-6, SK-7). For the mover's own attacks the same value as [`Ctx::attack_score`].
    fn fight(&self, h: &Strifull, by: usize, a: usize, t: usize, sources: u64) -> f64 {
        let (p, foe) = (self.p, 1 - by);
        let (av, dv) = if h.sees(Some(p), by, a) && h.sees(Some(p), foe, t) {
            let use_def = h.forces_defence(foe, t, a, sources);
            (
                h.combat_value(by, a, true, use_def, t, sources),
                h.combat_value(foe, t, false, false, a, sources),
            )
        } else if by == p {
            // Unseen defender: the attacker's own numbers against the unseen mean.
            (self.bare_value(h, p, a), self.unseen_whole.1)
        } else {
            // An unseen attacker against an own defender (which the mover always sees).
            (self.unseen_whole.0, self.bare_value(h, p, t))
        };
        let (win, tie, lose) = int_odds(av - dv);
        let kills_row = h.sides[foe].half_count(1, row_of(t)) == 1;
        let loses_row = h.sides[by].half_count(0, row_of(a)) == 1;
        let kill = 1.0 + if kills_row { ROW_VALUE } else { 0.0 };
        let loss = 1.0 + if loses_row { ROW_VALUE } else { 0.0 };
        (win + tie) * kill - (lose + tie) * loss
    }

    /// The value of side `side`'s troop at `c` in `h` from its card, counters and leader
    /// bonus alone (SK-6.1, SK-6.3): the stat its zone fights with, for a fight whose other
    /// troop the mover cannot see.
    fn bare_value(&self, h: &Strifull, side: usize, c: usize) -> i32 {
        let cell = h.sides[side].cells[c];
        let tr = h.troop(cell.card);
        let s = &h.sides[side];
        let bonus = i32::from(u8::from(
            s.element == Some(tr.element) && row_of(c) == s.leader_row as usize,
        ));
        if zone_of(c) == 0 {
            i32::from(tr.atk) + i32::from(cell.atk) + bonus
        } else {
            i32::from(tr.def) + i32::from(cell.def) + bonus
        }
    }

    /// The targets the side `by`'s troop at `a` has in `h`, as the mover sees them: a
    /// face-down opposing attacker has only its frontal and flank targets (SK-5.2, SK-5.3),
    /// never those its hidden card might grant (SK-5.4). Also whether it may attack any.
    fn targets(
        &self,
        h: &Strifull,
        by: usize,
        a: usize,
        (occ, flank, front): (u16, u16, [u16; 3]),
        allies_may: bool,
        sources: u64,
    ) -> (bool, u16) {
        let any = h.sees(Some(self.p), by, a) && h.can_attack_any(by, a, allies_may, sources);
        (any, if any { occ } else { flank | front[col_of(a)] })
    }

    /// The best attack the side `by` has in `h` (0 without one), judged by [`Ctx::fight`]:
    /// every attack judged anew.
    fn best_attack(&self, h: &Strifull, by: usize) -> f64 {
        let sources = h.aura_sources();
        let masks = h.defence_masks(by);
        let allies_may = h.allies_may_attack_any(by);
        let mut best = f64::NEG_INFINITY;
        for a in 0..9 {
            if h.sides[by].cells[a].is_empty() {
                continue;
            }
            let (_, mut targets) = self.targets(h, by, a, masks, allies_may, sources);
            while targets != 0 {
                let t = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                best = best.max(self.fight(h, by, a, 9 + t, sources));
            }
        }
        finite_or_zero(best)
    }

    /// Every attack of both sides in the game as it stands, judged once per decision.
    fn judge_all(&self, own: bool) -> Fights {
        let g = self.g;
        let p = self.p;
        let sources = g.aura_sources();
        let mut f = Fights {
            sources,
            any: [[false; 9]; 2],
            targets: [[0; 9]; 2],
            value: [[[0.0; 9]; 9]; 2],
            best_of: [[f64::NEG_INFINITY; 9]; 2],
            best: [0.0; 2],
            masks: [(0, 0, [0; 3]); 2],
            allies_may: [false; 2],
            leader_row_matters: g.step == Step::LeaderMove && self.leader_row_matters(),
            scratch: RefCell::new(g.clone()),
            own,
        };
        for k in usize::from(!own)..2 {
            let by = if k == 0 { p } else { 1 - p };
            let masks = g.defence_masks(by);
            let allies_may = g.allies_may_attack_any(by);
            f.masks[k] = masks;
            f.allies_may[k] = allies_may;
            let mut best = f64::NEG_INFINITY;
            for a in 0..9 {
                if g.sides[by].cells[a].is_empty() {
                    continue;
                }
                let (any, targets) = self.targets(g, by, a, masks, allies_may, sources);
                f.any[k][a] = any;
                f.targets[k][a] = targets;
                let mut rest = targets;
                let mut top = f64::NEG_INFINITY;
                while rest != 0 {
                    let t = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let v = self.fight(g, by, a, 9 + t, sources);
                    f.value[k][a][t] = v;
                    top = top.max(v);
                }
                f.best_of[k][a] = top;
                best = best.max(top);
            }
            f.best[k] = finite_or_zero(best);
        }
        f
    }

    /// Whether an ability of the mover's leader or troops reads the leader's row (a
    /// condition `row = "leader"`, or `"same"` on the leader itself, SK-9): then a leader
    /// move may change more than the leader bonus (SK-6.3).
    fn leader_row_matters(&self) -> bool {
        let g = self.g;
        let reads = |ab: &super::effects::Ability, same: bool| match ab.cond.row {
            Some(RowSel::Leader) => true,
            Some(RowSel::Same) => same,
            _ => false,
        };
        g.leader(self.p).abilities.iter().any(|ab| reads(ab, true))
            || g.sides[self.p].cells.iter().any(|c| {
                c.occupied() && g.troop(c.card).abilities.iter().any(|ab| reads(ab, false))
            })
    }

    /// The mover's best attack in `h` (the game with a move tried), when only its
    /// attackers in `changed` (bits over the attack zone) may fight differently: the others'
    /// best attacks are the game's.
    fn own_best(&self, f: &Fights, h: &Strifull, changed: u16) -> f64 {
        if changed == 0 || !f.own {
            return f.best[0];
        }
        let p = self.p;
        let mut best = f64::NEG_INFINITY;
        for a in 0..9 {
            if changed & (1 << a) == 0 {
                best = best.max(f.best_of[0][a]);
            }
        }
        // A move of the mover's troops changes neither (`allies_may` is over the whole field).
        let (masks, allies_may) = (f.masks[0], f.allies_may[0]);
        let mut rest = changed;
        while rest != 0 {
            let a = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if h.sides[p].cells[a].is_empty() {
                continue;
            }
            let (_, mut targets) = self.targets(h, p, a, masks, allies_may, f.sources);
            while targets != 0 {
                let t = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                best = best.max(self.fight(h, p, a, 9 + t, f.sources));
            }
        }
        finite_or_zero(best)
    }

    /// The opponent's best reply attack in `h`, when only the mover's defenders in
    /// `changed` (bits over the defence zone) may fight differently, and the targets follow
    /// the defence zone's troops (SK-5.2, SK-5.3; who may attack any is as in the game).
    fn reply_best(&self, f: &Fights, h: &Strifull, changed: u16, moved: bool) -> f64 {
        if changed == 0 {
            return f.best[1];
        }
        let q = 1 - self.p;
        let (occ, flank, front) = if moved {
            h.defence_masks(q)
        } else {
            f.masks[1]
        };
        let mut best = f64::NEG_INFINITY;
        for a in 0..9 {
            if h.sides[q].cells[a].is_empty() {
                continue;
            }
            let mut targets = if f.any[1][a] {
                occ
            } else {
                flank | front[col_of(a)]
            };
            while targets != 0 {
                let t = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                let bit = 1u16 << t;
                let v = if changed & bit == 0 && f.targets[1][a] & bit != 0 {
                    f.value[1][a][t]
                } else {
                    self.fight(h, q, a, 9 + t, f.sources)
                };
                best = best.max(v);
            }
        }
        finite_or_zero(best)
    }

    /// A battle move (`c` to `to`, the two swapping) judged by the fights it prepares: the
    /// mover's best attack this turn minus [`EXPOSURE`] × the opponent's best reply, as
    /// changed by the move, and, a little, by the long-run fit of the field. Only the
    /// attacks the move can change are judged again: those of the two troops that move and
    /// of the troops whose half-row count changes (SK-7.1); when a moving troop lends
    /// abilities to others (an aura source, [`Strifull::aura_sources`]), all of them.
    fn move_score(&self, f: &Fights, c: usize, to: usize) -> f64 {
        let (g, p) = (self.g, self.p);
        let side = &g.sides[p];
        let aura = [c, to].iter().any(|&x| {
            let cell = side.cells[x];
            cell.occupied() && cell.revealed && g.troop(cell.card).reach_kinds != 0
        });
        let mut h = f.scratch.borrow_mut();
        h.sides[p].cells.swap(c, to);
        let (own, reply) = if aura {
            let own = if f.own { self.best_attack(&h, p) } else { 0.0 };
            (own, self.best_attack(&h, 1 - p))
        } else {
            // Bits over a zone: the moved cells, and the half-rows whose count changed.
            let mut changed = [0u16; 2];
            for x in [c, to] {
                changed[zone_of(x)] |= 1 << (x % 9);
            }
            for (zone, bits) in changed.iter_mut().enumerate() {
                for row in 1..=3 {
                    if side.half_count(zone, row) != h.sides[p].half_count(zone, row) {
                        *bits |= 0b111 << ((row - 1) * 3);
                    }
                }
            }
            // The defence zone's troops stand elsewhere when one of the two cells is empty
            // and one is in the defence zone.
            let moved = (side.cells[c].is_empty() || side.cells[to].is_empty())
                && (zone_of(c) == 1 || zone_of(to) == 1);
            (
                self.own_best(f, &h, changed[0]),
                self.reply_best(f, &h, changed[1], moved),
            )
        };
        h.sides[p].cells.swap(c, to);
        let fights_now = f.best[0] - EXPOSURE * f.best[1];
        (own - EXPOSURE * reply) - fights_now + FIT_WEIGHT * (self.swap_gain(c, to) - MOVE_MARGIN)
    }

    /// A leader move to `row` judged likewise: the fights it changes (the leader bonus,
    /// SK-6.3, of the own troops of the token's element in the rows left and joined, for
    /// this turn's attack and the reply) and, a little, the troops of the token's element
    /// it stands with.
    fn leader_score(&self, f: &Fights, row: u8) -> f64 {
        let (g, p) = (self.g, self.p);
        let s = &g.sides[p];
        let kin = self.row_count(row as usize, s.element)
            - self.row_count(s.leader_row as usize, s.element);
        let mut h = f.scratch.borrow_mut();
        h.sides[p].leader_row = row;
        let (own, reply) = if f.leader_row_matters {
            let own = if f.own { self.best_attack(&h, p) } else { 0.0 };
            (own, self.best_attack(&h, 1 - p))
        } else {
            let mut changed = [0u16; 2];
            let (from, to) = (s.leader_row as usize, row as usize);
            if let Some(e) = s.element.filter(|_| from != to) {
                for (x, cell) in s.cells.iter().enumerate() {
                    let r = row_of(x);
                    if cell.occupied() && (r == from || r == to) && g.troop(cell.card).element == e
                    {
                        changed[zone_of(x)] |= 1 << (x % 9);
                    }
                }
            }
            (
                self.own_best(f, &h, changed[0]),
                self.reply_best(f, &h, changed[1], false),
            )
        };
        h.sides[p].leader_row = s.leader_row;
        let fights_now = f.best[0] - EXPOSURE * f.best[1];
        (own - EXPOSURE * reply) - fights_now + FIT_WEIGHT * (kin - MOVE_MARGIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::strifull::Options;

    /// A battle or leader move judged with every attack of both sides judged anew (round
    /// 10's computation, commit 3355bf7): what the incremental judgement must equal.
    fn full_score(ctx: &Ctx, a: Action) -> Option<f64> {
        let f = ctx.fights.as_ref()?;
        let (g, p) = (ctx.g, ctx.p);
        let mut h = g.clone();
        let tail = match a {
            Action::Move(c, d) => {
                let (c, to) = (c as usize, d.dest(c as usize)?);
                h.sides[p].cells.swap(c, to);
                FIT_WEIGHT * (ctx.swap_gain(c, to) - MOVE_MARGIN)
            }
            Action::Leader(r) => {
                let s = &g.sides[p];
                h.sides[p].leader_row = r;
                let kin = ctx.row_count(r as usize, s.element)
                    - ctx.row_count(s.leader_row as usize, s.element);
                FIT_WEIGHT * (kin - MOVE_MARGIN)
            }
            _ => return None,
        };
        let own_counts = |h: &Strifull| if f.own { ctx.best_attack(h, p) } else { 0.0 };
        let now = (own_counts(g), ctx.best_attack(g, 1 - p));
        assert_eq!(now, (f.best[0], f.best[1]));
        let fights_now = now.0 - EXPOSURE * now.1;
        let own = own_counts(&h);
        let reply = ctx.best_attack(&h, 1 - p);
        Some((own - EXPOSURE * reply) - fights_now + tail)
    }

    /// The settle's battle and leader moves, judged by re-judging only the attacks a move
    /// can change, score every move exactly as judging every attack anew does (both
    /// rules: the fights, and the exposure alone).
    #[test]
    fn the_incremental_fights_are_the_full_ones() {
        let mut buf = Vec::new();
        let mut judged = 0;
        for seed in 0..40 {
            let rule = Rule {
                moves: if seed % 2 == 0 {
                    Moves::Fights
                } else {
                    Moves::Exposure
                },
                material: false,
            };
            let mut g = Strifull::new(seed, &Options::default()).unwrap();
            let mut rng = GameRng::seed(seed);
            while let Some(p) = g.current_player() {
                let ctx = Ctx::new(&g, p, rule);
                g.legal_actions(&mut buf);
                for &a in &buf {
                    if let Some(full) = full_score(&ctx, a) {
                        let fast = ctx.score(a);
                        assert_eq!(fast.to_bits(), full.to_bits(), "{a:?} seed {seed}");
                        judged += 1;
                    }
                }
                let a = if rng.next_u64() % 2 == 0 {
                    fight_settle_action(&g, &mut rng).unwrap()
                } else {
                    *rng.choose(&buf).unwrap()
                };
                g.apply(a).unwrap();
            }
        }
        assert!(judged > 5000, "{judged}");
    }

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
