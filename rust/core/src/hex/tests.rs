//! The hex layer against straightforward references (hash-map Dijkstra, brute-force lines,
//! areas and sight) on many random maps with voids, obstacles, costs and occupants.

use std::collections::{BinaryHeap, HashMap};

use super::coords::{self, distance, Hex, DIRECTIONS};
use super::map::{Blocker, HexMap, Terrain};
use super::query::{Collision, Shape};
use super::text;
use super::{Layout, Orientation};
use crate::rng::GameRng;

/// A random map: a hexagon or parallelogram region with void, obstacles (some see-through),
/// costs 1..=4 and a few occupants.
fn random_map(rng: &mut GameRng) -> HexMap {
    let terrains = vec![
        Terrain::new("plain", 1, true, false),
        Terrain::new("mud", 3, true, false),
        Terrain::new("rock", 1, false, true),
        Terrain::new("pit", 1, false, false),
        Terrain::new("fog", 2, true, true),
    ];
    let radius = 2 + rng.below(6) as i32;
    let center = Hex::new(rng.below(7) as i32 - 3, rng.below(7) as i32 - 3);
    let region: Vec<Hex> = if rng.below(2) == 0 {
        coords::range(center, radius as u32)
    } else {
        (0..radius * 2)
            .flat_map(|q| (0..radius + 1).map(move |r| center + Hex::new(q, r)))
            .collect()
    };
    let mut zones = Vec::new();
    for h in region {
        let roll = rng.below(100);
        if roll < 12 {
            continue; // void
        }
        let t = match roll {
            12..=21 => 2,
            22..=26 => 3,
            27..=36 => 1,
            37..=41 => 4,
            _ => 0,
        };
        zones.push((h, t));
    }
    if zones.is_empty() {
        zones.push((center, 0));
    }
    let mut m = HexMap::new(terrains, &zones, Orientation::Pointy).unwrap();
    let hexes: Vec<Hex> = m.zones().collect();
    for h in &hexes {
        match rng.below(20) {
            0 => m.set_occupant(*h, Some(rng.below(5) as u32)).unwrap(),
            1 if m.cost(*h).is_some() => m.set_cost(*h, 1 + rng.below(9) as u32).unwrap(),
            2 => m.add_tag(*h, "start").unwrap(),
            _ => {}
        }
    }
    m
}

/// Entry cost for the reference searches, from the public per-zone accessors only.
fn enter(m: &HexMap, h: Hex) -> Option<u64> {
    if !m.contains(h) || m.occupant(h).is_some() {
        return None;
    }
    m.cost(h).map(u64::from)
}

fn reference_dijkstra(m: &HexMap, start: Hex) -> HashMap<Hex, u64> {
    let mut dist = HashMap::new();
    let mut heap = BinaryHeap::new();
    dist.insert(start, 0u64);
    heap.push(std::cmp::Reverse((0u64, start.x, start.y)));
    while let Some(std::cmp::Reverse((d, q, r))) = heap.pop() {
        let h = Hex::new(q, r);
        if d > dist[&h] {
            continue;
        }
        for nb in coords::neighbors(h) {
            if let Some(w) = enter(m, nb) {
                if dist.get(&nb).is_none_or(|&old| d + w < old) {
                    dist.insert(nb, d + w);
                    heap.push(std::cmp::Reverse((d + w, nb.x, nb.y)));
                }
            }
        }
    }
    dist
}

fn maps(n: usize, seed: u64) -> impl Iterator<Item = (GameRng, HexMap)> {
    (0..n as u64).map(move |i| {
        let mut rng = GameRng::stream(seed, i);
        let m = random_map(&mut rng);
        (rng, m)
    })
}

fn pick(rng: &mut GameRng, m: &HexMap) -> Hex {
    let z: Vec<Hex> = m.zones().collect();
    z[rng.below(z.len())]
}

