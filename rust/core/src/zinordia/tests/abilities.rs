//! ZN-6.4, ZN-7, ZN-9 to ZN-12.4: activating abilities and reacting, on hand-built
//! positions with chosen Stars: costs, once per round, ultra-rapid, areas, push into a wall,
//! reactions during the opponent's turn, kills carrying Renown, silence, immunity, Renown
//! theft and transfer, leap and dash.

use super::*;
use crate::error::Error;
use crate::hex::coords::{distance, neighbors, DIRECTIONS};
use crate::rng::GameRng;
use crate::zinordia::ability::Stat;

pub(super) fn rule_of(r: crate::error::Result<()>) -> String {
    match r {
        Err(Error::IllegalAction { rule, .. }) => rule,
        other => panic!("expected an illegal action, got {other:?}"),
    }
}

/// A duel in its Main phase with these picks: seat 0's Stars are slots 0-2, seat 1's 3-5.
fn duel_of(p0: [&str; 3], p1: [&str; 3]) -> Zinordia {
    duel_with(mode("duel", None), p0, p1)
}

/// [`duel_of`] under these options (a duel's).
pub(super) fn duel_with(options: Options, p0: [&str; 3], p1: [&str; 3]) -> Zinordia {
    let mut g = game(options, 7);
    for id in p0.iter().chain(&p1) {
        let a = g.shared.parse_action(&format!("pick {id}")).unwrap();
        g.apply(a).unwrap();
    }
    through_setup(&mut g);
    // Rocks become plain zones so positions fit anywhere; void stays void.
    for h in g.shared.zones.clone() {
        g.board_mut().set_terrain(h, "plain").unwrap();
    }
    g
}

/// Whether `h` is a zone Stars may stand on (terrain only).
pub(super) fn walkable(g: &Zinordia, h: Hex) -> bool {
    g.board.contains(h)
        && !matches!(
            g.board.blocker(h),
            Some(crate::hex::Blocker::Void | crate::hex::Blocker::Obstacle)
        )
}

/// A zone `c` such that every `c + off` is walkable.
pub(super) fn spot(g: &Zinordia, offs: &[Hex]) -> Hex {
    g.shared
        .zones
        .iter()
        .copied()
        .find(|&c| offs.iter().all(|&o| walkable(g, c + o)) && walkable(g, c))
        .expect("a spot")
}

pub(super) fn dir(d: usize) -> Hex {
    DIRECTIONS[d]
}

/// Lift every Star, put the listed ones where given and the others on the zones farthest
/// from the first listed one (a hand-built position).
pub(super) fn stage(g: &mut Zinordia, places: &[(usize, Hex)]) {
    for s in 0..g.stars.len() {
        if let Some(h) = g.stars[s].zone.take() {
            g.board_mut().set_occupant(h, None).unwrap();
        }
    }
    for &(s, h) in places {
        put(g, s, h);
    }
    let anchor = places[0].1;
    let mut far: Vec<Hex> = g.shared.zones.clone();
    far.sort_by_key(|&h| std::cmp::Reverse((distance(h, anchor), h.y, h.x)));
    for s in 0..g.stars.len() {
        if g.stars[s].zone.is_none() && !g.stars[s].defeated {
            let h = far.iter().copied().find(|&h| g.board.is_open(h)).unwrap();
            put(g, s, h);
        }
    }
}

/// Make it `s`'s owner's turn and open `s`'s play.
pub(super) fn play(g: &mut Zinordia, s: usize) {
    let p = g.shared.owner(s);
    g.turn = g.order.iter().position(|&o| o == p).unwrap();
    g.play = None;
    g.offers.clear();
    for st in &mut g.stars {
        st.played = false;
    }
    g.apply(Action::Play((s % 3) as u8)).unwrap();
}

pub(super) fn zone(g: &Zinordia, h: Hex) -> u8 {
    g.shared.zone_id(h).unwrap() as u8
}

