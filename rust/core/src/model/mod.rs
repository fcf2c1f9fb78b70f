//! Learned evaluation: a small policy-and-value network (a multi-layer perceptron) read from
//! a safetensors file and evaluated in Rust, so a search can use it without Python.
//!
//! **The network.** The input row is what the metadata's `input` names ([`Input`]): the
//! mover's observation ([`Game::observation`](crate::game::Game::observation), flattened;
//! the default), or every seat's observation in rotation from the mover (`seats`).
//! A trunk of dense layers with ReLU (`trunk.{i}`), then two heads on the last hidden layer:
//! `policy` gives one logit per action id (a prior is the softmax over the legal ones) and
//! `value` gives, after `tanh`, one value in [-1, 1] per player, *relative to the mover*:
//! `value[k]` is the expected return of player `(mover + k) % players`.
//!
//! **The file** (`kingdoms-mlp`, version 1; docs/learn.md): a safetensors file whose tensors
//! are all little-endian `F32`, named `trunk.{i}.weight` (`[out, in]`), `trunk.{i}.bias`
//! (`[out]`), `policy.weight`, `policy.bias`, `value.weight`, `value.bias`, and whose
//! metadata holds `format` (`kingdoms-mlp`), `version` (`1`), `game`, `observation_size`,
//! `num_actions`, `num_players` and `hidden` (the trunk's widths, comma-separated; may be
//! empty), and optionally `input` (`observation`, the default, or `seats`; then the first
//! layer reads `num_players × observation_size` numbers). Other metadata keys (how it was
//! trained) are kept and shown, never read.
//!
//! **Bounds.** The file is read through [`crate::datafile::read_bytes`] (a regular file, at
//! most [`MAX_MODEL_BYTES`]); at most [`MAX_LAYERS`] trunk layers of at most [`MAX_WIDTH`]
//! units (the input and the policy head too), at most [`MAX_PLAYERS`] values; every weight
//! finite. Anything else is an `Error::Data` naming the file and the tensor or key.

#![deny(clippy::indexing_slicing)]

pub mod eval;

pub use eval::{fill_row, ModelEval};

use crate::datafile;
use crate::error::{Error, Result};
use safetensors::tensor::Dtype;
use safetensors::SafeTensors;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The `format` a model file's metadata must name.
pub const FORMAT: &str = "kingdoms-mlp";
/// The file format version this engine reads.
pub const VERSION: u32 = 1;
/// The largest model file read (64 MiB; the reference models are a few hundred KiB).
pub const MAX_MODEL_BYTES: u64 = 64 << 20;
/// Most dense layers in the trunk.
pub const MAX_LAYERS: usize = 16;
/// Most units of a layer (the input, hidden layers and the policy head alike).
pub const MAX_WIDTH: usize = 1 << 16;
/// Most players a value head may have.
pub const MAX_PLAYERS: usize = 16;

/// What a network's input row holds (the metadata's `input`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The mover's observation (`observation`, also when the key is absent).
    Observation,
    /// Every seat's observation of the state, the mover's first, then the next seats in
    /// turn order (`seats`): the whole state. Only for states redrawn from one player's
    /// view (a search's determinizations, [`ModelEval::for_redraws`]), never a real game's.
    Seats,
}

impl Input {
    /// The metadata's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Input::Observation => "observation",
            Input::Seats => "seats",
        }
    }

    /// Length of an input row for a game of `players` with observations of `observation`.
    pub fn row_size(self, observation: usize, players: usize) -> usize {
        match self {
            Input::Observation => observation,
            Input::Seats => observation.saturating_mul(players),
        }
    }
}

/// One dense layer: `y = W x + b`, `W` row-major `[out, in]`.
#[derive(Clone, Debug, PartialEq)]
struct Dense {
    inputs: usize,
    outputs: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
    /// The weights transposed (`[inputs, outputs]`), kept for the first layer only: its
    /// inputs, observations, are mostly zeros, so adding the columns of the non-zero ones
    /// (as NNUE does) costs a fraction of the dense product.
    columns: Vec<f32>,
}

