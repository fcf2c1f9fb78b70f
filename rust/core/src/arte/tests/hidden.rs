//! AG-9: hidden information (refusals and determinizations).

use super::*;

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

/// AG-9.4, AG-9.5 (ISMCTS's `pool` and `reveal`): the secret moves are the secret terrain
/// placements, the secret deployments and the sudden-death picks; the opponent's secret
/// moves a player has not seen revealed are exactly those its view shows without their
/// card, and each secret move that does not end the secrecy adds one of them.
#[test]
fn ag_9_4_secret_moves_and_their_count_match_the_views() {
    let hidden = |g: &Arte, p: Player| -> usize {
        let q = &g.view(p)["players"][1 - p];
        let unseen = |v: &serde_json::Value| v.is_object() && v["card"].is_null();
        let list = |k: &str| {
            q[k].as_array()
                .map_or(0, |a| a.iter().filter(|v| unseen(v)).count())
        };
        list("placing") + list("deploying") + usize::from(unseen(&q["pick"]))
    };
    for (k, o) in all_options().into_iter().enumerate() {
        for seed in 0..6u64 {
            let mut g = Arte::new(seed * 7 + k as u64, &o).unwrap();
            let mut rng = GameRng::seed(seed + 200);
            let mut buf = Vec::new();
            let mut secrets = 0;
            while let Some(p) = g.current() {
                for viewer in 0..2 {
                    assert_eq!(g.unrevealed_secrets(viewer), hidden(&g, viewer));
                }
                g.legal_actions(&mut buf);
                let a = *rng.choose(&buf).unwrap();
                let secret = match a {
                    Action::Place(..) | Action::Pick(..) => true,
                    Action::Deploy(..) => o.deployment == Deployment::Simultaneous,
                    _ => false,
                };
                assert_eq!(g.is_secret(a), secret, "{}", g.action_notation(a));
                let before = g.unrevealed_secrets(1 - p);
                let phase = (g.phase, g.round);
                g.apply(a).unwrap();
                if secret {
                    secrets += 1;
                    let after = g.unrevealed_secrets(1 - p);
                    let revealed = after == 0 && (g.phase, g.round) != phase;
                    assert!(after == before + 1 || revealed, "{}", g.action_notation(a));
                } else {
                    assert_eq!(g.unrevealed_secrets(1 - p), before);
                }
            }
            assert!(secrets >= 6, "every game places its terrain in secret");
        }
    }
}
