//! The content: the ability vocabulary (ZN-9 to ZN-11), the roster, maps and modes (ZN-1 to
//! ZN-3) as data, their loading errors, and the reference set's coverage of every mechanic.

use std::collections::BTreeSet;

use crate::error::Error;
use crate::hex::{Hex, Shape};
use crate::zinordia::ability::*;
use crate::zinordia::content::*;

fn reference() -> std::sync::Arc<Content> {
    Content::reference().expect("the reference content loads")
}

fn roster_src(text: &str) -> Source<'_> {
    Source {
        name: "my_roster.toml",
        text,
    }
}

/// Load a roster with the reference maps and modes.
fn load_roster_text(text: &str) -> Result<Content, Error> {
    let maps: Vec<(&str, Source)> = REFERENCE_MAPS
        .iter()
        .map(|(id, t)| {
            (
                *id,
                Source {
                    name: "maps",
                    text: t,
                },
            )
        })
        .collect();
    Content::load(
        roster_src(text),
        &maps,
        Source {
            name: "modes.toml",
            text: REFERENCE_MODES,
        },
    )
}

/// Load the reference roster and maps with these modes.
fn load_modes_text(text: &str) -> Result<Content, Error> {
    let maps: Vec<(&str, Source)> = REFERENCE_MAPS
        .iter()
        .map(|(id, t)| {
            (
                *id,
                Source {
                    name: "maps",
                    text: t,
                },
            )
        })
        .collect();
    Content::load(
        roster_src(REFERENCE_ROSTER),
        &maps,
        Source {
            name: "my_modes.toml",
            text,
        },
    )
}

fn data_error(r: Result<Content, Error>) -> (String, String) {
    match r {
        Err(Error::Data { place, message }) => (place, message),
        Err(e) => panic!("expected a data error, got {e}"),
        Ok(_) => panic!("expected a data error, the content loaded"),
    }
}

/// A one-Star roster whose first ability is `first` (TOML lines) and whose other three are
/// plain and valid.
fn star_with(first: &str) -> String {
    let filler = |id: &str| {
        format!(
            "[[stars.abilities]]\nid = \"{id}\"\nname = \"{id}\"\nkind = \"instant\"\n\
             self_effects = [{{ kind = \"heal\", base = 1 }}]\n"
        )
    };
    format!(
        "[[stars]]\nid = \"tester\"\nname = \"Tester\"\nvida = 10\namago = 5\narmadura = 1\n\
         agilidade = 3\npoder_fisico = 2\npoder_magico = 2\n\n[[stars.abilities]]\n{first}\n{}{}{}",
        filler("b"),
        filler("c"),
        filler("d")
    )
}

#[test]
fn zn_3_1_reference_content_loads() {
    let c = reference();
    assert!(c.stars.len() >= 12, "{} Stars", c.stars.len());
    for s in &c.stars {
        assert_eq!(s.abilities.len(), 4, "{}", s.id);
    }
    let ids: Vec<&str> = c.modes.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["duel", "free_for_all", "teams"]);
    let duel = c.mode("duel").unwrap();
    assert_eq!(
        (duel.players.as_slice(), duel.stars, duel.teams),
        (&[2u8][..], 3, false)
    );
    let ffa = c.mode("free_for_all").unwrap();
    assert_eq!((ffa.min_players(), ffa.max_players(), ffa.stars), (3, 4, 2));
    let teams = c.mode("teams").unwrap();
    assert!(teams.teams);
    assert_eq!(
        (
            teams.team_of(0),
            teams.team_of(1),
            teams.team_of(2),
            teams.team_of(3)
        ),
        (0, 1, 0, 1)
    );
    assert_eq!(teams.num_teams(4), 2);
    assert_eq!(ffa.num_teams(4), 4);
}

