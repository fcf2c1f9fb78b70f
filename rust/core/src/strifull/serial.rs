//! The state as JSON (`docs/strifull.md`), its validating parser, per-player views (SK-10)
//! and determinization.

use super::cards::{CardSet, Element, DECK_SIZE, MAX_COPIES};
use super::state::{
    cell_name, parse_cell, Cell, CombatLog, CombatResult, FirstRoll, Outcome, Shared, Side, Step,
    Strifull, TurnMod, MAX_CHANGES, STACK,
};
use super::Options;
use crate::error::{Error, Result};
use crate::rng::GameRng;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

impl Strifull {
    /// The full state (`viewer` None) or what `viewer` may see (hidden parts `null`).
    pub(crate) fn state_json(&self, viewer: Option<usize>) -> Value {
        let cards = &self.shared.cards;
        let name = |c: u8| Value::from(cards.troops[c as usize].id.as_str());
        let sides: Vec<Value> = (0..2)
            .map(|p| {
                let s = &self.sides[p];
                let owner_sees = viewer.is_none_or(|v| v == p);
                // SK-3.2: leader choices stay secret until both players finished setup.
                let choices_seen = owner_sees || self.turn > 0;
                let mut field = Map::new();
                for (c, cell) in s.cells.iter().enumerate() {
                    if cell.is_empty() {
                        continue;
                    }
                    let card = if owner_sees || cell.revealed {
                        name(cell.card)
                    } else {
                        Value::Null
                    };
                    field.insert(
                        cell_name(c),
                        json!({"card": card, "revealed": cell.revealed, "counters": [cell.atk, cell.def]}),
                    );
                }
                // The pile, top first; its order is known to no one except the cards the
                // owner put under it (the last `pile_known`).
                let n = s.pile.len();
                let known = s.pile_known as usize;
                let pile: Vec<Value> = s
                    .pile
                    .as_slice()
                    .iter()
                    .enumerate()
                    .rev()
                    .map(|(i, &c)| {
                        if viewer.is_none() || (viewer == Some(p) && i < known) {
                            name(c)
                        } else {
                            Value::Null
                        }
                    })
                    .collect();
                debug_assert_eq!(pile.len(), n);
                let mut deck = Map::new();
                for &c in &self.shared.decks[p] {
                    let e = deck.entry(cards.troops[c as usize].id.clone()).or_insert(json!(0));
                    *e = json!(e.as_u64().unwrap_or(0) + 1);
                }
                let leader = &cards.leaders[s.leader as usize];
                json!({
                    "faction": cards.factions[leader.faction].id,
                    "leader": leader.id,
                    "element": if choices_seen { s.element.map(|e| e.name()) } else { None },
                    "leader_row": if choices_seen && s.leader_row > 0 { Some(s.leader_row) } else { None },
                    "live_rows": s.live,
                    "field": field,
                    "pile": pile,
                    "pile_known": s.pile_known,
                    "graveyard": s.grave.as_slice().iter().map(|&c| name(c)).collect::<Vec<_>>(),
                    "deck": deck,
                    "changes": s.changes,
                    "ability_uses": s.uses,
                })
            })
            .collect();
        let options = serde_json::to_value(&self.shared.options).unwrap_or(Value::Null);
        json!({
            "options": options,
            "step": self.step.name(),
            "player": (self.step != Step::Over).then_some(self.actor),
            "turn": self.turn,
            "turn_player": self.turn_player,
            "first": self.first.map(|f| json!({"player": f.player, "dice": f.dice, "rerolls": f.rerolls})),
            "pending": self.pending_slice().iter().map(|&(p, st)| json!({"player": p, "decision": st.name()})).collect::<Vec<_>>(),
            "ability_used": self.ability_used,
            "turn_mod": self.turn_mod.map(|m| json!({"player": m.side, "cell": cell_name(m.cell as usize), "atk": m.atk, "def": m.def})),
            "last_combat": self.last_combat.map(|l| self.combat_json(&l)),
            "winner": match self.outcome { Outcome::Win(p) => Some(p), _ => None },
            "draw": self.outcome == Outcome::Draw,
            "rng": if viewer.is_none() { serde_json::to_value(&self.rng).unwrap_or(Value::Null) } else { Value::Null },
            "sides": sides,
        })
    }

