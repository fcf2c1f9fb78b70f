//! Queries on a [`HexMap`]: movement (reachable zones within a budget, cheapest paths),
//! sight (line of sight, field of view), area shapes and forced moves (push / pull).
//!
//! Movement: a zone can be entered if it exists, is passable and is unoccupied; a move costs
//! the sum of the entry costs of the zones it enters (the start is free). The searches run on
//! the map's dense arrays with a bucket queue (Dial's algorithm) when entry costs are small,
//! a binary heap otherwise; `docs/hex.md` compares them with the `pathfinding` crate.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::coords::{self, axis_direction, direction, distance, Hex, DIRECTIONS};
use super::limits::MAX_SIGHT_STEPS;
use super::map::{Blocker, Cell, HexMap, BLOCKED};
use crate::error::{Error, Result};

/// Priority queue of `(key, cell)` with keys never below the last popped key.
enum Frontier {
    /// Dial's circular buckets: every pushed key is within `span` of the last popped one.
    Buckets {
        buckets: Vec<Vec<u32>>,
        cur: u64,
        len: usize,
    },
    Heap(BinaryHeap<Reverse<(u64, u32)>>),
}

/// Widest key span handled with buckets.
const MAX_BUCKET_SPAN: u64 = 4096;

impl Frontier {
    fn new(span: u64) -> Self {
        if span < MAX_BUCKET_SPAN {
            Frontier::Buckets {
                buckets: vec![Vec::new(); span as usize + 1],
                cur: 0,
                len: 0,
            }
        } else {
            Frontier::Heap(BinaryHeap::new())
        }
    }

    #[inline]
    fn push(&mut self, key: u64, cell: usize) {
        match self {
            Frontier::Buckets { buckets, len, .. } => {
                let n = buckets.len() as u64;
                buckets[(key % n) as usize].push(cell as u32);
                *len += 1;
            }
            Frontier::Heap(h) => h.push(Reverse((key, cell as u32))),
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, usize)> {
        match self {
            Frontier::Buckets { buckets, cur, len } => {
                if *len == 0 {
                    return None;
                }
                let n = buckets.len() as u64;
                loop {
                    if let Some(c) = buckets[(*cur % n) as usize].pop() {
                        *len -= 1;
                        return Some((*cur, c as usize));
                    }
                    *cur += 1;
                }
            }
            Frontier::Heap(h) => h.pop().map(|Reverse((k, c))| (k, c as usize)),
        }
    }
}

/// Result of a forced move: the zones entered, in order, and the collision that stopped it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForcedMove {
    pub start: Hex,
    /// Zones entered, in order (empty if the first step collided or `steps == 0`).
    pub path: Vec<Hex>,
    /// The zone where the mover ends.
    pub end: Hex,
    /// The zone it failed to enter and why, if a step was blocked.
    pub collision: Option<(Hex, Collision)>,
}

/// What a forced move ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Collision {
    Blocked(Blocker),
    /// The source of a pull: the target is pulled into the puller.
    Source,
}

impl Collision {
    pub fn kind(self) -> &'static str {
        match self {
            Collision::Blocked(b) => b.kind(),
            Collision::Source => "source",
        }
    }
}

/// An area shape around an origin. Directions are `0..6` (see [`coords`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The origin alone.
    Single,
    /// Every hex within the distance of the origin (origin included).
    Radius(u32),
    /// The hexes at exactly the distance.
    Ring(u32),
    /// `length` hexes along one axis from the origin, origin excluded.
    Line { direction: usize, length: u32 },
    /// The 60° wedge between axes `direction` and `direction + 1`, at distance `1..=length`:
    /// `k + 1` hexes at distance `k`.
    Cone { direction: usize, length: u32 },
}

impl Shape {
    /// The hexes of the shape around `origin` (geometry only, no map).
    pub fn hexes(self, origin: Hex) -> Vec<Hex> {
        match self {
            Shape::Single => vec![origin],
            Shape::Radius(r) => coords::range(origin, r),
            Shape::Ring(r) => coords::ring(origin, r),
            Shape::Line { direction, length } => coords::axis_line(origin, direction, length),
            Shape::Cone {
                direction: d,
                length,
            } => {
                let (a, b) = (direction(d), direction(d + 1));
                let mut out = Vec::new();
                for k in 1..=length as i32 {
                    for j in 0..=k {
                        out.push(origin + a * (k - j) + b * j);
                    }
                }
                out
            }
        }
    }
}

