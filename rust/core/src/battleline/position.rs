//! The Battle Line position string (FEN-like; every field in `docs/battleline.md`):
//!
//! `flags hands troops tactics discard turn phase tactics_played leaders passes winner scout last [@viewer]`
//!
//! (`last`, each player's latest troop play, came later: a position without it still reads,
//! as one where neither player's latest turn was a troop play.)
//!
//! It is written from, and read into, the saved state's plain data (`json.rs`), so a position
//! is validated by the same one step as a saved state. A view position (`position(Some(p))`)
//! shows hidden cards as `?` (a hidden tactics card in a hand as `?T`; runs as `?5`) and ends
//! with `@p`; it loads with the hidden cards dealt out and then redrawn from a seed.
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)
)]

use super::cards::{Card, NUM_CARDS};
use super::state::{BattleLine, Options, NUM_FLAGS};
use crate::error::{Error, Result};
use crate::position::{join, list, Fields};
use serde_json::{json, Map, Value};

const FIELDS: &[&str] = &[
    "flags",
    "hands",
    "troops",
    "tactics",
    "discard",
    "turn",
    "phase",
    "tactics_played",
    "leaders",
    "passes",
    "winner",
    "scout",
    "last",
    "viewer",
];
const F_FLAGS: usize = 0;
const F_HANDS: usize = 1;
const F_TROOPS: usize = 2;
const F_TACTICS: usize = 3;
const F_DISCARD: usize = 4;
const F_TURN: usize = 5;
const F_PHASE: usize = 6;
const F_PLAYED: usize = 7;
const F_LEADERS: usize = 8;
const F_PASSES: usize = 9;
const F_WINNER: usize = 10;
const F_SCOUT: usize = 11;
const F_LAST: usize = 12;
const F_VIEWER: usize = 13;

/// The position of `g`: everything (`None`) or what `viewer` sees.
pub(crate) fn write(g: &BattleLine, viewer: Option<usize>) -> Result<String> {
    let v = match viewer {
        None => g.to_value(),
        Some(p) => g.view_value(p)?,
    };
    let bad = || Error::invalid("internal error: the saved state lacks a field");
    let get = |key: &str| v.get(key).ok_or_else(bad);
    let s = |x: &Value| x.as_str().unwrap_or("?").to_string();
    let arr = |x: &Value| x.as_array().cloned().unwrap_or_default();

    let flags = write_flags(&arr(get("flags")?))?;
    let hands = write_hands(
        &arr(get("hands")?),
        &v.get("hand_counts").map(arr).unwrap_or_default(),
    );
    let deck = |key: &str| -> Result<String> {
        let mut items = Vec::new();
        let mut hidden = 0usize;
        for c in arr(get(key)?) {
            if c.is_string() {
                items.extend(run("?", hidden));
                hidden = 0;
                items.push(s(&c));
            } else {
                hidden += 1;
            }
        }
        items.extend(run("?", hidden));
        Ok(join(items))
    };

    let phase = get("phase")?.as_str().unwrap_or("play").to_string();
    let phase = match v.get("scout").filter(|x| !x.is_null()) {
        Some(sc) => {
            let n = |k: &str| sc.get(k).and_then(Value::as_u64);
            let left = n("draws_left").or(n("returns_left")).unwrap_or(0);
            format!("{phase}:{}/{left}", n("drawn").unwrap_or(0))
        }
        None => phase,
    };
    let pair = |key: &str| -> Result<[Value; 2]> {
        let a = arr(get(key)?);
        Ok([
            a.first().cloned().unwrap_or_default(),
            a.get(1).cloned().unwrap_or_default(),
        ])
    };
    let [t0, t1] = pair("tactics_played")?;
    let [l0, l1] = pair("leader_played")?;
    let bit = |b: &Value| if b.as_bool() == Some(true) { "1" } else { "0" };
    let winner = match get("winner")?.as_u64() {
        Some(w) => w.to_string(),
        None => "-".into(),
    };

    let scout = write_scout(&arr(get("scout_known")?));
    let last = write_last(&arr(get("last_troop_play")?));

    let mut fields = vec![
        flags.join("/"),
        hands.join("/"),
        deck("troop_deck")?,
        deck("tactics_deck")?,
        join(arr(get("discard")?).iter().map(s)),
        get("to_move")?.to_string(),
        phase,
        format!("{t0}/{t1}"),
        format!("{}{}", bit(&l0), bit(&l1)),
        get("pass_streak")?.to_string(),
        winner,
        scout,
        last,
    ];
    if let Some(p) = viewer {
        fields.push(format!("@{p}"));
    }
    Ok(fields.join(" "))
}

