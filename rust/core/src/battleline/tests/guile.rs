//! BL-8: the guile tactics (Scout, Redeploy, Deserter, Traitor).

use super::*;

// ---- BL-8: guile tactics ----------------------------------------------------------------

#[test]
fn bl_8_1_scout_draws_three_returns_two_and_is_remembered() {
    let mut g = build(json!({
        "hands": [["R1", "R2", "R3", "R4", "R5", "R6", "Scout"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
    }));
    let troop_top = *g.troop_deck().last().unwrap();
    play(&mut g, "Scout");
    assert_eq!(g.phase, Phase::ScoutDraw);
    play(&mut g, "draw troop");
    play(&mut g, "draw tactics");
    play(&mut g, "draw tactics");
    assert_eq!(g.phase, Phase::ScoutReturn);
    assert_eq!(g.hands[0].len(), 9);
    assert!(g.hands[0].contains(troop_top));
    play(&mut g, "return R1");
    let tactic = g.hands[0].tactics().iter().next().unwrap();
    play(&mut g, &format!("return {tactic}"));
    // Hand back at 7: no draw step; player 1 to move.
    assert_eq!(g.hands[0].len(), 7);
    assert_eq!((g.to_move, g.phase), (1, Phase::Play));
    assert_eq!(g.troop_deck().last().unwrap().to_string(), "R1");
    assert_eq!(*g.tactics_deck().last().unwrap(), tactic);
    // Player 0 knows both tops; player 1 does not.
    let v0 = g.view_value(0).unwrap();
    let td = v0["troop_deck"].as_array().unwrap();
    assert_eq!(td.last().unwrap(), "R1");
    assert!(td[..td.len() - 1].iter().all(Value::is_null));
    assert_eq!(
        v0["tactics_deck"].as_array().unwrap().last().unwrap(),
        &json!(tactic.to_string())
    );
    let v1 = g.view_value(1).unwrap();
    assert!(v1["troop_deck"]
        .as_array()
        .unwrap()
        .iter()
        .all(Value::is_null));
    // Player 1 draws R1: player 0 now knows it is in player 1's hand.
    play(&mut g, "P1@0");
    play(&mut g, "draw troop");
    let v0 = g.view_value(0).unwrap();
    assert!(v0["hands"][1].as_array().unwrap().contains(&json!("R1")));
    assert_eq!(v0["scout_known"][0]["opponent_hand"], json!(["R1"]));
    // ...until player 1 plays it.
    play(&mut g, "R2@1");
    play(&mut g, "draw troop");
    play(&mut g, "R1@1");
    play(&mut g, "draw troop");
    assert_eq!(
        g.view_value(0).unwrap()["scout_known"][0]["opponent_hand"],
        json!([])
    );
    check_invariants(&g);
}

#[test]
fn bl_8_1_scout_with_one_card_left_returns_none() {
    let mut rest: Vec<Value> = (0..60)
        .map(|i| json!(Card(i).to_string()))
        .filter(|c| !["R1", "R2", "P1", "P2", "Y9"].contains(&c.as_str().unwrap()))
        .collect();
    rest.extend(
        [
            "Alexander",
            "Darius",
            "Cavalry",
            "Shield",
            "Fog",
            "Mud",
            "Redeploy",
            "Deserter",
            "Traitor",
        ]
        .map(|s| json!(s)),
    );
    let mut g = build(json!({
        "hands": [["R1", "R2", "Scout"], ["P1", "P2"]],
        "discard": rest,
        "troop_deck": ["Y9"],
        "tactics_played": [4, 5],
    }));
    play(&mut g, "Scout");
    // The only card is drawn at once and nothing goes back.
    assert!(g.hands[0].contains(Card::parse("Y9").unwrap()));
    assert_eq!((g.to_move, g.phase), (1, Phase::Play));
    // With empty decks Scout cannot be played.
    let mut d = rest.clone();
    d.extend(["Y9", "R2", "P2"].map(|s| json!(s)));
    let mut g = build(json!({
        "hands": [["R1", "Scout"], ["P1"]],
        "discard": d,
        "tactics_deck": [],
        "troop_deck": [],
        "tactics_played": [4, 5],
    }));
    assert_illegal(&mut g, "Scout", "BL-8.1");
}

#[test]
fn bl_8_2_redeploy_moves_or_discards_own_cards_on_unclaimed_flags() {
    let mut g = build(json!({
        "flags": [
            {"sides": [["R10", "R9"], ["B1"]]},
            {"sides": [["R1", "R2", "R3"], ["B2", "B3", "B4"]], "claimed": 0},
        ],
        "hands": [["P9", "Redeploy"], ["P1"]],
        "tactics_played": [0, 1],
        "discard": ["Scout"],
    }));
    assert_illegal(&mut g, "Redeploy R10>0", "BL-8.2");
    assert_illegal(&mut g, "Redeploy R1>2", "BL-9.7");
    assert_illegal(&mut g, "Redeploy B1>2", "BL-8.2");
    assert_illegal(&mut g, "Redeploy R10>1", "BL-9.7");
    let mut h = g.clone();
    play(&mut h, "Redeploy R10>4");
    assert_eq!(side(&h, 4, 0), ["R10"]);
    assert_eq!(side(&h, 0, 0), ["R9"]);
    play(&mut g, "Redeploy R10>discard");
    assert!(g.discard().contains(&Card::parse("R10").unwrap()));
    assert_eq!(g.tactics_played, [1, 1]);
}

#[test]
fn bl_8_3_deserter_discards_an_opponent_card() {
    let mut g = build(json!({
        "flags": [{"sides": [["R10", "R9", "R8"], ["B1", "B2", "B3"]]}],
        "hands": [["P9", "Deserter"], ["P1"]],
    }));
    assert_eq!(g.flags[0].first_complete, Some(0));
    assert_illegal(&mut g, "Deserter R10", "BL-8.3");
    play(&mut g, "Deserter B1");
    assert_eq!(side(&g, 0, 1), ["B2", "B3"]);
    assert_eq!(g.flags[0].first_complete, Some(0));
    // Player 0's wedge: the opponent can no longer reach more than B4 wedge 9.
    assert_eq!(g.phase, Phase::Claim);
}

#[test]
fn bl_9_6_losing_a_card_loses_first_completion() {
    let mut g = build(json!({
        "flags": [{"sides": [["R5", "O5", "Y5"], ["B5", "G5", "P5"]], "first_complete": 0}],
        "hands": [["P9", "Deserter"], ["R1", "Redeploy"]],
    }));
    // Tie: player 0 completed first, so player 0 could claim; player 1 cannot.
    assert!(g.claim_proof(0, 0).unwrap().holds());
    assert_eq!(g.claim_proof(0, 1).unwrap().verdict, Verdict::LosesTie);
    play(&mut g, "P9@3");
    play(&mut g, "done");
    play(&mut g, "draw troop");
    // Player 1 redeploys... its own card away and back is not possible in one move; instead
    // take one of player 0's cards off with a hand-built change: player 0 loses R5.
    let mut v = g.to_value();
    v["flags"][0]["sides"][0] = json!(["O5", "Y5"]);
    v["flags"][0]["first_complete"] = json!(1);
    v["discard"] = json!(["R5"]);
    let mut g = BattleLine::from_value(&v).unwrap();
    // Player 0 re-completes with R... a 5 is gone; with another 5 it would complete later.
    assert_eq!(g.flags[0].first_complete, Some(1));
    play(&mut g, "R1@5");
    // Player 1 (tie, first) can claim a tie against any later 5-phalanx... but player 0 is
    // incomplete: a Phalanx of 5s is still possible? No: all six 5s are used or discarded.
    let p = g.claim_proof(0, 1).unwrap();
    assert!(p.holds(), "{p}");
}

#[test]
fn bl_8_4_traitor_takes_an_opponent_card_to_own_side() {
    let mut g = build(json!({
        "flags": [
            {"sides": [["R10"], ["B9", "Cavalry"]], "env": [{"card": "Fog", "side": 1}]},
            {"sides": [["Shield"], []]},
        ],
        "hands": [["P9", "Traitor"], ["P1"]],
    }));
    assert_eq!(g.tactics_played, [1, 2]);
    let mut h = g.clone();
    play(&mut h, "Traitor B9>0");
    assert_eq!(side(&h, 0, 0), ["R10", "B9"]);
    assert_eq!(side(&h, 0, 1), ["Cavalry"]);
    let mut h = g.clone();
    play(&mut h, "Traitor Fog>0");
    assert_eq!(h.flags[0].fog, Some(0));
    play(&mut g, "Traitor Cavalry>4");
    assert_eq!(side(&g, 4, 0), ["Cavalry"]);
}

#[test]
fn bl_8_4_traitor_troops_only_option() {
    let mut g = build(json!({
        "options": {"traitor_troops_only": true},
        "flags": [{"sides": [["R10"], ["B9", "Cavalry"]]}],
        "hands": [["P9", "Traitor"], ["P1"]],
    }));
    assert_illegal(&mut g, "Traitor Cavalry>0", "BL-8.4");
    play(&mut g, "Traitor B9>0");
}
