//! A game together with how it came to be: its seed and the actions played. This is the
//! unit the Python bindings and the records work with, behind the object-safe [`DynGame`]
//! so one binding class serves every game.
#![deny(clippy::indexing_slicing)]

use crate::error::{Error, Result};
use crate::game::{Game, Player};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::any::Any;

/// Everything needed to replay a game exactly: the game set up from `seed` (or, when
/// `position` is given, the game that position string describes, its hidden cards drawn
/// from `seed` if it is a view), then `actions` in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub game: String,
    pub seed: u64,
    #[serde(default)]
    pub options: Map<String, Value>,
    /// The starting position ([`Game::position`]) of a game that did not start from `seed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    pub actions: Vec<String>,
}

/// A game plus how it came to be: its seed, the state its history starts from and the
/// history. `history` is `None` for a state that may not carry one (a determinized copy,
/// whose history would reveal the hidden cards, or a loaded state of a game without a
/// position format): such a state has no record and no undo.
#[derive(Clone, Debug)]
pub struct Session<G: Game> {
    pub game: G,
    pub seed: u64,
    /// The state `history` starts from, when that is not `G::new(seed, options)`: a game
    /// set up from a position, or loaded from a saved state without a history.
    pub start: Option<Box<G>>,
    pub history: Option<Vec<G::Action>>,
    /// The last move as each seat saw it (`view(p)["last_move"]`), `None` before the first.
    pub last: Option<LastMove<G::Action>>,
    /// The last move before `start` (a loaded state's), which `undo_to(0)` goes back to.
    pub start_last: Option<LastMove<G::Action>>,
}

/// The last move as the seats saw it, kept so each seat's view can name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LastMove<A> {
    /// Played here: the action, and the seats that saw it whole (bit `p` for seat `p`,
    /// [`Game::sees_action`] asked before it was played). The text is written only when a
    /// view asks for it (the notation and the public part do not depend on the state).
    Played { action: A, whole: u64 },
    /// Known only as text: each seat's, and what every seat sees (a determinized copy, whose
    /// seats other than its player read the public part: nothing hidden from any of them; a
    /// loaded state).
    Seen { texts: Vec<String>, public: String },
}

impl<A: Copy> LastMove<A> {
    /// `action`, about to be played in `game`, with the seats that see it whole.
    pub fn played<G: Game<Action = A>>(game: &G, action: A) -> Self {
        let whole = (0..game.num_players().min(64))
            .filter(|&p| game.sees_action(p, action))
            .fold(0u64, |m, p| m | 1 << p);
        LastMove::Played { action, whole }
    }

    /// What seat `p` saw of it ([`Game::action_seen`]), written from `game`, the state the
    /// move led to.
    pub fn seen_by<G: Game<Action = A>>(&self, game: &G, p: Player) -> Option<String> {
        match self {
            LastMove::Played { action, whole } => Some(if p < 64 && whole >> p & 1 == 1 {
                game.action_notation(*action)
            } else {
                game.action_public(*action)
            }),
            LastMove::Seen { texts, .. } => texts.get(p).cloned(),
        }
    }

    /// What every seat sees of it ([`Game::action_public`]).
    pub fn public<G: Game<Action = A>>(&self, game: &G) -> String {
        match self {
            LastMove::Played { action, .. } => game.action_public(*action),
            LastMove::Seen { public, .. } => public.clone(),
        }
    }

    /// As a determinized copy for `p` keeps it: `p`'s text for `p`, the public part for the
    /// other seats (`p` knows both; a seat that saw more is not told it by `p`'s copy).
    pub fn for_copy<G: Game<Action = A>>(&self, game: &G, p: Player) -> Self {
        let (mine, public) = (self.seen_by(game, p).unwrap_or_default(), self.public(game));
        LastMove::Seen {
            texts: (0..game.num_players())
                .map(|q| if q == p { mine.clone() } else { public.clone() })
                .collect(),
            public,
        }
    }

