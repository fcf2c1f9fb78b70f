//! The ability vocabulary (ZN-9 to ZN-11): the typed form of what a roster file may say about
//! an ability. The engine implements this vocabulary once; Stars are data. The model is Battle
//! for Wesnoth's data-defined abilities: a small set of triggers, targets, areas, standard
//! filters (`affects`, the `if` effect) and effects, combined freely by the content.
//!
//! Serde reads it (`deny_unknown_fields` everywhere, effects as a `kind`-tagged enum);
//! [`Ability::validate`] then checks what serde cannot (combinations, bounds) and names the
//! field it rejects. `docs/zinordia.md` documents the format field by field.

use serde::Deserialize;

use crate::hex::Shape;

/// Largest area size, range, distance or duration the vocabulary accepts: the maps have at
/// most 64 zones, so nothing needs more.
pub const MAX_REACH: u8 = 12;
/// Largest base damage, healing, amount of a stat change and of a cost.
pub const MAX_AMOUNT: u16 = 99;
/// Most damage instances (`hits`) and most repetitions (`repeat`) one ability may have.
pub const MAX_REPEAT: u8 = 6;
/// Deepest nesting of effects (`if.then`, `on_collision`, `path`).
pub const MAX_DEPTH: usize = 3;

/// When an ability can be used (ZN-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Activated in the Star's play, resolved by an attack roll (ZN-7).
    Attack,
    /// Activated in the Star's play, no roll.
    Instant,
    /// Acts by itself on its trigger; never activated.
    Passive,
    /// Offered to its Star's player right after its trigger, in any turn.
    Reaction,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Attack => "attack",
            Kind::Instant => "instant",
            Kind::Passive => "passive",
            Kind::Reaction => "reaction",
        }
    }
    /// Attacks and instants are activated in a play (ZN-6.4).
    pub fn is_activated(self) -> bool {
        matches!(self, Kind::Attack | Kind::Instant)
    }
}

/// What fires a passive or a reaction (ZN-10.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// The owner's First Maintenance.
    TurnStart,
    /// The owner's Second Maintenance.
    TurnEnd,
    /// The Star took an instance of damage (the dealer is the source).
    Damaged,
    /// The Star dealt an instance of damage (the damaged Star is the source).
    DealDamage,
    /// An enemy declared an attack or ability that includes the Star.
    Targeted,
    /// An enemy entered a zone adjacent to the Star (the mover is the source).
    EnemyEnters,
    /// An ally of the Star was defeated (the defeater, if any, is the source).
    AllyDefeated,
    /// The Star defeated a Star (the victim is the source).
    Kill,
    /// A Star this Star pushed or pulled collided (the moved Star is the source).
    Collision,
    /// Continuous: while an ally is adjacent (passive stat changes only).
    WhileAdjacentAlly,
    /// Continuous: while an enemy is adjacent.
    WhileAdjacentEnemy,
    /// Continuous: while no ally is adjacent.
    WhileAlone,
}

impl Trigger {
    pub fn name(self) -> &'static str {
        match self {
            Trigger::TurnStart => "turn_start",
            Trigger::TurnEnd => "turn_end",
            Trigger::Damaged => "damaged",
            Trigger::DealDamage => "deal_damage",
            Trigger::Targeted => "targeted",
            Trigger::EnemyEnters => "enemy_enters",
            Trigger::AllyDefeated => "ally_defeated",
            Trigger::Kill => "kill",
            Trigger::Collision => "collision",
            Trigger::WhileAdjacentAlly => "while_adjacent_ally",
            Trigger::WhileAdjacentEnemy => "while_adjacent_enemy",
            Trigger::WhileAlone => "while_alone",
        }
    }
    /// A condition that holds for a while, rather than an event.
    pub fn is_continuous(self) -> bool {
        matches!(
            self,
            Trigger::WhileAdjacentAlly | Trigger::WhileAdjacentEnemy | Trigger::WhileAlone
        )
    }
    /// Events that have a source Star a reaction may target.
    pub fn has_source(self) -> bool {
        matches!(
            self,
            Trigger::Damaged
                | Trigger::DealDamage
                | Trigger::Targeted
                | Trigger::EnemyEnters
                | Trigger::Kill
                | Trigger::Collision
        )
    }
}

