//! The saved state as JSON (`docs/strifull.md`), through serde in two steps, as shakmaty
//! splits `Setup` from `Position`: [`StateData`] is the plain data a JSON value holds (maybe
//! against the rules), decoded with `serde_path_to_error` so that a malformed value names
//! its path (`$.sides[1].field.aB2.counters[0]`); [`StateData::into_game`] is the one step
//! that resolves card ids and checks every rule invariant. The same structs write the state
//! and each player's view (SK-10: hidden parts are `None`, written `null`).

// This module reads user input (saved states, notation, card files): no panicking access.
#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use super::content::{CardSet, Element, DECK_SIZE, MAX_COPIES};
use super::effects::{Ability, Effect};
use super::notation::{CellName, Die, Int, PlayerNo, RowNo};
use super::state::{
    cell_name, parse_cell, Cell, CombatLog, CombatResult, FirstRoll, Growth, Outcome, Shared, Side,
    Step, Strifull, TurnMod, LEADER_SOURCE, MAX_CHANGES, STACK,
};
use super::Options;
use crate::error::{decode_state, Error, Result};
use crate::rng::GameRng;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Deserialize an `Option` that must be present (`null` allowed): a saved state is complete.
fn required<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> std::result::Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

/// The rules options decode as one value, with the constructor's messages naming the option
/// (`$.options: option cards_file: expected a string, ...`; issue 11).
fn options_value<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Options, D::Error> {
    let v = Value::deserialize(d)?;
    let Value::Object(map) = v else {
        return serde_json::from_value(v).map_err(serde::de::Error::custom);
    };
    crate::error::decode_options::<Options>(<super::Strifull as crate::Game>::NAME, &map).map_err(
        |e| match e {
            Error::Options { message } => serde::de::Error::custom(message),
            e => serde::de::Error::custom(e),
        },
    )
}

// ---- the plain data ---------------------------------------------------------------------

