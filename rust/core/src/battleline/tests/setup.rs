//! BL-2: setup — the deal and who starts.

use super::*;

// ---- BL-2: setup -----------------------------------------------------------------------------

#[test]
fn bl_2_1_setup_deals_seven_troops_each() {
    let g = BattleLine::new(7, &Options::default()).unwrap();
    for p in 0..2 {
        assert_eq!(g.hands[p].len(), 7);
        assert_eq!(g.hands[p].tactics().len(), 0);
    }
    assert_eq!(g.troop_deck().len(), 46);
    assert_eq!(g.tactics_deck().len(), 10);
    assert_eq!(g.current_player(), Some(0));
    assert_eq!(g.phase, Phase::Play);
    check_invariants(&g);
    // Same seed, same game; another seed, another deal.
    assert_eq!(
        BattleLine::new(7, &Options::default()).unwrap().to_value(),
        g.to_value()
    );
    assert_ne!(
        BattleLine::new(8, &Options::default()).unwrap().to_value(),
        g.to_value()
    );
}

#[test]
fn bl_2_3_first_player_option() {
    let o = Options {
        first_player: 1,
        ..Options::default()
    };
    let g = BattleLine::new(1, &o).unwrap();
    assert_eq!(g.current_player(), Some(1));
    let bad = Options {
        first_player: 2,
        ..Options::default()
    };
    assert!(matches!(
        BattleLine::new(1, &bad),
        Err(crate::Error::Options { .. })
    ));
    // Unknown options are rejected by serde.
    assert!(serde_json::from_value::<Options>(json!({"traitor_troop_only": true})).is_err());
}
