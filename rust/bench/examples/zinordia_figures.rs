//! Zinordia's figures (issues 12 and 13), in every mode: engine speed and agent strength.
//!
//! ```sh
//! nice cargo run --release -p kingdoms-bench --example zinordia_figures -- speed [SECONDS]
//! nice cargo run --release -p kingdoms-bench --example zinordia_figures -- match MODE GAMES SEED THREADS AGENT...
//! nice cargo run --release -p kingdoms-bench --example zinordia_figures -- match duel 200 1 1 ismcts:1000 random
//! nice cargo run --release -p kingdoms-bench --example zinordia_figures -- match ffa4 100 1 1 ismcts:1000 random random random
//! nice cargo run --release -p kingdoms-bench --example zinordia_figures -- match teams 100 1 1 ismcts:1000 ismcts:1000 random random
//! ```
//! MODE is `duel`, `ffa3`, `ffa4` (free-for-all of 3 or 4 players) or `teams` (2 v 2).
//!
//! `speed`: for each mode, uniformly random games/s on one thread (`simulate`), decisions
//! per random game, and ISMCTS iterations/s on one thread (1,000-iteration searches from
//! positions spread over a random game); each per second of wall time and per second of the
//! process's CPU time (on a shared machine the second is the steadier).
//!
//! `match`: one tournament of the listed agents (as on the command line: `random`, `greedy`,
//! `ismcts:1000,c=0.5`, ...), as many agents as the mode has seats. Seats are rotated so every
//! agent sits in every seat equally often, on duplicate deals (GAMES a multiple of the seat
//! count). In `teams` the partners are fixed: the first two agents against the last two.
//! Prints each agent's wins (first alone), shared wins and losses, its win share, the wins by
//! seat, decisions per game and games/s.

use std::time::Instant;

use cpu_time::ProcessTime;

use kingdoms_core::arena::{tournament, Partners, Progress, TournamentConfig};
use kingdoms_core::game::Game;
use kingdoms_core::rng::GameRng;
use kingdoms_core::search::{AgentSpec, Ismcts, IsmctsConfig};
use kingdoms_core::simulate::simulate;
use kingdoms_core::zinordia::{Options, Zinordia};
use kingdoms_core::{Error, Result};

const USAGE: &str = "usage: zinordia_figures speed [SECONDS]\n       \
                     zinordia_figures match MODE GAMES SEED THREADS AGENT...\n\
                     MODE: duel, ffa3, ffa4, teams";

const MODES: [&str; 4] = ["duel", "ffa3", "ffa4", "teams"];

/// The rules options of a mode name.
fn mode(name: &str) -> Result<Options> {
    let (id, players) = match name {
        "duel" => ("duel", None),
        "ffa3" => ("free_for_all", Some(3)),
        "ffa4" => ("free_for_all", Some(4)),
        "teams" => ("teams", None),
        _ => return Err(Error::invalid(format!("unknown mode {name:?}\n{USAGE}"))),
    };
    Ok(Options {
        mode: id.into(),
        players,
        ..Options::default()
    })
}

fn number<T: std::str::FromStr>(args: &[String], i: usize, what: &str) -> Result<T> {
    args.get(i)
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| Error::invalid(format!("{what} must be a number\n{USAGE}")))
}

/// Rates of one measure: per wall-clock second and per CPU second.
struct Rate {
    wall: f64,
    cpu: f64,
}

/// Random games/s on one thread, and decisions per game: the batch doubles until it runs
/// for `seconds`.
fn random_rate(options: &Options, seconds: f64) -> Result<(Rate, f64)> {
    let mut games = 64;
    loop {
        let cpu = ProcessTime::now();
        let s = simulate::<Zinordia>(options, games, 12345, 0, Some(1))?;
        let cpu = cpu.elapsed().as_secs_f64();
        if s.seconds >= seconds || games >= 1 << 22 {
            let rate = Rate {
                wall: s.games_per_second(),
                cpu: s.games as f64 / cpu,
            };
            return Ok((rate, s.plies as f64 / s.games as f64));
        }
        games *= 2;
    }
}

