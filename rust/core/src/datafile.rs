//! The one way the engine reads a user's data file (card sets, maps): a regular file of at
//! most [`MAX_BYTES`], UTF-8 text, read through a bounded reader and cached by path, size and
//! modification time, so a batch of games naming one file reads it once and an edited file is
//! read again.
//!
//! Errors are `Error::Data` naming the file (its path cut to [`PATH_SHOWN`] characters) and
//! never quoting its content. Anything but a regular file — a directory, a FIFO, a device
//! such as `/dev/zero` — is refused without reading from it.

#![deny(clippy::indexing_slicing)]

use crate::error::{Error, Result};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// The largest data file read, in bytes (4 MiB; the reference card sets are a few KiB).
pub const MAX_BYTES: u64 = 4 << 20;
/// At most this many files are taken from one directory.
pub const MAX_FILES: usize = 256;
/// Characters of a path shown in an error message.
pub const PATH_SHOWN: usize = 160;
/// Files kept in the cache.
const CACHE_SIZE: usize = 32;

/// User data given as text rather than a file (`cards_toml`, a card set a game carries):
/// the same size limit as a file, checked before parsing.
pub fn check_size(text: &str, what: &str) -> Result<()> {
    if text.len() as u64 > MAX_BYTES {
        Err(Error::data(
            what,
            format!("{} bytes of text; at most {MAX_BYTES}", text.len()),
        ))
    } else {
        Ok(())
    }
}

/// How a path appears in messages: at most [`PATH_SHOWN`] characters.
pub fn shown(path: &Path) -> String {
    let full = path.display().to_string();
    if full.chars().count() <= PATH_SHOWN {
        full
    } else {
        let cut: String = full.chars().take(PATH_SHOWN).collect();
        format!("{cut}…")
    }
}

/// The text of the data file at `path` (see the module docs for what is refused).
pub fn read_text(path: impl AsRef<Path>) -> Result<Arc<str>> {
    let path = path.as_ref();
    let name = shown(path);
    let fail = |why: String| Error::data(name.clone(), why);
    // Check the kind before opening: opening a FIFO would block until a writer comes.
    let meta = std::fs::metadata(path).map_err(|e| fail(cannot(&e)))?;
    let key = checked(&meta, MAX_BYTES).map_err(fail)?;
    if let Some(text) = cache_get(path, key) {
        return Ok(text);
    }
    let (bytes, key) = read_checked(path, MAX_BYTES)?;
    let text: Arc<str> = String::from_utf8(bytes)
        .map_err(|e| {
            fail(format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ))
        })?
        .into();
    cache_put(path, key, text.clone());
    Ok(text)
}

/// The bytes of the file at `path`, refused as [`read_text`] refuses (anything but a regular
/// file, without opening it) and over `limit` bytes. Not cached: for large binary files
/// (self-play shards) that are read once.
pub fn read_bytes(path: impl AsRef<Path>, limit: u64) -> Result<Vec<u8>> {
    let path = path.as_ref();
    let name = shown(path);
    let meta = std::fs::metadata(path).map_err(|e| Error::data(name.clone(), cannot(&e)))?;
    checked(&meta, limit).map_err(|why| Error::data(name, why))?;
    Ok(read_checked(path, limit)?.0)
}

