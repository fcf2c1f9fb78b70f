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
    /// A function argument out of its range or over a documented limit (`docs/protocol.md`,
    /// "Limits"). `name` is the argument's name; the message says its range.
    Argument { name: String, message: String },
    /// Any other bad request (a finished game asked to move, a cancelled run, ...).
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
    /// `name` must be in `range` (e.g. `0..=1024`); `got` is what was passed, clipped.
    pub fn argument(name: impl Into<String>, range: &str, got: &str) -> Self {
        Error::Argument {
            name: name.into(),
            message: format!("out of range: must be in {range}, got {}", clip(got)),
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
        // Every part is cut to a bounded length: a message that quoted its input whole (a
        // token of a megabyte-long notation, say) still cannot grow with it.
        let m = |text: &str| clip_to(text, MAX_MESSAGE);
        match self {
            Error::IllegalAction { rule, message } => {
                write!(f, "illegal action ({}): {}", clip(rule), m(message))
            }
            Error::Notation { text, message } => {
                write!(f, "bad notation {:?}: {}", clip(text), m(message))
            }
            Error::State { path, message } => {
                write!(f, "bad state at {}: {}", clip_to(path, 120), m(message))
            }
            Error::Options { message } => write!(f, "bad rules options: {}", m(message)),
            Error::Data { place, message } => {
                write!(f, "bad data in {}: {}", clip_to(place, 200), m(message))
            }
            Error::Argument { name, message } => write!(f, "{} {}", clip(name), m(message)),
            Error::Invalid { message } => f.write_str(&m(message)),
        }
    }
}

/// Longest message part of an error, in characters.
pub const MAX_MESSAGE: usize = 400;

impl std::error::Error for Error {}

/// Longest piece of user input an error message quotes, in characters.
pub const MAX_QUOTE: usize = 40;

/// `text` cut to [`MAX_QUOTE`] characters (with `...` if cut), for quoting user input in an
/// error message: a message never grows with its input.
pub fn clip(text: &str) -> String {
    clip_to(text, MAX_QUOTE)
}

/// `text` cut to `max` characters, with `...` if cut.
pub fn clip_to(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(max).collect();
    if chars.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

/// Longest error message built from a serde message (which may quote input), in characters.
const MAX_DECODE_MESSAGE: usize = 300;

/// Rules options from their JSON map, as a game's `Options` type: a bad one is
/// `Error::Options` naming the option and saying what it expected
/// (`option traitor_troops_only: expected a boolean, got integer 1`).
pub fn decode_options<T: serde::de::DeserializeOwned>(
    game: &str,
    options: &serde_json::Map<String, serde_json::Value>,
) -> Result<T> {
    serde_path_to_error::deserialize(serde_json::Value::Object(options.clone())).map_err(|e| {
        let path = e.path().to_string();
        let why = plain_serde_message(&e.into_inner().to_string());
        // An unknown option's message names it already.
        if path.is_empty() || path == "." || why.starts_with("unknown option") {
            Error::options(format!("{game}: {why}"))
        } else {
            Error::options(format!("{game}: option {}: {why}", clip(&path)))
        }
    })
}

/// A serde message in plain words, bounded in length: `invalid type: integer `1`, expected a
/// boolean` becomes `expected a boolean, got integer 1`; `unknown field `x`, expected one of
/// ...` becomes `unknown option "x"; the options are ...`.
fn plain_serde_message(message: &str) -> String {
    let plain = if let Some(rest) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
    {
        match rest.rsplit_once(", expected ") {
            Some((got, expected)) => format!("expected {expected}, got {}", got.replace('`', "")),
            None => rest.to_string(),
        }
    } else if let Some(rest) = message.strip_prefix("unknown field `") {
        match rest.split_once("`, expected ") {
            Some((field, expected)) => format!(
                "unknown option {:?}; the options are {}",
                clip(field),
                expected.trim_start_matches("one of ").replace('`', "")
            ),
            None => format!("unknown option {:?}", clip(rest.trim_end_matches('`'))),
        }
    } else {
        message.to_string()
    };
    let mut chars = plain.chars();
    let head: String = chars.by_ref().take(MAX_DECODE_MESSAGE).collect();
    if chars.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

/// A saved state's JSON decoded as its plain-data type `T`; a failure is `Error::State`
/// naming the path of the value at fault (`$.flags[3].sides[1]`; a missing key by its own
/// path) and serde's reason, both bounded in length. Every game's `json.rs` decodes with it.
pub fn decode_state<T: serde::de::DeserializeOwned>(value: &serde_json::Value) -> Result<T> {
    use serde_path_to_error::Segment;
    use std::fmt::Write;
    // Tracking the path costs an allocation per key: decode plainly, and only a value that
    // fails is decoded again to say where.
    if let Ok(data) = T::deserialize(value) {
        return Ok(data);
    }
    let Err(e) = serde_path_to_error::deserialize::<_, T>(value) else {
        return Err(Error::state("$", "cannot be decoded"));
    };
    let message = e.inner().to_string();
    let mut path = String::from("$");
    for segment in e.path().iter() {
        let _ = match segment {
            Segment::Seq { index } => write!(path, "[{index}]"),
            Segment::Map { key } => write!(path, ".{}", clip(key)),
            Segment::Enum { variant } => write!(path, ".{}", clip(variant)),
            Segment::Unknown => write!(path, ".?"),
        };
    }
    // serde reports a missing key at its parent: name the key (an unknown key is named).
    let missing = message.strip_prefix("missing field `");
    if let Some(key) = missing.and_then(|m| m.split('`').next()) {
        let _ = write!(path, ".{}", clip(key));
    }
    Err(Error::state(path, clip_to(&message, MAX_DECODE_MESSAGE)))
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::state(
            format!("line {} column {}", e.line(), e.column()),
            e.to_string(),
        )
    }
}
