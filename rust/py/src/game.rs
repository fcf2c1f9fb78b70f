//! `Game`, the one Python class behind every game (each game's class is a thin subclass),
//! with `Action` and `Record`, the values it hands out.
#![deny(clippy::indexing_slicing)]

use kingdoms_core::{registry, DynGame, Record as CoreRecord};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyTuple, PyType};

use crate::args::{Text, Whole};
use crate::errors::{IntoPy, IntoPyErr, StateError};
use crate::json;

/// `(low, high)` arrays of one shape.
type ArrayPair<'py> = (Bound<'py, PyArrayDyn<f32>>, Bound<'py, PyArrayDyn<f32>>);

/// An action of one game: a value with a notation (`str(a)`) and an id in the game's fixed
/// action space. Equal when game and id are equal.
#[pyclass(frozen, module = "kingdoms._kingdoms", name = "Action")]
pub struct PyAction {
    #[pyo3(get)]
    pub game: &'static str,
    #[pyo3(get)]
    pub id: usize,
    pub text: String,
}

#[pymethods]
impl PyAction {
    fn __str__(&self) -> &str {
        &self.text
    }
    fn __repr__(&self) -> String {
        format!("<Action {} {:?} #{}>", self.game, self.text, self.id)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyAction>().is_ok_and(|o| {
            let o = o.get();
            o.game == self.game && o.id == self.id
        })
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.game, self.id).hash(&mut h);
        h.finish()
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let cls = py.get_type::<PyAction>().getattr("_restore")?;
        (cls, (self.game, self.id, self.text.clone())).into_pyobject(py)
    }
    #[staticmethod]
    fn _restore(game: Text, id: Whole, text: Text) -> PyResult<Self> {
        let game = registry::GAMES
            .iter()
            .find(|g| **g == &*game)
            .ok_or_else(|| registry::unknown_game(&game))
            .py()?;
        Ok(PyAction {
            game,
            id: id.usize("id")?,
            text: text.into_string(),
        })
    }
}

/// Everything needed to replay a game exactly: game name, seed, rules options, actions.
#[pyclass(frozen, module = "kingdoms._kingdoms", name = "Record")]
#[derive(Clone)]
pub struct PyRecord {
    pub inner: CoreRecord,
}

#[pymethods]
impl PyRecord {
    #[new]
    #[pyo3(signature = (game, seed, actions, options=None, position=None))]
    fn new(
        game: Text,
        seed: Whole,
        actions: Vec<Text>,
        options: Option<&Bound<'_, PyDict>>,
        position: Option<String>,
    ) -> PyResult<Self> {
        let game = game.into_string();
        // A record of a game that does not exist is refused when made, as a loaded one is.
        if !registry::GAMES.contains(&game.as_str()) {
            return Err(registry::unknown_game(&game).into_py_err());
        }
        Ok(PyRecord {
            inner: CoreRecord {
                game,
                seed: seed.u64("seed")?,
                actions: actions.into_iter().map(Text::into_string).collect(),
                options: json::kwargs_map(options)?,
                position,
            },
        })
    }
    /// The starting position (a position string) of a game that did not start from the
    /// seed's setup; None otherwise.
    #[getter]
    fn position(&self) -> Option<String> {
        self.inner.position.clone()
    }
    #[getter]
    fn game(&self) -> &str {
        &self.inner.game
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed
    }
    #[getter]
    fn actions(&self) -> Vec<String> {
        self.inner.actions.clone()
    }
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json::to_py(py, &serde_json::Value::Object(self.inner.options.clone()))
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json::to_py(py, &self.json_value()?)
    }
    #[classmethod]
    fn from_dict(_cls: &Bound<'_, PyType>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::decode(json::from_py_dict(data, "a record")?)
    }
    #[pyo3(signature = (indent=None))]
    fn to_json(&self, indent: Option<Whole>) -> PyResult<String> {
        dump(&self.json_value()?, indent_arg(indent)?)
    }
    #[classmethod]
    fn from_json(_cls: &Bound<'_, PyType>, text: Text) -> PyResult<Self> {
        Self::decode(json::parse(&text)?)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyRecord>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }
    fn __repr__(&self) -> String {
        format!(
            "<Record {} seed={}{} {} actions>",
            self.inner.game,
            self.inner.seed,
            if self.inner.position.is_some() {
                " from a position"
            } else {
                ""
            },
            self.inner.actions.len()
        )
    }
    /// The replay page, inline in a notebook (`kingdoms view`'s page in an iframe).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::pictures::function(slf.py(), "record_html")?
            .call1((slf,))?
            .extract()
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.get_type::<PyRecord>().getattr("from_json")?;
        (f, (self.to_json(None)?,)).into_pyobject(py)
    }
}

