//! A position, its moves and normalization (SPEC §5), and the compact key
//! the search's visited set is built on.
//!
//! A position is kept as a relation: for every card, what lies directly
//! below it (another card, the floor of a column, a register, or the
//! foundation). Column order and register order do not exist in this form,
//! so two positions that differ only by them are the same value: the
//! canonical form comes for free, with no sorting. A move changes one entry
//! (and normalization one more per card it plays), which keeps moves cheap
//! and lets the key be updated in place.

use std::fmt;

use crate::cards::{CARDS, Card, KING, Name, SUIT_CARDS, SUITS, card_of, rank, suit};
use crate::deal::Deal;
use crate::rules::Rules;

/// Where a card lies, when not on another card. Card numbers are `0..52`.
pub const FLOOR: u8 = 52;
/// The card is in a register.
pub const REGISTER: u8 = 53;
/// The card is on the foundation.
pub const FOUNDATION: u8 = 54;
/// In `above`: nothing lies on this card.
const NOTHING: u8 = 0xFF;

/// Where a move puts its card: SPEC §6's three kinds of destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dest {
    /// On top of this card, which must be a column's top card.
    Card(Card),
    /// Into an empty column (`V`); all empty columns are alike.
    EmptyColumn,
    /// Into a free register (`T`).
    Register,
}

/// One move of a solution: a card and where it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub card: Card,
    pub dest: Dest,
}

impl fmt::Display for Move {
    /// The solution-file form: `33 38`, `33 V`, `33 T`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.dest {
            Dest::Card(d) => write!(f, "{} {}", self.card, d),
            Dest::EmptyColumn => write!(f, "{} V", self.card),
            Dest::Register => write!(f, "{} T", self.card),
        }
    }
}

/// Why a move is illegal in a position (SPEC §5), for `-check`'s messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    CardOnFoundation,
    CardBuried {
        under: Card,
    },
    TargetOnFoundation,
    TargetInRegister,
    TargetBuried {
        under: Card,
    },
    TargetIsTheCard,
    WrongBuild {
        rule: &'static str,
    },
    NoEmptyColumn,
    EmptyColumnRefuses {
        game: &'static str,
        only_kings: bool,
    },
    NoRegisters {
        game: &'static str,
    },
    RegistersFull,
    RegisterToRegister,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::CardOnFoundation => write!(f, "the card is already on the foundation"),
            Illegal::CardBuried { under } => {
                write!(f, "the card is not accessible: {} lies on it", Name(under))
            }
            Illegal::TargetOnFoundation => write!(f, "the target card is on the foundation"),
            Illegal::TargetInRegister => {
                write!(f, "the target card is in a register, not on a column")
            }
            Illegal::TargetBuried { under } => write!(
                f,
                "the target card is not a column's top card: {} lies on it",
                Name(under)
            ),
            Illegal::TargetIsTheCard => write!(f, "a card cannot go onto itself"),
            Illegal::WrongBuild { rule } => write!(f, "the target must be {rule}"),
            Illegal::NoEmptyColumn => write!(f, "no empty column"),
            Illegal::EmptyColumnRefuses { game, only_kings } => {
                if only_kings {
                    write!(f, "in {game} an empty column takes only a King")
                } else {
                    write!(f, "in {game} an empty column takes no card")
                }
            }
            Illegal::NoRegisters { game } => write!(f, "{game} has no registers"),
            Illegal::RegistersFull => write!(f, "every register is full"),
            Illegal::RegisterToRegister => {
                write!(f, "the card is already in a register")
            }
        }
    }
}

/// A key code per card: 3 bits, see [`Key`].
mod code {
    /// Lies on the card it lay on in the deal (and that card is not one rank
    /// higher: then it is coded as [`ON_SUIT`] + suit).
    pub const ORIGINAL: u64 = 0;
    pub const FLOOR: u64 = 1;
    pub const REGISTER: u64 = 2;
    pub const FOUNDATION: u64 = 3;
    /// Lies on the card one rank higher of suit `code - ON_SUIT`.
    pub const ON_SUIT: u64 = 4;
}

const CARDS_PER_WORD: usize = 21;

/// The compact, canonical identity of a position within one deal: 3 bits
/// per card saying what lies below it. Every card not on the foundation lies
/// either on a card one rank higher (placed there by a move, or dealt so:
/// coded by that card's suit), or on the card it was dealt on (the one other
/// card a move can never put under it), or on a column's floor, or in a
/// register. 156 bits, given the deal, name the whole position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Key([u64; 3]);

impl Key {
    /// The three words, for a store that packs keys its own way.
    #[inline]
    pub fn words(&self) -> [u64; 3] {
        self.0
    }

    /// A key from [`Key::words`].
    #[inline]
    pub fn from_words(words: [u64; 3]) -> Key {
        Key(words)
    }

    #[inline]
    fn set(&mut self, card: Card, code: u64) {
        let c = card as usize;
        let (word, shift) = (c / CARDS_PER_WORD, 3 * (c % CARDS_PER_WORD));
        self.0[word] = (self.0[word] & !(7 << shift)) | (code << shift);
    }
}

/// Rebuilds positions of one deal from their keys. What each 3-bit code
/// means for each card is worked out once per deal, so decoding is a table
/// look-up per card with no branch to mispredict (the search decodes every
/// position it expands).
pub struct KeyDecoder {
    rules: &'static Rules,
    below: [[u8; 8]; CARDS],
}

impl KeyDecoder {
    pub fn new(deal: &Deal) -> KeyDecoder {
        let original = deal.original_below();
        let mut below = [[FOUNDATION; 8]; CARDS];
        for card in 0..CARDS as Card {
            let table = &mut below[card as usize];
            // A code no key holds for this card decodes to the foundation.
            table[code::ORIGINAL as usize] = original[card as usize].unwrap_or(FOUNDATION);
            table[code::FLOOR as usize] = FLOOR;
            table[code::REGISTER as usize] = REGISTER;
            table[code::FOUNDATION as usize] = FOUNDATION;
            if rank(card) < KING {
                for s in 0..SUITS as u8 {
                    table[(code::ON_SUIT + s as u64) as usize] = card_of(rank(card) + 1, s);
                }
            }
        }
        KeyDecoder {
            rules: deal.id.rules,
            below,
        }
    }