#[test]
fn reachable_matches_reference_dijkstra() {
    for (mut rng, m) in maps(300, 1) {
        let start = pick(&mut rng, &m);
        let full = reference_dijkstra(&m, start);
        for budget in [0u64, 1, 2, 3, 5, 8, 1000] {
            let got = m.reachable(start, budget).unwrap();
            let want: HashMap<Hex, u64> = full
                .iter()
                .filter(|(_, &d)| d <= budget)
                .map(|(h, d)| (*h, *d))
                .collect();
            assert_eq!(got.iter().copied().collect::<HashMap<_, _>>(), want);
            assert_eq!(got.len(), want.len(), "no zone twice");
            assert!(got.windows(2).all(|w| w[0].1 <= w[1].1), "in order of cost");
            assert_eq!(got[0], (start, 0));
        }
        let costs = m.costs_from(start).unwrap();
        for (h, c) in m.zones().zip(costs) {
            assert_eq!(c, full.get(&h).copied());
        }
    }
}

#[test]
fn paths_are_valid_and_cheapest() {
    for (mut rng, m) in maps(300, 2) {
        let a = pick(&mut rng, &m);
        let full = reference_dijkstra(&m, a);
        for _ in 0..10 {
            let b = if rng.below(10) == 0 {
                Hex::new(40, 40)
            } else {
                pick(&mut rng, &m)
            };
            let got = m.path(a, b).unwrap();
            match (got, full.get(&b)) {
                (None, None) => {}
                (Some((path, cost)), Some(&want)) => {
                    assert_eq!(cost, want);
                    assert_eq!(path.first(), Some(&a));
                    assert_eq!(path.last(), Some(&b));
                    let mut sum = 0;
                    for w in path.windows(2) {
                        assert_eq!(distance(w[0], w[1]), 1);
                        sum += enter(&m, w[1]).expect("path enters only open zones");
                    }
                    assert_eq!(sum, cost);
                }
                (got, want) => panic!("path {got:?} but reference cost {want:?}"),
            }
        }
    }
}

#[test]
fn off_map_start_is_an_error() {
    let m = HexMap::from_costs(&[(Hex::ZERO, Some(1))]).unwrap();
    assert!(m.reachable(Hex::new(5, 5), 3).is_err());
    assert!(m.path(Hex::new(5, 5), Hex::ZERO).is_err());
    assert_eq!(
        m.path(Hex::ZERO, Hex::ZERO).unwrap(),
        Some((vec![Hex::ZERO], 0))
    );
}

/// The nudged line by brute force: at each step the hex whose centre is nearest (Euclidean)
/// to the nudged point.
fn reference_line(a: Hex, b: Hex, nudge: f64) -> Vec<Hex> {
    let n = distance(a, b);
    let eps = 1e-7 * nudge;
    let cands = coords::range(a, n + 1);
    (0..=n)
        .map(|i| {
            let t = if n == 0 { 0.0 } else { i as f64 / n as f64 };
            let q = a.x as f64 + (b.x - a.x) as f64 * t + eps;
            let r = a.y as f64 + (b.y - a.y) as f64 * t + 2.0 * eps;
            *cands
                .iter()
                .min_by(|h1, h2| {
                    let d = |h: &Hex| {
                        let (dq, dr) = (q - h.x as f64, r - h.y as f64);
                        dq * dq + dq * dr + dr * dr
                    };
                    d(h1).total_cmp(&d(h2))
                })
                .unwrap()
        })
        .collect()
}

#[test]
fn lines_match_brute_force_both_nudges() {
    let mut rng = GameRng::seed(3);
    for _ in 0..3000 {
        let a = Hex::new(rng.below(31) as i32 - 15, rng.below(31) as i32 - 15);
        let b = Hex::new(rng.below(31) as i32 - 15, rng.below(31) as i32 - 15);
        for nudge in [1i64, -1] {
            assert_eq!(
                coords::line_nudged(a, b, nudge),
                reference_line(a, b, nudge as f64),
                "{a:?} {b:?}"
            );
        }
        let mut back = coords::line(b, a);
        back.reverse();
        assert_eq!(coords::line(a, b), back);
    }
}

