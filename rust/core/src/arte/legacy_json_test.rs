//! TEMPORARY: the hand-written to_json before serde, as an oracle (removed after the check).
use super::cards::Card;
use super::notation::cell_name;
use super::state::{Arte, Held, Kind, Phase};
use crate::game::{Game, Player};
use crate::rng::GameRng;
use serde_json::{json, Map, Value};

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Draft => "draft",
        Phase::Terrain => "terrain",
        Phase::Deploy => "deploy",
        Phase::Combat => "combat",
        Phase::SuddenDeath => "sudden_death",
        Phase::Over => "over",
    }
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Terrain => "terrain",
        Kind::Units => "units",
    }
}

impl Arte {
    /// The state as JSON, with what `viewer` may not see as `null` (`None`: everything).
    pub(super) fn legacy_json_as(&self, viewer: Option<Player>) -> Value {
        let set = &*self.set;
        let lab = |c: Card| Value::from(set.label(c));
        let list = |cs: &[Card]| Value::from(cs.iter().map(|&c| lab(c)).collect::<Vec<_>>());
        let hidden_list = |n: usize| Value::from(vec![Value::Null; n]);
        let omniscient = viewer.is_none();

        let piles = if omniscient {
            json!({"terrain": list(&self.piles[0]), "units": list(&self.piles[1])})
        } else {
            json!({"terrain": hidden_list(self.piles[0].len()), "units": hidden_list(self.piles[1].len())})
        };
        let draft = match &self.draft {
            None => Value::Null,
            Some(d) => json!({
                "kind": kind_name(d.kind),
                "picker": d.picker,
                "slots": (0..3).map(|i| match d.slots[i] {
                    Some(c) if self.sees_slot(viewer, d, i) => lab(c),
                    _ => Value::Null,
                }).collect::<Vec<_>>(),
                "hidden": d.hidden,
                "taken": d.taken.to_vec(),
            }),
        };
        let players: Vec<Value> = (0..2)
            .map(|q| {
                let s = &self.sides[q];
                // Everything of the side is visible to its owner and the omniscient.
                let own = viewer.is_none_or(|p| p == q);
                let hand = |hs: &[Held]| {
                    Value::from(
                        hs.iter()
                            .map(|h| {
                                if own || !h.secret {
                                    lab(h.card)
                                } else {
                                    Value::Null
                                }
                            })
                            .collect::<Vec<_>>(),
                    )
                };
                let secret: Vec<Value> = s
                    .terrains
                    .iter()
                    .chain(&s.units)
                    .filter(|h| h.secret)
                    .map(|h| if own { lab(h.card) } else { Value::Null })
                    .collect();
                let mut field = Map::new();
                for cell in 0..9u8 {
                    field.insert(
                        cell_name(cell),
                        s.field[cell as usize].map_or(Value::Null, lab),
                    );
                }
                let placing: Vec<Value> = s
                    .placing
                    .iter()
                    .map(|&(c, r)| {
                        if own {
                            json!({"card": lab(c), "row": r + 1})
                        } else {
                            json!({"card": null, "row": null})
                        }
                    })
                    .collect();
                let deploying: Vec<Value> = s
                    .deploying
                    .iter()
                    .map(|&(c, x)| {
                        if own {
                            json!({"card": lab(c), "cell": cell_name(x)})
                        } else {
                            json!({"card": null, "cell": null})
                        }
                    })
                    .collect();
                let pick = match s.pick {
                    None => Value::Null,
                    Some((c, r)) if own || self.phase == Phase::Over => {
                        json!({"card": lab(c), "row": r + 1})
                    }
                    Some(_) => json!({"card": null, "row": null}),
                };
                json!({
                    "terrains": hand(&s.terrains),
                    "units": hand(&s.units),
                    "secret": secret,
                    "rows": s.rows.iter().map(|r| r.map_or(Value::Null, lab)).collect::<Vec<_>>(),
                    "field": field,
                    "placing": placing,
                    "deploying": deploying,
                    "victory": list(&s.victory),
                    "defeated": list(&s.defeated),
                    "pick": pick,
                })
            })
            .collect();
        let combat = match self.combat {
            None => Value::Null,
            Some(c) => json!({
                "attacker": c.attacker,
                "turn": c.turn,
                "passes": c.passes,
                "attack": c.attack.map(cell_name),
            }),
        };
        json!({
            "options": serde_json::to_value(&self.opts).unwrap_or(Value::Null),
            "cards": set.json().clone(),
            "rng": if omniscient { serde_json::to_value(&self.rng).unwrap_or(Value::Null) } else { Value::Null },
            "phase": phase_name(self.phase),
            "round": self.round,
            "first_attacker": self.first_attacker,
            "piles": piles,
            "draft": draft,
            "discard": list(&self.discard),
            "players": players,
            "combat": combat,
            "winner": if self.phase == Phase::Over { self.winner.map_or(Value::Null, Value::from) } else { Value::Null },
        })
    }
}

#[test]
fn serde_json_matches_the_hand_written_format_byte_for_byte() {
    let mut n = 0;
    for o in super::tests::all_options() {
        for seed in 0..40u64 {
            let mut g = Arte::new(seed, &o).unwrap();
            let mut rng = GameRng::seed(seed);
            let mut buf = Vec::new();
            loop {
                for v in [None, Some(0), Some(1)] {
                    let a = serde_json::to_string(&g.json_as(v)).unwrap();
                    let b = serde_json::to_string(&g.legacy_json_as(v)).unwrap();
                    assert_eq!(a, b);
                    n += 1;
                }
                if g.is_terminal() {
                    break;
                }
                g.legal_actions(&mut buf);
                g.apply(*rng.choose(&buf).unwrap()).unwrap();
            }
        }
    }
    eprintln!("compared {n} states and views");
}
