//! Legality and effects of setup (ZN-4), the turn (ZN-5), plays (ZN-6) and victory (ZN-12):
//! one set of conditions ([`Zinordia::check`]) used both by move generation and by `apply`,
//! then the effect of an accepted action ([`Zinordia::apply_unchecked`]).

use std::collections::VecDeque;
use std::sync::Arc;

use super::ability::{Stat, Trigger};
use super::content::{Content, PRIVILEGE, RENOWN, START};
use super::notation::Action;
use super::options::{Options, Placement, Selection, UniqueStars, MAX_ROUNDS};
use super::state::{Declared, Phase, Play, Resume, Shared, StarState, Zinordia};
use crate::error::{Error, Result};
use crate::game::Player;
use crate::hex::Hex;
use crate::rng::GameRng;

/// Âmago regained at each First Maintenance (ZN-5.3).
pub const AMAGO_REGEN: u16 = 2;

/// Whether a play may collect Renown, or which rule refuses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Collect {
    Yes,
    ActivationUsed,
    NoMarker,
}

impl Zinordia {
    /// A new game on `content` (ZN-3, ZN-4.1): selection starts with seat 0.
    pub fn with_content(seed: u64, options: &Options, content: Arc<Content>) -> Result<Self> {
        let mode_ix = content
            .modes
            .iter()
            .position(|m| m.id == options.mode)
            .ok_or_else(|| {
                let ids: Vec<&str> = content.modes.iter().map(|m| m.id.as_str()).collect();
                Error::options(format!(
                    "mode: no such mode; the modes are {}",
                    ids.join(", ")
                ))
            })?;
        let mode = &content.modes[mode_ix];
        let players = match options.players {
            None => mode.min_players(),
            Some(n) if mode.players.contains(&n) => usize::from(n),
            Some(n) => {
                return Err(Error::options(format!(
                    "players: mode {:?} is for {:?} players, not {n}",
                    mode.id, mode.players
                )))
            }
        };
        let map_id = options.map.clone().unwrap_or_else(|| mode.maps[0].clone());
        if !mode.maps.contains(&map_id) {
            return Err(Error::options(format!(
                "map: mode {:?} is played on {:?}",
                mode.id, mode.maps
            )));
        }
        let game_map = content
            .map(&map_id)
            .ok_or_else(|| Error::options("map: not in the content"))?;
        let (map, graph) = (game_map.map.clone(), Arc::clone(&game_map.graph));
        let terrain = game_map.modifiers.clone();
        if options.max_rounds == 0 || options.max_rounds > MAX_ROUNDS {
            return Err(Error::options(format!(
                "max_rounds: must be 1 to {MAX_ROUNDS}"
            )));
        }
        let per_player = usize::from(mode.stars);
        if options.selection == Selection::Draft && players * per_player > content.stars.len() {
            return Err(Error::options(format!(
                "selection: a draft of {} Stars needs a roster that large",
                players * per_player
            )));
        }
        // ZN-4.5: markers on the renown zones in zone order, by r then q.
        let mut renown = map.tagged(RENOWN);
        renown.sort_by_key(|h| (h.y, h.x));
        renown.truncate(usize::from(mode.markers));
        let zones: Vec<Hex> = map.zones().collect();
        let shared = Shared {
            content: Arc::clone(&content),
            options: options.clone(),
            mode: mode_ix,
            graph,
            terrain,
            map: map.clone(),
            zones,
            players,
            per_player,
        };
        Ok(Zinordia {
            shared: Arc::new(shared),
            phase: Phase::Select { player: 0 },
            picks: Arc::new(vec![Vec::new(); players]),
            order: Arc::new(Vec::new()),
            rolls: Arc::new(Vec::new()),
            stars: Vec::new(),
            board: Arc::new(map),
            markers: Arc::new(renown),
            round: 0,
            turn: 0,
            play: None,
            offers: VecDeque::new(),
            resume: Resume::Main,
            events: Vec::new(),
            rng: GameRng::seed(seed),
            last_roll: None,
            winner: None,
            standing_before: 0,
        })
    }