    fn combat_json(&self, l: &CombatLog) -> Value {
        let cards = &self.shared.cards;
        let rolls = |r: [u8; 2]| -> Vec<u8> { r.into_iter().filter(|&d| d > 0).collect() };
        let rows =
            |bits: u8| -> Vec<u8> { (1..=3u8).filter(|r| bits & (1 << (r - 1)) != 0).collect() };
        json!({
            "player": l.player,
            "attacker": cell_name(l.cells[0] as usize),
            "target": cell_name(l.cells[1] as usize),
            "cards": [cards.troops[l.cards[0] as usize].id, cards.troops[l.cards[1] as usize].id],
            "values": l.values,
            "uses_defence": l.uses_defence,
            "dice": l.dice,
            "totals": l.totals(),
            "result": l.result.name(),
            "tie_by_ability": l.tie_by_ability,
            "fell": l.fell,
            "survival_rolls": [rolls(l.survival[0]), rolls(l.survival[1])],
            "survived": l.survived,
            "rows_lost": [rows(l.rows_lost[0]), rows(l.rows_lost[1])],
        })
    }

    /// SK-10: a state consistent with `player`'s view, with everything hidden from them
    /// redrawn: the opponent's face-down troops and pile (one shuffled pool), the unknown
    /// part of the own pile's order, the opponent's secret setup choices, and the RNG.
    pub(crate) fn resample(&self, player: usize, seed: u64) -> Strifull {
        let mut g = self.clone();
        let mut rng = GameRng::stream(seed, 0);
        let q = 1 - player.min(1);
        {
            let s = &mut g.sides[q];
            let mut pool: Vec<u8> = s
                .cells
                .iter()
                .filter(|c| c.occupied() && !c.revealed)
                .map(|c| c.card)
                .chain(s.pile.as_slice().iter().copied())
                .collect();
            rng.shuffle(&mut pool);
            let mut it = pool.into_iter();
            for cell in s.cells.iter_mut() {
                if cell.occupied() && !cell.revealed {
                    cell.card = it.next().unwrap_or(cell.card);
                }
            }
            for slot in s.pile.as_mut_slice() {
                *slot = it.next().unwrap_or(*slot);
            }
            if g.turn == 0 {
                if s.element.is_some() {
                    s.element = Element::from_index(rng.below(4));
                }
                if s.leader_row != 0 {
                    s.leader_row = 1 + rng.below(3) as u8;
                }
            }
        }
        {
            let s = &mut g.sides[player.min(1)];
            let known = s.pile_known as usize;
            let pile = s.pile.as_mut_slice();
            if known < pile.len() {
                rng.shuffle(&mut pile[known..]);
            }
        }
        g.rng = GameRng::stream(seed, 1);
        g
    }

    // ---- parsing ---------------------------------------------------------------------

