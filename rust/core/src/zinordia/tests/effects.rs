//! ZN-11 lasting effects, ZN-10.5 durations, ZN-10.2 continuous passives.

use super::*;
use crate::zinordia::ability::{Immunity, Kind, SilenceScope, Stat};
use crate::zinordia::effects::Status;

/// A duel in Main phase where seat 0 fielded Ignara, Torvald, Sylvara and seat 1 Kael,
/// Lúmen, Grom; returns (game, first player).
fn duel(seed: u64) -> (Zinordia, usize) {
    let mut g = game(mode("duel", None), seed);
    let c = g.shared.content.clone();
    for id in ["ignara", "torvald", "sylvara", "kael", "lumen", "grom"] {
        g.apply(Action::Pick(c.star(id).unwrap() as u8)).unwrap();
    }
    through_setup(&mut g);
    let first = g.order[0];
    (g, first)
}

fn buff(stat: Stat, amount: i8, stacks: bool) -> Status {
    Status::Stat {
        stat,
        amount,
        stacks,
    }
}

#[test]
fn zn_11_1_changes_stack_unless_they_say_not() {
    let (mut g, _) = duel(1);
    let base = g.stat(0, Stat::PoderMagico);
    assert!(g.add_status(3, 0, buff(Stat::PoderMagico, -1, true), Some(2)));
    assert!(g.add_status(3, 0, buff(Stat::PoderMagico, -1, true), Some(2)));
    assert_eq!(g.stat(0, Stat::PoderMagico), base - 2);
    let (mut g, _) = duel(1);
    g.add_status(3, 0, buff(Stat::PoderMagico, -1, false), Some(2));
    g.add_status(3, 0, buff(Stat::PoderMagico, -1, false), Some(3));
    assert_eq!(g.stat(0, Stat::PoderMagico), base - 1);
    assert_eq!(g.stars[0].effects.len(), 1);
    assert_eq!(g.stars[0].effects[0].turns, Some(3));
}

#[test]
fn zn_11_4_agility_reduction_lowers_movement_and_dodge() {
    let (mut g, _) = duel(2);
    let agi = g.agilidade(0);
    g.add_status(3, 0, buff(Stat::Agilidade, -2, true), Some(1));
    g.add_status(3, 0, buff(Stat::Agilidade, -2, true), Some(1));
    assert_eq!(g.agilidade(0), agi.saturating_sub(4));
}

#[test]
fn zn_11_3_the_same_mark_refreshes() {
    let (mut g, _) = duel(3);
    g.add_status(3, 0, Status::Mark("presa".into()), Some(1));
    g.add_status(3, 0, Status::Mark("presa".into()), Some(2));
    g.add_status(3, 0, Status::Mark("queimadura".into()), Some(2));
    assert!(g.has_mark(0, "presa") && g.has_mark(0, "queimadura"));
    assert_eq!(g.stars[0].effects.len(), 2);
}

#[test]
fn zn_11_10_immunity_stops_the_effect() {
    let (mut g, _) = duel(4);
    g.add_status(0, 0, Status::Immune(Immunity::Debuff), Some(1));
    g.add_status(0, 0, Status::Immune(Immunity::Mark), Some(1));
    assert!(!g.add_status(3, 0, buff(Stat::Armadura, -1, true), Some(1)));
    assert!(!g.add_status(3, 0, Status::Mark("presa".into()), Some(1)));
    // A buff is no debuff.
    assert!(g.add_status(3, 0, buff(Stat::Armadura, 1, true), Some(1)));
    assert_eq!(g.stars[0].effects.len(), 3);
}

#[test]
fn zn_5_3_durations_tick_at_the_appliers_turn_start() {
    let (mut g, first) = duel(5);
    let second = 1 - first;
    let (mine, theirs) = (first * 3, second * 3);
    g.add_status(mine, theirs, buff(Stat::Armadura, -1, true), Some(1));
    g.apply(Action::EndTurn).unwrap();
    // The second player's turn: not the applier's, nothing ticks.
    assert_eq!(g.stars[theirs].effects.len(), 1);
    // ZN-5.3: Armadura restored to the current maximum, the debuff counted.
    let printed = i32::from(g.star_data(theirs).armadura);
    assert_eq!(i32::from(g.stars[theirs].armadura), (printed - 1).max(0));
    g.apply(Action::EndTurn).unwrap();
    assert!(
        g.stars[theirs].effects.is_empty(),
        "ticked to 0 at the applier's turn"
    );
}

#[test]
fn zn_10_5_an_untimed_change_ends_with_the_turn() {
    let (mut g, first) = duel(6);
    let s = first * 3;
    g.add_status(s, s, buff(Stat::PoderMagico, 2, true), None);
    assert_eq!(
        g.stat(s, Stat::PoderMagico),
        i32::from(g.star_data(s).poder_magico) + 2
    );
    g.apply(Action::EndTurn).unwrap();
    assert!(g.stars[s].effects.is_empty());
}

