//! Temporary files: writing a file completely before it takes its final name,
//! putting several files in place all or none, and removing the temporary files
//! of writers that died.
//!
//! A temporary file for `DIR/NAME` is `DIR/.NAME.tmp.PID.COUNTER.NANOS`. Its
//! writer holds an exclusive lock on it ([`File::lock`], `flock` on Unix) from
//! creation until it has been renamed into place or removed. A process killed
//! midway (`kill -9`, power loss) leaves the file behind, but the kernel drops
//! the lock with the process, so a temporary file nobody holds a lock on is
//! stale: [`remove_stale_temp_files`] deletes those of a target (every write of
//! the target does so first) and [`stale_temp_files`] lists those of a
//! directory.

use crate::error::{ErrorKind, FormatError};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The directory holding `path` (`.` for a bare file name).
pub(crate) fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A fresh temporary name for `target`'s directory: `.NAME.tmp.PID.COUNTER.NANOS`.
fn temp_name(target: &Path) -> Result<PathBuf, FormatError> {
    let name = target.file_name().ok_or_else(|| {
        FormatError::new(
            Some(target),
            ErrorKind::Invalid("the path has no file name".into()),
        )
    })?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp.{}.{n}.{nanos}", std::process::id()));
    Ok(parent_dir(target).join(tmp_name))
}

/// The target file name a temporary file name stands for (`.a.tbl.tmp.1.2.3` ->
/// `a.tbl`), or `None` if it is not a temporary name.
pub(crate) fn temp_target(file_name: &str) -> Option<&str> {
    let rest = file_name.strip_prefix('.')?;
    let at = rest.rfind(".tmp.")?;
    let (target, suffix) = (&rest[..at], &rest[at + 5..]);
    let parts: Vec<&str> = suffix.split('.').collect();
    let numeric = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    (!target.is_empty() && parts.len() == 3 && parts.iter().all(numeric)).then_some(target)
}

/// True if the open file `f` is still the file at `path` (not removed or
/// replaced since it was opened).
fn still_at(f: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (f.metadata(), std::fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = f;
        path.exists()
    }
}

/// A temporary file of ours, locked through `file`; removed when dropped unless
/// disarmed.
struct TempFile {
    /// The open, locked file (`None` for an unlocked backup of a symbolic link).
    file: Option<File>,
    path: PathBuf,
    armed: bool,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        // Removed while still locked (the lock goes with `file`, dropped after),
        // so no cleaner can mistake it for a stale file meanwhile.
        if self.armed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Opens `path` and takes its lock if nobody holds it, checking that the locked
/// file is still the one at `path`. `None` if it is held, gone or unreadable.
fn lock_if_free(path: &Path) -> Option<File> {
    let f = File::open(path).ok()?;
    f.try_lock().ok()?;
    still_at(&f, path).then_some(f)
}

/// Creates a fresh temporary file next to `target`, locked.
fn create_temp(target: &Path) -> Result<TempFile, FormatError> {
    let dir = parent_dir(target);
    let mut last_err = None;
    for _ in 0..16 {
        let tmp = temp_name(target)?;
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(file) => {
                file.lock().map_err(|e| {
                    let _ = std::fs::remove_file(&tmp);
                    FormatError::io(target, "cannot lock a temporary file", e)
                })?;
                // A cleaner may have taken the file between its creation and our
                // lock and removed it as stale: then make another.
                if still_at(&file, &tmp) {
                    return Ok(TempFile {
                        file: Some(file),
                        path: tmp,
                        armed: true,
                    });
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last_err = Some(e),
            Err(e) => {
                return Err(FormatError::io(
                    target,
                    format!(
                        "cannot create a temporary file in {}",
                        crate::error::show_path(dir)
                    ),
                    e,
                ))
            }
        }
    }
    Err(FormatError::io(
        target,
        "cannot create a unique temporary file",
        last_err.unwrap_or_else(|| std::io::Error::other("name collisions")),
    ))
}

/// Refuses a target that exists as something other than a regular file (or a
/// symbolic link, which the rename replaces).
fn check_target(target: &Path) -> Result<(), FormatError> {
    match std::fs::symlink_metadata(target) {
        Ok(md) if md.is_file() || md.is_symlink() => {
            if let Ok(md) = std::fs::metadata(target) {
                if !md.is_file() {
                    let found = crate::file_kind(&md.file_type());
                    return Err(FormatError::new(
                        Some(target),
                        ErrorKind::NotAFile { found },
                    ));
                }
            }
            Ok(())
        }
        Ok(md) => {
            let found = crate::file_kind(&md.file_type());
            Err(FormatError::new(
                Some(target),
                ErrorKind::NotAFile { found },
            ))
        }
        Err(_) => Ok(()),
    }
}

/// A file written completely and synced to disk under a temporary name next to
/// its final path, not yet in place. [`StagedFile::commit`] (or [`commit_all`])
/// renames it into place; dropping it removes it.
pub struct StagedFile {
    tmp: TempFile,
    target: PathBuf,
}

impl std::fmt::Debug for StagedFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StagedFile")
            .field("temp_path", &self.tmp.path)
            .field("target", &self.target)
            .finish()
    }
}

