//! Scoring: a unit's value on a row's terrain, the attack row bonus, card scores and the
//! combat of two cards (rules AG-3.3, AG-4, AG-6.4, AG-6.5).

use super::cards::{CardSet, TerrainCard, UnitCard, UnitType};

/// The unit type a row adds +1 attack to: row 1 (front) cavaleiros, row 2 guerreiros, row 3
/// arqueiros (AG-3.3). Magos never get a row bonus.
pub const ROW_BONUS: [UnitType; 3] = [UnitType::Cavaleiro, UnitType::Guerreiro, UnitType::Arqueiro];

/// One unit's value on a terrain: the terrain's value if it favours the unit's type, else 1
/// (AG-4.1). A row without terrain favours nothing.
pub fn unit_value(terrain: Option<&TerrainCard>, unit: UnitType) -> u32 {
    match terrain.map(|t| t.favours[unit as usize]) {
        Some(v) if v > 0 => u32::from(v),
        _ => 1,
    }
}

/// A card's score on row `row` (0-based) of a field whose terrain there is `terrain`.
/// `attack` adds the row bonus (AG-4.2; defence has none, AG-4.3); `ranged_only` counts only
/// archers and mages (AG-6.4).
pub fn card_score(
    card: &UnitCard,
    terrain: Option<&TerrainCard>,
    row: usize,
    attack: bool,
    ranged_only: bool,
) -> u32 {
    UnitType::ALL
        .iter()
        .filter(|u| !ranged_only || u.is_ranged())
        .map(|&u| {
            let n = u32::from(card.counts[u as usize]);
            let bonus = u32::from(attack && row < 3 && ROW_BONUS[row] == u);
            n * (unit_value(terrain, u) + bonus)
        })
        .sum()
}

/// A card's strength on a row for heuristics: the mean of its attack and defence scores.
pub fn strength(set: &CardSet, card: &UnitCard, terrain: Option<u8>, row: usize) -> f64 {
    let t = set.row_terrain(terrain);
    f64::from(card_score(card, t, row, true, false) + card_score(card, t, row, false, false)) / 2.0
}

/// The outcome of a combat: does the attack win? Ties go to the defence (AG-6.5).
pub fn attack_wins(attack: u32, defence: u32) -> bool {
    attack > defence
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terrain(favours: [u8; 4]) -> TerrainCard {
        TerrainCard {
            name: "t".into(),
            favours,
        }
    }

    fn unit(units: &[UnitType]) -> UnitCard {
        let mut counts = [0; 4];
        for u in units {
            counts[*u as usize] += 1;
        }
        UnitCard {
            name: None,
            units: units.to_vec(),
            counts,
        }
    }

    use UnitType::{Arqueiro as A, Cavaleiro as C, Guerreiro as G, Mago as M};

    /// AG-4.1, AG-4.2, AG-4.3, AG-3.3: terrain values, 1 for unfavoured units, the row bonus
    /// per unit of the row's type on attack only.
    #[test]
    fn ag_4_scores_with_terrain_and_row_bonus() {
        let plain = terrain([3, 2, 0, 0]); // C3 G2
        let card = unit(&[C, C, A]);
        // Row 1 (cavaleiro bonus): attack 2*(3+1) + 1 = 9, defence 3+3+1 = 7.
        assert_eq!(card_score(&card, Some(&plain), 0, true, false), 9);
        assert_eq!(card_score(&card, Some(&plain), 0, false, false), 7);
        // Row 3 (arqueiro bonus): attack 3+3+(1+1) = 8.
        assert_eq!(card_score(&card, Some(&plain), 2, true, false), 8);
        // Row 2: the guerreiro bonus does not apply to this card.
        assert_eq!(card_score(&card, Some(&plain), 1, true, false), 7);
        // No terrain: every unit is worth 1.
        assert_eq!(card_score(&card, None, 1, false, false), 3);
        // Magos never get a row bonus.
        let mages = unit(&[M, M]);
        for row in 0..3 {
            assert_eq!(
                card_score(&mages, Some(&terrain([0, 0, 0, 3])), row, true, false),
                6
            );
        }
        // A guerreiro on row 2 of a terrain favouring it: value + 1.
        assert_eq!(card_score(&unit(&[G]), Some(&plain), 1, true, false), 3);
    }

    /// AG-6.4: with ranged-only scoring, cavaleiros and guerreiros count nothing.
    #[test]
    fn ag_6_4_ranged_only_scoring() {
        let forest = terrain([0, 2, 3, 0]); // G2 A3
        let card = unit(&[G, G, A]);
        assert_eq!(card_score(&card, Some(&forest), 2, false, false), 7);
        assert_eq!(card_score(&card, Some(&forest), 2, false, true), 3);
        assert_eq!(card_score(&card, Some(&forest), 2, true, true), 4);
    }

    #[test]
    fn ag_6_5_ties_go_to_the_defence() {
        assert!(!attack_wins(5, 5));
        assert!(attack_wins(6, 5));
        assert!(!attack_wins(4, 5));
    }
}
