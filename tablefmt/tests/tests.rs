//! Integration tests of `tablefmt`: round trips, damaged files, atomic writes,
//! compression, and the committed corpus.

use proptest::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tablefmt::{
    build_fst, checksum_hex, commit_all, compress_file, decompress_file, dense_file_len,
    encode_dense, encode_fst, encode_words, read_header, remove_stale_temp_files, sha256_hex,
    stale_temp_files, verify, write_atomic, write_dense_from, write_dense_sharded_from, Encoding,
    ErrorKind, FormatError, OpenOptions, ShardedTable, StagedFile, Table, TableMeta,
    MAX_FILE_BYTES,
};

const DENSE: [Encoding; 4] = [
    Encoding::Nibble,
    Encoding::Crumb,
    Encoding::Trit,
    Encoding::Byte,
];

fn meta(id: &str, states: u64) -> TableMeta {
    TableMeta {
        id: id.into(),
        definition_hash: 0xfeed_beef_0123_4567,
        states,
        histogram: vec![1, states.saturating_sub(1)],
        generator: "tablefmt-tests 0".into(),
        meta: vec![
            ("puzzle".into(), "test".into()),
            (
                "note".into(),
                "a longer value so the string is stored out of line".into(),
            ),
        ],
    }
}

/// A deterministic pseudo-random byte stream (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn values(enc: Encoding, n: usize, seed: u64) -> Vec<u8> {
    let max = u64::from(enc.max_value().unwrap());
    let mut r = Rng(seed | 1);
    (0..n).map(|_| (r.next() % (max + 1)) as u8).collect()
}

fn dense_file(id: &str, enc: Encoding, n: usize) -> Vec<u8> {
    encode_dense(&meta(id, n as u64), &values(enc, n, 7), enc).unwrap()
}

fn fst_entries(n: usize) -> Vec<(Vec<u8>, u64)> {
    let m: BTreeMap<Vec<u8>, u64> = (0..n as u64)
        .map(|i| {
            (
                i.wrapping_mul(0x9e37_79b9_7f4a_7c15).to_be_bytes()[..5].to_vec(),
                i % 13,
            )
        })
        .collect();
    m.into_iter().collect()
}

fn fst_file(id: &str, n: usize) -> Vec<u8> {
    let entries = fst_entries(n);
    let fst = build_fst(entries.iter().map(|(k, v)| (k.as_slice(), *v))).unwrap();
    encode_fst(&meta(id, n as u64), fst).unwrap()
}

fn payload_range(bytes: &[u8]) -> std::ops::Range<usize> {
    Table::from_bytes(bytes, &OpenOptions::default())
        .unwrap()
        .payload_range()
}

fn open_default(path: &Path) -> Result<Table, FormatError> {
    Table::open(path, &OpenOptions::default())
}

/// Writes `bytes` to `dir/name`, opens it, and checks the error is of kind `code`
/// and its one-line message names the file and contains `phrase`.
fn expect_fault(dir: &Path, name: &str, bytes: &[u8], code: &str, phrase: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    expect_open_fault(&path, &OpenOptions::default(), code, phrase)
}

fn expect_open_fault(path: &Path, opts: &OpenOptions, code: &str, phrase: &str) -> String {
    let err = Table::open(path, opts).expect_err("a damaged file must not open");
    let msg = err.to_string();
    assert_eq!(err.code(), code, "{msg}");
    assert!(
        msg.contains(&path.display().to_string()),
        "message must name the file: {msg}"
    );
    assert!(msg.contains(phrase), "message must say {phrase:?}: {msg}");
    assert!(!msg.contains('\n'), "one line: {msg}");
    assert_eq!(err.path(), Some(path));
    msg
}

// ---------------------------------------------------------------- round trips

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn dense_round_trip(enc_i in 0usize..4, raw in proptest::collection::vec(any::<u8>(), 0..400)) {
        let enc = DENSE[enc_i];
        let max = enc.max_value().unwrap();
        let vals: Vec<u8> = raw.iter().map(|&v| if max == 255 { v } else { v % (max + 1) }).collect();
        let m = meta("prop", vals.len() as u64);
        let bytes = encode_dense(&m, &vals, enc).unwrap();
        let t = Table::from_bytes(&bytes, &OpenOptions::default()).unwrap();
        let d = t.dense().unwrap();
        prop_assert_eq!(d.len(), vals.len() as u64);
        prop_assert_eq!(d.encoding(), enc);
        prop_assert_eq!(d.iter().collect::<Vec<_>>(), vals.clone());
        for (i, &v) in vals.iter().enumerate() {
            prop_assert_eq!(d.get(i as u64), v);
        }
        prop_assert_eq!(d.try_get(vals.len() as u64), None);
        prop_assert!(t.fst().is_none());
        prop_assert_eq!(tablefmt::unpack_dense(d.as_bytes(), enc, vals.len() as u64), Some(vals));
        prop_assert_eq!(&t.info().checksum, &checksum_hex(t.payload()));
    }

    #[test]
    fn fst_round_trip(m in proptest::collection::btree_map(proptest::collection::vec(any::<u8>(), 0..12), any::<u64>(), 0..200)) {
        let fst = build_fst(m.iter().map(|(k, v)| (k.as_slice(), *v))).unwrap();
        let bytes = encode_fst(&meta("sparse", m.len() as u64), fst).unwrap();
        let t = Table::from_bytes(&bytes, &OpenOptions::default()).unwrap();
        prop_assert!(t.dense().is_none());
        prop_assert_eq!(t.encoding(), Encoding::Fst);
        let map = t.fst().unwrap();
        prop_assert_eq!(map.len(), m.len());
        for (k, v) in &m {
            prop_assert_eq!(map.get(k), Some(*v));
        }
        let mut k = vec![0xffu8; 13];
        k[0] = 0xfe;
        prop_assert_eq!(map.get(&k), m.get(&k).copied());
    }

    /// Damaging random bytes never panics; with checksum verification on, a file
    /// with any changed byte never opens.
    #[test]
    fn mutated_files_never_panic(
        kind in 0usize..5,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..5),
        cut in proptest::option::of(any::<prop::sample::Index>()),
    ) {
        let good = if kind < 4 { dense_file("mut", DENSE[kind], 37) } else { fst_file("mut", 40) };
        let payload = payload_range(&good);
        let mut bad = good.clone();
        for (at, b) in &edits {
            let i = at.index(bad.len());
            bad[i] = *b;
        }
        if let Some(c) = cut {
            bad.truncate(c.index(bad.len()));
        }
        let payload_changed = bad.len() < payload.end || bad[payload.clone()] != good[payload.clone()];
        let checked = Table::from_bytes(&bad, &OpenOptions::default());
        if payload_changed {
            prop_assert!(checked.is_err(), "payload changed but the table opened");
        }
        if bad != good {
            prop_assert!(checked.is_err(), "the file changed but the table opened");
        }
        if let Ok(t) = &checked {
            // Usable without panics.
            if let Some(d) = t.dense() { let _: u64 = d.iter().map(u64::from).sum(); }
            if let Some(m) = t.fst() { let _ = m.stream(); let _ = m.get([1u8, 2, 3]); }
        }
        let unchecked = Table::from_bytes(&bad, &OpenOptions { verify_checksum: false, ..OpenOptions::default() });
        if let Ok(t) = &unchecked {
            if let Some(d) = t.dense() { let _: u64 = d.iter().map(u64::from).sum(); }
        }
        if let Err(e) = &checked { prop_assert!(!e.to_string().is_empty()); }
    }

    /// Arbitrary bytes never panic and never open.
    #[test]
    fn random_bytes_never_open(mut bytes in proptest::collection::vec(any::<u8>(), 0..300), preamble in any::<bool>()) {
        if preamble && bytes.len() >= 16 {
            bytes[..8].copy_from_slice(b"CUBETBL\0");
            bytes[8..16].copy_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]);
        }
        prop_assert!(Table::from_bytes(&bytes, &OpenOptions::default()).is_err());
    }
}

