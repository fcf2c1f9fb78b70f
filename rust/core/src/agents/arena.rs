//! Matches and tournaments, on every core.
//!
//! **Schedule.** A tournament between `n` agents of a `k`-player game plays every group of
//! `k` agents (round robin; a gauntlet: agent 0 against every group of the others) for
//! `games` games per group. Game `g` of a group seats its agents rotated by `g % k`, so each
//! agent sits in each seat equally often, and it uses deal `g / k`: the rotations of a deal
//! replay the same shuffle with the seats swapped (duplicate format), which cancels most of
//! the luck of the deal. Every group plays the same deals.
//!
//! **Determinism.** Deal `d` is set up from `simulate::game_seed(seed, d)`; the agent in
//! seat `s` of game `i` is built from a salt derived from `(seed, i, s)`. Games run on a
//! rayon pool in any order, and results are gathered in game-index order, so the tables
//! are identical for every thread count.

use super::{elo, Agent, AgentSpec};
use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::rng::mix64;
use crate::session::{Record, Session};
use crate::simulate::{game_seed, pool, MAX_PLIES};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// Win 1, draw 1/2, loss 0.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }
    /// Share of the points available (NaN without games).
    pub fn score(&self) -> f64 {
        self.points() / self.games() as f64
    }
    /// The same games from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
    fn add(&mut self, o: Wdl) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
}

/// Stops a running tournament between games, and counts finished games for progress bars.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
    pub cancel: AtomicBool,
}

pub(crate) fn cancelled() -> Error {
    Error::invalid("cancelled")
}

/// The same error with `context` added to its message (for errors raised by agents).
pub fn with_context(e: Error, context: &str) -> Error {
    match e {
        Error::IllegalAction { rule, message } => Error::IllegalAction {
            rule,
            message: format!("{message} [{context}]"),
        },
        Error::Invalid { message } => Error::Invalid {
            message: format!("{message} [{context}]"),
        },
        other => other,
    }
}

/// Play `session` to the end, `agents[p]` moving for player `p`. `names[p]` and `context`
/// (e.g. `game 3 (seed 99)`) make errors say who did what where: an agent that chooses an
/// illegal action ends the match with `Error::IllegalAction` naming the agent, the game and
/// the move. Returns the number of plies played.
pub fn play_out<G: Game>(
    session: &mut Session<G>,
    agents: &mut [Box<dyn Agent<G>>],
    names: &[String],
    context: &str,
    cancel: Option<&AtomicBool>,
) -> Result<u64> {
    let n = session.game.num_players();
    if agents.len() != n || names.len() != n {
        return Err(Error::invalid(format!(
            "{} is a {n}-player game; got {} agents",
            G::NAME,
            agents.len()
        )));
    }
    let mut legal = Vec::new();
    let mut plies = 0u64;
    while let Some(p) = session.game.current_player() {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(cancelled());
        }
        let a = agents[p]
            .act(&session.game)
            .map_err(|e| with_context(e, &format!("{} {context}, ply {plies}", G::NAME)))?;
        session.game.legal_actions(&mut legal);
        if !legal.contains(&a) {
            return Err(illegal_choice(
                &session.game,
                a,
                &names[p],
                p,
                context,
                plies,
            ));
        }
        session.apply(a)?;
        plies += 1;
        if plies as usize > MAX_PLIES {
            return Err(Error::invalid(format!(
                "{} {context}: no end after {MAX_PLIES} plies",
                G::NAME
            )));
        }
    }
    Ok(plies)
}

fn illegal_choice<G: Game>(
    game: &G,
    a: G::Action,
    name: &str,
    player: Player,
    context: &str,
    ply: u64,
) -> Error {
    let (rule, why) = match game.clone().apply(a) {
        Err(Error::IllegalAction { rule, message }) => (rule, message),
        Err(e) => ("legal_actions".to_string(), e.to_string()),
        Ok(()) => (
            "legal_actions".to_string(),
            "not among the legal actions".to_string(),
        ),
    };
    Error::illegal(
        rule,
        format!(
            "agent {name:?} (player {player}) chose {:?}, illegal in {} {context} at ply {ply}: {why}",
            game.action_notation(a),
            G::NAME
        ),
    )
}

