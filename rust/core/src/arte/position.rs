//! The Arte da Guerra position string (FEN-like; every field in `docs/arte.md`):
//!
//! `state rng piles draft discard combat side0 side1 [@viewer]`
//!
//! Written from, and read into, the saved state's plain data (`json.rs`), so a position is
//! validated by the same one step as a saved state. The card set is not written: it is the
//! one the options name. A view position shows what the viewer may not see as `?` (the
//! undrawn piles, as runs `?12`; a face-down draft card; the opponent's secret hand cards and
//! secret orders; the dice stream) and ends with `@p`; it loads with the hidden cards dealt
//! from the cards of the set it leaves unnamed, then redrawn from a seed as
//! `resample_hidden` does.
#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use super::cards::CardSet;
use super::{Arte, Options};
use crate::error::Result;
use crate::game::Game;
use crate::position::{arr, clip, hidden_run as run, in_position, join, list, rng_field, Fields};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

const FIELDS: &[&str] = &[
    "state", "rng", "piles", "draft", "discard", "combat", "side0", "side1", "viewer",
];
const F_STATE: usize = 0;
const F_RNG: usize = 1;
const F_PILES: usize = 2;
const F_DRAFT: usize = 3;
const F_DISCARD: usize = 4;
const F_COMBAT: usize = 5;
const F_SIDE0: usize = 6;
const F_VIEWER: usize = 8;

/// The nine cells in the saved state's order (row by row).
const CELLS: [&str; 9] = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];

fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => "-".into(),
    }
}

/// A card, or `?` for one the viewer may not see.
fn card(v: &Value) -> String {
    v.as_str().map_or_else(|| "?".to_string(), str::to_string)
}

/// Cards with runs of hidden ones written `?n` (`?` for one).
fn cards_with_runs(items: &[Value]) -> String {
    let mut out = Vec::new();
    let mut hidden = 0usize;
    for c in items {
        match c.as_str() {
            Some(s) => {
                if hidden > 0 {
                    out.push(run(hidden));
                    hidden = 0;
                }
                out.push(s.to_string());
            }
            None => hidden += 1,
        }
    }
    if hidden > 0 {
        out.push(run(hidden));
    }
    join(out)
}

/// The position of `g`: everything (`None`) or what `viewer` sees.
pub(crate) fn write(g: &Arte, viewer: Option<usize>) -> Result<String> {
    let v = g.json_as(viewer);
    let get = |k: &str| v.get(k);
    let state = format!(
        "{}:{}:{}:{}",
        text(get("phase")),
        text(get("round")),
        text(get("first_attacker")),
        text(get("winner"))
    );
    let rng = get("rng")
        .and_then(Value::as_str)
        .map_or_else(|| "?".to_string(), str::to_string);
    let piles = get("piles");
    let piles = format!(
        "{}/{}",
        cards_with_runs(&arr(piles.and_then(|p| p.get("terrain")))),
        cards_with_runs(&arr(piles.and_then(|p| p.get("units"))))
    );
    let draft = match get("draft").filter(|d| !d.is_null()) {
        None => "-".to_string(),
        Some(d) => {
            let slots = arr(d.get("slots"));
            let taken = arr(d.get("taken"));
            let hidden = d.get("hidden").and_then(Value::as_u64);
            let items: Vec<String> = (0..3usize)
                .map(|i| {
                    let mut s = match taken.get(i).and_then(Value::as_u64) {
                        Some(p) => format!(">{p}"),
                        None => card(slots.get(i).unwrap_or(&Value::Null)),
                    };
                    if hidden == Some(i as u64) {
                        s.push('*');
                    }
                    s
                })
                .collect();
            format!(
                "{}:{}:{}",
                text(d.get("kind")),
                text(d.get("picker")),
                items.join(",")
            )
        }
    };
    let discard = join(arr(get("discard")).iter().map(card));
    let combat = match get("combat").filter(|c| !c.is_null()) {
        None => "-".to_string(),
        Some(c) => format!(
            "{}:{}:{}:{}",
            text(c.get("attacker")),
            text(c.get("turn")),
            text(c.get("passes")),
            text(c.get("attack"))
        ),
    };
    let mut fields = vec![state, rng, piles, draft, discard, combat];
    for s in arr(get("players")) {
        fields.push(write_side(&s));
    }
    if let Some(p) = viewer {
        fields.push(format!("@{p}"));
    }
    Ok(fields.join(" "))
}