impl Dense {
    /// `out[o] = bias[o] + weight[o] . x` for each row `x` of `xs` (`rows` rows of
    /// `self.inputs`), into `out` (`rows` rows of `self.outputs`). Lengths are checked by the
    /// caller ([`Mlp::forward`]); a mismatch here would only leave entries unwritten.
    fn apply(&self, xs: &[f32], out: &mut [f32]) {
        let (n, m) = (self.inputs, self.outputs);
        if !self.columns.is_empty() {
            return self.apply_sparse(xs, out);
        }
        for (x, y) in xs
            .chunks_exact(n.max(1))
            .zip(out.chunks_exact_mut(m.max(1)))
        {
            for ((w, &b), y) in self.weight.chunks_exact(n.max(1)).zip(&self.bias).zip(y) {
                *y = b + dot(w, x);
            }
        }
    }

    /// [`apply`](Self::apply) by columns: the bias plus `x[i]` times column `i` for each
    /// non-zero `x[i]`, skipping the zeros (most of an observation).
    fn apply_sparse(&self, xs: &[f32], out: &mut [f32]) {
        let (n, m) = (self.inputs, self.outputs);
        for (x, y) in xs
            .chunks_exact(n.max(1))
            .zip(out.chunks_exact_mut(m.max(1)))
        {
            y.copy_from_slice(&self.bias);
            for (&xi, col) in x.iter().zip(self.columns.chunks_exact(m.max(1))) {
                if xi != 0.0 {
                    for (y, &c) in y.iter_mut().zip(col) {
                        *y += xi * c;
                    }
                }
            }
        }
    }

    /// Keep the transposed weights, for [`apply_sparse`](Self::apply_sparse).
    fn with_columns(mut self) -> Dense {
        let (n, m) = (self.inputs, self.outputs);
        let mut columns = vec![0.0; n * m];
        for (o, row) in self.weight.chunks_exact(n.max(1)).enumerate() {
            for (i, &w) in row.iter().enumerate() {
                if let Some(c) = columns.get_mut(i * m + o) {
                    *c = w;
                }
            }
        }
        self.columns = columns;
        self
    }
}

/// A dot product over the shorter of `a` and `b`, in eight independent lanes of whole
/// arrays (the compiler keeps them in vector registers; a plain `sum` of `f32` is kept in
/// order, and per-chunk iterator adapters were measured 19 times slower when not inlined).
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    const LANES: usize = 8;
    let mut acc = [0.0f32; LANES];
    let mut ca = a.chunks_exact(LANES);
    let mut cb = b.chunks_exact(LANES);
    for (x, y) in (&mut ca).zip(&mut cb) {
        if let (Ok(x), Ok(y)) = (<[f32; LANES]>::try_from(x), <[f32; LANES]>::try_from(y)) {
            acc = lanes(acc, x, y);
        }
    }
    let mut tail = 0.0;
    for (&p, &q) in ca.remainder().iter().zip(cb.remainder()) {
        tail += p * q;
    }
    acc.iter().sum::<f32>() + tail
}

/// `acc + x * y`, lane by lane.
#[inline(always)]
#[allow(clippy::indexing_slicing)] // constant indices into arrays of that length
fn lanes(mut acc: [f32; 8], x: [f32; 8], y: [f32; 8]) -> [f32; 8] {
    for i in 0..8 {
        acc[i] += x[i] * y[i];
    }
    acc
}

/// A policy-and-value network (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    game: String,
    input: Input,
    observation_size: usize,
    trunk: Vec<Dense>,
    policy: Dense,
    value: Dense,
    metadata: BTreeMap<String, String>,
}

/// Buffers [`Mlp::forward`] reuses between calls.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
}

impl Mlp {
    /// The model in the file at `path` (see the module docs for what is refused).
    pub fn load(path: impl AsRef<Path>) -> Result<Mlp> {
        let path = path.as_ref();
        let bytes = datafile::read_bytes(path, MAX_MODEL_BYTES)?;
        Mlp::from_bytes(&bytes, &datafile::shown(path))
    }

