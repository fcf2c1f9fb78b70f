//! ZN-5, ZN-6, ZN-12: maintenances, plays, movement, Renown markers, victory; random games.

use super::*;
use crate::error::Error;
use crate::rng::GameRng;

fn rule_of(r: crate::error::Result<()>) -> String {
    match r {
        Err(Error::IllegalAction { rule, .. }) => rule,
        other => panic!("expected an illegal action, got {other:?}"),
    }
}

/// A duel in its Main phase; returns (game, first player).
fn duel(seed: u64) -> (Zinordia, usize) {
    let mut g = game(mode("duel", None), seed);
    through_setup(&mut g);
    let first = g.order[0];
    (g, first)
}

/// A free zone with no Star or marker on it, and one of its free neighbours; the zone has
/// at least three free neighbours.
fn open_spot(g: &Zinordia) -> (Hex, Hex) {
    g.shared
        .zones
        .iter()
        .copied()
        .filter(|&h| g.board.is_open(h) && !g.markers.contains(&h))
        .find_map(|h| {
            let free: Vec<Hex> = crate::hex::coords::neighbors(h)
                .into_iter()
                .filter(|&n| g.board.is_open(n) && !g.markers.contains(&n))
                .collect();
            (free.len() >= 3).then(|| (h, free[0]))
        })
        .expect("an open spot")
}

#[test]
fn zn_5_3_first_maintenance_regains_amago_and_restores_armadura() {
    let (mut g, first) = duel(1);
    let second = 1 - first;
    let s = second * 3;
    let max_arm = u16::from(g.star_data(s).armadura);
    g.stars[s].amago = 0;
    g.stars[s].armadura = 0;
    g.stars[s + 1].amago = g.star_data(s + 1).amago - 1;
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(g.current_player(), Some(second));
    assert_eq!(g.stars[s].amago, 2);
    assert_eq!(g.stars[s].armadura, max_arm);
    assert_eq!(
        g.stars[s + 1].amago,
        g.star_data(s + 1).amago,
        "never above the starting Âmago"
    );
}

#[test]
fn zn_6_2_movement_up_to_agilidade_split_into_moves() {
    let (mut g, first) = duel(2);
    let s = first * 3;
    let (spot, step) = open_spot(&g);
    put(&mut g, s, spot);
    // Every ability already used this round (ZN-10.8): only movement is left.
    g.stars[s].uses = [u8::MAX; 4];
    g.apply(Action::Play(0)).unwrap();
    let agi = u64::from(g.agilidade(s));
    let reach = g.board.reachable(spot, agi).unwrap();
    let mut want: Vec<Action> = reach
        .iter()
        .filter(|&&(h, _)| h != spot)
        .map(|&(h, _)| Action::Move(g.shared.zone_id(h).unwrap() as u8))
        .collect();
    want.sort_by_key(|a| g.shared.action_id(*a));
    let moves: Vec<Action> = legal(&g)
        .into_iter()
        .filter(|a| matches!(a, Action::Move(_)))
        .collect();
    assert_eq!(moves, want);
    // One zone now, the rest later.
    g.apply(Action::Move(g.shared.zone_id(step).unwrap() as u8))
        .unwrap();
    assert_eq!(g.play.unwrap().moved, 1);
    let far = g
        .board
        .reachable(step, 10)
        .unwrap()
        .into_iter()
        .find(|&(_, c)| c == agi)
        .map(|(h, _)| h)
        .unwrap();
    let z = g.shared.zone_id(far).unwrap() as u8;
    assert_eq!(rule_of(g.check(Action::Move(z))), "ZN-6.2");
}

#[test]
fn zn_2_8_no_entering_a_star_or_an_obstacle() {
    let (mut g, first) = duel(3);
    let (s, foe) = (first * 3, (1 - first) * 3);
    let (spot, next) = open_spot(&g);
    put(&mut g, s, spot);
    put(&mut g, foe, next);
    g.apply(Action::Play(0)).unwrap();
    let z = g.shared.zone_id(next).unwrap() as u8;
    let before = g.clone();
    assert_eq!(rule_of(g.apply(Action::Move(z))), "ZN-2.8");
    assert_eq!(g.stars, before.stars);
    let rock = g
        .shared
        .zones
        .iter()
        .copied()
        .find(|&h| !g.shared.map.is_open(h))
        .unwrap();
    let z = g.shared.zone_id(rock).unwrap() as u8;
    assert_eq!(rule_of(g.check(Action::Move(z))), "ZN-2.8");
}

