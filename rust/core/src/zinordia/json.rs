//! The saved-state format (`docs/zinordia.md`, "State format") through serde: plain data
//! structs that mirror the JSON (`to_json`, and `view(p)` with what `p` may not see as
//! `null`), decoded with path-reporting errors (`$.stars[3].effects[0].turns`), then one
//! validation step that resolves Stars and zones against the content the options name and
//! builds the state (shakmaty's `Setup` → `Position`).
//!
//! Content identity: the options carry the content (the reference set, or a user's roster,
//! maps and modes as TOML text), so a saved state is self-contained and loading one never
//! opens a file.

#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::ability::{Effect, Immunity, Kind, Root, SilenceScope, Stat, Trigger, MAX_DEPTH, STATS};
use super::combat::{AttackRoll, Defence};
use super::content::ABILITIES;
use super::effects::{Applied, Status};
use super::notation::Action;
use super::options::{Options, Selection};
use super::resolution::{Resolution, Step};
use super::state::{Declared, Offer, Phase, Play, Resume, Shared, StarState, Zinordia};
use crate::error::{clip, decode_state, Error, Result};
use crate::game::Player;
use crate::hex::Hex;
use crate::rng::GameRng;

/// Largest Renown a Star may hold in a saved state (far above any target).
const MAX_RENOWN: u16 = 1000;
/// Longest duration an effect may have left.
const MAX_TURNS: u8 = 100;
/// Largest current Armadura (printed at most 20, plus buffs).
const MAX_ARMADURA: u16 = 1000;

// ---- the plain data -------------------------------------------------------------------------

