//! Tanner's Ford played to the end by mail, through a real Maildir and a
//! real SQLite file: two players write as people write mail (a greeting,
//! orders in their own words, a sign-off, the last mail quoted below), the
//! service draws the cup, the dice and the cards, and answers each. What
//! must hold: every order is taken; no mail to a player names a card of
//! the other's hand that he cannot know (B2); the game ends under its
//! rules; the exported record replays to the same position and its draws
//! verify.

#[path = "../common/mod.rs"]
mod common;

use common::rng::XorShift;
use common::site::{flat, plain_mail, to, Out, Site};
use orderly::games::brothers_at_war::core::order::{Action, Order};
use orderly::games::brothers_at_war::core::question::Question;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Step};
use orderly::games::brothers_at_war::engine::Decision;
use orderly::games::brothers_at_war::scenario::model::Side;
use orderly::games::brothers_at_war::text::names;
use orderly::games::hosted::Hosted;
use orderly::games::{Game, GameText, Seat};

const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";

/// This file's sites (tests/common/site.rs): mails in a thread of their
/// own, the battle started by mail.
impl Site {
    fn new(name: &str) -> Site {
        Site::open("orderly-baw", name, |config| config.outgoing.html = false)
    }

    /// Drops a mail into the Maildir and polls; returns the new mails.
    fn mail(&mut self, from: &str, to: &str, body: &str) -> Vec<Out> {
        self.counter += 1;
        let n = self.counter;
        let raw = plain_mail(
            from,
            to,
            "Re: Tanner's Ford",
            &format!("<b{n}@tanners-ford.test>"),
            n,
            body,
        );
        self.raw(raw.as_bytes())
    }

    /// Game 1: Ann invites Bob to the demo battle as the Union, the seed
    /// is fixed ([`Site::fix_seed`], tests/common/site.rs) and Bob accepts. Ann's and Bob's
    /// reply addresses, and the mails of the acceptance.
    fn started(&mut self, seed: &str) -> (String, String, Vec<Out>) {
        self.started_in(None, seed)
    }

    /// [`Site::started`], on the battle of this scenario id when given.
    fn started_in(&mut self, scenario: Option<&str>, seed: &str) -> (String, String, Vec<Out>) {
        let scenario = scenario.map_or(String::new(), |s| format!(" SCENARIO {s}"));
        let outs = self.mail(
            ANN,
            "orderly@example.org",
            &format!("Hi\n\nNEW BROTHERSATWAR VS bob@example.org AS UNION{scenario}\n\nAnn"),
        );
        let bob_addr = to(&outs, BOB).reply_to;
        self.fix_seed(seed);
        let outs = self.mail(BOB, &bob_addr, "Accept\n\nBob");
        (to(&outs, ANN).reply_to, bob_addr, outs)
    }

    /// The game as the service stores it.
    fn stored(&mut self) -> BrothersAtWar {
        let shown = orderly::service::admin::show(self.service.store(), 1, "example.org").unwrap();
        let position = shown
            .lines()
            .find_map(|l| l.strip_prefix("position "))
            .unwrap_or_else(|| panic!("no position in {shown}"));
        BrothersAtWar::from_position(position).unwrap()
    }
}

/// An order as a player might write it: the canonical form, or in
/// lower case, or with everyday words (`10M moves to 1005`, `10m move
/// 1005-1006`). Names (`the 10th Millbrook`) are read too (the reader's
/// tests), but a line the mail filter finds part prose is played on its
/// own, and its end then closes the activation (`MAIL_TURN`).
fn written(order: &Order, rng: &mut XorShift) -> String {
    let canonical = order.to_string();
    match (order, rng.below(4)) {
        // END alone would end the mail (intake): players write more.
        (Order::End, n) => ["END UNITS", "End.", "end units", "END ACTIVATION"][n].to_string(),
        (
            Order::Act {
                units,
                action: Action::Move(path),
            },
            0,
        ) if units.len() == 1 => {
            let hexes: Vec<String> = path.iter().map(|h| h.to_string()).collect();
            format!("{} moves to {}", units[0], hexes.join(" "))
        }
        (
            Order::Act {
                units,
                action: Action::Move(path),
            },
            1,
        ) if units.len() == 1 => {
            let hexes: Vec<String> = path.iter().map(|h| h.to_string()).collect();
            format!("{} move {}", units[0].to_ascii_lowercase(), hexes.join("-"))
        }
        (
            Order::Play {
                card,
                on: Some(target),
            },
            0 | 1,
        ) => format!("Play {card} {}.", target.to_ascii_lowercase()),
        (_, 2) => canonical.to_ascii_lowercase(),
        _ => canonical,
    }
}

/// The orders of one mail for the seat the game waits for: up to four,
/// while the same seat decides and no chance is drawn between them.
/// Activations end soon (END, PASS, COMMANDER STAY, READY are preferred
/// half of the time) so that the battle is played to its end.
fn orders_for(model: &BrothersAtWar, rng: &mut XorShift) -> Vec<(Order, String)> {
    let seat = model.pending().expect("a seat to act").seat;
    let mut sim = model.clone();
    let mut lines = Vec::new();
    while lines.len() < 4 {
        if sim.chance().is_some() || sim.pending().is_none_or(|p| p.seat != seat) {
            break;
        }
        let legal = sim.legal_orders();
        let closing: Vec<&Order> = legal
            .iter()
            .filter(|o| {
                matches!(
                    o,
                    Order::End | Order::Pass(None) | Order::Commander(None) | Order::Ready
                )
            })
            .collect();
        // A card the seat may play is played a third of the time, so
        // that cards go by mail too (11.0, B134).
        let plays: Vec<&Order> = legal
            .iter()
            .filter(|o| matches!(o, Order::Play { .. }))
            .collect();
        let order = if !plays.is_empty() && rng.chance(33) {
            plays[rng.below(plays.len())].clone()
        } else if !closing.is_empty() && rng.chance(45) {
            closing[rng.below(closing.len())].clone()
        } else {
            legal[rng.below(legal.len())].clone()
        };
        let line = written(&order, rng);
        sim.apply(&order).expect("a legal order");
        lines.push((order, line));
    }
    lines
}

/// A mail as people write it: a greeting, a label, the orders, a
/// sign-off, and the last mail received quoted below.
fn compose(name: &str, lines: &[String], quoted: &str, rng: &mut XorShift) -> String {
    let greeting = ["Hi,", "Hello there,", "Evening!", "OK, my turn."][rng.below(4)];
    let label = ["My orders:", "", "Here goes:"][rng.below(3)];
    let sign = ["Cheers,", "Thanks,", "Good luck!", "Regards,"][rng.below(4)];
    let quote: String = quoted
        .lines()
        .take(12)
        .map(|l| format!("> {l}\n"))
        .collect();
    format!(
        "{greeting}\n\n{label}\n{}\n\n{sign}\n{name}\n\nOn Sat, 21 Nov 2026, orderly wrote:\n{quote}",
        lines.join("\n")
    )
}

/// The titles of the cards in `side`'s hand that the other side cannot
/// know: none of his own cards or of the discards has that title.
fn secret_titles(g: &BrothersAtWar, side: Side) -> Vec<String> {
    let s = &g.battle.scenario;
    let title = |n: &u8| names::card(s, *n).map(|c| c.name.clone());
    let known: Vec<String> = g.now.hands[side.other().index()]
        .iter()
        .chain(&g.now.discard)
        .filter_map(title)
        .collect();
    g.now.hands[side.index()]
        .iter()
        .filter_map(title)
        .filter(|t| !known.contains(t))
        .collect()
}

/// Keeps the last mail each player got, to quote in his next one.
fn keep_last(outs: &[Out], last_to: &mut [String; 2]) {
    for out in outs {
        let reader = if out.to == ANN { 0 } else { 1 };
        last_to[reader] = out.body.clone();
    }
}

/// A mail of random play for the seat deciding in `model`, written as
/// people write ([`orders_for`], [`compose`]).
fn random_mail(model: &BrothersAtWar, name: &str, quoted: &str, rng: &mut XorShift) -> String {
    let lines = orders_for(model, rng);
    let text: Vec<String> = lines.iter().map(|(_, l)| l.clone()).collect();
    compose(name, &text, quoted, rng)
}

/// The player deciding at `seat`: his address, his seat's reply
/// address, and the name he signs with.
fn writer<'a>(
    seat: Seat,
    ann_addr: &'a str,
    bob_addr: &'a str,
) -> (&'static str, &'a str, &'static str) {
    match seat {
        Seat::North => (ANN, ann_addr, "Ann"),
        Seat::South => (BOB, bob_addr, "Bob"),
    }
}

/// One mail of random play by the seat deciding in `model` ([`random_mail`],
/// written by `who` as [`writer`] gives him), keeping the last mail each
/// player got to quote next.
fn random_step(
    site: &mut Site,
    model: &BrothersAtWar,
    who: (&str, &str, &str),
    rng: &mut XorShift,
    last_to: &mut [String; 2],
) {
    let (from, addr, name) = who;
    let seat = model.pending().expect("a decision").seat;
    let body = random_mail(model, name, &last_to[seat.index()], rng);
    let outs = site.mail(from, addr, &body);
    keep_last(&outs, last_to);
}

/// The units' step of an activation in which nothing has acted or been
/// asked yet.
fn fresh_activation(model: &BrothersAtWar) -> bool {
    matches!(model.now.step, Step::Units(_))
        && model.now.reaction.is_none()
        && model
            .now
            .activation
            .as_ref()
            .is_some_and(|a| a.acted.is_empty() && a.group.is_none())
}

