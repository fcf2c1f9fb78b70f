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
