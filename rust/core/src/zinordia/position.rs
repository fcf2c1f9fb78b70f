//! The Zinordia position string (FEN-like; every field in `docs/zinordia.md`):
//!
//! `content state rng picks order rolls stars markers play offers resume roll [@viewer]`
//!
//! Written from, and read into, the saved state's plain data (`json.rs`), so a position is
//! validated by the same one step as a saved state. The content (roster, maps, modes) is not
//! written: the first field names it, `ref` for the reference content or `custom:` and a
//! digest of the options' TOML texts, and a position of custom content is refused unless the
//! same content comes through the options. A view position shows the dice stream and the
//! secret picks the viewer may not see as `?` and ends with `@p`; it loads with the hidden
//! picks given Stars the team has not picked, then redrawn from a seed as `resample_hidden`
//! does.
#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use super::{Options, Zinordia};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::position::{arr, bit, clip, in_position, items, join, list, num, rng_field, Fields};
use serde_json::{json, Map, Value};

const FIELDS: &[&str] = &[
    "content", "state", "rng", "picks", "order", "rolls", "stars", "markers", "play", "offers",
    "resume", "roll", "viewer",
];
const F_CONTENT: usize = 0;
const F_STATE: usize = 1;
const F_RNG: usize = 2;
const F_PICKS: usize = 3;
const F_ORDER: usize = 4;
const F_ROLLS: usize = 5;
const F_STARS: usize = 6;
const F_MARKERS: usize = 7;
const F_PLAY: usize = 8;
const F_OFFERS: usize = 9;
const F_RESUME: usize = 10;
const F_ROLL: usize = 11;
const F_VIEWER: usize = 12;

/// The content field of `options`: `ref`, or `custom:` and a digest of its TOML texts.
fn content_tag(options: &Options) -> String {
    if !options.custom_content() {
        return "ref".into();
    }
    // FNV-1a (64 bits) of the texts as JSON: stable across machines and versions, unlike
    // std's hasher; a tag, not a security measure. The terrain kinds join the three other
    // texts only when given, so a digest of earlier custom content stays the same.
    let three = (
        &options.roster_toml,
        &options.maps_toml,
        &options.modes_toml,
    );
    let text = match &options.terrain_toml {
        None => serde_json::to_string(&three),
        Some(terrain) => serde_json::to_string(&(three.0, three.1, three.2, terrain)),
    }
    .unwrap_or_default();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("custom:{h:016x}")
}

/// A name as written in a position (Star ids, marks and triggers come from the content):
/// only the plain ones can be.
fn name(v: Option<&Value>) -> Result<String> {
    let s = v.and_then(Value::as_str).unwrap_or("?");
    if s.is_empty()
        || !s
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-'))
    {
        return Err(Error::invalid(format!(
            "the name {:?} cannot be written in a position (letters, digits, _ - only)",
            clip(s)
        )));
    }
    Ok(s.to_string())
}

fn zone(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).unwrap_or("-").to_string()
}

/// Items joined by `sep`, `-` when there are none.
fn joined(items: Vec<String>, sep: &str) -> String {
    if items.is_empty() {
        "-".into()
    } else {
        items.join(sep)
    }
}

