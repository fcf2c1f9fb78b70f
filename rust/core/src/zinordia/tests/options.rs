//! The second readings as rules options (`docs/rules/zinordia.md`, each **Option**): on
//! hand-built positions, each option changes the outcome its rule says, and the default
//! keeps the reading.

use super::abilities::{
    dir, duel_with, hit, play, rule_of, spot, stage, use_on, walkable, with_dice, zone,
};
use super::*;
use crate::game::Game;
use crate::zinordia::ability::Stat;
use crate::zinordia::effects::Status;
use crate::zinordia::observe::FEATURES;
use crate::zinordia::options::{DurationsTick, Lines, ReactionOrder, UniqueStars, UntimedBuffs};
use crate::zinordia::resolve::drawn_line;
use crate::zinordia::state::Resume;

fn duel(options: Options) -> Options {
    Options {
        mode: "duel".into(),
        ..options
    }
}

fn pick_all(g: &mut Zinordia, ids: &[&str]) {
    for id in ids {
        let a = g.parse_action(&format!("pick {id}")).unwrap();
        g.apply(a).unwrap();
    }
}

fn roster(g: &Zinordia, id: &str) -> usize {
    g.shared.content.star(id).unwrap()
}

#[test]
fn zn_1_2_default_two_teams_may_field_the_same_star() {
    let mut g = game(Options::default(), 1);
    pick_all(
        &mut g,
        &["ignara", "torvald", "sylvara", "kael", "ignara", "lumen"],
    );
    assert!(matches!(g.phase, Phase::Place { .. }));
    assert_eq!(g.picks[0][0], g.picks[1][1]);
}

#[test]
fn zn_1_2_unique_stars_game_a_clash_is_picked_again_visibly() {
    let opts = duel(Options {
        unique_stars: UniqueStars::Game,
        ..Options::default()
    });
    let mut g = game(opts, 1);
    pick_all(
        &mut g,
        &["ignara", "torvald", "sylvara", "kael", "ignara", "lumen"],
    );
    // The reveal: seat 1's second pick clashes with seat 0's first; seat 1 picks again.
    assert_eq!(g.phase, Phase::Select { player: 1 });
    assert_eq!(g.repick(), Some((1, 1)));
    // Visibly: seat 0 sees seat 1's picks now.
    assert_eq!(
        g.view(0)["picks"][1],
        serde_json::json!(["kael", "ignara", "lumen"])
    );
    let taken = ["ignara", "torvald", "sylvara", "kael", "lumen"];
    let picks: Vec<Action> = legal(&g);
    assert_eq!(picks.len(), g.shared.content.stars.len() - taken.len());
    for id in taken {
        let a = Action::Pick(roster(&g, id) as u8);
        assert!(!picks.contains(&a), "{id} is in the game");
    }
    let ignara = Action::Pick(roster(&g, "ignara") as u8);
    assert_eq!(rule_of(g.check(ignara)), "ZN-1.2");
    // The re-pick state saves and loads as it is.
    let back = <Zinordia as Game>::from_json(&g.to_json()).unwrap();
    assert_eq!(back.phase, g.phase);
    assert_eq!(back.to_json(), g.to_json());
    pick_all(&mut g, &["grom"]);
    let ids = |p: usize| -> Vec<usize> { g.picks[p].clone() };
    assert_eq!(
        ids(1),
        vec![roster(&g, "kael"), roster(&g, "grom"), roster(&g, "lumen")]
    );
    assert!(matches!(g.phase, Phase::Place { .. }));
}

#[test]
fn zn_1_2_unique_stars_game_a_saved_state_with_a_clash_is_refused() {
    let mut g = game(Options::default(), 1);
    pick_all(
        &mut g,
        &["ignara", "torvald", "sylvara", "kael", "ignara", "lumen"],
    );
    let mut v = g.to_json();
    assert!(<Zinordia as Game>::from_json(&v).is_ok());
    v["options"]["unique_stars"] = "game".into();
    let err = <Zinordia as Game>::from_json(&v).unwrap_err().to_string();
    assert!(err.contains("$.picks"), "{err}");
}