/// `use <ability> <zone>` by the playing Star, by ability id.
pub(super) fn use_on(g: &Zinordia, ability: &str, h: Hex) -> Action {
    g.parse_action(&format!("use {ability} {},{}", h.x, h.y))
        .unwrap()
}

/// Apply `a` with the first dice seed for which `want` holds afterwards.
pub(super) fn with_dice(g: &mut Zinordia, a: Action, want: impl Fn(&Zinordia) -> bool) {
    for k in 0..500 {
        let mut c = g.clone();
        c.rng = GameRng::seed(k);
        c.apply(a).unwrap();
        if want(&c) {
            *g = c;
            return;
        }
    }
    panic!("no dice gave the outcome");
}

pub(super) fn hit(g: &Zinordia, s: usize) -> bool {
    g.last_roll
        .as_ref()
        .is_some_and(|r| r.defences.iter().any(|d| d.star == s && d.hit))
}

#[test]
fn zn_11_7_a_push_into_a_wall_is_a_collision() {
    let mut g = duel_of(["torvald", "lumen", "oren"], ["kael", "grom", "nyra"]);
    // A walkable zone with a rock (or void) beyond it, and room for Torvald before it.
    let (at, dir) = g
        .shared
        .zones
        .iter()
        .copied()
        .find_map(|h| {
            (0..6).find_map(|d| {
                let (before, beyond) = (h - DIRECTIONS[d], h + DIRECTIONS[d]);
                (walkable(&g, h) && walkable(&g, before) && !walkable(&g, beyond)).then_some((h, d))
            })
        })
        .unwrap();
    stage(&mut g, &[(0, at - DIRECTIONS[dir]), (3, at)]);
    play(&mut g, 0);
    let a = use_on(&g, "golpe_de_escudo", at);
    with_dice(&mut g, a, |g| hit(g, 3));
    // Poder Físico 3 through Armadura 1, then the collision's 3: Kael stays put.
    assert_eq!(g.stars[3].zone, Some(at));
    assert_eq!(g.stars[3].armadura, 0);
    assert_eq!(g.stars[3].vida, 17 - 2 - 3);
}

#[test]
fn zn_11_7_a_push_into_a_star_hurts_both_when_the_data_says() {
    let mut g = duel_of(["torvald", "lumen", "oren"], ["kael", "grom", "nyra"]);
    let c = spot(&g, &[dir(3), dir(0)]);
    let d = DIRECTIONS[0];
    stage(&mut g, &[(0, c - d), (3, c), (4, c + d)]);
    play(&mut g, 0);
    let a = use_on(&g, "golpe_de_escudo", c);
    let grom_before = (g.stars[4].armadura, g.stars[4].vida);
    with_dice(&mut g, a, |g| hit(g, 3));
    assert_eq!(g.stars[3].zone, Some(c), "blocked at once by Grom");
    assert_eq!(g.stars[4].zone, Some(c + d));
    assert_eq!(g.stars[3].vida, 17 - 2 - 3);
    // Grom: 3 through Armadura 2 (3 with his passive, an enemy adjacent) .
    let absorbed = grom_before.0.min(3);
    assert_eq!(g.stars[4].vida, grom_before.1 - (3 - absorbed));
}

#[test]
fn zn_9_4_a_reaction_to_being_targeted_during_the_opponents_turn() {
    let mut g = duel_of(["sylvara", "lumen", "oren"], ["vesper", "grom", "nyra"]);
    let c = spot(&g, &[dir(1) * 3]);
    let far = c + DIRECTIONS[1] * 3;
    stage(&mut g, &[(0, c), (3, far)]);
    play(&mut g, 0);
    let before = g.stars[3].amago;
    g.apply(use_on(&g, "flecha_certeira", far)).unwrap();
    // Declared and paid, no die rolled: Vésper's player decides in seat 0's turn.
    assert_eq!(g.turn_player(), 0);
    assert_eq!(g.current_player(), Some(1));
    assert!(g.last_roll.is_none());
    let esquiva = Action::React {
        ability: 3,
        alt: false,
    };
    assert_eq!(legal(&g), vec![esquiva, Action::Decline]);
    assert_eq!(g.action_notation(esquiva), "react esquiva");
    assert_eq!(rule_of(g.check(Action::EndPlay)), "ZN-9.4");
    g.apply(esquiva).unwrap();
    assert_eq!(g.stars[3].amago, before - 1);
    // The roll came after the reaction: the defence counts its +2.
    let roll = g.last_roll.clone().unwrap();
    let d = roll.defences[0];
    assert_eq!(d.star, 3);
    assert_eq!(d.total, i32::from(d.die) + 5 + 2);
    assert_eq!(g.current_player(), Some(0));
}