/// Open `path` without blocking, check what was opened, read at most `limit` bytes.
fn read_checked(path: &Path, limit: u64) -> Result<(Vec<u8>, Key)> {
    let name = shown(path);
    let fail = |why: String| Error::data(name.clone(), why);
    let file = open(path).map_err(|e| fail(cannot(&e)))?;
    // The file itself, once open: what the path named may have been swapped meanwhile.
    let meta = file.metadata().map_err(|e| fail(cannot(&e)))?;
    let key = checked(&meta, limit).map_err(fail)?;
    let mut bytes = Vec::with_capacity(usize::try_from(key.0).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| fail(cannot(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(fail(format!("larger than the limit of {limit} bytes")));
    }
    Ok((bytes, key))
}

/// The files of directory `dir` whose name ends in `.{extension}`, in name order (at most
/// [`MAX_FILES`]; none is an error). Read each with [`read_text`].
pub fn files_in(dir: impl AsRef<Path>, extension: &str) -> Result<Vec<PathBuf>> {
    let dir = dir.as_ref();
    let name = shown(dir);
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::data(name.clone(), format!("cannot list: {}", why(&e))))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| Error::data(name.clone(), format!("cannot list: {}", why(&e))))?
            .path();
        if path.extension().is_some_and(|x| x == extension) {
            if files.len() == MAX_FILES {
                return Err(Error::data(
                    name,
                    format!("more than {MAX_FILES} .{extension} files"),
                ));
            }
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(Error::data(
            name,
            format!("the directory holds no .{extension} file"),
        ));
    }
    files.sort();
    Ok(files)
}

/// Why an I/O call failed, in words (the OS text, without anything from the file).
fn why(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        kind => kind.to_string(),
    }
}

fn cannot(e: &std::io::Error) -> String {
    format!("cannot read: {}", why(e))
}

/// (size, modification time) of a regular file within the limit; else why not.
fn checked(
    meta: &std::fs::Metadata,
    limit: u64,
) -> std::result::Result<(u64, Option<SystemTime>), String> {
    let kind = meta.file_type();
    if kind.is_dir() {
        return Err("is a directory, not a data file".into());
    }
    if !kind.is_file() {
        return Err("not a regular file (a device, FIFO or socket)".into());
    }
    if meta.len() > limit {
        return Err(format!(
            "{} bytes: larger than the limit of {limit} bytes",
            meta.len()
        ));
    }
    Ok((meta.len(), meta.modified().ok()))
}

