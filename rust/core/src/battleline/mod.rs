//! Battle Line: 9 flags, 60 troop cards, 10 tactics cards, exact claim proofs.
//!
//! Rules: `docs/rules/battle-line.md` (ids `BL-x.y`); state format, notation, action ids,
//! observation layout and the proof API: `docs/battleline.md`.
//!
//! - [`options`]: the rules options;
//! - [`state`]: the game state and small accessors;
//! - [`cards`]: card ids, card sets (bitsets) and the card notation;
//! - [`notation`]: the action enum, its ids and its notation;
//! - [`rules`]: setup, legal actions and their effects;
//! - [`formation`]: formations and the exact best-completion search;
//! - [`proof`]: claim proofs with their explanation and counterexample;
//! - [`json`]: the saved state (plain data through serde, then one validation step);
//! - [`position`]: the compact position string (FEN-like), read through [`json`];
//! - [`observe`]: views, determinization, observation tensor, text render;
//! - [`evaluate`]: the heuristic value of a position;
//! - `judge`: a mover's candidate moves judged by that value, fast and exactly;
//! - `heuristic`: the rule-based player behind the `Heuristic` agent.

pub mod cards;
pub mod evaluate;
pub mod formation;
mod heuristic;
pub mod infer;
pub mod json;
mod judge;
pub mod notation;
pub mod observe;
pub mod options;
pub mod position;
pub mod proof;
pub mod rules;
pub mod state;

#[cfg(test)]
mod brute;
#[cfg(test)]
mod tests;

pub use cards::{Card, CardSet, Deck};
pub use formation::{best_completion, best_formation, Formation, Kind};
pub use notation::{Action, NUM_ACTIONS};
pub use options::Options;
pub use proof::{best_formation_checked, prove_claim, ClaimProof, Verdict};
pub use state::{BattleLine, Flag, Knowledge, Phase};

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
    fn legal_action_bits(&self, words: &mut [u64]) -> bool {
        self.legal_bits(words)
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
    fn sees_action(&self, viewer: Player, action: Action) -> bool {
        // BL-8.1: a Scout's return goes face down on its own deck; everything else is
        // played face up or names a public deck (BL-1, BL-8, BL-9).
        !matches!(action, Action::Return(_)) || self.current_player() == Some(viewer)
    }
    fn action_public(&self, action: Action) -> String {
        match action {
            // The deck is public (its size), the card is the mover's.
            Action::Return(card) => format!("return {} (secret)", card.deck().name()),
            _ => action.to_string(),
        }
    }
    fn to_json(&self) -> Value {
        self.to_value()
    }
    fn from_json(value: &Value) -> Result<Self> {
        BattleLine::from_value(value)
    }
    // The trait gives these no way to fail: `Session` refuses a bad player index before it
    // calls them (the boundary). A bad index reaching here from Rust gets nothing about
    // either player: a `null` view, the state itself, no observation, no value.
    fn position(&self, player: Option<Player>) -> Result<String> {
        position::write(self, player)
    }
    fn from_position(text: &str, options: &Options, seed: u64) -> Result<Self> {
        position::read(text, options, seed)
    }
    fn view(&self, player: Player) -> Value {
        self.view_value(player).unwrap_or(Value::Null)
    }
    fn resample_hidden(&self, player: Player, seed: u64) -> Self {
        self.resample(player, seed).unwrap_or_else(|_| self.clone())
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![observe::OBS_LEN]
    }
    fn observation(&self, player: Player, out: &mut [f32]) {
        let _ = self.write_observation(player, out);
    }
    fn observation_bounds(&self) -> Option<crate::game::ObservationBounds> {
        Some(observe::observation_bounds())
    }
    fn observation_divisors(&self) -> Option<Vec<f32>> {
        Some(observe::observation_divisors())
    }
    fn observation_u8(&self, player: Player, out: &mut [u8]) {
        let _ = self.write_observation_as(player, out);
    }
    fn render(&self, player: Option<Player>) -> String {
        self.render_text(player).unwrap_or_else(|e| e.to_string())
    }
    fn evaluate(&self, player: Player) -> f64 {
        self.evaluate_for(player).unwrap_or(0.0)
    }
}

impl crate::knowledge::Knowledge for BattleLine {
    // Zero-sum: one model evaluation for both players instead of one each.
    fn evaluate_each(&self, out: &mut [f64]) {
        let both = self.evaluate_both();
        for (v, b) in out.iter_mut().zip(both) {
            *v = b;
        }
    }
    fn evaluate_after(
        &self,
        actions: &[Action],
        player: Player,
        out: &mut Vec<f64>,
    ) -> Result<bool> {
        judge::evaluate_after(self, actions, player, out)?;
        Ok(true)
    }
    fn heuristic_action(&self, rng: &mut crate::rng::GameRng) -> Option<Action> {
        heuristic::heuristic_action(self, rng)
    }
    // Claims and the draw: claiming what is provable at once is never worse (a claimed
    // flag is out of the tactics' reach), and the draw follows the heuristic's rule.
    fn routine_action(&self, rng: &mut crate::rng::GameRng) -> Option<Action> {
        match self.phase {
            Phase::Claim | Phase::Draw => heuristic::heuristic_action(self, rng),
            _ => None,
        }
    }
    // Claiming a provable flag: a claimed flag is out of the tactics' reach (Deserter,
    // Traitor, Redeploy), and a claim that completes a breakthrough or five flags ends the
    // game before the opponent's turn. Declining keeps one thing, the chance to Redeploy
    // one's own card off the flag, which gives the proof up; the game counts that as
    // never worth it.
    fn dominant_action(&self) -> Option<Action> {
        (self.phase == Phase::Claim && self.claimable != 0)
            .then(|| Action::Claim(self.claimable.trailing_zeros() as u8))
    }
}