#[test]
fn sight_matches_brute_force() {
    for (mut rng, m) in maps(150, 4) {
        let occ = rng.below(2) == 0;
        let origin = pick(&mut rng, &m);
        let blocks = |h: &Hex| {
            m.terrain(*h).is_some_and(|t| t.blocks_sight) || (occ && m.occupant(*h).is_some())
        };
        let clear = |line: Vec<Hex>| line.len() < 3 || !line[1..line.len() - 1].iter().any(blocks);
        let radius = if rng.below(3) == 0 {
            None
        } else {
            Some(rng.below(6) as u32)
        };
        let want: Vec<Hex> = m
            .zones()
            .filter(|h| radius.is_none_or(|r| distance(origin, *h) <= r))
            .filter(|h| {
                clear(reference_line(origin, *h, 1.0)) || clear(reference_line(origin, *h, -1.0))
            })
            .collect();
        assert_eq!(m.field_of_view(origin, radius, occ), want);
        for h in m.zones() {
            assert_eq!(
                m.line_of_sight(origin, h, occ),
                m.line_of_sight(h, origin, occ)
            );
        }
    }
}

#[test]
fn areas_match_brute_force() {
    let pointy = Layout::new(Orientation::Pointy, (1.0, 1.0), (0.0, 0.0));
    for (mut rng, m) in maps(100, 5) {
        let o = pick(&mut rng, &m);
        let n = rng.below(5) as u32;
        let d = rng.below(6);
        let around: Vec<Hex> = coords::range(o, n + 1);
        let sorted = |mut v: Vec<Hex>| {
            v.sort_by_key(|h| (h.y, h.x));
            v
        };
        let zones = |f: &dyn Fn(&Hex) -> bool| {
            sorted(
                around
                    .iter()
                    .copied()
                    .filter(|h| m.contains(*h) && f(h))
                    .collect(),
            )
        };
        let cross = |(ax, ay): (f64, f64), (bx, by): (f64, f64)| ax * by - ay * bx;
        let vec_of = |h: Hex| {
            let (x, y) = pointy.to_pixel(h);
            let (ox, oy) = pointy.to_pixel(o);
            (x - ox, y - oy)
        };
        let (va, vb) = (
            pointy.to_pixel(DIRECTIONS[d]),
            pointy.to_pixel(DIRECTIONS[(d + 1) % 6]),
        );
        let cases: Vec<(Shape, Vec<Hex>)> = vec![
            (Shape::Single, zones(&|h| *h == o)),
            (Shape::Radius(n), zones(&|h| distance(o, *h) <= n)),
            (Shape::Ring(n), zones(&|h| distance(o, *h) == n)),
            (
                Shape::Line {
                    direction: d,
                    length: n,
                },
                zones(&|h| distance(o, *h) <= n && coords::axis_direction(o, *h) == Some(d)),
            ),
            (
                Shape::Cone {
                    direction: d,
                    length: n,
                },
                zones(&|h| {
                    let v = vec_of(*h);
                    let dist = distance(o, *h);
                    dist >= 1 && dist <= n && cross(va, v) >= -1e-9 && cross(v, vb) >= -1e-9
                }),
            ),
        ];
        for (shape, want) in cases {
            let got = m.area(o, shape);
            assert_eq!(got.len(), want.len(), "{shape:?}: no duplicates");
            assert_eq!(sorted(got), want, "{shape:?}");
        }
    }
}

#[test]
fn forced_moves_stop_at_the_first_blocked_zone() {
    for (mut rng, m) in maps(200, 6) {
        let target = pick(&mut rng, &m);
        let d = rng.below(6);
        let steps = rng.below(6) as u32;
        let mv = m.forced_move(target, d, steps);
        // Reference: walk until a zone is void, impassable or occupied.
        let mut at = target;
        let mut path = Vec::new();
        let mut hit = None;
        for _ in 0..steps {
            let next = at + DIRECTIONS[d];
            let blocker = if !m.contains(next) {
                Some(Blocker::Void)
            } else if let Some(o) = m.occupant(next) {
                Some(Blocker::Occupied(o))
            } else if m.cost(next).is_none() {
                Some(Blocker::Obstacle)
            } else {
                None
            };
            if let Some(b) = blocker {
                hit = Some((next, Collision::Blocked(b)));
                break;
            }
            path.push(next);
            at = next;
        }
        assert_eq!((mv.path, mv.end, mv.collision), (path, at, hit));
    }
}

