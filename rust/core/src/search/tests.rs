//! Agents, arenas and batches on the test game `Lanes` (hidden hands, chance draws).

use super::testgame::{Judge, Lanes, LanesOptions, Play};
use super::*;
use crate::arena::{self, fixtures, Pairing, Progress, TournamentConfig};
use crate::batch::{Batch, Mask, Views};
use crate::game::Game;
use crate::session::Session;

fn spec(text: &str) -> AgentSpec {
    AgentSpec::parse(text).unwrap()
}

fn ismcts(iterations: u64) -> AgentSpec {
    AgentSpec::Ismcts(IsmctsConfig {
        iterations: Some(iterations),
        ..IsmctsConfig::default()
    })
}

fn run(
    specs: &[AgentSpec],
    games: u64,
    seed: u64,
    threads: Option<usize>,
) -> arena::TournamentResult {
    let cfg = TournamentConfig {
        games,
        seed,
        threads,
        bootstrap: 200,
        ..TournamentConfig::default()
    };
    arena::tournament::<Lanes>(&LanesOptions::default(), specs, &cfg, &Progress::default()).unwrap()
}

/// The tables, without the timing line.
fn tables(r: &arena::TournamentResult) -> (String, Vec<arena::GameOutcome>) {
    let t = r.table();
    let t = t
        .rsplit_once("Seats:")
        .map(|(a, b)| format!("{a}{}", b.split(';').next().unwrap()))
        .unwrap();
    (t, r.outcomes.clone())
}

#[test]
fn every_agent_plays_legal_moves_to_the_end() {
    for s in [
        "random",
        "greedy",
        "greedy:samples=3",
        "greedy:settle=heuristic",
        "ismcts:50",
        "ismcts:50,depth=2",
        "ismcts:50,depth=none,widening=none,expand=0",
        "ismcts:50,settle=1",
        "ismcts:50,settle=heuristic",
        "ismcts:50,halving=4,finalist_depth=2",
        "ismcts:50,settle=turn",
        "ismcts:50,settle=turn,settle_turns=2",
        "ismcts:50,routine=1,first_reply=4",
        "ismcts:time=0.01",
    ] {
        let (record, returns) =
            arena::play_match::<Lanes>(&LanesOptions::default(), 5, &[spec(s), spec("random")])
                .unwrap();
        assert_eq!(record.actions.len(), 18, "{s}");
        let replayed = Session::<Lanes>::replay(&record).unwrap();
        assert!(replayed.game.is_terminal());
        assert_eq!(replayed.game.returns(), returns);
    }
}

#[test]
fn agents_are_deterministic_for_a_seed_and_differ_across_seeds() {
    let game = Lanes::new(11, &LanesOptions::default()).unwrap();
    for s in ["random", "greedy", "ismcts:200"] {
        let picks = |salt: u64| -> Vec<Play> {
            (0..8)
                .map(|_| spec(s).build::<Lanes>(salt).act(&game).unwrap())
                .collect()
        };
        assert_eq!(picks(1), picks(1), "{s}");
        let many: std::collections::HashSet<Play> = (0..40)
            .map(|salt| spec(s).build::<Lanes>(salt).act(&game).unwrap())
            .collect();
        if s == "random" {
            assert!(many.len() > 3, "{many:?}");
        }
    }
}

#[test]
fn agents_never_use_hidden_information() {
    // Two states the mover cannot tell apart (the opponent's hand and the deck redrawn):
    // every agent with the same seed must choose the same move in both.
    let base = Lanes::new(21, &LanesOptions::default()).unwrap();
    let mut buf = Vec::new();
    let mut g = base.clone();
    for _ in 0..4 {
        g.legal_actions(&mut buf);
        g.apply(buf[buf.len() / 2]).unwrap();
    }
    let me = g.current_player().unwrap();
    let twins: Vec<Lanes> = (0..6).map(|s| g.resample_hidden(me, 1000 + s)).collect();
    assert!(
        twins.iter().any(|t| t.to_json() != g.to_json()),
        "hidden state must differ"
    );
    for s in [
        "random",
        "greedy",
        "greedy:samples=4",
        "greedy:samples=2,settle=heuristic",
        "ismcts:300",
        "ismcts:300,depth=3",
        "ismcts:300,halving=4",
    ] {
        let first = spec(s).build::<Lanes>(7).act(&g).unwrap();
        for t in &twins {
            assert_eq!(t.view(me), g.view(me));
            assert_eq!(
                spec(s).build::<Lanes>(7).act(t).unwrap(),
                first,
                "{s} peeked"
            );
        }
    }
}

#[test]
fn ismcts_search_reports_root_statistics() {
    let game = Lanes::new(3, &LanesOptions::default()).unwrap();
    let mut a = Ismcts::<Lanes>::new(IsmctsConfig {
        iterations: Some(500),
        ..IsmctsConfig::default()
    });
    let stats = a.search(&game).unwrap();
    assert_eq!(stats.iterations, 500);
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    assert_eq!(stats.children.len(), legal.len(), "every root action tried");
    let visits: u32 = stats.children.iter().map(|c| c.visits).sum();
    assert_eq!(visits, 500, "each iteration passes through one root child");
    assert!(stats
        .children
        .windows(2)
        .all(|w| w[0].visits >= w[1].visits));
    assert!(stats
        .children
        .iter()
        .all(|c| (-1.0..=1.0).contains(&c.value) && c.available >= c.visits));
    // The move played is the most visited one.
    let mut b = Ismcts::<Lanes>::new(IsmctsConfig {
        iterations: Some(500),
        ..IsmctsConfig::default()
    });
    assert_eq!(b.act(&game).unwrap(), stats.children[0].action);
}