    /// The saved form: `{"seen": [each seat's text], "public": text}`.
    fn to_value<G: Game<Action = A>>(&self, game: &G) -> Value {
        let saved = SavedLast {
            seen: self.texts(game),
            public: self.public(game),
        };
        serde_json::to_value(saved).unwrap_or(Value::Null) // strings only: never fails
    }

    /// Every seat's text.
    fn texts<G: Game<Action = A>>(&self, game: &G) -> Vec<String> {
        (0..game.num_players())
            .map(|p| self.seen_by(game, p).unwrap_or_default())
            .collect()
    }
}

/// `$.last_move` of a saved state: each seat's text and what every seat sees.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedLast {
    seen: Vec<String>,
    public: String,
}

/// Where a player's position string ends and the last move as that player saw it begins.
pub const LAST_MOVE: &str = " | ";

const RESERVED: [&str; 5] = ["game", "seed", "history", "start", "last_move"];

impl<G: Game> Session<G> {
    pub fn new(seed: u64, options: &G::Options) -> Result<Self> {
        Ok(Session {
            game: G::new(seed, options)?,
            seed,
            start: None,
            history: Some(Vec::new()),
            last: None,
            start_last: None,
        })
    }

    /// A game without a history of its own (a determinized copy): no record, no undo.
    pub fn unrecorded(game: G, seed: u64) -> Self {
        Session {
            game,
            seed,
            start: None,
            history: None,
            last: None,
            start_last: None,
        }
    }

    /// A game set up from a position string ([`Game::from_position`]); its record starts there.
    /// A player's position may end in ` | ` and the last move as that player saw it
    /// ([`DynGame::position`]), kept for every seat (` | ` before each seat's text and before
    /// the public part gives each its own).
    pub fn from_position(text: &str, seed: u64, options: &G::Options) -> Result<Self> {
        let (text, seen) = match text.split_once(LAST_MOVE) {
            Some((text, seen)) => (text, Some(seen)),
            None => (text, None),
        };
        let game = G::from_position(text, options, seed)?;
        let last = seen
            .map(|seen| Self::read_seen(seen, game.num_players()))
            .transpose()?;
        Ok(Session {
            start: Some(Box::new(game.clone())),
            game,
            seed,
            history: Some(Vec::new()),
            last: last.clone(),
            start_last: last,
        })
    }

    /// The last-move part of a position: one text (a player's), or one per seat and the
    /// public part (the whole position's); each one line, no longer than a position.
    fn read_seen(seen: &str, players: usize) -> Result<LastMove<G::Action>> {
        let parts: Vec<String> = seen
            .split(LAST_MOVE)
            .map(|t| t.trim().to_string())
            .collect();
        let fits =
            |t: &String| !t.is_empty() && t.len() <= crate::position::MAX_LEN && !t.contains('\n');
        match parts.as_slice() {
            [one] if fits(one) => Ok(LastMove::Seen {
                texts: vec![one.clone(); players],
                public: one.clone(),
            }),
            [texts @ .., public] if texts.len() == players && parts.iter().all(fits) => {
                Ok(LastMove::Seen {
                    texts: texts.to_vec(),
                    public: public.clone(),
                })
            }
            _ => Err(Error::state(
                "position (last move)",
                format!(
                    "expected the last move after {LAST_MOVE:?} (one text, or one per \
                     player and the public one), found {:?}",
                    crate::position::clip(seen)
                ),
            )),
        }
    }

    /// Options from JSON; a bad one is `Error::Options` naming it (`decode_options`).
    fn parse_options(options: &Map<String, Value>) -> Result<G::Options> {
        crate::error::decode_options(G::NAME, options)
    }

    pub fn from_options_json(seed: u64, options: &Map<String, Value>) -> Result<Self> {
        Self::new(seed, &Self::parse_options(options)?)
    }

    pub fn from_position_json(text: &str, seed: u64, options: &Map<String, Value>) -> Result<Self> {
        Self::from_position(text, seed, &Self::parse_options(options)?)
    }

    /// The state the history starts from.
    pub fn initial(&self) -> Result<G> {
        match &self.start {
            Some(g) => Ok((**g).clone()),
            None => G::new(self.seed, self.game.options()),
        }
    }

