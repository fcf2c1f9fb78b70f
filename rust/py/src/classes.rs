//! One thin Python class per game, a subclass of `Game`, plus the dispatch from a core game
//! to its class. A game's extra functions (Battle Line's claim proofs, ...) live in its own
//! module file here.

use kingdoms_core::DynGame;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::PyClassInitializer;

use crate::errors::IntoPy;
use crate::game::PyGame;
use crate::json;

/// A fresh seed from the OS's hash randomness, for `seed=None`; the game keeps it, so the
/// game is still reproducible from `g.seed`.
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}

pub fn new_base(
    name: &str,
    seed: Option<u64>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyGame> {
    let options = json::kwargs_map(options)?;
    Ok(PyGame {
        inner: kingdoms_core::registry::new_game(name, seed.unwrap_or_else(fresh_seed), &options)
            .py()?,
    })
}

/// Declares the Python class of one game: `Class(seed=None, **rules_options)`.
#[macro_export]
macro_rules! game_class {
    ($ty:ident, $core:ty, $name:tt, $module:tt, $doc:tt) => {
        #[doc = $doc]
        #[pyo3::pyclass(extends = $crate::game::PyGame, module = $module, name = $name)]
        pub struct $ty;

        #[pyo3::pymethods]
        impl $ty {
            /// The registry name of this class's game.
            #[classattr]
            const GAME: &'static str = <$core as kingdoms_core::Game>::NAME;

            #[new]
            #[pyo3(signature = (seed=None, **options))]
            fn __new__(
                seed: Option<u64>,
                options: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<pyo3::PyClassInitializer<Self>> {
                Ok(pyo3::PyClassInitializer::from($crate::classes::new_base(
                    Self::GAME,
                    seed,
                    options,
                )?)
                .add_subclass($ty))
            }
        }
    };
}

game_class!(
    PyBattleLine,
    kingdoms_core::battleline::BattleLine,
    "BattleLine",
    "kingdoms.battleline",
    "Battle Line: 9 flags, 60 troops, 10 tactics cards, exact claim proofs.\n\n`BattleLine(seed=None, *, traitor_troops_only=False, claim_at_turn_start=False, first_player=0)`. Rules: docs/rules/battle-line.md; state format, notation and observation layout: docs/battleline.md."
);

game_class!(
    PyStrifull,
    kingdoms_core::strifull::Strifull,
    "Strifull",
    "kingdoms.strifull",
    "Strained Kingdoms: STRIFULL. `Strifull(seed=None, **rules_options)`; options: factions, leaders, decks, cards_file, cards_toml, tie_is_defeat, dead_cells_open_flanks, moves_in_leader_row_only, mutual_wipeout (docs/rules/strifull.md)."
);

game_class!(
    PyArte,
    kingdoms_core::arte::Arte,
    "Arte",
    "kingdoms.arte",
    "Arte da Guerra: draft terrain and unit cards (one of every three hidden), build a field \
     of three terrain rows, then three rounds of deployment and combat. Rules options: \
     `cards_file` / `cards_toml` (a card set), `deployment` (\"simultaneous\" | \"alternating\"), \
     `ranged_scoring` (\"exception\" | \"ranged_defender\"), `sudden_death_row` \
     (\"chosen\" | \"front\"); see docs/rules/arte-da-guerra.md."
);

/// Wrap a core game in the Python class of its game.
pub fn wrap(py: Python<'_>, inner: Box<dyn DynGame>) -> PyResult<Py<PyAny>> {
    let base = PyGame { inner };
    #[allow(clippy::match_single_binding)]
    match base.inner.name() {
        // GAMES: one arm per game class.
        "battleline" => Ok(Py::new(
            py,
            PyClassInitializer::from(base).add_subclass(PyBattleLine),
        )?
        .into_any()),
        "strifull" => Ok(Py::new(
            py,
            pyo3::PyClassInitializer::from(base).add_subclass(PyStrifull),
        )?
        .into_any()),
        "arte" => Ok(Py::new(py, PyClassInitializer::from(base).add_subclass(PyArte))?.into_any()),
        _ => Ok(Py::new(py, base)?.into_any()),
    }
}

/// Register every game class on the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBattleLine>()?;
    crate::battleline::register(m)?;
    m.add_class::<PyStrifull>()?;
    crate::strifull::register(m)?;
    m.add_class::<PyArte>()?;
    Ok(())
}
