//! The state of a game: setup progress, the Stars on the board, markers, the turn.

use std::collections::VecDeque;
use std::sync::Arc;

use super::ability::Trigger;
use super::content::ABILITIES;
use super::content::{Content, Mode};
use super::options::Options;
use crate::game::Player;
use crate::hex::{Hex, HexMap, ZoneGraph};
use crate::rng::GameRng;

/// What does not change during a game: content, options, the mode and the map's zones.
#[derive(Debug)]
pub struct Shared {
    pub content: Arc<Content>,
    pub options: Options,
    /// Index of the mode in `content.modes`.
    pub mode: usize,
    /// The map, without occupants.
    pub map: HexMap,
    /// The zones in `map.zones()` order: zone ids in actions and observations.
    pub zones: Vec<Hex>,
    /// The zones' adjacency, ranges and axes as bitsets by zone id (a battlefield has at
    /// most 64 zones): move and target generation run on it. The content's, shared.
    pub graph: Arc<ZoneGraph>,
    /// Each zone's terrain modifiers by zone id (ZN-2.9).
    pub terrain: Vec<super::terrain::Modifiers>,
    pub players: usize,
    /// Stars per player.
    pub per_player: usize,
}

impl Shared {
    pub fn mode(&self) -> &Mode {
        &self.content.modes[self.mode]
    }
    pub fn team(&self, p: Player) -> usize {
        self.mode().team_of(p)
    }
    pub fn num_teams(&self) -> usize {
        self.mode().num_teams(self.players)
    }
    pub fn zone_id(&self, h: Hex) -> Option<usize> {
        self.map.zone_index(h)
    }
    /// The terrain modifiers of a zone (ZN-2.9); none off the map.
    pub fn modifiers(&self, h: Option<Hex>) -> super::terrain::Modifiers {
        h.and_then(|h| self.zone_id(h))
            .and_then(|z| self.terrain.get(z).copied())
            .unwrap_or_default()
    }
    /// Star slots in the game (every player's).
    pub fn num_stars(&self) -> usize {
        self.players * self.per_player
    }
    pub fn owner(&self, star: usize) -> Player {
        star / self.per_player
    }
}

/// Where the game is (ZN-4, ZN-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Star selection: whose pick it is.
    Select {
        player: Player,
    },
    /// Placement: index into the placement order.
    Place {
        step: usize,
    },
    /// The Main phase of `order[turn]`'s turn.
    Main,
    Over,
}

/// One Star in the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StarState {
    /// Index in the roster.
    pub roster: usize,
    /// Its zone; `None` before placement and once defeated.
    pub zone: Option<Hex>,
    pub vida: u16,
    pub amago: u16,
    /// Current Armadura (absorbs damage, restored each turn).
    pub armadura: u16,
    pub renown: u16,
    pub defeated: bool,
    /// Plays made this turn (0 or 1).
    pub played: bool,
    /// Lasting effects on the Star (ZN-11).
    pub effects: Vec<super::effects::Applied>,
    /// Activations of each ability this round, reactions included (ZN-10.6, ZN-10.8).
    pub uses: [u8; ABILITIES],
    /// The Armadura its continuous passives add now, already in `armadura` (ZN-11.1):
    /// follows the board, so it is not part of the saved state.
    pub continuous_armadura: i8,
}

/// The play in progress (ZN-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Play {
    pub star: usize,
    /// Zones moved so far.
    pub moved: u16,
    /// The play's activation was used (an ability, or collecting Renown).
    pub activated: bool,
    /// Activations made in this play, ultra-rapid ones and collecting included: an
    /// ultra-rapid ability is free only as the first (ZN-10.7).
    pub activations: u8,
}

/// A reaction window (ZN-9.4): the Star whose player decides now, what triggered it and the
/// Star that caused it (the target of a `source` reaction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    pub star: usize,
    pub trigger: Trigger,
    pub source: Option<usize>,
}

/// An activation declared and paid for, waiting for the `targeted` reactions it drew before
/// its dice are rolled (ZN-9.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declared {
    pub star: usize,
    pub ability: u8,
    pub target: Hex,
}

/// What the game goes on with once the reaction windows are all closed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Resume {
    /// The Main phase: the open play, or the next play.
    #[default]
    Main,
    /// Resolve a declared activation (its `targeted` windows are closed).
    Activation(Declared),
    /// Finish the turn's Second Maintenance: the victory check and the next turn.
    EndTurn,
    /// The rest of an ability's resolution, suspended at a reaction window
    /// (`reactions_interrupt`, ZN-9.5).
    Resolution(Box<super::resolution::Resolution>),
}

