//! The games by name, for everything that is chosen at run time (Python, the CLI).
#![deny(clippy::indexing_slicing)]

use crate::error::{Error, Result};
use crate::session::{DynGame, Record, Session};
use serde_json::{Map, Value};

/// THE list of games: the registry (`GAMES`, [`with_game!`]) and the Python classes, their
/// dispatch and their registration (`rust/py/src/classes.rs`) are all generated from it, so a
/// new game is its folder plus one line here. Each line:
/// `module::Type, PyClass, "ClassName", "python.module", "class docstring";` — the core
/// module and type implementing [`Game`](crate::Game) (the registry name is `Type::NAME`),
/// then the Python class: its Rust struct, name, module and docstring.
///
/// `for_each_game!(callback!(args))` expands to `callback! { (args) <the lines> }`.
#[macro_export]
macro_rules! for_each_game {
    ($($callback:ident)::+ ! ($($args:tt)*)) => {
        $($callback)::+! { ($($args)*)
            battleline::BattleLine, PyBattleLine, "BattleLine", "kingdoms.battleline",
                "Battle Line: 9 flags, 60 troops, 10 tactics cards, exact claim proofs.\n\n\
                 `BattleLine(seed=None, *, traitor_troops_only=False, claim_at_turn_start=False, \
                 first_player=0)`. Rules: docs/rules/battle-line.md; state format, notation and \
                 observation layout: docs/battleline.md.";
            strifull::Strifull, PyStrifull, "Strifull", "kingdoms.strifull",
                "Strained Kingdoms: STRIFULL. `Strifull(seed=None, **rules_options)`; options: \
                 factions, leaders, decks, cards_file, cards_toml, tie_is_defeat, \
                 dead_cells_open_flanks, moves_in_leader_row_only, mutual_wipeout \
                 (docs/rules/strifull.md).";
            arte::Arte, PyArte, "Arte", "kingdoms.arte",
                "Arte da Guerra: draft terrain and unit cards (one of every three hidden), build \
                 a field of three terrain rows, then three rounds of deployment and combat. Rules \
                 options: `cards_file` / `cards_toml` (a card set), `deployment` \
                 (\"simultaneous\" | \"alternating\"), `ranged_scoring` \
                 (\"exception\" | \"ranged_defender\"), `sudden_death_row` \
                 (\"chosen\" | \"front\"); see docs/rules/arte-da-guerra.md.";
            zinordia::Zinordia, PyZinordia, "Zinordia", "kingdoms.zinordia",
                "Zinordia: hex tactics, Stars with data-defined abilities, duel, free-for-all \
                 and 2 v 2. `Zinordia(seed=None, **rules_options)`; options: mode, players, \
                 map, selection (\"secret\" | \"draft\"), placement (\"alternate\" | \
                 \"blocks\"), max_rounds, roster_toml, maps_toml, modes_toml (docs/zinordia.md, \
                 docs/rules/zinordia.md).";
        }
    };
}

/// Run `$body` with the type alias `$G` bound to the game called `$name`; evaluates to
/// `Result<_>` (an unknown name is `Error::Invalid`). Generated from [`for_each_game!`].
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {
        $crate::for_each_game!($crate::__with_game_dispatch!($name, $G => $body))
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_dispatch {
    (($name:expr, $G:ident => $body:expr)
     $($module:ident :: $ty:ident, $py:ident, $class:literal, $pymodule:literal, $doc:literal;)*) => {{
        let name: &str = $name;
        #[allow(unreachable_code, unused_macros)]
        $(if name == <$crate::$module::$ty as $crate::Game>::NAME {
            type $G = $crate::$module::$ty;
            Ok($body)
        } else)* {
            Err($crate::Error::invalid(format!(
                "unknown game {name:?}; the games are {:?}",
                $crate::registry::GAMES
            )))
        }
    }};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __game_names {
    (() $($module:ident :: $ty:ident, $py:ident, $class:literal, $pymodule:literal, $doc:literal;)*) => {
        &[$(<$crate::$module::$ty as $crate::Game>::NAME),*]
    };
}

/// The registry names, in the order `kingdoms.games()` lists them (that of
/// [`for_each_game!`]).
pub const GAMES: &[&str] = crate::for_each_game!(crate::__game_names!());

pub fn new_game(name: &str, seed: u64, options: &Map<String, Value>) -> Result<Box<dyn DynGame>> {
    with_game!(name, G => Box::new(Session::<G>::from_options_json(seed, options)?) as Box<dyn DynGame>)
}

/// The game called `name` set up from a position string ([`crate::Game::from_position`]).
pub fn from_position(
    name: &str,
    text: &str,
    seed: u64,
    options: &Map<String, Value>,
) -> Result<Box<dyn DynGame>> {
    with_game!(name, G => Box::new(Session::<G>::from_position_json(text, seed, options)?) as Box<dyn DynGame>)
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

#[cfg(test)]
mod tests {
    use super::GAMES;
    use crate::Game;

    #[test]
    fn every_listed_game_dispatches_to_itself() {
        for (i, name) in GAMES.iter().enumerate() {
            assert!(
                !GAMES.iter().take(i).any(|g| g == name),
                "{name} listed twice"
            );
            let found = crate::with_game!(*name, G => <G as Game>::NAME).unwrap();
            assert_eq!(found, *name);
        }
        assert_eq!(GAMES, ["battleline", "strifull", "arte", "zinordia"]);
    }

    #[test]
    fn an_unknown_name_is_an_error_naming_the_games() {
        let err = crate::with_game!("chess", G => <G as Game>::NAME).unwrap_err();
        assert!(err.to_string().contains("unknown game \"chess\""), "{err}");
        assert!(err.to_string().contains("battleline"), "{err}");
    }
}