#[test]
fn ismcts_root_statistics_are_sound() {
    // Every root action is tried, each iteration passes through one, values stay in
    // [-1, 1], a search is a function of its seed, and the move played (the most visited)
    // leads the report.
    let game = Lanes::new(5, &LanesOptions::default()).unwrap();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let config = IsmctsConfig {
        iterations: Some(400),
        ..IsmctsConfig::default()
    };
    let stats = Ismcts::<Lanes>::new(config.clone()).search(&game).unwrap();
    assert_eq!(stats.children.len(), legal.len());
    let visits: u32 = stats.children.iter().map(|c| c.visits).sum();
    assert_eq!(visits, 400);
    assert!(
        stats
            .children
            .iter()
            .all(|c| (-1.0..=1.0).contains(&c.value) && c.available >= c.visits),
        "{stats:?}"
    );
    let again = Ismcts::<Lanes>::new(config.clone()).search(&game).unwrap();
    assert_eq!(stats.children, again.children);
    let played = Ismcts::<Lanes>::new(config).act(&game).unwrap();
    assert_eq!(played, stats.children[0].action);
    let most = stats.children.iter().map(|c| c.visits).max().unwrap();
    assert_eq!(stats.children[0].visits, most, "{stats:?}");
}

#[test]
fn ismcts_halving_spends_the_budget_in_rounds_and_plays_the_last_survivor() {
    // Sequential halving at the root: the candidates are Greedy's best `m` (all actions
    // when there are no more), the iterations are spent (to within one), every round gives the
    // candidates left equal visits, so the visits fall in steps by elimination round, and
    // the move played is the last round's better mean, reported first.
    let game = Lanes::new(5, &LanesOptions::default()).unwrap();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    assert!(
        legal.len() >= 3,
        "the test needs a few root actions: {legal:?}"
    );
    for m in [2u32, 3, 64] {
        let config = IsmctsConfig {
            iterations: Some(400),
            halving: Some(m),
            ..IsmctsConfig::default()
        };
        let name = config.name();
        assert!(name.contains(&format!("halving={m}")), "{name}");
        let stats = Ismcts::<Lanes>::new(config.clone()).search(&game).unwrap();
        // The last round splits what is left between two: an odd iteration may go unrun.
        assert!((399..=400).contains(&stats.iterations), "{name}: {stats:?}");
        let k = (m as usize).min(legal.len());
        assert_eq!(stats.children.len(), k, "{name}: {stats:?}");
        let visits: u32 = stats.children.iter().map(|c| c.visits).sum();
        assert_eq!(u64::from(visits), stats.iterations, "{name}");
        // The last two survivors share the most visits; the one played has the better mean.
        let (first, second) = (&stats.children[0], &stats.children[1]);
        assert_eq!(first.visits, second.visits, "{name}: {stats:?}");
        assert!(first.value >= second.value, "{name}: {stats:?}");
        assert!(stats.children[1..].iter().all(|c| c.visits <= first.visits));
        assert!(
            stats.children.iter().all(|c| c.available == c.visits),
            "a candidate is taken on every redraw it is given: {stats:?}"
        );
        // Rounds: ceil(log2 k) of them, so at most that many distinct visit counts.
        let mut counts: Vec<u32> = stats.children.iter().map(|c| c.visits).collect();
        counts.dedup();
        let rounds = (k as f64).log2().ceil() as usize;
        assert!(counts.len() <= rounds, "{name}: {counts:?}");
        let played = Ismcts::<Lanes>::new(config.clone()).act(&game).unwrap();
        assert_eq!(played, first.action, "{name}");
        let again = Ismcts::<Lanes>::new(config).search(&game).unwrap();
        assert_eq!(
            stats.children, again.children,
            "{name}: a function of the seed"
        );
    }
    // With two candidates the ones kept are Greedy's two best on the game's redraws.
    let me = game.current_player().unwrap();
    let config = IsmctsConfig {
        iterations: Some(50),
        halving: Some(2),
        ..IsmctsConfig::default()
    };
    let stats = Ismcts::<Lanes>::new(config.clone()).search(&game).unwrap();
    let mut rng = crate::rng::GameRng::seed(config.seed);
    let det = game.resample_hidden(me, rng.next_u64());
    let mut scores: Vec<f64> = legal
        .iter()
        .map(|&a| {
            let mut after = det.clone();
            after.apply(a).unwrap();
            position_value(&after, me)
        })
        .collect();
    let picked: Vec<f64> = stats
        .children
        .iter()
        .map(|c| scores[legal.iter().position(|&a| a == c.action).unwrap()])
        .collect();
    scores.sort_by(|a, b| b.partial_cmp(a).unwrap());
    let mut picked_sorted = picked.clone();
    picked_sorted.sort_by(|a, b| b.partial_cmp(a).unwrap());
    assert_eq!(picked_sorted, scores[..2].to_vec(), "{stats:?}");
    // Halving off (0) is the plain search, and a wild count is refused.
    let off = IsmctsConfig {
        iterations: Some(300),
        halving: Some(0),
        ..IsmctsConfig::default()
    };
    let plain = IsmctsConfig {
        iterations: Some(300),
        ..IsmctsConfig::default()
    };
    assert_eq!(
        Ismcts::<Lanes>::new(off).search(&game).unwrap().children,
        Ismcts::<Lanes>::new(plain).search(&game).unwrap().children
    );
    let bad = IsmctsConfig {
        halving: Some(u32::MAX),
        ..IsmctsConfig::default()
    };
    assert!(Ismcts::<Lanes>::new(bad).search(&game).is_err());
}

