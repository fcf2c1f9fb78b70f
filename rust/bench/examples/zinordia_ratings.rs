//! What each Zinordia Star wins (a balance measure of the roster; issue 14, tenth round,
//! research/issue-14-round10-zin.md): GAMES duels between rule-based players
//! (`Knowledge::heuristic_action`, each on its own view) whose picks are drawn uniformly at random
//! from the legal ones, deals `SEED * 1_000_003 + i`, on one thread. For each Star of the
//! reference roster: how many times a side fielded it, and the share of those games its side
//! won (a draw counts half), to three decimals, and that share in percent, rounded — the
//! rating the tenth round tried as a pick value (its code is in history at `a779157`).
//!
//! ```sh
//! nice cargo run --release -p kingdoms-bench --example zinordia_ratings -- 20000 2
//! ```

mod common;

use kingdoms_core::game::Game;
use kingdoms_core::rng::GameRng;
use kingdoms_core::zinordia::{Phase, Zinordia};
use kingdoms_core::Knowledge;
use kingdoms_core::{Error, Result};

const USAGE: &str = "usage: zinordia_ratings GAMES SEED";

fn run(args: &[String]) -> Result<String> {
    let number = |i: usize| -> Result<u64> {
        args.get(i)
            .ok_or_else(|| Error::invalid(USAGE))?
            .parse()
            .map_err(|_| Error::invalid(USAGE))
    };
    let (games, seed) = (number(0)?, number(1)?);
    let mut rng = GameRng::seed(seed);
    let first = Zinordia::new(0, &Default::default())?;
    let stars = &first.shared.content.stars;
    let (mut won, mut fielded) = (vec![0.0f64; stars.len()], vec![0u64; stars.len()]);
    let mut legal = Vec::new();
    for i in 0..games {
        let mut g = Zinordia::new(
            seed.wrapping_mul(1_000_003).wrapping_add(i),
            &Default::default(),
        )?;
        while let Some(p) = g.current_player() {
            let a = if matches!(g.phase, Phase::Select { .. }) {
                g.legal_actions(&mut legal);
                *rng.choose(&legal)
                    .ok_or_else(|| Error::invalid("no legal pick"))?
            } else {
                let view = g.resample_hidden(p, rng.next_u64());
                view.heuristic_action(&mut rng)
                    .ok_or_else(|| Error::invalid("no heuristic move"))?
            };
            g.apply(a)?;
        }
        let returns = g.returns();
        for (p, picks) in g.picks.iter().enumerate() {
            for &s in picks {
                won[s] += (returns[p] + 1.0) / 2.0;
                fielded[s] += 1;
            }
        }
    }
    let mut out = format!("{games} duels, seed {seed}\n");
    for (s, d) in stars.iter().enumerate() {
        let permille = (1000.0 * won[s] / fielded[s].max(1) as f64).round();
        out += &format!(
            "{:10} fielded {:6}  won {:.3}  rating = {}\n",
            d.id,
            fielded[s],
            permille / 1000.0,
            (permille / 10.0).round()
        );
    }
    // `common::main` ends the text with its own newline.
    out.pop();
    Ok(out)
}

fn main() {
    common::main(run);
}
