//! SK-6.5-6.8 without rolling: the exact chances of an attack's endings
//! (`Strifull::attack_chances`) and each ending played out (`resolve_attack_as`), against
//! the dice of `resolve_attack`, on the attacks of random games in every option variant.

use super::*;

/// The state's JSON without what only a roll leaves behind (the combat log, the RNG).
fn without_roll(g: &Strifull) -> Value {
    let mut v = g.to_json();
    let o = v.as_object_mut().unwrap();
    o.remove("last_combat");
    o.remove("rng");
    v
}

#[test]
fn attack_chances_match_the_dice_and_each_ending_matches_its_roll() {
    let mut rng = GameRng::seed(5);
    let mut buf = Vec::new();
    let mut checked = 0;
    for (k, opts) in properties::option_variants().iter().enumerate() {
        let mut g = Strifull::new(k as u64 + 40, opts).unwrap();
        while !g.is_terminal() {
            g.legal_actions(&mut buf);
            if g.step == Step::Attack && k % 2 == 0 {
                for &a in buf.iter().filter(|a| matches!(a, Action::Attack(..))) {
                    let Action::Attack(x, t) = a else { continue };
                    let (x, t) = (x as usize, t as usize);
                    let chances = g.attack_chances(x, t);
                    assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                    // The endings of 3,000 rolls: each is the state of its ending played
                    // out without dice, and their shares are near the exact chances.
                    let mut seen = [0u32; 4];
                    let mut endings: [Option<Value>; 4] = Default::default();
                    for (k, e) in endings.iter_mut().enumerate() {
                        if chances[k] > 0.0 {
                            let mut h = g.clone();
                            h.resolve_attack_as(x, t, [k & 1 != 0, k & 2 != 0]);
                            *e = Some(without_roll(&h));
                        }
                    }
                    for r in 0..3000 {
                        let mut h = g.clone();
                        h.rng = GameRng::seed(r);
                        h.resolve_attack(x, t);
                        let log = h.last_combat.unwrap();
                        let gone = [0, 1].map(|i| log.fell[i] && !log.survived[i]);
                        let k = usize::from(gone[0]) + 2 * usize::from(gone[1]);
                        seen[k] += 1;
                        if r < 20 {
                            assert_eq!(Some(without_roll(&h)), endings[k]);
                        }
                    }
                    for k in 0..4 {
                        let share = f64::from(seen[k]) / 3000.0;
                        assert!((share - chances[k]).abs() < 0.04, "{share} vs {chances:?}");
                    }
                    checked += 1;
                }
            }
            let a = *rng.choose(&buf).unwrap();
            g.apply(a).unwrap();
        }
    }
    assert!(checked > 50, "{checked}");
}

/// `expected_values` is the chance-weighted mean of `evaluate` over the endings, and
/// refuses anything but a legal attack.
#[test]
fn expected_values_weigh_each_ending_by_its_chance() {
    let mut rng = GameRng::seed(6);
    let mut buf = Vec::new();
    let mut g = Strifull::new(3, &Options::default()).unwrap();
    let mut checked = 0;
    while !g.is_terminal() {
        g.legal_actions(&mut buf);
        let mut values = [9.0; 2];
        for &a in &buf {
            let attack = matches!(a, Action::Attack(..));
            assert_eq!(g.expected_values(a, &mut values), attack);
            if let Action::Attack(x, t) = a {
                let chances = g.attack_chances(x as usize, t as usize);
                let mut want = [0.0; 2];
                for (k, pr) in chances.into_iter().enumerate().filter(|(_, p)| *p > 0.0) {
                    let mut h = g.clone();
                    h.resolve_attack_as(x as usize, t as usize, [k & 1 != 0, k & 2 != 0]);
                    h.next_pending();
                    for (p, w) in want.iter_mut().enumerate() {
                        *w += pr * h.evaluate(p);
                    }
                }
                assert!((values[0] - want[0]).abs() < 1e-12 && (values[1] - want[1]).abs() < 1e-12);
                checked += 1;
            }
        }
        // An illegal attack is refused.
        let mut values = [9.0; 2];
        if g.step != Step::Attack {
            assert!(!g.expected_values(Action::Attack(0, 9), &mut values));
            assert_eq!(values, [9.0; 2]);
        }
        let a = *rng.choose(&buf).unwrap();
        g.apply(a).unwrap();
    }
    assert!(checked > 5);
}
