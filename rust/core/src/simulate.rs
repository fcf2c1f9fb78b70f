//! Batch play of uniformly random games on a thread pool, generic over [`Game`].
//!
//! Game `i` of a batch is set up from `GameRng::stream(seed, i)` and its random moves come
//! from a second stream, so the totals depend only on `(seed, first, games)`, never on the
//! thread count or on scheduling.
#![deny(clippy::indexing_slicing)]

use crate::error::{Error, Result};
use crate::game::Game;
use crate::playout::playout;
use crate::rng::{mix64, GameRng};
use rayon::prelude::*;
use std::time::Instant;

pub use crate::playout::MAX_PLIES;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimStats {
    pub games: u64,
    /// Wins per player.
    pub wins: Vec<u64>,
    pub draws: u64,
    /// Total plies (decisions) over all games.
    pub plies: u64,
    pub seconds: f64,
}

impl SimStats {
    pub fn games_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.games as f64 / self.seconds
        } else {
            f64::INFINITY
        }
    }

    fn add(mut self, other: SimStats) -> SimStats {
        self.games += other.games;
        if self.wins.len() < other.wins.len() {
            self.wins.resize(other.wins.len(), 0);
        }
        for (w, o) in self.wins.iter_mut().zip(&other.wins) {
            *w += o;
        }
        self.draws += other.draws;
        self.plies += other.plies;
        self
    }
}

/// The seed game `index` of a batch under `seed` is set up with.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix64(seed ^ mix64(index))
}

/// Play one uniformly random game to the end; returns (winner, plies).
pub fn random_playout<G: Game>(game: &mut G, rng: &mut GameRng) -> Result<(Option<usize>, u64)> {
    // The same draw as `rng.choose(legal)`: simulate totals are unchanged.
    let plies = playout(game, |_, _, legal| Ok(rng.below(legal.len())), None)?;
    Ok((game.winner(), plies))
}

/// Most worker threads of one run (docs/protocol.md, "Limits"): more is refused at once,
/// before any thread starts.
pub const MAX_THREADS: usize = 1024;

/// Refuse a thread count outside `1..=MAX_THREADS` before any thread starts.
pub fn check_threads(threads: usize) -> Result<()> {
    if (1..=MAX_THREADS).contains(&threads) {
        return Ok(());
    }
    Err(Error::argument(
        "threads",
        &format!("1..={MAX_THREADS}"),
        &threads.to_string(),
    ))
}

/// The thread count a rayon pool takes by default: `RAYON_NUM_THREADS` when set to a
/// positive number, else one per core (as `rayon::ThreadPoolBuilder` decides it, without
/// starting rayon's global pool to ask).
pub fn default_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&t| t > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A rayon pool of `threads` workers (None: one per core).
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        check_threads(t)?;
        b = b.num_threads(t);
    }
    b.build()
        .map_err(|e| Error::invalid(format!("cannot start threads: {e}")))
}

/// Play games `first..first + games` of the batch under `seed`, uniformly at random.
pub fn simulate<G: Game>(
    options: &G::Options,
    games: u64,
    seed: u64,
    first: u64,
    threads: Option<usize>,
) -> Result<SimStats> {
    let start = Instant::now();
    // Game indices are u64: `first + games` past 2^64 would silently play nothing.
    let end = first.checked_add(games).ok_or_else(|| {
        Error::invalid(format!(
            "first ({first}) + games ({games}) is beyond the last game index {}",
            u64::MAX
        ))
    })?;
    let pool = pool(threads)?;
    let stats = pool.install(|| {
        (first..end)
            .into_par_iter()
            .map(|i| -> Result<SimStats> {
                let mut game = G::new(game_seed(seed, i), options)?;
                let mut rng = GameRng::stream(seed, i);
                let (winner, plies) = random_playout(&mut game, &mut rng)?;
                let mut wins = vec![0; game.num_players()];
                if let Some(w) = winner {
                    // A winner is always a seat of this game; say so rather than panic if a
                    // game ever reports one it does not have.
                    *wins.get_mut(w).ok_or_else(|| {
                        Error::invalid(format!(
                            "game {i} reported winner {w} of {} players",
                            game.num_players()
                        ))
                    })? = 1;
                }
                Ok(SimStats {
                    games: 1,
                    wins,
                    draws: u64::from(winner.is_none()),
                    plies,
                    seconds: 0.0,
                })
            })
            .try_reduce(SimStats::default, |a, b| Ok(a.add(b)))
    })?;
    Ok(SimStats {
        seconds: start.elapsed().as_secs_f64(),
        ..stats
    })
}

#[cfg(test)]
mod tests {
    use super::simulate;
    use crate::battleline::{BattleLine, Options};

    #[test]
    fn a_batch_past_the_last_game_index_is_an_error() {
        let err = simulate::<BattleLine>(&Options::default(), 2, 1, u64::MAX, Some(1)).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("first") && text.contains("games"), "{text}");
        let last =
            simulate::<BattleLine>(&Options::default(), 1, 1, u64::MAX - 1, Some(1)).unwrap();
        assert_eq!(last.games, 1);
    }
}
