//! `selfplay_games`: self-play training data (kingdoms-core `arena::selfplay`) as numpy
//! arrays, one row per decision; `kingdoms.selfplay` writes them as shards.
#![deny(clippy::indexing_slicing)]

use std::sync::{Arc, Mutex};

use kingdoms_core::arena::selfplay::{selfplay_games as core_selfplay, Trajectory};
use kingdoms_core::arena::Progress;
use kingdoms_core::{with_game, Game};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::agents::{
    callback_of, entrants, game_and_options, options_of, raise, reporter, validate, Entrants,
};
use crate::args::{self, Whole};
use crate::errors::IntoPy;

/// Play games `start..stop` of the self-play run under `seed` and return every decision as
/// numpy arrays (one row per ply, games in order): `game` (index), `seed` (the game's setup
/// seed), `ply`, `player`, `agent` (index into `agents`), `observation` (rows × observation
/// size, the mover's view), `mask` (rows × num_actions), `action` (id), `visits` (rows ×
/// num_actions: ISMCTS root visits, zeros where the mover did not search), `returns` (rows ×
/// players: the game's final returns), ``root_value``, and with ``seats=True`` ``seats``
/// (rows × players × observation size: every seat's observation of the true state, the
/// mover's first, the input of a ``seats`` network). One agent plays every seat; with one agent per
/// player, seat `s` of game `i` is agent `(s + i) % players`. Game `i` is the same in any
/// range and on any machine or thread count. Rust agents play on `threads` cores, Python
/// agents on this thread.
#[pyfunction]
#[pyo3(signature = (game, agents, start, stop, seed=Whole::ZERO, threads=None, *, progress=None, seats=false, **options))]
#[pyo3(
    text_signature = "(game, agents, start, stop, seed=0, threads=None, *, progress=None, seats=False, **options)"
)]
#[allow(clippy::too_many_arguments)]
pub fn selfplay_games<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agents: Vec<Bound<'py, PyAny>>,
    start: Whole,
    stop: Whole,
    seed: Whole,
    threads: Option<Whole>,
    progress: Option<Bound<'py, PyAny>>,
    seats: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (name, options) = game_and_options(game, options)?;
    let threads = args::threads(threads)?;
    let (start, stop, seed) = (start.u64("start")?, stop.u64("stop")?, seed.u64("seed")?);
    let (entrants, names) = entrants(&agents)?;
    let callback = callback_of(progress)?;
    let (games, obs_len, num_actions, players) = with_game!(name.as_str(), G => {
        let opts = options_of::<G>(&options)?;
        validate(&entrants)?;
        let probe = G::new(seed, &opts).py()?;
        let kept: Arc<Mutex<Option<PyErr>>> = Arc::new(Mutex::new(None));
        let provider = Entrants { entrants: &entrants, names: &names, kept: &kept };
        let r = py.detach(|| {
            core_selfplay::<G, _>(
                &opts,
                &names,
                &provider,
                seed,
                start..stop,
                threads,
                seats,
                &Progress::default(),
                &mut reporter(stop.saturating_sub(start), callback, &kept),
            )
        });
        (
            r.map_err(|e| raise(e, &kept))?,
            probe.observation_shape().iter().product::<usize>(),
            probe.num_actions(),
            probe.num_players(),
        )
    })
    .py()?;
    let d = columns(py, &games, obs_len, num_actions, players)?;
    if seats {
        let rows: usize = games.iter().map(Trajectory::plies).sum();
        let width = obs_len * players;
        let mut all = Vec::with_capacity(rows * width);
        for t in &games {
            all.extend_from_slice(&t.seat_rows);
        }
        d.set_item(
            "seats",
            PyArray1::from_vec(py, all).reshape(vec![rows, width])?,
        )?;
    }
    Ok(d)
}

fn columns<'py>(
    py: Python<'py>,
    games: &[Trajectory],
    obs_len: usize,
    num_actions: usize,
    players: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let rows: usize = games.iter().map(Trajectory::plies).sum();
    let mut game = Vec::with_capacity(rows);
    let mut seed = Vec::with_capacity(rows);
    let mut ply = Vec::with_capacity(rows);
    let mut player = Vec::with_capacity(rows);
    let mut agent = Vec::with_capacity(rows);
    let mut action = Vec::with_capacity(rows);
    let mut returns = Vec::with_capacity(rows * players);
    let mut observation = Vec::with_capacity(rows * obs_len);
    let mut mask = Vec::with_capacity(rows * num_actions);
    let mut visits = Vec::with_capacity(rows * num_actions);
    let mut root_value = Vec::with_capacity(rows * players);
    for t in games {
        for (i, &p) in t.players.iter().enumerate() {
            game.push(t.index);
            seed.push(t.seed);
            ply.push(i as u32);
            player.push(p);
            agent.push(t.seats.get(p as usize).copied().unwrap_or(0) as u32);
            returns.extend(t.returns.iter().map(|&r| r as f32));
        }
        action.extend_from_slice(&t.actions);
        observation.extend_from_slice(&t.observations);
        mask.extend_from_slice(&t.masks);
        visits.extend_from_slice(&t.visits);
        root_value.extend_from_slice(&t.root_values);
    }
    let d = PyDict::new(py);
    d.set_item("game", PyArray1::from_vec(py, game))?;
    d.set_item("seed", PyArray1::from_vec(py, seed))?;
    d.set_item("ply", PyArray1::from_vec(py, ply))?;
    d.set_item("player", PyArray1::from_vec(py, player))?;
    d.set_item("agent", PyArray1::from_vec(py, agent))?;
    d.set_item("action", PyArray1::from_vec(py, action))?;
    d.set_item(
        "observation",
        PyArray1::from_vec(py, observation).reshape(vec![rows, obs_len])?,
    )?;
    d.set_item(
        "mask",
        PyArray1::from_vec(py, mask).reshape(vec![rows, num_actions])?,
    )?;
    d.set_item(
        "visits",
        PyArray1::from_vec(py, visits).reshape(vec![rows, num_actions])?,
    )?;
    d.set_item(
        "root_value",
        PyArray1::from_vec(py, root_value).reshape(vec![rows, players])?,
    )?;
    d.set_item(
        "returns",
        PyArray1::from_vec(py, returns).reshape(vec![rows, players])?,
    )?;
    Ok(d)
}