/// Every single changed byte, anywhere in the file (preamble, header, pointers,
/// padding, payload), makes a full open fail, for each encoding and an FST; a
/// byte of padding, which no field holds, is named as such.
#[test]
fn every_changed_byte_is_refused() {
    let mut files: Vec<Vec<u8>> = DENSE
        .iter()
        .map(|&enc| dense_file("every-byte", enc, 57))
        .collect();
    files.push(fst_file("every-byte", 40));
    let mut padding_named = 0;
    for good in &files {
        let payload = payload_range(good);
        for at in 0..good.len() {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut bad = good.clone();
                bad[at] ^= mask;
                let Err(e) = Table::from_bytes(&bad, &OpenOptions::default()) else {
                    panic!("byte {at} ^ {mask:#04x} of {} opened", good.len());
                };
                if !payload.contains(&at) && e.to_string().contains("padding") {
                    assert!(e.to_string().contains(&format!("byte {at} ")), "{e}");
                    padding_named += 1;
                }
            }
        }
    }
    assert!(padding_named > 0, "no padding byte found");
}

fn word_values(n: usize, seed: u64) -> Vec<u32> {
    let mut r = Rng(seed | 1);
    (0..n).map(|_| r.next() as u32).collect()
}

/// A word table (32-bit values, not distances) reads back value for value,
/// from memory and from a file; it has no byte view, the byte-valued
/// writers refuse its encoding, and every changed byte outside its payload
/// is refused (inside it, the checksum's).
#[test]
fn word_tables_round_trip_and_are_checked() {
    let vals = word_values(1_001, 5);
    let good = encode_words(&meta("words", 1_001), &vals).unwrap();
    let t = Table::from_bytes(&good, &OpenOptions::default()).unwrap();
    assert_eq!(t.encoding(), Encoding::Word);
    assert!(t.dense().is_none() && t.fst().is_none());
    let w = t.words().unwrap();
    assert_eq!(w.len(), 1_001);
    assert_eq!(w.iter().collect::<Vec<_>>(), vals);
    assert_eq!(w.get(1_000), vals[1_000]);
    assert_eq!(t.payload().len(), 4 * 1_001);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("words.tbl");
    write_atomic(&path, &good).unwrap();
    let t = open_default(&path).unwrap();
    assert_eq!(t.words().unwrap().iter().collect::<Vec<_>>(), vals);
    // A dense byte table has no word view.
    let bytes = dense_file("bytes", Encoding::Byte, 8);
    let t = Table::from_bytes(&bytes, &OpenOptions::default()).unwrap();
    assert!(t.words().is_none());
    // The wrong count, and the byte-valued writers.
    assert!(encode_words(&meta("words", 1_000), &vals).is_err());
    assert!(encode_dense(&meta("w", 3), &[1, 2, 3], Encoding::Word).is_err());
    let e = write_dense_from(
        &dir.path().join("w2.tbl"),
        &meta("w", 3),
        &mut &[1u8, 2, 3][..],
        Encoding::Word,
    )
    .unwrap_err();
    assert!(e.to_string().contains("word"), "{e}");
    assert!(!dir.path().join("w2.tbl").exists());
    let small = encode_words(&meta("words", 9), &word_values(9, 3)).unwrap();
    for at in 0..small.len() {
        let mut bad = small.clone();
        bad[at] ^= 0x10;
        assert!(
            Table::from_bytes(&bad, &OpenOptions::default()).is_err(),
            "byte {at} changed, and the file opened"
        );
    }
}

/// The layout check writes a payload's place in blocks of 64 KB: files whose
/// payload spans several blocks (and ends inside one) open, and every changed
/// byte outside their payload is still refused.
#[test]
fn layouts_of_payloads_longer_than_the_check_block_are_checked() {
    let files = [
        dense_file("blocks", Encoding::Byte, (1 << 16) * 3 + 5),
        dense_file("blocks", Encoding::Nibble, (1 << 17) + 1),
        fst_file("blocks", 20_000),
    ];
    for good in &files {
        let payload = payload_range(good);
        assert!(
            payload.len() > 1 << 16,
            "payload of {} bytes",
            payload.len()
        );
        for at in (0..good.len()).filter(|at| !payload.contains(at)) {
            let mut bad = good.clone();
            bad[at] ^= 0x40;
            assert!(
                Table::from_bytes(&bad, &OpenOptions::default()).is_err(),
                "byte {at} of {} changed, and the file opened",
                good.len()
            );
        }
    }
}

