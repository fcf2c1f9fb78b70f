//! ZN-7, ZN-8, ZN-11.7, ZN-12.3: rolls, damage through Armadura, defeat and Renown, forced
//! movement with collisions, on hand-built positions.

use super::*;
use crate::hex::coords::{distance, DIRECTIONS};
use crate::hex::{Blocker, Collision};
use crate::rng::GameRng;
use crate::zinordia::combat::Damage;

fn duel(seed: u64) -> (Zinordia, usize) {
    let mut g = game(mode("duel", None), seed);
    through_setup(&mut g);
    let first = g.order[0];
    (g, first)
}

/// A free zone whose neighbours in directions `dirs` are free too.
fn free_line(g: &Zinordia, dir: usize, len: i32) -> Hex {
    g.shared
        .zones
        .iter()
        .copied()
        .find(|&h| (0..=len).all(|k| g.board.is_open(h + DIRECTIONS[dir] * k)))
        .expect("a free line")
}

#[test]
fn zn_7_4_area_attack_one_attacker_roll_several_defence_rolls() {
    let (mut g, first) = duel(1);
    let foes: Vec<usize> = g.stars_of(1 - first).collect();
    let mut replay = g.rng.clone();
    let roll = g.roll_attack(&foes, 1);
    // One 2d6 for the attacker, then one d6 per target, in order.
    let a = [replay.roll(6) as u8, replay.roll(6) as u8];
    assert_eq!(roll.dice, a);
    assert_eq!(roll.total, i32::from(a[0]) + i32::from(a[1]) + 1);
    assert_eq!(roll.defences.len(), 3);
    for (d, &s) in roll.defences.iter().zip(&foes) {
        let die = replay.roll(6) as u8;
        assert_eq!((d.star, d.die), (s, die));
        let bonus = g.stat(s, crate::zinordia::ability::Stat::Defence);
        assert_eq!(d.total, i32::from(die) + i32::from(g.agilidade(s)) + bonus);
        assert_eq!(
            d.hit,
            roll.total > d.total,
            "compared one by one with the same total"
        );
    }
    assert_eq!(g.last_roll.as_ref(), Some(&roll));
}

#[test]
fn zn_7_3_ties_go_to_the_defender() {
    let mut ties = 0;
    for seed in 0..400 {
        let (mut g, first) = duel(seed);
        let foe = (1 - first) * 3;
        let roll = g.roll_attack(&[foe], 0);
        let d = roll.defences[0];
        if roll.total == d.total {
            ties += 1;
            assert!(!d.hit);
        } else {
            assert_eq!(d.hit, roll.total > d.total);
        }
    }
    assert!(ties > 0, "no tie in 400 rolls: the test saw nothing");
}

#[test]
fn zn_8_1_armadura_absorbs_first() {
    let (mut g, first) = duel(2);
    let s = first * 3;
    g.stars[s].armadura = 2;
    let vida = g.stars[s].vida;
    assert_eq!(
        g.damage(None, s, 1),
        Damage {
            absorbed: 1,
            vida_lost: 0,
            defeated: false
        }
    );
    assert_eq!(
        g.damage(None, s, 4),
        Damage {
            absorbed: 1,
            vida_lost: 3,
            defeated: false
        }
    );
    assert_eq!((g.stars[s].armadura, g.stars[s].vida), (0, vida - 3));
}

#[test]
fn zn_12_3_a_kill_carries_renown() {
    let (mut g, first) = duel(3);
    let (killer, victim) = (first * 3, (1 - first) * 3);
    g.stars[killer].renown = 1;
    g.stars[victim].renown = 2;
    g.stars[victim].armadura = 0;
    let h = g.stars[victim].zone.unwrap();
    let vida = u32::from(g.stars[victim].vida);
    let d = g.damage(Some(killer), victim, vida + 5);
    assert!(d.defeated);
    assert_eq!(d.vida_lost, vida as u16, "Vida never goes below 0");
    assert_eq!(g.stars[killer].renown, 1 + 1 + 2);
    assert_eq!(g.stars[victim].renown, 0);
    assert!(g.stars[victim].defeated);
    assert_eq!(g.stars[victim].zone, None);
    assert_eq!(g.board.occupant(h), None);
    assert!(!g.alive(victim));
}

