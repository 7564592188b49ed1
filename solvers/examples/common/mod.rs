//! Helpers shared by the solver benchmarks.

/// Peak resident memory of this process (Linux), in MiB.
pub fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// The summary line of a benchmark: moves (average, min, max) and times
/// (median, p99, max; `times` in seconds, sorted here).
pub fn summary(label: &str, lens: &[usize], times: &mut [f64]) -> String {
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize] * 1e3;
    format!(
        "{label} n={} avg {:.2} OBTM (min {}, max {}), median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        lens.len(),
        lens.iter().sum::<usize>() as f64 / lens.len() as f64,
        lens.iter().min().copied().unwrap_or(0),
        lens.iter().max().copied().unwrap_or(0),
        pct(0.5),
        pct(0.99),
        pct(1.0),
    )
}
