//! Agent settings declared once (`agent_options!`): each setting is one field with its doc,
//! from which come the serde struct (`deny_unknown_fields`, aliases), its defaults, the
//! command-line form (`ismcts:1000,c=0.5,depth=none`: [`parse_options`], [`options_name`]),
//! the Python keywords and the field list Python's docstrings and type checks read
//! ([`AgentOptions::FIELDS`]).
//!
//! Why a declarative macro and not a schema crate (`schemars`, `serde-reflection`): both
//! drop serde's aliases (`c` for `exploration`), which the command line and the Python
//! names need, and report JSON types rather than the Rust ones the bounds come from; the
//! macro keeps the field list, aliases, types, defaults and docs beside the field, with no
//! new dependency.

use crate::error::{Error, Result};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde::Serialize;
use serde_json::{Map, Value};

/// One setting of an agent, as declared in its `agent_options!` struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// The field's name: the Python keyword and the key of the serialized form.
    pub name: &'static str,
    /// Other names accepted for it; the first, when there is one, is the short name the
    /// command-line form prints (`c` for `exploration`).
    pub aliases: &'static [&'static str],
    /// The field's Rust type as written (`Option<u32>`).
    pub rust_type: &'static str,
    /// The field's doc comment, one line per doc line.
    pub doc: &'static str,
}

impl OptionInfo {
    /// The name the command-line form prints: the first alias, else the field's name.
    pub fn short(&self) -> &'static str {
        self.aliases.first().copied().unwrap_or(self.name)
    }
}

/// An agent's settings, declared with `agent_options!`.
pub trait AgentOptions: Clone + PartialEq + Default + Serialize + DeserializeOwned {
    /// The agent's name on the command line (`ismcts`).
    const KIND: &'static str;
    /// The field a bare first value sets (`ismcts:1000`: `iterations`), if any.
    const POSITIONAL: Option<&'static str>;
    /// Every setting, in declaration order.
    const FIELDS: &'static [OptionInfo];
    /// Settings once offered and retired, with why: naming one is an error that says so.
    const RETIRED: &'static [(&'static str, &'static str)] = &[];

    /// `(a, b)`: setting `a` is unset (None) when `b` is given and `a` is not
    /// (`ismcts:time=1`: a time budget alone, no iteration cap).
    const UNSET_BY: &'static [(&'static str, &'static str)] = &[];

    /// Settings implied by others, applied after reading (`ismcts`: 1000 iterations when
    /// neither budget is given).
    fn normalize(&mut self) {}

    /// Check the values; an error names the setting.
    fn validate(&self) -> Result<()>;

    /// A command-line shorthand for several settings (`settle=turn`), expanded before
    /// reading; `None`: `key=value` is read as it is.
    fn shorthand(_key: &str, _value: &str) -> Option<Vec<(&'static str, &'static str)>> {
        None
    }
}

/// Declare an agent's settings: a serde struct (`deny_unknown_fields`, every field
/// defaulted, aliases from the names in parentheses, the first being the short name), its
/// `Default`, and its [`AgentOptions::FIELDS`]. Each field is written once with its doc:
///
/// ```ignore
/// agent_options! {
///     /// Greedy's settings.
///     pub struct GreedyConfig {
///         /// Redraws each move is scored on.
///         pub samples: Option<u32> = None,
///         /// The UCB constant.
///         pub exploration ("c"): Option<f64> = None,
///     }
/// }
/// ```
#[macro_export]
macro_rules! agent_options {
    (
        $(#[doc = $sdoc:literal])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                pub $field:ident $( ( $($alias:literal),+ ) )? : $ty:ty = $default:expr,
            )*
        }
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct $name {
            $(
                $(#[doc = $doc])*
                $($(#[serde(alias = $alias)])+)?
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $default,)* }
            }
        }

        impl $name {
            /// Every setting with its aliases, type and doc.
            pub const FIELD_LIST: &'static [$crate::search::options::OptionInfo] = &[
                $($crate::search::options::OptionInfo {
                    name: stringify!($field),
                    aliases: &[$($($alias),+)?],
                    rust_type: stringify!($ty),
                    doc: concat!($($doc, "\n",)*),
                },)*
            ];
        }
    };
}

