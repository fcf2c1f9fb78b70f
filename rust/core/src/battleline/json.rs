//! The state as JSON (`to_json` / `from_json`, fully validated), the per-player view and
//! determinization (`resample_hidden`). Format: `docs/battleline.md`.

use super::cards::{Card, CardSet, Deck, NUM_CARDS};
use super::state::*;
use crate::error::{Error, Result};
use crate::rng::GameRng;
use serde_json::{json, Map, Value};

fn card_list(cards: impl IntoIterator<Item = Card>) -> Value {
    Value::Array(
        cards
            .into_iter()
            .map(|c| Value::from(c.to_string()))
            .collect(),
    )
}

fn positions(mask: u64) -> Value {
    Value::Array(
        (0..64)
            .filter(|i| mask >> i & 1 == 1)
            .map(Value::from)
            .collect(),
    )
}

fn opt_u8(v: Option<u8>) -> Value {
    v.map_or(Value::Null, Value::from)
}

impl BattleLine {
    fn flags_json(&self) -> Value {
        Value::Array(
            self.flags
                .iter()
                .map(|f| {
                    let mut env = Vec::new();
                    if let Some(s) = f.fog {
                        env.push(json!({"card": "Fog", "side": s}));
                    }
                    if let Some(s) = f.mud {
                        env.push(json!({"card": "Mud", "side": s}));
                    }
                    json!({
                        "sides": [card_list(f.side(0).iter().copied()), card_list(f.side(1).iter().copied())],
                        "env": env,
                        "claimed": opt_u8(f.claimed),
                        "first_complete": opt_u8(f.first_complete),
                    })
                })
                .collect(),
        )
    }

    fn scout_json(&self) -> Value {
        match self.phase {
            Phase::ScoutDraw => json!({"drawn": self.scout_drawn, "draws_left": self.scout_left}),
            Phase::ScoutReturn => {
                json!({"drawn": self.scout_drawn, "returns_left": self.scout_left})
            }
            _ => Value::Null,
        }
    }

    fn hand_counts(&self) -> Value {
        Value::Array(
            self.hands
                .iter()
                .map(|h| json!({"troops": h.troops().count_ones(), "tactics": h.tactics().len()}))
                .collect(),
        )
    }

    fn known_json(&self, k: &Knowledge) -> Value {
        json!({
            "troop_deck": positions(k.deck_pos[0]),
            "tactics_deck": positions(k.deck_pos[1]),
            "opponent_hand": card_list(k.opp_hand.iter()),
        })
    }

