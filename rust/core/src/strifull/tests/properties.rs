//! Properties of random games (every rule at once), and tools kept as ignored tests.

use super::*;

fn option_variants() -> Vec<Options> {
    let mut v = Vec::new();
    let inq = ["ella_de_belberg", "aurelio", "ilsa"];
    let mag = ["teodoro", "lyra", "corvin"];
    for (i, a) in inq.iter().enumerate() {
        for (j, b) in mag.iter().enumerate() {
            let mut o = Options {
                leaders: [Some(a.to_string()), Some(b.to_string())],
                ..Options::default()
            };
            if (i + j) % 2 == 1 {
                o.decks = [DeckChoice::Random, DeckChoice::Random];
                o.factions = [Some("magos".into()), Some("inquisicao".into())];
                o.leaders = [Some(b.to_string()), Some(a.to_string())];
            }
            v.push(o);
        }
    }
    v.push(Options {
        tie_is_defeat: false,
        dead_cells_open_flanks: false,
        moves_in_leader_row_only: true,
        mutual_wipeout: MutualWipeout::AttackerWins,
        ..Options::default()
    });
    v.push(Options {
        factions: [Some("magos".into()), Some("magos".into())],
        ..Options::default()
    });
    v
}

#[test]
fn random_games_end_and_keep_every_invariant() {
    for (k, opts) in option_variants().iter().enumerate() {
        for seed in 0..25 {
            let (g, plies) = random_game(seed * 31 + k as u64, opts, true);
            assert!(g.is_terminal() && plies > 0);
            let r = g.returns();
            match g.winner() {
                Some(w) => assert_eq!(r[w], 1.0),
                None => assert_eq!(r, vec![0.0, 0.0]),
            }
            assert_eq!(g.evaluate(0), r[0]);
        }
    }
}

#[test]
fn legal_actions_are_exactly_the_actions_apply_accepts() {
    let mut rng = GameRng::seed(99);
    for (k, opts) in option_variants().iter().enumerate().take(6) {
        let mut g = Strifull::new(k as u64, opts).unwrap();
        let mut buf = Vec::new();
        while !g.is_terminal() {
            g.legal_actions(&mut buf);
            let before = g.to_json();
            for id in 0..notation::NUM_ACTIONS {
                let a = Action::from_id(id).unwrap();
                let ok = g.check(a).is_ok();
                assert_eq!(
                    ok,
                    buf.contains(&a),
                    "{} in step {:?}",
                    a.notation(),
                    g.step
                );
                if !ok && rng.below(20) == 0 {
                    let mut c = g.clone();
                    match c.apply(a) {
                        Err(Error::IllegalAction { rule, .. }) => assert!(rule.starts_with("SK-")),
                        other => panic!("{other:?}"),
                    }
                    assert_eq!(c.to_json(), before);
                }
            }
            let e = g.evaluate(g.current_player().unwrap());
            assert!((-1.0..=1.0).contains(&e));
            let a = *rng.choose(&buf).unwrap();
            g.apply(a).unwrap();
        }
        assert!(
            g.check(Action::Pass).is_err(),
            "nothing is legal once the game is over"
        );
    }
}

#[test]
fn states_round_trip_through_json_and_views_leak_nothing_hidden() {
    let mut rng = GameRng::seed(7);
    for (k, opts) in option_variants().iter().enumerate() {
        let mut g = Strifull::new(100 + k as u64, opts).unwrap();
        let mut buf = Vec::new();
        let mut i = 0;
        while !g.is_terminal() {
            if i % 3 == 0 {
                let v = g.to_json();
                let back = Strifull::from_json(&v).unwrap_or_else(|e| panic!("{e}\n{v}"));
                assert_eq!(back.to_json(), v);
                for p in 0..2 {
                    let r = g.resample_hidden(p, i);
                    assert_eq!(r.view(p), g.view(p));
                    assert_eq!(r.resample_hidden(p, 3).view(p), g.view(p));
                    assert!(r.invariant_violation().is_none());
                }
                let mut obs = vec![0.0f32; 38 * 40];
                g.observation(0, &mut obs);
                assert!(obs.iter().all(|x| x.is_finite()));
            }
            g.legal_actions(&mut buf);
            let a = *rng.choose(&buf).unwrap();
            g.apply(a).unwrap();
            i += 1;
        }
        let v = g.to_json();
        assert_eq!(Strifull::from_json(&v).unwrap().to_json(), v);
    }
}

