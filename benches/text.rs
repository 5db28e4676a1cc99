//! Criterion benchmarks of what the service does once per mail with text:
//! reading an order line forgivingly, drawing the board, wording the
//! choices, and replaying a whole game record.
//!
//! - `read_order`: a canonical order, a short form and a mistyped line
//!   (which computes suggestions) at a mid-game position.
//! - `draw_board` and `choices` at mid-game positions of seeded random play.
//! - `picture`: the board as SVG, and the SVG rendered to PNG (issue 19),
//!   for SQUARES at the same mid-game position, the Civil War Game 1863's
//!   and Tanner's Ford's openings; the sizes are printed.
//! - `record_replay`: writing a 300-order random game as a record, reading it
//!   back and replaying it with every order re-validated.
//!
//! Run with `cargo bench --bench text`. Under `cargo test --all-targets`
//! each benchmark runs once as a smoke test.

#[path = "../tests/common/rng.rs"]
mod rng;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use orderly::games::hosted::Hosted;
use orderly::games::squares::{Side, Squares};
use orderly::games::{Game, GameOptions, GameText, Seat};
use orderly::record::{replay, Record, Recorder};
use rng::XorShift;

/// A position reached by seeded random play after `orders` orders.
fn position_after(seed: u64, orders: usize) -> (Squares, Vec<orderly::games::squares::Order>) {
    let mut rng = XorShift::from_state(seed | 1);
    let mut game = Squares::opening(Side::Blue);
    let mut played = Vec::new();
    let mut events = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..orders {
        legal.clear();
        game.legal_orders_into(&mut legal);
        if legal.is_empty() {
            break;
        }
        let order = legal[rng.below(legal.len())];
        played.push(order);
        game.apply_listed(order, &mut events);
    }
    (game, played)
}

/// A mid-game position where the player to act has a turn with attacks.
fn mid_game() -> Squares {
    (1..500)
        .map(|seed| position_after(seed, 60).0)
        .find(|g| {
            g.attack().is_none()
                && g.outcome().is_none()
                && g.legal_orders()
                    .iter()
                    .any(|o| o.to_string().starts_with("ATTACK"))
        })
        .expect("some seeded game has an attack on offer at order 60")
}

fn bench_read(c: &mut Criterion) {
    let game = mid_game();
    let mut legal: Vec<String> = game.legal_orders().iter().map(|o| o.to_string()).collect();
    legal.sort();
    let canonical = legal
        .iter()
        .find(|o| o.starts_with("ATTACK"))
        .cloned()
        .unwrap();
    let short = canonical
        .replace("ATTACK ", "")
        .replacen(' ', " x ", 1)
        .replace(" SUPPORT ", " + ");
    let mistyped = canonical.replace('C', "X");
    let mut group = c.benchmark_group("read_order");
    group.throughput(Throughput::Elements(1));
    for (name, line) in [
        ("canonical", &canonical),
        ("short", &short),
        ("mistyped", &mistyped),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| black_box(game.read_order(black_box(line))))
        });
    }
    group.finish();
}

fn bench_drawing(c: &mut Criterion) {
    let game = mid_game();
    let mut group = c.benchmark_group("text");
    group.throughput(Throughput::Elements(1));
    group.bench_function("draw_board", |b| {
        b.iter(|| black_box(game.draw_board(Seat::North, &[])))
    });
    group.bench_function("choices", |b| {
        b.iter(|| black_box(game.choices(Seat::North)))
    });
    group.finish();
}

/// The picture of one game's board: the SVG drawn by `draw`, and rendered.
fn bench_picture_of(c: &mut Criterion, name: &str, draw: impl Fn() -> String) {
    let svg = draw();
    let png = orderly::picture::png(&svg).expect("rendered");
    println!(
        "picture/{name}: SVG {} bytes, PNG {} bytes ({} x {} pixels)",
        svg.len(),
        png.bytes.len(),
        png.width,
        png.height
    );
    c.bench_function(&format!("picture/{name}/svg"), |b| {
        b.iter(|| black_box(draw()))
    });
    c.bench_function(&format!("picture/{name}/png"), |b| {
        b.iter(|| orderly::picture::png(black_box(&svg)))
    });
    let pixmap = orderly::picture::rasterise(&svg).expect("rendered");
    c.bench_function(&format!("picture/{name}/rasterise"), |b| {
        b.iter(|| orderly::picture::rasterise(black_box(&svg)))
    });
    c.bench_function(&format!("picture/{name}/encode"), |b| {
        b.iter(|| orderly::picture::encode(black_box(&pixmap)))
    });
}

fn bench_picture(c: &mut Criterion) {
    let game = mid_game();
    bench_picture_of(c, "squares", || {
        black_box(&game)
            .draw_picture(Seat::North, &[], false)
            .expect("SQUARES has a picture")
    });
    let game = orderly::games::civil_war_1863::CivilWar1863::new(&GameOptions::default());
    bench_picture_of(c, "civilwar1863", || {
        black_box(&game)
            .draw_picture(Seat::North, &[], false)
            .expect("the 1863 game has a picture")
    });
    let game =
        orderly::games::brothers_at_war::core::state::BrothersAtWar::new(&GameOptions::default());
    bench_picture_of(c, "brothersatwar", || {
        black_box(&game)
            .draw_picture(Seat::North, &[], false)
            .expect("Brothers at War has a picture")
    });
}

fn bench_record(c: &mut Criterion) {
    let (_, played) = position_after(7, 300);
    let mut recorder = Recorder::new(&Hosted::of::<Squares>(), &GameOptions::default());
    for order in &played {
        recorder.apply(&order.to_string()).expect("a listed order");
    }
    let text = recorder.record().to_string();
    let mut group = c.benchmark_group("record_replay");
    group.throughput(Throughput::Elements(played.len() as u64));
    group.sample_size(20);
    group.bench_function("read_and_replay_300_orders", |b| {
        b.iter(|| {
            let record =
                Record::read_as(black_box(&text), &Hosted::of::<Squares>()).expect("readable");
            black_box(replay(&record).expect("replays"))
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_read,
    bench_drawing,
    bench_picture,
    bench_record
);
criterion_main!(benches);
