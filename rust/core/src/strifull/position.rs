//! The STRIFULL position string (FEN-like; every field in `docs/strifull.md`):
//!
//! `state turn first pending status turn_mod combat rng side0 side1 [@viewer]`
//!
//! Written from, and read into, the saved state's plain data (`json.rs`), so a position is
//! validated by the same one step as a saved state. A view position shows what the viewer may
//! not see as `?` (a face-down troop, an unknown pile card — runs as `?5` —, the dice stream,
//! a secret setup choice) and ends with `@p`; it loads with the hidden cards dealt from the
//! side's deck and then redrawn from a seed.
#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use super::Options;
use super::Strifull;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::position::{
    arr, bit, clip, hidden_run as run, in_position, join, list, num, rng_field, Fields,
};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

const FIELDS: &[&str] = &[
    "state", "turn", "first", "pending", "status", "turn_mod", "combat", "rng", "side0", "side1",
    "viewer",
];
const F_STATE: usize = 0;
const F_TURN: usize = 1;
const F_FIRST: usize = 2;
const F_PENDING: usize = 3;
const F_STATUS: usize = 4;
const F_MOD: usize = 5;
const F_COMBAT: usize = 6;
const F_RNG: usize = 7;
const F_SIDE0: usize = 8;
const F_VIEWER: usize = 10;

/// An id as written in a position: card and leader ids of user card sets may hold any
/// character, but a position can only carry the plain ones.
fn id(v: &Value) -> Result<String> {
    let s = v.as_str().unwrap_or("?");
    if s.is_empty()
        || !s
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Err(Error::invalid(format!(
            "the id {:?} cannot be written in a position (letters, digits, _ - . only)",
            clip(s)
        )));
    }
    Ok(s.to_string())
}

