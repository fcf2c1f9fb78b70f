//! Golden playthroughs, in the manner of OpenSpiel's integration playthroughs: for each
//! registered game and option set (see `common::option_sets`), one seeded random game is
//! written out ply by ply — the state (`to_json`), each player's view and observation, the
//! legal actions (id and notation), the text pictures, the heuristic values and the action
//! taken — to `tests/golden/<game>-<options>.txt`, and this test compares the engine's
//! output with those files line by line, failing on the first line that differs.
//!
//! After an intended change of behaviour, regenerate them and review the diff:
//! `KINGDOMS_BLESS=1 cargo test -p kingdoms-core --test golden`.
//! A new game gets its file by registering (write it once with `KINGDOMS_BLESS=1`).

mod common;

use common::{legal, option_sets, options, random_playout};
use kingdoms_core::registry::GAMES;
use kingdoms_core::{with_game, Game};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The seed of each file's game (also the seed of the random action choices).
const SEED: u64 = 1;
/// Longest playthrough written (keeps each file well under 2 MB).
const MAX_PLIES: usize = 120;

fn json_line(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| panic!("JSON value prints: {e}"))
}

/// `cur` exactly, as the change from `prev`: in full when there is no `prev` (or either is
/// not an object), else `{"changed": {top-level keys whose value changed}, "removed": [...]}`
/// so that static parts (card lists) are written once per file.
fn delta_line(prev: Option<&Value>, cur: &Value) -> String {
    let (Some(Value::Object(old)), Value::Object(new)) = (prev, cur) else {
        return format!("= {}", json_line(cur));
    };
    let changed: serde_json::Map<String, Value> = new
        .iter()
        .filter(|(k, v)| old.get(*k) != Some(*v))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let removed: Vec<Value> = old
        .keys()
        .filter(|k| !new.contains_key(*k))
        .map(|k| Value::from(k.as_str()))
        .collect();
    let mut m = serde_json::Map::new();
    m.insert("changed".into(), Value::Object(changed));
    if !removed.is_empty() {
        m.insert("removed".into(), Value::Array(removed));
    }
    format!("~ {}", json_line(&Value::Object(m)))
}

/// An observation tensor exactly and compactly: its nonzero entries as `index:value`
/// (`f32` printed in Rust's shortest round-tripping form).
fn observation_line(obs: &[f32]) -> String {
    let mut s = format!("len={}", obs.len());
    for (i, x) in obs.iter().enumerate() {
        if *x != 0.0 {
            let _ = write!(s, " {i}:{x}");
        }
    }
    s
}

