//! The documented limits of the hex API, and the checks that enforce them before any work or
//! allocation (`docs/hex.md`, "Limits"). Untrusted callers (the Python API, map files) go
//! through these; Rust callers that build their own boards may call the plain functions.
//!
//! - Coordinates: every hex has `|q|, |r|, |s| <= MAX_COORD`, so sums and differences of two
//!   hexes, distances, doubled coordinates (`2q + r`) and pixel positions never overflow.
//! - Generated shapes: filled shapes (range, spiral, radius and cone areas) have a radius of
//!   at most `MAX_RADIUS`; rings, axis lines, forced moves and straight lines at most
//!   `MAX_LENGTH` steps. Results are lists the caller holds in memory, so they are bounded.
//! - Map pictures: the text form of a map is at most `MAX_PICTURE_CHARS` characters.
//! - Field of view: at most `MAX_SIGHT_STEPS` hex steps of lines traced per call.
//! - Names (of the map, terrains, tags): printable text of at most `MAX_NAME` characters.

use super::coords::Hex;
use crate::error::{Error, Result};

/// Largest `|q|`, `|r|` and `|s|` of any hex.
pub const MAX_COORD: i64 = 1 << 29;
/// Largest radius of a filled shape (range, spiral, radius and cone areas): 751,501 hexes.
pub const MAX_RADIUS: i64 = 500;
/// Largest radius of a ring, length of an axis line or forced move, and distance spanned by
/// a straight line.
pub const MAX_LENGTH: i64 = 100_000;
/// Largest text form (picture included) of a map, in characters.
pub const MAX_PICTURE_CHARS: u64 = 1 << 26;
/// Most hex steps of sight lines one field-of-view call may trace.
pub const MAX_SIGHT_STEPS: u64 = 1 << 30;
/// Longest map, terrain or tag name, in characters (names are printable text:
/// [`crate::text::check_name`]).
pub const MAX_NAME: usize = 64;
/// Longest piece of user input quoted in an error message, in characters.
pub const MAX_QUOTE: usize = 40;

/// `text` for an error message: at most [`MAX_QUOTE`] characters, with `...` if cut.
pub fn short(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(MAX_QUOTE).collect();
    if chars.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

/// `{text:?}` for an error message, cut to [`MAX_QUOTE`] characters.
pub fn quoted(text: &str) -> String {
    format!("{:?}", short(text))
}

/// The largest of `|q|, |r|, |s|`: how far the hex is from the origin.
pub fn extent(q: i64, r: i64) -> i64 {
    q.abs().max(r.abs()).max((q + r).abs())
}

/// The hex `(q, r)` if it is inside the coordinate range; `what` names it in the error.
pub fn hex(q: i64, r: i64, what: &str) -> Result<Hex> {
    if q.abs() <= MAX_COORD && r.abs() <= MAX_COORD && (q + r).abs() <= MAX_COORD {
        // In range of i32 by the check above.
        Ok(Hex::new(q as i32, r as i32))
    } else {
        Err(Error::invalid(format!(
            "{what} ({q}, {r}) is outside the coordinate range: |q|, |r| and |s| = |q + r| must be at most {MAX_COORD}"
        )))
    }
}

/// [`hex`] for an `i128` result of arithmetic on hexes (products may exceed `i64`).
pub fn hex_wide(q: i128, r: i128, what: &str) -> Result<Hex> {
    match (i64::try_from(q), i64::try_from(r)) {
        (Ok(q), Ok(r)) if q.abs() <= MAX_COORD && r.abs() <= MAX_COORD => hex(q, r, what),
        _ => Err(Error::invalid(format!(
            "{what} is outside the coordinate range: |q|, |r| and |s| must be at most {MAX_COORD}"
        ))),
    }
}

/// Check that a hex already built is inside the coordinate range.
pub fn check_hex(h: Hex, what: &str) -> Result<Hex> {
    hex(h.x as i64, h.y as i64, what)
}

/// `value` as a `u32` if it is in `0..=max`; `name` names the argument.
pub fn count(value: i64, max: i64, name: &str) -> Result<u32> {
    if (0..=max).contains(&value) {
        Ok(value as u32)
    } else {
        Err(Error::Argument {
            name: name.into(),
            message: format!("{value} is not in 0..={max}"),
        })
    }
}

/// Check that every hex within `radius` of `center` stays inside the coordinate range.
pub fn check_reach(center: Hex, radius: u32, name: &str) -> Result<()> {
    let e = extent(center.x as i64, center.y as i64);
    if e + radius as i64 <= MAX_COORD {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "{name} {radius} around ({}, {}) leaves the coordinate range (|q|, |r|, |s| <= {MAX_COORD})",
            center.x, center.y
        )))
    }
}

/// A radius for a filled shape around `center`.
pub fn radius(center: Hex, value: i64, name: &str) -> Result<u32> {
    let r = count(value, MAX_RADIUS, name)?;
    check_reach(center, r, name)?;
    Ok(r)
}

/// A ring radius or line length around `center`.
pub fn length(center: Hex, value: i64, name: &str) -> Result<u32> {
    let r = count(value, MAX_LENGTH, name)?;
    check_reach(center, r, name)?;
    Ok(r)
}

/// Check that the straight line from `a` to `b` is at most [`MAX_LENGTH`] steps.
pub fn check_line(a: Hex, b: Hex) -> Result<()> {
    let d = super::coords::distance(a, b) as i64;
    if d <= MAX_LENGTH {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "a line from ({}, {}) to ({}, {}) is {d} steps long; at most {MAX_LENGTH}",
            a.x, a.y, b.x, b.y
        )))
    }
}

/// A pixel coordinate or size: finite.
pub fn finite(value: f64, name: &str) -> Result<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Error::invalid(format!(
            "{name} must be finite, got {value:e}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_outside_the_range_are_refused() {
        assert!(hex(MAX_COORD, 0, "h").is_ok());
        assert!(hex(MAX_COORD, 1, "h").is_err()); // s too small
        assert!(hex(-MAX_COORD - 1, 0, "h").is_err());
        assert!(hex_wide(i128::MAX, 0, "h").is_err());
        let e = hex(i64::MAX, 0, "the sum").unwrap_err().to_string();
        assert!(
            e.contains("the sum") && e.contains("coordinate range"),
            "{e}"
        );
    }

    #[test]
    fn radii_and_lengths_name_their_argument_and_range() {
        let e = radius(Hex::ZERO, 32768, "radius").unwrap_err().to_string();
        assert_eq!(e, "radius 32768 is not in 0..=500");
        assert!(radius(Hex::ZERO, -1, "radius").is_err());
        assert!(length(Hex::new(MAX_COORD as i32, 0), 1, "length").is_err());
        assert_eq!(radius(Hex::new(3, 4), 500, "radius").ok(), Some(500));
        assert!(check_line(Hex::ZERO, Hex::new(1_000_000_000 / 2, 0)).is_err());
    }

    #[test]
    fn quotes_are_short() {
        assert_eq!(short("abc"), "abc");
        let long = "x".repeat(1_000_000);
        assert_eq!(short(&long).len(), MAX_QUOTE + 3);
        assert_eq!(short(&"é".repeat(50)).chars().count(), MAX_QUOTE + 3);
    }
}
