//! The saved-state format (`docs/arte.md`) through serde: plain data structs that mirror the
//! JSON (`to_json`, and `view(p)` with what `p` may not see as `null`), decoded with
//! path-reporting errors (`$.players[0].units[3]`), then one validation step that resolves the
//! card labels against the game's card set and builds the state, which must pass the state's
//! invariants and its phase's consistency (`Arte::check_invariants`, `Arte::check_phase`).

#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use super::cards::{Card, CardSet};
use super::notation::{cell_name, parse_cell};
use super::state::{Arte, Combat, Draft, Held, Kind, Phase, Side, ROUNDS};
use super::Options;
use crate::error::{clip, decode_state, Error, Result};
use crate::game::Player;
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

// ---- the plain data -------------------------------------------------------------------------

/// A whole state or a view. Keys that may be `null` must still be present (`nullable`).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateData {
    options: Options,
    /// The card set, as `CardSet::json`; must equal the set the options name.
    cards: Value,
    #[serde(deserialize_with = "nullable")]
    rng: Option<GameRng>,
    phase: Phase,
    round: u8,
    #[serde(deserialize_with = "nullable")]
    first_attacker: Option<PlayerId>,
    piles: PilesData,
    #[serde(deserialize_with = "nullable")]
    draft: Option<DraftData>,
    discard: Vec<Label>,
    players: [SideData; 2],
    #[serde(deserialize_with = "nullable")]
    combat: Option<CombatData>,
    #[serde(deserialize_with = "nullable")]
    winner: Option<PlayerId>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PilesData {
    terrain: Vec<Option<Label>>,
    units: Vec<Option<Label>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DraftData {
    kind: Kind,
    picker: PlayerId,
    slots: [Option<Label>; 3],
    #[serde(deserialize_with = "nullable")]
    hidden: Option<Slot>,
    taken: [Option<PlayerId>; 3],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SideData {
    terrains: Vec<Option<Label>>,
    units: Vec<Option<Label>>,
    /// The hand cards the opponent has never seen (AG-2.6).
    secret: Vec<Option<Label>>,
    rows: [Option<Label>; 3],
    field: FieldData,
    placing: Vec<RowOrder>,
    deploying: Vec<CellOrder>,
    victory: Vec<Label>,
    defeated: Vec<Label>,
    #[serde(deserialize_with = "nullable")]
    pick: Option<RowOrder>,
}

/// The nine cells by name, each `null` when empty.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldData {
    #[serde(deserialize_with = "nullable")]
    a1: Option<Label>,
    #[serde(deserialize_with = "nullable")]
    b1: Option<Label>,
    #[serde(deserialize_with = "nullable")]
    c1: Option<Label>,
    #[serde(deserialize_with = "nullable")]
    a2: Option<Label>,
    #[serde(deserialize_with = "nullable")]
    b2: Option<Label>,
    #[serde(deserialize_with = "nullable")]
    c2: Option<Label>,
    #[serde(deserialize_with = "nullable")]
    a3: Option<Label>,
    #[serde(deserialize_with = "nullable")]
    b3: Option<Label>,
    #[serde(deserialize_with = "nullable")]
    c3: Option<Label>,
}

/// A secret order (terrain placement, sudden-death pick): a card and a row. Both `null` in
/// the opponent's view.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RowOrder {
    #[serde(deserialize_with = "nullable")]
    card: Option<Label>,
    #[serde(deserialize_with = "nullable")]
    row: Option<Row>,
}

/// A secret deployment: a card and a cell. Both `null` in the opponent's view.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CellOrder {
    #[serde(deserialize_with = "nullable")]
    card: Option<Label>,
    #[serde(deserialize_with = "nullable")]
    cell: Option<CellId>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatData {
    attacker: PlayerId,
    turn: u8,
    passes: u8,
    #[serde(deserialize_with = "nullable")]
    attack: Option<CellId>,
}

/// A key that must be present but may be `null` (serde would take a missing one as `null`).
fn nullable<'de, D, T>(d: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d)
}

// ---- values written as notation --------------------------------------------------------------

/// A card label, `T3` or `U12` (1-based within its kind), resolved against the card set in
/// the validation step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
struct Label {
    terrain: bool,
    number: usize,
}

impl TryFrom<String> for Label {
    type Error = String;
    fn try_from(text: String) -> std::result::Result<Label, String> {
        let terrain = match text.as_bytes().first() {
            Some(b'T') => Some(true),
            Some(b'U') => Some(false),
            _ => None,
        };
        let digits = text.get(1..).unwrap_or("");
        let canonical = !digits.is_empty()
            && !digits.starts_with('0')
            && digits.bytes().all(|b| b.is_ascii_digit());
        match (terrain, digits.parse()) {
            (Some(terrain), Ok(number)) if canonical => Ok(Label { terrain, number }),
            _ => Err(format!(
                "expected a card T<n> or U<n>, found {:?}",
                clip(&text)
            )),
        }
    }
}