#[test]
fn zn_2_1_reference_maps_have_voids_obstacles_and_fit_64_zones() {
    let c = reference();
    assert_eq!(c.maps.len(), 3);
    for m in &c.maps {
        let map = &m.map;
        assert!(map.len() <= MAX_ZONES, "{}: {} zones", m.id, map.len());
        let obstacles = map.zones().filter(|&h| !map.is_open(h)).count();
        assert!(obstacles > 0, "{} has no obstacle", m.id);
        // Void inside the battlefield: a hex that is no zone, with zones left and right of it
        // in its row.
        let (q0, q1, r0, r1) = map.bounds().unwrap();
        let voids = (r0..=r1)
            .flat_map(|r| (q0..=q1).map(move |q| Hex::new(q, r)))
            .filter(|h| !map.contains(*h))
            .filter(|h| {
                let row: Vec<i32> = map.zones().filter(|z| z.y == h.y).map(|z| z.x).collect();
                row.iter().any(|&q| q < h.x) && row.iter().any(|&q| q > h.x)
            })
            .count();
        assert!(voids > 0, "{} has no void", m.id);
        // Every open zone is reachable from every other: no Star can be walled in.
        let open: Vec<Hex> = map.zones().filter(|&h| map.is_open(h)).collect();
        let reach = map.reachable(open[0], 1000).unwrap();
        assert_eq!(reach.len(), open.len(), "{} is not connected", m.id);
    }
}

#[test]
fn zn_4_4_reference_maps_place_every_mode() {
    // Loading checks it; here the numbers are spelt out for the duel map.
    let c = reference();
    let arena = &c.map("arena").unwrap().map;
    assert_eq!(arena.tagged(START).len(), 3);
    assert_eq!(arena.tagged(PRIVILEGE).len(), 3);
    assert_eq!(arena.tagged(RENOWN).len(), 3);
    // The duel map is fair: a half-turn about its centre swaps start and privilege zones and
    // keeps obstacles, voids and Renown zones.
    let (_, _, r0, r1) = arena.bounds().unwrap();
    let centre_sum = |h: Hex| (h.x * 2 + h.y, h.y); // doubled-width column, row
    let zones: Vec<Hex> = arena.zones().collect();
    let cols: Vec<i32> = zones.iter().map(|&h| centre_sum(h).0).collect();
    let (c0, c1) = (*cols.iter().min().unwrap(), *cols.iter().max().unwrap());
    for &h in &zones {
        let (col, row) = centre_sum(h);
        let (col2, row2) = (c0 + c1 - col, r0 + r1 - row);
        let q2 = (col2 - row2) / 2;
        let m = Hex::new(q2, row2);
        assert!(arena.contains(m), "({}, {}) has no mirror zone", h.x, h.y);
        assert_eq!(arena.is_open(h), arena.is_open(m));
        assert_eq!(arena.has_tag(h, RENOWN), arena.has_tag(m, RENOWN));
        assert_eq!(arena.has_tag(h, START), arena.has_tag(m, PRIVILEGE));
    }
}

/// Exhaustive matches: adding a variant to the vocabulary fails to compile here until the
/// coverage test below accounts for it.
fn kind_no(k: Kind) -> usize {
    match k {
        Kind::Attack => 0,
        Kind::Instant => 1,
        Kind::Passive => 2,
        Kind::Reaction => 3,
    }
}
fn trigger_no(t: Trigger) -> usize {
    match t {
        Trigger::TurnStart => 0,
        Trigger::TurnEnd => 1,
        Trigger::Damaged => 2,
        Trigger::DealDamage => 3,
        Trigger::Targeted => 4,
        Trigger::EnemyEnters => 5,
        Trigger::AllyDefeated => 6,
        Trigger::Kill => 7,
        Trigger::Collision => 8,
        Trigger::WhileAdjacentAlly => 9,
        Trigger::WhileAdjacentEnemy => 10,
        Trigger::WhileAlone => 11,
    }
}
fn target_no(t: Target) -> usize {
    match t {
        Target::User => 0,
        Target::Ally => 1,
        Target::Enemy => 2,
        Target::Star => 3,
        Target::Zone => 4,
        Target::EmptyZone => 5,
        Target::Direction => 6,
        Target::Source => 7,
    }
}
fn shape_no(s: AreaShape) -> usize {
    match s {
        AreaShape::Single => 0,
        AreaShape::Radius => 1,
        AreaShape::Ring => 2,
        AreaShape::Line => 3,
        AreaShape::Cone => 4,
    }
}
fn affects_no(a: Affects) -> usize {
    match a {
        Affects::Enemies => 0,
        Affects::Allies => 1,
        Affects::AlliesAndSelf => 2,
        Affects::All => 3,
        Affects::AllButSelf => 4,
    }
}
fn resource_no(r: Resource) -> usize {
    match r {
        Resource::Vida => 0,
        Resource::Amago => 1,
        Resource::Renown => 2,
    }
}
fn immunity_no(i: Immunity) -> usize {
    match i {
        Immunity::Damage => 0,
        Immunity::ForcedMove => 1,
        Immunity::Debuff => 2,
        Immunity::Mark => 3,
        Immunity::Silence => 4,
        Immunity::AmagoLoss => 5,
    }
}
fn scope_no(s: SilenceScope) -> usize {
    match s {
        SilenceScope::All => 0,
        SilenceScope::Attacks => 1,
        SilenceScope::Instants => 2,
        SilenceScope::Reactions => 3,
    }
}