    /// The model in `bytes` (a model file's contents); errors name `place`.
    pub fn from_bytes(bytes: &[u8], place: &str) -> Result<Mlp> {
        let bad = |what: &str, why: String| Error::data(format!("{place}: {what}"), why);
        if bytes.len() as u64 > MAX_MODEL_BYTES {
            return Err(bad(
                "file",
                format!("{} bytes; at most {MAX_MODEL_BYTES}", bytes.len()),
            ));
        }
        let (_, header) = SafeTensors::read_metadata(bytes)
            .map_err(|e| bad("file", format!("not a safetensors file ({})", short(&e))))?;
        let meta: BTreeMap<String, String> = header
            .metadata()
            .as_ref()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        let key = |k: &str| {
            meta.get(k)
                .ok_or_else(|| bad("metadata", format!("no key {k:?}")))
        };
        let format = key("format")?;
        if format != FORMAT {
            return Err(bad("metadata.format", format!("expected {FORMAT:?}")));
        }
        let version = key("version")?;
        if version.parse::<u32>().ok() != Some(VERSION) {
            return Err(bad(
                "metadata.version",
                format!("version {version:?}; this engine reads version {VERSION}"),
            ));
        }
        let number = |k: &str, top: usize| -> Result<usize> {
            let v = key(k)?;
            match v.parse::<usize>() {
                Ok(n) if (1..=top).contains(&n) => Ok(n),
                _ => Err(bad(
                    &format!("metadata.{k}"),
                    format!("expected a whole number from 1 to {top}"),
                )),
            }
        };
        let inputs = number("observation_size", MAX_WIDTH)?;
        let actions = number("num_actions", MAX_WIDTH)?;
        let players = number("num_players", MAX_PLAYERS)?;
        let hidden_text = key("hidden")?;
        let mut hidden = Vec::new();
        for part in hidden_text.split(',').filter(|s| !s.trim().is_empty()) {
            match part.trim().parse::<usize>() {
                Ok(n) if (1..=MAX_WIDTH).contains(&n) => hidden.push(n),
                _ => {
                    return Err(bad(
                        "metadata.hidden",
                        format!(
                            "expected widths from 1 to {MAX_WIDTH}, comma-separated (or empty)"
                        ),
                    ))
                }
            }
            if hidden.len() > MAX_LAYERS {
                return Err(bad(
                    "metadata.hidden",
                    format!("more than {MAX_LAYERS} layers"),
                ));
            }
        }
        let input = match meta.get("input").map(String::as_str) {
            None | Some("observation") => Input::Observation,
            Some("seats") => Input::Seats,
            Some(_) => {
                return Err(bad(
                    "metadata.input",
                    "expected \"observation\" or \"seats\"".into(),
                ))
            }
        };
        let game = key("game")?.clone();
        if game.is_empty() || game.len() > 64 {
            return Err(bad("metadata.game", "expected a game's name".into()));
        }

        let tensors = SafeTensors::deserialize(bytes)
            .map_err(|e| bad("file", format!("not a safetensors file ({})", short(&e))))?;
        let mut names: Vec<String> = Vec::new();
        let mut dense = |name: &str, inputs: usize, outputs: usize| -> Result<Dense> {
            let weight = read_f32(
                &tensors,
                &format!("{name}.weight"),
                &[outputs, inputs],
                place,
            )?;
            let bias = read_f32(&tensors, &format!("{name}.bias"), &[outputs], place)?;
            names.push(format!("{name}.weight"));
            names.push(format!("{name}.bias"));
            Ok(Dense {
                inputs,
                outputs,
                weight,
                bias,
                columns: Vec::new(),
            })
        };
        let mut trunk = Vec::with_capacity(hidden.len());
        let mut width = input.row_size(inputs, players);
        if width > MAX_WIDTH {
            return Err(bad(
                "metadata.observation_size",
                format!("an input row of {width} numbers; at most {MAX_WIDTH}"),
            ));
        }
        for (i, &h) in hidden.iter().enumerate() {
            let layer = dense(&format!("trunk.{i}"), width, h)?;
            // The first layer reads observations: sparse, so kept by columns too.
            trunk.push(if i == 0 { layer.with_columns() } else { layer });
            width = h;
        }
        let policy = dense("policy", width, actions)?;
        let value = dense("value", width, players)?;
        if tensors.len() != names.len() {
            let extra = tensors
                .names()
                .into_iter()
                .filter(|n| !names.iter().any(|m| m == n))
                .min()
                .unwrap_or("?")
                .to_string();
            return Err(bad(
                &format!("tensor {extra:?}"),
                "not part of this network (hidden widths in the metadata disagree?)".into(),
            ));
        }
        Ok(Mlp {
            game,
            input,
            observation_size: inputs,
            trunk,
            policy,
            value,
            metadata: meta,
        })
    }

