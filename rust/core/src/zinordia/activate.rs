//! Activating abilities (ZN-6.4, ZN-7.1, ZN-9, ZN-10): the ONE set of conditions an
//! activation or a reaction must meet — kind, silence, uses per round, the play's activation
//! and ultra-rapid, target and range, costs — used by both move generation and `check`, and
//! paying the costs.

use super::ability::{Ability, AreaShape, Kind, Resource, SpecialCost, Target};
use super::notation::Action;
use super::options::Lines;
use super::state::{Offer, Play, Zinordia};
use crate::error::{Error, Result};
use crate::hex::coords::{axis_direction, distance};
use crate::hex::Hex;

/// What an activation costs, each resource summed (ZN-10.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bill {
    pub vida: u16,
    pub amago: u16,
    pub renown: u16,
}

impl Bill {
    fn add(&mut self, c: SpecialCost) {
        let slot = match c.resource {
            Resource::Vida => &mut self.vida,
            Resource::Amago => &mut self.amago,
            Resource::Renown => &mut self.renown,
        };
        *slot = slot.saturating_add(c.amount);
    }
}

/// Why an activation or a reaction is refused, built without allocating: move generation
/// tries many candidates that are mostly illegal and throws their refusals away, so only
/// `check` turns one into an [`Error`] naming the rule (with the text it always had).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    rule: &'static str,
    why: Why,
}

/// The reason of a [`Refusal`]: a fixed text, or one with the numbers it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    Text(&'static str),
    Amago { needs: u16, has: u16 },
    VidaCost(u16),
    Renown { needs: u16, has: u16 },
    Used(u8),
    Range { d: u32, range: u32 },
}

/// A condition's verdict: `Err` says which rule refuses and why.
type Verdict<T> = std::result::Result<T, Refusal>;

fn refuse(rule: &'static str, why: &'static str) -> Refusal {
    Refusal {
        rule,
        why: Why::Text(why),
    }
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Error {
        let why = match r.why {
            Why::Text(t) => t.to_string(),
            Why::Amago { needs, has } => format!("needs {needs} Âmago, the Star has {has}"),
            Why::VidaCost(v) => format!("a Vida cost of {v} would defeat the Star"),
            Why::Renown { needs, has } => {
                format!("needs {needs} Renown, the Star carries {has}")
            }
            Why::Used(used) => format!("used {used} time(s) this round, its limit"),
            Why::Range { d, range } => {
                format!("the target is {d} zones away, the range is {range}")
            }
        };
        Error::illegal(r.rule, why)
    }
}

impl Zinordia {
    /// The ability `i` of star slot `s`, if it has one.
    pub fn ability(&self, s: usize, i: u8) -> Option<&Ability> {
        self.star_data(s).abilities.get(usize::from(i))
    }

    /// ZN-10.4: the bill for ability `ab` paying the alternative cost or not.
    pub fn bill(ab: &Ability, alt: bool) -> Result<Bill> {
        Ok(Self::bill_of(ab, alt)?)
    }

    fn bill_of(ab: &Ability, alt: bool) -> Verdict<Bill> {
        let mut b = Bill::default();
        if alt {
            let c = ab
                .alt_cost
                .ok_or_else(|| refuse("ZN-10.4", "this ability has no alternative cost"))?;
            b.add(c);
        } else {
            b.amago = ab.cost;
        }
        if let Some(c) = ab.extra_cost {
            b.add(c);
        }
        Ok(b)
    }

    /// Whether star `s` can pay `bill` (ZN-10.4): a Vida cost must leave it at least 1.
    fn can_pay(&self, s: usize, bill: Bill) -> Verdict<()> {
        let st = &self.stars[s];
        let why = if st.amago < bill.amago {
            Why::Amago {
                needs: bill.amago,
                has: st.amago,
            }
        } else if bill.vida > 0 && st.vida <= bill.vida {
            Why::VidaCost(bill.vida)
        } else if st.renown < bill.renown {
            Why::Renown {
                needs: bill.renown,
                has: st.renown,
            }
        } else {
            return Ok(());
        };
        Err(Refusal {
            rule: "ZN-10.4",
            why,
        })
    }

