//! The resolution of one ability as plain, resumable data (ZN-9.5): who uses which ability
//! on which zone, and a stack of the effect lists still to apply — each on one Star, with
//! the next effect and the damage instances of it already dealt. The attack roll is made
//! when the resolution starts (ZN-7.4), so the stack already says which targets were hit
//! (`effects`) and which missed (`on_miss`).
//!
//! By default a resolution runs to its end in one go and its events are settled after it.
//! With `reactions_interrupt = true` the resolution of an activated ability (an attack or an
//! instant) settles the events of each step at once; when they open a reaction window the
//! rest waits in the state (`Resume::Resolution`) until every window is closed, and a saved
//! state or position carries it. A reaction's or a passive's own resolution always runs in
//! full (**Reading**), so at most one resolution is ever suspended.

use super::ability::{Effect, Kind, Root, Target, MAX_DEPTH};
use super::state::{Declared, Resume, Zinordia};
use crate::hex::Hex;

/// One effect list still to apply to one Star.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The Star the list applies to.
    pub star: usize,
    /// Which of the ability's lists, then `path[..depth]` into nested ones
    /// ([`super::ability::Ability::list`]).
    pub root: Root,
    pub path: [u8; MAX_DEPTH],
    pub depth: u8,
    /// The next effect of the list to apply.
    pub next: u8,
    /// Damage instances of effect `next` already dealt (a `damage` with `hits` > 1).
    pub hits: u8,
}

impl Step {
    pub fn new(star: usize, root: Root) -> Step {
        Step {
            star,
            root,
            path: [0; MAX_DEPTH],
            depth: 0,
            next: 0,
            hits: 0,
        }
    }

    pub fn path(&self) -> &[u8] {
        self.path.get(..usize::from(self.depth)).unwrap_or(&[])
    }

    /// The step for the list nested in effect `i` of this one, on `star`.
    fn inner(&self, star: usize, i: u8) -> Step {
        let mut s = Step::new(star, self.root);
        s.path = self.path;
        if let Some(slot) = s.path.get_mut(usize::from(self.depth)) {
            *slot = i;
            s.depth = self.depth + 1;
        }
        s
    }
}

/// What remains of an ability's resolution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The Star using the ability (it may be defeated meanwhile: its damage still lands).
    pub user: usize,
    /// The ability's index on the user's sheet.
    pub ability: u8,
    /// The ability's target zone (leap, dash); `None` for a reaction on a gone source.
    pub target: Option<Hex>,
    /// The lists still to apply, the last first.
    pub steps: Vec<Step>,
}

impl Zinordia {
    /// Start resolving ability `i` of `user` on `target` (ZN-7.4, ZN-10.3): an attack rolls
    /// once against each affected Star's defence (`effects` on those hit, `on_miss` on the
    /// others); other kinds apply `effects` to every affected Star; `self_effects` on the
    /// user come last.
    pub(crate) fn start_resolution(
        &mut self,
        user: usize,
        i: u8,
        target: Option<Hex>,
    ) -> Resolution {
        let content = std::sync::Arc::clone(&self.shared.content);
        let mut steps = Vec::new();
        if let Some(ab) = content.stars[self.stars[user].roster]
            .abilities
            .get(usize::from(i))
        {
            steps.push(Step::new(user, Root::SelfEffects));
            let affected = self.affected(user, ab, target);
            if ab.kind == Kind::Attack {
                // ZN-2.9: the attacker's zone's terrain attack modifier is a bonus too.
                let bonus = i32::from(ab.attack_bonus)
                    + self.stat(user, super::ability::Stat::Attack)
                    + i32::from(self.shared.modifiers(self.stars[user].zone).attack);
                let roll = self.roll_attack(&affected, bonus);
                for d in roll.defences.iter().rev() {
                    let root = if d.hit { Root::Effects } else { Root::OnMiss };
                    steps.push(Step::new(d.star, root));
                }
            } else {
                steps.extend(affected.iter().rev().map(|&t| Step::new(t, Root::Effects)));
            }
        }
        Resolution {
            user,
            ability: i,
            target,
            steps,
        }
    }

