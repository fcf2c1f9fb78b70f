//! BL-9: claims and their proofs, checked against brute force.

use super::*;

// ---- BL-9: claims -----------------------------------------------------------------------

#[test]
fn bl_9_4_claim_against_an_incomplete_side_needs_a_proof() {
    // R10 R9 R8 wedge (27) vs B-anything: the best blue wedge is B8-B10 = 27, a tie the
    // claimant wins (completed first) — but only if those are unseen; with B10 visible the
    // opponent can reach at most wedge 24.
    let g = build(json!({
        "flags": [{"sides": [["R10", "R9", "R8"], ["B9"]]}],
        "hands": [["P9"], ["P1"]],
    }));
    let p = g.claim_proof(0, 0).unwrap();
    assert!(p.holds(), "{p}");
    // Player 0 with a weaker Phalanx of 7s vs player 1's B9: blue wedge 27 beats it.
    let mut g = build(json!({
        "flags": [{"sides": [["R7", "O7", "Y7"], ["B9"]]}],
        "hands": [["P9"], ["P1"]],
    }));
    let p = g.claim_proof(0, 0).unwrap();
    assert_eq!(p.verdict, Verdict::Beatable);
    let cex = p.counterexample().unwrap();
    assert_eq!(cex.kind, Kind::Wedge);
    play(&mut g, "P9@3");
    // Not claimable: no claim step, and claiming is illegal in the draw step.
    assert_eq!(g.phase, Phase::Draw);
}

#[test]
fn bl_9_4_illegal_claim_names_the_rule() {
    let mut g = build(json!({
        "flags": [
            {"sides": [["R7", "O7", "Y7"], ["B9"]]},
            {"sides": [["R10", "R9", "R8"], ["G1"]]},
            {"sides": [["Y1", "Y2", "Y3"], ["P1", "P2"]]},
            {"sides": [["O1", "O2", "O3"], ["G2", "G3"]], "claimed": 0},
        ],
        "hands": [["P9"], ["P4"]],
        "phase": "claim",
    }));
    // Flag 2: the best purple completion (P3) only ties, and the tie goes to player 0.
    assert_eq!(legal_text(&g), ["claim 1", "claim 2", "done"]);
    assert_illegal(&mut g, "claim 0", "BL-9.4");
    assert_illegal(&mut g, "claim 3", "BL-9.7");
    assert_illegal(&mut g, "claim 4", "BL-9.2");
    play(&mut g, "claim 1");
    assert_illegal(&mut g, "claim 1", "BL-9.7");
    // Flags 1, 2, 3: three adjacent, the game ends at once (BL-11.1).
    play(&mut g, "claim 2");
    assert_eq!(g.winner(), Some(0));
}

#[test]
fn bl_9_5_own_hand_counts_as_unseen_and_tactics_never_count() {
    // Player 0 holds B10 in hand: it is still unseen, so the blue wedge B8-B10 beats the
    // Phalanx of 7s. Leaders in player 1's hand do not matter.
    let g = build(json!({
        "flags": [{"sides": [["R7", "O7", "Y7"], ["B9"]]}],
        "hands": [["B10", "B8"], ["Alexander"]],
    }));
    assert!(!g.claim_proof(0, 0).unwrap().holds());
    // With B10 and B8 visible on other flags, blue 9 cannot make a wedge beating 21...
    let g = build(json!({
        "flags": [
            {"sides": [["R7", "O7", "Y7"], ["B9"]]},
            {"sides": [["B10", "B8"], []]},
        ],
        "hands": [["P1"], ["Alexander"]],
    }));
    // ...but a Phalanx of 9s (27) still can: G9 O9 ...
    let p = g.claim_proof(0, 0).unwrap();
    assert_eq!(p.counterexample().unwrap().kind, Kind::Phalanx);
}

