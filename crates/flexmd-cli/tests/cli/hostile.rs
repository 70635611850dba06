//! Hostile input through every command that reads text: deep nesting of
//! each construct, invalid UTF-8, NUL bytes, lone CR, a byte order mark, a
//! YAML alias bomb, catastrophic regex shapes, unclosed brackets. Each
//! command must answer with an exit code (never a signal or a panic), and
//! the exit code of every pair is pinned in a table. Time and memory on
//! the big sizes are recorded by `benches/scripts/hostile.sh`, not here.

use super::*;

/// The inputs, by name, from the recipes in `tests/hostile/inputs.json`
/// (which the Python, npm and MCP suites read too).
fn inputs() -> Vec<(String, Vec<u8>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/hostile/inputs.json");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|input| {
            let name = input[0].as_str().unwrap().to_string();
            let mut bytes = Vec::new();
            for piece in input[1].as_array().unwrap() {
                append_piece(&mut bytes, piece);
            }
            (name, bytes)
        })
        .collect()
}

/// One piece of a recipe: a string, `[string, n]`, `{"bytes": [...]}` or
/// `{"stair": [indent, line, n]}`.
fn append_piece(bytes: &mut Vec<u8>, piece: &serde_json::Value) {
    use serde_json::Value;
    match piece {
        Value::String(s) => bytes.extend_from_slice(s.as_bytes()),
        Value::Array(pair) => {
            let n = pair[1].as_u64().unwrap() as usize;
            bytes.extend_from_slice(pair[0].as_str().unwrap().repeat(n).as_bytes());
        }
        Value::Object(map) if map.contains_key("bytes") => bytes.extend(
            map["bytes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| u8::try_from(b.as_u64().unwrap()).unwrap()),
        ),
        Value::Object(map) => {
            let stair = map["stair"].as_array().unwrap();
            let (indent, line) = (stair[0].as_str().unwrap(), stair[1].as_str().unwrap());
            for i in 0..stair[2].as_u64().unwrap() as usize {
                bytes.extend_from_slice(indent.repeat(i).as_bytes());
                bytes.extend_from_slice(line.as_bytes());
            }
        }
        other => panic!("not a recipe piece: {other}"),
    }
}

/// The commands, with `FILE` for the input's path.
fn commands() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("outline", vec!["outline", "FILE"]),
        ("frames", vec!["frames", "parse", "FILE"]),
        ("ofs-parse", vec!["ofs", "parse", "FILE"]),
        ("validate", vec!["validate", "--spec", "SPEC", "FILE"]),
        ("extract", vec!["extract", "--spec", "SPEC", "FILE"]),
        (
            "extract-stream",
            vec!["extract", "--stream", "--spec", "SPEC", "FILE"],
        ),
        ("detect", vec!["detect", "FILE"]),
        ("parse-any", vec!["parse-any", "FILE"]),
        ("json", vec!["json", "--all", "FILE"]),
        ("json-stream", vec!["json", "--stream", "FILE"]),
        ("json-schema", vec!["json", "--schema", "review", "FILE"]),
        (
            "schema",
            vec!["schema", "validate", "--schema", "plan", "--hints", "FILE"],
        ),
        ("grep", vec!["artifact", "grep", "FILE", "(x+x+)+y"]),
        (
            "md-sections",
            vec!["artifact", "md-sections", "FILE", "--as", "markdown"],
        ),
        (
            "md-ast",
            vec!["artifact", "md-ast", "FILE", "--as", "markdown"],
        ),
        (
            "md-frontmatter",
            vec!["artifact", "md-frontmatter", "FILE", "--as", "markdown"],
        ),
        (
            "json-get",
            vec!["artifact", "json-get", "FILE", "$..*", "--as", "json"],
        ),
        ("tools", vec!["tools", "FILE"]),
        (
            "spec-grammar",
            vec!["grammar", "--spec", "FILE", "--format", "lark"],
        ),
    ]
}

/// The exit code of `flexmd ARGS`, which must end with one (never a
/// signal) and never panic; with `says_why`, a failure must say why (a
/// search that finds nothing, such as `detect`, may fail silently).
fn exit_code(args: &[&str], what: &str, says_why: bool) -> i32 {
    let out = flexmd().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{what} panicked: {stderr}");
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("{what} was killed: {:?}", out.status));
    if code != 0 && says_why {
        assert!(!stderr.trim().is_empty(), "{what}: no message");
    }
    code
}

