//! The tournament scheduler, slices and merges, and tables from returns, on the test game.

use super::scheduler::{unwatched, AgentProvider};
use super::{GameOutcome, Pairing, Progress, TournamentConfig, TournamentResult};
use crate::arena;
use crate::error::{Error, Result};
use crate::search::testgame::{Lanes, LanesOptions};
use crate::search::{Agent, AgentSpec};
use crate::simulate::game_seed;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::ThreadId;

fn specs(texts: &[&str]) -> Vec<AgentSpec> {
    texts.iter().map(|t| AgentSpec::parse(t).unwrap()).collect()
}

fn config(games: u64, seed: u64, threads: Option<usize>) -> TournamentConfig {
    TournamentConfig {
        games,
        seed,
        threads,
        bootstrap: 100,
        ..TournamentConfig::default()
    }
}

fn names(specs: &[AgentSpec]) -> Vec<String> {
    arena::unique_names(specs.iter().map(AgentSpec::name).collect())
}

/// Everything but the timing.
fn same(a: &TournamentResult, b: &TournamentResult) {
    assert_eq!(a.outcomes, b.outcomes);
    assert_eq!(a.totals, b.totals);
    assert_eq!(a.pairwise, b.pairwise);
    assert_eq!(a.elo, b.elo);
    assert_eq!(a.seat_wins, b.seat_wins);
    let cut = |t: String| {
        t.split_once("plies a game")
            .map(|(x, _)| x.to_string())
            .unwrap()
    };
    assert_eq!(cut(a.table()), cut(b.table()));
}

/// Rust agents, of which those in `caller` must play on the thread that started the run
/// (as Python agents do); counts the agents built there.
struct Mixed {
    specs: Vec<AgentSpec>,
    caller: Vec<usize>,
    thread: ThreadId,
    built_here: AtomicU64,
}

impl AgentProvider<Lanes> for Mixed {
    fn pooled(&self, agent: usize) -> bool {
        !self.caller.contains(&agent)
    }
    fn build(&self, agent: usize, salt: u64) -> Result<Box<dyn Agent<Lanes>>> {
        if !self.pooled(agent) {
            assert_eq!(std::thread::current().id(), self.thread, "agent {agent}");
            self.built_here.fetch_add(1, Ordering::Relaxed);
        }
        self.specs.as_slice().build(agent, salt)
    }
}

#[test]
fn agents_kept_on_the_callers_thread_give_the_same_tables() {
    let s = specs(&["random", "greedy", "ismcts:20"]);
    let cfg = config(6, 21, Some(2));
    let pooled =
        arena::tournament::<Lanes>(&LanesOptions::default(), &s, &cfg, &Progress::default())
            .unwrap();
    let mixed = Mixed {
        specs: s.clone(),
        caller: vec![0],
        thread: std::thread::current().id(),
        built_here: AtomicU64::new(0),
    };
    let mut watched = Vec::new();
    let r = arena::tournament_with::<Lanes, _>(
        &LanesOptions::default(),
        names(&s),
        &mixed,
        &cfg,
        &Progress::default(),
        &mut |done, force| {
            watched.push((done, force));
            Ok(())
        },
    )
    .unwrap();
    same(&pooled, &r);
    // Agent 0 plays 12 of the 18 games, one agent built per game.
    assert_eq!(mixed.built_here.load(Ordering::Relaxed), 12);
    assert_eq!(watched.first(), Some(&(0, true)));
    assert_eq!(watched.last(), Some(&(18, true)));
    assert!(watched.windows(2).all(|w| w[0].0 <= w[1].0));
}

#[test]
fn a_failing_watch_cancels_the_run_with_its_error() {
    let s = specs(&["random", "greedy"]);
    let mixed = Mixed {
        specs: s.clone(),
        caller: vec![1],
        thread: std::thread::current().id(),
        built_here: AtomicU64::new(0),
    };
    let progress = Progress::default();
    let e = arena::tournament_with::<Lanes, _>(
        &LanesOptions::default(),
        names(&s),
        &mixed,
        &config(40, 1, Some(1)),
        &progress,
        &mut |done, _| {
            if done >= 3 {
                Err(Error::invalid("stop here"))
            } else {
                Ok(())
            }
        },
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "stop here");
    assert!(progress.done.load(Ordering::Relaxed) < 40);
}