#[test]
fn zn_5_4_plays_do_not_interleave() {
    let (mut g, _) = duel(4);
    g.apply(Action::Play(0)).unwrap();
    assert_eq!(rule_of(g.check(Action::Play(1))), "ZN-5.4");
    assert_eq!(rule_of(g.check(Action::EndTurn)), "ZN-6.1");
    g.apply(Action::EndPlay).unwrap();
    assert_eq!(rule_of(g.check(Action::Play(0))), "ZN-5.4");
    assert!(g.check(Action::Play(1)).is_ok());
}

#[test]
fn zn_6_5_collecting_renown_uses_the_activation() {
    let (mut g, first) = duel(5);
    let s = first * 3;
    let marker = g.markers[1];
    put(&mut g, s, marker);
    g.apply(Action::Play(0)).unwrap();
    assert!(legal(&g).contains(&Action::Collect));
    g.apply(Action::Collect).unwrap();
    assert_eq!(g.stars[s].renown, 1);
    assert!(!g.markers.contains(&marker));
    assert_eq!(g.markers.len(), 2);
    assert_eq!(rule_of(g.check(Action::Collect)), "ZN-6.4");
    // Movement is still allowed after the activation (ZN-6.2).
    assert!(legal(&g).iter().any(|a| matches!(a, Action::Move(_))));
}

#[test]
fn zn_6_6_a_play_with_nothing_left_ends_by_itself() {
    let (mut g, first) = duel(6);
    let s = first * 3;
    let (spot, _) = open_spot(&g);
    put(&mut g, s, spot);
    // Every ability already used this round (ZN-10.8): only movement is left.
    g.stars[s].uses = [u8::MAX; 4];
    g.apply(Action::Play(0)).unwrap();
    let agi = u64::from(g.agilidade(s));
    let far = g
        .board
        .reachable(spot, agi)
        .unwrap()
        .into_iter()
        .find(|&(h, c)| c == agi && !g.markers.contains(&h))
        .map(|(h, _)| h)
        .unwrap();
    g.apply(Action::Move(g.shared.zone_id(far).unwrap() as u8))
        .unwrap();
    assert_eq!(g.play, None);
    assert!(g.stars[s].played);
}

#[test]
fn zn_12_6_reaching_the_target_wins_at_once() {
    let (mut g, first) = duel(7);
    let s = first * 3;
    g.stars[s + 1].renown = 3; // target 4
    let marker = g.markers[0];
    put(&mut g, s, marker);
    g.apply(Action::Play(0)).unwrap();
    g.apply(Action::Collect).unwrap();
    assert_eq!(g.phase, Phase::Over);
    assert_eq!(g.current_player(), None);
    assert_eq!(g.winner, Some(first));
    let mut want = vec![-1.0; 2];
    want[first] = 1.0;
    assert_eq!(g.returns(), want);
    assert!(legal(&g).is_empty());
    assert_eq!(rule_of(g.check(Action::EndTurn)), "ZN-12.6");
}

#[test]
fn zn_12_7_simultaneous_target_goes_to_more_renown_then_initiative() {
    // Both teams at the target after one resolution: the higher total wins ...
    let (mut g, first) = duel(8);
    let second = 1 - first;
    g.stars[second * 3].renown = 5;
    g.stars[first * 3 + 1].renown = 3;
    let m0 = g.markers[0];
    put(&mut g, first * 3, m0);
    g.apply(Action::Play(0)).unwrap();
    g.apply(Action::Collect).unwrap();
    assert_eq!(g.winner, Some(second));
    // ... and equal totals go to the earlier in initiative order.
    let (mut g, first) = duel(8);
    let second = 1 - first;
    g.stars[second * 3].renown = 4;
    g.stars[first * 3 + 1].renown = 3;
    let m0 = g.markers[0];
    put(&mut g, first * 3, m0);
    g.apply(Action::Play(0)).unwrap();
    g.apply(Action::Collect).unwrap();
    assert_eq!(g.winner, Some(first));
}

#[test]
fn zn_5_8_max_rounds_ends_by_the_tie_rule() {
    let mut g = game(
        Options {
            max_rounds: 1,
            ..mode("duel", None)
        },
        9,
    );
    through_setup(&mut g);
    let (first, second) = (g.order[0], g.order[1]);
    g.stars[second * 3].renown = 1;
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(g.current_player(), Some(second));
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(g.phase, Phase::Over);
    assert_eq!(g.winner, Some(second));
    // No Renown at all: the first in initiative order.
    let mut g = game(
        Options {
            max_rounds: 1,
            ..mode("duel", None)
        },
        9,
    );
    through_setup(&mut g);
    g.apply(Action::EndTurn).unwrap();
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(g.winner, Some(first));
}

