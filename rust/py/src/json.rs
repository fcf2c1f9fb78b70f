//! JSON values across the boundary: Python objects go through the standard `json` module, so
//! what users get from `to_dict()` is exactly `json.loads(to_json())`.
#![deny(clippy::indexing_slicing)]

use kingdoms_core::error::clip;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Value};

use crate::errors::{RulesOptionError, StateError};

/// A serde message (which may quote input) cut to a bounded length.
pub fn clip_message(message: &str) -> String {
    let mut chars = message.chars();
    let head: String = chars.by_ref().take(300).collect();
    if chars.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

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

/// Deepest nesting of lists and dicts accepted from Python (serde_json's own parser stops at
/// 128 too), so a deep structure is a `StateError`, never a `RecursionError`.
pub const MAX_DEPTH: usize = 128;

/// Most values (dicts, lists and scalars) taken from one Python object. Python objects may
/// share parts (`v = [v0, v0]` twenty times over is a few objects but a million values once
/// copied), so the size of the copy is bounded, not only its depth. The largest saved
/// states are a few thousand values.
pub const MAX_VALUES: usize = 1 << 20;
/// Most bytes of text (strings and keys) taken from one Python object: 64 MiB, room for a
/// game's inline content (each set at most 4 MiB) many times over.
pub const MAX_TEXT: usize = 64 << 20;

/// What is left of the limits above while one object is copied.
struct Budget {
    values: usize,
    text: usize,
}

/// A Python value as JSON data: dicts with str keys, lists and tuples, str, int (within
/// 64 bits), finite float, bool, None. Anything else is a `TypeError`, a NaN or an int too
/// large a `StateError`, each naming the path (`$.flags[3]`); text is never echoed. More
/// than [`MAX_DEPTH`] levels, [`MAX_VALUES`] values or [`MAX_TEXT`] bytes of text is a
/// `StateError`, found before the copy grows past them.
pub fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let mut path = String::from("$");
    let mut budget = Budget {
        values: MAX_VALUES,
        text: MAX_TEXT,
    };
    convert(obj, &mut path, 0, &mut budget)
}

/// [`from_py`] of a dict (a state, a record); anything else is a `TypeError` naming `what`.
pub fn from_py_dict(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    if !obj.is_instance_of::<PyDict>() {
        return Err(PyTypeError::new_err(format!(
            "expected {what} as a dict, got {}",
            type_name(obj)
        )));
    }
    from_py(obj)
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    clip(
        &obj.get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default(),
    )
}

/// Why a Python scalar has no JSON value.
pub enum ScalarFault {
    /// A float that is NaN or infinite.
    NotFinite(f64),
    /// Text holding a lone surrogate, which no Rust string can.
    LoneSurrogate,
    /// An int outside -2**63..2**64.
    WideInt,
}

/// A Python None, bool, int, float or str as JSON (`index`: also anything with `__index__`,
/// such as numpy's ints), or `None` when `obj` is none of these. The one reading of scalars
/// for states and agent settings; each caller words the faults in its own place.
pub fn scalar(obj: &Bound<'_, PyAny>, index: bool) -> PyResult<Option<Result<Value, ScalarFault>>> {
    if obj.is_none() {
        return Ok(Some(Ok(Value::Null)));
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Some(Ok(Value::Bool(b.is_true()))));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let x = f.value();
        return Ok(Some(
            serde_json::Number::from_f64(x)
                .map(Value::Number)
                .ok_or(ScalarFault::NotFinite(x)),
        ));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Some(match s.to_str() {
            Ok(t) => Ok(Value::String(t.to_owned())),
            Err(_) => Err(ScalarFault::LoneSurrogate),
        }));
    }
    let n = if obj.is_instance_of::<PyInt>() {
        obj.clone()
    } else if index && obj.hasattr("__index__")? {
        obj.call_method0("__index__")?
    } else {
        return Ok(None);
    };
    Ok(Some(if let Ok(x) = n.extract::<i64>() {
        Ok(Value::from(x))
    } else if let Ok(x) = n.extract::<u64>() {
        Ok(Value::from(x))
    } else {
        Err(ScalarFault::WideInt)
    }))
}