/// What the player names when activating (ZN-10.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The user's own zone.
    #[default]
    #[serde(rename = "self")]
    User,
    /// An allied Star in range.
    Ally,
    /// An enemy Star in range.
    Enemy,
    /// Any other Star in range.
    Star,
    /// Any zone in range.
    Zone,
    /// An empty zone in range.
    EmptyZone,
    /// A zone in range on one of the user's six axes: it names a direction.
    Direction,
    /// Reactions: the Star that caused the trigger.
    Source,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::User => "self",
            Target::Ally => "ally",
            Target::Enemy => "enemy",
            Target::Star => "star",
            Target::Zone => "zone",
            Target::EmptyZone => "empty_zone",
            Target::Direction => "direction",
            Target::Source => "source",
        }
    }
    /// Targets that name another Star.
    pub fn is_star(self) -> bool {
        matches!(
            self,
            Target::Ally | Target::Enemy | Target::Star | Target::Source
        )
    }
}

/// Area shapes, from `kingdoms.hex` (ZN-10.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum AreaShape {
    /// The target alone.
    #[default]
    Single,
    /// Every zone within `size` of the target, the target included.
    Radius,
    /// The zones at exactly `size` from the target.
    Ring,
    /// `size` zones from the user along the target's direction.
    Line,
    /// The 60° wedge of depth `size` from the user, toward the target's direction.
    Cone,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Area {
    #[serde(default)]
    pub shape: AreaShape,
    #[serde(default)]
    pub size: u8,
}

impl Area {
    /// The `kingdoms.hex` shape; `direction` is used by lines and cones only.
    pub fn shape(self, direction: usize) -> Shape {
        let n = u32::from(self.size);
        match self.shape {
            AreaShape::Single => Shape::Single,
            AreaShape::Radius => Shape::Radius(n),
            AreaShape::Ring => Shape::Ring(n),
            AreaShape::Line => Shape::Line {
                direction,
                length: n,
            },
            AreaShape::Cone => Shape::Cone {
                direction,
                length: n,
            },
        }
    }
    /// Lines and cones run from the user along a direction.
    pub fn is_directed(self) -> bool {
        matches!(self.shape, AreaShape::Line | AreaShape::Cone)
    }
}

/// Who in the area an ability affects: Wesnoth's `affect_self` / `affect_allies` /
/// `affect_enemies` as one field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Affects {
    Enemies,
    Allies,
    AlliesAndSelf,
    All,
    AllButSelf,
}

impl Affects {
    pub fn name(self) -> &'static str {
        match self {
            Affects::Enemies => "enemies",
            Affects::Allies => "allies",
            Affects::AlliesAndSelf => "allies_and_self",
            Affects::All => "all",
            Affects::AllButSelf => "all_but_self",
        }
    }
    /// Whether a Star is affected, given whether it is the user and whether it is an ally.
    pub fn includes(self, is_user: bool, is_ally: bool) -> bool {
        match self {
            Affects::Enemies => !is_user && !is_ally,
            Affects::Allies => !is_user && is_ally,
            Affects::AlliesAndSelf => is_user || is_ally,
            Affects::All => true,
            Affects::AllButSelf => !is_user,
        }
    }
}

/// A resource a cost is paid in (ZN-10.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    Vida,
    Amago,
    Renown,
}

impl Resource {
    /// The resource's name for people.
    pub fn name(self) -> &'static str {
        match self {
            Resource::Vida => "Vida",
            Resource::Amago => "Âmago",
            Resource::Renown => "Renown",
        }
    }
}

/// An additional or alternative cost (ZN-10.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialCost {
    pub resource: Resource,
    pub amount: u16,
}

/// A status an effect changes (ZN-11.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    Armadura,
    Agilidade,
    PoderFisico,
    PoderMagico,
    /// Bonus to the Star's attack rolls.
    Attack,
    /// Bonus to the Star's defence rolls.
    Defence,
}

pub const STATS: [Stat; 6] = [
    Stat::Armadura,
    Stat::Agilidade,
    Stat::PoderFisico,
    Stat::PoderMagico,
    Stat::Attack,
    Stat::Defence,
];

