//! Arte da Guerra: a two-player card game of drafting terrain and unit cards (one of every
//! three drawn is hidden), building a battlefield of three terrain rows, and three rounds of
//! deployment and combat. Rules: `docs/rules/arte-da-guerra.md` (ids `AG-x.y`); state,
//! notation, observation and card data formats: `docs/arte.md`.
//!
//! Modules: `options` (rules options), [`cards`] (the cards and card sets), [`content`]
//! (card sets from TOML), [`state`] (the state, its derived queries and invariants),
//! [`notation`] (the action space and its text form), `rules` (legality, one set of
//! conditions, and effects), [`combat`] (scoring), `json` (saved states and views through
//! serde), `position` (the position string), `observe` (observation tensor, render,
//! determinization), `evaluate` (the heuristic), `heuristic` (the rule-based player), `solve`
//! (a round's combat solved exactly: ISMCTS's routine decisions), `tests/` (one file per rule
//! section).

pub mod cards;
pub mod combat;
pub mod content;
mod evaluate;
mod heuristic;
mod json;
pub mod notation;
mod observe;
mod options;
mod position;
mod rules;
mod solve;
pub mod state;

#[cfg(test)]
mod tests;

pub use cards::{Card, CardSet, TerrainCard, UnitCard, UnitType};
pub use notation::Action;
pub use options::{Deployment, DraftOrder, Options, RangedScoring, SuddenDeathRow};
pub use state::{Arte, Phase};

use crate::error::Result;
use crate::game::{Game, Player};
use serde_json::Value;

impl Game for Arte {
    type Action = Action;
    type Options = Options;
    const NAME: &'static str = "arte";

    fn new(seed: u64, options: &Options) -> Result<Self> {
        Arte::setup(seed, &*options.carried()?)
    }
    fn options(&self) -> &Options {
        &self.opts
    }
    fn num_players(&self) -> usize {
        2
    }
    fn current_player(&self) -> Option<Player> {
        self.current()
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal(out);
    }
    fn check(&self, action: Action) -> Result<()> {
        Arte::check(self, action)
    }
    fn apply_unchecked(&mut self, action: Action) {
        self.play_checked(action);
    }
    fn winner(&self) -> Option<Player> {
        if self.phase == Phase::Over {
            self.winner
        } else {
            None
        }
    }

    fn num_actions(&self) -> usize {
        notation::num_actions(&self.set)
    }
    fn action_id(&self, action: Action) -> usize {
        notation::action_id(&self.set, action)
    }
    fn action_from_id(&self, id: usize) -> Option<Action> {
        notation::action_from_id(&self.set, id)
    }

    fn action_notation(&self, action: Action) -> String {
        notation::notation(&self.set, action)
    }
    fn parse_action(&self, text: &str) -> Result<Action> {
        notation::parse(&self.set, text)
    }
    fn action_json(&self, action: Action) -> Value {
        notation::to_json(&self.set, action)
    }
    fn sees_action(&self, viewer: Player, action: Action) -> bool {
        self.current() == Some(viewer)
            || match action {
                // AG-2.2, AG-9.2: the picker turns one drawn card face down unseen; AG-3.2,
                // AG-9.4: terrain is placed in secret and turned face up together.
                Action::Hide(_) | Action::Place(..) => false,
                // AG-5.2, AG-9.4: simultaneous deployment is secret (alternating: face up).
                Action::Deploy(..) => self.opts.deployment == Deployment::Alternating,
                // AG-8.2, AG-9.5: the attacker picks in secret; the defender's pick ends
                // the game, which shows both.
                Action::Pick(..) => self.current() != Some(self.sd_attacker()),
                // AG-9.6: takes (`take ?` names no card), attacks, defences, passes.
                _ => true,
            }
    }
    fn action_public(&self, action: Action) -> String {
        match action {
            Action::Hide(_) => "hide (secret)".into(),
            Action::Place(..) => "place (secret)".into(),
            Action::Deploy(..) => "deploy (secret)".into(),
            Action::Pick(..) => "pick (secret)".into(),
            _ => self.action_notation(action),
        }
    }

    fn to_json(&self) -> Value {
        self.json_as(None)
    }
    fn from_json(value: &Value) -> Result<Self> {
        Arte::parse_json(value)
    }
    fn position(&self, player: Option<Player>) -> Result<String> {
        position::write(self, player)
    }
    fn from_position(text: &str, options: &Options, seed: u64) -> Result<Self> {
        position::read(text, options, seed)
    }
    fn view(&self, player: Player) -> Value {
        self.json_as(Some(player))
    }
    fn resample_hidden(&self, player: Player, seed: u64) -> Self {
        self.resample(player, seed)
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![self.set.len() + 1, observe::FEATURES]
    }
    fn observation(&self, player: Player, out: &mut [f32]) {
        out.fill(0.0);
        self.observe(player, out);
    }
    fn observation_bounds(&self) -> Option<crate::game::ObservationBounds> {
        Some(self.observation_bounds_of())
    }
    fn render(&self, player: Option<Player>) -> String {
        self.picture(player)
    }
    fn evaluate(&self, player: Player) -> f64 {
        self.heuristic(player)
    }
}

impl crate::knowledge::Knowledge for Arte {
    fn heuristic_action(&self, rng: &mut crate::rng::GameRng) -> Option<Action> {
        heuristic::heuristic_action(self, rng)
    }
    // Combat once both formations are face up is solved exactly (`solve`: the round is a
    // small game of perfect information); a sudden-death pick of the best card and row is
    // dominant (the other side's pick is unseen); a terrain placement with one way left is
    // forced. Drafts and deployments are never routine.
    fn routine_action(&self, rng: &mut crate::rng::GameRng) -> Option<Action> {
        match self.phase {
            Phase::Combat => solve::combat_move(self, rng),
            Phase::SuddenDeath => heuristic::heuristic_action(self, rng),
            Phase::Terrain => {
                let mut legal = Vec::new();
                self.legal(&mut legal);
                match legal.as_slice() {
                    [a] => Some(*a),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}