/// One side: `terrains/units/rows/field/placing/deploying/victory/defeated/pick`.
fn write_side(s: &Value) -> String {
    let secret: BTreeSet<String> = arr(s.get("secret"))
        .iter()
        .filter_map(|c| c.as_str().map(str::to_string))
        .collect();
    // A hand card the opponent has never seen (AG-2.6) is marked `*`; one the viewer may
    // not see is `?`.
    let hand = |k: &str| {
        join(arr(s.get(k)).iter().map(|c| match c.as_str() {
            Some(c) if secret.contains(c) => format!("{c}*"),
            Some(c) => c.to_string(),
            None => "?".to_string(),
        }))
    };
    let rows = arr(s.get("rows"))
        .iter()
        .map(|c| c.as_str().unwrap_or(".").to_string())
        .collect::<Vec<_>>()
        .join(",");
    let field = join(CELLS.iter().filter_map(|cell| {
        s.get("field")
            .and_then(|f| f.get(*cell))
            .and_then(Value::as_str)
            .map(|c| format!("{cell}={c}"))
    }));
    let order = |o: &Value, at: &str| match (
        o.get("card").and_then(Value::as_str),
        o.get(at).filter(|x| !x.is_null()),
    ) {
        (Some(c), Some(x)) => format!("{c}@{}", text(Some(x))),
        _ => "?".to_string(),
    };
    let placing = join(arr(s.get("placing")).iter().map(|o| order(o, "row")));
    let deploying = join(arr(s.get("deploying")).iter().map(|o| order(o, "cell")));
    let pick = match s.get("pick").filter(|p| !p.is_null()) {
        None => "-".to_string(),
        Some(p) => order(p, "row"),
    };
    [
        hand("terrains"),
        hand("units"),
        rows,
        field,
        placing,
        deploying,
        join(arr(s.get("victory")).iter().map(card)),
        join(arr(s.get("defeated")).iter().map(card)),
        pick,
    ]
    .join("/")
}

/// A card place read from a position: a card, or one to deal (`?`).
#[derive(Clone)]
enum Place {
    Card(String),
    Hidden,
}

impl Place {
    fn value(&self) -> Value {
        match self {
            Place::Card(c) => Value::from(c.as_str()),
            Place::Hidden => Value::Null,
        }
    }
}

