//! The deals of a survey: every game asked for, at every seed, in a fixed
//! order, and the share of them that one shard takes.
//!
//! The order is seed by seed, every game at each seed (`fc.1, st.1, fc.2,
//! st.2, ...`), the games in the order of SPEC §1 whatever the order
//! written: the same GAMES and SEEDS always make the same list, so shards
//! and resumed runs agree on positions, and slow games spread over the
//! whole run instead of piling up at its end (the ETA stays honest).

use crate::rules::{GAMES, GameId, Rules, find};

use super::seeds::Seeds;

/// Parses `GAMES`: long names or aliases joined by commas, or `all`.
pub fn parse_games(text: &str) -> Result<Vec<&'static Rules>, String> {
    if text == "all" {
        return Ok(GAMES.iter().collect());
    }
    let mut wanted = [false; GAMES.len()];
    for name in text.split(',') {
        let Some(rules) = find(name.trim()) else {
            let names: Vec<String> = GAMES
                .iter()
                .map(|r| format!("{} ({})", r.name, r.alias))
                .collect();
            return Err(format!(
                "unknown game '{name}': expected one of {}, or all",
                names.join(", ")
            ));
        };
        wanted[game_index(rules)] = true;
    }
    Ok(GAMES
        .iter()
        .zip(wanted)
        .filter(|(_, w)| *w)
        .map(|(r, _)| r)
        .collect())
}

/// Where a game is in [`GAMES`].
pub fn game_index(rules: &Rules) -> usize {
    GAMES
        .iter()
        .position(|r| std::ptr::eq(r, rules))
        .expect("every Rules is a row of GAMES")
}

/// A deal as a small hashable key: its game's place in [`GAMES`] and its
/// seed.
pub fn deal_key(id: GameId) -> (u8, u32) {
    (game_index(id.rules) as u8, id.seed)
}

/// `--shard K/N`: the deals whose position in the list is K modulo N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard's number, from 0.
    pub k: u64,
    /// How many shards share the list.
    pub n: u64,
}

impl Shard {
    /// The whole list.
    pub const ALL: Shard = Shard { k: 0, n: 1 };

    /// Parses `K/N` with `0 <= K < N`, as Slurm's array indices and
    /// `seq 0 $((N-1))` count.
    pub fn parse(text: &str) -> Result<Shard, String> {
        // Digits only: `parse` alone would take "+1".
        let number = |s: &str| {
            s.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| s.parse::<u64>().ok())
                .flatten()
        };
        let parsed = text
            .split_once('/')
            .and_then(|(k, n)| Some((number(k)?, number(n)?)));
        match parsed {
            Some((k, n)) if k < n => Ok(Shard { k, n }),
            Some((k, n)) => Err(format!(
                "--shard {text}: shard {k} of {n} does not exist: K runs from 0 to N-1 (0/{n} .. {}/{n})",
                n.max(1) - 1
            )),
            None => Err(format!(
                "--shard '{text}': expected K/N, e.g. 0/4 for the first of 4 shards"
            )),
        }
    }
}

/// The deals one run surveys: games × seeds, then this shard's share.
#[derive(Clone, Debug)]
pub struct Deals {
    games: Vec<&'static Rules>,
    seeds: Seeds,
    shard: Shard,
}

impl Deals {
    /// Every game with every seed, then `shard`'s share.
    pub fn new(games: Vec<&'static Rules>, seeds: Seeds, shard: Shard) -> Deals {
        Deals {
            games,
            seeds,
            shard,
        }
    }

    /// Positions in the whole list, before sharding.
    fn positions(&self) -> u64 {
        self.games.len() as u64 * self.seeds.len()
    }

    /// How many deals this shard takes.
    pub fn len(&self) -> u64 {
        let Shard { k, n } = self.shard;
        self.positions().saturating_sub(k).div_ceil(n)
    }