#[cfg(unix)]
fn open(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Non-blocking, so a path swapped for a FIFO after the check cannot hang the open.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

type Key = (u64, Option<SystemTime>);
type Entry = (PathBuf, Key, Arc<str>);
static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

fn cache_get(path: &Path, key: Key) -> Option<Arc<str>> {
    // An entry without a modification time cannot tell an edit: never served.
    key.1?;
    let cache = CACHE.lock().ok()?;
    cache
        .iter()
        .find(|(p, k, _)| p == path && *k == key)
        .map(|(_, _, text)| text.clone())
}

fn cache_put(path: &Path, key: Key, text: Arc<str>) {
    if key.1.is_none() {
        return;
    }
    if let Ok(mut cache) = CACHE.lock() {
        cache.retain(|(p, _, _)| p != path);
        if cache.len() >= CACHE_SIZE {
            cache.remove(0);
        }
        cache.push((path.to_path_buf(), key, text));
    }
}

/// Values built from user data (parsed card sets), kept so that a batch of games sharing one
/// options value builds its value once. Keyed by a string that names the source and its
/// content, so an edited file is built again; the oldest entry goes once `capacity` is
/// reached. A poisoned lock only loses the cache, never the value.
pub struct Memo<T> {
    capacity: usize,
    entries: Mutex<Vec<(String, Arc<T>)>>,
}

impl<T> Memo<T> {
    pub const fn new(capacity: usize) -> Self {
        Memo {
            capacity,
            entries: Mutex::new(Vec::new()),
        }
    }

    /// The value kept under `key`, or `build()`'s, kept for next time if it succeeds.
    pub fn get_or_build(&self, key: String, build: impl FnOnce() -> Result<T>) -> Result<Arc<T>> {
        if let Ok(entries) = self.entries.lock() {
            if let Some((_, value)) = entries.iter().find(|(k, _)| *k == key) {
                return Ok(value.clone());
            }
        }
        let value = Arc::new(build()?);
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= self.capacity {
                entries.remove(0);
            }
            entries.push((key, value.clone()));
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder for a test's files, removed (with them) when it is dropped.
    fn temp() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn message(r: Result<impl std::fmt::Debug>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn memo_builds_once_per_key_and_forgets_the_oldest() {
        let memo: Memo<u32> = Memo::new(2);
        let builds = std::cell::Cell::new(0);
        let get = |key: &str, v: u32| {
            *memo
                .get_or_build(key.to_string(), || {
                    builds.set(builds.get() + 1);
                    Ok(v)
                })
                .unwrap()
        };
        assert_eq!(get("a", 1), 1);
        assert_eq!(get("a", 9), 1);
        assert_eq!(get("b", 2), 2);
        assert_eq!(get("c", 3), 3); // "a" is dropped
        assert_eq!(get("a", 4), 4);
        assert_eq!(builds.get(), 4);
        let failed: Result<Arc<u32>> = memo.get_or_build("d".into(), || Err(Error::invalid("no")));
        assert!(failed.is_err());
    }

    #[test]
    fn reads_a_file_and_rereads_it_once_edited() {
        let tmp = temp();
        let p = tmp.path().join("set.toml");
        std::fs::write(&p, "a = 1\n").unwrap();
        assert_eq!(&*read_text(&p).unwrap(), "a = 1\n");
        assert_eq!(&*read_text(&p).unwrap(), "a = 1\n");
        std::fs::write(&p, "a = 22\n").unwrap();
        assert_eq!(&*read_text(&p).unwrap(), "a = 22\n");
    }

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        let tmp = temp();
        let dir = tmp.path().join("a-dir");
        std::fs::create_dir_all(&dir).unwrap();
        assert!(message(read_text(&dir)).contains("is a directory"));
        #[cfg(unix)]
        {
            let m = message(read_text("/dev/zero"));
            assert!(
                m.contains("/dev/zero") && m.contains("not a regular file"),
                "{m}"
            );
        }
        let m = message(read_text(tmp.path().join("missing.toml")));
        assert!(
            m.contains("missing.toml") && m.contains("cannot read"),
            "{m}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_fifo_without_blocking() {
        let tmp = temp();
        let p = tmp.path().join("pipe.toml");
        let made = std::process::Command::new("mkfifo").arg(&p).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here
        }
        assert!(message(read_text(&p)).contains("not a regular file"));
    }

    #[test]
    fn refuses_a_file_over_the_limit_and_bad_text_without_quoting_it() {
        let tmp = temp();
        let big = tmp.path().join("big.toml");
        std::fs::write(&big, vec![b'x'; MAX_BYTES as usize + 1]).unwrap();
        assert!(message(read_text(&big)).contains("larger than the limit"));
        let bad = tmp.path().join("bad.toml");
        std::fs::write(&bad, b"secret = \xff\xfe").unwrap();
        let m = message(read_text(&bad));
        assert!(m.contains("not UTF-8") && m.contains("offset 9"), "{m}");
        assert!(!m.contains("secret"), "{m}");
    }

    #[test]
    fn reads_bytes_up_to_a_limit_and_refuses_what_read_text_refuses() {
        let tmp = temp();
        let p = tmp.path().join("shard.npz");
        std::fs::write(&p, b"\xff\x00abc").unwrap();
        assert_eq!(read_bytes(&p, 5).unwrap(), b"\xff\x00abc");
        assert!(message(read_bytes(&p, 4)).contains("larger than the limit of 4"));
        #[cfg(unix)]
        assert!(message(read_bytes("/dev/zero", 1 << 30)).contains("not a regular file"));
    }

    #[test]
    fn a_long_path_is_cut_in_messages() {
        let long = "d/".repeat(500) + "x.toml";
        let m = message(read_text(&long));
        assert!(m.len() < PATH_SHOWN + 100, "{m}");
    }

    #[test]
    fn lists_a_directory_in_name_order() {
        let tmp = temp();
        let dir = tmp.path().join("cards");
        std::fs::create_dir_all(&dir).unwrap();
        for f in ["b.toml", "a.toml", "notes.txt"] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let names: Vec<_> = files_in(&dir, "toml")
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.toml", "b.toml"]);
        assert!(message(files_in(&dir, "json")).contains("no .json file"));
    }
}
