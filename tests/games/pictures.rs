//! The board as a picture (issue 19): golden SVGs read by eye once, then
//! compared; PNGs decoded back and checked for their size and for the
//! colours at known places of the board; the same position always giving
//! the same bytes; every picture of random play small enough for a mail.
//!
//! The golden files live in `tests/data/<game>/pictures/`.
//! `UPDATE_GOLDEN=1 cargo test --test pictures` rewrites them instead of
//! comparing; look at every rewritten one (and its PNG, `orderly engine
//! --picture DIR` draws them) before committing it.

#[path = "../common/mod.rs"]
mod common;

use std::path::PathBuf;

use common::squares::{nap_play, play};
use orderly::games::squares::{Event, Napoleonic, Squares};
use orderly::games::{Game, GameText, Seat};

/// The largest PNG a mail may carry (the target).
const MAX_PNG_BYTES: usize = 60 * 1024;

fn golden(game: &str, name: &str, svg: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(game)
        .join("pictures")
        .join(format!("{name}.svg"));
    if std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::write(&path, svg).expect("golden file written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    if expected != svg {
        let first = expected
            .lines()
            .zip(svg.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(svg.lines().count()));
        panic!(
            "{name} differs from {} from line {first} on (UPDATE_GOLDEN=1 rewrites it)",
            path.display()
        );
    }
}

fn position(text: &str) -> Squares {
    Squares::from_position(text).unwrap_or_else(|e| panic!("{text}: {}", e.message))
}

fn play_orders(game: &mut Squares, orders: &[&str]) -> Vec<Event> {
    let mut events = Vec::new();
    for text in orders {
        let order = game
            .parse_order(text)
            .unwrap_or_else(|e| panic!("{text}: {}", e.message));
        events.extend(
            game.apply(&order)
                .unwrap_or_else(|r| panic!("{game}: {text} refused: {r}")),
        );
    }
    events
}

fn svg_of(game: &Squares, seat: Seat, last: &[Event]) -> String {
    game.draw_picture(seat, last, false)
        .expect("SQUARES has a picture")
}

/// The decoded picture: width, height and RGB pixels.
struct Decoded {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Decoded {
    fn of(png: &[u8]) -> Decoded {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        // The file is indexed (a palette of the picture's colours): the
        // decoder expands it to RGB.
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().expect("a PNG header");
        assert_eq!(
            reader.info().color_type,
            png::ColorType::Indexed,
            "a palette PNG"
        );
        let mut rgb = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut rgb).expect("a PNG frame");
        assert_eq!(info.color_type, png::ColorType::Rgb, "RGB pixels");
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        Decoded {
            width: info.width,
            height: info.height,
            rgb,
        }
    }

    /// The colour at (`x`, `y`) as `#rrggbb`.
    fn at(&self, x: u32, y: u32) -> String {
        let i = ((y * self.width + x) * 3) as usize;
        let p = &self.rgb[i..i + 3];
        format!("#{:02x}{:02x}{:02x}", p[0], p[1], p[2])
    }
}

/// Where a space of squares-board.md lies in a picture from Blue's seat:
/// 44 pixels to the inch from a 12-pixel margin, the board turned so that
/// Blue's reserve (y -1.5" to 0) is at the bottom. Inches in, pixels out:
/// left, top.
fn from_blue(x_to: f32, y_to: f32) -> (u32, u32) {
    // The board runs x 0-13.5" and y -1.5-10.5" (squares-board.md); turned,
    // a space's east edge is its left and its Gray edge its top.
    let left = 12.0 + (13.5 - x_to) * 44.0;
    let top = 12.0 + (10.5 - y_to) * 44.0;
    (left as u32, top as u32)
}

#[test]
fn the_opening_from_gray_and_from_blue() {
    let game = Squares::new(&Default::default());
    golden("squares", "opening-gray", &svg_of(&game, Seat::South, &[]));
    golden("squares", "opening-blue", &svg_of(&game, Seat::North, &[]));
}

#[test]
fn a_supported_attack_and_its_retreat_are_drawn_as_arrows() {
    let mut game = position("8I2A4C/3/4/2/2IA1/2/2i2/2/4/3/8i3a4c - b - 20 -");
    let last = play_orders(&mut game, &["ATTACK B1C G1C SUPPORT B1CL"]);
    let svg = svg_of(&game, Seat::North, &last);
    golden("squares", "attack-supported-blue", &svg);
    // The attack in red and its support dashed, with their heads.
    assert!(
        svg.contains("stroke=\"#c0392b\" stroke-width=\"4\""),
        "{svg}"
    );
    assert!(svg.contains("stroke-dasharray"), "{svg}");
}

