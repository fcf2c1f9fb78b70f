//! The common protocol on Zinordia (docs/zinordia.md): saved states, views (ZN-4.2: the
//! secret selection hidden until the reveal; the dice never visible), determinization, the
//! observation tensor, the heuristic value, team results (ZN-12.8) and the rule-based player.

use serde_json::{json, Value};

use super::{game, mode};
use crate::game::Game;
use crate::knowledge::Knowledge;
use crate::rng::GameRng;
use crate::zinordia::options::Selection;
use crate::zinordia::{Action, Options, Phase, Zinordia};

fn new(options: serde_json::Value, seed: u64) -> Zinordia {
    let opts: Options = serde_json::from_value(options).expect("options");
    <Zinordia as Game>::new(seed, &opts).expect("new game")
}

/// A random game to its end (or `plies`), returning every state.
fn playout(g: &mut Zinordia, seed: u64, plies: usize) -> Vec<Zinordia> {
    let mut rng = GameRng::seed(seed);
    let mut out = vec![g.clone()];
    let mut moves = Vec::new();
    while !Game::is_terminal(g) && out.len() <= plies {
        Game::legal_actions(g, &mut moves);
        let a = *rng.choose(&moves).expect("a running game has moves");
        Game::apply(g, a).expect("legal");
        out.push(g.clone());
    }
    out
}

fn err(r: crate::error::Result<Zinordia>) -> String {
    r.expect_err("must be refused").to_string()
}

#[test]
fn zn_4_2_secret_picks_are_hidden_from_the_other_team_until_the_reveal() {
    let mut g = game(mode("duel", None), 3);
    g.apply(Action::Pick(0)).unwrap();
    let own = Game::view(&g, 0);
    let other = Game::view(&g, 1);
    assert_eq!(own["picks"][0][0], json!(g.shared.content.stars[0].id));
    assert_eq!(other["picks"][0], json!([null]));
    assert!(!Game::render(&g, Some(1)).contains(&g.shared.content.stars[0].id));
    // The dice are never visible.
    assert_eq!(own["rng"], Value::Null);
    // After the reveal everything is public.
    super::through_setup(&mut g);
    let v = Game::view(&g, 1);
    assert!(v["picks"][0]
        .as_array()
        .unwrap()
        .iter()
        .all(Value::is_string));
}

#[test]
fn zn_4_2_partners_see_each_others_picks_and_a_draft_is_open() {
    let mut g = game(mode("teams", None), 3);
    for _ in 0..2 {
        let a = super::legal(&g)[0];
        g.apply(a).unwrap();
    }
    assert_eq!(g.current_player(), Some(1));
    // Seat 2 is seat 0's partner (ZN-3.3): it sees the picks; seats 1 and 3 do not.
    assert!(Game::view(&g, 2)["picks"][0][0].is_string());
    assert!(Game::view(&g, 1)["picks"][0][0].is_null());
    assert!(Game::view(&g, 3)["picks"][0][1].is_null());

    let mut d = game(
        Options {
            selection: Selection::Draft,
            ..mode("duel", None)
        },
        3,
    );
    d.apply(Action::Pick(2)).unwrap();
    assert!(Game::view(&d, 1)["picks"][0][0].is_string());
}

#[test]
fn every_state_round_trips_and_views_cannot_be_loaded() {
    for opts in [
        json!({}),
        json!({"mode": "free_for_all", "players": 3}),
        json!({"mode": "free_for_all", "players": 4, "selection": "draft"}),
        json!({"mode": "teams", "placement": "blocks"}),
    ] {
        let mut g = new(opts, 11);
        for s in playout(&mut g, 11, 400) {
            let v = Game::to_json(&s);
            let back = <Zinordia as Game>::from_json(&v).expect("round trip");
            assert_eq!(Game::to_json(&back), v);
            let mut a = Vec::new();
            let mut b = Vec::new();
            Game::legal_actions(&s, &mut a);
            Game::legal_actions(&back, &mut b);
            assert_eq!(a, b);
            let view = Game::view(&s, 0);
            assert!(<Zinordia as Game>::from_json(&view).is_err());
        }
    }
}

