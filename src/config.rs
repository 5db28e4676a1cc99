//! The service's configuration: `config/orderly.toml`, every key optional,
//! with defaults that run orderly on one machine out of the box.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Where orderly looks for its configuration when no file is named.
pub const DEFAULT_FILE: &str = "config/orderly.toml";

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML or has an unknown or mistyped key.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the line.
        message: String,
    },
    /// A value is present but unusable.
    #[error("{0}")]
    Value(String),
    /// The server secret file cannot be trusted (empty, or readable by
    /// others): the service does not start.
    #[error("the server secret: {0}")]
    Secret(String),
}

/// The whole configuration.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The service itself.
    pub service: ServiceConfig,
    /// The database.
    pub store: StoreConfig,
    /// Incoming mail.
    pub intake: IntakeConfig,
    /// Outgoing mail.
    pub outgoing: OutgoingConfig,
    /// Bounces.
    pub bounces: BouncesConfig,
    /// The moderators.
    pub moderators: ModeratorsConfig,
    /// Time controls and reminders.
    pub deadlines: DeadlinesConfig,
    /// Watching public games.
    pub observers: ObserversConfig,
    /// Glicko-2 ratings.
    pub ratings: RatingsConfig,
    /// The computer opponent (`NEW SQUARES VS COMPUTER`).
    pub computer: ComputerConfig,
    /// The Play of the Day: the community against the house.
    pub play_of_the_day: PlayOfTheDayConfig,
}

/// The games a Play of the Day may play (`[play_of_the_day] game`), by
/// their stored names. Each decision of these is one order, which a vote
/// names: in the Civil War Game 1863 a turn is several decisions (each
/// move, ride, FORTIFY and END, and each choice inside a battle), so a
/// round decides one order of it. Brothers at War is left out: the
/// computer does not play it, so it could have no computer house.
pub const PLAY_OF_THE_DAY_GAMES: [&str; 3] = ["squares", "napoleonic", "civilwar1863"];

/// `[play_of_the_day]` (docs/play-of-the-day.md).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct PlayOfTheDayConfig {
    /// Whether the service runs one: a new game begins at the sweep after
    /// the last one ended.
    pub enabled: bool,
    /// The game played, by its stored name: one of
    /// [`PLAY_OF_THE_DAY_GAMES`] (a vote names one order, which every
    /// decision of these games is).
    pub game: String,
    /// The side the community plays, in the game's words (`BLUE`,
    /// `CONFEDERACY`); the side that moves first when empty.
    pub side: String,
    /// The house: `computer` (the computer opponent at `level`) or the
    /// address of a house player, who plays by mail as any player does.
    pub house: String,
    /// The computer's level when it is the house, 1 to 5.
    pub level: u8,
    /// How long a round of voting lasts, in hours.
    pub round_hours: u32,
    /// A round closes as soon as one order has this many votes (0: only
    /// at the round's deadline).
    pub votes_to_decide: u32,
    /// The most members (players taking part).
    pub max_members: u32,
    /// The reserved address the community's seat is held under: it never
    /// receives mail and is never taken as a sender.
    pub community_address: String,
}

impl Default for PlayOfTheDayConfig {
    fn default() -> Self {
        PlayOfTheDayConfig {
            enabled: false,
            game: "squares".into(),
            side: String::new(),
            house: "computer".into(),
            level: 5,
            round_hours: 24,
            votes_to_decide: 0,
            max_members: 1000,
            community_address: "community@orderly.invalid".into(),
        }
    }
}

/// `[computer]`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct ComputerConfig {
    /// The computer's own player: the address its seat is held under. It
    /// must never receive mail nor send any (a domain under `.invalid`,
    /// reserved by RFC 2606): no mail is ever queued to it, and mail from
    /// it is ignored.
    pub address: String,
    /// The most playouts the computer searches in one player's games in an
    /// hour: beyond it, its answer waits, played by the sweep once the
    /// hour's sum allows (the search is the one thing a short mail makes
    /// orderly spend seconds on). A turn of the Civil War Game 1863 at
    /// level 5 is about 600,000; a decision of SQUARES at level 5, 3,240.
    pub thinking_per_player_hour: u64,
    /// The most playouts searched in all games in an hour, however many
    /// players ask: the games waiting are answered oldest first.
    pub thinking_per_hour: u64,
}

impl Default for ComputerConfig {
    fn default() -> Self {
        ComputerConfig {
            address: "computer@orderly.invalid".into(),
            thinking_per_player_hour: 6_000_000,
            thinking_per_hour: 40_000_000,
        }
    }
}

