//! The state as JSON (`to_json`), players' views of it (the same with what they may not see
//! as `null`), and loading with validation (`from_json`). Format: `docs/arte.md`.

use super::cards::{Card, CardSet};
use super::notation::{cell_name, parse_cell};
use super::rules::sudden_death_scores;
use super::state::{
    Arte, Combat, Draft, Held, Kind, Phase, Side, Stage, DRAFTS, ROUNDS, TERRAIN_DRAFTS,
};
use super::{Deployment, Options};
use crate::error::{Error, Result};
use crate::game::Player;
use crate::rng::GameRng;
use serde_json::{json, Map, Value};

const KEYS: [&str; 12] = [
    "options",
    "cards",
    "rng",
    "phase",
    "round",
    "first_attacker",
    "piles",
    "draft",
    "discard",
    "players",
    "combat",
    "winner",
];

const SIDE_KEYS: [&str; 10] = [
    "terrains",
    "units",
    "secret",
    "rows",
    "field",
    "placing",
    "deploying",
    "victory",
    "defeated",
    "pick",
];

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Draft => "draft",
        Phase::Terrain => "terrain",
        Phase::Deploy => "deploy",
        Phase::Combat => "combat",
        Phase::SuddenDeath => "sudden_death",
        Phase::Over => "over",
    }
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Terrain => "terrain",
        Kind::Units => "units",
    }
}

impl Arte {
    /// Can `viewer` (`None`: the omniscient) see draft slot `i`?
    pub(super) fn sees_slot(&self, viewer: Option<Player>, d: &Draft, i: usize) -> bool {
        match viewer {
            None => true,
            Some(p) => p == d.picker || (d.stage() != Stage::Hide && d.hidden != Some(i as u8)),
        }
    }

    /// The state as JSON, with what `viewer` may not see as `null` (`None`: everything).
    pub(super) fn json_as(&self, viewer: Option<Player>) -> Value {
        let set = &*self.set;
        let lab = |c: Card| Value::from(set.label(c));
        let list = |cs: &[Card]| Value::from(cs.iter().map(|&c| lab(c)).collect::<Vec<_>>());
        let hidden_list = |n: usize| Value::from(vec![Value::Null; n]);
        let omniscient = viewer.is_none();

        let piles = if omniscient {
            json!({"terrain": list(&self.piles[0]), "units": list(&self.piles[1])})
        } else {
            json!({"terrain": hidden_list(self.piles[0].len()), "units": hidden_list(self.piles[1].len())})
        };
        let draft = match &self.draft {
            None => Value::Null,
            Some(d) => json!({
                "kind": kind_name(d.kind),
                "picker": d.picker,
                "slots": (0..3).map(|i| match d.slots[i] {
                    Some(c) if self.sees_slot(viewer, d, i) => lab(c),
                    _ => Value::Null,
                }).collect::<Vec<_>>(),
                "hidden": d.hidden,
                "taken": d.taken.to_vec(),
            }),
        };
        let players: Vec<Value> = (0..2)
            .map(|q| {
                let s = &self.sides[q];
                // Everything of the side is visible to its owner and the omniscient.
                let own = viewer.is_none_or(|p| p == q);
                let hand = |hs: &[Held]| {
                    Value::from(
                        hs.iter()
                            .map(|h| {
                                if own || !h.secret {
                                    lab(h.card)
                                } else {
                                    Value::Null
                                }
                            })
                            .collect::<Vec<_>>(),
                    )
                };
                let secret: Vec<Value> = s
                    .terrains
                    .iter()
                    .chain(&s.units)
                    .filter(|h| h.secret)
                    .map(|h| if own { lab(h.card) } else { Value::Null })
                    .collect();
                let mut field = Map::new();
                for cell in 0..9u8 {
                    field.insert(
                        cell_name(cell),
                        s.field[cell as usize].map_or(Value::Null, lab),
                    );
                }
                let placing: Vec<Value> = s
                    .placing
                    .iter()
                    .map(|&(c, r)| {
                        if own {
                            json!({"card": lab(c), "row": r + 1})
                        } else {
                            json!({"card": null, "row": null})
                        }
                    })
                    .collect();
                let deploying: Vec<Value> = s
                    .deploying
                    .iter()
                    .map(|&(c, x)| {
                        if own {
                            json!({"card": lab(c), "cell": cell_name(x)})
                        } else {
                            json!({"card": null, "cell": null})
                        }
                    })
                    .collect();
                let pick = match s.pick {
                    None => Value::Null,
                    Some((c, r)) if own || self.phase == Phase::Over => {
                        json!({"card": lab(c), "row": r + 1})
                    }
                    Some(_) => json!({"card": null, "row": null}),
                };
                json!({
                    "terrains": hand(&s.terrains),
                    "units": hand(&s.units),
                    "secret": secret,
                    "rows": s.rows.iter().map(|r| r.map_or(Value::Null, lab)).collect::<Vec<_>>(),
                    "field": field,
                    "placing": placing,
                    "deploying": deploying,
                    "victory": list(&s.victory),
                    "defeated": list(&s.defeated),
                    "pick": pick,
                })
            })
            .collect();
        let combat = match self.combat {
            None => Value::Null,
            Some(c) => json!({
                "attacker": c.attacker,
                "turn": c.turn,
                "passes": c.passes,
                "attack": c.attack.map(cell_name),
            }),
        };
        json!({
            "options": serde_json::to_value(&self.opts).unwrap_or(Value::Null),
            "cards": set.json().clone(),
            "rng": if omniscient { serde_json::to_value(&self.rng).unwrap_or(Value::Null) } else { Value::Null },
            "phase": phase_name(self.phase),
            "round": self.round,
            "first_attacker": self.first_attacker,
            "piles": piles,
            "draft": draft,
            "discard": list(&self.discard),
            "players": players,
            "combat": combat,
            "winner": if self.phase == Phase::Over { self.winner.map_or(Value::Null, Value::from) } else { Value::Null },
        })
    }

