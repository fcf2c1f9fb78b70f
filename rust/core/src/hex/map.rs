//! [`HexMap`]: a dense hex map. Per zone: whether it exists (the rest is void), its terrain,
//! its movement (entry) cost, tags (start, privilege, Renown, ...) and its occupant.
//!
//! Storage is a padded parallelogram in axial coordinates: one flat array per field, indexed
//! by `(r - r0) * width + (q - q0)`, with a ring of void cells all around so that the six
//! neighbours of any zone are plain index offsets, never out of bounds.

use std::sync::Arc;

use super::coords::{Hex, Orientation, DIRECTIONS};
use crate::error::{Error, Result};

/// A terrain kind: how it looks in the text format, what entering it costs, and whether it
/// stops movement and sight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terrain {
    pub name: String,
    /// Default entry cost of its zones (>= 1).
    pub cost: u32,
    /// False for obstacles: never entered nor passed through.
    pub passable: bool,
    pub blocks_sight: bool,
}

impl Terrain {
    pub fn new(name: &str, cost: u32, passable: bool, blocks_sight: bool) -> Self {
        Terrain {
            name: name.to_string(),
            cost,
            passable,
            blocks_sight,
        }
    }
}

/// Index of a cell in the dense arrays.
pub type Cell = usize;

pub(crate) const VOID: u8 = u8::MAX;
/// Cost sentinel of a zone that cannot be entered (void, obstacle).
pub const BLOCKED: u32 = u32::MAX;
pub(crate) const NOBODY: u32 = u32::MAX;
/// Largest entry cost a zone may have (costs add up in `u64`, so any `u32` would do; this
/// keeps sums of long paths far from overflow and the bucket queue small).
pub const MAX_COST: u32 = 1 << 24;
/// Largest number of cells (padding included) of the dense storage.
pub const MAX_CELLS: usize = 1 << 24;
/// Most terrain kinds a map may have.
pub const MAX_TERRAINS: usize = 254;
/// Most distinct tags a map may have.
pub const MAX_TAGS: usize = 32;

/// Why a zone cannot be entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Blocker {
    Void,
    Obstacle,
    Occupied(u32),
}

impl Blocker {
    pub fn kind(self) -> &'static str {
        match self {
            Blocker::Void => "void",
            Blocker::Obstacle => "obstacle",
            Blocker::Occupied(_) => "occupied",
        }
    }
}

/// Equality is on content (see the `PartialEq` impl), not on storage or legend.
///
/// A copy is cheap: what play does not change (storage geometry, terrains, entry costs,
/// tags, the legend, the zone list) is held in one [`Arc`] shared by a map and its copies,
/// and an edit of those parts (terrain, cost, tag) copies it first (`Arc::make_mut`), so a
/// copy still behaves as a value. A copy allocates the occupants (and the name, if any).
#[derive(Debug, Clone)]
pub struct HexMap {
    pub name: String,
    pub orientation: Orientation,
    /// The parts a map shares with its copies until one of them edits them.
    fixed: Arc<Fixed>,
    occupant: Vec<u32>,
    /// On a map of at most 64 zones, the occupied zones as bits in zone order (kept by
    /// [`HexMap::set_occupant`], so the bitset searches do not rescan the occupants).
    occupied: u64,
}

/// What a [`HexMap`] shares with its copies: everything but the occupants (and the name and
/// orientation, public fields).
#[derive(Debug, Clone)]
struct Fixed {
    q0: i32,
    r0: i32,
    width: usize,
    height: usize,
    kind: Vec<u8>,
    cost: Vec<u32>,
    tags: Vec<u32>,
    terrains: Vec<Terrain>,
    tag_names: Vec<String>,
    /// The zones' cells, ordered by `r` then `q` (reading order of a pointy picture).
    zones: Vec<u32>,
    /// The lowest and highest entry costs of passable zones, and which zones cost 1, which
    /// each search asks for; `None` after a cost edit until [`HexMap::recost`] (edits one at
    /// a time stay O(1), and a stale span is measured on demand as before).
    cost_span: Option<Costs>,
    offsets: [isize; 6],
    /// The legend of the text format (symbols for terrain + tags combinations).
    symbols: Vec<super::text::Symbol>,
}

