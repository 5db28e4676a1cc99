//! Time zones: the one a mail's `Date:` offset suggests (until a player
//! chooses theirs), and a stored time as a player reads it.

use chrono::{DateTime, Utc};

/// The time zone a `Date:` offset (seconds east of UTC) stands for: a fixed
/// `Etc/GMT` zone for whole hours (whose names count the other way), the
/// one zone that uses each of the usual half-hour offsets, else none.
pub(super) fn zone_of_offset(seconds: i32) -> Option<&'static str> {
    const WHOLE: [&str; 27] = [
        "Etc/GMT+12",
        "Etc/GMT+11",
        "Etc/GMT+10",
        "Etc/GMT+9",
        "Etc/GMT+8",
        "Etc/GMT+7",
        "Etc/GMT+6",
        "Etc/GMT+5",
        "Etc/GMT+4",
        "Etc/GMT+3",
        "Etc/GMT+2",
        "Etc/GMT+1",
        "UTC",
        "Etc/GMT-1",
        "Etc/GMT-2",
        "Etc/GMT-3",
        "Etc/GMT-4",
        "Etc/GMT-5",
        "Etc/GMT-6",
        "Etc/GMT-7",
        "Etc/GMT-8",
        "Etc/GMT-9",
        "Etc/GMT-10",
        "Etc/GMT-11",
        "Etc/GMT-12",
        "Etc/GMT-13",
        "Etc/GMT-14",
    ];
    if seconds % 3600 == 0 {
        let hours = seconds / 3600;
        return usize::try_from(hours + 12)
            .ok()
            .and_then(|i| WHOLE.get(i).copied());
    }
    match seconds / 60 {
        -210 => Some("America/St_Johns"),
        210 => Some("Asia/Tehran"),
        270 => Some("Asia/Kabul"),
        330 => Some("Asia/Kolkata"),
        345 => Some("Asia/Kathmandu"),
        390 => Some("Asia/Yangon"),
        570 => Some("Australia/Darwin"),
        _ => None,
    }
}

/// A UTC time in a player's zone: `Tue 24 Nov 2026 11:00 CET
/// (Europe/Paris)`, or `... 11:00 UTC+01:00` for a zone guessed from an
/// offset; UTC when the zone is unknown.
pub fn local_time(utc: DateTime<Utc>, zone: &str) -> String {
    let tz: chrono_tz::Tz = zone.parse().unwrap_or(chrono_tz::UTC);
    let local = utc.with_timezone(&tz);
    if tz.name().starts_with("Etc/") {
        // A zone guessed from a mail's offset has no name worth showing.
        return local.format("%a %d %b %Y %H:%M UTC%:z").to_string();
    }
    let shown = local.format("%a %d %b %Y %H:%M %Z").to_string();
    if tz == chrono_tz::UTC {
        shown
    } else {
        format!("{shown} ({})", tz.name())
    }
}
