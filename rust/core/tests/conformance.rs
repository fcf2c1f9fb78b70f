//! The conformance suite: properties every game must have, checked generically for every
//! game in `registry::GAMES` (so a new game is covered by registering it), over several
//! seeded random games per option set (`common::option_sets`).
//!
//! At every ply of every game:
//! - `current_player` is `None` exactly when the game is over, and then there is no legal
//!   action; otherwise the legal actions are sorted by strictly ascending id;
//! - every legal action is accepted by `apply`; every other id in `0..num_actions()` is
//!   refused as an illegal action and the state is unchanged (`to_json` compared);
//! - where a game writes its legal ids as bits (`legal_action_bits`), they are exactly the
//!   ids of `legal_actions`;
//! - `from_json(to_json())` is the same state (JSON and every view);
//! - a compact observation (`observation_u8`, where a game declares divisors) divides back
//!   to the observation bit for bit;
//! - for each player `p` and several seeds, `resample_hidden(p, seed)` keeps `p`'s view,
//!   observation and picture, is itself a valid state, and — for the player to move — has the
//!   same legal actions and refuses every other id with the same error kind and text (a
//!   refusal must not reveal hidden information).
//!
//! Per game: ids, notations and actions round-trip; a game replays exactly from its record.
//!
//! `resample_hidden(p, seed)` depends on `p`'s view and the seed alone; Greedy's and ISMCTS's
//! moves (every fifth ply) are the same, seed for seed, in the game and in every
//! `resample_hidden` of the mover's view.
//!
//! The heuristic player (`Knowledge::heuristic_action`, where a game has one): at every ply its
//! move is legal and the same on every `resample_hidden` of the mover's view (it uses only
//! what the mover may see); a game it plays against itself ends and replays the same from
//! the same seeds.
//!
//! Known failures of today's code are listed in [`KNOWN_FAILURES`]: the main test skips them
//! and the ignored test `known_failures_are_fixed` runs only them (`cargo test --test
//! conformance -- --ignored`); remove an entry once it passes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench may panic

mod common;

use common::{describe, legal, option_sets, options, random_playout};
use kingdoms_core::registry::GAMES;
use kingdoms_core::rng::GameRng;
use kingdoms_core::search::{Agent, GreedyAgent, GreedyConfig, Ismcts, IsmctsConfig};
use kingdoms_core::Knowledge;
use kingdoms_core::{with_game, Error, Session};
use rayon::prelude::*;
use serde_json::{Map, Value};

/// Random games per option set.
const SEEDS: [u64; 2] = [11, 12];
/// Determinizations compared per player and ply.
const RESAMPLES: [u64; 2] = [101, 202];

/// The searching agents are checked at every this-many-th ply (they cost most of the suite).
const AGENT_EVERY: usize = 5;
/// ISMCTS iterations for that check: enough to reach evaluations, rollouts and settling.
const AGENT_ITERATIONS: u64 = 40;

/// (game, property, why it fails today).
const KNOWN_FAILURES: &[(&str, &str, &str)] = &[];

fn is_known(game: &str, property: &str) -> bool {
    KNOWN_FAILURES
        .iter()
        .any(|(g, p, _)| *g == game && *p == property)
}

/// Which (game, property) pairs a run checks.
type Selected<'a> = &'a (dyn Fn(&str, &str) -> bool + Sync);

/// Collects property failures (the first few of each property) instead of stopping at the
/// first, so one run shows everything that is wrong.
struct Report<'a> {
    game: &'static str,
    case: String,
    selected: Selected<'a>,
    failures: Vec<String>,
}

impl Report<'_> {
    fn wants(&self, property: &str) -> bool {
        (self.selected)(self.game, property)
    }
    fn check(&mut self, property: &str, ok: bool, what: impl FnOnce() -> String) {
        if ok || !self.wants(property) {
            return;
        }
        let seen = self
            .failures
            .iter()
            .filter(|f| f.contains(&format!("[{property}]")))
            .count();
        if seen < 3 {
            self.failures.push(format!(
                "{} {}: [{property}] {}",
                self.game,
                self.case,
                what()
            ));
        }
    }
}

