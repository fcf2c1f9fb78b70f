//! Strength of an agent against a game's rule-based player (`Knowledge::heuristic_action`, issue
//! 14), for tuning: GAMES games of GAME (default options) on deals 0, 1, ... from SEED, each
//! deal played twice with the seats swapped, on THREADS threads (default 1).
//!
//! ```sh
//! nice cargo run --release -p kingdoms-bench --example heuristic_strength -- strifull ismcts:1000 200 1
//! ```
//! AGENT is written as on the command line (`random`, `greedy`, `ismcts:1000`, ...). Prints
//! the agent's wins/draws/losses against the heuristic player and its score (win 1, draw 1/2).

mod common;

use kingdoms_core::arena::agent_salt;
use kingdoms_core::rng::GameRng;
use kingdoms_core::search::AgentSpec;
use kingdoms_core::Knowledge;
use kingdoms_core::{with_game, Error, Result};

const USAGE: &str = "usage: heuristic_strength GAME AGENT GAMES [SEED [THREADS]]";

/// Game `index`: deal `index / 2`, the agent in seat `index % 2`. Returns the agent's return
/// (1 win, 0 draw, -1 loss).
fn one<G: Knowledge>(spec: &AgentSpec, seed: u64, index: u64) -> Result<f64> {
    let deal = seed.wrapping_mul(1_000_003).wrapping_add(index / 2);
    let seat = (index % 2) as usize;
    let mut g = G::new(deal, &Default::default())?;
    let mut agent = spec.build::<G>(agent_salt(seed, index, seat));
    let mut rng = GameRng::seed(agent_salt(seed, index, 1 - seat));
    while let Some(p) = g.current_player() {
        let a = if p == seat {
            agent.act(&g)?
        } else {
            let view = g.resample_hidden(p, rng.next_u64());
            view.heuristic_action(&mut rng)
                .ok_or_else(|| Error::invalid("this game has no heuristic player"))?
        };
        g.apply(a)?;
    }
    Ok(g.returns()[seat])
}

fn run(args: &[String]) -> Result<String> {
    let (Some(game), Some(a)) = (args.first(), args.get(1)) else {
        return Err(Error::invalid(USAGE));
    };
    let spec = AgentSpec::parse(a)?;
    let games: u64 = common::number(args, 2, 200, USAGE)?;
    let seed: u64 = common::number(args, 3, 0, USAGE)?;
    let threads: u64 = common::number(args, 4, 1, USAGE)?;
    let start = std::time::Instant::now();
    let results: Vec<f64> = with_game!(game.as_str(), G => {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads.max(1))
                .map(|t| {
                    let spec = &spec;
                    s.spawn(move || {
                        (t..games)
                            .step_by(threads.max(1) as usize)
                            .map(|i| one::<G>(spec, seed, i))
                            .collect::<Result<Vec<f64>>>()
                    })
                })
                .collect();
            let mut all = Vec::new();
            for h in handles {
                all.extend(h.join().map_err(|_| Error::invalid("a thread panicked"))??);
            }
            Ok::<_, Error>(all)
        })?
    })?;
    let (w, d, l) = results.iter().fold((0, 0, 0), |(w, d, l), &r| {
        if r > 0.0 {
            (w + 1, d, l)
        } else if r < 0.0 {
            (w, d, l + 1)
        } else {
            (w, d + 1, l)
        }
    });
    let score = (f64::from(w) + 0.5 * f64::from(d)) / results.len().max(1) as f64;
    Ok(format!(
        "{game}: {a} vs heuristic over {} games (seed {seed}): W/D/L {w}/{d}/{l}, score {:.3}; {:.1}s",
        results.len(),
        score,
        start.elapsed().as_secs_f64()
    ))
}

fn main() {
    common::main(run);
}
