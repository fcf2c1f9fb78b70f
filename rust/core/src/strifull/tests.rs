//! Hand-built positions for every rule and ability kind (ids from docs/rules/strifull.md),
//! properties of random games, and card-data validation.

use super::state::Step;
use super::*;
use crate::error::Error;
use crate::game::Game;
use crate::rng::GameRng;
use serde_json::{json, Value};

// ---- helpers -------------------------------------------------------------------------------

/// A hand-built position: turn 1, player 0 to attack, only row 1 alive on both sides,
/// leaders Ella de Belberg (P0) and Arquimago Teodoro (P1) with the earth token in row 1.
#[derive(Clone)]
struct Pos(Value);

impl Pos {
    fn new() -> Pos {
        Pos(json!({
            "options": serde_json::to_value(Options::default()).unwrap(),
            "step": "attack", "player": 0, "turn": 1, "turn_player": 0,
            "first": null, "pending": [], "ability_used": false, "turn_mod": null,
            "last_combat": null, "winner": null, "draw": false,
            "rng": serde_json::to_value(GameRng::seed(0)).unwrap(),
            "sides": [
                {"leader": "ella_de_belberg", "element": "earth", "leader_row": 1,
                 "live_rows": [true, false, false], "field": {}},
                {"leader": "teodoro", "element": "earth", "leader_row": 1,
                 "live_rows": [true, false, false], "field": {}},
            ]
        }))
    }
    /// A face-down troop.
    fn down(mut self, side: usize, cell: &str, card: &str) -> Pos {
        self.0["sides"][side]["field"][cell] = json!({"card": card});
        self
    }
    /// A face-up troop.
    fn up(mut self, side: usize, cell: &str, card: &str) -> Pos {
        self.0["sides"][side]["field"][cell] = json!({"card": card, "revealed": true});
        self
    }
    fn leader(mut self, side: usize, id: &str, element: &str, row: u8) -> Pos {
        self.0["sides"][side]["leader"] = json!(id);
        self.0["sides"][side]["element"] = json!(element);
        self.0["sides"][side]["leader_row"] = json!(row);
        self
    }
    fn live(mut self, side: usize, rows: [bool; 3]) -> Pos {
        self.0["sides"][side]["live_rows"] = json!(rows);
        self
    }
    fn side(mut self, side: usize, key: &str, v: Value) -> Pos {
        self.0["sides"][side][key] = v;
        self
    }
    fn set(mut self, key: &str, v: Value) -> Pos {
        self.0[key] = v;
        self
    }
    fn opt(mut self, key: &str, v: Value) -> Pos {
        self.0["options"][key] = v;
        self
    }
    fn try_game(&self) -> crate::Result<Strifull> {
        Strifull::from_json(&self.0)
    }
    fn game(&self) -> Strifull {
        self.try_game()
            .unwrap_or_else(|e| panic!("bad test position: {e}"))
    }
}

/// Make the next d6 rolls of `g` come out as `faces`: search for an RNG seed that gives them.
fn dice(g: &mut Strifull, faces: &[u32]) {
    for seed in 0..10_000_000u64 {
        let mut r = GameRng::seed(seed);
        if faces.iter().all(|&f| r.roll(6) == f) {
            g.rng = GameRng::seed(seed);
            return;
        }
    }
    panic!("no seed rolls {faces:?}");
}

fn act(g: &mut Strifull, text: &str) {
    let a = g.parse_action(text).unwrap();
    g.apply(a)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", g.render(None)));
}

fn rule_of(g: &mut Strifull, text: &str) -> String {
    let before = g.to_json();
    let a = g.parse_action(text).unwrap();
    match g.apply(a) {
        Err(Error::IllegalAction { rule, .. }) => {
            assert_eq!(g.to_json(), before, "an illegal action changes nothing");
            rule
        }
        other => panic!("{text} should be illegal, got {other:?}"),
    }
}

fn legal(g: &Strifull) -> Vec<String> {
    let mut buf = Vec::new();
    g.legal_actions(&mut buf);
    buf.iter().map(|a| a.notation()).collect()
}

fn cell_json<'a>(g: &'a Value, side: usize, cell: &str) -> &'a Value {
    &g["sides"][side]["field"][cell]
}

fn combat(g: &Strifull) -> Value {
    g.to_json()["last_combat"].clone()
}

/// The combat values of an attack from `a` on `t` with the given dice (attacker first).
fn values(pos: &Pos, a: &str, t: &str, faces: &[u32]) -> (Value, Strifull) {
    let mut g = pos.game();
    dice(&mut g, faces);
    act(&mut g, &format!("attack {a} {t}"));
    (combat(&g), g)
}

fn random_game(seed: u64, opts: &Options, check: bool) -> (Strifull, usize) {
    let mut g = Strifull::new(seed, opts).unwrap();
    let mut rng = GameRng::seed(seed ^ 0xABCD);
    let mut buf = Vec::new();
    let mut plies = 0;
    while !g.is_terminal() {
        g.legal_actions(&mut buf);
        assert!(!buf.is_empty(), "no legal action in a running game");
        let a = *rng.choose(&buf).unwrap();
        g.apply(a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        plies += 1;
        if check {
            if let Some(why) = g.invariant_violation() {
                panic!("after {a:?}: {why}\n{}", g.render(None));
            }
        }
        assert!(plies < 5000);
    }
    (g, plies)
}

/// Play random actions until `stop` holds (or the game ends).
fn play_until(g: &mut Strifull, rng: &mut GameRng, mut stop: impl FnMut(&Strifull) -> bool) {
    let mut buf = Vec::new();
    while !g.is_terminal() && !stop(g) {
        g.legal_actions(&mut buf);
        let a = *rng.choose(&buf).unwrap();
        g.apply(a).unwrap();
    }
}

/// P1 with three live rows and a full defence zone (face down), one attacker per row.
fn p1_full_defence(pos: Pos) -> Pos {
    let cards = [
        ("dA1", "tempestiva_agua"),
        ("dB1", "sentinelas_agua"),
        ("dC1", "arcanistas_agua"),
        ("dA2", "ilusionistas_agua"),
        ("dB2", "adeptos_agua"),
        ("dC2", "tempestiva_terra"),
        ("dA3", "sentinelas_terra"),
        ("dB3", "ilusionistas_terra"),
        ("dC3", "adeptos_terra"),
        ("aA1", "adeptos_fogo"),
        ("aA2", "adeptos_fogo"),
        ("aA3", "adeptos_vento"),
    ];
    let mut pos = pos.live(1, [true, true, true]);
    for (c, card) in cards {
        pos = pos.down(1, c, card);
    }
    pos
}

fn targets(g: &Strifull, attacker: &str) -> Vec<String> {
    let prefix = format!("attack {attacker} ");
    legal(g)
        .into_iter()
        .filter_map(|a| a.strip_prefix(&prefix).map(str::to_string))
        .collect()
}

// ---- SK-5: attacks -----------------------------------------------------------------------

#[test]
fn sk_5_2_frontal_attack_hits_the_first_troop_of_the_column() {
    let pos = p1_full_defence(Pos::new())
        .down(0, "aB1", "martires_fogo")
        .down(0, "dA1", "martires_agua");
    let g = pos.game();
    assert_eq!(
        targets(&g, "aB1"),
        ["dB1"],
        "a full zone: only the frontal target"
    );
    // With dB1 gone, the column's first troop is dB2; dB1's neighbours are open to flanks.
    let mut v = pos.0.clone();
    v["sides"][1]["field"]
        .as_object_mut()
        .unwrap()
        .remove("dB1");
    v["sides"][1]["graveyard"] = json!(["sentinelas_agua"]);
    let g = Pos(v).game();
    assert_eq!(targets(&g, "aB1"), ["dA1", "dC1", "dB2"]);
}

#[test]
fn sk_5_3_flank_attacks_reach_troops_next_to_an_empty_cell_from_any_column() {
    let pos = p1_full_defence(Pos::new())
        .down(0, "aC1", "martires_fogo")
        .down(0, "dA1", "martires_agua");
    let mut v = pos.0.clone();
    v["sides"][1]["field"]
        .as_object_mut()
        .unwrap()
        .remove("dB2");
    let g = Pos(v).game();
    // Frontal dC1, flanks dB1, dA2, dC2, dB3 around the hole at dB2.
    assert_eq!(targets(&g, "aC1"), ["dB1", "dC1", "dA2", "dC2", "dB3"]);
    let mut g2 = g.clone();
    assert_eq!(rule_of(&mut g2, "attack aC1 dA1"), "SK-5.3");
}

#[test]
fn sk_5_3_cells_of_an_eliminated_row_open_flanks_unless_the_option_says_otherwise() {
    let pos = Pos::new()
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "martires_agua")
        .live(1, [true, true, false])
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "dA1", "adeptos_agua")
        .down(1, "dB1", "adeptos_agua")
        .down(1, "dC1", "adeptos_agua")
        .down(1, "dA2", "adeptos_terra")
        .down(1, "dB2", "adeptos_terra")
        .down(1, "dC2", "adeptos_terra");
    assert_eq!(targets(&pos.game(), "aA1"), ["dA1", "dA2", "dB2", "dC2"]);
    let strict = pos.opt("dead_cells_open_flanks", json!(false));
    assert_eq!(targets(&strict.game(), "aA1"), ["dA1"]);
}

