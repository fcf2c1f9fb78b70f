//! Tests, one file per rule section of docs/rules/arte-da-guerra.md (test names cite the
//! rule ids): `draft` (AG-2), `terrain` (AG-3), `combat` (AG-4 to AG-6), `rounds` (AG-5.2,
//! AG-7), `sudden_death` (AG-8), `hidden` (AG-9), plus `properties` along random games,
//! `saved_state` (JSON), `position` (the position string), `card_data` (TOML card sets,
//! AG-1.2/1.3) and `action_notation`. Shared builders and helpers are here.

use super::cards::Card;
use super::notation::{self, Action};
use super::{Deployment, Options, RangedScoring, SuddenDeathRow};
use crate::arte::state::{Arte, Combat, Held, Phase, Side};
use crate::error::Error;
use crate::game::{Game, Player};
use crate::rng::GameRng;
use serde_json::Value;

/// A small set with predictable ids: T1 Plain (C3 G2), T2 Forest (A3 G2), T3 Peak (M3 A2),
/// T4..T9 Waste (favours nothing); U1 CCA, U2 G, U3 AA, U4 M, U5 CGG, U6 AM, U7 GGG, U8 C,
/// U9 MM, U10 AAA, U11..U27 G.
const TEST_SET: &str = r#"
[[terrain]]
name = "Plain"
favours = { cavaleiro = 3, guerreiro = 2 }
[[terrain]]
name = "Forest"
favours = { arqueiro = 3, guerreiro = 2 }
[[terrain]]
name = "Peak"
favours = { mago = 3, arqueiro = 2 }
[[terrain]]
name = "Waste"
favours = {}
copies = 6
[[unit]]
units = ["cavaleiro", "cavaleiro", "arqueiro"]
[[unit]]
units = ["guerreiro"]
[[unit]]
units = ["arqueiro", "arqueiro"]
[[unit]]
units = ["mago"]
[[unit]]
units = ["cavaleiro", "guerreiro", "guerreiro"]
[[unit]]
units = ["arqueiro", "mago"]
[[unit]]
units = ["guerreiro", "guerreiro", "guerreiro"]
[[unit]]
units = ["cavaleiro"]
[[unit]]
units = ["mago", "mago"]
[[unit]]
units = ["arqueiro", "arqueiro", "arqueiro"]
[[unit]]
units = ["guerreiro"]
copies = 17
"#;

pub(super) fn opts() -> Options {
    Options {
        cards_toml: Some(TEST_SET.into()),
        ..Default::default()
    }
}

fn card(g: &Arte, label: &str) -> Card {
    g.set.parse_label(label).unwrap()
}

fn cell(name: &str) -> u8 {
    notation::parse_cell(name).unwrap()
}

fn act(g: &Arte, text: &str) -> Action {
    g.parse_action(text).unwrap()
}

fn play(g: &mut Arte, text: &str) {
    let a = act(g, text);
    if let Err(e) = g.apply(a) {
        panic!("{text}: {e}\n{}", g.render(None));
    }
    g.check_invariants().unwrap();
}

fn rule_of(r: crate::error::Result<()>) -> String {
    match r {
        Err(Error::IllegalAction { rule, .. }) => rule,
        other => panic!("expected an illegal action, got {other:?}"),
    }
}

/// Apply an illegal action: it fails with `rule` and changes nothing.
fn refuse(g: &mut Arte, text: &str, rule: &str) {
    let before = g.to_json();
    let a = act(g, text);
    assert_eq!(rule_of(g.apply(a)), rule, "{text}");
    assert_eq!(g.to_json(), before, "{text} changed the state");
}

fn legal(g: &Arte) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v.into_iter().map(|a| g.action_notation(a)).collect()
}

/// Put cards (from the piles) into player `p`'s unit hand.
fn give(g: &mut Arte, p: Player, labels: &[&str]) {
    for l in labels {
        let c = take(g, l);
        g.sides[p].units.push(Held {
            card: c,
            secret: false,
        });
    }
}

/// Remove a card from the piles (where the builder keeps every card it has not placed).
fn take(g: &mut Arte, label: &str) -> Card {
    let c = card(g, label);
    for pile in &mut g.piles {
        pile.retain(|&x| x != c);
    }
    c
}

/// A combat position in round `round`: rows (terrain labels) and field cards per player,
/// `attacker` to attack. Every other card waits in the piles.
fn combat(
    rows: [[&str; 3]; 2],
    fields: [&[(&str, &str)]; 2],
    attacker: Player,
    round: u8,
    options: Options,
) -> Arte {
    let mut g = Arte::setup(1, &options).unwrap();
    let nt = g.set.num_terrain() as Card;
    g.piles = [(0..nt).collect(), (nt..g.set.len() as Card).collect()];
    g.draft = None;
    g.discard.clear();
    g.sides = [Side::default(), Side::default()];
    for p in 0..2 {
        for (r, t) in rows[p].iter().enumerate() {
            let t = take(&mut g, t);
            g.sides[p].rows[r] = Some(t);
        }
        for (x, u) in fields[p] {
            let u = take(&mut g, u);
            g.sides[p].field[cell(x) as usize] = Some(u);
        }
    }
    g.phase = Phase::Combat;
    g.round = round;
    // round_first(round) must be `attacker`.
    g.first_attacker = Some(attacker ^ usize::from((round - 1) & 1));
    g.combat = Some(Combat {
        attacker,
        turn: 0,
        passes: 0,
        attack: None,
    });
    g.check_invariants().unwrap();
    assert_eq!(g.current(), Some(attacker));
    g
}

const ROWS: [[&str; 3]; 2] = [["T1", "T2", "T3"], ["T4", "T5", "T6"]];

mod action_notation;
mod card_data;
mod combat;
mod draft;
mod hidden;
mod position;
mod properties;
mod rounds;
mod saved_state;
mod seen;
mod solve;
mod sudden_death;
mod terrain;

fn after_draft(seed: u64, options: &Options) -> Arte {
    let mut g = Arte::new(seed, options).unwrap();
    let mut rng = GameRng::seed(seed);
    while g.phase == Phase::Draft {
        let mut v = Vec::new();
        g.legal_actions(&mut v);
        g.apply(*rng.choose(&v).unwrap()).unwrap();
    }
    g
}

fn all_options() -> Vec<Options> {
    vec![
        Options::default(),
        Options {
            draft_order: crate::arte::DraftOrder::Restart,
            deployment: Deployment::Alternating,
            ranged_scoring: RangedScoring::Exception,
            sudden_death_row: SuddenDeathRow::Front,
            ..Default::default()
        },
        opts(),
    ]
}
