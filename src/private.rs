//! Files only their owner reads: the server secret (which makes every seat
//! key), the database (players' addresses, orders, keys) and the mail files
//! are created readable by the service's own user only, whatever the umask.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::Path;

/// Creates `dir` and its missing parents with mode 0700 (existing ones are
/// left as they are: they may be shared on purpose).
pub fn create_dir_all(dir: &Path) -> io::Result<()> {
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

/// Makes the file at `path`, when it exists, readable and writable by its
/// owner only (0600).
pub fn restrict_file(path: &Path) -> io::Result<()> {
    match fs::metadata(path) {
        Ok(meta) if meta.permissions().mode() & 0o077 != 0 => {
            fs::set_permissions(path, fs::Permissions::from_mode(0o600))
        }
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Whether others than the owner may read the file (any group or other
/// permission bit).
pub fn readable_by_others(path: &Path) -> io::Result<bool> {
    Ok(fs::metadata(path)?.permissions().mode() & 0o077 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_are_made_0700_and_files_restricted_to_0600() {
        let root = std::env::temp_dir().join(format!("orderly-private-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let dir = root.join("a/b");
        create_dir_all(&dir).unwrap();
        for d in [root.join("a"), dir.clone()] {
            assert_eq!(
                fs::metadata(&d).unwrap().permissions().mode() & 0o777,
                0o700
            );
        }
        let file = dir.join("f");
        fs::write(&file, "x").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o644)).unwrap();
        assert!(readable_by_others(&file).unwrap());
        restrict_file(&file).unwrap();
        assert!(!readable_by_others(&file).unwrap());
        restrict_file(&dir.join("missing")).unwrap();
        let _ = fs::remove_dir_all(&root);
    }
}
