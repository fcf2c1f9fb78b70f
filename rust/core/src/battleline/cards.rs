//! The 70 cards, card sets as bitsets, and the card notation (`R10`, `Alexander`).
//!
//! Card ids: troop `colour * 10 + (value - 1)` for colours `R O Y G B P` (0..6) and values
//! 1..=10, so ids 0..60; then the ten tactics cards 60..70 in the order of [`TACTICS_NAMES`].
//! Bit `id` of a [`CardSet`] is the card `id`; the troops are its low 60 bits, which is what
//! the claim proofs work on (as a `u64`).

// User input passes through here: no panicking index or unwrap (tests aside).
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)
)]

use crate::error::{Error, Result};
use std::fmt;

/// Colour letters, in id order.
pub const COLOURS: [char; 6] = ['R', 'O', 'Y', 'G', 'B', 'P'];
/// Colour names, for rendering and docs.
pub const COLOUR_NAMES: [&str; 6] = ["red", "orange", "yellow", "green", "blue", "purple"];
/// Tactics card names in id order (ids 60..70).
pub const TACTICS_NAMES: [&str; 10] = [
    "Alexander",
    "Darius",
    "Cavalry",
    "Shield",
    "Fog",
    "Mud",
    "Scout",
    "Redeploy",
    "Deserter",
    "Traitor",
];

pub const NUM_TROOPS: usize = 60;
pub const NUM_TACTICS: usize = 10;
pub const NUM_CARDS: usize = 70;

/// One card, by id (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Card(pub u8);

impl Card {
    pub const ALEXANDER: Card = Card(60);
    pub const DARIUS: Card = Card(61);
    pub const CAVALRY: Card = Card(62);
    pub const SHIELD: Card = Card(63);
    pub const FOG: Card = Card(64);
    pub const MUD: Card = Card(65);
    pub const SCOUT: Card = Card(66);
    pub const REDEPLOY: Card = Card(67);
    pub const DESERTER: Card = Card(68);
    pub const TRAITOR: Card = Card(69);

    /// The troop card of `colour` (0..6) and `value` (1..=10).
    #[inline]
    pub const fn troop(colour: u8, value: u8) -> Card {
        Card(colour * 10 + value - 1)
    }
    #[inline]
    pub const fn id(self) -> usize {
        self.0 as usize
    }
    /// A card from its id, if in range.
    pub fn from_id(id: usize) -> Option<Card> {
        (id < NUM_CARDS).then_some(Card(id as u8))
    }
    #[inline]
    pub const fn is_troop(self) -> bool {
        self.0 < 60
    }
    #[inline]
    pub const fn is_tactics(self) -> bool {
        self.0 >= 60 && self.0 < 70
    }
    /// Alexander or Darius.
    #[inline]
    pub const fn is_leader(self) -> bool {
        self.0 == 60 || self.0 == 61
    }
    /// Leaders, Companion Cavalry and Shield Bearers: played into a formation like troops.
    #[inline]
    pub const fn is_morale(self) -> bool {
        self.0 >= 60 && self.0 < 64
    }
    /// Cards that go into a formation slot: troops and morale tactics.
    #[inline]
    pub const fn is_formation_card(self) -> bool {
        self.0 < 64
    }
    /// Fog and Mud.
    #[inline]
    pub const fn is_environment(self) -> bool {
        self.0 == 64 || self.0 == 65
    }
    /// Scout, Redeploy, Deserter, Traitor.
    #[inline]
    pub const fn is_guile(self) -> bool {
        self.0 >= 66 && self.0 < 70
    }
    /// Colour index 0..6 of a troop.
    #[inline]
    pub const fn colour(self) -> u8 {
        self.0 / 10
    }
    /// Value 1..=10 of a troop.
    #[inline]
    pub const fn value(self) -> u8 {
        self.0 % 10 + 1
    }
    /// The highest value the card can stand for in a formation (troops: their value;
    /// Leader 10, Cavalry 8, Shield Bearers 3; other tactics 0).
    pub const fn max_value(self) -> u8 {
        match self.0 {
            0..=59 => self.value(),
            60 | 61 => 10,
            62 => 8,
            63 => 3,
            _ => 0,
        }
    }
    /// The deck the card belongs to.
    #[inline]
    pub const fn deck(self) -> Deck {
        if self.is_troop() {
            Deck::Troop
        } else {
            Deck::Tactics
        }
    }
    #[inline]
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// Parse the card notation: `R10`, `B1`, or a tactics name. Exact spelling.
    pub fn parse(text: &str) -> Result<Card> {
        let bad = |why: &str| Error::notation(text, why.to_string());
        if let Some(i) = TACTICS_NAMES.iter().position(|n| *n == text) {
            return Ok(Card(60 + i as u8));
        }
        let mut chars = text.chars();
        let first = chars.next().ok_or_else(|| bad("empty card"))?;
        let colour = COLOURS.iter().position(|c| *c == first).ok_or_else(|| {
            bad("a card is a colour letter R O Y G B P with a value 1-10 (R10), or a tactics name: Alexander Darius Cavalry Shield Fog Mud Scout Redeploy Deserter Traitor")
        })?;
        let rest = chars.as_str();
        let value: u8 = match rest {
            "1" => 1,
            "2" => 2,
            "3" => 3,
            "4" => 4,
            "5" => 5,
            "6" => 6,
            "7" => 7,
            "8" => 8,
            "9" => 9,
            "10" => 10,
            _ => return Err(bad("a troop value is 1-10")),
        };
        Ok(Card::troop(colour as u8, value))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let colour = COLOURS.get(self.colour() as usize);
        let tactics = self.id().checked_sub(60).and_then(|i| TACTICS_NAMES.get(i));
        match (colour, tactics) {
            (Some(c), _) if self.is_troop() => write!(f, "{c}{}", self.value()),
            (_, Some(name)) => f.write_str(name),
            _ => write!(f, "?{}", self.0),
        }
    }
}

