//! What a player may know: determinization (`resample_hidden`), the observation tensor and
//! the text picture. The layout of the tensor is documented in `docs/zinordia.md`
//! ("Observation"); every value is in [0, 1].
//!
//! Hidden information in Zinordia is small: the other teams' secret picks until the reveal
//! (ZN-4.2) and the dice (the RNG). Everything on the board is public.

use std::fmt::Write as _;
use std::sync::Arc;

use super::ability::{Stat, Trigger};
use super::content::{ABILITIES, PRIVILEGE, RENOWN, START};
use super::options::Selection;
use super::state::{Phase, Resume, Zinordia};
use crate::game::Player;
use crate::hex::Hex;
use crate::rng::GameRng;

/// Features per row of the observation (zone rows, Star rows and the global row alike).
pub const FEATURES: usize = 16;

/// How many kinds of [`Trigger`] there are: the last one's index + 1.
const TRIGGER_KINDS: f32 = (Trigger::WhileAlone as usize + 1) as f32;

impl Zinordia {
    /// A state `player` cannot tell from this one: the other teams' unrevealed picks redrawn
    /// (each a Star its team has not picked, as the rules allow), and the dice reseeded.
    pub(super) fn resample(&self, player: Player, seed: u64) -> Zinordia {
        let mut g = self.clone();
        let mut rng = GameRng::stream(seed, 0);
        if matches!(self.phase, Phase::Select { .. })
            && self.options().selection == Selection::Secret
        {
            let sh = &self.shared;
            let roster = sh.content.stars.len();
            // The unseen picks are cleared first and drawn again one by one, each among the
            // Stars its team does not hold yet: the draw then depends on the view and the seed
            // alone, not on the true picks (else a seeded agent's move would).
            const UNDRAWN: usize = usize::MAX;
            let unseen: Vec<Player> = (0..sh.players)
                .filter(|&o| !self.sees_picks(Some(player), o))
                .collect();
            let picks = Arc::make_mut(&mut g.picks);
            for &o in &unseen {
                picks[o].fill(UNDRAWN);
            }
            for &o in &unseen {
                for i in 0..picks[o].len() {
                    let taken: Vec<usize> = (0..sh.players)
                        .filter(|&t| sh.team(t) == sh.team(o))
                        .flat_map(|t| picks[t].iter().copied())
                        .filter(|&r| r != UNDRAWN)
                        .collect();
                    let free: Vec<usize> = (0..roster).filter(|r| !taken.contains(r)).collect();
                    picks[o][i] = if free.is_empty() {
                        // Cannot happen with a valid roster; keep the state valid regardless.
                        self.picks[o][i]
                    } else {
                        free[rng.below(free.len())]
                    };
                }
            }
        }
        g.rng = GameRng::stream(seed, 1);
        g
    }

    pub(super) fn obs_shape(&self) -> Vec<usize> {
        vec![
            self.shared.zones.len() + self.shared.num_stars() + 1,
            FEATURES,
        ]
    }

    /// Star slot `s` seen from `player`: own Stars first, then the following seats'.
    fn relative_slot(&self, player: Player, s: usize) -> usize {
        let sh = &self.shared;
        let n = sh.players;
        let owner = sh.owner(s);
        let seat = (owner + n - player % n) % n;
        seat * sh.per_player + s % sh.per_player
    }

    /// The bounds of the observation ([`crate::Game::observation_bounds`]): every element
    /// is a flag or a value over its maximum, clamped to [0, 1] where it is written (`put`).
    pub(super) fn observation_bounds_of(&self) -> crate::game::ObservationBounds {
        let n = self.obs_shape().iter().product();
        (vec![0.0; n], vec![1.0; n])
    }

    /// The observation of `player` (layout in `docs/zinordia.md`).
    pub(super) fn observe(&self, player: Player, out: &mut [f32]) {
        self.observe_zones(player, out);
        self.observe_stars(player, out);
        self.observe_global(player, out);
    }

