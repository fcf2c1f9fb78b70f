//! The combat solver (`solve`, ISMCTS's routine decisions): its value is the minimax of the
//! round played through the game's own rules (AG-6, AG-7, AG-8), and its moves are optimal,
//! legal and taken from public information only.

use super::*;
use crate::arte::solve::{combat_move, combat_value};
use crate::knowledge::Knowledge;

/// The payoff the solver optimises, computed by playing `g`'s combat out through
/// `legal_actions` and `apply`: player 0's victory-pile gain over player 1's from here to
/// the round's end; in round 3 also 100 times the result (sudden death by each side's best
/// pick, a dominant choice).
fn brute(g: &Arte, start: [usize; 2]) -> i32 {
    if g.phase != Phase::Combat {
        let mut h = g.clone();
        let mut rng = GameRng::seed(0);
        while h.phase == Phase::SuddenDeath {
            let a = crate::arte::heuristic::heuristic_action(&h, &mut rng).unwrap();
            h.apply(a).unwrap();
        }
        let gain = |p: usize| h.sides[p].victory.len() as i32 - start[p] as i32;
        let diff = gain(0) - gain(1);
        return match h.phase {
            Phase::Over => diff + 100 * h.winner.map_or(0, |w| if w == 0 { 1 } else { -1 }),
            _ => diff,
        };
    }
    let mover = g.current().unwrap();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let values = legal.iter().map(|&a| {
        let mut h = g.clone();
        h.apply(a).unwrap();
        brute(&h, start)
    });
    if mover == 0 {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// Combat positions of random games in every option variant.
fn combat_positions() -> Vec<Arte> {
    let mut out = Vec::new();
    for (k, o) in all_options().into_iter().enumerate() {
        for seed in 0..12u64 {
            let mut g = Arte::new(seed * 11 + k as u64, &o).unwrap();
            let mut rng = GameRng::seed(seed + 100);
            let mut buf = Vec::new();
            while !g.is_terminal() {
                if g.phase == Phase::Combat {
                    out.push(g.clone());
                }
                g.legal_actions(&mut buf);
                g.apply(*rng.choose(&buf).unwrap()).unwrap();
            }
        }
    }
    out
}

/// AG-6, AG-7, AG-8: the solved value equals the minimax of the round played by the rules,
/// and the solver's move reaches it; the move is legal and the same on every redraw of what
/// the mover cannot see.
#[test]
fn the_solver_plays_the_round_perfectly() {
    let positions = combat_positions();
    assert!(positions.len() > 300, "{}", positions.len());
    let mut rounds = [0; 3];
    for g in &positions {
        let start = [0, 1].map(|p| g.sides[p].victory.len());
        let want = brute(g, start);
        let got = combat_value(g).expect("a standard round is solved");
        assert_eq!(got, want, "\n{}", g.render(None));
        rounds[g.round as usize - 1] += 1;
        let mover = g.current().unwrap();
        let a = combat_move(g, &mut GameRng::seed(3)).unwrap();
        assert!(g.check(a).is_ok());
        let mut h = g.clone();
        h.apply(a).unwrap();
        let after = brute(&h, start);
        assert_eq!(after, want, "{} is not optimal", g.action_notation(a));
        for s in 0..3 {
            let r = g.resample_hidden(mover, s);
            assert_eq!(combat_move(&r, &mut GameRng::seed(3)), Some(a));
        }
    }
    assert!(rounds.iter().all(|&n| n > 50), "{rounds:?}");
}

/// The routine decisions: combat by the solver, sudden death by the best pick, a terrain
/// placement with one way left; nothing else (draft, deployment) is routine.
#[test]
fn routine_decisions_are_combat_sudden_death_and_forced_placements() {
    let mut seen = [0; 6];
    for seed in 0..20u64 {
        let mut g = Arte::new(seed, &Options::default()).unwrap();
        let mut rng = GameRng::seed(seed);
        let mut buf = Vec::new();
        while !g.is_terminal() {
            g.legal_actions(&mut buf);
            let r = g.routine_action(&mut rng);
            match g.phase {
                Phase::Combat | Phase::SuddenDeath => {
                    let a = r.expect("combat and sudden death are routine");
                    assert!(buf.contains(&a));
                }
                Phase::Terrain => assert_eq!(r.is_some(), buf.len() == 1),
                Phase::Draft | Phase::Deploy => assert_eq!(r, None, "{:?}", g.phase),
                Phase::Over => unreachable!(),
            }
            seen[g.phase as usize] += usize::from(r.is_some());
            g.apply(*rng.choose(&buf).unwrap()).unwrap();
        }
    }
    assert!(seen[Phase::Combat as usize] > 100, "{seen:?}");
    assert!(seen[Phase::Terrain as usize] > 10, "{seen:?}");
}
