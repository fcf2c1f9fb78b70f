//! `kingdoms.batch`: many games stepped together, numpy in and out. The stepping and the
//! filling of the arrays happen in Rust with the GIL released (on all cores for large
//! batches); the arrays are handed to numpy without a copy.
#![deny(clippy::indexing_slicing)]

use std::borrow::Cow;
use std::sync::Mutex;

use kingdoms_core::batch::{new_dyn, AnyViews, DynBatch, Mask, Views};
use kingdoms_core::game::ObsValue;
use kingdoms_core::Error;
use numpy::{
    PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyReadwriteArrayDyn,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::agents::spec_of;
use crate::args::{self, Text, Whole};
use crate::errors::IntoPy;
use crate::{classes, json};

/// Observations are float32 arrays, or uint8 ones for a batch made with `obs_dtype="uint8"`;
/// masks bool arrays, or uint8 bits for one made with `mask="bits"`.
type Observed<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyArray1<i64>>,
);
type Stepped<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArrayDyn<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyAny>,
);

/// An observation element type the bindings hand to numpy: f32, or u8 (compact).
trait ObsElement: ObsValue + numpy::Element {
    const DTYPE: &'static str;
    fn views(v: Views<'_, Self>) -> AnyViews<'_>;
}

impl ObsElement for f32 {
    const DTYPE: &'static str = "float32";
    fn views(v: Views<'_, f32>) -> AnyViews<'_> {
        AnyViews::F32(v)
    }
}

impl ObsElement for u8 {
    const DTYPE: &'static str = "uint8";
    fn views(v: Views<'_, u8>) -> AnyViews<'_> {
        AnyViews::U8(v)
    }
}

/// `num_games` games of one kind, stepped together (the engine of `kingdoms.batch.Batch`).
#[pyclass(frozen, module = "kingdoms._kingdoms", name = "Batch")]
pub struct PyBatch {
    inner: Mutex<Box<dyn DynBatch>>,
    name: &'static str,
    n: usize,
    obs_shape: Vec<usize>,
    num_actions: usize,
    num_players: usize,
    /// Observations in the compact form (`obs_dtype="uint8"`).
    compact: bool,
    /// Masks packed eight ids a byte (`mask="bits"`).
    packed: bool,
    divisors: Option<Vec<f32>>,
}

/// A caller's mask array, borrowed for writing: flags, or packed bits.
enum OutMask<'py> {
    Flags(PyReadwriteArrayDyn<'py, bool>),
    Bits(PyReadwriteArrayDyn<'py, u8>),
}

/// The caller's arrays of `step_into`: obs, mask, player, rewards, dones, final_obs.
type OutArrays<'a, 'py> = (
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
);

/// The masks of a fresh call: flags, or bits (the other one empty).
struct Masks {
    flags: Vec<bool>,
    bits: Vec<u8>,
}

struct Buffers<T> {
    obs: Vec<T>,
    mask: Masks,
    player: Vec<i64>,
}

impl<T: ObsElement> Buffers<T> {
    /// These fresh (all-false mask) buffers as the batch's views, with `final_obs` beside
    /// them (empty when not wanted).
    fn views<'a>(&'a mut self, final_obs: &'a mut [T]) -> AnyViews<'a> {
        let mask = if self.mask.bits.is_empty() {
            Mask::Bools(&mut self.mask.flags)
        } else {
            Mask::Bits(&mut self.mask.bits)
        };
        T::views(Views {
            obs: &mut self.obs,
            mask,
            player: &mut self.player,
            final_obs,
            zeroed: true,
        })
    }
}

impl PyBatch {
    /// The actions as a slice (copied only when not contiguous), one per game.
    fn actions<'a>(&self, actions: &'a PyReadonlyArray1<'_, i64>) -> PyResult<Cow<'a, [i64]>> {
        if actions.len() != self.n {
            return Err(crate::errors::to_py(Error::invalid(format!(
                "expected {} actions (one per game), got {}",
                self.n,
                actions.len()
            ))));
        }
        Ok(match actions.as_slice() {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => Cow::Owned(actions.as_array().iter().copied().collect()),
        })
    }

    /// Items in a game's mask row: flags, or bytes of bits.
    fn mask_row(&self) -> usize {
        if self.packed {
            self.num_actions.div_ceil(8)
        } else {
            self.num_actions
        }
    }

    fn buffers<T: ObsElement>(&self) -> Buffers<T> {
        let obs_len: usize = self.obs_shape.iter().product();
        let (flags, bits) = if self.packed {
            (Vec::new(), vec![0; self.n * self.mask_row()])
        } else {
            (vec![false; self.n * self.num_actions], Vec::new())
        };
        Buffers {
            obs: vec![T::ZERO; self.n * obs_len],
            mask: Masks { flags, bits },
            player: vec![0; self.n],
        }
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut dyn DynBatch) -> kingdoms_core::Result<T>,
    ) -> kingdoms_core::Result<T> {
        let mut guard = self
            .inner
            .lock()
            .map_err(|_| Error::invalid("the batch was poisoned by an earlier failure"))?;
        f(&mut **guard)
    }

    fn arrays<'py, T: ObsElement>(
        &self,
        py: Python<'py>,
        b: Buffers<T>,
    ) -> PyResult<Observed<'py>> {
        let shape = vec![self.n, self.mask_row()];
        let mask = if self.packed {
            PyArray1::from_vec(py, b.mask.bits)
                .reshape(shape)?
                .into_any()
        } else {
            PyArray1::from_vec(py, b.mask.flags)
                .reshape(shape)?
                .into_any()
        };
        Ok((
            self.obs_array(py, b.obs)?,
            mask,
            PyArray1::from_vec(py, b.player),
        ))
    }

