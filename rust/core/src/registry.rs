//! The games by name, for everything that is chosen at run time (Python, the CLI).

use crate::error::{Error, Result};
use crate::session::{DynGame, Record, Session};
use serde_json::{Map, Value};

/// Run `$body` with the type alias `$G` bound to the game called `$name`; evaluates to
/// `Result<_>` (an unknown name is `Error::Invalid`). New games are added here, once.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {{
        #[allow(unreachable_code, unused_macros)]
        match $name {
            // GAMES: one arm per game (keep in step with `GAMES`).
            "arte" => {
                type $G = $crate::arte::Arte;
                Ok($body)
            }
            "battleline" => {
                type $G = $crate::battleline::BattleLine;
                Ok($body)
            }
            "strifull" => {
                type $G = $crate::strifull::Strifull;
                Ok($body)
            }
            other => Err($crate::Error::invalid(format!(
                "unknown game {other:?}; the games are {:?}",
                $crate::registry::GAMES
            ))),
        }
    }};
}

/// The registry names, in the order `kingdoms.games()` lists them.
pub const GAMES: &[&str] = &["battleline", "strifull", "arte"];

pub fn new_game(name: &str, seed: u64, options: &Map<String, Value>) -> Result<Box<dyn DynGame>> {
    with_game!(name, G => Box::new(Session::<G>::from_options_json(seed, options)?) as Box<dyn DynGame>)
}

pub fn from_json(value: &Value) -> Result<Box<dyn DynGame>> {
    let name = value
        .get("game")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::state("$.game", "missing: the game's name"))?;
    with_game!(name, G => Box::new(Session::<G>::from_json(value)?) as Box<dyn DynGame>)
}

pub fn replay(record: &Record) -> Result<Box<dyn DynGame>> {
    with_game!(record.game.as_str(), G => Box::new(Session::<G>::replay(record)?) as Box<dyn DynGame>)
}

/// [`crate::simulate::simulate`] for the game called `name`, options given as JSON.
pub fn simulate(
    name: &str,
    options: &Map<String, Value>,
    games: u64,
    seed: u64,
    first: u64,
    threads: Option<usize>,
) -> Result<crate::simulate::SimStats> {
    with_game!(name, G => {
        let opts: <G as crate::Game>::Options = serde_json::from_value(Value::Object(options.clone()))
            .map_err(|e| Error::options(format!("{name}: {e}")))?;
        crate::simulate::simulate::<G>(&opts, games, seed, first, threads)?
    })
}
