//! Throughput probe built against one revision of kingdoms-core by
//! `benches/compare_revisions.sh`: per game, uniformly random games per second
//! (`registry::simulate`, one thread) and ISMCTS iterations per second (a fixed-iteration
//! ISMCTS agent choosing the moves of seeded games). Only long-stable public API is used, so
//! the same file builds against older and newer revisions.
//!
//! Prints one `game metric value` line per measurement.

use kingdoms_core::search::{Agent, AgentSpec};
use kingdoms_core::registry::{simulate, GAMES};
use kingdoms_core::{with_game, Game};
use std::time::Instant;

const SIM_GAMES: u64 = 400;
const ISMCTS_ITERATIONS: u64 = 200;
const ISMCTS_MOVES: u64 = 60;

fn ismcts_rate<G: Game>() -> f64 {
    let spec = AgentSpec::parse(&format!("ismcts:{ISMCTS_ITERATIONS}")).expect("agent spec");
    let start = Instant::now();
    let mut moves = 0u64;
    let mut seed = 1u64;
    while moves < ISMCTS_MOVES {
        let mut game = G::new(seed, &G::Options::default()).expect("new game");
        let mut agent = spec.build::<G>(seed);
        while !game.is_terminal() && moves < ISMCTS_MOVES {
            let a = agent.act(&game).expect("ismcts acts");
            game.apply(a).expect("agent plays legally");
            moves += 1;
        }
        seed += 1;
    }
    (moves * ISMCTS_ITERATIONS) as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    for name in GAMES {
        let stats = simulate(name, &Default::default(), SIM_GAMES, 7, 0, Some(1)).expect("simulate");
        println!("{name} simulate_games_per_s {:.1}", stats.games_per_second());
        let rate = with_game!(*name, G => ismcts_rate::<G>()).expect("registered");
        println!("{name} ismcts_iterations_per_s {rate:.0}");
    }
}
