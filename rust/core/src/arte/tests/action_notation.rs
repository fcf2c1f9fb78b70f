//! The action space and its notation: ids, text and actions round-trip; bad text is refused with a reason.

use crate::arte::cards::CardSet;
use crate::arte::notation::{
    action_from_id, action_id, cell_name, notation, num_actions, parse, parse_cell, Action,
};
use crate::error::Error;

#[test]
fn ids_notation_and_actions_round_trip_over_the_whole_space() {
    let set = CardSet::reference();
    let n = num_actions(&set);
    assert_eq!(n, 20 + 2 * 48 + 3 * 12 + 12 * 36);
    let mut seen = std::collections::HashSet::new();
    for id in 0..n {
        let a = action_from_id(&set, id).unwrap();
        assert_eq!(action_id(&set, a), id, "{a:?}");
        let text = notation(&set, a);
        assert!(seen.insert(text.clone()), "distinct notation {text}");
        assert_eq!(parse(&set, &text).unwrap(), a, "{text}");
        assert_eq!(
            parse(&set, &format!("  {}  ", text.replace(' ', "\t"))).unwrap(),
            a
        );
    }
    assert_eq!(action_from_id(&set, n), None);
    assert_eq!(action_from_id(&set, usize::MAX), None);
}

#[test]
fn bad_notation_is_rejected_with_a_reason() {
    let set = CardSet::reference();
    for bad in [
        "",
        "??",
        "pass now",
        "take",
        "take U0",
        "take U37",
        "hide X1",
        "attack d1",
        "attack a4",
        "defend",
        "place U1 1",
        "place T1 4",
        "place T1 0",
        "deploy T1 a1",
        "deploy U1 a0",
        "pick U1 b1",
        "pick T1 1",
        "Pass",
        "take ??",
        "9999999999",
    ] {
        assert!(
            matches!(parse(&set, bad), Err(Error::Notation { .. })),
            "{bad:?} should not parse"
        );
    }
    assert_eq!(parse(&set, "deploy U12 b2").unwrap(), Action::Deploy(23, 4));
    assert_eq!(cell_name(4), "b2");
    assert_eq!(parse_cell("c3"), Some(8));
}
