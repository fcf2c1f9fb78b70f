//! The heuristic evaluation (`Game::evaluate`): a value in [-1, 1] for one player from what
//! that player sees (AG-9), used by the greedy and ISMCTS agents.

use super::cards::{Card, CardSet};
use super::combat::card_score;
use super::notation::Action;
use super::rules::score_combat;
use super::state::{Arte, Kind, Phase, Side, Stage};
use crate::game::{Game, Player};

impl Arte {
    /// The heuristic value for `p` in [-1, 1], from what `p` sees: the victory-pile lead,
    /// plus the strength of the cards each player holds and fields (each card as its mean
    /// attack and defence score on its best row, relative to the set's mean; before the
    /// terrain is placed, under the placement of the held terrain cards that suits the hand
    /// best), with an attack in progress valued as the defender's best answer.
    pub(super) fn heuristic(&self, p: Player) -> f64 {
        if self.phase == Phase::Over {
            return self.returns()[p];
        }
        if let Some(c) = self.combat {
            if let Some(att) = c.attack {
                return self.value_of_attack(p, c.attacker, att);
            }
        }
        let q = 1 - p;
        let mut lead = self.sides[p].victory.len() as f64 - self.sides[q].victory.len() as f64;
        if self.phase == Phase::SuddenDeath {
            lead += self.sudden_death_edge(p);
        }
        let mine = self.layouts(&self.sides[p], true);
        let theirs = self.layouts(&self.sides[q], false);
        let mut strength =
            self.side_strength(p, true, &mine) - self.side_strength(q, false, &theirs);
        strength += self.draft_edge(p, [&mine, &theirs]);
        (0.5 * (lead + 0.25 * strength)).tanh()
    }

    /// For measuring (example `arte_draft`): player `p`'s phase-independent picture, in
    /// mean cards: the strength of its unit cards in hand on their best rows, of its cards on
    /// the field on their rows, and its victory-pile size; plus the round (0 before the first)
    /// and whether the deployment is in progress. Reads hidden cards: not for agents.
    pub fn strength_picture(&self, p: Player) -> ([f64; 2], usize, u8, bool) {
        let set = &*self.set;
        let s = &self.sides[p];
        let mean = set.mean_strength.max(1e-9);
        let hand = self.hand_strengths(p).sum();
        let field = (0..9usize)
            .filter_map(|x| s.field[x].map(|c| (x / 3, c)))
            .map(|(r, c)| set.card_strength(c, s.rows[r], r) / mean)
            .sum();
        (
            [hand, field],
            s.victory.len(),
            self.round,
            self.phase == Phase::Deploy,
        )
    }

    /// For measuring: the strength of player `p`'s three strongest unit cards in hand on
    /// their best rows, in mean cards (the heuristic player's formation). Reads hidden cards.
    pub fn best_three(&self, p: Player) -> f64 {
        let mut v: Vec<f64> = self.hand_strengths(p).collect();
        v.sort_by(|a, b| b.total_cmp(a));
        v.iter().take(3).sum()
    }

    /// For measuring (example `arte_choices`): the draft in progress, if any: whether it is a
    /// unit draft, its stage (0 hide, 1 choose, 2 keep), its slots and the face-down slot.
    /// Reads hidden cards: not for agents.
    pub fn draft_picture(&self) -> Option<DraftPicture> {
        let d = self.draft.as_ref()?;
        let stage = match d.stage() {
            Stage::Hide => 0,
            Stage::Choose => 1,
            Stage::Keep => 2,
        };
        Some((d.kind == Kind::Units, stage, d.slots, d.hidden))
    }

    /// For measuring: unit card `card` at its best row of player `p`'s rows, in mean cards.
    pub fn card_worth(&self, p: Player, card: Card) -> f64 {
        let set = &*self.set;
        best_row(set, card, &self.sides[p].rows) / set.mean_strength.max(1e-9)
    }