#[test]
fn ismcts_finalist_depth_deepens_only_the_halvings_last_round() {
    // `finalist_depth`: the leaves of the halving's last round (its two finalists) are
    // scored after extra plies. The rounds before it run as without it (the same visits,
    // the same values for the candidates they cut); the finalists' values change; a lone
    // round (two candidates) is left alone; 0 is off.
    let game = Lanes::new(5, &LanesOptions::default()).unwrap();
    let with = |depth: Option<u32>, m: u32| IsmctsConfig {
        iterations: Some(400),
        halving: Some(m),
        finalist_depth: depth,
        finalist_expand: Some(4),
        ..IsmctsConfig::default()
    };
    let search = |c: IsmctsConfig| Ismcts::<Lanes>::new(c).search(&game).unwrap();
    let plain = search(with(None, 64));
    assert!(
        plain.children.len() >= 3,
        "the test needs two rounds: {plain:?}"
    );
    assert_eq!(search(with(Some(0), 64)).children, plain.children);
    let deep = search(with(Some(2), 64));
    assert_eq!(deep.iterations, plain.iterations);
    let by_action = |s: &SearchStats<Play>| {
        let mut v: Vec<(Play, u32, f64)> = s
            .children
            .iter()
            .map(|c| (c.action, c.visits, c.value))
            .collect();
        v.sort_by_key(|c| format!("{:?}", c.0));
        v
    };
    let (p, d) = (by_action(&plain), by_action(&deep));
    let top = plain.children[0].visits;
    let mut changed = 0;
    for (p, d) in p.iter().zip(&d) {
        assert_eq!(
            (p.0, p.1),
            (d.0, d.1),
            "the same schedule: {plain:?} {deep:?}"
        );
        if p.1 < top {
            assert_eq!(
                p.2, d.2,
                "a candidate cut before the last round: {p:?} {d:?}"
            );
        } else if p.2 != d.2 {
            changed += 1;
        }
    }
    assert!(
        changed > 0,
        "the finalists' leaves are deeper: {plain:?} {deep:?}"
    );
    assert!(deep.children[0].value >= deep.children[1].value);
    let name = with(Some(2), 64).name();
    assert!(
        name.ends_with("finalist_depth=2,finalist_expand=4"),
        "{name}"
    );
    assert_eq!(spec(&name), AgentSpec::Ismcts(with(Some(2), 64)));
    // One round between two candidates: not deepened.
    assert_eq!(
        search(with(Some(2), 2)).children,
        search(with(None, 2)).children
    );
    let bad = with(Some(IsmctsConfig::MAX_DEPTH + 1), 64);
    let err = Ismcts::<Lanes>::new(bad).search(&game).unwrap_err();
    assert!(err.to_string().contains("finalist_depth"), "{err}");
}

#[test]
fn ismcts_finalist_heuristic_plays_the_deep_plies_by_rule() {
    // `finalist_heuristic`: the finalists' extra plies are the rule-based player's moves.
    // In Battle Line (which has one) the halving's schedule and the candidates it cuts
    // before the last round are as without it, the finalists' values change, and without
    // `finalist_depth` it changes nothing; in a game with no rule-based player the plies
    // are played as without it.
    use crate::battleline::BattleLine;
    let with = |depth: u32, heuristic: Option<bool>| IsmctsConfig {
        iterations: Some(400),
        halving: Some(8),
        finalist_depth: Some(depth),
        finalist_expand: Some(4),
        finalist_heuristic: heuristic,
        ..IsmctsConfig::default()
    };
    let mut g = BattleLine::new(11, &Default::default()).unwrap();
    let mut rng = crate::rng::GameRng::seed(3);
    let mut legal = Vec::new();
    // A position a few turns in, with a real choice to make.
    let mut plies = 0;
    while plies < 24 || g.phase != crate::battleline::Phase::Play {
        g.legal_actions(&mut legal);
        g.apply(legal[rng.below(legal.len())]).unwrap();
        plies += 1;
    }
    let search = |c: IsmctsConfig| Ismcts::<BattleLine>::new(c).search(&g).unwrap();
    let plain = search(with(2, Some(false)));
    let ruled = search(with(2, Some(true)));
    assert!(plain.children.len() >= 4, "two rounds or more: {plain:?}");
    let top = plain.children[0].visits;
    let mut changed = 0;
    for p in &plain.children {
        let r = ruled
            .children
            .iter()
            .find(|r| r.action == p.action)
            .unwrap();
        assert_eq!(p.visits, r.visits, "the same schedule: {plain:?} {ruled:?}");
        if p.visits < top {
            assert_eq!(p.value, r.value, "cut before the last round: {p:?} {r:?}");
        } else if p.value != r.value {
            changed += 1;
        }
    }
    assert!(
        changed > 0,
        "the finalists' plies differ: {plain:?} {ruled:?}"
    );
    assert_eq!(
        search(with(0, Some(true))).children,
        search(with(0, Some(false))).children
    );
    let name = with(2, Some(true)).name();
    assert!(name.ends_with("finalist_heuristic=1"), "{name}");
    assert_eq!(spec(&name), AgentSpec::Ismcts(with(2, Some(true))));
    assert_eq!(
        spec("ismcts:400,finalist_heuristic=0"),
        AgentSpec::Ismcts(IsmctsConfig {
            iterations: Some(400),
            finalist_heuristic: Some(false),
            ..IsmctsConfig::default()
        })
    );
    // Lanes has no rule-based player: the plies are the plain ones.
    let lanes = Lanes::new(5, &LanesOptions::default()).unwrap();
    let lanes_search = |h| {
        let c = IsmctsConfig {
            halving: Some(64),
            ..with(2, h)
        };
        Ismcts::<Lanes>::new(c).search(&lanes).unwrap().children
    };
    assert_eq!(lanes_search(Some(true)), lanes_search(Some(false)));
}