#[test]
fn zn_2_6_drawn_line_is_the_axis_line_on_an_axis() {
    let o = Hex::new(0, 0);
    for d in 0..6 {
        let toward = dir(d) * 2;
        assert_eq!(
            drawn_line(o, toward, 3),
            vec![dir(d), dir(d) * 2, dir(d) * 3]
        );
    }
    let off = dir(0) * 2 + dir(1);
    let l = drawn_line(o, off, 3);
    assert_eq!(l.len(), 3);
    assert_eq!(l[2], off, "the line runs through the target");
    for w in std::iter::once(o)
        .chain(l.clone())
        .collect::<Vec<_>>()
        .windows(2)
    {
        assert_eq!(crate::hex::coords::distance(w[0], w[1]), 1, "{l:?}");
    }
}

#[test]
fn zn_2_6_lines_drawn_a_dash_off_every_axis() {
    let off = dir(0) * 2 + dir(1);
    let offs = drawn_line(Hex::new(0, 0), off, 3);
    for lines in [Lines::Axis, Lines::Drawn] {
        let opts = duel(Options {
            lines,
            ..Options::default()
        });
        let mut g = duel_with(opts, ["kael", "lumen", "oren"], ["sylvara", "grom", "nyra"]);
        let c = spot(&g, &offs);
        stage(&mut g, &[(0, c)]);
        for &o in &offs {
            assert!(walkable(&g, c + o) && g.board.occupant(c + o).is_none());
        }
        play(&mut g, 0);
        let a = use_on(&g, "investida", c + off);
        match lines {
            // The reading: a direction lies on one of the six axes.
            Lines::Axis => assert_eq!(rule_of(g.check(a)), "ZN-2.6"),
            Lines::Drawn => {
                assert!(legal(&g).contains(&a));
                g.apply(a).unwrap();
                assert_eq!(g.stars[0].zone, Some(c + off));
            }
        }
    }
}

#[test]
fn zn_2_6_lines_drawn_a_line_area_reaches_off_axis_cones_still_need_an_axis() {
    let off = dir(0) * 2 + dir(1);
    for lines in [Lines::Axis, Lines::Drawn] {
        let opts = duel(Options {
            lines,
            ..Options::default()
        });
        let mut g = duel_with(opts, ["ignara", "lumen", "oren"], ["kael", "grom", "nyra"]);
        let c = spot(&g, &[off, dir(0), dir(1), dir(0) * 2]);
        stage(&mut g, &[(0, c), (3, c + off)]);
        play(&mut g, 0);
        let lanca = use_on(&g, "lanca_de_chamas", c + off);
        let ab = g.ability(0, 1).unwrap().clone();
        assert_eq!(ab.id, "lanca_de_chamas");
        match lines {
            Lines::Axis => assert_eq!(rule_of(g.check(lanca)), "ZN-2.6"),
            Lines::Drawn => {
                assert!(g.check(lanca).is_ok());
                assert_eq!(g.affected(0, &ab, Some(c + off)), vec![3]);
            }
        }
        // Oren's cone (his first ability) opens along an axis under either reading.
        stage(&mut g, &[(2, c), (3, c + off)]);
        play(&mut g, 2);
        let sopro = use_on(&g, "sopro_de_tempestade", c + dir(0) + dir(1));
        assert_eq!(rule_of(g.check(sopro)), "ZN-2.6");
    }
}

/// A duel in its Main phase; returns (game, first player's Star, second player's Star).
fn main_duel(options: Options) -> (Zinordia, usize, usize) {
    let g = duel_with(
        duel(options),
        ["ignara", "torvald", "sylvara"],
        ["kael", "lumen", "grom"],
    );
    let first = g.order[0];
    (g, first * 3, (1 - first) * 3)
}

fn debuff() -> Status {
    Status::Stat {
        stat: Stat::Agilidade,
        amount: -1,
        stacks: true,
    }
}

#[test]
fn zn_5_5_durations_tick_turn_end_ends_a_one_turn_debuff_before_the_opponent_plays() {
    for tick in [DurationsTick::TurnStart, DurationsTick::TurnEnd] {
        let (mut g, mine, theirs) = main_duel(Options {
            durations_tick: tick,
            ..Options::default()
        });
        let agi = g.agilidade(theirs);
        g.add_status(mine, theirs, debuff(), Some(1));
        g.apply(Action::EndTurn).unwrap();
        assert_eq!(g.turn_player(), g.shared.owner(theirs));
        match tick {
            // The reading: it lasts through the opponent's turn.
            DurationsTick::TurnStart => assert_eq!(g.agilidade(theirs), agi - 1),
            DurationsTick::TurnEnd => {
                assert_eq!(g.agilidade(theirs), agi);
                assert!(g.stars[theirs].effects.is_empty());
            }
        }
    }
}