    /// The complete state.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert(
            "options".into(),
            serde_json::to_value(&self.options).unwrap_or(Value::Null),
        );
        m.insert("flags".into(), self.flags_json());
        m.insert(
            "hands".into(),
            Value::Array(self.hands.iter().map(|h| card_list(h.iter())).collect()),
        );
        m.insert("hand_counts".into(), self.hand_counts());
        m.insert(
            "troop_deck".into(),
            card_list(self.troop_deck.as_slice().iter().copied()),
        );
        m.insert(
            "tactics_deck".into(),
            card_list(self.tactics_deck.as_slice().iter().copied()),
        );
        m.insert(
            "discard".into(),
            card_list(self.discard.as_slice().iter().copied()),
        );
        m.insert("to_move".into(), Value::from(self.to_move));
        m.insert("phase".into(), Value::from(self.phase.name()));
        m.insert("scout".into(), self.scout_json());
        m.insert("tactics_played".into(), json!(self.tactics_played));
        m.insert("leader_played".into(), json!(self.leader_played));
        m.insert("pass_streak".into(), Value::from(self.pass_streak));
        m.insert("winner".into(), opt_u8(self.winner));
        m.insert(
            "scout_known".into(),
            Value::Array(self.known.iter().map(|k| self.known_json(k)).collect()),
        );
        Value::Object(m)
    }

    /// `player`'s view: the opponent's hand and the deck order hidden (`null`), except what
    /// `player` put on the decks with Scout and those cards once the opponent drew them.
    pub fn view_value(&self, player: usize) -> Value {
        let p = player & 1;
        let o = 1 - p;
        let mut v = self.to_value();
        let k = &self.known[p];
        let known_opp = self.hands[o].0 & k.opp_hand.0;
        let mut hand: Vec<Value> = CardSet(known_opp)
            .iter()
            .map(|c| Value::from(c.to_string()))
            .collect();
        hand.resize(self.hands[o].len(), Value::Null);
        v["hands"][o] = Value::Array(hand);
        let deck = |cards: &[Card], mask: u64| {
            Value::Array(
                cards
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        if mask >> i & 1 == 1 {
                            Value::from(c.to_string())
                        } else {
                            Value::Null
                        }
                    })
                    .collect(),
            )
        };
        v["troop_deck"] = deck(self.troop_deck.as_slice(), k.deck_pos[0]);
        v["tactics_deck"] = deck(self.tactics_deck.as_slice(), k.deck_pos[1]);
        v
    }

    /// A state consistent with `player`'s view, every card hidden from them redrawn.
    pub fn resample(&self, player: usize, seed: u64) -> BattleLine {
        let p = player & 1;
        let o = 1 - p;
        let mut g = self.clone();
        let k = self.known[p];
        let mut rng = GameRng::seed(seed);
        let known_opp = CardSet(self.hands[o].0 & k.opp_hand.0);
        let hidden_hand = CardSet(self.hands[o].0 & !known_opp.0);
        let mut troops: Vec<Card> = Vec::new();
        let mut tactics: Vec<Card> = Vec::new();
        for c in hidden_hand.iter() {
            if c.is_troop() {
                troops.push(c);
            } else {
                tactics.push(c);
            }
        }
        for (i, &c) in self.troop_deck.as_slice().iter().enumerate() {
            if k.deck_pos[0] >> i & 1 == 0 {
                troops.push(c);
            }
        }
        for (i, &c) in self.tactics_deck.as_slice().iter().enumerate() {
            if k.deck_pos[1] >> i & 1 == 0 {
                tactics.push(c);
            }
        }
        rng.shuffle(&mut troops);
        rng.shuffle(&mut tactics);
        let n_troops = hidden_hand.troops().count_ones() as usize;
        let n_tactics = hidden_hand.len() - n_troops;
        let mut hand = known_opp;
        let mut ti = troops.into_iter();
        let mut ai = tactics.into_iter();
        for _ in 0..n_troops {
            if let Some(c) = ti.next() {
                hand.insert(c);
            }
        }
        for _ in 0..n_tactics {
            if let Some(c) = ai.next() {
                hand.insert(c);
            }
        }
        g.hands[o] = hand;
        for (i, slot) in g.troop_deck.as_mut_slice().iter_mut().enumerate() {
            if k.deck_pos[0] >> i & 1 == 0 {
                if let Some(c) = ti.next() {
                    *slot = c;
                }
            }
        }
        for (i, slot) in g.tactics_deck.as_mut_slice().iter_mut().enumerate() {
            if k.deck_pos[1] >> i & 1 == 0 {
                if let Some(c) = ai.next() {
                    *slot = c;
                }
            }
        }
        g.rebuild();
        g
    }

    /// Rebuild and validate a state.
    pub fn from_value(value: &Value) -> Result<BattleLine> {
        let root = value
            .as_object()
            .ok_or_else(|| Error::state("$", "expected a JSON object"))?;
        const KEYS: [&str; 15] = [
            "options",
            "flags",
            "hands",
            "hand_counts",
            "troop_deck",
            "tactics_deck",
            "discard",
            "to_move",
            "phase",
            "scout",
            "tactics_played",
            "leader_played",
            "pass_streak",
            "winner",
            "scout_known",
        ];
        for k in root.keys() {
            if !KEYS.contains(&k.as_str()) {
                return Err(Error::state(format!("$.{k}"), "unknown key"));
            }
        }
        let get = |k: &str| -> Result<&Value> {
            root.get(k)
                .ok_or_else(|| Error::state(format!("$.{k}"), "missing"))
        };
        let options: Options = serde_json::from_value(get("options")?.clone())
            .map_err(|e| Error::state("$.options", e.to_string()))?;
        if options.first_player > 1 {
            return Err(Error::state("$.options.first_player", "must be 0 or 1"));
        }

        // Every card placed exactly once (BL-1.4).
        let mut seen: [Option<String>; NUM_CARDS] = std::array::from_fn(|_| None);
        let mut mark = |c: Card, path: &str| -> Result<()> {
            if let Some(prev) = &seen[c.id()] {
                return Err(Error::state(
                    path,
                    format!("{c} is already at {prev} (each card exists once, BL-1.4)"),
                ));
            }
            seen[c.id()] = Some(path.to_string());
            Ok(())
        };

        // Flags.
        let flags_v = get("flags")?
            .as_array()
            .ok_or_else(|| Error::state("$.flags", "expected a list of 9 flags"))?;
        if flags_v.len() != NUM_FLAGS {
            return Err(Error::state(
                "$.flags",
                format!("expected 9 flags, found {}", flags_v.len()),
            ));
        }
        let mut flags = [Flag::default(); NUM_FLAGS];
        for (f, fv) in flags_v.iter().enumerate() {
            let fp = format!("$.flags[{f}]");
            let fo = fv
                .as_object()
                .ok_or_else(|| Error::state(&fp, "expected an object"))?;
            for k in fo.keys() {
                if !["sides", "env", "claimed", "first_complete"].contains(&k.as_str()) {
                    return Err(Error::state(format!("{fp}.{k}"), "unknown key"));
                }
            }
            let fl = &mut flags[f];
            let env = match fo.get("env") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(a)) => a.clone(),
                Some(_) => return Err(Error::state(format!("{fp}.env"), "expected a list")),
            };
            for (i, e) in env.iter().enumerate() {
                let ep = format!("{fp}.env[{i}]");
                let card = e.get("card").and_then(Value::as_str).ok_or_else(|| {
                    Error::state(format!("{ep}.card"), "expected \"Fog\" or \"Mud\"")
                })?;
                let side = side_of(e.get("side"), &format!("{ep}.side"))?;
                if e.as_object().is_some_and(|o| o.len() != 2) {
                    return Err(Error::state(&ep, "expected exactly the keys card and side"));
                }
                match card {
                    "Fog" => {
                        mark(Card::FOG, &ep)?;
                        fl.fog = Some(side);
                    }
                    "Mud" => {
                        mark(Card::MUD, &ep)?;
                        fl.mud = Some(side);
                    }
                    _ => {
                        return Err(Error::state(
                            format!("{ep}.card"),
                            format!("{card:?}: only Fog and Mud lie beside a flag (BL-7.1)"),
                        ))
                    }
                }
            }
            let sides = fo
                .get("sides")
                .and_then(Value::as_array)
                .filter(|s| s.len() == 2)
                .ok_or_else(|| {
                    Error::state(format!("{fp}.sides"), "expected two lists of cards")
                })?;
            for (s, sv) in sides.iter().enumerate() {
                let sp = format!("{fp}.sides[{s}]");
                let cards = cards_at(sv, &sp)?;
                if cards.len() > fl.capacity() {
                    return Err(Error::state(
                        &sp,
                        format!(
                            "{} cards, but a side holds at most {} here (BL-4.2)",
                            cards.len(),
                            fl.capacity()
                        ),
                    ));
                }
                for (i, &c) in cards.iter().enumerate() {
                    let cp = format!("{sp}[{i}]");
                    if !c.is_formation_card() {
                        return Err(Error::state(
                            &cp,
                            format!("{c} is not a troop or morale card (BL-4.1)"),
                        ));
                    }
                    mark(c, &cp)?;
                    fl.push(s, c);
                }
            }
            fl.claimed = match fo.get("claimed") {
                None | Some(Value::Null) => None,
                v => Some(side_of(v, &format!("{fp}.claimed"))?),
            };
            fl.first_complete = match fo.get("first_complete") {
                None | Some(Value::Null) => None,
                v => Some(side_of(v, &format!("{fp}.first_complete"))?),
            };
            let complete = [fl.is_complete(0), fl.is_complete(1)];
            let ok = match (fl.first_complete, complete) {
                (None, [false, false]) => true,
                (Some(s), c) => c[s as usize],
                _ => false,
            };
            if !ok {
                return Err(Error::state(
                    format!("{fp}.first_complete"),
                    "must name a complete side, and a complete side when one is (BL-9.6)",
                ));
            }
            if let Some(w) = fl.claimed {
                if !complete[w as usize] {
                    return Err(Error::state(
                        format!("{fp}.claimed"),
                        format!("player {w} claims it without a complete formation (BL-9.2)"),
                    ));
                }
            }
        }

        // Hands, decks, discard.
        let hands_v = get("hands")?
            .as_array()
            .filter(|h| h.len() == 2)
            .ok_or_else(|| Error::state("$.hands", "expected two lists of cards"))?;
        let mut hands = [CardSet::EMPTY; 2];
        for (p, hv) in hands_v.iter().enumerate() {
            let hp = format!("$.hands[{p}]");
            let cards = cards_at(hv, &hp)?;
            if cards.len() > HAND_SIZE + 2 {
                return Err(Error::state(
                    &hp,
                    format!(
                        "{} cards: a hand holds at most 7 (9 during Scout)",
                        cards.len()
                    ),
                ));
            }
            for (i, &c) in cards.iter().enumerate() {
                mark(c, &format!("{hp}[{i}]"))?;
                hands[p].insert(c);
            }
        }
        let mut troop_deck = Stack::<60>::default();
        for (i, &c) in cards_at(get("troop_deck")?, "$.troop_deck")?
            .iter()
            .enumerate()
        {
            let cp = format!("$.troop_deck[{i}]");
            if !c.is_troop() {
                return Err(Error::state(&cp, format!("{c} is not a troop card")));
            }
            mark(c, &cp)?;
            troop_deck.push(c);
        }
        let mut tactics_deck = Stack::<10>::default();
        for (i, &c) in cards_at(get("tactics_deck")?, "$.tactics_deck")?
            .iter()
            .enumerate()
        {
            let cp = format!("$.tactics_deck[{i}]");
            if !c.is_tactics() {
                return Err(Error::state(&cp, format!("{c} is not a tactics card")));
            }
            mark(c, &cp)?;
            tactics_deck.push(c);
        }
        let mut discard = Stack::<70>::default();
        for (i, &c) in cards_at(get("discard")?, "$.discard")?.iter().enumerate() {
            mark(c, &format!("$.discard[{i}]"))?;
            discard.push(c);
        }
        if let Some(i) = seen.iter().position(Option::is_none) {
            return Err(Error::state(
                "$",
                format!(
                    "{} is missing: every card must be somewhere (BL-1.4)",
                    Card(i as u8)
                ),
            ));
        }

        // Turn and counters.
        let to_move = side_of(Some(get("to_move")?), "$.to_move")?;
        let phase_name = get("phase")?
            .as_str()
            .ok_or_else(|| Error::state("$.phase", "expected a string"))?;
        let phase = Phase::from_name(phase_name).ok_or_else(|| {
            Error::state(
                "$.phase",
                format!(
                    "{phase_name:?}: expected play, claim, draw, scout_draw, scout_return or over"
                ),
            )
        })?;
        let pair_u8 = |k: &str| -> Result<[u8; 2]> {
            let a = get(k)?
                .as_array()
                .filter(|a| a.len() == 2)
                .ok_or_else(|| Error::state(format!("$.{k}"), "expected two integers"))?;
            let mut out = [0u8; 2];
            for (i, x) in a.iter().enumerate() {
                out[i] = x
                    .as_u64()
                    .filter(|&n| n <= 10)
                    .ok_or_else(|| Error::state(format!("$.{k}[{i}]"), "expected 0..10"))?
                    as u8;
            }
            Ok(out)
        };
        let tactics_played = pair_u8("tactics_played")?;
        let leader_played = {
            let a = get("leader_played")?
                .as_array()
                .filter(|a| a.len() == 2)
                .ok_or_else(|| Error::state("$.leader_played", "expected two booleans"))?;
            let mut out = [false; 2];
            for (i, x) in a.iter().enumerate() {
                out[i] = x.as_bool().ok_or_else(|| {
                    Error::state(format!("$.leader_played[{i}]"), "expected a boolean")
                })?;
            }
            out
        };
        let pass_streak = get("pass_streak")?
            .as_u64()
            .filter(|&n| n <= 4)
            .ok_or_else(|| Error::state("$.pass_streak", "expected 0..4"))?
            as u8;
        let winner = match get("winner")? {
            Value::Null => None,
            v => Some(side_of(Some(v), "$.winner")?),
        };

        let mut g = BattleLine {
            options,
            flags,
            hands,
            troop_deck,
            tactics_deck,
            discard,
            to_move,
            phase,
            scout_left: 0,
            scout_drawn: 0,
            tactics_played,
            leader_played,
            pass_streak,
            winner,
            known: [Knowledge::default(); 2],
            loc: [0; NUM_CARDS],
            table: [CardSet::EMPTY; 2],
            unseen: 0,
            claimed_mask: 0,
            claimable: 0,
            masks: Default::default(),
        };

        // Scout sub-state.
        let scout = get("scout")?;
        match phase {
            Phase::ScoutDraw | Phase::ScoutReturn => {
                let so = scout.as_object().ok_or_else(|| {
                    Error::state("$.scout", "expected the Scout state during Scout's steps")
                })?;
                let left_key = if phase == Phase::ScoutDraw {
                    "draws_left"
                } else {
                    "returns_left"
                };
                for k in so.keys() {
                    if k != "drawn" && k != left_key {
                        return Err(Error::state(format!("$.scout.{k}"), "unknown key"));
                    }
                }
                let num = |k: &str, max: u64| -> Result<u8> {
                    so.get(k)
                        .and_then(Value::as_u64)
                        .filter(|&n| n <= max)
                        .map(|n| n as u8)
                        .ok_or_else(|| {
                            Error::state(format!("$.scout.{k}"), format!("expected 0..{max}"))
                        })
                };
                g.scout_drawn = num("drawn", 3)?;
                g.scout_left = num(left_key, 3)?;
                let ok = if phase == Phase::ScoutDraw {
                    g.scout_left >= 1
                        && g.scout_drawn + g.scout_left <= 3
                        && g.scout_left as usize <= g.troop_deck.len() + g.tactics_deck.len()
                } else {
                    g.scout_left >= 1 && g.scout_left <= g.scout_drawn.saturating_sub(1).min(2)
                };
                if !ok {
                    return Err(Error::state(
                        "$.scout",
                        "inconsistent Scout counts (draw up to 3, return all but one, at most 2: BL-8.1)",
                    ));
                }
            }
            _ => {
                if !scout.is_null() {
                    return Err(Error::state("$.scout", "only during Scout's steps"));
                }
            }
        }

        // Scout knowledge.
        {
            let ka = get("scout_known")?
                .as_array()
                .filter(|a| a.len() == 2)
                .ok_or_else(|| Error::state("$.scout_known", "expected two objects"))?;
            for (p, kp) in ka.iter().enumerate() {
                let path = format!("$.scout_known[{p}]");
                let ko = kp
                    .as_object()
                    .ok_or_else(|| Error::state(&path, "expected an object"))?;
                for k in ko.keys() {
                    if !["troop_deck", "tactics_deck", "opponent_hand"].contains(&k.as_str()) {
                        return Err(Error::state(format!("{path}.{k}"), "unknown key"));
                    }
                }
                for (d, key, len) in [
                    (0usize, "troop_deck", g.troop_deck.len()),
                    (1, "tactics_deck", g.tactics_deck.len()),
                ] {
                    let Some(list) = ko.get(key) else { continue };
                    let items = list.as_array().ok_or_else(|| {
                        Error::state(format!("{path}.{key}"), "expected a list of positions")
                    })?;
                    for (i, x) in items.iter().enumerate() {
                        let pos = x.as_u64().filter(|&n| (n as usize) < len).ok_or_else(|| {
                            Error::state(
                                format!("{path}.{key}[{i}]"),
                                format!("expected a position 0..{len} in the deck"),
                            )
                        })?;
                        g.known[p].deck_pos[d] |= 1u64 << pos;
                    }
                }
                if let Some(list) = ko.get("opponent_hand") {
                    let hp = format!("{path}.opponent_hand");
                    for (i, &c) in cards_at(list, &hp)?.iter().enumerate() {
                        if !g.hands[1 - p].contains(c) {
                            return Err(Error::state(
                                format!("{hp}[{i}]"),
                                format!("{c} is not in player {}'s hand", 1 - p),
                            ));
                        }
                        g.known[p].opp_hand.insert(c);
                    }
                }
            }
        }

        g.rebuild();
        g.validate_rules()
            .map_err(|(path, why)| Error::state(path, why))?;
        {
            if *get("hand_counts")? != g.hand_counts() {
                return Err(Error::state(
                    "$.hand_counts",
                    format!("does not match the hands: expected {}", g.hand_counts()),
                ));
            }
        }
        Ok(g)
    }

    /// Rule invariants of a rebuilt state: (path, why) of the first one broken.
    pub(crate) fn validate_rules(&self) -> std::result::Result<(), (String, String)> {
        let e = |p: &str, w: String| Err((p.to_string(), w));
        for p in 0..2 {
            let leaders = self.table[p].0 & (Card::ALEXANDER.bit() | Card::DARIUS.bit());
            if leaders.count_ones() > 1 {
                return e(
                    "$.flags",
                    format!("player {p} has two Leaders in play (BL-6.2)"),
                );
            }
        }
        let [a, b] = self.tactics_played;
        if a.abs_diff(b) > 1 {
            return e(
                "$.tactics_played",
                "one player is two tactics cards ahead (BL-6.1)".into(),
            );
        }
        let out_of_decks =
            (self.table[0].0 | self.table[1].0 | CardSet::from_cards(self.discard.as_slice()).0)
                & super::cards::TACTICS_BITS;
        if out_of_decks.count_ones() != u32::from(a) + u32::from(b) {
            return e(
                "$.tactics_played",
                format!(
                    "{} tactics cards are on the table or discarded, but {} were played",
                    out_of_decks.count_ones(),
                    u32::from(a) + u32::from(b)
                ),
            );
        }
        let won = [self.has_won(0), self.has_won(1)];
        match self.phase {
            Phase::Over => {
                let flags = self.flags_won();
                let expect = if won[0] {
                    Some(0)
                } else if won[1] {
                    Some(1)
                } else {
                    if self.pass_streak < 2 {
                        return e(
                            "$.phase",
                            "the game is over without 3 adjacent or 5 flags and without two passes in a row (BL-11)".into(),
                        );
                    }
                    match flags[0].cmp(&flags[1]) {
                        std::cmp::Ordering::Greater => Some(0),
                        std::cmp::Ordering::Less => Some(1),
                        std::cmp::Ordering::Equal => None,
                    }
                };
                if self.winner != expect {
                    return e(
                        "$.winner",
                        format!("expected {expect:?} from the flags (BL-11)"),
                    );
                }
            }
            _ => {
                if won[0] || won[1] {
                    return e(
                        "$.phase",
                        "a player has won (3 adjacent or 5 flags, BL-11.1/11.2): the phase must be over".into(),
                    );
                }
                if self.winner.is_some() {
                    return e("$.winner", "the game is not over".into());
                }
            }
        }
        let hand = self.hands[self.to_move as usize].len();
        let decks_full = !self.troop_deck.is_empty() && !self.tactics_deck.is_empty();
        match self.phase {
            Phase::Draw if hand >= HAND_SIZE || !decks_full => e(
                "$.phase",
                "a draw step is a choice only with fewer than 7 cards in hand and both decks non-empty (BL-3.4)".into(),
            ),
            Phase::ScoutDraw if !decks_full => e(
                "$.phase",
                "a Scout draw is a choice only with both decks non-empty (BL-8.1)".into(),
            ),
            Phase::ScoutReturn if hand < self.scout_left as usize => {
                e("$.scout", "fewer cards in hand than to return".into())
            }
            _ => Ok(()),
        }
    }
}

fn side_of(v: Option<&Value>, path: &str) -> Result<u8> {
    match v.and_then(Value::as_u64) {
        Some(n @ 0..=1) => Ok(n as u8),
        _ => Err(Error::state(path, "expected 0 or 1")),
    }
}

fn cards_at(v: &Value, path: &str) -> Result<Vec<Card>> {
    let a = v
        .as_array()
        .ok_or_else(|| Error::state(path, "expected a list of cards"))?;
    a.iter()
        .enumerate()
        .map(|(i, x)| {
            let s = x.as_str().ok_or_else(|| {
                Error::state(format!("{path}[{i}]"), "expected a card notation string")
            })?;
            Card::parse(s).map_err(|e| Error::state(format!("{path}[{i}]"), e.to_string()))
        })
        .collect()
}

/// Which deck a position list refers to (for docs/tests).
pub fn deck_key(d: Deck) -> &'static str {
    match d {
        Deck::Troop => "troop_deck",
        Deck::Tactics => "tactics_deck",
    }
}
