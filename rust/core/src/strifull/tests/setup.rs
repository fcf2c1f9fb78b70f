//! SK-1, SK-3: decks and setup — deck choices, the deal, changes, element, leader row.

use super::*;

#[test]
fn sk_1_3_the_recommended_decks_follow_the_beginners_tip() {
    let cards = CardSet::reference();
    for f in &cards.factions {
        assert_eq!(f.troops.len(), 20);
        assert_eq!(f.leaders.len(), 3);
        assert_eq!(f.brigades.len(), 5);
        let copies: u32 = f
            .troops
            .iter()
            .map(|&t| u32::from(cards.troops[t].copies))
            .sum();
        assert_eq!(copies, 60, "{}: 60 troop cards", f.id);
        assert_eq!(f.recommended.len(), 30);
        for &t in &f.troops {
            let n = f.recommended.iter().filter(|&&x| x == t).count();
            assert!((1..=3).contains(&n), "at least one of each troop");
        }
        for &b in &f.brigades {
            let n = f
                .recommended
                .iter()
                .filter(|&&t| cards.troops[t].brigade == b)
                .count();
            assert_eq!(n, 6, "four troops plus two more per brigade");
        }
        for &b in &f.brigades {
            let mut elements: Vec<_> = f
                .troops
                .iter()
                .filter(|&&t| cards.troops[t].brigade == b)
                .map(|&t| cards.troops[t].element)
                .collect();
            elements.sort();
            assert_eq!(
                elements,
                content::ELEMENTS.to_vec(),
                "one troop of each element"
            );
        }
    }
}

#[test]
fn sk_1_2_deck_choices_are_checked() {
    let bad = |decks: Value| {
        let opts: Options = serde_json::from_value(json!({ "decks": decks })).unwrap();
        match Strifull::new(1, &opts) {
            Err(Error::Options { message }) => message,
            other => panic!("expected an options error, got {other:?}"),
        }
    };
    let four = json!([
        vec!["martires_fogo"; 4]
            .into_iter()
            .chain(vec!["guarda_fogo"; 26])
            .collect::<Vec<_>>(),
        "recommended"
    ]);
    assert!(bad(four).contains("4 copies"));
    assert!(bad(json!([["martires_fogo"], "recommended"])).contains("30 troops"));
    let inquisition: Vec<String> = CardSet::reference().factions[0]
        .recommended
        .iter()
        .map(|&t| CardSet::reference().troops[t].id.clone())
        .collect();
    assert!(bad(json!(["recommended", inquisition])).contains("faction"));
    let counts: serde_json::Map<String, Value> = CardSet::reference().factions[0]
        .troops
        .iter()
        .take(15)
        .map(|&t| (CardSet::reference().troops[t].id.clone(), json!(2)))
        .collect();
    let opts: Options = serde_json::from_value(json!({"decks": [counts, "random"]})).unwrap();
    let g = Strifull::new(3, &opts).unwrap();
    assert_eq!(g.shared.decks[0].len(), 30);
    for p in 0..2 {
        let faction = g.leader(p).faction;
        g.cards()
            .check_deck(
                faction,
                &g.shared.decks[p]
                    .iter()
                    .map(|&t| t as usize)
                    .collect::<Vec<_>>(),
            )
            .unwrap();
    }
    let unknown: Result<Options, _> = serde_json::from_value(json!({"decks": ["best", "random"]}));
    assert!(unknown.unwrap_err().to_string().contains("unknown deck"));
    let leader: Options = serde_json::from_value(json!({"leaders": ["teodoro", null]})).unwrap();
    assert!(matches!(
        Strifull::new(1, &leader),
        Err(Error::Options { .. })
    ));
}

