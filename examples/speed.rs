//! Scratch: complete random games per second through the fast path.
use orderly::games::squares::*;
use std::time::Instant;
fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let mut seed = 0x2545F4914F6CDD1Du64;
    let mut legal = Vec::with_capacity(256);
    let mut events = Vec::with_capacity(16);
    let mut orders = 0u64;
    let t = Instant::now();
    for _ in 0..n {
        let mut g = Squares::opening(Side::Blue);
        let mut k = 0;
        while g.outcome().is_none() && k < 2000 {
            legal.clear();
            g.legal_orders_into(&mut legal);
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
            let o = legal[(seed % legal.len() as u64) as usize];
            events.clear();
            g.apply_listed(o, &mut events);
            k += 1;
        }
        orders += k;
    }
    let s = t.elapsed().as_secs_f64();
    println!("{n} games in {s:.2}s: {:.0} games/s, {:.0} orders/s, {:.0} orders/game", n as f64 / s, orders as f64 / s, orders as f64 / n as f64);
}
