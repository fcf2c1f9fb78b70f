//! BL-5 and BL-7: formations, Fog and Mud.

use super::*;

// ---- BL-5 / BL-7: formations, Fog, Mud ------------------------------------------------------

#[test]
fn bl_5_1_kind_beats_total() {
    // Player 0: Skirmish 8-9-10 (27); player 1: Battalion 1-2-4 blue (7) — the Battalion wins.
    let g = build(json!({
        "flags": [{"sides": [["R10", "O9", "Y8"], ["B1", "B2", "B4"]]}],
        "hands": [["P9"], ["P1"]],
    }));
    assert!(!g.claim_proof(0, 0).unwrap().holds());
    let proof = g.claim_proof(0, 1).unwrap();
    assert!(proof.holds());
    assert_eq!(proof.mine.kind, Kind::Battalion);
}

#[test]
fn bl_7_2_fog_compares_totals_only() {
    let g = build(json!({
        "flags": [{"sides": [["R10", "O9", "Y8"], ["B1", "B2", "B3"]], "env": [{"card": "Fog", "side": 1}]}],
        "hands": [["P9"], ["P1"]],
    }));
    let p = g.claim_proof(0, 0).unwrap();
    assert!(p.holds(), "{p}");
    assert_eq!(p.mine.total, 27);
    assert!(!g.claim_proof(0, 1).unwrap().holds());
}

#[test]
fn bl_7_3_mud_needs_four_cards() {
    let mut g = build(json!({
        "flags": [{"sides": [["R10", "R9", "R8"], ["B1", "B2"]], "env": [{"card": "Mud", "side": 1}]}],
        "hands": [["R7", "O1"], ["P1"]],
        "tactics_played": [1, 1],
        "discard": ["Scout"],
    }));
    assert!(g.claim_proof(0, 0).is_none());
    play(&mut g, "O1@1");
    assert_eq!(
        g.phase,
        Phase::Draw,
        "nothing to claim with 3 cards under Mud"
    );
    play(&mut g, "draw troop");
    play(&mut g, "P1@1");
    play(&mut g, "draw troop");
    play(&mut g, "R7@0");
    assert_eq!(legal_text(&g), ["claim 0", "done"]);
    let p = g.claim_proof(0, 0).unwrap();
    assert_eq!((p.mine.kind, p.mine.total, p.size), (Kind::Wedge, 34, 4));
}

#[test]
fn bl_7_5_mud_leaving_discards_the_weakest_fourth_card() {
    // Deserter takes player 1's Mud: player 0's R10 R9 R8 B1 drops B1 (Wedge remains);
    // player 1's G5 G5? no: G2 G3 Y4 O9 drops... the card whose loss leaves the best
    // formation: G2 G3 Y4 is a Skirmish (9); losing G2 leaves G3 Y4 O9 Host 16; the best is
    // to drop O9 (Skirmish 2-3-4).
    let mut g = build(json!({
        "flags": [{"sides": [["R10", "B1", "R9", "R8"], ["G2", "O9", "G3", "Y4"]], "env": [{"card": "Mud", "side": 1}], "first_complete": 1}],
        "hands": [["P9", "Deserter"], ["P1"]],
        "tactics_played": [0, 1],
    }));
    play(&mut g, "Deserter Mud");
    assert_eq!(side(&g, 0, 0), ["R10", "R9", "R8"]);
    assert_eq!(side(&g, 0, 1), ["G2", "G3", "Y4"]);
    assert_eq!(g.flags[0].mud, None);
    assert_eq!(g.flags[0].first_complete, Some(1), "player 1 stays first");
    let d: Vec<String> = g.discard().iter().map(|c| c.to_string()).collect();
    assert_eq!(
        d,
        ["Deserter", "Mud", "B1", "O9"],
        "the Mud first, then the fourth cards"
    );
    check_invariants(&g);
    // Player 0's wedge beats player 1's skirmish: claimable now.
    assert_eq!(g.phase, Phase::Claim);
}

#[test]
fn bl_7_5_mud_leaving_tie_discards_lowest_value() {
    // R1 O1 Y1 G1 under Mud: any three make a Phalanx of 1s; all values equal, so the
    // lowest card id goes? No: equal values — the tie-break after value is the lowest id.
    let c = cards("B5 R5 O5 G5");
    let out = crate::battleline::rules::mud_discard_choice(&[c[0], c[1], c[2], c[3]], false);
    assert_eq!(out.to_string(), "R5");
    // Leaving the best: Y3 Y4 Y5 + R9 drops R9 (wedge stays) even though it is the highest.
    let c = cards("Y3 R9 Y4 Y5");
    let out = crate::battleline::rules::mud_discard_choice(&[c[0], c[1], c[2], c[3]], false);
    assert_eq!(out.to_string(), "R9");
    // Under Fog only totals count: drop the lowest value.
    let c = cards("Y3 R9 Y4 Y5");
    let out = crate::battleline::rules::mud_discard_choice(&[c[0], c[1], c[2], c[3]], true);
    assert_eq!(out.to_string(), "Y3");
}

#[test]
fn bl_7_5_mud_redeployed_elsewhere_and_both_sides_completing_at_once() {
    // Both sides hold 3 under Mud (incomplete); player 0 redeploys its Mud to flag 2: both
    // sides complete at once, and the non-acting player counts as first (BL-9.6).
    let mut g = build(json!({
        "flags": [{"sides": [["R10", "R9", "R8"], ["B1", "B2", "B3"]], "env": [{"card": "Mud", "side": 0}]}],
        "hands": [["P9", "Redeploy"], ["P1"]],
        "tactics_played": [1, 1],
        "discard": ["Scout"],
    }));
    assert_eq!(g.flags[0].first_complete, None);
    play(&mut g, "Redeploy Mud>2");
    assert_eq!(g.flags[0].first_complete, Some(1));
    assert_eq!(g.flags[2].mud, Some(0));
    // Player 0's wedge 27 beats the wedge 6 anyway.
    assert_eq!(legal_text(&g), ["claim 0", "done"]);
}
