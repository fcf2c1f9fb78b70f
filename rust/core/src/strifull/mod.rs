//! Strained Kingdoms: STRIFULL — two factions, a leader and 30 troops each, an attack and
//! a defence zone of 3x3 cells, frontal and flank attacks settled by advantage and two d6,
//! elemental bonuses, and row elimination. Rules: `docs/rules/strifull.md` (ids `SK-x.y`);
//! state, notation and observation formats: `docs/strifull.md`; cards:
//! `docs/strifull-cards.md`.
//!
//! Modules: [`options`] (rules options), [`state`] (the state and cell geometry),
//! [`notation`] (actions), `rules` (turn machine: one set of legality conditions for move
//! generation and `check`, and the effects of actions), `combat` (attacks, abilities in
//! play, row elimination), `setup` (decks and the deal), `json` (the saved-state format
//! through serde), `observe` (determinization, observation, render), `evaluate` (the
//! heuristic), [`content`] (the card sets from TOML through serde), [`effects`] (the
//! ability vocabulary).

mod combat;
pub mod content;
pub mod effects;
mod evaluate;
mod heuristic;
mod json;
pub mod notation;
mod observe;
pub mod options;
mod position;
mod rules;
mod setup;
pub mod state;

#[cfg(test)]
mod tests;

use crate::error::Result;
use crate::game::{Game, Player};
use serde_json::Value;

pub use content::{CardSet, Element};
pub use notation::Action;
pub use options::{DeckChoice, MutualWipeout, Options};
pub use state::Strifull;

impl Game for Strifull {
    type Action = Action;
    type Options = Options;
    const NAME: &'static str = "strifull";

    fn new(seed: u64, options: &Options) -> Result<Self> {
        Strifull::new_game(seed, &*options.carried()?)
    }
    fn options(&self) -> &Options {
        &self.shared.options
    }
    fn num_players(&self) -> usize {
        2
    }
    fn current_player(&self) -> Option<Player> {
        (self.step != state::Step::Over).then_some(self.actor as usize)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        self.for_each_legal(|a| {
            out.push(a);
            true
        });
        // Generated in ascending id order (rules.rs).
        debug_assert!(out.windows(2).all(|w| w[0].id() < w[1].id()));
    }
    fn check(&self, action: Action) -> Result<()> {
        Strifull::check(self, action)
    }
    fn apply_unchecked(&mut self, action: Action) {
        self.apply_checked(action);
    }
    // SK-7.4: the decisions a combat causes (a leader's new row, a row moved up) belong to
    // the attacker's turn even when the defender takes them.
    fn turn_owner(&self) -> Option<Player> {
        let owner = if self.step.is_setup() {
            self.actor
        } else {
            self.turn_player
        };
        self.current_player().map(|_| owner as usize)
    }
    fn winner(&self) -> Option<Player> {
        match self.outcome {
            state::Outcome::Win(p) => Some(p as usize),
            _ => None,
        }
    }
    fn num_actions(&self) -> usize {
        notation::NUM_ACTIONS
    }
    fn action_id(&self, action: Action) -> usize {
        action.id()
    }
    fn action_from_id(&self, id: usize) -> Option<Action> {
        Action::from_id(id)
    }
    fn action_notation(&self, action: Action) -> String {
        action.notation()
    }
    fn parse_action(&self, text: &str) -> Result<Action> {
        Action::parse(text.trim())
    }
    fn action_json(&self, action: Action) -> Value {
        action.to_json()
    }
    fn sees_action(&self, viewer: Player, action: Action) -> bool {
        let mover = usize::from(self.actor);
        // SK-3.2, SK-10.1: setup is secret until both players are done (turn moves name
        // cells only, so a face-down card stays unnamed).
        if mover == viewer || !self.step.is_setup() {
            return true;
        }
        let other = &self.sides[1 - mover.min(1)];
        match action {
            Action::Swap(..) | Action::PileSwap(_) | Action::Element(_) => false,
            // The last setup decision shows every choice at once (turn 1 begins).
            Action::Leader(_) => other.element.is_some() && other.leader_row != 0,
            _ => true,
        }
    }
    fn action_public(&self, action: Action) -> String {
        match action {
            Action::Swap(..) => "swap (secret)".into(),
            // A card under the pile shows in the pile's known count.
            Action::PileSwap(_) => "swap pile (secret)".into(),
            Action::Element(_) => "element (secret)".into(),
            Action::Leader(_) => "leader (secret)".into(),
            _ => action.notation(),
        }
    }
    fn to_json(&self) -> Value {
        self.state_json(None)
    }
    fn from_json(value: &Value) -> Result<Self> {
        Strifull::parse_state(value)
    }
    fn position(&self, player: Option<Player>) -> Result<String> {
        position::write(self, player)
    }
    fn from_position(text: &str, options: &Options, seed: u64) -> Result<Self> {
        position::read(text, options, seed)
    }
    fn view(&self, player: Player) -> Value {
        self.state_json(Some(player))
    }
    fn resample_hidden(&self, player: Player, seed: u64) -> Self {
        self.resample(player, seed)
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![observe::OBS_ROWS, observe::OBS_FEATURES]
    }
    fn observation(&self, player: Player, out: &mut [f32]) {
        out.fill(0.0);
        self.observe(player, out)
    }
    fn observation_bounds(&self) -> Option<crate::game::ObservationBounds> {
        Some(observe::observation_bounds())
    }
    fn render(&self, player: Option<Player>) -> String {
        self.render_text(player)
    }
    fn evaluate(&self, player: Player) -> f64 {
        self.heuristic(player)
    }
}

impl crate::knowledge::Knowledge for Strifull {
    fn heuristic_action(&self, rng: &mut crate::rng::GameRng) -> Option<Action> {
        heuristic::heuristic_action(self, rng)
    }
    fn routine_action(&self, rng: &mut crate::rng::GameRng) -> Option<Action> {
        heuristic::routine_action(self, rng)
    }
}
