//! Verification records (`tablefmt::record`): a file checked in full and
//! recorded is not hashed again while it is the same file, and any change to
//! it, or a record that is not its own, sends the next open back to the hash.

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use tablefmt::{
    encode_dense, record_path, settle_and_record, write_atomic, Encoding, ErrorKind, OpenOptions,
    Table, TableMeta, Verified,
};

fn table_bytes(id: &str, seed: u8) -> Vec<u8> {
    let meta = TableMeta {
        id: id.into(),
        definition_hash: 0x0123_4567_89ab_cdef,
        states: 4000,
        histogram: vec![1, 3999],
        generator: "tablefmt-tests 0".into(),
        meta: Vec::new(),
    };
    let values: Vec<u8> = (0..4000u32)
        .map(|i| ((i * 7 + seed as u32) % 16) as u8)
        .collect();
    encode_dense(&meta, &values, Encoding::Nibble).unwrap()
}

fn trusting() -> OpenOptions {
    OpenOptions {
        trust_record: true,
        ..OpenOptions::default()
    }
}

fn opened_as(path: &Path, opts: &OpenOptions) -> Verified {
    Table::open(path, opts).unwrap().verified()
}

/// Overwrites one byte of the payload in place (same inode, same length).
fn poke(path: &Path, at: u64, byte: u8) {
    let mut f = std::fs::File::options().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(at)).unwrap();
    f.write_all(&[byte]).unwrap();
    f.sync_all().unwrap();
}

fn payload_start(path: &Path) -> u64 {
    Table::open(path, &OpenOptions::default())
        .unwrap()
        .payload_range()
        .start as u64
}

#[test]
fn a_recorded_file_is_not_hashed_again_until_it_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tbl");
    let bytes = table_bytes("t", 0);
    write_atomic(&path, &bytes).unwrap();
    let rec = record_path(&path).unwrap();
    assert_eq!(rec, dir.path().join(".t.tbl.verified"));

    // Just written: too fresh to record, even when asked to.
    let writing = OpenOptions {
        write_record: true,
        ..OpenOptions::default()
    };
    assert_eq!(opened_as(&path, &writing), Verified::Hashed);
    assert!(!rec.exists());
    assert_eq!(opened_as(&path, &trusting()), Verified::Hashed);

    // Settled and checked: recorded, and trusted from then on.
    assert!(settle_and_record(&path).unwrap());
    assert!(rec.exists());
    assert_eq!(opened_as(&path, &trusting()), Verified::ByRecord);
    assert_eq!(opened_as(&path, &trusting()), Verified::ByRecord);
    // Opens that do not trust records hash, and the structure-only open
    // says it did neither.
    assert_eq!(opened_as(&path, &OpenOptions::default()), Verified::Hashed);
    let quick = OpenOptions {
        verify_checksum: false,
        ..trusting()
    };
    assert_eq!(opened_as(&path, &quick), Verified::Structure);

    // A byte changed in place: the record no longer vouches, the hash
    // catches it.
    let at = payload_start(&path) + 100;
    poke(&path, at, bytes[at as usize] ^ 0x11);
    let err = Table::open(&path, &trusting()).expect_err("a changed payload must not open");
    assert!(
        matches!(err.kind(), ErrorKind::ChecksumMismatch { .. }),
        "{err}"
    );
    // Put back: whole again, hashed (the record is still not its own).
    poke(&path, at, bytes[at as usize]);
    assert_eq!(opened_as(&path, &trusting()), Verified::Hashed);
}

#[test]
fn times_set_back_by_hand_do_not_revive_a_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tbl");
    let bytes = table_bytes("t", 1);
    write_atomic(&path, &bytes).unwrap();
    assert!(settle_and_record(&path).unwrap());
    let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
    // Past any coarse clock tick, so that the change time moves.
    std::thread::sleep(std::time::Duration::from_millis(50));
    let at = payload_start(&path) + 7;
    poke(&path, at, bytes[at as usize] ^ 0x40);
    let f = std::fs::File::options().write(true).open(&path).unwrap();
    f.set_modified(mtime).unwrap();
    drop(f);
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), mtime);
    let err = Table::open(&path, &trusting()).expect_err("a changed payload must not open");
    assert!(
        matches!(err.kind(), ErrorKind::ChecksumMismatch { .. }),
        "{err}"
    );
}

#[test]
fn a_replaced_file_or_a_record_not_its_own_is_hashed() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.tbl");
    let b = dir.path().join("b.tbl");
    write_atomic(&a, &table_bytes("a", 2)).unwrap();
    write_atomic(&b, &table_bytes("b", 3)).unwrap();
    assert!(settle_and_record(&a).unwrap());
    assert!(settle_and_record(&b).unwrap());
    let (rec_a, rec_b) = (record_path(&a).unwrap(), record_path(&b).unwrap());

    // Another file's record.
    std::fs::copy(&rec_a, &rec_b).unwrap();
    assert_eq!(opened_as(&b, &trusting()), Verified::Hashed);

    // Its own record with anything after it, or its checksum altered.
    assert!(settle_and_record(&b).unwrap());
    assert_eq!(opened_as(&b, &trusting()), Verified::ByRecord);
    let text = std::fs::read_to_string(&rec_b).unwrap();
    std::fs::write(&rec_b, format!("{text}x")).unwrap();
    assert_eq!(opened_as(&b, &trusting()), Verified::Hashed);
    let last = text.trim_end().len() - 1;
    let flipped = if &text[last..last + 1] == "0" {
        "1"
    } else {
        "0"
    };
    std::fs::write(&rec_b, format!("{}{flipped}\n", &text[..last])).unwrap();
    assert_eq!(opened_as(&b, &trusting()), Verified::Hashed);

    // A FIFO in the record's place is not opened (it would block).
    #[cfg(unix)]
    {
        std::fs::remove_file(&rec_b).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&rec_b).status();
        if made.is_ok_and(|s| s.success()) {
            assert_eq!(opened_as(&b, &trusting()), Verified::Hashed);
        }
    }

    // Replaced by rename with another table: a new file, hashed.
    write_atomic(&a, &table_bytes("a", 4)).unwrap();
    assert_eq!(opened_as(&a, &trusting()), Verified::Hashed);
    assert!(rec_a.exists(), "the old record stays, and does not vouch");
}