    /// Take the game back to the state after the first `ply` actions of its history,
    /// exactly (the later actions are forgotten). On error nothing changes.
    pub fn undo_to(&mut self, ply: usize) -> Result<()> {
        let history = self.history.as_ref().ok_or_else(|| {
            Error::invalid("this game has no history (a determinized copy), so no undo")
        })?;
        if ply > history.len() {
            return Err(Error::invalid(format!(
                "cannot go back to ply {ply}: {} actions have been played",
                history.len()
            )));
        }
        let mut g = self.initial()?;
        let mut last = self.start_last.clone();
        for &a in history.iter().take(ply) {
            g.check(a)?;
            last = Some(LastMove::played(&g, a));
            g.apply_unchecked(a);
        }
        self.game = g;
        self.last = last;
        if let Some(h) = &mut self.history {
            h.truncate(ply);
        }
        Ok(())
    }

    /// The position the history starts from, if not the setup from the seed.
    pub fn start_position(&self) -> Result<Option<String>> {
        self.start.as_ref().map(|g| g.position(None)).transpose()
    }

    pub fn apply(&mut self, action: G::Action) -> Result<()> {
        self.game.check(action)?;
        self.apply_unchecked(action);
        Ok(())
    }

    /// Play and record an action the caller already knows is legal (e.g. found in
    /// `legal_actions` of this very state), without running the rules' checks again.
    pub fn apply_unchecked(&mut self, action: G::Action) {
        self.last = Some(LastMove::played(&self.game, action));
        self.game.apply_unchecked(action);
        if let Some(h) = &mut self.history {
            h.push(action);
        }
    }

