//! BL-4 and BL-6: placing formation cards, the tactics limit and the Leaders.

use super::*;

// ---- BL-4: placing --------------------------------------------------------------------------

#[test]
fn bl_4_2_three_cards_a_side_four_under_mud() {
    let mut g = build(json!({
        "flags": [
            {"sides": [["R1", "R2", "R3"], []]},
            {"sides": [["O1", "O2", "O3"], []], "env": [{"card": "Mud", "side": 1}]},
        ],
        "hands": [["R8", "R9", "Y1", "Y2", "Y3", "Y4", "Y5"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
        "tactics_played": [0, 1],
    }));
    assert_illegal(&mut g, "R8@0", "BL-4.2");
    play(&mut g, "R8@1");
    assert_eq!(g.flags[1].len[0], 4);
    assert_eq!(g.flags[1].first_complete, Some(0));
}

// ---- BL-6: tactics limit and leaders -------------------------------------------------------

#[test]
fn bl_6_1_tactics_limit_at_most_one_ahead() {
    let mut g = build(json!({
        "flags": [{"sides": [["Cavalry"], []]}],
        "hands": [["R8", "Fog", "Shield"], ["P1", "Mud"]],
    }));
    assert_eq!(g.tactics_played, [1, 0]);
    assert_illegal(&mut g, "Fog@2", "BL-6.1");
    assert_illegal(&mut g, "Shield@2", "BL-6.1");
    assert!(legal(&g)
        .iter()
        .all(|a| matches!(a, Action::Play { card, .. } if card.is_troop())));
    play(&mut g, "R8@2");
    play(&mut g, "draw troop");
    // Player 1 may catch up, then player 0 may play one again.
    play(&mut g, "Mud@3");
    play(&mut g, "draw troop");
    play(&mut g, "Fog@2");
}

#[test]
fn bl_6_2_one_leader_per_player_ever() {
    let mut g = build(json!({
        "hands": [["R8", "Alexander", "Darius"], ["P1", "P2"]],
        "tactics_played": [0, 1],
        "discard": ["Scout"],
    }));
    play(&mut g, "Alexander@0");
    play(&mut g, "draw troop");
    play(&mut g, "P1@0");
    play(&mut g, "draw troop");
    assert_illegal(&mut g, "Darius@1", "BL-6.2");
    // Even after the first Leader left the table (deserted), a second one stays illegal.
    let mut v = g.to_value();
    v["flags"][0]["sides"][0] = json!([]);
    v["discard"] = json!(["Scout", "Alexander"]);
    let mut g = BattleLine::from_value(&v).unwrap();
    assert_illegal(&mut g, "Darius@1", "BL-6.2");
}

/// BL-6.2: a Leader taken with Traitor is the taker's one Leader, so the taker may not
/// then play their own.
#[test]
fn bl_6_2_a_leader_taken_with_traitor_counts_as_played() {
    let mut g = build(json!({
        "flags": [{"sides": [[], ["Darius", "B5"]]}],
        "hands": [["R8", "Traitor", "Alexander"], ["P1", "P2"]],
        "leader_played": [false, true],
    }));
    play(&mut g, "Traitor Darius>2");
    assert_eq!(side(&g, 2, 0), ["Darius"]);
    assert!(g.leader_played()[0]);
    play(&mut g, "draw troop");
    play(&mut g, "P1@3");
    play(&mut g, "draw troop");
    assert_illegal(&mut g, "Alexander@4", "BL-6.2");
    // It stays so once the taken Leader has left the table again.
    let mut v = g.to_value();
    v["flags"][2]["sides"][0] = json!([]);
    v["discard"] = json!(["Traitor", "Darius"]);
    let mut g = BattleLine::from_value(&v).unwrap();
    assert_illegal(&mut g, "Alexander@4", "BL-6.2");
}

#[test]
fn bl_6_2_traitor_cannot_give_a_second_leader() {
    let mut g = build(json!({
        "flags": [{"sides": [["Alexander"], ["Darius", "B5"]]}],
        "hands": [["R8", "Traitor"], ["P1"]],
        "leader_played": [true, true],
    }));
    assert_illegal(&mut g, "Traitor Darius>1", "BL-6.2");
    play(&mut g, "Traitor B5>1");
    assert_eq!(side(&g, 1, 0), ["B5"]);
}