#[test]
fn tanners_ford_is_played_to_the_end_by_mail() {
    let mut site = Site::new("tanners-ford");
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "Hello!\n\nNEW BROTHERSATWAR VS bob@example.org AS UNION SCENARIO tanners-ford\n\nAnn",
    );
    let invitation = to(&outs, BOB);
    assert!(
        invitation.body.contains("invites you"),
        "{}",
        invitation.body
    );
    assert!(
        flat(&invitation.body).contains("scenario tanners-ford"),
        "{}",
        invitation.body
    );
    // No side moves first: the cup decides (2.21).
    assert!(
        flat(&invitation.body).contains("The activation cup decides which brigade acts first")
            && !invitation.body.contains("moves first"),
        "{}",
        invitation.body
    );
    let bob_addr = invitation.reply_to.clone();
    // The same battle every run: a failure can be replayed.
    site.fix_seed(&"1862a".repeat(13)[..64]);
    let outs = site.mail(BOB, &bob_addr, "Accept\n\nBob");
    let ann_addr = to(&outs, ANN).reply_to;
    let mut last_to: [String; 2] = [to(&outs, ANN).body, to(&outs, BOB).body];
    let mut rng = XorShift::from_state(0x1862_0917_BA00_0005);
    let mut mails = 0;
    let mut orders = 0;
    let mut hidden_checked = 0;
    let mut cards_played = 0;
    loop {
        let model = site.stored();
        if model.outcome().is_some() {
            break;
        }
        let seat = model.pending().expect("the service draws chance").seat;
        let lines = orders_for(&model, &mut rng);
        assert!(!lines.is_empty(), "no order for {seat:?}");
        let (from, addr, name) = writer(seat, &ann_addr, &bob_addr);
        let text: Vec<String> = lines.iter().map(|(_, l)| l.clone()).collect();
        let body = compose(name, &text, &last_to[seat.index()], &mut rng);
        let outs = site.mail(from, addr, &body);
        mails += 1;
        orders += lines.len();
        cards_played += lines
            .iter()
            .filter(|(o, _)| matches!(o, Order::Play { .. }))
            .count();
        let reply = flat(&to(&outs, from).body);
        for (order, line) in &lines {
            assert!(
                reply.contains(&format!("Taken: {order}")),
                "mail {mails}: {line:?} ({order}) not taken:\n{body}\n---\n{reply}"
            );
        }
        let after = site.stored();
        for out in &outs {
            let reader = if out.to == ANN {
                Seat::North
            } else {
                Seat::South
            };
            last_to[reader.index()] = out.body.clone();
            if after.outcome().is_some() {
                continue;
            }
            let other = Side::of(reader).other();
            for title in secret_titles(&after, other) {
                hidden_checked += 1;
                assert!(
                    !out.body.contains(&title),
                    "mail {mails}: {title}, a card of the other hand, told to {}:\n{}",
                    out.to,
                    out.body
                );
            }
        }
        assert!(mails < 2500, "the battle did not end in {mails} mails");
    }
    let end = site.stored();
    eprintln!(
        "{mails} mails, {orders} orders ({cards_played} cards played), {hidden_checked} hidden titles checked, turn {}, {:?}",
        end.now.turn, end.now.ended
    );
    assert!(hidden_checked > 0, "no hand was ever hidden");
    // Cards played by mail are taken like any order (11.0, B134).
    assert!(cards_played > 0, "no card was played by mail");
    assert!(end.now.turn >= end.battle.scenario.turns || end.now.ended.is_some());
    let games = orderly::service::admin::games(site.service.store()).unwrap();
    assert!(games.contains("finished"), "{games}");
    let record =
        orderly::service::admin::export(site.service.store(), 1, false, "example.org").unwrap();
    assert!(record.contains("[Game \"brothersatwar\"]"), "{record}");
    // The last mails carry the record as exported, every line within a
    // mail's 76 columns; the cup decided who acted first (2.21), so it
    // names no first seat; the proof of the draws follows the moves.
    for body in &last_to {
        let at = body.find("[Game \"brothersatwar\"]").expect("the record");
        assert!(body[at..].starts_with(&record), "{body}");
    }
    for line in record.lines() {
        assert!(line.chars().count() <= 76, "{line:?}");
    }
    assert!(!record.contains("[First "), "{record}");
    let (moves, proof) = record.split_once("\nCommitment ").expect("the proof");
    assert!(
        !moves.contains(" mail ") && !proof.contains("DRAW "),
        "{record}"
    );
    let (report, ok) = orderly::record::verify_report(&record);
    assert!(ok, "{report}\n{record}");
    let replayed = orderly::record::replay(
        &orderly::record::Record::read_as(&record, &Hosted::of::<BrothersAtWar>()).unwrap(),
    )
    .unwrap();
    assert_eq!(replayed.game.position(), end.position());
}

