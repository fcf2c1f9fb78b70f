//! The action type, its fixed id layout (sized from the roster and the map) and its text.
//!
//! | action | text | ids |
//! |---|---|---|
//! | pick a Star (ZN-4.2) | `pick ignara` | `0..S` (roster order) |
//! | place slot `i` on a zone (ZN-4.4) | `place 1 2,-1` | `S + i·Z + z` |
//! | start slot `i`'s play (ZN-6.1) | `play 1` | `P = S + K·Z`, then `P + i` |
//! | move to a zone (ZN-6.2) | `move 2,-1` | `M = P + K`, then `M + z` |
//! | activate ability `a` on zone `z` (ZN-6.4, ZN-7.1) | `use bola_de_fogo 2,-1` | `U = M + Z`, then `U + (a·Z + z)·2` |
//! | the same, paying the alternative cost (ZN-10.4) | `use julgamento 1,0 alt` | `U + (a·Z + z)·2 + 1` |
//! | collect Renown (ZN-6.5) | `collect` | `T = U + 8·Z` |
//! | end the play (ZN-6.6) | `end play` | `T + 1` |
//! | end the turn (ZN-6.1) | `end turn` | `T + 2` |
//! | react with ability `a` (ZN-9.4) | `react esquiva` | `T + 3 + a·2` |
//! | the same, paying the alternative cost | `react veu_sombrio alt` | `T + 3 + a·2 + 1` |
//! | decline the reaction (ZN-9.4) | `decline` | `T + 11` |
//!
//! `S` roster size, `K` Stars per player, `Z` zones (in `HexMap::zones` order, `z` an index),
//! `a` the ability's place on its Star's sheet (`0..4`, the roster order). Slots are numbered
//! from 1 in text (the order the player picked them), from 0 in ids. Zones are written `q,r`.
//! An ability is written by its id when the acting Star is known (the playing Star, or the
//! Star a reaction window asks about), else by its number on the sheet, 1 to 4; both parse.
//! A self-targeted ability names its user's zone (`use muralha 0,0`). The acting Star is
//! not in the action: it is the one whose play is open, or the one the reaction window asks
//! about (`Zinordia::offers`), so each id means one thing in each state.

use super::content::ABILITIES;
use super::state::{Shared, Zinordia};
use crate::error::{Error, Result};
use crate::hex::Hex;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Pick(u8),
    Place {
        slot: u8,
        zone: u8,
    },
    Play(u8),
    Move(u8),
    /// Activate ability `ability` of the playing Star on zone `target`; `alt`: pay the
    /// alternative cost instead of the Âmago (ZN-10.4).
    Activate {
        ability: u8,
        target: u8,
        alt: bool,
    },
    Collect,
    EndPlay,
    EndTurn,
    /// Use reaction `ability` of the Star the open reaction window asks about (its target is
    /// itself or the trigger's source, as the data says); `alt` as for `Activate`.
    React {
        ability: u8,
        alt: bool,
    },
    /// Decline the open reaction window (ZN-9.4).
    Decline,
}

