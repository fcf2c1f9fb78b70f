//! The pieces every game's compact position string (FEN-like, `<game>/position.rs`) is
//! written with: fields separated by single spaces, lists by commas (`-` for an empty one),
//! `?` for a card the viewer may not see, and errors that name the field and quote a clipped
//! piece of the input (never all of it).
#![deny(clippy::indexing_slicing)]

use crate::error::{Error, Result};
use serde_json::Value;

/// Longest position text accepted: far above any real position, small enough that a hostile
/// string is refused before any work.
pub const MAX_LEN: usize = 8192;
/// A bad field is quoted clipped, as every error quotes user input.
pub use crate::error::clip;

/// The error of a game that has no position format yet (the [`Game`](crate::Game) default).
pub fn unsupported(game: &str) -> Error {
    Error::invalid(format!("{game} has no position format yet"))
}

/// A position split into its named fields.
pub struct Fields<'a> {
    names: &'static [&'static str],
    parts: Vec<&'a str>,
}

impl<'a> Fields<'a> {
    /// Split `text` into the fields `names`; the last `optional` of them may be left out.
    pub fn split(
        game: &str,
        text: &'a str,
        names: &'static [&'static str],
        optional: usize,
    ) -> Result<Self> {
        if text.len() > MAX_LEN {
            return Err(Error::state(
                "position",
                format!(
                    "{} bytes: a {game} position is at most {MAX_LEN}",
                    text.len()
                ),
            ));
        }
        let parts: Vec<&str> = text.split_whitespace().collect();
        let least = names.len().saturating_sub(optional);
        if parts.len() < least || parts.len() > names.len() {
            return Err(Error::state(
                "position",
                format!(
                    "a {game} position has {} fields ({}), found {} in {:?}",
                    if optional == 0 {
                        names.len().to_string()
                    } else {
                        format!("{least} to {}", names.len())
                    },
                    names.join(" "),
                    parts.len(),
                    clip(text)
                ),
            ));
        }
        Ok(Fields { names, parts })
    }

    /// Field `i` (0-based), if given.
    pub fn get(&self, i: usize) -> Option<&'a str> {
        self.parts.get(i).copied()
    }

    /// Field `i`, which [`Fields::split`] guaranteed present.
    pub fn field(&self, i: usize) -> &'a str {
        self.get(i).unwrap_or_default()
    }

    /// The viewer field `i` (`@p`, `p` below `players`), if given. Two players read
    /// "expected @0 or @1", more "expected @ and a player".
    pub fn viewer(&self, i: usize, players: usize) -> Result<Option<usize>> {
        let Some(t) = self.get(i) else {
            return Ok(None);
        };
        t.strip_prefix('@')
            .and_then(|p| p.parse::<usize>().ok().filter(|n| n.to_string() == p))
            .filter(|&p| p < players)
            .map(Some)
            .ok_or_else(|| {
                self.error(
                    i,
                    if players == 2 {
                        "expected @0 or @1"
                    } else {
                        "expected @ and a player"
                    },
                )
            })
    }

    /// `t`, a part of field `i`, split at `sep` into exactly `n` parts.
    pub fn parts<'t>(&self, i: usize, t: &'t str, n: usize, sep: char) -> Result<Vec<&'t str>> {
        let p: Vec<&str> = t.split(sep).collect();
        if p.len() == n {
            Ok(p)
        } else {
            Err(self.error(i, format!("expected {n} parts separated by {sep:?}")))
        }
    }

    /// `t`, a part of field `i`, as a whole number of size at most `limit` (every number
    /// of a position is small, so a hostile one is refused before it can overflow).
    pub fn int(&self, i: usize, t: &str, limit: u64) -> Result<i64> {
        t.parse::<i64>()
            .ok()
            .filter(|n| n.unsigned_abs() <= limit)
            .ok_or_else(|| self.error(i, format!("expected a number, found {:?}", clip(t))))
    }

    /// `t` as a count (a whole number `0..=limit`).
    pub fn count(&self, i: usize, t: &str, limit: u64) -> Result<u64> {
        t.parse::<u64>()
            .ok()
            .filter(|&n| n <= limit)
            .ok_or_else(|| self.error(i, format!("expected a number, found {:?}", clip(t))))
    }

    /// `t` as a number of the saved state, or null for `-`.
    pub fn int_or_null(&self, i: usize, t: &str, limit: u64) -> Result<Value> {
        if t == "-" {
            Ok(Value::Null)
        } else {
            self.int(i, t, limit).map(Value::from)
        }
    }

    /// `t` as a flag: `0` or `1`.
    pub fn flag(&self, i: usize, t: &str) -> Result<bool> {
        match t {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(self.error(i, format!("expected 0 or 1, found {:?}", clip(t)))),
        }
    }

    /// An error about field `i`: its number and name, what is wrong, the clipped field.
    pub fn error(&self, i: usize, why: impl std::fmt::Display) -> Error {
        Error::state(
            format!(
                "position field {} ({})",
                i + 1,
                self.names.get(i).copied().unwrap_or("?")
            ),
            format!("{why} in {:?}", clip(self.field(i))),
        )
    }
}

