//! The position string (docs/arte.md, "Position string"): exact for the whole state, a view
//! loads determinized (AG-9), and bad text names its field.

use super::*;

/// Along random games under every option set, at every ply: the whole position loads as the
/// same state, and each player's view position loads as a state with the same view whose
/// own position is the same text.
#[test]
fn positions_round_trip_at_every_ply_of_random_games() {
    for (k, o) in all_options().into_iter().enumerate() {
        for seed in 0..3u64 {
            let mut g = Arte::new(seed * 7 + k as u64, &o).unwrap();
            let mut rng = GameRng::seed(seed + 40);
            let mut buf = Vec::new();
            loop {
                let text = g.position(None).unwrap();
                let back =
                    Arte::from_position(&text, &o, 0).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(back.to_json(), g.to_json(), "{text}");
                assert!(!text.contains('?'), "{text}");
                for p in 0..2 {
                    let view = g.position(Some(p)).unwrap();
                    let h = Arte::from_position(&view, &o, seed)
                        .unwrap_or_else(|e| panic!("{view}: {e}"));
                    assert_eq!(h.view(p), g.view(p), "{view}");
                    assert_eq!(h.position(Some(p)).unwrap(), view);
                }
                if g.current().is_none() {
                    break;
                }
                g.legal_actions(&mut buf);
                g.apply(*rng.choose(&buf).unwrap()).unwrap();
            }
        }
    }
}

/// AG-9: a view position hides the piles, the face-down draft card and the dice; two seeds
/// deal the hidden cards differently.
#[test]
fn ag_9_a_view_position_hides_what_the_player_may_not_see() {
    let o = Options::default();
    let mut g = Arte::new(3, &o).unwrap();
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    g.apply(buf[0]).unwrap(); // the picker hides a card (AG-2.2)
    let text = g.position(Some(1)).unwrap();
    let fields: Vec<&str> = text.split(' ').collect();
    assert_eq!(fields[1], "?", "{text}");
    assert!(fields[2].starts_with('?'), "{text}");
    assert!(fields[3].contains('*'), "the face-down slot: {text}");
    assert_eq!(fields[8], "@1");
    let a = Arte::from_position(&text, &o, 1).unwrap();
    let b = Arte::from_position(&text, &o, 2).unwrap();
    assert_eq!(a.view(1), b.view(1));
    assert_ne!(a.to_json(), b.to_json());
}

#[test]
fn bad_positions_name_the_field() {
    let o = Options::default();
    let g = Arte::new(5, &o).unwrap();
    let text = g.position(None).unwrap();
    let err = |t: &str| Arte::from_position(t, &o, 0).err().unwrap().to_string();
    let e = err(&text.replacen("draft:", "drift:", 1));
    assert!(e.contains("position (phase)"), "{e}");
    let e = err(&text.replacen("draft:0:-:-", "draft:0", 1));
    assert!(e.contains("position field 1 (state)"), "{e}");
    // A card named twice, or a hidden card in a whole position.
    let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
    fields[4] = "T1".into();
    let e = err(&fields.join(" "));
    assert!(e.contains("T1") || e.contains("places"), "{e}");
    let view = g.position(Some(0)).unwrap();
    let e = err(view.trim_end_matches(" @0"));
    assert!(e.contains("viewer field"), "{e}");
    let mut fields: Vec<&str> = view.split(' ').collect();
    fields[2] = "?100/?100";
    let e = err(&fields.join(" "));
    assert!(e.contains("position field 3 (piles)"), "{e}");
}
