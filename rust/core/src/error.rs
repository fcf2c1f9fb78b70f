//! The one error type of the engine. Every fallible entry point returns it; the Python
//! bindings map each variant to one exception class in one place.

use std::fmt;

/// What went wrong, with enough context to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A well-formed action that the rules forbid here. `rule` is the rule id from
    /// `docs/rules/<game>.md` (e.g. `BL-3.2`) that it breaks.
    IllegalAction { rule: String, message: String },
    /// Text that is not a valid action notation for this game.
    Notation { text: String, message: String },
    /// A serialized state (dict / JSON) that is malformed or inconsistent. `path` says where.
    State { path: String, message: String },
    /// Bad rules options passed to a game constructor.
    Options { message: String },
    /// A data file (card list, map, roster) that fails validation. `place` names file, card
    /// and field as far as known.
    Data { place: String, message: String },
    /// Any other bad argument (unknown game name, player out of range, ...).
    Invalid { message: String },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn illegal(rule: impl Into<String>, message: impl Into<String>) -> Self {
        Error::IllegalAction {
            rule: rule.into(),
            message: message.into(),
        }
    }
    pub fn notation(text: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Notation {
            text: text.into(),
            message: message.into(),
        }
    }
    pub fn state(path: impl Into<String>, message: impl Into<String>) -> Self {
        Error::State {
            path: path.into(),
            message: message.into(),
        }
    }
    pub fn options(message: impl Into<String>) -> Self {
        Error::Options {
            message: message.into(),
        }
    }
    pub fn data(place: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Data {
            place: place.into(),
            message: message.into(),
        }
    }
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::Invalid {
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::IllegalAction { rule, message } => {
                write!(f, "illegal action ({rule}): {message}")
            }
            Error::Notation { text, message } => write!(f, "bad notation {text:?}: {message}"),
            Error::State { path, message } => write!(f, "bad state at {path}: {message}"),
            Error::Options { message } => write!(f, "bad rules options: {message}"),
            Error::Data { place, message } => write!(f, "bad data in {place}: {message}"),
            Error::Invalid { message } => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::state(
            format!("line {} column {}", e.line(), e.column()),
            e.to_string(),
        )
    }
}
