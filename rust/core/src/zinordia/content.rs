//! Content as data: the roster of Stars (with their abilities, `ability.rs`), the maps (the
//! `kingdoms.hex` text format) and the modes. The rulebook prints none of them, so the
//! reference set under `data/zinordia/` is a documented stand-in (`docs/zinordia.md`),
//! embedded below; users load their own with [`Content::load`].
//!
//! Loading is two steps, like the saved-state format: serde reads plain data
//! (`deny_unknown_fields`, through `serde_path_to_error` so a failure names its field), then
//! one validation step checks what serde cannot. Every error is `Error::Data` whose place
//! names the file, the Star, the ability and the field (`roster.toml, Star "ignara", ability
//! "fireball", field effects[0].base`).

use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, OnceLock};

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_path_to_error::Segment;

use super::ability::{Ability, Effect, Problem};
use super::terrain::{Modifiers, Vocabulary};
use crate::error::{Error, Result};
use crate::hex::text::parse as parse_map;
use crate::hex::{HexMap, ZoneGraph};

/// Abilities per Star (ZN-1.1).
pub const ABILITIES: usize = 4;
/// Most zones on a battlefield (ZN-2.1).
pub const MAX_ZONES: usize = 64;
/// Most Stars a roster may hold (ids fit the action space comfortably).
pub const MAX_STARS: usize = 64;
/// Players a game may have (ZN-3.1).
pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 4;
/// Most Stars per player.
pub const MAX_STARS_PER_PLAYER: u8 = 6;

/// The map tags the game reads (ZN-2.2).
pub const START: &str = "start";
pub const PRIVILEGE: &str = "privilege";
pub const RENOWN: &str = "renown";

pub const REFERENCE_ROSTER: &str = include_str!("../../../../data/zinordia/roster.toml");
pub const REFERENCE_MODES: &str = include_str!("../../../../data/zinordia/modes.toml");
/// The reference maps: (id, file text).
pub const REFERENCE_MAPS: [(&str, &str); 3] = [
    (
        "arena",
        include_str!("../../../../data/zinordia/maps/arena.toml"),
    ),
    (
        "crossroads",
        include_str!("../../../../data/zinordia/maps/crossroads.toml"),
    ),
    (
        "twin_rivers",
        include_str!("../../../../data/zinordia/maps/twin_rivers.toml"),
    ),
];

/// A Star as loaded and validated (ZN-1.1).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Star {
    /// The Name's identifier: unique in a team (ZN-1.2), used in notation.
    pub id: String,
    /// The printed Name.
    pub name: String,
    /// Role and flavour for people; the engine does not read it.
    #[serde(default)]
    pub text: String,
    /// Starting (and maximum) Vida.
    pub vida: u16,
    /// Starting (and maximum) Âmago.
    pub amago: u16,
    pub armadura: u8,
    pub agilidade: u8,
    pub poder_fisico: u8,
    pub poder_magico: u8,
    pub abilities: Vec<Ability>,
}

/// Bounds of a Star's printed values: (field, lowest, highest).
const STAR_BOUNDS: [(&str, u16, u16); 6] = [
    ("vida", 1, 99),
    ("amago", 0, 40),
    ("armadura", 0, 20),
    ("agilidade", 0, 8),
    ("poder_fisico", 0, 20),
    ("poder_magico", 0, 20),
];

impl Star {
    fn values(&self) -> [u16; 6] {
        [
            self.vida,
            self.amago,
            u16::from(self.armadura),
            u16::from(self.agilidade),
            u16::from(self.poder_fisico),
            u16::from(self.poder_magico),
        ]
    }

    /// The checks serde cannot make; `Err` is (ability index if any, field, why).
    fn validate(&self) -> std::result::Result<(), (Option<usize>, String, String)> {
        if self.id.is_empty()
            || self.id.len() > 32
            || !self
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            return Err((
                None,
                "id".into(),
                "must be 1 to 32 characters of a-z, 0-9 and _".into(),
            ));
        }
        crate::text::check_name(&self.name, 48).map_err(|why| (None, "name".into(), why))?;
        for ((field, lo, hi), v) in STAR_BOUNDS.iter().zip(self.values()) {
            if v < *lo || v > *hi {
                return Err((None, (*field).into(), format!("must be {lo} to {hi}")));
            }
        }
        if self.abilities.len() != ABILITIES {
            return Err((
                None,
                "abilities".into(),
                format!(
                    "a Star has exactly {ABILITIES} abilities, not {}",
                    self.abilities.len()
                ),
            ));
        }
        let mut ids = HashSet::new();
        for (i, a) in self.abilities.iter().enumerate() {
            a.validate().map_err(|(f, why)| (Some(i), f, why))?;
            if !ids.insert(a.id.as_str()) {
                return Err((Some(i), "id".into(), "two abilities share this id".into()));
            }
        }
        Ok(())
    }
}