impl PyRecord {
    fn json_value(&self) -> PyResult<serde_json::Value> {
        serde_json::to_value(&self.inner).map_err(|e| json::write_failed("a record", e))
    }
    /// A record from its JSON data: a `StateError` naming the path (`$.actions[3]`).
    pub fn decode(v: serde_json::Value) -> PyResult<Self> {
        let inner: CoreRecord = serde_path_to_error::deserialize(v).map_err(|e| {
            StateError::new_err(format!(
                "bad record at $.{}: {}",
                kingdoms_core::error::clip(&e.path().to_string()),
                json::clip_message(&e.into_inner().to_string())
            ))
        })?;
        if !registry::GAMES.contains(&inner.game.as_str()) {
            return Err(StateError::new_err(format!(
                "bad record at $.game: {}",
                registry::unknown_game_message(&inner.game)
            )));
        }
        Ok(PyRecord { inner })
    }
}

/// Most spaces of JSON indentation.
const MAX_INDENT: u64 = 64;

fn indent_arg(indent: Option<Whole>) -> PyResult<Option<usize>> {
    indent
        .map(|i| i.count(MAX_INDENT, "indent").map(|i| i as usize))
        .transpose()
}

pub fn dump(v: &serde_json::Value, indent: Option<usize>) -> PyResult<String> {
    let failed = |e: &dyn std::fmt::Display| json::write_failed("a value", e);
    match indent {
        None => serde_json::to_string(v).map_err(|e| failed(&e)),
        Some(n) => {
            let ind = " ".repeat(n);
            let mut out = Vec::new();
            let fmt = serde_json::ser::PrettyFormatter::with_indent(ind.as_bytes());
            let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
            serde::Serialize::serialize(v, &mut ser).map_err(|e| failed(&e))?;
            String::from_utf8(out).map_err(|e| failed(&e))
        }
    }
}

/// The common game protocol. Not constructed directly: use `kingdoms.new_game` or a game's
/// own class (`kingdoms.battleline.BattleLine(seed=1)`).
#[pyclass(subclass, module = "kingdoms._kingdoms", name = "Game")]
pub struct PyGame {
    pub inner: Box<dyn DynGame>,
}

/// Wrap a core game in the Python class of its game.
pub fn wrap(py: Python<'_>, inner: Box<dyn DynGame>) -> PyResult<Py<PyAny>> {
    crate::classes::wrap(py, inner)
}

impl PyGame {
    fn action(&self, id: usize) -> PyResult<PyAction> {
        Ok(PyAction {
            game: self.inner.name(),
            id,
            text: self.inner.action_notation(id).py()?,
        })
    }

    /// The id of an `Action` of this game or of a notation string.
    pub(crate) fn resolve(&self, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        if let Ok(a) = action.cast::<PyAction>() {
            let a = a.get();
            if a.game != self.inner.name() {
                return Err(kingdoms_core::Error::Argument {
                    name: "action".into(),
                    message: format!(
                        "{:?} is a {} action, given to a {} game",
                        kingdoms_core::error::clip(&a.text),
                        a.game,
                        self.inner.name()
                    ),
                })
                .py();
            }
            self.inner.check_id(a.id).py()?;
            // An `Action` may come from a pickle: its notation must be this game's for its
            // id (the notation depends on the rules options, so only the game can check).
            if self.inner.action_notation(a.id).py()? != a.text {
                return Err(kingdoms_core::Error::Argument {
                    name: "action".into(),
                    message: format!(
                        "{:?} is not the notation of action #{} in this game",
                        kingdoms_core::error::clip(&a.text),
                        a.id
                    ),
                })
                .py();
            }
            Ok(a.id)
        } else if action.is_instance_of::<pyo3::types::PyString>() {
            let text: Text = action.extract()?;
            self.inner.parse_action(&text).py()
        } else {
            Err(PyTypeError::new_err(format!(
                "expected an Action or its notation string, got {}",
                action.get_type().name()?
            )))
        }
    }

    /// The ply `undo`/`pop` go back to: `to_ply`, or `n` actions before now.
    fn target_ply(&self, n: usize, to_ply: Option<usize>) -> PyResult<usize> {
        use kingdoms_core::Error;
        let len = self.inner.history_len().ok_or_else(|| {
            Error::invalid("this game has no history (a determinized copy), so no undo")
        });
        let ply = len.and_then(|len| match to_ply {
            Some(k) if k <= len => Ok(k),
            Some(k) => Err(Error::invalid(format!(
                "cannot go to ply {k}: only {len} actions have been played"
            ))),
            None => len.checked_sub(n).ok_or_else(|| {
                Error::invalid(format!(
                    "cannot take back {n} actions: only {len} have been played"
                ))
            }),
        });
        ply.py()
    }

