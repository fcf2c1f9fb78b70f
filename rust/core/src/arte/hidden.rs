//! Determinization: a state consistent with one player's view, everything hidden from that
//! player redrawn (AG-9): the undrawn piles, the opponent's secret hand cards, draft cards the
//! player has not seen, the opponent's secret placements, deployments and sudden-death pick,
//! and the RNG (the coin toss still to come).

use super::cards::Card;
use super::state::{Arte, Kind, Phase};
use crate::game::Player;
use crate::rng::GameRng;

impl Arte {
    pub(super) fn resample(&self, p: Player, seed: u64) -> Arte {
        let mut g = self.clone();
        let q = 1 - p;
        let mut rng = GameRng::stream(seed, 0);
        g.rng = GameRng::stream(seed, 1);

        // Cards p cannot identify, per kind, are dealt again into the same places.
        for kind in [Kind::Terrain, Kind::Units] {
            let k = kind as usize;
            let unseen_slots: Vec<usize> = match &g.draft {
                Some(d) if d.kind == kind => (0..3)
                    .filter(|&i| d.slots[i].is_some() && !self.sees_slot(Some(p), d, i))
                    .collect(),
                _ => Vec::new(),
            };
            let mut pool: Vec<Card> = g.piles[k].clone();
            {
                let held = match kind {
                    Kind::Terrain => &g.sides[q].terrains,
                    Kind::Units => &g.sides[q].units,
                };
                pool.extend(held.iter().filter(|h| h.secret).map(|h| h.card));
            }
            if let Some(d) = &g.draft {
                pool.extend(unseen_slots.iter().filter_map(|&i| d.slots[i]));
            }
            rng.shuffle(&mut pool);
            let mut deal = pool.into_iter();
            for c in g.piles[k].iter_mut() {
                *c = deal.next().unwrap_or(*c);
            }
            let held = match kind {
                Kind::Terrain => &mut g.sides[q].terrains,
                Kind::Units => &mut g.sides[q].units,
            };
            for h in held.iter_mut().filter(|h| h.secret) {
                h.card = deal.next().unwrap_or(h.card);
            }
            if let Some(d) = &mut g.draft {
                for &i in &unseen_slots {
                    d.slots[i] = deal.next().or(d.slots[i]);
                }
            }
        }

        // The opponent's secret orders: which of its cards, and where.
        let s = &mut g.sides[q];
        if !s.placing.is_empty() {
            let mut cards: Vec<Card> = s.terrains.iter().map(|h| h.card).collect();
            let mut rows: Vec<u8> = (0..3u8).filter(|&r| s.rows[r as usize].is_none()).collect();
            rng.shuffle(&mut cards);
            rng.shuffle(&mut rows);
            let n = s.placing.len();
            s.placing = cards.into_iter().zip(rows).take(n).collect();
        }
        if !s.deploying.is_empty() {
            let mut cards: Vec<Card> = s.units.iter().map(|h| h.card).collect();
            let mut cells: Vec<u8> = (0..9u8)
                .filter(|&x| s.field[x as usize].is_none())
                .collect();
            rng.shuffle(&mut cards);
            rng.shuffle(&mut cells);
            let n = s.deploying.len();
            s.deploying = cards.into_iter().zip(cells).take(n).collect();
        }
        if g.phase == Phase::SuddenDeath && s.pick.is_some() {
            let rows = match g.opts.sudden_death_row {
                super::SuddenDeathRow::Chosen => 3,
                super::SuddenDeathRow::Front => 1,
            };
            if let Some(&c) = rng.choose(&s.victory) {
                s.pick = Some((c, rng.below(rows) as u8));
            }
        }
        g
    }
}
