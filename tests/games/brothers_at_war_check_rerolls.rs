#[path = "../common/mod.rs"]
mod common;

// Checks rolled again by a `reroll-any-die` card under `CARDS ... ASK`
// (B150, with B148, B130, B13, B12). Every expected result is worked out by
// hand from the rulebook and the rulings, never from the engine:
//
// - 1.73: a check rolls one die; a success (5-6 after modifiers, 1.7) is a
//   passed check, anything else a failed one.
// - 3.211: a rally check adds +1 stacked with or next to the brigade
//   commander, +1 at 7 or more hexes from every enemy unit in sight; a
//   success makes the unit Undisrupted; a failure leaves the marker or
//   flips it to Finished, B43's `RALLYFAIL` choosing (default `FINISH`:
//   Undisrupted but Finished).
// - 4.31: a ready unit beyond 4 hexes of its commander (4.2) checks
//   command, +1 at 7 or more hexes from every enemy unit in sight, +1 for
//   the cavalry symbol; a failure marks it out of command (1.53, 4.3).
// - 2.33: a fate check: 1-3 the brigade breaks (a remnant is left, 9.2),
//   4-5 it stays exhausted (`FATE RECOVER` by default, B111), 6 or more it
//   regroups: no longer exhausted, one spent reserve back (8.132), its
//   marker out of the exhausted box; +1 when all its units are 7 or more
//   hexes from all enemy units in sight.
// - 2.321, B13: equal free activation counts: one chance draw of two
//   equal outcomes (`FIRST USA` or `FIRST CSA`) names who activates first;
//   the other side lost the draw.
// - 11.3 on 35-36 (Lady Luck): any dice roll made for any reason; B130:
//   the whole roll of one purpose (one check) again, the new result stands,
//   again only by another card.
// - B150: under `CARDS ... ASK` only, a check is offered to the player it
//   went against: its owner when it failed (a fate check: when the brigade
//   does not regroup), else the enemy; the free-activation draw to its
//   loser. The owner's instruction is looked up for the brigade checked,
//   the enemy's (and the draw loser's) for his side (`CARDS USA ASK`). The
//   die is shown and nothing of its result applied until the answer; PLAY
//   draws a new die for that check alone, judged the same way (so either
//   player may answer again while cards last); the other checks of the
//   same draw are judged with their own dice first. `AUTO` never re-rolls
//   a check (B140), `NEVER` plays nothing (B137).
// - B148: the question is a card question (window `after-roll`), the cards
//   of kind `reroll-any-die` listed lowest first; PASS plays none; the
//   opponent learns that the game waits, not which cards are held (B2).
// - B134, 11.2: a card played leaves the hand for the discard pile.
//
// The ground: the test battle (tests/data/brothersatwar/skirmish.toml) on
// its 8 x 6 map made open and level everywhere, its track blank but for
// the last space, with the deck below. Every unit is taken off the map and
// only those named are placed. Hexes (B15, odd columns half a hex south),
// distances counted by hand:
// - 0505 touches 0504, 0506, 0405, 0406, 0605, 0606; 0506 touches 0505,
//   0406, 0606 (row 7 is off the map).
// - 0505-0503 2, 0506-0503 3 (Col. Oak moved to 0503: within command
//   range, 4.2, and next to neither); 0505-0305 2, 0506-0305 2 (1NY at
//   0305: an enemy within 6 hexes, next to neither, seen across the
//   empty 0405 or 0406, and 0406; a unit in the way would hide it): the rally
//   checks of 1VA at 0505 and 2VA at 0506 have no modifier.
// - 0501-0506 5 (beyond Col. Oak's range at 0506), 0501-0305 5 (1NY in
//   sight, nearer than 7): 1VA's command check at 0501 has no modifier,
//   and 1VA is infantry (no cavalry symbol).
// - 0505-0305 2: gray's fate check with 1VA at 0505 and 1NY at 0305 has
//   no modifier; 0806-0101 8: with 1VA at 0806 and 1NY at 0101 it has +1.

use common::brothers_at_war_decks::{
    brigade, deck_text, dice_waiting, disrupted, finished, give, open_field_with_deck, roll, CSA,
    USA,
};
use common::brothersatwar::{activating, hex, id, only, order, quiet, refused, unit_mut};
use orderly::games::brothers_at_war::core::event::{Event, Fate};
use orderly::games::brothers_at_war::core::ids::Marker;
use orderly::games::brothers_at_war::core::question::Question;
use orderly::games::brothers_at_war::core::state::{
    BrigadeState, BrothersAtWar, CheckKind, Place, Step, UnitState,
};
use orderly::games::brothers_at_war::engine::Decision;
use orderly::games::brothers_at_war::scenario::model::Side;
use orderly::games::{Game, GameText, Phase, Seat};

/// Our deck: two `reroll-any-die` cards (so that a question lists two) and
/// cards of other kinds that a check never opens: another re-roll kind
/// (`reroll-assault-dice`), a card of window `any`, one of `targeted`, one
/// of `exhausts`, and blanks; and the two cards that make a brigade check
/// by a line of their holder's (window `any`): an exhaustion check (8.111,
/// 11.3 on 29-30) and a regroup check (2.33 c, 11.3 on 47).
const DECK: &str = r#"
[[card]]
numbers = [1, 2]
name = "Lady luck (test)"
timing = "after-roll"
effect = "reroll-any-die"
text = "Ours: roll again."

[[card]]
numbers = [3]
name = "Fighting mad (test)"
timing = "assault-dice"
effect = "reroll-assault-dice"
params = { cost = 0 }
text = "Ours: a unit of yours re-rolls its assault dice."

[[card]]
numbers = [4]
name = "Rally round (test)"
timing = "any"
effect = "rally-check"
params = { bonus = 1 }
text = "Ours: a Disrupted unit of yours makes a rally check, +1."

[[card]]
numbers = [5]
name = "Hold your fire (test)"
timing = "targeted"
effect = "cancel-fire"
text = "Ours: an enemy fire at a unit of yours has no effect."

[[card]]
numbers = [6]
name = "Great deeds (test)"
timing = "exhausts"
effect = "regroup-check"
params = { bonus = 1 }
text = "Ours: when a brigade of yours exhausts, it may regroup, +1."

[[card]]
numbers = [7, 8]
name = "Letters home (test)"
timing = "none"
effect = "no-effect"
text = "Ours: no effect."

[[card]]
numbers = [9]
name = "Rumour (test)"
timing = "any"
effect = "force-exhaustion-check"
params = { fails-on = 2 }
text = "Ours: an enemy brigade rolls a die; on 1-2 it is exhausted."

