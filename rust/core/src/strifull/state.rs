//! The state of a game: two fields, piles and graveyards, the turn machine, the RNG.
//! Geometry helpers for the 18 cells of a field live here too (rules SK-2.x).

use super::content::{CardSet, Element, LeaderCard, TroopCard};
use super::Options;
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Cells of one field: attack zone 0..9, defence zone 9..18; inside a zone
/// `(row - 1) * 3 + column` with rows 1-3 (from the centre of the table outward) and
/// columns A-C (from the leader column outward).
pub const CELLS: usize = 18;
/// Marks an empty cell.
pub const EMPTY: u8 = u8::MAX;
/// The largest pile or graveyard (a whole deck).
pub const STACK: usize = 30;
/// Setup changes a player may make (SK-3.3).
pub const MAX_CHANGES: u8 = 3;

pub fn cell_at(zone: usize, row: usize, col: usize) -> usize {
    zone * 9 + (row - 1) * 3 + col
}
pub fn zone_of(c: usize) -> usize {
    c / 9
}
/// Row 1..=3.
pub fn row_of(c: usize) -> usize {
    (c % 9) / 3 + 1
}
/// Column 0..3 (A..C).
pub fn col_of(c: usize) -> usize {
    c % 3
}
/// `aB2`: zone (a = attack, d = defence), column, row.
pub fn cell_name(c: usize) -> String {
    format!(
        "{}{}{}",
        if zone_of(c) == 0 { 'a' } else { 'd' },
        (b'A' + col_of(c) as u8) as char,
        row_of(c)
    )
}
pub fn parse_cell(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() != 3 {
        return None;
    }
    let zone = match b[0] {
        b'a' => 0,
        b'd' => 1,
        _ => return None,
    };
    let col = match b[1] {
        b'A'..=b'C' => (b[1] - b'A') as usize,
        _ => return None,
    };
    let row = match b[2] {
        b'1'..=b'3' => (b[2] - b'0') as usize,
        _ => return None,
    };
    Some(cell_at(zone, row, col))
}

/// A battle-move direction (SK-4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Toward row 1.
    Forward,
    /// Toward row 3.
    Back,
    /// Toward column A.
    Inward,
    /// Toward column C.
    Outward,
    /// To the same cell of the other zone.
    Cross,
}

pub const DIRS: [Dir; 5] = [
    Dir::Forward,
    Dir::Back,
    Dir::Inward,
    Dir::Outward,
    Dir::Cross,
];

/// `DEST[c][d]`: the cell one battle move from `c` in direction `d`, or [`EMPTY`].
const DEST: [[u8; 5]; CELLS] = {
    let mut t = [[EMPTY; 5]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (z, r, k) = (c / 9, (c % 9) / 3, c % 3);
        let base = z * 9;
        if r > 0 {
            t[c][0] = (base + (r - 1) * 3 + k) as u8;
        }
        if r < 2 {
            t[c][1] = (base + (r + 1) * 3 + k) as u8;
        }
        if k > 0 {
            t[c][2] = (base + r * 3 + k - 1) as u8;
        }
        if k < 2 {
            t[c][3] = (base + r * 3 + k + 1) as u8;
        }
        t[c][4] = ((1 - z) * 9 + r * 3 + k) as u8;
        c += 1;
    }
    t
};

impl Dir {
    pub fn index(self) -> usize {
        self as usize
    }
    /// Where a troop at `c` goes, if that cell exists.
    pub fn dest(self, c: usize) -> Option<usize> {
        match DEST.get(c) {
            Some(row) if row[self as usize] != EMPTY => Some(row[self as usize] as usize),
            _ => None,
        }
    }
    /// The direction from `a` to `b`, if they are one battle move apart.
    pub fn between(a: usize, b: usize) -> Option<Dir> {
        DIRS.into_iter().find(|d| d.dest(a) == Some(b))
    }
}

/// Growth sources one troop can hold counters from (SK-9.1: each source keeps its own
/// counter and its own cap). A card set is checked against it when loaded.
pub const GROWTH_SOURCES: usize = 3;
/// Marks a [`Growth`] source that is the side's leader (`card` is then unused).
pub const LEADER_SOURCE: u8 = 0x80;

/// The counters one growth source (one `grow` ability of one card) put on a troop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Growth {
    /// The source troop's index, [`EMPTY`] for an unused slot (or the leader, see `ability`).
    pub card: u8,
    /// The grow ability's index among the source card's abilities, `| LEADER_SOURCE` when
    /// the source is the side's leader.
    pub ability: u8,
    pub atk: i8,
    pub def: i8,
}

impl Growth {
    pub const NONE: Growth = Growth {
        card: EMPTY,
        ability: 0,
        atk: 0,
        def: 0,
    };
    pub fn is_used(self) -> bool {
        self.card != EMPTY || self.ability & LEADER_SOURCE != 0
    }
}

