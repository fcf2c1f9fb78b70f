//! Many games stepped together, for reinforcement learning: a vectorized environment.
//!
//! `Batch` holds `n` games. Each call takes one action id per game and writes, per game,
//! the observation of the player to move, the mask of legal action ids, who is to move,
//! the returns of a game that just ended and a done flag, into caller-owned flat buffers
//! (numpy arrays, from Python). A game that ends is replaced at once by a new one
//! (auto-reset), so the observation after `done` is the new game's first position; the
//! ended game's last observation (for the player who moved) goes to `final_obs`.
//!
//! With an `opponent`, the learner plays one seat of every game (fixed, or rotating game by
//! game) and the opponent's moves, for every other seat, are played in Rust inside the same
//! call. In a team game the opponent also plays the learner's partners.
//!
//! Observations are `f32`, or, for a game with a compact form (Battle Line), `u8` whole
//! counts that divide back to the `f32` values exactly ([`Game::observation_divisors`]): a
//! quarter of the bytes, and a step that has to write them to memory is that much cheaper.
//! Masks are one `bool` per action id, or packed eight ids a byte ([`Mask::Bits`], laid out
//! as numpy's `packbits(..., bitorder="little")`): an eighth of the bytes.
//!
//! Any number of players: `rewards` holds every player's return (`n * players`), as
//! [`Game::returns`] gives them, so in a team game partners get their team's reward.
//!
//! Game `i` draws the seeds of its successive games (and of its opponent) from
//! `GameRng::stream(seed, i)`, so everything depends only on the seed and the actions,
//! never on the thread count. Large batches are stepped on a rayon pool, in chunks of
//! games.

use crate::error::{Error, Result};
use crate::game::{Game, ObsValue};
use crate::knowledge::Knowledge;
use crate::rng::GameRng;
use crate::search::{Agent, AgentSpec};
use crate::session::{DynGame, Session};
use serde_json::{Map, Value};
use std::iter::repeat_with;
use std::sync::{Mutex, PoisonError};

/// Batches smaller than this are stepped on the calling thread.
pub const PARALLEL_MIN: usize = 128;

/// The legal-action masks a call writes, game-major.
pub enum Mask<'a> {
    /// `n * num_actions` flags.
    Bools(&'a mut [bool]),
    /// `n * num_actions.div_ceil(8)` bytes, as `np.packbits(mask, axis=-1,
    /// bitorder="little")` lays out the flags: id `a` of a game is bit `a % 8` (counting
    /// from the least significant) of byte `a / 8` of its row; the bits past `num_actions`
    /// are 0. Each row is written whole, so a reused buffer is never cleared first.
    Bits(&'a mut [u8]),
}

impl<'a> Mask<'a> {
    /// Items per game: flags, or bytes of bits.
    pub fn row_len(&self, num_actions: usize) -> usize {
        match self {
            Mask::Bools(_) => num_actions,
            Mask::Bits(_) => num_actions.div_ceil(8),
        }
    }

    fn len(&self) -> usize {
        match self {
            Mask::Bools(m) => m.len(),
            Mask::Bits(m) => m.len(),
        }
    }

    /// The first `games` games' rows (of `row` items each), and the rest.
    fn split(self, games: usize, row: usize) -> (Self, Self) {
        match self {
            Mask::Bools(m) => {
                let (a, b) = split(m, games, row);
                (Mask::Bools(a), Mask::Bools(b))
            }
            Mask::Bits(m) => {
                let (a, b) = split(m, games, row);
                (Mask::Bits(a), Mask::Bits(b))
            }
        }
    }
}

/// The per-game outputs every call writes: flat, game-major. The observations are `f32`,
/// or `u8` for the compact observation of a game that has one
/// ([`Game::observation_divisors`]).
pub struct Views<'a, T: ObsValue = f32> {
    /// `n * obs_len` elements.
    pub obs: &'a mut [T],
    /// Flags or bits (see [`Mask`]).
    pub mask: Mask<'a>,
    /// `n` players to move.
    pub player: &'a mut [i64],
    /// `n * obs_len` elements, or empty when not wanted: where a game ends in `step`, the
    /// final observation of the player who moved in it (other rows are left as they are).
    pub final_obs: &'a mut [T],
    /// The caller guarantees `mask` is all false (a fresh buffer), so flags need not be
    /// cleared first. (Observations are written whole: `Game::observation` writes every
    /// element, so reused `obs` / `final_obs` buffers are never cleared.)
    pub zeroed: bool,
}

struct Env<G: Knowledge> {
    session: Session<G>,
    rng: GameRng,
    /// Games of this slot that reached their end (not those abandoned by `reset`).
    finished: u64,
    /// The legal actions, ascending by id; empty when the game wrote the kept words itself
    /// (`Game::legal_action_bits`), which then answer every question about legality.
    legal: Vec<G::Action>,
    /// The learner's seat in this game (with an opponent, which plays every other seat).
    learner: usize,
    opponent: Option<Box<dyn Agent<G>>>,
}

/// One game's outputs, handed to the per-game work of a call.
struct Out<'a, T> {
    obs: &'a mut [T],
    /// This game's row.
    mask: Mask<'a>,
    player: &'a mut i64,
    /// Empty in calls that report no returns (observe, reset).
    rewards: &'a mut [f32],
    /// None in calls that report no returns.
    done: Option<&'a mut bool>,
    /// Empty when the caller wants no final observations.
    final_obs: &'a mut [T],
    /// The game's legal ids as bits (empty when the batch keeps none: see `Batch::words`).
    bits: &'a mut [u64],
}