/// Every (option set, seed) case of one game, each on its own core: the cases are
/// independent, and one after another they took most of `cargo test`'s time.
fn conformance<G: Knowledge>(selected: Selected) -> Vec<String> {
    let cases: Vec<_> = option_sets(G::NAME)
        .into_iter()
        .flat_map(|(label, opts)| SEEDS.map(|seed| (label, opts.clone(), seed)))
        .collect();
    cases
        .par_iter()
        .flat_map_iter(|(label, opts_json, seed)| case::<G>(selected, label, opts_json, *seed))
        .collect()
}

/// One random game of one option set, checked at every ply.
fn case<G: Knowledge>(
    selected: Selected,
    label: &str,
    opts_json: &Map<String, Value>,
    seed: u64,
) -> Vec<String> {
    let opts = options::<G>(opts_json);
    let mut r = Report {
        game: G::NAME,
        case: format!("options {label}, seed {seed}"),
        selected,
        failures: Vec::new(),
    };
    let (states, actions) = random_playout::<G>(&opts, seed, usize::MAX);
    action_space(&mut r, &states[0]);
    for (ply, g) in states.iter().enumerate() {
        r.case = format!("options {label}, seed {seed}, ply {ply}");
        let refusals = legality(&mut r, g);
        json_round_trip(&mut r, g);
        determinizations(&mut r, g, &refusals);
        heuristic_sight(&mut r, g);
        dominant_sight(&mut r, g);
        evaluate_each_agrees(&mut r, g);
        if ply % AGENT_EVERY == 0 {
            agents_sight(&mut r, g);
        }
    }
    replay(&mut r, seed, opts_json, &states, &actions);
    heuristic_games::<G>(&mut r, &opts, seed);
    r.failures
}

/// Ids, actions and notations correspond one to one.
fn action_space<G: Knowledge>(r: &mut Report, g: &G) {
    let n = g.num_actions();
    r.check("action_space", g.action_from_id(n).is_none(), || {
        format!("action_from_id({n}) (= num_actions) is not None")
    });
    for id in 0..n {
        let Some(a) = g.action_from_id(id) else {
            r.check("action_space", false, || format!("no action for id {id}"));
            continue;
        };
        r.check("action_space", g.action_id(a) == id, || {
            format!("action_id(action_from_id({id})) = {}", g.action_id(a))
        });
        let text = g.action_notation(a);
        let back = g.parse_action(&text);
        r.check(
            "notation_round_trip",
            back.as_ref().ok() == Some(&a),
            || format!("id {id}: {text:?} parses as {back:?}"),
        );
    }
}

/// Legal actions sorted and accepted; every other id refused, changing nothing. Returns the
/// refusals: (id, error kind and text).
fn legality<G: Knowledge>(r: &mut Report, g: &G) -> Vec<(usize, String)> {
    let moves = legal(g);
    let over = g.is_terminal();
    r.check("terminal", over == g.current_player().is_none(), || {
        format!(
            "is_terminal {over} but current_player {:?}",
            g.current_player()
        )
    });
    r.check("terminal", over == moves.is_empty(), || {
        format!("is_terminal {over} with {} legal actions", moves.len())
    });
    let ids: Vec<usize> = moves.iter().map(|&a| g.action_id(a)).collect();
    r.check("legal_sorted", ids.windows(2).all(|w| w[0] < w[1]), || {
        format!("legal action ids not strictly ascending: {ids:?}")
    });
    let mut words = vec![0u64; g.num_actions().div_ceil(64)];
    if g.legal_action_bits(&mut words) {
        let from_bits: Vec<usize> = (0..g.num_actions())
            .filter(|&i| words[i / 64] >> (i % 64) & 1 == 1)
            .collect();
        r.check("legal_bits", from_bits == ids, || {
            format!("legal_action_bits gives ids {from_bits:?}, legal_actions {ids:?}")
        });
    }
    for &a in &moves {
        let mut h = g.clone();
        let res = h.apply(a);
        r.check("legal_accepted", res.is_ok(), || {
            format!("legal {:?} refused: {res:?}", g.action_notation(a))
        });
    }
    let mut refusals = Vec::new();
    if !r.wants("illegal_refused") && !r.wants("refusal_hides_nothing") {
        return refusals;
    }
    let before = g.to_json();
    for id in 0..g.num_actions() {
        if ids.binary_search(&id).is_ok() {
            continue;
        }
        let Some(a) = g.action_from_id(id) else {
            continue;
        };
        let mut h = g.clone();
        let res = h.apply(a);
        r.check(
            "illegal_refused",
            matches!(res, Err(Error::IllegalAction { .. })),
            || {
                format!(
                    "id {id} ({:?}) not legal, but apply gave {res:?}",
                    g.action_notation(a)
                )
            },
        );
        r.check("illegal_refused", h.to_json() == before, || {
            format!(
                "refusing id {id} ({:?}) changed the state",
                g.action_notation(a)
            )
        });
        if let Err(e) = res {
            refusals.push((id, describe(&e)));
        }
    }
    refusals
}

