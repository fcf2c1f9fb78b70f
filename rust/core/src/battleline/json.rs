//! The saved state (`to_json` / `from_json`; the format is in `docs/battleline.md`), read in
//! two steps as shakmaty reads a position (`Setup` → `Position`):
//!
//! 1. `StateData` is the plain data serde reads and writes: unknown keys are refused,
//!    cards are their notation, and `serde_path_to_error` makes an error name its path
//!    (`$.flags[3].sides[1]`);
//! 2. `StateData::into_state` is the one validation step: every card exactly once and where
//!    it may lie, the counters in range, the rule invariants of `BattleLine::validate_rules`,
//!    and only then the state.
// User input passes through here: no panicking index or unwrap (tests aside).
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)
)]

use super::cards::{Card, CardSet, NUM_CARDS, TACTICS_BITS};
use super::state::*;
use crate::error::{decode_state, Error, Result};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// A player index in a saved state: 0 or 1.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(try_from = "u64", into = "u8")]
pub(crate) struct Side(u8);

impl TryFrom<u64> for Side {
    type Error = &'static str;
    fn try_from(n: u64) -> std::result::Result<Side, &'static str> {
        match n {
            0 => Ok(Side(0)),
            1 => Ok(Side(1)),
            _ => Err("expected 0 or 1"),
        }
    }
}

impl From<Side> for u8 {
    fn from(s: Side) -> u8 {
        s.0
    }
}

/// The saved state as plain data, not yet checked against the rules. `H` is a card the
/// viewer may not see: [`Card`] in a full state, `Option<Card>` (hidden: `null`) in a view.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StateData<H = Card> {
    options: Options,
    flags: Vec<FlagData>,
    hands: [Vec<H>; 2],
    /// Derived from `hands`; optional, checked when given.
    #[serde(default)]
    hand_counts: Option<[HandCount; 2]>,
    troop_deck: Vec<H>,
    tactics_deck: Vec<H>,
    discard: Vec<Card>,
    to_move: Side,
    phase: Phase,
    #[serde(deserialize_with = "required")]
    scout: Option<ScoutData>,
    tactics_played: [u8; 2],
    leader_played: [bool; 2],
    pass_streak: u8,
    #[serde(deserialize_with = "required")]
    winner: Option<Side>,
    scout_known: [KnownData; 2],
    /// Each player's latest turn when it put a troop on a flag (public: everyone saw it; the
    /// redraw of that player's hand reads it). Missing (a state saved before it existed) or
    /// `null`: none.
    #[serde(default)]
    last_troop_play: [Option<PlayData>; 2],
}

/// A troop put on a flag.
#[derive(Serialize, Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayData {
    pub(crate) card: Card,
    pub(crate) flag: u8,
}

/// One flag: formation cards per side in play order, Fog/Mud beside it, claim, first complete.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FlagData {
    sides: [Vec<Card>; 2],
    /// Missing or `null`: nothing beside the flag.
    #[serde(default)]
    env: Option<Vec<EnvData>>,
    #[serde(default)]
    claimed: Option<Side>,
    #[serde(default)]
    first_complete: Option<Side>,
}

/// An environment card beside a flag and the side that owns it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EnvData {
    card: Card,
    side: Side,
}

#[derive(Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct HandCount {
    troops: u32,
    tactics: u32,
}

/// Scout's progress: `draws_left` during `scout_draw`, `returns_left` during `scout_return`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScoutData {
    drawn: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draws_left: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    returns_left: Option<u8>,
}

/// What one player knows through Scout: deck positions (0 = bottom) of the cards they put
/// back, and the cards of the opponent's hand they saw drawn from there.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KnownData {
    #[serde(default)]
    troop_deck: Vec<u64>,
    #[serde(default)]
    tactics_deck: Vec<u64>,
    #[serde(default)]
    opponent_hand: Vec<Card>,
}

/// A key that must be present even though it may be `null` (serde would default a missing
/// `Option` to `None`).
fn required<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> std::result::Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

