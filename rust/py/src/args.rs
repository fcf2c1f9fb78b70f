//! Argument checks shared by every binding: ints of any size range-checked into an
//! `ArgumentError` naming the argument and its range (never PyO3's `OverflowError`), text that
//! refuses lone surrogates with a `KingdomsError` (never `UnicodeEncodeError`), and the
//! documented limits (`docs/protocol.md`, "Limits") checked before any work or allocation.
#![deny(clippy::indexing_slicing)]

use kingdoms_core::error::clip;
use kingdoms_core::Error;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

use crate::errors::{IntoPy, KingdomsError};

/// Most games one `Batch` steps at once.
pub const MAX_BATCH: u64 = kingdoms_core::batch::MAX_GAMES as u64;
/// Most worker threads of one `simulate`, `tournament`, self-play run or `Batch`.
pub const MAX_THREADS: u64 = kingdoms_core::simulate::MAX_THREADS as u64;
/// Most bootstrap resamples of a tournament's Elo intervals.
pub const MAX_BOOTSTRAP: u64 = 1 << 20;

/// An int argument of any size. PyO3's own extraction into `u64`/`usize` raises
/// `OverflowError` for negative or huge ints; this keeps them (saturated to `i128`, far
/// outside every range checked here) so the range check can name the argument. A bool is
/// refused (`seed=True` is a mistake); a non-int raises PyO3's `TypeError` naming the
/// argument.
#[derive(Clone, Copy, Debug)]
pub struct Whole(i128);

impl Whole {
    // Defaults for `#[pyo3(signature = ...)]`.
    pub const ZERO: Whole = Whole(0);
    pub const ONE: Whole = Whole(1);
    pub const HUNDRED: Whole = Whole(100);
    pub const THOUSAND: Whole = Whole(1000);
}

impl<'a, 'py> FromPyObject<'a, 'py> for Whole {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("expected an int, got bool"));
        }
        match obj.extract::<i128>() {
            Ok(v) => Ok(Whole(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                Ok(Whole(if obj.gt(0)? { i128::MAX } else { i128::MIN }))
            }
            Err(e) => Err(e),
        }
    }
}

impl Whole {
    /// What was passed, for a message (a saturated value says only its sign).
    fn shown(self) -> String {
        match self.0 {
            i128::MAX => "an int of more than 127 bits".into(),
            i128::MIN => "a negative int of more than 127 bits".into(),
            v => v.to_string(),
        }
    }

    /// The value if it is in `lo..=hi`, else an `ArgumentError` naming `name` and the range.
    pub fn within(self, lo: i128, hi: i128, name: &str) -> PyResult<i128> {
        if (lo..=hi).contains(&self.0) {
            Ok(self.0)
        } else {
            Err(Error::argument(
                name,
                &format!("{lo}..={hi}"),
                &self.shown(),
            ))
            .py()
        }
    }

    /// A `u64` (seeds, game counts, offsets): `0..=2**64-1`.
    pub fn u64(self, name: &str) -> PyResult<u64> {
        let v = self.within(0, u64::MAX as i128, name)?;
        // In range by the check above.
        Ok(v as u64)
    }

    /// A count in `0..=max`.
    pub fn count(self, max: u64, name: &str) -> PyResult<u64> {
        let v = self.within(0, max as i128, name)?;
        Ok(v as u64)
    }

    /// A count in `1..=max` (games in a batch, threads, samples).
    pub fn positive(self, max: u64, name: &str) -> PyResult<u64> {
        let v = self.within(1, max as i128, name)?;
        Ok(v as u64)
    }

    /// An index into something of `len` items: `0..len`.
    pub fn index(self, len: usize, name: &str) -> PyResult<usize> {
        if len == 0 {
            return Err(Error::argument(name, "an empty range", &self.shown())).py();
        }
        let v = self.within(0, len as i128 - 1, name)?;
        Ok(v as usize)
    }

    /// A non-negative index whose upper bound the engine checks (`usize`).
    pub fn usize(self, name: &str) -> PyResult<usize> {
        let v = self.within(0, usize::MAX as i128, name)?;
        Ok(v as usize)
    }
}

/// An optional seed: `None` or an int in `0..=2**64-1`.
pub fn seed(seed: Option<Whole>) -> PyResult<Option<u64>> {
    seed.map(|s| s.u64("seed")).transpose()
}

/// An optional thread count: `None` (one per core) or `1..=MAX_THREADS`.
pub fn threads(threads: Option<Whole>) -> PyResult<Option<usize>> {
    threads
        .map(|t| t.positive(MAX_THREADS, "threads").map(|t| t as usize))
        .transpose()
}

/// A text argument. PyO3's `&str` raises `UnicodeEncodeError` for a lone surrogate; this
/// raises `KingdomsError` (and `TypeError` for a non-string).
pub struct Text(String);

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let s = obj.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a str, got {}",
                clip(
                    &obj.get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                )
            ))
        })?;
        match s.to_str() {
            Ok(t) => Ok(Text(t.to_owned())),
            Err(_) => Err(KingdomsError::new_err(
                "text with a lone surrogate is not valid (it cannot be encoded as UTF-8)",
            )),
        }
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Text {
    pub fn into_string(self) -> String {
        self.0
    }
}

/// A default for a `Text` parameter in `#[pyo3(signature = ...)]`.
pub fn text(s: &str) -> Text {
    Text(s.to_owned())
}
