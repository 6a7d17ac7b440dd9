//! Where the rows go: a CSV file (`--out`), written a whole row at a time,
//! or stdout; and reading a file back to resume it.
//!
//! Each row is one `write` of the whole line to a file opened for
//! appending, as soon as its deal is done: the kernel appends it whole, so
//! a crash or `kill -9` loses at most the rows of the deals then running,
//! and can tear at most the last line (a write cut short by the kill, or a
//! lost disk page after a power cut). Resuming cuts a torn last line off
//! and its deal is redone, so each deal ends up in the file exactly once.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use super::row::{HEADER, Row, WIDE_HEADER};

/// An open destination for rows.
pub struct Table {
    to: Sink,
    /// Rows carry the columns of [`WIDE_HEADER`] (`--foundation free` or
    /// `both`).
    wide: bool,
}

enum Sink {
    Stdout,
    File { file: File, path: PathBuf },
}

/// The header of a file whose rows are `wide` or not.
fn header(wide: bool) -> &'static str {
    if wide { WIDE_HEADER } else { HEADER }
}

/// What a file to resume held.
#[derive(Debug, PartialEq)]
pub struct Resumed {
    pub rows: Vec<Row>,
    /// A torn last line that was cut off (its deal is redone).
    pub torn: Option<String>,
}

impl Table {
    /// Rows to stdout, after the header.
    pub fn stdout(wide: bool) -> std::io::Result<Table> {
        let mut table = Table {
            to: Sink::Stdout,
            wide,
        };
        table.write_line(&format!("{}\n", header(wide)))?;
        Ok(table)
    }

    /// A new file; an existing one is never overwritten.
    pub fn create(path: &Path, wide: bool) -> Result<Table, String> {
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(path)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => format!(
                    "'{}' exists: add --resume to continue that survey, or choose another file",
                    path.display()
                ),
                _ => format!("cannot create '{}': {e}", path.display()),
            })?;
        let mut table = Table {
            to: Sink::File {
                file,
                path: path.to_owned(),
            },
            wide,
        };
        table
            .write_line(&format!("{}\n", header(wide)))
            .map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
        Ok(table)
    }

    /// Opens a survey file to add to it: reads its rows, cuts a torn last
    /// line off, and writes the header if the file is new or empty. A file
    /// of the other width was surveyed under another `--foundation`: its
    /// verdicts do not answer this survey's question, so it is refused.
    pub fn resume(path: &Path, wide: bool) -> Result<(Table, Resumed), String> {
        if !path.exists() {
            return Ok((
                Table::create(path, wide)?,
                Resumed {
                    rows: Vec::new(),
                    torn: None,
                },
            ));
        }
        let fail = |e: std::io::Error| format!("cannot resume '{}': {e}", path.display());
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .map_err(fail)?;
        let read = decode(path, &mut file)?;
        if read.wide.is_some_and(|w| w != wide) {
            return Err(format!(
                "cannot resume '{}': it was surveyed {}; resume it with the same --foundation",
                path.display(),
                match read.wide {
                    Some(true) =>
                        "with --foundation free or both (its header has foundation,forced)",
                    _ => "with forced foundation moves (its header has 8 columns)",
                }
            ));
        }
        file.set_len(read.keep as u64).map_err(fail)?;
        let mut table = Table {
            to: Sink::File {
                file,
                path: path.to_owned(),
            },
            wide,
        };
        if read.keep == 0 {
            table
                .write_line(&format!("{}\n", header(wide)))
                .map_err(fail)?;
        }
        Ok((table, read.resumed))
    }

    /// Writes one row, whole, and hands it to the system at once.
    pub fn write(&mut self, row: &Row) -> std::io::Result<()> {
        let line = row.line(self.wide);
        self.write_line(&line)
    }

    fn write_line(&mut self, line: &str) -> std::io::Result<()> {
        match &mut self.to {
            Sink::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(line.as_bytes())?;
                out.flush()
            }
            Sink::File { file, .. } => file.write_all(line.as_bytes()),
        }
    }

    /// Asks the disk to keep what was written (at the end of a run, and
    /// before exiting on a signal).
    pub fn sync(&self) {
        if let Sink::File { file, .. } = &self.to {
            let _ = file.sync_data();
        }
    }

    /// The file, for messages; `None` for stdout.
    pub fn path(&self) -> Option<&Path> {
        match &self.to {
            Sink::Stdout => None,
            Sink::File { path, .. } => Some(path),
        }
    }
}

