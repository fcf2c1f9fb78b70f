//! The ability system: a small, data-driven vocabulary of triggers, conditions and effects
//! (rules SK-9.x). Cards carry lists of [`Ability`] values read from TOML as
//! [`AbilityData`] (the `effect` key is the tag of the effect kind); the rules code
//! asks questions of them ("does anything make this attacker use its DEF?") in
//! `rules.rs` / `combat.rs`.
//!
//! Every ability has one *subject* its conditions are checked against:
//! - combat triggers (`on_attack`, `on_defence`, `on_defeat`): the troop in combat — the card
//!   itself for a troop, any allied troop for a leader;
//! - `while_revealed` and `turn_start`: each troop the effect would reach (`to`);
//! - `activated` (leaders only): the chosen target.

// This module reads user input (saved states, notation, card files): no panicking access.
#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use super::content::Element;
use super::notation::Int;
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::fmt;

/// The two zones of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Zone {
    #[serde(alias = "ataque")]
    Attack,
    #[serde(alias = "defense", alias = "defesa")]
    Defence,
}

impl Zone {
    pub fn index(self) -> usize {
        match self {
            Zone::Attack => 0,
            Zone::Defence => 1,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Zone::Attack => "attack",
            Zone::Defence => "defence",
        }
    }
}

/// When an ability acts (SK-9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// Continuously, while the troop is face up (a leader: always).
    WhileRevealed,
    /// While the subject attacks.
    OnAttack,
    /// While the subject is attacked.
    #[serde(alias = "on_defense")]
    OnDefence,
    /// When the subject falls in combat.
    OnDefeat,
    /// At the start of the owner's turn.
    TurnStart,
    /// Step III of the owner's turn (leaders only).
    Activated,
}

impl Trigger {
    pub fn name(self) -> &'static str {
        match self {
            Trigger::WhileRevealed => "while_revealed",
            Trigger::OnAttack => "on_attack",
            Trigger::OnDefence => "on_defence",
            Trigger::OnDefeat => "on_defeat",
            Trigger::TurnStart => "turn_start",
            Trigger::Activated => "activated",
        }
    }
}

/// A row condition: a fixed row, the row of the ability owner's leader, or the source
/// card's own row (for a leader: the leader's row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowSel {
    Row(u8),
    Leader,
    Same,
}

/// An element condition: a fixed element or the element of the ability owner's leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemSel {
    Is(Element),
    Leader,
}

/// Conditions on the subject (SK-9.2). All present conditions must hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cond {
    pub zone: Option<Zone>,
    pub row: Option<RowSel>,
    pub element: Option<ElemSel>,
    /// The element of the subject's opponent in this combat (combat triggers only).
    pub foe_element: Option<ElemSel>,
}

/// Who an effect reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum To {
    /// The subject itself (`self` on a troop, `ally` on a leader's combat trigger or the
    /// chosen allied target of an activated ability).
    Subject,
    /// The subject's opponent in this combat, or the chosen enemy target of an activated
    /// ability.
    Foe,
    /// Every other allied troop (all allied troops, for a leader).
    Allies,
    /// Every opposing troop.
    Enemies,
}

impl To {
    pub fn name(self, leader: bool) -> &'static str {
        match (self, leader) {
            (To::Subject, false) => "self",
            (To::Subject, true) => "ally",
            (To::Foe, _) => "foe",
            (To::Allies, _) => "allies",
            (To::Enemies, _) => "enemies",
        }
    }
}

/// What an ability does (SK-9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Add to ATK and/or DEF (a combat value uses the stat in use).
    Stat { atk: i8, def: i8 },
    /// The subject may attack any opposing defence-zone troop.
    AttackAny,
    /// Whoever attacks the subject uses its DEF value as its attack value.
    UseDefence,
    /// A defeat of the subject becomes a tie: the winner is eliminated too.
    Tie,
    /// A falling subject rolls a die and survives on `roll` or more.
    Survive { roll: u8 },
    /// Permanent counters on the subject (revealed troops only), capped at `max`.
    Grow { atk: i8, def: i8, max: u8 },
    /// Turn the chosen face-down enemy troop face up.
    Reveal,
}

impl Effect {
    pub const STAT: u16 = 1;
    pub const ATTACK_ANY: u16 = 2;
    pub const USE_DEFENCE: u16 = 4;
    pub const TIE: u16 = 8;
    pub const SURVIVE: u16 = 16;
    pub const GROW: u16 = 32;
    pub const REVEAL: u16 = 64;

