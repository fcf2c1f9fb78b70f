//! ZN-4: selection, initiative, placement, markers.

use super::*;
use crate::error::Error;
use crate::zinordia::content::{PRIVILEGE, RENOWN, START};
use crate::zinordia::options::{Placement, Selection};

fn rule_of(r: crate::error::Result<()>) -> String {
    match r {
        Err(Error::IllegalAction { rule, .. }) => rule,
        other => panic!("expected an illegal action, got {other:?}"),
    }
}

#[test]
fn zn_4_2_secret_selection_one_player_at_a_time() {
    let mut g = game(mode("duel", None), 1);
    assert_eq!(g.current_player(), Some(0));
    for s in [0u8, 1, 2] {
        assert_eq!(g.current_player(), Some(0));
        g.apply(Action::Pick(s)).unwrap();
    }
    // Player 1 may field the same Stars (ZN-1.2 is per team) but not one twice.
    assert_eq!(g.current_player(), Some(1));
    g.apply(Action::Pick(0)).unwrap();
    let before = g.picks.clone();
    assert_eq!(rule_of(g.apply(Action::Pick(0))), "ZN-1.2");
    assert_eq!(g.picks, before, "a refused pick changes nothing");
    g.apply(Action::Pick(5)).unwrap();
    g.apply(Action::Pick(6)).unwrap();
    assert!(matches!(g.phase, Phase::Place { .. }));
    assert_eq!(*g.picks, vec![vec![0, 1, 2], vec![0, 5, 6]]);
    assert_eq!(g.stars.len(), 6);
    assert_eq!(g.stars[3].roster, 0);
}

#[test]
fn zn_4_2_draft_alternates_and_takes() {
    let mut g = game(
        Options {
            selection: Selection::Draft,
            ..mode("duel", None)
        },
        2,
    );
    g.apply(Action::Pick(3)).unwrap();
    assert_eq!(g.current_player(), Some(1));
    assert_eq!(rule_of(g.check(Action::Pick(3))), "ZN-4.2");
    assert!(!legal(&g).contains(&Action::Pick(3)));
    g.apply(Action::Pick(4)).unwrap();
    assert_eq!(g.current_player(), Some(0));
}

#[test]
fn zn_4_2_partners_do_not_repeat_a_star() {
    let mut g = game(mode("teams", None), 3);
    for s in [0u8, 1] {
        g.apply(Action::Pick(s)).unwrap();
    }
    // Player 1 (the other team) may take Star 0; player 2 (player 0's partner) may not.
    g.apply(Action::Pick(0)).unwrap();
    g.apply(Action::Pick(2)).unwrap();
    assert_eq!(g.current_player(), Some(2));
    assert_eq!(rule_of(g.check(Action::Pick(0))), "ZN-1.2");
    assert!(g.check(Action::Pick(2)).is_ok());
}

#[test]
fn zn_4_2_selection_refuses_other_actions() {
    let g = game(mode("duel", None), 4);
    assert_eq!(rule_of(g.check(Action::EndTurn)), "ZN-4.2");
}

#[test]
fn zn_4_3_initiative_by_dice_highest_first() {
    for seed in 0..40 {
        let mut g = game(mode("free_for_all", Some(4)), seed);
        while matches!(g.phase, Phase::Select { .. }) {
            let a = legal(&g)[0];
            g.apply(a).unwrap();
        }
        let mut sorted = (*g.order).clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2, 3]);
        // The first roll decides everyone with a distinct die; the highest goes first.
        let first = &g.rolls[0];
        let top = first.iter().map(|&(_, d)| d).max().unwrap();
        let tops: Vec<usize> = first
            .iter()
            .filter(|&&(_, d)| d == top)
            .map(|&(p, _)| p)
            .collect();
        assert!(tops.contains(&g.order[0]), "seed {seed}");
        if tops.len() == 1 {
            assert_eq!(g.order[0], tops[0], "seed {seed}");
        } else {
            assert!(g.rolls.len() >= 2, "a tie at the top is rerolled");
        }
    }
}

#[test]
fn zn_4_3_teams_alternate() {
    for seed in 0..20 {
        let mut g = game(mode("teams", None), seed);
        through_setup(&mut g);
        let o = &g.order;
        assert_eq!(o[0] % 2, o[2] % 2);
        assert_ne!(o[0] % 2, o[1] % 2);
        assert_eq!((o[0] + 2, o[1] + 2), (o[2], o[3]));
    }
}

