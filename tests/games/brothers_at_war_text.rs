//! The Brothers at War text layer over random play of the demo battle,
//! Tanner's Ford: the board for each viewer fits a mail and shows or keys
//! every unit, never names a card of the other side's hand (B2); every
//! legal order written canonically reads back as itself; orders written
//! the way players write them read as the canonical ones; and no line,
//! however garbled, makes the reader panic.

#[path = "../common/mod.rs"]
mod common;

use common::brothersatwar::register_wide_demo;
use common::rng::XorShift;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Place};
use orderly::games::brothers_at_war::scenario::model::Side;
use orderly::games::brothers_at_war::text::codes::Codes;
use orderly::games::brothers_at_war::text::{drawing, names};
use orderly::games::{BoardStyle, Game, GameOptions, GameText, Seat};

fn demo() -> BrothersAtWar {
    BrothersAtWar::new(&GameOptions::default())
}

/// Plays the demo at random, calling `at` at every decision (before the
/// order is chosen) with the events of the last order.
fn random_play(
    seed: u64,
    mut at: impl FnMut(&BrothersAtWar, &[orderly::games::brothers_at_war::core::event::Event]),
) {
    let mut rng = XorShift::new(seed);
    let mut g = demo();
    let mut last = Vec::new();
    for _ in 0..20_000 {
        if let Some(chance) = g.chance() {
            let order = g
                .chance_order(rng.below(chance.outcomes as usize) as u32)
                .unwrap();
            last = g.apply(&order).unwrap();
        } else if g.pending().is_some() {
            at(&g, &last);
            let legal = g.legal_orders();
            let order = legal[rng.below(legal.len())].clone();
            last = g.apply(&order).unwrap();
        } else {
            at(&g, &last);
            return;
        }
    }
    panic!("seed {seed}: the game did not end");
}

/// The titles of the cards in `side`'s hand that no card the viewer may
/// know shares (his hand, the discards).
fn secret_titles(g: &BrothersAtWar, side: Side) -> Vec<String> {
    let s = &g.battle.scenario;
    let known: Vec<String> = g.now.hands[side.other().index()]
        .iter()
        .chain(&g.now.discard)
        .filter_map(|&n| names::card(s, n).map(|c| c.name.clone()))
        .collect();
    g.now.hands[side.index()]
        .iter()
        .filter_map(|&n| names::card(s, n).map(|c| c.name.clone()))
        .filter(|t| !known.contains(t))
        .collect()
}

#[test]
fn every_board_fits_a_mail_keys_every_unit_drawn_and_hides_the_other_hand() {
    for seed in 0..3 {
        let mut boards = 0;
        random_play(seed, |g, last| {
            let codes = Codes::of(g);
            for seat in Seat::BOTH {
                let board = g.draw_board(seat, last);
                boards += 1;
                assert!(drawing::fits(&board), "seed {seed}: too wide:\n{board}");
                let window = drawing::window(g, last);
                for u in g.unit_ids() {
                    let Place::Map(hex) = g.unit(u).place else {
                        continue;
                    };
                    if !window.contains(hex) {
                        continue;
                    }
                    let key = format!("  {} {} ", codes.text(g, u), g.unit_name(u));
                    assert!(
                        board.contains(&key),
                        "seed {seed}: {key:?} not keyed:\n{board}"
                    );
                    assert!(board.contains(&hex.to_string()), "{board}");
                }
                let own = Side::of(seat);
                for title in secret_titles(g, own.other()) {
                    assert!(
                        !board.contains(&title),
                        "seed {seed}: {title} of the other hand shown:\n{board}"
                    );
                    assert!(!g.choices(seat).contains(&title), "seed {seed}: {title}");
                }
                for &n in &g.now.hands[own.index()] {
                    let title = names::card_title(&g.battle.scenario, n);
                    assert!(
                        board.contains(&title),
                        "own card {title} not shown:\n{board}"
                    );
                }
                let choices = g.choices(seat);
                assert!(drawing::fits(&choices), "{choices}");
            }
        });
        assert!(boards > 50, "seed {seed}: only {boards} boards");
    }
}

/// The board drawn with the whole map (`BOARD ALL`).
fn whole_board(g: &BrothersAtWar, seat: Seat) -> String {
    let style = BoardStyle {
        whole_map: true,
        ..BoardStyle::default()
    };
    g.draw_board_styled(seat, &[], &style)
}

/// A game of the demo battle on a map of 30 x 20 hexes, wider and longer
/// than a window.
fn wide() -> BrothersAtWar {
    let id = register_wide_demo(30, 20);
    BrothersAtWar::new(&GameOptions {
        scenario: Some(id),
        ..GameOptions::default()
    })
}