    pub(crate) fn parse_state(value: &Value) -> Result<Strifull> {
        let root = obj(value, "$")?;
        const KEYS: &[&str] = &[
            "options",
            "step",
            "player",
            "turn",
            "turn_player",
            "first",
            "pending",
            "ability_used",
            "turn_mod",
            "last_combat",
            "winner",
            "draw",
            "rng",
            "sides",
        ];
        unknown_keys(root, "$", KEYS)?;
        // Every key is required (null where the value may be absent): a state is complete.
        for key in KEYS {
            if !root.contains_key(*key) {
                return Err(Error::state(format!("$.{key}"), "missing"));
            }
        }
        let options: Options = match root.get("options") {
            None => Options::default(),
            Some(v) => serde_json::from_value(v.clone())
                .map_err(|e| Error::state("$.options", e.to_string()))?,
        };
        let cards = CardSet::load(options.cards_file.as_deref(), options.cards_toml.as_deref())?;
        let sides_v = root
            .get("sides")
            .and_then(Value::as_array)
            .ok_or_else(|| Error::state("$.sides", "missing: a list of the two players' sides"))?;
        if sides_v.len() != 2 {
            return Err(Error::state("$.sides", "expected exactly two sides"));
        }
        let mut sides = [Side::new(0), Side::new(0)];
        let mut decks: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        for p in 0..2 {
            let (side, deck) = parse_side(&cards, &sides_v[p], &format!("$.sides[{p}]"))?;
            sides[p] = side;
            decks[p] = deck;
        }

        let step_name = req_str(root, "step", "$")?;
        let step = Step::parse(step_name)
            .ok_or_else(|| Error::state("$.step", format!("unknown step {step_name:?}")))?;
        let turn = uint(req(root, "turn", "$")?, "$.turn", u16::MAX as u64)? as u16;
        let turn_player = uint(req(root, "turn_player", "$")?, "$.turn_player", 1)? as u8;
        let actor = match root.get("player") {
            None | Some(Value::Null) => None,
            Some(v) => Some(uint(v, "$.player", 1)? as u8),
        };
        let winner = match root.get("winner") {
            None | Some(Value::Null) => None,
            Some(v) => Some(uint(v, "$.winner", 1)? as u8),
        };
        let draw = match req(root, "draw", "$")? {
            Value::Bool(b) => *b,
            _ => return Err(Error::state("$.draw", "expected true or false")),
        };
        let outcome = match (winner, draw) {
            (Some(_), true) => {
                return Err(Error::state("$.draw", "a game with a winner is no draw"))
            }
            (Some(w), false) => Outcome::Win(w),
            (None, true) => Outcome::Draw,
            (None, false) => Outcome::Running,
        };
        let actor = match (step, actor) {
            (Step::Over, None) => 0,
            (Step::Over, Some(_)) => {
                return Err(Error::state(
                    "$.player",
                    "must be null once the game is over",
                ))
            }
            (_, Some(a)) => a,
            (_, None) => return Err(Error::state("$.player", "missing: whose decision it is")),
        };
        if (step == Step::Over) != (outcome != Outcome::Running) {
            return Err(Error::state(
                "$.step",
                "step \"over\" goes with a winner or a draw, and only with them",
            ));
        }
        let first = match root.get("first") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let m = obj(v, "$.first")?;
                let dice = dice_pair(req(m, "dice", "$.first")?, "$.first.dice")?;
                let player = uint(req(m, "player", "$.first")?, "$.first.player", 1)? as u8;
                if dice[0] == dice[1] || (dice[1] > dice[0]) != (player == 1) {
                    return Err(Error::state(
                        "$.first",
                        "the higher die starts; ties are rerolled",
                    ));
                }
                Some(FirstRoll {
                    player,
                    dice,
                    rerolls: opt_uint(m, "rerolls", "$.first", 255)?.unwrap_or(0) as u8,
                })
            }
        };
        let mut pending = [(0u8, Step::Over); 4];
        let mut pending_len = 0u8;
        {
            let items = req(root, "pending", "$")?
                .as_array()
                .ok_or_else(|| Error::state("$.pending", "expected a list"))?;
            if items.len() > 4 {
                return Err(Error::state("$.pending", "at most 4 owed decisions"));
            }
            for (i, it) in items.iter().enumerate() {
                let path = format!("$.pending[{i}]");
                let m = obj(it, &path)?;
                let p = uint(req(m, "player", &path)?, &format!("{path}.player"), 1)? as u8;
                let d = req_str(m, "decision", &path)?;
                let st = match Step::parse(d) {
                    Some(st @ (Step::Relocate | Step::StepUp)) => st,
                    _ => {
                        return Err(Error::state(
                            format!("{path}.decision"),
                            "expected \"relocate\" or \"step_up\"",
                        ))
                    }
                };
                pending[i] = (p, st);
                pending_len += 1;
            }
        }
        let ability_used = match req(root, "ability_used", "$")? {
            Value::Bool(b) => *b,
            _ => return Err(Error::state("$.ability_used", "expected true or false")),
        };
        let turn_mod = match root.get("turn_mod") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let m = obj(v, "$.turn_mod")?;
                let side = uint(req(m, "player", "$.turn_mod")?, "$.turn_mod.player", 1)? as u8;
                let cell = cell_of(req(m, "cell", "$.turn_mod")?, "$.turn_mod.cell")? as u8;
                Some(TurnMod {
                    side,
                    cell,
                    atk: int(m.get("atk").unwrap_or(&json!(0)), "$.turn_mod.atk", -20, 20)? as i8,
                    def: int(m.get("def").unwrap_or(&json!(0)), "$.turn_mod.def", -20, 20)? as i8,
                })
            }
        };
        let last_combat = match root.get("last_combat") {
            None | Some(Value::Null) => None,
            Some(v) => Some(parse_combat(&cards, v)?),
        };
        let rng = serde_json::from_value(req(root, "rng", "$")?.clone()).map_err(|e| {
            Error::state(
                "$.rng",
                format!("{e} (the RNG state, as to_dict() gives it)"),
            )
        })?;

        // Consistency of the turn machine.
        let setup_done = |s: &Side| s.element.is_some() && s.leader_row != 0;
        if step.is_setup() {
            if turn != 0 {
                return Err(Error::state(
                    "$.turn",
                    "setup happens before turn 1 (turn 0)",
                ));
            }
            let me = &sides[actor as usize];
            if actor == 1 && !setup_done(&sides[0]) {
                return Err(Error::state(
                    "$.sides[0]",
                    "player 0 sets up first (SK-3.2)",
                ));
            }
            if actor == 0
                && (sides[1].element.is_some() || sides[1].leader_row != 0 || sides[1].changes != 0)
            {
                return Err(Error::state(
                    "$.sides[1]",
                    "player 1 sets up after player 0 (SK-3.2)",
                ));
            }
            let ok = match step {
                Step::Changes => {
                    me.element.is_none() && me.leader_row == 0 && me.changes < MAX_CHANGES
                }
                Step::Element => me.element.is_none() && me.leader_row == 0,
                _ => me.element.is_some() && me.leader_row == 0,
            };
            if !ok {
                return Err(Error::state(
                    format!("$.sides[{actor}]"),
                    format!(
                        "element, leader_row and changes do not fit step {:?}",
                        step.name()
                    ),
                ));
            }
        } else {
            if turn == 0 {
                return Err(Error::state("$.turn", "the play starts at turn 1"));
            }
            for (p, s) in sides.iter().enumerate() {
                if !setup_done(s) {
                    return Err(Error::state(
                        format!("$.sides[{p}]"),
                        "element and leader_row are set once the play begins",
                    ));
                }
            }
        }
        if step.is_turn() && (actor != turn_player || pending_len != 0) {
            return Err(Error::state(
                "$.player",
                "in a turn step the turn player decides and no decision is pending",
            ));
        }
        if matches!(step, Step::Relocate | Step::StepUp)
            && (pending_len == 0 || pending[0] != (actor, step))
        {
            return Err(Error::state(
                "$.pending",
                "the current decision heads the pending list",
            ));
        }
        if !matches!(step, Step::Relocate | Step::StepUp) && pending_len != 0 && step != Step::Over
        {
            return Err(Error::state(
                "$.pending",
                "decisions are pending only after an attack",
            ));
        }
        for &(p, st) in &pending[..pending_len as usize] {
            let s = &sides[p as usize];
            let ok = match st {
                Step::Relocate => {
                    let r = s.leader_row as usize;
                    !s.row_live(r) && r == 2 && s.row_live(1) && s.row_live(3)
                }
                _ => !s.live[1] && s.live[2],
            };
            if !ok {
                return Err(Error::state(
                    "$.pending",
                    format!("player {p} owes no {:?} decision here", st.name()),
                ));
            }
        }

        let g = Strifull {
            shared: Arc::new(Shared {
                cards,
                options,
                decks,
            }),
            sides,
            step,
            actor,
            turn_player,
            turn,
            first,
            pending,
            pending_len,
            ability_used,
            turn_mod,
            last_combat,
            outcome,
            rng,
        };
        if let Some(why) = g.invariant_violation() {
            return Err(Error::state("$.sides", why));
        }
        Ok(g)
    }
}

