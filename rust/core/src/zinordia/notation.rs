//! The action type, its fixed id layout (sized from the roster and the map) and its text.
//!
//! | action | text | ids |
//! |---|---|---|
//! | pick a Star (ZN-4.2) | `pick ignara` | `0..S` (roster order) |
//! | place slot `i` on a zone (ZN-4.4) | `place 1 2,-1` | `S + i·Z + z` |
//! | start slot `i`'s play (ZN-6.1) | `play 1` | `S + K·Z + i` |
//! | move to a zone (ZN-6.2) | `move 2,-1` | `S + K·Z + K + z` |
//! | collect Renown (ZN-6.5) | `collect` | then 1 each: |
//! | end the play (ZN-6.6) | `end play` | |
//! | end the turn (ZN-6.1) | `end turn` | |
//!
//! `S` roster size, `K` Stars per player, `Z` zones (in `HexMap::zones` order, `z` an index);
//! slots are numbered from 1 in text (the order the player picked them), from 0 in ids.
//! Zones are written `q,r`.

use super::state::Shared;
use crate::error::{Error, Result};
use crate::hex::Hex;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Pick(u8),
    Place { slot: u8, zone: u8 },
    Play(u8),
    Move(u8),
    Collect,
    EndPlay,
    EndTurn,
}

impl Shared {
    fn place_base(&self) -> usize {
        self.content.stars.len()
    }
    fn play_base(&self) -> usize {
        self.place_base() + self.per_player * self.zones.len()
    }
    fn move_base(&self) -> usize {
        self.play_base() + self.per_player
    }
    fn tail_base(&self) -> usize {
        self.move_base() + self.zones.len()
    }

    pub fn num_actions(&self) -> usize {
        self.tail_base() + 3
    }

    pub fn action_id(&self, a: Action) -> usize {
        let z = self.zones.len();
        match a {
            Action::Pick(s) => usize::from(s),
            Action::Place { slot, zone } => {
                self.place_base() + usize::from(slot) * z + usize::from(zone)
            }
            Action::Play(slot) => self.play_base() + usize::from(slot),
            Action::Move(zone) => self.move_base() + usize::from(zone),
            Action::Collect => self.tail_base(),
            Action::EndPlay => self.tail_base() + 1,
            Action::EndTurn => self.tail_base() + 2,
        }
    }

    pub fn action_from_id(&self, id: usize) -> Option<Action> {
        let z = self.zones.len();
        let byte = |v: usize| u8::try_from(v).ok();
        Some(if id < self.place_base() {
            Action::Pick(byte(id)?)
        } else if id < self.play_base() {
            let i = id - self.place_base();
            Action::Place {
                slot: byte(i / z)?,
                zone: byte(i % z)?,
            }
        } else if id < self.move_base() {
            Action::Play(byte(id - self.play_base())?)
        } else if id < self.tail_base() {
            Action::Move(byte(id - self.move_base())?)
        } else {
            match id - self.tail_base() {
                0 => Action::Collect,
                1 => Action::EndPlay,
                2 => Action::EndTurn,
                _ => return None,
            }
        })
    }

    fn zone_text(&self, zone: u8) -> String {
        match self.zones.get(usize::from(zone)) {
            Some(h) => format!("{},{}", h.x, h.y),
            None => format!("zone{zone}"),
        }
    }

    pub fn action_notation(&self, a: Action) -> String {
        match a {
            Action::Pick(s) => match self.content.stars.get(usize::from(s)) {
                Some(star) => format!("pick {}", star.id),
                None => format!("pick #{s}"),
            },
            Action::Place { slot, zone } => {
                format!("place {} {}", u16::from(slot) + 1, self.zone_text(zone))
            }
            Action::Play(slot) => format!("play {}", u16::from(slot) + 1),
            Action::Move(zone) => format!("move {}", self.zone_text(zone)),
            Action::Collect => "collect".into(),
            Action::EndPlay => "end play".into(),
            Action::EndTurn => "end turn".into(),
        }
    }

    fn parse_zone(&self, text: &str, word: &str) -> Result<u8> {
        let bad = |why: &str| Error::notation(text, why.to_string());
        let (q, r) = word
            .split_once(',')
            .ok_or_else(|| bad("a zone is written q,r"))?;
        let q: i32 = q.trim().parse().map_err(|_| bad("a zone is written q,r"))?;
        let r: i32 = r.trim().parse().map_err(|_| bad("a zone is written q,r"))?;
        let z = self
            .zone_id(Hex::new(q, r))
            .ok_or_else(|| bad("no such zone on this map"))?;
        u8::try_from(z).map_err(|_| bad("no such zone on this map"))
    }

    fn parse_slot(&self, text: &str, word: &str) -> Result<u8> {
        let n: usize = word
            .parse()
            .map_err(|_| Error::notation(text, "a Star is its slot number, 1 and up"))?;
        if n == 0 || n > self.per_player {
            return Err(Error::notation(
                text,
                format!("slots are 1 to {}", self.per_player),
            ));
        }
        Ok((n - 1) as u8)
    }

    pub fn parse_action(&self, text: &str) -> Result<Action> {
        let words: Vec<&str> = text.split_whitespace().collect();
        // Messages quote at most 40 characters of the user's text.
        let quoted: String = text.chars().take(40).collect();
        let quoted = quoted.as_str();
        match words.as_slice() {
            ["pick", id] => self
                .content
                .star(id)
                .and_then(|s| u8::try_from(s).ok())
                .map(Action::Pick)
                .ok_or_else(|| Error::notation(quoted, "no Star with this id in the roster")),
            ["place", slot, zone] => Ok(Action::Place {
                slot: self.parse_slot(quoted, slot)?,
                zone: self.parse_zone(quoted, zone)?,
            }),
            ["play", slot] => Ok(Action::Play(self.parse_slot(quoted, slot)?)),
            ["move", zone] => Ok(Action::Move(self.parse_zone(quoted, zone)?)),
            ["collect"] => Ok(Action::Collect),
            ["end", "play"] => Ok(Action::EndPlay),
            ["end", "turn"] => Ok(Action::EndTurn),
            _ => Err(Error::notation(
                quoted,
                "expected pick <star>, place <slot> <q,r>, play <slot>, move <q,r>, collect, end play or end turn",
            )),
        }
    }
}
