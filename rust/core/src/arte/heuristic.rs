//! The rule-based player (`Knowledge::heuristic_action`, issue 14): Arte da Guerra played by rules
//! of thumb, without search, from what the player to move sees (AG-9).
//!
//! Drafts: the picker hides the card it wants most (the chooser then takes it only blind) and
//! keeps the better of the two left; the chooser takes the best face-up card, or the face-down
//! one when every face-up card is below average. Terrain goes where it lifts the own unit
//! cards most (AG-4). Deployment: each round the strongest card on the row where it scores
//! best. Combat: attack only with a card that beats every defence the opponent may choose
//! (AG-6.4, AG-6.5), the strongest such; otherwise pass when allowed, else attack with the
//! weakest card. Defend with the weakest card that holds (ties go to the defence), else give
//! up the weakest. Sudden death: the card and row with the best score.

use super::cards::Card;
use super::combat::{card_score, strength};
use super::notation::Action;
use super::rules::{reaches_protected, score_combat};
use super::state::{Arte, Kind};
use crate::game::Player;
use crate::rng::GameRng;

/// The heuristic player's move, `None` when the game is over.
pub(crate) fn heuristic_action(g: &Arte, rng: &mut GameRng) -> Option<Action> {
    let p = g.current()?;
    let mut legal = Vec::new();
    g.legal(&mut legal);
    let mut best: Vec<Action> = Vec::new();
    let mut best_score = f64::NEG_INFINITY;
    for &a in &legal {
        let s = score(g, p, a);
        if s > best_score + 1e-9 {
            best_score = s;
            best.clear();
            best.push(a);
        } else if (s - best_score).abs() <= 1e-9 {
            best.push(a);
        }
    }
    rng.choose(&best).copied()
}

fn score(g: &Arte, p: Player, a: Action) -> f64 {
    match a {
        Action::Hide(c) | Action::Take(c) => draft_value(g, p, c),
        Action::TakeHidden => hidden_value(g, p),
        Action::Place(t, r) => placement_value(g, p, t, r),
        Action::Deploy(u, cell) => {
            let s = &g.sides[p];
            let r = (cell / 3) as usize;
            // The strongest card first, on its best row; between equal rows, the front.
            strength(&g.set, g.set.unit_card(u), s.rows[r], r) - 0.01 * r as f64
        }
        Action::Pass => -0.5,
        Action::Attack(cell) => attack_value(g, p, cell),
        Action::Defend(cell) => defence_value(g, p, cell),
        Action::Pick(c, r) => {
            let s = &g.sides[p];
            let t = g.set.row_terrain(s.rows[r as usize]);
            let attacking = g.sd_attacker() == p;
            f64::from(card_score(
                g.set.unit_card(c),
                t,
                r as usize,
                attacking,
                false,
            ))
        }
    }
}

/// A drawn card's worth to `p`: a unit card's strength on the best row it could get, in
/// units of the set's mean card; a terrain card's quality.
pub(super) fn draft_value(g: &Arte, p: Player, c: Card) -> f64 {
    let set = &*g.set;
    if set.is_terrain(c) {
        return set.terrain_quality.get(c as usize).copied().unwrap_or(0.0);
    }
    let s = &g.sides[p];
    let u = set.unit_card(c);
    let rows: Vec<Option<Card>> = if s.rows.iter().any(Option::is_some) {
        s.rows.to_vec()
    } else if s.placing.is_empty() {
        // Terrain not placed yet: any held terrain could go on any row.
        s.terrains
            .iter()
            .map(|h| Some(h.card))
            .chain([None])
            .collect()
    } else {
        let mut rows = s.rows;
        for &(t, r) in &s.placing {
            rows[r as usize] = Some(t);
        }
        rows.to_vec()
    };
    let best = (0..3)
        .flat_map(|r| rows.iter().map(move |&t| (r, t)))
        .map(|(r, t)| strength(set, u, t, r))
        .fold(0.0, f64::max);
    best / set.mean_strength.max(1e-9)
}

/// The face-down draft card: its true worth to the picker (who saw it), the mean card to the
/// chooser.
fn hidden_value(g: &Arte, p: Player) -> f64 {
    let Some(d) = &g.draft else { return 0.0 };
    let i = d.hidden.map_or(0, usize::from);
    match d.slots.get(i).copied().flatten() {
        Some(c) if g.sees_slot(Some(p), d, i) => draft_value(g, p, c),
        _ if d.kind == Kind::Units => 1.0,
        _ => {
            let q = &g.set.terrain_quality;
            q.iter().sum::<f64>() / q.len().max(1) as f64
        }
    }
}

