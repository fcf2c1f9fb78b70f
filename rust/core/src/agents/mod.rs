//! Agents and arenas, written once against the [`Game`] trait: every game (and any added
//! later) gets them by implementing it.
//!
//! - [`Agent`]: chooses a move for the player to move. Agents see the true game but reach
//!   hidden information only through [`Game::resample_hidden`], so they never cheat.
//! - [`RandomAgent`], [`HeuristicAgent`] (the game's own rules of thumb,
//!   [`Knowledge::heuristic_action`]), [`GreedyAgent`] (one ply, driven by [`Game::evaluate`]) and
//!   [`Ismcts`] (single-observer information-set Monte Carlo tree search).
//! - [`AgentSpec`]: a Rust agent as configuration (what Python holds and the CLI parses),
//!   built into a fresh agent for each game with a seed the arena derives.
//! - [`arena`]: matches and multi-core tournaments (run by [`scheduler`], games played by
//!   [`playout`]); [`elo`]: ratings with confidence intervals; [`batch`]: many games stepped
//!   together for reinforcement learning.

pub mod arena;
#[cfg(test)]
mod arena_tests;
pub mod batch;
pub mod cancel;
pub mod elo;
mod greedy;
mod heuristic;
mod ismcts;
#[cfg(test)]
mod nplayer_tests;
/// The game loop the arena plays through (kept at `agents::playout` for its users).
pub use crate::playout;
pub mod profile;
mod random;
pub mod scheduler;
pub mod selfplay;
#[cfg(test)]
pub(crate) mod testgame;
#[cfg(test)]
mod tests;

pub(crate) use crate::knowledge::position_value;
pub use greedy::{GreedyAgent, GreedyConfig};
pub use heuristic::HeuristicAgent;
pub use ismcts::{Ismcts, IsmctsConfig, RootStat, SearchStats};
pub use random::RandomAgent;

use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::knowledge::Knowledge;
use crate::rng::derive;

/// Something that chooses moves.
pub trait Agent<G: Game>: Send {
    /// A legal action for the player to move in `game` (which must be running). An agent
    /// uses only what that player may see: hidden information is reached solely through
    /// `Game::resample_hidden`.
    fn act(&mut self, game: &G) -> Result<G::Action>;

    /// [`act`](Agent::act), and for an agent that searches, the visit count of each root
    /// action written into `visits` (cleared first; left empty when there was no search).
    /// Self-play data records them as policy targets.
    fn act_and_visits(
        &mut self,
        game: &G,
        visits: &mut Vec<(G::Action, u32)>,
    ) -> Result<G::Action> {
        visits.clear();
        self.act(game)
    }

    /// Why this agent gave up the game, after an `act` that failed by forfeiting (an
    /// out-of-process bot that crashed, timed out or answered badly): that seat loses the
    /// game and a tournament goes on. `None` (the default): the failure is an error.
    fn forfeited(&self) -> Option<String> {
        None
    }
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn act(&mut self, game: &G) -> Result<G::Action> {
        (**self).act(game)
    }
    fn forfeited(&self) -> Option<String> {
        (**self).forfeited()
    }
    fn act_and_visits(
        &mut self,
        game: &G,
        visits: &mut Vec<(G::Action, u32)>,
    ) -> Result<G::Action> {
        (**self).act_and_visits(game, visits)
    }
}

/// The error for a running game without legal actions (an engine bug, reported).
pub(crate) fn no_moves<G: Game>() -> Error {
    Error::invalid(format!("{}: no legal action in a running game", G::NAME))
}

/// Who plays with whom, read once from a game ([`Game::team`]): in a team game partners
/// share one value (the mean of theirs), so each player works for its team.
#[derive(Clone, Debug, Default)]
pub(crate) struct Teams {
    /// `partners[p]`: the players of `p`'s team, `p` included; empty when no two players
    /// share a team (then every value is the player's own, at no cost).
    partners: Vec<Vec<Player>>,
}

impl Teams {
    pub(crate) fn of<G: Game>(game: &G) -> Teams {
        let n = game.num_players();
        let team: Vec<usize> = (0..n).map(|p| game.team(p)).collect();
        let partners: Vec<Vec<Player>> = (0..n)
            .map(|p| (0..n).filter(|&q| team[q] == team[p]).collect())
            .collect();
        if partners.iter().all(|t| t.len() <= 1) {
            return Teams::default();
        }
        Teams { partners }
    }