#[test]
fn zn_5_5_durations_tick_turn_end_damage_over_time_still_deals_its_turns() {
    for tick in [DurationsTick::TurnStart, DurationsTick::TurnEnd] {
        let (mut g, mine, theirs) = main_duel(Options {
            durations_tick: tick,
            ..Options::default()
        });
        g.stars[theirs].armadura = 0;
        let vida = g.stars[theirs].vida;
        g.add_status(mine, theirs, Status::Dot { amount: 2 }, Some(1));
        g.apply(Action::EndTurn).unwrap();
        // One instance at the applier's Second Maintenance either way.
        assert_eq!(g.stars[theirs].vida, vida - 2);
        let left = usize::from(tick == DurationsTick::TurnStart);
        assert_eq!(g.stars[theirs].effects.len(), left);
    }
}

#[test]
fn zn_6_2_split_movement_false_no_move_after_the_activation() {
    for split in [true, false] {
        let opts = duel(Options {
            split_movement: split,
            ..Options::default()
        });
        let mut g = duel_with(opts, ["kael", "lumen", "oren"], ["sylvara", "grom", "nyra"]);
        let marker = g.markers[0];
        stage(&mut g, &[(0, marker)]);
        play(&mut g, 0);
        // Movement before the activation is always allowed.
        assert!(legal(&g).iter().any(|a| matches!(a, Action::Move(_))));
        g.apply(Action::Collect).unwrap();
        assert_eq!(g.stars[0].renown, 1);
        if split {
            // The reading: the rest of the movement follows the activation.
            assert!(legal(&g).iter().any(|a| matches!(a, Action::Move(_))));
        } else {
            // Nothing left to do: the play ended by itself (ZN-6.6).
            assert!(g.play.is_none());
            assert!(g.stars[0].played);
        }
    }
    // `check` refuses the move with the rule (one set of conditions).
    let opts = duel(Options {
        split_movement: false,
        ..Options::default()
    });
    let mut g = duel_with(opts, ["kael", "lumen", "oren"], ["sylvara", "grom", "nyra"]);
    let c = spot(&g, &[dir(0)]);
    stage(&mut g, &[(0, c)]);
    play(&mut g, 0);
    let step = Action::Move(zone(&g, c + dir(0)));
    assert!(g.check(step).is_ok());
    if let Some(p) = g.play.as_mut() {
        p.activated = true;
    }
    assert_eq!(rule_of(g.check(step)), "ZN-6.2");
}

#[test]
fn zn_9_4_reaction_order_initiative_asks_from_the_current_player() {
    for order in [ReactionOrder::Event, ReactionOrder::Initiative] {
        let opts = Options {
            reaction_order: order,
            ..mode("free_for_all", Some(3))
        };
        let mut g = game(opts, 3);
        // Every player fields Grom (a reaction to being damaged) and Morwen.
        pick_all(
            &mut g,
            &["grom", "morwen", "grom", "morwen", "grom", "morwen"],
        );
        through_setup(&mut g);
        g.offers.clear();
        let n = g.order.len();
        let at = |k: usize| g.order[(g.turn + k) % n] * 2;
        let (a, b, c) = (at(0), at(1), at(2));
        // The current player's Grom hurts the later player's Grom first, then the next one's.
        g.hit(Some(a), c, 1);
        g.hit(Some(a), b, 1);
        g.settle_events();
        let asked: Vec<usize> = g.offers.iter().map(|o| o.star).collect();
        match order {
            ReactionOrder::Event => assert_eq!(asked, vec![c, b]),
            ReactionOrder::Initiative => assert_eq!(asked, vec![b, c]),
        }
        assert_eq!(g.current_player(), Some(g.shared.owner(asked[0])));
    }
}

