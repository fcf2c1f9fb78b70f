//! What a player sees: the view (`view`, JSON), determinization (`resample_hidden`), the
//! observation tensor and the text picture (`render`). Only what the player may see enters.
//! A player index other than 0 and 1 is an error here, never the other player.
//!
//! Observation layout (flat `f32` vector of [`OBS_LEN`] = 1707, "me" = the observing player):
//! - `[0, 1610)`: per card `c` (id 0..70, see `cards`), 23 one-hot location features at
//!   `c * 23 + k`: `k = 0` in my hand; `1` in the opponent's hand, known to me (Scout);
//!   `2 + f` on my side of flag `f`; `11 + f` on the opponent's side of flag `f`; `20` in the
//!   discard; `21` in a deck at a position I know (I put it there with Scout); `22` location
//!   unknown to me (opponent's hand or a deck).
//! - `[1610, 1682)`: per flag `f`, 8 features at `1610 + f * 8 + k`: `k = 0` claimed by me;
//!   `1` claimed by the opponent; `2` my side complete; `3` the opponent's side complete;
//!   `4` I completed first; `5` the opponent completed first; `6` I could claim it now (the
//!   proof holds); `7` the opponent could claim it now.
//! - `[1682, 1707)`: globals: `0` troop deck size / 60; `1` tactics deck size / 10; `2` my
//!   troops in hand / 7; `3` my tactics in hand / 7; `4` opponent's troops in hand / 7;
//!   `5` opponent's tactics in hand / 7; `6` tactics I played / 10; `7` tactics the
//!   opponent played / 10; `8` I played a Leader; `9` the opponent played a Leader; `10` I
//!   may play a tactics card (BL-6.1); `11` pass streak / 2 (capped at 1); `12..18` phase
//!   one-hot (play, claim, draw, scout_draw, scout_return, over); `18` Scout draws or
//!   returns left / 3; `19` Scout cards drawn / 3; `20` it is my decision; `21` flags I won
//!   / 5; `22` flags the opponent won / 5; `23` option claim_at_turn_start; `24` option
//!   traitor_troops_only.
//!
//! Every element is a whole count over a divisor (1 for the flags; [`GLOBAL_DIVISORS`] for
//! the globals), so the compact observation (`u8`, [`observation_divisors`]) holds the
//! counts and divides back to these floats exactly.

use super::cards::{cards_text, Card, CardSet};
use super::infer;
use super::state::*;
use crate::error::{Error, Result};
use crate::game::ObsValue;
use crate::rng::GameRng;
use serde_json::Value;
use std::fmt::Write;

pub const CARD_FEATURES: usize = 23;
pub const FLAG_FEATURES: usize = 8;
pub const GLOBAL_FEATURES: usize = 25;
pub const CARDS_OFFSET: usize = 0;
pub const FLAGS_OFFSET: usize = 70 * CARD_FEATURES;
pub const GLOBALS_OFFSET: usize = FLAGS_OFFSET + NUM_FLAGS * FLAG_FEATURES;
pub const OBS_LEN: usize = GLOBALS_OFFSET + GLOBAL_FEATURES;

/// The globals that count a player's troops and tactics cards in hand over 7 (`2..=5`):
/// during a Scout a hand holds 6 cards plus 3 drawn.
const HAND_COUNTS: std::ops::RangeInclusive<usize> = 2..=5;

/// The bounds of the observation ([`crate::Game::observation_bounds`]): every element is a
/// 0/1 flag or a count over its maximum, in [0, 1], except the hand counts, up to 9/7.
pub fn observation_bounds() -> crate::game::ObservationBounds {
    let low = vec![0.0; OBS_LEN];
    let mut high = vec![1.0; OBS_LEN];
    for k in HAND_COUNTS {
        if let Some(h) = high.get_mut(GLOBALS_OFFSET + k) {
            *h = 9.0 / 7.0;
        }
    }
    (low, high)
}

