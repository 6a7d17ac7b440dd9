//! Helpers shared by the integration tests: run the real binary, read its
//! verdict, and make scratch directories without a crate for it.

#![allow(dead_code)] // each test file uses its own part of this module

use std::ffi::OsStr;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What one run of `xpat-solver` did.
#[derive(Debug)]
pub struct Run {
    /// The exit code; a run killed by a signal (a panic under
    /// `panic = "abort"`, say) fails the test at once.
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The last line of stdout: the verdict of SPEC §7.
    pub fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or("")
    }

    /// The line before the verdict: `-check`'s reason.
    pub fn reason(&self) -> &str {
        let lines: Vec<&str> = self.stdout.lines().collect();
        match lines.len() {
            0 | 1 => "",
            n => lines[n - 2],
        }
    }

    /// The verdict and exit code together, for one `assert_eq!`.
    pub fn verdict(&self) -> (&str, i32) {
        (self.last_line(), self.code)
    }
}

/// Runs the binary built for this test run.
pub fn run<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_to(args, None, None)
}

/// Runs the binary with stdout or stderr sent to `stdout` or `stderr`
/// (a file such as `/dev/full`) instead of captured; what goes there is
/// not in the [`Run`].
pub fn run_to<I, S>(args: I, stdout: Option<File>, stderr: Option<File>) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let mut command = Command::new(env!("CARGO_BIN_EXE_xpat-solver"));
    command.args(&args);
    if let Some(file) = stdout {
        command.stdout(file);
    }
    if let Some(file) = stderr {
        command.stderr(file);
    }
    let out = command.output().expect("cannot start xpat-solver");
    let run = Run {
        code: out.status.code().unwrap_or_else(|| {
            panic!(
                "xpat-solver {args:?} was killed: {:?}\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )
        }),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        !run.stderr.contains("panicked"),
        "xpat-solver {args:?} panicked: {}",
        run.stderr
    );
    run
}

/// Is this stdout line one of SPEC §7's verdict words?
pub fn is_verdict(line: &str) -> bool {
    matches!(line, "SUCCES" | "ECHEC" | "INSOLUBLE")
        || line
            .strip_prefix("ECHEC ")
            .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

/// A path as a command-line argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// How many moves a page written by `--html` holds, by its moves in words
/// (a JSON list of strings in the page's data).
pub fn words_on_the_page(html: &str) -> usize {
    let start = html.find("\"words\":[\"").expect("the moves in words") + 9;
    let end = start + html[start..].find("\"]").expect("the end of the words");
    html[start..end].matches("\",\"").count() + 1
}

/// The project's `solutions/` directory.
pub fn solutions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("solutions")
}

/// A fresh directory under the system's temporary directory, removed when
/// dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "xpat-solver-test-{}-{label}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("cannot create a scratch directory");
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
