//! "Lanes", a small two-player card game with hidden hands and a shuffled deck, used only by
//! the agents' tests (real games arrive through the registry).
//!
//! 18 cards: values 1-6 in suits R, G, B. Each player holds 3 cards, hidden from the other,
//! and owns one side of 3 lanes (3 cards a side). A turn: play a hand card to one of your
//! lanes with room, or discard it, then draw a card from the deck (a chance event, from the
//! game's RNG) while it lasts. After 18 turns every card is used. A side scores the sum of its cards, +10 for
//! three of one suit (a flush); the higher score takes the lane, and the player with more
//! lanes wins (equal: a draw). `evaluate` looks at sums only, so it misses flushes on purpose:
//! a searching agent should beat the greedy one.

use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

pub const CARDS: usize = 18;
pub const LANES: usize = 3;
const HAND: usize = 3;
const SUITS: [char; 3] = ['R', 'G', 'B'];

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanesOptions {}

/// Play `card` to `lane`; lane `LANES` discards it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    pub card: u8,
    pub lane: u8,
}

const SLOTS: usize = LANES + 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lanes {
    hands: [Vec<u8>; 2],
    deck: Vec<u8>,
    lanes: [[Vec<u8>; LANES]; 2],
    to_move: usize,
    rng: GameRng,
    #[serde(skip)]
    options: LanesOptions,
}

fn value(card: u8) -> i32 {
    i32::from(card % 6) + 1
}
fn suit(card: u8) -> u8 {
    card / 6
}
fn card_text(card: u8) -> String {
    format!("{}{}", SUITS[usize::from(suit(card))], value(card))
}

impl Lanes {
    fn draw(&mut self, player: usize) {
        if !self.deck.is_empty() {
            let i = self.rng.below(self.deck.len());
            let c = self.deck.remove(i);
            self.hands[player].push(c);
            self.hands[player].sort_unstable();
        }
    }
    fn side_score(cards: &[u8]) -> i32 {
        let sum: i32 = cards.iter().map(|&c| value(c)).sum();
        let flush = cards.len() == 3 && cards.iter().all(|&c| suit(c) == suit(cards[0]));
        sum + if flush { 10 } else { 0 }
    }
    fn lanes_won(&self) -> [usize; 2] {
        let mut won = [0; 2];
        for l in 0..LANES {
            let a = Self::side_score(&self.lanes[0][l]);
            let b = Self::side_score(&self.lanes[1][l]);
            if a > b {
                won[0] += 1;
            } else if b > a {
                won[1] += 1;
            }
        }
        won
    }
    fn finished(&self) -> bool {
        self.deck.is_empty() && self.hands.iter().all(Vec::is_empty)
    }
}

impl Game for Lanes {
    type Action = Play;
    type Options = LanesOptions;
    const NAME: &'static str = "lanes";