    fn player_arg(&self, player: Option<Whole>) -> PyResult<usize> {
        match player {
            Some(p) => self.player(p),
            None => self.inner.current_player().ok_or_else(|| {
                kingdoms_core::Error::invalid("the game is over: name the player").into_py_err()
            }),
        }
    }

    /// A player index: `0..num_players`.
    fn player(&self, player: Whole) -> PyResult<usize> {
        player.index(self.inner.num_players(), "player")
    }

    /// An action id: `0..num_actions`.
    fn id(&self, id: Whole) -> PyResult<usize> {
        id.index(self.inner.num_actions(), "id")
    }
}

#[pymethods]
impl PyGame {
    /// The registry name of this game (`"battleline"`, ...).
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    /// Whose decision it is; None once the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.inner.current_player()
    }
    #[getter]
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }
    /// The winner of a finished game; None while running or for a draw.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.inner.winner()
    }
    /// Final utilities per player (win 1, loss -1, draw 0); zeros while running.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }
    /// The team `player` plays for; partners share a team and its results. In a game without
    /// teams every player is a team of one, numbered as the player.
    fn team(&self, player: Whole) -> PyResult<usize> {
        self.inner.team(self.player(player)?).py()
    }
    /// The seed the game was set up from.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }
    /// The rules options in force (every option, defaults included).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json::to_py(py, &serde_json::Value::Object(self.inner.options_json()))
    }

    /// The legal actions, in ascending id order.
    fn legal_actions(&self) -> PyResult<Vec<PyAction>> {
        self.inner
            .legal_action_ids()
            .into_iter()
            .map(|id| self.action(id))
            .collect()
    }
    /// Play an action (an `Action` or its notation) for the current player. Raises
    /// `IllegalActionError` naming the broken rule, leaving the state unchanged.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = self.resolve(action)?;
        self.inner.apply_id(id).py()
    }
    /// Whether `action` (an `Action`, its notation or its id) is legal now for the current
    /// player, i.e. whether `apply` would accept it. Something that is not an action of
    /// this game (bad notation, id out of range) raises instead.
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let id = if action.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err(
                "expected an Action, its notation string or its id, got bool",
            ));
        } else if action.is_instance_of::<PyInt>() {
            self.id(action.extract()?)?
        } else {
            self.resolve(action)?
        };
        match self.inner.check_action(id) {
            Ok(()) => Ok(true),
            Err(kingdoms_core::Error::IllegalAction { .. }) => Ok(false),
            Err(e) => Err(e).py(),
        }
    }
    /// Parse an action's notation (legality is checked by `apply`).
    fn parse_action(&self, text: Text) -> PyResult<PyAction> {
        let id = self.inner.parse_action(&text).py()?;
        self.action(id)
    }

    // ---- fixed action space ----
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }
    /// Boolean mask over the action space, True where legal.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let size = self.inner.num_actions();
        let mut mask = vec![false; size];
        for id in self.inner.legal_action_ids() {
            // Legal ids lie inside the action space (the conformance tests check it).
            *mask.get_mut(id).ok_or_else(|| {
                PyRuntimeError::new_err(format!(
                    "internal error: legal action id {id} outside the action space of {size}"
                ))
            })? = true;
        }
        Ok(PyArray1::from_vec(py, mask))
    }
    /// The ids of the legal actions, ascending (int64 array).
    fn legal_action_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_vec(
            py,
            self.inner
                .legal_action_ids()
                .into_iter()
                .map(|i| i as i64)
                .collect(),
        )
    }
    fn apply_id(&mut self, id: Whole) -> PyResult<()> {
        let id = self.id(id)?;
        self.inner.apply_id(id).py()
    }
    fn action_to_id(&self, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        self.resolve(action)
    }
    fn id_to_action(&self, id: Whole) -> PyResult<PyAction> {
        self.action(self.id(id)?)
    }
    /// A structured description of an action (kind, cards, targets) as a dict.
    fn describe_action<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let id = self.resolve(action)?;
        json::to_py(py, &self.inner.action_json(id).py()?)
    }

    /// What seat `player` sees of `action` played now (OpenSpiel's per-player
    /// `action_to_string`): its notation when `player` sees it whole (the mover always
    /// does), else its public part and "(secret)" ("pick (secret)"), by the game's rules.
    fn action_seen(&self, player: Whole, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let player = self.player(player)?;
        let id = self.resolve(action)?;
        self.inner.action_seen(player, id).py()
    }

    // ---- observations ----
    /// Shape of `observation_tensor`.
    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.inner.observation_shape()
    }
    /// `player`'s observation (float32, fixed shape; layout in the game's docs). Defaults to
    /// the current player.
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<Whole>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let p = self.player_arg(player)?;
        let shape = self.inner.observation_shape();
        let mut buf = vec![0.0f32; shape.iter().product()];
        self.inner.observation(p, &mut buf).py()?;
        PyArray1::from_vec(py, buf).reshape(shape)
    }

    /// `(low, high)`: float32 arrays of the observation's shape, the least and greatest value
    /// each element can take under this game's rules options and content (computed in Rust
    /// beside the observation; they never change during a game).
    fn observation_bounds<'py>(&self, py: Python<'py>) -> PyResult<ArrayPair<'py>> {
        let shape = self.inner.observation_shape();
        let (low, high) = self.inner.observation_bounds().ok_or_else(|| {
            kingdoms_core::Error::invalid(format!(
                "{} declares no observation bounds",
                self.inner.name()
            ))
            .into_py_err()
        })?;
        Ok((
            PyArray1::from_vec(py, low).reshape(shape.clone())?,
            PyArray1::from_vec(py, high).reshape(shape)?,
        ))
    }

    // ---- copies and serialization ----
    fn clone(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        wrap(py, self.inner.clone_box())
    }
    fn __copy__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        wrap(py, self.inner.clone_box())
    }
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        wrap(py, self.inner.clone_box())
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        // A copy without a history (from `resample_hidden`) comes back without one, so the
        // round trip is `==`.
        let f = py.get_type::<PyGame>().getattr("_restore")?;
        let recorded = self.inner.history_len().is_some();
        (f, (self.to_json(None)?, recorded)).into_pyobject(py)
    }
    /// The game a pickle holds: its state (validated as `from_json` does), without a
    /// history when it had none.
    #[staticmethod]
    fn _restore(py: Python<'_>, state: Text, recorded: bool) -> PyResult<Py<PyAny>> {
        let mut inner = registry::from_json(&json::parse(&state)?).py()?;
        if !recorded {
            inner.forget_history();
        }
        wrap(py, inner)
    }
    /// The complete state as JSON-safe data (hidden cards, RNG state, seed, history).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json::to_py(py, &self.inner.to_json())
    }
    #[pyo3(signature = (indent=None))]
    fn to_json(&self, indent: Option<Whole>) -> PyResult<String> {
        dump(&self.inner.to_json(), indent_arg(indent)?)
    }
    /// Rebuild a game from `to_dict()` output, validating it (`StateError` says where).
    #[classmethod]
    fn from_dict(cls: &Bound<'_, PyType>, data: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        from_value(cls, json::from_py_dict(data, "a state")?)
    }
    #[classmethod]
    fn from_json(cls: &Bound<'_, PyType>, text: Text) -> PyResult<Py<PyAny>> {
        from_value(cls, json::parse(&text)?)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGame>()
            .is_ok_and(|o| o.borrow().inner.to_json() == self.inner.to_json())
    }

    // ---- information ----
    /// The state as `player` sees it: `to_dict()` with everything hidden from them `None`.
    fn view<'py>(&self, py: Python<'py>, player: Whole) -> PyResult<Bound<'py, PyAny>> {
        json::to_py(py, &self.inner.view(self.player(player)?).py()?)
    }
    /// A state consistent with `player`'s view, hidden information redrawn from `seed`.
    fn resample_hidden(&self, py: Python<'_>, player: Whole, seed: Whole) -> PyResult<Py<PyAny>> {
        let (player, seed) = (self.player(player)?, seed.u64("seed")?);
        wrap(py, self.inner.resample_hidden(player, seed).py()?)
    }
    /// A text picture of the position: everything (None) or only what `player` sees.
    #[pyo3(signature = (player=None))]
    fn render(&self, player: Option<Whole>) -> PyResult<String> {
        let player = player.map(|p| self.player(p)).transpose()?;
        self.inner.render(player).py()
    }
    fn __str__(&self) -> PyResult<String> {
        self.inner.render(None).py()
    }
    fn __repr__(&self) -> String {
        let to_move = match self.inner.current_player() {
            Some(p) => format!("player {p} to move"),
            None => match self.inner.winner() {
                Some(w) => format!("over, player {w} won"),
                None => "over, drawn".to_string(),
            },
        };
        format!(
            "<{} {}, {} actions played>",
            self.inner.name(),
            to_move,
            self.inner.history_len().unwrap_or(0)
        )
    }
    /// The game's heuristic value of the position for `player`, in [-1, 1].
    fn evaluate(&self, player: Whole) -> PyResult<f64> {
        self.inner.evaluate(self.player(player)?).py()
    }
    /// The compact position string (FEN-like; the fields are in the game's doc): the whole
    /// state (None), exactly, or what `player` sees, hidden cards as `?`.
    /// `new_game(name, position=...)` loads either (a view's hidden cards drawn from `seed`).
    #[pyo3(signature = (player=None))]
    fn position(&self, player: Option<Whole>) -> PyResult<String> {
        let player = player.map(|p| self.player(p)).transpose()?;
        self.inner.position(player).py()
    }
    /// How many actions have been played since the start of the record (the start position
    /// or the seed's setup); None for a copy without a history (a determinized state).
    #[getter]
    fn ply(&self) -> Option<usize> {
        self.inner.history_len()
    }
    /// Take back actions, exactly: the last `n`, or back to `to_ply` actions from the start
    /// (`to_ply=0` is the starting position). Raises `KingdomsError` (nothing changes) past
    /// the start or without a history.
    #[pyo3(signature = (n=Whole::ONE, *, to_ply=None))]
    #[pyo3(text_signature = "(self, n=1, *, to_ply=None)")]
    fn undo(&mut self, n: Whole, to_ply: Option<Whole>) -> PyResult<()> {
        let to_ply = to_ply.map(|k| k.usize("to_ply")).transpose()?;
        let ply = self.target_ply(n.usize("n")?, to_ply)?;
        self.inner.undo_to(ply).py()
    }
    /// Take back the last `n` actions (like python-chess's `pop`) and return the action that
    /// had been played from the position now on the board.
    #[pyo3(signature = (n=Whole::ONE))]
    #[pyo3(text_signature = "(self, n=1)")]
    fn pop(&mut self, n: Whole) -> PyResult<PyAction> {
        let n = n.usize("n")?;
        if n == 0 {
            return Err(kingdoms_core::Error::invalid(
                "pop(n): n must be at least 1",
            ))
            .py();
        }
        let ply = self.target_ply(n, None)?;
        let id = self
            .inner
            .history_ids()
            .and_then(|h| h.get(ply).copied())
            .ok_or_else(|| kingdoms_core::Error::invalid("no action to take back"))
            .py()?;
        let action = self.action(id)?;
        self.inner.undo_to(ply).py()?;
        Ok(action)
    }
    /// The record (game, seed, options, action notations) that `kingdoms.replay` replays.
    fn record(&self) -> PyResult<PyRecord> {
        Ok(PyRecord {
            inner: self.inner.record().py()?,
        })
    }

    // ---- pictures (drawn in Python by `kingdoms._svg` from `to_dict()` / `view(player)`) ----
    /// An SVG picture of the position: everything (None) or only what `player` sees (hidden
    /// cards face down). `action` (an Action or its notation) is drawn as an arrow,
    /// `highlight` marks places (docs/pictures.md).
    #[pyo3(signature = (player=None, *, action=None, highlight=None))]
    fn svg(
        slf: &Bound<'_, Self>,
        player: Option<&Bound<'_, PyAny>>,
        action: Option<&Bound<'_, PyAny>>,
        highlight: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let kwargs = PyDict::new(slf.py());
        kwargs.set_item("action", action)?;
        kwargs.set_item("highlight", highlight)?;
        // a str subclass that notebooks display as the picture (kingdoms._svg.SvgWrapper)
        Ok(crate::pictures::function(slf.py(), "game_svg")?
            .call((slf, player), Some(&kwargs))?
            .unbind())
    }
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::pictures::function(slf.py(), "game_svg")?
            .call1((slf,))?
            .extract()
    }
}

fn from_value(cls: &Bound<'_, PyType>, mut value: serde_json::Value) -> PyResult<Py<PyAny>> {
    let py = cls.py();
    let want: Option<String> = cls.getattr("GAME").ok().and_then(|g| g.extract().ok());
    if let (Some(want), serde_json::Value::Object(m)) = (&want, &mut value) {
        m.entry("game")
            .or_insert_with(|| serde_json::Value::from(want.as_str()));
    }
    let inner = registry::from_json(&value).py()?;
    if let Some(want) = want {
        if want != inner.name() {
            return Err(StateError::new_err(format!(
                "a {} state given to {want}",
                inner.name()
            )));
        }
    }
    wrap(py, inner)
}
