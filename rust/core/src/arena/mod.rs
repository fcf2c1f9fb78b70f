//! Matches and tournaments, on every core.
//!
//! **Schedule.** A tournament between `n` agents of a `k`-player game plays every group of
//! `k` agents (round robin; a gauntlet: agent 0 against every group of the others) for
//! `games` games per group. Game `g` of a group seats its agents rotated by `g % k`, so each
//! agent sits in each seat equally often, and it uses deal `g / k`: the rotations of a deal
//! replay the same shuffle with the seats swapped (duplicate format), which cancels most of
//! the luck of the deal. Every group plays the same deals.
//!
//! **Teams.** In a team game ([`Game::team`]: `T` teams of `m` seats) a rotation moves whole
//! teams and, within them, slots: rotation `r` shifts teams by `r % T` and slots by `r / T`,
//! so partners stay partners and each agent still sits in every seat once in `k` rotations.
//! Who partners whom is [`Partners`]: `Rotate` (default) plays every way of splitting the
//! group into teams in turn, `k` games (one deal's rotations) each, so games per group are a
//! multiple of `k` times the splits (3 for two teams of two); `Fixed` keeps the group's
//! order: its first `m` agents are one team, the next `m` the next.
//!
//! **Determinism.** Deal `d` is set up from `simulate::game_seed(seed, d)`; the agent in
//! seat `s` of game `i` is built from a salt derived from `(seed, i, s)`. Games run on a
//! rayon pool in any order, and results are gathered in game-index order, so the tables
//! are identical for every thread count ([`scheduler`] runs them).
//!
//! **Slices.** For the same reason any part of the schedule can be played on its own
//! ([`tournament_games`]: fixtures `start..stop`, e.g. one task of a cluster) and the parts
//! merged ([`merge`]) into exactly the result of one local run.
//!
//! **Results** come from [`Game::returns`], not from a single winner. Teams are ranked by
//! their return (a team's is the mean of its seats'; without teams every seat is a team of
//! one): places `1, 2, ...`, tied teams sharing the better place. An agent wins a game when
//! its team is first alone, shares the win (a "draw" in [`Wdl`]) when its team ties for
//! first, and loses otherwise; in a two-player game that is the winner. A pair of agents on
//! different teams is scored by their teams' returns (higher wins, equal draws) for the
//! pairwise table and Elo; partners are not scored against each other.
//!
//! **Ratings.** [`TournamentResult::elo`]: Bradley-Terry Elo from the pairwise table
//! ([`elo`]); with more than two teams or seats a game gives several correlated pairs, so its
//! interval resamples whole games (see [`elo::ratings_by_game`]) instead of pairs.
//! [`TournamentResult::skill`]: Weng-Lin (the Bayesian model behind OpenSkill), fitted on
//! each game's team ranking in game-index order by the `skillratings` crate; a team's skill
//! is the sum of its members', so partners are credited together.

pub mod elo;
pub mod scheduler;
pub mod selfplay;
#[cfg(test)]
mod tests;

pub use elo::Wdl;
use elo::{DRAW, LOSS, WIN};
pub use scheduler::{agent_salt, Fixture, Progress};
use scheduler::{run_schedule, unwatched, AgentProvider, Watch};

use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::knowledge::Knowledge;
use crate::playout::{cancelled, playout};
use crate::search::{Agent, AgentSpec};
use crate::session::{LastMove, Record, Session};
use crate::simulate::game_seed;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::fmt::Write as _;
use std::ops::Range;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

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
pub fn play_out<G: Knowledge>(
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
    if let Some(last) = &session.last {
        tell_moved(agents, &session.game, last);
    }
    play_with(session, context, cancel, |game, p, legal, ply| {
        let a = agents[p]
            .act(game)
            .map_err(|e| with_context(e, &format!("{} {context}, ply {ply}", G::NAME)))?;
        let i = check_choice(game, legal, a, &names[p], p, context, ply)?;
        tell_moved(agents, game, &LastMove::played(game, a));
        Ok(i)
    })
}