#[test]
fn ismcts_time_budget_stops_in_time() {
    let game = Lanes::new(3, &LanesOptions::default()).unwrap();
    let mut a = Ismcts::<Lanes>::new(IsmctsConfig {
        iterations: None,
        time_limit: Some(0.05),
        ..IsmctsConfig::default()
    });
    let stats = a.search(&game).unwrap();
    assert!(stats.iterations > 10, "{stats:?}");
    assert!(stats.seconds < 0.5, "{stats:?}");
    let bad = IsmctsConfig {
        iterations: None,
        time_limit: None,
        ..IsmctsConfig::default()
    };
    assert!(Ismcts::<Lanes>::new(bad).search(&game).is_err());
}

#[test]
fn schedule_swaps_seats_fairly_and_shares_deals() {
    let f = fixtures(3, 2, Pairing::RoundRobin, 4).unwrap();
    assert_eq!(f.len(), 12);
    for pair in [(0, 1), (0, 2), (1, 2)] {
        let games: Vec<_> = f
            .iter()
            .filter(|x| {
                let mut s = x.seats.clone();
                s.sort_unstable();
                s == vec![pair.0, pair.1]
            })
            .collect();
        assert_eq!(games.len(), 4);
        let first_seat = games.iter().filter(|x| x.seats[0] == pair.0).count();
        assert_eq!(first_seat, 2, "each agent starts half the games");
        // Each deal is played once in each seat order.
        for d in 0..2 {
            let seats: Vec<_> = games
                .iter()
                .filter(|x| x.deal == d)
                .map(|x| x.seats.clone())
                .collect();
            assert_eq!(seats, vec![vec![pair.0, pair.1], vec![pair.1, pair.0]]);
        }
    }
    assert!(f.iter().enumerate().all(|(i, x)| x.index == i as u64));
    let g = fixtures(4, 2, Pairing::Gauntlet, 2).unwrap();
    assert_eq!(g.len(), 6);
    assert!(g.iter().all(|x| x.seats.contains(&0)));
    let three = fixtures(4, 3, Pairing::RoundRobin, 3).unwrap();
    assert_eq!(three.len(), 12);
    for a in 0..4 {
        for seat in 0..3 {
            assert_eq!(three.iter().filter(|x| x.seats[seat] == a).count(), 3);
        }
    }
    assert!(fixtures(3, 2, Pairing::RoundRobin, 3)
        .unwrap_err()
        .to_string()
        .contains("multiple of 2"));
    assert!(fixtures(1, 2, Pairing::RoundRobin, 2).is_err());
}

#[test]
fn tournament_tables_are_identical_for_any_thread_count() {
    let specs = [spec("random"), spec("greedy"), spec("ismcts:30")];
    let one = run(&specs, 10, 77, Some(1));
    let two = run(&specs, 10, 77, Some(2));
    let four = run(&specs, 10, 77, Some(4));
    assert_eq!(tables(&one), tables(&two));
    assert_eq!(tables(&one), tables(&four));
    assert_eq!(one.elo, four.elo);
    let other = run(&specs, 10, 78, Some(2));
    assert_ne!(tables(&one).1, tables(&other).1, "the seed matters");
}

#[test]
fn tournament_tables_add_up() {
    let specs = [spec("random"), spec("greedy"), spec("random")];
    let r = run(&specs, 20, 1, None);
    assert_eq!(r.names, vec!["random #1", "greedy", "random #2"]);
    assert_eq!(r.games(), 60);
    for i in 0..3 {
        assert_eq!(r.totals[i].games(), 40);
        let against: u64 = (0..3).map(|j| r.pairwise[i][j].games()).sum();
        assert_eq!(against, 40);
        for j in 0..3 {
            assert_eq!(r.pairwise[i][j], r.pairwise[j][i].flipped());
        }
    }
    let wins: u64 = r.totals.iter().map(|t| t.wins).sum();
    assert_eq!(wins + r.draws, 60);
    assert_eq!(r.seat_wins.iter().sum::<u64>() + r.draws, 60);
    let score = r.score(1).unwrap();
    assert!((score - r.totals[1].points() / 40.0).abs() < 1e-12);
    let t = r.table();
    assert!(
        t.contains("greedy") && t.contains("Elo") && t.contains("#2"),
        "{t}"
    );
    // Records replay to the recorded results.
    let cfg = TournamentConfig {
        games: 4,
        seed: 3,
        records: true,
        bootstrap: 0,
        ..TournamentConfig::default()
    };
    let r = arena::tournament::<Lanes>(
        &LanesOptions::default(),
        &specs[..2],
        &cfg,
        &Progress::default(),
    )
    .unwrap();
    for o in &r.outcomes {
        let rec = o.record.as_ref().unwrap();
        assert_eq!(rec.seed, o.seed);
        assert_eq!(
            Session::<Lanes>::replay(rec).unwrap().game.winner(),
            o.winner
        );
    }
}

