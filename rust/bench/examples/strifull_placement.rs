//! How far STRIFULL's face-down troops lie from where a uniform redraw puts them (issue 14,
//! round 15): games between two agents, and at the start of every turn, for each side, its
//! face-down troops' stat that their zone uses (ATK in attack, DEF in defence, SK-6.1)
//! against what a uniform deal of that side's unseen pool (face-down troops and pile) would
//! give the same cells.
//!
//! ```sh
//! cargo run --release -p kingdoms-bench --example strifull_placement -- AGENT_A AGENT_B [GAMES=100] [SEED=0]
//! ```
//! Prints, per zone and over all turns, the face-down troops counted, their mean zone stat,
//! the uniform redraw's mean (the pool's mean stat), and the share of face-down troops whose
//! zone is the one their larger stat is used in (against the pool's share); then the same for
//! turn 1 only (the placement of setup alone); then both for the cells as the opponent's
//! redraw (`resample_hidden`) fills them, against the same uniform reference.

mod common;

use kingdoms_core::search::AgentSpec;
use kingdoms_core::strifull::{CardSet, Strifull};
use kingdoms_core::{Game, Result};
use serde_json::Value;

const USAGE: &str = "usage: strifull_placement AGENT_A AGENT_B [GAMES=100] [SEED=0]";

/// Sums per zone: troops, their zone stat, the pool's mean zone stat, troops whose larger
/// stat is the zone's, the pool's share of such troops.
#[derive(Default, Clone, Copy)]
struct Tally {
    n: f64,
    stat: f64,
    pool_stat: f64,
    fits: f64,
    pool_fits: f64,
}

/// The (ATK, DEF) of the troop named by `id` (a card id of the full state), `None` for a
/// card the state does not name.
fn stats(cards: &CardSet, id: &Value) -> Option<(f64, f64)> {
    let t = &cards.troops[cards.troop_index(id.as_str()?)?];
    Some((f64::from(t.atk), f64::from(t.def)))
}

/// Adds side `side`'s face-down troops of the full state `state` to `tally` (per zone).
fn count(cards: &CardSet, state: &Value, side: usize, tally: &mut [Tally; 2]) {
    let s = &state["sides"][side];
    let mut hidden: Vec<(usize, (f64, f64))> = Vec::new();
    let mut pool: Vec<(f64, f64)> = Vec::new();
    if let Some(field) = s["field"].as_object() {
        for (cell, data) in field {
            if data["revealed"].as_bool() == Some(true) {
                continue;
            }
            let zone = usize::from(!cell.starts_with('a'));
            let Some(st) = stats(cards, &data["card"]) else {
                continue;
            };
            hidden.push((zone, st));
            pool.push(st);
        }
    }
    if let Some(pile) = s["pile"].as_array() {
        pool.extend(pile.iter().filter_map(|c| stats(cards, c)));
    }
    if pool.is_empty() {
        return;
    }
    let n = pool.len() as f64;
    let mean_atk = pool.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_def = pool.iter().map(|p| p.1).sum::<f64>() / n;
    let share_atk = pool.iter().filter(|p| p.0 > p.1).count() as f64 / n;
    let share_def = pool.iter().filter(|p| p.1 > p.0).count() as f64 / n;
    for (zone, (atk, def)) in hidden {
        let t = &mut tally[zone];
        t.n += 1.0;
        if zone == 0 {
            t.stat += atk;
            t.pool_stat += mean_atk;
            t.fits += f64::from(u8::from(atk > def));
            t.pool_fits += share_atk;
        } else {
            t.stat += def;
            t.pool_stat += mean_def;
            t.fits += f64::from(u8::from(def > atk));
            t.pool_fits += share_def;
        }
    }
}

fn play(a: &AgentSpec, b: &AgentSpec, seed: u64, game: u64) -> Result<[[Tally; 2]; 4]> {
    let mut g = Strifull::new(seed.wrapping_add(game), &Default::default())?;
    let cards = CardSet::reference();
    // Seats alternate: A is player 0 in even games.
    let mut agents = [
        a.build::<Strifull>(2 * game),
        b.build::<Strifull>(2 * game + 1),
    ];
    if game % 2 == 1 {
        agents.swap(0, 1);
    }
    let mut all = [Tally::default(); 2];
    let mut first = [Tally::default(); 2];
    let mut redrawn = [Tally::default(); 2];
    let mut redrawn_first = [Tally::default(); 2];
    let mut last_turn = 0;
    while let Some(p) = g.current_player() {
        let state = g.to_json();
        let turn = state["turn"].as_u64().unwrap_or(0);
        if turn != last_turn {
            last_turn = turn;
            for side in 0..2 {
                count(&cards, &state, side, &mut all);
                // The redraw of the side's opponent (the one who does not see it).
                let r = g
                    .resample_hidden(1 - side, seed ^ (game << 20) ^ turn)
                    .to_json();
                count(&cards, &r, side, &mut redrawn);
                if turn == 1 {
                    count(&cards, &state, side, &mut first);
                    count(&cards, &r, side, &mut redrawn_first);
                }
            }
        }
        let action = agents[p].act(&g)?;
        g.apply(action)?;
    }
    Ok([all, first, redrawn, redrawn_first])
}

fn main() {
    common::main(|args| {
        let rows = common::duel_rows(args, USAGE, play)?;
        let mut out = String::new();
        for (k, label) in [
            "every turn",
            "turn 1",
            "every turn, the opponent's redraw",
            "turn 1, the opponent's redraw",
        ]
        .into_iter()
        .enumerate()
        {
            out += &format!("{label}:\n");
            for (zone, name) in ["attack (ATK)", "defence (DEF)"].into_iter().enumerate() {
                let mut t = Tally::default();
                for r in &rows {
                    let x = r[k][zone];
                    t.n += x.n;
                    t.stat += x.stat;
                    t.pool_stat += x.pool_stat;
                    t.fits += x.fits;
                    t.pool_fits += x.pool_fits;
                }
                out += &format!(
                    "  {name}: {} face-down troops; zone stat {:.3}, uniform {:.3} ({:+.3}); larger stat fits the zone {:.1}%, uniform {:.1}%\n",
                    t.n,
                    t.stat / t.n,
                    t.pool_stat / t.n,
                    (t.stat - t.pool_stat) / t.n,
                    100.0 * t.fits / t.n,
                    100.0 * t.pool_fits / t.n
                );
            }
        }
        Ok(out)
    });
}