impl HexMap {
    fn start_cell(&self, start: Hex) -> Result<Cell> {
        self.zone_cell(start).ok_or_else(|| {
            Error::invalid(format!(
                "({}, {}) is not a zone of the map",
                start.x, start.y
            ))
        })
    }

    /// Every zone reachable from `start` with a total entry cost of at most `budget`, with
    /// that cheapest cost, in order of increasing cost (`start` first, at 0). The start zone
    /// itself may be occupied (by the mover) or impassable; it must exist.
    pub fn reachable_cells(&self, start: Hex, budget: u64) -> Result<Vec<(Cell, u64)>> {
        let s = self.start_cell(start)?;
        let mut out = Vec::new();
        self.dijkstra(s, budget, |c, d| out.push((c, d)));
        Ok(out)
    }

    /// [`HexMap::reachable_cells`] as hexes.
    pub fn reachable(&self, start: Hex, budget: u64) -> Result<Vec<(Hex, u64)>> {
        Ok(self
            .reachable_cells(start, budget)?
            .into_iter()
            .map(|(c, d)| (self.hex_of(c), d))
            .collect())
    }

    /// Cheapest cost from `start` to every zone, in [`HexMap::zones`] order (`None`:
    /// unreachable).
    pub fn costs_from(&self, start: Hex) -> Result<Vec<Option<u64>>> {
        let s = self.start_cell(start)?;
        let mut dist = vec![u64::MAX; self.num_cells()];
        self.dijkstra(s, u64::MAX, |c, d| dist[c] = d);
        Ok(self
            .zone_cells()
            .iter()
            .map(|&c| Some(dist[c as usize]).filter(|&d| d != u64::MAX))
            .collect())
    }

    /// Dijkstra from cell `s`, calling `settle(cell, cost)` once per zone with cost <= budget,
    /// in order of cost.
    fn dijkstra(&self, s: Cell, budget: u64, mut settle: impl FnMut(Cell, u64)) {
        let mut dist = vec![u64::MAX; self.num_cells()];
        let offsets = self.offsets();
        let mut queue = Frontier::new(self.max_cost() as u64);
        dist[s] = 0;
        queue.push(0, s);
        while let Some((d, c)) = queue.pop() {
            if d > dist[c] {
                continue;
            }
            settle(c, d);
            for off in offsets {
                // The void padding keeps every neighbour of a zone inside the arrays.
                let nb = (c as isize + off) as usize;
                let w = self.step_cost(nb);
                if w == BLOCKED {
                    continue;
                }
                let nd = d + w as u64;
                if nd <= budget && nd < dist[nb] {
                    dist[nb] = nd;
                    queue.push(nd, nb);
                }
            }
        }
    }

    /// The cheapest path from `a` to `b` (both included) and its cost, by A* with the hex
    /// distance (times the cheapest entry cost) as heuristic; `None` if `b` cannot be reached
    /// (void, blocked, occupied or cut off). `a` must be a zone.
    pub fn path(&self, a: Hex, b: Hex) -> Result<Option<(Vec<Hex>, u64)>> {
        let s = self.start_cell(a)?;
        if a == b {
            return Ok(Some((vec![a], 0)));
        }
        let Some(t) = self.zone_cell(b) else {
            return Ok(None);
        };
        if self.step_cost(t) == BLOCKED {
            return Ok(None);
        }
        let unit = self.min_cost() as u64;
        let h = |c: Cell| distance(self.hex_of(c), b) as u64 * unit;
        let n = self.num_cells();
        let mut g = vec![u64::MAX; n];
        let mut parent = vec![u32::MAX; n];
        let offsets = self.offsets();
        // f grows by at most max_cost + unit per step (consistent heuristic).
        let mut queue = Frontier::new(self.max_cost() as u64 + unit);
        g[s] = 0;
        queue.push(h(s), s);
        while let Some((f, c)) = queue.pop() {
            let gc = g[c];
            if f > gc + h(c) {
                continue; // stale entry
            }
            if c == t {
                let mut path = vec![b];
                let mut at = c;
                while at != s {
                    at = parent[at] as usize;
                    path.push(self.hex_of(at));
                }
                path.reverse();
                return Ok(Some((path, gc)));
            }
            for off in offsets {
                let nb = (c as isize + off) as usize;
                let w = self.step_cost(nb);
                if w == BLOCKED {
                    continue;
                }
                let ng = gc + w as u64;
                if ng < g[nb] {
                    g[nb] = ng;
                    parent[nb] = c as u32;
                    queue.push(ng + h(nb), nb);
                }
            }
        }
        Ok(None)
    }

