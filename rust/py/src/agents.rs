//! `kingdoms.agents` and the arenas: the Rust agents as frozen configuration classes, Python
//! agents bridged into Rust matches, `play_match` and `tournament`.
//!
//! A match or tournament dispatches once on the game's name (`with_game!`) and then runs in
//! Rust with the GIL released. Games among Rust agents run on a rayon pool; a game with a
//! Python agent runs on the calling thread, which takes the GIL only for the Python agent's
//! `act` calls and for progress reports.
#![deny(clippy::indexing_slicing)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kingdoms_core::arena::elo::Rating;
use kingdoms_core::arena::scheduler::AgentProvider;
use kingdoms_core::arena::{
    self, GameOutcome, Pairing, Partners, Progress, Skill, TournamentResult, Wdl,
};
use kingdoms_core::rng::{derive, mix64};
use kingdoms_core::search::{Agent, AgentSpec, GreedyConfig, Ismcts, IsmctsConfig};
use kingdoms_core::session::LastMove;
use kingdoms_core::{with_game, DynGame, Error, Game, Knowledge, Session};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::args::{self, Whole};
use crate::errors::{IntoPy, IntoPyErr};
use crate::game::{PyAction, PyGame, PyRecord};
use crate::{agent_options, classes, json};

// ---- the Rust agents -----------------------------------------------------------------

/// The agent of a game object: the `Session<G>` behind it.
fn session_of<G: Game>(game: &dyn DynGame) -> kingdoms_core::Result<&Session<G>> {
    game.as_any()
        .downcast_ref::<Session<G>>()
        .ok_or_else(|| Error::invalid(format!("not a {} game", G::NAME)))
}

/// One move of a freshly built Rust agent (seeded from `salt`) in `game`.
fn act_dyn(spec: &AgentSpec, salt: u64, game: &dyn DynGame) -> kingdoms_core::Result<usize> {
    with_game!(game.name(), G => {
        let s = session_of::<G>(game)?;
        let a = spec.build::<G>(salt).act(&s.game)?;
        s.game.action_id(a)
    })
}

/// `act(game)` of a Rust agent class: search with the GIL released, return the action.
fn act_py(spec: &AgentSpec, calls: &AtomicU64, game: &Bound<'_, PyAny>) -> PyResult<PyAction> {
    let py = game.py();
    let g = game.cast::<PyGame>().map_err(|_| {
        PyTypeError::new_err(format!(
            "act() takes a kingdoms game, not {}",
            game.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    let g = g.borrow();
    let inner: &dyn DynGame = &*g.inner;
    let salt = calls.fetch_add(1, Ordering::Relaxed);
    let id = match spec {
        // A random move is instant: no watcher thread.
        AgentSpec::Random { .. } => py.detach(|| act_dyn(spec, salt, inner)).py()?,
        _ => interruptible(py, || act_dyn(spec, salt, inner))?,
    };
    Ok(PyAction {
        game: inner.name(),
        id,
        text: inner.action_notation(id).py()?,
    })
}

/// Run an agent's `work` with the GIL released on a worker thread while this thread checks
/// for Ctrl-C every 50 ms. A signal sets the work's cancel flag (`search::cancel`); the work
/// stops at its next check and the signal's exception (`KeyboardInterrupt`) is raised.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> kingdoms_core::Result<T> + Send,
) -> PyResult<T> {
    use std::sync::atomic::AtomicBool;
    use std::sync::mpsc::{channel, RecvTimeoutError};
    let flag = Arc::new(AtomicBool::new(false));
    let mut signal: Option<PyErr> = None;
    let outcome = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = channel::<()>();
            let watched = flag.clone();
            let worker = scope.spawn(move || {
                let r = kingdoms_core::search::cancel::watching(watched, work);
                let _ = done.send(());
                r
            });
            while let Err(RecvTimeoutError::Timeout) =
                finished.recv_timeout(Duration::from_millis(50))
            {
                if signal.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        signal = Some(e);
                        flag.store(true, Ordering::Relaxed);
                    }
                }
            }
            worker.join()
        })
    });
    if let Some(e) = signal {
        return Err(e);
    }
    match outcome {
        Ok(r) => r.py(),
        Err(_) => Err(pyo3::exceptions::PyRuntimeError::new_err(
            "internal error: an agent's search panicked",
        )),
    }
}

/// A Python class for an agent whose only setting is its seed (`Random`, `Heuristic`): the
/// constructor, `seed`, `name`, `act`, equality, hashing and pickling, written once.
macro_rules! seeded_agent {
    (
        $(#[doc = $doc:literal])*
        $ty:ident, $name:literal, $variant:ident, hash_salt = $salt:expr, act = $act_doc:literal
    ) => {
        $(#[doc = $doc])*
        #[pyclass(frozen, module = "kingdoms._kingdoms", name = $name)]
        pub struct $ty {
            seed: u64,
            calls: AtomicU64,
        }

        #[pymethods]
        impl $ty {
            #[new]
            #[pyo3(signature = (seed=Whole::ZERO))]
            #[pyo3(text_signature = "(seed=0)")]
            fn new(seed: Whole) -> PyResult<Self> {
                Ok(Self::with_seed(seed.u64("seed")?))
            }
            #[getter]
            fn seed(&self) -> u64 {
                self.seed
            }
            /// The name tables show.
            #[getter]
            fn name(&self) -> String {
                self.spec().name()
            }
            #[doc = $act_doc]
            fn act(&self, game: &Bound<'_, PyAny>) -> PyResult<PyAction> {
                act_py(&self.spec(), &self.calls, game)
            }
            fn __repr__(&self) -> String {
                format!(concat!($name, "(seed={})"), self.seed)
            }
            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                spec_of(other).is_some_and(|s| s == self.spec())
            }
            fn __hash__(&self) -> u64 {
                mix64(self.seed ^ $salt)
            }
            fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
                (py.get_type::<$ty>(), (self.seed,)).into_pyobject(py)
            }
        }

        impl $ty {
            fn with_seed(seed: u64) -> Self {
                $ty {
                    seed,
                    calls: AtomicU64::new(0),
                }
            }
            fn spec(&self) -> AgentSpec {
                AgentSpec::$variant { seed: self.seed }
            }
        }
    };
}

seeded_agent!(
    /// The uniformly random agent. `act` draws from a stream seeded by `seed`: the same agent
    /// gives the same sequence of choices.
    PyRandom, "Random", Random, hash_salt = 0,
    act = "A uniformly random legal action for the player to move."
);

seeded_agent!(
    /// The heuristic agent: the game's own rules of thumb (for Battle Line: build the strongest
    /// formations the unseen cards still allow, draw what it can use, play tactics when they
    /// decide a flag, claim every flag it can), no search. Its seeded RNG only breaks ties. A
    /// game without a heuristic player refuses it with an error naming the game.
    PyHeuristic, "Heuristic", Heuristic, hash_salt = 0x4E55_7215_71C5,
    act = "The rule-of-thumb move for the player to move."
);