#[test]
fn zn_9_4_declining_is_an_action_and_enemy_enters_reacts_after_the_move() {
    let mut g = duel_of(["kael", "lumen", "oren"], ["sylvara", "grom", "nyra"]);
    let c = spot(&g, &[dir(2), dir(2) * 2, dir(2) * 3]);
    let d = DIRECTIONS[2];
    stage(&mut g, &[(3, c), (0, c + d * 3)]);
    play(&mut g, 0);
    g.apply(Action::Move(zone(&g, c + d))).unwrap();
    assert_eq!(
        g.current_player(),
        Some(1),
        "Sylvara may shoot the newcomer"
    );
    let tiro = Action::React {
        ability: 3,
        alt: false,
    };
    assert!(legal(&g).contains(&tiro));
    let mut declined = g.clone();
    declined.apply(Action::Decline).unwrap();
    assert_eq!(declined.current_player(), Some(0));
    assert_eq!(declined.stars[0].vida, 17);
    g.apply(tiro).unwrap();
    // Poder Físico 3 through Armadura 1.
    assert_eq!(g.stars[0].vida, 15);
    assert_eq!(g.current_player(), Some(0));
    assert!(g.play.is_some(), "Kael's play goes on");
}

#[test]
fn zn_7_4_an_area_attack_rolls_once_against_each_defence() {
    let mut g = duel_of(["ignara", "lumen", "oren"], ["kael", "draven", "nyra"]);
    let c = spot(&g, &[dir(0), dir(3), dir(1), dir(1) * 2]);
    let (k, d) = (c + DIRECTIONS[0], c + DIRECTIONS[3]);
    stage(&mut g, &[(0, c + DIRECTIONS[1] * 2), (3, k), (4, d)]);
    play(&mut g, 0);
    let amago = g.stars[0].amago;
    let a = use_on(&g, "bola_de_fogo", c);
    with_dice(&mut g, a, |g| hit(g, 3) && hit(g, 4));
    let roll = g.last_roll.clone().unwrap();
    let mut by_zone = [(zone(&g, k), 3), (zone(&g, d), 4)];
    by_zone.sort();
    let order: Vec<usize> = roll.defences.iter().map(|x| x.star).collect();
    assert_eq!(
        order,
        vec![by_zone[0].1, by_zone[1].1],
        "defences in zone order"
    );
    // 2 + Poder Mágico 4 = 6 each: Kael through Armadura 1, Draven through 2.
    assert_eq!(g.stars[3].vida, 17 - 5);
    assert_eq!(g.stars[4].vida, 20 - 4);
    assert!(g.has_mark(3, "queimadura") && g.has_mark(4, "queimadura"));
    // Cost 4, then Centelha: +1 Âmago per damage instance dealt (ZN-10.2 deal_damage).
    assert_eq!(g.stars[0].amago, amago - 4 + 2);
    // Draven's Sede marks the attacker (ZN-10.2 damaged, target source).
    assert!(g.has_mark(0, "presa"));
}

