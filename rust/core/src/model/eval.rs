//! A network as a game's judgement: the hook a search calls for a leaf's value (every
//! player's, as [`Knowledge::evaluate_each`](crate::knowledge::Knowledge::evaluate_each)
//! gives) and for the prior of the legal moves. A network of [`Input::Observation`] reads
//! only the mover's observation, so it sees what the mover may see and nothing else; one of
//! [`Input::Seats`] reads every seat's observation, the whole state, so it is built only by
//! [`ModelEval::for_redraws`], for states redrawn from one player's view.

use super::{Input, Mlp, Scratch};
use crate::error::{Error, Result};
use crate::game::Game;
use std::sync::Arc;

/// A loaded network with the buffers its evaluations reuse (one per search thread; the
/// weights are shared).
#[derive(Clone, Debug)]
pub struct ModelEval {
    mlp: Arc<Mlp>,
    scratch: Scratch,
    obs: Vec<f32>,
    logits: Vec<f32>,
    values: Vec<f32>,
    ids: Vec<usize>,
}

impl ModelEval {
    /// An evaluator of `mlp` for games like `game`, which may be real games: refused when
    /// the network was made for another game or for options that change the observation or
    /// the actions, and for an [`Input::Seats`] network, which would read the hidden cards
    /// of a real game (see [`for_redraws`](Self::for_redraws)).
    pub fn for_game<G: Game>(mlp: Arc<Mlp>, game: &G) -> Result<ModelEval> {
        if mlp.input() == Input::Seats {
            return Err(Error::invalid(format!(
                "model: this {} network reads every seat's view (input=seats), the hidden \
                 cards included; it may only judge states redrawn from one player's view, \
                 as ISMCTS's leaves are, never a real game",
                mlp.game()
            )));
        }
        ModelEval::for_redraws(mlp, game)
    }

    /// An evaluator of `mlp` for states redrawn from one player's view (a search's
    /// determinizations: `resample_hidden`), where every seat's observation shows only
    /// redrawn cards, so an [`Input::Seats`] network is allowed. The caller guarantees
    /// that no real game's state reaches it.
    pub fn for_redraws<G: Game>(mlp: Arc<Mlp>, game: &G) -> Result<ModelEval> {
        let obs: usize = game.observation_shape().iter().product();
        mlp.check_fits(G::NAME, obs, game.num_actions(), game.num_players())?;
        Ok(ModelEval {
            mlp,
            scratch: Scratch::default(),
            obs: Vec::new(),
            logits: Vec::new(),
            values: Vec::new(),
            ids: Vec::new(),
        })
    }

    pub fn model(&self) -> &Arc<Mlp> {
        &self.mlp
    }

    /// Every player's value of `game`, in [-1, 1], into `out` (index: player): the returns
    /// once the game is over, else the network's on the mover's observation.
    pub fn value_each<G: Game>(&mut self, game: &G, out: &mut [f64]) -> Result<()> {
        self.value_batch(std::slice::from_ref(game), out)
    }

