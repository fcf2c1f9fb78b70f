//! Zinordia tests, one file per rule section, citing the rule ids of
//! `docs/rules/zinordia.md` in their names (`zn_10_3_…`).

mod abilities;
mod audit;
mod combat;
mod content;
mod effects;
mod notation;
mod options;
mod protocol;
// After `protocol`, out of order: zn-options adds `mod options;` before it this session.
mod position;
mod random;
mod seen;
mod setup;
mod terrain;
mod turn;

use std::sync::Arc;

use super::content::Content;
use super::notation::Action;
use super::options::Options;
use super::state::{Phase, Zinordia};
use crate::hex::Hex;

/// A new game on the reference content.
pub(super) fn game(options: Options, seed: u64) -> Zinordia {
    let content: Arc<Content> = Content::reference().expect("reference content");
    Zinordia::with_content(seed, &options, content).expect("valid options")
}

/// Every mode of the reference content, as (mode, players) for [`mode`].
pub(super) const EVERY_MODE: [(&str, Option<u8>); 4] = [
    ("duel", None),
    ("free_for_all", Some(3)),
    ("free_for_all", Some(4)),
    ("teams", None),
];

pub(super) fn mode(id: &str, players: Option<u8>) -> Options {
    Options {
        mode: id.into(),
        players,
        ..Options::default()
    }
}

pub(super) fn legal(g: &Zinordia) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// Play setup with the first legal action each time, until the Main phase.
pub(super) fn through_setup(g: &mut Zinordia) {
    while matches!(g.phase, Phase::Select { .. } | Phase::Place { .. }) {
        let a = legal(g)[0];
        g.apply(a).expect("legal");
    }
}

/// Put star slot `s` on zone `h` (a hand-built position).
pub(super) fn put(g: &mut Zinordia, s: usize, h: Hex) {
    if let Some(old) = g.stars[s].zone {
        g.board_mut().set_occupant(old, None).unwrap();
    }
    assert!(g.board.occupant(h).is_none(), "zone taken");
    g.board_mut().set_occupant(h, Some(s as u32)).unwrap();
    g.stars[s].zone = Some(h);
}
