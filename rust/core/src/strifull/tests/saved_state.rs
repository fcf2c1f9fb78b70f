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