#[test]
fn the_napoleonic_board_in_its_own_colours_and_words() {
    let game = Napoleonic::new(&Default::default());
    let svg = game
        .draw_picture(Seat::North, &[], false)
        .expect("the variant has a picture");
    golden("napoleonic", "opening-british", &svg);
    // The British in red (N1).
    assert!(svg.contains("fill=\"#b03a2e\""), "{svg}");
}

#[test]
fn the_png_has_the_boards_colours_where_the_squares_are() {
    let game = Squares::new(&Default::default());
    let png = orderly::picture::png(&svg_of(&game, Seat::North, &[])).expect("rendered");
    let d = Decoded::of(&png.bytes);
    assert_eq!((d.width, d.height), (png.width, png.height));
    // 13.5" x 12" at 44 pixels the inch, a 12-pixel margin, and the legend.
    assert_eq!(d.width, 618);
    assert!(d.height > 552, "{}", d.height);
    // NWF, a forest (x 0-1.5", y 1.5-4.5"): green inside, clear of its
    // code and trees.
    let (left, top) = from_blue(1.5, 4.5);
    assert_eq!(d.at(left + 50, top + 40), "#a9cf94");
    // G1C (x 6-7.5", y 4.5-6"), empty at the opening: clear ground.
    let (left, top) = from_blue(7.5, 6.0);
    assert_eq!(d.at(left + 33, top + 33), "#f1e7cc");
    // Blue's reserve at the bottom (the reader's own), its first counter
    // in Blue; Gray's at the top, its first counter in Gray.
    let (left, top) = from_blue(13.5, 0.0);
    assert_eq!(d.at(left + 51, top + 46), "#2c5aa0");
    let (left, top) = from_blue(13.5, 10.5);
    assert_eq!(d.at(left + 51, top + 46), "#6f7680");
}

#[test]
fn the_same_position_gives_the_same_bytes_and_every_picture_is_small() {
    let mut largest = 0;
    for seed in 0..12u32 {
        let choices: Vec<u32> = (0..40 + seed * 7).map(|i| i * 31 + seed * 17).collect();
        let game = play(seed % 2 == 0, &choices);
        for seat in Seat::BOTH {
            let first = orderly::picture::png(&svg_of(&game, seat, &[])).expect("rendered");
            let again = orderly::picture::png(&svg_of(&game, seat, &[])).expect("rendered");
            assert_eq!(first, again, "{game}");
            largest = largest.max(first.bytes.len());
        }
        let nap = nap_play(u64::from(seed), 30 + seed as usize * 5);
        let svg = nap.draw_picture(Seat::South, &[], true).expect("drawn");
        let png = orderly::picture::png(&svg).expect("rendered");
        largest = largest.max(png.bytes.len());
    }
    assert!(
        largest < MAX_PNG_BYTES,
        "the largest PNG is {largest} bytes"
    );
}

#[test]
fn an_observer_is_nobodys_you() {
    let game = Squares::new(&Default::default());
    let players = svg_of(&game, Seat::North, &[]);
    let watchers = game.draw_picture(Seat::North, &[], true).expect("drawn");
    assert_ne!(players, watchers);
    // The legend's "(YOU)" is the difference: the text is in glyphs, so
    // count the uses of the "(" glyph (U+0028), which the key has too.
    let parens = |svg: &str| svg.matches("href=\"#g28\"").count();
    assert_eq!(parens(&players), parens(&watchers) + 1);
}

/// A splitmix64 step below `n`, so that a failing seed replays.
fn below(state: &mut u64, n: usize) -> usize {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) % n.max(1) as u64) as usize
}

mod civil_war_1863 {
    //! The Civil War 1863 board as a picture: an 18 x 18 grid of 30-pixel
    //! squares inside a 22-pixel margin, the Union reading it from the
    //! north and the Confederacy turned 180 degrees, as the ASCII board.

    use super::{below, golden, Decoded, MAX_PNG_BYTES};
    use orderly::games::civil_war_1863::{CivilWar1863, Event, Order};
    use orderly::games::{Game, GameOptions, GameText, Seat};

    fn opening() -> CivilWar1863 {
        CivilWar1863::new(&GameOptions::default())
    }

