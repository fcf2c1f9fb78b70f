//! Zinordia engine speed: whole random games (the `simulate` path, one thread) in each mode,
//! and the calls a playout or a search makes on a mid-game state (legal actions, check,
//! apply, clone, evaluate).
//!
//! `cargo bench -p kingdoms-bench --bench zinordia`

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench may panic

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use kingdoms_core::simulate::{random_playout, simulate};
use kingdoms_core::zinordia::{Action, Options, Phase, Zinordia};
use kingdoms_core::{Game, GameRng};
use std::hint::black_box;

/// A duel in round 3 of its Main phase, in the middle of a play (moves and activations
/// listed): the state the per-call benches use.
fn midplay() -> Zinordia {
    let opts = Options::default();
    for seed in 1.. {
        let mut g = Zinordia::new(seed, &opts).unwrap();
        let mut rng = GameRng::seed(seed);
        let mut buf = Vec::new();
        while g.current_player().is_some() {
            if g.phase == Phase::Main && g.round >= 3 && g.play.is_some() && g.offers.is_empty() {
                return g;
            }
            g.legal_actions(&mut buf);
            g.apply(*rng.choose(&buf).unwrap()).unwrap();
        }
    }
    unreachable!("some game reaches round 3")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("zinordia");
    for mode in ["duel", "free_for_all", "teams"] {
        let opts = Options {
            mode: mode.into(),
            ..Options::default()
        };
        group.throughput(Throughput::Elements(100));
        group.sample_size(20);
        group.bench_function(format!("simulate 100 random {mode} games, 1 thread"), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                black_box(simulate::<Zinordia>(&opts, 100, seed, 0, Some(1)).unwrap())
            })
        });
    }

    let opts = Options::default();
    group.throughput(Throughput::Elements(1));
    group.sample_size(100);
    group.bench_function("random duel playout", |b| {
        let mut seed = 0u64;
        b.iter_batched(
            || {
                seed += 1;
                (Zinordia::new(seed, &opts).unwrap(), GameRng::seed(seed))
            },
            |(mut g, mut rng)| black_box(random_playout(&mut g, &mut rng).unwrap()),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("new duel", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            black_box(Zinordia::new(seed, &opts).unwrap())
        })
    });

    let g = midplay();
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    let legal = buf.clone();
    group.bench_function("legal actions (mid-play)", |b| {
        b.iter(|| {
            black_box(&g).legal_actions(&mut buf);
            black_box(buf.len())
        })
    });
    group.throughput(Throughput::Elements(legal.len() as u64));
    group.bench_function("check every legal action (mid-play)", |b| {
        b.iter(|| {
            for &a in &legal {
                black_box(black_box(&g).check(a)).unwrap();
            }
        })
    });
    group.bench_function("clone + apply every legal action (mid-play)", |b| {
        b.iter(|| {
            for &a in &legal {
                let mut h = g.clone();
                h.apply_unchecked(a);
                black_box(h.current_player());
            }
        })
    });
    // The path of each legal move (ZN-6.3): the zone-bitset search the engine runs, and
    // HexMap::path it reproduces.
    let from = g.play.and_then(|p| g.stars[p.star].zone).unwrap();
    let targets: Vec<_> = legal
        .iter()
        .filter_map(|&a| match a {
            Action::Move(z) => Some(g.shared.zones[usize::from(z)]),
            _ => None,
        })
        .collect();
    group.throughput(Throughput::Elements(targets.len() as u64));
    group.bench_function("path of every legal move: zone_path (mid-play)", |b| {
        b.iter(|| {
            for &to in &targets {
                black_box(g.board.zone_path(&g.shared.graph, from, to).unwrap());
            }
        })
    });
    group.bench_function("path of every legal move: HexMap::path (mid-play)", |b| {
        b.iter(|| {
            for &to in &targets {
                black_box(g.board.path(from, to).unwrap());
            }
        })
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("clone", |b| b.iter(|| black_box(black_box(&g).clone())));
    group.bench_function("evaluate", |b| b.iter(|| black_box(g.evaluate(0))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
