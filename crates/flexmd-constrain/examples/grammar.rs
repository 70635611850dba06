//! Prints a grammar for a schema file: `cargo run -p flexmd-constrain
//! --example grammar -- SCHEMA.json [lark|gbnf|ebnf|regex]`.

use flexmd_constrain::{GrammarFormat, schema_grammar};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: grammar SCHEMA.json [FORMAT]")?;
    let format: GrammarFormat = args.next().as_deref().unwrap_or("gbnf").parse()?;
    let schema = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let grammar = schema_grammar(&schema, format)?;
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
