//! Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley and
//! Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012).
//!
//! One tree over the searching player's information set; its edges are actions (of every
//! player), chance is folded into the determinizations. Each iteration:
//!
//! 1. **Determinize**: `game.resample_hidden(me, seed)` redraws everything `me` cannot see,
//!    including the game's RNG, so the chance events of this iteration come from the
//!    determinization's own seeded RNG.
//! 2. **Select**: from the root, while every action legal in the determinization already has
//!    a child, every such child's *availability* count goes up by one and the child with the
//!    best UCB value `mean + c * sqrt(ln(availability) / visits)` is followed (the mean is
//!    the mover's reward, scaled to [0, 1]).
//! 3. **Expand** one untried legal action, chosen uniformly.
//! 4. **Roll out** uniformly at random to the end, or for `rollout_depth` plies and then
//!    score the position with `Game::evaluate`.
//! 5. **Back up** the result: each node on the path adds the reward of the player who made
//!    its action.
//!
//! **More than two players** (max^n, as in Sturtevant's multi-player UCT): an iteration
//! ends with a value for *every* player (the returns, or each player's `evaluate`), and each
//! node is credited with the value of the player who moved into it, so every player's
//! choices in the tree maximise their own result. In a team game ([`Game::team`](crate::game::Game::team)) partners
//! share a value, their mean, so a player also works for its partner; expansions and
//! settling moves are judged by the team's value too. The root keeps every player's mean
//! value per action ([`RootStat::values`]). Two-player games pay for none of this beyond
//! one vector add per iteration.
//!
//! The move played is the root child with the most visits. Nodes live in one `Vec`
//! (indices, sibling lists) reused from move to move, as are the action buffers, so a
//! search allocates only what `resample_hidden`, `clone` and `apply` of the game allocate.

use super::greedy::MAX_SETTLE;
use super::{best_reply, no_moves, obvious_move, to_move, Agent, Teams};
use crate::error::{Error, Result};
use crate::game::Player;
use crate::knowledge::Knowledge;
use crate::model::{Mlp, ModelEval};
use crate::playout::MAX_PLIES;
use crate::rng::GameRng;
use std::sync::Arc;
use std::time::{Duration, Instant};

crate::agent_options! {
    /// ISMCTS's settings. `None` in a setting the game has a profile for
    /// ([`profile`](super::profile)) means the game's own.
    pub struct IsmctsConfig {
        /// Iterations (determinized playouts) per move; None: bounded by `time_limit` only
        /// (1000 when neither budget is given; a time budget alone sets no iteration cap).
        pub iterations: Option<u64> = Some(1000),
        /// Seconds per move; None: bounded by `iterations` only. With both, whichever ends
        /// first. A time budget makes play depend on the machine's speed.
        pub time_limit ("time"): Option<f64> = None,
        /// The UCB exploration constant `c` (rewards are in [0, 1]); None: the game's own.
        pub exploration ("c"): Option<f64> = None,
        /// Random plies after the leaf before the position's `evaluate` scores it (0:
        /// evaluate the new leaf at once); None: random play to the end of the game.
        pub rollout_depth ("depth"): Option<u32> = Some(0),
        /// Expansion adds the best of this many untried actions drawn at random, judged by
        /// the mover's `evaluate` (0/1: a random one); None: the game's own.
        pub expand_samples ("expand"): Option<u32> = None,
        /// Progressive widening k: at most ceil(k * sqrt(visits + 1)) children of a node in
        /// play, the rest wait untried; None: every action is tried before any is revisited.
        pub widening ("pw"): Option<f64> = Some(1.0),
        /// Before a leaf is scored, the player who just moved finishes their turn (greedily,
        /// or with `settle_heuristic` by the game's rule-based move); False: leaves are
        /// scored as they are; None: the game's own (a heuristic settle where it settles).
        pub settle: Option<bool> = None,
        /// A settle plays the game's rule-based move (`Knowledge::heuristic_action`) instead
        /// of greedy choices (a game without one settles greedily); True implies `settle`.
        pub settle_heuristic: bool = false,
        /// Whole turns a settle finishes (`Game::turn_owner`, reactions of other players
        /// inside a turn included): 1 the leaf's own, 2 that and the reply turn; 0: only
        /// while the player who just moved is to move. None: the game's own.
        pub settle_turns: Option<u32> = None,
        /// Below the root, the decisions the game calls routine
        /// (`Knowledge::routine_action`: Battle Line's claims and draws) are played by its
        /// rule instead of branched on, leaves included. None: the game's own.
        pub routine: Option<bool> = None,
        /// Root sequential halving over the m >= 2 root actions Greedy judges best: rounds
        /// on shared redraws, the better half by mean going on until one is left and played
        /// (needs an iteration budget). 0: off, the root is a UCB node; None: the game's own.
        pub halving: Option<u32> = None,
        /// Candidates judged at an expansion of the reply to the root's move (the first node
        /// on a path where another player moves); 0: as every other node
        /// (`expand_samples`); None: the game's own.
        pub first_reply_expand ("first_reply"): Option<u32> = None,
        /// In the halving's last round (two rounds or more), each leaf is scored after this
        /// many more plies, each the mover's best of `finalist_expand` random legal moves
        /// (routine decisions by rule between them). 0: off; None: the game's own.
        pub finalist_depth: Option<u32> = None,
        /// With `finalist_depth`: the moves judged at each of its plies (0/1: a random one).
        /// None: the game's own.
        pub finalist_expand: Option<u32> = None,
        /// With `finalist_depth`: its plies are played by the game's rule-based player
        /// instead of judged by `evaluate`. None: the game's own.
        pub finalist_heuristic: Option<bool> = None,
        /// A learned evaluation: the path of a model file (`kingdoms train`,
        /// docs/learn.md) whose value scores the leaves and whose policy chooses among an
        /// expansion's candidates in place of the game's `evaluate`. Read at the first
        /// search; a bad file is a data error naming it. `reference`: the game's shipped
        /// network (Arte da Guerra's; another game's is an error saying there is none).
        /// None: the game's `evaluate`.
        pub model: Option<String> = None,
        /// With `model`: True, its policy picks among an expansion's candidates; False (the
        /// default, the best measured in Arte da Guerra and Battle Line): the game's `evaluate`
        /// does, and the network only scores leaves.
        pub model_prior: bool = false,
        /// With `model`: a leaf's value is this share of the network's plus the rest of the
        /// game's `evaluate` (0.5, the default, measured best; 1: the network's alone).
        pub model_blend: f64 = 0.5,
        /// The seed of the agent's own random choices (an arena mixes in a per-game salt).
        pub seed: u64 = 0,
    }
}