    pub(crate) fn pay(&mut self, s: usize, bill: Bill) {
        let st = &mut self.stars[s];
        st.amago = st.amago.saturating_sub(bill.amago);
        st.vida = st.vida.saturating_sub(bill.vida).max(1);
        st.renown = st.renown.saturating_sub(bill.renown);
    }

    /// The conditions on ability `i` of star `s` that do not depend on the target: it
    /// exists, is of `kinds`, is not silenced, has uses left this round (ZN-10.6, ZN-10.8)
    /// and its bill is payable.
    fn usable(&self, s: usize, i: u8, alt: bool, reaction: bool) -> Verdict<&Ability> {
        let ab = self
            .ability(s, i)
            .ok_or_else(|| refuse("ZN-1.1", "a Star has four abilities"))?;
        match (reaction, ab.kind) {
            (false, Kind::Attack | Kind::Instant) | (true, Kind::Reaction) => {}
            (_, Kind::Passive) => {
                return Err(refuse(
                    "ZN-9.3",
                    "a passive acts by itself and is never activated",
                ))
            }
            (false, Kind::Reaction) => {
                return Err(refuse(
                    "ZN-9.4",
                    "a reaction is used only when its trigger offers it",
                ))
            }
            (true, _) => return Err(refuse("ZN-9.4", "only a reaction answers a trigger")),
        }
        if self.is_silenced(s, ab.kind) {
            return Err(refuse("ZN-11.5", "the Star is silenced"));
        }
        let used = self.stars[s].uses.get(usize::from(i)).copied().unwrap_or(0);
        if used >= ab.repeat {
            let rule = if ab.repeat > 1 { "ZN-10.6" } else { "ZN-10.8" };
            return Err(Refusal {
                rule,
                why: Why::Used(used),
            });
        }
        self.can_pay(s, Self::bill_of(ab, alt)?)?;
        Ok(ab)
    }

    /// ZN-6.4, ZN-10.7: whether activating ability `ab` now uses the play's activation, or
    /// `Err` if the play cannot activate it at all.
    fn activation_free(play: Play, ab: &Ability) -> Verdict<bool> {
        let free = ab.ultra_rapid && play.activations == 0;
        if play.activated && !free {
            let why = if ab.ultra_rapid {
                "ultra-rapid is free only as the play's first activation, and the activation is used"
            } else {
                "the play's activation is already used"
            };
            let rule = if ab.ultra_rapid { "ZN-10.7" } else { "ZN-6.4" };
            return Err(refuse(rule, why));
        }
        Ok(free)
    }

