//! Prints a grammar for a JSON Schema file or an Output Format Spec (a
//! `.md` file): `cargo run -p flexmd-constrain --example grammar --
//! FILE [lark|gbnf|ebnf|regex]`.

use flexmd_constrain::{GrammarFormat, SpecGrammarOptions, schema_grammar, spec_grammar};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: grammar SCHEMA.json [FORMAT]")?;
    let format: GrammarFormat = args.next().as_deref().unwrap_or("gbnf").parse()?;
    let text = std::fs::read_to_string(&path)?;
    let grammar = if path.ends_with(".md") {
        let spec = flexmd_ofs::read_spec(&text)?.value;
        spec_grammar(&spec, format, &SpecGrammarOptions::default())?
    } else {
        schema_grammar(&serde_json::from_str(&text)?, format)?
    };
    print!("{}", grammar.grammar);
    for place in grammar.unenforced() {
        eprintln!(
            "left to validation at `{}`: {}",
            place.place,
            place.unenforced.join(", ")
        );
    }
    Ok(())
}
