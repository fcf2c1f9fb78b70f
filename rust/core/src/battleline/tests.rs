//! Rules tests (each names the rule it checks, `docs/rules/battle-line.md`), the proofs
//! against the brute-force checker, and random games with invariants.

use super::brute;
use super::cards::{parse_cards, Card, CardSet, Deck, ALL_TROOPS};
use super::formation::{best_completion, classify, search, Kind};
use super::proof::{prove_claim, prove_unchecked, Verdict};
use super::state::*;
use super::{Action, BattleLine};
use crate::game::Game;
use crate::rng::GameRng;
use serde_json::{json, Value};

// ---- helpers -------------------------------------------------------------------------------

fn cards(s: &str) -> Vec<Card> {
    parse_cards(&s.split_whitespace().collect::<Vec<_>>()).unwrap()
}

fn act(s: &str) -> Action {
    Action::parse(s).unwrap()
}

/// Build a state from a partial description: unspecified troops and tactics go to the
/// decks (id order, so the top is the highest id), and counters get consistent defaults.
fn build(mut v: Value) -> BattleLine {
    let o = v.as_object_mut().unwrap();
    let mut used = 0u128;
    let mut note = |x: &Value| {
        if let Some(s) = x.as_str() {
            used |= Card::parse(s).unwrap().bit();
        }
    };
    let flags = o.entry("flags").or_insert_with(|| json!([])).clone();
    let mut flags = flags.as_array().unwrap().clone();
    while flags.len() < 9 {
        flags.push(json!({"sides": [[], []]}));
    }
    let mut side_tactics = [0u32; 2];
    for f in &mut flags {
        let fo = f.as_object_mut().unwrap();
        let sides = fo["sides"].clone();
        let mut complete = [false; 2];
        let mud = fo
            .get("env")
            .and_then(Value::as_array)
            .is_some_and(|e| e.iter().any(|x| x["card"] == "Mud"));
        for (p, s) in sides.as_array().unwrap().iter().enumerate() {
            let s = s.as_array().unwrap();
            for x in s {
                note(x);
                if Card::parse(x.as_str().unwrap()).unwrap().is_tactics() {
                    side_tactics[p] += 1;
                }
            }
            complete[p] = s.len() == if mud { 4 } else { 3 };
        }
        if let Some(env) = fo.get("env").and_then(Value::as_array) {
            for e in env {
                note(&e["card"]);
                side_tactics[e["side"].as_u64().unwrap() as usize] += 1;
            }
        }
        fo.entry("first_complete")
            .or_insert_with(|| match complete {
                [true, _] => json!(0),
                [false, true] => json!(1),
                _ => Value::Null,
            });
        fo.entry("claimed").or_insert(Value::Null);
        fo.entry("env").or_insert_with(|| json!([]));
    }
    o.insert("flags".into(), Value::Array(flags));
    let hands = o.entry("hands").or_insert_with(|| json!([[], []])).clone();
    for h in hands.as_array().unwrap() {
        for x in h.as_array().unwrap() {
            note(x);
        }
    }
    let discard = o.entry("discard").or_insert_with(|| json!([])).clone();
    let mut discard_tactics = 0;
    for x in discard.as_array().unwrap() {
        note(x);
        if Card::parse(x.as_str().unwrap()).unwrap().is_tactics() {
            discard_tactics += 1;
        }
    }
    for key in ["troop_deck", "tactics_deck"] {
        if let Some(d) = o.get(key) {
            for x in d.as_array().unwrap().clone() {
                note(&x);
            }
        }
    }
    if !o.contains_key("troop_deck") {
        let rest: Vec<Value> = (0..60)
            .filter(|i| used >> i & 1 == 0)
            .map(|i| json!(Card(i as u8).to_string()))
            .collect();
        o.insert("troop_deck".into(), Value::Array(rest));
    }
    if !o.contains_key("tactics_deck") {
        let rest: Vec<Value> = (60..70)
            .filter(|i| used >> i & 1 == 0)
            .map(|i| json!(Card(i as u8).to_string()))
            .collect();
        o.insert("tactics_deck".into(), Value::Array(rest));
    }
    if !o.contains_key("tactics_played") {
        let mut t = side_tactics;
        for _ in 0..discard_tactics {
            let p = usize::from(t[1] < t[0]);
            t[p] += 1;
        }
        o.insert("tactics_played".into(), json!(t));
    }
    o.entry("options").or_insert_with(|| json!({}));
    o.entry("scout").or_insert(Value::Null);
    o.entry("winner").or_insert(Value::Null);
    o.entry("scout_known").or_insert_with(|| {
        json!([
            {"troop_deck": [], "tactics_deck": [], "opponent_hand": []},
            {"troop_deck": [], "tactics_deck": [], "opponent_hand": []},
        ])
    });
    if !o.contains_key("hand_counts") {
        let hands = o["hands"].as_array().unwrap().clone();
        let counts: Vec<Value> = hands
            .iter()
            .map(|h| {
                let cs: Vec<Card> = h
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| Card::parse(x.as_str().unwrap()).unwrap())
                    .collect();
                let t = cs.iter().filter(|c| c.is_troop()).count();
                json!({"troops": t, "tactics": cs.len() - t})
            })
            .collect();
        o.insert("hand_counts".into(), Value::Array(counts));
    }
    o.entry("to_move").or_insert(json!(0));
    o.entry("phase").or_insert(json!("play"));
    o.entry("leader_played").or_insert(json!([false, false]));
    o.entry("pass_streak").or_insert(json!(0));
    BattleLine::from_value(&v).unwrap_or_else(|e| panic!("bad test position: {e}"))
}

fn legal(g: &BattleLine) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

fn legal_text(g: &BattleLine) -> Vec<String> {
    legal(g).iter().map(|a| a.to_string()).collect()
}

/// Apply an action that must be illegal: check the rule id and that nothing changed.
fn assert_illegal(g: &mut BattleLine, a: &str, rule: &str) {
    let before = g.to_value();
    match g.apply(act(a)) {
        Err(crate::Error::IllegalAction { rule: r, message }) => {
            assert_eq!(r, rule, "{a}: {message}")
        }
        other => panic!("{a}: expected an illegal action ({rule}), got {other:?}"),
    }
    assert_eq!(g.to_value(), before, "{a} changed the state");
    assert!(!legal(g).contains(&act(a)), "{a} is listed as legal");
}

fn play(g: &mut BattleLine, a: &str) {
    assert!(
        legal(g).contains(&act(a)),
        "{a} not legal; legal: {:?}",
        legal_text(g)
    );
    g.apply(act(a)).unwrap_or_else(|e| panic!("{a}: {e}"));
}

