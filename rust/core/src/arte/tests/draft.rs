//! AG-2: the draft (stages, who decides, what each player sees, where the cards go).

use super::*;

/// AG-2.1 to AG-2.6: the three stages, who decides, what each player sees, where the cards go.
#[test]
fn ag_2_draft_stages_visibility_and_cards() {
    let mut g = Arte::new(7, &opts()).unwrap();
    let set = g.set.clone();
    let d = g.draft.clone().unwrap();
    assert_eq!(
        (d.picker, g.current()),
        (0, Some(0)),
        "AG-2.1: player 0 picks first"
    );
    // AG-2.2: the picker sees the three cards, the other player none.
    assert!(g.view(0)["draft"]["slots"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v.is_string()));
    assert!(g.view(1)["draft"]["slots"]
        .as_array()
        .unwrap()
        .iter()
        .all(Value::is_null));
    let [a, b, c] = d.slots.map(Option::unwrap);
    refuse(&mut g, "take ?", "AG-1.5");
    let undrawn = (0..9).find(|t| ![a, b, c].contains(t)).unwrap();
    refuse(&mut g, &format!("hide {}", set.label(undrawn)), "AG-2.2");
    play(&mut g, &format!("hide {}", set.label(b)));
    // The chooser now sees the two shown cards, not the hidden one.
    let v1 = g.view(1);
    let slots = v1["draft"]["slots"].as_array().unwrap();
    assert_eq!(slots[0], Value::from(set.label(a)));
    assert!(slots[1].is_null());
    assert_eq!(slots[2], Value::from(set.label(c)));
    assert_eq!(
        g.current(),
        Some(1),
        "AG-2.3: the other player chooses first"
    );
    assert_eq!(
        legal(&g),
        vec![
            "take ?".to_string(),
            format!("take {}", set.label(a.min(c))),
            format!("take {}", set.label(a.max(c)))
        ]
    );
    refuse(&mut g, &format!("take {}", set.label(b)), "AG-2.3");
    // AG-9.2: that refusal does not tell the chooser which card is face down: it reads like
    // the refusal of a card that was never drawn.
    let refusal = |g: &Arte, c: Card| match g.check(Action::Take(c)) {
        Err(Error::IllegalAction { rule, message }) => {
            (rule, message.replace(&set.label(c), "<card>"))
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(refusal(&g, b), refusal(&g, undrawn));
    // AG-2.3: the chooser takes the face-down card: the picker saw it, so it is not secret.
    play(&mut g, "take ?");
    assert_eq!(
        g.sides[1].terrains,
        vec![Held {
            card: b,
            secret: false
        }]
    );
    assert_eq!(g.current(), Some(0), "AG-2.4: then the picker");
    refuse(&mut g, "take ?", "AG-2.4");
    play(&mut g, &format!("take {}", set.label(c)));
    // AG-2.5: the last card is discarded face up; the next draft is player 1's.
    assert_eq!(g.discard, vec![a]);
    assert_eq!(g.draft.as_ref().unwrap().picker, 1);

    // Draft 2: player 1 picks and keeps the face-down card: secret from player 0 (AG-2.6).
    let d = g.draft.clone().unwrap();
    let [x, y, z] = d.slots.map(Option::unwrap);
    play(&mut g, &format!("hide {}", set.label(z)));
    play(&mut g, &format!("take {}", set.label(x)));
    play(&mut g, "take ?");
    assert_eq!(
        g.sides[1].terrains[1],
        Held {
            card: z,
            secret: true
        }
    );
    assert_eq!(g.discard, vec![a, y]);
    let v0 = g.view(0);
    assert_eq!(v0["players"][1]["terrains"][1], Value::Null);
    assert_eq!(v0["players"][1]["secret"], serde_json::json!([null]));
    assert_eq!(
        g.view(1)["players"][1]["terrains"][1],
        Value::from(set.label(z))
    );
    // The undrawn piles are hidden from both players.
    for p in 0..2 {
        assert!(g.view(p)["piles"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .all(Value::is_null));
    }
}

/// AG-2.1: three terrain drafts, then nine unit drafts, pickers alternating throughout;
/// afterwards each player holds 3 terrain and 9 unit cards and 12 cards are discarded.
#[test]
fn ag_2_1_twelve_drafts_then_placement() {
    let mut g = Arte::new(3, &opts()).unwrap();
    let mut rng = GameRng::seed(5);
    for k in 0..12 {
        let d = g.draft.clone().unwrap();
        assert_eq!(d.picker, k % 2);
        assert_eq!(d.kind == crate::arte::state::Kind::Terrain, k < 3);
        for _ in 0..3 {
            let mut v = Vec::new();
            g.legal_actions(&mut v);
            g.apply(*rng.choose(&v).unwrap()).unwrap();
        }
    }
    assert_eq!(g.phase, Phase::Terrain);
    for s in &g.sides {
        assert_eq!((s.terrains.len(), s.units.len()), (3, 9));
    }
    assert_eq!(g.discard.len(), 12);
    assert_eq!(g.piles[0].len() + g.piles[1].len(), g.set.len() - 24 - 12);

    // The rules option `draft_order = "restart"`: the unit drafts start again with player 0.
    let o = Options {
        draft_order: crate::arte::DraftOrder::Restart,
        ..opts()
    };
    let mut g = Arte::new(3, &o).unwrap();
    for k in 0..12 {
        assert_eq!(
            g.draft.as_ref().unwrap().picker,
            if k < 3 { k % 2 } else { (k - 3) % 2 }
        );
        for _ in 0..3 {
            let mut v = Vec::new();
            g.legal_actions(&mut v);
            g.apply(v[0]).unwrap();
        }
    }
    assert_eq!(g.phase, Phase::Terrain);
}
