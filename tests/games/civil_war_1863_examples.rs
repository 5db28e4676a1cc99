//! The worked examples E1-E10 of the rulings
//! (`civil-war-1863-rulings.md`), one test each, on small positions of
//! the standard board set up through the position string. Where an
//! example names abstract squares, the test picks squares of the
//! reconstructed board that fit its description.

use orderly::games::civil_war_1863::core::board::Board;
use orderly::games::civil_war_1863::{
    CivilWar1863, Counts, DecisionKind, EndReason, Event, Order, PieceKind, Refusal, Side, Square,
};
use orderly::games::{CitesRule, Game, GameResult, Phase, Seat};

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

fn game(text: &str) -> CivilWar1863 {
    CivilWar1863::from_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn order(g: &CivilWar1863, text: &str) -> Order {
    g.parse_order(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(g: &mut CivilWar1863, text: &str) -> Vec<Event> {
    let o = order(g, text);
    g.apply(&o)
        .unwrap_or_else(|r| panic!("{text} refused ({r}) in {}", g.position()))
}

fn refused(g: &mut CivilWar1863, text: &str) -> Refusal {
    let o = order(g, text);
    let before = g.position();
    let r = g.apply(&o).expect_err(text);
    assert_eq!(g.position(), before, "a refusal changes nothing");
    r
}

fn city(name: &str) -> Square {
    Board::standard().city_named(name).unwrap().square
}

fn infantry(n: u8) -> Counts {
    Counts::of(PieceKind::Infantry, n)
}

#[test]
fn e1_larger_battle_losses_and_the_survivors_move() {
    // A = H15, B = I15; open land.
    let text = "cw1863 1; south to move; U: I15 2I1C / A1 3I; C: H15 3I2C / J15 1I";
    let mut g = game(text);
    play(&mut g, "H15 3I2C-I15");
    let losses = g.legal_orders();
    let takes: Vec<u8> = losses
        .iter()
        .filter_map(|o| match o {
            Order::Losses { take, .. } => Some(*take),
            _ => None,
        })
        .collect();
    assert!(takes.contains(&1) && takes.contains(&2) && takes.contains(&3));
    assert!(!takes.contains(&4));
    assert_eq!(g.pending().unwrap().phase, Phase::InAction);
    play(&mut g, "TAKE 2 KILL 2I LOSE 1C");
    // The Union cavalry must leave at once: the Union's reaction.
    let p = g.pending().unwrap();
    assert_eq!(
        (p.seat, p.kind, p.phase),
        (Seat::North, DecisionKind::Survivors, Phase::Reaction)
    );
    let options: Vec<String> = g.legal_orders().iter().map(|o| o.to_string()).collect();
    assert!(
        options.contains(&"SURVIVORS 1C-H15".to_string()),
        "{options:?}"
    );
    // J15 is Southern-held: K15 cannot be reached through it.
    assert_eq!(
        refused(&mut g, "SURVIVORS 1C-J15-K15"),
        Refusal::ThroughEnemy { square: sq("J15") }
    );
    play(&mut g, "SURVIVORS 1C-H15");
    let b = g.stack(sq("I15")).unwrap();
    assert_eq!((b.side, b.moved), (Side::Confederacy, Counts([3, 1, 0])));
    // It may move again on the Union's next turn.
    play(&mut g, "END");
    assert!(g
        .legal_orders()
        .iter()
        .any(|o| o.to_string().starts_with("H15 1C")));

    // With k = 3 the South loses 2 and there are no survivors.
    let mut g = game(text);
    play(&mut g, "H15 3I2C-I15");
    play(&mut g, "TAKE 3 KILL 2I1C LOSE 2C");
    assert_eq!(g.stack(sq("I15")).unwrap().all(), infantry(3));
    assert!(g.battle().is_none());
}

#[test]
fn e2_a_fortified_key_city() {
    let st_louis = city("St. Louis");
    assert_eq!(st_louis, sq("C6"));
    let base = "cw1863 1; south to move; U: C6 2I1G F / A1 3I; C: D6 3I3C";
    let mut g = game(base);
    assert_eq!(g.strength(st_louis), 5);
    assert_eq!(refused(&mut g, "D6 1I-C6"), Refusal::SacrificeInCity);
    for group in ["2I", "3I", "3I1C"] {
        let r = refused(&mut g, &format!("D6 {group}-C6"));
        assert_eq!(r.rule().0, "P19", "{group}");
    }
    // Five: an even battle; heads.
    play(&mut g, "D6 3I2C-C6");
    assert!(g.chance().is_some() && g.pending().is_none());
    play(&mut g, "TOSS HEADS");
    assert_eq!(g.fort_markers_left(), 6, "the marker went back");
    play(&mut g, "KEEP C");
    assert!(g.is_flagged(st_louis));
    assert_eq!(
        g.stack(st_louis).unwrap().all(),
        Counts::of(PieceKind::Cavalry, 1)
    );
    // The North removes 2 of its choice... from its one stack of 3I: forced.
    assert_eq!(g.pieces_of(Side::Union), 1);

    // Tails: the North keeps one piece of its choice.
    let mut g = game(base);
    play(&mut g, "D6 3I2C-C6");
    play(&mut g, "TOSS TAILS");
    assert_eq!(
        g.pending().unwrap().kind,
        DecisionKind::Keep { attacker: false }
    );
    let mut keep_i = g.clone();
    play(&mut keep_i, "KEEP I");
    assert_eq!(
        keep_i.strength(st_louis),
        2,
        "the marker stays: it counts 2"
    );
    play(&mut g, "KEEP G");
    assert_eq!(g.strength(st_louis), 1);
    assert_eq!(g.fort_markers_left(), 6);

    // Six: k must be 5; the South loses 4 and 2 stand.
    let mut g = game(base);
    play(&mut g, "D6 3I3C-C6");
    for k in 1..=4 {
        let r = refused(&mut g, &format!("TAKE {k} KILL 1I LOSE none"));
        assert_eq!(r, Refusal::MustTakeAll { defence: 5 });
    }
    play(&mut g, "TAKE 5 KILL 2I1G LOSE 3I1C");
    assert_eq!(g.stack(st_louis).unwrap().all(), Counts([0, 2, 0]));
    assert!(g.is_flagged(st_louis));
}

#[test]
fn e3_sacrifice_then_a_second_attack() {
    let base = "cw1863 1; south to move; U: I15 4I / A1 1C; C: H15 1C / H16 1C / J16 6I";
    let mut g = game(base);
    play(&mut g, "H15 1C-I15");
    assert!(g.stack(sq("I15")).unwrap().has_disabled_marker());
    assert_eq!(g.disabled_markers_left(), 2);
    assert_eq!(
        refused(&mut g, "H16 1C-I15"),
        Refusal::AlreadyDisabled { square: sq("I15") }
    );
    // Six infantry attack: a larger battle at strength 4.
    let mut attacked = g.clone();
    play(&mut attacked, "J16 6I-I15");
    play(&mut attacked, "TAKE 2 KILL 2I LOSE 1I");
    assert_eq!(attacked.pending().unwrap().kind, DecisionKind::Survivors);
    assert_eq!(attacked.disabled_markers_left(), 3, "the marker went back");

    // Without that attack: the North's next turn.
    play(&mut g, "END");
    assert_eq!(g.to_move(), Side::Union);
    assert_eq!(
        refused(&mut g, "I15 1I-I14"),
        Refusal::Disabled { square: sq("I15") }
    );
    assert_eq!(g.strength(sq("I15")), 4);
    play(&mut g, "A1 1C-A2");
    play(&mut g, "END");
    assert_eq!(
        g.disabled_markers_left(),
        3,
        "back at the end of the Union turn"
    );

    // Had the 4 been the North's only pieces, its turn ends at once.
    let mut g = game("cw1863 1; south to move; U: I15 4I; C: H15 1C / J16 6I");
    play(&mut g, "H15 1C-I15");
    let events = play(&mut g, "END");
    assert!(events.contains(&Event::TurnSkipped { side: Side::Union }));
    assert_eq!(g.to_move(), Side::Confederacy);

    // With all three markers on the board the sacrifice is refused.
    let mut g =
        game("cw1863 1; south to move; U: I15 4I / A1 2I d2I / A3 2I d2I / A5 2I d2I; C: H15 1C");
    assert_eq!(refused(&mut g, "H15 1C-I15"), Refusal::NoDisabledMarker);
}

#[test]
fn e4_railroads_and_a_cut() {
    // P = Cumberland O5, a = N5, b = M5, Q = Wheeling L4, c = K4, R = Columbus J4.
    let b = Board::standard();
    assert!(b.is_city(sq("O5")) && b.is_city(sq("L4")) && b.is_city(sq("J4")));
    assert_eq!(b.section_of(sq("N5")), b.section_of(sq("M5")));
    let text = "cw1863 2; north to move; U: O5 2I / O4 1C / J4 1I; C: M5 1C / L4 1I";
    let mut g = game(text);
    assert_eq!(
        refused(&mut g, "RIDE O5 2I-N5-M5-L4"),
        Refusal::SectionCut { square: sq("N5") }
    );
    assert_eq!(
        refused(&mut g, "RIDE O5 2I-N5"),
        Refusal::SectionCut { square: sq("N5") }
    );
    let mut march = g.clone();
    play(&mut march, "O5 2I-N5");
    // A Union cavalry on a mends the cut for the North.
    play(&mut g, "O4 1C-N5");
    assert_eq!(
        refused(&mut g, "RIDE O5 2I-N5-M5-L4"),
        Refusal::ThroughEnemy { square: sq("M5") }
    );
    let mut ride = g.clone();
    let events = play(&mut ride, "RIDE O5 2I-N5-M5");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Battle {
            attack: 2,
            defence: 1,
            ..
        }
    )));
    // The Southern infantry in Q does not cut {c}.
    let events = play(&mut g, "RIDE J4 1I-K4-L4");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Battle {
            attack: 1,
            defence: 1,
            ..
        }
    )));
}