/// The cards of one side as read, before the hidden ones are dealt.
struct SideText<'a> {
    terrains: Vec<(Place, bool)>,
    units: Vec<(Place, bool)>,
    rows: Vec<Value>,
    field: Map<String, Value>,
    placing: Vec<Option<(&'a str, u64)>>,
    deploying: Vec<Option<(&'a str, &'a str)>>,
    victory: Vec<&'a str>,
    defeated: Vec<&'a str>,
    /// `None` no pick, `Some(None)` a hidden one.
    pick: Option<Option<(&'a str, u64)>>,
}

/// The game a position describes (see the module docs).
pub(crate) fn read(text: &str, options: &Options, seed: u64) -> Result<Arte> {
    let f = Fields::split("arte", text, FIELDS, 1)?;
    let viewer = match f.get(F_VIEWER) {
        None => None,
        Some("@0") => Some(0usize),
        Some("@1") => Some(1),
        Some(_) => return Err(f.error(F_VIEWER, "expected @0 or @1")),
    };
    let num = |i: usize, t: &str| f.count(i, t, LIMIT);
    let maybe = |i: usize, t: &str| -> Result<Value> {
        if t == "-" {
            Ok(Value::Null)
        } else {
            num(i, t).map(Value::from)
        }
    };
    let parts = |i: usize, n: usize, sep: char| f.parts(i, f.field(i), n, sep);
    let opts = options.carried()?;
    let set = opts.card_set()?;
    let mut m = Map::new();
    m.insert(
        "options".into(),
        serde_json::to_value(&*opts).unwrap_or_default(),
    );
    m.insert("cards".into(), set.json().clone());

    let [phase, round, first, winner] = parts(F_STATE, 4, ':')?[..] else {
        return Err(f.error(F_STATE, "expected phase:round:first_attacker:winner"));
    };
    m.insert("phase".into(), Value::from(phase));
    m.insert("round".into(), Value::from(num(F_STATE, round)?));
    m.insert("first_attacker".into(), maybe(F_STATE, first)?);
    m.insert("winner".into(), maybe(F_STATE, winner)?);

    let rng = rng_field(f.field(F_RNG), seed);
    m.insert("rng".into(), rng);

    // Every card place, in the order hidden ones are dealt: terrain first, then units.
    let [tp, up] = parts(F_PILES, 2, '/')?[..] else {
        return Err(f.error(F_PILES, "expected terrain/units"));
    };
    let mut terrain_pile = with_runs(&f, F_PILES, tp)?;
    let mut unit_pile = with_runs(&f, F_PILES, up)?;

    let (mut draft, mut draft_slots, draft_kind) = read_draft(&f)?;

    let discard = list(f.field(F_DISCARD));

    let combat = read_combat(&f)?;

    let mut sides = Vec::new();
    for i in [F_SIDE0, F_SIDE0 + 1] {
        sides.push(read_side(&f, i)?);
    }

    let hidden = deal_hidden(
        &f,
        &set,
        [&mut terrain_pile, &mut unit_pile],
        (&mut draft_slots, draft_kind),
        &discard,
        &mut sides,
    )?;
    let orders_hidden = sides.iter().any(|s| {
        s.placing.iter().any(Option::is_none)
            || s.deploying.iter().any(Option::is_none)
            || s.pick == Some(None)
    });
    if (hidden || orders_hidden) && viewer.is_none() {
        return Err(f.error(
            F_RNG,
            "hidden parts (?) need the viewer field (@0 or @1) at the end",
        ));
    }

    m.insert(
        "piles".into(),
        json!({
            "terrain": terrain_pile.iter().map(Place::value).collect::<Vec<_>>(),
            "units": unit_pile.iter().map(Place::value).collect::<Vec<_>>(),
        }),
    );
    if let Value::Object(d) = &mut draft {
        let slots: Vec<Value> = draft_slots
            .iter()
            .zip(
                d.get("taken")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten(),
            )
            .map(|(p, t)| if t.is_null() { p.value() } else { Value::Null })
            .collect();
        d.insert("slots".into(), Value::from(slots));
    }
    m.insert("draft".into(), draft);
    m.insert("discard".into(), json!(discard));
    m.insert(
        "players".into(),
        Value::from(sides.iter().map(side_value).collect::<Vec<_>>()),
    );
    m.insert("combat".into(), combat);

    let g = Arte::from_json(&Value::Object(m)).map_err(in_position)?;
    Ok(match viewer {
        Some(p) => g.resample_hidden(p, seed),
        None => g,
    })
}

/// Every number of an Arte position is small.
const LIMIT: u64 = 1000;

/// A list of card places, `?n` a run of hidden ones.
fn with_runs(f: &Fields<'_>, i: usize, t: &str) -> Result<Vec<Place>> {
    let mut out = Vec::new();
    for item in list(t) {
        match item.strip_prefix('?') {
            Some("") => out.push(Place::Hidden),
            Some(n) => {
                let n = f.count(i, n, LIMIT)?;
                out.extend(std::iter::repeat_n(Place::Hidden, n as usize));
            }
            None => out.push(Place::Card(item.to_string())),
        }
    }
    Ok(out)
}

/// The draft field: `kind:picker:slots` or `-`; its value (without slots), its slots
/// and its kind.
fn read_draft<'a>(f: &Fields<'a>) -> Result<(Value, Vec<Place>, &'a str)> {
    let num = |i: usize, t: &str| f.count(i, t, LIMIT);
    let parts = |i: usize, n: usize, sep: char| f.parts(i, f.field(i), n, sep);
    let mut draft_slots: Vec<Place> = Vec::new();
    let mut draft = Value::Null;
    let mut draft_kind = "";
    if f.field(F_DRAFT) != "-" {
        let [kind, picker, slots] = parts(F_DRAFT, 3, ':')?[..] else {
            return Err(f.error(F_DRAFT, "expected kind:picker:slots"));
        };
        let slots: Vec<&str> = slots.split(',').collect();
        if slots.len() != 3 {
            return Err(f.error(F_DRAFT, "expected three slots"));
        }
        let mut hidden = Value::Null;
        let mut taken = Vec::new();
        for (i, s) in slots.iter().enumerate() {
            let s = match s.strip_suffix('*') {
                Some(s) => {
                    if !hidden.is_null() {
                        return Err(f.error(F_DRAFT, "only one slot is face down (*)"));
                    }
                    hidden = Value::from(i);
                    s
                }
                None => s,
            };
            match s.strip_prefix('>') {
                Some(p) => {
                    taken.push(Value::from(num(F_DRAFT, p)?));
                    draft_slots.push(Place::Card(String::new()));
                }
                None => {
                    taken.push(Value::Null);
                    draft_slots.push(if s == "?" {
                        Place::Hidden
                    } else {
                        Place::Card(s.to_string())
                    });
                }
            }
        }
        draft_kind = kind;
        draft = json!({"kind": kind, "picker": num(F_DRAFT, picker)?, "hidden": hidden, "taken": taken});
    }
    Ok((draft, draft_slots, draft_kind))
}

