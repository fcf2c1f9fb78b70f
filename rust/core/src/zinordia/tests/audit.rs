//! The readings settled after the first Zinordia audit (`shared/rules-notes.md`), each on a
//! hand-built position: immediate victory (ZN-12.6), reactions right after their trigger
//! (ZN-9.5), "until the end of the turn" as the originator's turn (ZN-5.6, ZN-10.5),
//! continuous Armadura (ZN-11.1), every side's last Star at once (ZN-12.7, ZN-12.8),
//! defeating an ally (ZN-12.3), areas and their user (ZN-10.3), Repetição (ZN-10.6).

use super::abilities::{dir, duel_with, hit, play, spot, stage, use_on, with_dice, zone};
use super::*;
use crate::zinordia::ability::Stat;
use crate::zinordia::ability::Trigger;
use crate::zinordia::effects::Status;
use crate::zinordia::options::AllyDefeat;
use crate::zinordia::state::Resume;

fn duel_of(p0: [&str; 3], p1: [&str; 3]) -> Zinordia {
    duel_with(mode("duel", None), p0, p1)
}

/// Take Star `s` out of the game (a hand-built position).
fn remove(g: &mut Zinordia, s: usize) {
    if let Some(h) = g.stars[s].zone.take() {
        g.board_mut().set_occupant(h, None).unwrap();
    }
    g.stars[s].defeated = true;
}

fn slot_of(g: &Zinordia, s: usize, id: &str) -> u8 {
    g.star_data(s)
        .abilities
        .iter()
        .position(|a| a.id == id)
        .unwrap() as u8
}

#[test]
fn zn_12_6_victory_is_immediate_even_mid_ability() {
    // Ignara's Bola de Fogo (radius 1, enemies) on Vésper and Draven: the first instance in
    // zone order kills and reaches the target; the second Star is never touched, and the
    // kill's triggers (Draven's Vingança on an ally defeated) never fire.
    let mut g = duel_of(["ignara", "lumen", "oren"], ["vesper", "draven", "nyra"]);
    let c = spot(&g, &[dir(0), dir(1), dir(3) * 3]);
    stage(
        &mut g,
        &[(0, c + dir(3) * 2), (3, c + dir(0)), (4, c + dir(1))],
    );
    let (first, second) = if zone(&g, c + dir(0)) < zone(&g, c + dir(1)) {
        (3, 4)
    } else {
        (4, 3)
    };
    g.stars[first].vida = 1;
    g.stars[first].armadura = 0;
    g.stars[0].renown = 3;
    let vida = g.stars[second].vida;
    let armadura = g.stars[second].armadura;
    play(&mut g, 0);
    g.apply(use_on(&g, "bola_de_fogo", c)).unwrap();
    // Vésper may dodge (Esquiva, targeted): she declines.
    while g
        .offers
        .front()
        .is_some_and(|o| o.trigger == Trigger::Targeted)
    {
        let a = Action::Decline;
        if g.offers.len() == 1 {
            with_dice(&mut g, a, |g| hit(g, 3) && hit(g, 4));
        } else {
            g.apply(a).unwrap();
        }
    }
    assert_eq!(g.phase, Phase::Over);
    assert_eq!(g.winner, Some(0));
    assert_eq!(g.stars[0].renown, 4);
    assert_eq!(
        (g.stars[second].vida, g.stars[second].armadura),
        (vida, armadura)
    );
    assert_eq!(g.stat(4, Stat::Attack), 0, "no trigger after the win");
}

#[test]
fn zn_12_6_collecting_the_target_ends_the_game_before_the_play_goes_on() {
    let mut g = duel_of(["kael", "lumen", "oren"], ["vesper", "draven", "nyra"]);
    let m = g.markers[0];
    stage(&mut g, &[(0, m)]);
    g.stars[0].renown = 3;
    play(&mut g, 0);
    g.apply(Action::Collect).unwrap();
    assert_eq!((g.phase, g.winner), (Phase::Over, Some(0)));
    assert!(g.play.is_none());
}

#[test]
fn zn_9_5_reactions_are_asked_right_after_their_trigger_by_default() {
    // Kael's Rajada de Lâminas (three instances) on Morwen: Véu Sombrio (damaged) is asked
    // after the first instance, the rest of the attack waiting (the default reading).
    assert!(Options::default().reactions_interrupt);
    let mut g = duel_of(["kael", "lumen", "oren"], ["morwen", "grom", "nyra"]);
    let c = spot(&g, &[dir(0)]);
    stage(&mut g, &[(0, c), (3, c + dir(0))]);
    g.stars[3].armadura = 0;
    play(&mut g, 0);
    let full = g.stars[3].vida;
    let a = use_on(&g, "rajada_de_laminas", c + dir(0));
    with_dice(&mut g, a, |g| hit(g, 3));
    let instance = full - g.stars[3].vida;
    assert!(instance > 0);
    assert!(matches!(g.resume, Resume::Resolution(_)));
    assert_eq!(g.offers.front().map(|o| o.star), Some(3));
    g.apply(Action::React {
        ability: slot_of(&g, 3, "veu_sombrio"),
        alt: false,
    })
    .unwrap();
    assert_eq!(full - g.stars[3].vida, instance, "immune to the other two");
}

