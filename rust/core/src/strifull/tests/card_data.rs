//! Card data (docs/strifull-cards.md): the reference set, and errors naming file, card and field.

use super::*;

/// A small valid card file: one faction of ten troops, three copies each.
fn small_set(troop_extra: &str) -> String {
    let mut t = String::from("[[faction]]\nid = \"f\"\nname = \"F\"\nrecommended = [");
    for i in 0..10 {
        t += &format!("\"t{i}\", \"t{i}\", \"t{i}\", ");
    }
    t += "]\n[[brigade]]\nid = \"b\"\nfaction = \"f\"\nname = \"B\"\n";
    t += "[[leader]]\nid = \"l\"\nfaction = \"f\"\nname = \"L\"\n";
    for i in 0..10 {
        t += &format!("[[troop]]\nid = \"t{i}\"\nbrigade = \"b\"\nname = \"T\"\nelement = \"fire\"\natk = 3\ndef = 3\n");
    }
    t + troop_extra
}

fn data_error(text: &str) -> (String, String) {
    match CardSet::from_sources(&[("my.toml", text)]) {
        Err(Error::Data { place, message }) => (place, message),
        other => panic!("expected a data error, got {other:?}"),
    }
}

#[test]
fn the_reference_set_loads_and_covers_every_ability_kind() {
    let cards = CardSet::reference();
    assert_eq!(cards.factions.len(), 2);
    assert_eq!(cards.troops.len(), 40);
    assert_eq!(cards.leaders.len(), 6);
    let ella = &cards.leaders[cards.leader_index("ella_de_belberg").unwrap()];
    assert_eq!(
        ella.abilities[0].effect,
        effects::Effect::Survive { roll: 6 }
    );
    let all: Vec<&effects::Ability> = cards
        .troops
        .iter()
        .flat_map(|t| &t.abilities)
        .chain(cards.leaders.iter().flat_map(|l| &l.abilities))
        .collect();
    use effects::{Effect as E, To, Trigger as T};
    let has = |f: &dyn Fn(&effects::Ability) -> bool| all.iter().any(|a| f(a));
    assert!(
        has(&|a| a.trigger == T::WhileRevealed && a.to == To::Enemies),
        "aura on enemies"
    );
    assert!(
        has(&|a| a.trigger == T::WhileRevealed && a.to == To::Allies),
        "support"
    );
    assert!(has(
        &|a| a.trigger == T::OnAttack && matches!(a.effect, E::Stat { .. })
    ));
    assert!(has(
        &|a| a.trigger == T::OnDefence && matches!(a.effect, E::Stat { .. })
    ));
    assert!(has(
        &|a| a.to == To::Foe && matches!(a.effect, E::Stat { .. })
    ));
    assert!(has(&|a| a.effect == E::AttackAny));
    assert!(has(&|a| a.effect == E::UseDefence));
    assert!(has(&|a| a.effect == E::Tie));
    assert!(has(&|a| matches!(a.effect, E::Survive { .. })));
    assert!(has(&|a| a.trigger == T::TurnStart));
    assert!(has(&|a| a.effect == E::Reveal));
    assert!(has(
        &|a| a.trigger == T::Activated && matches!(a.effect, E::Stat { .. })
    ));
    assert!(has(&|a| a.cond.zone.is_some()));
    assert!(has(&|a| a.cond.row.is_some()));
    assert!(has(&|a| a.cond.element.is_some()));
    assert!(has(&|a| a.cond.foe_element.is_some()));
    assert!(
        cards.troops.iter().all(|t| !t.abilities.is_empty()),
        "every troop has an ability"
    );
    assert_eq!(
        CardSet::from_sources(&[("x.toml", &small_set(""))])
            .unwrap()
            .troops
            .len(),
        10
    );
}

