//! The games by name, for everything that is chosen at run time (Python, the CLI).
#![deny(clippy::indexing_slicing)]

use crate::error::{Error, Result};
use crate::session::{DynGame, Record, Session};
use serde_json::{Map, Value};

/// THE list of games: the registry (`GAMES`, [`with_game!`](crate::with_game!)) and the
/// Python classes, their dispatch and their registration (`rust/py/src/classes.rs`) are all
/// generated from it, so a new game is its folder plus one line here. Each line:
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
                 \"blocks\"), max_rounds, roster_toml, maps_toml, modes_toml, terrain_toml and the \
                 second readings of the rules (docs/zinordia.md, docs/rules/zinordia.md).";
        }
    };
}

/// Run `$body` with the type alias `$G` bound to the game called `$name`; evaluates to
/// `Result<_>` (an unknown name is [`unknown_game`]'s error). Generated from [`for_each_game!`].
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
            Err($crate::registry::unknown_game(name))
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

/// A game name that is not registered, as an argument: `Error::Argument` for `game`,
/// quoting the name (clipped) and listing the games (Python: `ArgumentError`).
pub fn unknown_game(name: &str) -> Error {
    Error::Argument {
        name: "game".into(),
        message: unknown_game_message(name),
    }
}

/// `"chess" is an unknown game; the games are battleline, strifull, arte, zinordia`.
pub fn unknown_game_message(name: &str) -> String {
    format!(
        "{:?} is an unknown game; the games are {}",
        crate::error::clip(name),
        GAMES.join(", ")
    )
}

/// The game name at `path` of a saved state or record: unknown is a `State` error there.
fn known_name<'a>(name: &'a str, path: &str) -> Result<&'a str> {
    if GAMES.contains(&name) {
        Ok(name)
    } else {
        Err(Error::state(path, unknown_game_message(name)))
    }
}

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
    let name = known_name(name, "$.game")?;
    with_game!(name, G => Box::new(Session::<G>::from_json(value)?) as Box<dyn DynGame>)
}

pub fn replay(record: &Record) -> Result<Box<dyn DynGame>> {
    // Untrusted data never makes the library open a path (issue 11): a game made from a
    // `cards_file` carries its card set as `cards_toml` in its records.
    if record
        .options
        .get("cards_file")
        .is_some_and(|v| !v.is_null())
    {
        return Err(Error::state(
            "$.options.cards_file",
            "a record carries its card set as cards_toml and never names a file to read",
        ));
    }
    let name = known_name(&record.game, "$.game")?;
    with_game!(name, G => Box::new(Session::<G>::replay(record)?) as Box<dyn DynGame>)
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
        let opts = crate::error::decode_options::<<G as crate::Game>::Options>(name, options)?;
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
        assert!(matches!(&err, crate::Error::Argument { name, .. } if name == "game"));
        assert_eq!(
            err.to_string(),
            "game \"chess\" is an unknown game; the games are battleline, strifull, arte, zinordia"
        );
        let long = "x".repeat(10_000);
        let err = crate::with_game!(&long, G => <G as Game>::NAME).unwrap_err();
        assert!(err.to_string().len() < 150, "{err}");
    }

    #[test]
    fn a_saved_state_or_record_of_an_unknown_game_is_a_state_error_at_its_name() {
        let state = serde_json::json!({"game": "chess", "seed": 1});
        let err = super::from_json(&state).err().unwrap();
        assert!(
            matches!(&err, crate::Error::State { path, message }
                if path == "$.game" && message.contains("\"chess\" is an unknown game; the games are battleline")),
            "{err}"
        );
        let record = crate::Record {
            game: "chess".into(),
            seed: 1,
            options: serde_json::Map::new(),
            position: None,
            actions: vec![],
        };
        let err = super::replay(&record).err().unwrap();
        assert!(
            matches!(&err, crate::Error::State { path, .. } if path == "$.game"),
            "{err}"
        );
    }
}
