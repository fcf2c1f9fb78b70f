//! Where Arte da Guerra's games are decided (issue 14, round 11): A against B on GAMES
//! duplicate deals from SEED (seats swapped), and for each side the strength of its nine unit
//! cards once the draft and the terrain are done (each card on its best row, in mean cards),
//! of its round-1 formation (the three cards on their rows when combat starts), the
//! victory-pile lead after round 1 and the result.
//!
//! ```sh
//! nice cargo run --release -p kingdoms-bench --example arte_draft -- ismcts:1000 heuristic 100 14
//! ```

mod common;

use kingdoms_core::arena::agent_salt;
use kingdoms_core::arte::Arte;
use kingdoms_core::game::Game;
use kingdoms_core::search::AgentSpec;
use kingdoms_core::Result;

const USAGE: &str = "usage: arte_draft A B GAMES [SEED]";

struct Row {
    hand: f64,
    top3: f64,
    formation: f64,
    lead1: f64,
    result: f64,
}

fn one(a: &AgentSpec, b: &AgentSpec, seed: u64, index: u64) -> Result<Row> {
    let deal = seed.wrapping_mul(1_000_003).wrapping_add(index / 2);
    let seat = (index % 2) as usize;
    let mut g = Arte::new(deal, &Default::default())?;
    let mut agents = [
        a.build::<Arte>(agent_salt(seed, index, seat)),
        b.build::<Arte>(agent_salt(seed, index, 1 - seat)),
    ];
    let (mut hand, mut top3, mut formation, mut lead1) = (None, None, None, None);
    let diff = |g: &Arte, f: &dyn Fn(&Arte, usize) -> f64| f(g, seat) - f(g, 1 - seat);
    while let Some(p) = g.current_player() {
        let (_, _, round, deploying) = g.strength_picture(0);
        if hand.is_none() && round == 1 && deploying {
            hand = Some(diff(&g, &|g, s| g.strength_picture(s).0[0]));
            top3 = Some(diff(&g, &|g, s| {
                // The best three on their best rows: what the heuristic player fields.
                g.best_three(s)
            }));
        }
        if formation.is_none() && round == 1 && !deploying {
            formation = Some(diff(&g, &|g, s| g.strength_picture(s).0[1]));
        }
        if lead1.is_none() && round == 2 {
            lead1 = Some(diff(&g, &|g, s| g.strength_picture(s).1 as f64));
        }
        let who = usize::from(p != seat);
        let action = agents[who].act(&g)?;
        g.apply(action)?;
    }
    Ok(Row {
        hand: hand.unwrap_or(0.0),
        top3: top3.unwrap_or(0.0),
        formation: formation.unwrap_or(0.0),
        lead1: lead1.unwrap_or(0.0),
        result: g.returns()[seat],
    })
}

fn run(args: &[String]) -> Result<String> {
    let rows = common::duel_rows(args, USAGE, one)?;
    let n = rows.len().max(1) as f64;
    let mean = |f: &dyn Fn(&Row) -> f64| rows.iter().map(f).sum::<f64>() / n;
    let wins = rows.iter().filter(|r| r.result > 0.0).count();
    let mut out = format!(
        "A wins {wins} of {}\nmean A-B: hand after the draft {:+.2}, its best three {:+.2}, round-1 formation {:+.2}, victory lead after round 1 {:+.2}\n",
        rows.len(),
        mean(&|r| r.hand),
        mean(&|r| r.top3),
        mean(&|r| r.formation),
        mean(&|r| r.lead1),
    );
    for (name, pick) in [
        ("hand", (|r: &Row| r.hand) as fn(&Row) -> f64),
        ("formation", |r: &Row| r.formation),
        ("lead1", |r: &Row| r.lead1),
    ] {
        let ahead: Vec<&Row> = rows.iter().filter(|r| pick(r) > 0.0).collect();
        let behind: Vec<&Row> = rows.iter().filter(|r| pick(r) < 0.0).collect();
        let w = |v: &[&Row]| v.iter().filter(|r| r.result > 0.0).count();
        out += &format!(
            "A's {name} ahead: {} games, A wins {}; behind: {} games, A wins {}\n",
            ahead.len(),
            w(&ahead),
            behind.len(),
            w(&behind)
        );
    }
    Ok(out)
}

fn main() {
    common::main(run);
}