/// Every mechanic of the vocabulary, as the names the coverage table in docs/zinordia.md uses.
fn mechanics_of(a: &Ability) -> BTreeSet<String> {
    let mut m = BTreeSet::new();
    m.insert(format!("kind:{}", kind_no(a.kind)));
    if let Some(t) = a.trigger {
        m.insert(format!("trigger:{}", trigger_no(t)));
    }
    m.insert(format!("target:{}", target_no(a.target)));
    m.insert(format!("area:{}", shape_no(a.area.shape)));
    if let Some(x) = a.affects {
        m.insert(format!("affects:{}", affects_no(x)));
    }
    if a.cost > 0 {
        m.insert("cost".into());
    }
    if let Some(c) = a.extra_cost {
        m.insert(format!("extra_cost:{}", resource_no(c.resource)));
    }
    if let Some(c) = a.alt_cost {
        m.insert(format!("alt_cost:{}", resource_no(c.resource)));
    }
    if a.repeat > 1 {
        m.insert("repeat".into());
    }
    if a.ultra_rapid {
        m.insert("ultra_rapid".into());
    }
    if a.attack_bonus != 0 {
        m.insert("attack_bonus".into());
    }
    if !a.on_miss.is_empty() {
        m.insert("on_miss".into());
    }
    if !a.self_effects.is_empty() {
        m.insert("self_effects".into());
    }
    for e in a.all_effects() {
        m.insert(format!("effect:{}", e.kind()));
        if let Some(x) = e.amount() {
            match x.power {
                Some(Power::Fisico) => m.insert("power:fisico".into()),
                Some(Power::Magico) => m.insert("power:magico".into()),
                None => m.insert("power:none".into()),
            };
            if x.factor > 1 {
                m.insert("factor".into());
            }
            if x.divisor > 1 {
                m.insert("divisor".into());
            }
        }
        match e {
            Effect::Damage { hits, .. } if *hits > 1 => {
                m.insert("hits".into());
            }
            Effect::Stat {
                stat,
                amount,
                duration,
                stacks,
            } => {
                m.insert(format!("stat:{}", stat.name()));
                m.insert(if *amount > 0 { "buff" } else { "debuff" }.into());
                if *stat == Stat::Agilidade && *amount < 0 {
                    m.insert("agility_reduction".into());
                }
                if duration.is_none() {
                    m.insert("untimed_stat".into());
                }
                if !stacks {
                    m.insert("no_stack".into());
                }
            }
            Effect::Silence {
                scope, passives, ..
            } => {
                m.insert(format!("silence:{}", scope_no(*scope)));
                if *passives {
                    m.insert("silence_passives".into());
                }
            }
            Effect::Push {
                on_collision,
                collision_to,
                ..
            }
            | Effect::Pull {
                on_collision,
                collision_to,
                ..
            } => {
                if !on_collision.is_empty() {
                    m.insert("on_collision".into());
                }
                if *collision_to == CollisionTo::Both {
                    m.insert("collision_both".into());
                }
            }
            Effect::Immune { to, .. } => {
                m.insert(format!("immune:{}", immunity_no(*to)));
            }
            Effect::Renown { op, .. } => {
                m.insert(format!("renown:{op:?}"));
            }
            Effect::Amago { amount, drain } => {
                m.insert(
                    if *drain {
                        "drain"
                    } else if *amount > 0 {
                        "amago_gain"
                    } else {
                        "amago_loss"
                    }
                    .into(),
                );
            }
            Effect::Dash { path, .. } if !path.is_empty() => {
                m.insert("dash_path".into());
            }
            Effect::If {
                marked,
                target_vida_at_most,
                user_adjacent_ally,
                consume,
                ..
            } => {
                if marked.is_some() {
                    m.insert("if:marked".into());
                }
                if target_vida_at_most.is_some() {
                    m.insert("if:target_vida_at_most".into());
                }
                if user_adjacent_ally.is_some() {
                    m.insert("if:user_adjacent_ally".into());
                }
                if *consume {
                    m.insert("if:consume".into());
                }
            }
            _ => {}
        }
    }
    m
}

