//! SK-9: abilities — every effect kind and condition of the vocabulary in play.

use super::*;

/// P0 (Ella, token water in row 2, so no fire/earth bonus) attacks with `attacker` at aA1
/// the P1 troop `defender` at dA1; P1's leader is `leader` with the water token in row 1.
fn duel(attacker: &str, defender: &str, leader: &str) -> Pos {
    Pos::new()
        .leader(0, "ella_de_belberg", "water", 2)
        .leader(1, leader, "water", 1)
        .live(0, [true, true, false])
        .down(0, "aA1", attacker)
        .down(0, "aB1", "vigilias_agua")
        .down(0, "dA1", "vigilias_terra")
        .down(0, "aA2", "vigilias_agua")
        .down(0, "dA2", "vigilias_terra")
        .down(1, "aA1", "adeptos_terra")
        .down(1, "dA1", defender)
        .down(1, "dB1", "adeptos_terra")
}

#[test]
fn sk_9_use_defence_makes_the_attacker_use_its_def() {
    // Mártir do Vendaval (wind 5/2) attacks Ilusionista das Chamas (fire 3/4, use_defence):
    // it attacks with DEF 2; fire beats wind: defence 4 + 1.
    let (c, _) = values(
        &duel("martires_vento", "ilusionistas_fogo", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["uses_defence"], json!(true));
    assert_eq!(c["values"], json!([2, 5]));
    // Against a plain defender it attacks with ATK 5.
    let (c, _) = values(
        &duel("martires_vento", "adeptos_fogo", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["uses_defence"], json!(false));
    assert_eq!(c["values"], json!([5, 4]));
}

#[test]
fn sk_9_use_defence_aura_of_a_revealed_guardian_covers_its_row() {
    // P1 attacks P0's defence row 1, guarded by a face-up Guardião da Muralha at dC1.
    let pos = p1_attacks("vigilias_agua")
        .leader(1, "teodoro", "water", 2)
        .live(1, [true, true, false])
        .down(1, "aA2", "adeptos_terra")
        .down(1, "dA2", "adeptos_terra");
    let (c, _) = values(
        &pos.clone().down(0, "dC1", "guarda_terra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["uses_defence"], json!(false), "face down: no aura");
    let (c, _) = values(&pos.up(0, "dC1", "guarda_terra"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["uses_defence"], json!(true));
    assert_eq!(
        c["values"],
        json!([3, 4]),
        "adeptos_fogo attacks with DEF 3; water +1"
    );
}

#[test]
fn sk_9_stat_to_foe_weakens_the_attacker() {
    // Ilusionista das Miragens (wind 3/4): its attacker gets -2 ATK.
    let (c, _) = values(
        &duel("cacadores_terra", "ilusionistas_vento", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    // Caçador das Cavernas (earth 3/4): 3 - 2 = 1; wind beats earth: 4 + 1.
    assert_eq!(c["values"], json!([1, 5]));
}

#[test]
fn sk_9_tempestiva_aura_weakens_opposing_troops_of_one_element_while_revealed() {
    // The printed example: Brigada Tempestiva, ATK 6 / DEF 3, -1 to opposing fire troops.
    let cards = CardSet::reference();
    let t = &cards.troops[cards.troop_index("tempestiva_vento").unwrap()];
    assert_eq!((t.atk, t.def, t.element), (6, 3, Element::Wind));
    let pos = duel("martires_fogo", "adeptos_terra", "lyra"); // fire 4/3 vs earth 3/4
    let (c, _) = values(
        &pos.clone().down(1, "aB1", "tempestiva_vento"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([4, 4]), "face down: no aura");
    let (c, _) = values(
        &pos.clone().up(1, "aB1", "tempestiva_vento"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(
        c["values"],
        json!([3, 4]),
        "face up: -1 to the fire attacker"
    );
    let (c, _) = values(
        &duel("cacadores_terra", "adeptos_terra", "lyra").up(1, "aB1", "tempestiva_vento"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([3, 4]), "other elements are untouched");
}

#[test]
fn sk_9_revealed_support_reaches_the_other_allies_of_its_row() {
    // Cantora das Brasas (fire 3/3) face up at aC1: the other allies of row 1 get +1 ATK.
    let pos = duel("cacadores_terra", "adeptos_terra", "lyra"); // earth 3/4 vs earth 3/4
    let (c, _) = values(
        &pos.clone().up(0, "aC1", "vigilias_fogo"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([4, 4]));
    let (c, _) = values(
        &pos.clone().down(0, "aC1", "vigilias_fogo"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([3, 4]), "face down: no support");
    let (c, _) = values(
        &pos.clone().up(0, "aC2", "vigilias_fogo"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([3, 4]), "another row: no support");
    // Not itself: the Cantora attacking gets nothing from her own ability.
    let (c, _) = values(
        &duel("vigilias_fogo", "adeptos_terra", "lyra").up(0, "aA1", "vigilias_fogo"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([3, 4]));
}

#[test]
fn sk_9_turn_start_growth_on_revealed_troops_up_to_its_cap() {
    // P1 attacks; at the start of P0's next turn the face-up Cantora dos Ventos grows.
    let pos = p1_attacks("vigilias_agua")
        .up(0, "aA1", "vigilias_vento")
        .down(0, "aB1", "vigilias_vento");
    let (_, g) = values(&pos, "aA1", "dA1", &[1, 6]);
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "aA1")["counters"], json!([1, 0]));
    assert_eq!(
        cell_json(&v, 0, "aB1")["counters"],
        json!([0, 0]),
        "face down: no growth"
    );
    let mut capped = pos.0.clone();
    capped["sides"][0]["field"]["aA1"]["growth"] = json!({"vigilias_vento": [3, 0]});
    let (_, g) = values(&Pos(capped), "aA1", "dA1", &[1, 6]);
    assert_eq!(
        cell_json(&g.to_json(), 0, "aA1")["counters"],
        json!([3, 0]),
        "capped at +3"
    );
}

#[test]
fn sk_9_counters_count_in_combat() {
    let mut v = duel("vigilias_vento", "adeptos_terra", "lyra")
        .up(0, "aA1", "vigilias_vento")
        .0;
    v["sides"][0]["field"]["aA1"]["growth"] = json!({"vigilias_vento": [2, 0]});
    // wind 3/3 + 2, wind beats earth +1 = 6 against earth DEF 4.
    let (c, _) = values(&Pos(v), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([6, 4]));
}

#[test]
fn sk_9_ilsa_grows_the_revealed_allies_of_her_row() {
    let pos = p1_attacks("vigilias_agua")
        .leader(0, "ilsa", "earth", 1)
        .up(0, "aA1", "vigilias_fogo")
        .down(0, "aB1", "martires_agua");
    let (_, g) = values(&pos, "aA1", "dA1", &[1, 6]);
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "aA1")["counters"], json!([0, 1]));
    assert_eq!(cell_json(&v, 0, "aB1")["counters"], json!([0, 0]));
    assert_eq!(
        cell_json(&v, 0, "dA1")["counters"],
        json!([0, 1]),
        "revealed by the attack"
    );
}

/// SK-9.1 (abilities stack): Madre Ilsa's growth (up to +2 DEF) and Cantora da Terra's own
/// (up to +3 DEF) each keep their own counter and cap, and the two add up.
#[test]
fn sk_9_1_growth_sources_keep_their_own_counters_and_caps() {
    let pos = p1_attacks("vigilias_agua")
        .leader(0, "ilsa", "earth", 1)
        .up(0, "dB1", "vigilias_terra");
    let (_, g) = values(&pos, "aA1", "dA1", &[1, 6]);
    let v = g.to_json();
    let terra = cell_json(&v, 0, "dB1");
    assert_eq!(
        terra["growth"],
        json!({"ilsa": [0, 1], "vigilias_terra": [0, 1]})
    );
    assert_eq!(terra["counters"], json!([0, 2]));
    // Ilsa's counter at its cap (+2), the Cantora's one short of hers (+3): only hers grows.
    let mut capped = pos.0.clone();
    capped["sides"][0]["field"]["dB1"]["growth"] =
        json!({"ilsa": [0, 2], "vigilias_terra": [0, 2]});
    let (_, g) = values(&Pos(capped), "aA1", "dA1", &[1, 6]);
    let terra = cell_json(&g.to_json(), 0, "dB1").clone();
    assert_eq!(
        terra["growth"],
        json!({"ilsa": [0, 2], "vigilias_terra": [0, 3]})
    );
    assert_eq!(terra["counters"], json!([0, 5]), "+2 and +3 add up");
}

/// SK-9.1 in saved states: `counters` must be the sums of `growth`, and a `growth` key must
/// name a grow ability of the side's leader or faction.
#[test]
fn sk_9_1_saved_growth_is_checked() {
    let pos = p1_attacks("vigilias_agua")
        .leader(0, "ilsa", "earth", 1)
        .up(0, "dB1", "vigilias_terra");
    let with = |growth: Value, counters: Option<Value>| {
        let mut v = pos.0.clone();
        v["sides"][0]["field"]["dB1"]["growth"] = growth;
        if let Some(c) = counters {
            v["sides"][0]["field"]["dB1"]["counters"] = c;
        }
        Pos(v).try_game()
    };
    assert!(with(
        json!({"ilsa": [0, 2], "vigilias_terra": [0, 1]}),
        Some(json!([0, 3]))
    )
    .is_ok());
    for (growth, counters, path) in [
        (json!({"ilsa": [0, 2]}), Some(json!([0, 3])), "dB1.counters"),
        (json!({}), Some(json!([0, 1])), "dB1.counters"),
        (json!({"lyra": [0, 1]}), None, "dB1.growth.lyra"),
        (
            json!({"vigilias_fogo": [0, 1]}),
            None,
            "dB1.growth.vigilias_fogo",
        ),
        (json!({"ilsa#0": [0, 1]}), None, "dB1.growth.ilsa#0"),
    ] {
        let err = with(growth.clone(), counters).unwrap_err().to_string();
        assert!(err.contains(path), "{growth}: {err}");
    }
}

#[test]
fn sk_9_leader_conditions_on_element_and_row() {
    // Corvin: allies of the leader's element get +1 DEF (P1 water token).
    let (c, _) = values(
        &duel("cacadores_terra", "arcanistas_agua", "corvin"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    // earth 3 +1 (earth beats water) vs water 4 + 1 (Corvin) + 1 (P1 leader water, row 1).
    assert_eq!(c["values"], json!([4, 6]));
    // Lyra: allies attacking from her row get +1 ATK (P1 attacks from row 1).
    let (c, _) = values(&p1_attacks("vigilias_agua"), "aA1", "dA1", &[1, 1]);
    // adeptos_fogo 4 + 1 (Lyra) vs water 3 + 1 (water beats fire).
    assert_eq!(c["values"], json!([5, 4]));
}

#[test]
fn sk_9_troop_conditions_on_row_leader_element_and_foe_element() {
    // Cavaleiro Flamejante: +2 ATK attacking from row 1, not from row 2.
    let (c, _) = values(
        &duel("cavaleiros_fogo", "adeptos_terra", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([7, 4]));
    let row2 = duel("vigilias_agua", "adeptos_terra", "lyra").down(0, "aA2", "cavaleiros_fogo");
    let (c, _) = values(&row2, "aA2", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([5, 4]));
    // Cavaleiro de Pedra: +2 DEF when attacked in its leader's row (P1 attacks P0 row 1).
    let pos = p1_attacks("cavaleiros_terra").leader(0, "ella_de_belberg", "fire", 1);
    let (c, _) = values(&pos, "aA1", "dA1", &[1, 1]);
    assert_eq!(
        c["values"],
        json!([5, 6]),
        "earth 4 + 2; Lyra's +1 for the attacker"
    );
    let pos = p1_attacks("cavaleiros_terra")
        .leader(0, "ella_de_belberg", "fire", 2)
        .live(0, [true, true, false])
        .down(0, "aA2", "vigilias_agua")
        .down(0, "dA2", "vigilias_agua");
    let (c, _) = values(&pos, "aA1", "dA1", &[1, 1]);
    assert_eq!(
        c["values"],
        json!([5, 4]),
        "outside the leader's row: no bonus"
    );
    // Adepto do Vento: +2 ATK when its leader holds the wind token.
    let wind = |element: &str| {
        p1_attacks("cavaleiros_terra")
            .leader(1, "teodoro", element, 2)
            .live(1, [true, true, false])
            .down(1, "aA1", "adeptos_vento")
            .down(1, "aA2", "adeptos_fogo")
            .down(1, "dA2", "adeptos_fogo")
            .leader(0, "ella_de_belberg", "fire", 2)
            .live(0, [true, true, false])
            .down(0, "aA2", "vigilias_agua")
            .down(0, "dA2", "vigilias_agua")
    };
    // wind 4/3 (+1 wind beats earth) vs earth DEF 4.
    let (c, _) = values(&wind("wind"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([7, 4]));
    let (c, _) = values(&wind("fire"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([5, 4]));
    // Adepta da Água: +2 DEF against a fire attacker only.
    let (c, _) = values(
        &duel("martires_fogo", "adeptos_agua", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(
        c["values"],
        json!([4, 8]),
        "water 4 + 2 + 1 (water beats fire) + 1 (leader's water)"
    );
    let (c, _) = values(
        &duel("cacadores_terra", "adeptos_agua", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(
        c["values"],
        json!([4, 5]),
        "earth attacker: +1 earth beats water, no +2"
    );
}
