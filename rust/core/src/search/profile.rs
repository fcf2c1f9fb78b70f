//! The agents' settings for each game (its profile): what `Greedy()` and `ISMCTS()` use
//! where their configuration leaves a setting to the game. Kept here, on the agents' side,
//! so the games know their rules and judgement only; how each was chosen is in
//! research/README.md.

use crate::game::Game;

/// The search settings a game asks for where an agent leaves them to the game
/// ([`search_params`]): what `Greedy()` and `ISMCTS()` use by default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// ISMCTS's UCB exploration constant `c` (rewards in [0, 1]): it should fit the spread
    /// of the game's `evaluate` between good and bad moves.
    pub exploration: f64,
    /// Greedy's redraws of what the mover cannot see (future dice included) per move: a
    /// game whose moves meet chance needs several to score a move by its expected result.
    pub greedy_samples: u32,
    /// Greedy judges a move after the rest of the mover's turn is played by the game's
    /// rule-based player ([`Knowledge::heuristic_action`](crate::knowledge::Knowledge::heuristic_action)), then `evaluate`: a one-step
    /// improvement over the heuristic player (the rollout algorithm), for games whose turn
    /// is many decisions. `false`: the position right after the move is evaluated.
    pub greedy_settle: bool,
    /// ISMCTS's settle when its configuration leaves it to the game (`settle` unset):
    /// before a leaf is scored, the player who just moved finishes their turn with the
    /// game's heuristic move ([`Knowledge::heuristic_action`](crate::knowledge::Knowledge::heuristic_action)), so leaves are scored between
    /// turns. Off by default.
    pub ismcts_settle: bool,
    /// With `ismcts_settle`: how many whole turns a settle finishes ([`Game::turn_owner`],
    /// reactions of other players inside a turn included): 1 the leaf's own, as Greedy's
    /// settle does, 2 that and the reply turn; 0: only while the player who just moved is
    /// to move.
    pub ismcts_settle_turns: u32,
    /// ISMCTS's `routine` when its configuration leaves it to the game: below the root,
    /// the decisions [`Knowledge::routine_action`](crate::knowledge::Knowledge::routine_action) names are played by that rule instead of
    /// being branched on.
    pub ismcts_routine: bool,
    /// ISMCTS's `expand_samples` when its configuration leaves it to the game: how many
    /// untried actions, drawn at random, `evaluate` judges at each expansion below the root
    /// (0/1: a random one).
    pub ismcts_expand_samples: u32,
    /// ISMCTS's `halving` when its configuration leaves it to the game: `m >= 2` runs the
    /// root as sequential halving over the `m` root actions Greedy judges best, every
    /// candidate searched on the same redraws; 0: the root is a UCB node like the rest.
    pub ismcts_halving: u32,
    /// ISMCTS's `first_reply_expand` when its configuration leaves it to the game: how
    /// many untried actions `evaluate` judges at each expansion of the reply to the root's
    /// move (the first node where another player moves); 0: `ismcts_expand_samples`, as
    /// everywhere.
    pub ismcts_first_reply_expand: u32,
    /// ISMCTS's `finalist_depth` when its configuration leaves it to the game: extra plies
    /// below each leaf in the halving's last round (0: none).
    pub ismcts_finalist_depth: u32,
    /// ISMCTS's `finalist_expand` when its configuration leaves it to the game: the moves
    /// judged at each of those plies.
    pub ismcts_finalist_expand: u32,
    /// ISMCTS's `finalist_heuristic` when its configuration leaves it to the game: those
    /// plies played by the game's rule-based player instead of judged by `evaluate`.
    pub ismcts_finalist_heuristic: bool,
}

impl SearchParams {
    /// What a game gets unless it says otherwise (measured on Battle Line, docs/agents.md).
    pub const DEFAULT: SearchParams = SearchParams {
        exploration: 0.1,
        greedy_samples: 1,
        greedy_settle: false,
        ismcts_settle: false,
        ismcts_settle_turns: 0,
        ismcts_routine: false,
        ismcts_expand_samples: 8,
        ismcts_halving: 0,
        ismcts_first_reply_expand: 0,
        ismcts_finalist_depth: 0,
        ismcts_finalist_expand: 8,
        ismcts_finalist_heuristic: false,
    };
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

/// The profile of the game named `name` (a [`Game::NAME`]); [`SearchParams::DEFAULT`] for
/// a game without one.
pub fn search_params_of(name: &str) -> SearchParams {
    match name {
        "battleline" => BATTLE_LINE,
        "strifull" => STRIFULL,
        "arte" => ARTE,
        "zinordia" => ZINORDIA,
        _ => SearchParams::DEFAULT,
    }
}

/// The profile of game `G`: the settings its agents use unless told otherwise.
pub fn search_params<G: Game>() -> SearchParams {
    search_params_of(G::NAME)
}

/// Battle Line: Greedy on 3 redraws, since `evaluate` reads the opponent's redrawn hand; c =
/// 0.2; claims and the draw by rule; root halving over 8 with the finalists two rule-based
/// plies deeper; the reply to the root's move, re-expanded every iteration, among 16
/// candidates (research/issue-14-round30.md and the rounds it cites).
pub const BATTLE_LINE: SearchParams = SearchParams {
    exploration: 0.2,
    greedy_samples: 3,
    ismcts_routine: true,
    ismcts_expand_samples: 4,
    ismcts_halving: 8,
    ismcts_first_reply_expand: 16,
    ismcts_finalist_depth: 2,
    ismcts_finalist_expand: 4,
    ismcts_finalist_heuristic: true,
    ..SearchParams::DEFAULT
};

/// STRIFULL: every attack is settled by dice, so Greedy judges a move on 16 redraws and
/// ISMCTS scores a leaf with its turn's attack played; root halving over 64
/// (research/issue-14.md, research/issue-14-round16.md).
pub const STRIFULL: SearchParams = SearchParams {
    greedy_samples: 16,
    ismcts_settle: true,
    ismcts_halving: 64,
    ..SearchParams::DEFAULT
};

/// Arte da Guerra: a leaf's value swings by whole cards of the victory-pile lead, so c = 0.2;
/// root halving over 64 (research/issue-14.md, research/issue-14-round18.md).
pub const ARTE: SearchParams = SearchParams {
    exploration: 0.2,
    ismcts_halving: 64,
    ..SearchParams::DEFAULT
};

/// Zinordia: a turn is many decisions, so moves and leaves are judged after the rule-based
/// player finishes the turn, on 4 redraws as attacks roll dice; its routine decisions by rule
/// (research/issue-14-round11-zin.md, research/issue-14-round19.md).
pub const ZINORDIA: SearchParams = SearchParams {
    greedy_samples: 4,
    greedy_settle: true,
    ismcts_settle: true,
    ismcts_settle_turns: 1,
    ismcts_routine: true,
    ismcts_expand_samples: 8,
    ..SearchParams::DEFAULT
};