impl From<Label> for String {
    fn from(l: Label) -> String {
        format!("{}{}", if l.terrain { 'T' } else { 'U' }, l.number)
    }
}

impl Label {
    fn of(set: &CardSet, c: Card) -> Label {
        let terrain = set.is_terrain(c);
        let first = if terrain { 0 } else { set.num_terrain() };
        Label {
            terrain,
            number: (c as usize) - first + 1,
        }
    }
}

/// A cell by name, `a1` .. `c3`.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
struct CellId(u8);

impl TryFrom<String> for CellId {
    type Error = String;
    fn try_from(text: String) -> std::result::Result<CellId, String> {
        parse_cell(&text)
            .map(CellId)
            .ok_or_else(|| format!("expected a cell a1..c3, found {:?}", clip(&text)))
    }
}

impl From<CellId> for String {
    fn from(c: CellId) -> String {
        cell_name(c.0)
    }
}

/// A row as numbered in the format: 1, 2 or 3 (index 0..3 inside).
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(try_from = "u64", into = "u8")]
struct Row(u8);

impl TryFrom<u64> for Row {
    type Error = String;
    fn try_from(n: u64) -> std::result::Result<Row, String> {
        match n {
            1..=3 => Ok(Row(n as u8 - 1)),
            _ => Err(format!("expected a row 1, 2 or 3, found {n}")),
        }
    }
}

impl From<Row> for u8 {
    fn from(r: Row) -> u8 {
        r.0 + 1
    }
}

/// A player, 0 or 1.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(try_from = "u64", into = "u8")]
struct PlayerId(u8);

impl TryFrom<u64> for PlayerId {
    type Error = String;
    fn try_from(n: u64) -> std::result::Result<PlayerId, String> {
        match n {
            0 | 1 => Ok(PlayerId(n as u8)),
            _ => Err(format!("expected a player 0 or 1, found {n}")),
        }
    }
}

impl From<PlayerId> for u8 {
    fn from(p: PlayerId) -> u8 {
        p.0
    }
}

impl PlayerId {
    fn of(p: Player) -> PlayerId {
        PlayerId(u8::from(p == 1))
    }
    fn get(self) -> Player {
        Player::from(self.0)
    }
}

/// A draft slot, 0 to 2.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(try_from = "u64", into = "u8")]
struct Slot(u8);

impl TryFrom<u64> for Slot {
    type Error = String;
    fn try_from(n: u64) -> std::result::Result<Slot, String> {
        match n {
            0..=2 => Ok(Slot(n as u8)),
            _ => Err(format!("expected a draft slot 0, 1 or 2, found {n}")),
        }
    }
}

impl From<Slot> for u8 {
    fn from(s: Slot) -> u8 {
        s.0
    }
}

// ---- writing ----------------------------------------------------------------------------------

impl Arte {
    /// The state as JSON, with what `viewer` may not see as `null` (`None`: everything).
    pub(super) fn json_as(&self, viewer: Option<Player>) -> Value {
        serde_json::to_value(self.data(viewer)).unwrap_or(Value::Null)
    }

