//! SK-6: combat — values, elemental and leader bonuses, dice, ties, martyrs and survival rolls.

use super::*;

/// A set with the rulebook example's values: ATK 10 against DEF 8.
fn example_cards() -> String {
    let mut t = String::new();
    for f in ["a", "b"] {
        t += &format!("[[faction]]\nid = \"{f}\"\nname = \"{f}\"\nrecommended = [");
        for i in 0..10 {
            t += &format!("\"{f}{i}\", \"{f}{i}\", \"{f}{i}\", ");
        }
        t += "]\n";
        t += &format!("[[brigade]]\nid = \"{f}b\"\nfaction = \"{f}\"\nname = \"B\"\n");
        t += &format!("[[leader]]\nid = \"{f}l\"\nfaction = \"{f}\"\nname = \"L\"\n");
        for i in 0..10 {
            let (atk, def) = if i == 0 { (10, 8) } else { (1, 1) };
            t += &format!(
                "[[troop]]\nid = \"{f}{i}\"\nbrigade = \"{f}b\"\nname = \"T{i}\"\nelement = \"fire\"\natk = {atk}\ndef = {def}\n"
            );
        }
    }
    t
}

#[test]
fn sk_6_5_the_rulebook_example_advantage_2_die_3_loses_to_die_6() {
    let pos = Pos::new()
        .opt("cards_toml", json!(example_cards()))
        .leader(0, "al", "water", 1)
        .leader(1, "bl", "water", 1)
        .down(0, "aA1", "a0")
        .down(0, "aB1", "a2")
        .down(0, "dA1", "a1")
        .down(1, "aA1", "b1")
        .down(1, "dA1", "b0");
    let (c, g) = values(&pos, "aA1", "dA1", &[3, 6]);
    assert_eq!(c["values"], json!([10, 8]));
    assert_eq!(c["dice"], json!([3, 6]));
    assert_eq!(c["totals"], json!([5, 6]));
    assert_eq!(c["result"], json!("defender"));
    let v = g.to_json();
    assert_eq!(
        v["sides"][0]["graveyard"],
        json!(["a0"]),
        "the loser goes to the graveyard"
    );
    assert!(cell_json(&v, 1, "dA1").is_object());
}