    /// The position whose key is `key`.
    #[inline]
    pub fn state(&self, key: Key) -> State {
        let mut state = State {
            rules: self.rules,
            below: [FOUNDATION; CARDS],
            above: [NOTHING; ABOVE_LEN],
            foundation: [0; SUITS],
            registers_used: 0,
            empty_columns: 0,
            key,
        };
        // The counts come from the key's bits, a word at a time: for each
        // 3-bit field, whether it holds one code.
        let mut bottoms = 0;
        let mut registers = 0;
        for (word, &bits) in key.0.iter().enumerate() {
            let (b0, b1, b2) = (bits & FIELDS, (bits >> 1) & FIELDS, (bits >> 2) & FIELDS);
            let floor = b0 & !b1 & !b2;
            let register = !b0 & b1 & !b2;
            let foundation = b0 & b1 & !b2;
            bottoms += floor.count_ones();
            registers += register.count_ones();
            for (s, height) in state.foundation.iter_mut().enumerate() {
                *height += (foundation & SUIT_FIELDS[word][s]).count_ones() as u8;
            }
        }
        // Then what lies below each card, and above: a card on the floor, in
        // a register or on the foundation marks the slot past the cards,
        // with no branch to mispredict.
        for (word, &bits) in key.0.iter().enumerate() {
            let first = word * CARDS_PER_WORD;
            let cards = (CARDS - first).min(CARDS_PER_WORD);
            let mut bits = bits;
            for card in first..first + cards {
                let below = self.below[card][(bits & 7) as usize];
                bits >>= 3;
                state.below[card] = below;
                state.above[below as usize] = card as u8;
            }
        }
        state.above[FLOOR as usize..].fill(NOTHING);
        state.registers_used = registers as u8;
        state.empty_columns = (self.rules.columns - bottoms as usize) as u8;
        state
    }
}

/// The lowest bit of every 3-bit field of a key word.
const FIELDS: u64 = {
    let mut m = 0;
    let mut i = 0;
    while i < CARDS_PER_WORD {
        m |= 1 << (3 * i);
        i += 1;
    }
    m
};

/// Per key word and suit: the lowest bit of the fields of that suit's cards.
const SUIT_FIELDS: [[u64; SUITS]; 3] = {
    let mut m = [[0; SUITS]; 3];
    let mut card = 0;
    while card < CARDS {
        m[card / CARDS_PER_WORD][card % SUITS] |= 1 << (3 * (card % CARDS_PER_WORD));
        card += 1;
    }
    m
};

/// Cards by where they lie, a bit per card (bit `c` for card `c`).
struct CardBits {
    /// On a column's floor: the bottom cards.
    floor: u64,
    /// In a column: on a card or on the floor.
    in_column: u64,
    register: u64,
}

/// Where each card lies, from `State::below`, 16 cards at a time on x86-64
/// (SSE2 byte compares and move-masks).
#[inline]
fn card_bits(below: &[u8; CARDS]) -> CardBits {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let mut bits = CardBits {
            floor: 0,
            in_column: 0,
            register: 0,
        };
        // Cards 36..52 last: 16 bytes from 36 overlap the chunk before and
        // end with the array.
        for first in [0, 16, 32, 36] {
            let bytes = &below[first..first + 16];
            // SAFETY: SSE2 is part of x86-64; the load reads the 16 bytes
            // of `bytes`. Codes are below 128, so signed compares are right.
            unsafe {
                let v = _mm_loadu_si128(bytes.as_ptr().cast());
                let mask = |m| (_mm_movemask_epi8(m) as u32 as u64) << first;
                bits.floor |= mask(_mm_cmpeq_epi8(v, _mm_set1_epi8(FLOOR as i8)));
                bits.in_column |= mask(_mm_cmplt_epi8(v, _mm_set1_epi8(FLOOR as i8 + 1)));
                bits.register |= mask(_mm_cmpeq_epi8(v, _mm_set1_epi8(REGISTER as i8)));
            }
        }
        bits
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut bits = CardBits {
            floor: 0,
            in_column: 0,
            register: 0,
        };
        for (card, &b) in below.iter().enumerate() {
            bits.floor |= ((b == FLOOR) as u64) << card;
            bits.in_column |= ((b <= FLOOR) as u64) << card;
            bits.register |= ((b == REGISTER) as u64) << card;
        }
        bits
    }
}

/// The cards nothing lies on, from `State::above`, a bit per card.
#[inline]
fn top_bits(above: &[u8; ABOVE_LEN]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let mut bits = 0;
        for first in [0, 16, 32, 36] {
            let bytes = &above[first..first + 16];
            // SAFETY: as in `card_bits`; `NOTHING` is -1 as a signed byte.
            unsafe {
                let v = _mm_loadu_si128(bytes.as_ptr().cast());
                let m = _mm_cmpeq_epi8(v, _mm_set1_epi8(NOTHING as i8));
                bits |= (_mm_movemask_epi8(m) as u32 as u64) << first;
            }
        }
        bits
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut bits = 0;
        for (card, &a) in above[..CARDS].iter().enumerate() {
            bits |= ((a == NOTHING) as u64) << card;
        }
        bits
    }
}

/// Every card, a bit per card.
const ALL_CARDS: u64 = (1 << CARDS) - 1;

/// Length of `State::above`: one slot per card, and past them slots that
/// [`FLOOR`], [`REGISTER`] and [`FOUNDATION`] index, written and ignored.
const ABOVE_LEN: usize = FOUNDATION as usize + 1;

