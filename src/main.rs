//! The `orderly` command line.

use std::io::{self, BufWriter, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;
use clap::{Parser, Subcommand};

use orderly::clock::Clock;
use orderly::games::hosted::{Hosted, GAMES};
use orderly::games::{GameOptions, Seat};

/// mimalloc rather than the system's allocator: a mail's work is thousands
/// of small allocations (rows, texts, JSON), and measured under callgrind
/// on the service bench the system allocator cost the daemon about 12% more
/// instructions a mail (docs/scaling.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "orderly",
    version,
    about = "A play-by-email service for board wargames"
)]
struct Cli {
    /// The configuration file (default: config/orderly.toml when present,
    /// else the built-in defaults).
    #[arg(long, global = true)]
    config: Option<std::path::PathBuf>,
    /// What the time is now, as an RFC 3339 time: the clock starts there
    /// and runs on (for tests and drills; also ORDERLY_NOW).
    #[arg(long, global = true, hide = true)]
    now: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game's orders read from stdin, one per line, printing the
    /// events, the position string, the pending decision and every legal
    /// order.
    Engine {
        /// The game: squares (the default), napoleonic or civilwar1863; without it, a
        /// --position that starts with a game's name is of that game.
        #[arg(
            long,
            ignore_case = true,
            value_parser = clap::builder::PossibleValuesParser::new(GAMES.iter().copied())
        )]
        game: Option<String>,
        /// Who moves first in the opening position: a side of the game
        /// (blue or gray; british or french; union or confederacy, which civilwar1863 ignores: the Confederacy always begins), or north or south.
        #[arg(long)]
        first: Option<String>,
        /// Start from this position string instead of the opening.
        #[arg(long, conflicts_with = "first")]
        position: Option<String>,
        /// Print the ASCII board after each order: from the seat of the
        /// player to act (`mover`), or from a side's seat (blue, gray,
        /// british, french, north, south).
        #[arg(long, num_args = 0..=1, default_missing_value = "mover")]
        board: Option<String>,
        /// Print the pending choices worded for the player to act.
        #[arg(long)]
        choices: bool,
        /// The battle, for a game played on scenarios (brothersatwar): a
        /// scenario id, or a scenario file to load (docs/brothers-at-war-scenarios.md).
        #[arg(long, conflicts_with = "position")]
        scenario: Option<String>,
        /// Draw the dice, cards and cup markers a game waits for from this
        /// seed (the same seed, the same draws); without it the tool says
        /// what the game waits for and draws nothing.
        #[arg(long)]
        seed: Option<u64>,
        /// Let the computer play the pending decision at this level (1 to
        /// 5), searching with --seed (0 without it): prints what it chose
        /// and the block after it, and reads no orders (squares,
        /// napoleonic and civilwar1863).
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5))]
        bot: Option<u8>,
        /// Also draw each position as a picture into this directory (made
        /// if missing): 0000.svg and 0000.png for the opening, then a pair
        /// per line of orders, from the seat --board names (the player to
        /// act without it).
        #[arg(long, value_name = "DIR")]
        picture: Option<std::path::PathBuf>,
    },
    /// Replay a game record, re-validating every order: print the final
    /// board and the result, or the first illegal order with its line.
    Replay(orderly::replay_tool::ReplayArgs),
    /// Check a finished game's draws of chance (docs/dice.md): the revealed
    /// seed against the commitment, then every draw derived again from the
    /// seed and its public inputs. Prints each draw checked; exits 1 naming
    /// the first draw (or the commitment) that does not check out.
    Verify {
        /// The record file (as `orderly export` or the last mail gives it).
        record: std::path::PathBuf,
    },
    /// Work with Brothers at War scenario files (docs/brothers-at-war-scenarios.md).
    #[command(subcommand)]
    Scenario(ScenarioCommand),
    /// Run the service: poll the incoming Maildir, process every mail, send
    /// the replies; stops cleanly on SIGINT or SIGTERM.
    Serve,
    /// Process the mail waiting now and send the replies, then stop.
    Poll {
        /// Poll once (the only mode; kept explicit for scripts).
        #[arg(long)]
        once: bool,
    },
    /// Try the configured mail connections (IMAP or Maildir, SMTP, sendmail
    /// or files) and print what works and what does not.
    CheckMail,
    /// A moderator command: STALLED; EXTEND <game> <n> DAYS|HOURS; PAUSE
    /// <game> UNTIL <yyyy-mm-dd>; RESUME <game>; FORFEIT <game> <side>;
    /// ADJUDICATE <game> <side>|DRAW <reason>; REPLACE <game> <side>
    /// <address>; ROLLBACK <game> <n> <reason>; ACT <game> <side> <order>;
    /// NOTE <game> <text>; or KEY <address> for a moderator's mail address.
    /// A side is named as its game names it: BLUE|GRAY in squares,
    /// BRITISH|FRENCH in napoleonic.
    Mod {
        /// The command's words.
        #[arg(required = true, num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true)]
        words: Vec<String>,
    },
    /// List every game with its players and whose turn it is.
    Games,
    /// List the Glicko-2 ratings of each kind of game (docs/ratings.md):
    /// every rated player, highest first, with the deviation as of now
    /// (the clock `--now` sets).
    Ratings {
        /// Only this game's ratings (squares, napoleonic, civilwar1863,
        /// brothersatwar).
        #[arg(long)]
        game: Option<String>,
    },
    /// Show one game: its board, state and pending choices.
    Show {
        /// The game number.
        game: i64,
        /// Also write the board as a PNG picture to this file, from the
        /// seat of the player to act.
        #[arg(long, value_name = "FILE")]
        png: Option<std::path::PathBuf>,
        /// Also write the board as an SVG picture to this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
    },
    /// Copy the database to PATH while the service runs: one consistent
    /// snapshot, through SQLite's online backup.
    Backup {
        /// Where the copy goes.
        path: std::path::PathBuf,
        /// Replace PATH when it exists (otherwise an existing PATH is an
        /// error and is left alone).
        #[arg(long)]
        force: bool,
    },
    /// Give the space of deleted rows (sent mail past [store]
    /// keep_sent_days) back to the disk. The service waits while it runs.
    Vacuum,
    /// Print a game's record (docs/record-format.md), or its JSON export.
    Export {
        /// The game number.
        game: i64,
        /// Print the JSON export instead of the record.
        #[arg(long)]
        json: bool,
    },
}