[[card]]
numbers = [10]
name = "Second wind (test)"
timing = "any"
effect = "regroup-check"
params = { bonus = 1 }
text = "Ours: an exhausted brigade of yours may regroup, +1."
"#;

/// How many card numbers the deck holds: 1-10.
const CARDS: u8 = 10;

/// The title of the re-roll cards, never to be read by the other player.
const LUCK: &str = "Lady luck (test)";

fn field() -> BrothersAtWar {
    open_field_with_deck(DECK, "test-check-rerolls", true)
}

// ----- helpers -----------------------------------------------------------

fn played(events: &[Event]) -> Vec<(Side, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::CardPlayed { side, card, .. } => Some((*side, *card)),
            _ => None,
        })
        .collect()
}

/// The rally and command checks told: (kind, units, die, bonus, success).
fn checked(events: &[Event]) -> Vec<(CheckKind, Vec<String>, u8, u8, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Checked {
                kind,
                units,
                die,
                bonus,
                success,
            } => Some((*kind, units.clone(), *die, *bonus, *success)),
            _ => None,
        })
        .collect()
}

/// The fate checks told: (brigade, die, bonus, fate).
fn fates(events: &[Event]) -> Vec<(String, u8, u8, Fate)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::FateChecked {
                brigade,
                die,
                bonus,
                fate,
            } => Some((brigade.clone(), *die, *bonus, *fate)),
            _ => None,
        })
        .collect()
}

fn side_of_seat(seat: Seat) -> Side {
    if seat == Seat::South {
        Side::Confederacy
    } else {
        Side::Union
    }
}

fn hand_of(side: Side) -> usize {
    if side == Side::Union {
        USA
    } else {
        CSA
    }
}

/// The card question pending (B148, B150): a reaction decision of
/// `seat`'s, his side the decider, no chance draw waiting; the cards
/// listed lowest first, each in his hand. Returns the window and cards.
fn asked(g: &BrothersAtWar, seat: Seat) -> (String, Vec<u8>) {
    assert!(g.chance().is_none(), "B148: no die waits while he is asked");
    let p = g.pending().expect("B7: the engine asks");
    assert_eq!(
        (p.seat, p.phase, p.kind),
        (seat, Phase::Reaction, Decision::Reaction)
    );
    let side = side_of_seat(seat);
    let r = g.now.reaction.as_ref().expect("a reaction is pending");
    assert_eq!(r.side, side, "B150: the player the check went against");
    assert_eq!(g.decider(), Some(side));
    match r.question.clone() {
        Some(Question::Card {
            window,
            cards,
            about,
        }) => {
            assert!(!about.is_empty(), "B7: the event is named");
            assert!(!cards.is_empty(), "B148: asked only with a card");
            let mut sorted = cards.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted, cards, "B148: lowest first");
            for c in &cards {
                assert!(g.now.hands[hand_of(side)].contains(c), "card {c} is his");
            }
            (window, cards)
        }
        q => panic!("B148: a card question, not {q:?}"),
    }
}

/// Nothing is asked: no reaction waits.
fn not_asked(g: &BrothersAtWar) {
    assert!(
        g.now.reaction.is_none(),
        "nothing is asked: {:?}",
        g.now.reaction
    );
}

/// What a check's result may change: units, brigades, the cards, the
/// exhausted box, the track and the free activations still to run.
type Frozen = (
    Vec<UnitState>,
    Vec<BrigadeState>,
    [Vec<u8>; 2],
    Vec<u8>,
    Vec<u8>,
    Vec<orderly::games::brothers_at_war::core::ids::BrigadeId>,
    Vec<Marker>,
    Vec<orderly::games::brothers_at_war::core::ids::BrigadeId>,
    Step,
);

fn frozen(g: &BrothersAtWar) -> Frozen {
    (
        g.now.units.clone(),
        g.now.brigades.clone(),
        g.now.hands.clone(),
        g.now.discard.clone(),
        g.now.deck.clone(),
        g.now.exhausted_box.clone(),
        g.now.track.clone(),
        g.now.free_queue.clone(),
        g.now.step.clone(),
    )
}

/// Every card number of the deck is in exactly one of the hands, the deck
/// and the discard pile (11.0, 11.2, B1).
fn conserved(g: &BrothersAtWar) -> bool {
    let mut all: Vec<u8> = g.now.hands[0]
        .iter()
        .chain(g.now.hands[1].iter())
        .chain(g.now.deck.iter())
        .chain(g.now.discard.iter())
        .copied()
        .collect();
    all.sort_unstable();
    all == (1..=CARDS).collect::<Vec<u8>>()
}

fn give_all(g: &mut BrothersAtWar, side: usize, cards: &[u8]) {
    for &c in cards {
        give(g, side, c);
    }
}

/// The side's standing instruction, as its owner sends it (B5).
fn instruct(g: &mut BrothersAtWar, text: &str) {
    order(g, text).unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// The player whose units act now (his brigade activating, 3.22).
fn activates(g: &BrothersAtWar, seat: Seat) {
    assert!(g.chance().is_none(), "no chance waits");
    not_asked(g);
    let p = g.pending().expect("play goes on");
    assert_eq!((p.seat, p.kind), (seat, Decision::Activate));
}

// ----- positions -----------------------------------------------------------

/// Gray's marker is the only one in the cup, the activation phase under
/// way (3.12, 2.21): `DRAW 1` places it and gray recovers (3.21).
fn gray_to_draw(g: &mut BrothersAtWar) {
    quiet(g);
    g.now.cup = vec![Marker::Brigade(brigade(g, "gray"), 0)];
    g.now.track = Vec::new();
    g.now.step = Step::Select;
}

/// 1VA (gray) Disrupted at 0505, Col. Oak at 0503, 1NY (blue) at 0305:
/// gray's marker is drawn; 1VA makes a rally check with no modifier (see
/// the head of the file) and, being within Oak's range, no command check.
fn shaken() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1VA", "0505"), ("1NY", "0305")]);
    unit_mut(&mut g, "1VA").disrupted = true;
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].commander = Some(hex("0503"));
    gray_to_draw(&mut g);
    g
}

/// `shaken` with 2VA Disrupted too, at 0506: two rally checks, no modifier
/// for either; not stacked, so two checks (5.37), rolled in one draw.
fn two_shaken() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1VA", "0505"), ("2VA", "0506"), ("1NY", "0305")]);
    unit_mut(&mut g, "1VA").disrupted = true;
    unit_mut(&mut g, "2VA").disrupted = true;
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].commander = Some(hex("0503"));
    gray_to_draw(&mut g);
    g
}