/// The position of `g`: everything (`None`) or what `viewer` sees.
pub(crate) fn write(g: &Zinordia, viewer: Option<usize>) -> Result<String> {
    let v = g.json_as(viewer);
    let get = |k: &str| v.get(k);
    let state = format!(
        "{}:{}:{}:{}",
        get("phase").and_then(Value::as_str).unwrap_or("?"),
        num(get("round")),
        num(get("turn")),
        num(get("winner"))
    );
    let rng = get("rng")
        .and_then(Value::as_str)
        .map_or_else(|| "?".to_string(), str::to_string);
    let mut picks = Vec::new();
    for p in arr(get("picks")) {
        let ids = arr(Some(&p))
            .iter()
            .map(|id| match id {
                Value::Null => Ok("?".to_string()),
                id => name(Some(id)),
            })
            .collect::<Result<Vec<_>>>()?;
        picks.push(join(ids));
    }
    let order = join(arr(get("order")).iter().map(|p| num(Some(p))));
    let rolls = joined(
        arr(get("rolls"))
            .iter()
            .map(|r| {
                join(arr(Some(r)).iter().map(|pair| {
                    let pair = arr(Some(pair));
                    format!("{}.{}", num(pair.first()), num(pair.get(1)))
                }))
            })
            .collect(),
        "/",
    );
    let mut stars = Vec::new();
    for s in arr(get("stars")) {
        stars.push(write_star(&s)?);
    }
    let stars = joined(stars, "/");
    let markers = joined(
        arr(get("markers")).iter().map(|z| zone(Some(z))).collect(),
        ";",
    );
    let play = match get("play").filter(|p| !p.is_null()) {
        None => "-".to_string(),
        Some(p) => format!(
            "{}:{}:{}:{}",
            num(p.get("star")),
            num(p.get("moved")),
            bit(p.get("activated")),
            num(p.get("activations"))
        ),
    };
    let mut offers = Vec::new();
    for o in arr(get("offers")) {
        offers.push(format!(
            "{}:{}:{}",
            num(o.get("star")),
            name(o.get("trigger"))?,
            num(o.get("source"))
        ));
    }
    let offers = joined(offers, "/");
    let resume = match get("resume")
        .and_then(|r| r.get("kind"))
        .and_then(Value::as_str)
    {
        Some("activation") => {
            let r = get("resume");
            format!(
                "activation:{}:{}:{}",
                num(r.and_then(|r| r.get("star"))),
                num(r.and_then(|r| r.get("ability"))),
                zone(r.and_then(|r| r.get("target")))
            )
        }
        Some("resolution") => {
            let r = get("resume");
            let field = |k: &str| r.and_then(|r| r.get(k));
            let mut steps = Vec::new();
            for st in arr(field("steps")) {
                let path = join(arr(st.get("path")).iter().map(|i| num(Some(i))));
                steps.push(format!(
                    "{}.{}.{}.{}.{}",
                    num(st.get("star")),
                    name(st.get("list"))?,
                    path,
                    num(st.get("next")),
                    num(st.get("hits"))
                ));
            }
            format!(
                "resolution:{}:{}:{}:{}",
                num(field("star")),
                num(field("ability")),
                zone(field("target")),
                joined(steps, ";")
            )
        }
        Some(kind) => kind.to_string(),
        None => "?".to_string(),
    };
    let roll = match get("last_roll").filter(|r| !r.is_null()) {
        None => "-".to_string(),
        Some(r) => {
            let dice = arr(r.get("dice"));
            let defences = arr(r.get("defences"))
                .iter()
                .map(|d| {
                    format!(
                        "{}.{}.{}.{}",
                        num(d.get("star")),
                        num(d.get("die")),
                        num(d.get("total")),
                        bit(d.get("hit"))
                    )
                })
                .collect();
            format!(
                "{}.{}:{}:{}",
                num(dice.first()),
                num(dice.get(1)),
                num(r.get("total")),
                joined(defences, ";")
            )
        }
    };
    let mut fields = vec![
        content_tag(g.options()),
        state,
        rng,
        joined(picks, "/"),
        order,
        rolls,
        stars,
        markers,
        play,
        offers,
        resume,
        roll,
    ];
    if let Some(p) = viewer {
        fields.push(format!("@{p}"));
    }
    Ok(fields.join(" "))
}

/// One Star: `id@zone:vida.amago.armadura.renown:defeated played:uses:effects`.
fn write_star(s: &Value) -> Result<String> {
    let mut effects = Vec::new();
    for e in arr(s.get("effects")) {
        let st = e.get("status");
        let field = |k: &str| st.and_then(|s| s.get(k));
        let status = match field("kind").and_then(Value::as_str) {
            Some("stat") => format!(
                "stat.{}.{}.{}",
                name(field("stat"))?,
                num(field("amount")),
                bit(field("stacks"))
            ),
            Some("mark") => format!("mark.{}", name(field("mark"))?),
            Some("silence") => format!(
                "silence.{}.{}",
                name(field("scope"))?,
                bit(field("passives"))
            ),
            Some("immune") => format!("immune.{}", name(field("class"))?),
            Some("dot") => format!("dot.{}", num(field("amount"))),
            _ => return Err(Error::invalid("an effect of an unknown kind")),
        };
        effects.push(format!(
            "{status}>{}.{}.{}",
            num(e.get("applier")),
            num(e.get("by")),
            num(e.get("turns"))
        ));
    }
    Ok(format!(
        "{}@{}:{}.{}.{}.{}:{}{}:{}:{}",
        name(s.get("star"))?,
        zone(s.get("zone")),
        num(s.get("vida")),
        num(s.get("amago")),
        num(s.get("armadura")),
        num(s.get("renown")),
        bit(s.get("defeated")),
        bit(s.get("played")),
        arr(s.get("uses"))
            .iter()
            .map(|u| num(Some(u)))
            .collect::<Vec<_>>()
            .join(","),
        joined(effects, ";")
    ))
}

