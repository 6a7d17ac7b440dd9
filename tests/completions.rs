//! `xpat-solver completions SHELL` and `xpat-solver manpage`, run as a user
//! installs them: the bash script sourced into a real bash and asked to
//! complete, the page rendered by `man -l` (or groff, where man is not
//! installed; .ci/run installs man-db and renders it too).

mod common;

use std::fs::File;
use std::process::Command;

use common::{TempDir, bin, run, run_to};

/// Runs `script` in bash after sourcing the completion script, as the
/// README says to install it; returns its stdout, the exit code checked.
fn in_bash_with_completions(script: &str) -> String {
    let binary = bin().into_string().expect("a UTF-8 path to the binary");
    let all = format!("source <('{binary}' completions bash) || exit 9\n{script}");
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &all])
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "bash: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// What bash offers for the words typed so far (the last one being
/// completed), by the function the script registered.
fn offered(words: &[&str]) -> Vec<String> {
    let script = format!(
        "COMP_WORDS=({words})\nCOMP_CWORD={last}\nCOMP_LINE=\"${{COMP_WORDS[*]}}\"\n\
         COMP_POINT=${{#COMP_LINE}}\n\
         f=$(complete -p xpat-solver | sed -n 's/.* -F \\([^ ]*\\) .*/\\1/p')\n\
         \"$f\" xpat-solver \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        words = words.join(" "),
        last = words.len() - 1
    );
    in_bash_with_completions(&script)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_bash_script_loads_and_registers_the_command() {
    let said = in_bash_with_completions("complete -p xpat-solver");
    assert!(said.trim_end().ends_with(" xpat-solver"), "{said}");
}

#[test]
fn bash_completes_options_and_the_commands() {
    let options = offered(&["xpat-solver", "fc.1", "--se"]);
    assert_eq!(options, ["--search"], "{options:?}");
    let rules = offered(&["xpat-solver", "--fr"]);
    assert!(rules.contains(&"--from-xpat2".to_string()), "{rules:?}");
    let commands = offered(&["xpat-solver", "su"]);
    assert!(commands.contains(&"survey".to_string()), "{commands:?}");
    let survey = offered(&["xpat-solver", "survey", "--res"]);
    assert_eq!(survey, ["--resume"], "{survey:?}");
    let shells = offered(&["xpat-solver", "completions", "f"]);
    assert_eq!(shells, ["fish"], "{shells:?}");
}

#[test]
fn every_shell_has_a_script_that_names_the_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let r = run(["completions", shell]);
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        assert!(r.stdout.contains("xpat-solver"), "{shell}");
        assert!(
            r.stdout.contains("from-xpat2"),
            "{shell}: the options are in"
        );
    }
}

#[test]
fn a_bad_shell_or_word_is_one_line_and_exit_3() {
    for args in [
        &["completions", "tcsh"][..],
        &["completions"],
        &["completions", "bash", "zsh"],
        &["manpage", "nothing"],
        &["manpage", "--out"],
        &["manpage", "--bogus"],
    ] {
        let r = run(args);
        assert_eq!(r.code, 3, "{args:?}");
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.starts_with("xpat-solver: "), "{}", r.stderr);
        assert!(r.stderr.contains("usage: xpat-solver "), "{}", r.stderr);
    }
}

#[test]
fn help_is_asked_not_an_error() {
    let r = run(["completions", "--help"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("SHELL"), "{}", r.stdout);
    let r = run(["--help"]);
    assert!(
        r.stdout.contains("xpat-solver completions SHELL"),
        "the main help names it"
    );
}

#[test]
fn a_full_stdout_is_exit_3() {
    let full = File::options().write(true).open("/dev/full").unwrap();
    let r = run_to(["completions", "bash"], Some(full), None);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stderr.contains("cannot write to standard output"),
        "{}",
        r.stderr
    );
}

/// The page rendered as a reader sees it: by `man -l`, else by groff's man
/// macros, else `None` (neither installed: the structure is checked).
/// Warnings are asked for, and any fails the test.
fn rendered(page: &std::path::Path) -> Option<String> {
    let tries: [(&str, Vec<&str>); 2] = [
        ("man", vec!["--warnings", "-l"]),
        ("groff", vec!["-man", "-Tutf8", "-ww"]),
    ];
    for (program, args) in tries {
        let out = match Command::new(program)
            .args(&args)
            .arg(page)
            .env("MANWIDTH", "80")
            .output()
        {
            Ok(out) => out,
            Err(_) => continue, // not installed
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{program}: {stderr}");
        assert!(!stderr.contains("warning"), "{program}: {stderr}");
        return Some(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    None
}

#[test]
fn the_man_pages_render_with_their_sections() {
    let dir = TempDir::new("manpage");
    for (command, title, option) in [
        (None, "xpat-solver", "--from-xpat2"),
        (Some("survey"), "xpat-solver-survey", "--resume"),
        (Some("completions"), "xpat-solver-completions", "SHELL"),
        (Some("manpage"), "xpat-solver-manpage", "--out"),
    ] {
        let page = dir.join(&format!("{title}.1"));
        let mut args = vec!["manpage".to_string(), "--out".into()];
        args.push(page.to_str().unwrap().into());
        args.extend(command.map(String::from));
        let r = run(&args);
        assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
        let roff = std::fs::read_to_string(&page).unwrap();
        assert!(roff.contains(&format!("\n.TH {title} 1 ")), "{title}");
        for section in ["NAME", "SYNOPSIS", "OPTIONS"] {
            assert!(
                roff.contains(&format!("\n.SH {section}\n")),
                "{title}: {section}"
            );
        }
        if let Some(text) = rendered(&page) {
            for words in ["NAME", "SYNOPSIS", "OPTIONS", option] {
                assert!(text.contains(words), "{title}: {words}\n{text}");
            }
        }
    }
}

#[test]
fn the_page_on_stdout_is_the_page_written_to_a_file() {
    let dir = TempDir::new("manpage-same");
    let page = dir.join("xpat-solver.1");
    let r = run(["manpage", "-out", page.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(&page).unwrap(),
        run(["manpage"]).stdout
    );
    let text = run(["manpage"]).stdout;
    assert!(
        text.contains("\n.SH DETAILS\n.nf\n"),
        "the after-help unfilled"
    );
    assert!(
        text.contains("xpat\\-solver\\-survey(1)"),
        "the survey's page named"
    );
}

#[test]
fn an_unwritable_out_is_exit_3_and_nothing_written() {
    let dir = TempDir::new("manpage-nowhere");
    let page = dir.join("missing/xpat-solver.1");
    let r = run(["manpage", "--out", page.to_str().unwrap()]);
    assert_eq!(r.code, 3);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(!page.exists());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no temp file left"
    );
}
