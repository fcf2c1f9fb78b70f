//! The rules options of Arte da Guerra (the defaults are the reading of
//! `shared/rules-notes.md`; each alternative is a second plausible reading, stated in
//! `docs/rules/arte-da-guerra.md`) and the card set they name.

use super::cards::CardSet;
use crate::datafile::Memo;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Who picks the unit drafts (AG-2.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DraftOrder {
    /// The picker alternates over all twelve drafts, terrain then units (default): player 0
    /// picks drafts 1, 3, 5, ...
    #[default]
    Continuous,
    /// The unit drafts start again with player 0 as the picker.
    Restart,
}

/// How the players deploy their unit cards each round (AG-5.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deployment {
    /// Both players deploy in secret, the round's first attacker ordering first; the cards
    /// are turned face up together (default).
    #[default]
    Simultaneous,
    /// One card at a time, face up, alternating, the round's first attacker first.
    Alternating,
}

/// When only archers and mages count in a combat against a purely ranged attack (AG-6.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RangedScoring {
    /// Whenever the defending card holds an archer or mage, protected or not (default: the
    /// reading of `shared/rules-notes.md`).
    #[default]
    RangedDefender,
    /// Only when the defending card is protected, i.e. defends through the exception.
    Exception,
}

/// Where the sudden-death cards fight (AG-8.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SuddenDeathRow {
    /// Each player picks a row of its own field together with the card (default).
    #[default]
    Chosen,
    /// Both cards fight on row 1, the front.
    Front,
}

/// Rules options of Arte da Guerra; the defaults are the reading of `shared/rules-notes.md`
/// with the choices stated in `docs/rules/arte-da-guerra.md`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// A TOML card set file to play with instead of the reference set.
    pub cards_file: Option<String>,
    /// A TOML card set given as text (not together with `cards_file`).
    pub cards_toml: Option<String>,
    pub draft_order: DraftOrder,
    pub deployment: Deployment,
    pub ranged_scoring: RangedScoring,
    pub sudden_death_row: SuddenDeathRow,
}

impl Options {
    /// These options as a game keeps them: a `cards_file` replaced by its text
    /// (`cards_toml`), so that the game's saved states and records carry the card set and
    /// never name a file to read (docs/arte.md).
    pub fn carried(&self) -> Result<std::borrow::Cow<'_, Options>> {
        match (&self.cards_file, &self.cards_toml) {
            (Some(path), None) => {
                let text = crate::datafile::read_text(path)?;
                parsed(path, &text)?;
                Ok(std::borrow::Cow::Owned(Options {
                    cards_file: None,
                    cards_toml: Some(text.to_string()),
                    ..self.clone()
                }))
            }
            _ => Ok(std::borrow::Cow::Borrowed(self)),
        }
    }

    /// The card set these options name: the reference set, a file or inline TOML.
    pub fn card_set(&self) -> Result<Arc<CardSet>> {
        match (&self.cards_file, &self.cards_toml) {
            (Some(_), Some(_)) => Err(Error::options(
                "arte: give the card set as cards_file or as cards_toml, not both",
            )),
            (Some(path), None) => {
                let text = crate::datafile::read_text(path)?;
                parsed(path, &text)
            }
            (None, Some(text)) => {
                crate::datafile::check_size(text, "cards_toml")?;
                parsed("cards_toml", text)
            }
            (None, None) => Ok(CardSet::reference()),
        }
    }
}

/// Card sets parsed from user text, kept so that a batch of games (one options value, many
/// `Arte::new`) parses its set once. Keyed by source name and full text, so an edited file
/// is parsed again.
fn parsed(source: &str, text: &str) -> Result<Arc<CardSet>> {
    static PARSED: Memo<CardSet> = Memo::new(8);
    PARSED.get_or_build(format!("{source}\0{text}"), || {
        CardSet::from_toml(text, source)
    })
}
