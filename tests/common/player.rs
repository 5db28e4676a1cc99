//! The seeded player of the tests that play whole games through the
//! service: it stands in for both players and decides every order.
//!
//! Random play from the opening wanders for thousands of orders; a game
//! played by mail in a test must end within a few hundred mails, so the
//! player prefers attacks. The same policy and seed give the same game in
//! every test that plays one, which is what their expectations (the number
//! of mails, the result) were written against.

use orderly::games::Game;

use super::rng::XorShift;

/// The next order for `model`'s pending decision: any legal order, attacks
/// preferred two times in three. Also returns the number drawn, for a
/// caller that derives more from the same draw (how the order is worded).
pub fn attack_preferring<G: Game>(model: &G, rng: &mut XorShift) -> (G::Order, u64) {
    let mut legal = model.legal_orders();
    // Sorted by text, the choice depends on the orders alone, not on the
    // order the engine happens to list them in.
    legal.sort_by_key(|o| o.to_string());
    let attacks: Vec<_> = legal
        .iter()
        .filter(|o| o.to_string().starts_with("ATTACK"))
        .cloned()
        .collect();
    let x = rng.next_u64();
    let pool = if !attacks.is_empty() && !x.is_multiple_of(3) {
        &attacks
    } else {
        &legal
    };
    (pool[(x % pool.len() as u64) as usize].clone(), x)
}

/// The legal orders of a game with turns of many orders (the Civil War
/// Game 1863), sorted, without END: what a test's player picks from when
/// it must give an order before it may end its turn (P8).
pub fn orders_but_end(state: &dyn orderly::games::AnyGame) -> Vec<String> {
    let mut legal: Vec<String> = state
        .legal_orders()
        .into_iter()
        .filter(|o| o != "END")
        .collect();
    legal.sort();
    legal
}