    /// [`value_each`](Self::value_each) of several positions in one pass of the network:
    /// `out` holds `games.len()` rows of `num_players` values.
    pub fn value_batch<G: Game>(&mut self, games: &[G], out: &mut [f64]) -> Result<()> {
        let n = self.mlp.num_players();
        let size = self.mlp.input_size();
        if out.len() != games.len() * n {
            return Err(Error::invalid(format!(
                "model: {} values asked for {} positions of {n} players",
                out.len(),
                games.len()
            )));
        }
        self.obs.clear();
        let mut movers = Vec::with_capacity(games.len());
        for (g, row) in games.iter().zip(out.chunks_exact_mut(n)) {
            match g.current_player() {
                Some(p) if !g.is_terminal() => {
                    let at = self.obs.len();
                    self.obs.resize(at + size, 0.0);
                    if let Some(dst) = self.obs.get_mut(at..) {
                        fill_row(self.mlp.input(), g, p, dst);
                    }
                    movers.push(Some(p));
                }
                _ => {
                    let r = g.returns();
                    for (o, v) in row.iter_mut().enumerate() {
                        *v = r.get(o).copied().unwrap_or(0.0);
                    }
                    movers.push(None);
                }
            }
        }
        let rows = self.obs.len() / size.max(1);
        if rows == 0 {
            return Ok(());
        }
        self.values.resize(rows * n, 0.0);
        self.mlp
            .forward_values(&self.obs, rows, &mut self.scratch, &mut self.values)?;
        let mut net = self.values.chunks_exact(n.max(1));
        for (mover, row) in movers.iter().zip(out.chunks_exact_mut(n)) {
            if let Some(p) = *mover {
                if let Some(v) = net.next() {
                    // value[k] belongs to player (mover + k) % n
                    for (k, &x) in v.iter().enumerate() {
                        if let Some(o) = row.get_mut((p + k) % n) {
                            *o = f64::from(x);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Which of `candidates` (legal actions of `game`'s mover) the policy ranks first: its
    /// index (the first of equals), `None` for no candidate or a finished game. One pass
    /// of the network, whatever the number of candidates: the search's expansions ask it
    /// instead of playing and evaluating each candidate.
    pub fn best_by_policy<G: Game>(
        &mut self,
        game: &G,
        candidates: &[G::Action],
    ) -> Result<Option<usize>> {
        let Some(p) = game.current_player() else {
            return Ok(None);
        };
        self.logits_for(game, p, candidates)?;
        let mut best: Option<(usize, f32)> = None;
        for (i, &l) in self.logits.iter().enumerate() {
            if best.is_none_or(|(_, b)| l > b) {
                best = Some((i, l));
            }
        }
        Ok(best.map(|(i, _)| i))
    }

    /// The policy logits of `actions` (in order) on `p`'s observation of `game`, into
    /// `self.logits`.
    fn logits_for<G: Game>(
        &mut self,
        game: &G,
        p: crate::game::Player,
        actions: &[G::Action],
    ) -> Result<()> {
        self.obs.clear();
        self.obs.resize(self.mlp.input_size(), 0.0);
        fill_row(self.mlp.input(), game, p, &mut self.obs);
        self.ids.clear();
        self.ids.extend(actions.iter().map(|&a| game.action_id(a)));
        self.mlp
            .logits_of(&self.obs, &self.ids, &mut self.scratch, &mut self.logits)
    }

    /// The network's prior over `legal` (legal actions of `game`'s mover), in order, into
    /// `out`: the softmax of their logits (summing to 1). Empty `legal`: `out` empty.
    pub fn priors<G: Game>(
        &mut self,
        game: &G,
        legal: &[G::Action],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        out.clear();
        let Some(p) = game.current_player() else {
            return Ok(());
        };
        self.logits_for(game, p, legal)?;
        let top = self
            .logits
            .iter()
            .map(|&l| f64::from(l))
            .fold(f64::NEG_INFINITY, f64::max);
        out.extend(self.logits.iter().map(|&l| (f64::from(l) - top).exp()));
        let sum: f64 = out.iter().sum();
        if sum > 0.0 && sum.is_finite() {
            for v in out.iter_mut() {
                *v /= sum;
            }
        } else {
            let even = 1.0 / legal.len().max(1) as f64;
            out.iter_mut().for_each(|v| *v = even);
        }
        Ok(())
    }
}

/// `p`'s input row of `game` for a network reading `input`, into `dst` (its length): the
/// observation of `p`, or every seat's in turn from `p` ([`Input::Seats`]).
pub fn fill_row<G: Game>(input: Input, game: &G, p: crate::game::Player, dst: &mut [f32]) {
    match input {
        Input::Observation => game.observation(p, dst),
        Input::Seats => {
            let n = game.num_players().max(1);
            let size = dst.len() / n;
            for (k, chunk) in dst.chunks_exact_mut(size.max(1)).enumerate().take(n) {
                game.observation((p + k) % n, chunk);
            }
        }
    }
}
