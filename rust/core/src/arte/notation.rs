//! The actions of Arte da Guerra: one fixed action space (ids) and a canonical text notation
//! that parses back exactly. Layout and notation are documented in `docs/arte.md`.
//!
//! Cells are named `<column><row>` from the owner's side: columns `a b c`, rows `1 2 3`,
//! row 1 the front. A cell's index is `(row - 1) * 3 + column`.

#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use super::cards::{Card, CardSet};
use crate::error::{Error, Result};
use serde_json::{json, Value};

/// One decision. Cards are global card ids of the game's set (see [`CardSet`]); rows are
/// `0..3` (row 1 = 0) and cells `0..9`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Attack no more this turn (AG-7.1).
    Pass,
    /// Take the face-down draft card (AG-2.3, AG-2.4).
    TakeHidden,
    /// Attack with the own card on this cell (AG-6.2).
    Attack(u8),
    /// Defend with the own card on this cell (AG-6.3, AG-6.4).
    Defend(u8),
    /// The picker hides this drawn card face down and shows the other two (AG-2.2).
    Hide(Card),
    /// Take this face-up draft card (AG-2.3, AG-2.4).
    Take(Card),
    /// Put this own terrain card on this row (AG-3.2).
    Place(Card, u8),
    /// Deploy this own unit card on this cell (AG-5.2).
    Deploy(Card, u8),
    /// Sudden death: this card of the own victory pile, fought on this row (AG-8.2).
    Pick(Card, u8),
}

/// Ids below this are the card-independent actions: pass, take ?, attack and defend cells.
const FIXED: usize = 20;

/// The size of the action space for a card set: `20 + 2N + 3T + 12U` for `T` terrain cards,
/// `U` unit cards and `N = T + U`.
pub fn num_actions(set: &CardSet) -> usize {
    FIXED + 2 * set.len() + 3 * set.num_terrain() + 12 * set.num_units()
}

pub fn action_id(set: &CardSet, a: Action) -> usize {
    let n = set.len();
    let nt = set.num_terrain();
    let unit = |c: Card| (c as usize).saturating_sub(nt);
    match a {
        Action::Pass => 0,
        Action::TakeHidden => 1,
        Action::Attack(cell) => 2 + cell as usize,
        Action::Defend(cell) => 11 + cell as usize,
        Action::Hide(c) => FIXED + c as usize,
        Action::Take(c) => FIXED + n + c as usize,
        Action::Place(t, row) => FIXED + 2 * n + 3 * t as usize + row as usize,
        Action::Deploy(u, cell) => FIXED + 2 * n + 3 * nt + 9 * unit(u) + cell as usize,
        Action::Pick(u, row) => {
            FIXED + 2 * n + 3 * nt + 9 * set.num_units() + 3 * unit(u) + row as usize
        }
    }
}

pub fn action_from_id(set: &CardSet, id: usize) -> Option<Action> {
    let n = set.len();
    let nt = set.num_terrain();
    let nu = set.num_units();
    let unit = |i: usize| (nt + i) as Card;
    let mut i = id;
    Some(match i {
        0 => Action::Pass,
        1 => Action::TakeHidden,
        2..=10 => Action::Attack((i - 2) as u8),
        11..=19 => Action::Defend((i - 11) as u8),
        _ => {
            i -= FIXED;
            if i < n {
                return Some(Action::Hide(i as Card));
            }
            i -= n;
            if i < n {
                return Some(Action::Take(i as Card));
            }
            i -= n;
            if i < 3 * nt {
                return Some(Action::Place((i / 3) as Card, (i % 3) as u8));
            }
            i -= 3 * nt;
            if i < 9 * nu {
                return Some(Action::Deploy(unit(i / 9), (i % 9) as u8));
            }
            i -= 9 * nu;
            if i < 3 * nu {
                return Some(Action::Pick(unit(i / 3), (i % 3) as u8));
            }
            return None;
        }
    })
}

/// `b2`.
pub fn cell_name(cell: u8) -> String {
    let col = (b'a' + cell % 3) as char;
    format!("{col}{}", cell / 3 + 1)
}

/// `b2` -> 4.
pub fn parse_cell(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [c @ b'a'..=b'c', r @ b'1'..=b'3'] => Some((r - b'1') * 3 + (c - b'a')),
        _ => None,
    }
}

