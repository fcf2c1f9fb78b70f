//! Random games: every rule invariant holds all game long; illegal actions change nothing.

use super::*;

#[test]
fn bl_11_random_games_end_and_keep_the_invariants() {
    let mut ends = [0usize; 3];
    for seed in 0..150u64 {
        let g = random_game(seed, &options_for(seed), |g, legal| {
            check_invariants(g);
            // Legal actions are sorted by id and each one validates.
            assert!(legal.windows(2).all(|w| w[0].id() < w[1].id()));
            for &a in legal {
                g.check(a).unwrap_or_else(|e| panic!("listed {a} but: {e}"));
            }
        });
        match g.winner() {
            Some(w) => {
                ends[w] += 1;
                assert!(g.has_won(w) || g.pass_streak >= 2);
            }
            None => {
                ends[2] += 1;
                // A draw only by passing with equal flags (BL-11.3).
                assert!(g.pass_streak >= 2);
                let won = g.flags_won();
                assert_eq!(won[0], won[1]);
            }
        }
    }
    assert!(ends[0] > 20 && ends[1] > 20, "{ends:?}");
}

#[test]
fn illegal_actions_change_nothing() {
    for seed in 0..30u64 {
        let mut rng = GameRng::seed(seed + 1000);
        random_game(seed, &options_for(seed), |g, legal| {
            let before = g.to_value();
            for _ in 0..40 {
                let id = rng.below(crate::battleline::NUM_ACTIONS);
                let a = Action::from_id(id).unwrap();
                if legal.contains(&a) {
                    continue;
                }
                let mut h = g.clone();
                match h.apply(a) {
                    Err(crate::Error::IllegalAction { rule, .. }) => {
                        assert!(rule.starts_with("BL-"), "{rule}")
                    }
                    other => panic!("{a} not in legal list but: {other:?}"),
                }
                assert_eq!(h.to_value(), before);
            }
        });
    }
}

#[test]
fn unseen_pool_is_troops_off_the_table() {
    let g = build(json!({
        "flags": [{"sides": [["R1", "Cavalry"], ["B2"]]}],
        "hands": [["R5"], ["P1"]],
        "discard": ["G7"],
    }));
    let off = cards("R1 B2 G7").iter().fold(0u64, |a, c| a | 1 << c.0);
    assert_eq!(g.unseen_troops(), ALL_TROOPS & !off);
    let _ = CardSet::EMPTY;
    let _ = Deck::Troop;
}