impl super::options::AgentOptions for IsmctsConfig {
    const KIND: &'static str = "ismcts";
    const POSITIONAL: Option<&'static str> = Some("iterations");
    const FIELDS: &'static [super::options::OptionInfo] = Self::FIELD_LIST;
    const UNSET_BY: &'static [(&'static str, &'static str)] = &[("iterations", "time_limit")];
    const RETIRED: &'static [(&'static str, &'static str)] = &[
        ("pick", RETIRED_PICK),
        ("prior", RETIRED_PRIOR),
        ("prior_samples", RETIRED_PRIOR),
        ("pv", RETIRED_PRIOR),
        ("prior_visits", RETIRED_PRIOR),
        ("prior_settle", RETIRED_PRIOR_SETTLE),
    ];

    fn normalize(&mut self) {
        if self.iterations.is_none() && self.time_limit.is_none() {
            self.iterations = Some(1000);
        }
        // A heuristic settle is a settle.
        if self.settle_heuristic {
            self.settle = Some(true);
        }
    }

    fn validate(&self) -> Result<()> {
        IsmctsConfig::validate(self)
    }

    /// `settle=heuristic`: the heuristic settle; `settle=turn`: the same to the end of the
    /// leaf's turn.
    fn shorthand(key: &str, value: &str) -> Option<Vec<(&'static str, &'static str)>> {
        match (key, value) {
            ("settle", "heuristic") => Some(vec![("settle_heuristic", "1")]),
            ("settle", "turn") => Some(vec![("settle_heuristic", "1"), ("settle_turns", "1")]),
            _ => None,
        }
    }
}

/// Why `pick` was retired (research/README.md, "Retired options").
const RETIRED_PICK: &str = "the move by mean among well-visited root actions gained nothing \
     (Battle Line, 300 games against Greedy: 186 for pick=0.5 and for the default, \
     research/issue-14.md); the most visited root action is played";
/// Why the root prior was retired.
const RETIRED_PRIOR: &str = "the root prior gained nothing (Battle Line prior=3,pv=10: 133 of \
     200 against the default's 143, research/issue-14-round11-bl.md)";
/// Why the settled root prior was retired.
const RETIRED_PRIOR_SETTLE: &str = "the settled root prior gained nothing (Zinordia: 56.7% \
     against the default's 63.3%, research/issue-14.md)";

impl IsmctsConfig {
    /// Most iterations per action (docs/protocol.md, "Limits"); a long search still stops at
    /// Ctrl-C from Python.
    pub const MAX_ITERATIONS: u64 = 1 << 24;
    /// Most tree nodes of one search (about 32 bytes each): a search by time alone stops
    /// growing its tree here rather than exhausting memory.
    pub const MAX_NODES: usize = 1 << 25;
    /// Most plies of a rollout and most samples of an expansion.
    pub const MAX_DEPTH: u32 = 1 << 16;