/// One cell of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// Troop index into the card set, or [`EMPTY`].
    pub card: u8,
    /// Face up (public) or face down (known to its owner only).
    pub revealed: bool,
    /// Permanent counters from `grow` effects: the sums over `growth`.
    pub atk: i8,
    pub def: i8,
    /// The counters of each growth source, each capped on its own.
    pub growth: [Growth; GROWTH_SOURCES],
}

impl Cell {
    pub const NONE: Cell = Cell {
        card: EMPTY,
        revealed: false,
        atk: 0,
        def: 0,
        growth: [Growth::NONE; GROWTH_SOURCES],
    };
    pub fn new(card: u8) -> Cell {
        Cell { card, ..Cell::NONE }
    }
    /// Add a source's counters (`ability` as in [`Growth`]), the source's own counter staying
    /// within `max` in each direction. `false`: no free slot for a new source (the card set
    /// check makes that impossible for a loaded set).
    pub fn grow(&mut self, card: u8, ability: u8, atk: i8, def: i8, max: u8) -> bool {
        let slot = match self
            .growth
            .iter()
            .position(|g| g.card == card && g.ability == ability)
            .or_else(|| self.growth.iter().position(|g| !g.is_used()))
        {
            Some(i) => i,
            None => return false,
        };
        let Some(g) = self.growth.get_mut(slot) else {
            return false;
        };
        g.card = card;
        g.ability = ability;
        g.atk = grow_counter(g.atk, atk, max);
        g.def = grow_counter(g.def, def, max);
        self.sum_growth();
        true
    }
    /// Recompute `atk`/`def` from the per-source counters.
    pub fn sum_growth(&mut self) {
        let sum = |f: fn(&Growth) -> i8| {
            self.growth
                .iter()
                .map(|g| i32::from(f(g)))
                .sum::<i32>()
                .clamp(i8::MIN.into(), i8::MAX.into()) as i8
        };
        (self.atk, self.def) = (sum(|g| g.atk), sum(|g| g.def));
    }
    pub fn is_empty(self) -> bool {
        self.card == EMPTY
    }
    pub fn occupied(self) -> bool {
        self.card != EMPTY
    }
    /// Whether `viewer` (None: the full view) sees this troop of `side`'s: a side's own
    /// troops always, the other side's once revealed (SK-10). The one place the rule is
    /// written: views, observations and `evaluate` all ask it.
    #[inline]
    pub fn seen_by(self, viewer: Option<usize>, side: usize) -> bool {
        self.occupied() && (viewer.is_none_or(|v| v == side) || self.revealed)
    }
}

/// A small fixed-capacity stack of card indices (pile or graveyard); `Copy`, so cloning a
/// game never allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stack {
    items: [u8; STACK],
    len: u8,
}

impl Default for Stack {
    fn default() -> Self {
        Stack {
            items: [EMPTY; STACK],
            len: 0,
        }
    }
}

impl Stack {
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Bottom first.
    pub fn as_slice(&self) -> &[u8] {
        &self.items[..self.len as usize]
    }
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.items[..self.len as usize]
    }
    /// Push on top. Callers keep the total of a side's cards at most a deck, so this
    /// cannot overflow; a full stack ignores the push rather than panic.
    pub fn push(&mut self, card: u8) {
        if (self.len as usize) < STACK {
            self.items[self.len as usize] = card;
            self.len += 1;
        }
    }
    pub fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.items[self.len as usize])
    }
    /// Put a card at the bottom.
    pub fn push_bottom(&mut self, card: u8) {
        if (self.len as usize) < STACK {
            self.items.copy_within(0..self.len as usize, 1);
            self.items[0] = card;
            self.len += 1;
        }
    }
}

/// One player's side of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Side {
    pub cells: [Cell; CELLS],
    /// Live rows 1..=3 (index row - 1).
    pub live: [bool; 3],
    /// Leader index into the card set.
    pub leader: u8,
    /// The leader's elemental token (None until chosen in setup).
    pub element: Option<Element>,
    /// The leader's row, 1..=3 (0 until placed in setup).
    pub leader_row: u8,
    /// The pile, bottom first (the top card is drawn).
    pub pile: Stack,
    /// How many cards at the bottom of the pile the owner knows (put there in setup).
    pub pile_known: u8,
    /// The graveyard, oldest first (public).
    pub grave: Stack,
    /// Setup changes made (SK-3.3).
    pub changes: u8,
    /// Uses of the leader's activated ability so far.
    pub uses: u8,
}

