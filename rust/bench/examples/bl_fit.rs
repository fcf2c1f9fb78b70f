//! Fits the weights of Battle Line's `evaluate` (a win probability: per-flag log-odds from
//! a few inputs, combined under the game's winning conditions; `battleline/evaluate.rs`)
//! to the results of played games, by maximum likelihood (Texel-style tuning).
//!
//! ```sh
//! cargo run --release -p kingdoms-bench --example bl_fit -- GAMES [SEED [STEPS [PLAYERS [THREADS]]]]
//! cargo run --release -p kingdoms-bench --example bl_fit -- 3000 1
//! cargo run --release -p kingdoms-bench --example bl_fit -- 1500 1 300 heuristic+greedy
//! ```
//! GAMES games (default options) from deals `SEED * 1_000_003 + i`, played by the heuristic
//! player, each player making a uniformly random legal move instead with probability 0, 0.1
//! or 0.25 (by game), so the positions vary and no agent that reads `evaluate` shapes them:
//! the data, and so the fit, are the same whatever the weights built in. Every position at
//! a play step gives one sample: the true state's model inputs (both hands, the whole world
//! `evaluate` judges) and the game's result for player 0 (1 win, 0.5 draw, 0 loss). Every
//! fifth game is held out. The fit minimises the log-loss of `(value + 1) / 2` on the other
//! games (Adam, full batch, STEPS steps, default 300); it prints the log-loss and Brier
//! score of the built-in weights and of the fitted ones on both sets, the per-flag log-loss
//! on the flags that were claimed by the game's end, and the fitted weights as Rust.
//!
//! PLAYERS (default `heuristic`): who plays the games, `+`-separated agent specs as on the
//! command line (`heuristic+greedy`, `ismcts:100`); game `i` is played by the `i % n`th
//! on both seats (with three players, each keeps one rate of random moves).
//! `heuristic` is the rule-based player as above; any other agent reads `evaluate`, so its
//! games, and the fit, depend on the weights built in. The scores are also printed for
//! each player's positions, so a fit on one kind of play can be checked on the other.
//!
//! THREADS (default: all cores) play the games; each game depends only on its index, so
//! the samples, and the fit, are the same whatever the count.

use kingdoms_core::battleline::evaluate::{
    sigmoid, value_of, FlagInputs, Weights, NUM_INPUTS, OUTCOME, WEIGHTS,
};
use kingdoms_core::battleline::{BattleLine, Phase};
use kingdoms_core::search::AgentSpec;
use kingdoms_core::Knowledge;
use kingdoms_core::{Error, Game, GameRng, Result};

const USAGE: &str = "usage: bl_fit GAMES [SEED [STEPS [PLAYERS [THREADS]]]]";
const FLAGS: usize = 9;
const PARAMS: usize = NUM_INPUTS + 2;
/// Chance of a random move instead of the heuristic one, by game (`i % 3`).
const EPSILON: [f64; 3] = [0.0, 0.1, 0.25];

struct Sample {
    inputs: FlagInputs,
    /// Player 0's result: 1 win, 0.5 draw, 0 loss.
    y: f64,
    /// Who claimed each flag by the game's end (bit per flag, per player).
    claimed: [u16; 2],
    /// The engine's `evaluate_for(0)` there (the weights built in).
    engine: f64,
    held_out: bool,
    /// Which of PLAYERS played the game.
    player: usize,
}

fn number<T: std::str::FromStr>(args: &[String], i: usize, default: T) -> Result<T> {
    match args.get(i) {
        None => Ok(default),
        Some(text) => text.parse().map_err(|_| Error::invalid(USAGE)),
    }
}

/// One game's samples, played by `players[i % n]` (None: the heuristic player).
fn play(seed: u64, i: u64, players: &[Option<AgentSpec>]) -> Result<Vec<Sample>> {
    let deal = seed.wrapping_mul(1_000_003).wrapping_add(i);
    let mut g = BattleLine::new(deal, &Default::default())?;
    let mut rng = GameRng::seed(deal ^ 0x05ee_df17);
    let epsilon = EPSILON[(i % 3) as usize];
    let player = (i % players.len() as u64) as usize;
    let mut agents: Vec<_> = (0..2u64)
        .filter_map(|seat| {
            players[player]
                .as_ref()
                .map(|s| s.build::<BattleLine>(deal ^ seat))
        })
        .collect();
    let mut inputs = Vec::new();
    let mut legal = Vec::new();
    while let Some(p) = g.current_player() {
        if g.phase() == Phase::Play {
            inputs.push((g.flag_inputs(), g.evaluate_for(0)?));
        }
        g.legal_actions(&mut legal);
        let a = if rng.unit() < epsilon {
            *rng.choose(&legal)
                .ok_or_else(|| Error::invalid("no legal move"))?
        } else if let Some(agent) = agents.get_mut(p) {
            agent.act(&g)?
        } else {
            let view = g.resample_hidden(p, rng.next_u64());
            view.heuristic_action(&mut rng)
                .ok_or_else(|| Error::invalid("no heuristic move"))?
        };
        g.apply(a)?;
    }
    let y = (g.returns()[0] + 1.0) / 2.0;
    let mut claimed = [0u16; 2];
    for (f, fl) in g.flags().iter().enumerate() {
        if let Some(p) = fl.claimed {
            claimed[p as usize & 1] |= 1 << f;
        }
    }
    Ok(inputs
        .into_iter()
        .map(|(inputs, engine)| Sample {
            inputs,
            engine,
            y,
            claimed,
            held_out: i % 5 == 4,
            player,
        })
        .collect())
}