#[test]
fn e5_richmond() {
    let richmond = city("Richmond");
    assert_eq!(richmond, sq("P8"));
    let base = "cw1863 2; north to move; U: O7 7I; C: P8 1I / K17 6I";
    let mut g = game(base);
    assert_eq!(g.strength(richmond), 6);
    assert_eq!(refused(&mut g, "O7 1I-P8"), Refusal::SacrificeInCity);
    for n in 2..=5 {
        assert_eq!(refused(&mut g, &format!("O7 {n}I-P8")).rule().0, "P19");
    }
    let mut seven = g.clone();
    // k = 6 and the five losses are the only choice: taken for the North.
    let events = play(&mut seven, "O7 7I-P8");
    assert!(events.contains(&Event::GarrisonDestroyed { at: richmond }));
    assert!(events.contains(&Event::Forced {
        side: Side::Union,
        order: order(&seven, "TAKE 6 KILL 1I LOSE 5I")
    }));
    assert_eq!(seven.stack(richmond).unwrap().all(), infantry(2));
    assert!(seven.is_flagged(richmond));
    // The South removes 5 from its one stack: taken for it.
    assert_eq!(seven.pieces_of(Side::Confederacy), 1);

    let mut six = g.clone();
    play(&mut six, "O7 6I-P8");
    let mut heads = six.clone();
    play(&mut heads, "TOSS HEADS");
    assert!(heads.is_flagged(richmond));
    assert_eq!(heads.stack(richmond).unwrap().all(), infantry(1));
    assert_eq!(heads.pieces_of(Side::Confederacy), 1);
    play(&mut six, "TOSS TAILS");
    assert_eq!(six.strength(richmond), 6, "the garrison still counts 5");
    assert_eq!(six.pieces_of(Side::Union), 1);

    // Later: a lone Union piece in the captured Richmond.
    let mut later = game("cw1863 3; south to move; U: P8 1I / A1 1I; C: P9 3I; flags P8");
    assert_eq!(later.strength(richmond), 1);
    let mut even = later.clone();
    let events = play(&mut even, "P9 1I-P8");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Battle {
            attack: 1,
            defence: 1,
            ..
        }
    )));
    // Two must take k = 1 (all of it), losing none: the only choice.
    let events = play(&mut later, "P9 2I-P8");
    assert!(events.iter().any(|e| matches!(e, Event::Forced { .. })));
    assert_eq!(later.stack(richmond).unwrap().all(), infantry(2));
    assert!(
        later.removals().is_empty() && !events.iter().any(|e| matches!(e, Event::Captured { .. }))
    );
}

