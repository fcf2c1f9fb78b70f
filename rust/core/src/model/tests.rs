#![allow(clippy::indexing_slicing)]

use super::*;
use crate::battleline::options::Options as BlOptions;
use crate::battleline::BattleLine;
use crate::game::Game;
use crate::rng::GameRng;
use safetensors::tensor::TensorView;
use std::collections::HashMap;

/// A dense layer for [`file`]: name, outputs, inputs, `[out, in]` weights, bias.
type Layer<'a> = (&'a str, usize, usize, Vec<f32>, Vec<f32>);

/// A model file's bytes: `layers` as given, metadata as given.
fn file(layers: &[Layer<'_>], meta: &[(&str, &str)]) -> Vec<u8> {
    let mut bufs: Vec<(String, Vec<u8>, Vec<usize>)> = Vec::new();
    for (name, out, inp, w, b) in layers {
        let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        bufs.push((format!("{name}.weight"), bytes(w), vec![*out, *inp]));
        bufs.push((format!("{name}.bias"), bytes(b), vec![*out]));
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
    let meta: HashMap<String, String> = meta
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    safetensors::serialize(views, Some(meta)).unwrap()
}

fn meta<'a>(
    obs: &'a str,
    actions: &'a str,
    players: &'a str,
    hidden: &'a str,
) -> Vec<(&'a str, &'a str)> {
    vec![
        ("format", FORMAT),
        ("version", "1"),
        ("game", "battleline"),
        ("observation_size", obs),
        ("num_actions", actions),
        ("num_players", players),
        ("hidden", hidden),
    ]
}

/// 2 inputs -> 2 hidden (ReLU) -> 3 logits and 2 values, small enough to compute by hand.
fn tiny() -> Vec<u8> {
    file(
        &[
            ("trunk.0", 2, 2, vec![1.0, -1.0, 0.5, 0.5], vec![0.0, -1.0]),
            (
                "policy",
                3,
                2,
                vec![1.0, 0.0, 0.0, 1.0, 1.0, 1.0],
                vec![0.0, 0.0, 0.5],
            ),
            ("value", 2, 2, vec![0.25, 0.0, -0.25, 0.0], vec![0.0, 0.0]),
        ],
        &meta("2", "3", "2", "2"),
    )
}

#[test]
fn forward_computes_the_network() {
    let m = Mlp::from_bytes(&tiny(), "tiny").unwrap();
    assert_eq!(m.hidden(), vec![2]);
    assert_eq!(
        (m.observation_size(), m.num_actions(), m.num_players()),
        (2, 3, 2)
    );
    // x = (3, 1): h = relu(3 - 1, 0.5 * 4 - 1) = (2, 1)
    let (mut logits, mut values) = (vec![0.0; 3], vec![0.0; 2]);
    m.forward(
        &[3.0, 1.0],
        1,
        &mut Scratch::default(),
        &mut logits,
        &mut values,
    )
    .unwrap();
    assert_eq!(logits, vec![2.0, 1.0, 3.5]);
    assert!((values[0] - 0.5f32.tanh()).abs() < 1e-7);
    assert!((values[1] + 0.5f32.tanh()).abs() < 1e-7);
}

#[test]
fn a_batch_equals_its_rows_one_by_one() {
    let (obs, h1, h2, acts) = (37, 19, 11, 13);
    let mut rng = GameRng::seed(5);
    let mut rand = |n: usize| -> Vec<f32> {
        (0..n)
            .map(|_| (rng.next_u64() % 2001) as f32 / 1000.0 - 1.0)
            .collect()
    };
    let bytes = file(
        &[
            ("trunk.0", h1, obs, rand(h1 * obs), rand(h1)),
            ("trunk.1", h2, h1, rand(h2 * h1), rand(h2)),
            ("policy", acts, h2, rand(acts * h2), rand(acts)),
            ("value", 3, h2, rand(3 * h2), rand(3)),
        ],
        &meta("37", "13", "3", "19, 11"),
    );
    let m = Mlp::from_bytes(&bytes, "m").unwrap();
    assert_eq!(m.flops(), obs * h1 + h1 * h2 + h2 * acts + h2 * 3);
    let rows = 5;
    let x = rand(rows * obs);
    let mut s = Scratch::default();
    let (mut lb, mut vb) = (vec![0.0; rows * acts], vec![0.0; rows * 3]);
    m.forward(&x, rows, &mut s, &mut lb, &mut vb).unwrap();
    for r in 0..rows {
        let (mut l, mut v) = (vec![0.0; acts], vec![0.0; 3]);
        m.forward(&x[r * obs..(r + 1) * obs], 1, &mut s, &mut l, &mut v)
            .unwrap();
        assert_eq!(&lb[r * acts..(r + 1) * acts], &l[..]);
        assert_eq!(&vb[r * 3..(r + 1) * 3], &v[..]);
    }
    // wrong lengths are refused, not read past
    let err = m
        .forward(&x[1..], rows, &mut s, &mut lb, &mut vb)
        .unwrap_err();
    assert!(err.to_string().contains("the input holds"), "{err}");
}

#[test]
fn a_network_without_hidden_layers_is_linear() {
    let bytes = file(
        &[
            ("policy", 2, 2, vec![1.0, 2.0, 3.0, 4.0], vec![0.0, 1.0]),
            ("value", 1, 2, vec![0.0, 0.0], vec![0.25]),
        ],
        &meta("2", "2", "1", ""),
    );
    let m = Mlp::from_bytes(&bytes, "linear").unwrap();
    let (mut l, mut v) = (vec![0.0; 2], vec![0.0; 1]);
    m.forward(&[1.0, -1.0], 1, &mut Scratch::default(), &mut l, &mut v)
        .unwrap();
    assert_eq!(l, vec![-1.0, 0.0]);
    assert!((v[0] - 0.25f32.tanh()).abs() < 1e-7);
}

fn refusal(bytes: &[u8]) -> String {
    match Mlp::from_bytes(bytes, "bad.safetensors") {
        Err(e @ Error::Data { .. }) => e.to_string(),
        other => panic!("expected a data error, got {other:?}"),
    }
}

#[test]
fn bad_files_are_data_errors_naming_the_part() {
    assert!(refusal(b"").contains("not a safetensors file"));
    assert!(refusal(b"\xff\xff\xff\xff\xff\xff\xff\xff{}").contains("not a safetensors file"));
    let good = tiny();
    // Truncated data
    assert!(refusal(&good[..good.len() - 3]).contains("safetensors"));
    let layers = |w0: Vec<f32>| {
        vec![
            ("trunk.0", 2, 2, w0, vec![0.0, -1.0]),
            ("policy", 3, 2, vec![0.0; 6], vec![0.0; 3]),
            ("value", 2, 2, vec![0.0; 4], vec![0.0; 2]),
        ]
    };
    let ok = layers(vec![0.0; 4]);
    let mut m = meta("2", "3", "2", "2");
    m[0].1 = "pytorch";
    assert!(refusal(&file(&ok, &m)).contains("metadata.format"));
    let mut m = meta("2", "3", "2", "2");
    m[1].1 = "2";
    assert!(refusal(&file(&ok, &m)).contains("metadata.version"));
    let m = meta("2", "3", "2", "2");
    assert!(refusal(&file(&ok, &m[..3])).contains("observation_size"));
    assert!(refusal(&file(&ok, &meta("0", "3", "2", "2"))).contains("metadata.observation_size"));
    assert!(refusal(&file(&ok, &meta("2", "3", "99", "2"))).contains("metadata.num_players"));
    assert!(refusal(&file(&ok, &meta("2", "3", "2", "2,x"))).contains("metadata.hidden"));
    let deep = vec!["1"; MAX_LAYERS + 1].join(",");
    assert!(refusal(&file(&ok, &meta("2", "3", "2", &deep))).contains("more than"));
    // shapes disagree with the metadata
    assert!(refusal(&file(&ok, &meta("3", "3", "2", "2"))).contains("tensor trunk.0.weight"));
    assert!(refusal(&file(&ok, &meta("2", "4", "2", "2"))).contains("tensor policy.weight"));
    // a trunk layer the metadata does not list
    assert!(refusal(&file(&ok, &meta("2", "3", "2", ""))).contains("tensor \"trunk.0.bias\""));
    let mut extra = ok.clone();
    extra.push(("extra", 1, 1, vec![0.0], vec![0.0]));
    assert!(refusal(&file(&extra, &meta("2", "3", "2", "2"))).contains("not part of this network"));
    // missing tensor
    let no_policy = [ok[0].clone(), ok[2].clone()];
    assert!(refusal(&file(&no_policy, &meta("2", "3", "2", "2")))
        .contains("tensor policy.weight: missing"));
    // non-finite weights
    let nan = layers(vec![0.0, f32::NAN, 0.0, 0.0]);
    assert!(refusal(&file(&nan, &meta("2", "3", "2", "2"))).contains("finite"));
    let inf = layers(vec![0.0, 0.0, 0.0, f32::INFINITY]);
    assert!(refusal(&file(&inf, &meta("2", "3", "2", "2"))).contains("element 3"));
    // another dtype
    let d = vec![0u8; 8 * 4];
    let views = vec![(
        "trunk.0.weight".to_string(),
        TensorView::new(Dtype::F64, vec![2, 2], &d).unwrap(),
    )];
    let mm: HashMap<String, String> = meta("2", "3", "2", "2")
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let f64file = safetensors::serialize(views, Some(mm)).unwrap();
    assert!(refusal(&f64file).contains("dtype F64"));
}

#[test]
fn load_reads_through_the_data_file_reader() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.safetensors");
    std::fs::write(&path, tiny()).unwrap();
    let m = Mlp::load(&path).unwrap();
    assert_eq!(m, Mlp::from_bytes(&tiny(), "x").unwrap());
    assert_eq!(
        m.metadata().get("game").map(String::as_str),
        Some("battleline")
    );
    // a folder is refused without reading
    let err = Mlp::load(dir.path()).unwrap_err();
    assert!(matches!(err, Error::Data { .. }), "{err}");
    let err = Mlp::load(dir.path().join("missing")).unwrap_err();
    assert!(matches!(err, Error::Data { .. }), "{err}");
}

