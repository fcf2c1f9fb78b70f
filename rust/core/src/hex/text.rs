//! The map text format: TOML with an ASCII picture of the grid and a legend.
//!
//! ```toml
//! name = "Crossing"
//! orientation = "pointy"      # or "flat"; how the picture is drawn (default pointy)
//! origin = [0, 0]             # added to every coordinate read from the picture
//! picture = '''
//!  . . # . .
//! S . ~ ~ . R
//!  . . # . .
//! '''
//!
//! [legend]                    # one character -> a terrain, or a terrain with tags
//! "." = "plain"
//! "#" = "rock"
//! "~" = "water"
//! "S" = { terrain = "plain", tags = ["start"] }
//! "R" = { terrain = "plain", tags = ["renown"] }
//!
//! [terrain]                   # cost: entry cost (default 1); passable, blocks_sight
//! plain = {}
//! water = { cost = 2 }
//! rock = { passable = false, blocks_sight = true }
//!
//! [[zones]]                   # optional per-zone details
//! at = [2, 1]
//! cost = 3                    # override the terrain's cost
//! occupant = 1                # anything that blocks movement (a piece id)
//! tags = ["privilege"]
//! ```
//!
//! Pointy pictures are drawn in doubled-width coordinates: cells of one line sit on every
//! other column, each line staggered by one column from the previous one; line `l` is row
//! `r = l`, and the cell at column `c` has `q = (c - l - p) / 2` with `p` the column parity
//! of the first line's cells. Flat pictures use doubled height: each column of hexes is two
//! characters wide, alternate columns half a line lower. A space where a cell could be is
//! void; so is a symbol mapped to `"void"` in the legend. `docs/hex.md` has pictures.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::coords::{Hex, Orientation};
use super::limits::{quoted, short, MAX_PICTURE_CHARS};
use super::map::{HexMap, Terrain, MAX_TAGS};
use crate::error::{Error, Result};

/// A legend entry of a map: the symbol drawn for a terrain with a set of tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub symbol: char,
    pub terrain: usize,
    pub tags: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    #[serde(default)]
    name: String,
    #[serde(default)]
    orientation: Option<Spanned<String>>,
    #[serde(default)]
    origin: [i32; 2],
    picture: Spanned<String>,
    legend: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    #[serde(default)]
    terrain: BTreeMap<String, RawTerrain>,
    #[serde(default)]
    zones: Vec<Spanned<RawZone>>,
}

/// A legend entry: a terrain name, or `{ terrain = "...", tags = ["..."] }`. Read by hand
/// from the TOML value so a bad entry gets a message about legends, not about serde's enums.
fn legend_entry(value: &toml::Value) -> std::result::Result<(String, Vec<String>), String> {
    const EXPECTED: &str =
        "expected a terrain name or { terrain = \"name\", tags = [\"tag\", ...] }";
    match value {
        toml::Value::String(name) => Ok((name.clone(), Vec::new())),
        toml::Value::Table(t) => {
            if let Some(k) = t.keys().find(|k| *k != "terrain" && *k != "tags") {
                return Err(format!("unknown key {}: {EXPECTED}", quoted(k)));
            }
            let name = match t.get("terrain") {
                Some(toml::Value::String(n)) => n.clone(),
                Some(other) => return Err(format!("terrain is {}: {EXPECTED}", a(other))),
                None => return Err(format!("no terrain: {EXPECTED}")),
            };
            let tags = match t.get("tags") {
                None => Vec::new(),
                Some(toml::Value::Array(a)) => a
                    .iter()
                    .map(|v| v.as_str().map(String::from))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| format!("tags must be strings: {EXPECTED}"))?,
                Some(other) => return Err(format!("tags is {}: {EXPECTED}", a(other))),
            };
            Ok((name, tags))
        }
        other => Err(format!("{}: {EXPECTED}", a(other))),
    }
}

/// "an integer", "a table", ...: the kind of a TOML value, for messages.
fn a(value: &toml::Value) -> String {
    let t = value.type_str();
    let article = if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {t}")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerrain {
    #[serde(default = "one")]
    cost: u32,
    #[serde(default = "yes")]
    passable: bool,
    #[serde(default)]
    blocks_sight: bool,
}

