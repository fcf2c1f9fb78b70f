//! What the conformance suite and the golden playthroughs share: the option sets each game
//! is exercised with, and a seeded random playout.
//!
//! Every game in `registry::GAMES` is covered with its default options; a game listed in
//! [`option_sets`] is covered with those extra sets too.

#![allow(dead_code)] // each test binary uses part of it

use kingdoms_core::{Error, Game, GameRng};
use serde_json::{json, Map, Value};

/// Named option sets for the game called `name`: always `default` (`{}`) first, then sets
/// that turn every documented rules option away from its default.
pub fn option_sets(name: &str) -> Vec<(&'static str, Map<String, Value>)> {
    let extra = match name {
        "battleline" => vec![(
            "variants",
            json!({"traitor_troops_only": true, "claim_at_turn_start": true, "first_player": 1}),
        )],
        "strifull" => vec![(
            "variants",
            json!({
                "factions": ["magos", "inquisicao"],
                "leaders": ["lyra", null],
                "decks": ["random", "recommended"],
                "tie_is_defeat": false,
                "dead_cells_open_flanks": false,
                "moves_in_leader_row_only": true,
                "mutual_wipeout": "attacker_wins",
            }),
        )],
        "arte" => vec![(
            "variants",
            json!({
                "draft_order": "restart",
                "deployment": "alternating",
                "ranged_scoring": "ranged_defender",
                "sudden_death_row": "front",
            }),
        )],
        "zinordia" => vec![
            ("ffa3", json!({"mode": "free_for_all", "players": 3})),
            (
                "ffa4",
                json!({"mode": "free_for_all", "players": 4, "selection": "draft"}),
            ),
            ("teams", json!({"mode": "teams", "placement": "blocks"})),
        ],
        _ => vec![],
    };
    let mut out = vec![("default", Map::new())];
    for (label, v) in extra {
        if let Value::Object(m) = v {
            out.push((label, m));
        }
    }
    out
}

/// The options value for `G` from a JSON map (as `kingdoms.new_game` keywords).
pub fn options<G: Game>(map: &Map<String, Value>) -> G::Options {
    match serde_json::from_value(Value::Object(map.clone())) {
        Ok(o) => o,
        Err(e) => panic!("{}: bad option set {map:?}: {e}", G::NAME),
    }
}

/// A game's legal actions, as a fresh vector.
pub fn legal<G: Game>(g: &G) -> Vec<G::Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// A whole game from `seed`, each action chosen uniformly among the legal ones by a
/// `GameRng` seeded with `seed`. Returns every state (the first is the new game, the last
/// the terminal one) and the actions between them. Stops after `max_plies`.
pub fn random_playout<G: Game>(
    opts: &G::Options,
    seed: u64,
    max_plies: usize,
) -> (Vec<G>, Vec<G::Action>) {
    let mut g = match G::new(seed, opts) {
        Ok(g) => g,
        Err(e) => panic!("{}: new game (seed {seed}): {e}", G::NAME),
    };
    let mut rng = GameRng::seed(seed);
    let mut states = vec![g.clone()];
    let mut actions = Vec::new();
    while !g.is_terminal() && actions.len() < max_plies {
        let moves = legal(&g);
        let Some(&a) = rng.choose(&moves) else {
            panic!("{}: no legal action in a running game", G::NAME)
        };
        if let Err(e) = g.apply(a) {
            panic!("{}: legal action {a:?} refused: {e}", G::NAME)
        }
        actions.push(a);
        states.push(g.clone());
    }
    (states, actions)
}

/// An error's kind and text, for comparing refusals.
pub fn describe(e: &Error) -> String {
    format!("{e:?}")
}
