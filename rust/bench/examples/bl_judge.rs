//! A judge of Battle Line's plays that does not share the leaf value (issue 14, round 12):
//! where `evaluate`'s ranking of the moves and the results of playing them out disagree.
//!
//! GAMES games of MOVER (an agent spec, default `greedy`) against the heuristic player,
//! deals and seats as in the `bl_losses` example. At one in EVERY of the mover's play
//! steps with more than one legal move (drawn at random), from the mover's own view:
//!
//! - every legal play is scored by `evaluate` (the mover's) on REDRAWS common redraws of
//!   the hidden cards, after the play and the mover's routine steps (claims, the draw, as
//!   the search's leaves are scored), averaged: the leaf value's ranking;
//! - the TOP plays by that mean, the heuristic player's own play there and Scout (when
//!   legal), are each
//!   played out to the game's end by the heuristic player on both sides from every one of
//!   the same redraws, with the same random stream per redraw (paired): the share of those
//!   playouts the mover wins.
//!
//! One line per (position, candidate) is written to OUT (tab-separated, header first):
//! the game, seat, ply, troop deck left, the number of legal plays, the move, its kind and
//! flag, the cards already on the mover's side of that flag, whether it is the heuristic
//! player's move, its mean `evaluate`, its rank by it, its playout score.
//!
//! ```sh
//! cargo run --release -p kingdoms-bench --example bl_judge -- 20 227 4 32 6 /tmp/j.tsv [MOVER]
//! ```

mod common;

use kingdoms_core::arena::agent_salt;
use kingdoms_core::battleline::{Action, BattleLine, Phase};
use kingdoms_core::game::Game;
use kingdoms_core::rng::{mix64, GameRng};
use kingdoms_core::search::AgentSpec;
use kingdoms_core::Knowledge;
use kingdoms_core::{Error, Result};
use std::fmt::Write as _;

const USAGE: &str = "usage: bl_judge GAMES SEED EVERY REDRAWS TOP OUT [MOVER]";

fn kind(a: Action) -> &'static str {
    match a {
        Action::Play { card, .. } if card.is_troop() => "troop",
        Action::Play { .. } => "tactic-card",
        Action::Scout => "scout",
        Action::Redeploy { .. } => "redeploy",
        Action::Deserter { .. } => "deserter",
        Action::Traitor { .. } => "traitor",
        Action::Pass => "pass",
        _ => "other",
    }
}

fn flag_of(a: Action) -> Option<usize> {
    match a {
        Action::Play { flag, .. } | Action::Traitor { flag, .. } => Some(flag as usize),
        Action::Redeploy { to: Some(f), .. } => Some(f as usize),
        _ => None,
    }
}

/// The mover's routine steps after its play (claims, the draw), as the search's leaves.
fn settle(g: &mut BattleLine, mover: usize, rng: &mut GameRng) {
    while g.current_player() == Some(mover) && g.phase() != Phase::Play {
        match g.routine_action(rng) {
            Some(a) => g.apply_unchecked(a),
            None => break,
        }
    }
}

