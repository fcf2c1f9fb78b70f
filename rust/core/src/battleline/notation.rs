//! Actions: the fixed action space (ids) and the text notation.
//!
//! | ids          | action                                  | notation              |
//! |--------------|-----------------------------------------|-----------------------|
//! | 0..594       | play card `c` (0..66) at flag `f`: `c*9+f` | `R10@3`, `Alexander@0`, `Fog@8` |
//! | 594          | play Scout                              | `Scout`               |
//! | 595..1255    | Redeploy own card `c` to flag `d` (0..9) or discard (`d = 9`): `595+c*10+d` | `Redeploy R5>2`, `Redeploy Mud>discard` |
//! | 1255..1321   | Deserter on opponent card `c`: `1255+c` | `Deserter B7`         |
//! | 1321..1915   | Traitor: opponent card `c` to own side of flag `f`: `1321+c*9+f` | `Traitor B7>4` |
//! | 1915         | pass                                    | `pass`                |
//! | 1916..1925   | claim flag `f`                          | `claim 4`             |
//! | 1925         | end the claims of this turn             | `done`                |
//! | 1926, 1927   | draw from the troop / tactics deck (also Scout's draws) | `draw troop`, `draw tactics` |
//! | 1928..1998   | Scout: put card `c` from hand back on top of its deck | `return R5` |
//!
//! Card ids as in [`super::cards`]; only troops, morale cards, Fog and Mud (ids 0..66) are
//! ever placed at a flag, so those are the cards plays and Redeploy/Deserter/Traitor name.

// User input passes through here: no panicking index or unwrap (tests aside).
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)
)]

use super::cards::{Card, Deck};
use crate::error::{Error, Result};
use serde_json::{json, Value};
use std::fmt;

/// One decision of a Battle Line game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Play a troop, morale or environment card from hand at a flag (own side).
    Play { card: Card, flag: u8 },
    /// Play Scout (its draws and returns follow as separate decisions).
    Scout,
    /// Play Redeploy: move an own card from an unclaimed flag to another flag (`Some`) or
    /// discard it (`None`).
    Redeploy { card: Card, to: Option<u8> },
    /// Play Deserter: discard an opponent card from an unclaimed flag.
    Deserter { card: Card },
    /// Play Traitor: move an opponent card from an unclaimed flag to the own side of `flag`.
    Traitor { card: Card, flag: u8 },
    /// Pass the play step (only without a legal troop play).
    Pass,
    /// Claim a flag.
    Claim(u8),
    /// End this turn's claims.
    Done,
    /// Draw a card from a deck (the draw step, and Scout's draws).
    Draw(Deck),
    /// Scout: put a card from hand back on top of its deck.
    Return(Card),
}

pub const NUM_PLACEABLE: usize = 66;
pub const PLAY_BASE: usize = 0;
pub const SCOUT_ID: usize = NUM_PLACEABLE * 9;
pub const REDEPLOY_BASE: usize = SCOUT_ID + 1;
pub const DESERTER_BASE: usize = REDEPLOY_BASE + NUM_PLACEABLE * 10;
pub const TRAITOR_BASE: usize = DESERTER_BASE + NUM_PLACEABLE;
pub const PASS_ID: usize = TRAITOR_BASE + NUM_PLACEABLE * 9;
pub const CLAIM_BASE: usize = PASS_ID + 1;
pub const DONE_ID: usize = CLAIM_BASE + 9;
pub const DRAW_TROOP_ID: usize = DONE_ID + 1;
pub const DRAW_TACTICS_ID: usize = DRAW_TROOP_ID + 1;
pub const RETURN_BASE: usize = DRAW_TACTICS_ID + 1;
/// Size of the action space.
pub const NUM_ACTIONS: usize = RETURN_BASE + 70;

impl Action {
    /// The action's id in `0..NUM_ACTIONS`.
    pub fn id(self) -> usize {
        match self {
            Action::Play { card, flag } => PLAY_BASE + card.id() * 9 + flag as usize,
            Action::Scout => SCOUT_ID,
            Action::Redeploy { card, to } => {
                REDEPLOY_BASE + card.id() * 10 + to.map_or(9, |f| f as usize)
            }
            Action::Deserter { card } => DESERTER_BASE + card.id(),
            Action::Traitor { card, flag } => TRAITOR_BASE + card.id() * 9 + flag as usize,
            Action::Pass => PASS_ID,
            Action::Claim(f) => CLAIM_BASE + f as usize,
            Action::Done => DONE_ID,
            Action::Draw(Deck::Troop) => DRAW_TROOP_ID,
            Action::Draw(Deck::Tactics) => DRAW_TACTICS_ID,
            Action::Return(card) => RETURN_BASE + card.id(),
        }
    }

