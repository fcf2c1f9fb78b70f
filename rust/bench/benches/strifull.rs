//! Random playouts of STRIFULL: whole games (setup included) and the core operations.
//! `cargo bench -p kingdoms-bench --bench strifull`

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench may panic

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use kingdoms_core::simulate::random_playout;
use kingdoms_core::strifull::{Options, Strifull};
use kingdoms_core::{Game, GameRng};

fn playouts(c: &mut Criterion) {
    let opts = Options::default();
    let mut group = c.benchmark_group("strifull");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function("random_game", |b| {
        b.iter_batched(
            || {
                seed += 1;
                (Strifull::new(seed, &opts).unwrap(), GameRng::seed(seed))
            },
            |(mut g, mut rng)| random_playout(&mut g, &mut rng).unwrap(),
            BatchSize::SmallInput,
        )
    });
    let random_decks = Options {
        decks: [
            kingdoms_core::strifull::DeckChoice::Random,
            kingdoms_core::strifull::DeckChoice::Random,
        ],
        ..Options::default()
    };
    group.bench_function("random_game_random_decks", |b| {
        b.iter_batched(
            || {
                seed += 1;
                (
                    Strifull::new(seed, &random_decks).unwrap(),
                    GameRng::seed(seed),
                )
            },
            |(mut g, mut rng)| random_playout(&mut g, &mut rng).unwrap(),
            BatchSize::SmallInput,
        )
    });
    // One mid-game position: move generation and cloning.
    let mut g = Strifull::new(7, &opts).unwrap();
    let mut rng = GameRng::seed(7);
    let mut buf = Vec::new();
    for _ in 0..40 {
        g.legal_actions(&mut buf);
        let a = *rng.choose(&buf).unwrap();
        g.apply(a).unwrap();
    }
    group.throughput(Throughput::Elements(1));
    group.bench_function("legal_actions_midgame", |b| {
        b.iter(|| {
            g.legal_actions(&mut buf);
            buf.len()
        })
    });
    group.bench_function("clone", |b| b.iter(|| g.clone()));
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