#[test]
fn slices_merged_in_any_order_are_the_whole_tournament() {
    let s = specs(&["random", "greedy", "ismcts:10"]);
    let cfg = config(4, 5, Some(1));
    let opts = LanesOptions::default();
    let whole = arena::tournament::<Lanes>(&opts, &s, &cfg, &Progress::default()).unwrap();
    let n = names(&s);
    let slice = |a: u64, b: u64| {
        arena::tournament_games::<Lanes, _>(
            &opts,
            &n,
            s.as_slice(),
            &cfg,
            a..b,
            &Progress::default(),
            &mut unwatched,
        )
        .unwrap()
    };
    let mut parts = slice(7, 12);
    parts.extend(slice(0, 7));
    parts.extend(slice(12, 12));
    assert_eq!(parts.len(), 12);
    let merged = arena::merge::<Lanes>(&opts, n.clone(), &cfg, parts.clone(), 1.0).unwrap();
    same(&whole, &merged);

    // A slice past the end of the schedule, and merges that do not cover it exactly once.
    let e = arena::tournament_games::<Lanes, _>(
        &opts,
        &n,
        s.as_slice(),
        &cfg,
        10..13,
        &Progress::default(),
        &mut unwatched,
    )
    .unwrap_err();
    assert!(e.to_string().contains("12 games"), "{e}");
    let merge = |outcomes: Vec<GameOutcome>| {
        arena::merge::<Lanes>(&opts, n.clone(), &cfg, outcomes, 1.0)
            .unwrap_err()
            .to_string()
    };
    let mut missing = parts.clone();
    missing.retain(|o| o.index != 4);
    assert!(merge(missing).contains("game 4 is missing"));
    let mut twice = parts.clone();
    twice.push(parts[3].clone());
    assert!(merge(twice).contains("appears twice"));
    let mut seats = parts.clone();
    seats[0].seats.reverse();
    assert!(merge(seats).contains("other seats"));
    let mut seed = parts.clone();
    seed[1].seed ^= 1;
    assert!(merge(seed).contains("another seed"));
    // The outcomes of another tournament's seed.
    let e = arena::merge::<Lanes>(&opts, n, &config(4, 6, None), parts, 1.0).unwrap_err();
    assert!(
        e.to_string()
            .contains("game 0 was set up from another seed"),
        "{e}"
    );
}

fn outcome(index: u64, seats: Vec<usize>, returns: Vec<f64>) -> GameOutcome {
    GameOutcome {
        index,
        seed: game_seed(0, index),
        seats,
        winner: None,
        returns,
        plies: 10,
        record: None,
        forfeit: None,
    }
}

/// Tables come from returns, so games of more than two players (and, later, teams) are
/// scored without a rewrite: higher return wins a pair, equal draws.
#[test]
fn tables_come_from_returns() {
    let r = TournamentResult::from_outcomes(
        "three",
        vec!["a".into(), "b".into(), "c".into()],
        vec![0, 1, 2],
        arena::Partners::Rotate,
        Pairing::RoundRobin,
        3,
        0,
        vec![
            outcome(0, vec![0, 1, 2], vec![1.0, -1.0, -1.0]),
            outcome(1, vec![1, 2, 0], vec![0.5, 0.5, -1.0]),
            outcome(2, vec![2, 0, 1], vec![0.0, 0.0, 0.0]),
        ],
        0,
        0.0,
    );
    let wdl = |w, d, l| arena::Wdl {
        wins: w,
        draws: d,
        losses: l,
    };
    assert_eq!(r.totals, vec![wdl(1, 1, 1), wdl(0, 2, 1), wdl(0, 2, 1)]);
    assert_eq!(r.seat_wins, vec![1, 0, 0]);
    assert_eq!(r.draws, 2);
    assert_eq!(r.pairwise[0][1], wdl(1, 1, 1));
    assert_eq!(r.pairwise[1][2], wdl(0, 3, 0));
    assert_eq!(r.pairwise[2][0], r.pairwise[0][2].flipped());
}