/// The lines of the board's section listing the brigades and their units,
/// its heading left out.
fn brigade_lists(board: &str) -> Vec<&str> {
    board
        .lines()
        .skip_while(|l| *l != "Brigades and their units:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect()
}

/// The unit lines of [`brigade_lists`], each with its wrapped
/// continuation (indented further) joined: four spaces, then the unit's
/// map code (a commander's line starts with "commander").
fn unit_lines(board: &str) -> Vec<String> {
    let mut joined: Vec<String> = Vec::new();
    for line in brigade_lists(board) {
        match joined.last_mut() {
            Some(last) if line.starts_with("     ") => {
                last.push(' ');
                last.push_str(line.trim_start());
            }
            _ => joined.push(line.to_string()),
        }
    }
    joined
        .into_iter()
        .filter(|l| l.starts_with("    ") && !l.starts_with("    commander "))
        .collect()
}

#[test]
fn the_whole_map_is_drawn_in_strips_that_fit() {
    let g = demo();
    let whole = whole_board(&g, Seat::North);
    assert!(drawing::fits(&whole), "{whole}");
    let codes = Codes::of(&g);
    for u in g.unit_ids() {
        if g.hex_of(u).is_some() {
            assert!(whole.contains(&codes.text(&g, u)), "{}", g.unit_name(u));
        }
    }
}

#[test]
fn board_all_draws_every_column_and_row_of_a_map_wider_than_a_window() {
    let g = wide();
    let (columns, rows) = (g.battle.map.columns(), g.battle.map.rows());
    assert_eq!((columns, rows), (30, 20));
    // The usual board is a window, and says how to see the rest.
    let window = g.draw_board(Seat::North, &[]);
    assert!(window.contains("BOARD ALL draws the whole map"), "{window}");
    let whole = whole_board(&g, Seat::North);
    assert!(drawing::fits(&whole), "a line wider than 76:\n{whole}");
    assert!(!whole.contains("BOARD ALL draws the whole map"), "{whole}");
    // The column numbers above each strip: every column, once.
    let mut labels: Vec<u8> = whole
        .lines()
        .filter(|l| l.starts_with("     ") && !l.trim().is_empty())
        .filter(|l| {
            l.split_whitespace()
                .all(|w| w.len() == 2 && w.parse::<u8>().is_ok())
        })
        .flat_map(|l| l.split_whitespace().map(|w| w.parse::<u8>().unwrap()))
        .collect();
    labels.sort_unstable();
    assert_eq!(labels, (1..=columns).collect::<Vec<_>>(), "{whole}");
    let strips = whole.lines().filter(|l| l.starts_with("     01 ")).count()
        + whole.lines().filter(|l| l.starts_with("     19 ")).count();
    assert_eq!(strips, 2, "two strips:\n{whole}");
    // Each row's two lines, in each strip.
    for row in 1..=rows {
        let label = format!(" {row:02} ");
        let count = whole.lines().filter(|l| l.starts_with(&label)).count();
        assert_eq!(count, 4, "row {row:02}:\n{whole}");
    }
}

#[test]
fn a_unit_outside_the_window_is_listed_with_its_brigade_and_its_hex() {
    let mut g = wide();
    let u = g.unit_named("10M").unwrap();
    let far: orderly::games::brothers_at_war::core::Hex = "2818".parse().unwrap();
    g.now.units[u.index()].place = Place::Map(far);
    let board = g.draw_board(Seat::South, &[]);
    let window = drawing::window(&g, &[]);
    assert!(!window.contains(far), "{window:?}");
    assert!(drawing::fits(&board), "{board}");
    let lists = brigade_lists(&board);
    let brigade = g.brigade_of(u).unwrap();
    let heading = format!("  USA {}: ", names::brigade(&g, brigade));
    let at = lists
        .iter()
        .position(|l| l.starts_with(&heading))
        .unwrap_or_else(|| panic!("no {heading:?}:\n{board}"));
    let code = Codes::of(&g).text(&g, u);
    let line = lists[at + 1..]
        .iter()
        .take_while(|l| l.starts_with("    "))
        .find(|l| l.starts_with(&format!("    {code} 10M ")))
        .unwrap_or_else(|| panic!("10M not under its brigade:\n{board}"));
    assert!(line.ends_with(" 2818"), "{line}");
    assert!(line.contains("10th Millbrook Infantry (formed)"), "{line}");
    // The viewer's own brigades come first.
    assert!(lists[0].starts_with("  CSA "), "{board}");
    assert!(
        brigade_lists(&g.draw_board(Seat::North, &[]))[0].starts_with("  USA "),
        "{board}"
    );
}

#[test]
fn the_brigade_lists_name_every_unit_of_the_scenario_once() {
    let check = |g: &BrothersAtWar, board: &str, what: &str| {
        let codes = Codes::of(g);
        let lines = unit_lines(board);
        assert_eq!(
            lines.len(),
            g.unit_ids().count(),
            "{what}: not one line a unit:\n{board}"
        );
        for u in g.unit_ids() {
            let key = format!("    {} {} ", codes.text(g, u), g.unit_name(u));
            let found: Vec<&String> = lines.iter().filter(|l| l.starts_with(&key)).collect();
            assert_eq!(found.len(), 1, "{what}: {key:?}:\n{board}");
            let line = found[0];
            let place = match g.unit(u).place {
                Place::Map(hex) => hex.to_string(),
                Place::Display => "on the display".to_string(),
                Place::Waiting => "to arrive turn".to_string(),
                Place::Eliminated => "eliminated".to_string(),
                _ => String::new(),
            };
            assert!(line.contains(&place), "{what}: {line:?}");
        }
    };
    let g = demo();
    let board = g.draw_board(Seat::North, &[]);
    check(&g, &board, "the opening");
    // Units not on the map are listed too: a reinforcement, skirmishers
    // on their displays.
    assert!(board.contains(" to arrive turn 3"), "{board}");
    assert!(board.contains(" on the display"), "{board}");
    assert!(!board.contains("\n\n  "), "no blank line between brigades");
    let mut seen = 0;
    random_play(3, |g, last| {
        seen += 1;
        if seen % 40 == 0 {
            for seat in Seat::BOTH {
                let board = g.draw_board(seat, last);
                check(g, &board, &format!("decision {seen}"));
            }
        }
    });
    assert!(seen > 40, "only {seen} decisions");
}

#[test]
fn unit_codes_are_distinct_and_never_terrain() {
    let g = demo();
    let codes = Codes::of(&g);
    let mut seen = std::collections::BTreeSet::new();
    let legend: Vec<char> = g
        .battle
        .scenario
        .map
        .legend
        .keys()
        .flat_map(|k| k.chars())
        .collect();
    for u in g.unit_ids() {
        let code = codes.unit(&g, u);
        assert!(seen.insert(code), "{code:?} twice");
        assert!(!legend.contains(&code[0]), "{code:?} reads as terrain");
        let union = g.side_of(u) == Side::Union;
        assert_eq!(code[0].is_ascii_uppercase(), union, "{code:?}");
    }
}

#[test]
fn every_legal_order_reads_back_as_itself() {
    for seed in 0..3 {
        random_play(seed, |g, _| {
            for o in g.legal_orders() {
                let text = o.to_string();
                assert_eq!(g.read_order(&text).as_ref(), Ok(&o), "seed {seed}: {text}");
                let lower = text.to_ascii_lowercase();
                assert_eq!(
                    g.read_order(&lower).as_ref(),
                    Ok(&o),
                    "seed {seed}: {lower}"
                );
            }
        });
    }
}

/// The demo at the first Union activation of a unit that may move.
fn union_to_act() -> BrothersAtWar {
    let mut rng = XorShift::new(7);
    let mut g = demo();
    for _ in 0..5000 {
        if let Some(chance) = g.chance() {
            let o = g
                .chance_order(rng.below(chance.outcomes as usize) as u32)
                .unwrap();
            g.apply(&o).unwrap();
            continue;
        }
        let legal = g.legal_orders();
        if g.pending().is_some_and(|p| p.seat == Seat::North)
            && legal.iter().any(|o| o.to_string().starts_with("10M MOVE"))
        {
            return g;
        }
        // Everything else passes or ends as soon as it can.
        let pick = legal
            .iter()
            .find(|o| matches!(o.to_string().as_str(), "READY" | "COMMANDER STAY" | "END"))
            .or_else(|| legal.iter().find(|o| o.to_string().starts_with("PASS")))
            .unwrap_or(&legal[0])
            .clone();
        g.apply(&pick).unwrap();
    }
    panic!("the Union never moved 10M");
}

#[test]
fn orders_written_as_players_write_them_read_as_the_canonical_ones() {
    let g = union_to_act();
    let step = g
        .legal_orders()
        .into_iter()
        .map(|o| o.to_string())
        .find(|o| o.starts_with("10M MOVE"))
        .unwrap();
    let to = step.rsplit(' ').next().unwrap().to_string();
    for written in [
        format!("10m move {to}"),
        format!("10M moves to {to}."),
        format!("move 10M to {to}"),
        format!("the 10th Millbrook moves to {to}"),
        format!("10th Millbrook Infantry, {to}"),
        format!("10M {to}"),
        // Numbered and bulleted lists (mail habits).
        format!("1. 10M move {to}"),
        format!("2) 10m moves to {to}."),
        format!("- 10M {to}"),
    ] {
        let order = g
            .read_order(&written)
            .unwrap_or_else(|r| panic!("{written}: {r}"));
        assert_eq!(order.to_string(), step, "{written}");
    }
    // Standing instructions read in their canonical form, any case.
    let instruction = g.read_order("pointblank ward never").unwrap();
    assert_eq!(instruction.to_string(), "POINTBLANK ward NEVER");
    for (written, canonical) in [
        ("opfire ward never.", "OPFIRE ward NEVER"),
        ("cards usa auto.", "CARDS USA AUTO"),
        ("3. CARDS ward AUTO", "CARDS ward AUTO"),
        ("rallyfail ward stay", "RALLYFAIL ward STAY"),
        ("RALLYFAIL USA finish.", "RALLYFAIL USA FINISH"),
    ] {
        let order = g
            .read_order(written)
            .unwrap_or_else(|r| panic!("{written}: {r}"));
        assert_eq!(order.to_string(), canonical, "{written}");
    }
    // A fire along one side of a line that runs along hexsides (B24),
    // read to its canonical line (out of range here, so only read).
    for (written, canonical) in [
        ("10M FIRE 0507 SIDE LEFT", "10M FIRE 0507 SIDE LEFT"),
        ("10m fire at 0507, side right.", "10M FIRE 0507 SIDE RIGHT"),
        (
            "10M fire 0507 along the left side",
            "10M FIRE 0507 SIDE LEFT",
        ),
    ] {
        let line = orderly::games::brothers_at_war::text::reader::canonical(&g, written)
            .unwrap_or_else(|r| panic!("{written}: {r}"));
        assert_eq!(line, canonical, "{written}");
        assert_eq!(g.parse_order(&line).unwrap().to_string(), canonical);
    }
    assert!(
        orderly::games::brothers_at_war::text::reader::canonical(&g, "10M FIRE 0507 LEFT RIGHT")
            .is_err(),
        "one side only"
    );
    // A refusal cites its rule and offers the unit's own legal orders.
    let refused = g.read_order("10M move 0101").unwrap_err();
    assert!(refused.rule.is_some(), "{refused}");
    assert!(
        refused.suggestions.iter().any(|s| s.starts_with("10M ")),
        "{refused}"
    );
    // Prose and chance orders are no orders of a player.
    assert!(g
        .read_order("thanks for the game")
        .unwrap_err()
        .is_unreadable());
    assert!(g.read_order("CARD 3").unwrap_err().is_unreadable());
    // The choices name the unit with its movement points and costs.
    let choices = g.choices(Seat::North);
    assert!(choices.contains("10M can: MOVE ("), "{choices}");
    assert!(choices.contains("MP left"), "{choices}");
    let theirs = g.choices(Seat::South);
    assert!(!theirs.contains("10M"), "{theirs}");
    let help = g.choices_from("10M").unwrap();
    assert!(help.contains(&to), "{help}");
    assert!(g.choices_from("0101").is_err());
}

#[test]
fn place_names_stand_for_their_hexes() {
    let g = demo();
    let ford = g.battle.map.place_hex("Tanner's Ford").unwrap();
    // The game waits for the deal: the order is read, then refused by
    // the rules, naming the hex the place stands for.
    let text = orderly::games::brothers_at_war::text::reader::canonical(
        &g,
        "commander to Tanner\u{2019}s Ford",
    )
    .unwrap();
    assert_eq!(text, format!("COMMANDER {ford}"));
}

#[test]
fn no_line_makes_the_reader_panic() {
    let mut rng = XorShift::new(17);
    let g = union_to_act();
    let pieces = [
        "10M",
        "move",
        "MOVE",
        "fire",
        "at",
        "the",
        "0713",
        "1005-1006",
        "Tanner's",
        "Ford",
        "2nd",
        "Bexley",
        "DEPLOY",
        "WSK",
        "mounted",
        "PASS",
        "DISCARD",
        "NEW",
        "99999",
        "17",
        "COMMANDER",
        "STAY",
        "-",
        ",",
        "ÿ",
        "\u{2019}",
        "OPFIRE",
        "ward",
        "ALWAYS",
        "",
        "9999",
        "0000",
        "BTY-A",
        "hale",
        "Hale's",
        "Brigade",
        "COMMIT",
        "ROLL",
        "x",
    ];
    for _ in 0..3000 {
        let n = rng.below(8);
        let line: Vec<&str> = (0..n).map(|_| pieces[rng.below(pieces.len())]).collect();
        let line = line.join(if rng.chance(50) { " " } else { "" });
        let _ = g.read_order(&line);
        let len = rng.below(60);
        let bytes = rng.bytes(len);
        let _ = g.read_order(&String::from_utf8_lossy(&bytes));
    }
    let long = "10M MOVE 1005 ".repeat(100);
    assert!(g.read_order(&long).is_err());
}

#[test]
fn fire_is_written_at_a_hex_or_on_an_enemy_unit_and_offered_with_its_dice() {
    let mut seen = 0;
    for seed in 0..6 {
        random_play(seed, |g, _| {
            let Some(p) = g.pending() else { return };
            for o in g.legal_orders() {
                let text = o.to_string();
                let Some((units, hex)) = text.split_once(" FIRE ") else {
                    continue;
                };
                if units.contains(' ') {
                    continue;
                }
                let at: orderly::games::brothers_at_war::core::Hex = hex.parse().unwrap();
                let enemy = g
                    .units_at(at)
                    .into_iter()
                    .find(|&u| g.side_of(u) != Side::of(p.seat))
                    .unwrap();
                let name = &g.battle.scenario.units[enemy.index()].name;
                let short: Vec<&str> = name.split_whitespace().take(2).collect();
                for written in [
                    format!("{units} fires at {hex}"),
                    format!(
                        "{} fire on the {}",
                        units.to_ascii_lowercase(),
                        short.join(" ")
                    ),
                    format!("{units} fire at {}", g.unit_name(enemy)),
                ] {
                    assert_eq!(
                        g.read_order(&written).map(|o| o.to_string()),
                        Ok(text.clone()),
                        "seed {seed}: {written}"
                    );
                }
                let choices = g
                    .choices(p.seat)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                assert!(
                    // 5.24, 5.42: a battery that began deployed fires free.
                    (choices.contains(&format!("FIRE {hex} (2 MP, "))
                        || choices
                            .contains(&format!("FIRE {hex} (0 MP (it began deployed, 5.42), ")))
                        && (choices.contains(" dice at ") || choices.contains(" die at ")),
                    "{choices}"
                );
                seen += 1;
            }
        });
    }
    assert!(seen > 0, "random play never offered a fire");
}

#[test]
fn cards_of_the_deciders_moment_are_offered_to_him_alone_and_read_as_written() {
    let mut g = union_to_act();
    // Card 17, Double Quick (extra-movement, own-activation), into the
    // Union's hand from wherever it is.
    for hand in g.now.hands.iter_mut() {
        hand.retain(|&c| c != 17);
    }
    g.now.discard.retain(|&c| c != 17);
    g.now.deck.retain(|&c| c != 17);
    g.now.hands[0].push(17);
    let before = g.choices(Seat::North);
    let offer = before
        .lines()
        .find(|l| l.starts_with("Card: PLAY 17 ON "))
        .unwrap_or_else(|| panic!("no card line: {before}"));
    assert!(offer.contains("10M"), "{offer}");
    assert!(offer.contains("Double Quick"), "{offer}");
    let theirs = g.choices(Seat::South);
    assert!(!theirs.contains("Double Quick"), "B2: {theirs}");
    // Read as players write it, in any case, ON or not.
    for written in [
        "play 17 on 10m",
        "PLAY 17 10M",
        "Play 17 on 10m.",
        "1. play 17 on 10m.",
        "play 17 on the 10th Millbrook",
    ] {
        let order = g
            .read_order(written)
            .unwrap_or_else(|r| panic!("{written}: {r}"));
        assert_eq!(order.to_string(), "PLAY 17 ON 10M", "{written}");
    }
    // Played: one more movement point for 10M (B125, B135).
    let left = |text: &str| -> u32 {
        let at = text.find("10M can: MOVE (").expect("10M moves") + "10M can: MOVE (".len();
        text[at..]
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("points left")
    };
    let order = g.read_order("PLAY 17 ON 10M").unwrap();
    g.apply(&order).unwrap();
    let after = g.choices(Seat::North);
    assert_eq!(left(&after), left(&before) + 1, "{after}");
    assert!(g.now.discard.contains(&17), "11.2");
    assert!(!after.contains("Card: PLAY 17"), "{after}");
}

#[test]
fn a_mail_that_ends_its_activation_is_not_taken_for_the_next_one() {
    use orderly::games::brothers_at_war::core::state::Step;
    use orderly::games::submission::submit;
    // The service closes a mail's activation at the mail's end (END
    // UNITS, MAIL_TURN) unless the mail itself finished it: a COMMANDER
    // line ends the activation, and the same player's next brigade is no
    // business of that mail.
    let settle = |g: &mut BrothersAtWar| {
        while g.chance().is_some() {
            let o = g.chance_order(0).unwrap();
            g.apply(&o).unwrap();
        }
    };
    let mut g = union_to_act();
    let step = g
        .legal_orders()
        .into_iter()
        .map(|o| o.to_string())
        .find(|o| o.starts_with("10M MOVE"))
        .unwrap();
    let s = submit(&mut g, Seat::North, &[step.as_str()]);
    assert_eq!(s.taken.len(), 1, "{:?}", s.refused);
    assert!(!s.finished_turn, "a unit's step finishes no activation");
    settle(&mut g);
    while matches!(g.now.step, Step::Units(_)) && g.pending().is_some_and(|p| p.seat == Seat::North)
    {
        let s = submit(&mut g, Seat::North, &["END UNITS"]);
        assert!(!s.finished_turn, "the commander's step is still to come");
        settle(&mut g);
    }
    assert!(matches!(g.now.step, Step::Commander(_)), "{:?}", g.now.step);
    let s = submit(&mut g, Seat::North, &["COMMANDER STAY"]);
    assert_eq!(s.taken.len(), 1, "{:?}", s.refused);
    assert!(
        s.finished_turn,
        "the move commander step ends the activation"
    );
}

#[test]
fn a_mail_remembers_the_activation_its_last_line_played_in() {
    use orderly::games::submission::submit;
    // The service closes at a mail's end only the activation its last
    // line of play acted in (Game::turn_serial): a mail of unit orders and
    // COMMANDER ends its activation, and the next one, even the same
    // player's, begins with another serial. Standing instructions alone
    // play no activation.
    let mut g = union_to_act();
    let serial = g.turn_serial();
    let s = submit(
        &mut g,
        Seat::North,
        &["CARDS USA AUTO", "OPFIRE ward NEVER"],
    );
    assert_eq!(s.taken.len(), 2, "{:?}", s.refused);
    assert_eq!(s.turn, None, "instructions alone play no activation");
    let step = g
        .legal_orders()
        .into_iter()
        .map(|o| o.to_string())
        .find(|o| o.starts_with("10M MOVE"))
        .unwrap();
    // As the service plays a mail: draws of chance between its lines.
    let settle = |g: &mut BrothersAtWar| {
        while g.chance().is_some() {
            let o = g.chance_order(0).unwrap();
            g.apply(&o).unwrap();
        }
    };
    let mut rest = vec![step, "COMMANDER STAY".to_string()];
    let mut last = None;
    while !rest.is_empty() {
        let s = submit(&mut g, Seat::North, &rest);
        assert!(s.refused.is_none(), "{:?}", s.refused);
        assert!(!s.taken.is_empty());
        if s.turn.is_some() {
            last = Some((s.turn, s.interrupted));
        }
        rest = s.rest;
        settle(&mut g);
    }
    assert_eq!(
        last,
        Some((Some(serial), false)),
        "played in its own activation"
    );
    // The battle went on to the next activation, whoever's: another serial.
    assert!(g.now.activation.is_some() || g.outcome().is_some());
    if g.now.activation.is_some() {
        assert_ne!(g.turn_serial(), serial);
    }
}

/// The test battle (tests/data/brothersatwar/skirmish.toml) on open, level
/// ground, as the fire tests set it.
fn open_field() -> BrothersAtWar {
    use orderly::games::brothers_at_war::scenario::{registry, Scenario};
    let mut s: Scenario = toml::from_str(common::brothersatwar::SKIRMISH).unwrap();
    s.id = "test-text-open-field".into();
    s.map.terrain = (1..=6).map(|_| ". . . . . . . .".to_string()).collect();
    s.map.levels = Vec::new();
    s.map.hexsides = Vec::new();
    let b = registry::register(s).unwrap();
    BrothersAtWar::new(&GameOptions {
        scenario: Some(b.scenario.id.clone()),
        ..GameOptions::default()
    })
}

/// Applies the dice of the draw pending.
fn roll(
    g: &mut BrothersAtWar,
    dice: &str,
) -> Vec<orderly::games::brothers_at_war::core::event::Event> {
    let o = g.parse_order(&format!("ROLL {dice}")).unwrap();
    g.apply(&o).unwrap()
}

/// The choices as one line, however they wrap.
fn flat_choices(g: &BrothersAtWar, seat: Seat) -> String {
    g.choices(seat)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_count_agrees_with_its_noun_in_events_choices_and_board() {
    use orderly::games::brothers_at_war::core::combat::{CombatEvent, FireType, SaveLine};
    use orderly::games::brothers_at_war::core::event::Event;
    let fire = |dice: u8, cap: u8| {
        Event::Combat(CombatEvent::Fire {
            firers: vec!["1NY".into()],
            target: "0305".parse().unwrap(),
            kind: FireType::Standing,
            dice,
            to_hit: 5,
            cap,
            pass_through: 0,
            range: 1,
        })
    };
    let saves = |rolls: u8| {
        Event::Combat(CombatEvent::Saves {
            lines: vec![SaveLine {
                why: if rolls == 1 {
                    "hex between"
                } else {
                    "hexes between"
                }
                .into(),
                rule: "6.6".into(),
                rolls,
            }],
            dice: vec![1; usize::from(rolls)],
            saved: 0,
        })
    };
    let cases = [
        (fire(1, 1), "1 die hitting on 5+, at most 1 hit"),
        (fire(2, 3), "2 dice hitting on 5+, at most 3 hits"),
        (
            Event::Combat(CombatEvent::Hits { hits: 1, extra: 0 }),
            "1 hit",
        ),
        (
            Event::Combat(CombatEvent::Hits { hits: 2, extra: 0 }),
            "2 hits",
        ),
        (
            Event::Combat(CombatEvent::Assault {
                attackers: vec!["2NYA".into()],
                hex: "0305".parse().unwrap(),
                attack_dice: 1,
                defend_dice: 2,
            }),
            "1 die against 2",
        ),
        (
            Event::Combat(CombatEvent::Assault {
                attackers: vec!["2NYA".into()],
                hex: "0305".parse().unwrap(),
                attack_dice: 2,
                defend_dice: 1,
            }),
            "2 dice against 1",
        ),
        (
            Event::Combat(CombatEvent::AssaultWon {
                winner: Side::Union,
                attacker_hits: 1,
                defender_hits: 2,
            }),
            "1 hit on the attacker, 2 on the defender",
        ),
        (
            Event::Combat(CombatEvent::AssaultWon {
                winner: Side::Union,
                attacker_hits: 2,
                defender_hits: 1,
            }),
            "2 hits on the attacker, 1 on the defender",
        ),
        (saves(1), "[1 hex between (6.6)]"),
        (saves(2), "[2 hexes between (6.6)]"),
    ];
    for (event, words) in &cases {
        // The record's words (an order's echo) and each player's.
        for text in [
            event.to_string(),
            BrothersAtWar::event_text(event, Seat::South),
        ] {
            assert!(text.contains(words), "{text:?} should say {words:?}");
            for wrong in [" 1 hits", " 1 dice", " 1 hexes", " 2 hit ", " 2 die "] {
                assert!(!text.contains(wrong), "{text:?}");
            }
        }
    }
    // The choices: a fire at 1 hex and at 2, with the saves it draws.
    let mut g = open_field();
    common::brothersatwar::only(&mut g, &[("1NY", "0304"), ("1VA", "0305")]);
    common::brothersatwar::activating(&mut g, "blue");
    let choices = flat_choices(&g, Seat::North);
    assert!(
        choices.contains("FIRE 0305 (2 MP, 4 dice at 1 hex, hits on 5+)"),
        "{choices}"
    );
    common::brothersatwar::only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    let choices = flat_choices(&g, Seat::North);
    assert!(choices.contains("4 dice at 2 hexes"), "{choices}");
    common::brothersatwar::order(&mut g, "1NY FIRE 0306").unwrap();
    roll(&mut g, "6 1 1 1");
    let e = roll(&mut g, "1");
    let told: Vec<String> = e
        .iter()
        .map(|e| BrothersAtWar::event_text(e, Seat::South))
        .collect();
    assert!(
        told.iter().any(|t| t.contains("[1 hex between (6.6")),
        "{told:?}"
    );
    assert!(told.iter().any(|t| t == "1 hit"), "{told:?}");
    // The board: one card in the hand, one marker in the cup.
    let mut g = union_to_act();
    assert!(g.now.hands.iter().all(|h| !h.is_empty()) && !g.now.cup.is_empty());
    g.now.hands[0].truncate(1);
    g.now.hands[1].truncate(1);
    g.now.cup.truncate(1);
    let board = g.draw_board(Seat::North, &[]);
    assert!(board.contains("Your hand (1 card):"), "{board}");
    assert!(board.contains("holds 1 card."), "{board}");
    assert!(board.contains("Cup: 1 marker left."), "{board}");
}

#[test]
fn a_stack_lists_each_choice_once_with_its_true_cost() {
    let mut g = open_field();
    // 2NYA and 2NYB begin stacked: each alone, and the two as one (5.33).
    common::brothersatwar::only(
        &mut g,
        &[("2NYA", "0303"), ("2NYB", "0303"), ("1VA", "0306")],
    );
    common::brothersatwar::activating(&mut g, "blue");
    let legal: Vec<String> = g.legal_orders().iter().map(|o| o.to_string()).collect();
    let mut once = legal.clone();
    once.sort();
    once.dedup();
    assert_eq!(once.len(), legal.len(), "an order listed twice: {legal:?}");
    let choices = g.choices(Seat::North);
    for head in ["2NYA can:", "2NYB can:", "2NYA 2NYB can:"] {
        let line = flat_choices(&g, Seat::North);
        let from = line
            .find(head)
            .unwrap_or_else(|| panic!("{head}: {choices}"));
        let rest = &line[from + head.len()..];
        let own = rest.split(" can:").next().unwrap_or(rest);
        assert_eq!(own.matches("FORM (").count(), 1, "{head} {own}");
        assert!(own.contains("FORM (2 MP)"), "{head} {own}");
    }
    // A change that ends the activation still costs its 2 MP (5.22), and
    // says so: limbered artillery deploys and is Finished (5.222).
    common::brothersatwar::only(&mut g, &[("BAT", "0303"), ("1VA", "0306")]);
    common::brothersatwar::unit_mut(&mut g, "BAT").face =
        orderly::games::brothers_at_war::scenario::model::Face::Back;
    common::brothersatwar::activating(&mut g, "usart");
    let choices = flat_choices(&g, Seat::North);
    assert!(
        choices.contains("BAT can: MOVE") && choices.contains("FORM (2 MP, then Finished)"),
        "{choices}"
    );
    assert!(!choices.contains("FORM (0 MP"), "{choices}");
}

#[test]
fn a_side_of_the_line_that_fires_otherwise_is_listed_with_its_own_dice() {
    // 6.431 b, shifted three rows north: from 0405, the line to 0503 runs
    // along hexsides; 2VA behind in 0603 is on its right side only.
    let mut g = open_field();
    common::brothersatwar::only(&mut g, &[("1NY", "0405"), ("1VA", "0503"), ("2VA", "0603")]);
    common::brothersatwar::activating(&mut g, "blue");
    let choices = flat_choices(&g, Seat::North);
    assert!(
        choices.contains(
            "FIRE 0503 (2 MP, 5 dice at 2 hexes, hits on 5+; SIDE LEFT: 4 dice, no \
             pass-through that side (6.4))"
        ),
        "{choices}"
    );
    // And the side named rolls what the choice said.
    let e = common::brothersatwar::order(&mut g, "1NY FIRE 0503 SIDE LEFT").unwrap();
    let text: Vec<String> = e.iter().map(|e| e.to_string()).collect();
    assert!(
        text.iter().any(|t| t.contains("at 0503: 4 dice")),
        "{text:?}"
    );
}

#[test]
fn an_assaults_winner_is_told_entering_the_hex() {
    let mut g = open_field();
    common::brothersatwar::only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    common::brothersatwar::activating(&mut g, "blue");
    common::brothersatwar::order(&mut g, "2NYA MOVE 0305").unwrap();
    roll(&mut g, "6 6 5");
    let e = roll(&mut g, "4 1 1 1");
    assert_eq!(
        g.hex_of(g.unit_named("2NYA").unwrap()),
        Some("0305".parse().unwrap())
    );
    let told: Vec<String> = e
        .iter()
        .map(|e| BrothersAtWar::event_text(e, Seat::South))
        .collect();
    let won = told.iter().position(|t| t.contains("wins the assault"));
    let entered = told
        .iter()
        .position(|t| t.contains("2NYA enters 0305 from 0304"));
    assert!(
        won.is_some() && entered > won,
        "the winner's entry follows the result: {told:?}"
    );
}

#[test]
fn the_other_players_words_for_a_draw_never_name_the_card() {
    use orderly::games::brothers_at_war::core::event::Event;
    let g = demo();
    let scenario = &g.battle.scenario;
    let named = |text: &str, card: u8, name: &str| {
        text.contains(name)
            || text
                .split(|c: char| !c.is_ascii_digit())
                .any(|w| w == card.to_string())
    };
    for (card, n) in scenario
        .cards
        .iter()
        .flat_map(|c| c.numbers.iter().map(move |&n| (c, n)))
    {
        for side in Side::BOTH {
            let drawer = side.seat();
            for event in [
                Event::CardDrawn { side, card: n },
                Event::DeckReshuffled {
                    side,
                    card: n,
                    name: card.name.clone(),
                },
            ] {
                let theirs = BrothersAtWar::event_text(&event, drawer.other());
                assert!(!named(&theirs, n, &card.name), "B2: {theirs}");
                let mine = BrothersAtWar::event_text(&event, drawer);
                assert!(
                    named(&mine, n, &card.name) || mine.contains(&n.to_string()),
                    "{mine}"
                );
            }
        }
    }
    // And in play: every draw the other seat is told of.
    for seed in 0..2 {
        random_play(seed, |g, last| {
            for e in last {
                let (side, card) = match e {
                    Event::CardDrawn { side, card } | Event::DeckReshuffled { side, card, .. } => {
                        (*side, *card)
                    }
                    _ => continue,
                };
                let title = names::card(&g.battle.scenario, card)
                    .map(|c| c.name.clone())
                    .unwrap_or_default();
                let theirs = BrothersAtWar::event_text(e, side.seat().other());
                assert!(!named(&theirs, card, &title), "seed {seed}: {theirs}");
            }
        });
    }
}

#[test]
fn a_refused_instruction_suggests_the_instructions_its_writer_may_give() {
    let g = union_to_act();
    let decider = g.pending().unwrap().seat;
    let (mine, theirs) = (Side::of(decider), Side::of(decider).other());
    let brigade = |side: Side| {
        g.battle
            .brigade_ids()
            .find(|&b| g.battle.brigade_side(b) == side)
            .map(|b| g.brigade_name(b))
            .unwrap()
    };
    let own: Vec<String> = g
        .battle
        .brigade_ids()
        .filter(|&b| g.battle.brigade_side(b) == mine)
        .map(|b| format!("OPFIRE {} NEVER", g.brigade_name(b)))
        .chain([format!("OPFIRE {} NEVER", mine.code())])
        .collect();
    // The decider names the other side's brigade (B5), canonically or as
    // players write it.
    for line in [
        format!("opfire {} never", brigade(theirs)),
        format!("3. OPFIRE {} NEVER.", brigade(theirs)),
    ] {
        let r = g.read_order(&line).expect_err(&line);
        assert_eq!(r.rule.map(|r| r.0), Some("B5"), "{line}");
        assert_eq!(r.suggestions, own, "{line}");
    }
    let r = g.read_order("CARDS rebels AUTO").expect_err("no brigade");
    assert!(
        r.suggestions.iter().all(|s| s.starts_with("CARDS ")),
        "{r:?}"
    );
    // The other player, writing while the decider decides, likewise.
    let mut other = g.clone();
    let line = format!("OPFIRE {} NEVER", brigade(mine));
    let r = orderly::games::AnyGame::play_standing(&mut other, decider.other(), &line)
        .expect("a standing order")
        .expect_err("not his");
    assert!(
        !r.suggestions.is_empty()
            && r.suggestions
                .iter()
                .all(|s| s.starts_with("OPFIRE ") && s.ends_with(" NEVER"))
            && r.suggestions
                .contains(&format!("OPFIRE {} NEVER", theirs.code())),
        "{:?}",
        r.suggestions
    );
}

#[test]
fn a_step_refused_because_moving_out_of_command_disrupts_says_so() {
    let mut g = open_field();
    // 2NYA out of command in 0202; 1VA seen in 0206, 4 hexes south.
    common::brothersatwar::only(&mut g, &[("2NYA", "0202"), ("1VA", "0206")]);
    common::brothersatwar::unit_mut(&mut g, "2NYA").out_of_command = true;
    common::brothersatwar::activating(&mut g, "blue");
    for line in ["2NYA MOVE 0203", "2NYA MOVE 0201 0202 0203"] {
        let r = g.read_order(line).expect_err(line);
        assert_eq!(r.rule.map(|r| r.0), Some("6.531"), "{line}: {}", r.problem);
        assert!(
            r.problem
                .contains("2NYA is out of command, so its move disrupts it (4.3)")
                && r.problem
                    .contains("a Disrupted unit may not move closer to the enemy"),
            "{}",
            r.problem
        );
    }
    // Once Disrupted for all to see, the rule alone.
    common::brothersatwar::order(&mut g, "2NYA MOVE 0201").unwrap();
    let r = g.read_order("2NYA MOVE 0202").expect_err("closer");
    assert!(
        r.problem
            .starts_with("a Disrupted unit may not move closer"),
        "{}",
        r.problem
    );
}

#[test]
fn end_units_after_the_units_ended_is_answered_and_the_mail_goes_on() {
    use orderly::games::brothers_at_war::core::state::Step;
    use orderly::games::submission::submit;
    let mut g = union_to_act();
    let s = submit(&mut g, Seat::North, &["END UNITS"]);
    assert!(s.refused.is_none(), "{:?}", s.refused);
    assert!(matches!(g.now.step, Step::Commander(_)), "{:?}", g.now.step);
    let before = g.position();
    let s = submit(&mut g, Seat::North, &["end units", "COMMANDER STAY"]);
    assert!(s.refused.is_none(), "{:?}", s.refused);
    assert_eq!(s.taken.len(), 2);
    let told: Vec<String> = s.taken[0].events.iter().map(|h| h.text.clone()).collect();
    assert!(
        told.iter().any(|t| t.contains("units have ended already")),
        "{told:?}"
    );
    assert_eq!(s.taken[1].order, "COMMANDER STAY");
    assert_ne!(g.position(), before);
}

/// A unit named as players name it: by a possessive (`our`, `my`), by its
/// regiment's name in the plural (`the Fenwicks`), or by its kind when
/// one unit of that kind may act (`our skirmishers`); a reference that
/// fits several units is answered "which one?" with them, never guessed.
#[test]
fn units_are_named_by_possessives_plurals_and_kinds_and_never_guessed() {
    use orderly::games::brothers_at_war::text::reader;
    let g = union_to_act();
    let legal: Vec<String> = g.legal_orders().iter().map(|o| o.to_string()).collect();
    let step_of = |id: &str| {
        legal
            .iter()
            .find(|o| o.starts_with(&format!("{id} MOVE ")))
            .cloned()
            .unwrap_or_else(|| panic!("{id} does not move: {legal:?}"))
    };
    let step = step_of("10M");
    let to = step.rsplit(' ').next().unwrap().to_string();
    for written in [
        format!("our 10th Millbrook moves to {to}"),
        format!("my 10M moves to {to}"),
        format!("our 10th Millbrook infantry moves to {to}"),
    ] {
        assert_eq!(reader::canonical(&g, &written).unwrap(), step, "{written}");
    }
    // The activating brigade's one skirmisher that may act.
    let wsk = step_of("WSK");
    let wto = wsk.rsplit(' ').next().unwrap().to_string();
    for written in [
        format!("our skirmishers move to {wto}"),
        format!("the skirmishers move to {wto}"),
        format!("my skirmisher moves to {wto}"),
    ] {
        let order = g
            .read_order(&written)
            .unwrap_or_else(|r| panic!("{written}: {r}"));
        assert_eq!(order.to_string(), wsk, "{written}");
    }
    // A fire's target in words is still a description (`the skirmishers
    // at 0907`), and an enemy regiment in the plural is a target.
    assert_eq!(
        reader::canonical(&g, "10M fire on the skirmishers at 0709").unwrap(),
        "10M FIRE 0709"
    );
    assert_eq!(
        reader::canonical(&g, "10M fires on the Corwins").unwrap(),
        format!(
            "10M FIRE {}",
            g.hex_of(g.unit_named("CW3").unwrap()).unwrap()
        )
    );
    // Several units fit: which one? with each of them.
    for (written, fits) in [
        (
            format!("the Millbrooks move to {to}"),
            vec!["10M", "BTY-A", "BTY-B"],
        ),
        (format!("our infantry moves to {to}"), vec!["10M", "11N"]),
    ] {
        let r = g.read_order(&written).unwrap_err();
        assert!(r.is_unreadable(), "{written}: {r}");
        assert!(r.problem.starts_with("which one?"), "{written}: {r}");
        for id in fits {
            assert!(r.problem.contains(id), "{written}: {id} in {r}");
        }
    }
    // The Confederacy's regiments, named by the Confederate player.
    let mut rng = XorShift::new(11);
    let mut c = demo();
    for _ in 0..5000 {
        if let Some(chance) = c.chance() {
            let o = c
                .chance_order(rng.below(chance.outcomes as usize) as u32)
                .unwrap();
            c.apply(&o).unwrap();
            continue;
        }
        let legal = c.legal_orders();
        if let Some(step) = legal
            .iter()
            .map(|o| o.to_string())
            .find(|o| o.starts_with("FN6 MOVE "))
        {
            let to = step.rsplit(' ').next().unwrap();
            for written in [
                format!("the Fenwicks move to {to}"),
                format!("our fenwicks move to {to}"),
                format!("my Fenwick infantry moves to {to}"),
            ] {
                let order = c
                    .read_order(&written)
                    .unwrap_or_else(|r| panic!("{written}: {r}"));
                assert_eq!(order.to_string(), step, "{written}");
            }
            return;
        }
        let pick = legal
            .iter()
            .find(|o| matches!(o.to_string().as_str(), "READY" | "COMMANDER STAY" | "END"))
            .or_else(|| legal.iter().find(|o| o.to_string().starts_with("PASS")))
            .unwrap_or(&legal[0])
            .clone();
        c.apply(&pick).unwrap();
    }
    panic!("FN6 never moved");
}

/// The demo played at random with every side's cards asked (CARDS ...
/// ASK, B148) until a card question waits; the game then.
fn card_question(seed: u64) -> Option<BrothersAtWar> {
    let mut rng = XorShift::new(seed);
    let mut g = demo();
    for s in ["CARDS USA ASK", "CARDS CSA ASK"] {
        let o = g.parse_order(s).unwrap();
        let side = g.standing_side(&o).unwrap();
        g.apply_standing(side, &o).unwrap();
    }
    for _ in 0..20_000 {
        if let Some(chance) = g.chance() {
            let o = g
                .chance_order(rng.below(chance.outcomes as usize) as u32)
                .unwrap();
            g.apply(&o).unwrap();
            continue;
        }
        g.pending()?;
        if matches!(
            g.now.reaction.as_ref().and_then(|r| r.question.as_ref()),
            Some(orderly::games::brothers_at_war::core::question::Question::Card { .. })
        ) {
            return Some(g);
        }
        let legal = g.legal_orders();
        let o = legal[rng.below(legal.len())].clone();
        g.apply(&o).unwrap();
    }
    None
}

/// B148: a card question is answered in words: a card offered by its
/// title (`I'll play Fortune of War`, `play wrong road`), PASS as `no
/// card`, `keep my cards`, `pass, keep my cards`, `no`; a line not
/// understood repeats the question and its answers; the question says
/// its moment once.
#[test]
fn a_card_question_is_answered_in_words() {
    use orderly::games::brothers_at_war::core::question::Question;
    let mut asked = 0;
    for seed in 1..40 {
        let Some(g) = card_question(seed) else {
            continue;
        };
        let Some(Question::Card { cards, about, .. }) =
            g.now.reaction.as_ref().and_then(|r| r.question.clone())
        else {
            unreachable!()
        };
        asked += 1;
        let card = cards[0];
        let title = names::card(&g.battle.scenario, card).unwrap().name.clone();
        // Another card of the same title in the hand makes it a guess.
        let side = g.now.reaction.as_ref().unwrap().side;
        let same: Vec<u8> = g.now.hands[side.index()]
            .iter()
            .copied()
            .filter(|&n| names::card(&g.battle.scenario, n).is_some_and(|c| c.name == title))
            .collect();
        for line in [
            format!("I'll play {title}"),
            format!("fine, I'll play {title} then"),
            format!("play {}", title.to_lowercase()),
            format!("{title}!"),
        ] {
            match same.as_slice() {
                [_] => {
                    let o = g
                        .read_order(&line)
                        .unwrap_or_else(|r| panic!("{line}: {r}"));
                    assert_eq!(o.to_string(), format!("PLAY {card}"), "{line}");
                }
                _ => {
                    let r = g.read_order(&line).unwrap_err();
                    assert!(r.problem.starts_with("which one?"), "{line}: {r}");
                }
            }
        }
        for line in ["no card", "keep my cards", "pass, keep my cards", "No."] {
            let o = g.read_order(line).unwrap_or_else(|r| panic!("{line}: {r}"));
            assert_eq!(o.to_string(), "PASS", "{line}");
        }
        let r = g.read_order("hello there").unwrap_err();
        assert!(r.problem.contains("CARDS ASK"), "{r}");
        assert!(r.problem.contains(&format!("PLAY {card}")), "{r}");
        assert!(!r.problem.contains(" MOVE "), "{r}");
        assert!(r.suggestions.iter().any(|s| s == "PASS"), "{r}");
        // The moment is said once: what opened the window, and the
        // window's words only when they add to it.
        let seat = g.pending().unwrap().seat;
        let choices = g.choices(seat);
        if about.contains("activation marker is drawn") {
            assert!(
                !choices.contains("when an enemy activation marker is drawn"),
                "{choices}"
            );
        }
        if asked >= 4 {
            break;
        }
    }
    assert!(asked > 0, "no card question came");
}

/// 11.0, B148: a card of two of the same title in the hand is never
/// guessed at: which one?
#[test]
fn a_card_named_by_a_title_two_cards_share_is_not_guessed() {
    let mut g = union_to_act();
    // Cards 17 and 18 share a title (Double Quick) in the demo deck.
    let shared = g
        .battle
        .scenario
        .cards
        .iter()
        .find(|c| c.numbers.len() == 2 && c.timing == "own-activation")
        .unwrap()
        .clone();
    g.now.deck.retain(|n| !shared.numbers.contains(n));
    g.now.discard.retain(|n| !shared.numbers.contains(n));
    for h in &mut g.now.hands {
        h.retain(|n| !shared.numbers.contains(n));
    }
    g.now.hands[0].extend(shared.numbers.iter().copied());
    let line = format!("play {} on 10M", shared.name.to_lowercase());
    let r = g.read_order(&line).unwrap_err();
    assert!(r.problem.starts_with("which one?"), "{r}");
    for n in &shared.numbers {
        assert!(r.problem.contains(&n.to_string()), "{r}");
    }
    // One of them alone: read as its number.
    g.now.hands[0].retain(|n| *n != shared.numbers[1]);
    g.now.deck.push(shared.numbers[1]);
    let text = orderly::games::brothers_at_war::text::reader::canonical(&g, &line).unwrap();
    assert_eq!(text, format!("PLAY {} ON 10M", shared.numbers[0]));
}

/// Units named as people write them: a name with a comma (`Battery A,
/// Millbrook Light Artillery` is `battery a`), an enemy by its men (`the
/// Corwin boys`), and the commander who stays (`ward stays where he is`).
#[test]
fn names_with_commas_men_and_a_commander_who_stays_are_read() {
    use orderly::games::brothers_at_war::text::reader;
    let g = union_to_act();
    for line in [
        "Battery A fires at 0703",
        "battery a fires on the rebels at 0703",
        "Battery A, Millbrook Light Artillery fires at 0703",
    ] {
        assert_eq!(
            reader::canonical(&g, line).unwrap_or_else(|r| panic!("{line}: {r}")),
            "BTY-A FIRE 0703",
            "{line}"
        );
    }
    let cw3 = g.hex_of(g.unit_named("CW3").unwrap()).unwrap();
    assert_eq!(
        reader::canonical(&g, &format!("10M fires on the corwin boys at {cw3}")).unwrap(),
        format!("10M FIRE {cw3}")
    );
    for line in [
        "commander stays",
        "the commander stays put",
        "ward stays where he is",
        "the colonel stays",
        "Col. Ward stays",
    ] {
        assert_eq!(
            reader::canonical(&g, line).unwrap_or_else(|r| panic!("{line}: {r}")),
            "COMMANDER STAY",
            "{line}"
        );
    }
    // A commander's line not understood says how one is written.
    let r = reader::canonical(&g, "the commander stays, maybe").unwrap_err();
    assert!(r.problem.contains("COMMANDER STAY"), "{r}");
    assert!(!r.problem.contains(" MOVE "), "{r}");
}

/// B124, B137: a card of the enemy's moments written as a line is refused
/// in the writer's words: his side's code, AUTO and ASK, the instruction
/// he has; the nearest orders are cards he may play now, never PASS or END.
/// Its hint in the hand says the part of its window it acts on (B126).
#[test]
fn a_card_of_the_enemys_moments_played_by_a_line_is_refused_in_the_writers_words() {
    let mut g = union_to_act();
    let stand_fast = g
        .battle
        .scenario
        .cards
        .iter()
        .find(|c| c.effect == "cancel-retreat")
        .unwrap()
        .numbers[0];
    g.now.deck.retain(|n| *n != stand_fast);
    g.now.hands[1].retain(|n| *n != stand_fast);
    g.now.hands[0].push(stand_fast);
    let r = g
        .read_order(&format!("play {stand_fast} on 10M"))
        .unwrap_err();
    assert_eq!(
        r.rule.map(|x| x.to_string()).as_deref(),
        Some("B124"),
        "{r}"
    );
    assert!(r.problem.contains("CARDS USA AUTO"), "{r}");
    assert!(r.problem.contains("CARDS USA ASK"), "{r}");
    assert!(!r.problem.contains("CSA"), "{r}");
    assert!(r.problem.contains("You have CARDS USA NEVER"), "{r}");
    assert!(r.problem.contains("a fire's retreat only"), "{r}");
    assert!(r.suggestions.iter().all(|s| s.starts_with("PLAY ")), "{r}");
    let board = drawing::draw(&g, Seat::North, &[], &BoardStyle::default());
    let hint = board
        .split(&format!("{stand_fast} "))
        .nth(1)
        .unwrap_or_else(|| panic!("{board}"));
    assert!(
        hint.replace('\n', " ")
            .replace("  ", " ")
            .contains("a fire's retreat only"),
        "{board}"
    );
}

/// The demo played at random with these standing instructions until
/// `wanted` holds of a decision; the game then.
fn asked_until(
    seed: u64,
    instructions: &[&str],
    wanted: impl Fn(&BrothersAtWar) -> bool,
) -> Option<BrothersAtWar> {
    let mut rng = XorShift::new(seed);
    let mut g = demo();
    for s in instructions {
        let o = g.parse_order(s).unwrap();
        let side = g.standing_side(&o).unwrap();
        g.apply_standing(side, &o).unwrap();
    }
    for _ in 0..20_000 {
        if let Some(chance) = g.chance() {
            let o = g
                .chance_order(rng.below(chance.outcomes as usize) as u32)
                .unwrap();
            g.apply(&o).unwrap();
            continue;
        }
        g.pending()?;
        if wanted(&g) {
            return Some(g);
        }
        let legal = g.legal_orders();
        let o = legal[rng.below(legal.len())].clone();
        g.apply(&o).unwrap();
    }
    None
}

/// The commander named as players name him: by his name or his
/// surname, with or without his rank, who stays (`Colonel Ward stays.`,
/// `Ward stays where he is`, `Silas Ward stays here`) or goes to a hex
/// (`Colonel Ward to 1006`, `move Ward to 1006`); the commander of
/// another brigade is refused, never read as the active one; an order
/// after chatter on its line is read (`anyway commander stay`).
#[test]
fn a_commander_is_named_by_his_name_or_rank_and_an_order_after_chatter_is_read() {
    use orderly::games::brothers_at_war::text::reader;
    let g = union_to_act();
    for line in [
        "Colonel Ward stays.",
        "Ward stays where he is",
        "Col. Silas Ward stays here",
        "ward stays put",
        "the general stays",
        "anyway commander stay",
        "Hmm, anyway commander stay",
    ] {
        assert_eq!(
            reader::canonical(&g, line).unwrap_or_else(|r| panic!("{line}: {r}")),
            "COMMANDER STAY",
            "{line}"
        );
    }
    for line in [
        "Colonel Ward to 1006",
        "move Ward to 1006",
        "Col. Ward rides to 1006.",
    ] {
        assert_eq!(
            reader::canonical(&g, line).unwrap_or_else(|r| panic!("{line}: {r}")),
            "COMMANDER 1006",
            "{line}"
        );
    }
    // Pell's commander does not act in Ward's activation.
    let r = reader::canonical(&g, "Colonel Pell stays").unwrap_err();
    assert!(r.problem.contains("does not command now"), "{r}");
    // A word that would change the order is never chatter.
    assert!(reader::canonical(&g, "maybe commander stay").is_err());
    assert!(reader::canonical(&g, "don't commander stay").is_err());
}

/// A card named by its title, in any case, with its apostrophes or
/// without, with `I'll`, `let's` before it and a stop after it, with its
/// articles or without, a title holding `in the` with an `ON` target,
/// and in a `DISCARD`: its number, when the writer holds one card of the
/// title; two are never guessed between.
#[test]
fn a_card_is_named_by_its_title_however_it_is_written() {
    use orderly::games::brothers_at_war::text::reader;
    let mut g = union_to_act();
    let title_of = |pick: &dyn Fn(&str) -> bool| {
        g.battle
            .scenario
            .cards
            .iter()
            .find(|c| pick(&c.name))
            .unwrap_or_else(|| panic!("no such card"))
            .clone()
    };
    let apostrophe = title_of(&|n: &str| n.contains('\''));
    let in_the = title_of(&|n: &str| n.to_lowercase().contains(" in the "));
    let the = title_of(&|n: &str| n.to_lowercase().contains(" the ") && !n.contains('\''));
    for card in [&apostrophe, &in_the, &the] {
        g.now.deck.retain(|n| !card.numbers.contains(n));
        g.now.discard.retain(|n| !card.numbers.contains(n));
        for h in &mut g.now.hands {
            h.retain(|n| !card.numbers.contains(n));
        }
        g.now.hands[0].push(card.numbers[0]);
    }
    let (a, i, t) = (apostrophe.numbers[0], in_the.numbers[0], the.numbers[0]);
    let lower = |s: &str| s.to_lowercase();
    for (line, want) in [
        (
            format!("play {}", lower(&apostrophe.name)),
            format!("PLAY {a}"),
        ),
        (
            format!("I'll play {}.", apostrophe.name),
            format!("PLAY {a}"),
        ),
        (
            format!("play {}", lower(&apostrophe.name).replace('\'', "")),
            format!("PLAY {a}"),
        ),
        (
            format!("let's play {} on 10M", lower(&in_the.name)),
            format!("PLAY {i} ON 10M"),
        ),
        (
            format!("I will play {} on 10m!", in_the.name),
            format!("PLAY {i} ON 10M"),
        ),
        (format!("I'll play {}", the.name), format!("PLAY {t}")),
        (
            format!("play {}", lower(&the.name).replace(" the ", " ")),
            format!("PLAY {t}"),
        ),
        (
            format!("discard {}", lower(&the.name)),
            format!("DISCARD {t}"),
        ),
        (
            format!("Discard {}.", apostrophe.name),
            format!("DISCARD {a}"),
        ),
    ] {
        assert_eq!(
            reader::canonical(&g, &line).unwrap_or_else(|r| panic!("{line}: {r}")),
            want,
            "{line}"
        );
    }
    // Two cards of one title: which one?
    if the.numbers.len() == 2 {
        g.now.deck.retain(|n| *n != the.numbers[1]);
        g.now.hands[0].push(the.numbers[1]);
        let r = reader::canonical(&g, &format!("I'll play {}", the.name)).unwrap_err();
        assert!(r.problem.starts_with("which one?"), "{r}");
    }
}

/// A unit's name misspelt by a letter or two (`the 10th Milbrook`) is
/// read as the one unit so named; a move's way told in words before its
/// hexes is read (`charges across the bridge`); a name near two units, or
/// of another number, is refused with the units meant (`did you mean
/// 10M?`), never guessed.
#[test]
fn a_misspelt_unit_name_is_read_or_refused_with_the_unit_meant() {
    use orderly::games::brothers_at_war::text::reader;
    let g = union_to_act();
    let step = g
        .legal_orders()
        .into_iter()
        .map(|o| o.to_string())
        .find(|o| o.starts_with("10M MOVE"))
        .unwrap();
    let to = step.rsplit(' ').next().unwrap().to_string();
    for line in [
        format!("the 10th Milbrook moves to {to}"),
        format!("the 10th Milbrook charges across the bridge {to}"),
        format!("the 10th Millbrok moves to {to}"),
        format!("10M advances down the pike to {to}"),
    ] {
        assert_eq!(
            reader::canonical(&g, &line).unwrap_or_else(|r| panic!("{line}: {r}")),
            format!("10M MOVE {to}"),
            "{line}"
        );
    }
    for line in [
        format!("the 12th Milbrook moves to {to}"),
        // The batteries are of Millbrook too.
        format!("Milbrook moves to {to}"),
    ] {
        let r = reader::canonical(&g, &line).unwrap_err();
        assert!(r.problem.contains("did you mean 10M"), "{line}: {r}");
    }
    // A word that would change the order is no way of a move.
    assert!(reader::canonical(&g, &format!("10M moves unless attacked {to}")).is_err());
}

/// A hex mistyped (`0097`) is answered with the nearest legal hexes of
/// the same order for the same unit (`did you mean 0907?`); a refused
/// commander's order suggests his stay and the hexes nearest him, or
/// nearest the hex written.
#[test]
fn a_mistyped_hex_and_a_commanders_order_suggest_the_nearest_legal_hexes() {
    use orderly::games::brothers_at_war::core::order::Order;
    let g = union_to_act();
    let step = g
        .legal_orders()
        .into_iter()
        .map(|o| o.to_string())
        .find(|o| o.starts_with("10M MOVE"))
        .unwrap();
    let to = step.rsplit(' ').next().unwrap().to_string();
    let typo = format!("00{}", &to[2..]);
    let r = g.read_order(&format!("10m moves {typo}")).unwrap_err();
    assert!(r.problem.contains("did you mean"), "{r}");
    assert!(!r.suggestions.is_empty(), "{r}");
    assert!(
        r.suggestions.iter().all(|s| s.starts_with("10M MOVE")),
        "{r}"
    );
    let meant = r.problem.rsplit("did you mean ").next().unwrap();
    assert!(
        r.suggestions[0].contains(meant.trim_end_matches(['?', '.'])),
        "{r}"
    );
    // The commander's step: END UNITS ends the units.
    let mut c = g.clone();
    let end = c
        .legal_orders()
        .into_iter()
        .find(|o| matches!(o, Order::End))
        .expect("END UNITS");
    c.apply(&end).unwrap();
    let legal = c.legal_orders();
    if !legal.iter().any(|o| matches!(o, Order::Commander(Some(_)))) {
        return;
    }
    let brigade = c.now.activation.as_ref().unwrap().brigade;
    let at = c.brigade(brigade).commander.unwrap();
    let r = c.read_order(&format!("10m fires at {to}")).unwrap_err();
    assert_eq!(r.suggestions[0], "COMMANDER STAY", "{r}");
    let far: Vec<u32> = r.suggestions[1..]
        .iter()
        .filter(|s| s.starts_with("COMMANDER "))
        .map(|s| at.distance(s.rsplit(' ').next().unwrap().parse().unwrap()))
        .collect();
    assert!(far.windows(2).all(|w| w[0] <= w[1]), "{r}");
    let nearest = legal
        .iter()
        .filter_map(|o| match o {
            Order::Commander(Some(h)) => Some(at.distance(*h)),
            _ => None,
        })
        .min()
        .unwrap();
    assert_eq!(far[0], nearest, "{r}");
}

/// The examples of a line not understood are of the brigade activated,
/// the writer's: its units, its commander, its brigade; never a
/// skirmisher out of the battle.
#[test]
fn the_examples_of_a_line_not_understood_are_of_the_brigade_activated() {
    let mut checked = 0;
    for seed in 1..30 {
        let Some(g) = asked_until(seed, &[], |g| {
            g.now.activation.as_ref().is_some_and(|a| {
                g.decider() == Some(g.battle.brigade_side(a.brigade))
                    && g.now.reaction.is_none()
                    && g.legal_orders()
                        .iter()
                        .any(|o| o.to_string().contains(" MOVE "))
            }) && g.now.turn >= 1
                && checked < 6
        }) else {
            continue;
        };
        let brigade = g.now.activation.as_ref().unwrap().brigade;
        let r = g.read_order("move").unwrap_err();
        let name = g.brigade_name(brigade);
        assert!(r.problem.contains(&format!("COMMIT {name}")), "{r}");
        for (i, unit) in g.battle.scenario.units.iter().enumerate() {
            let u = orderly::games::brothers_at_war::core::ids::UnitId(i as u16);
            if r.problem.contains(&format!("{} MOVE", unit.id)) {
                assert_eq!(g.brigade_of(u), Some(brigade), "{r}");
            }
            if matches!(g.unit(u).place, Place::Eliminated | Place::Removed) {
                assert!(!r.problem.contains(&format!("DEPLOY {}", unit.id)), "{r}");
            }
        }
        checked += 1;
    }
    assert!(checked > 0);
}

/// Answers to a question in words: a retreat's path without its verb
/// (`back to 0610, 0510 then`), a trailing word (`spend reserve
/// again`), the unit called by its name beside the answer (`Hold fast,
/// Norwood!`).
#[test]
fn answers_keep_their_meaning_beside_words_around_them() {
    use orderly::games::brothers_at_war::core::question::Question;
    let mut paths = 0;
    let mut reserves = 0;
    let mut stands = 0;
    for seed in 1..60 {
        let Some(g) = asked_until(
            seed,
            &[
                "PATHS USA ASK",
                "PATHS CSA ASK",
                "RESERVES USA ASK",
                "RESERVES CSA ASK",
                "RETREAT USA ASK",
                "RETREAT CSA ASK",
            ],
            |g| {
                g.now.reaction.as_ref().is_some_and(|r| {
                    g.decider() == Some(r.side)
                        && (matches!(
                            r.question,
                            Some(Question::Path { .. } | Question::Reserve { .. })
                        ) || (r.question.is_none() && !r.paths.is_empty()))
                })
            },
        ) else {
            continue;
        };
        let r = g.now.reaction.clone().unwrap();
        match &r.question {
            Some(Question::Path { paths: p, .. }) => {
                let path: Vec<String> = p[0].iter().map(|h| h.to_string()).collect();
                let line = format!("back to {} then", path.join(", "));
                let o = g
                    .read_order(&line)
                    .unwrap_or_else(|e| panic!("{line}: {e}"));
                assert_eq!(o.to_string(), format!("RETREAT {}", path.join(" ")));
                paths += 1;
            }
            Some(Question::Reserve { .. }) => {
                for line in ["spend reserve again", "Spend a reserve again, please."] {
                    let o = g.read_order(line).unwrap_or_else(|e| panic!("{line}: {e}"));
                    assert_eq!(o.to_string(), "SPEND RESERVE", "{line}");
                }
                reserves += 1;
            }
            None => {
                // The unit asked about, by a word of its name.
                let own = g
                    .unit_ids()
                    .filter(|&u| u.index() < g.battle.unit_count() && g.side_of(u) == r.side)
                    .find_map(|u| {
                        let name = &g.battle.scenario.units[u.index()].name;
                        let words: Vec<&str> = name.split_whitespace().collect();
                        (words.len() >= 2 && words[0].starts_with(|c: char| c.is_ascii_digit()))
                            .then(|| words[1].trim_end_matches(',').to_string())
                    })
                    .unwrap();
                for line in [format!("Hold fast, {own}!"), "hold fast".to_string()] {
                    let o = g
                        .read_order(&line)
                        .unwrap_or_else(|e| panic!("{line}: {e}"));
                    assert_eq!(o.to_string(), "PASS", "{line}");
                }
                stands += 1;
            }
            _ => unreachable!(),
        }
        if paths > 0 && reserves > 0 && stands > 0 {
            break;
        }
    }
    assert!(paths + reserves + stands > 0, "no question came");
    eprintln!("paths {paths}, reserves {reserves}, stands {stands}");
}