/// A mode (ZN-3).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mode {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub text: String,
    /// The player counts the mode allows.
    pub players: Vec<u8>,
    /// `true`: two teams of two (seats 0 and 2 against 1 and 3, ZN-3.3); else each alone.
    #[serde(default)]
    pub teams: bool,
    /// Stars each player picks.
    pub stars: u8,
    /// Ids of the maps it is played on (the first is the default).
    pub maps: Vec<String>,
    /// Renown markers placed (ZN-4.5).
    pub markers: u8,
    /// Renown that wins (ZN-12.6).
    pub target: u8,
}

impl Mode {
    pub fn min_players(&self) -> usize {
        self.players.iter().copied().min().map_or(0, usize::from)
    }
    pub fn max_players(&self) -> usize {
        self.players.iter().copied().max().map_or(0, usize::from)
    }
    /// The team of seat `p` with `n` players.
    pub fn team_of(&self, p: usize) -> usize {
        if self.teams {
            p % 2
        } else {
            p
        }
    }
    /// Teams in a game of `n` players.
    pub fn num_teams(&self, n: usize) -> usize {
        if self.teams {
            2
        } else {
            n
        }
    }
}

/// A map of the content: its id (the file's name) and the map.
#[derive(Clone, Debug, PartialEq)]
pub struct GameMap {
    pub id: String,
    pub map: HexMap,
    /// The zones' adjacency, ranges and axes as bitsets, built once per content: movement
    /// and target generation run on it (`rules.rs`, `activate.rs`).
    pub graph: Arc<ZoneGraph>,
    /// Each zone's terrain modifiers by zone id (ZN-2.9, ZN-7.2).
    pub modifiers: Vec<Modifiers>,
}

/// The stats `star`'s continuous passives change, as bits (see `Content::continuous`).
fn continuous_stats(star: &Star) -> u8 {
    star.abilities
        .iter()
        .filter(|a| a.is_continuous())
        .flat_map(|a| &a.effects)
        .fold(0, |bits, e| match e {
            Effect::Stat { stat, .. } => bits | stat.bit(),
            _ => bits,
        })
}

/// A whole content set: roster, maps, modes, validated together.
#[derive(Clone, Debug, PartialEq)]
pub struct Content {
    pub stars: Vec<Star>,
    pub maps: Vec<GameMap>,
    pub modes: Vec<Mode>,
    /// Per roster Star, the stats its continuous passives change (bit `i` for
    /// `STATS[i]`): most Stars have none, and a stat is asked of every Star after every
    /// action (ZN-10.2, ZN-11.1), so they answer without walking their abilities.
    pub continuous: Vec<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModesFile {
    modes: Vec<toml::Value>,
}

/// A file's text and the name errors call it by.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

impl Content {
    /// The reference set (`data/zinordia/`), parsed once. The files are tested
    /// (`reference_content_loads`), so this fails only on a broken build; it still reports
    /// that as an error rather than panicking.
    pub fn reference() -> Result<Arc<Content>> {
        static REF: OnceLock<Result<Arc<Content>>> = OnceLock::new();
        REF.get_or_init(|| {
            let maps: Vec<(&str, Source)> = REFERENCE_MAPS
                .iter()
                .map(|(id, text)| {
                    (
                        *id,
                        Source {
                            name: "data/zinordia/maps",
                            text,
                        },
                    )
                })
                .collect();
            Content::load(
                Source {
                    name: "data/zinordia/roster.toml",
                    text: REFERENCE_ROSTER,
                },
                &maps,
                Source {
                    name: "data/zinordia/modes.toml",
                    text: REFERENCE_MODES,
                },
            )
            .map(Arc::new)
        })
        .clone()
    }

    /// Load and validate a roster, maps (`(id, file)`) and modes, the maps' terrain kinds
    /// those of the reference vocabulary (`data/zinordia/terrain.toml`).
    pub fn load(roster: Source, maps: &[(&str, Source)], modes: Source) -> Result<Content> {
        Content::load_with_terrain(roster, maps, modes, Vocabulary::reference()?)
    }