    /// The zone rows: terrain, markers, who stands there, the ability and window in progress.
    fn observe_zones(&self, player: Player, out: &mut [f32]) {
        let sh = &self.shared;
        let me = sh.team(player);
        let mut set = |row: usize, col: usize, v: f32| put(out, row * FEATURES + col, v);
        let play_star = self.play.map(|p| p.star);
        for (i, &h) in sh.zones.iter().enumerate() {
            set(i, 0, f32::from(u8::from(sh.map.cost(h).is_none())));
            set(i, 1, f32::from(u8::from(self.markers.contains(&h))));
            set(i, 2, f32::from(u8::from(sh.map.has_tag(h, START))));
            set(i, 3, f32::from(u8::from(sh.map.has_tag(h, PRIVILEGE))));
            set(i, 4, f32::from(u8::from(sh.map.has_tag(h, RENOWN))));
            if let Some(o) = self.board.occupant(h) {
                let s = o as usize;
                let owner = sh.owner(s);
                let col = if owner == player {
                    5
                } else if sh.team(owner) == me {
                    6
                } else {
                    7
                };
                set(i, col, 1.0);
                set(i, 8, f32::from(u8::from(play_star == Some(s))));
                if let Some(st) = self.stars.get(s) {
                    let max = f32::from(self.star_data(s).vida.max(1));
                    set(i, 9, f32::from(st.vida) / max);
                }
                set(
                    i,
                    10,
                    (self.relative_slot(player, s) + 1) as f32 / sh.num_stars() as f32,
                );
            }
        }
        // The ability in progress and the reaction window open now (ZN-9.4, ZN-9.5), all
        // public: a player asked to react sees what it reacts to. The ability is either
        // declared and waiting for its `targeted` windows, or (`reactions_interrupt`)
        // suspended mid-resolution.
        let in_progress = match &self.resume {
            Resume::Activation(d) => Some((d.star, d.ability, Some(d.target), false)),
            Resume::Resolution(r) => Some((r.user, r.ability, r.target, true)),
            Resume::Main | Resume::EndTurn => None,
        };
        let zone_of = |s: usize| {
            self.stars
                .get(s)
                .and_then(|st| st.zone)
                .and_then(|h| sh.zone_id(h))
        };
        if let Some((user, ability, target, suspended)) = in_progress {
            if let Some(i) = zone_of(user) {
                set(i, 11, f32::from(ability + 1) / ABILITIES as f32);
                set(i, 12, f32::from(u8::from(suspended)));
            }
            if let Some(i) = target.and_then(|h| sh.zone_id(h)) {
                set(i, 13, 1.0);
            }
        }
        if let Some(o) = self.offers.front() {
            if let Some(i) = zone_of(o.star) {
                set(i, 14, (o.trigger as usize + 1) as f32 / TRIGGER_KINDS);
            }
            if let Some(i) = o.source.and_then(zone_of) {
                set(i, 15, 1.0);
            }
        }
    }

    /// The Star rows, own Stars first.
    fn observe_stars(&self, player: Player, out: &mut [f32]) {
        let sh = &self.shared;
        let z = sh.zones.len();
        let me = sh.team(player);
        let target = f32::from(sh.mode().target.max(1));
        let mut set = |row: usize, col: usize, v: f32| put(out, row * FEATURES + col, v);
        let roster = sh.content.stars.len().max(1) as f32;
        for s in 0..sh.num_stars() {
            let row = z + self.relative_slot(player, s);
            let owner = sh.owner(s);
            let pick = self.picks.get(owner).and_then(|l| l.get(s % sh.per_player));
            let visible = self.sees_picks(Some(player), owner);
            set(row, 0, f32::from(u8::from(pick.is_some())));
            set(row, 1, f32::from(u8::from(owner == player)));
            set(
                row,
                2,
                f32::from(u8::from(owner != player && sh.team(owner) == me)),
            );
            set(row, 3, f32::from(u8::from(sh.team(owner) != me)));
            if let (Some(&r), true) = (pick, visible) {
                set(row, 4, (r + 1) as f32 / roster);
            }
            let Some(st) = self.stars.get(s) else {
                continue;
            };
            let d = self.star_data(s);
            set(row, 5, f32::from(u8::from(st.zone.is_some())));
            set(row, 6, f32::from(u8::from(st.defeated)));
            set(row, 7, f32::from(st.vida) / f32::from(d.vida.max(1)));
            set(row, 8, f32::from(st.amago) / f32::from(d.amago.max(1)));
            set(row, 9, f32::from(st.armadura) / 20.0);
            set(row, 10, f32::from(self.agilidade(s)) / 8.0);
            set(
                row,
                11,
                self.stat(s, Stat::PoderFisico).max(0) as f32 / 20.0,
            );
            set(
                row,
                12,
                self.stat(s, Stat::PoderMagico).max(0) as f32 / 20.0,
            );
            set(row, 13, f32::from(st.renown) / target);
            set(row, 14, f32::from(u8::from(st.played)));
            if let Some(zone) = st.zone.and_then(|h| sh.zone_id(h)) {
                set(row, 15, (zone + 1) as f32 / z as f32);
            }
        }
    }