#[test]
fn bl_9_6_tie_goes_to_the_side_completed_first() {
    let g = build(json!({
        "flags": [{"sides": [["R5", "O5", "Y5"], ["B5", "G5", "P5"]], "first_complete": 1}],
        "hands": [["P9"], ["P1"]],
    }));
    assert_eq!(g.claim_proof(0, 0).unwrap().verdict, Verdict::LosesTie);
    assert_eq!(g.claim_proof(0, 1).unwrap().verdict, Verdict::WinsTie);
    // Against an incomplete side, a possible tie proves the claim.
    let g = build(json!({
        "flags": [{"sides": [["R10", "R9", "R8"], ["B10", "B9"]]}],
        "hands": [["P9"], ["P1"]],
    }));
    let p = g.claim_proof(0, 0).unwrap();
    assert_eq!(p.verdict, Verdict::Unbeatable, "{p}");
}

// ---- proofs vs brute force ------------------------------------------------------------

struct Case {
    mine: Vec<Card>,
    theirs: Vec<Card>,
    pool: Vec<Card>,
    fog: bool,
    mud: bool,
    mine_first: bool,
}

fn random_case(rng: &mut GameRng) -> Case {
    let mud = rng.below(3) == 0;
    let fog = rng.below(3) == 0;
    let size = if mud { 4 } else { 3 };
    let mut troops: Vec<Card> = (0..60).map(Card).collect();
    // Concentrate on few colours / a value window half of the time, so strong formations
    // and ties are common.
    if rng.below(2) == 0 {
        let c1 = rng.below(6) as u8;
        let c2 = rng.below(6) as u8;
        let lo = rng.below(7) as u8 + 1;
        troops.retain(|c| {
            (c.colour() == c1 || c.colour() == c2) || (c.value() >= lo && c.value() <= lo + 3)
        });
    }
    rng.shuffle(&mut troops);
    let mut wilds = vec![Card::CAVALRY, Card::SHIELD];
    let leaders = [Card::ALEXANDER, Card::DARIUS];
    let take_side = |n: usize,
                     rng: &mut GameRng,
                     troops: &mut Vec<Card>,
                     wilds: &mut Vec<Card>,
                     leader: Card| {
        let mut side = Vec::new();
        let mut has_leader = false;
        while side.len() < n {
            if rng.below(5) == 0 {
                let pick = rng.below(3);
                if pick == 2 && !has_leader {
                    has_leader = true;
                    side.push(leader);
                    continue;
                }
                if let Some(i) = (pick < wilds.len()).then_some(pick) {
                    side.push(wilds.remove(i));
                    continue;
                }
            }
            if let Some(c) = troops.pop() {
                side.push(c);
            }
        }
        side
    };
    let mine = take_side(size, rng, &mut troops, &mut wilds, leaders[0]);
    let k = rng.below(size + 1);
    let theirs = take_side(k, rng, &mut troops, &mut wilds, leaders[1]);
    let n = rng.below(13).min(troops.len());
    let pool: Vec<Card> = troops[..n].to_vec();
    let mine_first = if theirs.len() == size {
        rng.below(2) == 0
    } else {
        true
    };
    Case {
        mine,
        theirs,
        pool,
        fog,
        mud,
        mine_first,
    }
}