#[test]
fn zn_10_reference_roster_covers_every_mechanic() {
    let c = reference();
    let mut used = BTreeSet::new();
    for s in &c.stars {
        for a in &s.abilities {
            used.extend(mechanics_of(a));
        }
    }
    let mut want: Vec<String> = Vec::new();
    want.extend((0..4).map(|i| format!("kind:{i}")));
    want.extend((0..12).map(|i| format!("trigger:{i}")));
    want.extend((0..8).map(|i| format!("target:{i}")));
    want.extend((0..5).map(|i| format!("area:{i}")));
    want.extend((0..5).map(|i| format!("affects:{i}")));
    want.extend(["extra_cost:0", "extra_cost:2", "alt_cost:0", "alt_cost:2"].map(String::from));
    want.extend((0..6).map(|i| format!("immune:{i}")));
    want.extend((0..4).filter(|&i| i != 2).map(|i| format!("silence:{i}")));
    want.extend(STATS.iter().map(|s| format!("stat:{}", s.name())));
    for e in [
        "damage", "heal", "stat", "mark", "silence", "push", "pull", "immune", "renown", "amago",
        "dot", "leap", "dash", "if",
    ] {
        want.push(format!("effect:{e}"));
    }
    want.extend(
        [
            "cost",
            "repeat",
            "ultra_rapid",
            "attack_bonus",
            "on_miss",
            "self_effects",
            "power:fisico",
            "power:magico",
            "power:none",
            "factor",
            "divisor",
            "hits",
            "buff",
            "debuff",
            "agility_reduction",
            "untimed_stat",
            "no_stack",
            "silence_passives",
            "on_collision",
            "collision_both",
            "renown:Transfer",
            "renown:Steal",
            "drain",
            "amago_gain",
            "amago_loss",
            "dash_path",
            "if:marked",
            "if:target_vida_at_most",
            "if:user_adjacent_ally",
            "if:consume",
        ]
        .map(String::from),
    );
    let missing: Vec<&String> = want.iter().filter(|w| !used.contains(*w)).collect();
    assert!(
        missing.is_empty(),
        "the reference roster never uses {missing:?}"
    );
}

#[test]
fn zn_8_3_amounts_round_down() {
    let a = Amount {
        base: 1,
        power: Some(Power::Magico),
        factor: 3,
        divisor: 2,
    };
    // 1 + 5 * 3 / 2 = 1 + 7 (7.5 rounded down).
    assert_eq!(a.value(0, 5), 8);
    // A negative power counts as 0.
    assert_eq!(a.value(0, -3), 1);
    let f = Amount {
        base: 0,
        power: Some(Power::Fisico),
        factor: 1,
        divisor: 2,
    };
    assert_eq!(f.value(3, 9), 1);
}

#[test]
fn zn_10_3_areas_are_hex_shapes() {
    let a = Area {
        shape: AreaShape::Cone,
        size: 2,
    };
    assert_eq!(
        a.shape(1),
        Shape::Cone {
            direction: 1,
            length: 2
        }
    );
    assert_eq!(a.shape(1).hexes(Hex::ZERO).len(), 2 + 3);
    let r = Area {
        shape: AreaShape::Ring,
        size: 2,
    };
    assert_eq!(r.shape(0).hexes(Hex::ZERO).len(), 12);
    assert_eq!(Area::default().shape(3), Shape::Single);
}

#[test]
fn zn_10_3_affects_filters_user_allies_enemies() {
    // (is_user, is_ally) for the user, an ally, an enemy.
    let who = [(true, true), (false, true), (false, false)];
    let table = [
        (Affects::Enemies, [false, false, true]),
        (Affects::Allies, [false, true, false]),
        (Affects::AlliesAndSelf, [true, true, false]),
        (Affects::All, [true, true, true]),
        (Affects::AllButSelf, [false, true, true]),
    ];
    for (a, want) in table {
        let got = who.map(|(u, al)| a.includes(u, al));
        assert_eq!(got, want, "{}", a.name());
    }
}