impl Stat {
    pub fn name(self) -> &'static str {
        match self {
            Stat::Armadura => "armadura",
            Stat::Agilidade => "agilidade",
            Stat::PoderFisico => "poder_fisico",
            Stat::PoderMagico => "poder_magico",
            Stat::Attack => "attack",
            Stat::Defence => "defence",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    /// Its bit in a set of stats (bit `i` for `STATS[i]`).
    pub fn bit(self) -> u8 {
        1 << self.index()
    }
}

/// Which power scales an amount (ZN-8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Power {
    Fisico,
    Magico,
}

/// An amount from a base and a power: `base + power * factor / divisor`, rounded down
/// (ZN-8.3, ZN-8.4): the fields `base`, `power`, `factor`, `divisor` of damage, healing and
/// damage over time ([`Effect::amount`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Amount {
    pub base: u16,
    pub power: Option<Power>,
    pub factor: u16,
    pub divisor: u16,
}

fn one16() -> u16 {
    1
}
fn one8() -> u8 {
    1
}
fn yes() -> bool {
    true
}

impl Amount {
    /// The amount for a user with these current powers (negative powers count as 0).
    pub fn value(&self, poder_fisico: i32, poder_magico: i32) -> u32 {
        let power = match self.power {
            None => 0,
            Some(Power::Fisico) => poder_fisico.max(0) as u32,
            Some(Power::Magico) => poder_magico.max(0) as u32,
        };
        // `divisor >= 1` is checked at load; integer division drops the fraction (ZN-8.4).
        u32::from(self.base) + power * u32::from(self.factor) / u32::from(self.divisor.max(1))
    }
}

/// Which abilities a silence stops (ZN-11.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SilenceScope {
    #[default]
    All,
    Attacks,
    Instants,
    Reactions,
}

/// A class of effects a Star can be immune to (ZN-11.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Immunity {
    Damage,
    ForcedMove,
    Debuff,
    Mark,
    Silence,
    AmagoLoss,
}

/// Moving Renown by ability (ZN-12.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RenownOp {
    /// From the user to an allied target.
    Transfer,
    /// From an enemy target to the user.
    Steal,
}

/// Who a collision's effects reach (ZN-11.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CollisionTo {
    /// The Star that was moved.
    #[default]
    Moved,
    /// The moved Star and the Star it ran into, if any.
    Both,
}

/// One effect (ZN-11). Applied to each affected Star (the user, for `self_effects`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// `hits` instances of damage of the amount (ZN-8).
    Damage {
        #[serde(default)]
        base: u16,
        power: Option<Power>,
        #[serde(default = "one16")]
        factor: u16,
        #[serde(default = "one16")]
        divisor: u16,
        #[serde(default = "one8")]
        hits: u8,
    },
    /// Restore Vida, never above the starting Vida (ZN-8.6).
    Heal {
        #[serde(default)]
        base: u16,
        power: Option<Power>,
        #[serde(default = "one16")]
        factor: u16,
        #[serde(default = "one16")]
        divisor: u16,
    },
    /// A buff (amount > 0) or debuff (< 0); agility reduction is a debuff of `agilidade`.
    Stat {
        stat: Stat,
        amount: i8,
        duration: Option<u8>,
        #[serde(default = "yes")]
        stacks: bool,
    },
    /// A named mark for `duration` turns (ZN-11.3).
    Mark { mark: String, duration: u8 },
    /// Silence (ZN-11.5).
    Silence {
        #[serde(default)]
        scope: SilenceScope,
        #[serde(default)]
        passives: bool,
        duration: u8,
    },
    /// Push away from the user (ZN-11.7).
    Push {
        distance: u8,
        #[serde(default)]
        on_collision: Vec<Effect>,
        #[serde(default)]
        collision_to: CollisionTo,
    },
    /// Pull toward the user (ZN-11.7).
    Pull {
        distance: u8,
        #[serde(default)]
        on_collision: Vec<Effect>,
        #[serde(default)]
        collision_to: CollisionTo,
    },
    /// Immunity to a class of effects (ZN-11.10).
    Immune { to: Immunity, duration: u8 },
    /// Renown transfer or theft (ZN-12.4).
    Renown { op: RenownOp, amount: u8 },
    /// Gain (> 0) or lose (< 0) Âmago; `drain`: the user gains what was lost (ZN-11.11).
    Amago {
        amount: i8,
        #[serde(default)]
        drain: bool,
    },
    /// Damage over time at the applier's Second Maintenance (ZN-11.9).
    Dot {
        #[serde(default)]
        base: u16,
        power: Option<Power>,
        #[serde(default = "one16")]
        factor: u16,
        #[serde(default = "one16")]
        divisor: u16,
        duration: u8,
    },
    /// The user moves to the (empty) target zone (ZN-11.8).
    Leap,
    /// The user moves up to `distance` zones along the target's direction; `path` effects
    /// reach the Stars adjacent to the zones crossed (ZN-11.8).
    Dash {
        distance: u8,
        #[serde(default)]
        path: Vec<Effect>,
    },
    /// A standard filter: `then` applies only if every given condition holds (ZN-10.9).
    If {
        marked: Option<String>,
        target_vida_at_most: Option<u16>,
        user_adjacent_ally: Option<bool>,
        /// Remove the mark once the condition matched.
        #[serde(default)]
        consume: bool,
        then: Vec<Effect>,
    },
}

