//! Hand-built positions for every rule and ability kind (ids from docs/rules/strifull.md),
//! and properties of random games.

use super::*;
use crate::game::Game;
use crate::rng::GameRng;

fn random_game(seed: u64, opts: &Options, check: bool) -> (Strifull, usize) {
    let mut g = Strifull::new(seed, opts).unwrap();
    let mut rng = GameRng::seed(seed ^ 0xABCD);
    let mut buf = Vec::new();
    let mut plies = 0;
    while !g.is_terminal() {
        g.legal_actions(&mut buf);
        assert!(!buf.is_empty(), "no legal action in a running game");
        let a = *rng.choose(&buf).unwrap();
        g.apply(a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        plies += 1;
        if check {
            if let Some(why) = g.invariant_violation() {
                panic!("after {a:?}: {why}\n{}", g.render(None));
            }
        }
        assert!(plies < 5000);
    }
    (g, plies)
}

#[test]
fn smoke_random_games_end() {
    let opts = Options::default();
    for seed in 0..200 {
        random_game(seed, &opts, true);
    }
}

#[test]
#[ignore]
fn show() {
    let opts = Options::default();
    let mut g = Strifull::new(5, &opts).unwrap();
    let mut rng = GameRng::seed(1);
    let mut buf = Vec::new();
    for _ in 0..60 {
        if g.is_terminal() {
            break;
        }
        g.legal_actions(&mut buf);
        let a = *rng.choose(&buf).unwrap();
        println!("P{} {}", g.current_player().unwrap(), a.notation());
        g.apply(a).unwrap();
    }
    println!("{}", g.render(None));
    println!("{}", g.render(Some(0)));
    println!("{}", serde_json::to_string_pretty(&g.view(1)).unwrap());
}

#[test]
#[ignore]
fn plies_stats() {
    let opts = Options::default();
    let mut steps = std::collections::BTreeMap::<&str, (usize, usize)>::new();
    let mut total = 0;
    let n = 300;
    for seed in 0..n {
        let mut g = Strifull::new(seed, &opts).unwrap();
        let mut rng = GameRng::seed(seed);
        let mut buf = Vec::new();
        while !g.is_terminal() {
            g.legal_actions(&mut buf);
            let e = steps.entry(g.step.name()).or_default();
            e.0 += 1;
            e.1 += buf.len();
            let a = *rng.choose(&buf).unwrap();
            g.apply(a).unwrap();
            total += 1;
        }
    }
    println!("avg plies {}", total as f64 / n as f64);
    for (k, (c, l)) in steps {
        println!(
            "{k}: {:.1} per game, {:.1} legal",
            c as f64 / n as f64,
            l as f64 / c as f64
        );
    }
}

#[test]
#[ignore]
fn speed() {
    let n: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let s = crate::simulate::simulate::<Strifull>(&Options::default(), n, 1, 0, Some(1)).unwrap();
    println!(
        "{} games, {:.0} games/s, {:.1} plies/game, wins {:?}, draws {}",
        s.games,
        s.games_per_second(),
        s.plies as f64 / s.games as f64,
        s.wins,
        s.draws
    );
}