    /// The game the network was trained for (its registry name).
    /// This network without the first layer's transposed copy: every layer a dense
    /// product. The same values (to float rounding), slower; for measuring the sparse pass.
    #[doc(hidden)]
    pub fn dense_only(mut self) -> Mlp {
        if let Some(first) = self.trunk.first_mut() {
            first.columns = Vec::new();
        }
        self
    }

    pub fn game(&self) -> &str {
        &self.game
    }
    /// What an input row holds.
    pub fn input(&self) -> Input {
        self.input
    }
    /// The game's observation size (one seat's).
    pub fn observation_size(&self) -> usize {
        self.observation_size
    }
    /// Length of an input row: the observation size, times the players for [`Input::Seats`].
    pub fn input_size(&self) -> usize {
        self.trunk.first().map_or(self.policy.inputs, |l| l.inputs)
    }
    pub fn num_actions(&self) -> usize {
        self.policy.outputs
    }
    pub fn num_players(&self) -> usize {
        self.value.outputs
    }
    /// The trunk's widths.
    pub fn hidden(&self) -> Vec<usize> {
        self.trunk.iter().map(|l| l.outputs).collect()
    }
    /// Every metadata key of the file (the training record included).
    pub fn metadata(&self) -> &BTreeMap<String, String> {
        &self.metadata
    }
    /// Multiply-adds of one evaluation.
    pub fn flops(&self) -> usize {
        self.trunk
            .iter()
            .chain([&self.policy, &self.value])
            .map(|l| l.inputs * l.outputs)
            .sum()
    }

    /// Refuses a network made for another game, or for the same game under options that
    /// change its observation or action space.
    pub fn check_fits(
        &self,
        game: &str,
        observation_size: usize,
        actions: usize,
        players: usize,
    ) -> Result<()> {
        if self.game != game {
            return Err(Error::invalid(format!(
                "model: trained for the game {}, this game has {game}",
                self.game
            )));
        }
        // Past the game, a mismatch comes from rules options that change the tensors' shapes.
        let mismatch = |what: &str, model: String, here: String| {
            Err(Error::invalid(format!(
                "model: trained for {what} {model}, this game has {here} (a network fits \
                 the rules options it was trained with)"
            )))
        };
        if self.observation_size() != observation_size {
            return mismatch(
                "an observation of size",
                self.observation_size().to_string(),
                observation_size.to_string(),
            );
        }
        if self.num_actions() != actions {
            return mismatch(
                "actions",
                self.num_actions().to_string(),
                actions.to_string(),
            );
        }
        if self.num_players() != players {
            return mismatch(
                "players",
                self.num_players().to_string(),
                players.to_string(),
            );
        }
        Ok(())
    }

    /// Evaluates `rows` inputs at once: `inputs` holds `rows` observations back to back;
    /// `logits` receives `rows × num_actions` policy logits and `values` `rows ×
    /// num_players` values in [-1, 1] (tanh), relative to the mover (module docs).
    pub fn forward(
        &self,
        inputs: &[f32],
        rows: usize,
        scratch: &mut Scratch,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<()> {
        check_len("the policy output", logits.len(), rows, self.num_actions())?;
        self.forward_values(inputs, rows, scratch, values)?;
        let hidden: &[f32] = if self.trunk.is_empty() {
            inputs
        } else {
            &scratch.a
        };
        self.policy.apply(hidden, logits);
        Ok(())
    }

    /// [`forward`](Self::forward)'s values alone, without the policy head (the larger part
    /// of a network whose game has many actions): what a search's leaf needs.
    pub fn forward_values(
        &self,
        inputs: &[f32],
        rows: usize,
        scratch: &mut Scratch,
        values: &mut [f32],
    ) -> Result<()> {
        check_len("the input", inputs.len(), rows, self.input_size())?;
        check_len("the value output", values.len(), rows, self.num_players())?;
        let Scratch { a, b } = scratch;
        let mut first = true;
        for layer in &self.trunk {
            let src: &[f32] = if first { inputs } else { a };
            b.clear();
            b.resize(rows * layer.outputs, 0.0);
            layer.apply(src, b);
            for v in b.iter_mut() {
                *v = v.max(0.0);
            }
            std::mem::swap(a, b);
            first = false;
        }
        let cur: &[f32] = if first { inputs } else { a };
        self.value.apply(cur, values);
        for v in values.iter_mut() {
            *v = v.tanh();
        }
        Ok(())
    }

    /// The policy logits of the actions `ids` alone for one input row (the others are not
    /// computed), into `out` in order; an id out of range gets minus infinity. What a
    /// search's expansion needs to rank a few candidates.
    pub fn logits_of(
        &self,
        input: &[f32],
        ids: &[usize],
        scratch: &mut Scratch,
        out: &mut Vec<f32>,
    ) -> Result<()> {
        let mut v = [0.0f32; MAX_PLAYERS];
        let values = v.get_mut(..self.num_players()).unwrap_or_default();
        self.forward_values(input, 1, scratch, values)?;
        let hidden: &[f32] = if self.trunk.is_empty() {
            input
        } else {
            &scratch.a
        };
        let p = &self.policy;
        out.clear();
        out.extend(ids.iter().map(|&id| {
            match (
                p.weight.get(id * p.inputs..(id + 1) * p.inputs),
                p.bias.get(id),
            ) {
                (Some(w), Some(&b)) => b + dot(w, hidden),
                _ => f32::NEG_INFINITY,
            }
        }));
        Ok(())
    }
}

fn check_len(what: &str, got: usize, rows: usize, per: usize) -> Result<()> {
    if Some(got) == rows.checked_mul(per) {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "model: {what} holds {got} numbers, expected {rows} rows of {per}"
        )))
    }
}