    fn new(seed: u64, _options: &LanesOptions) -> Result<Self> {
        let mut g = Lanes {
            hands: [Vec::new(), Vec::new()],
            deck: (0..CARDS as u8).collect(),
            lanes: Default::default(),
            to_move: 0,
            rng: GameRng::seed(seed),
            options: LanesOptions {},
        };
        for _ in 0..HAND {
            g.draw(0);
            g.draw(1);
        }
        Ok(g)
    }
    fn options(&self) -> &LanesOptions {
        &self.options
    }
    fn num_players(&self) -> usize {
        2
    }
    fn current_player(&self) -> Option<Player> {
        (!self.finished()).then_some(self.to_move)
    }
    fn legal_actions(&self, out: &mut Vec<Play>) {
        out.clear();
        if self.finished() {
            return;
        }
        let p = self.to_move;
        for &card in &self.hands[p] {
            for lane in 0..SLOTS {
                if lane == LANES || self.lanes[p][lane].len() < 3 {
                    out.push(Play {
                        card,
                        lane: lane as u8,
                    });
                }
            }
        }
    }
    fn check(&self, a: Play) -> Result<()> {
        let p = self.to_move;
        if self.finished() {
            return Err(Error::illegal("L-1", "the game is over"));
        }
        let lane = usize::from(a.lane);
        if lane > LANES || (lane < LANES && self.lanes[p][lane].len() >= 3) {
            return Err(Error::illegal("L-2", "that lane is full"));
        }
        if !self.hands[p].contains(&a.card) {
            return Err(Error::illegal(
                "L-3",
                format!("{} is not in hand", card_text(a.card)),
            ));
        }
        Ok(())
    }
    fn apply_unchecked(&mut self, a: Play) {
        let p = self.to_move;
        if let Some(i) = self.hands[p].iter().position(|&c| c == a.card) {
            self.hands[p].remove(i);
        }
        let lane = usize::from(a.lane);
        if lane < LANES {
            self.lanes[p][lane].push(a.card);
        }
        self.draw(p);
        self.to_move = 1 - p;
    }
    fn winner(&self) -> Option<Player> {
        if !self.finished() {
            return None;
        }
        let w = self.lanes_won();
        match w[0].cmp(&w[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }
    fn num_actions(&self) -> usize {
        CARDS * SLOTS
    }
    fn action_id(&self, a: Play) -> usize {
        usize::from(a.card) * SLOTS + usize::from(a.lane)
    }
    fn action_from_id(&self, id: usize) -> Option<Play> {
        (id < CARDS * SLOTS).then_some(Play {
            card: (id / SLOTS) as u8,
            lane: (id % SLOTS) as u8,
        })
    }
    fn action_notation(&self, a: Play) -> String {
        if usize::from(a.lane) == LANES {
            format!("{}@x", card_text(a.card))
        } else {
            format!("{}@{}", card_text(a.card), a.lane)
        }
    }
    fn parse_action(&self, text: &str) -> Result<Play> {
        let bad = || Error::notation(text, "expected like R5@1");
        let (c, l) = text.split_once('@').ok_or_else(bad)?;
        let mut chars = c.chars();
        let s = chars
            .next()
            .and_then(|s| SUITS.iter().position(|&x| x == s));
        let v: Option<u8> = chars.as_str().parse().ok();
        let lane: Option<u8> = if l == "x" {
            Some(LANES as u8)
        } else {
            l.parse().ok()
        };
        match (s, v, lane) {
            (Some(s), Some(v @ 1..=6), Some(lane)) if usize::from(lane) <= LANES => Ok(Play {
                card: s as u8 * 6 + v - 1,
                lane,
            }),
            _ => Err(bad()),
        }
    }
    fn action_json(&self, a: Play) -> Value {
        json!({"card": card_text(a.card), "lane": a.lane})
    }
    fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
    fn from_json(value: &Value) -> Result<Self> {
        serde_json::from_value(value.clone()).map_err(|e| Error::state("$", e.to_string()))
    }
    fn view(&self, player: Player) -> Value {
        let mut v = self.to_json();
        v["hands"][1 - player] = json!(self.hands[1 - player].len());
        v["deck"] = json!(self.deck.len());
        v["rng"] = Value::Null;
        v
    }
    fn resample_hidden(&self, player: Player, seed: u64) -> Self {
        let mut g = self.clone();
        let other = 1 - player;
        let mut unseen: Vec<u8> = self.hands[other]
            .iter()
            .chain(&self.deck)
            .copied()
            .collect();
        unseen.sort_unstable();
        g.rng = GameRng::seed(seed);
        g.rng.shuffle(&mut unseen);
        let k = self.hands[other].len();
        g.hands[other] = unseen[..k].to_vec();
        g.hands[other].sort_unstable();
        g.deck = unseen[k..].to_vec();
        g.deck.sort_unstable();
        g
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![1 + 2 * LANES, CARDS]
    }
    fn observation(&self, player: Player, out: &mut [f32]) {
        out.fill(0.0);
        for &c in &self.hands[player] {
            out[usize::from(c)] = 1.0;
        }
        for (side, who) in [player, 1 - player].into_iter().enumerate() {
            for l in 0..LANES {
                for &c in &self.lanes[who][l] {
                    out[(1 + side * LANES + l) * CARDS + usize::from(c)] = 1.0;
                }
            }
        }
    }
    fn render(&self, _player: Option<Player>) -> String {
        format!("{self:?}")
    }
    fn evaluate(&self, player: Player) -> f64 {
        if self.finished() {
            return self.returns()[player];
        }
        let me = player;
        let mut v = 0.0;
        for l in 0..LANES {
            let mine: i32 = self.lanes[me][l].iter().map(|&c| value(c)).sum();
            let theirs: i32 = self.lanes[1 - me][l].iter().map(|&c| value(c)).sum();
            v += (f64::from(mine - theirs) / 6.0).tanh();
        }
        v / LANES as f64
    }
}