    /// The action with this id, if in range.
    pub fn from_id(id: usize) -> Option<Action> {
        let card = |i: usize| Card(i as u8);
        Some(match id {
            i if i < SCOUT_ID => Action::Play {
                card: card(i / 9),
                flag: (i % 9) as u8,
            },
            SCOUT_ID => Action::Scout,
            i if i < DESERTER_BASE => {
                let r = i - REDEPLOY_BASE;
                Action::Redeploy {
                    card: card(r / 10),
                    to: (r % 10 < 9).then_some((r % 10) as u8),
                }
            }
            i if i < TRAITOR_BASE => Action::Deserter {
                card: card(i - DESERTER_BASE),
            },
            i if i < PASS_ID => {
                let r = i - TRAITOR_BASE;
                Action::Traitor {
                    card: card(r / 9),
                    flag: (r % 9) as u8,
                }
            }
            PASS_ID => Action::Pass,
            i if i < DONE_ID => Action::Claim((i - CLAIM_BASE) as u8),
            DONE_ID => Action::Done,
            DRAW_TROOP_ID => Action::Draw(Deck::Troop),
            DRAW_TACTICS_ID => Action::Draw(Deck::Tactics),
            i if i < NUM_ACTIONS => Action::Return(card(i - RETURN_BASE)),
            _ => return None,
        })
    }

    /// Parse the notation (see the module docs). Surrounding whitespace is ignored.
    pub fn parse(text: &str) -> Result<Action> {
        // The longest action is 26 characters (`Redeploy Alexander>discard`): a longer text is
        // refused without being echoed back in full.
        if let Some((cut, _)) = text.char_indices().nth(40) {
            return Err(Error::notation(
                format!("{}…", text.get(..cut).unwrap_or_default()),
                "longer than any Battle Line action",
            ));
        }
        let t = text.trim();
        let bad = |why: String| Error::notation(text, why);
        let flag = |s: &str| -> Result<u8> {
            match s.as_bytes() {
                [d @ b'0'..=b'8'] => Ok(d - b'0'),
                _ => Err(bad(format!("{s:?} is not a flag 0-8"))),
            }
        };
        let placeable = |s: &str| -> Result<Card> {
            let c = Card::parse(s).map_err(|e| bad(e.to_string()))?;
            if c.id() < NUM_PLACEABLE {
                Ok(c)
            } else {
                Err(bad(format!("{c} is never placed at a flag")))
            }
        };
        match t {
            "Scout" => return Ok(Action::Scout),
            "pass" => return Ok(Action::Pass),
            "done" => return Ok(Action::Done),
            "draw troop" => return Ok(Action::Draw(Deck::Troop)),
            "draw tactics" => return Ok(Action::Draw(Deck::Tactics)),
            _ => {}
        }
        if let Some(rest) = t.strip_prefix("claim ") {
            return Ok(Action::Claim(flag(rest)?));
        }
        if let Some(rest) = t.strip_prefix("return ") {
            let c = Card::parse(rest).map_err(|e| bad(e.to_string()))?;
            return Ok(Action::Return(c));
        }
        if let Some(rest) = t.strip_prefix("Deserter ") {
            return Ok(Action::Deserter {
                card: placeable(rest)?,
            });
        }
        if let Some(rest) = t.strip_prefix("Redeploy ") {
            let (c, to) = rest.split_once('>').ok_or_else(|| {
                bad("Redeploy needs a target: `Redeploy R5>3` or `Redeploy R5>discard`".into())
            })?;
            let to = if to == "discard" {
                None
            } else {
                Some(flag(to)?)
            };
            return Ok(Action::Redeploy {
                card: placeable(c)?,
                to,
            });
        }
        if let Some(rest) = t.strip_prefix("Traitor ") {
            let (c, f) = rest
                .split_once('>')
                .ok_or_else(|| bad("Traitor needs a target flag: `Traitor R5>3`".into()))?;
            return Ok(Action::Traitor {
                card: placeable(c)?,
                flag: flag(f)?,
            });
        }
        if let Some((c, f)) = t.split_once('@') {
            return Ok(Action::Play {
                card: placeable(c)?,
                flag: flag(f)?,
            });
        }
        Err(bad(
            "expected `R10@3`, `Fog@2`, `Scout`, `Redeploy R5>3`, `Redeploy R5>discard`, `Deserter R5`, `Traitor R5>3`, `pass`, `claim 4`, `done`, `draw troop`, `draw tactics` or `return R5`".into(),
        ))
    }