/// Abilities per Star, as a `u8` for ids.
const A: usize = ABILITIES;

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
    fn use_base(&self) -> usize {
        self.move_base() + self.zones.len()
    }
    fn tail_base(&self) -> usize {
        self.use_base() + A * self.zones.len() * 2
    }

    pub fn num_actions(&self) -> usize {
        self.tail_base() + 3 + A * 2 + 1
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
            Action::Activate {
                ability,
                target,
                alt,
            } => {
                self.use_base()
                    + (usize::from(ability) * z + usize::from(target)) * 2
                    + usize::from(alt)
            }
            Action::Collect => self.tail_base(),
            Action::EndPlay => self.tail_base() + 1,
            Action::EndTurn => self.tail_base() + 2,
            Action::React { ability, alt } => {
                self.tail_base() + 3 + usize::from(ability) * 2 + usize::from(alt)
            }
            Action::Decline => self.tail_base() + 3 + A * 2,
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
        } else if id < self.use_base() {
            Action::Move(byte(id - self.move_base())?)
        } else if id < self.tail_base() {
            let i = id - self.use_base();
            Action::Activate {
                ability: byte(i / 2 / z)?,
                target: byte(i / 2 % z)?,
                alt: i % 2 == 1,
            }
        } else {
            match id - self.tail_base() {
                0 => Action::Collect,
                1 => Action::EndPlay,
                2 => Action::EndTurn,
                i if i < 3 + A * 2 => Action::React {
                    ability: byte((i - 3) / 2)?,
                    alt: (i - 3) % 2 == 1,
                },
                i if i == 3 + A * 2 => Action::Decline,
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

    /// The text of an action without a state: abilities by their number on the sheet.
    pub fn action_notation(&self, a: Action) -> String {
        self.notation_with(a, None)
    }

    /// The text, abilities named from the roster entry `star` when given.
    fn notation_with(&self, a: Action, star: Option<usize>) -> String {
        let ability = |i: u8| {
            star.and_then(|s| self.content.stars.get(s))
                .and_then(|d| d.abilities.get(usize::from(i)))
                .map_or_else(|| (u16::from(i) + 1).to_string(), |ab| ab.id.clone())
        };
        let alt = |alt: bool| if alt { " alt" } else { "" };
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
            Action::Activate {
                ability: i,
                target,
                alt: a,
            } => format!("use {} {}{}", ability(i), self.zone_text(target), alt(a)),
            Action::Collect => "collect".into(),
            Action::EndPlay => "end play".into(),
            Action::EndTurn => "end turn".into(),
            Action::React { ability: i, alt: a } => format!("react {}{}", ability(i), alt(a)),
            Action::Decline => "decline".into(),
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

    /// An ability: its number on the sheet (1 to 4), or its id on the roster entry `star`.
    fn parse_ability(&self, text: &str, word: &str, star: Option<usize>) -> Result<u8> {
        if let Ok(n) = word.parse::<usize>() {
            if n == 0 || n > A {
                return Err(Error::notation(text, format!("abilities are 1 to {A}")));
            }
            return Ok((n - 1) as u8);
        }
        star.and_then(|s| self.content.stars.get(s))
            .and_then(|d| d.abilities.iter().position(|ab| ab.id == word))
            .and_then(|i| u8::try_from(i).ok())
            .ok_or_else(|| {
                Error::notation(
                    text,
                    "no such ability on the acting Star (name it by id, or by its number 1 to 4)",
                )
            })
    }

    pub fn parse_action(&self, text: &str) -> Result<Action> {
        self.parse_with(text, None)
    }

    /// Parse, reading ability ids on the roster entry `star` when given.
    fn parse_with(&self, text: &str, star: Option<usize>) -> Result<Action> {
        let words: Vec<&str> = text.split_whitespace().collect();
        // Messages quote at most 40 characters of the user's text.
        let quoted: String = text.chars().take(40).collect();
        let quoted = quoted.as_str();
        let alt = |w: Option<&&str>| -> Result<bool> {
            match w {
                None => Ok(false),
                Some(&"alt") => Ok(true),
                Some(_) => Err(Error::notation(
                    quoted,
                    "after the ability only \"alt\" may follow",
                )),
            }
        };
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
            ["use", ability, zone, rest @ ..] if rest.len() <= 1 => Ok(Action::Activate {
                ability: self.parse_ability(quoted, ability, star)?,
                target: self.parse_zone(quoted, zone)?,
                alt: alt(rest.first())?,
            }),
            ["react", ability, rest @ ..] if rest.len() <= 1 => Ok(Action::React {
                ability: self.parse_ability(quoted, ability, star)?,
                alt: alt(rest.first())?,
            }),
            ["decline"] => Ok(Action::Decline),
            ["collect"] => Ok(Action::Collect),
            ["end", "play"] => Ok(Action::EndPlay),
            ["end", "turn"] => Ok(Action::EndTurn),
            _ => Err(Error::notation(
                quoted,
                "expected pick <star>, place <slot> <q,r>, play <slot>, move <q,r>, \
                 use <ability> <q,r> [alt], collect, end play, end turn, \
                 react <ability> [alt] or decline",
            )),
        }
    }
}

impl Zinordia {
    /// The roster entry of the Star that would act with `a` now: the Star a reaction
    /// window asks about, or the playing Star.
    fn actor_roster(&self, a: Action) -> Option<usize> {
        let slot = match a {
            Action::React { .. } => self.offers.front().map(|o| o.star),
            Action::Activate { .. } => self.play.map(|p| p.star),
            _ => None,
        }?;
        self.stars.get(slot).map(|s| s.roster)
    }

    /// The text of an action in this state: abilities by id when the acting Star is known.
    pub fn action_notation(&self, a: Action) -> String {
        self.shared.notation_with(a, self.actor_roster(a))
    }

    /// Parse an action's text in this state: ability ids are read on the acting Star.
    pub fn parse_action(&self, text: &str) -> Result<Action> {
        let star = if text.split_whitespace().next() == Some("react") {
            self.offers.front().map(|o| o.star)
        } else {
            self.play.map(|p| p.star)
        };
        let roster = star.and_then(|s| self.stars.get(s)).map(|s| s.roster);
        self.shared.parse_with(text, roster)
    }
}

impl Zinordia {
    /// An action as a person reads it, with names (`use Investida → Vésper at 2,3`), in the
    /// state it is played from. Display only: records and parsing keep the notation.
    pub fn action_text(&self, a: Action) -> String {
        let sh = &self.shared;
        let at = |z: u8| {
            sh.zones
                .get(usize::from(z))
                .map_or_else(|| "?".to_string(), |h| format!("{},{}", h.x, h.y))
        };
        let star_name = |s: usize| {
            self.stars
                .get(s)
                .and_then(|st| sh.content.stars.get(st.roster))
                .map(|d| d.name.clone())
        };
        let slot_star = |slot: u8| {
            self.current_player()
                .map(|p| p * sh.per_player + usize::from(slot))
        };
        let ability = |s: Option<usize>, i: u8| {
            s.filter(|&s| s < self.stars.len())
                .and_then(|s| self.ability(s, i))
                .map_or_else(|| format!("{}", u16::from(i) + 1), |ab| ab.name.clone())
        };
        let alt = |alt: bool| if alt { " (alternative cost)" } else { "" };
        match a {
            Action::Pick(s) => match sh.content.stars.get(usize::from(s)) {
                Some(d) => format!("pick {}", d.name),
                None => sh.action_notation(a),
            },
            Action::Place { slot, zone } => match slot_star(slot).and_then(star_name) {
                Some(n) => format!("place {n} at {}", at(zone)),
                None => sh.action_notation(a),
            },
            Action::Play(slot) => match slot_star(slot).and_then(star_name) {
                Some(n) => format!("play {n}"),
                None => sh.action_notation(a),
            },
            Action::Move(zone) => match self.play.and_then(|p| star_name(p.star)) {
                Some(n) => format!("move {n} to {}", at(zone)),
                None => sh.action_notation(a),
            },
            Action::Activate {
                ability: i,
                target,
                alt: paid,
            } => {
                let user = self.play.map(|p| p.star);
                let on = sh
                    .zones
                    .get(usize::from(target))
                    .and_then(|&h| self.board.occupant(h))
                    .and_then(|s| star_name(s as usize));
                let whom = on.map_or_else(String::new, |n| format!(" → {n}"));
                format!(
                    "use {}{whom} at {}{}",
                    ability(user, i),
                    at(target),
                    alt(paid)
                )
            }
            Action::React {
                ability: i,
                alt: paid,
            } => {
                let star = self.offers.front().map(|o| o.star);
                let who = star
                    .and_then(star_name)
                    .map_or_else(String::new, |n| format!("{n}: "));
                format!("{who}react {}{}", ability(star, i), alt(paid))
            }
            Action::Collect => match self.play.and_then(|p| star_name(p.star)) {
                Some(n) => format!("collect Renown ({n})"),
                None => sh.action_notation(a),
            },
            Action::EndPlay | Action::EndTurn | Action::Decline => sh.action_notation(a),
        }
    }
}
