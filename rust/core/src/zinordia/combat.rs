//! The combat primitives abilities resolve through: attack and defence rolls (ZN-7), damage
//! instances through Armadura and defeat (ZN-8, ZN-12.3), forced movement with collisions
//! (ZN-11.7). Ability activation (next) calls these; tests drive them on hand-built
//! positions.

use super::ability::Stat;
use super::options::AllyDefeat;
use super::state::Zinordia;
use crate::hex::coords::{axis_direction, distance, DIRECTIONS};
use crate::hex::{ForcedMove, Hex};

/// One attack: the attacker's single 2d6 roll and each target's defence (ZN-7.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackRoll {
    pub dice: [u8; 2],
    /// 2d6 plus the attacker's bonuses.
    pub total: i32,
    pub defences: Vec<Defence>,
}

/// One target's defence roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defence {
    pub star: usize,
    pub die: u8,
    /// 1d6 plus Agilidade plus the defence bonuses.
    pub total: i32,
    /// The attack total strictly exceeds the defence (ZN-7.3: ties to the defender).
    pub hit: bool,
}

/// What one damage instance did (ZN-8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Damage {
    pub absorbed: u16,
    pub vida_lost: u16,
    pub defeated: bool,
}

impl Zinordia {
    /// ZN-7.2 to ZN-7.4: the attacker rolls 2d6 once (plus `bonus`); each target, in the
    /// order given, rolls 1d6 plus its Agilidade and defence bonuses, its zone's terrain
    /// defence modifier among them (ZN-2.9). The roll is kept as `last_roll`.
    pub fn roll_attack(&mut self, targets: &[usize], bonus: i32) -> AttackRoll {
        let dice = [self.rng.roll(6) as u8, self.rng.roll(6) as u8];
        let total = i32::from(dice[0]) + i32::from(dice[1]) + bonus;
        let defences = targets
            .iter()
            .map(|&star| {
                let die = self.rng.roll(6) as u8;
                let d = i32::from(die)
                    + i32::from(self.agilidade(star))
                    + self.stat(star, Stat::Defence)
                    + i32::from(self.shared.modifiers(self.stars[star].zone).defence);
                Defence {
                    star,
                    die,
                    total: d,
                    hit: total > d,
                }
            })
            .collect();
        let roll = AttackRoll {
            dice,
            total,
            defences,
        };
        self.last_roll = Some(roll.clone());
        roll
    }

    /// One damage instance of `amount` to `target` from `source` (ZN-8.1): Armadura first,
    /// the excess from Vida; at 0 Vida the Star is defeated (ZN-8.5, ZN-12.3).
    pub fn damage(&mut self, source: Option<usize>, target: usize, amount: u32) -> Damage {
        let amount = amount.min(u32::from(u16::MAX)) as u16;
        let st = &mut self.stars[target];
        let absorbed = amount.min(st.armadura);
        st.armadura -= absorbed;
        let vida_lost = (amount - absorbed).min(st.vida);
        st.vida -= vida_lost;
        let defeated = st.vida == 0 && !st.defeated;
        if defeated {
            self.defeat(target, source);
        }
        Damage {
            absorbed,
            vida_lost,
            defeated,
        }
    }

    /// ZN-8.5, ZN-12.3: the Star leaves the board; its defeater gains 1 plus all the
    /// defeated Star's Renown. (With no defeater on the board the Renown is lost.) Its
    /// effects end with it, and when its player is now out (ZN-5.7) so do the effects that
    /// player's Stars applied: their durations count that player's turns, and none come.
    fn defeat(&mut self, target: usize, by: Option<usize>) {
        self.stars[target].effects.clear();
        let carried = std::mem::take(&mut self.stars[target].renown);
        if let Some(h) = self.stars[target].zone.take() {
            // The zone exists (the Star stood on it).
            let _ = self.board_mut().set_occupant(h, None);
        }
        self.stars[target].defeated = true;
        // A defeater already out of the game (damage over time it left behind) gains nothing,
        // nor does one defeating an ally unless `ally_defeat = "pays"`.
        if let Some(k) = by.filter(|&k| k != target && self.alive(k)) {
            if !self.ally(k, target) || self.options().ally_defeat == AllyDefeat::Pays {
                self.stars[k].renown = self.stars[k].renown.saturating_add(1 + carried);
            }
        }
        if self.play.is_some_and(|p| p.star == target) {
            self.play = None;
        }
        let owner = self.shared.owner(target);
        if !self.player_in_game(owner) {
            for st in &mut self.stars {
                st.effects.retain(|a| a.applier != owner);
            }
            self.clamp_armadura();
        }
        self.sync_continuous();
        // ZN-12.6: a kill reaching the target ends the game there.
        self.check_target();
    }

    /// The direction a push (away) or pull (toward) from `source` moves a Star at `target`
    /// (ZN-11.7): their common axis if they share one, else the direction that most
    /// increases (push) or decreases (pull) the distance, ties to the lower direction.
    pub fn forced_direction(source: Hex, target: Hex, pull: bool) -> Option<usize> {
        if source == target {
            return None;
        }
        if let Some(d) = axis_direction(source, target) {
            return Some(if pull { (d + 3) % 6 } else { d });
        }
        let dist = |d: usize| distance(source, target + DIRECTIONS[d]);
        if pull {
            (0..6).min_by_key(|&d| (dist(d), d))
        } else {
            (0..6).max_by_key(|&d| (dist(d), std::cmp::Reverse(d)))
        }
    }

    /// Push or pull the Star `target` `steps` zones from the Star `source` (ZN-11.7): one
    /// zone at a time; the first zone it cannot enter (void, obstacle, a Star, the source)
    /// is the collision and the movement stops. Moves the Star on the board.
    pub fn force_move(
        &mut self,
        source: usize,
        target: usize,
        steps: u32,
        pull: bool,
    ) -> Option<ForcedMove> {
        let from = self.stars.get(source)?.zone?;
        let at = self.stars.get(target)?.zone?;
        let dir = Self::forced_direction(from, at, pull)?;
        // The source's own zone is occupied by it, so a pull stops next to it: a collision
        // with the source.
        let m = self.board.forced_move(at, dir, steps);
        if m.end != at {
            let _ = self.board_mut().set_occupant(at, None);
            let _ = self.board_mut().set_occupant(m.end, Some(target as u32));
            self.stars[target].zone = Some(m.end);
            self.sync_continuous();
        }
        Some(m)
    }
}