fn weights(theta: &[f64; PARAMS]) -> Weights {
    Weights {
        flag: std::array::from_fn(|k| theta[k]),
        proved: theta[NUM_INPUTS],
        sharp: theta[NUM_INPUTS + 1],
    }
}

fn theta_of(w: &Weights) -> [f64; PARAMS] {
    std::array::from_fn(|k| match k {
        k if k < NUM_INPUTS => w.flag[k],
        k if k == NUM_INPUTS => w.proved,
        _ => w.sharp,
    })
}

/// The sample's log-loss and its gradient (added to `grad`).
fn loss_and_grad(s: &Sample, w: &Weights, grad: &mut [f64; PARAMS]) -> f64 {
    let z = s.inputs.logits(w);
    let p = z.map(sigmoid);
    let open = !(s.inputs.won[0] | s.inputs.won[1]) & ((1 << FLAGS) - 1);
    let mut probs = [0.0f64; 1 << FLAGS];
    let mut masks = [0u16; 1 << FLAGS];
    probs[0] = 1.0;
    masks[0] = s.inputs.won[0];
    let mut n = 1;
    let mut flags = Vec::with_capacity(FLAGS);
    for (f, &pf) in p.iter().enumerate() {
        if open >> f & 1 == 1 {
            for j in 0..n {
                probs[j + n] = probs[j] * pf;
                masks[j + n] = masks[j] | 1 << f;
                probs[j] *= 1.0 - pf;
            }
            n *= 2;
            flags.push(f);
        }
    }
    // dP/dz_f = sum over outcomes of outcome * chance * (won ? 1 - p_f : -p_f).
    let mut prob = 0.0;
    let mut dz = [0.0f64; FLAGS];
    for j in 0..n {
        let c = probs[j] * OUTCOME[masks[j] as usize];
        if c == 0.0 {
            continue;
        }
        prob += c;
        for &f in &flags {
            dz[f] += if masks[j] >> f & 1 == 1 {
                c * (1.0 - p[f])
            } else {
                -c * p[f]
            };
        }
    }
    let pc = prob.clamp(1e-9, 1.0 - 1e-9);
    let logit = (pc / (1.0 - pc)).ln();
    let q = sigmoid(w.sharp * logit).clamp(1e-12, 1.0 - 1e-12);
    let loss = -(s.y * q.ln() + (1.0 - s.y) * (1.0 - q).ln());
    let dq = q - s.y; // d loss / d (sharp * logit)
    grad[NUM_INPUTS + 1] += dq * logit;
    let dp = dq * w.sharp / (pc * (1.0 - pc));
    for &f in &flags {
        let d = dp * dz[f];
        if s.inputs.proved[f] != 0 {
            grad[NUM_INPUTS] += d * f64::from(s.inputs.proved[f]);
        } else {
            for (g, x) in grad.iter_mut().zip(&s.inputs.x[f]) {
                *g += d * x;
            }
        }
    }
    loss
}

/// Mean log-loss and Brier score of the value's probability on the samples chosen.
/// `w` None: the engine's own `evaluate`.
/// `player`: only that player's games.
fn scores(
    samples: &[Sample],
    held_out: bool,
    player: Option<usize>,
    w: Option<&Weights>,
) -> (f64, f64, usize) {
    let (mut ll, mut brier, mut n) = (0.0, 0.0, 0);
    let chosen = |s: &&Sample| s.held_out == held_out && player.is_none_or(|p| p == s.player);
    for s in samples.iter().filter(chosen) {
        let v = w.map_or(s.engine, |w| value_of(&s.inputs, w));
        let q = ((v + 1.0) / 2.0).clamp(1e-12, 1.0 - 1e-12);
        ll -= s.y * q.ln() + (1.0 - s.y) * (1.0 - q).ln();
        brier += (q - s.y) * (q - s.y);
        n += 1;
    }
    (ll / n.max(1) as f64, brier / n.max(1) as f64, n)
}

/// Mean log-loss of the per-flag probabilities on open flags claimed by the game's end.
fn flag_scores(samples: &[Sample], held_out: bool, w: &Weights) -> (f64, usize) {
    let (mut ll, mut n) = (0.0, 0);
    for s in samples.iter().filter(|s| s.held_out == held_out) {
        let z = s.inputs.logits(w);
        for (f, &z) in z.iter().enumerate() {
            let open = (s.inputs.won[0] | s.inputs.won[1]) >> f & 1 == 0;
            let label = if s.claimed[0] >> f & 1 == 1 {
                1.0
            } else if s.claimed[1] >> f & 1 == 1 {
                0.0
            } else {
                continue;
            };
            if open {
                let p = sigmoid(z).clamp(1e-12, 1.0 - 1e-12);
                ll -= label * p.ln() + (1.0 - label) * (1.0 - p).ln();
                n += 1;
            }
        }
    }
    (ll / n.max(1) as f64, n)
}