impl Effect {
    pub fn kind(&self) -> &'static str {
        match self {
            Effect::Damage { .. } => "damage",
            Effect::Heal { .. } => "heal",
            Effect::Stat { .. } => "stat",
            Effect::Mark { .. } => "mark",
            Effect::Silence { .. } => "silence",
            Effect::Push { .. } => "push",
            Effect::Pull { .. } => "pull",
            Effect::Immune { .. } => "immune",
            Effect::Renown { .. } => "renown",
            Effect::Amago { .. } => "amago",
            Effect::Dot { .. } => "dot",
            Effect::Leap => "leap",
            Effect::Dash { .. } => "dash",
            Effect::If { .. } => "if",
        }
    }

    /// The amount of a damage, heal or damage-over-time effect.
    pub fn amount(&self) -> Option<Amount> {
        match *self {
            Effect::Damage {
                base,
                power,
                factor,
                divisor,
                ..
            }
            | Effect::Heal {
                base,
                power,
                factor,
                divisor,
            }
            | Effect::Dot {
                base,
                power,
                factor,
                divisor,
                ..
            } => Some(Amount {
                base,
                power,
                factor,
                divisor,
            }),
            _ => None,
        }
    }

    /// The effect list nested in this one (`on_collision`, `path`, `then`), empty if none.
    pub fn nested(&self) -> &[Effect] {
        match self {
            Effect::Push { on_collision, .. } | Effect::Pull { on_collision, .. } => on_collision,
            Effect::Dash { path, .. } => path,
            Effect::If { then, .. } => then,
            _ => &[],
        }
    }

    /// Every effect in this one, itself first, depth first (nested lists included).
    pub fn walk<'a>(&'a self, out: &mut Vec<&'a Effect>) {
        out.push(self);
        for e in self.nested() {
            e.walk(out);
        }
    }
}

/// One ability of a Star, as loaded (ZN-10).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    /// Unique within its Star; used in notation.
    pub id: String,
    /// The printed name.
    pub name: String,
    pub kind: Kind,
    /// Rules text for people; the engine reads the fields below, never this.
    #[serde(default)]
    pub text: String,
    /// Âmago cost.
    #[serde(default)]
    pub cost: u16,
    /// Paid on top of the Âmago.
    pub extra_cost: Option<SpecialCost>,
    /// May be paid instead of the Âmago.
    pub alt_cost: Option<SpecialCost>,
    /// Hex distance from the user to the target (ZN-2.5).
    #[serde(default)]
    pub range: u8,
    #[serde(default)]
    pub target: Target,
    #[serde(default)]
    pub area: Area,
    /// Who in the area is affected; default: enemies for attacks, the target otherwise.
    pub affects: Option<Affects>,
    /// Activations allowed per round (Repetição, ZN-10.6).
    #[serde(default = "one8")]
    pub repeat: u8,
    #[serde(default)]
    pub ultra_rapid: bool,
    /// Added to the attacker's 2d6 (ZN-7.2).
    #[serde(default)]
    pub attack_bonus: i8,
    pub trigger: Option<Trigger>,
    /// Applied to each affected Star (for attacks: each one hit).
    #[serde(default)]
    pub effects: Vec<Effect>,
    /// Attacks: applied to each target the roll missed.
    #[serde(default)]
    pub on_miss: Vec<Effect>,
    /// Applied to the user once the ability resolved.
    #[serde(default)]
    pub self_effects: Vec<Effect>,
}

