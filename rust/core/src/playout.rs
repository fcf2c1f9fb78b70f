//! The one loop that plays a game to its end, shared by the arena (agents choose, a
//! `Session` records), self-play data generation (agents choose, every decision is kept)
//! and `simulate` (uniformly random moves on a bare game).

use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::session::Session;
use std::sync::atomic::{AtomicBool, Ordering};

/// Safety net: a game still running after this many plies is an engine bug, reported.
pub const MAX_PLIES: usize = 1_000_000;

/// What a playout moves on: a bare game, or a [`Session`] that records every move.
pub trait Playing<G: Game> {
    fn game(&self) -> &G;
    /// Play an action `legal_actions` listed (so `check` accepts it: not checked again).
    fn play_listed(&mut self, action: G::Action);
}

impl<G: Game> Playing<G> for G {
    fn game(&self) -> &G {
        self
    }
    fn play_listed(&mut self, action: G::Action) {
        debug_assert!(self.check(action).is_ok());
        self.apply_unchecked(action);
    }
}

impl<G: Game> Playing<G> for Session<G> {
    fn game(&self) -> &G {
        &self.game
    }
    fn play_listed(&mut self, action: G::Action) {
        self.game.play_listed(action);
        if let Some(h) = &mut self.history {
            h.push(action);
        }
    }
}

/// The error a playout stopped by its `cancel` flag returns.
pub fn cancelled() -> Error {
    Error::invalid("cancelled")
}

/// Play `table` to the end: before each move `choose(game, player, legal)` picks the move of
/// `player` as an index into `legal` (the legal actions, ascending ids, never empty), which
/// is played without checking it again. Stops with [`cancelled`] when `cancel` is set, and
/// with an error for a running game without legal actions or one that outlasts
/// [`MAX_PLIES`] (engine bugs). Returns the plies played.
pub fn playout<G, T, F>(table: &mut T, mut choose: F, cancel: Option<&AtomicBool>) -> Result<u64>
where
    G: Game,
    T: Playing<G>,
    F: FnMut(&G, Player, &[G::Action]) -> Result<usize>,
{
    let mut legal = Vec::new();
    let mut plies = 0u64;
    while let Some(p) = table.game().current_player() {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(cancelled());
        }
        table.game().legal_actions(&mut legal);
        if legal.is_empty() {
            return Err(Error::invalid(format!(
                "{}: no legal action in a running game (ply {plies})",
                G::NAME
            )));
        }
        let i = choose(table.game(), p, &legal)?;
        let &a = legal.get(i).ok_or_else(|| {
            Error::invalid(format!(
                "{}: move {i} chosen of {} legal actions",
                G::NAME,
                legal.len()
            ))
        })?;
        table.play_listed(a);
        plies += 1;
        if plies > MAX_PLIES as u64 {
            return Err(Error::invalid(format!(
                "{}: no end after {MAX_PLIES} plies",
                G::NAME
            )));
        }
    }
    Ok(plies)
}
