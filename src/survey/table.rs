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

use super::args::Under;
use super::row::{HEADER, Layout, Row};
use super::say::shown;

/// An open destination for rows.
pub struct Table {
    to: Sink,
    /// The columns rows are written with: the file's own when resumed.
    layout: Layout,
}

enum Sink {
    Stdout,
    File { file: File, path: PathBuf },
}

/// What a file to resume held.
#[derive(Debug, PartialEq)]
pub struct Resumed {
    /// The whole rows read.
    pub rows: Vec<Row>,
    /// A torn last line that was cut off (its deal is redone).
    pub torn: Option<String>,
    /// The rule set of the file's rows, which all share it: `None` for a
    /// file with no row and a header that does not tell.
    pub rules: Option<Under>,
}

impl Resumed {
    /// A file begun now.
    pub fn nothing() -> Resumed {
        Resumed {
            rows: Vec::new(),
            torn: None,
            rules: None,
        }
    }
}

impl Table {
    /// Rows to stdout, after the header.
    pub fn stdout(layout: Layout) -> std::io::Result<Table> {
        let mut table = Table {
            to: Sink::Stdout,
            layout,
        };
        table.write_line(&format!("{}\n", layout.header()))?;
        Ok(table)
    }

    /// A new file; an existing one is never overwritten.
    pub fn create(path: &Path, layout: Layout) -> Result<Table, String> {
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(path)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => format!(
                    "{} exists: add --resume to continue that survey, or choose another file",
                    shown(path)
                ),
                _ => format!("cannot create {}: {e}", shown(path)),
            })?;
        let mut table = Table {
            to: Sink::File {
                file,
                path: path.to_owned(),
            },
            layout,
        };
        table
            .write_line(&format!("{}\n", layout.header()))
            .map_err(|e| format!("cannot write {}: {e}", shown(path)))?;
        Ok(table)
    }

    /// Opens a survey file to add to it: reads its rows, cuts a torn last
    /// line off, and writes the header if the file is new or empty. A file
    /// of other rules than `rules` answers another question: mixing its
    /// rows with this survey's would make a file of two questions, so it is
    /// refused (forced, free and both are each their own).
    pub fn resume(path: &Path, rules: Under) -> Result<(Table, Resumed), String> {
        if !path.exists() {
            let table = Table::create(path, Layout::for_rules(rules))?;
            return Ok((table, Resumed::nothing()));
        }
        let fail = |e: std::io::Error| format!("cannot resume {}: {e}", shown(path));
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .map_err(fail)?;
        if !file.metadata().map_err(fail)?.is_file() {
            return Err(format!("cannot resume {}: not a regular file", shown(path)));
        }
        let mut rows = Vec::new();
        let mut read = decode(path, &mut file, |row| rows.push(row))?;
        read.resumed.rows = rows;
        let theirs = match (read.resumed.rules, read.layout) {
            (Some(r), _) if r != rules => Some(format!("its rows are of rules '{}'", r.name())),
            (_, Some(layout)) if !layout.holds(rules) => {
                Some("its header has the columns of other rules".into())
            }
            _ => None,
        };
        if let Some(theirs) = theirs {
            return Err(format!(
                "cannot resume {}: {theirs}, this survey's of '{}' (one rule set per file): resume it with the same --rules or --foundation, or choose another --out",
                shown(path),
                rules.name()
            ));
        }
        file.set_len(read.keep as u64).map_err(fail)?;
        let layout = match read.keep {
            0 => Layout::for_rules(rules),
            _ => read.layout.unwrap_or(Layout::for_rules(rules)),
        };
        let mut table = Table {
            to: Sink::File {
                file,
                path: path.to_owned(),
            },
            layout,
        };
        if read.keep == 0 {
            table
                .write_line(&format!("{}\n", layout.header()))
                .map_err(fail)?;
        }
        Ok((table, read.resumed))
    }

    /// Writes rows, whole, and hands them to the system at once, in one
    /// piece.
    pub fn write_rows(&mut self, rows: &[Row]) -> std::io::Result<()> {
        let lines: String = rows.iter().map(|row| row.line(self.layout)).collect();
        self.write_line(&lines)
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

/// Reads a survey file without changing it (`--summary`), handing each
/// row to `each` as it is read rather than keeping them (a summary of a
/// million rows keeps what it aggregates, not the rows): the [`Resumed`]
/// returned has no rows. A torn last line is left out, as its deal has no
/// verdict.
pub fn read(path: &Path, each: impl FnMut(Row)) -> Result<Resumed, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", shown(path)))?;
    Ok(decode(path, file, each)?.resumed)
}