    fn svg_of(game: &CivilWar1863, seat: Seat, last: &[Event]) -> String {
        game.draw_picture(seat, last, false)
            .expect("the 1863 game has a picture")
    }

    /// The left and top of a square (`column` 0-17 from A, `row` 0-17 from
    /// 1) in a picture from `seat`.
    fn square_at(seat: Seat, column: u32, row: u32) -> (u32, u32) {
        let (c, r) = match seat {
            Seat::North => (column, row),
            Seat::South => (17 - column, 17 - row),
        };
        (22 + c * 30, 22 + r * 30)
    }

    /// A random game of `orders` orders from the opening, ending turns
    /// seldom so that turns hold moves; the position and the last order's
    /// events.
    fn random_play(seed: u64, orders: usize) -> (CivilWar1863, Vec<Event>) {
        let mut game = opening();
        let mut state = seed;
        let mut last = Vec::new();
        for _ in 0..orders {
            if game.outcome().is_some() {
                break;
            }
            let legal = game.legal_orders();
            let order = if legal.len() > 1
                && legal.last() == Some(&Order::EndTurn)
                && below(&mut state, 3) > 0
            {
                legal[below(&mut state, legal.len() - 1)].clone()
            } else {
                legal[below(&mut state, legal.len())].clone()
            };
            last = game.apply(&order).expect("a listed order applies");
        }
        (game, last)
    }

    #[test]
    fn the_opening_from_the_union_and_from_the_confederacy() {
        let game = opening();
        golden(
            "civilwar1863",
            "opening-union",
            &svg_of(&game, Seat::North, &[]),
        );
        golden(
            "civilwar1863",
            "opening-confederacy",
            &svg_of(&game, Seat::South, &[]),
        );
    }

    #[test]
    fn the_png_has_the_boards_colours_where_the_squares_are() {
        let game = opening();
        for seat in Seat::BOTH {
            let png = orderly::picture::png(&svg_of(&game, seat, &[])).expect("rendered");
            let d = Decoded::of(&png.bytes);
            // 18 squares of 30 pixels and a margin each side, the legend
            // under it.
            assert_eq!(d.width, 18 * 30 + 2 * 22);
            assert!(d.height > 18 * 30 + 2 * 22, "{}", d.height);
            // R18 (the Atlantic, water only): sea.
            let (x, y) = square_at(seat, 17, 17);
            assert_eq!(d.at(x + 15, y + 15), "#9cc3e4", "{seat:?}");
            // A3 (plain land, no river, rail or city): land.
            let (x, y) = square_at(seat, 0, 2);
            assert_eq!(d.at(x + 15, y + 15), "#efe6c8", "{seat:?}");
            // The Union's five at O6 and the Confederacy's four at P7, each a
            // counter in the lower right of its square, in its colour.
            let (x, y) = square_at(seat, 14, 5);
            assert_eq!(d.at(x + 11, y + 25), "#2c5aa0", "{seat:?}");
            let (x, y) = square_at(seat, 15, 6);
            assert_eq!(d.at(x + 11, y + 25), "#6f7680", "{seat:?}");
        }
    }

    #[test]
    fn a_move_is_an_arrow_and_its_squares_are_outlined() {
        let (game, last) = (0..40)
            .map(|seed| random_play(seed, 1 + seed as usize % 5))
            .find(|(_, last)| last.iter().any(|e| matches!(e, Event::Moved { .. })))
            .expect("a random order that moves");
        let svg = svg_of(&game, Seat::North, &last);
        assert!(
            svg.contains("stroke=\"#e0a800\" stroke-width=\"3\""),
            "{svg}"
        );
        assert!(
            svg.contains("stroke=\"#1b1b1b\" stroke-width=\"2.5\""),
            "{svg}"
        );
        assert_ne!(svg, svg_of(&game, Seat::North, &[]));
    }

    #[test]
    fn the_same_position_gives_the_same_bytes_and_every_picture_is_small() {
        let mut largest = 0;
        for seed in 0..10u64 {
            let (game, last) = random_play(seed, 20 + seed as usize * 37);
            for seat in Seat::BOTH {
                let first = orderly::picture::png(&svg_of(&game, seat, &last)).expect("rendered");
                let again = orderly::picture::png(&svg_of(&game, seat, &last)).expect("rendered");
                assert_eq!(first, again, "seed {seed}");
                largest = largest.max(first.bytes.len());
            }
        }
        assert!(
            largest < MAX_PNG_BYTES,
            "the largest PNG is {largest} bytes"
        );
    }