/// `[observers]`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct ObserversConfig {
    /// The most watchers one public game has.
    pub max_per_game: u32,
    /// The most games not over yet one address watches.
    pub max_per_address: u32,
    /// The most games `GAMES PUBLIC` lists, the most recent first.
    pub public_list: u32,
}

impl Default for ObserversConfig {
    fn default() -> Self {
        ObserversConfig {
            max_per_game: 50,
            max_per_address: 10,
            public_list: 20,
        }
    }
}

/// `[ratings]`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct RatingsConfig {
    /// The length of a rating period in days: a player's deviation grows
    /// once for every whole period since their last rated game (0: never).
    pub period_days: u32,
    /// How many players `RATINGS` lists for each kind of game.
    pub top: u32,
    /// Whether a game against the computer is rated (by default, and at
    /// all): false keeps ratings between people.
    pub against_computer: bool,
}

impl Default for RatingsConfig {
    fn default() -> Self {
        RatingsConfig {
            period_days: 30,
            top: 10,
            against_computer: false,
        }
    }
}

/// What happens when a player's time runs out (after the grace period).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum TimeoutPolicy {
    /// The opponent may `CLAIM WIN`.
    #[default]
    Claim,
    /// The game goes to the moderators.
    Moderators,
}

/// `[deadlines]`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct DeadlinesConfig {
    /// Days per turn when `NEW` names none (`NEW SQUARES VS x DAYS 3`).
    pub turn_days: u32,
    /// Hours for a decision inside an attack (retreat, option, advance).
    pub decision_hours: u32,
    /// Hours before a deadline at which the player to act is reminded.
    pub reminder_hours: Vec<u32>,
    /// Hours after a deadline before the time counts as run out.
    pub grace_hours: u32,
    /// What running out of time leads to.
    pub timeout: TimeoutPolicy,
    /// The most days a clock bank (`CLOCK 10+1`) holds when `NEW` names no
    /// `MAX`.
    pub clock_cap_days: u32,
    /// Vacation days each player may take per calendar year.
    pub vacation_days_per_year: u32,
    /// Days without any order in a game after which it is adjourned to the
    /// moderators.
    pub adjourn_after_days: u32,
    /// Days an invitation stays open; then it expires and both players are
    /// told.
    pub invitation_days: u32,
}

impl Default for DeadlinesConfig {
    fn default() -> Self {
        DeadlinesConfig {
            turn_days: 3,
            decision_hours: 24,
            reminder_hours: vec![24, 2],
            grace_hours: 24,
            timeout: TimeoutPolicy::Claim,
            clock_cap_days: 30,
            vacation_days_per_year: 30,
            adjourn_after_days: 21,
            invitation_days: 14,
        }
    }
}

/// `[bounces]`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct BouncesConfig {
    /// The local part of the VERP envelope sender
    /// (`bounces+<mail>.<mac>@domain`): delivery-status notifications come
    /// back to it and are matched to the exact mail.
    pub local: String,
    /// Hard bounces of an address after which its seats are marked
    /// undeliverable and the opponents and moderators are told.
    pub hard_limit: u32,
}

impl Default for BouncesConfig {
    fn default() -> Self {
        BouncesConfig {
            local: "bounces".into(),
            hard_limit: 3,
        }
    }
}

/// `[moderators]`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct ModeratorsConfig {
    /// The moderators' addresses: told of mail that cannot be delivered.
    pub addresses: Vec<String>,
}

/// `[service]`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct ServiceConfig {
    /// The service's own address.
    pub address: String,
    /// The display name on outgoing mail.
    pub name: String,
    /// The server secret, when set in the file.
    pub secret: Option<String>,
    /// Where a generated secret is kept.
    pub secret_file: PathBuf,
    /// Seconds between polls.
    pub poll_interval_secs: u64,
    /// Mails per sender per hour before further mail is set aside.
    pub rate_limit_per_hour: u32,
    /// Commands and orders per sender per hour (summed over their mails)
    /// before further mail is set aside.
    pub commands_per_hour: u32,
    /// Commands and orders read from one mail; the rest is not read.
    pub max_commands_per_mail: u32,
    /// Invitations (NEW) one player may have open at once.
    pub max_open_invitations: u32,
    /// Invitations one player may send in 24 hours.
    pub max_invitations_per_day: u32,
    /// The most waiting mails processed in one transaction (group commit);
    /// 1 makes every mail durable on its own.
    pub batch_max: u32,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            address: "orderly@localhost".into(),
            name: "orderly".into(),
            secret: None,
            secret_file: "var/secret".into(),
            poll_interval_secs: 5,
            rate_limit_per_hour: 120,
            commands_per_hour: 600,
            max_commands_per_mail: 40,
            max_open_invitations: 5,
            max_invitations_per_day: 10,
            batch_max: 100,
        }
    }
}