// ---- JSON helpers with paths -----------------------------------------------------------

fn obj<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>> {
    v.as_object()
        .ok_or_else(|| Error::state(path, "expected an object"))
}
fn req<'a>(m: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a Value> {
    m.get(key)
        .filter(|v| !v.is_null())
        .ok_or_else(|| Error::state(format!("{path}.{key}"), "missing"))
}
fn req_str<'a>(m: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a str> {
    req(m, key, path)?
        .as_str()
        .ok_or_else(|| Error::state(format!("{path}.{key}"), "expected a string"))
}
fn uint(v: &Value, path: &str, max: u64) -> Result<u64> {
    match v.as_u64() {
        Some(n) if n <= max => Ok(n),
        _ => Err(Error::state(path, format!("expected an integer 0..={max}"))),
    }
}
fn int(v: &Value, path: &str, lo: i64, hi: i64) -> Result<i64> {
    match v.as_i64() {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(Error::state(
            path,
            format!("expected an integer {lo}..={hi}"),
        )),
    }
}
fn opt_uint(m: &Map<String, Value>, key: &str, path: &str, max: u64) -> Result<Option<u64>> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => uint(v, &format!("{path}.{key}"), max).map(Some),
    }
}
fn opt_bool(m: &Map<String, Value>, key: &str, path: &str) -> Result<Option<bool>> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(Error::state(
            format!("{path}.{key}"),
            "expected true or false",
        )),
    }
}
fn bool_pair(v: &Value, path: &str) -> Result<[bool; 2]> {
    match v.as_array().map(Vec::as_slice) {
        Some([Value::Bool(a), Value::Bool(b)]) => Ok([*a, *b]),
        _ => Err(Error::state(path, "expected [bool, bool]")),
    }
}
fn dice_pair(v: &Value, path: &str) -> Result<[u8; 2]> {
    match v.as_array().map(Vec::as_slice) {
        Some([a, b]) => Ok([
            die(a, &format!("{path}[0]"))?,
            die(b, &format!("{path}[1]"))?,
        ]),
        _ => Err(Error::state(path, "expected two dice [a, b]")),
    }
}
fn die(v: &Value, path: &str) -> Result<u8> {
    match v.as_u64() {
        Some(n @ 1..=6) => Ok(n as u8),
        _ => Err(Error::state(path, "a die shows 1..=6")),
    }
}
fn cell_of(v: &Value, path: &str) -> Result<usize> {
    v.as_str()
        .and_then(parse_cell)
        .ok_or_else(|| Error::state(path, "expected a cell such as \"aB2\""))
}
fn unknown_keys(m: &Map<String, Value>, path: &str, keys: &[&str]) -> Result<()> {
    for k in m.keys() {
        if !keys.contains(&k.as_str()) {
            return Err(Error::state(
                format!("{path}.{k}"),
                format!("unknown key; expected {}", keys.join(", ")),
            ));
        }
    }
    Ok(())
}
fn troop_id(cards: &CardSet, v: &Value, path: &str, faction: usize) -> Result<u8> {
    let id = v
        .as_str()
        .ok_or_else(|| Error::state(path, "expected a troop id"))?;
    let t = cards
        .troop_index(id)
        .ok_or_else(|| Error::state(path, format!("unknown troop {id:?}")))?;
    if cards.troops[t].faction != faction {
        return Err(Error::state(
            path,
            format!("troop {id:?} is not of this side's faction (SK-1.2)"),
        ));
    }
    Ok(t as u8)
}

