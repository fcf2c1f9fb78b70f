//! One thin Python class per game, a subclass of `Game`, plus the dispatch from a core game
//! to its class. A game's extra functions (Battle Line's claim proofs, ...) live in its own
//! module file here.
#![deny(clippy::indexing_slicing)]

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

/// A new game: set up from `seed`, or the game a `position` string describes (a view
/// position's hidden cards drawn from `seed`).
pub fn new_base(
    name: &str,
    seed: Option<u64>,
    position: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyGame> {
    let options = json::kwargs_map(options)?;
    let seed = seed.unwrap_or_else(fresh_seed);
    let inner = match position {
        None => kingdoms_core::registry::new_game(name, seed, &options),
        Some(text) => kingdoms_core::registry::from_position(name, text, seed, &options),
    };
    Ok(PyGame { inner: inner.py()? })
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
            #[pyo3(signature = (seed=None, *, position=None, **options))]
            fn __new__(
                seed: Option<u64>,
                position: Option<&str>,
                options: Option<&pyo3::Bound<'_, pyo3::types::PyDict>>,
            ) -> pyo3::PyResult<pyo3::PyClassInitializer<Self>> {
                Ok(pyo3::PyClassInitializer::from($crate::classes::new_base(
                    Self::GAME,
                    seed,
                    position,
                    options,
                )?)
                .add_subclass($ty))
            }
        }
    };
}

/// Every game's class, its arm in [`wrap`] and its line in [`register`], from the one list
/// of games (`kingdoms_core::for_each_game!`). Each game's extras live in `crate::<module>`
/// (`rust/py/src/<module>.rs`), whose `register` adds them to the extension module.
macro_rules! game_classes {
    (() $($module:ident :: $ty:ident, $py:ident, $class:literal, $pymodule:literal, $doc:literal;)*) => {
        $(game_class!($py, kingdoms_core::$module::$ty, $class, $pymodule, $doc);)*

        /// Wrap a core game in the Python class of its game.
        pub fn wrap(py: Python<'_>, inner: Box<dyn DynGame>) -> PyResult<Py<PyAny>> {
            let base = PyGame { inner };
            let name = base.inner.name();
            $(if name == <kingdoms_core::$module::$ty as kingdoms_core::Game>::NAME {
                return Ok(Py::new(py, PyClassInitializer::from(base).add_subclass($py))?.into_any());
            })*
            Ok(Py::new(py, base)?.into_any())
        }

        /// Register every game class (and its extras) on the extension module.
        pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(
                m.add_class::<$py>()?;
                crate::$module::register(m)?;
            )*
            Ok(())
        }
    };
}

kingdoms_core::for_each_game!(game_classes!());
