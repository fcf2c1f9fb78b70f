//! Play random Zinordia games on one thread and print games/s and decisions per game: the
//! driver for profiling the engine (`valgrind --tool=callgrind` counts instructions, which
//! stay stable on a loaded machine where wall time does not).
//!
//! `cargo run --release -p kingdoms-bench --example zinordia_games -- [games] [mode] [seed]`
//! (defaults: 2000 games, duel, seed 1).

use kingdoms_core::simulate::simulate;
use kingdoms_core::zinordia::{Options, Zinordia};

fn main() -> kingdoms_core::Result<()> {
    let mut args = std::env::args().skip(1);
    let games = match args.next() {
        Some(a) => a
            .parse()
            .map_err(|_| kingdoms_core::Error::invalid(format!("games: not a count: {a:?}")))?,
        None => 2000,
    };
    let mode = args.next().unwrap_or_else(|| "duel".into());
    let seed = match args.next() {
        Some(a) => a
            .parse()
            .map_err(|_| kingdoms_core::Error::invalid(format!("seed: not a number: {a:?}")))?,
        None => 1,
    };
    let opts = Options {
        mode,
        ..Options::default()
    };
    let s = simulate::<Zinordia>(&opts, games, seed, 0, Some(1))?;
    println!(
        "{} {} games in {:.3} s: {:.0} games/s, {:.1} decisions per game, wins {:?}, draws {}",
        s.games,
        opts.mode,
        s.seconds,
        s.games_per_second(),
        s.plies as f64 / s.games.max(1) as f64,
        s.wins,
        s.draws
    );
    Ok(())
}