/// `orderly scenario ...`.
#[derive(Subcommand)]
enum ScenarioCommand {
    /// Check a scenario file: print `FILE:LINE: problem` for each problem
    /// and exit 1, or a one-line summary when it is fine.
    Check {
        /// The scenario file (TOML).
        file: std::path::PathBuf,
    },
}

/// Reads and checks a Brothers at War scenario file, printing the
/// summary when it is fine; the problems, by line, when not.
fn check_scenario(file: &std::path::Path) -> anyhow::Result<Result<(), Vec<(usize, String)>>> {
    Ok(read_scenario(file)?.map(|checked| println!("{}: fine", checked.summary())))
}

/// Reads and checks a Brothers at War scenario file: the checked battle,
/// or its problems by line. Reads at most one byte past the format's size
/// limit, so that a huge file is refused without being read whole.
fn read_scenario(
    file: &std::path::Path,
) -> anyhow::Result<Result<orderly::games::brothers_at_war::scenario::Checked, Vec<(usize, String)>>>
{
    use orderly::games::brothers_at_war::scenario::{self, read::MAX_FILE_BYTES};
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes))
        .with_context(|| format!("reading {}", file.display()))?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
            return Ok(Err(vec![(line, "not UTF-8 text".to_owned())]));
        }
    };
    Ok(scenario::load(&text)
        .map_err(|problems| problems.into_iter().map(|p| (p.line, p.message)).collect()))
}

/// What `orderly engine` is asked for, before the game is known.
struct EngineArgs {
    bot: Option<u8>,
    first: Option<String>,
    scenario: Option<String>,
    position: Option<String>,
    board: Option<String>,
    choices: bool,
    seed: Option<u64>,
    picture: Option<std::path::PathBuf>,
}