#[test]
fn sk_3_1_the_deal_puts_18_face_down_troops_and_a_pile_of_12() {
    let g = Strifull::new(11, &Options::default()).unwrap();
    let v = g.to_json();
    for p in 0..2 {
        let s = &v["sides"][p];
        let field = s["field"].as_object().unwrap();
        assert_eq!(field.len(), 18);
        assert!(field.values().all(|c| c["revealed"] == json!(false)));
        assert_eq!(s["pile"].as_array().unwrap().len(), 12);
        assert_eq!(s["graveyard"], json!([]));
        assert_eq!(s["element"], Value::Null);
        assert_eq!(s["leader_row"], Value::Null);
    }
    assert_eq!((g.current_player(), g.step), (Some(0), Step::Changes));
    assert!(g.invariant_violation().is_none());
}

#[test]
fn sk_3_3_up_to_three_changes_then_the_element() {
    let mut g = Strifull::new(11, &Options::default()).unwrap();
    let v0 = g.to_json();
    let (a, b) = (
        v0["sides"][0]["field"]["aA1"]["card"].clone(),
        v0["sides"][0]["field"]["dC3"]["card"].clone(),
    );
    act(&mut g, "swap aA1 dC3");
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "aA1")["card"], b);
    assert_eq!(cell_json(&v, 0, "dC3")["card"], a);
    // A swap with the pile: the top card comes in, the field card goes under the pile.
    let top = v["sides"][0]["pile"][0].clone();
    let out = cell_json(&v, 0, "aB2")["card"].clone();
    act(&mut g, "swap aB2 pile");
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "aB2")["card"], top);
    assert_eq!(cell_json(&v, 0, "aB2")["revealed"], json!(false));
    assert_eq!(v["sides"][0]["pile"][11], out);
    assert_eq!(v["sides"][0]["pile_known"], json!(1));
    // The owner knows that card (SK-10.2); the opponent does not.
    assert_eq!(g.view(0)["sides"][0]["pile"][11], out);
    assert_eq!(g.view(0)["sides"][0]["pile"][0], Value::Null);
    assert_eq!(g.view(1)["sides"][0]["pile"][11], Value::Null);
    act(&mut g, "swap aA2 aA3");
    assert_eq!(g.step, Step::Element, "three changes end the changes");
    assert_eq!(
        rule_of(&mut g, "swap aA1 aB1"),
        "SK-3.4",
        "a fourth change is out of step"
    );
    let mut early = Strifull::new(11, &Options::default()).unwrap();
    act(&mut early, "pass");
    assert_eq!(early.step, Step::Element);
}

#[test]
fn sk_3_2_player_zero_sets_up_first_and_the_choices_stay_secret_until_both_are_done() {
    let mut g = Strifull::new(12, &Options::default()).unwrap();
    assert_eq!(rule_of(&mut g, "element fire"), "SK-3.3");
    act(&mut g, "pass");
    assert_eq!(
        legal(&g),
        [
            "element fire",
            "element water",
            "element wind",
            "element earth"
        ]
    );
    act(&mut g, "element wind");
    assert_eq!(legal(&g), ["leader 1", "leader 2", "leader 3"]);
    act(&mut g, "leader 3");
    assert_eq!((g.current_player(), g.step), (Some(1), Step::Changes));
    assert_eq!(
        g.view(1)["sides"][0]["element"],
        Value::Null,
        "hidden from P1 during setup"
    );
    assert_eq!(g.view(1)["sides"][0]["leader_row"], Value::Null);
    assert_eq!(g.view(0)["sides"][0]["element"], json!("wind"));
    assert!(!g.render(Some(1)).contains("[wind]"));
    act(&mut g, "pass");
    act(&mut g, "element earth");
    dice(&mut g, &[3, 3, 2, 5]);
    act(&mut g, "leader 1");
    // SK-3.6: a tie is rerolled; the higher die starts.
    assert_eq!(
        g.to_json()["first"],
        json!({"player": 1, "dice": [2, 5], "rerolls": 1})
    );
    assert_eq!(g.turn, 1);
    assert_eq!(g.current_player(), Some(1));
    assert_eq!(
        g.view(1)["sides"][0]["element"],
        json!("wind"),
        "public once play begins"
    );
    assert_eq!(g.view(0)["sides"][1]["leader_row"], json!(1));
}
