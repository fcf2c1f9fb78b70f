//! AG-5.2 and AG-7: deployment, passing and the end of a round.

use super::*;

/// AG-7.1, AG-7.2: no pass on the first turn of a round; a pass needs at most two own cards
/// on the field.
#[test]
fn ag_7_passing_limits() {
    let f0: &[(&str, &str)] = &[("a1", "U2"), ("b1", "U8"), ("c1", "U11")];
    let f1: &[(&str, &str)] = &[("a1", "U12"), ("b1", "U13"), ("c1", "U14")];
    let mut g = combat(ROWS, [f0, f1], 0, 1, opts());
    refuse(&mut g, "pass", "AG-7.1");
    assert!(!legal(&g).contains(&"pass".to_string()));
    // With three cards after both first turns: still no pass (AG-7.2).
    g.combat.as_mut().unwrap().turn = 2;
    refuse(&mut g, "pass", "AG-7.2");
    // Two cards: the pass is allowed.
    g.sides[0].field[cell("c1") as usize] = None;
    g.sides[0].victory.push(card(&g, "U11"));
    assert!(legal(&g).contains(&"pass".to_string()));
    play(&mut g, "pass");
    assert_eq!(g.current(), Some(1));
    assert_eq!(g.combat.unwrap().passes, 1);
}

/// AG-7.1: the second player's first turn of a round is an attack too, even with at most two
/// cards on its field; on its next turn it may pass.
#[test]
fn ag_7_1_no_pass_on_the_second_players_first_turn() {
    let f0: &[(&str, &str)] = &[("a1", "U2"), ("b1", "U8"), ("c1", "U11")];
    let f1: &[(&str, &str)] = &[("a1", "U12"), ("b1", "U13")];
    let mut g = combat(ROWS, [f0, f1], 0, 1, opts());
    play(&mut g, "attack c1");
    play(&mut g, "defend a1");
    // P1 to attack, with at most two cards: still its first turn of the round.
    assert_eq!(g.current(), Some(1));
    assert!(g.sides[1].field_count() <= 2);
    refuse(&mut g, "pass", "AG-7.1");
    assert!(!legal(&g).contains(&"pass".to_string()));
    // The same position one turn later (its second turn): the pass is allowed.
    g.combat.as_mut().unwrap().turn = 3;
    assert!(legal(&g).contains(&"pass".to_string()));
}

/// AG-7.3, AG-7.5: two passes in a row end the round, every card on a field going to its
/// owner's victory pile; an attack in between resets the count.
#[test]
fn ag_7_3_two_passes_end_the_round() {
    let f0: &[(&str, &str)] = &[("a1", "U2"), ("b1", "U8")];
    let f1: &[(&str, &str)] = &[("a1", "U12"), ("b1", "U13")];
    let mut g = combat(ROWS, [f0, f1], 0, 1, opts());
    g.combat.as_mut().unwrap().turn = 2;
    // Give both players cards for round 2.
    give(&mut g, 0, &["U20"]);
    give(&mut g, 1, &["U21"]);
    play(&mut g, "pass");
    play(&mut g, "attack a1"); // P1 attacks instead: no round end
    play(&mut g, "defend b1");
    assert_eq!(g.combat.unwrap().passes, 0);
    assert_eq!(g.phase, Phase::Combat);
    // P0 (one card left each) passes, P1 passes: the round ends.
    assert_eq!(g.current(), Some(0));
    play(&mut g, "pass");
    play(&mut g, "pass");
    assert_eq!((g.phase, g.round), (Phase::Deploy, 2));
    assert_eq!(g.sides[0].field_count() + g.sides[1].field_count(), 0);
    let banked = |p: usize| g.sides[p].victory.len();
    assert_eq!(
        banked(0) + banked(1),
        3,
        "one combat winner and two banked cards"
    );
    // Round 2's first attacker is round 1's second (AG-5.1), and deploys first.
    assert_eq!(g.current(), Some(1));
}

/// AG-5.2: deployment is secret and simultaneous; the other player sees only how many cards
/// were deployed, then both sides are turned up.
#[test]
fn ag_5_2_secret_deployment() {
    let mut g = combat(ROWS, [&[("a1", "U2")], &[("a1", "U3")]], 0, 1, opts());
    give(&mut g, 0, &["U1", "U4", "U5"]);
    give(&mut g, 1, &["U6", "U7", "U8"]);
    play(&mut g, "attack a1");
    play(&mut g, "defend a1"); // a tie: P1 wins; both fields empty -> round 2, P1 first
    assert_eq!((g.phase, g.current()), (Phase::Deploy, Some(1)));
    refuse(&mut g, "deploy U1 a1", "AG-5.2");
    play(&mut g, "deploy U6 a1");
    refuse(&mut g, "deploy U7 a1", "AG-5.2");
    refuse(&mut g, "deploy U6 b1", "AG-5.2");
    play(&mut g, "deploy U7 b2");
    play(&mut g, "deploy U8 c3");
    let v0 = g.view(0);
    assert_eq!(v0["players"][1]["deploying"].as_array().unwrap().len(), 3);
    assert!(v0["players"][1]["deploying"][0]["card"].is_null());
    assert_eq!(
        v0["players"][1]["units"],
        serde_json::json!(["U6", "U7", "U8"])
    );
    assert_eq!(g.current(), Some(0));
    play(&mut g, "deploy U1 a1");
    play(&mut g, "deploy U4 a2");
    play(&mut g, "deploy U5 a3");
    assert_eq!(g.phase, Phase::Combat);
    assert_eq!(g.sides[1].field[cell("b2") as usize], Some(card(&g, "U7")));
    assert_eq!(g.current(), Some(1));
    // Alternating deployment (option): one card each, face up, the first attacker first.
    let o = Options {
        deployment: Deployment::Alternating,
        ..opts()
    };
    let mut g = combat(ROWS, [&[("a1", "U2")], &[("a1", "U3")]], 0, 1, o);
    give(&mut g, 0, &["U1", "U4"]);
    give(&mut g, 1, &["U6", "U7"]);
    play(&mut g, "attack a1");
    play(&mut g, "defend a1");
    play(&mut g, "deploy U6 a1");
    assert_eq!(g.sides[1].field[0], Some(card(&g, "U6")));
    assert_eq!(g.current(), Some(0));
    play(&mut g, "deploy U1 c1");
    play(&mut g, "deploy U7 b1");
    play(&mut g, "deploy U4 c2");
    assert_eq!((g.phase, g.current()), (Phase::Combat, Some(1)));
}