/// (F, S1, S2, L) of E6 on the standard board: S1 and S2 water-only, F a
/// land square joined to S1 by water, S2 joined to S1 and not next to F,
/// L land next to S2.
fn e6_squares() -> (Square, Square, Square, Square) {
    let b = Board::standard();
    for s1 in Square::all().filter(|&s| b.is_water_only(s)) {
        for f in s1
            .neighbours()
            .filter(|&f| b.holds_land(f) && b.water_joined(f, s1))
        {
            for s2 in s1.neighbours().filter(|&s| {
                b.is_water_only(s) && b.water_joined(s1, s) && !s.is_neighbour(f) && s != f
            }) {
                if let Some(l) = s2
                    .neighbours()
                    .find(|&l| b.holds_land(l) && !l.is_neighbour(s1))
                {
                    return (f, s1, s2, l);
                }
            }
        }
    }
    panic!("no E6 squares on the board");
}

#[test]
fn e6_gunboats_at_sea() {
    let (f, s1, s2, l) = e6_squares();
    let b = Board::standard();
    let text = format!("cw1863 2; north to move; U: {f} 2I1C1G / A1 1I; C: A18 1I");
    let mut g = game(&text);
    assert_eq!(
        refused(&mut g, &format!("{f} 1C-{s1}")),
        Refusal::NoLand {
            kind: PieceKind::Cavalry,
            square: s1
        }
    );
    play(&mut g, &format!("{f} 2I1G-{s1}"));
    assert_eq!(
        refused(&mut g, &format!("{s1} 2I1G-{s2}")),
        Refusal::AlreadyMoved {
            square: s1,
            attack: false
        }
    );
    play(&mut g, "END");
    play(&mut g, "A18 1I-A17");
    play(&mut g, "END");
    // Turn 2: the gunboat may not leave its infantry at sea.
    assert_eq!(
        refused(&mut g, &format!("{s1} 1G-{s2}")),
        Refusal::StrandedAtSea { square: s1 }
    );
    play(&mut g, &format!("{s1} 2I1G-{s2}"));
    play(&mut g, "END");
    play(&mut g, "A17 1I-A18");
    play(&mut g, "END");
    // Turn 3: one infantry steps ashore, the other stays aboard.
    play(&mut g, &format!("{s2} 1I-{l}"));
    assert_eq!(g.stack(s2).unwrap().all(), Counts([1, 0, 1]));

    // The South's lone gunboat against the group on S1 is a sacrifice.
    let others: Vec<Square> = s1
        .neighbours()
        .filter(|&n| n != f && b.water_joined(n, s1))
        .collect();
    let from = others[0];
    let mut g = game(&format!(
        "cw1863 3; south to move; U: {s1} 2I1G / A1 1I; C: {from} 1G / A18 1I"
    ));
    play(&mut g, &format!("{from} 1G-{s1}"));
    assert!(g.stack(s1).unwrap().has_disabled_marker());

    // The Southern gunboat with 3 infantry aboard beats it, taking the gunboat:
    // the Union infantry must reach land, by F if it is free.
    let blockers: Vec<String> = s1
        .neighbours()
        .filter(|&n| b.holds_land(n) && n != f && n != from)
        .map(|n| format!("{n} 1C"))
        .collect();
    let mut extra = blockers.join(" / ");
    if !extra.is_empty() {
        extra = format!(" / {extra}");
    }
    // A piece stays behind on `from` if it holds land, so that the
    // survivors cannot retreat there.
    let stays = if b.holds_land(from) { "4I1G" } else { "3I1G" };
    let mut g = game(&format!(
        "cw1863 3; south to move; U: {s1} 2I1G / A1 1I; C: {from} {stays}{extra}"
    ));
    let mut held = g.clone();
    play(&mut g, &format!("{from} 3I1G-{s1}"));
    play(&mut g, "TAKE 1 KILL 1G LOSE none");
    let options: Vec<String> = g.legal_orders().iter().map(|o| o.to_string()).collect();
    assert!(
        options.iter().all(|o| o.ends_with(&format!("-{f}"))),
        "{options:?}"
    );
    // With F Southern-held too, they are eliminated.
    held = game(&held.position().replace("; C: ", &format!("; C: {f} 1C / ")));
    play(&mut held, &format!("{from} 3I1G-{s1}"));
    let events = play(&mut held, "TAKE 1 KILL 1G LOSE none");
    assert!(events.iter().any(|e| matches!(e, Event::Eliminated { side: Side::Union, pieces, .. } if *pieces == infantry(2))));
}