/// Draws gray's marker and checks that the rally draw waits: `dice` dice.
fn draw_gray(g: &mut BrothersAtWar, dice: u32) {
    instruct(g, "DRAW 1");
    not_asked(g);
    assert_eq!(
        dice_waiting(g),
        Some(6u32.pow(dice)),
        "3.21: the checks' dice"
    );
    assert!(
        g.now.checks.iter().all(|c| c.bonus == 0),
        "no modifier applies: {:?}",
        g.now.checks
    );
}

/// 1VA (gray) ready at 0501, Col. Oak at 0506 (5 hexes), 1NY (blue) at
/// 0305: gray's marker is drawn; 1VA checks command with no modifier.
fn straggling() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1VA", "0501"), ("1NY", "0305")]);
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].commander = Some(hex("0506"));
    gray_to_draw(&mut g);
    g
}

/// Gray exhausted, its marker in the exhausted box, at the fate check step
/// (2.33, 8.111), reserve marker 4 spaces on (EXHAUSTED on the test
/// battle's track of 4): its fate check waits for its die. `far` puts 1VA
/// at 0806 and 1NY at 0101 (8 hexes: +1), else 1VA at 0505 and 1NY at
/// 0305 (2 hexes: no modifier).
fn exhausted(far: bool) -> BrothersAtWar {
    let mut g = field();
    if far {
        only(&mut g, &[("1VA", "0806"), ("1NY", "0101")]);
    } else {
        only(&mut g, &[("1VA", "0505"), ("1NY", "0305")]);
    }
    let gray = brigade(&g, "gray");
    quiet(&mut g);
    g.now.brigades[gray.index()].exhausted = true;
    g.now.brigades[gray.index()].reserve = 4;
    g.now.exhausted_box = vec![gray];
    g.now.step = Step::Fate;
    g
}

fn fate_waits(g: &mut BrothersAtWar, bonus: u8) {
    let mut events = Vec::new();
    g.advance(&mut events);
    not_asked(g);
    assert_eq!(g.now.checks.len(), 1);
    assert_eq!(g.now.checks[0].kind, CheckKind::Fate);
    assert_eq!(g.now.checks[0].bonus, bonus, "2.33's modifier");
    assert_eq!(dice_waiting(g), Some(6));
}

/// Turn 2, horse (Union) and late (Confederacy) each due one free
/// activation (2.321): equal counts, the draw of two waits (B13).
fn free_tie() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1CAV", "0601"), ("1VA", "0806")]);
    quiet(&mut g);
    let (horse, late) = (brigade(&g, "horse"), brigade(&g, "late"));
    g.now.turn = 2;
    g.now.free_due = vec![horse, late];
    g.now.step = Step::Commitment(Side::Confederacy);
    g
}

fn to_the_tie(g: &mut BrothersAtWar) {
    instruct(g, "READY");
    assert_eq!(g.now.step, Step::FreeTie);
    assert_eq!(dice_waiting(g), Some(2), "B13: one draw of two");
    not_asked(g);
}

// ----- the deck ------------------------------------------------------------

#[test]
fn b150_the_deck_of_these_tests_passes_the_scenario_check() {
    let problems = orderly::games::brothers_at_war::scenario::check(&deck_text(DECK, true));
    assert!(problems.is_empty(), "{problems:#?}");
    let g = field();
    assert!(conserved(&g));
}

// ----- rally checks (3.211) ------------------------------------------------

#[test]
fn b150_a_failed_rally_asks_its_owner_and_play_re_rolls_it_into_a_success() {
    // 1.73, 3.211: 3 + 0 fails: the check went against gray, its owner:
    // CARDS gray ASK (looked up for the brigade checked) asks the
    // Confederacy, window `after-roll`, listing its reroll-any-die cards
    // [1, 2] and not 3 (reroll-assault-dice), 4 (`any`) or 5 (`targeted`).
    // Nothing of the failure applied: 1VA still Disrupted, not Finished,
    // the whole game as it stood before the die but for the question.
    // PLAY 1: card 1 to the discard pile (B134), a new die for this check
    // alone (6 outcomes, B130); 5 + 0 succeeds: 1VA Undisrupted and not
    // Finished (3.211); blue is NEVER: nobody asked; gray activates.
    let mut g = shaken();
    instruct(&mut g, "CARDS gray ASK");
    give_all(&mut g, CSA, &[5, 2, 4, 1, 3]);
    draw_gray(&mut g, 1);
    let before = frozen(&g);
    let before_position = g.position();
    let e = roll(&mut g, "3");
    assert!(played(&e).is_empty());
    assert_eq!(
        asked(&g, Seat::South),
        ("after-roll".to_string(), vec![1, 2])
    );
    assert_eq!(frozen(&g), before, "B150: nothing of the result applied");
    assert!(disrupted(&g, "1VA") && !finished(&g, "1VA"));
    let mut bare = g.clone();
    bare.now.reaction = None;
    bare.now.held = None;
    assert_eq!(
        bare.position(),
        before_position,
        "B148: the game stands as before the die, but for the question"
    );
    let e = order(&mut g, "PLAY 1").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 1)]);
    assert_eq!(g.now.hands[CSA], vec![5, 2, 4, 3], "11.2: 1 left the hand");
    assert_eq!(g.now.discard, vec![1], "B134: to the discard pile");
    assert_eq!(dice_waiting(&g), Some(6), "B150: a new die for that check");
    assert!(disrupted(&g, "1VA"), "still waiting for the new die");
    let e = roll(&mut g, "5");
    let c = checked(&e);
    assert_eq!(
        c.last().map(|c| (c.0, c.2, c.4)),
        Some((CheckKind::Rally, 5, true)),
        "{e:?}"
    );
    assert!(!disrupted(&g, "1VA") && !finished(&g, "1VA"), "3.211");
    assert!(conserved(&g));
    activates(&g, Seat::South);
}

#[test]
fn b150_pass_keeps_the_failed_rally_and_b43_finishes_the_unit() {
    // As above, PASS: no card played, the 3 stands (B148); the failed rally
    // leaves B43's default (`RALLYFAIL FINISH`): the marker flipped to
    // Finished: 1VA Undisrupted but Finished. The hand kept whole.
    let mut g = shaken();
    instruct(&mut g, "CARDS gray ASK");
    give_all(&mut g, CSA, &[2, 1]);
    draw_gray(&mut g, 1);
    roll(&mut g, "3");
    assert_eq!(
        asked(&g, Seat::South),
        ("after-roll".to_string(), vec![1, 2])
    );
    let e = order(&mut g, "PASS").unwrap();
    assert!(played(&e).is_empty());
    let c = checked(&e);
    assert_eq!(
        c.last().map(|c| (c.0, c.2, c.4)),
        Some((CheckKind::Rally, 3, false)),
        "{e:?}"
    );
    assert!(!disrupted(&g, "1VA") && finished(&g, "1VA"), "B43 FINISH");
    assert_eq!(g.now.hands[CSA], vec![2, 1]);
    assert!(g.now.discard.is_empty());
    activates(&g, Seat::South);
}

