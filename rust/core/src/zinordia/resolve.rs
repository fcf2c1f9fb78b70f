//! Resolving abilities (ZN-7 to ZN-12): who an ability affects, the attack roll, each
//! effect on each affected Star, the events effects cause (ZN-10.2), event passives, and
//! the reaction windows events open (ZN-9.4, ZN-9.5).
//!
//! An action resolves in full first (the step machine is `resolution.rs`); the events it
//! caused are kept in order ([`Zinordia::events`]) and then settled: each event fires its
//! Star's passives at once (events those cause are settled after them, in order) and opens a
//! reaction window for its Star if the Star has a reaction it can use on it. With
//! `reactions_interrupt` an activated ability's events settle step by step instead.

use super::ability::{
    Ability, AreaShape, CollisionTo, Effect, Immunity, Kind, RenownOp, Stat, Target, Trigger,
};
use super::effects::Status;
use super::options::{Lines, ReactionOrder};
use super::state::{Offer, Zinordia};
use crate::hex::coords::{axis_direction, distance, line, neighbors};
use crate::hex::{Blocker, Collision, Hex};

/// Most passive firings one action may cause (a chain of passives answering each other
/// stops there — **Reading**, ZN-10.2), so every resolution ends.
pub const MAX_PASSIVES: usize = 64;

/// Something that happened to a Star, for its passives and reactions (ZN-10.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// The Star whose trigger it is.
    pub star: usize,
    pub trigger: Trigger,
    /// The Star that caused it (a `source` reaction's target).
    pub source: Option<usize>,
}

/// ZN-2.6 with `lines = "drawn"`: the first `n` zones after `from` of the straight line
/// (`hex.line`) from `from` through `toward`, drawn on past `toward` when `n` is longer.
/// On an axis it is the axis line.
pub fn drawn_line(from: Hex, toward: Hex, n: u32) -> Vec<Hex> {
    let d = distance(from, toward);
    if d == 0 || n == 0 {
        return Vec::new();
    }
    // `far` lies on the same line, at a multiple of the distance at least `n`.
    let far = from + (toward - from) * n.div_ceil(d) as i32;
    line(from, far)
        .into_iter()
        .skip(1)
        .take(n as usize)
        .collect()
}

impl Zinordia {
    pub(crate) fn ally(&self, a: usize, b: usize) -> bool {
        self.shared.team(self.shared.owner(a)) == self.shared.team(self.shared.owner(b))
    }

    pub(crate) fn event(&mut self, star: usize, trigger: Trigger, source: Option<usize>) {
        self.events.push(Event {
            star,
            trigger,
            source,
        });
    }

    /// ZN-10.3: the Stars `ab` used by `user` on `target` affects, in zone order; an
    /// ability that names no Star and has no area affects its user.
    pub(crate) fn affected(&self, user: usize, ab: &Ability, target: Option<Hex>) -> Vec<usize> {
        let mut out = Vec::new();
        self.each_affected(user, ab, target, &mut |o| out.push(o));
        out
    }

    /// [`Zinordia::affected`], each Star handed to `f` in turn (zone order), without
    /// building the list where the target alone or a radius or ring decides (a hot path of
    /// the rule-based player, which scores every legal activation).
    pub(crate) fn each_affected(
        &self,
        user: usize,
        ab: &Ability,
        target: Option<Hex>,
        f: &mut dyn FnMut(usize),
    ) {
        let Some(from) = self.stars[user].zone else {
            return;
        };
        let target = target.unwrap_or(from);
        if ab.area.shape == AreaShape::Single {
            match ab.target {
                Target::User | Target::Zone | Target::EmptyZone | Target::Direction => f(user),
                _ => {
                    if let Some(o) = self
                        .board
                        .occupant(target)
                        .map(|o| o as usize)
                        .filter(|&o| o != user || ab.target == Target::Source)
                    {
                        f(o);
                    }
                }
            }
            return;
        }
        if let Some(mut bits) = self.ball_bits(ab, target) {
            let affects = ab.affects().unwrap_or(super::ability::Affects::AllButSelf);
            while bits != 0 {
                let z = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let Some(o) = self
                    .shared
                    .zones
                    .get(z)
                    .and_then(|&h| self.board.occupant(h))
                else {
                    continue;
                };
                let o = o as usize;
                if affects.includes(o == user, o != user && self.ally(o, user)) {
                    f(o);
                }
            }
            return;
        }
        for o in self.affected_area(user, ab, from, target) {
            f(o);
        }
    }