    /// The global row.
    fn observe_global(&self, player: Player, out: &mut [f32]) {
        let sh = &self.shared;
        let z = sh.zones.len();
        let me = sh.team(player);
        let mode = sh.mode();
        let target = f32::from(mode.target.max(1));
        let mut set = |row: usize, col: usize, v: f32| put(out, row * FEATURES + col, v);
        let g = z + sh.num_stars();
        let phase = match self.phase {
            Phase::Select { .. } => 0,
            Phase::Place { .. } => 1,
            Phase::Main => 2,
            Phase::Over => 3,
        };
        set(g, phase, 1.0);
        set(
            g,
            4,
            f32::from(u8::from(self.current_player() == Some(player))),
        );
        set(
            g,
            5,
            f32::from(self.round) / f32::from(self.options().max_rounds.max(1)),
        );
        set(g, 6, self.team_renown(me) as f32 / target);
        let best_other = (0..sh.num_teams())
            .filter(|&t| t != me)
            .map(|t| self.team_renown(t))
            .max()
            .unwrap_or(0);
        set(g, 7, best_other as f32 / target);
        if let Some(p) = self.play {
            set(g, 8, 1.0);
            set(g, 9, f32::from(p.moved) / 8.0);
            set(g, 10, f32::from(u8::from(p.activated)));
        }
        set(
            g,
            11,
            self.markers.len() as f32 / f32::from(mode.markers.max(1)),
        );
        let pos = self.order.iter().position(|&p| p == player);
        if let Some(pos) = pos {
            set(g, 12, (pos + 1) as f32 / self.order.len() as f32);
        }
        // A reaction window asks one of my Stars now (ZN-9.4).
        let asked = self
            .offers
            .front()
            .is_some_and(|o| sh.owner(o.star) == player);
        set(g, 13, f32::from(u8::from(asked)));
        if self.phase == Phase::Over {
            let won = self.winner == Some(me);
            set(g, 14, f32::from(u8::from(won)));
            set(g, 15, f32::from(u8::from(self.winner.is_none())));
        }
    }

    /// The text picture: the header, the hex map (each Star as its player's letter and slot,
    /// `*` a Renown marker, `#` an obstacle), and a line per Star.
    pub(super) fn picture(&self, viewer: Option<Player>) -> String {
        let sh = &self.shared;
        let mut s = String::new();
        self.picture_header(&mut s);
        self.map_picture(&mut s);
        // Picks and Stars.
        for p in 0..sh.players {
            let shown = self.sees_picks(viewer, p);
            let picks: Vec<String> = self.picks[p]
                .iter()
                .map(|&r| {
                    if shown {
                        sh.content.stars.get(r).map_or("?".into(), |d| d.id.clone())
                    } else {
                        "?".into()
                    }
                })
                .collect();
            if self.stars.is_empty() {
                let _ = writeln!(
                    s,
                    "{} (side {}): picked {}",
                    letter(p),
                    self.side_label(sh.team(p)),
                    if picks.is_empty() {
                        "nothing".into()
                    } else {
                        picks.join(", ")
                    }
                );
            }
        }
        for i in 0..self.stars.len() {
            self.picture_star(&mut s, i);
        }
        for o in &self.offers {
            let _ = write!(
                s,
                "Reaction window: {}{} ({})",
                letter(sh.owner(o.star)),
                o.star % sh.per_player + 1,
                o.trigger.name()
            );
            if let Some(src) = o.source {
                let _ = write!(
                    s,
                    " by {}{}",
                    letter(sh.owner(src)),
                    src % sh.per_player + 1
                );
            }
            s.push('\n');
        }
        if let Some(r) = &self.last_roll {
            let defs: Vec<String> = r
                .defences
                .iter()
                .map(|d| {
                    format!(
                        "{}{} {} ({})",
                        letter(sh.owner(d.star)),
                        d.star % sh.per_player + 1,
                        d.total,
                        if d.hit { "hit" } else { "missed" }
                    )
                })
                .collect();
            let _ = writeln!(
                s,
                "Last attack: {}+{} = {} against {}",
                r.dice[0],
                r.dice[1],
                r.total,
                defs.join(", ")
            );
        }
        s
    }