#[test]
fn zn_10_errors_name_file_star_ability_and_field() {
    // An unknown field inside an effect.
    let text = star_with(
        "id = \"zap\"\nname = \"Zap\"\nkind = \"attack\"\nrange = 2\ntarget = \"enemy\"\n\
         effects = [{ kind = \"damage\", base = 2, colour = \"red\" }]",
    );
    let (place, msg) = data_error(load_roster_text(&text));
    assert!(
        place.starts_with("my_roster.toml, Star \"tester\", ability \"zap\", field effects[0]"),
        "{place}"
    );
    assert!(msg.contains("colour"), "{msg}");
    // An unknown effect kind.
    let text = star_with(
        "id = \"zap\"\nname = \"Zap\"\nkind = \"attack\"\nrange = 2\ntarget = \"enemy\"\n\
         effects = [{ kind = \"teleport_foe\" }]",
    );
    let (place, msg) = data_error(load_roster_text(&text));
    assert!(
        place.contains("ability \"zap\", field effects[0]"),
        "{place}"
    );
    assert!(msg.contains("teleport_foe"), "{msg}");
    // A missing Star field.
    let text = star_with("id = \"zap\"\nname = \"Zap\"\nkind = \"instant\"\nself_effects = [{ kind = \"heal\", base = 1 }]")
        .replace("poder_magico = 2\n", "");
    let (place, msg) = data_error(load_roster_text(&text));
    assert_eq!(place, "my_roster.toml, Star \"tester\"");
    assert!(msg.contains("poder_magico"), "{msg}");
    // A wrong type in an ability's area.
    let text = star_with(
        "id = \"zap\"\nname = \"Zap\"\nkind = \"attack\"\nrange = 2\ntarget = \"zone\"\n\
         area = { shape = \"radius\", size = \"big\" }\neffects = [{ kind = \"damage\", base = 2 }]",
    );
    let (place, _) = data_error(load_roster_text(&text));
    assert!(
        place.ends_with("ability \"zap\", field area.size"),
        "{place}"
    );
}

#[test]
fn zn_10_validation_names_the_field() {
    let cases: [(&str, &str, &str); 14] = [
        (
            "kind = \"attack\"\ntrigger = \"damaged\"\nrange = 1\ntarget = \"enemy\"\neffects = [{ kind = \"damage\", base = 1 }]",
            "field trigger",
            "take no trigger",
        ),
        (
            "kind = \"reaction\"\neffects = [{ kind = \"damage\", base = 1 }]",
            "field trigger",
            "need a trigger",
        ),
        (
            "kind = \"passive\"\ntrigger = \"turn_start\"\ncost = 2\nself_effects = [{ kind = \"heal\", base = 1 }]",
            "field cost",
            "costs nothing",
        ),
        (
            "kind = \"attack\"\nrange = 0\ntarget = \"enemy\"\neffects = [{ kind = \"damage\", base = 1 }]",
            "field range",
            "at least 1",
        ),
        (
            "kind = \"attack\"\nrange = 2\ntarget = \"enemy\"\narea = { shape = \"line\", size = 2 }\neffects = [{ kind = \"damage\", base = 1 }]",
            "field area.shape",
            "direction",
        ),
        (
            "kind = \"attack\"\nrange = 2\ntarget = \"enemy\"\neffects = [{ kind = \"damage\", base = 1, divisor = 0, power = \"fisico\" }]",
            "field effects[0].divisor",
            "1 to 10",
        ),
        (
            "kind = \"attack\"\nrange = 2\ntarget = \"enemy\"\neffects = [{ kind = \"damage\" }]",
            "field effects[0]",
            "base or a power",
        ),
        (
            "kind = \"instant\"\nself_effects = [{ kind = \"push\", distance = 1 }]",
            "field self_effects[0]",
            "push and pull",
        ),
        (
            "kind = \"attack\"\nrange = 2\ntarget = \"enemy\"\neffects = [{ kind = \"stat\", stat = \"armadura\", amount = 0 }]",
            "field effects[0].amount",
            "non-zero",
        ),
        (
            "kind = \"instant\"\nrange = 2\ntarget = \"ally\"\neffects = [{ kind = \"renown\", op = \"steal\", amount = 1 }]",
            "field effects[0].op",
            "theft",
        ),
        (
            "kind = \"attack\"\nrange = 1\ntarget = \"enemy\"\neffects = [{ kind = \"push\", distance = 1, on_collision = [{ kind = \"mark\", mark = \"x\", duration = 0 }] }]",
            "field effects[0].on_collision[0].duration",
            "1 to 12",
        ),
        (
            "kind = \"instant\"\nrange = 2\ntarget = \"enemy\"\nrepeat = 0\neffects = [{ kind = \"damage\", base = 1 }]",
            "field repeat",
            "1 to 6",
        ),
        (
            "kind = \"passive\"\ntrigger = \"while_alone\"\neffects = [{ kind = \"heal\", base = 1 }]",
            "field effects[0].kind",
            "stat changes",
        ),
        (
            "kind = \"instant\"\nrange = 2\ntarget = \"zone\"\neffects = [{ kind = \"heal\", base = 1 }]",
            "field area",
            "affects nothing",
        ),
    ];
    for (body, field, why) in cases {
        let text = star_with(&format!("id = \"zap\"\nname = \"Zap\"\n{body}"));
        let (place, msg) = data_error(load_roster_text(&text));
        assert!(
            place.ends_with(&format!("Star \"tester\", ability \"zap\", {field}")),
            "{body}\n→ {place}: {msg}"
        );
        assert!(msg.contains(why), "{body}\n→ {msg}");
    }
}

