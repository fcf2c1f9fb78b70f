//! The saved-state format (docs/arte.md): errors name the path; options name one card set.

use super::*;

#[test]
fn bad_states_are_rejected_with_a_path() {
    let g = after_draft(2, &Options::default());
    let good = g.to_json();
    let path_of = |v: &Value| match Arte::from_json(v) {
        Err(Error::State { path, .. }) => path,
        other => panic!("expected a state error, got {other:?}"),
    };
    let mut v = good.clone();
    v["players"][0]["units"][0] = v["players"][1]["units"][0].clone();
    assert_eq!(path_of(&v), "$", "a card in two places");
    let mut v = good.clone();
    v["players"][0]["units"][0] = Value::from("T1");
    assert_eq!(path_of(&v), "$");
    let mut v = good.clone();
    v["players"][0]["field"]["d1"] = Value::Null;
    assert_eq!(path_of(&v), "$.players[0].field.d1");
    let mut v = good.clone();
    v["players"][0]["units"][0] = Value::from("U99");
    assert_eq!(path_of(&v), "$.players[0].units[0]");
    let mut v = good.clone();
    v["phase"] = Value::from("combat");
    assert!(path_of(&v).starts_with("$."));
    let mut v = good.clone();
    v["round"] = Value::from(2);
    assert_eq!(path_of(&v), "$.round");
    let mut v = good.clone();
    v["cards"]["units"][0]["units"] = serde_json::json!(["mago"]);
    assert_eq!(path_of(&v), "$.cards");
    let mut v = good.clone();
    v["options"]["deployment"] = Value::from("sideways");
    assert_eq!(path_of(&v), "$.options.deployment");
    let mut v = good.clone();
    v.as_object_mut().unwrap().remove("winner");
    assert_eq!(path_of(&v), "$.winner");
    let mut v = good;
    v["extra"] = Value::from(1);
    assert_eq!(path_of(&v), "$.extra");
}

#[test]
fn options_name_one_card_set() {
    let both = Options {
        cards_file: Some("x.toml".into()),
        cards_toml: Some(TEST_SET.into()),
        ..Default::default()
    };
    assert!(matches!(Arte::new(1, &both), Err(Error::Options { .. })));
    let missing = Options {
        cards_file: Some("/no/such/file.toml".into()),
        ..Default::default()
    };
    assert!(matches!(Arte::new(1, &missing), Err(Error::Data { .. })));
    let g = Arte::new(1, &opts()).unwrap();
    assert_eq!(g.num_actions(), notation::num_actions(&g.set));
    assert_eq!(g.set.num_units(), 27);
    let bad: Result<Options, _> = serde_json::from_value(serde_json::json!({"cards": "x"}));
    assert!(bad.is_err(), "unknown options are rejected");
    let text = serde_json::to_value(Options::default()).unwrap();
    assert_eq!(
        text,
        serde_json::json!({"cards_file": null, "cards_toml": null, "draft_order": "continuous",
                           "deployment": "simultaneous",
                           "ranged_scoring": "ranged_defender", "sudden_death_row": "chosen"})
    );
}