#[test]
fn standing_instructions_are_taken_by_mail_while_the_other_player_decides() {
    let mut site = Site::new("standing");
    let (ann_addr, bob_addr, _) = site.started(&"0b5e".repeat(16));
    let model = site.stored();
    let seat = model.pending().expect("a decision").seat;
    // The player who does not decide now writes instructions (B5, B8),
    // one for the other side's brigades, and an order out of turn.
    let (from, addr, own, theirs) = match seat {
        Seat::North => (BOB, &bob_addr, "CSA", "USA"),
        Seat::South => (ANN, &ann_addr, "USA", "CSA"),
    };
    let body = format!(
        "Hello,\n\nWhile I wait:\nOPFIRE {own} NEVER\ncards {own} auto.\nRETREAT {theirs} ALWAYS\nEND UNITS\n\nCheers\n\nSent from my phone"
    );
    let outs = site.mail(from, addr, &body);
    let reply = flat(&to(&outs, from).body);
    assert!(
        reply.contains(&format!("Taken: OPFIRE {own} NEVER")),
        "{reply}"
    );
    assert!(
        reply.contains(&format!("Taken: CARDS {own} AUTO")),
        "{reply}"
    );
    assert!(
        reply.contains("B5"),
        "the other's brigades are refused: {reply}"
    );
    assert!(
        !reply.contains(&format!("Taken: RETREAT {theirs}")),
        "{reply}"
    );
    assert!(!reply.contains("Taken: END UNITS"), "{reply}");
    let after = site.stored();
    assert_eq!(
        after.pending().map(|p| p.seat),
        Some(seat),
        "still the same decision"
    );
    let side = Side::of(seat).other();
    use orderly::games::brothers_at_war::core::combat::{CardsRule, Setting};
    assert_eq!(
        after
            .now
            .instructions
            .get(side, None, Setting::Cards(CardsRule::Never)),
        Setting::Cards(CardsRule::Auto)
    );
    // The record keeps them as that player's lines and replays them.
    let record =
        orderly::service::admin::export(site.service.store(), 1, false, "example.org").unwrap();
    assert!(record.contains(&format!("CARDS {own} AUTO")), "{record}");
    let replayed = orderly::record::replay(
        &orderly::record::Record::read_as(&record, &Hosted::of::<BrothersAtWar>()).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{e:?}\n{record}"));
    assert_eq!(replayed.game.position(), after.position());
}

#[test]
fn a_fire_on_an_enemy_named_in_words_is_played_in_the_same_activation() {
    // A line naming its target in words (`FN6 fire on the 10th
    // Millbrook`) is read on its own, after the lines before it; the end
    // of the mail closes the activation only after it (B9, MAIL_TURN).
    let mut site = Site::new("named");
    let (ann_addr, bob_addr, outs) = site.started(&"f1e2".repeat(16));
    let mut rng = XorShift::from_state(0x0b5e_55ed_0000_0009);
    let mut last_to: [String; 2] = [to(&outs, ANN).body, to(&outs, BOB).body];
    for _ in 0..300 {
        let model = site.stored();
        assert!(model.outcome().is_none(), "the battle ended first");
        let seat = model.pending().expect("a decision").seat;
        let (from, addr, name) = writer(seat, &ann_addr, &bob_addr);
        let fresh = fresh_activation(&model);
        if fresh {
            let legal = model.legal_orders();
            let fire = legal.iter().find_map(|o| match o {
                Order::Act {
                    units,
                    action: Action::Fire(h),
                } if units.len() == 1 => {
                    let enemy = model
                        .units_at(*h)
                        .into_iter()
                        .find(|&u| model.side_of(u) != Side::of(seat))?;
                    Some((units[0].clone(), *h, enemy))
                }
                _ => None,
            });
            let step = fire.as_ref().and_then(|(firer, _, _)| {
                legal.iter().find(|o| {
                    matches!(o, Order::Act { units, action: Action::Move(_) }
                        if units.len() == 1 && units[0] != *firer)
                })
            });
            if let (Some((firer, hex, enemy)), Some(step)) = (fire, step) {
                let mut sim = model.clone();
                sim.apply(step).unwrap();
                let fire_order = format!("{firer} FIRE {hex}");
                let still = sim.chance().is_none()
                    && sim
                        .legal_orders()
                        .iter()
                        .any(|o| o.to_string() == fire_order);
                if still {
                    let enemy_name = model.battle.scenario.units[enemy.index()].name.clone();
                    let body = format!(
                        "Hi,\n\n{step}\n{firer} fire on the {enemy_name}\n\nCheers, {name}\n\nSent from my phone"
                    );
                    let outs = site.mail(from, addr, &body);
                    let reply = flat(&to(&outs, from).body);
                    assert!(
                        reply.contains(&format!("Taken: {step}")),
                        "{body}\n---\n{reply}"
                    );
                    assert!(
                        reply.contains(&format!("Taken: {fire_order}")),
                        "{body}\n---\n{reply}"
                    );
                    let fired = reply.find(&format!("Taken: {fire_order}")).unwrap();
                    if let Some(closed) = reply.find("(the end of your mail") {
                        assert!(closed > fired, "closed before the fire:\n{reply}");
                    }
                    return;
                }
            }
        }
        random_step(
            &mut site,
            &model,
            (from, addr, name),
            &mut rng,
            &mut last_to,
        );
    }
    panic!("no activation offered a move and a fire at an enemy unit");
}

#[test]
fn board_all_mails_the_whole_map_of_a_battle_wider_than_a_window() {
    // The demo battle on 30 x 20 hexes: the board a mail carries is a
    // window of 18 columns and 14 rows; BOARD ALL sends all of it.
    let id = common::brothersatwar::register_wide_demo(30, 20);
    let mut site = Site::new("board-all");
    let (ann_addr, _, outs) = site.started_in(Some(&id), &"a11b".repeat(16));
    let usual = to(&outs, ANN).body;
    assert!(
        usual.contains("BOARD ALL draws the whole map"),
        "the usual board is a window:\n{usual}"
    );
    let outs = site.mail(ANN, &ann_addr, "Hi,\n\nBoard all, please.\n\nAnn");
    let reply = to(&outs, ANN).body;
    assert!(
        flat(&reply).contains("The whole board and the choices are below."),
        "{reply}"
    );
    assert!(!reply.contains("BOARD ALL draws the whole map"), "{reply}");
    // The last column's number heads the second strip, and the last row
    // is drawn in both.
    assert!(
        reply
            .lines()
            .any(|l| l.starts_with("     19  20") && l.trim_end().ends_with("30")),
        "{reply}"
    );
    assert_eq!(
        reply.lines().filter(|l| l.starts_with(" 20 ")).count(),
        4,
        "{reply}"
    );
    for line in reply.lines() {
        assert!(line.chars().count() <= 76, "too wide: {line:?}");
    }
    // Asked again, in words of its own, in the same mail: answered once.
    let outs = site.mail(ANN, &ann_addr, "WHOLE BOARD\nboard whole\nBOARD\n\nAnn");
    let reply = to(&outs, ANN).body;
    assert_eq!(
        reply.lines().filter(|l| l.starts_with(" 20 ")).count(),
        4,
        "one whole board, and BOARD sends no other:\n{reply}"
    );
    assert!(!reply.contains("BOARD ALL draws the whole map"), "{reply}");
}

#[test]
fn help_to_a_brothers_at_war_player_lists_its_words_and_no_other_games() {
    let mut site = Site::new("help");
    let (ann_addr, _, _) = site.started(&"0b5e".repeat(16));
    let outs = site.mail(ANN, &ann_addr, "Hi,\n\nHELP\n\nAnn");
    let reply = to(&outs, ANN).body;
    for line in reply.lines() {
        assert!(line.chars().count() <= 76, "too wide: {line:?}");
    }
    let help = flat(&reply);
    // The game's own orders, as the game words them for the writer's
    // seat (GameText::orders_for: his own units and hexes).
    let own = GameText::orders_for(&site.stored(), Seat::North);
    assert!(own.contains("MOVE") && own.contains("END UNITS"), "{own}");
    assert!(help.contains(&flat(&own)), "{reply}");
    assert!(help.contains("BROTHERSATWAR (Brothers at War"), "{reply}");
    // What every game takes.
    for general in [
        "BOARD ALL",
        "HELP MOVES",
        "HELP RULES",
        "RESIGN",
        "SAY <text>",
    ] {
        assert!(help.contains(general), "{general}: {reply}");
    }
    // No other game's orders or own commands: SQUARES' answers in
    // advance (IF STAND, IF ATTACKED, CANCEL IF), its squares, the Civil
    // War's MORE and battles.
    use orderly::games::civil_war_1863::CivilWar1863;
    use orderly::games::squares::Squares;
    for other in [Hosted::of::<Squares>(), Hosted::of::<CivilWar1863>()] {
        assert!(!help.contains(&flat(other.orders)), "{reply}");
        for line in other.commands.lines() {
            assert!(!help.contains(&flat(line)), "{line:?} in {reply}");
        }
    }
    for word in [
        "IF STAND",
        "IF ATTACKED",
        "CANCEL IF",
        "G2CR",
        "SQUARES (",
        "TAKE 2 KILL",
    ] {
        assert!(!help.contains(word), "{word}: {reply}");
    }
    // Still every game can be proposed, and its rules asked for.
    assert!(help.contains("NEW SQUARES VS their@address"), "{reply}");
    assert!(
        help.contains("HELP RULES [SQUARES|NAPOLEONIC|CIVILWAR1863|BROTHERSATWAR]"),
        "{reply}"
    );
}

/// How often `needle` stands in `text`, both flattened.
fn count(text: &str, needle: &str) -> usize {
    flat(text).matches(&flat(needle)).count()
}

#[test]
fn one_mail_of_orders_and_commands_makes_one_update_to_each_player() {
    // Orders split by lines that are no orders (a command, a standing
    // instruction in words, a message, a draw offered) are played in
    // groups; the mail still makes one update to each player, which tells
    // every event of every group, once.
    let title = Hosted::of::<BrothersAtWar>().title;
    for (n, between) in [
        "BOARD",
        "Say: good luck",
        "OPFIRE {side} NEVER\ncards {side} auto.\nBoard please",
        "OFFER DRAW",
    ]
    .into_iter()
    .enumerate()
    {
        let mut site = Site::new(&format!("one-update-{n}"));
        let (ann_addr, bob_addr, _) = site.started(&"0b5e".repeat(16));
        let model = site.stored();
        let seat = model.pending().expect("a decision").seat;
        let (from, addr, other) = match seat {
            Seat::North => (ANN, &ann_addr, BOB),
            Seat::South => (BOB, &bob_addr, ANN),
        };
        let lines = orders_for(&model, &mut XorShift::from_state(7));
        assert!(lines.len() >= 2, "orders to split: {lines:?}");
        // What the orders make happen, as each player reads it.
        let mut sim = model.clone();
        let mut events = Vec::new();
        for (order, _) in &lines {
            events.extend(sim.apply(order).expect("a legal order"));
        }
        assert!(!events.is_empty());
        let orders: Vec<String> = lines.iter().map(|(o, _)| o.to_string()).collect();
        let (first, rest) = orders.split_at(1);
        let side = match seat {
            Seat::North => "USA",
            Seat::South => "CSA",
        };
        let between = between.replace("{side}", side);
        let body = format!(
            "Hi,\n\n{}\n{between}\n{}\n\nCheers",
            first.join("\n"),
            rest.join("\n")
        );
        let outs = site.mail(from, addr, &body);
        let to_writer: Vec<&Out> = outs.iter().filter(|o| o.to == from).collect();
        let to_other: Vec<&Out> = outs.iter().filter(|o| o.to == other).collect();
        let recipients: Vec<&str> = outs.iter().map(|o| o.to.as_str()).collect();
        assert_eq!(to_writer.len(), 1, "{between}: {recipients:?}");
        assert_eq!(to_other.len(), 1, "{between}: one update: {recipients:?}");
        let (reply, update) = (&to_writer[0].body, &to_other[0].body);
        // Each carries one board (one update).
        let header = format!("Game 1: {title}");
        assert_eq!(count(reply, &header), 1, "{between}: {reply}");
        assert_eq!(count(update, &header), 1, "{between}: {update}");
        for order in &orders {
            assert!(reply.contains(&format!("Taken: {order}")), "{reply}");
        }
        // Every event is told once to each: the writer in the echo of his
        // lines or in his update, the other player in his update.
        for event in &events {
            for (who, text) in [(seat, reply), (seat.other(), update)] {
                let words = <BrothersAtWar as GameText>::event_text(event, who);
                assert_eq!(count(text, &words), 1, "{between}: {words:?} in {text}");
            }
        }
        if between.starts_with("Say") {
            assert_eq!(count(update, "says: good luck"), 1, "{update}");
        }
        if between == "OFFER DRAW" {
            assert_eq!(count(update, "offers a draw in game 1"), 1, "{update}");
        }
        if between.contains("OPFIRE") {
            assert!(reply.contains("standing instruction for"), "{reply}");
        }
    }
}

#[test]
fn instructions_and_questions_alone_leave_the_activation_open_and_end_units_is_told_to_both() {
    let mut site = Site::new("open-activation");
    let (ann_addr, bob_addr, _) = site.started(&"0b5e".repeat(16));
    let model = site.stored();
    let seat = model.pending().expect("a decision").seat;
    let (me, addr, other, own) = match seat {
        Seat::North => (ANN, &ann_addr, BOB, "USA"),
        Seat::South => (BOB, &bob_addr, ANN, "CSA"),
    };
    // The player to act asks and sets instructions only: his activation
    // is not played for him (no END UNITS at the mail's end).
    let body = format!("Hi,\n\nboard all\ncards {own} auto\n\nThanks\n\nSent from my iPhone");
    let outs = site.mail(me, addr, &body);
    let reply = flat(&to(&outs, me).body);
    assert!(!reply.contains("END UNITS) Taken"), "{reply}");
    assert!(!reply.contains("(the end of your mail"), "{reply}");
    let after = site.stored();
    assert_eq!(after.now.step, model.now.step, "the same step");
    assert_eq!(after.now.activation, model.now.activation, "nothing played");
    // END UNITS alone moves on to the commander's step: both hear of it,
    // the writer with the board and his choices.
    let outs = site.mail(me, addr, "end units\n\n--\nme");
    let reply = flat(&to(&outs, me).body);
    assert!(reply.contains("Taken: END UNITS"), "{reply}");
    let moved = site.stored();
    assert_ne!(moved.position(), after.position(), "the step moved on");
    assert!(
        reply.contains("Brigades and their units"),
        "the writer gets the board: {reply}"
    );
    assert!(
        outs.iter().any(|o| o.to == other),
        "the other player hears of it: {:?}",
        outs.iter().map(|o| o.to.clone()).collect::<Vec<_>>()
    );
}

/// B7, B145: a player who sets `LOSSES`, `RESERVES` and `PATHS ... ASK`
/// is asked by mail, in the middle of a fire's or an assault's result,
/// and his answer, written as people write (a greeting, lower case, a
/// sign-off), is taken; the other player is never asked his questions.
#[test]
fn the_questions_of_a_combat_result_are_asked_and_answered_by_mail() {
    let mut site = Site::new("asked");
    let (ann_addr, bob_addr, outs) = site.started(&"a5ce".repeat(16));
    let mut last_to: [String; 2] = [to(&outs, ANN).body, to(&outs, BOB).body];
    // Both ask everything, and retreat whenever they may, so that
    // retreat paths come up often (6.7, B90).
    for (from, addr, side) in [(ANN, &ann_addr, "USA"), (BOB, &bob_addr, "CSA")] {
        let body = format!(
            "Hello,\n\nlosses {side} ask\nreserves {side} ask\npaths {side} ask\nretreat {side} always\n\nThanks"
        );
        let outs = site.mail(from, addr, &body);
        let reply = flat(&to(&outs, from).body);
        assert!(
            reply.contains(&format!("Taken: PATHS {side} ASK")),
            "{reply}"
        );
    }
    let mut rng = XorShift::from_state(0x0a5c_ed00_0000_0145);
    let mut seen: Vec<&str> = Vec::new();
    let mut asked_answered = 0;
    for _ in 0..400 {
        let model = site.stored();
        if model.outcome().is_some() {
            break;
        }
        let seat = model.pending().expect("a decision").seat;
        let (from, addr, name) = writer(seat, &ann_addr, &bob_addr);
        let asked = model.now.reaction.as_ref().and_then(|r| r.question.clone());
        let body = if let Some(question) = asked {
            let kind = match question {
                Question::Loss { .. } => "LOSSES ASK",
                Question::Reserve { .. } => "RESERVES ASK",
                Question::Path { .. } | Question::Commander { .. } | Question::Remnant { .. } => {
                    "PATHS ASK"
                }
                Question::Card { .. } => "CARDS ASK",
            };
            let mine = flat(&last_to[seat.index()]);
            assert!(
                mine.contains(&format!("You are asked ({kind}")),
                "the asked player's mail says what is asked:\n{mine}"
            );
            let theirs = flat(&last_to[1 - seat.index()]);
            assert!(
                !theirs.contains("You are asked"),
                "the other player is not asked:\n{theirs}"
            );
            if !seen.contains(&kind) {
                seen.push(kind);
            }
            let answers: Vec<Order> = model
                .legal_orders()
                .into_iter()
                .filter(|o| !matches!(o, Order::Play { .. }))
                .collect();
            let answer = answers[rng.below(answers.len())].clone();
            let body = format!(
                "Hi,\n\n{}\n\nThanks,\n{name}\n\nOn Sat, 21 Nov 2026, orderly wrote:\n> You are asked",
                answer.to_string().to_ascii_lowercase()
            );
            let outs = site.mail(from, addr, &body);
            let reply = flat(&to(&outs, from).body);
            assert!(
                reply.contains(&format!("Taken: {answer}")),
                "{body}\n---\n{reply}"
            );
            keep_last(&outs, &mut last_to);
            asked_answered += 1;
            continue;
        } else {
            random_mail(&model, name, &last_to[seat.index()], &mut rng)
        };
        let outs = site.mail(from, addr, &body);
        keep_last(&outs, &mut last_to);
        if seen.len() == 3 || asked_answered >= 6 {
            break;
        }
    }
    // Which kinds come up depends on the battle's dice; random play
    // reaches each kind on the engine's own (the properties'
    // `random_games_asking_every_question...`); here, by mail, at least
    // one question must have been asked and answered.
    assert!(!seen.is_empty(), "no question was asked in the battle");
}

/// B148: a player who sets `CARDS ... ASK` is asked by mail which card to
/// play as a window of the enemy's moments opens; his answer (`play 19`
/// or `pass`, written as people write) is taken; the cards offered are
/// named in his mail only, never in the other player's (B2), and the
/// other player is never asked his question.
#[test]
fn cards_for_the_enemys_moments_are_asked_and_answered_by_mail() {
    let mut site = Site::new("cards-asked");
    let (ann_addr, bob_addr, outs) = site.started(&"ca4d".repeat(16));
    let mut last_to: [String; 2] = [to(&outs, ANN).body, to(&outs, BOB).body];
    for (from, addr, side) in [(ANN, &ann_addr, "USA"), (BOB, &bob_addr, "CSA")] {
        let body = format!("Hello,\n\ncards {side} ask\n\nThanks");
        let outs = site.mail(from, addr, &body);
        let reply = flat(&to(&outs, from).body);
        assert!(
            reply.contains(&format!("Taken: CARDS {side} ASK")),
            "{reply}"
        );
    }
    let mut rng = XorShift::from_state(0x0ca4_d500_0000_0148);
    let (mut asked, mut played) = (0, 0);
    for _ in 0..1500 {
        let model = site.stored();
        if model.outcome().is_some() || (asked >= 4 && played >= 1) {
            break;
        }
        let seat = model.pending().expect("a decision").seat;
        let (from, addr, name) = writer(seat, &ann_addr, &bob_addr);
        let question = model.now.reaction.as_ref().and_then(|r| r.question.clone());
        let Some(Question::Card { cards, .. }) = question else {
            random_step(
                &mut site,
                &model,
                (from, addr, name),
                &mut rng,
                &mut last_to,
            );
            continue;
        };
        asked += 1;
        let mine = flat(&last_to[seat.index()]);
        assert!(
            mine.contains("You are asked (CARDS ASK"),
            "the asked player's mail says what is asked:\n{mine}"
        );
        let theirs = flat(&last_to[1 - seat.index()]);
        assert!(
            !theirs.contains("You are asked"),
            "the other player is not asked:\n{theirs}"
        );
        let side = if seat == Seat::North {
            Side::Union
        } else {
            Side::Confederacy
        };
        for title in secret_titles(&model, side) {
            assert!(
                !theirs.contains(&title),
                "the other player's mail names a card of the asked hand ({title}):\n{theirs}"
            );
        }
        for &card in &cards {
            let title = names::card(&model.battle.scenario, card).map(|c| c.name.clone());
            assert!(
                mine.contains(&format!("PLAY {card} ({})", title.unwrap_or_default())),
                "card {card} is offered by number and name:\n{mine}"
            );
        }
        // Play the first card offered now and then, else pass.
        let answer = if rng.below(2) == 0 {
            played += 1;
            format!("play {}", cards[0])
        } else {
            "pass".to_string()
        };
        let body = format!(
            "Hi,\n\n{answer}\n\nThanks,\n{name}\n\nOn Sat, 21 Nov 2026, orderly wrote:\n> You are asked"
        );
        let outs = site.mail(from, addr, &body);
        let reply = flat(&to(&outs, from).body);
        assert!(
            reply.contains(&format!("Taken: {}", answer.to_ascii_uppercase())),
            "{body}\n---\n{reply}"
        );
        let after = site.stored();
        let still = after.now.reaction.as_ref().and_then(|r| r.question.clone());
        assert!(
            after.now.held.is_none()
                || still != model.now.reaction.as_ref().and_then(|r| r.question.clone()),
            "the answer moved the question on"
        );
        keep_last(&outs, &mut last_to);
    }
    assert!(asked >= 1, "no card question was asked in the battle");
}

/// At the commander's step: an instruction for the other player's brigade
/// is refused (B5) with the instructions the writer may give as the
/// nearest orders, and `END UNITS`, the units having ended already, is
/// answered so and does not stop the mail's `COMMANDER STAY` (3.22).
#[test]
fn at_the_commanders_step_end_units_and_a_refused_instruction_are_answered() {
    let mut site = Site::new("commander-step");
    let (ann_addr, bob_addr, _) = site.started(&"0b5e".repeat(16));
    let model = site.stored();
    let seat = model.pending().expect("a decision").seat;
    let (me, addr) = match seat {
        Seat::North => (ANN, &ann_addr),
        Seat::South => (BOB, &bob_addr),
    };
    site.mail(me, addr, "end units\n\n--\nme");
    let at_commander = site.stored();
    assert!(
        matches!(at_commander.now.step, Step::Commander(_)),
        "{:?}",
        at_commander.now.step
    );
    let side = Side::of(seat);
    let brigades = |s: Side| -> Vec<String> {
        at_commander
            .battle
            .brigade_ids()
            .filter(|&b| at_commander.battle.brigade_side(b) == s)
            .map(|b| at_commander.brigade_name(b))
            .collect()
    };
    let theirs = brigades(side.other())[0].clone();
    let outs = site.mail(me, addr, &format!("Hi,\n\nopfire {theirs} never\n\nme"));
    let reply = flat(&to(&outs, me).body);
    assert!(reply.contains("Refused under rule B5"), "{reply}");
    let nearest = reply
        .split("Nearest legal orders:")
        .nth(1)
        .unwrap_or_else(|| panic!("no suggestions: {reply}"));
    for own in brigades(side) {
        assert!(
            nearest.contains(&format!("OPFIRE {own} NEVER")),
            "{own}: {reply}"
        );
    }
    assert!(
        nearest.contains(&format!("OPFIRE {} NEVER", side.code())),
        "{reply}"
    );
    assert!(!nearest.trim_start().starts_with("COMMANDER"), "{reply}");
    let outs = site.mail(me, addr, "Hi,\n\nEND UNITS\ncommander stay\n\nme");
    let reply = flat(&to(&outs, me).body);
    assert!(reply.contains("units have ended already"), "{reply}");
    assert!(reply.contains("Taken: COMMANDER STAY"), "{reply}");
    assert!(!reply.contains("Not applied"), "{reply}");
    assert!(
        !matches!(site.stored().now.step, Step::Commander(b) if Some(b) == at_commander.now.activation.as_ref().map(|a| a.brigade)),
        "the commander's step is done"
    );
}

/// A regiment of the side to act whose name starts with its number
/// (`7th Greer Infantry`), moving two hexes with no draw of chance on the
/// way, and then another unit of the side firing: the mover's id, its
/// name's first two words, the path, the firer and its target.
struct HabitsPlan {
    mover: String,
    name: String,
    path: [String; 2],
    firer: String,
    target: String,
}

fn habits_plan(model: &BrothersAtWar) -> Option<HabitsPlan> {
    let legal: Vec<String> = model.legal_orders().iter().map(|o| o.to_string()).collect();
    for first in &legal {
        let Some((mover, a)) = first.split_once(" MOVE ") else {
            continue;
        };
        if mover.contains(' ') || a.contains(' ') {
            continue;
        }
        let unit = model.battle.scenario.units.iter().find(|u| u.id == mover)?;
        let words: Vec<&str> = unit.name.split_whitespace().take(2).collect();
        let number = words[0].trim_end_matches(char::is_alphabetic);
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let mut one = model.clone();
        one.apply(&model.parse_order(first).ok()?).ok()?;
        if one.chance().is_some() {
            continue;
        }
        for second in one.legal_orders().iter().map(|o| o.to_string()) {
            let Some(b) = second.strip_prefix(&format!("{mover} MOVE ")) else {
                continue;
            };
            let path = format!("{mover} MOVE {a} {b}");
            let mut moved = model.clone();
            let Ok(order) = moved.parse_order(&path) else {
                continue;
            };
            if moved.apply(&order).is_err() || moved.chance().is_some() {
                continue;
            }
            let fire = moved
                .legal_orders()
                .iter()
                .map(|o| o.to_string())
                .find(|o| {
                    o.split_once(" FIRE ")
                        .is_some_and(|(u, h)| u != mover && !u.contains(' ') && !h.contains(' '))
                });
            if let Some((firer, target)) = fire.as_deref().and_then(|f| f.split_once(" FIRE ")) {
                return Some(HabitsPlan {
                    mover: mover.to_string(),
                    name: words.join(" "),
                    path: [a.to_string(), b.to_string()],
                    firer: firer.to_string(),
                    target: target.to_string(),
                });
            }
        }
    }
    None
}

/// The habits of players that cost turns by mail (a numbered list, an
/// article and a regiment's name, a third-person verb, a remark in
/// brackets, a fire's target in words with its hex, a chatty line that
/// mentions a hex): the orders are played and the remark is said to be
/// one; nothing is refused or left unapplied.
#[test]
fn a_mail_written_with_players_habits_plays_its_orders() {
    let mut site = Site::new("habits");
    let (ann_addr, bob_addr, _) = site.started(&"0b5e".repeat(16));
    let mut plan = None;
    for _ in 0..80 {
        let model = site.stored();
        let seat = model.pending().expect("a decision").seat;
        let (from, addr) = match seat {
            Seat::North => (ANN, &ann_addr),
            Seat::South => (BOB, &bob_addr),
        };
        if let Some(p) = habits_plan(&model) {
            plan = Some((p, from, addr.clone()));
            break;
        }
        // On to the next decision, the way a player ends his part.
        let legal: Vec<String> = model.legal_orders().iter().map(|o| o.to_string()).collect();
        let close = ["READY", "COMMANDER STAY", "END UNITS", "PASS", "KEEP"]
            .into_iter()
            .find(|c| legal.iter().any(|l| l == c))
            .map(str::to_string)
            .unwrap_or_else(|| legal[0].clone());
        let outs = site.mail(from, addr, &format!("{close}\n\nMe"));
        assert!(
            flat(&to(&outs, from).body).contains(&format!("Taken: {close}")),
            "{close}"
        );
    }
    let (p, from, addr) = plan.expect("a regiment moves two hexes and another unit fires");
    let [a, b] = &p.path;
    let remark = format!("oops, wrong way round. via {a} then:");
    let moving = format!(
        "1. the {} moves to {a}, {b} (charge!)",
        p.name.to_ascii_lowercase()
    );
    let firing = format!(
        "2) {} fire on the skirmishers at {}",
        p.firer.to_ascii_lowercase(),
        p.target
    );
    let body =
        format!("Morning,\n\n{remark}\n\n{moving}\n{firing}\n\nCheers\n\nSent from my iPhone\n");
    let outs = site.mail(from, &addr, &body);
    let reply = to(&outs, from).body;
    let flat_reply = flat(&reply);
    let step = format!("{} MOVE {a} {b}", p.mover);
    let fire = format!("{} FIRE {}", p.firer, p.target);
    for taken in [&step, &fire] {
        assert!(
            flat_reply.contains(&format!("Taken: {taken}")),
            "{taken}:\n{body}\n---\n{reply}"
        );
    }
    // Each line is echoed as written, with its own answer.
    for line in [&remark, &moving, &firing] {
        assert!(reply.contains(&format!("> {line}\n")), "{line}:\n{reply}");
    }
    assert!(
        flat_reply.contains(&format!(
            "Ignored as a remark: it reads as a sentence that mentions {a}"
        )),
        "{reply}"
    );
    for failure in ["Not understood", "Not applied", "Refused"] {
        assert!(!flat_reply.contains(failure), "{failure}:\n{reply}");
    }
}

/// A player who says PASS in a sentence and then on a line of its own:
/// each line is echoed once, as written, with what became of it.
#[test]
fn each_line_of_the_reply_echoes_the_line_it_answers() {
    let mut site = Site::new("echo-each-line");
    let (ann_addr, bob_addr, _) = site.started(&"0b5e".repeat(16));
    let model = site.stored();
    assert!(
        model.legal_orders().iter().any(|o| o.to_string() == "PASS"),
        "the first decision may pass"
    );
    let seat = model.pending().expect("a decision").seat;
    let (from, addr) = match seat {
        Seat::North => (ANN, &ann_addr),
        Seat::South => (BOB, &bob_addr),
    };
    let sentence = "Ward catches his breath this time - pass, and I'll take a card.";
    let body = format!("{sentence}\n\npass\n\nCarol\nSent from my iPhone\n");
    let outs = site.mail(from, addr, &body);
    let reply = to(&outs, from).body;
    assert_eq!(
        reply.matches(&format!("> {sentence}\n")).count(),
        1,
        "the sentence once:\n{reply}"
    );
    assert_eq!(
        reply.matches("\n> pass\n").count(),
        1,
        "the line `pass` once, as written:\n{reply}"
    );
    // The sentence's PASS is taken first (it was written first), and its
    // answer stands under it.
    let after_sentence = reply.split(&format!("> {sentence}\n")).nth(1).unwrap();
    assert!(after_sentence.starts_with("Taken: PASS"), "{reply}");
}

/// The sides may be named by the codes the game's own orders use
/// (`NEW ... AS USA`): a new user writes what the instructions write.
#[test]
fn a_side_is_named_by_its_code_in_new_as_well_as_by_its_name() {
    let mut site = Site::new("as-code");
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "Hi\n\nNEW BROTHERSATWAR VS bob@example.org AS CSA\n\nAnn",
    );
    let reply = flat(&to(&outs, ANN).body);
    assert!(!reply.contains("Refused"), "{reply}");
    let invitation = flat(&to(&outs, BOB).body);
    assert!(
        invitation.contains("Union"),
        "Bob is offered the Union: {invitation}"
    );
}