    /// ZN-10.3, ZN-2.5: whether zone `target` is a valid target of `ab` used by `s`.
    pub(crate) fn target_ok(&self, s: usize, ab: &Ability, target: Hex) -> Verdict<()> {
        let Some(from) = self.stars[s].zone else {
            return Err(refuse("ZN-6.1", "the Star is not on the board"));
        };
        let d = distance(from, target);
        let range = u32::from(ab.range);
        let out_of_range = || Refusal {
            rule: "ZN-2.5",
            why: Why::Range { d, range },
        };
        match ab.target {
            Target::User => {
                if target != from {
                    return Err(refuse(
                        "ZN-10.3",
                        "a self-targeted ability names its user's zone",
                    ));
                }
            }
            Target::Ally | Target::Enemy | Target::Star => {
                let star_here = self.board.occupant(target).map(|o| o as usize);
                let Some(o) = star_here.filter(|&o| o != s) else {
                    return Err(refuse("ZN-10.3", "the target must be another Star"));
                };
                let my_team = self.shared.team(self.shared.owner(s));
                let ally = self.shared.team(self.shared.owner(o)) == my_team;
                if ab.target == Target::Ally && !ally {
                    return Err(refuse("ZN-10.3", "the target must be an ally"));
                }
                if ab.target == Target::Enemy && ally {
                    return Err(refuse("ZN-10.3", "the target must be an enemy"));
                }
                if d > range {
                    return Err(out_of_range());
                }
            }
            Target::Zone => {
                if d > range {
                    return Err(out_of_range());
                }
            }
            Target::EmptyZone => {
                if d == 0 || self.board.blocker(target).is_some() {
                    return Err(refuse("ZN-10.3", "the target must be an empty open zone"));
                }
                if d > range {
                    return Err(out_of_range());
                }
            }
            Target::Direction => {
                if d == 0 {
                    return Err(refuse(
                        "ZN-2.6",
                        "a direction is a zone other than the Star's",
                    ));
                }
                if self.needs_axis(ab) && axis_direction(from, target).is_none() {
                    let why = if ab.area.shape == AreaShape::Cone {
                        "a cone opens along one of the Star's six axes"
                    } else {
                        "a direction is a zone on one of the Star's six axes"
                    };
                    return Err(refuse("ZN-2.6", why));
                }
                if d > range {
                    return Err(out_of_range());
                }
            }
            Target::Source => {
                return Err(refuse("ZN-10.3", "\"source\" targets belong to reactions"))
            }
        }
        Ok(())
    }

    /// ZN-6.2 with `split_movement = false`: once the play's activation is used (an
    /// ability, or collecting Renown) the Star moves no more. An ultra-rapid activation that
    /// leaves the activation free (ZN-10.7) does not close the movement.
    pub(crate) fn movement_closed(&self, play: Play) -> bool {
        !self.options().split_movement && play.activated
    }

    /// ZN-2.6: whether a `direction` target of `ab` must lie on one of the six axes: always
    /// for a cone, and for lines and dashes unless `lines = "drawn"`.
    pub(crate) fn needs_axis(&self, ab: &Ability) -> bool {
        self.options().lines == Lines::Axis || ab.area.shape == AreaShape::Cone
    }

    /// ZN-7.1, ZN-6.4: the checks of `Activate`, the same ones move generation uses.
    pub(crate) fn check_activate(&self, play: Play, i: u8, target: u8, alt: bool) -> Verdict<()> {
        let s = play.star;
        let ab = self.usable(s, i, alt, false)?;
        Self::activation_free(play, ab)?;
        let h = self
            .shared
            .zones
            .get(usize::from(target))
            .copied()
            .ok_or_else(|| refuse("ZN-10.3", "no such zone"))?;
        self.target_ok(s, ab, h)
    }

    /// The legal activations of a play, by id order (ability, zone, alt).
    pub(crate) fn activations(&self, play: Play, out: &mut Vec<Action>) {
        self.each_activation(play, &mut |a| {
            out.push(a);
            true
        });
    }

    /// Whether any activation is legal in this play (stops at the first).
    pub(crate) fn any_activation(&self, play: Play) -> bool {
        let mut found = false;
        self.each_activation(play, &mut |_| {
            found = true;
            false
        });
        found
    }