#[derive(Clone, Debug)]
pub struct Zinordia {
    pub shared: Arc<Shared>,
    pub phase: Phase,
    /// Roster picks per player, in pick order (ZN-4.2); slot `i` is `picks[p][i]`.
    /// Shared between a state and its copies (a write copies it: `Arc::make_mut`), as are
    /// `order`, `rolls` and `markers`: a search copies states far more often than it
    /// changes these.
    pub picks: Arc<Vec<Vec<usize>>>,
    /// Initiative: players in turn order (ZN-4.3).
    pub order: Arc<Vec<Player>>,
    /// Every initiative roll, round by round: (player or team, die).
    pub rolls: Arc<Vec<Vec<(usize, u8)>>>,
    /// Star slots `p * per_player + i`; empty until selection ends.
    pub stars: Vec<StarState>,
    /// The map with Stars as occupants (occupant = star slot). Shared between a state and
    /// its copies until one of them moves a Star ([`Zinordia::board_mut`]): a search copies
    /// states far more often than it moves Stars in them.
    pub board: Arc<HexMap>,
    /// Zones holding a Renown marker.
    pub markers: Arc<Vec<Hex>>,
    pub round: u16,
    /// Index into `order` of the player whose turn it is.
    pub turn: usize,
    pub play: Option<Play>,
    pub rng: GameRng,
    /// Open reaction windows, asked in order (ZN-9.4); the first one decides now, also
    /// during another player's turn.
    pub offers: VecDeque<Offer>,
    /// What follows once `offers` is empty.
    pub resume: Resume,
    /// Events of the resolution in progress, settled before the action returns: always
    /// empty between actions (`resolve.rs`).
    pub events: Vec<super::resolve::Event>,
    /// The last attack's dice, public once rolled (ZN-7.6).
    pub last_roll: Option<super::combat::AttackRoll>,
    /// The winning team once over (`None`: not over, or a draw).
    pub winner: Option<usize>,
    /// Bits of the teams with a Star on the board when the decision in progress began
    /// (ZN-12.7); not part of the saved state.
    pub standing_before: u64,
}

impl Zinordia {
    pub fn options(&self) -> &Options {
        &self.shared.options
    }
    pub fn num_players(&self) -> usize {
        self.shared.players
    }
    /// The player whose turn it is (Main phase).
    pub fn turn_player(&self) -> Player {
        self.order.get(self.turn).copied().unwrap_or(0)
    }
    pub fn stars_of(&self, p: Player) -> std::ops::Range<usize> {
        let k = self.shared.per_player;
        p * k..(p + 1) * k
    }
    pub fn alive(&self, s: usize) -> bool {
        self.stars
            .get(s)
            .is_some_and(|st| !st.defeated && st.zone.is_some())
    }
    /// `p`'s Stars still to play this turn (ZN-5.4): alive and not played yet, in slot order.
    pub fn still_to_play(&self, p: Player) -> impl Iterator<Item = usize> + '_ {
        self.stars_of(p)
            .filter(move |&s| self.alive(s) && !self.stars[s].played)
    }
    /// A team's Renown (ZN-12.5).
    pub fn team_renown(&self, team: usize) -> u32 {
        (0..self.stars.len())
            .filter(|&s| self.shared.team(self.shared.owner(s)) == team)
            .map(|s| u32::from(self.stars[s].renown))
            .sum()
    }
    /// Whether a team has a Star on the board (ZN-5.7).
    pub fn team_in_game(&self, team: usize) -> bool {
        (0..self.stars.len())
            .any(|s| self.shared.team(self.shared.owner(s)) == team && self.alive(s))
    }
    pub fn player_in_game(&self, p: Player) -> bool {
        self.stars_of(p).any(|s| self.alive(s))
    }
    /// The board to change (a Star placed, moved or removed): this state's own copy.
    pub fn board_mut(&mut self) -> &mut HexMap {
        Arc::make_mut(&mut self.board)
    }
    /// The roster entry of a star slot.
    pub fn star_data(&self, s: usize) -> &super::content::Star {
        &self.shared.content.stars[self.stars[s].roster]
    }
}