/// A network shaped for Battle Line with weights drawn from `seed`.
fn battleline_model(seed: u64) -> Arc<Mlp> {
    battleline_net(seed, false)
}

/// A Battle Line network with weights drawn from `seed`, reading the mover's observation or,
/// with `seats`, every seat's (`input=seats`).
fn battleline_net(seed: u64, seats: bool) -> Arc<Mlp> {
    let g = BattleLine::new(1, &BlOptions::default()).unwrap();
    let obs: usize = g.observation_shape().iter().product();
    let acts = g.num_actions();
    let mut rng = GameRng::seed(seed);
    let mut rand = |n: usize| -> Vec<f32> {
        (0..n)
            .map(|_| (rng.next_u64() % 2001) as f32 / 10000.0 - 0.1)
            .collect()
    };
    let (os, as_) = (obs.to_string(), acts.to_string());
    let mut m = meta(&os, &as_, "2", "16");
    let row = if seats { 2 * obs } else { obs };
    if seats {
        m.push(("input", "seats"));
    }
    let bytes = file(
        &[
            ("trunk.0", 16, row, rand(16 * row), rand(16)),
            ("policy", acts, 16, rand(acts * 16), rand(acts)),
            ("value", 2, 16, rand(32), rand(2)),
        ],
        &m,
    );
    Arc::new(Mlp::from_bytes(&bytes, "bl").unwrap())
}

