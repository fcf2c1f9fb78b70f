//! Card sets as data: the TOML format of `docs/arte.md` ("Card data") through serde. Plain
//! data structs (`deny_unknown_fields`), unit types, values and names checked as they decode,
//! errors naming the file, the entry (with its name when it has one) and the field, e.g.
//! `cards.toml: terrain[2] ("Floresta").favours.mago`; then one validation step (enough
//! cards for the draft, ids fit a byte) building the [`CardSet`] (AG-1.2, AG-1.3).
//!
//! Parsing is a function of the text; reading files is the caller's.

#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use super::cards::{CardSet, TerrainCard, UnitCard, UnitType};
use crate::error::{clip, Error, Result};
use serde::de::{Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::marker::PhantomData;

/// The reference card set: a documented stand-in for the printed cards.
pub const REFERENCE_TOML: &str = include_str!("../../../../data/arte/reference.toml");
/// How the reference set is named in error messages.
pub const REFERENCE_SOURCE: &str = "data/arte/reference.toml";

/// Cards a player drafts: 3 terrain drafts and 9 unit drafts of 3 cards each (AG-2.1).
pub const MIN_TERRAIN: usize = 9;
pub const MIN_UNITS: usize = 27;
/// Card ids are one byte.
pub const MAX_CARDS: usize = 250;
/// Highest terrain value a card may give.
pub const MAX_VALUE: u8 = 9;
/// Most copies of one card entry.
pub const MAX_COPIES: usize = 40;
/// Longest card name, in characters.
const MAX_NAME: usize = 40;

// ---- the plain data -------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetFile {
    /// What the set is called and where it comes from; not used by the rules.
    #[allow(dead_code)]
    name: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
    #[serde(default)]
    terrain: Entries<TerrainEntry>,
    #[serde(default)]
    unit: Entries<UnitEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainEntry {
    name: Name,
    /// Unit type = value; a type not listed is not favoured.
    favours: BTreeMap<UnitType, Value>,
    #[serde(default)]
    copies: Copies,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitEntry {
    name: Option<Name>,
    units: Units,
    #[serde(default)]
    copies: Copies,
}

/// The `[[terrain]]` or `[[unit]]` entries (an array of tables).
struct Entries<T>(Vec<T>);

impl<T> Default for Entries<T> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Entries<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Entries<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of tables ([[terrain]] / [[unit]] entries)")
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = seq.next_element()? {
                    out.push(entry);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_seq(V(PhantomData))
    }
}

/// A card name: 1 to 40 characters, not blank.
#[derive(Deserialize)]
#[serde(try_from = "String")]
struct Name(String);

impl TryFrom<String> for Name {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Name, String> {
        crate::text::check_name(&s, MAX_NAME)
            .map_err(|why| format!("expected a name of at most {MAX_NAME} characters: {why}"))?;
        Ok(Name(s))
    }
}

/// A terrain value, 1 to 9.
#[derive(Deserialize)]
#[serde(try_from = "i64")]
struct Value(u8);

impl TryFrom<i64> for Value {
    type Error = String;
    fn try_from(n: i64) -> std::result::Result<Value, String> {
        match u8::try_from(n) {
            Ok(v @ 1..=MAX_VALUE) => Ok(Value(v)),
            _ => Err(format!(
                "expected an integer value from 1 to {MAX_VALUE}, found {n}"
            )),
        }
    }
}

/// Copies of an entry, 1 to 40 (default 1).
#[derive(Deserialize)]
#[serde(try_from = "i64")]
struct Copies(usize);

impl Default for Copies {
    fn default() -> Self {
        Copies(1)
    }
}

impl TryFrom<i64> for Copies {
    type Error = String;
    fn try_from(n: i64) -> std::result::Result<Copies, String> {
        match usize::try_from(n) {
            Ok(c @ 1..=MAX_COPIES) => Ok(Copies(c)),
            _ => Err(format!(
                "expected an integer from 1 to {MAX_COPIES}, found {n}"
            )),
        }
    }
}

/// The units a card holds, as printed: 1 to 3.
#[derive(Deserialize)]
#[serde(try_from = "Vec<UnitType>")]
struct Units(Vec<UnitType>);

impl TryFrom<Vec<UnitType>> for Units {
    type Error = String;
    fn try_from(units: Vec<UnitType>) -> std::result::Result<Units, String> {
        match units.len() {
            1..=3 => Ok(Units(units)),
            n => Err(format!("a unit card holds 1 to 3 units, found {n}")),
        }
    }
}

// ---- decoding and validation --------------------------------------------------------------------

/// Parse and validate a card set; `source` names it in error messages.
pub(super) fn parse(text: &str, source: &str) -> Result<CardSet> {
    let de = toml::de::Deserializer::parse(text).map_err(|e| {
        Error::data(
            source,
            format!(
                "not valid TOML{}: {}",
                at(text, e.span()),
                e.message().trim()
            ),
        )
    })?;
    let file: SetFile = serde_path_to_error::deserialize(de).map_err(|e| {
        let message = e.inner().message().trim();
        Error::data(place(text, source, e.path(), message), message)
    })?;

    let mut terrain = Vec::new();
    for t in file.terrain.0 {
        let mut favours = [0u8; 4];
        for (unit, Value(v)) in t.favours {
            if let Some(f) = favours.get_mut(unit as usize) {
                *f = v;
            }
        }
        let card = TerrainCard {
            name: t.name.0,
            favours,
        };
        terrain.extend(std::iter::repeat_n(card, t.copies.0));
    }
    let mut units = Vec::new();
    for u in file.unit.0 {
        let mut counts = [0u8; 4];
        for &t in &u.units.0 {
            if let Some(n) = counts.get_mut(t as usize) {
                *n += 1;
            }
        }
        let card = UnitCard {
            name: u.name.map(|n| n.0),
            units: u.units.0,
            counts,
        };
        units.extend(std::iter::repeat_n(card, u.copies.0));
    }
    if terrain.len() < MIN_TERRAIN {
        return Err(Error::data(
            format!("{source}: terrain"),
            format!(
                "{} terrain cards (copies counted); the draft needs at least {MIN_TERRAIN}",
                terrain.len()
            ),
        ));
    }
    if units.len() < MIN_UNITS {
        return Err(Error::data(
            format!("{source}: unit"),
            format!(
                "{} unit cards (copies counted); the draft needs at least {MIN_UNITS}",
                units.len()
            ),
        ));
    }
    let total = terrain.len() + units.len();
    if total > MAX_CARDS {
        return Err(Error::data(
            source,
            format!("{total} cards in all; at most {MAX_CARDS} are supported"),
        ));
    }
    Ok(CardSet::new(terrain, units))
}

/// ` at line L, column C` for a byte span of `text` (the text itself is never quoted).
fn at(text: &str, span: Option<std::ops::Range<usize>>) -> String {
    let Some(start) = span.map(|s| s.start) else {
        return String::new();
    };
    let before = text.get(..start).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!(" at line {line}, column {column}")
}

/// `cards.toml: terrain[2] ("Floresta").favours.mago`: the file, then the path of the bad
/// value, with the entry's name after its index when it has one. serde reports a missing key
/// at its table; it is named too.
fn place(text: &str, source: &str, path: &serde_path_to_error::Path, message: &str) -> String {
    use serde_path_to_error::Segment;
    let raw: Option<toml::Table> = text.parse().ok();
    let mut out = format!("{source}: ");
    let mut entry: Option<&toml::Value> = None;
    let mut first = true;
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                let _ = write!(out, "[{index}]");
                let name = entry
                    .and_then(|v| v.get(*index))
                    .and_then(|e| e.get("name"))
                    .and_then(toml::Value::as_str);
                if let Some(name) = name {
                    let _ = write!(out, " ({:?})", clip(name));
                }
                entry = None;
            }
            Segment::Map { key } => {
                if !first {
                    out.push('.');
                }
                out.push_str(&crate::error::path_key(key));
                entry = if first {
                    raw.as_ref().and_then(|t| t.get(key.as_str()))
                } else {
                    None
                };
            }
            Segment::Enum { variant } => {
                let _ = write!(out, ".{}", crate::error::path_key(variant));
            }
            Segment::Unknown => out.push_str(".?"),
        }
        first = false;
    }
    if let Some(key) = message
        .strip_prefix("missing field `")
        .and_then(|m| m.split('`').next())
    {
        if !first {
            out.push('.');
        }
        out.push_str(&clip(key));
        first = false;
    }
    if first {
        out.truncate(source.len());
    }
    out
}