#[test]
fn zn_10_5_untimed_buffs_round_last_until_the_appliers_next_turn() {
    for untimed in [UntimedBuffs::Turn, UntimedBuffs::Round] {
        let (mut g, mine, _) = main_duel(Options {
            untimed_buffs: untimed,
            ..Options::default()
        });
        let pm = g.stat(mine, Stat::PoderMagico);
        let buff = Status::Stat {
            stat: Stat::PoderMagico,
            amount: 2,
            stacks: true,
        };
        g.add_status(mine, mine, buff, None);
        g.apply(Action::EndTurn).unwrap();
        // The opponent's turn.
        let during = g.stat(mine, Stat::PoderMagico);
        match untimed {
            UntimedBuffs::Turn => assert_eq!(during, pm),
            UntimedBuffs::Round => assert_eq!(during, pm + 2),
        }
        g.apply(Action::EndTurn).unwrap();
        assert_eq!(g.turn_player(), g.shared.owner(mine));
        assert_eq!(g.stat(mine, Stat::PoderMagico), pm);
    }
}

#[test]
fn zn_11_3_marks_stack_a_consumed_copy_leaves_the_other() {
    for stack in [false, true] {
        let opts = duel(Options {
            marks_stack: stack,
            ..Options::default()
        });
        let mut g = duel_with(opts, ["ignara", "lumen", "oren"], ["kael", "grom", "nyra"]);
        let c = spot(&g, &[dir(0)]);
        stage(&mut g, &[(0, c), (3, c + dir(0))]);
        let burn = || Status::Mark("queimadura".into());
        g.add_status(0, 3, burn(), Some(2));
        g.add_status(0, 3, burn(), Some(2));
        assert_eq!(g.mark_count(3, "queimadura"), if stack { 2 } else { 1 });
        // Copies are saved and loaded.
        let back = <Zinordia as Game>::from_json(&g.to_json()).unwrap();
        assert_eq!(back.stars[3].effects, g.stars[3].effects);
        play(&mut g, 0);
        let a = use_on(&g, "lanca_de_chamas", c + dir(0));
        with_dice(&mut g, a, |g| hit(g, 3));
        // The burn is consumed by Lança de Chamas: one copy goes.
        assert_eq!(g.has_mark(3, "queimadura"), stack);
    }
}

#[test]
fn zn_11_3_without_marks_stack_a_saved_copy_is_refused() {
    let (mut g, mine, theirs) = main_duel(Options::default());
    g.add_status(mine, theirs, Status::Mark("presa".into()), Some(2));
    let mut v = g.to_json();
    let effects = v["stars"][theirs]["effects"].as_array_mut().unwrap();
    effects.push(effects[0].clone());
    let err = <Zinordia as Game>::from_json(&v).unwrap_err().to_string();
    assert!(
        err.contains(&format!("$.stars[{theirs}].effects[1]")),
        "{err}"
    );
    v["options"]["marks_stack"] = true.into();
    assert!(<Zinordia as Game>::from_json(&v).is_ok());
}

#[test]
fn saved_states_list_second_readings_only_when_chosen() {
    let g = game(Options::default(), 1);
    let keys: Vec<String> = g.to_json()["options"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    let all = serde_json::to_value(Options::default()).unwrap();
    let left_out: Vec<&String> = all
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| !keys.contains(k))
        .collect();
    assert_eq!(
        left_out,
        [
            "ally_defeat",
            "durations_tick",
            "lines",
            "marks_stack",
            "reaction_order",
            "reactions_interrupt",
            "split_movement",
            "unique_stars",
            "untimed_buffs"
        ]
    );
    let opts = Options {
        lines: Lines::Drawn,
        split_movement: false,
        ..Options::default()
    };
    let g = game(opts.clone(), 1);
    let v = g.to_json();
    assert_eq!(v["options"]["lines"], "drawn");
    assert_eq!(v["options"]["split_movement"], false);
    let back = <Zinordia as Game>::from_json(&v).unwrap();
    assert_eq!(back.options(), &opts);
}

