//! BL-10 and BL-11: passing and the end of the game.

use super::*;

// ---- BL-10 / BL-11: passing, end of game -------------------------------------------------

#[test]
fn bl_10_1_pass_only_without_a_troop_play() {
    let mut g = build(json!({
        "hands": [["R1", "Fog"], ["P1"]],
    }));
    assert_illegal(&mut g, "pass", "BL-10.1");
    let mut g = build(json!({
        "hands": [["Fog", "Scout"], ["P1"]],
    }));
    let l = legal_text(&g);
    assert!(l.contains(&"pass".to_string()) && l.contains(&"Fog@0".to_string()));
    play(&mut g, "pass");
    assert_eq!(g.pass_streak, 1);
}

#[test]
fn bl_11_3_two_passes_end_the_game_more_flags_wins() {
    // Both players can only pass; player 1 has one flag, player 0 none.
    let mut rest: Vec<Value> = (0..60)
        .map(|i| json!(Card(i).to_string()))
        .filter(|c| !["R1", "R2", "R3", "B1", "B2", "B3"].contains(&c.as_str().unwrap()))
        .collect();
    rest.extend(
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
        "flags": [{"sides": [["R1", "R2", "R3"], ["B1", "B2", "B3"]], "claimed": 1, "first_complete": 0}],
        "hands": [[], []],
        "discard": rest,
        "tactics_played": [5, 5],
    }));
    assert_eq!(legal_text(&g), ["pass"]);
    play(&mut g, "pass");
    assert!(!g.is_terminal());
    play(&mut g, "pass");
    assert!(g.is_terminal());
    assert_eq!(g.winner(), Some(1));
    assert_eq!(g.match_points(), Some([0, 5]));
    assert_eq!(g.returns(), vec![-1.0, 1.0]);
    check_invariants(&g);
}

#[test]
fn bl_10_3_after_two_passes_claims_are_made_and_the_game_ends() {
    let mut rest: Vec<Value> = (0..60)
        .map(|i| json!(Card(i).to_string()))
        .filter(|c| !["R1", "R2", "R3", "B1", "B2"].contains(&c.as_str().unwrap()))
        .collect();
    rest.extend(
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
    // Player 0 could claim flag 0 (B1 B2 can never complete: no troop unseen), but keeps
    // declining; after two passes the claim is made for them and the game ends.
    let mut g = build(json!({
        "flags": [{"sides": [["R1", "R2", "R3"], ["B1", "B2"]]}],
        "hands": [[], []],
        "discard": rest,
        "tactics_played": [5, 5],
    }));
    play(&mut g, "pass");
    play(&mut g, "done");
    play(&mut g, "pass");
    assert!(!g.is_terminal(), "player 0 can still claim");
    play(&mut g, "pass");
    assert!(g.is_terminal());
    assert_eq!(g.winner(), Some(0));
    assert_eq!(g.flags[0].claimed, Some(0));
}

#[test]
fn bl_11_1_three_adjacent_flags_win_at_once() {
    let mut g = build(json!({
        "flags": [
            {"sides": [["R1", "R2", "R3"], ["B1", "B2", "B4"]], "claimed": 0},
            {"sides": [["O1", "O2", "O3"], ["G1", "G2", "G4"]], "claimed": 0},
            {"sides": [["Y9", "Y10"], ["P1"]]},
        ],
        "hands": [["Y8", "R10"], ["P2"]],
    }));
    play(&mut g, "Y8@2");
    play(&mut g, "claim 2");
    assert!(g.is_terminal());
    assert_eq!(g.winner(), Some(0));
    assert_eq!(g.match_points(), Some([5, 0]));
    assert_eq!(g.next_game_options().unwrap().first_player, 0);
}

#[test]
fn bl_11_2_five_flags_win() {
    // Player 0 holds flags 0, 2, 4, 6 (no three adjacent) and completes flag 8.
    let won = |a: &str, b: &str| json!({"sides": [[format!("{a}8"), format!("{a}9"), format!("{a}10")], [format!("{b}1"), format!("{b}2"), format!("{b}4")]], "claimed": 0});
    let empty = json!({"sides": [[], []]});
    let mut g = build(json!({
        "flags": [
            won("R", "B"), empty, won("O", "G"), empty, won("Y", "P"), empty,
            {"sides": [["R1", "O1", "Y1"], ["B6", "G3", "P3"]], "claimed": 0},
            empty,
            {"sides": [["R5", "O5"], ["G6", "P7"]]},
        ],
        "hands": [["Y5"], ["P9"]],
    }));
    assert!(!g.has_won(0));
    play(&mut g, "Y5@8");
    assert_eq!(g.phase, Phase::Claim, "{}", g.render_text(None).unwrap());
    play(&mut g, "claim 8");
    assert_eq!(g.winner(), Some(0));
    assert_eq!(g.match_points(), Some([5, 0]));
}