/// Every number of a position is small: far above any real one, and never an overflow.
const LIMIT: u64 = 100_000;

/// The game a position describes (see the module docs).
pub(crate) fn read(text: &str, options: &Options, seed: u64) -> Result<Zinordia> {
    let f = Fields::split("zinordia", text, FIELDS, 1)?;
    let viewer = f.viewer(F_VIEWER, 8)?;
    check_content(&f, options)?;
    let int = |i: usize, t: &str| f.int(i, t, LIMIT).map(Value::from);
    let mut m = Map::new();
    m.insert(
        "options".into(),
        serde_json::to_value(options).unwrap_or_default(),
    );
    let [phase, round, turn, winner] = f.parts(F_STATE, f.field(F_STATE), 4, ':')?[..] else {
        return Err(f.error(F_STATE, "expected phase:round:turn:winner"));
    };
    m.insert("phase".into(), Value::from(phase));
    m.insert("round".into(), int(F_STATE, round)?);
    m.insert("turn".into(), int(F_STATE, turn)?);
    m.insert("winner".into(), f.int_or_null(F_STATE, winner, LIMIT)?);
    m.insert("rng".into(), rng_field(f.field(F_RNG), seed));
    let (picks, hidden_picks) = read_picks(&f, options)?;
    m.insert("picks".into(), json!(picks));
    let order = list(f.field(F_ORDER))
        .into_iter()
        .map(|p| int(F_ORDER, p))
        .collect::<Result<Vec<_>>>()?;
    m.insert("order".into(), Value::from(order));
    m.insert("rolls".into(), read_rolls(&f)?);
    let stars = items(f.field(F_STARS), '/')
        .into_iter()
        .map(|s| read_star(&f, s))
        .collect::<Result<Vec<_>>>()?;
    m.insert("stars".into(), Value::from(stars));
    let markers: Vec<Value> = items(f.field(F_MARKERS), ';')
        .into_iter()
        .map(Value::from)
        .collect();
    m.insert("markers".into(), Value::from(markers));
    m.insert("play".into(), read_play(&f)?);
    let mut offers = Vec::new();
    for o in items(f.field(F_OFFERS), '/') {
        let [star, trigger, source] = f.parts(F_OFFERS, o, 3, ':')?[..] else {
            return Err(f.error(F_OFFERS, "an offer is star:trigger:source"));
        };
        offers.push(json!({
            "star": int(F_OFFERS, star)?,
            "trigger": trigger,
            "source": f.int_or_null(F_OFFERS, source, LIMIT)?,
        }));
    }
    m.insert("offers".into(), Value::from(offers));
    m.insert("resume".into(), read_resume(&f)?);
    m.insert("last_roll".into(), read_roll(&f)?);

    if hidden_picks && viewer.is_none() {
        return Err(f.error(
            F_RNG,
            "hidden parts (?) need the viewer field (@ and a player) at the end",
        ));
    }
    let g = Zinordia::from_json(&Value::Object(m)).map_err(in_position)?;
    Ok(match viewer {
        Some(p) if p < g.num_players() => g.resample_hidden(p, seed),
        Some(_) => return Err(f.error(F_VIEWER, "no such player in this game")),
        None => g,
    })
}

/// The content field must name the options' content (`ref` or the same `custom:` digest).
fn check_content(f: &Fields<'_>, options: &Options) -> Result<()> {
    let tag = content_tag(options);
    if f.field(F_CONTENT) == tag {
        return Ok(());
    }
    let why = match (f.field(F_CONTENT), tag.as_str()) {
        (t, _) if t != "ref" && !t.starts_with("custom:") => {
            "expected ref or custom:<digest>".to_string()
        }
        ("ref", _) => "a position of the reference content, but the options carry \
                       custom content (roster_toml, maps_toml, modes_toml or terrain_toml)"
            .to_string(),
        (_, "ref") => "a position of a game with custom content: pass the same \
                       roster_toml / maps_toml / modes_toml / terrain_toml options beside it"
            .to_string(),
        _ => "the options carry other custom content than this position's".to_string(),
    };
    Err(f.error(F_CONTENT, why))
}

/// A zone or `-` (none).
fn zone_of(t: &str) -> Value {
    if t == "-" {
        Value::Null
    } else {
        Value::from(t)
    }
}