/// The divisor of each global feature (above): the feature is a whole count over it (1:
/// a flag). The compact observation (`obs_dtype="uint8"`) holds the counts.
pub const GLOBAL_DIVISORS: [u8; GLOBAL_FEATURES] = [
    60, 10, 7, 7, 7, 7, 10, 10, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 3, 3, 1, 5, 5, 1, 1,
];

/// The divisor of every element of the observation: 1 for the card and flag sections (all
/// flags), then [`GLOBAL_DIVISORS`].
pub fn observation_divisors() -> Vec<f32> {
    let mut d = vec![1.0; OBS_LEN];
    for (x, &g) in d[GLOBALS_OFFSET..].iter_mut().zip(&GLOBAL_DIVISORS) {
        *x = f32::from(g);
    }
    d
}

/// The card feature (`k` above) of each location (`loc`, `LOC_*`) for each observer; 23 for
/// none. A card in the opponent's hand or a deck is unknown (22) here: the writer moves the
/// few the observer knows (Scout) to 1 or 21.
const LOCATION_FEATURE: [[u8; 256]; 2] = [location_features(0), location_features(1)];

const fn location_features(me: usize) -> [u8; 256] {
    let mut t = [CARD_FEATURES as u8; 256];
    t[LOC_HAND as usize + me] = 0;
    t[LOC_HAND as usize + 1 - me] = 22;
    t[LOC_TROOP_DECK as usize] = 22;
    t[LOC_TACTICS_DECK as usize] = 22;
    t[LOC_DISCARD as usize] = 20;
    let mut f = 0;
    while f < NUM_FLAGS {
        t[loc_flag(f, me) as usize] = 2 + f as u8;
        t[loc_flag(f, 1 - me) as usize] = 11 + f as u8;
        f += 1;
    }
    t
}

impl BattleLine {
    /// Write `player`'s observation over the first [`OBS_LEN`] floats of `out`: every one
    /// of them is written (zeros included), so a reused buffer needs no clearing first.
    pub fn write_observation(&self, player: usize, out: &mut [f32]) -> Result<()> {
        self.write_observation_as(player, out)
    }

