//! Zinordia tests, one file per rule section, citing the rule ids of
//! `docs/rules/zinordia.md` in their names (`zn_10_3_…`).

mod content;