    pub(super) fn parse_json(value: &Value) -> Result<Arte> {
        let top = Obj::new(value, "$")?;
        top.only(&KEYS)?;
        let opts: Options = serde_json::from_value(top.get("options")?.clone())
            .map_err(|e| Error::state("$.options", e.to_string()))?;
        let set = opts
            .card_set()
            .map_err(|e| Error::state("$.options", e.to_string()))?;
        if top.get("cards")? != set.json() {
            return Err(Error::state(
                "$.cards",
                "does not match the card set the options name",
            ));
        }
        let rng: GameRng = serde_json::from_value(top.get("rng")?.clone())
            .map_err(|e| Error::state("$.rng", e.to_string()))?;
        let phase = match top.get("phase")?.as_str() {
            Some("draft") => Phase::Draft,
            Some("terrain") => Phase::Terrain,
            Some("deploy") => Phase::Deploy,
            Some("combat") => Phase::Combat,
            Some("sudden_death") => Phase::SuddenDeath,
            Some("over") => Phase::Over,
            _ => {
                return Err(Error::state(
                    "$.phase",
                    "expected one of draft, terrain, deploy, combat, sudden_death, over",
                ))
            }
        };
        let round = top.uint("round", u64::from(ROUNDS))? as u8;
        let first_attacker = top.opt_player("first_attacker")?;
        let piles_obj = Obj::new(top.get("piles")?, "$.piles")?;
        piles_obj.only(&["terrain", "units"])?;
        let piles = [
            cards(&set, piles_obj.get("terrain")?, "$.piles.terrain")?,
            cards(&set, piles_obj.get("units")?, "$.piles.units")?,
        ];
        let draft = match top.get("draft")? {
            Value::Null => None,
            v => Some(parse_draft(&set, v)?),
        };
        let discard = cards(&set, top.get("discard")?, "$.discard")?;
        let players = match top.get("players")? {
            Value::Array(a) if a.len() == 2 => a,
            _ => return Err(Error::state("$.players", "expected a list of 2 players")),
        };
        let sides = [
            parse_side(&set, &players[0], "$.players[0]")?,
            parse_side(&set, &players[1], "$.players[1]")?,
        ];
        let combat = match top.get("combat")? {
            Value::Null => None,
            v => {
                let o = Obj::new(v, "$.combat")?;
                o.only(&["attacker", "turn", "passes", "attack"])?;
                Some(Combat {
                    attacker: o.player("attacker")?,
                    turn: o.uint("turn", 255)? as u8,
                    passes: o.uint("passes", 1)? as u8,
                    attack: match o.get("attack")? {
                        Value::Null => None,
                        v => Some(cell(v, "$.combat.attack")?),
                    },
                })
            }
        };
        let winner = top.opt_player("winner")?;
        let g = Arte {
            opts,
            set: std::sync::Arc::new(set),
            rng,
            phase,
            round,
            first_attacker,
            piles,
            draft,
            discard,
            sides,
            combat,
            winner,
        };
        g.check_invariants().map_err(|e| Error::state("$", e))?;
        g.check_phase()?;
        Ok(g)
    }

