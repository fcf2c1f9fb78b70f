//! The game state: flags, hands, decks, discard, whose turn and which step, and what each
//! player knows from Scout. Plain fixed-size data (no heap), so a clone is a memcpy.

use super::cards::{Card, CardSet, Deck, ALL_TROOPS, NUM_CARDS};
pub use super::options::Options;
use super::proof::{prove_unchecked, ClaimProof};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

pub const NUM_FLAGS: usize = 9;
pub const HAND_SIZE: usize = 7;

/// `player` and their opponent, or an error for an index other than 0 and 1. Every entry
/// point taking a player index goes through this, so a bad index is an error and never
/// stands for the other player.
pub(crate) fn me_and_opponent(player: usize) -> Result<(usize, usize)> {
    match player {
        0 => Ok((0, 1)),
        1 => Ok((1, 0)),
        _ => Err(Error::invalid(format!(
            "player {player} out of range: Battle Line has players 0 and 1"
        ))),
    }
}

/// The step of the turn the player to move is in (in saved states: `play`, `claim`, ...).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Play one card (or pass).
    Play,
    /// Claim flags (any number), then `done`.
    Claim,
    /// Choose the deck to draw from.
    Draw,
    /// Scout: choose the deck for the next of its draws.
    ScoutDraw,
    /// Scout: choose a card to put back.
    ScoutReturn,
    /// The game is over.
    Over,
}

impl Phase {
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Play => "play",
            Phase::Claim => "claim",
            Phase::Draw => "draw",
            Phase::ScoutDraw => "scout_draw",
            Phase::ScoutReturn => "scout_return",
            Phase::Over => "over",
        }
    }
    pub fn from_name(s: &str) -> Option<Phase> {
        Some(match s {
            "play" => Phase::Play,
            "claim" => Phase::Claim,
            "draw" => Phase::Draw,
            "scout_draw" => Phase::ScoutDraw,
            "scout_return" => Phase::ScoutReturn,
            "over" => Phase::Over,
            _ => return None,
        })
    }
}

/// One flag: both sides' formation cards in play order, the environment cards (with the
/// side that played them), the claim and which side completed its formation first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Flag {
    pub cards: [[Card; 4]; 2],
    pub len: [u8; 2],
    pub fog: Option<u8>,
    pub mud: Option<u8>,
    pub claimed: Option<u8>,
    pub first_complete: Option<u8>,
}

impl Flag {
    /// Formation size: 3, or 4 under Mud.
    #[inline]
    pub fn capacity(&self) -> usize {
        3 + usize::from(self.mud.is_some())
    }
    #[inline]
    pub fn side(&self, p: usize) -> &[Card] {
        &self.cards[p][..self.len[p] as usize]
    }
    #[inline]
    pub fn is_complete(&self, p: usize) -> bool {
        self.len[p] as usize == self.capacity()
    }
    #[inline]
    pub fn has_room(&self, p: usize) -> bool {
        (self.len[p] as usize) < self.capacity()
    }
    pub fn push(&mut self, p: usize, c: Card) {
        let i = self.len[p] as usize;
        self.cards[p][i] = c;
        self.len[p] += 1;
    }
    /// Remove a card from side `p`, keeping the order of the others. Returns whether found.
    pub fn remove(&mut self, p: usize, c: Card) -> bool {
        let n = self.len[p] as usize;
        if let Some(i) = self.cards[p][..n].iter().position(|&x| x == c) {
            self.cards[p].copy_within(i + 1..n, i);
            self.len[p] -= 1;
            self.cards[p][n - 1] = Card(0);
            true
        } else {
            false
        }
    }
}

/// A stack of cards, top last.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Stack<const N: usize> {
    items: [Card; N],
    len: u8,
}

impl<const N: usize> Default for Stack<N> {
    fn default() -> Self {
        Stack {
            items: [Card(0); N],
            len: 0,
        }
    }
}

impl<const N: usize> Stack<N> {
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.items[..self.len as usize]
    }
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Card] {
        &mut self.items[..self.len as usize]
    }
    /// Push on top; false if full.
    #[inline]
    pub fn push(&mut self, c: Card) -> bool {
        if self.len() < N {
            self.items[self.len()] = c;
            self.len += 1;
            true
        } else {
            false
        }
    }
    #[inline]
    pub fn pop(&mut self) -> Option<Card> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.items[self.len()])
        }
    }
}