#[test]
fn sk_6_3_leader_element_bonus_only_in_the_leaders_row() {
    let base = Pos::new()
        .leader(1, "teodoro", "wind", 1)
        .down(0, "aA1", "martires_fogo") // fire 4/3
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra"); // earth 3/4: no cycle with fire
    let (c, _) = values(
        &base.leader(0, "ella_de_belberg", "fire", 1),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(
        c["values"],
        json!([5, 4]),
        "fire troop in a fire leader's row: +1"
    );
    let other_row = Pos::new()
        .leader(1, "teodoro", "wind", 1)
        .leader(0, "ella_de_belberg", "fire", 2)
        .live(0, [true, true, false])
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "martires_agua")
        .down(0, "aA2", "martires_agua")
        .down(0, "dA2", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra");
    let (c, _) = values(&other_row, "aA1", "dA1", &[1, 1]);
    assert_eq!(
        c["values"],
        json!([4, 4]),
        "not in the leader's row: no bonus"
    );
    let wrong_element = Pos::new()
        .leader(1, "teodoro", "wind", 1)
        .leader(0, "ella_de_belberg", "water", 1)
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra");
    let (c, _) = values(&wrong_element, "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([4, 4]), "another element: no bonus");
}

#[test]
fn sk_6_4_elemental_advantage_and_its_sum_with_the_leader_bonus() {
    let pos = |p0_element: &str, defender: &str| {
        Pos::new()
            .leader(0, "ella_de_belberg", p0_element, 1)
            .leader(1, "teodoro", "earth", 2)
            .live(1, [true, true, false])
            .down(0, "aA1", "martires_fogo") // fire 4/3
            .down(0, "dA1", "martires_agua")
            .down(1, "aA1", "adeptos_fogo")
            .down(1, "dA1", defender)
            .down(1, "aA2", "adeptos_fogo")
            .down(1, "dA2", "adeptos_fogo")
    };
    // Fire beats wind: +1 to the attacker (arcanistas_vento: wind 4/3).
    let (c, _) = values(&pos("earth", "arcanistas_vento"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([5, 3]));
    // Water beats fire: +1 to the defender (arcanistas_agua: water 3/4).
    let (c, _) = values(&pos("earth", "arcanistas_agua"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([4, 5]));
    // Both bonuses add up: leader's fire in row 1 and advantage over wind.
    let (c, _) = values(&pos("fire", "arcanistas_vento"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([6, 3]));
    // Earth and fire: no relation.
    let (c, _) = values(&pos("earth", "adeptos_terra"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([4, 4]));
}

#[test]
fn sk_6_4_the_cycle_fire_wind_earth_water() {
    use content::Element::*;
    for (a, b) in [(Fire, Wind), (Wind, Earth), (Earth, Water), (Water, Fire)] {
        assert!(a.beats(b) && !b.beats(a));
    }
    assert!(!Fire.beats(Earth) && !Earth.beats(Fire) && !Wind.beats(Water) && !Fire.beats(Fire));
}

#[test]
fn sk_6_6_equal_totals_eliminate_both_troops() {
    let pos = Pos::new()
        .leader(1, "teodoro", "wind", 1)
        .live(1, [true, true, false])
        .down(0, "aA1", "martires_fogo") // fire 4/3
        .down(0, "aB1", "martires_fogo")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra") // earth 3/4
        .down(1, "dB1", "adeptos_terra")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "dA2", "adeptos_fogo");
    let (c, g) = values(&pos, "aA1", "dA1", &[4, 4]);
    assert_eq!(c["values"], json!([4, 4]));
    assert_eq!(c["result"], json!("tie"));
    assert_eq!(c["fell"], json!([true, true]));
    let v = g.to_json();
    assert!(cell_json(&v, 0, "aA1").is_null() && cell_json(&v, 1, "dA1").is_null());
    assert_eq!(v["sides"][0]["graveyard"], json!(["martires_fogo"]));
    assert_eq!(v["sides"][1]["graveyard"], json!(["adeptos_terra"]));
}

#[test]
fn sk_6_2_combat_values_never_drop_below_zero() {
    // Caçador Incendiário (fire, DEF 2) under a Tempestiva aura (-1 to fire) and Teodoro's
    // curse (-2): 2 - 1 - 2 = -1, counted as 0.
    let pos = Pos::new()
        .leader(1, "teodoro", "earth", 2)
        .live(1, [true, true, false])
        .set("player", json!(1))
        .set("turn_player", json!(1))
        .set("step", json!("ability"))
        .down(1, "aA1", "adeptos_fogo") // fire 4/3
        .down(1, "dA1", "adeptos_fogo")
        .up(1, "aA2", "tempestiva_vento")
        .down(1, "dA2", "adeptos_fogo")
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "cacadores_fogo")
        .down(0, "dB1", "guarda_agua");
    let mut g = pos.game();
    act(&mut g, "ability foe dA1");
    assert_eq!(
        g.to_json()["turn_mod"],
        json!({"player": 0, "cell": "dA1", "atk": -2, "def": -2})
    );
    dice(&mut g, &[1, 1]);
    act(&mut g, "attack aA1 dA1");
    assert_eq!(combat(&g)["values"], json!([4, 0]));
    assert_eq!(
        g.to_json()["turn_mod"],
        Value::Null,
        "the curse ends with the turn"
    );
}

#[test]
fn sk_6_7_a_martyrs_defeat_becomes_a_tie_that_takes_the_winner() {
    // Mártir da Rocha (earth 2/5): ties on defeat in the defence zone.
    let (c, g) = values(&p1_attacks("martires_terra"), "aA1", "dA1", &[6, 1]);
    assert_eq!(c["result"], json!("attacker"));
    assert_eq!(c["tie_by_ability"], json!(true));
    assert_eq!(c["fell"], json!([true, true]));
    let v = g.to_json();
    assert_eq!(v["sides"][1]["graveyard"], json!(["adeptos_fogo"]));
    assert_eq!(v["sides"][0]["graveyard"], json!(["martires_terra"]));
    // Mártir do Vendaval ties only when it falls attacking: in defence it simply dies.
    let (c, _) = values(&p1_attacks("martires_vento"), "aA1", "dA1", &[6, 1]);
    assert_eq!(c["tie_by_ability"], json!(false));
    assert_eq!(c["fell"], json!([false, true]));
}

#[test]
fn sk_6_7_an_attacking_martyr_that_loses_takes_the_defender() {
    let pos = Pos::new()
        .leader(1, "lyra", "wind", 1)
        .down(0, "aA1", "martires_fogo")
        .down(0, "aB1", "martires_fogo")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "dB1", "adeptos_terra");
    let (c, _) = values(&pos, "aA1", "dA1", &[1, 6]);
    assert_eq!(c["result"], json!("defender"));
    assert_eq!(c["fell"], json!([true, true]));
}

#[test]
fn sk_6_8_ella_saves_a_troop_defeated_in_her_rows_defence_zone_on_a_six() {
    // Vigília da Terra (earth 2/4) loses to the fire attacker; Ella rolls for it.
    let pos = p1_attacks("vigilias_terra");
    let (c, g) = values(&pos, "aA1", "dA1", &[6, 1, 6]);
    assert_eq!(c["fell"], json!([false, true]));
    assert_eq!(c["survival_rolls"], json!([[], [6]]));
    assert_eq!(c["survived"], json!([false, true]));
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "dA1")["card"], json!("vigilias_terra"));
    assert_eq!(v["sides"][0]["graveyard"], json!([]));
    let (c, g) = values(&pos, "aA1", "dA1", &[6, 1, 5]);
    assert_eq!(c["survival_rolls"], json!([[], [5]]));
    assert_eq!(c["survived"], json!([false, false]));
    assert!(cell_json(&g.to_json(), 0, "dA1").is_null());
}

#[test]
fn sk_6_8_ella_does_not_help_outside_her_row_or_her_defence_zone() {
    let pos = p1_attacks("vigilias_terra")
        .leader(0, "ella_de_belberg", "wind", 2)
        .live(0, [true, true, false])
        .down(0, "aA2", "vigilias_vento")
        .down(0, "dA2", "vigilias_terra");
    let (c, _) = values(&pos, "aA1", "dA1", &[6, 1, 6]);
    assert_eq!(
        c["survival_rolls"],
        json!([[], []]),
        "no roll outside Ella's row"
    );
    assert_eq!(c["survived"], json!([false, false]));
    // Her own attackers are not covered either: P0 attacks from Ella's row and loses.
    let pos = Pos::new()
        .leader(0, "ella_de_belberg", "wind", 1)
        .leader(1, "lyra", "wind", 1)
        .down(0, "aA1", "vigilias_vento")
        .down(0, "aB1", "vigilias_vento")
        .down(0, "dA1", "vigilias_terra")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "dB1", "adeptos_terra");
    let (c, _) = values(&pos, "aA1", "dA1", &[1, 6, 6]);
    assert_eq!(c["fell"], json!([true, false]));
    assert_eq!(c["survival_rolls"], json!([[], []]));
}

