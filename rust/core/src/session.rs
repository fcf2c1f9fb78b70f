//! A game together with how it came to be: its seed and the actions played. This is the
//! unit the Python bindings and the records work with, behind the object-safe [`DynGame`]
//! so one binding class serves every game.
#![deny(clippy::indexing_slicing)]

use crate::error::{Error, Result};
use crate::game::{Game, Player};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::any::Any;

/// Everything needed to replay a game exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub game: String,
    pub seed: u64,
    #[serde(default)]
    pub options: Map<String, Value>,
    pub actions: Vec<String>,
}

/// A game plus its seed and history. `history` is `None` for a state loaded from a dict
/// that had no history (a hand-built position): such a state has no record.
#[derive(Clone, Debug)]
pub struct Session<G: Game> {
    pub game: G,
    pub seed: u64,
    pub history: Option<Vec<G::Action>>,
}

const RESERVED: [&str; 3] = ["game", "seed", "history"];

impl<G: Game> Session<G> {
    pub fn new(seed: u64, options: &G::Options) -> Result<Self> {
        Ok(Session {
            game: G::new(seed, options)?,
            seed,
            history: Some(Vec::new()),
        })
    }

    pub fn from_options_json(seed: u64, options: &Map<String, Value>) -> Result<Self> {
        let options: G::Options = serde_json::from_value(Value::Object(options.clone()))
            .map_err(|e| Error::options(format!("{}: {e}", G::NAME)))?;
        Self::new(seed, &options)
    }

    pub fn apply(&mut self, action: G::Action) -> Result<()> {
        self.game.apply(action)?;
        if let Some(h) = &mut self.history {
            h.push(action);
        }
        Ok(())
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
            m.insert(
                "history".into(),
                match &self.history {
                    Some(h) => h
                        .iter()
                        .map(|a| Value::from(self.game.action_notation(*a)))
                        .collect(),
                    None => Value::Null,
                },
            );
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
        let history = match m.get("history") {
            None | Some(Value::Null) => None,
            Some(Value::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let text = item.as_str().ok_or_else(|| {
                        Error::state(format!("$.history[{i}]"), "expected a string")
                    })?;
                    let a = game
                        .parse_action(text)
                        .map_err(|e| Error::state(format!("$.history[{i}]"), e.to_string()))?;
                    out.push(a);
                }
                Some(out)
            }
            Some(_) => {
                return Err(Error::state(
                    "$.history",
                    "expected a list of action notations",
                ))
            }
        };
        Ok(Session {
            game,
            seed,
            history,
        })
    }

    pub fn record(&self) -> Result<Record> {
        let history = self.history.as_ref().ok_or_else(|| {
            Error::invalid("this state was loaded without a history, so it has no record")
        })?;
        Ok(Record {
            game: G::NAME.to_string(),
            seed: self.seed,
            options: self.options_json(),
            actions: history
                .iter()
                .map(|a| self.game.action_notation(*a))
                .collect(),
        })
    }

    pub fn replay(record: &Record) -> Result<Self> {
        let mut s = Self::from_options_json(record.seed, &record.options)?;
        for (i, text) in record.actions.iter().enumerate() {
            let a = s.game.parse_action(text)?;
            s.apply(a)
                .map_err(|e| Error::invalid(format!("record action {i} ({text}): {e}")))?;
        }
        Ok(s)
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
    fn render(&self, player: Option<Player>) -> Result<String>;
    fn evaluate(&self, player: Player) -> Result<f64>;
    fn record(&self) -> Result<Record>;
    fn history_len(&self) -> Option<usize>;
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
        Ok(Box::new(Session {
            game: self.game.resample_hidden(player, seed),
            seed,
            history: None,
        }))
    }
    fn observation_shape(&self) -> Vec<usize> {
        self.game.observation_shape()
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
}

impl<G: Game> Session<G> {
    fn bad_id(&self, id: usize) -> Error {
        Error::invalid(format!(
            "action id {id} out of range 0..{}",
            self.game.num_actions()
        ))
    }
}