/// Every command on every input: no signal, no panic, and the exit codes
/// of the table below.
#[test]
fn every_command_answers_every_hostile_input() {
    let dir = scratch("hostile");
    let spec = example("specs/answer.md");
    let mut table = String::new();
    for (name, bytes) in inputs() {
        let path = dir.join(&name);
        std::fs::write(&path, &bytes).unwrap();
        let file = path.display().to_string();
        let mut row = format!("{name}:");
        for (label, args) in commands() {
            let args: Vec<&str> = args
                .iter()
                .map(|a| match *a {
                    "FILE" => file.as_str(),
                    "SPEC" => spec.as_str(),
                    other => other,
                })
                .collect();
            let code = exit_code(&args, &format!("{label} on {name}"), false);
            row.push_str(&format!(" {label}={code}"));
        }
        table.push_str(&row);
        table.push('\n');
    }
    assert_eq!(table, EXPECTED, "exit codes changed:\n{table}");
}

/// The hostile schemas, by name, as JSON text: `{"type": "string"}` wrapped
/// n times in the recipe's template (recipes in `tests/hostile/inputs.json`,
/// which the Python and npm suites read too). Built as text, prefix n
/// times, the inner schema, suffix n times, so a depth past what serde_json
/// reads can still be written.
fn schemas() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/hostile/inputs.json");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["schemas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|recipe| {
            let name = recipe[0].as_str().unwrap().to_string();
            let template = serde_json::to_string(&recipe[1][0]).unwrap();
            let n = recipe[1][1].as_u64().unwrap() as usize;
            let (prefix, suffix) = template.split_once("\"$HOLE\"").unwrap();
            let text = format!(
                "{}{{\"type\":\"string\"}}{}",
                prefix.repeat(n),
                suffix.repeat(n)
            );
            (name, text)
        })
        .collect()
}

/// The commands that read a schema, with `FILE` for its path.
fn schema_commands() -> Vec<(String, Vec<String>)> {
    let mut commands = Vec::new();
    for format in flexmd_constrain::GrammarFormat::ALL.map(|f| f.name()) {
        commands.push((
            format!("grammar-{format}"),
            ["grammar", "--schema", "FILE", "--format", format]
                .map(String::from)
                .to_vec(),
        ));
    }
    for provider in flexmd_constrain::Provider::ALL.map(|p| p.name()) {
        commands.push((
            format!("export-{provider}"),
            ["schema", "export", "FILE", "--for", provider, "--json"]
                .map(String::from)
                .to_vec(),
        ));
    }
    commands
}

/// Every command that reads a schema on every hostile schema: no signal,
/// no panic, a message with every refusal, and the exit codes of the table
/// below (0 written; 1 refused: a documented bound, a provider's limit, or
/// JSON nested past what flexmd reads).
#[test]
fn every_schema_command_answers_every_hostile_schema() {
    let dir = scratch("hostile-schemas");
    let mut table = String::new();
    for (name, text) in schemas() {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, &text).unwrap();
        let file = path.display().to_string();
        let mut row = format!("{name}:");
        for (label, args) in schema_commands() {
            let args: Vec<&str> = args
                .iter()
                .map(|a| if a == "FILE" { file.as_str() } else { a })
                .collect();
            let code = exit_code(&args, &format!("{label} on {name}"), true);
            row.push_str(&format!(" {label}={code}"));
        }
        table.push_str(&row);
        table.push('\n');
    }
    assert_eq!(table, EXPECTED_SCHEMAS, "exit codes changed:\n{table}");
}