fn one() -> u32 {
    1
}
fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawZone {
    at: [i32; 2],
    #[serde(default)]
    terrain: Option<String>,
    #[serde(default)]
    cost: Option<u32>,
    #[serde(default)]
    occupant: Option<u32>,
    #[serde(default)]
    tags: Vec<String>,
}

/// Line and column (1-based) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

struct Ctx<'a> {
    source: &'a str,
    text: &'a str,
}

impl Ctx<'_> {
    fn at(&self, offset: usize, message: impl Into<String>) -> Error {
        let (l, c) = line_col(self.text, offset);
        Error::data(format!("{} line {l} column {c}", self.source), message)
    }
}

/// Where a picture cell sits, and its coordinates.
struct Grid {
    orientation: Orientation,
    /// Parities fixed by the first cell: (column parity, line parity).
    parity: Option<(i64, i64)>,
}

impl Grid {
    /// The hex at line `l`, column `c`, or why the position is not a cell position.
    fn hex(&mut self, l: i64, c: i64) -> std::result::Result<Hex, String> {
        match self.orientation {
            Orientation::Pointy => {
                let p = (c + l).rem_euclid(2);
                let (_, want) = *self.parity.get_or_insert((0, p));
                if p != want {
                    return Err("misaligned: on a pointy picture the cells of a line sit on every other column, staggered by one column from the line above".into());
                }
                Ok(Hex::new(((c - l - p) / 2) as i32, l as i32))
            }
            Orientation::Flat => {
                let pc0 = c.rem_euclid(2);
                let x0 = (c - pc0).div_euclid(2);
                let (pc, p) = *self.parity.get_or_insert((pc0, (x0 + l).rem_euclid(2)));
                let x = (c - pc).div_euclid(2);
                if c.rem_euclid(2) != pc || (x + l).rem_euclid(2) != p {
                    return Err("misaligned: on a flat picture each column of hexes is two characters wide and alternate columns sit half a line lower".into());
                }
                Ok(Hex::new(x as i32, ((l - p - x) / 2) as i32))
            }
        }
    }
}

/// Parse a map from the text format. `source` names it in error messages (a file name).
pub fn parse(text: &str, source: &str) -> Result<HexMap> {
    let source = &short(source);
    let cx = Ctx { source, text };
    let raw: RawMap = toml::from_str(text).map_err(|e| {
        let msg = e.message().to_string();
        match e.span() {
            Some(s) => cx.at(s.start, msg),
            None => Error::data(source, msg),
        }
    })?;
    let orientation = match &raw.orientation {
        None => Orientation::Pointy,
        Some(o) => Orientation::parse(o.get_ref()).ok_or_else(|| {
            cx.at(
                o.span().start,
                format!(
                    "orientation {}: expected \"pointy\" or \"flat\"",
                    quoted(o.get_ref())
                ),
            )
        })?,
    };
    let terrains = read_terrains(&raw, source)?;
    let (legend, symbols) = read_legend(&cx, &raw, &terrains)?;
    // Picture.
    let pic = raw.picture.get_ref();
    let mut start = raw.picture.span().start;
    let rest = &text[start.min(text.len())..];
    if rest.starts_with("'''") || rest.starts_with("\"\"\"") {
        start += 3;
        if text[start..].starts_with("\r\n") {
            start += 2;
        } else if text[start..].starts_with('\n') {
            start += 1;
        }
    } else {
        start += 1;
    }
    let (line0, col0) = line_col(text, start);
    let place = |l: usize, c: usize| {
        let (line, col) = if l == 0 {
            (line0, col0 + c)
        } else {
            (line0 + l, c + 1)
        };
        format!("{source} line {line} column {col}")
    };
    let mut grid = Grid {
        orientation,
        parity: None,
    };
    let mut cells: Vec<(Hex, usize, Vec<String>)> = Vec::new();
    for (l, line) in pic.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        for (c, ch) in line.chars().enumerate() {
            if ch == ' ' {
                continue;
            }
            if ch == '\t' {
                return Err(Error::data(place(l, c), "tab in the picture: use spaces"));
            }
            let entry = legend
                .get(&ch)
                .ok_or_else(|| Error::data(place(l, c), format!("{ch:?} is not in the legend")))?;
            let h = grid
                .hex(l as i64, c as i64)
                .map_err(|m| Error::data(place(l, c), format!("{ch:?} {m}")))?;
            if let Some((t, tags)) = entry {
                let h = super::limits::hex(
                    h.x as i64 + raw.origin[0] as i64,
                    h.y as i64 + raw.origin[1] as i64,
                    "the zone",
                )
                .map_err(|e| Error::data(place(l, c), inner(e)))?;
                cells.push((h, *t, tags.clone()));
            }
        }
    }
    let zones: Vec<(Hex, usize)> = cells.iter().map(|(h, t, _)| (*h, *t)).collect();
    let mut map = HexMap::new(terrains, &zones, orientation).map_err(|e| retag(e, source))?;
    map.set_name(&raw.name)
        .map_err(|e| Error::data(format!("{source} name"), inner(e)))?;
    map.set_symbols(symbols);
    let mut tagcount = std::collections::BTreeSet::new();
    for (h, _, tags) in &cells {
        for tag in tags {
            tagcount.insert(tag.clone());
            if tagcount.len() > MAX_TAGS {
                return Err(Error::data(
                    source,
                    format!("more than {MAX_TAGS} distinct tags"),
                ));
            }
            map.add_tag(*h, tag)
                .map_err(|e| Error::data(format!("{source} tag"), inner(e)))?;
        }
    }
    for z in &raw.zones {
        edit_zone(&mut map, z, text, source)?;
    }
    map.recost();
    Ok(map)
}

