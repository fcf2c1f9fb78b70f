//! The greedy agent: one ply of look-ahead, scored by the game's own [`Game::evaluate`].

use super::{no_moves, to_move, Agent, Teams};
use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::rng::GameRng;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct GreedyConfig {
    /// Determinizations each move is scored on (averaged). The agent never looks at the
    /// true hidden state: it scores moves in states redrawn by `resample_hidden`, all moves
    /// on the same draws (common random numbers). One is enough when the move itself reveals
    /// nothing and `evaluate` uses only the mover's information. `None`: the game's own
    /// number ([`Game::search_params`]; several where moves meet dice).
    pub samples: Option<u32>,
    pub seed: u64,
}

impl GreedyConfig {
    /// Most redraws per action (docs/protocol.md, "Limits"): each costs one evaluation of
    /// every legal action.
    pub const MAX_SAMPLES: u32 = 1 << 16;

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

/// Adds to `sums[i]` the value for `me` (its team's, [`Teams::value`]) of playing `moves[i]`,
/// summed over `samples` redraws of what `me` cannot see, every move on the same redraws
/// (common random numbers). Greedy picks by these sums; ISMCTS's root prior starts from them.
pub(super) fn score_moves<G: Game>(
    game: &G,
    me: Player,
    moves: &[G::Action],
    samples: u32,
    rng: &mut GameRng,
    teams: &Teams,
    sums: &mut [f64],
) -> Result<()> {
    for _ in 0..samples {
        super::cancel::check()?;
        let det = game.resample_hidden(me, rng.next_u64());
        for (v, &a) in sums.iter_mut().zip(moves) {
            let mut after = det.clone();
            after.apply(a).map_err(|e| {
                Error::invalid(format!(
                    "{}: {} is legal but fails in a determinization ({e}); \
                     resample_hidden must keep the mover's view",
                    G::NAME,
                    game.action_notation(a)
                ))
            })?;
            *v += teams.value(&after, me);
        }
    }
    Ok(())
}

/// Plays the action whose resulting position `evaluate`s best for the mover (a finished
/// game counts its true result; in a team game, the mean over the mover's team); exact ties
/// are broken uniformly by the agent's RNG.
pub struct GreedyAgent<G: Game> {
    config: GreedyConfig,
    rng: GameRng,
    buf: Vec<G::Action>,
    values: Vec<f64>,
    best: Vec<usize>,
}

impl<G: Game> GreedyAgent<G> {
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

impl<G: Game> Agent<G> for GreedyAgent<G> {
    fn act(&mut self, game: &G) -> Result<G::Action> {
        let me = to_move(game)?;
        game.legal_actions(&mut self.buf);
        match self.buf.len() {
            0 => return Err(no_moves::<G>()),
            1 => return Ok(self.buf[0]),
            _ => {}
        }
        self.values.clear();
        self.values.resize(self.buf.len(), 0.0);
        let teams = Teams::of(game);
        let samples = self
            .config
            .samples
            .unwrap_or_else(|| G::search_params().greedy_samples);
        score_moves(
            game,
            me,
            &self.buf,
            samples.max(1),
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
