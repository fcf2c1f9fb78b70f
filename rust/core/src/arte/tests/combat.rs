//! AG-4 to AG-6: terrain values, protection, scoring and combat.

use super::*;

/// AG-4.1 to AG-4.3, AG-6.5, AG-6.6: the attack scores terrain values plus the row bonus; the
/// defence scores terrain values only; the higher wins; each card goes to its pile.
#[test]
fn ag_4_terrain_and_row_bonus_decide_a_combat() {
    // P0: U1 (CCA) on a1, row 1 Plain (C3 G2): attack 2*(3+1) + 1 = 9.
    // P1: U7 (GGG) on b1, row 1 Waste: defence 3; U5 (CGG) on a1: defence 3.
    let mut g = combat(
        ROWS,
        [&[("a1", "U1")], &[("b1", "U7"), ("a1", "U5")]],
        0,
        1,
        opts(),
    );
    give(&mut g, 0, &["U20"]);
    give(&mut g, 1, &["U21"]);
    assert_eq!(
        g.combat_scores(cell("a1"), cell("b1")).unwrap(),
        (9, 3, false)
    );
    play(&mut g, "attack a1");
    assert_eq!(g.current(), Some(1));
    play(&mut g, "defend b1");
    let (u1, u7) = (card(&g, "U1"), card(&g, "U7"));
    assert_eq!(
        g.sides[0].victory,
        vec![u1],
        "AG-6.6: the winner to its owner's victory pile"
    );
    assert_eq!(
        g.sides[1].defeated,
        vec![u7],
        "AG-6.6: the loser to the defeated pile"
    );
    // P0's field is empty: the round ends (AG-7.4) and P1's U5 is banked (AG-7.5).
    assert_eq!(g.sides[1].victory, vec![card(&g, "U5")]);
    assert_eq!((g.phase, g.round), (Phase::Deploy, 2));
}

/// AG-4.3: the defence gets no row bonus; AG-4.2: a mage never gets one; row 2 gives guerreiros
/// +1 on attack.
#[test]
fn ag_4_3_defence_has_no_row_bonus() {
    // P0 attacks with U5 (CGG) on b2, row 2 Forest (A3 G2): 1 + 2*(2+1) = 7.
    // P1 (rows Waste, Plain, Peak) defends with U7 (GGG) on a2, row 2 Plain (G2).
    let rows = [["T4", "T2", "T5"], ["T6", "T1", "T3"]];
    let mut g = combat(
        rows,
        [&[("b2", "U5")], &[("a2", "U7"), ("c1", "U8")]],
        0,
        1,
        opts(),
    );
    // U7 on P1's row 2 (Plain, G2): defence 6, no bonus: attack 7 wins.
    assert_eq!(
        g.combat_scores(cell("b2"), cell("a2")).unwrap(),
        (7, 6, false)
    );
    // U8 (C) on P1's row 1 (Waste): 1.
    assert_eq!(
        g.combat_scores(cell("b2"), cell("c1")).unwrap(),
        (7, 1, false)
    );
    play(&mut g, "attack b2");
    play(&mut g, "defend a2");
    assert_eq!(g.sides[0].victory, vec![card(&g, "U5")]);
}

/// AG-6.5: a tie goes to the defence.
#[test]
fn ag_6_5_ties_go_to_the_defence() {
    // P0: U2 (G) on a1, row 1 Plain (G2): attack 2 (the row 1 bonus is for cavaleiros).
    // P1: U3 (AA) on a1, row 1 Waste: defence 2. A tie.
    let mut g = combat(ROWS, [&[("a1", "U2")], &[("a1", "U3")]], 0, 1, opts());
    assert_eq!(
        g.combat_scores(cell("a1"), cell("a1")).unwrap(),
        (2, 2, false)
    );
    play(&mut g, "attack a1");
    play(&mut g, "defend a1");
    assert_eq!(g.sides[1].victory, vec![card(&g, "U3")]);
    assert_eq!(g.sides[0].defeated, vec![card(&g, "U2")]);
}

/// AG-5.3, AG-6.2, AG-6.3: a card behind another in its column can neither attack nor defend.
#[test]
fn ag_5_3_protection_by_the_card_in_front() {
    let f0: &[(&str, &str)] = &[("a1", "U2"), ("a2", "U1"), ("c3", "U7")];
    let f1: &[(&str, &str)] = &[("b1", "U8"), ("b3", "U5"), ("c2", "U11")];
    let mut g = combat(ROWS, [f0, f1], 0, 1, opts());
    // a2 is behind a1; c3 has nothing in front (c1, c2 empty).
    refuse(&mut g, "attack a2", "AG-6.2");
    refuse(&mut g, "attack b1", "AG-6.2");
    assert_eq!(legal(&g), vec!["attack a1", "attack c3"]);
    play(&mut g, "attack a1"); // U2 (G): not purely ranged
                               // P1: b3 is behind b1; c2 is free.
    refuse(&mut g, "defend b3", "AG-6.3");
    refuse(&mut g, "defend a1", "AG-6.3");
    assert_eq!(legal(&g), vec!["defend b1", "defend c2"]);
    play(&mut g, "defend b1");
    // Once b1 has left, b3 is no longer protected; a2 neither.
    assert!(!g.sides[1].protected(cell("b3")));
    assert!(!g.sides[0].protected(cell("a2")));
}

