//! Self-play data: games played by any agents with every decision kept for training —
//! the mover's observation and action mask, the action, the mover, the final returns, and
//! the root visit counts of a searching agent (ISMCTS).
//!
//! **Schedule.** Game `i` of a run under `seed` is set up from `game_seed(seed, i)`, like
//! game `i` of `simulate`. With one agent it plays every seat; with one agent per player,
//! seat `s` of game `i` is agent `(s + i) % players`, so each agent plays each seat equally
//! often. Agents are seeded from `(seed, i, seat)` as in tournaments, so game `i` is the same
//! whichever range, machine or thread count plays it: a run can be cut into shards anywhere.

use super::scheduler::{run_schedule, AgentProvider, Fixture, Progress, Watch};
use super::{check_choice, play_with, tell_moved, unique_names};
use crate::error::{Error, Result};
use crate::knowledge::Knowledge;
use crate::session::LastMove;
use crate::simulate::game_seed;
use std::ops::Range;

/// One game's decisions, row-major: row `t` is ply `t`.
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    /// The game's index in the run.
    pub index: u64,
    /// The seed the game was set up from (`Record` replays it with `actions`).
    pub seed: u64,
    /// `seats[s]`: the agent that played seat `s`.
    pub seats: Vec<usize>,
    /// The player to move at each ply.
    pub players: Vec<u32>,
    /// The action id played at each ply.
    pub actions: Vec<u32>,
    /// `plies × observation size`: the mover's observation before its move.
    pub observations: Vec<f32>,
    /// `plies × num_actions`: the legal actions before the move.
    pub masks: Vec<bool>,
    /// `plies × num_actions`: root visit counts of a searching agent; a row of zeros where
    /// the mover did not search (another agent, or a single legal action).
    pub visits: Vec<u32>,
    /// `plies × num_players`: every player's value of the move chosen, as the mover's search
    /// estimated it ([`Agent::root_values`](crate::search::Agent::root_values)); a row of
    /// NaN where the mover did not search.
    pub root_values: Vec<f32>,
    /// `plies × (num_players × observation size)` when asked for (else empty): every
    /// seat's observation of the true state before the move, the mover's first, then the
    /// next seats in turn order (the input of a `seats` network, [`crate::model::Input`]).
    /// The true state is a fair draw of the mover's belief, which the search's redraws are.
    pub seat_rows: Vec<f32>,
    /// Final returns, one per player.
    pub returns: Vec<f64>,
}

impl Trajectory {
    pub fn plies(&self) -> usize {
        self.actions.len()
    }
}

/// The fixtures of games `range` with `agents` agents (1, or one per player).
pub fn selfplay_fixtures(agents: usize, players: usize, range: Range<u64>) -> Result<Vec<Fixture>> {
    if agents != 1 && agents != players {
        return Err(Error::invalid(format!(
            "self-play takes one agent (it plays every seat) or one per player ({players}); got {agents}"
        )));
    }
    if range.start > range.end {
        return Err(Error::invalid(format!(
            "games {}..{}: the range is reversed",
            range.start, range.end
        )));
    }
    Ok(range
        .map(|i| Fixture {
            index: i,
            deal: i,
            seats: (0..players)
                .map(|s| {
                    if agents == 1 {
                        0
                    } else {
                        ((s as u64 + i) % players as u64) as usize
                    }
                })
                .collect(),
        })
        .collect())
}

/// Play games `range` of the self-play run under `seed` with the agents of `provider`
/// (`names[a]` for errors), on `threads` cores; trajectories come back in game order, with
/// [`Trajectory::seat_rows`] filled when `seat_rows` is set.
#[allow(clippy::too_many_arguments)]
pub fn selfplay_games<G, P>(
    options: &G::Options,
    names: &[String],
    provider: &P,
    seed: u64,
    range: Range<u64>,
    threads: Option<usize>,
    seat_rows: bool,
    progress: &Progress,
    watch: Watch<'_>,
) -> Result<Vec<Trajectory>>
where
    G: Knowledge,
    P: AgentProvider<G> + ?Sized,
{
    let names = unique_names(names.to_vec());
    let probe = G::new(game_seed(seed, 0), options)?;
    let players = probe.num_players();
    let fixtures = selfplay_fixtures(names.len(), players, range)?;
    let obs_len: usize = probe.observation_shape().iter().product();
    let num_actions = probe.num_actions();
    run_schedule(
        seed,
        &fixtures,
        threads,
        progress,
        provider,
        |f, agents| {
            let gs = game_seed(seed, f.deal);
            let mut game = G::new(gs, options)?;
            let mut t = Trajectory {
                index: f.index,
                seed: gs,
                seats: f.seats.clone(),
                players: Vec::new(),
                actions: Vec::new(),
                observations: Vec::new(),
                masks: Vec::new(),
                visits: Vec::new(),
                root_values: Vec::new(),
                seat_rows: Vec::new(),
                returns: Vec::new(),
            };
            let mut visits = Vec::new();
            let mut obs = vec![0.0f32; obs_len];
            let context = format!("self-play game {} (seed {gs})", f.index);
            play_with(
                &mut game,
                &context,
                Some(&progress.cancel),
                |g, p, legal, ply| {
                    let agent = f.seats.get(p).copied().unwrap_or(0);
                    let name = names.get(agent).map_or("?", String::as_str);
                    let agent_p = agents
                        .get_mut(p)
                        .ok_or_else(|| Error::invalid(format!("no agent for player {p}")))?;
                    let a = agent_p.act_and_visits(g, &mut visits).map_err(|e| {
                        super::with_context(e, &format!("{} {context}, ply {ply}", G::NAME))
                    })?;
                    let values = agent_p.root_values();
                    let players = g.num_players();
                    let row = t.root_values.len();
                    t.root_values.resize(row + players, f32::NAN);
                    if values.len() == players {
                        if let Some(dst) = t.root_values.get_mut(row..) {
                            for (d, &v) in dst.iter_mut().zip(values) {
                                *d = v as f32;
                            }
                        }
                    }
                    let i = check_choice(g, legal, a, name, p, &context, ply)?;
                    tell_moved(agents, g, &LastMove::played(g, a));
                    g.observation(p, &mut obs);
                    t.observations.extend_from_slice(&obs);
                    if seat_rows {
                        let at = t.seat_rows.len();
                        t.seat_rows.resize(at + obs_len * players, 0.0);
                        if let Some(dst) = t.seat_rows.get_mut(at..) {
                            crate::model::fill_row(crate::model::Input::Seats, g, p, dst);
                        }
                    }
                    let row = t.masks.len();
                    t.masks.resize(row + num_actions, false);
                    t.visits.resize(row + num_actions, 0);
                    for &l in legal {
                        if let Some(m) = t.masks.get_mut(row + g.action_id(l)) {
                            *m = true;
                        }
                    }
                    for &(va, n) in &visits {
                        if let Some(v) = t.visits.get_mut(row + g.action_id(va)) {
                            *v = n;
                        }
                    }
                    t.players.push(p as u32);
                    t.actions.push(g.action_id(a) as u32);
                    Ok(i)
                },
            )?;
            t.returns = game.returns();
            Ok(t)
        },
        watch,
    )
}