#[test]
fn an_illegal_choice_names_agent_game_and_move() {
    struct Cheat;
    impl Agent<Lanes> for Cheat {
        fn act(&mut self, g: &Lanes) -> crate::Result<Play> {
            // A card from the opponent's hand, or any card not in ours.
            let mut legal = Vec::new();
            g.legal_actions(&mut legal);
            Ok((0..18u8)
                .map(|card| Play { card, lane: 0 })
                .find(|a| !legal.contains(a))
                .unwrap())
        }
    }
    let mut s = Session::<Lanes>::new(4, &LanesOptions::default()).unwrap();
    let mut agents: Vec<Box<dyn Agent<Lanes>>> =
        vec![Box::new(RandomAgent::new(1)), Box::new(Cheat)];
    let names = vec!["rnd".to_string(), "cheater".to_string()];
    let e = arena::play_out(&mut s, &mut agents, &names, "game 9 (seed 4)", None).unwrap_err();
    let crate::Error::IllegalAction { rule, message } = &e else {
        panic!("{e}")
    };
    assert_eq!(rule, "L-3");
    for part in ["\"cheater\"", "player 1", "lanes", "game 9", "@0", "ply 1"] {
        assert!(message.contains(part), "{message} lacks {part}");
    }
}

#[test]
fn cancelling_stops_a_tournament() {
    let p = Progress::default();
    p.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    let cfg = TournamentConfig {
        games: 10,
        ..TournamentConfig::default()
    };
    let e = arena::tournament::<Lanes>(
        &LanesOptions::default(),
        &[spec("random"), spec("random")],
        &cfg,
        &p,
    );
    assert_eq!(e.unwrap_err().to_string(), "cancelled");
}

/// Strength on the test game, each fact measured over 200 games (seats swapped). Lanes'
/// `evaluate` ignores flushes on purpose, so ISMCTS with random rollouts to the end (which
/// see them) is the strong configuration here; the default, leaf evaluation, still beats
/// random clearly.
#[test]
fn strength_ordering_on_the_test_game() {
    let rollouts = AgentSpec::Ismcts(IsmctsConfig {
        exploration: Some(0.7),
        rollout_depth: None,
        expand_samples: Some(0),
        widening: None,
        ..IsmctsConfig::default()
    });
    let r = run(&[spec("greedy"), spec("random")], 200, 5, None);
    assert!(
        r.score(0).unwrap() > 0.75,
        "greedy vs random: {}",
        r.table()
    );
    let r = run(&[rollouts.clone(), spec("random")], 200, 6, None);
    assert!(
        r.score(0).unwrap() >= 0.9,
        "ismcts vs random: {}",
        r.table()
    );
    let r = run(&[rollouts, spec("greedy")], 200, 7, None);
    assert!(r.score(0).unwrap() > 0.7, "ismcts vs greedy: {}", r.table());
    let r = run(&[ismcts(1000), spec("random")], 200, 6, None);
    assert!(
        r.score(0).unwrap() > 0.8,
        "default ismcts vs random: {}",
        r.table()
    );
}

fn views(b: &Batch<Lanes>) -> (Vec<f32>, Vec<bool>, Vec<i64>) {
    let n = b.len();
    (
        vec![0.0; n * b.obs_shape().iter().product::<usize>()],
        vec![false; n * b.num_actions()],
        vec![0; n],
    )
}

/// What one batch step wrote: observations, masks, players, rewards, dones.
type Written = (Vec<f32>, Vec<bool>, Vec<i64>, Vec<f32>, Vec<bool>);

/// Step a batch with the first legal id of every game, `steps` times; returns everything
/// it wrote.
fn drive(b: &mut Batch<Lanes>, steps: usize) -> Vec<Written> {
    let n = b.len();
    let (mut obs, mut mask, mut player) = views(b);
    b.observe(Views {
        obs: &mut obs,
        mask: Mask::Bools(&mut mask),
        player: &mut player,
        final_obs: &mut [],
        zeroed: false,
    })
    .unwrap();
    let na = b.num_actions();
    let mut out = Vec::new();
    for step in 0..steps {
        let actions: Vec<i64> = (0..n)
            .map(|i| {
                let legal: Vec<usize> = (0..na).filter(|&a| mask[i * na + a]).collect();
                legal[(i + step) % legal.len()] as i64
            })
            .collect();
        let mut rewards = vec![0.0; n * b.num_players()];
        let mut dones = vec![false; n];
        b.step(
            &actions,
            Views {
                obs: &mut obs,
                mask: Mask::Bools(&mut mask),
                player: &mut player,
                final_obs: &mut [],
                zeroed: false,
            },
            &mut rewards,
            &mut dones,
        )
        .unwrap();
        out.push((obs.clone(), mask.clone(), player.clone(), rewards, dones));
    }
    out
}