/// A validation failure: the field (a path inside the ability) and why.
pub type Problem = (String, String);

fn problem(field: impl Into<String>, why: impl Into<String>) -> Problem {
    (field.into(), why.into())
}

/// One of an ability's top-level effect lists (the roster format's field names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    Effects,
    OnMiss,
    SelfEffects,
}

impl Root {
    pub const ALL: [Root; 3] = [Root::Effects, Root::OnMiss, Root::SelfEffects];

    pub fn name(self) -> &'static str {
        match self {
            Root::Effects => "effects",
            Root::OnMiss => "on_miss",
            Root::SelfEffects => "self_effects",
        }
    }
}

impl Ability {
    /// A continuous passive (ZN-10.2): its changes hold while its condition does.
    pub fn is_continuous(&self) -> bool {
        matches!(
            self.trigger,
            Some(Trigger::WhileAdjacentAlly | Trigger::WhileAdjacentEnemy | Trigger::WhileAlone)
        )
    }
    /// The effect list at `root`, then down `path`: each index names an effect of the list
    /// so far whose nested list is taken (`None` if the path leads nowhere).
    pub fn list(&self, root: Root, path: &[u8]) -> Option<&[Effect]> {
        let mut list: &[Effect] = match root {
            Root::Effects => &self.effects,
            Root::OnMiss => &self.on_miss,
            Root::SelfEffects => &self.self_effects,
        };
        for &i in path {
            let nested = list.get(usize::from(i))?.nested();
            if nested.is_empty() {
                return None;
            }
            list = nested;
        }
        Some(list)
    }

    /// Who is affected, with the default filled in.
    pub fn affects(&self) -> Option<Affects> {
        self.affects.or(match self.kind {
            Kind::Attack if self.area.shape != AreaShape::Single => Some(Affects::Enemies),
            _ => None,
        })
    }

    /// Every effect of the ability, nested ones included.
    pub fn all_effects(&self) -> Vec<&Effect> {
        let mut out = Vec::new();
        for e in self
            .effects
            .iter()
            .chain(&self.on_miss)
            .chain(&self.self_effects)
        {
            e.walk(&mut out);
        }
        out
    }

    /// The checks serde cannot make: bounds and combinations. `Err` names the field.
    pub fn validate(&self) -> Result<(), Problem> {
        if self.id.is_empty() || self.id.len() > 32 || !self.id.bytes().all(is_id_byte) {
            return Err(problem(
                "id",
                "must be 1 to 32 characters of a-z, 0-9 and _",
            ));
        }
        crate::text::check_name(&self.name, 48).map_err(|why| problem("name", why))?;
        if self.cost > MAX_AMOUNT {
            return Err(problem("cost", format!("at most {MAX_AMOUNT}")));
        }
        for (field, c) in [("extra_cost", self.extra_cost), ("alt_cost", self.alt_cost)] {
            if let Some(c) = c {
                if c.amount == 0 || c.amount > MAX_AMOUNT {
                    return Err(problem(
                        format!("{field}.amount"),
                        format!("must be 1 to {MAX_AMOUNT}"),
                    ));
                }
            }
        }
        if self.range > MAX_REACH {
            return Err(problem("range", format!("at most {MAX_REACH}")));
        }
        if self.area.size > MAX_REACH {
            return Err(problem("area.size", format!("at most {MAX_REACH}")));
        }
        if self.repeat == 0 || self.repeat > MAX_REPEAT {
            return Err(problem("repeat", format!("must be 1 to {MAX_REPEAT}")));
        }
        if self.kind != Kind::Attack && self.attack_bonus != 0 {
            return Err(problem("attack_bonus", "only attacks roll"));
        }
        if self.kind != Kind::Attack && !self.on_miss.is_empty() {
            return Err(problem("on_miss", "only attacks can miss"));
        }
        self.validate_kind()?;
        self.validate_targeting()?;
        self.validate_effects()
    }

