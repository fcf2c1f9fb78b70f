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
//! are identical for every thread count ([`scheduler`](super::scheduler) runs them).
//!
//! **Slices.** For the same reason any part of the schedule can be played on its own
//! ([`tournament_games`]: fixtures `start..stop`, e.g. one task of a cluster) and the parts
//! merged ([`merge`]) into exactly the result of one local run.
//!
//! **Results** come from [`Game::returns`], not from a single winner: in each game a pair of
//! agents is scored by their returns (higher wins, equal draws), and an agent wins the game
//! when its return is above every other seat's. In a two-player game that is the winner.

use super::playout::{cancelled, playout};
use super::scheduler::{run_schedule, unwatched, AgentProvider, Watch};
use super::{elo, Agent, AgentSpec};
use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::rng::mix64;
use crate::session::{Record, Session};
use crate::simulate::game_seed;
use std::fmt::Write as _;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64};
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

const WIN: Wdl = Wdl {
    wins: 1,
    draws: 0,
    losses: 0,
};
const DRAW: Wdl = Wdl {
    wins: 0,
    draws: 1,
    losses: 0,
};
const LOSS: Wdl = Wdl {
    wins: 0,
    draws: 0,
    losses: 1,
};

/// Stops a running tournament between games, and counts finished games for progress bars.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
    pub cancel: AtomicBool,
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
    play_with(session, context, cancel, |game, p, legal, ply| {
        let a = agents[p]
            .act(game)
            .map_err(|e| with_context(e, &format!("{} {context}, ply {ply}", G::NAME)))?;
        check_choice(game, legal, a, &names[p], p, context, ply)
    })
}

/// [`playout`] with the ply number passed to `choose`, and errors other than `choose`'s
/// (an engine bug) given `context`.
pub(crate) fn play_with<G, T, F>(
    table: &mut T,
    context: &str,
    cancel: Option<&AtomicBool>,
    mut choose: F,
) -> Result<u64>
where
    G: Game,
    T: super::playout::Playing<G>,
    F: FnMut(&G, Player, &[G::Action], u64) -> Result<usize>,
{
    let mut ply = 0u64;
    let mut chosen_error = false;
    playout(
        table,
        |game, p, legal| {
            let r = choose(game, p, legal, ply);
            chosen_error = r.is_err();
            ply += 1;
            r
        },
        cancel,
    )
    .map_err(|e| {
        if chosen_error || e == cancelled() {
            e
        } else {
            with_context(e, &format!("{} {context}", G::NAME))
        }
    })
}

