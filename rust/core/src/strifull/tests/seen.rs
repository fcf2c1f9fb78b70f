//! What each seat sees of a move (`Game::action_seen`): the rules' public and secret parts.

use super::*;

fn seen_both(g: &Strifull, text: &str) -> (String, String) {
    let a = Action::parse(text).unwrap();
    let mover = g.current_player().unwrap();
    (g.action_seen(mover, a), g.action_seen(1 - mover, a))
}

/// SK-3.2, SK-3.3, SK-10.1: setup changes, the element and player 0's leader row are
/// secret; player 1's leader row ends setup and shows every choice, so it reads whole.
#[test]
fn sk_3_2_setup_choices_are_secret_until_both_are_done() {
    let mut g = Strifull::new(2, &Options::default()).unwrap();
    let secret = |g: &Strifull, text: &str, public: &str| {
        assert_eq!(seen_both(g, text), (text.to_string(), public.to_string()));
    };
    for p in 0..2 {
        assert_eq!(g.current_player(), Some(p));
        secret(&g, "swap aA1 aB2", "swap (secret)");
        secret(&g, "swap aA1 pile", "swap pile (secret)");
        act(&mut g, "swap aA1 aB2");
        // SK-3.3: ending the changes early is seen (the next setup step begins).
        secret(&g, "pass", "pass");
        act(&mut g, "pass");
        secret(&g, "element fire", "element (secret)");
        act(&mut g, "element fire");
        if p == 0 {
            secret(&g, "leader 2", "leader (secret)");
        } else {
            secret(&g, "leader 2", "leader 2");
        }
        act(&mut g, "leader 2");
    }
    assert!(g.turn > 0);
}

/// SK-4, SK-10.1: turn moves name cells only, so they read whole for both players.
#[test]
fn sk_4_turn_moves_are_public() {
    let mut g = Strifull::new(2, &Options::default()).unwrap();
    let mut rng = GameRng::seed(2);
    play_until(&mut g, &mut rng, |g| g.turn > 0);
    let mut seen = 0;
    for _ in 0..40 {
        if g.is_terminal() {
            break;
        }
        for a in legal(&g) {
            assert_eq!(seen_both(&g, &a), (a.clone(), a.clone()));
            seen += 1;
        }
        let mut buf = Vec::new();
        g.legal_actions(&mut buf);
        g.apply(*rng.choose(&buf).unwrap()).unwrap();
    }
    assert!(seen > 0);
}
