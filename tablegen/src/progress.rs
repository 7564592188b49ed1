//! Progress reporting: an indicatif bar on a terminal, plain lines otherwise (CI logs).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Instant;

/// Reports the progress of one long job.
pub struct Progress {
    bar: Option<ProgressBar>,
    label: String,
    quiet: bool,
    start: Instant,
}

impl Progress {
    /// A reporter for a job of `total` units. `quiet` prints nothing at all.
    pub fn new(label: &str, total: u64, quiet: bool) -> Progress {
        let bar = if !quiet && std::io::stderr().is_terminal() {
            let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template(
                    "{prefix:>22} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}",
                )
                .expect("static template"),
            );
            b.set_prefix(label.to_string());
            Some(b)
        } else {
            None
        };
        Progress {
            bar,
            label: label.to_string(),
            quiet,
            start: Instant::now(),
        }
    }

    /// A silent reporter (library use, tests).
    pub fn hidden() -> Progress {
        Progress::new("", 0, true)
    }

    /// Whether nothing is printed.
    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// Reports that `done` units are finished, with a short message.
    pub fn update(&self, done: u64, msg: &str) {
        if self.quiet {
            return;
        }
        match &self.bar {
            Some(b) => {
                b.set_position(done);
                b.set_message(msg.to_string());
            }
            None => crate::errln!(
                "{}: {} ({} done, {:.2}s)",
                self.label,
                msg,
                done,
                self.start.elapsed().as_secs_f64()
            ),
        }
    }

    /// Ends the job.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