/// Reads a survey file without changing it (`--summary`): a torn last
/// line is left out, as its deal has no verdict.
pub fn read(path: &Path) -> Result<Resumed, String> {
    let file = File::open(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    Ok(decode(path, file)?.resumed)
}

/// Reads a survey file as a stream, a line at a time, never more than
/// [`LINE_CAP`] bytes of one: a device such as `/dev/zero` or a binary
/// file is refused at its first line, not read into memory whole.
fn decode(path: &Path, input: impl Read) -> Result<Contents, String> {
    read_rows(BufReader::new(input)).map_err(|e| match e {
        Unreadable::Io(e) => format!("cannot read '{}': {e}", path.display()),
        Unreadable::Bad(why) => format!("'{}' {why}", path.display()),
    })
}

/// The longest line of a survey file: its rows hold well under 200 bytes,
/// so a longer line is no row, not even a torn one.
const LINE_CAP: usize = 1024;

/// Why a survey file cannot be read back.
#[derive(Debug)]
enum Unreadable {
    Io(std::io::Error),
    /// It is not a survey file, or someone edited it: why.
    Bad(String),
}

impl From<std::io::Error> for Unreadable {
    fn from(e: std::io::Error) -> Self {
        Unreadable::Io(e)
    }
}

/// A file's rows, and how many of its bytes to keep.
#[derive(Debug, PartialEq)]
struct Contents {
    resumed: Resumed,
    /// Bytes up to the end of the last whole line; 0 when even the header
    /// is missing or torn (it is then written again).
    keep: usize,
    /// Whether the header is [`WIDE_HEADER`]; `None` without a header.
    wide: Option<bool>,
}

/// Reads a survey file's lines: the header, then whole rows; a last line
/// without its newline is torn. Any other line that is not a row is an
/// error: this is not a survey file, or someone edited it.
fn read_rows(mut input: impl BufRead) -> Result<Contents, Unreadable> {
    let not_ours = || {
        Unreadable::Bad(format!(
            "is not a survey file: its first line is not '{HEADER}' (or with ,foundation,forced)"
        ))
    };
    let mut line = Vec::with_capacity(LINE_CAP + 1);
    let (mut keep, mut number, mut wide) = (0, 0, None);
    // The header's columns, once it is read: every row must have as many.
    let mut columns = 0;
    let (mut rows, mut torn) = (Vec::new(), None);
    loop {
        line.clear();
        let read = (&mut input)
            .take(LINE_CAP as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if read == 0 {
            break;
        }
        number += 1;
        let whole = line.last() == Some(&b'\n');
        if !whole && line.len() > LINE_CAP {
            return Err(match wide {
                None => not_ours(),
                Some(_) => Unreadable::Bad(format!(
                    "line {number}: longer than {LINE_CAP} bytes, which no row is"
                )),
            });
        }
        let text = std::str::from_utf8(&line)
            .map_err(|_| Unreadable::Bad("is not a survey file: not text".into()))?;
        if !whole {
            // A last line cut short: a torn row is left out (its deal is
            // redone), a torn header is written again.
            if wide.is_none() && !WIDE_HEADER.starts_with(text) {
                return Err(not_ours());
            }
            torn = wide.is_some().then(|| text.to_string());
            break;
        }
        let text = text.strip_suffix('\n').unwrap_or(text);
        let text = text.strip_suffix('\r').unwrap_or(text);
        match wide {
            None => {
                let is_wide = match text.trim_end_matches('\r') {
                    HEADER => false,
                    WIDE_HEADER => true,
                    _ => return Err(not_ours()),
                };
                wide = Some(is_wide);
                columns = header(is_wide).split(',').count();
            }
            Some(_) if text.trim().is_empty() => {}
            Some(_) => {
                if text.split(',').count() != columns {
                    return Err(Unreadable::Bad(format!(
                        "line {number}: not the {columns} columns of its header"
                    )));
                }
                let row =
                    Row::parse(text).map_err(|e| Unreadable::Bad(format!("line {number}: {e}")))?;
                rows.push(row);
            }
        }
        keep += read;
    }
    Ok(Contents {
        resumed: Resumed { rows, torn },
        // No whole line without a header: 0 when it is missing or torn.
        keep,
        wide,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "FreeCell,1,SUCCES,50,10,20,0.001000,\n";
    const B: &str = "Seahaven,35,INSOLUBLE,,10,20,0.001000,\n";

    fn read(text: &str) -> Result<Contents, String> {
        read_rows(text.as_bytes()).map_err(|e| match e {
            Unreadable::Io(e) => e.to_string(),
            Unreadable::Bad(why) => why,
        })
    }

    #[test]
    fn whole_files_keep_everything() {
        let text = format!("{HEADER}\n{A}{B}");
        let r = read(&text).unwrap();
        assert_eq!((r.keep, r.resumed.torn), (text.len(), None));
        let seeds: Vec<u32> = r.resumed.rows.iter().map(|r| r.id.seed).collect();
        assert_eq!(seeds, [1, 35]);
    }

    #[test]
    fn a_torn_last_line_is_cut_off_wherever_it_was_torn() {
        let whole = format!("{HEADER}\n{A}");
        for cut in 1..B.len() {
            let text = format!("{whole}{}", &B[..cut]);
            let r = read(&text).unwrap();
            assert_eq!(r.keep, whole.len(), "cut at {cut}");
            assert_eq!(r.resumed.torn.as_deref(), Some(&B[..cut]));
            assert_eq!(r.resumed.rows.len(), 1);
        }
    }

    #[test]
    fn a_missing_or_torn_header_is_written_again() {
        for cut in 0..HEADER.len() {
            assert_eq!(read(&HEADER[..cut]).unwrap().keep, 0, "cut at {cut}");
        }
        assert_eq!(read(&format!("{HEADER}\n")).unwrap().keep, HEADER.len() + 1);
    }

    #[test]
    fn other_files_are_refused() {
        let err = read("a,b,c\n1,2,3\n").unwrap_err();
        assert!(err.contains("not a survey file"), "{err}");
        assert!(read("hello").unwrap_err().contains("not a survey file"));
        let err = read(&format!("{HEADER}\n{A}oops\n{B}")).unwrap_err();
        assert!(err.starts_with("line 3:"), "{err}");
    }

    #[test]
    fn endless_lines_are_refused_at_their_first_kilobyte() {
        use std::io::Read;
        let endless = || std::io::repeat(b'7');
        let err = read_rows(BufReader::new(endless())).unwrap_err();
        assert!(matches!(&err, Unreadable::Bad(why) if why.contains("not a survey file")));
        let after_a_row = format!("{HEADER}\n{A}");
        let input = BufReader::new(after_a_row.as_bytes().chain(endless()));
        match read_rows(input).unwrap_err() {
            Unreadable::Bad(why) => assert!(why.starts_with("line 3: longer than"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    const WIDE: &str = "BakersDozen,3118,SUCCES,66,10,20,0.001000,,free,INSOLUBLE\n";

    #[test]
    fn wide_files_are_read_and_rows_match_their_header() {
        let r = read(&format!("{WIDE_HEADER}\n{WIDE}")).unwrap();
        assert_eq!(r.wide, Some(true));
        assert_eq!(
            r.resumed.rows[0].forced,
            Some(super::super::row::Verdict::Insoluble)
        );
        assert_eq!(read(&format!("{HEADER}\n{A}")).unwrap().wide, Some(false));
        for text in [format!("{HEADER}\n{WIDE}"), format!("{WIDE_HEADER}\n{A}")] {
            let err = read(&text).unwrap_err();
            assert!(err.contains("line 2: not the"), "{err}");
        }
        for cut in 0..WIDE_HEADER.len() {
            assert_eq!(read(&WIDE_HEADER[..cut]).unwrap().keep, 0, "cut at {cut}");
        }
    }
}
