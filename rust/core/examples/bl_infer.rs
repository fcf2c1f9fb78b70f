//! Is there anything to gain from redrawing the opponent's hand by its last play (issue 14,
//! round 15)? GAMES games of A against B (agent specs), seats alternating; at every play
//! step of either player where the opponent's latest turn was a troop play, the true hand's
//! log-likelihood gain under the model over the uniform redraw
//! (`battleline::infer::log_gain`, SAMPLES uniform hands) for each β in BETAS. Prints, per
//! β and per observer (A's or B's decisions), the positions, the mean gain in nats (with its
//! standard error) and the share of positions with a positive gain.
//!
//! ```sh
//! cargo run --release --example bl_infer -- 20 7 heuristic greedy 0.5,1,2,4 200
//! ```

use kingdoms_core::agents::arena::agent_salt;
use kingdoms_core::agents::AgentSpec;
use kingdoms_core::battleline::{infer, BattleLine};
use kingdoms_core::game::Game;
use kingdoms_core::rng::mix64;
use kingdoms_core::{Error, Result};

const USAGE: &str = "usage: bl_infer GAMES SEED A B BETAS SAMPLES";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 6 {
        return Err(Error::invalid(USAGE));
    }
    let games: u64 = args[0].parse().map_err(|_| Error::invalid(USAGE))?;
    let seed: u64 = args[1].parse().map_err(|_| Error::invalid(USAGE))?;
    let specs = [AgentSpec::parse(&args[2])?, AgentSpec::parse(&args[3])?];
    let betas: Vec<f64> = args[4]
        .split(',')
        .map(|b| b.parse().map_err(|_| Error::invalid(USAGE)))
        .collect::<Result<_>>()?;
    let samples: usize = args[5].parse().map_err(|_| Error::invalid(USAGE))?;
    // [beta][observer who is A?] -> (n, sum, sum of squares, positives)
    let mut acc = vec![[(0u64, 0.0f64, 0.0f64, 0u64); 2]; betas.len()];
    for index in 0..games {
        let deal = mix64(seed ^ (index / 2));
        let a_seat = (index % 2) as usize;
        let mut g = BattleLine::new(deal, &Default::default())?;
        let mut agents = [
            specs[0].build::<BattleLine>(agent_salt(seed, index, 0)),
            specs[1].build::<BattleLine>(agent_salt(seed, index, 1)),
        ];
        let mut ply = 0u64;
        while let Some(p) = g.current_player() {
            let who = usize::from(p != a_seat); // 0: A moves
            for (bi, &beta) in betas.iter().enumerate() {
                if let Some(x) = infer::log_gain(&g, p, beta, samples, mix64(deal ^ ply)) {
                    let a = &mut acc[bi][who];
                    a.0 += 1;
                    a.1 += x;
                    a.2 += x * x;
                    a.3 += u64::from(x > 0.0);
                }
            }
            let action = agents[who].act(&g)?;
            g.apply(action)?;
            ply += 1;
        }
    }
    println!("beta\tobserver\tpositions\tmean_gain_nats\tse\tshare_positive");
    for (bi, &beta) in betas.iter().enumerate() {
        for (who, name) in [(0, &args[2]), (1, &args[3])] {
            let (n, s, ss, pos) = acc[bi][who];
            let nf = n.max(1) as f64;
            let mean = s / nf;
            let se = ((ss / nf - mean * mean).max(0.0) / nf).sqrt();
            println!(
                "{beta}\t{name} (opponent {})\t{n}\t{mean:.4}\t{se:.4}\t{:.3}",
                if who == 0 { &args[3] } else { &args[2] },
                pos as f64 / nf
            );
        }
    }
    Ok(())
}