#[test]
fn e7_cavalry_moves_and_a_capture() {
    let indianapolis = city("Indianapolis");
    assert_eq!(indianapolis, sq("G5"));
    // A = E5, B = D5, C = C5.
    let mut g = game("cw1863 1; south to move; U: C5 1I / A10 1I; C: E5 1C / D5 1I");
    let events = play(&mut g, "E5 1C-D5-C5");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Battle {
            attack: 1,
            defence: 1,
            ..
        }
    )));
    let mut g = game("cw1863 1; south to move; U: F5 1I / A10 1I; C: E5 1C");
    assert_eq!(
        refused(&mut g, "E5 1C-F5-G5"),
        Refusal::ThroughEnemy { square: sq("F5") }
    );
    // Indianapolis captured: the North removes 2 of its choice at once.
    let mut g = game("cw1863 1; south to move; U: A10 1I / A12 2I1C; C: E5 1C / R18 1G");
    let events = play(&mut g, "E5 1C-F4-G5");
    assert!(events.contains(&Event::Captured {
        side: Side::Confederacy,
        at: indianapolis,
        removals: 2
    }));
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.phase), (Seat::North, Phase::Reaction));
    assert_eq!(
        refused(&mut g, "G5 1C-G6"),
        Refusal::NotNow { expected: p.kind }
    );
    play(&mut g, "REMOVE A12 C");
    play(&mut g, "REMOVE A10 I");
    assert_eq!(g.pending().unwrap().seat, Seat::South);
    // Passing through captures nothing.
    let mut g = game("cw1863 1; south to move; U: A10 1I / A12 2I1C; C: F5 1C / R18 1G");
    play(&mut g, "F5 1C-G5-H5");
    assert!(!g.is_flagged(indianapolis));
    // Retaken and entered again: no removal.
    let mut g = game("cw1863 5; south to move; U: A10 1I / A12 2I1C; C: F5 1C / R18 1G; flags G5");
    let events = play(&mut g, "F5 1C-G5");
    assert!(!events.iter().any(|e| matches!(e, Event::Captured { .. })));
}