    /// The phase-specific consistency a loaded state must have, so that play can go on.
    fn check_phase(&self) -> Result<()> {
        let bad = |path: &str, why: &str| Err(Error::state(path, why));
        let ph = self.phase;
        if self.draft.is_some() != (ph == Phase::Draft) {
            return bad("$.draft", "present exactly in the draft phase");
        }
        if self.combat.is_some() != (ph == Phase::Combat) {
            return bad("$.combat", "present exactly in the combat phase");
        }
        if self.winner.is_some() && ph != Phase::Over {
            return bad("$.winner", "only a finished game has a winner");
        }
        let want_round = match ph {
            Phase::Draft | Phase::Terrain => 0..=0,
            Phase::Deploy | Phase::Combat => 1..=ROUNDS,
            Phase::SuddenDeath | Phase::Over => ROUNDS..=ROUNDS,
        };
        if !want_round.contains(&self.round) {
            return bad("$.round", "does not fit the phase");
        }
        if self.first_attacker.is_some() != (self.round > 0) {
            return bad(
                "$.first_attacker",
                "set (0 or 1) exactly once the combat rounds have begun",
            );
        }
        for (p, s) in self.sides.iter().enumerate() {
            let path = |k: &str| format!("$.players[{p}].{k}");
            if !s.placing.is_empty() && ph != Phase::Terrain {
                return Err(Error::state(path("placing"), "only while placing terrain"));
            }
            if !s.deploying.is_empty()
                && (ph != Phase::Deploy || self.opts.deployment != Deployment::Simultaneous)
            {
                return Err(Error::state(
                    path("deploying"),
                    "only while deploying in secret",
                ));
            }
            if s.pick.is_some() && !matches!(ph, Phase::SuddenDeath | Phase::Over) {
                return Err(Error::state(path("pick"), "only in sudden death"));
            }
            let field = s.field_count();
            let fine = match ph {
                Phase::Combat => field > 0,
                Phase::Deploy => match self.opts.deployment {
                    Deployment::Simultaneous => field == 0,
                    Deployment::Alternating => field <= self.deploy_quota(p),
                },
                _ => field == 0,
            };
            if !fine {
                return Err(Error::state(
                    path("field"),
                    "the field does not fit the phase (empty outside combat, not empty in it)",
                ));
            }
            if matches!(ph, Phase::Draft | Phase::Terrain) {
                if s.rows.iter().any(Option::is_some)
                    || !s.victory.is_empty()
                    || !s.defeated.is_empty()
                {
                    return Err(Error::state(
                        path("rows"),
                        "rows, victory and defeated piles are empty before the rounds",
                    ));
                }
            } else if !s.terrains.is_empty() {
                return Err(Error::state(
                    path("terrains"),
                    "terrain cards are all on the rows once the rounds begin",
                ));
            }
            if s.terrains.len() > 3 {
                return Err(Error::state(path("terrains"), "at most 3 terrain cards"));
            }
        }
        match ph {
            Phase::Draft => {
                let Some(d) = &self.draft else { return Ok(()) };
                let done = self.drafts_done();
                if done >= DRAFTS {
                    return bad("$.draft", "all twelve drafts are done");
                }
                let kind = if done < TERRAIN_DRAFTS {
                    Kind::Terrain
                } else {
                    Kind::Units
                };
                if d.kind != kind {
                    return bad("$.draft.kind", "does not fit the drafts done so far");
                }
                if d.picker != self.draft_picker(done) {
                    return bad("$.draft.picker", "not this draft's picker (AG-2.1)");
                }
                let taken: Vec<Player> = d.taken.iter().flatten().copied().collect();
                for (i, slot) in d.slots.iter().enumerate() {
                    if slot.is_some() == d.taken[i].is_some() {
                        return Err(Error::state(
                            format!("$.draft.slots[{i}]"),
                            "a slot holds a card exactly when nobody took it",
                        ));
                    }
                }
                let ok = match (d.hidden, taken.as_slice()) {
                    (None, []) => true,
                    (Some(_), []) => true,
                    (Some(_), [p]) => *p == d.chooser(),
                    _ => false,
                };
                if !ok {
                    return bad(
                        "$.draft.taken",
                        "the chooser takes first, after the picker hid a card",
                    );
                }
                for (p, s) in self.sides.iter().enumerate() {
                    let mine = usize::from(taken.contains(&p));
                    let (t, u) = match d.kind {
                        Kind::Terrain => (s.terrains.len().saturating_sub(mine), s.units.len()),
                        Kind::Units => (s.terrains.len(), s.units.len().saturating_sub(mine)),
                    };
                    if t != done.min(TERRAIN_DRAFTS) || u != done.saturating_sub(TERRAIN_DRAFTS) {
                        return Err(Error::state(
                            format!("$.players[{p}]"),
                            "hand sizes do not fit the drafts done",
                        ));
                    }
                }
            }
            Phase::Terrain => {
                if self.placer().is_none() {
                    return bad("$.players", "nobody has terrain left to place");
                }
            }
            Phase::Deploy => {
                if self.deployer().is_none() {
                    return bad("$.players", "nobody has units left to deploy");
                }
            }
            Phase::Combat => {
                let Some(c) = self.combat else { return Ok(()) };
                if c.passes == 1 && c.turn == 0 {
                    return bad("$.combat.passes", "nobody may pass on the first turn");
                }
                if let Some(att) = c.attack {
                    let s = &self.sides[c.attacker];
                    if s.field[att as usize].is_none() || s.protected(att) {
                        return bad("$.combat.attack", "not an unprotected card of the attacker");
                    }
                }
            }
            Phase::SuddenDeath => {
                let (a, b) = (self.sides[0].victory.len(), self.sides[1].victory.len());
                if a != b || a == 0 {
                    return bad(
                        "$.players",
                        "sudden death needs equal, non-empty victory piles",
                    );
                }
                if self.sides[1 - self.sd_attacker()].pick.is_some() {
                    return bad(
                        "$.players",
                        "the defender picks second, and that ends the game",
                    );
                }
            }
            Phase::Over => {
                let (a, b) = (self.sides[0].victory.len(), self.sides[1].victory.len());
                let want = if a != b {
                    Some(if a > b { 0 } else { 1 })
                } else if a == 0 {
                    None
                } else {
                    let att = self.sd_attacker();
                    match (self.sides[att].pick, self.sides[1 - att].pick) {
                        (Some(x), Some(y)) => {
                            let (at, de) = sudden_death_scores(&self.set, &self.sides, att, x, y);
                            Some(if super::combat::attack_wins(at, de) {
                                att
                            } else {
                                1 - att
                            })
                        }
                        _ => {
                            return bad(
                                "$.players",
                                "a tied game ends with both sudden-death picks",
                            )
                        }
                    }
                };
                if self.winner != want {
                    return bad(
                        "$.winner",
                        "does not agree with the victory piles and picks",
                    );
                }
            }
        }
        Ok(())
    }
}

