//! The search's attack rule (`heuristic::material_action`, STRIFULL's `routine_action`): it
//! judges only from what the mover sees (SK-10), and it counts what a row takes with it
//! when it falls (SK-7.1).

use super::*;
use crate::knowledge::Knowledge;
use crate::strifull::heuristic::material_action;

/// The material move and the routine decision are functions of the mover's view: on a
/// redraw of everything the mover cannot see, they choose the same action with the same
/// tie-breaking draws (the conformance suite's `heuristic_sight`, asked of them); the
/// routine decision is the attack, and only the attack.
#[test]
fn sk_10_the_material_move_reads_only_what_the_mover_sees() {
    let mut buf = Vec::new();
    let (mut moves, mut attacks) = (0, 0);
    for seed in 0..12 {
        let mut g = Strifull::new(seed, &Options::default()).unwrap();
        let mut rng = GameRng::seed(seed);
        while let Some(p) = g.current_player() {
            let tie_break = rng.next_u64();
            let a = material_action(&g, &mut GameRng::seed(tie_break)).unwrap();
            let r = g.routine_action(&mut GameRng::seed(tie_break));
            g.legal_actions(&mut buf);
            assert!(buf.contains(&a), "{}", a.notation());
            if g.step == Step::Attack {
                assert_eq!(r, Some(a));
                attacks += 1;
            } else {
                assert_eq!(r, None);
            }
            for _ in 0..2 {
                let other = g.resample_hidden(p, rng.next_u64());
                let b = material_action(&other, &mut GameRng::seed(tie_break)).unwrap();
                assert_eq!(a, b, "{}", g.render(Some(p)));
            }
            moves += 1;
            g.apply(*rng.choose(&buf).unwrap()).unwrap();
        }
    }
    assert!(moves > 500 && attacks > 100, "{moves} {attacks}");
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
