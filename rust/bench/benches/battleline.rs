//! Battle Line speed: claim proofs (typical and worst case) and uniformly random games.
//!
//! `cargo bench -p kingdoms-bench --bench battleline`
//!
//! Times are the process's CPU time (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`), not wall
//! time: on a shared 2-core machine other processes stretch wall time several-fold, while
//! CPU time measures the work done. On an idle machine the two agree.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench may panic
#![allow(unsafe_code)] // the CPU clock (clock_gettime); never in shipped code

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use kingdoms_core::battleline::cards::parse_cards;
use kingdoms_core::battleline::proof::prove_unchecked;
use kingdoms_core::battleline::{BattleLine, Card, Options};
use kingdoms_core::simulate::{random_playout, simulate};
use kingdoms_core::{Game, GameRng};
use std::hint::black_box;

fn cards(s: &str) -> Vec<Card> {
    parse_cards(&s.split_whitespace().collect::<Vec<_>>()).unwrap()
}

fn bits(cs: &[Card]) -> u64 {
    cs.iter().fold(0, |a, c| a | 1 << c.0)
}

/// Troops not in `visible`.
fn unseen(visible: &str) -> u64 {
    ((1u64 << 60) - 1) & !bits(&cards(visible))
}

/// Process CPU time in nanoseconds.
fn cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux supports.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Criterion measurement: process CPU time.
pub struct CpuTime;

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        cpu_ns().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (div, unit) = if typical < 1e3 {
            (1.0, "ns")
        } else if typical < 1e6 {
            (1e3, "µs")
        } else if typical < 1e9 {
            (1e6, "ms")
        } else {
            (1e9, "s")
        };
        for v in values {
            *v /= div;
        }
        unit
    }
    fn scale_throughputs(&self, typical: f64, t: &Throughput, values: &mut [f64]) -> &'static str {
        let n = match t {
            Throughput::Elements(n)
            | Throughput::Bytes(n)
            | Throughput::BytesDecimal(n)
            | Throughput::Bits(n) => *n as f64,
        };
        let per_s = n * 1e9 / typical;
        let (div, unit) = if per_s < 1e3 {
            (1.0, "elem/s (CPU)")
        } else if per_s < 1e6 {
            (1e3, "Kelem/s (CPU)")
        } else {
            (1e6, "Melem/s (CPU)")
        };
        for v in values {
            *v = n * 1e9 / *v / div;
        }
        unit
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

fn proofs(c: &mut Criterion<CpuTime>) {
    let mut g = c.benchmark_group("battleline/proof");
    g.throughput(Throughput::Elements(1));
    // Typical: both sides on the table, the opponent one card short, a mid-game pool.
    let mine = cards("R7 O7 Y7");
    let theirs = cards("B9 B8");
    let pool = unseen("R7 O7 Y7 B9 B8 G1 G2 P5 P6 R1 O4 Y10 B2 G9 P10");
    g.bench_function("typical_one_short", |b| {
        b.iter(|| {
            prove_unchecked(
                black_box(&mine),
                black_box(&theirs),
                black_box(pool),
                false,
                false,
                true,
            )
        })
    });
    let theirs2 = cards("B1 G5 P9");
    g.bench_function("typical_both_complete", |b| {
        b.iter(|| {
            prove_unchecked(
                black_box(&mine),
                black_box(&theirs2),
                black_box(pool),
                false,
                false,
                true,
            )
        })
    });
    let wild = cards("Alexander R9 R8");
    let theirs3 = cards("Cavalry");
    g.bench_function("typical_wild_cards", |b| {
        b.iter(|| {
            prove_unchecked(
                black_box(&wild),
                black_box(&theirs3),
                black_box(pool),
                false,
                false,
                true,
            )
        })
    });
    // Worst case: opponent's side empty, Mud (4 cards), the full pool, a host to beat (every
    // kind is searched).
    let mine4 = cards("R1 O3 Y5 G9");
    let full = unseen("R1 O3 Y5 G9");
    g.bench_function("worst_empty_side_mud", |b| {
        b.iter(|| {
            prove_unchecked(
                black_box(&mine4),
                black_box(&[]),
                black_box(full),
                false,
                true,
                true,
            )
        })
    });
    let mine4w = cards("R10 R9 R8 R7");
    let full_w = unseen("R10 R9 R8 R7");
    g.bench_function("worst_empty_side_mud_wedge", |b| {
        b.iter(|| {
            prove_unchecked(
                black_box(&mine4w),
                black_box(&[]),
                black_box(full_w),
                false,
                true,
                true,
            )
        })
    });
    g.finish();
}

fn games(c: &mut Criterion<CpuTime>) {
    let mut g = c.benchmark_group("battleline/game");
    g.throughput(Throughput::Elements(1));
    let opts = Options::default();
    let mut seed = 0u64;
    g.bench_function("random_playout", |b| {
        b.iter_batched(
            || {
                seed += 1;
                (
                    BattleLine::new(seed, &opts).unwrap(),
                    GameRng::stream(seed, 1),
                )
            },
            |(mut game, mut rng)| random_playout(&mut game, &mut rng).unwrap(),
            BatchSize::SmallInput,
        )
    });
    // The batch simulator on one thread (includes set-up).
    g.throughput(Throughput::Elements(1000));
    g.sample_size(20);
    g.bench_function("simulate_1000_games_1_thread", |b| {
        b.iter(|| simulate::<BattleLine>(&opts, 1000, black_box(7), 0, Some(1)).unwrap())
    });
    g.finish();
    let _ = BattleLine::new(0, &opts).map(|x| x.num_actions());
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = proofs, games
}
criterion_main!(benches);
