//! Lasting effects on Stars (ZN-11): buffs and debuffs, marks, silence, immunity, damage over
//! time; their durations (ZN-10.5, ZN-5.3) and the current status values they make
//! (ZN-11.2), continuous passives included (ZN-10.2 `while_*`).

use super::ability::{Immunity, Kind, SilenceScope, Stat, Trigger};
use super::options::{DurationsTick, UntimedBuffs};
use super::state::Zinordia;
use crate::game::Player;

/// What a lasting effect is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// A buff (`amount > 0`) or debuff; `stacks = false` replaces a like one.
    Stat {
        stat: Stat,
        amount: i8,
        stacks: bool,
    },
    Mark(String),
    Silence {
        scope: SilenceScope,
        passives: bool,
    },
    Immune(Immunity),
    /// An instance of `amount` damage at each of the applier's Second Maintenances.
    Dot {
        amount: u16,
    },
}

/// A lasting effect on a Star.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub status: Status,
    /// The player whose turns count it down (ZN-5.3, ZN-5.6).
    pub applier: Player,
    /// The Star that applied it (the source of its damage over time).
    pub by: usize,
    /// Turns left; `None`: until the end of the current turn (ZN-10.5).
    pub turns: Option<u8>,
}

impl Zinordia {
    pub fn is_immune(&self, s: usize, class: Immunity) -> bool {
        self.stars[s]
            .effects
            .iter()
            .any(|a| a.status == Status::Immune(class))
    }

    pub fn has_mark(&self, s: usize, mark: &str) -> bool {
        self.mark_count(s, mark) > 0
    }

    /// Copies of a mark on the Star: at most 1 unless `marks_stack` (ZN-11.3).
    pub fn mark_count(&self, s: usize, mark: &str) -> usize {
        self.stars[s]
            .effects
            .iter()
            .filter(|a| matches!(&a.status, Status::Mark(m) if m == mark))
            .count()
    }

    /// An effect consumes a mark (ZN-10.9): one copy goes, the oldest (with `marks_stack`
    /// the others stay for later effects).
    pub(crate) fn consume_mark(&mut self, s: usize, mark: &str) {
        let effects = &mut self.stars[s].effects;
        if let Some(i) = effects
            .iter()
            .position(|a| matches!(&a.status, Status::Mark(m) if m == mark))
        {
            effects.remove(i);
        }
    }

    /// Whether an ability of this kind is silenced on the Star (ZN-11.5).
    pub fn is_silenced(&self, s: usize, kind: Kind) -> bool {
        self.stars[s].effects.iter().any(|a| match a.status {
            Status::Silence { scope, passives } => match kind {
                Kind::Passive => passives,
                Kind::Attack => matches!(scope, SilenceScope::All | SilenceScope::Attacks),
                Kind::Instant => matches!(scope, SilenceScope::All | SilenceScope::Instants),
                Kind::Reaction => matches!(scope, SilenceScope::All | SilenceScope::Reactions),
            },
            _ => false,
        })
    }

    /// Put a lasting effect on `target` from the Star `by` (ZN-11). Returns false when an
    /// immunity stopped it (ZN-11.10: it is simply not applied).
    pub fn add_status(
        &mut self,
        by: usize,
        target: usize,
        status: Status,
        turns: Option<u8>,
    ) -> bool {
        let blocked_by = match &status {
            Status::Stat { amount, .. } if *amount < 0 => Some(Immunity::Debuff),
            Status::Mark(_) => Some(Immunity::Mark),
            Status::Silence { .. } => Some(Immunity::Silence),
            Status::Dot { .. } => Some(Immunity::Damage),
            _ => None,
        };
        if blocked_by.is_some_and(|c| self.is_immune(target, c)) {
            return false;
        }
        let applier = self.shared.owner(by);
        let marks_stack = self.options().marks_stack;
        let effects = &mut self.stars[target].effects;
        match &status {
            // ZN-11.3: the same mark again refreshes it (or, marks_stack, adds a copy).
            Status::Mark(m) if !marks_stack => {
                effects.retain(|a| !matches!(&a.status, Status::Mark(x) if x == m))
            }
            // ZN-11.1: a non-stacking change replaces a like one (same stat, same sign).
            Status::Stat {
                stat,
                amount,
                stacks: false,
            } => effects.retain(|a| {
                !matches!(a.status, Status::Stat { stat: s, amount: x, stacks: false }
                    if s == *stat && (x > 0) == (*amount > 0))
            }),
            _ => {}
        }
        let silence = matches!(status, Status::Silence { passives: true, .. });
        effects.push(Applied {
            status,
            applier,
            by,
            turns,
        });
        if silence {
            self.sync_continuous();
        }
        true
    }

