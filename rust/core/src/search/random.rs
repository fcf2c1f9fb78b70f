//! The uniformly random agent: the baseline every other agent must beat.

use super::{no_moves, to_move, Agent};
use crate::error::Result;
use crate::game::Game;
use crate::rng::GameRng;

/// Plays a uniformly chosen legal action, from its own seeded RNG.
pub struct RandomAgent<G: Game> {
    rng: GameRng,
    buf: Vec<G::Action>,
}

impl<G: Game> RandomAgent<G> {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: GameRng::seed(seed),
            buf: Vec::new(),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent<G> {
    fn act(&mut self, game: &G) -> Result<G::Action> {
        to_move(game)?;
        game.legal_actions(&mut self.buf);
        self.rng
            .choose(&self.buf)
            .copied()
            .ok_or_else(no_moves::<G>)
    }
}
