//! Reading the user's files safely and saying why an I/O operation
//! failed: shared by the readers of templates, locks and outputs, and by
//! the transaction that writes them (the `output` module).

use std::path::Path;

/// An I/O error in words, without the `(os error N)` tail:
/// `no space left on device`, `permission denied`.
pub fn cause(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::StorageFull => "no space left on device".to_string(),
        K::PermissionDenied => "permission denied".to_string(),
        K::ReadOnlyFilesystem => "the file system is read-only".to_string(),
        K::NotADirectory => "a file is in the way of a folder".to_string(),
        K::IsADirectory => "a folder is in the way of the file".to_string(),
        K::FileTooLarge => "file too large (the file size limit, `ulimit -f`)".to_string(),
        K::InvalidFilename => "the file name is too long or not allowed here".to_string(),
        K::QuotaExceeded => "disk quota exceeded".to_string(),
        _ => {
            let s = e.to_string();
            let s = match s.find(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            };
            let mut c = s.chars();
            match c.next() {
                Some(first) => first.to_lowercase().chain(c).collect(),
                None => s,
            }
        }
    }
}

/// Reads `path` if it is a regular file (or a link to one). `Ok(None)`
/// when there is nothing at `path`. A FIFO, a device or a socket is an
/// error, not something to read: `/dev/zero` never ends, a FIFO blocks.
pub fn read_regular(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        // A dangling link: nothing to read, and a rename replaces the link.
        Err(_) if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) => {
            return Ok(None);
        }
        Err(e) => return Err(e),
        Ok(m) if m.is_dir() => return Err(std::io::ErrorKind::IsADirectory.into()),
        Ok(m) if !m.is_file() => {
            return Err(std::io::Error::other(
                "it is not a regular file (a FIFO, device or socket)",
            ));
        }
        Ok(_) => {}
    }
    std::fs::read(path).map(Some)
}

/// The largest template read (`[templates]`): 1 MiB, far above any
/// macro file's template.
pub const TEMPLATE_MAX: u64 = 1 << 20;

/// Reads a `[templates]` file: a regular file of at most
/// [`TEMPLATE_MAX`] bytes, in UTF-8 (not a FIFO or `/dev/zero`).
pub fn read_template(path: &Path) -> std::io::Result<String> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other(
            "it is not a regular file (a FIFO, device, socket or folder)",
        ));
    }
    if meta.len() > TEMPLATE_MAX {
        return Err(std::io::Error::other(format!(
            "it is {} bytes, more than a template may be ({TEMPLATE_MAX})",
            meta.len()
        )));
    }
    let bytes = read_regular(path)?.unwrap_or_default();
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "it is not UTF-8"))
}