/// Every second reading at once, in random games of each mode: every generated action
/// passes `check`, every state saves and loads with the same legal actions, and every game
/// ends; the re-pick after the reveal (ZN-1.2) happens in some of them.
#[test]
fn random_games_under_every_second_reading_end_and_round_trip() {
    let readings = |m: &str, n: Option<u8>| Options {
        unique_stars: UniqueStars::Game,
        lines: Lines::Drawn,
        durations_tick: DurationsTick::TurnEnd,
        split_movement: false,
        reaction_order: ReactionOrder::Initiative,
        untimed_buffs: UntimedBuffs::Round,
        marks_stack: true,
        reactions_interrupt: true,
        ..mode(m, n)
    };
    let mut repicks = 0;
    for (m, n) in [("duel", None), ("free_for_all", Some(3)), ("teams", None)] {
        for seed in 0..12 {
            let mut g = game(readings(m, n), seed);
            let mut rng = crate::rng::GameRng::seed(seed + 77);
            let mut steps = 0;
            while g.current_player().is_some() {
                repicks += usize::from(g.repick().is_some());
                let acts = legal(&g);
                for &a in &acts {
                    assert!(g.check(a).is_ok(), "{m} seed {seed}: {a:?}");
                }
                let v = g.to_json();
                let back = <Zinordia as Game>::from_json(&v).expect("round trip");
                assert_eq!(back.to_json(), v);
                assert_eq!(legal(&back), acts);
                let a = *rng.choose(&acts).unwrap();
                g.apply(a).unwrap();
                steps += 1;
                assert!(steps < 20_000, "{m} seed {seed} does not end");
            }
            assert_eq!(g.phase, Phase::Over);
        }
    }
    assert!(repicks > 0, "no clash at any reveal");
}

/// Kael's Rajada de Lâminas (three damage instances) on Morwen, whose Véu Sombrio answers
/// `damaged` with immunity to damage: a hand-built duel in Kael's play, the attack hit.
fn rajada_on_morwen(interrupt: bool) -> Zinordia {
    let opts = duel(Options {
        reactions_interrupt: interrupt,
        ..Options::default()
    });
    let mut g = duel_with(opts, ["kael", "lumen", "oren"], ["morwen", "grom", "nyra"]);
    let c = spot(&g, &[dir(0)]);
    stage(&mut g, &[(0, c), (3, c + dir(0))]);
    g.stars[3].armadura = 0;
    play(&mut g, 0);
    let a = use_on(&g, "rajada_de_laminas", c + dir(0));
    with_dice(&mut g, a, |g| hit(g, 3));
    g
}

const VEU: Action = Action::React {
    ability: 3,
    alt: false,
};

#[test]
fn zn_9_5_reactions_interrupt_a_shield_raised_after_the_first_instance_stops_the_others() {
    let full = rajada_on_morwen(false).star_data(3).vida;
    // The reading: the three instances land, then Véu Sombrio is asked (too late).
    let mut g = rajada_on_morwen(false);
    let lost = full - g.stars[3].vida;
    assert!(lost > 0 && lost % 3 == 0);
    let instance = lost / 3;
    assert_eq!(g.offers.front().map(|o| o.star), Some(3));
    assert_eq!(g.resume, Resume::Main);
    g.apply(VEU).unwrap();
    assert_eq!(full - g.stars[3].vida, 3 * instance);

    // The option: Véu Sombrio is asked after the first instance, the rest of the attack
    // waits, and the two later instances meet the immunity.
    let mut g = rajada_on_morwen(true);
    assert_eq!(full - g.stars[3].vida, instance);
    assert_eq!(g.current_player(), Some(g.shared.owner(3)));
    assert!(matches!(g.resume, Resume::Resolution(_)));
    let alt = Action::React {
        ability: 3,
        alt: true,
    };
    assert_eq!(legal(&g), vec![VEU, alt, Action::Decline]);
    g.apply(VEU).unwrap();
    assert_eq!(full - g.stars[3].vida, instance, "immune to the rest");
    assert_eq!(g.resume, Resume::Main);
    assert_eq!(g.current_player(), Some(g.shared.owner(0)));
    assert!(g.offers.is_empty());
}

#[test]
fn zn_9_5_reactions_interrupt_each_instance_asks_again_after_a_decline() {
    let mut g = rajada_on_morwen(true);
    let full = g.star_data(3).vida;
    let instance = full - g.stars[3].vida;
    // Declined twice: each later instance opens its own window at once.
    for k in 1..3 {
        assert_eq!(full - g.stars[3].vida, k * instance);
        assert_eq!(g.offers.len(), 1);
        g.apply(Action::Decline).unwrap();
    }
    assert_eq!(full - g.stars[3].vida, 3 * instance);
    // After the last instance the attack is over: the window is the ordinary one.
    assert_eq!(g.resume, Resume::Main);
    assert_eq!(g.offers.front().map(|o| o.star), Some(3));
}

