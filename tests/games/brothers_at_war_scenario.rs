//! `orderly scenario check FILE` run as a program: the demo battle passes
//! with its one-line summary; broken copies fail with `FILE:LINE: problem`
//! lines, as a compiler reports.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const DEMO: &str = "data/brothers-at-war/tanners-ford.toml";

fn check(file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orderly"))
        .args(["scenario", "check"])
        .arg(file)
        .output()
        .expect("run orderly")
}

/// A copy of the demo with `from` replaced by `to`, in a file of its own.
fn broken_copy(name: &str, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(DEMO).unwrap();
    assert_eq!(text.matches(from).count(), 1, "{from:?} must occur once");
    write(name, text.replacen(from, to, 1).as_bytes())
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("orderly-baw-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn stderr_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_demo_checks_fine() {
    let out = check(Path::new(DEMO));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "tanners-ford: Tanner's Ford, 5 turns, 15 x 12 hexes, 4 brigades, 22 units, 30 cards: fine\n"
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn a_broken_copy_gets_every_problem_with_its_line() {
    let text = std::fs::read_to_string(DEMO).unwrap();
    let line_of = |needle: &str| 1 + text.lines().position(|l| l.contains(needle)).unwrap();
    let path = broken_copy("two.toml", "timing = \"drawn\"", "timing = \"sometimes\"");
    let text2 = std::fs::read_to_string(&path).unwrap();
    let path = write(
        "two.toml",
        text2.replacen("turns = 5", "turns = 61", 1).as_bytes(),
    );
    let out = check(&path);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let file = path.display();
    assert_eq!(
        stderr_lines(&out),
        [
            format!(
                "{file}:{}: turns must be 1 to 60, not 61",
                line_of("turns = 5")
            ),
            format!(
                "{file}:{}: `sometimes` is not a timing window the engine knows (B124)",
                line_of("timing = \"drawn\"")
            ),
        ]
    );
}

#[test]
fn syntax_errors_and_unknown_keys_are_reported_by_line() {
    let path = broken_copy(
        "syntax.toml",
        "countdown_markers = 3",
        "countdown_markers = = 3",
    );
    let out = check(&path);
    assert_eq!(out.status.code(), Some(1));
    let lines = stderr_lines(&out);
    let text = std::fs::read_to_string(DEMO).unwrap();
    let line = 1 + text
        .lines()
        .position(|l| l.contains("countdown_markers"))
        .unwrap();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with(&format!("{}:{line}: ", path.display())),
        "{lines:?}"
    );

    let path = broken_copy(
        "unknown.toml",
        "sharpshooter = true",
        "sharpshooter = true\nsniper = true",
    );
    let out = check(&path);
    assert_eq!(out.status.code(), Some(1));
    let lines = stderr_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains(&format!(
            ":{}: unknown field `sniper`",
            line_of_text(&path, "sniper")
        )),
        "{lines:?}"
    );
}

fn line_of_text(path: &Path, needle: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    1 + text.lines().position(|l| l.contains(needle)).unwrap()
}

#[test]
fn files_not_text_or_not_there_fail() {
    let mut bytes = std::fs::read(DEMO).unwrap();
    bytes.extend_from_slice(b"\n# \xff\xfe\n");
    let path = write("binary.toml", &bytes);
    let out = check(&path);
    assert_eq!(out.status.code(), Some(1));
    let lines = stderr_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].ends_with(": not UTF-8 text"), "{lines:?}");
    let out = check(Path::new("data/brothers-at-war/no-such-battle.toml"));
    assert_ne!(out.status.code(), Some(0));
}
