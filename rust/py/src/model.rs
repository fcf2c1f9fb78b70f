//! `Model`: a learned evaluation network (kingdoms_core::model) loaded in Rust, for
//! checking it against the framework that trained it and for measuring it.
#![deny(clippy::indexing_slicing)]

use crate::errors::{IntoPy, KingdomsError};
use kingdoms_core::model::{Mlp, Scratch};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// A policy-and-value network read from a model file (docs/learn.md): ``Model(path)``.
/// A bad file raises :class:`kingdoms.DataError` naming the file and the part at fault.
#[pyclass(frozen, name = "Model", module = "kingdoms._kingdoms")]
pub struct PyModel {
    pub inner: Arc<Mlp>,
}

#[pymethods]
impl PyModel {
    #[new]
    fn new(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Self> {
        let mlp = py.detach(|| Mlp::load(&path)).py()?;
        Ok(PyModel {
            inner: Arc::new(mlp),
        })
    }

    /// The game it was trained for.
    #[getter]
    fn game(&self) -> &str {
        self.inner.game()
    }
    /// The game's observation size (one seat's).
    #[getter]
    fn observation_size(&self) -> usize {
        self.inner.observation_size()
    }
    /// What an input row holds: ``"observation"`` (the mover's) or ``"seats"`` (every
    /// seat's, from the mover).
    #[getter]
    fn input(&self) -> &'static str {
        self.inner.input().name()
    }
    /// Length of an input row.
    #[getter]
    fn input_size(&self) -> usize {
        self.inner.input_size()
    }
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    /// The hidden layers' widths.
    #[getter]
    fn hidden(&self) -> Vec<usize> {
        self.inner.hidden()
    }
    /// Multiply-adds of one evaluation.
    #[getter]
    fn flops(&self) -> usize {
        self.inner.flops()
    }
    /// The file's metadata (its shape and how it was trained).
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.inner.metadata() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The network on a batch of input rows (a 2-D float32 array of ``input_size``
    /// columns: observations, or ``seats`` rows): policy
    /// logits ``(rows, num_actions)`` and values ``(rows, num_players)`` in [-1, 1], value
    /// ``k`` being that of the player ``k`` seats after the mover. Computed in Rust without
    /// the GIL.
    fn forward<'py>(
        &self,
        py: Python<'py>,
        observations: PyReadonlyArray2<'py, f32>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let shape = observations.shape();
        let (rows, cols) = (
            shape.first().copied().unwrap_or(0),
            shape.get(1).copied().unwrap_or(0),
        );
        if cols != self.inner.input_size() {
            return Err(KingdomsError::new_err(format!(
                "observations: expected rows of {} numbers, got {cols}",
                self.inner.input_size()
            )));
        }
        if rows > 1 << 20 {
            return Err(KingdomsError::new_err(format!(
                "observations: at most {} rows at once, got {rows}",
                1 << 20
            )));
        }
        let x = observations
            .to_vec()
            .map_err(|_| KingdomsError::new_err("observations: expected a float32 array"))?;
        let (a, p) = (self.inner.num_actions(), self.inner.num_players());
        let mlp = self.inner.clone();
        let (logits, values) = py
            .detach(move || {
                let mut l = vec![0.0f32; rows * a];
                let mut v = vec![0.0f32; rows * p];
                mlp.forward(&x, rows, &mut Scratch::default(), &mut l, &mut v)
                    .map(|()| (l, v))
            })
            .py()?;
        let l = PyArray1::from_vec(py, logits).reshape([rows, a])?;
        let v = PyArray1::from_vec(py, values).reshape([rows, p])?;
        Ok((l.into_any(), v.into_any()))
    }

    fn __repr__(&self) -> String {
        format!(
            "Model(game={:?}, input={:?}, hidden={:?}, input_size={}, num_actions={})",
            self.inner.game(),
            self.inner.input().name(),
            self.inner.hidden(),
            self.inner.input_size(),
            self.inner.num_actions()
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyModel>()
}
