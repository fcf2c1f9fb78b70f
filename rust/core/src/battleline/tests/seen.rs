//! What each seat sees of a move (`Game::action_seen`): the rules' public and secret parts.

use super::*;

/// BL-8.1: a Scout's return goes face down on its own deck: the opponent reads the deck
/// only, the mover the card; the play, the draw and the claim are seen whole by both.
#[test]
fn bl_8_1_a_scout_return_is_secret_and_a_troop_play_is_public() {
    let mut returned = None;
    let mut public = 0;
    for seed in 0..60 {
        random_game(seed, &Options::default(), |g, moves| {
            let Some(mover) = g.current_player() else {
                return;
            };
            for &a in moves {
                let (mine, theirs) = (g.action_seen(mover, a), g.action_seen(1 - mover, a));
                assert_eq!(mine, a.to_string(), "the mover sees its move whole");
                match a {
                    Action::Return(card) => {
                        let deck = if card.is_troop() { "troop" } else { "tactics" };
                        assert_eq!(theirs, format!("return {deck} (secret)"));
                        assert!(!theirs.contains(&card.to_string()), "{theirs}");
                        returned = Some(theirs);
                    }
                    _ => {
                        assert_eq!(theirs, a.to_string());
                        public += 1;
                    }
                }
            }
        });
        if returned.is_some() {
            break;
        }
    }
    assert!(
        returned.is_some() && public > 100,
        "a Scout's return was reached"
    );
}

/// BL-1 (the table is open): a troop card played reads as its notation for both seats.
#[test]
fn bl_a_card_played_reads_whole_for_both() {
    let g = BattleLine::new(3, &Options::default()).unwrap();
    let a = legal(&g)[0];
    assert!(matches!(a, Action::Play { .. }));
    assert_eq!(g.action_seen(0, a), a.to_string());
    assert_eq!(g.action_seen(1, a), a.to_string());
    let draw = act("draw troop");
    assert_eq!(
        g.action_seen(1 - g.current_player().unwrap(), draw),
        "draw troop"
    );
}