#[test]
fn push_and_pull_follow_the_axis() {
    let cells: Vec<(Hex, Option<u32>)> = coords::range(Hex::ZERO, 4)
        .into_iter()
        .map(|h| (h, Some(1)))
        .collect();
    let mut m = HexMap::from_costs(&cells).unwrap();
    let src = Hex::ZERO;
    let tgt = Hex::new(2, 0);
    let push = m.push(src, tgt, 5).unwrap();
    assert_eq!(push.path, vec![Hex::new(3, 0), Hex::new(4, 0)]);
    assert_eq!(
        push.collision,
        Some((Hex::new(5, 0), Collision::Blocked(Blocker::Void)))
    );
    let pull = m.pull(src, tgt, 5).unwrap();
    assert_eq!(pull.path, vec![Hex::new(1, 0)]);
    assert_eq!(pull.collision, Some((src, Collision::Source)));
    m.set_occupant(Hex::new(3, 0), Some(9)).unwrap();
    let push = m.push(src, tgt, 1).unwrap();
    assert_eq!(push.end, tgt);
    assert_eq!(
        push.collision,
        Some((Hex::new(3, 0), Collision::Blocked(Blocker::Occupied(9))))
    );
    assert!(m.push(src, Hex::new(2, 1), 1).is_err());
    assert!(m.pull(src, src, 1).is_err());
}

/// Same zones, terrains (by name), costs, occupants and tags.
fn assert_same(a: &HexMap, b: &HexMap) {
    assert_eq!(a.zones().collect::<Vec<_>>(), b.zones().collect::<Vec<_>>());
    for h in a.zones() {
        assert_eq!(a.terrain(h), b.terrain(h), "{h:?}");
        assert_eq!(a.cost(h), b.cost(h));
        assert_eq!(a.occupant(h), b.occupant(h));
        let mut ta = a.tags(h);
        let mut tb = b.tags(h);
        ta.sort_unstable();
        tb.sort_unstable();
        assert_eq!(ta, tb);
    }
    assert_eq!(a.orientation, b.orientation);
    assert_eq!(a.name, b.name);
}

#[test]
fn text_round_trips_both_orientations() {
    for (mut rng, mut m) in maps(200, 7) {
        if rng.below(2) == 0 {
            m.orientation = Orientation::Flat;
        }
        m.name = "random \"map\"".into();
        let t = m.to_text().unwrap();
        let back = text::parse(&t, "t.toml").unwrap_or_else(|e| panic!("{e}\n{t}"));
        assert_same(&m, &back);
        assert_eq!(back.to_text().unwrap(), t);
    }
}

const EXAMPLE: &str = r##"name = "Crossing"
picture = '''
 . . # . .
S . ~ ~ . R
 . . #   .
'''

[legend]
"." = "plain"
"#" = "rock"
"~" = "water"
"S" = { terrain = "plain", tags = ["start"] }
"R" = { terrain = "plain", tags = ["renown"] }

[terrain]
plain = {}
water = { cost = 2 }
rock = { passable = false, blocks_sight = true }

[[zones]]
at = [2, 1]
occupant = 4
"##;

#[test]
fn the_documented_example_reads_as_drawn() {
    let m = text::parse(EXAMPLE, "crossing.toml").unwrap();
    assert_eq!(m.len(), 15);
    assert_eq!(m.tagged("start"), vec![Hex::new(-1, 1)]);
    assert_eq!(m.tagged("renown"), vec![Hex::new(4, 1)]);
    assert_eq!(m.terrain(Hex::new(2, 0)).unwrap().name, "rock");
    assert_eq!(m.cost(Hex::new(1, 1)), Some(2));
    assert_eq!(m.occupant(Hex::new(2, 1)), Some(4));
    assert!(
        !m.contains(Hex::new(2, 2)),
        "the gap on the last line is void"
    );
    assert_eq!(m.render().unwrap(), " . . # . .\nS . ~ @ . R\n . . #   .\n");
}

fn err(text: &str) -> String {
    text::parse(text, "m.toml").unwrap_err().to_string()
}