/// The rows of a game-major buffer of `len` items per game, then empty rows without end
/// (all of them empty when the buffer is: a call that does not report it).
fn rows<T>(buf: &mut [T], len: usize) -> impl Iterator<Item = &mut [T]> {
    buf.chunks_mut(len.max(1))
        .chain(repeat_with(<&mut [T]>::default))
}

/// Split a game-major buffer after `games` games of `len` items (an empty buffer stays
/// empty on both sides).
fn split<T>(buf: &mut [T], games: usize, len: usize) -> (&mut [T], &mut [T]) {
    let mid = (games * len).min(buf.len());
    buf.split_at_mut(mid)
}

/// A run of consecutive games and their slices of every output: the unit of work a
/// thread takes.
struct Part<'a, G: Knowledge, T> {
    /// Index of the first game.
    start: usize,
    envs: &'a mut [Env<G>],
    obs: &'a mut [T],
    mask: Mask<'a>,
    player: &'a mut [i64],
    rewards: &'a mut [f32],
    dones: &'a mut [bool],
    final_obs: &'a mut [T],
    bits: &'a mut [u64],
}

/// Items per game of each buffer: (observation, mask row, players, legal-bit words).
type Dims = (usize, usize, usize, usize);

impl<'a, G: Knowledge, T> Part<'a, G, T> {
    /// The first `games` games, and the rest.
    fn split_off(self, games: usize, (ol, mask_row, np, words): Dims) -> (Self, Self) {
        let games = games.min(self.envs.len());
        let (e0, e1) = self.envs.split_at_mut(games);
        let (o0, o1) = split(self.obs, games, ol);
        let (m0, m1) = self.mask.split(games, mask_row);
        let (p0, p1) = split(self.player, games, 1);
        let (r0, r1) = split(self.rewards, games, np);
        let (d0, d1) = split(self.dones, games, 1);
        let (f0, f1) = split(self.final_obs, games, ol);
        let (b0, b1) = split(self.bits, games, words);
        let head = Part {
            start: self.start,
            envs: e0,
            obs: o0,
            mask: m0,
            player: p0,
            rewards: r0,
            dones: d0,
            final_obs: f0,
            bits: b0,
        };
        let tail = Part {
            start: self.start + games,
            envs: e1,
            obs: o1,
            mask: m1,
            player: p1,
            rewards: r1,
            dones: d1,
            final_obs: f1,
            bits: b1,
        };
        (head, tail)
    }

    /// Run `f` on each game in turn; stops at the first error.
    fn run<F>(self, (ol, mask_row, np, words): Dims, f: &F) -> Result<()>
    where
        F: Fn(usize, &mut Env<G>, Out<'_, T>) -> Result<()>,
    {
        let dones = self.dones.iter_mut().map(Some).chain(repeat_with(|| None));
        let games = self
            .envs
            .iter_mut()
            .zip(rows(self.obs, ol))
            .zip(self.player.iter_mut().zip(rows(self.rewards, np)))
            .zip(dones.zip(rows(self.final_obs, ol).zip(rows(self.bits, words))));
        let mut masks = self.mask;
        for (k, (((env, obs), (player, rewards)), (done, (final_obs, bits)))) in games.enumerate() {
            let (mask, rest) = masks.split(1, mask_row);
            masks = rest;
            let out = Out {
                obs,
                mask,
                player,
                rewards,
                done,
                final_obs,
                bits,
            };
            f(self.start + k, env, out)?;
        }
        Ok(())
    }
}

/// Fewest games in a chunk (a task of the pool): small chunks balance the threads' loads,
/// large ones cost less to hand out.
const CHUNK_MIN: usize = 32;

/// Most legal-action bits kept per game (64 words: 4,096 action ids). A batch of a game
/// with more action ids checks actions against each game's legal list instead.
const MAX_WORDS: usize = 64;

/// `n` games of one kind stepped together.
pub struct Batch<G: Knowledge> {
    options: G::Options,
    envs: Vec<Env<G>>,
    seed: u64,
    /// Games finished before the last reseeding `reset` (which restarts the slot counters).
    episodes_before: u64,
    opponent: Option<AgentSpec>,
    learner_seat: Option<usize>,
    obs_shape: Vec<usize>,
    obs_len: usize,
    /// The divisors of the compact observation, when the game has one.
    divisors: Option<Vec<f32>>,
    num_actions: usize,
    num_players: usize,
    /// Words of legal-action bits per game in `bits` (0 when the game has more than
    /// `MAX_WORDS * 64` action ids).
    words: usize,
    /// Each game's legal ids as bits, written with its mask: checking a step's actions
    /// reads one contiguous array instead of every game's legal list.
    bits: Vec<u64>,
    /// Threads stepping a large batch (the workers of `pool`).
    threads: usize,
    pool: Option<rayon::ThreadPool>,
    /// An illegal action ends its game as a loss for the mover (`true`) instead of
    /// refusing the whole step (`false`, the default); see [`Batch::set_forfeit_illegal`].
    forfeit_illegal: bool,
}

impl<G: Knowledge> Env<G> {
    /// Start this env's next game and play the opponent up to the learner's turn.
    fn start(
        &mut self,
        options: &G::Options,
        opponent: Option<&AgentSpec>,
        learner_seat: Option<usize>,
        index: usize,
    ) -> Result<()> {
        let seed = self.rng.next_u64();
        let salt = self.rng.next_u64();
        // The new game's record reuses the old one's memory (no regrowing it every game).
        let mut history = self.session.history.take();
        self.session = Session::new(seed, options)?;
        if let (Some(old), Some(new)) = (history.as_mut(), self.session.history.as_mut()) {
            old.clear();
            std::mem::swap(old, new);
        }
        let n = self.session.game.num_players();
        self.learner = learner_seat.unwrap_or((index + self.finished as usize) % n);
        self.opponent = opponent.map(|s| s.build::<G>(salt));
        self.play_opponent()
    }

