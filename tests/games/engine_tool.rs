//! `orderly engine` run as a real process: the output format the README documents.

use std::io::Write;
use std::process::{Command, Stdio};

fn engine(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_orderly"))
        .arg("engine")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the orderly binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("orders are written");
    let output = child.wait_with_output().expect("orderly engine ends");
    assert!(
        output.status.success(),
        "orderly engine failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("the output is UTF-8")
}

fn blocks(output: &str) -> Vec<Vec<&str>> {
    output
        .split("\n\n")
        .map(|b| b.lines().collect::<Vec<_>>())
        .collect()
}

#[test]
fn the_opening_block_lists_every_legal_order_sorted() {
    let out = engine(&[], "");
    let block = &blocks(&out)[0];
    assert_eq!(
        block[0],
        "position 9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -"
    );
    assert_eq!(block[1], "pending Blue turn");
    let count: usize = block[2]
        .strip_prefix("legal ")
        .and_then(|n| n.parse().ok())
        .expect("a legal count line");
    let orders = &block[3..];
    assert_eq!(orders.len(), count);
    let mut sorted = orders.to_vec();
    sorted.sort();
    assert_eq!(orders, sorted.as_slice());
    assert!(orders.contains(&"PASS"));
    assert!(orders.contains(&"MOVE CAVALRY BR B3R B2CR"));
    assert!(!orders.iter().any(|o| o.starts_with("ATTACK")));
}

#[test]
fn gray_can_move_first() {
    let out = engine(&["--first", "gray"], "");
    assert!(
        out.starts_with("position 9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - g - 1 -\npending Gray turn\n")
    );
}

#[test]
fn an_order_prints_its_events_and_the_new_state() {
    let out = engine(&[], "MOVE CAVALRY BR B3C\n");
    let block = &blocks(&out)[1];
    assert_eq!(block[0], "order MOVE CAVALRY BR B3C");
    assert_eq!(block[1], "event Blue cavalry moves BR -> B3C");
    assert_eq!(
        block[2],
        "position 9I3A3C/1C+1/4/2/5/2/5/2/4/3/9i3a4c - g - 2 -"
    );
    assert_eq!(block[3], "pending Gray turn");
}

#[test]
fn a_refused_order_names_its_rule_and_play_goes_on() {
    let out = engine(
        &[],
        "MOVE INFANTRY BR B2CR\n# a comment\n\nPASS\nPASS\nMOVE NOWHERE\n",
    );
    let b = blocks(&out);
    assert_eq!(b[1][0], "order MOVE INFANTRY BR B2CR");
    assert!(b[1][1].starts_with("refused R9: "), "{}", b[1][1]);
    assert_eq!(b[2][0], "order PASS");
    assert_eq!(b[2][1], "event Blue passes");
    // Gray passes too; Blue now has a double turn, in which PASS is refused (R4).
    assert_eq!(b[3][1], "event Gray passes");
    assert!(b[3].contains(&"event Blue has a double turn"));
    assert!(b[3].contains(&"pending Blue double turn, half 1"));
    assert_eq!(b[4][0], "order MOVE NOWHERE");
    assert!(b[4][1].starts_with("refused parse: "), "{}", b[4][1]);
}

#[test]
fn a_position_can_be_given() {
    let position = "9I3A3C/1C1/4/2/5/2/5/2/4/3/9i3a4c - g - 2 -";
    let out = engine(&["--position", position], "");
    assert!(out.starts_with(&format!("position {position}\npending Gray turn\n")));
}

#[test]
fn a_bad_position_is_an_error_with_the_reason() {
    let output = Command::new(env!("CARGO_BIN_EXE_orderly"))
        .args(["engine", "--position", "nonsense"])
        .stdin(Stdio::null())
        .output()
        .expect("orderly runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("six fields"), "{stderr}");
}

#[test]
fn orders_are_read_forgivingly_and_refusals_suggest_the_nearest_orders() {
    let out = engine(&[], "cav BR-B3C\ninf gr g3c\nmove B3C B3X\n");
    let b = blocks(&out);
    assert_eq!(b[1][0], "order cav BR-B3C");
    assert_eq!(b[1][1], "read MOVE CAVALRY BR B3C");
    assert_eq!(b[1][2], "event Blue cavalry moves BR -> B3C");
    assert_eq!(b[3][0], "order move B3C B3X");
    assert!(
        b[3][1].starts_with("refused parse: \"B3X\" is not a square"),
        "{}",
        b[3][1]
    );
    let suggested: Vec<&str> = b[3]
        .iter()
        .filter_map(|l| l.strip_prefix("suggest "))
        .collect();
    assert!(suggested.contains(&"MOVE B3C B3R"), "{suggested:?}");
    assert!(suggested.contains(&"MOVE B3C B3L"), "{suggested:?}");
}

#[test]
fn a_line_of_several_orders_is_one_message_and_holds_the_second_half() {
    let position = "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b1 b 20 -";
    let out = engine(
        &["--position", position],
        "B1C x G1C + B1CL; inf BR B3C\nstand\noption 3\n",
    );
    let b = blocks(&out);
    assert!(b[1].contains(&"held inf BR B3C"), "{:?}", b[1]);
    assert!(b[1].contains(&"pending Gray defence: retreat or stand"));
    assert!(b[2].contains(&"pending Blue attack option"), "{:?}", b[2]);
    // Option 3 ends the attack: the held second half is applied.
    assert!(
        b[3].contains(&"event Blue infantry moves BR -> B3C"),
        "{:?}",
        b[3]
    );
    assert!(b[3].contains(&"pending Gray turn"), "{:?}", b[3]);
}

#[test]
fn the_board_and_the_choices_are_printed_on_request() {
    let out = engine(&["--board", "--choices"], "cav BR B3C\n");
    let b = blocks(&out);
    for block in &b[..2] {
        for code in ["BR", "B3C", "NWF", "G1CR", "GR"] {
            assert!(
                block.iter().any(|l| l.contains(code)),
                "{code} missing:\n{}",
                block.join("\n")
            );
        }
        assert!(block.iter().any(|l| l.contains("Your orders, by unit")));
        assert!(block.iter().all(|l| l.len() <= 76), "{}", block.join("\n"));
    }
    assert!(b[0]
        .iter()
        .any(|l| l.starts_with("Blue, turn 1: your turn")));
    assert!(b[1]
        .iter()
        .any(|l| l.starts_with("Gray, turn 2: your turn")));
}

#[test]
fn the_napoleonic_variant_is_played_in_its_own_words() {
    let out = engine(&["--game", "napoleonic"], "MOVE GUARD BR B3C\n");
    let b = blocks(&out);
    let opening = &b[0];
    assert_eq!(
        opening[0],
        "position napoleonic 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1 -"
    );
    assert_eq!(opening[1], "pending British turn");
    let count: usize = opening[2]
        .strip_prefix("legal ")
        .and_then(|n| n.parse().ok())
        .expect("a legal count line");
    let orders = &opening[3..];
    assert_eq!(orders.len(), count);
    let mut sorted = orders.to_vec();
    sorted.sort();
    assert_eq!(orders, sorted.as_slice());
    for order in ["PASS", "MOVE GUARD BR B3C", "MOVE LIGHT BR B3L"] {
        assert!(orders.contains(&order), "{order} missing: {orders:?}");
    }
    assert_eq!(b[1][0], "order MOVE GUARD BR B3C");
    assert_eq!(b[1][1], "event British guard moves BR -> B3C");
    assert!(b[1].contains(&"pending French turn"), "{:?}", b[1]);
    // The French answer in F codes.
    assert!(b[1].contains(&"MOVE LIGHT FR F3C"), "{:?}", b[1]);
    assert!(!b[1].iter().any(|l| l.contains("GR ")), "{:?}", b[1]);
}

#[test]
fn the_napoleonic_sides_name_the_first_player_and_the_board_view() {
    let out = engine(
        &[
            "--game",
            "NAPOLEONIC",
            "--first",
            "french",
            "--board",
            "british",
        ],
        "",
    );
    assert!(
        out.starts_with(
            "position napoleonic 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - f - 1 -\n\
             pending French turn\n"
        ),
        "{out}"
    );
    // From the British seat, the French reserve is drawn at the top.
    let fr = out.find("FR  French reserve:").expect("the French reserve");
    let br = out
        .find("BR  British reserve:")
        .expect("the British reserve");
    assert!(fr < br, "{out}");
    // A position string says which game it is.
    let position = "napoleonic 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - f - 1 -";
    let out = engine(&["--position", position], "");
    assert!(out.starts_with(&format!("position {position}\npending French turn\n")));
}

#[test]
fn a_side_of_another_game_is_an_error_naming_the_right_ones() {
    for (args, expected) in [
        (
            &["engine", "--game", "napoleonic", "--first", "blue"][..],
            "--first takes a side of napoleonic: british or french",
        ),
        (
            &["engine", "--first", "british"][..],
            "--first takes a side of squares: blue or gray",
        ),
        (
            &["engine", "--game", "chess"][..],
            "[possible values: squares, napoleonic, civilwar1863, brothersatwar]",
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_orderly"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("orderly runs");
        assert!(!output.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn each_order_is_answered_while_stdin_is_still_open() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_orderly"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("orderly engine starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // The opening block comes before any order is typed.
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.starts_with("position "), "{line}");
    // A person types one order and waits, stdin still open: the answer
    // comes (a read that never returned would hang the test, not pass it).
    writeln!(stdin, "cav BR B3C").unwrap();
    stdin.flush().unwrap();
    let answered = loop {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "stdout closed");
        if line.starts_with("order ") {
            break line.clone();
        }
    };
    assert_eq!(answered.trim(), "order cav BR B3C");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn civil_war_1863_reads_orders_as_players_write_them_and_draws_its_board() {
    let out = engine(
        &["--game", "civilwar1863", "--board", "union", "--choices"],
        "move g11 2 infantry and a cavalry to h11\nG11 c-H12-I13\nend\n",
    );
    let blocks = blocks(&out);
    let opening = &blocks[0];
    assert!(
        opening[0].starts_with("position cw1863 1; south to move;"),
        "{out}"
    );
    assert_eq!(opening[1], "pending Confederacy turn");
    assert!(out.contains("read G11 2I1C-H11"), "{out}");
    assert!(out.contains("read G11 1C-H12-I13"), "{out}");
    assert!(
        out.contains("pending Union turn"),
        "END passes the turn: {out}"
    );
    // The Union's view: row 1 at the top, the key once.
    assert!(out.contains("\n 1  "), "{out}");
    assert!(out.contains("Key: U Union"), "{out}");
    for line in out.lines().filter(|l| !l.starts_with("position ")) {
        assert!(line.len() <= 76, "{line:?}");
    }
}

#[test]
fn a_civil_war_1863_position_names_its_game() {
    let out = engine(
        &[
            "--position",
            "cw1863 1; south to move; U: E4 2I / A1 1I; C: E3 3I / G11 1I; markers d3 f6",
        ],
        "E3 3I-E4\n",
    );
    assert!(
        out.contains("pending Confederacy losses to choose"),
        "{out}"
    );
    assert!(out.contains("TAKE 1 KILL 1I LOSE none"), "{out}");
}

#[test]
fn brothers_at_war_plays_a_scenario_file_or_a_registered_id() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/brothersatwar/skirmish.toml"
    );
    let out = engine(&["--game", "brothersatwar", "--scenario", file], "");
    assert!(out.starts_with("position test-skirmish "), "{out}");
    let out = engine(
        &["--game", "brothersatwar", "--scenario", "tanners-ford"],
        "",
    );
    assert!(out.starts_with("position tanners-ford "), "{out}");
    let out = engine(&["--game", "brothersatwar"], "");
    assert!(
        out.starts_with("position tanners-ford "),
        "the demo by default: {out}"
    );
    let output = Command::new(env!("CARGO_BIN_EXE_orderly"))
        .args([
            "engine",
            "--game",
            "brothersatwar",
            "--scenario",
            "no-such-battle",
        ])
        .stdin(Stdio::null())
        .output()
        .expect("orderly runs");
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("tanners-ford"),
        "the error lists the battles: {err}"
    );
}

#[test]
fn the_tool_draws_chance_from_its_seed_and_names_it_without_one() {
    let args = ["--game", "brothersatwar", "--scenario", "tanners-ford"];
    // Without a seed the opening's deal waits, named, and nothing is legal.
    let out = engine(&args, "");
    assert!(
        out.contains("chance waiting: a battle card"),
        "the deal is named: {out}"
    );
    assert!(out.contains("legal 0"), "{out}");
    // With one, the deal and the cup are drawn and a player decides.
    let seeded = [&args[..], &["--seed", "7"]].concat();
    let out = engine(&seeded, "");
    assert_eq!(
        out.matches("chance a battle card: CARD").count(),
        6,
        "{out}"
    );
    assert!(out.contains("chance a marker from the cup: DRAW"), "{out}");
    let last = out.rsplit("\n\n").next().unwrap_or_default();
    assert!(
        last.contains("pending Union") || last.contains("pending Confederacy"),
        "{last}"
    );
    assert!(!last.contains("legal 0\n"), "{last}");
    // The same seed draws the same; the draws follow the orders too.
    assert_eq!(engine(&seeded, ""), out);
    let again = engine(&seeded, "END UNITS\n");
    assert_eq!(again, engine(&seeded, "END UNITS\n"));
}

#[test]
fn a_reader_that_goes_away_ends_the_command_quietly() {
    // The read end is closed before the command starts, so its very first
    // write finds the pipe broken, whatever the timing.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let output = Command::new(env!("CARGO_BIN_EXE_orderly"))
        .arg("engine")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("orderly runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "nothing is reported: {stderr}");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        output.status.signal(),
        Some(libc::SIGPIPE),
        "ended by SIGPIPE like other Unix tools: {:?}",
        output.status
    );
}
