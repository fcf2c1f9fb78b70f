//! Bitset queries on maps of at most 64 zones (Zinordia's battlefields): a zone is a bit,
//! numbered in [`HexMap::zones`] order, so a set of zones is one `u64` and a step of a
//! breadth-first search over the whole map is a few ORs. The general searches in `query`
//! handle any map and any entry costs; these answer the same questions, with no allocation,
//! when every zone a mover may enter costs 1 (or, for reach and paths, 1 or 2).

use super::coords::{axis_direction, distance, Hex};
use super::map::HexMap;
use crate::error::Result;

/// Most zones a [`ZoneGraph`] holds: one bit each in a `u64`.
pub const MAX_BIT_ZONES: usize = 64;
/// Largest distance [`ZoneGraph::within`] keeps in its table; it measures beyond.
pub const MAX_TABLE_DISTANCE: u32 = 64;
/// No zone in that direction (an entry of [`ZoneGraph`]'s `adjacent`).
const NO_ZONE: u8 = u8::MAX;
/// Most buckets of the zone path search's queue (one more than the span of keys it holds);
/// maps with wider entry costs take [`HexMap::path`].
const PATH_BUCKETS: usize = 8;
/// Room in each bucket: a key's bucket rarely holds more than the zones themselves, and a
/// fuller one hands the search to [`HexMap::path`]. Small, so the queue is cheap to clear.
const BUCKET_ROOM: usize = MAX_BIT_ZONES;