/// What one player knows beyond the public table, from Scout (BL-8.1).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Knowledge {
    /// Positions (from the bottom, bit `i` = `deck[i]`) in the troop and tactics decks of
    /// the cards this player put back with Scout.
    pub deck_pos: [u64; 2],
    /// Cards in the opponent's hand this player knows are there (drawn from a known position).
    pub opp_hand: CardSet,
}

/// Per-flag summaries and the claim-proof cache, kept in step with the flags by
/// [`BattleLine::refresh_flag`]: bit `f` of each mask is flag `f`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct FlagMasks {
    /// Unclaimed flags where the player's side has a free slot.
    pub free: [u16; 2],
    /// Unclaimed flags where the player's side is complete.
    pub complete: [u16; 2],
    /// Flags where the player's claim is known to hold (it keeps holding while the flag is
    /// unchanged: the unseen pool only shrinks).
    pub holds: [u16; 2],
    /// Flags where the player's claim is known to fail; it keeps failing while the
    /// counterexample's completing cards (`cex`) are all still unseen.
    pub fails: [u16; 2],
    pub cex: [[u64; 2]; NUM_FLAGS],
}

// Card locations.
pub(crate) const LOC_HAND: u8 = 0; // + player
pub(crate) const LOC_TROOP_DECK: u8 = 2;
pub(crate) const LOC_TACTICS_DECK: u8 = 3;
pub(crate) const LOC_DISCARD: u8 = 4;
pub(crate) const LOC_FLAG: u8 = 8; // + flag * 2 + side

#[inline]
pub(crate) const fn loc_flag(flag: usize, side: usize) -> u8 {
    LOC_FLAG + (flag * 2 + side) as u8
}

/// A Battle Line game (see `docs/rules/battle-line.md`).
#[derive(Clone, Debug)]
pub struct BattleLine {
    pub(crate) options: Options,
    pub(crate) flags: [Flag; NUM_FLAGS],
    pub(crate) hands: [CardSet; 2],
    pub(crate) troop_deck: Stack<60>,
    pub(crate) tactics_deck: Stack<10>,
    pub(crate) discard: Stack<70>,
    pub(crate) to_move: u8,
    pub(crate) phase: Phase,
    /// Scout: draws left (ScoutDraw) or returns left (ScoutReturn).
    pub(crate) scout_left: u8,
    /// Scout: cards drawn so far.
    pub(crate) scout_drawn: u8,
    pub(crate) tactics_played: [u8; 2],
    pub(crate) leader_played: [bool; 2],
    /// Consecutive turns ended by passing.
    pub(crate) pass_streak: u8,
    pub(crate) winner: Option<u8>,
    pub(crate) known: [Knowledge; 2],
    /// Each player's play of its latest turn when it put a troop on a flag (`(card,
    /// flag)`), else `None` (a tactics card, Scout, a pass). Public: the inferring redraw
    /// of that player's hand reads it ([`super::infer`], an option of
    /// [`BattleLine::resample_with`]), so the saved state, the view and the position carry
    /// it (`last_troop_play`).
    pub(crate) last_play: [Option<(Card, u8)>; 2],
    // ---- derived (rebuilt by `rebuild`) ----
    /// Location of every card (LOC_*).
    pub(crate) loc: [u8; NUM_CARDS],
    /// Cards on each player's side of the table (formation and environment cards).
    pub(crate) table: [CardSet; 2],
    /// Troops not on the table nor in the discard (the proofs' pool).
    pub(crate) unseen: u64,
    /// Bit per claimed flag.
    pub(crate) claimed_mask: u16,
    /// Claimable flags of the player to move (valid in the Claim phase).
    pub(crate) claimable: u16,
    pub(crate) masks: FlagMasks,
}