fn side(g: &BattleLine, f: usize, p: usize) -> Vec<String> {
    g.flags[f].side(p).iter().map(|c| c.to_string()).collect()
}

/// Invariants of every reachable state.
fn check_invariants(g: &BattleLine) {
    // BL-1.4: every card exactly once.
    let mut count = [0u8; 70];
    for h in &g.hands {
        for c in h.iter() {
            count[c.id()] += 1;
        }
    }
    for c in g
        .troop_deck()
        .iter()
        .chain(g.tactics_deck())
        .chain(g.discard())
    {
        count[c.id()] += 1;
    }
    for fl in &g.flags {
        for p in 0..2 {
            for c in fl.side(p) {
                count[c.id()] += 1;
            }
        }
        count[Card::FOG.id()] += u8::from(fl.fog.is_some());
        count[Card::MUD.id()] += u8::from(fl.mud.is_some());
    }
    assert!(
        count.iter().all(|&n| n == 1),
        "card conservation: {count:?}"
    );
    assert!(g.troop_deck().iter().all(|c| c.is_troop()));
    assert!(g.tactics_deck().iter().all(|c| c.is_tactics()));
    for p in 0..2 {
        // BL-6.2: at most one Leader per side.
        let leaders = g
            .flags
            .iter()
            .flat_map(|f| f.side(p))
            .filter(|c| c.is_leader())
            .count();
        assert!(leaders <= 1, "player {p} has {leaders} leaders");
        assert!(g.hands[p].len() <= 9);
    }
    // BL-6.1.
    assert!(g.tactics_played[0].abs_diff(g.tactics_played[1]) <= 1);
    for fl in &g.flags {
        for p in 0..2 {
            assert!(fl.len[p] as usize <= fl.capacity());
        }
        let complete = [fl.is_complete(0), fl.is_complete(1)];
        match fl.first_complete {
            None => assert_eq!(complete, [false, false]),
            Some(s) => assert!(complete[s as usize]),
        }
    }
    g.validate_rules().unwrap();
    // Derived state agrees with a rebuild.
    let mut r = g.clone();
    r.rebuild();
    assert_eq!(r.loc, g.loc);
    assert_eq!(r.table, g.table);
    assert_eq!(r.unseen, g.unseen);
    assert_eq!(r.claimed_mask, g.claimed_mask);
    assert_eq!(r.masks.free, g.masks.free);
    assert_eq!(r.masks.complete, g.masks.complete);
    if g.phase == Phase::Claim {
        assert_eq!(r.claimable, g.claimable);
    }
    // The cache agrees with fresh proofs.
    for f in 0..9 {
        for p in 0..2 {
            let fresh = g.claim_proof(f, p).is_some_and(|x| x.holds());
            let mut c = g.clone();
            assert_eq!(c.can_claim(f, p), fresh, "flag {f} player {p}");
        }
    }
    // JSON round trip.
    let v = g.to_value();
    let back = BattleLine::from_value(&v).unwrap();
    assert_eq!(back.to_value(), v);
}

// ---- BL-2: setup -----------------------------------------------------------------------------

#[test]
fn bl_2_1_setup_deals_seven_troops_each() {
    let g = BattleLine::new(7, &Options::default()).unwrap();
    for p in 0..2 {
        assert_eq!(g.hands[p].len(), 7);
        assert_eq!(g.hands[p].tactics().len(), 0);
    }
    assert_eq!(g.troop_deck().len(), 46);
    assert_eq!(g.tactics_deck().len(), 10);
    assert_eq!(g.current_player(), Some(0));
    assert_eq!(g.phase, Phase::Play);
    check_invariants(&g);
    // Same seed, same game; another seed, another deal.
    assert_eq!(
        BattleLine::new(7, &Options::default()).unwrap().to_value(),
        g.to_value()
    );
    assert_ne!(
        BattleLine::new(8, &Options::default()).unwrap().to_value(),
        g.to_value()
    );
}

#[test]
fn bl_2_3_first_player_option() {
    let o = Options {
        first_player: 1,
        ..Options::default()
    };
    let g = BattleLine::new(1, &o).unwrap();
    assert_eq!(g.current_player(), Some(1));
    let bad = Options {
        first_player: 2,
        ..Options::default()
    };
    assert!(matches!(
        BattleLine::new(1, &bad),
        Err(crate::Error::Options { .. })
    ));
    // Unknown options are rejected by serde.
    assert!(serde_json::from_value::<Options>(json!({"traitor_troop_only": true})).is_err());
}

// ---- BL-3: turn -------------------------------------------------------------------------------

