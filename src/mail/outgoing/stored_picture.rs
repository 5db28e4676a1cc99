//! A queued mail's picture as the outbox stores it: the SVG deflated and
//! in base64 behind `deflate:`. A board's SVG is 28-130 KB of text that
//! repeats itself (a Brothers at War map draws 180 hexes alike); deflated
//! it is a tenth of that, and every queued board mail is written to the
//! database and read back once. A picture stored plain (by an earlier
//! version) still reads.

use std::io::Read;

use base64::Engine;
use serde::{Deserialize, Deserializer, Serializer};

/// What marks a stored picture as deflated.
const DEFLATED: &str = "deflate:";

/// The largest SVG a stored picture inflates to: far above any board's,
/// so that a damaged row cannot fill the memory.
const MAX_SVG: u64 = 16 * 1024 * 1024;

/// The stored form of `svg`.
pub fn pack(svg: &str) -> String {
    use std::io::Write;
    let mut encoder =
        flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let packed = encoder
        .write_all(svg.as_bytes())
        .and_then(|()| encoder.finish())
        .unwrap_or_default();
    format!(
        "{DEFLATED}{}",
        base64::engine::general_purpose::STANDARD.encode(packed)
    )
}

/// The SVG of a stored picture, deflated or plain; `None` when it is
/// damaged (the mail then goes without it, as with a picture that cannot
/// be rendered).
pub fn unpack(stored: &str) -> Option<String> {
    let Some(packed) = stored.strip_prefix(DEFLATED) else {
        return Some(stored.to_string());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(packed)
        .ok()?;
    let mut svg = String::new();
    flate2::read::DeflateDecoder::new(bytes.as_slice())
        .take(MAX_SVG)
        .read_to_string(&mut svg)
        .ok()?;
    Some(svg)
}

/// Serialises `Option<String>` as [`pack`] stores it.
pub fn serialize<S: Serializer>(picture: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
    match picture {
        Some(svg) => s.serialize_some(&pack(svg)),
        None => s.serialize_none(),
    }
}

/// Reads what [`serialize`] wrote, or a plain SVG.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let stored: Option<String> = Option::deserialize(d)?;
    Ok(stored.and_then(|s| unpack(&s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_packs_small_and_unpacks_to_the_same_text() {
        let svg = "<svg><rect x=\"1\"/></svg>\n".repeat(2000);
        let packed = pack(&svg);
        assert!(packed.starts_with(DEFLATED));
        assert!(packed.len() * 10 < svg.len(), "{}", packed.len());
        assert_eq!(unpack(&packed).as_deref(), Some(svg.as_str()));
    }

    #[test]
    fn a_plain_picture_still_reads_and_a_damaged_one_is_none() {
        assert_eq!(unpack("<svg/>").as_deref(), Some("<svg/>"));
        assert_eq!(unpack("deflate:!!not base64"), None);
        assert_eq!(unpack("deflate:AAAA"), None);
    }
}