#[test]
fn streamed_dense_files_equal_encoded_ones() {
    let dir = tempfile::tempdir().unwrap();
    // Sizes around the writer's chunk (20 << 16 states) and the packing.
    for n in [0usize, 1, 7, 1_310_719, 1_310_720, 1_310_721, 2_700_003] {
        for enc in DENSE {
            let v = values(enc, n, n as u64 + 3);
            let m = meta("streamed", n as u64);
            let want = encode_dense(&m, &v, enc).unwrap();
            let path = dir.path().join(format!("s-{n}-{enc}.tbl"));
            let len = write_dense_from(&path, &m, &mut &v[..], enc).unwrap();
            let got = std::fs::read(&path).unwrap();
            assert_eq!(len, got.len() as u64);
            assert_eq!(dense_file_len(&m, enc).unwrap(), len);
            assert!(got == want, "{n} states, {enc}");
            verify(&path).unwrap();
        }
    }
    // Too few values, or one out of range: an error, and no file.
    let path = dir.path().join("short.tbl");
    let e = write_dense_from(
        &path,
        &meta("short", 10),
        &mut &[1u8; 9][..],
        Encoding::Byte,
    );
    assert!(e
        .unwrap_err()
        .to_string()
        .contains("cannot read the values"));
    let e = write_dense_from(
        &path,
        &meta("short", 3),
        &mut &[1u8, 9, 1][..],
        Encoding::Crumb,
    );
    assert!(e.is_err());
    assert!(!path.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 28);
}

#[test]
fn sharded_tables_hold_the_values_of_one_file() {
    let dir = tempfile::tempdir().unwrap();
    for (n, enc, max) in [
        (2_700_003usize, Encoding::Crumb, 200_000u64),
        (1_000_000, Encoding::Trit, 100_000),
        (5_000, Encoding::Nibble, 100_000),
        (777_777, Encoding::Byte, 250_000),
    ] {
        let v = values(enc, n, n as u64);
        let m = meta("sharded", n as u64);
        let index = dir.path().join(format!("t-{enc}.shards.json"));
        let idx = write_dense_sharded_from(&index, &m, &mut &v[..], enc, max).unwrap();
        assert_eq!(idx.shards.len() == 1, n == 5_000, "{n} {enc}");
        assert!(idx.shards.iter().all(|s| s.bytes <= max), "{n} {enc}");
        let t = ShardedTable::open(&index, &OpenOptions::default()).unwrap();
        assert_eq!(t.states(), n as u64);
        assert!((0..n).all(|i| t.get(i as u64) == v[i]), "{n} {enc}");
        // The shards' payloads, end to end, are the one file's payload.
        let one = encode_dense(&m, &v, enc).unwrap();
        let one = Table::from_bytes(&one, &OpenOptions::default()).unwrap();
        let joined: Vec<u8> = t
            .shards()
            .iter()
            .flat_map(|s| s.payload().to_vec())
            .collect();
        assert!(joined == one.payload(), "{n} {enc}");
        // So the whole table's header is the one file's, but for its bytes.
        let mut h = t.header();
        assert!(h.bytes > one.info().bytes || n == 5_000, "{n} {enc}");
        h.bytes = one.info().bytes;
        assert_eq!(h, *one.info(), "{n} {enc}");
    }
    // A damaged shard, a shard of another build, a missing one: refused.
    let index = dir.path().join("t-crumb.shards.json");
    let idx: tablefmt::ShardIndex =
        serde_json::from_str(&std::fs::read_to_string(&index).unwrap()).unwrap();
    let first = dir.path().join(&idx.shards[0].file);
    let good = std::fs::read(&first).unwrap();
    let mut bad = good.clone();
    let at = bad.len() / 2;
    bad[at] ^= 1;
    std::fs::write(&first, &bad).unwrap();
    let e = ShardedTable::open(&index, &OpenOptions::default())
        .err()
        .unwrap();
    assert!(e.to_string().contains(&idx.shards[0].file), "{e}");
    let other = dir.path().join("t-trit.shards.json");
    let o: tablefmt::ShardIndex =
        serde_json::from_str(&std::fs::read_to_string(&other).unwrap()).unwrap();
    std::fs::copy(dir.path().join(&o.shards[0].file), &first).unwrap();
    let e = ShardedTable::open(&index, &OpenOptions::default())
        .err()
        .unwrap();
    assert!(e.to_string().contains("not shard 0/"), "{e}");
    std::fs::remove_file(&first).unwrap();
    assert!(ShardedTable::open(&index, &OpenOptions::default()).is_err());
    std::fs::write(&first, &good).unwrap();
    ShardedTable::open(&index, &OpenOptions::default()).unwrap();
    // Too small a limit for even one unit of ranks.
    let e = write_dense_sharded_from(
        &index,
        &meta("x", 10),
        &mut &[0u8; 10][..],
        Encoding::Byte,
        100,
    );
    assert!(e.is_err());
}

/// A shard that is a symbolic link out of the index's directory is refused
/// before it is read (as a name with `../` is); a link inside the directory
/// is followed.
#[cfg(unix)]
#[test]
fn a_shard_linked_out_of_its_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    let n = 5_000usize;
    let v = values(Encoding::Byte, n, 7);
    let index = tables.join("t.shards.json");
    let idx = write_dense_sharded_from(
        &index,
        &meta("t", n as u64),
        &mut &v[..],
        Encoding::Byte,
        3_000,
    )
    .unwrap();
    assert!(idx.shards.len() >= 2);
    let shard = tables.join(&idx.shards[1].file);
    // Outside: a file whose first line must never show.
    let secret = dir.path().join("secret");
    std::fs::write(&secret, "root:x:0:0:secret first line\n").unwrap();
    let kept = tables.join("kept.bin");
    std::fs::rename(&shard, &kept).unwrap();
    std::os::unix::fs::symlink(&secret, &shard).unwrap();
    let e = ShardedTable::open(&index, &OpenOptions::default())
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("symbolic link out of the table's directory"),
        "{e}"
    );
    assert!(e.contains(&idx.shards[1].file), "{e}");
    assert!(!e.contains("root:x"), "{e}");
    // Also through a relative link.
    std::fs::remove_file(&shard).unwrap();
    std::os::unix::fs::symlink("../secret", &shard).unwrap();
    let e = ShardedTable::open(&index, &OpenOptions::default())
        .err()
        .unwrap();
    assert!(!e.to_string().contains("root:x"), "{e}");
    // A link to a file in the same directory is fine.
    std::fs::remove_file(&shard).unwrap();
    std::os::unix::fs::symlink("kept.bin", &shard).unwrap();
    ShardedTable::open(&index, &OpenOptions::default()).unwrap();
}

#[test]
fn sha256_is_sha256() {
    // FIPS 180-2 test vectors.
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    let bytes = Rng(5).bytes(200_000);
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(tablefmt::file_sha256(&path).unwrap(), sha256_hex(&bytes));
}

