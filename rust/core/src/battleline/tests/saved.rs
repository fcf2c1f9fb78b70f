//! BL-1.4 and the saved state: JSON validation, views and determinization.

use super::*;

// ---- JSON / view -------------------------------------------------------------------------

#[test]
fn bl_1_4_from_json_rejects_inconsistent_states() {
    let g = BattleLine::new(3, &Options::default()).unwrap();
    let v = g.to_value();
    let bad = |mutate: &dyn Fn(&mut Value), path: &str| {
        let mut w = v.clone();
        mutate(&mut w);
        match BattleLine::from_value(&w) {
            Err(crate::Error::State { path: p, message }) => {
                assert!(p.starts_with(path), "{p} vs {path}: {message}")
            }
            other => panic!("expected a state error at {path}, got {other:?}"),
        }
    };
    bad(&|w| w["hands"][0][0] = json!("R99"), "$.hands[0][0]");
    bad(
        &|w| {
            let c = w["hands"][1][0].clone();
            w["hands"][0][0] = c;
        },
        "$.hands",
    );
    bad(&|w| w["troop_deck"].as_array_mut().unwrap().clear(), "$");
    bad(
        &|w| {
            w["flags"]
                .as_array_mut()
                .unwrap()
                .pop()
                .map(|_| ())
                .unwrap()
        },
        "$.flags",
    );
    bad(&|w| w["phase"] = json!("dance"), "$.phase");
    bad(&|w| w["to_move"] = json!(2), "$.to_move");
    bad(&|w| w["tactics_played"] = json!([2, 0]), "$.tactics_played");
    bad(&|w| w["bogus"] = json!(1), "$.bogus");
    bad(
        &|w| w["hand_counts"][0]["troops"] = json!(6),
        "$.hand_counts",
    );
    bad(
        &|w| {
            let c = w["tactics_deck"].as_array_mut().unwrap().pop().unwrap();
            w["troop_deck"].as_array_mut().unwrap().push(c);
        },
        "$.troop_deck",
    );
    bad(
        &|w| w["flags"][0]["claimed"] = json!(0),
        "$.flags[0].claimed",
    );
    bad(
        &|w| w["flags"][0]["first_complete"] = json!(1),
        "$.flags[0].first_complete",
    );
}

#[test]
fn views_hide_and_resample_keeps_them() {
    for seed in 0..40u64 {
        let mut n = 0u64;
        random_game(seed, &options_for(seed), |g, _| {
            n += 1;
            if n % 3 != 0 {
                return;
            }
            for p in 0..2 {
                let v = g.view_value(p).unwrap();
                let o = 1 - p;
                // The opponent's hand: only cards known through Scout.
                let known = g.known[p].opp_hand;
                for x in v["hands"][o].as_array().unwrap() {
                    if let Some(s) = x.as_str() {
                        assert!(known.contains(Card::parse(s).unwrap()));
                    }
                }
                assert_eq!(v["hands"][o].as_array().unwrap().len(), g.hands[o].len());
                let r = g.resample(p, n * 7 + p as u64).unwrap();
                assert_eq!(r.view_value(p).unwrap(), v, "seed {seed}");
                check_invariants(&r);
                // Observations only depend on the view.
                let mut a = vec![0.0; crate::battleline::observe::OBS_LEN];
                let mut b = vec![0.0; crate::battleline::observe::OBS_LEN];
                g.write_observation(p, &mut a).unwrap();
                r.write_observation(p, &mut b).unwrap();
                assert_eq!(a, b);
                assert_eq!(
                    g.render_text(Some(p)).unwrap(),
                    r.render_text(Some(p)).unwrap()
                );
                // `evaluate` scores a whole world, both hands (tests/evaluate.rs): agents
                // ask it only of redrawn worlds like `r`.
                let e = r.evaluate_for(p).unwrap();
                assert!((-1.0..=1.0).contains(&e));
                assert_eq!(e, -r.evaluate_for(o).unwrap());
            }
        });
    }
}

#[test]
fn resample_redraws_hidden_cards() {
    let g = BattleLine::new(5, &Options::default()).unwrap();
    let r = g.resample(0, 1).unwrap();
    assert_eq!(r.hands[0], g.hands[0]);
    assert_ne!(r.hands[1], g.hands[1]);
    assert_ne!(r.troop_deck(), g.troop_deck());
    assert_eq!(r.view_value(0).unwrap(), g.view_value(0).unwrap());
}