fn parse_side(cards: &CardSet, v: &Value, path: &str) -> Result<(Side, Vec<u8>)> {
    let m = obj(v, path)?;
    const KEYS: &[&str] = &[
        "faction",
        "leader",
        "element",
        "leader_row",
        "live_rows",
        "field",
        "pile",
        "pile_known",
        "graveyard",
        "deck",
        "changes",
        "ability_uses",
    ];
    unknown_keys(m, path, KEYS)?;
    let leader_id = req_str(m, "leader", path)?;
    let li = cards.leader_index(leader_id).ok_or_else(|| {
        Error::state(
            format!("{path}.leader"),
            format!("unknown leader {leader_id:?}"),
        )
    })?;
    let fi = cards.leaders[li].faction;
    if let Some(f) = m.get("faction").filter(|v| !v.is_null()) {
        if f.as_str() != Some(cards.factions[fi].id.as_str()) {
            return Err(Error::state(
                format!("{path}.faction"),
                format!(
                    "leader {leader_id:?} belongs to {:?}",
                    cards.factions[fi].id
                ),
            ));
        }
    }
    let mut s = Side::new(li as u8);
    s.element = match m.get("element") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_str().and_then(Element::parse).ok_or_else(|| {
            Error::state(
                format!("{path}.element"),
                "expected fire, water, wind or earth",
            )
        })?),
    };
    s.leader_row = match m.get("leader_row") {
        None | Some(Value::Null) => 0,
        Some(v) => match v.as_u64() {
            Some(r @ 1..=3) => r as u8,
            _ => {
                return Err(Error::state(
                    format!("{path}.leader_row"),
                    "expected 1, 2 or 3",
                ))
            }
        },
    };
    if let Some(v) = m.get("live_rows").filter(|v| !v.is_null()) {
        match v.as_array().map(Vec::as_slice) {
            Some([Value::Bool(a), Value::Bool(b), Value::Bool(c)]) => s.live = [*a, *b, *c],
            _ => {
                return Err(Error::state(
                    format!("{path}.live_rows"),
                    "expected [bool, bool, bool]",
                ))
            }
        }
    }
    let field = match m.get("field") {
        None | Some(Value::Null) => Map::new(),
        Some(v) => obj(v, &format!("{path}.field"))?.clone(),
    };
    for (k, cv) in &field {
        let cpath = format!("{path}.field.{k}");
        let c = parse_cell(k).ok_or_else(|| {
            Error::state(
                &cpath,
                "not a cell: zone a/d, column A-C, row 1-3 (e.g. aB2)",
            )
        })?;
        let cm = obj(cv, &cpath)?;
        unknown_keys(cm, &cpath, &["card", "revealed", "counters"])?;
        let card = troop_id(
            cards,
            req(cm, "card", &cpath)?,
            &format!("{cpath}.card"),
            fi,
        )?;
        let mut cell = Cell::new(card);
        cell.revealed = opt_bool(cm, "revealed", &cpath)?.unwrap_or(false);
        if let Some(cv) = cm.get("counters").filter(|v| !v.is_null()) {
            match cv.as_array().map(Vec::as_slice) {
                Some([a, d]) => {
                    cell.atk = int(a, &format!("{cpath}.counters[0]"), -10, 10)? as i8;
                    cell.def = int(d, &format!("{cpath}.counters[1]"), -10, 10)? as i8;
                }
                _ => {
                    return Err(Error::state(
                        format!("{cpath}.counters"),
                        "expected [atk, def]",
                    ))
                }
            }
        }
        s.cells[c] = cell;
    }
    let list = |key: &str| -> Result<Vec<u8>> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, it)| troop_id(cards, it, &format!("{path}.{key}[{i}]"), fi))
                .collect(),
            Some(_) => Err(Error::state(
                format!("{path}.{key}"),
                "expected a list of troop ids",
            )),
        }
    };
    let pile_top_first = list("pile")?;
    let grave = list("graveyard")?;
    if pile_top_first.len() > STACK || grave.len() > STACK {
        return Err(Error::state(
            path,
            format!("a pile or graveyard holds at most {STACK} cards"),
        ));
    }
    for &c in pile_top_first.iter().rev() {
        s.pile.push(c);
    }
    for &c in &grave {
        s.grave.push(c);
    }
    s.pile_known = opt_uint(m, "pile_known", path, s.pile.len() as u64)?.unwrap_or(0) as u8;
    s.changes = opt_uint(m, "changes", path, MAX_CHANGES as u64)?.unwrap_or(0) as u8;
    s.uses = opt_uint(m, "ability_uses", path, 99)?.unwrap_or(0) as u8;

    let mut all: Vec<u8> = s
        .cells
        .iter()
        .filter(|c| c.occupied())
        .map(|c| c.card)
        .chain(pile_top_first.iter().copied())
        .chain(grave.iter().copied())
        .collect();
    all.sort_unstable();
    if let Some(dv) = m.get("deck").filter(|v| !v.is_null()) {
        let dm = obj(dv, &format!("{path}.deck"))?;
        let mut deck = Vec::new();
        for (id, n) in dm {
            let t = troop_id(cards, &json!(id), &format!("{path}.deck.{id}"), fi)?;
            let n = uint(n, &format!("{path}.deck.{id}"), MAX_COPIES as u64)?;
            deck.extend(std::iter::repeat_n(t, n as usize));
        }
        deck.sort_unstable();
        if deck != all {
            return Err(Error::state(
                format!("{path}.deck"),
                "the field, pile and graveyard do not hold exactly the deck's cards",
            ));
        }
    }
    if all.len() > DECK_SIZE {
        return Err(Error::state(
            path,
            format!("more than {DECK_SIZE} troops (SK-1.2)"),
        ));
    }
    let mut counts: BTreeMap<u8, u8> = BTreeMap::new();
    for &c in &all {
        *counts.entry(c).or_default() += 1;
    }
    for (c, n) in counts {
        let t = &cards.troops[c as usize];
        if n > t.copies.min(MAX_COPIES) {
            return Err(Error::state(
                path,
                format!(
                    "{n} copies of {:?}; a deck holds at most {} (SK-1.2)",
                    t.id,
                    t.copies.min(MAX_COPIES)
                ),
            ));
        }
    }
    Ok((s, all))
}