    /// A structured description.
    pub fn to_json(self) -> Value {
        match self {
            Action::Play { card, flag } => {
                json!({"kind": "play", "card": card.to_string(), "flag": flag})
            }
            Action::Scout => json!({"kind": "scout", "card": "Scout"}),
            Action::Redeploy { card, to } => json!({
                "kind": "redeploy", "card": card.to_string(),
                "to": to.map_or(Value::from("discard"), Value::from),
            }),
            Action::Deserter { card } => json!({"kind": "deserter", "card": card.to_string()}),
            Action::Traitor { card, flag } => {
                json!({"kind": "traitor", "card": card.to_string(), "to": flag})
            }
            Action::Pass => json!({"kind": "pass"}),
            Action::Claim(f) => json!({"kind": "claim", "flag": f}),
            Action::Done => json!({"kind": "done"}),
            Action::Draw(d) => json!({"kind": "draw", "deck": d.name()}),
            Action::Return(card) => json!({
                "kind": "return", "card": card.to_string(), "deck": card.deck().name(),
            }),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Play { card, flag } => write!(f, "{card}@{flag}"),
            Action::Scout => f.write_str("Scout"),
            Action::Redeploy { card, to: Some(t) } => write!(f, "Redeploy {card}>{t}"),
            Action::Redeploy { card, to: None } => write!(f, "Redeploy {card}>discard"),
            Action::Deserter { card } => write!(f, "Deserter {card}"),
            Action::Traitor { card, flag } => write!(f, "Traitor {card}>{flag}"),
            Action::Pass => f.write_str("pass"),
            Action::Claim(x) => write!(f, "claim {x}"),
            Action::Done => f.write_str("done"),
            Action::Draw(d) => write!(f, "draw {}", d.name()),
            Action::Return(card) => write!(f, "return {card}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_round_trips_through_action_and_notation() {
        assert_eq!(NUM_ACTIONS, 1998);
        for id in 0..NUM_ACTIONS {
            let a = Action::from_id(id).unwrap();
            assert_eq!(a.id(), id, "{a:?}");
            let text = a.to_string();
            assert_eq!(Action::parse(&text).unwrap(), a, "{text}");
        }
        assert!(Action::from_id(NUM_ACTIONS).is_none());
    }

    #[test]
    fn notation_examples() {
        let long = "Redeploy ".repeat(1000);
        let e = Action::parse(&long).unwrap_err().to_string();
        assert!(e.len() < 120, "{e}");
        let p = |s| Action::parse(s).unwrap();
        assert_eq!(
            p("R10@3"),
            Action::Play {
                card: Card::troop(0, 10),
                flag: 3
            }
        );
        assert_eq!(
            p("Fog@2"),
            Action::Play {
                card: Card::FOG,
                flag: 2
            }
        );
        assert_eq!(p("claim 4"), Action::Claim(4));
        assert_eq!(p("draw troop"), Action::Draw(Deck::Troop));
        assert_eq!(
            p("Redeploy Mud>discard"),
            Action::Redeploy {
                card: Card::MUD,
                to: None
            }
        );
        assert_eq!(p(" pass "), Action::Pass);
    }

    #[test]
    fn bad_notation_is_rejected() {
        for t in [
            "",
            "R10@9",
            "R10@",
            "@3",
            "Scout@3",
            "claim 9",
            "claim",
            "Deserter Scout",
            "Redeploy R5",
            "Redeploy R5>9",
            "Traitor R5>discard",
            "draw",
            "return X1",
            "PASS",
            "R10 @3",
        ] {
            assert!(Action::parse(t).is_err(), "{t:?}");
        }
    }
}