/// The salt of the agent in `seat` of game `index` of a tournament under `seed`.
pub fn agent_salt(seed: u64, index: u64, seat: usize) -> u64 {
    mix64(game_seed(seed ^ 0x7E57_A6E7_5A17, index) ^ seat as u64)
}

/// One match between Rust agents from the start: game `seed`, `specs[p]` playing player `p`.
/// Returns its record and final returns.
pub fn play_match<G: Game>(
    options: &G::Options,
    seed: u64,
    specs: &[AgentSpec],
) -> Result<(Record, Vec<f64>)> {
    let mut session = Session::<G>::new(seed, options)?;
    let mut agents: Vec<Box<dyn Agent<G>>> = specs
        .iter()
        .enumerate()
        .map(|(seat, s)| s.build::<G>(agent_salt(seed, 0, seat)))
        .collect();
    let names: Vec<String> = specs.iter().map(AgentSpec::name).collect();
    play_out(
        &mut session,
        &mut agents,
        &names,
        &format!("(seed {seed})"),
        None,
    )?;
    Ok((session.record()?, session.game.returns()))
}

/// Who meets whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pairing {
    /// Every group of `k` agents (every pair, in a two-player game).
    #[default]
    RoundRobin,
    /// Agent 0 against every group of `k - 1` of the others.
    Gauntlet,
}

