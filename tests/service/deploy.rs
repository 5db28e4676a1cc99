//! The systemd unit in config/: checked by systemd's own verifier against
//! the binary this build made, and for the confinement the service relies on.

use std::process::Command;

const UNIT: &str = include_str!("../../config/orderly.service");

#[test]
fn the_unit_confines_the_daemon_and_restarts_it() {
    for directive in [
        "User=orderly",
        "ExecStart=/usr/local/bin/orderly --config /etc/orderly/orderly.toml serve",
        "Restart=on-failure",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "ReadWritePaths=/var/lib/orderly",
        "PrivateTmp=yes",
        "UMask=0077",
        "KillSignal=SIGTERM",
    ] {
        assert!(
            UNIT.lines().any(|l| l.trim() == directive),
            "{directive} missing from config/orderly.service"
        );
    }
}

#[test]
fn systemd_verifies_the_unit_with_this_binary() {
    let Ok(out) = Command::new("systemd-analyze").arg("--version").output() else {
        panic!(
            "systemd-analyze is needed to check config/orderly.service: apt-get install systemd"
        );
    };
    assert!(out.status.success());
    let dir = std::env::temp_dir().join(format!("orderly-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let unit = dir.join("orderly.service");
    std::fs::write(
        &unit,
        UNIT.replace("/usr/local/bin/orderly", env!("CARGO_BIN_EXE_orderly")),
    )
    .unwrap();
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&unit)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // Only complaints about this unit count (the verifier also reads the
    // host's other units, which are not ours to judge).
    let ours: Vec<&str> = said
        .lines()
        .filter(|l| l.contains("orderly.service"))
        .collect();
    assert!(ours.is_empty(), "systemd-analyze verify: {said}");
    // The command it starts is one the binary knows.
    let help = Command::new(env!("CARGO_BIN_EXE_orderly"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    assert!(help.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
