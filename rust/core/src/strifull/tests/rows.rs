//! SK-7: rows — elimination, the leader's relocation, row 3 stepping up.

use super::*;

#[test]
fn sk_7_1_a_row_falls_with_its_last_defence_troop_and_takes_the_attack_half_along() {
    let pos = Pos::new()
        .leader(1, "lyra", "wind", 2)
        .live(1, [true, true, false])
        .down(0, "aA1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "aB1", "adeptos_agua")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "dA2", "adeptos_terra");
    let (c, g) = values(&pos, "aA1", "dA1", &[6, 1]);
    assert_eq!(c["rows_lost"], json!([[], [1]]));
    let v = g.to_json();
    assert_eq!(v["sides"][1]["live_rows"], json!([false, true, false]));
    assert!(cell_json(&v, 1, "aA1").is_null() && cell_json(&v, 1, "aB1").is_null());
    assert_eq!(
        v["sides"][1]["graveyard"],
        json!(["adeptos_terra", "adeptos_fogo", "adeptos_agua"]),
        "the defeated troop, then the rest of the row in cell order"
    );
    assert!(g.invariant_violation().is_none());
}

#[test]
fn sk_7_2_the_leader_leaves_a_fallen_row_for_the_adjacent_live_row() {
    let pos = Pos::new()
        .leader(1, "lyra", "wind", 1)
        .live(1, [true, true, false])
        .down(0, "aA1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "dA2", "adeptos_terra");
    let (_, g) = values(&pos, "aA1", "dA1", &[6, 1]);
    assert_eq!(g.to_json()["sides"][1]["leader_row"], json!(2));
    assert_eq!(
        g.current_player(),
        Some(1),
        "no decision owed: P1's turn starts"
    );
}

#[test]
fn sk_7_2_with_no_adjacent_live_row_the_leader_goes_to_the_nearest() {
    let pos = Pos::new()
        .leader(1, "lyra", "wind", 1)
        .live(1, [true, false, true])
        .down(0, "aA1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "aA3", "adeptos_fogo")
        .down(1, "dA3", "adeptos_terra");
    let (_, g) = values(&pos, "aA1", "dA1", &[6, 1]);
    assert_eq!(g.to_json()["sides"][1]["leader_row"], json!(3));
}

/// P1 has three live rows, its leader in row 2; P0's attack kills the only defence troop of
/// row 2 (dA2, frontal for aA1 since dA1 is empty).
fn row_two_falls() -> Strifull {
    let pos = Pos::new()
        .leader(1, "lyra", "wind", 2)
        .live(1, [true, true, true])
        .down(0, "aA1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dB1", "adeptos_terra")
        .down(1, "dC1", "adeptos_terra")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "aB2", "adeptos_agua")
        .down(1, "dA2", "adeptos_terra")
        .down(1, "aA3", "tempestiva_fogo")
        .down(1, "dA3", "tempestiva_agua")
        .down(1, "dB3", "tempestiva_vento");
    let mut g = pos.game();
    dice(&mut g, &[6, 1]);
    act(&mut g, "attack aA1 dA2");
    g
}

#[test]
fn sk_7_2_between_two_live_rows_the_owner_chooses_the_leaders_row() {
    let mut g = row_two_falls();
    assert_eq!(combat(&g)["rows_lost"], json!([[], [2]]));
    assert_eq!((g.current_player(), g.step), (Some(1), Step::Relocate));
    // SK-7.4: the defender decides inside the attacker's turn.
    assert_eq!(g.turn_owner(), Some(0));
    assert_eq!(legal(&g), ["leader 1", "leader 3"]);
    assert_eq!(rule_of(&mut g, "leader 2"), "SK-7.2");
    act(&mut g, "leader 3");
    assert_eq!(g.to_json()["sides"][1]["leader_row"], json!(3));
    // Then the step-up decision (SK-7.3).
    assert_eq!((g.current_player(), g.step), (Some(1), Step::StepUp));
}

#[test]
fn sk_7_3_after_row_two_falls_row_three_may_step_up() {
    let mut g = row_two_falls();
    act(&mut g, "leader 3");
    assert_eq!(legal(&g), ["pass", "up"]);
    let mut stay = g.clone();
    act(&mut stay, "pass");
    assert_eq!(
        stay.to_json()["sides"][1]["live_rows"],
        json!([true, false, true])
    );
    act(&mut g, "up");
    let v = g.to_json();
    let s = &v["sides"][1];
    assert_eq!(s["live_rows"], json!([true, true, false]));
    assert_eq!(
        s["leader_row"],
        json!(2),
        "the leader moves up with its row"
    );
    assert_eq!(cell_json(&v, 1, "aA2")["card"], json!("tempestiva_fogo"));
    assert_eq!(cell_json(&v, 1, "dB2")["card"], json!("tempestiva_vento"));
    assert!(cell_json(&v, 1, "aA3").is_null());
    assert_eq!(
        (g.current_player(), g.step),
        (Some(1), Step::Move),
        "then P1's turn"
    );
    assert!(g.invariant_violation().is_none());
}
