//! SK-10: hidden information — views and determinization.

use super::*;

#[test]
fn sk_10_views_hide_face_down_troops_the_pile_order_and_the_rng() {
    let mut g = Strifull::new(21, &Options::default()).unwrap();
    let mut rng = GameRng::seed(4);
    play_until(&mut g, &mut rng, |g| g.turn >= 6);
    for p in 0..2 {
        let v = g.view(p);
        assert_eq!(v["rng"], Value::Null);
        let full = g.to_json();
        for (cell, c) in full["sides"][1 - p]["field"].as_object().unwrap() {
            let seen = &v["sides"][1 - p]["field"][cell];
            if c["revealed"] == json!(true) {
                assert_eq!(seen, c);
            } else {
                assert_eq!(seen["card"], Value::Null);
            }
        }
        assert_eq!(
            v["sides"][p]["field"], full["sides"][p]["field"],
            "own cards are known"
        );
        assert!(v["sides"][1 - p]["pile"]
            .as_array()
            .unwrap()
            .iter()
            .all(Value::is_null));
        assert_eq!(
            v["sides"][1 - p]["graveyard"],
            full["sides"][1 - p]["graveyard"]
        );
        assert_eq!(
            v["sides"][1 - p]["deck"],
            full["sides"][1 - p]["deck"],
            "decks are public"
        );
    }
}

#[test]
fn sk_10_resampling_keeps_the_view_and_redraws_the_rest() {
    let mut rng = GameRng::seed(5);
    for seed in 0..30 {
        let mut g = Strifull::new(seed, &Options::default()).unwrap();
        let stop = rng.below(60);
        let mut n = 0;
        play_until(&mut g, &mut rng, |_| {
            n += 1;
            n > stop
        });
        for p in 0..2 {
            let r = g.resample_hidden(p, seed);
            assert_eq!(r.view(p), g.view(p));
            assert!(r.invariant_violation().is_none());
            let mut a = vec![0.0; 38 * 40];
            let mut b = vec![0.0; 38 * 40];
            g.observation(p, &mut a);
            r.observation(p, &mut b);
            assert_eq!(a, b);
            assert_eq!(r.render(Some(p)), g.render(Some(p)));
            assert_eq!(
                r.evaluate(p),
                g.evaluate(p),
                "evaluate uses only what p sees"
            );
        }
    }
}
