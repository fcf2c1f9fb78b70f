//! The position string (docs/zinordia.md, "Position string"): exact for the whole state, a
//! view loads determinized (ZN-4.2's secret picks, the dice), content named not carried.

use super::*;
use crate::game::Game;
use crate::rng::GameRng;

/// Along random games of every mode, at every ply: the whole position loads as the same
/// state, and each player's view position as a state with the same view whose own view
/// position is the same text.
#[test]
fn positions_round_trip_at_every_ply_of_random_games() {
    let modes = [
        mode("duel", None),
        mode("free_for_all", Some(3)),
        mode("teams", Some(4)),
        Options {
            selection: super::super::options::Selection::Draft,
            ..mode("duel", None)
        },
    ];
    for (k, o) in modes.iter().enumerate() {
        let mut g = Zinordia::new(k as u64 + 3, o).unwrap();
        let mut rng = GameRng::seed(k as u64);
        let mut ply = 0;
        loop {
            // Every ply early on (selection and placement), then every fifth.
            if ply < 40 || ply % 5 == 0 {
                let text = g.position(None).unwrap();
                assert!(!text.contains('?'), "{text}");
                let back =
                    Zinordia::from_position(&text, o, 0).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(back.to_json(), g.to_json(), "{text}");
                for p in 0..g.num_players() {
                    let view = g.position(Some(p)).unwrap();
                    let h = Zinordia::from_position(&view, o, 9)
                        .unwrap_or_else(|e| panic!("{view}: {e}"));
                    assert_eq!(h.view(p), g.view(p), "{view}");
                    assert_eq!(h.position(Some(p)).unwrap(), view);
                }
            }
            let moves = legal(&g);
            let Some(&a) = rng.choose(&moves) else { break };
            if g.is_terminal() || ply > 400 {
                break;
            }
            g.apply(a).unwrap();
            ply += 1;
        }
    }
}

/// ZN-4.2: during a secret selection the other side's picks are `?` and load as Stars its
/// team has not picked, redrawn from the seed.
#[test]
fn zn_4_2_a_view_hides_the_secret_picks_and_the_dice() {
    let o = Options::default();
    let mut g = Zinordia::new(4, &o).unwrap();
    for _ in 0..2 {
        let a = legal(&g)[0];
        g.apply(a).unwrap();
    }
    let text = g.position(Some(1)).unwrap();
    let fields: Vec<&str> = text.split(' ').collect();
    assert_eq!(fields[2], "?", "{text}");
    assert!(fields[3].starts_with("?,?/"), "{text}");
    assert_eq!(fields.last(), Some(&"@1"));
    let worlds: Vec<Zinordia> = (0..6)
        .map(|s| Zinordia::from_position(&text, &o, s).unwrap())
        .collect();
    assert!(worlds.iter().all(|w| w.view(1) == g.view(1)));
    assert!(worlds.iter().any(|w| w.to_json() != worlds[0].to_json()));
}

#[test]
fn a_position_of_custom_content_needs_that_content_in_the_options() {
    let reference = Options::default();
    let text = Zinordia::new(1, &reference)
        .unwrap()
        .position(None)
        .unwrap();
    assert!(text.starts_with("ref "), "{text}");
    let roster = super::super::content::REFERENCE_ROSTER.replace("Ignara", "Ignara II");
    let custom = Options {
        roster_toml: Some(roster),
        ..Options::default()
    };
    let mine = Zinordia::new(1, &custom).unwrap().position(None).unwrap();
    assert!(mine.starts_with("custom:"), "{mine}");
    assert!(Zinordia::from_position(&mine, &custom, 0).is_ok());
    let e = Zinordia::from_position(&mine, &reference, 0)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("position field 1 (content)"), "{e}");
    assert!(e.contains("roster_toml"), "{e}");
    let e = Zinordia::from_position(&text, &custom, 0)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("reference content"), "{e}");
}

#[test]
fn bad_positions_name_the_field() {
    let o = Options::default();
    let mut g = Zinordia::new(2, &o).unwrap();
    let mut rng = GameRng::seed(2);
    for _ in 0..30 {
        let moves = legal(&g);
        g.apply(*rng.choose(&moves).unwrap()).unwrap();
    }
    let text = g.position(None).unwrap();
    let err = |t: &str| Zinordia::from_position(t, &o, 0).err().unwrap().to_string();
    let mut fields: Vec<&str> = text.split(' ').collect();
    fields[1] = "main:1";
    let e = err(&fields.join(" "));
    assert!(e.contains("position field 2 (state)"), "{e}");
    let mut fields: Vec<&str> = text.split(' ').collect();
    fields[6] = "nobody@0,0:1.1.1.1:00:0,0,0,0:-";
    let e = err(&fields.join(" "));
    assert!(e.contains("position (stars"), "{e}");
    let e = err(&text.replacen(" main:", " middle:", 1));
    assert!(e.contains("position (phase)"), "{e}");
}