/// The game `orderly engine` plays: `--game`, else the name heading the
/// `--position` string (`napoleonic 6IG2L2AH3CK/...`), else the game that
/// reads the position (`cw1863 1; ...`), else SQUARES.
fn engine_game(game: Option<String>, position: Option<&str>) -> String {
    game.or_else(|| {
        let position = position?;
        let head = position.split_whitespace().next()?;
        orderly::games::hosted::canonical(head)
            // A game whose position string has its own head (`cw1863 1;
            // ...`) is the one that reads it.
            .or_else(|| {
                orderly::games::hosted::HOSTED
                    .iter()
                    .find(|h| (h.from_position)(position).is_ok())
                    .map(|h| h.name)
            })
            .map(str::to_string)
    })
    .unwrap_or_else(|| GAMES[0].to_string())
}

/// The seat a side word names in `game`: the game's own name for it, or
/// `north`/`south`, which every game has.
fn seat_word(game: &Hosted, flag: &str, word: &str) -> anyhow::Result<Seat> {
    if let Some(seat) = game.seat_named(word) {
        return Ok(seat);
    }
    match word.to_ascii_lowercase().as_str() {
        "north" => Ok(Seat::North),
        "south" => Ok(Seat::South),
        _ => anyhow::bail!(
            "{flag} takes a side of {}: {} or {} (or north or south), not {word:?}",
            game.name,
            game.seat_name(Seat::North).to_ascii_lowercase(),
            game.seat_name(Seat::South).to_ascii_lowercase(),
        ),
    }
}

/// The scenario id `--scenario` names: an id the game lists, or a
/// scenario file, which is read, checked and registered first (its id).
fn engine_scenario(hosted: &Hosted, scenario: &str) -> anyhow::Result<String> {
    if (hosted.scenarios)().iter().any(|id| id == scenario) {
        return Ok(scenario.to_string());
    }
    let path = std::path::Path::new(scenario);
    if !path.is_file() {
        anyhow::bail!(
            "{} has no scenario {scenario:?} and no such file: it has {}",
            hosted.name,
            (hosted.scenarios)().join(", ")
        );
    }
    let checked = match read_scenario(path)? {
        Ok(checked) => checked,
        Err(problems) => {
            for (line, message) in &problems {
                eprintln!("{}:{line}: {message}", path.display());
            }
            anyhow::bail!("{} has {} problems", path.display(), problems.len());
        }
    };
    let battle = orderly::games::brothers_at_war::scenario::registry::register(checked.scenario)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(battle.scenario.id.clone())
}

/// `orderly engine` for `hosted`.
fn engine(hosted: &Hosted, args: EngineArgs) -> anyhow::Result<()> {
    let mut game = match &args.position {
        Some(text) => (hosted.from_position)(text)
            .with_context(|| format!("reading the position {text:?}"))?,
        None => (hosted.new)(&GameOptions {
            first: match &args.first {
                Some(word) => seat_word(hosted, "--first", word)?,
                None => Seat::North,
            },
            seed: None,
            scenario: match &args.scenario {
                Some(s) => Some(engine_scenario(hosted, s)?),
                None => None,
            },
        }),
    };
    let board = match args.board.as_deref() {
        None => None,
        Some(view) if view.eq_ignore_ascii_case("mover") => Some(None),
        Some(view) => Some(Some(seat_word(hosted, "--board", view)?)),
    };
    let stdin = io::stdin();
    let mut out = BufWriter::new(io::stdout().lock());
    if let Some(dir) = &args.picture {
        std::fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
    }
    let extras = orderly::engine_tool::Extras {
        board,
        choices: args.choices,
        seed: args.seed,
        pictures: args.picture.as_deref(),
    };
    if let Some(level) = args.bot.and_then(orderly::bot::Level::new) {
        if !orderly::bot::plays(hosted.name) {
            anyhow::bail!("the computer does not play {} yet", hosted.name);
        }
        let seed = args.seed.unwrap_or(0);
        let Some(chosen) = orderly::bot::order_for(game.as_ref(), level, seed) else {
            anyhow::bail!("nobody is to decide: the game is over");
        };
        writeln!(
            out,
            "bot level {level} seed {seed}: {} ({} rounds, {} through it, expects {:.2})",
            chosen.order, chosen.rounds, chosen.visits, chosen.expected
        )?;
        let line = format!("{}\n", chosen.order);
        orderly::engine_tool::run_with(game.as_mut(), line.as_bytes(), &mut out, extras)?;
        return Ok(());
    }
    orderly::engine_tool::run_with(game.as_mut(), stdin.lock(), &mut out, extras)?;
    Ok(())
}

