//! The fight-judged settle move (`heuristic::fight_settle_action`, a candidate for
//! `Game::playout_action`): it judges only from what the mover sees (SK-10), and its
//! battle move looks at the attack it prepares.

use super::*;
use crate::strifull::heuristic::{exposure_settle_action, fight_settle_action, material_action};

/// The settle move is a function of the mover's view: on a redraw of everything the mover
/// cannot see, it chooses the same action with the same tie-breaking draws (the
/// conformance suite's `heuristic_sight`, asked of the settle's move).
#[test]
fn sk_10_the_settle_move_reads_only_what_the_mover_sees() {
    let mut buf = Vec::new();
    let mut moves = 0;
    for seed in 0..12 {
        let rule = match seed % 3 {
            0 => fight_settle_action,
            1 => exposure_settle_action,
            _ => material_action,
        };
        let mut g = Strifull::new(seed, &Options::default()).unwrap();
        let mut rng = GameRng::seed(seed);
        while let Some(p) = g.current_player() {
            let tie_break = rng.next_u64();
            let a = rule(&g, &mut GameRng::seed(tie_break)).unwrap();
            g.legal_actions(&mut buf);
            assert!(buf.contains(&a), "{}", a.notation());
            for _ in 0..2 {
                let other = g.resample_hidden(p, rng.next_u64());
                let b = rule(&other, &mut GameRng::seed(tie_break)).unwrap();
                assert_eq!(a, b, "{}", g.render(Some(p)));
            }
            moves += 1;
            g.apply(*rng.choose(&buf).unwrap()).unwrap();
        }
    }
    assert!(moves > 500, "{moves}");
}

/// SK-4.2, SK-5.2: a swap inside the attack zone changes no troop's fit, but it sets both
/// attackers in front of the defenders they beat best (frontal attacks at advantage 2
/// instead of 1 at best): the settle's battle move prepares the attack; the Heuristic
/// agent's (fit only) does not move.
#[test]
fn sk_4_2_the_settle_battle_move_prepares_the_attack() {
    let mut pos = p1_full_defence(Pos::new())
        .set("step", json!("move"))
        .down(0, "aA1", "martires_vento")
        .down(0, "aB1", "martires_terra")
        .down(0, "dA1", "guarda_fogo")
        .down(0, "dB1", "guarda_agua");
    // The opponent's front defenders are face up: ilusionistas_agua (DEF 5, its attacker
    // uses DEF) in column A, arcanistas_fogo (DEF 2) in column B. martires_vento (ATK 5,
    // DEF 2) fights the first at 2 against 5 and the second at 5 against 3 (fire beats
    // wind); martires_terra (ATK 2, DEF 5, earth: +1 in the earth leader's row) the second
    // at 3 against 2, and the first at 7 against 5 (earth beats water).
    for (cell, card) in [
        ("dA1", "ilusionistas_agua"),
        ("dB1", "arcanistas_fogo"),
        ("dC1", "sentinelas_agua"),
    ] {
        pos = pos.up(1, cell, card);
    }
    let g = pos.game();
    for seed in 0..8 {
        let a = fight_settle_action(&g, &mut GameRng::seed(seed)).unwrap();
        let mut after = g.clone();
        after.apply(a).unwrap();
        assert_eq!(
            cell_json(&after.to_json(), 0, "aB1")["card"],
            json!("martires_vento"),
            "{}",
            a.notation()
        );
        let h = g.heuristic_action(&mut GameRng::seed(seed)).unwrap();
        let mut after = g.clone();
        after.apply(h).unwrap();
        assert_eq!(
            cell_json(&after.to_json(), 0, "aB1")["card"],
            json!("martires_terra"),
            "{}",
            h.notation()
        );
    }
}

/// SK-7.1: a row falls with every troop still in it. Two opposing defenders each hold their
/// defence half-row alone: dA2 (sentinelas_vento, DEF 2: advantage +1 to guarda_vento's
/// ATK 3) guards a row with one weak attacker, dA1 (sentinelas_terra, DEF 4 + 1 in its
/// earth leader's row, wind beats earth: advantage -1) a row with three strong ones. The
/// Heuristic agent counts every row kill alike (a troop and two more) and takes the better
/// odds; the material rule counts the row's troops (what `evaluate` loses with them) and
/// attacks the full row.
#[test]
fn sk_7_1_the_material_attack_counts_what_a_row_takes_with_it() {
    let pos = Pos::new()
        .live(1, [true, true, false])
        .up(0, "aA1", "guarda_vento")
        .up(0, "aB1", "guarda_fogo")
        .up(0, "dA1", "guarda_agua")
        .up(1, "dA1", "sentinelas_terra")
        .up(1, "aA1", "arcanistas_fogo")
        .up(1, "aB1", "arcanistas_vento")
        .up(1, "aC1", "arcanistas_fogo")
        .up(1, "dA2", "sentinelas_vento")
        .up(1, "aA2", "ilusionistas_agua");
    let g = pos.game();
    for a in ["attack aA1 dA1", "attack aA1 dA2"] {
        assert!(legal(&g).contains(&a.to_string()), "{:?}", legal(&g));
    }
    for seed in 0..8 {
        let a = material_action(&g, &mut GameRng::seed(seed)).unwrap();
        assert_eq!(a.notation(), "attack aA1 dA1");
        let h = g.heuristic_action(&mut GameRng::seed(seed)).unwrap();
        assert!(h.notation().ends_with(" dA2"), "{}", h.notation());
    }
}