    fn play_opponent(&mut self) -> Result<()> {
        let Some(opp) = self.opponent.as_mut() else {
            return Ok(());
        };
        while let Some(p) = self.session.game.current_player() {
            if p == self.learner {
                break;
            }
            let a = opp.act(&self.session.game)?;
            self.session.apply(a)?;
        }
        Ok(())
    }

    fn write<T: ObsValue>(&mut self, out: &mut Out<'_, T>, zeroed: bool) {
        let g = &self.session.game;
        let mover = g.current_player();
        match mover {
            Some(p) => {
                *out.player = p as i64;
                T::observe(g, p, out.obs);
            }
            None => *out.player = -1,
        }
        // Packed rows are copied from the kept words below, when the batch keeps them.
        let copy_bits = !out.bits.is_empty();
        out.bits.fill(0);
        // The kept words straight from the state where the game writes them (no list of
        // actions, no id per action); `legal` is then left empty (`Env::legal_ids`).
        let direct = copy_bits && mover.is_some() && g.legal_action_bits(out.bits);
        if direct || mover.is_none() {
            self.legal.clear();
        } else {
            g.legal_actions(&mut self.legal);
        }
        match &mut out.mask {
            Mask::Bools(m) if !zeroed => m.fill(false),
            Mask::Bits(m) if !copy_bits => m.fill(0),
            _ => {}
        }
        if let (Mask::Bools(m), true) = (&mut out.mask, direct) {
            for (w, &word) in out.bits.iter().enumerate() {
                let mut x = word;
                while x != 0 {
                    if let Some(f) = m.get_mut(w * 64 + x.trailing_zeros() as usize) {
                        *f = true;
                    }
                    x &= x - 1;
                }
            }
        }
        for &a in &self.legal {
            let id = g.action_id(a);
            if let Some(w) = out.bits.get_mut(id / 64) {
                *w |= 1 << (id % 64);
            }
            match &mut out.mask {
                Mask::Bools(m) => {
                    if let Some(f) = m.get_mut(id) {
                        *f = true;
                    }
                }
                Mask::Bits(m) if !copy_bits => {
                    if let Some(b) = m.get_mut(id / 8) {
                        *b |= 1 << (id % 8);
                    }
                }
                Mask::Bits(_) => {}
            }
        }
        if let (Mask::Bits(m), true) = (&mut out.mask, copy_bits) {
            // Little-endian words are the packed row's bytes: id 64w + 8k + j is bit j of
            // byte k of word w.
            let whole = m.len() / 8;
            let mut bytes = m.chunks_exact_mut(8);
            for (b, w) in (&mut bytes).zip(out.bits.iter()) {
                b.copy_from_slice(&w.to_le_bytes());
            }
            let rest = bytes.into_remainder();
            if let Some(w) = out.bits.get(whole) {
                let n = rest.len();
                rest.copy_from_slice(&w.to_le_bytes()[..n]);
            }
        }
    }

    /// The legal ids, for an error message (`legal` is empty where the words were written
    /// directly).
    fn legal_ids(&self) -> Vec<usize> {
        let g = &self.session.game;
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        legal.iter().map(|&a| g.action_id(a)).collect()
    }

    /// Whether `id` is legal in this game (`bits`: its row of `Batch::bits`, or empty).
    fn is_legal(&self, id: i64, bits: &[u64]) -> bool {
        let Ok(id) = usize::try_from(id) else {
            return false;
        };
        if !bits.is_empty() {
            return bits.get(id / 64).is_some_and(|w| w >> (id % 64) & 1 == 1);
        }
        // `legal` is in ascending id order (the `Game` contract): a binary search.
        let g = &self.session.game;
        self.legal
            .binary_search_by_key(&id, |&a| g.action_id(a))
            .is_ok()
    }
}

/// Most games in one batch (docs/protocol.md, "Limits"): checked before anything is
/// allocated.
pub const MAX_GAMES: usize = 1 << 16;

impl<G: Knowledge> Batch<G> {
    /// `n` games under `seed`; `threads` workers for large batches (`None`: one per core).
    pub fn new(
        options: G::Options,
        n: usize,
        seed: u64,
        opponent: Option<AgentSpec>,
        learner_seat: Option<usize>,
        threads: Option<usize>,
    ) -> Result<Self> {
        if !(1..=MAX_GAMES).contains(&n) {
            return Err(Error::argument(
                "num_games",
                &format!("1..={MAX_GAMES}"),
                &n.to_string(),
            ));
        }
        let probe = G::new(seed, &options)?;
        let obs_shape = probe.observation_shape();
        let obs_len: usize = obs_shape.iter().product();
        let num_players = probe.num_players();
        if let Some(s) = learner_seat {
            if s >= num_players {
                return Err(Error::invalid(format!(
                    "seat {s} out of range: {} has {num_players} players",
                    G::NAME
                )));
            }
        }
        if let Some(AgentSpec::Ismcts(c)) = &opponent {
            c.validate()?;
        }
        // The calling thread steps games too (it would otherwise sleep through the call),
        // so `threads` threads are the caller and a pool of `threads - 1` workers.
        let threads = threads.unwrap_or_else(crate::simulate::default_threads);
        crate::simulate::check_threads(threads)?;
        let pool = match threads {
            1 => None,
            t => Some(crate::simulate::pool(Some(t - 1))?),
        };
        let num_actions = probe.num_actions();
        let words = match num_actions.div_ceil(64) {
            w if w <= MAX_WORDS => w,
            _ => 0,
        };
        let mut batch = Batch {
            envs: Vec::with_capacity(n),
            words,
            bits: vec![0; n * words],
            threads,
            seed,
            episodes_before: 0,
            num_actions,
            options,
            opponent,
            learner_seat,
            obs_shape,
            obs_len,
            divisors: probe.observation_divisors(),
            num_players,
            pool,
            forfeit_illegal: false,
        };
        for i in 0..n {
            let mut env = Env {
                session: Session {
                    game: probe.clone(),
                    seed,
                    start: None,
                    history: None,
                    last: None,
                    start_last: None,
                },
                rng: GameRng::stream(seed, i as u64),
                finished: 0,
                legal: Vec::new(),
                learner: 0,
                opponent: None,
            };
            env.start(&batch.options, batch.opponent.as_ref(), learner_seat, i)?;
            batch.envs.push(env);
        }
        Ok(batch)
    }