#[test]
fn zn_4_4_first_player_on_start_zones_others_on_privilege() {
    let mut g = game(mode("duel", None), 5);
    while matches!(g.phase, Phase::Select { .. }) {
        let a = legal(&g)[0];
        g.apply(a).unwrap();
    }
    let first = g.order[0];
    // Alternate placement: first, second, first, ...
    assert_eq!(
        g.placement_order(),
        vec![first, 1 - first, first, 1 - first, first, 1 - first]
    );
    let start = g.shared.map.tagged(START);
    let privilege = g.shared.map.tagged(PRIVILEGE);
    assert_eq!(g.placement_zones(first), start);
    assert_eq!(g.placement_zones(1 - first), privilege);
    // A zone of the wrong kind is refused, naming ZN-4.4, and changes nothing.
    let wrong = g.shared.zone_id(privilege[0]).unwrap() as u8;
    assert_eq!(
        rule_of(g.apply(Action::Place {
            slot: 0,
            zone: wrong
        })),
        "ZN-4.4"
    );
    assert!(g.stars.iter().all(|s| s.zone.is_none()));
    through_setup(&mut g);
    for s in 0..6 {
        let h = g.stars[s].zone.unwrap();
        let own = if s / 3 == first { &start } else { &privilege };
        assert!(own.contains(&h));
        assert_eq!(g.board.occupant(h), Some(s as u32));
    }
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.current_player(), Some(first));
}

#[test]
fn zn_4_4_free_for_all_everyone_on_privilege_zones_in_blocks() {
    let mut g = game(
        Options {
            placement: Placement::Blocks,
            ..mode("free_for_all", Some(3))
        },
        6,
    );
    while matches!(g.phase, Phase::Select { .. }) {
        let a = legal(&g)[0];
        g.apply(a).unwrap();
    }
    let o = g.order.clone();
    assert_eq!(
        g.placement_order(),
        vec![o[0], o[0], o[1], o[1], o[2], o[2]]
    );
    let privilege = g.shared.map.tagged(PRIVILEGE);
    for p in 0..3 {
        assert_eq!(g.placement_zones(p), privilege);
    }
}

#[test]
fn zn_4_5_markers_on_renown_zones() {
    let g = game(mode("duel", None), 7);
    let mut renown = g.shared.map.tagged(RENOWN);
    renown.sort_by_key(|h| (h.y, h.x));
    assert_eq!(*g.markers, renown);
    assert_eq!(g.markers.len(), 3);
}

#[test]
fn zn_3_2_options_are_checked() {
    let content = Content::reference().unwrap();
    let bad = [
        Options {
            mode: "chess".into(),
            ..Options::default()
        },
        Options {
            players: Some(3),
            ..Options::default()
        },
        Options {
            map: Some("crossroads".into()),
            ..Options::default()
        },
        Options {
            max_rounds: 0,
            ..Options::default()
        },
    ];
    for o in bad {
        let r = Zinordia::with_content(0, &o, content.clone());
        assert!(matches!(r, Err(Error::Options { .. })), "{o:?}");
    }
}

/// ZN-2.1, ZN-2.2: the board a game plays on is its map (the same zones in the same order,
/// terrains, entry costs, tags, name), on every reference map; a Star placed on a copy's
/// board (`board_mut`) is on that copy's board only, never on the game's map nor on the
/// board of the state it was copied from.
#[test]
fn zn_2_1_the_board_is_the_map_and_each_copy_places_its_own_stars() {
    let content = Content::reference().expect("reference content");
    let mut seen = std::collections::BTreeSet::new();
    for (id, players) in EVERY_MODE {
        let m = content
            .modes
            .iter()
            .find(|m| m.id == id)
            .expect("a reference mode");
        for map_id in &m.maps {
            let gm = content.map(map_id).expect("a reference map");
            let options = Options {
                map: Some(map_id.clone()),
                ..mode(id, players)
            };
            let g = Zinordia::with_content(1, &options, content.clone()).expect("valid options");
            seen.insert(map_id.clone());
            assert_eq!(*g.board, gm.map, "{}", gm.id);
            assert_eq!(g.shared.map, gm.map, "{}", gm.id);
            assert_eq!(
                g.board.zones().collect::<Vec<_>>(),
                g.shared.zones,
                "{}",
                gm.id
            );
            let open: Vec<Hex> = g.board.zones().filter(|&h| g.board.is_open(h)).collect();
            let mut c = g.clone();
            c.board_mut().set_occupant(open[0], Some(0)).unwrap();
            assert_eq!(c.board.occupant(open[0]), Some(0), "{}", gm.id);
            assert_eq!(g.board.occupant(open[0]), None, "{}", gm.id);
            assert_eq!(*g.board, gm.map, "{}", gm.id);
            assert_eq!(c.shared.map.occupant(open[0]), None, "{}", gm.id);
            assert_eq!(c.board.tag_names(), gm.map.tag_names(), "{}", gm.id);
        }
    }
    assert_eq!(seen.len(), content.maps.len(), "every reference map");
}
