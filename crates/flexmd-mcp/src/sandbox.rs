//! The directories an agent may open files in: a path is allowed when,
//! with every symlink and `..` resolved, it names a regular file under one
//! of them.

use std::path::{Path, PathBuf};

use crate::error::ServeError;

/// The roots, resolved once at start.
#[derive(Debug, Clone, Default)]
pub(crate) struct Roots {
    roots: Vec<PathBuf>,
}

impl Roots {
    /// Resolves each root; one that is missing or not a directory is an
    /// error (a server that silently serves less than asked is worse).
    pub(crate) fn new(dirs: &[PathBuf]) -> Result<Self, ServeError> {
        let mut roots = Vec::with_capacity(dirs.len());
        for dir in dirs {
            let real = std::fs::canonicalize(dir).map_err(|source| ServeError::Root {
                path: dir.clone(),
                reason: source.to_string(),
            })?;
            if !real.is_dir() {
                return Err(ServeError::Root {
                    path: dir.clone(),
                    reason: "not a directory".to_owned(),
                });
            }
            roots.push(real);
        }
        Ok(Self { roots })
    }

    /// Whether there is any root (else `artifact_open` is not offered).
    pub(crate) fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// The roots, as the refusals list them.
    pub(crate) fn list(&self) -> String {
        self.roots
            .iter()
            .map(|r| format!("`{}`", r.display()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The real path of `requested` and the root it lies under, or why it
    /// is refused (in words a model can act on). A relative path is tried
    /// under each root in turn.
    pub(crate) fn resolve(&self, requested: &str) -> Result<(PathBuf, &Path), String> {
        if requested.is_empty() {
            return Err(format!(
                "artifact_open: `path` is empty; give a file under {}",
                self.list()
            ));
        }
        if requested.contains('\0') {
            return Err("artifact_open: `path` holds a NUL byte".to_owned());
        }
        let path = Path::new(requested);
        let candidates: Vec<PathBuf> = if path.is_absolute() {
            vec![path.to_owned()]
        } else {
            self.roots.iter().map(|r| r.join(path)).collect()
        };
        let mut escaped = false;
        for candidate in candidates {
            let real = match std::fs::canonicalize(&candidate) {
                Ok(real) => real,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(format!("artifact_open: cannot open `{requested}`: {e}")),
            };
            let Some(root) = self.roots.iter().find(|r| real.starts_with(r)) else {
                escaped = true;
                continue;
            };
            // Only regular files: a FIFO would block the read, a device
            // never ends, a directory is no artifact.
            let kind = std::fs::metadata(&real)
                .map_err(|e| format!("artifact_open: cannot open `{requested}`: {e}"))?
                .file_type();
            if !kind.is_file() {
                let what = if kind.is_dir() {
                    "a directory"
                } else {
                    "not a regular file (a FIFO, socket or device)"
                };
                return Err(format!(
                    "artifact_open: `{requested}` is {what}; open a regular file"
                ));
            }
            return Ok((real, root.as_path()));
        }
        Err(if escaped {
            format!(
                "artifact_open: `{requested}` is outside the roots (through `..` or a symlink); \
                 the roots are {}",
                self.list()
            )
        } else {
            format!(
                "artifact_open: no file `{requested}` under the roots {}",
                self.list()
            )
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn inside_paths_open_and_escapes_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/a.log"), "a\n").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "s\n").unwrap();
        let roots = Roots::new(std::slice::from_ref(&root)).unwrap();
        let real_root = std::fs::canonicalize(&root).unwrap();

        let (real, under) = roots.resolve("sub/a.log").unwrap();
        assert_eq!(real, real_root.join("sub/a.log"));
        assert_eq!(under, real_root);
        assert!(roots.resolve("sub/../sub/a.log").is_ok());

        let err = roots.resolve("../secret.txt").unwrap_err();
        assert!(err.contains("is outside the roots"), "{err}");
        assert!(err.contains(&real_root.display().to_string()), "{err}");
        let abs = dir.path().join("secret.txt");
        assert!(
            roots
                .resolve(abs.to_str().unwrap())
                .unwrap_err()
                .contains("outside the roots")
        );
        assert!(
            roots
                .resolve("nope.txt")
                .unwrap_err()
                .contains("no file `nope.txt`")
        );
        assert!(roots.resolve("sub").unwrap_err().contains("is a directory"));
        assert!(roots.resolve("").unwrap_err().contains("is empty"));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_root_and_fifos_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(dir.path().join("secret.txt"), "s\n").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("link.txt")).unwrap();
        std::fs::write(root.join("inside.txt"), "i\n").unwrap();
        std::os::unix::fs::symlink(root.join("inside.txt"), root.join("ok-link.txt")).unwrap();
        let roots = Roots::new(std::slice::from_ref(&root)).unwrap();

        let err = roots.resolve("link.txt").unwrap_err();
        assert!(err.contains("outside the roots"), "{err}");
        // A symlink that stays inside is just another name.
        assert!(roots.resolve("ok-link.txt").is_ok());
        assert!(
            roots
                .resolve("/dev/null")
                .unwrap_err()
                .contains("outside the roots")
        );
        let devices = Roots::new(&[PathBuf::from("/dev")]).unwrap();
        assert!(
            devices
                .resolve("null")
                .unwrap_err()
                .contains("not a regular file")
        );
    }

    #[test]
    fn a_missing_root_is_an_error_at_start() {
        let err = Roots::new(&[PathBuf::from("/no/such/dir")]).unwrap_err();
        assert!(err.to_string().contains("/no/such/dir"), "{err}");
    }
}
