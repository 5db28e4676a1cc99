//! Plays random games and checks invariants; prints a summary. Scratch tool.
use orderly::games::squares::*;
use orderly::games::Game;
use std::collections::HashSet;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let mut seed = 0x9E3779B97F4A7C15u64;
    let mut rnd = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut ends = std::collections::BTreeMap::new();
    let mut total_orders = 0usize;
    for g in 0..games {
        let mut game = Squares::opening(if g % 2 == 0 { Side::Blue } else { Side::Gray });
        let mut n = 0;
        while game.outcome().is_none() && n < 2000 {
            let legal = game.legal_orders();
            assert!(!legal.is_empty(), "no legal orders but not over: {game}");
            let set: HashSet<String> = legal.iter().map(|o| o.to_string()).collect();
            assert_eq!(
                set.len(),
                legal.len(),
                "duplicate listing in {game}: {legal:?}"
            );
            for o in &legal {
                let text = o.to_string();
                let back = game.parse_order(&text).unwrap();
                assert_eq!(&back, o, "{text}");
            }
            let pos = game.to_string();
            let re: Squares = pos.parse().unwrap_or_else(|e| panic!("{pos}: {e}"));
            assert_eq!(re.to_string(), pos);
            let o = legal[rnd(legal.len())];
            let mut a = game.clone();
            let ev = a
                .apply(&o)
                .unwrap_or_else(|e| panic!("{pos}: listed {o} refused: {e}"));
            let mut b = game.clone();
            let mut ev2 = Vec::new();
            b.apply_listed(o, &mut ev2);
            assert_eq!(ev, ev2);
            assert_eq!(a, b);
            game = a;
            for side in Side::BOTH {
                let on_board = game.occupied_by(side).len();
                let reserves: usize = Side::BOTH
                    .iter()
                    .map(|&r| {
                        let rs = board().reserve(r);
                        UnitId::of_side(side)
                            .filter(|&u| game.location(u) == Some(rs))
                            .count()
                    })
                    .sum();
                let lost: u32 = UnitKind::ALL.iter().map(|&k| game.lost(side, k)).sum();
                assert_eq!(on_board + reserves + lost as usize, 16, "{game}");
            }
            n += 1;
        }
        total_orders += n;
        *ends
            .entry(format!("{:?}", game.outcome().map(|o| o.reason)))
            .or_insert(0) += 1;
    }
    println!("games {games} orders {total_orders} ends {ends:?}");
}