impl BattleLine {
    /// Recompute every derived field from the primary state.
    pub(crate) fn rebuild(&mut self) {
        let mut loc = [u8::MAX; NUM_CARDS];
        let mut table = [CardSet::EMPTY; 2];
        let mut claimed = 0u16;
        for (p, h) in self.hands.iter().enumerate() {
            for c in h.iter() {
                loc[c.id()] = LOC_HAND + p as u8;
            }
        }
        for c in self.troop_deck.as_slice() {
            loc[c.id()] = LOC_TROOP_DECK;
        }
        for c in self.tactics_deck.as_slice() {
            loc[c.id()] = LOC_TACTICS_DECK;
        }
        for c in self.discard.as_slice() {
            loc[c.id()] = LOC_DISCARD;
        }
        for (f, flag) in self.flags.iter().enumerate() {
            for (p, t) in table.iter_mut().enumerate() {
                for &c in flag.side(p) {
                    loc[c.id()] = loc_flag(f, p);
                    t.insert(c);
                }
            }
            if let Some(s) = flag.fog {
                loc[Card::FOG.id()] = loc_flag(f, s as usize);
                table[s as usize].insert(Card::FOG);
            }
            if let Some(s) = flag.mud {
                loc[Card::MUD.id()] = loc_flag(f, s as usize);
                table[s as usize].insert(Card::MUD);
            }
            if flag.claimed.is_some() {
                claimed |= 1 << f;
            }
        }
        let visible = table[0].0 | table[1].0 | CardSet::from_cards(self.discard.as_slice()).0;
        self.loc = loc;
        self.table = table;
        self.unseen = ALL_TROOPS & !(visible as u64);
        self.claimed_mask = claimed;
        self.masks = FlagMasks::default();
        for f in 0..NUM_FLAGS {
            self.refresh_flag(f);
        }
        self.claimable = 0;
        if self.phase == Phase::Claim {
            self.claimable = self.claimable_flags(self.to_move as usize);
        }
    }

    pub fn options_ref(&self) -> &Options {
        &self.options
    }
    pub fn flags(&self) -> &[Flag; NUM_FLAGS] {
        &self.flags
    }
    /// Player `p`'s hand (`None` unless `p` is 0 or 1).
    pub fn hand(&self, p: usize) -> Option<CardSet> {
        self.hands.get(p).copied()
    }
    pub fn troop_deck(&self) -> &[Card] {
        self.troop_deck.as_slice()
    }
    pub fn tactics_deck(&self) -> &[Card] {
        self.tactics_deck.as_slice()
    }
    pub fn discard(&self) -> &[Card] {
        self.discard.as_slice()
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }
    pub fn tactics_played(&self) -> [u8; 2] {
        self.tactics_played
    }
    pub fn leader_played(&self) -> [bool; 2] {
        self.leader_played
    }
    pub fn pass_streak(&self) -> u8 {
        self.pass_streak
    }
    /// What player `p` knows through Scout (`None` unless `p` is 0 or 1).
    pub fn knowledge(&self, p: usize) -> Option<&Knowledge> {
        self.known.get(p)
    }
    /// Troop cards not visible on the table or in the discard (the proofs' pool).
    pub fn unseen_troops(&self) -> u64 {
        self.unseen
    }
    pub(crate) fn deck_len(&self, d: Deck) -> usize {
        match d {
            Deck::Troop => self.troop_deck.len(),
            Deck::Tactics => self.tactics_deck.len(),
        }
    }
    pub(crate) fn decks_empty(&self) -> bool {
        self.troop_deck.is_empty() && self.tactics_deck.is_empty()
    }
    /// Flags won by each player.
    pub fn flags_won(&self) -> [u8; 2] {
        let mut n = [0u8; 2];
        for f in &self.flags {
            if let Some(p) = f.claimed {
                n[p as usize] += 1;
            }
        }
        n
    }
    /// Unclaimed flags where `p` may place a formation card.
    #[inline]
    pub(crate) fn free_flags(&self, p: usize) -> u16 {
        self.masks.free[p]
    }
    /// Recompute the summaries of flag `f` after it changed, forgetting its cached proofs.
    #[inline]
    pub(crate) fn refresh_flag(&mut self, f: usize) {
        let fl = &self.flags[f];
        let bit = 1u16 << f;
        let m = &mut self.masks;
        for p in 0..2 {
            let open = fl.claimed.is_none();
            m.free[p] = (m.free[p] & !bit) | if open && fl.has_room(p) { bit } else { 0 };
            m.complete[p] =
                (m.complete[p] & !bit) | if open && fl.is_complete(p) { bit } else { 0 };
            m.holds[p] &= !bit;
            m.fails[p] &= !bit;
        }
    }
    #[inline]
    pub(crate) fn unclaimed_mask(&self) -> u16 {
        !self.claimed_mask & 0x1FF
    }
    /// The flag a table card lies at, and on whose side.
    #[inline]
    pub(crate) fn table_place(&self, c: Card) -> Option<(usize, usize)> {
        let l = self.loc[c.id()];
        (l >= LOC_FLAG).then(|| (((l - LOC_FLAG) / 2) as usize, ((l - LOC_FLAG) % 2) as usize))
    }
    #[inline]
    pub(crate) fn has_leader_on_table(&self, p: usize) -> bool {
        self.table[p].0 & (Card::ALEXANDER.bit() | Card::DARIUS.bit()) != 0
    }