#[test]
fn files_round_trip_through_mmap() {
    let dir = tempfile::tempdir().unwrap();
    for enc in DENSE {
        for n in [0usize, 1, 4, 5, 6, 1001] {
            let vals = values(enc, n, n as u64 + 3);
            let path = dir.path().join(format!("{enc}-{n}.tbl"));
            let m = meta(&format!("{enc}-{n}"), n as u64);
            let bytes = encode_dense(&m, &vals, enc).unwrap();
            write_atomic(&path, &bytes).unwrap();
            let t = Table::open(
                &path,
                &OpenOptions {
                    expect_id: Some(m.id.clone()),
                    ..OpenOptions::default()
                },
            )
            .unwrap();
            let d = t.dense().unwrap();
            assert_eq!(d.iter().collect::<Vec<_>>(), vals, "{enc} {n}");
            let h = t.info();
            assert_eq!(h.id, m.id);
            assert_eq!(h.states, n as u64);
            assert_eq!(h.histogram, m.histogram);
            assert_eq!(h.encoding, enc);
            assert_eq!(h.definition_hash, m.definition_hash);
            assert_eq!(h.generator, m.generator);
            assert_eq!(h.meta, m.meta);
            assert_eq!(h.meta_value("puzzle"), Some("test"));
            assert_eq!(h.bytes, bytes.len() as u64);
            assert_eq!(h.payload_bytes, enc.packed_len(n as u64).unwrap());
            assert_eq!(h.format_version, 1);
            assert_eq!(t.path(), Some(path.as_path()));
            assert_eq!(read_header(&path).unwrap(), *h);
            let json = serde_json::to_value(h).unwrap();
            assert_eq!(json["encoding"], enc.to_string());
            assert_eq!(json["checksum"], h.checksum);
            assert_eq!(verify(&path).unwrap(), *h);
            // The archive starts 16-aligned in the file.
            assert_eq!(t.as_bytes().as_ptr() as usize % 16, 0);
        }
    }
    let path = dir.path().join("sparse.tbl");
    write_atomic(&path, &fst_file("sparse", 500)).unwrap();
    let t = open_default(&path).unwrap();
    let m = t.fst().unwrap();
    for (k, v) in fst_entries(500) {
        assert_eq!(m.get(&k), Some(v));
    }
    // Zero-copy: the map's bytes are the mapped file's.
    let range = t.payload_range();
    assert_eq!(m.as_fst().as_bytes().as_ptr(), t.as_bytes()[range].as_ptr());
    assert_eq!(read_header(&path).unwrap().encoding, Encoding::Fst);
}

#[test]
fn layout_starts_with_the_preamble() {
    let bytes = dense_file("layout", Encoding::Nibble, 10);
    assert_eq!(&bytes[..8], b"CUBETBL\0");
    assert_eq!(&bytes[8..12], &1u32.to_le_bytes());
    assert_eq!(&bytes[12..16], &[0, 0, 0, 0]);
    // Deterministic output.
    assert_eq!(bytes, dense_file("layout", Encoding::Nibble, 10));
}

// ---------------------------------------------------------------- writers refuse bad input

#[test]
fn writers_refuse_bad_input() {
    let e = encode_dense(&meta("x", 3), &[0, 1, 3], Encoding::Trit).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::ValueOutOfRange {
            index: 2,
            value: 3,
            encoding: Encoding::Trit
        }
    ));
    assert!(e.to_string().contains("value 3 at index 2"), "{e}");

    let e = encode_dense(&meta("x", 4), &[0, 1, 2], Encoding::Byte).unwrap_err();
    assert_eq!(e.code(), "invalid");
    assert!(e.to_string().contains("3 values given for 4 states"), "{e}");

    let e = encode_dense(&meta("x", 1), &[0], Encoding::Fst).unwrap_err();
    assert_eq!(e.code(), "invalid");

    let e = encode_fst(&meta("x", 1), b"not an fst".to_vec()).unwrap_err();
    assert_eq!(e.code(), "invalid");

    let e = build_fst([(b"b".as_slice(), 1), (b"a".as_slice(), 2)]).unwrap_err();
    assert_eq!(e.code(), "invalid");
    let e = build_fst([(b"a".as_slice(), 1), (b"a".as_slice(), 2)]).unwrap_err();
    assert_eq!(e.code(), "invalid");
}

#[test]
fn writers_refuse_too_large_files() {
    let n = MAX_FILE_BYTES as usize + 1;
    let vals = vec![0u8; n];
    let e = encode_dense(&meta("huge", n as u64), &vals, Encoding::Byte).unwrap_err();
    match e.kind() {
        ErrorKind::TooLarge { id, bytes, limit } => {
            assert_eq!(id, "huge");
            assert!(*bytes > *limit);
            assert_eq!(*limit, MAX_FILE_BYTES);
        }
        k => panic!("expected TooLarge, got {k:?}"),
    }
    assert!(e.to_string().contains("too large"), "{e}");
    // The same states fit when packed as trits.
    let t = encode_dense(&meta("huge", n as u64), &vals, Encoding::Trit).unwrap();
    assert!((t.len() as u64) < MAX_FILE_BYTES);
}

// ---------------------------------------------------------------- damaged files

#[test]
fn truncated_files_fail() {
    let dir = tempfile::tempdir().unwrap();
    let good = dense_file("trunc", Encoding::Nibble, 100);
    expect_fault(dir.path(), "t0.tbl", &good[..0], "empty", "empty");
    expect_fault(dir.path(), "t5.tbl", &good[..5], "truncated", "truncated");
    expect_fault(dir.path(), "t16.tbl", &good[..16], "truncated", "truncated");
    expect_fault(
        dir.path(),
        "thalf.tbl",
        &good[..good.len() / 2],
        "corrupt",
        "truncated",
    );
    expect_fault(
        dir.path(),
        "tm1.tbl",
        &good[..good.len() - 1],
        "corrupt",
        "invalid archive",
    );
    // Every strict prefix fails, in memory too.
    for n in 0..good.len() {
        assert!(
            Table::from_bytes(&good[..n], &OpenOptions::default()).is_err(),
            "prefix {n}"
        );
    }
    // Trailing garbage is refused as well.
    let mut long = good.clone();
    long.extend_from_slice(&[0; 16]);
    assert!(Table::from_bytes(&long, &OpenOptions::default()).is_err());
}