/// Facts about the columns of a position, gathered in one walk by
/// [`State::survey`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Survey {
    /// Cards lying above a lower card of their own suit: each must move
    /// again before its suit can be finished.
    pub own_suit_inversions: usize,
    /// Cards lying above a lower card of any suit.
    pub any_inversions: usize,
    /// A card can never leave its place (games where a card only ever moves
    /// onto a card one rank higher: no registers, empty columns take
    /// nothing), so the position is lost.
    ///
    /// Soundness: let C lie above a lower card Y of its own suit, and let
    /// every card C may be built on (one rank higher, allowed by the build
    /// rule) be on the foundation or beneath C in C's column. C cannot go to
    /// the foundation before Y, and Y stays covered until C has left. C can
    /// only leave onto one of those cards as a column top: one on the
    /// foundation never comes back, one beneath C stays covered until C has
    /// left. So C never leaves. In Midnight Oil this contains SPEC §8's
    /// two-card run (the card beneath need not be adjacent, nor the run at
    /// the top). [`State::is_blocked_for_good`] contains this rule and
    /// finds more; this one comes free with the survey's walk, so the
    /// search asks it first.
    pub stuck: bool,
    /// SPEC §8: a column's top holds a decreasing same-suit run too long to
    /// move again (see [`Rules::dead_run_length`]) over a lower card of its
    /// suit, so the column can never be cleared and the position is lost.
    pub dead_run: bool,
}

/// A normalized position (SPEC §5).
#[derive(Clone, Debug)]
pub struct State {
    rules: &'static Rules,
    /// What lies below each card: a card, [`FLOOR`], [`REGISTER`] or
    /// [`FOUNDATION`].
    below: [u8; CARDS],
    /// The card lying on each card, or `NOTHING`.
    above: [u8; ABOVE_LEN],
    /// Cards on the foundation, per suit.
    foundation: [u8; SUITS],
    registers_used: u8,
    empty_columns: u8,
    key: Key,
}

impl PartialEq for State {
    /// Two states are the same position when their relation is the same:
    /// column and register order do not count.
    fn eq(&self, other: &State) -> bool {
        std::ptr::eq(self.rules, other.rules) && self.below == other.below
    }
}
impl Eq for State {}

impl State {
    /// The normalized initial position of a deal.
    pub fn new(deal: &Deal) -> State {
        let rules = deal.id.rules;
        let mut state = State {
            rules,
            below: [FOUNDATION; CARDS],
            above: [NOTHING; ABOVE_LEN],
            foundation: [0; SUITS],
            registers_used: 0,
            empty_columns: 0,
            key: Key::default(),
        };
        for column in &deal.columns {
            let mut under = FLOOR;
            for &card in column {
                state.place(card, under);
                under = card;
            }
            if column.is_empty() {
                state.empty_columns += 1;
            }
        }
        for &card in &deal.registers {
            state.place(card, REGISTER);
        }
        // Cards never placed above are on the foundation; none are at the start.
        state.normalize();
        state
    }

