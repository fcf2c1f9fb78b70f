//! Terrain kinds (ZN-2.9): the vocabulary as data, the cost to enter counted against
//! Agilidade (ZN-6.2), the attack and defence modifiers (ZN-7.2), sight on the map.

use super::abilities::{duel_with, play, stage, use_on, zone};
use super::*;
use crate::game::Game;
use crate::hex::coords::{distance, neighbors};
use crate::zinordia::ability::Stat;
use crate::zinordia::content::Source;
use crate::zinordia::terrain::Vocabulary;

fn kind_zones(g: &Zinordia, kind: &str) -> Vec<Hex> {
    g.shared
        .zones
        .iter()
        .copied()
        .filter(|&h| g.shared.map.terrain(h).is_some_and(|t| t.name == kind))
        .collect()
}

#[test]
fn zn_2_9_the_reference_maps_use_forest_and_hill() {
    let v = Vocabulary::reference().unwrap();
    let forest = &v.kinds["forest"];
    assert_eq!(
        (forest.cost, forest.defence, forest.blocks_sight),
        (2, 1, true)
    );
    let hill = &v.kinds["hill"];
    assert_eq!((hill.cost, hill.attack, hill.blocks_sight), (2, 1, false));
    for m in &Content::reference().unwrap().maps {
        for kind in ["forest", "hill"] {
            assert!(
                m.map
                    .zones()
                    .any(|h| m.map.terrain(h).unwrap().name == kind),
                "{} has no {kind}",
                m.id
            );
        }
        let forest_zone = m
            .map
            .zones()
            .position(|h| m.map.terrain(h).unwrap().name == "forest");
        assert_eq!(m.modifiers[forest_zone.unwrap()].defence, 1);
    }
}

#[test]
fn zn_2_9_a_vocabulary_is_validated() {
    let load = |text: &str| {
        Vocabulary::load(Source {
            name: "terrain.toml",
            text,
        })
    };
    assert!(load("[kinds.bog]\ncost = 3\ndefence = -1\n").is_ok());
    for bad in [
        "[kinds.bog]\nswampy = true\n",
        "[kinds.bog]\ncost = 0\n",
        "[kinds.bog]\nattack = 4\n",
        "[kinds.Bog]\n",
        "[kinds]\n",
    ] {
        let e = load(bad).unwrap_err().to_string();
        assert!(e.contains("terrain.toml"), "{e}");
    }
}

#[test]
fn zn_2_9_a_map_terrain_must_match_the_vocabulary() {
    let v = Vocabulary::reference().unwrap();
    let map = |terrain: &str| {
        crate::hex::text::parse(
            &format!(
                "name = \"m\"\norientation = \"pointy\"\npicture = '''\n. f\n'''\n[legend]\n\".\" = \"plain\"\n\"f\" = \"forest\"\n[terrain]\nplain = {{}}\n{terrain}\n"
            ),
            "m",
        )
        .unwrap()
    };
    assert!(v
        .zone_modifiers(&map("forest = { cost = 2, blocks_sight = true }"))
        .is_ok());
    let cheap = v
        .zone_modifiers(&map("forest = { blocks_sight = true }"))
        .unwrap_err();
    assert!(cheap.contains("costs 2"), "{cheap}");
    assert!(v.zone_modifiers(&map("forest = { cost = 2 }")).is_err());
}

#[test]
fn zn_6_2_entering_a_forest_costs_two_zones_of_movement() {
    let mut g = duel_with(
        mode("duel", None),
        ["sylvara", "lumen", "oren"],
        ["grom", "kael", "nyra"],
    );
    let (f, from) = kind_zones(&g, "forest")
        .into_iter()
        .find_map(|f| {
            neighbors(f)
                .into_iter()
                .find(|&n| g.shared.map.terrain(n).is_some_and(|t| t.name == "plain"))
                .map(|n| (f, n))
        })
        .unwrap();
    // `duel_with` made every zone plain (positions fit anywhere): the forest back.
    g.board_mut().set_terrain(f, "forest").unwrap();
    stage(&mut g, &[(0, from)]);
    play(&mut g, 0);
    let agil = g.agilidade(0);
    let mv = Action::Move(zone(&g, f));
    g.play.as_mut().unwrap().moved = agil - 1;
    assert_eq!(g.board.cost(f), Some(2));
    assert!(!legal(&g).contains(&mv));
    assert!(g.check(mv).is_err());
    g.play.as_mut().unwrap().moved = agil - 2;
    assert!(legal(&g).contains(&mv));
    g.apply(mv).unwrap();
    assert_eq!(g.play.unwrap().moved, agil);
}