/// A Python class for an agent with settings (`Greedy`, `ISMCTS`), all derived from its
/// settings' declaration (`agent_options!`): keywords, attributes by name or alias (one
/// `__getattr__`), `name`, `act`, the repr of the settings that differ from the defaults,
/// equality, hashing and pickling by the settings' dict.
macro_rules! configured_agent {
    ($ty:ident, $name:literal, $config:ty, $variant:ident, act = $act_doc:literal) => {
        #[pyclass(frozen, module = "kingdoms._kingdoms", name = $name)]
        pub struct $ty {
            config: $config,
            calls: AtomicU64,
        }

        #[pymethods]
        impl $ty {
            #[new]
            #[pyo3(signature = (*args, **options))]
            fn new(
                args: &Bound<'_, PyTuple>,
                options: Option<&Bound<'_, PyDict>>,
            ) -> PyResult<Self> {
                Ok(Self::from_config(
                    agent_options::config_from_args::<$config>($name, args, options)?,
                ))
            }
            /// A setting by its name or an alias (`agent_options(kind)` lists them).
            fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
                agent_options::option_attr(py, &self.config, $name, name)
            }
            /// The name tables show (the command-line form without the seed).
            #[getter]
            fn name(&self) -> String {
                self.spec().name()
            }
            #[doc = $act_doc]
            fn act(&self, game: &Bound<'_, PyAny>) -> PyResult<PyAction> {
                act_py(&self.spec(), &self.calls, game)
            }
            fn __repr__(&self) -> String {
                agent_options::options_repr($name, &self.config)
            }
            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                spec_of(other).is_some_and(|s| s == self.spec())
            }
            fn __hash__(&self) -> u64 {
                let text = serde_json::to_string(&self.config).unwrap_or_default();
                mix64(derive(self.config.seed, &[text.len() as u64]) ^ fnv(text.as_bytes()))
            }
            /// Pickling: no positional arguments, every setting as a keyword.
            fn __getnewargs_ex__<'py>(
                &self,
                py: Python<'py>,
            ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyAny>)> {
                Ok((
                    PyTuple::empty(py),
                    agent_options::options_dict(py, &self.config)?,
                ))
            }
        }

        impl $ty {
            fn from_config(config: $config) -> Self {
                $ty {
                    config,
                    calls: AtomicU64::new(0),
                }
            }
            fn spec(&self) -> AgentSpec {
                AgentSpec::$variant(self.config.clone())
            }
        }
    };
}

/// FNV-1a of `bytes`: the settings' text folded into a hash.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

configured_agent!(
    PyGreedy,
    "Greedy",
    GreedyConfig,
    Greedy,
    act = "The legal action whose result the game's `evaluate` likes best for the mover."
);

configured_agent!(
    PyIsmcts,
    "ISMCTS",
    IsmctsConfig,
    Ismcts,
    act = "Search and play the most visited root action."
);

/// The summary of `Greedy`'s docstring (the settings follow, from their declaration).
const GREEDY_DOC: &str = "The greedy agent: one ply of look-ahead scored by the game's \
     `evaluate`, on redraws of what the mover cannot see; ties broken by its seeded RNG.";

/// The summary of `ISMCTS`'s docstring (the settings follow, from their declaration).
const ISMCTS_DOC: &str = "Information-set Monte Carlo tree search (single observer): each \
     iteration plays in a fresh redraw of what the searcher cannot see. Budget: \
     `iterations` per move (1000 when neither budget is given), `time_limit` seconds per move, \
     or both (whichever ends first). A setting left None is the game's own (docs/agents.md).";

#[pymethods]
impl PyIsmcts {
    /// Search (GIL released) and report every root action, most visited first.
    fn analyze(&self, game: &Bound<'_, PyAny>) -> PyResult<PySearch> {
        let py = game.py();
        let g = game.cast::<PyGame>()?.borrow();
        let inner: &dyn DynGame = &*g.inner;
        let salt = self.calls.fetch_add(1, Ordering::Relaxed);
        let config = IsmctsConfig {
            seed: kingdoms_core::search::agent_seed(self.config.seed, salt),
            ..self.config.clone()
        };
        let (iterations, nodes, seconds, rows) =
            interruptible(py, || -> kingdoms_core::Result<_> {
                with_game!(inner.name(), G => {
                    let s = session_of::<G>(inner)?;
                    let st = Ismcts::<G>::new(config).search(&s.game)?;
                    let rows: Vec<(usize, u32, u32, f64, Vec<f64>)> = st
                        .children
                        .iter()
                        .map(|c| {
                            let id = s.game.action_id(c.action);
                            (id, c.visits, c.available, c.value, c.values.clone())
                        })
                        .collect();
                    (st.iterations, st.nodes, st.seconds, rows)
                })
            })?;
        let mut actions = Vec::with_capacity(rows.len());
        for (id, visits, available, value, values) in rows {
            actions.push(PyActionStats {
                action: Py::new(
                    py,
                    PyAction {
                        game: inner.name(),
                        id,
                        text: inner.action_notation(id).py()?,
                    },
                )?,
                visits,
                available,
                value,
                values,
            });
        }
        Ok(PySearch {
            iterations,
            nodes,
            seconds,
            actions: actions
                .into_iter()
                .map(|a| Py::new(py, a))
                .collect::<PyResult<_>>()?,
        })
    }
}

/// One root action after an ISMCTS search.
#[pyclass(frozen, get_all, module = "kingdoms._kingdoms", name = "ActionStats")]
pub struct PyActionStats {
    action: Py<PyAction>,
    visits: u32,
    /// Iterations in which the action was legal (its availability count).
    available: u32,
    /// The searcher's mean result after this action, in [-1, 1].
    value: f64,
    /// Every player's mean result after this action (index: player), in [-1, 1];
    /// partners share their team's.
    values: Vec<f64>,
}

#[pymethods]
impl PyActionStats {
    fn __repr__(&self) -> String {
        format!(
            "ActionStats({}, visits={}, value={:+.3})",
            self.action.get().text,
            self.visits,
            self.value
        )
    }
}

/// What an ISMCTS search did and what it thinks of each root action.
#[pyclass(frozen, get_all, module = "kingdoms._kingdoms", name = "Search")]
pub struct PySearch {
    iterations: u64,
    nodes: usize,
    seconds: f64,
    /// Root actions, most visited first.
    actions: Vec<Py<PyActionStats>>,
}

#[pymethods]
impl PySearch {
    fn __repr__(&self) -> String {
        format!(
            "Search(iterations={}, nodes={}, seconds={:.3}, {} actions)",
            self.iterations,
            self.nodes,
            self.seconds,
            self.actions.len()
        )
    }
}

/// Parse an agent from its command-line form: `random`, `heuristic`, `greedy`, `ismcts:1000`,
/// `ismcts:500,c=0.5,depth=8`, `ismcts:time=0.2`.
#[pyfunction]
pub fn parse_agent(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    match AgentSpec::parse(text).py()? {
        AgentSpec::Random { seed } => Ok(Py::new(py, PyRandom::with_seed(seed))?.into_any()),
        AgentSpec::Heuristic { seed } => Ok(Py::new(py, PyHeuristic::with_seed(seed))?.into_any()),
        AgentSpec::Greedy(config) => Ok(Py::new(py, PyGreedy::from_config(config))?.into_any()),
        AgentSpec::Ismcts(config) => Ok(Py::new(py, PyIsmcts::from_config(config))?.into_any()),
    }
}