#[test]
fn the_evaluator_gives_each_player_a_value_and_a_prior_over_legal_moves() {
    let model = battleline_model(3);
    let mut g = BattleLine::new(9, &BlOptions::default()).unwrap();
    let mut ev = ModelEval::for_game(model.clone(), &g).unwrap();
    let mut rng = GameRng::seed(4);
    let mut legal = Vec::new();
    let mut priors = Vec::new();
    let mut positions = Vec::new();
    while !g.is_terminal() {
        positions.push(g.clone());
        g.legal_actions(&mut legal);
        ev.priors(&g, &legal, &mut priors).unwrap();
        assert_eq!(priors.len(), legal.len());
        assert!((priors.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let mut v = [0.0; 2];
        ev.value_each(&g, &mut v).unwrap();
        assert!(v.iter().all(|x| (-1.0..=1.0).contains(x)));
        // The mover's value is the network's first output on the mover's observation.
        let p = g.current_player().unwrap();
        let mut obs = vec![0.0; model.observation_size()];
        g.observation(p, &mut obs);
        let (mut l, mut nv) = (vec![0.0; model.num_actions()], vec![0.0; 2]);
        model
            .forward(&obs, 1, &mut Scratch::default(), &mut l, &mut nv)
            .unwrap();
        assert_eq!(v[p], f64::from(nv[0]));
        assert_eq!(v[1 - p], f64::from(nv[1]));
        // The view decides: a redraw of what the mover cannot see changes nothing.
        let r = g.resample_hidden(p, rng.next_u64());
        let mut rv = [0.0; 2];
        ev.value_each(&r, &mut rv).unwrap();
        assert_eq!(v, rv);
        let a = legal[(rng.next_u64() % legal.len() as u64) as usize];
        g.apply(a).unwrap();
    }
    // Over: the returns.
    let mut v = [0.0; 2];
    ev.value_each(&g, &mut v).unwrap();
    assert_eq!(v.to_vec(), g.returns());
    // A batch equals its positions one by one.
    positions.push(g.clone());
    let mut batch = vec![0.0; positions.len() * 2];
    ev.value_batch(&positions, &mut batch).unwrap();
    for (i, p) in positions.iter().enumerate() {
        let mut v = [0.0; 2];
        ev.value_each(p, &mut v).unwrap();
        assert_eq!(&batch[i * 2..i * 2 + 2], &v[..]);
    }
}

#[test]
fn a_network_for_another_game_or_shape_is_refused() {
    let model = battleline_model(1);
    let g = crate::strifull::Strifull::new(1, &Default::default()).unwrap();
    let err = ModelEval::for_game(model, &g).unwrap_err();
    assert!(
        err.to_string().contains("trained for the game battleline"),
        "{err}"
    );
    // another game is not a matter of rules options: the message does not say so
    assert!(!err.to_string().contains("rules options"), "{err}");
    let g = BattleLine::new(1, &BlOptions::default()).unwrap();
    let bytes = file(
        &[
            ("policy", 3, 2, vec![0.0; 6], vec![0.0; 3]),
            ("value", 2, 2, vec![0.0; 4], vec![0.0; 2]),
        ],
        &meta("2", "3", "2", ""),
    );
    let small = Arc::new(Mlp::from_bytes(&bytes, "s").unwrap());
    let err = ModelEval::for_game(small, &g).unwrap_err();
    assert!(err.to_string().contains("observation of size 2"), "{err}");
}

#[test]
fn values_alone_and_chosen_logits_equal_the_whole_pass() {
    let model = battleline_model(8);
    let mut g = BattleLine::new(2, &BlOptions::default()).unwrap();
    let mut legal = Vec::new();
    let mut rng = GameRng::seed(2);
    let mut s = Scratch::default();
    for _ in 0..12 {
        let p = g.current_player().unwrap();
        let mut obs = vec![0.0; model.observation_size()];
        g.observation(p, &mut obs);
        let (mut l, mut v) = (vec![0.0; model.num_actions()], vec![0.0; 2]);
        model.forward(&obs, 1, &mut s, &mut l, &mut v).unwrap();
        let mut v2 = vec![0.0; 2];
        model.forward_values(&obs, 1, &mut s, &mut v2).unwrap();
        assert_eq!(v, v2);
        g.legal_actions(&mut legal);
        let ids: Vec<usize> = legal.iter().map(|&a| g.action_id(a)).collect();
        let mut chosen = Vec::new();
        model.logits_of(&obs, &ids, &mut s, &mut chosen).unwrap();
        let whole: Vec<f32> = ids.iter().map(|&i| l[i]).collect();
        assert_eq!(chosen, whole);
        // an id past the actions ranks last rather than failing
        model
            .logits_of(&obs, &[model.num_actions()], &mut s, &mut chosen)
            .unwrap();
        assert_eq!(chosen, vec![f32::NEG_INFINITY]);
        // the evaluator's choice is the legal action of the highest logit
        let mut ev = ModelEval::for_game(model.clone(), &g).unwrap();
        let best = ev.best_by_policy(&g, &legal).unwrap().unwrap();
        assert!(whole.iter().all(|&x| x <= whole[best]));
        assert_eq!(ev.best_by_policy(&g, &[]).unwrap(), None);
        let a = legal[(rng.next_u64() % legal.len() as u64) as usize];
        g.apply(a).unwrap();
    }
}

#[test]
fn ismcts_searches_with_a_model_and_refuses_another_games() {
    use crate::search::{Agent, Ismcts, IsmctsConfig};
    let model = battleline_model(5);
    let config = IsmctsConfig {
        iterations: Some(200),
        seed: 3,
        ..IsmctsConfig::default()
    };
    let mut g = BattleLine::new(4, &BlOptions::default()).unwrap();
    let mut legal = Vec::new();
    for _ in 0..6 {
        let mut a = Ismcts::<BattleLine>::new(config.clone()).with_model(model.clone());
        let mut b = Ismcts::<BattleLine>::new(config.clone()).with_model(model.clone());
        let stats = a.search(&g).unwrap();
        let again = b.search(&g).unwrap(); // seeded: the same search
        assert_eq!(
            (stats.iterations, &stats.children),
            (again.iterations, &again.children)
        );
        let m = Ismcts::<BattleLine>::new(config.clone())
            .with_model(model.clone())
            .act(&g)
            .unwrap();
        g.legal_actions(&mut legal);
        assert!(legal.contains(&m));
        g.apply(m).unwrap();
    }
    let s = crate::strifull::Strifull::new(1, &Default::default()).unwrap();
    let err = Ismcts::<crate::strifull::Strifull>::new(config.clone())
        .with_model(model)
        .search(&s)
        .unwrap_err();
    assert!(
        err.to_string().contains("trained for the game battleline"),
        "{err}"
    );
    // by path: a missing file is a data error naming it
    let by_path = IsmctsConfig {
        model: Some("/nonexistent/model.safetensors".into()),
        ..config
    };
    let err = Ismcts::<BattleLine>::new(by_path).search(&g).unwrap_err();
    assert!(matches!(err, Error::Data { .. }), "{err}");
    assert!(err.to_string().contains("model.safetensors"), "{err}");
}

/// A network with no hidden layer whose value weights are zero: its values are
/// `tanh(bias)` whatever the position, so each seat's value shows where the rotation put it.
fn constant_values(game: &str, obs: usize, actions: usize, bias: &[f32]) -> Arc<Mlp> {
    let n = bias.len();
    let (os, as_, ns) = (obs.to_string(), actions.to_string(), n.to_string());
    let mut m = meta(&os, &as_, &ns, "");
    m[2] = ("game", game);
    let bytes = file(
        &[
            (
                "policy",
                actions,
                obs,
                vec![0.0; actions * obs],
                vec![0.0; actions],
            ),
            ("value", n, obs, vec![0.0; n * obs], bias.to_vec()),
        ],
        &m,
    );
    Arc::new(Mlp::from_bytes(&bytes, game).unwrap())
}

#[test]
fn value_k_goes_to_the_player_k_seats_after_the_mover_for_three_and_four_players() {
    use crate::zinordia::options::Options as ZnOptions;
    use crate::zinordia::Zinordia;
    for players in [3u8, 4] {
        let opts = ZnOptions {
            mode: "free_for_all".into(),
            players: Some(players),
            ..ZnOptions::default()
        };
        let mut g = Zinordia::new(5, &opts).unwrap();
        let n = usize::from(players);
        let obs: usize = g.observation_shape().iter().product();
        // Output k: 0.1 * (k + 1), distinct per seat offset.
        let bias: Vec<f32> = (0..n).map(|k| 0.1 * (k as f32 + 1.0)).collect();
        let model = constant_values("zinordia", obs, g.num_actions(), &bias);
        let mut ev = ModelEval::for_game(model, &g).unwrap();
        let mut rng = GameRng::seed(2);
        let mut legal = Vec::new();
        let mut movers = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let Some(p) = g.current_player().filter(|_| !g.is_terminal()) else {
                break;
            };
            movers.insert(p);
            let mut v = vec![0.0; n];
            ev.value_each(&g, &mut v).unwrap();
            for (k, b) in bias.iter().enumerate() {
                let want = f64::from(b.tanh());
                assert!(
                    (v[(p + k) % n] - want).abs() < 1e-6,
                    "mover {p}, offset {k}"
                );
            }
            g.legal_actions(&mut legal);
            g.apply(*rng.choose(&legal).unwrap()).unwrap();
        }
        assert!(movers.len() > 1, "the check saw more than one mover");
    }
}

#[test]
fn the_first_layer_by_columns_equals_the_dense_product() {
    let model = battleline_model(6);
    assert!(
        !model.trunk[0].columns.is_empty(),
        "the first layer is kept by columns"
    );
    let dense = (*model).clone().dense_only();
    let mut g = BattleLine::new(3, &BlOptions::default()).unwrap();
    let mut rng = GameRng::seed(8);
    let mut legal = Vec::new();
    let size = model.observation_size();
    let mut rows = Vec::new();
    while !g.is_terminal() {
        let mut obs = vec![0.0; size];
        g.observation(g.current_player().unwrap(), &mut obs);
        rows.extend(obs);
        g.legal_actions(&mut legal);
        g.apply(*rng.choose(&legal).unwrap()).unwrap();
    }
    let n = rows.len() / size;
    let (mut a, mut b) = (vec![0.0; n * 2], vec![0.0; n * 2]);
    model
        .forward_values(&rows, n, &mut Scratch::default(), &mut a)
        .unwrap();
    dense
        .forward_values(&rows, n, &mut Scratch::default(), &mut b)
        .unwrap();
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() < 1e-5, "{x} vs {y}");
    }
}