/// The observation's zone rows, columns 11-15, of `player`: one `[f32; 5]` per zone.
fn pending_columns(g: &Zinordia, player: usize) -> Vec<[f32; 5]> {
    let mut out = vec![0.0f32; Game::observation_shape(g).iter().product()];
    Game::observation(g, player, &mut out);
    (0..g.shared.zones.len())
        .map(|i| {
            let row = &out[i * FEATURES..(i + 1) * FEATURES];
            [row[11], row[12], row[13], row[14], row[15]]
        })
        .collect()
}

/// ZN-9.4, ZN-9.5 (docs/zinordia.md, "Observation"): a player asked to react sees the ability
/// in progress — who uses which ability on which zone, and whether it waits mid-resolution —
/// and the window's trigger and source, in every player's observation alike (all public).
#[test]
fn zn_9_5_the_observation_shows_the_ability_in_progress_and_the_open_window() {
    let g = rajada_on_morwen(true);
    let kael = zone(&g, g.stars[0].zone.unwrap()) as usize;
    let morwen = zone(&g, g.stars[3].zone.unwrap()) as usize;
    let Resume::Resolution(r) = &g.resume else {
        panic!("suspended")
    };
    let ability = f32::from(r.ability + 1) / 4.0;
    let damaged = (crate::zinordia::ability::Trigger::Damaged as usize + 1) as f32 / 12.0;
    for p in 0..2 {
        let cols = pending_columns(&g, p);
        assert_eq!(cols[kael], [ability, 1.0, 0.0, 0.0, 1.0], "player {p}");
        assert_eq!(cols[morwen], [0.0, 0.0, 1.0, damaged, 0.0], "player {p}");
        let others = (0..cols.len()).filter(|&i| i != kael && i != morwen);
        assert!(others.into_iter().all(|i| cols[i] == [0.0; 5]));
    }
    // Without the option the attack has ended before the window opens: only the window.
    let g = rajada_on_morwen(false);
    let cols = pending_columns(&g, 1);
    assert_eq!(cols[kael], [0.0, 0.0, 0.0, 0.0, 1.0]);
    assert_eq!(cols[morwen], [0.0, 0.0, 0.0, damaged, 0.0]);
    // Once answered, nothing is pending.
    let mut g = rajada_on_morwen(true);
    g.apply(VEU).unwrap();
    assert!(pending_columns(&g, 0).iter().all(|c| *c == [0.0; 5]));
}

#[test]
fn zn_9_5_a_suspended_resolution_saves_and_loads_in_states_and_positions() {
    let g = rajada_on_morwen(true);
    let v = g.to_json();
    // The default reading: a saved state leaves it out.
    assert!(v["options"].get("reactions_interrupt").is_none());
    let r = &v["resume"];
    assert_eq!(r["kind"], "resolution");
    assert_eq!(r["star"], 0);
    assert_eq!(r["ability"], 0);
    // Morwen's `effects` with one of three instances dealt, then Kael's `self_effects`.
    assert_eq!(
        r["steps"],
        serde_json::json!([
            {"star": 3, "list": "effects", "path": [], "next": 0, "hits": 1},
            {"star": 0, "list": "self_effects", "path": [], "next": 0, "hits": 0},
        ])
    );
    let back = <Zinordia as Game>::from_json(&v).unwrap();
    assert_eq!(back.to_json(), v);
    assert_eq!(back.resume, g.resume);
    let text = g.position(None).unwrap();
    assert!(text.contains(" resolution:0:0:"), "{text}");
    let o = g.options().clone();
    let from_text = Zinordia::from_position(&text, &o, 0).unwrap();
    assert_eq!(from_text.to_json(), v);
    // Views hide nothing new (the rest of a public ability); a view position keeps it.
    assert_eq!(g.view(1)["resume"], v["resume"]);
    let view = g.position(Some(1)).unwrap();
    let seen = Zinordia::from_position(&view, &o, 5).unwrap();
    assert_eq!(seen.resume, g.resume);
    assert_eq!(g.resample_hidden(1, 3).resume, g.resume);
    // The loaded state goes on the same way.
    for mut h in [back, from_text] {
        h.apply(VEU).unwrap();
        let mut k = g.clone();
        k.apply(VEU).unwrap();
        assert_eq!(h.to_json(), k.to_json());
    }
}

