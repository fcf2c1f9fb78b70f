//! Hand-built positions for each rule (named after the rule ids of
//! docs/rules/arte-da-guerra.md), and properties checked along random games.

use super::cards::Card;
use super::notation::{self, Action};
use super::state::{Arte, Combat, Held, Phase, Side};
use super::{Deployment, Options, RangedScoring, SuddenDeathRow};
use crate::error::Error;
use crate::game::{Game, Player};
use crate::rng::GameRng;
use serde_json::Value;

/// A small set with predictable ids: T1 Plain (C3 G2), T2 Forest (A3 G2), T3 Peak (M3 A2),
/// T4..T9 Waste (favours nothing); U1 CCA, U2 G, U3 AA, U4 M, U5 CGG, U6 AM, U7 GGG, U8 C,
/// U9 MM, U10 AAA, U11..U27 G.
const TEST_SET: &str = r#"
[[terrain]]
name = "Plain"
favours = { cavaleiro = 3, guerreiro = 2 }
[[terrain]]
name = "Forest"
favours = { arqueiro = 3, guerreiro = 2 }
[[terrain]]
name = "Peak"
favours = { mago = 3, arqueiro = 2 }
[[terrain]]
name = "Waste"
favours = {}
copies = 6
[[unit]]
units = ["cavaleiro", "cavaleiro", "arqueiro"]
[[unit]]
units = ["guerreiro"]
[[unit]]
units = ["arqueiro", "arqueiro"]
[[unit]]
units = ["mago"]
[[unit]]
units = ["cavaleiro", "guerreiro", "guerreiro"]
[[unit]]
units = ["arqueiro", "mago"]
[[unit]]
units = ["guerreiro", "guerreiro", "guerreiro"]
[[unit]]
units = ["cavaleiro"]
[[unit]]
units = ["mago", "mago"]
[[unit]]
units = ["arqueiro", "arqueiro", "arqueiro"]
[[unit]]
units = ["guerreiro"]
copies = 17
"#;

fn opts() -> Options {
    Options {
        cards_toml: Some(TEST_SET.into()),
        ..Default::default()
    }
}

fn card(g: &Arte, label: &str) -> Card {
    g.set.parse_label(label).unwrap()
}

fn cell(name: &str) -> u8 {
    notation::parse_cell(name).unwrap()
}

fn act(g: &Arte, text: &str) -> Action {
    g.parse_action(text).unwrap()
}

fn play(g: &mut Arte, text: &str) {
    let a = act(g, text);
    if let Err(e) = g.apply(a) {
        panic!("{text}: {e}\n{}", g.render(None));
    }
    g.check_invariants().unwrap();
}

fn rule_of(r: crate::error::Result<()>) -> String {
    match r {
        Err(Error::IllegalAction { rule, .. }) => rule,
        other => panic!("expected an illegal action, got {other:?}"),
    }
}

/// Apply an illegal action: it fails with `rule` and changes nothing.
fn refuse(g: &mut Arte, text: &str, rule: &str) {
    let before = g.to_json();
    let a = act(g, text);
    assert_eq!(rule_of(g.apply(a)), rule, "{text}");
    assert_eq!(g.to_json(), before, "{text} changed the state");
}

fn legal(g: &Arte) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v.into_iter().map(|a| g.action_notation(a)).collect()
}

/// Put cards (from the piles) into player `p`'s unit hand.
fn give(g: &mut Arte, p: Player, labels: &[&str]) {
    for l in labels {
        let c = take(g, l);
        g.sides[p].units.push(Held {
            card: c,
            secret: false,
        });
    }
}

/// Remove a card from the piles (where the builder keeps every card it has not placed).
fn take(g: &mut Arte, label: &str) -> Card {
    let c = card(g, label);
    for pile in &mut g.piles {
        pile.retain(|&x| x != c);
    }
    c
}