    /// Each unit card in player `p`'s hand at its best row of the rows placed so far, in
    /// mean cards (the measuring accessors' reading; `unit_value` is the search's).
    fn hand_strengths(&self, p: Player) -> impl Iterator<Item = f64> + '_ {
        let set = &*self.set;
        let s = &self.sides[p];
        let mean = set.mean_strength.max(1e-9);
        s.units
            .iter()
            .map(move |h| best_row(set, h.card, &s.rows) / mean)
    }

    /// The value a unit card would add to the hand laid out as `lay` (one side's): its best
    /// row under the terrain arrangement that then suits the whole hand best, less the hand's
    /// best without it; in units of the set's mean card.
    fn unit_value(&self, lay: &Layouts, card: Card) -> f64 {
        let set = &*self.set;
        let mean = set.mean_strength.max(1e-9);
        let with = (0..lay.n)
            .map(|a| lay.hand[a] + best_row(set, card, &lay.rows[a]) / mean)
            .fold(f64::NEG_INFINITY, f64::max);
        with - lay.best()
    }

    /// A draft in progress, valued for `p` (mine minus theirs) as the cards will
    /// probably go: the chooser takes the best face-up card unless the face-down one is worth
    /// more on average (what the chooser can know), the picker then the better of the rest.
    /// A face-down card `p` cannot see counts as an average card.
    /// `lay`: the layouts of `p`'s side and of the other's.
    fn draft_edge(&self, p: Player, lay: [&Layouts; 2]) -> f64 {
        let Some(d) = &self.draft else { return 0.0 };
        if d.stage() == Stage::Hide {
            return 0.0;
        }
        let unseen = match d.kind {
            Kind::Units => 1.0,
            Kind::Terrain => self.average_terrain(),
        };
        let (picker, chooser) = (d.picker, d.chooser());
        let sign = |s: Player| if s == p { 1.0 } else { -1.0 };
        // A card's value to side `s`, as far as `p` knows (None: the face-down card unseen).
        let value = |s: Player, i: usize| -> f64 {
            match d.slots[i] {
                Some(c) if self.sees_slot(Some(p), d, i) => match d.kind {
                    Kind::Units => self.unit_value(lay[usize::from(s != p)], c),
                    Kind::Terrain => self.set.terrain_quality[c as usize],
                },
                _ => unseen,
            }
        };
        let open: Vec<usize> = (0..3).filter(|&i| d.slots[i].is_some()).collect();
        match d.stage() {
            Stage::Choose => {
                // The chooser sees the face-up cards only; the face-down one is average to it.
                let shown: Vec<usize> = open
                    .iter()
                    .copied()
                    .filter(|&i| d.hidden != Some(i as u8))
                    .collect();
                let best_shown = shown
                    .iter()
                    .copied()
                    .max_by(|&a, &b| value(chooser, a).total_cmp(&value(chooser, b)));
                let take = match (best_shown, d.hidden) {
                    (Some(b), Some(h)) if value(chooser, b) < unseen => h as usize,
                    (Some(b), _) => b,
                    (None, Some(h)) => h as usize,
                    (None, None) => return 0.0,
                };
                let rest = open
                    .iter()
                    .filter(|&&i| i != take)
                    .map(|&i| value(picker, i))
                    .fold(0.0, f64::max);
                sign(chooser) * value(chooser, take) + sign(picker) * rest
            }
            Stage::Keep => {
                let best = open.iter().map(|&i| value(picker, i)).fold(0.0, f64::max);
                sign(picker) * best
            }
            Stage::Hide => 0.0,
        }
    }

    /// The strength of a side's cards in hand and on the field, in units of the set's mean
    /// card; `known`: the side's owner is evaluating (its secret cards and orders count);
    /// `lay`: its layouts (`layouts`), whose best arrangement values the cards in hand.
    fn side_strength(&self, p: Player, known: bool, lay: &Layouts) -> f64 {
        let set = &*self.set;
        let s = &self.sides[p];
        let mean = set.mean_strength.max(1e-9);
        let rows = lay.rows[lay.top];
        let mut total = 0.0;
        if lay.n > 1 {
            // Terrain still to place: the hand (no card is on the field or ordered yet) as
            // the best arrangement lays it out, secret cards unseen counting as average.
            total += lay.hand[lay.top];
            total += s.units.iter().filter(|h| h.secret && !known).count() as f64;
        } else {
            for h in &s.units {
                if h.secret && !known {
                    total += 1.0;
                    continue;
                }
                // Cards ordered onto the field (own secret deployment) count where they go.
                let placed = if known {
                    s.deploying
                        .iter()
                        .find(|(c, _)| *c == h.card)
                        .map(|&(_, x)| x)
                } else {
                    None
                };
                let value = match placed {
                    Some(x) => set.card_strength(h.card, rows[(x / 3) as usize], (x / 3) as usize),
                    None => best_row(set, h.card, &rows),
                };
                total += value / mean;
            }
        }
        for x in 0..9u8 {
            if let Some(c) = s.field[x as usize] {
                let r = (x / 3) as usize;
                total += set.card_strength(c, rows[r], r) / mean;
            }
        }
        // Terrain cards, by how much they lift an average card (what matters while no unit
        // card is held yet); unseen ones count as average.
        let average = self.average_terrain();
        for h in &s.terrains {
            total += if h.secret && !known {
                average
            } else {
                set.terrain_quality[h.card as usize]
            };
        }
        for t in s.rows.iter().flatten() {
            total += set.terrain_quality[*t as usize];
        }
        total
    }

    fn average_terrain(&self) -> f64 {
        let q = &self.set.terrain_quality;
        q.iter().sum::<f64>() / q.len().max(1) as f64
    }

    /// The ways a side's rows may end up, as the evaluator knows them: the rows (placed, or
    /// ordered by the owner when `known`), each row still free taking one of the held terrain
    /// cards the evaluator sees (a row left for an unseen card counts as bare), in every
    /// arrangement; with the strength of the visible unit cards in hand, each on its best row,
    /// under each arrangement (in mean cards). One arrangement once the rows are known.
    fn layouts(&self, s: &Side, known: bool) -> Layouts {
        let set = &*self.set;
        let mut rows = s.rows;
        if known {
            for &(t, r) in &s.placing {
                rows[r as usize] = Some(t);
            }
        }
        let mut lay = Layouts {
            rows: [rows; 6],
            hand: [0.0; 6],
            n: 1,
            top: 0,
        };
        let (mut free, mut f) = ([0usize; 3], 0);
        for (r, t) in rows.iter().enumerate() {
            if t.is_none() {
                free[f] = r;
                f += 1;
            }
        }
        let free = &free[..f];
        let mut rest = [None; 3];
        let mut k = 0;
        for h in &s.terrains {
            if k < f && (known || !h.secret) && !rows.contains(&Some(h.card)) {
                rest[k] = Some(h.card);
                k += 1;
            }
        }
        if k > 0 {
            // Every order of the free rows' cards (`rest`, bare rows padded with `None`).
            const ORDERS: [[usize; 3]; 6] = [
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0],
            ];
            lay.n = if f == 1 { 1 } else { 6 };
            for (a, order) in ORDERS.iter().take(lay.n).enumerate() {
                for (j, &r) in free.iter().enumerate() {
                    lay.rows[a][r] = rest[order[j]];
                }
            }
        }
        if lay.n > 1 {
            let mean = set.mean_strength.max(1e-9);
            for a in 0..lay.n {
                lay.hand[a] = s
                    .units
                    .iter()
                    .filter(|h| known || !h.secret)
                    .map(|h| best_row(set, h.card, &lay.rows[a]) / mean)
                    .sum();
            }
            lay.top = (0..lay.n)
                .max_by(|&a, &b| lay.hand[a].total_cmp(&lay.hand[b]))
                .unwrap_or(0);
        }
        lay
    }

    /// An attack is pending: value it as resolved by the defender's best answer (a winning
    /// defence if there is one, with the weakest card that wins; else the weakest card).
    fn value_of_attack(&self, p: Player, attacker: Player, att: u8) -> f64 {
        let set = &*self.set;
        let d = 1 - attacker;
        let mut best: Option<(bool, f64, u8)> = None;
        let mut legal = Vec::new();
        self.legal(&mut legal);
        for a in legal {
            let Action::Defend(x) = a else { continue };
            let (Some(ac), Some(dc)) = (
                self.sides[attacker].field[att as usize],
                self.sides[d].field[x as usize],
            ) else {
                continue;
            };
            let (at, de, _) = score_combat(
                set,
                self.opts.ranged_scoring,
                (&self.sides[attacker], ac, att),
                (&self.sides[d], dc, x),
            );
            let wins = de >= at;
            let r = (x / 3) as usize;
            let cost = set.card_strength(dc, self.sides[d].rows[r], r);
            let better = match best {
                None => true,
                Some((bw, bc, _)) => (wins && !bw) || (wins == bw && cost < bc),
            };
            if better {
                best = Some((wins, cost, x));
            }
        }
        let Some((_, _, x)) = best else { return 0.0 };
        let mut g = self.clone();
        if crate::game::Game::apply(&mut g, Action::Defend(x)).is_err() {
            return 0.0;
        }
        g.heuristic(p)
    }

    /// In sudden death, before the result: for the attacker who has picked, the share of the
    /// defender's possible answers its card beats (as an edge in -1..1); else 0.
    fn sudden_death_edge(&self, p: Player) -> f64 {
        let att = self.sd_attacker();
        if p != att {
            return 0.0;
        }
        let Some((c, r)) = self.sides[att].pick else {
            return 0.0;
        };
        let set = &*self.set;
        let s = &self.sides[att];
        let t = s.rows[r as usize].map(|t| set.terrain_card(t));
        let attack = card_score(set.unit_card(c), t, r as usize, true, false);
        let d = &self.sides[1 - att];
        let rows = match self.opts.sudden_death_row {
            super::SuddenDeathRow::Chosen => 3,
            super::SuddenDeathRow::Front => 1,
        };
        let (mut beaten, mut all) = (0u32, 0u32);
        for &dc in &d.victory {
            for dr in 0..rows {
                let t = d.rows[dr].map(|t| set.terrain_card(t));
                all += 1;
                beaten += u32::from(attack > card_score(set.unit_card(dc), t, dr, false, false));
            }
        }
        if all == 0 {
            0.0
        } else {
            2.0 * f64::from(beaten) / f64::from(all) - 1.0
        }
    }
}

