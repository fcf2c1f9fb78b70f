//! "Lanes", a small card game with hidden hands and a shuffled deck for 2 to 4 players
//! (4 may play as two teams), used only by the agents' tests: real games arrive through the
//! registry, and everything written against the `Game` trait is tested here first.
//!
//! Cards have values 1-6 in suits R, G, B (and Y, W, K with more players): 18 cards for two
//! players, 30 for three, 36 for four. Each player holds 3 cards, hidden from the others, and
//! owns one side of 3 lanes (3 cards a side). A turn: play a hand card to one of your lanes
//! with room, or discard it, then draw a card from the deck (a chance event, from the game's
//! RNG) while it lasts; seats move in turn. When every card is used the game ends. A side
//! scores the sum of its cards, +10 for three of one suit (a flush); the highest side takes
//! the lane (a tie at the top: nobody). Players (or teams, whose lanes add up) are ranked by
//! lanes taken, and `returns` pay by place: first 1, last -1, evenly spaced between, tied
//! places sharing their mean (two players: win 1, draw 0, loss -1). `evaluate` looks at sums
//! only, so it misses flushes on purpose: a searching agent should beat the greedy one.

use crate::error::{Error, Result};
use crate::game::{Game, Player};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

pub const LANES: usize = 3;
const HAND: usize = 3;
const SUITS: [char; 6] = ['R', 'G', 'B', 'Y', 'W', 'K'];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LanesOptions {
    /// 2, 3 or 4.
    pub players: usize,
    /// Four players only: seats 0 and 2 against 1 and 3.
    pub teams: bool,
    /// Declare a compact observation (divisors all 1; every element is 0 or 1) without a
    /// writer of its own, so `Game::observation_u8`'s default is what writes it.
    pub compact: bool,
    /// How `Knowledge::evaluate_after` answers, so the agents' paths through it are tested.
    pub judge: Judge,
}

/// `Knowledge::evaluate_after` for Lanes: the trait's default (no faster way), a list judged by
/// copying, playing and evaluating each move (the same values), or a failure every time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judge {
    #[default]
    Default,
    Listed,
    Fails,
}

impl Default for LanesOptions {
    fn default() -> Self {
        LanesOptions {
            players: 2,
            teams: false,
            compact: false,
            judge: Judge::Default,
        }
    }
}

impl LanesOptions {
    pub fn free_for_all(players: usize) -> Self {
        LanesOptions {
            players,
            teams: false,
            compact: false,
            judge: Judge::Default,
        }
    }
    pub fn two_against_two() -> Self {
        LanesOptions {
            players: 4,
            teams: true,
            compact: false,
            judge: Judge::Default,
        }
    }
    fn cards(&self) -> usize {
        6 * (3 * self.players).div_ceil(2)
    }
}

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
    hands: Vec<Vec<u8>>,
    deck: Vec<u8>,
    lanes: Vec<[Vec<u8>; LANES]>,
    to_move: usize,
    rng: GameRng,
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
    fn players(&self) -> usize {
        self.hands.len()
    }
    /// Lanes taken per team (per player without teams).
    fn lanes_won(&self) -> Vec<usize> {
        let mut won = vec![0; self.num_teams()];
        for l in 0..LANES {
            let scores: Vec<i32> = self.lanes.iter().map(|s| Self::side_score(&s[l])).collect();
            let top = scores.iter().copied().max().unwrap_or(0);
            let at_top: Vec<usize> = (0..scores.len()).filter(|&p| scores[p] == top).collect();
            if let [p] = at_top[..] {
                won[self.team(p)] += 1;
            }
        }
        won
    }
    fn num_teams(&self) -> usize {
        if self.options.teams {
            2
        } else {
            self.players()
        }
    }
    fn finished(&self) -> bool {
        self.deck.is_empty() && self.hands.iter().all(Vec::is_empty)
    }
    fn cards(&self) -> usize {
        self.options.cards()
    }
}

impl Game for Lanes {
    type Action = Play;
    type Options = LanesOptions;
    const NAME: &'static str = "lanes";