#[test]
fn flipped_header_byte_fails() {
    let dir = tempfile::tempdir().unwrap();
    let id = "header-flip-test-with-a-long-id";
    let good = dense_file(id, Encoding::Crumb, 50);
    // A byte of the (out-of-line) id string.
    let at = good
        .windows(id.len())
        .position(|w| w == id.as_bytes())
        .unwrap()
        + 3;
    let mut bad = good.clone();
    bad[at] ^= 0x01;
    let msg = expect_fault(
        dir.path(),
        "hdr.tbl",
        &bad,
        "corrupt",
        "header self-check failed",
    );
    assert!(msg.starts_with(&dir.path().join("hdr.tbl").display().to_string()));
    // Even when the checksum is not verified (read_header).
    let e = read_header(&dir.path().join("hdr.tbl")).unwrap_err();
    assert_eq!(e.code(), "corrupt");
    // A byte of the histogram / a meta value.
    let note = b"a longer value so the string";
    let at = good.windows(note.len()).position(|w| w == note).unwrap();
    let mut bad = good.clone();
    bad[at] = b'A';
    expect_fault(
        dir.path(),
        "meta.tbl",
        &bad,
        "corrupt",
        "header self-check failed",
    );
    // Every single-bit flip anywhere outside the payload is caught or harmless
    // (padding); most are caught. None panic.
    let payload = payload_range(&good);
    let (mut caught, mut total) = (0, 0);
    for i in (0..good.len()).filter(|i| !payload.contains(i)) {
        for bit in 0..8 {
            let mut bad = good.clone();
            bad[i] ^= 1 << bit;
            total += 1;
            match Table::from_bytes(&bad, &OpenOptions::default()) {
                Err(_) => caught += 1,
                Ok(t) => assert_eq!(t.dense().unwrap().iter().count(), 50),
            }
        }
    }
    assert!(
        caught * 10 >= total * 8,
        "only {caught}/{total} header flips caught"
    );
}

#[test]
fn flipped_dense_payload_byte_fails() {
    let dir = tempfile::tempdir().unwrap();
    for enc in DENSE {
        let good = dense_file("dense-flip", enc, 64);
        let r = payload_range(&good);
        let mut bad = good.clone();
        bad[r.start + r.len() / 2] ^= 0x01;
        let name = format!("flip-{enc}.tbl");
        expect_fault(
            dir.path(),
            &name,
            &bad,
            "checksum-mismatch",
            "checksum mismatch (header says ",
        );
        // Without verification it opens (lookups stay in bounds) but verify() fails.
        let path = dir.path().join(&name);
        let t = Table::open(
            &path,
            &OpenOptions {
                verify_checksum: false,
                ..OpenOptions::default()
            },
        )
        .unwrap();
        assert_eq!(t.dense().unwrap().iter().count(), 64);
        assert_eq!(t.verify_checksum().unwrap_err().code(), "checksum-mismatch");
        assert!(read_header(&path).is_ok());
        assert_eq!(verify(&path).unwrap_err().code(), "checksum-mismatch");
    }
}

#[test]
fn flipped_fst_payload_byte_fails() {
    let dir = tempfile::tempdir().unwrap();
    let good = fst_file("fst-flip", 100);
    let r = payload_range(&good);
    for at in [r.start, r.start + r.len() / 2, r.end - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        let path = dir.path().join("fst-flip.tbl");
        std::fs::write(&path, &bad).unwrap();
        let e = open_default(&path).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("fst-flip.tbl"), "{msg}");
        // A damaged FST footer is found structurally; anything else by the checksum.
        assert!(
            ["checksum-mismatch", "corrupt"].contains(&e.code()),
            "{msg}"
        );
    }
    let mut bad = good.clone();
    bad[r.start + r.len() / 2] ^= 0x10;
    expect_fault(
        dir.path(),
        "fst-mid.tbl",
        &bad,
        "checksum-mismatch",
        "checksum mismatch",
    );
}

#[test]
fn wrong_magic_fails() {
    let dir = tempfile::tempdir().unwrap();
    let mut bad = dense_file("magic", Encoding::Byte, 8);
    bad[..8].copy_from_slice(b"CUBETBX\0");
    expect_fault(dir.path(), "magic.tbl", &bad, "bad-magic", "bad magic");
    expect_fault(
        dir.path(),
        "text.tbl",
        b"hello world, not a table\n",
        "bad-magic",
        "not a table file",
    );
    expect_fault(dir.path(), "short.tbl", b"CUB", "truncated", "truncated");
    expect_fault(
        dir.path(),
        "short2.tbl",
        b"XY",
        "bad-magic",
        "not a table file",
    );
}

#[test]
fn wrong_version_fails() {
    let dir = tempfile::tempdir().unwrap();
    let mut bad = dense_file("version", Encoding::Byte, 8);
    bad[8..12].copy_from_slice(&7u32.to_le_bytes());
    let msg = expect_fault(
        dir.path(),
        "v7.tbl",
        &bad,
        "unsupported-version",
        "found 7, expected 1",
    );
    assert!(msg.contains("version"), "{msg}");
    // The version is checked before the archive: even garbage after it says so.
    let mut v2 = b"CUBETBL\0".to_vec();
    v2.extend_from_slice(&2u32.to_le_bytes());
    v2.extend_from_slice(&[0xAB; 40]);
    let e = Table::from_bytes(&v2, &OpenOptions::default()).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::UnsupportedVersion {
            found: 2,
            expected: 1
        }
    ));
    // Reserved must be zero.
    let mut r = dense_file("version", Encoding::Byte, 8);
    r[12] = 1;
    expect_fault(dir.path(), "reserved.tbl", &r, "corrupt", "reserved");
}

#[test]
fn wrong_id_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("id.tbl");
    write_atomic(&path, &dense_file("actual-id", Encoding::Nibble, 9)).unwrap();
    let opts = OpenOptions {
        expect_id: Some("wanted-id".into()),
        ..OpenOptions::default()
    };
    let msg = expect_open_fault(&path, &opts, "wrong-id", "expected id \"wanted-id\"");
    assert!(msg.contains("actual-id"), "{msg}");
}