/// The combat field: `attacker:turn:passes:attack` or `-`.
fn read_combat(f: &Fields<'_>) -> Result<Value> {
    let num = |i: usize, t: &str| f.count(i, t, LIMIT);
    let parts = |i: usize, n: usize, sep: char| f.parts(i, f.field(i), n, sep);
    Ok(match f.field(F_COMBAT) {
        "-" => Value::Null,
        _ => {
            let [attacker, turn, passes, attack] = parts(F_COMBAT, 4, ':')?[..] else {
                return Err(f.error(F_COMBAT, "expected attacker:turn:passes:attack"));
            };
            json!({
                "attacker": num(F_COMBAT, attacker)?,
                "turn": num(F_COMBAT, turn)?,
                "passes": num(F_COMBAT, passes)?,
                "attack": if attack == "-" { Value::Null } else { Value::from(attack) },
            })
        }
    })
}

/// Deal the hidden places (`?`) the cards of the set the position does not name, kind by
/// kind; whether there were any. Every card must be somewhere.
fn deal_hidden(
    f: &Fields<'_>,
    set: &CardSet,
    [terrain_pile, unit_pile]: [&mut Vec<Place>; 2],
    (draft_slots, draft_kind): (&mut Vec<Place>, &str),
    discard: &[&str],
    sides: &mut [SideText<'_>],
) -> Result<bool> {
    // The cards the position names; the rest of the set fills the `?`s, kind by kind.
    let mut named: BTreeSet<String> = BTreeSet::new();
    let places = terrain_pile
        .iter()
        .chain(unit_pile.iter())
        .chain(draft_slots.iter())
        .chain(
            sides
                .iter()
                .flat_map(|s| s.terrains.iter().chain(&s.units).map(|(p, _)| p)),
        );
    for p in places {
        if let Place::Card(c) = p {
            named.insert(c.clone());
        }
    }
    named.extend(discard.iter().map(|c| c.to_string()));
    for s in sides.iter() {
        named.extend(s.rows.iter().filter_map(Value::as_str).map(str::to_string));
        named.extend(
            s.field
                .values()
                .filter_map(Value::as_str)
                .map(str::to_string),
        );
        named.extend(s.victory.iter().chain(&s.defeated).map(|c| c.to_string()));
    }
    let unnamed = |prefix: char, n: usize| -> Vec<String> {
        (1..=n)
            .map(|k| format!("{prefix}{k}"))
            .filter(|c| !named.contains(c))
            .collect()
    };
    let mut spare_terrain = unnamed('T', set.num_terrain()).into_iter();
    let mut spare_units = unnamed('U', set.num_units()).into_iter();
    let mut hidden = false;
    let mut deal = |p: &mut Place, terrain: bool, i: usize| -> Result<()> {
        if let Place::Hidden = p {
            hidden = true;
            let spare = if terrain {
                &mut spare_terrain
            } else {
                &mut spare_units
            };
            let c = spare.next().ok_or_else(|| {
                f.error(
                    i,
                    "more hidden cards (?) than cards of the set left unnamed",
                )
            })?;
            *p = Place::Card(c);
        }
        Ok(())
    };
    for p in terrain_pile.iter_mut() {
        deal(p, true, F_PILES)?;
    }
    for p in unit_pile.iter_mut() {
        deal(p, false, F_PILES)?;
    }
    for p in draft_slots.iter_mut() {
        deal(p, draft_kind == "terrain", F_DRAFT)?;
    }
    for (k, s) in sides.iter_mut().enumerate() {
        for (p, _) in &mut s.terrains {
            deal(p, true, F_SIDE0 + k)?;
        }
        for (p, _) in &mut s.units {
            deal(p, false, F_SIDE0 + k)?;
        }
    }
    if spare_terrain.next().is_some() || spare_units.next().is_some() {
        return Err(f.error(
            F_PILES,
            "cards of the set are missing: name them or show them as hidden (?)",
        ));
    }
    Ok(hidden)
}

/// One side's plain data, its hidden orders given the first cards and places that fit (the
/// caller redraws them).
fn side_value(s: &SideText<'_>) -> Value {
    let cards = |h: &[(Place, bool)]| h.iter().map(|(p, _)| p.value()).collect::<Vec<_>>();
    let secret: Vec<Value> = s
        .terrains
        .iter()
        .chain(&s.units)
        .filter(|(_, secret)| *secret)
        .map(|(p, _)| p.value())
        .collect();
    let free_rows = (0..3u64).filter(|&r| s.rows.get(r as usize).is_none_or(Value::is_null));
    let mut free_rows = free_rows.map(|r| r + 1);
    let mut terrains = s.terrains.iter().map(|(p, _)| p.value());
    let placing: Vec<Value> = s
        .placing
        .iter()
        .map(|o| match o {
            Some((c, r)) => json!({"card": c, "row": r}),
            None => json!({"card": terrains.next(), "row": free_rows.next()}),
        })
        .collect();
    let mut free_cells = CELLS.iter().filter(|c| !s.field.contains_key(**c));
    let mut units = s.units.iter().map(|(p, _)| p.value());
    let deploying: Vec<Value> = s
        .deploying
        .iter()
        .map(|o| match o {
            Some((c, x)) => json!({"card": c, "cell": x}),
            None => json!({"card": units.next(), "cell": free_cells.next()}),
        })
        .collect();
    let mut field = Map::new();
    for cell in CELLS {
        field.insert(
            cell.into(),
            s.field.get(cell).cloned().unwrap_or(Value::Null),
        );
    }
    let pick = match s.pick {
        None => Value::Null,
        Some(Some((c, r))) => json!({"card": c, "row": r}),
        Some(None) => json!({"card": s.victory.first(), "row": 1}),
    };
    json!({
        "terrains": cards(&s.terrains),
        "units": cards(&s.units),
        "secret": secret,
        "rows": s.rows,
        "field": field,
        "placing": placing,
        "deploying": deploying,
        "victory": s.victory,
        "defeated": s.defeated,
        "pick": pick,
    })
}

fn read_side<'a>(f: &Fields<'a>, i: usize) -> Result<SideText<'a>> {
    let p: Vec<&'a str> = f.field(i).split('/').collect();
    let [terrains, units, rows, field, placing, deploying, victory, defeated, pick] = p[..] else {
        return Err(f.error(i, "expected 9 parts separated by '/'"));
    };
    let hand = |t: &str| -> Vec<(Place, bool)> {
        list(t)
            .into_iter()
            .map(|c| match (c, c.strip_suffix('*')) {
                ("?", _) => (Place::Hidden, true),
                (_, Some(c)) => (Place::Card(c.to_string()), true),
                (c, None) => (Place::Card(c.to_string()), false),
            })
            .collect()
    };
    let rows: Vec<Value> = rows
        .split(',')
        .map(|r| {
            if r == "." {
                Value::Null
            } else {
                Value::from(r)
            }
        })
        .collect();
    if rows.len() != 3 {
        return Err(f.error(
            i,
            "the rows are three places separated by ',' (. for empty)",
        ));
    }
    let mut cells = Map::new();
    for item in list(field) {
        let (cell, c) = item
            .split_once('=')
            .ok_or_else(|| f.error(i, "field items are cell=card"))?;
        cells.insert(cell.to_string(), Value::from(c));
    }
    let row_of = |r: &str| -> Result<u64> {
        r.parse::<u64>()
            .map_err(|_| f.error(i, format!("expected a row 1, 2 or 3, found {:?}", clip(r))))
    };
    let at = |o: &'a str| -> Result<Option<(&'a str, &'a str)>> {
        if o == "?" {
            return Ok(None);
        }
        o.split_once('@')
            .map(Some)
            .ok_or_else(|| f.error(i, "orders are card@row or card@cell (? when hidden)"))
    };
    let mut placing_out = Vec::new();
    for o in list(placing) {
        placing_out.push(match at(o)? {
            Some((c, r)) => Some((c, row_of(r)?)),
            None => None,
        });
    }
    let mut deploying_out = Vec::new();
    for o in list(deploying) {
        deploying_out.push(at(o)?);
    }
    let pick = match pick {
        "-" => None,
        p => Some(match at(p)? {
            Some((c, r)) => Some((c, row_of(r)?)),
            None => None,
        }),
    };
    Ok(SideText {
        terrains: hand(terrains),
        units: hand(units),
        rows,
        field: cells,
        placing: placing_out,
        deploying: deploying_out,
        victory: list(victory),
        defeated: list(defeated),
        pick,
    })
}
