//! A byte of a position changed by a write of its whole 16-byte half.
//!
//! Why: positions are copied as 16-byte moves, and a move that reads a
//! half just written a byte at a time cannot take it from the write still
//! on its way to memory: it waits until the write is done (a
//! store-forwarding stall, some dozen cycles). The moves of the suitless
//! game change a byte or two of a position and copy it on at once; `perf`
//! on BakersDozen.191326999's clubs-followed search in layers (layer 35)
//! put a fifth of the run in `Moves::burst_ends`, half of it on two such
//! copies. A half written whole is taken from the write at once.

/// A type made of whole 16-byte halves, aligned to 16, every byte of it
/// a `u8` of some field: no padding, no other field types.
///
/// # Safety
/// The implementer is `repr(C)` or made only of such types and `[u8; N]`
/// arrays, aligned to 16, its size a multiple of 16, with no padding
/// byte: any byte may then be read and written as a `u8`.
pub(super) unsafe trait Halves: Copy {}

/// Byte `offset` of `value` plus `by` (wrapping): `by` 1 adds one,
/// `u8::MAX` takes one away.
#[inline(always)]
pub(super) fn add_byte<T: Halves>(value: &mut T, offset: usize, by: u8) {
    assert!(offset < size_of::<T>());
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_add_epi8, _mm_and_si128, _mm_load_si128, _mm_loadu_si128, _mm_set1_epi8,
            _mm_store_si128,
        };
        /// Each byte of a half alone, all ones.
        static MASKS: [[u8; 16]; 16] = {
            let mut masks = [[0; 16]; 16];
            let mut i = 0;
            while i < 16 {
                masks[i][i] = u8::MAX;
                i += 1;
            }
            masks
        };
        // SAFETY: `Halves` makes `T` 16-byte halves aligned to 16, every
        // byte initialized, and `offset / 16` is one of them (asserted
        // above); SSE2 is part of x86_64.
        unsafe {
            let half = (value as *mut T).cast::<__m128i>().add(offset / 16);
            let mask = _mm_loadu_si128(MASKS[offset % 16].as_ptr().cast());
            let delta = _mm_and_si128(_mm_set1_epi8(by as i8), mask);
            _mm_store_si128(half, _mm_add_epi8(_mm_load_si128(half), delta));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    add_byte_plainly(value, offset, by);
}

/// [`add_byte`] a byte at a time: what the SSE2 form must equal, and the
/// form of other processors (compiled and tested on x86-64 too).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn add_byte_plainly<T: Halves>(value: &mut T, offset: usize, by: u8) {
    assert!(offset < size_of::<T>());
    // SAFETY: `Halves` makes every byte of `T` an initialized `u8`, and
    // `offset` lies within it (asserted above).
    unsafe {
        let byte = (value as *mut T).cast::<u8>().add(offset);
        *byte = (*byte).wrapping_add(by);
    }
}

/// Byte `offset` of `value` set to `to`.
#[inline(always)]
pub(super) fn set_byte<T: Halves>(value: &mut T, offset: usize, to: u8) {
    assert!(offset < size_of::<T>());
    // SAFETY: `Halves` makes every byte of `T` an initialized `u8`, and
    // `offset` lies within it (asserted above).
    let old = unsafe { *(value as *const T).cast::<u8>().add(offset) };
    add_byte(value, offset, to.wrapping_sub(old));
}

/// A hash of every byte of `value`, its highest bits the best mixed:
/// each 8 bytes times an odd number of its own, summed (the products
/// independent of each other, so quick).
#[inline(always)]
pub(super) fn hash<T: Halves>(value: &T) -> u64 {
    const ODD: [u64; 8] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0xD6E8_FEB8_6659_FD93,
        0xFF51_AFD7_ED55_8CCD,
        0xC4CE_B9FE_1A85_EC53,
        0x8CB9_2BA7_2F3D_8DD7,
        0x2545_F491_4F6C_DD1D,
    ];
    let words = size_of::<T>() / 8;
    let base = (value as *const T).cast::<u64>();
    (0..words).fold(0u64, |sum, i| {
        // SAFETY: `Halves` makes `T` aligned to 16 (so to 8) and every
        // byte of it an initialized `u8`; word `i` lies within it.
        let word = unsafe { base.add(i).read() };
        sum.wrapping_add(word.wrapping_mul(ODD[i % ODD.len()]))
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Two halves, the tests' own (`layers/repeats.rs` uses it too).
    #[derive(Clone, Copy, PartialEq, Debug)]
    #[repr(C, align(16))]
    pub(in crate::state::suitless) struct Two(pub(in crate::state::suitless) [u8; 32]);

    // SAFETY: one `[u8; 32]`, aligned to 16.
    unsafe impl Halves for Two {}

    #[test]
    fn each_byte_changes_alone() {
        let start = Two(std::array::from_fn(|i| (i * 7) as u8));
        for offset in 0..32 {
            for by in [1, u8::MAX, 200] {
                let mut changed = start;
                add_byte(&mut changed, offset, by);
                let mut expected = start;
                expected.0[offset] = expected.0[offset].wrapping_add(by);
                assert_eq!(changed, expected, "byte {offset} plus {by}");
                let mut plainly = start;
                add_byte_plainly(&mut plainly, offset, by);
                assert_eq!(plainly, expected, "byte {offset} plus {by}, plainly");
            }
            let mut set = start;
            set_byte(&mut set, offset, 99);
            let mut expected = start;
            expected.0[offset] = 99;
            assert_eq!(set, expected, "byte {offset} set");
        }
    }
}