#[test]
fn a_seats_network_reads_every_seat_from_the_mover_on_redraws_only() {
    let model = battleline_net(6, true);
    assert_eq!(model.input(), Input::Seats);
    let obs = model.observation_size();
    assert_eq!(model.input_size(), 2 * obs);
    let mut g = BattleLine::new(3, &BlOptions::default()).unwrap();
    // A real game's state: refused, it would read the opponent's hand.
    let err = ModelEval::for_game(model.clone(), &g).unwrap_err();
    assert!(matches!(err, Error::Invalid { .. }), "{err}");
    assert!(err.to_string().contains("input=seats"), "{err}");
    let mut ev = ModelEval::for_redraws(model.clone(), &g).unwrap();
    let mut rng = GameRng::seed(1);
    let mut legal = Vec::new();
    let mut differs = 0;
    for _ in 0..20 {
        let p = g.current_player().unwrap();
        let det = g.resample_hidden(p, rng.next_u64());
        let mut row = vec![0.0; 2 * obs];
        det.observation(p, &mut row[..obs]);
        det.observation(1 - p, &mut row[obs..]);
        let (mut l, mut nv) = (vec![0.0; model.num_actions()], vec![0.0; 2]);
        model
            .forward(&row, 1, &mut Scratch::default(), &mut l, &mut nv)
            .unwrap();
        let mut v = [0.0; 2];
        ev.value_each(&det, &mut v).unwrap();
        assert_eq!((v[p], v[1 - p]), (f64::from(nv[0]), f64::from(nv[1])));
        // Another redraw of the opponent's hand: the row, so (almost always) the value,
        // changes; an observation network's would not.
        let other = det.resample_hidden(p, rng.next_u64());
        let mut ov = [0.0; 2];
        ev.value_each(&other, &mut ov).unwrap();
        differs += usize::from(ov != v);
        g.legal_actions(&mut legal);
        let best = ev.best_by_policy(&det, &legal).unwrap().unwrap();
        let ids: Vec<usize> = legal.iter().map(|&a| det.action_id(a)).collect();
        assert!(ids.iter().all(|&i| l[i] <= l[ids[best]]));
        g.apply(legal[(rng.next_u64() % legal.len() as u64) as usize])
            .unwrap();
    }
    assert!(differs > 10, "the redrawn hand is read: {differs} of 20");
}