#[test]
fn batch_auto_resets_and_is_deterministic_for_any_thread_count() {
    let mk = |threads| {
        Batch::<Lanes>::new(LanesOptions::default(), 300, 9, None, None, threads).unwrap()
    };
    let mut one = mk(Some(1));
    let mut two = mk(Some(2));
    let a = drive(&mut one, 40);
    let b = drive(&mut two, 40);
    assert!(a == b, "thread count changed the batch");
    // More threads than chunks of games to share (300 games, chunks of 32).
    assert!(
        a == drive(&mut mk(Some(16)), 40),
        "16 threads changed the batch"
    );
    // Lanes lasts exactly 18 plies: every game ends on steps 18 and 36.
    for (k, (_, mask, player, rewards, dones)) in a.iter().enumerate() {
        let ended = (k + 1) % 18 == 0;
        assert!(dones.iter().all(|&d| d == ended), "step {k}");
        for i in 0..300 {
            let r = &rewards[2 * i..2 * i + 2];
            if ended {
                assert_eq!(r[0], -r[1]);
            } else {
                assert_eq!(r, [0.0, 0.0]);
            }
            // A fresh game after a reset: player 0 to move with 12 legal moves.
            if ended {
                assert_eq!(player[i], 0);
                assert_eq!(
                    mask[i * 72..(i + 1) * 72].iter().filter(|&&m| m).count(),
                    12
                );
            }
        }
    }
    assert_eq!(one.episodes_finished(), 600);
    // Each slot's next game comes from its own stream: slots differ, runs repeat.
    let g0 = one.session(0).unwrap().game.to_json();
    let g1 = one.session(1).unwrap().game.to_json();
    assert_ne!(g0, g1);
}

#[test]
fn batch_rejects_an_illegal_action_and_changes_nothing() {
    let mut b = Batch::<Lanes>::new(LanesOptions::default(), 4, 2, None, None, Some(1)).unwrap();
    let (mut obs, mut mask, mut player) = views(&b);
    b.observe(Views {
        obs: &mut obs,
        mask: Mask::Bools(&mut mask),
        player: &mut player,
        final_obs: &mut [],
        zeroed: false,
    })
    .unwrap();
    let before: Vec<_> = (0..4)
        .map(|i| b.session(i).unwrap().game.to_json())
        .collect();
    let mut actions: Vec<i64> = (0..4)
        .map(|i| mask[i * 72..].iter().position(|&m| m).unwrap() as i64)
        .collect();
    let bad = (0..72).find(|&a| !mask[2 * 72 + a]).unwrap();
    actions[2] = bad as i64;
    let mut rewards = vec![0.0; 8];
    let mut dones = vec![false; 4];
    let e = b
        .step(
            &actions,
            Views {
                obs: &mut obs,
                mask: Mask::Bools(&mut mask),
                player: &mut player,
                final_obs: &mut [],
                zeroed: false,
            },
            &mut rewards,
            &mut dones,
        )
        .unwrap_err();
    assert!(e.to_string().contains("batch game 2"), "{e}");
    actions[2] = -1;
    assert!(b
        .step(
            &actions,
            Views {
                obs: &mut obs,
                mask: Mask::Bools(&mut mask),
                player: &mut player,
                final_obs: &mut [],
                zeroed: false,
            },
            &mut rewards,
            &mut dones
        )
        .is_err());
    let after: Vec<_> = (0..4)
        .map(|i| b.session(i).unwrap().game.to_json())
        .collect();
    assert_eq!(before, after);
}

/// Step `b` with `actions`, into fresh buffers: what it wrote, or the error's text.
fn step_once(b: &mut Batch<Lanes>, actions: &[i64]) -> std::result::Result<Written, String> {
    let (mut obs, mut mask, mut player) = views(b);
    let mut rewards = vec![0.0; b.len() * b.num_players()];
    let mut dones = vec![false; b.len()];
    b.step(
        actions,
        Views {
            obs: &mut obs,
            mask: Mask::Bools(&mut mask),
            player: &mut player,
            final_obs: &mut [],
            zeroed: true,
        },
        &mut rewards,
        &mut dones,
    )
    .map_err(|e| e.to_string())?;
    Ok((obs, mask, player, rewards, dones))
}

/// The step's action check reads legal-id bits kept beside the masks; a game with too many
/// action ids for them is checked against each game's legal list. Both refuse the same ids
/// with the same error and accept the same ones.
#[test]
fn batch_checks_actions_alike_with_legal_bits_or_legal_lists() {
    let n = 5;
    let mk = || Batch::<Lanes>::new(LanesOptions::default(), n, 4, None, None, Some(1)).unwrap();
    let (mut bits, mut lists) = (mk(), mk());
    lists.without_legal_bits();
    let mut mask = observed(&mut bits).1;
    assert_eq!(mask, observed(&mut lists).1);
    let na = bits.num_actions();
    for step in 0..40 {
        let legal: Vec<Vec<i64>> = (0..n)
            .map(|i| {
                (0..na)
                    .filter(|&a| mask[i * na + a])
                    .map(|a| a as i64)
                    .collect()
            })
            .collect();
        let actions: Vec<i64> = legal.iter().map(|l| l[step % l.len()]).collect();
        for i in 0..n {
            let unlisted = (0..na as i64).find(|a| !legal[i].contains(a)).unwrap();
            for bad in [unlisted, -1, na as i64, 64 * 64, i64::MAX, i64::MIN] {
                let mut wrong = actions.clone();
                wrong[i] = bad;
                let (a, b) = (step_once(&mut bits, &wrong), step_once(&mut lists, &wrong));
                let e = a.expect_err("an illegal id was played");
                assert!(e.contains(&format!("batch game {i}")), "{e}");
                assert_eq!(Err(e), b);
            }
        }
        let (a, b) = (
            step_once(&mut bits, &actions),
            step_once(&mut lists, &actions),
        );
        assert_eq!(a, b);
        mask = a.unwrap().1;
    }
    assert_eq!(bits.episodes_finished(), 2 * n as u64);
}

