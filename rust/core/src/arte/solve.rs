//! A round's combat solved exactly (ISMCTS's routine decisions, `Knowledge::routine_action`).
//!
//! Once both formations are face up, the rest of the round is a small game of perfect
//! information without chance: the fields and rows are public, the hands take no part. The
//! round changes what follows only through the victory piles (every field card ends in one
//! pile or the other, the hands and rows are untouched), so for any valuation that grows with
//! the victory-pile lead the best play is the minimax of that lead. In round 3 the payoff is
//! the game's result itself, sudden death included (AG-8.2: each side's best card and row is
//! a dominant pick, so the tie's winner is known once the piles are).
//!
//! A standard round is three cards against three: the whole game tree has a few hundred
//! nodes, searched by alpha-beta without a table. Hand-built states with more cards are left
//! unsolved.

use super::cards::Card;
use super::combat::{attack_wins, card_score};
use super::notation::Action;
use super::rules::{ranged_only, reaches_protected};
use super::state::{Arte, Phase, ROUNDS};
use super::SuddenDeathRow;
use crate::game::Player;
use crate::rng::GameRng;

/// Most cards per side the solver takes on (a standard round deploys 3).
const MAX: usize = 3;
/// A decided game in round 3 is worth this much more than any lead.
const DECIDED: i32 = 100;

/// The round as the solver sees it: each side's field cards by index, and what decides each
/// pairing.
struct Round {
    n: [usize; 2],
    cells: [[u8; MAX]; 2],
    /// `front[s][i]`: the cards of side `s` standing in front of its card `i` (AG-5.3).
    front: [[u8; MAX]; 2],
    /// `wins[s][i][j]`, bit `k`: side `s`'s card `i` beats the other side's card `j` when `j`
    /// is protected (`k = 1`) or not (`k = 0`) (AG-6.4's scoring may depend on it).
    wins: [[[u8; MAX]; MAX]; 2],
    /// `reach[s][i]`: the other side's cards that may defend against `s`'s card `i` although
    /// protected (a purely ranged attack, a defender holding ranged units, AG-6.4).
    reach: [[u8; MAX]; 2],
    /// Round 3: the game ends with this round.
    last: bool,
    /// Player 0's victory-pile lead now.
    lead: i32,
    /// Round 3: the sudden-death attacker, the best attack (its side) and defence (the
    /// other) already in the victory piles, and each field card's best score in that role.
    sd_attacker: Player,
    sd_base: [u32; 2],
    sd_score: [[u32; MAX]; 2],
    /// Whether each side's victory pile is non-empty now.
    has_victory: [bool; 2],
}

/// Where the round stands: the cards still on each field and those that won (bit masks over
/// the side's indices), whose turn, turns taken (2 and over alike) and passes in a row.
#[derive(Clone, Copy)]
struct Pos {
    on: [u8; 2],
    won: [u8; 2],
    attacker: Player,
    turn: u8,
    passes: u8,
}

/// Alpha-beta bounds in player 0's terms: a value at or below `lo`, or at or above `hi`, is
/// only a bound (the line it comes from is cut off). The full window gives exact values.
#[derive(Clone, Copy)]
struct Window {
    lo: i32,
    hi: i32,
}

const FULL: Window = Window {
    lo: i32::MIN,
    hi: i32::MAX,
};

/// The best option of one decision so far: player 0 maximises, player 1 minimises.
struct Best {
    max: bool,
    v: Option<i32>,
    w: Window,
}

impl Best {
    fn new(mover: Player, w: Window) -> Best {
        Best {
            max: mover == 0,
            v: None,
            w,
        }
    }

    /// Take an option's value; `true` once the rest of the options cannot matter.
    fn take(&mut self, v: i32) -> bool {
        let better = self.v.is_none_or(|b| if self.max { v > b } else { v < b });
        if better {
            self.v = Some(v);
        }
        if self.max {
            self.w.lo = self.w.lo.max(v);
        } else {
            self.w.hi = self.w.hi.min(v);
        }
        self.w.lo >= self.w.hi
    }
}