    pub fn options_json(&self) -> Map<String, Value> {
        match serde_json::to_value(self.game.options()) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        }
    }

    pub fn to_json(&self) -> Value {
        let mut v = self.game.to_json();
        if let Value::Object(m) = &mut v {
            m.insert("game".into(), Value::from(G::NAME));
            m.insert("seed".into(), Value::from(self.seed));
            let start = self.start_position();
            let history = match (&self.history, &start) {
                (Some(h), Ok(_)) => h
                    .iter()
                    .map(|a| Value::from(self.game.action_notation(*a)))
                    .collect(),
                _ => Value::Null,
            };
            if let (Ok(Some(p)), false) = (start, history.is_null()) {
                m.insert("start".into(), Value::from(p));
            }
            if let Some(last) = &self.last {
                m.insert("last_move".into(), last.to_value(&self.game));
            }
            m.insert("history".into(), history);
        }
        v
    }

    /// What seat `p` saw of the last move, if there was one.
    pub fn last_seen(&self, p: Player) -> Option<String> {
        self.last.as_ref().and_then(|l| l.seen_by(&self.game, p))
    }

    /// `$.last_move` of a saved state (`{"seen": [one text per seat], "public": text}`);
    /// with a history it must be the history's last move (checked by `from_json`).
    fn read_last(m: &Map<String, Value>, game: &G) -> Result<Option<LastMove<G::Action>>> {
        let bad = || {
            Error::state(
                "$.last_move",
                "expected {\"seen\": [a text per player], \"public\": a text}".to_string(),
            )
        };
        let saved = match m.get("last_move") {
            None | Some(Value::Null) => return Ok(None),
            Some(v) => SavedLast::deserialize(v).map_err(|_| bad())?,
        };
        let fits = |t: &String| t.len() <= crate::position::MAX_LEN;
        if saved.seen.len() != game.num_players()
            || !saved.seen.iter().all(fits)
            || !fits(&saved.public)
        {
            return Err(bad());
        }
        Ok(Some(LastMove::Seen {
            texts: saved.seen,
            public: saved.public,
        }))
    }

    pub fn from_json(value: &Value) -> Result<Self> {
        let Value::Object(m) = value else {
            return Err(Error::state("$", "expected a JSON object"));
        };
        if let Some(g) = m.get("game") {
            if g.as_str() != Some(G::NAME) {
                return Err(Error::state(
                    "$.game",
                    format!("expected {:?}, found {g}", G::NAME),
                ));
            }
        }
        let seed = match m.get("seed") {
            None | Some(Value::Null) => 0,
            Some(s) => s
                .as_u64()
                .ok_or_else(|| Error::state("$.seed", "expected an integer >= 0"))?,
        };
        let mut state = m.clone();
        for k in RESERVED {
            state.remove(k);
        }
        let game = G::from_json(&Value::Object(state))?;
        let loaded_last = Self::read_last(m, &game)?;
        let start = match m.get("start") {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) => Some(text.as_str()),
            Some(_) => return Err(Error::state("$.start", "expected a position string")),
        };
        let items = match m.get("history") {
            None | Some(Value::Null) => {
                if start.is_some() {
                    return Err(Error::state("$.start", "given without a history"));
                }
                // A hand-built state: its record starts from its own position, when the
                // game has a position format to write that in.
                if game.position(None).is_err() {
                    let mut s = Session::unrecorded(game, seed);
                    s.last = loaded_last;
                    return Ok(s);
                }
                return Ok(Session {
                    start: Some(Box::new(game.clone())),
                    game,
                    seed,
                    history: Some(Vec::new()),
                    last: loaded_last.clone(),
                    start_last: loaded_last,
                });
            }
            Some(Value::Array(items)) => items,
            Some(_) => {
                return Err(Error::state(
                    "$.history",
                    "expected a list of action notations",
                ))
            }
        };
        // The history must lead from the start (the seed's setup or the start position)
        // to exactly this state: otherwise records, undo and replays would lie.
        let mut replayed: Session<G> = match start {
            None => Session::new(seed, game.options())
                .map_err(|e| Error::state("$.seed", format!("cannot set the game up: {e}")))?,
            Some(text) => Session::from_position(text, seed, game.options())
                .map_err(|e| Error::state("$.start", strip_state(e)))?,
        };
        for (i, item) in items.iter().enumerate() {
            let text = item
                .as_str()
                .ok_or_else(|| Error::state(format!("$.history[{i}]"), "expected a string"))?;
            replayed
                .play_notation(text)
                .map_err(|e| Error::state(format!("$.history[{i}]"), e.to_string()))?;
        }
        let (want, got) = (replayed.game.to_json(), game.to_json());
        if want != got {
            let from = match start {
                Some(_) => "the start position".to_string(),
                None => format!("seed {seed}"),
            };
            return Err(Error::state(
                "$.history",
                format!(
                    "{from} and these {} actions do not produce this state (it differs at {})",
                    items.len(),
                    first_difference(&want, &got, "$")
                ),
            ));
        }
        if items.is_empty() {
            replayed.start_last.clone_from(&loaded_last);
            replayed.last = loaded_last;
        } else if loaded_last.is_some() {
            let replayed_last = replayed.last.as_ref().map(|l| l.to_value(&replayed.game));
            if m.get("last_move") != replayed_last.as_ref() {
                return Err(Error::state(
                    "$.last_move",
                    "is not the last move of the history as each player saw it",
                ));
            }
        }
        Ok(replayed)
    }

    /// Parse and play one action notation.
    fn play_notation(&mut self, text: &str) -> Result<()> {
        let a = self.game.parse_action(text)?;
        self.apply(a)
    }

    pub fn record(&self) -> Result<Record> {
        let history = self.history.as_ref().ok_or_else(|| {
            Error::invalid(
                "this game carries no history (a determinized copy, or a loaded state of a \
                 game without a position format), so it has no record",
            )
        })?;
        Ok(Record {
            game: G::NAME.to_string(),
            seed: self.seed,
            options: self.options_json(),
            position: self.start_position()?,
            actions: history
                .iter()
                .map(|a| self.game.action_notation(*a))
                .collect(),
        })
    }

    pub fn replay(record: &Record) -> Result<Self> {
        let mut s = match &record.position {
            None => Self::from_options_json(record.seed, &record.options)?,
            Some(text) => Self::from_position_json(text, record.seed, &record.options)?,
        };
        for (i, text) in record.actions.iter().enumerate() {
            s.play_notation(text).map_err(|e| {
                Error::state(
                    format!("$.actions[{i}]"),
                    format!("{:?}: {e}", crate::position::clip(text)),
                )
            })?;
        }
        Ok(s)
    }
}

