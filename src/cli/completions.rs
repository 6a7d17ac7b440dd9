//! `xpat-solver completions SHELL` and `xpat-solver manpage [COMMAND]`:
//! the shell completion scripts and the manual pages, generated from the
//! very clap definitions that parse the command line (by `clap_complete`
//! and `clap_mangen`), so that neither can drift from the options.
//!
//! The program has no clap subcommands: `survey` is dispatched by its first
//! word, and the single-deal form is a command of its own. [`whole`] puts
//! them together as one command with subcommands, for the generators only.

use std::ffi::OsString;
use std::io::{ErrorKind, Write};
use std::path::PathBuf;

use clap::{Arg, ArgMatches, Command, value_parser};
use clap_complete::Shell;
use clap_mangen::Man;
use roff::{Roff, roman};

use super::{EXIT_SUCCES, EXIT_USAGE, args, output};

/// The program's name, as the scripts complete it and the pages title it.
const NAME: &str = "xpat-solver";
/// The first words that name these commands.
const COMPLETIONS: &str = "completions";
const MANPAGE: &str = "manpage";
/// The heading of the after-help's section: the games, exit codes,
/// examples and file formats (clap_mangen calls it EXTRA).
const DETAILS: &str = "DETAILS";

/// Runs `completions` or `manpage` when `args[1]` names one; `None` leaves
/// the command line to the other forms (a deal is `RULE.SEED`, never one
/// of these words). `Some` carries the exit code: 0, or 3 after one line
/// on stderr.
pub(super) fn run_if_asked(args: &[OsString]) -> Option<u8> {
    let word = args.get(1)?.to_str()?;
    if word != COMPLETIONS && word != MANPAGE {
        return None;
    }
    let mut whole = whole();
    whole.build();
    let mut command = whole.find_subcommand(word)?.clone();
    command.build();
    let words = args::normalize_dashes(&command, args[1..].iter().cloned());
    let matches = match command.try_get_matches_from_mut(words) {
        Ok(matches) => matches,
        Err(e) if e.use_stderr() => {
            let usage = command.render_usage().to_string();
            let usage = usage.trim_start_matches("Usage: ").trim();
            output::error(&format!(
                "{}; usage: {usage} (see {NAME} {word} --help)",
                args::one_line(&e.render().to_string())
            ));
            return Some(EXIT_USAGE);
        }
        Err(e) => return Some(super::print_asked(&e)),
    };
    Some(if word == COMPLETIONS {
        completions(&matches)
    } else {
        manpage(&whole, &matches)
    })
}

/// The whole program as one clap command: the single-deal command with
/// `survey`, `completions` and `manpage` as its subcommands. Each keeps
/// its own options, and no more: `survey --version` is not an option, so
/// the version is not propagated, and no `help` subcommand is added.
pub(super) fn whole() -> Command {
    args::command()
        .subcommand(xpat_solver::survey::args::command().name("survey"))
        .subcommand(completions_command())
        .subcommand(manpage_command())
        .disable_help_subcommand(true)
}

fn completions_command() -> Command {
    Command::new(COMPLETIONS)
        .about(
            "Write the completion script for SHELL to stdout, e.g. \
             `xpat-solver completions bash > ~/.local/share/bash-completion/completions/xpat-solver`",
        )
        .arg(
            Arg::new("shell")
                .value_name("SHELL")
                .required(true)
                .value_parser(value_parser!(Shell))
                .help("The shell whose script to write"),
        )
}

fn manpage_command() -> Command {
    Command::new(MANPAGE)
        .about(
            "Write the manual page (roff) to stdout, e.g. \
             `xpat-solver manpage > ~/.local/share/man/man1/xpat-solver.1`",
        )
        .arg(
            Arg::new("command")
                .value_name("COMMAND")
                .value_parser([COMPLETIONS, MANPAGE, "survey"])
                .help(
                    "The page of a command (xpat-solver-survey(1), ...) instead of xpat-solver(1)",
                ),
        )
        .arg(
            Arg::new("out")
                .long("out")
                .value_name("FILE")
                .value_parser(value_parser!(PathBuf))
                .help("Write the page to FILE, whole or not at all, instead of stdout"),
        )
}

/// `completions SHELL`: the script on stdout.
fn completions(matches: &ArgMatches) -> u8 {
    let Some(&shell) = matches.get_one::<Shell>("shell") else {
        return EXIT_USAGE; // required: clap refused its absence already
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut whole(), NAME, &mut script);
    if shell == Shell::Bash {
        script = bash_states_mended(&script);
    }
    to_stdout(&script)
}

/// clap_complete's bash script (4.6.11) spells a subcommand's state two
/// ways when the program's name has a hyphen: the loop that reads the
/// words reaches `xpat__solver__subcmd__survey`, the case that completes
/// it waits for `xpat__subcmd__solver__subcmd__survey`, so nothing after
/// `survey` completed (clap-rs/clap issues 6421 and 6529, open). The
/// labels are spelt as the loop spells them; once clap mends it, this
/// finds nothing to change (tests/completions.rs completes `survey --res`).
fn bash_states_mended(script: &[u8]) -> Vec<u8> {
    let misspelt = NAME.replace('-', "__subcmd__");
    let spelt = NAME.replace('-', "__");
    String::from_utf8_lossy(script)
        .replace(
            &format!("{misspelt}__subcmd__"),
            &format!("{spelt}__subcmd__"),
        )
        .into_bytes()
}