#[test]
fn bl_3_1_turn_is_play_claim_draw() {
    // Player 0 completes a wedge that beats player 1's complete host: the claim step offers
    // the claim, then the draw step asks for a deck, then it is player 1's turn.
    let mut g = build(json!({
        "flags": [{"sides": [["R10", "R9"], ["B1", "G5", "Y7"]]}],
        "hands": [["R8", "O1", "O2", "O3", "O4", "O5", "O6"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
    }));
    play(&mut g, "R8@0");
    assert_eq!(g.phase, Phase::Claim);
    assert_eq!(legal_text(&g), ["claim 0", "done"]);
    play(&mut g, "claim 0");
    assert_eq!(g.flags[0].claimed, Some(0));
    assert_eq!(g.phase, Phase::Draw);
    assert_eq!(legal_text(&g), ["draw troop", "draw tactics"]);
    play(&mut g, "draw tactics");
    assert_eq!(g.hands[0].tactics().len(), 1);
    assert_eq!(g.hands[0].len(), 7);
    assert_eq!((g.to_move, g.phase), (1, Phase::Play));
    check_invariants(&g);
}

#[test]
fn bl_3_1_no_claim_step_without_a_claimable_flag() {
    let mut g = build(json!({
        "hands": [["R8", "O1", "O2", "O3", "O4", "O5", "O6"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
    }));
    play(&mut g, "R8@0");
    assert_eq!(g.phase, Phase::Draw);
    assert_illegal(&mut g, "claim 0", "BL-3.1");
    assert_illegal(&mut g, "O1@1", "BL-3.1");
}

#[test]
fn bl_3_2_claim_at_turn_start_option() {
    let mut g = build(json!({
        "options": {"claim_at_turn_start": true},
        "flags": [{"sides": [["R10", "R9"], ["B1", "G5", "Y7"]]}],
        "hands": [["R8", "O1", "O2", "O3", "O4", "O5", "O6"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
    }));
    play(&mut g, "R8@0");
    // No claim after playing: straight to the draw.
    assert_eq!(g.phase, Phase::Draw);
    play(&mut g, "draw troop");
    play(&mut g, "P1@1");
    play(&mut g, "draw troop");
    // Player 0's next turn starts with the claim.
    assert_eq!((g.to_move, g.phase), (0, Phase::Claim));
    play(&mut g, "claim 0");
    assert_eq!(g.phase, Phase::Play);
}

#[test]
fn bl_3_4_draw_is_forced_from_the_only_deck_with_cards() {
    let mut g = build(json!({
        "hands": [["R8", "O1", "O2", "O3", "O4", "O5", "O6"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
        "discard": ["Alexander", "Darius", "Cavalry", "Shield", "Fog", "Mud", "Scout", "Redeploy", "Deserter", "Traitor"],
        "tactics_played": [5, 5],
    }));
    let top = *g.troop_deck().last().unwrap();
    play(&mut g, "R8@0");
    assert!(g.hands[0].contains(top));
    assert_eq!(g.to_move, 1);
}

#[test]
fn bl_3_5_no_draw_when_decks_are_empty() {
    let mut all: Vec<Value> = (0..60)
        .map(|i| json!(Card(i).to_string()))
        .filter(|c| !["R8", "O1", "P1", "P2"].contains(&c.as_str().unwrap()))
        .collect();
    all.extend(
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
        "hands": [["R8", "O1"], ["P1", "P2"]],
        "discard": all,
        "tactics_played": [5, 5],
    }));
    play(&mut g, "R8@0");
    assert_eq!(g.hands[0].len(), 1);
    assert_eq!((g.to_move, g.phase), (1, Phase::Play));
    assert_illegal(&mut g, "draw troop", "BL-3.1");
}

// ---- BL-4: placing --------------------------------------------------------------------------

#[test]
fn bl_4_2_three_cards_a_side_four_under_mud() {
    let mut g = build(json!({
        "flags": [
            {"sides": [["R1", "R2", "R3"], []]},
            {"sides": [["O1", "O2", "O3"], []], "env": [{"card": "Mud", "side": 1}]},
        ],
        "hands": [["R8", "R9", "Y1", "Y2", "Y3", "Y4", "Y5"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
        "tactics_played": [0, 1],
    }));
    assert_illegal(&mut g, "R8@0", "BL-4.2");
    play(&mut g, "R8@1");
    assert_eq!(g.flags[1].len[0], 4);
    assert_eq!(g.flags[1].first_complete, Some(0));
}

#[test]
fn bl_3_3_card_must_be_in_hand() {
    let mut g = build(json!({
        "hands": [["R8"], ["P1"]],
    }));
    assert_illegal(&mut g, "R9@0", "BL-3.3");
    assert_illegal(&mut g, "Fog@0", "BL-3.3");
    assert_illegal(&mut g, "Scout", "BL-3.3");
}

// ---- BL-6: tactics limit and leaders -------------------------------------------------------

#[test]
fn bl_6_1_tactics_limit_at_most_one_ahead() {
    let mut g = build(json!({
        "flags": [{"sides": [["Cavalry"], []]}],
        "hands": [["R8", "Fog", "Shield"], ["P1", "Mud"]],
    }));
    assert_eq!(g.tactics_played, [1, 0]);
    assert_illegal(&mut g, "Fog@2", "BL-6.1");
    assert_illegal(&mut g, "Shield@2", "BL-6.1");
    assert!(legal(&g)
        .iter()
        .all(|a| matches!(a, Action::Play { card, .. } if card.is_troop())));
    play(&mut g, "R8@2");
    play(&mut g, "draw troop");
    // Player 1 may catch up, then player 0 may play one again.
    play(&mut g, "Mud@3");
    play(&mut g, "draw troop");
    play(&mut g, "Fog@2");
}

#[test]
fn bl_6_2_one_leader_per_player_ever() {
    let mut g = build(json!({
        "hands": [["R8", "Alexander", "Darius"], ["P1", "P2"]],
        "tactics_played": [0, 1],
        "discard": ["Scout"],
    }));
    play(&mut g, "Alexander@0");
    play(&mut g, "draw troop");
    play(&mut g, "P1@0");
    play(&mut g, "draw troop");
    assert_illegal(&mut g, "Darius@1", "BL-6.2");
    // Even after the first Leader left the table (deserted), a second one stays illegal.
    let mut v = g.to_value();
    v["flags"][0]["sides"][0] = json!([]);
    v["discard"] = json!(["Scout", "Alexander"]);
    let mut g = BattleLine::from_value(&v).unwrap();
    assert_illegal(&mut g, "Darius@1", "BL-6.2");
}

#[test]
fn bl_6_2_traitor_cannot_give_a_second_leader() {
    let mut g = build(json!({
        "flags": [{"sides": [["Alexander"], ["Darius", "B5"]]}],
        "hands": [["R8", "Traitor"], ["P1"]],
        "leader_played": [true, true],
    }));
    assert_illegal(&mut g, "Traitor Darius>1", "BL-6.2");
    play(&mut g, "Traitor B5>1");
    assert_eq!(side(&g, 1, 0), ["B5"]);
}

// ---- BL-5 / BL-7: formations, Fog, Mud ------------------------------------------------------

#[test]
fn bl_5_1_kind_beats_total() {
    // Player 0: Skirmish 8-9-10 (27); player 1: Battalion 1-2-4 blue (7) — the Battalion wins.
    let g = build(json!({
        "flags": [{"sides": [["R10", "O9", "Y8"], ["B1", "B2", "B4"]]}],
        "hands": [["P9"], ["P1"]],
    }));
    assert!(!g.claim_proof(0, 0).unwrap().holds());
    let proof = g.claim_proof(0, 1).unwrap();
    assert!(proof.holds());
    assert_eq!(proof.mine.kind, Kind::Battalion);
}

#[test]
fn bl_7_2_fog_compares_totals_only() {
    let g = build(json!({
        "flags": [{"sides": [["R10", "O9", "Y8"], ["B1", "B2", "B3"]], "env": [{"card": "Fog", "side": 1}]}],
        "hands": [["P9"], ["P1"]],
    }));
    let p = g.claim_proof(0, 0).unwrap();
    assert!(p.holds(), "{p}");
    assert_eq!(p.mine.total, 27);
    assert!(!g.claim_proof(0, 1).unwrap().holds());
}

#[test]
fn bl_7_3_mud_needs_four_cards() {
    let mut g = build(json!({
        "flags": [{"sides": [["R10", "R9", "R8"], ["B1", "B2"]], "env": [{"card": "Mud", "side": 1}]}],
        "hands": [["R7", "O1"], ["P1"]],
        "tactics_played": [1, 1],
        "discard": ["Scout"],
    }));
    assert!(g.claim_proof(0, 0).is_none());
    play(&mut g, "O1@1");
    assert_eq!(
        g.phase,
        Phase::Draw,
        "nothing to claim with 3 cards under Mud"
    );
    play(&mut g, "draw troop");
    play(&mut g, "P1@1");
    play(&mut g, "draw troop");
    play(&mut g, "R7@0");
    assert_eq!(legal_text(&g), ["claim 0", "done"]);
    let p = g.claim_proof(0, 0).unwrap();
    assert_eq!((p.mine.kind, p.mine.total, p.size), (Kind::Wedge, 34, 4));
}

#[test]
fn bl_7_5_mud_leaving_discards_the_weakest_fourth_card() {
    // Deserter takes player 1's Mud: player 0's R10 R9 R8 B1 drops B1 (Wedge remains);
    // player 1's G5 G5? no: G2 G3 Y4 O9 drops... the card whose loss leaves the best
    // formation: G2 G3 Y4 is a Skirmish (9); losing G2 leaves G3 Y4 O9 Host 16; the best is
    // to drop O9 (Skirmish 2-3-4).
    let mut g = build(json!({
        "flags": [{"sides": [["R10", "B1", "R9", "R8"], ["G2", "O9", "G3", "Y4"]], "env": [{"card": "Mud", "side": 1}], "first_complete": 1}],
        "hands": [["P9", "Deserter"], ["P1"]],
        "tactics_played": [0, 1],
    }));
    play(&mut g, "Deserter Mud");
    assert_eq!(side(&g, 0, 0), ["R10", "R9", "R8"]);
    assert_eq!(side(&g, 0, 1), ["G2", "G3", "Y4"]);
    assert_eq!(g.flags[0].mud, None);
    assert_eq!(g.flags[0].first_complete, Some(1), "player 1 stays first");
    let d: Vec<String> = g.discard().iter().map(|c| c.to_string()).collect();
    assert_eq!(
        d,
        ["Deserter", "Mud", "B1", "O9"],
        "the Mud first, then the fourth cards"
    );
    check_invariants(&g);
    // Player 0's wedge beats player 1's skirmish: claimable now.
    assert_eq!(g.phase, Phase::Claim);
}

#[test]
fn bl_7_5_mud_leaving_tie_discards_lowest_value() {
    // R1 O1 Y1 G1 under Mud: any three make a Phalanx of 1s; all values equal, so the
    // lowest card id goes? No: equal values — the tie-break after value is the lowest id.
    let c = cards("B5 R5 O5 G5");
    let out = super::rules::mud_discard_choice(&[c[0], c[1], c[2], c[3]], false);
    assert_eq!(out.to_string(), "R5");
    // Leaving the best: Y3 Y4 Y5 + R9 drops R9 (wedge stays) even though it is the highest.
    let c = cards("Y3 R9 Y4 Y5");
    let out = super::rules::mud_discard_choice(&[c[0], c[1], c[2], c[3]], false);
    assert_eq!(out.to_string(), "R9");
    // Under Fog only totals count: drop the lowest value.
    let c = cards("Y3 R9 Y4 Y5");
    let out = super::rules::mud_discard_choice(&[c[0], c[1], c[2], c[3]], true);
    assert_eq!(out.to_string(), "Y3");
}

#[test]
fn bl_7_5_mud_redeployed_elsewhere_and_both_sides_completing_at_once() {
    // Both sides hold 3 under Mud (incomplete); player 0 redeploys its Mud to flag 2: both
    // sides complete at once, and the non-acting player counts as first (BL-9.6).
    let mut g = build(json!({
        "flags": [{"sides": [["R10", "R9", "R8"], ["B1", "B2", "B3"]], "env": [{"card": "Mud", "side": 0}]}],
        "hands": [["P9", "Redeploy"], ["P1"]],
        "tactics_played": [1, 1],
        "discard": ["Scout"],
    }));
    assert_eq!(g.flags[0].first_complete, None);
    play(&mut g, "Redeploy Mud>2");
    assert_eq!(g.flags[0].first_complete, Some(1));
    assert_eq!(g.flags[2].mud, Some(0));
    // Player 0's wedge 27 beats the wedge 6 anyway.
    assert_eq!(legal_text(&g), ["claim 0", "done"]);
}

// ---- BL-8: guile tactics ----------------------------------------------------------------

#[test]
fn bl_8_1_scout_draws_three_returns_two_and_is_remembered() {
    let mut g = build(json!({
        "hands": [["R1", "R2", "R3", "R4", "R5", "R6", "Scout"], ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]],
    }));
    let troop_top = *g.troop_deck().last().unwrap();
    play(&mut g, "Scout");
    assert_eq!(g.phase, Phase::ScoutDraw);
    play(&mut g, "draw troop");
    play(&mut g, "draw tactics");
    play(&mut g, "draw tactics");
    assert_eq!(g.phase, Phase::ScoutReturn);
    assert_eq!(g.hands[0].len(), 9);
    assert!(g.hands[0].contains(troop_top));
    play(&mut g, "return R1");
    let tactic = g.hands[0].tactics().iter().next().unwrap();
    play(&mut g, &format!("return {tactic}"));
    // Hand back at 7: no draw step; player 1 to move.
    assert_eq!(g.hands[0].len(), 7);
    assert_eq!((g.to_move, g.phase), (1, Phase::Play));
    assert_eq!(g.troop_deck().last().unwrap().to_string(), "R1");
    assert_eq!(*g.tactics_deck().last().unwrap(), tactic);
    // Player 0 knows both tops; player 1 does not.
    let v0 = g.view_value(0);
    let td = v0["troop_deck"].as_array().unwrap();
    assert_eq!(td.last().unwrap(), "R1");
    assert!(td[..td.len() - 1].iter().all(Value::is_null));
    assert_eq!(
        v0["tactics_deck"].as_array().unwrap().last().unwrap(),
        &json!(tactic.to_string())
    );
    let v1 = g.view_value(1);
    assert!(v1["troop_deck"]
        .as_array()
        .unwrap()
        .iter()
        .all(Value::is_null));
    // Player 1 draws R1: player 0 now knows it is in player 1's hand.
    play(&mut g, "P1@0");
    play(&mut g, "draw troop");
    let v0 = g.view_value(0);
    assert!(v0["hands"][1].as_array().unwrap().contains(&json!("R1")));
    assert_eq!(v0["scout_known"][0]["opponent_hand"], json!(["R1"]));
    // ...until player 1 plays it.
    play(&mut g, "R2@1");
    play(&mut g, "draw troop");
    play(&mut g, "R1@1");
    play(&mut g, "draw troop");
    assert_eq!(
        g.view_value(0)["scout_known"][0]["opponent_hand"],
        json!([])
    );
    check_invariants(&g);
}

#[test]
fn bl_8_1_scout_with_one_card_left_returns_none() {
    let mut rest: Vec<Value> = (0..60)
        .map(|i| json!(Card(i).to_string()))
        .filter(|c| !["R1", "R2", "P1", "P2", "Y9"].contains(&c.as_str().unwrap()))
        .collect();
    rest.extend(
        [
            "Alexander",
            "Darius",
            "Cavalry",
            "Shield",
            "Fog",
            "Mud",
            "Redeploy",
            "Deserter",
            "Traitor",
        ]
        .map(|s| json!(s)),
    );
    let mut g = build(json!({
        "hands": [["R1", "R2", "Scout"], ["P1", "P2"]],
        "discard": rest,
        "troop_deck": ["Y9"],
        "tactics_played": [4, 5],
    }));
    play(&mut g, "Scout");
    // The only card is drawn at once and nothing goes back.
    assert!(g.hands[0].contains(Card::parse("Y9").unwrap()));
    assert_eq!((g.to_move, g.phase), (1, Phase::Play));
    // With empty decks Scout cannot be played.
    let mut d = rest.clone();
    d.extend(["Y9", "R2", "P2"].map(|s| json!(s)));
    let mut g = build(json!({
        "hands": [["R1", "Scout"], ["P1"]],
        "discard": d,
        "tactics_deck": [],
        "troop_deck": [],
        "tactics_played": [4, 5],
    }));
    assert_illegal(&mut g, "Scout", "BL-8.1");
}

#[test]
fn bl_8_2_redeploy_moves_or_discards_own_cards_on_unclaimed_flags() {
    let mut g = build(json!({
        "flags": [
            {"sides": [["R10", "R9"], ["B1"]]},
            {"sides": [["R1", "R2", "R3"], ["B2", "B3", "B4"]], "claimed": 0},
        ],
        "hands": [["P9", "Redeploy"], ["P1"]],
        "tactics_played": [0, 1],
        "discard": ["Scout"],
    }));
    assert_illegal(&mut g, "Redeploy R10>0", "BL-8.2");
    assert_illegal(&mut g, "Redeploy R1>2", "BL-9.7");
    assert_illegal(&mut g, "Redeploy B1>2", "BL-8.2");
    assert_illegal(&mut g, "Redeploy R10>1", "BL-9.7");
    let mut h = g.clone();
    play(&mut h, "Redeploy R10>4");
    assert_eq!(side(&h, 4, 0), ["R10"]);
    assert_eq!(side(&h, 0, 0), ["R9"]);
    play(&mut g, "Redeploy R10>discard");
    assert!(g.discard().contains(&Card::parse("R10").unwrap()));
    assert_eq!(g.tactics_played, [1, 1]);
}

#[test]
fn bl_8_3_deserter_discards_an_opponent_card() {
    let mut g = build(json!({
        "flags": [{"sides": [["R10", "R9", "R8"], ["B1", "B2", "B3"]]}],
        "hands": [["P9", "Deserter"], ["P1"]],
    }));
    assert_eq!(g.flags[0].first_complete, Some(0));
    assert_illegal(&mut g, "Deserter R10", "BL-8.3");
    play(&mut g, "Deserter B1");
    assert_eq!(side(&g, 0, 1), ["B2", "B3"]);
    assert_eq!(g.flags[0].first_complete, Some(0));
    // Player 0's wedge: the opponent can no longer reach more than B4 wedge 9.
    assert_eq!(g.phase, Phase::Claim);
}

#[test]
fn bl_9_6_losing_a_card_loses_first_completion() {
    let mut g = build(json!({
        "flags": [{"sides": [["R5", "O5", "Y5"], ["B5", "G5", "P5"]], "first_complete": 0}],
        "hands": [["P9", "Deserter"], ["R1", "Redeploy"]],
    }));
    // Tie: player 0 completed first, so player 0 could claim; player 1 cannot.
    assert!(g.claim_proof(0, 0).unwrap().holds());
    assert_eq!(g.claim_proof(0, 1).unwrap().verdict, Verdict::LosesTie);
    play(&mut g, "P9@3");
    play(&mut g, "done");
    play(&mut g, "draw troop");
    // Player 1 redeploys... its own card away and back is not possible in one move; instead
    // take one of player 0's cards off with a hand-built change: player 0 loses R5.
    let mut v = g.to_value();
    v["flags"][0]["sides"][0] = json!(["O5", "Y5"]);
    v["flags"][0]["first_complete"] = json!(1);
    v["discard"] = json!(["R5"]);
    let mut g = BattleLine::from_value(&v).unwrap();
    // Player 0 re-completes with R... a 5 is gone; with another 5 it would complete later.
    assert_eq!(g.flags[0].first_complete, Some(1));
    play(&mut g, "R1@5");
    // Player 1 (tie, first) can claim a tie against any later 5-phalanx... but player 0 is
    // incomplete: a Phalanx of 5s is still possible? No: all six 5s are used or discarded.
    let p = g.claim_proof(0, 1).unwrap();
    assert!(p.holds(), "{p}");
}

#[test]
fn bl_8_4_traitor_takes_an_opponent_card_to_own_side() {
    let mut g = build(json!({
        "flags": [
            {"sides": [["R10"], ["B9", "Cavalry"]], "env": [{"card": "Fog", "side": 1}]},
            {"sides": [["Shield"], []]},
        ],
        "hands": [["P9", "Traitor"], ["P1"]],
    }));
    assert_eq!(g.tactics_played, [1, 2]);
    let mut h = g.clone();
    play(&mut h, "Traitor B9>0");
    assert_eq!(side(&h, 0, 0), ["R10", "B9"]);
    assert_eq!(side(&h, 0, 1), ["Cavalry"]);
    let mut h = g.clone();
    play(&mut h, "Traitor Fog>0");
    assert_eq!(h.flags[0].fog, Some(0));
    play(&mut g, "Traitor Cavalry>4");
    assert_eq!(side(&g, 4, 0), ["Cavalry"]);
}

#[test]
fn bl_8_4_traitor_troops_only_option() {
    let mut g = build(json!({
        "options": {"traitor_troops_only": true},
        "flags": [{"sides": [["R10"], ["B9", "Cavalry"]]}],
        "hands": [["P9", "Traitor"], ["P1"]],
    }));
    assert_illegal(&mut g, "Traitor Cavalry>0", "BL-8.4");
    play(&mut g, "Traitor B9>0");
}

// ---- BL-9: claims -----------------------------------------------------------------------

#[test]
fn bl_9_4_claim_against_an_incomplete_side_needs_a_proof() {
    // R10 R9 R8 wedge (27) vs B-anything: the best blue wedge is B8-B10 = 27, a tie the
    // claimant wins (completed first) — but only if those are unseen; with B10 visible the
    // opponent can reach at most wedge 24.
    let g = build(json!({
        "flags": [{"sides": [["R10", "R9", "R8"], ["B9"]]}],
        "hands": [["P9"], ["P1"]],
    }));
    let p = g.claim_proof(0, 0).unwrap();
    assert!(p.holds(), "{p}");
    // Player 0 with a weaker Phalanx of 7s vs player 1's B9: blue wedge 27 beats it.
    let mut g = build(json!({
        "flags": [{"sides": [["R7", "O7", "Y7"], ["B9"]]}],
        "hands": [["P9"], ["P1"]],
    }));
    let p = g.claim_proof(0, 0).unwrap();
    assert_eq!(p.verdict, Verdict::Beatable);
    let cex = p.counterexample().unwrap();
    assert_eq!(cex.kind, Kind::Wedge);
    play(&mut g, "P9@3");
    // Not claimable: no claim step, and claiming is illegal in the draw step.
    assert_eq!(g.phase, Phase::Draw);
}

#[test]
fn bl_9_4_illegal_claim_names_the_rule() {
    let mut g = build(json!({
        "flags": [
            {"sides": [["R7", "O7", "Y7"], ["B9"]]},
            {"sides": [["R10", "R9", "R8"], ["G1"]]},
            {"sides": [["Y1", "Y2", "Y3"], ["P1", "P2"]]},
            {"sides": [["O1", "O2", "O3"], ["G2", "G3"]], "claimed": 0},
        ],
        "hands": [["P9"], ["P4"]],
        "phase": "claim",
    }));
    // Flag 2: the best purple completion (P3) only ties, and the tie goes to player 0.
    assert_eq!(legal_text(&g), ["claim 1", "claim 2", "done"]);
    assert_illegal(&mut g, "claim 0", "BL-9.4");
    assert_illegal(&mut g, "claim 3", "BL-9.7");
    assert_illegal(&mut g, "claim 4", "BL-9.2");
    play(&mut g, "claim 1");
    assert_illegal(&mut g, "claim 1", "BL-9.7");
    // Flags 1, 2, 3: three adjacent, the game ends at once (BL-11.1).
    play(&mut g, "claim 2");
    assert_eq!(g.winner(), Some(0));
}

#[test]
fn bl_9_5_own_hand_counts_as_unseen_and_tactics_never_count() {
    // Player 0 holds B10 in hand: it is still unseen, so the blue wedge B8-B10 beats the
    // Phalanx of 7s. Leaders in player 1's hand do not matter.
    let g = build(json!({
        "flags": [{"sides": [["R7", "O7", "Y7"], ["B9"]]}],
        "hands": [["B10", "B8"], ["Alexander"]],
    }));
    assert!(!g.claim_proof(0, 0).unwrap().holds());
    // With B10 and B8 visible on other flags, blue 9 cannot make a wedge beating 21...
    let g = build(json!({
        "flags": [
            {"sides": [["R7", "O7", "Y7"], ["B9"]]},
            {"sides": [["B10", "B8"], []]},
        ],
        "hands": [["P1"], ["Alexander"]],
    }));
    // ...but a Phalanx of 9s (27) still can: G9 O9 ...
    let p = g.claim_proof(0, 0).unwrap();
    assert_eq!(p.counterexample().unwrap().kind, Kind::Phalanx);
}

#[test]
fn bl_9_6_tie_goes_to_the_side_completed_first() {
    let g = build(json!({
        "flags": [{"sides": [["R5", "O5", "Y5"], ["B5", "G5", "P5"]], "first_complete": 1}],
        "hands": [["P9"], ["P1"]],
    }));
    assert_eq!(g.claim_proof(0, 0).unwrap().verdict, Verdict::LosesTie);
    assert_eq!(g.claim_proof(0, 1).unwrap().verdict, Verdict::WinsTie);
    // Against an incomplete side, a possible tie proves the claim.
    let g = build(json!({
        "flags": [{"sides": [["R10", "R9", "R8"], ["B10", "B9"]]}],
        "hands": [["P9"], ["P1"]],
    }));
    let p = g.claim_proof(0, 0).unwrap();
    assert_eq!(p.verdict, Verdict::Unbeatable, "{p}");
}

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
    assert_eq!(g.phase, Phase::Claim, "{}", g.render_text(None));
    play(&mut g, "claim 8");
    assert_eq!(g.winner(), Some(0));
    assert_eq!(g.match_points(), Some([5, 0]));
}

// ---- JSON / view -------------------------------------------------------------------------

#[test]
fn bl_1_4_from_json_rejects_inconsistent_states() {
    let g = BattleLine::new(3, &Options::default()).unwrap();
    let v = g.to_value();
    let bad = |mutate: &dyn Fn(&mut Value), path: &str| {
        let mut w = v.clone();
        mutate(&mut w);
        match BattleLine::from_value(&w) {
            Err(crate::Error::State { path: p, message }) => {
                assert!(p.starts_with(path), "{p} vs {path}: {message}")
            }
            other => panic!("expected a state error at {path}, got {other:?}"),
        }
    };
    bad(&|w| w["hands"][0][0] = json!("R99"), "$.hands[0][0]");
    bad(
        &|w| {
            let c = w["hands"][1][0].clone();
            w["hands"][0][0] = c;
        },
        "$.hands",
    );
    bad(&|w| w["troop_deck"].as_array_mut().unwrap().clear(), "$");
    bad(
        &|w| {
            w["flags"]
                .as_array_mut()
                .unwrap()
                .pop()
                .map(|_| ())
                .unwrap()
        },
        "$.flags",
    );
    bad(&|w| w["phase"] = json!("dance"), "$.phase");
    bad(&|w| w["to_move"] = json!(2), "$.to_move");
    bad(&|w| w["tactics_played"] = json!([2, 0]), "$.tactics_played");
    bad(&|w| w["bogus"] = json!(1), "$.bogus");
    bad(
        &|w| w["hand_counts"][0]["troops"] = json!(6),
        "$.hand_counts",
    );
    bad(
        &|w| {
            let c = w["tactics_deck"].as_array_mut().unwrap().pop().unwrap();
            w["troop_deck"].as_array_mut().unwrap().push(c);
        },
        "$.troop_deck",
    );
    bad(
        &|w| w["flags"][0]["claimed"] = json!(0),
        "$.flags[0].claimed",
    );
    bad(
        &|w| w["flags"][0]["first_complete"] = json!(1),
        "$.flags[0].first_complete",
    );
}

// ---- proofs vs brute force ------------------------------------------------------------

struct Case {
    mine: Vec<Card>,
    theirs: Vec<Card>,
    pool: Vec<Card>,
    fog: bool,
    mud: bool,
    mine_first: bool,
}

fn random_case(rng: &mut GameRng) -> Case {
    let mud = rng.below(3) == 0;
    let fog = rng.below(3) == 0;
    let size = if mud { 4 } else { 3 };
    let mut troops: Vec<Card> = (0..60).map(Card).collect();
    // Concentrate on few colours / a value window half of the time, so strong formations
    // and ties are common.
    if rng.below(2) == 0 {
        let c1 = rng.below(6) as u8;
        let c2 = rng.below(6) as u8;
        let lo = rng.below(7) as u8 + 1;
        troops.retain(|c| {
            (c.colour() == c1 || c.colour() == c2) || (c.value() >= lo && c.value() <= lo + 3)
        });
    }
    rng.shuffle(&mut troops);
    let mut wilds = vec![Card::CAVALRY, Card::SHIELD];
    let leaders = [Card::ALEXANDER, Card::DARIUS];
    let take_side = |n: usize,
                     rng: &mut GameRng,
                     troops: &mut Vec<Card>,
                     wilds: &mut Vec<Card>,
                     leader: Card| {
        let mut side = Vec::new();
        let mut has_leader = false;
        while side.len() < n {
            if rng.below(5) == 0 {
                let pick = rng.below(3);
                if pick == 2 && !has_leader {
                    has_leader = true;
                    side.push(leader);
                    continue;
                }
                if let Some(i) = (pick < wilds.len()).then_some(pick) {
                    side.push(wilds.remove(i));
                    continue;
                }
            }
            if let Some(c) = troops.pop() {
                side.push(c);
            }
        }
        side
    };
    let mine = take_side(size, rng, &mut troops, &mut wilds, leaders[0]);
    let k = rng.below(size + 1);
    let theirs = take_side(k, rng, &mut troops, &mut wilds, leaders[1]);
    let n = rng.below(13).min(troops.len());
    let pool: Vec<Card> = troops[..n].to_vec();
    let mine_first = if theirs.len() == size {
        rng.below(2) == 0
    } else {
        true
    };
    Case {
        mine,
        theirs,
        pool,
        fog,
        mud,
        mine_first,
    }
}

#[test]
fn bl_9_proofs_agree_with_brute_force() {
    let mut rng = GameRng::seed(2024);
    let mut holds = 0;
    let mut cases = 0;
    let mut verdicts = std::collections::HashSet::new();
    for _ in 0..10000 {
        let c = random_case(&mut rng);
        let pool_bits = c.pool.iter().fold(0u64, |a, x| a | 1 << x.0);
        let proof = prove_unchecked(&c.mine, &c.theirs, pool_bits, c.fog, c.mud, c.mine_first);
        let brute = brute::claim_holds(&c.mine, &c.theirs, &c.pool, c.fog, c.mud, c.mine_first);
        let desc = format!(
            "mine {:?} theirs {:?} pool {:?} fog {} mud {} first {}: {proof}",
            c.mine.iter().map(ToString::to_string).collect::<Vec<_>>(),
            c.theirs.iter().map(ToString::to_string).collect::<Vec<_>>(),
            c.pool.iter().map(ToString::to_string).collect::<Vec<_>>(),
            c.fog,
            c.mud,
            c.mine_first
        );
        assert_eq!(proof.holds(), brute, "{desc}");
        verdicts.insert(proof.verdict);
        // The claimant's formation is the brute-force best, and its resolution is real.
        assert_eq!(
            proof.mine.strength(),
            brute::best_strength(&c.mine, c.fog),
            "{desc}"
        );
        check_resolution(&proof.mine);
        // A counterexample is a real completion from the pool that beats or ties.
        if let Some(cex) = proof.counterexample() {
            check_resolution(cex);
            assert_eq!(&cex.cards()[..c.theirs.len()], &c.theirs[..]);
            for x in cex.completion() {
                assert!(c.pool.contains(x), "{desc}");
            }
            assert_eq!(
                cex.strength(),
                brute::best_strength(cex.cards(), c.fog),
                "{desc}"
            );
            assert!(cex.strength() >= proof.mine.strength(), "{desc}");
        }
        // The unrestricted search finds the brute-force maximum.
        let size = if c.mud { 4 } else { 3 };
        if c.theirs.len() < size {
            let got = best_completion(&c.theirs, pool_bits, size, c.fog).map(|f| f.strength());
            let want = brute::best_completion_strength(&c.theirs, &c.pool, size, c.fog);
            assert_eq!(got, want, "{desc}");
        }
        holds += usize::from(brute);
        cases += 1;
    }
    // The cases exercise both outcomes and every verdict.
    assert!(
        holds > cases / 10 && holds < cases * 9 / 10,
        "{holds}/{cases}"
    );
    assert_eq!(verdicts.len(), 7, "{verdicts:?}");
}

fn check_resolution(f: &super::formation::Formation) {
    for (c, r) in f.cards().iter().zip(f.resolved()) {
        assert!(r.is_troop());
        match *c {
            Card::CAVALRY => assert_eq!(r.value(), 8),
            Card::SHIELD => assert!(r.value() <= 3),
            x if x.is_troop() => assert_eq!(x, *r),
            _ => {}
        }
    }
    let (k, t) = classify(f.resolved(), f.fog);
    assert_eq!(t, u32::from(f.total));
    if !f.fog {
        assert_eq!(k, f.kind);
    }
}

#[test]
fn search_respects_min_kind() {
    let pool = cards("B8 B9 B10 R5 O5 Y5")
        .iter()
        .fold(0u64, |a, c| a | 1 << c.0);
    assert_eq!(search(&[], pool, 3, false, Kind::Wedge).unwrap().total, 27);
    let pool = cards("R5 O5 Y5 R1").iter().fold(0u64, |a, c| a | 1 << c.0);
    assert!(search(&[], pool, 3, false, Kind::Wedge).is_none());
    assert_eq!(
        search(&[], pool, 3, false, Kind::Phalanx).unwrap().kind,
        Kind::Phalanx
    );
}

#[test]
fn public_prove_claim_checks_its_input() {
    let c = cards;
    assert!(prove_claim(&c("R1 R2"), &[], &[], false, false, None).is_err());
    assert!(prove_claim(&c("R1 R2 R3"), &c("R3"), &[], false, false, None).is_err());
    assert!(prove_claim(&c("R1 R2 R3"), &c("B1 B2 B3"), &[], false, false, None).is_err());
    assert!(prove_claim(&c("R1 R2 R3"), &c("B1"), &c("Fog"), false, false, None).is_err());
    assert!(prove_claim(&c("R1 R2 R3"), &c("B1"), &c("R2"), false, false, None).is_err());
    assert!(prove_claim(&c("Alexander Darius R3"), &[], &[], false, false, None).is_err());
    assert!(prove_claim(&c("R1 R2 R3"), &c("B1"), &[], false, false, Some(false)).is_err());
    let p = prove_claim(
        &c("R1 R2 R3"),
        &c("B1 B2 B3"),
        &[],
        false,
        false,
        Some(true),
    )
    .unwrap();
    assert_eq!(p.verdict, Verdict::WinsTie);
}

// ---- random games ------------------------------------------------------------------------

fn random_game(
    seed: u64,
    options: &Options,
    mut each: impl FnMut(&BattleLine, &[Action]),
) -> BattleLine {
    let mut g = BattleLine::new(seed, options).unwrap();
    let mut rng = GameRng::stream(seed, 99);
    let mut buf = Vec::new();
    let mut plies = 0;
    while !g.is_terminal() {
        g.legal_actions(&mut buf);
        assert!(!buf.is_empty(), "no legal action:\n{}", g.render_text(None));
        each(&g, &buf);
        let a = *rng.choose(&buf).unwrap();
        g.apply(a)
            .unwrap_or_else(|e| panic!("legal action {a} failed: {e}"));
        plies += 1;
        assert!(plies < 2000, "game did not end");
    }
    each(&g, &[]);
    g
}

fn options_for(i: u64) -> Options {
    Options {
        traitor_troops_only: i % 3 == 1,
        claim_at_turn_start: i % 4 == 2,
        first_player: (i % 2) as u8,
    }
}

#[test]
fn bl_11_random_games_end_and_keep_the_invariants() {
    let mut ends = [0usize; 3];
    for seed in 0..150u64 {
        let g = random_game(seed, &options_for(seed), |g, legal| {
            check_invariants(g);
            // Legal actions are sorted by id and each one validates.
            assert!(legal.windows(2).all(|w| w[0].id() < w[1].id()));
            for &a in legal {
                g.check(a).unwrap_or_else(|e| panic!("listed {a} but: {e}"));
            }
        });
        match g.winner() {
            Some(w) => {
                ends[w] += 1;
                assert!(g.has_won(w) || g.pass_streak >= 2);
            }
            None => {
                ends[2] += 1;
                // A draw only by passing with equal flags (BL-11.3).
                assert!(g.pass_streak >= 2);
                let won = g.flags_won();
                assert_eq!(won[0], won[1]);
            }
        }
    }
    assert!(ends[0] > 20 && ends[1] > 20, "{ends:?}");
}

#[test]
fn illegal_actions_change_nothing() {
    for seed in 0..30u64 {
        let mut rng = GameRng::seed(seed + 1000);
        random_game(seed, &options_for(seed), |g, legal| {
            let before = g.to_value();
            for _ in 0..40 {
                let id = rng.below(super::NUM_ACTIONS);
                let a = Action::from_id(id).unwrap();
                if legal.contains(&a) {
                    continue;
                }
                let mut h = g.clone();
                match h.apply(a) {
                    Err(crate::Error::IllegalAction { rule, .. }) => {
                        assert!(rule.starts_with("BL-"), "{rule}")
                    }
                    other => panic!("{a} not in legal list but: {other:?}"),
                }
                assert_eq!(h.to_value(), before);
            }
        });
    }
}

#[test]
fn views_hide_and_resample_keeps_them() {
    for seed in 0..40u64 {
        let mut n = 0u64;
        random_game(seed, &options_for(seed), |g, _| {
            n += 1;
            if n % 3 != 0 {
                return;
            }
            for p in 0..2 {
                let v = g.view_value(p);
                let o = 1 - p;
                // The opponent's hand: only cards known through Scout.
                let known = g.known[p].opp_hand;
                for x in v["hands"][o].as_array().unwrap() {
                    if let Some(s) = x.as_str() {
                        assert!(known.contains(Card::parse(s).unwrap()));
                    }
                }
                assert_eq!(v["hands"][o].as_array().unwrap().len(), g.hands[o].len());
                let r = g.resample(p, n * 7 + p as u64);
                assert_eq!(r.view_value(p), v, "seed {seed}");
                check_invariants(&r);
                // Observations only depend on the view.
                let mut a = vec![0.0; super::observation::OBS_LEN];
                let mut b = vec![0.0; super::observation::OBS_LEN];
                g.write_observation(p, &mut a);
                r.write_observation(p, &mut b);
                assert_eq!(a, b);
                assert_eq!(g.render_text(Some(p)), r.render_text(Some(p)));
                let e = g.evaluate_for(p);
                assert!((-1.0..=1.0).contains(&e));
                assert_eq!(e, r.evaluate_for(p));
            }
        });
    }
}

#[test]
fn resample_redraws_hidden_cards() {
    let g = BattleLine::new(5, &Options::default()).unwrap();
    let r = g.resample(0, 1);
    assert_eq!(r.hands[0], g.hands[0]);
    assert_ne!(r.hands[1], g.hands[1]);
    assert_ne!(r.troop_deck(), g.troop_deck());
    assert_eq!(r.view_value(0), g.view_value(0));
}

#[test]
fn unseen_pool_is_troops_off_the_table() {
    let g = build(json!({
        "flags": [{"sides": [["R1", "Cavalry"], ["B2"]]}],
        "hands": [["R5"], ["P1"]],
        "discard": ["G7"],
    }));
    let off = cards("R1 B2 G7").iter().fold(0u64, |a, c| a | 1 << c.0);
    assert_eq!(g.unseen_troops(), ALL_TROOPS & !off);
    let _ = CardSet::EMPTY;
    let _ = Deck::Troop;
}