    pub fn rules(&self) -> &'static Rules {
        self.rules
    }

    pub fn key(&self) -> Key {
        self.key
    }

    /// Cards on the foundation: the score of SPEC §5.
    pub fn score(&self) -> u8 {
        self.foundation.iter().sum()
    }

    pub fn is_won(&self) -> bool {
        self.score() == CARDS as u8
    }

    /// Cards on the foundation, per suit (clubs, spades, hearts, diamonds).
    pub fn foundation(&self) -> [u8; SUITS] {
        self.foundation
    }

    pub fn empty_columns(&self) -> usize {
        self.empty_columns as usize
    }

    pub fn free_registers(&self) -> usize {
        self.rules.registers - self.registers_used as usize
    }

    /// What lies below `card`: a card, [`FLOOR`], [`REGISTER`] or [`FOUNDATION`].
    #[inline]
    pub fn below(&self, card: Card) -> u8 {
        self.below[card as usize]
    }

    /// The card lying on `card`, if any.
    #[inline]
    pub fn above(&self, card: Card) -> Option<Card> {
        let a = self.above[card as usize];
        (a != NOTHING).then_some(a)
    }

    /// A column's top card: in a column, with nothing on it.
    #[inline]
    pub fn is_top(&self, card: Card) -> bool {
        self.below[card as usize] <= FLOOR && self.above[card as usize] == NOTHING
    }

    /// A card that may move: a column's top card or a card in a register.
    #[inline]
    pub fn is_accessible(&self, card: Card) -> bool {
        let below = self.below[card as usize];
        below == REGISTER || (below <= FLOOR && self.above[card as usize] == NOTHING)
    }

    /// Cards in registers, in card order (registers are a set).
    pub fn registers(&self) -> impl Iterator<Item = Card> + '_ {
        (0..CARDS as Card).filter(|&c| self.below[c as usize] == REGISTER)
    }

    /// Non-empty columns, each from bottom to top, in card order of their
    /// bottom cards (columns are a set).
    pub fn columns(&self) -> Vec<Vec<Card>> {
        (0..CARDS as Card)
            .filter(|&c| self.below[c as usize] == FLOOR)
            .map(|bottom| {
                let mut column = vec![bottom];
                while let Some(next) = self.above(*column.last().unwrap()) {
                    column.push(next);
                }
                column
            })
            .collect()
    }

    /// Puts a card that is nowhere yet (or on the foundation) on `under`.
    #[inline]
    fn place(&mut self, card: Card, under: u8) {
        self.below[card as usize] = under;
        let code = match under {
            FLOOR => code::FLOOR,
            REGISTER => {
                self.registers_used += 1;
                code::REGISTER
            }
            FOUNDATION => code::FOUNDATION,
            onto => {
                self.above[onto as usize] = card;
                if rank(onto) == rank(card) + 1 {
                    code::ON_SUIT + suit(onto) as u64
                } else {
                    code::ORIGINAL
                }
            }
        };
        self.key.set(card, code);
    }

    /// Takes an accessible card from where it lies.
    #[inline]
    fn lift(&mut self, card: Card) {
        match self.below[card as usize] {
            FLOOR => self.empty_columns += 1,
            REGISTER => self.registers_used -= 1,
            under => self.above[under as usize] = NOTHING,
        }
    }

    /// Plays every card that can go to the foundation, until none can
    /// (SPEC §5). Only a suit's next card can go, so one look per suit and
    /// round suffices; a round that plays nothing ends it.
    #[inline]
    fn normalize(&mut self) {
        loop {
            let mut played = false;
            for s in 0..SUITS as u8 {
                let height = self.foundation[s as usize];
                if height < KING {
                    let next = card_of(height + 1, s);
                    if self.is_accessible(next) {
                        self.lift(next);
                        self.place(next, FOUNDATION);
                        self.foundation[s as usize] += 1;
                        played = true;
                    }
                }
            }
            if !played {
                return;
            }
        }
    }

    /// Why `mv` is illegal here, or `Ok` (SPEC §5).
    pub fn check_move(&self, mv: Move) -> Result<(), Illegal> {
        let rules = self.rules;
        let card = mv.card;
        match self.below[card as usize] {
            FOUNDATION => return Err(Illegal::CardOnFoundation),
            _ if self.above[card as usize] != NOTHING => {
                return Err(Illegal::CardBuried {
                    under: self.above[card as usize],
                });
            }
            _ => {}
        }
        match mv.dest {
            Dest::Card(onto) => {
                if onto == card {
                    return Err(Illegal::TargetIsTheCard);
                }
                match self.below[onto as usize] {
                    FOUNDATION => return Err(Illegal::TargetOnFoundation),
                    REGISTER => return Err(Illegal::TargetInRegister),
                    _ if self.above[onto as usize] != NOTHING => {
                        return Err(Illegal::TargetBuried {
                            under: self.above[onto as usize],
                        });
                    }
                    _ => {}
                }
                if !rules.build.allows(card, onto) {
                    return Err(Illegal::WrongBuild {
                        rule: rules.build.describe(),
                    });
                }
            }
            Dest::EmptyColumn => {
                if self.empty_columns == 0 {
                    return Err(Illegal::NoEmptyColumn);
                }
                if !rules.empty_column.accepts(card) {
                    return Err(Illegal::EmptyColumnRefuses {
                        game: rules.name,
                        only_kings: rules.empty_column == crate::rules::EmptyColumn::KingsOnly,
                    });
                }
            }
            Dest::Register => {
                if rules.registers == 0 {
                    return Err(Illegal::NoRegisters { game: rules.name });
                }
                if self.below[card as usize] == REGISTER {
                    return Err(Illegal::RegisterToRegister);
                }
                if self.free_registers() == 0 {
                    return Err(Illegal::RegistersFull);
                }
            }
        }
        Ok(())
    }

    /// Plays a move known to be legal, then normalizes.
    #[inline]
    pub fn apply(&mut self, mv: Move) {
        debug_assert_eq!(self.check_move(mv), Ok(()));
        self.lift(mv.card);
        match mv.dest {
            Dest::Card(onto) => self.place(mv.card, onto),
            Dest::EmptyColumn => {
                self.empty_columns -= 1;
                self.place(mv.card, FLOOR);
            }
            Dest::Register => self.place(mv.card, REGISTER),
        }
        self.normalize();
    }

    /// Plays `mv` if it is legal.
    pub fn try_apply(&mut self, mv: Move) -> Result<(), Illegal> {
        self.check_move(mv)?;
        self.apply(mv);
        Ok(())
    }

    /// Calls `f` with every move worth searching: the legal moves of
    /// SPEC §5 less those that can never matter. A lone card is never moved
    /// into an empty column (the same position again), and a register card
    /// never to another register (not legal). All empty columns are one
    /// target, as they are one destination in a solution file.
    #[inline]
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let rules = self.rules;
        let can_register = (self.registers_used as usize) < rules.registers;
        // A bit per card: column tops, and cards in registers.
        let bits = card_bits(&self.below);
        let tops = bits.in_column & top_bits(&self.above);
        let registers = bits.register;
        let mut movable = tops | registers;
        while movable != 0 {
            let card = movable.trailing_zeros() as Card;
            movable &= movable - 1;
            let below = self.below[card as usize];
            let in_register = below == REGISTER;
            if rank(card) < KING {
                // The four cards one rank higher, those that are tops.
                let mut targets = tops & (0xF << card_of(rank(card) + 1, 0));
                while targets != 0 {
                    let onto = targets.trailing_zeros() as Card;
                    targets &= targets - 1;
                    if rules.build.allows(card, onto) {
                        f(Move {
                            card,
                            dest: Dest::Card(onto),
                        });
                    }
                }
            }
            if self.empty_columns > 0 && below != FLOOR && rules.empty_column.accepts(card) {
                f(Move {
                    card,
                    dest: Dest::EmptyColumn,
                });
            }
            if can_register && !in_register {
                f(Move {
                    card,
                    dest: Dest::Register,
                });
            }
        }
    }

    /// Finds a card that can never leave its place, in games where a card
    /// can only ever move onto a card one rank higher or to the foundation
    /// (no registers, and empty columns take nothing: Midnight Oil, Baker's
    /// Dozen). Every card must leave its place to win, so such a position
    /// is lost. See [`Survey::stuck`].
    pub fn has_stuck_card(&self) -> bool {
        self.survey().stuck
    }

    /// Whether some card can never reach the foundation even in a relaxed
    /// game, in games where a card only ever moves onto a card one rank
    /// higher or to the foundation (no registers, and empty columns take
    /// nothing: Midnight Oil, Baker's Dozen). Such a position is lost. This
    /// contains [`Survey::stuck`] and catches chains of blocked cards too.
    ///
    /// Soundness. Over any continuation of play, call a card *exposed* once
    /// every card now above it has left its place, *leaving* when it moves
    /// (onto a column top or to the foundation), and *finished* when it
    /// goes to the foundation. Each event needs earlier ones:
    /// - a card is exposed once each card above it has left;
    /// - a card leaves only when exposed, and either finishes or lands on a
    ///   card it may be built on that is a column top at that moment, so
    ///   that card is on the tableau now and has been exposed (a top in its
    ///   place, or moved, which also needs it exposed first);
    /// - a card finishes only when exposed, after the card one rank lower of
    ///   its suit (unless that one is on the foundation now).
    ///
    /// Starting from what holds now (column tops are exposed) and adding
    /// every event whose needs are met, whatever the order, reaches a
    /// fixed point that holds every event of every continuation: by
    /// induction on the move that makes it happen, its needs happened
    /// before. A card missing from the fixed point's finished set never
    /// finishes, and the game cannot be won. The relaxation ignores
    /// timing (a host may be covered again before it is needed) and forced
    /// foundation moves, so it only errs towards "may be won".
    pub fn is_blocked_for_good(&self) -> bool {
        let rules = self.rules;
        if !rules.only_onto_higher() {
            return false;
        }
        let on_tableau = card_bits(&self.below).in_column;
        let mut exposed = top_bits(&self.above) & on_tableau;
        let mut left = 0u64;
        let mut finished = 0u64;
        // Each suit's next card to finish, a bit per card (none past a King).
        let mut next = 0u64;
        for (s, &height) in self.foundation.iter().enumerate() {
            if height < KING {
                next |= 1 << card_of(height + 1, s as u8);
            }
        }
        // Rounds over all cards at once, a bit per card: each adds every
        // event whose needs the rounds before met, until one adds none.
        // (Drawing events out one at a time measured slower.)
        loop {
            // Up the four suits at once while their next card is exposed.
            let mut up = next & exposed;
            while up != 0 {
                finished |= up;
                next = (next ^ up) | (up << 4 & ALL_CARDS);
                up = next & exposed;
            }
            let can_leave = finished | rules.build.children_of(exposed);
            let mut leaving = exposed & can_leave & !left;
            if leaving == 0 {
                break;
            }
            while leaving != 0 {
                let card = leaving.trailing_zeros() as usize;
                leaving &= leaving - 1;
                left |= 1 << card;
                let under = self.below[card];
                if under < FLOOR {
                    // Down the column in the same round while the hosts
                    // known at its start take the card uncovered.
                    exposed |= 1 << under;
                    leaving |= can_leave & 1 << under;
                }
            }
        }
        finished != on_tableau
    }

    /// [`State::is_blocked_for_good`] of `child`, the position `mv` leads
    /// to from this one, which must not be blocked; without working the
    /// closure out when the move shows it.
    ///
    /// Why: say the move put card X from the card U (or a floor) onto the
    /// top card P, and sent nothing to the foundation. The two positions
    /// then differ only in what lies on P and on U, and if the child's
    /// closure has X leave, it has P uncovered as well, and U is a top:
    /// every event of this position's closure is then one of the child's
    /// (by induction along its derivation; the tableau and the foundation
    /// are the same). X leaves in the child's closure when a card it may go
    /// on, other than P, is a column top there. This position's closure
    /// finishes every card, so the child's does too.
    #[inline]
    pub fn is_blocked_after(&self, mv: Move, child: &State) -> bool {
        if let Dest::Card(_) = mv.dest
            && child.score() == self.score()
            && rank(mv.card) < KING
        {
            let r = rank(mv.card);
            // P itself is no top: X lies on it.
            let free_host = (0..SUITS as u8).any(|s| {
                let host = card_of(r + 1, s);
                child.rules.build.allows(mv.card, host) && child.is_top(host)
            });
            if free_host {
                return false;
            }
        }
        child.is_blocked_for_good()
    }

    /// One walk up every column, for the facts the search prunes and
    /// orders by.
    #[inline]
    pub fn survey(&self) -> Survey {
        let rules = self.rules;
        let only_onto_higher = rules.only_onto_higher();
        let dead_run = rules.dead_run_length().unwrap_or(usize::MAX);
        let mut survey = Survey::default();
        let mut bottoms = self.floor_cards();
        while bottoms != 0 {
            let bottom = bottoms.trailing_zeros() as Card;
            bottoms &= bottoms - 1;
            // The cards beneath `card` in its column, a bit per card.
            let mut beneath = 0u64;
            // Length of the decreasing same-suit run ending at `card`, and
            // the card beneath it.
            let mut run = 0;
            let mut under = NOTHING;
            let mut card = bottom;
            loop {
                // Card numbers grow with rank: the bits below `card`'s rank
                // are the lower cards, and every fourth of them its suit's.
                run = if under == card + 4 { run + 1 } else { 1 };
                let lower = beneath & ((1u64 << (card & !3)) - 1);
                let own = lower & (SUIT_CARDS << suit(card)) != 0;
                survey.any_inversions += (lower != 0) as usize;
                survey.own_suit_inversions += own as usize;
                if own && only_onto_higher {
                    let r = rank(card);
                    if !(r < KING
                        && (0..SUITS as u8).any(|t| {
                            let onto = card_of(r + 1, t);
                            rules.build.allows(card, onto)
                                && self.foundation[t as usize] <= r
                                && beneath & (1 << onto) == 0
                        }))
                    {
                        survey.stuck = true;
                    }
                }
                beneath |= 1 << card;
                let next = self.above[card as usize];
                if next == NOTHING {
                    // The top card: the run's cards are all higher than it,
                    // so a lower card of its suit lies beneath the run
                    // exactly when one lies beneath the top.
                    if own && run >= dead_run {
                        survey.dead_run = true;
                    }
                    break;
                }
                under = card;
                card = next;
            }
        }
        survey
    }

    /// The bottom cards of the columns, a bit per card.
    #[inline]
    fn floor_cards(&self) -> u64 {
        card_bits(&self.below).floor
    }

    /// The same-suit dead-run rule of SPEC §8: a column whose top holds a
    /// decreasing same-suit run too long to move again (see
    /// [`Rules::dead_run_length`]) over a lower card of that suit can never
    /// be cleared, so the position can never be won.
    pub fn has_dead_run(&self) -> bool {
        self.survey().dead_run
    }
}

