//! Actions: the one fixed action space (ids), canonical text notation and JSON
//! descriptions. The layout is documented in `docs/strifull.md`.

// This module reads user input (saved states, notation, card files): no panicking access.
#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use super::content::Element;
use super::state::{cell_name, parse_cell, zone_of, Dir, CELLS, DIRS};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

// ---- values of the text formats (JSON, TOML): each checks itself, so a serde error
// lands on its path ---------------------------------------------------------------------

/// An integer in `LO..=HI`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "i64")]
pub(crate) struct Int<const LO: i64, const HI: i64>(pub(crate) i64);

impl<const LO: i64, const HI: i64> TryFrom<i64> for Int<LO, HI> {
    type Error = String;
    fn try_from(n: i64) -> std::result::Result<Self, String> {
        if (LO..=HI).contains(&n) {
            Ok(Int(n))
        } else {
            Err(format!("{n} is out of range {LO}..={HI}"))
        }
    }
}
impl<const LO: i64, const HI: i64> From<Int<LO, HI>> for i64 {
    fn from(n: Int<LO, HI>) -> i64 {
        n.0
    }
}
impl<const LO: i64, const HI: i64> Int<LO, HI> {
    /// From the engine's own value (always in range when the state is valid).
    pub(crate) fn of(n: impl Into<i64>) -> Self {
        Int(n.into())
    }
    // The range fits the target type (LO..=HI are at most -128..=127 where used).
    pub(crate) fn i8(self) -> i8 {
        self.0 as i8
    }
    pub(crate) fn u8(self) -> u8 {
        self.0 as u8
    }
}

pub(crate) type PlayerNo = Int<0, 1>;
pub(crate) type Die = Int<1, 6>;
pub(crate) type RowNo = Int<1, 3>;

/// A cell name such as `aB2` (zone, column, row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub(crate) struct CellName(pub(crate) u8);

impl TryFrom<String> for CellName {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Self, String> {
        parse_cell(&s)
            .map(|c| CellName(c as u8))
            .ok_or_else(|| "expected a cell such as \"aB2\"".to_string())
    }
}
impl From<CellName> for String {
    fn from(c: CellName) -> String {
        cell_name(c.0 as usize)
    }
}

/// One decision. Cells are indices 0..18 of a field (see `state.rs`); which field is implied
/// by the action (own cells, except the target of an attack and of `AbilityFoe`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Decline the current optional step (setup changes, battle move, leader move, leader
    /// ability, step-up; and an attack step with no legal attack).
    Pass,
    /// Setup change: swap two own field cards (first < second).
    Swap(u8, u8),
    /// Setup change: swap a field card with the pile's top card (it goes under the pile).
    PileSwap(u8),
    /// Setup: the leader's elemental token.
    Element(Element),
    /// The leader to row 1..=3: setup placement, turn step II, or relocation.
    Leader(u8),
    /// Battle move of the own troop at a cell.
    Move(u8, Dir),
    /// Battle move: replace the own troop at a cell with the pile's top card.
    Replace(u8),
    /// The leader's activated ability on an opposing troop.
    AbilityFoe(u8),
    /// The leader's activated ability on an own troop.
    AbilityOwn(u8),
    /// Own attack-zone cell attacks opposing defence-zone cell.
    Attack(u8, u8),
    /// After row 2 fell: move row 3 up.
    StepUp,
}

const PAIRS: usize = CELLS * (CELLS - 1) / 2; // 153
pub const ID_PASS: usize = 0;
pub const ID_SWAP: usize = 1;
pub const ID_PILE: usize = ID_SWAP + PAIRS; // 154
pub const ID_ELEMENT: usize = ID_PILE + CELLS; // 172
pub const ID_LEADER: usize = ID_ELEMENT + 4; // 176
pub const ID_MOVE: usize = ID_LEADER + 3; // 179
pub const ID_REPLACE: usize = ID_MOVE + CELLS * 5; // 269
pub const ID_ABILITY_FOE: usize = ID_REPLACE + CELLS; // 287
pub const ID_ABILITY_OWN: usize = ID_ABILITY_FOE + CELLS; // 305
pub const ID_ATTACK: usize = ID_ABILITY_OWN + CELLS; // 323
pub const ID_STEP_UP: usize = ID_ATTACK + 81; // 404
pub const NUM_ACTIONS: usize = ID_STEP_UP + 1; // 405

/// Index of the pair (a, b), a < b, among the 153 pairs of cells in lexicographic order.
fn pair_index(a: usize, b: usize) -> usize {
    a * (2 * CELLS - a - 1) / 2 + (b - a - 1)
}