/// The settings of agent kind `C` from the `k=v` pairs of a command-line form (`text`, for
/// the error): a bare first value sets [`AgentOptions::POSITIONAL`], `none`/`off` is an
/// unset `Option`, `1`/`0`/`true`/`false` a flag. An error names the setting at fault
/// (`bad agent "ismcts:abc": iterations: "abc" is not a whole number >= 0`).
pub fn parse_options<C: AgentOptions>(text: &str, rest: &str) -> Result<C> {
    let kind = text.split(':').next().unwrap_or(C::KIND).trim();
    let bad = |why: String| Error::invalid(format!("bad agent {text:?}: {why}"));
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for (i, part) in rest.split(',').filter(|p| !p.trim().is_empty()).enumerate() {
        let (k, v) = match (part.split_once('='), C::POSITIONAL) {
            (Some((k, v)), _) => (k.trim(), v.trim()),
            (None, Some(first)) if i == 0 => (first, part.trim()),
            (None, _) => return Err(bad(format!("expected key=value, got {part:?}"))),
        };
        match C::shorthand(k, v) {
            Some(expanded) => pairs.extend(expanded),
            None => pairs.push((k, v)),
        }
    }
    let mut names = Vec::with_capacity(pairs.len());
    for (k, _) in &pairs {
        if let Some((_, why)) = C::RETIRED.iter().find(|(name, _)| name == k) {
            return Err(bad(format!("{k} was retired: {why}")));
        }
        match canonical::<C>(k) {
            Some(name) => names.push(name),
            None => {
                let only = if C::FIELDS.len() == 1 { "only " } else { "" };
                return Err(bad(format!(
                    "{kind} takes {only}{}, not {k:?}",
                    option_names::<C>()
                )));
            }
        }
    }
    // A later value of the same key wins (`settle=turn,settle_turns=2`).
    let mut kept: Vec<(&str, &str)> = Vec::with_capacity(pairs.len());
    for (i, pair) in pairs.iter().enumerate() {
        if !pairs[i + 1..].iter().any(|(k, _)| *k == pair.0) {
            kept.push(*pair);
        }
    }
    for &(unset, by) in C::UNSET_BY {
        if names.contains(&by) && !names.contains(&unset) {
            kept.push((unset, "none"));
        }
    }
    let pairs = kept;
    let map = de::value::MapDeserializer::new(pairs.into_iter().map(|(k, v)| (k, Text(v))));
    let mut config: C = serde_path_to_error::deserialize(map).map_err(|e| {
        let path = e.path().to_string();
        bad(format!("{path}: {}", e.into_inner()))
    })?;
    config.normalize();
    config.validate().map_err(|e| bad(e.to_string()))?;
    Ok(config)
}

/// The settings of agent kind `C` from a JSON map (Python's keywords). `Err` carries the
/// error and whether it is one of type (a wrong type, an unknown or retired setting:
/// Python's `TypeError`) rather than of value.
pub fn options_from_json<C: AgentOptions>(
    map: Map<String, Value>,
) -> std::result::Result<C, (bool, Error)> {
    let kind = C::KIND;
    let wrong = |why: String| (true, Error::invalid(why));
    let mut map = map;
    let names: Vec<&str> = map.keys().filter_map(|k| canonical::<C>(k)).collect();
    for &(unset, by) in C::UNSET_BY {
        if names.contains(&by) && !names.contains(&unset) {
            map.insert(unset.to_string(), Value::Null);
        }
    }
    for k in map.keys() {
        if let Some((_, why)) = C::RETIRED.iter().find(|(name, _)| name == k) {
            return Err(wrong(format!("{kind}: option {k:?} was retired: {why}")));
        }
        if !C::FIELDS
            .iter()
            .any(|f| f.name == k || f.aliases.contains(&k.as_str()))
        {
            return Err(wrong(format!(
                "{kind}: unknown option {k:?}; the options are {}",
                option_names::<C>()
            )));
        }
    }
    let mut config: C = serde_path_to_error::deserialize(Value::Object(map)).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        let wrong_type = inner.starts_with("invalid type") || inner.starts_with("duplicate field");
        let why = inner.replace('`', "");
        (
            wrong_type,
            Error::invalid(format!("{kind}: option {path}: {why}")),
        )
    })?;
    config.normalize();
    config.validate().map_err(|e| (false, e))?;
    Ok(config)
}