#[test]
fn sk_5_4_attack_any_targets_every_defence_troop_and_respects_conditions() {
    let pos = p1_full_defence(Pos::new())
        .live(0, [true, true, false])
        .down(0, "aA1", "cacadores_fogo")
        .down(0, "aA2", "cacadores_vento")
        .down(0, "aB1", "cacadores_vento")
        .down(0, "dA1", "martires_agua")
        .down(0, "dA2", "martires_agua");
    let g = pos.game();
    let all = [
        "dA1", "dB1", "dC1", "dA2", "dB2", "dC2", "dA3", "dB3", "dC3",
    ];
    assert_eq!(targets(&g, "aA1"), all);
    assert_eq!(
        targets(&g, "aB1"),
        all,
        "Caçador Veloz attacks anywhere from row 1"
    );
    assert_eq!(targets(&g, "aA2"), ["dA1"], "... but not from row 2");
}

/// P0 with three live rows and a full defence zone (face down), one attacker per row.
fn p0_full_defence(pos: Pos) -> Pos {
    let cards = [
        ("dA1", "martires_agua"),
        ("dB1", "martires_terra"),
        ("dC1", "guarda_fogo"),
        ("dA2", "guarda_agua"),
        ("dB2", "guarda_vento"),
        ("dC2", "guarda_terra"),
        ("dA3", "cavaleiros_agua"),
        ("dB3", "cavaleiros_terra"),
        ("dC3", "vigilias_terra"),
        ("aA1", "martires_fogo"),
        ("aA2", "martires_fogo"),
        ("aA3", "martires_fogo"),
    ];
    let mut pos = pos.live(0, [true, true, true]);
    for (c, card) in cards {
        pos = pos.down(0, c, card);
    }
    pos
}

#[test]
fn sk_5_4_a_revealed_arcanista_dos_portais_lets_its_row_attack_anywhere() {
    let pos = p0_full_defence(Pos::new())
        .leader(1, "lyra", "fire", 1)
        .live(1, [true, true, false])
        .set("player", json!(1))
        .set("turn_player", json!(1))
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "aB1", "arcanistas_terra")
        .down(1, "dA1", "adeptos_agua")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "dA2", "adeptos_agua");
    let all = [
        "dA1", "dB1", "dC1", "dA2", "dB2", "dC2", "dA3", "dB3", "dC3",
    ];
    assert_eq!(targets(&pos.game(), "aA1"), ["dA1"], "face down: no aura");
    let g = pos.up(1, "aB1", "arcanistas_terra").game();
    assert_eq!(targets(&g, "aA1"), all);
    assert_eq!(
        targets(&g, "aA2"),
        ["dA1"],
        "other rows keep the normal targets"
    );
    assert_eq!(
        targets(&g, "aB1"),
        ["dB1"],
        "the aura reaches the other troops only"
    );
}

#[test]
fn sk_5_5_attacker_and_target_are_revealed() {
    let pos = Pos::new()
        .down(0, "aA1", "vigilias_vento")
        .down(0, "aB1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "dB1", "adeptos_terra");
    let (c, g) = values(&pos, "aA1", "dA1", &[1, 6]);
    assert_eq!(c["result"], json!("defender"));
    let v = g.to_json();
    assert_eq!(cell_json(&v, 1, "dA1")["revealed"], json!(true));
    assert_eq!(cell_json(&v, 1, "dB1")["revealed"], json!(false));
    let (c, g) = values(&pos, "aA1", "dA1", &[6, 1]);
    assert_eq!(c["result"], json!("attacker"));
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "aA1")["revealed"], json!(true));
    assert_eq!(cell_json(&v, 0, "aB1")["revealed"], json!(false));
    // Revealed troops stay revealed (SK-6.9): the next turn starts with aA1 face up.
    assert_eq!(v["step"], json!("move"));
    assert_eq!(v["player"], json!(1));
}

// ---- SK-6: combat ------------------------------------------------------------------------

/// A set with the rulebook example's values: ATK 10 against DEF 8.
fn example_cards() -> String {
    let mut t = String::new();
    for f in ["a", "b"] {
        t += &format!("[[faction]]\nid = \"{f}\"\nname = \"{f}\"\nrecommended = [");
        for i in 0..10 {
            t += &format!("\"{f}{i}\", \"{f}{i}\", \"{f}{i}\", ");
        }
        t += "]\n";
        t += &format!("[[brigade]]\nid = \"{f}b\"\nfaction = \"{f}\"\nname = \"B\"\n");
        t += &format!("[[leader]]\nid = \"{f}l\"\nfaction = \"{f}\"\nname = \"L\"\n");
        for i in 0..10 {
            let (atk, def) = if i == 0 { (10, 8) } else { (1, 1) };
            t += &format!(
                "[[troop]]\nid = \"{f}{i}\"\nbrigade = \"{f}b\"\nname = \"T{i}\"\nelement = \"fire\"\natk = {atk}\ndef = {def}\n"
            );
        }
    }
    t
}

#[test]
fn sk_6_5_the_rulebook_example_advantage_2_die_3_loses_to_die_6() {
    let pos = Pos::new()
        .opt("cards_toml", json!(example_cards()))
        .leader(0, "al", "water", 1)
        .leader(1, "bl", "water", 1)
        .down(0, "aA1", "a0")
        .down(0, "aB1", "a2")
        .down(0, "dA1", "a1")
        .down(1, "aA1", "b1")
        .down(1, "dA1", "b0");
    let (c, g) = values(&pos, "aA1", "dA1", &[3, 6]);
    assert_eq!(c["values"], json!([10, 8]));
    assert_eq!(c["dice"], json!([3, 6]));
    assert_eq!(c["totals"], json!([5, 6]));
    assert_eq!(c["result"], json!("defender"));
    let v = g.to_json();
    assert_eq!(
        v["sides"][0]["graveyard"],
        json!(["a0"]),
        "the loser goes to the graveyard"
    );
    assert!(cell_json(&v, 1, "dA1").is_object());
}

