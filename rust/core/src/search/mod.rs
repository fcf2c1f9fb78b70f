//! The agents, written once against the [`Game`] and [`Knowledge`] traits: every game (and
//! any added later) gets them by implementing them.
//!
//! - [`Agent`]: chooses a move for the player to move. Agents see the true game but reach
//!   hidden information only through [`Game::resample_hidden`], so they never cheat.
//! - [`RandomAgent`], [`HeuristicAgent`] (the game's own rules of thumb,
//!   [`Knowledge::heuristic_action`]), [`GreedyAgent`] (one ply, driven by [`Game::evaluate`]) and
//!   [`Ismcts`] (single-observer information-set Monte Carlo tree search).
//! - [`AgentSpec`]: a Rust agent as configuration (what Python holds and the CLI parses),
//!   built into a fresh agent for each game with a seed the arena derives.
//! - [`options`]: each agent's settings declared once, from which the command line, the
//!   Python keywords and the docs are derived; [`profile`]: each game's own settings.
//!
//! Matches and tournaments are [`crate::arena`]; many games stepped together for
//! reinforcement learning, [`crate::batch`].

pub mod cancel;
mod greedy;
mod heuristic;
mod ismcts;
#[cfg(test)]
mod nplayer_tests;
pub mod options;
pub mod profile;
mod random;
#[cfg(test)]
pub(crate) mod testgame;
#[cfg(test)]
mod tests;

pub(crate) use crate::knowledge::position_value;
pub use greedy::{GreedyAgent, GreedyConfig};
pub use heuristic::HeuristicAgent;
pub use ismcts::{Ismcts, IsmctsConfig, RootStat, SearchStats};
pub use options::{parse_options, AgentOptions, OptionInfo};
pub use random::RandomAgent;

use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::knowledge::Knowledge;
use crate::rng::derive;
use crate::session::LastMove;

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

    /// After [`act_and_visits`](Agent::act_and_visits): every player's value (index:
    /// player, in [-1, 1]) of the move chosen, as the agent's search estimated it; empty
    /// when there was no search. Self-play data records it as a value target.
    fn root_values(&self) -> &[f64] {
        &[]
    }

    /// Why this agent gave up the game, after an `act` that failed by forfeiting (an
    /// out-of-process bot that crashed, timed out or answered badly): that seat loses the
    /// game and a tournament goes on. `None` (the default): the failure is an error.
    fn forfeited(&self) -> Option<String> {
        None
    }

    /// Told of the match's last move, whoever played it: the game's own when the match
    /// starts, then each move as it is played (`game`: the state it was played in). An
    /// agent that hands its player a copy of the game (a Python agent) keeps what each seat
    /// saw of it, so the copy's view names the last move; the default ignores it.
    fn moved(&mut self, _game: &G, _last: &LastMove<G::Action>) {}
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
    fn root_values(&self) -> &[f64] {
        (**self).root_values()
    }
    fn moved(&mut self, game: &G, last: &LastMove<G::Action>) {
        (**self).moved(game, last)
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

    /// Parse the command-line form: `random`, `heuristic:seed=3`, `greedy`, `greedy:4`
    /// (samples), `greedy:settle=heuristic`, `ismcts` (1000 iterations), `ismcts:1000`,
    /// `ismcts:1000,c=0.5,depth=none,time=0.2`: the agent's settings ([`IsmctsConfig`],
    /// [`GreedyConfig`]) by name or alias, `none` for an unset one. An error names the
    /// setting at fault, or the agent kinds.
    pub fn parse(text: &str) -> Result<AgentSpec> {
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        match kind.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(AgentSpec::Random {
                seed: parse_options::<SeedConfig>(text, rest)?.seed,
            }),
            "heuristic" => Ok(AgentSpec::Heuristic {
                seed: parse_options::<SeedConfig>(text, rest)?.seed,
            }),
            "greedy" => Ok(AgentSpec::Greedy(parse_options(text, rest)?)),
            "ismcts" | "mcts" => Ok(AgentSpec::Ismcts(parse_options(text, rest)?)),
            other => Err(spec_error(
                text,
                &format!(
                    "unknown agent {other:?}; the agents are random, heuristic, greedy, ismcts"
                ),
            )),
        }
    }
}

crate::agent_options! {
    /// The settings of an agent whose only setting is its seed (`random`, `heuristic`).
    pub struct SeedConfig {
        /// The seed of the agent's random choices (an arena mixes in a per-game salt).
        pub seed: u64 = 0,
    }
}

impl AgentOptions for SeedConfig {
    const KIND: &'static str = "random and heuristic";
    const POSITIONAL: Option<&'static str> = None;
    const FIELDS: &'static [OptionInfo] = Self::FIELD_LIST;
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

fn spec_error(text: &str, why: &str) -> Error {
    Error::invalid(format!("bad agent {text:?}: {why}"))
}

#[cfg(test)]
mod spec_tests {
    use super::*;