fn convert(
    obj: &Bound<'_, PyAny>,
    path: &mut String,
    depth: usize,
    budget: &mut Budget,
) -> PyResult<Value> {
    let bad = |path: &str, why: String| {
        StateError::new_err(format!("bad state at {}: {why}", clip(path)))
    };
    budget.values = budget.values.checked_sub(1).ok_or_else(|| {
        bad(
            path,
            format!("more than {MAX_VALUES} values (dicts, lists and scalars) in all"),
        )
    })?;
    match scalar(obj, false)? {
        Some(Ok(Value::String(t))) => {
            take_text(budget, path, t.len())?;
            return Ok(Value::String(t));
        }
        Some(Ok(v)) => return Ok(v),
        Some(Err(ScalarFault::NotFinite(v))) => {
            return Err(bad(path, format!("{v} is not a JSON number")))
        }
        Some(Err(ScalarFault::LoneSurrogate)) => {
            return Err(bad(path, "text with a lone surrogate".into()))
        }
        Some(Err(ScalarFault::WideInt)) => {
            return Err(bad(path, "an int outside -2**63..2**64".into()))
        }
        None => {}
    }
    if depth >= MAX_DEPTH {
        return Err(bad(path, format!("nested deeper than {MAX_DEPTH} levels")));
    }
    let len = path.len();
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut m = Map::new();
        for (k, v) in d.iter() {
            let key = match k.cast::<PyString>() {
                Ok(s) => {
                    let key = s
                        .to_str()
                        .map_err(|_| bad(path, "a key with a lone surrogate".into()))?;
                    take_text(budget, path, key.len())?;
                    key.to_owned()
                }
                Err(_) => {
                    return Err(PyTypeError::new_err(format!(
                        "keys must be str, got {} at {}",
                        type_name(&k),
                        clip(path)
                    )))
                }
            };
            path.push('.');
            path.push_str(&clip(&key));
            let value = convert(&v, path, depth + 1, budget)?;
            path.truncate(len);
            m.insert(key, value);
        }
        return Ok(Value::Object(m));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for (i, item) in obj.try_iter()?.enumerate() {
            path.push_str(&format!("[{i}]"));
            let value = convert(&item?, path, depth + 1, budget)?;
            path.truncate(len);
            out.push(value);
        }
        return Ok(Value::Array(out));
    }
    Err(PyTypeError::new_err(format!(
        "{} at {} is not JSON data (dict, list, str, int, float, bool or None)",
        type_name(obj),
        clip(path)
    )))
}

/// Count `len` bytes of text against the budget.
fn take_text(budget: &mut Budget, path: &str, len: usize) -> PyResult<()> {
    budget.text = budget.text.checked_sub(len).ok_or_else(|| {
        StateError::new_err(format!(
            "bad state at {}: more than {MAX_TEXT} bytes of text in all",
            clip(path)
        ))
    })?;
    Ok(())
}

pub fn parse(text: &str) -> PyResult<Value> {
    serde_json::from_str(text).map_err(|e| {
        StateError::new_err(format!(
            "malformed JSON at line {} column {}: {}",
            e.line(),
            e.column(),
            clip_message(&e.to_string())
        ))
    })
}

pub fn kwargs_map(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Map<String, Value>> {
    match kwargs {
        None => Ok(Map::new()),
        Some(d) => match from_py(d.as_any()) {
            Ok(Value::Object(m)) => Ok(m),
            Ok(_) => Err(RulesOptionError::new_err("rules options must be a mapping")),
            // The path of a keyword argument is its name: `$.traitor_troops_only`.
            Err(e) if e.is_instance_of::<StateError>(d.py()) => Err(RulesOptionError::new_err(
                e.value(d.py()).to_string().replacen(
                    "bad state at $.",
                    "bad rules options: option ",
                    1,
                ),
            )),
            Err(e) => Err(e),
        },
    }
}