#[test]
fn sk_6_3_leader_element_bonus_only_in_the_leaders_row() {
    let base = Pos::new()
        .leader(1, "teodoro", "wind", 1)
        .down(0, "aA1", "martires_fogo") // fire 4/3
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra"); // earth 3/4: no cycle with fire
    let (c, _) = values(
        &base.leader(0, "ella_de_belberg", "fire", 1),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(
        c["values"],
        json!([5, 4]),
        "fire troop in a fire leader's row: +1"
    );
    let other_row = Pos::new()
        .leader(1, "teodoro", "wind", 1)
        .leader(0, "ella_de_belberg", "fire", 2)
        .live(0, [true, true, false])
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "martires_agua")
        .down(0, "aA2", "martires_agua")
        .down(0, "dA2", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra");
    let (c, _) = values(&other_row, "aA1", "dA1", &[1, 1]);
    assert_eq!(
        c["values"],
        json!([4, 4]),
        "not in the leader's row: no bonus"
    );
    let wrong_element = Pos::new()
        .leader(1, "teodoro", "wind", 1)
        .leader(0, "ella_de_belberg", "water", 1)
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra");
    let (c, _) = values(&wrong_element, "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([4, 4]), "another element: no bonus");
}

#[test]
fn sk_6_4_elemental_advantage_and_its_sum_with_the_leader_bonus() {
    let pos = |p0_element: &str, defender: &str| {
        Pos::new()
            .leader(0, "ella_de_belberg", p0_element, 1)
            .leader(1, "teodoro", "earth", 2)
            .live(1, [true, true, false])
            .down(0, "aA1", "martires_fogo") // fire 4/3
            .down(0, "dA1", "martires_agua")
            .down(1, "aA1", "adeptos_fogo")
            .down(1, "dA1", defender)
            .down(1, "aA2", "adeptos_fogo")
            .down(1, "dA2", "adeptos_fogo")
    };
    // Fire beats wind: +1 to the attacker (arcanistas_vento: wind 4/3).
    let (c, _) = values(&pos("earth", "arcanistas_vento"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([5, 3]));
    // Water beats fire: +1 to the defender (arcanistas_agua: water 3/4).
    let (c, _) = values(&pos("earth", "arcanistas_agua"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([4, 5]));
    // Both bonuses add up: leader's fire in row 1 and advantage over wind.
    let (c, _) = values(&pos("fire", "arcanistas_vento"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([6, 3]));
    // Earth and fire: no relation.
    let (c, _) = values(&pos("earth", "adeptos_terra"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([4, 4]));
}

#[test]
fn sk_6_4_the_cycle_fire_wind_earth_water() {
    use content::Element::*;
    for (a, b) in [(Fire, Wind), (Wind, Earth), (Earth, Water), (Water, Fire)] {
        assert!(a.beats(b) && !b.beats(a));
    }
    assert!(!Fire.beats(Earth) && !Earth.beats(Fire) && !Wind.beats(Water) && !Fire.beats(Fire));
}

#[test]
fn sk_6_6_equal_totals_eliminate_both_troops() {
    let pos = Pos::new()
        .leader(1, "teodoro", "wind", 1)
        .live(1, [true, true, false])
        .down(0, "aA1", "martires_fogo") // fire 4/3
        .down(0, "aB1", "martires_fogo")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra") // earth 3/4
        .down(1, "dB1", "adeptos_terra")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "dA2", "adeptos_fogo");
    let (c, g) = values(&pos, "aA1", "dA1", &[4, 4]);
    assert_eq!(c["values"], json!([4, 4]));
    assert_eq!(c["result"], json!("tie"));
    assert_eq!(c["fell"], json!([true, true]));
    let v = g.to_json();
    assert!(cell_json(&v, 0, "aA1").is_null() && cell_json(&v, 1, "dA1").is_null());
    assert_eq!(v["sides"][0]["graveyard"], json!(["martires_fogo"]));
    assert_eq!(v["sides"][1]["graveyard"], json!(["adeptos_terra"]));
}

#[test]
fn sk_6_2_combat_values_never_drop_below_zero() {
    // Caçador Incendiário (fire, DEF 2) under a Tempestiva aura (-1 to fire) and Teodoro's
    // curse (-2): 2 - 1 - 2 = -1, counted as 0.
    let pos = Pos::new()
        .leader(1, "teodoro", "earth", 2)
        .live(1, [true, true, false])
        .set("player", json!(1))
        .set("turn_player", json!(1))
        .set("step", json!("ability"))
        .down(1, "aA1", "adeptos_fogo") // fire 4/3
        .down(1, "dA1", "adeptos_fogo")
        .up(1, "aA2", "tempestiva_vento")
        .down(1, "dA2", "adeptos_fogo")
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "cacadores_fogo")
        .down(0, "dB1", "guarda_agua");
    let mut g = pos.game();
    act(&mut g, "ability foe dA1");
    assert_eq!(
        g.to_json()["turn_mod"],
        json!({"player": 0, "cell": "dA1", "atk": -2, "def": -2})
    );
    dice(&mut g, &[1, 1]);
    act(&mut g, "attack aA1 dA1");
    assert_eq!(combat(&g)["values"], json!([4, 0]));
    assert_eq!(
        g.to_json()["turn_mod"],
        Value::Null,
        "the curse ends with the turn"
    );
}

/// P1 attacks P0's defence troop at dA1 (row 1, Ella's row) with adeptos_fogo (fire 4/3).
fn p1_attacks(defender: &str) -> Pos {
    Pos::new()
        .set("player", json!(1))
        .set("turn_player", json!(1))
        .leader(0, "ella_de_belberg", "wind", 1)
        .leader(1, "lyra", "wind", 1)
        .down(0, "aA1", "vigilias_vento")
        .down(0, "dA1", defender)
        .down(0, "dB1", "vigilias_terra")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "aB1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_agua")
}

#[test]
fn sk_6_7_a_martyrs_defeat_becomes_a_tie_that_takes_the_winner() {
    // Mártir da Rocha (earth 2/5): ties on defeat in the defence zone.
    let (c, g) = values(&p1_attacks("martires_terra"), "aA1", "dA1", &[6, 1]);
    assert_eq!(c["result"], json!("attacker"));
    assert_eq!(c["tie_by_ability"], json!(true));
    assert_eq!(c["fell"], json!([true, true]));
    let v = g.to_json();
    assert_eq!(v["sides"][1]["graveyard"], json!(["adeptos_fogo"]));
    assert_eq!(v["sides"][0]["graveyard"], json!(["martires_terra"]));
    // Mártir do Vendaval ties only when it falls attacking: in defence it simply dies.
    let (c, _) = values(&p1_attacks("martires_vento"), "aA1", "dA1", &[6, 1]);
    assert_eq!(c["tie_by_ability"], json!(false));
    assert_eq!(c["fell"], json!([false, true]));
}

#[test]
fn sk_6_7_an_attacking_martyr_that_loses_takes_the_defender() {
    let pos = Pos::new()
        .leader(1, "lyra", "wind", 1)
        .down(0, "aA1", "martires_fogo")
        .down(0, "aB1", "martires_fogo")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "dB1", "adeptos_terra");
    let (c, _) = values(&pos, "aA1", "dA1", &[1, 6]);
    assert_eq!(c["result"], json!("defender"));
    assert_eq!(c["fell"], json!([true, true]));
}

#[test]
fn sk_6_8_ella_saves_a_troop_defeated_in_her_rows_defence_zone_on_a_six() {
    // Vigília da Terra (earth 2/4) loses to the fire attacker; Ella rolls for it.
    let pos = p1_attacks("vigilias_terra");
    let (c, g) = values(&pos, "aA1", "dA1", &[6, 1, 6]);
    assert_eq!(c["fell"], json!([false, true]));
    assert_eq!(c["survival_rolls"], json!([[], [6]]));
    assert_eq!(c["survived"], json!([false, true]));
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "dA1")["card"], json!("vigilias_terra"));
    assert_eq!(v["sides"][0]["graveyard"], json!([]));
    let (c, g) = values(&pos, "aA1", "dA1", &[6, 1, 5]);
    assert_eq!(c["survival_rolls"], json!([[], [5]]));
    assert_eq!(c["survived"], json!([false, false]));
    assert!(cell_json(&g.to_json(), 0, "dA1").is_null());
}

#[test]
fn sk_6_8_ella_does_not_help_outside_her_row_or_her_defence_zone() {
    let pos = p1_attacks("vigilias_terra")
        .leader(0, "ella_de_belberg", "wind", 2)
        .live(0, [true, true, false])
        .down(0, "aA2", "vigilias_vento")
        .down(0, "dA2", "vigilias_terra");
    let (c, _) = values(&pos, "aA1", "dA1", &[6, 1, 6]);
    assert_eq!(
        c["survival_rolls"],
        json!([[], []]),
        "no roll outside Ella's row"
    );
    assert_eq!(c["survived"], json!([false, false]));
    // Her own attackers are not covered either: P0 attacks from Ella's row and loses.
    let pos = Pos::new()
        .leader(0, "ella_de_belberg", "wind", 1)
        .leader(1, "lyra", "wind", 1)
        .down(0, "aA1", "vigilias_vento")
        .down(0, "aB1", "vigilias_vento")
        .down(0, "dA1", "vigilias_terra")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "dB1", "adeptos_terra");
    let (c, _) = values(&pos, "aA1", "dA1", &[1, 6, 6]);
    assert_eq!(c["fell"], json!([true, false]));
    assert_eq!(c["survival_rolls"], json!([[], []]));
}

#[test]
fn sk_6_8_tie_is_defeat_decides_whether_a_tie_earns_a_survival_roll() {
    // Cavaleiro dos Ventos (wind 4/3) against Adepto do Fogo (fire 4/3): +1 fire beats
    // wind, +2 its own bonus against wind, +1 Lyra's for attacking from her row = 8 vs 3;
    // dice 1 and 6 make totals 6 and 6.
    let pos = p1_attacks("cavaleiros_vento").leader(0, "ella_de_belberg", "earth", 1);
    let (c, _) = values(&pos, "aA1", "dA1", &[1, 6, 6]);
    assert_eq!(c["values"], json!([8, 3]));
    assert_eq!(c["result"], json!("tie"));
    assert_eq!(c["survival_rolls"], json!([[], [6]]));
    assert_eq!(c["survived"], json!([false, true]));
    let strict = pos.opt("tie_is_defeat", json!(false));
    let (c, _) = values(&strict, "aA1", "dA1", &[1, 6, 6]);
    assert_eq!(c["survival_rolls"], json!([[], []]));
    assert_eq!(c["survived"], json!([false, false]));
}

#[test]
fn sk_6_8_a_sentinel_survives_on_its_own_roll() {
    // Sentinela da Runa das Marés (water 2/5): survives on 5+ in the defence zone.
    let pos = Pos::new()
        .set("player", json!(1))
        .set("turn_player", json!(1))
        .set(
            "sides",
            json!([
                {"leader": "ella_de_belberg", "element": "wind", "leader_row": 1,
                 "live_rows": [true, false, false],
                 "field": {"aA1": {"card": "martires_fogo"}, "aB1": {"card": "martires_fogo"},
                           "dA1": {"card": "martires_agua"}}},
                {"leader": "lyra", "element": "wind", "leader_row": 1,
                 "live_rows": [true, false, false],
                 "field": {"aA1": {"card": "adeptos_fogo"}, "dA1": {"card": "sentinelas_agua"},
                           "dB1": {"card": "sentinelas_agua"}}},
            ]),
        )
        .set("player", json!(0))
        .set("turn_player", json!(0));
    let (c, _) = values(&pos, "aA1", "dA1", &[6, 1, 5]);
    assert_eq!(c["fell"], json!([false, true]));
    assert_eq!(c["survived"], json!([false, true]));
    let (c, _) = values(&pos, "aA1", "dA1", &[6, 1, 4]);
    assert_eq!(c["survived"], json!([false, false]));
}