    /// A status value in use (ZN-11.2): printed value, plus every active change, plus the
    /// Star's continuous passives whose condition holds. May be negative; callers clamp.
    pub fn stat(&self, s: usize, stat: Stat) -> i32 {
        let d = self.star_data(s);
        let printed = match stat {
            Stat::Armadura => i32::from(d.armadura),
            Stat::Agilidade => i32::from(d.agilidade),
            Stat::PoderFisico => i32::from(d.poder_fisico),
            Stat::PoderMagico => i32::from(d.poder_magico),
            Stat::Attack | Stat::Defence => 0,
        };
        let applied: i32 = self.stars[s]
            .effects
            .iter()
            .map(|a| match a.status {
                Status::Stat {
                    stat: x, amount, ..
                } if x == stat => i32::from(amount),
                _ => 0,
            })
            .sum();
        printed + applied + self.continuous(s, stat)
    }

    /// The stat changes of `s`'s continuous passives that hold now (ZN-10.2).
    fn continuous(&self, s: usize, stat: Stat) -> i32 {
        let Some(here) = self.stars[s].zone else {
            return 0;
        };
        // Most Stars have no continuous passive: they skip the look around (a hot path).
        let content = &self.shared.content;
        let roster = self.stars[s].roster;
        if content
            .continuous
            .get(roster)
            .is_none_or(|&bits| bits & stat.bit() == 0)
        {
            return 0;
        }
        if self.is_silenced(s, Kind::Passive) {
            return 0;
        }
        let team = self.shared.team(self.shared.owner(s));
        let (mut allies, mut enemies) = (0, 0);
        // The occupied neighbours, from the zone graph's bits (a battlefield has at most 64
        // zones, so the map keeps its occupied zones as bits).
        let sh = &self.shared;
        let around = sh.zone_id(here).map_or(0, |z| sh.graph.neighbours(z));
        let mut occupied = around & self.board.occupied_bits().unwrap_or(0);
        while occupied != 0 {
            let z = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            if let Some(o) = sh.zones.get(z).and_then(|&n| self.board.occupant(n)) {
                if sh.team(sh.owner(o as usize)) == team {
                    allies += 1;
                } else {
                    enemies += 1;
                }
            }
        }
        let mut total = 0;
        for a in &self.star_data(s).abilities {
            let holds = match a.trigger {
                Some(Trigger::WhileAdjacentAlly) => allies > 0,
                Some(Trigger::WhileAdjacentEnemy) => enemies > 0,
                Some(Trigger::WhileAlone) => allies == 0,
                _ => false,
            };
            if holds {
                for e in &a.effects {
                    if let super::ability::Effect::Stat {
                        stat: x, amount, ..
                    } = e
                    {
                        if *x == stat {
                            total += i32::from(*amount);
                        }
                    }
                }
            }
        }
        total
    }

    /// ZN-5.3 (3), `p`'s First Maintenance: the untimed changes `p` applied end if they
    /// last a round (`untimed_buffs = "round"`, ZN-10.5), and `p`'s durations tick unless
    /// they tick at the turn's end (`durations_tick`, ZN-5.5).
    pub(crate) fn first_maintenance_effects(&mut self, p: Player) {
        if self.options().untimed_buffs == UntimedBuffs::Round {
            for st in &mut self.stars {
                st.effects.retain(|a| a.turns.is_some() || a.applier != p);
            }
        }
        if self.options().durations_tick == DurationsTick::TurnStart {
            self.tick_durations(p);
        }
        self.clamp_armadura();
    }