/// The `[terrain]` table, in name order.
fn read_terrains(raw: &RawMap, source: &str) -> Result<Vec<Terrain>> {
    let mut terrains = Vec::new();
    for (name, t) in &raw.terrain {
        if name == "void" {
            return Err(Error::data(
                format!("{source} [terrain]"),
                "\"void\" is reserved for cells that are not zones",
            ));
        }
        crate::text::check_name(name, super::limits::MAX_NAME).map_err(|m| {
            Error::data(
                format!("{source} [terrain.{}]", quoted(name)),
                format!("the name {m}"),
            )
        })?;
        if !(1..=super::map::MAX_COST).contains(&t.cost) {
            return Err(Error::data(
                format!("{source} [terrain.{}]", short(name)),
                format!("cost {} is not in 1..={}", t.cost, super::map::MAX_COST),
            ));
        }
        terrains.push(Terrain::new(name, t.cost, t.passable, t.blocks_sight));
    }
    Ok(terrains)
}

/// The legend: each symbol's terrain and tags (`None`: void), and the symbols in order.
type Legend = BTreeMap<char, Option<(usize, Vec<String>)>>;

fn read_legend(cx: &Ctx<'_>, raw: &RawMap, terrains: &[Terrain]) -> Result<(Legend, Vec<Symbol>)> {
    let terrain_id = |name: &str| terrains.iter().position(|t| t.name == name);
    let mut legend: Legend = BTreeMap::new();
    let mut symbols = Vec::new();
    for (key, entry) in &raw.legend {
        let mut chars = key.get_ref().chars();
        let (Some(ch), None) = (chars.next(), chars.next()) else {
            return Err(cx.at(
                key.span().start,
                format!(
                    "legend key {} must be a single character",
                    quoted(key.get_ref())
                ),
            ));
        };
        if ch.is_whitespace() || ch.is_control() {
            return Err(cx.at(
                key.span().start,
                "legend symbols must be visible characters (a space is void)",
            ));
        }
        let (name, tags) = legend_entry(entry.get_ref())
            .map_err(|m| cx.at(entry.span().start, format!("legend {ch:?}: {m}")))?;
        if name == "void" {
            if !tags.is_empty() {
                return Err(cx.at(entry.span().start, "void cells cannot carry tags"));
            }
            legend.insert(ch, None);
            continue;
        }
        let t = terrain_id(&name).ok_or_else(|| {
            cx.at(
                entry.span().start,
                format!("legend {ch:?}: no terrain {} in [terrain]", quoted(&name)),
            )
        })?;
        symbols.push(Symbol {
            symbol: ch,
            terrain: t,
            tags: tags.clone(),
        });
        legend.insert(ch, Some((t, tags)));
    }
    Ok((legend, symbols))
}