/// Two maps are equal when they hold the same content: name, orientation, the same set of
/// terrain kinds, and the same zones with the same terrain (by value), entry cost, occupant
/// and set of tags. Not compared: the order of terrains and tags, legend symbols, tag names
/// no zone carries. So `parse(to_text())` and a pickle round trip give an equal map.
impl PartialEq for HexMap {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.orientation == other.orientation
            && self.fixed.zones.len() == other.fixed.zones.len()
            && sorted_terrains(self) == sorted_terrains(other)
            && self.zones().zip(other.zones()).all(|(a, b)| {
                a == b
                    && self.terrain(a) == other.terrain(b)
                    && self.cost(a) == other.cost(b)
                    && self.occupant(a) == other.occupant(b)
                    && sorted_tags(self.tags(a)) == sorted_tags(other.tags(b))
            })
    }
}

impl Eq for HexMap {}

fn sorted_terrains(m: &HexMap) -> Vec<&Terrain> {
    let mut v: Vec<&Terrain> = m.fixed.terrains.iter().collect();
    v.sort_by(|a, b| a.name.cmp(&b.name));
    v
}

fn sorted_tags(mut v: Vec<&str>) -> Vec<&str> {
    v.sort_unstable();
    v
}

/// The entry costs each search asks about (see `HexMap::cost_span`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Costs {
    /// The lowest and highest entry costs of passable zones (1 if none).
    pub min: u32,
    pub max: u32,
    /// On a map of at most 64 zones, as bits in zone order: the passable zones costing 1,
    /// and those costing more (occupants aside).
    pub unit: u64,
    pub dear: u64,
}

impl HexMap {
    /// A map whose zones are `zones` (terrain index per zone into `terrains`). Zones not
    /// listed are void. Duplicates: the last one wins.
    pub fn new(
        terrains: Vec<Terrain>,
        zones: &[(Hex, usize)],
        orientation: Orientation,
    ) -> Result<Self> {
        if terrains.len() > MAX_TERRAINS {
            return Err(Error::data(
                "map",
                format!("{} terrain kinds; at most {MAX_TERRAINS}", terrains.len()),
            ));
        }
        for (i, t) in terrains.iter().enumerate() {
            crate::text::check_name(&t.name, super::limits::MAX_NAME)
                .map_err(|m| Error::data(format!("map, terrain {}, name", i + 1), m))?;
            check_cost(t.cost).map_err(|m| {
                Error::data(format!("terrain {}", super::limits::quoted(&t.name)), m)
            })?;
        }
        let (mut qmin, mut qmax, mut rmin, mut rmax) = (0i64, 0i64, 0i64, 0i64);
        for (i, (h, _)) in zones.iter().enumerate() {
            let (q, r) = (h.x as i64, h.y as i64);
            if super::limits::extent(q, r) > super::limits::MAX_COORD {
                return Err(Error::data(
                    "map",
                    format!(
                        "zone ({q}, {r}) is outside the coordinate range (|q|, |r|, |s| <= {})",
                        super::limits::MAX_COORD
                    ),
                ));
            }
            if i == 0 {
                (qmin, qmax, rmin, rmax) = (q, q, r, r);
            } else {
                qmin = qmin.min(q);
                qmax = qmax.max(q);
                rmin = rmin.min(r);
                rmax = rmax.max(r);
            }
        }
        let width = (qmax - qmin + 3) as u64;
        let height = (rmax - rmin + 3) as u64;
        if width.saturating_mul(height) > MAX_CELLS as u64 {
            return Err(Error::data(
                "map",
                format!(
                    "zones span q {qmin}..={qmax} and r {rmin}..={rmax}: more than {MAX_CELLS} cells of dense storage"
                ),
            ));
        }
        if qmin - 1 < i32::MIN as i64
            || qmax + 1 > i32::MAX as i64
            || rmin - 1 < i32::MIN as i64
            || rmax + 1 > i32::MAX as i64
        {
            return Err(Error::data(
                "map",
                "coordinates too close to the i32 limits",
            ));
        }
        let (width, height) = (width as usize, height as usize);
        let n = width * height;
        let w = width as isize;
        let mut fixed = Fixed {
            q0: (qmin - 1) as i32,
            r0: (rmin - 1) as i32,
            width,
            height,
            kind: vec![VOID; n],
            cost: vec![BLOCKED; n],
            tags: vec![0; n],
            terrains,
            tag_names: Vec::new(),
            zones: Vec::new(),
            cost_span: None,
            offsets: DIRECTIONS.map(|d| d.y as isize * w + d.x as isize),
            symbols: Vec::new(),
        };
        for &(h, t) in zones {
            if t >= fixed.terrains.len() {
                return Err(Error::data(
                    "map",
                    format!("zone ({}, {}): no terrain #{t}", h.x, h.y),
                ));
            }
            let c = (h.y - fixed.r0) as usize * width + (h.x - fixed.q0) as usize;
            fixed.kind[c] = t as u8;
            fixed.cost[c] = fixed.terrain_cost(t);
        }
        fixed.zones = (0..n as u32)
            .filter(|&c| fixed.kind[c as usize] != VOID)
            .collect();
        let mut map = HexMap {
            name: String::new(),
            orientation,
            fixed: Arc::new(fixed),
            occupant: vec![NOBODY; n],
            occupied: 0,
        };
        map.recost();
        Ok(map)
    }