/// The field a name or alias of `C`'s settings stands for.
fn canonical<C: AgentOptions>(key: &str) -> Option<&'static str> {
    C::FIELDS
        .iter()
        .find(|f| f.name == key || f.aliases.contains(&key))
        .map(|f| f.name)
}

/// The settings' names, for errors: `iterations, time_limit (time), ...`.
pub fn option_names<C: AgentOptions>() -> String {
    C::FIELDS
        .iter()
        .map(|f| match f.aliases {
            [] => f.name.to_string(),
            aliases => format!("{} ({})", f.name, aliases.join(", ")),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The settings as a JSON map, every field present.
pub fn options_json<C: AgentOptions>(config: &C) -> Map<String, Value> {
    match serde_json::to_value(config) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// The settings that differ from the defaults (normalized), in declaration order.
pub fn changed_options<C: AgentOptions>(config: &C) -> Vec<(&'static OptionInfo, Value)> {
    let mut default = C::default();
    default.normalize();
    let (now, then) = (options_json(config), options_json(&default));
    C::FIELDS
        .iter()
        .filter_map(|f| {
            let v = now.get(f.name)?;
            (then.get(f.name) != Some(v)).then(|| (f, v.clone()))
        })
        .collect()
}

/// The command-line form without the seed (tables do not show it), which
/// [`parse_options`] reads back: `ismcts:1000,c=0.5,depth=none`. The positional setting is
/// printed bare whenever it is set; the others when they differ from the default, under
/// their short names.
pub fn options_name<C: AgentOptions>(config: &C) -> String {
    let text = |v: &Value| match v {
        Value::Null => "none".to_string(),
        Value::Bool(b) => u8::from(*b).to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut parts = Vec::new();
    let json = options_json(config);
    if let Some(first) = C::POSITIONAL {
        if let Some(v) = json.get(first).filter(|v| !v.is_null()) {
            parts.push(text(v));
        }
    }
    for (f, v) in changed_options(config) {
        if Some(f.name) != C::POSITIONAL && f.name != "seed" {
            parts.push(format!("{}={}", f.short(), text(&v)));
        }
    }
    if parts.is_empty() {
        C::KIND.to_string()
    } else {
        format!("{}:{}", C::KIND, parts.join(","))
    }
}

/// A value of the command-line form, read as the field's type asks.
struct Text<'a>(&'a str);

impl<'de, 'a> IntoDeserializer<'de, de::value::Error> for Text<'a> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl Text<'_> {
    fn whole(&self) -> std::result::Result<u64, de::value::Error> {
        self.0
            .parse::<u64>()
            .map_err(|_| de::Error::custom(format!("{:?} is not a whole number >= 0", self.0)))
    }
    fn number(&self) -> std::result::Result<f64, de::value::Error> {
        self.0
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| de::Error::custom(format!("{:?} is not a number", self.0)))
    }
}

impl<'de> de::Deserializer<'de> for Text<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> std::result::Result<V::Value, Self::Error> {
        v.visit_str(self.0)
    }
    fn deserialize_option<V: Visitor<'de>>(
        self,
        v: V,
    ) -> std::result::Result<V::Value, Self::Error> {
        match self.0 {
            "none" | "off" => v.visit_none(),
            _ => v.visit_some(self),
        }
    }
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> std::result::Result<V::Value, Self::Error> {
        match self.0 {
            "1" | "true" => v.visit_bool(true),
            "0" | "false" => v.visit_bool(false),
            other => Err(de::Error::custom(format!("{other:?} is not 1 or 0"))),
        }
    }
    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> std::result::Result<V::Value, Self::Error> {
        v.visit_u64(self.whole()?)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, v: V) -> std::result::Result<V::Value, Self::Error> {
        let n = self.whole()?;
        v.visit_u32(
            u32::try_from(n)
                .map_err(|_| de::Error::custom(format!("{n} is larger than {}", u32::MAX)))?,
        )
    }
    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> std::result::Result<V::Value, Self::Error> {
        v.visit_f64(self.number()?)
    }
    serde::forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u8 u16 u128 f32 char str string bytes byte_buf unit unit_struct
        newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}
