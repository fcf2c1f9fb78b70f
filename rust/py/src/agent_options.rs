//! The Rust agents' settings in Python, derived from their declaration
//! (`kingdoms_core::search::options`): keywords read through serde, attributes by name or
//! alias, the repr of the settings that differ from the defaults, pickling by the settings'
//! dict, the class docstring and signature, and `agent_options(kind)` for the stub check.
#![deny(clippy::indexing_slicing)]

use kingdoms_core::error::clip;
use kingdoms_core::search::options::{
    changed_options, options_from_json, options_json, AgentOptions, OptionInfo,
};
use kingdoms_core::search::{GreedyConfig, IsmctsConfig};
use kingdoms_core::Error;
use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use serde_json::{Map, Value};

use crate::errors::IntoPyErr;
use crate::json;

/// One keyword's value as JSON: None, bool, int (anything with `__index__`, within 64
/// bits), float (finite), str; anything else is a `TypeError` naming the option.
fn keyword_value(kind: &str, key: &str, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    let option = || format!("{kind}: option {}", clip(key));
    match json::scalar(v, true)? {
        Some(Ok(value)) => Ok(value),
        Some(Err(json::ScalarFault::NotFinite(x))) => {
            Err(Error::invalid(format!("{}: {x} is not a number", option())).into_py_err())
        }
        Some(Err(json::ScalarFault::LoneSurrogate)) => {
            Err(Error::invalid(format!("{}: text with a lone surrogate", option())).into_py_err())
        }
        Some(Err(json::ScalarFault::WideInt)) => {
            Err(
                Error::argument(option(), "an int of at most 64 bits", "a larger int")
                    .into_py_err(),
            )
        }
        None => Err(PyTypeError::new_err(format!(
            "{}: expected a number, bool, str or None, got {}",
            option(),
            clip(
                &v.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            )
        ))),
    }
}

/// An agent's settings from Python arguments: keywords, and at most one positional value,
/// the setting a bare first value sets on the command line ([`AgentOptions::POSITIONAL`]:
/// `ISMCTS(500)`). A wrong type or an unknown or retired setting is a `TypeError`, a bad
/// value a `KingdomsError` (`ArgumentError` out of range), each naming the setting.
pub fn config_from_args<C: AgentOptions>(
    class: &str,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<C> {
    let mut map = Map::new();
    match (args.len(), C::POSITIONAL) {
        (0, _) => {}
        (1, Some(first)) => {
            if kwargs.is_some_and(|d| d.contains(first).unwrap_or(false)) {
                return Err(PyTypeError::new_err(format!(
                    "{class}() got multiple values for argument '{first}'"
                )));
            }
            map.insert(
                first.to_string(),
                keyword_value(C::KIND, first, &args.get_item(0)?)?,
            );
        }
        (n, _) => {
            return Err(PyTypeError::new_err(format!(
                "{class}() takes at most {} positional argument{} ({n} given)",
                usize::from(C::POSITIONAL.is_some()),
                if C::POSITIONAL.is_some() { "" } else { "s" }
            )))
        }
    }
    if let Some(d) = kwargs {
        for (k, v) in d.iter() {
            let key = k
                .cast::<PyString>()
                .ok()
                .and_then(|t| t.to_str().ok().map(str::to_owned))
                .ok_or_else(|| {
                    PyTypeError::new_err(format!(
                        "{class}(): a setting's name must be text without lone surrogates"
                    ))
                })?;
            let value = keyword_value(C::KIND, &key, &v)?;
            map.insert(key, value);
        }
    }
    options_from_json::<C>(map).map_err(|(wrong_type, e)| {
        if wrong_type {
            PyTypeError::new_err(e.to_string())
        } else {
            e.into_py_err()
        }
    })
}

/// The setting `name` (or an alias of one) of `config`, as a Python value.
pub fn option_attr<'py, C: AgentOptions>(
    py: Python<'py>,
    config: &C,
    class: &str,
    name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let field = C::FIELDS
        .iter()
        .find(|f| f.name == name || f.aliases.contains(&name))
        .ok_or_else(|| {
            PyAttributeError::new_err(format!(
                "'{class}' object has no attribute '{}'",
                clip(name)
            ))
        })?;
    let all = options_json(config);
    json::to_py(py, all.get(field.name).unwrap_or(&Value::Null))
}

