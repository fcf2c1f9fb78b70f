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
}

const RESERVED: [&str; 4] = ["game", "seed", "history", "start"];

impl<G: Game> Session<G> {
    pub fn new(seed: u64, options: &G::Options) -> Result<Self> {
        Ok(Session {
            game: G::new(seed, options)?,
            seed,
            start: None,
            history: Some(Vec::new()),
        })
    }

    /// A game without a history of its own (a determinized copy): no record, no undo.
    pub fn unrecorded(game: G, seed: u64) -> Self {
        Session {
            game,
            seed,
            start: None,
            history: None,
        }
    }

    /// A game set up from a position string ([`Game::from_position`]); its record starts there.
    pub fn from_position(text: &str, seed: u64, options: &G::Options) -> Result<Self> {
        let game = G::from_position(text, options, seed)?;
        Ok(Session {
            start: Some(Box::new(game.clone())),
            game,
            seed,
            history: Some(Vec::new()),
        })
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
        for &a in history.iter().take(ply) {
            g.apply(a)?;
        }
        self.game = g;
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
            m.insert("history".into(), history);
        }
        v
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
                    return Ok(Session::unrecorded(game, seed));
                }
                return Ok(Session {
                    start: Some(Box::new(game.clone())),
                    game,
                    seed,
                    history: Some(Vec::new()),
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
        }
        Ok(v)
    }
    fn resample_hidden(&self, player: Player, seed: u64) -> Result<Box<dyn DynGame>> {
        check_player(self.num_players(), player)?;
        // The history would reveal the true hidden cards (e.g. which card was drawn), so a
        // determinized state carries none.
        Ok(Box::new(Session::unrecorded(
            self.game.resample_hidden(player, seed),
            seed,
        )))
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
    }
    fn history_ids(&self) -> Option<Vec<usize>> {
        self.history
            .as_ref()
            .map(|h| h.iter().map(|a| self.game.action_id(*a)).collect())
    }
    fn position(&self, player: Option<Player>) -> Result<String> {
        if let Some(p) = player {
            check_player(self.num_players(), p)?;
        }
        self.game.position(player)
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
mod tests {
    use super::*;
    use crate::battleline::{BattleLine, Options};
    use crate::rng::GameRng;

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
}