#[test]
fn empty_file_directory_and_missing_file_fail() {
    let dir = tempfile::tempdir().unwrap();
    expect_fault(dir.path(), "empty.tbl", b"", "empty", "empty");
    let sub = dir.path().join("adir.tbl");
    std::fs::create_dir(&sub).unwrap();
    expect_open_fault(
        &sub,
        &OpenOptions::default(),
        "not-a-file",
        "not a regular file",
    );
    let missing = dir.path().join("missing.tbl");
    let e = open_default(&missing).unwrap_err();
    assert_eq!(e.code(), "io");
    assert!(e.to_string().contains("missing.tbl: cannot open"), "{e}");
    // The OS reason is in the message itself (and said once, so no source()).
    assert!(e.to_string().contains("No such file"), "{e}");
    assert!(std::error::Error::source(&e).is_none());
    assert!(matches!(e.kind(), tablefmt::ErrorKind::Io { .. }));
    assert_eq!(read_header(&missing).unwrap_err().code(), "io");
}

#[test]
fn random_bytes_fail() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = Rng(0x1234_5678);
    for i in 0..20 {
        let n = (r.next() % 2000) as usize + 1;
        let mut bytes = r.bytes(n);
        if i % 2 == 0 && n >= 16 {
            bytes[..8].copy_from_slice(b"CUBETBL\0");
            bytes[8..16].copy_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]);
            expect_fault(dir.path(), "rnd.tbl", &bytes, "corrupt", "invalid archive");
        } else {
            let path = dir.path().join("rnd.tbl");
            std::fs::write(&path, &bytes).unwrap();
            let e = open_default(&path).unwrap_err();
            assert!(e.to_string().contains("rnd.tbl: "), "{e}");
        }
    }
}

#[test]
fn compressed_file_is_recognised() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("z.tbl");
    write_atomic(&src, &dense_file("z", Encoding::Trit, 300)).unwrap();
    let zst = dir.path().join("z.tbl.zst");
    compress_file(&src, &zst, 3).unwrap();
    expect_open_fault(
        &zst,
        &OpenOptions::default(),
        "bad-magic",
        "zstd-compressed",
    );
}

// ---------------------------------------------------------------- atomic writes

#[test]
fn write_atomic_replaces_and_leaves_no_temp_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.bin");
    write_atomic(&path, b"one").unwrap();
    write_atomic(&path, b"two, longer").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"two, longer");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["a.bin"]);
}

#[test]
fn write_atomic_errors_name_the_path() {
    let dir = tempfile::tempdir().unwrap();
    // A directory that does not exist.
    let p = dir.path().join("no/such/dir/t.tbl");
    let e = write_atomic(&p, b"x").unwrap_err();
    assert_eq!(e.code(), "io");
    let msg = e.to_string();
    assert!(msg.starts_with(&p.display().to_string()), "{msg}");
    assert!(msg.contains("cannot create a temporary file"), "{msg}");
    // A "directory" that is a file.
    let file = dir.path().join("plain");
    std::fs::write(&file, b"x").unwrap();
    let p = file.join("t.tbl");
    assert!(write_atomic(&p, b"x")
        .unwrap_err()
        .to_string()
        .contains("t.tbl"));
    // The target is a directory.
    let e = write_atomic(dir.path(), b"x").unwrap_err();
    assert_eq!(e.code(), "not-a-file");
    // A read-only directory (only meaningful when not running as root).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = dir.path().join("ro");
        std::fs::create_dir(&ro).unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        let target = ro.join("t.tbl");
        if let Err(e) = write_atomic(&target, b"x") {
            assert!(e.to_string().contains("t.tbl"), "{e}");
        }
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn concurrent_writers_and_readers_never_see_partial_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.tbl");
    let files: Vec<Vec<u8>> = (0..4)
        .map(|w| dense_file(&format!("writer-{w}"), Encoding::Byte, 20_000 + w * 1000))
        .collect();
    write_atomic(&path, &files[0]).unwrap();
    std::thread::scope(|s| {
        for f in &files {
            let path = path.clone();
            s.spawn(move || {
                for _ in 0..15 {
                    write_atomic(&path, f).unwrap();
                }
            });
        }
        let path = path.clone();
        s.spawn(move || {
            for _ in 0..60 {
                let t = open_default(&path).expect("readers always see a whole file");
                assert!(t.info().id.starts_with("writer-"));
            }
        });
    });
    let got = std::fs::read(&path).unwrap();
    assert!(files.contains(&got));
    let n = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(n, 1, "temporary files left behind");
}

// ---------------------------------------------------------------- zstd

#[test]
fn compress_and_decompress_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("t.tbl");
    let bytes = dense_file("zstd", Encoding::Nibble, 5000);
    write_atomic(&src, &bytes).unwrap();
    let zst = dir.path().join("t.tbl.zst");
    let (raw, comp) = compress_file(&src, &zst, 19).unwrap();
    assert_eq!(raw, bytes.len() as u64);
    assert_eq!(comp, std::fs::metadata(&zst).unwrap().len());
    assert!(comp < raw);
    let out = dir.path().join("out.tbl");
    let h = decompress_file(&zst, &out).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    assert_eq!(h, verify(&out).unwrap());
    assert_eq!(h.id, "zstd");
}

#[test]
fn decompress_refuses_bad_input_and_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.tbl");
    std::fs::write(&out, b"previous").unwrap();
    // Not zstd at all.
    let junk = dir.path().join("junk.zst");
    std::fs::write(&junk, b"this is not zstd").unwrap();
    let e = decompress_file(&junk, &out).unwrap_err();
    assert_eq!(e.code(), "io");
    assert!(e.to_string().contains("junk.zst: cannot decompress"), "{e}");
    // Valid zstd of a damaged table.
    let mut bad = dense_file("zz", Encoding::Nibble, 500);
    let r = payload_range(&bad);
    bad[r.start] ^= 0xff;
    let damaged = dir.path().join("damaged.tbl");
    std::fs::write(&damaged, &bad).unwrap();
    let dz = dir.path().join("damaged.tbl.zst");
    compress_file(&damaged, &dz, 1).unwrap();
    let e = decompress_file(&dz, &out).unwrap_err();
    assert_eq!(e.code(), "checksum-mismatch");
    assert!(
        e.to_string().contains("damaged.tbl.zst: checksum mismatch"),
        "{e}"
    );
    // Truncated zstd stream.
    let z = std::fs::read(&dz).unwrap();
    let cut = dir.path().join("cut.zst");
    std::fs::write(&cut, &z[..z.len() / 2]).unwrap();
    assert!(decompress_file(&cut, &out).is_err());
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
    let missing = dir.path().join("missing.zst");
    assert!(decompress_file(&missing, &out)
        .unwrap_err()
        .to_string()
        .contains("missing.zst"));
}