/// Reads a survey file as a stream, a line at a time, never more than
/// [`LINE_CAP`] bytes of one: a device such as `/dev/zero` or a binary
/// file is refused at its first line, not read into memory whole.
fn decode(path: &Path, input: impl Read, each: impl FnMut(Row)) -> Result<Contents, String> {
    read_rows(BufReader::new(input), each).map_err(|e| match e {
        Unreadable::Io(e) => format!("cannot read {}: {e}", shown(path)),
        Unreadable::Bad(why) => format!("{} {why}", shown(path)),
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
    /// What the header says; `None` without a header.
    layout: Option<Layout>,
}

/// Reads a survey file's lines: the header, then whole rows; a last line
/// without its newline is torn. Any other line that is not a row is an
/// error: this is not a survey file, or someone edited it. The rows go to
/// `each`, in order; the [`Contents`]' own list is left empty.
fn read_rows(mut input: impl BufRead, mut each: impl FnMut(Row)) -> Result<Contents, Unreadable> {
    let not_ours = || {
        Unreadable::Bad(format!(
            "is not a survey file: its first line is not '{HEADER}' (or with ,foundation,forced[,rules])"
        ))
    };
    let mut line = Vec::with_capacity(LINE_CAP + 1);
    let (mut keep, mut number) = (0, 0);
    let mut layout: Option<Layout> = None;
    let (mut torn, mut rules) = (None, None);
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
            return Err(match layout {
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
            if layout.is_none() && !Layout::begins_a_header(text) {
                return Err(not_ours());
            }
            torn = layout.is_some().then(|| text.to_string());
            break;
        }
        let text = text.strip_suffix('\n').unwrap_or(text);
        let text = text.strip_suffix('\r').unwrap_or(text);
        match layout {
            None => {
                let found = Layout::of_header(text).ok_or_else(not_ours)?;
                layout = Some(found);
                rules = (found == Layout::Forced).then_some(Under::Forced);
            }
            Some(_) if text.trim().is_empty() => {}
            Some(layout) => {
                let columns = layout.columns();
                if text.split(',').count() != columns {
                    return Err(Unreadable::Bad(format!(
                        "line {number}: not the {columns} columns of its header"
                    )));
                }
                let row =
                    Row::parse(text).map_err(|e| Unreadable::Bad(format!("line {number}: {e}")))?;
                match rules {
                    Some(held) if held != row.rules => {
                        return Err(Unreadable::Bad(format!(
                            "line {number}: a row of rules '{}' after rows of '{}': a survey file holds one rule set",
                            row.rules.name(),
                            held.name()
                        )));
                    }
                    _ => rules = Some(row.rules),
                }
                each(row);
            }
        }
        keep += read;
    }
    Ok(Contents {
        resumed: Resumed {
            rows: Vec::new(),
            torn,
            rules,
        },
        // No whole line without a header: 0 when it is missing or torn.
        keep,
        layout,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "FreeCell,1,SUCCES,50,10,20,0.001000,\n";
    const B: &str = "Seahaven,35,INSOLUBLE,,10,20,0.001000,\n";

    fn read(text: &str) -> Result<Contents, String> {
        let mut rows = Vec::new();
        let mut contents =
            read_rows(text.as_bytes(), |row| rows.push(row)).map_err(|e| match e {
                Unreadable::Io(e) => e.to_string(),
                Unreadable::Bad(why) => why,
            })?;
        contents.resumed.rows = rows;
        Ok(contents)
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
        let err = read_rows(BufReader::new(endless()), drop).unwrap_err();
        assert!(matches!(&err, Unreadable::Bad(why) if why.contains("not a survey file")));
        let after_a_row = format!("{HEADER}\n{A}");
        let input = BufReader::new(after_a_row.as_bytes().chain(endless()));
        match read_rows(input, drop).unwrap_err() {
            Unreadable::Bad(why) => assert!(why.starts_with("line 3: longer than"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    use super::super::row::{LEGACY_WIDE_HEADER, Verdict, WIDE_HEADER};

    const LEGACY: &str = "BakersDozen,3118,SUCCES,66,10,20,0.001000,,free,INSOLUBLE\n";
    const WIDE: &str = "BakersDozen,3118,SUCCES,66,10,20,0.001000,,free,INSOLUBLE,both\n";
    const FREE: &str = "BakersDozen,3118,SUCCES,66,10,20,0.001000,,free,,free\n";

    #[test]
    fn wide_files_are_read_and_rows_match_their_header() {
        let r = read(&format!("{WIDE_HEADER}\n{WIDE}")).unwrap();
        assert_eq!(r.layout, Some(Layout::Ruled));
        assert_eq!(r.resumed.rows[0].forced, Some(Verdict::Insoluble));
        let r = read(&format!("{LEGACY_WIDE_HEADER}\n{LEGACY}")).unwrap();
        assert_eq!(r.layout, Some(Layout::Legacy));
        assert_eq!(
            read(&format!("{HEADER}\n{A}")).unwrap().layout,
            Some(Layout::Forced)
        );
        for text in [
            format!("{HEADER}\n{WIDE}"),
            format!("{WIDE_HEADER}\n{A}"),
            format!("{WIDE_HEADER}\n{LEGACY}"),
            format!("{LEGACY_WIDE_HEADER}\n{WIDE}"),
        ] {
            let err = read(&text).unwrap_err();
            assert!(err.contains("line 2: not the"), "{err}");
        }
        for header in [WIDE_HEADER, LEGACY_WIDE_HEADER] {
            for cut in 0..header.len() {
                assert_eq!(read(&header[..cut]).unwrap().keep, 0, "cut at {cut}");
            }
        }
    }

    /// One rule set per file: told by the header (forced), the rows, or
    /// not at all when a wide file has no row yet.
    #[test]
    fn a_file_holds_one_rule_set() {
        let rules = |text: &str| read(text).map(|r| r.resumed.rules.map(Under::name));
        assert_eq!(rules(&format!("{HEADER}\n")), Ok(Some("forced")));
        assert_eq!(rules(&format!("{WIDE_HEADER}\n")), Ok(None));
        assert_eq!(rules(&format!("{WIDE_HEADER}\n{WIDE}")), Ok(Some("both")));
        assert_eq!(rules(&format!("{WIDE_HEADER}\n{FREE}")), Ok(Some("free")));
        let legacy_free = LEGACY.replace("INSOLUBLE", "");
        assert_eq!(
            rules(&format!("{LEGACY_WIDE_HEADER}\n{legacy_free}")),
            Ok(Some("free"))
        );
        let err = read(&format!("{WIDE_HEADER}\n{WIDE}{FREE}")).unwrap_err();
        assert!(
            err.starts_with("line 3: a row of rules 'free' after rows of 'both'"),
            "{err}"
        );
        assert_eq!(rules(&format!("{WIDE_HEADER}\n{XPAT2}")), Ok(Some("xpat2")));
        let err = read(&format!("{WIDE_HEADER}\n{XPAT2}{FREE}")).unwrap_err();
        assert!(
            err.starts_with("line 3: a row of rules 'free' after rows of 'xpat2'"),
            "{err}"
        );
    }

    const XPAT2: &str = "MidnightOil,7,SUCCES,91,10,20,0.001000,,xpat2,,xpat2\n";

    /// A file of xpat2's rules is resumed under them alone, and a file
    /// of other rules, even without a row yet, never under them.
    #[test]
    fn xpat2_files_are_resumed_under_xpat2_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("xpat2.csv");
        let text = format!("{WIDE_HEADER}\n{XPAT2}");
        std::fs::write(&path, &text).unwrap();
        for other in [Under::Forced, Under::Free, Under::Both] {
            let Err(err) = Table::resume(&path, other) else {
                panic!("resumed under {}", other.name())
            };
            assert!(err.contains("its rows are of rules 'xpat2'"), "{err}");
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        let (_, resumed) = Table::resume(&path, Under::Xpat2).unwrap();
        assert_eq!(resumed.rows.len(), 1);
        for (header, says) in [
            (HEADER, "its rows are of rules 'forced'"),
            (LEGACY_WIDE_HEADER, "the columns of other rules"),
        ] {
            std::fs::write(&path, format!("{header}\n")).unwrap();
            let Err(err) = Table::resume(&path, Under::Xpat2) else {
                panic!("{header} resumed under xpat2")
            };
            assert!(err.contains(says), "{err}");
        }
    }

    /// A file begun before the rules column is resumed in its own columns
    /// (scripts resume their old files), and only under its own rules.
    #[test]
    fn a_file_begun_before_the_rules_column_is_resumed_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.csv");
        std::fs::write(&path, format!("{LEGACY_WIDE_HEADER}\n{LEGACY}")).unwrap();
        assert!(Table::resume(&path, Under::Free).is_err());
        let (mut table, resumed) = Table::resume(&path, Under::Both).unwrap();
        assert_eq!(resumed.rules, Some(Under::Both));
        let mut row = resumed.rows[0].clone();
        row.id.seed = 3119;
        table.write_rows(&[row]).unwrap();
        drop(table);
        let text = std::fs::read_to_string(&path).unwrap();
        let r = read(&text).unwrap();
        assert_eq!((r.layout, r.resumed.rows.len()), (Some(Layout::Legacy), 2));
        assert!(text.ends_with(",free,INSOLUBLE\n"), "{text}");
    }
}