    #[test]
    fn an_observer_is_nobodys_you() {
        let game = opening();
        let players = svg_of(&game, Seat::South, &[]);
        let watchers = game.draw_picture(Seat::South, &[], true).expect("drawn");
        let parens = |svg: &str| svg.matches("href=\"#g28\"").count();
        assert_eq!(parens(&players), parens(&watchers) + 1);
    }
}

mod brothers_at_war {
    //! The Brothers at War map as a picture: flat-topped hexes of 22
    //! pixels from centre to corner, even columns half a hex higher, inside
    //! a 22-pixel margin under a 16-pixel title; north up for both players,
    //! as the ASCII board.

    use super::{below, golden, Decoded, MAX_PNG_BYTES};
    use orderly::games::brothers_at_war::core::combat::CombatEvent;
    use orderly::games::brothers_at_war::core::event::Event;
    use orderly::games::brothers_at_war::core::state::BrothersAtWar;
    use orderly::games::brothers_at_war::scenario::{registry, Scenario};
    use orderly::games::{Game, GameOptions, GameText, Seat};

    /// Tanner's Ford, orderly's own battle, at its start.
    fn opening() -> BrothersAtWar {
        BrothersAtWar::new(&GameOptions::default())
    }

    fn svg_of(game: &BrothersAtWar, seat: Seat, last: &[Event]) -> String {
        game.draw_picture(seat, last, false)
            .expect("Brothers at War has a picture")
    }

    /// The centre of hex `column`/`row` in pixels.
    fn centre(column: u32, row: u32) -> (u32, u32) {
        let height = 22.0 * 3f32.sqrt();
        let lower = if column % 2 == 1 { height / 2.0 } else { 0.0 };
        let x = 22.0 + 22.0 + (column - 1) as f32 * 33.0;
        let y = 16.0 + 22.0 + height / 2.0 + (row - 1) as f32 * height + lower;
        (x.round() as u32, y.round() as u32)
    }

    /// `steps` random steps (the chance service's draws and the players'
    /// orders) from `game`: the position and the events since the last
    /// player's order, as a mail's last action.
    fn random_play(
        mut game: BrothersAtWar,
        seed: u64,
        steps: usize,
    ) -> (BrothersAtWar, Vec<Event>) {
        let mut state = seed;
        let mut last = Vec::new();
        for _ in 0..steps {
            if let Some(chance) = game.chance() {
                let outcome = below(&mut state, chance.outcomes as usize) as u32;
                let order = game.chance_order(outcome).expect("a chance order");
                last.extend(game.apply(&order).expect("a chance order applies"));
            } else if game.pending().is_some() {
                let legal = game.legal_orders();
                let order = legal[below(&mut state, legal.len())].clone();
                last = game.apply(&order).expect("a listed order applies");
            } else {
                break;
            }
        }
        (game, last)
    }

    #[test]
    fn the_opening_of_tanners_ford() {
        golden(
            "brothersatwar",
            "tanners-ford-opening",
            &svg_of(&opening(), Seat::North, &[]),
        );
    }

    #[test]
    fn the_png_has_the_maps_colours_where_the_hexes_are() {
        let game = opening();
        let png = orderly::picture::png(&svg_of(&game, Seat::South, &[])).expect("rendered");
        let d = Decoded::of(&png.bytes);
        // 15 columns: two radii and 14 steps of one and a half, a margin
        // each side.
        assert_eq!(d.width, 44 + 14 * 33 + 44);
        assert!(d.height > 16 + 44 + (12.5 * 38.1) as u32, "{}", d.height);
        // 0806, Tanner's Creek (a river): water.
        let (x, y) = centre(8, 6);
        assert_eq!(d.at(x, y), "#9cc3e4");
        // 0101, woods.
        let (x, y) = centre(1, 1);
        assert_eq!(d.at(x, y), "#9cc48a");
        // 0906, open ground.
        let (x, y) = centre(9, 6);
        assert_eq!(d.at(x, y), "#efe6c8");
        // 1004, the Union's D1; 0604, the Confederacy's R1: each a counter
        // in its side's colour across the hex's middle.
        let (x, y) = centre(10, 4);
        assert_eq!(d.at(x, y - 7), "#2c5aa0");
        let (x, y) = centre(6, 4);
        assert_eq!(d.at(x, y - 7), "#6f7680");
        // The same picture from the other seat: the map is not turned.
        let north = orderly::picture::png(&svg_of(&game, Seat::North, &[])).expect("rendered");
        assert_eq!(Decoded::of(&north.bytes).at(x, y - 7), "#6f7680");
    }