#[test]
fn batch_with_an_opponent_hands_the_learner_its_seat() {
    let mut b = Batch::<Lanes>::new(
        LanesOptions::default(),
        6,
        3,
        Some(spec("greedy")),
        None,
        Some(1),
    )
    .unwrap();
    let seats = b.learners();
    assert_eq!(seats, vec![0, 1, 0, 1, 0, 1], "learner seats alternate");
    let steps = drive(&mut b, 20);
    for (k, (_, _, player, _, dones)) in steps.iter().enumerate() {
        // Every game ends on the learner's 9th move; then the seats swap.
        let finished = (k + 1) / 9;
        assert!(dones.iter().all(|&d| d == ((k + 1) % 9 == 0)), "step {k}");
        for i in 0..6 {
            let seat = if finished % 2 == 0 {
                seats[i]
            } else {
                1 - seats[i]
            };
            assert_eq!(player[i] as usize, seat, "step {k} game {i}");
        }
    }
    assert_eq!(b.learners(), vec![0, 1, 0, 1, 0, 1]);
}

/// A measuring tool, not a test: `KINGDOMS_MEASURE="game;agent;agent;games;seed"` plays a
/// tournament of a registered game and prints its table
/// (`cargo test -p kingdoms-core measure -- --ignored --nocapture`).
#[test]
#[ignore]
fn measure() {
    let Ok(spec_text) = std::env::var("KINGDOMS_MEASURE") else {
        return;
    };
    for job in spec_text.split('|') {
        let parts: Vec<&str> = job.split(';').collect();
        let (game, games, seed) = (parts[0], parts[parts.len() - 2], parts[parts.len() - 1]);
        let specs: Vec<AgentSpec> = parts[1..parts.len() - 2].iter().map(|s| spec(s)).collect();
        let cfg = TournamentConfig {
            games: games.parse().unwrap(),
            seed: seed.parse().unwrap(),
            ..TournamentConfig::default()
        };
        let r = crate::with_game!(game, G => {
            arena::tournament::<G>(&Default::default(), &specs, &cfg, &Progress::default()).unwrap()
        })
        .unwrap();
        println!("{}", r.table());
    }
}

/// A fresh batch's observations, masks and players.
fn observed(b: &mut Batch<Lanes>) -> (Vec<f32>, Vec<bool>, Vec<i64>) {
    let (mut obs, mut mask, mut player) = views(b);
    b.observe(Views {
        obs: &mut obs,
        mask: Mask::Bools(&mut mask),
        player: &mut player,
        final_obs: &mut [],
        zeroed: false,
    })
    .unwrap();
    (obs, mask, player)
}

#[test]
fn batch_reset_with_a_seed_restarts_every_stream() {
    let mut fresh =
        Batch::<Lanes>::new(LanesOptions::default(), 5, 11, None, None, Some(1)).unwrap();
    let mut used = Batch::<Lanes>::new(LanesOptions::default(), 5, 4, None, None, Some(1)).unwrap();
    drive(&mut used, 20); // one game finished in every slot
    let (mut obs, mut mask, mut player) = views(&used);
    used.reset(
        Some(11),
        Views {
            obs: &mut obs,
            mask: Mask::Bools(&mut mask),
            player: &mut player,
            final_obs: &mut [],
            zeroed: false,
        },
    )
    .unwrap();
    assert_eq!((obs, mask, player), observed(&mut fresh));
    assert_eq!(used.seed(), 11);
    assert_eq!(used.episodes_finished(), 5, "finished games stay counted");
    assert_eq!(drive(&mut used, 30), drive(&mut fresh, 30));
}

#[test]
fn batch_keeps_the_final_observation_of_a_game_that_ends() {
    let mut b = Batch::<Lanes>::new(LanesOptions::default(), 3, 6, None, None, Some(1)).unwrap();
    let obs_len: usize = b.obs_shape().iter().product();
    let (mut obs, mut mask, mut player) = observed(&mut b);
    let mut finals = vec![7.0f32; 3 * obs_len];
    for step in 0..18 {
        let mut expected = Vec::new();
        let actions: Vec<i64> = (0..3)
            .map(|i| {
                let s = b.session(i).unwrap();
                let a = mask[i * 72..(i + 1) * 72].iter().position(|&m| m).unwrap();
                let mut g = s.game.clone();
                let mover = g.current_player().unwrap();
                g.apply(g.action_from_id(a).unwrap()).unwrap();
                let mut o = vec![0.0; obs_len];
                g.observation(mover, &mut o);
                expected.push(o);
                a as i64
            })
            .collect();
        let (mut rewards, mut dones) = (vec![0.0; 6], vec![false; 3]);
        b.step(
            &actions,
            Views {
                obs: &mut obs,
                mask: Mask::Bools(&mut mask),
                player: &mut player,
                final_obs: &mut finals,
                zeroed: false,
            },
            &mut rewards,
            &mut dones,
        )
        .unwrap();
        for i in 0..3 {
            let row = &finals[i * obs_len..(i + 1) * obs_len];
            if step == 17 {
                assert!(dones[i]);
                assert_eq!(row, &expected[i][..], "game {i}");
            } else {
                assert!(row.iter().all(|&x| x == 7.0), "untouched until a game ends");
            }
        }
    }
}

