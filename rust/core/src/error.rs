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
    /// A data file's error. Both parts go through [`content_free`] here, the one place data
    /// errors are built, so no message quotes more of a file than a bounded token.
    pub fn data(place: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Data {
            place: content_free(&place.into()),
            message: content_free(&serde_reason(&message.into())),
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

/// A key of a data file as a path names it: plain (`cards[3].name`) when it is a short
/// identifier, else quoted, escaped and cut to [`MAX_QUOTE`] characters.
pub fn path_key(key: &str) -> String {
    let plain = !key.is_empty()
        && key.len() <= MAX_QUOTE
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        key.to_string()
    } else {
        format!("{:?}", clip(key))
    }
}

/// `text` with every `"..."` token (Rust's debug quoting, as messages quote input) cut to
/// [`MAX_QUOTE`] characters and every control character escaped: what a data error may
/// show of a file.
pub fn content_free(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(2 * MAX_MESSAGE));
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            push_escaped(&mut out, c);
            continue;
        }
        // A quoted token: up to the next quote not escaped by a backslash.
        out.push('"');
        let (mut shown, mut escaped, mut cut) = (0, false, false);
        for c in chars.by_ref() {
            if c == '"' && !escaped {
                break;
            }
            escaped = c == '\\' && !escaped;
            if shown < MAX_QUOTE {
                push_escaped(&mut out, c);
                shown += 1;
            } else {
                cut = true;
            }
        }
        if cut {
            out.push('…');
        }
        out.push('"');
    }
    out
}

fn push_escaped(out: &mut String, c: char) {
    if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

/// A serde or TOML message with what it quotes of the input bounded: serde writes unknown
/// keys and variants raw between backticks and bad strings whole, so those become escaped
/// tokens of at most [`MAX_QUOTE`] characters (`unknown field "AAAA…"`, `invalid type:
/// string "AAAA…", expected a map`). The rest is the crate's own words and the type's.
pub fn serde_reason(message: &str) -> String {
    const RAW: [&str; 5] = [
        "unknown field `",
        "unknown variant `",
        "duplicate field `",
        "duplicate key `",
        "missing field `",
    ];
    // The first marker of a raw token, wherever the message embeds serde's.
    let found = RAW
        .iter()
        .filter_map(|m| message.find(m).map(|at| (at, *m)))
        .min_by_key(|(at, _)| *at);
    let Some((at, marker)) = found else {
        return message.to_string();
    };
    let (head, rest) = message.split_at(at);
    let rest = rest.get(marker.len()..).unwrap_or("");
    // The token ends at the last "`, expected" / "`, there are" (serde's own words after
    // it hold no backtick-comma pair of the input) or, without them, at the last backtick.
    let end = ["`, expected ", "`, there are "]
        .iter()
        .filter_map(|tail| rest.rfind(tail))
        .max()
        .or_else(|| rest.rfind('`'));
    let (token, tail) = match end {
        Some(e) => (rest.get(..e).unwrap_or(""), rest.get(e + 1..).unwrap_or("")),
        None => (rest, ""),
    };
    let what = marker.trim_end_matches(" `");
    format!("{head}{what} {:?}{tail}", clip(token))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What a data error may show of hostile content: no token over [`MAX_QUOTE`]
    /// characters, no control character, whatever the file held (issue 51).
    fn assert_bounded(message: &str) {
        assert!(!message.chars().any(char::is_control), "{message:?}");
        assert!(
            !message.contains("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
            "{message}"
        );
        assert!(message.len() < 400, "{message}");
    }

    #[test]
    fn data_errors_never_quote_more_than_a_bounded_token_of_a_file() {
        let long = format!("{}\u{1b}[2J<script>`, expected x", "A".repeat(300));
        let cases = [
            format!("invalid type: string {long:?}, expected a map"),
            format!("unknown field `{long}`, expected one of `id`, `name`"),
            format!("unknown variant `{long}`, expected `a` or `b`"),
            format!("duplicate key `{long}`"),
            format!("terrain[0] ({long:?}).favours: invalid value: string {long:?}, expected x"),
        ];
        for message in cases {
            let e = Error::data(format!("cards.toml: {}", path_key(&long)), message);
            assert_bounded(&e.to_string());
        }
    }

    #[test]
    fn serde_messages_keep_their_words_and_name_the_token() {
        assert_eq!(
            serde_reason("unknown field `colour`, expected one of `id`, `name`"),
            "unknown field \"colour\", expected one of `id`, `name`"
        );
        assert_eq!(
            serde_reason("x.y: unknown variant `a`b`, expected `c`"),
            "x.y: unknown variant \"a`b\", expected `c`"
        );
        assert_eq!(
            content_free("invalid type: integer `5`, expected a string"),
            "invalid type: integer `5`, expected a string"
        );
        assert_eq!(
            content_free("a \"\\\"q\\\\\" b\u{85}"),
            "a \"\\\"q\\\\\" b\\u{85}"
        );
        assert_eq!(path_key("name"), "name");
        assert_eq!(path_key("a b"), "\"a b\"");
    }
}