    /// The observation in `T`: floats, or (`u8`) the compact form, each element the whole
    /// count over its divisor ([`observation_divisors`]); one writer serves both.
    pub fn write_observation_as<T: ObsValue>(&self, player: usize, out: &mut [T]) -> Result<()> {
        let (me, op) = me_and_opponent(player)?;
        if out.len() < OBS_LEN {
            return Err(Error::invalid(format!(
                "observation buffer of {} elements, expected {OBS_LEN}",
                out.len()
            )));
        }
        // Every element is written (the card section cleared, then one feature set per
        // card), so reused buffers need no clearing by the caller.
        let cards = &mut out[CARDS_OFFSET..FLAGS_OFFSET];
        cards.fill(T::ZERO);
        // Each card's feature from its location alone (one table lookup per card), then the
        // few cards this player knows more of (Scout) moved from "unknown" (22).
        let feature = &LOCATION_FEATURE[me];
        for (row, &l) in cards.chunks_exact_mut(CARD_FEATURES).zip(&self.loc) {
            if let Some(x) = row.get_mut(feature[l as usize] as usize) {
                *x = T::ONE;
            }
        }
        let mut known = |c: Card, feat: usize| {
            let at = c.id() * CARD_FEATURES;
            if let Some(x) = cards.get_mut(at + 22) {
                *x = T::ZERO;
            }
            if let Some(x) = cards.get_mut(at + feat) {
                *x = T::ONE;
            }
        };
        let k = &self.known[me];
        for c in CardSet(self.hands[op].0 & k.opp_hand.0).iter() {
            known(c, 1);
        }
        for (d, deck) in [self.troop_deck.as_slice(), self.tactics_deck.as_slice()]
            .iter()
            .enumerate()
        {
            let mut at = k.deck_pos[d];
            while at != 0 {
                let i = at.trailing_zeros() as usize;
                at &= at - 1;
                if let Some(&c) = deck.get(i) {
                    known(c, 21);
                }
            }
        }
        let b = |x: bool| if x { T::ONE } else { T::ZERO };
        // `claim_proof(f, p)` holds, per flag: from the claim cache where it still stands.
        let holds = [self.claims_holding(0), self.claims_holding(1)];
        let rows = out[FLAGS_OFFSET..GLOBALS_OFFSET].chunks_exact_mut(FLAG_FEATURES);
        for ((f, fl), o) in self.flags.iter().enumerate().zip(rows) {
            o[0] = b(fl.claimed == Some(me as u8));
            o[1] = b(fl.claimed == Some(op as u8));
            o[2] = b(fl.is_complete(me));
            o[3] = b(fl.is_complete(op));
            o[4] = b(fl.first_complete == Some(me as u8));
            o[5] = b(fl.first_complete == Some(op as u8));
            o[6] = b(holds[me] >> f & 1 == 1);
            o[7] = b(holds[op] >> f & 1 == 1);
        }
        // The globals as whole counts (each at most 60), then over their divisors.
        let hand_split = |p: usize| {
            let t = self.hands[p].troops().count_ones() as u8;
            (t, self.hands[p].len() as u8 - t)
        };
        let (mt, ma) = hand_split(me);
        let (ot, oa) = hand_split(op);
        let mut c = [0u8; GLOBAL_FEATURES];
        c[0] = self.troop_deck.len() as u8;
        c[1] = self.tactics_deck.len() as u8;
        (c[2], c[3], c[4], c[5]) = (mt, ma, ot, oa);
        c[6] = self.tactics_played[me];
        c[7] = self.tactics_played[op];
        c[8] = u8::from(self.leader_played[me]);
        c[9] = u8::from(self.leader_played[op]);
        c[10] = u8::from(self.tactics_played[me] <= self.tactics_played[op]);
        c[11] = self.pass_streak.min(2);
        let ph = match self.phase {
            Phase::Play => 0,
            Phase::Claim => 1,
            Phase::Draw => 2,
            Phase::ScoutDraw => 3,
            Phase::ScoutReturn => 4,
            Phase::Over => 5,
        };
        c[12 + ph] = 1;
        c[18] = self.scout_left;
        c[19] = self.scout_drawn;
        c[20] = u8::from(self.phase != Phase::Over && self.to_move as usize == me);
        let won = self.flags_won();
        c[21] = won[me];
        c[22] = won[op];
        c[23] = u8::from(self.options.claim_at_turn_start);
        c[24] = u8::from(self.options.traitor_troops_only);
        for ((o, &n), &d) in out[GLOBALS_OFFSET..OBS_LEN]
            .iter_mut()
            .zip(&c)
            .zip(&GLOBAL_DIVISORS)
        {
            *o = T::ratio(n, d);
        }
        Ok(())
    }