/// One `[[zones]]` entry's edits of the map: terrain, cost, occupant, tags.
fn edit_zone(map: &mut HexMap, z: &Spanned<RawZone>, text: &str, source: &str) -> Result<()> {
    let zplace = || {
        let (l, c) = line_col(text, z.span().start);
        format!(
            "{source} line {l} column {c} ([[zones]] at = {:?})",
            z.get_ref().at
        )
    };
    let zr = z.get_ref();
    let h = Hex::new(zr.at[0], zr.at[1]);
    if !map.contains(h) {
        return Err(Error::data(zplace(), "not a zone of the picture"));
    }
    if let Some(t) = &zr.terrain {
        map.set_terrain(h, t)
            .map_err(|e| Error::data(zplace(), inner(e)))?;
    }
    if let Some(c) = zr.cost {
        map.set_cost(h, c)
            .map_err(|e| Error::data(zplace(), inner(e)))?;
    }
    if let Some(o) = zr.occupant {
        map.set_occupant(h, Some(o))
            .map_err(|e| Error::data(zplace(), inner(e)))?;
    }
    for tag in &zr.tags {
        map.add_tag(h, tag)
            .map_err(|e| Error::data(zplace(), inner(e)))?;
    }
    Ok(())
}

fn inner(e: Error) -> String {
    match e {
        Error::Invalid { message } | Error::Data { message, .. } => message,
        other => other.to_string(),
    }
}

fn retag(e: Error, source: &str) -> Error {
    Error::data(source, inner(e))
}

/// A TOML string literal.
fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

const SYMBOL_POOL: &str =
    ".#~^%=+*o&$@!?:;|/\\<>ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

impl HexMap {
    /// The symbol for every (terrain, tags) combination present, reusing the map's legend
    /// and inventing symbols for new combinations.
    fn full_legend(&self) -> Vec<Symbol> {
        let mut legend = self.symbols().to_vec();
        let mut used: std::collections::BTreeSet<char> = legend.iter().map(|s| s.symbol).collect();
        for h in self.zones() {
            let t = self.terrain_id(h).unwrap_or(0);
            let tags: Vec<String> = self.tags(h).into_iter().map(String::from).collect();
            if legend
                .iter()
                .any(|s| s.terrain == t && sorted(&s.tags) == sorted(&tags))
            {
                continue;
            }
            let name = &self.terrains()[t].name;
            let preferred = name
                .chars()
                .next()
                .filter(|c| tags.is_empty() && c.is_ascii_graphic());
            let ch = preferred
                .filter(|c| !used.contains(c))
                .or_else(|| SYMBOL_POOL.chars().find(|c| !used.contains(c)))
                .or_else(|| {
                    (0x00C0u32..0x2000)
                        .filter_map(char::from_u32)
                        .find(|c| c.is_alphanumeric() && !used.contains(c))
                })
                .unwrap_or('?');
            used.insert(ch);
            legend.push(Symbol {
                symbol: ch,
                terrain: t,
                tags,
            });
        }
        legend
    }

    fn symbol_of(&self, legend: &[Symbol], h: Hex) -> char {
        let t = self.terrain_id(h).unwrap_or(0);
        let tags: Vec<String> = self.tags(h).into_iter().map(String::from).collect();
        legend
            .iter()
            .find(|s| s.terrain == t && sorted(&s.tags) == sorted(&tags))
            .map_or('?', |s| s.symbol)
    }

