//! No mode: names, aliases and seeds, and the deal as it is shown.

use crate::common::run;

#[test]
fn long_names_aliases_and_leading_zeros_name_the_same_deal() {
    let mut shown = Vec::new();
    for (long, alias) in [
        ("FreeCell", "fc"),
        ("Seahaven", "st"),
        ("MidnightOil", "mo"),
        ("BakersDozen", "bd"),
    ] {
        let by_name = run([format!("{long}.123")]);
        assert_eq!(by_name.code, 0, "{by_name:?}");
        for other in [
            format!("{alias}.123"),
            format!("{long}.000000123"),
            format!("{alias}.0123"),
        ] {
            let r = run([&other]);
            assert_eq!(r.code, 0, "{other}: {r:?}");
            assert_eq!(r.stdout, by_name.stdout, "{other}");
        }
        shown.push(by_name.stdout);
    }
    // Four different games, four different displays; seed 123 != 124.
    shown.sort();
    shown.dedup();
    assert_eq!(shown.len(), 4);
    assert_ne!(run(["fc.124"]).stdout, run(["fc.123"]).stdout);
    // The two ends of the seed range.
    for seed in ["fc.1", "fc.999999999", "bd.000000001"] {
        assert_eq!(run([seed]).code, 0, "{seed}");
    }
}

/// The card numbers of the column lines (` 1:  5♣(16)  K♦(51) ...`), in order.
fn shown_columns(stdout: &str) -> Vec<Vec<u8>> {
    stdout
        .lines()
        .filter(|l| {
            l.split_once(':')
                .is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok())
        })
        .map(|l| {
            l.split('(')
                .skip(1)
                .map(|s| s.split(')').next().unwrap().trim().parse().unwrap())
                .collect()
        })
        .collect()
}

fn line_starting<'a>(stdout: &'a str, start: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no '{start}' line in:\n{stdout}"))
}

// xpat2's permutations (../shared/conformance/permutations.tsv): facts.
const PERM_1: [u8; 52] = [
    13, 32, 33, 35, 30, 46, 7, 29, 9, 48, 38, 36, 51, 41, 26, 20, 23, 43, 27, 42, 4, 21, 37, 39, 2,
    15, 34, 28, 25, 17, 16, 18, 31, 3, 0, 10, 50, 49, 14, 6, 24, 1, 22, 5, 40, 44, 11, 8, 45, 19,
    12, 47,
];
const PERM_123: [u8; 52] = [
    16, 51, 44, 27, 11, 37, 33, 50, 48, 13, 17, 38, 7, 28, 39, 15, 4, 5, 3, 6, 42, 25, 19, 34, 20,
    49, 23, 0, 8, 26, 30, 29, 47, 36, 9, 24, 40, 45, 14, 22, 32, 10, 1, 18, 12, 31, 35, 2, 21, 43,
    46, 41,
];

#[test]
fn the_display_shows_foundation_registers_and_columns_in_deal_order() {
    // FreeCell 123: nothing goes up; columns of 7, 6, 7, 6, ... in order.
    let r = run(["FreeCell.123"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.is_empty(), "{r:?}");
    assert!(line_starting(&r.stdout, "Foundation:").contains("(0 cards)"));
    assert_eq!(
        line_starting(&r.stdout, "Registers:").matches(" .").count(),
        4
    );
    let columns = shown_columns(&r.stdout);
    let sizes: Vec<usize> = columns.iter().map(Vec::len).collect();
    assert_eq!(sizes, [7, 6, 7, 6, 7, 6, 7, 6]);
    assert_eq!(columns.concat(), PERM_123);
    assert!(r.stdout.contains(" 1:  5♣(16)  K♦(51)"), "{}", r.stdout);

    // Seahaven 1: A♥ (2, the fifth column's top) goes up, then 2♥ (6),
    // A♦ (3) and A♣ (0); the last two cards are dealt to registers.
    let r = run(["st.1"]);
    assert_eq!(r.code, 0, "{r:?}");
    let foundation = line_starting(&r.stdout, "Foundation:");
    assert!(foundation.contains("A♣(0)") && foundation.contains("2♥(6)"));
    assert!(foundation.contains("A♦(3)") && foundation.contains("(4 cards)"));
    let registers = line_starting(&r.stdout, "Registers:");
    assert!(registers.contains("4♣(12)") && registers.contains("Q♦(47)"));
    assert_eq!(registers.matches(" .").count(), 2, "{registers}");
    let columns = shown_columns(&r.stdout);
    assert_eq!(columns.len(), 10);
    let dealt: Vec<u8> = PERM_1[..50]
        .iter()
        .copied()
        .filter(|c| ![0, 2, 3, 6].contains(c))
        .collect();
    assert_eq!(columns.concat(), dealt);
    assert_eq!(columns[4], [4, 21, 37, 39]); // 2♣ 6♠ 10♠ 10♦, A♥ gone

    // Midnight Oil 1: 18 columns, no register line, A♠ (1) on the foundation.
    let r = run(["mo.1"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stdout.contains("Registers"));
    assert!(line_starting(&r.stdout, "Foundation:").contains("A♠(1)"));
    let columns = shown_columns(&r.stdout);
    assert_eq!(columns.len(), 18);
    assert_eq!(columns[17], [47]);
}