/// Tells every agent of a match its last move ([`Agent::moved`]), `game` the state it was
/// played in (or, for the game's own last move when a match starts, led to).
pub(crate) fn tell_moved<G: Game>(
    agents: &mut [Box<dyn Agent<G>>],
    game: &G,
    last: &LastMove<G::Action>,
) {
    for agent in agents.iter_mut() {
        agent.moved(game, last);
    }
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
    G: Knowledge,
    T: crate::playout::Playing<G>,
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
pub(crate) fn check_choice<G: Knowledge>(
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

fn illegal_choice<G: Knowledge>(
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

/// One match between Rust agents from the start: game `seed`, `specs[p]` playing player `p`.
/// Returns its record and final returns.
pub fn play_match<G: Knowledge>(
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

/// Who partners whom in a team game (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Partners {
    /// Every split of each group into teams, in turn.
    #[default]
    Rotate,
    /// The group's order: its first `m` agents form a team, and so on.
    Fixed,
}

impl Partners {
    pub fn parse(text: &str) -> Result<Partners> {
        match text.to_ascii_lowercase().as_str() {
            "rotate" => Ok(Partners::Rotate),
            "fixed" => Ok(Partners::Fixed),
            _ => Err(Error::invalid(format!(
                "unknown partners {:?}: use \"rotate\" or \"fixed\"",
                text.chars().take(40).collect::<String>()
            ))),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Partners::Rotate => "rotate",
            Partners::Fixed => "fixed",
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
    /// Partnerships in a team game (ignored without teams).
    pub partners: Partners,
    /// Every game starts from this position ([`Game::from_position`]) instead of the seed's
    /// setup; a view position has its hidden parts dealt afresh from each game's seed.
    pub position: Option<String>,
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
            partners: Partners::Rotate,
            position: None,
        }
    }
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

/// The seats of each team, teams numbered in order of their first seat: `teams[s]` is the
/// team of seat `s` ([`Game::team`]). An error unless all teams have the same size (a
/// rotation must keep partners together).
pub fn team_seats(teams: &[usize]) -> Result<Vec<Vec<usize>>> {
    let mut ids: Vec<usize> = Vec::new();
    let mut seats: Vec<Vec<usize>> = Vec::new();
    for (s, &t) in teams.iter().enumerate() {
        match ids.iter().position(|&x| x == t) {
            Some(i) => seats[i].push(s),
            None => {
                ids.push(t);
                seats.push(vec![s]);
            }
        }
    }
    if seats.iter().any(|t| t.len() != seats[0].len()) {
        return Err(Error::invalid(
            "teams of unequal sizes: seat rotations cannot keep partners together",
        ));
    }
    Ok(seats)
}

/// Every split of `k = t * m` group members into `t` teams of `m` (canonical: teams by
/// their first member, members ascending), as lists of member positions.
fn splits(t: usize, m: usize) -> Vec<Vec<Vec<usize>>> {
    fn rec(
        j: usize,
        k: usize,
        t: usize,
        m: usize,
        cur: &mut Vec<Vec<usize>>,
        out: &mut Vec<Vec<Vec<usize>>>,
    ) {
        if j == k {
            out.push(cur.clone());
            return;
        }
        for b in 0..cur.len() {
            if cur[b].len() < m {
                cur[b].push(j);
                rec(j + 1, k, t, m, cur, out);
                cur[b].pop();
            }
        }
        if cur.len() < t {
            cur.push(vec![j]);
            rec(j + 1, k, t, m, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    rec(0, t * m, t, m, &mut Vec::with_capacity(t), &mut out);
    out
}

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

/// The schedule of a tournament of a game without teams (see the module docs), in
/// game-index order.
pub fn fixtures(
    agents: usize,
    players: usize,
    pairing: Pairing,
    games: u64,
) -> Result<Vec<Fixture>> {
    let teams: Vec<usize> = (0..players).collect();
    fixtures_with_teams(agents, &teams, pairing, Partners::Rotate, games)
}

/// The schedule of a tournament (see the module docs), in game-index order, for a game
/// whose seat `s` plays for team `teams[s]`.
pub fn fixtures_with_teams(
    agents: usize,
    teams: &[usize],
    pairing: Pairing,
    partners: Partners,
    games: u64,
) -> Result<Vec<Fixture>> {
    let players = teams.len();
    if players == 0 {
        return Err(Error::invalid("a game needs at least one player"));
    }
    let seats_of = team_seats(teams)?;
    let (t, m) = (seats_of.len(), players / seats_of.len());
    let arrangements: Vec<Vec<Vec<usize>>> = match partners {
        Partners::Rotate => splits(t, m),
        Partners::Fixed => vec![(0..t).map(|b| (b * m..(b + 1) * m).collect()).collect()],
    };
    let cycle = players as u64 * arrangements.len() as u64;
    if agents < players {
        return Err(Error::invalid(format!(
            "a tournament of a {players}-player game needs at least {players} agents, got {agents}"
        )));
    }
    if games == 0 || games % cycle != 0 {
        let why = if cycle == players as u64 {
            format!("{players} (the seat rotations")
        } else {
            format!(
                "{cycle} ({players} seat rotations times {} splits into teams",
                arrangements.len()
            )
        };
        return Err(Error::invalid(format!(
            "games per pairing must be a positive multiple of {why}, so every agent plays \
             every seat equally often); got {games}"
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
            let deal = g / players as u64;
            let split = &arrangements[(deal % arrangements.len() as u64) as usize];
            // Rotation r: teams shift by r % t, slots within a team by r / t.
            let (a, b) = (r % t, r / t);
            let mut seats = vec![0; players];
            for (tt, team) in seats_of.iter().enumerate() {
                for (i, &seat) in team.iter().enumerate() {
                    seats[seat] = group[split[(tt + a) % t][(i + b) % m]];
                }
            }
            out.push(Fixture {
                index: out.len() as u64,
                deal,
                seats,
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
    /// The seat whose agent forfeited the game, and why ([`Agent::forfeited`]); its team
    /// lost (see [`forfeit_returns`]).
    pub forfeit: Option<Forfeit>,
}

/// A game given up by the agent in `seat` (a crash, timeout or bad answer of a bot).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Forfeit {
    pub seat: Player,
    pub reason: String,
}

/// The returns of a game forfeited by `seat` (whose teams come from `game`): -1 for its
/// team, +1 for every other seat, so it ranks last and the other teams share first place.
pub fn forfeit_returns<G: Game>(game: &G, seat: Player) -> Vec<f64> {
    let team = game.team(seat);
    (0..game.num_players())
        .map(|p| if game.team(p) == team { -1.0 } else { 1.0 })
        .collect()
}

/// The seat that won a game forfeited by `seat`: the first seat of the only other team,
/// `None` when several teams are left (they share the win).
fn forfeit_winner<G: Game>(game: &G, seat: Player) -> Option<Player> {
    let team = game.team(seat);
    let others: Vec<Player> = (0..game.num_players())
        .filter(|&p| game.team(p) != team)
        .collect();
    let first = *others.first()?;
    others
        .iter()
        .all(|&p| game.team(p) == game.team(first))
        .then_some(first)
}

impl GameOutcome {
    /// The winning agent (`None`: a draw).
    pub fn winning_agent(&self) -> Option<usize> {
        self.winner.and_then(|w| self.seats.get(w).copied())
    }
}

/// Play one fixture of a tournament under `config` (its seed, start position and whether
/// records are kept) with the given agents (one per seat).
pub fn play_fixture<G: Knowledge>(
    options: &G::Options,
    config: &TournamentConfig,
    fixture: &Fixture,
    agents: &mut [Box<dyn Agent<G>>],
    names: &[String],
    cancel: Option<&AtomicBool>,
) -> Result<GameOutcome> {
    let gs = game_seed(config.seed, fixture.deal);
    let mut session = match config.position.as_deref() {
        None => Session::<G>::new(gs, options)?,
        Some(text) => Session::<G>::from_position(text, gs, options)?,
    };
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
    let played = play_out(&mut session, agents, &seat_names, &context, cancel);
    let forfeit = match &played {
        Err(e) => match forfeit_of(&session.game, agents) {
            Some(f) => Some(f),
            None => return Err(e.clone()),
        },
        Ok(_) => None,
    };
    let (winner, returns) = match &forfeit {
        Some(f) => (
            forfeit_winner(&session.game, f.seat),
            forfeit_returns(&session.game, f.seat),
        ),
        None => (session.game.winner(), session.game.returns()),
    };
    Ok(GameOutcome {
        index: fixture.index,
        seed: gs,
        seats: fixture.seats.clone(),
        winner,
        returns,
        plies: match played {
            Ok(n) => n,
            Err(_) => session.history.as_ref().map_or(0, Vec::len) as u64,
        },
        record: if config.records {
            Some(session.record()?)
        } else {
            None
        },
        forfeit,
    })
}

/// The forfeit of the agent to move in `game`, if its last `act` failed by forfeiting.
pub fn forfeit_of<G: Game>(game: &G, agents: &[Box<dyn Agent<G>>]) -> Option<Forfeit> {
    let seat = game.current_player()?;
    let reason = agents.get(seat)?.forfeited()?;
    Some(Forfeit { seat, reason })
}

/// A Weng-Lin skill: mean `mu` and standard deviation `sigma` (OpenSkill's scale: a new
/// agent is 25 +- 25/3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    pub mu: f64,
    pub sigma: f64,
}

impl Skill {
    /// The 95% interval, `mu -+ 1.96 sigma`.
    pub fn interval(&self) -> (f64, f64) {
        (self.mu - 1.96 * self.sigma, self.mu + 1.96 * self.sigma)
    }
}

/// How one game ranked its teams: per seat, the team's place (1 = first; tied teams share
/// the better place), and whether the first place is shared.
pub struct Ranking {
    /// `place[s]`: the place of seat `s`'s team.
    pub place: Vec<usize>,
    /// `team_return[s]`: the return of seat `s`'s team (the mean of its seats').
    pub team_return: Vec<f64>,
    pub shared_first: bool,
}

impl Ranking {
    /// Rank the teams of a game from its returns; `teams[s]` is seat `s`'s team.
    pub fn of(returns: &[f64], teams: &[usize]) -> Ranking {
        let team_return: Vec<f64> = (0..returns.len())
            .map(|s| {
                let t = teams.get(s).copied().unwrap_or(s);
                let mates: Vec<f64> = (0..returns.len())
                    .filter(|&q| teams.get(q).copied().unwrap_or(q) == t)
                    .map(|q| returns[q])
                    .collect();
                mates.iter().sum::<f64>() / mates.len().max(1) as f64
            })
            .collect();
        let team = |s: usize| teams.get(s).copied().unwrap_or(s);
        // One entry per team: its best seat's index stands for it.
        let heads: Vec<usize> = (0..returns.len())
            .filter(|&s| (0..s).all(|q| team(q) != team(s)))
            .collect();
        let place: Vec<usize> = (0..returns.len())
            .map(|s| {
                1 + heads
                    .iter()
                    .filter(|&&h| team_return[h] > team_return[s])
                    .count()
            })
            .collect();
        let firsts = heads.iter().filter(|&&h| place[h] == 1).count();
        Ranking {
            place,
            team_return,
            shared_first: firsts > 1,
        }
    }
}

/// One rating and record per agent, and everything needed to print the tables.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentResult {
    pub game: String,
    pub names: Vec<String>,
    pub num_players: usize,
    /// `teams[s]`: the team of seat `s` (every seat its own team in a game without teams).
    pub teams: Vec<usize>,
    pub partners: Partners,
    pub pairing: Pairing,
    pub games_per_pairing: u64,
    pub seed: u64,
    /// Every game, in index order (with records if asked).
    pub outcomes: Vec<GameOutcome>,
    /// Each agent's results over all its games: wins (its team first alone), draws (first
    /// place shared with another team), losses.
    pub totals: Vec<Wdl>,
    /// `places[i][p]`: how often agent `i`'s team finished in place `p + 1`.
    pub places: Vec<Vec<u64>>,
    /// `pairwise[i][j]`: agent `i`'s results against agent `j` when on different teams (by
    /// their teams' returns).
    pub pairwise: Vec<Vec<Wdl>>,
    /// Games won by each seat's team alone, and games with a shared first place.
    pub seat_wins: Vec<u64>,
    pub draws: u64,
    pub plies: u64,
    pub elo: Vec<elo::Rating>,
    /// Weng-Lin skills (see the module docs).
    pub skill: Vec<Skill>,
    pub seconds: f64,
}

impl TournamentResult {
    /// Tabulate outcomes (in index order) of a game whose seat `s` plays for `teams[s]`.
    /// `bootstrap` resamples for the Elo intervals, seeded from `seed`.
    #[allow(clippy::too_many_arguments)]
    pub fn from_outcomes(
        game: &str,
        names: Vec<String>,
        teams: Vec<usize>,
        partners: Partners,
        pairing: Pairing,
        games_per_pairing: u64,
        seed: u64,
        outcomes: Vec<GameOutcome>,
        bootstrap: u32,
        seconds: f64,
    ) -> TournamentResult {
        let n = names.len();
        let num_players = teams.len();
        let num_teams = team_seats(&teams).map_or(num_players, |t| t.len()).max(1);
        let mut totals = vec![Wdl::default(); n];
        let mut places = vec![vec![0u64; num_teams]; n];
        let mut pairwise = vec![vec![Wdl::default(); n]; n];
        let mut seat_wins = vec![0u64; num_players];
        let (mut draws, mut plies) = (0u64, 0u64);
        // Per game, its pairs (for Elo intervals that resample whole games).
        let mut game_pairs: Vec<Vec<(usize, usize, Wdl)>> = Vec::with_capacity(outcomes.len());
        let mut wl: Vec<WengLinRating> = vec![WengLinRating::new(); n];
        let wl_config = WengLinConfig::new();
        for o in &outcomes {
            plies += o.plies;
            let rank = Ranking::of(&o.returns, &teams);
            if rank.shared_first {
                draws += 1;
            }
            let team = |s: usize| teams.get(s).copied().unwrap_or(s);
            let mut pairs = Vec::new();
            for (x, &a) in o.seats.iter().enumerate() {
                let place = rank.place.get(x).copied().unwrap_or(num_teams);
                if place == 1 && !rank.shared_first {
                    if let Some(w) = seat_wins.get_mut(x) {
                        *w += 1;
                    }
                }
                if let Some(t) = totals.get_mut(a) {
                    t.add(match (place, rank.shared_first) {
                        (1, false) => WIN,
                        (1, true) => DRAW,
                        _ => LOSS,
                    });
                }
                if let Some(c) = places.get_mut(a).and_then(|p| p.get_mut(place - 1)) {
                    *c += 1;
                }
                for (y, &b) in o.seats.iter().enumerate().skip(x + 1) {
                    if team(x) == team(y) || a >= n || b >= n {
                        continue;
                    }
                    let r = match rank.team_return[x].total_cmp(&rank.team_return[y]) {
                        std::cmp::Ordering::Greater => WIN,
                        std::cmp::Ordering::Equal => DRAW,
                        std::cmp::Ordering::Less => LOSS,
                    };
                    pairwise[a][b].add(r);
                    pairwise[b][a].add(r.flipped());
                    pairs.push((a, b, r));
                }
            }
            game_pairs.push(pairs);
            // Weng-Lin: one update per game, teams as lists of their agents.
            let heads: Vec<usize> = (0..o.seats.len())
                .filter(|&s| (0..s).all(|q| team(q) != team(s)))
                .collect();
            let members: Vec<Vec<usize>> = heads
                .iter()
                .map(|&h| {
                    (0..o.seats.len())
                        .filter(|&s| team(s) == team(h))
                        .filter_map(|s| o.seats.get(s).copied().filter(|&a| a < n))
                        .collect()
                })
                .collect();
            let ratings: Vec<Vec<WengLinRating>> = members
                .iter()
                .map(|m| m.iter().map(|&a| wl[a]).collect())
                .collect();
            let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = heads
                .iter()
                .zip(&ratings)
                .map(|(&h, r)| (&r[..], MultiTeamOutcome::new(rank.place[h])))
                .collect();
            if input.len() > 1 {
                let updated = weng_lin_multi_team(&input, &wl_config);
                for (m, u) in members.iter().zip(updated) {
                    for (&a, r) in m.iter().zip(u) {
                        wl[a] = r;
                    }
                }
            }
        }
        let many = num_players > 2 || num_teams != num_players;
        let elo = if many {
            elo::ratings_by_game(n, &game_pairs, bootstrap, seed)
        } else {
            elo::ratings(&pairwise, bootstrap, seed)
        };
        TournamentResult {
            game: game.to_string(),
            names,
            num_players,
            teams,
            partners,
            pairing,
            games_per_pairing,
            seed,
            outcomes,
            totals,
            places,
            pairwise,
            seat_wins,
            draws,
            plies,
            elo,
            skill: wl
                .iter()
                .map(|r| Skill {
                    mu: r.rating,
                    sigma: r.uncertainty,
                })
                .collect(),
            seconds,
        }
    }

    /// Agent `i`'s mean place (1 = first; NaN without games).
    pub fn mean_place(&self, i: usize) -> Option<f64> {
        self.places.get(i).map(|p| {
            let games: u64 = p.iter().sum();
            p.iter()
                .enumerate()
                .map(|(k, &c)| (k + 1) as f64 * c as f64)
                .sum::<f64>()
                / games as f64
        })
    }

    /// Whether the game has more than two seats or has teams.
    pub fn multiplayer(&self) -> bool {
        self.num_players > 2
            || team_seats(&self.teams).map_or(true, |t| t.len() != self.num_players)
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
        let many = self.multiplayer();
        if many {
            let teams = team_seats(&self.teams)
                .map(|t| t.len())
                .unwrap_or(self.num_players);
            let _ = writeln!(
                s,
                "{} seats, {}; draws: first place shared",
                self.num_players,
                if teams == self.num_players {
                    "every player for itself".to_string()
                } else {
                    format!("{teams} teams, partners {}", self.partners.name())
                }
            );
        }
        let _ = write!(
            s,
            "\n  #  {:<w$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  {:>15}",
            "agent", "games", "wins", "draws", "losses", "score", "Elo", "95% interval"
        );
        if many {
            let _ = write!(s, "  {:>5}  {:>14}", "place", "skill (95%)");
        }
        s.push('\n');
        for i in self.ranking() {
            let t = self.totals[i];
            let r = self.elo[i];
            let _ = write!(
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
            if many {
                let k = self.skill[i];
                let (lo, hi) = k.interval();
                let _ = write!(
                    s,
                    "  {:>5.2}  {:>4.1} [{:.1}, {:.1}]",
                    self.mean_place(i).unwrap_or(f64::NAN),
                    k.mu,
                    lo,
                    hi
                );
            }
            s.push('\n');
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
pub fn tournament<G: Knowledge>(
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
    G: Knowledge,
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

/// The team of each seat of `G` under `options` ([`Game::team`], read from its first deal).
pub fn seat_teams<G: Knowledge>(options: &G::Options, seed: u64) -> Result<Vec<usize>> {
    let g = G::new(game_seed(seed, 0), options)?;
    Ok((0..g.num_players()).map(|p| g.team(p)).collect())
}

/// The schedule of a tournament of `agents` agents of `G` under `options`.
fn schedule<G: Knowledge>(
    options: &G::Options,
    agents: usize,
    config: &TournamentConfig,
) -> Result<Vec<Fixture>> {
    if let Some(text) = &config.position {
        // Refused once here rather than in every game.
        let start = Session::<G>::from_position(text, game_seed(config.seed, 0), options)?;
        if start.game.is_terminal() {
            return Err(Error::invalid(
                "the tournament's starting position is a finished game: nothing to play",
            ));
        }
    }
    let teams = seat_teams::<G>(options, config.seed)?;
    fixtures_with_teams(
        agents,
        &teams,
        config.pairing,
        config.partners,
        config.games,
    )
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
    G: Knowledge,
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
    run_schedule(
        config.seed,
        slice,
        config.threads,
        progress,
        provider,
        |f, agents| play_fixture(options, config, f, agents, names, Some(&progress.cancel)),
        watch,
    )
}

/// The result of a tournament from the outcomes of all its games, in any order (e.g. the
/// slices of [`tournament_games`] from several machines): the same as one local run for the
/// same options, agents and `config`, except for `seconds`. Refuses outcomes that do not
/// cover the schedule exactly once or do not match it.
pub fn merge<G: Knowledge>(
    options: &G::Options,
    names: Vec<String>,
    config: &TournamentConfig,
    mut outcomes: Vec<GameOutcome>,
    seconds: f64,
) -> Result<TournamentResult> {
    let teams = seat_teams::<G>(options, config.seed)?;
    let players = teams.len();
    let all = schedule::<G>(options, names.len(), config)?;
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
        teams,
        config.partners,
        config.pairing,
        config.games,
        config.seed,
        outcomes,
        config.bootstrap,
        seconds,
    ))
}