/// The two draw decks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Deck {
    Troop,
    Tactics,
}

impl Deck {
    pub const fn name(self) -> &'static str {
        match self {
            Deck::Troop => "troop",
            Deck::Tactics => "tactics",
        }
    }
    pub const fn index(self) -> usize {
        match self {
            Deck::Troop => 0,
            Deck::Tactics => 1,
        }
    }
}

/// A set of cards as a 70-bit bitset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct CardSet(pub u128);

pub const ALL_CARDS: CardSet = CardSet((1u128 << 70) - 1);
pub const ALL_TROOPS: u64 = (1u64 << 60) - 1;
pub const TACTICS_BITS: u128 = ((1u128 << 10) - 1) << 60;

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    #[inline]
    pub const fn contains(self, c: Card) -> bool {
        self.0 >> c.0 & 1 == 1
    }
    #[inline]
    pub fn insert(&mut self, c: Card) {
        self.0 |= c.bit();
    }
    #[inline]
    pub fn remove(&mut self, c: Card) {
        self.0 &= !c.bit();
    }
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The troop cards, as the low 60 bits.
    #[inline]
    pub const fn troops(self) -> u64 {
        self.0 as u64 & ALL_TROOPS
    }
    #[inline]
    pub const fn tactics(self) -> CardSet {
        CardSet(self.0 & TACTICS_BITS)
    }
    #[inline]
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }
    pub fn from_cards(cards: &[Card]) -> CardSet {
        CardSet(cards.iter().fold(0, |a, c| a | c.bit()))
    }
}

/// Cards of a set in ascending id order.
pub struct CardIter(u128);

impl Iterator for CardIter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Card(i as u8))
        }
    }
}

impl std::str::FromStr for Card {
    type Err = Error;
    fn from_str(text: &str) -> Result<Card> {
        Card::parse(text)
    }
}

/// In saved states a card is its notation (`"R10"`, `"Scout"`).
impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Card, D::Error> {
        struct Notation;
        impl serde::de::Visitor<'_> for Notation {
            type Value = Card;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a card notation string (R10, Scout, ...)")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> std::result::Result<Card, E> {
                // The longest notation is 9 characters: a longer text is not echoed back.
                if text.chars().count() > 12 {
                    return Err(E::custom(
                        "not a card notation: a card is a colour letter with a value (R10) or a tactics name",
                    ));
                }
                Card::parse(text).map_err(E::custom)
            }
        }
        d.deserialize_str(Notation)
    }
}

/// Cards of a 64-bit troop set in ascending id order.
pub fn troops_of(bits: u64) -> CardIter {
    CardIter(bits as u128)
}

/// Parse a list of card notations.
pub fn parse_cards<S: AsRef<str>>(items: &[S]) -> Result<Vec<Card>> {
    items.iter().map(|s| Card::parse(s.as_ref())).collect()
}

/// Join cards with spaces: `R10 R9 Alexander`.
pub fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_notation_round_trips() {
        for id in 0..NUM_CARDS {
            let c = Card(id as u8);
            assert_eq!(Card::parse(&c.to_string()).unwrap(), c, "{c}");
        }
        assert_eq!(Card::parse("R10").unwrap(), Card::troop(0, 10));
        assert_eq!(Card::parse("P1").unwrap(), Card(50));
    }

    #[test]
    fn bad_card_notation_is_rejected() {
        for t in [
            "",
            "R0",
            "R11",
            "r5",
            "X3",
            "R",
            "R05",
            "alexander",
            "Leader",
        ] {
            assert!(Card::parse(t).is_err(), "{t:?}");
        }
    }

    #[test]
    fn card_classes() {
        assert!(Card::ALEXANDER.is_leader() && Card::DARIUS.is_leader());
        assert!(Card::CAVALRY.is_morale() && !Card::FOG.is_morale());
        assert!(Card::FOG.is_environment() && Card::MUD.is_environment());
        assert!(Card::SCOUT.is_guile() && Card::TRAITOR.is_guile());
        assert_eq!(Card::SHIELD.max_value(), 3);
        assert_eq!(CardSet(ALL_CARDS.0).len(), 70);
        let s = CardSet::from_cards(&[Card(3), Card(65), Card(0)]);
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            vec![Card(0), Card(3), Card(65)]
        );
    }
}
