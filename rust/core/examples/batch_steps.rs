//! `Batch::step` into reused buffers, as `Batch.step(ids, out=buf)` does from Python, for
//! profiling (`valgrind --tool=callgrind`) and for a CPU-time figure without Python around it.
//!
//! ```sh
//! cargo run --release --example batch_steps -- [GAME [GAMES [STEPS [THREADS]]]]
//! cargo run --release --example batch_steps -- battleline 1024 300 1
//! ```
//! Each step plays a uniformly random legal id in every game (chosen outside the timed part
//! from the masks, with a fixed seed) and prints game-steps per second of process CPU time.

use kingdoms_core::agents::batch::{new_dyn, Views};
use kingdoms_core::rng::GameRng;
use kingdoms_core::{Error, Result};
use std::time::Instant;

const USAGE: &str = "usage: batch_steps [GAME [GAMES [STEPS [THREADS]]]]";

fn number(args: &[String], i: usize, default: usize) -> Result<usize> {
    args.get(i).map_or(Ok(default), |t| {
        t.parse()
            .map_err(|_| Error::invalid(format!("argument {i} must be a whole number\n{USAGE}")))
    })
}

fn cpu_seconds() -> f64 {
    cpu_time::ProcessTime::now().as_duration().as_secs_f64()
}

/// Reused buffers, not zeroed between calls (as `Batch.step(..., out=buf)` passes them).
fn views<'a>(obs: &'a mut [f32], mask: &'a mut [bool], player: &'a mut [i64]) -> Views<'a> {
    Views {
        obs,
        mask,
        player,
        final_obs: &mut [],
        zeroed: std::env::var_os("NOCLEAR").is_some(),
    }
}

fn run(args: &[String]) -> Result<String> {
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
    let (mut obs, mut mask, mut player) = (vec![0f32; n * ol], vec![false; n * na], vec![0i64; n]);
    let (mut rewards, mut dones, mut actions) = (vec![0f32; n * np], vec![false; n], vec![0i64; n]);
    batch.reset(None, views(&mut obs, &mut mask, &mut player))?;
    let mut rng = GameRng::seed(0);
    let mut legal = Vec::new();
    let (mut cpu, mut wall) = (0.0, 0.0);
    for _ in 0..steps {
        for (a, m) in actions.iter_mut().zip(mask.chunks(na)) {
            legal.clear();
            legal.extend(
                m.iter()
                    .enumerate()
                    .filter(|(_, &b)| b)
                    .map(|(i, _)| i as i64),
            );
            *a = rng.choose(&legal).copied().unwrap_or(0);
        }
        let (c, w) = (cpu_seconds(), Instant::now());
        batch.step(
            &actions,
            views(&mut obs, &mut mask, &mut player),
            &mut rewards,
            &mut dones,
        )?;
        cpu += cpu_seconds() - c;
        wall += w.elapsed().as_secs_f64();
    }
    let total = (n * steps) as f64;
    Ok(format!(
        "{game}: {n} games x {steps} steps on {threads} thread(s): {:.0} steps/s (cpu), \
         {:.0} steps/s (wall), {} games finished",
        total / cpu,
        total / wall,
        batch.episodes_finished()
    ))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(line) => println!("{line}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