    /// [`Content::load`] with the maps' terrain kinds taken from `terrain` (ZN-2.9).
    pub fn load_with_terrain(
        roster: Source,
        maps: &[(&str, Source)],
        modes: Source,
        terrain: &Vocabulary,
    ) -> Result<Content> {
        let stars = load_roster(roster)?;
        let mut loaded = Vec::with_capacity(maps.len());
        for (id, src) in maps {
            let place = format!("{}, map {id:?}", src.name);
            check_id(id).map_err(|why| Error::data(&place, why))?;
            if loaded.iter().any(|m: &GameMap| m.id == *id) {
                return Err(Error::data(place, "two maps share this id"));
            }
            let map = parse_map(src.text, &place)?;
            validate_map(&map).map_err(|why| Error::data(&place, why))?;
            let modifiers = terrain
                .zone_modifiers(&map)
                .map_err(|why| Error::data(&place, why))?;
            let graph = ZoneGraph::new(&map)
                .ok_or_else(|| Error::data(&place, format!("at most {MAX_ZONES} zones")))?;
            loaded.push(GameMap {
                id: (*id).to_string(),
                map,
                graph: Arc::new(graph),
                modifiers,
            });
        }
        let modes = load_modes(modes, &stars, &loaded)?;
        let continuous = stars.iter().map(continuous_stats).collect();
        Ok(Content {
            stars,
            maps: loaded,
            modes,
            continuous,
        })
    }

    pub fn star(&self, id: &str) -> Option<usize> {
        self.stars.iter().position(|s| s.id == id)
    }
    pub fn map(&self, id: &str) -> Option<&GameMap> {
        self.maps.iter().find(|m| m.id == id)
    }
    pub fn mode(&self, id: &str) -> Option<&Mode> {
        self.modes.iter().find(|m| m.id == id)
    }
}

pub(super) fn check_id(id: &str) -> std::result::Result<(), String> {
    if id.is_empty()
        || id.len() > 32
        || !id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        return Err("an id is 1 to 32 characters of a-z, 0-9 and _".into());
    }
    Ok(())
}

/// Parse TOML text into a table, syntax errors naming line and column.
pub(super) fn parse_table(src: Source) -> Result<toml::Table> {
    src.text.parse::<toml::Table>().map_err(|e| {
        let at = e.span().map(|s| line_col(src.text, s.start));
        let place = match at {
            Some((l, c)) => format!("{} line {l} column {c}", src.name),
            None => src.name.to_string(),
        };
        Error::data(place, e.message().to_string())
    })
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// A short, bounded quote of a user's string for an error message.
fn quote(s: &str) -> String {
    let cut: String = s.chars().take(32).collect();
    if cut.len() < s.len() {
        format!("{cut:?}…")
    } else {
        format!("{cut:?}")
    }
}

/// The `id` string of a raw table entry, for naming it in errors.
fn raw_id(v: &toml::Value) -> Option<&str> {
    v.get("id").and_then(toml::Value::as_str)
}

/// Deserialize one entry, mapping a failure to (path segments, message).
pub(super) fn decode<T: DeserializeOwned>(
    v: toml::Value,
) -> std::result::Result<T, (Vec<Segment>, String)> {
    serde_path_to_error::deserialize(v).map_err(|e| {
        let segs = e.path().iter().cloned().collect();
        (segs, e.into_inner().message().to_string())
    })
}

pub(super) fn path_text(segs: &[Segment]) -> String {
    let mut out = String::new();
    for s in segs {
        match s {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&crate::error::path_key(key));
            }
            Segment::Enum { variant } => {
                out.push_str(&format!("({})", crate::error::path_key(variant)));
            }
            Segment::Unknown => out.push_str(".?"),
        }
    }
    out
}

/// Where in a roster: file, Star, ability, field.
fn star_place(
    file: &str,
    star: Option<&str>,
    index: usize,
    ability: Option<String>,
    field: &str,
) -> String {
    let mut place = match star {
        Some(id) => format!("{file}, Star {}", quote(id)),
        None => format!("{file}, stars[{index}]"),
    };
    if let Some(a) = ability {
        place.push_str(&format!(", ability {a}"));
    }
    if !field.is_empty() {
        place.push_str(&format!(", field {field}"));
    }
    place
}