#[test]
fn b150_pass_under_rallyfail_stay_leaves_the_unit_disrupted() {
    // B43 with `RALLYFAIL gray STAY`: the failed rally leaves the Disrupted
    // marker in place; 1VA is not Finished.
    let mut g = shaken();
    instruct(&mut g, "CARDS gray ASK");
    instruct(&mut g, "RALLYFAIL gray STAY");
    give(&mut g, CSA, 1);
    draw_gray(&mut g, 1);
    roll(&mut g, "4");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![1]));
    assert!(disrupted(&g, "1VA"));
    order(&mut g, "PASS").unwrap();
    assert!(disrupted(&g, "1VA") && !finished(&g, "1VA"), "B43 STAY");
    assert_eq!(g.now.hands[CSA], vec![1]);
    activates(&g, Seat::South);
}

#[test]
fn b150_a_passed_rally_asks_the_enemy_by_his_side_and_not_the_owner() {
    // 5 + 0 passes: the check went against the Union, the enemy: looked up
    // for his side (`CARDS USA ASK`) he is asked [2]; gray (ASK, holding 1)
    // is not. Nothing applied: 1VA still Disrupted. PLAY 2: a new die; 2
    // fails: judged the same way, now gray, the owner, is asked [1]
    // (either player may answer, while cards last). PASS: the failure
    // stands: B43 FINISH.
    let mut g = shaken();
    instruct(&mut g, "CARDS gray ASK");
    instruct(&mut g, "CARDS USA ASK");
    give(&mut g, CSA, 1);
    give(&mut g, USA, 2);
    draw_gray(&mut g, 1);
    let before = frozen(&g);
    roll(&mut g, "5");
    assert_eq!(asked(&g, Seat::North), ("after-roll".to_string(), vec![2]));
    assert_eq!(frozen(&g), before, "B150: nothing of the success applied");
    assert!(disrupted(&g, "1VA"));
    let e = order(&mut g, "PLAY 2").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 2)]);
    assert_eq!(g.now.discard, vec![2]);
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(dice_waiting(&g), Some(6));
    roll(&mut g, "2");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![1]));
    assert!(disrupted(&g, "1VA") && !finished(&g, "1VA"));
    order(&mut g, "PASS").unwrap();
    assert!(!disrupted(&g, "1VA") && finished(&g, "1VA"), "B43 FINISH");
    assert_eq!(g.now.hands[CSA], vec![1]);
    assert!(conserved(&g));
    activates(&g, Seat::South);
}

#[test]
fn b150_the_enemy_is_looked_up_for_his_side_not_for_a_brigade_of_his() {
    // B150: the enemy's instruction is his side's, since no unit of his
    // is concerned; `CARDS blue ASK` names a brigade and does not stretch
    // to it (B6): the side stays at NEVER. 5 passes: nobody is asked, the
    // success applies at once; the Union keeps card 2.
    let mut g = shaken();
    instruct(&mut g, "CARDS blue ASK");
    instruct(&mut g, "CARDS horse ASK");
    give(&mut g, USA, 2);
    draw_gray(&mut g, 1);
    let e = roll(&mut g, "5");
    not_asked(&g);
    assert!(played(&e).is_empty());
    assert!(!disrupted(&g, "1VA") && !finished(&g, "1VA"));
    assert_eq!(g.now.hands[USA], vec![2]);
    activates(&g, Seat::South);
}

#[test]
fn b150_a_failed_check_is_not_offered_to_the_enemy_nor_a_passed_one_to_the_owner() {
    // B150: "a check that went a player's way is never offered to him".
    // Both sides ASK with a reroll card each. 3 fails: gray is asked, not
    // the Union; PASS ends it (nobody else asked). Then, in a second game,
    // 6 passes: the Union is asked, not gray; PASS: 1VA rallied.
    let mut g = shaken();
    instruct(&mut g, "CARDS CSA ASK");
    instruct(&mut g, "CARDS USA ASK");
    give(&mut g, CSA, 1);
    give(&mut g, USA, 2);
    draw_gray(&mut g, 1);
    roll(&mut g, "3");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![1]));
    order(&mut g, "PASS").unwrap();
    assert!(!disrupted(&g, "1VA") && finished(&g, "1VA"));
    assert_eq!(g.now.hands, [vec![2], vec![1]]);
    activates(&g, Seat::South);

    let mut g = shaken();
    instruct(&mut g, "CARDS CSA ASK");
    instruct(&mut g, "CARDS USA ASK");
    give(&mut g, CSA, 1);
    give(&mut g, USA, 2);
    draw_gray(&mut g, 1);
    roll(&mut g, "6");
    assert_eq!(asked(&g, Seat::North), ("after-roll".to_string(), vec![2]));
    order(&mut g, "PASS").unwrap();
    assert!(!disrupted(&g, "1VA") && !finished(&g, "1VA"));
    assert_eq!(g.now.hands, [vec![2], vec![1]]);
    activates(&g, Seat::South);
}

#[test]
fn b150_other_checks_of_the_same_draw_are_judged_with_their_own_dice() {
    // Two rally checks in one draw (1VA first, then 2VA, by unit order):
    // 3 and 6. 1VA's 3 fails: gray is asked [1, 2]; nothing of the draw
    // applied (both still Disrupted). PLAY 1: a new die for 1VA's check
    // alone (6 outcomes, not 36); 2VA's 6 is judged with its own die first:
    // 2VA rallies. The new die 1 fails: judged again, gray is asked [2]
    // (while cards last); PASS: 1VA Finished by B43; 2VA rallied and ready.
    let mut g = two_shaken();
    instruct(&mut g, "CARDS gray ASK");
    give_all(&mut g, CSA, &[2, 1]);
    draw_gray(&mut g, 2);
    let before = frozen(&g);
    roll(&mut g, "3 6");
    assert_eq!(
        asked(&g, Seat::South),
        ("after-roll".to_string(), vec![1, 2])
    );
    assert_eq!(frozen(&g), before, "B148: the draw waits whole");
    assert!(disrupted(&g, "1VA") && disrupted(&g, "2VA"));
    order(&mut g, "PLAY 1").unwrap();
    assert_eq!(dice_waiting(&g), Some(6), "B150: that check alone");
    assert!(
        !disrupted(&g, "2VA") && !finished(&g, "2VA"),
        "B150: the other check judged with its own die first"
    );
    assert!(disrupted(&g, "1VA"), "1VA waits for its new die");
    roll(&mut g, "1");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![2]));
    order(&mut g, "PASS").unwrap();
    assert!(!disrupted(&g, "1VA") && finished(&g, "1VA"), "B43 FINISH");
    assert!(!disrupted(&g, "2VA") && !finished(&g, "2VA"));
    assert_eq!(g.now.hands[CSA], vec![2]);
    assert_eq!(g.now.discard, vec![1]);
    activates(&g, Seat::South);
}