/// The picks field; whether a pick is hidden. A hidden one (`?`) is given a Star its team
/// has not picked (redrawn after reading).
fn read_picks(f: &Fields<'_>, options: &Options) -> Result<(Vec<Vec<Option<String>>>, bool)> {
    let mut picks: Vec<Vec<Option<String>>> = items(f.field(F_PICKS), '/')
        .into_iter()
        .map(|p| {
            list(p)
                .into_iter()
                .map(|id| (id != "?").then(|| id.to_string()))
                .collect()
        })
        .collect();
    let hidden_picks = picks.iter().flatten().any(Option::is_none);
    if hidden_picks {
        let probe = Zinordia::new(0, options)?;
        let roster: Vec<String> = options
            .content()?
            .stars
            .iter()
            .map(|s| s.id.clone())
            .collect();
        let team = |p: usize| Game::team(&probe, p);
        for p in 0..picks.len() {
            let taken: Vec<String> = (0..picks.len())
                .filter(|&q| team(q) == team(p))
                .flat_map(|q| picks.get(q).cloned().unwrap_or_default())
                .flatten()
                .collect();
            let mut spare = roster.iter().filter(|id| !taken.contains(id)).cloned();
            if let Some(list) = picks.get_mut(p) {
                for pick in list.iter_mut().filter(|x| x.is_none()) {
                    *pick = Some(spare.next().ok_or_else(|| {
                        f.error(F_PICKS, "more hidden picks (?) than Stars left to pick")
                    })?);
                }
            }
        }
    }
    Ok((picks, hidden_picks))
}

/// The rolls field: per roll, `side.die` pairs.
fn read_rolls(f: &Fields<'_>) -> Result<Value> {
    let mut rolls = Vec::new();
    for r in items(f.field(F_ROLLS), '/') {
        let mut pairs = Vec::new();
        for pair in list(r) {
            let [side, die] = f.parts(F_ROLLS, pair, 2, '.')?[..] else {
                return Err(f.error(F_ROLLS, "rolls are side.die pairs"));
            };
            pairs.push(json!([
                f.int(F_ROLLS, side, LIMIT)?,
                f.int(F_ROLLS, die, LIMIT)?
            ]));
        }
        rolls.push(Value::from(pairs));
    }
    Ok(Value::from(rolls))
}

/// One Star of the stars field: `id@zone:vida.amago.armadura.renown:flags:uses:effects`.
fn read_star(f: &Fields<'_>, s: &str) -> Result<Value> {
    let i = F_STARS;
    let int = |t: &str| f.int(i, t, LIMIT);
    let [head, counts, flags, uses, effects] = f.parts(i, s, 5, ':')?[..] else {
        return Err(f.error(
            i,
            "a Star is id@zone:vida.amago.armadura.renown:flags:uses:effects",
        ));
    };
    let (id, at) = head
        .split_once('@')
        .ok_or_else(|| f.error(i, "a Star starts id@zone"))?;
    let [vida, amago, armadura, renown] = f.parts(i, counts, 4, '.')?[..] else {
        return Err(f.error(i, "expected vida.amago.armadura.renown"));
    };
    let (defeated, played) = flags.split_at_checked(1).unwrap_or(("", ""));
    let effs = items(effects, ';')
        .into_iter()
        .map(|e| read_effect(f, e))
        .collect::<Result<Vec<_>>>()?;
    Ok(json!({
        "star": id,
        "zone": zone_of(at),
        "vida": int(vida)?,
        "amago": int(amago)?,
        "armadura": int(armadura)?,
        "renown": int(renown)?,
        "defeated": f.flag(i, defeated)?,
        "played": f.flag(i, played)?,
        "effects": effs,
        "uses": uses.split(',').map(int).collect::<Result<Vec<_>>>()?,
    }))
}

/// One effect on a Star: `status>applier.by.turns`.
fn read_effect(f: &Fields<'_>, e: &str) -> Result<Value> {
    let i = F_STARS;
    let int = |t: &str| f.int(i, t, LIMIT);
    let (status, rest) = e
        .split_once('>')
        .ok_or_else(|| f.error(i, "an effect is status>applier.by.turns"))?;
    let [applier, by, turns] = f.parts(i, rest, 3, '.')?[..] else {
        return Err(f.error(i, "expected applier.by.turns"));
    };
    let st: Vec<&str> = status.split('.').collect();
    let status = match st[..] {
        ["stat", stat, amount, stacks] => json!({
            "kind": "stat", "stat": stat, "amount": int(amount)?,
            "stacks": f.flag(i, stacks)?,
        }),
        ["mark", mark] => json!({"kind": "mark", "mark": mark}),
        ["silence", scope, passives] => json!({
            "kind": "silence", "scope": scope, "passives": f.flag(i, passives)?,
        }),
        ["immune", class] => json!({"kind": "immune", "class": class}),
        ["dot", amount] => json!({"kind": "dot", "amount": int(amount)?}),
        _ => return Err(f.error(i, format!("unknown effect {:?}", clip(status)))),
    };
    Ok(json!({
        "status": status,
        "applier": int(applier)?,
        "by": int(by)?,
        "turns": f.int_or_null(i, turns, LIMIT)?,
    }))
}