/// Invariants after every action: each placed Star on exactly one zone, the board's
/// occupants matching; Vida, Âmago and Armadura within bounds.
pub(super) fn check_invariants(g: &Zinordia) {
    let mut seen = 0;
    for (h, who) in g.board.occupants() {
        let s = who as usize;
        assert_eq!(g.stars[s].zone, Some(h));
        seen += 1;
    }
    let placed = g.stars.iter().filter(|s| s.zone.is_some()).count();
    assert_eq!(seen, placed);
    for (i, st) in g.stars.iter().enumerate() {
        let d = g.star_data(i);
        assert!(st.vida <= d.vida && st.amago <= d.amago);
        // Armadura is restored to the current maximum, which buffs and continuous passives
        // may raise: bounded by the printed value plus every positive Armadura change the
        // Star has or could have.
        let mut most = i32::from(d.armadura);
        for a in &d.abilities {
            if a.trigger.is_some_and(|t| t.is_continuous()) {
                for e in &a.effects {
                    if let crate::zinordia::ability::Effect::Stat { stat, amount, .. } = e {
                        if *stat == crate::zinordia::ability::Stat::Armadura && *amount > 0 {
                            most += i32::from(*amount);
                        }
                    }
                }
            }
        }
        for e in &st.effects {
            if let crate::zinordia::effects::Status::Stat { stat, amount, .. } = e.status {
                if stat == crate::zinordia::ability::Stat::Armadura && amount > 0 {
                    most += i32::from(amount);
                }
            }
        }
        assert!(i32::from(st.armadura) <= most);
    }
}

#[test]
fn zn_random_games_end_in_every_mode() {
    for (m, n) in EVERY_MODE {
        for seed in 0..30 {
            let mut g = game(mode(m, n), seed);
            let mut rng = GameRng::seed(seed + 1000);
            let mut steps = 0;
            while g.current_player().is_some() {
                let acts = legal(&g);
                assert!(!acts.is_empty(), "{m} seed {seed}: no legal action");
                for &a in &acts {
                    // Ids and notation round-trip; every generated action passes `check`.
                    let id = g.shared.action_id(a);
                    assert!(id < g.shared.num_actions());
                    assert_eq!(g.shared.action_from_id(id), Some(a));
                    let text = g.shared.action_notation(a);
                    assert_eq!(g.shared.parse_action(&text).unwrap(), a, "{text}");
                    assert!(g.check(a).is_ok());
                }
                let a = *rng.choose(&acts).unwrap();
                g.apply(a).unwrap();
                check_invariants(&g);
                steps += 1;
                assert!(steps < 20_000, "{m} seed {seed} does not end");
            }
            assert_eq!(g.phase, Phase::Over);
            assert!(g.winner.is_some());
        }
    }
}

#[test]
fn zn_notation_errors_are_clear() {
    let (g, _) = duel(10);
    for bad in [
        "",
        "fly 1,1",
        "move 99,99",
        "move a,b",
        "play 0",
        "play 9",
        "pick nobody",
    ] {
        match g.shared.parse_action(bad) {
            Err(Error::Notation { .. }) => {}
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    let long = "x".repeat(10_000);
    let msg = g.shared.parse_action(&long).unwrap_err().to_string();
    assert!(msg.len() < 300);
}

/// ZN-6.3: a move walks `HexMap::path`'s path; the zone-bitset search the engine runs finds
/// the same path for every pair of zones of every reference map, empty and with Stars on
/// random zones.
#[test]
fn zn_6_3_moves_walk_hex_path_on_every_reference_map() {
    let content = Content::reference().expect("reference content");
    let mut rng = GameRng::seed(63);
    for gm in &content.maps {
        let hexes: Vec<Hex> = gm.map.zones().collect();
        for crowd in [0, 4, 8, 16] {
            let mut m = gm.map.clone();
            for s in 0..crowd {
                m.set_occupant(*rng.choose(&hexes).unwrap(), Some(s))
                    .unwrap();
            }
            for &a in &hexes {
                for &b in &hexes {
                    assert_eq!(
                        m.zone_path(&gm.graph, a, b).unwrap(),
                        m.path(a, b).unwrap(),
                        "map {}: {a:?} to {b:?}",
                        gm.id
                    );
                }
            }
        }
    }
}