#[test]
fn resample_hidden_keeps_the_view_and_redraws_the_picks() {
    let mut g = new(json!({"mode": "teams"}), 5);
    // Seats 0 and 1 pick; seat 2 (team 0) is to pick next.
    for _ in 0..4 {
        let a = super::legal(&g)[0];
        g.apply(a).unwrap();
    }
    let mut changed = false;
    for seed in 0..20 {
        let r = Game::resample_hidden(&g, 0, seed);
        assert_eq!(Game::view(&r, 0), Game::view(&g, 0));
        // Team 1's redrawn picks still follow ZN-1.2 (no Star twice in a team).
        let team1: Vec<usize> = r.picks[1].iter().chain(&r.picks[3]).copied().collect();
        let mut dedup = team1.clone();
        dedup.sort_unstable();
        dedup.dedup();
        assert_eq!(dedup.len(), team1.len());
        changed |= r.picks[1] != g.picks[1];
        assert!(<Zinordia as Game>::from_json(&Game::to_json(&r)).is_ok());
    }
    assert!(changed, "the other team's picks are redrawn");
}

#[test]
fn saved_state_errors_name_the_path() {
    let mut g = game(mode("duel", None), 2);
    super::through_setup(&mut g);
    let good = Game::to_json(&g);
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        f(&mut v);
        <Zinordia as Game>::from_json(&v)
    };
    let e = err(with(&|v| v["stars"][1]["colour"] = json!(1)));
    assert!(e.contains("$.stars[1]") && e.contains("colour"), "{e}");
    let e = err(with(&|v| v["stars"][0]["zone"] = json!("40,40")));
    assert!(e.contains("$.stars[0].zone"), "{e}");
    let zone0 = good["stars"][0]["zone"].clone();
    let e = err(with(&|v| v["stars"][2]["zone"] = zone0.clone()));
    assert!(e.contains("$.stars[2].zone") && e.contains("ZN-2.2"), "{e}");
    let e = err(with(&|v| v["stars"][0]["vida"] = json!(999)));
    assert!(e.contains("$.stars[0].vida"), "{e}");
    let e = err(with(&|v| v["picks"][0][1] = v["picks"][0][0].clone()));
    assert!(
        e.contains("$.picks[0][1]") || e.contains("$.stars[1].star"),
        "{e}"
    );
    let e = err(with(
        &|v| v["stars"][0]["effects"] = json!([{"status": {"kind": "stat", "stat": "luck", "amount": 1, "stacks": true}, "applier": 0, "by": 0, "turns": 2}]),
    ));
    assert!(e.contains("$.stars[0].effects[0].status.stat"), "{e}");
    let e = err(with(&|v| v["options"]["mode"] = json!("chess")));
    assert!(e.contains("$.options") && e.contains("mode"), "{e}");
    let e = err(with(&|v| v["round"] = json!(0)));
    assert!(e.contains("$.round"), "{e}");
    let e = err(with(&|v| v["winner"] = json!(0)));
    assert!(e.contains("$.winner"), "{e}");
    // Unbounded input is never echoed whole.
    let e = err(with(&|v| v["markers"] = json!(["x".repeat(5000)])));
    assert!(e.len() < 400, "{e}");
}

#[test]
fn a_user_roster_travels_in_the_state() {
    let roster = crate::zinordia::content::REFERENCE_ROSTER
        .replace("name = \"Ignara\"", "name = \"Ignara Two\"");
    let g = new(json!({"roster_toml": roster}), 1);
    assert!(g
        .shared
        .content
        .stars
        .iter()
        .any(|s| s.name == "Ignara Two"));
    let v = Game::to_json(&g);
    let back = <Zinordia as Game>::from_json(&v).unwrap();
    assert!(back
        .shared
        .content
        .stars
        .iter()
        .any(|s| s.name == "Ignara Two"));
    // A broken roster is a data error naming the option as the file.
    let opts: Options =
        serde_json::from_value(json!({"roster_toml": "[[stars]]\nid = 3"})).unwrap();
    let e = <Zinordia as Game>::new(1, &opts).unwrap_err().to_string();
    assert!(e.contains("roster_toml"), "{e}");
}

#[test]
fn observation_values_lie_in_their_bounds() {
    for opts in [json!({}), json!({"mode": "teams"})] {
        let mut g = new(opts, 4);
        let shape = Game::observation_shape(&g);
        let len: usize = shape.iter().product();
        for s in playout(&mut g, 4, 300) {
            assert_eq!(Game::observation_shape(&s), shape);
            for p in 0..Game::num_players(&s) {
                let mut out = vec![0.0f32; len];
                Game::observation(&s, p, &mut out);
                assert!(out.iter().all(|x| (0.0..=1.0).contains(x)), "{out:?}");
            }
        }
    }
}

#[test]
fn observation_hides_the_other_teams_picks() {
    let mut g = game(mode("duel", None), 3);
    let mut before = vec![0.0f32; Game::observation_shape(&g).iter().product()];
    Game::observation(&g, 1, &mut before);
    g.apply(Action::Pick(0)).unwrap();
    let mut a = vec![0.0f32; before.len()];
    Game::observation(&g, 1, &mut a);
    let mut h = g.clone();
    std::sync::Arc::make_mut(&mut h.picks)[0][0] = 5;
    let mut b = vec![0.0f32; before.len()];
    Game::observation(&h, 1, &mut b);
    assert_eq!(
        a, b,
        "which Star was picked is not in player 1's observation"
    );
}