#[test]
fn b150_the_second_check_of_a_draw_is_asked_about_on_its_own_die() {
    // 6 and 2: 1VA's 6 passes (the Union, NEVER, not asked), 2VA's 2
    // fails: gray is asked [1] about 2VA's check; nothing applied (1VA too
    // still Disrupted: the draw waits whole). PLAY 1: a new die for 2VA;
    // 1VA judged on its 6: rallied. 5: 2VA rallies.
    let mut g = two_shaken();
    instruct(&mut g, "CARDS gray ASK");
    give(&mut g, CSA, 1);
    draw_gray(&mut g, 2);
    let before = frozen(&g);
    roll(&mut g, "6 2");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![1]));
    assert_eq!(frozen(&g), before);
    order(&mut g, "PLAY 1").unwrap();
    assert_eq!(dice_waiting(&g), Some(6));
    assert!(!disrupted(&g, "1VA") && !finished(&g, "1VA"));
    assert!(disrupted(&g, "2VA"));
    roll(&mut g, "5");
    not_asked(&g);
    assert!(!disrupted(&g, "2VA") && !finished(&g, "2VA"));
    activates(&g, Seat::South);
}

#[test]
fn b150_b140_under_auto_or_never_a_failed_rally_is_never_re_rolled() {
    // B140: AUTO re-rolls only an assault's dice; B150: checks under ASK
    // only. NEVER plays nothing. Both sides hold reroll-any-die cards. 3
    // fails: nobody asked, no card played, no new die: B43 FINISH at once.
    for value in ["AUTO", "NEVER"] {
        let mut g = shaken();
        instruct(&mut g, &format!("CARDS gray {value}"));
        instruct(&mut g, &format!("CARDS USA {value}"));
        give(&mut g, CSA, 1);
        give(&mut g, USA, 2);
        draw_gray(&mut g, 1);
        let e = roll(&mut g, "3");
        not_asked(&g);
        assert!(played(&e).is_empty(), "{value}");
        assert_eq!(dice_waiting(&g), None, "{value}: the roll stands");
        assert!(!disrupted(&g, "1VA") && finished(&g, "1VA"), "{value}");
        assert_eq!(g.now.hands, [vec![2], vec![1]], "{value}");
        activates(&g, Seat::South);

        // A passed check, the same: 1VA rallies, nobody asked.
        let mut g = shaken();
        instruct(&mut g, &format!("CARDS gray {value}"));
        instruct(&mut g, &format!("CARDS USA {value}"));
        give(&mut g, CSA, 1);
        give(&mut g, USA, 2);
        draw_gray(&mut g, 1);
        let e = roll(&mut g, "6");
        not_asked(&g);
        assert!(played(&e).is_empty(), "{value}");
        assert!(!disrupted(&g, "1VA") && !finished(&g, "1VA"), "{value}");
        assert_eq!(g.now.hands, [vec![2], vec![1]], "{value}");
        activates(&g, Seat::South);
    }
}

#[test]
fn b150_b148_a_hand_without_a_reroll_any_die_card_is_not_asked() {
    // B148: asked only holding a card whose kind can act there; of the
    // re-roll kinds only reroll-any-die re-rolls a check
    // (reroll-assault-dice is an assault's, 11.3 on 41-42). Gray holds 3
    // (reroll-assault-dice), 4 (rally-check, `any`), 5 (cancel-fire), 6
    // (regroup-check, `exhausts`): 3 fails, nobody asked: B43 FINISH.
    let mut g = shaken();
    instruct(&mut g, "CARDS gray ASK");
    give_all(&mut g, CSA, &[3, 4, 5, 6]);
    draw_gray(&mut g, 1);
    let e = roll(&mut g, "3");
    not_asked(&g);
    assert!(played(&e).is_empty());
    assert!(!disrupted(&g, "1VA") && finished(&g, "1VA"));
    assert_eq!(g.now.hands[CSA], vec![3, 4, 5, 6]);
    activates(&g, Seat::South);
}

#[test]
fn b150_b148_only_an_offered_card_answers_the_check_question() {
    // B148: while a card question waits only the cards it offers and PASS
    // answer it. Gray holds 1 (offered), 3 and 4 (not), the Union 2 (not
    // gray's). Each refused, the game unchanged, the question still there.
    let mut g = shaken();
    instruct(&mut g, "CARDS gray ASK");
    give_all(&mut g, CSA, &[1, 3, 4]);
    give(&mut g, USA, 2);
    draw_gray(&mut g, 1);
    roll(&mut g, "3");
    let q = asked(&g, Seat::South);
    assert_eq!(q, ("after-roll".to_string(), vec![1]));
    for text in ["PLAY 3", "PLAY 4", "PLAY 2", "PLAY 7"] {
        let rule = refused(&mut g, text);
        assert!(!rule.is_empty(), "{text}");
        assert_eq!(asked(&g, Seat::South), q, "{text}: the question stays");
    }
    order(&mut g, "PLAY 1").unwrap();
    roll(&mut g, "6");
    assert!(!disrupted(&g, "1VA") && !finished(&g, "1VA"));
    assert_eq!(g.now.hands[CSA], vec![3, 4]);
    assert_eq!(g.now.discard, vec![1]);
    activates(&g, Seat::South);
}

#[test]
fn b150_b2_the_other_player_is_not_shown_the_cards_of_the_player_asked() {
    // B148, B2: the Union learns that the game waits for the Confederacy,
    // not which cards it holds: neither the cards' title nor a PLAY of
    // them is in his board, his choices or his words for the events; the
    // Confederacy is offered them. The die itself is shown to both.
    let mut g = shaken();
    instruct(&mut g, "CARDS gray ASK");
    give_all(&mut g, CSA, &[2, 1]);
    draw_gray(&mut g, 1);
    let e = roll(&mut g, "3");
    asked(&g, Seat::South);
    let theirs = g.choices(Seat::North);
    let board = g.draw_board(Seat::North, &e);
    let words: Vec<String> = e
        .iter()
        .map(|x| BrothersAtWar::event_text(x, Seat::North))
        .collect();
    for text in std::iter::once(&theirs)
        .chain(std::iter::once(&board))
        .chain(words.iter())
    {
        assert!(!text.contains(LUCK), "B2: {text}");
        assert!(
            !text.contains("PLAY 1") && !text.contains("PLAY 2"),
            "B2: {text}"
        );
    }
    let mine = g.choices(Seat::South);
    assert!(mine.contains("PLAY 1"), "B148: offered to him: {mine}");
    assert!(mine.contains("PLAY 2"), "B148: offered to him: {mine}");
}