/// A draft as `Arte::draft_picture` shows it: unit draft?, stage, slots, face-down slot.
pub type DraftPicture = (bool, u8, [Option<Card>; 3], Option<u8>);

/// A side's possible row arrangements (`Arte::layouts`): the first `n` of `rows`, with the
/// strength of the hand under each (`hand`, filled when `n > 1`) and the best one (`top`).
struct Layouts {
    rows: [[Option<Card>; 3]; 6],
    hand: [f64; 6],
    n: usize,
    top: usize,
}

impl Layouts {
    /// The hand's strength under its best arrangement (0 when there is only one: then the
    /// cards are valued by `side_strength` directly).
    fn best(&self) -> f64 {
        self.hand[self.top]
    }
}

/// Unit card `c`'s strength on the best of the three rows (their terrain cards `rows`).
fn best_row(set: &CardSet, c: Card, rows: &[Option<Card>; 3]) -> f64 {
    (0..3)
        .map(|r| set.card_strength(c, rows[r], r))
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arte::state::Held;
    use crate::arte::tests::opts;

    /// The table behind `CardSet::card_strength` holds `combat::strength` (AG-4) for every
    /// unit card, terrain card or none, and row.
    #[test]
    fn ag_4_card_strength_table_matches_the_scores() {
        let set = CardSet::reference();
        let nt = set.num_terrain();
        for c in nt..set.len() {
            for t in std::iter::once(None).chain((0..nt).map(Some)) {
                for r in 0..3 {
                    let u = set.unit_card(c as Card);
                    let t = t.map(|t| t as Card);
                    let want = super::super::combat::strength(&set, u, t, r);
                    assert_eq!(set.card_strength(c as Card, t, r), want);
                }
            }
        }
    }

    fn held(card: Card) -> Held {
        Held {
            card,
            secret: false,
        }
    }

    /// During the draft a hand is valued as the held terrain cards would best be placed
    /// (AG-3.2: one terrain card per row), each unit card on its best row (AG-4): not with
    /// the best terrain card on every row. A card on offer is worth what it adds to that.
    #[test]
    fn ag_3_2_a_hand_is_valued_under_the_best_placement_of_its_terrain() {
        // The rules tests' set: T1 Plain (C3 G2), T2 Forest (A3 G2), T3 Peak (M3 A2); U3 AA,
        // U4 M, U8 C.
        let mut g = Arte::setup(1, &opts()).unwrap();
        let mean = g.set.mean_strength;
        let nt = g.set.num_terrain() as Card;
        let (c, m, aa) = (nt + 7, nt + 3, nt + 2);
        g.sides[0].terrains = (0..3).map(held).collect();
        g.sides[0].units = vec![held(c), held(m)];
        let lay = g.layouts(&g.sides[0], true);
        assert_eq!(lay.n, 6);
        // C on Plain in row 1 (attack 3 + 1, defence 3), M on Peak (3): 6.5.
        assert!((lay.best() * mean - 6.5).abs() < 1e-9);
        assert_eq!(lay.rows[lay.top][0], Some(0));
        // AA is worth 7 on Forest in row 3 (attack 2 × (3 + 1), defence 6), which the best
        // placement of the three leaves free: it adds 7.
        assert!((g.unit_value(&lay, aa) * mean - 7.0).abs() < 1e-9);
        // The opponent's face-down terrain card leaves its row bare to the other player.
        g.sides[1].terrains = vec![
            held(0),
            Held {
                card: 1,
                secret: true,
            },
            held(2),
        ];
        g.sides[1].units = vec![held(aa)];
        let seen = g.layouts(&g.sides[1], false);
        assert!(
            (seen.best() * mean - 5.0).abs() < 1e-9,
            "AA on Peak: 2 × 2 + 2, 4"
        );
        let own = g.layouts(&g.sides[1], true);
        assert!((own.best() * mean - 7.0).abs() < 1e-9);
        // Once the rows are placed there is one arrangement: the rows.
        g.sides[0].rows = [Some(0), Some(1), Some(2)];
        g.sides[0].terrains.clear();
        assert_eq!(g.layouts(&g.sides[0], true).n, 1);
    }
}