/// A whole state or a view, as the JSON holds it (fields in the documented order).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StateData {
    #[serde(deserialize_with = "options_value")]
    options: Options,
    step: Step,
    #[serde(deserialize_with = "required")]
    player: Option<PlayerNo>,
    turn: u16,
    turn_player: PlayerNo,
    #[serde(deserialize_with = "required")]
    first: Option<FirstData>,
    pending: Vec<PendingData>,
    ability_used: bool,
    #[serde(deserialize_with = "required")]
    turn_mod: Option<TurnModData>,
    #[serde(deserialize_with = "required")]
    last_combat: Option<CombatData>,
    #[serde(deserialize_with = "required")]
    winner: Option<PlayerNo>,
    draw: bool,
    /// `null` in views (future dice are hidden too).
    #[serde(deserialize_with = "required")]
    rng: Option<GameRng>,
    sides: [SideData; 2],
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SideData {
    /// Optional on input: the leader's faction, checked if given.
    #[serde(default)]
    faction: Option<String>,
    leader: String,
    #[serde(default)]
    element: Option<Element>,
    #[serde(default)]
    leader_row: Option<RowNo>,
    #[serde(default)]
    live_rows: Option<[bool; 3]>,
    #[serde(default)]
    field: Option<BTreeMap<String, CellData>>,
    /// Top first; `null` for a card the viewer does not know.
    #[serde(default)]
    pile: Option<Vec<Option<String>>>,
    #[serde(default)]
    pile_known: Option<u8>,
    #[serde(default)]
    graveyard: Option<Vec<String>>,
    /// Troop id -> copies; optional on input (derived from the cards), checked if given.
    #[serde(default)]
    deck: Option<BTreeMap<String, Int<0, { MAX_COPIES as i64 }>>>,
    #[serde(default)]
    changes: Option<Int<0, { MAX_CHANGES as i64 }>>,
    #[serde(default)]
    ability_uses: Option<Int<0, 99>>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CellData {
    /// `null` for a face-down troop in the opponent's view.
    #[serde(default)]
    card: Option<String>,
    #[serde(default)]
    revealed: Option<bool>,
    /// The sums of `growth`, checked if given.
    #[serde(default)]
    counters: Option<[Int<-10, 10>; 2]>,
    /// SK-9.1: each growth source's own counters: source card id (`id#k` for its k-th
    /// ability when the card has several grow abilities) -> [atk, def].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    growth: Option<BTreeMap<String, [Int<-10, 10>; 2]>>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FirstData {
    player: PlayerNo,
    dice: [Die; 2],
    #[serde(default)]
    rerolls: Option<u8>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PendingData {
    player: PlayerNo,
    decision: Step,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnModData {
    player: PlayerNo,
    cell: CellName,
    #[serde(default)]
    atk: Option<Int<-20, 20>>,
    #[serde(default)]
    def: Option<Int<-20, 20>>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatData {
    player: PlayerNo,
    attacker: CellName,
    target: CellName,
    cards: [String; 2],
    values: [Int<0, 127>; 2],
    #[serde(default)]
    uses_defence: Option<bool>,
    dice: [Die; 2],
    /// Derived from values and dice; checked if given.
    #[serde(default)]
    totals: Option<[i32; 2]>,
    result: CombatResult,
    #[serde(default)]
    tie_by_ability: Option<bool>,
    fell: [bool; 2],
    survival_rolls: [Vec<Die>; 2],
    survived: [bool; 2],
    rows_lost: [Vec<RowNo>; 2],
}

// ---- decoding -----------------------------------------------------------------------------

impl Strifull {
    /// Decode, then validate (`docs/strifull.md`).
    pub(crate) fn parse_state(value: &Value) -> Result<Strifull> {
        let data: StateData = decode_state(value)?;
        data.into_game()
    }

    /// The full state (`viewer` None) or what `viewer` may see.
    pub(crate) fn state_json(&self, viewer: Option<usize>) -> Value {
        serde_json::to_value(self.to_data(viewer)).unwrap_or(Value::Null)
    }

    fn to_data(&self, viewer: Option<usize>) -> StateData {
        let cards = &self.shared.cards;
        let name = |c: u8| cards.troop_id(c as usize);
        let side = |p: usize, s: &Side, deck_cards: &[u8]| -> SideData {
            let owner_sees = viewer.is_none_or(|v| v == p);
            // SK-3.2: leader choices stay secret until both players finished setup.
            let choices_seen = owner_sees || self.turn > 0;
            let field = s
                .cells
                .iter()
                .enumerate()
                .filter(|(_, cell)| cell.occupied())
                .map(|(c, cell)| {
                    let data = CellData {
                        card: (owner_sees || cell.revealed).then(|| name(cell.card)),
                        revealed: Some(cell.revealed),
                        counters: Some([Int::of(cell.atk), Int::of(cell.def)]),
                        growth: growth_data(cards, s.leader as usize, cell),
                    };
                    (cell_name(c), data)
                })
                .collect();
            // The pile, top first; its order is known to no one except the cards the owner
            // put under it (the last `pile_known`).
            let known = s.pile_known as usize;
            let pile = s
                .pile
                .as_slice()
                .iter()
                .enumerate()
                .rev()
                .map(|(i, &c)| {
                    (viewer.is_none() || (viewer == Some(p) && i < known)).then(|| name(c))
                })
                .collect();
            let mut deck: BTreeMap<String, Int<0, { MAX_COPIES as i64 }>> = BTreeMap::new();
            for &c in deck_cards {
                let n = deck.entry(name(c)).or_insert(Int(0));
                n.0 += 1;
            }
            let leader = cards.leaders.get(s.leader as usize);
            SideData {
                faction: leader.map(|l| cards.faction_id(l.faction)),
                leader: leader.map(|l| l.id.clone()).unwrap_or_default(),
                element: s.element.filter(|_| choices_seen),
                leader_row: (choices_seen && s.leader_row > 0).then(|| Int::of(s.leader_row)),
                live_rows: Some(s.live),
                field: Some(field),
                pile: Some(pile),
                pile_known: Some(s.pile_known),
                graveyard: Some(s.grave.as_slice().iter().map(|&c| name(c)).collect()),
                deck: Some(deck),
                changes: Some(Int::of(s.changes)),
                ability_uses: Some(Int::of(s.uses)),
            }
        };
        StateData {
            options: self.shared.options.clone(),
            step: self.step,
            player: (self.step != Step::Over).then(|| Int::of(self.actor)),
            turn: self.turn,
            turn_player: Int::of(self.turn_player),
            first: self.first.map(|f| FirstData {
                player: Int::of(f.player),
                dice: f.dice.map(Int::of),
                rerolls: Some(f.rerolls),
            }),
            pending: self
                .pending_slice()
                .iter()
                .map(|&(p, st)| PendingData {
                    player: Int::of(p),
                    decision: st,
                })
                .collect(),
            ability_used: self.ability_used,
            turn_mod: self.turn_mod.map(|m| TurnModData {
                player: Int::of(m.side),
                cell: CellName(m.cell),
                atk: Some(Int::of(m.atk)),
                def: Some(Int::of(m.def)),
            }),
            last_combat: self.last_combat.map(|l| self.combat_data(&l)),
            winner: match self.outcome {
                Outcome::Win(p) => Some(Int::of(p)),
                _ => None,
            },
            draw: self.outcome == Outcome::Draw,
            rng: viewer.is_none().then(|| self.rng.clone()),
            sides: [
                side(0, &self.sides[0], &self.shared.decks[0]),
                side(1, &self.sides[1], &self.shared.decks[1]),
            ],
        }
    }

    fn combat_data(&self, l: &CombatLog) -> CombatData {
        let cards = &self.shared.cards;
        let rolls = |r: [u8; 2]| r.into_iter().filter(|&d| d > 0).map(Int::of).collect();
        let rows = |bits: u8| {
            (1..=3u8)
                .filter(|r| bits & (1 << (r - 1)) != 0)
                .map(Int::of)
                .collect()
        };
        CombatData {
            player: Int::of(l.player),
            attacker: CellName(l.cells[0]),
            target: CellName(l.cells[1]),
            cards: l.cards.map(|c| cards.troop_id(c as usize)),
            values: l.values.map(Int::of),
            uses_defence: Some(l.uses_defence),
            dice: l.dice.map(Int::of),
            totals: Some(l.totals()),
            result: l.result,
            tie_by_ability: Some(l.tie_by_ability),
            fell: l.fell,
            survival_rolls: l.survival.map(rolls),
            survived: l.survived,
            rows_lost: l.rows_lost.map(rows),
        }
    }
}

// ---- validation: the plain data into a game -----------------------------------------------

/// A troop id of `faction`, or an error at `path`.
fn troop_of(cards: &CardSet, id: &str, path: &str, faction: usize) -> Result<u8> {
    let t = cards
        .troop_index(id)
        .ok_or_else(|| Error::state(path, format!("unknown troop {:?}", short(id))))?;
    match cards.troops.get(t) {
        Some(card) if card.faction == faction => Ok(t as u8),
        _ => Err(Error::state(
            path,
            format!(
                "troop {:?} is not of this side's faction (SK-1.2)",
                short(id)
            ),
        )),
    }
}

/// The grow abilities' indices of a card's abilities.
fn grow_abilities(abilities: &[Ability]) -> impl Iterator<Item = usize> + '_ {
    abilities
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a.effect, Effect::Grow { .. }))
        .map(|(i, _)| i)
}

/// A source's name in `growth`: its card id, `#k` added when the card has several grow
/// abilities.
fn source_name(id: &str, abilities: &[Ability], ability: u8) -> String {
    if grow_abilities(abilities).count() > 1 {
        format!("{id}#{ability}")
    } else {
        id.to_string()
    }
}

/// A cell's per-source counters for the JSON (`None` when it has none).
fn growth_data(
    cards: &CardSet,
    leader: usize,
    cell: &Cell,
) -> Option<BTreeMap<String, [Int<-10, 10>; 2]>> {
    let map: BTreeMap<_, _> = cell
        .growth
        .iter()
        .filter(|g| g.is_used())
        .map(|g| {
            let index = g.ability & !LEADER_SOURCE;
            let name = if g.ability & LEADER_SOURCE != 0 {
                cards
                    .leaders
                    .get(leader)
                    .map(|l| source_name(&l.id, &l.abilities, index))
            } else {
                cards
                    .troops
                    .get(g.card as usize)
                    .map(|t| source_name(&t.id, &t.abilities, index))
            };
            (name.unwrap_or_default(), [Int::of(g.atk), Int::of(g.def)])
        })
        .collect();
    (!map.is_empty()).then_some(map)
}

/// The source (`Growth::card`, `Growth::ability`) a `growth` key names: the side's leader
/// (index `leader`) or a troop of its faction, and one of its grow abilities.
fn growth_source(cards: &CardSet, leader: usize, faction: usize, name: &str) -> Option<(u8, u8)> {
    let (id, k) = match name.split_once('#') {
        Some((id, k)) => (id, Some(k.parse::<usize>().ok()?)),
        None => (name, None),
    };
    let pick = |abilities: &[Ability]| -> Option<u8> {
        let mut grows = grow_abilities(abilities);
        let i = match k {
            Some(k) if grow_abilities(abilities).count() > 1 => grows.find(|&i| i == k)?,
            Some(_) => return None,
            None if grow_abilities(abilities).count() == 1 => grows.next()?,
            None => return None,
        };
        u8::try_from(i).ok().filter(|&i| i < LEADER_SOURCE)
    };
    if let Some(l) = cards.leaders.get(leader).filter(|l| l.id == id) {
        return pick(&l.abilities).map(|a| (crate::strifull::state::EMPTY, a | LEADER_SOURCE));
    }
    let t = cards.troop_index(id)?;
    let troop = cards.troops.get(t).filter(|t| t.faction == faction)?;
    Some((u8::try_from(t).ok()?, pick(&troop.abilities)?))
}

/// A user-given text shortened for a message.
fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

impl SideData {
    /// The side and its cards (sorted: the deck), checked against SK-1.2.
    fn into_side(self, cards: &CardSet, path: &str) -> Result<(Side, Vec<u8>)> {
        let at = |key: &str| format!("{path}.{key}");
        let li = cards.leader_index(&self.leader).ok_or_else(|| {
            Error::state(
                at("leader"),
                format!("unknown leader {:?}", short(&self.leader)),
            )
        })?;
        let leader = cards
            .leaders
            .get(li)
            .ok_or_else(|| Error::state(at("leader"), "not in the card set"))?;
        let fi = leader.faction;
        let faction_id = cards.factions.get(fi).map_or("", |f| f.id.as_str());
        if let Some(f) = &self.faction {
            if f != faction_id {
                return Err(Error::state(
                    at("faction"),
                    format!("leader {:?} belongs to {faction_id:?}", short(&self.leader)),
                ));
            }
        }
        let mut s = Side::new(li as u8);
        s.element = self.element;
        s.leader_row = self.leader_row.map_or(0, Int::u8);
        if let Some(live) = self.live_rows {
            s.live = live;
        }
        for (k, data) in self.field.unwrap_or_default() {
            let cpath = at(&format!("field.{k}"));
            let c = parse_cell(&k).ok_or_else(|| {
                Error::state(
                    &cpath,
                    "not a cell: zone a/d, column A-C, row 1-3 (e.g. aB2)",
                )
            })?;
            let id = data
                .card
                .ok_or_else(|| Error::state(format!("{cpath}.card"), "missing"))?;
            let mut cell = Cell::new(troop_of(cards, &id, &format!("{cpath}.card"), fi)?);
            cell.revealed = data.revealed.unwrap_or(false);
            for (src, [atk, def]) in data.growth.unwrap_or_default() {
                let gpath = format!("{cpath}.growth.{}", short(&src));
                let (card, ability) = growth_source(cards, li, fi, &src)
                    .ok_or_else(|| Error::state(&gpath, "not a grow ability of this side"))?;
                if cell
                    .growth
                    .iter()
                    .any(|g| g.card == card && g.ability == ability)
                {
                    return Err(Error::state(&gpath, "the same source twice"));
                }
                let slot = cell.growth.iter_mut().find(|g| !g.is_used());
                let Some(slot) = slot else {
                    return Err(Error::state(
                        &gpath,
                        "more growth sources than a troop holds",
                    ));
                };
                *slot = Growth {
                    card,
                    ability,
                    atk: atk.i8(),
                    def: def.i8(),
                };
            }
            cell.sum_growth();
            if let Some([atk, def]) = data.counters {
                if (atk.i8(), def.i8()) != (cell.atk, cell.def) {
                    return Err(Error::state(
                        format!("{cpath}.counters"),
                        "not the sums of the growth sources' counters (SK-9.1)",
                    ));
                }
            }
            if let Some(slot) = s.cells.get_mut(c) {
                *slot = cell;
            }
        }
        let ids = |key: &str, list: Vec<Option<String>>| -> Result<Vec<u8>> {
            list.into_iter()
                .enumerate()
                .map(|(i, id)| {
                    let p = at(&format!("{key}[{i}]"));
                    match id {
                        Some(id) => troop_of(cards, &id, &p, fi),
                        None => Err(Error::state(p, "expected a troop id")),
                    }
                })
                .collect()
        };
        let pile_top_first = ids("pile", self.pile.unwrap_or_default())?;
        let grave = ids(
            "graveyard",
            self.graveyard
                .unwrap_or_default()
                .into_iter()
                .map(Some)
                .collect(),
        )?;
        if pile_top_first.len() > STACK || grave.len() > STACK {
            return Err(Error::state(
                path,
                format!("a pile or graveyard holds at most {STACK} cards"),
            ));
        }
        for &c in pile_top_first.iter().rev() {
            s.pile.push(c);
        }
        for &c in &grave {
            s.grave.push(c);
        }
        s.pile_known = match self.pile_known {
            Some(n) if n as usize > s.pile.len() => {
                return Err(Error::state(
                    at("pile_known"),
                    format!("expected an integer 0..={}", s.pile.len()),
                ))
            }
            n => n.unwrap_or(0),
        };
        s.changes = self.changes.map_or(0, Int::u8);
        s.uses = self.ability_uses.map_or(0, Int::u8);

        let mut all: Vec<u8> = s
            .cells
            .iter()
            .filter(|c| c.occupied())
            .map(|c| c.card)
            .chain(pile_top_first)
            .chain(grave)
            .collect();
        all.sort_unstable();
        check_deck(cards, fi, &all, self.deck, path)?;
        Ok((s, all))
    }
}

/// SK-1.2 on a side's cards (`all`, sorted): the deck, if given, is exactly them; at most
/// 30 troops and at most min(copies, 3) of each.
fn check_deck(
    cards: &CardSet,
    fi: usize,
    all: &[u8],
    deck_counts: Option<BTreeMap<String, Int<0, { MAX_COPIES as i64 }>>>,
    path: &str,
) -> Result<()> {
    if let Some(counts) = deck_counts {
        let mut deck = Vec::new();
        for (id, n) in counts {
            let t = troop_of(cards, &id, &format!("{path}.deck.{id}"), fi)?;
            deck.extend(std::iter::repeat_n(t, n.0 as usize));
        }
        deck.sort_unstable();
        if deck != all {
            return Err(Error::state(
                format!("{path}.deck"),
                "the field, pile and graveyard do not hold exactly the deck's cards",
            ));
        }
    }
    if all.len() > DECK_SIZE {
        return Err(Error::state(
            path,
            format!("more than {DECK_SIZE} troops (SK-1.2)"),
        ));
    }
    let mut copies: BTreeMap<u8, u8> = BTreeMap::new();
    for &c in all {
        *copies.entry(c).or_default() += 1;
    }
    for (c, n) in copies {
        if let Some(t) = cards.troops.get(c as usize) {
            let limit = t.copies.min(MAX_COPIES);
            if n > limit {
                return Err(Error::state(
                    path,
                    format!(
                        "{n} copies of {:?}; a deck holds at most {limit} (SK-1.2)",
                        t.id
                    ),
                ));
            }
        }
    }
    Ok(())
}

impl CombatData {
    fn into_log(self, cards: &CardSet) -> Result<CombatLog> {
        let path = "$.last_combat";
        let mut ids = [0u8; 2];
        for (i, (slot, id)) in ids.iter_mut().zip(&self.cards).enumerate() {
            *slot = cards.troop_index(id).ok_or_else(|| {
                Error::state(
                    format!("{path}.cards[{i}]"),
                    format!("unknown troop {:?}", short(id)),
                )
            })? as u8;
        }
        let mut survival = [[0u8; 2]; 2];
        for (i, (slot, rolls)) in survival.iter_mut().zip(&self.survival_rolls).enumerate() {
            if rolls.len() > 2 {
                return Err(Error::state(
                    format!("{path}.survival_rolls[{i}]"),
                    "expected up to two dice",
                ));
            }
            for (d, r) in slot.iter_mut().zip(rolls) {
                *d = r.u8();
            }
        }
        let rows_lost = self
            .rows_lost
            .map(|rows| rows.iter().fold(0u8, |bits, r| bits | 1 << (r.u8() - 1)));
        let log = CombatLog {
            player: self.player.u8(),
            cells: [self.attacker.0, self.target.0],
            cards: ids,
            values: self.values.map(Int::i8),
            uses_defence: self.uses_defence.unwrap_or(false),
            dice: self.dice.map(Int::u8),
            result: self.result,
            tie_by_ability: self.tie_by_ability.unwrap_or(false),
            fell: self.fell,
            survival,
            survived: self.survived,
            rows_lost,
        };
        if self.totals.is_some_and(|t| t != log.totals()) {
            return Err(Error::state(
                format!("{path}.totals"),
                "not the values' advantage plus the dice (SK-6.5)",
            ));
        }
        Ok(log)
    }
}

/// The options' factions and leaders agree with the sides (the options are what a replay of
/// the record would deal): a contradiction is an error naming the option.
fn check_options_match_sides(options: &Options, cards: &CardSet, sides: &[Side; 2]) -> Result<()> {
    // Decks are not compared: hand-built positions (tests, puzzles) hold any cards.
    for (p, side) in sides.iter().enumerate() {
        let leader = cards.leaders.get(side.leader as usize);
        let leader_id = leader.map_or("", |l| l.id.as_str());
        let faction = leader.and_then(|l| cards.factions.get(l.faction));
        if let (Some(want), Some(f)) = (options.factions.get(p).and_then(Option::as_ref), faction) {
            if *want != f.id {
                return Err(Error::state(
                    format!("$.options.factions[{p}]"),
                    format!(
                        "names faction {:?}, but side {p} plays {:?}",
                        crate::error::clip(want),
                        f.id
                    ),
                ));
            }
        }
        if let Some(want) = options.leaders.get(p).and_then(Option::as_ref) {
            if *want != leader_id {
                return Err(Error::state(
                    format!("$.options.leaders[{p}]"),
                    format!(
                        "names leader {:?}, but side {p} is led by {leader_id:?}",
                        crate::error::clip(want)
                    ),
                ));
            }
        }
    }
    Ok(())
}

impl StateData {
    /// The one validation step: card ids resolved, every rule invariant checked.
    pub(crate) fn into_game(self) -> Result<Strifull> {
        let options = self.options;
        // Untrusted data never makes the library open a path (issue 11).
        if options.cards_file.is_some() {
            return Err(Error::state(
                "$.options.cards_file",
                "a saved state carries its card set as cards_toml and never names a file to read",
            ));
        }
        let cards = CardSet::load(None, options.cards_toml.as_deref())?;
        let mut sides = [Side::new(0), Side::new(0)];
        let mut decks: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        for (p, data) in self.sides.into_iter().enumerate() {
            let (side, deck) = data.into_side(&cards, &format!("$.sides[{p}]"))?;
            if let (Some(s), Some(d)) = (sides.get_mut(p), decks.get_mut(p)) {
                *s = side;
                *d = deck;
            }
        }
        check_options_match_sides(&options, &cards, &sides)?;
        let step = self.step;
        let turn = self.turn;
        let turn_player = self.turn_player.u8();
        let outcome = match (self.winner, self.draw) {
            (Some(_), true) => {
                return Err(Error::state("$.draw", "a game with a winner is no draw"))
            }
            (Some(w), false) => Outcome::Win(w.u8()),
            (None, true) => Outcome::Draw,
            (None, false) => Outcome::Running,
        };
        let actor = match (step, self.player) {
            (Step::Over, None) => 0,
            (Step::Over, Some(_)) => {
                return Err(Error::state(
                    "$.player",
                    "must be null once the game is over",
                ))
            }
            (_, Some(a)) => a.u8(),
            (_, None) => return Err(Error::state("$.player", "missing: whose decision it is")),
        };
        if (step == Step::Over) != (outcome != Outcome::Running) {
            return Err(Error::state(
                "$.step",
                "step \"over\" goes with a winner or a draw, and only with them",
            ));
        }
        let first = match self.first {
            None => None,
            Some(f) => {
                let dice = f.dice.map(Int::u8);
                let player = f.player.u8();
                if dice[0] == dice[1] || (dice[1] > dice[0]) != (player == 1) {
                    return Err(Error::state(
                        "$.first",
                        "the higher die starts; ties are rerolled",
                    ));
                }
                Some(FirstRoll {
                    player,
                    dice,
                    rerolls: f.rerolls.unwrap_or(0),
                })
            }
        };
        let mut pending = [(0u8, Step::Over); 4];
        if self.pending.len() > pending.len() {
            return Err(Error::state("$.pending", "at most 4 owed decisions"));
        }
        let pending_len = self.pending.len() as u8;
        for (i, (slot, it)) in pending.iter_mut().zip(&self.pending).enumerate() {
            if !matches!(it.decision, Step::Relocate | Step::StepUp) {
                return Err(Error::state(
                    format!("$.pending[{i}].decision"),
                    "expected \"relocate\" or \"step_up\"",
                ));
            }
            *slot = (it.player.u8(), it.decision);
        }
        let turn_mod = self.turn_mod.map(|m| TurnMod {
            side: m.player.u8(),
            cell: m.cell.0,
            atk: m.atk.map_or(0, Int::i8),
            def: m.def.map_or(0, Int::i8),
        });
        let last_combat = match self.last_combat {
            None => None,
            Some(c) => Some(c.into_log(&cards)?),
        };
        let rng = self.rng.ok_or_else(|| {
            Error::state(
                "$.rng",
                "missing: the RNG state, as to_dict() gives it (a view hides it)",
            )
        })?;
        let g = Strifull {
            shared: Arc::new(Shared {
                cards,
                options,
                decks,
            }),
            sides,
            step,
            actor,
            turn_player,
            turn,
            first,
            pending,
            pending_len,
            ability_used: self.ability_used,
            turn_mod,
            last_combat,
            outcome,
            rng,
        };
        g.turn_machine_error()?;
        if let Some(why) = g.invariant_violation() {
            return Err(Error::state("$.sides", why));
        }
        Ok(g)
    }
}

impl Strifull {
    /// Whether the step, player, turn and owed decisions fit together and the sides'
    /// setup (SK-3, SK-4, SK-7.2, SK-7.3).
    fn turn_machine_error(&self) -> Result<()> {
        let (step, actor, turn, sides) = (self.step, self.actor as usize, self.turn, &self.sides);
        let setup_done = |s: &Side| s.element.is_some() && s.leader_row != 0;
        let [s0, s1] = sides;
        if step.is_setup() {
            if turn != 0 {
                return Err(Error::state(
                    "$.turn",
                    "setup happens before turn 1 (turn 0)",
                ));
            }
            if actor == 1 && !setup_done(s0) {
                return Err(Error::state(
                    "$.sides[0]",
                    "player 0 sets up first (SK-3.2)",
                ));
            }
            if actor == 0 && (s1.element.is_some() || s1.leader_row != 0 || s1.changes != 0) {
                return Err(Error::state(
                    "$.sides[1]",
                    "player 1 sets up after player 0 (SK-3.2)",
                ));
            }
            let me = if actor == 0 { s0 } else { s1 };
            let ok = match step {
                Step::Changes => {
                    me.element.is_none() && me.leader_row == 0 && me.changes < MAX_CHANGES
                }
                Step::Element => me.element.is_none() && me.leader_row == 0,
                _ => me.element.is_some() && me.leader_row == 0,
            };
            if !ok {
                return Err(Error::state(
                    format!("$.sides[{actor}]"),
                    format!(
                        "element, leader_row and changes do not fit step {:?}",
                        step.name()
                    ),
                ));
            }
        } else {
            if turn == 0 {
                return Err(Error::state("$.turn", "the play starts at turn 1"));
            }
            for (p, s) in sides.iter().enumerate() {
                if !setup_done(s) {
                    return Err(Error::state(
                        format!("$.sides[{p}]"),
                        "element and leader_row are set once the play begins",
                    ));
                }
            }
        }
        let pending = self.pending_slice();
        if step.is_turn() && (self.actor != self.turn_player || !pending.is_empty()) {
            return Err(Error::state(
                "$.player",
                "in a turn step the turn player decides and no decision is pending",
            ));
        }
        let owed = matches!(step, Step::Relocate | Step::StepUp);
        if owed && pending.first() != Some(&(self.actor, step)) {
            return Err(Error::state(
                "$.pending",
                "the current decision heads the pending list",
            ));
        }
        if !owed && !pending.is_empty() && step != Step::Over {
            return Err(Error::state(
                "$.pending",
                "decisions are pending only after an attack",
            ));
        }
        for &(p, st) in pending {
            let s = if p == 0 { s0 } else { s1 };
            let ok = match st {
                Step::Relocate => {
                    let r = s.leader_row as usize;
                    !s.row_live(r) && r == 2 && s.row_live(1) && s.row_live(3)
                }
                _ => !s.live[1] && s.live[2],
            };
            if !ok {
                return Err(Error::state(
                    "$.pending",
                    format!("player {p} owes no {:?} decision here", st.name()),
                ));
            }
        }
        Ok(())
    }
}