/// A shared, loaded model (agents of many games hold one copy).
pub type SharedMlp = Arc<Mlp>;

/// The model name that asks for a game's shipped reference network (`model="reference"`).
pub const REFERENCE: &str = "reference";

/// The network a `model` setting names: [`REFERENCE`], the game's shipped one; anything
/// else, the path of a model file.
pub fn load_named(name: &str, game: &str) -> Result<Mlp> {
    if name == REFERENCE {
        return reference(game);
    }
    Mlp::load(name)
}

/// The shipped reference networks by game (data/models/, docs/learn.md: how each was made
/// and the settings it was measured with). Zinordia's reads the duel's observation.
const REFERENCES: [(&str, &[u8]); 2] = [
    (
        "arte",
        include_bytes!("../../../../data/models/arte.safetensors"),
    ),
    (
        "zinordia",
        include_bytes!("../../../../data/models/zinordia.safetensors"),
    ),
];

/// `game`'s reference network. The networks trained for the games without one lost to
/// their hand-written evaluation at equal time (docs/learn.md has the figures), so asking
/// for theirs is an error that says so.
pub fn reference(game: &str) -> Result<Mlp> {
    match REFERENCES.iter().find(|(name, _)| *name == game) {
        Some((_, bytes)) => Mlp::from_bytes(bytes, &format!("the reference model of {game}")),
        None => Err(Error::invalid(format!(
            "model={REFERENCE}: there is no reference model for {game}: no network trained so \
             far plays better than the game's hand-written evaluation at equal time per move \
             (docs/learn.md); give the path of a model file (kingdoms train)"
        ))),
    }
}

fn short(e: &safetensors::SafeTensorError) -> String {
    crate::error::clip_to(&format!("{e:?}"), 120)
}

/// Tensor `name` as `f32`s of exactly `shape`, every one finite.
fn read_f32(
    tensors: &SafeTensors<'_>,
    name: &str,
    shape: &[usize],
    place: &str,
) -> Result<Vec<f32>> {
    let bad = |why: String| Error::data(format!("{place}: tensor {name}"), why);
    let t = tensors.tensor(name).map_err(|_| bad("missing".into()))?;
    if t.dtype() != Dtype::F32 {
        return Err(bad(format!("dtype {:?}, expected F32", t.dtype())));
    }
    if t.shape() != shape {
        return Err(bad(format!("shape {:?}, expected {shape:?}", t.shape())));
    }
    let data = t.data();
    let mut out = Vec::with_capacity(data.len() / 4);
    for c in data.chunks_exact(4) {
        let v = f32::from_le_bytes([
            c.first().copied().unwrap_or(0),
            c.get(1).copied().unwrap_or(0),
            c.get(2).copied().unwrap_or(0),
            c.get(3).copied().unwrap_or(0),
        ]);
        if !v.is_finite() {
            return Err(bad(format!("element {} is not a finite number", out.len())));
        }
        out.push(v);
    }
    if out.len() != shape.iter().product::<usize>() {
        return Err(bad("its data does not fit its shape".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