fn text_of(x: &Value) -> String {
    x.as_str().unwrap_or("?").to_string()
}

fn items_of(x: &Value) -> Vec<Value> {
    x.as_array().cloned().unwrap_or_default()
}

/// The flags field: `side0:side1` card lists with `~F0` (environment), `^p` (first
/// complete) and `#p` (claimed) marks, flags separated by `/`.
fn write_flags(flags: &[Value]) -> Result<Vec<String>> {
    let bad = || Error::invalid("internal error: the saved state lacks a field");
    let (s, arr) = (text_of, items_of);
    let mut out = Vec::new();
    for f in flags {
        let sides = arr(f.get("sides").ok_or_else(bad)?);
        let mut text = sides
            .iter()
            .map(|side| arr(side).iter().map(s).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
            .join(":");
        for e in f.get("env").map(arr).unwrap_or_default() {
            let card = e.get("card").map(s).unwrap_or_default();
            let side = e.get("side").and_then(Value::as_u64).unwrap_or(0);
            text.push('~');
            text.push_str(card.get(..1).unwrap_or("?"));
            text.push_str(&side.to_string());
        }
        if let Some(p) = f.get("first_complete").and_then(Value::as_u64) {
            text.push_str(&format!("^{p}"));
        }
        if let Some(p) = f.get("claimed").and_then(Value::as_u64) {
            text.push_str(&format!("#{p}"));
        }
        out.push(text);
    }
    Ok(out)
}

/// The hands field: known cards, then hidden runs (`?n` troops, `?Tn` tactics).
fn write_hands(hands: &[Value], counts: &[Value]) -> Vec<String> {
    let (s, arr) = (text_of, items_of);
    let mut out = Vec::new();
    for (p, hand) in hands.iter().enumerate() {
        let cards = arr(hand);
        let known: Vec<String> = cards.iter().filter(|c| c.is_string()).map(s).collect();
        let tactics_total = counts
            .get(p)
            .and_then(|c| c.get("tactics"))
            .and_then(Value::as_u64)
            .unwrap_or(0) as usize;
        let known_tactics = known
            .iter()
            .filter(|c| Card::parse(c).is_ok_and(|c| c.is_tactics()))
            .count();
        let hidden = cards.len() - known.len();
        let hidden_tactics = tactics_total.saturating_sub(known_tactics).min(hidden);
        let mut items = known;
        items.extend(run("?", hidden - hidden_tactics));
        items.extend(run("?T", hidden_tactics));
        out.push(join(items));
    }
    out
}

/// The scout field: per player `troops;tactics;cards` known through Scout, or `-`.
fn write_scout(known: &[Value]) -> String {
    let (s, arr) = (text_of, items_of);
    let mut scout = Vec::new();
    for k in known {
        let nums = |key: &str| {
            join(
                k.get(key)
                    .map(arr)
                    .unwrap_or_default()
                    .iter()
                    .map(|n| n.to_string()),
            )
        };
        let opp = join(
            k.get("opponent_hand")
                .map(arr)
                .unwrap_or_default()
                .iter()
                .map(s),
        );
        scout.push(format!(
            "{};{};{}",
            nums("troop_deck"),
            nums("tactics_deck"),
            opp
        ));
    }
    if scout.iter().all(|k| k == "-;-;-") {
        "-".to_string()
    } else {
        scout.join("/")
    }
}

/// The last field: each player's latest troop play `card@flag`, or `-`.
fn write_last(plays: &[Value]) -> String {
    if plays.iter().all(Value::is_null) {
        "-".to_string()
    } else {
        plays
            .iter()
            .map(|lp| match (lp.get("card"), lp.get("flag")) {
                (Some(c), Some(f)) => format!("{}@{f}", text_of(c)),
                _ => "-".into(),
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// `n` hidden cards as run tokens (`?`, `?5`; `?T`, `?T2`).
fn run(mark: &str, n: usize) -> Vec<String> {
    match n {
        0 => Vec::new(),
        1 => vec![mark.to_string()],
        n => vec![format!("{mark}{n}")],
    }
}

/// A card slot in a position: a card, or hidden (a troop or, in a hand, a tactics card).
#[derive(Clone, Copy, PartialEq)]
enum Slot {
    Card(Card),
    HiddenTroop,
    HiddenTactics,
}

/// The game a position describes (see the module docs).
pub(crate) fn read(text: &str, options: &Options, seed: u64) -> Result<BattleLine> {
    let f = Fields::split("battleline", text, FIELDS, 2)?;
    // A position written before the `last` field has the viewer in its place.
    let (last, viewer_field) = match f.get(F_LAST) {
        Some(t) if t.starts_with('@') => match f.get(F_VIEWER) {
            None => (None, F_LAST),
            Some(_) => return Err(f.error(F_LAST, "expected `-` or the last troop plays `p0/p1`")),
        },
        t => (t, F_VIEWER),
    };
    let viewer = match f.get(viewer_field) {
        None => None,
        Some("@0") => Some(0usize),
        Some("@1") => Some(1),
        Some(_) => return Err(f.error(viewer_field, "expected @0 or @1")),
    };
    let flags = read_flags(&f)?;

    // hands and decks
    let hand_texts: Vec<&str> = f.field(F_HANDS).split('/').collect();
    let [h0, h1] = hand_texts.as_slice() else {
        return Err(f.error(F_HANDS, "expected two hands separated by '/'"));
    };
    let mut hands = [slots(&f, F_HANDS, h0, true)?, slots(&f, F_HANDS, h1, true)?];
    let mut troops = slots(&f, F_TROOPS, f.field(F_TROOPS), false)?;
    let mut tactics: Vec<Slot> = slots(&f, F_TACTICS, f.field(F_TACTICS), false)?
        .into_iter()
        .map(|s| match s {
            Slot::HiddenTroop => Slot::HiddenTactics,
            s => s,
        })
        .collect();
    let discard = list(f.field(F_DISCARD))
        .into_iter()
        .map(|c| Card::parse(c).map_err(|e| f.error(F_DISCARD, e)))
        .collect::<Result<Vec<Card>>>()?;

    deal_hidden(
        &f,
        &flags,
        &mut hands,
        &mut troops,
        &mut tactics,
        &discard,
        viewer,
    )?;
    let names = |slots: &[Slot]| -> Vec<Value> {
        slots
            .iter()
            .map(|s| match s {
                Slot::Card(c) => Value::from(c.to_string()),
                _ => Value::Null,
            })
            .collect()
    };

    let side = |i: usize, t: &str| -> Result<u8> {
        match t {
            "0" => Ok(0),
            "1" => Ok(1),
            _ => Err(f.error(i, "expected 0 or 1")),
        }
    };
    let (phase, scout) = read_phase(&f)?;
    let pair = |i: usize| -> Result<[u8; 2]> {
        f.field(i)
            .split_once('/')
            .and_then(|(a, b)| Some([a.parse().ok()?, b.parse().ok()?]))
            .ok_or_else(|| f.error(i, "expected two counts a/b"))
    };
    let leaders = match f.field(F_LEADERS) {
        "00" => [false, false],
        "01" => [false, true],
        "10" => [true, false],
        "11" => [true, true],
        _ => return Err(f.error(F_LEADERS, "expected two digits 0/1 (00, 01, 10, 11)")),
    };
    let passes: u8 = f
        .field(F_PASSES)
        .parse()
        .map_err(|_| f.error(F_PASSES, "expected a count"))?;
    let winner = match f.field(F_WINNER) {
        "-" => Value::Null,
        t => side(F_WINNER, t)?.into(),
    };
    let scout_known = read_scout_known(&f)?;
    let last_troop_play = read_last(&f, last)?;

    let state = json!({
        "options": options,
        "flags": flags,
        "hands": hands.iter().map(|h| names(h)).collect::<Vec<_>>(),
        "troop_deck": names(&troops),
        "tactics_deck": names(&tactics),
        "discard": discard.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "to_move": side(F_TURN, f.field(F_TURN))?,
        "phase": phase,
        "scout": scout,
        "tactics_played": pair(F_PLAYED)?,
        "leader_played": leaders,
        "pass_streak": passes,
        "winner": winner,
        "scout_known": scout_known,
        "last_troop_play": last_troop_play,
    });
    let g = BattleLine::from_value(&state).map_err(|e| match e {
        Error::State { path, message } => Error::state(
            format!("position ({})", path.trim_start_matches("$.")),
            message,
        ),
        e => e,
    })?;
    match viewer {
        Some(p) => g.resample(p, seed),
        None => Ok(g),
    }
}

/// A list of card slots (field `i`): cards and hidden runs `?n` (`?Tn` too where
/// `tactics_mark`).
fn slots(f: &Fields<'_>, i: usize, text: &str, tactics_mark: bool) -> Result<Vec<Slot>> {
    let mut out = Vec::new();
    for item in list(text) {
        if let Some(rest) = item.strip_prefix('?') {
            let (kind, count) = match rest.strip_prefix('T') {
                Some(n) if tactics_mark => (Slot::HiddenTactics, n),
                _ => (Slot::HiddenTroop, rest),
            };
            let n: usize = if count.is_empty() {
                1
            } else {
                count
                    .parse()
                    .ok()
                    .filter(|&n| n <= NUM_CARDS)
                    .ok_or_else(|| f.error(i, format!("bad hidden run {item:?}")))?
            };
            out.extend(std::iter::repeat_n(kind, n));
        } else {
            let c = Card::parse(item).map_err(|e| f.error(i, e))?;
            out.push(Slot::Card(c));
        }
    }
    Ok(out)
}

/// The flags field as the saved state's `flags`.
fn read_flags(f: &Fields<'_>) -> Result<Vec<Value>> {
    let flag_texts: Vec<&str> = f.field(F_FLAGS).split('/').collect();
    if flag_texts.len() != NUM_FLAGS {
        return Err(f.error(
            F_FLAGS,
            format!(
                "expected 9 flags separated by '/', found {}",
                flag_texts.len()
            ),
        ));
    }
    let mut flags = Vec::new();
    for (n, ft) in flag_texts.iter().enumerate() {
        let cut = ft.find(['~', '^', '#']).unwrap_or(ft.len());
        let (sides_text, marks) = ft.split_at(cut);
        let sides: Vec<&str> = sides_text.split(':').collect();
        let [s0, s1] = sides.as_slice() else {
            return Err(f.error(F_FLAGS, format!("flag {n}: expected side0:side1")));
        };
        let mut flag = Map::new();
        let cards = |t: &str| -> Result<Vec<Value>> {
            list(t)
                .into_iter()
                .map(|c| {
                    Card::parse(c)
                        .map(|c| Value::from(c.to_string()))
                        .map_err(|e| f.error(F_FLAGS, format!("flag {n}: {e}")))
                })
                .collect()
        };
        flag.insert("sides".into(), json!([cards(s0)?, cards(s1)?]));
        let mut env = Vec::new();
        let mut rest = marks;
        while let Some(mark) = rest.chars().next() {
            let bad = || f.error(F_FLAGS, format!("flag {n}: bad mark in {marks:?}"));
            let body = rest.get(1..).unwrap_or_default();
            let (arg, side, len) = match mark {
                '~' => {
                    let mut ch = body.chars();
                    (ch.next().ok_or_else(bad)?, ch.next().ok_or_else(bad)?, 3)
                }
                '^' | '#' => (' ', body.chars().next().ok_or_else(bad)?, 2),
                _ => return Err(bad()),
            };
            let side = match side {
                '0' => 0,
                '1' => 1,
                _ => return Err(bad()),
            };
            match (mark, arg) {
                ('~', 'F') => env.push(json!({"card": "Fog", "side": side})),
                ('~', 'M') => env.push(json!({"card": "Mud", "side": side})),
                ('^', _) => {
                    flag.insert("first_complete".into(), side.into());
                }
                ('#', _) => {
                    flag.insert("claimed".into(), side.into());
                }
                _ => return Err(bad()),
            }
            rest = rest.get(len..).unwrap_or_default();
        }
        flag.insert("env".into(), Value::Array(env));
        flags.push(Value::Object(flag));
    }
    Ok(flags)
}

/// Deal the hidden places (`?`) the cards no field names (their order is redrawn later);
/// every card must then be somewhere (BL-1.4).
fn deal_hidden(
    f: &Fields<'_>,
    flags: &[Value],
    hands: &mut [Vec<Slot>; 2],
    troops: &mut Vec<Slot>,
    tactics: &mut Vec<Slot>,
    discard: &[Card],
    viewer: Option<usize>,
) -> Result<()> {
    let hidden = hands
        .iter()
        .chain([&*troops, &*tactics])
        .flatten()
        .any(|s| matches!(s, Slot::HiddenTroop | Slot::HiddenTactics));
    if hidden && viewer.is_none() {
        return Err(f.error(
            F_HANDS,
            "hidden cards (?) need the viewer field (@0 or @1) at the end",
        ));
    }
    let mut named = [false; NUM_CARDS];
    let mut mark = |c: Card| {
        if let Some(m) = named.get_mut(c.id()) {
            *m = true;
        }
    };
    let listed = |v: Option<&Value>| v.and_then(Value::as_array).cloned().unwrap_or_default();
    for flag in flags {
        let sides = listed(flag.get("sides"));
        let env = listed(flag.get("env"));
        let env_cards = env.iter().filter_map(|e| e.get("card"));
        for c in sides
            .iter()
            .flat_map(|s| listed(Some(s)))
            .chain(env_cards.cloned())
        {
            if let Some(c) = c.as_str().and_then(|t| Card::parse(t).ok()) {
                mark(c);
            }
        }
    }
    for s in hands.iter().chain([&*troops, &*tactics]).flatten() {
        if let Slot::Card(c) = s {
            mark(*c);
        }
    }
    discard.iter().for_each(|&c| mark(c));
    let mut spare_troops = (0..NUM_CARDS as u8)
        .map(Card)
        .filter(|c| c.is_troop() && !named.get(c.id()).copied().unwrap_or(true));
    let mut spare_tactics = (0..NUM_CARDS as u8)
        .map(Card)
        .filter(|c| c.is_tactics() && !named.get(c.id()).copied().unwrap_or(true));
    for s in hands
        .iter_mut()
        .flatten()
        .chain(troops.iter_mut())
        .chain(tactics.iter_mut())
    {
        let (spare, what): (&mut dyn Iterator<Item = Card>, &str) = match s {
            Slot::Card(_) => continue,
            Slot::HiddenTroop => (&mut spare_troops, "troop"),
            Slot::HiddenTactics => (&mut spare_tactics, "tactics"),
        };
        *s = Slot::Card(spare.next().ok_or_else(|| {
            Error::state(
                "position",
                format!("more hidden {what} places (?) than {what} cards left unnamed"),
            )
        })?);
    }
    if spare_troops.next().is_some() || spare_tactics.next().is_some() {
        return Err(Error::state(
            "position",
            "some cards are nowhere: every card lies on a flag, in a hand, a deck or the discard (BL-1.4)",
        ));
    }
    Ok(())
}

/// The phase field: a phase, or a Scout step with its counters (`scout_draw:1/2`).
fn read_phase<'a>(f: &Fields<'a>) -> Result<(&'a str, Value)> {
    let phase_text = f.field(F_PHASE);
    Ok(match phase_text.split_once(':') {
        None => (phase_text, Value::Null),
        Some((phase, counts)) => {
            let (drawn, left) = counts
                .split_once('/')
                .and_then(|(d, l)| Some((d.parse::<u8>().ok()?, l.parse::<u8>().ok()?)))
                .ok_or_else(|| f.error(F_PHASE, "expected phase:drawn/left"))?;
            let key = match phase {
                "scout_draw" => "draws_left",
                "scout_return" => "returns_left",
                _ => return Err(f.error(F_PHASE, "only Scout's steps carry counters")),
            };
            (phase, json!({"drawn": drawn, key: left}))
        }
    })
}

/// The scout field as the saved state's `scout_known`.
fn read_scout_known(f: &Fields<'_>) -> Result<Value> {
    Ok(match f.field(F_SCOUT) {
        "-" => json!([{}, {}]),
        t => {
            let parts: Vec<&str> = t.split('/').collect();
            let mut out = Vec::new();
            for p in &parts {
                let lists: Vec<&str> = p.split(';').collect();
                let [troop, tact, opp] = lists.as_slice() else {
                    return Err(f.error(F_SCOUT, "expected troops;tactics;cards per player"));
                };
                let nums = |t: &str| -> Result<Vec<u64>> {
                    list(t)
                        .into_iter()
                        .map(|n| n.parse().map_err(|_| f.error(F_SCOUT, "bad deck position")))
                        .collect()
                };
                let opp = list(opp)
                    .into_iter()
                    .map(|c| {
                        Card::parse(c)
                            .map(|c| c.to_string())
                            .map_err(|e| f.error(F_SCOUT, e))
                    })
                    .collect::<Result<Vec<_>>>()?;
                out.push(json!({
                    "troop_deck": nums(troop)?,
                    "tactics_deck": nums(tact)?,
                    "opponent_hand": opp,
                }));
            }
            if out.len() != 2 {
                return Err(f.error(F_SCOUT, "expected '-' or two players separated by '/'"));
            }
            Value::Array(out)
        }
    })
}

/// The last field as the saved state's `last_troop_play` (absent: no troop plays).
fn read_last(f: &Fields<'_>, last: Option<&str>) -> Result<Value> {
    Ok(match last {
        None | Some("-") => json!([null, null]),
        Some(t) => {
            let bad = || {
                f.error(
                    F_LAST,
                    "expected `-` or `p0/p1`, each `-` or a troop play like `R10@3`",
                )
            };
            let (a, b) = t.split_once('/').ok_or_else(bad)?;
            let play = |x: &str| -> Result<Value> {
                if x == "-" {
                    return Ok(Value::Null);
                }
                let (c, n) = x.split_once('@').ok_or_else(bad)?;
                let card = Card::parse(c).map_err(|e| f.error(F_LAST, e))?;
                let flag: u8 = n.parse().map_err(|_| bad())?;
                Ok(json!({"card": card.to_string(), "flag": flag}))
            };
            json!([play(a)?, play(b)?])
        }
    })
}