    #[test]
    fn moves_and_fire_are_arrows_and_their_hexes_are_outlined() {
        let mut moved = false;
        let mut fired = false;
        for seed in 0..60u64 {
            let (game, last) = random_play(opening(), seed, 40 + seed as usize * 7);
            let svg = svg_of(&game, Seat::North, &last);
            if last
                .iter()
                .any(|e| matches!(e, Event::Moved { from: Some(_), .. }))
            {
                moved = true;
                assert!(
                    svg.contains("stroke=\"#e0a800\" stroke-width=\"3\""),
                    "seed {seed}"
                );
                assert!(
                    svg.contains("stroke=\"#1b1b1b\" stroke-width=\"2.5\""),
                    "seed {seed}"
                );
            }
            let fire = last.iter().any(|e| {
                matches!(e, Event::Combat(CombatEvent::Fire { firers, target, .. })
                    if firers.iter().any(|f| game.unit_named(f).and_then(|u| game.hex_of(u)).is_some_and(|h| h != *target)))
            });
            if fire {
                fired = true;
                assert!(
                    svg.contains("stroke=\"#c0392b\" stroke-width=\"2\""),
                    "seed {seed}"
                );
            }
            if moved && fired {
                return;
            }
        }
        panic!("random play never moved and fired (moved {moved}, fired {fired})");
    }

    #[test]
    fn the_same_position_gives_the_same_bytes_and_every_picture_is_small() {
        let mut largest = 0;
        for seed in 0..8u64 {
            let (game, last) = random_play(opening(), seed, 30 + seed as usize * 41);
            for seat in Seat::BOTH {
                let first = orderly::picture::png(&svg_of(&game, seat, &last)).expect("rendered");
                let again = orderly::picture::png(&svg_of(&game, seat, &last)).expect("rendered");
                assert_eq!(first, again, "seed {seed}");
                largest = largest.max(first.bytes.len());
            }
        }
        assert!(
            largest < MAX_PNG_BYTES,
            "the largest PNG is {largest} bytes"
        );
    }

    #[test]
    fn an_observer_is_nobodys_you() {
        let game = opening();
        let players = svg_of(&game, Seat::South, &[]);
        let watchers = game.draw_picture(Seat::South, &[], true).expect("drawn");
        let parens = |svg: &str| svg.matches("href=\"#g28\"").count();
        assert_eq!(parens(&players), parens(&watchers) + 1);
    }

    /// The test battle's map grown to the largest a scenario may have
    /// (99 x 99 hexes, names of two digits), open ground at level 1.
    fn largest_map() -> BrothersAtWar {
        let text = include_str!("../data/brothersatwar/skirmish.toml");
        let mut s: Scenario = toml::from_str(text).expect("the test battle");
        s.id = "largest-map".into();
        let open = s
            .map
            .legend
            .keys()
            .find(|k| s.map.legend[*k] == "open")
            .cloned()
            .unwrap_or_else(|| ".".into());
        s.map.columns = 99;
        s.map.rows = 99;
        s.map.terrain = vec![vec![open.as_str(); 99].join(" "); 99];
        s.map.levels = vec!["1".repeat(99); 99];
        let b = registry::register(s).expect("the grown battle registers");
        BrothersAtWar::new(&GameOptions {
            scenario: Some(b.scenario.id.clone()),
            ..GameOptions::default()
        })
    }

    #[test]
    fn the_largest_map_is_drawn_whole_and_shown_within_the_renderers_limit() {
        let game = largest_map();
        let svg = svg_of(&game, Seat::North, &[]);
        let png = orderly::picture::png(&svg).expect("rendered");
        assert!(
            png.width <= 1600 && png.height <= 1600,
            "{} x {}",
            png.width,
            png.height
        );
        assert!(png.width >= 1000, "{}", png.width);
        // Drawn whole, at the size of every other map, then scaled: two
        // radii and 98 steps of one and a half, a margin each side.
        assert!(
            svg.contains(&format!("viewBox=\"0 0 {} ", 44 + 98 * 33 + 44)),
            "{}",
            &svg[..300]
        );
    }
}
