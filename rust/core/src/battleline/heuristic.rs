//! Battle Line's heuristic player (the `Heuristic` agent, issue 14): how a sensible person
//! plays, no search.
//!
//! - Claim every flag that can be claimed.
//! - Play a troop where it builds the strongest formation the unseen cards still allow,
//!   judged against the best the opponent's side can still become; a card that fits
//!   nowhere is dumped on a flag already lost. A troop that completes a provable claim
//!   comes first.
//! - Play a tactics card only when it decides a flag: a claim it makes provable now, or a
//!   provable claim of the opponent's it breaks (or, with no troop play left, a morale card
//!   where it builds the best formation).
//! - Draw troops, unless the hand holds no tactics card and one could be played next turn.
//! - Scout's returns put back the cards the hand can use least.
//!
//! Only what the player to move may see is used: their hand, the table, the discard, and
//! what Scout told them; the effect of a play is computed on the table alone.

use super::cards::{Card, Deck};
use super::evaluate::{rank, side_value, MISS_MINE, MISS_THEIRS};
use super::formation::{best_completion, best_formation};
use super::notation::Action;
use super::proof::prove_unchecked;
use super::state::*;
use crate::rng::GameRng;

/// Everything the player to move sees, summarised once per decision.
struct Sight<'a> {
    g: &'a BattleLine,
    me: usize,
    op: usize,
    /// My troops in hand.
    hand: u64,
    /// Troops the opponent is known to hold (Scout).
    op_known: u64,
    /// Unseen troops that are not in my hand: the deck and the opponent's hand.
    elsewhere: u64,
}

