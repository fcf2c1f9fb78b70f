//! Random play with abilities and reactions: every activated ability and every reaction of
//! the reference roster gets used (the coverage table in docs/zinordia.md stays true), and
//! reaction windows open during other players' turns.

use super::*;
use crate::rng::GameRng;
use std::collections::HashSet;

/// Play a random game to its end; returns the (roster Star, ability) pairs used, and how
/// many reactions were answered during another player's turn.
fn random_game(m: &str, players: Option<u8>, seed: u64) -> (HashSet<(usize, u8)>, usize) {
    let mut g = game(mode(m, players), seed);
    let mut rng = GameRng::seed(seed ^ 0x5eed);
    let mut used = HashSet::new();
    let mut off_turn = 0;
    let mut acts = Vec::new();
    while g.current_player().is_some() {
        g.legal_actions(&mut acts);
        let a = *rng.choose(&acts).unwrap();
        match a {
            Action::Activate { ability, .. } => {
                let s = g.play.unwrap().star;
                used.insert((g.stars[s].roster, ability));
            }
            Action::React { ability, .. } => {
                let s = g.offers.front().unwrap().star;
                used.insert((g.stars[s].roster, ability));
                if g.shared.owner(s) != g.turn_player() {
                    off_turn += 1;
                }
            }
            _ => {}
        }
        g.apply(a).unwrap();
    }
    (used, off_turn)
}

#[test]
fn zn_every_activated_ability_and_reaction_of_the_roster_gets_used() {
    let content = crate::zinordia::Content::reference().unwrap();
    let mut want: HashSet<(usize, u8)> = HashSet::new();
    for (s, star) in content.stars.iter().enumerate() {
        for (i, ab) in star.abilities.iter().enumerate() {
            if ab.kind != crate::zinordia::Kind::Passive {
                want.insert((s, i as u8));
            }
        }
    }
    let mut seen = HashSet::new();
    let mut off_turn = 0;
    for seed in 0..300 {
        let (used, off) = random_game("duel", None, seed);
        seen.extend(used);
        off_turn += off;
        if want.is_subset(&seen) && off_turn > 0 {
            break;
        }
    }
    let missing: Vec<String> = want
        .difference(&seen)
        .map(|&(s, i)| {
            let star = &content.stars[s];
            format!("{}.{}", star.id, star.abilities[usize::from(i)].id)
        })
        .collect();
    assert!(missing.is_empty(), "never used: {missing:?}");
    assert!(off_turn > 0, "no reaction during another player's turn");
}

/// Speed (run by hand: `cargo test --release -p kingdoms-core --lib zn_random_duel_speed
/// -- --ignored --nocapture`); figures go to benches, never into assertions.
#[test]
#[ignore]
fn zn_random_duel_speed() {
    let n = 2000;
    let t = std::time::Instant::now();
    let mut decisions = 0usize;
    for seed in 0..n {
        let mut g = game(mode("duel", None), seed);
        let mut rng = GameRng::seed(seed);
        let mut acts = Vec::new();
        while g.current_player().is_some() {
            g.legal_actions(&mut acts);
            let a = *rng.choose(&acts).unwrap();
            g.apply_unchecked(a);
            decisions += 1;
        }
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{n} random duels: {:.0} games/s, {:.1} µs/game, {:.0} decisions/game",
        n as f64 / dt,
        dt * 1e6 / n as f64,
        decisions as f64 / n as f64
    );
}
