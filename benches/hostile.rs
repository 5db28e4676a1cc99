//! What hostile mail costs: each class of crafted message (a Subject of
//! 150,000 encoded words, a 6.5 MB quoted-printable body, a 4 MB order
//! token, 100,000 lines, deep MIME nesting, ...) built in memory and
//! processed one at a time by a service on a real SQLite file and Maildir,
//! with a game in progress whose seat key the mails carry (so that their
//! lines reach the game's reader).
//!
//! For each mail two runs: `Service::process` on the bytes, and the whole
//! poll (delivered into the Maildir, read back as the mailbox reads it,
//! processed, the reply written), each with its wall time and the peak of
//! heap memory above what was allocated before it (a counting global
//! allocator). The target is every mail under 1 s and 64 MiB.
//!
//! `cargo bench --bench hostile` runs the full sizes; under `cargo test
//! --all-targets` every class runs at a small size as a smoke test. The
//! figures are printed, never asserted. `ORDERLY_BENCH_ONLY=word` runs
//! the classes whose name contains `word`.

#[path = "../tests/common/rng.rs"]
mod rng;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use orderly::config::Config;
use orderly::games::Seat;
use orderly::mail::maildir::Maildir;
use orderly::service::identity::seat_secret;
use orderly::service::Service;
use rng::XorShift;

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn note_alloc(size: usize) {
    let now = IN_USE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on unchanged.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            note_alloc(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            note_alloc(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
            note_alloc(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f`, returning its result, its wall time and the peak of heap
/// bytes above those in use when it started.
fn measured<T>(f: impl FnOnce() -> T) -> (T, Duration, usize) {
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let t = Instant::now();
    let out = f();
    let elapsed = t.elapsed();
    (
        out,
        elapsed,
        PEAK.load(Ordering::Relaxed).saturating_sub(base),
    )
}

const SECRET: &str = "bench-secret";
const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";

/// A mail from Ann to her own seat (the right key from the right sender),
/// with `extra` headers and `body` as given; `{ID}` in the result is the
/// place of the Message-ID's unique part, `{DATE}` of the Date's time (each
/// run its own, or the second run of the same words would be a replay).
fn mail(to: &str, extra: &str, body: &[u8]) -> Vec<u8> {
    let mut raw = format!(
        "From: Ann Lee <{ANN}>\r\nTo: {to}\r\nMessage-ID: <{{ID}}@hostile.test>\r\n\
         Date: Sat, 21 Nov 2026 {{DATE}} +0000\r\n{extra}"
    )
    .into_bytes();
    if !extra.is_empty() && !extra.ends_with('\n') {
        raw.extend_from_slice(b"\r\n");
    }
    raw.extend_from_slice(b"\r\n");
    raw.extend_from_slice(body);
    raw
}

/// `text` repeated to `len` bytes.
fn repeated(text: &str, len: usize) -> String {
    text.repeat(len / text.len().max(1) + 1)[..len].to_string()
}

/// Quoted-printable text of `len` bytes: words with some encoded bytes,
/// soft line breaks every 76 columns and no hard one (one decoded line).
fn quoted_printable(len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 80);
    let mut column = 0;
    let words: &[&[u8]] = &[
        b"MOVE",
        b"=41TTACK",
        b"B1C",
        b"cav",
        b"=E2=80=99",
        b"thanks",
    ];
    let mut rng = XorShift::from_state(7);
    while out.len() < len {
        let word = rng.pick(words);
        if column + word.len() + 2 > 75 {
            out.extend_from_slice(b"=\r\n");
            column = 0;
        }
        out.extend_from_slice(word);
        out.push(b' ');
        column += word.len() + 1;
    }
    out
}

/// One class of hostile mail: its name and how to build it at `scale`
/// (1.0 the full size).
struct Case {
    name: &'static str,
    build: fn(&Site, f64) -> Vec<u8>,
}

struct Site {
    ann_seat: String,
}

fn n(full: usize, scale: f64) -> usize {
    ((full as f64 * scale) as usize).max(1)
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "subject: 150k encoded words (2 MB)",
            build: |s, k| {
                let subject = "=?utf-8?q?caf=C3=A9?= ".repeat(n(150_000, k));
                mail(&s.ann_seat, &format!("Subject: {subject}"), b"PASS\r\n")
            },
        },
        Case {
            name: "subject: 40k encoded words (0.9 MB)",
            build: |s, k| {
                let subject = "=?utf-8?q?caf=C3=A9?= ".repeat(n(40_000, k));
                mail(&s.ann_seat, &format!("Subject: {subject}"), b"PASS\r\n")
            },
        },
        Case {
            name: "subject: 300k stray ?= (0.9 MB)",
            build: |s, k| {
                let subject = format!("=?utf-8?q?x{}", "?=x".repeat(n(300_000, k)));
                mail(&s.ann_seat, &format!("Subject: {subject}"), b"PASS\r\n")
            },
        },
        Case {
            name: "from: 20k encoded words in the name",
            build: |s, k| {
                let name = "=?utf-8?b?QW5u?= ".repeat(n(20_000, k));
                let raw = mail(&s.ann_seat, "Subject: x", b"PASS\r\n");
                let raw = String::from_utf8(raw).unwrap_or_default();
                raw.replacen("Ann Lee", &name, 1).into_bytes()
            },
        },
        Case {
            name: "header: 0.9 MB References line",
            build: |s, k| {
                let refs = "<a@b> ".repeat(n(150_000, k));
                mail(&s.ann_seat, &format!("References: {refs}"), b"PASS\r\n")
            },
        },
        Case {
            name: "header: To of 40k addresses",
            build: |s, k| {
                let to = (0..n(40_000, k))
                    .map(|i| format!("p{i}@x.example"))
                    .collect::<Vec<_>>()
                    .join(", ");
                mail(&s.ann_seat, &format!("Cc: {to}"), b"PASS\r\n")
            },
        },
        Case {
            name: "header: 60k short headers",
            build: |s, k| {
                let headers = "X-A: b\r\n".repeat(n(60_000, k));
                mail(&s.ann_seat, &headers, b"PASS\r\n")
            },
        },
        Case {
            name: "header: folded 60k times",
            build: |s, k| {
                let subject = "x\r\n ".repeat(n(60_000, k));
                mail(&s.ann_seat, &format!("Subject: {subject}"), b"PASS\r\n")
            },
        },
        Case {
            name: "body: 6.5 MB quoted-printable",
            build: |s, k| {
                mail(
                    &s.ann_seat,
                    "Subject: x\r\nContent-Type: text/plain; charset=utf-8\r\n\
                     Content-Transfer-Encoding: quoted-printable",
                    &quoted_printable(n(6_500_000, k)),
                )
            },
        },
        Case {
            name: "body: 1 MB quoted-printable",
            build: |s, k| {
                mail(
                    &s.ann_seat,
                    "Subject: x\r\nContent-Type: text/plain; charset=utf-8\r\n\
                     Content-Transfer-Encoding: quoted-printable",
                    &quoted_printable(n(1_000_000, k)),
                )
            },
        },
        Case {
            name: "body: 1 MB base64, one line",
            build: |s, k| {
                let text = repeated("MOVE cav B1C B2C thanks ", n(700_000, k));
                let b64 = base64(text.as_bytes());
                mail(
                    &s.ann_seat,
                    "Subject: x\r\nContent-Type: text/plain; charset=utf-8\r\n\
                     Content-Transfer-Encoding: base64",
                    b64.as_bytes(),
                )
            },
        },
        Case {
            name: "token: 4 MB order word",
            build: |s, k| {
                let body = format!("MOVE {} B2C\r\n", "X".repeat(n(4_000_000, k)));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "token: 1 MB order word",
            build: |s, k| {
                let body = format!("MOVE {} B2C\r\n", "X".repeat(n(1_000_000, k)));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "token: 1 MB code-like word",
            build: |s, k| {
                let body = format!("MOVE B1{}\r\n", "C".repeat(n(1_000_000, k)));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "line: 1 MB of order words",
            build: |s, k| {
                let body = repeated("MOVE INF B1C TO B2C ", n(1_000_000, k));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "line: 1 MB of slips (mvoe cav)",
            build: |s, k| {
                let body = repeated("mvoe cav B3C ", n(1_000_000, k));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "lines: 100k order lines",
            build: |s, k| {
                let body = "MOVE B1C B2C\r\n".repeat(n(70_000, k));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "lines: 100k prose lines",
            build: |s, k| {
                let body = "hello there\r\n".repeat(n(100_000, k));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "lines: 10k HELP",
            build: |s, k| {
                let body = "HELP\r\n".repeat(n(10_000, k));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "lines: 10k BOARD",
            build: |s, k| {
                let body = "BOARD\r\n".repeat(n(10_000, k));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "lines: 10k HELP MOVES",
            build: |s, k| {
                let body = "HELP MOVES B1C\r\n".repeat(n(10_000, k));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "lines: 50k attributions",
            build: |s, k| {
                let body = "On Sat, Ann wrote:\r\nx\r\n".repeat(n(50_000, k));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "lines: 100k flowed",
            build: |s, k| {
                let body = "MOVE \r\n".repeat(n(100_000, k));
                mail(
                    &s.ann_seat,
                    "Subject: x\r\nContent-Type: text/plain; charset=utf-8; format=flowed",
                    body.as_bytes(),
                )
            },
        },
        Case {
            name: "mime: nested 250 deep",
            build: |s, k| {
                let mut body = String::new();
                for i in 0..n(250, k) {
                    body.push_str(&format!(
                        "--b{i}\r\nContent-Type: multipart/mixed; boundary=b{}\r\n\r\n",
                        i + 1
                    ));
                }
                body.push_str("PASS\r\n");
                mail(
                    &s.ann_seat,
                    "Subject: x\r\nContent-Type: multipart/mixed; boundary=b0",
                    body.as_bytes(),
                )
            },
        },
        Case {
            name: "mime: 250 parts",
            build: |s, k| {
                let mut body = String::new();
                for _ in 0..n(250, k) {
                    body.push_str("--b\r\nContent-Type: text/plain\r\n\r\nPASS\r\n");
                }
                body.push_str("--b--\r\n");
                mail(
                    &s.ann_seat,
                    "Subject: x\r\nContent-Type: multipart/mixed; boundary=b",
                    body.as_bytes(),
                )
            },
        },
        Case {
            name: "mime: 20k parts without boundary word",
            build: |s, k| {
                // A boundary named by a header mailparse reads, repeated.
                let mut body = String::new();
                for _ in 0..n(20_000, k) {
                    body.push_str("--Z\r\n\r\nPASS\r\n");
                }
                mail(
                    &s.ann_seat,
                    "Subject: x\r\nContent-Type: multipart/mixed; BOUNDARY=Z",
                    body.as_bytes(),
                )
            },
        },
        Case {
            name: "mime: part header 0.9 MB encoded words",
            build: |s, k| {
                let name = "=?utf-8?q?a?= ".repeat(n(60_000, k));
                let body = format!(
                    "--b\r\nContent-Type: text/plain; name=\"{name}\"\r\n\r\nPASS\r\n--b--\r\n"
                );
                mail(
                    &s.ann_seat,
                    "Subject: x\r\nContent-Type: multipart/mixed; boundary=b",
                    body.as_bytes(),
                )
            },
        },
        Case {
            name: "html: 1 MB of nested blockquotes",
            build: |s, k| {
                let body = repeated("<blockquote><div>x<br>", n(1_000_000, k));
                mail(
                    &s.ann_seat,
                    "Subject: x\r\nContent-Type: text/html; charset=utf-8",
                    body.as_bytes(),
                )
            },
        },
        Case {
            name: "html: 1 MB of entities and tags",
            build: |s, k| {
                let body = repeated(
                    "&amp;&#x41;<p>MOVE&nbsp;B1C<!-- x --><a href='>'>",
                    n(1_000_000, k),
                );
                mail(
                    &s.ann_seat,
                    "Subject: x\r\nContent-Type: text/html; charset=utf-8",
                    body.as_bytes(),
                )
            },
        },
        Case {
            name: "garbage: 1 MB random bytes",
            build: |s, k| {
                let body = XorShift::from_state(42).bytes(n(1_000_000, k));
                mail(&s.ann_seat, "Subject: x", &body)
            },
        },
        Case {
            name: "garbage: 1 MB NUL and controls",
            build: |s, k| {
                let body = repeated("\0\x1b[2J\x07\x08PASS\r", n(1_000_000, k));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
        Case {
            name: "garbage: 1 MB without a header",
            build: |_, k| {
                let mut rng = XorShift::from_state(43);
                (0..n(1_000_000, k))
                    .map(|_| b"ab:\r\n "[rng.below(6)])
                    .collect()
            },
        },
        Case {
            name: "size: 20 MB of plain text",
            build: |s, k| {
                let body = repeated("PASS\r\n", n(20_000_000, k));
                mail(&s.ann_seat, "Subject: x", body.as_bytes())
            },
        },
    ]
}

fn base64(data: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len() * 4 / 3 + 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[((v >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let scale = if full { 1.0 } else { 0.002 };
    let only = std::env::var("ORDERLY_BENCH_ONLY").unwrap_or_default();
    let base = std::env::temp_dir().join(format!("orderly-bench-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).expect("a bench directory");

    let mut config = Config::default();
    config.service.address = "orderly@example.org".into();
    config.service.secret = Some(SECRET.into());
    config.service.rate_limit_per_hour = u32::MAX;
    config.store.path = base.join("orderly.db");
    config.intake.maildir = base.join("inbox");
    config.outgoing.dir = base.join("sent");
    let mut service = Service::open(config).expect("the service opens");
    let inbox = Maildir::open_or_create(base.join("inbox")).expect("the inbox");
    let now = Utc
        .with_ymd_and_hms(2026, 11, 21, 10, 0, 0)
        .single()
        .expect("a time");
    service.set_clock(orderly::clock::Clock::starting_at(now));

    let seat = |seat| {
        format!(
            "orderly+g1.{}@example.org",
            seat_secret(SECRET.as_bytes(), 1, seat)
        )
    };
    let start = |id: &str, from: &str, to: &str, body: &str| {
        format!(
            "From: {from}\r\nTo: {to}\r\nSubject: s\r\nMessage-ID: <{id}@test>\r\n\r\n{body}\r\n"
        )
        .into_bytes()
    };
    service
        .process(
            &start(
                "new",
                ANN,
                "orderly@example.org",
                &format!("NEW SQUARES VS {BOB}"),
            ),
            now,
        )
        .expect("the invitation");
    service
        .process(&start("accept", BOB, &seat(Seat::South), "ACCEPT"), now)
        .expect("the game starts");
    service.drain_outbox(now).expect("sent");
    let site = Site {
        ann_seat: seat(Seat::North),
    };

    println!(
        "{:<42} {:>9} {:>11} {:>11} {:>11} {:>11}  outcome",
        "hostile mail", "size", "process", "peak heap", "poll", "peak heap"
    );
    let mib = |b: usize| format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0));
    let ms = |d: Duration| format!("{:.0} ms", d.as_secs_f64() * 1000.0);
    for (i, case) in cases().into_iter().enumerate() {
        if !case.name.contains(only.as_str()) {
            continue;
        }
        let template = (case.build)(&site, scale);
        let with_id = |run: usize| {
            let id = format!("case{i}-{run}");
            let n = 2 * i + run;
            let date = format!("{:02}:{:02}:{:02}", 8 + n / 3600, n / 60 % 60, n % 60);
            let raw = match template.windows(4).position(|w| w == b"{ID}") {
                Some(at) => [&template[..at], id.as_bytes(), &template[at + 4..]].concat(),
                None => template.clone(),
            };
            match raw.windows(6).position(|w| w == b"{DATE}") {
                Some(at) => [&raw[..at], date.as_bytes(), &raw[at + 6..]].concat(),
                None => raw,
            }
        };
        let raw = with_id(0);
        let (done, process_time, process_peak) = measured(|| service.process(&raw, now));
        let outcome = match done {
            Ok(done) => done.outcome,
            Err(e) => format!("error: {e}"),
        };
        drop(raw);
        service.drain_outbox(now).expect("sent");
        inbox.deliver(&with_id(1)).expect("delivered");
        let (_, poll_time, poll_peak) = measured(|| service.poll_once());
        let outcome: String = outcome.chars().take(60).collect();
        println!(
            "{:<42} {:>9} {:>11} {:>11} {:>11} {:>11}  {outcome}",
            case.name,
            mib(template.len()),
            ms(process_time),
            mib(process_peak),
            ms(poll_time),
            mib(poll_peak),
        );
    }
    let _ = std::fs::remove_dir_all(&base);
}