    /// The picture (lines of the text format) and the `origin` that reads it back to the
    /// same coordinates. Built line by line from the zones, so memory follows the zones and
    /// the text, never the bounding box; refused before building if the text would exceed
    /// [`MAX_PICTURE_CHARS`].
    fn picture(
        &self,
        legend: &[Symbol],
        draw: impl Fn(Hex, char) -> char,
    ) -> Result<(String, [i32; 2])> {
        let pos = |h: Hex| -> (i64, i64) {
            let (q, r) = (h.x as i64, h.y as i64);
            match self.orientation {
                Orientation::Pointy => (r, 2 * q + r),
                Orientation::Flat => (2 * r + q, 2 * q),
            }
        };
        let Some(first) = self.zones().next() else {
            return Ok((String::new(), [0, 0]));
        };
        let mut cells: Vec<(i64, i64, Hex)> = self
            .zones()
            .map(|h| {
                let (l, c) = pos(h);
                (l, c, h)
            })
            .collect();
        cells.sort_unstable_by_key(|&(l, c, _)| (l, c));
        let cmin = cells.iter().map(|p| p.1).min().unwrap_or(0);
        let (lmin, lmax) = match (cells.first(), cells.last()) {
            (Some(f), Some(l)) => (f.0, l.0),
            _ => (0, 0),
        };
        // Characters: one newline per line, plus each line up to its last cell.
        let mut size = (lmax - lmin + 1) as u64;
        for w in cells.windows(2) {
            if w[0].0 != w[1].0 {
                size += (w[0].1 - cmin + 1) as u64;
            }
        }
        if let Some(last) = cells.last() {
            size += (last.1 - cmin + 1) as u64;
        }
        if size > MAX_PICTURE_CHARS {
            return Err(Error::invalid(format!(
                "the map's picture would be {size} characters (its zones span {} lines and {} columns); at most {MAX_PICTURE_CHARS}",
                lmax - lmin + 1,
                cells.iter().map(|p| p.1).max().unwrap_or(0) - cmin + 1
            )));
        }
        let mut out = String::with_capacity(size as usize);
        let (mut line, mut col) = (lmin, cmin);
        for &(l, c, h) in &cells {
            while line < l {
                out.push('\n');
                line += 1;
                col = cmin;
            }
            out.extend(std::iter::repeat_n(' ', (c - col) as usize));
            out.push(draw(h, self.symbol_of(legend, h)));
            col = c + 1;
        }
        out.push('\n');
        // Read the first zone back with origin 0 to find the origin. The parity is fixed by
        // the first cell of the picture (top line, leftmost).
        let (l, c) = pos(first);
        let mut grid = Grid {
            orientation: self.orientation,
            parity: None,
        };
        let top = cells.first().map_or((l, c), |p| (p.0, p.1));
        let _ = grid.hex(0, top.1 - cmin);
        let read = grid.hex(l - lmin, c - cmin).unwrap_or(first);
        Ok((out, [first.x - read.x, first.y - read.y]))
    }

    /// The picture alone, with occupied zones drawn as `@` (for printing).
    pub fn render(&self) -> Result<String> {
        let legend = self.full_legend();
        Ok(self
            .picture(
                &legend,
                |h, ch| if self.occupant(h).is_some() { '@' } else { ch },
            )?
            .0)
    }

    /// The map in the text format; `parse(to_text())` gives an equal map (terrain order,
    /// tag order and legend symbols may be normalized).
    pub fn to_text(&self) -> Result<String> {
        let mut legend = self.full_legend();
        legend.sort_by_key(|s| s.symbol);
        let (pic, origin) = self.picture(&legend, |_, ch| ch)?;
        let mut s = String::new();
        if !self.name.is_empty() {
            let _ = writeln!(s, "name = {}", quote(&self.name));
        }
        let _ = writeln!(s, "orientation = \"{}\"", self.orientation.name());
        let _ = writeln!(s, "origin = [{}, {}]", origin[0], origin[1]);
        let _ = writeln!(s, "picture = '''\n{pic}'''\n\n[legend]");
        for sym in &legend {
            let name = quote(&self.terrains()[sym.terrain].name);
            if sym.tags.is_empty() {
                let _ = writeln!(s, "{} = {name}", quote(&sym.symbol.to_string()));
            } else {
                let tags: Vec<String> = sym.tags.iter().map(|t| quote(t)).collect();
                let _ = writeln!(
                    s,
                    "{} = {{ terrain = {name}, tags = [{}] }}",
                    quote(&sym.symbol.to_string()),
                    tags.join(", ")
                );
            }
        }
        let _ = writeln!(s, "\n[terrain]");
        let mut terrains: Vec<&Terrain> = self.terrains().iter().collect();
        terrains.sort_by(|a, b| a.name.cmp(&b.name));
        for t in terrains {
            let _ = writeln!(
                s,
                "{} = {{ cost = {}, passable = {}, blocks_sight = {} }}",
                quote(&t.name),
                t.cost,
                t.passable,
                t.blocks_sight
            );
        }
        for h in self.zones() {
            let cost = self.cost_override(h);
            let occ = self.occupant(h);
            if cost.is_none() && occ.is_none() {
                continue;
            }
            let _ = write!(s, "\n[[zones]]\nat = [{}, {}]\n", h.x, h.y);
            if let Some(c) = cost {
                let _ = writeln!(s, "cost = {c}");
            }
            if let Some(o) = occ {
                let _ = writeln!(s, "occupant = {o}");
            }
        }
        Ok(s)
    }
}

fn sorted(v: &[String]) -> Vec<&str> {
    let mut v: Vec<&str> = v.iter().map(String::as_str).collect();
    v.sort_unstable();
    v
}
