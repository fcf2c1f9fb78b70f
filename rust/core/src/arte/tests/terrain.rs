//! AG-3: terrain placement.

use super::*;

/// AG-3.2: each player puts one terrain card on each row, in secret; the rows are turned up
/// when both have placed, and the coin toss for round 1 follows (AG-5.1).
#[test]
fn ag_3_2_secret_terrain_placement() {
    let mut g = after_draft(11, &opts());
    let set = g.set.clone();
    assert_eq!(g.current(), Some(0));
    let t: Vec<Card> = g.sides[0].terrains.iter().map(|h| h.card).collect();
    play(&mut g, &format!("place {} 2", set.label(t[0])));
    refuse(&mut g, &format!("place {} 2", set.label(t[1])), "AG-3.2");
    refuse(&mut g, &format!("place {} 1", set.label(t[0])), "AG-3.2");
    let foreign = g.sides[1].terrains[0].card;
    refuse(&mut g, &format!("place {} 1", set.label(foreign)), "AG-3.2");
    refuse(&mut g, "pass", "AG-1.5");
    play(&mut g, &format!("place {} 1", set.label(t[1])));
    play(&mut g, &format!("place {} 3", set.label(t[2])));
    // Player 1 places next, seeing nothing of player 0's placement.
    assert_eq!(g.current(), Some(1));
    let v1 = g.view(1);
    assert_eq!(
        v1["players"][0]["placing"],
        serde_json::json!([{"card": null, "row": null}, {"card": null, "row": null}, {"card": null, "row": null}])
    );
    assert_eq!(
        v1["players"][0]["rows"],
        serde_json::json!([null, null, null])
    );
    assert_eq!(g.view(0)["players"][0]["placing"][0]["row"], 2);
    let u: Vec<Card> = g.sides[1].terrains.iter().map(|h| h.card).collect();
    for (i, &c) in u.iter().enumerate() {
        play(&mut g, &format!("place {} {}", set.label(c), i + 1));
    }
    assert_eq!(g.sides[0].rows, [Some(t[1]), Some(t[0]), Some(t[2])]);
    assert_eq!(g.sides[1].rows, [Some(u[0]), Some(u[1]), Some(u[2])]);
    assert!(g
        .sides
        .iter()
        .all(|s| s.terrains.is_empty() && s.placing.is_empty()));
    assert_eq!((g.phase, g.round), (Phase::Deploy, 1));
    assert!(g.first_attacker.is_some());
    assert_eq!(
        g.current(),
        g.first_attacker,
        "AG-5.2: the first attacker deploys first"
    );
}
