//! Head-to-head strength of two agents, for tuning: N games of one game (default options),
//! seats alternating, on all cores (or THREADS), through the public arena API.
//!
//! ```sh
//! cargo run --release -p kingdoms-bench --example strength -- GAME AGENT_A AGENT_B GAMES [SEED [THREADS]]
//! cargo run --release -p kingdoms-bench --example strength -- strifull ismcts:1000 random 200 7
//! ```
//! Agents are written as on the command line (`random`, `greedy`, `ismcts:1000,c=0.5`, ...:
//! `AgentSpec::parse`). Prints A's wins/draws/losses against B, its score (win 1, draw 1/2)
//! and the wins by seat.
//!
//! ```sh
//! cargo run --release -p kingdoms-bench --example strength -- search GAME ISMCTS POSITIONS [SEED]
//! valgrind --tool=callgrind target/release/examples/strength search arte ismcts:300 8 1
//! ```
//! The cost of a search, for comparing settings: one search on each of POSITIONS fixed
//! positions (deal `SEED + i`, then `3 * i` random plies), on one thread. Prints the
//! iterations run and the seconds taken; under callgrind, the instructions divided by the
//! iterations are the cost of an iteration, free of the machine's load. With a Greedy agent
//! (`greedy:settle=heuristic`, ...) it is one move chosen on each position: the
//! instructions divided by the positions searched are the cost of a Greedy move.
//!
//! ```sh
//! valgrind --tool=callgrind target/release/examples/strength simulate zinordia 200 1
//! ```
//! The cost of random play: GAMES uniformly random games of the `simulate` batch under
//! SEED (`kingdoms_core::simulate::simulate`) on one thread; under callgrind, the
//! instructions divided by GAMES are the cost of a random game.

mod common;

use kingdoms_core::arena::{tournament, Progress, TournamentConfig};
use kingdoms_core::search::{AgentSpec, Ismcts};
use kingdoms_core::simulate::simulate;
use kingdoms_core::Knowledge;
use kingdoms_core::{with_game, Error, GameRng, Result};
use std::time::Instant;

const USAGE: &str = "usage: strength GAME AGENT_A AGENT_B GAMES [SEED [THREADS]]\n   \
                     or: strength search GAME ISMCTS|GREEDY POSITIONS [SEED]\n   \
                     or: strength simulate GAME GAMES [SEED]";

fn number<T: std::str::FromStr>(args: &[String], i: usize, what: &str, default: T) -> Result<T> {
    match args.get(i) {
        None => Ok(default),
        Some(text) => text
            .parse()
            .map_err(|_| Error::invalid(format!("{what} must be a whole number\n{USAGE}"))),
    }
}

/// One search on each of `positions` fixed positions; the iterations run (ISMCTS) or the
/// moves chosen (Greedy).
fn searches<G: Knowledge>(spec: &AgentSpec, positions: u64, seed: u64) -> Result<u64> {
    let config = match spec {
        AgentSpec::Ismcts(config) => Some(config),
        AgentSpec::Greedy(_) => None,
        _ => {
            return Err(Error::invalid(format!(
                "search measures ISMCTS or Greedy\n{USAGE}"
            )))
        }
    };
    let mut iterations = 0;
    let mut legal = Vec::new();
    for i in 0..positions {
        let mut game = G::new(seed.wrapping_add(i), &Default::default())?;
        let mut rng = GameRng::seed(seed ^ i);
        for _ in 0..3 * i {
            game.legal_actions(&mut legal);
            match rng.choose(&legal) {
                Some(&a) if !game.is_terminal() => game.apply(a)?,
                _ => break,
            }
        }
        if !game.is_terminal() {
            iterations += match config {
                Some(config) => Ismcts::<G>::new(config.clone()).search(&game)?.iterations,
                None => {
                    spec.build::<G>(i).act(&game)?;
                    1
                }
            };
        }
    }
    Ok(iterations)
}

fn run(args: &[String]) -> Result<String> {
    if let (Some("simulate"), Some(game)) = (args.first().map(String::as_str), args.get(1)) {
        let games = number(args, 2, "GAMES", 100)?;
        let seed = number(args, 3, "SEED", 0)?;
        let stats = with_game!(game.as_str(), G => {
            simulate::<G>(&Default::default(), games, seed, 0, Some(1))?
        })?;
        return Ok(format!(
            "{game}: {} random games (seed {seed}): {} plies, {} draws, in {:.2} s",
            stats.games, stats.plies, stats.draws, stats.seconds
        ));
    }
    if let (Some("search"), Some(game), Some(agent)) =
        (args.first().map(String::as_str), args.get(1), args.get(2))
    {
        let spec = AgentSpec::parse(agent)?;
        let positions = number(args, 3, "POSITIONS", 8)?;
        let seed = number(args, 4, "SEED", 0)?;
        let start = Instant::now();
        let iterations = with_game!(game.as_str(), G => searches::<G>(&spec, positions, seed)?)?;
        let unit = match spec {
            AgentSpec::Greedy(_) => "moves",
            _ => "iterations",
        };
        return Ok(format!(
            "{game}: {} searched {positions} positions (seed {seed}): {iterations} {unit} \
             in {:.2} s",
            spec.name(),
            start.elapsed().as_secs_f64()
        ));
    }
    let (Some(game), Some(a), Some(b)) = (args.first(), args.get(1), args.get(2)) else {
        return Err(Error::invalid(USAGE));
    };
    let specs = [AgentSpec::parse(a)?, AgentSpec::parse(b)?];
    let config = TournamentConfig {
        games: number(args, 3, "GAMES", 100)?,
        seed: number(args, 4, "SEED", 0)?,
        threads: args
            .get(5)
            .map(|_| number(args, 5, "THREADS", 1))
            .transpose()?,
        bootstrap: 0,
        ..TournamentConfig::default()
    };
    let result = with_game!(game.as_str(), G => {
        tournament::<G>(&Default::default(), &specs, &config, &Progress::default())?
    })?;
    let wdl = result
        .pairwise
        .first()
        .and_then(|row| row.get(1))
        .copied()
        .unwrap_or_default();
    Ok(format!(
        "{game}: {} vs {} over {} games (seed {}): W/D/L {}/{}/{}, score {:.3}; \
         wins by seat {:?}, draws {}; {:.1} games/s",
        result.names[0],
        result.names[1],
        wdl.games(),
        config.seed,
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.score(),
        result.seat_wins,
        result.draws,
        result.games_per_second(),
    ))
}

fn main() {
    common::main(run);
}
