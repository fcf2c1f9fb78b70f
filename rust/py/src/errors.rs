//! The exception hierarchy and the one conversion from the core's error to Python.
//!
//! Every kingdoms error is a `ValueError` (bad input), so `except ValueError` works for users
//! who do not know the hierarchy, as with pydantic's `ValidationError`.
#![deny(clippy::indexing_slicing)]

use kingdoms_core::Error;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    kingdoms,
    KingdomsError,
    PyValueError,
    "Base class of every kingdoms error."
);
create_exception!(
    kingdoms,
    ArgumentError,
    KingdomsError,
    "An argument out of its range or over a documented limit; the message names the argument and its range."
);
create_exception!(
    kingdoms,
    IllegalActionError,
    KingdomsError,
    "An action the rules forbid in this state; `rule` names the broken rule. The state is unchanged."
);
create_exception!(
    kingdoms,
    NotationError,
    KingdomsError,
    "Text that is not a valid action notation."
);
create_exception!(
    kingdoms,
    StateError,
    KingdomsError,
    "A malformed or inconsistent serialized state."
);
create_exception!(
    kingdoms,
    RulesOptionError,
    KingdomsError,
    "Unknown or invalid rules options."
);
create_exception!(
    kingdoms,
    DataError,
    KingdomsError,
    "A data file (cards, maps, rosters) that fails validation."
);

/// Map a core error to its exception. `IllegalActionError` carries `.rule` as an attribute.
pub fn to_py(err: Error) -> PyErr {
    let text = err.to_string();
    match err {
        Error::IllegalAction { rule, .. } => {
            let e = IllegalActionError::new_err(text);
            pyo3::Python::attach(|py| {
                let _ = e.value(py).setattr("rule", rule);
            });
            e
        }
        Error::Notation { .. } => NotationError::new_err(text),
        Error::State { .. } => StateError::new_err(text),
        Error::Options { .. } => RulesOptionError::new_err(text),
        Error::Data { .. } => DataError::new_err(text),
        Error::Argument { .. } => ArgumentError::new_err(text),
        Error::Invalid { .. } => KingdomsError::new_err(text),
    }
}

/// `Error::into_py_err()`: the exception of a core error built in the bindings.
pub trait IntoPyErr {
    fn into_py_err(self) -> PyErr;
}

impl IntoPyErr for Error {
    fn into_py_err(self) -> PyErr {
        to_py(self)
    }
}

/// `?`-friendly: `core_call().map_err(to_py)?` everywhere is spelled `.py()?`.
pub trait IntoPy<T> {
    fn py(self) -> pyo3::PyResult<T>;
}

impl<T> IntoPy<T> for Result<T, Error> {
    fn py(self) -> pyo3::PyResult<T> {
        self.map_err(to_py)
    }
}
