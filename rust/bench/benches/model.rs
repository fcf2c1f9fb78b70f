//! Learned evaluation (issue 56): one evaluation of a policy-and-value network of the shape
//! `kingdoms train` makes by default (hidden 256,128) on Battle Line, alone and in batches,
//! with the observation, beside the hand-written evaluation it would replace.
//! `cargo bench -p kingdoms-bench --bench model`

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench may panic

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kingdoms_core::battleline::options::Options;
use kingdoms_core::battleline::BattleLine;
use kingdoms_core::model::{Mlp, ModelEval, Scratch};
use kingdoms_core::{Game, GameRng, Knowledge};
use safetensors::tensor::{Dtype, TensorView};
use std::collections::HashMap;
use std::sync::Arc;

/// A network of `hidden` widths for Battle Line with weights drawn from a seed.
fn network(hidden: &[usize]) -> Mlp {
    let g = BattleLine::new(1, &Options::default()).unwrap();
    let obs: usize = g.observation_shape().iter().product();
    let mut rng = GameRng::seed(1);
    let mut widths = vec![obs];
    widths.extend_from_slice(hidden);
    let mut layers: Vec<(String, usize, usize)> = widths
        .windows(2)
        .enumerate()
        .map(|(i, w)| (format!("trunk.{i}"), w[1], w[0]))
        .collect();
    let last = *widths.last().unwrap();
    layers.push(("policy".into(), g.num_actions(), last));
    layers.push(("value".into(), 2, last));
    let mut bufs = Vec::new();
    for (name, out, inp) in &layers {
        let mut rand = |n: usize| -> Vec<u8> {
            (0..n)
                .flat_map(|_| ((rng.next_u64() % 2001) as f32 / 20000.0 - 0.05).to_le_bytes())
                .collect()
        };
        bufs.push((format!("{name}.weight"), rand(out * inp), vec![*out, *inp]));
        bufs.push((format!("{name}.bias"), rand(*out), vec![*out]));
    }
    let views: Vec<(String, TensorView<'_>)> = bufs
        .iter()
        .map(|(n, d, s)| {
            (
                n.clone(),
                TensorView::new(Dtype::F32, s.clone(), d).unwrap(),
            )
        })
        .collect();
    let hidden_text: Vec<String> = hidden.iter().map(|h| h.to_string()).collect();
    let meta: HashMap<String, String> = [
        ("format", "kingdoms-mlp".to_string()),
        ("version", "1".into()),
        ("game", "battleline".into()),
        ("observation_size", obs.to_string()),
        ("num_actions", g.num_actions().to_string()),
        ("num_players", "2".into()),
        ("hidden", hidden_text.join(",")),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let bytes = safetensors::serialize(views, Some(meta)).unwrap();
    Mlp::from_bytes(&bytes, "bench").unwrap()
}

fn midgame() -> BattleLine {
    let mut g = BattleLine::new(7, &Options::default()).unwrap();
    let mut rng = GameRng::seed(7);
    let mut buf = Vec::new();
    for _ in 0..20 {
        g.legal_actions(&mut buf);
        let a = *rng.choose(&buf).unwrap();
        g.apply(a).unwrap();
    }
    g
}

fn evaluation(c: &mut Criterion) {
    let g = midgame();
    let mut group = c.benchmark_group("model");
    for hidden in [&[256usize, 128][..], &[64][..]] {
        let name = hidden
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join("x");
        let mlp = Arc::new(network(hidden));
        let obs = mlp.observation_size();
        let mut x = vec![0.0f32; obs];
        g.observation(g.current_player().unwrap(), &mut x);
        let mut s = Scratch::default();
        let (mut l, mut v) = (vec![0.0; mlp.num_actions()], vec![0.0; 2]);
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("forward_{name}"), |b| {
            b.iter(|| mlp.forward(&x, 1, &mut s, &mut l, &mut v).unwrap())
        });
        let rows = 32;
        let xs: Vec<f32> = x.iter().copied().cycle().take(rows * obs).collect();
        let (mut lb, mut vb) = (vec![0.0; rows * mlp.num_actions()], vec![0.0; rows * 2]);
        group.throughput(Throughput::Elements(rows as u64));
        group.bench_function(format!("forward_{name}_batch32"), |b| {
            b.iter(|| mlp.forward(&xs, rows, &mut s, &mut lb, &mut vb).unwrap())
        });
        let mut ev = ModelEval::for_game(mlp.clone(), &g).unwrap();
        let mut out = [0.0f64; 2];
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("value_each_{name}"), |b| {
            b.iter(|| ev.value_each(&g, &mut out).unwrap())
        });
        // The same with the first layer as a dense product (before the sparse pass).
        let dense = Arc::new(network(hidden).dense_only());
        let mut evd = ModelEval::for_game(dense, &g).unwrap();
        group.bench_function(format!("value_each_{name}_dense"), |b| {
            b.iter(|| evd.value_each(&g, &mut out).unwrap())
        });
    }
    let mut out = [0.0f64; 2];
    group.bench_function("hand_written_evaluate_each", |b| {
        b.iter(|| g.evaluate_each(&mut out))
    });
    group.finish();
}

criterion_group!(benches, evaluation);
criterion_main!(benches);