fn service(
    config: Option<&std::path::Path>,
    clock: Clock,
) -> anyhow::Result<orderly::service::Service> {
    let config = orderly::config::Config::load(config)?;
    let mut service = orderly::service::Service::open(config).context("starting the service")?;
    service.set_clock(clock);
    Ok(service)
}

/// The configured database, which must exist already: `backup` and
/// `vacuum` of a path with nothing there would only make an empty one.
fn open_store(config: Option<&std::path::Path>) -> anyhow::Result<orderly::store::Store> {
    let config = orderly::config::Config::load(config)?;
    let path = &config.store.path;
    if !path.exists() {
        anyhow::bail!("there is no database at {}", path.display());
    }
    orderly::store::Store::open(path).with_context(|| format!("opening {}", path.display()))
}

/// What SIGINT and SIGTERM do. The handlers are installed before anything
/// else happens, so a signal that comes while the daemon is still starting
/// stops it cleanly instead of killing it (exit 143).
struct Signals {
    /// Set by either signal: the daemon finishes its mail and stops.
    stop: Arc<AtomicBool>,
    /// When set, either signal ends the process as if unhandled: every
    /// command but the daemon, which has a clean stop of its own.
    die: Arc<AtomicBool>,
}

impl Signals {
    fn install() -> anyhow::Result<Signals> {
        let signals = Signals {
            stop: Arc::new(AtomicBool::new(false)),
            die: Arc::new(AtomicBool::new(false)),
        };
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            // The default action must be registered first to run first.
            signal_hook::flag::register_conditional_default(signal, Arc::clone(&signals.die))?;
            signal_hook::flag::register(signal, Arc::clone(&signals.stop))?;
        }
        Ok(signals)
    }

    /// Signals kill the process from now on; one that came already does so
    /// at once.
    fn die_on_signal(&self) {
        self.die.store(true, Ordering::SeqCst);
        if self.stop.load(Ordering::SeqCst) {
            std::process::exit(130);
        }
    }
}