fn main_duel() -> (Zinordia, usize, usize) {
    let g = duel_of(["ignara", "torvald", "sylvara"], ["kael", "lumen", "grom"]);
    let first = g.order[0];
    (g, first * 3, (1 - first) * 3)
}

#[test]
fn zn_10_5_an_untimed_change_made_in_anothers_turn_lasts_to_the_end_of_its_players_next_turn() {
    let (mut g, mine, theirs) = main_duel();
    let pf = g.stat(theirs, Stat::PoderFisico);
    let buff = Status::Stat {
        stat: Stat::PoderFisico,
        amount: 2,
        stacks: true,
    };
    // Made by `theirs` (a reaction) during my turn, and one I make in my turn.
    g.add_status(theirs, theirs, buff.clone(), None);
    g.add_status(mine, mine, buff, None);
    let my_pf = g.stat(mine, Stat::PoderFisico);
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(g.stat(theirs, Stat::PoderFisico), pf + 2, "not my turn's");
    assert_eq!(g.stat(mine, Stat::PoderFisico), my_pf - 2, "mine ended");
    assert_eq!(g.turn_player(), g.shared.owner(theirs));
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(g.stat(theirs, Stat::PoderFisico), pf);
}

#[test]
fn zn_11_1_a_continuous_armadura_change_moves_the_current_value_both_ways() {
    // Grom's Pele de Pedra: +1 Armadura while an enemy is adjacent.
    let mut g = duel_of(["kael", "lumen", "oren"], ["grom", "draven", "nyra"]);
    let c = spot(&g, &[dir(0), dir(0) * 2, dir(0) * 3]);
    stage(&mut g, &[(3, c), (0, c + dir(0) * 3)]);
    let printed = g.star_data(3).armadura;
    g.stars[3].armadura = u16::from(printed);
    play(&mut g, 0);
    g.apply(Action::Move(zone(&g, c + dir(0)))).unwrap();
    assert_eq!(g.stars[3].armadura, u16::from(printed) + 1, "at once");
    g.apply(Action::Move(zone(&g, c + dir(0) * 2))).unwrap();
    assert_eq!(g.stars[3].armadura, u16::from(printed), "taken back");
    // Never below 0: the bonus used up, then the condition ends.
    play(&mut g, 0);
    g.apply(Action::Move(zone(&g, c + dir(0)))).unwrap();
    g.stars[3].armadura = 0;
    g.apply(Action::Move(zone(&g, c + dir(0) * 2))).unwrap();
    assert_eq!(g.stars[3].armadura, 0);
}

#[test]
fn zn_12_8_every_sides_last_star_falling_at_once_is_decided_by_the_tie_rule() {
    // Kael (seat 1's last Star) dashes next to Sylvara (seat 0's last): Tiro de Resposta
    // answers the zone entered and defeats him; the rest of Investida (his damage still
    // lands) defeats her. Nobody is left: the tie rule decides, never a draw.
    let mut g = duel_of(["sylvara", "lumen", "oren"], ["kael", "grom", "nyra"]);
    let c = spot(&g, &[dir(0), dir(0) * 2, dir(0) * 3, dir(0) * 4]);
    stage(&mut g, &[(3, c), (0, c + dir(0) * 4)]);
    for s in [1, 2, 4, 5] {
        remove(&mut g, s);
    }
    for s in [0, 3] {
        g.stars[s].vida = 1;
        g.stars[s].armadura = 0;
    }
    play(&mut g, 3);
    g.apply(use_on(&g, "investida", c + dir(0) * 3)).unwrap();
    assert_eq!(g.offers.front().map(|o| o.star), Some(0), "asked at once");
    g.apply(Action::React {
        ability: slot_of(&g, 0, "tiro_de_resposta"),
        alt: false,
    })
    .unwrap();
    assert!(g.stars[0].defeated && g.stars[3].defeated);
    assert_eq!(g.phase, Phase::Over);
    // Both at 0 Renown: earlier in the initiative order wins.
    assert_eq!(g.winner, Some(g.shared.team(g.order[0])));
    let r = g.returns();
    assert!(r.contains(&1.0) && r.contains(&-1.0), "{r:?}");
}