#[test]
fn zn_12_3_a_kill_carries_the_victims_renown() {
    let mut g = duel_of(["kael", "lumen", "oren"], ["vesper", "draven", "nyra"]);
    let c = spot(&g, &[dir(0), dir(3) * 2]);
    stage(
        &mut g,
        &[(0, c), (3, c + DIRECTIONS[0]), (4, c + DIRECTIONS[3] * 2)],
    );
    g.stars[3].vida = 1;
    g.stars[3].armadura = 0;
    g.stars[3].renown = 2;
    play(&mut g, 0);
    g.apply(use_on(&g, "rajada_de_laminas", c + DIRECTIONS[0]))
        .unwrap();
    // Vésper may dodge (Esquiva); she declines.
    assert_eq!(g.current_player(), Some(1));
    let a = Action::Decline;
    with_dice(&mut g, a, |g| hit(g, 3));
    assert!(g.stars[3].defeated && g.stars[3].zone.is_none());
    assert_eq!(g.stars[3].renown, 0);
    assert_eq!(g.stars[0].renown, 3, "1 for the kill and the 2 she carried");
    // Fome de Glória (kill): +2 Poder Físico; Vingança (ally defeated): Draven +2 attack.
    assert_eq!(g.stat(0, Stat::PoderFisico), 5);
    assert_eq!(g.stat(4, Stat::Attack), 2);
}

#[test]
fn zn_10_8_each_ability_once_per_round_and_zn_10_7_ultra_rapid_only_first() {
    let mut g = duel_of(["sylvara", "lumen", "oren"], ["kael", "grom", "nyra"]);
    let c = spot(&g, &[dir(0), dir(0) * 2, dir(0) * 3, dir(2)]);
    let foe = c + DIRECTIONS[0] * 3;
    stage(&mut g, &[(0, c), (3, foe)]);
    play(&mut g, 0);
    let leap_to = c + DIRECTIONS[2];
    g.apply(use_on(&g, "salto_felino", leap_to)).unwrap();
    assert_eq!(g.stars[0].zone, Some(leap_to));
    let p = g.play.unwrap();
    assert!(
        !p.activated,
        "ultra-rapid first: the activation is still free"
    );
    // Once a round, even a free one.
    assert_eq!(rule_of(g.check(use_on(&g, "salto_felino", c))), "ZN-10.8");
    let shot = use_on(&g, "flecha_certeira", foe);
    assert!(legal(&g).contains(&shot));
    g.apply(shot).unwrap();
    assert!(g.play.unwrap().activated);
    assert_eq!(rule_of(g.check(use_on(&g, "armadilha", foe))), "ZN-6.4");

    // Ultra-rapid after the activation is used: refused.
    let mut h = duel_of(["ignara", "lumen", "oren"], ["kael", "grom", "nyra"]);
    let c = spot(&h, &[dir(0), dir(0) * 2]);
    let foe = c + DIRECTIONS[0] * 2;
    stage(&mut h, &[(0, c), (3, foe)]);
    play(&mut h, 0);
    h.apply(use_on(&h, "bola_de_fogo", foe)).unwrap();
    assert_eq!(rule_of(h.check(use_on(&h, "brasa_viva", foe))), "ZN-10.7");
    // The next round the count starts again.
    h.apply(Action::EndPlay).unwrap();
    while h.round == 1 {
        let p = h.current_player().unwrap();
        let a = if h.offers.is_empty() {
            if h.play.is_some() {
                Action::EndPlay
            } else {
                Action::EndTurn
            }
        } else {
            Action::Decline
        };
        assert!(p < 2);
        h.apply(a).unwrap();
    }
    assert_eq!(h.stars[0].uses, [0; 4]);
}

#[test]
fn zn_10_6_repetition_allows_more_uses_a_round() {
    let mut g = duel_of(["sylvara", "lumen", "oren"], ["grom", "kael", "nyra"]);
    let c = spot(&g, &[dir(0) * 3]);
    stage(&mut g, &[(3, c), (0, c + DIRECTIONS[0] * 3)]);
    // Fúria (reaction, Repetição 3) answers two damage instances in one round.
    for n in 1..=2u8 {
        g.hit(Some(0), 3, 1);
        g.settle_events();
        assert_eq!(g.current_player(), Some(1));
        g.apply(Action::React {
            ability: 2,
            alt: false,
        })
        .unwrap();
        assert_eq!(g.stars[3].uses[2], n);
    }
    assert_eq!(g.stat(3, Stat::PoderFisico), 4 + 2);
}