/// The spec of a Rust agent object, or None for anything else.
pub(crate) fn spec_of(obj: &Bound<'_, PyAny>) -> Option<AgentSpec> {
    if let Ok(a) = obj.cast::<PyRandom>() {
        Some(a.get().spec())
    } else if let Ok(a) = obj.cast::<PyHeuristic>() {
        Some(a.get().spec())
    } else if let Ok(a) = obj.cast::<PyGreedy>() {
        Some(a.get().spec())
    } else if let Ok(a) = obj.cast::<PyIsmcts>() {
        Some(a.get().spec())
    } else {
        None
    }
}

// ---- Python agents in Rust matches --------------------------------------------------------

/// What an agent slot holds: a Rust agent's configuration or a Python object with `act`.
pub(crate) enum Entrant {
    Rust(AgentSpec),
    Python(Py<PyAny>),
}

pub(crate) fn entrants(agents: &[Bound<'_, PyAny>]) -> PyResult<(Vec<Entrant>, Vec<String>)> {
    let mut out = Vec::with_capacity(agents.len());
    let mut names = Vec::with_capacity(agents.len());
    for (i, a) in agents.iter().enumerate() {
        if let Some(spec) = spec_of(a) {
            names.push(spec.name());
            out.push(Entrant::Rust(spec));
            continue;
        }
        let name = match a.getattr_opt("name")? {
            Some(n) if n.extract::<String>().is_ok() => n.extract::<String>()?,
            _ => a.get_type().name()?.to_string(),
        };
        let act = a.getattr_opt("act")?;
        if !act.is_some_and(|f| f.is_callable()) {
            return Err(PyTypeError::new_err(format!(
                "agent {i} ({name}) has no act(game) method: an agent is kingdoms.agents.Random(), \
                 Heuristic(), Greedy(), ISMCTS(...) or any object with act(game) -> action"
            )));
        }
        names.push(name);
        out.push(Entrant::Python(a.clone().unbind()));
    }
    Ok((out, names))
}

/// Marker message of the core error that stands for a Python exception kept aside.
const PY_RAISED: &str = "a Python agent raised an exception";

/// A Python object playing in a Rust match. It is handed a copy of the game in which
/// everything its player may not see has been redrawn (`resample_hidden`), so it cannot
/// peek; an exception it raises is kept in `error` and re-raised by the caller.
struct PyAgent {
    obj: Py<PyAny>,
    name: String,
    salt: u64,
    calls: u64,
    error: Arc<Mutex<Option<PyErr>>>,
    /// Why the agent forfeited (it raised `kingdoms.agents.Forfeit`), if it did.
    forfeit: Option<String>,
    /// The match's last move as each seat saw it, and its public part: the copy keeps its
    /// player's text and the public part (`LastMove::for_copy`), never another seat's.
    last: Option<(Vec<String>, String)>,
}

/// `kingdoms.agents.Forfeit`, the exception by which an agent gives up the game.
fn forfeit_class(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("kingdoms._subprocess")?.getattr("Forfeit")
}

impl<G: Knowledge> Agent<G> for PyAgent {
    fn act(&mut self, game: &G) -> kingdoms_core::Result<G::Action> {
        let p = game
            .current_player()
            .ok_or_else(|| Error::invalid("the game is over"))?;
        // One-way from the secret salt: the copy's seed and RNG do not lead back to the deal.
        let seed = derive(self.salt, &[0xC0_B1E5, self.calls]);
        self.calls += 1;
        let redrawn = game.resample_hidden(p, seed);
        let last = self.last.as_ref().map(|(texts, public)| {
            let seen = LastMove::Seen {
                texts: texts.clone(),
                public: public.clone(),
            };
            seen.for_copy(&redrawn, p)
        });
        let copy: Box<dyn DynGame> = Box::new(Session::<G> {
            game: redrawn,
            seed,
            start: None,
            history: None,
            last,
            start_last: None,
        });
        Python::attach(|py| {
            let called =
                classes::wrap(py, copy).and_then(|g| self.obj.call_method1(py, "act", (g,)));
            match called {
                Err(e) if forfeit_class(py).is_ok_and(|c| e.is_instance(py, &c)) => {
                    let reason = e.value(py).to_string();
                    let message = format!("agent {:?} (player {p}) forfeited: {reason}", self.name);
                    self.forfeit = Some(reason);
                    Err(Error::invalid(message))
                }
                Err(e) => {
                    if let Ok(mut slot) = self.error.lock() {
                        slot.get_or_insert(e);
                    }
                    Err(Error::invalid(PY_RAISED))
                }
                Ok(r) => resolve::<G>(game, r.bind(py), &self.name, p),
            }
        })
    }
    fn forfeited(&self) -> Option<String> {
        self.forfeit.clone()
    }
    fn moved(&mut self, game: &G, last: &LastMove<G::Action>) {
        let texts = (0..game.num_players())
            .map(|q| last.seen_by(game, q).unwrap_or_default())
            .collect();
        self.last = Some((texts, last.public(game)));
    }
}

/// The action a Python agent returned (an `Action`, its notation or its id).
fn resolve<G: Knowledge>(
    game: &G,
    obj: &Bound<'_, PyAny>,
    name: &str,
    player: usize,
) -> kingdoms_core::Result<G::Action> {
    let bad = |what: String| {
        Error::illegal(
            "legal_actions",
            format!("agent {name:?} (player {player}) returned {what}"),
        )
    };
    if let Ok(a) = obj.cast::<PyAction>() {
        let a = a.get();
        if a.game != G::NAME {
            return Err(bad(format!(
                "a {} action {:?} in a {} game",
                a.game,
                a.text,
                G::NAME
            )));
        }
        return game
            .action_from_id(a.id)
            .ok_or_else(|| bad(format!("action id {}, out of range", a.id)));
    }
    if let Ok(text) = obj.extract::<String>() {
        return game
            .parse_action(&text)
            .map_err(|e| bad(format!("{text:?}, not a {} action: {e}", G::NAME)));
    }
    if !obj.is_instance_of::<pyo3::types::PyBool>() {
        if let Ok(id) = obj.extract::<usize>() {
            return game.action_from_id(id).ok_or_else(|| {
                bad(format!(
                    "action id {id}, out of range 0..{}",
                    game.num_actions()
                ))
            });
        }
    }
    let repr = obj
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into());
    Err(bad(format!(
        "{repr}, not an action (expected an Action, its notation or its id)"
    )))
}

impl Entrant {
    fn build<G: Knowledge>(
        &self,
        py: Python<'_>,
        name: &str,
        salt: u64,
        error: &Arc<Mutex<Option<PyErr>>>,
    ) -> Box<dyn Agent<G>> {
        match self {
            Entrant::Rust(spec) => spec.build::<G>(salt),
            Entrant::Python(obj) => Box::new(PyAgent {
                obj: obj.clone_ref(py),
                name: name.to_string(),
                salt,
                calls: 0,
                error: error.clone(),
                forfeit: None,
                last: None,
            }),
        }
    }
}