/// `manpage [COMMAND] [--out FILE]`: the page, on stdout or in FILE.
fn manpage(whole: &Command, matches: &ArgMatches) -> u8 {
    let page = match matches.get_one::<String>("command") {
        Some(name) => match whole.find_subcommand(name) {
            Some(command) => page(command.clone()),
            None => return EXIT_USAGE, // the value parser allows only subcommands
        },
        None => page(whole.clone()),
    };
    match matches.get_one::<PathBuf>("out") {
        Some(path) => match xpat_solver::output::write_atomically(path, &page) {
            Ok(()) => EXIT_SUCCES,
            Err(e) => {
                output::error(&format!("{e:#}"));
                EXIT_USAGE
            }
        },
        None => to_stdout(&page),
    }
}

/// The roff page of `command`: clap_mangen's sections, but the after-help
/// (the games' table, the exit codes, the examples, the file formats) under
/// DETAILS and unfilled, so its columns and examples keep their lines.
pub(super) fn page(command: Command) -> Vec<u8> {
    let details = command.get_after_help().map(|text| text.to_string());
    let subcommands = command.get_subcommands().next().is_some();
    // clap_mangen's version section unwraps the version: none, no section.
    let version = command.get_version().is_some() || command.get_long_version().is_some();
    let man = Man::new(command);
    let mut roff = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = (|| {
        man.render_title(&mut roff)?;
        man.render_name_section(&mut roff)?;
        man.render_synopsis_section(&mut roff)?;
        man.render_description_section(&mut roff)?;
        man.render_options_section(&mut roff)?;
        if subcommands {
            man.render_subcommands_section(&mut roff)?;
        }
        if let Some(details) = &details {
            unfilled_section(DETAILS, details).to_writer(&mut roff)?;
        }
        if version {
            man.render_version_section(&mut roff)?;
        }
        Ok::<(), std::io::Error>(())
    })();
    roff
}

/// A section of `text` as it is written, line for line.
fn unfilled_section(heading: &str, text: &str) -> Roff {
    let mut roff = Roff::new();
    roff.control("SH", [heading]).control("nf", []);
    for line in text.lines() {
        roff.text([roman(line)]);
    }
    roff.control("fi", []);
    roff
}

/// Writes `bytes` to stdout: exit 0, or 3 when stdout cannot take them (a
/// reader that went away asked for no more: 0, as `--help`).
fn to_stdout(bytes: &[u8]) -> u8 {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => {
            output::error(&format!("cannot write to standard output: {e}"));
            EXIT_USAGE
        }
        _ => EXIT_SUCCES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        line.split(' ').map(OsString::from).collect()
    }

    #[test]
    fn other_first_words_are_left_alone() {
        assert_eq!(run_if_asked(&words("x fc.1 -search a.sol")), None);
        assert_eq!(run_if_asked(&words("x survey fc 1-10")), None);
        assert_eq!(run_if_asked(&words("x")), None);
    }

    #[test]
    fn bad_words_are_usage_errors() {
        assert_eq!(run_if_asked(&words("x completions tcsh")), Some(EXIT_USAGE));
        assert_eq!(run_if_asked(&words("x completions")), Some(EXIT_USAGE));
        assert_eq!(run_if_asked(&words("x manpage nothing")), Some(EXIT_USAGE));
        assert_eq!(run_if_asked(&words("x manpage -out")), Some(EXIT_USAGE));
    }

    #[test]
    fn the_whole_command_holds_every_option_and_command() {
        let mut whole = whole();
        whole.build();
        for long in [
            "check",
            "search",
            "from-xpat2",
            "rules",
            "html",
            "max-states",
        ] {
            assert!(
                whole.get_arguments().any(|a| a.get_long() == Some(long)),
                "--{long}"
            );
        }
        let survey = whole.find_subcommand("survey").expect("survey");
        assert!(
            survey
                .get_arguments()
                .any(|a| a.get_long() == Some("resume"))
        );
        assert!(whole.find_subcommand(COMPLETIONS).is_some());
        assert!(whole.find_subcommand(MANPAGE).is_some());
    }

    #[test]
    fn the_page_has_its_sections_and_the_details_heading() {
        let page = String::from_utf8(page(whole())).unwrap();
        assert!(page.contains("\n.TH xpat-solver 1 "), "{}", &page[..80]);
        for section in ["NAME", "SYNOPSIS", "OPTIONS", "SUBCOMMANDS", "DETAILS"] {
            assert!(page.contains(&format!(".SH {section}\n")), "{section}");
        }
        assert!(!page.contains(".SH EXTRA"));
        let details = &page[page.find(".SH DETAILS\n.nf\n").expect("unfilled")..];
        assert!(details.contains("\nExamples:\n"), "the lines are kept");
        assert!(
            page.contains("xpat\\-solver\\-survey(1)"),
            "the survey's page is named"
        );
        assert!(
            page.contains("INSOLUBLE"),
            "the exit codes are in the details"
        );
    }

    #[test]
    fn every_command_has_a_page() {
        let mut whole = whole();
        whole.build();
        for command in whole.get_subcommands() {
            let page = String::from_utf8(page(command.clone())).unwrap();
            let title = format!("\n.TH xpat-solver-{} 1 ", command.get_name());
            assert!(page.contains(&title), "{title}");
            assert!(page.contains(".SH OPTIONS\n"), "{title}");
            assert!(!page.contains("\\-\\-version"), "{title}: no such option");
        }
    }

    #[test]
    fn a_page_without_a_version_has_no_version_section() {
        let page = String::from_utf8(page(Command::new("bare").about("x"))).unwrap();
        assert!(page.contains(".SH NAME\n") && !page.contains(".SH VERSION"));
    }
}