#[test]
fn bad_files_say_where_and_why() {
    let unknown = EXAMPLE.replace("S . ~", "S . X");
    assert_eq!(
        err(&unknown),
        "bad data in m.toml line 4 column 5: 'X' is not in the legend"
    );
    let misaligned = EXAMPLE.replace(" . . #   .", "  . . # .");
    assert!(
        err(&misaligned).starts_with("bad data in m.toml line 5 column 3: '.' misaligned"),
        "{}",
        err(&misaligned)
    );
    let no_terrain = EXAMPLE.replace("\"~\" = \"water\"", "\"~\" = \"lava\"");
    assert!(
        err(&no_terrain).contains("line 11") && err(&no_terrain).contains("no terrain \"lava\""),
        "{}",
        err(&no_terrain)
    );
    let syntax = EXAMPLE.replace("water = { cost = 2 }", "water = { cost = }");
    assert!(err(&syntax).contains("line 17"), "{}", err(&syntax));
    let bad_cost = EXAMPLE.replace("cost = 2", "cost = 0");
    assert!(
        err(&bad_cost).contains("[terrain.water]"),
        "{}",
        err(&bad_cost)
    );
    let off = EXAMPLE.replace("at = [2, 1]", "at = [9, 9]");
    assert!(
        err(&off).contains("line 20") && err(&off).contains("not a zone"),
        "{}",
        err(&off)
    );
    let unknown_key = format!("{EXAMPLE}\ncolour = 1\n");
    assert!(
        err(&unknown_key).contains("colour"),
        "{}",
        err(&unknown_key)
    );
}

#[test]
fn flat_pictures_read_columns() {
    let t = "orientation = \"flat\"\npicture = '''\n.   .\n  .\n.   .\n'''\n[legend]\n\".\" = \"p\"\n[terrain]\np = {}\n";
    let m = text::parse(t, "f").unwrap();
    let mut z: Vec<Hex> = m.zones().collect();
    z.sort_by_key(|h| (h.x, h.y));
    // Column q=0 has two hexes one under the other; q=1 sits between them; q=2 again two.
    assert_eq!(
        z,
        vec![
            Hex::new(0, 0),
            Hex::new(0, 1),
            Hex::new(1, 0),
            Hex::new(2, -1),
            Hex::new(2, 0)
        ]
    );
    for h in &z[1..] {
        assert!(coords::neighbors(*h).iter().any(|n| z.contains(n)));
    }
}

/// A random map of at most 64 zones with every passable zone costing 1 (the case the zone
/// bitsets answer), its obstacles, void and occupants kept.
fn small_unit_map(rng: &mut GameRng) -> HexMap {
    loop {
        let mut m = random_map(rng);
        if m.len() > super::zonebits::MAX_BIT_ZONES {
            continue;
        }
        let hexes: Vec<Hex> = m.zones().collect();
        for h in hexes {
            if m.cost(h).is_some() {
                m.set_cost(h, 1).unwrap();
            }
        }
        return m;
    }
}

#[test]
fn zone_bitsets_match_the_searches_and_geometry() {
    use super::zonebits::ZoneGraph;
    for i in 0..300 {
        let mut rng = GameRng::stream(11, i);
        let m = small_unit_map(&mut rng);
        let g = ZoneGraph::new(&m).unwrap();
        let hexes: Vec<Hex> = m.zones().collect();
        assert_eq!(g.len(), hexes.len());
        let open = m.unit_open_bits().expect("unit costs, at most 64 zones");
        let occupied = m.occupied_bits().unwrap();
        for (j, &h) in hexes.iter().enumerate() {
            assert_eq!(open >> j & 1 == 1, m.is_open(h), "open bit of {h:?}");
            assert_eq!(occupied >> j & 1 == 1, m.occupant(h).is_some());
        }
        let bits = |pred: &dyn Fn(Hex) -> bool| {
            hexes
                .iter()
                .enumerate()
                .filter(|&(_, &h)| pred(h))
                .fold(0u64, |b, (j, _)| b | 1 << j)
        };
        for (z, &a) in hexes.iter().enumerate() {
            let nb: Vec<Hex> = coords::neighbors(a).into_iter().collect();
            assert_eq!(g.neighbours(z), bits(&|h| nb.contains(&h)));
            assert_eq!(g.axes(z), bits(&|h| coords::axis_direction(a, h).is_some()));
            for d in [0, 1, 2, 3, 7, 70, 1000] {
                assert_eq!(g.within(z, d), bits(&|h| distance(a, h) <= d), "{a:?} {d}");
            }
            for steps in [0u32, 1, 2, 3, 5, 100] {
                let want = bits(&|h| {
                    m.reachable(a, u64::from(steps))
                        .unwrap()
                        .iter()
                        .any(|&(r, _)| r == h)
                });
                assert_eq!(
                    g.reachable(z, open, steps),
                    want,
                    "from {a:?}, {steps} steps"
                );
            }
        }
        assert_eq!(g.reachable(hexes.len(), open, 3), 0, "no such zone");
    }
}

