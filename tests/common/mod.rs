//! Helpers shared by the integration tests: run the real binary, read its
//! verdict, and make scratch directories without a crate for it.

#![allow(dead_code)] // each test file uses its own part of this module

use std::ffi::{OsStr, OsString};
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

/// Runs the binary under test ([`bin`]).
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
    let mut command = Command::new(bin());
    command.args(&args);
    if let Some(file) = stdout {
        command.stdout(file);
    }
    if let Some(file) = stderr {
        command.stderr(file);
    }
    finish(command, &args)
}

/// Runs the binary in `dir`: what it writes under a relative name goes
/// there.
pub fn run_in<I, S>(dir: &Path, args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let mut command = Command::new(bin());
    command.args(&args).current_dir(dir);
    finish(command, &args)
}

/// The binary under test: the one built for this test run, or the one
/// `XPAT_SOLVER_UNDER_TEST` names (to show a test fails on an older build).
pub fn bin() -> OsString {
    std::env::var_os("XPAT_SOLVER_UNDER_TEST")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_xpat-solver").into())
}

/// Runs the binary with its address space limited to `kb` kilobytes
/// (`ulimit -v`): an allocation past it fails, as on a machine without
/// the memory.
pub fn run_limited<I, S>(kb: u64, args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let mut command = Command::new("sh");
    command
        .args(["-c", "ulimit -v \"$0\" && exec \"$@\""])
        .arg(kb.to_string())
        .arg(bin())
        .args(&args);
    finish(command, &args)
}

/// The least address space the binary needs to show a deal, in kilobytes
/// (a whole number of megabytes): what it takes to start at all, whatever
/// it then does.
pub fn least_memory_to_start() -> u64 {
    (1..256)
        .map(|mb| mb * 1024)
        .find(|&kb| {
            let out = Command::new("sh")
                .args(["-c", "ulimit -v \"$0\" && exec \"$1\" fc.1"])
                .arg(kb.to_string())
                .arg(bin())
                .output()
                .expect("cannot start sh");
            out.status.success()
        })
        .expect("the binary does not start in 256 MB")
}

/// Waits for `command` and reads what it did; a run killed by a signal
/// (an abort: exit 134 in a shell) or that panicked fails the test.
fn finish(mut command: Command, args: &[std::ffi::OsString]) -> Run {
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

/// `xpat-solver survey ARGS`.
pub fn survey(args: &[&str]) -> Run {
    run(std::iter::once("survey").chain(args.iter().copied()))
}

/// `r`, the survey run with `args`, refused as bad input: exit 3, one
/// line on stderr, the survey's, saying `says`, and nothing on stdout.
pub fn assert_survey_refused(r: &Run, args: &[&str], says: &str) {
    assert_eq!(r.code, 3, "{args:?}: {r:?}");
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: {r:?}");
    assert!(
        lines[0].starts_with("xpat-solver survey: ") && lines[0].contains(says),
        "{args:?}: {r:?}"
    );
    assert!(r.stdout.is_empty(), "{args:?}: {r:?}");
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

/// A character device to offer as an output, never a real one of `/dev`:
/// a build that wrote through a rename would replace it (as root, that
/// destroyed `/dev/null`). As root, a null device made in `dir`; as
/// anyone else, `/dev/null`, whose directory they cannot write.
pub fn scratch_device(dir: &Path) -> PathBuf {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return PathBuf::from("/dev/null");
    }
    let path = dir.join("null-device");
    let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: `name` is a NUL-terminated string alive for the call; the
    // device numbers are those of /dev/null (1, 3).
    let made = unsafe { libc::mknod(name.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 3)) };
    assert_eq!(made, 0, "mknod: {}", std::io::Error::last_os_error());
    path
}

/// What a page's own script shows when opened with each fragment, as
/// `tests/hostile/page_in_node.js` runs it in node: (position shown,
/// cards drawn, error or `-`).
pub fn opened_with(page: &Path, fragments: &[String]) -> Vec<(String, usize, String)> {
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/page_in_node.js");
    let out = Command::new("node")
        .arg(&harness)
        .arg(page)
        .args(fragments)
        .output()
        .unwrap_or_else(|e| {
            panic!("this test runs the page's script in node, which cannot start ({e}): install it (apt-get install nodejs)")
        });
    assert!(
        out.status.success(),
        "node: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<(String, usize, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.splitn(4, '\t').collect();
            (
                fields[1].to_string(),
                fields[2].parse().unwrap(),
                fields[3].to_string(),
            )
        })
        .collect();
    assert_eq!(lines.len(), fragments.len(), "one line per fragment");
    lines
}