#[test]
fn zn_1_1_star_checks() {
    // Three abilities only.
    let text = star_with("id = \"a\"\nname = \"a\"\nkind = \"instant\"\nself_effects = [{ kind = \"heal\", base = 1 }]");
    let cut = text.rfind("[[stars.abilities]]").unwrap();
    let (place, msg) = data_error(load_roster_text(&text[..cut]));
    assert_eq!(place, "my_roster.toml, Star \"tester\", field abilities");
    assert!(msg.contains("exactly 4"), "{msg}");
    // Vida 0.
    let text = star_with("id = \"a\"\nname = \"a\"\nkind = \"instant\"\nself_effects = [{ kind = \"heal\", base = 1 }]")
        .replace("vida = 10", "vida = 0");
    let (place, _) = data_error(load_roster_text(&text));
    assert_eq!(place, "my_roster.toml, Star \"tester\", field vida");
    // Two abilities with one id.
    let text = star_with("id = \"b\"\nname = \"a\"\nkind = \"instant\"\nself_effects = [{ kind = \"heal\", base = 1 }]");
    let (place, msg) = data_error(load_roster_text(&text));
    assert!(place.ends_with("ability \"b\", field id"), "{place}");
    assert!(msg.contains("share"), "{msg}");
    // Two Stars with one id (ZN-1.2 needs the Name unique).
    let one = star_with("id = \"a\"\nname = \"a\"\nkind = \"instant\"\nself_effects = [{ kind = \"heal\", base = 1 }]");
    let (place, msg) = data_error(load_roster_text(&format!("{one}\n{one}")));
    assert_eq!(place, "my_roster.toml, Star \"tester\", field id");
    assert!(msg.contains("two Stars"), "{msg}");
}

#[test]
fn zn_11_3_a_misspelt_mark_is_refused() {
    let text = star_with(
        "id = \"zap\"\nname = \"Zap\"\nkind = \"attack\"\nrange = 2\ntarget = \"enemy\"\n\
         effects = [{ kind = \"if\", marked = \"burnt\", then = [{ kind = \"damage\", base = 1 }] }]",
    );
    let (place, msg) = data_error(load_roster_text(&text));
    assert!(
        place.ends_with("Star \"tester\", ability \"zap\", field if.marked"),
        "{place}"
    );
    assert!(msg.contains("\"burnt\""), "{msg}");
}

#[test]
fn zn_10_toml_syntax_errors_give_line_and_column() {
    let (place, _) = data_error(load_roster_text("[[stars]]\nid = \"x\"\nvida = = 3\n"));
    assert!(place.starts_with("my_roster.toml line 3 column"), "{place}");
    let (place, msg) = data_error(load_roster_text("[[heroes]]\nid = \"x\"\n"));
    assert_eq!(place, "my_roster.toml");
    assert!(msg.contains("\"heroes\""), "{msg}");
}

