//! A new game: decks from the options (SK-1.2, SK-1.3), the deal of 18 face-down troops and
//! the pile (SK-3.1). The setup decisions themselves are actions (rules.rs).

use super::content::{CardSet, DECK_SIZE};
use super::state::{Cell, Outcome, Shared, Side, Step, Strifull, CELLS};
use super::{DeckChoice, Options};
use crate::error::{Error, Result};
use crate::rng::GameRng;
use std::sync::Arc;

/// The troop indices of a deck choice for faction `fi`, checked against SK-1.2.
pub(crate) fn resolve_deck(
    cards: &CardSet,
    fi: usize,
    choice: &DeckChoice,
    rng: &mut GameRng,
) -> std::result::Result<Vec<usize>, String> {
    let faction = &cards.factions[fi];
    let by_id = |id: &str| -> std::result::Result<usize, String> {
        cards
            .troop_index(id)
            .ok_or_else(|| format!("unknown troop {id:?}"))
    };
    let deck = match choice {
        DeckChoice::Recommended => faction.recommended.clone(),
        DeckChoice::Random => {
            // Every physical card of the faction (copies capped at the deck limit), shuffled;
            // the first 30 form the deck.
            let mut pool: Vec<usize> = faction
                .troops
                .iter()
                .flat_map(|&t| {
                    std::iter::repeat_n(
                        t,
                        cards.troops[t].copies.min(super::content::MAX_COPIES) as usize,
                    )
                })
                .collect();
            rng.shuffle(&mut pool);
            pool.truncate(DECK_SIZE);
            pool
        }
        DeckChoice::List(ids) => ids.iter().map(|id| by_id(id)).collect::<Result<_, _>>()?,
        DeckChoice::Counts(map) => {
            let mut v = Vec::new();
            for (id, &n) in map {
                let t = by_id(id)?;
                v.extend(std::iter::repeat_n(t, n as usize));
            }
            v
        }
    };
    cards.check_deck(fi, &deck)?;
    Ok(deck)
}

impl Strifull {
    pub(crate) fn new_game(seed: u64, options: &Options) -> Result<Strifull> {
        let cards = CardSet::load(options.cards_file.as_deref(), options.cards_toml.as_deref())?;
        let mut rng = GameRng::seed(seed);
        let mut decks: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        let mut leaders = [0u8; 2];
        for p in 0..2 {
            let fi = match &options.factions[p] {
                None => p.min(cards.factions.len() - 1),
                Some(id) => cards.faction_index(id).ok_or_else(|| {
                    Error::options(format!(
                        "strifull: factions[{p}]: unknown faction {id:?}; the card set has {:?}",
                        cards
                            .factions
                            .iter()
                            .map(|f| f.id.as_str())
                            .collect::<Vec<_>>()
                    ))
                })?,
            };
            let faction = &cards.factions[fi];
            leaders[p] = match &options.leaders[p] {
                None => faction.leaders[0] as u8,
                Some(id) => {
                    let li = cards.leader_index(id).ok_or_else(|| {
                        Error::options(format!("strifull: leaders[{p}]: unknown leader {id:?}"))
                    })?;
                    if cards.leaders[li].faction != fi {
                        return Err(Error::options(format!(
                            "strifull: leaders[{p}]: {id:?} leads {:?}, not {:?} (SK-1.2)",
                            cards.factions[cards.leaders[li].faction].id, faction.id
                        )));
                    }
                    li as u8
                }
            };
            let deck = resolve_deck(&cards, fi, &options.decks[p], &mut rng)
                .map_err(|why| Error::options(format!("strifull: decks[{p}]: {why}")))?;
            decks[p] = deck.into_iter().map(|t| t as u8).collect();
        }
        let mut sides = [Side::new(leaders[0]), Side::new(leaders[1])];
        for (p, side) in sides.iter_mut().enumerate() {
            let mut order = decks[p].clone();
            rng.shuffle(&mut order);
            for (c, &card) in order.iter().take(CELLS).enumerate() {
                side.cells[c] = Cell::new(card);
            }
            for &card in &order[CELLS..] {
                side.pile.push(card);
            }
            decks[p].sort_unstable();
        }
        Ok(Strifull {
            shared: Arc::new(Shared {
                cards,
                options: options.clone(),
                decks,
            }),
            sides,
            step: Step::Changes,
            actor: 0,
            turn_player: 0,
            turn: 0,
            first: None,
            pending: [(0, Step::Over); 4],
            pending_len: 0,
            ability_used: false,
            turn_mod: None,
            last_combat: None,
            outcome: Outcome::Running,
            rng,
        })
    }
}
