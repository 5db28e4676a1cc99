//! Issue 19 through a real Maildir and a real SQLite file: every board
//! mail carries the board as a picture (shown in the HTML part by `cid:`
//! and attached), players and watchers alike, until the player turns
//! theirs off (`SET PICTURES OFF`, with their key) or the server does
//! (`[outgoing] pictures = false`). The service's clock is set: every site
//! starts at 2026-11-21 10:00 UTC.

#[path = "../common/mod.rs"]
mod common;

use chrono::{TimeZone, Utc};
use common::site::{to, Out, Site, ORDERLY};
use mailparse::MailHeaderMap;

const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";
const CAROL: &str = "carol@example.org";

fn site(name: &str, adjust: impl FnOnce(&mut orderly::config::Config)) -> Site {
    let mut site = Site::open("orderly-pic", name, adjust);
    site.service.set_clock(orderly::clock::Clock::starting_at(
        Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap(),
    ));
    site
}

/// The picture `mail` carries: the PNG shown in its HTML part, which must
/// be the one attached too; `None` when it carries none.
fn picture(mail: &Out) -> Option<Vec<u8>> {
    let parsed = mailparse::parse_mail(mail.raw.as_bytes()).expect("a mail");
    if parsed.ctype.mimetype != "multipart/mixed" {
        assert!(!mail.raw.contains("image/png"), "{}", mail.raw);
        return None;
    }
    let related = &parsed.subparts[0].subparts[1];
    let html = related.subparts[0].get_body().expect("the HTML");
    let inline = &related.subparts[1];
    let id = inline.headers.get_first_value("Content-ID").expect("an id");
    let id = id.trim_start_matches('<').trim_end_matches('>');
    assert!(html.contains(&format!("src=\"cid:{id}\"")), "{html}");
    let shown = inline.get_body_raw().expect("the picture");
    let attached = parsed.subparts[1].get_body_raw().expect("the attachment");
    assert_eq!(shown, attached, "the same picture shown and attached");
    assert!(shown.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    Some(shown)
}

/// Starts game 1, Ann inviting Bob: Ann's and Bob's reply addresses, the
/// one whose move it is first, and the mails of the acceptance.
fn start(site: &mut Site, new: &str) -> (String, String, &'static str, Vec<Out>) {
    let outs = site.send(ANN, ORDERLY, new);
    let bob = to(&outs, BOB).reply_to;
    let outs = site.send(BOB, &bob, "accept");
    let ann = to(&outs, ANN).reply_to;
    let first = if to(&outs, ANN).body.contains("You are Blue") {
        ANN
    } else {
        BOB
    };
    (ann, bob, first, outs)
}

#[test]
fn every_board_mail_carries_the_picture_until_a_player_turns_theirs_off() {
    let mut site = site("carry", |_| {});
    let (ann, bob, first, outs) = start(&mut site, "NEW SQUARES VS bob@example.org");
    let (ann_picture, bob_picture) = (
        picture(&to(&outs, ANN)).expect("Ann's start mail has the board"),
        picture(&to(&outs, BOB)).expect("Bob's reply has the board"),
    );
    // Each from their own seat: Blue's reserve at the bottom for one, Gray's
    // for the other.
    assert_ne!(ann_picture, bob_picture);
    // Bob turns his off: only with his key.
    let outs = site.send(BOB, ORDERLY, "SET PICTURES OFF");
    assert!(
        to(&outs, BOB).body.contains("only with your key"),
        "{outs:#?}"
    );
    let outs = site.send(BOB, &bob, "Hi,\n\nSET PICTURES OFF\n\nBob");
    let reply = to(&outs, BOB);
    assert!(reply.body.contains("board as text only"), "{}", reply.body);
    assert_eq!(picture(&reply), None);
    // The next move: the mover's reply and the other's update.
    let (mover, address) = if first == ANN {
        (ANN, &ann)
    } else {
        (BOB, &bob)
    };
    let outs = site.send(mover, address, "MOVE CAVALRY BR B3C");
    let (anns, bobs) = (to(&outs, ANN), to(&outs, BOB));
    assert!(bobs.body.contains("B3C"), "{}", bobs.body);
    assert!(picture(&anns).is_some(), "Ann keeps hers: {}", anns.raw);
    assert_eq!(picture(&bobs), None, "Bob turned his off");
    // BOARD brings it back for Ann too, and not for Bob.
    let outs = site.send(ANN, &ann, "BOARD");
    assert!(picture(&to(&outs, ANN)).is_some());
    let outs = site.send(BOB, &bob, "BOARD");
    assert_eq!(picture(&to(&outs, BOB)), None);
    let outs = site.send(BOB, &bob, "SET PICTURES ON\nBOARD");
    assert!(picture(&to(&outs, BOB)).is_some());
}

#[test]
fn a_watcher_gets_the_picture_and_a_server_can_send_none() {
    let mut site = site("watch", |_| {});
    let (_, _, _, _) = start(&mut site, "NEW SQUARES VS bob@example.org PUBLIC");
    let outs = site.send(CAROL, ORDERLY, "WATCH 1");
    let answer = to(&outs, CAROL);
    assert!(
        picture(&answer).is_some(),
        "the board in the answer to WATCH"
    );

    let mut site = site_without_pictures();
    let (ann, _, _, outs) = start(&mut site, "NEW SQUARES VS bob@example.org");
    assert_eq!(picture(&to(&outs, ANN)), None);
    assert_eq!(picture(&to(&outs, BOB)), None);
    // Still the HTML alternative, without a picture.
    assert!(to(&outs, ANN).raw.contains("multipart/alternative"));
    let outs = site.send(ANN, &ann, "SET PICTURES ON");
    let reply = to(&outs, ANN);
    assert!(
        reply
            .body
            .replace('\n', " ")
            .contains("when this server sends pictures"),
        "{}",
        reply.body
    );
}

fn site_without_pictures() -> Site {
    site("off", |c| c.outgoing.pictures = false)
}

#[test]
fn the_play_of_the_day_shows_its_board_from_the_communitys_side() {
    let t0 = Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap();
    let mut site = site("potd", |c| c.play_of_the_day.enabled = true);
    // The sweep begins the day's game; joining brings its board.
    site.service.sweep(t0).unwrap();
    let outs = site.send(ANN, ORDERLY, "PLAYOFTHEDAY");
    let reply = to(&outs, ANN);
    assert!(reply.body.contains("Play of the Day"), "{}", reply.body);
    assert!(
        picture(&reply).is_some(),
        "the board in the answer to PLAYOFTHEDAY"
    );
    // A member who turned pictures off gets the board as text only.
    let outs = site.send(ANN, &reply.reply_to, "SET PICTURES OFF\nPLAYOFTHEDAY");
    let reply = to(&outs, ANN);
    assert!(reply.body.contains("board as text only"), "{}", reply.body);
    assert_eq!(picture(&reply), None);
}

/// Each game's board mails carry its own picture: the 1863 grid and the
/// Brothers at War hex map as well as SQUARES (whose mails the tests
/// above follow).
#[test]
fn every_game_mails_its_own_picture() {
    for (n, new) in [
        "NEW NAPOLEONIC VS bob@example.org",
        "NEW CIVILWAR1863 VS bob@example.org",
        "NEW BROTHERSATWAR VS bob@example.org AS UNION",
    ]
    .into_iter()
    .enumerate()
    {
        let mut site = site(&format!("every{n}"), |_| {});
        let outs = site.send(ANN, ORDERLY, new);
        let bob = to(&outs, BOB).reply_to;
        let outs = site.send(BOB, &bob, "accept");
        let (anns, bobs) = (to(&outs, ANN), to(&outs, BOB));
        let (ann_picture, bob_picture) = (
            picture(&anns).unwrap_or_else(|| panic!("{new}: Ann's mail has no picture")),
            picture(&bobs).unwrap_or_else(|| panic!("{new}: Bob's mail has no picture")),
        );
        // Its size says which board it is.
        let size = |png: &[u8]| {
            let header = png::Decoder::new(std::io::Cursor::new(png.to_vec()))
                .read_info()
                .expect("a PNG header");
            (header.info().width, header.info().height)
        };
        let (width, height) = size(&ann_picture);
        let expected = match n {
            // The SQUARES board.
            0 => (618, 610),
            // 18 squares of 30 pixels inside a 22-pixel margin.
            1 => (18 * 30 + 44, 650),
            // Tanner's Ford, 15 columns of hexes.
            _ => (44 + 14 * 33 + 44, 670),
        };
        assert_eq!((width, height), expected, "{new}");
        assert_eq!(size(&bob_picture), expected, "{new}");
    }
}

/// A vote that decides its round: the voter's reply shows the same
/// picture as the other members' mails, the orders just played drawn as
/// arrows; the board asked for later has none.
#[test]
fn the_vote_that_decides_a_round_shows_what_was_played() {
    let t0 = Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap();
    let mut site = site("potd-arrows", |c| {
        c.play_of_the_day.enabled = true;
        c.play_of_the_day.level = 1;
        c.play_of_the_day.votes_to_decide = 2;
    });
    site.service.sweep(t0).unwrap();
    let mut keys = Vec::new();
    for who in [ANN, BOB] {
        let outs = site.send(who, ORDERLY, "PLAYOFTHEDAY");
        let key = to(&outs, who).reply_to;
        // Their reply with the key confirms the join.
        site.send(who, &key, "Thanks!");
        keys.push(key);
    }
    let position = site.game_row(1).position.expect("a position");
    let game: orderly::games::squares::Squares =
        orderly::games::Game::from_position(&position).expect("SQUARES");
    let mut legal: Vec<String> = orderly::games::Game::legal_orders(&game)
        .iter()
        .map(|o| o.to_string())
        .collect();
    legal.sort();
    let order = &legal[0];
    // One vote of the two needed: the round stays open.
    site.send(ANN, &keys[0], &format!("VOTE {order}"));
    let outs = site.send(BOB, &keys[1], &format!("VOTE {order}"));
    let bobs = to(&outs, BOB);
    assert!(bobs.body.contains("closed early"), "{}", bobs.body);
    let (voter, member) = (
        picture(&bobs).expect("the voter's reply has the board"),
        picture(&to(&outs, ANN)).expect("the other member's mail has the board"),
    );
    assert_eq!(voter, member, "the same picture, arrows and all");
    let outs = site.send(ANN, &keys[0], "PLAYOFTHEDAY");
    let asked = picture(&to(&outs, ANN)).expect("the board asked for");
    assert_ne!(
        asked, voter,
        "the board asked for later draws no last action"
    );
}