    /// The picture's header: mode, map, phase, round, who moves or won, Renown, initiative.
    fn picture_header(&self, s: &mut String) {
        let sh = &self.shared;
        let mode = sh.mode();
        let phase = match self.phase {
            Phase::Select { .. } => "selection",
            Phase::Place { .. } => "placement",
            Phase::Main => "main",
            Phase::Over => "over",
        };
        let _ = write!(
            s,
            "Zinordia, {} on {} — {phase}",
            mode.name,
            sh.options
                .map
                .as_deref()
                .unwrap_or_else(|| mode.maps.first().map_or("?", |m| m.as_str()))
        );
        if self.round > 0 {
            let _ = write!(s, ", round {}", self.round);
        }
        match (self.phase, self.current_player()) {
            (Phase::Over, _) => match self.winner {
                Some(t) => {
                    let _ = write!(s, ", won by {}", self.side_label(t));
                }
                None => s.push_str(", a draw"),
            },
            (_, Some(p)) => {
                let _ = write!(s, ", {} to move", letter(p));
            }
            _ => {}
        }
        s.push('\n');
        let teams: Vec<String> = (0..sh.num_teams())
            .map(|t| format!("{} {}", self.side_label(t), self.team_renown(t)))
            .collect();
        let _ = writeln!(s, "Renown ({} wins): {}", mode.target, teams.join(", "));
        // ZN-4.3: the initiative rolls (rerolls after) and the turn order.
        if !self.order.is_empty() {
            let rolls: Vec<String> = self
                .rolls
                .iter()
                .map(|round| {
                    round
                        .iter()
                        .map(|&(side, die)| {
                            let who = if mode.teams {
                                self.side_label(side)
                            } else {
                                letter(side).to_string()
                            };
                            format!("{who} {die}")
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .collect();
            let order: Vec<String> = self.order.iter().map(|&p| letter(p).to_string()).collect();
            let _ = writeln!(
                s,
                "Initiative: {} — turn order {}",
                rolls.join("; then "),
                order.join(", ")
            );
        }
    }

    /// The line of Star slot `i` and, while it stands, its sheet.
    fn picture_star(&self, s: &mut String, i: usize) {
        let sh = &self.shared;
        let Some(st) = self.stars.get(i) else {
            return;
        };
        let d = self.star_data(i);
        let at = match (st.defeated, st.zone) {
            (true, _) => "out".to_string(),
            (false, Some(h)) => format!("{},{}", h.x, h.y),
            (false, None) => "unplaced".to_string(),
        };
        let _ = write!(
            s,
            "{}{} {} @ {at}: Vida {}/{} Âmago {}/{} Armadura {}/{} Agilidade {} \
             Físico {} Mágico {} Renown {}",
            letter(sh.owner(i)),
            i % sh.per_player + 1,
            d.name,
            st.vida,
            d.vida,
            st.amago,
            d.amago,
            st.armadura,
            self.stat(i, Stat::Armadura).max(0),
            self.agilidade(i),
            self.stat(i, Stat::PoderFisico).max(0),
            self.stat(i, Stat::PoderMagico).max(0),
            st.renown,
        );
        if st.played {
            s.push_str(" (played)");
        }
        if self.play.is_some_and(|p| p.star == i) {
            s.push_str(" (playing)");
        }
        for e in &st.effects {
            let _ = write!(s, " [{}]", super::json::status_name(&e.status));
        }
        s.push('\n');
        if st.defeated {
            return;
        }
        // The sheet: each ability's number (`use 1`), name, id, kind, cost, range, text.
        for (k, ab) in d.abilities.iter().enumerate() {
            let mut cost = format!("{} Âmago", ab.cost);
            if let Some(c) = ab.extra_cost {
                let _ = write!(cost, " + {} {}", c.amount, c.resource.name());
            }
            if let Some(c) = ab.alt_cost {
                let _ = write!(cost, " or {} {} (alt)", c.amount, c.resource.name());
            }
            let _ = write!(
                s,
                "    {} {} ({}, {}",
                k + 1,
                ab.name,
                ab.id,
                ab.kind.name()
            );
            if !matches!(ab.kind, super::ability::Kind::Passive) {
                let _ = write!(s, ", {cost}, range {}", ab.range);
            }
            let used = st.uses.get(k).copied().unwrap_or(0);
            if used > 0 {
                let _ = write!(s, ", used {used}/{}", ab.repeat);
            }
            let _ = writeln!(s, "): {}", ab.text);
        }
    }

    /// A side's label: its players' letters (`A`, or `A+C` for a team).
    pub(super) fn side_label(&self, team: usize) -> String {
        let sh = &self.shared;
        let letters: Vec<String> = (0..sh.players)
            .filter(|&p| sh.team(p) == team)
            .map(|p| letter(p).to_string())
            .collect();
        if letters.is_empty() {
            format!("side {team}")
        } else {
            letters.join("+")
        }
    }

    /// The map: rows by r, each shifted half a zone per row (pointy-top axial), every empty
    /// zone written as its `q,r` (what `move` and `use` take); a Star as `A1`, `*` a Renown
    /// marker (`A1*` a Star on one), `#` an obstacle; during placement `s`/`p` before the
    /// start and privilege zones.
    fn map_picture(&self, s: &mut String) {
        let sh = &self.shared;
        let Some((qmin, qmax, rmin, rmax)) = sh.map.bounds() else {
            return;
        };
        let placing = matches!(self.phase, Phase::Place { .. });
        for r in rmin..=rmax {
            let mut line = " ".repeat(3 * usize::try_from(r - rmin).unwrap_or(0));
            for q in qmin..=qmax {
                let h = Hex::new(q, r);
                let marker = if self.markers.contains(&h) { "*" } else { "" };
                let cell = if !sh.map.contains(h) {
                    String::new()
                } else if let Some(o) = self.board.occupant(h) {
                    let o = o as usize;
                    format!("{}{}{marker}", letter(sh.owner(o)), o % sh.per_player + 1)
                } else if sh.map.cost(h).is_none() {
                    "#".to_string()
                } else {
                    let tag = if !placing {
                        ""
                    } else if sh.map.has_tag(h, START) {
                        "s"
                    } else if sh.map.has_tag(h, PRIVILEGE) {
                        "p"
                    } else {
                        ""
                    };
                    format!("{tag}{marker}{q},{r}")
                };
                let _ = write!(line, "{cell:^6}");
            }
            let _ = writeln!(s, "{}", line.trim_end());
        }
        let mut key = String::from(
            "Key: q,r an empty zone; A1 a Star (side A, slot 1); * a Renown marker; # an obstacle",
        );
        if placing {
            key.push_str("; s a start zone, p a privilege zone");
        }
        let _ = writeln!(s, "{key}");
    }
}

/// A player's letter in pictures: A, B, C, D.
pub(super) fn letter(p: Player) -> char {
    char::from(b'A' + (p % 26) as u8)
}

/// Set `out[i]` to `v` clamped to [0, 1] (every entry of the observation lies there).
fn put(out: &mut [f32], i: usize, v: f32) {
    if let Some(x) = out.get_mut(i) {
        *x = v.clamp(0.0, 1.0);
    }
}
