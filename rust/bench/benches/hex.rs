//! The hex searches against the `pathfinding` crate (generic Dijkstra / A* over `Hex` nodes
//! with a successor closure, as one would use it on a `HexMap`), on a 64-zone and a
//! 100,000-zone map. `cargo bench -p kingdoms-bench --bench hex`; figures in docs/hex.md.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench may panic

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use kingdoms_core::hex::coords::{self, distance, Hex};
use kingdoms_core::hex::{HexMap, Orientation, Parity};
use kingdoms_core::GameRng;
use std::hint::black_box;

/// A `width x height` rectangle (odd rows shoved right), ~15% obstacles, costs 1-3: the map
/// of benches/bench_hex.py, with its own random draw.
fn make(width: i32, height: i32) -> (HexMap, Hex, Hex) {
    let mut rng = GameRng::seed(1);
    let mut cells = Vec::new();
    for row in 0..height {
        for col in 0..width {
            let h = coords::from_offset([col, row], Orientation::Pointy, Parity::Odd);
            let cost = if rng.below(100) < 15 {
                None
            } else {
                Some(1 + rng.below(3) as u32)
            };
            cells.push((h, cost));
        }
    }
    let a = coords::from_offset([0, 0], Orientation::Pointy, Parity::Odd);
    let b = coords::from_offset([width - 1, height - 1], Orientation::Pointy, Parity::Odd);
    cells.push((a, Some(1)));
    cells.push((b, Some(1)));
    (HexMap::from_costs(&cells).unwrap(), a, b)
}

fn successors(m: &HexMap, h: Hex) -> impl Iterator<Item = (Hex, u64)> + '_ {
    coords::neighbors(h)
        .into_iter()
        .filter(|&n| m.is_open(n))
        .filter_map(|n| m.cost(n).map(|c| (n, c as u64)))
}

fn bench(c: &mut Criterion) {
    for (name, w, h, budget) in [("small", 8, 8, 6u64), ("large", 400, 250, u64::MAX)] {
        let (m, a, b) = make(w, h);
        // Same answers first.
        let ours = m.reachable(a, budget).unwrap().len();
        let theirs = pathfinding::prelude::dijkstra_reach(&a, |&n| successors(&m, n))
            .take_while(|i| i.total_cost <= budget)
            .count();
        assert_eq!(ours, theirs);
        let ours = m.path(a, b).unwrap().map(|p| p.1);
        let theirs = pathfinding::prelude::astar(
            &a,
            |&n| successors(&m, n),
            |&n| distance(n, b) as u64,
            |&n| n == b,
        )
        .map(|p| p.1);
        assert_eq!(ours, theirs);

        let mut g = c.benchmark_group(format!("hex {name}"));
        g.sample_size(if name == "large" { 20 } else { 100 });
        g.bench_function(BenchmarkId::new("reachable", "kingdoms"), |bn| {
            bn.iter(|| black_box(m.reachable_cells(a, budget).unwrap().len()))
        });
        g.bench_function(BenchmarkId::new("reachable", "pathfinding"), |bn| {
            bn.iter(|| {
                black_box(
                    pathfinding::prelude::dijkstra_reach(&a, |&n| successors(&m, n))
                        .take_while(|i| i.total_cost <= budget)
                        .count(),
                )
            })
        });
        g.bench_function(BenchmarkId::new("path", "kingdoms"), |bn| {
            bn.iter(|| black_box(m.path(a, b).unwrap()))
        });
        g.bench_function(BenchmarkId::new("path", "pathfinding"), |bn| {
            bn.iter(|| {
                black_box(pathfinding::prelude::astar(
                    &a,
                    |&n| successors(&m, n),
                    |&n| distance(n, b) as u64,
                    |&n| n == b,
                ))
            })
        });
        g.bench_function(BenchmarkId::new("line", "kingdoms"), |bn| {
            bn.iter(|| black_box(coords::line(a, b)))
        });
        g.bench_function(BenchmarkId::new("line", "hexx"), |bn| {
            bn.iter(|| black_box(a.line_to(b).collect::<Vec<_>>()))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