    /// Whether some players share a team.
    pub(crate) fn shared(&self) -> bool {
        !self.partners.is_empty()
    }

    /// What `game` is worth to `player`'s team ([`position_value`], averaged over partners).
    pub(crate) fn value<G: Game>(&self, game: &G, player: Player) -> f64 {
        match self.partners.get(player) {
            Some(team) if team.len() > 1 => {
                team.iter().map(|&q| position_value(game, q)).sum::<f64>() / team.len() as f64
            }
            _ => position_value(game, player),
        }
    }

    /// Replace each player's value in `values` by its team's mean.
    pub(crate) fn share(&self, values: &mut [f64], scratch: &mut Vec<f64>) {
        if !self.shared() {
            return;
        }
        scratch.clear();
        scratch.extend_from_slice(values);
        for (p, v) in values.iter_mut().enumerate() {
            if let Some(team) = self.partners.get(p).filter(|t| !t.is_empty()) {
                *v = team
                    .iter()
                    .map(|&q| scratch.get(q).copied().unwrap_or(0.0))
                    .sum::<f64>()
                    / team.len() as f64;
            }
        }
    }
}

/// `game` after `action`, which the caller found legal in it; an error that names the move
/// if it fails (a game whose `legal_actions`, `apply` and `resample_hidden` disagree).
pub(crate) fn played<G: Game>(game: &G, action: G::Action) -> Result<G> {
    let mut after = game.clone();
    after.apply(action).map_err(|e| {
        Error::invalid(format!(
            "{}: {} is legal but fails in a determinization ({e}); \
             resample_hidden must keep the mover's view",
            G::NAME,
            game.action_notation(action)
        ))
    })?;
    Ok(after)
}

/// Fills `values` with the worth to `mover`'s team ([`Teams::value`]) of each of `actions`
/// played from `game`, in order. Without teams the game judges them all at once
/// ([`Knowledge::evaluate_after`]: the same values, faster where the game has a way); where it has
/// no way or that fails, each move is played in turn ([`played`]), so an error names the move
/// that failed.
pub(crate) fn judge_moves<G: Knowledge>(
    game: &G,
    actions: &[G::Action],
    mover: Player,
    teams: &Teams,
    values: &mut Vec<f64>,
) -> Result<()> {
    if !teams.shared() && game.evaluate_after(actions, mover, values).unwrap_or(false) {
        return Ok(());
    }
    values.clear();
    for &a in actions {
        values.push(teams.value(&played(game, a)?, mover));
    }
    Ok(())
}

/// Of `actions` played from `game`, the one whose position is worth most to `mover`'s team
/// (ties: the first), with its value and the position it leads to; `None` for no actions.
/// Judged as [`judge_moves`] does, `values` its scratch, except that the move-by-move way
/// keeps the best position as it goes: building it again after [`judge_moves`] cost
/// Zinordia's search (always move by move, for its teams) 1.8% an iteration.
pub(crate) fn best_reply<G: Knowledge>(
    game: &G,
    actions: &[G::Action],
    mover: Player,
    teams: &Teams,
    values: &mut Vec<f64>,
) -> Result<Option<(f64, G::Action, G)>> {
    if !teams.shared() && game.evaluate_after(actions, mover, values).unwrap_or(false) {
        let mut best: Option<(f64, G::Action)> = None;
        for (&a, &v) in actions.iter().zip(values.iter()) {
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, a));
            }
        }
        return best
            .map(|(v, a)| played(game, a).map(|after| (v, a, after)))
            .transpose();
    }
    let mut best: Option<(f64, G::Action, G)> = None;
    for &a in actions {
        let after = played(game, a)?;
        let v = teams.value(&after, mover);
        if best.as_ref().is_none_or(|(b, _, _)| v > *b) {
            best = Some((v, a, after));
        }
    }
    Ok(best)
}

/// The move a judging agent plays without judging, given the legal moves `legal` of
/// `game`: the only one, or the game's [`Knowledge::dominant_action`]; `None` when there is a
/// choice to weigh. An error when nothing is legal.
pub(crate) fn obvious_move<G: Knowledge>(
    game: &G,
    legal: &[G::Action],
) -> Result<Option<G::Action>> {
    match legal {
        [] => Err(no_moves::<G>()),
        [only] => Ok(Some(*only)),
        _ => Ok(game.dominant_action().filter(|a| legal.contains(a))),
    }
}

