//! Fits the weights of Arte da Guerra's `evaluate` (a win probability: a logistic over a
//! few differences between the sides; `arte/evaluate.rs`) to the results of played games, by
//! maximum likelihood.
//!
//! ```sh
//! cargo run --release --example arte_fit -- GAMES [SEED [STEPS]]
//! cargo run --release --example arte_fit -- 4000 1
//! ```
//! GAMES games (default options) from deals `SEED * 1_000_003 + i`, played by the heuristic
//! player, each player making a uniformly random legal move instead with probability 0, 0.1
//! or 0.25 (by game), so the positions vary and no agent that reads `evaluate` shapes them:
//! the data, and so the fit, are the same whatever the weights built in. Every decision
//! gives one sample: the true state's model inputs (an attack in progress resolved by the
//! defender's best answer, as `evaluate` reads it) and the game's result for player 0 (1
//! win, 0 loss; Arte has no draws). Every fifth game is held out. The fit minimises the
//! log-loss of `sigmoid(w · x)` on the other games (Newton's method, STEPS steps, default
//! 20), every weight at least zero (the most negative input fixed at zero and the fit
//! repeated, until none is negative); it prints the log-loss and Brier score of the engine's `evaluate` (mapped to a
//! probability, `(value + 1) / 2`), of the weights built in and of the fitted ones on both
//! sets, the same by phase on the held-out games, and the fitted weights as Rust.

// The Newton step's small linear algebra reads clearest with indices.
#![allow(clippy::needless_range_loop)]

use kingdoms_core::arte::evaluate::{sigmoid, value_of, Inputs, INPUT_NAMES, NUM_INPUTS, WEIGHTS};
use kingdoms_core::arte::{Arte, Phase};
use kingdoms_core::{Error, Game, GameRng, Result};

const USAGE: &str = "usage: arte_fit GAMES [SEED [STEPS]]";
/// Chance of a random move instead of the heuristic one, by game (`i % 3`).
const EPSILON: [f64; 3] = [0.0, 0.1, 0.25];
/// A small ridge on the weights, so that an input that never varies stays at zero.
const RIDGE: f64 = 1e-4;

struct Sample {
    inputs: Inputs,
    /// Player 0's result: 1 win, 0 loss (0.5 for a drawn hand-built game).
    y: f64,
    /// The engine's `evaluate(0)` there (the weights built in, or any other evaluate).
    engine: f64,
    phase: Phase,
    held_out: bool,
}

fn number<T: std::str::FromStr>(args: &[String], i: usize, default: T) -> Result<T> {
    match args.get(i) {
        None => Ok(default),
        Some(text) => text.parse().map_err(|_| Error::invalid(USAGE)),
    }
}

/// One game's samples.
fn play(seed: u64, i: u64) -> Result<Vec<Sample>> {
    let deal = seed.wrapping_mul(1_000_003).wrapping_add(i);
    let mut g = Arte::new(deal, &Default::default())?;
    let mut rng = GameRng::seed(deal ^ 0x0a27_e5f1);
    let epsilon = EPSILON[(i % 3) as usize];
    let mut seen = Vec::new();
    let mut legal = Vec::new();
    while let Some(p) = g.current_player() {
        let inputs = g
            .attack_resolved()
            .unwrap_or_else(|| g.clone())
            .eval_inputs();
        seen.push((inputs, g.evaluate(0), g.phase()));
        g.legal_actions(&mut legal);
        let a = if rng.unit() < epsilon {
            *rng.choose(&legal)
                .ok_or_else(|| Error::invalid("no legal move"))?
        } else {
            let view = g.resample_hidden(p, rng.next_u64());
            view.heuristic_action(&mut rng)
                .ok_or_else(|| Error::invalid("no heuristic move"))?
        };
        g.apply(a)?;
    }
    let y = (g.returns()[0] + 1.0) / 2.0;
    Ok(seen
        .into_iter()
        .map(|(inputs, engine, phase)| Sample {
            inputs,
            engine,
            phase,
            y,
            held_out: i % 5 == 4,
        })
        .collect())
}

/// Mean log-loss and Brier score of a probability on the samples chosen.
fn scores<'a>(
    samples: impl Iterator<Item = &'a Sample>,
    prob: impl Fn(&Sample) -> f64,
) -> (f64, f64, usize) {
    let (mut ll, mut brier, mut n) = (0.0, 0.0, 0);
    for s in samples {
        let q = prob(s).clamp(1e-12, 1.0 - 1e-12);
        ll -= s.y * q.ln() + (1.0 - s.y) * (1.0 - q).ln();
        brier += (q - s.y) * (q - s.y);
        n += 1;
    }
    let n1 = n.max(1) as f64;
    (ll / n1, brier / n1, n)
}

