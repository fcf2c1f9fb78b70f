//! JSON values across the boundary: Python objects go through the standard `json` module, so
//! what users get from `to_dict()` is exactly `json.loads(to_json())`.
#![deny(clippy::indexing_slicing)]

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::{Map, Value};

use crate::errors::StateError;

/// Writing JSON out (a `Value`, a record) into memory has no failure a user can cause; should
/// serde_json ever report one, it surfaces as a `RuntimeError` naming what, never a panic.
pub fn write_failed(what: &str, err: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(format!(
        "internal error: could not write {what} as JSON: {err}"
    ))
}

pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value).map_err(|e| write_failed("a value", e))?;
    py.import("json")?.call_method1("loads", (text,))
}

pub fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let text: String = obj
        .py()
        .import("json")?
        .call_method1("dumps", (obj,))?
        .extract()?;
    serde_json::from_str(&text).map_err(|e| StateError::new_err(format!("not JSON data: {e}")))
}

pub fn parse(text: &str) -> PyResult<Value> {
    serde_json::from_str(text).map_err(|e| {
        StateError::new_err(format!(
            "malformed JSON at line {} column {}: {e}",
            e.line(),
            e.column()
        ))
    })
}

pub fn kwargs_map(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Map<String, Value>> {
    match kwargs {
        None => Ok(Map::new()),
        Some(d) => match from_py(d.as_any())? {
            Value::Object(m) => Ok(m),
            _ => Err(StateError::new_err("rules options must be a mapping")),
        },
    }
}