#[test]
fn sk_6_8_tie_is_defeat_decides_whether_a_tie_earns_a_survival_roll() {
    // Cavaleiro dos Ventos (wind 4/3) against Adepto do Fogo (fire 4/3): +1 fire beats
    // wind, +2 its own bonus against wind, +1 Lyra's for attacking from her row = 8 vs 3;
    // dice 1 and 6 make totals 6 and 6.
    let pos = p1_attacks("cavaleiros_vento").leader(0, "ella_de_belberg", "earth", 1);
    let (c, _) = values(&pos, "aA1", "dA1", &[1, 6, 6]);
    assert_eq!(c["values"], json!([8, 3]));
    assert_eq!(c["result"], json!("tie"));
    assert_eq!(c["survival_rolls"], json!([[], [6]]));
    assert_eq!(c["survived"], json!([false, true]));
    let strict = pos.opt("tie_is_defeat", json!(false));
    let (c, _) = values(&strict, "aA1", "dA1", &[1, 6, 6]);
    assert_eq!(c["survival_rolls"], json!([[], []]));
    assert_eq!(c["survived"], json!([false, false]));
}

#[test]
fn sk_6_8_a_sentinel_survives_on_its_own_roll() {
    // Sentinela da Runa das Marés (water 2/5): survives on 5+ in the defence zone.
    let pos = Pos::new()
        .set("player", json!(1))
        .set("turn_player", json!(1))
        .set(
            "sides",
            json!([
                {"leader": "ella_de_belberg", "element": "wind", "leader_row": 1,
                 "live_rows": [true, false, false],
                 "field": {"aA1": {"card": "martires_fogo"}, "aB1": {"card": "martires_fogo"},
                           "dA1": {"card": "martires_agua"}}},
                {"leader": "lyra", "element": "wind", "leader_row": 1,
                 "live_rows": [true, false, false],
                 "field": {"aA1": {"card": "adeptos_fogo"}, "dA1": {"card": "sentinelas_agua"},
                           "dB1": {"card": "sentinelas_agua"}}},
            ]),
        )
        .set("player", json!(0))
        .set("turn_player", json!(0));
    let (c, _) = values(&pos, "aA1", "dA1", &[6, 1, 5]);
    assert_eq!(c["fell"], json!([false, true]));
    assert_eq!(c["survived"], json!([false, true]));
    let (c, _) = values(&pos, "aA1", "dA1", &[6, 1, 4]);
    assert_eq!(c["survived"], json!([false, false]));
}