#[test]
fn zn_11_5_silence_stops_activations_and_passives_when_it_says() {
    let mut g = duel_of(["morwen", "lumen", "oren"], ["kael", "grom", "nyra"]);
    let c = spot(&g, &[dir(0) * 3]);
    stage(&mut g, &[(0, c), (3, c + DIRECTIONS[0] * 3)]);
    assert_eq!(g.stat(3, Stat::Attack), 1, "Lobo Solitário: alone");
    play(&mut g, 0);
    let a = use_on(&g, "mordaca", c + DIRECTIONS[0] * 3);
    with_dice(&mut g, a, |g| hit(g, 3));
    assert!(g.is_silenced(3, crate::zinordia::Kind::Attack));
    assert_eq!(g.stat(3, Stat::Attack), 0, "passives silenced too");
    play(&mut g, 3);
    let target = g.stars[0].zone.unwrap();
    let err = g.check(
        g.shared
            .parse_action(&format!("use 2 {},{}", target.x, target.y))
            .unwrap(),
    );
    assert_eq!(rule_of(err), "ZN-11.5");
    // Moving is still allowed.
    assert!(legal(&g).iter().any(|a| matches!(a, Action::Move(_))));
}

#[test]
fn zn_11_10_immunity_ignores_the_effect_and_its_triggers() {
    let mut g = duel_of(["sylvara", "lumen", "oren"], ["morwen", "grom", "nyra"]);
    let c = spot(&g, &[dir(0) * 3]);
    stage(&mut g, &[(0, c), (3, c + DIRECTIONS[0] * 3)]);
    play(&mut g, 0);
    let a = use_on(&g, "flecha_certeira", c + DIRECTIONS[0] * 3);
    with_dice(&mut g, a, |g| hit(g, 3));
    // Flecha: 1 + 3 = 4, no Armadura. Véu Sombrio is offered; pay its alternative, 2 Vida.
    assert_eq!(g.stars[3].vida, 14 - 4);
    let veu = Action::React {
        ability: 3,
        alt: true,
    };
    assert_eq!(g.action_notation(veu), "react veu_sombrio alt");
    let amago = g.stars[3].amago;
    g.apply(veu).unwrap();
    assert_eq!((g.stars[3].vida, g.stars[3].amago), (8, amago));
    g.hit(Some(0), 3, 5);
    assert_eq!(g.stars[3].vida, 8, "immune to damage");
    assert!(g.events.is_empty(), "no damage, no trigger");
}

#[test]
fn zn_12_4_renown_theft_and_transfer() {
    let mut g = duel_of(["vesper", "aurelio", "oren"], ["kael", "grom", "nyra"]);
    let c = spot(&g, &[dir(0), dir(3) * 2]);
    stage(
        &mut g,
        &[(0, c), (3, c + DIRECTIONS[0]), (1, c + DIRECTIONS[3] * 2)],
    );
    g.stars[3].renown = 2;
    play(&mut g, 0);
    let a = use_on(&g, "punga", c + DIRECTIONS[0]);
    with_dice(&mut g, a, |g| hit(g, 3));
    assert_eq!((g.stars[0].renown, g.stars[3].renown), (1, 1));
    // Next round: give it to Aurélio (Passagem).
    g.stars[0].uses = [0; 4];
    play(&mut g, 0);
    g.apply(use_on(&g, "passagem", c + DIRECTIONS[3] * 2))
        .unwrap();
    assert_eq!((g.stars[0].renown, g.stars[1].renown), (0, 1));
}

