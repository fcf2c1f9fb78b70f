//! Claim proofs (rules BL-7.x): may a player claim a flag *now*?
//!
//! The claimant's side must be complete. If the opponent's side is complete too, the two
//! best formations are compared, ties going to the side that completed first. If it is not,
//! the claim holds exactly when no completion of the opponent's side with troop cards that
//! are still unseen (not on the table, not in the discard; the claimant's own hand counts as
//! unseen) beats the claimant's formation; a tie is enough, because the opponent would
//! complete later. Tactics cards the opponent might still play never enter a proof.

use super::cards::{Card, ALL_TROOPS};
use super::formation::{best_formation, search, Formation, Kind};
use crate::error::{Error, Result};
use std::fmt;

/// Why a claim holds or fails.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Verdict {
    /// The opponent's side is complete and weaker.
    Stronger,
    /// Both complete and equal; the claimant completed first.
    WinsTie,
    /// Both complete and equal; the opponent completed first.
    LosesTie,
    /// The opponent's side is complete and stronger.
    Weaker,
    /// The opponent's side is incomplete and no completion beats the claimant.
    Unbeatable,
    /// The opponent's side is incomplete and too few troops remain unseen to complete it.
    CannotComplete,
    /// The opponent's side is incomplete and some completion beats the claimant.
    Beatable,
}

impl Verdict {
    pub const fn holds(self) -> bool {
        matches!(
            self,
            Verdict::Stronger | Verdict::WinsTie | Verdict::Unbeatable | Verdict::CannotComplete
        )
    }
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Stronger => "stronger",
            Verdict::WinsTie => "wins_tie",
            Verdict::LosesTie => "loses_tie",
            Verdict::Weaker => "weaker",
            Verdict::Unbeatable => "unbeatable",
            Verdict::CannotComplete => "cannot_complete",
            Verdict::Beatable => "beatable",
        }
    }
}

/// The result of a claim proof, with its explanation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClaimProof {
    pub verdict: Verdict,
    /// The claimant's best formation.
    pub mine: Formation,
    /// The opponent's formation: their complete side's best formation, or, when the claim
    /// fails against an incomplete side, the counterexample completion that beats it.
    pub theirs: Option<Formation>,
    /// Formation size on this flag (3, or 4 under Mud).
    pub size: u8,
}

impl ClaimProof {
    #[inline]
    pub fn holds(&self) -> bool {
        self.verdict.holds()
    }
    /// The counterexample: the opponent's formation that beats or ties the claimant's, when
    /// the claim fails.
    pub fn counterexample(&self) -> Option<&Formation> {
        if self.holds() {
            None
        } else {
            self.theirs.as_ref()
        }
    }
}

impl fmt::Display for ClaimProof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.holds() { "holds" } else { "fails" };
        write!(f, "claim {verdict}: mine is {}", self.mine)?;
        match (self.verdict, &self.theirs) {
            (Verdict::Stronger, Some(t)) => write!(f, "; it beats theirs, {t}"),
            (Verdict::WinsTie, Some(t)) => {
                write!(f, "; it ties theirs, {t}, and mine was completed first")
            }
            (Verdict::LosesTie, Some(t)) => {
                write!(f, "; it ties theirs, {t}, which was completed first")
            }
            (Verdict::Weaker, Some(t)) => write!(f, "; theirs beats it: {t}"),
            (Verdict::Beatable, Some(t)) => write!(
                f,
                "; their side can still beat it with unseen troops: {t}"
            ),
            (Verdict::CannotComplete, _) => f.write_str(
                "; too few troop cards remain unseen for their side to ever complete",
            ),
            _ => f.write_str(
                "; no completion of their side with unseen troops beats it (a tie goes to mine, completed first)",
            ),
        }
    }
}

