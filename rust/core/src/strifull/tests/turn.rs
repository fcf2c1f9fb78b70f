//! SK-4: the turn — battle moves, replacing, the leader's move and ability, the attack.

use super::*;

fn move_step() -> Pos {
    Pos::new()
        .set("step", json!("move"))
        .leader(0, "ella_de_belberg", "fire", 1)
        .live(0, [true, true, false])
        .down(0, "aA1", "martires_fogo")
        .down(0, "aB1", "martires_agua")
        .down(0, "dA1", "guarda_fogo")
        .down(0, "aA2", "guarda_agua")
        .down(0, "dA2", "guarda_vento")
        .down(0, "dB2", "guarda_terra")
        .side(0, "pile", json!(["cacadores_fogo", "cacadores_agua"]))
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
}

#[test]
fn sk_4_2_battle_moves_step_within_the_zone_or_cross_to_the_other() {
    let g = move_step().game();
    let moves: Vec<String> = legal(&g)
        .into_iter()
        .filter(|a| a.starts_with("move aA1"))
        .collect();
    // aA1: to aB1 (swap), aA2 (swap), dA1 (cross, swap); forward leaves the zone.
    assert_eq!(moves, ["move aA1 aA2", "move aA1 aB1", "move aA1 dA1"]);
    let mut g2 = g.clone();
    act(&mut g2, "move aA1 dA1");
    let v = g2.to_json();
    assert_eq!(cell_json(&v, 0, "aA1")["card"], json!("guarda_fogo"));
    assert_eq!(cell_json(&v, 0, "dA1")["card"], json!("martires_fogo"));
    assert_eq!(g2.step, Step::LeaderMove, "then step II");
    // Into an empty cell of the same half-row.
    let mut g3 = g.clone();
    act(&mut g3, "move aB1 aC1");
    assert_eq!(
        cell_json(&g3.to_json(), 0, "aC1")["card"],
        json!("martires_agua")
    );
}

#[test]
fn sk_4_2_no_move_into_an_eliminated_row() {
    let mut g = move_step().game();
    assert_eq!(rule_of(&mut g, "move aA2 aA3"), "SK-4.2");
    assert_eq!(rule_of(&mut g, "move dB1 dB2"), "SK-4.2");
}

#[test]
fn sk_4_3_a_move_may_not_empty_half_a_row() {
    let mut g = Pos::new()
        .set("step", json!("move"))
        .live(0, [true, true, false])
        .down(0, "aA1", "martires_fogo")
        .down(0, "aB1", "martires_agua")
        .down(0, "dA1", "guarda_fogo")
        .down(0, "aA2", "guarda_agua")
        .down(0, "dB2", "guarda_terra")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .game();
    assert_eq!(
        rule_of(&mut g, "move dA1 dA2"),
        "SK-4.3",
        "dA1 holds row 1's defence alone"
    );
    assert_eq!(
        rule_of(&mut g, "move aA2 dA2"),
        "SK-4.3",
        "aA2 holds row 2's attack alone"
    );
    let mut swap = g.clone();
    act(&mut swap, "move dA1 aA1");
    act(&mut g, "move aB1 aB2");
    assert_eq!(
        cell_json(&g.to_json(), 0, "aB2")["card"],
        json!("martires_agua")
    );
}

#[test]
fn sk_4_4_replacing_from_the_pile_sends_the_troop_to_the_graveyard() {
    let mut g = move_step().game();
    act(&mut g, "replace aA1");
    let v = g.to_json();
    assert_eq!(
        cell_json(&v, 0, "aA1")["card"],
        json!("cacadores_fogo"),
        "the top card"
    );
    assert_eq!(cell_json(&v, 0, "aA1")["revealed"], json!(false));
    assert_eq!(v["sides"][0]["graveyard"], json!(["martires_fogo"]));
    assert_eq!(v["sides"][0]["pile"], json!(["cacadores_agua"]));
    assert_eq!(
        cell_json(&g.view(1), 0, "aA1")["card"],
        Value::Null,
        "it comes face down"
    );
    let mut empty = move_step().side(0, "pile", json!([])).game();
    assert_eq!(rule_of(&mut empty, "replace aA1"), "SK-4.4");
}

#[test]
fn sk_4_2_option_moves_in_leader_row_only() {
    let mut g = move_step()
        .opt("moves_in_leader_row_only", json!(true))
        .game();
    assert_eq!(rule_of(&mut g, "move aA2 dA2"), "SK-4.2");
    act(&mut g, "move aA1 aB1");
}

#[test]
fn sk_4_5_the_leader_moves_to_any_live_row() {
    let mut g = move_step()
        .live(0, [true, true, true])
        .down(0, "aA3", "vigilias_fogo")
        .down(0, "dA3", "vigilias_agua")
        .game();
    act(&mut g, "pass");
    assert_eq!(g.step, Step::LeaderMove);
    assert_eq!(legal(&g), ["pass", "leader 2", "leader 3"]);
    act(&mut g, "leader 3");
    assert_eq!(g.to_json()["sides"][0]["leader_row"], json!(3));
    // Ella has no activated ability: step III is skipped (SK-4.1).
    assert_eq!(g.step, Step::Attack);
}

#[test]
fn sk_4_7_the_attack_is_not_optional() {
    let mut g = move_step().game();
    act(&mut g, "pass");
    act(&mut g, "pass");
    assert_eq!(
        g.step,
        Step::Attack,
        "Ella has no activated ability: no step III"
    );
    assert_eq!(rule_of(&mut g, "pass"), "SK-4.7");
    assert_eq!(rule_of(&mut g, "leader 2"), "SK-4.7");
}

#[test]
fn sk_4_6_aurelio_reveals_a_face_down_enemy_once_a_turn() {
    let pos = Pos::new()
        .set("step", json!("ability"))
        .leader(0, "aurelio", "fire", 1)
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "guarda_fogo")
        .down(1, "aA1", "adeptos_fogo")
        .up(1, "dA1", "adeptos_terra")
        .down(1, "dB1", "adeptos_agua");
    let mut g = pos.game();
    assert_eq!(legal(&g), ["pass", "ability foe aA1", "ability foe dB1"]);
    assert_eq!(rule_of(&mut g, "ability foe dA1"), "SK-4.6");
    assert_eq!(rule_of(&mut g, "ability own aA1"), "SK-4.6");
    act(&mut g, "ability foe dB1");
    assert_eq!(
        cell_json(&g.view(0), 1, "dB1")["card"],
        json!("adeptos_agua")
    );
    assert_eq!(g.step, Step::Attack);
}

#[test]
fn sk_4_6_teodoros_curse_has_three_uses() {
    let pos = Pos::new()
        .set("player", json!(1))
        .set("turn_player", json!(1))
        .set("step", json!("ability"))
        .leader(1, "teodoro", "fire", 1)
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_fogo")
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "guarda_fogo");
    let g = pos.clone().side(1, "ability_uses", json!(2)).game();
    assert_eq!(legal(&g), ["pass", "ability foe aA1", "ability foe dA1"]);
    let mut g = g;
    act(&mut g, "ability foe dA1");
    assert_eq!(g.to_json()["sides"][1]["ability_uses"], json!(3));
    let mut spent = pos.side(1, "ability_uses", json!(3)).game();
    assert_eq!(spent.step, Step::Ability, "a loaded state keeps its step");
    assert_eq!(legal(&spent), ["pass"]);
    assert_eq!(rule_of(&mut spent, "ability foe dA1"), "SK-4.6");
}
