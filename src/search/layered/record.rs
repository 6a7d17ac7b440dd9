//! A record of a layer file: a child's key, then its parent's, 20 bytes
//! each (a key's 156 bits: two full words and the 30 bits of the third),
//! so that the path to a won position can be rebuilt from the files. Its
//! own module, as both the files (`store`) and the manifest's check of
//! their lengths (`manifest`) read it.

use crate::state::Key;

/// Bytes of one key in a record.
pub(super) const KEY_BYTES: usize = 20;
/// Bytes of one record: a child's key, then its parent's.
pub(super) const RECORD_BYTES: u64 = 2 * KEY_BYTES as u64;
/// The parent of the deal's position: no key has every bit of its first
/// word set (a key word uses 63 bits).
pub(super) fn no_key() -> Key {
    Key::from_words([u64::MAX, 0, 0])
}

/// Writes `key` into the first [`KEY_BYTES`] of `out`.
pub(super) fn put_key(out: &mut [u8], key: &Key) {
    let [a, b, c] = key.words();
    out[0..8].copy_from_slice(&a.to_le_bytes());
    out[8..16].copy_from_slice(&b.to_le_bytes());
    out[16..20].copy_from_slice(&(c as u32).to_le_bytes());
}

/// The key [`put_key`] wrote into `bytes`.
pub(super) fn get_key(bytes: &[u8]) -> Key {
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let last = u32::from_le_bytes(bytes[16..20].try_into().expect("4 bytes"));
    Key::from_words([word(0), word(8), last as u64])
}