fn pair_from_index(mut i: usize) -> (usize, usize) {
    for a in 0..CELLS {
        let n = CELLS - 1 - a;
        if i < n {
            return (a, a + 1 + i);
        }
        i -= n;
    }
    (CELLS - 2, CELLS - 1) // unreachable for i < PAIRS
}

impl Action {
    pub fn id(self) -> usize {
        match self {
            Action::Pass => ID_PASS,
            Action::Swap(a, b) => {
                let (a, b) = (a.min(b) as usize, a.max(b) as usize);
                ID_SWAP + pair_index(a, b)
            }
            Action::PileSwap(c) => ID_PILE + c as usize,
            Action::Element(e) => ID_ELEMENT + e.index(),
            Action::Leader(r) => ID_LEADER + r as usize - 1,
            Action::Move(c, d) => ID_MOVE + c as usize * 5 + d.index(),
            Action::Replace(c) => ID_REPLACE + c as usize,
            Action::AbilityFoe(c) => ID_ABILITY_FOE + c as usize,
            Action::AbilityOwn(c) => ID_ABILITY_OWN + c as usize,
            Action::Attack(a, t) => ID_ATTACK + a as usize * 9 + (t as usize - 9),
            Action::StepUp => ID_STEP_UP,
        }
    }

    pub fn from_id(id: usize) -> Option<Action> {
        Some(match id {
            ID_PASS => Action::Pass,
            i if i < ID_PILE => {
                let (a, b) = pair_from_index(i - ID_SWAP);
                Action::Swap(a as u8, b as u8)
            }
            i if i < ID_ELEMENT => Action::PileSwap((i - ID_PILE) as u8),
            i if i < ID_LEADER => Action::Element(Element::from_index(i - ID_ELEMENT)?),
            i if i < ID_MOVE => Action::Leader((i - ID_LEADER + 1) as u8),
            i if i < ID_REPLACE => {
                let k = i - ID_MOVE;
                Action::Move((k / 5) as u8, *DIRS.get(k % 5)?)
            }
            i if i < ID_ABILITY_FOE => Action::Replace((i - ID_REPLACE) as u8),
            i if i < ID_ABILITY_OWN => Action::AbilityFoe((i - ID_ABILITY_FOE) as u8),
            i if i < ID_ATTACK => Action::AbilityOwn((i - ID_ABILITY_OWN) as u8),
            i if i < ID_STEP_UP => {
                let k = i - ID_ATTACK;
                Action::Attack((k / 9) as u8, (k % 9 + 9) as u8)
            }
            ID_STEP_UP => Action::StepUp,
            _ => return None,
        })
    }

    /// Canonical text (`docs/strifull.md`).
    pub fn notation(self) -> String {
        let c = |x: u8| cell_name(x as usize);
        match self {
            Action::Pass => "pass".into(),
            Action::Swap(a, b) => format!("swap {} {}", c(a.min(b)), c(a.max(b))),
            Action::PileSwap(a) => format!("swap {} pile", c(a)),
            Action::Element(e) => format!("element {}", e.name()),
            Action::Leader(r) => format!("leader {r}"),
            Action::Move(a, d) => match d.dest(a as usize) {
                Some(b) => format!("move {} {}", c(a), cell_name(b)),
                // A direction off the zone: never legal, but every id has a notation.
                None => format!("move {} {}", c(a), dir_name(d)),
            },
            Action::Replace(a) => format!("replace {}", c(a)),
            Action::AbilityFoe(a) => format!("ability foe {}", c(a)),
            Action::AbilityOwn(a) => format!("ability own {}", c(a)),
            Action::Attack(a, t) => format!("attack {} {}", c(a), c(t)),
            Action::StepUp => "up".into(),
        }
    }

