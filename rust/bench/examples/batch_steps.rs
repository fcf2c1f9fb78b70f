//! `Batch::step` into reused buffers, as `Batch.step(ids, out=buf)` does from Python, for
//! profiling (`valgrind --tool=callgrind`) and for a CPU-time figure without Python around it.
//!
//! ```sh
//! cargo run --release -p kingdoms-bench --example batch_steps -- [GAME [GAMES [STEPS [THREADS [DTYPE [MASK]]]]]]
//! cargo run --release -p kingdoms-bench --example batch_steps -- battleline 1024 300 1 uint8 bits
//! ```
//! Each step plays a uniformly random legal id in every game (chosen outside the timed part
//! from the masks, with a fixed seed) and prints game-steps per second of process CPU time.
//! DTYPE is the observations' type: `float32` (the default) or `uint8` (the compact
//! observation, `Batch(..., obs_dtype="uint8")`); MASK is `bool` (the default, a flag per
//! action id) or `bits` (packed, `Batch(..., mask="bits")`); the same seed plays the same
//! games whatever they are.
//! With `EVICT_MB=32` in the environment, the untimed part also writes 32 MB between steps,
//! evicting the caches as a policy network (or `bench_rl.py`'s numpy chooser) does: the
//! realistic case, where a step's cost is the memory it writes.

mod common;

use kingdoms_core::batch::{new_dyn, AnyViews, Mask, Views};
use kingdoms_core::game::ObsValue;
use kingdoms_core::rng::GameRng;
use kingdoms_core::{Error, Result};
use std::time::Instant;

const USAGE: &str =
    "usage: batch_steps [GAME [GAMES [STEPS [THREADS [float32|uint8 [bool|bits]]]]]]";

fn number(args: &[String], i: usize, default: usize) -> Result<usize> {
    args.get(i).map_or(Ok(default), |t| {
        t.parse()
            .map_err(|_| Error::invalid(format!("argument {i} must be a whole number\n{USAGE}")))
    })
}

fn cpu_seconds() -> f64 {
    cpu_time::ProcessTime::now().as_duration().as_secs_f64()
}

/// The masks: flags, or packed bits when `bits` is non-empty.
struct Masks {
    flags: Vec<bool>,
    bits: Vec<u8>,
}

impl Masks {
    fn view(&mut self) -> Mask<'_> {
        if self.bits.is_empty() {
            Mask::Bools(&mut self.flags)
        } else {
            Mask::Bits(&mut self.bits)
        }
    }

    /// Whether id `a` of game `i` is legal (`na` action ids).
    fn legal(&self, i: usize, a: usize, na: usize) -> bool {
        if self.bits.is_empty() {
            self.flags[i * na + a]
        } else {
            self.bits[i * na.div_ceil(8) + a / 8] >> (a % 8) & 1 == 1
        }
    }
}

/// Reused buffers, not zeroed between calls (as `Batch.step(..., out=buf)` passes them).
fn views<'a, T: ObsValue>(
    obs: &'a mut [T],
    mask: &'a mut Masks,
    player: &'a mut [i64],
) -> Views<'a, T> {
    Views {
        obs,
        mask: mask.view(),
        player,
        final_obs: &mut [],
        zeroed: std::env::var_os("NOCLEAR").is_some(),
    }
}

fn run(args: &[String]) -> Result<String> {
    match args.get(4).map_or("float32", String::as_str) {
        "float32" => run_as::<f32>(args),
        "uint8" => run_as::<u8>(args),
        other => Err(Error::invalid(format!(
            "DTYPE must be float32 or uint8, not {other:?}\n{USAGE}"
        ))),
    }
}

fn run_as<T: ObsValue>(args: &[String]) -> Result<String>
where
    for<'a> AnyViews<'a>: From<Views<'a, T>>,
{
    let game = args.first().map_or("battleline", String::as_str);
    let (n, steps, threads) = (
        number(args, 1, 1024)?,
        number(args, 2, 300)?,
        number(args, 3, 1)?,
    );
    let mut batch = new_dyn(game, &Default::default(), n, 1, None, None, Some(threads))?;
    let (ol, na, np) = (
        batch.obs_shape().iter().product::<usize>(),
        batch.num_actions(),
        batch.num_players(),
    );
    let bits = match args.get(5).map_or("bool", String::as_str) {
        "bool" => false,
        "bits" => true,
        other => {
            return Err(Error::invalid(format!(
                "MASK must be bool or bits, not {other:?}\n{USAGE}"
            )))
        }
    };
    let mut mask = Masks {
        flags: if bits {
            Vec::new()
        } else {
            vec![false; n * na]
        },
        bits: if bits {
            vec![0; n * na.div_ceil(8)]
        } else {
            Vec::new()
        },
    };
    let (mut obs, mut player) = (vec![T::ZERO; n * ol], vec![0i64; n]);
    let (mut rewards, mut dones, mut actions) = (vec![0f32; n * np], vec![false; n], vec![0i64; n]);
    batch.reset(None, views(&mut obs, &mut mask, &mut player).into())?;
    let mut rng = GameRng::seed(0);
    let mut legal = Vec::new();
    let evict_mb: usize = std::env::var("EVICT_MB")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    let mut evict = vec![0u8; evict_mb << 20];
    let (mut cpu, mut wall) = (0.0, 0.0);
    for _ in 0..steps {
        for (i, a) in actions.iter_mut().enumerate() {
            legal.clear();
            legal.extend(
                (0..na)
                    .filter(|&id| mask.legal(i, id, na))
                    .map(|id| id as i64),
            );
            *a = rng.choose(&legal).copied().unwrap_or(0);
        }
        for (i, x) in evict.iter_mut().enumerate() {
            *x = x.wrapping_add(i as u8);
        }
        std::hint::black_box(&evict);
        let (c, w) = (cpu_seconds(), Instant::now());
        batch.step(
            &actions,
            views(&mut obs, &mut mask, &mut player).into(),
            &mut rewards,
            &mut dones,
        )?;
        cpu += cpu_seconds() - c;
        wall += w.elapsed().as_secs_f64();
    }
    let total = (n * steps) as f64;
    Ok(format!(
        "{game}: {n} games x {steps} steps on {threads} thread(s), {} observations, {} masks: \
         {:.0} steps/s (cpu), \
         {:.0} steps/s (wall), {} games finished",
        if T::COMPACT { "uint8" } else { "float32" },
        if mask.bits.is_empty() { "bool" } else { "bits" },
        total / cpu,
        total / wall,
        batch.episodes_finished()
    ))
}

fn main() {
    common::main(run);
}