/// `from_json(to_json())` is the same state.
fn json_round_trip<G: Knowledge>(r: &mut Report, g: &G) {
    let json = g.to_json();
    match G::from_json(&json) {
        Err(e) => r.check("json_round_trip", false, || {
            format!("from_json(to_json()): {e}")
        }),
        Ok(back) => {
            r.check("json_round_trip", back.to_json() == json, || {
                "from_json(to_json()).to_json() differs".into()
            });
            for p in 0..g.num_players() {
                r.check("json_round_trip", back.view(p) == g.view(p), || {
                    format!("view({p}) differs after a JSON round trip")
                });
            }
        }
    }
}

/// Determinizations keep what a player sees, and refusals do not depend on hidden things.
fn determinizations<G: Knowledge>(r: &mut Report, g: &G, refusals: &[(usize, String)]) {
    let len: usize = g.observation_shape().iter().product();
    let mover = g.current_player();
    let moves = legal(g);
    let ids: Vec<usize> = moves.iter().map(|&a| g.action_id(a)).collect();
    for p in 0..g.num_players() {
        let view = g.view(p);
        let mut obs = vec![0.0f32; len];
        g.observation(p, &mut obs);
        // Callers reuse buffers (batches, self-play): every element must be written.
        let mut reused = vec![f32::NAN; len];
        g.observation(p, &mut reused);
        r.check("observation_writes_every_element", reused == obs, || {
            format!("observation({p}) into a reused buffer differs from one into a zeroed buffer")
        });
        if let Some(divisors) = g.observation_divisors() {
            // The compact form is the observation's counts: divided back, bit for bit.
            let mut compact = vec![0xA5u8; len];
            g.observation_u8(p, &mut compact);
            let back: Vec<f32> = compact
                .iter()
                .zip(&divisors)
                .map(|(&c, &d)| f32::from(c) / d)
                .collect();
            r.check(
                "compact_observation_matches",
                divisors.len() == len && back == obs,
                || format!("observation_u8({p}) over its divisors differs from observation({p})"),
            );
        }
        let picture = g.render(Some(p));
        for seed in RESAMPLES {
            let d = g.resample_hidden(p, seed);
            r.check("resample_keeps_view", d.view(p) == view, || {
                format!("resample_hidden({p}, {seed}).view({p}) differs from view({p})")
            });
            let mut dobs = vec![0.0f32; len];
            d.observation(p, &mut dobs);
            r.check("resample_keeps_observation", dobs == obs, || {
                format!("resample_hidden({p}, {seed}) changes observation({p})")
            });
            r.check(
                "resample_keeps_render",
                d.render(Some(p)) == picture,
                || format!("resample_hidden({p}, {seed}) changes render(Some({p}))"),
            );
            // The draw is a function of the view and the seed: redrawing from `d` (which
            // `p` cannot tell from `g`) gives the same world as redrawing from `g`.
            let again = g.resample_hidden(p, 5).to_json();
            r.check(
                "resample_depends_on_view_only",
                d.resample_hidden(p, 5).to_json() == again,
                || format!("resample_hidden({p}, 5) differs after resample_hidden({p}, {seed})"),
            );
            // What `p` sees of each move is a function of `p`'s view (the mover sees all).
            let seen_alike = moves.iter().all(|&a| {
                d.action_seen(p, a) == g.action_seen(p, a)
                    && (mover != Some(p) || g.action_seen(p, a) == g.action_notation(a))
            });
            r.check("seen_move_is_view_only", seen_alike, || {
                format!("action_seen({p}, _) differs in resample_hidden({p}, {seed})")
            });
            let valid = G::from_json(&d.to_json());
            r.check("resample_is_valid", valid.is_ok(), || {
                format!("resample_hidden({p}, {seed}) is not a valid state: {valid:?}")
            });
            if mover != Some(p) {
                continue;
            }
            let dids: Vec<usize> = legal(&d).iter().map(|&a| d.action_id(a)).collect();
            r.check("resample_keeps_legal", dids == ids, || {
                format!("resample_hidden({p}, {seed}) has other legal actions")
            });
            if !r.wants("refusal_hides_nothing") {
                continue;
            }
            for (id, ex) in refusals {
                let Some(a) = g.action_from_id(*id) else {
                    continue;
                };
                let ey = d.clone().apply(a).err().map(|e| describe(&e));
                r.check("refusal_hides_nothing", ey.as_ref() == Some(ex), || {
                    format!(
                        "{:?} refused as {ex} in the game but gives {ey:?} in \
                         resample_hidden({p}, {seed})",
                        g.action_notation(a)
                    )
                });
            }
        }
    }
}