/// A state error's text without its "bad state at" wrapper, for nesting in another.
fn strip_state(e: Error) -> String {
    match e {
        Error::State { path, message } => format!("{path}: {message}"),
        e => e.to_string(),
    }
}

/// The path of the first place two JSON values differ (for "does not produce" errors).
fn first_difference(a: &Value, b: &Value, path: &str) -> String {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) if w == v => {}
                    Some(w) => return first_difference(v, w, &format!("{path}.{k}")),
                    None => return format!("{path}.{k}"),
                }
            }
            y.keys()
                .find(|k| !x.contains_key(*k))
                .map_or_else(|| path.to_string(), |k| format!("{path}.{k}"))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find(|(_, (v, w))| v != w)
            .map_or_else(
                || path.to_string(),
                |(i, (v, w))| first_difference(v, w, &format!("{path}[{i}]")),
            ),
        _ => path.to_string(),
    }
}

/// The object-safe face of a [`Session`]: actions travel as ids and notations.
pub trait DynGame: Send + Sync + Any {
    fn name(&self) -> &'static str;
    fn seed(&self) -> u64;
    fn clone_box(&self) -> Box<dyn DynGame>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;

    fn num_players(&self) -> usize;
    fn current_player(&self) -> Option<Player>;
    fn legal_action_ids(&self) -> Vec<usize>;
    fn apply_id(&mut self, id: usize) -> Result<()>;
    fn is_terminal(&self) -> bool;
    fn winner(&self) -> Option<Player>;
    fn returns(&self) -> Vec<f64>;

    /// The team `player` plays for ([`Game::team`]).
    fn team(&self, player: Player) -> Result<usize>;

    fn num_actions(&self) -> usize;
    /// `Ok` if `id` is in the action space (says nothing about legality).
    fn check_id(&self, id: usize) -> Result<()>;
    /// Whether the action with this id is legal now ([`Game::check`]): an out-of-range id is
    /// `Error::Invalid`, a forbidden action `Error::IllegalAction`.
    fn check_action(&self, id: usize) -> Result<()>;
    fn action_notation(&self, id: usize) -> Result<String>;
    fn parse_action(&self, text: &str) -> Result<usize>;
    fn action_json(&self, id: usize) -> Result<Value>;
    /// What seat `player` sees of the action with this id played now ([`Game::action_seen`]).
    fn action_seen(&self, player: Player, id: usize) -> Result<String>;

    fn options_json(&self) -> Map<String, Value>;
    fn to_json(&self) -> Value;
    fn view(&self, player: Player) -> Result<Value>;
    fn resample_hidden(&self, player: Player, seed: u64) -> Result<Box<dyn DynGame>>;
    fn observation_shape(&self) -> Vec<usize>;
    fn observation(&self, player: Player, out: &mut [f32]) -> Result<()>;
    /// [`Game::observation_bounds`]: the bounds of each element of the observation.
    fn observation_bounds(&self) -> Option<crate::game::ObservationBounds>;
    fn render(&self, player: Option<Player>) -> Result<String>;
    fn evaluate(&self, player: Player) -> Result<f64>;
    fn record(&self) -> Result<Record>;
    fn history_len(&self) -> Option<usize>;
    /// Drop the history (and the start it leads from), as a determinized copy has none: a
    /// pickled copy is rebuilt from its state with this, so it equals the original.
    fn forget_history(&mut self);
    /// The ids of the actions played (the history), if the game carries one.
    fn history_ids(&self) -> Option<Vec<usize>>;
    /// The compact position string ([`Game::position`]): everything, or `player`'s view.
    fn position(&self, player: Option<Player>) -> Result<String>;
    /// Back to the state after the first `ply` actions, exactly ([`Session::undo_to`]).
    fn undo_to(&mut self, ply: usize) -> Result<()>;
}