/// `[store]`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct StoreConfig {
    /// The SQLite file.
    pub path: PathBuf,
    /// Days a sent mail's row (its recipient, game and Message-ID, for
    /// matching a bounce) is kept; the daemon's sweep deletes older ones.
    pub keep_sent_days: u32,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            path: "var/orderly.db".into(),
            keep_sent_days: 30,
        }
    }
}

/// `[intake]`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct IntakeConfig {
    /// The incoming Maildir (used when no IMAP account is configured).
    pub maildir: PathBuf,
    /// An IMAP account to read instead of the Maildir.
    pub imap: Option<crate::mail::imap::ImapConfig>,
    /// How many times a mail whose processing fails (or panics) is tried
    /// before it is set aside in the quarantine and a moderator told.
    pub max_attempts: u32,
    /// The largest mail read, in bytes: a larger one is not read beyond its
    /// headers, and only a verified sender is told (once, briefly).
    pub max_mail_bytes: usize,
    /// The most bytes of a mail's header block read; header fields beyond
    /// are dropped.
    pub max_header_bytes: usize,
    /// The most RFC 2047 encoded words (`=?utf-8?q?...?=`) decoded in one
    /// header field; the field is cut before the next one.
    pub max_encoded_words: usize,
    /// The most lines (not blank) of a mail's text read, after quoted lines
    /// and signatures are removed; the reply says when there were more.
    pub max_lines: usize,
    /// The most characters of one line read; a longer line is cut and the
    /// reply says so.
    pub max_line_chars: usize,
}

impl Default for IntakeConfig {
    fn default() -> Self {
        let limits = crate::mail::intake::Limits::default();
        IntakeConfig {
            maildir: "var/mail/inbox".into(),
            imap: None,
            max_attempts: 3,
            max_mail_bytes: limits.max_mail_bytes,
            max_header_bytes: limits.max_header_bytes,
            max_encoded_words: limits.max_encoded_words,
            max_lines: limits.max_lines,
            max_line_chars: limits.max_line_chars,
        }
    }
}

impl IntakeConfig {
    /// The bounds every incoming mail is read within.
    pub fn limits(&self) -> crate::mail::intake::Limits {
        crate::mail::intake::Limits {
            max_mail_bytes: self.max_mail_bytes,
            max_header_bytes: self.max_header_bytes,
            max_encoded_words: self.max_encoded_words,
            max_lines: self.max_lines,
            max_line_chars: self.max_line_chars,
        }
    }
}

/// `[outgoing]`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct OutgoingConfig {
    /// The directory outgoing .eml files are written to.
    pub dir: PathBuf,
    /// Seconds before the first retry of a mail that could not be sent;
    /// each further retry waits twice as long (twelve retries).
    pub retry_base_secs: u64,
    /// An SMTP relay or submission server to send through instead of
    /// writing files.
    pub smtp: Option<crate::mail::outgoing::SmtpConfig>,
    /// A sendmail command to send through instead of writing files.
    pub sendmail: Option<PathBuf>,
    /// Whether mail carries an HTML alternative (the same text in a
    /// monospace `<pre>`) after its plain text; off, every mail is plain
    /// text only.
    pub html: bool,
    /// Whether board mails carry the board as a picture (PNG, in the HTML
    /// part and attached; issue 19). Off, no mail carries one, whatever
    /// the players chose; it needs `html`.
    pub pictures: bool,
}

impl Default for OutgoingConfig {
    fn default() -> Self {
        OutgoingConfig {
            dir: "var/mail/sent".into(),
            retry_base_secs: 60,
            smtp: None,
            sendmail: None,
            html: true,
            pictures: true,
        }
    }
}