/// The heuristic player on both sides to the end; 1 if `mover` wins, 0.5 a draw, else 0.
fn playout(mut g: BattleLine, mover: usize, rng: &mut GameRng) -> f64 {
    while g.current_player().is_some() {
        match g.heuristic_action(rng) {
            Some(a) => g.apply_unchecked(a),
            None => break,
        }
    }
    match g.winner() {
        Some(w) if w == mover => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

fn run(args: &[String]) -> Result<String> {
    let num = |i: usize, d: u64| common::number(args, i, d, USAGE);
    let games = num(0, 10)?;
    let seed = num(1, 227)?;
    let every = num(2, 4)?.max(1);
    let redraws = num(3, 32)?.max(1);
    let top = num(4, 6)? as usize;
    let out_path = args.get(5).ok_or_else(|| Error::invalid(USAGE))?;
    let mover_spec = AgentSpec::parse(args.get(6).map_or("greedy", |s| s.as_str()))?;
    let heuristic = AgentSpec::parse("heuristic")?;
    let mut text = String::from(
        "game\tseat\tply\ttroops_left\tlegal\tmove\tkind\tflag\ton_side\theur\teval\
         \teval_rank\tplayout\tresult\n",
    );
    let mut positions = 0u64;
    for index in 0..games {
        let deal = seed.wrapping_mul(1_000_003).wrapping_add(index / 2);
        let seat = (index % 2) as usize;
        let mut g = BattleLine::new(deal, &Default::default())?;
        let salt = agent_salt(seed, index, seat);
        let mut agent = mover_spec.build::<BattleLine>(salt);
        let mut opp = heuristic.build::<BattleLine>(agent_salt(seed, index, 1 - seat));
        let mut legal = Vec::new();
        let mut decision = 0u64;
        let mut ply = 0u32;
        let mut rows = Vec::new();
        while let Some(p) = g.current_player() {
            let act = if p == seat {
                g.legal_actions(&mut legal);
                let drawn = mix64(salt ^ decision.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % every == 0;
                if g.phase() == Phase::Play && legal.len() > 1 {
                    decision += 1;
                }
                if drawn && g.phase() == Phase::Play && legal.len() > 1 {
                    positions += 1;
                    let worlds: Vec<BattleLine> = (0..redraws)
                        .map(|r| g.resample_hidden(seat, mix64(salt ^ (decision << 20) ^ r)))
                        .collect();
                    let mut hrng = GameRng::seed(salt ^ 0x4E55 ^ decision);
                    let heur_move = g.heuristic_action(&mut hrng);
                    // The leaf value's mean over the common redraws, per legal play.
                    let mut scored: Vec<(Action, f64)> = legal
                        .iter()
                        .map(|&a| {
                            let mut sum = 0.0;
                            for (r, w) in worlds.iter().enumerate() {
                                let mut x = w.clone();
                                x.apply_unchecked(a);
                                let mut rng = GameRng::seed(mix64(salt ^ 0x5E77 ^ r as u64));
                                settle(&mut x, seat, &mut rng);
                                sum += x.evaluate(seat);
                            }
                            (a, sum / redraws as f64)
                        })
                        .collect();
                    scored.sort_by(|x, y| y.1.total_cmp(&x.1));
                    for (rank, &(a, ev)) in scored.iter().enumerate() {
                        let is_heur = Some(a) == heur_move;
                        if rank >= top && !is_heur && a != Action::Scout {
                            continue;
                        }
                        let mut wins = 0.0;
                        for (r, w) in worlds.iter().enumerate() {
                            let mut x = w.clone();
                            x.apply_unchecked(a);
                            let mut rng = GameRng::seed(mix64(salt ^ 0x9A7 ^ (r as u64) << 8));
                            settle(&mut x, seat, &mut rng);
                            wins += playout(x, seat, &mut rng);
                        }
                        let on_side =
                            flag_of(a).map_or(-1, |f| g.flags()[f].side(seat).len() as i64);
                        rows.push(format!(
                            "{index}\t{seat}\t{ply}\t{}\t{}\t{a}\t{}\t{}\t{on_side}\t{}\t{ev:.4}\t{rank}\t{:.4}",
                            g.troop_deck().len(),
                            legal.len(),
                            kind(a),
                            flag_of(a).map_or("-".into(), |f| f.to_string()),
                            u8::from(is_heur),
                            wins / redraws as f64,
                        ));
                    }
                }
                agent.act(&g)?
            } else {
                opp.act(&g)?
            };
            g.apply(act)?;
            ply += 1;
        }
        let won = u8::from(g.winner() == Some(seat));
        for r in rows {
            let _ = writeln!(text, "{r}\t{won}");
        }
        std::fs::write(out_path, &text).map_err(|e| Error::invalid(e.to_string()))?;
        eprintln!("game {index}: won {won}, {positions} positions so far");
    }
    Ok(format!("{positions} positions written to {out_path}"))
}

fn main() {
    common::main(run);
}