/// The proof without input checks (the engine's fast path). `mine.len() == size`,
/// `theirs.len() <= size`, cards distinct and outside `unseen`; `mine_first` matters only
/// when both sides are complete.
#[inline]
pub fn prove_unchecked(
    mine: &[Card],
    theirs: &[Card],
    unseen: u64,
    fog: bool,
    mud: bool,
    mine_first: bool,
) -> ClaimProof {
    let size = if mud { 4 } else { 3 };
    let my = best_formation(mine, fog);
    let s = my.strength();
    if theirs.len() == size {
        let th = best_formation(theirs, fog);
        let t = th.strength();
        let verdict = if s > t {
            Verdict::Stronger
        } else if s < t {
            Verdict::Weaker
        } else if mine_first {
            Verdict::WinsTie
        } else {
            Verdict::LosesTie
        };
        return ClaimProof {
            verdict,
            mine: my,
            theirs: Some(th),
            size: size as u8,
        };
    }
    let need = (size - theirs.len()) as u32;
    if unseen.count_ones() < need {
        return ClaimProof {
            verdict: Verdict::CannotComplete,
            mine: my,
            theirs: None,
            size: size as u8,
        };
    }
    // Only kinds at least as high as ours can beat us.
    let min_kind = if fog { Kind::Host } else { my.kind };
    let (verdict, theirs) = match search(theirs, unseen, size, fog, min_kind) {
        Some(t) if t.strength() > s => (Verdict::Beatable, Some(t)),
        _ => (Verdict::Unbeatable, None),
    };
    ClaimProof {
        verdict,
        mine: my,
        theirs,
        size: size as u8,
    }
}

/// Check a side given to the public functions: formation cards only, distinct, one Leader.
pub fn check_side(cards: &[Card], what: &str, max: usize) -> Result<()> {
    let mut seen = 0u128;
    let mut leaders = 0;
    for c in cards {
        if !c.is_formation_card() {
            return Err(Error::invalid(format!(
                "{what}: {c} is not a troop or morale card (Fog and Mud are given as flags, guile tactics never stand in a formation)"
            )));
        }
        if seen & c.bit() != 0 {
            return Err(Error::invalid(format!("{what}: {c} appears twice")));
        }
        seen |= c.bit();
        leaders += usize::from(c.is_leader());
    }
    if leaders > 1 {
        return Err(Error::illegal(
            "BL-6.2",
            format!("{what}: a side may hold only one Leader"),
        ));
    }
    if cards.len() > max {
        return Err(Error::invalid(format!(
            "{what}: {} cards, but a formation here has {max}",
            cards.len()
        )));
    }
    Ok(())
}

/// The best formation of 1-4 cards (public entry point: checks its input).
pub fn best_formation_checked(cards: &[Card], fog: bool) -> Result<Formation> {
    if cards.is_empty() {
        return Err(Error::invalid("best_formation: no cards"));
    }
    check_side(cards, "cards", 4)?;
    Ok(best_formation(cards, fog))
}

/// The proof, with every input checked (public entry point).
///
/// `mine_completed_first`: which side completed first when both are complete. `None` is
/// allowed only when the opponent's side is incomplete (then the claimant's was first).
pub fn prove_claim(
    mine: &[Card],
    theirs: &[Card],
    unseen: &[Card],
    fog: bool,
    mud: bool,
    mine_completed_first: Option<bool>,
) -> Result<ClaimProof> {
    let size = if mud { 4 } else { 3 };
    check_side(mine, "mine", size)?;
    check_side(theirs, "theirs", size)?;
    if mine.len() != size {
        return Err(Error::illegal(
            "BL-9.2",
            format!(
                "a claim needs a complete formation: mine has {} of {size} cards",
                mine.len()
            ),
        ));
    }
    let mut table = 0u128;
    for c in mine.iter().chain(theirs) {
        if table & c.bit() != 0 {
            return Err(Error::invalid(format!("{c} is on both sides")));
        }
        table |= c.bit();
    }
    let mut pool = 0u64;
    for c in unseen {
        if !c.is_troop() {
            return Err(Error::invalid(format!(
                "unseen: {c} is not a troop card (tactics never enter a proof)"
            )));
        }
        if table & c.bit() != 0 {
            return Err(Error::invalid(format!(
                "unseen: {c} is on the table, so it is not unseen"
            )));
        }
        pool |= 1u64 << c.0;
    }
    debug_assert_eq!(pool & !ALL_TROOPS, 0);
    let mine_first = match (theirs.len() == size, mine_completed_first) {
        (true, Some(b)) => b,
        (true, None) => return Err(Error::invalid(
            "both sides are complete: say which completed first (mine_completed_first=True/False)",
        )),
        (false, Some(false)) => {
            return Err(Error::invalid(
                "mine_completed_first=False, but their side is not complete yet",
            ))
        }
        (false, _) => true,
    };
    Ok(prove_unchecked(mine, theirs, pool, fog, mud, mine_first))
}