/// The Python exception kept aside, if any, else the core error.
pub(crate) fn raise(err: Error, kept: &Arc<Mutex<Option<PyErr>>>) -> PyErr {
    if let Some(e) = kept.lock().ok().and_then(|mut s| s.take()) {
        return e;
    }
    crate::errors::to_py(err)
}

// ---- play_match -------------------------------------------------------------------------

/// Play one match to the end and return its record. `game` is a game name (a new game
/// from `seed` with `**options`) or a game object (played on from its position, which
/// must have a history; `seed` then seeds only the agents). `agents[p]` plays player `p`:
/// Rust agents or any objects with `act(game) -> action`.
#[pyfunction]
#[pyo3(signature = (game, agents, seed=None, **options))]
pub fn play_match(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    agents: Vec<Bound<'_, PyAny>>,
    seed: Option<Whole>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyRecord> {
    let seed = args::seed(seed)?.unwrap_or_else(kingdoms_core::rng::os_seed);
    let start: Box<dyn DynGame> = if let Ok(name) = game.extract::<String>() {
        kingdoms_core::registry::new_game(&name, seed, &json::kwargs_map(options)?).py()?
    } else if let Ok(g) = game.cast::<PyGame>() {
        if options.is_some_and(|o| !o.is_empty()) {
            return Err(PyTypeError::new_err(
                "rules options go with a game name, not a game object",
            ));
        }
        let inner = g.borrow().inner.clone_box();
        if inner.history_len().is_none() {
            return Err(crate::errors::StateError::new_err(
                "this game was loaded without a history, so a match from it would have no record",
            ));
        }
        inner
    } else {
        return Err(PyTypeError::new_err(
            "game must be a game name or a kingdoms game object",
        ));
    };
    let (entrants, names) = entrants(&agents)?;
    let names = arena::unique_names(names);
    let kept = Arc::new(Mutex::new(None));
    let result =
        with_game!(start.name(), G => match_from::<G>(py, &*start, &entrants, &names, seed, &kept))
            .and_then(|r| r);
    match result.map_err(|e| raise(e, &kept))? {
        (inner, None) => Ok(PyRecord { inner }),
        (inner, Some(f)) => {
            let record = Py::new(py, PyRecord { inner })?;
            Err(PyErr::from_value(
                forfeit_class(py)?.call1((f.reason, f.seat, record))?,
            ))
        }
    }
}

fn match_from<G: Knowledge>(
    py: Python<'_>,
    start: &dyn DynGame,
    entrants: &[Entrant],
    names: &[String],
    seed: u64,
    kept: &Arc<Mutex<Option<PyErr>>>,
) -> kingdoms_core::Result<(kingdoms_core::Record, Option<arena::Forfeit>)> {
    let mut session = session_of::<G>(start)?.clone();
    let mut built: Vec<Box<dyn Agent<G>>> = entrants
        .iter()
        .zip(names)
        .enumerate()
        .map(|(seat, (e, name))| e.build::<G>(py, name, arena::agent_salt(seed, 0, seat), kept))
        .collect();
    let context = format!("match (seed {seed})");
    py.detach(|| {
        let played = arena::play_out(&mut session, &mut built, names, &context, None);
        let forfeit = match played {
            Err(e) => Some(arena::forfeit_of(&session.game, &built).ok_or(e)?),
            Ok(_) => None,
        };
        Ok((session.record()?, forfeit))
    })
}

// ---- tournament -------------------------------------------------------------------------

/// Wins, draws and losses.
#[pyclass(frozen, get_all, module = "kingdoms._kingdoms", name = "WDL")]
#[derive(Clone)]
pub struct PyWdl {
    wins: u64,
    draws: u64,
    losses: u64,
}

impl From<Wdl> for PyWdl {
    fn from(w: Wdl) -> Self {
        PyWdl {
            wins: w.wins,
            draws: w.draws,
            losses: w.losses,
        }
    }
}

impl PyWdl {
    fn wdl(&self) -> Wdl {
        Wdl {
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
        }
    }
}

#[pymethods]
impl PyWdl {
    #[getter]
    fn games(&self) -> u64 {
        self.wdl().games()
    }
    /// Win 1, draw 1/2, loss 0.
    #[getter]
    fn points(&self) -> f64 {
        self.wdl().points()
    }
    /// Share of the points (nan without games).
    #[getter]
    fn score(&self) -> f64 {
        self.wdl().score()
    }
    fn __repr__(&self) -> String {
        format!(
            "WDL(wins={}, draws={}, losses={})",
            self.wins, self.draws, self.losses
        )
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyWdl>()
            .is_ok_and(|o| o.get().wdl() == self.wdl())
    }
}

/// An Elo rating with its 95% bootstrap interval, relative to the pool average.
#[pyclass(frozen, get_all, module = "kingdoms._kingdoms", name = "EloRating")]
#[derive(Clone)]
pub struct PyRating {
    elo: f64,
    lo: f64,
    hi: f64,
}

#[pymethods]
impl PyRating {
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.get_type::<PyRating>().getattr("_restore")?;
        (f, (self.elo, self.lo, self.hi)).into_pyobject(py)
    }
    #[staticmethod]
    fn _restore(elo: f64, lo: f64, hi: f64) -> Self {
        PyRating { elo, lo, hi }
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyRating>().is_ok_and(|o| {
            let o = o.get();
            [o.elo, o.lo, o.hi].map(f64::to_bits) == [self.elo, self.lo, self.hi].map(f64::to_bits)
        })
    }
    fn __repr__(&self) -> String {
        format!(
            "EloRating({:+.1}, 95% [{:+.1}, {:+.1}])",
            self.elo, self.lo, self.hi
        )
    }
}

impl From<Rating> for PyRating {
    fn from(r: Rating) -> Self {
        PyRating {
            elo: r.elo,
            lo: r.lo,
            hi: r.hi,
        }
    }
}

/// A Weng-Lin skill (OpenSkill's model and scale: a new agent is 25 +- 25/3): mean `mu`,
/// standard deviation `sigma`, and the 95% interval `lo`..`hi` (`mu -+ 1.96 sigma`).
#[pyclass(frozen, get_all, module = "kingdoms._kingdoms", name = "Skill")]
#[derive(Clone)]
pub struct PySkill {
    mu: f64,
    sigma: f64,
    lo: f64,
    hi: f64,
}

#[pymethods]
impl PySkill {
    fn __repr__(&self) -> String {
        format!(
            "Skill({:.2} +- {:.2}, 95% [{:.2}, {:.2}])",
            self.mu, self.sigma, self.lo, self.hi
        )
    }
}

impl From<Skill> for PySkill {
    fn from(k: Skill) -> Self {
        let (lo, hi) = k.interval();
        PySkill {
            mu: k.mu,
            sigma: k.sigma,
            lo,
            hi,
        }
    }
}