/// ISMCTS@1000 iterations/s on one thread, over 8 positions spread over one random game.
fn ismcts_rate(options: &Options, seconds: f64) -> Result<Rate> {
    let mut g = Zinordia::new(5, options)?;
    let mut rng = GameRng::seed(5);
    let mut states = Vec::new();
    let mut legal = Vec::new();
    while g.current_player().is_some() {
        g.legal_actions(&mut legal);
        if legal.len() > 1 {
            states.push(g.clone());
        }
        let a = legal[rng.below(legal.len())];
        g.apply(a)?;
    }
    let step = (states.len() / 8).max(1);
    let states: Vec<Zinordia> = states.into_iter().step_by(step).take(8).collect();
    let mut search = Ismcts::<Zinordia>::new(IsmctsConfig {
        iterations: Some(1000),
        seed: 1,
        ..IsmctsConfig::default()
    });
    let (mut iterations, mut spent) = (0u64, 0.0);
    let cpu = ProcessTime::now();
    while iterations == 0 || spent < seconds {
        for s in &states {
            let r = search.search(s)?;
            iterations += r.iterations;
            spent += r.seconds;
        }
    }
    Ok(Rate {
        wall: iterations as f64 / spent,
        cpu: iterations as f64 / cpu.elapsed().as_secs_f64(),
    })
}

fn speed(args: &[String]) -> Result<String> {
    let seconds: f64 = if args.len() > 1 {
        number(args, 1, "SECONDS")?
    } else {
        2.0
    };
    let mut out = String::from(
        "one thread; per wall-clock second / per CPU second\n\
         mode   random games/s  decisions/game  ISMCTS iterations/s\n",
    );
    for name in MODES {
        let options = mode(name)?;
        let (games, plies) = random_rate(&options, seconds)?;
        let it = ismcts_rate(&options, seconds)?;
        let (gw, gc, iw, ic) = (games.wall, games.cpu, it.wall, it.cpu);
        out += &format!("{name:<6} {gw:>6.0} / {gc:>5.0} {plies:>15.1} {iw:>9.0} / {ic:>6.0}\n");
    }
    Ok(out)
}

fn play(args: &[String]) -> Result<String> {
    let name = args.get(1).ok_or_else(|| Error::invalid(USAGE))?;
    let options = mode(name)?;
    let specs = args
        .get(5..)
        .unwrap_or_default()
        .iter()
        .map(|a| AgentSpec::parse(a))
        .collect::<Result<Vec<_>>>()?;
    let config = TournamentConfig {
        games: number(args, 2, "GAMES")?,
        seed: number(args, 3, "SEED")?,
        threads: Some(number(args, 4, "THREADS")?),
        bootstrap: 0,
        partners: Partners::Fixed,
        ..TournamentConfig::default()
    };
    let start = Instant::now();
    let cpu = ProcessTime::now();
    let r = tournament::<Zinordia>(&options, &specs, &config, &Progress::default())?;
    let cpu = cpu.elapsed().as_secs_f64();
    let games = r.games();
    let mut out = format!(
        "zinordia {name}: {games} games (seed {}, {} thread(s)), {:.1} decisions/game, \
         {:.2} games/s ({:.0} s), {:.2} games per CPU second\n",
        config.seed,
        config.threads.unwrap_or(1),
        r.plies as f64 / games.max(1) as f64,
        r.games_per_second(),
        start.elapsed().as_secs_f64(),
        games as f64 / cpu,
    );
    for (i, agent) in r.names.iter().enumerate() {
        let t = r.totals[i];
        out += &format!(
            "  agent {i} {agent:<14} W/shared/L {}/{}/{}, wins {:.1}%, mean place {:.2}\n",
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.wins as f64 / games.max(1) as f64,
            r.mean_place(i).unwrap_or(f64::NAN),
        );
    }
    out += &format!("  wins by seat {:?}, draws {}", r.seat_wins, r.draws);
    Ok(out)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("speed") => speed(&args),
        Some("match") => play(&args),
        _ => Err(Error::invalid(USAGE)),
    };
    match result {
        Ok(text) => println!("{text}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