impl StagedFile {
    /// Writes a staged file for `target` with the contents `fill` produces:
    /// removes stale temporary files of `target`, creates a locked temporary file
    /// next to it, fills it and syncs it to disk. Errors name `target`.
    pub fn create(
        target: &Path,
        fill: impl FnOnce(&mut File) -> Result<(), FormatError>,
    ) -> Result<StagedFile, FormatError> {
        check_target(target)?;
        let _ = remove_stale_temp_files(target);
        let mut tmp = create_temp(target)?;
        let file = tmp.file.as_mut().expect("a new temporary file is open");
        fill(file)?;
        file.sync_all()
            .map_err(|e| FormatError::io(target, "cannot sync to disk", e))?;
        Ok(StagedFile {
            tmp,
            target: target.to_path_buf(),
        })
    }

    /// The final path.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The temporary file holding the contents until the commit.
    pub fn temp_path(&self) -> &Path {
        &self.tmp.path
    }

    /// Renames the file into place and syncs the directory, so the rename is
    /// durable. Readers of the target see the old file or the new one, whole.
    pub fn commit(self) -> Result<(), FormatError> {
        commit_all(vec![self])
    }
}

/// A hard link to a file about to be replaced, under a temporary name (locked,
/// so cleaners leave it), to put back if a later step fails.
struct Backup {
    tmp: TempFile,
}

fn backup(target: &Path) -> Result<Option<Backup>, FormatError> {
    if std::fs::symlink_metadata(target).is_err() {
        return Ok(None);
    }
    let mut last_err = None;
    for _ in 0..16 {
        let path = temp_name(target)?;
        match std::fs::hard_link(target, &path) {
            Ok(()) => {
                let regular = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
                let locked = File::open(&path)
                    .ok()
                    .filter(|f| regular && f.lock().is_ok());
                match locked {
                    // Locked, then checked: a cleaner may have removed it
                    // between the link and the lock; then make another.
                    Some(f) if !still_at(&f, &path) => continue,
                    // A link to a symbolic link, or a file that cannot be
                    // opened or locked, is kept unlocked (a cleaner may take
                    // it, which only loses the backup).
                    file => {
                        return Ok(Some(Backup {
                            tmp: TempFile {
                                file,
                                path,
                                armed: true,
                            },
                        }))
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last_err = Some(e),
            // The file was replaced or removed as we linked it (Linux refuses to
            // link an inode whose last name just went): look again.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if std::fs::symlink_metadata(target).is_err() {
                    return Ok(None);
                }
                last_err = Some(e);
            }
            Err(e) => {
                return Err(FormatError::io(
                    target,
                    "cannot keep a backup of the file to replace (hard link)",
                    e,
                ))
            }
        }
    }
    Err(FormatError::io(
        target,
        "cannot keep a backup of the file to replace",
        last_err.unwrap_or_else(|| std::io::Error::other("name collisions")),
    ))
}

/// Puts several staged files in place, all or none.
///
/// Each file that will be replaced is first kept under a temporary hard link;
/// then the staged files are renamed into place one by one and their
/// directories synced. If a rename fails, the files already renamed are undone
/// (the kept files renamed back, new ones removed) and the error returned. Two
/// staged files for one target are refused before anything changes.
pub fn commit_all(staged: Vec<StagedFile>) -> Result<(), FormatError> {
    let mut seen = std::collections::HashSet::new();
    for s in &staged {
        if !seen.insert(s.target.clone()) {
            return Err(FormatError::new(
                Some(&s.target),
                ErrorKind::Invalid("two files to put in place at one path".into()),
            ));
        }
    }
    // One rename either happens or not: backups are only needed for several.
    let mut backups = Vec::with_capacity(staged.len());
    for s in &staged {
        backups.push(if staged.len() > 1 {
            backup(&s.target)?
        } else {
            None
        });
    }
    let mut staged = staged;
    for i in 0..staged.len() {
        let s = &staged[i];
        if let Err(e) = std::fs::rename(&s.tmp.path, &s.target) {
            let err = FormatError::io(&s.target, "cannot rename the temporary file into place", e);
            let undo = undo(&staged[..i], &mut backups[..i]);
            return Err(match undo {
                Ok(()) => err,
                Err(u) => FormatError::new(
                    Some(&s.target),
                    ErrorKind::Invalid(format!(
                        "{err}; and undoing the files already in place failed: {u}"
                    )),
                ),
            });
        }
        staged[i].tmp.armed = false;
    }
    sync_dirs(staged.iter().map(|s| s.target.as_path()))
}

/// Undoes the renames of `done`: puts each backup back, or removes a file that
/// was new.
fn undo(done: &[StagedFile], backups: &mut [Option<Backup>]) -> Result<(), FormatError> {
    let mut first_err = None;
    for (s, b) in done.iter().zip(backups.iter_mut()).rev() {
        let r = match b {
            Some(b) => std::fs::rename(&b.tmp.path, &s.target).map(|()| b.tmp.armed = false),
            None => std::fs::remove_file(&s.target),
        };
        if let Err(e) = r {
            first_err.get_or_insert(FormatError::io(&s.target, "cannot restore", e));
        }
    }
    let synced = sync_dirs(done.iter().map(|s| s.target.as_path()));
    match first_err {
        Some(e) => Err(e),
        None => synced,
    }
}

/// Syncs the directories of `paths` (each once), so renames in them are durable.
fn sync_dirs<'a>(paths: impl Iterator<Item = &'a Path>) -> Result<(), FormatError> {
    let mut done = std::collections::HashSet::new();
    for p in paths {
        let dir = parent_dir(p);
        if done.insert(dir.to_path_buf()) {
            sync_dir(dir).map_err(|e| FormatError::io(p, "cannot sync the directory", e))?;
        }
    }
    Ok(())
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}