fn check_player(n: usize, player: Player) -> Result<()> {
    if player < n {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "player {player} out of range: this game has {n} players"
        )))
    }
}

impl<G: Game> DynGame for Session<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn seed(&self) -> u64 {
        self.seed
    }
    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn current_player(&self) -> Option<Player> {
        self.game.current_player()
    }
    fn legal_action_ids(&self) -> Vec<usize> {
        let mut buf = Vec::new();
        self.game.legal_actions(&mut buf);
        buf.into_iter().map(|a| self.game.action_id(a)).collect()
    }
    fn apply_id(&mut self, id: usize) -> Result<()> {
        let a = self
            .game
            .action_from_id(id)
            .ok_or_else(|| self.bad_id(id))?;
        self.apply(a)
    }
    fn is_terminal(&self) -> bool {
        self.game.is_terminal()
    }
    fn winner(&self) -> Option<Player> {
        self.game.winner()
    }
    fn returns(&self) -> Vec<f64> {
        self.game.returns()
    }
    fn team(&self, player: Player) -> Result<usize> {
        check_player(self.num_players(), player)?;
        Ok(self.game.team(player))
    }
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }
    fn check_action(&self, id: usize) -> Result<()> {
        let a = self
            .game
            .action_from_id(id)
            .ok_or_else(|| self.bad_id(id))?;
        self.game.check(a)
    }
    fn check_id(&self, id: usize) -> Result<()> {
        self.game
            .action_from_id(id)
            .map(|_| ())
            .ok_or_else(|| self.bad_id(id))
    }
    fn action_notation(&self, id: usize) -> Result<String> {
        let a = self
            .game
            .action_from_id(id)
            .ok_or_else(|| self.bad_id(id))?;
        Ok(self.game.action_notation(a))
    }
    fn parse_action(&self, text: &str) -> Result<usize> {
        Ok(self.game.action_id(self.game.parse_action(text)?))
    }
    fn action_json(&self, id: usize) -> Result<Value> {
        let a = self
            .game
            .action_from_id(id)
            .ok_or_else(|| self.bad_id(id))?;
        Ok(self.game.action_json(a))
    }
    fn action_seen(&self, player: Player, id: usize) -> Result<String> {
        check_player(self.num_players(), player)?;
        let a = self
            .game
            .action_from_id(id)
            .ok_or_else(|| self.bad_id(id))?;
        Ok(self.game.action_seen(player, a))
    }
    fn options_json(&self) -> Map<String, Value> {
        Session::options_json(self)
    }
    fn to_json(&self) -> Value {
        Session::to_json(self)
    }
    fn view(&self, player: Player) -> Result<Value> {
        check_player(self.num_players(), player)?;
        let mut v = self.game.view(player);
        if let Value::Object(m) = &mut v {
            m.insert("game".into(), Value::from(G::NAME));
            if let Some(text) = self.last_seen(player) {
                m.insert("last_move".into(), Value::from(text));
            }
        }
        Ok(v)
    }
    fn resample_hidden(&self, player: Player, seed: u64) -> Result<Box<dyn DynGame>> {
        check_player(self.num_players(), player)?;
        // The history would reveal the true hidden cards (e.g. which card was drawn), so a
        // determinized state carries none.
        let mut copy = Session::unrecorded(self.game.resample_hidden(player, seed), seed);
        copy.last = self.last.as_ref().map(|l| l.for_copy(&self.game, player));
        Ok(Box::new(copy))
    }
    fn observation_shape(&self) -> Vec<usize> {
        self.game.observation_shape()
    }
    fn observation_bounds(&self) -> Option<crate::game::ObservationBounds> {
        self.game.observation_bounds()
    }
    fn observation(&self, player: Player, out: &mut [f32]) -> Result<()> {
        check_player(self.num_players(), player)?;
        let len: usize = self.game.observation_shape().iter().product();
        if out.len() != len {
            return Err(Error::invalid(format!(
                "observation buffer has {} floats, need {len}",
                out.len()
            )));
        }
        out.fill(0.0);
        self.game.observation(player, out);
        Ok(())
    }
    fn render(&self, player: Option<Player>) -> Result<String> {
        if let Some(p) = player {
            check_player(self.num_players(), p)?;
        }
        Ok(self.game.render(player))
    }
    fn evaluate(&self, player: Player) -> Result<f64> {
        check_player(self.num_players(), player)?;
        Ok(self.game.evaluate(player))
    }
    fn record(&self) -> Result<Record> {
        Session::record(self)
    }
    fn history_len(&self) -> Option<usize> {
        self.history.as_ref().map(Vec::len)
    }
    fn forget_history(&mut self) {
        self.history = None;
        self.start = None;
        self.start_last = None;
    }
    fn history_ids(&self) -> Option<Vec<usize>> {
        self.history
            .as_ref()
            .map(|h| h.iter().map(|a| self.game.action_id(*a)).collect())
    }
    fn position(&self, player: Option<Player>) -> Result<String> {
        let Some(p) = player else {
            // The whole state, as the rules need it: how it came to be (the history, its
            // last move) goes beside it, as in a record.
            return self.game.position(None);
        };
        check_player(self.num_players(), p)?;
        let text = self.game.position(Some(p))?;
        // A game loaded from it shows `p` the same view, last move included.
        Ok(match self.last_seen(p) {
            Some(seen) => format!("{text}{LAST_MOVE}{seen}"),
            None => text,
        })
    }
    fn undo_to(&mut self, ply: usize) -> Result<()> {
        Session::undo_to(self, ply)
    }
}