    /// A map from per-zone entry costs: `Some(cost)` an open zone (terrain `open`), `None` an
    /// obstacle (terrain `obstacle`: blocks movement and sight).
    pub fn from_costs(cells: &[(Hex, Option<u32>)]) -> Result<Self> {
        let terrains = vec![
            Terrain::new("open", 1, true, false),
            Terrain::new("obstacle", 1, false, true),
        ];
        let zones: Vec<(Hex, usize)> = cells
            .iter()
            .map(|(h, c)| (*h, usize::from(c.is_none())))
            .collect();
        let mut map = HexMap::new(terrains, &zones, Orientation::Pointy)?;
        map.fixed_mut().symbols = vec![
            super::text::Symbol {
                symbol: '.',
                terrain: 0,
                tags: Vec::new(),
            },
            super::text::Symbol {
                symbol: '#',
                terrain: 1,
                tags: Vec::new(),
            },
        ];
        for (h, c) in cells {
            if let Some(c) = c {
                map.set_cost(*h, *c)?;
            }
        }
        map.recost();
        Ok(map)
    }

    fn terrain_cost(&self, t: usize) -> u32 {
        self.fixed.terrain_cost(t)
    }

    /// The shared parts, to edit: this map's own copy of them.
    fn fixed_mut(&mut self) -> &mut Fixed {
        Arc::make_mut(&mut self.fixed)
    }

    /// The legend of the text format.
    pub(crate) fn symbols(&self) -> &[super::text::Symbol] {
        &self.fixed.symbols
    }

    pub(crate) fn set_symbols(&mut self, symbols: Vec<super::text::Symbol>) {
        self.fixed_mut().symbols = symbols;
    }

    // ---- cells -----------------------------------------------------------------------

    /// The storage cell of a hex, if it is inside the storage (zone or void padding).
    #[inline]
    pub fn cell(&self, h: Hex) -> Option<Cell> {
        let q = h.x as i64 - self.fixed.q0 as i64;
        let r = h.y as i64 - self.fixed.r0 as i64;
        (q >= 0 && r >= 0 && (q as usize) < self.fixed.width && (r as usize) < self.fixed.height)
            .then(|| r as usize * self.fixed.width + q as usize)
    }

    /// The cell of a zone (`None` for void).
    #[inline]
    pub fn zone_cell(&self, h: Hex) -> Option<Cell> {
        self.cell(h).filter(|&c| self.fixed.kind[c] != VOID)
    }

    #[inline]
    pub fn hex_of(&self, c: Cell) -> Hex {
        Hex::new(
            (c % self.fixed.width) as i32 + self.fixed.q0,
            (c / self.fixed.width) as i32 + self.fixed.r0,
        )
    }

    /// Index offsets of the six neighbours, in direction order.
    #[inline]
    pub(crate) fn offsets(&self) -> [isize; 6] {
        self.fixed.offsets
    }