    /// A text picture; `Some(p)` shows only what `p` sees.
    pub fn render_text(&self, player: Option<usize>) -> Result<String> {
        if let Some(p) = player {
            me_and_opponent(p)?;
        }
        let mut s = String::new();
        let status = match self.phase {
            Phase::Over => match self.winner {
                Some(w) => format!("game over: player {w} wins"),
                None => "game over: drawn".to_string(),
            },
            ph => format!(
                "player {} to move ({} step)",
                self.to_move,
                ph.name().replace('_', " ")
            ),
        };
        let won = self.flags_won();
        let _ = writeln!(s, "Battle Line: {status}; flags won {}-{}", won[0], won[1]);
        let _ = writeln!(
            s,
            "troop deck {}, tactics deck {}; tactics played {}-{}; pass streak {}",
            self.troop_deck.len(),
            self.tactics_deck.len(),
            self.tactics_played[0],
            self.tactics_played[1],
            self.pass_streak
        );
        for p in 0..2 {
            let hand = self.hands[p];
            let shown = match player {
                Some(v) if v != p => {
                    let known = CardSet(hand.0 & self.known[v].opp_hand.0);
                    let mut items: Vec<String> = known.iter().map(|c| c.to_string()).collect();
                    let t =
                        hand.troops().count_ones() as usize - known.troops().count_ones() as usize;
                    let a = hand.len() - known.len() - t;
                    items.extend(std::iter::repeat_n("?troop".to_string(), t));
                    items.extend(std::iter::repeat_n("?tactics".to_string(), a));
                    items.join(" ")
                }
                _ => cards_text(&hand.iter().collect::<Vec<_>>()),
            };
            let _ = writeln!(s, "player {p} hand ({}): {shown}", hand.len());
        }
        let _ = writeln!(
            s,
            "flag | player 0          | player 1          | beside the flag"
        );
        for (f, fl) in self.flags.iter().enumerate() {
            let side = |p: usize| {
                let mut t = cards_text(fl.side(p));
                for _ in fl.len[p] as usize..fl.capacity() {
                    t.push_str(if t.is_empty() { "." } else { " ." });
                }
                t
            };
            let mut notes = Vec::new();
            if let Some(w) = fl.claimed {
                notes.push(format!("won by player {w}"));
            }
            if let Some(p) = fl.fog {
                notes.push(format!("Fog (player {p})"));
            }
            if let Some(p) = fl.mud {
                notes.push(format!("Mud (player {p})"));
            }
            if let (Some(p), None) = (fl.first_complete, fl.claimed) {
                notes.push(format!("player {p} completed first"));
            }
            let _ = writeln!(
                s,
                "  {f}  | {:<17} | {:<17} | {}",
                side(0),
                side(1),
                notes.join("; ")
            );
        }
        let _ = writeln!(s, "discard: {}", cards_text(self.discard.as_slice()));
        if let Some(v) = player {
            let k = &self.known[v];
            let mut tops = Vec::new();
            for (name, cards, mask) in [
                ("troop", self.troop_deck.as_slice(), k.deck_pos[0]),
                ("tactics", self.tactics_deck.as_slice(), k.deck_pos[1]),
            ] {
                for (i, c) in cards.iter().enumerate() {
                    if mask >> i & 1 == 1 {
                        tops.push(format!(
                            "{c} at {name} deck position {}",
                            cards.len() - 1 - i
                        ));
                    }
                }
            }
            if !tops.is_empty() {
                let _ = writeln!(s, "you know (Scout, 0 = top): {}", tops.join(", "));
            }
        }
        Ok(s)
    }

    /// `player`'s view: the opponent's hand and the deck order hidden (`null`), except what
    /// `player` put on the decks with Scout and those cards once the opponent drew them.
    pub fn view_value(&self, player: usize) -> Result<Value> {
        me_and_opponent(player)?;
        serde_json::to_value(self.state_data(Some(player)))
            .map_err(|e| Error::invalid(format!("view: {e}")))
    }

    /// A state consistent with `player`'s view, every card hidden from them redrawn
    /// uniformly. It is a function of that view and `seed` alone: two states `player` cannot
    /// tell apart give the same result.
    ///
    /// Uniform since issue 14's twenty-seventh round: the reading of the opponent's last troop
    /// play ([`infer`], the default of rounds 17–26) knows little of its hand (a Brier skill
    /// of 2.7% of what the true hand tells), and without it ISMCTS@1000 scored 1,667 of 2,400
    /// fresh games against Greedy where it scored 1,608 (+2.5 points), at 0.97 times the
    /// instructions an iteration (research/issue-14-round27.md). The reading stays as
    /// [`BattleLine::resample_with`].
    pub fn resample(&self, player: usize, seed: u64) -> Result<BattleLine> {
        self.resample_with(player, seed, None)
    }