#[test]
fn card_data_errors_name_file_card_and_field() {
    let troop = |extra: &str| {
        small_set(&format!(
            "[[troop]]\nid = \"x\"\nbrigade = \"b\"\nname = \"X\"\nelement = \"fire\"\natk = 3\ndef = 3\n{extra}"
        ))
    };
    let (place, msg) = data_error(&troop("atak = 4\n"));
    assert_eq!(place, "my.toml: troop \"x\", field \"atak\"");
    assert!(msg.contains("unknown field"), "{msg}");
    let (place, msg) = data_error(&small_set("[[troop]]\nid = \"x\"\nbrigade = \"b\"\nname = \"X\"\nelement = \"fogo-azul\"\natk = 3\ndef = 3\n"));
    assert_eq!(place, "my.toml: troop \"x\", field \"element\"", "{msg}");
    assert!(msg.contains("unknown element"));
    let (place, msg) = data_error(&small_set("[[troop]]\nid = \"x\"\nbrigade = \"b\"\nname = \"X\"\nelement = \"fire\"\natk = 30\ndef = 3\n"));
    assert_eq!(place, "my.toml: troop \"x\", field \"atk\"");
    assert!(msg.contains("out of range"));
    let (place, _) = data_error(&small_set("[[troop]]\nid = \"x\"\nbrigade = \"nope\"\nname = \"X\"\nelement = \"fire\"\natk = 3\ndef = 3\n"));
    assert_eq!(place, "my.toml: troop \"x\", field \"brigade\"");
    let (place, msg) = data_error(&small_set("[[troop]]\nid = \"t1\"\nbrigade = \"b\"\nname = \"X\"\nelement = \"fire\"\natk = 3\ndef = 3\n"));
    assert_eq!(place, "my.toml: troop \"t1\", field \"id\"");
    assert!(msg.contains("duplicate"));
    let ability = |body: &str| troop(&format!("[[troop.ability]]\n{body}"));
    let (place, msg) = data_error(&ability("when = \"on_defeat\"\neffect = \"survive\"\n"));
    assert_eq!(place, "my.toml: troop \"x\", ability 1, field \"roll\"");
    assert!(msg.contains("missing"));
    let (place, _) = data_error(&ability(
        "when = \"on_defeat\"\neffect = \"survive\"\nroll = 1\n",
    ));
    assert_eq!(place, "my.toml: troop \"x\", ability 1, field \"roll\"");
    let (place, msg) = data_error(&ability(
        "when = \"activated\"\neffect = \"reveal\"\nto = \"foe\"\n",
    ));
    assert_eq!(place, "my.toml: troop \"x\", ability 1, field \"when\"");
    assert!(msg.contains("only leaders"));
    let (place, msg) = data_error(&ability("when = \"on_attack\"\neffect = \"tie\"\n"));
    assert_eq!(place, "my.toml: troop \"x\", ability 1, field \"effect\"");
    assert!(msg.contains("cannot be used with trigger"));
    let (place, _) = data_error(&ability(
        "when = \"while_revealed\"\neffect = \"stat\"\nto = \"foe\"\natk = 1\n",
    ));
    assert_eq!(place, "my.toml: troop \"x\", ability 1, field \"to\"");
    let (place, _) = data_error(&ability("when = \"on_attack\"\neffect = \"stat\"\n"));
    assert_eq!(place, "my.toml: troop \"x\", ability 1, field \"atk\"");
    let (place, _) = data_error(&ability(
        "when = \"on_attack\"\neffect = \"stat\"\natk = 1\nroll = 3\n",
    ));
    assert_eq!(place, "my.toml: troop \"x\", ability 1, field \"roll\"");
    let (place, _) = data_error(&ability(
        "when = \"turn_start\"\neffect = \"grow\"\natk = 1\nfoe_element = \"fire\"\nmax = 2\n",
    ));
    assert_eq!(
        place,
        "my.toml: troop \"x\", ability 1, field \"foe_element\""
    );
    let (place, _) = data_error(&ability("when = \"sometimes\"\neffect = \"tie\"\n"));
    assert_eq!(place, "my.toml: troop \"x\", ability 1, field \"when\"");
    let (place, _) = data_error(&ability(
        "when = \"on_attack\"\neffect = \"attack_any\"\nrow = 4\n",
    ));
    assert_eq!(place, "my.toml: troop \"x\", ability 1, field \"row\"");
    // Leaders: element conditions on activated targets would read hidden cards.
    let leader = "[[leader]]\nid = \"l2\"\nfaction = \"f\"\nname = \"L2\"\n[[leader.ability]]\nwhen = \"activated\"\neffect = \"reveal\"\nto = \"foe\"\nelement = \"fire\"\n";
    let (place, msg) = data_error(&small_set(leader));
    assert_eq!(
        place,
        "my.toml: leader \"l2\", ability 1, field \"element\""
    );
    assert!(msg.contains("hidden"));
    // TOML syntax errors carry the line.
    let (place, msg) = data_error(&small_set("[[troop]\nid = 1\n"));
    assert!(place.starts_with("my.toml, line "), "{place}");
    assert!(msg.contains("not valid TOML"));
    // Whole-set checks.
    let (place, msg) = data_error(&small_set("").replace(
        "\"t9\", \"t9\", \"t9\", ",
        "\"t9\", \"t9\", \"t9\", \"t9\", ",
    ));
    assert_eq!(place, "my.toml: faction \"f\", field \"recommended\"");
    assert!(
        msg.contains("30 troops") || msg.contains("4 copies"),
        "{msg}"
    );
    let (place, msg) = data_error(&small_set("").replace(
        "[[leader]]\nid = \"l\"\nfaction = \"f\"\nname = \"L\"\n",
        "",
    ));
    assert_eq!(place, "my.toml: faction \"f\"");
    assert!(msg.contains("no leader"));
    let (_, msg) = data_error("[[thing]]\nid = \"x\"\n");
    assert!(msg.contains("unknown table"));
}

#[test]
fn user_card_sets_load_from_files_and_options() {
    let dir = std::env::temp_dir().join(format!("strifull-cards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in content::REFERENCE_FILES {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let set = CardSet::load(Some(dir.to_str().unwrap()), None).unwrap();
    assert_eq!(*set, *CardSet::reference());
    let file = dir.join("magos.toml");
    let opts = Options {
        cards_file: Some(file.to_str().unwrap().into()),
        factions: [Some("magos".into()), Some("magos".into())],
        ..Options::default()
    };
    let g = Strifull::new(1, &opts).unwrap();
    assert_eq!(g.cards().factions.len(), 1);
    let bad = Options {
        cards_file: Some(dir.join("missing.toml").to_str().unwrap().into()),
        ..Options::default()
    };
    assert!(matches!(Strifull::new(1, &bad), Err(Error::Data { .. })));
    let both = Options {
        cards_file: Some("x".into()),
        cards_toml: Some("y".into()),
        ..Options::default()
    };
    assert!(matches!(
        Strifull::new(1, &both),
        Err(Error::Options { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}
