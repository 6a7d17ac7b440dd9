//! The manifest of a layered search: whose search the spill directory
//! holds, and how far it got (see `store` for when it is written).

use std::fs;
use std::io;
use std::path::Path;

use super::measure::MOST;
use super::record::RECORD_BYTES;

/// The manifest's name in the spill directory.
pub const MANIFEST: &str = "xpat-spill-manifest";
/// The first line of a manifest: what wrote it, and its format.
const MAGIC: &str = "xpat-solver spill 1";

/// What a manifest says: whose search it is, and how far it got.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Manifest {
    /// The deal, as `GameId` writes it.
    pub deal: String,
    /// The rules the user asked for (`--rules`).
    pub rules: String,
    /// The foundation rule of the search under way: under xpat2's complete
    /// rules, free play first, then the complete game.
    pub phase: String,
    /// The next layer to search; every lower one is done.
    pub next: usize,
    /// The groups of cells of layer `next` still to search, as (modulus,
    /// residue) of their cell hash; empty when none of it was searched.
    pub passes: Vec<(u64, u64)>,
    /// Positions expanded and stored by the completed layers, and their
    /// seconds, for the summary of a resumed search.
    pub expanded: u64,
    pub stored: u64,
    pub seconds: f64,
    /// Each layer file's length when the manifest was written.
    pub lengths: Vec<u64>,
}

impl Manifest {
    pub(super) fn text(&self) -> String {
        let mut text = format!(
            "{MAGIC}\ndeal {}\nrules {}\nphase {}\nnext {}\npasses{}\nexpanded {}\nstored {}\nseconds {:.3}\n",
            self.deal,
            self.rules,
            self.phase,
            self.next,
            self.passes
                .iter()
                .map(|(m, r)| format!(" {m}:{r}"))
                .collect::<String>(),
            self.expanded,
            self.stored,
            self.seconds
        );
        for (layer, len) in self.lengths.iter().enumerate() {
            if *len > 0 {
                text += &format!("layer {layer} {len}\n");
            }
        }
        text
    }

    fn parse(text: &str) -> Option<Manifest> {
        let mut lines = text.lines();
        if lines.next()? != MAGIC {
            return None;
        }
        let mut field = |name: &str| {
            let line = lines.next()?;
            let rest = line.strip_prefix(name)?;
            (rest.is_empty() || rest.starts_with(' ')).then(|| rest.trim_start().to_string())
        };
        let (deal, rules, phase) = (field("deal")?, field("rules")?, field("phase")?);
        let next = field("next")?.parse().ok()?;
        let passes = field("passes")?;
        let passes = passes
            .split_whitespace()
            .map(|pass| {
                let (m, r) = pass.split_once(':')?;
                let (m, r) = (m.parse::<u64>().ok()?, r.parse::<u64>().ok()?);
                (m.is_power_of_two() && r < m).then_some((m, r))
            })
            .collect::<Option<Vec<_>>>()?;
        let expanded = field("expanded")?.parse().ok()?;
        let stored = field("stored")?.parse().ok()?;
        let seconds = field("seconds")?.parse().ok()?;
        let mut lengths = vec![0; MOST + 1];
        for line in lines {
            let mut words = line.strip_prefix("layer ")?.split(' ');
            let layer: usize = words.next()?.parse().ok()?;
            let len: u64 = words.next()?.parse().ok()?;
            if layer > MOST || !len.is_multiple_of(RECORD_BYTES) || words.next().is_some() {
                return None;
            }
            lengths[layer] = len;
        }
        (next <= MOST + 1).then_some(Manifest {
            deal,
            rules,
            phase,
            next,
            passes,
            expanded,
            stored,
            seconds,
            lengths,
        })
    }
}

/// The manifest in `dir`, if there is one: `Err` when it cannot be read
/// or is not a manifest.
pub(crate) fn read_manifest(dir: &Path) -> Result<Option<Manifest>, String> {
    let path = dir.join(MANIFEST);
    match crate::output::must_be_regular(&path).and_then(|()| fs::read_to_string(&path)) {
        Ok(text) => Manifest::parse(&text).map(Some).ok_or_else(|| {
            format!(
                "{} is not a spill manifest this solver wrote",
                path.display()
            )
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}