/// The player to move, or an error for a finished game.
pub(crate) fn to_move<G: Game>(game: &G) -> Result<usize> {
    game.current_player()
        .ok_or_else(|| Error::invalid(format!("{}: the game is over, no one to move", G::NAME)))
}

/// Combine an agent's own seed with the salt an arena gives it for one game and seat:
/// keyed by the salt (secret, derived from the match seed) through the one-way [`derive()`].
pub fn agent_seed(seed: u64, salt: u64) -> u64 {
    derive(salt, &[0xA6E7_5EED, seed])
}

/// A Rust agent as plain configuration.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    Random { seed: u64 },
    Heuristic { seed: u64 },
    Greedy(GreedyConfig),
    Ismcts(IsmctsConfig),
}

impl AgentSpec {
    /// A fresh agent for one game: its seed is the spec's own seed mixed with `salt` (the
    /// arena derives the salt from the tournament seed, game index and seat).
    pub fn build<G: Knowledge>(&self, salt: u64) -> Box<dyn Agent<G>> {
        match self {
            AgentSpec::Random { seed } => Box::new(RandomAgent::<G>::new(agent_seed(*seed, salt))),
            AgentSpec::Heuristic { seed } => {
                Box::new(HeuristicAgent::<G>::new(agent_seed(*seed, salt)))
            }
            AgentSpec::Greedy(c) => Box::new(GreedyAgent::<G>::new(GreedyConfig {
                seed: agent_seed(c.seed, salt),
                ..c.clone()
            })),
            AgentSpec::Ismcts(c) => Box::new(Ismcts::<G>::new(IsmctsConfig {
                seed: agent_seed(c.seed, salt),
                ..c.clone()
            })),
        }
    }

    /// A short name for tables: `random`, `heuristic`, `greedy`, `ismcts:1000`.
    pub fn name(&self) -> String {
        match self {
            AgentSpec::Random { .. } => "random".into(),
            AgentSpec::Heuristic { .. } => "heuristic".into(),
            AgentSpec::Greedy(c) => c.name(),
            AgentSpec::Ismcts(c) => c.name(),
        }
    }

