//! Where Battle Line's search decides unlike a much stronger reference (issue 14, round 11):
//! GAMES games of AGENT (an ISMCTS spec, the default `ismcts:1000`) against OPPONENT
//! (`greedy`, `heuristic` or any agent spec), deals and seats as in the `bl_losses` example.
//! At every EVERY-th decision of the agent that has more than one legal move, the position
//! is also given to
//!
//! - the agent's own search once more with another seed (how often two 1,000-iteration
//!   searches disagree with each other: the search's own noise),
//! - Greedy (the default `greedy`), from the same position,
//! - the reference: RUNS independent searches of REF iterations (default 4 × 5,000) with
//!   the agent's other settings, their visits summed and their values pooled (visit
//!   weighted): its move is the most visited over all runs; each run's own top move is
//!   kept too (how stable the reference is).
//!
//! Which decisions: one in EVERY of the agent's, drawn at random (with the environment
//! variable `BL_DECISIONS_PLAYS=1`, play steps only).
//!
//! One line per position is written to OUT (tab-separated, a header first): the phase, the
//! plies so far, the troop deck left, the moves of the agent, its twin, Greedy and the
//! reference, what kind each is, and the reference's value (searcher's mean result, in
//! [-1, 1]) and visits of each. The game is played on with the agent's move.
//!
//! ```sh
//! cargo run --release -p kingdoms-bench --example bl_decisions -- ismcts:1000 greedy 10 211 3 /tmp/d.tsv [REF [RUNS]]
//! ```

mod common;

use kingdoms_core::arena::agent_salt;
use kingdoms_core::battleline::{Action, BattleLine, Deck, Phase};
use kingdoms_core::game::Game;
use kingdoms_core::rng::mix64;
use kingdoms_core::search::{AgentSpec, Ismcts, IsmctsConfig, RootStat};
use kingdoms_core::{Error, Result};
use std::fmt::Write as _;

const USAGE: &str =
    "usage: bl_decisions AGENT OPPONENT GAMES SEED EVERY OUT [REF_ITERATIONS [RUNS]]";

/// SplitMix64's finaliser alone ([`mix64`] adds the golden gamma first).
fn mix(z: u64) -> u64 {
    mix64(z.wrapping_sub(0x9E37_79B9_7F4A_7C15))
}

/// What kind of decision a move is.
fn kind(g: &BattleLine, a: Action) -> &'static str {
    match a {
        Action::Play { card, .. } if card.is_troop() => "troop",
        Action::Play { .. } => "tactic-card",
        Action::Scout => "scout",
        Action::Redeploy { .. } => "redeploy",
        Action::Deserter { .. } => "deserter",
        Action::Traitor { .. } => "traitor",
        Action::Pass => "pass",
        Action::Claim(_) => "claim",
        Action::Done => "done",
        Action::Draw(Deck::Troop) => {
            if g.phase() == Phase::Draw {
                "draw-troop"
            } else {
                "scout-troop"
            }
        }
        Action::Draw(Deck::Tactics) => {
            if g.phase() == Phase::Draw {
                "draw-tactics"
            } else {
                "scout-tactics"
            }
        }
        Action::Return(_) => "return",
    }
}

/// Flag a play goes to (`-` otherwise).
fn flag_of(a: Action) -> String {
    match a {
        Action::Play { flag, .. } | Action::Traitor { flag, .. } => flag.to_string(),
        Action::Redeploy { to: Some(f), .. } => f.to_string(),
        Action::Claim(f) => f.to_string(),
        _ => "-".into(),
    }
}

/// The searches of `runs` seeds pooled: per action (visits, value sum weighted by visits).
fn pool(runs: &[Vec<RootStat<Action>>]) -> Vec<(Action, u64, f64)> {
    let mut out: Vec<(Action, u64, f64)> = Vec::new();
    for run in runs {
        for c in run {
            let w = f64::from(c.visits);
            match out.iter_mut().find(|e| e.0 == c.action) {
                Some(e) => {
                    e.1 += u64::from(c.visits);
                    e.2 += w * c.value;
                }
                None => out.push((c.action, u64::from(c.visits), w * c.value)),
            }
        }
    }
    out.sort_by_key(|e| std::cmp::Reverse(e.1));
    out
}

