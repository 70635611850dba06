# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_flexmd_global_optspecs
    string join \n config= json compact color= h/help V/version
end

function __fish_flexmd_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_flexmd_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_flexmd_using_subcommand
    set -l cmd (__fish_flexmd_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c flexmd -n "__fish_flexmd_needs_command" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_needs_command" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_needs_command" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_needs_command" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_needs_command" -s V -l version -d 'Print version'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "outline" -d 'Print the heading outline of a Markdown text as MdOutline JSON (`outline render` turns such JSON back into Markdown)'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "frames" -d 'FlexMD frames (a Markdown format for chat transcripts and tool messages): parse them to FlexDocument JSON, or write JSON back'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "ofs" -d 'Output Format Specs (the Markdown block that tells a model which sections to answer with): read one, print it, print the prompt text'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "validate" -d 'Check answers against an Output Format Spec: exit 0 valid, 1 invalid'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "extract" -d 'Extract answers along an Output Format Spec as ExtractedResult JSON (exit 1 when an answer breaks the spec; the JSON is printed anyway)'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "detect" -d 'Find structured objects (flexmd fences, FlexDocument JSON, raw FlexMD, Markdown snippets) in any text: DetectedObject[] JSON; exit 1 when none'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "parse-any" -d 'Read every FlexMD document and Markdown snippet in any text, and the text around them: ParseAnyResult JSON'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "json" -d 'Print the JSON value in a model\'s answer (in a fence or in prose), repaired if need be; repairs go to stderr. Exit 1 when there is none'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "schema" -d 'JSON Schemas for agent output: list, show, validate (with coercion, defaults, hints), create one from an example'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "run" -d 'Ask a model (any command) for an answer, check it against a schema or an Output Format Spec, and ask again with hints until it is valid'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "grammar" -d 'Print a grammar that holds a local model to a JSON Schema or an Output Format Spec while it writes: Lark (llguidance: vLLM, SGLang), GBNF (llama.cpp), EBNF (XGrammar) or one regex (Outlines). What the grammar cannot enforce is noted on stderr (with --json, the whole report)'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "report" -d 'How well answers follow their format, in aggregate, from a JSON Lines file of answers (or of the results `extract`, `validate` or `json --jsonl` printed): per group (`--group-by model,prompt`) the valid share with its 95% interval, the leniencies relied on, each violation and JSON repair by code, each section\'s problems, answer lengths and the worst answers with their problems marked. As one self-contained HTML page with charts (-o report.html), JSON (--json) or a Markdown table (--markdown); exit 0 once made'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "tools" -d 'Print the function-calling tools (OpenAI or Anthropic format) a model would be offered to query these files'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "call" -d 'Run a model\'s tool calls (as the provider sent them) on these files and print the results'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "mcp" -d 'Serve flexmd to an agent over the Model Context Protocol, on standard input and output (or Streamable HTTP with --http): the artifact tools over FILEs and any file opened under a --root, and the output checks; every result within a token budget, paged with a cursor, never cut silently'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "artifact" -d 'Query a file far too large for a prompt, as a model\'s tools would (`flexmd artifact tail big.log n=20`); `flexmd artifact OP --help` explains each operation'
complete -c flexmd -n "__fish_flexmd_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and not __fish_seen_subcommand_from render help" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and not __fish_seen_subcommand_from render help" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and not __fish_seen_subcommand_from render help" -l render -d 'Print the outline rendered back to Markdown instead of JSON'
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and not __fish_seen_subcommand_from render help" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and not __fish_seen_subcommand_from render help" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and not __fish_seen_subcommand_from render help" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and not __fish_seen_subcommand_from render help" -a "render" -d 'Write MdOutline JSON back as Markdown: each heading at its level with its title and content (keys and ids are internal and never written)'
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and not __fish_seen_subcommand_from render help" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and __fish_seen_subcommand_from render" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and __fish_seen_subcommand_from render" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and __fish_seen_subcommand_from render" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and __fish_seen_subcommand_from render" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and __fish_seen_subcommand_from render" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and __fish_seen_subcommand_from help" -f -a "render" -d 'Write MdOutline JSON back as Markdown: each heading at its level with its title and content (keys and ids are internal and never written)'
complete -c flexmd -n "__fish_flexmd_using_subcommand outline; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and not __fish_seen_subcommand_from parse stringify help" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and not __fish_seen_subcommand_from parse stringify help" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and not __fish_seen_subcommand_from parse stringify help" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and not __fish_seen_subcommand_from parse stringify help" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and not __fish_seen_subcommand_from parse stringify help" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and not __fish_seen_subcommand_from parse stringify help" -f -a "parse" -d 'Parse FlexMD to FlexDocument JSON; diagnostics go to stderr, and any error among them makes the exit code 1'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and not __fish_seen_subcommand_from parse stringify help" -f -a "stringify" -d 'Write FlexDocument JSON as FlexMD'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and not __fish_seen_subcommand_from parse stringify help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from parse" -l meta -d 'How meta values are typed (`schema` needs --meta-schema)' -r -f -a "strings\t'Every value stays a string'
infer\t'true/false, null and JSON numbers become typed; `0012` stays a string'
schema\t'Each key has the type --meta-schema gives it; a value that does not fit is an error'"
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from parse" -l meta-schema -d 'The type of each meta key, as a JSON object such as `{"priority": "integer", "done": "boolean", "owners": "strings"}` (types: string, number, integer, boolean, strings); keys it does not name stay strings. Implies `--meta schema`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from parse" -l array-keys -d 'Meta keys whose values are comma-separated lists (default: tags,refs; an empty value means none)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from parse" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from parse" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from parse" -l meta-anywhere -d 'Read `@key: value` and `@payload` lines anywhere in a frame, not only in its head'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from parse" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from parse" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from parse" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from stringify" -l heading-level -d 'Write headers as `## [[type ...]]` headings at this level instead of bracket lines' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from stringify" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from stringify" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from stringify" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from stringify" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from stringify" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from help" -f -a "parse" -d 'Parse FlexMD to FlexDocument JSON; diagnostics go to stderr, and any error among them makes the exit code 1'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from help" -f -a "stringify" -d 'Write FlexDocument JSON as FlexMD'
complete -c flexmd -n "__fish_flexmd_using_subcommand frames; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and not __fish_seen_subcommand_from parse render enrich default help" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and not __fish_seen_subcommand_from parse render enrich default help" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and not __fish_seen_subcommand_from parse render enrich default help" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and not __fish_seen_subcommand_from parse render enrich default help" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and not __fish_seen_subcommand_from parse render enrich default help" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and not __fish_seen_subcommand_from parse render enrich default help" -f -a "parse" -d 'Read a spec (the Markdown block or its JSON) and print it as OutputFormatSpec JSON; lines that are not part of a spec are reported on stderr'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and not __fish_seen_subcommand_from parse render enrich default help" -f -a "render" -d 'Write a spec (its JSON or the Markdown block) as the canonical Markdown block'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and not __fish_seen_subcommand_from parse render enrich default help" -f -a "enrich" -d 'Print the prompt text for a spec: the canonical block plus only the rules it needs'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and not __fish_seen_subcommand_from parse render enrich default help" -f -a "default" -d 'Print the general-purpose five-section spec (Short answer, Long answer, Reasoning, Assumptions, Unknowns) as the Markdown block (with --json, as OutputFormatSpec JSON)'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and not __fish_seen_subcommand_from parse render enrich default help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from parse" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from parse" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from parse" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from parse" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from parse" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from render" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from render" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from render" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from render" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from render" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from enrich" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from enrich" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from enrich" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from enrich" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from enrich" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from default" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from default" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from default" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from default" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from default" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from help" -f -a "parse" -d 'Read a spec (the Markdown block or its JSON) and print it as OutputFormatSpec JSON; lines that are not part of a spec are reported on stderr'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from help" -f -a "render" -d 'Write a spec (its JSON or the Markdown block) as the canonical Markdown block'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from help" -f -a "enrich" -d 'Print the prompt text for a spec: the canonical block plus only the rules it needs'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from help" -f -a "default" -d 'Print the general-purpose five-section spec (Short answer, Long answer, Reasoning, Assumptions, Unknowns) as the Markdown block (with --json, as OutputFormatSpec JSON)'
complete -c flexmd -n "__fish_flexmd_using_subcommand ofs; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand validate" -l spec -d 'The spec: its Markdown block, or OutputFormatSpec JSON' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand validate" -l field -d 'With --jsonl: the field of each record that holds the answer' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand validate" -l jobs -d 'With --jsonl: how many threads work (default: one per core)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand validate" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand validate" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand validate" -l strict -d 'Count warnings (leniencies used to read the answer) as errors'
complete -c flexmd -n "__fish_flexmd_using_subcommand validate" -l jsonl -d 'Read the inputs as JSON Lines, one answer per line (a JSON string, or an object holding the answer in --field), and print one result line per record, in input order, worked on all cores'
complete -c flexmd -n "__fish_flexmd_using_subcommand validate" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand validate" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand validate" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l spec -d 'The spec: its Markdown block, or OutputFormatSpec JSON' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l field -d 'With --jsonl: the field of each record that holds the answer' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l jobs -d 'With --jsonl: how many threads work (default: one per core)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l as-json -d 'Print the plain object keyed by section name instead'
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l lists-in-prose -d 'Also parse lists written in prose sections (`list` on those sections)'
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l strict -d 'Count warnings (leniencies used to read the answer) as errors'
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l stream -d 'Read the answer as it arrives (one answer: a file, or standard input as a model writes it) and print each event as one line of JSON: `section_started`, `section_delta`, `section_completed`, `list_item`, `table_row`, `violation`, then `finished` with the report and the result'
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l jsonl -d 'Read the inputs as JSON Lines, one answer per line (a JSON string, or an object holding the answer in --field), and print one result line per record, in input order, worked on all cores'
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand extract" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand detect" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand detect" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand detect" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand detect" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand detect" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand parse-any" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand parse-any" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand parse-any" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand parse-any" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand parse-any" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l schema -d 'Return the value that fits this schema best, coerced to it: a registered schema\'s name, a JSON Schema file, or an Output Format Spec file. Exit 1 when it still violates the schema' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l preset -d 'With --schema: `strict` (repairs only), `standard` (repairs, coercions, defaults) or `salvage` (also drop what still violates)' -r -f -a "strict\t''
standard\t''
salvage\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l field -d 'With --jsonl: the field of each record that holds the answer' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l jobs -d 'With --jsonl: how many threads work (default: one per core)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l all -d 'Print an array of every value found, in order'
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l repairs -d 'Print each value with its span, source, ladder step and repairs (with --schema: the whole report, coercions and violations too)'
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l stream -d 'Read the text as it arrives (one text: a file, or standard input as a model writes it) and print, as one line of JSON each, an `update` for every piece that changes the partial value (JSON Patch operations, the paths completed, where the reading is), then `finished` with the value'
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l jsonl -d 'Read the inputs as JSON Lines, one answer per line (a JSON string, or an object holding the answer in --field), and print one result line per record, in input order, worked on all cores'
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand json" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and not __fish_seen_subcommand_from list show validate export create help" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and not __fish_seen_subcommand_from list show validate export create help" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and not __fish_seen_subcommand_from list show validate export create help" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and not __fish_seen_subcommand_from list show validate export create help" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and not __fish_seen_subcommand_from list show validate export create help" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and not __fish_seen_subcommand_from list show validate export create help" -f -a "list" -d 'List the schemas: the five predefined and any in the custom directory'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and not __fish_seen_subcommand_from list show validate export create help" -f -a "show" -d 'Print a schema as JSON'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and not __fish_seen_subcommand_from list show validate export create help" -f -a "validate" -d 'Validate data (JSON, or a model\'s answer holding JSON) against a schema: exit 0 valid, 1 invalid (or an unknown schema). The valid data (coerced, defaults filled) goes to stdout, problems to stderr; with --json, the outcome {valid, data, errors, warnings, changes}'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and not __fish_seen_subcommand_from list show validate export create help" -f -a "export" -d 'Print the request fragment that makes a provider constrain its answer to a schema: OpenAI `response_format` (strict) or a strict tool, Anthropic `output_config.format` or a strict tool, Gemini `responseJsonSchema`. The schema is rewritten into the subset the provider takes; what it will not enforce is noted on stderr (with --json, every change is in `changes`). Validate the answer with `schema validate --from PROVIDER` to check the rest'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and not __fish_seen_subcommand_from list show validate export create help" -f -a "create" -d 'Infer a schema from an example JSON file and save it as NAME.json in the custom schema directory'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and not __fish_seen_subcommand_from list show validate export create help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from list" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from list" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from list" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from list" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from show" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from show" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from show" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from show" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l schema -d 'A registered schema\'s name, or a schema file' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l agent -d 'An agent\'s name (such as `code-reviewer`): its schema is the one the settings file\'s `agentDefaults` maps it to' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l field -d 'With JSON Lines: validate this field of each record instead of the whole record. A string there is a model\'s answer (the JSON in it is validated); any other value is the data itself' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l jobs -d 'With JSON Lines: how many threads work (default: one per core)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l from -d 'The data is a provider\'s answer to the schema `schema export --for PROVIDER` made: read it back in the schema\'s shape first (the nulls OpenAI sends for omitted optional properties removed), so every constraint the provider did not enforce is checked' -r -f -a "openai\t''
openai-tool\t''
anthropic\t''
anthropic-tool\t''
gemini\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l jsonl -d 'Read the data as JSON Lines and validate every record, on all cores, one result line per record in input order (the default for files ending in .jsonl or .ndjson)'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l coerce -d 'Coerce types ("42" to 42, "true" to true, a scalar to a list) where that makes the data valid (config `coerceTypes`, default on)'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l no-coerce -d 'Do not coerce types'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l defaults -d 'Fill in the schema\'s defaults (config `applyDefaults`, default on)'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l no-defaults -d 'Do not fill in defaults'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l strict -d 'Count warnings (repairs made to read the JSON, values coerced) as errors; invalid data fails the command whatever the config says'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l no-strict -d 'Report violations as warnings, print the data anyway and exit 0 (config `strict: false`; by default invalid data fails, exit 1)'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l hints -d 'Say how to fix each error'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from validate" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from export" -l for -d 'The provider mode (`-tool`: a strict tool the request forces)' -r -f -a "openai\t''
openai-tool\t''
anthropic\t''
anthropic-tool\t''
gemini\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from export" -l name -d 'The name the request gives the schema or tool (default: the schema\'s name, or the file\'s stem)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from export" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from export" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from export" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from export" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from create" -l from-example -d 'The example JSON (or a model\'s answer holding it)' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from create" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from create" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from create" -l force -d 'Replace an existing file, or shadow a predefined schema of that name'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from create" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from create" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the schemas: the five predefined and any in the custom directory'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print a schema as JSON'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "validate" -d 'Validate data (JSON, or a model\'s answer holding JSON) against a schema: exit 0 valid, 1 invalid (or an unknown schema). The valid data (coerced, defaults filled) goes to stdout, problems to stderr; with --json, the outcome {valid, data, errors, warnings, changes}'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "export" -d 'Print the request fragment that makes a provider constrain its answer to a schema: OpenAI `response_format` (strict) or a strict tool, Anthropic `output_config.format` or a strict tool, Gemini `responseJsonSchema`. The schema is rewritten into the subset the provider takes; what it will not enforce is noted on stderr (with --json, every change is in `changes`). Validate the answer with `schema validate --from PROVIDER` to check the rest'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "create" -d 'Infer a schema from an example JSON file and save it as NAME.json in the custom schema directory'
complete -c flexmd -n "__fish_flexmd_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l schema -d 'The answer must be JSON matching this schema (a name or a file)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l spec -d 'The answer must be Markdown following this Output Format Spec' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l agent -d 'The answer must match this agent\'s schema (the config\'s `agentDefaults`)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l step -d 'A step of an agent workflow, as a JSON file (`agent`, `outputSchema`, and `config` with `retryOnSchemaError` and `maxSchemaRetries`): the schema and the retries it sets' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l llm-cmd -d 'The model: a command run by `sh -c`, prompt on stdin, answer on stdout' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l max-retries -d 'Retries after the first attempt (default: the flow step\'s maxSchemaRetries, else the config\'s maxRetries, 2; 0 when retrying is off there)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l timeout -d 'Seconds one answer may take' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l max-tokens-total -d 'The most tokens (o200k_base) all prompts and answers may use together; a prompt that would pass it is not sent' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l prompt -d 'The prompt text' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l prompt-file -d 'Read the prompt from this file (`-` for standard input; standard input is the default when neither --prompt nor --prompt-file is given)' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l coerce -d 'Coerce types ("42" to 42, "true" to true, a scalar to a list) where that makes the data valid (config `coerceTypes`, default on)'
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l no-coerce -d 'Do not coerce types'
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l defaults -d 'Fill in the schema\'s defaults (config `applyDefaults`, default on)'
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l no-defaults -d 'Do not fill in defaults'
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l strict -d 'Count warnings (repairs made to read the JSON, values coerced) as errors; invalid data fails the command whatever the config says'
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l no-strict -d 'Report violations as warnings, print the data anyway and exit 0 (config `strict: false`; by default invalid data fails, exit 1)'
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l patch -d 'On a retry, ask only for the failing top-level fields of an object answer and merge them into the last answer'
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand run" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -l schema -d 'The JSON Schema: a registered schema\'s name, or a schema file' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -l spec -d 'The Output Format Spec (its Markdown block, or its JSON): the grammar admits answers in one canonical layout that `validate --strict` accepts, sections in the spec\'s order' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -l format -d 'The dialect: lark (llguidance), gbnf (llama.cpp), ebnf (XGrammar), regex (Outlines)' -r -f -a "lark\t''
gbnf\t''
ebnf\t''
regex\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -l heading-level -d 'With --spec: the level of the section headings' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -l think -d 'With --spec: allow a leading `<think>` block of at most N lines (for reasoning models)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -l max-items -d 'With --spec: at most N items in a list section (and a numbered list numbered 1 to N in order)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -l max-rows -d 'With --spec: at most N rows in a table (and an ordered table\'s `#` numbered 1 to N in order)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand grammar" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l spec -d 'Check the answers against this Output Format Spec (its Markdown block, or OutputFormatSpec JSON). An answer written as JSON instead (an object keyed by section name) is read against the spec\'s sections, its JSON repairs counted' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l schema -d 'Check the JSON in the answers against this schema: a registered schema\'s name or a JSON Schema file (an Output Format Spec file is read as --spec)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l preset -d 'With --schema: `strict` (repairs only), `standard` (repairs, coercions, defaults) or `salvage` (also drop what still violates)' -r -f -a "strict\t''
standard\t''
salvage\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l field -d 'The field of each record that holds the answer' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l group-by -d 'Group the answers by these fields of their records (`model,prompt`); a record without one is in its `(none)` group' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l answers -d 'With result lines (no --spec or --schema): the JSON Lines file of answers they are the results of, matched by line number; the group fields and the answers\' text come from there' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -s o -l output -d 'Write the report as one self-contained HTML page to this file' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l worst -d 'How many worst answers to keep per group' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l jobs -d 'How many threads check answers (default: one per core)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l strict -d 'With --spec: count leniencies (a label for a heading, `*` bullets) as errors'
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l markdown -d 'Print a short Markdown summary table (for a CI comment)'
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand report" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand tools" -l format -d 'The tool-definition format' -r -f -a "openai\t'`[{"type": "function", "function": {...}}]` (Chat Completions)'
openai-responses\t'`[{"type": "function", "name", "description", "parameters", "strict": false}]` (the Responses API)'
anthropic\t'`[{"name", "description", "input_schema"}]`'"
complete -c flexmd -n "__fish_flexmd_using_subcommand tools" -l as -d 'Read every file as this kind (default: from the extension: .json, .json5, .jsonl, .ndjson are JSON of that format; .md, .markdown Markdown; anything else, and standard input, text)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand tools" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand tools" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand tools" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand tools" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand tools" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand call" -l call -d 'The call, as JSON: `{"name", "arguments"}` (arguments an object or JSON text), an OpenAI tool call (`{"type": "function", "function": {...}}`) or an assistant message holding `tool_calls`, an Anthropic `tool_use` block or a message holding them, or an array of calls. Standard input when neither this nor --call-file is given' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand call" -l call-file -d 'Read the call JSON from this file' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand call" -l max-tokens -d 'Answer with one page of the result, at most N tokens (o200k_base): `{text, tokens, truncated, omitted, cursor}`, cut only between whole lines or whole JSON values; pass the page\'s cursor with --cursor for the next one' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand call" -l cursor -d 'Continue after the page that returned this cursor (same call, same --max-tokens or another)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand call" -l as -d 'Read every file as this kind (default: from the extension: .json, .json5, .jsonl, .ndjson are JSON of that format; .md, .markdown Markdown; anything else, and standard input, text)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand call" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand call" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand call" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand call" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand call" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l http -d 'Serve MCP over Streamable HTTP at this address instead of standard input and output: a port alone (8931) is on the loopback address 127.0.0.1, this machine only; IP:PORT for another (0.0.0.0:8931); port 0 for any free one. Needs --token-file (or FLEXMD_MCP_TOKEN), or --no-auth on a loopback address. Each session has its own open files and cursors; SIGTERM lets calls in flight finish, then exits 0' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l token-file -d 'The file holding the bearer token every request must carry (`Authorization: Bearer TOKEN`); FLEXMD_MCP_TOKEN is read when this is not given' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l allow-origin -d 'A browser origin allowed to call besides the server\'s own (`https://app.example.com:443`, `http://localhost:*`); repeat for more. A request with any other Origin header is refused (403)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l allow-host -d 'A host name clients reach the server by (its Host header), besides localhost and the bound address; repeat for more' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l max-sessions -d 'How many sessions may be open at once; a new one past it is refused (503)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l session-idle -d 'Close a session unused this many seconds, releasing its files; its client gets 404 and initializes again' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l max-calls-per-session -d 'How many calls one session may run at once; one more is a JSON-RPC error saying so' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l request-timeout -d 'How long a client may take to send a request\'s headers, and then its body, in seconds (a slow client is cut off, or answered 408)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l shutdown-deadline -d 'How long calls in flight may take to finish after SIGTERM, in seconds' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l root -d 'A directory whose files the agent may open (`artifact_open`); repeat for more. Paths outside it, `..` and symlinks leading out are refused. Without one, only the FILEs can be read' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l max-result-tokens -d 'The budget of a result when a call gives no `max_tokens`, and the most a call may ask for: a larger `max_tokens` is lowered to it, with a note (o200k tokens; Claude Code cuts MCP results at 25 000)' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l max-message-bytes -d 'The longest message a client may send, in bytes; a longer one is answered with a JSON-RPC error (-32600) and skipped' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l max-open -d 'How many files may be open at once; past it `artifact_open` is refused with a message saying so' -r
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l no-auth -d 'Serve without authentication: only on a loopback address, where only this machine can connect'
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand mcp" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -s h -l help -d 'Print help'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "head" -d 'Return the first n lines of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "tail" -d 'Return the last n lines of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "grep" -d 'Return the lines of the file that match a regular expression (Rust regex syntax, no lookaround; each line matched on its own). With lineNumbers, each line starts with its 1-based line number and a colon, as grep -n prints it (artifact_cat counts lines from 0: line N is start=N-1).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "cat" -d 'Return lines [start, end) of the file, as JavaScript\'s Array.prototype.slice takes them (negative counts from the end; clamped to the line count).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "byte-length" -d 'Return the size in bytes of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "line-count" -d 'Return the number of lines of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "estimate-tokens" -d 'Return the number of tokens of the file under an encoding.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "json-type" -d 'Return the format of a JSON file: json, json5, jsonl or ndjson.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "json-keys" -d 'Return the top-level keys of a JSON file (for JSON Lines, of all records).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "json-length" -d 'Return the number of records of a JSON file (1 for json/json5).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "json-get" -d 'Return the values a JSONPath selects in a JSON file (for JSON Lines, in every record).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "json-filter" -d 'Return the records of a JSON file in which a JSONPath selects something; a path starting with `$[?` tests the record itself, e.g. `$[?@.status == \'active\']`.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "json-slice" -d 'Return records [start, end) of a JSON Lines tool result from this turn, as JavaScript\'s Array.prototype.slice takes them (negative counts from the end); the root for json/json5.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "json-pluck" -d 'Return one field from every record of a JSON file, by JSONPath (e.g. `$.id`).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "md-frontmatter" -d 'Return the YAML front matter of a Markdown file, as JSON.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "md-headings" -d 'Return the headings of a Markdown file, with their line ranges.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "md-code-blocks" -d 'Return the fenced code blocks of a Markdown file (language and line range; read them with artifact_cat).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "md-sections" -d 'Return the sections of a Markdown file: heading, depth and body line range (read a body with artifact_cat).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "md-links" -d 'Return the links in lines [startLine, endLine) of a Markdown file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "md-images" -d 'Return the images in lines [startLine, endLine) of a Markdown file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "md-text" -d 'Return the plain text (markup removed) of lines [startLine, endLine) of a Markdown file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "md-ast" -d 'Return the mdast syntax tree of lines [startLine, endLine) of a Markdown file (at most 1 MiB; bound the range with artifact_md_sections).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "as-string" -d 'Print the whole file as text (what the model would be given without tools)'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and not __fish_seen_subcommand_from head tail grep cat byte-length line-count estimate-tokens json-type json-keys json-length json-get json-filter json-slice json-pluck md-frontmatter md-headings md-code-blocks md-sections md-links md-images md-text md-ast as-string help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from head" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from head" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from head" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from head" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from head" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from head" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from tail" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from tail" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from tail" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from tail" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from tail" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from tail" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from grep" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from grep" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from grep" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from grep" -s n -l line-number -d 'Start each line with its 1-based line number and `:` (lineNumbers=true)'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from grep" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from grep" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from grep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from cat" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from cat" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from cat" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from cat" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from cat" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from cat" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from byte-length" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from byte-length" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from byte-length" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from byte-length" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from byte-length" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from byte-length" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from line-count" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from line-count" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from line-count" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from line-count" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from line-count" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from line-count" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from estimate-tokens" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from estimate-tokens" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from estimate-tokens" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from estimate-tokens" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from estimate-tokens" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from estimate-tokens" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-type" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-type" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-type" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-type" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-type" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-type" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-keys" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-keys" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-keys" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-keys" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-keys" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-keys" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-length" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-length" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-length" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-length" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-length" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-length" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-get" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-get" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-get" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-get" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-get" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-filter" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-filter" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-filter" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-filter" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-filter" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-filter" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-slice" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-slice" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-slice" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-slice" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-slice" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-slice" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-pluck" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-pluck" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-pluck" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-pluck" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-pluck" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from json-pluck" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-frontmatter" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-frontmatter" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-frontmatter" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-frontmatter" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-frontmatter" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-frontmatter" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-headings" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-headings" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-headings" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-headings" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-headings" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-headings" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-code-blocks" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-code-blocks" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-code-blocks" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-code-blocks" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-code-blocks" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-code-blocks" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-sections" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-sections" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-sections" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-sections" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-sections" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-sections" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-links" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-links" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-links" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-links" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-links" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-links" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-images" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-images" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-images" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-images" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-images" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-images" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-text" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-text" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-text" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-text" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-text" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-text" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-ast" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-ast" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-ast" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-ast" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-ast" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from md-ast" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from as-string" -l as -d 'Read the file as this kind (default: from its extension)' -r -f -a "json\t'JSON, JSON5 or JSON Lines, told apart by content'
json5\t'JSON5 (comments, trailing commas, unquoted keys)'
jsonl\t'JSON Lines: one value per line'
ndjson\t'The same as jsonl, under its other name'
markdown\t'Markdown'
text\t'Plain text (the line tools only)'"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from as-string" -l config -d 'The schema settings file, `schemas-config.json`: whether to coerce types, fill defaults and fail on invalid data, where custom schemas live, and which schema each agent\'s output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the nearest directory up from here that has a `.planning/`' -r -F
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from as-string" -l color -d 'Colour in diagnostics: `auto` (only on a terminal, and not when NO_COLOR is set), `always` or `never`' -r -f -a "auto\t''
always\t''
never\t''"
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from as-string" -l json -d 'Machine output: results and reports as JSON on stdout (validation reports, tool results) instead of text and diagnostics'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from as-string" -l compact -d 'Print JSON on one line instead of indented'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from as-string" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "head" -d 'Return the first n lines of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "tail" -d 'Return the last n lines of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "grep" -d 'Return the lines of the file that match a regular expression (Rust regex syntax, no lookaround; each line matched on its own). With lineNumbers, each line starts with its 1-based line number and a colon, as grep -n prints it (artifact_cat counts lines from 0: line N is start=N-1).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "cat" -d 'Return lines [start, end) of the file, as JavaScript\'s Array.prototype.slice takes them (negative counts from the end; clamped to the line count).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "byte-length" -d 'Return the size in bytes of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "line-count" -d 'Return the number of lines of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "estimate-tokens" -d 'Return the number of tokens of the file under an encoding.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "json-type" -d 'Return the format of a JSON file: json, json5, jsonl or ndjson.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "json-keys" -d 'Return the top-level keys of a JSON file (for JSON Lines, of all records).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "json-length" -d 'Return the number of records of a JSON file (1 for json/json5).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "json-get" -d 'Return the values a JSONPath selects in a JSON file (for JSON Lines, in every record).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "json-filter" -d 'Return the records of a JSON file in which a JSONPath selects something; a path starting with `$[?` tests the record itself, e.g. `$[?@.status == \'active\']`.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "json-slice" -d 'Return records [start, end) of a JSON Lines tool result from this turn, as JavaScript\'s Array.prototype.slice takes them (negative counts from the end); the root for json/json5.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "json-pluck" -d 'Return one field from every record of a JSON file, by JSONPath (e.g. `$.id`).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "md-frontmatter" -d 'Return the YAML front matter of a Markdown file, as JSON.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "md-headings" -d 'Return the headings of a Markdown file, with their line ranges.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "md-code-blocks" -d 'Return the fenced code blocks of a Markdown file (language and line range; read them with artifact_cat).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "md-sections" -d 'Return the sections of a Markdown file: heading, depth and body line range (read a body with artifact_cat).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "md-links" -d 'Return the links in lines [startLine, endLine) of a Markdown file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "md-images" -d 'Return the images in lines [startLine, endLine) of a Markdown file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "md-text" -d 'Return the plain text (markup removed) of lines [startLine, endLine) of a Markdown file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "md-ast" -d 'Return the mdast syntax tree of lines [startLine, endLine) of a Markdown file (at most 1 MiB; bound the range with artifact_md_sections).'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "as-string" -d 'Print the whole file as text (what the model would be given without tools)'
complete -c flexmd -n "__fish_flexmd_using_subcommand artifact; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "outline" -d 'Print the heading outline of a Markdown text as MdOutline JSON (`outline render` turns such JSON back into Markdown)'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "frames" -d 'FlexMD frames (a Markdown format for chat transcripts and tool messages): parse them to FlexDocument JSON, or write JSON back'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "ofs" -d 'Output Format Specs (the Markdown block that tells a model which sections to answer with): read one, print it, print the prompt text'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "validate" -d 'Check answers against an Output Format Spec: exit 0 valid, 1 invalid'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "extract" -d 'Extract answers along an Output Format Spec as ExtractedResult JSON (exit 1 when an answer breaks the spec; the JSON is printed anyway)'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "detect" -d 'Find structured objects (flexmd fences, FlexDocument JSON, raw FlexMD, Markdown snippets) in any text: DetectedObject[] JSON; exit 1 when none'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "parse-any" -d 'Read every FlexMD document and Markdown snippet in any text, and the text around them: ParseAnyResult JSON'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "json" -d 'Print the JSON value in a model\'s answer (in a fence or in prose), repaired if need be; repairs go to stderr. Exit 1 when there is none'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "schema" -d 'JSON Schemas for agent output: list, show, validate (with coercion, defaults, hints), create one from an example'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "run" -d 'Ask a model (any command) for an answer, check it against a schema or an Output Format Spec, and ask again with hints until it is valid'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "grammar" -d 'Print a grammar that holds a local model to a JSON Schema or an Output Format Spec while it writes: Lark (llguidance: vLLM, SGLang), GBNF (llama.cpp), EBNF (XGrammar) or one regex (Outlines). What the grammar cannot enforce is noted on stderr (with --json, the whole report)'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "report" -d 'How well answers follow their format, in aggregate, from a JSON Lines file of answers (or of the results `extract`, `validate` or `json --jsonl` printed): per group (`--group-by model,prompt`) the valid share with its 95% interval, the leniencies relied on, each violation and JSON repair by code, each section\'s problems, answer lengths and the worst answers with their problems marked. As one self-contained HTML page with charts (-o report.html), JSON (--json) or a Markdown table (--markdown); exit 0 once made'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "tools" -d 'Print the function-calling tools (OpenAI or Anthropic format) a model would be offered to query these files'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "call" -d 'Run a model\'s tool calls (as the provider sent them) on these files and print the results'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "mcp" -d 'Serve flexmd to an agent over the Model Context Protocol, on standard input and output (or Streamable HTTP with --http): the artifact tools over FILEs and any file opened under a --root, and the output checks; every result within a token budget, paged with a cursor, never cut silently'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "artifact" -d 'Query a file far too large for a prompt, as a model\'s tools would (`flexmd artifact tail big.log n=20`); `flexmd artifact OP --help` explains each operation'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and not __fish_seen_subcommand_from outline frames ofs validate extract detect parse-any json schema run grammar report tools call mcp artifact help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from outline" -f -a "render" -d 'Write MdOutline JSON back as Markdown: each heading at its level with its title and content (keys and ids are internal and never written)'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from frames" -f -a "parse" -d 'Parse FlexMD to FlexDocument JSON; diagnostics go to stderr, and any error among them makes the exit code 1'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from frames" -f -a "stringify" -d 'Write FlexDocument JSON as FlexMD'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from ofs" -f -a "parse" -d 'Read a spec (the Markdown block or its JSON) and print it as OutputFormatSpec JSON; lines that are not part of a spec are reported on stderr'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from ofs" -f -a "render" -d 'Write a spec (its JSON or the Markdown block) as the canonical Markdown block'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from ofs" -f -a "enrich" -d 'Print the prompt text for a spec: the canonical block plus only the rules it needs'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from ofs" -f -a "default" -d 'Print the general-purpose five-section spec (Short answer, Long answer, Reasoning, Assumptions, Unknowns) as the Markdown block (with --json, as OutputFormatSpec JSON)'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from schema" -f -a "list" -d 'List the schemas: the five predefined and any in the custom directory'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from schema" -f -a "show" -d 'Print a schema as JSON'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from schema" -f -a "validate" -d 'Validate data (JSON, or a model\'s answer holding JSON) against a schema: exit 0 valid, 1 invalid (or an unknown schema). The valid data (coerced, defaults filled) goes to stdout, problems to stderr; with --json, the outcome {valid, data, errors, warnings, changes}'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from schema" -f -a "export" -d 'Print the request fragment that makes a provider constrain its answer to a schema: OpenAI `response_format` (strict) or a strict tool, Anthropic `output_config.format` or a strict tool, Gemini `responseJsonSchema`. The schema is rewritten into the subset the provider takes; what it will not enforce is noted on stderr (with --json, every change is in `changes`). Validate the answer with `schema validate --from PROVIDER` to check the rest'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from schema" -f -a "create" -d 'Infer a schema from an example JSON file and save it as NAME.json in the custom schema directory'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "head" -d 'Return the first n lines of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "tail" -d 'Return the last n lines of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "grep" -d 'Return the lines of the file that match a regular expression (Rust regex syntax, no lookaround; each line matched on its own). With lineNumbers, each line starts with its 1-based line number and a colon, as grep -n prints it (artifact_cat counts lines from 0: line N is start=N-1).'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "cat" -d 'Return lines [start, end) of the file, as JavaScript\'s Array.prototype.slice takes them (negative counts from the end; clamped to the line count).'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "byte-length" -d 'Return the size in bytes of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "line-count" -d 'Return the number of lines of the file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "estimate-tokens" -d 'Return the number of tokens of the file under an encoding.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "json-type" -d 'Return the format of a JSON file: json, json5, jsonl or ndjson.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "json-keys" -d 'Return the top-level keys of a JSON file (for JSON Lines, of all records).'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "json-length" -d 'Return the number of records of a JSON file (1 for json/json5).'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "json-get" -d 'Return the values a JSONPath selects in a JSON file (for JSON Lines, in every record).'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "json-filter" -d 'Return the records of a JSON file in which a JSONPath selects something; a path starting with `$[?` tests the record itself, e.g. `$[?@.status == \'active\']`.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "json-slice" -d 'Return records [start, end) of a JSON Lines tool result from this turn, as JavaScript\'s Array.prototype.slice takes them (negative counts from the end); the root for json/json5.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "json-pluck" -d 'Return one field from every record of a JSON file, by JSONPath (e.g. `$.id`).'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "md-frontmatter" -d 'Return the YAML front matter of a Markdown file, as JSON.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "md-headings" -d 'Return the headings of a Markdown file, with their line ranges.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "md-code-blocks" -d 'Return the fenced code blocks of a Markdown file (language and line range; read them with artifact_cat).'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "md-sections" -d 'Return the sections of a Markdown file: heading, depth and body line range (read a body with artifact_cat).'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "md-links" -d 'Return the links in lines [startLine, endLine) of a Markdown file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "md-images" -d 'Return the images in lines [startLine, endLine) of a Markdown file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "md-text" -d 'Return the plain text (markup removed) of lines [startLine, endLine) of a Markdown file.'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "md-ast" -d 'Return the mdast syntax tree of lines [startLine, endLine) of a Markdown file (at most 1 MiB; bound the range with artifact_md_sections).'
complete -c flexmd -n "__fish_flexmd_using_subcommand help; and __fish_seen_subcommand_from artifact" -f -a "as-string" -d 'Print the whole file as text (what the model would be given without tools)'