#[test]
fn checksum_hex_is_xxh3_128() {
    // Reference digests of xxh3-128 (as printed by `xxhsum -H2`).
    assert_eq!(checksum_hex(b""), "99aa06d3014798d86001c324468d497f");
    assert_eq!(checksum_hex(b"abc").len(), 32);
    // A long input takes the vectorised path (the one table payloads take):
    // its digest as the reference C library gives it (Python's `xxhash`
    // module, `xxh3_128_hexdigest`), whatever SIMD this machine has.
    let long: Vec<u8> = (0..1_000_003u32)
        .map(|i| ((i * 31 + 7) % 251) as u8)
        .collect();
    assert_eq!(checksum_hex(&long), "aaa535a1dc7aea887b3986442546fd2e");
    // The checksum of a sharded table's parts end to end is the whole's.
    let (a, b) = long.split_at(333_333);
    assert_eq!(
        tablefmt::joined_checksum_hex([a, b]),
        "aaa535a1dc7aea887b3986442546fd2e"
    );
}

// ---------------------------------------------------------------- corpus

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("corpus")
}

/// The corpus: file name, bytes, and the expected outcome (`ok` or an error code).
fn corpus() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let nibble = dense_file("corpus-nibble", Encoding::Nibble, 21);
    let crumb = dense_file("corpus-crumb", Encoding::Crumb, 21);
    let trit = dense_file("corpus-trit", Encoding::Trit, 21);
    let byte = dense_file("corpus-byte", Encoding::Byte, 21);
    let empty_dense = dense_file("corpus-empty", Encoding::Trit, 0);
    let sparse = fst_file("corpus-fst", 30);
    let flip = |b: &[u8], at: usize| {
        let mut v = b.to_vec();
        v[at] ^= 0x04;
        v
    };
    let np = payload_range(&nibble);
    let fp = payload_range(&sparse);
    let id_at = nibble
        .windows(13)
        .position(|w| w == b"corpus-nibble")
        .unwrap();
    let mut version = trit.clone();
    version[8] = 2;
    let mut magic = trit.clone();
    magic[0] = b'X';
    let mut random = Rng(42).bytes(200);
    random[..16].copy_from_slice(&trit[..16]);
    let zstd = zstd::bulk::compress(&trit, 3).unwrap();
    vec![
        ("nibble.tbl", nibble.clone(), "ok"),
        ("crumb.tbl", crumb, "ok"),
        ("trit.tbl", trit.clone(), "ok"),
        ("byte.tbl", byte, "ok"),
        ("empty-dense.tbl", empty_dense, "ok"),
        ("fst.tbl", sparse.clone(), "ok"),
        ("broken-empty.tbl", Vec::new(), "empty"),
        (
            "broken-preamble-only.tbl",
            nibble[..16].to_vec(),
            "truncated",
        ),
        (
            "broken-truncated.tbl",
            nibble[..nibble.len() - 7].to_vec(),
            "corrupt",
        ),
        (
            "broken-header-flip.tbl",
            flip(&nibble, id_at + 2),
            "corrupt",
        ),
        (
            "broken-dense-flip.tbl",
            flip(&nibble, np.start + 3),
            "checksum-mismatch",
        ),
        (
            "broken-fst-flip.tbl",
            flip(&sparse, fp.start + fp.len() / 2),
            "checksum-mismatch",
        ),
        ("broken-magic.tbl", magic, "bad-magic"),
        ("broken-version-2.tbl", version, "unsupported-version"),
        ("broken-random.tbl", random, "corrupt"),
        ("broken-zstd.tbl", zstd, "bad-magic"),
    ]
}

/// Regenerates `tests/corpus/` (run `TABLEFMT_REGEN_CORPUS=1 cargo test -p tablefmt
/// --test tests corpus_matches_the_writer`, alone, as other tests read it). Without the
/// variable it checks that the committed files are byte-identical to what this
/// build writes, which catches accidental format changes.
#[test]
fn corpus_matches_the_writer() {
    let dir = corpus_dir();
    let regen = std::env::var_os("TABLEFMT_REGEN_CORPUS").is_some();
    let mut expected =
        String::from("# file outcome (generated by tests/tests.rs corpus_matches_the_writer)\n");
    for (name, bytes, outcome) in corpus() {
        expected.push_str(&format!("{name} {outcome}\n"));
        let path = dir.join(name);
        if regen {
            std::fs::create_dir_all(&dir).unwrap();
            write_atomic(&path, &bytes).unwrap();
        } else {
            let on_disk =
                std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                on_disk == bytes,
                "{name} differs from what this build writes (format change?)"
            );
        }
    }
    let list = dir.join("EXPECTED");
    if regen {
        write_atomic(&list, expected.as_bytes()).unwrap();
    } else {
        assert_eq!(std::fs::read_to_string(&list).unwrap(), expected);
    }
}

/// Opens every committed corpus file and checks the recorded outcome.
#[test]
fn corpus_files_give_the_recorded_outcome() {
    let dir = corpus_dir();
    let list = std::fs::read_to_string(dir.join("EXPECTED")).unwrap();
    let mut n = 0;
    for line in list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (name, outcome) = line.split_once(' ').unwrap();
        let path = dir.join(name);
        match open_default(&path) {
            Ok(t) => {
                assert_eq!(outcome, "ok", "{name} opened");
                let id = &t.info().id;
                assert!(id.starts_with("corpus-"), "{name}: {id}");
                if let Some(d) = t.dense() {
                    assert_eq!(d.iter().count() as u64, t.states());
                } else {
                    assert_eq!(t.fst().unwrap().len(), 30);
                }
            }
            Err(e) => {
                assert_eq!(e.code(), outcome, "{name}: {e}");
                assert!(e.to_string().contains(name), "{e}");
            }
        }
        n += 1;
    }
    assert!(n >= 16);
}

#[test]
fn long_paths_are_cut_in_messages() {
    let long = PathBuf::from(format!("/{}/x.tbl", "n".repeat(130_000)));
    let e = open_default(&long).unwrap_err();
    let msg = e.to_string();
    assert!(msg.len() < 400, "{}", &msg[..400]);
    assert!(
        msg.contains("nnn/x.tbl (130007 characters): cannot open"),
        "{msg}"
    );
    assert_eq!(e.path(), Some(long.as_path()));
}

