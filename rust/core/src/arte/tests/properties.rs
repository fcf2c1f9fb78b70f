//! Properties along random games: invariants, legal actions = accepted actions, round trips, determinizations.

use super::*;

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
