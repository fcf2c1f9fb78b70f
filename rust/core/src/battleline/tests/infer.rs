//! The redraw weighted by the opponent's last troop play (`battleline::infer`).

use super::*;
use crate::battleline::infer::{hand_weight, play_table, InferSettings};

const ON: Option<InferSettings> = Some(InferSettings { beta: 3.0, pool: 8 });

/// Positions of random games where the player to move redraws with the model (the
/// opponent's latest turn a troop play).
fn positions() -> Vec<BattleLine> {
    let mut out = Vec::new();
    for seed in 0..12u64 {
        let mut n = 0;
        random_game(seed, &Options::default(), |g, _| {
            n += 1;
            if let Some(p) = g.current_player() {
                if n % 4 == 0 && play_table(g, 1 - p, 3.0).is_some() {
                    out.push(g.clone());
                }
            }
        });
    }
    assert!(out.len() > 50, "{} positions", out.len());
    out
}

#[test]
fn inferred_redraw_keeps_the_view_and_reads_nothing_else() {
    for g in positions() {
        let p = g.to_move();
        let r = g.resample_with(p, 11, ON).unwrap();
        assert_eq!(r.view_value(p).unwrap(), g.view_value(p).unwrap());
        check_invariants(&r);
        // Another world with the same view (and the same public last plays) gives the
        // same redraw: the true hidden cards are not read.
        let twin = g.resample_with(p, 12345, None).unwrap();
        let t = twin.resample_with(p, 11, ON).unwrap();
        assert_eq!(t.hands, r.hands);
        assert_eq!(t.troop_deck(), r.troop_deck());
        assert_eq!(t.tactics_deck(), r.tactics_deck());
    }
}

#[test]
fn inferred_redraw_favours_hands_that_explain_the_play() {
    let (mut on, mut off) = (0.0, 0.0);
    for g in positions() {
        let p = g.to_move();
        let t = play_table(&g, 1 - p, 3.0).unwrap();
        for s in 0..20 {
            let a = g.resample_with(p, s, ON).unwrap();
            let b = g.resample_with(p, s, None).unwrap();
            on += hand_weight(&t, a.hands[1 - p].troops()).ln();
            off += hand_weight(&t, b.hands[1 - p].troops()).ln();
        }
    }
    assert!(on > off, "{on} vs {off}");
}

#[test]
fn no_last_troop_play_no_inference() {
    let g = BattleLine::new(5, &Options::default()).unwrap();
    assert!(play_table(&g, 1, 3.0).is_none());
    let a = g.resample_with(0, 3, ON).unwrap();
    let b = g.resample_with(0, 3, None).unwrap();
    assert_eq!(a.hands, b.hands);
    assert_eq!(a.troop_deck(), b.troop_deck());
}
