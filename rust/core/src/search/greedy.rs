//! The greedy agent: one ply of look-ahead, scored by the game's own [`Game::evaluate`](crate::game::Game::evaluate)
//! (optionally after the rest of the mover's turn is played by the game's rule-based
//! player: `settle`).

use super::{judge_moves, obvious_move, played, to_move, Agent, Teams};
use crate::error::{Error, Result};
use crate::game::Player;
use crate::knowledge::Knowledge;
use crate::rng::GameRng;

crate::agent_options! {
    /// Greedy's settings. `None` in a setting means the game's own
    /// ([`profile`](super::profile)).
    pub struct GreedyConfig {
        /// Redraws of what the mover cannot see (future dice included) each move is scored
        /// on, every move on the same redraws, averaged. None: the game's own number
        /// (several where moves meet dice).
        pub samples: Option<u32> = None,
        /// Judge a move after the rest of the mover's turn is played by the game's
        /// rule-based player (`Knowledge::heuristic_action`), for games whose turn is many
        /// decisions; False: right after the move; None: the game's own choice.
        pub settle: Option<bool> = None,
        /// The seed of the agent's tie-breaking (an arena mixes in a per-game salt).
        pub seed: u64 = 0,
    }
}

impl super::options::AgentOptions for GreedyConfig {
    const KIND: &'static str = "greedy";
    const POSITIONAL: Option<&'static str> = Some("samples");
    const FIELDS: &'static [super::options::OptionInfo] = Self::FIELD_LIST;

    fn validate(&self) -> Result<()> {
        GreedyConfig::validate(self)
    }

    /// `settle=heuristic`: the settle (its only kind); `settle=none`: no settle, as
    /// `settle=0` (not the game's choice).
    fn shorthand(key: &str, value: &str) -> Option<Vec<(&'static str, &'static str)>> {
        match (key, value) {
            ("settle", "heuristic") => Some(vec![("settle", "1")]),
            ("settle", "none") => Some(vec![("settle", "0")]),
            _ => None,
        }
    }
}

impl GreedyConfig {
    /// Most redraws per action (docs/protocol.md, "Limits"): each costs one evaluation of
    /// every legal action.
    pub const MAX_SAMPLES: u32 = 1 << 16;

    /// The short name used in tables: `greedy`, `greedy:4,settle=1`.
    pub fn name(&self) -> String {
        super::options::options_name(self)
    }

    pub fn validate(&self) -> Result<()> {
        match self.samples {
            Some(n) if !(1..=Self::MAX_SAMPLES).contains(&n) => Err(Error::argument(
                "greedy: samples",
                &format!("1..={}", Self::MAX_SAMPLES),
                &n.to_string(),
            )),
            _ => Ok(()),
        }
    }
}

/// Most decisions a settle plays after the move judged: a guard against a heuristic player
/// that never ends its turn (a Zinordia turn is a few dozen decisions at most).
pub(super) const MAX_SETTLE: u32 = 512;

/// Adds to `sums[i]` the value for `me` (its team's, [`Teams::value`]) of playing `moves[i]`,
/// summed over `samples` redraws of what `me` cannot see, every move on the same redraws
/// (common random numbers). With `settle` each move's position is judged after the rest of
/// the turn it is made in is played by the game's rule-based player ([`settle`]), every move
/// with the same tie-breaking draws in a redraw. Greedy picks by these sums; ISMCTS's
/// halving picks its candidates by them.
pub(super) fn score_settled<G: Knowledge>(
    game: &G,
    me: Player,
    moves: &[G::Action],
    (samples, settle_turn): (u32, bool),
    rng: &mut GameRng,
    teams: &Teams,
    sums: &mut [f64],
) -> Result<()> {
    // The turn the move is made in: settling finishes it (a reaction inside another
    // player's turn is judged after the rest of that turn).
    let owner = game.turn_owner();
    let mut judged = Vec::new();
    for _ in 0..samples {
        super::cancel::check()?;
        let det = game.resample_hidden(me, rng.next_u64());
        // Drawn only when settling, so the plain Greedy's draws stay as they were.
        let ties = if settle_turn { rng.next_u64() } else { 0 };
        if !settle_turn {
            // All at once where the game has a way (`Knowledge::evaluate_after`).
            judge_moves(&det, moves, me, teams, &mut judged)?;
            for (v, j) in sums.iter_mut().zip(&judged) {
                *v += j;
            }
            continue;
        }
        for (v, &a) in sums.iter_mut().zip(moves) {
            let mut after = played(&det, a)?;
            settle(&mut after, owner, &mut GameRng::seed(ties))?;
            *v += teams.value(&after, me);
        }
    }
    Ok(())
}

/// Plays the rest of `owner`'s turn in `state` with the game's rule-based moves
/// ([`Knowledge::heuristic_action`]), every decision inside it (reactions of others included),
/// until the turn changes hands ([`Game::turn_owner`](crate::game::Game::turn_owner)) or the game ends. A game without a
/// heuristic player is left as it is.
fn settle<G: Knowledge>(state: &mut G, owner: Option<Player>, rng: &mut GameRng) -> Result<()> {
    for _ in 0..MAX_SETTLE {
        if state.is_terminal() || state.turn_owner() != owner {
            break;
        }
        let Some(a) = state.heuristic_action(rng) else {
            break;
        };
        state.apply(a).map_err(|e| {
            Error::invalid(format!(
                "{}: the heuristic move {} is illegal ({e})",
                G::NAME,
                state.action_notation(a)
            ))
        })?;
    }
    Ok(())
}

/// Plays the action whose resulting position `evaluate`s best for the mover (a finished
/// game counts its true result; in a team game, the mean over the mover's team); exact ties
/// are broken uniformly by the agent's RNG.
pub struct GreedyAgent<G: Knowledge> {
    config: GreedyConfig,
    rng: GameRng,
    buf: Vec<G::Action>,
    values: Vec<f64>,
    best: Vec<usize>,
}

impl<G: Knowledge> GreedyAgent<G> {
    pub fn new(config: GreedyConfig) -> Self {
        GreedyAgent {
            rng: GameRng::seed(config.seed),
            config,
            buf: Vec::new(),
            values: Vec::new(),
            best: Vec::new(),
        }
    }
}

impl<G: Knowledge> Agent<G> for GreedyAgent<G> {
    fn act(&mut self, game: &G) -> Result<G::Action> {
        let me = to_move(game)?;
        game.legal_actions(&mut self.buf);
        if let Some(a) = obvious_move(game, &self.buf)? {
            return Ok(a);
        }
        self.values.clear();
        self.values.resize(self.buf.len(), 0.0);
        let teams = Teams::of(game);
        let params = super::profile::search_params::<G>();
        let samples = self.config.samples.unwrap_or(params.greedy_samples);
        let settle = self.config.settle.unwrap_or(params.greedy_settle);
        score_settled(
            game,
            me,
            &self.buf,
            (samples.max(1), settle),
            &mut self.rng,
            &teams,
            &mut self.values,
        )?;
        let top = self
            .values
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        self.best.clear();
        self.best
            .extend((0..self.values.len()).filter(|&i| self.values[i] >= top - 1e-12));
        if self.best.is_empty() {
            // Every value NaN (a broken evaluate): fall back to a uniform choice.
            self.best.extend(0..self.values.len());
        }
        let pick = self.best[self.rng.below(self.best.len())];
        Ok(self.buf[pick])
    }
}
