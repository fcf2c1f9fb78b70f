//! What each seat sees of a move (`Game::action_seen`): the rules' public and secret parts.

use super::*;
use crate::game::Game;
use crate::zinordia::options::Selection;

/// ZN-4.2, ZN-13.2: a secret pick reads "pick (secret)" to the other teams and whole to the
/// picker's team; the draft's picks are public.
#[test]
fn zn_4_2_secret_picks_are_seen_by_the_pickers_team_only() {
    let g = game(Options::default(), 1);
    let pick = legal(&g)[0];
    assert!(matches!(pick, Action::Pick(_)));
    let whole = Game::action_notation(&g, pick);
    assert_eq!(g.action_seen(0, pick), whole);
    assert_eq!(g.action_seen(1, pick), "pick (secret)");
    let teams = game(mode("teams", None), 1);
    let pick = legal(&teams)[0];
    let mover = teams.current_player().unwrap();
    for p in 0..4 {
        let text = teams.action_seen(p, pick);
        if teams.team(p) == teams.team(mover) {
            assert_eq!(text, Game::action_notation(&teams, pick), "partner {p}");
        } else {
            assert_eq!(text, "pick (secret)", "opponent {p}");
        }
    }
    let draft = game(
        Options {
            selection: Selection::Draft,
            ..Options::default()
        },
        1,
    );
    let pick = legal(&draft)[0];
    assert_eq!(
        draft.action_seen(1, pick),
        Game::action_notation(&draft, pick)
    );
}

/// ZN-13.1: placement and every move of the main phase happen on the open board.
#[test]
fn zn_13_1_board_moves_are_public() {
    let mut g = game(Options::default(), 2);
    let mut rng = crate::rng::GameRng::seed(2);
    let mut seen = 0;
    for _ in 0..120 {
        let Some(mover) = g.current_player() else {
            break;
        };
        let moves = legal(&g);
        if !matches!(g.phase, Phase::Select { .. }) {
            for &a in &moves {
                assert_eq!(g.action_seen(1 - mover, a), Game::action_notation(&g, a));
                seen += 1;
            }
        }
        g.apply(*rng.choose(&moves).unwrap()).unwrap();
    }
    assert!(seen > 50);
}