impl Round {
    #[allow(clippy::needless_range_loop)] // parallel arrays, indexed by side and card
    fn new(g: &Arte) -> Option<Round> {
        let set = &*g.set;
        let mut r = Round {
            n: [0; 2],
            cells: [[0; MAX]; 2],
            front: [[0; MAX]; 2],
            wins: [[[0; MAX]; MAX]; 2],
            reach: [[0; MAX]; 2],
            last: g.round >= ROUNDS,
            lead: g.sides[0].victory.len() as i32 - g.sides[1].victory.len() as i32,
            sd_attacker: g.sd_attacker(),
            sd_base: [0; 2],
            sd_score: [[0; MAX]; 2],
            has_victory: [0, 1].map(|p| !g.sides[p].victory.is_empty()),
        };
        let mut cards: [[Card; MAX]; 2] = [[0; MAX]; 2];
        for s in 0..2 {
            for (x, c) in g.sides[s].field.iter().enumerate() {
                if let Some(c) = *c {
                    let k = r.n[s];
                    if k == MAX {
                        return None;
                    }
                    r.cells[s][k] = x as u8;
                    cards[s][k] = c;
                    r.n[s] += 1;
                }
            }
            for i in 0..r.n[s] {
                let (row, col) = (r.cells[s][i] / 3, r.cells[s][i] % 3);
                for j in 0..r.n[s] {
                    let (rj, cj) = (r.cells[s][j] / 3, r.cells[s][j] % 3);
                    if cj == col && rj < row {
                        r.front[s][i] |= 1 << j;
                    }
                }
            }
        }
        // Each card's attack and defence on its own row, all units or the ranged ones only
        // (AG-4.2, AG-4.3, AG-6.4): `scores[s][i][attack][ranged_only]`.
        let mut scores = [[[[0u32; 2]; 2]; MAX]; 2];
        for s in 0..2 {
            for i in 0..r.n[s] {
                let row = (r.cells[s][i] / 3) as usize;
                let t = set.row_terrain(g.sides[s].rows[row]);
                for (attack, by_kind) in scores[s][i].iter_mut().enumerate() {
                    for (ranged, score) in by_kind.iter_mut().enumerate() {
                        let u = set.unit_card(cards[s][i]);
                        *score = card_score(u, t, row, attack == 1, ranged == 1);
                    }
                }
            }
        }
        for s in 0..2 {
            let d = 1 - s;
            for i in 0..r.n[s] {
                let acard = set.unit_card(cards[s][i]);
                for j in 0..r.n[d] {
                    let dcard = set.unit_card(cards[d][j]);
                    if reaches_protected(acard, dcard) {
                        r.reach[s][i] |= 1 << j;
                    }
                    for prot in 0..2 {
                        let k = usize::from(ranged_only(
                            g.opts.ranged_scoring,
                            acard,
                            dcard,
                            prot == 1,
                        ));
                        if attack_wins(scores[s][i][1][k], scores[d][j][0][k]) {
                            r.wins[s][i][j] |= 1 << prot;
                        }
                    }
                }
            }
        }
        if r.last {
            // Each side's best sudden-death score in its role (AG-8.2): the attacker's best
            // attack, the defender's best defence, over the rows it may choose.
            let rows = match g.opts.sudden_death_row {
                SuddenDeathRow::Chosen => 3,
                SuddenDeathRow::Front => 1,
            };
            let best = |p: Player, c: Card| {
                let attacking = p == r.sd_attacker;
                (0..rows)
                    .map(|row| {
                        let t = set.row_terrain(g.sides[p].rows[row]);
                        card_score(set.unit_card(c), t, row, attacking, false)
                    })
                    .max()
                    .unwrap_or(0)
            };
            for p in 0..2 {
                r.sd_base[p] = g.sides[p]
                    .victory
                    .iter()
                    .map(|&c| best(p, c))
                    .max()
                    .unwrap_or(0);
                for i in 0..r.n[p] {
                    r.sd_score[p][i] = best(p, cards[p][i]);
                }
            }
        }
        Some(r)
    }

