//! The search on Battle Line positions: what the tree's opponent may know (issue 14,
//! twenty-ninth round, `IsmctsConfig::opponent_sight`).

use super::*;
use crate::agents::{best_in_sight, best_reply, Ismcts, IsmctsConfig, Teams};

/// Positions from random games where player 1 is to play a troop or tactics card.
fn opponent_turns() -> Vec<BattleLine> {
    let mut found = Vec::new();
    for seed in 0..12 {
        random_game(seed, &Options::default(), |g, legal| {
            if g.current_player() == Some(1) && g.phase == Phase::Play && legal.len() > 4 {
                found.push(g.clone());
            }
        });
    }
    found
}

/// With `opponent_sight` the tree's opponent judges its moves on a world redrawn from its
/// own sight, so its choice cannot depend on the searcher's true hand: two worlds that
/// differ only in player 0's hand (and the deck order) give the same choice. Judged on the
/// world itself, as without the option, the choice does depend on it somewhere.
#[test]
fn the_opponent_in_sight_does_not_read_the_searchers_hand() {
    let positions = opponent_turns();
    assert!(positions.len() >= 50, "{} positions", positions.len());
    let mut judged = Vec::new();
    let mut told = 0;
    for (i, g) in positions.iter().enumerate() {
        let teams = Teams::of(g);
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        // Another world player 1 cannot tell from this one.
        let other = g.resample_hidden(1, 1000 + i as u64);
        assert_eq!(other.hands[1], g.hands[1]);
        for seed in 0..3 {
            let here = best_in_sight(g, &legal, 1, seed, &teams, &mut judged).unwrap();
            let there = best_in_sight(&other, &legal, 1, seed, &teams, &mut judged).unwrap();
            assert_eq!(here, there, "position {i}, seed {seed}");
        }
        let knowing = |w: &BattleLine, judged: &mut Vec<f64>| {
            best_reply(w, &legal, 1, &teams, judged).unwrap().unwrap().1
        };
        if knowing(g, &mut judged) != knowing(&other, &mut judged) {
            told += 1;
        }
    }
    assert!(told > 0, "the searcher's hand never changed a judgement");
}

/// The option through the search: set to the game's own it plays as unset, set the other
/// way it searches differently, and its name round-trips through the command line.
#[test]
fn opponent_sight_changes_the_search_and_round_trips() {
    let g = opponent_turns()
        .into_iter()
        .find(|g| g.current_player() == Some(1))
        .unwrap();
    let with = |sight: Option<bool>| IsmctsConfig {
        iterations: Some(300),
        opponent_sight: sight,
        ..IsmctsConfig::default()
    };
    let search = |c: IsmctsConfig| Ismcts::<BattleLine>::new(c).search(&g).unwrap().children;
    let own = BattleLine::search_params().ismcts_opponent_sight;
    assert_eq!(search(with(Some(own))), search(with(None)));
    assert_ne!(search(with(Some(!own))), search(with(None)));
    let name = with(Some(true)).name();
    assert!(name.ends_with("sight=1"), "{name}");
    assert_eq!(
        crate::agents::AgentSpec::parse(&name).unwrap(),
        crate::agents::AgentSpec::Ismcts(with(Some(true)))
    );
}