#[test]
fn bl_9_proofs_agree_with_brute_force() {
    let mut rng = GameRng::seed(2024);
    let mut holds = 0;
    let mut cases = 0;
    let mut verdicts = std::collections::HashSet::new();
    for _ in 0..10000 {
        let c = random_case(&mut rng);
        let pool_bits = c.pool.iter().fold(0u64, |a, x| a | 1 << x.0);
        let proof = prove_unchecked(&c.mine, &c.theirs, pool_bits, c.fog, c.mud, c.mine_first);
        let brute = brute::claim_holds(&c.mine, &c.theirs, &c.pool, c.fog, c.mud, c.mine_first);
        let desc = format!(
            "mine {:?} theirs {:?} pool {:?} fog {} mud {} first {}: {proof}",
            c.mine.iter().map(ToString::to_string).collect::<Vec<_>>(),
            c.theirs.iter().map(ToString::to_string).collect::<Vec<_>>(),
            c.pool.iter().map(ToString::to_string).collect::<Vec<_>>(),
            c.fog,
            c.mud,
            c.mine_first
        );
        assert_eq!(proof.holds(), brute, "{desc}");
        verdicts.insert(proof.verdict);
        // The claimant's formation is the brute-force best, and its resolution is real.
        assert_eq!(
            proof.mine.strength(),
            brute::best_strength(&c.mine, c.fog),
            "{desc}"
        );
        check_resolution(&proof.mine);
        // A counterexample is a real completion from the pool that beats or ties.
        if let Some(cex) = proof.counterexample() {
            check_resolution(cex);
            assert_eq!(&cex.cards()[..c.theirs.len()], &c.theirs[..]);
            for x in cex.completion() {
                assert!(c.pool.contains(x), "{desc}");
            }
            assert_eq!(
                cex.strength(),
                brute::best_strength(cex.cards(), c.fog),
                "{desc}"
            );
            assert!(cex.strength() >= proof.mine.strength(), "{desc}");
        }
        // The unrestricted search finds the brute-force maximum.
        let size = if c.mud { 4 } else { 3 };
        if c.theirs.len() < size {
            let got = best_completion(&c.theirs, pool_bits, size, c.fog).map(|f| f.strength());
            let want = brute::best_completion_strength(&c.theirs, &c.pool, size, c.fog);
            assert_eq!(got, want, "{desc}");
        }
        holds += usize::from(brute);
        cases += 1;
    }
    // The cases exercise both outcomes and every verdict.
    assert!(
        holds > cases / 10 && holds < cases * 9 / 10,
        "{holds}/{cases}"
    );
    assert_eq!(verdicts.len(), 7, "{verdicts:?}");
}

fn check_resolution(f: &crate::battleline::formation::Formation) {
    for (c, r) in f.cards().iter().zip(f.resolved()) {
        assert!(r.is_troop());
        match *c {
            Card::CAVALRY => assert_eq!(r.value(), 8),
            Card::SHIELD => assert!(r.value() <= 3),
            x if x.is_troop() => assert_eq!(x, *r),
            _ => {}
        }
    }
    let (k, t) = classify(f.resolved(), f.fog);
    assert_eq!(t, u32::from(f.total));
    if !f.fog {
        assert_eq!(k, f.kind);
    }
}

#[test]
fn search_respects_min_kind() {
    let pool = cards("B8 B9 B10 R5 O5 Y5")
        .iter()
        .fold(0u64, |a, c| a | 1 << c.0);
    assert_eq!(search(&[], pool, 3, false, Kind::Wedge).unwrap().total, 27);
    let pool = cards("R5 O5 Y5 R1").iter().fold(0u64, |a, c| a | 1 << c.0);
    assert!(search(&[], pool, 3, false, Kind::Wedge).is_none());
    assert_eq!(
        search(&[], pool, 3, false, Kind::Phalanx).unwrap().kind,
        Kind::Phalanx
    );
}

#[test]
fn public_prove_claim_checks_its_input() {
    let c = cards;
    assert!(prove_claim(&c("R1 R2"), &[], &[], false, false, None).is_err());
    assert!(prove_claim(&c("R1 R2 R3"), &c("R3"), &[], false, false, None).is_err());
    assert!(prove_claim(&c("R1 R2 R3"), &c("B1 B2 B3"), &[], false, false, None).is_err());
    assert!(prove_claim(&c("R1 R2 R3"), &c("B1"), &c("Fog"), false, false, None).is_err());
    assert!(prove_claim(&c("R1 R2 R3"), &c("B1"), &c("R2"), false, false, None).is_err());
    assert!(prove_claim(&c("Alexander Darius R3"), &[], &[], false, false, None).is_err());
    assert!(prove_claim(&c("R1 R2 R3"), &c("B1"), &[], false, false, Some(false)).is_err());
    let p = prove_claim(
        &c("R1 R2 R3"),
        &c("B1 B2 B3"),
        &[],
        false,
        false,
        Some(true),
    )
    .unwrap();
    assert_eq!(p.verdict, Verdict::WinsTie);
}