impl Pairing {
    pub fn parse(text: &str) -> Result<Pairing> {
        match text.to_ascii_lowercase().replace('_', "-").as_str() {
            "round-robin" | "roundrobin" => Ok(Pairing::RoundRobin),
            "gauntlet" => Ok(Pairing::Gauntlet),
            _ => Err(Error::invalid(format!(
                "unknown pairing {text:?}: use \"round-robin\" or \"gauntlet\""
            ))),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Pairing::RoundRobin => "round-robin",
            Pairing::Gauntlet => "gauntlet",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TournamentConfig {
    /// Games per group (pairing); a multiple of the number of players.
    pub games: u64,
    pub seed: u64,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    pub pairing: Pairing,
    /// Keep the record of every game.
    pub records: bool,
    /// Bootstrap resamples for the Elo intervals.
    pub bootstrap: u32,
}

impl Default for TournamentConfig {
    fn default() -> Self {
        TournamentConfig {
            games: 100,
            seed: 0,
            threads: None,
            pairing: Pairing::RoundRobin,
            records: false,
            bootstrap: 1000,
        }
    }
}

/// One scheduled game: `seats[s]` is the agent in seat `s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    pub index: u64,
    pub deal: u64,
    pub seats: Vec<usize>,
}

fn combinations(items: &[usize], k: usize, out: &mut Vec<Vec<usize>>) {
    fn rec(
        items: &[usize],
        k: usize,
        start: usize,
        cur: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..items.len() {
            cur.push(items[i]);
            rec(items, k, i + 1, cur, out);
            cur.pop();
        }
    }
    rec(items, k, 0, &mut Vec::with_capacity(k), out);
}

/// The schedule of a tournament (see the module docs), in game-index order.
pub fn fixtures(
    agents: usize,
    players: usize,
    pairing: Pairing,
    games: u64,
) -> Result<Vec<Fixture>> {
    if players == 0 {
        return Err(Error::invalid("a game needs at least one player"));
    }
    if agents < players {
        return Err(Error::invalid(format!(
            "a tournament of a {players}-player game needs at least {players} agents, got {agents}"
        )));
    }
    if games == 0 || games % players as u64 != 0 {
        return Err(Error::invalid(format!(
            "games per pairing must be a positive multiple of {players} (the seat rotations, \
             so every agent plays every seat equally often); got {games}"
        )));
    }
    let mut groups = Vec::new();
    match pairing {
        Pairing::RoundRobin => combinations(&(0..agents).collect::<Vec<_>>(), players, &mut groups),
        Pairing::Gauntlet => {
            let mut rest = Vec::new();
            combinations(&(1..agents).collect::<Vec<_>>(), players - 1, &mut rest);
            groups = rest
                .into_iter()
                .map(|g| std::iter::once(0).chain(g).collect())
                .collect();
        }
    }
    let mut out = Vec::with_capacity(groups.len() * games as usize);
    for group in &groups {
        for g in 0..games {
            let r = (g % players as u64) as usize;
            out.push(Fixture {
                index: out.len() as u64,
                deal: g / players as u64,
                seats: (0..players).map(|s| group[(s + r) % players]).collect(),
            });
        }
    }
    Ok(out)
}

/// How one game of a tournament went.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    pub index: u64,
    /// The seed the game was set up from.
    pub seed: u64,
    /// `seats[s]`: the agent that played seat `s`.
    pub seats: Vec<usize>,
    /// The winning seat (`None`: a draw).
    pub winner: Option<Player>,
    pub plies: u64,
    pub record: Option<Record>,
}

impl GameOutcome {
    /// The winning agent (`None`: a draw).
    pub fn winning_agent(&self) -> Option<usize> {
        self.winner.and_then(|w| self.seats.get(w).copied())
    }
}

/// Play one fixture with the given agents (one per seat).
pub fn play_fixture<G: Game>(
    options: &G::Options,
    seed: u64,
    fixture: &Fixture,
    agents: &mut [Box<dyn Agent<G>>],
    names: &[String],
    keep_record: bool,
    cancel: Option<&AtomicBool>,
) -> Result<GameOutcome> {
    let gs = game_seed(seed, fixture.deal);
    let mut session = Session::<G>::new(gs, options)?;
    let seat_names: Vec<String> = fixture
        .seats
        .iter()
        .map(|&a| {
            names
                .get(a)
                .cloned()
                .unwrap_or_else(|| format!("agent {a}"))
        })
        .collect();
    let context = format!("game {} (seed {gs})", fixture.index);
    let plies = play_out(&mut session, agents, &seat_names, &context, cancel)?;
    Ok(GameOutcome {
        index: fixture.index,
        seed: gs,
        seats: fixture.seats.clone(),
        winner: session.game.winner(),
        plies,
        record: if keep_record {
            Some(session.record()?)
        } else {
            None
        },
    })
}

/// Play `fixtures` on a pool of `threads` workers; `make(agent, salt)` builds the agent
/// for one seat of one game. Results come back in the order of `fixtures`.
#[allow(clippy::too_many_arguments)]
pub fn run_fixtures<G, F>(
    options: &G::Options,
    seed: u64,
    fixtures: &[Fixture],
    names: &[String],
    records: bool,
    threads: Option<usize>,
    progress: &Progress,
    make: F,
) -> Result<Vec<GameOutcome>>
where
    G: Game,
    F: Fn(usize, u64) -> Result<Box<dyn Agent<G>>> + Sync,
{
    let run = |f: &Fixture| -> Result<GameOutcome> {
        if progress.cancel.load(Ordering::Relaxed) {
            return Err(cancelled());
        }
        let mut agents = f
            .seats
            .iter()
            .enumerate()
            .map(|(seat, &a)| make(a, agent_salt(seed, f.index, seat)))
            .collect::<Result<Vec<_>>>()?;
        let out = play_fixture(
            options,
            seed,
            f,
            &mut agents,
            names,
            records,
            Some(&progress.cancel),
        )?;
        progress.done.fetch_add(1, Ordering::Relaxed);
        Ok(out)
    };
    if threads == Some(1) {
        return fixtures.iter().map(run).collect();
    }
    pool(threads)?.install(|| {
        fixtures
            .par_iter()
            .with_max_len(1)
            .map(run)
            .collect::<Result<Vec<_>>>()
    })
}

/// One rating and record per agent, and everything needed to print the tables.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentResult {
    pub game: String,
    pub names: Vec<String>,
    pub num_players: usize,
    pub pairing: Pairing,
    pub games_per_pairing: u64,
    pub seed: u64,
    /// Every game, in index order (with records if asked).
    pub outcomes: Vec<GameOutcome>,
    /// Each agent's results over all its games.
    pub totals: Vec<Wdl>,
    /// `pairwise[i][j]`: agent `i`'s results against agent `j` (in a game of more than two
    /// players, the winner beats every other player and a draw draws every pair).
    pub pairwise: Vec<Vec<Wdl>>,
    /// Wins by seat over all games, and drawn games.
    pub seat_wins: Vec<u64>,
    pub draws: u64,
    pub plies: u64,
    pub elo: Vec<elo::Rating>,
    pub seconds: f64,
}