/// One Newton step on the mean training log-loss (with the ridge) over the inputs `free`
/// (the others stay at zero); returns the loss before it.
fn newton(train: &[&Sample], w: &mut [f64; NUM_INPUTS], free: &[bool; NUM_INPUTS]) -> f64 {
    let k = NUM_INPUTS;
    let mut grad = [0.0f64; NUM_INPUTS];
    let mut hess = [[0.0f64; NUM_INPUTS]; NUM_INPUTS];
    let mut loss = 0.0;
    for s in train {
        let z: f64 = s.inputs.x.iter().zip(w.iter()).map(|(x, w)| x * w).sum();
        let q = sigmoid(z).clamp(1e-12, 1.0 - 1e-12);
        loss -= s.y * q.ln() + (1.0 - s.y) * (1.0 - q).ln();
        let r = q * (1.0 - q);
        for i in 0..k {
            grad[i] += (q - s.y) * s.inputs.x[i];
            for j in 0..k {
                hess[i][j] += r * s.inputs.x[i] * s.inputs.x[j];
            }
        }
    }
    let n = train.len() as f64;
    for i in 0..k {
        grad[i] = grad[i] / n + RIDGE * w[i];
        for j in 0..k {
            hess[i][j] /= n;
        }
        hess[i][i] += RIDGE;
        if !free[i] {
            // A fixed input: no gradient, and its row and column out of the system.
            grad[i] = 0.0;
            for j in 0..k {
                hess[i][j] = 0.0;
                hess[j][i] = 0.0;
            }
            hess[i][i] = 1.0;
        }
    }
    // Solve hess · step = grad by Gauss-Jordan elimination with partial pivoting.
    let mut step = grad;
    for c in 0..k {
        let p = (c..k)
            .max_by(|&a, &b| hess[a][c].abs().total_cmp(&hess[b][c].abs()))
            .unwrap_or(c);
        hess.swap(c, p);
        step.swap(c, p);
        let d = hess[c][c];
        for j in 0..k {
            hess[c][j] /= d;
        }
        step[c] /= d;
        for r in 0..k {
            if r != c {
                let f = hess[r][c];
                for j in 0..k {
                    hess[r][j] -= f * hess[c][j];
                }
                step[r] -= f * step[c];
            }
        }
    }
    for i in 0..k {
        w[i] -= step[i];
    }
    loss / n
}

fn report(samples: &[Sample], fitted: &[f64; NUM_INPUTS]) {
    let p_engine = |s: &Sample| (s.engine + 1.0) / 2.0;
    let p_built = |s: &Sample| (value_of(&s.inputs, &WEIGHTS) + 1.0) / 2.0;
    let p_fitted = |s: &Sample| (value_of(&s.inputs, fitted) + 1.0) / 2.0;
    for (set, held) in [("training", false), ("held-out", true)] {
        let chosen = || samples.iter().filter(move |s| s.held_out == held);
        let (ll, brier, n) = scores(chosen(), p_engine);
        println!("engine evaluate, {set}: log-loss {ll:.4}, Brier {brier:.4} ({n} positions)");
        let (ll, brier, _) = scores(chosen(), p_built);
        println!("built-in weights, {set}: log-loss {ll:.4}, Brier {brier:.4}");
        let (ll, brier, _) = scores(chosen(), p_fitted);
        println!("fitted weights, {set}: log-loss {ll:.4}, Brier {brier:.4}");
    }
    println!("held-out, by phase (engine / fitted log-loss):");
    for phase in [
        Phase::Draft,
        Phase::Terrain,
        Phase::Deploy,
        Phase::Combat,
        Phase::SuddenDeath,
    ] {
        let chosen = || {
            samples
                .iter()
                .filter(move |s| s.held_out && s.phase == phase)
        };
        let (e, _, n) = scores(chosen(), p_engine);
        let (f, _, _) = scores(chosen(), p_fitted);
        println!("  {phase:?}: {e:.4} / {f:.4} ({n} positions)");
    }
}

fn run(args: &[String]) -> Result<()> {
    let games: u64 = number(args, 0, 4000)?;
    let seed: u64 = number(args, 1, 1)?;
    let steps: usize = number(args, 2, 20)?;
    let start = std::time::Instant::now();
    let mut samples = Vec::new();
    for i in 0..games {
        samples.extend(play(seed, i)?);
    }
    let (wins, n) = samples.iter().fold((0.0, 0), |(w, n), s| (w + s.y, n + 1));
    println!(
        "{games} games (seed {seed}), {n} positions, player 0's mean result {:.3}, in {:.1} s",
        wins / n as f64,
        start.elapsed().as_secs_f64()
    );
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    // Every input is an edge of player 0's, so none may count against it: an input whose
    // weight comes out negative (a correlate of the heuristic players' games, not of what
    // wins) is fixed at zero and the rest fitted again, until every weight is at least zero.
    let mut w: [f64; NUM_INPUTS];
    let mut free = [true; NUM_INPUTS];
    loop {
        w = [0.0; NUM_INPUTS];
        let mut loss = 0.0;
        for _ in 0..steps {
            loss = newton(&train, &mut w, &free);
        }
        let negative: Vec<usize> = (0..NUM_INPUTS).filter(|&i| free[i] && w[i] < 0.0).collect();
        println!(
            "training log-loss {loss:.5}; negative: {:?}",
            negative.iter().map(|&i| INPUT_NAMES[i]).collect::<Vec<_>>()
        );
        let Some(&worst) = negative.iter().min_by(|&&a, &&b| w[a].total_cmp(&w[b])) else {
            break;
        };
        free[worst] = false;
    }
    report(&samples, &w);
    for (name, x) in INPUT_NAMES.iter().zip(&w) {
        println!("  {name}: {x:.3}");
    }
    let f = w.map(|x| format!("{x:.3}")).join(", ");
    println!("pub const WEIGHTS: [f64; NUM_INPUTS] = [{f}];");
    println!("{:.1} s in all", start.elapsed().as_secs_f64());
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("{e}");
        std::process::exit(2);
    }
}