    /// Whether no zone strictly between `a` and `b` on `line_nudged(a, b, nudge)` blocks
    /// sight. Only the steps whose hex can fall inside the map's storage are traced, so far
    /// end points cost no more than the map's width.
    fn line_clear(&self, a: Hex, b: Hex, nudge: i64, occupants_block: bool) -> bool {
        let n = distance(a, b) as i64;
        let (lo, hi) = self.steps_inside(a, b, n);
        (lo.max(1)..=hi.min(n - 1)).all(|i| {
            self.cell(coords::line_point(a, b, n, i, nudge))
                .is_none_or(|c| !self.cell_blocks_sight(c, occupants_block))
        })
    }

    /// The steps `i` of an `n`-step line from `a` to `b` whose rounded hex may lie inside the
    /// storage: the exact point is within one hex of the storage's `q` and `r` bounds (cube
    /// rounding moves each coordinate by less than 1). Empty when `lo > hi`.
    fn steps_inside(&self, a: Hex, b: Hex, n: i64) -> (i64, i64) {
        if n == 0 {
            return (0, 0);
        }
        let (qlo, qhi, rlo, rhi) = self.storage_bounds();
        let mut lo = 0i128;
        let mut hi = n as i128;
        for (from, to, min, max) in [
            (a.x as i128, b.x as i128, qlo as i128 - 1, qhi as i128 + 1),
            (a.y as i128, b.y as i128, rlo as i128 - 1, rhi as i128 + 1),
        ] {
            // from * n + (to - from) * i must lie in [min * n, max * n].
            let d = to - from;
            if d == 0 {
                if from < min || from > max {
                    return (1, 0);
                }
                continue;
            }
            // d * i in [l, h], solved for i (rounding inward).
            let (l, h) = ((min - from) * n as i128, (max - from) * n as i128);
            let (d, l, h) = if d > 0 { (d, l, h) } else { (-d, -h, -l) };
            lo = lo.max(l.div_euclid(d) + i128::from(l.rem_euclid(d) != 0));
            hi = hi.min(h.div_euclid(d));
        }
        if lo > hi {
            (1, 0)
        } else {
            (lo as i64, hi as i64)
        }
    }

    /// Whether `b` can be seen from `a`: some straight line between them (the line nudged to
    /// either side where it runs along hex borders) crosses no sight-blocking zone strictly
    /// between them. Sight-blocking: terrain with `blocks_sight`, and occupied zones when
    /// `occupants_block`. Void does not block sight. Symmetric. `a` and `b` need not be
    /// zones; the work is bounded by the map's size, not by their distance.
    pub fn line_of_sight(&self, a: Hex, b: Hex, occupants_block: bool) -> bool {
        self.line_clear(a, b, 1, occupants_block) || self.line_clear(a, b, -1, occupants_block)
    }

    /// The zones a field of view from `origin` within `radius` checks, in zone order.
    fn sight_candidates(&self, origin: Hex, radius: Option<u32>) -> Vec<Hex> {
        match radius {
            // 3r(r + 1) + 1 hexes within r, in u64 (hexx's u32 count overflows past ~37,800).
            Some(r) if 3 * r as u64 * (r as u64 + 1) + 1 < self.len() as u64 => {
                let mut v: Vec<Hex> = coords::range(origin, r)
                    .into_iter()
                    .filter(|&h| self.contains(h))
                    .collect();
                v.sort_by_key(|h| (h.y, h.x));
                v
            }
            _ => self
                .zones()
                .filter(|&h| radius.is_none_or(|r| distance(origin, h) <= r))
                .collect(),
        }
    }

