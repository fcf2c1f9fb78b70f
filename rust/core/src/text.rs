//! Names in content (cards, factions, Stars, modes, terrains, tags, maps) are printable text:
//! they reach terminals, pictures and pages, so a name holding a control character could
//! drive a terminal or break the markup. One check, used by every content loader.

/// Why `c` may not appear in a name, if it may not: C0 and C1 controls and DEL, bidi marks,
/// overrides and isolates, line and paragraph separators, and non-characters.
fn forbidden(c: char) -> Option<&'static str> {
    match c {
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => Some("a control character"),
        '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {
            Some("a bidirectional control")
        }
        '\u{2028}' | '\u{2029}' => Some("a line or paragraph separator"),
        '\u{fdd0}'..='\u{fdef}' => Some("a non-character"),
        c if (c as u32) & 0xfffe == 0xfffe => Some("a non-character"),
        _ => None,
    }
}

/// Check that `name` is 1 to `max` characters of printable text, not blank. The message
/// names the offending character by code point and position, never quotes the name.
pub fn check_name(name: &str, max: usize) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("must not be empty".into());
    }
    let mut n = 0;
    for (i, c) in name.chars().enumerate() {
        if let Some(why) = forbidden(c) {
            return Err(format!(
                "must be printable text: character {} is {why} (U+{:04X})",
                i + 1,
                c as u32
            ));
        }
        n += 1;
        if n > max {
            return Err(format!("must be at most {max} characters"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_names_pass_and_others_are_named() {
        assert!(check_name("Kael the Bold — ★ é 𝄞", 64).is_ok());
        assert!(check_name("<b>\"markup\" & 'quotes'</b>", 64).is_ok());
        for (bad, why) in [
            ("a\u{1b}[2J", "U+001B"),
            ("a\nb", "U+000A"),
            ("tab\t", "U+0009"),
            ("c1\u{85}", "U+0085"),
            ("del\u{7f}", "U+007F"),
            ("\u{202e}evil", "U+202E"),
            ("iso\u{2066}", "U+2066"),
            ("sep\u{2028}", "U+2028"),
            ("nc\u{ffff}", "U+FFFF"),
        ] {
            let e = check_name(bad, 64).unwrap_err();
            assert!(e.contains(why), "{e}");
            assert!(!e.contains(bad), "{e}");
        }
        assert!(check_name("  ", 64).is_err());
        assert!(check_name("", 64).is_err());
        assert!(check_name(&"x".repeat(64), 64).is_ok());
        assert_eq!(
            check_name(&"x".repeat(10_000), 64).unwrap_err(),
            "must be at most 64 characters"
        );
    }
}