impl TournamentResult {
    /// Tabulate outcomes (in index order). `bootstrap` resamples for the Elo intervals,
    /// seeded from `seed`.
    #[allow(clippy::too_many_arguments)]
    pub fn from_outcomes(
        game: &str,
        names: Vec<String>,
        num_players: usize,
        pairing: Pairing,
        games_per_pairing: u64,
        seed: u64,
        outcomes: Vec<GameOutcome>,
        bootstrap: u32,
        seconds: f64,
    ) -> TournamentResult {
        let n = names.len();
        let mut totals = vec![Wdl::default(); n];
        let mut pairwise = vec![vec![Wdl::default(); n]; n];
        let mut seat_wins = vec![0u64; num_players];
        let (mut draws, mut plies) = (0u64, 0u64);
        for o in &outcomes {
            plies += o.plies;
            match o.winner {
                None => draws += 1,
                Some(w) => {
                    if let Some(s) = seat_wins.get_mut(w) {
                        *s += 1;
                    }
                }
            }
            let win = o.winning_agent();
            for &a in &o.seats {
                totals[a].add(match win {
                    None => Wdl {
                        draws: 1,
                        ..Wdl::default()
                    },
                    Some(w) if w == a => Wdl {
                        wins: 1,
                        ..Wdl::default()
                    },
                    Some(_) => Wdl {
                        losses: 1,
                        ..Wdl::default()
                    },
                });
            }
            for (x, &a) in o.seats.iter().enumerate() {
                for &b in &o.seats[x + 1..] {
                    let r = match win {
                        None => Wdl {
                            draws: 1,
                            ..Wdl::default()
                        },
                        Some(w) if w == a => Wdl {
                            wins: 1,
                            ..Wdl::default()
                        },
                        Some(w) if w == b => Wdl {
                            losses: 1,
                            ..Wdl::default()
                        },
                        Some(_) => continue,
                    };
                    pairwise[a][b].add(r);
                    pairwise[b][a].add(r.flipped());
                }
            }
        }
        let elo = elo::ratings(&pairwise, bootstrap, seed);
        TournamentResult {
            game: game.to_string(),
            names,
            num_players,
            pairing,
            games_per_pairing,
            seed,
            outcomes,
            totals,
            pairwise,
            seat_wins,
            draws,
            plies,
            elo,
            seconds,
        }
    }

    /// Agent `i`'s share of the points (win 1, draw 1/2, loss 0).
    pub fn score(&self, i: usize) -> Option<f64> {
        self.totals.get(i).map(Wdl::score)
    }

    pub fn games(&self) -> u64 {
        self.outcomes.len() as u64
    }