// ---- reading helpers -----------------------------------------------------------------

struct Obj<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Obj<'a> {
    fn new(v: &'a Value, path: &str) -> Result<Self> {
        match v {
            Value::Object(map) => Ok(Obj {
                map,
                path: path.to_string(),
            }),
            _ => Err(Error::state(path, "expected an object")),
        }
    }
    fn at(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }
    fn only(&self, keys: &[&str]) -> Result<()> {
        for k in self.map.keys() {
            if !keys.contains(&k.as_str()) {
                return Err(Error::state(self.at(k), "unknown key"));
            }
        }
        Ok(())
    }
    fn get(&self, key: &str) -> Result<&'a Value> {
        self.map
            .get(key)
            .ok_or_else(|| Error::state(self.at(key), "missing"))
    }
    fn uint(&self, key: &str, max: u64) -> Result<u64> {
        self.get(key)?
            .as_u64()
            .filter(|n| *n <= max)
            .ok_or_else(|| Error::state(self.at(key), format!("expected an integer 0..={max}")))
    }
    fn player(&self, key: &str) -> Result<Player> {
        Ok(self.uint(key, 1)? as Player)
    }
    fn opt_player(&self, key: &str) -> Result<Option<Player>> {
        match self.get(key)? {
            Value::Null => Ok(None),
            _ => self.player(key).map(Some),
        }
    }
}

fn card(set: &CardSet, v: &Value, path: &str) -> Result<Card> {
    v.as_str().and_then(|s| set.parse_label(s)).ok_or_else(|| {
        Error::state(
            path,
            format!("expected a card of this set (T<n> or U<n>), found {v}"),
        )
    })
}

fn cards(set: &CardSet, v: &Value, path: &str) -> Result<Vec<Card>> {
    match v {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, c)| card(set, c, &format!("{path}[{i}]")))
            .collect(),
        _ => Err(Error::state(path, "expected a list of cards")),
    }
}

fn cell(v: &Value, path: &str) -> Result<u8> {
    v.as_str()
        .and_then(parse_cell)
        .ok_or_else(|| Error::state(path, "expected a cell a1..c3"))
}

fn row(v: &Value, path: &str) -> Result<u8> {
    v.as_u64()
        .filter(|r| (1..=3).contains(r))
        .map(|r| r as u8 - 1)
        .ok_or_else(|| Error::state(path, "expected a row 1, 2 or 3"))
}