fn load_roster(src: Source) -> Result<Vec<Star>> {
    let mut table = parse_table(src)?;
    if let Some(k) = table.keys().find(|k| k.as_str() != "stars") {
        return Err(Error::data(
            src.name,
            format!("unknown key {}: a roster holds [[stars]]", quote(k)),
        ));
    }
    let raw = match table.remove("stars") {
        Some(toml::Value::Array(a)) => a,
        Some(_) => return Err(Error::data(src.name, "stars must be an array of tables")),
        None => return Err(Error::data(src.name, "no [[stars]]")),
    };
    if raw.len() > MAX_STARS {
        return Err(Error::data(
            src.name,
            format!("at most {MAX_STARS} Stars, not {}", raw.len()),
        ));
    }
    let mut stars: Vec<Star> = Vec::with_capacity(raw.len());
    for (i, v) in raw.into_iter().enumerate() {
        let id = raw_id(&v).map(str::to_string);
        let abilities: Vec<Option<String>> = v
            .get("abilities")
            .and_then(toml::Value::as_array)
            .map(|a| a.iter().map(|x| raw_id(x).map(quote)).collect())
            .unwrap_or_default();
        let star: Star = decode(v).map_err(|(segs, msg)| {
            // `abilities[i]...`: name the ability by its id, the rest is the field.
            let (ability, rest) = match segs.as_slice() {
                [Segment::Map { key }, Segment::Seq { index }, rest @ ..] if key == "abilities" => {
                    let name = abilities
                        .get(*index)
                        .cloned()
                        .flatten()
                        .unwrap_or_else(|| format!("abilities[{index}]"));
                    (Some(name), rest)
                }
                _ => (None, segs.as_slice()),
            };
            Error::data(
                star_place(src.name, id.as_deref(), i, ability, &path_text(rest)),
                msg,
            )
        })?;
        star.validate().map_err(|(a, field, why)| {
            let ability = a.and_then(|a| star.abilities.get(a)).map(|a| quote(&a.id));
            Error::data(
                star_place(src.name, Some(&star.id), i, ability, &field),
                why,
            )
        })?;
        if stars.iter().any(|s| s.id == star.id) {
            return Err(Error::data(
                star_place(src.name, Some(&star.id), i, None, "id"),
                "two Stars share this id",
            ));
        }
        stars.push(star);
    }
    if stars.is_empty() {
        return Err(Error::data(src.name, "no [[stars]]"));
    }
    check_marks(src.name, &stars)?;
    Ok(stars)
}

impl Content {
    /// Whether some ability of the roster applies the mark `m` (ZN-11.3): the only marks a
    /// game can hold.
    pub fn applies_mark(&self, m: &str) -> bool {
        self.stars.iter().any(|s| {
            s.abilities.iter().any(|a| {
                a.all_effects()
                    .iter()
                    .any(|e| matches!(e, Effect::Mark { mark, .. } if mark == m))
            })
        })
    }
}