    /// Resolve a declared activation (ZN-7, ZN-9.1, ZN-9.2) once its `targeted` windows
    /// closed: the user may have been defeated meanwhile (then nothing happens). With
    /// `reactions_interrupt` it may stop at a reaction window, its rest kept in `resume`.
    pub(crate) fn resolve_declared(&mut self, d: Declared) {
        if !self.alive(d.star) {
            return;
        }
        let r = self.start_resolution(d.star, d.ability, Some(d.target));
        self.continue_resolution(r);
    }

    /// Run `r` on; with `reactions_interrupt`, stop where a window opens and keep the rest
    /// as what the game resumes once the windows are closed.
    pub(crate) fn continue_resolution(&mut self, mut r: Resolution) {
        let interrupt = self.options().reactions_interrupt;
        if !self.run(&mut r, interrupt) {
            self.resume = Resume::Resolution(Box::new(r));
        }
    }

    /// A passive or a reaction acting (always in full): on itself (and its area), or on the
    /// trigger's source — only its self effects when the source is gone.
    pub(crate) fn fire(&mut self, star: usize, i: u8, source: Option<usize>) {
        let Some(ab) = self.ability(star, i) else {
            return;
        };
        let mut r = if ab.target == Target::Source {
            match source
                .filter(|&s| self.alive(s))
                .and_then(|s| self.stars[s].zone)
            {
                Some(h) => self.start_resolution(star, i, Some(h)),
                None => Resolution {
                    user: star,
                    ability: i,
                    target: None,
                    steps: vec![Step::new(star, Root::SelfEffects)],
                },
            }
        } else {
            let own = self.stars[star].zone;
            self.start_resolution(star, i, own)
        };
        self.run(&mut r, false);
    }

    /// Apply the steps of `r` one effect (one damage instance) at a time, each list stopping
    /// when its Star is out, or its user is and the effect is not damage. With `interrupt`
    /// the events of each step settle at once, and the run stops (returns false) when they
    /// opened a reaction window.
    pub(crate) fn run(&mut self, r: &mut Resolution, interrupt: bool) -> bool {
        let content = std::sync::Arc::clone(&self.shared.content);
        let Some(ab) = content.stars[self.stars[r.user].roster]
            .abilities
            .get(usize::from(r.ability))
        else {
            r.steps.clear();
            return true;
        };
        let user = r.user;
        while let Some(step) = r.steps.last_mut() {
            if self.over() {
                // ZN-12.6: the game ended mid-ability; nothing more of it happens.
                r.steps.clear();
                return true;
            }
            let t = step.star;
            let Some(e) = ab
                .list(step.root, step.path())
                .and_then(|l| l.get(usize::from(step.next)))
            else {
                r.steps.pop();
                continue;
            };
            let damage = matches!(e, Effect::Damage { .. });
            if !self.alive(t) || !self.alive(user) && !damage {
                r.steps.pop();
                continue;
            }
            if let Effect::Damage { hits, .. } = e {
                // One instance per step (each may trigger, ZN-8.1).
                if step.hits < *hits {
                    step.hits += 1;
                    self.apply_effect(user, r.target, t, e);
                }
                if step.hits >= *hits || !self.alive(t) {
                    step.next += 1;
                    step.hits = 0;
                }
            } else {
                let i = step.next;
                step.next += 1;
                let parent = *step;
                let on = self.apply_effect(user, r.target, t, e);
                // The nested list on each Star it names, the first on top.
                r.steps.extend(on.iter().rev().map(|&o| parent.inner(o, i)));
            }
            if interrupt && !self.events.is_empty() {
                self.settle_events();
                // Lists with nothing left go first, so a resolution with nothing left to
                // do is over rather than suspended.
                while r.steps.last().is_some_and(|st| {
                    ab.list(st.root, st.path())
                        .is_none_or(|l| l.len() <= usize::from(st.next))
                }) {
                    r.steps.pop();
                }
                if !self.offers.is_empty() {
                    return r.steps.is_empty();
                }
            }
        }
        true
    }
}