#[test]
fn zn_12_8_team_results_and_evaluate_bounds() {
    let mut g = new(json!({"mode": "teams"}), 9);
    let states = playout(&mut g, 9, 10_000);
    let last = states.last().unwrap();
    assert!(Game::is_terminal(last));
    let r = Game::returns(last);
    if let Some(w) = Game::winner(last) {
        let team = Game::team(last, w);
        for (p, &x) in r.iter().enumerate() {
            assert_eq!(
                x,
                if Game::team(last, p) == team {
                    1.0
                } else {
                    -1.0
                }
            );
            assert_eq!(Game::evaluate(last, p), x);
        }
    }
    for s in &states {
        for p in 0..4 {
            let v = Game::evaluate(s, p);
            assert!((-1.0..=1.0).contains(&v));
        }
        // Partners share a value.
        assert_eq!(Game::evaluate(s, 0), Game::evaluate(s, 2));
    }
}

#[test]
fn the_heuristic_player_plays_legal_moves_to_the_end() {
    for opts in [
        json!({}),
        json!({"mode": "free_for_all", "players": 3}),
        json!({"mode": "teams"}),
    ] {
        let mut g = new(opts, 6);
        let mut rng = GameRng::seed(6);
        let mut plies = 0;
        while !Game::is_terminal(&g) {
            let a = Knowledge::heuristic_action(&g, &mut rng).expect("a move");
            Game::apply(&mut g, a).expect("the heuristic move is legal");
            plies += 1;
            assert!(plies < 20_000);
        }
        assert_eq!(g.phase, Phase::Over);
    }
}

#[test]
fn the_heuristic_picks_strong_stars_and_collects_markers() {
    let mut g = game(mode("duel", None), 1);
    let mut rng = GameRng::seed(1);
    let Some(Action::Pick(first)) = Knowledge::heuristic_action(&g, &mut rng) else {
        panic!("a pick")
    };
    // The strongest Star of the roster by the heuristic's own measure, whatever the seed
    // (the seed only breaks ties).
    let worth = |r: u8| crate::zinordia::heuristic::worth(&g.shared.content.stars[usize::from(r)]);
    let top = g
        .shared
        .content
        .stars
        .iter()
        .map(crate::zinordia::heuristic::worth)
        .max();
    assert_eq!(Some(worth(first)), top);
    let Some(Action::Pick(again)) = Knowledge::heuristic_action(&g, &mut GameRng::seed(99)) else {
        panic!("a pick")
    };
    assert_eq!(Some(worth(again)), top);
    super::through_setup(&mut g);
    let p = g.turn_player();
    let s = p * g.shared.per_player;
    let m = g.markers[0];
    super::put(&mut g, s, m);
    g.apply(Action::Play(0)).unwrap();
    assert_eq!(
        Knowledge::heuristic_action(&g, &mut rng),
        Some(Action::Collect)
    );
}

#[test]
fn zn_9_4_a_reaction_window_stays_in_the_turn_it_opens_in() {
    let mut g = game(mode("duel", None), 2);
    super::through_setup(&mut g);
    let p = g.turn_player();
    assert_eq!(Game::turn_owner(&g), Some(p));
    // An enemy Star is asked to react: its player decides, the turn is still `p`'s
    // (Greedy's settle plays on through it).
    let e = (1 - p) * g.shared.per_player;
    g.offers.push_back(crate::zinordia::state::Offer {
        star: e,
        trigger: crate::zinordia::Trigger::Targeted,
        source: Some(p * g.shared.per_player),
    });
    assert_eq!(Game::current_player(&g), Some(1 - p));
    assert_eq!(Game::turn_owner(&g), Some(p));
}

#[test]
fn zinordias_greedy_settles_its_turn_by_default() {
    // Greedy() is Zinordia's search setting (4 redraws, settle): the same moves as the
    // spelled-out agent, and not always those of the one-ply Greedy.
    use crate::search::AgentSpec;
    let spec = |s: &str| AgentSpec::parse(s).unwrap();
    let mut differs = false;
    for seed in 0..6 {
        let mut g = new(json!({}), seed);
        let states = playout(&mut g, seed, 40);
        let g = states.last().unwrap();
        for salt in 0..3 {
            let chosen = spec("greedy").build::<Zinordia>(salt).act(g).unwrap();
            let settled = spec("greedy:samples=4,settle=heuristic")
                .build::<Zinordia>(salt)
                .act(g)
                .unwrap();
            assert_eq!(chosen, settled, "seed {seed}");
            let plain = spec("greedy:samples=4,settle=none")
                .build::<Zinordia>(salt)
                .act(g)
                .unwrap();
            differs |= plain != settled;
        }
    }
    assert!(differs, "settling never changed a move");
}