impl fmt::Display for State {
    /// The position as a person reads it: foundation, registers, then each
    /// column from bottom to top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SUIT_NAMES: [&str; 4] = ["♣", "♠", "♥", "♦"];
        write!(f, "Foundation:")?;
        for (s, &n) in self.foundation.iter().enumerate() {
            match n {
                0 => write!(f, "  {} -", SUIT_NAMES[s])?,
                n => write!(f, "  {}", Name(card_of(n, s as u8)))?,
            }
        }
        writeln!(f, "   ({} cards)", self.score())?;
        if self.rules.registers > 0 {
            write!(f, "Registers: ")?;
            for card in self.registers() {
                write!(f, " {}", Name(card))?;
            }
            for _ in 0..self.free_registers() {
                write!(f, " .")?;
            }
            writeln!(f)?;
        }
        let columns = self.columns();
        for (i, column) in columns.iter().enumerate() {
            write!(f, "{:>2}:", i + 1)?;
            for &card in column {
                write!(f, " {:>3}", Name(card))?;
            }
            writeln!(f)?;
        }
        for i in columns.len()..self.rules.columns {
            writeln!(f, "{:>2}: (empty)", i + 1)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{GAMES, GameId};

    fn initial(game: &str, seed: u32) -> (Deal, State) {
        let deal = Deal::new(GameId {
            rules: crate::rules::find(game).unwrap(),
            seed,
        });
        let state = State::new(&deal);
        (deal, state)
    }

    /// A xorshift step: the tests' random numbers, the same on every run.
    fn xorshift(rng: &mut u64) -> u64 {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng
    }

    /// Calls `visit` with a deal's position and each position of a random
    /// legal walk from it, up to `steps` of them.
    fn walk(game: &str, seed: u32, steps: usize, rng: &mut u64, mut visit: impl FnMut(&State)) {
        let (_, mut state) = initial(game, seed);
        for _ in 0..steps {
            visit(&state);
            let mut moves = Vec::new();
            state.for_each_move(|m| moves.push(m));
            if moves.is_empty() {
                break;
            }
            state.apply(moves[(xorshift(rng) % moves.len() as u64) as usize]);
        }
    }

    /// No accessible card is its suit's next one.
    fn is_normalized(state: &State) -> bool {
        (0..SUITS as u8).all(|s| {
            let h = state.foundation[s as usize];
            h == KING || !state.is_accessible(card_of(h + 1, s))
        })
    }

    /// The foundation holds exactly each suit's lowest cards.
    fn foundation_is_consistent(state: &State) -> bool {
        (0..CARDS as Card).all(|c| {
            (state.below(c) == FOUNDATION) == (rank(c) <= state.foundation[suit(c) as usize])
        })
    }

    #[test]
    fn initial_states_are_normalized_and_keep_every_card() {
        for rules in &GAMES {
            for seed in 1..=200 {
                let (deal, state) = initial(rules.alias, seed);
                assert!(is_normalized(&state), "{} {seed}", rules.name);
                assert!(foundation_is_consistent(&state), "{} {seed}", rules.name);
                // Cards left in place keep their order: each column of the
                // state is a dealt column less a top run played away.
                for column in state.columns() {
                    let dealt = deal.columns.iter().find(|d| d[0] == column[0]).unwrap();
                    assert_eq!(dealt[..column.len()], column[..]);
                }
                let key = state.key();
                let back = KeyDecoder::new(&deal).state(key);
                assert_eq!(back, state);
                assert_eq!(back.empty_columns, state.empty_columns);
                assert_eq!(back.registers_used, state.registers_used);
                assert_eq!(back.foundation, state.foundation);
            }
        }
    }

    #[test]
    fn normalization_cascades_through_suits() {
        // Seahaven 12345 (permutation in conformance facts): find any deal
        // whose initial normalization plays more than one card of a suit.
        let mut seen_cascade = false;
        for seed in 1..=300 {
            let (_, state) = initial("st", seed);
            if state.foundation.iter().any(|&h| h >= 2) {
                seen_cascade = true;
                assert!(is_normalized(&state) && foundation_is_consistent(&state));
            }
        }
        assert!(seen_cascade);
    }

    /// Random legal walks: every move keeps the state normalized, consistent
    /// and its key faithful, and never moves a card that is not next in its
    /// suit onto the foundation.
    #[test]
    fn random_walks_keep_every_invariant() {
        let mut rng = 0x2545F4914F6CDD1Du64;
        let mut next = move || xorshift(&mut rng);
        for rules in &GAMES {
            for seed in 1..=30 {
                let (deal, mut state) = initial(rules.alias, seed);
                let decoder = KeyDecoder::new(&deal);
                for _ in 0..200 {
                    let mut moves = Vec::new();
                    state.for_each_move(|m| moves.push(m));
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[(next() % moves.len() as u64) as usize];
                    assert_eq!(state.check_move(mv), Ok(()), "{mv}");
                    let before = state.foundation;
                    state.apply(mv);
                    assert!(state.foundation.iter().zip(before).all(|(&a, b)| a >= b));
                    assert!(is_normalized(&state));
                    assert!(foundation_is_consistent(&state));
                    let back = decoder.state(state.key());
                    assert_eq!(back, state);
                    assert_eq!(back.key(), state.key());
                    assert_eq!(back.empty_columns, state.empty_columns);
                    assert_eq!(back.registers_used, state.registers_used);
                    let placed = state.columns().iter().map(Vec::len).sum::<usize>()
                        + state.registers().count()
                        + state.score() as usize;
                    assert_eq!(placed, CARDS);
                    assert_eq!(state.columns().len() + state.empty_columns(), rules.columns);
                }
            }
        }
    }

    #[test]
    fn generated_moves_are_exactly_the_useful_legal_ones() {
        for rules in &GAMES {
            for seed in 1..=20 {
                let (_, state) = initial(rules.alias, seed);
                let mut generated = Vec::new();
                state.for_each_move(|m| generated.push(m));
                for card in 0..52 {
                    let dests = (0..52)
                        .map(Dest::Card)
                        .chain([Dest::EmptyColumn, Dest::Register]);
                    for dest in dests {
                        let mv = Move { card, dest };
                        let lone_to_empty = dest == Dest::EmptyColumn && state.below(card) == FLOOR;
                        let legal = state.check_move(mv).is_ok() && !lone_to_empty;
                        assert_eq!(
                            generated.contains(&mv),
                            legal,
                            "{} {seed}: {mv}",
                            rules.name
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn column_and_register_order_do_not_change_the_key() {
        let (deal, state) = initial("fc", 123);
        let mut swapped = deal.clone();
        swapped.columns.swap(0, 5);
        swapped.columns.swap(2, 7);
        assert_eq!(State::new(&swapped).key(), state.key());
        let (deal, state) = initial("st", 5);
        let mut swapped = deal.clone();
        swapped.registers.reverse();
        assert_eq!(State::new(&swapped).key(), state.key());
    }

    #[test]
    fn illegal_moves_are_named() {
        let (deal, state) = initial("fc", 123);
        // FreeCell 123: first column ends with 9♠ (33) on top.
        assert_eq!(deal.columns[0].last(), Some(&33));
        let buried = deal.columns[0][5];
        let mv = |card, dest| Move { card, dest };
        assert_eq!(
            state.check_move(mv(buried, Dest::Register)),
            Err(Illegal::CardBuried { under: 33 })
        );
        assert_eq!(
            state.check_move(mv(33, Dest::EmptyColumn)),
            Err(Illegal::NoEmptyColumn)
        );
        assert_eq!(
            state.check_move(mv(33, Dest::Card(33))),
            Err(Illegal::TargetIsTheCard)
        );
        assert_eq!(
            state.check_move(mv(33, Dest::Card(buried))),
            Err(Illegal::TargetBuried { under: 33 })
        );
        assert!(matches!(
            state.check_move(mv(33, Dest::Card(deal.columns[1][0]))),
            Err(Illegal::TargetBuried { .. })
        ));
        let mut s = state.clone();
        s.try_apply(mv(33, Dest::Register)).unwrap();
        assert_eq!(
            s.check_move(mv(33, Dest::Register)),
            Err(Illegal::RegisterToRegister)
        );
        let (_, bd) = initial("bd", 1);
        let top = bd.columns()[0].last().copied().unwrap();
        assert_eq!(
            bd.check_move(mv(top, Dest::Register)),
            Err(Illegal::NoRegisters {
                game: "BakersDozen"
            })
        );
    }

    #[test]
    fn seahaven_empty_columns_take_only_kings() {
        let (_, st) = initial("st", 1);
        let mut st = st.clone();
        st.empty_columns = 1; // pretend a column emptied
        let king = (0..52).find(|&c| rank(c) == KING && st.is_accessible(c));
        let other = (0..52)
            .find(|&c| rank(c) != KING && st.is_accessible(c))
            .unwrap();
        assert!(matches!(
            st.check_move(Move {
                card: other,
                dest: Dest::EmptyColumn
            }),
            Err(Illegal::EmptyColumnRefuses {
                only_kings: true,
                ..
            })
        ));
        if let Some(king) = king {
            assert_eq!(
                st.check_move(Move {
                    card: king,
                    dest: Dest::EmptyColumn
                }),
                Ok(())
            );
        }
    }

    /// SPEC §8 read literally, walking down from every top: the oracle
    /// for [`Survey::dead_run`].
    fn dead_run_by_walking_down(state: &State) -> bool {
        let Some(limit) = state.rules.dead_run_length() else {
            return false;
        };
        for top in 0..CARDS as Card {
            if !state.is_top(top) {
                continue;
            }
            let mut head = top;
            let mut length = 1;
            loop {
                let below = state.below[head as usize];
                if below < FLOOR && suit(below) == suit(top) && rank(below) == rank(head) + 1 {
                    head = below;
                    length += 1;
                } else {
                    break;
                }
            }
            if length < limit {
                continue;
            }
            let mut under = state.below[head as usize];
            while under < FLOOR {
                if suit(under) == suit(top) && rank(under) < rank(top) {
                    return true;
                }
                under = state.below[under as usize];
            }
        }
        false
    }

    #[test]
    fn the_survey_finds_the_dead_runs_a_literal_walk_finds() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut seen = [0, 0];
        for game in ["st", "mo"] {
            for seed in 1..=60 {
                walk(game, seed, 150, &mut rng, |state| {
                    let dead = dead_run_by_walking_down(state);
                    assert_eq!(state.survey().dead_run, dead, "{game}.{seed}");
                    seen[dead as usize] += 1;
                });
            }
        }
        assert!(seen[0] > 100 && seen[1] > 10, "{seen:?}");
    }

    /// The survey of the first version, with a rank comparison per card
    /// instead of bit masks: the oracle for [`State::survey`].
    fn survey_by_walking(state: &State) -> Survey {
        let rules = state.rules;
        let only_onto_higher = rules.only_onto_higher();
        let dead_run = rules.dead_run_length();
        let mut survey = Survey::default();
        for bottom in 0..CARDS as Card {
            if state.below[bottom as usize] != FLOOR {
                continue;
            }
            let mut lowest = [KING + 1; SUITS];
            let mut lowest_any = KING + 1;
            let mut beneath = 0u64;
            // Length of the decreasing same-suit run ending at `card`.
            let mut run = 0;
            let mut card = bottom;
            loop {
                let (s, r) = (suit(card), rank(card));
                let under = state.below[card as usize];
                run = if under < FLOOR && suit(under) == s && rank(under) == r + 1 {
                    run + 1
                } else {
                    1
                };
                if lowest[s as usize] < r {
                    survey.own_suit_inversions += 1;
                    if only_onto_higher
                        && !(r < KING
                            && (0..SUITS as u8).any(|t| {
                                let onto = card_of(r + 1, t);
                                rules.build.allows(card, onto)
                                    && state.foundation[t as usize] <= r
                                    && beneath & (1 << onto) == 0
                            }))
                    {
                        survey.stuck = true;
                    }
                } else {
                    lowest[s as usize] = r;
                }
                if lowest_any < r {
                    survey.any_inversions += 1;
                } else {
                    lowest_any = r;
                }
                beneath |= 1 << card;
                match state.above(card) {
                    Some(next) => card = next,
                    None => {
                        // The top card: `lowest` now covers the run and
                        // everything beneath it, and the run's cards are all
                        // higher than the top, so a lower card of its suit
                        // lies beneath the run exactly when `lowest` says so.
                        if dead_run.is_some_and(|limit| run >= limit) && lowest[s as usize] < r {
                            survey.dead_run = true;
                        }
                        break;
                    }
                }
            }
        }
        survey
    }

    #[test]
    fn the_survey_counts_what_a_walk_by_ranks_counts() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for rules in &GAMES {
            for seed in 1..=40 {
                walk(rules.alias, seed, 200, &mut rng, |state| {
                    let game = rules.alias;
                    assert_eq!(state.survey(), survey_by_walking(state), "{game}.{seed}");
                });
            }
        }
    }

    #[test]
    fn dead_runs_are_found_only_over_a_lower_card_of_their_suit() {
        // Midnight Oil: a 2-card same-suit run over a lower card of its suit.
        let mo = crate::rules::find("mo").unwrap();
        let mut deal = Deal::new(GameId { rules: mo, seed: 1 });
        // Rebuild the first column as 3♣ (8) under 9♣ (32) under 8♣ (28).
        let wanted = [8u8, 32, 28];
        for column in &mut deal.columns {
            column.retain(|c| !wanted.contains(c));
        }
        deal.columns.retain(|c| !c.is_empty());
        deal.columns.insert(0, wanted.to_vec());
        while deal.columns.len() < mo.columns {
            deal.columns.push(Vec::new());
        }
        let state = State::new(&deal);
        assert!(state.has_dead_run());
        // 8♣ lies over 3♣ and its only parent, 9♣, lies beneath it.
        assert!(state.has_stuck_card());
        // The same run over a higher card of its suit is not dead.
        deal.columns[0] = vec![48, 32, 28]; // K♣ 9♣ 8♣
        for column in deal.columns.iter_mut().skip(1) {
            if let Some(i) = column.iter().position(|&c| c == 48) {
                column[i] = 8;
            }
        }
        assert!(!State::new(&deal).has_dead_run());
        assert!(!State::new(&deal).has_stuck_card());
    }

    /// Baker's Dozen 218 is lost from the deal, and no single card shows
    /// it: every King lies under a Queen (K♣ under Q♦, K♠ under Q♥, K♥
    /// under Q♠, K♦ under Q♣), so the first Queen to leave must go to the
    /// foundation; but 10♥ lies under Q♠, J♠ under Q♣, 3♣ under Q♦ and 6♦
    /// under Q♥, so each Queen's suit waits on the next Queen.
    #[test]
    fn a_cycle_of_queens_blocks_bakers_dozen_218_from_the_deal() {
        let (_, state) = initial("bd", 218);
        assert!(!state.has_stuck_card());
        assert!(state.is_blocked_for_good());
        // A deal the search solves is not blocked.
        let (_, state) = initial("bd", 1);
        assert!(!state.is_blocked_for_good());
    }

    /// A blocked position's continuations are some of its parent's, so all
    /// its children are blocked too; a stuck card is one way to be blocked;
    /// games with registers or open empty columns are never judged.
    #[test]
    fn blocked_positions_have_only_blocked_children_and_contain_stuck_ones() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut seen = [0usize; 2];
        for rules in &GAMES {
            for seed in 1..=40 {
                walk(rules.alias, seed, 200, &mut rng, |state| {
                    let blocked = state.is_blocked_for_good();
                    let game = rules.alias;
                    assert!(!state.has_stuck_card() || blocked, "{game}.{seed}");
                    if rules.registers > 0 {
                        assert!(!blocked, "{game}.{seed}");
                    }
                    seen[blocked as usize] += 1;
                    if blocked {
                        state.for_each_move(|mv| {
                            let mut child = state.clone();
                            child.apply(mv);
                            assert!(child.is_blocked_for_good(), "{game}.{seed}: {mv}");
                        });
                    }
                });
            }
        }
        assert!(seen[0] > 1000 && seen[1] > 100, "{seen:?}");
    }

    /// The shortcut after a move gives the closure's answer whenever the
    /// position moved from is not blocked.
    #[test]
    fn blocked_after_a_move_agrees_with_the_closure() {
        let mut rng = 0x1234_5678_9ABC_DEF1u64;
        let mut compared = [0usize; 2];
        for game in ["bd", "mo"] {
            for seed in 1..=60 {
                walk(game, seed, 200, &mut rng, |state| {
                    if state.is_blocked_for_good() {
                        return;
                    }
                    state.for_each_move(|mv| {
                        let mut child = state.clone();
                        child.apply(mv);
                        let blocked = child.is_blocked_for_good();
                        assert_eq!(
                            state.is_blocked_after(mv, &child),
                            blocked,
                            "{game}.{seed} {mv}"
                        );
                        compared[blocked as usize] += 1;
                    });
                });
            }
        }
        assert!(compared[0] > 1000 && compared[1] > 100, "{compared:?}");
    }
}