#[test]
fn zn_12_8_the_last_team_standing_wins() {
    let (mut g, first) = duel(4);
    let killer = first * 3;
    for v in g.stars_of(1 - first) {
        g.stars[v].armadura = 0;
        g.damage(Some(killer), v, 999);
    }
    assert!(g.check_victory());
    assert_eq!(g.winner, Some(first));
}

#[test]
fn zn_11_7_push_along_the_axis() {
    let (mut g, first) = duel(5);
    let (src, tgt) = (first * 3, (1 - first) * 3);
    let start = free_line(&g, 0, 3);
    put(&mut g, src, start);
    put(&mut g, tgt, start + DIRECTIONS[0]);
    let m = g.force_move(src, tgt, 2, false).unwrap();
    assert_eq!(
        m.path,
        vec![start + DIRECTIONS[0] * 2, start + DIRECTIONS[0] * 3]
    );
    assert_eq!(m.collision, None);
    assert_eq!(g.stars[tgt].zone, Some(start + DIRECTIONS[0] * 3));
    assert_eq!(
        g.board.occupant(start + DIRECTIONS[0] * 3),
        Some(tgt as u32)
    );
    assert_eq!(g.board.occupant(start + DIRECTIONS[0]), None);
}

#[test]
fn zn_11_7_a_push_into_a_wall_is_a_collision() {
    let (mut g, first) = duel(6);
    let (src, tgt) = (first * 3, (1 - first) * 3);
    // A zone next to an obstacle in some direction d, with a free zone on the other side.
    let (wall_next, d) = g
        .shared
        .zones
        .iter()
        .copied()
        .find_map(|h| {
            (0..6).find_map(|d| {
                let behind = h + DIRECTIONS[(d + 3) % 6];
                let rock = h + DIRECTIONS[d];
                (g.board.is_open(h)
                    && g.board.is_open(behind)
                    && g.board.blocker(rock) == Some(Blocker::Obstacle))
                .then_some((h, d))
            })
        })
        .expect("a zone by a wall");
    put(&mut g, src, wall_next + DIRECTIONS[(d + 3) % 6]);
    put(&mut g, tgt, wall_next);
    let m = g.force_move(src, tgt, 2, false).unwrap();
    assert!(m.path.is_empty());
    assert_eq!(
        m.collision,
        Some((
            wall_next + DIRECTIONS[d],
            Collision::Blocked(Blocker::Obstacle)
        ))
    );
    assert_eq!(
        g.stars[tgt].zone,
        Some(wall_next),
        "the movement stops at once"
    );
}

#[test]
fn zn_11_7_a_pull_stops_at_the_source() {
    let (mut g, first) = duel(7);
    let (src, tgt) = (first * 3, (1 - first) * 3);
    let start = free_line(&g, 0, 3);
    put(&mut g, src, start);
    put(&mut g, tgt, start + DIRECTIONS[0] * 3);
    let m = g.force_move(src, tgt, 5, true).unwrap();
    assert_eq!(m.end, start + DIRECTIONS[0]);
    assert_eq!(
        m.collision.map(|(h, _)| h),
        Some(start),
        "the pulled Star runs into its puller"
    );
}

#[test]
fn zn_11_7_off_axis_direction_is_the_best_with_fixed_ties() {
    let mut rng = GameRng::seed(9);
    for _ in 0..500 {
        let s = Hex::new(rng.below(9) as i32 - 4, rng.below(9) as i32 - 4);
        let t = Hex::new(rng.below(9) as i32 - 4, rng.below(9) as i32 - 4);
        for pull in [false, true] {
            let Some(d) = Zinordia::forced_direction(s, t, pull) else {
                assert_eq!(s, t);
                continue;
            };
            let after = distance(s, t + DIRECTIONS[d]);
            let before = distance(s, t);
            if pull {
                assert_eq!(after + 1, before, "a pull brings it one zone nearer");
            } else {
                assert_eq!(after, before + 1, "a push takes it one zone further");
            }
            // The lowest such direction, unless on an axis (then the axis itself).
            let on_axis = crate::hex::coords::axis_direction(s, t).is_some();
            if !on_axis {
                let best = (0..6)
                    .find(|&e| distance(s, t + DIRECTIONS[e]) == after)
                    .unwrap();
                assert_eq!(d, best);
            }
        }
    }
}
