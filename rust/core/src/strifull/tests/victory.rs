//! SK-8: victory — the last row, mutual wipe-out.

use super::*;

fn last_rows() -> Pos {
    Pos::new()
        .leader(1, "lyra", "wind", 1)
        .down(0, "aA1", "vigilias_vento")
        .down(0, "dA1", "martires_agua")
        .down(1, "aA1", "adeptos_fogo")
        .down(1, "dA1", "adeptos_terra")
}

#[test]
fn sk_8_1_eliminating_the_last_row_wins() {
    let (_, g) = values(&last_rows(), "aA1", "dA1", &[6, 1]);
    assert!(g.is_terminal());
    assert_eq!(g.winner(), Some(0));
    assert_eq!(g.returns(), vec![1.0, -1.0]);
    assert_eq!(g.step, Step::Over);
    let (_, g) = values(&last_rows(), "aA1", "dA1", &[1, 6]);
    assert_eq!(
        g.winner(),
        Some(1),
        "the attacker's own last row can fall too"
    );
}

#[test]
fn sk_8_2_both_last_rows_falling_at_once_is_a_draw_or_the_attackers_win() {
    // vigilias_vento (wind 3/3, +1 over earth) against adeptos_terra (earth 3/4): 4 vs 4.
    let (c, g) = values(&last_rows(), "aA1", "dA1", &[2, 2]);
    assert_eq!(c["result"], json!("tie"));
    assert!(g.is_terminal());
    assert_eq!(g.winner(), None);
    assert_eq!(g.returns(), vec![0.0, 0.0]);
    assert_eq!(g.to_json()["draw"], json!(true));
    let opt = last_rows().opt("mutual_wipeout", json!("attacker_wins"));
    let (_, g) = values(&opt, "aA1", "dA1", &[2, 2]);
    assert_eq!(g.winner(), Some(0));
}