/// A Python literal of a JSON value (`None`, `True`, `0.5`).
fn literal(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => match n.as_f64() {
            // Floats keep their point (`1.0`), as Python prints them.
            Some(x) if n.is_f64() && x.fract() == 0.0 && x.abs() < 1e16 => format!("{x:.1}"),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// `ISMCTS(iterations=500, exploration=0.5)`: the settings that differ from the defaults.
pub fn options_repr<C: AgentOptions>(class: &str, config: &C) -> String {
    let parts: Vec<String> = changed_options(config)
        .into_iter()
        .map(|(f, v)| format!("{}={}", f.name, literal(&v)))
        .collect();
    format!("{class}({})", parts.join(", "))
}

/// Every setting as a dict (what pickling passes back as keywords).
pub fn options_dict<'py, C: AgentOptions>(
    py: Python<'py>,
    config: &C,
) -> PyResult<Bound<'py, PyAny>> {
    json::to_py(py, &Value::Object(options_json(config)))
}

/// The Python type of a setting's Rust type, as the stubs write it.
fn python_type(rust: &str) -> String {
    let plain = |t: &str| match t {
        "bool" => "bool",
        "f64" | "f32" => "float",
        "String" => "str",
        _ => "int",
    };
    match rust
        .strip_prefix("Option<")
        .and_then(|t| t.strip_suffix('>'))
    {
        Some(inner) => format!("{} | None", plain(inner.trim())),
        None => plain(rust.trim()).to_string(),
    }
}

/// The settings of `C`: name, aliases, Python type, default and doc.
fn describe<'py, C: AgentOptions>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let defaults = options_json(&C::default());
    let out = PyList::empty(py);
    for f in C::FIELDS {
        let d = PyDict::new(py);
        d.set_item("name", f.name)?;
        d.set_item("aliases", f.aliases.to_vec())?;
        d.set_item("type", python_type(f.rust_type))?;
        d.set_item(
            "default",
            json::to_py(py, defaults.get(f.name).unwrap_or(&Value::Null))?,
        )?;
        d.set_item("doc", doc_text(f))?;
        out.append(d)?;
    }
    Ok(out)
}

/// A field's doc as one paragraph.
fn doc_text(f: &OptionInfo) -> String {
    f.doc
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The settings of a Rust agent kind (`"greedy"`, `"ismcts"`), each a dict with `name`,
/// `aliases`, `type` (as the stubs write it), `default` and `doc`: what the classes'
/// keywords, attributes and docstrings are made from.
#[pyfunction]
pub fn agent_options<'py>(py: Python<'py>, kind: &str) -> PyResult<Bound<'py, PyList>> {
    match kind {
        "greedy" => describe::<GreedyConfig>(py),
        "ismcts" | "mcts" => describe::<IsmctsConfig>(py),
        other => Err(Error::invalid(format!(
            "agent_options: unknown agent kind {:?}; the kinds with settings are greedy, ismcts",
            clip(other)
        ))
        .into_py_err()),
    }
}

/// The class docstring: `summary`, then each setting with its type, default and doc.
pub fn options_doc<C: AgentOptions>(summary: &str) -> String {
    let defaults = options_json(&C::default());
    let mut text = String::from(summary.trim());
    text.push_str("\n\nSettings (keywords; `agent_options(\"");
    text.push_str(C::KIND);
    text.push_str("\")` lists them):\n");
    for f in C::FIELDS {
        let aliases = match f.aliases {
            [] => String::new(),
            a => format!(", also {}", a.join(", ")),
        };
        text.push_str(&format!(
            "\n- {} ({}{aliases}; default {}): {}",
            f.name,
            python_type(f.rust_type),
            literal(defaults.get(f.name).unwrap_or(&Value::Null)),
            doc_text(f)
        ));
    }
    text
}
