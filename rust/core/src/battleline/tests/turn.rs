//! BL-3: the turn — play, claim, draw; a played card comes from the hand.

use super::*;

// ---- BL-3: turn -------------------------------------------------------------------------------

#[test]
fn bl_3_1_turn_is_play_claim_draw() {
    // Player 0 completes a wedge that beats player 1's complete host: the claim step offers
    // the claim, then the draw step asks for a deck, then it is player 1's turn.
    let mut g = build(json!({
        "flags": [{"sides": [["R10", "R9"], ["B1", "G5", "Y7"]]}],
        "hands": [["R8", "O1", "O2", "O3", "O4", "O5", "O6"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
    }));
    play(&mut g, "R8@0");
    assert_eq!(g.phase, Phase::Claim);
    assert_eq!(legal_text(&g), ["claim 0", "done"]);
    play(&mut g, "claim 0");
    assert_eq!(g.flags[0].claimed, Some(0));
    assert_eq!(g.phase, Phase::Draw);
    assert_eq!(legal_text(&g), ["draw troop", "draw tactics"]);
    play(&mut g, "draw tactics");
    assert_eq!(g.hands[0].tactics().len(), 1);
    assert_eq!(g.hands[0].len(), 7);
    assert_eq!((g.to_move, g.phase), (1, Phase::Play));
    check_invariants(&g);
}

#[test]
fn bl_3_1_no_claim_step_without_a_claimable_flag() {
    let mut g = build(json!({
        "hands": [["R8", "O1", "O2", "O3", "O4", "O5", "O6"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
    }));
    play(&mut g, "R8@0");
    assert_eq!(g.phase, Phase::Draw);
    assert_illegal(&mut g, "claim 0", "BL-3.1");
    assert_illegal(&mut g, "O1@1", "BL-3.1");
}

#[test]
fn bl_3_2_claim_at_turn_start_option() {
    let mut g = build(json!({
        "options": {"claim_at_turn_start": true},
        "flags": [{"sides": [["R10", "R9"], ["B1", "G5", "Y7"]]}],
        "hands": [["R8", "O1", "O2", "O3", "O4", "O5", "O6"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
    }));
    play(&mut g, "R8@0");
    // No claim after playing: straight to the draw.
    assert_eq!(g.phase, Phase::Draw);
    play(&mut g, "draw troop");
    play(&mut g, "P1@1");
    play(&mut g, "draw troop");
    // Player 0's next turn starts with the claim.
    assert_eq!((g.to_move, g.phase), (0, Phase::Claim));
    play(&mut g, "claim 0");
    assert_eq!(g.phase, Phase::Play);
}

#[test]
fn bl_3_4_draw_is_forced_from_the_only_deck_with_cards() {
    let mut g = build(json!({
        "hands": [["R8", "O1", "O2", "O3", "O4", "O5", "O6"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
        "discard": ["Alexander", "Darius", "Cavalry", "Shield", "Fog", "Mud", "Scout", "Redeploy", "Deserter", "Traitor"],
        "tactics_played": [5, 5],
    }));
    let top = *g.troop_deck().last().unwrap();
    play(&mut g, "R8@0");
    assert!(g.hands[0].contains(top));
    assert_eq!(g.to_move, 1);
}

#[test]
fn bl_3_5_no_draw_when_decks_are_empty() {
    let mut all: Vec<Value> = (0..60)
        .map(|i| json!(Card(i).to_string()))
        .filter(|c| !["R8", "O1", "P1", "P2"].contains(&c.as_str().unwrap()))
        .collect();
    all.extend(
        [
            "Alexander",
            "Darius",
            "Cavalry",
            "Shield",
            "Fog",
            "Mud",
            "Scout",
            "Redeploy",
            "Deserter",
            "Traitor",
        ]
        .map(|s| json!(s)),
    );
    let mut g = build(json!({
        "hands": [["R8", "O1"], ["P1", "P2"]],
        "discard": all,
        "tactics_played": [5, 5],
    }));
    play(&mut g, "R8@0");
    assert_eq!(g.hands[0].len(), 1);
    assert_eq!((g.to_move, g.phase), (1, Phase::Play));
    assert_illegal(&mut g, "draw troop", "BL-3.1");
}

#[test]
fn bl_3_3_card_must_be_in_hand() {
    let mut g = build(json!({
        "hands": [["R8"], ["P1"]],
    }));
    assert_illegal(&mut g, "R9@0", "BL-3.3");
    assert_illegal(&mut g, "Fog@0", "BL-3.3");
    assert_illegal(&mut g, "Scout", "BL-3.3");
}