fn parse_row(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [r @ b'1'..=b'3'] => Some(r - b'1'),
        _ => None,
    }
}

pub fn notation(set: &CardSet, a: Action) -> String {
    match a {
        Action::Pass => "pass".into(),
        Action::TakeHidden => "take ?".into(),
        Action::Attack(cell) => format!("attack {}", cell_name(cell)),
        Action::Defend(cell) => format!("defend {}", cell_name(cell)),
        Action::Hide(c) => format!("hide {}", set.label(c)),
        Action::Take(c) => format!("take {}", set.label(c)),
        Action::Place(t, row) => format!("place {} {}", set.label(t), row + 1),
        Action::Deploy(u, cell) => format!("deploy {} {}", set.label(u), cell_name(cell)),
        Action::Pick(u, row) => format!("pick {} {}", set.label(u), row + 1),
    }
}

/// Parse the canonical notation (tokens separated by any whitespace). Checks that the cards
/// exist and are of the right kind, not that the action is legal now.
pub fn parse(set: &CardSet, text: &str) -> Result<Action> {
    let bad = |why: &str| Error::notation(text, why);
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let card = |tok: &str| {
        set.parse_label(tok).ok_or_else(|| {
            bad(&format!(
                "no card {tok:?} in this set (terrain T1..T{}, units U1..U{})",
                set.num_terrain(),
                set.num_units()
            ))
        })
    };
    let terrain = |tok: &str| {
        let c = card(tok)?;
        if set.is_terrain(c) {
            Ok(c)
        } else {
            Err(bad("expected a terrain card T<n>"))
        }
    };
    let unit = |tok: &str| {
        let c = card(tok)?;
        if set.is_unit(c) {
            Ok(c)
        } else {
            Err(bad("expected a unit card U<n>"))
        }
    };
    let cell = |tok: &str| parse_cell(tok).ok_or_else(|| bad("expected a cell a1..c3"));
    let row = |tok: &str| parse_row(tok).ok_or_else(|| bad("expected a row 1, 2 or 3"));
    match tokens.as_slice() {
        ["pass"] => Ok(Action::Pass),
        ["take", "?"] => Ok(Action::TakeHidden),
        ["take", c] => Ok(Action::Take(card(c)?)),
        ["hide", c] => Ok(Action::Hide(card(c)?)),
        ["attack", x] => Ok(Action::Attack(cell(x)?)),
        ["defend", x] => Ok(Action::Defend(cell(x)?)),
        ["place", t, r] => Ok(Action::Place(terrain(t)?, row(r)?)),
        ["deploy", u, x] => Ok(Action::Deploy(unit(u)?, cell(x)?)),
        ["pick", u, r] => Ok(Action::Pick(unit(u)?, row(r)?)),
        _ => Err(bad(
            "expected one of: hide <card>, take <card>, take ?, place T<n> <row>, \
             deploy U<n> <cell>, attack <cell>, defend <cell>, pass, pick U<n> <row>",
        )),
    }
}

pub fn to_json(set: &CardSet, a: Action) -> Value {
    let card = |c: Card| Value::from(set.label(c));
    let cell = |x: u8| {
        let name = cell_name(x);
        json!({"cell": name, "row": x / 3 + 1, "column": name.get(..1)})
    };
    match a {
        Action::Pass => json!({"kind": "pass"}),
        Action::TakeHidden => json!({"kind": "take", "card": null, "face_down": true}),
        Action::Attack(x) => merge(json!({"kind": "attack"}), cell(x)),
        Action::Defend(x) => merge(json!({"kind": "defend"}), cell(x)),
        Action::Hide(c) => json!({"kind": "hide", "card": card(c)}),
        Action::Take(c) => json!({"kind": "take", "card": card(c), "face_down": false}),
        Action::Place(t, r) => json!({"kind": "place", "card": card(t), "row": r + 1}),
        Action::Deploy(u, x) => merge(json!({"kind": "deploy", "card": card(u)}), cell(x)),
        Action::Pick(u, r) => json!({"kind": "pick", "card": card(u), "row": r + 1}),
    }
}

fn merge(mut a: Value, b: Value) -> Value {
    if let (Value::Object(a), Value::Object(b)) = (&mut a, b) {
        a.extend(b);
    }
    a
}
