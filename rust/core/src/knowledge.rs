//! What a game knows about playing it well, beside its rules: the judgement hooks agents read
//! (OpenSpiel keeps bots out of games and lets knowledge reach the search through an
//! evaluator; this is that evaluator, with the game's rule-based player).
//!
//! Every game implements it next to its `evaluate.rs` and `heuristic.rs`; the agents
//! (`crate::search`) are its clients, and no game module imports them.

use crate::error::Result;
use crate::game::{Game, Player};
use crate::rng::GameRng;

/// What a position is worth to `player`: the true result once the game is over, the game's
/// `evaluate` before.
pub fn position_value<G: Game>(game: &G, player: Player) -> f64 {
    if game.is_terminal() {
        game.returns().get(player).copied().unwrap_or(0.0)
    } else {
        game.evaluate(player)
    }
}

/// A game's judgement for the agents; every method has a default, so a game starts with an
/// empty `impl Knowledge` and adds what it can do faster or better.
pub trait Knowledge: Game {
    /// [`Game::evaluate`] for every player at once: `out[p]` gets `evaluate(p)`, for each
    /// `p` below `out.len()`. A game whose players' values are tied overrides it to compute
    /// them once, and must give exactly the same values (Battle Line's are zero-sum: player
    /// 1's is player 0's negated); the search scores its leaves through it.
    fn evaluate_each(&self, out: &mut [f64]) {
        for (p, v) in out.iter_mut().enumerate() {
            *v = self.evaluate(p);
        }
    }

    /// Each of `actions` (legal here) judged for `player`: into `out`, in order, what
    /// `evaluate(player)` gives the position after it (the true result, `returns()`, where
    /// it ends the game). A game overrides this when it has a faster way than playing each
    /// action on a copy and evaluating that, and must then give exactly the same values
    /// (Battle Line reuses what a troop play leaves unchanged, `battleline/judge.rs`); the
    /// search's expansions judge their candidates through it. `Ok(false)`: no faster way
    /// (the default), `out` left alone.
    fn evaluate_after(
        &self,
        actions: &[Self::Action],
        player: Player,
        out: &mut Vec<f64>,
    ) -> Result<bool> {
        let _ = (actions, player, out);
        Ok(false)
    }

    /// The move a sensible rule-based player makes here (the `Heuristic` agent, issue 14):
    /// the game's own rules of thumb, no search. Uses only what the player to move may see;
    /// `rng` breaks ties. `None`: this game has no heuristic player (the agent refuses it).
    fn heuristic_action(&self, rng: &mut GameRng) -> Option<Self::Action> {
        let _ = rng;
        None
    }

    /// A decision the search may take by rule instead of branching on it (ISMCTS's opt-in
    /// `routine`): the move, when the decision to be made here is routine for this game,
    /// from what the player to move may see; `rng` breaks ties. Default: none is routine.
    fn routine_action(&self, rng: &mut GameRng) -> Option<Self::Action> {
        let _ = rng;
        None
    }

    /// A move that no other move here is better than, which the judging agents (Greedy,
    /// ISMCTS) play at once instead of weighing it against the rest: judged by evaluation
    /// or search, a move only a little better than another is often lost to noise (issue
    /// 14, round 24: Battle Line's search declined a provable claim about once in two games).
    /// Read only from what the player to move may see. Default: none.
    fn dominant_action(&self) -> Option<Self::Action> {
        None
    }
}
