//! The heuristic value (`evaluate`, docs/battleline.md): zero-sum, symmetric between the
//! players, the true result once the game is over, the tactics limit (BL-6.1) charged, and
//! the flags combined by the game's winning conditions (BL-11.1, BL-11.2).

use super::*;
use crate::battleline::evaluate::{win_probability, OUTCOME};

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
                assert!((-0.99..=0.99).contains(&a), "a running game: {a}");
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
        "hands": [["R10", "R9", "B5", "Y3", "Scout", "Fog", "Mud"], other],
    }));
    assert!(clogged.evaluate_for(0).unwrap() < troops.evaluate_for(0).unwrap());
}

/// BL-4.2, BL-6.1, BL-6.2: a wild card in hand (Leader, Companion Cavalry, Shield Bearers)
/// counts in its owner's best completions while it may be played, as a hand troop does: a
/// hand holding Alexander is worth more than the same hand holding Fog. Kept in hand by the
/// tactics limit, or a Leader after one is in play, it is a held tactics card like Fog.
#[test]
fn a_playable_wild_card_in_hand_completes_formations() {
    let value = |held: &str, flags: Value| {
        let hands = json!([
            ["R10", "R9", "B5", "Y3", "G4", "G3", held],
            ["P8", "P7", "O6", "O5", "G9", "Y8", "B2"]
        ]);
        build(json!({"flags": flags, "hands": hands}))
            .evaluate_for(0)
            .unwrap()
    };
    let open = json!([{"sides": [["B9", "B8"], []]}]);
    assert!(value("Alexander", open.clone()) > value("Fog", open.clone()));
    assert!(value("Cavalry", open.clone()) > value("Fog", open));
    // Player 0 has played a tactics card more than player 1: the limit keeps it in hand.
    let ahead = json!([{"sides": [["B9", "B8"], []]}, {"sides": [["Shield"], []]}]);
    assert_eq!(value("Alexander", ahead.clone()), value("Fog", ahead));
    // One tactics card each, player 0's a Leader: a second Leader may never be played.
    let led = json!([
        {"sides": [["B9", "B8"], []]},
        {"sides": [["Darius"], ["Cavalry"]]}
    ]);
    assert_eq!(value("Alexander", led.clone()), value("Fog", led));
}

/// BL-11.1, BL-11.2: once every flag is decided, three adjacent flags win, else five; the
/// table is the same game seen from either side.
#[test]
fn bl_11_outcomes_of_decided_flags() {
    assert_eq!(OUTCOME[0b001_001_110], 1.0, "1-2-3, against five");
    assert_eq!(OUTCOME[0b101_010_101], 1.0, "five, none adjacent");
    assert_eq!(OUTCOME[0b110_110_110], 1.0, "six, none three adjacent");
    assert_eq!(
        OUTCOME[0b100_011_011], 0.0,
        "five, but the opponent's 5-6-7 break through"
    );
    assert_eq!(OUTCOME[0b010_101_010], 0.0, "four, none adjacent");
    assert_eq!(
        OUTCOME[0b000_000_111], 0.5,
        "both break through: who was first is unknown"
    );
    assert_eq!(OUTCOME[0b000_000_000], 0.0);
    let all = (1usize << NUM_FLAGS) - 1;
    for m in 0..=all {
        assert_eq!(OUTCOME[m] + OUTCOME[all & !m], 1.0, "mask {m:09b}");
    }
}

/// The flags' chances combine exactly: certain flags give the decided outcome, an even
/// chance everywhere an even game, and a flag that completes a breakthrough (BL-11.1) moves
/// the chance of winning more than one that does not.
#[test]
fn flags_combine_by_the_winning_conditions() {
    let mut p = [0.5; NUM_FLAGS];
    assert!((win_probability(&p, [0, 0]) - 0.5).abs() < 1e-12);
    for (f, q) in p.iter_mut().enumerate() {
        *q = if [0, 1, 2, 4, 6].contains(&f) {
            1.0
        } else {
            0.0
        };
    }
    assert_eq!(win_probability(&p, [0, 0]), 1.0);
    // Only flag 8 open: it gives player 0 five flags, or player 1 6-7-8.
    assert_eq!(
        win_probability(&[0.3; NUM_FLAGS], [0b0_0010_1011, 0b0_1101_0100]),
        0.3
    );
    // Player 0 holds flags 0 and 1: flag 2 completes 0-1-2, flag 6 completes nothing.
    let won = [0b11, 0];
    let base = win_probability(&[0.5; NUM_FLAGS], won);
    let mut third = [0.5; NUM_FLAGS];
    third[2] = 0.9;
    let mut far = [0.5; NUM_FLAGS];
    far[6] = 0.9;
    let (third, far) = (win_probability(&third, won), win_probability(&far, won));
    assert!(third > far && far > base, "{third} {far} {base}");
    // Against the sum of OUTCOME over every way the open flags can fall, written out.
    let q: [f64; NUM_FLAGS] = std::array::from_fn(|f| 0.1 + 0.09 * f as f64);
    for won in [
        [0, 0],
        [0b11, 0b1000_0000],
        [0b1_0101, 0b10_1010],
        [0b111, 0],
    ] {
        let mut brute = 0.0;
        for (m, outcome) in OUTCOME.iter().enumerate() {
            let chance: f64 = (0..NUM_FLAGS)
                .map(|f| match (won[0] >> f & 1, won[1] >> f & 1, m >> f & 1) {
                    (1, _, 1) | (_, 1, 0) => 1.0,
                    (1, _, _) | (_, 1, _) => 0.0,
                    (_, _, 1) => q[f],
                    _ => 1.0 - q[f],
                })
                .product();
            brute += chance * outcome;
        }
        let dp = win_probability(&q, won);
        assert!((dp - brute).abs() < 1e-12, "{won:?}: {dp} {brute}");
    }
}

/// A claim player 0 can prove now counts for nearly a won flag.
#[test]
fn a_provable_claim_counts_for_its_prover() {
    let hands = [
        json!(["R1", "O2", "Y3", "G4", "B5", "P6", "R3"]),
        json!(["O1", "Y2", "G3", "B4", "P5", "R6", "O3"]),
    ];
    let proved = build(json!({
        "flags": [{"sides": [["P10", "P9", "P8"], ["B2", "G5"]]}],
        "hands": [hands[0], hands[1]],
    }));
    let open = build(json!({
        "flags": [{"sides": [["P10", "P9"], ["B2", "G5"]]}],
        "hands": [hands[0], hands[1]],
    }));
    assert!(proved.claim_proof(0, 0).is_some_and(|p| p.holds()));
    let (a, b) = (
        proved.evaluate_for(0).unwrap(),
        open.evaluate_for(0).unwrap(),
    );
    assert!(a > b && b > 0.0, "{a} {b}");
}
