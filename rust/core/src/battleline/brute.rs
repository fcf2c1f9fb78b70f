//! A brute-force claim checker for the tests: every completion of the opponent's side from
//! the pool, and every colour/value of every wild card, evaluated by the plain definition of
//! the formations ([`classify`]). Independent of the search in `formation.rs`.

use super::cards::Card;
use super::formation::{classify, Kind};

/// Every troop a card may stand for.
pub fn stand_ins(c: Card) -> Vec<Card> {
    match c {
        _ if c.is_troop() => vec![c],
        Card::CAVALRY => (0..6).map(|col| Card::troop(col, 8)).collect(),
        Card::SHIELD => (0..6)
            .flat_map(|col| (1..=3).map(move |v| Card::troop(col, v)))
            .collect(),
        _ => (0..60).map(Card).collect(), // Leaders
    }
}

pub fn strength(kind: Kind, total: u32, fog: bool) -> u16 {
    if fog {
        total as u16
    } else {
        (kind as u16) << 6 | total as u16
    }
}

/// The best strength of a complete side over all wild choices.
pub fn best_strength(cards: &[Card], fog: bool) -> u16 {
    let options: Vec<Vec<Card>> = cards.iter().map(|&c| stand_ins(c)).collect();
    let mut best = 0u16;
    let mut idx = vec![0usize; cards.len()];
    let mut resolved = vec![Card(0); cards.len()];
    loop {
        for (i, o) in options.iter().enumerate() {
            resolved[i] = o[idx[i]];
        }
        let (k, t) = classify(&resolved, fog);
        best = best.max(strength(k, t, fog));
        // Odometer increment.
        let mut i = 0;
        loop {
            if i == idx.len() {
                return best;
            }
            idx[i] += 1;
            if idx[i] < options[i].len() {
                break;
            }
            idx[i] = 0;
            i += 1;
        }
    }
}

fn combos(pool: &[Card], m: usize, start: usize, cur: &mut Vec<Card>, f: &mut impl FnMut(&[Card])) {
    if cur.len() == m {
        f(cur);
        return;
    }
    for i in start..pool.len() {
        cur.push(pool[i]);
        combos(pool, m, i + 1, cur, f);
        cur.pop();
    }
}

/// The best strength any completion of `fixed` to `size` cards from `pool` reaches.
pub fn best_completion_strength(
    fixed: &[Card],
    pool: &[Card],
    size: usize,
    fog: bool,
) -> Option<u16> {
    let m = size - fixed.len();
    let mut best: Option<u16> = None;
    let mut cur = Vec::new();
    combos(pool, m, 0, &mut cur, &mut |extra| {
        let mut all = fixed.to_vec();
        all.extend_from_slice(extra);
        let s = best_strength(&all, fog);
        best = Some(best.map_or(s, |b| b.max(s)));
    });
    best
}

/// Does the claim hold? By definition (BL-9.3 .. BL-9.6).
pub fn claim_holds(
    mine: &[Card],
    theirs: &[Card],
    pool: &[Card],
    fog: bool,
    mud: bool,
    mine_first: bool,
) -> bool {
    let size = if mud { 4 } else { 3 };
    let s = best_strength(mine, fog);
    if theirs.len() == size {
        let t = best_strength(theirs, fog);
        return s > t || (s == t && mine_first);
    }
    match best_completion_strength(theirs, pool, size, fog) {
        None => true,
        Some(t) => t <= s,
    }
}
