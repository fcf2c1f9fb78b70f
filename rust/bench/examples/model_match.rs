//! A learned evaluation against the game's own, at equal time per move (issue 56): ISMCTS
//! with a model file (`Ismcts::with_model`) against the same ISMCTS without it, GAMES games
//! with the seats swapped every game, each move searched for SECONDS; then the iterations
//! each side runs in SECONDS on 8 fixed positions.
//!
//! ```sh
//! cargo run --release -p kingdoms-bench --example model_match -- GAME MODEL GAMES SECONDS [SEED [SPEC]]
//! cargo run --release -p kingdoms-bench --example model_match -- battleline bl.safetensors 100 0.1 1
//! ```
//! SPEC is the ISMCTS both sides use, as on the command line (default `ismcts:time=SECONDS`);
//! give a time, not iterations, for equal time. Prints the model side's wins/draws/losses,
//! its score with a 95% interval, and the iterations per second of both sides.

#![allow(clippy::unwrap_used, clippy::expect_used)] // an example may panic

use kingdoms_core::model::Mlp;
use kingdoms_core::rng::derive;
use kingdoms_core::search::{Agent, AgentSpec, Ismcts, IsmctsConfig};
use kingdoms_core::{with_game, Error, GameRng, Knowledge, Result};
use std::sync::Arc;

const USAGE: &str = "usage: model_match GAME MODEL GAMES SECONDS [SEED [SPEC]]";

fn agents<G: Knowledge>(
    config: &IsmctsConfig,
    mlp: &Arc<Mlp>,
    seed: u64,
) -> (Ismcts<G>, Ismcts<G>) {
    let with = IsmctsConfig {
        seed: derive(seed, &[1]),
        ..config.clone()
    };
    let without = IsmctsConfig {
        seed: derive(seed, &[2]),
        ..config.clone()
    };
    (
        Ismcts::new(with).with_model(mlp.clone()),
        Ismcts::new(without),
    )
}

/// (wins, draws, losses) of the model side over `games` games; then iterations per second
/// of (model, plain) on fixed positions.
fn play<G: Knowledge>(
    config: &IsmctsConfig,
    mlp: &Arc<Mlp>,
    games: u64,
    seed: u64,
) -> Result<String> {
    let (mut w, mut d, mut l) = (0u64, 0u64, 0u64);
    let mut legal = Vec::new();
    for i in 0..games {
        let mut game = G::new(derive(seed, &[i]), &Default::default())?;
        let (mut with, mut without) = agents::<G>(config, mlp, derive(seed, &[i, 1]));
        let model_seat = (i % 2) as usize;
        while let Some(p) = game.current_player() {
            game.legal_actions(&mut legal);
            let a = if p == model_seat {
                with.act(&game)?
            } else {
                without.act(&game)?
            };
            game.apply(a)?;
        }
        let r = game.returns();
        let mine = r.get(model_seat).copied().unwrap_or(0.0);
        let theirs = r.get(1 - model_seat).copied().unwrap_or(0.0);
        if mine > theirs {
            w += 1
        } else if mine < theirs {
            l += 1
        } else {
            d += 1
        }
        eprintln!("game {i}: model seat {model_seat}, W/D/L so far {w}/{d}/{l}");
    }
    let n = (w + d + l).max(1) as f64;
    let score = (w as f64 + 0.5 * d as f64) / n;
    let half = 1.96 * (score * (1.0 - score) / n).sqrt();
    // Iterations in the time budget, on 8 fixed mid-game positions.
    let (mut it_with, mut it_without) = (0u64, 0u64);
    for i in 0..8u64 {
        let mut game = G::new(seed ^ (i + 77), &Default::default())?;
        let mut rng = GameRng::seed(i);
        for _ in 0..6 * i {
            game.legal_actions(&mut legal);
            match rng.choose(&legal) {
                Some(&a) if !game.is_terminal() => game.apply(a)?,
                _ => break,
            }
        }
        if game.is_terminal() {
            continue;
        }
        let (mut with, mut without) = agents::<G>(config, mlp, i);
        let a = with.search(&game)?;
        let b = without.search(&game)?;
        it_with += a.iterations;
        it_without += b.iterations;
    }
    let t = config.time_limit.unwrap_or(1.0) * 8.0;
    Ok(format!(
        "{}: model ({}) vs none, {} games, {}: W/D/L {w}/{d}/{l}, score {score:.3} +- {half:.3}; \
         iterations/s on 8 positions: model {:.0}, none {:.0}",
        G::NAME,
        mlp.hidden()
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join("x"),
        w + d + l,
        config.name(),
        it_with as f64 / t,
        it_without as f64 / t,
    ))
}

fn run(args: &[String]) -> Result<String> {
    let (Some(game), Some(path), Some(games), Some(secs)) =
        (args.first(), args.get(1), args.get(2), args.get(3))
    else {
        return Err(Error::invalid(USAGE));
    };
    let games: u64 = games.parse().map_err(|_| Error::invalid(USAGE))?;
    let secs: f64 = secs.parse().map_err(|_| Error::invalid(USAGE))?;
    let seed: u64 = args
        .get(4)
        .map_or(Ok(1), |s| s.parse())
        .map_err(|_| Error::invalid(USAGE))?;
    let spec = args
        .get(5)
        .cloned()
        .unwrap_or_else(|| format!("ismcts:time={secs}"));
    let AgentSpec::Ismcts(config) = AgentSpec::parse(&spec)? else {
        return Err(Error::invalid(format!("SPEC must be an ISMCTS\n{USAGE}")));
    };
    config.validate()?;
    let mlp = Arc::new(Mlp::load(path)?);
    with_game!(game.as_str(), G => play::<G>(&config, &mlp, games, seed)?)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(line) => println!("{line}"),
        Err(e) => {
            eprintln!("model_match: {e}");
            std::process::exit(2);
        }
    }
}
