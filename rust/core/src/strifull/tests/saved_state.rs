//! The saved-state format (docs/strifull.md): malformed states are state errors naming the path.

use super::*;

#[test]
fn malformed_states_are_state_errors_naming_the_path() {
    let path_of = |v: Value| match Strifull::from_json(&v) {
        Err(Error::State { path, .. }) => path,
        other => panic!("expected a state error, got {other:?}"),
    };
    let good = Pos::new()
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra");
    good.game();
    let mut v = good.0.clone();
    v["sides"][0]["field"]["xZ9"] = json!({"card": "martires_fogo"});
    assert_eq!(path_of(v), "$.sides[0].field.xZ9");
    let mut v = good.0.clone();
    v["sides"][0]["field"]["aB1"] = json!({"card": "adeptos_fogo"});
    assert_eq!(
        path_of(v),
        "$.sides[0].field.aB1.card",
        "a Magos troop on the Inquisição side"
    );
    let mut v = good.0.clone();
    v["sides"][1]["field"]["dA1"] = json!({"card": "nope"});
    assert_eq!(path_of(v), "$.sides[1].field.dA1.card");
    let mut v = good.0.clone();
    v["sides"][0]["field"]
        .as_object_mut()
        .unwrap()
        .remove("dA1");
    assert_eq!(path_of(v), "$.sides", "a live row with an empty half");
    let mut v = good.0.clone();
    v["sides"][0]["live_rows"] = json!([true, true, false]);
    assert_eq!(path_of(v), "$.sides");
    let mut v = good.0.clone();
    v["sides"][0]["deck"] = json!({"martires_fogo": 1});
    assert_eq!(path_of(v), "$.sides[0].deck");
    let mut v = good.0.clone();
    v["step"] = json!("changes");
    assert_eq!(path_of(v), "$.turn");
    let mut v = good.0.clone();
    v["player"] = json!(1);
    assert_eq!(path_of(v), "$.player");
    let mut v = good.0.clone();
    v["winner"] = json!(0);
    assert_eq!(path_of(v), "$.step");
    let mut v = good.0.clone();
    v["rng"] = json!("00");
    assert_eq!(path_of(v), "$.rng");
    let mut v = good.0.clone();
    v["options"]["colour"] = json!("red");
    assert_eq!(path_of(v), "$.options");
    let mut v = good.0.clone();
    v.as_object_mut().unwrap().remove("pending");
    assert_eq!(path_of(v), "$.pending");
}

/// The serde decoding names the path of the value at fault, however deep, and a missing
/// key by its own path; the combat record takes no unknown key and derived `totals` must
/// agree with the values and dice (SK-6.5).
#[test]
fn decoding_errors_name_the_value_at_fault() {
    let err_of = |v: &Value| match Strifull::from_json(v) {
        Err(Error::State { path, message }) => (path, message),
        other => panic!("expected a state error, got {other:?}"),
    };
    let mut g = Strifull::new(3, &Options::default()).unwrap();
    let mut rng = GameRng::seed(3);
    play_until(&mut g, &mut rng, |g| g.last_combat.is_some());
    let good = g.to_json();
    let cell = good["sides"][0]["field"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();

    let mut v = good.clone();
    v["sides"][0]["field"][&cell]["counters"] = json!([11, 0]);
    let (path, message) = err_of(&v);
    assert_eq!(path, format!("$.sides[0].field.{cell}.counters[0]"));
    assert!(message.contains("-10..=10"), "{message}");
    let mut v = good.clone();
    v["last_combat"]["dice"] = json!([3, 7]);
    assert_eq!(err_of(&v).0, "$.last_combat.dice[1]");
    let mut v = good.clone();
    v["last_combat"]["extra"] = json!(1);
    assert_eq!(err_of(&v).0, "$.last_combat.extra");
    let mut v = good.clone();
    let totals = v["last_combat"]["totals"][0].as_i64().unwrap();
    v["last_combat"]["totals"][0] = json!(totals + 1);
    assert_eq!(err_of(&v).0, "$.last_combat.totals");
    let mut v = good.clone();
    v["last_combat"].as_object_mut().unwrap().remove("totals");
    assert!(Strifull::from_json(&v).is_ok(), "totals are derived");
    let mut v = good.clone();
    v["step"] = json!("jump");
    assert_eq!(err_of(&v).0, "$.step");
    let mut v = good.clone();
    v["sides"].as_array_mut().unwrap().push(json!({}));
    assert_eq!(err_of(&v).0, "$.sides");
    let mut v = good.clone();
    v["sides"][1].as_object_mut().unwrap().remove("leader");
    assert_eq!(err_of(&v).0, "$.sides[1].leader");
    let mut v = good.clone();
    v["pending"] = json!([{"player": 0, "decision": "move"}]);
    assert_eq!(err_of(&v).0, "$.pending[0].decision");
    let mut v = good.clone();
    v["turn_player"] = json!(2);
    assert_eq!(err_of(&v).0, "$.turn_player");
    // A view is no saved state: the cards it hides (here the own pile's order) are null.
    let (path, message) = err_of(&g.view(0));
    assert!(path.starts_with("$.sides[0].pile["), "{path}: {message}");
}