    pub fn games_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.games() as f64 / self.seconds
        } else {
            f64::INFINITY
        }
    }

    /// Agent indices, best Elo first (ties: lower index first).
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| self.elo[b].elo.total_cmp(&self.elo[a].elo).then(a.cmp(&b)));
        order
    }

    /// The results as plain text: standings with Elo, the pairings, the seats.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let n = self.names.len();
        let _ = writeln!(
            s,
            "{}: {} agents, {} games ({} {}, {} per pairing), seed {}",
            self.game,
            n,
            self.games(),
            self.pairing.name(),
            if self.num_players == 2 {
                "pairs"
            } else {
                "groups"
            },
            self.games_per_pairing,
            self.seed
        );
        let w = self.names.iter().map(String::len).max().unwrap_or(5).max(5);
        let _ = writeln!(
            s,
            "\n  #  {:<w$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  {:>15}",
            "agent", "games", "wins", "draws", "losses", "score", "Elo", "95% interval"
        );
        for i in self.ranking() {
            let t = self.totals[i];
            let r = self.elo[i];
            let _ = writeln!(
                s,
                "{:>3}  {:<w$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>5.1}%  {:>+6.0}  [{:>+5.0}, {:>+5.0}]",
                i,
                self.names[i],
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score(),
                r.elo,
                r.lo,
                r.hi
            );
        }
        if n > 2 || self.num_players > 2 {
            let _ = writeln!(s, "\nPairings (row against column: wins-draws-losses)");
            let cells: Vec<Vec<String>> = (0..n)
                .map(|i| {
                    (0..n)
                        .map(|j| {
                            let r = self.pairwise[i][j];
                            if i == j || r.games() == 0 {
                                "-".to_string()
                            } else {
                                format!("{}-{}-{}", r.wins, r.draws, r.losses)
                            }
                        })
                        .collect()
                })
                .collect();
            let cw = cells
                .iter()
                .flatten()
                .map(String::len)
                .chain((0..n).map(|j| j.to_string().len() + 1))
                .max()
                .unwrap_or(1);
            let _ = write!(s, "  #  {:<w$}", "");
            for j in 0..n {
                let _ = write!(s, "  {:>cw$}", format!("#{j}"));
            }
            s.push('\n');
            for (i, row) in cells.iter().enumerate() {
                let _ = write!(s, "{:>3}  {:<w$}", i, self.names[i]);
                for cell in row {
                    let _ = write!(s, "  {cell:>cw$}");
                }
                s.push('\n');
            }
        } else if n == 2 {
            let r = self.pairwise[0][1];
            let _ = writeln!(
                s,
                "\n{} against {}: {}-{}-{} (wins-draws-losses), score {:.1}%",
                self.names[0],
                self.names[1],
                r.wins,
                r.draws,
                r.losses,
                100.0 * r.score()
            );
        }
        let g = self.games().max(1) as f64;
        let seats: Vec<String> = self
            .seat_wins
            .iter()
            .enumerate()
            .map(|(p, &w)| format!("player {p} won {:.1}%", 100.0 * w as f64 / g))
            .collect();
        let _ = writeln!(
            s,
            "\nSeats: {}, drawn {:.1}%; {:.1} plies a game; {:.1} s, {:.1} games/s",
            seats.join(", "),
            100.0 * self.draws as f64 / g,
            self.plies as f64 / g,
            self.seconds,
            self.games_per_second()
        );
        s
    }
}

/// `names` made unique for tables: repeated names get ` #1`, ` #2`, ...
pub fn unique_names(names: Vec<String>) -> Vec<String> {
    let count = |n: &String| names.iter().filter(|m| *m == n).count();
    let mut seen: Vec<(String, usize)> = Vec::new();
    names
        .iter()
        .map(|n| {
            if count(n) < 2 {
                return n.clone();
            }
            let k = match seen.iter_mut().find(|(m, _)| m == n) {
                Some((_, k)) => {
                    *k += 1;
                    *k
                }
                None => {
                    seen.push((n.clone(), 1));
                    1
                }
            };
            format!("{n} #{k}")
        })
        .collect()
}

/// A tournament between Rust agents.
pub fn tournament<G: Game>(
    options: &G::Options,
    specs: &[AgentSpec],
    config: &TournamentConfig,
    progress: &Progress,
) -> Result<TournamentResult> {
    for s in specs {
        if let AgentSpec::Ismcts(c) = s {
            c.validate()?;
        }
    }
    let start = Instant::now();
    let players = G::new(game_seed(config.seed, 0), options)?.num_players();
    let schedule = fixtures(specs.len(), players, config.pairing, config.games)?;
    let names = unique_names(specs.iter().map(AgentSpec::name).collect());
    let outcomes = run_fixtures::<G, _>(
        options,
        config.seed,
        &schedule,
        &names,
        config.records,
        config.threads,
        progress,
        |a, salt| Ok(specs[a].build::<G>(salt)),
    )?;
    Ok(TournamentResult::from_outcomes(
        G::NAME,
        names,
        players,
        config.pairing,
        config.games,
        config.seed,
        outcomes,
        config.bootstrap,
        start.elapsed().as_secs_f64(),
    ))
}
