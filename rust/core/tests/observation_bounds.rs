//! Every registered game declares the bounds of its observation
//! ([`Game::observation_bounds`]), of the observation's length, and the observations of
//! every player in random games, in every option set (`common::option_sets`, which covers
//! Zinordia's modes), stay inside them. The Python environments build their spaces from
//! these bounds (`kingdoms.envs.observation_bounds`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench may panic

mod common;

use common::{option_sets, options, random_playout};
use kingdoms_core::registry::GAMES;
use kingdoms_core::{with_game, Game};

/// Random games per option set.
const SEEDS: [u64; 3] = [21, 22, 23];

fn check<G: Game>() -> Vec<String> {
    let mut failures = Vec::new();
    for (label, opts_json) in option_sets(G::NAME) {
        let opts = options::<G>(&opts_json);
        for seed in SEEDS {
            let (states, _) = random_playout::<G>(&opts, seed, usize::MAX);
            let first = &states[0];
            let Some((low, high)) = first.observation_bounds() else {
                failures.push(format!("{} ({label}): declares no bounds", G::NAME));
                return failures;
            };
            let len: usize = first.observation_shape().iter().product();
            if low.len() != len || high.len() != len {
                failures.push(format!(
                    "{} ({label}): bounds of {} and {} elements, observation {len}",
                    G::NAME,
                    low.len(),
                    high.len()
                ));
                return failures;
            }
            if let Some(i) = (0..len).find(|&i| low[i] > high[i] || !high[i].is_finite()) {
                failures.push(format!("{} ({label}): bad bounds at {i}", G::NAME));
            }
            let mut obs = vec![0.0f32; len];
            for (ply, g) in states.iter().enumerate() {
                assert_eq!(g.observation_bounds(), Some((low.clone(), high.clone())));
                for p in 0..g.num_players() {
                    g.observation(p, &mut obs);
                    if let Some(i) = (0..len).find(|&i| obs[i] < low[i] || obs[i] > high[i]) {
                        failures.push(format!(
                            "{} ({label}) seed {seed} ply {ply} player {p}: element {i} = {} \
                             outside [{}, {}]",
                            G::NAME,
                            obs[i],
                            low[i],
                            high[i]
                        ));
                        break;
                    }
                }
            }
        }
    }
    failures
}

#[test]
fn every_game_declares_bounds_its_observations_respect() {
    let mut failures = Vec::new();
    for name in GAMES {
        failures.extend(with_game!(name, G => check::<G>()).unwrap());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