    fn new(seed: u64, options: &LanesOptions) -> Result<Self> {
        let n = options.players;
        if !(2..=4).contains(&n) || (options.teams && n != 4) {
            return Err(Error::invalid(
                "lanes: 2 to 4 players, and teams only with 4",
            ));
        }
        let mut g = Lanes {
            hands: vec![Vec::new(); n],
            deck: (0..options.cards() as u8).collect(),
            lanes: vec![Default::default(); n],
            to_move: 0,
            rng: GameRng::seed(seed),
            options: options.clone(),
        };
        for _ in 0..HAND {
            for p in 0..n {
                g.draw(p);
            }
        }
        Ok(g)
    }
    fn options(&self) -> &LanesOptions {
        &self.options
    }
    fn num_players(&self) -> usize {
        self.players()
    }
    fn team(&self, player: Player) -> usize {
        if self.options.teams {
            player % 2
        } else {
            player
        }
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
        self.to_move = (p + 1) % self.players();
    }
    /// The unique first (the lowest seat of the first team); `None` for a shared first place.
    fn winner(&self) -> Option<Player> {
        if !self.finished() {
            return None;
        }
        let w = self.lanes_won();
        let top = w.iter().copied().max()?;
        match (0..w.len()).filter(|&t| w[t] == top).collect::<Vec<_>>()[..] {
            [t] => (0..self.players()).find(|&p| self.team(p) == t),
            _ => None,
        }
    }
    fn returns(&self) -> Vec<f64> {
        let n = self.players();
        if !self.finished() {
            return vec![0.0; n];
        }
        let w = self.lanes_won();
        let k = w.len();
        // Place pay: first 1, last -1; a tie shares the mean of the places it spans.
        let pay = |place: usize| 1.0 - 2.0 * place as f64 / (k - 1) as f64;
        let team_return: Vec<f64> = (0..k)
            .map(|t| {
                let above = w.iter().filter(|&&x| x > w[t]).count();
                let level = w.iter().filter(|&&x| x == w[t]).count();
                (above..above + level).map(pay).sum::<f64>() / level as f64
            })
            .collect();
        (0..n).map(|p| team_return[self.team(p)]).collect()
    }
    fn num_actions(&self) -> usize {
        self.cards() * SLOTS
    }
    fn action_id(&self, a: Play) -> usize {
        usize::from(a.card) * SLOTS + usize::from(a.lane)
    }
    fn action_from_id(&self, id: usize) -> Option<Play> {
        (id < self.cards() * SLOTS).then_some(Play {
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
            (Some(s), Some(v @ 1..=6), Some(lane))
                if usize::from(lane) <= LANES && s * 6 < self.cards() =>
            {
                Ok(Play {
                    card: s as u8 * 6 + v - 1,
                    lane,
                })
            }
            _ => Err(bad()),
        }
    }
    fn sees_action(&self, _viewer: Player, _a: Play) -> bool {
        true // a card leaves the hand face up, to a lane or the discard
    }
    fn action_public(&self, a: Play) -> String {
        self.action_notation(a)
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
        for (p, h) in self.hands.iter().enumerate() {
            if p != player {
                v["hands"][p] = json!(h.len());
            }
        }
        v["deck"] = json!(self.deck.len());
        v["rng"] = Value::Null;
        v
    }
    fn resample_hidden(&self, player: Player, seed: u64) -> Self {
        let mut g = self.clone();
        let others: Vec<usize> = (0..self.players()).filter(|&p| p != player).collect();
        let mut unseen: Vec<u8> = others
            .iter()
            .flat_map(|&p| self.hands[p].iter())
            .chain(&self.deck)
            .copied()
            .collect();
        unseen.sort_unstable();
        g.rng = GameRng::seed(seed);
        g.rng.shuffle(&mut unseen);
        let mut at = 0;
        for &p in &others {
            let k = self.hands[p].len();
            g.hands[p] = unseen[at..at + k].to_vec();
            g.hands[p].sort_unstable();
            at += k;
        }
        g.deck = unseen[at..].to_vec();
        g.deck.sort_unstable();
        g
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![1 + self.players() * LANES, self.cards()]
    }
    /// The player's hand, then every side's lanes, the player's own first (seats in turn
    /// order from the player).
    fn observation(&self, player: Player, out: &mut [f32]) {
        out.fill(0.0);
        let (n, cards) = (self.players(), self.cards());
        for &c in &self.hands[player] {
            out[usize::from(c)] = 1.0;
        }
        for side in 0..n {
            let who = (player + side) % n;
            for l in 0..LANES {
                for &c in &self.lanes[who][l] {
                    out[(1 + side * LANES + l) * cards + usize::from(c)] = 1.0;
                }
            }
        }
    }
    fn observation_divisors(&self) -> Option<Vec<f32>> {
        let len: usize = self.observation_shape().iter().product();
        self.options.compact.then(|| vec![1.0; len])
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
            let sum = |p: usize| -> i32 { self.lanes[p][l].iter().map(|&c| value(c)).sum() };
            // A team's best side holds the lane for it.
            let best = |mine: bool| {
                (0..self.players())
                    .filter(|&p| (self.team(p) == self.team(me)) == mine)
                    .map(sum)
                    .max()
                    .unwrap_or(0)
            };
            let (mine, theirs) = (best(true), best(false));
            v += (f64::from(mine - theirs) / 6.0).tanh();
        }
        v / LANES as f64
    }
}

impl crate::knowledge::Knowledge for Lanes {
    fn evaluate_after(&self, actions: &[Play], player: Player, out: &mut Vec<f64>) -> Result<bool> {
        match self.options.judge {
            Judge::Default => Ok(false),
            Judge::Listed => {
                out.clear();
                for &a in actions {
                    let mut after = self.clone();
                    after.apply(a)?;
                    out.push(after.evaluate(player));
                }
                Ok(true)
            }
            Judge::Fails => Err(Error::invalid(
                "Lanes: evaluate_after fails (judge = fails)",
            )),
        }
    }
}