/// The message of the state error `value` gives, checking its path starts with `path`.
fn state_error(value: &Value, path: &str) -> String {
    match BattleLine::from_value(value) {
        Err(crate::Error::State { path: p, message }) => {
            assert!(p.starts_with(path), "{p} vs {path}: {message}");
            message
        }
        other => panic!("expected a state error at {path}, got {other:?}"),
    }
}

#[test]
fn saved_state_errors_name_the_path_through_serde() {
    let v = BattleLine::new(4, &Options::default()).unwrap().to_value();
    let with = |mutate: &dyn Fn(&mut Value)| {
        let mut w = v.clone();
        mutate(&mut w);
        w
    };
    state_error(
        &with(&|w| w["flags"][3]["sides"][1] = json!(["R3", 7])),
        "$.flags[3].sides[1][1]",
    );
    state_error(&with(&|w| w["flags"][3]["bogus"] = json!(1)), "$.flags[3]");
    state_error(
        &with(&|w| w["flags"][2]["env"] = json!([{"card": "Scout", "side": 0}])),
        "$.flags[2].env[0].card",
    );
    state_error(
        &with(&|w| w["scout_known"][1]["troop_deck"] = json!([60])),
        "$.scout_known[1].troop_deck[0]",
    );
    state_error(&with(&|w| w["winner"] = json!(2)), "$.winner");
    state_error(&with(&|w| w["pass_streak"] = json!(-1)), "$.pass_streak");
    state_error(&json!([]), "$");
    // A key that may be null must still be there.
    for key in ["scout", "winner", "flags", "hands", "options"] {
        let msg = state_error(
            &with(&|w| {
                w.as_object_mut().unwrap().remove(key);
            }),
            "$",
        );
        assert!(msg.contains(key), "{key}: {msg}");
    }
    // Long input is not echoed back.
    let long = "R".repeat(10_000);
    let msg = state_error(&with(&|w| w["hands"][0][0] = json!(long)), "$.hands[0][0]");
    assert!(msg.len() < 200, "{msg}");
    let msg = state_error(&with(&|w| w[&long] = json!(1)), "$");
    assert!(msg.len() < 400, "{msg}");
}

#[test]
fn hand_counts_are_derived_and_checked_when_given() {
    let g = BattleLine::new(6, &Options::default()).unwrap();
    let mut v = g.to_value();
    assert_eq!(
        v["hand_counts"],
        json!([{"troops": 7, "tactics": 0}, {"troops": 7, "tactics": 0}])
    );
    v.as_object_mut().unwrap().remove("hand_counts");
    let back = BattleLine::from_value(&v).unwrap();
    assert_eq!(back.to_value(), g.to_value());
    v["hand_counts"] = json!([{"troops": 7, "tactics": 0}, {"troops": 6, "tactics": 1}]);
    let msg = state_error(&v, "$.hand_counts");
    assert!(msg.contains("does not match the hands"), "{msg}");
}

#[test]
fn a_bad_player_index_is_an_error_not_the_other_player() {
    let g = BattleLine::new(7, &Options::default()).unwrap();
    for p in [2, 3, usize::MAX] {
        assert!(g.view_value(p).is_err());
        assert!(g.resample(p, 1).is_err());
        assert!(g.evaluate_for(p).is_err());
        assert!(g.render_text(Some(p)).is_err());
        let mut out = vec![0.0; crate::battleline::observe::OBS_LEN];
        assert!(g.write_observation(p, &mut out).is_err());
        assert!(out.iter().all(|&x| x == 0.0), "nothing written");
        assert!(g.hand(p).is_none() && g.knowledge(p).is_none());
        // Through the trait (the session checks first): nothing about either player.
        assert_eq!(Game::view(&g, p), Value::Null);
        assert_eq!(Game::evaluate(&g, p), 0.0);
    }
    assert_eq!(g.hand(1), Some(g.hands[1]));
}

// ---- the last troop plays (public; the redraw reads them, `infer.rs`) ---------------------