    /// `n` games' observations as an array of shape `(n, *observation_shape)`.
    fn obs_array<'py, T: ObsElement>(
        &self,
        py: Python<'py>,
        obs: Vec<T>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut shape = vec![self.n];
        shape.extend(&self.obs_shape);
        Ok(PyArray1::from_vec(py, obs).reshape(shape)?.into_any())
    }

    fn observe_as<'py, T: ObsElement>(&self, py: Python<'py>) -> PyResult<Observed<'py>> {
        let mut b = self.buffers::<T>();
        py.detach(|| self.with(|batch| batch.observe(b.views(&mut []))))
            .py()?;
        self.arrays(py, b)
    }

    fn reset_as<'py, T: ObsElement>(
        &self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> PyResult<Observed<'py>> {
        let mut b = self.buffers::<T>();
        py.detach(|| self.with(|batch| batch.reset(seed, b.views(&mut []))))
            .py()?;
        self.arrays(py, b)
    }

    fn step_as<'py, T: ObsElement>(&self, py: Python<'py>, acts: &[i64]) -> PyResult<Stepped<'py>> {
        let mut b = self.buffers::<T>();
        let mut rewards = vec![0.0f32; self.n * self.num_players];
        let mut dones = vec![false; self.n];
        let mut finals = vec![T::ZERO; b.obs.len()];
        py.detach(|| {
            self.with(|batch| batch.step(acts, b.views(&mut finals), &mut rewards, &mut dones))
        })
        .py()?;
        let (obs, mask, player) = self.arrays(py, b)?;
        Ok((
            obs,
            mask,
            player,
            PyArray1::from_vec(py, rewards).reshape(vec![self.n, self.num_players])?,
            PyArray1::from_vec(py, dones),
            self.obs_array(py, finals)?,
        ))
    }

    fn step_into_as<'py, T: ObsElement>(
        &self,
        py: Python<'py>,
        acts: &[i64],
        (obs, mask, player, rewards, dones, final_obs): OutArrays<'_, 'py>,
    ) -> PyResult<()> {
        let mut obs_shape = vec![self.n];
        obs_shape.extend(&self.obs_shape);
        let mut obs = out_array::<T>(T::DTYPE, obs, "obs", &obs_shape)?;
        // The mask in the batch's form (its `mask` option).
        let shape = [self.n, self.mask_row()];
        let mut mask = if self.packed {
            OutMask::Bits(out_array::<u8>("uint8", mask, "mask", &shape)?)
        } else {
            OutMask::Flags(out_array::<bool>("bool", mask, "mask", &shape)?)
        };
        let mut player = out_array::<i64>("int64", player, "player", &[self.n])?;
        let mut rewards =
            out_array::<f32>("float32", rewards, "rewards", &[self.n, self.num_players])?;
        let mut dones = out_array::<bool>("bool", dones, "dones", &[self.n])?;
        let mut finals = out_array::<T>(T::DTYPE, final_obs, "final_obs", &obs_shape)?;
        let mask = match &mut mask {
            OutMask::Flags(f) => Mask::Bools(contiguous(f, "mask")?),
            OutMask::Bits(b) => Mask::Bits(contiguous(b, "mask")?),
        };
        let (obs, player, rewards, dones, finals) = (
            contiguous(&mut obs, "obs")?,
            contiguous(&mut player, "player")?,
            contiguous(&mut rewards, "rewards")?,
            contiguous(&mut dones, "dones")?,
            contiguous(&mut finals, "final_obs")?,
        );
        py.detach(|| {
            self.with(|batch| {
                batch.step(
                    acts,
                    T::views(Views {
                        obs,
                        mask,
                        player,
                        final_obs: finals,
                        zeroed: false,
                    }),
                    rewards,
                    dones,
                )
            })
        })
        .py()
    }
}