impl BattleLine {
    /// This state as plain data, as `viewer` sees it (`None`: everything). A viewer sees the
    /// opponent's hand as `null`s after the cards they know there (Scout), and the decks as
    /// `null`s except at the positions they know.
    pub(crate) fn state_data(&self, viewer: Option<usize>) -> StateData<Option<Card>> {
        let known = viewer.and_then(|v| self.known.get(v));
        let hand = |p: usize, h: CardSet| -> Vec<Option<Card>> {
            match (viewer, known) {
                (Some(v), Some(k)) if v != p => {
                    let mut cards: Vec<Option<Card>> =
                        CardSet(h.0 & k.opp_hand.0).iter().map(Some).collect();
                    cards.resize(h.len(), None);
                    cards
                }
                _ => h.iter().map(Some).collect(),
            }
        };
        let deck = |cards: &[Card], d: usize| -> Vec<Option<Card>> {
            let mask = known.map_or(u64::MAX, |k| k.deck_pos.get(d).copied().unwrap_or(0));
            cards
                .iter()
                .enumerate()
                .map(|(i, &c)| (mask >> i & 1 == 1).then_some(c))
                .collect()
        };
        let [h0, h1] = self.hands;
        StateData {
            options: self.options.clone(),
            flags: self.flags.iter().map(FlagData::of).collect(),
            hands: [hand(0, h0), hand(1, h1)],
            hand_counts: Some(self.hands.map(|h| HandCount {
                troops: h.troops().count_ones(),
                tactics: h.tactics().len() as u32,
            })),
            troop_deck: deck(self.troop_deck.as_slice(), 0),
            tactics_deck: deck(self.tactics_deck.as_slice(), 1),
            discard: self.discard.as_slice().to_vec(),
            to_move: Side(self.to_move),
            phase: self.phase,
            scout: match self.phase {
                Phase::ScoutDraw => Some(ScoutData {
                    drawn: self.scout_drawn,
                    draws_left: Some(self.scout_left),
                    returns_left: None,
                }),
                Phase::ScoutReturn => Some(ScoutData {
                    drawn: self.scout_drawn,
                    draws_left: None,
                    returns_left: Some(self.scout_left),
                }),
                _ => None,
            },
            tactics_played: self.tactics_played,
            leader_played: self.leader_played,
            pass_streak: self.pass_streak,
            winner: self.winner.map(Side),
            scout_known: self.known.map(|k| {
                let [troops, tactics] = k.deck_pos;
                KnownData {
                    troop_deck: positions(troops),
                    tactics_deck: positions(tactics),
                    opponent_hand: k.opp_hand.iter().collect(),
                }
            }),
            last_troop_play: self
                .last_play
                .map(|lp| lp.map(|(card, flag)| PlayData { card, flag })),
        }
    }

    /// The complete state.
    pub fn to_value(&self) -> Value {
        // Plain structs of strings, numbers and lists: serializing them cannot fail.
        serde_json::to_value(self.state_data(None)).unwrap_or(Value::Null)
    }

    /// Read and validate a saved state: a `StateError` names the path and the rule.
    pub fn from_value(value: &Value) -> Result<BattleLine> {
        if !value.is_object() {
            return Err(Error::state("$", "expected a JSON object"));
        }
        let data: StateData = decode_state(value)?;
        data.into_state()
    }

    /// Rule invariants of a rebuilt state: (path, why) of the first one broken.
    pub(crate) fn validate_rules(&self) -> std::result::Result<(), (String, String)> {
        let e = |p: &str, w: String| Err((p.to_string(), w));
        for (p, table) in self.table.iter().enumerate() {
            let leaders = table.0 & (Card::ALEXANDER.bit() | Card::DARIUS.bit());
            if leaders.count_ones() > 1 {
                return e(
                    "$.flags",
                    format!("player {p} has two Leaders in play (BL-6.2)"),
                );
            }
        }
        let [a, b] = self.tactics_played;
        if a.abs_diff(b) > 1 {
            return e(
                "$.tactics_played",
                "one player is two tactics cards ahead (BL-6.1)".into(),
            );
        }
        let [t0, t1] = self.table;
        let out_of_decks =
            (t0.0 | t1.0 | CardSet::from_cards(self.discard.as_slice()).0) & TACTICS_BITS;
        if out_of_decks.count_ones() != u32::from(a) + u32::from(b) {
            return e(
                "$.tactics_played",
                format!(
                    "{} tactics cards are on the table or discarded, but {} were played",
                    out_of_decks.count_ones(),
                    u32::from(a) + u32::from(b)
                ),
            );
        }
        let won = [self.has_won(0), self.has_won(1)];
        match self.phase {
            Phase::Over => {
                let [f0, f1] = self.flags_won();
                let expect = if won[0] {
                    Some(0)
                } else if won[1] {
                    Some(1)
                } else {
                    if self.pass_streak < 2 {
                        return e(
                            "$.phase",
                            "the game is over without 3 adjacent or 5 flags and without two passes in a row (BL-11)".into(),
                        );
                    }
                    match f0.cmp(&f1) {
                        std::cmp::Ordering::Greater => Some(0),
                        std::cmp::Ordering::Less => Some(1),
                        std::cmp::Ordering::Equal => None,
                    }
                };
                if self.winner != expect {
                    return e(
                        "$.winner",
                        format!("expected {expect:?} from the flags (BL-11)"),
                    );
                }
            }
            _ => {
                if won[0] || won[1] {
                    return e(
                        "$.phase",
                        "a player has won (3 adjacent or 5 flags, BL-11.1/11.2): the phase must be over".into(),
                    );
                }
                if self.winner.is_some() {
                    return e("$.winner", "the game is not over".into());
                }
            }
        }
        let hand = self.hand(self.to_move()).map_or(0, |h| h.len());
        let decks_full = !self.troop_deck.is_empty() && !self.tactics_deck.is_empty();
        match self.phase {
            Phase::Draw if hand >= HAND_SIZE || !decks_full => e(
                "$.phase",
                "a draw step is a choice only with fewer than 7 cards in hand and both decks non-empty (BL-3.4)".into(),
            ),
            Phase::ScoutDraw if !decks_full => e(
                "$.phase",
                "a Scout draw is a choice only with both decks non-empty (BL-8.1)".into(),
            ),
            Phase::ScoutReturn if hand < self.scout_left as usize => {
                e("$.scout", "fewer cards in hand than to return".into())
            }
            _ => Ok(()),
        }
    }
}

