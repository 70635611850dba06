//! `cargo xtask codegen [--check]`: the files generated from the code —
//! the JSON Schemas of everything flexmd prints (from the Rust types, by
//! schemars), the CLI reference, the man page and the shell completions
//! (from the clap command). `--check` writes nothing and fails when a file
//! is stale or missing, or when a generated folder holds a file that is no
//! longer generated.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clap_complete::Shell;
use schemars::{JsonSchema, generate::SchemaSettings};

use crate::workspace::{Result, root};

/// One generated file: its path from the workspace root and its text.
struct Generated {
    path: PathBuf,
    text: String,
}

/// The folders whose every file is generated (a file there that is not is
/// stale).
const GENERATED_DIRS: &[&str] = &["docs/schemas", "docs/completions", "docs/man"];

/// The JSON flexmd prints, by the schema file's name, with the command
/// that prints it.
fn output_schemas() -> Vec<(&'static str, &'static str, schemars::Schema)> {
    fn schema<T: JsonSchema>(title: &str) -> schemars::Schema {
        let mut schema = SchemaSettings::draft2020_12()
            .for_serialize()
            .into_generator()
            .into_root_schema_for::<T>();
        schema.insert("title".to_owned(), title.into());
        schema
    }
    vec![
        (
            "md-outline",
            "flexmd outline",
            schema::<flexmd_core::MdOutline>("MdOutline"),
        ),
        (
            "flex-document",
            "flexmd frames parse",
            schema::<flexmd_core::FlexDocument>("FlexDocument"),
        ),
        (
            "output-format-spec",
            "flexmd ofs parse",
            schema::<flexmd_core::OutputFormatSpec>("OutputFormatSpec"),
        ),
        (
            "extracted-result",
            "flexmd extract",
            schema::<flexmd_core::ExtractedResult>("ExtractedResult"),
        ),
        (
            "stream-event",
            "flexmd extract --stream (each line before `finished`)",
            schema::<flexmd_ofs::StreamEvent>("StreamEvent"),
        ),
        (
            "json-update",
            "flexmd json --stream (each `update` line)",
            schema::<flexmd_detect::JsonUpdate>("JsonUpdate"),
        ),
        (
            "validation-report",
            "flexmd validate --json",
            schema::<flexmd_ofs::Report>("Report"),
        ),
        (
            "detected-objects",
            "flexmd detect",
            schema::<Vec<flexmd_detect::DetectedObject>>("DetectedObject[]"),
        ),
        (
            "parse-any-result",
            "flexmd parse-any",
            schema::<flexmd_detect::ParseAnyResult>("ParseAnyResult"),
        ),
        (
            "found-json",
            "flexmd json --repairs",
            schema::<flexmd_detect::FoundJson>("FoundJson"),
        ),
        (
            "aligned",
            "flexmd json --schema NAME --repairs",
            schema::<flexmd_schema::Aligned>("Aligned"),
        ),
        (
            "schema-outcome",
            "flexmd schema validate --json",
            schema::<flexmd_schema::Outcome>("Outcome"),
        ),
        (
            "schema-export",
            "flexmd schema export NAME --for PROVIDER --json",
            schema::<flexmd_constrain::Export>("Export"),
        ),
        (
            "schema-validated-from",
            "flexmd schema validate --from PROVIDER --json",
            schema::<flexmd_constrain::ValidatedFrom>("ValidatedFrom"),
        ),
        (
            "grammar",
            "flexmd grammar --schema NAME --format FORMAT --json",
            schema::<flexmd_constrain::Grammar>("Grammar"),
        ),
        (
            "report",
            "flexmd report --json",
            schema::<flexmd_report::Summary>("Report"),
        ),
        (
            "tools-openai",
            "flexmd tools",
            schema::<Vec<flexmd_artifact::OpenAiTool<'static>>>("OpenAI tools"),
        ),
        (
            "tools-anthropic",
            "flexmd tools --format anthropic",
            schema::<Vec<flexmd_artifact::AnthropicTool<'static>>>("Anthropic tools"),
        ),
        (
            "tool-call-result",
            "flexmd call --json",
            schema::<flexmd_artifact::ToolCallResult>("ToolCallResult"),
        ),
        (
            "page",
            "flexmd call --max-tokens N",
            schema::<flexmd_artifact::Page>("Page"),
        ),
    ]
}

