//! The protocol every game implements.
//!
//! One trait, in the spirit of OpenSpiel's uniform interface and shakmaty's `Position`:
//! a game is a value (`Clone`), moves are generated into a caller's buffer, and every
//! fallible call returns [`Error`](crate::Error) and leaves the state untouched on failure.
//! Everything generic — recording, the Python bindings, batch simulation, agents and
//! arenas — is written once against this trait. It holds the rules only: the judgement
//! the agents read (evaluation hooks, the rule-based player) is
//! [`Knowledge`](crate::knowledge::Knowledge), and the search settings are the agents' own
//! (`search::profile`).

use crate::error::Result;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Debug;
use std::hash::Hash;

/// Player index, 0-based.
pub type Player = usize;

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
    /// Whether seat `viewer` sees `action`, played now, whole (the mover always does), by
    /// the rules' information section. Cheap and allocation-free: `Session` asks it for every
    /// seat at every move. It reads the same on every determinization of `viewer`'s view.
    fn sees_action(&self, viewer: Player, action: Self::Action) -> bool;
    /// What a seat that does not see `action` whole sees of it: its kind and any public part,
    /// then `(secret)` (`pick (secret)`, `return troop (secret)`); never a hidden part. Like
    /// the notation, a function of the action alone (not of the state).
    fn action_public(&self, action: Self::Action) -> String;
    /// What seat `viewer` sees of `action` played now (OpenSpiel's per-player
    /// `ActionToString(player, action)`): the notation when the viewer sees the move whole
    /// ([`Game::sees_action`]), else its public part ([`Game::action_public`]). Exact.
    fn action_seen(&self, viewer: Player, action: Self::Action) -> String {
        if self.sees_action(viewer, action) {
            self.action_notation(action)
        } else {
            self.action_public(action)
        }
    }

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
    /// The least and greatest value each element of the observation can take (flattened, of
    /// the observation's length) under this game's rules options and content; they never
    /// change during a game. Every registered game declares them (`None`: none declared);
    /// the conformance suite checks that observations of random games stay inside.
    fn observation_bounds(&self) -> Option<ObservationBounds> {
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
    /// agent and as a tie-breaker. Terminal states should return the true result. What else a
    /// game knows about playing well is [`Knowledge`](crate::knowledge::Knowledge).
    fn evaluate(&self, player: Player) -> f64;
}

/// `(low, high)`: the bounds of each element of an observation ([`Game::observation_bounds`]).
pub type ObservationBounds = (Vec<f32>, Vec<f32>);

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