/// The set bits of a position mask, ascending.
fn positions(mask: u64) -> Vec<u64> {
    (0..64).filter(|i| mask >> i & 1 == 1).collect()
}

impl FlagData {
    fn of(f: &Flag) -> FlagData {
        let env = [(Card::FOG, f.fog), (Card::MUD, f.mud)]
            .into_iter()
            .filter_map(|(card, side)| {
                side.map(|s| EnvData {
                    card,
                    side: Side(s),
                })
            })
            .collect();
        FlagData {
            sides: [f.side(0).to_vec(), f.side(1).to_vec()],
            env: Some(env),
            claimed: f.claimed.map(Side),
            first_complete: f.first_complete.map(Side),
        }
    }
}

/// Where each card was found so far: every card exists once (BL-1.4).
struct Places([Option<String>; NUM_CARDS]);

impl Places {
    fn mark(&mut self, c: Card, path: &str) -> Result<()> {
        let slot = self
            .0
            .get_mut(c.id())
            .ok_or_else(|| Error::state(path, "not a card"))?;
        if let Some(prev) = slot {
            return Err(Error::state(
                path,
                format!("{c} is already at {prev} (each card exists once, BL-1.4)"),
            ));
        }
        *slot = Some(path.to_string());
        Ok(())
    }
}