impl<'a> Sight<'a> {
    fn new(g: &'a BattleLine) -> Sight<'a> {
        let me = g.to_move as usize;
        let op = 1 - me;
        let hand = g.hands[me].troops();
        let op_known = g.known[me].opp_hand.troops();
        Sight {
            g,
            me,
            op,
            hand,
            op_known,
            elsewhere: g.unseen & !hand,
        }
    }

    /// What the opponent's side of flag `f` can still become.
    fn op_value(&self, f: usize) -> f64 {
        let fl = &self.g.flags[f];
        side_value(
            fl.side(self.op),
            fl.capacity(),
            fl.fog.is_some(),
            self.op_known,
            self.elsewhere & !self.op_known,
            MISS_THEIRS,
        )
    }

    /// How good it is for me to put formation card `c` at flag `f` (my side has room).
    fn placement(&self, c: Card, f: usize, op_value: f64) -> f64 {
        let pool = Pool {
            unseen: self.g.unseen,
            hand: self.hand,
            elsewhere: self.elsewhere,
        };
        placement(&self.g.flags[f], self.me, c, pool, op_value)
    }

    /// Flags the opponent could claim now if it were their turn (their side complete and
    /// provably winning).
    fn op_claimable(g: &BattleLine, op: usize) -> u16 {
        g.claims_holding(op)
    }
}

/// The troops a placement is judged against (each taken without the card placed).
pub(super) struct Pool {
    /// Troops nobody has seen: what the opponent's side can still be given, and mine.
    pub unseen: u64,
    /// Troops in the placing player's hand: certain to be theirs.
    pub hand: u64,
    /// Unseen troops that may still come to the placing player.
    pub elsewhere: u64,
}

/// How good it is for player `me` to put formation card `c` on flag `fl` (its side has
/// room), `op_value` what the opponent's side there can still become. The heuristic
/// player's judgement of a play, and `infer.rs`'s model of the opponent's (there with an
/// unknown hand: no troop certain, every unseen one to be found).
pub(super) fn placement(fl: &Flag, me: usize, c: Card, pool: Pool, op_value: f64) -> f64 {
    let size = fl.capacity();
    let fog = fl.fog.is_some();
    let mut side = [Card(0); 4];
    let n = fl.side(me).len();
    side[..n].copy_from_slice(fl.side(me));
    side[n] = c;
    let side = &side[..=n];
    // A morale tactics card has an id above the troops' and is in none of the masks.
    let not_c = if c.is_troop() { !(1u64 << c.0) } else { !0 };
    let unseen = pool.unseen & not_c;
    let theirs = fl.side(1 - me);
    if side.len() == size {
        let first = fl.first_complete.is_none_or(|s| s as usize == me);
        let proof = prove_unchecked(side, theirs, unseen, fog, fl.mud.is_some(), first);
        let mine = rank(&proof.mine, size);
        if proof.holds() {
            // A flag won for sure: the sooner the better.
            return 10.0 + mine;
        }
        if theirs.len() == size {
            // Both complete and mine loses: this flag is gone.
            return -5.0 - f64::from(c.max_value()) / 10.0;
        }
        return mine - 0.5 * op_value;
    }
    // Can my side still beat theirs at all? If their side is complete and nothing I could
    // ever add beats it, the flag is lost: dump low cards here.
    if theirs.len() == size {
        let th = best_formation(theirs, fog).strength();
        let reach = best_completion(side, unseen, size, fog).map_or(0, |f| f.strength());
        if reach <= th {
            return -5.0 - f64::from(c.max_value()) / 10.0;
        }
    }
    let mine = side_value(
        side,
        size,
        fog,
        pool.hand & not_c,
        pool.elsewhere & not_c,
        MISS_MINE,
    );
    // Cards on the table count more than hopes: they race the opponent to complete.
    let progress = 0.3 * side.len() as f64 / size as f64;
    mine - 0.5 * op_value + progress
}

/// The flags `p` could claim in `g` (read from a copy: claim proofs refresh a cache).
fn claimable(g: &BattleLine, p: usize) -> u16 {
    let mut c = g.clone();
    c.claimable_flags(p)
}

/// Whether claiming every flag in `m` wins the game for `p`.
fn wins_with(g: &BattleLine, p: usize, m: u16) -> bool {
    let mut mine = m;
    for (f, fl) in g.flags.iter().enumerate() {
        if fl.claimed == Some(p as u8) {
            mine |= 1 << f;
        }
    }
    mine.count_ones() >= 5 || mine & (mine >> 1) & (mine >> 2) != 0
}

/// The move, or `None` once the game is over.
pub(crate) fn heuristic_action(g: &BattleLine, rng: &mut GameRng) -> Option<Action> {
    let me = g.to_move as usize;
    match g.phase {
        Phase::Over => None,
        // The lowest provable flag, the game's dominant move (one rule for both).
        Phase::Claim => {
            Some(crate::knowledge::Knowledge::dominant_action(g).unwrap_or(Action::Done))
        }
        Phase::Draw | Phase::ScoutDraw => Some(Action::Draw(draw_choice(g, me))),
        Phase::ScoutReturn => scout_return(g, me).map(Action::Return),
        Phase::Play => play(g, rng),
    }
}

fn draw_choice(g: &BattleLine, me: usize) -> Deck {
    if g.tactics_deck.is_empty() {
        return Deck::Troop;
    }
    if g.troop_deck.is_empty() {
        return Deck::Tactics;
    }
    // A tactics card is worth drawing only if it can be played: within the limit (one
    // ahead at most) and with none already waiting in hand. Otherwise it clogs the hand.
    let allowed = g.tactics_played[me] <= g.tactics_played[1 - me];
    let holding = !g.hands[me].tactics().is_empty();
    if allowed && !holding && g.phase == Phase::Draw {
        Deck::Tactics
    } else {
        Deck::Troop
    }
}

/// Scout's return: the card the hand can use least (tactics beyond the limit first, then
/// the troop with the poorest best placement).
fn scout_return(g: &BattleLine, me: usize) -> Option<Card> {
    let s = Sight::new(g);
    let op_values: [f64; NUM_FLAGS] = std::array::from_fn(|f| s.op_value(f));
    let allowed = g.tactics_played[me] <= g.tactics_played[1 - me];
    let mut worst: Option<(f64, Card)> = None;
    for c in g.hands[me].iter() {
        let v = if c.is_troop() {
            let free = g.free_flags(me);
            (0..NUM_FLAGS)
                .filter(|&f| free >> f & 1 == 1)
                .map(|f| s.placement(c, f, op_values[f]))
                .fold(f64::from(c.value()) / 10.0, f64::max)
        } else if allowed {
            2.0
        } else {
            -10.0
        };
        if worst.is_none_or(|(w, _)| v < w) {
            worst = Some((v, c));
        }
    }
    worst.map(|(_, c)| c)
}

fn play(g: &BattleLine, rng: &mut GameRng) -> Option<Action> {
    let s = Sight::new(g);
    let me = s.me;
    let mut legal = Vec::new();
    g.legal(&mut legal);
    let op_values: [f64; NUM_FLAGS] = std::array::from_fn(|f| s.op_value(f));

    // Troops: the best placement (ties broken at random).
    let mut best: Option<(f64, Action)> = None;
    let mut ties = 0u32;
    let mut consider = |v: f64, a: Action, rng: &mut GameRng| match best {
        Some((b, _)) if v < b - 1e-9 => {}
        Some((b, _)) if v <= b + 1e-9 => {
            ties += 1;
            if rng.below(ties as usize + 1) == 0 {
                best = Some((v, a));
            }
        }
        _ => {
            ties = 0;
            best = Some((v, a));
        }
    };
    for &a in &legal {
        if let Action::Play { card, flag } = a {
            if card.is_troop() {
                let f = flag as usize;
                consider(s.placement(card, f, op_values[f]), a, rng);
            }
        }
    }
    let troop_best = best;

    // Tactics: only those that decide a flag (or win the game).
    let now_mine = claimable(g, me);
    let now_theirs = Sight::op_claimable(g, s.op);
    let mut tactic: Option<(f64, Action)> = None;
    for &a in &legal {
        let is_tactic = match a {
            Action::Play { card, .. } => !card.is_troop(),
            Action::Redeploy { .. } | Action::Deserter { .. } | Action::Traitor { .. } => true,
            _ => false,
        };
        if !is_tactic {
            continue;
        }
        let mut after = g.clone();
        after.execute(a);
        let mine = if after.phase == Phase::Claim && after.to_move as usize == me {
            after.claimable
        } else {
            claimable(&after, me)
        };
        let gained = (mine & !now_mine).count_ones();
        let broken = (now_theirs & !Sight::op_claimable(&after, s.op)).count_ones();
        let value = if wins_with(&after, me, mine) {
            100.0
        } else {
            10.0 * f64::from(gained + broken)
        };
        if value > 0.0 && tactic.is_none_or(|(b, _)| value > b) {
            tactic = Some((value, a));
        }
    }

    // A tactics card that wins the game comes first; then a troop that wins a flag for
    // sure (the tactics card is kept); then a tactics card deciding a flag; then troops.
    match (troop_best, tactic) {
        (_, Some((t, a))) if t >= 100.0 => return Some(a),
        (Some((v, a)), _) if v >= 10.0 => return Some(a),
        (_, Some((_, a))) => return Some(a),
        (Some((_, a)), None) => return Some(a),
        (None, None) => {}
    }

    // No troop play: a morale card where it builds a clearly good formation, else pass.
    let mut morale: Option<(f64, Action)> = None;
    for &a in &legal {
        if let Action::Play { card, flag } = a {
            if card.is_morale() {
                let f = flag as usize;
                let v = s.placement(card, f, op_values[f]);
                if v > 1.5 && morale.is_none_or(|(b, _)| v > b) {
                    morale = Some((v, a));
                }
            }
        }
    }
    if let Some((_, a)) = morale {
        return Some(a);
    }
    // Pass is legal exactly when no troop play is (BL-10.1); the first legal action is a
    // guard so the player never stalls.
    if legal.contains(&Action::Pass) {
        Some(Action::Pass)
    } else {
        legal.first().copied()
    }
}