// ----- command checks (4.31) -----------------------------------------------

#[test]
fn b150_a_failed_command_check_asks_its_owner_and_play_re_rolls_it() {
    // 4.31: 1VA at 0501, 5 hexes from Col. Oak, no modifier. 2 fails: gray
    // asked [1, 2]; 1VA not yet out of command. PLAY 2: a new die; 6
    // passes: 1VA in command (4.3). Gray activates.
    let mut g = straggling();
    instruct(&mut g, "CARDS gray ASK");
    give_all(&mut g, CSA, &[2, 1]);
    instruct(&mut g, "DRAW 1");
    assert_eq!(dice_waiting(&g), Some(6));
    assert_eq!(g.now.checks.len(), 1);
    assert_eq!(g.now.checks[0].kind, CheckKind::Command);
    assert_eq!(g.now.checks[0].bonus, 0, "4.31: no modifier applies");
    let before = frozen(&g);
    roll(&mut g, "2");
    assert_eq!(
        asked(&g, Seat::South),
        ("after-roll".to_string(), vec![1, 2])
    );
    assert_eq!(frozen(&g), before);
    assert!(!g.unit(id(&g, "1VA")).out_of_command);
    let e = order(&mut g, "PLAY 2").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 2)]);
    assert_eq!(dice_waiting(&g), Some(6));
    let e = roll(&mut g, "6");
    assert_eq!(
        checked(&e).last().map(|c| (c.0, c.2, c.4)),
        Some((CheckKind::Command, 6, true))
    );
    assert!(!g.unit(id(&g, "1VA")).out_of_command, "4.3");
    assert_eq!(g.now.hands[CSA], vec![1]);
    assert_eq!(g.now.discard, vec![2]);
    activates(&g, Seat::South);
}

#[test]
fn b150_a_failed_command_check_passed_marks_the_unit_out_of_command() {
    // PASS: the 4 stands (4 + 0 fails): 1VA out of command (1.53, 4.3).
    let mut g = straggling();
    instruct(&mut g, "CARDS gray ASK");
    give(&mut g, CSA, 1);
    instruct(&mut g, "DRAW 1");
    roll(&mut g, "4");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![1]));
    assert!(!g.unit(id(&g, "1VA")).out_of_command);
    order(&mut g, "PASS").unwrap();
    assert!(g.unit(id(&g, "1VA")).out_of_command, "4.3");
    assert_eq!(g.now.hands[CSA], vec![1]);
    activates(&g, Seat::South);
}

#[test]
fn b150_a_passed_command_check_asks_the_enemy_side() {
    // 5 passes: the Union (CARDS USA ASK, card 2) is asked; gray's card 1
    // not offered. PLAY 2: a new die; 1 fails: gray asked [1]; PASS: 1VA
    // out of command.
    let mut g = straggling();
    instruct(&mut g, "CARDS gray ASK");
    instruct(&mut g, "CARDS USA ASK");
    give(&mut g, CSA, 1);
    give(&mut g, USA, 2);
    instruct(&mut g, "DRAW 1");
    roll(&mut g, "5");
    assert_eq!(asked(&g, Seat::North), ("after-roll".to_string(), vec![2]));
    assert!(!g.unit(id(&g, "1VA")).out_of_command);
    order(&mut g, "PLAY 2").unwrap();
    roll(&mut g, "1");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![1]));
    order(&mut g, "PASS").unwrap();
    assert!(g.unit(id(&g, "1VA")).out_of_command);
    activates(&g, Seat::South);
}

// ----- fate checks (2.33) --------------------------------------------------

#[test]
fn b150_a_fate_check_that_does_not_regroup_asks_its_owner_and_play_can_regroup() {
    // 2.33: 4 + 0 (1NY 2 hexes off): exhausted, not a regroup: the check
    // went against gray: asked [1, 2]. Nothing applied: gray still
    // exhausted, in the box, reserve 4. PLAY 1: a new die; 6: regroup:
    // gray no longer exhausted, its marker out of the box, one reserve
    // back (8.132: 4 -> 3).
    let mut g = exhausted(false);
    instruct(&mut g, "CARDS gray ASK");
    give_all(&mut g, CSA, &[2, 1]);
    fate_waits(&mut g, 0);
    let gray = brigade(&g, "gray");
    let before = frozen(&g);
    let e = roll(&mut g, "4");
    assert!(fates(&e).is_empty(), "B150: the result waits: {e:?}");
    assert_eq!(
        asked(&g, Seat::South),
        ("after-roll".to_string(), vec![1, 2])
    );
    assert_eq!(frozen(&g), before, "B150: nothing of the result applied");
    let e = order(&mut g, "PLAY 1").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 1)]);
    assert_eq!(dice_waiting(&g), Some(6), "B150: a new die for the check");
    let e = roll(&mut g, "6");
    assert_eq!(
        fates(&e),
        vec![("gray".to_string(), 6, 0, Fate::Regroup)],
        "{e:?}"
    );
    assert!(!g.brigade(gray).exhausted);
    assert!(!g.now.exhausted_box.contains(&gray));
    assert_eq!(g.brigade(gray).reserve, 3, "8.132");
    assert_eq!(g.now.discard, vec![1]);
    assert_eq!(g.now.hands[CSA], vec![2]);
}

#[test]
fn b150_a_fate_check_that_breaks_asks_its_owner_and_pass_breaks_the_brigade() {
    // 2.33 a: 2 + 0 breaks: gray asked [1]; nothing applied: not broken,
    // 1VA still on the map. PASS: the brigade breaks, its units leave the
    // map and a remnant is placed where 1VA stood (0505, B110).
    let mut g = exhausted(false);
    instruct(&mut g, "CARDS gray ASK");
    give(&mut g, CSA, 1);
    fate_waits(&mut g, 0);
    let gray = brigade(&g, "gray");
    let before = frozen(&g);
    roll(&mut g, "2");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![1]));
    assert_eq!(frozen(&g), before);
    assert!(!g.brigade(gray).broken);
    let e = order(&mut g, "PASS").unwrap();
    assert_eq!(
        fates(&e),
        vec![("gray".to_string(), 2, 0, Fate::Break)],
        "{e:?}"
    );
    assert!(g.brigade(gray).broken, "2.33 a");
    assert_eq!(g.hex_of(id(&g, "1VA")), None);
    let remnant = g.unit_named("REM1").expect("2.33 a: a generic remnant");
    assert_eq!(g.unit(remnant).place, Place::Map(hex("0505")));
    assert_eq!(g.now.hands[CSA], vec![1]);
}