    /// The zones within `radius` of `origin` (all zones for `None`) that `origin` can see,
    /// in zone order. Blocking zones are themselves seen.
    pub fn field_of_view(
        &self,
        origin: Hex,
        radius: Option<u32>,
        occupants_block: bool,
    ) -> Vec<Hex> {
        let mut v = self.sight_candidates(origin, radius);
        v.retain(|&h| self.line_of_sight(origin, h, occupants_block));
        v
    }

    /// [`HexMap::field_of_view`] for untrusted callers: refused (before tracing) if it
    /// would trace more than [`MAX_SIGHT_STEPS`] hex steps, and `interrupt` is called every
    /// few thousand lines; an error from it stops the work and is returned.
    pub fn field_of_view_checked(
        &self,
        origin: Hex,
        radius: Option<u32>,
        occupants_block: bool,
        mut interrupt: impl FnMut() -> Result<()>,
    ) -> Result<Vec<Hex>> {
        let candidates = self.sight_candidates(origin, radius);
        // A line is traced only where it can meet the storage: at most ~2 * (side + 2) steps.
        let (qlo, qhi, rlo, rhi) = self.storage_bounds();
        let side = 2 * ((qhi - qlo).max(rhi - rlo) as u64 + 4);
        let steps: u64 = candidates
            .iter()
            .map(|&h| 2 * (distance(origin, h) as u64).min(side))
            .sum();
        if steps > MAX_SIGHT_STEPS {
            return Err(Error::invalid(format!(
                "field_of_view would trace about {steps} hex steps of sight lines; at most {MAX_SIGHT_STEPS} (give a smaller radius)"
            )));
        }
        let mut seen = Vec::new();
        for chunk in candidates.chunks(4096) {
            interrupt()?;
            seen.extend(
                chunk
                    .iter()
                    .copied()
                    .filter(|&h| self.line_of_sight(origin, h, occupants_block)),
            );
        }
        Ok(seen)
    }

    /// The zones of an area shape (void hexes dropped), in the shape's order.
    pub fn area(&self, origin: Hex, shape: Shape) -> Vec<Hex> {
        shape
            .hexes(origin)
            .into_iter()
            .filter(|&h| self.contains(h))
            .collect()
    }

    /// Move the occupant of `target` up to `steps` zones in direction `dir`, stopping before
    /// the first zone it cannot enter (void, obstacle, occupied): that is the collision.
    /// Terrain costs do not matter. The map is not changed.
    pub fn forced_move(&self, target: Hex, dir: usize, steps: u32) -> ForcedMove {
        self.forced(target, dir % 6, steps, None)
    }

    fn forced(&self, target: Hex, dir: usize, steps: u32, source: Option<Hex>) -> ForcedMove {
        let mut at = target;
        let mut path = Vec::new();
        let mut collision = None;
        for _ in 0..steps {
            let next = at + DIRECTIONS[dir];
            if Some(next) == source {
                collision = Some((next, Collision::Source));
                break;
            }
            if let Some(b) = self.blocker(next) {
                collision = Some((next, Collision::Blocked(b)));
                break;
            }
            path.push(next);
            at = next;
        }
        ForcedMove {
            start: target,
            path,
            end: at,
            collision,
        }
    }

    /// Push the occupant of `target` directly away from `source` along their common axis.
    /// Errors if they are not on one axis (or are the same hex).
    pub fn push(&self, source: Hex, target: Hex, steps: u32) -> Result<ForcedMove> {
        let d = axis(source, target)?;
        Ok(self.forced(target, d, steps, None))
    }

    /// Pull the occupant of `target` toward `source` along their common axis; reaching the
    /// source's zone is a collision with the source.
    pub fn pull(&self, source: Hex, target: Hex, steps: u32) -> Result<ForcedMove> {
        let d = axis(source, target)?;
        Ok(self.forced(target, coords::opposite(d), steps, Some(source)))
    }
}

fn axis(source: Hex, target: Hex) -> Result<usize> {
    axis_direction(source, target).ok_or_else(|| {
        Error::invalid(format!(
            "({}, {}) and ({}, {}) are not on a common axis",
            source.x, source.y, target.x, target.y
        ))
    })
}