#[test]
fn zn_11_9_damage_over_time_at_the_appliers_second_maintenance() {
    let (mut g, first) = duel(7);
    let (mine, theirs) = (first * 3, (1 - first) * 3);
    g.stars[theirs].armadura = 0;
    let vida = g.stars[theirs].vida;
    g.add_status(mine, theirs, Status::Dot { amount: 2 }, Some(2));
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(g.stars[theirs].vida, vida - 2);
    // A lethal instance credits the applier (ZN-12.3).
    let (mut g, first) = duel(7);
    let (mine, theirs) = (first * 3, (1 - first) * 3);
    g.stars[theirs].armadura = 0;
    g.stars[theirs].vida = 1;
    g.stars[theirs].renown = 1;
    g.add_status(mine, theirs, Status::Dot { amount: 2 }, Some(2));
    g.apply(Action::EndTurn).unwrap();
    assert!(g.stars[theirs].defeated);
    assert_eq!(g.stars[mine].renown, 2);
}

#[test]
fn zn_10_2_continuous_passive_and_its_silence() {
    let (mut g, _) = duel(8);
    // Torvald (seat 0, slot 1): +1 defence while an ally is adjacent.
    let torvald = 1;
    // A free zone with no Star around it and a free neighbour.
    let (spot, next) = g
        .shared
        .zones
        .iter()
        .copied()
        .filter(|&h| g.board.is_open(h))
        .find_map(|h| {
            let around = crate::hex::coords::neighbors(h);
            let lonely = around.iter().all(|&n| g.board.occupant(n).is_none());
            let free = around.into_iter().find(|&n| g.board.is_open(n));
            if lonely {
                free.map(|f| (h, f))
            } else {
                None
            }
        })
        .unwrap();
    put(&mut g, torvald, spot);
    assert_eq!(g.stat(torvald, Stat::Defence), 0, "alone: no bonus");
    put(&mut g, 0, next);
    assert_eq!(g.stat(torvald, Stat::Defence), 1);
    // A silence of passives switches it off (ZN-11.5).
    g.add_status(
        3,
        torvald,
        Status::Silence {
            scope: SilenceScope::All,
            passives: true,
        },
        Some(1),
    );
    assert!(g.is_silenced(torvald, Kind::Passive) && g.is_silenced(torvald, Kind::Attack));
    assert_eq!(g.stat(torvald, Stat::Defence), 0);
}

#[test]
fn zn_11_5_silence_scopes() {
    let (mut g, _) = duel(9);
    g.add_status(
        3,
        0,
        Status::Silence {
            scope: SilenceScope::Attacks,
            passives: false,
        },
        Some(1),
    );
    assert!(g.is_silenced(0, Kind::Attack));
    assert!(!g.is_silenced(0, Kind::Instant));
    assert!(!g.is_silenced(0, Kind::Reaction));
    assert!(!g.is_silenced(0, Kind::Passive));
}

/// ZN-5.7, ZN-5.3 (**Reading**): a defeated Star's effects end with it; the effects a
/// player's Stars applied last while that player has a Star on the board (their damage over
/// time included, ZN-12.3), and end when it is out, since their durations count its turns
/// and none come.
#[test]
fn zn_5_7_the_effects_of_a_player_who_is_out_end() {
    let mut g = game(mode("free_for_all", Some(3)), 4);
    through_setup(&mut g);
    let k = g.shared.per_player;
    let (a, b, c) = (0, k, 2 * k);
    let debuff = Status::Stat {
        stat: Stat::Agilidade,
        amount: -1,
        stacks: true,
    };
    g.add_status(a, c, debuff.clone(), Some(3));
    g.add_status(a + 1, c, Status::Dot { amount: 1 }, Some(3));
    g.add_status(b, a, debuff.clone(), Some(3));
    assert_eq!(g.stars[a].effects.len(), 1);
    // One of the player's Stars is defeated: its own effects end, the player's stay.
    g.hit(Some(b), a, 1000);
    assert!(g.stars[a].defeated);
    assert!(g.stars[a].effects.is_empty());
    assert_eq!(g.stars[c].effects.len(), 2);
    // The player's last Star is defeated: the player is out, its effects end.
    for s in a + 1..k {
        g.hit(Some(b), s, 1000);
    }
    assert!(!g.player_in_game(0));
    assert!(g.stars[c].effects.is_empty());
    // A saved state cannot bring them back.
    let mut v = crate::game::Game::to_json(&g);
    v["stars"][c]["effects"] = serde_json::json!([
        {"status": {"kind": "dot", "amount": 1}, "applier": 0, "by": 1, "turns": 2}
    ]);
    let e = <Zinordia as crate::game::Game>::from_json(&v)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!("$.stars[{c}].effects[0].applier")),
        "{e}"
    );
    v["stars"][c]["effects"] = serde_json::json!([]);
    v["stars"][a]["effects"] = serde_json::json!([
        {"status": {"kind": "dot", "amount": 1}, "applier": 1, "by": b, "turns": 2}
    ]);
    let e = <Zinordia as crate::game::Game>::from_json(&v)
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("$.stars[{a}].effects")), "{e}");
}