#[test]
fn b150_a_fate_check_with_its_modifier_regrouping_asks_the_enemy_not_the_owner() {
    // 2.33's modifier: 1VA at 0806 is 8 hexes from 1NY: +1. 5 + 1 = 6: a
    // regroup: the check went the owner's way: gray (ASK, card 1) is not
    // asked; the Union (CARDS USA ASK, card 2) is, for its side. Nothing
    // applied: gray still exhausted. PLAY 2: a new die; 3 + 1 = 4: stays
    // exhausted: now the owner is asked [1]; PASS: gray stays exhausted
    // (FATE RECOVER by default, B111), not broken, marker still in the box
    // (it leaves only on a regroup, 2.33 c, 2.32 b), reserve unchanged.
    let mut g = exhausted(true);
    instruct(&mut g, "CARDS gray ASK");
    instruct(&mut g, "CARDS USA ASK");
    give(&mut g, CSA, 1);
    give(&mut g, USA, 2);
    fate_waits(&mut g, 1);
    let gray = brigade(&g, "gray");
    let before = frozen(&g);
    roll(&mut g, "5");
    assert_eq!(asked(&g, Seat::North), ("after-roll".to_string(), vec![2]));
    assert_eq!(frozen(&g), before);
    let e = order(&mut g, "PLAY 2").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 2)]);
    assert_eq!(dice_waiting(&g), Some(6));
    roll(&mut g, "3");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![1]));
    assert!(g.brigade(gray).exhausted);
    let e = order(&mut g, "PASS").unwrap();
    assert_eq!(
        fates(&e),
        vec![("gray".to_string(), 3, 1, Fate::Exhausted)],
        "{e:?}"
    );
    assert!(g.brigade(gray).exhausted && !g.brigade(gray).broken);
    assert_eq!(g.brigade(gray).reserve, 4);
    assert_eq!(g.now.hands, [vec![], vec![1]]);
    assert_eq!(g.now.discard, vec![2]);
}

#[test]
fn b150_a_fate_check_modifier_turns_a_five_into_a_regroup_without_a_question() {
    // +1 (far): 5 + 1 = 6 regroups. Only gray is ASK: nothing is asked,
    // the brigade regroups at once, its card kept.
    let mut g = exhausted(true);
    instruct(&mut g, "CARDS gray ASK");
    give(&mut g, CSA, 1);
    fate_waits(&mut g, 1);
    let gray = brigade(&g, "gray");
    let e = roll(&mut g, "5");
    not_asked(&g);
    assert_eq!(fates(&e), vec![("gray".to_string(), 5, 1, Fate::Regroup)]);
    assert!(!g.brigade(gray).exhausted);
    assert_eq!(g.brigade(gray).reserve, 3);
    assert_eq!(g.now.hands[CSA], vec![1]);
}

#[test]
fn b150_b140_a_fate_check_under_auto_or_never_stands() {
    // 4 + 0: exhausted; gray under AUTO or NEVER holding 1: nobody asked,
    // the roll stands, the card kept.
    for value in ["AUTO", "NEVER"] {
        let mut g = exhausted(false);
        instruct(&mut g, &format!("CARDS gray {value}"));
        instruct(&mut g, &format!("CARDS USA {value}"));
        give(&mut g, CSA, 1);
        give(&mut g, USA, 2);
        fate_waits(&mut g, 0);
        let gray = brigade(&g, "gray");
        let e = roll(&mut g, "4");
        not_asked(&g);
        assert!(played(&e).is_empty(), "{value}");
        assert_eq!(
            fates(&e),
            vec![("gray".to_string(), 4, 0, Fate::Exhausted)],
            "{value}"
        );
        assert!(g.brigade(gray).exhausted && !g.brigade(gray).broken);
        assert_eq!(g.now.hands, [vec![2], vec![1]], "{value}");
    }
}

// ----- checks made by a card: exhaustion (8.111) and regroup (2.33 c) ------

/// Blue activating (the Union decides); 1NY at 0302, 1VA (gray) at 0306;
/// gray neither exhausted nor broken, reserve marker on START.
fn rumour() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1NY", "0302"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    g
}

#[test]
fn b150_an_exhaustion_check_that_exhausts_asks_the_brigade_s_owner() {
    // 11.3 on 29-30 (fails-on 2): the Union plays 9 on gray: gray rolls one
    // die and exhausts on 1-2 (8.111: its reserve marker to EXHAUSTED,
    // space 4 of the test battle's track). The check is gray's: 1 went
    // against gray: gray (CARDS gray ASK) asked [1]; nothing applied: gray
    // not exhausted, reserve on START. PLAY 1: a new die; 4: gray does not
    // exhaust: the check went against the Union now: CARDS USA ASK, card
    // 2: asked [2]; PASS: the 4 stands; gray as it was. The Union's
    // activation goes on.
    let mut g = rumour();
    instruct(&mut g, "CARDS gray ASK");
    instruct(&mut g, "CARDS USA ASK");
    give_all(&mut g, USA, &[9, 2]);
    give(&mut g, CSA, 1);
    let gray = brigade(&g, "gray");
    let e = order(&mut g, "PLAY 9 ON gray").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 9)]);
    assert_eq!(dice_waiting(&g), Some(6));
    let before = frozen(&g);
    roll(&mut g, "1");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![1]));
    assert_eq!(frozen(&g), before, "B150: nothing of the result applied");
    assert!(!g.brigade(gray).exhausted);
    let e = order(&mut g, "PLAY 1").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 1)]);
    assert_eq!(dice_waiting(&g), Some(6));
    roll(&mut g, "4");
    assert_eq!(asked(&g, Seat::North), ("after-roll".to_string(), vec![2]));
    assert!(!g.brigade(gray).exhausted);
    order(&mut g, "PASS").unwrap();
    assert!(!g.brigade(gray).exhausted, "4 is more than 2");
    assert_eq!(g.brigade(gray).reserve, 0);
    assert_eq!(g.now.discard, vec![9, 1]);
    assert_eq!(g.now.hands, [vec![2], vec![]]);
    activates(&g, Seat::North);
}