#[test]
fn zn_7_2_a_hill_helps_the_attack_and_a_forest_the_defence() {
    let g0 = duel_with(
        mode("duel", None),
        ["sylvara", "lumen", "oren"],
        ["grom", "kael", "nyra"],
    );
    let hills = kind_zones(&g0, "hill");
    let forests = kind_zones(&g0, "forest");
    let (h, f) = hills
        .iter()
        .flat_map(|&h| forests.iter().map(move |&f| (h, f)))
        .find(|&(h, f)| distance(h, f) <= 5)
        .unwrap();
    let plain = |g: &Zinordia, near: Hex, not: [Hex; 3]| {
        g.shared
            .zones
            .iter()
            .copied()
            .find(|&z| {
                !not.contains(&z)
                    && distance(z, near) <= 2
                    && g.shared.map.terrain(z).is_some_and(|t| t.name == "plain")
            })
            .unwrap()
    };
    // Terrain on both sides, then plain ground on both sides: the totals differ by the
    // modifiers and nothing else.
    let p_at = plain(&g0, h, [h, f, f]);
    let p_on = plain(&g0, p_at, [h, f, p_at]);
    for (at, on, bonus) in [(h, f, 1), (p_at, p_on, 0)] {
        let mut g = g0.clone();
        stage(&mut g, &[(0, at), (3, on)]);
        play(&mut g, 0);
        g.apply(use_on(&g, "flecha_certeira", on)).unwrap();
        while !g.offers.is_empty() {
            g.apply(Action::Decline).unwrap();
        }
        let r = g.last_roll.clone().unwrap();
        let ab = g
            .star_data(0)
            .abilities
            .iter()
            .find(|a| a.id == "flecha_certeira")
            .unwrap();
        let attack = i32::from(r.dice[0]) + i32::from(r.dice[1]) + i32::from(ab.attack_bonus);
        assert_eq!(r.total, attack + g.stat(0, Stat::Attack) + bonus);
        let d = &r.defences[0];
        let defence = i32::from(d.die) + i32::from(g.agilidade(3)) + g.stat(3, Stat::Defence);
        assert_eq!(d.total, defence + bonus);
    }
}

#[test]
fn zn_2_9_a_forest_blocks_sight_on_the_map_but_not_range() {
    // No Zinordia rule uses sight (ZN-2.5): the kind carries it for the map's
    // field_of_view and pictures.
    let g = game(mode("duel", None), 1);
    let map = &g.shared.map;
    let (from, beyond) = kind_zones(&g, "forest")
        .into_iter()
        .find_map(|f| {
            (0..6).find_map(|d| {
                let step = crate::hex::coords::DIRECTIONS[d];
                let (a, b) = (f - step, f + step);
                (map.is_open(a) && map.is_open(b)).then_some((a, b))
            })
        })
        .unwrap();
    assert!(!map.line_of_sight(from, beyond, false));
    assert!(!map.field_of_view(from, None, false).contains(&beyond));
}

#[test]
fn zn_6_2_moves_on_bitsets_equal_the_cheapest_paths() {
    // The two-cost sweep (forests and hills) against HexMap's Dijkstra, along random games.
    use crate::rng::GameRng;
    for seed in 0..20 {
        let mut g = game(mode("duel", None), seed);
        let mut rng = GameRng::seed(seed);
        for _ in 0..300 {
            if let (Some(p), Some(from)) = (g.play, g.play.and_then(|p| g.stars[p.star].zone)) {
                let left = g.agilidade(p.star).saturating_sub(p.moved);
                let bits = g.reach_bits(from, left).unwrap();
                let mut want = 0u64;
                for (h, _) in g.board.reachable(from, u64::from(left)).unwrap() {
                    want |= 1 << g.shared.zone_id(h).unwrap();
                }
                assert_eq!(bits, want);
            }
            let moves = legal(&g);
            if moves.is_empty() {
                break;
            }
            let a = moves[rng.roll(moves.len() as u32) as usize - 1];
            g.apply(a).unwrap();
        }
    }
}