/// A truncated file's message says so and gives the lengths and offsets, in
/// file terms (no memory addresses, no advice about rkyv's features).
#[test]
fn truncated_file_messages_give_lengths() {
    let dir = tempfile::tempdir().unwrap();
    let good = dense_file("trunc-msg", Encoding::Nibble, 1000);
    for cut in [good.len() / 2, good.len() - 1, good.len() - 100, 20] {
        let name = format!("cut{cut}.tbl");
        let path = dir.path().join(&name);
        std::fs::write(&path, &good[..cut]).unwrap();
        let msg = open_default(&path).unwrap_err().to_string();
        assert!(msg.contains(&format!("{name}: ")), "{msg}");
        assert!(msg.contains("truncated or damaged"), "{msg}");
        assert!(msg.contains(&format!("{cut}")), "{msg}");
        assert!(!msg.contains("0x"), "{msg}");
        assert!(!msg.contains("rancor") && !msg.contains("alloc"), "{msg}");
    }
    // Shorter than the preamble: the length found and the least length.
    let path = dir.path().join("t5.tbl");
    std::fs::write(&path, &good[..5]).unwrap();
    let msg = open_default(&path).unwrap_err().to_string();
    assert!(msg.contains("the file is 5 bytes"), "{msg}");
}

/// Devices and directories are named for what they are.
#[test]
fn non_regular_files_say_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let e = open_default(dir.path()).unwrap_err();
    assert_eq!(e.code(), "not-a-file");
    assert!(
        e.to_string()
            .ends_with("not a regular file but a directory"),
        "{e}"
    );
    #[cfg(unix)]
    {
        let e = open_default(Path::new("/dev/null")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/dev/null: not a regular file but a character device"
        );
        let e = write_atomic(Path::new("/dev/null"), b"x").unwrap_err();
        assert_eq!(e.code(), "not-a-file");
        let lp = dir.path().join("loop.tbl");
        std::os::unix::fs::symlink(&lp, &lp).unwrap();
        let e = open_default(&lp).unwrap_err();
        assert_eq!(e.code(), "io");
        assert!(
            e.to_string()
                .contains("loop.tbl: cannot open: symbolic link loop"),
            "{e}"
        );
    }
}

// ---------------------------------------------------------------- temporary files

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

/// A writer killed midway leaves its temporary file unlocked: the next write of
/// the same target removes it, but not one a live writer holds (locked), nor
/// other targets' files or other names.
#[test]
fn stale_temp_files_are_removed_and_live_ones_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let stale = d.join(".t.tbl.tmp.4242.0.123");
    let live = d.join(".t.tbl.tmp.4243.1.456");
    let other = d.join(".u.tbl.tmp.4242.2.789");
    let unrelated = d.join(".t.tbl.tmp.notours");
    for p in [&stale, &live, &other, &unrelated] {
        std::fs::write(p, b"partial").unwrap();
    }
    let held = std::fs::File::open(&live).unwrap();
    held.lock().unwrap();
    let listed = stale_temp_files(d).unwrap();
    assert_eq!(listed, vec![stale.clone(), other.clone()]);
    write_atomic(&d.join("t.tbl"), b"new").unwrap();
    assert!(!stale.exists());
    assert!(live.exists() && other.exists() && unrelated.exists());
    assert_eq!(std::fs::read(d.join("t.tbl")).unwrap(), b"new");
    // Once its holder is gone, the live one is stale too.
    drop(held);
    assert_eq!(
        stale_temp_files(d).unwrap(),
        vec![live.clone(), other.clone()]
    );
    assert_eq!(
        remove_stale_temp_files(&d.join("t.tbl")).unwrap(),
        vec![live.clone()]
    );
    assert_eq!(
        names(d),
        [".t.tbl.tmp.notours", ".u.tbl.tmp.4242.2.789", "t.tbl"]
    );
}

/// A write in progress holds its temporary file: a cleaner leaves it alone.
#[test]
fn a_write_in_progress_is_not_stale() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("w.tbl");
    let staged = StagedFile::create(&target, |f| {
        use std::io::Write;
        f.write_all(b"contents")
            .map_err(|e| FormatError::io(&target, "write", e))
    })
    .unwrap();
    assert!(staged.temp_path().exists());
    assert!(stale_temp_files(dir.path()).unwrap().is_empty());
    assert!(remove_stale_temp_files(&target).unwrap().is_empty());
    write_atomic(&target, b"other writer").unwrap();
    assert!(staged.temp_path().exists());
    let tmp = staged.temp_path().to_path_buf();
    drop(staged);
    assert!(!tmp.exists());
    assert_eq!(names(dir.path()), ["w.tbl"]);
}

fn stage(target: &Path, bytes: &[u8]) -> StagedFile {
    StagedFile::create(target, |f| {
        use std::io::Write;
        f.write_all(bytes)
            .map_err(|e| FormatError::io(target, "write", e))
    })
    .unwrap()
}

/// Several files go in place all or none: a failed rename midway puts back what
/// was replaced and removes what was new.
#[test]
fn commit_all_is_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b, c) = (d.join("a.tbl"), d.join("b.tbl"), d.join("c.tbl"));
    std::fs::write(&a, b"old a").unwrap();
    let staged = vec![
        stage(&a, b"new a"),
        stage(&b, b"new b"),
        stage(&c, b"new c"),
    ];
    // The last target turns into a non-empty directory: its rename fails.
    std::fs::create_dir(&c).unwrap();
    std::fs::write(c.join("x"), b"x").unwrap();
    let e = commit_all(staged).unwrap_err();
    assert!(e.to_string().contains("c.tbl"), "{e}");
    assert_eq!(std::fs::read(&a).unwrap(), b"old a");
    assert!(!b.exists());
    assert_eq!(names(d), ["a.tbl", "c.tbl"]);
    // And all of them when nothing is in the way.
    std::fs::remove_dir_all(&c).unwrap();
    let staged = vec![
        stage(&a, b"new a"),
        stage(&b, b"new b"),
        stage(&c, b"new c"),
    ];
    commit_all(staged).unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), b"new a");
    assert_eq!(std::fs::read(&c).unwrap(), b"new c");
    assert_eq!(names(d), ["a.tbl", "b.tbl", "c.tbl"]);
    // Two files for one target are refused before anything changes.
    let e = commit_all(vec![stage(&a, b"x"), stage(&a, b"y")]).unwrap_err();
    assert_eq!(e.code(), "invalid");
    assert_eq!(std::fs::read(&a).unwrap(), b"new a");
    assert_eq!(names(d), ["a.tbl", "b.tbl", "c.tbl"]);
}
