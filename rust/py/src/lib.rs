//! `kingdoms._kingdoms`: the PyO3 bindings of kingdoms-core. Nothing here knows a rule; it
//! converts values, maps errors (errors.rs) and releases the GIL around long work.
#![forbid(unsafe_code)]

use pyo3::prelude::*;
use pyo3::types::PyDict;

mod agents;
mod arte;
mod batch;
mod battleline;
mod classes;
mod errors;
mod game;
mod hex;
mod json;
mod pictures;
mod selfplay;
mod strifull;
mod zinordia;

use errors::IntoPy;
use game::{PyAction, PyGame, PyRecord};

/// The names of the games, as `new_game` takes them.
#[pyfunction]
fn games() -> Vec<&'static str> {
    kingdoms_core::registry::GAMES.to_vec()
}

/// A new game by name: `new_game("battleline", seed=1, traitor_troops_only=True)`, or from
/// a position string: `new_game("battleline", position=text)` (docs/records.md).
#[pyfunction]
#[pyo3(signature = (name, seed=None, *, position=None, **options))]
fn new_game(
    py: Python<'_>,
    name: &str,
    seed: Option<u64>,
    position: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let base = classes::new_base(name, seed, position, options)?;
    classes::wrap(py, base.inner)
}

/// Replay a record (a `Record`, its dict or its JSON) to the position it ends in.
#[pyfunction]
fn replay(py: Python<'_>, record: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let rec = if let Ok(r) = record.cast::<PyRecord>() {
        r.get().inner.clone()
    } else {
        let value = match record.extract::<String>() {
            Ok(text) => json::parse(&text)?,
            Err(_) => json::from_py(record)?,
        };
        serde_json::from_value(value)
            .map_err(|e| errors::StateError::new_err(format!("bad record: {e}")))?
    };
    let inner = py.detach(|| kingdoms_core::registry::replay(&rec)).py()?;
    classes::wrap(py, inner)
}

/// Any game from its `to_json()` text (the `game` key says which).
#[pyfunction]
fn from_json(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    classes::wrap(
        py,
        kingdoms_core::registry::from_json(&json::parse(text)?).py()?,
    )
}

/// Any game from its `to_dict()` data.
#[pyfunction]
fn from_dict(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    classes::wrap(
        py,
        kingdoms_core::registry::from_json(&json::from_py(data)?).py()?,
    )
}

/// Totals of a batch of random games.
#[pyclass(
    frozen,
    get_all,
    module = "kingdoms._kingdoms",
    name = "SimulationStats"
)]
struct PySimulationStats {
    games: u64,
    wins: Vec<u64>,
    draws: u64,
    plies: u64,
    seconds: f64,
    games_per_second: f64,
}

#[pymethods]
impl PySimulationStats {
    /// Totals from their parts (as `kingdoms.distributed.simulate` adds up its slices).
    #[new]
    #[pyo3(signature = (games, wins, draws, plies, seconds))]
    fn new(games: u64, wins: Vec<u64>, draws: u64, plies: u64, seconds: f64) -> Self {
        let s = kingdoms_core::simulate::SimStats {
            games,
            wins,
            draws,
            plies,
            seconds,
        };
        PySimulationStats {
            games_per_second: s.games_per_second(),
            games: s.games,
            wins: s.wins,
            draws: s.draws,
            plies: s.plies,
            seconds: s.seconds,
        }
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        (
            py.get_type::<PySimulationStats>(),
            (
                self.games,
                self.wins.clone(),
                self.draws,
                self.plies,
                self.seconds,
            ),
        )
            .into_pyobject(py)
    }
    fn __repr__(&self) -> String {
        format!(
            "SimulationStats(games={}, wins={:?}, draws={}, plies={}, seconds={:.3}, games_per_second={:.0})",
            self.games, self.wins, self.draws, self.plies, self.seconds, self.games_per_second
        )
    }
}

/// Play games `first .. first+games` of the batch under `seed` uniformly at random, in Rust,
/// on `threads` cores (None: all), with the GIL released. The totals depend only on
/// `(name, options, seed, first, games)`.
#[pyfunction]
#[pyo3(signature = (name, games, seed, threads=None, first=0, **options))]
fn simulate(
    py: Python<'_>,
    name: &str,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    first: u64,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PySimulationStats> {
    let options = json::kwargs_map(options)?;
    let s = py
        .detach(|| kingdoms_core::registry::simulate(name, &options, games, seed, first, threads))
        .py()?;
    Ok(PySimulationStats {
        games: s.games,
        wins: s.wins.clone(),
        draws: s.draws,
        plies: s.plies,
        seconds: s.seconds,
        games_per_second: s.games_per_second(),
    })
}

#[pymodule]
fn _kingdoms(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("KingdomsError", py.get_type::<errors::KingdomsError>())?;
    m.add(
        "IllegalActionError",
        py.get_type::<errors::IllegalActionError>(),
    )?;
    m.add("NotationError", py.get_type::<errors::NotationError>())?;
    m.add("StateError", py.get_type::<errors::StateError>())?;
    m.add(
        "RulesOptionError",
        py.get_type::<errors::RulesOptionError>(),
    )?;
    m.add("DataError", py.get_type::<errors::DataError>())?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyAction>()?;
    m.add_class::<PyRecord>()?;
    m.add_class::<PySimulationStats>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(new_game, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(from_json, m)?)?;
    m.add_function(wrap_pyfunction!(from_dict, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay::selfplay_games, m)?)?;
    classes::register(m)?;
    agents::register(m)?;
    batch::register(m)?;
    hex::register(m)?;
    Ok(())
}