impl<G: Game> Session<G> {
    fn bad_id(&self, id: usize) -> Error {
        Error::invalid(format!(
            "action id {id} out of range 0..{}",
            self.game.num_actions()
        ))
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)] // tests index what they built
mod tests {
    use super::*;
    use crate::battleline::{BattleLine, Options};
    use crate::rng::GameRng;
    use serde_json::json;

    /// A Battle Line session after `plies` random actions, with its JSON at every ply.
    fn played(seed: u64, plies: usize) -> (Session<BattleLine>, Vec<Value>) {
        let mut s = Session::<BattleLine>::new(seed, &Options::default()).unwrap();
        let mut rng = GameRng::seed(seed);
        let mut states = vec![s.to_json()];
        let mut buf = Vec::new();
        for _ in 0..plies {
            if s.game.is_terminal() {
                break;
            }
            s.game.legal_actions(&mut buf);
            let a = *rng.choose(&buf).unwrap();
            s.apply(a).unwrap();
            states.push(s.to_json());
        }
        (s, states)
    }

    #[test]
    fn undo_to_any_ply_is_exact_and_a_bad_ply_changes_nothing() {
        let (s, states) = played(3, 60);
        for (k, want) in states.iter().enumerate() {
            let mut t = s.clone();
            t.undo_to(k).unwrap();
            assert_eq!(&t.to_json(), want, "ply {k}");
        }
        let mut t = s.clone();
        let err = t.undo_to(states.len()).unwrap_err().to_string();
        assert!(err.contains("cannot go back"), "{err}");
        assert_eq!(t.to_json(), s.to_json());
    }

    #[test]
    fn a_history_that_does_not_produce_the_state_is_refused() {
        let (s, _) = played(5, 30);
        let mut v = s.to_json();
        assert!(Session::<BattleLine>::from_json(&v).is_ok());
        if let Value::Object(m) = &mut v {
            if let Some(Value::Array(h)) = m.get_mut("history") {
                h.pop();
            }
        }
        let err = Session::<BattleLine>::from_json(&v).unwrap_err();
        assert!(
            matches!(&err, Error::State { path, message } if path == "$.history" && message.contains("do not produce")),
            "{err}"
        );
    }

