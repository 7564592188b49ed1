//! The dataflows the workers talk over: ranks to their owners, byte pieces
//! to a worker (in memory or into a file), and the rounds of shares.

use super::*;

/// A dataflow of one input: each record goes to the worker `route` names
/// (modulo the number of workers), which hands it, with the time it was sent
/// at, to `take`. The probe says when every record of a time is taken.
pub(super) fn channel<D: timely::ExchangeData + Clone>(
    worker: &mut Worker,
    name: &str,
    route: impl Fn(&D) -> u64 + 'static,
    mut take: impl FnMut(u32, &mut Vec<D>) + 'static,
) -> (InputHandleVec<u32, D>, ProbeHandle<u32>) {
    let mut input = InputHandleVec::<u32, D>::new();
    let probe = ProbeHandle::new();
    worker.dataflow::<u32, _, _>(|scope| {
        scope
            .input_from(&mut input)
            .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                Exchange::new(move |x: &D| route(x)),
                name,
                move |_, _| {
                    move |input, _output| {
                        input.for_each(|cap, data| {
                            if let Some(&time) = cap.least() {
                                take(time, data);
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
    });
    (input, probe)
}

/// Bytes for a worker (its index, the offset, the bytes).
pub(super) type Piece = (u64, u64, Vec<u8>);

/// A channel of byte pieces `(worker, offset, bytes)` copied into `into` at
/// their offset on the worker named, `into` made `len` bytes of `fill` at
/// the first piece.
pub(super) fn bytes_channel(
    worker: &mut Worker,
    name: &str,
    into: &Rc<RefCell<Vec<u8>>>,
    len: usize,
    fill: u8,
) -> (InputHandleVec<u32, Piece>, ProbeHandle<u32>) {
    let into = into.clone();
    channel(
        worker,
        name,
        |x: &(u64, u64, Vec<u8>)| x.0,
        move |_, data: &mut Vec<_>| {
            let mut w = into.borrow_mut();
            if w.is_empty() {
                w.resize(len, fill);
            }
            for (_, at, bytes) in data.drain(..) {
                let at = at as usize;
                w[at..at + bytes.len()].copy_from_slice(&bytes);
            }
        },
    )
}

/// A channel of pieces `(worker, first rank, depths)` written into the file
/// `path` at their rank on the worker named (made `size` bytes long at the
/// first piece); the first error is kept in `error`.
pub(super) fn file_channel(
    worker: &mut Worker,
    path: &Path,
    size: u64,
    error: &Rc<RefCell<Option<DistError>>>,
) -> (InputHandleVec<u32, Piece>, ProbeHandle<u32>) {
    use std::io::{Seek, SeekFrom, Write};
    let (path, error) = (path.to_path_buf(), error.clone());
    let mut file: Option<std::fs::File> = None;
    channel(
        worker,
        "gather",
        |x: &Piece| x.0,
        move |_, data: &mut Vec<Piece>| {
            for (_, at, bytes) in data.drain(..) {
                let written = (|| {
                    let f = match &mut file {
                        Some(f) => f,
                        None => {
                            let f = std::fs::File::create(&path)?;
                            f.set_len(size)?;
                            file.insert(f)
                        }
                    };
                    f.seek(SeekFrom::Start(at))?;
                    f.write_all(&bytes)
                })();
                if let Err(e) = written {
                    error.borrow_mut().get_or_insert_with(|| DistError::Gather {
                        path: path.clone(),
                        reason: tablefmt::io_reason(&e),
                    });
                }
            }
        },
    )
}

/// Sends this worker's share to every worker at time `round`, waits until
/// every share of that round is in, and returns them (the round advances).
pub(super) fn round_trip(
    worker: &mut Worker,
    shares: &mut InputHandleVec<u32, (u64, Share)>,
    probe: &ProbeHandle<u32>,
    got: &Inbox,
    round: &mut u32,
    mine: Share,
) -> Vec<(u64, Share)> {
    for p in 0..worker.peers() as u64 {
        shares.send((p, mine));
    }
    *round += 1;
    shares.advance_to(*round);
    while probe.less_than(shares.time()) {
        worker.step_or_park(Some(PARK));
    }
    let sent = *round - 1;
    let mut got = got.borrow_mut();
    let (this, later): (Vec<_>, Vec<_>) = got.drain(..).partition(|(t, _)| *t == sent);
    *got = later;
    this.into_iter().map(|(_, x)| x).collect()
}