#[test]
fn zn_10_error_messages_bound_user_text() {
    let long = "x".repeat(5000);
    let text = star_with("id = \"a\"\nname = \"a\"\nkind = \"instant\"\nself_effects = [{ kind = \"heal\", base = 1 }]")
        .replace("id = \"tester\"", &format!("id = \"{long}\""));
    let (place, msg) = data_error(load_roster_text(&text));
    assert!(place.len() + msg.len() < 300, "{place}: {msg}");
}

#[test]
fn zn_3_1_mode_checks() {
    let base = "[[modes]]\nid = \"m\"\nname = \"M\"\nplayers = [2]\nstars = 3\nmaps = [\"arena\"]\nmarkers = 3\ntarget = 4\n";
    assert!(load_modes_text(base).is_ok());
    let cases = [
        (
            base.replace("target = 4", "target = 7"),
            "field target",
            "unreachable",
        ),
        (
            base.replace("maps = [\"arena\"]", "maps = [\"atlantis\"]"),
            "field maps[0]",
            "no map",
        ),
        (
            base.replace("markers = 3", "markers = 5"),
            "field maps[0]",
            "renown zones",
        ),
        (
            base.replace("stars = 3", "stars = 4"),
            "field maps[0]",
            "start",
        ),
        (
            base.replace("players = [2]", "players = [5]"),
            "field players",
            "2 to 4",
        ),
        (
            base.replace("players = [2]", "players = [2]\nteams = true"),
            "field players",
            "2 v 2",
        ),
        (
            base.replace("stars = 3", "stars = 0"),
            "field stars",
            "1 to 6",
        ),
        (
            base.replace("target = 4", "target = 4\nwinner = 1"),
            "field ",
            "winner",
        ),
    ];
    for (text, field, why) in cases {
        let (place, msg) = data_error(load_modes_text(&text));
        assert!(place.starts_with("my_modes.toml, mode \"m\", "), "{place}");
        assert!(place.contains(field), "{place}");
        assert!(msg.contains(why), "{place}: {msg}");
    }
    let (place, msg) = data_error(load_modes_text(&format!("{base}\n{base}")));
    assert_eq!(place, "my_modes.toml, mode \"m\"");
    assert!(msg.contains("two modes"), "{msg}");
}

#[test]
fn zn_2_1_a_map_over_64_zones_is_refused() {
    let row = ". ".repeat(9);
    let picture: String = (0..8)
        .map(|l| format!("{}{}\n", if l % 2 == 1 { " " } else { "" }, row.trim_end()))
        .collect();
    let text = format!(
        "picture = '''\n{picture}'''\n[legend]\n\".\" = \"plain\"\n[terrain]\nplain = {{}}\n"
    );
    let maps = [(
        "big",
        Source {
            name: "big.toml",
            text: &text,
        },
    )];
    let r = Content::load(
        roster_src(REFERENCE_ROSTER),
        &maps,
        Source {
            name: "modes.toml",
            text: REFERENCE_MODES,
        },
    );
    let (place, msg) = data_error(r);
    assert_eq!(place, "big.toml, map \"big\"");
    assert!(msg.contains("at most 64 zones"), "{msg}");
}

#[test]
fn zn_10_6_repeat_on_an_ability_that_can_never_be_used_twice_is_refused() {
    let plain = "id = \"a\"\nname = \"a\"\nkind = \"attack\"\nrange = 1\ntarget = \"enemy\"\nrepeat = 2\neffects = [{ kind = \"damage\", base = 1 }]";
    let (what, why) = data_error(load_roster_text(&star_with(plain)));
    assert!(
        what.contains("field repeat") && why.contains("ultra_rapid"),
        "{what}: {why}"
    );
    let rapid = format!("{plain}\nultra_rapid = true");
    // Ultra-rapid: repeat 2 passes (a one-Star roster may fail later, not on repeat).
    if let Err(Error::Data { place, .. }) = load_roster_text(&star_with(&rapid)) {
        assert!(!place.contains("repeat"), "{place}");
    }
    let thrice = rapid.replace("repeat = 2", "repeat = 3");
    let (what, _) = data_error(load_roster_text(&star_with(&thrice)));
    assert!(what.contains("field repeat"), "{what}");
}