    /// ZN-5.5, `p`'s Second Maintenance after its damage over time: `p`'s durations tick
    /// here with `durations_tick = "turn_end"`.
    pub(crate) fn second_maintenance_effects(&mut self, p: Player) {
        if self.options().durations_tick == DurationsTick::TurnEnd {
            self.tick_durations(p);
            self.clamp_armadura();
        }
    }

    /// The durations of effects `p` applied tick down; those at 0 end.
    fn tick_durations(&mut self, p: Player) {
        for st in &mut self.stars {
            for a in &mut st.effects {
                if a.applier == p {
                    if let Some(t) = a.turns.as_mut() {
                        *t = t.saturating_sub(1);
                    }
                }
            }
            st.effects.retain(|a| a.turns != Some(0));
        }
    }

    /// A Star's current Armadura never exceeds its current maximum (ZN-5.3): when an
    /// Armadura buff ends, what it added goes with it.
    pub(crate) fn clamp_armadura(&mut self) {
        // A silence that ended lets continuous passives act again.
        self.sync_continuous();
        for s in 0..self.stars.len() {
            if self.stars[s].zone.is_none() {
                continue;
            }
            let max = self.stat(s, Stat::Armadura).max(0) as u16;
            let st = &mut self.stars[s];
            st.armadura = st.armadura.min(max);
        }
    }

    /// ZN-5.5 (1): damage over time `p` applied, one instance each, in Star order
    /// (ZN-11.9), each with its damage events.
    pub(crate) fn damage_over_time(&mut self, p: Player) {
        for s in 0..self.stars.len() {
            let dots: Vec<(usize, u16)> = self.stars[s]
                .effects
                .iter()
                .filter(|a| a.applier == p)
                .filter_map(|a| match a.status {
                    Status::Dot { amount } => Some((a.by, amount)),
                    _ => None,
                })
                .collect();
            for (by, amount) in dots {
                if self.alive(s) && !self.over() {
                    self.hit(Some(by), s, u32::from(amount));
                }
            }
        }
    }

    /// ZN-10.5, ZN-5.6: the effects `p` applied that lasted "until the end of the turn" end
    /// with `p`'s turn — the turn of the player who originated them, so one a reaction
    /// made in another player's turn lasts to the end of its player's next turn; with
    /// `untimed_buffs = "round"` they last until their applier's next turn instead.
    pub(crate) fn end_untimed_effects(&mut self, p: Player) {
        if self.options().untimed_buffs == UntimedBuffs::Round {
            return;
        }
        for st in &mut self.stars {
            st.effects.retain(|a| a.turns.is_some() || a.applier != p);
        }
        self.clamp_armadura();
    }

    /// ZN-11.1, ZN-10.2: a continuous passive's Armadura change moves the current Armadura
    /// as its condition starts (up by its amount) and ends (down, never below 0). Called
    /// whenever the board or a Star's effects change.
    pub(crate) fn sync_continuous(&mut self) {
        for s in 0..self.stars.len() {
            let now = if self.alive(s) {
                self.continuous(s, Stat::Armadura)
            } else {
                0
            };
            let st = &mut self.stars[s];
            let delta = now - i32::from(st.continuous_armadura);
            if delta != 0 {
                st.continuous_armadura = now.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i8;
                let moved = (i32::from(st.armadura) + delta).max(0);
                let max = self.stat(s, Stat::Armadura).max(0);
                self.stars[s].armadura = moved.min(max) as u16;
            }
        }
    }

    /// After loading a saved state: the continuous Armadura already in each `armadura`.
    pub(crate) fn note_continuous(&mut self) {
        for s in 0..self.stars.len() {
            let now = if self.alive(s) {
                self.continuous(s, Stat::Armadura)
            } else {
                0
            };
            self.stars[s].continuous_armadura =
                now.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i8;
        }
    }
}