/// The temporary files in `dir` that no live process holds: left by a writer
/// that was killed. Each is a `.NAME.tmp.PID.COUNTER.NANOS` file whose lock is
/// free.
pub fn stale_temp_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if temp_target(name).is_none() {
            continue;
        }
        let path = entry.path();
        if lock_if_free(&path).is_some() {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

/// Removes the stale temporary files of `target` (see [`stale_temp_files`]):
/// those of its name in its directory that no live process holds. Files being
/// written by live processes are left alone. Returns the removed paths.
pub fn remove_stale_temp_files(target: &Path) -> Result<Vec<PathBuf>, FormatError> {
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return Ok(Vec::new());
    };
    let dir = parent_dir(target);
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(FormatError::io(target, "cannot list the directory", e)),
    };
    let mut removed = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| FormatError::io(target, "cannot list the directory", e))?;
        let file_name = entry.file_name();
        if file_name.to_str().and_then(temp_target) != Some(name) {
            continue;
        }
        let path = entry.path();
        // Removed while we hold its lock: no writer can be using it.
        if let Some(_lock) = lock_if_free(&path) {
            std::fs::remove_file(&path)
                .map_err(|e| FormatError::io(&path, "cannot remove a stale temporary file", e))?;
            removed.push(path);
        }
    }
    removed.sort();
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names_parse() {
        assert_eq!(temp_target(".a.tbl.tmp.1.2.3"), Some("a.tbl"));
        assert_eq!(temp_target(".a.tmp.b.tmp.10.0.999"), Some("a.tmp.b"));
        for no in [
            "a.tbl.tmp.1.2.3",
            ".a.tbl.tmp.1.2",
            ".a.tbl.tmp.1.2.x",
            ".a.tbl.tmp.1..3",
            "..tmp.1.2.3",
            ".a.tbl",
        ] {
            assert_eq!(temp_target(no), None, "{no}");
        }
        let p = temp_name(Path::new("/x/y.tbl")).unwrap();
        let name = p.file_name().unwrap().to_str().unwrap();
        assert_eq!(temp_target(name), Some("y.tbl"));
        assert_eq!(p.parent(), Some(Path::new("/x")));
    }
}