#[test]
fn zone_bitsets_refuse_what_they_cannot_hold() {
    let big: Vec<(Hex, Option<u32>)> = coords::range(Hex::ZERO, 5)
        .into_iter()
        .map(|h| (h, Some(1)))
        .collect();
    let m = HexMap::from_costs(&big).unwrap();
    assert!(m.len() > 64);
    assert!(super::zonebits::ZoneGraph::new(&m).is_none());
    assert_eq!(m.unit_open_bits(), None);
    assert_eq!(m.occupied_bits(), None);
    // A zone costing 2: the bitsets do not stand for costs.
    let small: Vec<(Hex, Option<u32>)> = coords::range(Hex::ZERO, 2)
        .into_iter()
        .map(|h| (h, Some(1 + u32::from(h == Hex::new(1, 0)))))
        .collect();
    let m = HexMap::from_costs(&small).unwrap();
    assert_eq!(m.unit_open_bits(), None);
}

/// A map spread wider than the distance table: ranges beyond it are measured.
#[test]
fn zone_ranges_beyond_the_table_are_measured() {
    let far = super::zonebits::MAX_TABLE_DISTANCE as i32 * 3;
    let cells = [
        Hex::ZERO,
        Hex::new(1, 0),
        Hex::new(far, 0),
        Hex::new(0, far),
    ]
    .map(|h| (h, Some(1)));
    let m = HexMap::from_costs(&cells).unwrap();
    let g = super::zonebits::ZoneGraph::new(&m).unwrap();
    let z0 = m.zone_index(Hex::ZERO).unwrap();
    let zf = m.zone_index(Hex::new(far, 0)).unwrap();
    assert_eq!(g.within(z0, far as u32 - 1) >> zf & 1, 0);
    assert_eq!(g.within(z0, far as u32) >> zf & 1, 1);
    assert_eq!(g.within(z0, u32::MAX).count_ones(), 4);
}

/// `zone_path` is `HexMap::path`: the same path and cost (the same tie order) for every pair
/// of zones, on maps whose zones cost 1 or 2 (the bitset search: unit costs with occupied
/// zones costing more or not, costs 1 and 2 mixed, every zone costing 2) and on maps with
/// costlier zones (handed to `path`), also after occupants move.
#[test]
fn zone_path_is_hex_path_for_every_pair() {
    use super::zonebits::ZoneGraph;
    for i in 0..300 {
        let mut rng = GameRng::stream(12, i);
        let mut m = match i % 6 {
            5 => random_map(&mut rng),
            4 | 3 => {
                // Forests and hills: zones of cost 2 among those of cost 1, or only them.
                let mut m = small_unit_map(&mut rng);
                let share = if i % 6 == 3 { 3 } else { 1 };
                for h in m.zones().collect::<Vec<_>>() {
                    if m.cost(h).is_some() && rng.below(share) == 0 {
                        m.set_cost(h, 2).unwrap();
                    }
                }
                m.recost();
                m
            }
            _ => small_unit_map(&mut rng),
        };
        let Some(g) = ZoneGraph::new(&m) else {
            continue;
        };
        let hexes: Vec<Hex> = m.zones().collect();
        if i % 6 == 1 {
            // Occupied zones costing more: the open zones still cost 1.
            for &h in &hexes {
                if m.occupant(h).is_some() && m.cost(h).is_some() {
                    m.set_cost(h, 1 + rng.below(4) as u32).unwrap();
                }
            }
        }
        for round in 0..2 {
            if round == 1 {
                // Occupants come and go: the kept occupancy bits follow.
                for &h in &hexes {
                    match rng.below(6) {
                        0 => m.set_occupant(h, Some(7)).unwrap(),
                        1 => m.set_occupant(h, None).unwrap(),
                        _ => {}
                    }
                }
            }
            for &a in &hexes {
                for &b in &hexes {
                    assert_eq!(
                        m.zone_path(&g, a, b).unwrap(),
                        m.path(a, b).unwrap(),
                        "map {i} round {round}: {a:?} to {b:?}"
                    );
                    // Where the open zones cost 1 or 2 the bitset search answered, not `path`.
                    let bits = m.two_cost_open_bits().is_some() || m.unit_open_bits().is_some();
                    if bits && a != b {
                        assert!(m.bits_zone_path(&g, a, b).is_some(), "map {i}");
                    }
                }
            }
        }
        // Not zones: the same answers (`None`, or the start's error) as `path`.
        let off = Hex::new(100, 100);
        assert_eq!(m.zone_path(&g, hexes[0], off).unwrap(), None);
        assert!(m.zone_path(&g, off, hexes[0]).is_err());
    }
}