/// How one tournament game went.
#[pyclass(frozen, get_all, module = "kingdoms._kingdoms", name = "GameResult")]
pub struct PyGameResult {
    index: u64,
    /// The seed the game was set up from.
    seed: u64,
    /// `seats[p]`: the index of the agent that played player `p`.
    seats: Vec<usize>,
    /// The winning player (None: drawn).
    winner: Option<usize>,
    /// The index of the winning agent (None: drawn).
    winning_agent: Option<usize>,
    /// Final returns by player (`Game.returns()`); the tables are built from them.
    returns: Vec<f64>,
    plies: u64,
    /// The game's record, when the tournament kept records.
    record: Option<PyRecord>,
    /// The player whose agent forfeited the game (a bot that crashed, timed out or answered
    /// badly; its team lost), or None.
    forfeit: Option<usize>,
    /// Why it forfeited, or None.
    forfeit_reason: Option<String>,
}

#[pymethods]
impl PyGameResult {
    /// JSON-safe data (`from_dict` reads it back).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json::to_py(py, &self.json())
    }
    /// A result from `to_dict` data (e.g. sent back by another process).
    #[staticmethod]
    fn from_dict(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let d: GameResultData = serde_json::from_value(json::from_py(data)?)
            .map_err(|e| crate::errors::to_py(Error::invalid(format!("bad game result: {e}"))))?;
        Ok(PyGameResult::from(&GameOutcome {
            index: d.index,
            seed: d.seed,
            seats: d.seats,
            winner: d.winner,
            returns: d.returns,
            plies: d.plies,
            record: d.record,
            forfeit: d.forfeit,
        }))
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.get_type::<PyGameResult>().getattr("from_dict")?;
        (f, (self.to_dict(py)?,)).into_pyobject(py)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGameResult>()
            .is_ok_and(|o| o.get().outcome() == self.outcome())
    }
    fn __repr__(&self) -> String {
        format!(
            "GameResult(index={}, seed={}, seats={:?}, winner={:?}, plies={})",
            self.index, self.seed, self.seats, self.winner, self.plies
        )
    }
}

impl From<&GameOutcome> for PyGameResult {
    fn from(o: &GameOutcome) -> Self {
        PyGameResult {
            index: o.index,
            seed: o.seed,
            seats: o.seats.clone(),
            winner: o.winner,
            winning_agent: o.winning_agent(),
            returns: o.returns.clone(),
            plies: o.plies,
            record: o.record.clone().map(|inner| PyRecord { inner }),
            forfeit: o.forfeit.as_ref().map(|f| f.seat),
            forfeit_reason: o.forfeit.as_ref().map(|f| f.reason.clone()),
        }
    }
}

impl PyGameResult {
    fn outcome(&self) -> GameOutcome {
        GameOutcome {
            index: self.index,
            seed: self.seed,
            seats: self.seats.clone(),
            winner: self.winner,
            returns: self.returns.clone(),
            plies: self.plies,
            record: self.record.as_ref().map(|r| r.inner.clone()),
            forfeit: self.forfeit.map(|seat| arena::Forfeit {
                seat,
                reason: self.forfeit_reason.clone().unwrap_or_default(),
            }),
        }
    }
    fn json(&self) -> serde_json::Value {
        let o = self.outcome();
        serde_json::json!({
            "index": o.index, "seed": o.seed, "seats": o.seats, "winner": o.winner,
            "returns": o.returns, "plies": o.plies, "record": o.record,
            "winning_agent": self.winning_agent, "forfeit": o.forfeit,
        })
    }
}

/// The plain data of a game result, as `GameResult.to_dict` writes it.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GameResultData {
    index: u64,
    seed: u64,
    seats: Vec<usize>,
    winner: Option<usize>,
    returns: Vec<f64>,
    plies: u64,
    #[serde(default)]
    record: Option<kingdoms_core::Record>,
    #[serde(default)]
    forfeit: Option<arena::Forfeit>,
    // Written by to_dict for readers; derived again from `winner` and `seats`.
    #[serde(default, rename = "winning_agent")]
    _winning_agent: Option<usize>,
}

/// The results of a tournament: standings, pairings, Elo with intervals, every game.
#[pyclass(frozen, module = "kingdoms._kingdoms", name = "TournamentResult")]
pub struct PyTournament {
    inner: TournamentResult,
}

impl PyTournament {
    fn out_of_range(&self, i: usize) -> PyErr {
        PyIndexError::new_err(format!(
            "agent {i} out of range: {} agents",
            self.inner.names.len()
        ))
    }
}

