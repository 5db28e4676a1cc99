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