/// (W, M, E, N) of E8: W-M-E consecutive on a line, only M with mountains,
/// and N a neighbour of M off the line without mountains and no pass.
fn e8_line() -> (Square, Square, Square, Square) {
    let b = Board::standard();
    for m in Square::all().filter(|&m| b.holds_mountains(m)) {
        let rails: Vec<Square> = b.rail_neighbours(m).collect();
        for (&x, &e) in rails.iter().flat_map(|x| rails.iter().map(move |e| (x, e))) {
            if x != e && !b.holds_mountains(x) && !b.holds_mountains(e) {
                if let Some(n) = m.neighbours().find(|&n| {
                    !b.holds_mountains(n)
                        && !b.rail_step(n, m)
                        && b.pass_between(n, m).is_none()
                        && b.holds_land(n)
                }) {
                    return (x, m, e, n);
                }
            }
        }
    }
    panic!("no E8 line");
}

#[test]
fn e8_mountains() {
    let b = Board::standard();
    let (w, m, e, n) = e8_line();
    let mut g = game(&format!(
        "cw1863 1; south to move; U: A1 1I; C: {w} 1I / {n} 1I1C"
    ));
    play(&mut g.clone(), &format!("{w} 1I-{m}"));
    assert_eq!(
        refused(&mut g, &format!("{n} 1I-{m}")),
        Refusal::Mountain { square: m }
    );
    play(&mut g.clone(), &format!("{n} 1C-{m}"));
    play(&mut g, &format!("RIDE {w} 1I-{m}-{e}"));
    let g = game(&format!("cw1863 1; south to move; U: A1 1I; C: {m} 1I"));
    assert!(g
        .legal_orders()
        .iter()
        .any(|o| o.to_string() == format!("{m} 1I-{n}")));
    // A closed corner and a marked pass (the Cumberland Gap, I8-J9). The
    // reconstruction has no closed corner between two squares without
    // mountains, so X may hold some: leaving a mountain is free (P5), the
    // corner still closes the step (P6).
    let (x, y) = Square::all()
        .flat_map(|x| x.neighbours().map(move |y| (x, y)))
        .find(|&(x, y)| {
            x.is_diagonal_to(y)
                && !b.holds_mountains(y)
                && b.mountain_corner(x, y)
                && b.pass_between(x, y).is_none()
                && !b.rail_step(x, y)
        })
        .expect("a closed corner");
    let mut g = game(&format!("cw1863 1; south to move; U: A1 1I; C: {x} 1I1C"));
    assert_eq!(
        refused(&mut g, &format!("{x} 1I-{y}")),
        Refusal::MountainCorner { from: x, to: y }
    );
    play(&mut g.clone(), &format!("{x} 1C-{y}"));
    assert!(b.pass_between(sq("I8"), sq("J9")).is_some() && b.holds_mountains(sq("J9")));
    let mut g = game("cw1863 1; south to move; U: A1 1I; C: I8 1I");
    play(&mut g, "I8 1I-J9");
}