#[test]
fn zinordias_routine_decisions_follow_the_rule_based_player() {
    // ISMCTS's `routine` below its root: reaction windows and setup as the Heuristic plays
    // them, the last Star still to play plays, and after a play's activation the
    // Heuristic's step; every other decision is the search's.
    let mut seen = [0usize; 5];
    for (opts, seed) in [
        (json!({}), 1),
        (json!({}), 2),
        (json!({"mode": "teams"}), 3),
    ] {
        let mut g = new(opts, seed);
        for (k, g) in playout(&mut g, seed, 5_000).iter().enumerate() {
            if Game::is_terminal(g) {
                continue;
            }
            let salt = seed * 100_000 + k as u64;
            let routine = Knowledge::routine_action(g, &mut GameRng::seed(salt));
            let heuristic = Knowledge::heuristic_action(g, &mut GameRng::seed(salt));
            let legal = super::legal(g);
            if let Some(a) = routine {
                assert!(legal.contains(&a), "{a:?} is not legal");
            }
            let branch = if !g.offers.is_empty() || !matches!(g.phase, Phase::Main) {
                assert_eq!(routine, heuristic);
                0
            } else if let Some(play) = g.play {
                if play.activated {
                    // The routine's own list of what is left is the legal one.
                    let mut left = Vec::new();
                    g.moves(play, &mut left);
                    left.push(Action::EndPlay);
                    assert_eq!(left, legal);
                    assert_eq!(routine, heuristic);
                    1
                } else {
                    assert_eq!(routine, None);
                    2
                }
            } else {
                let plays: Vec<Action> = legal
                    .iter()
                    .copied()
                    .filter(|a| matches!(a, Action::Play(_)))
                    .collect();
                if let [last] = plays.as_slice() {
                    assert_eq!(routine, Some(*last));
                    3
                } else {
                    assert_eq!(routine, None);
                    4
                }
            };
            seen[branch] += 1;
        }
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "every kind of decision met: {seen:?}"
    );
}

#[test]
fn zinordias_search_plays_its_routine_decisions_by_rule() {
    // `ismcts:...,routine=1` plays legal moves to the end of a duel.
    use crate::search::AgentSpec;
    let mut g = new(json!({}), 4);
    let mut agents = [
        AgentSpec::parse("ismcts:40,routine=1")
            .unwrap()
            .build::<Zinordia>(1),
        AgentSpec::parse("random").unwrap().build::<Zinordia>(2),
    ];
    let mut plies = 0;
    while let Some(p) = Game::current_player(&g) {
        let a = agents[p].act(&g).unwrap();
        Game::apply(&mut g, a).expect("a legal move");
        plies += 1;
        assert!(plies < 5_000);
    }
}

#[test]
fn zn_10_3_radius_and_ring_areas_on_the_zone_bitsets_find_the_geometric_areas_stars() {
    // `affected` finds the Stars of a radius or a ring on the zone bitsets (a hot path of
    // the rule-based player); the geometric area must find the same Stars in the same
    // order: every Star on the board as the user, every radius and ring ability of the
    // roster, every zone as the target, at states of random games of every board size.
    use crate::zinordia::ability::AreaShape;
    let mut checked = [0usize; 2];
    for (opts, seed) in [
        (json!({}), 4),
        (json!({}), 5),
        (json!({"mode": "teams"}), 6),
        (json!({"mode": "free_for_all", "players": 3}), 7),
    ] {
        let mut g = new(opts, seed);
        for g in playout(&mut g, seed, 600).iter().step_by(9) {
            for s in 0..g.stars.len() {
                let Some(from) = g.stars[s].zone else {
                    continue;
                };
                for d in &g.shared.content.stars {
                    for ab in &d.abilities {
                        let k = match ab.area.shape {
                            AreaShape::Radius => 0,
                            AreaShape::Ring => 1,
                            _ => continue,
                        };
                        for &h in &g.shared.zones {
                            assert_eq!(
                                g.affected(s, ab, Some(h)),
                                g.affected_area(s, ab, from, h),
                                "{} from star {s} on {h:?}",
                                ab.id
                            );
                            checked[k] += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked.iter().all(|&n| n > 1000), "{checked:?}");
}