/// Calibration of the engine's `evaluate` and of the model with the weights built in (the
/// fit's start) and with `fitted`.
fn report(samples: &[Sample], fitted: &Weights, players: &[&str]) {
    for (set, held) in [("training", false), ("held-out", true)] {
        let (ll, brier, n) = scores(samples, held, None, None);
        println!("engine evaluate, {set}: log-loss {ll:.4}, Brier {brier:.4} ({n} positions)");
        for (what, w) in [("built-in", &WEIGHTS), ("fitted", fitted)] {
            let (ll, brier, _) = scores(samples, held, None, Some(w));
            let (fll, flags) = flag_scores(samples, held, w);
            println!(
                "{what} weights, {set}: log-loss {ll:.4}, Brier {brier:.4}; \
                 per-flag log-loss {fll:.4} ({flags} flags claimed by the end)"
            );
        }
        if players.len() > 1 {
            for (k, name) in players.iter().enumerate() {
                let (e, _, n) = scores(samples, held, Some(k), None);
                let (b, _, _) = scores(samples, held, Some(k), Some(&WEIGHTS));
                let (f, _, _) = scores(samples, held, Some(k), Some(fitted));
                println!(
                    "  {name}'s {n} positions, {set}: log-loss engine {e:.4}, \
                     built-in {b:.4}, fitted {f:.4}"
                );
            }
        }
    }
}

fn run(args: &[String]) -> Result<()> {
    let games: u64 = number(args, 0, 3000)?;
    let seed: u64 = number(args, 1, 1)?;
    let steps: usize = number(args, 2, 300)?;
    let names: Vec<&str> = args
        .get(3)
        .map_or("heuristic", |s| s.as_str())
        .split('+')
        .collect();
    let players = names
        .iter()
        .map(|n| match *n {
            "heuristic" => Ok(None),
            spec => AgentSpec::parse(spec).map(Some),
        })
        .collect::<Result<Vec<_>>>()?;
    let start = std::time::Instant::now();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: u64 = number(args, 4, cores as u64)?.clamp(1, games.max(1));
    // Thread t plays games t, t + threads, ...; the games are put back in index order.
    let mut by_game: Vec<Option<Vec<Sample>>> = (0..games).map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let players = &players;
                scope.spawn(move || {
                    (t..games)
                        .step_by(threads as usize)
                        .map(|i| play(seed, i, players).map(|s| (i, s)))
                        .collect::<Result<Vec<_>>>()
                })
            })
            .collect();
        for w in workers {
            let played = w
                .join()
                .map_err(|_| Error::invalid("a game-playing thread panicked"))??;
            for (i, s) in played {
                by_game[i as usize] = Some(s);
            }
        }
        Ok::<(), Error>(())
    })?;
    let samples: Vec<Sample> = by_game.into_iter().flatten().flatten().collect();
    let (wins, n) = samples.iter().fold((0.0, 0), |(w, n), s| (w + s.y, n + 1));
    println!(
        "{games} games (seed {seed}), {n} positions, player 0's mean result {:.3}, in {:.1} s",
        wins / n as f64,
        start.elapsed().as_secs_f64()
    );

    // Adam on the mean training log-loss.
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    let mut theta = theta_of(&WEIGHTS);
    let (mut m, mut v) = ([0.0f64; PARAMS], [0.0f64; PARAMS]);
    let (rate, b1, b2) = (0.03, 0.9, 0.999);
    for t in 1..=steps {
        let w = weights(&theta);
        let mut grad = [0.0f64; PARAMS];
        let loss: f64 = train
            .iter()
            .map(|s| loss_and_grad(s, &w, &mut grad))
            .sum::<f64>()
            / train.len() as f64;
        for k in 0..PARAMS {
            let g = grad[k] / train.len() as f64;
            m[k] = b1 * m[k] + (1.0 - b1) * g;
            v[k] = b2 * v[k] + (1.0 - b2) * g * g;
            let mh = m[k] / (1.0 - b1.powi(t as i32));
            let vh = v[k] / (1.0 - b2.powi(t as i32));
            theta[k] -= rate * mh / (vh.sqrt() + 1e-8);
        }
        if t % 50 == 0 || t == 1 {
            println!("step {t}: training log-loss {loss:.5}");
        }
    }
    let fitted = weights(&theta);
    report(&samples, &fitted, &names);
    let f = fitted.flag.map(|x| format!("{x:.3}")).join(", ");
    println!(
        "Weights {{ flag: [{f}], proved: {:.3}, sharp: {:.3} }}",
        fitted.proved, fitted.sharp
    );
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