    fn validate_kind(&self) -> Result<(), Problem> {
        match (self.kind, self.trigger) {
            (Kind::Attack | Kind::Instant, Some(_)) => Err(problem(
                "trigger",
                "attacks and instants are activated in a play and take no trigger",
            )),
            (Kind::Passive | Kind::Reaction, None) => {
                Err(problem("trigger", "passives and reactions need a trigger"))
            }
            (Kind::Reaction, Some(t)) if t.is_continuous() => Err(problem(
                "trigger",
                format!("{:?} is a continuous condition: passives only", t.name()),
            )),
            (Kind::Passive, Some(_)) if self.cost != 0 || self.extra_cost.is_some() => Err(
                problem("cost", "a passive is never activated, so it costs nothing"),
            ),
            (Kind::Passive, Some(_)) if self.alt_cost.is_some() => Err(problem(
                "alt_cost",
                "a passive is never activated, so it costs nothing",
            )),
            (Kind::Passive | Kind::Reaction, _) if self.ultra_rapid => Err(problem(
                "ultra_rapid",
                "only attacks and instants use a play's activation",
            )),
            (Kind::Passive, _) if self.repeat != 1 => {
                Err(problem("repeat", "passives are not limited per round"))
            }
            // One play a round, one activation a play: only an ultra-rapid ability can be
            // activated twice in a round, first for free and then as the activation.
            (Kind::Attack | Kind::Instant, _) if self.repeat > 1 && !self.ultra_rapid => {
                Err(problem(
                    "repeat",
                    "an attack or instant is used twice a round only if ultra_rapid",
                ))
            }
            (Kind::Attack | Kind::Instant, _) if self.repeat > 2 => Err(problem(
                "repeat",
                "an ultra-rapid ability is used at most twice in its Star's one play a round",
            )),
            (Kind::Passive, Some(t)) if t.is_continuous() => {
                // A continuous passive is a standing stat change on its own Star.
                if self.target != Target::User || self.effects.is_empty() {
                    return Err(problem(
                        "effects",
                        "a continuous passive changes its own Star's stats (target self)",
                    ));
                }
                for (i, e) in self.effects.iter().enumerate() {
                    if !matches!(e, Effect::Stat { duration: None, .. }) {
                        return Err(problem(
                            format!("effects[{i}].kind"),
                            "a continuous passive may only hold stat changes without duration",
                        ));
                    }
                }
                if !self.self_effects.is_empty() {
                    return Err(problem("self_effects", "use effects (target self)"));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn validate_targeting(&self) -> Result<(), Problem> {
        let t = self.target;
        if t == Target::Source {
            let has_source = self.trigger.is_some_and(Trigger::has_source);
            if self.kind != Kind::Reaction && self.kind != Kind::Passive || !has_source {
                return Err(problem(
                    "target",
                    "\"source\" needs a passive or reaction whose trigger has a source Star",
                ));
            }
        } else if matches!(self.kind, Kind::Passive | Kind::Reaction) && t != Target::User {
            return Err(problem(
                "target",
                "passives and reactions target \"self\" or \"source\"",
            ));
        }
        match t {
            Target::User if self.range != 0 => {
                return Err(problem("range", "a self-targeted ability has range 0"))
            }
            Target::Source => {}
            Target::User => {}
            _ if self.range == 0 => {
                return Err(problem("range", "must be at least 1 for this target"))
            }
            _ => {}
        }
        let a = self.area;
        match a.shape {
            AreaShape::Single if a.size != 0 => {
                return Err(problem("area.size", "a single-zone area has no size"))
            }
            AreaShape::Single => {}
            _ if a.size == 0 => return Err(problem("area.size", "must be at least 1")),
            _ => {}
        }
        let dashes = self
            .effects
            .iter()
            .any(|e| matches!(e, Effect::Dash { .. }));
        if a.is_directed() && t != Target::Direction {
            return Err(problem(
                "area.shape",
                "lines and cones need target \"direction\"",
            ));
        }
        if t == Target::Direction && !a.is_directed() && !dashes {
            return Err(problem(
                "target",
                "target \"direction\" needs a line or cone area, or a dash",
            ));
        }
        if a.shape == AreaShape::Single && self.affects.is_some() {
            return Err(problem(
                "affects",
                "a single-zone area affects its target; give an area to filter",
            ));
        }
        if a.shape == AreaShape::Single && matches!(t, Target::Zone | Target::EmptyZone) {
            let moves_user = self.all_effects().iter().any(|e| matches!(e, Effect::Leap));
            if !moves_user {
                return Err(problem(
                    "area",
                    "a zone target with a single-zone area affects nothing: give an area or a leap",
                ));
            }
        }
        Ok(())
    }

    fn validate_effects(&self) -> Result<(), Problem> {
        if self.effects.is_empty() && self.self_effects.is_empty() {
            return Err(problem("effects", "an ability must do something"));
        }
        let reaches_stars = self.target.is_star() || self.area.shape != AreaShape::Single;
        for (list, effects) in [
            ("effects", &self.effects),
            ("on_miss", &self.on_miss),
            ("self_effects", &self.self_effects),
        ] {
            for (i, e) in effects.iter().enumerate() {
                let field = format!("{list}[{i}]");
                let on_user = list == "self_effects" || !reaches_stars;
                validate_effect(e, &field, on_user, self, 1)?;
            }
        }
        Ok(())
    }
}

fn is_id_byte(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'
}

fn validate_amount(a: &Amount, field: &str) -> Result<(), Problem> {
    if a.base > MAX_AMOUNT {
        return Err(problem(
            format!("{field}.base"),
            format!("at most {MAX_AMOUNT}"),
        ));
    }
    if a.power.is_none() && (a.factor != 1 || a.divisor != 1) {
        return Err(problem(
            format!("{field}.power"),
            "factor and divisor scale a power: name one",
        ));
    }
    if a.factor == 0 || a.factor > 10 {
        return Err(problem(format!("{field}.factor"), "must be 1 to 10"));
    }
    if a.divisor == 0 || a.divisor > 10 {
        return Err(problem(format!("{field}.divisor"), "must be 1 to 10"));
    }
    if a.base == 0 && a.power.is_none() {
        return Err(problem(field, "a base or a power is needed"));
    }
    Ok(())
}

fn validate_duration(d: u8, field: &str) -> Result<(), Problem> {
    if d == 0 || d > MAX_REACH {
        return Err(problem(
            format!("{field}.duration"),
            format!("must be 1 to {MAX_REACH}"),
        ));
    }
    Ok(())
}

fn validate_list(
    list: &[Effect],
    field: &str,
    on_user: bool,
    ability: &Ability,
    depth: usize,
) -> Result<(), Problem> {
    if list.is_empty() {
        return Err(problem(field, "must not be empty"));
    }
    for (i, e) in list.iter().enumerate() {
        validate_effect(e, &format!("{field}[{i}]"), on_user, ability, depth + 1)?;
    }
    Ok(())
}

fn validate_effect(
    e: &Effect,
    field: &str,
    on_user: bool,
    ability: &Ability,
    depth: usize,
) -> Result<(), Problem> {
    if depth > MAX_DEPTH {
        return Err(problem(
            field,
            format!("effects nest at most {MAX_DEPTH} deep"),
        ));
    }
    if let Some(a) = e.amount() {
        validate_amount(&a, field)?;
    }
    match e {
        Effect::Damage { hits, .. } => {
            if *hits == 0 || *hits > MAX_REPEAT {
                return Err(problem(
                    format!("{field}.hits"),
                    format!("must be 1 to {MAX_REPEAT}"),
                ));
            }
        }
        Effect::Heal { .. } => {}
        Effect::Dot { duration, .. } => validate_duration(*duration, field)?,
        Effect::Stat {
            amount, duration, ..
        } => {
            if *amount == 0 || i16::from(*amount).unsigned_abs() > MAX_AMOUNT {
                return Err(problem(
                    format!("{field}.amount"),
                    "must be a non-zero change",
                ));
            }
            if let Some(d) = duration {
                validate_duration(*d, field)?;
            }
        }
        Effect::Mark { mark, duration } => {
            validate_mark_name(mark, &format!("{field}.mark"))?;
            validate_duration(*duration, field)?;
        }
        Effect::Silence { duration, .. } | Effect::Immune { duration, .. } => {
            validate_duration(*duration, field)?
        }
        Effect::Push {
            distance,
            on_collision,
            ..
        }
        | Effect::Pull {
            distance,
            on_collision,
            ..
        } => {
            if on_user {
                return Err(problem(
                    field,
                    "push and pull move another Star away from or toward the user",
                ));
            }
            if *distance == 0 || *distance > MAX_REACH {
                return Err(problem(
                    format!("{field}.distance"),
                    format!("must be 1 to {MAX_REACH}"),
                ));
            }
            if !on_collision.is_empty() {
                validate_list(
                    on_collision,
                    &format!("{field}.on_collision"),
                    false,
                    ability,
                    depth,
                )?;
            }
        }
        Effect::Renown { op, amount } => validate_renown(*op, *amount, field, on_user, ability)?,
        Effect::Amago { amount, drain } => validate_amago(*amount, *drain, field, on_user)?,
        Effect::Leap | Effect::Dash { .. } => validate_move(e, field, on_user, ability, depth)?,
        Effect::If {
            marked,
            target_vida_at_most,
            user_adjacent_ally,
            consume,
            then,
        } => {
            if marked.is_none() && target_vida_at_most.is_none() && user_adjacent_ally.is_none() {
                return Err(problem(field, "an if needs at least one condition"));
            }
            if let Some(m) = marked {
                validate_mark_name(m, &format!("{field}.marked"))?;
            } else if *consume {
                return Err(problem(
                    format!("{field}.consume"),
                    "consumes the mark named by marked",
                ));
            }
            validate_list(then, &format!("{field}.then"), on_user, ability, depth)?;
        }
    }
    Ok(())
}

/// A Renown transfer (to one ally) or theft (from one enemy or a reaction's source).
fn validate_renown(
    op: RenownOp,
    amount: u8,
    field: &str,
    on_user: bool,
    ability: &Ability,
) -> Result<(), Problem> {
    if amount == 0 {
        return Err(problem(format!("{field}.amount"), "must be at least 1"));
    }
    let fits = match op {
        RenownOp::Transfer => matches!(ability.target, Target::Ally),
        RenownOp::Steal => matches!(
            ability.target,
            Target::Enemy | Target::Source | Target::Star
        ),
    };
    if on_user || !fits || ability.area.shape != AreaShape::Single {
        return Err(problem(
            format!("{field}.op"),
            "a transfer targets one ally, a theft one enemy (or a reaction's source)",
        ));
    }
    Ok(())
}

/// A change of Âmago; a drain takes it from another Star.
fn validate_amago(amount: i8, drain: bool, field: &str, on_user: bool) -> Result<(), Problem> {
    if amount == 0 {
        return Err(problem(format!("{field}.amount"), "must not be 0"));
    }
    if drain && (amount > 0 || on_user) {
        return Err(problem(
            format!("{field}.drain"),
            "a drain takes Âmago (amount < 0) from another Star",
        ));
    }
    Ok(())
}

/// A leap (the user to its empty target zone) or a dash (along a direction).
fn validate_move(
    e: &Effect,
    field: &str,
    on_user: bool,
    ability: &Ability,
    depth: usize,
) -> Result<(), Problem> {
    match e {
        Effect::Leap if !on_user || ability.target != Target::EmptyZone || depth != 1 => {
            return Err(problem(
                field,
                "a leap moves the user to its target: target \"empty_zone\", in effects",
            ));
        }
        Effect::Dash { distance, path } => {
            if ability.target != Target::Direction || depth != 1 {
                return Err(problem(
                    field,
                    "a dash runs along a direction: target \"direction\", in effects",
                ));
            }
            if *distance == 0 || *distance > MAX_REACH {
                return Err(problem(
                    format!("{field}.distance"),
                    format!("must be 1 to {MAX_REACH}"),
                ));
            }
            if !path.is_empty() {
                validate_list(path, &format!("{field}.path"), false, ability, depth)?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn validate_mark_name(m: &str, field: &str) -> Result<(), Problem> {
    if m.is_empty() || m.len() > 24 || !m.bytes().all(is_id_byte) {
        return Err(problem(
            field,
            "a mark name is 1 to 24 characters of a-z, 0-9 and _",
        ));
    }
    Ok(())
}
