//! AG-9: hidden information (refusals and determinizations).

use super::*;
use crate::arte::heuristic;
use crate::arte::state::Stage;

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

/// AG-2.2, AG-9: the chooser's determinization draws the face-down draft card as a picker
/// would have hidden it: the picker values it (in the redrawn state) at least as much as
/// every face-up card, unless no unseen card would do. The face-up cards and the chooser's
/// view are kept, and the draw is a function of the view and the seed.
#[test]
fn ag_2_2_a_redrawn_face_down_card_is_one_the_picker_would_hide() {
    let (mut checked, mut above) = (0, 0);
    for seed in 0..12u64 {
        let mut g = Arte::new(seed, &Options::default()).unwrap();
        let mut rng = GameRng::seed(seed + 300);
        let mut buf = Vec::new();
        while let Some(p) = g.current() {
            if let Some(d) = g.draft.clone().filter(|d| d.stage() != Stage::Hide) {
                let h = usize::from(d.hidden.unwrap());
                let chooser = d.chooser();
                if p == chooser && d.slots[h].is_some() {
                    for s in 0..8u64 {
                        let r = g.resample_hidden(chooser, s);
                        r.check_invariants().unwrap();
                        assert_eq!(r.view(chooser), g.view(chooser));
                        assert_eq!(
                            r.to_json(),
                            r.resample_hidden(chooser, 77)
                                .resample_hidden(chooser, s)
                                .to_json()
                        );
                        let rd = r.draft.as_ref().unwrap();
                        let value = |c: Card| heuristic::draft_value(&r, d.picker, c);
                        let bar = (0..3)
                            .filter(|&i| i != h)
                            .filter_map(|i| rd.slots[i])
                            .map(value)
                            .fold(f64::NEG_INFINITY, f64::max);
                        let got = value(rd.slots[h].unwrap());
                        let k = d.kind as usize;
                        let could = r.piles[k].iter().any(|&c| value(c) >= bar);
                        assert!(got >= bar || !could, "seed {seed}: {got} < {bar}");
                        checked += 1;
                        above += usize::from(got >= bar);
                    }
                }
            }
            g.legal_actions(&mut buf);
            g.apply(*rng.choose(&buf).unwrap()).unwrap();
        }
    }
    assert!(checked > 100, "{checked}");
    assert!(above > checked / 2, "{above} of {checked}");
}