/// The playthrough text for game `G` with these options.
fn playthrough<G: Game>(label: &str, opts_json: &serde_json::Map<String, Value>) -> String {
    let opts = options::<G>(opts_json);
    let (states, actions) = random_playout::<G>(&opts, SEED, MAX_PLIES);
    let mut out = String::new();
    let _ = writeln!(out, "# Golden playthrough of {} ({label}).", G::NAME);
    let _ = writeln!(
        out,
        "# Regenerate: KINGDOMS_BLESS=1 cargo test -p kingdoms-core --test golden"
    );
    let _ = writeln!(out, "game {}", G::NAME);
    let _ = writeln!(
        out,
        "options {}",
        json_line(&Value::Object(opts_json.clone()))
    );
    let _ = writeln!(out, "seed {SEED}");
    let first = &states[0];
    let _ = writeln!(out, "num_players {}", first.num_players());
    let _ = writeln!(out, "num_actions {}", first.num_actions());
    let _ = writeln!(out, "observation_shape {:?}", first.observation_shape());
    let _ = writeln!(
        out,
        "# `state = {{..}}` is the whole state; `state ~ {{\"changed\": ..}}` the top-level keys \
         that changed since the previous ply (views likewise, per player)."
    );
    let mut prev_state: Option<Value> = None;
    let mut prev_views: Vec<Option<Value>> = vec![None; first.num_players()];
    for (ply, g) in states.iter().enumerate() {
        let _ = writeln!(out);
        let _ = writeln!(out, "ply {ply}");
        let _ = writeln!(out, "current_player {:?}", g.current_player());
        let state = g.to_json();
        let _ = writeln!(out, "state {}", delta_line(prev_state.as_ref(), &state));
        prev_state = Some(state);
        let _ = writeln!(out, "render {}", json_line(&Value::from(g.render(None))));
        let len: usize = g.observation_shape().iter().product();
        for (p, prev_view) in prev_views.iter_mut().enumerate() {
            let view = g.view(p);
            let _ = writeln!(out, "view[{p}] {}", delta_line(prev_view.as_ref(), &view));
            *prev_view = Some(view);
            let _ = writeln!(
                out,
                "render[{p}] {}",
                json_line(&Value::from(g.render(Some(p))))
            );
            let mut obs = vec![0.0f32; len];
            g.observation(p, &mut obs);
            let _ = writeln!(out, "observation[{p}] {}", observation_line(&obs));
            let _ = writeln!(out, "evaluate[{p}] {}", g.evaluate(p));
        }
        let moves = legal(g);
        let listed: Vec<String> = moves
            .iter()
            .map(|&a| {
                format!(
                    "{}={}",
                    g.action_id(a),
                    json_line(&Value::from(g.action_notation(a)))
                )
            })
            .collect();
        let _ = writeln!(out, "legal[{}] {}", moves.len(), listed.join(" "));
        match actions.get(ply) {
            Some(&a) => {
                let _ = writeln!(
                    out,
                    "action {} {} {}",
                    g.action_id(a),
                    json_line(&Value::from(g.action_notation(a))),
                    json_line(&g.action_json(a))
                );
            }
            None => {
                let _ = writeln!(out, "terminal {}", g.is_terminal());
                let _ = writeln!(out, "winner {:?}", g.winner());
                let _ = writeln!(out, "returns {:?}", g.returns());
            }
        }
    }
    out
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
}

#[test]
fn golden_playthroughs_match() {
    let bless = std::env::var_os("KINGDOMS_BLESS").is_some_and(|v| v != "0");
    let mut failures = Vec::new();
    for name in GAMES {
        for (label, opts) in option_sets(name) {
            let text = with_game!(*name, G => playthrough::<G>(label, &opts))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let path = golden_dir().join(format!("{name}-{label}.txt"));
            if bless {
                std::fs::create_dir_all(golden_dir()).unwrap();
                std::fs::write(&path, &text).unwrap();
                continue;
            }
            let Ok(want) = std::fs::read_to_string(&path) else {
                failures.push(format!(
                    "{}: missing; write it with KINGDOMS_BLESS=1",
                    path.display()
                ));
                continue;
            };
            if let Some(diff) = first_difference(&want, &text) {
                failures.push(format!("{}: {diff}", path.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "golden playthroughs differ (after an intended change: KINGDOMS_BLESS=1 cargo test \
         -p kingdoms-core --test golden, then review the diff):\n{}",
        failures.join("\n")
    );
}

/// The first line where `got` departs from `want`, shown both ways (long lines cut around
/// the first differing character).
fn first_difference(want: &str, got: &str) -> Option<String> {
    let (mut w, mut g) = (want.lines(), got.lines());
    let mut n = 0;
    loop {
        n += 1;
        match (w.next(), g.next()) {
            (None, None) => return None,
            (Some(a), Some(b)) if a == b => continue,
            (a, b) => {
                let a = a.unwrap_or("<end of file>");
                let b = b.unwrap_or("<end of file>");
                let at = a
                    .char_indices()
                    .zip(b.chars())
                    .find(|((_, x), y)| x != y)
                    .map_or(a.len().min(b.len()), |((i, _), _)| i);
                return Some(format!(
                    "line {n} differs (from byte {at}):\n  golden: {}\n  now:    {}",
                    excerpt(a, at),
                    excerpt(b, at)
                ));
            }
        }
    }
}

fn excerpt(line: &str, at: usize) -> String {
    let mut start = at.saturating_sub(60).min(line.len());
    while !line.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + 100).min(line.len());
    while !line.is_char_boundary(end) {
        end += 1;
    }
    format!(
        "{}{}{}",
        if start > 0 { "…" } else { "" },
        &line[start..end],
        if end < line.len() { "…" } else { "" }
    )
}