/// The items of a comma list (`-` is the empty list).
pub fn list(text: &str) -> Vec<&str> {
    if text == "-" || text.is_empty() {
        Vec::new()
    } else {
        text.split(',').collect()
    }
}

/// The items of a list separated by `sep` (`-` is the empty list).
pub fn items(text: &str, sep: char) -> Vec<&str> {
    if text == "-" {
        Vec::new()
    } else {
        text.split(sep).collect()
    }
}

/// A saved-state error met while reading a position, its path put in position terms
/// (`position (stars[2].vida)`); other errors unchanged.
pub fn in_position(e: Error) -> Error {
    match e {
        Error::State { path, message } => Error::state(
            format!("position ({})", path.trim_start_matches("$.")),
            message,
        ),
        e => e,
    }
}

/// Items as a comma list (`-` when empty).
pub fn join<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> String {
    let mut out = String::new();
    for (i, s) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(s.as_ref());
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

// Small pieces every game's position string uses, written once here.

/// A number of a saved-state tree as position text (`-` when absent).
pub(crate) fn num(v: Option<&Value>) -> String {
    match v {
        Some(Value::Number(n)) => n.to_string(),
        _ => "-".into(),
    }
}

/// A flag of a saved-state tree as `1` or `0`.
pub(crate) fn bit(v: Option<&Value>) -> &'static str {
    if v.and_then(Value::as_bool) == Some(true) {
        "1"
    } else {
        "0"
    }
}

/// A list of a saved-state tree (empty when absent).
pub(crate) fn arr(v: Option<&Value>) -> Vec<Value> {
    v.and_then(Value::as_array).cloned().unwrap_or_default()
}

/// `n` hidden items written as one run: `?` for one, `?n` for more.
pub(crate) fn hidden_run(n: usize) -> String {
    if n == 1 {
        "?".into()
    } else {
        format!("?{n}")
    }
}

/// The saved-state value of a position's dice field: `?` is a generator seeded from `seed`,
/// in a view and in a whole position alike (future rolls are no player's hidden information,
/// so a whole position may leave them open: a tournament from it then rolls each deal's own
/// dice); anything else is the saved generator, validated later with the rest of the state.
pub(crate) fn rng_field(text: &str, seed: u64) -> Value {
    if text == "?" {
        serde_json::to_value(crate::rng::GameRng::seed(seed)).unwrap_or_default()
    } else {
        Value::from(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_round_trip_with_a_dash_for_empty() {
        assert_eq!(join(Vec::<&str>::new()), "-");
        assert_eq!(list("-"), Vec::<&str>::new());
        assert_eq!(list(&join(["R1", "Fog"])), ["R1", "Fog"]);
    }

    #[test]
    fn errors_name_the_field_and_clip_the_input() {
        let long = "x".repeat(500);
        let text = format!("a {long}");
        let f = Fields::split("test", &text, &["first", "second"], 0).unwrap();
        let e = f.error(1, "bad").to_string();
        assert!(e.contains("position field 2 (second)"), "{e}");
        assert!(e.len() < 200, "{e}");
        let e = Fields::split("test", "a b c", &["first", "second"], 0)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("2 fields (first second), found 3"), "{e}");
    }
}