/// The heuristic player's move is legal and reads nothing the mover cannot see.
fn heuristic_sight<G: Knowledge>(r: &mut Report, g: &G) {
    sight(r, g, "heuristic", |h| {
        h.heuristic_action(&mut GameRng::seed(7))
    });
}

/// The game's dominant move, which the judging agents play unweighed, is legal and reads
/// nothing the mover cannot see.
fn dominant_sight<G: Knowledge>(r: &mut Report, g: &G) {
    sight(r, g, "dominant", |h| h.dominant_action());
}

/// A move chosen by `choose` (none: nothing to check) is legal, and the same in every
/// `resample_hidden` of the mover's view; failures are named `{what}_legal` and
/// `{what}_hides_nothing`.
fn sight<G: Knowledge>(
    r: &mut Report,
    g: &G,
    what: &str,
    choose: impl Fn(&G) -> Option<G::Action>,
) {
    let Some(mover) = g.current_player() else {
        return;
    };
    let a = choose(g);
    if let Some(a) = a {
        r.check(&format!("{what}_legal"), legal(g).contains(&a), || {
            format!("the {what} move {:?} is not legal", g.action_notation(a))
        });
    }
    for seed in RESAMPLES {
        let d = g.resample_hidden(mover, seed);
        let b = choose(&d);
        r.check(&format!("{what}_hides_nothing"), b == a, || {
            format!(
                "the {what} move is {:?}, but {:?} in resample_hidden({mover}, {seed})",
                a.map(|a| g.action_notation(a)),
                b.map(|b| d.action_notation(b))
            )
        });
    }
}

/// `evaluate_each` (how the search scores a leaf) gives each player exactly what
/// `evaluate` gives them, bit for bit, here and in a redraw of the mover's view.
fn evaluate_each_agrees<G: Knowledge>(r: &mut Report, g: &G) {
    let worlds = match g.current_player() {
        Some(p) => vec![g.clone(), g.resample_hidden(p, RESAMPLES[0])],
        None => vec![g.clone()],
    };
    for w in &worlds {
        let mut each = vec![f64::NAN; g.num_players()];
        w.evaluate_each(&mut each);
        for (p, v) in each.iter().enumerate() {
            let plain = w.evaluate(p);
            r.check("evaluate_each", v.to_bits() == plain.to_bits(), || {
                format!("evaluate_each gives player {p} {v}, evaluate {plain}")
            });
        }
    }
}