    pub fn validate(&self) -> Result<()> {
        let bad = |why: &str| Err(Error::invalid(format!("ismcts: {why}")));
        if self
            .model
            .as_ref()
            .is_some_and(|m| m.is_empty() || m.len() > 4096)
        {
            return bad("model must be the path of a model file");
        }
        if !(0.0..=1.0).contains(&self.model_blend) {
            return bad("model_blend must be a number from 0 to 1");
        }
        match (self.iterations, self.time_limit) {
            (None, None) => return bad("give iterations, time or both"),
            (Some(i), _) if !(1..=Self::MAX_ITERATIONS).contains(&i) => {
                return Err(Error::argument(
                    "ismcts: iterations",
                    &format!("1..={}", Self::MAX_ITERATIONS),
                    &i.to_string(),
                ))
            }
            (_, Some(t)) if !(t.is_finite() && t > 0.0) => {
                return bad("time (seconds per move) must be a positive number")
            }
            _ => {}
        }
        let depth = |name: &str, v: u32| {
            if v > Self::MAX_DEPTH {
                Err(Error::argument(
                    format!("ismcts: {name}"),
                    &format!("0..={}", Self::MAX_DEPTH),
                    &v.to_string(),
                ))
            } else {
                Ok(())
            }
        };
        depth("rollout_depth", self.rollout_depth.unwrap_or(0))?;
        depth("expand_samples", self.expand_samples.unwrap_or(0))?;
        depth("settle_turns", self.settle_turns.unwrap_or(0))?;
        depth("halving", self.halving.unwrap_or(0))?;
        depth("first_reply_expand", self.first_reply_expand.unwrap_or(0))?;
        depth("finalist_depth", self.finalist_depth.unwrap_or(0))?;
        depth("finalist_expand", self.finalist_expand.unwrap_or(0))?;
        if self
            .exploration
            .is_some_and(|c| !(c.is_finite() && c >= 0.0))
        {
            return bad("exploration must be a number >= 0");
        }
        if self.widening.is_some_and(|k| !(k.is_finite() && k > 0.0)) {
            return bad("widening must be a positive number");
        }
        Ok(())
    }

    /// The short name used in tables: `ismcts:1000`, `ismcts:time=0.5`,
    /// `ismcts:1000,c=0.5,depth=8`.
    pub fn name(&self) -> String {
        super::options::options_name(self)
    }
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Node<A> {
    /// The action leading here (`None` at the root) and its id.
    action: Option<A>,
    id: u32,
    /// The player who made `action`; rewards here are theirs.
    player: u32,
    visits: u32,
    avail: u32,
    /// Sum of the mover's rewards, each in [0, 1].
    reward: f64,
    first_child: u32,
    next_sibling: u32,
}

impl<A> Node<A> {
    /// The mean reward here; `None` for a node never visited. The UCB selection and the
    /// halving root's cut both read it.
    fn mean(&self) -> Option<f64> {
        (self.visits > 0).then(|| self.reward / f64::from(self.visits))
    }
}

/// One root action after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct RootStat<A> {
    pub action: A,
    pub visits: u32,
    /// How many iterations the action was legal in (its availability count).
    pub available: u32,
    /// The searcher's mean result after this action, in [-1, 1] (loss -1, win 1); its
    /// team's in a team game.
    pub value: f64,
    /// Every player's mean result after this action (index: player), in [-1, 1]: what the
    /// search expects each seat to get (partners share their team's value).
    pub values: Vec<f64>,
}

/// What a search did, and its verdict on each root action (most visited first).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchStats<A> {
    pub iterations: u64,
    pub nodes: usize,
    pub seconds: f64,
    pub children: Vec<RootStat<A>>,
}

/// The ISMCTS agent: configuration, its RNG, and buffers reused across moves.
pub struct Ismcts<G: Knowledge> {
    config: IsmctsConfig,
    rng: GameRng,
    nodes: Vec<Node<G::Action>>,
    legal: Vec<G::Action>,
    /// `marks[id] == gen`: legal in this step; `gen + 1`: legal and already a child.
    marks: Vec<u32>,
    gen: u32,
    path: Vec<u32>,
    values: Vec<f64>,
    untried: Vec<G::Action>,
    expanded_applied: bool,
    /// Partnerships of the game searched (empty: none shared).
    teams: Teams,
    scratch: Vec<f64>,
    /// The values of an expansion's candidates ([`Knowledge::evaluate_after`]).
    judged: Vec<f64>,
    /// `root_sums[id * players + p]`: the sum of player `p`'s values over the iterations
    /// that went through root action `id`.
    root_sums: Vec<f64>,
    /// This search's settle (the config's, else the game's): (settle, with the heuristic,
    /// whole turns to finish).
    settle: (bool, bool, u32),
    /// Whose turn the last action of the tree descent was made in (`Game::turn_owner`
    /// before it): a settle to the end of the turn finishes that turn.
    leaf_owner: Option<Player>,
    /// This search's `routine` (the config's, else the game's).
    routine: bool,
    /// This search's `expand_samples` (the config's, else the game's).
    expand: u32,
    /// This search's `first_reply_expand` (0: as `expand`).
    first_reply_expand: u32,
    /// This search's `finalist_depth` and `finalist_expand` (the config's, else the game's).
    finalist: (u32, u32),
    /// This search's `finalist_heuristic` (the config's, else the game's).
    finalist_heuristic: bool,
    /// Whether this iteration's leaf is scored after the finalists' extra plies: set by the
    /// halving for its last round.
    deepen: bool,
    /// A learned evaluation (issue 56): the network's value scores the leaves and its policy
    /// picks among an expansion's candidates, instead of the game's `evaluate`.
    mlp: Option<Arc<Mlp>>,
    model: Option<ModelEval>,
    /// The values of the last move chosen ([`Agent::root_values`]).
    root_values: Vec<f64>,
    /// The game's `evaluate` of a leaf, for a blend with the network's.
    blend: Vec<f64>,
}