    /// Size of the dense storage (cells are `0..num_cells()`).
    pub fn num_cells(&self) -> usize {
        self.fixed.kind.len()
    }

    /// Entry cost of a cell for movement: `BLOCKED` for void, obstacles and occupied zones.
    #[inline]
    pub(crate) fn step_cost(&self, c: Cell) -> u32 {
        if self.occupant[c] != NOBODY {
            BLOCKED
        } else {
            self.fixed.cost[c]
        }
    }

    #[inline]
    pub(crate) fn cell_blocks_sight(&self, c: Cell, occupants_block: bool) -> bool {
        let k = self.fixed.kind[c];
        (k != VOID && self.fixed.terrains[k as usize].blocks_sight)
            || (occupants_block && self.occupant[c] != NOBODY)
    }

    /// What stops a mover entering a cell, if anything.
    pub(crate) fn cell_blocker(&self, c: Option<Cell>) -> Option<Blocker> {
        let Some(c) = c else {
            return Some(Blocker::Void);
        };
        if self.fixed.kind[c] == VOID {
            Some(Blocker::Void)
        } else if self.occupant[c] != NOBODY {
            Some(Blocker::Occupied(self.occupant[c]))
        } else if self.fixed.cost[c] == BLOCKED {
            Some(Blocker::Obstacle)
        } else {
            None
        }
    }

    /// The lowest entry cost of any passable zone (1 if none): the A* heuristic's scale.
    #[inline]
    pub(crate) fn min_cost(&self) -> u32 {
        self.costs().min
    }

    /// The highest entry cost of any passable zone (1 if none).
    #[inline]
    pub(crate) fn max_cost(&self) -> u32 {
        self.costs().max
    }

    #[inline]
    pub(crate) fn costs(&self) -> Costs {
        self.fixed.cost_span.unwrap_or_else(|| self.measure_costs())
    }

    fn measure_costs(&self) -> Costs {
        let costs = || {
            self.fixed
                .zones
                .iter()
                .map(|&c| self.fixed.cost[c as usize])
                .filter(|&c| c != BLOCKED)
        };
        let (mut unit, mut dear) = (0u64, 0u64);
        for (i, &c) in self.fixed.zones.iter().enumerate().take(64) {
            match self.fixed.cost[c as usize] {
                BLOCKED => {}
                1 => unit |= 1 << i,
                _ => dear |= 1 << i,
            }
        }
        Costs {
            min: costs().min().unwrap_or(1),
            max: costs().max().unwrap_or(1),
            unit,
            dear,
        }
    }

    /// The occupied zones as bits in zone order, kept up to date on maps of at most 64
    /// zones (0 on larger ones).
    #[inline]
    pub(crate) fn occupied_zone_bits(&self) -> u64 {
        self.occupied
    }

    /// Measure and keep the cost span (after building a map or a batch of cost edits).
    pub(crate) fn recost(&mut self) {
        let costs = self.measure_costs();
        self.fixed_mut().cost_span = Some(costs);
    }

    pub(crate) fn zone_cells(&self) -> &[u32] {
        &self.fixed.zones
    }

    // ---- zones -----------------------------------------------------------------------

    /// Number of zones (void excluded).
    pub fn len(&self) -> usize {
        self.fixed.zones.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fixed.zones.is_empty()
    }

    pub fn contains(&self, h: Hex) -> bool {
        self.zone_cell(h).is_some()
    }