#[pymethods]
impl PyTournament {
    /// Agent `i`'s share of the points over its games (win 1, draw 1/2, loss 0).
    fn score(&self, i: Whole) -> PyResult<f64> {
        let i = i.usize("i")?;
        let total = self
            .inner
            .totals
            .get(i)
            .ok_or_else(|| self.out_of_range(i))?;
        Ok(total.score())
    }
    /// The results as a printable text table.
    fn table(&self) -> String {
        self.inner.table()
    }
    /// The results as an HTML table (notebooks show it), drawn by `kingdoms._svg`.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::pictures::function(slf.py(), "tournament_html")?
            .call1((slf,))?
            .extract()
    }
    /// The Elo ratings with their 95% intervals as a matplotlib chart (the `plot` extra) on
    /// `ax` (a new figure's axes by default); returns the axes.
    #[pyo3(signature = (ax=None))]
    fn plot<'py>(
        slf: &Bound<'py, Self>,
        ax: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::pictures::function(slf.py(), "plot_ratings")?.call1((slf, ax))
    }
    fn __str__(&self) -> String {
        self.inner.table()
    }
    fn __repr__(&self) -> String {
        let scores: Vec<String> = self
            .inner
            .names
            .iter()
            .zip(&self.inner.totals)
            .map(|(name, total)| format!("{name} {:.1}%", 100.0 * total.score()))
            .collect();
        format!(
            "<TournamentResult {} {} games: {}>",
            self.inner.game,
            self.inner.games(),
            scores.join(", ")
        )
    }
    #[getter]
    fn game(&self) -> &str {
        &self.inner.game
    }
    /// The agents' names, as the tables show them.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.inner.names.clone()
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.num_players
    }
    #[getter]
    fn pairing(&self) -> &'static str {
        self.inner.pairing.name()
    }
    #[getter]
    fn games_per_pairing(&self) -> u64 {
        self.inner.games_per_pairing
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed
    }
    /// Games played in all.
    #[getter]
    fn games(&self) -> u64 {
        self.inner.games()
    }
    #[getter]
    fn seconds(&self) -> f64 {
        self.inner.seconds
    }
    #[getter]
    fn games_per_second(&self) -> f64 {
        self.inner.games_per_second()
    }
    #[getter]
    fn plies(&self) -> u64 {
        self.inner.plies
    }
    /// Wins by seat (player 0, 1, ...) over all games.
    #[getter]
    fn seat_wins(&self) -> Vec<u64> {
        self.inner.seat_wins.clone()
    }
    /// Drawn games.
    #[getter]
    fn draws(&self) -> u64 {
        self.inner.draws
    }
    /// Each agent's wins, draws and losses over all its games.
    #[getter]
    fn totals(&self) -> Vec<PyWdl> {
        self.inner.totals.iter().map(|&w| w.into()).collect()
    }
    /// Agent `i`'s results against agent `j`.
    fn pairwise(&self, i: Whole, j: Whole) -> PyResult<PyWdl> {
        let (i, j) = (i.usize("i")?, j.usize("j")?);
        let row = self
            .inner
            .pairwise
            .get(i)
            .ok_or_else(|| self.out_of_range(i))?;
        let wdl = row.get(j).ok_or_else(|| self.out_of_range(j))?;
        Ok((*wdl).into())
    }
    /// Elo ratings (Bradley-Terry maximum likelihood, pool average 0) with 95% bootstrap
    /// intervals, one per agent.
    #[getter]
    fn elo(&self) -> Vec<PyRating> {
        self.inner.elo.iter().map(|&r| r.into()).collect()
    }
    /// Agent indices, best Elo first.
    fn ranking(&self) -> Vec<usize> {
        self.inner.ranking()
    }
    /// Weng-Lin skills (the model of OpenSkill), one per agent: fitted on every game's
    /// ranking of teams, partners credited together.
    #[getter]
    fn skill(&self) -> Vec<PySkill> {
        self.inner.skill.iter().map(|&k| k.into()).collect()
    }
    /// `teams[p]`: the team of player `p` (every player its own in a game without teams).
    #[getter]
    fn teams(&self) -> Vec<usize> {
        self.inner.teams.clone()
    }
    /// Who partnered whom: "rotate" (every split of a group in turn) or "fixed".
    #[getter]
    fn partners(&self) -> &'static str {
        self.inner.partners.name()
    }
    /// `places[i][k]`: how often agent `i`'s team finished in place `k + 1` (tied teams
    /// share the better place).
    #[getter]
    fn places(&self) -> Vec<Vec<u64>> {
        self.inner.places.clone()
    }
    /// Agent `i`'s mean place (1 = first).
    fn mean_place(&self, i: usize) -> PyResult<f64> {
        self.inner.mean_place(i).ok_or_else(|| self.out_of_range(i))
    }
    /// Every game, in schedule order.
    #[getter]
    fn results(&self) -> Vec<PyGameResult> {
        self.inner.outcomes.iter().map(PyGameResult::from).collect()
    }
    /// The record of every game in schedule order (None unless `records=True`).
    #[getter]
    fn records(&self) -> Option<Vec<PyRecord>> {
        self.inner
            .outcomes
            .iter()
            .map(|o| o.record.clone().map(|inner| PyRecord { inner }))
            .collect()
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        // The games and what cannot be tabulated again from them (the Elo intervals come
        // from a bootstrap); the tables are rebuilt from the games.
        let r = &self.inner;
        let f = py.get_type::<PyTournament>().getattr("_restore")?;
        let results: Vec<PyGameResult> = r.outcomes.iter().map(PyGameResult::from).collect();
        let elo: Vec<(f64, f64, f64)> = r.elo.iter().map(|e| (e.elo, e.lo, e.hi)).collect();
        let setup = (
            r.game.clone(),
            r.names.clone(),
            r.teams.clone(),
            r.partners.name(),
            r.pairing.name(),
            r.games_per_pairing,
            r.seed,
        );
        (f, (setup, results, elo, r.seconds)).into_pyobject(py)
    }
    #[staticmethod]
    #[allow(clippy::type_complexity)]
    fn _restore(
        setup: (String, Vec<String>, Vec<usize>, String, String, u64, u64),
        results: Vec<PyRef<'_, PyGameResult>>,
        elo: Vec<(f64, f64, f64)>,
        seconds: f64,
    ) -> PyResult<Self> {
        let (game, names, teams, partners, pairing, games_per_pairing, seed) = setup;
        let mut inner = TournamentResult::from_outcomes(
            &game,
            names,
            teams,
            Partners::parse(&partners).py()?,
            Pairing::parse(&pairing).py()?,
            games_per_pairing,
            seed,
            results.iter().map(|r| r.outcome()).collect(),
            0,
            seconds,
        );
        if elo.len() != inner.elo.len() {
            return Err(
                Error::invalid("a pickled tournament's ratings do not match its agents")
                    .into_py_err(),
            );
        }
        for (r, (e, lo, hi)) in inner.elo.iter_mut().zip(elo) {
            (r.elo, r.lo, r.hi) = (e, lo, hi);
        }
        Ok(PyTournament { inner })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyTournament>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }
    /// Everything above as JSON-safe data.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let r = &self.inner;
        let wdl =
            |w: &Wdl| serde_json::json!({"wins": w.wins, "draws": w.draws, "losses": w.losses});
        let v = serde_json::json!({
            "game": r.game,
            "names": r.names,
            "num_players": r.num_players,
            "pairing": r.pairing.name(),
            "games_per_pairing": r.games_per_pairing,
            "seed": r.seed,
            "games": r.games(),
            "seconds": r.seconds,
            "scores": r.totals.iter().map(Wdl::score).collect::<Vec<_>>(),
            "totals": r.totals.iter().map(wdl).collect::<Vec<_>>(),
            "pairwise": r.pairwise.iter().map(|row| row.iter().map(wdl).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "elo": r.elo.iter().map(|e| serde_json::json!({"elo": e.elo, "lo": e.lo, "hi": e.hi})).collect::<Vec<_>>(),
            "seat_wins": r.seat_wins,
            "draws": r.draws,
            "teams": r.teams,
            "partners": r.partners.name(),
            "places": r.places,
            "skill": r.skill.iter().map(|k| serde_json::json!({"mu": k.mu, "sigma": k.sigma})).collect::<Vec<_>>(),
            "results": r.outcomes.iter().map(|o| serde_json::json!({
                "index": o.index, "seed": o.seed, "seats": o.seats, "winner": o.winner,
                "returns": o.returns, "plies": o.plies, "record": o.record,
                "forfeit": o.forfeit,
            })).collect::<Vec<_>>(),
        });
        json::to_py(py, &v)
    }
}

/// The agents of a tournament as the core scheduler sees them: Rust agents play on the
/// pool, Python agents (bridged by `PyAgent`) on the calling thread.
pub(crate) struct Entrants<'a> {
    pub entrants: &'a [Entrant],
    pub names: &'a [String],
    pub kept: &'a Arc<Mutex<Option<PyErr>>>,
}

impl<G: Knowledge> AgentProvider<G> for Entrants<'_> {
    fn pooled(&self, agent: usize) -> bool {
        matches!(self.entrants.get(agent), Some(Entrant::Rust(_)))
    }
    fn build(&self, agent: usize, salt: u64) -> kingdoms_core::Result<Box<dyn Agent<G>>> {
        let e = self
            .entrants
            .get(agent)
            .ok_or_else(|| Error::invalid(format!("no agent {agent}")))?;
        let name = self.names.get(agent).map_or("?", String::as_str);
        Ok(match e {
            Entrant::Rust(spec) => spec.build::<G>(salt),
            Entrant::Python(_) => Python::attach(|py| e.build::<G>(py, name, salt, self.kept)),
        })
    }
}

