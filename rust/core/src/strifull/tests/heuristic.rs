//! The rule-based player (`heuristic.rs`): it judges only from what the mover sees (SK-10).

use super::*;

/// The heuristic move is a function of the mover's view: on a redraw of everything the
/// mover cannot see, it chooses the same action with the same tie-breaking draws.
#[test]
fn sk_10_the_heuristic_move_reads_only_what_the_mover_sees() {
    let mut buf = Vec::new();
    let mut moves = 0;
    for seed in 0..12 {
        let mut g = Strifull::new(seed, &Options::default()).unwrap();
        let mut rng = GameRng::seed(seed);
        while let Some(p) = g.current_player() {
            let other = g.resample_hidden(p, rng.next_u64());
            let tie_break = rng.next_u64();
            let a = g.heuristic_action(&mut GameRng::seed(tie_break)).unwrap();
            let b = other
                .heuristic_action(&mut GameRng::seed(tie_break))
                .unwrap();
            assert_eq!(a, b, "{}", g.render(Some(p)));
            moves += 1;
            g.legal_actions(&mut buf);
            g.apply(*rng.choose(&buf).unwrap()).unwrap();
        }
    }
    assert!(moves > 500, "{moves}");
}