/// Orthogonal neighbours of a cell inside its zone (the naive form of SK-2.3).
fn neighbours(c: usize) -> Vec<usize> {
    use super::state::{cell_at, col_of, row_of, zone_of};
    let (z, r, k) = (zone_of(c), row_of(c), col_of(c));
    let mut v = Vec::new();
    if r > 1 {
        v.push(cell_at(z, r - 1, k));
    }
    if r < 3 {
        v.push(cell_at(z, r + 1, k));
    }
    if k > 0 {
        v.push(cell_at(z, r, k - 1));
    }
    if k < 2 {
        v.push(cell_at(z, r, k + 1));
    }
    v
}

#[test]
fn sk_5_2_5_3_bit_mask_targets_agree_with_the_naive_definition() {
    use super::state::{cell_at, col_of, row_of};
    let mut rng = GameRng::seed(17);
    for dead_open in [true, false] {
        let opts = Options {
            dead_cells_open_flanks: dead_open,
            ..Options::default()
        };
        for seed in 0..40 {
            let mut g = Strifull::new(seed, &opts).unwrap();
            let mut buf = Vec::new();
            while !g.is_terminal() {
                if g.step == Step::Attack {
                    let p = g.actor as usize;
                    let foe = &g.sides[1 - p];
                    for a in 0..9 {
                        if g.sides[p].cells[a].is_empty()
                            || g.can_attack_any(p, a, true, g.aura_sources())
                        {
                            continue;
                        }
                        let mut naive = 0u16;
                        if let Some(c) = (1..=3)
                            .map(|r| cell_at(1, r, col_of(a)))
                            .find(|&c| foe.cells[c].occupied())
                        {
                            naive |= 1 << (c - 9);
                        }
                        for c in 9..18 {
                            let open = neighbours(c).into_iter().any(|n| {
                                foe.cells[n].is_empty() && (dead_open || foe.row_live(row_of(n)))
                            });
                            if foe.cells[c].occupied() && open {
                                naive |= 1 << (c - 9);
                            }
                        }
                        assert_eq!(g.attack_targets(p, a), naive);
                    }
                }
                g.legal_actions(&mut buf);
                let a = *rng.choose(&buf).unwrap();
                g.apply(a).unwrap();
            }
        }
    }
}

#[test]
fn simulate_runs_strifull() {
    let s = crate::simulate::simulate::<Strifull>(&Options::default(), 200, 3, 0, Some(2)).unwrap();
    assert_eq!(s.games, 200);
    assert_eq!(s.wins.iter().sum::<u64>() + s.draws, 200);
    let t = crate::simulate::simulate::<Strifull>(&Options::default(), 200, 3, 0, Some(1)).unwrap();
    assert_eq!((s.wins, s.plies), (t.wins, t.plies));
}

// ---- tools, run by hand with --ignored --nocapture ----------------------------------------

#[test]
#[ignore]
fn show() {
    let opts = Options::default();
    let mut g = Strifull::new(5, &opts).unwrap();
    let mut rng = GameRng::seed(1);
    let mut buf = Vec::new();
    for _ in 0..60 {
        if g.is_terminal() {
            break;
        }
        g.legal_actions(&mut buf);
        let a = *rng.choose(&buf).unwrap();
        println!("P{} {}", g.current_player().unwrap(), a.notation());
        g.apply(a).unwrap();
    }
    println!("{}", g.render(None));
    println!("{}", g.render(Some(0)));
    println!("{}", serde_json::to_string_pretty(&g.view(1)).unwrap());
}

#[test]
#[ignore]
fn plies_stats() {
    let opts = Options::default();
    let mut steps = std::collections::BTreeMap::<&str, (usize, usize)>::new();
    let mut total = 0;
    let n = 300;
    for seed in 0..n {
        let mut g = Strifull::new(seed, &opts).unwrap();
        let mut rng = GameRng::seed(seed);
        let mut buf = Vec::new();
        while !g.is_terminal() {
            g.legal_actions(&mut buf);
            let e = steps.entry(g.step.name()).or_default();
            e.0 += 1;
            e.1 += buf.len();
            let a = *rng.choose(&buf).unwrap();
            g.apply(a).unwrap();
            total += 1;
        }
    }
    println!("avg plies {}", total as f64 / n as f64);
    for (k, (c, l)) in steps {
        println!(
            "{k}: {:.1} per game, {:.1} legal",
            c as f64 / n as f64,
            l as f64 / c as f64
        );
    }
}

#[test]
#[ignore]
fn speed() {
    let n: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let s = crate::simulate::simulate::<Strifull>(&Options::default(), n, 1, 0, Some(1)).unwrap();
    println!(
        "{} games, {:.0} games/s, {:.1} plies/game, wins {:?}, draws {}",
        s.games,
        s.games_per_second(),
        s.plies as f64 / s.games as f64,
        s.wins,
        s.draws
    );
}