/// Terrain `t` on row `r`: the best total strength of the own unit cards over the ways the
/// other terrain cards could fill the other free rows.
fn placement_value(g: &Arte, p: Player, t: Card, r: u8) -> f64 {
    let s = &g.sides[p];
    let mut rows = s.rows;
    for &(c, x) in &s.placing {
        rows[x as usize] = Some(c);
    }
    rows[r as usize] = Some(t);
    let rest: Vec<Card> = s
        .terrains
        .iter()
        .map(|h| h.card)
        .filter(|&c| c != t && !s.placing.iter().any(|&(x, _)| x == c))
        .collect();
    best_fill(g, p, rows, &rest)
}

fn best_fill(g: &Arte, p: Player, rows: [Option<Card>; 3], rest: &[Card]) -> f64 {
    let free: Vec<usize> = (0..3).filter(|&r| rows[r].is_none()).collect();
    match (rest.split_first(), free.is_empty()) {
        (Some((&t, more)), false) => free
            .iter()
            .map(|&r| {
                let mut next = rows;
                next[r] = Some(t);
                best_fill(g, p, next, more)
            })
            .fold(f64::NEG_INFINITY, f64::max),
        _ => {
            // Each held unit card on its best row, plus an average card on every row (what
            // the unit drafts may still bring).
            let set = &*g.set;
            let units: f64 = g.sides[p]
                .units
                .iter()
                .map(|h| {
                    let u = set.unit_card(h.card);
                    (0..3)
                        .map(|r| strength(set, u, rows[r], r))
                        .fold(0.0, f64::max)
                })
                .sum();
            let rows_q: f64 = rows
                .iter()
                .flatten()
                .filter_map(|&t| set.terrain_quality.get(t as usize))
                .sum();
            units + rows_q * set.mean_strength
        }
    }
}

/// The scores of the own card on `att` attacking each defence the opponent may choose.
fn defences(g: &Arte, p: Player, att: u8) -> Vec<(u32, u32)> {
    let set = &*g.set;
    let (a, d) = (&g.sides[p], &g.sides[1 - p]);
    let Some(ac) = a.field.get(att as usize).copied().flatten() else {
        return Vec::new();
    };
    let acard = set.unit_card(ac);
    (0..9u8)
        .filter_map(|x| {
            let dc = d.field.get(x as usize).copied().flatten()?;
            // AG-6.3, AG-6.4: unprotected cards, and against a purely ranged attack protected
            // cards holding ranged units.
            let may = !d.protected(x) || reaches_protected(acard, set.unit_card(dc));
            may.then(|| {
                let (s, t, _) = score_combat(set, g.opts.ranged_scoring, (a, ac, att), (d, dc, x));
                (s, t)
            })
        })
        .collect()
}

/// An attack that wins against every defence scores above 1 (the stronger, the better to
/// bank); one that some defence holds scores below -1, the weakest card least badly (a pass,
/// when allowed, is better).
fn attack_value(g: &Arte, p: Player, att: u8) -> f64 {
    let set = &*g.set;
    let s = &g.sides[p];
    let r = (att / 3) as usize;
    let own = s.field[att as usize].map_or(0.0, |c| strength(set, set.unit_card(c), s.rows[r], r));
    let rel = own / set.mean_strength.max(1e-9);
    let ds = defences(g, p, att);
    if ds.iter().all(|&(a, d)| a > d) {
        1.0 + ds
            .iter()
            .map(|&(a, d)| f64::from(a - d))
            .fold(f64::INFINITY, f64::min)
            * 0.01
    } else {
        -1.0 - rel
    }
}

/// Defending with the own card on `cell`: a holding defence (ties go to the defence) by the
/// weakest card that holds; else the weakest card.
fn defence_value(g: &Arte, p: Player, cell: u8) -> f64 {
    let Some(c) = g.combat else { return 0.0 };
    let Some(att) = c.attack else { return 0.0 };
    let set = &*g.set;
    let s = &g.sides[p];
    let r = (cell / 3) as usize;
    let own = s.field[cell as usize].map_or(0.0, |c| strength(set, set.unit_card(c), s.rows[r], r));
    let rel = own / set.mean_strength.max(1e-9);
    let holds = g.combat_scores(att, cell).is_some_and(|(a, d, _)| d >= a);
    if holds {
        10.0 - rel
    } else {
        -rel
    }
}
