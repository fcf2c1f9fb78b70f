//! Action ids and text (notation.rs): every id of the layout maps to one action and back,
//! ability actions name abilities by id on the acting Star and by number without one.

use super::*;
use crate::zinordia::state::{Offer, Play};
use crate::zinordia::Trigger;

#[test]
fn zn_ids_cover_the_layout_one_to_one() {
    let g = game(mode("duel", None), 1);
    let sh = &g.shared;
    let z = sh.zones.len();
    // S picks, K·Z places, K plays, Z moves, 4·Z·2 activations, 3 tail, 4·2 reactions, decline.
    let expected = sh.content.stars.len() + 3 * z + 3 + z + 8 * z + 3 + 8 + 1;
    assert_eq!(sh.num_actions(), expected);
    for id in 0..sh.num_actions() {
        let a = sh.action_from_id(id).expect("every id is an action");
        assert_eq!(sh.action_id(a), id, "{a:?}");
        let text = sh.action_notation(a);
        assert_eq!(sh.parse_action(&text).unwrap(), a, "{text}");
    }
    assert_eq!(sh.action_from_id(sh.num_actions()), None);
}

#[test]
fn zn_ability_actions_read_ids_on_the_acting_star() {
    let mut g = game(mode("duel", None), 2);
    through_setup(&mut g);
    let p = g.turn_player();
    let s = p * g.shared.per_player;
    g.play = Some(Play {
        star: s,
        moved: 0,
        activated: false,
        activations: 0,
    });
    let zone = g.shared.zone_id(g.stars[s].zone.unwrap()).unwrap() as u8;
    let data = g.star_data(s).clone();
    for (i, ab) in data.abilities.iter().enumerate() {
        for alt in [false, true] {
            let a = Action::Activate {
                ability: i as u8,
                target: zone,
                alt,
            };
            let text = g.action_notation(a);
            assert!(text.starts_with(&format!("use {} ", ab.id)), "{text}");
            assert_eq!(text.ends_with(" alt"), alt);
            assert_eq!(g.parse_action(&text).unwrap(), a);
            // The number on the sheet parses to the same action.
            let numbered = g.shared.action_notation(a);
            assert_eq!(g.parse_action(&numbered).unwrap(), a);
        }
    }
    // A reaction window asks about an enemy Star: `react` reads its abilities.
    let e = (1 - p) * g.shared.per_player;
    g.offers.push_back(Offer {
        star: e,
        trigger: Trigger::Targeted,
        source: Some(s),
    });
    let enemy = g.star_data(e).clone();
    for (i, ab) in enemy.abilities.iter().enumerate() {
        let a = Action::React {
            ability: i as u8,
            alt: false,
        };
        assert_eq!(g.action_notation(a), format!("react {}", ab.id));
        assert_eq!(g.parse_action(&format!("react {}", ab.id)).unwrap(), a);
    }
    assert_eq!(g.parse_action("decline").unwrap(), Action::Decline);
    for bad in [
        "use",
        "use 0 0,0",
        "use 5 0,0",
        "use nothing 0,0",
        "use 1 0,0 twice",
        "react",
        "react 1 alt alt",
    ] {
        match g.parse_action(bad) {
            Err(crate::error::Error::Notation { .. }) => {}
            other => panic!("{bad:?}: {other:?}"),
        }
    }
}