/// The watch of a run: checks for Ctrl-C and calls the progress callback (at most every
/// 50 ms, and always at the start and the end) from the calling thread, which holds no GIL
/// in between. A Python exception is kept aside and re-raised by the caller.
pub(crate) fn reporter(
    total: u64,
    callback: Option<Py<PyAny>>,
    kept: &Arc<Mutex<Option<PyErr>>>,
) -> impl FnMut(u64, bool) -> kingdoms_core::Result<()> + '_ {
    let mut last: Option<(u64, Instant)> = None;
    move |done, force| {
        let due = match last {
            None => true,
            Some((d, t)) => force || (d != done && t.elapsed() >= Duration::from_millis(50)),
        };
        let failed = Python::attach(|py| {
            let mut failed = py.check_signals().err();
            if failed.is_none() && due {
                if let Some(cb) = &callback {
                    failed = cb.call1(py, (done, total)).err();
                }
            }
            failed
        });
        if due {
            last = Some((done, Instant::now()));
        }
        match failed {
            None => Ok(()),
            Some(e) => {
                if let Ok(mut slot) = kept.lock() {
                    slot.get_or_insert(e);
                }
                Err(Error::invalid(PY_RAISED))
            }
        }
    }
}

/// The rules options of `G` from keyword arguments.
pub(crate) fn options_of<G: Game>(
    options: &serde_json::Map<String, serde_json::Value>,
) -> PyResult<G::Options> {
    serde_json::from_value(serde_json::Value::Object(options.clone()))
        .map_err(|e| Error::options(format!("{}: {e}", G::NAME)))
        .py()
}

pub(crate) fn validate(entrants: &[Entrant]) -> PyResult<()> {
    for e in entrants {
        if let Entrant::Rust(AgentSpec::Ismcts(c)) = e {
            c.validate().py()?;
        }
    }
    Ok(())
}

fn run_tournament<G: Knowledge>(
    py: Python<'_>,
    options: &serde_json::Map<String, serde_json::Value>,
    entrants: &[Entrant],
    names: Vec<String>,
    config: &arena::TournamentConfig,
    callback: Option<Py<PyAny>>,
) -> PyResult<TournamentResult> {
    let opts = options_of::<G>(options)?;
    validate(entrants)?;
    let kept: Arc<Mutex<Option<PyErr>>> = Arc::new(Mutex::new(None));
    let total = arena::fixtures_with_teams(
        entrants.len(),
        &arena::seat_teams::<G>(&opts, config.seed).py()?,
        config.pairing,
        config.partners,
        config.games,
    )
    .py()?
    .len() as u64;
    let provider = Entrants {
        entrants,
        names: &names,
        kept: &kept,
    };
    let result = py.detach(|| {
        arena::tournament_with::<G, _>(
            &opts,
            names.clone(),
            &provider,
            config,
            &Progress::default(),
            &mut reporter(total, callback, &kept),
        )
    });
    let result = result.map_err(|e| raise(e, &kept))?;
    if let Some(e) = kept.lock().ok().and_then(|mut s| s.take()) {
        return Err(e);
    }
    Ok(result)
}

