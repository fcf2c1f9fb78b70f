//! Balance of Arte da Guerra with the reference card set: in random-vs-random and
//! greedy-vs-greedy games neither seat (nor the first attacker of round 1, chosen by the coin
//! toss) wins much more than half.
//!
//! The figures print with `--nocapture`; more games with `ARTE_BALANCE_GAMES=<random games>`
//! (greedy games are a tenth of it), e.g.
//! `ARTE_BALANCE_GAMES=100000 cargo test --release --test arte_balance -- --nocapture`.
//! `ARTE_BALANCE_CARDS=<file.toml>` measures a card set of one's own instead of the reference.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench may panic

use kingdoms_core::arte::{Action, Arte, Options};
use kingdoms_core::simulate::game_seed;
use kingdoms_core::{Game, GameRng};

#[derive(Default, Debug)]
struct Tally {
    games: u64,
    seat0: u64,
    first_attacker: u64,
    sudden_deaths: u64,
    plies: u64,
}

impl Tally {
    fn add(&mut self, g: &Arte, plies: u64) {
        let s = g.to_json();
        let w = g.winner().expect("the standard game is never drawn");
        self.games += 1;
        self.seat0 += u64::from(w == 0);
        self.first_attacker += u64::from(Some(w as u64) == s["first_attacker"].as_u64());
        self.sudden_deaths += u64::from(!s["players"][0]["pick"].is_null());
        self.plies += plies;
    }
    fn rate(&self, n: u64) -> f64 {
        n as f64 / self.games as f64
    }
    fn report(&self, name: &str) {
        eprintln!(
            "{name}: {} games, seat 0 wins {:.3}, round-1 first attacker wins {:.3}, \
             sudden death {:.3}, {:.1} plies/game",
            self.games,
            self.rate(self.seat0),
            self.rate(self.first_attacker),
            self.rate(self.sudden_deaths),
            self.plies as f64 / self.games as f64
        );
    }
}

/// One-ply greedy: on a determinization (so it never peeks at hidden cards), the action whose
/// result `evaluate` likes best; ties broken at random.
fn greedy(g: &Arte, rng: &mut GameRng) -> Action {
    let p = g.current_player().expect("a running game");
    let det = g.resample_hidden(p, rng.next_u64());
    let mut legal = Vec::new();
    det.legal_actions(&mut legal);
    let mut best = f64::NEG_INFINITY;
    let mut choices = Vec::new();
    for a in legal {
        let mut h = det.clone();
        h.apply(a).expect("legal");
        let v = h.evaluate(p);
        if v > best + 1e-12 {
            best = v;
            choices.clear();
        }
        if v >= best - 1e-12 {
            choices.push(a);
        }
    }
    *rng.choose(&choices).expect("an action")
}

fn options() -> Options {
    Options {
        cards_file: std::env::var("ARTE_BALANCE_CARDS").ok(),
        ..Default::default()
    }
}

fn run(games: u64, seed: u64, agent: impl Fn(&Arte, &mut GameRng) -> Action) -> Tally {
    let mut t = Tally::default();
    for i in 0..games {
        let mut g = Arte::new(game_seed(seed, i), &options()).unwrap();
        let mut rng = GameRng::stream(seed, i);
        let mut plies = 0;
        while !g.is_terminal() {
            let a = agent(&g, &mut rng);
            g.apply(a).unwrap();
            plies += 1;
        }
        t.add(&g, plies);
    }
    t
}

fn random(g: &Arte, rng: &mut GameRng) -> Action {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    *rng.choose(&legal).expect("an action")
}

fn games() -> u64 {
    std::env::var("ARTE_BALANCE_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4000)
}

/// Within about four standard errors of one half, and never beyond 0.45..0.55 for the big
/// runs: "neither seat wins much more than half".
fn assert_balanced(what: &str, rate: f64, games: u64) {
    let tolerance = (4.0 * 0.5 / (games as f64).sqrt()).max(0.05);
    assert!(
        (rate - 0.5).abs() <= tolerance,
        "{what}: {rate:.3} over {games} games is not within {tolerance:.3} of 0.5"
    );
}

#[test]
fn random_play_is_balanced() {
    let t = run(games(), 1, random);
    t.report("random vs random");
    assert_balanced("seat 0", t.rate(t.seat0), t.games);
    assert_balanced("first attacker", t.rate(t.first_attacker), t.games);
}

#[test]
fn greedy_play_is_balanced() {
    let t = run((games() / 10).max(100), 2, greedy);
    t.report("greedy vs greedy");
    assert_balanced("seat 0", t.rate(t.seat0), t.games);
    assert_balanced("first attacker", t.rate(t.first_attacker), t.games);
}

/// The greedy agent is a meaningful baseline: it beats random play clearly from either seat.
#[test]
fn greedy_beats_random() {
    let n = (games() / 20).max(100);
    let mut wins = 0;
    for i in 0..n {
        let mut g = Arte::new(game_seed(3, i), &options()).unwrap();
        let mut rng = GameRng::stream(3, i);
        let greedy_seat = (i % 2) as usize;
        while let Some(p) = g.current_player() {
            let a = if p == greedy_seat {
                greedy(&g, &mut rng)
            } else {
                random(&g, &mut rng)
            };
            g.apply(a).unwrap();
        }
        wins += u64::from(g.winner() == Some(greedy_seat));
    }
    let rate = wins as f64 / n as f64;
    eprintln!("greedy vs random: greedy wins {rate:.3} of {n} games");
    assert!(rate > 0.6, "greedy wins only {rate:.3} against random play");
}