    fn ismcts(text: &str) -> IsmctsConfig {
        match AgentSpec::parse(text) {
            Ok(AgentSpec::Ismcts(c)) => c,
            other => panic!("{text}: {other:?}"),
        }
    }

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
        let c = ismcts("ismcts:250,c=0.5,depth=8,expand=3,widening=none,seed=3");
        assert_eq!(c.iterations, Some(250));
        assert_eq!(c.exploration, Some(0.5));
        assert_eq!(c.rollout_depth, Some(8));
        assert_eq!(c.expand_samples, Some(3));
        assert_eq!(c.widening, None);
        assert_eq!(c.seed, 3);
        // The name round-trips (without the seed, which tables do not show).
        assert_eq!(c.name(), "ismcts:250,c=0.5,depth=8,expand=3,pw=none");
        assert_eq!(ismcts(&c.name()), IsmctsConfig { seed: 0, ..c });
        // Names and aliases alike.
        assert_eq!(
            ismcts("ismcts:iterations=250,exploration=0.5,rollout_depth=8"),
            ismcts("ismcts:250,c=0.5,depth=8")
        );
        // `settle=turn`: the heuristic settle, to the end of the leaf's turn.
        let c = ismcts("ismcts:settle=turn");
        assert_eq!(
            (c.settle, c.settle_heuristic, c.settle_turns),
            (Some(true), true, Some(1))
        );
        let c = ismcts("ismcts:depth=none");
        assert_eq!((c.iterations, c.rollout_depth), (Some(1000), None));
        let c = ismcts("ismcts:time=0.5");
        assert_eq!((c.iterations, c.time_limit), (None, Some(0.5)));
        assert_eq!(ismcts("ismcts:time_limit=0.5"), c);
        assert_eq!(AgentSpec::parse("ismcts").unwrap().name(), "ismcts:1000");
        for text in [
            "ismcts:500,settle=1",
            "ismcts:500,settle=1,settle_heuristic=1,settle_turns=2",
            "ismcts:500,expand=4,routine=1",
            "ismcts:500,routine=0",
            "ismcts:300,halving=8,first_reply=16,finalist_depth=2,finalist_heuristic=1",
        ] {
            let c = ismcts(text);
            assert_eq!(c.name(), text);
            assert_eq!(ismcts(&c.name()), c);
        }
        assert_eq!(
            AgentSpec::parse("greedy:4,settle=heuristic").unwrap(),
            AgentSpec::Greedy(GreedyConfig {
                samples: Some(4),
                settle: Some(true),
                seed: 0
            })
        );
        let g = AgentSpec::parse("greedy:samples=4,settle=none,seed=2").unwrap();
        assert_eq!(g.name(), "greedy:4,settle=0");
        assert_eq!(AgentSpec::parse(&g.name()).unwrap().name(), g.name());
    }

    #[test]
    fn bad_specs_name_the_setting() {
        for (bad, says) in [
            ("alphazero", "unknown agent"),
            ("ismcts:x", "iterations: \"x\" is not a whole number"),
            ("ismcts:abc", "iterations: \"abc\""),
            (
                "ismcts:1000,foo=1",
                "ismcts takes iterations, time_limit (time)",
            ),
            ("greedy:samples=0", "samples"),
            ("ismcts:c=-1", "exploration"),
            ("ismcts:c=x", "c: \"x\" is not a number"),
            ("ismcts:c=nan", "is not a number"),
            ("ismcts:settle=greedy", "settle: \"greedy\" is not 1 or 0"),
            ("ismcts:settle_turns=-1", "settle_turns"),
            (
                "ismcts:halving=99999999999",
                "halving: 99999999999 is larger",
            ),
            ("ismcts:cv=1", "not \"cv\""),
            ("ismcts:1000,2000", "expected key=value"),
            ("random:7", "expected key=value"),
            ("heuristic:samples=2", "heuristic takes only seed"),
        ] {
            let e = AgentSpec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(&format!("{bad:?}")), "{e}");
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn retired_settings_are_refused_as_retired() {
        for (bad, name) in [
            ("ismcts:500,pick=0.5", "pick"),
            ("ismcts:500,prior=4,pv=10", "prior"),
            ("ismcts:prior_samples=3", "prior_samples"),
            ("ismcts:prior_settle=1", "prior_settle"),
        ] {
            let e = AgentSpec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(&format!("{name} was retired")), "{e}");
        }
    }

    #[test]
    fn the_field_list_is_the_struct() {
        let mut names: Vec<&str> = IsmctsConfig::FIELD_LIST.iter().map(|f| f.name).collect();
        names.sort_unstable();
        let json = options::options_json(&IsmctsConfig::default());
        assert_eq!(names, json.keys().map(String::as_str).collect::<Vec<_>>());
        let c = IsmctsConfig::FIELD_LIST
            .iter()
            .find(|f| f.name == "exploration")
            .unwrap();
        assert_eq!((c.short(), c.rust_type), ("c", "Option<f64>"));
        assert!(c.doc.contains("exploration constant"), "{}", c.doc);
    }
}