    pub fn len(&self) -> usize {
        self.envs.len()
    }
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }
    pub fn obs_shape(&self) -> &[usize] {
        &self.obs_shape
    }
    pub fn num_actions(&self) -> usize {
        self.num_actions
    }
    pub fn num_players(&self) -> usize {
        self.num_players
    }
    /// The divisors of the compact (`u8`) observation, one per element, when the game has
    /// one: the `f32` observation is the compact one divided by them, exactly.
    pub fn observation_divisors(&self) -> Option<&[f32]> {
        self.divisors.as_deref()
    }
    /// Games that reached their end so far, over all slots (games abandoned by `reset`
    /// do not count).
    pub fn episodes_finished(&self) -> u64 {
        self.episodes_before + self.envs.iter().map(|e| e.finished).sum::<u64>()
    }
    /// The seed of the slots' streams (the constructor's, or the last `reset`'s).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    fn check_views<T: ObsValue>(&self, v: &Views<'_, T>) -> Result<()> {
        let n = self.envs.len();
        if T::COMPACT && self.divisors.is_none() {
            return Err(Error::invalid(format!(
                "batch: {} has no compact (uint8) observation; use float32",
                G::NAME
            )));
        }
        if v.obs.len() != n * self.obs_len
            || v.mask.len() != n * v.mask.row_len(self.num_actions)
            || v.player.len() != n
            || !(v.final_obs.is_empty() || v.final_obs.len() == n * self.obs_len)
        {
            return Err(Error::invalid("batch: output buffers have the wrong sizes"));
        }
        Ok(())
    }

    /// Run `f` on every env with its slices of the outputs; on `threads` threads when large.
    fn each<T: ObsValue, F>(
        &mut self,
        v: Views<'_, T>,
        rewards: &mut [f32],
        dones: &mut [bool],
        f: F,
    ) -> Result<()>
    where
        F: Fn(usize, &mut Env<G>, Out<'_, T>) -> Result<()> + Sync,
    {
        let dims = (
            self.obs_len,
            v.mask.row_len(self.num_actions),
            self.num_players,
            self.words,
        );
        let n = self.envs.len();
        let all = Part {
            start: 0,
            envs: &mut self.envs,
            obs: v.obs,
            mask: v.mask,
            player: v.player,
            rewards,
            dones,
            final_obs: v.final_obs,
            bits: &mut self.bits,
        };
        let pool = match &self.pool {
            Some(pool) if n >= PARALLEL_MIN => pool,
            _ => return all.run(dims, &f),
        };
        // Chunks of games, in order. Thread k (the caller is thread 0) first steps its own
        // contiguous share of them, then takes whatever is left of the others' shares: the
        // same games land on the same core from one call to the next, so their states stay
        // in that core's cache, while a thread that was slowed down (or woke late) is
        // helped by the others.
        let threads = self.threads;
        let size = (n / (threads * 8)).max(CHUNK_MIN);
        let mut chunks = Vec::with_capacity(n.div_ceil(size));
        let mut rest = all;
        while !rest.envs.is_empty() {
            let (head, tail) = rest.split_off(size, dims);
            chunks.push(Mutex::new(Some(head)));
            rest = tail;
        }
        // The error of the earliest game that failed (of the chunks run).
        let failed: Mutex<Option<(usize, Error)>> = Mutex::new(None);
        let work = |k: usize| {
            let first = k * chunks.len() / threads;
            for chunk in chunks[first..].iter().chain(&chunks[..first]) {
                let Some(part) = chunk.lock().unwrap_or_else(PoisonError::into_inner).take() else {
                    continue;
                };
                let start = part.start;
                if let Err(e) = part.run(dims, &f) {
                    let mut failed = failed.lock().unwrap_or_else(PoisonError::into_inner);
                    if failed.as_ref().is_none_or(|(s, _)| start < *s) {
                        *failed = Some((start, e));
                    }
                }
            }
        };
        pool.in_place_scope(|s| {
            for k in 1..threads {
                let work = &work;
                s.spawn(move |_| work(k));
            }
            work(0);
        });
        match failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }

    /// Write the current observations, masks and players.
    pub fn observe(&mut self, v: Views<'_>) -> Result<()> {
        self.observe_as(v)
    }

    /// `observe` into buffers of either observation type.
    pub fn observe_as<T: ObsValue>(&mut self, v: Views<'_, T>) -> Result<()> {
        self.check_views(&v)?;
        let zeroed = v.zeroed;
        self.each(v, &mut [], &mut [], |_, env, mut out| {
            env.write(&mut out, zeroed);
            Ok(())
        })
    }

    /// Start a new game in every slot and observe. With `seed`, every slot's stream
    /// restarts under it (the batch is then exactly as `new` with that seed left it, games
    /// finished so far still counted by `episodes_finished`); without, each slot's stream
    /// continues.
    pub fn reset(&mut self, seed: Option<u64>, v: Views<'_>) -> Result<()> {
        self.reset_as(seed, v)
    }

    /// `reset` into buffers of either observation type.
    pub fn reset_as<T: ObsValue>(&mut self, seed: Option<u64>, v: Views<'_, T>) -> Result<()> {
        self.check_views(&v)?;
        let zeroed = v.zeroed;
        if let Some(seed) = seed {
            self.episodes_before = self.episodes_finished();
            self.seed = seed;
            for (i, env) in self.envs.iter_mut().enumerate() {
                env.rng = GameRng::stream(seed, i as u64);
                env.finished = 0;
            }
        }
        let (options, opp, seat) = (
            self.options.clone(),
            self.opponent.clone(),
            self.learner_seat,
        );
        self.each(v, &mut [], &mut [], |i, env, mut out| {
            env.start(&options, opp.as_ref(), seat, i)?;
            env.write(&mut out, zeroed);
            Ok(())
        })
    }

    /// With `on`, `step` no longer refuses an illegal action: the game where it was given ends
    /// as a loss for the player who gave it (return -1, the others 0), its final observation
    /// is that player's, and it restarts, as a game that ends by the rules does.
    pub fn set_forfeit_illegal(&mut self, on: bool) {
        self.forfeit_illegal = on;
    }

    /// Play `actions[i]` (an action id) in game `i`, then the opponent's replies; games that
    /// end write their returns to `rewards[i * players ..]`, set `dones[i]`, write their
    /// final observation to `v.final_obs` (when given) and restart.
    /// Every action is checked before any is played: on an illegal one nothing changes.
    pub fn step(
        &mut self,
        actions: &[i64],
        v: Views<'_>,
        rewards: &mut [f32],
        dones: &mut [bool],
    ) -> Result<()> {
        self.step_as(actions, v, rewards, dones)
    }

    /// `step` into buffers of either observation type.
    pub fn step_as<T: ObsValue>(
        &mut self,
        actions: &[i64],
        v: Views<'_, T>,
        rewards: &mut [f32],
        dones: &mut [bool],
    ) -> Result<()> {
        self.check_views(&v)?;
        let zeroed = v.zeroed;
        let n = self.envs.len();
        if actions.len() != n {
            return Err(Error::invalid(format!(
                "batch: expected {n} actions (one per game), got {}",
                actions.len()
            )));
        }
        if rewards.len() != n * self.num_players || dones.len() != n {
            return Err(Error::invalid("batch: output buffers have the wrong sizes"));
        }
        let words = self.words;
        // The games whose action is illegal, when they forfeit (empty otherwise).
        let mut forfeits: Vec<bool> = Vec::new();
        for (i, (env, &id)) in self.envs.iter().zip(actions).enumerate() {
            let bits = self
                .bits
                .get(i * words..(i + 1) * words)
                .unwrap_or_default();
            let legal = env.is_legal(id, bits);
            if self.forfeit_illegal {
                forfeits.push(!legal);
                continue;
            }
            if !legal {
                let g = &env.session.game;
                let what = usize::try_from(id)
                    .ok()
                    .and_then(|id| g.action_from_id(id))
                    .map(|a| format!(" ({})", g.action_notation(a)))
                    .unwrap_or_default();
                let ids = env.legal_ids();
                return Err(Error::illegal(
                    "legal_actions",
                    format!(
                        "batch game {i} ({}): action id {id}{what} is not legal; legal ids: {ids:?}",
                        G::NAME
                    ),
                ));
            }
        }
        let (options, opp, seat) = (
            self.options.clone(),
            self.opponent.clone(),
            self.learner_seat,
        );
        self.each(v, rewards, dones, |i, env, mut out| {
            // The observer of the final observation: whoever moves now (the learner, with
            // an opponent).
            let mover = env.session.game.current_player().unwrap_or(0);
            if forfeits.get(i).copied().unwrap_or(false) {
                out.rewards.fill(0.0);
                if let Some(r) = out.rewards.get_mut(mover) {
                    *r = -1.0;
                }
                if let Some(d) = out.done.as_deref_mut() {
                    *d = true;
                }
                if !out.final_obs.is_empty() {
                    T::observe(&env.session.game, mover, out.final_obs);
                }
                env.finished += 1;
                env.start(&options, opp.as_ref(), seat, i)?;
                env.write(&mut out, zeroed);
                return Ok(());
            }
            let a = env
                .session
                .game
                .action_from_id(actions[i] as usize)
                .ok_or_else(|| Error::invalid("batch: action vanished"))?;
            // Checked above against the legal list of this very state: play it without
            // running the rules' checks a second time.
            env.session.apply_unchecked(a);
            env.play_opponent()?;
            out.rewards.fill(0.0);
            let done = env.session.game.is_terminal();
            if let Some(d) = out.done.as_deref_mut() {
                *d = done;
            }
            if done {
                for (r, v) in out.rewards.iter_mut().zip(env.session.game.returns()) {
                    *r = v as f32;
                }
                if !out.final_obs.is_empty() {
                    T::observe(&env.session.game, mover, out.final_obs);
                }
                env.finished += 1;
                env.start(&options, opp.as_ref(), seat, i)?;
            }
            env.write(&mut out, zeroed);
            Ok(())
        })
    }

    /// A copy of game `i` as it stands (with its history).
    pub fn session(&self, i: usize) -> Option<&Session<G>> {
        self.envs.get(i).map(|e| &e.session)
    }
    /// The learner's seat in each game (meaningful with an opponent).
    pub fn learners(&self) -> Vec<usize> {
        self.envs.iter().map(|e| e.learner).collect()
    }

    /// Check actions against each game's legal list, as a batch of a game with more than
    /// `MAX_WORDS * 64` action ids does (for the tests of that path).
    #[cfg(test)]
    pub(crate) fn without_legal_bits(&mut self) {
        self.words = 0;
        self.bits.clear();
    }
}