#[test]
fn a_seats_network_checks_its_row_and_its_input_key() {
    let g = BattleLine::new(1, &BlOptions::default()).unwrap();
    let obs: usize = g.observation_shape().iter().product();
    let acts = g.num_actions();
    let (os, as_) = (obs.to_string(), acts.to_string());
    // A first layer of one observation under input=seats: the tensor shape is refused.
    let mut m = meta(&os, &as_, "2", "4");
    m.push(("input", "seats"));
    let layers = [
        ("trunk.0", 4, obs, vec![0.0; 4 * obs], vec![0.0; 4]),
        ("policy", acts, 4, vec![0.0; acts * 4], vec![0.0; acts]),
        ("value", 2, 4, vec![0.0; 8], vec![0.0; 2]),
    ];
    let msg = refusal(&file(&layers, &m));
    assert!(msg.contains("tensor trunk.0.weight"), "{msg}");
    // An unknown input kind names the key.
    let mut m = meta(&os, &as_, "2", "4");
    m.push(("input", "board"));
    let msg = refusal(&file(&layers, &m));
    assert!(msg.contains("metadata.input"), "{msg}");
    // "observation" spelled out is the default.
    let mut m = meta(&os, &as_, "2", "4");
    m.push(("input", "observation"));
    let plain = Mlp::from_bytes(&file(&layers, &m), "p").unwrap();
    assert_eq!(plain.input(), Input::Observation);
    assert_eq!(plain.input_size(), obs);
}

#[test]
fn ismcts_searches_with_a_seats_network() {
    use crate::search::{Agent, Ismcts, IsmctsConfig};
    let model = battleline_net(2, true);
    let config = IsmctsConfig {
        iterations: Some(100),
        seed: 5,
        model_prior: true,
        ..IsmctsConfig::default()
    };
    let g = BattleLine::new(4, &BlOptions::default()).unwrap();
    let a = Ismcts::<BattleLine>::new(config.clone())
        .with_model(model.clone())
        .act(&g)
        .unwrap();
    let b = Ismcts::<BattleLine>::new(config)
        .with_model(model)
        .act(&g)
        .unwrap();
    assert_eq!(a, b);
}