    /// One bit per kind of effect, for quick filtering.
    pub fn bit(self) -> u16 {
        match self {
            Effect::Stat { .. } => Effect::STAT,
            Effect::AttackAny => Effect::ATTACK_ANY,
            Effect::UseDefence => Effect::USE_DEFENCE,
            Effect::Tie => Effect::TIE,
            Effect::Survive { .. } => Effect::SURVIVE,
            Effect::Grow { .. } => Effect::GROW,
            Effect::Reveal => Effect::REVEAL,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Effect::Stat { .. } => "stat",
            Effect::AttackAny => "attack_any",
            Effect::UseDefence => "use_defence",
            Effect::Tie => "tie",
            Effect::Survive { .. } => "survive",
            Effect::Grow { .. } => "grow",
            Effect::Reveal => "reveal",
        }
    }
}

/// One ability line of a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ability {
    pub trigger: Trigger,
    pub cond: Cond,
    pub to: To,
    pub effect: Effect,
    /// Activated abilities: how many times per game (None: once every turn, no limit).
    pub uses: Option<u8>,
}

/// The kind of an effect: the `effect` key of an ability table, the tag that says which
/// parameters (`atk`, `def`, `roll`, `max`) the ability takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    Stat,
    AttackAny,
    #[serde(alias = "use_defense")]
    UseDefence,
    Tie,
    Survive,
    Grow,
    Reveal,
}