/// Output buffers of either observation type, for [`DynBatch`].
pub enum AnyViews<'a> {
    F32(Views<'a, f32>),
    U8(Views<'a, u8>),
}

impl<'a> From<Views<'a, f32>> for AnyViews<'a> {
    fn from(v: Views<'a, f32>) -> Self {
        AnyViews::F32(v)
    }
}

impl<'a> From<Views<'a, u8>> for AnyViews<'a> {
    fn from(v: Views<'a, u8>) -> Self {
        AnyViews::U8(v)
    }
}

/// A [`Batch`] of any game, for run-time dispatch (the Python bindings).
pub trait DynBatch: Send {
    fn name(&self) -> &'static str;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn obs_shape(&self) -> Vec<usize>;
    fn num_actions(&self) -> usize;
    fn num_players(&self) -> usize;
    /// See [`Batch::observation_divisors`].
    fn observation_divisors(&self) -> Option<Vec<f32>>;
    fn episodes_finished(&self) -> u64;
    fn observe(&mut self, v: AnyViews<'_>) -> Result<()>;
    fn seed(&self) -> u64;
    fn reset(&mut self, seed: Option<u64>, v: AnyViews<'_>) -> Result<()>;
    fn step(
        &mut self,
        actions: &[i64],
        v: AnyViews<'_>,
        rewards: &mut [f32],
        dones: &mut [bool],
    ) -> Result<()>;
    /// See [`Batch::set_forfeit_illegal`].
    fn set_forfeit_illegal(&mut self, on: bool);
    /// A copy of game `i`, as a game object.
    fn game(&self, i: usize) -> Result<Box<dyn DynGame>>;
    fn learners(&self) -> Vec<usize>;
}

impl<G: Knowledge> DynBatch for Batch<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn len(&self) -> usize {
        Batch::len(self)
    }
    fn obs_shape(&self) -> Vec<usize> {
        self.obs_shape.clone()
    }
    fn num_actions(&self) -> usize {
        self.num_actions
    }
    fn num_players(&self) -> usize {
        self.num_players
    }
    fn observation_divisors(&self) -> Option<Vec<f32>> {
        self.divisors.clone()
    }
    fn episodes_finished(&self) -> u64 {
        Batch::episodes_finished(self)
    }
    fn observe(&mut self, v: AnyViews<'_>) -> Result<()> {
        match v {
            AnyViews::F32(v) => self.observe_as(v),
            AnyViews::U8(v) => self.observe_as(v),
        }
    }
    fn seed(&self) -> u64 {
        Batch::seed(self)
    }
    fn reset(&mut self, seed: Option<u64>, v: AnyViews<'_>) -> Result<()> {
        match v {
            AnyViews::F32(v) => self.reset_as(seed, v),
            AnyViews::U8(v) => self.reset_as(seed, v),
        }
    }
    fn step(
        &mut self,
        actions: &[i64],
        v: AnyViews<'_>,
        rewards: &mut [f32],
        dones: &mut [bool],
    ) -> Result<()> {
        match v {
            AnyViews::F32(v) => self.step_as(actions, v, rewards, dones),
            AnyViews::U8(v) => self.step_as(actions, v, rewards, dones),
        }
    }
    fn set_forfeit_illegal(&mut self, on: bool) {
        Batch::set_forfeit_illegal(self, on);
    }
    fn game(&self, i: usize) -> Result<Box<dyn DynGame>> {
        self.session(i)
            .map(|s| Box::new(s.clone()) as Box<dyn DynGame>)
            .ok_or_else(|| {
                Error::invalid(format!(
                    "game {i} out of range: the batch has {}",
                    self.len()
                ))
            })
    }
    fn learners(&self) -> Vec<usize> {
        Batch::learners(self)
    }
}

/// A batch of the game called `name` (options as JSON), for the bindings.
pub fn new_dyn(
    name: &str,
    options: &Map<String, Value>,
    n: usize,
    seed: u64,
    opponent: Option<AgentSpec>,
    learner_seat: Option<usize>,
    threads: Option<usize>,
) -> Result<Box<dyn DynBatch>> {
    crate::with_game!(name, G => {
        let opts: <G as Game>::Options = serde_json::from_value(Value::Object(options.clone()))
            .map_err(|e| Error::options(format!("{name}: {e}")))?;
        Box::new(Batch::<G>::new(opts, n, seed, opponent, learner_seat, threads)?) as Box<dyn DynBatch>
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battleline::{observe::OBS_LEN, BattleLine, Options};

    /// Per step, what a batch wrote: observations, masks (packed: see `packbits`),
    /// players, rewards, dones, final observations.
    type Written<T> = (Vec<T>, Vec<u8>, Vec<i64>, Vec<f32>, Vec<bool>, Vec<T>);

    /// `np.packbits(flags, axis=-1, bitorder="little")` of rows of `row` flags, spelled out.
    fn packbits(flags: &[bool], row: usize) -> Vec<u8> {
        flags
            .chunks(row)
            .flat_map(|r| r.chunks(8))
            .map(|c| (0..c.len()).fold(0u8, |b, j| b | u8::from(c[j]) << j))
            .collect()
    }

    /// Step a Battle Line batch of `n` games with seeded random legal ids into buffers of
    /// `T`, reused between steps as `Batch.step(out=)` reuses them; masks as flags, or
    /// `packed` (in a buffer that starts as garbage: rows are written whole).
    fn play<T: ObsValue>(n: usize, steps: usize, threads: usize, packed: bool) -> Vec<Written<T>> {
        play_with(n, steps, threads, packed, false)
    }

    /// `play`; with `lists`, the batch maps each game's legal list to ids, as for a game
    /// without `Game::legal_action_bits`, instead of Battle Line writing its words.
    fn play_with<T: ObsValue>(
        n: usize,
        steps: usize,
        threads: usize,
        packed: bool,
        lists: bool,
    ) -> Vec<Written<T>> {
        let mut b =
            Batch::<BattleLine>::new(Options::default(), n, 5, None, None, Some(threads)).unwrap();
        if lists {
            b.without_legal_bits();
        }
        let na = b.num_actions();
        let nb = na.div_ceil(8);
        let (mut obs, mut flags, mut bytes, mut player) = (
            vec![T::ZERO; n * OBS_LEN],
            vec![false; n * na],
            vec![0xa5u8; n * nb],
            vec![0; n],
        );
        let mut finals = vec![T::ZERO; n * OBS_LEN];
        fn mask<'a>(packed: bool, flags: &'a mut [bool], bytes: &'a mut [u8]) -> Mask<'a> {
            if packed {
                Mask::Bits(bytes)
            } else {
                Mask::Bools(flags)
            }
        }
        b.reset_as(
            None,
            Views {
                obs: &mut obs,
                mask: mask(packed, &mut flags, &mut bytes),
                player: &mut player,
                final_obs: &mut [],
                zeroed: false,
            },
        )
        .unwrap();
        let mut rng = GameRng::seed(3);
        let mut out = Vec::new();
        for _ in 0..steps {
            let actions: Vec<i64> = (0..n)
                .map(|i| {
                    let legal: Vec<i64> = (0..na)
                        .filter(|&a| match packed {
                            true => bytes[i * nb + a / 8] >> (a % 8) & 1 == 1,
                            false => flags[i * na + a],
                        })
                        .map(|a| a as i64)
                        .collect();
                    *rng.choose(&legal).unwrap()
                })
                .collect();
            let (mut rewards, mut dones) = (vec![0.0; n * 2], vec![false; n]);
            b.step_as(
                &actions,
                Views {
                    obs: &mut obs,
                    mask: mask(packed, &mut flags, &mut bytes),
                    player: &mut player,
                    final_obs: &mut finals,
                    zeroed: false,
                },
                &mut rewards,
                &mut dones,
            )
            .unwrap();
            out.push((
                obs.clone(),
                if packed {
                    bytes.clone()
                } else {
                    packbits(&flags, na)
                },
                player.clone(),
                rewards,
                dones.clone(),
                finals.clone(),
            ));
        }
        out
    }

    /// The compact observation divided by its divisors, as a user decodes it.
    fn decode(compact: &[u8], divisors: &[f32]) -> Vec<f32> {
        compact
            .iter()
            .zip(divisors.iter().cycle())
            .map(|(&c, &d)| f32::from(c) / d)
            .collect()
    }

    #[test]
    fn battleline_compact_observations_decode_to_the_float_ones_bit_for_bit() {
        // Same seed, same ids: the same games, whatever the observation type and threads.
        let (n, steps) = (160, 200); // over PARALLEL_MIN: the threaded path too
        let floats = play::<f32>(n, steps, 1, false);
        let compact = play::<u8>(n, steps, 2, false);
        let divisors = crate::battleline::observe::observation_divisors();
        let mut ended = 0;
        for (f, c) in floats.iter().zip(&compact) {
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&f.0), bits(&decode(&c.0, &divisors)));
            assert_eq!((&f.1, &f.2, &f.3, &f.4), (&c.1, &c.2, &c.3, &c.4));
            // Final observations at auto-reset too (rows of games that just ended).
            assert_eq!(bits(&f.5), bits(&decode(&c.5, &divisors)));
            ended += f.4.iter().filter(|&&d| d).count();
        }
        assert!(
            ended > 20,
            "only {ended} games ended: the test saw few final observations"
        );
        // The globals really take counts above 1 (decks, hands), not only flags.
        assert!(compact.iter().any(|c| c.0.iter().any(|&x| x > 1)));
    }

    #[test]
    fn packed_masks_are_the_flags_packed_bit_for_bit_on_one_and_two_threads() {
        // The same seed and ids play the same games whatever the mask form, observation
        // type and threads; the packed rows are np.packbits(flags, bitorder="little") of
        // the flags, padding bits 0, though the buffer started as garbage.
        let (n, steps) = (160, 200); // over PARALLEL_MIN: the threaded path too
        let flags = play::<f32>(n, steps, 1, false);
        let bits = play::<f32>(n, steps, 2, true);
        let compact = play::<u8>(n, steps, 1, true);
        let divisors = crate::battleline::observe::observation_divisors();
        let mut ended = 0;
        for ((f, b), c) in flags.iter().zip(&bits).zip(&compact) {
            assert_eq!(f, b);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&f.0), bits(&decode(&c.0, &divisors)));
            assert_eq!(bits(&f.5), bits(&decode(&c.5, &divisors)));
            assert_eq!((&f.1, &f.2, &f.3, &f.4), (&c.1, &c.2, &c.3, &c.4));
            ended += f.4.iter().filter(|&&d| d).count();
        }
        assert!(ended > 20, "only {ended} games ended");
        // 1,998 ids: 250 bytes a game, the last two bits padding.
        assert_eq!(flags[0].1.len(), n * 250);
        assert!(flags
            .iter()
            .all(|f| f.1.chunks(250).all(|r| r[249] >> 6 == 0)));
    }

    #[test]
    fn battleline_legal_bits_written_by_the_game_give_the_masks_of_its_legal_lists() {
        // `Game::legal_action_bits` (Battle Line's words straight from its state) against
        // the legal lists mapped to ids: the same masks, flags and packed, and the same games.
        let (n, steps) = (40, 300);
        for packed in [false, true] {
            let direct = play::<u8>(n, steps, 1, packed);
            let lists = play_with::<u8>(n, steps, 1, packed, true);
            assert!(direct == lists, "packed {packed}");
        }
        // An illegal id is refused with the same message, its legal ids listed.
        let mk = || {
            let mut b =
                Batch::<BattleLine>::new(Options::default(), 2, 5, None, None, Some(1)).unwrap();
            let (mut obs, mut flags, mut player) =
                (vec![0u8; 2 * OBS_LEN], vec![false; 2 * 1998], vec![0; 2]);
            b.observe_as(Views {
                obs: &mut obs,
                mask: Mask::Bools(&mut flags),
                player: &mut player,
                final_obs: &mut [],
                zeroed: false,
            })
            .unwrap();
            (b, obs, flags, player)
        };
        let (mut a, mut obs, mut flags, mut player) = mk();
        let mut b = mk().0;
        b.without_legal_bits();
        let bad = [
            flags[..1998].iter().position(|&f| !f).unwrap() as i64,
            flags[1998..].iter().position(|&f| f).unwrap() as i64,
        ];
        let mut errors = Vec::new();
        for batch in [&mut a, &mut b] {
            let e = batch
                .step_as(
                    &bad,
                    Views {
                        obs: &mut obs,
                        mask: Mask::Bools(&mut flags),
                        player: &mut player,
                        final_obs: &mut [],
                        zeroed: false,
                    },
                    &mut [0.0; 4],
                    &mut [false; 2],
                )
                .unwrap_err()
                .to_string();
            errors.push(e);
        }
        assert!(errors[0].contains("batch game 0"), "{}", errors[0]);
        assert!(errors[0].contains("legal ids: [") && !errors[0].contains("[]"));
        assert_eq!(errors[0], errors[1]);
    }

    #[test]
    fn a_packed_mask_buffer_of_the_wrong_size_is_refused() {
        let n = 4;
        let mut b =
            Batch::<BattleLine>::new(Options::default(), n, 1, None, None, Some(1)).unwrap();
        let (mut obs, mut player) = (vec![0f32; n * OBS_LEN], vec![0; n]);
        for len in [n * 1998, n * 249, 0] {
            let mut bytes = vec![0u8; len];
            let e = b
                .observe(Views {
                    obs: &mut obs,
                    mask: Mask::Bits(&mut bytes),
                    player: &mut player,
                    final_obs: &mut [],
                    zeroed: false,
                })
                .unwrap_err();
            assert!(e.to_string().contains("wrong sizes"), "{e}");
        }
    }

    #[test]
    fn a_game_without_a_compact_observation_refuses_uint8_buffers_and_changes_nothing() {
        use crate::search::testgame::{Lanes, LanesOptions};
        let mut b =
            Batch::<Lanes>::new(LanesOptions::default(), 4, 1, None, None, Some(1)).unwrap();
        assert!(b.observation_divisors().is_none());
        let ol: usize = b.obs_shape().iter().product();
        let (mut obs, mut mask, mut player) = (
            vec![0u8; 4 * ol],
            vec![false; 4 * b.num_actions()],
            vec![0; 4],
        );
        let before = b.session(0).unwrap().game.clone();
        let e = b
            .reset_as(
                Some(9),
                Views {
                    obs: &mut obs,
                    mask: Mask::Bools(&mut mask),
                    player: &mut player,
                    final_obs: &mut [],
                    zeroed: false,
                },
            )
            .unwrap_err();
        assert!(
            e.to_string().contains("no compact (uint8) observation"),
            "{e}"
        );
        assert_eq!(b.seed(), 1);
        assert_eq!(
            format!("{:?}", b.session(0).unwrap().game),
            format!("{before:?}")
        );
    }
}