    fn data(&self, viewer: Option<Player>) -> StateData {
        let set = &**self.set;
        let lab = |c: Card| Label::of(set, c);
        let list = |cs: &[Card]| cs.iter().map(|&c| lab(c)).collect::<Vec<_>>();
        let omniscient = viewer.is_none();
        let pile = |cs: &[Card]| {
            cs.iter()
                .map(|&c| omniscient.then(|| lab(c)))
                .collect::<Vec<_>>()
        };
        let [terrain_pile, unit_pile] = &self.piles;
        let draft = self.draft.as_ref().map(|d| DraftData {
            kind: d.kind,
            picker: PlayerId::of(d.picker),
            slots: [0, 1, 2].map(|i| {
                let card = d.slots.get(i).copied().flatten();
                card.filter(|_| self.sees_slot(viewer, d, i)).map(lab)
            }),
            hidden: d.hidden.map(Slot),
            taken: d.taken.map(|t| t.map(PlayerId::of)),
        });
        let [s0, s1] = &self.sides;
        let players = [(0, s0), (1, s1)].map(|(q, s)| {
            // Everything of the side is visible to its owner and the omniscient.
            let own = viewer.is_none_or(|p| p == q);
            let hand = |hs: &[Held]| {
                hs.iter()
                    .map(|h| (own || !h.secret).then(|| lab(h.card)))
                    .collect::<Vec<_>>()
            };
            let secret = s
                .terrains
                .iter()
                .chain(&s.units)
                .filter(|h| h.secret)
                .map(|h| own.then(|| lab(h.card)))
                .collect();
            let f = |x: usize| s.field.get(x).copied().flatten().map(lab);
            let field = FieldData {
                a1: f(0),
                b1: f(1),
                c1: f(2),
                a2: f(3),
                b2: f(4),
                c2: f(5),
                a3: f(6),
                b3: f(7),
                c3: f(8),
            };
            let at_row = |(c, r): (Card, u8), shown: bool| RowOrder {
                card: shown.then(|| lab(c)),
                row: shown.then_some(Row(r)),
            };
            SideData {
                terrains: hand(&s.terrains),
                units: hand(&s.units),
                secret,
                rows: s.rows.map(|r| r.map(lab)),
                field,
                placing: s.placing.iter().map(|&o| at_row(o, own)).collect(),
                deploying: s
                    .deploying
                    .iter()
                    .map(|&(c, x)| CellOrder {
                        card: own.then(|| lab(c)),
                        cell: own.then_some(CellId(x)),
                    })
                    .collect(),
                victory: list(&s.victory),
                defeated: list(&s.defeated),
                pick: s.pick.map(|o| at_row(o, own || self.phase == Phase::Over)),
            }
        });
        StateData {
            options: self.opts.clone(),
            cards: set.json().clone(),
            rng: omniscient.then(|| self.rng.clone()),
            phase: self.phase,
            round: self.round,
            first_attacker: self.first_attacker.map(PlayerId::of),
            piles: PilesData {
                terrain: pile(terrain_pile),
                units: pile(unit_pile),
            },
            draft,
            discard: list(&self.discard),
            players,
            combat: self.combat.map(|c| CombatData {
                attacker: PlayerId::of(c.attacker),
                turn: c.turn,
                passes: c.passes,
                attack: c.attack.map(CellId),
            }),
            winner: if self.phase == Phase::Over {
                self.winner.map(PlayerId::of)
            } else {
                None
            },
        }
    }
}

// ---- reading ----------------------------------------------------------------------------------

impl Arte {
    /// Decode a saved state, then validate it into a state (the one validation step).
    pub(super) fn parse_json(value: &Value) -> Result<Arte> {
        let data: StateData = decode_state(value)?;
        Arte::from_data(data)
    }

    fn from_data(data: StateData) -> Result<Arte> {
        let opts = data.options;
        // Untrusted data never makes the library open a path (issue 11).
        if opts.cards_file.is_some() {
            return Err(Error::state(
                "$.options.cards_file",
                "a saved state carries its card set as cards_toml and never names a file to read",
            ));
        }
        let set = opts
            .card_set()
            .map_err(|e| Error::state("$.options", e.to_string()))?;
        if &data.cards != set.json() {
            return Err(Error::state(
                "$.cards",
                "does not match the card set the options name",
            ));
        }
        let rng = data
            .rng
            .ok_or_else(|| Error::state("$.rng", "missing (null): a view cannot be loaded"))?;
        if data.round > ROUNDS {
            return Err(Error::state(
                "$.round",
                format!("expected an integer 0..={ROUNDS}"),
            ));
        }
        let r = Resolver { set: &set };
        let piles = [
            r.hidden_cards(&data.piles.terrain, "$.piles.terrain")?,
            r.hidden_cards(&data.piles.units, "$.piles.units")?,
        ];
        let draft = match data.draft {
            None => None,
            Some(d) => Some(Draft {
                kind: d.kind,
                picker: d.picker.get(),
                slots: r.row_of_three(&d.slots, "$.draft.slots")?,
                hidden: d.hidden.map(|h| h.0),
                taken: d.taken.map(|t| t.map(PlayerId::get)),
            }),
        };
        let discard = r.cards(&data.discard, "$.discard")?;
        let [p0, p1] = data.players;
        let sides = [r.side(p0, 0)?, r.side(p1, 1)?];
        let combat = match data.combat {
            Some(c) if c.passes > 1 => {
                return Err(Error::state("$.combat.passes", "expected 0 or 1"));
            }
            c => c.map(|c| Combat {
                attacker: c.attacker.get(),
                turn: c.turn,
                passes: c.passes,
                attack: c.attack.map(|x| x.0),
            }),
        };
        let g = Arte {
            opts,
            set: std::sync::Arc::new(set),
            rng,
            phase: data.phase,
            round: data.round,
            first_attacker: data.first_attacker.map(PlayerId::get),
            piles,
            draft,
            discard,
            sides,
            combat,
            winner: data.winner.map(PlayerId::get),
        };
        g.check_invariants().map_err(|e| Error::state("$", e))?;
        g.check_phase()?;
        Ok(g)
    }
}

/// Card labels to the set's cards, errors naming the path.
struct Resolver<'a> {
    set: &'a CardSet,
}