/// `row = 1 | 2 | 3 | "leader" | "same"`.
impl<'de> Deserialize<'de> for RowSel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = RowSel;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("1, 2, 3, \"leader\" or \"same\"")
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> std::result::Result<RowSel, E> {
                match n {
                    1..=3 => Ok(RowSel::Row(n as u8)),
                    _ => Err(E::invalid_value(de::Unexpected::Signed(n), &self)),
                }
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> std::result::Result<RowSel, E> {
                self.visit_i64(i64::try_from(n).unwrap_or(i64::MAX))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> std::result::Result<RowSel, E> {
                match s {
                    "leader" => Ok(RowSel::Leader),
                    "same" => Ok(RowSel::Same),
                    _ => Err(E::invalid_value(de::Unexpected::Other("that text"), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// `element = "fire" | ... | "leader"`.
impl<'de> Deserialize<'de> for ElemSel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s == "leader" {
            return Ok(ElemSel::Leader);
        }
        Element::parse(&s).map(ElemSel::Is).ok_or_else(|| {
            de::Error::custom(format!(
                "unknown element {:?}; expected fire, water, wind, earth or leader",
                s.chars().take(40).collect::<String>()
            ))
        })
    }
}

/// One `[[troop.ability]]` / `[[leader.ability]]` table as written (`docs/strifull-cards.md`);
/// [`AbilityData::into_ability`] checks that its parts fit together.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityData {
    when: Trigger,
    effect: EffectKind,
    #[serde(default)]
    to: Option<String>,
    #[serde(default)]
    zone: Option<Zone>,
    #[serde(default)]
    row: Option<RowSel>,
    #[serde(default)]
    element: Option<ElemSel>,
    #[serde(default)]
    foe_element: Option<ElemSel>,
    #[serde(default)]
    atk: Option<Int<-10, 10>>,
    #[serde(default)]
    def: Option<Int<-10, 10>>,
    #[serde(default)]
    roll: Option<Int<2, 6>>,
    #[serde(default)]
    max: Option<Int<1, 10>>,
    #[serde(default)]
    uses: Option<Int<1, 99>>,
}

/// What is wrong with an ability: the field and why.
pub type FieldError = (&'static str, String);

fn field_err<T>(field: &'static str, why: impl Into<String>) -> std::result::Result<T, FieldError> {
    Err((field, why.into()))
}

impl AbilityData {
    /// The ability, if its trigger, effect, target and conditions fit together (the table
    /// in `docs/strifull-cards.md`); else the field at fault and why.
    pub fn into_ability(self, leader: bool) -> std::result::Result<Ability, FieldError> {
        let trigger = self.when;
        if trigger == Trigger::Activated && !leader {
            return field_err(
                "when",
                "only leaders have activated abilities (turn step III)",
            );
        }
        let cond = self.conditions()?;
        let effect = self.effect()?;
        let to = self.target(leader)?;
        match allowed_targets(trigger, effect, leader) {
            None => {
                return field_err(
                    "effect",
                    format!(
                        "effect {:?} cannot be used with trigger {:?} (see the table in \
                         docs/strifull-cards.md)",
                        effect.name(),
                        trigger.name()
                    ),
                )
            }
            Some(allowed) if !allowed.contains(&to) => {
                let names: Vec<&str> = allowed.iter().map(|t| t.name(leader)).collect();
                return field_err(
                    "to",
                    format!(
                        "{:?} with {:?} reaches {}, not {:?}",
                        effect.name(),
                        trigger.name(),
                        names.join(" or "),
                        to.name(leader)
                    ),
                );
            }
            Some(_) => {}
        }
        if matches!(effect, Effect::AttackAny) && cond.foe_element.is_some() {
            return field_err(
                "foe_element",
                "attack_any is decided before the target is chosen, so it cannot depend on it",
            );
        }
        Ok(Ability {
            trigger,
            cond,
            to,
            effect,
            uses: self.uses.map(Int::u8),
        })
    }

    /// The conditions on the subject, where the trigger has what they ask about.
    fn conditions(&self) -> std::result::Result<Cond, FieldError> {
        let trigger = self.when;
        let combat = matches!(
            trigger,
            Trigger::OnAttack | Trigger::OnDefence | Trigger::OnDefeat
        );
        if self.foe_element.is_some() && !combat && trigger != Trigger::WhileRevealed {
            return field_err(
                "foe_element",
                "only combat triggers (on_attack, on_defence, on_defeat) and while_revealed \
                 effects have a foe",
            );
        }
        if trigger == Trigger::Activated && (self.element.is_some() || self.foe_element.is_some()) {
            return field_err(
                "element",
                "an activated ability's target may only be restricted by zone and row: the \
                 element of a face-down target is hidden",
            );
        }
        Ok(Cond {
            zone: self.zone,
            row: self.row,
            element: self.element,
            foe_element: self.foe_element,
        })
    }

    /// The effect from its kind (the `effect` tag) and its parameters; a parameter the kind
    /// does not use is an error.
    fn effect(&self) -> std::result::Result<Effect, FieldError> {
        let atk = self.atk.map_or(0, Int::i8);
        let def = self.def.map_or(0, Int::i8);
        let effect = match self.effect {
            EffectKind::Stat => Effect::Stat { atk, def },
            EffectKind::AttackAny => Effect::AttackAny,
            EffectKind::UseDefence => Effect::UseDefence,
            EffectKind::Tie => Effect::Tie,
            EffectKind::Survive => match self.roll {
                Some(roll) => Effect::Survive { roll: roll.u8() },
                None => {
                    return field_err("roll", "missing: the lowest die face (2-6) that survives")
                }
            },
            EffectKind::Grow => match self.max {
                Some(max) => Effect::Grow {
                    atk,
                    def,
                    max: max.u8(),
                },
                None => return field_err("max", "missing: the cap (1-10) on the counters"),
            },
            EffectKind::Reveal => Effect::Reveal,
        };
        let unused = |field: &'static str, present: bool| -> std::result::Result<(), FieldError> {
            if present {
                field_err(field, format!("not used by effect {:?}", effect.name()))
            } else {
                Ok(())
            }
        };
        match effect {
            Effect::Stat { atk, def } | Effect::Grow { atk, def, .. } => {
                if atk == 0 && def == 0 {
                    return field_err("atk", "a stat or grow effect needs a non-zero atk or def");
                }
            }
            _ => {
                unused("atk", self.atk.is_some())?;
                unused("def", self.def.is_some())?;
            }
        }
        unused(
            "roll",
            self.roll.is_some() && !matches!(effect, Effect::Survive { .. }),
        )?;
        unused(
            "max",
            self.max.is_some() && !matches!(effect, Effect::Grow { .. }),
        )?;
        unused(
            "uses",
            self.uses.is_some() && self.when != Trigger::Activated,
        )?;
        Ok(effect)
    }

    /// Who the effect reaches: `to`, or the trigger's default.
    fn target(&self, leader: bool) -> std::result::Result<To, FieldError> {
        let trigger = self.when;
        Ok(match self.to.as_deref() {
            None => {
                if trigger == Trigger::Activated {
                    return field_err(
                        "to",
                        "missing: an activated ability targets a \"foe\" or an \"ally\"",
                    );
                }
                match (trigger, leader) {
                    (Trigger::WhileRevealed | Trigger::TurnStart, true) => To::Allies,
                    _ => To::Subject,
                }
            }
            Some("self") if !leader => To::Subject,
            Some("ally") if leader && trigger != Trigger::WhileRevealed => To::Subject,
            Some("foe") => To::Foe,
            Some("allies") => To::Allies,
            Some("enemies") => To::Enemies,
            Some(s) => {
                return field_err(
                    "to",
                    format!(
                        "{:?} is not a target here; {} abilities name self, foe, allies or \
                         enemies, leader abilities ally, foe, allies or enemies",
                        s.chars().take(40).collect::<String>(),
                        if leader { "leader" } else { "troop" }
                    ),
                )
            }
        })
    }
}

/// Which effects each trigger allows, and whom they may reach (`docs/strifull-cards.md`);
/// None: the effect does not go with the trigger.
fn allowed_targets(trigger: Trigger, effect: Effect, leader: bool) -> Option<&'static [To]> {
    Some(match (trigger, effect) {
        (Trigger::WhileRevealed, Effect::Stat { .. }) => {
            if leader {
                &[To::Allies, To::Enemies]
            } else {
                &[To::Subject, To::Allies, To::Enemies]
            }
        }
        (Trigger::WhileRevealed, Effect::AttackAny | Effect::UseDefence) => {
            if leader {
                &[To::Allies]
            } else {
                &[To::Subject, To::Allies]
            }
        }
        (Trigger::OnAttack, Effect::Stat { .. }) | (Trigger::OnDefence, Effect::Stat { .. }) => {
            &[To::Subject, To::Foe]
        }
        (Trigger::OnAttack, Effect::AttackAny) => &[To::Subject],
        (Trigger::OnDefence, Effect::UseDefence) => &[To::Subject],
        (Trigger::OnDefeat, Effect::Tie | Effect::Survive { .. }) => &[To::Subject],
        (Trigger::TurnStart, Effect::Grow { .. }) => {
            if leader {
                &[To::Allies]
            } else {
                &[To::Subject, To::Allies]
            }
        }
        (Trigger::Activated, Effect::Reveal) => &[To::Foe],
        (Trigger::Activated, Effect::Stat { .. }) => &[To::Foe, To::Subject],
        _ => return None,
    })
}

impl Ability {
    /// The ability in the TOML format's terms (`docs/strifull-cards.md`), as JSON.
    pub fn to_json(&self, leader: bool) -> serde_json::Value {
        use serde_json::{json, Value};
        let mut m = serde_json::Map::new();
        m.insert("when".into(), json!(self.trigger.name()));
        m.insert("effect".into(), json!(self.effect.name()));
        m.insert("to".into(), json!(self.to.name(leader)));
        if let Some(z) = self.cond.zone {
            m.insert("zone".into(), json!(z.name()));
        }
        match self.cond.row {
            Some(RowSel::Row(r)) => m.insert("row".into(), json!(r)),
            Some(RowSel::Leader) => m.insert("row".into(), json!("leader")),
            Some(RowSel::Same) => m.insert("row".into(), json!("same")),
            None => None,
        };
        let elem = |e: ElemSel| -> Value {
            match e {
                ElemSel::Is(x) => json!(x.name()),
                ElemSel::Leader => json!("leader"),
            }
        };
        if let Some(e) = self.cond.element {
            m.insert("element".into(), elem(e));
        }
        if let Some(e) = self.cond.foe_element {
            m.insert("foe_element".into(), elem(e));
        }
        match self.effect {
            Effect::Stat { atk, def } => {
                m.insert("atk".into(), json!(atk));
                m.insert("def".into(), json!(def));
            }
            Effect::Grow { atk, def, max } => {
                m.insert("atk".into(), json!(atk));
                m.insert("def".into(), json!(def));
                m.insert("max".into(), json!(max));
            }
            Effect::Survive { roll } => {
                m.insert("roll".into(), json!(roll));
            }
            _ => {}
        }
        if let Some(u) = self.uses {
            m.insert("uses".into(), json!(u));
        }
        m.insert("summary".into(), json!(self.describe(leader)));
        Value::Object(m)
    }

    /// A short English description, for docs and renders.
    pub fn describe(&self, leader: bool) -> String {
        let mut s = format!("{}: {}", self.trigger.name(), self.effect.name());
        match self.effect {
            Effect::Stat { atk, def } => s += &format!(" atk{atk:+} def{def:+}"),
            Effect::Grow { atk, def, max } => s += &format!(" atk{atk:+} def{def:+} max {max}"),
            Effect::Survive { roll } => s += &format!(" on {roll}+"),
            _ => {}
        }
        s += &format!(" to {}", self.to.name(leader));
        if let Some(z) = self.cond.zone {
            s += &format!(", zone {}", z.name());
        }
        match self.cond.row {
            Some(RowSel::Row(r)) => s += &format!(", row {r}"),
            Some(RowSel::Leader) => s += ", leader's row",
            Some(RowSel::Same) => s += ", same row",
            None => {}
        }
        match self.cond.element {
            Some(ElemSel::Is(e)) => s += &format!(", element {}", e.name()),
            Some(ElemSel::Leader) => s += ", leader's element",
            None => {}
        }
        match self.cond.foe_element {
            Some(ElemSel::Is(e)) => s += &format!(", foe {}", e.name()),
            Some(ElemSel::Leader) => s += ", foe of the leader's element",
            None => {}
        }
        if let Some(u) = self.uses {
            s += &format!(", {u} uses");
        }
        s
    }
}

/// The kinds of effect in `abilities` (bits of [`Effect::bit`]): all of them, and those
/// that reach other troops (`to = "allies"` / `"enemies"`).
pub fn kinds(abilities: &[Ability]) -> (u16, u16) {
    let mut all = 0;
    let mut reach = 0;
    for ab in abilities {
        all |= ab.effect.bit();
        if matches!(ab.to, To::Allies | To::Enemies) {
            reach |= ab.effect.bit();
        }
    }
    (all, reach)
}