#[test]
fn a_game_declaring_divisors_gets_a_correct_compact_observation_by_default() {
    // Lanes declares divisors (all 1) when asked and has no uint8 writer of its own: the
    // trait's default derives it from the float observation, for every player and ply.
    let opts = LanesOptions {
        compact: true,
        ..LanesOptions::default()
    };
    let mut g = Lanes::new(4, &opts).unwrap();
    let len: usize = g.observation_shape().iter().product();
    assert_eq!(g.observation_divisors(), Some(vec![1.0; len]));
    assert_eq!(
        Lanes::new(4, &LanesOptions::default())
            .unwrap()
            .observation_divisors(),
        None
    );
    let mut buf = Vec::new();
    let mut plies = 0;
    while !g.is_terminal() {
        for p in 0..g.num_players() {
            let mut obs = vec![0.0f32; len];
            g.observation(p, &mut obs);
            let mut compact = vec![0xA5u8; len];
            g.observation_u8(p, &mut compact);
            let back: Vec<f32> = compact.iter().map(|&c| f32::from(c)).collect();
            assert_eq!(back, obs, "ply {plies}, player {p}");
        }
        g.legal_actions(&mut buf);
        g.apply(buf[plies % buf.len()]).unwrap();
        plies += 1;
    }
    // A batch takes uint8 buffers for it and fills them with the same counts.
    let mut b = Batch::<Lanes>::new(opts, 3, 2, None, None, Some(1)).unwrap();
    let (mut obs, mut mask, mut player) = (vec![0u8; 3 * len], vec![false; 3 * 72], vec![0; 3]);
    b.reset_as(
        Some(5),
        Views {
            obs: &mut obs,
            mask: Mask::Bools(&mut mask),
            player: &mut player,
            final_obs: &mut [],
            zeroed: true,
        },
    )
    .unwrap();
    let (mut f, mut fmask, mut fplayer) = views(&b);
    b.reset(
        Some(5),
        Views {
            obs: &mut f,
            mask: Mask::Bools(&mut fmask),
            player: &mut fplayer,
            final_obs: &mut [],
            zeroed: true,
        },
    )
    .unwrap();
    assert!(obs.contains(&1));
    assert_eq!(obs.iter().map(|&x| f32::from(x)).collect::<Vec<_>>(), f);
    assert_eq!((mask, player), (fmask, fplayer));
}

#[test]
fn judging_through_evaluate_after_or_its_failure_changes_no_game() {
    // Greedy's scoring and the search's expansions ask the game to judge a list of moves at
    // once (`Knowledge::evaluate_after`); a game that does it (`Listed`, the same values) plays the
    // same games as one that has no such way, and so does one whose `evaluate_after` fails:
    // the agents then judge move by move, where an error would name the move.
    let specs = [spec("greedy:samples=3"), spec("ismcts:60,expand=4")];
    let cfg = TournamentConfig {
        games: 8,
        seed: 11,
        threads: Some(1),
        bootstrap: 0,
        ..TournamentConfig::default()
    };
    let play = |judge: Judge| {
        let opts = LanesOptions {
            judge,
            ..LanesOptions::default()
        };
        let r = arena::tournament::<Lanes>(&opts, &specs, &cfg, &Progress::default()).unwrap();
        tables(&r)
    };
    let plain = play(Judge::Default);
    assert_eq!(play(Judge::Listed), plain);
    assert_eq!(play(Judge::Fails), plain);
}

#[test]
fn a_move_that_fails_while_judged_is_named() {
    // Judged move by move (Lanes has no faster way, or its way fails), a listed move that
    // does not apply gives an error naming it, from Greedy's judging and the search's
    // expansion alike.
    for judge in [Judge::Default, Judge::Fails] {
        let opts = LanesOptions {
            judge,
            ..LanesOptions::default()
        };
        let mut g = Lanes::new(5, &opts).unwrap();
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let gone = legal[0];
        g.apply(gone).unwrap();
        g.legal_actions(&mut legal);
        assert!(
            !legal.contains(&gone),
            "the card played is no longer anyone's"
        );
        let moves = [legal[0], gone];
        let mover = g.current_player().unwrap();
        let teams = Teams::of(&g);
        let name = g.action_notation(gone);
        let mut values = Vec::new();
        for err in [
            judge_moves(&g, &moves, mover, &teams, &mut values).unwrap_err(),
            best_reply(&g, &moves, mover, &teams, &mut values)
                .map(|_| ())
                .unwrap_err(),
        ] {
            let text = err.to_string();
            assert!(text.contains(&name), "{text}");
            assert!(text.contains("fails in a determinization"), "{text}");
        }
        // Both legal: judged, and the best of them found, without error.
        let fine = [legal[0], legal[1]];
        judge_moves(&g, &fine, mover, &teams, &mut values).unwrap();
        assert_eq!(values.len(), 2);
        let first = if values[1] > values[0] { 1 } else { 0 };
        let (v, a, after) = best_reply(&g, &fine, mover, &teams, &mut Vec::new())
            .unwrap()
            .unwrap();
        assert_eq!((v, a), (values[first], fine[first]));
        assert_eq!(teams.value(&after, mover), v);
    }
}
