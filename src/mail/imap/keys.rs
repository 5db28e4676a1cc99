//! The key the service gets for each message, and gives back to mark it
//! done: `v<UIDVALIDITY>:<UID>`, so that a folder recreated under the same
//! name (new UIDVALIDITY, UIDs counted again) never has the wrong message
//! marked.

/// The key of a message: `v<UIDVALIDITY>:<UID>`.
pub fn message_key(uid_validity: u32, uid: u32) -> String {
    format!("v{uid_validity}:{uid}")
}

/// The UIDVALIDITY and UID in a key made by [`message_key`].
pub fn parse_key(key: &str) -> Option<(u32, u32)> {
    let (validity, uid) = key.strip_prefix('v')?.split_once(':')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(validity) || !digits(uid) {
        return None;
    }
    let uid: u32 = uid.parse().ok()?;
    (uid != 0).then_some(())?;
    Some((validity.parse().ok()?, uid))
}

#[cfg(test)]
mod tests {
    use super::{message_key, parse_key};

    #[test]
    fn keys() {
        assert_eq!(message_key(123, 45), "v123:45");
        assert_eq!(parse_key("v123:45"), Some((123, 45)));
        assert_eq!(
            parse_key(&message_key(u32::MAX, u32::MAX)),
            Some((u32::MAX, u32::MAX))
        );
        for bad in [
            "",
            "45",
            "v123",
            "v123:",
            "v:45",
            "123:45",
            "v123:0",
            "v-1:4",
            "v1:+4",
            "v1:4:5",
            "v1: 4",
            "v99999999999:1",
            "V1:2",
            "1700000000.M1P2.host",
        ] {
            assert_eq!(parse_key(bad), None, "{bad}");
        }
    }
}