#[test]
fn e9_fortifying_in_time() {
    let atlanta = city("Atlanta");
    assert_eq!(atlanta, sq("I12"));
    let mut g = game("cw1863 5; south to move; U: A1 1I / B1 7I; C: I12 2I / J12 1I");
    let mut first = g.clone();
    play(&mut first, "J12 1I-I12");
    assert_eq!(
        refused(&mut first, "FORTIFY I12"),
        Refusal::MovedInThisTurn { square: atlanta }
    );
    play(&mut g, "FORTIFY I12");
    assert_eq!(
        refused(&mut g, "J12 1I-I12"),
        Refusal::FortifiedThisTurn { square: atlanta }
    );
    play(&mut g, "END");
    play(&mut g, "A1 1I-A2");
    play(&mut g, "END");
    // T+2: the reinforcement.
    play(&mut g, "J12 1I-I12");
    assert_eq!(g.strength(atlanta), 6);
    play(&mut g, "END");
    play(&mut g, "B1 7I-B2");
    play(&mut g, "END");
    play(&mut g, "UNFORTIFY I12");
    assert_eq!(g.strength(atlanta), 3);
    assert_eq!(
        refused(&mut g, "I12 1I-I13"),
        Refusal::UnfortifiedThisTurn { square: atlanta }
    );
    play(&mut g, "END");
    play(&mut g, "A2 1I-A3");
    play(&mut g, "END");
    play(&mut g, "I12 1I-I13");
}

fn ended(g: &CivilWar1863) -> (GameResult, EndReason) {
    let o = g.outcome().expect("the game is over");
    (o.result, o.reason)
}

#[test]
fn e10_the_end_of_the_game() {
    let pittsburg = city("Pittsburg");
    assert_eq!(pittsburg, sq("M4"));
    // (a) The North removes 2 of 3: one piece each.
    let mut g = game("cw1863 1; south to move; U: A1 1I / A3 1I / A5 1I; C: L3 1C");
    play(&mut g, "L3 1C-M4");
    play(&mut g, "REMOVE A1 I");
    play(&mut g, "REMOVE A3 I");
    assert_eq!(ended(&g), (GameResult::Draw, EndReason::Stalemate));
    // (b) Only 2: both go, the South wins.
    let mut g = game("cw1863 1; south to move; U: A1 1I / A3 1I; C: L3 1C");
    play(&mut g, "L3 1C-M4");
    assert_eq!(
        ended(&g),
        (GameResult::Win(Seat::South), EndReason::AllEliminated)
    );
    // (c) k = 1 against the last piece.
    let mut g = game("cw1863 2; north to move; U: H15 2I; C: I15 1I");
    play(&mut g, "H15 2I-I15");
    assert_eq!(
        ended(&g),
        (GameResult::Win(Seat::North), EndReason::AllEliminated)
    );
    // (d) The last piece's sacrifice.
    let mut g = game("cw1863 1; south to move; U: I15 2I; C: H15 1C");
    play(&mut g, "H15 1C-I15");
    assert_eq!(
        ended(&g),
        (GameResult::Win(Seat::North), EndReason::AllEliminated)
    );
    // (e) The garrison is not a piece.
    let mut g = game("cw1863 1; south to move; U: P6 1I / A1 1I; C: B2 1C");
    play(&mut g, "B2 1C-A1");
    play(&mut g, "TOSS HEADS");
    assert_eq!(ended(&g), (GameResult::Draw, EndReason::Stalemate));
}
