//! Runs a list of fixtures with agents from a provider: games whose agents can all run on
//! any thread go to a rayon pool, the others (Python agents, which need the interpreter)
//! run one after another on the caller's thread, which also reports progress.
//!
//! Every game builds fresh agents seeded from `(seed, fixture index, seat)`
//! ([`agent_salt`]) and results come back in fixture order, so what a fixture gives never
//! depends on the thread it ran on, the thread count, or which other fixtures ran with it.
//! That is what lets a tournament be cut into slices (`arena::tournament_games`) and merged.
//! The schedule's own pieces ([`Fixture`], [`Progress`], [`agent_salt`]) live here, so the
//! arena uses the scheduler and not the other way round.

use crate::error::{Error, Result};
use crate::knowledge::Knowledge;
use crate::playout::cancelled;
use crate::rng::derive;
use crate::search::{Agent, AgentSpec};
use crate::simulate::pool;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// One scheduled game: `seats[s]` is the agent in seat `s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    pub index: u64,
    pub deal: u64,
    pub seats: Vec<usize>,
}

/// Stops a running tournament between games, and counts finished games for progress bars.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
    pub cancel: AtomicBool,
}

/// The salt of the agent in `seat` of game `index` of a tournament under `seed`: keyed by
/// the secret `seed` through [`derive()`] (one-way), so nothing an agent sees of it leads back
/// to the deals.
pub fn agent_salt(seed: u64, index: u64, seat: usize) -> u64 {
    derive(seed, &[0x7E57_A6E7_5A17, index, seat as u64])
}

/// Where a tournament's agents come from.
pub trait AgentProvider<G: Knowledge>: Sync {
    /// Whether agent `agent` may be built and played on a pool thread; `false` keeps every
    /// game it plays on the caller's thread.
    fn pooled(&self, agent: usize) -> bool {
        let _ = agent;
        true
    }
    /// A fresh agent for one seat of one game, seeded from `salt`.
    fn build(&self, agent: usize, salt: u64) -> Result<Box<dyn Agent<G>>>;
}

/// Rust agents from their configurations: every one is pooled.
impl<G: Knowledge> AgentProvider<G> for [AgentSpec] {
    fn build(&self, agent: usize, salt: u64) -> Result<Box<dyn Agent<G>>> {
        self.get(agent)
            .map(|s| s.build::<G>(salt))
            .ok_or_else(|| Error::invalid(format!("no agent {agent}: {} agents", self.len())))
    }
}

/// Called on the caller's thread with the number of finished games: at the start, after
/// each game played there, about every 20 ms while the pool plays, and at the end
/// (`force` true at the start and the end). An error cancels the run and is returned.
pub type Watch<'a> = &'a mut dyn FnMut(u64, bool) -> Result<()>;

/// A watch that does nothing.
pub fn unwatched(_: u64, _: bool) -> Result<()> {
    Ok(())
}

/// Play `fixtures` with agents from `provider`, `play(fixture, agents)` playing one game
/// with one fresh agent per seat; `threads` workers for the pooled games (`None`: one per
/// core). Results come back in the order of `fixtures`.
pub fn run_schedule<G, P, T, F>(
    seed: u64,
    fixtures: &[Fixture],
    threads: Option<usize>,
    progress: &Progress,
    provider: &P,
    play: F,
    watch: Watch<'_>,
) -> Result<Vec<T>>
where
    G: Knowledge,
    P: AgentProvider<G> + ?Sized,
    T: Send,
    F: Fn(&Fixture, &mut [Box<dyn Agent<G>>]) -> Result<T> + Sync,
{
    let run = |f: &Fixture| -> Result<T> {
        if progress.cancel.load(Ordering::Relaxed) {
            return Err(cancelled());
        }
        let mut agents = f
            .seats
            .iter()
            .enumerate()
            .map(|(seat, &a)| provider.build(a, agent_salt(seed, f.index, seat)))
            .collect::<Result<Vec<_>>>()?;
        let out = play(f, &mut agents)?;
        progress.done.fetch_add(1, Ordering::Relaxed);
        Ok(out)
    };
    let (here, pooled): (Vec<usize>, Vec<usize>) =
        (0..fixtures.len()).partition(|&i| fixtures[i].seats.iter().any(|&a| !provider.pooled(a)));
    let mut watch_error: Option<Error> = None;
    let mut watched = |force: bool, watch_error: &mut Option<Error>| {
        if watch_error.is_none() {
            if let Err(e) = watch(progress.done.load(Ordering::Relaxed), force) {
                progress.cancel.store(true, Ordering::Relaxed);
                *watch_error = Some(e);
            }
        }
    };
    watched(true, &mut watch_error);
    let (pool_results, here_results) = std::thread::scope(|scope| {
        let handle = (!pooled.is_empty()).then(|| {
            scope.spawn(|| -> Result<Vec<T>> {
                if threads == Some(1) {
                    return pooled.iter().map(|&i| run(&fixtures[i])).collect();
                }
                pool(threads)?.install(|| {
                    pooled
                        .par_iter()
                        .with_max_len(1)
                        .map(|&i| run(&fixtures[i]))
                        .collect()
                })
            })
        });
        let mut mine = Vec::with_capacity(here.len());
        let mut failure = None;
        for &i in &here {
            if progress.cancel.load(Ordering::Relaxed) {
                break;
            }
            match run(&fixtures[i]) {
                Ok(t) => mine.push(t),
                Err(e) => {
                    progress.cancel.store(true, Ordering::Relaxed);
                    failure = Some(e);
                    break;
                }
            }
            watched(false, &mut watch_error);
        }
        let pooled_out = match handle {
            None => Ok(Vec::new()),
            Some(h) => {
                while !h.is_finished() {
                    std::thread::sleep(Duration::from_millis(20));
                    watched(false, &mut watch_error);
                }
                h.join()
                    .unwrap_or_else(|_| Err(Error::invalid("a tournament worker panicked")))
            }
        };
        (pooled_out, failure.map_or(Ok(mine), Err))
    });
    let here_results = here_results?;
    let pool_results = pool_results?;
    if let Some(e) = watch_error {
        return Err(e);
    }
    watched(true, &mut watch_error);
    if let Some(e) = watch_error {
        return Err(e);
    }
    if progress.cancel.load(Ordering::Relaxed) {
        return Err(cancelled());
    }
    // Back into fixture order.
    let mut all: Vec<Option<T>> = (0..fixtures.len()).map(|_| None).collect();
    for (i, t) in pooled.into_iter().zip(pool_results) {
        all[i] = Some(t);
    }
    for (i, t) in here.into_iter().zip(here_results) {
        all[i] = Some(t);
    }
    all.into_iter()
        .map(|t| t.ok_or_else(|| Error::invalid("a tournament game went missing")))
        .collect()
}
