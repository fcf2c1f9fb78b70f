//! What each seat sees of a move (`Game::action_seen`): the rules' public and secret parts.

use super::*;

fn seen_both(g: &Arte, text: &str) -> (String, String) {
    let a = act(g, text);
    let mover = g.current().unwrap();
    (g.action_seen(mover, a), g.action_seen(1 - mover, a))
}

/// AG-2.2, AG-2.3, AG-9.2: the picker's hidden card reads "hide (secret)" to the chooser; a
/// take reads whole (`take ?` names no card).
#[test]
fn ag_2_2_the_hidden_draft_card_is_secret_and_takes_are_public() {
    let mut g = Arte::new(4, &opts()).unwrap();
    let hide = legal(&g)[0].clone();
    assert!(hide.starts_with("hide "), "{hide}");
    let (mine, theirs) = seen_both(&g, &hide);
    assert_eq!(
        (mine.as_str(), theirs.as_str()),
        (hide.as_str(), "hide (secret)")
    );
    play(&mut g, &hide);
    for take in legal(&g) {
        assert!(take.starts_with("take "), "{take}");
        let (mine, theirs) = seen_both(&g, &take);
        assert_eq!(
            (mine.as_str(), theirs.as_str()),
            (take.as_str(), take.as_str())
        );
    }
}

/// AG-3.2, AG-5.2, AG-9.4: terrain placement and simultaneous deployment are secret;
/// alternating deployment is face up.
#[test]
fn ag_3_2_and_ag_5_2_placement_and_simultaneous_deployment_are_secret() {
    let mut g = after_draft(5, &opts());
    assert_eq!(g.phase, Phase::Terrain);
    let place = legal(&g)[0].clone();
    assert_eq!(
        seen_both(&g, &place),
        (place.clone(), "place (secret)".into())
    );
    while g.phase == Phase::Terrain {
        let a = legal(&g)[0].clone();
        play(&mut g, &a);
    }
    let deploy = legal(&g)[0].clone();
    assert!(deploy.starts_with("deploy "), "{deploy}");
    assert_eq!(
        seen_both(&g, &deploy),
        (deploy.clone(), "deploy (secret)".into())
    );
    let alternating = Options {
        deployment: Deployment::Alternating,
        ..opts()
    };
    let mut g = after_draft(5, &alternating);
    while g.phase == Phase::Terrain {
        let a = legal(&g)[0].clone();
        play(&mut g, &a);
    }
    let deploy = legal(&g)[0].clone();
    assert_eq!(seen_both(&g, &deploy), (deploy.clone(), deploy.clone()));
}

/// AG-6, AG-7, AG-9.6: attacks, defences and passes are public.
#[test]
fn ag_6_combat_moves_are_public() {
    let f0: &[(&str, &str)] = &[("a1", "U2")];
    let f1: &[(&str, &str)] = &[("a1", "U3")];
    let g = combat(ROWS, [f0, f1], 1, 3, opts());
    for a in legal(&g) {
        assert_eq!(seen_both(&g, &a), (a.clone(), a.clone()));
    }
}
