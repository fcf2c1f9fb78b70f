//! The protocol every game implements.
//!
//! One trait, in the spirit of OpenSpiel's uniform interface and shakmaty's `Position`:
//! a game is a value (`Clone`), moves are generated into a caller's buffer, and every
//! fallible call returns [`Error`](crate::Error) and leaves the state untouched on failure.
//! Everything generic — recording, the Python bindings, batch simulation, agents and
//! arenas — is written once against this trait.

use crate::error::Result;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Debug;
use std::hash::Hash;

/// Player index, 0-based.
pub type Player = usize;

/// The search settings a game asks for where an agent leaves them to the game
/// ([`Game::search_params`]): what `Greedy()` and `ISMCTS()` use by default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// ISMCTS's UCB exploration constant `c` (rewards in [0, 1]): it should fit the spread
    /// of the game's `evaluate` between good and bad moves.
    pub exploration: f64,
    /// Greedy's redraws of what the mover cannot see (future dice included) per move: a
    /// game whose moves meet chance needs several to score a move by its expected result.
    pub greedy_samples: u32,
    /// Greedy judges a move after the rest of the mover's turn is played by the game's
    /// rule-based player ([`Game::heuristic_action`]), then `evaluate`: a one-step
    /// improvement over the heuristic player (the rollout algorithm), for games whose turn
    /// is many decisions. `false`: the position right after the move is evaluated.
    pub greedy_settle: bool,
    /// ISMCTS's root prior: redraws on which every root action is scored one ply deep (as
    /// Greedy scores it) before the search starts; 0: no prior. See `prior_visits`.
    pub prior_samples: u32,
    /// How many visits the root prior is worth: a root action's mean starts at its prior,
    /// as if seen that many times, and the search's own results take over as they come in.
    pub prior_visits: f64,
    /// ISMCTS's settle when its configuration leaves it to the game (`settle` unset):
    /// before a leaf is scored, the player who just moved finishes their turn with the
    /// game's heuristic move ([`Game::heuristic_action`]), so leaves are scored between
    /// turns. Off by default.
    pub ismcts_settle: bool,
    /// With `ismcts_settle`: how many whole turns a settle finishes ([`Game::turn_owner`],
    /// reactions of other players inside a turn included): 1 the leaf's own, as Greedy's
    /// settle does, 2 that and the reply turn; 0: only while the player who just moved is
    /// to move.
    pub ismcts_settle_turns: u32,
    /// ISMCTS's root prior judges each root action as the settled Greedy does: after the
    /// rest of its turn is played by the game's rule-based player (`greedy_settle`).
    pub prior_settle: bool,
    /// ISMCTS's move when its configuration leaves it to the game (`pick` unset): `0` the
    /// most visited root child; `f > 0` the best mean among the children visited at least
    /// `f` times as often as the most visited.
    pub ismcts_pick: f64,
    /// ISMCTS's `routine` when its configuration leaves it to the game: below the root,
    /// the decisions [`Game::routine_action`] names are played by that rule instead of
    /// being branched on.
    pub ismcts_routine: bool,
    /// ISMCTS's `expand_samples` when its configuration leaves it to the game: how many
    /// untried actions, drawn at random, `evaluate` judges at each expansion below the root
    /// (0/1: a random one).
    pub ismcts_expand_samples: u32,
    /// ISMCTS's `halving` when its configuration leaves it to the game: `m >= 2` runs the
    /// root as sequential halving over the `m` root actions Greedy judges best, every
    /// candidate searched on the same redraws; 0: the root is a UCB node like the rest.
    pub ismcts_halving: u32,
    /// ISMCTS's `first_reply_expand` when its configuration leaves it to the game: how
    /// many untried actions `evaluate` judges at each expansion of the reply to the root's
    /// move (the first node where another player moves); 0: `ismcts_expand_samples`, as
    /// everywhere.
    pub ismcts_first_reply_expand: u32,
    /// ISMCTS's `finalist_depth` when its configuration leaves it to the game: extra plies
    /// below each leaf in the halving's last round (0: none).
    pub ismcts_finalist_depth: u32,
    /// ISMCTS's `finalist_expand` when its configuration leaves it to the game: the moves
    /// judged at each of those plies.
    pub ismcts_finalist_expand: u32,
    /// ISMCTS's `finalist_heuristic` when its configuration leaves it to the game: those
    /// plies played by the game's rule-based player instead of judged by `evaluate`.
    pub ismcts_finalist_heuristic: bool,
}