    /// Parse the command-line form: `random`, `heuristic`, `greedy`, `greedy:samples=4`,
    /// `greedy:settle=heuristic`, `ismcts`
    /// (1000 iterations), `ismcts:1000`, `ismcts:1000,c=0.5,depth=none,time=0.2`
    /// (keys: `iterations`, `time` (seconds), `exploration`/`c`, `depth` (rollout depth;
    /// `none`: to the end), `expand` (expansion samples), `widening` (`none`: off), `settle`
    /// (`heuristic`, `turn`: to the end of the turn, `0`/`1`), `settle_turns` (whole turns), `prior`
    /// (root prior redraws), `pv` (the prior's weight in visits), `prior_settle`
    /// (`heuristic`/`none`: the prior judged as the settled Greedy), `pick` (best mean
    /// among children with this share of the top visits), `routine` (`1`: the game's
    /// routine decisions played by rule below the root), `seed`;
    /// `samples`, `settle` (`heuristic`: finish the mover's turn with the game's rule-based
    /// player before judging; `none`: judge right after the move) and `seed` for greedy;
    /// `seed` for random and heuristic).
    pub fn parse(text: &str) -> Result<AgentSpec> {
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for (i, part) in rest.split(',').filter(|p| !p.trim().is_empty()).enumerate() {
            match part.split_once('=') {
                Some((k, v)) => pairs.push((k.trim(), v.trim())),
                None if i == 0 => pairs.push(("", part.trim())),
                None => {
                    return Err(spec_error(
                        text,
                        &format!("expected key=value, got {part:?}"),
                    ))
                }
            }
        }
        // The field's name before its value, none for the positional count (`ismcts:N`).
        let field = |k: &str| {
            if k.is_empty() {
                String::new()
            } else {
                format!("{k}: ")
            }
        };
        let num = |k: &str, v: &str| -> Result<f64> {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| spec_error(text, &format!("{}{v:?} is not a number", field(k))))
        };
        let int = |k: &str, v: &str| -> Result<u64> {
            v.parse::<u64>().map_err(|_| {
                spec_error(
                    text,
                    &format!("{}{v:?} is not a whole number >= 0", field(k)),
                )
            })
        };
        let kind = kind.trim().to_ascii_lowercase();
        match kind.as_str() {
            "random" | "heuristic" => {
                let mut seed = 0;
                for (k, v) in pairs {
                    match k {
                        "seed" => seed = int(k, v)?,
                        _ => {
                            return Err(spec_error(
                                text,
                                &format!("{kind} takes only seed, not {k:?}"),
                            ))
                        }
                    }
                }
                Ok(if kind == "random" {
                    AgentSpec::Random { seed }
                } else {
                    AgentSpec::Heuristic { seed }
                })
            }
            "greedy" => {
                let mut c = GreedyConfig::default();
                for (k, v) in pairs {
                    match k {
                        "seed" => c.seed = int(k, v)?,
                        "" | "samples" => {
                            c.samples = Some(int(k, v)?.try_into().unwrap_or(u32::MAX))
                        }
                        "settle" => {
                            c.settle = Some(match v {
                                "heuristic" | "1" => true,
                                "none" | "0" => false,
                                _ => {
                                    return Err(spec_error(
                                        text,
                                        &format!("settle: {v:?} is not heuristic or none"),
                                    ))
                                }
                            })
                        }
                        _ => {
                            return Err(spec_error(
                                text,
                                &format!("greedy takes samples, settle and seed, not {k:?}"),
                            ))
                        }
                    }
                }
                c.validate().map_err(|e| spec_error(text, &e.to_string()))?;
                Ok(AgentSpec::Greedy(c))
            }
            "ismcts" | "mcts" => {
                let mut c = IsmctsConfig::default();
                let (mut iterations_given, mut time_given) = (false, false);
                for (k, v) in pairs {
                    match k {
                        "" | "iterations" => {
                            c.iterations = Some(int(k, v)?);
                            iterations_given = true;
                        }
                        "time" | "time_limit" => {
                            c.time_limit = Some(num(k, v)?);
                            time_given = true;
                        }
                        "exploration" | "c" => c.exploration = Some(num(k, v)?),
                        "depth" | "rollout_depth" => {
                            c.rollout_depth = match v {
                                "none" | "end" => None,
                                _ => Some(int(k, v)?.try_into().unwrap_or(u32::MAX)),
                            }
                        }
                        "seed" => c.seed = int(k, v)?,
                        "settle" => {
                            // `settle=heuristic`: finish the mover's moves with the game's
                            // rule-based move; `settle=turn`: the same to the end of the turn.
                            c.settle_heuristic = v == "heuristic" || v == "turn";
                            c.settle = Some(c.settle_heuristic || int(k, v)? != 0);
                            if v == "turn" {
                                c.settle_turns = Some(1);
                            }
                        }
                        "settle_turns" => {
                            c.settle_turns = Some(int(k, v)?.try_into().unwrap_or(u32::MAX))
                        }
                        "prior_settle" => {
                            c.prior_settle = Some(match v {
                                "heuristic" | "1" => true,
                                "none" | "0" => false,
                                _ => {
                                    return Err(spec_error(
                                        text,
                                        &format!("prior_settle: {v:?} is not heuristic or none"),
                                    ))
                                }
                            })
                        }
                        "prior" | "prior_samples" => {
                            c.prior_samples = Some(int(k, v)?.try_into().unwrap_or(u32::MAX))
                        }
                        "pv" | "prior_visits" => c.prior_visits = Some(num(k, v)?),
                        "pick" => c.pick = Some(num(k, v)?),
                        "routine" => c.routine = Some(int(k, v)? != 0),
                        "halving" => c.halving = Some(int(k, v)?.try_into().unwrap_or(u32::MAX)),
                        "first_reply" | "first_reply_expand" => {
                            c.first_reply_expand =
                                Some(int(k, v)?.try_into().unwrap_or(u32::MAX))
                        }
                        "finalist_depth" => {
                            c.finalist_depth = Some(int(k, v)?.try_into().unwrap_or(u32::MAX))
                        }
                        "finalist_heuristic" => {
                            c.finalist_heuristic = Some(int(k, v)? != 0)
                        }
                        "finalist_expand" => {
                            c.finalist_expand = Some(int(k, v)?.try_into().unwrap_or(u32::MAX))
                        }
                        "expand" | "expand_samples" => {
                            c.expand_samples = Some(int(k, v)?.try_into().unwrap_or(u32::MAX))
                        }
                        "widening" | "pw" => {
                            c.widening = match v {
                                "none" | "off" => None,
                                _ => Some(num(k, v)?),
                            }
                        }
                        _ => return Err(spec_error(
                            text,
                            &format!("ismcts takes iterations, time, c, depth, expand, widening, settle, settle_turns, prior, pv, prior_settle, pick, routine, halving, first_reply, finalist_depth, finalist_expand, finalist_heuristic and seed, not {k:?}"),
                        )),
                    }
                }
                // `ismcts:time=1` means a time budget alone; add iterations to cap both.
                if time_given && !iterations_given {
                    c.iterations = None;
                }
                c.validate().map_err(|e| spec_error(text, &e.to_string()))?;
                Ok(AgentSpec::Ismcts(c))
            }
            other => Err(spec_error(
                text,
                &format!(
                    "unknown agent {other:?}; the agents are random, heuristic, greedy, ismcts"
                ),
            )),
        }
    }
}

