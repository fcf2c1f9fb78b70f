//! `kingdoms._kingdoms`: the PyO3 bindings of kingdoms-core. Nothing here knows a rule; it
//! converts values, maps errors (errors.rs) and releases the GIL around long work.
#![forbid(unsafe_code)]

use pyo3::prelude::*;
use pyo3::types::PyDict;

mod agent_options;
mod agents;
mod args;
mod arte;
mod batch;
mod battleline;
mod classes;
mod errors;
mod game;
mod hex;
mod json;
mod model;
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
    name: args::Text,
    seed: Option<args::Whole>,
    position: Option<args::Text>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let base = classes::new_base(&name, args::seed(seed)?, position.as_deref(), options)?;
    classes::wrap(py, base.inner)
}

/// Replay a record (a `Record`, its dict or its JSON) to the position it ends in.
#[pyfunction]
fn replay(py: Python<'_>, record: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let rec = if let Ok(r) = record.cast::<PyRecord>() {
        r.get().inner.clone()
    } else {
        let value = match record.extract::<args::Text>() {
            Ok(text) => json::parse(&text)?,
            Err(_) => json::from_py_dict(record, "a record")?,
        };
        PyRecord::decode(value)?.inner
    };
    let inner = py.detach(|| kingdoms_core::registry::replay(&rec)).py()?;
    classes::wrap(py, inner)
}

/// Any game from its `to_json()` text (the `game` key says which).
#[pyfunction]
fn from_json(py: Python<'_>, text: args::Text) -> PyResult<Py<PyAny>> {
    classes::wrap(
        py,
        kingdoms_core::registry::from_json(&json::parse(&text)?).py()?,
    )
}

/// Any game from its `to_dict()` data.
#[pyfunction]
fn from_dict(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    classes::wrap(
        py,
        kingdoms_core::registry::from_json(&json::from_py_dict(data, "a state")?).py()?,
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
    fn new(
        games: args::Whole,
        wins: Vec<args::Whole>,
        draws: args::Whole,
        plies: args::Whole,
        seconds: f64,
    ) -> PyResult<Self> {
        let s = kingdoms_core::simulate::SimStats {
            games: games.u64("games")?,
            wins: wins
                .into_iter()
                .map(|w| w.u64("wins"))
                .collect::<PyResult<_>>()?,
            draws: draws.u64("draws")?,
            plies: plies.u64("plies")?,
            seconds,
        };
        Ok(PySimulationStats {
            games_per_second: s.games_per_second(),
            games: s.games,
            wins: s.wins,
            draws: s.draws,
            plies: s.plies,
            seconds: s.seconds,
        })
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
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PySimulationStats>().is_ok_and(|o| {
            let o = o.get();
            (o.games, &o.wins, o.draws, o.plies, o.seconds.to_bits())
                == (
                    self.games,
                    &self.wins,
                    self.draws,
                    self.plies,
                    self.seconds.to_bits(),
                )
        })
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
#[pyo3(signature = (name, games, seed, threads=None, first=args::Whole::ZERO, **options))]
#[pyo3(text_signature = "(name, games, seed, threads=None, first=0, **options)")]
fn simulate(
    py: Python<'_>,
    name: args::Text,
    games: args::Whole,
    seed: args::Whole,
    threads: Option<args::Whole>,
    first: args::Whole,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PySimulationStats> {
    let (games, seed, first) = (games.u64("games")?, seed.u64("seed")?, first.u64("first")?);
    let threads = args::threads(threads)?;
    let options = json::kwargs_map(options)?;
    let name: &str = &name;
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

/// The text of a user's file, read as the engine reads data files: a regular file only
/// (a FIFO or device is refused without opening it for a blocking read), at most 4 MiB,
/// UTF-8; a `DataError` names the path and never quotes the content.
#[pyfunction]
fn read_data_file(py: Python<'_>, path: std::path::PathBuf) -> PyResult<String> {
    let text = py
        .detach(|| kingdoms_core::datafile::read_text(&path))
        .py()?;
    Ok(text.to_string())
}

/// The bytes of a user's file (a self-play shard), refused as `read_data_file` refuses,
/// and over `max_bytes`.
#[pyfunction]
fn read_data_bytes<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    max_bytes: args::Whole,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let limit = max_bytes.u64("max_bytes")?;
    let bytes = py
        .detach(|| kingdoms_core::datafile::read_bytes(&path, limit))
        .py()?;
    Ok(pyo3::types::PyBytes::new(py, &bytes))
}

#[pymodule]
fn _kingdoms(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("KingdomsError", py.get_type::<errors::KingdomsError>())?;
    m.add("ArgumentError", py.get_type::<errors::ArgumentError>())?;
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
    m.add_function(wrap_pyfunction!(read_data_file, m)?)?;
    m.add_function(wrap_pyfunction!(read_data_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay::selfplay_games, m)?)?;
    classes::register(m)?;
    agents::register(m)?;
    batch::register(m)?;
    hex::register(m)?;
    model::register(m)?;
    Ok(())
}