fn parse_draft(set: &CardSet, v: &Value) -> Result<Draft> {
    let o = Obj::new(v, "$.draft")?;
    o.only(&["kind", "picker", "slots", "hidden", "taken"])?;
    let kind = match o.get("kind")?.as_str() {
        Some("terrain") => Kind::Terrain,
        Some("units") => Kind::Units,
        _ => return Err(Error::state("$.draft.kind", "expected terrain or units")),
    };
    let three = |key: &str| match o.get(key)? {
        Value::Array(a) if a.len() == 3 => Ok(a),
        _ => Err(Error::state(o.at(key), "expected a list of 3")),
    };
    let mut slots = [None; 3];
    for (i, s) in three("slots")?.iter().enumerate() {
        if !s.is_null() {
            slots[i] = Some(card(set, s, &format!("$.draft.slots[{i}]"))?);
        }
    }
    let mut taken = [None; 3];
    for (i, t) in three("taken")?.iter().enumerate() {
        taken[i] = match t {
            Value::Null => None,
            v => Some(v.as_u64().filter(|p| *p <= 1).ok_or_else(|| {
                Error::state(format!("$.draft.taken[{i}]"), "expected 0, 1 or null")
            })? as Player),
        };
    }
    let hidden = match o.get("hidden")? {
        Value::Null => None,
        v => Some(
            v.as_u64()
                .filter(|h| *h <= 2)
                .ok_or_else(|| Error::state("$.draft.hidden", "expected a slot 0..2 or null"))?
                as u8,
        ),
    };
    Ok(Draft {
        kind,
        picker: o.player("picker")?,
        slots,
        hidden,
        taken,
    })
}

fn parse_side(set: &CardSet, v: &Value, path: &str) -> Result<Side> {
    let o = Obj::new(v, path)?;
    o.only(&SIDE_KEYS)?;
    let secret = cards(set, o.get("secret")?, &o.at("secret"))?;
    let hand = |key: &str| -> Result<Vec<Held>> {
        Ok(cards(set, o.get(key)?, &o.at(key))?
            .into_iter()
            .map(|card| Held {
                card,
                secret: secret.contains(&card),
            })
            .collect())
    };
    let terrains = hand("terrains")?;
    let units = hand("units")?;
    for (i, c) in secret.iter().enumerate() {
        if !terrains.iter().chain(&units).any(|h| h.card == *c) {
            return Err(Error::state(
                format!("{path}.secret[{i}]"),
                "a secret card must be in the player's hand",
            ));
        }
    }
    let mut rows = [None; 3];
    match o.get("rows")? {
        Value::Array(a) if a.len() == 3 => {
            for (i, r) in a.iter().enumerate() {
                if !r.is_null() {
                    rows[i] = Some(card(set, r, &format!("{path}.rows[{i}]"))?);
                }
            }
        }
        _ => return Err(Error::state(o.at("rows"), "expected a list of 3")),
    }
    let fo = Obj::new(o.get("field")?, &o.at("field"))?;
    let names: Vec<String> = (0..9).map(cell_name).collect();
    fo.only(&names.iter().map(String::as_str).collect::<Vec<_>>())?;
    let mut field = [None; 9];
    for (i, name) in names.iter().enumerate() {
        let v = fo.get(name)?;
        if !v.is_null() {
            field[i] = Some(card(set, v, &fo.at(name))?);
        }
    }
    let orders = |key: &str, at: &str| -> Result<Vec<(Card, u8)>> {
        match o.get(key)? {
            Value::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let p = format!("{path}.{key}[{i}]");
                    let e = Obj::new(e, &p)?;
                    e.only(&["card", at])?;
                    let c = card(set, e.get("card")?, &e.at("card"))?;
                    let x = if at == "row" {
                        row(e.get(at)?, &e.at(at))?
                    } else {
                        cell(e.get(at)?, &e.at(at))?
                    };
                    Ok((c, x))
                })
                .collect(),
            _ => Err(Error::state(o.at(key), "expected a list")),
        }
    };
    let pick = match o.get("pick")? {
        Value::Null => None,
        v => {
            let e = Obj::new(v, &o.at("pick"))?;
            e.only(&["card", "row"])?;
            Some((
                card(set, e.get("card")?, &e.at("card"))?,
                row(e.get("row")?, &e.at("row"))?,
            ))
        }
    };
    Ok(Side {
        terrains,
        units,
        rows,
        field,
        placing: orders("placing", "row")?,
        deploying: orders("deploying", "cell")?,
        victory: cards(set, o.get("victory")?, &o.at("victory"))?,
        defeated: cards(set, o.get("defeated")?, &o.at("defeated"))?,
        pick,
    })
}
