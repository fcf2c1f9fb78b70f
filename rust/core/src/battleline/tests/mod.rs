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
    // The cache agrees with fresh proofs, read only (the observation's) and refreshed.
    for p in 0..2 {
        let mut fresh = 0u16;
        for f in 0..9 {
            let holds = g.claim_proof(f, p).is_some_and(|x| x.holds());
            fresh |= u16::from(holds) << f;
            let mut c = g.clone();
            assert_eq!(c.can_claim(f, p), holds, "flag {f} player {p}");
        }
        assert_eq!(g.claims_holding(p), fresh, "player {p}");
        let mut c = g.clone();
        c.claimable_flags(p);
        assert_eq!(c.claims_holding(p), fresh, "player {p}, cache refreshed");
    }
    // The legal ids as bits are the legal list's.
    let mut legal = Vec::new();
    g.legal(&mut legal);
    let mut words = [0u64; super::NUM_ACTIONS.div_ceil(64)];
    assert!(g.legal_bits(&mut words));
    let ids: Vec<usize> = (0..super::NUM_ACTIONS)
        .filter(|&i| words[i / 64] >> (i % 64) & 1 == 1)
        .collect();
    assert_eq!(ids, legal.iter().map(|a| a.id()).collect::<Vec<_>>());
    assert!(!g.legal_bits(&mut [0u64; 31]));
    // The observation's card section and claim features agree with a plain writer.
    for p in 0..2 {
        let mut obs = vec![0.5f32; super::observe::OBS_LEN];
        g.write_observation(p, &mut obs).unwrap();
        assert_eq!(reference_observation(g, p), obs, "player {p}");
    }
    // JSON round trip.
    let v = g.to_value();
    let back = BattleLine::from_value(&v).unwrap();
    assert_eq!(back.to_value(), v);
}

/// The observation's card section and claim features written the plain way (each place's
/// cards in turn, a fresh proof per flag and player), the rest copied from the writer's own:
/// what the writer's location table and claim cache must reproduce.
fn reference_observation(g: &BattleLine, me: usize) -> Vec<f32> {
    use super::observe::{CARD_FEATURES, FLAGS_OFFSET, FLAG_FEATURES, OBS_LEN};
    let op = 1 - me;
    let mut out = vec![0.0f32; OBS_LEN];
    g.write_observation(me, &mut out).unwrap();
    out[..FLAGS_OFFSET].fill(0.0);
    let k = &g.known[me];
    let mut set = |c: Card, feat: usize| out[c.id() * CARD_FEATURES + feat] = 1.0;
    for c in g.hands[me].iter() {
        set(c, 0);
    }
    for c in g.hands[op].iter() {
        set(c, if k.opp_hand.contains(c) { 1 } else { 22 });
    }
    for (d, deck) in [g.troop_deck(), g.tactics_deck()].iter().enumerate() {
        for (i, &c) in deck.iter().enumerate() {
            set(c, if k.deck_pos[d] >> i & 1 == 1 { 21 } else { 22 });
        }
    }
    for &c in g.discard() {
        set(c, 20);
    }
    for (f, fl) in g.flags.iter().enumerate() {
        for p in 0..2 {
            let mut cards: Vec<Card> = fl.side(p).to_vec();
            cards.extend(fl.fog.filter(|&s| s as usize == p).map(|_| Card::FOG));
            cards.extend(fl.mud.filter(|&s| s as usize == p).map(|_| Card::MUD));
            for c in cards {
                set(c, if p == me { 2 + f } else { 11 + f });
            }
        }
    }
    for f in 0..9 {
        let o = FLAGS_OFFSET + f * FLAG_FEATURES;
        for (i, p) in [(6, me), (7, op)] {
            out[o + i] = f32::from(u8::from(g.claim_proof(f, p).is_some_and(|x| x.holds())));
        }
    }
    out
}

mod claims;
mod end;
mod evaluate;
mod formations;
mod guile;
mod heuristic;
mod infer;
mod placing;
mod random_games;
mod saved;
/// A uniformly random game from `seed`, calling `each` before every move.
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
        assert!(
            !buf.is_empty(),
            "no legal action:\n{}",
            g.render_text(None).unwrap()
        );
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

mod seen;
mod setup;
mod turn;