    /// Whose decision it is; `None` once over.
    pub fn current_player(&self) -> Option<Player> {
        match self.phase {
            Phase::Select { player } => Some(player),
            Phase::Place { step } => self.placement_order().get(step).copied(),
            // An open reaction window: its Star's player decides, in any turn (ZN-9.4).
            Phase::Main => match self.offers.front() {
                Some(o) => Some(self.shared.owner(o.star)),
                None => Some(self.turn_player()),
            },
            Phase::Over => None,
        }
    }

    /// Who places the `step`-th Star (ZN-4.4).
    pub fn placement_order(&self) -> Vec<Player> {
        let k = self.shared.per_player;
        match self.options().placement {
            Placement::Alternate => (0..k).flat_map(|_| self.order.iter().copied()).collect(),
            Placement::Blocks => self
                .order
                .iter()
                .flat_map(|&p| std::iter::repeat_n(p, k))
                .collect(),
        }
    }

    /// The zones `p` places on (ZN-4.4): the first player's (team's) start zones, the
    /// others' privilege zones; privilege zones for everyone in free-for-all.
    pub fn placement_zones(&self, p: Player) -> Vec<Hex> {
        self.shared.map.tagged(self.placement_tag(p))
    }

    /// The map tag of [`Self::placement_zones`]; asking a zone for it allocates nothing.
    fn placement_tag(&self, p: Player) -> &'static str {
        let sh = &self.shared;
        let free_for_all = !sh.mode().teams && sh.players > 2;
        let first_team = self.order.first().map(|&f| sh.team(f));
        if !free_for_all && Some(sh.team(p)) == first_team {
            START
        } else {
            PRIVILEGE
        }
    }

    /// Stars `p` may not pick now (ZN-4.2, ZN-1.2): their team's picks, and in a draft every
    /// pick so far.
    fn picked_against(&self, p: Player, star: usize) -> bool {
        let sh = &self.shared;
        (0..sh.players).any(|o| {
            let counts =
                o == p || sh.team(o) == sh.team(p) || self.options().selection == Selection::Draft;
            counts && self.picks[o].contains(&star)
        })
    }

    /// ZN-1.2 with `unique_stars = "game"`: once every secret pick is made, the first pick
    /// (seat order, then slot) of a Star an earlier seat of another team holds — that seat
    /// `(player, slot)` picks again. `None` under the default reading or with no clash.
    pub(crate) fn first_clash(sh: &Shared, picks: &[Vec<usize>]) -> Option<(Player, usize)> {
        let done: usize = picks.iter().map(Vec::len).sum();
        if sh.options.unique_stars != UniqueStars::Game || done < sh.num_stars() {
            return None;
        }
        picks.iter().enumerate().find_map(|(p, list)| {
            let held = |r: &usize| {
                picks
                    .iter()
                    .take(p)
                    .enumerate()
                    .any(|(o, l)| sh.team(o) != sh.team(p) && l.contains(r))
            };
            list.iter().position(held).map(|slot| (p, slot))
        })
    }

    /// The seat and slot picking again after the reveal (ZN-1.2, `unique_stars = "game"`).
    pub fn repick(&self) -> Option<(Player, usize)> {
        Self::first_clash(&self.shared, &self.picks)
    }

    /// The current Agilidade of a Star (ZN-11.2, ZN-11.4), never below 0.
    pub fn agilidade(&self, s: usize) -> u16 {
        self.stat(s, Stat::Agilidade).max(0) as u16
    }

    /// The checks of an action, the same ones move generation uses. `Err` names the rule.
    pub fn check(&self, a: Action) -> Result<()> {
        let sh = &self.shared;
        match (self.phase, a) {
            (Phase::Over, _) => Err(Error::illegal("ZN-12.6", "the game is over")),
            (Phase::Select { player }, Action::Pick(s)) => {
                let s = usize::from(s);
                if s >= sh.content.stars.len() {
                    return Err(Error::illegal("ZN-4.2", "no such Star in the roster"));
                }
                if self.repick().is_some() && self.picks.iter().any(|l| l.contains(&s)) {
                    return Err(Error::illegal(
                        "ZN-1.2",
                        "this Star is already in the game (unique_stars = \"game\")",
                    ));
                }
                if self.picked_against(player, s) {
                    let rule = if self.options().selection == Selection::Draft {
                        "ZN-4.2"
                    } else {
                        "ZN-1.2"
                    };
                    return Err(Error::illegal(rule, "this Star is already taken"));
                }
                Ok(())
            }
            (Phase::Select { .. }, _) => Err(Error::illegal(
                "ZN-4.2",
                "Star selection: the only action is pick <star>",
            )),
            (Phase::Place { step }, Action::Place { slot, zone }) => {
                let p = self.placement_order().get(step).copied().unwrap_or(0);
                let slot = usize::from(slot);
                if slot >= sh.per_player {
                    return Err(Error::illegal("ZN-4.4", "no such Star slot"));
                }
                let s = p * sh.per_player + slot;
                if self.stars[s].zone.is_some() {
                    return Err(Error::illegal("ZN-4.4", "this Star is already placed"));
                }
                let h = sh
                    .zones
                    .get(usize::from(zone))
                    .copied()
                    .ok_or_else(|| Error::illegal("ZN-4.4", "no such zone"))?;
                if !sh.map.has_tag(h, self.placement_tag(p)) {
                    return Err(Error::illegal(
                        "ZN-4.4",
                        "not one of this player's placement zones (start or privilege)",
                    ));
                }
                if self.board.occupant(h).is_some() {
                    return Err(Error::illegal("ZN-2.2", "a zone holds one Star"));
                }
                Ok(())
            }
            (Phase::Place { .. }, _) => Err(Error::illegal(
                "ZN-4.4",
                "placement: the only action is place <slot> <q,r>",
            )),
            (Phase::Main, a) => match self.offers.front() {
                Some(&o) => match a {
                    Action::React { ability, alt } => Ok(self.check_react(o, ability, alt)?),
                    Action::Decline => Ok(()),
                    _ => Err(Error::illegal(
                        "ZN-9.4",
                        "a reaction window is open: react or decline",
                    )),
                },
                None => self.check_main(a),
            },
        }
    }

    fn check_main(&self, a: Action) -> Result<()> {
        let sh = &self.shared;
        let p = self.turn_player();
        match (self.play, a) {
            (_, Action::React { .. } | Action::Decline) => {
                Err(Error::illegal("ZN-9.4", "no reaction window is open"))
            }
            (None, Action::Play(slot)) => {
                let slot = usize::from(slot);
                if slot >= sh.per_player {
                    return Err(Error::illegal("ZN-6.1", "no such Star slot"));
                }
                let s = p * sh.per_player + slot;
                if !self.alive(s) {
                    return Err(Error::illegal("ZN-6.1", "this Star is out of the game"));
                }
                if self.stars[s].played {
                    return Err(Error::illegal("ZN-5.4", "this Star has played this turn"));
                }
                Ok(())
            }
            (None, Action::EndTurn) => Ok(()),
            (
                Some(play),
                Action::Activate {
                    ability,
                    target,
                    alt,
                },
            ) => Ok(self.check_activate(play, ability, target, alt)?),
            (None, _) => Err(Error::illegal(
                "ZN-6.1",
                "between plays: play <slot> or end turn",
            )),
            (Some(_), Action::Play(_)) => Err(Error::illegal(
                "ZN-5.4",
                "plays of different Stars do not interleave: end this play first",
            )),
            (Some(_), Action::EndTurn) => {
                Err(Error::illegal("ZN-6.1", "end the play before the turn"))
            }
            (Some(play), Action::Move(zone)) => {
                let to = sh
                    .zones
                    .get(usize::from(zone))
                    .copied()
                    .ok_or_else(|| Error::illegal("ZN-6.2", "no such zone"))?;
                let from = self.stars[play.star].zone.unwrap_or(to);
                if from == to {
                    return Err(Error::illegal("ZN-6.2", "the Star is already there"));
                }
                if self.movement_closed(play) {
                    return Err(Error::illegal(
                        "ZN-6.2",
                        "all movement comes before the activation (split_movement = false)",
                    ));
                }
                let left = self.agilidade(play.star).saturating_sub(play.moved);
                if self
                    .reach_bits(from, left)
                    .is_some_and(|bits| bits.checked_shr(u32::from(zone)).unwrap_or(0) & 1 == 1)
                {
                    return Ok(());
                }
                // Not within reach (or a map the bitsets do not cover): the cheapest path
                // says how far it is, or that there is no way.
                match self.board.path(from, to) {
                    Ok(Some((_, cost))) if cost <= u64::from(left) => Ok(()),
                    Ok(Some(_)) => Err(Error::illegal(
                        "ZN-6.2",
                        format!("further than the {left} zones of movement left"),
                    )),
                    _ => Err(Error::illegal(
                        "ZN-2.8",
                        "no way there: Stars, obstacles and void block the path",
                    )),
                }
            }
            (Some(play), Action::Collect) => match self.can_collect(play) {
                Collect::Yes => Ok(()),
                Collect::ActivationUsed => Err(Error::illegal(
                    "ZN-6.4",
                    "the play's activation is already used",
                )),
                Collect::NoMarker => {
                    Err(Error::illegal("ZN-12.2", "no Renown marker on this zone"))
                }
            },
            (Some(_), Action::EndPlay) => Ok(()),
            (Some(_), _) => Err(Error::illegal(
                "ZN-6.1",
                "during a play: move, use an ability, collect or end play",
            )),
        }
    }

    /// The legal actions in ascending id order.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        let sh = &self.shared;
        match self.phase {
            Phase::Over => {}
            Phase::Select { .. } => {
                for s in 0..sh.content.stars.len() {
                    let a = Action::Pick(s as u8);
                    if self.check(a).is_ok() {
                        out.push(a);
                    }
                }
            }
            Phase::Place { step } => {
                let p = self.placement_order().get(step).copied().unwrap_or(0);
                // The free zones are the same for every unplaced Star: listed once.
                let mut ids: Vec<u8> = self
                    .placement_zones(p)
                    .iter()
                    .filter(|&&h| self.board.occupant(h).is_none())
                    .filter_map(|&h| sh.zone_id(h).map(|z| z as u8))
                    .collect();
                ids.sort_unstable();
                for slot in 0..sh.per_player {
                    if self.stars[p * sh.per_player + slot].zone.is_some() {
                        continue;
                    }
                    out.extend(ids.iter().map(|&zone| Action::Place {
                        slot: slot as u8,
                        zone,
                    }));
                }
            }
            Phase::Main => match (self.offers.front(), self.play) {
                (Some(&o), _) => self.reactions(o, out),
                (None, None) => {
                    let p = self.turn_player();
                    for s in self.still_to_play(p) {
                        out.push(Action::Play((s - p * sh.per_player) as u8));
                    }
                    out.push(Action::EndTurn);
                }
                (None, Some(play)) => {
                    self.moves(play, out);
                    self.activations(play, out);
                    if self.can_collect(play) == Collect::Yes {
                        out.push(Action::Collect);
                    }
                    out.push(Action::EndPlay);
                }
            },
        }
    }

    /// Whether the play has a move left: a free zone next to the Star that the movement left
    /// pays for (the first step of any move).
    fn can_move(&self, play: Play) -> bool {
        let Some(from) = self.stars[play.star].zone else {
            return false;
        };
        let left = self.agilidade(play.star).saturating_sub(play.moved);
        left > 0
            && !self.movement_closed(play)
            && crate::hex::coords::neighbors(from).into_iter().any(|n| {
                self.board.blocker(n).is_none()
                    && self.board.cost(n).is_some_and(|c| c <= u32::from(left))
            })
    }

    /// The zones within `left` zones of movement from `from` (ZN-6.2, ZN-2.8; `from`
    /// included) as bits by zone id, found on the zone bitsets: `None` when they do not
    /// apply (a zone costing more than 2 to enter), where the Dijkstra of `HexMap` decides.
    /// Both move generation and `check` use it.
    pub(super) fn reach_bits(&self, from: Hex, left: u16) -> Option<u64> {
        let start = self.shared.zone_id(from)?;
        if let Some(open) = self.board.unit_open_bits() {
            return Some(self.shared.graph.reachable(start, open, u32::from(left)));
        }
        // Forests and hills (ZN-2.9) cost 2: the two-cost sweep, still on bitsets.
        let (unit, double) = self.board.two_cost_open_bits()?;
        Some(
            self.shared
                .graph
                .reachable_two_costs(start, unit, double, u32::from(left)),
        )
    }

    /// Whether the play may collect a Renown marker now (ZN-6.4, ZN-12.2): `check` and move
    /// generation both ask, and a refusal builds no error here.
    fn can_collect(&self, play: Play) -> Collect {
        if play.activated {
            Collect::ActivationUsed
        } else if self.stars[play.star]
            .zone
            .is_some_and(|h| self.markers.contains(&h))
        {
            Collect::Yes
        } else {
            Collect::NoMarker
        }
    }

    /// The moves of a play: every zone within the movement left (ZN-6.2), by zone id.
    pub(super) fn moves(&self, play: Play, out: &mut Vec<Action>) {
        let Some(from) = self.stars[play.star].zone else {
            return;
        };
        let left = self.agilidade(play.star).saturating_sub(play.moved);
        if left == 0 || self.movement_closed(play) {
            return;
        }
        if let (Some(bits), Some(start)) = (self.reach_bits(from, left), self.shared.zone_id(from))
        {
            // Zone bits ascend with zone ids: the moves come out in id order.
            let mut rest = bits & !(1u64 << start);
            while rest != 0 {
                out.push(Action::Move(rest.trailing_zeros() as u8));
                rest &= rest - 1;
            }
            return;
        }
        let Ok(reach) = self.board.reachable(from, u64::from(left)) else {
            return;
        };
        let mut ids: Vec<u8> = reach
            .into_iter()
            .filter(|&(h, c)| c > 0 && h != from)
            .filter_map(|(h, _)| self.shared.zone_id(h).map(|z| z as u8))
            .collect();
        ids.sort_unstable();
        out.extend(ids.into_iter().map(Action::Move));
    }

    /// Check, then apply. On `Err` nothing changed.
    pub fn apply(&mut self, a: Action) -> Result<()> {
        self.check(a)?;
        self.apply_unchecked(a);
        Ok(())
    }

    /// The effect of an action `check` accepted.
    pub fn apply_unchecked(&mut self, a: Action) {
        let k = self.shared.per_player;
        if self.phase == Phase::Main {
            // ZN-12.7: who is still standing as the decision starts, for a game in which the
            // last Stars of every side fall in it.
            self.standing_before = (0..self.shared.num_teams())
                .filter(|&t| self.team_in_game(t))
                .fold(0, |bits, t| bits | (1 << t));
        }
        match (self.phase, a) {
            (Phase::Select { player }, Action::Pick(s)) => {
                let s = usize::from(s);
                match self.repick() {
                    // ZN-1.2: the clashing pick is replaced, visibly.
                    Some((p, slot)) => {
                        if let Some(r) = Arc::make_mut(&mut self.picks)
                            .get_mut(p)
                            .and_then(|l| l.get_mut(slot))
                        {
                            *r = s;
                        }
                    }
                    None => Arc::make_mut(&mut self.picks)[player].push(s),
                }
                self.after_pick();
            }
            (Phase::Place { step }, Action::Place { slot, zone }) => {
                let p = self.placement_order().get(step).copied().unwrap_or(0);
                let s = p * k + usize::from(slot);
                let h = self.shared.zones[usize::from(zone)];
                self.stars[s].zone = Some(h);
                // The zone exists and is free (checked): setting the occupant cannot fail.
                let _ = self.board_mut().set_occupant(h, Some(s as u32));
                self.sync_continuous();
                if step + 1 < self.placement_order().len() {
                    self.phase = Phase::Place { step: step + 1 };
                } else {
                    self.phase = Phase::Main;
                    self.round = 1;
                    self.turn = 0;
                    self.begin_turn();
                }
            }
            (Phase::Main, Action::Play(slot)) => {
                let s = self.turn_player() * k + usize::from(slot);
                self.play = Some(Play {
                    star: s,
                    moved: 0,
                    activated: false,
                    activations: 0,
                });
                self.settle_play();
            }
            (Phase::Main, Action::Move(zone)) => {
                if let Some(mut play) = self.play {
                    let to = self.shared.zones[usize::from(zone)];
                    if let Some(from) = self.stars[play.star].zone {
                        // HexMap::path's path (ZN-6.3), found on the zone bitsets.
                        let graph = &self.shared.graph;
                        if let Ok(Some((path, cost))) = self.board.zone_path(graph, from, to) {
                            play.moved += cost as u16;
                            self.play = Some(play);
                            // The path's first zone is the start: the rest are entered.
                            self.relocate(play.star, path.get(1..).unwrap_or(&[]));
                        }
                    }
                    self.settle_events();
                    self.after_action();
                }
            }
            (
                Phase::Main,
                Action::Activate {
                    ability,
                    target,
                    alt,
                },
            ) => self.activate(ability, target, alt),
            (Phase::Main, Action::Collect) => {
                if let Some(mut play) = self.play {
                    play.activated = true;
                    play.activations = play.activations.saturating_add(1);
                    self.play = Some(play);
                    if let Some(h) = self.stars[play.star].zone {
                        Arc::make_mut(&mut self.markers).retain(|&m| m != h);
                        self.stars[play.star].renown += 1;
                        self.check_target();
                    }
                    self.after_action();
                }
            }
            (Phase::Main, Action::React { ability, alt }) => {
                if let Some(o) = self.offers.pop_front() {
                    self.use_ability(o.star, ability, alt);
                    self.fire(o.star, ability, o.source);
                    self.settle_events();
                }
                self.after_action();
            }
            (Phase::Main, Action::Decline) => {
                self.offers.pop_front();
                self.after_action();
            }
            (Phase::Main, Action::EndPlay) => self.end_play(),
            (Phase::Main, Action::EndTurn) => self.end_turn(),
            _ => {}
        }
    }

    /// Pay for ability `i` of star `s` and count its use this round (ZN-10.4, ZN-10.8).
    fn use_ability(&mut self, s: usize, i: u8, alt: bool) {
        let Some(bill) = self.ability(s, i).and_then(|ab| Self::bill(ab, alt).ok()) else {
            return;
        };
        self.pay(s, bill);
        if let Some(u) = self.stars[s].uses.get_mut(usize::from(i)) {
            *u = u.saturating_add(1);
        }
    }

    /// ZN-6.4, ZN-7.1, ZN-9.5: declare and pay an activation; the Stars it includes may
    /// react to being targeted before it resolves.
    fn activate(&mut self, i: u8, target: u8, alt: bool) {
        let Some(mut play) = self.play else { return };
        let s = play.star;
        // The content is shared and immutable: hold it rather than clone the ability.
        let content = Arc::clone(&self.shared.content);
        let Some(ab) = content.stars[self.stars[s].roster]
            .abilities
            .get(usize::from(i))
        else {
            return;
        };
        if !(ab.ultra_rapid && play.activations == 0) {
            play.activated = true;
        }
        play.activations = play.activations.saturating_add(1);
        self.play = Some(play);
        self.use_ability(s, i, alt);
        let h = self.shared.zones[usize::from(target)];
        let declared = Declared {
            star: s,
            ability: i,
            target: h,
        };
        for t in self.affected(s, ab, Some(h)) {
            if self.shared.team(self.shared.owner(t)) != self.shared.team(self.shared.owner(s)) {
                self.event(t, Trigger::Targeted, Some(s));
            }
        }
        self.settle_events();
        if self.offers.is_empty() {
            self.resolve_declared(declared);
            self.settle_events();
        } else {
            self.resume = Resume::Activation(declared);
        }
        self.after_action();
    }

    /// After a decision: the next open reaction window decides; once none is left the
    /// suspended step goes on (a declared activation, the end of a turn), then the victory
    /// check (ZN-12.6) and the play or turn continue.
    fn after_action(&mut self) {
        if self.over() {
            return;
        }
        loop {
            while let Some(&o) = self.offers.front() {
                if self.offer_useful(o) {
                    return;
                }
                self.offers.pop_front();
            }
            match std::mem::take(&mut self.resume) {
                Resume::Activation(d) => {
                    self.resolve_declared(d);
                    self.settle_events();
                }
                // ZN-9.5, `reactions_interrupt`: the rest of a suspended ability.
                Resume::Resolution(r) => {
                    self.continue_resolution(*r);
                    self.settle_events();
                }
                Resume::EndTurn => {
                    self.finish_turn();
                    return;
                }
                Resume::Main => break,
            }
        }
        if self.phase == Phase::Over || self.check_victory() {
            return;
        }
        match self.play {
            Some(_) => self.settle_play(),
            None => {
                let p = self.turn_player();
                if self.still_to_play(p).next().is_none() {
                    self.end_turn();
                }
            }
        }
    }

    /// After a pick: the next picker, or the reveal and initiative (ZN-4.2, ZN-4.3).
    fn after_pick(&mut self) {
        let sh = Arc::clone(&self.shared);
        let (n, k) = (sh.players, sh.per_player);
        let done: usize = self.picks.iter().map(Vec::len).sum();
        if done < n * k {
            let next = match self.options().selection {
                Selection::Draft => done % n,
                Selection::Secret => done / k,
            };
            self.phase = Phase::Select { player: next };
            return;
        }
        if let Some((player, _)) = self.repick() {
            self.phase = Phase::Select { player };
            return;
        }
        self.stars = (0..n * k)
            .map(|s| {
                let roster = self.picks[s / k][s % k];
                let d = &sh.content.stars[roster];
                StarState {
                    roster,
                    zone: None,
                    vida: d.vida,
                    amago: d.amago,
                    armadura: u16::from(d.armadura),
                    renown: 0,
                    defeated: false,
                    played: false,
                    effects: Vec::new(),
                    uses: [0; super::content::ABILITIES],
                    continuous_armadura: 0,
                }
            })
            .collect();
        self.roll_initiative();
        self.phase = Phase::Place { step: 0 };
    }

    /// ZN-4.3: a d6 per player (per team in the team mode), highest first, ties rerolled
    /// among the tied; teams then alternate, lower seat first.
    fn roll_initiative(&mut self) {
        let sh = Arc::clone(&self.shared);
        let sides: Vec<usize> = if sh.mode().teams {
            vec![0, 1]
        } else {
            (0..sh.players).collect()
        };
        let ranked = self.rank(sides);
        self.order = Arc::new(if sh.mode().teams {
            let (a, b) = (ranked[0], ranked[1]);
            vec![a, b, a + 2, b + 2]
        } else {
            ranked
        });
    }

    /// Order `sides` by d6 rolls, rerolling ties among the tied (recursively).
    fn rank(&mut self, sides: Vec<usize>) -> Vec<usize> {
        if sides.len() <= 1 {
            return sides;
        }
        let rolls: Vec<(usize, u8)> = sides.iter().map(|&s| (s, self.rng.roll(6) as u8)).collect();
        Arc::make_mut(&mut self.rolls).push(rolls.clone());
        let mut out = Vec::new();
        for die in (1..=6u8).rev() {
            let tied: Vec<usize> = rolls
                .iter()
                .filter(|&&(_, d)| d == die)
                .map(|&(s, _)| s)
                .collect();
            out.extend(self.rank(tied));
        }
        out
    }

    /// First Maintenance (ZN-5.3) of the player whose turn begins.
    fn begin_turn(&mut self) {
        let p = self.turn_player();
        for s in self.stars_of(p) {
            if !self.alive(s) {
                continue;
            }
            let max_amago = self.star_data(s).amago;
            // The current maximum: printed Armadura with its buffs and debuffs.
            let max_armadura = self.stat(s, Stat::Armadura).max(0) as u16;
            let st = &mut self.stars[s];
            st.amago = (st.amago + AMAGO_REGEN).min(max_amago);
            st.armadura = max_armadura;
            st.played = false;
        }
        self.first_maintenance_effects(p);
        // (4) turn_start passives and reactions, Star by Star in team order.
        for s in self.stars_of(p) {
            if self.alive(s) {
                self.event(s, Trigger::TurnStart, None);
            }
        }
        self.settle_events();
        while let Some(&o) = self.offers.front() {
            if self.offer_useful(o) {
                break;
            }
            self.offers.pop_front();
        }
    }

    /// End a play early when nothing but `end play` is left (ZN-6.6).
    fn settle_play(&mut self) {
        let Some(play) = self.play else { return };
        if !self.can_move(play)
            && self.can_collect(play) != Collect::Yes
            && !self.any_activation(play)
        {
            self.end_play();
        }
    }

    fn end_play(&mut self) {
        if let Some(play) = self.play.take() {
            self.stars[play.star].played = true;
        }
        let p = self.turn_player();
        if self.still_to_play(p).next().is_none() {
            self.end_turn();
        }
    }

    /// Second Maintenance and the next turn (ZN-5.5, ZN-5.1, ZN-5.8).
    fn end_turn(&mut self) {
        self.play = None;
        let p = self.turn_player();
        // (1) turn_end passives and reactions, then damage over time.
        for s in self.stars_of(p) {
            if self.alive(s) {
                self.event(s, Trigger::TurnEnd, None);
            }
        }
        self.settle_events();
        self.damage_over_time(p);
        self.settle_events();
        if self.over() {
            return;
        }
        self.second_maintenance_effects(p);
        if self.offers.is_empty() {
            self.finish_turn();
        } else {
            self.resume = Resume::EndTurn;
            self.after_action();
        }
    }

    /// The end of Second Maintenance: effects lasting "until the end of the turn" end
    /// (ZN-10.5), the victory check (ZN-5.5), then the next player's turn.
    fn finish_turn(&mut self) {
        let p = self.turn_player();
        self.end_untimed_effects(p);
        if self.check_victory() {
            return;
        }
        let n = self.order.len();
        for _ in 0..n {
            self.turn += 1;
            if self.turn >= n {
                self.turn = 0;
                if self.round >= self.options().max_rounds {
                    self.finish(None);
                    return;
                }
                self.round += 1;
                // ZN-10.8: the uses per round start again.
                for st in &mut self.stars {
                    st.uses = [0; super::content::ABILITIES];
                }
            }
            if self.player_in_game(self.turn_player()) {
                self.begin_turn();
                return;
            }
        }
        self.finish(None);
    }

    /// Whether the game is over (a victory ends it at once, even mid-ability, ZN-12.6).
    pub(crate) fn over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// ZN-12.6: the moment a team's Renown reaches the target the game ends — asked after
    /// every kill, collection and transfer. Returns whether the game is over.
    pub(crate) fn check_target(&mut self) -> bool {
        if self.over() {
            return true;
        }
        let target = u32::from(self.shared.mode().target);
        let teams = self.shared.num_teams();
        // Asked after every Renown change: the list is built only when the game ends.
        if (0..teams).any(|t| self.team_renown(t) >= target) {
            let reached = (0..teams)
                .filter(|&t| self.team_renown(t) >= target)
                .collect();
            self.finish(Some(reached));
            return true;
        }
        false
    }

    /// ZN-12.6, ZN-12.8: a team at the target, or the last team standing, ends the game.
    /// When the last Stars of every side fell in one decision, the tie rule decides among
    /// the sides standing when it began (ZN-12.7).
    pub(crate) fn check_victory(&mut self) -> bool {
        if self.check_target() {
            return true;
        }
        let teams = self.shared.num_teams();
        if (0..teams)
            .filter(|&t| self.team_in_game(t))
            .nth(1)
            .is_none()
        {
            let mut standing: Vec<usize> = (0..teams).filter(|&t| self.team_in_game(t)).collect();
            if standing.is_empty() {
                standing = (0..teams)
                    .filter(|&t| self.standing_before & (1 << t) != 0)
                    .collect();
            }
            // An empty list: every team is a candidate.
            self.finish((!standing.is_empty()).then_some(standing));
            return true;
        }
        false
    }

    /// End the game; among `candidates` (all teams if `None`) the tie rule picks the winner
    /// (ZN-12.7): more Renown, then earlier in the initiative order.
    fn finish(&mut self, candidates: Option<Vec<usize>>) {
        let teams = self.shared.num_teams();
        let candidates = candidates.unwrap_or_else(|| (0..teams).collect());
        let first_turn = |t: usize| {
            self.order
                .iter()
                .position(|&p| self.shared.team(p) == t)
                .unwrap_or(usize::MAX)
        };
        self.winner = candidates
            .iter()
            .copied()
            .min_by_key(|&t| (std::cmp::Reverse(self.team_renown(t)), first_turn(t)));
        self.play = None;
        self.offers.clear();
        self.events.clear();
        self.resume = Resume::Main;
        self.phase = Phase::Over;
    }

    /// The winning player: the winning team's first player in initiative order.
    pub fn winner_player(&self) -> Option<Player> {
        let t = self.winner?;
        self.order
            .iter()
            .copied()
            .find(|&p| self.shared.team(p) == t)
    }

    /// Final utilities: the winning team's players 1, the others -1 (ZN-12.8).
    pub fn returns(&self) -> Vec<f64> {
        let n = self.shared.players;
        match (self.phase, self.winner) {
            (Phase::Over, Some(t)) => (0..n)
                .map(|p| if self.shared.team(p) == t { 1.0 } else { -1.0 })
                .collect(),
            _ => vec![0.0; n],
        }
    }
}