/// A one-shot command whose reader goes away (`orderly engine | head`)
/// ends quietly, the way other Unix tools do, instead of reporting a broken
/// pipe or panicking in `print!`. The daemon keeps Rust's default (SIGPIPE
/// ignored): a peer that hangs up must be an error it handles, never its end.
fn quiet_on_closed_pipe() {
    // SAFETY: called from main before any other thread is started; SIG_DFL
    // is a valid disposition for SIGPIPE and installs no handler code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> anyhow::Result<()> {
    let signals = Signals::install()?;
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve) {
        signals.die_on_signal();
        quiet_on_closed_pipe();
    }
    let clock = Clock::from_flag_or_env(cli.now.as_deref())?;
    if matches!(cli.command, Command::Serve | Command::Poll { .. }) {
        // Under systemd, stderr is the journal (it says so in
        // JOURNAL_STREAM): the journal stamps each line itself, and colour
        // codes would only be noise there.
        let journal = std::env::var_os("JOURNAL_STREAM").is_some();
        let log = tracing_subscriber::fmt()
            .with_env_filter(
                tracing_subscriber::EnvFilter::try_from_default_env()
                    .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
            )
            .with_writer(io::stderr)
            .with_ansi(!journal && std::io::IsTerminal::is_terminal(&io::stderr()));
        if journal {
            log.without_time().init();
        } else {
            log.init();
        }
    }
    let config = cli.config.as_deref();
    match cli.command {
        Command::Serve => {
            service(config, clock)?.serve(&signals.stop)?;
        }
        Command::Poll { .. } => {
            let report = service(config, clock)?.poll_once()?;
            eprintln!(
                "processed {} mail(s), sent {}, failed {}",
                report.processed, report.sent, report.failed
            );
        }
        Command::CheckMail => {
            let config = orderly::config::Config::load(config)?;
            let (report, ok) = orderly::service::admin::check_mail(&config);
            print!("{report}");
            if !ok {
                std::process::exit(1);
            }
        }
        Command::Mod { words } => {
            let mut s = service(config, clock)?;
            if words.len() == 2 && words[0].eq_ignore_ascii_case("key") {
                println!("{}", s.moderator_address(&words[1]));
            } else {
                let who = std::env::var("USER").unwrap_or_else(|_| "admin".into());
                let now = s.now();
                let report = s.moderate(&words.join(" "), &format!("cli:{who}"), now)?;
                println!("{report}");
            }
        }
        Command::Games => {
            let mut s = service(config, clock)?;
            print!("{}", orderly::service::admin::games(s.store())?);
        }
        Command::Ratings { game } => {
            let mut s = service(config, clock)?;
            let now = s.now();
            let config = s.config().clone();
            match orderly::service::ratings::ratings_report(
                s.store(),
                &config,
                game.as_deref(),
                now,
            )? {
                Ok(report) => print!("{report}"),
                Err(why) => anyhow::bail!(why),
            }
        }
        Command::Show { game, png, svg } => {
            let mut s = service(config, clock)?;
            let site = s.config().address_parts().1.to_string();
            print!("{}", orderly::service::admin::show(s.store(), game, &site)?);
            if png.is_some() || svg.is_some() {
                let Some(picture) = orderly::service::admin::show_picture(s.store(), game, &site)?
                else {
                    anyhow::bail!("game {game} has no picture: its game is not drawn yet");
                };
                if let Some(path) = svg {
                    std::fs::write(&path, &picture)
                        .with_context(|| format!("writing {}", path.display()))?;
                    println!("picture {}", path.display());
                }
                if let Some(path) = png {
                    let png = orderly::picture::png(&picture)?;
                    std::fs::write(&path, &png.bytes)
                        .with_context(|| format!("writing {}", path.display()))?;
                    println!(
                        "picture {} ({} x {} pixels, {} bytes)",
                        path.display(),
                        png.width,
                        png.height,
                        png.bytes.len()
                    );
                }
            }
        }
        Command::Export { game, json } => {
            let mut s = service(config, clock)?;
            let site = s.config().address_parts().1.to_string();
            print!(
                "{}",
                orderly::service::admin::export(s.store(), game, json, &site)?
            );
        }
        Command::Backup { path, force } => {
            let pages = open_store(config)?
                .backup_to(&path, force)
                .with_context(|| format!("backing up to {}", path.display()))?;
            println!("copied {pages} pages to {}", path.display());
        }
        Command::Vacuum => {
            let (before, after) = open_store(config)?.vacuum().context("vacuuming")?;
            println!(
                "{} bytes before, {} after ({} pages were free)",
                before.file_bytes(),
                after.file_bytes(),
                before.free_pages
            );
        }
        Command::Engine {
            game,
            first,
            position,
            board,
            choices,
            scenario,
            seed,
            bot,
            picture,
        } => {
            let name = engine_game(game, position.as_deref());
            let args = EngineArgs {
                bot,
                first,
                scenario,
                position,
                board,
                choices,
                seed,
                picture,
            };
            // --game is checked by clap, and a position's head only taken
            // when it names a hosted game: `name` always dispatches.
            match orderly::games::hosted::find(&name) {
                Some(hosted) => engine(hosted, args)?,
                None => anyhow::bail!("orderly does not host {name:?}"),
            }
        }
        Command::Verify { record } => {
            let text = std::fs::read_to_string(&record)
                .with_context(|| format!("reading {}", record.display()))?;
            let (report, ok) = orderly::record::verify_report(&text);
            if ok {
                print!("{report}");
            } else {
                eprint!("{report}");
                std::process::exit(1);
            }
        }
        Command::Scenario(ScenarioCommand::Check { file }) => {
            let problems = check_scenario(&file)?;
            if let Err(problems) = problems {
                for (line, message) in problems {
                    eprintln!("{}:{line}: {message}", file.display());
                }
                std::process::exit(1);
            }
        }
        Command::Replay(args) => {
            let replayed =
                orderly::replay_tool::run(&args, &mut io::stdout().lock(), &mut io::stderr())?;
            if !replayed {
                std::process::exit(1);
            }
        }
    }
    Ok(())
}
