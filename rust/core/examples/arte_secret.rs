//! Trial diagnostic (issue 14, tenth round, arte): the strength of the round-1 formation an
//! agent fields, as the first deployer and as the second, against what the heuristic player
//! would field from the same hand on the same rows.
//!
//! ```sh
//! arte_secret AGENT POSITIONS [SEED]
//! ```
//! Positions: deals SEED.. played by the heuristic player for both seats up to round 1's
//! deployment. Prints the mean formation strength (sum over the three cards of the mean of
//! attack and defence on their rows) of AGENT minus the heuristic player's, and AGENT's root
//! value of its first deployment (ISMCTS only).

mod common;

use kingdoms_core::agents::{AgentSpec, Ismcts};
use kingdoms_core::arte::combat::strength;
use kingdoms_core::arte::{Action, Arte};
use kingdoms_core::{Error, Game, GameRng, Result};

fn rows_of(g: &Arte, p: usize) -> [Option<u8>; 3] {
    let json = g.to_json();
    let set = g.card_set();
    let mut rows = [None; 3];
    for (r, row) in rows.iter_mut().enumerate() {
        *row = json["players"][p]["rows"][r]
            .as_str()
            .and_then(|l| set.parse_label(l));
    }
    rows
}

fn value(g: &Arte, p: usize, a: Action) -> f64 {
    let Action::Deploy(c, cell) = a else {
        return 0.0;
    };
    let r = (cell / 3) as usize;
    strength(g.card_set(), g.card_set().unit_card(c), rows_of(g, p)[r], r)
}

fn deploys(g: &Arte) -> bool {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    matches!(legal.first(), Some(Action::Deploy(..)))
}

fn run(args: &[String]) -> Result<String> {
    let spec = AgentSpec::parse(args.first().ok_or_else(|| Error::invalid("AGENT"))?)?;
    let n: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let mut out = String::new();
    for second in [false, true] {
        let (mut diff, mut root, mut same) = (0.0, 0.0, 0u32);
        for i in 0..n {
            let mut g = Arte::new(seed + i, &Default::default())?;
            let mut rng = GameRng::seed(seed ^ (i << 8));
            while !deploys(&g) {
                let a = g
                    .heuristic_action(&mut rng)
                    .ok_or_else(|| Error::invalid("over"))?;
                g.apply(a)?;
            }
            if second {
                for _ in 0..3 {
                    let a = g
                        .heuristic_action(&mut rng)
                        .ok_or_else(|| Error::invalid("over"))?;
                    g.apply(a)?;
                }
            }
            let p = g.current_player().unwrap_or(0);
            let (mut h, mut hg) = (0.0, g.clone());
            for _ in 0..3 {
                let a = hg
                    .heuristic_action(&mut rng)
                    .ok_or_else(|| Error::invalid("over"))?;
                h += value(&hg, p, a);
                hg.apply(a)?;
            }
            let (mut s, mut sg) = (0.0, g.clone());
            let mut first = None;
            for k in 0..3 {
                let a = match &spec {
                    AgentSpec::Ismcts(c) => {
                        let mut c = c.clone();
                        c.seed = seed ^ (i << 16) ^ k;
                        let stats = Ismcts::<Arte>::new(c).search(&sg)?;
                        if k == 0 {
                            root += stats.children[0].value;
                        }
                        stats.children[0].action
                    }
                    _ => spec.build::<Arte>(i).act(&sg)?,
                };
                if k == 0 {
                    first = Some(a);
                }
                s += value(&sg, p, a);
                sg.apply(a)?;
            }
            let _ = first;
            if (s - h).abs() < 1e-9 {
                same += 1;
            }
            diff += s - h;
        }
        out += &format!(
            "{} deployer, {n} positions (seed {seed}): formation minus heuristic's {:+.2}, same strength {same}, root value of the first deploy {:+.3}\n",
            if second { "second" } else { "first" },
            diff / n as f64,
            root / n as f64
        );
    }
    Ok(out)
}

fn main() {
    common::main(run);
}