fn parse_combat(cards: &CardSet, v: &Value) -> Result<CombatLog> {
    let path = "$.last_combat";
    let m = obj(v, path)?;
    let at = |k: &str| format!("{path}.{k}");
    let cards_v = req(m, "cards", path)?
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| Error::state(at("cards"), "expected [attacker id, defender id]"))?;
    let mut ids = [0u8; 2];
    for i in 0..2 {
        let id = cards_v[i].as_str().unwrap_or("");
        ids[i] = cards.troop_index(id).ok_or_else(|| {
            Error::state(
                format!("{path}.cards[{i}]"),
                format!("unknown troop {id:?}"),
            )
        })? as u8;
    }
    let values = match req(m, "values", path)?.as_array().map(Vec::as_slice) {
        Some([a, d]) => [
            int(a, &at("values[0]"), 0, 127)? as i8,
            int(d, &at("values[1]"), 0, 127)? as i8,
        ],
        _ => return Err(Error::state(at("values"), "expected [attack, defence]")),
    };
    let result = match req_str(m, "result", path)? {
        "attacker" => CombatResult::Attacker,
        "defender" => CombatResult::Defender,
        "tie" => CombatResult::Tie,
        _ => {
            return Err(Error::state(
                at("result"),
                "expected attacker, defender or tie",
            ))
        }
    };
    let mut survival = [[0u8; 2]; 2];
    let sv = req(m, "survival_rolls", path)?
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| Error::state(at("survival_rolls"), "expected two lists of dice"))?;
    for i in 0..2 {
        let rolls = sv[i].as_array().filter(|a| a.len() <= 2).ok_or_else(|| {
            Error::state(
                format!("{path}.survival_rolls[{i}]"),
                "expected up to two dice",
            )
        })?;
        for (k, r) in rolls.iter().enumerate() {
            survival[i][k] = die(r, &format!("{path}.survival_rolls[{i}][{k}]"))?;
        }
    }
    let mut rows_lost = [0u8; 2];
    let rl = req(m, "rows_lost", path)?
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| Error::state(at("rows_lost"), "expected two lists of rows"))?;
    for i in 0..2 {
        for r in rl[i].as_array().into_iter().flatten() {
            match r.as_u64() {
                Some(n @ 1..=3) => rows_lost[i] |= 1 << (n - 1),
                _ => {
                    return Err(Error::state(
                        format!("{path}.rows_lost[{i}]"),
                        "rows are 1..=3",
                    ))
                }
            }
        }
    }
    let a = cell_of(req(m, "attacker", path)?, &at("attacker"))?;
    let t = cell_of(req(m, "target", path)?, &at("target"))?;
    Ok(CombatLog {
        player: uint(req(m, "player", path)?, &at("player"), 1)? as u8,
        cells: [a as u8, t as u8],
        cards: ids,
        values,
        uses_defence: opt_bool(m, "uses_defence", path)?.unwrap_or(false),
        dice: dice_pair(req(m, "dice", path)?, &at("dice"))?,
        result,
        tie_by_ability: opt_bool(m, "tie_by_ability", path)?.unwrap_or(false),
        fell: bool_pair(req(m, "fell", path)?, &at("fell"))?,
        survival,
        survived: bool_pair(req(m, "survived", path)?, &at("survived"))?,
        rows_lost,
    })
}