/// 95 nested arrays fit every grammar but the regex (past its 1 MiB
/// bound); 96 is the bound of nested schemas; past 128 levels of JSON the
/// file is refused as unreadable. OpenAI allows 10 levels of nesting,
/// Anthropic refuses a root that is not an object.
const EXPECTED_SCHEMAS: &str = concat!(
    "items_95: grammar-lark=0 grammar-gbnf=0 grammar-ebnf=0 grammar-regex=1 export-openai=1 export-openai-tool=1 export-anthropic=1 export-anthropic-tool=1 export-gemini=0\n",
    "items_96: grammar-lark=1 grammar-gbnf=1 grammar-ebnf=1 grammar-regex=1 export-openai=1 export-openai-tool=1 export-anthropic=1 export-anthropic-tool=1 export-gemini=0\n",
    "items_126: grammar-lark=1 grammar-gbnf=1 grammar-ebnf=1 grammar-regex=1 export-openai=1 export-openai-tool=1 export-anthropic=1 export-anthropic-tool=1 export-gemini=0\n",
    "items_10000: grammar-lark=1 grammar-gbnf=1 grammar-ebnf=1 grammar-regex=1 export-openai=1 export-openai-tool=1 export-anthropic=1 export-anthropic-tool=1 export-gemini=1\n",
    "properties_30: grammar-lark=0 grammar-gbnf=0 grammar-ebnf=0 grammar-regex=0 export-openai=1 export-openai-tool=1 export-anthropic=0 export-anthropic-tool=0 export-gemini=0\n",
    "properties_63: grammar-lark=0 grammar-gbnf=0 grammar-ebnf=0 grammar-regex=1 export-openai=1 export-openai-tool=1 export-anthropic=0 export-anthropic-tool=0 export-gemini=0\n",
    "any_of_63: grammar-lark=0 grammar-gbnf=0 grammar-ebnf=0 grammar-regex=0 export-openai=1 export-openai-tool=1 export-anthropic=1 export-anthropic-tool=1 export-gemini=0\n",
    "all_of_63: grammar-lark=0 grammar-gbnf=0 grammar-ebnf=0 grammar-regex=0 export-openai=1 export-openai-tool=1 export-anthropic=1 export-anthropic-tool=1 export-gemini=0\n",
);

/// Exit codes: 0 read (lenient), 1 read but invalid or nothing found, 2
/// refused (unreadable or not the kind asked for, with a clear error).
const EXPECTED: &str = concat!(
    "quote: outline=0 frames=0 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=1 json-stream=1 json-schema=1 schema=1 grep=1 md-sections=1 md-ast=1 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "bullet: outline=0 frames=0 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=1 json-stream=1 json-schema=1 schema=1 grep=1 md-sections=1 md-ast=1 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "ordered: outline=0 frames=0 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=1 json-stream=1 json-schema=1 schema=1 grep=1 md-sections=1 md-ast=1 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "indented: outline=0 frames=0 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=1 json-stream=1 json-schema=1 schema=1 grep=1 md-sections=1 md-ast=1 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "brackets: outline=0 frames=1 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=1 json-stream=1 json-schema=1 schema=1 grep=1 md-sections=1 md-ast=1 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "braces: outline=0 frames=0 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=1 json-stream=1 json-schema=1 schema=1 grep=1 md-sections=1 md-ast=0 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "parens: outline=0 frames=0 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=1 json-stream=1 json-schema=1 schema=1 grep=1 md-sections=1 md-ast=0 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "frames: outline=0 frames=1 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=1 json-stream=1 json-schema=1 schema=1 grep=1 md-sections=1 md-ast=1 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "invalid_utf8: outline=2 frames=2 ofs-parse=2 validate=2 extract=2 extract-stream=2 detect=2 parse-any=2 json=2 json-stream=2 json-schema=2 schema=2 grep=1 md-sections=0 md-ast=0 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "nul: outline=0 frames=0 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=0 json-stream=0 json-schema=1 schema=1 grep=1 md-sections=0 md-ast=0 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "lone_cr: outline=0 frames=0 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=0 json-stream=0 json-schema=1 schema=1 grep=1 md-sections=0 md-ast=0 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "bom: outline=0 frames=0 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=0 json-stream=0 json-schema=1 schema=1 grep=1 md-sections=0 md-ast=0 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "alias_bomb: outline=0 frames=0 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=0 json-stream=0 json-schema=1 schema=1 grep=1 md-sections=0 md-ast=0 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
    "empty: outline=0 frames=0 ofs-parse=2 validate=1 extract=1 extract-stream=1 detect=1 parse-any=0 json=1 json-stream=1 json-schema=1 schema=1 grep=1 md-sections=1 md-ast=0 md-frontmatter=1 json-get=2 tools=0 spec-grammar=2\n",
);
