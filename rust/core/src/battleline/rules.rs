//! The rules: setup, legal actions, and applying an action (validated in full first, then
//! carried out), with the turn flow play → claim → draw (BL-3).

use super::cards::{Card, CardSet, Deck, ALL_TROOPS, TACTICS_BITS};
use super::formation::best_formation;
use super::notation::*;
use super::proof::Verdict;
use super::state::*;
use crate::error::{Error, Result};
use crate::rng::GameRng;

#[inline]
fn bits(mut m: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

/// OR `mask` (at most 10 bits) into the bits of `words` from id `first` on.
#[inline]
fn put_bits(words: &mut [u64], first: usize, mask: u64) {
    let (w, s) = (first / 64, first % 64);
    if let Some(x) = words.get_mut(w) {
        *x |= mask << s;
    }
    if s > 64 - 10 {
        if let Some(x) = words.get_mut(w + 1) {
            *x |= mask >> (64 - s);
        }
    }
}

/// A group of the play step's legal moves ([`BattleLine::play_options`]): a card's flags or
/// targets as one mask (bit `f` flag `f`; Redeploy's bit 9 the discard).
#[derive(Clone, Copy)]
enum PlayOption {
    Card { card: Card, flags: u16 },
    Scout,
    Redeploy { card: Card, targets: u16 },
    Deserter { card: Card },
    Traitor { card: Card, flags: u16 },
    Pass,
}

impl BattleLine {
    /// A new game: troops and tactics shuffled from `seed`, seven troops dealt to each
    /// player, alternately from the top, the first player first (BL-2).
    pub fn new_game(seed: u64, options: &Options) -> Result<Self> {
        if options.first_player > 1 {
            return Err(Error::options(format!(
                "battleline: first_player must be 0 or 1, not {}",
                options.first_player
            )));
        }
        let mut rng = GameRng::seed(seed);
        let mut troops: [Card; 60] = std::array::from_fn(|i| Card(i as u8));
        let mut tactics: [Card; 10] = std::array::from_fn(|i| Card(60 + i as u8));
        rng.shuffle(&mut troops);
        rng.shuffle(&mut tactics);
        let mut g = BattleLine {
            options: options.clone(),
            flags: [Flag::default(); NUM_FLAGS],
            hands: [CardSet::EMPTY; 2],
            troop_deck: Stack::default(),
            tactics_deck: Stack::default(),
            discard: Stack::default(),
            to_move: options.first_player,
            phase: Phase::Play,
            scout_left: 0,
            scout_drawn: 0,
            tactics_played: [0; 2],
            leader_played: [false; 2],
            pass_streak: 0,
            winner: None,
            known: [Knowledge::default(); 2],
            last_play: [None; 2],
            loc: [0; 70],
            table: [CardSet::EMPTY; 2],
            unseen: ALL_TROOPS,
            claimed_mask: 0,
            claimable: 0,
            masks: Default::default(),
        };
        for &c in &troops {
            g.troop_deck.push(c);
        }
        for &c in &tactics {
            g.tactics_deck.push(c);
        }
        for i in 0..2 * HAND_SIZE {
            let p = (options.first_player as usize + i) % 2;
            if let Some(c) = g.troop_deck.pop() {
                g.hands[p].insert(c);
            }
        }
        g.rebuild();
        g.begin_turn();
        Ok(g)
    }

    #[inline]
    fn tactics_allowed(&self, p: usize) -> bool {
        self.tactics_played[p] <= self.tactics_played[1 - p]
    }

    #[inline]
    fn leader_allowed(&self, p: usize) -> bool {
        !self.leader_played[p] && !self.has_leader_on_table(p)
    }

    /// Whether `p` has a legal troop play (a troop in hand and a free slot) — BL-10.1.
    #[inline]
    fn has_troop_play(&self, p: usize) -> bool {
        self.hands[p].troops() != 0 && self.free_flags(p) != 0
    }

    // ---- the conditions: move generation and `check` both decide by these -----------

    /// Flags where `p` may play `card` from hand now: a troop where `p`'s side has room
    /// (BL-4.2); a tactics card only within the limit (BL-6.1), a Leader only once (BL-6.2),
    /// a morale card where there is room, Fog or Mud at any unclaimed flag (BL-7.1); a guile
    /// card is not placed at a flag (BL-8.5).
    #[inline]
    fn play_flags(&self, p: usize, card: Card) -> u16 {
        if !self.hands[p].contains(card) {
            0
        } else if card.is_troop() {
            self.free_flags(p)
        } else if !self.tactics_allowed(p) {
            0
        } else if card.is_leader() {
            if self.leader_allowed(p) {
                self.free_flags(p)
            } else {
                0
            }
        } else if card.is_morale() {
            self.free_flags(p)
        } else if card.is_environment() {
            self.unclaimed_mask()
        } else {
            0
        }
    }

    /// Whether `p` may play the guile card `card` now: in hand, within the limit (BL-6.1).
    #[inline]
    fn guile_allowed(&self, p: usize, card: Card) -> bool {
        self.hands[p].contains(card) && self.tactics_allowed(p)
    }

    /// The flag of table card `c` if it lies on `side` at an unclaimed flag: the cards
    /// Redeploy, Deserter and Traitor may touch (BL-8.2 to BL-8.4, BL-9.7).
    #[inline]
    fn touchable(&self, c: Card, side: usize) -> Option<usize> {
        self.table_place(c)
            .filter(|&(f, s)| s == side && self.unclaimed_mask() & 1 << f != 0)
            .map(|(f, _)| f)
    }

    /// Flags where card `c`, moved to `p`'s side, may land: a formation card where `p` has
    /// room (BL-4.2), Fog or Mud at any unclaimed flag.
    #[inline]
    fn landing(&self, p: usize, c: Card) -> u16 {
        if c.is_formation_card() {
            self.free_flags(p)
        } else {
            self.unclaimed_mask()
        }
    }

    /// Flags Redeploy may move `p`'s card `c` to (bit 9: the discard), if it may touch it.
    #[inline]
    fn redeploy_targets(&self, p: usize, c: Card) -> u16 {
        match self.touchable(c, p) {
            Some(f) => (self.landing(p, c) & !(1 << f)) | (1 << NUM_FLAGS),
            None => 0,
        }
    }

    /// Flags Traitor may move the opponent's card `c` to (BL-8.4).
    #[inline]
    fn traitor_targets(&self, p: usize, c: Card) -> u16 {
        if self.traitor_may_take(p, c) && self.touchable(c, 1 - p).is_some() {
            self.landing(p, c)
        } else {
            0
        }
    }

    /// Whether `a` is legal now: the one decision behind both [`BattleLine::legal`] and
    /// [`BattleLine::check`].
    fn allows(&self, a: Action) -> bool {
        let p = self.to_move as usize;
        let card_ok = |c: Card| c.id() < 70;
        let flag_bit = |f: u8| {
            if (f as usize) < NUM_FLAGS {
                1u16 << f
            } else {
                0
            }
        };
        match (self.phase, a) {
            (Phase::Play, Action::Play { card, flag }) => {
                card_ok(card) && self.play_flags(p, card) & flag_bit(flag) != 0
            }
            (Phase::Play, Action::Scout) => {
                self.guile_allowed(p, Card::SCOUT) && !self.decks_empty()
            }
            (Phase::Play, Action::Redeploy { card, to }) => {
                let bit = to.map_or(1 << NUM_FLAGS, flag_bit);
                card_ok(card)
                    && self.guile_allowed(p, Card::REDEPLOY)
                    && self.redeploy_targets(p, card) & bit != 0
            }
            (Phase::Play, Action::Deserter { card }) => {
                card_ok(card)
                    && self.guile_allowed(p, Card::DESERTER)
                    && self.touchable(card, 1 - p).is_some()
            }
            (Phase::Play, Action::Traitor { card, flag }) => {
                card_ok(card)
                    && self.guile_allowed(p, Card::TRAITOR)
                    && self.traitor_targets(p, card) & flag_bit(flag) != 0
            }
            (Phase::Play, Action::Pass) => !self.has_troop_play(p),
            (Phase::Claim, Action::Claim(f)) => self.claimable & flag_bit(f) != 0,
            (Phase::Claim, Action::Done) => true,
            (Phase::Draw | Phase::ScoutDraw, Action::Draw(d)) => self.deck_len(d) > 0,
            (Phase::ScoutReturn, Action::Return(card)) => {
                card_ok(card) && self.hands[p].contains(card)
            }
            _ => false,
        }
    }

    // ---- legal actions -------------------------------------------------------------

    /// The legal actions, ascending by id.
    pub fn legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let p = self.to_move as usize;
        match self.phase {
            Phase::Over => {}
            Phase::Play => self.legal_plays(p, out),
            Phase::Claim => {
                for f in bits(self.claimable) {
                    out.push(Action::Claim(f as u8));
                }
                out.push(Action::Done);
            }
            Phase::Draw | Phase::ScoutDraw => {
                for d in [Deck::Troop, Deck::Tactics] {
                    if self.deck_len(d) > 0 {
                        out.push(Action::Draw(d));
                    }
                }
            }
            Phase::ScoutReturn => {
                for c in self.hands[p].iter() {
                    out.push(Action::Return(c));
                }
            }
        }
    }

    fn legal_plays(&self, p: usize, out: &mut Vec<Action>) {
        self.play_options(p, |o| match o {
            PlayOption::Card { card, flags } => {
                out.extend(bits(flags).map(|f| Action::Play {
                    card,
                    flag: f as u8,
                }));
            }
            PlayOption::Scout => out.push(Action::Scout),
            PlayOption::Redeploy { card, targets } => {
                let flags = targets & !(1 << NUM_FLAGS);
                out.extend(bits(flags).map(|f| Action::Redeploy {
                    card,
                    to: Some(f as u8),
                }));
                if targets & 1 << NUM_FLAGS != 0 {
                    out.push(Action::Redeploy { card, to: None });
                }
            }
            PlayOption::Deserter { card } => out.push(Action::Deserter { card }),
            PlayOption::Traitor { card, flags } => {
                out.extend(bits(flags).map(|f| Action::Traitor {
                    card,
                    flag: f as u8,
                }));
            }
            PlayOption::Pass => out.push(Action::Pass),
        });
    }

    /// The play step's legal moves, grouped as [`PlayOption`]s and given to `sink` in
    /// ascending order of their action ids: the one walk of the rules behind both
    /// [`BattleLine::legal`] and [`BattleLine::legal_bits`], so the list and the bits
    /// cannot disagree. Empty masks are skipped.
    #[inline]
    fn play_options(&self, p: usize, mut sink: impl FnMut(PlayOption)) {
        let o = 1 - p;
        let free = self.free_flags(p);
        for card in self.hands[p].iter() {
            // play_flags(p, c) for a troop in hand is `free`: skip its questions.
            let flags = if card.is_troop() {
                free
            } else {
                self.play_flags(p, card)
            };
            if flags != 0 {
                sink(PlayOption::Card { card, flags });
            }
        }
        if self.guile_allowed(p, Card::SCOUT) && !self.decks_empty() {
            sink(PlayOption::Scout);
        }
        if self.guile_allowed(p, Card::REDEPLOY) {
            for card in self.table[p].iter() {
                let targets = self.redeploy_targets(p, card);
                if targets != 0 {
                    sink(PlayOption::Redeploy { card, targets });
                }
            }
        }
        if self.guile_allowed(p, Card::DESERTER) {
            for card in self.table[o].iter() {
                if self.touchable(card, o).is_some() {
                    sink(PlayOption::Deserter { card });
                }
            }
        }
        if self.guile_allowed(p, Card::TRAITOR) {
            for card in self.table[o].iter() {
                let flags = self.traitor_targets(p, card);
                if flags != 0 {
                    sink(PlayOption::Traitor { card, flags });
                }
            }
        }
        if !self.has_troop_play(p) {
            sink(PlayOption::Pass);
        }
    }

    /// The ids of [`BattleLine::legal`] as bits (id `i` is bit `i % 64` of `words[i / 64]`),
    /// ORed into `words` straight from the same conditions: each card's flags or targets are
    /// one mask, shifted into place at the card's first id (see `notation` for the layout).
    /// `false` (nothing written) when `words` holds fewer than [`NUM_ACTIONS`] bits.
    pub fn legal_bits(&self, words: &mut [u64]) -> bool {
        if words.len() * 64 < NUM_ACTIONS {
            return false;
        }
        let p = self.to_move as usize;
        match self.phase {
            Phase::Over => {}
            Phase::Play => self.legal_play_bits(p, words),
            Phase::Claim => {
                put_bits(words, CLAIM_BASE, u64::from(self.claimable));
                put_bits(words, DONE_ID, 1);
            }
            Phase::Draw | Phase::ScoutDraw => {
                put_bits(
                    words,
                    DRAW_TROOP_ID,
                    u64::from(self.deck_len(Deck::Troop) > 0),
                );
                put_bits(
                    words,
                    DRAW_TACTICS_ID,
                    u64::from(self.deck_len(Deck::Tactics) > 0),
                );
            }
            Phase::ScoutReturn => {
                for c in self.hands[p].iter() {
                    put_bits(words, RETURN_BASE + c.id(), 1);
                }
            }
        }
        true
    }

    /// [`BattleLine::legal_plays`] as bits: each option's mask shifted into place at its
    /// card's first id (Redeploy's bit 9, the discard, is id `c * 10 + 9`: the layout's own).
    fn legal_play_bits(&self, p: usize, words: &mut [u64]) {
        self.play_options(p, |o| match o {
            PlayOption::Card { card, flags } => {
                put_bits(words, PLAY_BASE + card.id() * 9, u64::from(flags));
            }
            PlayOption::Scout => put_bits(words, SCOUT_ID, 1),
            PlayOption::Redeploy { card, targets } => {
                put_bits(words, REDEPLOY_BASE + card.id() * 10, u64::from(targets));
            }
            PlayOption::Deserter { card } => put_bits(words, DESERTER_BASE + card.id(), 1),
            PlayOption::Traitor { card, flags } => {
                put_bits(words, TRAITOR_BASE + card.id() * 9, u64::from(flags));
            }
            PlayOption::Pass => put_bits(words, PASS_ID, 1),
        });
    }

    #[inline]
    fn traitor_may_take(&self, p: usize, c: Card) -> bool {
        if self.options.traitor_troops_only && !c.is_troop() {
            return false;
        }
        !(c.is_leader() && self.has_leader_on_table(p))
    }

    // ---- validation ----------------------------------------------------------------

    /// Check that `a` is legal now; never mutates. Legality is `BattleLine::allows`, the
    /// decision move generation makes; a refusal then names the first rule `a` breaks.
    pub fn check(&self, a: Action) -> Result<()> {
        if self.allows(a) {
            return Ok(());
        }
        Err(match self.refusal(a) {
            Err(e) => e,
            // Every refusal is explained above; this is a guard, not a rule.
            Ok(()) => Error::illegal("BL-3.1", format!("{a} is not legal now")),
        })
    }

    /// Why `a` is refused, in the order the rules are read: `Err` with the rule id.
    fn refusal(&self, a: Action) -> Result<()> {
        let p = self.to_move as usize;
        let o = 1 - p;
        if self.phase == Phase::Over {
            return Err(Error::illegal("BL-11.4", "the game is over"));
        }
        check_ranges(a)?;
        let step = |phase: Phase, want: &str| -> Result<()> {
            if self.phase == phase {
                Ok(())
            } else {
                Err(self.step_error(a, want))
            }
        };
        match a {
            Action::Play { card, flag } => {
                step(Phase::Play, "a play")?;
                self.refuse_play(p, card, flag as usize)
            }
            Action::Scout => {
                step(Phase::Play, "a play")?;
                self.need_tactics(p, Card::SCOUT)?;
                if self.decks_empty() {
                    return Err(Error::illegal("BL-8.1", "Scout needs a card in the decks"));
                }
                Ok(())
            }
            Action::Redeploy { card, to } => {
                step(Phase::Play, "a play")?;
                self.refuse_redeploy(p, card, to)
            }
            Action::Deserter { card } => {
                step(Phase::Play, "a play")?;
                self.need_tactics(p, Card::DESERTER)?;
                self.on_side(card, o, "BL-8.3", "the opponent's")?;
                Ok(())
            }
            Action::Traitor { card, flag } => {
                step(Phase::Play, "a play")?;
                self.refuse_traitor(p, card, flag as usize)
            }
            Action::Pass => {
                step(Phase::Play, "a pass")?;
                if self.has_troop_play(p) {
                    return Err(Error::illegal(
                        "BL-10.1",
                        format!("player {p} may pass only without a legal troop play"),
                    ));
                }
                Ok(())
            }
            Action::Claim(flag) => {
                step(Phase::Claim, "a claim")?;
                self.refuse_claim(p, flag as usize)
            }
            Action::Done => step(Phase::Claim, "the end of the claims"),
            Action::Draw(d) => {
                if self.phase != Phase::Draw && self.phase != Phase::ScoutDraw {
                    return Err(self.step_error(a, "a draw"));
                }
                if self.deck_len(d) == 0 {
                    return Err(Error::illegal(
                        "BL-3.5",
                        format!("the {} deck is empty", d.name()),
                    ));
                }
                Ok(())
            }
            Action::Return(card) => {
                step(Phase::ScoutReturn, "a Scout return")?;
                if !self.hands[p].contains(card) {
                    return Err(Error::illegal(
                        "BL-8.1",
                        format!("{card} is not in player {p}'s hand"),
                    ));
                }
                Ok(())
            }
        }
    }

    /// `a` (`want`, e.g. "a play") made at another step (BL-3.1).
    fn step_error(&self, a: Action, want: &str) -> Error {
        Error::illegal(
            "BL-3.1",
            format!(
                "{a} is {want}, but player {} is at the {} step",
                self.to_move,
                self.phase.name().replace('_', " ")
            ),
        )
    }

    /// `c` must be in player `p`'s hand (BL-3.3).
    fn need_in_hand(&self, p: usize, c: Card) -> Result<()> {
        if self.hands[p].contains(c) {
            Ok(())
        } else {
            Err(Error::illegal(
                "BL-3.3",
                format!("{c} is not in player {p}'s hand"),
            ))
        }
    }

    /// The tactics card `c` must be in `p`'s hand and playable now (BL-6.1).
    fn need_tactics(&self, p: usize, c: Card) -> Result<()> {
        self.need_in_hand(p, c)?;
        if self.tactics_allowed(p) {
            Ok(())
        } else {
            Err(Error::illegal(
                "BL-6.1",
                format!(
                    "player {p} has played {} tactics cards and the opponent {}: one more would put them two ahead",
                    self.tactics_played[p], self.tactics_played[1 - p]
                ),
            ))
        }
    }

    /// Flag `f` must be unclaimed (BL-9.7); `what` says what a claim forbids.
    fn unclaimed(&self, f: usize, what: &str) -> Result<()> {
        match self.flags[f].claimed {
            None => Ok(()),
            Some(w) => Err(Error::illegal(
                "BL-9.7",
                format!("flag {f} is claimed (by player {w}): {what}"),
            )),
        }
    }

    /// The flag where `c` lies on `side`'s side, unclaimed; else `rule`'s refusal.
    fn on_side(&self, c: Card, side: usize, rule: &str, who: &str) -> Result<usize> {
        match self.table_place(c) {
            Some((f, s)) if s == side => {
                self.unclaimed(f, "tactics no longer affect it")?;
                Ok(f)
            }
            _ => Err(Error::illegal(
                rule,
                format!("{c} is not on {who} side of the battle line"),
            )),
        }
    }

    /// Player `p` playing `card` at flag `f`.
    fn refuse_play(&self, p: usize, card: Card, f: usize) -> Result<()> {
        if card.is_troop() {
            self.need_in_hand(p, card)?;
        } else {
            self.need_tactics(p, card)?;
        }
        self.unclaimed(f, "no card may be played there")?;
        if card.is_leader() && !self.leader_allowed(p) {
            return Err(Error::illegal(
                "BL-6.2",
                format!("player {p} may have only one Leader in play, ever"),
            ));
        }
        if card.is_formation_card() && !self.flags[f].has_room(p) {
            return Err(Error::illegal(
                "BL-4.2",
                format!(
                    "player {p}'s side of flag {f} is full ({} cards)",
                    self.flags[f].capacity()
                ),
            ));
        }
        if !card.is_formation_card() && !card.is_environment() {
            return Err(Error::illegal(
                "BL-8.5",
                format!("{card} is not placed at a flag"),
            ));
        }
        Ok(())
    }

    /// Player `p` moving its `card` with Redeploy to flag `to` (or discarding it).
    fn refuse_redeploy(&self, p: usize, card: Card, to: Option<u8>) -> Result<()> {
        self.need_tactics(p, Card::REDEPLOY)?;
        let f = self.on_side(card, p, "BL-8.2", "your")?;
        if let Some(g) = to {
            let g = g as usize;
            if g == f {
                return Err(Error::illegal(
                    "BL-8.2",
                    format!("Redeploy moves {card} to another flag than {f}"),
                ));
            }
            self.can_move_to(p, card, g)?;
        }
        Ok(())
    }

    /// Player `p` taking the opponent's `card` with Traitor to its flag `g`.
    fn refuse_traitor(&self, p: usize, card: Card, g: usize) -> Result<()> {
        self.need_tactics(p, Card::TRAITOR)?;
        self.on_side(card, 1 - p, "BL-8.4", "the opponent's")?;
        if self.options.traitor_troops_only && !card.is_troop() {
            return Err(Error::illegal(
                "BL-8.4",
                format!("with traitor_troops_only, Traitor takes troop cards only, not {card}"),
            ));
        }
        if card.is_leader() && self.has_leader_on_table(p) {
            return Err(Error::illegal(
                "BL-6.2",
                format!("player {p} already has a Leader in play"),
            ));
        }
        self.can_move_to(p, card, g)
    }

    /// Player `p` may move `card` (Redeploy, Traitor) to flag `g`: unclaimed, and with room
    /// on `p`'s side for a formation card.
    fn can_move_to(&self, p: usize, card: Card, g: usize) -> Result<()> {
        self.unclaimed(g, "no card may be moved there")?;
        if card.is_formation_card() && !self.flags[g].has_room(p) {
            return Err(Error::illegal(
                "BL-4.2",
                format!("player {p}'s side of flag {g} is full"),
            ));
        }
        Ok(())
    }

    /// Player `p` claiming flag `f`: with a proof, or the rule its formation fails.
    fn refuse_claim(&self, p: usize, f: usize) -> Result<()> {
        self.unclaimed(f, "it cannot be claimed again")?;
        if self.claimable & 1 << f != 0 {
            return Ok(());
        }
        Err(match self.claim_proof(f, p) {
            None => Error::illegal(
                "BL-9.2",
                format!("player {p}'s formation at flag {f} is not complete"),
            ),
            Some(proof) => {
                let rule = match proof.verdict {
                    Verdict::LosesTie => "BL-9.6",
                    Verdict::Beatable => "BL-9.4",
                    _ => "BL-9.3",
                };
                Error::illegal(rule, format!("flag {f}: {proof}"))
            }
        })
    }

    // ---- carrying out --------------------------------------------------------------

    /// Carry out `a`, already accepted by [`BattleLine::check`].
    pub(super) fn execute(&mut self, a: Action) {
        let p = self.to_move as usize;
        let o = 1 - p;
        match a {
            Action::Play { card, flag } if card.is_troop() => {
                self.last_play[p] = Some((card, flag));
            }
            Action::Play { .. }
            | Action::Scout
            | Action::Redeploy { .. }
            | Action::Deserter { .. }
            | Action::Traitor { .. }
            | Action::Pass => self.last_play[p] = None,
            _ => {}
        }
        match a {
            Action::Play { card, flag } => {
                self.take_from_hand(p, card);
                if card.is_tactics() {
                    self.tactics_played[p] += 1;
                }
                if card.is_leader() {
                    self.leader_played[p] = true;
                }
                if card.is_troop() {
                    self.unseen &= !(1u64 << card.0);
                }
                self.place(card, flag as usize, p);
                self.pass_streak = 0;
                self.after_play();
            }
            Action::Scout => {
                self.play_guile(p, Card::SCOUT);
                self.scout_drawn = 0;
                self.scout_left = (self.troop_deck.len() + self.tactics_deck.len()).min(3) as u8;
                self.phase = Phase::ScoutDraw;
                self.scout_continue();
            }
            Action::Redeploy { card, to } => {
                self.play_guile(p, Card::REDEPLOY);
                let left = self.take(card);
                match to {
                    Some(g) => self.place(card, g as usize, p),
                    None => self.discard_card(card),
                }
                if let Some(f) = left {
                    self.mud_leaves(f, p);
                }
                self.after_play();
            }
            Action::Deserter { card } => {
                self.play_guile(p, Card::DESERTER);
                let left = self.take(card);
                self.discard_card(card);
                if let Some(f) = left {
                    self.mud_leaves(f, p);
                }
                self.after_play();
            }
            Action::Traitor { card, flag } => {
                self.play_guile(p, Card::TRAITOR);
                if card.is_leader() {
                    // BL-6.2: a Leader taken counts as the taker's one Leader.
                    self.leader_played[p] = true;
                }
                let g = flag as usize;
                let same_flag_env =
                    card.is_environment() && self.table_place(card).is_some_and(|(f, _)| f == g);
                if same_flag_env {
                    // Only the owner changes: the flag keeps its Fog/Mud.
                    let fl = &mut self.flags[g];
                    if card == Card::FOG {
                        fl.fog = Some(p as u8);
                    } else {
                        fl.mud = Some(p as u8);
                    }
                    self.table[o].remove(card);
                    self.table[p].insert(card);
                    self.loc[card.id()] = loc_flag(g, p);
                    self.refresh_flag(g);
                } else {
                    let left = self.take(card);
                    self.place(card, g, p);
                    if let Some(f) = left {
                        self.mud_leaves(f, p);
                    }
                }
                self.after_play();
            }
            Action::Pass => {
                self.pass_streak += 1;
                self.after_play();
            }
            Action::Claim(f) => {
                self.claim(f as usize, p);
                if self.phase != Phase::Over && self.claimable == 0 {
                    self.after_claims();
                }
            }
            Action::Done => self.after_claims(),
            Action::Draw(d) => {
                self.draw(p, d);
                if self.phase == Phase::ScoutDraw {
                    self.scout_drawn += 1;
                    self.scout_left -= 1;
                    self.scout_continue();
                } else {
                    self.end_turn();
                }
            }
            Action::Return(card) => {
                self.return_card(p, card);
                self.scout_left -= 1;
                if self.scout_left == 0 {
                    self.after_play();
                }
            }
        }
    }

    fn take_from_hand(&mut self, p: usize, c: Card) {
        self.hands[p].remove(c);
        self.known[1 - p].opp_hand.remove(c);
    }

    fn play_guile(&mut self, p: usize, c: Card) {
        self.take_from_hand(p, c);
        self.tactics_played[p] += 1;
        self.discard_card(c);
        self.pass_streak = 0;
    }

    fn discard_card(&mut self, c: Card) {
        self.discard.push(c);
        self.loc[c.id()] = LOC_DISCARD;
    }

    /// Put a card on side `p` of flag `f` (formation slot or environment).
    fn place(&mut self, c: Card, f: usize, p: usize) {
        let fl = &mut self.flags[f];
        if c.is_formation_card() {
            fl.push(p, c);
            if fl.is_complete(p) && fl.first_complete.is_none() {
                fl.first_complete = Some(p as u8);
            }
        } else if c == Card::FOG {
            fl.fog = Some(p as u8);
        } else {
            // Mud arrives: formations here now need 4 cards, so no side is complete.
            fl.mud = Some(p as u8);
            fl.first_complete = None;
        }
        self.table[p].insert(c);
        self.loc[c.id()] = loc_flag(f, p);
        self.refresh_flag(f);
    }

    /// Take a card off the table (it goes wherever the caller puts it next).
    /// Returns the flag Mud left, if `c` is the Mud: the caller puts the Mud where it goes
    /// and then calls [`BattleLine::mud_leaves`].
    #[must_use]
    fn take(&mut self, c: Card) -> Option<usize> {
        let (f, side) = self.table_place(c)?;
        self.table[side].remove(c);
        let fl = &mut self.flags[f];
        if c.is_formation_card() {
            fl.remove(side, c);
            if fl.first_complete == Some(side as u8) {
                fl.first_complete = fl.is_complete(1 - side).then_some(1 - side as u8);
            }
        } else if c == Card::FOG {
            fl.fog = None;
        } else {
            fl.mud = None;
            self.refresh_flag(f);
            return Some(f);
        }
        self.refresh_flag(f);
        None
    }

    /// BL-7.5: Mud has left flag `f` (moved by `actor`'s tactics card); sides holding 4
    /// cards discard one at once.
    fn mud_leaves(&mut self, f: usize, actor: usize) {
        let fog = self.flags[f].fog.is_some();
        let before = self.flags[f].first_complete;
        for side in 0..2 {
            if self.flags[f].len[side] == 4 {
                let cards = self.flags[f].cards[side];
                let out = mud_discard_choice(&cards, fog);
                self.flags[f].remove(side, out);
                self.table[side].remove(out);
                self.discard_card(out);
            }
        }
        let fl = &mut self.flags[f];
        let complete = [fl.is_complete(0), fl.is_complete(1)];
        fl.first_complete = match (before, complete) {
            (Some(s), _) => Some(s),
            (None, [true, true]) => Some(1 - actor as u8),
            (None, [true, false]) => Some(0),
            (None, [false, true]) => Some(1),
            (None, [false, false]) => None,
        };
        self.refresh_flag(f);
    }

    fn draw(&mut self, p: usize, d: Deck) {
        let (card, pos) = match d {
            Deck::Troop => {
                let pos = self.troop_deck.len().wrapping_sub(1);
                (self.troop_deck.pop(), pos)
            }
            Deck::Tactics => {
                let pos = self.tactics_deck.len().wrapping_sub(1);
                (self.tactics_deck.pop(), pos)
            }
        };
        let Some(card) = card else { return };
        self.hands[p].insert(card);
        self.loc[card.id()] = LOC_HAND + p as u8;
        let di = d.index();
        for k in 0..2 {
            let bit = 1u64 << pos;
            if self.known[k].deck_pos[di] & bit != 0 {
                self.known[k].deck_pos[di] &= !bit;
                if k != p {
                    self.known[k].opp_hand.insert(card);
                }
            }
        }
    }

    fn return_card(&mut self, p: usize, c: Card) {
        self.hands[p].remove(c);
        let d = c.deck();
        let pos = self.deck_len(d);
        match d {
            Deck::Troop => {
                self.troop_deck.push(c);
                self.loc[c.id()] = LOC_TROOP_DECK;
            }
            Deck::Tactics => {
                self.tactics_deck.push(c);
                self.loc[c.id()] = LOC_TACTICS_DECK;
            }
        }
        self.known[p].deck_pos[d.index()] |= 1u64 << pos;
        // The opponent sees a card of this kind go back but not which: what they knew
        // about such cards in this hand is no longer certain.
        let kind_bits = match d {
            Deck::Troop => u128::from(ALL_TROOPS),
            Deck::Tactics => TACTICS_BITS,
        };
        self.known[1 - p].opp_hand.0 &= !kind_bits;
    }

    /// Carry on with Scout's draws, making forced ones, until a choice or the returns.
    fn scout_continue(&mut self) {
        let p = self.to_move as usize;
        while self.scout_left > 0 {
            match (self.troop_deck.is_empty(), self.tactics_deck.is_empty()) {
                (false, false) => return, // the player chooses
                (false, true) => self.draw(p, Deck::Troop),
                (true, false) => self.draw(p, Deck::Tactics),
                (true, true) => {
                    self.scout_left = 0;
                    break;
                }
            }
            self.scout_drawn += 1;
            self.scout_left -= 1;
        }
        let returns = self.scout_drawn.saturating_sub(1).min(2);
        if returns == 0 {
            self.after_play();
        } else {
            self.phase = Phase::ScoutReturn;
            self.scout_left = returns;
        }
    }

    fn claim(&mut self, f: usize, p: usize) {
        self.flags[f].claimed = Some(p as u8);
        self.claimed_mask |= 1 << f;
        self.refresh_flag(f);
        self.claimable &= !(1 << f);
        if self.has_won(p) {
            self.phase = Phase::Over;
            self.winner = Some(p as u8);
            self.claimable = 0;
        }
    }

    /// BL-11.1/11.2: three adjacent flags or any five.
    pub(crate) fn has_won(&self, p: usize) -> bool {
        let mut mine = 0u16;
        for (f, fl) in self.flags.iter().enumerate() {
            if fl.claimed == Some(p as u8) {
                mine |= 1 << f;
            }
        }
        mine.count_ones() >= 5 || mine & (mine >> 1) & (mine >> 2) != 0
    }

    fn begin_turn(&mut self) {
        if self.options.claim_at_turn_start {
            self.enter_claims();
        } else {
            self.phase = Phase::Play;
        }
    }

    fn after_play(&mut self) {
        if self.options.claim_at_turn_start {
            self.draw_step();
        } else {
            self.enter_claims();
        }
    }

    fn enter_claims(&mut self) {
        let p = self.to_move as usize;
        let m = self.claimable_flags(p);
        if self.pass_streak >= 2 {
            // BL-10.3: after two passes in a row the claims are made at once.
            for f in bits(m) {
                self.claim(f, p);
                if self.phase == Phase::Over {
                    return;
                }
            }
        } else if m != 0 {
            self.claimable = m;
            self.phase = Phase::Claim;
            return;
        }
        self.after_claims();
    }

    fn after_claims(&mut self) {
        self.claimable = 0;
        if self.options.claim_at_turn_start {
            self.phase = Phase::Play;
        } else {
            self.draw_step();
        }
    }

    fn draw_step(&mut self) {
        let p = self.to_move as usize;
        if self.hands[p].len() < HAND_SIZE {
            match (self.troop_deck.is_empty(), self.tactics_deck.is_empty()) {
                (false, false) => {
                    self.phase = Phase::Draw;
                    return;
                }
                (false, true) => self.draw(p, Deck::Troop),
                (true, false) => self.draw(p, Deck::Tactics),
                (true, true) => {}
            }
        }
        self.end_turn();
    }

    fn end_turn(&mut self) {
        if self.pass_streak >= 2 && self.claimable_flags(0) == 0 && self.claimable_flags(1) == 0 {
            // BL-11.3: both passed and nothing can be claimed.
            let won = self.flags_won();
            self.winner = match won[0].cmp(&won[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            };
            self.phase = Phase::Over;
            return;
        }
        self.to_move ^= 1;
        self.begin_turn();
    }
}

/// BL-7.5: the card a 4-card side discards when Mud leaves — the one whose loss leaves the
/// best formation; ties: the lowest value (wild cards count their highest), then the lowest
/// card id.
pub fn mud_discard_choice(cards: &[Card; 4], fog: bool) -> Card {
    let mut best: Option<(u16, std::cmp::Reverse<u8>, std::cmp::Reverse<u8>, Card)> = None;
    for i in 0..4 {
        let mut rest = [Card(0); 3];
        let mut k = 0;
        for (j, &c) in cards.iter().enumerate() {
            if j != i {
                rest[k] = c;
                k += 1;
            }
        }
        let s = best_formation(&rest, fog).strength();
        let key = (
            s,
            std::cmp::Reverse(cards[i].max_value()),
            std::cmp::Reverse(cards[i].0),
            cards[i],
        );
        if best.is_none_or(|b| (key.0, key.1, key.2) > (b.0, b.1, b.2)) {
            best = Some(key);
        }
    }
    best.map_or(cards[0], |b| b.3)
}

/// Card ids and flags of `a` within range (not a rule: a malformed action).
fn check_ranges(a: Action) -> Result<()> {
    let in_range = |c: Card| c.id() < 70;
    match a {
        Action::Play { card, .. }
        | Action::Redeploy { card, .. }
        | Action::Deserter { card }
        | Action::Traitor { card, .. }
        | Action::Return(card)
            if !in_range(card) =>
        {
            Err(Error::invalid(format!("card id {} out of range", card.0)))
        }
        Action::Play { flag, .. }
        | Action::Traitor { flag, .. }
        | Action::Claim(flag)
        | Action::Redeploy { to: Some(flag), .. }
            if flag as usize >= NUM_FLAGS =>
        {
            Err(Error::invalid(format!("flag {flag} out of range 0-8")))
        }
        _ => Ok(()),
    }
}