impl StateData {
    /// The one validation step: plain data to a state, or the path and rule of the first
    /// inconsistency.
    fn into_state(self) -> Result<BattleLine> {
        if self.options.first_player > 1 {
            return Err(Error::state("$.options.first_player", "must be 0 or 1"));
        }
        let mut places = Places(std::array::from_fn(|_| None));
        let flags = self.flags_checked(&mut places)?;

        let mut hands = [CardSet::EMPTY; 2];
        for ((p, cards), hand) in self.hands.iter().enumerate().zip(&mut hands) {
            let hp = format!("$.hands[{p}]");
            if cards.len() > HAND_SIZE + 2 {
                return Err(Error::state(
                    &hp,
                    format!(
                        "{} cards: a hand holds at most 7 (9 during Scout)",
                        cards.len()
                    ),
                ));
            }
            for (i, &c) in cards.iter().enumerate() {
                places.mark(c, &format!("{hp}[{i}]"))?;
                hand.insert(c);
            }
        }
        let mut troop_deck = Stack::<60>::default();
        for (i, &c) in self.troop_deck.iter().enumerate() {
            let cp = format!("$.troop_deck[{i}]");
            if !c.is_troop() {
                return Err(Error::state(&cp, format!("{c} is not a troop card")));
            }
            places.mark(c, &cp)?;
            troop_deck.push(c);
        }
        let mut tactics_deck = Stack::<10>::default();
        for (i, &c) in self.tactics_deck.iter().enumerate() {
            let cp = format!("$.tactics_deck[{i}]");
            if !c.is_tactics() {
                return Err(Error::state(&cp, format!("{c} is not a tactics card")));
            }
            places.mark(c, &cp)?;
            tactics_deck.push(c);
        }
        let mut discard = Stack::<70>::default();
        for (i, &c) in self.discard.iter().enumerate() {
            places.mark(c, &format!("$.discard[{i}]"))?;
            discard.push(c);
        }
        if let Some(i) = places.0.iter().position(Option::is_none) {
            return Err(Error::state(
                "$",
                format!(
                    "{} is missing: every card must be somewhere (BL-1.4)",
                    Card(i as u8)
                ),
            ));
        }

        for (i, &n) in self.tactics_played.iter().enumerate() {
            if n > 10 {
                return Err(Error::state(
                    format!("$.tactics_played[{i}]"),
                    "expected 0..10",
                ));
            }
        }
        if self.pass_streak > 4 {
            return Err(Error::state("$.pass_streak", "expected 0..4"));
        }

        let mut last_play = [None; 2];
        for (p, (slot, data)) in last_play.iter_mut().zip(&self.last_troop_play).enumerate() {
            if let Some(PlayData { card, flag }) = *data {
                let path = format!("$.last_troop_play[{p}]");
                if !card.is_troop() || usize::from(flag) >= NUM_FLAGS {
                    return Err(Error::state(path, "expected a troop card and a flag 0..8"));
                }
                // A played troop stays on the table or goes to the discard pile.
                let place = places
                    .0
                    .get(card.id())
                    .cloned()
                    .flatten()
                    .unwrap_or_default();
                if !place.starts_with("$.flags") && !place.starts_with("$.discard") {
                    return Err(Error::state(
                        path,
                        format!(
                            "{card} was played, so it is on the table or discarded, not at {place}"
                        ),
                    ));
                }
                *slot = Some((card, flag));
            }
        }

        let mut g = BattleLine {
            options: self.options,
            flags,
            hands,
            troop_deck,
            tactics_deck,
            discard,
            to_move: self.to_move.0,
            phase: self.phase,
            scout_left: 0,
            scout_drawn: 0,
            tactics_played: self.tactics_played,
            leader_played: self.leader_played,
            pass_streak: self.pass_streak,
            winner: self.winner.map(u8::from),
            known: [Knowledge::default(); 2],
            last_play,
            loc: [0; NUM_CARDS],
            table: [CardSet::EMPTY; 2],
            unseen: 0,
            claimed_mask: 0,
            claimable: 0,
            masks: Default::default(),
        };
        (g.scout_drawn, g.scout_left) = scout_counts(self.scout.as_ref(), &g)?;
        for (p, (k, data)) in g.known.iter_mut().zip(&self.scout_known).enumerate() {
            *k = data.knowledge(p, &g.troop_deck, &g.tactics_deck, hands)?;
        }

        g.rebuild();
        g.validate_rules()
            .map_err(|(path, why)| Error::state(path, why))?;
        if let Some(given) = &self.hand_counts {
            let derived = g.state_data(None).hand_counts;
            if derived.as_ref() != Some(given) {
                let expect = serde_json::to_string(&derived).unwrap_or_default();
                return Err(Error::state(
                    "$.hand_counts",
                    format!("does not match the hands: expected {expect}"),
                ));
            }
        }
        Ok(g)
    }

    /// The nine flags, each card marked where it lies: sides within the flag's size
    /// (BL-4.2), only formation cards on the sides (BL-4.1), only Fog and Mud beside it
    /// (BL-7.1), claims and first completions consistent with the sides (BL-9).
    fn flags_checked(&self, places: &mut Places) -> Result<[Flag; NUM_FLAGS]> {
        if self.flags.len() != NUM_FLAGS {
            return Err(Error::state(
                "$.flags",
                format!("expected 9 flags, found {}", self.flags.len()),
            ));
        }
        let mut flags = [Flag::default(); NUM_FLAGS];
        for ((f, data), fl) in self.flags.iter().enumerate().zip(&mut flags) {
            let fp = format!("$.flags[{f}]");
            for (i, e) in data.env.iter().flatten().enumerate() {
                let ep = format!("{fp}.env[{i}]");
                match e.card {
                    Card::FOG => fl.fog = Some(e.side.0),
                    Card::MUD => fl.mud = Some(e.side.0),
                    c => {
                        return Err(Error::state(
                            format!("{ep}.card"),
                            format!("{c}: only Fog and Mud lie beside a flag (BL-7.1)"),
                        ))
                    }
                }
                places.mark(e.card, &ep)?;
            }
            for (s, cards) in data.sides.iter().enumerate() {
                let sp = format!("{fp}.sides[{s}]");
                if cards.len() > fl.capacity() {
                    return Err(Error::state(
                        &sp,
                        format!(
                            "{} cards, but a side holds at most {} here (BL-4.2)",
                            cards.len(),
                            fl.capacity()
                        ),
                    ));
                }
                for (i, &c) in cards.iter().enumerate() {
                    let cp = format!("{sp}[{i}]");
                    if !c.is_formation_card() {
                        return Err(Error::state(
                            &cp,
                            format!("{c} is not a troop or morale card (BL-4.1)"),
                        ));
                    }
                    places.mark(c, &cp)?;
                    fl.push(s, c);
                }
            }
            fl.claimed = data.claimed.map(u8::from);
            fl.first_complete = data.first_complete.map(u8::from);
            let complete = |s: u8| fl.is_complete(usize::from(s));
            let ok = match fl.first_complete {
                None => !complete(0) && !complete(1),
                Some(s) => complete(s),
            };
            if !ok {
                return Err(Error::state(
                    format!("{fp}.first_complete"),
                    "must name a complete side, and a complete side when one is (BL-9.6)",
                ));
            }
            if let Some(w) = fl.claimed {
                if !complete(w) {
                    return Err(Error::state(
                        format!("{fp}.claimed"),
                        format!("player {w} claims it without a complete formation (BL-9.2)"),
                    ));
                }
            }
        }
        Ok(flags)
    }
}