/// A mark an `if` checks must be one some ability applies: catches misspelt marks.
fn check_marks(file: &str, stars: &[Star]) -> Result<()> {
    let mut applied = BTreeSet::new();
    for s in stars {
        for a in &s.abilities {
            for e in a.all_effects() {
                if let Effect::Mark { mark, .. } = e {
                    applied.insert(mark.as_str());
                }
            }
        }
    }
    for (i, s) in stars.iter().enumerate() {
        for a in &s.abilities {
            for e in a.all_effects() {
                if let Effect::If {
                    marked: Some(m), ..
                } = e
                {
                    if !applied.contains(m.as_str()) {
                        return Err(Error::data(
                            star_place(file, Some(&s.id), i, Some(quote(&a.id)), "if.marked"),
                            format!("no ability of the roster applies the mark {}", quote(m)),
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The map rules of ZN-2.1 and ZN-2.2 that hold for every mode.
fn validate_map(map: &HexMap) -> std::result::Result<(), String> {
    if map.len() > MAX_ZONES {
        return Err(format!(
            "a battlefield has at most {MAX_ZONES} zones, this one {}",
            map.len()
        ));
    }
    for tag in [START, PRIVILEGE] {
        for h in map.tagged(tag) {
            if !map.is_open(h) {
                return Err(format!(
                    "the {tag} zone ({}, {}) is not open ground",
                    h.x, h.y
                ));
            }
        }
    }
    for h in map.tagged(RENOWN) {
        if !map.is_open(h) {
            return Err(format!(
                "the renown zone ({}, {}) is not open ground",
                h.x, h.y
            ));
        }
    }
    Ok(())
}

fn load_modes(src: Source, stars: &[Star], maps: &[GameMap]) -> Result<Vec<Mode>> {
    let table = parse_table(src)?;
    let file: ModesFile = decode(toml::Value::Table(table)).map_err(|(segs, msg)| {
        Error::data(format!("{}, field {}", src.name, path_text(&segs)), msg)
    })?;
    let mut modes: Vec<Mode> = Vec::new();
    for (i, v) in file.modes.into_iter().enumerate() {
        let place = match raw_id(&v) {
            Some(id) => format!("{}, mode {}", src.name, quote(id)),
            None => format!("{}, modes[{i}]", src.name),
        };
        let mode: Mode = decode(v).map_err(|(segs, msg)| {
            Error::data(format!("{place}, field {}", path_text(&segs)), msg)
        })?;
        validate_mode(&mode, stars, maps)
            .map_err(|(field, why)| Error::data(format!("{place}, field {field}"), why))?;
        if modes.iter().any(|m| m.id == mode.id) {
            return Err(Error::data(place, "two modes share this id"));
        }
        modes.push(mode);
    }
    if modes.is_empty() {
        return Err(Error::data(src.name, "no [[modes]]"));
    }
    Ok(modes)
}

fn validate_mode(
    mode: &Mode,
    stars: &[Star],
    maps: &[GameMap],
) -> std::result::Result<(), Problem> {
    check_id(&mode.id).map_err(|why| ("id".to_string(), why))?;
    crate::text::check_name(&mode.name, 48).map_err(|why| ("name".to_string(), why))?;
    let bad = |f: &str, why: String| Err((f.to_string(), why));
    if mode.players.is_empty()
        || mode
            .players
            .iter()
            .any(|&n| !(MIN_PLAYERS..=MAX_PLAYERS).contains(&usize::from(n)))
    {
        return bad(
            "players",
            format!("player counts are {MIN_PLAYERS} to {MAX_PLAYERS}"),
        );
    }
    if mode.teams && mode.players != [4] {
        return bad("players", "a team mode is 2 v 2: players = [4]".into());
    }
    if mode.stars == 0 || mode.stars > MAX_STARS_PER_PLAYER {
        return bad("stars", format!("must be 1 to {MAX_STARS_PER_PLAYER}"));
    }
    // A team holds distinct Stars (ZN-1.2): the roster must have enough.
    let per_team = usize::from(mode.stars) * if mode.teams { 2 } else { 1 };
    if per_team > stars.len() {
        return bad(
            "stars",
            format!(
                "a team needs {per_team} different Stars; the roster has {}",
                stars.len()
            ),
        );
    }
    if mode.target == 0 {
        return bad("target", "must be at least 1".into());
    }
    // Reachable (ZN-3.1): every marker plus one point per enemy Star killed.
    let n = mode.min_players();
    let teams = mode.num_teams(n);
    let enemies = usize::from(mode.stars) * (n - n / teams);
    let most = usize::from(mode.markers) + enemies;
    if usize::from(mode.target) > most {
        return bad(
            "target",
            format!("unreachable: markers and kills give at most {most}"),
        );
    }
    if mode.maps.is_empty() {
        return bad("maps", "name at least one map".into());
    }
    for (i, id) in mode.maps.iter().enumerate() {
        let field = format!("maps[{i}]");
        let Some(m) = maps.iter().find(|m| m.id == *id) else {
            return bad(&field, format!("no map {}", quote(id)));
        };
        let map = &m.map;
        let (start, privilege) = (map.tagged(START).len(), map.tagged(PRIVILEGE).len());
        let renown = map.tagged(RENOWN).len();
        for &n in &mode.players {
            let n = usize::from(n);
            let stars = usize::from(mode.stars);
            // ZN-4.4: the first team on start zones, the rest on privilege zones; in
            // free-for-all everyone on privilege zones.
            let (need_start, need_privilege) = if mode.teams {
                (2 * stars, 2 * stars)
            } else if n == 2 {
                (stars, stars)
            } else {
                (0, n * stars)
            };
            if start < need_start || privilege < need_privilege {
                return bad(
                    &field,
                    format!(
                        "map {} has {start} start and {privilege} privilege zones; {n} players need {need_start} and {need_privilege}",
                        quote(id)
                    ),
                );
            }
        }
        if renown < usize::from(mode.markers) {
            return bad(
                &field,
                format!(
                    "map {} has {renown} renown zones for {} markers",
                    quote(id),
                    mode.markers
                ),
            );
        }
    }
    Ok(())
}