#[test]
fn zn_10_4_special_costs() {
    let mut g = duel_of(["vesper", "oren", "lumen"], ["kael", "grom", "nyra"]);
    let c = spot(&g, &[dir(3) * 3, dir(0), dir(0) * 2]);
    stage(&mut g, &[(0, c), (1, c + DIRECTIONS[3] * 3)]);
    play(&mut g, 0);
    let to = c + DIRECTIONS[0] * 2;
    // Sombra: 1 Âmago and 1 Vida besides; a Vida cost may not defeat the Star.
    g.stars[0].vida = 1;
    assert_eq!(rule_of(g.check(use_on(&g, "sombra", to))), "ZN-10.4");
    g.stars[0].vida = 10;
    let amago = g.stars[0].amago;
    g.apply(use_on(&g, "sombra", to)).unwrap();
    assert_eq!((g.stars[0].vida, g.stars[0].amago), (9, amago - 1));
    // Carga Estática: 3 Âmago, or 1 Renown instead.
    g.apply(Action::EndPlay).unwrap();
    play(&mut g, 1);
    let z = g.stars[1].zone.unwrap();
    let alt = g
        .parse_action(&format!("use carga_estatica {},{} alt", z.x, z.y))
        .unwrap();
    assert_eq!(rule_of(g.check(alt)), "ZN-10.4");
    g.stars[1].renown = 1;
    let amago = g.stars[1].amago;
    g.apply(alt).unwrap();
    assert_eq!((g.stars[1].renown, g.stars[1].amago), (0, amago));
    assert_eq!(g.stat(1, Stat::PoderMagico), 6);
    // No alternative cost on this ability.
    let bad = Action::Activate {
        ability: 0,
        target: zone(&g, z),
        alt: true,
    };
    assert_eq!(rule_of(g.check(bad)), "ZN-10.4");
}

#[test]
fn zn_11_8_dash_and_path_effects() {
    let mut g = duel_of(["kael", "lumen", "oren"], ["grom", "nyra", "draven"]);
    let c = spot(&g, &[dir(0), dir(0) * 2, dir(0) * 3, dir(0) + dir(1)]);
    let d = DIRECTIONS[0];
    // Grom beside the path, Nyra at its end: Kael stops before her.
    let beside = c + d + DIRECTIONS[1];
    stage(&mut g, &[(0, c), (3, beside), (4, c + d * 3)]);
    play(&mut g, 0);
    let grom = g.stars[3].vida;
    g.apply(use_on(&g, "investida", c + d)).unwrap();
    assert_eq!(g.stars[0].zone, Some(c + d * 2), "stopped by Nyra");
    // Poder Físico 3 to both (each next to the path): through Armadura 2+1 and 1.
    assert!(g.stars[3].vida < grom || g.stars[3].armadura == 0);
    assert!(g.stars[4].vida < 16);
}

#[test]
fn zn_2_5_range_and_zn_10_3_targets_are_checked() {
    let mut g = duel_of(["sylvara", "lumen", "oren"], ["kael", "grom", "nyra"]);
    let c = spot(&g, &[dir(0), dir(2), dir(3) * 3]);
    stage(
        &mut g,
        &[(0, c), (1, c + DIRECTIONS[0]), (3, c + DIRECTIONS[3] * 3)],
    );
    play(&mut g, 0);
    // Armadilha has range 3: an ally is not an enemy; an empty zone is not a Star.
    assert_eq!(
        rule_of(g.check(use_on(&g, "armadilha", c + DIRECTIONS[0]))),
        "ZN-10.3"
    );
    assert_eq!(
        rule_of(g.check(use_on(&g, "armadilha", c + DIRECTIONS[2]))),
        "ZN-10.3"
    );
    // Passives and reactions are never activated.
    let tiro = use_on(&g, "tiro_de_resposta", c);
    assert_eq!(rule_of(g.check(tiro)), "ZN-9.4");
    // Every generated activation passes check; every check failure names a ZN rule.
    for a in legal(&g) {
        assert!(g.check(a).is_ok());
    }
    for z in 0..g.shared.zones.len() as u8 {
        for i in 0..4 {
            let a = Action::Activate {
                ability: i,
                target: z,
                alt: false,
            };
            if let Err(e) = g.check(a) {
                assert!(rule_of(Err(e)).starts_with("ZN-"));
            } else {
                assert!(legal(&g).contains(&a));
            }
        }
    }
    let _ = neighbors(c);
}
