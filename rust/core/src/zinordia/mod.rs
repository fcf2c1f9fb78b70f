//! Zinordia: hex tactics with Stars whose abilities are data (rules: `docs/rules/zinordia.md`,
//! ids `ZN-x.y`; content format, reference set, state format, notation and observation
//! layout: `docs/zinordia.md`).
//!
//! Modules: [`ability`] (the ability vocabulary), [`content`] (roster, maps and modes from
//! TOML, with the reference set under `data/zinordia/`), [`options`], [`state`],
//! [`notation`] (the action space sized from roster and map, and its text), `rules`
//! (legality, one set of conditions, and effects), [`combat`] (rolls, damage, defeat, push
//! and pull), [`effects`] (lasting effects), [`resolution`] (an ability's resolution as
//! resumable data), `json` (saved states and views through serde),
//! `position` (the position string),
//! `observe` (views' hidden parts, determinization, observation tensor, text picture),
//! [`terrain`] (terrain kinds as data), `evaluate` (the heuristic value) and `heuristic` (the rule-based player).

pub mod ability;
pub mod activate;
pub mod combat;
pub mod content;
pub mod effects;
mod evaluate;
mod heuristic;
mod json;
pub mod notation;
mod observe;
pub mod options;
mod position;
pub mod resolution;
pub mod resolve;
pub mod rules;
pub mod state;
pub mod terrain;

pub use ability::{Ability, Effect, Kind, Target, Trigger};
pub use content::{Content, GameMap, Mode, Source, Star};
pub use notation::Action;
pub use options::{
    AllyDefeat, DurationsTick, Lines, Options, Placement, ReactionOrder, Selection, UniqueStars,
    UntimedBuffs,
};
pub use state::{Phase, Zinordia};

use crate::error::Result;
use crate::game::{Game, Player};
use crate::rng::GameRng;
use serde_json::Value;

impl Game for Zinordia {
    type Action = Action;
    type Options = Options;
    const NAME: &'static str = "zinordia";

    fn new(seed: u64, options: &Options) -> Result<Self> {
        Zinordia::with_content(seed, options, options.content()?)
    }
    fn options(&self) -> &Options {
        &self.shared.options
    }
    fn num_players(&self) -> usize {
        self.shared.players
    }
    fn current_player(&self) -> Option<Player> {
        Zinordia::current_player(self)
    }
    /// A reaction window belongs to the turn it opens in (ZN-9.4).
    fn turn_owner(&self) -> Option<Player> {
        match self.phase {
            state::Phase::Main => Some(self.turn_player()),
            _ => self.current_player(),
        }
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        Zinordia::legal_actions(self, out);
    }
    fn check(&self, action: Action) -> Result<()> {
        Zinordia::check(self, action)
    }
    fn apply_unchecked(&mut self, action: Action) {
        Zinordia::apply_unchecked(self, action);
    }
    /// The winning team's first player in initiative order (`team` names the partners).
    fn winner(&self) -> Option<Player> {
        self.winner_player()
    }
    fn team(&self, player: Player) -> usize {
        self.shared.team(player)
    }
    /// The team result: every player of the winning team 1, the others -1 (ZN-12.8).
    fn returns(&self) -> Vec<f64> {
        Zinordia::returns(self)
    }

    fn num_actions(&self) -> usize {
        self.shared.num_actions()
    }
    fn action_id(&self, action: Action) -> usize {
        self.shared.action_id(action)
    }
    fn action_from_id(&self, id: usize) -> Option<Action> {
        self.shared.action_from_id(id)
    }

    /// The canonical text names an ability by its number on the sheet (1 to 4), the same
    /// in every state: records keep actions and write them out later, from the final state
    /// (`session.rs`), so the text must not depend on the state it was played in.
    /// `describe_action` names the ability by id.
    fn action_notation(&self, action: Action) -> String {
        self.shared.action_notation(action)
    }
    /// Accepts the canonical text, and ability ids on the acting Star (the playing one, or
    /// the one a reaction window asks about).
    fn parse_action(&self, text: &str) -> Result<Action> {
        Zinordia::parse_action(self, text)
    }
    fn action_json(&self, action: Action) -> Value {
        self.action_value(action)
    }
    fn sees_action(&self, viewer: Player, action: Action) -> bool {
        // ZN-4.2, ZN-13.2: a secret pick is seen by the picker's team only (a draft, and a
        // pick again after the reveal, are public); ZN-13.1: all else is on the open board.
        match (action, self.current_player()) {
            (Action::Pick(_), Some(mover)) => self.sees_picks(Some(viewer), mover),
            _ => true,
        }
    }
    fn action_public(&self, action: Action) -> String {
        match action {
            Action::Pick(_) => "pick (secret)".into(),
            _ => self.action_notation(action),
        }
    }

    fn to_json(&self) -> Value {
        self.json_as(None)
    }
    fn from_json(value: &Value) -> Result<Self> {
        Zinordia::parse_json(value)
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
        self.obs_shape()
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
        self.value(player)
    }
}

impl crate::knowledge::Knowledge for Zinordia {
    fn heuristic_action(&self, rng: &mut GameRng) -> Option<Action> {
        heuristic::choose(self, rng)
    }
    fn routine_action(&self, rng: &mut GameRng) -> Option<Action> {
        heuristic::routine(self, rng)
    }
}

#[cfg(test)]
mod tests;
