//! The heuristic value (`evaluate`, docs/battleline.md): zero-sum, symmetric between the
//! players, the true result once the game is over, and the tactics limit (BL-6.1) charged.

use super::*;

/// Zero-sum: whatever the position, one player's value is the other's negated, so a search
/// backing up both players' values sees one game, not two.
#[test]
fn the_value_is_zero_sum_in_every_position() {
    for seed in 0..12u64 {
        random_game(seed, &options_for(seed), |g, _| {
            let (a, b) = (g.evaluate_for(0).unwrap(), g.evaluate_for(1).unwrap());
            assert_eq!(a, -b, "seed {seed}");
            if g.phase == Phase::Over {
                assert!([-1.0, 0.0, 1.0].contains(&a), "a finished game: {a}");
            } else {
                assert!((-0.95..=0.95).contains(&a), "a running game: {a}");
            }
        });
    }
}

/// Swapping what the two players hold (hands and table sides) swaps their values: neither
/// seat is favoured by the formula itself.
#[test]
fn mirrored_positions_have_mirrored_values() {
    let hands = [
        json!(["R10", "R9", "B5", "Y3", "Alexander", "Fog", "G2"]),
        json!(["P8", "P7", "O6", "O5", "G9", "Y8", "Scout"]),
    ];
    let sides = [json!(["R8", "R7"]), json!(["B10", "G10", "Y10"])];
    let g = build(json!({
        "flags": [{"sides": [sides[0], sides[1]]}],
        "hands": [hands[0], hands[1]],
    }));
    let m = build(json!({
        "flags": [{"sides": [sides[1], sides[0]]}],
        "hands": [hands[1], hands[0]],
    }));
    let v = g.evaluate_for(0).unwrap();
    assert!(v != 0.0);
    assert!((m.evaluate_for(1).unwrap() - v).abs() < 1e-12);
    assert!((m.evaluate_for(0).unwrap() + v).abs() < 1e-12);
}

/// BL-6.1: tactics cards the limit keeps in hand are slots that hold no troop; a hand
/// clogged with them is worth less than the same hand holding troops instead.
#[test]
fn bl_6_1_tactics_kept_by_the_limit_cost() {
    let other = json!(["P8", "P7", "O6", "O5", "G9", "Y8", "B2"]);
    let troops = build(json!({
        "hands": [["R10", "R9", "B5", "Y3", "G4", "G3", "G2"], other],
    }));
    let clogged = build(json!({
        "hands": [["R10", "R9", "B5", "Y3", "Alexander", "Fog", "Mud"], other],
    }));
    assert!(clogged.evaluate_for(0).unwrap() < troops.evaluate_for(0).unwrap());
}