impl SearchParams {
    /// What a game gets unless it says otherwise (measured on Battle Line, docs/agents.md).
    pub const DEFAULT: SearchParams = SearchParams {
        exploration: 0.1,
        greedy_samples: 1,
        greedy_settle: false,
        prior_samples: 0,
        prior_visits: 0.0,
        ismcts_settle: false,
        ismcts_settle_turns: 0,
        prior_settle: false,
        ismcts_pick: 0.0,
        ismcts_routine: false,
        ismcts_expand_samples: 8,
        ismcts_halving: 0,
        ismcts_first_reply_expand: 0,
        ismcts_finalist_depth: 0,
        ismcts_finalist_expand: 8,
        ismcts_finalist_heuristic: false,
    };
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

pub trait Game: Clone + Debug + Send + Sync + Sized + 'static {
    /// A move. Small and `Copy`; its text form is [`Game::action_notation`].
    type Action: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// Rules options (variants). `Default` is the reading in `shared/rules-notes.md`.
    /// Deserialized from the keyword arguments of `kingdoms.new_game`; should use
    /// `#[serde(deny_unknown_fields)]` so a misspelt option is an error.
    type Options: Default + Clone + Debug + Serialize + DeserializeOwned + Send + Sync + 'static;

    /// The registry name: `battleline`, `strifull`, `arte`, `zinordia`.
    const NAME: &'static str;

    /// A new game, shuffled / set up from `seed`.
    fn new(seed: u64, options: &Self::Options) -> Result<Self>;

    fn options(&self) -> &Self::Options;
    fn num_players(&self) -> usize;
    /// Whose decision it is; `None` once the game is over.
    fn current_player(&self) -> Option<Player>;
    /// The legal actions in a canonical order (ascending action id), written into `out`
    /// (cleared first) so search can reuse one buffer.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);
    /// The ids of `legal_actions` as bits (id `i` is bit `i % 64` of `words[i / 64]`), ORed
    /// into `words` (all zero on entry, at least `num_actions()` bits long), written straight
    /// from the state where the game can: a batch's masks need the ids, not the actions.
    /// `false` (the default): not provided, `words` untouched; the caller maps
    /// `legal_actions` instead. A game that overrides it is checked against `legal_actions`
    /// at every ply by the conformance suite.
    fn legal_action_bits(&self, words: &mut [u64]) -> bool {
        let _ = words;
        false
    }
    /// Whether `action` is legal now for the current player: `Ok`, or
    /// `Error::illegal(rule_id, why)` naming the broken rule. Never mutates. Built from the
    /// same conditions as `legal_actions`, so `check(a).is_ok()` exactly when `a` is listed
    /// there; the refusal reads the same on every determinization of the mover's view (it may
    /// not reveal hidden information).
    fn check(&self, action: Self::Action) -> Result<()>;
    /// The effect of an action that `check` accepted (or that `legal_actions` listed). On
    /// any other action the result is unspecified (but memory-safe); use `apply` for actions
    /// from outside.
    fn apply_unchecked(&mut self, action: Self::Action);
    /// Play `action` for the current player: `check`, then `apply_unchecked`. On `Err` the
    /// state is exactly as before.
    fn apply(&mut self, action: Self::Action) -> Result<()> {
        self.check(action)?;
        self.apply_unchecked(action);
        Ok(())
    }

    /// Whose turn it is: the player to move, except where a decision of another player
    /// (a reaction) interrupts the turn, which stays its owner's. Greedy's `settle` plays the
    /// rest of a turn up to its change of hands. Default: the player to move.
    fn turn_owner(&self) -> Option<Player> {
        self.current_player()
    }

    fn is_terminal(&self) -> bool {
        self.current_player().is_none()
    }
    /// The winner of a finished game; `None` while running or for a draw.
    fn winner(&self) -> Option<Player>;
    /// The team `player` plays for (results credit partners alike). Default: every player
    /// is a team of one, numbered as the player.
    fn team(&self, player: Player) -> usize {
        player
    }
    /// Final utilities per player (win 1, loss -1, draw 0 in two-player games); all zero
    /// while the game runs.
    fn returns(&self) -> Vec<f64> {
        let n = self.num_players();
        match (self.is_terminal(), self.winner()) {
            (false, _) | (true, None) => vec![0.0; n],
            (true, Some(w)) => (0..n).map(|p| if p == w { 1.0 } else { -1.0 }).collect(),
        }
    }

