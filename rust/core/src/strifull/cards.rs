//! Card data: factions, brigades, troops and leaders, loaded from TOML and validated
//! (`docs/strifull-cards.md` documents the format). The reference set is embedded from
//! `data/strifull/*.toml`; users load their own with the `cards_file` / `cards_toml` options.

use super::effects::{Ability, Trigger};
use crate::error::{Error, Result};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The four elemental stones. Fire beats wind, wind beats earth, earth beats water, water
/// beats fire (SK-6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Element {
    Fire,
    Water,
    Wind,
    Earth,
}

pub const ELEMENTS: [Element; 4] = [Element::Fire, Element::Water, Element::Wind, Element::Earth];

impl Element {
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn from_index(i: usize) -> Option<Element> {
        ELEMENTS.get(i).copied()
    }
    /// Elemental advantage of `self` over `other`.
    pub fn beats(self, other: Element) -> bool {
        matches!(
            (self, other),
            (Element::Fire, Element::Wind)
                | (Element::Wind, Element::Earth)
                | (Element::Earth, Element::Water)
                | (Element::Water, Element::Fire)
        )
    }
    pub fn name(self) -> &'static str {
        match self {
            Element::Fire => "fire",
            Element::Water => "water",
            Element::Wind => "wind",
            Element::Earth => "earth",
        }
    }
    /// Two-letter tag used by `render`.
    pub fn tag(self) -> &'static str {
        match self {
            Element::Fire => "Fi",
            Element::Water => "Wa",
            Element::Wind => "Wi",
            Element::Earth => "Ea",
        }
    }
    /// English names, plus the Portuguese of the printed cards.
    pub fn parse(s: &str) -> Option<Element> {
        Some(match s {
            "fire" | "fogo" => Element::Fire,
            "water" | "agua" | "água" => Element::Water,
            "wind" | "vento" => Element::Wind,
            "earth" | "terra" => Element::Earth,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TroopCard {
    pub id: String,
    pub name: String,
    pub faction: usize,
    pub brigade: usize,
    pub element: Element,
    pub atk: i8,
    pub def: i8,
    /// Copies of this card in the faction's box (the deck limit is min(copies, 3)).
    pub copies: u8,
    pub text: String,
    pub abilities: Vec<Ability>,
    /// Effect kinds of the abilities (bits of `Effect::bit`), and of those reaching other
    /// troops: lets the rules skip cards that cannot matter.
    pub kinds: u16,
    pub reach_kinds: u16,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LeaderCard {
    pub id: String,
    pub name: String,
    pub faction: usize,
    pub text: String,
    pub abilities: Vec<Ability>,
    /// Effect kinds of the abilities (bits of `Effect::bit`).
    pub kinds: u16,
}

impl LeaderCard {
    /// The leader's activated ability (at most one per leader), if any.
    pub fn activated(&self) -> Option<&Ability> {
        self.abilities
            .iter()
            .find(|a| a.trigger == Trigger::Activated)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Brigade {
    pub id: String,
    pub name: String,
    pub faction: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Faction {
    pub id: String,
    pub name: String,
    pub banner: String,
    /// Troop indices of the faction, in file order.
    pub troops: Vec<usize>,
    /// Leader indices of the faction, in file order; the first is the default leader.
    pub leaders: Vec<usize>,
    pub brigades: Vec<usize>,
    /// The ready-made beginner's deck: 30 troop indices (repeats for copies).
    pub recommended: Vec<usize>,
}

/// A validated card set.
#[derive(Clone, Debug, PartialEq)]
pub struct CardSet {
    pub factions: Vec<Faction>,
    pub brigades: Vec<Brigade>,
    pub troops: Vec<TroopCard>,
    pub leaders: Vec<LeaderCard>,
}

/// Troops in a deck (SK-1.2).
pub const DECK_SIZE: usize = 30;
/// Copies of one troop a deck may hold (SK-1.2).
pub const MAX_COPIES: u8 = 3;
/// Card indices are stored in a byte; 255 marks an empty cell.
const MAX_CARDS: usize = 250;

/// The reference set's files, embedded at compile time.
pub const REFERENCE_FILES: &[(&str, &str)] = &[
    (
        "inquisicao.toml",
        include_str!("../../../../data/strifull/inquisicao.toml"),
    ),
    (
        "magos.toml",
        include_str!("../../../../data/strifull/magos.toml"),
    ),
];

impl CardSet {
    /// The embedded reference set (parsed once per process).
    pub fn reference() -> Arc<CardSet> {
        static REF: OnceLock<Arc<CardSet>> = OnceLock::new();
        REF.get_or_init(|| {
            Arc::new(
                CardSet::from_sources(REFERENCE_FILES)
                    .unwrap_or_else(|e| panic!("the embedded reference card set is invalid: {e}")),
            )
        })
        .clone()
    }

    /// The set named by the options: a file or directory, inline TOML, or the reference.
    pub fn load(file: Option<&str>, toml_text: Option<&str>) -> Result<Arc<CardSet>> {
        match (file, toml_text) {
            (None, None) => Ok(CardSet::reference()),
            (Some(_), Some(_)) => Err(Error::options(
                "strifull: give cards_file or cards_toml, not both",
            )),
            (None, Some(text)) => cached(format!("toml:{text}"), || {
                CardSet::from_sources(&[("<cards_toml>", text)])
            }),
            (Some(path), None) => {
                let sources = read_path(path)?;
                let key = format!(
                    "file:{path}:{}",
                    sources
                        .iter()
                        .map(|(n, t)| format!("{n}={}", fingerprint(t)))
                        .collect::<Vec<_>>()
                        .join(",")
                );
                cached(key, || {
                    let refs: Vec<(&str, &str)> = sources
                        .iter()
                        .map(|(n, t)| (n.as_str(), t.as_str()))
                        .collect();
                    CardSet::from_sources(&refs)
                })
            }
        }
    }

    /// Parse and validate a set from (file name, TOML text) pairs.
    pub fn from_sources(sources: &[(&str, &str)]) -> Result<CardSet> {
        let mut b = Builder::default();
        for (name, text) in sources {
            b.add_file(name, text)?;
        }
        b.finish()
    }

    /// The whole set as JSON: factions, brigades, troops and leaders, abilities in the
    /// TOML format's terms.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let ids = |v: &[usize], f: &dyn Fn(usize) -> String| -> Vec<String> {
            v.iter().map(|&i| f(i)).collect()
        };
        let troop_id = |i: usize| self.troops[i].id.clone();
        json!({
            "factions": self.factions.iter().map(|f| json!({
                "id": f.id,
                "name": f.name,
                "banner": f.banner,
                "brigades": ids(&f.brigades, &|i| self.brigades[i].id.clone()),
                "troops": ids(&f.troops, &troop_id),
                "leaders": ids(&f.leaders, &|i| self.leaders[i].id.clone()),
                "recommended": ids(&f.recommended, &troop_id),
            })).collect::<Vec<_>>(),
            "brigades": self.brigades.iter().map(|b| json!({
                "id": b.id,
                "name": b.name,
                "faction": self.factions[b.faction].id,
            })).collect::<Vec<_>>(),
            "troops": self.troops.iter().map(|t| json!({
                "id": t.id,
                "name": t.name,
                "faction": self.factions[t.faction].id,
                "brigade": self.brigades[t.brigade].id,
                "element": t.element.name(),
                "atk": t.atk,
                "def": t.def,
                "copies": t.copies,
                "text": t.text,
                "abilities": t.abilities.iter().map(|a| a.to_json(false)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "leaders": self.leaders.iter().map(|l| json!({
                "id": l.id,
                "name": l.name,
                "faction": self.factions[l.faction].id,
                "text": l.text,
                "abilities": l.abilities.iter().map(|a| a.to_json(true)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }

    pub fn troop_index(&self, id: &str) -> Option<usize> {
        self.troops.iter().position(|t| t.id == id)
    }
    pub fn leader_index(&self, id: &str) -> Option<usize> {
        self.leaders.iter().position(|t| t.id == id)
    }
    pub fn faction_index(&self, id: &str) -> Option<usize> {
        self.factions.iter().position(|t| t.id == id)
    }

    /// Check a deck (troop indices) against SK-1.2 for `faction`; `what` prefixes messages.
    pub fn check_deck(&self, faction: usize, deck: &[usize]) -> std::result::Result<(), String> {
        if deck.len() != DECK_SIZE {
            return Err(format!(
                "a deck holds {DECK_SIZE} troops, this one {}",
                deck.len()
            ));
        }
        let mut counts = [0u8; MAX_CARDS];
        for &t in deck {
            let card = self
                .troops
                .get(t)
                .ok_or_else(|| format!("troop index {t} out of range"))?;
            if card.faction != faction {
                return Err(format!(
                    "troop {:?} belongs to faction {:?}, not {:?}",
                    card.id, self.factions[card.faction].id, self.factions[faction].id
                ));
            }
            counts[t] = counts[t].saturating_add(1);
        }
        for (t, &n) in counts.iter().enumerate().take(self.troops.len()) {
            let card = &self.troops[t];
            let limit = card.copies.min(MAX_COPIES);
            if n > limit {
                return Err(format!(
                    "{n} copies of troop {:?}; at most {limit} (SK-1.2)",
                    card.id
                ));
            }
        }
        Ok(())
    }
}

fn fingerprint(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// A process-wide cache of parsed user sets, so that a batch of games with the same
/// `cards_file` parses it once.
fn cached(key: String, build: impl FnOnce() -> Result<CardSet>) -> Result<Arc<CardSet>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<CardSet>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Ok(map) = cache.lock() {
        if let Some(set) = map.get(&key) {
            return Ok(set.clone());
        }
    }
    let set = Arc::new(build()?);
    if let Ok(mut map) = cache.lock() {
        if map.len() >= 64 {
            map.clear();
        }
        map.insert(key, set.clone());
    }
    Ok(set)
}

/// A `.toml` file, or every `.toml` file of a directory in name order.
fn read_path(path: &str) -> Result<Vec<(String, String)>> {
    let p = std::path::Path::new(path);
    let read = |f: &std::path::Path| -> Result<(String, String)> {
        let text = crate::datafile::read_text(f)?;
        Ok((f.display().to_string(), text.to_string()))
    };
    if p.is_dir() {
        let files = crate::datafile::files_in(p, "toml")?;
        files.iter().map(|f| read(f)).collect()
    } else {
        Ok(vec![read(p)?])
    }
}

// ---- building and validation ------------------------------------------------------------

#[derive(Default)]
struct Builder {
    factions: Vec<(String, RawFaction)>,
    brigades: Vec<(String, RawBrigade)>,
    troops: Vec<(String, RawTroop)>,
    leaders: Vec<(String, RawLeader)>,
}

struct RawFaction {
    id: String,
    name: String,
    banner: String,
    recommended: Vec<String>,
}
struct RawBrigade {
    id: String,
    faction: String,
    name: String,
}
struct RawTroop {
    id: String,
    brigade: String,
    name: String,
    element: Element,
    atk: i8,
    def: i8,
    copies: u8,
    text: String,
    abilities: Vec<Ability>,
}
struct RawLeader {
    id: String,
    faction: String,
    name: String,
    text: String,
    abilities: Vec<Ability>,
}

/// Typed access to the fields of one TOML table, with messages naming the place.
struct Fields<'a> {
    table: &'a toml::Table,
    place: String,
}

impl<'a> Fields<'a> {
    fn new(table: &'a toml::Table, place: String, allowed: &[&str]) -> Result<Self> {
        for key in table.keys() {
            if !allowed.contains(&key.as_str()) {
                return Err(Error::data(
                    format!("{place}, field \"{key}\""),
                    format!("unknown field; expected one of {}", allowed.join(", ")),
                ));
            }
        }
        Ok(Fields { table, place })
    }
    fn at(&self, field: &str) -> String {
        format!("{}, field \"{field}\"", self.place)
    }
    fn opt_str(&self, field: &str) -> Result<Option<String>> {
        match self.table.get(field) {
            None => Ok(None),
            Some(toml::Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(Error::data(
                self.at(field),
                format!("expected a string, found {}", v.type_str()),
            )),
        }
    }
    fn str(&self, field: &str) -> Result<String> {
        let s = self
            .opt_str(field)?
            .ok_or_else(|| Error::data(self.at(field), "missing"))?;
        if s.trim().is_empty() {
            return Err(Error::data(self.at(field), "must not be empty"));
        }
        Ok(s)
    }
    fn id(&self, field: &str) -> Result<String> {
        let s = self.str(field)?;
        if s.len() > 64
            || !s
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
        {
            return Err(Error::data(
                self.at(field),
                format!("{s:?} is not an id: use 1-64 of a-z, 0-9, _ and -"),
            ));
        }
        Ok(s)
    }
    fn int(&self, field: &str, lo: i64, hi: i64, default: Option<i64>) -> Result<i64> {
        match self.table.get(field) {
            None => default.ok_or_else(|| Error::data(self.at(field), "missing")),
            Some(toml::Value::Integer(n)) if (lo..=hi).contains(n) => Ok(*n),
            Some(toml::Value::Integer(n)) => Err(Error::data(
                self.at(field),
                format!("{n} is out of range {lo}..={hi}"),
            )),
            Some(v) => Err(Error::data(
                self.at(field),
                format!("expected an integer, found {}", v.type_str()),
            )),
        }
    }
    fn abilities(&self, leader: bool) -> Result<Vec<Ability>> {
        let items = match self.table.get("ability") {
            None => return Ok(Vec::new()),
            Some(toml::Value::Array(items)) => items,
            Some(v) => {
                return Err(Error::data(
                    self.at("ability"),
                    format!("expected [[...ability]] tables, found {}", v.type_str()),
                ))
            }
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let place = format!("{}, ability {}", self.place, i + 1);
            let table = item
                .as_table()
                .ok_or_else(|| Error::data(&place, "expected a table"))?;
            out.push(Ability::from_toml(table, &place, leader)?);
        }
        if out
            .iter()
            .filter(|a| a.trigger == Trigger::Activated)
            .count()
            > 1
        {
            return Err(Error::data(
                self.at("ability"),
                "a leader has at most one activated ability (step III uses it once a turn)",
            ));
        }
        Ok(out)
    }
}

fn table_list<'a>(
    file: &str,
    root: &'a toml::Table,
    key: &str,
) -> Result<Vec<(usize, &'a toml::Table)>> {
    match root.get(key) {
        None => Ok(Vec::new()),
        Some(toml::Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_table().map(|t| (i, t)).ok_or_else(|| {
                    Error::data(
                        format!("{file}: {key} {}", i + 1),
                        "expected a table ([[...]])",
                    )
                })
            })
            .collect(),
        Some(v) => Err(Error::data(
            format!("{file}: {key}"),
            format!(
                "expected an array of tables [[{key}]], found {}",
                v.type_str()
            ),
        )),
    }
}

/// "file: troop "id"" or "file: troop 3" when the id is missing.
fn card_place(file: &str, kind: &str, index: usize, table: &toml::Table) -> String {
    match table.get("id").and_then(toml::Value::as_str) {
        Some(id) => format!("{file}: {kind} {id:?}"),
        None => format!("{file}: {kind} {}", index + 1),
    }
}

impl Builder {
    fn add_file(&mut self, file: &str, text: &str) -> Result<()> {
        let root: toml::Table = text.parse::<toml::Table>().map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            Error::data(
                match line {
                    Some(l) => format!("{file}, line {l}"),
                    None => file.to_string(),
                },
                format!("not valid TOML: {}", e.message()),
            )
        })?;
        for key in root.keys() {
            if !["faction", "brigade", "troop", "leader"].contains(&key.as_str()) {
                return Err(Error::data(
                    format!("{file}: {key}"),
                    "unknown table; a card file has [[faction]], [[brigade]], [[troop]] and [[leader]]",
                ));
            }
        }
        for (i, t) in table_list(file, &root, "faction")? {
            let f = Fields::new(
                t,
                card_place(file, "faction", i, t),
                &["id", "name", "banner", "recommended"],
            )?;
            let recommended = match t.get("recommended") {
                None => {
                    return Err(Error::data(
                        f.at("recommended"),
                        "missing: the ready-made beginner's deck, a list of 30 troop ids",
                    ))
                }
                Some(toml::Value::Array(items)) => items
                    .iter()
                    .map(|v| {
                        v.as_str().map(str::to_string).ok_or_else(|| {
                            Error::data(f.at("recommended"), "expected a list of troop ids")
                        })
                    })
                    .collect::<Result<Vec<_>>>()?,
                Some(_) => {
                    return Err(Error::data(
                        f.at("recommended"),
                        "expected a list of troop ids",
                    ))
                }
            };
            self.factions.push((
                file.to_string(),
                RawFaction {
                    id: f.id("id")?,
                    name: f.str("name")?,
                    banner: f.opt_str("banner")?.unwrap_or_default(),
                    recommended,
                },
            ));
        }
        for (i, t) in table_list(file, &root, "brigade")? {
            let f = Fields::new(
                t,
                card_place(file, "brigade", i, t),
                &["id", "faction", "name"],
            )?;
            self.brigades.push((
                file.to_string(),
                RawBrigade {
                    id: f.id("id")?,
                    faction: f.id("faction")?,
                    name: f.str("name")?,
                },
            ));
        }
        for (i, t) in table_list(file, &root, "troop")? {
            let f = Fields::new(
                t,
                card_place(file, "troop", i, t),
                &[
                    "id", "brigade", "name", "element", "atk", "def", "copies", "text", "ability",
                ],
            )?;
            let element_text = f.str("element")?;
            let element = Element::parse(&element_text).ok_or_else(|| {
                Error::data(
                    f.at("element"),
                    format!(
                        "unknown element {element_text:?}; expected fire, water, wind or earth"
                    ),
                )
            })?;
            self.troops.push((
                file.to_string(),
                RawTroop {
                    id: f.id("id")?,
                    brigade: f.id("brigade")?,
                    name: f.str("name")?,
                    element,
                    atk: f.int("atk", 0, 20, None)? as i8,
                    def: f.int("def", 0, 20, None)? as i8,
                    copies: f.int("copies", 1, 9, Some(3))? as u8,
                    text: f.opt_str("text")?.unwrap_or_default(),
                    abilities: f.abilities(false)?,
                },
            ));
        }
        for (i, t) in table_list(file, &root, "leader")? {
            let f = Fields::new(
                t,
                card_place(file, "leader", i, t),
                &["id", "faction", "name", "text", "ability"],
            )?;
            self.leaders.push((
                file.to_string(),
                RawLeader {
                    id: f.id("id")?,
                    faction: f.id("faction")?,
                    name: f.str("name")?,
                    text: f.opt_str("text")?.unwrap_or_default(),
                    abilities: f.abilities(true)?,
                },
            ));
        }
        Ok(())
    }

    fn finish(self) -> Result<CardSet> {
        if self.factions.is_empty() {
            return Err(Error::data("card set", "no [[faction]] is defined"));
        }
        fn unique<'a>(
            kind: &str,
            items: impl Iterator<Item = (&'a String, &'a String)>,
        ) -> Result<()> {
            let mut seen: HashMap<&str, &str> = HashMap::new();
            for (file, id) in items {
                if let Some(first) = seen.insert(id, file) {
                    return Err(Error::data(
                        format!("{file}: {kind} {id:?}, field \"id\""),
                        format!("duplicate id (first defined in {first})"),
                    ));
                }
            }
            Ok(())
        }
        unique("faction", self.factions.iter().map(|(f, x)| (f, &x.id)))?;
        unique("brigade", self.brigades.iter().map(|(f, x)| (f, &x.id)))?;
        unique("troop", self.troops.iter().map(|(f, x)| (f, &x.id)))?;
        unique("leader", self.leaders.iter().map(|(f, x)| (f, &x.id)))?;
        if self.troops.len() > MAX_CARDS || self.leaders.len() > MAX_CARDS {
            return Err(Error::data(
                "card set",
                format!("at most {MAX_CARDS} troops and {MAX_CARDS} leaders"),
            ));
        }

        let mut factions: Vec<Faction> = self
            .factions
            .iter()
            .map(|(_, f)| Faction {
                id: f.id.clone(),
                name: f.name.clone(),
                banner: f.banner.clone(),
                troops: Vec::new(),
                leaders: Vec::new(),
                brigades: Vec::new(),
                recommended: Vec::new(),
            })
            .collect();
        let faction_of = |file: &str, kind: &str, id: &str, faction: &str| -> Result<usize> {
            factions_index(&self.factions, faction).ok_or_else(|| {
                Error::data(
                    format!("{file}: {kind} {id:?}, field \"faction\""),
                    format!("unknown faction {faction:?}"),
                )
            })
        };
        let mut brigades = Vec::with_capacity(self.brigades.len());
        for (file, b) in &self.brigades {
            let fi = faction_of(file, "brigade", &b.id, &b.faction)?;
            factions[fi].brigades.push(brigades.len());
            brigades.push(Brigade {
                id: b.id.clone(),
                name: b.name.clone(),
                faction: fi,
            });
        }
        let mut troops = Vec::with_capacity(self.troops.len());
        for (file, t) in &self.troops {
            let bi = brigades
                .iter()
                .position(|b| b.id == t.brigade)
                .ok_or_else(|| {
                    Error::data(
                        format!("{file}: troop {:?}, field \"brigade\"", t.id),
                        format!("unknown brigade {:?}", t.brigade),
                    )
                })?;
            let fi = brigades[bi].faction;
            factions[fi].troops.push(troops.len());
            let (kinds, reach_kinds) = super::effects::kinds(&t.abilities);
            troops.push(TroopCard {
                id: t.id.clone(),
                name: t.name.clone(),
                faction: fi,
                brigade: bi,
                element: t.element,
                atk: t.atk,
                def: t.def,
                copies: t.copies,
                text: t.text.clone(),
                abilities: t.abilities.clone(),
                kinds,
                reach_kinds,
            });
        }
        let mut leaders = Vec::with_capacity(self.leaders.len());
        for (file, l) in &self.leaders {
            let fi = faction_of(file, "leader", &l.id, &l.faction)?;
            factions[fi].leaders.push(leaders.len());
            leaders.push(LeaderCard {
                id: l.id.clone(),
                name: l.name.clone(),
                faction: fi,
                text: l.text.clone(),
                abilities: l.abilities.clone(),
                kinds: super::effects::kinds(&l.abilities).0,
            });
        }
        for (file, b) in &self.brigades {
            if !troops.iter().any(|t| brigades[t.brigade].id == b.id) {
                return Err(Error::data(
                    format!("{file}: brigade {:?}", b.id),
                    "has no troop",
                ));
            }
        }
        let mut set = CardSet {
            factions,
            brigades,
            troops,
            leaders,
        };
        for (fi, (file, raw)) in self.factions.iter().enumerate() {
            let place = format!("{file}: faction {:?}", raw.id);
            if set.factions[fi].leaders.is_empty() {
                return Err(Error::data(place, "has no leader"));
            }
            let total: usize = set.factions[fi]
                .troops
                .iter()
                .map(|&t| set.troops[t].copies.min(MAX_COPIES) as usize)
                .sum();
            if total < DECK_SIZE {
                return Err(Error::data(
                    place,
                    format!(
                        "its troops allow only {total} cards in a deck; a deck needs {DECK_SIZE}"
                    ),
                ));
            }
            let mut deck = Vec::with_capacity(raw.recommended.len());
            for id in &raw.recommended {
                deck.push(set.troop_index(id).ok_or_else(|| {
                    Error::data(
                        format!("{place}, field \"recommended\""),
                        format!("unknown troop {id:?}"),
                    )
                })?);
            }
            set.check_deck(fi, &deck).map_err(|why| {
                Error::data(
                    format!("{place}, field \"recommended\""),
                    format!("not a legal deck: {why}"),
                )
            })?;
            set.factions[fi].recommended = deck;
        }
        Ok(set)
    }
}

fn factions_index(factions: &[(String, RawFaction)], id: &str) -> Option<usize> {
    factions.iter().position(|(_, f)| f.id == id)
}