impl Side {
    pub fn new(leader: u8) -> Side {
        Side {
            cells: [Cell::NONE; CELLS],
            live: [true; 3],
            leader,
            element: None,
            leader_row: 0,
            pile: Stack::default(),
            pile_known: 0,
            grave: Stack::default(),
            changes: 0,
            uses: 0,
        }
    }
    pub fn row_live(&self, row: usize) -> bool {
        (1..=3).contains(&row) && self.live[row - 1]
    }
    pub fn live_rows(&self) -> usize {
        self.live.iter().filter(|&&l| l).count()
    }
    /// Troops in one half-row (zone, row).
    pub fn half_count(&self, zone: usize, row: usize) -> usize {
        (0..3)
            .filter(|&k| self.cells[cell_at(zone, row, k)].occupied())
            .count()
    }
}

/// What the player to act is deciding (SK-3, SK-4, SK-7); serde writes [`Step::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Setup: up to three changes, or `pass`.
    Changes,
    /// Setup: the leader's elemental token.
    Element,
    /// Setup: the leader's row.
    LeaderRow,
    /// Turn step I: an optional battle move.
    Move,
    /// Turn step II: an optional leader move.
    #[serde(rename = "leader")]
    LeaderMove,
    /// Turn step III: the leader's activated ability (optional).
    Ability,
    /// Turn steps IV-IX: the attack.
    Attack,
    /// After a row fell: choose the leader's new row (two adjacent live rows).
    Relocate,
    /// After row 2 fell: move row 3 up (`up`) or not (`pass`).
    StepUp,
    Over,
}

pub const STEPS: [Step; 10] = [
    Step::Changes,
    Step::Element,
    Step::LeaderRow,
    Step::Move,
    Step::LeaderMove,
    Step::Ability,
    Step::Attack,
    Step::Relocate,
    Step::StepUp,
    Step::Over,
];

impl Step {
    pub fn name(self) -> &'static str {
        match self {
            Step::Changes => "changes",
            Step::Element => "element",
            Step::LeaderRow => "leader_row",
            Step::Move => "move",
            Step::LeaderMove => "leader",
            Step::Ability => "ability",
            Step::Attack => "attack",
            Step::Relocate => "relocate",
            Step::StepUp => "step_up",
            Step::Over => "over",
        }
    }
    pub fn parse(s: &str) -> Option<Step> {
        STEPS.into_iter().find(|st| st.name() == s)
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn is_setup(self) -> bool {
        matches!(self, Step::Changes | Step::Element | Step::LeaderRow)
    }
    pub fn is_turn(self) -> bool {
        matches!(
            self,
            Step::Move | Step::LeaderMove | Step::Ability | Step::Attack
        )
    }
}

/// A temporary modifier from an activated leader ability, until the end of the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnMod {
    pub side: u8,
    pub cell: u8,
    pub atk: i8,
    pub def: i8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombatResult {
    Attacker,
    Defender,
    Tie,
}

impl CombatResult {
    pub fn name(self) -> &'static str {
        match self {
            CombatResult::Attacker => "attacker",
            CombatResult::Defender => "defender",
            CombatResult::Tie => "tie",
        }
    }
}

/// The public record of the last combat (SK-6): who, values, dice, result.
/// Index 0 of each pair is the attacker, 1 the defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CombatLog {
    /// The attacking player.
    pub player: u8,
    pub cells: [u8; 2],
    pub cards: [u8; 2],
    /// Combat values after every modifier (SK-6.1-6.4).
    pub values: [i8; 2],
    /// The attacker used its DEF value (SK-9.3 use_defence).
    pub uses_defence: bool,
    pub dice: [u8; 2],
    pub result: CombatResult,
    /// A defeat turned into a tie by an ability (SK-9.3 tie).
    pub tie_by_ability: bool,
    /// Which troops the result sent to the graveyard before survival rolls.
    pub fell: [bool; 2],
    /// Survival rolls made (0 = none), up to two per troop.
    pub survival: [[u8; 2]; 2],
    pub survived: [bool; 2],
    /// Rows eliminated by this combat, per side (attacker's side first): bit r-1.
    pub rows_lost: [u8; 2],
}

impl CombatLog {
    pub fn totals(&self) -> [i32; 2] {
        let (a, d) = (self.values[0] as i32, self.values[1] as i32);
        let adv = a - d;
        [
            self.dice[0] as i32 + adv.max(0),
            self.dice[1] as i32 + (-adv).max(0),
        ]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Running,
    Win(u8),
    Draw,
}

/// The first-player roll (SK-3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FirstRoll {
    pub player: u8,
    /// The deciding roll, player 0's die first.
    pub dice: [u8; 2],
    /// How many tied rolls came before it.
    pub rerolls: u8,
}

/// Per-game constants shared by every copy of a game: card set, options, decks.
#[derive(Debug)]
pub struct Shared {
    pub cards: Arc<CardSet>,
    pub options: Options,
    /// Each player's deck (troop indices, sorted) — public, like the leaders (SK-1.4).
    pub decks: [Vec<u8>; 2],
}