/// AG-6.4: against a purely ranged attack a protected card holding an archer or mage may
/// defend, and then only archers and mages count on both cards; a protected card without
/// them may not; against a mixed attack no protected card may.
#[test]
fn ag_6_4_ranged_defence_exception() {
    // P0 attacks with U3 (AA) on a3, row 3 Peak (M3 A2): 2*(2+1) = 6.
    // P1: U8 (C) on a1 protects U1 (CCA) on a2 and U6 (AM) on a3; U7 (GGG) on b1.
    // P1 rows: Waste, Forest (A3 G2), Peak (M3 A2).
    let rows = [["T1", "T5", "T3"], ["T4", "T2", "T6"]];
    let f0: &[(&str, &str)] = &[("a3", "U3"), ("b1", "U5")];
    let f1: &[(&str, &str)] = &[("a1", "U8"), ("a2", "U1"), ("c1", "U2"), ("c2", "U7")];
    let mut g = combat(rows, [f0, f1], 0, 1, opts());
    play(&mut g, "attack a3");
    // a2 (U1, CCA on Forest): protected, holds an archer: may defend; counts only A: 3.
    // c2 (U7, GGG): protected, no ranged unit: may not.
    assert_eq!(legal(&g), vec!["defend a1", "defend c1", "defend a2"]);
    refuse(&mut g, "defend c2", "AG-6.4");
    assert_eq!(
        g.combat_scores(cell("a3"), cell("a2")).unwrap(),
        (6, 3, true)
    );
    play(&mut g, "defend a2");
    assert_eq!(g.sides[0].victory, vec![card(&g, "U3")]);
    assert_eq!(g.sides[1].defeated, vec![card(&g, "U1")]);

    // A mixed attack (U5: CGG) cannot be met by a protected card, ranged or not.
    let mut g = combat(rows, [f0, f1], 0, 1, opts());
    play(&mut g, "attack b1");
    assert_eq!(legal(&g), vec!["defend a1", "defend c1"]);
    refuse(&mut g, "defend a2", "AG-6.3");
}

/// AG-6.4 (default, the rules notes' reading): any defender holding ranged units, protected
/// or not, counts only its archers and mages against a purely ranged attack, and so does the
/// attacker; a defender without ranged units counts everything.
#[test]
fn ag_6_4_default_ranged_defender_scoring() {
    let rows = [["T1", "T5", "T3"], ["T4", "T2", "T6"]];
    let f0: &[(&str, &str)] = &[("a3", "U3")];
    let f1: &[(&str, &str)] = &[("a1", "U1"), ("b1", "U7")];
    assert_eq!(
        Options::default().ranged_scoring,
        RangedScoring::RangedDefender
    );
    let mut g = combat(rows, [f0, f1], 0, 1, opts());
    play(&mut g, "attack a3");
    // U1 (CCA) on Waste, unprotected: only its archer counts (1); U7 (GGG): no ranged, all 3.
    assert_eq!(
        g.combat_scores(cell("a3"), cell("a1")).unwrap(),
        (6, 1, true)
    );
    assert_eq!(
        g.combat_scores(cell("a3"), cell("b1")).unwrap(),
        (6, 3, false)
    );
}

/// AG-6.4 with `ranged_scoring = "exception"`: only a protected defender (one using the
/// exception) limits the count to archers and mages; an unprotected one counts everything.
#[test]
fn ag_6_4_option_exception_scoring() {
    let rows = [["T1", "T5", "T3"], ["T4", "T2", "T6"]];
    let f0: &[(&str, &str)] = &[("a3", "U3")];
    let f1: &[(&str, &str)] = &[("a1", "U8"), ("a2", "U6"), ("b1", "U1")];
    let o = Options {
        ranged_scoring: RangedScoring::Exception,
        ..opts()
    };
    let mut g = combat(rows, [f0, f1], 0, 1, o);
    play(&mut g, "attack a3");
    assert_eq!(
        g.combat_scores(cell("a3"), cell("b1")).unwrap(),
        (6, 3, false)
    );
    assert!(
        g.combat_scores(cell("a3"), cell("a2")).unwrap().2,
        "protected: the exception"
    );
}