impl Config {
    /// Reads `path`, or [`DEFAULT_FILE`] when it exists, or the defaults.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let path = match path {
            Some(p) => p.to_path_buf(),
            None if Path::new(DEFAULT_FILE).exists() => PathBuf::from(DEFAULT_FILE),
            None => return Ok(Config::default()),
        };
        let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
            path: path.clone(),
            source,
        })?;
        Config::parse(&text).map_err(|message| ConfigError::Invalid { path, message })
    }

    /// Reads configuration text.
    pub fn parse(text: &str) -> Result<Config, String> {
        let config: Config = toml::from_str(text).map_err(|e| e.to_string())?;
        config.check().map_err(|e| e.to_string())?;
        Ok(config)
    }

    fn check(&self) -> Result<(), ConfigError> {
        let (local, domain) = self.service.address.split_once('@').ok_or_else(|| {
            ConfigError::Value(format!(
                "service.address {:?} is not a mail address",
                self.service.address
            ))
        })?;
        if local.is_empty() || domain.is_empty() || local.contains('+') {
            return Err(ConfigError::Value(format!(
                "service.address {:?} must be local@domain without a +subaddress \
                 (orderly adds one per game and seat)",
                self.service.address
            )));
        }
        if self.outgoing.smtp.is_some() && self.outgoing.sendmail.is_some() {
            return Err(ConfigError::Value(
                "outgoing: configure [outgoing.smtp] or sendmail, not both".into(),
            ));
        }
        let i = &self.intake;
        if i.max_mail_bytes < 4096
            || i.max_header_bytes < 1024
            || i.max_encoded_words == 0
            || i.max_lines == 0
            || i.max_line_chars < 80
        {
            return Err(ConfigError::Value(
                "intake: max_mail_bytes must be at least 4096, max_header_bytes at least \
                 1024, max_line_chars at least 80, max_encoded_words and max_lines at least 1"
                    .into(),
            ));
        }
        if self.store.keep_sent_days == 0 {
            // A bounce comes back hours or days after its mail: a row
            // deleted at once could never be matched.
            return Err(ConfigError::Value(
                "store.keep_sent_days must be at least 1".into(),
            ));
        }
        if self.ratings.top == 0 || self.ratings.top > 100 {
            return Err(ConfigError::Value(
                "ratings.top must be from 1 to 100".into(),
            ));
        }
        if self.observers.public_list == 0 || self.observers.public_list > 100 {
            return Err(ConfigError::Value(
                "observers.public_list must be from 1 to 100".into(),
            ));
        }
        let computer = self.computer.address.trim();
        if !computer.contains('@') || computer.eq_ignore_ascii_case(&self.service.address) {
            return Err(ConfigError::Value(format!(
                "computer.address {:?} must be a mail address of its own, that never \
                 receives mail (e.g. computer@orderly.invalid)",
                self.computer.address
            )));
        }
        // A budget of nothing would leave every game against the computer
        // waiting for ever, its answer promised and never played.
        if self.computer.thinking_per_player_hour == 0 || self.computer.thinking_per_hour == 0 {
            return Err(ConfigError::Value(
                "computer.thinking_per_player_hour and thinking_per_hour must be at least 1 \
                 (playouts an hour; the defaults are 6000000 and 40000000)"
                    .into(),
            ));
        }
        let daily = &self.play_of_the_day;
        let community = daily.community_address.trim();
        if !community.contains('@')
            || community.eq_ignore_ascii_case(&self.service.address)
            || community.eq_ignore_ascii_case(computer)
        {
            return Err(ConfigError::Value(format!(
                "play_of_the_day.community_address {:?} must be a mail address of its own, \
                 that never receives mail (e.g. community@orderly.invalid)",
                daily.community_address
            )));
        }
        if daily.enabled {
            // A vote names one order, and the computer may be the house:
            // only the games listed, which it plays.
            let game = daily.game.trim().to_ascii_lowercase();
            if !PLAY_OF_THE_DAY_GAMES.contains(&game.as_str()) {
                return Err(ConfigError::Value(format!(
                    "play_of_the_day.game {:?}: the Play of the Day plays {}",
                    daily.game,
                    PLAY_OF_THE_DAY_GAMES.join(", ")
                )));
            }
            let side = daily.side.trim();
            if !side.is_empty() && crate::games::hosted::seat_named(&game, side).is_none() {
                return Err(ConfigError::Value(format!(
                    "play_of_the_day.side {:?} is no side of {game}: {}, or empty for the \
                     side that moves first",
                    daily.side,
                    crate::games::hosted::seat_words(&game).unwrap_or_default()
                )));
            }
            if !(1..=5).contains(&daily.level) {
                return Err(ConfigError::Value(
                    "play_of_the_day.level must be from 1 to 5".into(),
                ));
            }
            if !(1..=24 * 14).contains(&daily.round_hours) {
                return Err(ConfigError::Value(
                    "play_of_the_day.round_hours must be from 1 to 336".into(),
                ));
            }
            if daily.max_members == 0 || daily.max_members > 100_000 {
                return Err(ConfigError::Value(
                    "play_of_the_day.max_members must be from 1 to 100000".into(),
                ));
            }
            let house = daily.house.trim();
            if !house.eq_ignore_ascii_case("computer")
                && (!house.contains('@')
                    || house.eq_ignore_ascii_case(&self.service.address)
                    || house.eq_ignore_ascii_case(community))
            {
                return Err(ConfigError::Value(format!(
                    "play_of_the_day.house {:?} must be \"computer\" or a house player's address",
                    daily.house
                )));
            }
        }
        if self.service.poll_interval_secs == 0 {
            return Err(ConfigError::Value(
                "service.poll_interval_secs must be at least 1".into(),
            ));
        }
        Ok(())
    }

    /// The local part and the domain of the service address.
    pub fn address_parts(&self) -> (&str, &str) {
        self.service
            .address
            .split_once('@')
            .unwrap_or((self.service.address.as_str(), "localhost"))
    }

    /// The server secret: from the file's `secret`, or from `secret_file`,
    /// generated there (from the OS's random source) on first start.
    pub fn server_secret(&self) -> Result<Vec<u8>, ConfigError> {
        if let Some(s) = &self.service.secret {
            return Ok(s.as_bytes().to_vec());
        }
        let path = &self.service.secret_file;
        match std::fs::read_to_string(path) {
            // A secret others can read is a secret no more: every seat key
            // can be made from it. Refuse rather than go on.
            Ok(_) if crate::private::readable_by_others(path).unwrap_or(true) => {
                return Err(ConfigError::Secret(format!(
                    "{} is readable by others than its owner: anyone who read it can \
                     make every seat's key. Run chmod 600 {} (and consider a new \
                     secret), then start again",
                    path.display(),
                    path.display()
                )))
            }
            Ok(text) if !text.trim().is_empty() => return Ok(text.trim().as_bytes().to_vec()),
            // An empty secret file is damage, not a first start: a new secret
            // would silently change every seat's address.
            Ok(_) => {
                return Err(ConfigError::Secret(format!(
                    "{} is empty: restore it from a backup, or delete it to make a new \
                     secret (every reply address already sent then stops working)",
                    path.display()
                )))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.clone(),
                    source,
                })
            }
        }
        let mut bytes = [0u8; 32];
        let mut read = |path: &Path| -> std::io::Result<()> {
            use std::io::Read;
            std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
            if let Some(dir) = path.parent() {
                crate::private::create_dir_all(dir)?;
            }
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            let tmp = path.with_extension("tmp");
            // The secret makes every seat's key: only its owner may read it,
            // from the moment it exists.
            {
                use std::io::Write;
                use std::os::unix::fs::OpenOptionsExt;
                let mut file = std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .mode(0o600)
                    .open(&tmp)?;
                file.write_all(format!("{hex}\n").as_bytes())?;
                file.sync_all()?;
            }
            std::fs::rename(&tmp, path)
        };
        read(path).map_err(|source| ConfigError::Read {
            path: path.clone(),
            source,
        })?;
        self.server_secret()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_is_the_defaults() {
        let text = include_str!("../config/orderly.toml");
        assert_eq!(Config::parse(text), Ok(Config::default()));
    }

    #[test]
    fn a_new_secret_file_is_readable_by_its_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("orderly-secret-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut config = Config::default();
        config.service.secret_file = dir.join("secret");
        let secret = config.server_secret().unwrap();
        assert_eq!(secret.len(), 64);
        let mode = std::fs::metadata(dir.join("secret"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
        assert_eq!(
            config.server_secret().unwrap(),
            secret,
            "read back, not made anew"
        );
        let dir_mode = std::fs::metadata(&dir).unwrap().permissions().mode();
        assert_eq!(dir_mode & 0o777, 0o700, "{dir_mode:o}");
        // Readable by others: refused, with what to do.
        let file = dir.join("secret");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = config.server_secret().unwrap_err().to_string();
        assert!(
            err.contains("readable by others") && err.contains("chmod 600"),
            "{err}"
        );
        // Empty: refused, not silently replaced.
        std::fs::write(&file, "").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        let err = config.server_secret().unwrap_err().to_string();
        assert!(err.contains("is empty"), "{err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "", "left alone");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn unknown_keys_and_bad_addresses_are_refused() {
        assert!(Config::parse("[service]\nadress = \"x@y\"\n").is_err());
        assert!(Config::parse("[service]\naddress = \"nobody\"\n").is_err());
        assert!(Config::parse("[service]\naddress = \"a+b@c\"\n").is_err());
    }
}