/// A whole state or a view. Keys that may be `null` must still be present (`nullable`).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateData {
    /// The second readings only where chosen (`options::serialize_saved`).
    #[serde(serialize_with = "super::options::serialize_saved")]
    options: Options,
    /// The dice: `null` in every view (future chance is never visible).
    #[serde(deserialize_with = "nullable")]
    rng: Option<GameRng>,
    phase: PhaseName,
    /// Each player's picks in pick order, by Star id; an unrevealed secret pick is `null`
    /// in the views of the other team's players.
    picks: Vec<Vec<Option<String>>>,
    /// Players in turn order (empty during selection).
    order: Vec<u8>,
    /// Each initiative roll: `[side, die]` pairs (a side is a player, or a team in 2 v 2).
    rolls: Vec<Vec<[u8; 2]>>,
    /// Star slots `p * stars_per_player + i` (empty during selection).
    stars: Vec<StarData>,
    /// Zones holding a Renown marker.
    markers: Vec<Zone>,
    round: u16,
    /// Index into `order` of the player whose turn it is.
    turn: u8,
    #[serde(deserialize_with = "nullable")]
    play: Option<PlayData>,
    /// Open reaction windows in the order they are asked (ZN-9.4): the first decides now.
    offers: Vec<OfferData>,
    /// What follows once every window is closed.
    resume: ResumeData,
    #[serde(deserialize_with = "nullable")]
    last_roll: Option<RollData>,
    /// The winning team once the game is over (`null`: running, or a draw).
    #[serde(deserialize_with = "nullable")]
    winner: Option<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum PhaseName {
    Select,
    Place,
    Main,
    Over,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StarData {
    /// The Star's roster id (the owner's pick for this slot).
    star: String,
    #[serde(deserialize_with = "nullable")]
    zone: Option<Zone>,
    vida: u16,
    amago: u16,
    armadura: u16,
    renown: u16,
    defeated: bool,
    played: bool,
    effects: Vec<EffectData>,
    /// Activations of each of its four abilities this round (ZN-10.6).
    uses: [u8; ABILITIES],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EffectData {
    status: StatusData,
    /// The player whose turns count it down.
    applier: u8,
    /// The Star slot that applied it.
    by: u16,
    /// Turns left; `null`: until the end of the current turn.
    #[serde(deserialize_with = "nullable")]
    turns: Option<u8>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum StatusData {
    Stat {
        stat: String,
        amount: i8,
        stacks: bool,
    },
    Mark {
        mark: String,
    },
    Silence {
        scope: String,
        passives: bool,
    },
    Immune {
        class: String,
    },
    Dot {
        amount: u16,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayData {
    /// The playing Star's slot.
    star: u16,
    moved: u16,
    activated: bool,
    /// Activations in this play (an ultra-rapid ability is free only as the first).
    activations: u8,
}

/// A reaction window: the Star asked, its trigger (a `Trigger` name of the roster format)
/// and the Star that caused it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct OfferData {
    star: u16,
    trigger: String,
    #[serde(deserialize_with = "nullable")]
    source: Option<u16>,
}

/// `{"kind": "main"}`, `{"kind": "end_turn"}`, a declared activation waiting for its
/// `targeted` reactions: `{"kind": "activation", "star", "ability", "target"}`, or the rest
/// of an ability's resolution suspended at a reaction window (`reactions_interrupt`,
/// ZN-9.5): `{"kind": "resolution", "star", "ability", "target", "steps"}`.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum ResumeData {
    Main,
    EndTurn,
    Activation {
        star: u16,
        ability: u8,
        target: Zone,
    },
    Resolution {
        /// The user's slot.
        star: u16,
        ability: u8,
        #[serde(deserialize_with = "nullable")]
        target: Option<Zone>,
        /// The effect lists still to apply, the first to run first.
        steps: Vec<StepData>,
    },
}

/// One effect list still to apply: on Star `star`, the ability's list `list` (`effects`,
/// `on_miss`, `self_effects`), then down `path` (indices of effects whose nested list is
/// taken); `next` effect next, `hits` instances of it already dealt.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StepData {
    star: u16,
    list: String,
    path: Vec<u8>,
    next: u8,
    hits: u8,
}

/// Most steps a suspended resolution may hold (far above what any ability leaves).
const MAX_STEPS: usize = 256;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RollData {
    dice: [u8; 2],
    total: i32,
    defences: Vec<DefenceData>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DefenceData {
    star: u16,
    die: u8,
    total: i32,
    hit: bool,
}

/// A key that must be present but may be `null` (serde would take a missing one as `null`).
fn nullable<'de, D, T>(d: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d)
}

/// A zone written `q,r`, as in the notation.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
struct Zone(Hex);

impl TryFrom<String> for Zone {
    type Error = String;
    fn try_from(text: String) -> std::result::Result<Zone, String> {
        let parsed = text.split_once(',').and_then(|(q, r)| {
            let q: i32 = q.parse().ok()?;
            let r: i32 = r.parse().ok()?;
            // Far beyond any map of 64 zones; keeps coordinates arithmetic-safe.
            (q.abs() <= 1000 && r.abs() <= 1000).then(|| Hex::new(q, r))
        });
        parsed
            .map(Zone)
            .ok_or_else(|| format!("expected a zone q,r, found {:?}", clip(&text)))
    }
}

impl From<Zone> for String {
    fn from(z: Zone) -> String {
        format!("{},{}", z.0.x, z.0.y)
    }
}

// ---- names of the status vocabulary -----------------------------------------------------------

const SCOPES: [(SilenceScope, &str); 4] = [
    (SilenceScope::All, "all"),
    (SilenceScope::Attacks, "attacks"),
    (SilenceScope::Instants, "instants"),
    (SilenceScope::Reactions, "reactions"),
];

const IMMUNITIES: [(Immunity, &str); 6] = [
    (Immunity::Damage, "damage"),
    (Immunity::ForcedMove, "forced_move"),
    (Immunity::Debuff, "debuff"),
    (Immunity::Mark, "mark"),
    (Immunity::Silence, "silence"),
    (Immunity::AmagoLoss, "amago_loss"),
];

fn name_of<T: PartialEq + Copy>(table: &[(T, &'static str)], v: T) -> &'static str {
    table.iter().find(|(x, _)| *x == v).map_or("?", |(_, n)| *n)
}

fn from_name<T: Copy>(table: &[(T, &'static str)], name: &str, path: &str) -> Result<T> {
    table
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(x, _)| *x)
        .ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|(_, n)| *n).collect();
            Error::state(
                path,
                format!(
                    "expected one of {}, found {:?}",
                    names.join(", "),
                    clip(name)
                ),
            )
        })
}

fn stat_table() -> [(Stat, &'static str); 6] {
    STATS.map(|s| (s, s.name()))
}

pub(super) fn status_name(s: &Status) -> String {
    match s {
        Status::Stat { stat, amount, .. } => format!("{}{:+}", stat.name(), amount),
        Status::Mark(m) => format!("mark {m}"),
        Status::Silence { scope, .. } => format!("silenced ({})", name_of(&SCOPES, *scope)),
        Status::Immune(c) => format!("immune to {}", name_of(&IMMUNITIES, *c)),
        Status::Dot { amount } => format!("{amount} damage each turn"),
    }
}

// ---- writing ----------------------------------------------------------------------------------

impl Zinordia {
    /// The state as JSON, with what `viewer` may not see as `null` (`None`: everything).
    pub(super) fn json_as(&self, viewer: Option<Player>) -> Value {
        serde_json::to_value(self.data(viewer)).unwrap_or(Value::Null)
    }

    /// Whether `viewer` sees player `owner`'s picks now: always after the reveal, in a
    /// draft, and for one's own team (partners must not pick the same Star, ZN-1.2).
    pub(super) fn sees_picks(&self, viewer: Option<Player>, owner: Player) -> bool {
        let sh = &self.shared;
        match viewer {
            None => true,
            Some(v) => {
                !matches!(self.phase, Phase::Select { .. })
                    || self.options().selection == Selection::Draft
                    || sh.team(v) == sh.team(owner)
                    // Picking again after the reveal (ZN-1.2, unique_stars = "game").
                    || self.repick().is_some()
            }
        }
    }

    fn data(&self, viewer: Option<Player>) -> StateData {
        let sh = &self.shared;
        let star_id = |r: usize| sh.content.stars.get(r).map(|s| s.id.clone());
        let picks = self
            .picks
            .iter()
            .enumerate()
            .map(|(o, ps)| {
                let shown = self.sees_picks(viewer, o);
                ps.iter()
                    .map(|&r| if shown { star_id(r) } else { None })
                    .collect()
            })
            .collect();
        let stars = self
            .stars
            .iter()
            .map(|st| StarData {
                star: star_id(st.roster).unwrap_or_default(),
                zone: st.zone.map(Zone),
                vida: st.vida,
                amago: st.amago,
                armadura: st.armadura,
                renown: st.renown,
                defeated: st.defeated,
                played: st.played,
                effects: st.effects.iter().map(effect_data).collect(),
                uses: st.uses,
            })
            .collect();
        StateData {
            options: self.options().clone(),
            rng: viewer.is_none().then(|| self.rng.clone()),
            phase: match self.phase {
                Phase::Select { .. } => PhaseName::Select,
                Phase::Place { .. } => PhaseName::Place,
                Phase::Main => PhaseName::Main,
                Phase::Over => PhaseName::Over,
            },
            picks,
            order: self.order.iter().map(|&p| p as u8).collect(),
            rolls: self
                .rolls
                .iter()
                .map(|r| r.iter().map(|&(s, d)| [s as u8, d]).collect())
                .collect(),
            stars,
            markers: self.markers.iter().map(|&h| Zone(h)).collect(),
            round: self.round,
            turn: self.turn as u8,
            play: self.play.map(|p| PlayData {
                star: p.star as u16,
                moved: p.moved,
                activated: p.activated,
                activations: p.activations,
            }),
            offers: self
                .offers
                .iter()
                .map(|o| OfferData {
                    star: o.star as u16,
                    trigger: o.trigger.name().into(),
                    source: o.source.map(|x| x as u16),
                })
                .collect(),
            resume: match &self.resume {
                Resume::Main => ResumeData::Main,
                Resume::EndTurn => ResumeData::EndTurn,
                Resume::Activation(d) => ResumeData::Activation {
                    star: d.star as u16,
                    ability: d.ability,
                    target: Zone(d.target),
                },
                Resume::Resolution(r) => ResumeData::Resolution {
                    star: r.user as u16,
                    ability: r.ability,
                    target: r.target.map(Zone),
                    steps: r
                        .steps
                        .iter()
                        .rev()
                        .map(|st| StepData {
                            star: st.star as u16,
                            list: st.root.name().into(),
                            path: st.path().to_vec(),
                            next: st.next,
                            hits: st.hits,
                        })
                        .collect(),
                },
            },
            last_roll: self.last_roll.as_ref().map(|r| RollData {
                dice: r.dice,
                total: r.total,
                defences: r
                    .defences
                    .iter()
                    .map(|d| DefenceData {
                        star: d.star as u16,
                        die: d.die,
                        total: d.total,
                        hit: d.hit,
                    })
                    .collect(),
            }),
            winner: if self.phase == Phase::Over {
                self.winner.map(|t| t as u8)
            } else {
                None
            },
        }
    }

    /// A structured description of an action (`Game::action_json`).
    pub(super) fn action_value(&self, a: Action) -> Value {
        let sh = &self.shared;
        let zone = |z: u8| {
            sh.zones
                .get(usize::from(z))
                .map_or(Value::Null, |h| json!([h.x, h.y]))
        };
        match a {
            Action::Pick(s) => json!({
                "kind": "pick",
                "star": sh.content.stars.get(usize::from(s)).map(|s| s.id.clone()),
            }),
            Action::Place { slot, zone: z } => {
                json!({"kind": "place", "slot": u16::from(slot) + 1, "zone": zone(z)})
            }
            Action::Play(slot) => json!({"kind": "play", "slot": u16::from(slot) + 1}),
            Action::Move(z) => json!({"kind": "move", "zone": zone(z)}),
            Action::Activate {
                ability,
                target,
                alt,
            } => {
                let star = self.play.map(|p| p.star);
                json!({
                    "kind": "use",
                    "star": star.map(|s| s % sh.per_player + 1),
                    "ability": self.ability_id(star, ability),
                    "zone": zone(target),
                    "alt": alt,
                })
            }
            Action::Collect => json!({"kind": "collect"}),
            Action::EndPlay => json!({"kind": "end_play"}),
            Action::EndTurn => json!({"kind": "end_turn"}),
            Action::React { ability, alt } => {
                let offer = self.offers.front();
                let star = offer.map(|o| o.star);
                json!({
                    "kind": "react",
                    "player": star.map(|s| sh.owner(s)),
                    "star": star.map(|s| s % sh.per_player + 1),
                    "ability": self.ability_id(star, ability),
                    "trigger": offer.map(|o| o.trigger.name()),
                    "alt": alt,
                })
            }
            Action::Decline => json!({"kind": "decline"}),
        }
    }

    /// An ability's id on the Star in slot `star`, else its number on the sheet (1 to 4).
    fn ability_id(&self, star: Option<usize>, i: u8) -> Value {
        match star.and_then(|s| self.ability(s, i)) {
            Some(ab) => json!(ab.id),
            None => json!(u16::from(i) + 1),
        }
    }
}

fn effect_data(a: &Applied) -> EffectData {
    let status = match &a.status {
        Status::Stat {
            stat,
            amount,
            stacks,
        } => StatusData::Stat {
            stat: stat.name().into(),
            amount: *amount,
            stacks: *stacks,
        },
        Status::Mark(m) => StatusData::Mark { mark: m.clone() },
        Status::Silence { scope, passives } => StatusData::Silence {
            scope: name_of(&SCOPES, *scope).into(),
            passives: *passives,
        },
        Status::Immune(c) => StatusData::Immune {
            class: name_of(&IMMUNITIES, *c).into(),
        },
        Status::Dot { amount } => StatusData::Dot { amount: *amount },
    };
    EffectData {
        status,
        applier: a.applier as u8,
        by: a.by as u16,
        turns: a.turns,
    }
}

// ---- reading ----------------------------------------------------------------------------------

impl Zinordia {
    /// Decode a saved state, then validate it into a state (the one validation step).
    pub(super) fn parse_json(value: &Value) -> Result<Zinordia> {
        let data: StateData = decode_state(value)?;
        Zinordia::from_data(data)
    }

    fn from_data(data: StateData) -> Result<Zinordia> {
        let content = data
            .options
            .content()
            .map_err(|e| Error::state("$.options", e.to_string()))?;
        // A fresh game on these options gives the shared part and checks the options.
        let mut g = Zinordia::with_content(0, &data.options, content)
            .map_err(|e| Error::state("$.options", e.to_string()))?;
        let sh = Arc::clone(&g.shared);
        g.rng = data
            .rng
            .ok_or_else(|| Error::state("$.rng", "missing (null): a view cannot be loaded"))?;
        let selecting = data.phase == PhaseName::Select;
        let picks = read_picks(&sh, &data.picks, selecting)?;
        let done: usize = picks.iter().map(Vec::len).sum();
        let clash = Zinordia::first_clash(&sh, &picks);
        g.picks = Arc::new(picks);
        g.order = Arc::new(read_order(&sh, &data.order, selecting)?);
        g.rolls = Arc::new(read_rolls(&sh, &data.rolls, selecting)?);
        g.read_stars(data.stars, selecting)?;
        g.markers = Arc::new(read_markers(&sh, &data.markers)?);
        g.phase = g.read_phase(data.phase, clash, done)?;
        g.read_clock(data.round, data.turn)?;
        g.play = g.read_play(data.play)?;
        g.offers = g.read_offers(&data.offers)?;
        g.resume = g.read_resume(data.resume)?;
        g.last_roll = g.read_last_roll(data.last_roll)?;
        g.winner = match data.winner {
            Some(_) if g.phase != Phase::Over => {
                return Err(Error::state("$.winner", "null until the game is over"));
            }
            Some(t) if usize::from(t) >= sh.num_teams() => {
                return Err(Error::state(
                    "$.winner",
                    format!("expected a team 0..{}", sh.num_teams()),
                ));
            }
            w => w.map(usize::from),
        };
        Ok(g)
    }

    /// The Stars (`$.stars`) and the board they stand on, then the effects' appliers.
    fn read_stars(&mut self, data: Vec<StarData>, selecting: bool) -> Result<()> {
        let sh = Arc::clone(&self.shared);
        let (n, k) = (sh.players, sh.per_player);
        if data.len() != if selecting { 0 } else { n * k } {
            return Err(Error::state(
                "$.stars",
                "one entry per Star slot once selection ends, none before",
            ));
        }
        let mut stars = Vec::with_capacity(data.len());
        for (s, d) in data.into_iter().enumerate() {
            let roster = self
                .picks
                .get(s / k)
                .and_then(|l| l.get(s % k))
                .copied()
                .unwrap_or(0);
            stars.push(read_star(&sh, s, roster, d)?);
        }
        for (s, st) in stars.iter().enumerate() {
            if let Some(h) = st.zone {
                let path = format!("$.stars[{s}].zone");
                if sh.map.cost(h).is_none() {
                    return Err(Error::state(path, "not an open zone of the map"));
                }
                if self.board.occupant(h).is_some() {
                    return Err(Error::state(path, "a zone holds one Star (ZN-2.2)"));
                }
                let _ = self.board_mut().set_occupant(h, Some(s as u32));
            }
        }
        self.stars = stars;
        self.note_continuous();
        // ZN-5.7: the effects of a player who is out ended when it went out.
        for (s, st) in self.stars.iter().enumerate() {
            for (i, a) in st.effects.iter().enumerate() {
                if self
                    .stars_of(a.applier)
                    .all(|o| self.stars.get(o).is_some_and(|x| x.defeated))
                {
                    return Err(Error::state(
                        format!("$.stars[{s}].effects[{i}].applier"),
                        "the effects of a player who is out ended when it went out",
                    ));
                }
            }
        }
        Ok(())
    }

    /// The phase (`$.phase`) from how far selection and placement are.
    fn read_phase(
        &self,
        phase: PhaseName,
        clash: Option<(Player, usize)>,
        done: usize,
    ) -> Result<Phase> {
        let sh = &self.shared;
        let (n, k) = (sh.players, sh.per_player);
        let placed = self
            .stars
            .iter()
            .filter(|st| st.zone.is_some() || st.defeated)
            .count();
        Ok(match phase {
            PhaseName::Select => Phase::Select {
                player: match (clash, sh.options.selection) {
                    (Some((p, _)), _) => p,
                    (None, Selection::Secret) => done / k,
                    (None, Selection::Draft) => done % n,
                },
            },
            PhaseName::Place => {
                if placed >= n * k || self.stars.iter().any(|st| st.defeated) {
                    return Err(Error::state(
                        "$.phase",
                        "placement is over once every Star is placed",
                    ));
                }
                // Placement follows its order: the first `placed` steps are made.
                let order = self.placement_order();
                let mut made = vec![0usize; n];
                for p in order.iter().take(placed) {
                    if let Some(m) = made.get_mut(*p) {
                        *m += 1;
                    }
                }
                for p in 0..n {
                    let on = self
                        .stars_of(p)
                        .filter(|&s| self.stars.get(s).is_some_and(|st| st.zone.is_some()))
                        .count();
                    if made.get(p) != Some(&on) {
                        return Err(Error::state(
                            format!("$.stars[{}]", p * k),
                            "Stars placed out of the placement order",
                        ));
                    }
                }
                Phase::Place { step: placed }
            }
            PhaseName::Main => {
                if placed != n * k {
                    return Err(Error::state(
                        "$.stars",
                        "in the Main phase every Star is placed or out",
                    ));
                }
                Phase::Main
            }
            PhaseName::Over => Phase::Over,
        })
    }

    /// `$.round` and `$.turn`: 0 during setup, in range after.
    fn read_clock(&mut self, round: u16, turn: u8) -> Result<()> {
        let (n, max_rounds) = (self.shared.players, self.shared.options.max_rounds);
        let in_setup = matches!(self.phase, Phase::Select { .. } | Phase::Place { .. });
        if in_setup && (round != 0 || turn != 0) {
            return Err(Error::state("$.round", "round and turn are 0 during setup"));
        }
        if !in_setup && (round == 0 || round > max_rounds) {
            return Err(Error::state(
                "$.round",
                format!("expected 1..={max_rounds}"),
            ));
        }
        self.round = round;
        if !in_setup && usize::from(turn) >= n {
            return Err(Error::state("$.turn", format!("expected 0..{n}")));
        }
        self.turn = usize::from(turn);
        Ok(())
    }

    /// The play in progress (`$.play`).
    fn read_play(&self, play: Option<PlayData>) -> Result<Option<Play>> {
        let Some(p) = play else {
            return Ok(None);
        };
        let star = usize::from(p.star);
        if self.phase != Phase::Main
            || !self.stars_of(self.turn_player()).contains(&star)
            || !self.alive(star)
            || self.stars.get(star).is_some_and(|st| st.played)
        {
            return Err(Error::state(
                "$.play.star",
                "a play is made by a Star of the player whose turn it is, on the board, \
                 not yet played",
            ));
        }
        if p.moved > u16::from(u8::MAX) {
            return Err(Error::state("$.play.moved", "at most 255"));
        }
        Ok(Some(Play {
            star,
            moved: p.moved,
            activated: p.activated,
            activations: p.activations,
        }))
    }

    /// The open reaction windows (`$.offers`, ZN-9.4).
    fn read_offers(&self, data: &[OfferData]) -> Result<std::collections::VecDeque<Offer>> {
        let slots = self.stars.len();
        let mut offers = std::collections::VecDeque::with_capacity(data.len());
        for (i, o) in data.iter().enumerate() {
            let path = format!("$.offers[{i}]");
            if self.phase != Phase::Main {
                return Err(Error::state(
                    &path,
                    "reaction windows open only in the Main phase",
                ));
            }
            let star = usize::from(o.star);
            if !self.alive(star) {
                return Err(Error::state(
                    format!("{path}.star"),
                    "the Star asked must be on the board",
                ));
            }
            let trigger: Trigger = serde_json::from_value(Value::String(o.trigger.clone()))
                .map_err(|_| {
                    Error::state(
                        format!("{path}.trigger"),
                        format!("not a trigger: {:?}", clip(&o.trigger)),
                    )
                })?;
            let source = match o.source {
                Some(x) if usize::from(x) >= slots => {
                    return Err(Error::state(format!("{path}.source"), "no such Star slot"));
                }
                x => x.map(usize::from),
            };
            offers.push_back(Offer {
                star,
                trigger,
                source,
            });
        }
        Ok(offers)
    }

    /// What follows the reaction windows (`$.resume`); `read_offers` comes first.
    fn read_resume(&self, resume: ResumeData) -> Result<Resume> {
        let resume = match resume {
            ResumeData::Main => Resume::Main,
            ResumeData::EndTurn => Resume::EndTurn,
            ResumeData::Activation {
                star,
                ability,
                target,
            } => {
                let star = usize::from(star);
                if !self.alive(star) || usize::from(ability) >= ABILITIES {
                    return Err(Error::state(
                        "$.resume",
                        "a declared activation names a Star on the board and an ability 0..4",
                    ));
                }
                if !self.shared.map.contains(target.0) {
                    return Err(Error::state("$.resume.target", "not a zone of the map"));
                }
                Resume::Activation(Declared {
                    star,
                    ability,
                    target: target.0,
                })
            }
            ResumeData::Resolution {
                star,
                ability,
                target,
                steps,
            } => Resume::Resolution(Box::new(resolution(self, star, ability, target, &steps)?)),
        };
        if self.offers.is_empty() && resume != Resume::Main {
            return Err(Error::state(
                "$.resume",
                "\"main\" when no reaction window is open",
            ));
        }
        Ok(resume)
    }

    /// The last attack roll shown (`$.last_roll`).
    fn read_last_roll(&self, roll: Option<RollData>) -> Result<Option<AttackRoll>> {
        let Some(r) = roll else {
            return Ok(None);
        };
        let mut defences = Vec::with_capacity(r.defences.len());
        for (i, d) in r.defences.iter().enumerate() {
            if usize::from(d.star) >= self.stars.len() || !(1..=6).contains(&d.die) {
                return Err(Error::state(
                    format!("$.last_roll.defences[{i}]"),
                    "expected a Star slot and a die 1..6",
                ));
            }
            defences.push(Defence {
                star: usize::from(d.star),
                die: d.die,
                total: d.total,
                hit: d.hit,
            });
        }
        if r.dice.iter().any(|d| !(1..=6).contains(d)) {
            return Err(Error::state("$.last_roll.dice", "dice are 1..6"));
        }
        Ok(Some(AttackRoll {
            dice: r.dice,
            total: r.total,
            defences,
        }))
    }
}

/// The picks (`$.picks`, ZN-4.2): roster indices, checked against the selection order and
/// ZN-1.2's uniqueness.
fn read_picks(
    sh: &Shared,
    data: &[Vec<Option<String>>],
    selecting: bool,
) -> Result<Vec<Vec<usize>>> {
    let (n, k) = (sh.players, sh.per_player);
    if data.len() != n {
        return Err(Error::state(
            "$.picks",
            format!("expected one list per player ({n})"),
        ));
    }
    let mut picks = vec![Vec::new(); n];
    for (p, (list, out)) in data.iter().zip(picks.iter_mut()).enumerate() {
        if list.len() > k {
            return Err(Error::state(
                format!("$.picks[{p}]"),
                format!("a player picks {k} Stars"),
            ));
        }
        for (i, id) in list.iter().enumerate() {
            let path = format!("$.picks[{p}][{i}]");
            let id = id
                .as_deref()
                .ok_or_else(|| Error::state(&path, "missing (null): a view cannot be loaded"))?;
            let r = sh
                .content
                .star(id)
                .ok_or_else(|| Error::state(&path, "no Star with this id in the roster"))?;
            out.push(r);
        }
    }
    let done: usize = picks.iter().map(Vec::len).sum();
    // ZN-1.2, unique_stars = "game": a clash at the reveal is picked again.
    let clash = Zinordia::first_clash(sh, &picks);
    if selecting != (done < n * k || clash.is_some()) {
        return Err(Error::state(
            "$.picks",
            "every Star is picked exactly when selection is over, and one team only \
             fields a Star under unique_stars = \"game\"",
        ));
    }
    // Picks are made in a fixed order: seat after seat (secret) or round after round (draft).
    let expected = |p: usize| match sh.options.selection {
        Selection::Secret => done.saturating_sub(p * k).min(k),
        Selection::Draft => done / n + usize::from(p < done % n),
    };
    for (p, list) in picks.iter().enumerate() {
        if list.len() != expected(p) {
            return Err(Error::state(
                format!("$.picks[{p}]"),
                "picks out of the selection order",
            ));
        }
    }
    for (p, list) in picks.iter().enumerate() {
        for (i, r) in list.iter().enumerate() {
            let clash = (0..n).any(|o| {
                let counts = sh.team(o) == sh.team(p) || sh.options.selection == Selection::Draft;
                let before = picks.get(o).map_or(0, |l| if o == p { i } else { l.len() });
                counts
                    && picks
                        .get(o)
                        .is_some_and(|l| l.iter().take(before).any(|x| x == r))
            });
            if clash {
                return Err(Error::state(
                    format!("$.picks[{p}][{i}]"),
                    "this Star is picked twice in a team (ZN-1.2) or draft",
                ));
            }
        }
    }
    Ok(picks)
}

/// The initiative order (`$.order`, ZN-4.3): empty while selecting, then each player once,
/// teams alternating.
fn read_order(sh: &Shared, data: &[u8], selecting: bool) -> Result<Vec<Player>> {
    let n = sh.players;
    let order: Vec<usize> = data.iter().map(|&p| usize::from(p)).collect();
    let want = if selecting { 0 } else { n };
    let mut sorted = order.clone();
    sorted.sort_unstable();
    if sorted != (0..want).collect::<Vec<_>>() {
        return Err(Error::state(
            "$.order",
            if selecting {
                "empty until selection ends".to_string()
            } else {
                format!("expected each player 0..{n} once")
            },
        ));
    }
    if sh.mode().teams {
        let alternates = order
            .windows(2)
            .all(|w| matches!(w, [a, b] if sh.team(*a) != sh.team(*b)));
        if !alternates {
            return Err(Error::state("$.order", "teams alternate in turn order"));
        }
    }
    Ok(order)
}

/// The initiative rolls (`$.rolls`): `[side, die]` pairs, none while selecting.
fn read_rolls(
    sh: &Shared,
    data: &[Vec<[u8; 2]>],
    selecting: bool,
) -> Result<Vec<Vec<(usize, u8)>>> {
    let n = sh.players;
    let sides = sh.mode().num_teams(n).min(n);
    let mut rolls = Vec::with_capacity(data.len());
    for (i, r) in data.iter().enumerate() {
        let mut one = Vec::with_capacity(r.len());
        for (j, &[side, die]) in r.iter().enumerate() {
            if usize::from(side) >= sides || !(1..=6).contains(&die) {
                return Err(Error::state(
                    format!("$.rolls[{i}][{j}]"),
                    format!("expected [side 0..{sides}, die 1..6]"),
                ));
            }
            one.push((usize::from(side), die));
        }
        rolls.push(one);
    }
    if selecting && !rolls.is_empty() {
        return Err(Error::state("$.rolls", "empty until selection ends"));
    }
    Ok(rolls)
}

/// One Star slot `s` (`$.stars[s]`) holding the roster Star `roster`, checked against its
/// printed values; its zone is checked with the board.
fn read_star(sh: &Shared, s: usize, roster: usize, d: StarData) -> Result<StarState> {
    let n = sh.players;
    let k = sh.per_player;
    let path = |key: &str| format!("$.stars[{s}].{key}");
    let printed = sh
        .content
        .stars
        .get(roster)
        .ok_or_else(|| Error::state(path("star"), "no such Star"))?;
    if d.star != printed.id {
        return Err(Error::state(
            path("star"),
            "must be the owner's pick for this slot",
        ));
    }
    if d.vida > printed.vida {
        return Err(Error::state(
            path("vida"),
            format!("above the Star's Vida {}", printed.vida),
        ));
    }
    if d.amago > printed.amago {
        return Err(Error::state(
            path("amago"),
            format!("above the Star's Âmago {}", printed.amago),
        ));
    }
    if d.armadura > MAX_ARMADURA {
        return Err(Error::state(
            path("armadura"),
            format!("at most {MAX_ARMADURA}"),
        ));
    }
    if d.renown > MAX_RENOWN {
        return Err(Error::state(
            path("renown"),
            format!("at most {MAX_RENOWN}"),
        ));
    }
    if d.defeated != (d.vida == 0) {
        return Err(Error::state(
            path("defeated"),
            "a Star is defeated exactly when its Vida is 0",
        ));
    }
    if d.defeated && d.zone.is_some() {
        return Err(Error::state(
            path("zone"),
            "a defeated Star is off the board",
        ));
    }
    if d.defeated && !d.effects.is_empty() {
        return Err(Error::state(
            path("effects"),
            "a defeated Star's effects end with it",
        ));
    }
    let mut effects = Vec::with_capacity(d.effects.len());
    for (i, e) in d.effects.iter().enumerate() {
        let at = format!("$.stars[{s}].effects[{i}]");
        let a = applied(e, &sh.content, n, n * k, &at)?;
        // ZN-11.3: copies of one mark only where marks stack.
        let copy = matches!(a.status, Status::Mark(_))
            && effects.iter().any(|b: &Applied| b.status == a.status);
        if copy && !sh.options.marks_stack {
            return Err(Error::state(
                at,
                "the same mark twice on a Star (copies need marks_stack, ZN-11.3)",
            ));
        }
        effects.push(a);
    }
    if let Some(i) = d.uses.iter().position(|&u| u > super::ability::MAX_REPEAT) {
        return Err(Error::state(
            format!("$.stars[{s}].uses[{i}]"),
            format!("at most {} uses a round", super::ability::MAX_REPEAT),
        ));
    }
    Ok(StarState {
        uses: d.uses,
        roster,
        zone: d.zone.map(|z| z.0),
        vida: d.vida,
        amago: d.amago,
        armadura: d.armadura,
        renown: d.renown,
        defeated: d.defeated,
        played: d.played,
        effects,
        continuous_armadura: 0,
    })
}

/// The markers (`$.markers`): zones of the map, one per zone, at most the mode's count.
fn read_markers(sh: &Shared, data: &[Zone]) -> Result<Vec<Hex>> {
    let mut markers = Vec::with_capacity(data.len());
    for (i, m) in data.iter().enumerate() {
        if !sh.map.contains(m.0) || markers.contains(&m.0) {
            return Err(Error::state(
                format!("$.markers[{i}]"),
                "a marker lies on a zone of the map, one per zone",
            ));
        }
        markers.push(m.0);
    }
    if markers.len() > usize::from(sh.mode().markers) {
        return Err(Error::state(
            "$.markers",
            "more markers than the mode places",
        ));
    }
    Ok(markers)
}

/// A suspended resolution from its plain data (ZN-9.5): an attack or instant of a Star slot
/// (the user may have been defeated since), a zone of the map, and steps whose lists exist
/// in that ability, each with its next effect and the instances of it dealt in bounds.
fn resolution(
    g: &Zinordia,
    star: u16,
    ability: u8,
    target: Option<Zone>,
    steps: &[StepData],
) -> Result<Resolution> {
    let user = usize::from(star);
    let Some(ab) = g.stars.get(user).and_then(|_| g.ability(user, ability)) else {
        return Err(Error::state(
            "$.resume",
            "a suspended resolution names a Star slot and one of its abilities 0..4",
        ));
    };
    if !g.shared.options.reactions_interrupt {
        return Err(Error::state(
            "$.resume",
            "a resolution is suspended only with reactions_interrupt = true",
        ));
    }
    if !matches!(ab.kind, Kind::Attack | Kind::Instant) {
        return Err(Error::state(
            "$.resume.ability",
            "only an attack or an instant is suspended",
        ));
    }
    if target.is_some_and(|z| !g.shared.map.contains(z.0)) {
        return Err(Error::state("$.resume.target", "not a zone of the map"));
    }
    if steps.len() > MAX_STEPS {
        return Err(Error::state(
            "$.resume.steps",
            format!("at most {MAX_STEPS} steps"),
        ));
    }
    let mut out = Vec::with_capacity(steps.len());
    for (i, d) in steps.iter().enumerate() {
        let path = format!("$.resume.steps[{i}]");
        if usize::from(d.star) >= g.stars.len() {
            return Err(Error::state(format!("{path}.star"), "no such Star slot"));
        }
        let root = Root::ALL
            .into_iter()
            .find(|r| r.name() == d.list)
            .ok_or_else(|| {
                Error::state(
                    format!("{path}.list"),
                    format!(
                        "expected effects, on_miss or self_effects, found {:?}",
                        clip(&d.list)
                    ),
                )
            })?;
        let list = (d.path.len() < MAX_DEPTH)
            .then(|| ab.list(root, &d.path))
            .flatten()
            .ok_or_else(|| {
                Error::state(
                    format!("{path}.path"),
                    "not a nested effect list of this ability",
                )
            })?;
        if usize::from(d.next) > list.len() {
            return Err(Error::state(
                format!("{path}.next"),
                format!("the list has {} effects", list.len()),
            ));
        }
        let most = match list.get(usize::from(d.next)) {
            Some(Effect::Damage { hits, .. }) => hits.saturating_sub(1),
            _ => 0,
        };
        if d.hits > most {
            return Err(Error::state(
                format!("{path}.hits"),
                format!("at most {most} instances of this effect dealt and not finished"),
            ));
        }
        let mut step = Step::new(usize::from(d.star), root);
        for (slot, &k) in step.path.iter_mut().zip(&d.path) {
            *slot = k;
        }
        step.depth = d.path.len() as u8;
        step.next = d.next;
        step.hits = d.hits;
        out.push(step);
    }
    // Saved first-to-run first; held as a stack, the first on top.
    out.reverse();
    Ok(Resolution {
        user,
        ability,
        target: target.map(|z| z.0),
        steps: out,
    })
}

/// A lasting effect from its plain data.
fn applied(
    e: &EffectData,
    content: &super::content::Content,
    players: usize,
    slots: usize,
    path: &str,
) -> Result<Applied> {
    let status = match &e.status {
        StatusData::Stat {
            stat,
            amount,
            stacks,
        } => Status::Stat {
            stat: from_name(&stat_table(), stat, &format!("{path}.status.stat"))?,
            amount: *amount,
            stacks: *stacks,
        },
        StatusData::Mark { mark } => {
            // Only the roster's marks: a saved name is later written into positions and
            // records, so nothing else may come in (the name itself is not echoed).
            if !content.applies_mark(mark) {
                return Err(Error::state(
                    format!("{path}.status.mark"),
                    "not a mark any ability of the roster applies",
                ));
            }
            Status::Mark(mark.clone())
        }
        StatusData::Silence { scope, passives } => Status::Silence {
            scope: from_name(&SCOPES, scope, &format!("{path}.status.scope"))?,
            passives: *passives,
        },
        StatusData::Immune { class } => Status::Immune(from_name(
            &IMMUNITIES,
            class,
            &format!("{path}.status.class"),
        )?),
        StatusData::Dot { amount } => Status::Dot { amount: *amount },
    };
    if usize::from(e.applier) >= players {
        return Err(Error::state(format!("{path}.applier"), "no such player"));
    }
    if usize::from(e.by) >= slots {
        return Err(Error::state(format!("{path}.by"), "no such Star slot"));
    }
    if e.turns.is_some_and(|t| t == 0 || t > MAX_TURNS) {
        return Err(Error::state(
            format!("{path}.turns"),
            format!("expected 1..={MAX_TURNS} or null"),
        ));
    }
    Ok(Applied {
        status,
        applier: usize::from(e.applier),
        by: usize::from(e.by),
        turns: e.turns,
    })
}