    #[test]
    fn a_game_from_a_position_records_it_and_replays() {
        let (s, _) = played(7, 25);
        let text = s.game.position(None).unwrap();
        let mut from = Session::<BattleLine>::from_position(&text, 0, &Options::default()).unwrap();
        let mut buf = Vec::new();
        from.game.legal_actions(&mut buf);
        from.apply(*buf.first().unwrap()).unwrap();
        let rec = from.record().unwrap();
        assert_eq!(rec.position.as_deref(), Some(text.as_str()));
        let back = Session::<BattleLine>::replay(&rec).unwrap();
        assert_eq!(back.to_json(), from.to_json());
        let again = Session::<BattleLine>::from_json(&from.to_json()).unwrap();
        assert_eq!(again.record().unwrap(), rec);
        let mut bad = rec.clone();
        bad.actions.push("Z9@9".into());
        let err = Session::<BattleLine>::replay(&bad).unwrap_err().to_string();
        assert!(err.contains("$.actions[1]"), "{err}");
    }

    #[test]
    fn a_view_names_the_last_move_as_its_seat_saw_it_and_copies_keep_it() {
        let (s, _) = played(9, 40);
        let last = *s.history.as_ref().unwrap().last().unwrap();
        for p in 0..2 {
            let view = DynGame::view(&s, p).unwrap();
            let text = view["last_move"].as_str().unwrap().to_string();
            let before = {
                let mut t = s.clone();
                t.undo_to(39).unwrap();
                t.game
            };
            assert_eq!(text, before.action_seen(p, last));
            for seed in 0..3 {
                let copy = s.resample_hidden(p, seed).unwrap();
                assert_eq!(copy.view(p).unwrap(), view, "seed {seed}");
                // The other seat of the copy reads the public part, and a pickle keeps it.
                let public = before.action_public(last);
                assert_eq!(copy.view(1 - p).unwrap()["last_move"], Value::from(public));
                let mut back = Session::<BattleLine>::from_json(&copy.to_json()).unwrap();
                back.forget_history();
                assert_eq!(back.view(p).unwrap(), view);
            }
        }
        let mut t = s.clone();
        t.undo_to(0).unwrap();
        assert!(DynGame::view(&t, 0).unwrap().get("last_move").is_none());
        // A player's position carries it; a game loaded from it shows the same view.
        for p in 0..2 {
            let text = DynGame::position(&s, Some(p)).unwrap();
            let loaded =
                Session::<BattleLine>::from_position(&text, 3, &Options::default()).unwrap();
            assert_eq!(loaded.view(p).unwrap(), DynGame::view(&s, p).unwrap());
            assert_eq!(DynGame::position(&loaded, Some(p)).unwrap(), text);
        }
        let whole = DynGame::position(&s, None).unwrap();
        assert!(
            !whole.contains(LAST_MOVE),
            "the whole position is the rules' state"
        );
        let bad = format!("{} | ", s.game.position(Some(0)).unwrap());
        let err = Session::<BattleLine>::from_position(&bad, 3, &Options::default()).unwrap_err();
        assert!(err.to_string().contains("last move"), "{err}");
    }

    #[test]
    fn a_saved_last_move_is_checked_against_the_history() {
        let (s, _) = played(4, 10);
        let mut v = s.to_json();
        assert!(
            Session::<BattleLine>::from_json(&v).is_ok(),
            "the history's own last move"
        );
        v["last_move"] = serde_json::json!({"seen": ["a", "b"], "public": "c"});
        let err = Session::<BattleLine>::from_json(&v)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("$.last_move") && err.contains("history"),
            "{err}"
        );
        v["history"] = Value::Null;
        let loaded = Session::<BattleLine>::from_json(&v).unwrap();
        assert_eq!(DynGame::view(&loaded, 1).unwrap()["last_move"], "b");
        assert_eq!(loaded.to_json()["last_move"], v["last_move"]);
        let copy = loaded.resample_hidden(1, 0).unwrap();
        assert_eq!(copy.view(0).unwrap()["last_move"], "c");
        for bad in [
            json!(["a", "b"]),
            json!({"seen": ["a"], "public": "c"}),
            json!({"seen": ["a", "b"]}),
        ] {
            v["last_move"] = bad;
            let err = Session::<BattleLine>::from_json(&v)
                .unwrap_err()
                .to_string();
            assert!(err.contains("a text per player"), "{err}");
        }
    }
}