#[test]
fn last_troop_plays_survive_the_saved_state_the_view_and_the_position() {
    let mut with_plays = 0;
    for seed in 0..4 {
        random_game(seed, &options_for(seed), |g, _| {
            with_plays += usize::from(g.last_play.iter().any(Option::is_some));
            let back = BattleLine::from_value(&g.to_value()).unwrap();
            assert_eq!(back.last_play, g.last_play);
            let text = crate::battleline::position::write(g, None).unwrap();
            let read = crate::battleline::position::read(&text, &g.options, 0).unwrap();
            assert_eq!(read.last_play, g.last_play, "{text}");
            for p in 0..2 {
                let view = g.view_value(p).unwrap();
                assert_eq!(view["last_troop_play"], g.to_value()["last_troop_play"]);
            }
        });
    }
    assert!(with_plays > 100, "{with_plays} positions with a last play");
}

#[test]
fn a_troop_play_is_remembered_until_that_player_plays_anything_else() {
    let (mut set, mut cleared) = (0, 0);
    for seed in 0..4 {
        let mut g = BattleLine::new(seed, &Options::default()).unwrap();
        let mut rng = GameRng::stream(seed, 7);
        let mut buf = Vec::new();
        while !g.is_terminal() {
            g.legal_actions(&mut buf);
            let a = *rng.choose(&buf).unwrap();
            let (p, before) = (g.to_move(), g.last_play);
            g.apply(a).unwrap();
            let expect = match a {
                Action::Play { card, flag } if card.is_troop() => Some((card, flag)),
                Action::Play { .. }
                | Action::Scout
                | Action::Redeploy { .. }
                | Action::Deserter { .. }
                | Action::Traitor { .. }
                | Action::Pass => None,
                _ => before[p],
            };
            set += usize::from(expect.is_some() && before[p] != expect);
            cleared += usize::from(expect.is_none() && before[p].is_some());
            assert_eq!(g.last_play[p], expect, "{a}");
            assert_eq!(g.last_play[1 - p], before[1 - p], "{a}");
        }
    }
    assert!(set > 50 && cleared > 0, "{set} set, {cleared} cleared");
}

#[test]
fn a_position_written_before_the_last_field_still_reads() {
    let mut g = BattleLine::new(7, &Options::default()).unwrap();
    let card = g.hands[0].iter().find(|c| c.is_troop()).unwrap();
    g.apply(Action::Play { card, flag: 2 }).unwrap();
    for viewer in [None, Some(1)] {
        let text = crate::battleline::position::write(&g, viewer).unwrap();
        let fields: Vec<&str> = text.split(' ').collect();
        assert_eq!(fields[12], format!("{card}@2/-"), "{text}");
        let old: Vec<&str> = fields
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != 12)
            .map(|(_, f)| *f)
            .collect();
        let read = crate::battleline::position::read(&old.join(" "), &g.options, 3).unwrap();
        assert_eq!(read.last_play, [None, None]);
        assert_eq!(read.flags, g.flags);
    }
}

#[test]
fn a_bad_last_troop_play_names_its_path() {
    let mut g = BattleLine::new(7, &Options::default()).unwrap();
    let card = g.hands[0].iter().find(|c| c.is_troop()).unwrap();
    g.apply(Action::Play { card, flag: 2 }).unwrap();
    let v = g.to_value();
    let in_hand = g.hands[1].iter().find(|c| c.is_troop()).unwrap();
    let tactics = Card::parse("Fog").unwrap();
    for (play, why) in [
        (
            json!({"card": in_hand.to_string(), "flag": 0}),
            "on the table or discarded",
        ),
        (
            json!({"card": tactics.to_string(), "flag": 0}),
            "a troop card",
        ),
        (json!({"card": card.to_string(), "flag": 9}), "a flag 0..8"),
    ] {
        let mut w = v.clone();
        w["last_troop_play"][1] = play;
        let message = state_error(&w, "$.last_troop_play[1]");
        assert!(message.contains(why), "{message}");
    }
    let mut w = v.clone();
    w["last_troop_play"][0] = json!({"card": card.to_string(), "flag": 2, "x": 1});
    state_error(&w, "$.last_troop_play[0]");
    let text = crate::battleline::position::write(&g, None).unwrap();
    for bad in ["R1@x/-", "R1@3", "@3/-"] {
        let mut fields: Vec<&str> = text.split(' ').collect();
        fields[12] = bad;
        let e = crate::battleline::position::read(&fields.join(" "), &g.options, 0).unwrap_err();
        assert!(e.to_string().contains("field 13 (last)"), "{bad}: {e}");
    }
}
