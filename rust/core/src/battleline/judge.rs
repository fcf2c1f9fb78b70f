//! The mover's candidate moves judged fast and exactly
//! ([`Knowledge::evaluate_after`](crate::knowledge::Knowledge::evaluate_after)): what the
//! search's expansions ask for every candidate they compare.
//!
//! Judging a move the plain way is copy, play, `evaluate`, and most of `evaluate` is the
//! best completion of each side of each open flag: 18 exact searches. A troop play changes
//! much less. The other player's completions draw on its own hand and the troop deck, and
//! the play leaves both alone (unless a draw the engine makes by itself follows it); the
//! mover's completions elsewhere draw on its hand and the deck less the card played, and
//! the best of them stays the same unless it used that card (taking away cards a
//! completion did not use leaves it the first best the search finds). So a side is worked
//! out afresh only where its cards, its flag's size or Fog changed, where its pool gained
//! a card, or where its best completion lost a card or moved one between hand and deck;
//! every other side is taken from the position before the move, whatever the move (tactics
//! and guile cards included). Claim proofs, the tactics inputs and the combination are
//! worked out on the played copy as `evaluate` does. A test compares every value with
//! copy-play-evaluate, bit for bit.

use super::evaluate::{value_of, WEIGHTS};
use super::notation::Action;
use super::state::{BattleLine, NUM_FLAGS};
use crate::error::Result;
use crate::game::Game;
use crate::knowledge::position_value;

/// `evaluate(player)` after each of `actions` (legal in `g`), in order, into `out`.
pub(super) fn evaluate_after(
    g: &BattleLine,
    actions: &[Action],
    player: usize,
    out: &mut Vec<f64>,
) -> Result<()> {
    out.clear();
    let pools = g.pools();
    // Each side of each flag before the play, worked out when first needed.
    let mut before: [[Option<(f64, f64, u64)>; 2]; NUM_FLAGS] = [[None; 2]; NUM_FLAGS];
    for &a in actions {
        let mut after = g.clone();
        after.apply(a)?;
        if after.is_terminal() {
            out.push(position_value(&after, player));
            continue;
        }
        let after_pools = after.pools();
        let inputs = after.flag_inputs_by(|f, p| {
            let (was, now) = (&g.flags[f], &after.flags[f]);
            let same_side = was.side(p) == now.side(p)
                && was.capacity() == now.capacity()
                && was.fog.is_some() == now.fog.is_some();
            // What the side draws on: its owner's hand and the troop deck.
            let pool = |(hands, deck): ([u64; 2], u64)| hands[p] | deck;
            if same_side && pool(after_pools) & !pool(pools) == 0 {
                let b = *before[f][p].get_or_insert_with(|| g.side_input(f, p, pools));
                // Its best completion is still there, and the same cards of it in hand.
                if b.2 & !pool(after_pools) == 0 && b.2 & (pools.0[p] ^ after_pools.0[p]) == 0 {
                    return (b.0, b.1);
                }
            }
            let (rank, missing, _) = after.side_input(f, p, after_pools);
            (rank, missing)
        });
        // As `evaluate_for`: kept inside (-1, 1), player 0's value negated for player 1.
        let v = value_of(&inputs, &WEIGHTS).clamp(-0.99, 0.99);
        out.push(if player == 0 { v } else { -v });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::knowledge::Knowledge;
    use crate::rng::GameRng;

    /// Every legal move's fast value equals copy-play-evaluate's, bit for bit, for both
    /// players, in positions of random games and in redraws of them (the worlds the search
    /// judges), every kind of move included as it comes (the engine's own draws too).
    #[test]
    fn the_fast_values_are_the_plain_ones() {
        let mut rng = GameRng::seed(20);
        let mut judged = 0usize;
        let mut legal = Vec::new();
        let mut fast = Vec::new();
        for seed in 0..40u64 {
            let mut g = BattleLine::new(seed, &Default::default()).unwrap();
            while !g.is_terminal() {
                for world in [
                    g.clone(),
                    g.resample_hidden(g.to_move as usize, seed * 7 + 1),
                ] {
                    world.legal_actions(&mut legal);
                    for player in 0..2 {
                        assert!(world.evaluate_after(&legal, player, &mut fast).unwrap());
                        assert_eq!(fast.len(), legal.len());
                        for (&a, &v) in legal.iter().zip(&fast) {
                            let mut after = world.clone();
                            after.apply(a).unwrap();
                            let plain = position_value(&after, player);
                            assert_eq!(v.to_bits(), plain.to_bits(), "{a:?} for {player}");
                            judged += 1;
                        }
                    }
                }
                g.legal_actions(&mut legal);
                let a = legal[rng.below(legal.len())];
                g.apply(a).unwrap();
            }
        }
        assert!(judged > 10_000, "{judged}");
    }
}