/// Every standing instruction is read by mail as written, whoever decides
/// (B5): the newer ones too (FATE, DISCARD, RALLYFAIL); and the words of
/// the answers to questions (LOSE, ELIMINATE, REMOVE) are read as orders,
/// never dropped as prose.
#[test]
fn the_newer_instructions_and_answer_words_are_read_as_orders() {
    let mut site = Site::new("new-words");
    let (ann_addr, _, _) = site.started(&"f00d".repeat(16));
    let body = "Hello,\n\nfate usa move\ndiscard usa ask\nrallyfail usa stay\n\nThanks,\nAnn\n\nSent from my iPhone";
    let outs = site.mail(ANN, &ann_addr, body);
    let reply = flat(&to(&outs, ANN).body);
    for taken in ["FATE USA MOVE", "DISCARD USA ASK", "RALLYFAIL USA STAY"] {
        assert!(
            reply.contains(&format!("Taken: {taken}")),
            "{taken}:\n{reply}"
        );
    }
    // An answer word out of its moment is refused with a reason, not
    // ignored as a remark.
    let outs = site.mail(ANN, &ann_addr, "lose 10m\n\nAnn");
    let reply = flat(&to(&outs, ANN).body);
    assert!(reply.contains("> lose 10m Refused"), "{reply}");
}