fn run(args: &[String]) -> Result<String> {
    let (Some(a), Some(b), Some(out_path)) = (args.first(), args.get(1), args.get(5)) else {
        return Err(Error::invalid(USAGE));
    };
    let num = |i: usize, d: u64| common::number(args, i, d, USAGE);
    let games = num(2, 10)?;
    let seed = num(3, 211)?;
    let every = num(4, 3)?.max(1);
    let ref_iterations = num(6, 5000)?;
    let runs = num(7, 4)?.max(1);
    let plays_only = std::env::var("BL_DECISIONS_PLAYS").is_ok_and(|v| v == "1");
    let AgentSpec::Ismcts(config) = AgentSpec::parse(a)? else {
        return Err(Error::invalid("AGENT must be an ismcts spec"));
    };
    let opponent = AgentSpec::parse(b)?;
    let greedy_spec = AgentSpec::parse("greedy")?;
    let mut text = String::from(
        "game\tseat\tply\tphase\ttroops_left\tlegal\tagent\ttwin\tgreedy\treference\truns_top\t\
         kind_agent\tkind_greedy\tkind_ref\tflag_agent\tflag_ref\tv_ref\tv_agent\tv_greedy\tv_twin\t\
         n_ref\tn_agent\tn_greedy\tagent_value\tresult\n",
    );
    let mut lines = 0u64;
    let mut rows: Vec<String> = Vec::new();
    for index in 0..games {
        let deal = seed.wrapping_mul(1_000_003).wrapping_add(index / 2);
        let seat = (index % 2) as usize;
        let mut g = BattleLine::new(deal, &Default::default())?;
        let salt = agent_salt(seed, index, seat);
        let mut agent = Ismcts::<BattleLine>::new(IsmctsConfig {
            seed: salt,
            ..config.clone()
        });
        let mut opp = opponent.build::<BattleLine>(agent_salt(seed, index, 1 - seat));
        let mut legal = Vec::new();
        let mut decision = 0u64;
        let mut ply = 0u32;
        let mut game_rows = Vec::new();
        while let Some(p) = g.current_player() {
            let act = if p == seat {
                g.legal_actions(&mut legal);
                if legal.len() < 2 {
                    legal[0]
                } else {
                    let stats = agent.search(&g)?;
                    let mine = stats
                        .children
                        .first()
                        .ok_or_else(|| Error::invalid("no move"))?;
                    let mine_action = mine.action;
                    // A decision drawn at random, one in EVERY (plays only with PLAYS set).
                    let drawn =
                        mix(salt ^ decision.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % every == 0;
                    if drawn && (!plays_only || g.phase() == Phase::Play) {
                        let mut twin = Ismcts::<BattleLine>::new(IsmctsConfig {
                            seed: salt ^ 0x5EED_0000 ^ decision,
                            ..config.clone()
                        });
                        let twin_action = twin.search(&g)?.children[0].action;
                        let mut greedy = greedy_spec.build::<BattleLine>(salt ^ 0x6EED ^ decision);
                        let greedy_action = greedy.act(&g)?;
                        let mut ref_runs = Vec::new();
                        for r in 0..runs {
                            let mut reference = Ismcts::<BattleLine>::new(IsmctsConfig {
                                iterations: Some(ref_iterations),
                                seed: salt ^ 0xAEF0_0000 ^ (decision << 8) ^ r,
                                ..config.clone()
                            });
                            ref_runs.push(reference.search(&g)?.children);
                        }
                        let pooled = pool(&ref_runs);
                        let ref_action = pooled[0].0;
                        let look = |x: Action| -> (f64, u64) {
                            pooled
                                .iter()
                                .find(|e| e.0 == x)
                                .map_or((f64::NAN, 0), |e| (e.2 / (e.1.max(1) as f64), e.1))
                        };
                        let tops: Vec<String> = ref_runs
                            .iter()
                            .map(|r| r.first().map_or("-".into(), |c| c.action.to_string()))
                            .collect();
                        let (vr, nr) = look(ref_action);
                        let (va, na) = look(mine_action);
                        let (vg, ng) = look(greedy_action);
                        let (vt, _) = look(twin_action);
                        game_rows.push(format!(
                            "{index}\t{seat}\t{ply}\t{:?}\t{}\t{}\t{mine_action}\t{twin_action}\t\
                             {greedy_action}\t{ref_action}\t{}\t{}\t{}\t{}\t{}\t{}\t{vr:.4}\t\
                             {va:.4}\t{vg:.4}\t{vt:.4}\t{nr}\t{na}\t{ng}\t{:.4}",
                            g.phase(),
                            g.troop_deck().len(),
                            legal.len(),
                            tops.join(","),
                            kind(&g, mine_action),
                            kind(&g, greedy_action),
                            kind(&g, ref_action),
                            flag_of(mine_action),
                            flag_of(ref_action),
                            mine.value,
                        ));
                    }
                    decision += 1;
                    mine_action
                }
            } else {
                opp.act(&g)?
            };
            g.apply(act)?;
            ply += 1;
        }
        let won = u8::from(g.winner() == Some(seat));
        for r in game_rows {
            let _ = writeln!(text, "{r}\t{won}");
            rows.push(r);
            lines += 1;
        }
        std::fs::write(out_path, &text).map_err(|e| Error::invalid(e.to_string()))?;
        eprintln!("game {index}: won {won}, {lines} positions so far");
    }
    Ok(format!("{lines} positions written to {out_path}"))
}

fn main() {
    common::main(run);
}
