//! SK-5: attacks — frontal and flank targets, attack_any, revealing.

use super::*;

#[test]
fn sk_5_2_frontal_attack_hits_the_first_troop_of_the_column() {
    let pos = p1_full_defence(Pos::new())
        .down(0, "aB1", "martires_fogo")
        .down(0, "dA1", "martires_agua");
    let g = pos.game();
    assert_eq!(
        targets(&g, "aB1"),
        ["dB1"],
        "a full zone: only the frontal target"
    );
    // With dB1 gone, the column's first troop is dB2; dB1's neighbours are open to flanks.
    let mut v = pos.0.clone();
    v["sides"][1]["field"]
        .as_object_mut()
        .unwrap()
        .remove("dB1");
    v["sides"][1]["graveyard"] = json!(["sentinelas_agua"]);
    let g = Pos(v).game();
    assert_eq!(targets(&g, "aB1"), ["dA1", "dC1", "dB2"]);
}

#[test]
fn sk_5_3_flank_attacks_reach_troops_next_to_an_empty_cell_from_any_column() {
    let pos = p1_full_defence(Pos::new())
        .down(0, "aC1", "martires_fogo")
        .down(0, "dA1", "martires_agua");
    let mut v = pos.0.clone();
    v["sides"][1]["field"]
        .as_object_mut()
        .unwrap()
        .remove("dB2");
    let g = Pos(v).game();
    // Frontal dC1, flanks dB1, dA2, dC2, dB3 around the hole at dB2.
    assert_eq!(targets(&g, "aC1"), ["dB1", "dC1", "dA2", "dC2", "dB3"]);
    let mut g2 = g.clone();
    assert_eq!(rule_of(&mut g2, "attack aC1 dA1"), "SK-5.3");
}

#[test]
fn sk_5_3_cells_of_an_eliminated_row_open_flanks_unless_the_option_says_otherwise() {
    let pos = Pos::new()
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "martires_agua")
        .live(1, [true, true, false])
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "dA1", "adeptos_agua")
        .down(1, "dB1", "adeptos_agua")
        .down(1, "dC1", "adeptos_agua")
        .down(1, "dA2", "adeptos_terra")
        .down(1, "dB2", "adeptos_terra")
        .down(1, "dC2", "adeptos_terra");
    assert_eq!(targets(&pos.game(), "aA1"), ["dA1", "dA2", "dB2", "dC2"]);
    let strict = pos.opt("dead_cells_open_flanks", json!(false));
    assert_eq!(targets(&strict.game(), "aA1"), ["dA1"]);
}

#[test]
fn sk_5_4_attack_any_targets_every_defence_troop_and_respects_conditions() {
    let pos = p1_full_defence(Pos::new())
        .live(0, [true, true, false])
        .down(0, "aA1", "cacadores_fogo")
        .down(0, "aA2", "cacadores_vento")
        .down(0, "aB1", "cacadores_vento")
        .down(0, "dA1", "martires_agua")
        .down(0, "dA2", "martires_agua");
    let g = pos.game();
    let all = [
        "dA1", "dB1", "dC1", "dA2", "dB2", "dC2", "dA3", "dB3", "dC3",
    ];
    assert_eq!(targets(&g, "aA1"), all);
    assert_eq!(
        targets(&g, "aB1"),
        all,
        "Caçador Veloz attacks anywhere from row 1"
    );
    assert_eq!(targets(&g, "aA2"), ["dA1"], "... but not from row 2");
}

/// P0 with three live rows and a full defence zone (face down), one attacker per row.
fn p0_full_defence(pos: Pos) -> Pos {
    let cards = [
        ("dA1", "martires_agua"),
        ("dB1", "martires_terra"),
        ("dC1", "guarda_fogo"),
        ("dA2", "guarda_agua"),
        ("dB2", "guarda_vento"),
        ("dC2", "guarda_terra"),
        ("dA3", "cavaleiros_agua"),
        ("dB3", "cavaleiros_terra"),
        ("dC3", "vigilias_terra"),
        ("aA1", "martires_fogo"),
        ("aA2", "martires_fogo"),
        ("aA3", "martires_fogo"),
    ];
    let mut pos = pos.live(0, [true, true, true]);
    for (c, card) in cards {
        pos = pos.down(0, c, card);
    }
    pos
}

#[test]
fn sk_5_4_a_revealed_arcanista_dos_portais_lets_its_row_attack_anywhere() {
    let pos = p0_full_defence(Pos::new())
        .leader(1, "lyra", "fire", 1)
        .live(1, [true, true, false])
        .set("player", json!(1))
        .set("turn_player", json!(1))
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "aB1", "arcanistas_terra")
        .down(1, "dA1", "adeptos_agua")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "dA2", "adeptos_agua");
    let all = [
        "dA1", "dB1", "dC1", "dA2", "dB2", "dC2", "dA3", "dB3", "dC3",
    ];
    assert_eq!(targets(&pos.game(), "aA1"), ["dA1"], "face down: no aura");
    let g = pos.up(1, "aB1", "arcanistas_terra").game();
    assert_eq!(targets(&g, "aA1"), all);
    assert_eq!(
        targets(&g, "aA2"),
        ["dA1"],
        "other rows keep the normal targets"
    );
    assert_eq!(
        targets(&g, "aB1"),
        ["dB1"],
        "the aura reaches the other troops only"
    );
}

#[test]
fn sk_5_5_attacker_and_target_are_revealed() {
    let pos = Pos::new()
        .down(0, "aA1", "vigilias_vento")
        .down(0, "aB1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "dB1", "adeptos_terra");
    let (c, g) = values(&pos, "aA1", "dA1", &[1, 6]);
    assert_eq!(c["result"], json!("defender"));
    let v = g.to_json();
    assert_eq!(cell_json(&v, 1, "dA1")["revealed"], json!(true));
    assert_eq!(cell_json(&v, 1, "dB1")["revealed"], json!(false));
    let (c, g) = values(&pos, "aA1", "dA1", &[6, 1]);
    assert_eq!(c["result"], json!("attacker"));
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "aA1")["revealed"], json!(true));
    assert_eq!(cell_json(&v, 0, "aB1")["revealed"], json!(false));
    // Revealed troops stay revealed (SK-6.9): the next turn starts with aA1 face up.
    assert_eq!(v["step"], json!("move"));
    assert_eq!(v["player"], json!(1));
}