/// The first refused line of play stops the mail, also when it was read
/// on its own (a line found part prose): the lines after it were written
/// on the assumption that it would be taken (a new user lost an
/// activation to `END UNITS` played after his refused fire).
#[test]
fn a_refused_line_read_on_its_own_stops_the_lines_after_it() {
    let mut site = Site::new("halted");
    let (ann_addr, bob_addr, outs) = site.started(&"4a17".repeat(16));
    let mut rng = XorShift::from_state(0x0b5e_55ed_0000_0011);
    let mut last_to: [String; 2] = [to(&outs, ANN).body, to(&outs, BOB).body];
    for _ in 0..300 {
        let model = site.stored();
        assert!(model.outcome().is_none(), "the battle ended first");
        let seat = model.pending().expect("a decision").seat;
        let (from, addr, name) = writer(seat, &ann_addr, &bob_addr);
        let fresh = fresh_activation(&model);
        let unit = model.legal_orders().iter().find_map(|o| match o {
            Order::Act { units, .. } if units.len() == 1 => Some(units[0].clone()),
            _ => None,
        });
        if let (true, Some(unit)) = (fresh, unit) {
            let body = format!(
                "Hi,\n\nthe {unit} fires on the battery on the hill at 9999 (give them hell)\nend units\n\nCheers, {name}"
            );
            let outs = site.mail(from, addr, &body);
            let reply = flat(&to(&outs, from).body);
            assert!(!reply.contains("Taken: END UNITS"), "{reply}");
            assert!(reply.contains("> end units Not applied"), "{reply}");
            let after = site.stored();
            assert_eq!(after.now.activation, model.now.activation, "nothing played");
            return;
        }
        random_step(
            &mut site,
            &model,
            (from, addr, name),
            &mut rng,
            &mut last_to,
        );
    }
    panic!("no fresh activation came");
}