    /// Whether this shard takes no deal.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// This shard's `j`-th deal (`j < len()`).
    pub fn get(&self, j: u64) -> GameId {
        let position = self.shard.k + j * self.shard.n;
        let per_seed = self.games.len() as u64;
        GameId {
            rules: self.games[(position % per_seed) as usize],
            seed: self.seeds.get(position / per_seed),
        }
    }

    /// Whether the deal is one of this shard's.
    pub fn contains(&self, id: GameId) -> bool {
        let Some(game) = self.games.iter().position(|r| std::ptr::eq(*r, id.rules)) else {
            return false;
        };
        self.seeds.index_of(id.seed).is_some_and(|i| {
            (i * self.games.len() as u64 + game as u64) % self.shard.n == self.shard.k
        })
    }

    /// The games, for messages.
    pub fn games(&self) -> &[&'static Rules] {
        &self.games
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(games: &[&Rules]) -> Vec<&'static str> {
        games.iter().map(|r| r.name).collect()
    }

    #[test]
    fn games_by_name_alias_or_all_in_spec_order() {
        assert_eq!(
            names(&parse_games("st,fc").unwrap()),
            ["FreeCell", "Seahaven"]
        );
        assert_eq!(
            names(&parse_games("bd,BakersDozen").unwrap()),
            ["BakersDozen"]
        );
        assert_eq!(parse_games("all").unwrap().len(), 4);
        for bad in ["", "xx", "fc,", "freecell", "fc,all"] {
            let err = parse_games(bad).unwrap_err();
            assert!(err.starts_with("unknown game"), "{bad:?}: {err}");
        }
    }

    #[test]
    fn shards_parse_from_zero() {
        assert_eq!(Shard::parse("0/1"), Ok(Shard::ALL));
        assert_eq!(Shard::parse("3/4"), Ok(Shard { k: 3, n: 4 }));
        for bad in [
            "2/2", "0/0", "5/2", "1", "a/2", "1/b", "-1/2", "1/2/3", "/2", " 1/2",
        ] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert!(Shard::parse("2/2").unwrap_err().contains("does not exist"));
    }

    /// The shards of a list partition it, and each knows its own deals.
    #[test]
    fn shards_partition_the_list_seed_by_seed() {
        let games = parse_games("fc,bd").unwrap();
        let seeds = Seeds::parse("1-5,10").unwrap();
        let whole = Deals::new(games.clone(), seeds.clone(), Shard::ALL);
        let listed: Vec<String> = (0..whole.len()).map(|j| whole.get(j).to_string()).collect();
        assert_eq!(
            listed[..4],
            ["FreeCell.1", "BakersDozen.1", "FreeCell.2", "BakersDozen.2"]
        );
        assert_eq!(listed.len(), 12);
        let mut union = Vec::new();
        for k in 0..5 {
            let shard = Deals::new(games.clone(), seeds.clone(), Shard { k, n: 5 });
            for j in 0..shard.len() {
                let id = shard.get(j);
                assert!(shard.contains(id) && whole.contains(id));
                union.push(id.to_string());
            }
            for other in (0..5).filter(|&o| o != k) {
                let them = Deals::new(games.clone(), seeds.clone(), Shard { k: other, n: 5 });
                assert!((0..them.len()).all(|j| !shard.contains(them.get(j))));
            }
        }
        union.sort();
        let mut expected = listed.clone();
        expected.sort();
        assert_eq!(union, expected);
        let st1 = GameId {
            rules: &GAMES[1],
            seed: 1,
        };
        let fc7 = GameId {
            rules: &GAMES[0],
            seed: 7,
        };
        assert!(!whole.contains(st1) && !whole.contains(fc7));
        // More shards than deals: the extra shards are empty.
        let tiny = Deals::new(games, Seeds::parse("1").unwrap(), Shard { k: 3, n: 4 });
        assert_eq!(tiny.len(), 0);
    }
}