/// The searching agents' moves do not depend on what the mover cannot see: with the same
/// seed, Greedy and ISMCTS choose the same move in the game and in every `resample_hidden`
/// of the mover's view (they reach hidden things only through `resample_hidden`, which is a
/// function of the view and the seed).
fn agents_sight<G: Knowledge>(r: &mut Report, g: &G) {
    let Some(mover) = g.current_player() else {
        return;
    };
    let greedy = |h: &G| {
        GreedyAgent::new(GreedyConfig {
            seed: 3,
            ..GreedyConfig::default()
        })
        .act(h)
        .ok()
    };
    let ismcts = |h: &G| {
        Ismcts::new(IsmctsConfig {
            iterations: Some(AGENT_ITERATIONS),
            seed: 3,
            ..IsmctsConfig::default()
        })
        .act(h)
        .ok()
    };
    let (a, b) = (greedy(g), ismcts(g));
    for seed in RESAMPLES {
        let d = g.resample_hidden(mover, seed);
        for (name, ours, theirs) in [("Greedy", a, greedy(&d)), ("ISMCTS", b, ismcts(&d))] {
            r.check("agents_hide_nothing", ours == theirs, || {
                format!(
                    "{name} chose {:?}, but {:?} in resample_hidden({mover}, {seed})",
                    ours.map(|x| g.action_notation(x)),
                    theirs.map(|x| d.action_notation(x))
                )
            });
        }
    }
}

/// Heuristic against heuristic: every game ends, and the same seeds give the same game.
fn heuristic_games<G: Knowledge>(r: &mut Report, opts: &G::Options, seed: u64) {
    /// Far above any real game's length (Battle Line's longest are about 150 plies).
    const MAX_PLIES: usize = 20_000;
    let play = || -> Option<Vec<G::Action>> {
        let mut g = G::new(seed, opts).ok()?;
        let mut rng = GameRng::seed(seed);
        let mut moves = Vec::new();
        while !g.is_terminal() && moves.len() < MAX_PLIES {
            let a = g.heuristic_action(&mut rng)?;
            g.apply(a).ok()?;
            moves.push(a);
        }
        g.is_terminal().then_some(moves)
    };
    let has_heuristic = G::new(seed, opts)
        .ok()
        .and_then(|g| g.heuristic_action(&mut GameRng::seed(seed)))
        .is_some();
    if !has_heuristic {
        return;
    }
    let once = play();
    r.check("heuristic_games", once.is_some(), || {
        "a heuristic game made an illegal move or did not end".into()
    });
    r.check("heuristic_games", play() == once, || {
        "the same seeds gave another heuristic game".into()
    });
}

/// The game replays exactly: from the seed and actions, and from its record's notations.
fn replay<G: Knowledge>(
    r: &mut Report,
    seed: u64,
    opts_json: &Map<String, Value>,
    states: &[G],
    actions: &[G::Action],
) {
    let Some(last) = states.last() else { return };
    let mut s = match Session::<G>::from_options_json(seed, opts_json) {
        Ok(s) => s,
        Err(e) => return r.check("replay", false, || format!("new session: {e}")),
    };
    for (i, &a) in actions.iter().enumerate() {
        if let Err(e) = s.apply(a) {
            return r.check("replay", false, || format!("replaying action {i}: {e}"));
        }
        r.check(
            "replay",
            s.game.to_json() == states[i + 1].to_json(),
            || format!("replay departs after action {i}"),
        );
    }
    match s.record().and_then(|rec| Session::<G>::replay(&rec)) {
        Err(e) => r.check("replay", false, || format!("replay from the record: {e}")),
        Ok(again) => r.check("replay", again.game.to_json() == last.to_json(), || {
            "replay from the record ends in another state".into()
        }),
    }
}

fn run(selected: Selected) -> Vec<String> {
    GAMES
        .par_iter()
        .flat_map_iter(
            |name| match with_game!(*name, G => conformance::<G>(selected)) {
                Ok(f) => f,
                Err(e) => vec![format!("{name}: {e}")],
            },
        )
        .collect()
}

#[test]
fn every_game_conforms() {
    let failures = run(&|game, property| !is_known(game, property));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "runs only KNOWN_FAILURES (each names why it fails today and who fixes it)"]
fn known_failures_are_fixed() {
    let failures = run(&|game, property| is_known(game, property));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