impl<G: Knowledge> Ismcts<G> {
    /// An agent with this configuration (validate it first: [`IsmctsConfig::validate`]).
    pub fn new(config: IsmctsConfig) -> Self {
        Ismcts {
            rng: GameRng::seed(config.seed),
            config,
            nodes: Vec::new(),
            legal: Vec::new(),
            marks: Vec::new(),
            gen: 0,
            path: Vec::new(),
            values: Vec::new(),
            untried: Vec::new(),
            expanded_applied: false,
            teams: Teams::default(),
            scratch: Vec::new(),
            judged: Vec::new(),
            root_sums: Vec::new(),
            settle: (false, false, 0),
            leaf_owner: None,
            routine: false,
            expand: 0,
            first_reply_expand: 0,
            finalist: (0, 0),
            finalist_heuristic: false,
            deepen: false,
            mlp: None,
            model: None,
            root_values: Vec::new(),
            blend: Vec::new(),
        }
    }

    /// This agent with a learned evaluation ([`crate::model`]): the network's value scores
    /// the leaves and its policy chooses among an expansion's candidates (the root's in the
    /// order of its policy) in place of the game's `evaluate`. Checked against the game at
    /// the first search (another game's network is an error).
    pub fn with_model(mut self, mlp: Arc<Mlp>) -> Self {
        self.mlp = Some(mlp);
        self.model = None;
        self
    }

    pub fn config(&self) -> &IsmctsConfig {
        &self.config
    }

    /// Search from `game` for the player to move and report every root action.
    pub fn search(&mut self, game: &G) -> Result<SearchStats<G::Action>> {
        self.config.validate()?;
        let me = to_move(game)?;
        let start = Instant::now();
        let deadline = self
            .config
            .time_limit
            .map(|t| start + Duration::from_secs_f64(t));
        self.nodes.clear();
        self.nodes.push(Node {
            action: None,
            id: NONE,
            player: NONE,
            visits: 0,
            avail: 0,
            reward: 0.0,
            first_child: NONE,
            next_sibling: NONE,
        });
        if let Some(n) = self.config.iterations {
            self.nodes.reserve(n.min(1 << 22) as usize);
        }
        self.marks.clear();
        self.marks.resize(game.num_actions(), 0);
        self.gen = 0;
        let players = game.num_players();
        self.values.clear();
        self.values.resize(players, 0.0);
        self.teams = Teams::of(game);
        self.root_sums.clear();
        self.root_sums.resize(game.num_actions() * players, 0.0);
        let params = super::profile::search_params::<G>();
        let (settle, heuristic) = match self.config.settle {
            Some(s) => (s, s && self.config.settle_heuristic),
            None => (params.ismcts_settle, params.ismcts_settle),
        };
        let turns = self
            .config
            .settle_turns
            .unwrap_or(params.ismcts_settle_turns);
        self.settle = (settle, heuristic, if settle { turns } else { 0 });
        self.routine = self.config.routine.unwrap_or(params.ismcts_routine);
        self.expand = self
            .config
            .expand_samples
            .unwrap_or(params.ismcts_expand_samples);
        self.first_reply_expand = self
            .config
            .first_reply_expand
            .unwrap_or(params.ismcts_first_reply_expand);
        self.finalist = (
            self.config
                .finalist_depth
                .unwrap_or(params.ismcts_finalist_depth),
            self.config
                .finalist_expand
                .unwrap_or(params.ismcts_finalist_expand),
        );
        self.finalist_heuristic = self
            .config
            .finalist_heuristic
            .unwrap_or(params.ismcts_finalist_heuristic);
        self.deepen = false;
        if let (None, Some(path)) = (&self.mlp, &self.config.model) {
            self.mlp = Some(Arc::new(crate::model::load_named(path, G::NAME)?));
        }
        if let (Some(mlp), None) = (&self.mlp, &self.model) {
            // Only the determinizations drawn from `me`'s view reach the network (leaves and
            // expansions), so a network of every seat's view is allowed here.
            self.model = Some(ModelEval::for_redraws(mlp.clone(), game)?);
        }
        let halving = self.config.halving.unwrap_or(params.ismcts_halving);

        let mut done = 0u64;
        // Halving's last survivor, which is played whatever the visits and raw means say.
        let mut survivor = None;
        match self.config.iterations {
            Some(budget) if halving >= 2 => {
                (done, survivor) = self.halve(game, me, halving as usize, budget, deadline)?;
            }
            _ => loop {
                if self.spent(done, self.config.iterations, deadline) {
                    break;
                }
                super::cancel::check()?;
                let seed = self.rng.next_u64();
                self.iterate(game, me, seed, NONE)?;
                done += 1;
            },
        }

        // Report the root actions legal in the real game, most visited first.
        game.legal_actions(&mut self.legal);
        let mut children = Vec::new();
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if let Some(a) = n.action {
                if self.legal.contains(&a) {
                    let visits = f64::from(n.visits.max(1));
                    let at = n.id as usize * players;
                    let values = self
                        .root_sums
                        .get(at..at + players)
                        .map(|s| s.iter().map(|v| v / visits).collect())
                        .unwrap_or_default();
                    children.push(RootStat {
                        values,
                        action: a,
                        visits: n.visits,
                        available: n.avail,
                        value: if n.visits > 0 {
                            2.0 * n.reward / f64::from(n.visits) - 1.0
                        } else {
                            0.0
                        },
                    });
                }
            }
            c = n.next_sibling;
        }
        // Stable sort: equal visits keep expansion order (itself random), then value decides.
        children.sort_by(|a, b| {
            b.visits.cmp(&a.visits).then(
                b.value
                    .partial_cmp(&a.value)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
        });
        // Under halving the last survivor goes first (it is played): it shares the most
        // visits with the last round's runner-up.
        if let Some(w) = survivor {
            if let Some(i) = children.iter().position(|c| c.action == w) {
                children[..=i].rotate_right(1);
            }
        }
        Ok(SearchStats {
            iterations: done,
            nodes: self.nodes.len(),
            seconds: start.elapsed().as_secs_f64(),
            children,
        })
    }

