//! Card data (AG-1.2, AG-1.3): the TOML format of docs/arte.md, its errors naming file, card and field, and card labels.

use crate::arte::cards::{Card, CardSet, MIN_TERRAIN, MIN_UNITS};
use crate::error::Error;

const MINI: &str = r#"
[[terrain]]
name = "Plain"
favours = { cavaleiro = 3 }
copies = 9

[[unit]]
units = ["guerreiro"]
copies = 27
"#;

fn err(text: &str) -> (String, String) {
    match CardSet::from_toml(text, "x.toml") {
        Err(Error::Data { place, message }) => (place, message),
        other => panic!("expected a data error, got {other:?}"),
    }
}

#[test]
fn reference_set_is_valid_and_labels_round_trip() {
    let set = CardSet::reference();
    assert!(set.num_terrain() >= MIN_TERRAIN && set.num_units() >= MIN_UNITS);
    for c in 0..set.len() as Card {
        assert_eq!(set.parse_label(&set.label(c)), Some(c));
    }
    assert_eq!(set.parse_label("T0"), None);
    assert_eq!(set.parse_label("U01"), None);
    assert_eq!(set.parse_label("X1"), None);
    assert_eq!(set.parse_label(""), None);
    assert_eq!(set.parse_label(&format!("U{}", set.num_units() + 1)), None);
}

#[test]
fn minimal_set_loads_with_copies_expanded() {
    let set = CardSet::from_toml(MINI, "mini").unwrap();
    assert_eq!((set.num_terrain(), set.num_units()), (9, 27));
    assert_eq!(set.terrain_card(0).favours, [3, 0, 0, 0]);
    assert_eq!(set.unit_card(9).counts, [0, 1, 0, 0]);
    assert_eq!(set.label(9), "U1");
}

#[test]
fn data_errors_name_file_card_and_field() {
    let (place, msg) = err("[[terrain]\nname = 1");
    assert_eq!(place, "x.toml");
    assert!(msg.contains("not valid TOML"), "{msg}");

    let (place, msg) = err(&MINI.replace("favours = {", "favors = {"));
    assert_eq!(place, "x.toml: terrain[0] (\"Plain\").favors");
    assert!(msg.contains("unknown field"), "{msg}");

    let (place, msg) = err(&MINI.replace("cavaleiro = 3", "cavaleir = 3"));
    assert_eq!(place, "x.toml: terrain[0] (\"Plain\").favours.cavaleir");
    assert!(msg.contains("unknown unit type"), "{msg}");

    let (place, msg) = err(&MINI.replace("cavaleiro = 3", "cavaleiro = 12"));
    assert_eq!(place, "x.toml: terrain[0] (\"Plain\").favours.cavaleiro");
    assert!(msg.contains("from 1 to 9"), "{msg}");

    let (place, _) = err(&MINI.replace(
        "units = [\"guerreiro\"]",
        "units = [\"guerreiro\", \"elfo\"]",
    ));
    assert_eq!(place, "x.toml: unit[0].units[1]");

    let (place, msg) = err(&MINI.replace("units = [\"guerreiro\"]", "units = []"));
    assert_eq!(place, "x.toml: unit[0].units");
    assert!(msg.contains("1 to 3"), "{msg}");

    let (place, msg) = err(&MINI.replace(
        "units = [\"guerreiro\"]",
        "units = [\"mago\", \"mago\", \"mago\", \"mago\"]",
    ));
    assert_eq!(place, "x.toml: unit[0].units");
    assert!(msg.contains("found 4"), "{msg}");

    let (place, msg) = err(&MINI.replace("copies = 27", "copies = 20"));
    assert_eq!(place, "x.toml: unit");
    assert!(msg.contains("at least 27"), "{msg}");

    let (place, _) = err(&MINI.replace("copies = 9", "copies = 0"));
    assert_eq!(place, "x.toml: terrain[0] (\"Plain\").copies");

    let (place, _) = err(&MINI.replace("name = \"Plain\"", ""));
    assert_eq!(place, "x.toml: terrain[0].name");

    let (place, _) = err(&format!("extra = 1\n{MINI}"));
    assert_eq!(place, "x.toml: extra");

    let (place, _) = err(&format!("{MINI}\n[[unit]]\nname = \"Big\"\nunits = [\"mago\"]\ncopies = 40\n[[unit]]\nunits = [\"mago\"]\ncopies = 40\n[[unit]]\nunits = [\"mago\"]\ncopies = 40\n[[unit]]\nunits = [\"mago\"]\ncopies = 40\n[[unit]]\nunits = [\"mago\"]\ncopies = 40\n[[unit]]\nunits = [\"mago\"]\ncopies = 40"));
    assert_eq!(place, "x.toml");

    let (place, msg) = err("terrain = 3");
    assert_eq!(place, "x.toml: terrain");
    assert!(msg.contains("array of tables"), "{msg}");
}

#[test]
fn missing_file_is_a_data_error() {
    match CardSet::load("/no/such/arte-cards.toml") {
        Err(Error::Data { place, .. }) => assert_eq!(place, "/no/such/arte-cards.toml"),
        other => panic!("{other:?}"),
    }
}