    /// Player 0's payoff once the round is over: the victory-pile lead the round adds; in
    /// round 3 the result (±[`DECIDED`]) plus that lead.
    fn end(&self, pos: &Pos) -> i32 {
        let gain = |s: usize| (pos.won[s] | pos.on[s]).count_ones() as i32;
        let diff = gain(0) - gain(1);
        if !self.last {
            return diff;
        }
        let total = self.lead + diff;
        let result = if total != 0 {
            total.signum()
        } else {
            // Sudden death between the best cards of the two victory piles (AG-8.2, AG-8.3).
            let att = self.sd_attacker;
            let best = |p: Player| {
                let mine = pos.won[p] | pos.on[p];
                (0..self.n[p])
                    .filter(|&i| mine & (1 << i) != 0)
                    .map(|i| self.sd_score[p][i])
                    .fold(self.sd_base[p], u32::max)
            };
            let any = |p: Player| self.has_victory[p] || pos.won[p] | pos.on[p] != 0;
            if !any(0) && !any(1) {
                0
            } else if best(att) > best(1 - att) {
                if att == 0 {
                    1
                } else {
                    -1
                }
            } else if att == 0 {
                -1
            } else {
                1
            }
        };
        DECIDED * result + diff
    }

    /// The attacker's turn: the best of its attacks and (when allowed, AG-7.1, AG-7.2) a pass.
    fn turn(&self, pos: &Pos, w: Window) -> i32 {
        let a = pos.attacker;
        let mut best = Best::new(a, w);
        if let Some(v) = self.pass(pos, w) {
            if best.take(v) {
                return v;
            }
        }
        for i in 0..self.n[a] {
            if self.may_attack(pos, i) && best.take(self.defend(pos, i, best.w)) {
                break;
            }
        }
        // No move is unreachable: the front card of a column may always attack.
        best.v.unwrap_or_else(|| self.end(pos))
    }

    fn may_attack(&self, pos: &Pos, i: usize) -> bool {
        let a = pos.attacker;
        pos.on[a] & (1 << i) != 0 && pos.on[a] & self.front[a][i] == 0
    }

    /// The value after a pass, `None` when passing is not allowed.
    fn pass(&self, pos: &Pos, w: Window) -> Option<i32> {
        let a = pos.attacker;
        if pos.turn < 2 || pos.on[a].count_ones() > 2 {
            return None;
        }
        let next = Pos {
            attacker: 1 - a,
            turn: 2,
            passes: pos.passes + 1,
            ..*pos
        };
        // Two passes in a row end the round (AG-7.3).
        Some(if next.passes >= 2 {
            self.end(&next)
        } else {
            self.turn(&next, w)
        })
    }

    /// May the defender's card `j` defend against card `i` (AG-6.3, AG-6.4), and is it
    /// protected?
    fn defence(&self, pos: &Pos, i: usize, j: usize) -> Option<bool> {
        let (a, d) = (pos.attacker, 1 - pos.attacker);
        if pos.on[d] & (1 << j) == 0 {
            return None;
        }
        let protected = pos.on[d] & self.front[d][j] != 0;
        (!protected || self.reach[a][i] & (1 << j) != 0).then_some(protected)
    }

    /// The attacker's card `i` attacks: the defender's best answer.
    fn defend(&self, pos: &Pos, i: usize, w: Window) -> i32 {
        let d = 1 - pos.attacker;
        let mut best = Best::new(d, w);
        for j in 0..self.n[d] {
            if let Some(protected) = self.defence(pos, i, j) {
                if best.take(self.resolve(pos, i, j, protected, best.w)) {
                    break;
                }
            }
        }
        // No defence is unreachable: the front card of a column may always defend.
        best.v.unwrap_or_else(|| self.end(pos))
    }

