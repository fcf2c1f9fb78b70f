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