#[test]
fn b150_an_exhaustion_check_that_spares_the_brigade_asks_the_card_s_player() {
    // 5 is more than 2: gray spared: the check went against the Union:
    // asked [2] (its side's ASK); gray, holding 1, is not. PLAY 2: a new
    // die; 2: gray exhausts: now gray asked [1]; PASS: gray exhausted, its
    // reserve marker on EXHAUSTED (space 4), not yet in the box (8.111).
    let mut g = rumour();
    instruct(&mut g, "CARDS gray ASK");
    instruct(&mut g, "CARDS USA ASK");
    give_all(&mut g, USA, &[9, 2]);
    give(&mut g, CSA, 1);
    let gray = brigade(&g, "gray");
    order(&mut g, "PLAY 9 ON gray").unwrap();
    roll(&mut g, "5");
    assert_eq!(asked(&g, Seat::North), ("after-roll".to_string(), vec![2]));
    order(&mut g, "PLAY 2").unwrap();
    assert_eq!(dice_waiting(&g), Some(6));
    roll(&mut g, "2");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![1]));
    assert!(!g.brigade(gray).exhausted);
    order(&mut g, "PASS").unwrap();
    assert!(g.brigade(gray).exhausted, "8.111");
    assert_eq!(g.brigade(gray).reserve, 4);
    assert!(g.now.exhausted_box.is_empty(), "8.111: at clean up");
    activates(&g, Seat::North);
}

#[test]
fn b150_a_regroup_check_that_misses_asks_its_owner() {
    // 11.3 on 47 (bonus 1): blue exhausted (reserve on EXHAUSTED, 4); 1NY
    // at 0303 sees 1VA at 0306, 3 hexes: no fate modifier. Horse is
    // activating, the Union plays 10 on blue. 3 + 1 = 4: no regroup (only
    // a regroup counts, 2.33 c): the check went against blue, its owner:
    // CARDS blue ASK: asked [1, 2]; nothing applied. PLAY 2: a new die;
    // 5 + 1 = 6: blue regroups: not exhausted, reserve back to 3 (8.132).
    let mut g = field();
    only(&mut g, &[("1NY", "0303"), ("1VA", "0306")]);
    let blue = brigade(&g, "blue");
    g.now.brigades[blue.index()].exhausted = true;
    g.now.brigades[blue.index()].reserve = 4;
    activating(&mut g, "horse");
    instruct(&mut g, "CARDS blue ASK");
    give_all(&mut g, USA, &[10, 2, 1]);
    order(&mut g, "PLAY 10 ON blue").unwrap();
    assert_eq!(dice_waiting(&g), Some(6));
    let before = frozen(&g);
    roll(&mut g, "3");
    assert_eq!(
        asked(&g, Seat::North),
        ("after-roll".to_string(), vec![1, 2])
    );
    assert_eq!(frozen(&g), before);
    order(&mut g, "PLAY 2").unwrap();
    assert_eq!(dice_waiting(&g), Some(6));
    roll(&mut g, "5");
    not_asked(&g);
    assert!(!g.brigade(blue).exhausted, "2.33 c");
    assert_eq!(g.brigade(blue).reserve, 3, "8.132");
    assert_eq!(g.now.hands[USA], vec![1]);
    assert_eq!(g.now.discard, vec![10, 2]);
    activates(&g, Seat::North);
}

// ----- the free activation draw (2.321, B13) -------------------------------

#[test]
fn b150_the_free_activation_draw_asks_its_loser_and_play_draws_again() {
    // B13: FIRST CSA: the Confederacy activates first, the Union lost the
    // draw: asked for its side (CARDS USA ASK) [1]; gray's ASK holding 2
    // is not asked (the draw went its way). Nothing applied: the track
    // empty, the step still the tie. PLAY 1: the draw of two again; FIRST
    // USA: now the Confederacy lost: asked (CARDS CSA ASK) [2]; PASS: the
    // Union's horse goes first, on START, then late (the sides
    // alternate, 2.321).
    let mut g = free_tie();
    instruct(&mut g, "CARDS USA ASK");
    instruct(&mut g, "CARDS CSA ASK");
    give(&mut g, USA, 1);
    give(&mut g, CSA, 2);
    to_the_tie(&mut g);
    let (horse, late) = (brigade(&g, "horse"), brigade(&g, "late"));
    let before = frozen(&g);
    instruct(&mut g, "FIRST CSA");
    assert_eq!(asked(&g, Seat::North), ("after-roll".to_string(), vec![1]));
    assert_eq!(frozen(&g), before, "B150: nothing of the draw applied");
    assert!(g.now.track.is_empty());
    let e = order(&mut g, "PLAY 1").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 1)]);
    assert_eq!(dice_waiting(&g), Some(2), "B13: the draw of two again");
    instruct(&mut g, "FIRST USA");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![2]));
    assert!(g.now.track.is_empty());
    order(&mut g, "PASS").unwrap();
    assert_eq!(g.now.track, vec![Marker::Free(horse)]);
    assert_eq!(g.now.free_queue, vec![late]);
    assert_eq!(g.now.hands, [vec![], vec![2]]);
    assert_eq!(g.now.discard, vec![1]);
}

#[test]
fn b150_the_free_activation_draw_pass_keeps_it() {
    // FIRST CSA, the Union asked, PASS: late first, then horse.
    let mut g = free_tie();
    instruct(&mut g, "CARDS USA ASK");
    give(&mut g, USA, 1);
    to_the_tie(&mut g);
    let (horse, late) = (brigade(&g, "horse"), brigade(&g, "late"));
    instruct(&mut g, "FIRST CSA");
    assert_eq!(asked(&g, Seat::North), ("after-roll".to_string(), vec![1]));
    order(&mut g, "PASS").unwrap();
    assert_eq!(g.now.track, vec![Marker::Free(late)]);
    assert_eq!(g.now.free_queue, vec![horse]);
    assert_eq!(g.now.hands[USA], vec![1]);
}

#[test]
fn b150_the_free_activation_draw_under_auto_or_never_stands() {
    for value in ["AUTO", "NEVER"] {
        let mut g = free_tie();
        instruct(&mut g, &format!("CARDS USA {value}"));
        give(&mut g, USA, 1);
        to_the_tie(&mut g);
        let late = brigade(&g, "late");
        let e = instruct_events(&mut g, "FIRST CSA");
        not_asked(&g);
        assert!(played(&e).is_empty(), "{value}");
        assert_eq!(g.now.track, vec![Marker::Free(late)], "{value}");
        assert_eq!(g.now.hands[USA], vec![1], "{value}");
    }
}

fn instruct_events(g: &mut BrothersAtWar, text: &str) -> Vec<Event> {
    order(g, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}