/// Play a tournament of `game` (a name, or a game object whose name and rules options
/// are used) between `agents`: every pairing (round robin) or agent 0 against each other
/// (`pairing="gauntlet"`), `games` games per pairing with the seats swapped fairly and
/// each deal replayed in every seat order. Rust-only games run on `threads` cores (None:
/// all) with the GIL released; games with a Python agent run on this thread. The tables
/// depend only on the agents, `games`, `seed` and options, never on `threads`.
/// `progress(done, total)` is called as games finish. In a team game `partners="rotate"`
/// plays every split of a group into teams in turn, `"fixed"` keeps the agents' order
/// (the first agents of a group are partners). `position` (a position string, `g.position()`)
/// starts every game there instead of from the seed's setup; a view position has its hidden
/// parts dealt afresh from each game's seed. Without a `seed` one is drawn from the OS
/// (unguessable, as play between untrusted bots needs) and reported as the result's `seed`.
#[pyfunction]
#[pyo3(signature = (game, agents, games=Whole::HUNDRED, seed=None, threads=None, *, pairing="round-robin", records=false, bootstrap=Whole::THOUSAND, progress=None, partners="rotate", position=None, **options))]
#[pyo3(
    text_signature = "(game, agents, games=100, seed=None, threads=None, *, pairing='round-robin', records=False, bootstrap=1000, progress=None, partners='rotate', position=None, **options)"
)]
#[allow(clippy::too_many_arguments)]
pub fn tournament(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    agents: Vec<Bound<'_, PyAny>>,
    games: Whole,
    seed: Option<Whole>,
    threads: Option<Whole>,
    pairing: &str,
    records: bool,
    bootstrap: Whole,
    progress: Option<Bound<'_, PyAny>>,
    partners: &str,
    position: Option<args::Text>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyTournament> {
    let (name, options) = game_and_options(game, options)?;
    let config = arena::TournamentConfig {
        games: games.u64("games")?,
        seed: args::seed(seed)?.unwrap_or_else(kingdoms_core::rng::os_seed),
        threads: args::threads(threads)?,
        pairing: Pairing::parse(pairing).py()?,
        records,
        bootstrap: bootstrap.count(args::MAX_BOOTSTRAP, "bootstrap")? as u32,
        partners: Partners::parse(partners).py()?,
        position: position.map(args::Text::into_string),
    };
    let (entrants, names) = entrants(&agents)?;
    let names = arena::unique_names(names);
    let callback = callback_of(progress)?;
    let inner = with_game!(name.as_str(), G => {
        run_tournament::<G>(py, &options, &entrants, names, &config, callback)?
    })
    .py()?;
    Ok(PyTournament { inner })
}

/// A game name and its rules options, from a name and keyword arguments or a game object.
pub(crate) fn game_and_options(
    game: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<(String, serde_json::Map<String, serde_json::Value>)> {
    if game.is_instance_of::<pyo3::types::PyString>() {
        let name: args::Text = game.extract()?;
        Ok((name.into_string(), json::kwargs_map(options)?))
    } else if let Ok(g) = game.cast::<PyGame>() {
        if options.is_some_and(|o| !o.is_empty()) {
            return Err(PyTypeError::new_err(
                "rules options go with a game name; a game object brings its own",
            ));
        }
        let g = g.borrow();
        Ok((g.inner.name().to_string(), g.inner.options_json()))
    } else {
        Err(PyTypeError::new_err(
            "game must be a game name or a kingdoms game object",
        ))
    }
}

pub(crate) fn callback_of(progress: Option<Bound<'_, PyAny>>) -> PyResult<Option<Py<PyAny>>> {
    match progress {
        Some(cb) if !cb.is_none() => {
            if !cb.is_callable() {
                return Err(PyTypeError::new_err(
                    "progress must be callable(done, total)",
                ));
            }
            Ok(Some(cb.unbind()))
        }
        _ => Ok(None),
    }
}

/// The schedule of a tournament of `agents` agents: one `(index, deal, seats)` a game, in
/// the order `tournament` numbers its results (`seats[p]`: the agent playing player `p`;
/// games of one deal replay the same shuffle).
#[pyfunction]
#[pyo3(signature = (game, agents, games=Whole::HUNDRED, *, pairing="round-robin", partners="rotate", **options))]
#[pyo3(
    text_signature = "(game, agents, games=100, *, pairing='round-robin', partners='rotate', **options)"
)]
pub fn tournament_schedule(
    game: &Bound<'_, PyAny>,
    agents: Whole,
    games: Whole,
    pairing: &str,
    partners: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(u64, u64, Vec<usize>)>> {
    let (agents, games) = (agents.usize("agents")?, games.u64("games")?);
    let (name, options) = game_and_options(game, options)?;
    let pairing = Pairing::parse(pairing).py()?;
    let partners = Partners::parse(partners).py()?;
    let probe = kingdoms_core::registry::new_game(&name, 0, &options).py()?;
    let teams = (0..probe.num_players())
        .map(|p| probe.team(p))
        .collect::<kingdoms_core::Result<Vec<usize>>>()
        .py()?;
    Ok(
        arena::fixtures_with_teams(agents, &teams, pairing, partners, games)
            .py()?
            .into_iter()
            .map(|f| (f.index, f.deal, f.seats))
            .collect(),
    )
}

/// Games `start..stop` of the schedule `tournament` would play with the same arguments
/// (numbered as in its `results`), played here on `threads` cores: exactly the results the
/// whole tournament gives for them, whatever machine or process plays them (`position`: as
/// in `tournament`). Pass every
/// slice's results to `merge_tournament` for the tournament's result.
#[pyfunction]
#[pyo3(signature = (game, agents, start, stop, games=Whole::HUNDRED, seed=Whole::ZERO, threads=None, *, pairing="round-robin", records=false, progress=None, partners="rotate", position=None, **options))]
#[pyo3(
    text_signature = "(game, agents, start, stop, games=100, seed=0, threads=None, *, pairing='round-robin', records=False, progress=None, partners='rotate', position=None, **options)"
)]
#[allow(clippy::too_many_arguments)]
pub fn tournament_games(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    agents: Vec<Bound<'_, PyAny>>,
    start: Whole,
    stop: Whole,
    games: Whole,
    seed: Whole,
    threads: Option<Whole>,
    pairing: &str,
    records: bool,
    progress: Option<Bound<'_, PyAny>>,
    partners: &str,
    position: Option<args::Text>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<PyGameResult>> {
    let (start, stop) = (start.u64("start")?, stop.u64("stop")?);
    let (name, options) = game_and_options(game, options)?;
    let config = arena::TournamentConfig {
        games: games.u64("games")?,
        seed: seed.u64("seed")?,
        threads: args::threads(threads)?,
        pairing: Pairing::parse(pairing).py()?,
        records,
        bootstrap: 0,
        partners: Partners::parse(partners).py()?,
        position: position.map(args::Text::into_string),
    };
    let (entrants, names) = entrants(&agents)?;
    let names = arena::unique_names(names);
    let callback = callback_of(progress)?;
    let outcomes = with_game!(name.as_str(), G => {
        let opts = options_of::<G>(&options)?;
        validate(&entrants)?;
        let kept: Arc<Mutex<Option<PyErr>>> = Arc::new(Mutex::new(None));
        let provider = Entrants { entrants: &entrants, names: &names, kept: &kept };
        let total = stop.saturating_sub(start);
        let r = py.detach(|| {
            arena::tournament_games::<G, _>(
                &opts,
                &names,
                &provider,
                &config,
                start..stop,
                &Progress::default(),
                &mut reporter(total, callback, &kept),
            )
        });
        r.map_err(|e| raise(e, &kept))?
    })
    .py()?;
    Ok(outcomes.iter().map(PyGameResult::from).collect())
}

/// The result of a tournament from the `tournament_games` results of all its slices (in
/// any order): the same tables, Elo and games as `tournament` with the same game, agents,
/// `games`, `seed`, `pairing` and `bootstrap`; `seconds` is the wall time to report.
/// Results that miss a game, repeat one or do not match the schedule are refused.
#[pyfunction]
#[pyo3(signature = (game, agents, results, games=Whole::HUNDRED, seed=Whole::ZERO, *, pairing="round-robin", bootstrap=Whole::THOUSAND, seconds=0.0, partners="rotate", **options))]
#[pyo3(
    text_signature = "(game, agents, results, games=100, seed=0, *, pairing='round-robin', bootstrap=1000, seconds=0.0, partners='rotate', **options)"
)]
#[allow(clippy::too_many_arguments)]
pub fn merge_tournament(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    agents: Vec<Bound<'_, PyAny>>,
    results: Vec<PyRef<'_, PyGameResult>>,
    games: Whole,
    seed: Whole,
    pairing: &str,
    bootstrap: Whole,
    seconds: f64,
    partners: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyTournament> {
    let (name, options) = game_and_options(game, options)?;
    let bootstrap = bootstrap.count(args::MAX_BOOTSTRAP, "bootstrap")? as u32;
    let config = arena::TournamentConfig {
        games: games.u64("games")?,
        seed: seed.u64("seed")?,
        threads: None,
        pairing: Pairing::parse(pairing).py()?,
        records: false,
        bootstrap,
        partners: Partners::parse(partners).py()?,
        position: None,
    };
    let (_, names) = entrants(&agents)?;
    let names = arena::unique_names(names);
    let outcomes: Vec<GameOutcome> = results.iter().map(|r| r.outcome()).collect();
    let inner = with_game!(name.as_str(), G => {
        let opts = options_of::<G>(&options)?;
        py.detach(|| arena::merge::<G>(&opts, names, &config, outcomes, seconds)).py()?
    })
    .py()?;
    Ok(PyTournament { inner })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRandom>()?;
    m.add_class::<PyHeuristic>()?;
    m.add_class::<PyGreedy>()?;
    m.add_class::<PyIsmcts>()?;
    // The docstrings list the settings from their declaration.
    let py = m.py();
    py.get_type::<PyGreedy>().setattr(
        "__doc__",
        agent_options::options_doc::<GreedyConfig>(GREEDY_DOC),
    )?;
    py.get_type::<PyIsmcts>().setattr(
        "__doc__",
        agent_options::options_doc::<IsmctsConfig>(ISMCTS_DOC),
    )?;
    m.add_function(wrap_pyfunction!(agent_options::agent_options, m)?)?;
    m.add_class::<PyActionStats>()?;
    m.add_class::<PySearch>()?;
    m.add_class::<PyWdl>()?;
    m.add_class::<PyRating>()?;
    m.add_class::<PySkill>()?;
    m.add_class::<PyGameResult>()?;
    m.add_class::<PyTournament>()?;
    m.add_function(wrap_pyfunction!(parse_agent, m)?)?;
    m.add_function(wrap_pyfunction!(play_match, m)?)?;
    m.add_function(wrap_pyfunction!(tournament, m)?)?;
    m.add_function(wrap_pyfunction!(tournament_schedule, m)?)?;
    m.add_function(wrap_pyfunction!(tournament_games, m)?)?;
    m.add_function(wrap_pyfunction!(merge_tournament, m)?)?;
    Ok(())
}