/// The reference vocabulary with `forest`'s defence changed and a `bog` kind added.
fn own_terrain(forest_defence: i8) -> String {
    crate::zinordia::terrain::REFERENCE_TERRAIN.replace(
        "[kinds.forest]\ncost = 2\ndefence = 1\nblocks_sight = true\n",
        &format!(
            "[kinds.forest]\ncost = 2\ndefence = {forest_defence}\nblocks_sight = true\n\n\
             [kinds.bog]\ncost = 3\ndefence = -1\n"
        ),
    )
}

fn with_terrain(terrain: Option<String>) -> Options {
    Options {
        terrain_toml: terrain,
        ..Options::default()
    }
}

#[test]
fn zn_2_9_terrain_kinds_are_user_data() {
    // `terrain_toml` replaces the reference kinds: the reference maps' forests defend by 2.
    let text = own_terrain(2);
    assert_ne!(text, crate::zinordia::terrain::REFERENCE_TERRAIN);
    let g = <Zinordia as Game>::new(1, &with_terrain(Some(text.clone()))).unwrap();
    let forests = kind_zones(&g, "forest");
    assert!(!forests.is_empty());
    for f in forests {
        assert_eq!(g.shared.modifiers(Some(f)).defence, 2);
    }
    // A map of one's own using the new kind: entering a bog costs 3.
    let arena = crate::zinordia::content::REFERENCE_MAPS[0].1;
    let bog_map = arena
        .replace(". . .   . . . .", "b . .   . . . .")
        .replace("\"h\" = \"hill\"", "\"h\" = \"hill\"\n\"b\" = \"bog\"")
        .replace(
            "hill = { cost = 2 }",
            "hill = { cost = 2 }\nbog = { cost = 3 }",
        );
    assert_ne!(bog_map, arena);
    let opts = Options {
        terrain_toml: Some(text.clone()),
        maps_toml: Some(
            crate::zinordia::content::REFERENCE_MAPS
                .iter()
                .map(|(id, text)| {
                    let text = if *id == "arena" { &bog_map } else { *text };
                    (id.to_string(), text.to_string())
                })
                .collect(),
        ),
        ..Options::default()
    };
    let g = <Zinordia as Game>::new(1, &opts).unwrap();
    let bogs = kind_zones(&g, "bog");
    assert_eq!(bogs.len(), 1);
    assert_eq!(g.board.cost(bogs[0]), Some(3));
    assert_eq!(g.shared.modifiers(Some(bogs[0])).defence, -1);
    // The same map against the reference kinds: bog is not one of them.
    let e = <Zinordia as Game>::new(
        1,
        &Options {
            terrain_toml: None,
            ..opts.clone()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("map \"arena\"") && e.contains("not a kind of data/zinordia/terrain.toml"),
        "{e}"
    );
    // A saved state carries the kinds, and loads with them.
    let v = g.to_json();
    assert_eq!(v["options"]["terrain_toml"], serde_json::json!(text));
    let back = <Zinordia as Game>::from_json(&v).unwrap();
    assert_eq!(back.to_json(), v);
    assert_eq!(back.board.cost(bogs[0]), Some(3));
}

#[test]
fn zn_2_9_a_game_without_terrain_toml_is_written_as_before() {
    let g = game(Options::default(), 1);
    let v = g.to_json();
    assert!(v["options"].get("terrain_toml").is_none(), "{v}");
    let opts: Options = serde_json::from_value(serde_json::json!({"terrain_toml": null})).unwrap();
    assert_eq!(opts, Options::default());
}

#[test]
fn zn_2_9_bad_terrain_toml_is_refused_by_name() {
    // A broken vocabulary, one missing a kind the reference maps use, one too large: each a
    // data error naming terrain_toml, never a panic.
    let missing_forest =
        crate::zinordia::terrain::REFERENCE_TERRAIN.replace("[kinds.forest]", "[kinds.wood]");
    let huge = format!(
        "{}\n# {}\n",
        crate::zinordia::terrain::REFERENCE_TERRAIN,
        "x".repeat(5 << 20)
    );
    for (text, says) in [
        (
            "[kinds.bog]\ncost = 10\n".to_string(),
            "terrain_toml, kind \"bog\", field cost",
        ),
        ("[kinds.bog\n".to_string(), "terrain_toml line 1"),
        (missing_forest, "not a kind of terrain_toml"),
        (huge, "terrain_toml"),
    ] {
        let e = <Zinordia as Game>::new(1, &with_terrain(Some(text)))
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{e}");
        assert!(e.len() < 400, "{e:.400}");
    }
}