#[pymethods]
impl PyBatch {
    #[new]
    #[pyo3(signature = (game, num_games, seed=Whole::ZERO, *, opponent=None, seat=None, threads=None, obs_dtype=None, mask=None, illegal_action=None, **options))]
    #[pyo3(
        text_signature = "(game, num_games, seed=0, *, opponent=None, seat=None, threads=None, obs_dtype=None, mask=None, illegal_action=None, **options)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: Text,
        num_games: Whole,
        seed: Whole,
        opponent: Option<&Bound<'_, PyAny>>,
        seat: Option<Whole>,
        threads: Option<Whole>,
        obs_dtype: Option<Text>,
        mask: Option<Text>,
        illegal_action: Option<Text>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let forfeit = match illegal_action.as_deref() {
            None | Some("raise") => false,
            Some("lose") => true,
            Some(other) => {
                return Err(crate::errors::to_py(Error::invalid(format!(
                    "illegal_action must be 'raise' (the step is refused) or 'lose' (the game \
                     ends as a loss for its mover), not {:?}",
                    other.chars().take(40).collect::<String>()
                ))))
            }
        };
        let packed = match mask.as_deref() {
            None | Some("bool") => false,
            Some("bits") => true,
            Some(other) => {
                return Err(crate::errors::to_py(Error::invalid(format!(
                    "mask must be 'bool' (a flag per action id) or 'bits' (packed eight ids \
                     a byte), not {other:?}"
                ))))
            }
        };
        let compact = match obs_dtype.as_deref() {
            None | Some("float32") => false,
            Some("uint8") => true,
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "obs_dtype must be 'float32' or 'uint8', not {other:?}"
                )))
            }
        };
        let num_games = num_games.positive(args::MAX_BATCH, "num_games")? as usize;
        let seed = seed.u64("seed")?;
        let seat = seat.map(|s| s.usize("seat")).transpose()?;
        let threads = args::threads(threads)?;
        let game: &str = &game;
        let options = json::kwargs_map(options)?;
        let opponent = match opponent {
            None => None,
            Some(o) if o.is_none() => None,
            Some(o) => Some(spec_of(o).ok_or_else(|| {
                PyTypeError::new_err(
                    "opponent must be a Rust agent (kingdoms.agents.Random(), Greedy() or \
                     ISMCTS(...)): it plays inside the batch, without Python",
                )
            })?),
        };
        if seat.is_some() && opponent.is_none() {
            return Err(PyTypeError::new_err(
                "seat is the learner's seat against an opponent: give opponent= too",
            ));
        }
        let mut inner = py
            .detach(|| new_dyn(game, &options, num_games, seed, opponent, seat, threads))
            .py()?;
        inner.set_forfeit_illegal(forfeit);
        let divisors = inner.observation_divisors();
        if compact && divisors.is_none() {
            return Err(crate::errors::to_py(Error::invalid(format!(
                "obs_dtype='uint8': {} has no compact observation (it serves battleline); \
                 use float32",
                inner.name()
            ))));
        }
        Ok(PyBatch {
            compact,
            packed,
            divisors,
            name: inner.name(),
            n: inner.len(),
            obs_shape: inner.obs_shape(),
            num_actions: inner.num_actions(),
            num_players: inner.num_players(),
            inner: Mutex::new(inner),
        })
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.name
    }
    #[getter]
    fn num_games(&self) -> usize {
        self.n
    }
    fn __len__(&self) -> usize {
        self.n
    }
    /// The seed of the slots' streams (the constructor's, or the last seeded `reset`'s).
    #[getter]
    fn seed(&self) -> PyResult<u64> {
        self.with(|b| Ok(b.seed())).py()
    }
    /// Shape of one game's observation.
    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.obs_shape.clone()
    }
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }
    /// The observations' dtype name: "float32", or "uint8" (the compact observation).
    #[getter]
    fn obs_dtype(&self) -> &'static str {
        if self.compact {
            u8::DTYPE
        } else {
            f32::DTYPE
        }
    }
    /// The compact observation's divisors, of the observation's shape (float32), or None
    /// when the game has no compact form: float observation = compact / divisors, exactly.
    #[getter]
    fn obs_divisors<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.divisors
            .as_ref()
            .map(|d| {
                Ok(PyArray1::from_vec(py, d.clone())
                    .reshape(self.obs_shape.clone())?
                    .into_any())
            })
            .transpose()
    }
    /// The masks' form: "bool" (a flag per action id) or "bits" (packed eight ids a byte,
    /// uint8, as `np.packbits(flags, axis=-1, bitorder="little")`).
    #[getter]
    fn mask_format(&self) -> &'static str {
        if self.packed {
            "bits"
        } else {
            "bool"
        }
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.num_players
    }
    /// Games finished so far (each slot restarts when its game ends).
    #[getter]
    fn episodes(&self) -> PyResult<u64> {
        self.with(|b| Ok(b.episodes_finished())).py()
    }
    /// The learner's seat in each slot's current game (with an opponent).
    fn learner_seats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let seats = self.with(|b| Ok(b.learners())).py()?;
        Ok(PyArray1::from_vec(
            py,
            seats.into_iter().map(|s| s as i64).collect(),
        ))
    }

    /// (observations, masks, players) of the current positions.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Observed<'py>> {
        if self.compact {
            self.observe_as::<u8>(py)
        } else {
            self.observe_as::<f32>(py)
        }
    }

    /// Start a new game in every slot (with `seed`: every slot's stream restarts under
    /// it); (observations, masks, players).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&self, py: Python<'py>, seed: Option<Whole>) -> PyResult<Observed<'py>> {
        let seed = args::seed(seed)?;
        if self.compact {
            self.reset_as::<u8>(py, seed)
        } else {
            self.reset_as::<f32>(py, seed)
        }
    }

    /// Play one action id per game; (observations, masks, players, rewards, dones, final
    /// observations), in fresh arrays.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Stepped<'py>> {
        let acts = self.actions(&actions)?;
        if self.compact {
            self.step_as::<u8>(py, &acts)
        } else {
            self.step_as::<f32>(py, &acts)
        }
    }

    /// `step` writing into caller-owned arrays (C-contiguous, of the shapes and dtypes
    /// `step` returns): nothing is allocated. `final_obs` rows are written only where a
    /// game ended.
    #[allow(clippy::too_many_arguments)]
    fn step_into<'py>(
        &self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
        obs: &Bound<'py, PyAny>,
        mask: &Bound<'py, PyAny>,
        player: &Bound<'py, PyAny>,
        rewards: &Bound<'py, PyAny>,
        dones: &Bound<'py, PyAny>,
        final_obs: &Bound<'py, PyAny>,
    ) -> PyResult<()> {
        let acts = self.actions(&actions)?;
        let outs = (obs, mask, player, rewards, dones, final_obs);
        if self.compact {
            self.step_into_as::<u8>(py, &acts, outs)
        } else {
            self.step_into_as::<f32>(py, &acts, outs)
        }
    }

    /// A copy of slot `i`'s current game (with its history, so `record()` works).
    fn game(&self, py: Python<'_>, i: Whole) -> PyResult<Py<PyAny>> {
        let i = i.index(self.n, "i")?;
        let g = self.with(|b| b.game(i)).py()?;
        classes::wrap(py, g)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Batch {} x{} obs={:?} actions={}>",
            self.name, self.n, self.obs_shape, self.num_actions
        )
    }
}

/// A caller's output array, borrowed for writing, checked for dtype and shape.
fn out_array<'py, T: numpy::Element>(
    dtype: &str,
    a: &Bound<'py, PyAny>,
    what: &str,
    shape: &[usize],
) -> PyResult<PyReadwriteArrayDyn<'py, T>> {
    let arr = a.cast::<PyArrayDyn<T>>().map_err(|_| {
        PyTypeError::new_err(format!("{what} must be a numpy array of dtype {dtype}"))
    })?;
    if arr.shape() != shape {
        return Err(PyValueError::new_err(format!(
            "{what} has shape {:?}, expected {shape:?}",
            arr.shape()
        )));
    }
    arr.try_readwrite().map_err(|e| {
        PyValueError::new_err(format!(
            "{what} cannot be written (read-only, or the same array as another buffer): {e}"
        ))
    })
}

fn contiguous<'a, T: numpy::Element>(
    a: &'a mut PyReadwriteArrayDyn<'_, T>,
    what: &str,
) -> PyResult<&'a mut [T]> {
    a.as_slice_mut()
        .map_err(|_| PyValueError::new_err(format!("{what} must be C-contiguous")))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBatch>()
}