/// A combat position in round `round`: rows (terrain labels) and field cards per player,
/// `attacker` to attack. Every other card waits in the piles.
fn combat(
    rows: [[&str; 3]; 2],
    fields: [&[(&str, &str)]; 2],
    attacker: Player,
    round: u8,
    options: Options,
) -> Arte {
    let mut g = Arte::setup(1, &options).unwrap();
    let nt = g.set.num_terrain() as Card;
    g.piles = [(0..nt).collect(), (nt..g.set.len() as Card).collect()];
    g.draft = None;
    g.discard.clear();
    g.sides = [Side::default(), Side::default()];
    for p in 0..2 {
        for (r, t) in rows[p].iter().enumerate() {
            let t = take(&mut g, t);
            g.sides[p].rows[r] = Some(t);
        }
        for (x, u) in fields[p] {
            let u = take(&mut g, u);
            g.sides[p].field[cell(x) as usize] = Some(u);
        }
    }
    g.phase = Phase::Combat;
    g.round = round;
    // round_first(round) must be `attacker`.
    g.first_attacker = Some(attacker ^ usize::from((round - 1) & 1));
    g.combat = Some(Combat {
        attacker,
        turn: 0,
        passes: 0,
        attack: None,
    });
    g.check_invariants().unwrap();
    assert_eq!(g.current(), Some(attacker));
    g
}

const ROWS: [[&str; 3]; 2] = [["T1", "T2", "T3"], ["T4", "T5", "T6"]];

// ---- AG-2: the draft ----------------------------------------------------------------------