/// The adjacency of a map's zones as bitsets (void and terrain do not change it, so a map's
/// graph stays valid while its occupants, costs and terrain change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoneGraph {
    /// Per zone, the bits of its neighbouring zones.
    neighbours: Vec<u64>,
    /// Per zone, the neighbouring zone in each direction, in [`HexMap`]'s `offsets` order
    /// (the order [`HexMap::path`] tries them), or `NO_ZONE`.
    adjacent: Vec<[u8; 6]>,
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
        let adjacent: Vec<[u8; 6]> = cells
            .iter()
            .map(|&c| {
                offsets.map(|off| {
                    // The void padding keeps every neighbour of a zone inside the storage.
                    let nb = (c as isize + off) as u32;
                    cells.binary_search(&nb).map_or(NO_ZONE, |i| i as u8)
                })
            })
            .collect();
        let neighbours = adjacent
            .iter()
            .map(|dirs| {
                dirs.iter()
                    .filter(|&&z| z != NO_ZONE)
                    .fold(0u64, |bits, &z| bits | 1 << z)
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
            adjacent,
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

    /// [`ZoneGraph::reachable`] where entering a zone of `unit` costs 1 and one of `double`
    /// costs 2, within a budget of `budget`: the zones [`HexMap::reachable`] finds (zones
    /// reached for at most `d` are those one step from the zones reached for `d - cost`).
    pub fn reachable_two_costs(&self, start: usize, unit: u64, double: u64, budget: u32) -> u64 {
        if start >= self.len() {
            return 0;
        }
        let around = |set: u64| {
            let (mut out, mut f) = (0u64, set);
            while f != 0 {
                out |= self.neighbours(f.trailing_zeros() as usize);
                f &= f - 1;
            }
            out
        };
        // reach: zones reached for at most d; prev: for at most d - 1 (R_d = R_{d-1}, one
        // step into a cost-1 zone from R_{d-1}, one into a cost-2 zone from R_{d-2}).
        let (mut prev, mut reach) = (0u64, 1u64 << start);
        for _ in 0..budget {
            let next = reach | (around(reach) & unit) | (around(prev) & double);
            if next == reach && reach == prev {
                break;
            }
            (prev, reach) = (reach, next);
        }
        reach
    }
}

impl HexMap {
    /// The zones a mover may enter now as (cost-1 bits, cost-2 bits) in zone order, when the
    /// map has at most [`MAX_BIT_ZONES`] zones and none of them costs more than 2; `None`
    /// otherwise.
    pub fn two_cost_open_bits(&self) -> Option<(u64, u64)> {
        if self.zone_cells().len() > MAX_BIT_ZONES {
            return None;
        }
        let costs = self.costs();
        let free = !self.occupied_zone_bits();
        (costs.max <= 2).then_some((costs.unit & free, costs.dear & free))
    }

    /// The zones a mover may enter now (existing, passable, unoccupied) as bits in zone
    /// order, when the map has at most [`MAX_BIT_ZONES`] zones and each of those zones costs
    /// 1 to enter (so steps are costs); `None` otherwise.
    pub fn unit_open_bits(&self) -> Option<u64> {
        if self.zone_cells().len() > MAX_BIT_ZONES {
            return None;
        }
        // Kept bitsets, not a scan: asked for every listing of moves.
        let costs = self.costs();
        let free = !self.occupied_zone_bits();
        (costs.dear & free == 0).then_some(costs.unit & free)
    }

    /// The occupied zones as bits in zone order; `None` for a map of more than
    /// [`MAX_BIT_ZONES`] zones.
    pub fn occupied_bits(&self) -> Option<u64> {
        (self.zone_cells().len() <= MAX_BIT_ZONES).then(|| self.occupied_zone_bits())
    }

    /// The path [`HexMap::path`] finds from `a` to `b`, found on `graph`, this map's zone
    /// graph: the same A* with the same bucket queue, so the same ties broken the same way
    /// and the same path (ZN-6.3 fixes a move's path by it), but on zone ids with fixed
    /// arrays instead of the dense storage with allocated ones. Where the bitsets do not
    /// apply (a map of more than 64 zones, a zone costing more than 2 to enter, a foreign
    /// graph) it is `HexMap::path` itself.
    pub fn zone_path(&self, graph: &ZoneGraph, a: Hex, b: Hex) -> Result<Option<(Vec<Hex>, u64)>> {
        match self.bits_zone_path(graph, a, b) {
            Some(found) => Ok(found),
            None => self.path(a, b),
        }
    }

    /// `zone_path` on the bitsets (open zones costing 1 or 2, the reference maps' plains,
    /// forests and hills); `None` where they do not apply.
    pub(super) fn bits_zone_path(
        &self,
        graph: &ZoneGraph,
        a: Hex,
        b: Hex,
    ) -> Option<Option<(Vec<Hex>, u64)>> {
        if a == b || graph.len() != self.len() {
            return None;
        }
        let (single, double) = match self.two_cost_open_bits() {
            Some(bits) => bits,
            // Occupied zones may cost more: only the open ones are entered.
            None => (self.unit_open_bits()?, 0),
        };
        let open = single | double;
        let (s, t) = (self.zone_index(a)?, self.zone_index(b)?);
        if graph.hexes.get(s) != Some(&a) || graph.hexes.get(t) != Some(&b) {
            return None;
        }
        if open >> t & 1 == 0 {
            return Some(None);
        }
        // HexMap::path's queue and keys: f = g + distance * unit, over `span + 1` buckets.
        let costs = self.costs();
        let unit = u64::from(costs.min);
        let nbuckets = u64::from(costs.max) + unit + 1;
        if nbuckets > PATH_BUCKETS as u64 {
            return None;
        }
        let h = |z: usize| u64::from(distance(graph.hexes[z], b)) * unit;
        // Costs so far: a path on at most 64 zones of cost at most 2 costs less than 128.
        let mut g = [u8::MAX; MAX_BIT_ZONES];
        let mut parent = [NO_ZONE; MAX_BIT_ZONES];
        let mut queue = ZoneQueue::new(nbuckets);
        g[s] = 0;
        queue.push(h(s), s)?;
        while let Some((f, c)) = queue.pop() {
            let gc = u64::from(g[c]);
            if f > gc + h(c) {
                continue; // stale entry
            }
            if c == t {
                let mut path = Vec::with_capacity(gc as usize + 1);
                path.push(b);
                let mut at = c;
                while at != s {
                    at = usize::from(parent[at]);
                    path.push(*graph.hexes.get(at)?);
                }
                path.reverse();
                return Some(Some((path, gc)));
            }
            for &nb in graph.adjacent.get(c)? {
                let nb = usize::from(nb);
                // Void, obstacles and occupied zones are not open; open zones cost 1 or 2.
                if nb >= MAX_BIT_ZONES || open >> nb & 1 == 0 {
                    continue;
                }
                let ng = gc + 1 + (double >> nb & 1);
                if ng < u64::from(g[nb]) {
                    g[nb] = ng as u8;
                    parent[nb] = c as u8;
                    queue.push(ng + h(nb), nb)?;
                }
            }
        }
        Some(None)
    }
}

/// `HexMap::path`'s bucket queue (Dial's circular buckets, last in first out within a
/// bucket, the current key starting at 0) in fixed arrays of zone ids.
struct ZoneQueue {
    buckets: [[u8; BUCKET_ROOM]; PATH_BUCKETS],
    lens: [u8; PATH_BUCKETS],
    n: u64,
    cur: u64,
    len: usize,
}

impl ZoneQueue {
    fn new(n: u64) -> Self {
        ZoneQueue {
            buckets: [[0; BUCKET_ROOM]; PATH_BUCKETS],
            lens: [0; PATH_BUCKETS],
            n,
            cur: 0,
            len: 0,
        }
    }

    /// `None` when the bucket is full (the caller hands the search over).
    fn push(&mut self, key: u64, zone: usize) -> Option<()> {
        let k = (key % self.n) as usize;
        let len = self.lens.get_mut(k)?;
        *self.buckets[k].get_mut(usize::from(*len))? = zone as u8;
        *len += 1;
        self.len += 1;
        Some(())
    }

    fn pop(&mut self) -> Option<(u64, usize)> {
        if self.len == 0 {
            return None;
        }
        loop {
            let k = (self.cur % self.n) as usize;
            if self.lens[k] > 0 {
                self.lens[k] -= 1;
                self.len -= 1;
                let top = usize::from(self.lens[k]);
                return Some((self.cur, usize::from(self.buckets[k][top])));
            }
            self.cur += 1;
        }
    }
}
