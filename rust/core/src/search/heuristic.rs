//! The heuristic agent: each game's own rules of thumb ([`Knowledge::heuristic_action`]), no
//! search. A sparring partner that plays like a sensible person rather than like a search.

use super::{no_moves, to_move, Agent};
use crate::error::{Error, Result};
use crate::knowledge::Knowledge;
use crate::rng::GameRng;

/// Plays [`Knowledge::heuristic_action`]; its seeded RNG only breaks ties. For a game without a
/// heuristic player every move is an error naming the game.
pub struct HeuristicAgent<G: Knowledge> {
    rng: GameRng,
    buf: Vec<G::Action>,
}

impl<G: Knowledge> HeuristicAgent<G> {
    pub fn new(seed: u64) -> Self {
        HeuristicAgent {
            rng: GameRng::seed(seed),
            buf: Vec::new(),
        }
    }
}

/// The error for a game that has no heuristic player.
pub(crate) fn no_heuristic<G: Knowledge>() -> Error {
    Error::invalid(format!(
        "heuristic: {} has no heuristic player (use random, greedy or ismcts)",
        G::NAME
    ))
}

impl<G: Knowledge> Agent<G> for HeuristicAgent<G> {
    fn act(&mut self, game: &G) -> Result<G::Action> {
        to_move(game)?;
        let a = game
            .heuristic_action(&mut self.rng)
            .ok_or_else(no_heuristic::<G>)?;
        // A game's heuristic must pick a legal move; a wrong one is an engine bug, reported
        // rather than played.
        game.legal_actions(&mut self.buf);
        if self.buf.is_empty() {
            return Err(no_moves::<G>());
        }
        if !self.buf.contains(&a) {
            return Err(Error::invalid(format!(
                "{}: the heuristic player chose {}, which is not legal here",
                G::NAME,
                game.action_notation(a)
            )));
        }
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battleline::BattleLine;
    use crate::game::Game;
    use crate::search::testgame::{Lanes, LanesOptions};
    use crate::search::AgentSpec;

    #[test]
    fn a_game_without_a_heuristic_player_is_refused_by_name() {
        let g = Lanes::new(1, &LanesOptions::default()).unwrap();
        let e = HeuristicAgent::<Lanes>::new(0).act(&g).unwrap_err();
        assert!(
            e.to_string().contains("lanes has no heuristic player"),
            "{e}"
        );
    }

    #[test]
    fn the_heuristic_agent_plays_battle_line_from_its_spec() {
        let spec = AgentSpec::parse("heuristic").unwrap();
        let mut agent = spec.build::<BattleLine>(3);
        let mut g = BattleLine::new(5, &Default::default()).unwrap();
        let mut plies = 0;
        while !g.is_terminal() {
            let a = agent.act(&g).unwrap();
            g.apply(a).unwrap();
            plies += 1;
            assert!(plies < 2000);
        }
        assert!(agent.act(&g).is_err(), "a finished game has no move");
    }
}