/// AG-2.1 to AG-2.6: the three stages, who decides, what each player sees, where the cards go.
#[test]
fn ag_2_draft_stages_visibility_and_cards() {
    let mut g = Arte::new(7, &opts()).unwrap();
    let set = g.set.clone();
    let d = g.draft.clone().unwrap();
    assert_eq!(
        (d.picker, g.current()),
        (0, Some(0)),
        "AG-2.1: player 0 picks first"
    );
    // AG-2.2: the picker sees the three cards, the other player none.
    assert!(g.view(0)["draft"]["slots"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v.is_string()));
    assert!(g.view(1)["draft"]["slots"]
        .as_array()
        .unwrap()
        .iter()
        .all(Value::is_null));
    let [a, b, c] = d.slots.map(Option::unwrap);
    refuse(&mut g, "take ?", "AG-1.5");
    let undrawn = (0..9).find(|t| ![a, b, c].contains(t)).unwrap();
    refuse(&mut g, &format!("hide {}", set.label(undrawn)), "AG-2.2");
    play(&mut g, &format!("hide {}", set.label(b)));
    // The chooser now sees the two shown cards, not the hidden one.
    let v1 = g.view(1);
    let slots = v1["draft"]["slots"].as_array().unwrap();
    assert_eq!(slots[0], Value::from(set.label(a)));
    assert!(slots[1].is_null());
    assert_eq!(slots[2], Value::from(set.label(c)));
    assert_eq!(
        g.current(),
        Some(1),
        "AG-2.3: the other player chooses first"
    );
    assert_eq!(
        legal(&g),
        vec![
            "take ?".to_string(),
            format!("take {}", set.label(a.min(c))),
            format!("take {}", set.label(a.max(c)))
        ]
    );
    refuse(&mut g, &format!("take {}", set.label(b)), "AG-2.3");
    // AG-9.2: that refusal does not tell the chooser which card is face down: it reads like
    // the refusal of a card that was never drawn.
    let refusal = |g: &Arte, c: Card| match g.check(Action::Take(c)) {
        Err(Error::IllegalAction { rule, message }) => {
            (rule, message.replace(&set.label(c), "<card>"))
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(refusal(&g, b), refusal(&g, undrawn));
    // AG-2.3: the chooser takes the face-down card: the picker saw it, so it is not secret.
    play(&mut g, "take ?");
    assert_eq!(
        g.sides[1].terrains,
        vec![Held {
            card: b,
            secret: false
        }]
    );
    assert_eq!(g.current(), Some(0), "AG-2.4: then the picker");
    refuse(&mut g, "take ?", "AG-2.4");
    play(&mut g, &format!("take {}", set.label(c)));
    // AG-2.5: the last card is discarded face up; the next draft is player 1's.
    assert_eq!(g.discard, vec![a]);
    assert_eq!(g.draft.as_ref().unwrap().picker, 1);

    // Draft 2: player 1 picks and keeps the face-down card: secret from player 0 (AG-2.6).
    let d = g.draft.clone().unwrap();
    let [x, y, z] = d.slots.map(Option::unwrap);
    play(&mut g, &format!("hide {}", set.label(z)));
    play(&mut g, &format!("take {}", set.label(x)));
    play(&mut g, "take ?");
    assert_eq!(
        g.sides[1].terrains[1],
        Held {
            card: z,
            secret: true
        }
    );
    assert_eq!(g.discard, vec![a, y]);
    let v0 = g.view(0);
    assert_eq!(v0["players"][1]["terrains"][1], Value::Null);
    assert_eq!(v0["players"][1]["secret"], serde_json::json!([null]));
    assert_eq!(
        g.view(1)["players"][1]["terrains"][1],
        Value::from(set.label(z))
    );
    // The undrawn piles are hidden from both players.
    for p in 0..2 {
        assert!(g.view(p)["piles"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .all(Value::is_null));
    }
}

/// AG-2.1: three terrain drafts, then nine unit drafts, pickers alternating throughout;
/// afterwards each player holds 3 terrain and 9 unit cards and 12 cards are discarded.
#[test]
fn ag_2_1_twelve_drafts_then_placement() {
    let mut g = Arte::new(3, &opts()).unwrap();
    let mut rng = GameRng::seed(5);
    for k in 0..12 {
        let d = g.draft.clone().unwrap();
        assert_eq!(d.picker, k % 2);
        assert_eq!(d.kind == super::state::Kind::Terrain, k < 3);
        for _ in 0..3 {
            let mut v = Vec::new();
            g.legal_actions(&mut v);
            g.apply(*rng.choose(&v).unwrap()).unwrap();
        }
    }
    assert_eq!(g.phase, Phase::Terrain);
    for s in &g.sides {
        assert_eq!((s.terrains.len(), s.units.len()), (3, 9));
    }
    assert_eq!(g.discard.len(), 12);
    assert_eq!(g.piles[0].len() + g.piles[1].len(), g.set.len() - 24 - 12);

    // The rules option `draft_order = "restart"`: the unit drafts start again with player 0.
    let o = Options {
        draft_order: super::DraftOrder::Restart,
        ..opts()
    };
    let mut g = Arte::new(3, &o).unwrap();
    for k in 0..12 {
        assert_eq!(
            g.draft.as_ref().unwrap().picker,
            if k < 3 { k % 2 } else { (k - 3) % 2 }
        );
        for _ in 0..3 {
            let mut v = Vec::new();
            g.legal_actions(&mut v);
            g.apply(v[0]).unwrap();
        }
    }
    assert_eq!(g.phase, Phase::Terrain);
}

// ---- AG-3: terrain placement ----------------------------------------------------------

fn after_draft(seed: u64, options: &Options) -> Arte {
    let mut g = Arte::new(seed, options).unwrap();
    let mut rng = GameRng::seed(seed);
    while g.phase == Phase::Draft {
        let mut v = Vec::new();
        g.legal_actions(&mut v);
        g.apply(*rng.choose(&v).unwrap()).unwrap();
    }
    g
}

/// AG-3.2: each player puts one terrain card on each row, in secret; the rows are turned up
/// when both have placed, and the coin toss for round 1 follows (AG-5.1).
#[test]
fn ag_3_2_secret_terrain_placement() {
    let mut g = after_draft(11, &opts());
    let set = g.set.clone();
    assert_eq!(g.current(), Some(0));
    let t: Vec<Card> = g.sides[0].terrains.iter().map(|h| h.card).collect();
    play(&mut g, &format!("place {} 2", set.label(t[0])));
    refuse(&mut g, &format!("place {} 2", set.label(t[1])), "AG-3.2");
    refuse(&mut g, &format!("place {} 1", set.label(t[0])), "AG-3.2");
    let foreign = g.sides[1].terrains[0].card;
    refuse(&mut g, &format!("place {} 1", set.label(foreign)), "AG-3.2");
    refuse(&mut g, "pass", "AG-1.5");
    play(&mut g, &format!("place {} 1", set.label(t[1])));
    play(&mut g, &format!("place {} 3", set.label(t[2])));
    // Player 1 places next, seeing nothing of player 0's placement.
    assert_eq!(g.current(), Some(1));
    let v1 = g.view(1);
    assert_eq!(
        v1["players"][0]["placing"],
        serde_json::json!([{"card": null, "row": null}, {"card": null, "row": null}, {"card": null, "row": null}])
    );
    assert_eq!(
        v1["players"][0]["rows"],
        serde_json::json!([null, null, null])
    );
    assert_eq!(g.view(0)["players"][0]["placing"][0]["row"], 2);
    let u: Vec<Card> = g.sides[1].terrains.iter().map(|h| h.card).collect();
    for (i, &c) in u.iter().enumerate() {
        play(&mut g, &format!("place {} {}", set.label(c), i + 1));
    }
    assert_eq!(g.sides[0].rows, [Some(t[1]), Some(t[0]), Some(t[2])]);
    assert_eq!(g.sides[1].rows, [Some(u[0]), Some(u[1]), Some(u[2])]);
    assert!(g
        .sides
        .iter()
        .all(|s| s.terrains.is_empty() && s.placing.is_empty()));
    assert_eq!((g.phase, g.round), (Phase::Deploy, 1));
    assert!(g.first_attacker.is_some());
    assert_eq!(
        g.current(),
        g.first_attacker,
        "AG-5.2: the first attacker deploys first"
    );
}

// ---- AG-4 and AG-6: scoring and combat ------------------------------------------------

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
    // Unprotected defenders count everything (default reading).
    assert_eq!(
        g.combat_scores(cell("a3"), cell("a1")).unwrap(),
        (6, 1, false)
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

/// AG-6.4 with `ranged_scoring = "ranged_defender"`: any defender holding ranged units counts
/// only its archers and mages against a purely ranged attack.
#[test]
fn ag_6_4_option_ranged_defender_scoring() {
    let rows = [["T1", "T5", "T3"], ["T4", "T2", "T6"]];
    let f0: &[(&str, &str)] = &[("a3", "U3")];
    let f1: &[(&str, &str)] = &[("a1", "U1"), ("b1", "U7")];
    let o = Options {
        ranged_scoring: RangedScoring::RangedDefender,
        ..opts()
    };
    let mut g = combat(rows, [f0, f1], 0, 1, o);
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
    let g2 = combat(rows, [f0, f1], 0, 1, opts());
    let mut g2 = g2;
    play(&mut g2, "attack a3");
    assert_eq!(
        g2.combat_scores(cell("a3"), cell("a1")).unwrap(),
        (6, 3, false)
    );
}

// ---- AG-7: passing and the end of a round ---------------------------------------------

/// AG-7.1, AG-7.2: no pass on the first turn of a round; a pass needs at most two own cards
/// on the field.
#[test]
fn ag_7_passing_limits() {
    let f0: &[(&str, &str)] = &[("a1", "U2"), ("b1", "U8"), ("c1", "U11")];
    let f1: &[(&str, &str)] = &[("a1", "U12"), ("b1", "U13"), ("c1", "U14")];
    let mut g = combat(ROWS, [f0, f1], 0, 1, opts());
    refuse(&mut g, "pass", "AG-7.1");
    assert!(!legal(&g).contains(&"pass".to_string()));
    // With three cards after the first turn: still no pass (AG-7.2).
    g.combat.as_mut().unwrap().turn = 1;
    refuse(&mut g, "pass", "AG-7.2");
    // Two cards: the pass is allowed.
    g.sides[0].field[cell("c1") as usize] = None;
    g.sides[0].victory.push(card(&g, "U11"));
    assert!(legal(&g).contains(&"pass".to_string()));
    play(&mut g, "pass");
    assert_eq!(g.current(), Some(1));
    assert_eq!(g.combat.unwrap().passes, 1);
}

/// AG-7.3, AG-7.5: two passes in a row end the round, every card on a field going to its
/// owner's victory pile; an attack in between resets the count.
#[test]
fn ag_7_3_two_passes_end_the_round() {
    let f0: &[(&str, &str)] = &[("a1", "U2"), ("b1", "U8")];
    let f1: &[(&str, &str)] = &[("a1", "U12"), ("b1", "U13")];
    let mut g = combat(ROWS, [f0, f1], 0, 1, opts());
    g.combat.as_mut().unwrap().turn = 1;
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

// ---- AG-8: the end and sudden death -----------------------------------------------------

/// A finished round 3 with equal victory piles: sudden death.
fn tied_end(options: Options) -> Arte {
    let f0: &[(&str, &str)] = &[("a1", "U2")];
    let f1: &[(&str, &str)] = &[("a1", "U3")];
    // Round 3, P1 attacks first: P1's U3 (AA, Waste: attack 2) vs P0's U2 (G on Plain: 2):
    // a tie, P0 wins the combat; give P1 one more victory card so the piles tie.
    let mut g = combat(ROWS, [f0, f1], 1, 3, options);
    for (p, l) in [(0, "U1"), (1, "U9"), (1, "U10")] {
        let c = take(&mut g, l);
        g.sides[p].victory.push(c);
    }
    play(&mut g, "attack a1");
    play(&mut g, "defend a1");
    g
}

/// AG-8.1 to AG-8.3: a tie after round 3 is settled by sudden death: round 3's second player
/// attacks and picks first, in secret; the defender picks; the defence wins ties.
#[test]
fn ag_8_sudden_death() {
    let mut g = tied_end(opts());
    assert_eq!(g.phase, Phase::SuddenDeath);
    assert_eq!(g.sides[0].victory.len(), g.sides[1].victory.len());
    // Round 3's first attacker was P1, so P0 attacks in sudden death.
    assert_eq!((g.sd_attacker(), g.current()), (0, Some(0)));
    refuse(&mut g, "pick U9 1", "AG-8.2");
    refuse(&mut g, "pass", "AG-1.5");
    // P0 picks U1 (CCA) on row 1 (Plain C3): attack 2*(3+1) + 1 = 9.
    play(&mut g, "pick U1 1");
    assert_eq!(g.current(), Some(1));
    let v1 = g.view(1);
    assert_eq!(
        v1["players"][0]["pick"],
        serde_json::json!({"card": null, "row": null})
    );
    // A determinization for P1 redraws P0's pick among P0's victory cards.
    let picks: std::collections::HashSet<_> = (0..40)
        .map(|s| g.resample_hidden(1, s).sides[0].pick)
        .collect();
    assert!(picks.len() > 1);
    // P1's best: U10 (AAA) on row 3 of Waste... every P1 row is Waste: 3 < 9: P0 wins.
    play(&mut g, "pick U10 3");
    assert_eq!((g.phase, g.winner()), (Phase::Over, Some(0)));
    assert_eq!(g.returns(), vec![1.0, -1.0]);
    assert_eq!(g.view(1)["players"][0]["pick"]["card"], "U1");
    refuse(&mut g, "pass", "AG-8.5");
}

/// AG-8.3: the defence wins a tie in sudden death; `sudden_death_row = "front"` fights on
/// row 1 only.
#[test]
fn ag_8_3_sudden_death_tie_and_front_option() {
    let mut g = tied_end(opts());
    // P0: U2 (G) on row 2 (Forest G2): attack 2 + 1 = 3. P1: U10 (AAA) on Waste: 3.
    play(&mut g, "pick U2 2");
    play(&mut g, "pick U10 1");
    assert_eq!(g.winner(), Some(1));

    let mut g = tied_end(Options {
        sudden_death_row: SuddenDeathRow::Front,
        ..opts()
    });
    refuse(&mut g, "pick U1 2", "AG-8.2");
    assert!(legal(&g).iter().all(|a| a.ends(" 1")));
    play(&mut g, "pick U1 1");
    play(&mut g, "pick U9 1");
    assert_eq!(g.winner(), Some(0));
}

/// AG-8.1: more victory cards wins outright.
#[test]
fn ag_8_1_more_victory_cards_wins() {
    let mut g = combat(ROWS, [&[("a1", "U1")], &[("a1", "U2")]], 0, 3, opts());
    play(&mut g, "attack a1");
    play(&mut g, "defend a1");
    assert_eq!((g.phase, g.winner()), (Phase::Over, Some(0)));
    assert!(g.is_terminal() && g.current_player().is_none());
    assert_eq!(g.evaluate(0), 1.0);
    assert_eq!(g.evaluate(1), -1.0);
}

trait Ends {
    fn ends(&self, s: &str) -> bool;
}
impl Ends for String {
    fn ends(&self, s: &str) -> bool {
        self.ends_with(s)
    }
}

// ---- properties along random games ------------------------------------------------------

pub(super) fn all_options() -> Vec<Options> {
    vec![
        Options::default(),
        Options {
            draft_order: super::DraftOrder::Restart,
            deployment: Deployment::Alternating,
            ranged_scoring: RangedScoring::RangedDefender,
            sudden_death_row: SuddenDeathRow::Front,
            ..Default::default()
        },
        opts(),
    ]
}

/// Random games always end; every state keeps the invariant; the legal actions are exactly
/// the actions `apply` accepts (checked over the whole action space), and refused actions
/// change nothing; serialization round-trips; determinizations keep the player's view,
/// observation, picture and (for the player to move) legal actions.
#[test]
fn random_games_keep_every_invariant() {
    for (k, o) in all_options().into_iter().enumerate() {
        for seed in 0..8u64 {
            let mut g = Arte::new(seed * 7 + k as u64, &o).unwrap();
            let mut rng = GameRng::seed(seed);
            let mut buf = Vec::new();
            let mut plies = 0;
            while !g.is_terminal() {
                g.check_invariants().unwrap();
                g.legal_actions(&mut buf);
                assert!(!buf.is_empty());
                let ids: Vec<usize> = buf.iter().map(|&a| g.action_id(a)).collect();
                assert!(ids.windows(2).all(|w| w[0] < w[1]), "ascending ids");
                if plies % 7 == 0 {
                    let before = g.to_json();
                    for id in 0..g.num_actions() {
                        let a = g.action_from_id(id).unwrap();
                        let ok = g.check(a).is_ok();
                        assert_eq!(ok, ids.contains(&id), "{}", g.action_notation(a));
                        if !ok && id % 7 == 0 {
                            let mut h = g.clone();
                            assert!(h.apply(a).is_err());
                            assert_eq!(h.to_json(), before);
                        }
                    }
                    let back = Arte::from_json(&before).unwrap();
                    assert_eq!(back.to_json(), before);
                    for p in 0..2 {
                        let view = g.view(p);
                        let mut obs = vec![0.0; g.observation_shape().iter().product()];
                        g.observation(p, &mut obs);
                        let picture = g.render(Some(p));
                        for s in 0..3 {
                            let r = g.resample_hidden(p, s);
                            r.check_invariants().unwrap();
                            assert_eq!(r.view(p), view);
                            let mut o2 = vec![0.0; obs.len()];
                            r.observation(p, &mut o2);
                            assert_eq!(o2, obs);
                            assert_eq!(r.render(Some(p)), picture);
                            assert_eq!(r.evaluate(p), g.evaluate(p), "evaluate peeks");
                            if g.current() == Some(p) {
                                let mut b2 = Vec::new();
                                r.legal_actions(&mut b2);
                                assert_eq!(b2, buf);
                            }
                        }
                        let e = g.evaluate(p);
                        assert!((-1.0..=1.0).contains(&e));
                    }
                }
                let a = *rng.choose(&buf).unwrap();
                g.apply(a).unwrap();
                plies += 1;
                assert!(plies < 500);
            }
            g.check_invariants().unwrap();
            assert!(g.winner().is_some(), "the standard game is never drawn");
            let (v0, v1) = (g.sides[0].victory.len(), g.sides[1].victory.len());
            let total: usize = g
                .sides
                .iter()
                .map(|s| s.victory.len() + s.defeated.len())
                .sum();
            assert_eq!(
                total, 18,
                "every deployed card ends in a victory or defeated pile"
            );
            if v0 != v1 {
                assert_eq!(g.winner(), Some(usize::from(v1 > v0)));
            }
        }
    }
}

/// AG-9, issue 11: a refusal tells the mover nothing it cannot see. Along random games, every
/// action the mover may not take is refused with the same rule and text on every
/// determinization of the mover's view.
#[test]
fn ag_9_refusals_read_the_same_on_every_determinization() {
    for (k, o) in all_options().into_iter().enumerate() {
        for seed in 0..4u64 {
            let mut g = Arte::new(seed * 5 + k as u64, &o).unwrap();
            let mut rng = GameRng::seed(seed + 100);
            let mut buf = Vec::new();
            while let Some(p) = g.current() {
                let worlds: Vec<Arte> = (0..3).map(|s| g.resample_hidden(p, s)).collect();
                for id in 0..g.num_actions() {
                    let a = g.action_from_id(id).unwrap();
                    let mine = g.check(a).map_err(|e| e.to_string());
                    for w in &worlds {
                        let theirs = w.check(a).map_err(|e| e.to_string());
                        assert_eq!(mine, theirs, "{}", g.action_notation(a));
                    }
                }
                g.legal_actions(&mut buf);
                g.apply(*rng.choose(&buf).unwrap()).unwrap();
            }
        }
    }
}

#[test]
fn hidden_information_is_redrawn_by_determinization() {
    let g = Arte::new(9, &Options::default()).unwrap();
    // The chooser does not know the three drawn cards; nobody knows the piles.
    let r = g.resample_hidden(1, 4);
    assert_ne!(
        r.draft.as_ref().unwrap().slots,
        g.draft.as_ref().unwrap().slots
    );
    let r0 = g.resample_hidden(0, 4);
    assert_eq!(r0.draft, g.draft, "the picker knows its cards");
    assert_ne!(r0.piles, g.piles);
    assert!(g.view(0)["rng"].is_null());
}

// ---- serialization ----------------------------------------------------------------------

#[test]
fn bad_states_are_rejected_with_a_path() {
    let g = after_draft(2, &Options::default());
    let good = g.to_json();
    let path_of = |v: &Value| match Arte::from_json(v) {
        Err(Error::State { path, .. }) => path,
        other => panic!("expected a state error, got {other:?}"),
    };
    let mut v = good.clone();
    v["players"][0]["units"][0] = v["players"][1]["units"][0].clone();
    assert_eq!(path_of(&v), "$", "a card in two places");
    let mut v = good.clone();
    v["players"][0]["units"][0] = Value::from("T1");
    assert_eq!(path_of(&v), "$");
    let mut v = good.clone();
    v["players"][0]["field"]["d1"] = Value::Null;
    assert_eq!(path_of(&v), "$.players[0].field.d1");
    let mut v = good.clone();
    v["players"][0]["units"][0] = Value::from("U99");
    assert_eq!(path_of(&v), "$.players[0].units[0]");
    let mut v = good.clone();
    v["phase"] = Value::from("combat");
    assert!(path_of(&v).starts_with("$."));
    let mut v = good.clone();
    v["round"] = Value::from(2);
    assert_eq!(path_of(&v), "$.round");
    let mut v = good.clone();
    v["cards"]["units"][0]["units"] = serde_json::json!(["mago"]);
    assert_eq!(path_of(&v), "$.cards");
    let mut v = good.clone();
    v["options"]["deployment"] = Value::from("sideways");
    assert_eq!(path_of(&v), "$.options.deployment");
    let mut v = good.clone();
    v.as_object_mut().unwrap().remove("winner");
    assert_eq!(path_of(&v), "$.winner");
    let mut v = good;
    v["extra"] = Value::from(1);
    assert_eq!(path_of(&v), "$.extra");
}

#[test]
fn options_name_one_card_set() {
    let both = Options {
        cards_file: Some("x.toml".into()),
        cards_toml: Some(TEST_SET.into()),
        ..Default::default()
    };
    assert!(matches!(Arte::new(1, &both), Err(Error::Options { .. })));
    let missing = Options {
        cards_file: Some("/no/such/file.toml".into()),
        ..Default::default()
    };
    assert!(matches!(Arte::new(1, &missing), Err(Error::Data { .. })));
    let g = Arte::new(1, &opts()).unwrap();
    assert_eq!(g.num_actions(), notation::num_actions(&g.set));
    assert_eq!(g.set.num_units(), 27);
    let bad: Result<Options, _> = serde_json::from_value(serde_json::json!({"cards": "x"}));
    assert!(bad.is_err(), "unknown options are rejected");
    let text = serde_json::to_value(Options::default()).unwrap();
    assert_eq!(
        text,
        serde_json::json!({"cards_file": null, "cards_toml": null, "draft_order": "continuous",
                           "deployment": "simultaneous",
                           "ranged_scoring": "exception", "sudden_death_row": "chosen"})
    );
}