/// Scout's (drawn, left) counters: present exactly during Scout's steps, with the key of the
/// step, and consistent (draw up to 3, return all but one, at most 2: BL-8.1).
fn scout_counts(scout: Option<&ScoutData>, g: &BattleLine) -> Result<(u8, u8)> {
    let drawing = match g.phase {
        Phase::ScoutDraw => true,
        Phase::ScoutReturn => false,
        _ if scout.is_some() => return Err(Error::state("$.scout", "only during Scout's steps")),
        _ => return Ok((0, 0)),
    };
    let s = scout
        .ok_or_else(|| Error::state("$.scout", "expected the Scout state during Scout's steps"))?;
    let (left, other, key, other_key) = if drawing {
        (s.draws_left, s.returns_left, "draws_left", "returns_left")
    } else {
        (s.returns_left, s.draws_left, "returns_left", "draws_left")
    };
    if other.is_some() {
        return Err(Error::state(
            format!("$.scout.{other_key}"),
            format!("not during {}", g.phase.name()),
        ));
    }
    let in_range = |n: Option<u8>, k: &str| {
        n.filter(|&n| n <= 3)
            .ok_or_else(|| Error::state(format!("$.scout.{k}"), "expected 0..3"))
    };
    let drawn = in_range(Some(s.drawn), "drawn")?;
    let left = in_range(left, key)?;
    let ok = if drawing {
        left >= 1 && drawn + left <= 3 && left as usize <= g.troop_deck.len() + g.tactics_deck.len()
    } else {
        left >= 1 && left <= drawn.saturating_sub(1).min(2)
    };
    if !ok {
        return Err(Error::state(
            "$.scout",
            "inconsistent Scout counts (draw up to 3, return all but one, at most 2: BL-8.1)",
        ));
    }
    Ok((drawn, left))
}

impl KnownData {
    /// Player `p`'s Scout knowledge: positions inside the decks, cards in the opponent's hand.
    fn knowledge(
        &self,
        p: usize,
        troop_deck: &Stack<60>,
        tactics_deck: &Stack<10>,
        hands: [CardSet; 2],
    ) -> Result<Knowledge> {
        let path = format!("$.scout_known[{p}]");
        let mut k = Knowledge::default();
        let [troop_mask, tactics_mask] = &mut k.deck_pos;
        for (mask, key, list, len) in [
            (troop_mask, "troop_deck", &self.troop_deck, troop_deck.len()),
            (
                tactics_mask,
                "tactics_deck",
                &self.tactics_deck,
                tactics_deck.len(),
            ),
        ] {
            for (i, &pos) in list.iter().enumerate() {
                if pos >= len as u64 {
                    return Err(Error::state(
                        format!("{path}.{key}[{i}]"),
                        format!("expected a position 0..{len} in the deck"),
                    ));
                }
                *mask |= 1u64 << pos;
            }
        }
        let o = 1 - p;
        let opponent = hands.get(o).copied().unwrap_or(CardSet::EMPTY);
        for (i, &c) in self.opponent_hand.iter().enumerate() {
            if !opponent.contains(c) {
                return Err(Error::state(
                    format!("{path}.opponent_hand[{i}]"),
                    format!("{c} is not in player {o}'s hand"),
                ));
            }
            k.opp_hand.insert(c);
        }
        Ok(k)
    }
}
