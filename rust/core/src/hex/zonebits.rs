//! Bitset queries on maps of at most 64 zones (Zinordia's battlefields): a zone is a bit,
//! numbered in [`HexMap::zones`] order, so a set of zones is one `u64` and a step of a
//! breadth-first search over the whole map is a few ORs. The general searches in `query`
//! handle any map and any entry costs; these answer the same questions, with no allocation,
//! when every zone a mover may enter costs 1.

use super::coords::{axis_direction, distance, Hex};
use super::map::{HexMap, BLOCKED};

/// Most zones a [`ZoneGraph`] holds: one bit each in a `u64`.
pub const MAX_BIT_ZONES: usize = 64;
/// Largest distance [`ZoneGraph::within`] keeps in its table; it measures beyond.
pub const MAX_TABLE_DISTANCE: u32 = 64;

/// The adjacency of a map's zones as bitsets (void and terrain do not change it, so a map's
/// graph stays valid while its occupants, costs and terrain change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoneGraph {
    /// Per zone, the bits of its neighbouring zones.
    neighbours: Vec<u64>,
    /// The zones, in zone order.
    hexes: Vec<Hex>,
    /// Per zone `z` and distance `d` (`z * stride + d`), the zones within hex distance `d`
    /// of `z`, for `d` up to the largest distance between two zones or
    /// [`MAX_TABLE_DISTANCE`], whichever is smaller (a sparse map must not make it large).
    within: Vec<u64>,
    stride: usize,
    /// Per zone, the other zones on its six axes (straight lines, ZN-2.6).
    axes: Vec<u64>,
}

impl ZoneGraph {
    /// The graph of `map`'s zones; `None` for a map of more than [`MAX_BIT_ZONES`] zones.
    pub fn new(map: &HexMap) -> Option<ZoneGraph> {
        let cells = map.zone_cells();
        if cells.len() > MAX_BIT_ZONES {
            return None;
        }
        let offsets = map.offsets();
        let neighbours = cells
            .iter()
            .map(|&c| {
                offsets.iter().fold(0u64, |bits, &off| {
                    // The void padding keeps every neighbour of a zone inside the storage.
                    let nb = (c as isize + off) as u32;
                    match cells.binary_search(&nb) {
                        Ok(i) => bits | 1 << i,
                        Err(_) => bits,
                    }
                })
            })
            .collect();
        let hexes: Vec<Hex> = map.zones().collect();
        let far = hexes
            .iter()
            .flat_map(|&a| hexes.iter().map(move |&b| distance(a, b)))
            .max()
            .unwrap_or(0);
        let stride = far.min(MAX_TABLE_DISTANCE) as usize + 1;
        let mut within = vec![0u64; hexes.len() * stride];
        let mut axes = vec![0u64; hexes.len()];
        for ((&a, row), axis) in hexes
            .iter()
            .zip(within.chunks_mut(stride))
            .zip(axes.iter_mut())
        {
            for (j, &b) in hexes.iter().enumerate() {
                let d = distance(a, b) as usize;
                for ball in row.iter_mut().skip(d) {
                    *ball |= 1 << j;
                }
                if axis_direction(a, b).is_some() {
                    *axis |= 1 << j;
                }
            }
        }
        Some(ZoneGraph {
            neighbours,
            hexes,
            within,
            stride,
            axes,
        })
    }

    /// The zones within hex distance `d` of `zone` (ranges, ZN-2.5), `zone` included; none
    /// for a zone index out of range.
    pub fn within(&self, zone: usize, d: u32) -> u64 {
        if (d as usize) < self.stride {
            let i = zone.saturating_mul(self.stride).saturating_add(d as usize);
            return self.within.get(i).copied().unwrap_or(0);
        }
        // Beyond the table: measured.
        let Some(&a) = self.hexes.get(zone) else {
            return 0;
        };
        self.hexes
            .iter()
            .enumerate()
            .filter(|&(_, &b)| distance(a, b) <= d)
            .fold(0u64, |bits, (j, _)| bits | 1 << j)
    }

    /// The zones on one of the six axes of `zone`, `zone` excluded.
    pub fn axes(&self, zone: usize) -> u64 {
        self.axes.get(zone).copied().unwrap_or(0)
    }

    /// Number of zones.
    pub fn len(&self) -> usize {
        self.neighbours.len()
    }

    pub fn is_empty(&self) -> bool {
        self.neighbours.is_empty()
    }

    /// The neighbouring zones of `zone` (none for a zone index out of range).
    pub fn neighbours(&self, zone: usize) -> u64 {
        self.neighbours.get(zone).copied().unwrap_or(0)
    }

    /// The zones within `steps` steps of `start` where each step enters a zone of `open`:
    /// `start` included (whatever `open` says of it), none for an index out of range. With
    /// `open` from [`HexMap::unit_open_bits`] these are the zones
    /// [`HexMap::reachable`] finds with a budget of `steps`.
    pub fn reachable(&self, start: usize, open: u64, steps: u32) -> u64 {
        if start >= self.len() {
            return 0;
        }
        let mut reach = 1u64 << start;
        let mut frontier = reach;
        for _ in 0..steps {
            let mut next = 0;
            let mut f = frontier;
            while f != 0 {
                next |= self.neighbours(f.trailing_zeros() as usize);
                f &= f - 1;
            }
            next &= open & !reach;
            if next == 0 {
                break;
            }
            reach |= next;
            frontier = next;
        }
        reach
    }
}

impl HexMap {
    /// The zones a mover may enter now (existing, passable, unoccupied) as bits in zone
    /// order, when the map has at most [`MAX_BIT_ZONES`] zones and each of those zones costs
    /// 1 to enter (so steps are costs); `None` otherwise.
    pub fn unit_open_bits(&self) -> Option<u64> {
        let cells = self.zone_cells();
        if cells.len() > MAX_BIT_ZONES {
            return None;
        }
        let mut bits = 0u64;
        for (i, &c) in cells.iter().enumerate() {
            match self.step_cost(c as usize) {
                BLOCKED => {}
                1 => bits |= 1 << i,
                _ => return None,
            }
        }
        Some(bits)
    }

    /// The occupied zones as bits in zone order; `None` for a map of more than
    /// [`MAX_BIT_ZONES`] zones.
    pub fn occupied_bits(&self) -> Option<u64> {
        let cells = self.zone_cells();
        if cells.len() > MAX_BIT_ZONES {
            return None;
        }
        Some(
            cells
                .iter()
                .enumerate()
                .filter(|&(_, &c)| self.is_occupied_cell(c as usize))
                .fold(0u64, |bits, (i, _)| bits | 1 << i),
        )
    }
}