    fn next_gen(&mut self) -> u32 {
        if self.gen >= u32::MAX - 4 {
            self.marks.fill(0);
            self.gen = 0;
        }
        self.gen += 2;
        self.gen
    }

    /// Whether a search that has run `done` iterations stops here: its iteration budget is
    /// spent, or (after at least one iteration) its deadline has passed or its tree is full.
    fn spent(&self, done: u64, budget: Option<u64>, deadline: Option<Instant>) -> bool {
        budget.is_some_and(|n| done >= n)
            || (done > 0
                && (deadline.is_some_and(|d| Instant::now() >= d)
                    || self.nodes.len() >= IsmctsConfig::MAX_NODES))
    }

    /// Sequential halving at the root over at most `m` candidates within `budget`
    /// iterations (see [`IsmctsConfig::halving`]); returns the iterations run and the last
    /// candidate left.
    fn halve(
        &mut self,
        game: &G,
        me: Player,
        m: usize,
        budget: u64,
        deadline: Option<Instant>,
    ) -> Result<(u64, Option<G::Action>)> {
        game.legal_actions(&mut self.legal);
        let mut cands = self.legal.clone();
        if cands.len() > m {
            // Greedy's judgement picks the candidates, so its own move is among them.
            let params = super::profile::search_params::<G>();
            let mut sums = vec![0.0; cands.len()];
            super::greedy::score_settled(
                game,
                me,
                &cands,
                (params.greedy_samples.max(1), params.greedy_settle),
                &mut self.rng,
                &self.teams,
                &mut sums,
            )?;
            let mut order: Vec<usize> = (0..cands.len()).collect();
            order.sort_by(|&a, &b| {
                sums[b]
                    .partial_cmp(&sums[a])
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            cands = order[..m].iter().map(|&i| cands[i]).collect();
        }
        if cands.is_empty() {
            return Err(no_moves::<G>());
        }
        let mut kids = Vec::with_capacity(cands.len());
        for &a in &cands {
            let child = self.nodes.len() as u32;
            let sibling = self.nodes[0].first_child;
            self.nodes[0].first_child = child;
            self.nodes.push(Node {
                action: Some(a),
                id: game.action_id(a) as u32,
                player: me as u32,
                visits: 0,
                avail: 0,
                reward: 0.0,
                first_child: NONE,
                next_sibling: sibling,
            });
            kids.push(child);
        }
        // ceil(log2) rounds; one (the whole budget) for a lone candidate.
        let mut rounds = 1u64;
        while (1usize << rounds) < kids.len() {
            rounds += 1;
        }
        let mut done = 0u64;
        let mut seeds = Vec::new();
        for round in 0..rounds {
            // What is left is shared equally by the rounds still to run: the last round
            // spends the remainder.
            let per = ((budget - done) / ((rounds - round) * kids.len() as u64)).max(1);
            seeds.clear();
            seeds.extend((0..per).map(|_| self.rng.next_u64()));
            // The finalists' leaves go deeper (`finalist_depth`); not in a lone round,
            // where a choice between two would pay for it on every iteration.
            self.deepen = rounds >= 2 && round + 1 == rounds;
            'round: for &seed in &seeds {
                for &k in &kids {
                    if self.spent(done, Some(budget), deadline) {
                        break 'round;
                    }
                    super::cancel::check()?;
                    self.iterate(game, me, seed, k)?;
                    done += 1;
                }
            }
            // The better half goes on (an unvisited candidate counts as the worst).
            let mean = |n: &Node<G::Action>| n.mean().unwrap_or(-1.0);
            kids.sort_by(|&a, &b| {
                mean(&self.nodes[b as usize])
                    .partial_cmp(&mean(&self.nodes[a as usize]))
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            kids.truncate(kids.len().div_ceil(2));
        }
        self.deepen = false;
        let survivor = kids.first().and_then(|&k| self.nodes[k as usize].action);
        Ok((done, survivor))
    }

    /// One determinize-select-expand-rollout-backup pass, on the redraw `seed`; `forced` (a
    /// root child) is taken at the root instead of selecting (halving), `NONE`: select.
    fn iterate(&mut self, root: &G, me: Player, seed: u64, forced: u32) -> Result<()> {
        let mut det = root.resample_hidden(me, seed);
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        let c = self
            .config
            .exploration
            .unwrap_or_else(|| super::profile::search_params::<G>().exploration);
        if forced != NONE {
            let n = &mut self.nodes[forced as usize];
            n.avail += 1;
            let a = n.action.ok_or_else(no_moves::<G>)?;
            self.note_turn(&det);
            det.apply(a)?;
            self.path.push(forced);
            node = forced;
        }
        let mut reply_seen = false;
        loop {
            if node != 0 && self.routine {
                self.play_routine(&mut det)?;
            }
            let Some(mover) = det.current_player() else {
                break;
            };
            det.legal_actions(&mut self.legal);
            if self.legal.is_empty() {
                return Err(no_moves::<G>());
            }
            let gen = self.next_gen();
            for &a in &self.legal {
                let id = det.action_id(a);
                if let Some(m) = self.marks.get_mut(id) {
                    *m = gen;
                }
            }
            let mut untried = self.legal.len();
            let mut tried = 0usize;
            let mut ch = self.nodes[node as usize].first_child;
            while ch != NONE {
                let n = &self.nodes[ch as usize];
                let m = &mut self.marks[n.id as usize];
                if *m == gen {
                    *m = gen + 1;
                    untried -= 1;
                    tried += 1;
                }
                ch = n.next_sibling;
            }
            // Progressive widening: at most ceil(k * sqrt(visits + 1)) children in play.
            let allowed = match self.config.widening {
                None => usize::MAX,
                Some(k) => {
                    let v = f64::from(self.nodes[node as usize].visits) + 1.0;
                    ((k * v.sqrt()).ceil() as usize).max(1)
                }
            };
            if untried > 0 && tried < allowed {
                let first_reply = mover != me && !reply_seen;
                self.expand_one(&mut det, node, mover, first_reply, gen)?;
                break;
            }
            let best = self.select_ucb(node, gen, c);
            if best == NONE {
                return Err(no_moves::<G>());
            }
            let a = self.nodes[best as usize].action.ok_or_else(no_moves::<G>)?;
            if mover != me {
                reply_seen = true;
            }
            self.note_turn(&det);
            det.apply(a)?;
            self.path.push(best);
            node = best;
        }
        self.finish(&mut det)
    }

    /// Expand `node` (the mover `mover` to play in `det`) with one of its untried actions,
    /// the legal ones marked `gen`, and play it in `det`.
    fn expand_one(
        &mut self,
        det: &mut G,
        node: u32,
        mover: Player,
        first_reply: bool,
        gen: u32,
    ) -> Result<()> {
        self.untried.clear();
        for &a in &self.legal {
            if self.marks.get(det.action_id(a)) == Some(&gen) {
                self.untried.push(a);
            }
        }
        // At the root every candidate is judged: it is expanded a few dozen times
        // per move, so the greedy choice is always among its first children.
        let m = if node == 0 && self.expand > 1 {
            self.untried.len()
        } else if first_reply && self.first_reply_expand > 0 {
            (self.first_reply_expand as usize).min(self.untried.len())
        } else {
            (self.expand as usize).min(self.untried.len())
        };
        let a = if m <= 1 {
            self.untried[self.rng.below(self.untried.len())]
        } else if let Some(model) = self.model.as_mut().filter(|_| self.config.model_prior) {
            // The policy's favourite of m untried actions drawn at random.
            self.rng.draw_front(&mut self.untried, m);
            let best = model.best_by_policy(det, &self.untried[..m])?;
            self.untried[best.unwrap_or(0)]
        } else {
            // The best of m untried actions drawn at random, by the mover's evaluate.
            self.rng.draw_front(&mut self.untried, m);
            self.note_turn(det);
            let (_, a, after) = best_reply(
                det,
                &self.untried[..m],
                mover,
                &self.teams,
                &mut self.judged,
            )?
            .ok_or_else(no_moves::<G>)?;
            *det = after;
            self.expanded_applied = true;
            a
        };
        let id = det.action_id(a);
        let child = self.nodes.len() as u32;
        let parent = &mut self.nodes[node as usize];
        let sibling = parent.first_child;
        parent.first_child = child;
        self.nodes.push(Node {
            action: Some(a),
            id: id as u32,
            player: mover as u32,
            visits: 0,
            avail: 1,
            reward: 0.0,
            first_child: NONE,
            next_sibling: sibling,
        });
        if !std::mem::take(&mut self.expanded_applied) {
            self.note_turn(det);
            det.apply(a)?;
        }
        self.path.push(child);
        Ok(())
    }

    /// Every legal action of `node` has a child: the one UCB picks among those available
    /// (marked `gen + 1`), `NONE` if none is.
    fn select_ucb(&mut self, node: u32, gen: u32, c: f64) -> u32 {
        let mut best = NONE;
        let mut best_score = f64::NEG_INFINITY;
        let mut ch = self.nodes[node as usize].first_child;
        while ch != NONE {
            let n = &mut self.nodes[ch as usize];
            if self.marks[n.id as usize] == gen + 1 {
                n.avail += 1;
                let visits = f64::from(n.visits.max(1));
                let mean = n.mean().unwrap_or(0.0);
                let score = mean + c * (f64::from(n.avail).ln() / visits).sqrt();
                if score > best_score {
                    best_score = score;
                    best = ch;
                }
            }
            ch = n.next_sibling;
        }
        best
    }

    /// The end of an iteration: the leaf's routine decisions, its rollout, and the results
    /// backed up along the path.
    fn finish(&mut self, det: &mut G) -> Result<()> {
        if self.path.len() > 1 && self.routine {
            self.play_routine(det)?;
        }
        let last = self
            .path
            .last()
            .map(|&i| self.nodes[i as usize].player as usize);
        self.rollout(det, last.filter(|&p| p < self.values.len()))?;
        self.teams.share(&mut self.values, &mut self.scratch);
        if let Some(&first) = self.path.get(1) {
            let at = self.nodes[first as usize].id as usize * self.values.len();
            if let Some(sums) = self.root_sums.get_mut(at..at + self.values.len()) {
                for (s, v) in sums.iter_mut().zip(&self.values) {
                    *s += v;
                }
            }
        }
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            if let Some(v) = self.values.get(n.player as usize) {
                n.reward += ((v + 1.0) * 0.5).clamp(0.0, 1.0);
            }
        }
        Ok(())
    }

    /// Play `det` out (or `rollout_depth` plies) and leave each player's result in
    /// `self.values`, in [-1, 1].
    /// Record whose turn the next descent action is made in, for a whole-turn settle; off
    /// the hot path when no settle reads it (`settle_turns` 0, the default).
    fn note_turn(&mut self, det: &G) {
        if self.settle.2 > 0 {
            self.leaf_owner = det.turn_owner();
        }
    }

    /// Every player's value of the leaf `det` into `self.values`: the game's `evaluate`, the
    /// network's, or a blend of the two (`model_blend`).
    fn leaf_value(&mut self, det: &G) -> Result<()> {
        let Some(model) = &mut self.model else {
            det.evaluate_each(&mut self.values);
            return Ok(());
        };
        model.value_each(det, &mut self.values)?;
        let w = self.config.model_blend;
        if w < 1.0 {
            self.blend.resize(self.values.len(), 0.0);
            det.evaluate_each(&mut self.blend);
            for (v, e) in self.values.iter_mut().zip(&self.blend) {
                *v = w * *v + (1.0 - w) * e.clamp(-1.0, 1.0);
            }
        }
        Ok(())
    }

    fn rollout(&mut self, det: &mut G, mut last_mover: Option<Player>) -> Result<()> {
        if self.deepen {
            self.deepen_leaf(det)?;
        }
        let mut plies = 0u32;
        let mut settling = 0u32;
        let mut owner = self.leaf_owner;
        let (settle, heuristic, turns) = self.settle;
        let mut turns_left = turns;
        loop {
            if det.is_terminal() {
                let r = det.returns();
                for (v, r) in self.values.iter_mut().zip(r) {
                    *v = r;
                }
                return Ok(());
            }
            if self.config.rollout_depth.is_some_and(|d| plies >= d) {
                // Settle: the player who just moved finishes their turn greedily first.
                let mover = det.current_player();
                let unfinished = if turns > 0 {
                    // Whole turns, reactions inside them included (as Greedy's settle).
                    if det.turn_owner() != owner && turns_left > 1 {
                        turns_left -= 1;
                        owner = det.turn_owner();
                    }
                    owner.is_some() && det.turn_owner() == owner && settling < MAX_SETTLE * turns
                } else {
                    mover.is_some() && mover == last_mover && settling < 64
                };
                if settle && unfinished {
                    match heuristic
                        .then(|| det.heuristic_action(&mut self.rng))
                        .flatten()
                    {
                        Some(a) => det.apply(a)?,
                        None => self.greedy_step(det, mover.unwrap_or(0))?,
                    }
                    settling += 1;
                    continue;
                }
                self.leaf_value(det)?;
                for v in self.values.iter_mut() {
                    *v = v.clamp(-1.0, 1.0);
                }
                return Ok(());
            }
            last_mover = det.current_player();
            if turns > 0 {
                owner = det.turn_owner();
            }
            det.legal_actions(&mut self.legal);
            let &a = self.rng.choose(&self.legal).ok_or_else(no_moves::<G>)?;
            det.apply(a)?;
            plies += 1;
            if plies as usize > MAX_PLIES {
                return Err(Error::invalid(format!(
                    "{}: a rollout did not end in {MAX_PLIES} plies",
                    G::NAME
                )));
            }
        }
    }

    /// The finalists' extra plies (`finalist_depth`): each the mover's best of
    /// `finalist_expand` legal moves drawn at random, by `evaluate` as an expansion judges
    /// them, or with `finalist_heuristic` the rule-based player's move; routine decisions
    /// by rule in between.
    fn deepen_leaf(&mut self, det: &mut G) -> Result<()> {
        let (plies, m) = self.finalist;
        for _ in 0..plies {
            let Some(mover) = det.current_player() else {
                return Ok(());
            };
            // The rule-based move needs no list of the legal ones: they are listed only for
            // the plain ply.
            let ruled = self
                .finalist_heuristic
                .then(|| det.heuristic_action(&mut self.rng))
                .flatten();
            if let Some(a) = ruled {
                det.apply(a)?;
            } else {
                det.legal_actions(&mut self.legal);
                if self.legal.is_empty() {
                    return Err(no_moves::<G>());
                }
                let m = (m as usize).clamp(1, self.legal.len());
                self.rng.draw_front(&mut self.legal, m);
                if m == 1 {
                    det.apply(self.legal[0])?;
                } else {
                    *det = best_reply(det, &self.legal[..m], mover, &self.teams, &mut self.judged)?
                        .ok_or_else(no_moves::<G>)?
                        .2;
                }
            }
            if self.routine {
                self.play_routine(det)?;
            }
        }
        Ok(())
    }

    /// With `routine`: play the game's routine decisions ([`Knowledge::routine_action`]) until
    /// one that matters (or the end) is to be made.
    fn play_routine(&mut self, det: &mut G) -> Result<()> {
        for _ in 0..MAX_SETTLE {
            match det.routine_action(&mut self.rng) {
                Some(a) => det.apply(a)?,
                None => return Ok(()),
            }
        }
        Err(Error::invalid(format!(
            "{}: routine decisions did not end in {MAX_SETTLE} moves",
            G::NAME
        )))
    }

    /// Play the action that `evaluate`s best for `mover`'s team (ties: the first found).
    fn greedy_step(&mut self, det: &mut G, mover: Player) -> Result<()> {
        det.legal_actions(&mut self.legal);
        if self.legal.len() == 1 {
            return det.apply(self.legal[0]);
        }
        *det = best_reply(det, &self.legal, mover, &self.teams, &mut self.judged)?
            .ok_or_else(no_moves::<G>)?
            .2;
        Ok(())
    }
}

impl<G: Knowledge> Agent<G> for Ismcts<G> {
    fn act(&mut self, game: &G) -> Result<G::Action> {
        self.act_and_visits(game, &mut Vec::new())
    }
    fn act_and_visits(
        &mut self,
        game: &G,
        visits: &mut Vec<(G::Action, u32)>,
    ) -> Result<G::Action> {
        visits.clear();
        self.root_values.clear();
        to_move(game)?;
        game.legal_actions(&mut self.legal);
        if let Some(a) = obvious_move(game, &self.legal)? {
            return Ok(a);
        }
        let stats = self.search(game)?;
        visits.extend(stats.children.iter().map(|c| (c.action, c.visits)));
        if let Some(first) = stats.children.first() {
            self.root_values.extend_from_slice(&first.values);
        }
        stats
            .children
            .first()
            .map(|s| s.action)
            .ok_or_else(no_moves::<G>)
    }
    fn root_values(&self) -> &[f64] {
        &self.root_values
    }
}