/// Plays on (each player ending his part as soon as he may) until
/// `wanted` holds of the stored game; returns it with the address and
/// sender of the seat to decide.
fn play_until(
    site: &mut Site,
    addrs: (&str, &str),
    wanted: impl Fn(&BrothersAtWar) -> bool,
) -> (BrothersAtWar, &'static str, String) {
    for _ in 0..200 {
        let model = site.stored();
        let seat = model.pending().expect("a decision").seat;
        let (from, addr) = match seat {
            Seat::North => (ANN, addrs.0.to_string()),
            Seat::South => (BOB, addrs.1.to_string()),
        };
        if wanted(&model) {
            return (model, from, addr);
        }
        let legal: Vec<String> = model.legal_orders().iter().map(|o| o.to_string()).collect();
        let close = ["READY", "COMMANDER STAY", "END UNITS", "PASS", "KEEP"]
            .into_iter()
            .find(|c| legal.iter().any(|l| l == c))
            .map(str::to_string)
            .unwrap_or_else(|| legal[0].clone());
        site.mail(from, &addr, &format!("{close}\n\nMe"));
    }
    panic!("the wanted decision never came");
}

/// The help of a line the reader cannot read gives examples of the
/// writer's own side: his units and hexes, never the other side's.
#[test]
fn the_help_of_a_line_not_understood_shows_the_writers_own_units() {
    let mut site = Site::new("own-examples");
    let (ann_addr, bob_addr, _) = site.started(&"0b5e".repeat(16));
    for seat in [Seat::South, Seat::North] {
        let (model, from, addr) = play_until(&mut site, (&ann_addr, &bob_addr), |g| {
            g.pending().is_some_and(|p| p.seat == seat) && fresh_activation(g)
        });
        let side = Side::of(seat);
        let ids = |s: Side| -> Vec<String> {
            model
                .battle
                .scenario
                .units
                .iter()
                .enumerate()
                .filter(|(i, _)| {
                    model.side_of(orderly::games::brothers_at_war::core::ids::UnitId(
                        *i as u16,
                    )) == s
                })
                .map(|(_, u)| u.id.clone())
                .collect()
        };
        let outs = site.mail(from, &addr, "Hi,\n\nmove\n\nCheers");
        let reply = flat(&to(&outs, from).body);
        let help = reply
            .split("Not understood")
            .nth(1)
            .unwrap_or_else(|| panic!("{reply}"));
        let help = help.split("Nothing was changed").next().unwrap_or_default();
        // HELP, by the game's mail, gives its examples from his side too.
        let outs = site.mail(from, &addr, "HELP\n\nMe");
        let help_mail = flat(&to(&outs, from).body);
        let orders = help_mail
            .split("BROTHERSATWAR (")
            .nth(1)
            .unwrap_or_else(|| panic!("{help_mail}"));
        for (text, what) in [(help, "the refusal"), (orders, "HELP")] {
            assert!(
                ids(side)
                    .iter()
                    .any(|id| text.contains(&format!("{id} MOVE"))),
                "{seat:?}, {what}: {text}"
            );
            for theirs in ids(side.other()) {
                for verb in ["MOVE", "FORM", "DEPLOY", "DISBAND", "HOLD"] {
                    assert!(
                        !text.contains(&format!("{theirs} {verb}")),
                        "{seat:?} is shown {theirs} {verb} in {what}: {text}"
                    );
                }
            }
        }
    }
}

/// A mail of orders with prose between them: the reply echoes every line
/// in the mail's own order, whatever was played together.
#[test]
fn the_echo_keeps_the_order_of_the_mails_lines() {
    let mut site = Site::new("echo-order");
    let (ann_addr, bob_addr, _) = site.started(&"0b5e".repeat(16));
    let two_steps = |g: &BrothersAtWar| -> Option<(String, String)> {
        for first in g.legal_orders() {
            let Order::Act {
                units,
                action: Action::Move(_),
            } = &first
            else {
                continue;
            };
            let mut next = g.clone();
            next.apply(&first).ok()?;
            if next.chance().is_some() {
                continue;
            }
            let second = next.legal_orders().into_iter().find(
                |o| matches!(o, Order::Act { units: u, action: Action::Move(_) } if u == units),
            );
            if let Some(second) = second {
                return Some((first.to_string(), second.to_string()));
            }
        }
        None
    };
    let (model, from, addr) = play_until(&mut site, (&ann_addr, &bob_addr), |g| {
        fresh_activation(g) && two_steps(g).is_some()
    });
    let (first, second) = two_steps(&model).unwrap();
    let prose = "that should keep them busy for a while";
    let body = format!("Hi there,\n\n{first}\n{prose}\n{second}\n\nCheers\nMe");
    let outs = site.mail(from, &addr, &body);
    let reply = to(&outs, from).body;
    let at = |line: &str| {
        reply
            .find(&format!("> {line}\n"))
            .unwrap_or_else(|| panic!("{line} not echoed:\n{reply}"))
    };
    assert!(reply.contains(&format!("Taken: {second}")), "{reply}");
    assert!(at("Hi there,") < at(&first), "{reply}");
    assert!(at(&first) < at(prose), "{reply}");
    assert!(at(prose) < at(&second), "{reply}");
}

/// R4, B7: a fire that leaves the other player answering a question in
/// the mover's activation holds the mover's later lines, also a line
/// of a later group of the mail (after a command such as HISTORY): it is
/// "Held", never "not your turn", and it is played once he answers.
#[test]
fn a_later_group_of_lines_after_a_fire_that_asks_the_other_player_is_held_then_played() {
    let mut site = Site::new("held-group");
    let (ann_addr, bob_addr, outs) = site.started(&"4e1d".repeat(16));
    let mut last_to: [String; 2] = [to(&outs, ANN).body, to(&outs, BOB).body];
    for (from, addr, side) in [(ANN, &ann_addr, "USA"), (BOB, &bob_addr, "CSA")] {
        let outs = site.mail(
            from,
            addr,
            &format!("retreat {side} ask\nopfire {side} never"),
        );
        let reply = flat(&to(&outs, from).body);
        assert!(
            reply.contains(&format!("Taken: RETREAT {side} ASK")),
            "{reply}"
        );
    }
    let mut rng = XorShift::from_state(0x04e1_d000_0000_0004);
    let mut tried = 0;
    for _ in 0..600 {
        let model = site.stored();
        assert!(model.outcome().is_none(), "the battle ended first");
        let seat = model.pending().expect("a decision").seat;
        let (from, addr, name) = writer(seat, &ann_addr, &bob_addr);
        let legal = model.legal_orders();
        // A fire whose target is named in words: a line read on its own.
        let fire = legal.iter().find_map(|o| match o {
            Order::Act {
                units,
                action: Action::Fire(h),
            } if units.len() == 1 => {
                let enemy = model
                    .units_at(*h)
                    .into_iter()
                    .find(|&u| model.side_of(u) != Side::of(seat))?;
                let enemy_name = model.battle.scenario.units[enemy.index()].name.clone();
                Some((o.clone(), units[0].clone(), enemy_name))
            }
            _ => None,
        });
        let step = fire.as_ref().and_then(|(_, firer, _)| {
            legal.iter().find_map(|o| match o {
                Order::Act {
                    units,
                    action: Action::Move(path),
                } if units.len() == 1 && units[0] != *firer && path.len() == 1 => {
                    Some((units[0].clone(), path[0]))
                }
                _ => None,
            })
        });
        if let (true, Some((fire, firer, enemy)), Some((mover, to_hex))) =
            (fresh_activation(&model), fire, step)
        {
            tried += 1;
            let u = model.unit_named(&mover).unwrap();
            let full = model.battle.scenario.units[u.index()].name.to_lowercase();
            let body = format!(
                "Hi,\n\n{firer} fires on the {enemy}\nhistory\nmove the {full} to {to_hex} please\n\nCheers, {name}"
            );
            let outs = site.mail(from, addr, &body);
            let reply = flat(&to(&outs, from).body);
            let after = site.stored();
            let asked_other = after
                .pending()
                .is_some_and(|p| p.seat != seat && p.kind == Decision::Reaction);
            if asked_other && reply.contains(&format!("Taken: {fire}")) {
                assert!(
                    !reply.contains("it is not your turn"),
                    "the later line is held, not refused:\n{body}\n---\n{reply}"
                );
                assert!(
                    reply.contains("Held: it will be played"),
                    "{body}\n---\n{reply}"
                );
                // The other player stands; the held move is played and its
                // writer told.
                let (other, other_addr) = match seat {
                    Seat::North => (BOB, &bob_addr),
                    Seat::South => (ANN, &ann_addr),
                };
                let outs = site.mail(other, other_addr, "Hi\n\npass\n\nBye");
                let told = flat(&to(&outs, from).body);
                assert!(
                    told.contains("The lines of your last mail that were held")
                        && told.contains(&format!("MOVE {to_hex}")),
                    "the writer hears of his held line:\n{told}"
                );
                return;
            }
            keep_last(&outs, &mut last_to);
            continue;
        }
        random_step(
            &mut site,
            &model,
            (from, addr, name),
            &mut rng,
            &mut last_to,
        );
    }
    panic!("no fire asked the other player a question ({tried} tried)");
}