    /// For a radius, or a ring of size 1 or more, the occupied zones of the area on the zone
    /// bitsets: those within `size` of the target (less, for a ring, those within
    /// `size - 1`), the zones the geometric area finds. `None` where the bitsets do not
    /// apply (another shape, a map of more than 64 zones, a target that is no zone): the
    /// geometric area decides.
    fn ball_bits(&self, ab: &Ability, target: Hex) -> Option<u64> {
        let n = u32::from(ab.area.size);
        let ring = match ab.area.shape {
            AreaShape::Radius => false,
            AreaShape::Ring if n > 0 => true,
            _ => return None,
        };
        let occupied = self.board.occupied_bits()?;
        let tz = self.shared.zone_id(target)?;
        let graph = &self.shared.graph;
        let mut bits = graph.within(tz, n);
        if ring {
            bits &= !graph.within(tz, n - 1);
        }
        Some(bits & occupied)
    }

    /// The Stars an area (any shape) affects, found on the map's geometry.
    pub(super) fn affected_area(
        &self,
        user: usize,
        ab: &Ability,
        from: Hex,
        target: Hex,
    ) -> Vec<usize> {
        let (origin, dir) = if ab.area.is_directed() {
            (from, axis_direction(from, target).unwrap_or(0))
        } else {
            (target, 0)
        };
        // Areas without `affects`: enemies for attacks, everyone but the user for the rest
        // (an area affects its user only if its text says so).
        let affects = ab.affects().unwrap_or(super::ability::Affects::AllButSelf);
        let zones = if ab.area.shape == AreaShape::Line && self.options().lines == Lines::Drawn {
            // ZN-2.6, lines = "drawn": the line toward the target, on or off an axis.
            drawn_line(from, target, u32::from(ab.area.size))
                .into_iter()
                .filter(|&h| self.board.contains(h))
                .collect()
        } else {
            self.board.area(origin, ab.area.shape(dir))
        };
        let mut out: Vec<(usize, usize)> = zones
            .into_iter()
            .filter_map(|h| {
                let o = self.board.occupant(h)? as usize;
                let z = self.shared.zone_id(h)?;
                affects
                    .includes(o == user, o != user && self.ally(o, user))
                    .then_some((z, o))
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out.into_iter().map(|(_, o)| o).collect()
    }

    /// The amount of a damage, heal or damage-over-time effect used by `user` now (ZN-10.9).
    fn amount_of(&self, user: usize, e: &Effect) -> u32 {
        let (fisico, magico) = (
            self.stat(user, Stat::PoderFisico),
            self.stat(user, Stat::PoderMagico),
        );
        e.amount().map_or(0, |a| a.value(fisico, magico))
    }

    /// One effect of `user`'s ability (target zone `zone`) on Star `t` (ZN-11), a damage
    /// effect being one instance ([`Zinordia::run`] counts them). Returns the Stars the
    /// effect's nested list then applies to, in order (`then`, `on_collision`, a dash's
    /// `path`).
    pub(crate) fn apply_effect(
        &mut self,
        user: usize,
        zone: Option<Hex>,
        t: usize,
        e: &Effect,
    ) -> Vec<usize> {
        match e {
            Effect::Damage { .. } => {
                let amount = self.amount_of(user, e);
                self.hit(Some(user), t, amount);
            }
            Effect::Heal { .. } => {
                let amount = self.amount_of(user, e);
                let max = self.star_data(t).vida;
                let st = &mut self.stars[t];
                st.vida = (u32::from(st.vida) + amount).min(u32::from(max)) as u16;
            }
            Effect::Stat {
                stat,
                amount,
                duration,
                stacks,
            } => {
                let status = Status::Stat {
                    stat: *stat,
                    amount: *amount,
                    stacks: *stacks,
                };
                if self.add_status(user, t, status, *duration) && *stat == Stat::Armadura {
                    // An Armadura change moves the current Armadura with its maximum
                    // (Reading, ZN-11.1).
                    let max = self.stat(t, Stat::Armadura).max(0);
                    let st = &mut self.stars[t];
                    st.armadura =
                        (i32::from(st.armadura) + i32::from(*amount)).clamp(0, max) as u16;
                }
            }
            Effect::Mark { mark, duration } => {
                self.add_status(user, t, Status::Mark(mark.clone()), Some(*duration));
            }
            Effect::Silence {
                scope,
                passives,
                duration,
            } => {
                let status = Status::Silence {
                    scope: *scope,
                    passives: *passives,
                };
                self.add_status(user, t, status, Some(*duration));
            }
            Effect::Immune { to, duration } => {
                self.add_status(user, t, Status::Immune(*to), Some(*duration));
            }
            Effect::Dot { duration, .. } => {
                let amount = self.amount_of(user, e);
                let status = Status::Dot {
                    amount: amount.min(u32::from(u16::MAX)) as u16,
                };
                self.add_status(user, t, status, Some(*duration));
            }
            Effect::Push {
                distance,
                on_collision,
                collision_to,
            }
            | Effect::Pull {
                distance,
                on_collision,
                collision_to,
            } => {
                let pull = matches!(e, Effect::Pull { .. });
                let nested = !on_collision.is_empty();
                return self.shove(user, t, *distance, pull, nested, *collision_to);
            }
            Effect::Renown { op, amount } => {
                let (from, to) = match op {
                    RenownOp::Transfer => (user, t),
                    RenownOp::Steal => (t, user),
                };
                if from != to {
                    let moved = u16::from(*amount).min(self.stars[from].renown);
                    self.stars[from].renown -= moved;
                    self.stars[to].renown = self.stars[to].renown.saturating_add(moved);
                    self.check_target();
                }
            }
            Effect::Amago { amount, drain } => {
                if *amount > 0 {
                    self.gain_amago(t, amount.unsigned_abs().into());
                } else if !self.is_immune(t, Immunity::AmagoLoss) {
                    let lost = u16::from(amount.unsigned_abs()).min(self.stars[t].amago);
                    self.stars[t].amago -= lost;
                    if *drain && t != user {
                        self.gain_amago(user, lost);
                    }
                }
            }
            Effect::Leap => {
                if let Some(to) = zone {
                    if self.board.blocker(to).is_none() {
                        self.relocate(t, &[to]);
                    }
                }
            }
            Effect::Dash { distance, path } => {
                return self.dash(zone, t, *distance, !path.is_empty());
            }
            Effect::If {
                marked,
                target_vida_at_most,
                user_adjacent_ally,
                consume,
                then,
            } => {
                let holds = marked.as_ref().is_none_or(|m| self.has_mark(t, m))
                    && target_vida_at_most.is_none_or(|v| self.stars[t].vida <= v)
                    && user_adjacent_ally.is_none_or(|want| self.adjacent_ally(user) == want);
                if holds {
                    if let (Some(m), true) = (marked, *consume) {
                        self.consume_mark(t, m);
                    }
                    if !then.is_empty() {
                        return vec![t];
                    }
                }
            }
        }
        Vec::new()
    }

    fn gain_amago(&mut self, s: usize, n: u16) {
        let max = self.star_data(s).amago;
        let st = &mut self.stars[s];
        st.amago = st.amago.saturating_add(n).min(max);
    }

    fn adjacent_ally(&self, s: usize) -> bool {
        let Some(h) = self.stars[s].zone else {
            return false;
        };
        neighbors(h).into_iter().any(|n| {
            self.board
                .occupant(n)
                .is_some_and(|o| o as usize != s && self.ally(o as usize, s))
        })
    }

    /// One damage instance with its events (ZN-8.1, ZN-8.2, ZN-10.2): nothing at all on a
    /// Star immune to damage (ZN-11.10) or for 0 damage.
    pub(crate) fn hit(&mut self, source: Option<usize>, t: usize, amount: u32) {
        if amount == 0 || self.is_immune(t, Immunity::Damage) {
            return;
        }
        let d = self.damage(source, t, amount);
        if self.over() {
            // ZN-12.6: the kill won the game; no trigger of it follows.
            return;
        }
        self.event(t, Trigger::Damaged, source);
        if let Some(src) = source {
            self.event(src, Trigger::DealDamage, Some(t));
        }
        if d.defeated {
            if let Some(src) = source.filter(|&x| x != t) {
                self.event(src, Trigger::Kill, Some(t));
            }
            for a in 0..self.stars.len() {
                if a != t && self.ally(a, t) && self.alive(a) {
                    self.event(a, Trigger::AllyDefeated, source);
                }
            }
        }
    }

    /// Move Star `s` along `path` (zones entered in order; the last is where it ends),
    /// firing `enemy_enters` once for each enemy next to a zone it entered (ZN-10.2).
    pub(crate) fn relocate(&mut self, s: usize, path: &[Hex]) {
        let (Some(from), Some(&to)) = (self.stars[s].zone, path.last()) else {
            return;
        };
        if from == to {
            return;
        }
        let _ = self.board_mut().set_occupant(from, None);
        let _ = self.board_mut().set_occupant(to, Some(s as u32));
        self.stars[s].zone = Some(to);
        self.sync_continuous();
        self.enemy_enters(s, path);
    }

    /// `enemy_enters` for the enemies of `mover` adjacent to a zone of `path`, in slot order.
    pub(crate) fn enemy_enters(&mut self, mover: usize, path: &[Hex]) {
        for e in 0..self.stars.len() {
            if e == mover || self.ally(e, mover) || !self.alive(e) {
                continue;
            }
            let Some(at) = self.stars[e].zone else {
                continue;
            };
            if path.iter().any(|&h| distance(h, at) == 1) {
                self.event(e, Trigger::EnemyEnters, Some(mover));
            }
        }
    }

    /// Push or pull (ZN-11.7) with its collision (the `collision` event); returns the Stars
    /// the `on_collision` effects (if `nested`) then apply to: the pushed one, and with
    /// `collision_to = "both"` the one it ran into.
    fn shove(
        &mut self,
        user: usize,
        t: usize,
        steps: u8,
        pull: bool,
        nested: bool,
        to: CollisionTo,
    ) -> Vec<usize> {
        if t == user || self.is_immune(t, Immunity::ForcedMove) {
            return Vec::new();
        }
        let Some(m) = self.force_move(user, t, u32::from(steps), pull) else {
            return Vec::new();
        };
        self.enemy_enters(t, &m.path);
        let Some((_, what)) = m.collision else {
            return Vec::new();
        };
        // ZN-11.7: the Star it ran into, the user aside.
        let other = match what {
            Collision::Blocked(Blocker::Occupied(o)) => Some(o as usize),
            _ => None,
        }
        .filter(|&o| o != user);
        self.event(user, Trigger::Collision, Some(t));
        if !nested {
            return Vec::new();
        }
        match (to, other) {
            (CollisionTo::Both, Some(o)) => vec![t, o],
            _ => vec![t],
        }
    }

    /// ZN-11.8: the user runs along the target's direction until it would collide; returns
    /// the Stars the `path` effects (if `nested`) then reach: those `affects` allows
    /// (enemies by default) next to the zones crossed, each once, in zone order.
    fn dash(&mut self, zone: Option<Hex>, s: usize, steps: u8, nested: bool) -> Vec<usize> {
        let (Some(from), Some(to)) = (self.stars[s].zone, zone) else {
            return Vec::new();
        };
        let path = if self.options().lines == Lines::Drawn {
            // ZN-2.6, lines = "drawn": along the line toward the target until a zone it
            // cannot enter.
            drawn_line(from, to, u32::from(steps))
                .into_iter()
                .take_while(|&h| self.board.blocker(h).is_none())
                .collect()
        } else {
            let Some(dir) = axis_direction(from, to) else {
                return Vec::new();
            };
            self.board.forced_move(from, dir, u32::from(steps)).path
        };
        self.relocate(s, &path);
        if !nested {
            return Vec::new();
        }
        let mut reached: Vec<(usize, usize)> = Vec::new();
        for &h in &path {
            for n in neighbors(h) {
                if let Some(o) = self.board.occupant(n).map(|o| o as usize) {
                    if o != s && !self.ally(o, s) {
                        if let Some(z) = self.shared.zone_id(n) {
                            reached.push((z, o));
                        }
                    }
                }
            }
        }
        reached.sort_unstable();
        reached.dedup();
        reached.into_iter().map(|(_, o)| o).collect()
    }

    /// Settle the events so far (ZN-10.2, ZN-9.4): passives fire in event order (at most
    /// [`MAX_PASSIVES`]), and each event whose Star has a usable reaction opens a window.
    pub(crate) fn settle_events(&mut self) {
        if self.over() {
            self.events.clear();
            return;
        }
        let content = std::sync::Arc::clone(&self.shared.content);
        let waiting = self.offers.len();
        let mut fired = 0;
        let mut i = 0;
        while let Some(&ev) = self.events.get(i) {
            i += 1;
            if self.over() {
                // ZN-12.6: a passive won the game; nothing else of the decision happens.
                self.events.clear();
                return;
            }
            if !self.alive(ev.star) {
                continue;
            }
            let roster = self.stars[ev.star].roster;
            let mut offered = false;
            for (k, ab) in content.stars[roster].abilities.iter().enumerate() {
                if ab.trigger != Some(ev.trigger) {
                    continue;
                }
                match ab.kind {
                    Kind::Passive if fired < MAX_PASSIVES && self.alive(ev.star) => {
                        if self.is_silenced(ev.star, Kind::Passive) {
                            continue;
                        }
                        fired += 1;
                        self.fire(ev.star, k as u8, ev.source);
                    }
                    Kind::Reaction if !offered => {
                        let o = Offer {
                            star: ev.star,
                            trigger: ev.trigger,
                            source: ev.source,
                        };
                        if self.offer_useful(o) {
                            self.offers.push_back(o);
                            offered = true;
                        }
                    }
                    _ => {}
                }
            }
        }
        self.events.clear();
        if self.options().reaction_order == ReactionOrder::Initiative {
            self.initiative_order(waiting);
        }
    }

    /// `reaction_order = "initiative"` (ZN-9.4): the windows this resolution opened (those
    /// after the first `waiting`) go in initiative order from the player whose turn it is;
    /// one player's windows keep their event order (a stable sort).
    fn initiative_order(&mut self, waiting: usize) {
        let n = self.order.len().max(1);
        let turn = self.turn;
        let seat_rank: Vec<usize> = (0..self.shared.players)
            .map(|p| {
                let at = self.order.iter().position(|&o| o == p).unwrap_or(0);
                (at + n - turn % n) % n
            })
            .collect();
        let per_player = self.shared.per_player.max(1);
        let fresh = self
            .offers
            .make_contiguous()
            .get_mut(waiting..)
            .unwrap_or(&mut []);
        fresh.sort_by_key(|o| {
            seat_rank
                .get(o.star / per_player)
                .copied()
                .unwrap_or(usize::MAX)
        });
    }
}