    pub fn parse(text: &str) -> Result<Action> {
        let bad = |why: &str| Error::notation(text, why);
        let words: Vec<&str> = text.split_whitespace().collect();
        let cell = |w: &str| -> Result<u8> {
            parse_cell(w).map(|c| c as u8).ok_or_else(|| {
                bad(&format!(
                    "{w:?} is not a cell: zone a/d, column A-C, row 1-3 (e.g. aB2)"
                ))
            })
        };
        match words.as_slice() {
            ["pass"] => Ok(Action::Pass),
            ["up"] => Ok(Action::StepUp),
            ["swap", a, "pile"] => Ok(Action::PileSwap(cell(a)?)),
            ["swap", a, b] => {
                let (a, b) = (cell(a)?, cell(b)?);
                if a == b {
                    return Err(bad("a swap needs two different cells"));
                }
                Ok(Action::Swap(a.min(b), a.max(b)))
            }
            ["element", e] => Element::parse(e)
                .map(Action::Element)
                .ok_or_else(|| bad("elements are fire, water, wind, earth")),
            ["leader", r] => match *r {
                "1" => Ok(Action::Leader(1)),
                "2" => Ok(Action::Leader(2)),
                "3" => Ok(Action::Leader(3)),
                _ => Err(bad("leader rows are 1, 2, 3")),
            },
            ["move", a, b] => {
                let a = cell(a)?;
                if let Some(d) = DIRS.into_iter().find(|d| dir_name(*d) == *b) {
                    return Ok(Action::Move(a, d));
                }
                let b = cell(b)?;
                Dir::between(a as usize, b as usize)
                    .map(|d| Action::Move(a, d))
                    .ok_or_else(|| {
                        bad("a battle move goes to an adjacent cell of the same zone or to the same cell of the other zone")
                    })
            }
            ["replace", a] => Ok(Action::Replace(cell(a)?)),
            ["ability", "foe", a] => Ok(Action::AbilityFoe(cell(a)?)),
            ["ability", "own", a] => Ok(Action::AbilityOwn(cell(a)?)),
            ["attack", a, t] => {
                let (a, t) = (cell(a)?, cell(t)?);
                if zone_of(a as usize) != 0 {
                    return Err(bad("the attacker stands in the attack zone (a..)"));
                }
                if zone_of(t as usize) != 1 {
                    return Err(bad("the target stands in the defence zone (d..)"));
                }
                Ok(Action::Attack(a, t))
            }
            _ => Err(bad(
                "expected pass, up, swap X Y, swap X pile, element E, leader R, move X Y, \
                 replace X, ability foe X, ability own X or attack X Y",
            )),
        }
    }

    pub fn to_json(self) -> Value {
        let c = |x: u8| cell_name(x as usize);
        match self {
            Action::Pass => json!({"kind": "pass"}),
            Action::Swap(a, b) => json!({"kind": "swap", "cells": [c(a.min(b)), c(a.max(b))]}),
            Action::PileSwap(a) => json!({"kind": "swap_pile", "cell": c(a)}),
            Action::Element(e) => json!({"kind": "element", "element": e.name()}),
            Action::Leader(r) => json!({"kind": "leader", "row": r}),
            Action::Move(a, d) => json!({
                "kind": "move", "from": c(a),
                "to": d.dest(a as usize).map(cell_name), "direction": dir_name(d),
            }),
            Action::Replace(a) => json!({"kind": "replace", "cell": c(a)}),
            Action::AbilityFoe(a) => json!({"kind": "ability", "side": "foe", "cell": c(a)}),
            Action::AbilityOwn(a) => json!({"kind": "ability", "side": "own", "cell": c(a)}),
            Action::Attack(a, t) => json!({"kind": "attack", "attacker": c(a), "target": c(t)}),
            Action::StepUp => json!({"kind": "step_up"}),
        }
    }
}

/// Direction words, used only for moves off the zone (which are never legal).
pub fn dir_name(d: Dir) -> &'static str {
    match d {
        Dir::Forward => "forward",
        Dir::Back => "back",
        Dir::Inward => "inward",
        Dir::Outward => "outward",
        Dir::Cross => "cross",
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_id_round_trips_through_action_and_notation() {
        for id in 0..NUM_ACTIONS {
            let a = Action::from_id(id).unwrap();
            assert_eq!(a.id(), id, "{a:?}");
            let text = a.notation();
            assert_eq!(Action::parse(&text).unwrap(), a, "{text}");
        }
        assert_eq!(Action::from_id(NUM_ACTIONS), None);
        assert_eq!(NUM_ACTIONS, 405);
    }

    #[test]
    fn notation_examples() {
        assert_eq!(
            Action::parse("attack aB2 dC1").unwrap(),
            Action::Attack(4, 11)
        );
        assert_eq!(
            Action::parse("move aA1 dA1").unwrap(),
            Action::Move(0, Dir::Cross)
        );
        assert_eq!(Action::parse("swap dA1 aA1").unwrap(), Action::Swap(0, 9));
        assert!(Action::parse("attack dA1 dA2").is_err());
        assert!(Action::parse("move aA1 aC1").is_err());
        assert!(Action::parse("swap aA1 aA1").is_err());
        assert!(Action::parse("leader 4").is_err());
        assert!(Action::parse("").is_err());
    }
}