/// The occupancy bits the map keeps follow `set_occupant` and `clear_occupants`.
#[test]
fn occupied_bits_follow_the_occupants() {
    for i in 0..100 {
        let mut rng = GameRng::stream(13, i);
        let mut m = small_unit_map(&mut rng);
        let hexes: Vec<Hex> = m.zones().collect();
        for step in 0..40 {
            let h = hexes[rng.below(hexes.len())];
            let who = (rng.below(2) == 0).then_some(step);
            m.set_occupant(h, who).unwrap();
            if step == 30 {
                m.clear_occupants();
            }
            let want = hexes
                .iter()
                .enumerate()
                .filter(|&(_, &h)| m.occupant(h).is_some())
                .fold(0u64, |b, (j, _)| b | 1 << j);
            assert_eq!(m.occupied_bits(), Some(want));
            let open = m.unit_open_bits().unwrap();
            for (j, &h) in hexes.iter().enumerate() {
                assert_eq!(open >> j & 1 == 1, m.is_open(h));
            }
        }
    }
}

#[test]
fn names_in_maps_are_printable_text() {
    // a TOML basic string: every character outside printable ASCII as \uXXXX
    let q = |s: &str| {
        let body: String = s
            .chars()
            .map(|c| match c {
                '"' | '\\' => format!("\\{c}"),
                ' '..='~' => c.to_string(),
                c => format!("\\u{:04X}", c as u32),
            })
            .collect();
        format!("\"{body}\"")
    };
    let map = |name: &str, terrain: &str, tag: &str| {
        let (name, terrain, tag) = (q(name), q(terrain), q(tag));
        format!(
            "name = {name}\npicture = '''\n . x\n'''\n[legend]\n\".\" = \"plain\"\n\"x\" = {{ terrain = {terrain}, tags = [{tag}] }}\n[terrain]\nplain = {{}}\n{terrain} = {{}}\n"
        )
    };
    let ok = text::parse(&map("<b>\"x\"</b> & ★", "mud <i>", "start"), "m").unwrap();
    assert_eq!(ok.name, "<b>\"x\"</b> & ★");
    for (text, field, code) in [
        (map("a\u{1b}[2J", "mud", "t"), "m name", "U+001B"),
        (map("a", "\u{202e}mud", "t"), "[terrain.", "U+202E"),
        (map("a", "mud", "t\u{85}"), "m tag", "U+0085"),
    ] {
        let e = text::parse(&text, "m").unwrap_err().to_string();
        assert!(e.contains(field) && e.contains(code), "{e}");
        assert!(!e.contains('\u{1b}') && !e.contains('\u{85}'), "{e}");
    }
    let mut m = ok.clone();
    assert!(m.set_name(&"x".repeat(65)).is_err());
    assert!(m.set_name("").is_ok());
    assert!(m.add_tag(Hex::new(0, 0), "a\u{7}").is_err());
    assert!(HexMap::new(
        vec![Terrain::new("a\tb", 1, true, false)],
        &[(Hex::ZERO, 0)],
        Orientation::Pointy
    )
    .is_err());
}