fn spec_error(text: &str, why: &str) -> Error {
    Error::invalid(format!("bad agent {text:?}: {why}"))
}

#[cfg(test)]
mod spec_tests {
    use super::*;

    #[test]
    fn specs_parse_and_name() {
        assert_eq!(
            AgentSpec::parse("random").unwrap(),
            AgentSpec::Random { seed: 0 }
        );
        assert_eq!(AgentSpec::parse("greedy").unwrap().name(), "greedy");
        assert_eq!(
            AgentSpec::parse("heuristic:seed=4").unwrap(),
            AgentSpec::Heuristic { seed: 4 }
        );
        assert_eq!(AgentSpec::parse("heuristic").unwrap().name(), "heuristic");
        let text = "ismcts:250,c=0.5,depth=8,expand=3,widening=none,seed=3";
        let AgentSpec::Ismcts(c) = AgentSpec::parse(text).unwrap() else {
            panic!("not ismcts")
        };
        assert_eq!(c.iterations, Some(250));
        assert_eq!(c.exploration, Some(0.5));
        assert_eq!(c.rollout_depth, Some(8));
        assert_eq!(c.expand_samples, Some(3));
        assert_eq!(c.widening, None);
        assert_eq!(c.seed, 3);
        // The name round-trips (without the seed, which tables do not show).
        assert_eq!(c.name(), "ismcts:250,c=0.5,depth=8,expand=3,widening=none");
        assert_eq!(
            AgentSpec::parse(&c.name()).unwrap(),
            AgentSpec::Ismcts(IsmctsConfig { seed: 0, ..c })
        );
        // `settle=turn`: the heuristic settle, to the end of the leaf's turn.
        let AgentSpec::Ismcts(c) = AgentSpec::parse("ismcts:settle=turn").unwrap() else {
            panic!("not ismcts")
        };
        assert_eq!(
            (c.settle, c.settle_heuristic, c.settle_turns),
            (Some(true), true, Some(1))
        );
        let AgentSpec::Ismcts(c) = AgentSpec::parse("ismcts:depth=none").unwrap() else {
            panic!("not ismcts")
        };
        assert_eq!((c.iterations, c.rollout_depth), (Some(1000), None));
        let AgentSpec::Ismcts(c) = AgentSpec::parse("ismcts:time=0.5").unwrap() else {
            panic!("not ismcts")
        };
        assert_eq!((c.iterations, c.time_limit), (None, Some(0.5)));
        assert_eq!(AgentSpec::parse("ismcts").unwrap().name(), "ismcts:1000");
        for text in [
            "ismcts:500,settle=heuristic,prior=4,pv=10",
            "ismcts:500,settle=1,prior=0",
            "ismcts:500,settle=heuristic,settle_turns=2,prior=4,pv=10,prior_settle=1",
            "ismcts:500,pick=0.5",
            "ismcts:500,expand=4,pick=0.5,routine=1",
            "ismcts:500,routine=0",
        ] {
            let AgentSpec::Ismcts(c) = AgentSpec::parse(text).unwrap() else {
                panic!("not ismcts")
            };
            assert_eq!(c.name(), text);
            assert_eq!(AgentSpec::parse(&c.name()).unwrap(), AgentSpec::Ismcts(c));
        }
        for bad in [
            "alphazero",
            "ismcts:x",
            "ismcts:1000,foo=1",
            "greedy:samples=0",
            "ismcts:c=-1",
            "ismcts:pv=-1",
            "ismcts:prior=x",
            "ismcts:settle=greedy",
            "ismcts:prior_settle=x",
            "ismcts:settle_turns=-1",
            "ismcts:pick=-0.5",
            "ismcts:pick=x",
            "ismcts:cv=1",
            "ismcts:worlds=32",
            "random:7",
            "heuristic:samples=2",
        ] {
            let e = AgentSpec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(bad), "{e}");
        }
    }
}