#[test]
fn zn_12_3_defeating_an_ally_pays_nothing_and_its_renown_is_lost() {
    for rule in [AllyDefeat::Lost, AllyDefeat::Pays] {
        let options = Options {
            ally_defeat: rule,
            ..mode("duel", None)
        };
        // Aurélio's Julgamento (a line, friend or foe) through Lúmen, an ally carrying 2.
        let mut g = duel_with(
            options,
            ["aurelio", "lumen", "oren"],
            ["kael", "grom", "nyra"],
        );
        let c = spot(&g, &[dir(0), dir(0) * 2]);
        stage(&mut g, &[(0, c), (1, c + dir(0))]);
        g.stars[1].vida = 1;
        g.stars[1].armadura = 0;
        g.stars[1].renown = 2;
        play(&mut g, 0);
        let a = use_on(&g, "julgamento", c + dir(0));
        with_dice(&mut g, a, |g| hit(g, 1));
        assert!(g.stars[1].defeated);
        let want = match rule {
            AllyDefeat::Lost => 0,
            AllyDefeat::Pays => 3,
        };
        assert_eq!(g.stars[0].renown, want, "{rule:?}");
        assert_eq!(g.team_renown(0), u32::from(want));
    }
}

#[test]
fn zn_10_3_an_area_affects_its_user_only_if_its_text_says_so() {
    // Oren's Anel de Raios: a ring of 2 around a zone 2 away passes through Oren's zone.
    let mut g = duel_of(["oren", "lumen", "ignara"], ["kael", "grom", "nyra"]);
    let c = spot(&g, &[dir(0) * 2, dir(0) * 4]);
    stage(&mut g, &[(0, c), (3, c + dir(0) * 4)]);
    play(&mut g, 0);
    let vida = g.stars[0].vida;
    let a = use_on(&g, "anel_de_raios", c + dir(0) * 2);
    with_dice(&mut g, a, |g| hit(g, 3));
    let roll = g.last_roll.as_ref().unwrap();
    assert!(roll.defences.iter().all(|d| d.star != 0), "{roll:?}");
    assert_eq!(g.stars[0].vida, vida);
}

#[test]
fn zn_10_6_repeticao_abilities_can_be_used_twice_a_round() {
    // Flecha Certeira: ultra-rapid, so the first is free and the second is the activation.
    let mut g = duel_of(["sylvara", "lumen", "oren"], ["grom", "kael", "nyra"]);
    let c = spot(&g, &[dir(0) * 3]);
    stage(&mut g, &[(0, c), (3, c + dir(0) * 3)]);
    g.stars[0].amago = g.star_data(0).amago;
    play(&mut g, 0);
    let flecha = slot_of(&g, 0, "flecha_certeira");
    for n in 1..=2u8 {
        let a = use_on(&g, "flecha_certeira", c + dir(0) * 3);
        g.apply(a).unwrap();
        while !g.offers.is_empty() {
            g.apply(Action::Decline).unwrap();
        }
        assert_eq!(g.stars[0].uses[usize::from(flecha)], n);
    }
    let a = use_on(&g, "flecha_certeira", c + dir(0) * 3);
    assert!(g.check(a).is_err());
    // Every reference ability with Repetição can be used twice (ultra-rapid or a reaction).
    for star in &g.shared.content.stars {
        for ab in &star.abilities {
            if ab.repeat > 1 {
                assert!(ab.ultra_rapid || ab.kind == crate::zinordia::Kind::Reaction);
            }
        }
    }
}

#[test]
fn zn_11_3_a_saved_mark_must_be_one_the_roster_applies() {
    use crate::game::Game;
    let (mut g, mine, theirs) = main_duel();
    g.add_status(mine, theirs, Status::Mark("presa".into()), Some(2));
    let v = g.to_json();
    assert!(<Zinordia as Game>::from_json(&v).is_ok());
    for bad in ["presaa", "<b>x</b>", "\u{1b}[31mred", "PRESA"] {
        let mut w = v.clone();
        w["stars"][theirs]["effects"][0]["status"]["mark"] = bad.into();
        let err = <Zinordia as Game>::from_json(&w).unwrap_err();
        assert!(
            matches!(err, crate::error::Error::State { .. }),
            "{bad:?}: {err}"
        );
        let text = err.to_string();
        assert!(
            text.contains(&format!("$.stars[{theirs}].effects[0].status.mark")),
            "{text}"
        );
        assert!(!text.contains(bad), "the bad name is not echoed: {text}");
    }
}