/// B7, B148: a card question answered by mail in words (`no card`) is
/// taken as PASS; a mail of prose only to a game waiting for the writer's
/// answer repeats the question and the answers it takes.
#[test]
fn a_question_is_answered_in_words_and_asked_again_after_a_mail_without_an_answer() {
    let mut site = Site::new("asked-in-words");
    let (ann_addr, bob_addr, outs) = site.started(&"ca4d".repeat(16));
    let mut last_to: [String; 2] = [to(&outs, ANN).body, to(&outs, BOB).body];
    for (from, addr, side) in [(ANN, &ann_addr, "USA"), (BOB, &bob_addr, "CSA")] {
        site.mail(from, addr, &format!("Hello,\n\ncards {side} ask\n\nThanks"));
    }
    let mut rng = XorShift::from_state(0x0ca4_d500_0000_0148);
    for _ in 0..1500 {
        let model = site.stored();
        assert!(model.outcome().is_none(), "the battle ended first");
        let seat = model.pending().expect("a decision").seat;
        let (from, addr, name) = writer(seat, &ann_addr, &bob_addr);
        let question = model.now.reaction.as_ref().and_then(|r| r.question.clone());
        let Some(Question::Card { cards, .. }) = question else {
            random_step(
                &mut site,
                &model,
                (from, addr, name),
                &mut rng,
                &mut last_to,
            );
            continue;
        };
        // A board asked for carries the question once, not twice.
        let outs = site.mail(from, addr, "Hi,\n\nboard please\n\nBob");
        let reply = flat(&to(&outs, from).body);
        assert_eq!(
            reply.matches("You are asked (CARDS ASK").count(),
            1,
            "{reply}"
        );
        let outs = site.mail(from, addr, "Hi,\n\nhmm, let me think about it\n\nBob");
        let reply = flat(&to(&outs, from).body);
        assert!(
            reply.contains("The game still waits for your answer"),
            "{reply}"
        );
        assert!(reply.contains("You are asked (CARDS ASK"), "{reply}");
        assert!(reply.contains(&format!("PLAY {}", cards[0])), "{reply}");
        assert_eq!(site.stored().position(), model.position(), "nothing played");
        let outs = site.mail(
            from,
            addr,
            &format!("Hi,\n\nno card this time\n\nThanks,\n{name}"),
        );
        let reply = flat(&to(&outs, from).body);
        assert!(reply.contains("Taken: PASS"), "{reply}");
        return;
    }
    panic!("no card question came");
}

/// A cheer with an order's verb and nothing an order needs (`guns,
/// fire!`, `Fire away!`) is ignored, and the orders after it are played.
#[test]
fn a_cheer_with_a_verb_is_ignored_and_the_orders_after_it_are_played() {
    let mut site = Site::new("cheer");
    let (ann_addr, bob_addr, _) = site.started(&"0b5e".repeat(16));
    let (model, from, addr) = play_until(&mut site, (&ann_addr, &bob_addr), |g| {
        fresh_activation(g)
            && g.legal_orders().iter().any(
                |o| matches!(o, Order::Act { units, action: Action::Move(_) } if units.len() == 1),
            )
    });
    let step = model
        .legal_orders()
        .into_iter()
        .find(|o| matches!(o, Order::Act { units, action: Action::Move(_) } if units.len() == 1))
        .unwrap();
    let body = format!("Hi,\n\nguns, fire!\nFire away, boys!\n{step}\n\nCheers");
    let outs = site.mail(from, &addr, &body);
    let reply = flat(&to(&outs, from).body);
    assert!(reply.contains(&format!("Taken: {step}")), "{reply}");
    assert!(!reply.contains("Not applied"), "{reply}");
    assert!(!reply.contains("Not understood"), "{reply}");
    assert!(reply.contains("> guns, fire!"), "{reply}");
}

/// HELP for Brothers at War lists the answers to questions and the
/// scenario of NEW; the invitation names the battle by its name.
#[test]
fn help_lists_the_answers_and_the_scenario_and_the_invitation_names_the_battle() {
    let mut site = Site::new("help-answers");
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "NEW BROTHERSATWAR VS bob@example.org AS UNION",
    );
    let invitation = flat(&to(&outs, BOB).body);
    assert!(invitation.contains("Tanner's Ford"), "{invitation}");
    let bob_addr = to(&outs, BOB).reply_to;
    site.fix_seed(&"0b5e".repeat(16));
    let outs = site.mail(BOB, &bob_addr, "Accept\n\nBob");
    let ann_addr = to(&outs, ANN).reply_to;
    let outs = site.mail(ANN, &ann_addr, "HELP");
    let reply = to(&outs, ANN).body;
    for line in reply.lines() {
        assert!(line.chars().count() <= 76, "too wide: {line:?}");
    }
    let help = flat(&reply);
    assert!(
        help.contains("NEW BROTHERSATWAR VS their@address [AS UNION|CONFEDERACY")
            && help.contains("[SCENARIO name]"),
        "{reply}"
    );
    for answer in [
        "PASS",
        "RETREAT 0804 0904",
        "LOSE 10M",
        "SPEND RESERVE, KEEP",
        "PLAY 19",
        "COMMANDER 0604, REMNANT 0404",
    ] {
        assert!(help.contains(answer), "{answer}: {reply}");
    }
}

/// MORE keeps an activation open; the reply invites its close order only
/// when it would be taken then: after a DEPLOY the deploying unit must
/// first move (5.32), so END UNITS is not offered.
#[test]
fn more_after_a_deploy_does_not_invite_a_close_that_would_be_refused() {
    let mut site = Site::new("more-deploy");
    let (ann_addr, bob_addr, outs) = site.started(&"d3e1".repeat(16));
    let mut last_to: [String; 2] = [to(&outs, ANN).body, to(&outs, BOB).body];
    let mut rng = XorShift::from_state(0x0d3e_1000_0000_0005);
    for _ in 0..400 {
        let model = site.stored();
        assert!(model.outcome().is_none(), "the battle ended first");
        let seat = model.pending().expect("a decision").seat;
        let (from, addr, name) = writer(seat, &ann_addr, &bob_addr);
        let deploy = fresh_activation(&model)
            .then(|| {
                model.legal_orders().into_iter().find(|o| {
                    matches!(
                        o,
                        Order::Act {
                            action: Action::Deploy { .. },
                            ..
                        }
                    )
                })
            })
            .flatten();
        if let Some(deploy) = deploy {
            let mut sim = model.clone();
            sim.apply(&deploy).unwrap();
            let end_taken = sim.clone().apply(&Order::End).is_ok();
            let body = format!("Hi,\n\n{deploy}\nMORE\n\n{name}");
            let outs = site.mail(from, addr, &body);
            let reply = flat(&to(&outs, from).body);
            assert!(reply.contains("Your turn stays open"), "{reply}");
            assert_eq!(
                reply.contains("or END UNITS to end it"),
                end_taken,
                "END UNITS is invited exactly when it would be taken:\n{reply}"
            );
            return;
        }
        random_step(
            &mut site,
            &model,
            (from, addr, name),
            &mut rng,
            &mut last_to,
        );
    }
    panic!("no activation offered a deployment");
}

/// Which player sent each of this site's mails, by its number in the
/// Message-ID (`<b12@tanners-ford.test>`).
fn senders_checked(outs: &[Out], sent_by: &[&str]) {
    for out in outs {
        let body = flat(&out.body);
        for draw in body.split("Drawn from the mail ").skip(1) {
            let ids: Vec<usize> = draw
                .split(['<', ' '])
                .filter_map(|w| w.strip_prefix('b')?.split('@').next()?.parse().ok())
                .take(2)
                .collect();
            let Some(reply) = draw.split(" and ").nth(1).filter(|s| s.contains("'s mail")) else {
                continue;
            };
            assert_eq!(ids.len(), 2, "{draw}");
            assert_ne!(ids[0], ids[1], "one mail named twice: {draw}");
            // The other player's mail is a mail that player wrote.
            let side = reply.split("'s mail").next().unwrap_or_default();
            let writer = sent_by[ids[0]];
            let other = sent_by[ids[1]];
            assert_ne!(writer, other, "the reply is the writer's own mail: {draw}");
            let named_is_other =
                (side == "Union" && other == ANN) || (side == "Confederacy" && other == BOB);
            assert!(named_is_other, "{side}'s mail is {other}'s: {draw}");
        }
    }
}