/// `text` with the targets of rustdoc links to crate paths left out
/// (`` [`MAX_ERRORS`](crate::MAX_ERRORS) `` → `` [`MAX_ERRORS`] ``): the
/// descriptions come from doc comments, and the path means nothing to a
/// reader of the schema.
fn without_link_targets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("](crate::") {
        out.push_str(&rest[..=at]);
        let target = &rest[at + 1..];
        match target.find(')') {
            Some(end) => rest = &target[end + 1..],
            None => {
                rest = target;
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every generated file.
fn generate() -> Result<Vec<Generated>> {
    let mut files = Vec::new();
    let mut index = String::from(
        "# JSON Schemas of flexmd's output\n\nGenerated by `cargo xtask codegen` from the Rust \
         types; do not edit. Each schema is JSON Schema 2020-12. \
         [../FORMAT.md](../FORMAT.md) explains the formats.\n\n| file | printed by |\n|---|---|\n",
    );
    for (name, command, mut schema) in output_schemas() {
        schema.insert(
            "description".to_owned(),
            format!(
                "What `{command}` prints. Generated by `cargo xtask codegen`; docs/FORMAT.md \
                 explains it."
            )
            .into(),
        );
        let text = serde_json::to_string_pretty(&schema)
            .map(|t| without_link_targets(&t))
            .map_err(|e| format!("cannot write the {name} schema: {e}"))?;
        index.push_str(&format!(
            "| [{name}.schema.json]({name}.schema.json) | `{command}` |\n"
        ));
        files.push(Generated {
            path: PathBuf::from(format!("docs/schemas/{name}.schema.json")),
            text: text + "\n",
        });
    }
    files.push(Generated {
        path: PathBuf::from("docs/schemas/README.md"),
        text: index,
    });

    let command = flexmd_cli::command();
    files.push(Generated {
        path: PathBuf::from("docs/cli.md"),
        text: cli_reference(&command),
    });
    let mut man = Vec::new();
    clap_mangen::Man::new(command.clone())
        .render(&mut man)
        .map_err(|e| format!("cannot render the man page: {e}"))?;
    files.push(Generated {
        path: PathBuf::from("docs/man/flexmd.1"),
        text: String::from_utf8(man).map_err(|e| format!("man page: {e}"))?,
    });
    for (shell, file) in [
        (Shell::Bash, "flexmd.bash"),
        (Shell::Zsh, "_flexmd"),
        (Shell::Fish, "flexmd.fish"),
    ] {
        let mut out = Vec::new();
        clap_complete::generate(shell, &mut command.clone(), "flexmd", &mut out);
        files.push(Generated {
            path: PathBuf::from(format!("docs/completions/{file}")),
            text: String::from_utf8(out).map_err(|e| format!("{file}: {e}"))?,
        });
    }
    Ok(files)
}

/// docs/cli.md: every command's long help, depth first.
fn cli_reference(command: &clap::Command) -> String {
    let mut out = String::from(
        "# The `flexmd` command line\n\nGenerated by `cargo xtask codegen` from the CLI \
         itself (the same text as `--help`); do not edit. The formats are explained in \
         [FORMAT.md](FORMAT.md).\n\nPositions in the JSON the CLI prints are **byte \
         offsets** into the input as UTF-8 (`start`, `end`, `offset`, `span`), and places \
         in messages are `line:column` with columns counted in characters. The Python \
         package gives the same JSON with positions in code points (`str` indices), the \
         npm package in UTF-16 code units (JavaScript string indices).\n\n",
    );
    let mut commands = Vec::new();
    collect(command, "", &mut commands);
    out.push_str("## Commands\n\n");
    for (path, cmd) in &commands {
        let about = cmd.get_about().map(ToString::to_string).unwrap_or_default();
        out.push_str(&format!(
            "- [`{path}`](#{}): {about}\n",
            path.replace(' ', "-")
        ));
    }
    for (path, cmd) in &commands {
        let mut cmd = cmd.clone().bin_name(path.clone());
        let help = cmd.render_long_help().to_string();
        out.push_str(&format!(
            "\n## {path}\n\n```text\n{}\n```\n",
            help.trim_end()
        ));
    }
    out
}

/// The command and its subcommands (not `help`), with their full names.
fn collect(command: &clap::Command, parent: &str, out: &mut Vec<(String, clap::Command)>) {
    let path = if parent.is_empty() {
        command.get_name().to_owned()
    } else {
        format!("{parent} {}", command.get_name())
    };
    out.push((path.clone(), command.clone()));
    for sub in command.get_subcommands() {
        if sub.get_name() != "help" && !sub.is_hide_set() {
            collect(sub, &path, out);
        }
    }
}

/// Writes the generated files, or with `check` fails when any is stale.
pub(crate) fn run(args: &[String]) -> Result {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => return Err("usage: cargo xtask codegen [--check]".to_owned()),
    };
    let root = root();
    let files = generate()?;
    let mut stale = Vec::new();
    for file in &files {
        let full = root.join(&file.path);
        let current = std::fs::read_to_string(&full).ok();
        if current.as_deref() == Some(file.text.as_str()) {
            continue;
        }
        if check {
            stale.push(file.path.display().to_string());
        } else {
            if let Some(dir) = full.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            std::fs::write(&full, &file.text)
                .map_err(|e| format!("cannot write {}: {e}", full.display()))?;
            println!("wrote {}", file.path.display());
        }
    }
    let wanted: BTreeSet<&Path> = files.iter().map(|f| f.path.as_path()).collect();
    for dir in GENERATED_DIRS {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = Path::new(dir).join(entry.file_name());
            if wanted.contains(path.as_path()) {
                continue;
            }
            if check {
                stale.push(format!("{} (no longer generated)", path.display()));
            } else {
                std::fs::remove_file(root.join(&path))
                    .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
                println!("removed {}", path.display());
            }
        }
    }
    if stale.is_empty() {
        if check {
            println!("codegen: {} generated files up to date", files.len());
        }
        Ok(())
    } else {
        Err(format!(
            "generated files are stale (run `cargo xtask codegen`): {}",
            stale.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn link_targets_to_crate_paths_are_left_out_of_descriptions() {
        assert_eq!(
            super::without_link_targets(
                "at most [`MAX_ERRORS`](crate::MAX_ERRORS); [`a`](https://x) ok"
            ),
            "at most [`MAX_ERRORS`]; [`a`](https://x) ok"
        );
    }
}