/// The position of `g`: everything (`None`) or what `viewer` sees.
pub(crate) fn write(g: &Strifull, viewer: Option<usize>) -> Result<String> {
    let v = g.state_json(viewer);
    let get = |k: &str| v.get(k);
    let player = match get("player").and_then(Value::as_u64) {
        Some(p) => p.to_string(),
        None => "-".into(),
    };
    let state = format!(
        "{}:{player}",
        get("step").and_then(Value::as_str).unwrap_or("?")
    );
    let turn = format!("{}:{}", num(get("turn")), num(get("turn_player")));
    let first = match get("first").filter(|f| !f.is_null()) {
        None => "-".to_string(),
        Some(f) => format!(
            "{}:{}:{}",
            num(f.get("player")),
            join(arr(f.get("dice")).iter().map(|d| num(Some(d)))),
            num(f.get("rerolls"))
        ),
    };
    let pending = join(arr(get("pending")).iter().map(|p| {
        format!(
            "{}:{}",
            num(p.get("player")),
            p.get("decision").and_then(Value::as_str).unwrap_or("?")
        )
    }));
    let result = if get("draw").and_then(Value::as_bool) == Some(true) {
        "=".to_string()
    } else {
        num(get("winner"))
    };
    let status = format!("{}{result}", bit(get("ability_used")));
    let turn_mod = match get("turn_mod").filter(|m| !m.is_null()) {
        None => "-".to_string(),
        Some(m) => format!(
            "{}:{}:{}:{}",
            num(m.get("player")),
            m.get("cell").and_then(Value::as_str).unwrap_or("?"),
            num(m.get("atk")),
            num(m.get("def"))
        ),
    };
    let combat = match get("last_combat").filter(|c| !c.is_null()) {
        None => "-".to_string(),
        Some(c) => {
            let nums = |k: &str| join(arr(c.get(k)).iter().map(|d| num(Some(d))));
            let bits = |k: &str| {
                arr(c.get(k))
                    .iter()
                    .map(|b| bit(Some(b)))
                    .collect::<String>()
            };
            let lists = |k: &str| {
                arr(c.get(k))
                    .iter()
                    .map(|l| {
                        let items: Vec<String> =
                            arr(Some(l)).iter().map(|d| num(Some(d))).collect();
                        if items.is_empty() {
                            "-".to_string()
                        } else {
                            items.join(".")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(";")
            };
            let cards = arr(c.get("cards"))
                .iter()
                .map(id)
                .collect::<Result<Vec<_>>>()?;
            [
                num(c.get("player")),
                c.get("attacker")
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .into(),
                c.get("target")
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .into(),
                join(cards),
                nums("values"),
                bit(c.get("uses_defence")).into(),
                nums("dice"),
                c.get("result")
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .into(),
                bit(c.get("tie_by_ability")).into(),
                bits("fell"),
                lists("survival_rolls"),
                bits("survived"),
                lists("rows_lost"),
            ]
            .join(":")
        }
    };
    let rng = match get("rng").and_then(Value::as_str) {
        Some(r) => r.to_string(),
        None => "?".into(),
    };
    let mut fields = vec![state, turn, first, pending, status, turn_mod, combat, rng];
    // SK-3.2: the opponent's setup choices are secret until the setup ends; in a view a
    // `null` there is `?` (chosen or not: the step says which), elsewhere `-` (not chosen).
    let secret_choices = get("turn").and_then(Value::as_u64) == Some(0);
    for (p, s) in arr(get("sides")).iter().enumerate() {
        let hidden = secret_choices && viewer.is_some_and(|v| v != p);
        fields.push(write_side(s, hidden, viewer.is_some())?);
    }
    if let Some(p) = viewer {
        fields.push(format!("@{p}"));
    }
    Ok(fields.join(" "))
}

/// One side: `leader/element/leader_row/live_rows/changes/ability_uses/field/pile/pile_known/
/// graveyard/deck`.
fn write_side(s: &Value, hidden_choices: bool, with_deck: bool) -> Result<String> {
    let opt = |k: &str| match s.get(k) {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ if hidden_choices => "?".into(),
        _ => "-".into(),
    };
    let live = arr(s.get("live_rows"))
        .iter()
        .map(|b| bit(Some(b)))
        .collect::<String>();
    let mut field = Vec::new();
    if let Some(Value::Object(cells)) = s.get("field") {
        for (cell, c) in cells {
            let card = match c.get("card") {
                Some(Value::String(_)) => id(c.get("card").unwrap_or(&Value::Null))?,
                _ => "?".into(),
            };
            let mut text = format!("{cell}={card}");
            if c.get("revealed").and_then(Value::as_bool) == Some(true) {
                text.push('!');
            }
            // SK-9.1: a troop's counters are the sums of its growth sources' own counters,
            // so the sources are written (`(source=atk;def+...)`), and plain `(atk;def)`
            // only for counters without sources.
            let growth: Vec<String> = match c.get("growth") {
                Some(Value::Object(g)) => g
                    .iter()
                    .map(|(src, v)| {
                        let n: Vec<String> = arr(Some(v))
                            .iter()
                            .filter_map(Value::as_i64)
                            .map(|n| n.to_string())
                            .collect();
                        format!("{src}={}", n.join(";"))
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let counters: Vec<i64> = arr(c.get("counters"))
                .iter()
                .filter_map(Value::as_i64)
                .collect();
            if !growth.is_empty() {
                text.push_str(&format!("({})", growth.join("+")));
            } else if counters.iter().any(|&n| n != 0) {
                text.push_str(&format!(
                    "({})",
                    counters
                        .iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(";")
                ));
            }
            field.push(text);
        }
    }
    let mut pile = Vec::new();
    let mut hidden = 0usize;
    for c in arr(s.get("pile")) {
        if c.is_string() {
            if hidden > 0 {
                pile.push(run(hidden));
                hidden = 0;
            }
            pile.push(id(&c)?);
        } else {
            hidden += 1;
        }
    }
    if hidden > 0 {
        pile.push(run(hidden));
    }
    let grave = arr(s.get("graveyard"))
        .iter()
        .map(id)
        .collect::<Result<Vec<_>>>()?;
    let mut deck = Vec::new();
    // The deck is what the side's cards add up to, so a full position leaves it out (`-`); a
    // view needs it to deal the hidden cards.
    if let (Some(Value::Object(d)), true) = (s.get("deck"), with_deck) {
        for (card, n) in d {
            deck.push(format!(
                "{}*{}",
                id(&Value::from(card.as_str()))?,
                num(Some(n))
            ));
        }
    }
    Ok([
        id(s.get("leader").unwrap_or(&Value::Null))?,
        opt("element"),
        opt("leader_row"),
        live,
        opt("changes"),
        opt("ability_uses"),
        join(field),
        join(pile),
        opt("pile_known"),
        join(grave),
        join(deck),
    ]
    .join("/"))
}

/// The game a position describes (see the module docs).
pub(crate) fn read(text: &str, options: &Options, seed: u64) -> Result<Strifull> {
    let f = Fields::split("strifull", text, FIELDS, 1)?;
    let viewer = match f.get(F_VIEWER) {
        None => None,
        Some("@0") => Some(0usize),
        Some("@1") => Some(1),
        Some(_) => return Err(f.error(F_VIEWER, "expected @0 or @1")),
    };
    let int = |i: usize, t: &str| f.int(i, t, NO_LIMIT).map(Value::from);
    let maybe = |i: usize, t: &str| f.int_or_null(i, t, NO_LIMIT);
    let parts = |i: usize, n: usize, sep: char| f.parts(i, f.field(i), n, sep);
    let bits = |i: usize, t: &str, n: usize| bits(&f, i, t, n);
    let mut m = Map::new();
    m.insert(
        "options".into(),
        serde_json::to_value(options).unwrap_or_default(),
    );

    let st = parts(F_STATE, 2, ':')?;
    m.insert(
        "step".into(),
        Value::from(st.first().copied().unwrap_or_default()),
    );
    m.insert(
        "player".into(),
        maybe(F_STATE, st.get(1).copied().unwrap_or_default())?,
    );
    let tu = parts(F_TURN, 2, ':')?;
    m.insert(
        "turn".into(),
        int(F_TURN, tu.first().copied().unwrap_or_default())?,
    );
    m.insert(
        "turn_player".into(),
        int(F_TURN, tu.get(1).copied().unwrap_or_default())?,
    );

    let first = read_first(&f)?;
    m.insert("first".into(), first);

    let mut pending = Vec::new();
    for item in list(f.field(F_PENDING)) {
        let (p, d) = item
            .split_once(':')
            .ok_or_else(|| f.error(F_PENDING, "expected player:decision items"))?;
        pending.push(json!({"player": int(F_PENDING, p)?, "decision": d}));
    }
    m.insert("pending".into(), Value::Array(pending));

    let status = f.field(F_STATUS);
    let (used, result) = status.split_at_checked(1).unwrap_or(("", ""));
    let used = bits(F_STATUS, used, 1)?;
    m.insert(
        "ability_used".into(),
        Value::from(used.first().copied().unwrap_or(false)),
    );
    m.insert("draw".into(), Value::from(result == "="));
    m.insert(
        "winner".into(),
        match result {
            "=" | "-" => Value::Null,
            t => int(F_STATUS, t)?,
        },
    );

    let turn_mod = read_turn_mod(&f)?;
    m.insert("turn_mod".into(), turn_mod);

    let combat = read_combat(&f)?;
    m.insert("last_combat".into(), combat);

    let rng = rng_field(f.field(F_RNG), seed);
    m.insert("rng".into(), rng);

    let mut hidden = false;
    let mut sides = Vec::new();
    let mut secret = [false; 2];
    for (s, secret) in secret.iter_mut().enumerate() {
        let (side, h, choices) = read_side(&f, F_SIDE0 + s)?;
        hidden |= h || choices;
        *secret = choices;
        sides.push(side);
    }
    if hidden && viewer.is_none() {
        return Err(f.error(
            F_RNG,
            "hidden parts (?) need the viewer field (@0 or @1) at the end",
        ));
    }
    let g = settle_choices(&m, &sides, secret)?;
    Ok(match viewer {
        Some(p) => g.resample_hidden(p, seed),
        None => g,
    })
}

/// Numbers in a STRIFULL position are any `i64`: the validation bounds them.
const NO_LIMIT: u64 = u64::MAX;

/// `t`, a part of field `i`, as `n` digits 0/1.
fn bits(f: &Fields<'_>, i: usize, t: &str, n: usize) -> Result<Vec<bool>> {
    if t.len() != n || !t.chars().all(|c| c == '0' || c == '1') {
        return Err(f.error(i, format!("expected {n} digits 0/1")));
    }
    Ok(t.chars().map(|c| c == '1').collect())
}

/// The first-player field: `player:dice:rerolls` or `-`.
fn read_first(f: &Fields<'_>) -> Result<Value> {
    let int = |i: usize, t: &str| f.int(i, t, NO_LIMIT).map(Value::from);
    let parts = |i: usize, n: usize, sep: char| f.parts(i, f.field(i), n, sep);
    Ok(match f.field(F_FIRST) {
        "-" => Value::Null,
        _ => {
            let p = parts(F_FIRST, 3, ':')?;
            let [pl, dice, rerolls] = p.as_slice() else {
                return Err(f.error(F_FIRST, "expected player:dice:rerolls"));
            };
            let dice = list(dice)
                .into_iter()
                .map(|d| int(F_FIRST, d))
                .collect::<Result<Vec<_>>>()?;
            json!({"player": int(F_FIRST, pl)?, "dice": dice, "rerolls": int(F_FIRST, rerolls)?})
        }
    })
}

/// The turn modifier field: `player:cell:atk:def` or `-`.
fn read_turn_mod(f: &Fields<'_>) -> Result<Value> {
    let int = |i: usize, t: &str| f.int(i, t, NO_LIMIT).map(Value::from);
    let parts = |i: usize, n: usize, sep: char| f.parts(i, f.field(i), n, sep);
    Ok(match f.field(F_MOD) {
        "-" => Value::Null,
        _ => {
            let p = parts(F_MOD, 4, ':')?;
            let [pl, cell, atk, def] = p.as_slice() else {
                return Err(f.error(F_MOD, "expected player:cell:atk:def"));
            };
            json!({"player": int(F_MOD, pl)?, "cell": cell, "atk": int(F_MOD, atk)?, "def": int(F_MOD, def)?})
        }
    })
}

/// The last combat field: 13 parts separated by ':', or `-`.
fn read_combat(f: &Fields<'_>) -> Result<Value> {
    let int = |i: usize, t: &str| f.int(i, t, NO_LIMIT).map(Value::from);
    let parts = |i: usize, n: usize, sep: char| f.parts(i, f.field(i), n, sep);
    let bits = |i: usize, t: &str, n: usize| bits(f, i, t, n);
    Ok(match f.field(F_COMBAT) {
        "-" => Value::Null,
        _ => {
            let p = parts(F_COMBAT, 13, ':')?;
            let [pl, atk, tgt, cards, values, defence, dice, result, tie, fell, rolls, survived, rows] =
                p.as_slice()
            else {
                return Err(f.error(F_COMBAT, "expected 13 parts separated by ':'"));
            };
            let nums = |t: &str| -> Result<Vec<Value>> {
                list(t).into_iter().map(|d| int(F_COMBAT, d)).collect()
            };
            let pair_lists = |t: &str| -> Result<Vec<Vec<Value>>> {
                let halves: Vec<&str> = t.split(';').collect();
                if halves.len() != 2 {
                    return Err(f.error(F_COMBAT, "expected two lists separated by ';'"));
                }
                halves
                    .iter()
                    .map(|h| {
                        if *h == "-" {
                            Ok(Vec::new())
                        } else {
                            h.split('.').map(|d| int(F_COMBAT, d)).collect()
                        }
                    })
                    .collect()
            };
            json!({
                "player": int(F_COMBAT, pl)?,
                "attacker": atk,
                "target": tgt,
                "cards": list(cards),
                "values": nums(values)?,
                "uses_defence": bits(F_COMBAT, defence, 1)?.first().copied().unwrap_or(false),
                "dice": nums(dice)?,
                "result": result,
                "tie_by_ability": bits(F_COMBAT, tie, 1)?.first().copied().unwrap_or(false),
                "fell": bits(F_COMBAT, fell, 2)?,
                "survival_rolls": pair_lists(rolls)?,
                "survived": bits(F_COMBAT, survived, 2)?,
                "rows_lost": pair_lists(rows)?,
            })
        }
    })
}

/// The game of the plain data `m` with `sides`: a side's secret setup choices (`?`) were
/// made or not as the public step says, so take the one reading the validation accepts.
fn settle_choices(m: &Map<String, Value>, sides: &[Value], secret: [bool; 2]) -> Result<Strifull> {
    // A secret setup choice (`?`) was made or not as the public step says: take the one
    // reading of the choices that the validation accepts.
    let readings = |secret: bool| -> Vec<Option<(Value, Value)>> {
        if secret {
            vec![
                Some((Value::Null, Value::Null)),
                Some((Value::from("fire"), Value::Null)),
                Some((Value::from("fire"), Value::from(1))),
                Some((Value::Null, Value::from(1))),
            ]
        } else {
            vec![None]
        }
    };
    let mut first_error = None;
    let mut found = None;
    'search: for r0 in readings(secret[0]) {
        for r1 in readings(secret[1]) {
            let mut sides = sides.to_vec();
            for (side, reading) in sides.iter_mut().zip([&r0, &r1]) {
                if let (Value::Object(o), Some((element, row))) = (side, reading) {
                    o.insert("element".into(), element.clone());
                    o.insert("leader_row".into(), row.clone());
                }
            }
            let mut m = m.clone();
            m.insert("sides".into(), Value::Array(sides));
            match Strifull::from_json(&Value::Object(m)) {
                Ok(g) => {
                    found = Some(g);
                    break 'search;
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    }
    match (found, first_error) {
        (Some(g), _) => Ok(g),
        (None, Some(e)) => Err(in_position(e)),
        (None, None) => Err(Error::invalid("no reading")),
    }
}

/// A cell of a side's field: cell, card (`?` hidden), revealed, counters, growth sources.
type Cell = (String, String, bool, Vec<i64>, Option<Map<String, Value>>);

/// One `cell=card` item of a side's field (`!` revealed, `(atk;def)` counters or
/// `(source=atk;def+...)` growth).
fn read_cell(f: &Fields<'_>, i: usize, item: &str) -> Result<Cell> {
    let (cell, rest) = item
        .split_once('=')
        .ok_or_else(|| f.error(i, "field items are cell=card"))?;
    let numbers = |c: &str| -> Result<Vec<i64>> {
        c.split(';')
            .map(|n| n.parse().map_err(|_| f.error(i, "counters are numbers")))
            .collect()
    };
    let (rest, counters, growth) = match rest.split_once('(') {
        None => (rest, vec![0, 0], None),
        Some((r, c)) => {
            let c = c
                .strip_suffix(')')
                .ok_or_else(|| f.error(i, "counters are (atk;def) or (source=atk;def+...)"))?;
            if c.contains('=') {
                let mut g = Map::new();
                for src in c.split('+') {
                    let (name, n) = src
                        .split_once('=')
                        .ok_or_else(|| f.error(i, "growth sources are source=atk;def"))?;
                    g.insert(name.to_string(), json!(numbers(n)?));
                }
                (r, Vec::new(), Some(g))
            } else {
                (r, numbers(c)?, None)
            }
        }
    };
    let (card, revealed) = match rest.strip_suffix('!') {
        Some(c) => (c, true),
        None => (rest, false),
    };
    Ok((
        cell.to_string(),
        card.to_string(),
        revealed,
        counters,
        growth,
    ))
}

/// One side's plain data, its hidden cards dealt from its deck in order; whether a card was
/// hidden; whether its setup choices are (then `element`/`leader_row` are left for the caller).
fn read_side(f: &Fields<'_>, i: usize) -> Result<(Value, bool, bool)> {
    let p: Vec<&str> = f.field(i).split('/').collect();
    let [leader, element, row, live, changes, uses, field, pile, known, grave, deck] = p.as_slice()
    else {
        return Err(f.error(i, "expected 11 parts separated by '/'"));
    };
    let int = |t: &str| f.int(i, t, NO_LIMIT).map(Value::from);
    let mut hidden = false;
    // The deck, then every card the side names taken out of it: what is left fills the `?`s.
    let mut left: BTreeMap<String, i64> = BTreeMap::new();
    for item in list(deck) {
        let (card, n) = item
            .split_once('*')
            .ok_or_else(|| f.error(i, "deck items are card*copies"))?;
        let n = card_count(f, i, n)?;
        left.insert(card.to_string(), n);
    }
    let mut take = |card: &str| {
        if let Some(n) = left.get_mut(card) {
            *n -= 1;
        }
    };
    let mut cells = Vec::new();
    for item in list(field) {
        let cell = read_cell(f, i, item)?;
        if cell.1 != "?" {
            take(&cell.1);
        }
        cells.push(cell);
    }
    let mut pile_items = Vec::new();
    for item in list(pile) {
        match item.strip_prefix('?') {
            Some(n) => {
                let n = if n.is_empty() {
                    1
                } else {
                    card_count(f, i, n)?
                };
                for _ in 0..n {
                    pile_items.push(None);
                }
            }
            None => {
                take(item);
                pile_items.push(Some(item.to_string()));
            }
        }
    }
    for g in list(grave) {
        take(g);
    }
    let mut spare = left
        .iter()
        .flat_map(|(c, &n)| std::iter::repeat_n(c.clone(), n.max(0) as usize))
        .collect::<Vec<_>>()
        .into_iter();
    let mut deal = || {
        hidden = true;
        spare.next().ok_or_else(|| {
            f.error(
                i,
                "more hidden cards (?) than cards of the deck left unnamed",
            )
        })
    };
    let mut field_map = Map::new();
    for (cell, card, revealed, counters, growth) in cells {
        let card = if card == "?" { deal()? } else { card };
        let entry = match growth {
            Some(g) => json!({"card": card, "revealed": revealed, "growth": g}),
            None => json!({"card": card, "revealed": revealed, "counters": counters}),
        };
        field_map.insert(cell, entry);
    }
    let mut pile_out = Vec::new();
    for c in pile_items {
        pile_out.push(match c {
            Some(c) => c,
            None => deal()?,
        });
    }
    let secret = *element == "?" || *row == "?";
    if secret && (*element != "?" || *row != "?") {
        return Err(f.error(
            i,
            "element and leader row are secret (?) together or not at all",
        ));
    }
    let element = match *element {
        "?" | "-" => Value::Null,
        e => Value::from(e),
    };
    let leader_row = match *row {
        "?" | "-" => Value::Null,
        r => int(r)?,
    };
    let live: Vec<bool> = if live.len() == 3 && live.chars().all(|c| c == '0' || c == '1') {
        live.chars().map(|c| c == '1').collect()
    } else {
        return Err(f.error(i, "live rows are three digits 0/1"));
    };
    let deck_map: Map<String, Value> = list(deck)
        .into_iter()
        .filter_map(|item| item.split_once('*'))
        .map(|(c, n)| (c.to_string(), Value::from(n.parse::<i64>().unwrap_or(0))))
        .collect();
    let mut side = json!({
            "leader": leader,
            "element": element,
            "leader_row": leader_row,
            "live_rows": live,
            "changes": int(changes)?,
            "ability_uses": int(uses)?,
            "field": field_map,
            "pile": pile_out,
            "pile_known": int(known)?,
            "graveyard": list(grave),
    });
    if let (Value::Object(o), false) = (&mut side, deck_map.is_empty()) {
        o.insert("deck".into(), Value::Object(deck_map));
    }
    Ok((side, hidden, secret))
}

fn card_count(f: &Fields<'_>, i: usize, n: &str) -> Result<i64> {
    n.parse::<i64>()
        .ok()
        .filter(|n| (0..=1000).contains(n))
        .ok_or_else(|| f.error(i, format!("bad count {:?}", clip(n))))
}