/// The mover's lines held behind a fire that asks the other player (a
/// second fire, a move, and then `commander stay` or `MORE`): when the
/// other player answers, every held line is played in turn and reported
/// (a fire drawing its dice does not drop the lines after it), the
/// commander's line closes only its own activation (the mail's end never
/// closes the next one), and a mail that ended with `MORE` keeps its
/// activation open. The fair draws name the writer's mail and a mail of
/// the other player.
fn held_lines_after_a_fire(seed: &str, state: u64, last: &str) {
    let mut site = Site::new(&format!("held-through-{}", last.replace(' ', "-")));
    let (ann_addr, bob_addr, outs) = site.started(seed);
    // Mail n (from 1) was sent by sent_by[n].
    let mut sent_by: Vec<&str> = vec!["", ANN, BOB];
    let mut last_to: [String; 2] = [to(&outs, ANN).body, to(&outs, BOB).body];
    for (from, addr, side) in [(ANN, &ann_addr, "USA"), (BOB, &bob_addr, "CSA")] {
        site.mail(
            from,
            addr,
            &format!("retreat {side} ask\nopfire {side} never"),
        );
        sent_by.push(from);
    }
    let mut rng = XorShift::from_state(state);
    for _ in 0..800 {
        let model = site.stored();
        assert!(model.outcome().is_none(), "the battle ended first");
        let seat = model.pending().expect("a decision").seat;
        let (from, addr, name) = writer(seat, &ann_addr, &bob_addr);
        let legal = model.legal_orders();
        let fires: Vec<(String, String)> = legal
            .iter()
            .filter_map(|o| match o {
                Order::Act {
                    units,
                    action: Action::Fire(_),
                } if units.len() == 1 => Some((units[0].clone(), o.to_string())),
                _ => None,
            })
            .collect();
        let first = fires.first().cloned();
        let second = first
            .as_ref()
            .and_then(|(u, _)| fires.iter().find(|(v, _)| v != u).cloned());
        let step = first.as_ref().zip(second.as_ref()).and_then(|(a, b)| {
            legal.iter().find_map(|o| match o {
                Order::Act {
                    units,
                    action: Action::Move(path),
                } if units.len() == 1 && units[0] != a.0 && units[0] != b.0 && path.len() == 1 => {
                    Some(o.to_string())
                }
                _ => None,
            })
        });
        if let (true, Some((_, fire)), Some((_, fire2)), Some(step)) =
            (fresh_activation(&model), first, second, step)
        {
            let body = format!("Hi,\n\n{fire}\n{fire2}\n{step}\n{last}\n\nCheers, {name}");
            let outs = site.mail(from, addr, &body);
            sent_by.push(from);
            senders_checked(&outs, &sent_by);
            let after = site.stored();
            let asked_other = after
                .pending()
                .is_some_and(|p| p.seat != seat && p.kind == Decision::Reaction);
            let reply = flat(&to(&outs, from).body);
            // The lines held behind the fire that asked (the first or the
            // second), each echoed as held.
            let lines = [fire2.clone(), step.clone(), last.to_string()];
            let held: Vec<&String> = lines
                .iter()
                .filter(|l| reply.contains(&format!("> {l} Held: it will be played")))
                .collect();
            if asked_other && reply.contains(&format!("Taken: {fire}")) && !held.is_empty() {
                let (other, other_addr) = match seat {
                    Seat::North => (BOB, &bob_addr),
                    Seat::South => (ANN, &ann_addr),
                };
                let outs = site.mail(other, other_addr, "Hi\n\npass\n\nBye");
                sent_by.push(other);
                senders_checked(&outs, &sent_by);
                let told = flat(&to(&outs, from).body);
                if told.contains("Held: it will be played") {
                    // The second fire asked again: the lines wait once more.
                    keep_last(&outs, &mut last_to);
                    continue;
                }
                for line in held {
                    assert!(
                        told.contains(&format!("> {line}")),
                        "held line {line:?} not reported:\n{told}"
                    );
                }
                assert!(
                    !told.contains("(the end of your mail: END UNITS)"),
                    "the held mail's end closed an activation:\n{told}"
                );
                let now = site.stored();
                if last == "MORE" && told.contains(&format!("Taken: {step}")) {
                    assert_eq!(
                        now.pending().map(|p| p.seat),
                        Some(seat),
                        "MORE keeps the activation open:\n{told}"
                    );
                    assert!(matches!(now.now.step, Step::Units(_)), "{told}");
                    assert_eq!(
                        now.now.activations, after.now.activations,
                        "the same activation:\n{told}"
                    );
                }
                if told.contains("Taken: COMMANDER STAY")
                    && now.now.activations > after.now.activations
                {
                    // The next activation was not written for: untouched.
                    assert!(
                        now.now
                            .activation
                            .as_ref()
                            .is_none_or(|a| a.acted.is_empty()),
                        "{told}"
                    );
                    assert!(!matches!(now.now.step, Step::Commander(_)), "{told}");
                }
                return;
            }
            keep_last(&outs, &mut last_to);
            continue;
        }
        let body = random_mail(&model, name, &last_to[seat.index()], &mut rng);
        let outs = site.mail(from, addr, &body);
        sent_by.push(from);
        senders_checked(&outs, &sent_by);
        keep_last(&outs, &mut last_to);
    }
    panic!("no fire asked the other player a question");
}

#[test]
fn held_lines_after_a_fire_are_all_played_and_the_commanders_line_closes_only_its_activation() {
    held_lines_after_a_fire(&"5a1e".repeat(16), 0x05a1_e000_0000_0009, "commander stay");
}

#[test]
fn held_lines_of_a_mail_ending_with_more_leave_the_activation_open() {
    held_lines_after_a_fire(&"6b2f".repeat(16), 0x06b2_f000_0000_0009, "MORE");
}

/// A brigade without a commander (the divisional artillery, 9.3): the
/// mover's line after a fire that asks the other player is held, not
/// refused as "your turn had ended"; an instruction in the same mail is
/// taken at once (B5); and once the held line is played the end of the
/// mail closes the activation, as it does for every brigade.
#[test]
fn the_artillery_s_lines_are_held_behind_a_question_and_its_mail_s_end_closes_it() {
    let mut site = Site::new("artillery-held");
    let (ann_addr, bob_addr, outs) = site.started(&"7c3a".repeat(16));
    let mut last_to: [String; 2] = [to(&outs, ANN).body, to(&outs, BOB).body];
    for (from, addr, side) in [(ANN, &ann_addr, "USA"), (BOB, &bob_addr, "CSA")] {
        site.mail(
            from,
            addr,
            &format!("retreat {side} ask\nopfire {side} never"),
        );
    }
    let mut rng = XorShift::from_state(0x07c3_a000_0000_0003);
    let mut closed_by_mail = false;
    for _ in 0..1500 {
        let model = site.stored();
        assert!(model.outcome().is_none(), "the battle ended first");
        let seat = model.pending().expect("a decision").seat;
        let (from, addr, name) = writer(seat, &ann_addr, &bob_addr);
        let artillery = match model.now.step {
            Step::Units(b) => model.battle.scenario.brigades[b.index()]
                .commander
                .is_none(),
            _ => false,
        };
        let legal = model.legal_orders();
        let fire = legal.iter().find_map(|o| match o {
            Order::Act {
                units,
                action: Action::Fire(_),
            } if units.len() == 1 => Some((units[0].clone(), o.to_string())),
            _ => None,
        });
        let other = fire.as_ref().and_then(|(firer, _)| {
            legal.iter().find_map(|o| match o {
                Order::Act { units, .. } if units.len() == 1 && units[0] != *firer => {
                    Some(o.to_string())
                }
                _ => None,
            })
        });
        // The mail's end closes the activation (or its last unit did):
        // the game no longer waits for the units of this one.
        let this = (model.now.activations, model.now.step.clone());
        let still_open = |g: &BrothersAtWar| {
            (g.now.activations == this.0 && g.now.step == this.1 && g.now.reaction.is_none())
                .then_some("the mail's end left the artillery's activation open")
        };
        if let (true, true, Some((_, fire)), Some(other)) =
            (artillery, fresh_activation(&model), fire, other)
        {
            let side = Side::of(seat).code();
            let body = format!("Hi,\n\n{fire}\ncards {side} auto\n{other}\n\nCheers, {name}");
            let outs = site.mail(from, addr, &body);
            let reply = flat(&to(&outs, from).body);
            assert!(!reply.contains("your turn had ended"), "{reply}");
            assert!(
                reply.contains(&format!("Taken: CARDS {side} AUTO")),
                "{reply}"
            );
            let asked_other = site
                .stored()
                .pending()
                .is_some_and(|p| p.seat != seat && p.kind == Decision::Reaction);
            if asked_other {
                assert!(
                    reply.contains(&format!("> {other} Held: it will be played")),
                    "{reply}"
                );
                let (them, their_addr) = match seat {
                    Seat::North => (BOB, &bob_addr),
                    Seat::South => (ANN, &ann_addr),
                };
                let outs = site.mail(them, their_addr, "Hi\n\npass\n\nBye");
                let told = flat(&to(&outs, from).body);
                assert!(told.contains(&format!("> {other}")), "{told}");
                if told.contains(&format!("Taken: {other}")) {
                    assert!(still_open(&site.stored()).is_none(), "{told}");
                    return;
                }
            } else if reply.contains(&format!("Taken: {other}")) {
                assert!(still_open(&site.stored()).is_none(), "{reply}");
                closed_by_mail = true;
            }
            keep_last(&outs, &mut last_to);
            continue;
        }
        random_step(
            &mut site,
            &model,
            (from, addr, name),
            &mut rng,
            &mut last_to,
        );
    }
    panic!("no artillery fire asked the other player (closed by mail: {closed_by_mail})");
}