// ---- SK-7: rows ----------------------------------------------------------------------------

#[test]
fn sk_7_1_a_row_falls_with_its_last_defence_troop_and_takes_the_attack_half_along() {
    let pos = Pos::new()
        .leader(1, "lyra", "wind", 2)
        .live(1, [true, true, false])
        .down(0, "aA1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "aB1", "adeptos_agua")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "dA2", "adeptos_terra");
    let (c, g) = values(&pos, "aA1", "dA1", &[6, 1]);
    assert_eq!(c["rows_lost"], json!([[], [1]]));
    let v = g.to_json();
    assert_eq!(v["sides"][1]["live_rows"], json!([false, true, false]));
    assert!(cell_json(&v, 1, "aA1").is_null() && cell_json(&v, 1, "aB1").is_null());
    assert_eq!(
        v["sides"][1]["graveyard"],
        json!(["adeptos_terra", "adeptos_fogo", "adeptos_agua"]),
        "the defeated troop, then the rest of the row in cell order"
    );
    assert!(g.invariant_violation().is_none());
}

#[test]
fn sk_7_2_the_leader_leaves_a_fallen_row_for_the_adjacent_live_row() {
    let pos = Pos::new()
        .leader(1, "lyra", "wind", 1)
        .live(1, [true, true, false])
        .down(0, "aA1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "dA2", "adeptos_terra");
    let (_, g) = values(&pos, "aA1", "dA1", &[6, 1]);
    assert_eq!(g.to_json()["sides"][1]["leader_row"], json!(2));
    assert_eq!(
        g.current_player(),
        Some(1),
        "no decision owed: P1's turn starts"
    );
}

#[test]
fn sk_7_2_with_no_adjacent_live_row_the_leader_goes_to_the_nearest() {
    let pos = Pos::new()
        .leader(1, "lyra", "wind", 1)
        .live(1, [true, false, true])
        .down(0, "aA1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .down(1, "aA3", "adeptos_fogo")
        .down(1, "dA3", "adeptos_terra");
    let (_, g) = values(&pos, "aA1", "dA1", &[6, 1]);
    assert_eq!(g.to_json()["sides"][1]["leader_row"], json!(3));
}

/// P1 has three live rows, its leader in row 2; P0's attack kills the only defence troop of
/// row 2 (dA2, frontal for aA1 since dA1 is empty).
fn row_two_falls() -> Strifull {
    let pos = Pos::new()
        .leader(1, "lyra", "wind", 2)
        .live(1, [true, true, true])
        .down(0, "aA1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dB1", "adeptos_terra")
        .down(1, "dC1", "adeptos_terra")
        .down(1, "aA2", "adeptos_fogo")
        .down(1, "aB2", "adeptos_agua")
        .down(1, "dA2", "adeptos_terra")
        .down(1, "aA3", "tempestiva_fogo")
        .down(1, "dA3", "tempestiva_agua")
        .down(1, "dB3", "tempestiva_vento");
    let mut g = pos.game();
    dice(&mut g, &[6, 1]);
    act(&mut g, "attack aA1 dA2");
    g
}

#[test]
fn sk_7_2_between_two_live_rows_the_owner_chooses_the_leaders_row() {
    let mut g = row_two_falls();
    assert_eq!(combat(&g)["rows_lost"], json!([[], [2]]));
    assert_eq!((g.current_player(), g.step), (Some(1), Step::Relocate));
    assert_eq!(legal(&g), ["leader 1", "leader 3"]);
    assert_eq!(rule_of(&mut g, "leader 2"), "SK-7.2");
    act(&mut g, "leader 3");
    assert_eq!(g.to_json()["sides"][1]["leader_row"], json!(3));
    // Then the step-up decision (SK-7.3).
    assert_eq!((g.current_player(), g.step), (Some(1), Step::StepUp));
}

#[test]
fn sk_7_3_after_row_two_falls_row_three_may_step_up() {
    let mut g = row_two_falls();
    act(&mut g, "leader 3");
    assert_eq!(legal(&g), ["pass", "up"]);
    let mut stay = g.clone();
    act(&mut stay, "pass");
    assert_eq!(
        stay.to_json()["sides"][1]["live_rows"],
        json!([true, false, true])
    );
    act(&mut g, "up");
    let v = g.to_json();
    let s = &v["sides"][1];
    assert_eq!(s["live_rows"], json!([true, true, false]));
    assert_eq!(
        s["leader_row"],
        json!(2),
        "the leader moves up with its row"
    );
    assert_eq!(cell_json(&v, 1, "aA2")["card"], json!("tempestiva_fogo"));
    assert_eq!(cell_json(&v, 1, "dB2")["card"], json!("tempestiva_vento"));
    assert!(cell_json(&v, 1, "aA3").is_null());
    assert_eq!(
        (g.current_player(), g.step),
        (Some(1), Step::Move),
        "then P1's turn"
    );
    assert!(g.invariant_violation().is_none());
}

// ---- SK-8: victory -------------------------------------------------------------------------

fn last_rows() -> Pos {
    Pos::new()
        .leader(1, "lyra", "wind", 1)
        .down(0, "aA1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
}

#[test]
fn sk_8_1_eliminating_the_last_row_wins() {
    let (_, g) = values(&last_rows(), "aA1", "dA1", &[6, 1]);
    assert!(g.is_terminal());
    assert_eq!(g.winner(), Some(0));
    assert_eq!(g.returns(), vec![1.0, -1.0]);
    assert_eq!(g.step, Step::Over);
    let (_, g) = values(&last_rows(), "aA1", "dA1", &[1, 6]);
    assert_eq!(
        g.winner(),
        Some(1),
        "the attacker's own last row can fall too"
    );
}

#[test]
fn sk_8_2_both_last_rows_falling_at_once_is_a_draw_or_the_attackers_win() {
    // vigilias_vento (wind 3/3, +1 over earth) against adeptos_terra (earth 3/4): 4 vs 4.
    let (c, g) = values(&last_rows(), "aA1", "dA1", &[2, 2]);
    assert_eq!(c["result"], json!("tie"));
    assert!(g.is_terminal());
    assert_eq!(g.winner(), None);
    assert_eq!(g.returns(), vec![0.0, 0.0]);
    assert_eq!(g.to_json()["draw"], json!(true));
    let opt = last_rows().opt("mutual_wipeout", json!("attacker_wins"));
    let (_, g) = values(&opt, "aA1", "dA1", &[2, 2]);
    assert_eq!(g.winner(), Some(0));
}

// ---- SK-9: abilities -----------------------------------------------------------------------

/// P0 (Ella, token water in row 2, so no fire/earth bonus) attacks with `attacker` at aA1
/// the P1 troop `defender` at dA1; P1's leader is `leader` with the water token in row 1.
fn duel(attacker: &str, defender: &str, leader: &str) -> Pos {
    Pos::new()
        .leader(0, "ella_de_belberg", "water", 2)
        .leader(1, leader, "water", 1)
        .live(0, [true, true, false])
        .down(0, "aA1", attacker)
        .down(0, "aB1", "vigilias_agua")
        .down(0, "dA1", "vigilias_terra")
        .down(0, "aA2", "vigilias_agua")
        .down(0, "dA2", "vigilias_terra")
        .down(1, "aA1", "adeptos_terra")
        .down(1, "dA1", defender)
        .down(1, "dB1", "adeptos_terra")
}

#[test]
fn sk_9_use_defence_makes_the_attacker_use_its_def() {
    // Mártir do Vendaval (wind 5/2) attacks Ilusionista das Chamas (fire 3/4, use_defence):
    // it attacks with DEF 2; fire beats wind: defence 4 + 1.
    let (c, _) = values(
        &duel("martires_vento", "ilusionistas_fogo", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["uses_defence"], json!(true));
    assert_eq!(c["values"], json!([2, 5]));
    // Against a plain defender it attacks with ATK 5.
    let (c, _) = values(
        &duel("martires_vento", "adeptos_fogo", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["uses_defence"], json!(false));
    assert_eq!(c["values"], json!([5, 4]));
}

#[test]
fn sk_9_use_defence_aura_of_a_revealed_guardian_covers_its_row() {
    // P1 attacks P0's defence row 1, guarded by a face-up Guardião da Muralha at dC1.
    let pos = p1_attacks("vigilias_agua")
        .leader(1, "teodoro", "water", 2)
        .live(1, [true, true, false])
        .down(1, "aA2", "adeptos_terra")
        .down(1, "dA2", "adeptos_terra");
    let (c, _) = values(
        &pos.clone().down(0, "dC1", "guarda_terra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["uses_defence"], json!(false), "face down: no aura");
    let (c, _) = values(&pos.up(0, "dC1", "guarda_terra"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["uses_defence"], json!(true));
    assert_eq!(
        c["values"],
        json!([3, 4]),
        "adeptos_fogo attacks with DEF 3; water +1"
    );
}

#[test]
fn sk_9_stat_to_foe_weakens_the_attacker() {
    // Ilusionista das Miragens (wind 3/4): its attacker gets -2 ATK.
    let (c, _) = values(
        &duel("cacadores_terra", "ilusionistas_vento", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    // Caçador das Cavernas (earth 3/4): 3 - 2 = 1; wind beats earth: 4 + 1.
    assert_eq!(c["values"], json!([1, 5]));
}

#[test]
fn sk_9_tempestiva_aura_weakens_opposing_troops_of_one_element_while_revealed() {
    // The printed example: Brigada Tempestiva, ATK 6 / DEF 3, -1 to opposing fire troops.
    let cards = CardSet::reference();
    let t = &cards.troops[cards.troop_index("tempestiva_vento").unwrap()];
    assert_eq!((t.atk, t.def, t.element), (6, 3, Element::Wind));
    let pos = duel("martires_fogo", "adeptos_terra", "lyra"); // fire 4/3 vs earth 3/4
    let (c, _) = values(
        &pos.clone().down(1, "aB1", "tempestiva_vento"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([4, 4]), "face down: no aura");
    let (c, _) = values(
        &pos.clone().up(1, "aB1", "tempestiva_vento"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(
        c["values"],
        json!([3, 4]),
        "face up: -1 to the fire attacker"
    );
    let (c, _) = values(
        &duel("cacadores_terra", "adeptos_terra", "lyra").up(1, "aB1", "tempestiva_vento"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([3, 4]), "other elements are untouched");
}

#[test]
fn sk_9_revealed_support_reaches_the_other_allies_of_its_row() {
    // Cantora das Brasas (fire 3/3) face up at aC1: the other allies of row 1 get +1 ATK.
    let pos = duel("cacadores_terra", "adeptos_terra", "lyra"); // earth 3/4 vs earth 3/4
    let (c, _) = values(
        &pos.clone().up(0, "aC1", "vigilias_fogo"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([4, 4]));
    let (c, _) = values(
        &pos.clone().down(0, "aC1", "vigilias_fogo"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([3, 4]), "face down: no support");
    let (c, _) = values(
        &pos.clone().up(0, "aC2", "vigilias_fogo"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([3, 4]), "another row: no support");
    // Not itself: the Cantora attacking gets nothing from her own ability.
    let (c, _) = values(
        &duel("vigilias_fogo", "adeptos_terra", "lyra").up(0, "aA1", "vigilias_fogo"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([3, 4]));
}

#[test]
fn sk_9_turn_start_growth_on_revealed_troops_up_to_its_cap() {
    // P1 attacks; at the start of P0's next turn the face-up Cantora dos Ventos grows.
    let pos = p1_attacks("vigilias_agua")
        .up(0, "aA1", "vigilias_vento")
        .down(0, "aB1", "vigilias_vento");
    let (_, g) = values(&pos, "aA1", "dA1", &[1, 6]);
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "aA1")["counters"], json!([1, 0]));
    assert_eq!(
        cell_json(&v, 0, "aB1")["counters"],
        json!([0, 0]),
        "face down: no growth"
    );
    let mut capped = pos.0.clone();
    capped["sides"][0]["field"]["aA1"]["counters"] = json!([3, 0]);
    let (_, g) = values(&Pos(capped), "aA1", "dA1", &[1, 6]);
    assert_eq!(
        cell_json(&g.to_json(), 0, "aA1")["counters"],
        json!([3, 0]),
        "capped at +3"
    );
}

#[test]
fn sk_9_counters_count_in_combat() {
    let mut v = duel("vigilias_vento", "adeptos_terra", "lyra")
        .up(0, "aA1", "vigilias_vento")
        .0;
    v["sides"][0]["field"]["aA1"]["counters"] = json!([2, 0]);
    // wind 3/3 + 2, wind beats earth +1 = 6 against earth DEF 4.
    let (c, _) = values(&Pos(v), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([6, 4]));
}

#[test]
fn sk_9_ilsa_grows_the_revealed_allies_of_her_row() {
    let pos = p1_attacks("vigilias_agua")
        .leader(0, "ilsa", "earth", 1)
        .up(0, "aA1", "vigilias_fogo")
        .down(0, "aB1", "martires_agua");
    let (_, g) = values(&pos, "aA1", "dA1", &[1, 6]);
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "aA1")["counters"], json!([0, 1]));
    assert_eq!(cell_json(&v, 0, "aB1")["counters"], json!([0, 0]));
    assert_eq!(
        cell_json(&v, 0, "dA1")["counters"],
        json!([0, 1]),
        "revealed by the attack"
    );
}

#[test]
fn sk_9_leader_conditions_on_element_and_row() {
    // Corvin: allies of the leader's element get +1 DEF (P1 water token).
    let (c, _) = values(
        &duel("cacadores_terra", "arcanistas_agua", "corvin"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    // earth 3 +1 (earth beats water) vs water 4 + 1 (Corvin) + 1 (P1 leader water, row 1).
    assert_eq!(c["values"], json!([4, 6]));
    // Lyra: allies attacking from her row get +1 ATK (P1 attacks from row 1).
    let (c, _) = values(&p1_attacks("vigilias_agua"), "aA1", "dA1", &[1, 1]);
    // adeptos_fogo 4 + 1 (Lyra) vs water 3 + 1 (water beats fire).
    assert_eq!(c["values"], json!([5, 4]));
}

#[test]
fn sk_9_troop_conditions_on_row_leader_element_and_foe_element() {
    // Cavaleiro Flamejante: +2 ATK attacking from row 1, not from row 2.
    let (c, _) = values(
        &duel("cavaleiros_fogo", "adeptos_terra", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(c["values"], json!([7, 4]));
    let row2 = duel("vigilias_agua", "adeptos_terra", "lyra").down(0, "aA2", "cavaleiros_fogo");
    let (c, _) = values(&row2, "aA2", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([5, 4]));
    // Cavaleiro de Pedra: +2 DEF when attacked in its leader's row (P1 attacks P0 row 1).
    let pos = p1_attacks("cavaleiros_terra").leader(0, "ella_de_belberg", "fire", 1);
    let (c, _) = values(&pos, "aA1", "dA1", &[1, 1]);
    assert_eq!(
        c["values"],
        json!([5, 6]),
        "earth 4 + 2; Lyra's +1 for the attacker"
    );
    let pos = p1_attacks("cavaleiros_terra")
        .leader(0, "ella_de_belberg", "fire", 2)
        .live(0, [true, true, false])
        .down(0, "aA2", "vigilias_agua")
        .down(0, "dA2", "vigilias_agua");
    let (c, _) = values(&pos, "aA1", "dA1", &[1, 1]);
    assert_eq!(
        c["values"],
        json!([5, 4]),
        "outside the leader's row: no bonus"
    );
    // Adepto do Vento: +2 ATK when its leader holds the wind token.
    let wind = |element: &str| {
        p1_attacks("cavaleiros_terra")
            .leader(1, "teodoro", element, 2)
            .live(1, [true, true, false])
            .down(1, "aA1", "adeptos_vento")
            .down(1, "aA2", "adeptos_fogo")
            .down(1, "dA2", "adeptos_fogo")
            .leader(0, "ella_de_belberg", "fire", 2)
            .live(0, [true, true, false])
            .down(0, "aA2", "vigilias_agua")
            .down(0, "dA2", "vigilias_agua")
    };
    // wind 4/3 (+1 wind beats earth) vs earth DEF 4.
    let (c, _) = values(&wind("wind"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([7, 4]));
    let (c, _) = values(&wind("fire"), "aA1", "dA1", &[1, 1]);
    assert_eq!(c["values"], json!([5, 4]));
    // Adepta da Água: +2 DEF against a fire attacker only.
    let (c, _) = values(
        &duel("martires_fogo", "adeptos_agua", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(
        c["values"],
        json!([4, 8]),
        "water 4 + 2 + 1 (water beats fire) + 1 (leader's water)"
    );
    let (c, _) = values(
        &duel("cacadores_terra", "adeptos_agua", "lyra"),
        "aA1",
        "dA1",
        &[1, 1],
    );
    assert_eq!(
        c["values"],
        json!([4, 5]),
        "earth attacker: +1 earth beats water, no +2"
    );
}

// ---- SK-1, SK-3: decks and setup -----------------------------------------------------------

#[test]
fn sk_1_3_the_recommended_decks_follow_the_beginners_tip() {
    let cards = CardSet::reference();
    for f in &cards.factions {
        assert_eq!(f.troops.len(), 20);
        assert_eq!(f.leaders.len(), 3);
        assert_eq!(f.brigades.len(), 5);
        let copies: u32 = f
            .troops
            .iter()
            .map(|&t| u32::from(cards.troops[t].copies))
            .sum();
        assert_eq!(copies, 60, "{}: 60 troop cards", f.id);
        assert_eq!(f.recommended.len(), 30);
        for &t in &f.troops {
            let n = f.recommended.iter().filter(|&&x| x == t).count();
            assert!((1..=3).contains(&n), "at least one of each troop");
        }
        for &b in &f.brigades {
            let n = f
                .recommended
                .iter()
                .filter(|&&t| cards.troops[t].brigade == b)
                .count();
            assert_eq!(n, 6, "four troops plus two more per brigade");
        }
        for &b in &f.brigades {
            let mut elements: Vec<_> = f
                .troops
                .iter()
                .filter(|&&t| cards.troops[t].brigade == b)
                .map(|&t| cards.troops[t].element)
                .collect();
            elements.sort();
            assert_eq!(
                elements,
                content::ELEMENTS.to_vec(),
                "one troop of each element"
            );
        }
    }
}

#[test]
fn sk_1_2_deck_choices_are_checked() {
    let bad = |decks: Value| {
        let opts: Options = serde_json::from_value(json!({ "decks": decks })).unwrap();
        match Strifull::new(1, &opts) {
            Err(Error::Options { message }) => message,
            other => panic!("expected an options error, got {other:?}"),
        }
    };
    let four = json!([
        vec!["martires_fogo"; 4]
            .into_iter()
            .chain(vec!["guarda_fogo"; 26])
            .collect::<Vec<_>>(),
        "recommended"
    ]);
    assert!(bad(four).contains("4 copies"));
    assert!(bad(json!([["martires_fogo"], "recommended"])).contains("30 troops"));
    let inquisition: Vec<String> = CardSet::reference().factions[0]
        .recommended
        .iter()
        .map(|&t| CardSet::reference().troops[t].id.clone())
        .collect();
    assert!(bad(json!(["recommended", inquisition])).contains("faction"));
    let counts: serde_json::Map<String, Value> = CardSet::reference().factions[0]
        .troops
        .iter()
        .take(15)
        .map(|&t| (CardSet::reference().troops[t].id.clone(), json!(2)))
        .collect();
    let opts: Options = serde_json::from_value(json!({"decks": [counts, "random"]})).unwrap();
    let g = Strifull::new(3, &opts).unwrap();
    assert_eq!(g.shared.decks[0].len(), 30);
    for p in 0..2 {
        let faction = g.leader(p).faction;
        g.cards()
            .check_deck(
                faction,
                &g.shared.decks[p]
                    .iter()
                    .map(|&t| t as usize)
                    .collect::<Vec<_>>(),
            )
            .unwrap();
    }
    let unknown: Result<Options, _> = serde_json::from_value(json!({"decks": ["best", "random"]}));
    assert!(unknown.unwrap_err().to_string().contains("unknown deck"));
    let leader: Options = serde_json::from_value(json!({"leaders": ["teodoro", null]})).unwrap();
    assert!(matches!(
        Strifull::new(1, &leader),
        Err(Error::Options { .. })
    ));
}

#[test]
fn sk_3_1_the_deal_puts_18_face_down_troops_and_a_pile_of_12() {
    let g = Strifull::new(11, &Options::default()).unwrap();
    let v = g.to_json();
    for p in 0..2 {
        let s = &v["sides"][p];
        let field = s["field"].as_object().unwrap();
        assert_eq!(field.len(), 18);
        assert!(field.values().all(|c| c["revealed"] == json!(false)));
        assert_eq!(s["pile"].as_array().unwrap().len(), 12);
        assert_eq!(s["graveyard"], json!([]));
        assert_eq!(s["element"], Value::Null);
        assert_eq!(s["leader_row"], Value::Null);
    }
    assert_eq!((g.current_player(), g.step), (Some(0), Step::Changes));
    assert!(g.invariant_violation().is_none());
}

#[test]
fn sk_3_3_up_to_three_changes_then_the_element() {
    let mut g = Strifull::new(11, &Options::default()).unwrap();
    let v0 = g.to_json();
    let (a, b) = (
        v0["sides"][0]["field"]["aA1"]["card"].clone(),
        v0["sides"][0]["field"]["dC3"]["card"].clone(),
    );
    act(&mut g, "swap aA1 dC3");
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "aA1")["card"], b);
    assert_eq!(cell_json(&v, 0, "dC3")["card"], a);
    // A swap with the pile: the top card comes in, the field card goes under the pile.
    let top = v["sides"][0]["pile"][0].clone();
    let out = cell_json(&v, 0, "aB2")["card"].clone();
    act(&mut g, "swap aB2 pile");
    let v = g.to_json();
    assert_eq!(cell_json(&v, 0, "aB2")["card"], top);
    assert_eq!(cell_json(&v, 0, "aB2")["revealed"], json!(false));
    assert_eq!(v["sides"][0]["pile"][11], out);
    assert_eq!(v["sides"][0]["pile_known"], json!(1));
    // The owner knows that card (SK-10.2); the opponent does not.
    assert_eq!(g.view(0)["sides"][0]["pile"][11], out);
    assert_eq!(g.view(0)["sides"][0]["pile"][0], Value::Null);
    assert_eq!(g.view(1)["sides"][0]["pile"][11], Value::Null);
    act(&mut g, "swap aA2 aA3");
    assert_eq!(g.step, Step::Element, "three changes end the changes");
    assert_eq!(
        rule_of(&mut g, "swap aA1 aB1"),
        "SK-3.4",
        "a fourth change is out of step"
    );
    let mut early = Strifull::new(11, &Options::default()).unwrap();
    act(&mut early, "pass");
    assert_eq!(early.step, Step::Element);
}

#[test]
fn sk_3_2_player_zero_sets_up_first_and_the_choices_stay_secret_until_both_are_done() {
    let mut g = Strifull::new(12, &Options::default()).unwrap();
    assert_eq!(rule_of(&mut g, "element fire"), "SK-3.3");
    act(&mut g, "pass");
    assert_eq!(
        legal(&g),
        [
            "element fire",
            "element water",
            "element wind",
            "element earth"
        ]
    );
    act(&mut g, "element wind");
    assert_eq!(legal(&g), ["leader 1", "leader 2", "leader 3"]);
    act(&mut g, "leader 3");
    assert_eq!((g.current_player(), g.step), (Some(1), Step::Changes));
    assert_eq!(
        g.view(1)["sides"][0]["element"],
        Value::Null,
        "hidden from P1 during setup"
    );
    assert_eq!(g.view(1)["sides"][0]["leader_row"], Value::Null);
    assert_eq!(g.view(0)["sides"][0]["element"], json!("wind"));
    assert!(!g.render(Some(1)).contains("[wind]"));
    act(&mut g, "pass");
    act(&mut g, "element earth");
    dice(&mut g, &[3, 3, 2, 5]);
    act(&mut g, "leader 1");
    // SK-3.6: a tie is rerolled; the higher die starts.
    assert_eq!(
        g.to_json()["first"],
        json!({"player": 1, "dice": [2, 5], "rerolls": 1})
    );
    assert_eq!(g.turn, 1);
    assert_eq!(g.current_player(), Some(1));
    assert_eq!(
        g.view(1)["sides"][0]["element"],
        json!("wind"),
        "public once play begins"
    );
    assert_eq!(g.view(0)["sides"][1]["leader_row"], json!(1));
}

// ---- SK-4: the turn ------------------------------------------------------------------------

fn move_step() -> Pos {
    Pos::new()
        .set("step", json!("move"))
        .leader(0, "ella_de_belberg", "fire", 1)
        .live(0, [true, true, false])
        .down(0, "aA1", "martires_fogo")
        .down(0, "aB1", "martires_agua")
        .down(0, "dA1", "guarda_fogo")
        .down(0, "aA2", "guarda_agua")
        .down(0, "dA2", "guarda_vento")
        .down(0, "dB2", "guarda_terra")
        .side(0, "pile", json!(["cacadores_fogo", "cacadores_agua"]))
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
}

#[test]
fn sk_4_2_battle_moves_step_within_the_zone_or_cross_to_the_other() {
    let g = move_step().game();
    let moves: Vec<String> = legal(&g)
        .into_iter()
        .filter(|a| a.starts_with("move aA1"))
        .collect();
    // aA1: to aB1 (swap), aA2 (swap), dA1 (cross, swap); forward leaves the zone.
    assert_eq!(moves, ["move aA1 aA2", "move aA1 aB1", "move aA1 dA1"]);
    let mut g2 = g.clone();
    act(&mut g2, "move aA1 dA1");
    let v = g2.to_json();
    assert_eq!(cell_json(&v, 0, "aA1")["card"], json!("guarda_fogo"));
    assert_eq!(cell_json(&v, 0, "dA1")["card"], json!("martires_fogo"));
    assert_eq!(g2.step, Step::LeaderMove, "then step II");
    // Into an empty cell of the same half-row.
    let mut g3 = g.clone();
    act(&mut g3, "move aB1 aC1");
    assert_eq!(
        cell_json(&g3.to_json(), 0, "aC1")["card"],
        json!("martires_agua")
    );
}

#[test]
fn sk_4_2_no_move_into_an_eliminated_row() {
    let mut g = move_step().game();
    assert_eq!(rule_of(&mut g, "move aA2 aA3"), "SK-4.2");
    assert_eq!(rule_of(&mut g, "move dB1 dB2"), "SK-4.2");
}

#[test]
fn sk_4_3_a_move_may_not_empty_half_a_row() {
    let mut g = Pos::new()
        .set("step", json!("move"))
        .live(0, [true, true, false])
        .down(0, "aA1", "martires_fogo")
        .down(0, "aB1", "martires_agua")
        .down(0, "dA1", "guarda_fogo")
        .down(0, "aA2", "guarda_agua")
        .down(0, "dB2", "guarda_terra")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
        .game();
    assert_eq!(
        rule_of(&mut g, "move dA1 dA2"),
        "SK-4.3",
        "dA1 holds row 1's defence alone"
    );
    assert_eq!(
        rule_of(&mut g, "move aA2 dA2"),
        "SK-4.3",
        "aA2 holds row 2's attack alone"
    );
    let mut swap = g.clone();
    act(&mut swap, "move dA1 aA1");
    act(&mut g, "move aB1 aB2");
    assert_eq!(
        cell_json(&g.to_json(), 0, "aB2")["card"],
        json!("martires_agua")
    );
}

#[test]
fn sk_4_4_replacing_from_the_pile_sends_the_troop_to_the_graveyard() {
    let mut g = move_step().game();
    act(&mut g, "replace aA1");
    let v = g.to_json();
    assert_eq!(
        cell_json(&v, 0, "aA1")["card"],
        json!("cacadores_fogo"),
        "the top card"
    );
    assert_eq!(cell_json(&v, 0, "aA1")["revealed"], json!(false));
    assert_eq!(v["sides"][0]["graveyard"], json!(["martires_fogo"]));
    assert_eq!(v["sides"][0]["pile"], json!(["cacadores_agua"]));
    assert_eq!(
        cell_json(&g.view(1), 0, "aA1")["card"],
        Value::Null,
        "it comes face down"
    );
    let mut empty = move_step().side(0, "pile", json!([])).game();
    assert_eq!(rule_of(&mut empty, "replace aA1"), "SK-4.4");
}

#[test]
fn sk_4_2_option_moves_in_leader_row_only() {
    let mut g = move_step()
        .opt("moves_in_leader_row_only", json!(true))
        .game();
    assert_eq!(rule_of(&mut g, "move aA2 dA2"), "SK-4.2");
    act(&mut g, "move aA1 aB1");
}

#[test]
fn sk_4_5_the_leader_moves_to_any_live_row() {
    let mut g = move_step()
        .live(0, [true, true, true])
        .down(0, "aA3", "vigilias_fogo")
        .down(0, "dA3", "vigilias_agua")
        .game();
    act(&mut g, "pass");
    assert_eq!(g.step, Step::LeaderMove);
    assert_eq!(legal(&g), ["pass", "leader 2", "leader 3"]);
    act(&mut g, "leader 3");
    assert_eq!(g.to_json()["sides"][0]["leader_row"], json!(3));
    // Ella has no activated ability: step III is skipped (SK-4.1).
    assert_eq!(g.step, Step::Attack);
}

#[test]
fn sk_4_7_the_attack_is_not_optional() {
    let mut g = move_step().game();
    act(&mut g, "pass");
    act(&mut g, "pass");
    assert_eq!(
        g.step,
        Step::Attack,
        "Ella has no activated ability: no step III"
    );
    assert_eq!(rule_of(&mut g, "pass"), "SK-4.7");
    assert_eq!(rule_of(&mut g, "leader 2"), "SK-4.7");
}

#[test]
fn sk_4_6_aurelio_reveals_a_face_down_enemy_once_a_turn() {
    let pos = Pos::new()
        .set("step", json!("ability"))
        .leader(0, "aurelio", "fire", 1)
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "guarda_fogo")
        .down(1, "aA1", "adeptos_fogo")
        .up(1, "dA1", "adeptos_terra")
        .down(1, "dB1", "adeptos_agua");
    let mut g = pos.game();
    assert_eq!(legal(&g), ["pass", "ability foe aA1", "ability foe dB1"]);
    assert_eq!(rule_of(&mut g, "ability foe dA1"), "SK-4.6");
    assert_eq!(rule_of(&mut g, "ability own aA1"), "SK-4.6");
    act(&mut g, "ability foe dB1");
    assert_eq!(
        cell_json(&g.view(0), 1, "dB1")["card"],
        json!("adeptos_agua")
    );
    assert_eq!(g.step, Step::Attack);
}

#[test]
fn sk_4_6_teodoros_curse_has_three_uses() {
    let pos = Pos::new()
        .set("player", json!(1))
        .set("turn_player", json!(1))
        .set("step", json!("ability"))
        .leader(1, "teodoro", "fire", 1)
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_fogo")
        .down(0, "aA1", "martires_fogo")
        .down(0, "dA1", "guarda_fogo");
    let g = pos.clone().side(1, "ability_uses", json!(2)).game();
    assert_eq!(legal(&g), ["pass", "ability foe aA1", "ability foe dA1"]);
    let mut g = g;
    act(&mut g, "ability foe dA1");
    assert_eq!(g.to_json()["sides"][1]["ability_uses"], json!(3));
    let mut spent = pos.side(1, "ability_uses", json!(3)).game();
    assert_eq!(spent.step, Step::Ability, "a loaded state keeps its step");
    assert_eq!(legal(&spent), ["pass"]);
    assert_eq!(rule_of(&mut spent, "ability foe dA1"), "SK-4.6");
}

// ---- SK-10: hidden information -------------------------------------------------------------

#[test]
fn sk_10_views_hide_face_down_troops_the_pile_order_and_the_rng() {
    let mut g = Strifull::new(21, &Options::default()).unwrap();
    let mut rng = GameRng::seed(4);
    play_until(&mut g, &mut rng, |g| g.turn >= 6);
    for p in 0..2 {
        let v = g.view(p);
        assert_eq!(v["rng"], Value::Null);
        let full = g.to_json();
        for (cell, c) in full["sides"][1 - p]["field"].as_object().unwrap() {
            let seen = &v["sides"][1 - p]["field"][cell];
            if c["revealed"] == json!(true) {
                assert_eq!(seen, c);
            } else {
                assert_eq!(seen["card"], Value::Null);
            }
        }
        assert_eq!(
            v["sides"][p]["field"], full["sides"][p]["field"],
            "own cards are known"
        );
        assert!(v["sides"][1 - p]["pile"]
            .as_array()
            .unwrap()
            .iter()
            .all(Value::is_null));
        assert_eq!(
            v["sides"][1 - p]["graveyard"],
            full["sides"][1 - p]["graveyard"]
        );
        assert_eq!(
            v["sides"][1 - p]["deck"],
            full["sides"][1 - p]["deck"],
            "decks are public"
        );
    }
}

#[test]
fn sk_10_resampling_keeps_the_view_and_redraws_the_rest() {
    let mut rng = GameRng::seed(5);
    for seed in 0..30 {
        let mut g = Strifull::new(seed, &Options::default()).unwrap();
        let stop = rng.below(60);
        let mut n = 0;
        play_until(&mut g, &mut rng, |_| {
            n += 1;
            n > stop
        });
        for p in 0..2 {
            let r = g.resample_hidden(p, seed);
            assert_eq!(r.view(p), g.view(p));
            assert!(r.invariant_violation().is_none());
            let mut a = vec![0.0; 38 * 40];
            let mut b = vec![0.0; 38 * 40];
            g.observation(p, &mut a);
            r.observation(p, &mut b);
            assert_eq!(a, b);
            assert_eq!(r.render(Some(p)), g.render(Some(p)));
            assert_eq!(
                r.evaluate(p),
                g.evaluate(p),
                "evaluate uses only what p sees"
            );
        }
    }
}

// ---- properties of random games ------------------------------------------------------------

fn option_variants() -> Vec<Options> {
    let mut v = Vec::new();
    let inq = ["ella_de_belberg", "aurelio", "ilsa"];
    let mag = ["teodoro", "lyra", "corvin"];
    for (i, a) in inq.iter().enumerate() {
        for (j, b) in mag.iter().enumerate() {
            let mut o = Options {
                leaders: [Some(a.to_string()), Some(b.to_string())],
                ..Options::default()
            };
            if (i + j) % 2 == 1 {
                o.decks = [DeckChoice::Random, DeckChoice::Random];
                o.factions = [Some("magos".into()), Some("inquisicao".into())];
                o.leaders = [Some(b.to_string()), Some(a.to_string())];
            }
            v.push(o);
        }
    }
    v.push(Options {
        tie_is_defeat: false,
        dead_cells_open_flanks: false,
        moves_in_leader_row_only: true,
        mutual_wipeout: MutualWipeout::AttackerWins,
        ..Options::default()
    });
    v.push(Options {
        factions: [Some("magos".into()), Some("magos".into())],
        ..Options::default()
    });
    v
}

#[test]
fn random_games_end_and_keep_every_invariant() {
    for (k, opts) in option_variants().iter().enumerate() {
        for seed in 0..25 {
            let (g, plies) = random_game(seed * 31 + k as u64, opts, true);
            assert!(g.is_terminal() && plies > 0);
            let r = g.returns();
            match g.winner() {
                Some(w) => assert_eq!(r[w], 1.0),
                None => assert_eq!(r, vec![0.0, 0.0]),
            }
            assert_eq!(g.evaluate(0), r[0]);
        }
    }
}

#[test]
fn legal_actions_are_exactly_the_actions_apply_accepts() {
    let mut rng = GameRng::seed(99);
    for (k, opts) in option_variants().iter().enumerate().take(6) {
        let mut g = Strifull::new(k as u64, opts).unwrap();
        let mut buf = Vec::new();
        while !g.is_terminal() {
            g.legal_actions(&mut buf);
            let before = g.to_json();
            for id in 0..notation::NUM_ACTIONS {
                let a = Action::from_id(id).unwrap();
                let ok = g.check(a).is_ok();
                assert_eq!(
                    ok,
                    buf.contains(&a),
                    "{} in step {:?}",
                    a.notation(),
                    g.step
                );
                if !ok && rng.below(20) == 0 {
                    let mut c = g.clone();
                    match c.apply(a) {
                        Err(Error::IllegalAction { rule, .. }) => assert!(rule.starts_with("SK-")),
                        other => panic!("{other:?}"),
                    }
                    assert_eq!(c.to_json(), before);
                }
            }
            let e = g.evaluate(g.current_player().unwrap());
            assert!((-1.0..=1.0).contains(&e));
            let a = *rng.choose(&buf).unwrap();
            g.apply(a).unwrap();
        }
        assert!(
            g.check(Action::Pass).is_err(),
            "nothing is legal once the game is over"
        );
    }
}

#[test]
fn states_round_trip_through_json_and_views_leak_nothing_hidden() {
    let mut rng = GameRng::seed(7);
    for (k, opts) in option_variants().iter().enumerate() {
        let mut g = Strifull::new(100 + k as u64, opts).unwrap();
        let mut buf = Vec::new();
        let mut i = 0;
        while !g.is_terminal() {
            if i % 3 == 0 {
                let v = g.to_json();
                let back = Strifull::from_json(&v).unwrap_or_else(|e| panic!("{e}\n{v}"));
                assert_eq!(back.to_json(), v);
                for p in 0..2 {
                    let r = g.resample_hidden(p, i);
                    assert_eq!(r.view(p), g.view(p));
                    assert_eq!(r.resample_hidden(p, 3).view(p), g.view(p));
                    assert!(r.invariant_violation().is_none());
                }
                let mut obs = vec![0.0f32; 38 * 40];
                g.observation(0, &mut obs);
                assert!(obs.iter().all(|x| x.is_finite()));
            }
            g.legal_actions(&mut buf);
            let a = *rng.choose(&buf).unwrap();
            g.apply(a).unwrap();
            i += 1;
        }
        let v = g.to_json();
        assert_eq!(Strifull::from_json(&v).unwrap().to_json(), v);
    }
}

/// Orthogonal neighbours of a cell inside its zone (the naive form of SK-2.3).
fn neighbours(c: usize) -> Vec<usize> {
    use super::state::{cell_at, col_of, row_of, zone_of};
    let (z, r, k) = (zone_of(c), row_of(c), col_of(c));
    let mut v = Vec::new();
    if r > 1 {
        v.push(cell_at(z, r - 1, k));
    }
    if r < 3 {
        v.push(cell_at(z, r + 1, k));
    }
    if k > 0 {
        v.push(cell_at(z, r, k - 1));
    }
    if k < 2 {
        v.push(cell_at(z, r, k + 1));
    }
    v
}

#[test]
fn sk_5_2_5_3_bit_mask_targets_agree_with_the_naive_definition() {
    use super::state::{cell_at, col_of, row_of};
    let mut rng = GameRng::seed(17);
    for dead_open in [true, false] {
        let opts = Options {
            dead_cells_open_flanks: dead_open,
            ..Options::default()
        };
        for seed in 0..40 {
            let mut g = Strifull::new(seed, &opts).unwrap();
            let mut buf = Vec::new();
            while !g.is_terminal() {
                if g.step == Step::Attack {
                    let p = g.actor as usize;
                    let foe = &g.sides[1 - p];
                    for a in 0..9 {
                        if g.sides[p].cells[a].is_empty()
                            || g.can_attack_any(p, a, true, g.aura_sources())
                        {
                            continue;
                        }
                        let mut naive = 0u16;
                        if let Some(c) = (1..=3)
                            .map(|r| cell_at(1, r, col_of(a)))
                            .find(|&c| foe.cells[c].occupied())
                        {
                            naive |= 1 << (c - 9);
                        }
                        for c in 9..18 {
                            let open = neighbours(c).into_iter().any(|n| {
                                foe.cells[n].is_empty() && (dead_open || foe.row_live(row_of(n)))
                            });
                            if foe.cells[c].occupied() && open {
                                naive |= 1 << (c - 9);
                            }
                        }
                        assert_eq!(g.attack_targets(p, a), naive);
                    }
                }
                g.legal_actions(&mut buf);
                let a = *rng.choose(&buf).unwrap();
                g.apply(a).unwrap();
            }
        }
    }
}

#[test]
fn simulate_runs_strifull() {
    let s = crate::simulate::simulate::<Strifull>(&Options::default(), 200, 3, 0, Some(2)).unwrap();
    assert_eq!(s.games, 200);
    assert_eq!(s.wins.iter().sum::<u64>() + s.draws, 200);
    let t = crate::simulate::simulate::<Strifull>(&Options::default(), 200, 3, 0, Some(1)).unwrap();
    assert_eq!((s.wins, s.plies), (t.wins, t.plies));
}

// ---- malformed states ------------------------------------------------------------------------

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

// ---- card data -------------------------------------------------------------------------------

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

#[test]
#[ignore]
fn show() {
    let opts = Options::default();
    let mut g = Strifull::new(5, &opts).unwrap();
    let mut rng = GameRng::seed(1);
    let mut buf = Vec::new();
    for _ in 0..60 {
        if g.is_terminal() {
            break;
        }
        g.legal_actions(&mut buf);
        let a = *rng.choose(&buf).unwrap();
        println!("P{} {}", g.current_player().unwrap(), a.notation());
        g.apply(a).unwrap();
    }
    println!("{}", g.render(None));
    println!("{}", g.render(Some(0)));
    println!("{}", serde_json::to_string_pretty(&g.view(1)).unwrap());
}

#[test]
#[ignore]
fn plies_stats() {
    let opts = Options::default();
    let mut steps = std::collections::BTreeMap::<&str, (usize, usize)>::new();
    let mut total = 0;
    let n = 300;
    for seed in 0..n {
        let mut g = Strifull::new(seed, &opts).unwrap();
        let mut rng = GameRng::seed(seed);
        let mut buf = Vec::new();
        while !g.is_terminal() {
            g.legal_actions(&mut buf);
            let e = steps.entry(g.step.name()).or_default();
            e.0 += 1;
            e.1 += buf.len();
            let a = *rng.choose(&buf).unwrap();
            g.apply(a).unwrap();
            total += 1;
        }
    }
    println!("avg plies {}", total as f64 / n as f64);
    for (k, (c, l)) in steps {
        println!(
            "{k}: {:.1} per game, {:.1} legal",
            c as f64 / n as f64,
            l as f64 / c as f64
        );
    }
}

#[test]
#[ignore]
fn speed() {
    let n: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let s = crate::simulate::simulate::<Strifull>(&Options::default(), n, 1, 0, Some(1)).unwrap();
    println!(
        "{} games, {:.0} games/s, {:.1} plies/game, wins {:?}, draws {}",
        s.games,
        s.games_per_second(),
        s.plies as f64 / s.games as f64,
        s.wins,
        s.draws
    );
}