    /// The zones, ordered by `r` then `q`.
    pub fn zones(&self) -> impl ExactSizeIterator<Item = Hex> + '_ {
        self.fixed.zones.iter().map(|&c| self.hex_of(c as usize))
    }

    /// The position of a zone in [`HexMap::zones`] order.
    pub fn zone_index(&self, h: Hex) -> Option<usize> {
        let c = self.zone_cell(h)? as u32;
        self.fixed.zones.binary_search(&c).ok()
    }

    pub fn terrains(&self) -> &[Terrain] {
        &self.fixed.terrains
    }

    pub fn terrain_index(&self, name: &str) -> Option<usize> {
        self.fixed.terrains.iter().position(|t| t.name == name)
    }

    fn need(&self, h: Hex) -> Result<Cell> {
        self.zone_cell(h)
            .ok_or_else(|| Error::invalid(format!("({}, {}) is not a zone of the map", h.x, h.y)))
    }

    pub fn terrain(&self, h: Hex) -> Option<&Terrain> {
        self.zone_cell(h)
            .map(|c| &self.fixed.terrains[self.fixed.kind[c] as usize])
    }

    pub fn terrain_id(&self, h: Hex) -> Option<usize> {
        self.zone_cell(h).map(|c| self.fixed.kind[c] as usize)
    }

    /// Entry cost of a zone; `None` for void and impassable zones (occupants ignored).
    pub fn cost(&self, h: Hex) -> Option<u32> {
        self.zone_cell(h)
            .map(|c| self.fixed.cost[c])
            .filter(|&c| c != BLOCKED)
    }

    /// Whether a mover may enter the zone now (exists, passable, unoccupied).
    pub fn is_open(&self, h: Hex) -> bool {
        self.blocker(h).is_none()
    }

    /// Why a mover may not enter `h` now, if it may not.
    pub fn blocker(&self, h: Hex) -> Option<Blocker> {
        self.cell_blocker(self.zone_cell(h))
    }

    pub fn occupant(&self, h: Hex) -> Option<u32> {
        self.zone_cell(h)
            .map(|c| self.occupant[c])
            .filter(|&o| o != NOBODY)
    }

    pub fn occupants(&self) -> Vec<(Hex, u32)> {
        self.fixed
            .zones
            .iter()
            .filter(|&&c| self.occupant[c as usize] != NOBODY)
            .map(|&c| (self.hex_of(c as usize), self.occupant[c as usize]))
            .collect()
    }

    pub fn tag_names(&self) -> &[String] {
        &self.fixed.tag_names
    }

    pub fn tags(&self, h: Hex) -> Vec<&str> {
        let bits = self.zone_cell(h).map_or(0, |c| self.fixed.tags[c]);
        self.fixed
            .tag_names
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & (1 << i) != 0)
            .map(|(_, n)| n.as_str())
            .collect()
    }

    pub fn has_tag(&self, h: Hex, tag: &str) -> bool {
        match (
            self.zone_cell(h),
            self.fixed.tag_names.iter().position(|t| t == tag),
        ) {
            (Some(c), Some(i)) => self.fixed.tags[c] & (1 << i) != 0,
            _ => false,
        }
    }

    /// The zones carrying `tag`, in zone order.
    pub fn tagged(&self, tag: &str) -> Vec<Hex> {
        let Some(i) = self.fixed.tag_names.iter().position(|t| t == tag) else {
            return Vec::new();
        };
        self.fixed
            .zones
            .iter()
            .filter(|&&c| self.fixed.tags[c as usize] & (1 << i) != 0)
            .map(|&c| self.hex_of(c as usize))
            .collect()
    }

    // ---- edits -----------------------------------------------------------------------

    /// Put an occupant (any id) in a zone, or clear it with `None`.
    pub fn set_occupant(&mut self, h: Hex, who: Option<u32>) -> Result<()> {
        let c = self.need(h)?;
        if who == Some(NOBODY) {
            return Err(Error::invalid(format!("occupant id {NOBODY} is reserved")));
        }
        self.occupant[c] = who.unwrap_or(NOBODY);
        if let Ok(i) = self.fixed.zones.binary_search(&(c as u32)) {
            if let Some(bit) = 1u64.checked_shl(i as u32) {
                match who {
                    Some(_) => self.occupied |= bit,
                    None => self.occupied &= !bit,
                }
            }
        }
        Ok(())
    }

    pub fn clear_occupants(&mut self) {
        self.occupant.fill(NOBODY);
        self.occupied = 0;
    }

    /// Change a zone's terrain; its cost becomes the terrain's.
    pub fn set_terrain(&mut self, h: Hex, terrain: &str) -> Result<()> {
        let c = self.need(h)?;
        let t = self.terrain_index(terrain).ok_or_else(|| {
            Error::invalid(format!(
                "no terrain named {}",
                super::limits::quoted(terrain)
            ))
        })?;
        let cost = self.terrain_cost(t);
        let f = self.fixed_mut();
        f.kind[c] = t as u8;
        f.cost[c] = cost;
        f.cost_span = None;
        Ok(())
    }

    /// Override the entry cost of a passable zone.
    pub fn set_cost(&mut self, h: Hex, cost: u32) -> Result<()> {
        let c = self.need(h)?;
        check_cost(cost).map_err(Error::invalid)?;
        if !self.fixed.terrains[self.fixed.kind[c] as usize].passable {
            return Err(Error::invalid(format!(
                "({}, {}) is {}, which is impassable",
                h.x, h.y, self.fixed.terrains[self.fixed.kind[c] as usize].name
            )));
        }
        let f = self.fixed_mut();
        f.cost[c] = cost;
        f.cost_span = None;
        Ok(())
    }

    /// The cost override of a zone, if its cost differs from its terrain's.
    pub(crate) fn cost_override(&self, h: Hex) -> Option<u32> {
        let c = self.zone_cell(h)?;
        let t = self.fixed.kind[c] as usize;
        (self.fixed.cost[c] != self.terrain_cost(t)).then_some(self.fixed.cost[c])
    }

    /// Set the map's name: empty (no name) or printable text of at most
    /// [`super::limits::MAX_NAME`] characters.
    pub fn set_name(&mut self, name: &str) -> Result<()> {
        if !name.is_empty() {
            crate::text::check_name(name, super::limits::MAX_NAME)
                .map_err(|m| Error::data("map name", m))?;
        }
        self.name = name.to_string();
        Ok(())
    }

    pub fn add_tag(&mut self, h: Hex, tag: &str) -> Result<()> {
        crate::text::check_name(tag, super::limits::MAX_NAME).map_err(|m| Error::data("tag", m))?;
        let c = self.need(h)?;
        let f = self.fixed_mut();
        let i = match f.tag_names.iter().position(|t| t == tag) {
            Some(i) => i,
            None if f.tag_names.len() < MAX_TAGS => {
                f.tag_names.push(tag.to_string());
                f.tag_names.len() - 1
            }
            None => {
                return Err(Error::invalid(format!(
                    "a map may have at most {MAX_TAGS} distinct tags"
                )))
            }
        };
        f.tags[c] |= 1 << i;
        Ok(())
    }

    pub fn remove_tag(&mut self, h: Hex, tag: &str) -> Result<()> {
        let c = self.need(h)?;
        if let Some(i) = self.fixed.tag_names.iter().position(|t| t == tag) {
            self.fixed_mut().tags[c] &= !(1 << i);
        }
        Ok(())
    }

    /// Bounds of the storage (padding included): `(q_min, q_max, r_min, r_max)`.
    pub(crate) fn storage_bounds(&self) -> (i64, i64, i64, i64) {
        let (q0, r0) = (self.fixed.q0 as i64, self.fixed.r0 as i64);
        (
            q0,
            q0 + self.fixed.width as i64 - 1,
            r0,
            r0 + self.fixed.height as i64 - 1,
        )
    }

    /// Bounds of the zones: `(q_min, q_max, r_min, r_max)`, `None` for an empty map.
    pub fn bounds(&self) -> Option<(i32, i32, i32, i32)> {
        let mut it = self.zones();
        let first = it.next()?;
        Some(
            it.fold((first.x, first.x, first.y, first.y), |(a, b, c, d), h| {
                (a.min(h.x), b.max(h.x), c.min(h.y), d.max(h.y))
            }),
        )
    }
}

