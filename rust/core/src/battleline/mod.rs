//! Battle Line: 9 flags, 60 troop cards, 10 tactics cards, exact claim proofs.
//!
//! Rules: `docs/rules/battle-line.md` (ids `BL-x.y`); state format, notation, action ids,
//! observation layout and the proof API: `docs/battleline.md`.
//!
//! - [`cards`]: card ids, card sets (bitsets) and the card notation;
//! - [`formation`]: formations and the exact best-completion search;
//! - [`proof`]: claim proofs with their explanation and counterexample;
//! - [`action`]: the action enum, its ids and its notation;
//! - [`state`]: the game state and options; [`rules`]: legal actions and their effects;
//! - [`json`]: state JSON, views and determinization;
//! - [`observation`]: observation tensor, text render, heuristic evaluation.

pub mod action;
pub mod cards;
pub mod formation;
pub mod json;
pub mod observation;
pub mod proof;
pub mod rules;
pub mod state;

#[cfg(test)]
mod brute;
#[cfg(test)]
mod tests;

pub use action::{Action, NUM_ACTIONS};
pub use cards::{Card, CardSet, Deck};
pub use formation::{best_completion, best_formation, Formation, Kind};
pub use proof::{best_formation_checked, prove_claim, ClaimProof, Verdict};
pub use state::{BattleLine, Flag, Knowledge, Options, Phase};

use crate::error::Result;
use crate::game::{Game, Player};
use serde_json::Value;

impl Game for BattleLine {
    type Action = Action;
    type Options = Options;
    const NAME: &'static str = "battleline";

    fn new(seed: u64, options: &Options) -> Result<Self> {
        BattleLine::new_game(seed, options)
    }
    fn options(&self) -> &Options {
        &self.options
    }
    fn num_players(&self) -> usize {
        2
    }
    fn current_player(&self) -> Option<Player> {
        (self.phase != Phase::Over).then_some(self.to_move as usize)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal(out);
    }
    fn check(&self, action: Action) -> Result<()> {
        BattleLine::check(self, action)
    }
    fn apply_unchecked(&mut self, action: Action) {
        self.execute(action);
    }
    fn is_terminal(&self) -> bool {
        self.phase == Phase::Over
    }
    fn winner(&self) -> Option<Player> {
        self.winner.map(usize::from)
    }
    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }
    fn action_id(&self, action: Action) -> usize {
        action.id()
    }
    fn action_from_id(&self, id: usize) -> Option<Action> {
        Action::from_id(id)
    }
    fn action_notation(&self, action: Action) -> String {
        action.to_string()
    }
    fn parse_action(&self, text: &str) -> Result<Action> {
        Action::parse(text)
    }
    fn action_json(&self, action: Action) -> Value {
        action.to_json()
    }
    fn to_json(&self) -> Value {
        self.to_value()
    }
    fn from_json(value: &Value) -> Result<Self> {
        BattleLine::from_value(value)
    }
    fn view(&self, player: Player) -> Value {
        self.view_value(player)
    }
    fn resample_hidden(&self, player: Player, seed: u64) -> Self {
        self.resample(player, seed)
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::OBS_LEN]
    }
    fn observation(&self, player: Player, out: &mut [f32]) {
        self.write_observation(player, out);
    }
    fn render(&self, player: Option<Player>) -> String {
        self.render_text(player)
    }
    fn evaluate(&self, player: Player) -> f64 {
        self.evaluate_for(player)
    }
}