    // ---- the fixed action space -------------------------------------------------------
    /// Size of the action space (fixed for a given set of options).
    fn num_actions(&self) -> usize;
    /// The id of an action, in `0..num_actions()`.
    fn action_id(&self, action: Self::Action) -> usize;
    /// The action with this id, or `None` if the id is out of range.
    fn action_from_id(&self, id: usize) -> Option<Self::Action>;

    // ---- notation ---------------------------------------------------------------------
    /// Canonical text of an action; `parse_action(action_notation(a)) == a`.
    fn action_notation(&self, action: Self::Action) -> String;
    /// Parse an action's text. Accepts exactly what `action_notation` prints (and may accept
    /// documented aliases). Does not check legality.
    fn parse_action(&self, text: &str) -> Result<Self::Action>;
    /// A structured, JSON-safe description of an action (kind, cards, targets).
    fn action_json(&self, action: Self::Action) -> Value;

    // ---- serialization and information ------------------------------------------------
    /// The complete state as JSON (hidden cards, RNG state and options included), such that
    /// `from_json(to_json())` is an identical game. Must not use the keys `game`, `seed`,
    /// `history` (the recording layer adds them).
    fn to_json(&self) -> Value;
    /// Rebuild a state, validating it: a malformed or inconsistent value is `Error::State`
    /// naming the path.
    fn from_json(value: &Value) -> Result<Self>;
    /// `to_json` with everything `player` may not see replaced by `null`, and everything it
    /// legitimately knows kept. The RNG state (future dice) is never visible.
    fn view(&self, player: Player) -> Value;
    /// A state consistent with `player`'s view, with all hidden information (and the RNG,
    /// hence future chance) redrawn from `seed`: `resample_hidden(p, s).view(p) == view(p)`.
    fn resample_hidden(&self, player: Player, seed: u64) -> Self;

    /// The compact position string (FEN-like, documented in the game's doc): `None` the
    /// whole state, exactly (`from_position(position(None))` is an identical game);
    /// `Some(p)` what `p` sees, hidden cards as `?`. Options are not part of it (they go
    /// beside it, as in a record). Default: this game has no position format yet.
    fn position(&self, player: Option<Player>) -> Result<String> {
        let _ = player;
        Err(crate::position::unsupported(Self::NAME))
    }
    /// The game a position string describes, under `options`. A view position (one with
    /// hidden cards) loads as a state consistent with it, the hidden cards (and any future
    /// chance) drawn from `seed`. A malformed or inconsistent position is `Error::State`
    /// naming the field.
    fn from_position(text: &str, options: &Self::Options, seed: u64) -> Result<Self> {
        let _ = (text, options, seed);
        Err(crate::position::unsupported(Self::NAME))
    }

    /// Shape of the observation tensor (fixed for a given set of options).
    fn observation_shape(&self) -> Vec<usize>;
    /// Write `player`'s observation into `out` (length = product of the shape), every
    /// element of it (zeros included): callers reuse buffers without clearing them. Only
    /// information `player` may see.
    fn observation(&self, player: Player, out: &mut [f32]);
    /// The divisors of the game's compact observation, one per element, when it has one:
    /// every element of `observation` is a small whole number over its divisor, and
    /// `observation_u8` writes those whole numbers (a quarter of the bytes; reinforcement
    /// learning batches are bound by the memory they write). `None`: no compact form.
    fn observation_divisors(&self) -> Option<Vec<f32>> {
        None
    }
    /// Write `player`'s compact observation (only called when `observation_divisors` is
    /// `Some`): `out[i] as f32 / divisors[i]` is `observation`'s element `i`, bit for bit
    /// (both divide in `f32`). Every element is written, as in `observation`.
    ///
    /// The default derives it from `observation` (allocating a float buffer each call), so a
    /// game that declares divisors is correct before it is fast; a game overrides it with a
    /// writer of its own (Battle Line: one generic writer serves both forms).
    fn observation_u8(&self, player: Player, out: &mut [u8]) {
        let Some(divisors) = self.observation_divisors() else {
            return;
        };
        let mut obs = vec![0.0f32; out.len()];
        self.observation(player, &mut obs);
        for ((o, &x), &d) in out.iter_mut().zip(&obs).zip(&divisors) {
            // A whole number by the contract above; `as` saturates anything else into 0..=255.
            *o = (x * d).round() as u8;
        }
    }

    /// A readable text picture. `None`: the whole state (for the omniscient user);
    /// `Some(p)`: only what `p` may see.
    fn render(&self, player: Option<Player>) -> String;