/// The play field: `star:moved:activated:activations` or `-`.
fn read_play(f: &Fields<'_>) -> Result<Value> {
    let t = f.field(F_PLAY);
    if t == "-" {
        return Ok(Value::Null);
    }
    let [star, moved, activated, activations] = f.parts(F_PLAY, t, 4, ':')?[..] else {
        return Err(f.error(F_PLAY, "expected star:moved:activated:activations"));
    };
    Ok(json!({
        "star": f.int(F_PLAY, star, LIMIT)?,
        "moved": f.int(F_PLAY, moved, LIMIT)?,
        "activated": f.flag(F_PLAY, activated)?,
        "activations": f.int(F_PLAY, activations, LIMIT)?,
    }))
}

/// The resume field: `main`, `end_turn`, `activation:star:ability:zone` or
/// `resolution:star:ability:zone:steps`.
fn read_resume(f: &Fields<'_>) -> Result<Value> {
    let int = |t: &str| f.int(F_RESUME, t, LIMIT);
    Ok(match f.field(F_RESUME) {
        "main" => json!({"kind": "main"}),
        "end_turn" => json!({"kind": "end_turn"}),
        t if t.starts_with("resolution:") => {
            let [_, star, ability, target, steps] = f.parts(F_RESUME, t, 5, ':')?[..] else {
                return Err(f.error(F_RESUME, "expected resolution:star:ability:zone:steps"));
            };
            let mut list = Vec::new();
            for st in items(steps, ';') {
                let [star, root, path, next, hits] = f.parts(F_RESUME, st, 5, '.')?[..] else {
                    return Err(f.error(F_RESUME, "a step is star.list.path.next.hits"));
                };
                let path = items(path, ',')
                    .into_iter()
                    .map(int)
                    .collect::<Result<Vec<_>>>()?;
                list.push(json!({
                    "star": int(star)?,
                    "list": root,
                    "path": path,
                    "next": int(next)?,
                    "hits": int(hits)?,
                }));
            }
            json!({
                "kind": "resolution",
                "star": int(star)?,
                "ability": int(ability)?,
                "target": zone_of(target),
                "steps": list,
            })
        }
        t => match f.parts(F_RESUME, t, 4, ':')?[..] {
            ["activation", star, ability, target] => json!({
                "kind": "activation",
                "star": int(star)?,
                "ability": int(ability)?,
                "target": target,
            }),
            _ => {
                return Err(f.error(
                    F_RESUME,
                    "expected main, end_turn, activation:star:ability:zone or \
                     resolution:star:ability:zone:steps",
                ))
            }
        },
    })
}

/// The roll field: `die.die:total:defences` or `-`.
fn read_roll(f: &Fields<'_>) -> Result<Value> {
    let int = |t: &str| f.int(F_ROLL, t, LIMIT);
    let t = f.field(F_ROLL);
    if t == "-" {
        return Ok(Value::Null);
    }
    let [dice, total, defences] = f.parts(F_ROLL, t, 3, ':')?[..] else {
        return Err(f.error(F_ROLL, "expected die.die:total:defences"));
    };
    let [d1, d2] = f.parts(F_ROLL, dice, 2, '.')?[..] else {
        return Err(f.error(F_ROLL, "expected two dice die.die"));
    };
    let mut defs = Vec::new();
    for d in items(defences, ';') {
        let [star, die, total, hit] = f.parts(F_ROLL, d, 4, '.')?[..] else {
            return Err(f.error(F_ROLL, "a defence is star.die.total.hit"));
        };
        defs.push(json!({
            "star": int(star)?,
            "die": int(die)?,
            "total": int(total)?,
            "hit": f.flag(F_ROLL, hit)?,
        }));
    }
    Ok(json!({
        "dice": [int(d1)?, int(d2)?],
        "total": int(total)?,
        "defences": defs,
    }))
}