fn selfplay(
    s: &[AgentSpec],
    range: std::ops::Range<u64>,
    threads: Option<usize>,
) -> Result<Vec<super::selfplay::Trajectory>> {
    selfplay_with(s, range, threads, false)
}

fn selfplay_with(
    s: &[AgentSpec],
    range: std::ops::Range<u64>,
    threads: Option<usize>,
    seat_rows: bool,
) -> Result<Vec<super::selfplay::Trajectory>> {
    super::selfplay::selfplay_games::<Lanes, _>(
        &LanesOptions::default(),
        &names(s),
        s,
        17,
        range,
        threads,
        seat_rows,
        &Progress::default(),
        &mut unwatched,
    )
}

#[test]
fn selfplay_seat_rows_are_every_seats_observation_from_the_mover() {
    use crate::game::Game;
    let s = specs(&["ismcts:20"]);
    let plain = selfplay(&s, 0..2, Some(1)).unwrap();
    let with = selfplay_with(&s, 0..2, Some(1), true).unwrap();
    let probe = Lanes::new(0, &LanesOptions::default()).unwrap();
    let obs_len: usize = probe.observation_shape().iter().product();
    let n = probe.num_players();
    let mut obs = vec![0.0f32; obs_len];
    for (a, b) in plain.iter().zip(&with) {
        assert!(a.seat_rows.is_empty(), "off unless asked");
        assert_eq!(a.actions, b.actions, "the column changes no game");
        assert_eq!(b.seat_rows.len(), b.plies() * n * obs_len);
        let mut game = Lanes::new(b.seed, &LanesOptions::default()).unwrap();
        for (ply, (&p, &act)) in b.players.iter().zip(&b.actions).enumerate() {
            let row = &b.seat_rows[ply * n * obs_len..(ply + 1) * n * obs_len];
            assert_eq!(&row[..obs_len], &b.observations[ply * obs_len..][..obs_len]);
            for k in 0..n {
                game.observation((p as usize + k) % n, &mut obs);
                assert_eq!(&row[k * obs_len..(k + 1) * obs_len], &obs[..], "seat {k}");
            }
            game.apply(game.action_from_id(act as usize).unwrap())
                .unwrap();
        }
    }
}

