//! Head-to-head strength of two agents, for tuning: N games of one game (default options),
//! seats alternating, on all cores (or THREADS), through the public arena API.
//!
//! ```sh
//! cargo run --release --example strength -- GAME AGENT_A AGENT_B GAMES [SEED [THREADS]]
//! cargo run --release --example strength -- strifull ismcts:1000 random 200 7
//! ```
//! Agents are written as on the command line (`random`, `greedy`, `ismcts:1000,c=0.5`, ...:
//! `AgentSpec::parse`). Prints A's wins/draws/losses against B, its score (win 1, draw 1/2)
//! and the wins by seat.

use kingdoms_core::agents::arena::{tournament, Progress, TournamentConfig};
use kingdoms_core::agents::AgentSpec;
use kingdoms_core::{with_game, Error, Result};

const USAGE: &str = "usage: strength GAME AGENT_A AGENT_B GAMES [SEED [THREADS]]";

fn number<T: std::str::FromStr>(args: &[String], i: usize, what: &str, default: T) -> Result<T> {
    match args.get(i) {
        None => Ok(default),
        Some(text) => text
            .parse()
            .map_err(|_| Error::invalid(format!("{what} must be a whole number\n{USAGE}"))),
    }
}

fn run(args: &[String]) -> Result<String> {
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(line) => println!("{line}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