impl Resolver<'_> {
    fn card(&self, label: Option<Label>, path: impl FnOnce() -> String) -> Result<Card> {
        let set = self.set;
        let found = label.and_then(|l| {
            let (first, count) = if l.terrain {
                (0, set.num_terrain())
            } else {
                (set.num_terrain(), set.num_units())
            };
            (1..=count)
                .contains(&l.number)
                .then(|| (first + l.number - 1) as Card)
        });
        found.ok_or_else(|| {
            let what = label.map_or("null (a view cannot be loaded)".to_string(), String::from);
            Error::state(
                path(),
                format!(
                    "expected a card of this set (T1..T{}, U1..U{}), found {what}",
                    set.num_terrain(),
                    set.num_units()
                ),
            )
        })
    }

    fn cards(&self, labels: &[Label], path: &str) -> Result<Vec<Card>> {
        let mut out = Vec::with_capacity(labels.len());
        for (i, &l) in labels.iter().enumerate() {
            out.push(self.card(Some(l), || format!("{path}[{i}]"))?);
        }
        Ok(out)
    }

    /// Cards that a view shows as `null`; a saved state names every one.
    fn hidden_cards(&self, labels: &[Option<Label>], path: &str) -> Result<Vec<Card>> {
        let mut out = Vec::with_capacity(labels.len());
        for (i, &l) in labels.iter().enumerate() {
            out.push(self.card(l, || format!("{path}[{i}]"))?);
        }
        Ok(out)
    }

    /// Three places, each a card or empty (`null`).
    fn row_of_three(&self, labels: &[Option<Label>; 3], path: &str) -> Result<[Option<Card>; 3]> {
        let mut out = [None; 3];
        for (i, (slot, &l)) in out.iter_mut().zip(labels).enumerate() {
            if l.is_some() {
                *slot = Some(self.card(l, || format!("{path}[{i}]"))?);
            }
        }
        Ok(out)
    }

    fn side(&self, s: SideData, p: usize) -> Result<Side> {
        let path = |k: &str| format!("$.players[{p}].{k}");
        let secret = self.hidden_cards(&s.secret, &path("secret"))?;
        let hand = |labels: &[Option<Label>], key: &str| -> Result<Vec<Held>> {
            Ok(self
                .hidden_cards(labels, &path(key))?
                .into_iter()
                .map(|card| Held {
                    card,
                    secret: secret.contains(&card),
                })
                .collect())
        };
        let terrains = hand(&s.terrains, "terrains")?;
        let units = hand(&s.units, "units")?;
        for (i, c) in secret.iter().enumerate() {
            if !terrains.iter().chain(&units).any(|h| h.card == *c) {
                return Err(Error::state(
                    format!("{}[{i}]", path("secret")),
                    "a secret card must be in the player's hand",
                ));
            }
        }
        let f = s.field;
        let cells = [f.a1, f.b1, f.c1, f.a2, f.b2, f.c2, f.a3, f.b3, f.c3];
        let mut field = [None; 9];
        for (x, (slot, l)) in (0u8..).zip(field.iter_mut().zip(cells)) {
            if l.is_some() {
                *slot = Some(self.card(l, || path(&format!("field.{}", cell_name(x))))?);
            }
        }
        let mut placing = Vec::with_capacity(s.placing.len());
        for (i, o) in s.placing.into_iter().enumerate() {
            let at = format!("{}[{i}]", path("placing"));
            placing.push(self.order(o.card, o.row.map(|r| r.0), &at, "row")?);
        }
        let mut deploying = Vec::with_capacity(s.deploying.len());
        for (i, o) in s.deploying.into_iter().enumerate() {
            let at = format!("{}[{i}]", path("deploying"));
            deploying.push(self.order(o.card, o.cell.map(|x| x.0), &at, "cell")?);
        }
        let pick = match s.pick {
            None => None,
            Some(o) => Some(self.order(o.card, o.row.map(|r| r.0), &path("pick"), "row")?),
        };
        Ok(Side {
            terrains,
            units,
            rows: self.row_of_three(&s.rows, &path("rows"))?,
            field,
            placing,
            deploying,
            victory: self.cards(&s.victory, &path("victory"))?,
            defeated: self.cards(&s.defeated, &path("defeated"))?,
            pick,
        })
    }

    fn order(
        &self,
        card: Option<Label>,
        at: Option<u8>,
        path: &str,
        key: &str,
    ) -> Result<(Card, u8)> {
        let c = self.card(card, || format!("{path}.card"))?;
        let at = at.ok_or_else(|| {
            Error::state(
                format!("{path}.{key}"),
                "missing (null): a view cannot be loaded",
            )
        })?;
        Ok((c, at))
    }
}