#[test]
fn selfplay_games_are_the_same_in_any_slice_and_replay_to_their_returns() {
    use crate::game::Game;
    let s = specs(&["ismcts:30", "random"]);
    let whole = selfplay(&s, 0..6, Some(2)).unwrap();
    let mut parts = selfplay(&s, 0..2, Some(1)).unwrap();
    parts.extend(selfplay(&s, 2..6, None).unwrap());
    // root_values holds NaN where the mover did not search: compared by bits.
    let bits = |ts: &[super::selfplay::Trajectory]| {
        ts.iter()
            .map(|t| {
                let mut c = t.clone();
                let b: Vec<u32> = c.root_values.drain(..).map(f32::to_bits).collect();
                (c, b)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(bits(&whole), bits(&parts));
    for t in &whole {
        assert_eq!(t.root_values.len(), t.plies() * 2);
    }
    let probe = Lanes::new(0, &LanesOptions::default()).unwrap();
    let (obs_len, actions) = (
        probe.observation_shape().iter().product::<usize>(),
        probe.num_actions(),
    );
    let mut searched = 0;
    for t in &whole {
        // Seats rotate with the game index.
        assert_eq!(t.seats, if t.index % 2 == 0 { [0, 1] } else { [1, 0] });
        assert_eq!(t.observations.len(), t.plies() * obs_len);
        assert_eq!(t.masks.len(), t.plies() * actions);
        let mut game = Lanes::new(t.seed, &LanesOptions::default()).unwrap();
        for (ply, (&p, &a)) in t.players.iter().zip(&t.actions).enumerate() {
            let row = ply * actions;
            assert_eq!(game.current_player(), Some(p as usize));
            assert!(t.masks[row + a as usize], "the mask allows the action");
            let visits = &t.visits[row..row + actions];
            let mover = t.seats[p as usize];
            if mover == 1 {
                assert!(visits.iter().all(|&v| v == 0), "random does not search");
            } else if visits.iter().any(|&v| v > 0) {
                searched += 1;
                // ISMCTS plays its most visited action; visits only on legal actions.
                let best = visits.iter().max().unwrap();
                assert_eq!(visits[a as usize], *best);
                for (i, &v) in visits.iter().enumerate() {
                    assert!(v == 0 || t.masks[row + i]);
                }
            }
            let mut obs = vec![0.0; obs_len];
            game.observation(p as usize, &mut obs);
            assert_eq!(obs, t.observations[ply * obs_len..(ply + 1) * obs_len]);
            game.apply(game.action_from_id(a as usize).unwrap())
                .unwrap();
        }
        assert!(game.is_terminal());
        assert_eq!(game.returns(), t.returns);
    }
    assert!(searched > 10, "ISMCTS searched {searched} times");
    // One agent plays every seat; any other count is refused.
    let one = selfplay(&s[..1], 0..2, None).unwrap();
    assert!(one.iter().all(|t| t.seats == [0, 0]));
    let e = selfplay(&specs(&["random", "random", "random"]), 0..2, None).unwrap_err();
    assert!(e.to_string().contains("one per player"), "{e}");
}

/// A Battle Line game played `plies` random plies from `seed`.
fn midgame(seed: u64, plies: usize) -> crate::battleline::BattleLine {
    use crate::game::Game;
    let mut g = crate::battleline::BattleLine::new(seed, &Default::default()).unwrap();
    let mut rng = crate::rng::GameRng::seed(seed);
    let mut legal = Vec::new();
    for _ in 0..plies {
        g.legal_actions(&mut legal);
        let a = *rng.choose(&legal).unwrap();
        g.apply(a).unwrap();
    }
    g
}

#[test]
fn a_tournament_from_a_position_plays_it_to_the_end_and_records_replay() {
    use crate::battleline::BattleLine;
    use crate::game::Game;
    use crate::session::Session;
    let text = midgame(5, 12).position(None).unwrap();
    let cfg = TournamentConfig {
        records: true,
        position: Some(text.clone()),
        ..config(4, 3, Some(1))
    };
    let r = arena::tournament::<BattleLine>(
        &Default::default(),
        &specs(&["random", "greedy"]),
        &cfg,
        &Progress::default(),
    )
    .unwrap();
    assert_eq!(r.outcomes.len(), 4);
    for o in &r.outcomes {
        let record = o.record.as_ref().unwrap();
        assert_eq!(record.position.as_deref(), Some(text.as_str()));
        assert_eq!(record.actions.len() as u64, o.plies);
        let replayed = Session::<BattleLine>::replay(record).unwrap();
        assert!(replayed.game.is_terminal());
        assert_eq!(replayed.game.returns(), o.returns);
    }
}

#[test]
fn a_tournament_from_a_view_deals_the_hidden_cards_per_game() {
    use crate::battleline::BattleLine;
    use crate::game::Game;
    let g = midgame(8, 9);
    let cfg = TournamentConfig {
        records: true,
        position: Some(g.position(Some(0)).unwrap()),
        ..config(4, 3, Some(1))
    };
    let r = arena::tournament::<BattleLine>(
        &Default::default(),
        &specs(&["random", "random"]),
        &cfg,
        &Progress::default(),
    )
    .unwrap();
    let starts: Vec<BattleLine> = r
        .outcomes
        .iter()
        .map(|o| {
            let text = o.record.as_ref().unwrap().position.as_ref().unwrap();
            BattleLine::from_position(text, &Default::default(), 0).unwrap()
        })
        .collect();
    for s in &starts {
        assert_eq!(s.view(0), g.view(0));
    }
    // Deals 0 and 1 (games 0-1 and 2-3) start from other determinizations.
    assert_ne!(starts[0].to_json(), starts[2].to_json());
}

#[test]
fn a_tournament_refuses_a_bad_or_finished_position() {
    use crate::battleline::BattleLine;
    use crate::game::Game;
    let run = |text: String| {
        let cfg = TournamentConfig {
            position: Some(text),
            ..config(2, 3, Some(1))
        };
        arena::tournament::<BattleLine>(
            &Default::default(),
            &specs(&["random", "random"]),
            &cfg,
            &Progress::default(),
        )
        .err()
        .unwrap()
        .to_string()
    };
    let e = run("nonsense".into());
    assert!(e.contains("position"), "{e}");
    let mut g = midgame(2, 0);
    let mut rng = crate::rng::GameRng::seed(1);
    let mut legal = Vec::new();
    while !g.is_terminal() {
        g.legal_actions(&mut legal);
        g.apply(*rng.choose(&legal).unwrap()).unwrap();
    }
    let e = run(g.position(None).unwrap());
    assert!(e.contains("finished game"), "{e}");
}

/// Plays randomly for `moves` moves of a game, then forfeits.
struct Quitter {
    moves: u32,
    gave_up: bool,
}

impl Agent<Lanes> for Quitter {
    fn act(&mut self, game: &Lanes) -> Result<<Lanes as crate::game::Game>::Action> {
        if self.moves == 0 {
            self.gave_up = true;
            return Err(Error::invalid("gave up"));
        }
        self.moves -= 1;
        AgentSpec::Random { seed: 1 }.build::<Lanes>(7).act(game)
    }
    fn forfeited(&self) -> Option<String> {
        self.gave_up.then(|| "no answer".to_string())
    }
}

/// Agent 0 forfeits every game after two moves; agent 1 is random.
struct WithQuitter;

impl AgentProvider<Lanes> for WithQuitter {
    fn pooled(&self, _agent: usize) -> bool {
        false
    }
    fn build(&self, agent: usize, salt: u64) -> Result<Box<dyn Agent<Lanes>>> {
        Ok(if agent == 0 {
            Box::new(Quitter {
                moves: 2,
                gave_up: false,
            })
        } else {
            AgentSpec::Random { seed: 0 }.build::<Lanes>(salt)
        })
    }
}

#[test]
fn a_forfeit_loses_the_game_and_the_tournament_goes_on() {
    let r = arena::tournament_with::<Lanes, _>(
        &LanesOptions::default(),
        vec!["quitter".into(), "random".into()],
        &WithQuitter,
        &config(4, 3, Some(1)),
        &Progress::default(),
        &mut unwatched,
    )
    .unwrap();
    assert_eq!(r.outcomes.len(), 4);
    for o in &r.outcomes {
        let seat = o.seats.iter().position(|&a| a == 0).unwrap();
        let f = o.forfeit.as_ref().unwrap();
        assert_eq!((f.seat, f.reason.as_str()), (seat, "no answer"));
        assert_eq!(o.returns[seat], -1.0);
        assert_eq!(o.returns[1 - seat], 1.0);
        assert_eq!(o.winning_agent(), Some(1));
    }
    assert_eq!((r.totals[0].losses, r.totals[1].wins), (4, 4));
}

#[test]
fn agent_salts_are_keyed_and_one_way() {
    // not the old invertible chain mix64(game_seed(seed ^ K, index) ^ seat)
    let old = |seed: u64, index: u64, seat: u64| {
        crate::rng::mix64(game_seed(seed ^ 0x7E57_A6E7_5A17, index) ^ seat)
    };
    for (seed, index, seat) in [(0, 0, 0), (1, 2, 1), (99, 5, 3)] {
        let salt = arena::agent_salt(seed, index, seat as usize);
        assert_ne!(salt, old(seed, index, seat));
        assert_eq!(salt, arena::agent_salt(seed, index, seat as usize));
    }
    assert_ne!(arena::agent_salt(1, 0, 0), arena::agent_salt(2, 0, 0));
}