impl Fixed {
    fn terrain_cost(&self, t: usize) -> u32 {
        let t = &self.terrains[t];
        if t.passable {
            t.cost
        } else {
            BLOCKED
        }
    }
}

pub(crate) fn check_cost(cost: u32) -> std::result::Result<(), String> {
    if (1..=MAX_COST).contains(&cost) {
        Ok(())
    } else {
        Err(format!("entry cost {cost} is not in 1..={MAX_COST}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_costs_builds_zones_obstacles_and_void() {
        let m = HexMap::from_costs(&[
            (Hex::new(0, 0), Some(1)),
            (Hex::new(1, 0), Some(3)),
            (Hex::new(-5, 2), None),
        ])
        .unwrap();
        assert_eq!(m.len(), 3);
        assert_eq!(m.cost(Hex::new(1, 0)), Some(3));
        assert_eq!(m.cost(Hex::new(-5, 2)), None);
        assert_eq!(m.blocker(Hex::new(-5, 2)), Some(Blocker::Obstacle));
        assert_eq!(m.blocker(Hex::new(0, 1)), Some(Blocker::Void));
        assert_eq!(m.blocker(Hex::new(100, 100)), Some(Blocker::Void));
        assert_eq!(m.zones().collect::<Vec<_>>()[0], Hex::new(0, 0));
        assert_eq!(m.cost_override(Hex::new(1, 0)), Some(3));
        assert_eq!(m.cost_override(Hex::new(0, 0)), None);
    }

    #[test]
    fn occupants_block_and_bad_edits_change_nothing() {
        let mut m =
            HexMap::from_costs(&[(Hex::new(0, 0), Some(1)), (Hex::new(1, 0), None)]).unwrap();
        m.set_occupant(Hex::new(0, 0), Some(7)).unwrap();
        assert_eq!(m.blocker(Hex::new(0, 0)), Some(Blocker::Occupied(7)));
        let before = m.clone();
        assert!(m.set_cost(Hex::new(1, 0), 2).is_err());
        assert!(m.set_cost(Hex::new(0, 0), 0).is_err());
        assert!(m.set_occupant(Hex::new(3, 3), Some(1)).is_err());
        assert_eq!(m, before);
    }

    #[test]
    fn a_copy_shares_the_fixed_parts_until_an_edit_and_stays_a_value() {
        let (x, y, z) = (Hex::new(0, 0), Hex::new(1, 0), Hex::new(2, 0));
        let mut a = HexMap::from_costs(&[(x, Some(1)), (y, Some(2)), (z, None)]).unwrap();
        a.name = "m".into();
        a.add_tag(x, "start").unwrap();
        let before = a.clone();
        let b = a.clone();
        assert!(Arc::ptr_eq(&a.fixed, &b.fixed));
        // Occupants are each copy's own; the fixed parts stay shared.
        a.set_occupant(y, Some(3)).unwrap();
        assert!(Arc::ptr_eq(&a.fixed, &b.fixed));
        assert_eq!((a.occupant(y), b.occupant(y)), (Some(3), None));
        assert_eq!((a.occupied_zone_bits(), b.occupied_zone_bits()), (0b10, 0));
        a.set_occupant(y, None).unwrap();
        assert_eq!(a, b);
        // An edit of a fixed part copies them first: the other copy does not see it.
        a.set_cost(y, 5).unwrap();
        assert!(!Arc::ptr_eq(&a.fixed, &b.fixed));
        assert_eq!((a.cost(y), b.cost(y)), (Some(5), Some(2)));
        assert_eq!((a.max_cost(), b.max_cost()), (5, 2));
        let mut c = b.clone();
        c.set_terrain(x, "obstacle").unwrap();
        c.add_tag(y, "goal").unwrap();
        c.remove_tag(x, "start").unwrap();
        c.set_symbols(Vec::new());
        assert_eq!(b.terrain(x).map(|t| t.name.as_str()), Some("open"));
        assert_eq!((b.tags(x), b.tags(y)), (vec!["start"], vec![]));
        assert_eq!(b.tag_names(), ["start".to_string()]);
        assert_eq!(b.symbols().len(), 2);
        assert_eq!(c.terrain(x).map(|t| t.name.as_str()), Some("obstacle"));
        assert_eq!((c.tags(x), c.tags(y)), (vec![], vec!["goal"]));
        assert_eq!(b, before);
        assert_eq!(b.to_text().unwrap(), before.to_text().unwrap());
    }

    #[test]
    fn huge_spans_are_refused() {
        let e = HexMap::from_costs(&[
            (Hex::new(0, 0), Some(1)),
            (Hex::new(100_000, 100_000), Some(1)),
        ]);
        assert!(matches!(e, Err(Error::Data { .. })));
    }
}