    /// The full claim proof for `p` at `flag` from the current state (None if the flag is
    /// claimed or `p`'s side is incomplete).
    pub fn claim_proof(&self, flag: usize, p: usize) -> Option<ClaimProof> {
        let fl = self.flags.get(flag)?;
        if fl.claimed.is_some() || !fl.is_complete(p) {
            return None;
        }
        Some(self.prove_flag(flag, p))
    }

    /// Whether `p` may claim `flag` now, using and refreshing the cache.
    #[cfg(test)]
    pub(crate) fn can_claim(&mut self, flag: usize, p: usize) -> bool {
        self.claimable_flags(p) >> flag & 1 == 1
    }

    /// The flags (bits) where `p`'s cached verdict may have changed: complete, unclaimed,
    /// neither known to hold nor failing on a counterexample that still stands.
    #[inline]
    fn stale_claims(&self, p: usize) -> u16 {
        let mut todo = self.masks.complete[p] & !self.masks.holds[p];
        let mut fails = todo & self.masks.fails[p];
        while fails != 0 {
            let f = fails.trailing_zeros() as usize;
            fails &= fails - 1;
            if self.masks.cex[f][p] & !self.unseen == 0 {
                todo &= !(1 << f); // the counterexample still stands
            }
        }
        todo
    }

    /// The claim proof of flag `f` for `p`, whose side there is complete.
    #[inline]
    fn prove_flag(&self, f: usize, p: usize) -> ClaimProof {
        let fl = &self.flags[f];
        prove_unchecked(
            fl.side(p),
            fl.side(1 - p),
            self.unseen,
            fl.fog.is_some(),
            fl.mud.is_some(),
            fl.first_complete == Some(p as u8),
        )
    }

    /// Bit per flag where `p`'s claim holds now: `claim_proof(f, p)` holds, for every flag
    /// `f`. The cache answers where it can (read only: the observation of either player
    /// asks this); only stale flags are proved.
    pub(crate) fn claims_holding(&self, p: usize) -> u16 {
        let mut holds = self.masks.complete[p] & self.masks.holds[p];
        let mut todo = self.stale_claims(p);
        while todo != 0 {
            let f = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            if self.prove_flag(f, p).holds() {
                holds |= 1 << f;
            }
        }
        holds
    }

    /// Bit per flag `p` may claim now. Only flags whose cached verdict may have changed
    /// are proved again (and the cache keeps the new verdicts).
    pub(crate) fn claimable_flags(&mut self, p: usize) -> u16 {
        let cand = self.masks.complete[p];
        let mut todo = self.stale_claims(p);
        while todo != 0 {
            let f = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let proof = self.prove_flag(f, p);
            let bit = 1u16 << f;
            if proof.holds() {
                self.masks.holds[p] |= bit;
                self.masks.fails[p] &= !bit;
            } else {
                self.masks.fails[p] |= bit;
                self.masks.cex[f][p] = proof.theirs.map_or(0, |t| t.completion_bits());
            }
        }
        cand & self.masks.holds[p]
    }

    /// Match play scoring (BL-12.1) of a finished game: the winner 5, the loser 1 per flag
    /// won; a drawn game (BL-11.3) scores each player's flags. `None` while running.
    pub fn match_points(&self) -> Option<[u32; 2]> {
        if self.phase != Phase::Over {
            return None;
        }
        let won = self.flags_won();
        Some(match self.winner {
            Some(w) => {
                let mut pts = [u32::from(won[0]), u32::from(won[1])];
                pts[w as usize] = 5;
                pts
            }
            None => [u32::from(won[0]), u32::from(won[1])],
        })
    }

    /// Options for the next game of a match (BL-12.2): the winner starts; after a draw the
    /// player who did not start this game does.
    pub fn next_game_options(&self) -> Option<Options> {
        if self.phase != Phase::Over {
            return None;
        }
        let first = match self.winner {
            Some(w) => w,
            None => 1 - self.options.first_player,
        };
        Some(Options {
            first_player: first,
            ..self.options.clone()
        })
    }
}