    /// The value once card `i` attacked and card `j` defended (AG-6.5, AG-6.6, AG-7.4).
    fn resolve(&self, pos: &Pos, i: usize, j: usize, protected: bool, w: Window) -> i32 {
        let (a, d) = (pos.attacker, 1 - pos.attacker);
        let mut next = *pos;
        next.on[a] &= !(1 << i);
        next.on[d] &= !(1 << j);
        if self.wins[a][i][j] & (1 << u8::from(protected)) != 0 {
            next.won[a] |= 1 << i;
        } else {
            next.won[d] |= 1 << j;
        }
        next.attacker = d;
        next.turn = (pos.turn + 1).min(2);
        next.passes = 0;
        if next.on[a] == 0 || next.on[d] == 0 {
            self.end(&next)
        } else {
            self.turn(&next, w)
        }
    }

    /// The cell of the side's card `i`.
    fn cell(&self, s: Player, i: usize) -> u8 {
        self.cells[s][i]
    }
}

/// The solver's position for `g`'s combat, with the pending attack's card index if any.
fn position(g: &Arte, r: &Round) -> Option<(Pos, Option<usize>)> {
    let c = g.combat?;
    let mut on = [0u8; 2];
    for (s, mask) in on.iter_mut().enumerate() {
        *mask = (1u8 << r.n[s]) - 1;
    }
    let pending = match c.attack {
        Some(x) => Some((0..r.n[c.attacker]).find(|&i| r.cell(c.attacker, i) == x)?),
        None => None,
    };
    let pos = Pos {
        on,
        won: [0; 2],
        attacker: c.attacker,
        turn: c.turn.min(2),
        passes: c.passes,
    };
    Some((pos, pending))
}

/// The best combat move for the player to move, by the exact solution of the round (ties
/// broken by `rng`); `None` outside combat or for a field too large to solve.
pub(super) fn combat_move(g: &Arte, rng: &mut GameRng) -> Option<Action> {
    if g.phase != Phase::Combat {
        return None;
    }
    let r = Round::new(g)?;
    let (pos, pending) = position(g, &r)?;
    let mover = g.current()?;
    let sign = if mover == 0 { 1 } else { -1 };
    // At most a pass and one move per card.
    let mut options = [(Action::Pass, 0i32); MAX + 1];
    let mut n = 0;
    let mut offer = |a: Action, v: i32| {
        options[n] = (a, sign * v);
        n += 1;
    };
    match pending {
        Some(i) => {
            let d = 1 - pos.attacker;
            for j in 0..r.n[d] {
                if let Some(protected) = r.defence(&pos, i, j) {
                    offer(
                        Action::Defend(r.cell(d, j)),
                        r.resolve(&pos, i, j, protected, FULL),
                    );
                }
            }
        }
        None => {
            if let Some(v) = r.pass(&pos, FULL) {
                offer(Action::Pass, v);
            }
            for i in 0..r.n[pos.attacker] {
                if r.may_attack(&pos, i) {
                    offer(
                        Action::Attack(r.cell(pos.attacker, i)),
                        r.defend(&pos, i, FULL),
                    );
                }
            }
        }
    }
    let options = &options[..n];
    let best = options.iter().map(|&(_, v)| v).max()?;
    let ties = options.iter().filter(|&&(_, v)| v == best).count();
    let k = rng.below(ties);
    options
        .iter()
        .filter(|&&(_, v)| v == best)
        .nth(k)
        .map(|&(a, _)| a)
}

/// The round's solved value for player 0: the victory-pile lead the rest of the round adds
/// (rounds 1 and 2), or in round 3 the game's result (±[`DECIDED`]) plus that lead. `None`
/// outside combat or for a field too large to solve.
#[cfg(test)]
pub(super) fn combat_value(g: &Arte) -> Option<i32> {
    if g.phase != Phase::Combat {
        return None;
    }
    let r = Round::new(g)?;
    let (pos, pending) = position(g, &r)?;
    Some(match pending {
        Some(i) => r.defend(&pos, i, FULL),
        None => r.turn(&pos, FULL),
    })
}