/// A game of STRIFULL.
#[derive(Clone, Debug)]
pub struct Strifull {
    pub(crate) shared: Arc<Shared>,
    pub(crate) sides: [Side; 2],
    pub(crate) step: Step,
    /// Who decides now.
    pub(crate) actor: u8,
    /// Whose turn it is (play phase).
    pub(crate) turn_player: u8,
    /// 0 during setup, then 1, 2, ... (one per player turn).
    pub(crate) turn: u16,
    pub(crate) first: Option<FirstRoll>,
    /// Decisions owed after a combat (SK-7.2, SK-7.3); the head is the current one when
    /// `step` is Relocate or StepUp.
    pub(crate) pending: [(u8, Step); 4],
    pub(crate) pending_len: u8,
    /// The leader ability was used this turn.
    pub(crate) ability_used: bool,
    pub(crate) turn_mod: Option<TurnMod>,
    pub(crate) last_combat: Option<CombatLog>,
    pub(crate) outcome: Outcome,
    pub(crate) rng: GameRng,
}

impl Strifull {
    pub fn cards(&self) -> &CardSet {
        &self.shared.cards
    }
    pub(crate) fn troop(&self, card: u8) -> &TroopCard {
        &self.shared.cards.troops[card as usize]
    }
    pub(crate) fn leader(&self, side: usize) -> &LeaderCard {
        &self.shared.cards.leaders[self.sides[side].leader as usize]
    }
    pub(crate) fn pending_slice(&self) -> &[(u8, Step)] {
        &self.pending[..self.pending_len as usize]
    }
    pub(crate) fn push_pending(&mut self, player: u8, step: Step) {
        if (self.pending_len as usize) < self.pending.len() {
            self.pending[self.pending_len as usize] = (player, step);
            self.pending_len += 1;
        }
    }
    pub(crate) fn pop_pending(&mut self) {
        if self.pending_len > 0 {
            self.pending.copy_within(1..self.pending_len as usize, 0);
            self.pending_len -= 1;
        }
    }

    /// Every card of `side` (field, pile, graveyard), sorted: equals the deck (SK-1.4).
    pub(crate) fn all_cards(&self, side: usize) -> Vec<u8> {
        let s = &self.sides[side];
        let mut v: Vec<u8> = s
            .cells
            .iter()
            .filter(|c| c.occupied())
            .map(|c| c.card)
            .chain(s.pile.as_slice().iter().copied())
            .chain(s.grave.as_slice().iter().copied())
            .collect();
        v.sort_unstable();
        v
    }

    /// Check the structural invariants; `None` if they hold, else what is wrong.
    pub fn invariant_violation(&self) -> Option<String> {
        for p in 0..2 {
            let s = &self.sides[p];
            if self.all_cards(p) != self.shared.decks[p] {
                return Some(format!(
                    "player {p}: field + pile + graveyard differ from the deck"
                ));
            }
            for row in 1..=3 {
                let (a, d) = (s.half_count(0, row), s.half_count(1, row));
                if !s.row_live(row) && a + d > 0 {
                    return Some(format!("player {p}: dead row {row} holds cards"));
                }
                if s.row_live(row) && (a == 0 || d == 0) && self.turn > 0 {
                    return Some(format!("player {p}: live row {row} has an empty half"));
                }
            }
            let relocating = self.step == Step::Relocate
                || self
                    .pending_slice()
                    .iter()
                    .any(|&(q, st)| q as usize == p && st == Step::Relocate);
            if self.turn > 0
                && self.outcome == Outcome::Running
                && !relocating
                && !s.row_live(s.leader_row as usize)
            {
                return Some(format!("player {p}: leader in dead row {}", s.leader_row));
            }
            if s.pile_known as usize > s.pile.len() {
                return Some(format!("player {p}: pile_known exceeds the pile"));
            }
            if s.changes > MAX_CHANGES {
                return Some(format!("player {p}: more than {MAX_CHANGES} changes"));
            }
        }
        match (self.outcome, self.step) {
            (Outcome::Running, Step::Over) => Some("step over while running".into()),
            (Outcome::Win(_) | Outcome::Draw, st) if st != Step::Over => {
                Some("finished game with a step to play".into())
            }
            _ => None,
        }
    }
}

/// Add `by` to a counter without passing `max` in its direction (a counter already past it
/// stays).
fn grow_counter(counter: i8, by: i8, max: u8) -> i8 {
    let max = i16::from(max);
    let (c, b) = (i16::from(counter), i16::from(by));
    let next = if b > 0 {
        if c >= max {
            c
        } else {
            (c + b).min(max)
        }
    } else if b < 0 {
        if c <= -max {
            c
        } else {
            (c + b).max(-max)
        }
    } else {
        c
    };
    next.clamp(i8::MIN.into(), i8::MAX.into()) as i8
}
