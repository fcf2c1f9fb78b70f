//! Arte da Guerra engine speed: whole random games (the `simulate` path, one thread), single
//! steps, and the calls search agents make (clone, determinize, evaluate, serialize).
//!
//! `cargo bench -p kingdoms-bench --bench arte`

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench may panic

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use kingdoms_core::arte::{Arte, Options};
use kingdoms_core::simulate::{random_playout, simulate};
use kingdoms_core::{Game, GameRng};
use std::hint::black_box;

/// A state in the middle of a game (round 2 combat), for the per-call benches.
fn midgame() -> Arte {
    let mut g = Arte::new(42, &Options::default()).unwrap();
    let mut rng = GameRng::seed(42);
    let mut buf = Vec::new();
    while g.to_json()["round"].as_u64() != Some(2) || g.to_json()["phase"] != "combat" {
        g.legal_actions(&mut buf);
        g.apply(*rng.choose(&buf).unwrap()).unwrap();
    }
    g
}

fn bench(c: &mut Criterion) {
    let opts = Options::default();
    let mut group = c.benchmark_group("arte");

    group.throughput(Throughput::Elements(1000));
    group.sample_size(20);
    group.bench_function("simulate 1000 random games, 1 thread", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            black_box(simulate::<Arte>(&opts, 1000, seed, 0, Some(1)).unwrap())
        })
    });

    group.throughput(Throughput::Elements(1));
    group.sample_size(100);
    group.bench_function("random playout", |b| {
        let mut seed = 0u64;
        b.iter_batched(
            || {
                seed += 1;
                (Arte::new(seed, &opts).unwrap(), GameRng::seed(seed))
            },
            |(mut g, mut rng)| black_box(random_playout(&mut g, &mut rng).unwrap()),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("new game", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            black_box(Arte::new(seed, &opts).unwrap())
        })
    });

    let g = midgame();
    let mut buf = Vec::new();
    group.bench_function("legal actions (midgame)", |b| {
        b.iter(|| {
            black_box(&g).legal_actions(&mut buf);
            black_box(buf.len())
        })
    });
    group.bench_function("clone", |b| b.iter(|| black_box(black_box(&g).clone())));
    group.bench_function("resample_hidden", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            black_box(g.resample_hidden(0, seed))
        })
    });
    group.bench_function("evaluate", |b| b.iter(|| black_box(g.evaluate(0))));
    group.bench_function("observation", |b| {
        let mut out = vec![0.0f32; g.observation_shape().iter().product()];
        b.iter(|| {
            out.fill(0.0);
            g.observation(0, &mut out);
            black_box(out[0])
        })
    });
    group.bench_function("to_json", |b| b.iter(|| black_box(g.to_json())));
    let json = g.to_json();
    group.bench_function("from_json", |b| {
        b.iter(|| black_box(Arte::from_json(black_box(&json)).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
