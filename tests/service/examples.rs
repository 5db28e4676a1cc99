//! The README's walkthrough: the ready mails of examples/mail/ dropped into
//! the Maildir and processed by the real binary with examples/orderly.toml.

use std::path::Path;
use std::process::Command;

fn orderly(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_orderly"))
        .current_dir(dir)
        .args(["--config", "examples/orderly.toml"])
        .args(args)
        .output()
        .expect("orderly runs");
    assert!(
        out.status.success(),
        "orderly {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn the_walkthrough_mails_play_the_start_of_a_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("orderly-examples-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("examples")).unwrap();
    std::fs::copy(
        root.join("examples/orderly.toml"),
        dir.join("examples/orderly.toml"),
    )
    .unwrap();
    let inbox = dir.join("var/mail/inbox/new");
    std::fs::create_dir_all(&inbox).unwrap();
    let mut mails: Vec<_> = std::fs::read_dir(root.join("examples/mail"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    mails.sort();
    assert_eq!(mails.len(), 7);
    for m in &mails {
        std::fs::copy(m, inbox.join(m.file_name().unwrap())).unwrap();
    }
    orderly(&dir, &["poll", "--once"]);
    let sent = std::fs::read_dir(dir.join("var/mail/sent"))
        .unwrap()
        .count();
    assert_eq!(sent, 12, "7 replies, the invitation and 4 updates");
    // Listed by name, the mails come in the order they were written: the
    // answer to Ann's NEW and the invitation first, the HISTORY last.
    let mut names: Vec<_> = std::fs::read_dir(dir.join("var/mail/sent"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let read = |p: &std::path::PathBuf| std::fs::read_to_string(p).unwrap();
    assert!(
        names[..2].iter().any(|p| read(p).contains("invites you")),
        "{names:?}"
    );
    assert!(
        names[9..].iter().any(|p| read(p).contains("> HISTORY")),
        "{names:?}"
    );
    let games = orderly(&dir, &["games"]);
    assert!(
        games.contains("Blue ann@example.org  Gray bob@example.org  waits for Gray"),
        "{games}"
    );
    let record = orderly(&dir, &["export", "1"]);
    assert!(
        record.contains("[Blue \"Ann <ann@example.org>\"]"),
        "{record}"
    );
    assert!(
        record.contains("[Gray \"Bob <bob@example.org>\"]"),
        "{record}"
    );
    assert!(
        record
            .contains("1. Blue MOVE CAVALRY BR B3C\n2. Gray MOVE INFANTRY GR G3C\n3. Blue PASS\n"),
        "{record}"
    );
    let all: String = std::fs::read_dir(dir.join("var/mail/sent"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        all.contains("\"G3X\" is not a square of the board"),
        "the mistyped square is answered"
    );
    let shown = orderly(&dir, &["show", "1"]);
    assert!(shown.contains("Gray, turn 4: your turn"), "{shown}");
    let _ = std::fs::remove_dir_all(&dir);
}