/// The position of `a` among `legal`, or the error naming the agent, the game and the move.
pub(crate) fn check_choice<G: Game>(
    game: &G,
    legal: &[G::Action],
    a: G::Action,
    name: &str,
    player: Player,
    context: &str,
    ply: u64,
) -> Result<usize> {
    legal
        .iter()
        .position(|&l| l == a)
        .ok_or_else(|| illegal_choice(game, a, name, player, context, ply))
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
/// Most games one tournament schedules (docs/protocol.md, "Limits").
pub const MAX_FIXTURES: u64 = 1 << 18;

/// `n` choose `k`, saturating at `u64::MAX`.
fn choose(n: usize, k: usize) -> u64 {
    let mut r: u128 = 1;
    for i in 0..k.min(n.saturating_sub(k)) as u128 {
        r = r * (n as u128 - i) / (i + 1);
        if r > u64::MAX as u128 {
            return u64::MAX;
        }
    }
    if k > n {
        0
    } else {
        r as u64
    }
}

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
    // The schedule is held in memory: its size is checked before anything is built.
    let count = match pairing {
        Pairing::RoundRobin => choose(agents, players),
        Pairing::Gauntlet => choose(agents - 1, players - 1),
    };
    if count.checked_mul(games).is_none_or(|n| n > MAX_FIXTURES) {
        return Err(Error::argument(
            "games",
            &format!("a schedule of at most {MAX_FIXTURES} games (pairings x games per pairing)"),
            &format!("{count} pairings x {games}"),
        ));
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
    /// The winning seat as the game reports it (`None`: a draw).
    pub winner: Option<Player>,
    /// `returns[s]`: the final return of seat `s` ([`Game::returns`]); the tables come
    /// from these.
    pub returns: Vec<f64>,
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
        returns: session.game.returns(),
        plies,
        record: if keep_record {
            Some(session.record()?)
        } else {
            None
        },
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
            let best = o.returns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let at_best = o.returns.iter().filter(|&&r| r == best).count();
            if at_best == 1 {
                if let Some(w) = o.returns.iter().position(|&r| r == best) {
                    if let Some(s) = seat_wins.get_mut(w) {
                        *s += 1;
                    }
                }
            } else {
                draws += 1;
            }
            let ret = |seat: usize| o.returns.get(seat).copied().unwrap_or(0.0);
            for (x, &a) in o.seats.iter().enumerate() {
                if let Some(t) = totals.get_mut(a) {
                    t.add(if ret(x) < best {
                        LOSS
                    } else if at_best == 1 {
                        WIN
                    } else {
                        DRAW
                    });
                }
                for (y, &b) in o.seats.iter().enumerate().skip(x + 1) {
                    let r = match ret(x).total_cmp(&ret(y)) {
                        std::cmp::Ordering::Greater => WIN,
                        std::cmp::Ordering::Equal => DRAW,
                        std::cmp::Ordering::Less => LOSS,
                    };
                    if a < n && b < n {
                        pairwise[a][b].add(r);
                        pairwise[b][a].add(r.flipped());
                    }
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
    let names = unique_names(specs.iter().map(AgentSpec::name).collect());
    tournament_with::<G, _>(options, names, specs, config, progress, &mut unwatched)
}

/// A tournament between the agents of `provider` (`names` in the tables, one per agent).
pub fn tournament_with<G, P>(
    options: &G::Options,
    names: Vec<String>,
    provider: &P,
    config: &TournamentConfig,
    progress: &Progress,
    watch: Watch<'_>,
) -> Result<TournamentResult>
where
    G: Game,
    P: AgentProvider<G> + ?Sized,
{
    let start = Instant::now();
    let total = schedule::<G>(options, names.len(), config)?.len() as u64;
    let outcomes = tournament_games(options, &names, provider, config, 0..total, progress, watch)?;
    merge::<G>(
        options,
        names,
        config,
        outcomes,
        start.elapsed().as_secs_f64(),
    )
}

/// The players of `G` under `options`, and the schedule of a tournament of `agents` agents.
fn schedule<G: Game>(
    options: &G::Options,
    agents: usize,
    config: &TournamentConfig,
) -> Result<Vec<Fixture>> {
    let players = G::new(game_seed(config.seed, 0), options)?.num_players();
    fixtures(agents, players, config.pairing, config.games)
}

/// Games `range` of the schedule of a tournament (fixture indices, as [`fixtures`] numbers
/// them), played on `config.threads` cores: exactly the outcomes a whole run gives for those
/// games, whatever else runs.
pub fn tournament_games<G, P>(
    options: &G::Options,
    names: &[String],
    provider: &P,
    config: &TournamentConfig,
    range: Range<u64>,
    progress: &Progress,
    watch: Watch<'_>,
) -> Result<Vec<GameOutcome>>
where
    G: Game,
    P: AgentProvider<G> + ?Sized,
{
    let all = schedule::<G>(options, names.len(), config)?;
    let total = all.len() as u64;
    if range.start > range.end || range.end > total {
        return Err(Error::invalid(format!(
            "games {}..{} are not in the schedule: it has {total} games (0..{total})",
            range.start, range.end
        )));
    }
    // In range: checked above.
    let slice = all
        .get(range.start as usize..range.end as usize)
        .unwrap_or_default();
    let seed = config.seed;
    run_schedule(
        seed,
        slice,
        config.threads,
        progress,
        provider,
        |f, agents| {
            play_fixture(
                options,
                seed,
                f,
                agents,
                names,
                config.records,
                Some(&progress.cancel),
            )
        },
        watch,
    )
}

/// The result of a tournament from the outcomes of all its games, in any order (e.g. the
/// slices of [`tournament_games`] from several machines): the same as one local run for the
/// same options, agents and `config`, except for `seconds`. Refuses outcomes that do not
/// cover the schedule exactly once or do not match it.
pub fn merge<G: Game>(
    options: &G::Options,
    names: Vec<String>,
    config: &TournamentConfig,
    mut outcomes: Vec<GameOutcome>,
    seconds: f64,
) -> Result<TournamentResult> {
    let players = G::new(game_seed(config.seed, 0), options)?.num_players();
    let all = fixtures(names.len(), players, config.pairing, config.games)?;
    outcomes.sort_by_key(|o| o.index);
    for (i, f) in all.iter().enumerate() {
        let Some(o) = outcomes.get(i) else {
            return Err(Error::invalid(format!(
                "tournament results incomplete: game {i} of {} is missing",
                all.len()
            )));
        };
        let what = if o.index != f.index {
            if o.index < f.index {
                "appears twice"
            } else {
                "is missing"
            }
        } else if o.seats != f.seats {
            "has other seats than the schedule"
        } else if o.seed != game_seed(config.seed, f.deal) {
            "was set up from another seed"
        } else if o.returns.len() != players {
            "does not have one return per player"
        } else {
            continue;
        };
        let index = f.index.min(o.index);
        return Err(Error::invalid(format!(
            "tournament results do not match the schedule: game {index} {what}"
        )));
    }
    if outcomes.len() != all.len() {
        return Err(Error::invalid(format!(
            "tournament results have {} games, the schedule {}",
            outcomes.len(),
            all.len()
        )));
    }
    Ok(TournamentResult::from_outcomes(
        G::NAME,
        names,
        players,
        config.pairing,
        config.games,
        config.seed,
        outcomes,
        config.bootstrap,
        seconds,
    ))
}