    /// Call `f` with each legal activation in id order until it returns false.
    fn each_activation(&self, play: Play, f: &mut dyn FnMut(Action) -> bool) {
        let s = play.star;
        let Some(from) = self.stars[s].zone else {
            return;
        };
        let Some(fz) = self.shared.zone_id(from) else {
            return;
        };
        let graph = &self.shared.graph;
        // Zone bits of the occupied zones (a battlefield has at most 64 zones; were it
        // larger, every zone counts as a candidate and target_ok decides).
        let occupied = self.board.occupied_bits();
        let (stars_at, taken) = (occupied.unwrap_or(u64::MAX), occupied.unwrap_or(0));
        for i in 0..self.star_data(s).abilities.len() as u8 {
            // Cheap necessary conditions first (`usable` repeats them and decides), so the
            // abilities that cannot be activated build no refusal.
            let Some(ab) = self.ability(s, i) else {
                continue;
            };
            let used = self.stars[s].uses.get(usize::from(i)).copied().unwrap_or(0);
            if !matches!(ab.kind, Kind::Attack | Kind::Instant) || used >= ab.repeat {
                continue;
            }
            let normal = self.usable(s, i, false, false).is_ok();
            let alt = ab.alt_cost.is_some() && self.usable(s, i, true, false).is_ok();
            if !(normal || alt) || Self::activation_free(play, ab).is_err() {
                continue;
            }
            // The zones that can be targets by cheap necessary conditions, as zone bits
            // (target_ok repeats them and decides), so the many zones that cannot be
            // targets build no refusal: within range, another Star's zone for a Star
            // target, on an axis for a direction that needs one (ZN-2.6), the user's zone
            // for a self target, not it for a direction, neither it nor another Star's
            // for an empty zone.
            let mut candidates = graph.within(fz, u32::from(ab.range));
            let user = 1u64 << fz;
            match ab.target {
                t if t.is_star() => candidates &= stars_at & !user,
                Target::Direction if self.needs_axis(ab) => candidates &= graph.axes(fz),
                Target::Direction => candidates &= !user,
                Target::EmptyZone => candidates &= !(taken | user),
                Target::User => candidates &= user,
                _ => {}
            }
            // Ascending bits: zone id order.
            while candidates != 0 {
                let z = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                let Some(&h) = self.shared.zones.get(z) else {
                    continue;
                };
                if self.target_ok(s, ab, h).is_err() {
                    continue;
                }
                for (ok, alt) in [(normal, false), (alt, true)] {
                    let a = Action::Activate {
                        ability: i,
                        target: z as u8,
                        alt,
                    };
                    if ok && !f(a) {
                        return;
                    }
                }
            }
        }
    }

    /// ZN-9.4: whether reaction `i` of the Star the window `o` asks about may answer it.
    pub(crate) fn check_react(&self, o: Offer, i: u8, alt: bool) -> Verdict<()> {
        let ab = self.usable(o.star, i, alt, true)?;
        if ab.trigger != Some(o.trigger) {
            return Err(refuse(
                "ZN-9.4",
                "this reaction does not answer this trigger",
            ));
        }
        if !self.alive(o.star) {
            return Err(refuse("ZN-8.5", "the Star is out of the game"));
        }
        if ab.target == Target::Source {
            let Some(src) = o.source.filter(|&x| self.alive(x)) else {
                return Err(refuse(
                    "ZN-10.3",
                    "the Star that caused the trigger is no longer on the board",
                ));
            };
            if ab.range > 0 {
                let (a, b) = (self.stars[o.star].zone, self.stars[src].zone);
                if let (Some(a), Some(b)) = (a, b) {
                    if distance(a, b) > u32::from(ab.range) {
                        return Err(refuse(
                            "ZN-2.5",
                            "the source is out of the reaction's range",
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The legal answers to the open window `o`: its reactions, then `decline`.
    pub(crate) fn reactions(&self, o: Offer, out: &mut Vec<Action>) {
        for i in 0..self.star_data(o.star).abilities.len() as u8 {
            for alt in [false, true] {
                if self.check_react(o, i, alt).is_ok() {
                    out.push(Action::React { ability: i, alt });
                }
            }
        }
        out.push(Action::Decline);
    }

    /// Whether the window `o` has any reaction to offer (a window with none is not opened).
    pub(crate) fn offer_useful(&self, o: Offer) -> bool {
        (0..self.star_data(o.star).abilities.len() as u8).any(|i| {
            // Cheap necessary conditions first (check_react repeats them and decides), so
            // the abilities that cannot answer build no refusal.
            let Some(ab) = self.ability(o.star, i) else {
                return false;
            };
            if ab.kind != Kind::Reaction || ab.trigger != Some(o.trigger) {
                return false;
            }
            [false, true]
                .iter()
                .any(|&alt| self.check_react(o, i, alt).is_ok())
        })
    }
}