    /// A heuristic value of the position for `player`, in [-1, 1]; used by the greedy
    /// agent and as a tie-breaker. Terminal states should return the true result.
    fn evaluate(&self, player: Player) -> f64;

    /// [`Game::evaluate`] for every player at once: `out[p]` gets `evaluate(p)`, for each
    /// `p` below `out.len()`. A game whose players' values are tied overrides it to compute
    /// them once, and must give exactly the same values (Battle Line's are zero-sum: player
    /// 1's is player 0's negated); the search scores its leaves through it.
    fn evaluate_each(&self, out: &mut [f64]) {
        for (p, v) in out.iter_mut().enumerate() {
            *v = self.evaluate(p);
        }
    }

    /// Each of `actions` (legal here) judged for `player`: into `out`, in order, what
    /// `evaluate(player)` gives the position after it (the true result, `returns()`, where
    /// it ends the game). A game overrides this when it has a faster way than playing each
    /// action on a copy and evaluating that, and must then give exactly the same values
    /// (Battle Line reuses what a troop play leaves unchanged, `battleline/judge.rs`); the
    /// search's expansions judge their candidates through it. `Ok(false)`: no faster way
    /// (the default), `out` left alone.
    fn evaluate_after(
        &self,
        actions: &[Self::Action],
        player: Player,
        out: &mut Vec<f64>,
    ) -> Result<bool> {
        let _ = (actions, player, out);
        Ok(false)
    }

    /// The move a sensible rule-based player makes here (the `Heuristic` agent, issue 14):
    /// the game's own rules of thumb, no search. Uses only what the player to move may see;
    /// `rng` breaks ties. `None`: this game has no heuristic player (the agent refuses it).
    fn heuristic_action(&self, rng: &mut crate::rng::GameRng) -> Option<Self::Action> {
        let _ = rng;
        None
    }

    /// A decision the search may take by rule instead of branching on it (ISMCTS's opt-in
    /// `routine`): the move, when the decision to be made here is routine for this game,
    /// from what the player to move may see; `rng` breaks ties. Default: none is routine.
    fn routine_action(&self, rng: &mut crate::rng::GameRng) -> Option<Self::Action> {
        let _ = rng;
        None
    }

    /// A move that no other move here is better than, which the judging agents (Greedy,
    /// ISMCTS) play at once instead of weighing it against the rest: judged by evaluation
    /// or search, a move only a little better than another is often lost to noise (issue
    /// 14, round 24: Battle Line's search declined a provable claim about once in two games).
    /// Read only from what the player to move may see. Default: none.
    fn dominant_action(&self) -> Option<Self::Action> {
        None
    }

    /// The search settings this game's agents use unless told otherwise (issue 14: how
    /// widely ISMCTS explores depends on the scale of `evaluate`, how many redraws Greedy
    /// needs on how much chance a move meets). Default: [`SearchParams::DEFAULT`].
    fn search_params() -> SearchParams {
        SearchParams::DEFAULT
    }
}

/// The element type of an observation buffer: `f32` (the observation) or `u8` (the compact
/// observation, see [`Game::observation_divisors`]). A game that has a compact form writes
/// both from one function generic over this, so the two cannot drift apart.
pub trait ObsValue: Copy + Default + Send + Sync + 'static {
    /// Whether this is the compact form (which not every game has).
    const COMPACT: bool;
    const ZERO: Self;
    const ONE: Self;
    /// The element for `count / divisor`: that quotient as a float, or the whole number
    /// `count` in the compact form.
    fn ratio(count: u8, divisor: u8) -> Self;
    /// Write `player`'s observation of this element type.
    fn observe<G: Game>(game: &G, player: Player, out: &mut [Self]);
}

impl ObsValue for f32 {
    const COMPACT: bool = false;
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    fn ratio(count: u8, divisor: u8) -> f32 {
        f32::from(count) / f32::from(divisor)
    }
    fn observe<G: Game>(game: &G, player: Player, out: &mut [f32]) {
        game.observation(player, out);
    }
}

impl ObsValue for u8 {
    const COMPACT: bool = true;
    const ZERO: u8 = 0;
    const ONE: u8 = 1;
    fn ratio(count: u8, _divisor: u8) -> u8 {
        count
    }
    fn observe<G: Game>(game: &G, player: Player, out: &mut [u8]) {
        game.observation_u8(player, out);
    }
}