    /// [`BattleLine::resample`] with the opponent's hand weighted by its last troop play
    /// ([`infer`]) under `inference` ([`infer::SETTINGS`]), or drawn
    /// uniformly (`None`, what `resample` does). Still a function of the view (the last plays
    /// are public) and `seed` alone.
    pub fn resample_with(
        &self,
        player: usize,
        seed: u64,
        inference: Option<infer::InferSettings>,
    ) -> Result<BattleLine> {
        let (p, o) = me_and_opponent(player)?;
        let mut g = self.clone();
        let k = self.known[p];
        let mut rng = GameRng::seed(seed);
        let known_opp = CardSet(self.hands[o].0 & k.opp_hand.0);
        let hidden_hand = CardSet(self.hands[o].0 & !known_opp.0);
        let mut troops: Vec<Card> = Vec::new();
        let mut tactics: Vec<Card> = Vec::new();
        for c in hidden_hand.iter() {
            if c.is_troop() {
                troops.push(c);
            } else {
                tactics.push(c);
            }
        }
        for (i, &c) in self.troop_deck.as_slice().iter().enumerate() {
            if k.deck_pos[0] >> i & 1 == 0 {
                troops.push(c);
            }
        }
        for (i, &c) in self.tactics_deck.as_slice().iter().enumerate() {
            if k.deck_pos[1] >> i & 1 == 0 {
                tactics.push(c);
            }
        }
        // Sorted before the shuffle, so the draw depends on the view and the seed alone, not
        // on where the hidden cards really are (else a seeded agent's move would).
        troops.sort_unstable();
        tactics.sort_unstable();
        let n_troops = hidden_hand.troops().count_ones() as usize;
        let table = inference.and_then(|s| Some((s, infer::play_table(self, o, s.beta)?)));
        match table {
            Some((s, t)) if n_troops > 0 && n_troops < troops.len() => {
                // K hands drawn (each the first `n_troops` of a partial shuffle on its own
                // stream), one chosen by the likelihood of the opponent's last play; the
                // chosen stream then shuffles the rest into the deck.
                let base = rng.next_u64();
                let draw = |k: usize, cards: &mut [Card]| {
                    let mut r = GameRng::stream(base, k as u64);
                    for i in 0..n_troops {
                        let j = i + r.below(cards.len() - i);
                        cards.swap(i, j);
                    }
                    r
                };
                let known = known_opp.troops();
                let mut weights = [0.0f64; 64];
                let k_max = s.pool.min(weights.len());
                let mut scratch = troops.clone();
                for (k, w) in weights.iter_mut().enumerate().take(k_max) {
                    scratch.copy_from_slice(&troops);
                    draw(k, &mut scratch);
                    let hand = scratch[..n_troops]
                        .iter()
                        .fold(known, |m, c| m | 1u64 << c.0);
                    *w = infer::hand_weight(&t, hand);
                }
                let total: f64 = weights[..k_max].iter().sum();
                let mut x = rng.unit() * total;
                let mut chosen = k_max - 1;
                for (k, &w) in weights[..k_max].iter().enumerate() {
                    if x < w {
                        chosen = k;
                        break;
                    }
                    x -= w;
                }
                let mut r = draw(chosen, &mut troops);
                r.shuffle(&mut troops[n_troops..]);
            }
            _ => rng.shuffle(&mut troops),
        }
        rng.shuffle(&mut tactics);
        let n_tactics = hidden_hand.len() - n_troops;
        let mut hand = known_opp;
        let mut ti = troops.into_iter();
        let mut ai = tactics.into_iter();
        for _ in 0..n_troops {
            if let Some(c) = ti.next() {
                hand.insert(c);
            }
        }
        for _ in 0..n_tactics {
            if let Some(c) = ai.next() {
                hand.insert(c);
            }
        }
        g.hands[o] = hand;
        for (i, slot) in g.troop_deck.as_mut_slice().iter_mut().enumerate() {
            if k.deck_pos[0] >> i & 1 == 0 {
                if let Some(c) = ti.next() {
                    *slot = c;
                }
            }
        }
        for (i, slot) in g.tactics_deck.as_mut_slice().iter_mut().enumerate() {
            if k.deck_pos[1] >> i & 1 == 0 {
                if let Some(c) = ai.next() {
                    *slot = c;
                }
            }
        }
        g.rebuild();
        Ok(g)
    }
}
