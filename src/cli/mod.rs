//! The command line: `xpat-solver RULE.SEED [-check FILE | -search FILE]`.
//!
//! A thin layer in two steps, as ripgrep has them: [`args`] is what clap
//! reads, every value as typed; [`options`] checks it once and turns it
//! into [`Options`], which is all the rest of the program sees. Each mode
//! then runs in its own file ([`show`], [`replay`], [`solve`]) and maps its
//! outcome onto the exit protocol of SPEC §7: the last stdout line is the
//! verdict word, exit 0/1/2 carry it, and every usage or file error is one
//! line on stderr with exit 3 (never 2, which test scripts read as
//! INSOLUBLE).
//!
//! A new option goes in three places: a field of `RawArgs` (its text as
//! typed), a field of [`Options`] or of a [`Mode`] variant (its meaning),
//! and the line of `Options::try_from` that checks the one and fills the
//! other.

use std::ffi::OsString;
use std::io::ErrorKind;

/// Writes a line to stdout; `Err` when it cannot (see [`output::say`]).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::output::say(format_args!($($arg)*))
    };
}

mod args;
mod completions;
mod export;
mod files;
mod help;
mod options;
mod output;
mod page;
mod replay;
mod show;
mod signals;
mod solve;
mod start;

pub use options::{Game, Mode, Options};

use start::Start;
use xpat_solver::deal::Deal;

/// Exit code of `SUCCES`.
const EXIT_SUCCES: u8 = 0;
/// Exit code of `ECHEC` and `ECHEC k`.
const EXIT_ECHEC: u8 = 1;
/// Exit code of `INSOLUBLE`.
const EXIT_INSOLUBLE: u8 = 2;
/// Exit code for bad arguments and unreadable or unwritable files.
pub const EXIT_USAGE: u8 = 3;

/// Reads the command line (program name first) into [`Options`]. `Err`
/// carries the exit code once there is nothing left to run: 0 after the
/// help, the version, `completions` or `manpage`, 3 after a usage error said in one line on stderr.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Options, u8> {
    let args: Vec<OsString> = args.into_iter().collect();
    if let Some(code) = completions::run_if_asked(&args) {
        return Err(code);
    }
    let raw = match args::parse(args) {
        Ok(raw) => raw,
        Err(args::Stop::Asked(help)) => return Err(print_asked(&help)),
        Err(args::Stop::Usage(message)) => return Err(usage_error(&message)),
    };
    Options::try_from(raw).map_err(|options::UsageError(message)| usage_error(&message))
}

/// Says a usage error, with the short usage after it; exit 3.
fn usage_error(message: &str) -> u8 {
    output::error(&format!("{message}; {}", help::USAGE_LINE));
    EXIT_USAGE
}

/// Prints `--help` or `--version`: exit 0, or 3 when stdout cannot take it
/// (a reader that went away asked for no more: 0).
fn print_asked(help: &clap::Error) -> u8 {
    match help.print() {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => {
            output::error(&format!("cannot write to standard output: {e}"));
            EXIT_USAGE
        }
        _ => EXIT_SUCCES,
    }
}

/// Runs what the options ask; returns the exit code of SPEC §7.
pub fn run(options: Options) -> u8 {
    if let Err(e) = signals::install() {
        output::error(&format!("cannot handle signals: {e}"));
        return EXIT_USAGE;
    }
    let game = &options.game;
    let foundation = options.foundation;
    let result = match &options.mode {
        Mode::Show => match game {
            Game::Deal(id) => show::run(&Deal::new(*id).with_foundation(foundation)),
            Game::Save(_) => Err(anyhow::anyhow!(
                "'--from-xpat2' needs '--check FILE' or '--search FILE'"
            )),
        },
        Mode::Check { file, export, html } => Start::new(game, foundation)
            .and_then(|start| replay::run(&start, file, export.as_ref(), html.as_deref())),
        Mode::Search {
            file,
            limits,
            spill,
            components,
            export,
            html,
        } => Start::new(game, foundation).and_then(|start| {
            let out = solve::Outputs {
                file,
                export: export.as_ref(),
                html: html.as_deref(),
                spill: spill.as_ref(),
                components: *components,
            };
            solve::run(&start, limits, &out)
        }),
    };
    result.unwrap_or_else(|e| {
        output::error(&format!("{e:#}"));
        EXIT_USAGE
    })
}

#[cfg(test)]
mod tests;