#[test]
fn zn_9_5_bad_suspended_resolutions_are_refused_with_their_path() {
    let g = rajada_on_morwen(true);
    let v = g.to_json();
    let refused = |edit: &dyn Fn(&mut serde_json::Value)| -> String {
        let mut w = v.clone();
        edit(&mut w);
        match <Zinordia as Game>::from_json(&w) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted {}", w["resume"]),
        }
    };
    let e = refused(&|w| w["resume"]["steps"][0]["list"] = "then".into());
    assert!(e.contains("$.resume.steps[0].list"), "{e}");
    let e = refused(&|w| w["resume"]["steps"][0]["path"] = serde_json::json!([0]));
    assert!(e.contains("$.resume.steps[0].path"), "{e}");
    let e = refused(&|w| w["resume"]["steps"][0]["next"] = 2.into());
    assert!(e.contains("$.resume.steps[0].next"), "{e}");
    let e = refused(&|w| w["resume"]["steps"][0]["hits"] = 3.into());
    assert!(e.contains("$.resume.steps[0].hits"), "{e}");
    let e = refused(&|w| w["resume"]["steps"][1]["star"] = 6.into());
    assert!(e.contains("$.resume.steps[1].star"), "{e}");
    let e = refused(&|w| w["resume"]["ability"] = 1.into());
    assert!(e.contains("$.resume"), "{e}");
    let e = refused(&|w| w["resume"]["steps"][0]["extra"] = 1.into());
    assert!(e.contains("$.resume"), "{e}");
    // Without the option no resolution is ever suspended.
    let e = refused(&|w| {
        w["options"]["reactions_interrupt"] = false.into();
    });
    assert!(e.contains("reactions_interrupt"), "{e}");
    // With every window closed there is nothing to resume.
    let e = refused(&|w| w["offers"] = serde_json::json!([]));
    assert!(e.contains("$.resume"), "{e}");
}

/// `reactions_interrupt` in random games of every mode: every generated action passes
/// `check`, the invariants hold, every state saves and loads (JSON and position) with the
/// same legal actions, a replay of the actions from the seed reaches the same state, and
/// every game ends; resolutions are suspended in some of them.
#[test]
fn zn_9_5_random_games_with_reactions_interrupt_end_and_round_trip() {
    let mut suspended = 0;
    for (m, n) in EVERY_MODE {
        for seed in 0..8 {
            let opts = Options {
                reactions_interrupt: true,
                ..mode(m, n)
            };
            let mut g = game(opts.clone(), seed);
            let mut rng = crate::rng::GameRng::seed(seed + 91);
            let mut record = Vec::new();
            while g.current_player().is_some() {
                let acts = legal(&g);
                for &a in &acts {
                    assert!(g.check(a).is_ok(), "{m} seed {seed}: {a:?}");
                }
                if matches!(g.resume, Resume::Resolution(_)) {
                    suspended += 1;
                    let v = g.to_json();
                    let back = <Zinordia as Game>::from_json(&v).expect("round trip");
                    assert_eq!(back.to_json(), v);
                    assert_eq!(legal(&back), acts);
                    let text = g.position(None).unwrap();
                    let p = Zinordia::from_position(&text, &opts, 0).expect("position");
                    assert_eq!(p.to_json(), v);
                }
                let a = *rng.choose(&acts).unwrap();
                g.apply(a).unwrap();
                record.push(a);
                super::turn::check_invariants(&g);
                assert!(record.len() < 20_000, "{m} seed {seed} does not end");
            }
            assert_eq!(g.phase, Phase::Over);
            let mut replay = game(opts, seed);
            for &a in &record {
                replay.apply(a).unwrap();
            }
            assert_eq!(replay.to_json(), g.to_json(), "{m} seed {seed}: replay");
        }
    }
    assert!(suspended > 20, "only {suspended} suspended resolutions");
}
