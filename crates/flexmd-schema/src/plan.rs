//! The fast verdict: a plan compiled from a schema written only in the
//! keywords most agent schemas use, that says whether a value — or JSON
//! text, without building a `Value` — is valid, and nothing more.
//!
//! Keywords a plan covers: `type`, `enum` and `const` of scalars, `minimum`,
//! `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minLength`,
//! `maxLength`, `items` (one schema for every item), `minItems`,
//! `maxItems`, `properties`, `required`, `additionalProperties`,
//! `minProperties`, `maxProperties`, boolean schemas, and the annotations
//! (`title`, `description`, `default`, `examples`, `$comment`,
//! `deprecated`, `readOnly`, `writeOnly`, `$id`, `$schema` of drafts 6 to
//! 2020-12). A schema with any other keyword anywhere has no plan and the
//! jsonschema crate judges every value, as it judges every value's errors.
//!
//! A plan's verdict is the jsonschema crate's: numbers are compared with
//! the crate's own numeric rules (`jsonschema-value`), and `cargo xtask
//! conformance` checks the two verdicts agree on every case of the JSON
//! Schema Test Suite whose schema has a plan. From text, the plan reads
//! what `serde_json` accepts; where the two could differ (text that is not
//! JSON, a key written twice, numbers out of range, nesting past 100
//! levels, a `\u` escape of a lone surrogate) it gives no verdict and the
//! caller parses the text and asks the validator.

use std::borrow::Cow;

use jsonschema_value::cmp::equal_numbers;
use jsonschema_value::numeric_check::{BoundOp, CompiledBound, check_bound, compile_bound};
use jsonschema_value::types::number_is_integer;
use serde_json::{Map, Number, Value};

/// How deep the text reader follows nesting before it leaves the text to
/// `serde_json` (which refuses past 128 levels).
const MAX_TEXT_DEPTH: u32 = 100;

/// A schema compiled for the fast verdict.
pub(crate) struct Plan {
    root: Node,
}

/// One subschema.
enum Node {
    /// `true`, `{}`, or annotations only.
    Any,
    /// `false`.
    Never,
    /// Keywords to check.
    Check(Box<Check>),
}

/// Type bits (`number` allows `INTEGER` too).
const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const INTEGER: u8 = 4;
const NUMBER: u8 = 8;
const STRING: u8 = 16;
const ARRAY: u8 = 32;
const OBJECT: u8 = 64;
const ALL: u8 = 127;

/// A subschema's keywords, compiled.
struct Check {
    /// Allowed types (`ALL` without `type`).
    types: u8,
    /// `enum` and `const`: the value must equal one of each list's.
    allowed: Vec<Vec<Value>>,
    bounds: Vec<CompiledBound>,
    min_length: u64,
    max_length: u64,
    items: Node,
    min_items: u64,
    max_items: u64,
    properties: Vec<(String, Node)>,
    /// Indexes into `properties` of the required names it holds.
    required_known: Vec<usize>,
    /// Required names not in `properties`.
    required_other: Vec<String>,
    additional: Node,
    min_properties: u64,
    max_properties: u64,
}

impl Plan {
    /// The plan of `schema`, or `None` when a keyword (or a draft) is not
    /// one the plan covers.
    pub(crate) fn compile(schema: &Value) -> Option<Self> {
        Some(Self {
            root: node(schema)?,
        })
    }

    /// Whether `value` is valid.
    pub(crate) fn is_valid(&self, value: &Value) -> bool {
        self.root.is_valid(value)
    }

    /// Whether the JSON `text` holds a valid value; `None` when the text
    /// is not one the plan reads as `serde_json` does (see the module).
    pub(crate) fn is_valid_text(&self, text: &str) -> Option<bool> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            text,
            pos: 0,
        };
        reader.skip_space();
        let valid = reader.value(&self.root, 0)?;
        reader.skip_space();
        (reader.pos == reader.bytes.len()).then_some(valid)
    }
}

/// The keywords that change nothing a verdict depends on.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$id",
];

/// The drafts whose meaning of the covered keywords is the same (draft 4
/// reads `exclusiveMinimum` and `1.0` differently).
const DRAFTS: &[&str] = &[
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema",
];

fn node(schema: &Value) -> Option<Node> {
    let map = match schema {
        Value::Bool(true) => return Some(Node::Any),
        Value::Bool(false) => return Some(Node::Never),
        Value::Object(map) => map,
        _ => return None,
    };
    let mut check = Check {
        types: ALL,
        allowed: Vec::new(),
        bounds: Vec::new(),
        min_length: 0,
        max_length: u64::MAX,
        items: Node::Any,
        min_items: 0,
        max_items: u64::MAX,
        properties: Vec::new(),
        required_known: Vec::new(),
        required_other: Vec::new(),
        additional: Node::Any,
        min_properties: 0,
        max_properties: u64::MAX,
    };
    let mut required: &[Value] = &[];
    let mut any = true;
    for (keyword, value) in map {
        match keyword.as_str() {
            // Unreachable without a `$ref`, which has no plan.
            k if ANNOTATIONS.contains(&k) || k == "$defs" || k == "definitions" => continue,
            // A subschema may name its draft too (a schema embedded whole):
            // any of these reads the covered keywords alike.
            "$schema" => {
                let uri = value.as_str()?.trim_end_matches('#');
                if !DRAFTS.contains(&uri) {
                    return None;
                }
                continue;
            }
            "type" => check.types = types(value)?,
            "enum" => check.allowed.push(scalars(value.as_array()?)?),
            "const" => check.allowed.push(scalars(std::slice::from_ref(value))?),
            "minimum" => check
                .bounds
                .push(compile_bound(BoundOp::Gte, number(value)?)),
            "maximum" => check
                .bounds
                .push(compile_bound(BoundOp::Lte, number(value)?)),
            "exclusiveMinimum" => check
                .bounds
                .push(compile_bound(BoundOp::Gt, number(value)?)),
            "exclusiveMaximum" => check
                .bounds
                .push(compile_bound(BoundOp::Lt, number(value)?)),
            "minLength" => check.min_length = count(value)?,
            "maxLength" => check.max_length = count(value)?,
            "minItems" => check.min_items = count(value)?,
            "maxItems" => check.max_items = count(value)?,
            "minProperties" => check.min_properties = count(value)?,
            "maxProperties" => check.max_properties = count(value)?,
            "items" => check.items = node(value)?,
            "additionalProperties" => check.additional = node(value)?,
            "properties" => {
                check.properties = value
                    .as_object()?
                    .iter()
                    .map(|(name, schema)| Some((name.clone(), node(schema)?)))
                    .collect::<Option<_>>()?;
            }
            "required" => required = value.as_array()?,
            _ => return None,
        }
        any = false;
    }
    for name in required {
        let name = name.as_str()?;
        match check.properties.iter().position(|(n, _)| n == name) {
            Some(index) => check.required_known.push(index),
            None => check.required_other.push(name.to_owned()),
        }
    }
    Some(if any {
        Node::Any
    } else {
        Node::Check(Box::new(check))
    })
}

fn types(value: &Value) -> Option<u8> {
    let one = |name: &Value| match name.as_str()? {
        "null" => Some(NULL),
        "boolean" => Some(BOOLEAN),
        "integer" => Some(INTEGER),
        "number" => Some(NUMBER | INTEGER),
        "string" => Some(STRING),
        "array" => Some(ARRAY),
        "object" => Some(OBJECT),
        _ => None,
    };
    match value {
        Value::Array(names) => names
            .iter()
            .try_fold(0, |bits, name| Some(bits | one(name)?)),
        name => one(name),
    }
}

/// `enum` or `const` values, when every one is a scalar (the text reader
/// compares without building arrays and objects).
fn scalars(values: &[Value]) -> Option<Vec<Value>> {
    values
        .iter()
        .all(|v| !matches!(v, Value::Array(_) | Value::Object(_)))
        .then(|| values.to_vec())
}

fn number(value: &Value) -> Option<&Number> {
    match value {
        Value::Number(n) => Some(n),
        _ => None,
    }
}

/// A count keyword's value: a non-negative integer (`2.0` too, as drafts 6
/// and later allow).
fn count(value: &Value) -> Option<u64> {
    let n = number(value)?;
    if let Some(n) = n.as_u64() {
        return Some(n);
    }
    let f = n.as_f64()?;
    // Beyond 2^53 a float count is not exact: leave it to the validator.
    (f >= 0.0 && f.fract() == 0.0 && f < 9_007_199_254_740_992.0).then_some(f as u64)
}

impl Node {
    fn is_valid(&self, value: &Value) -> bool {
        match self {
            Node::Any => true,
            Node::Never => false,
            Node::Check(check) => check.is_valid(value),
        }
    }
}

impl Check {
    fn is_valid(&self, value: &Value) -> bool {
        match value {
            Value::Null => self.scalar(NULL, value),
            Value::Bool(_) => self.scalar(BOOLEAN, value),
            Value::Number(n) => self.number(n),
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.container(ARRAY)
                    && self.item_count(items.len())
                    && items.iter().all(|item| self.items.is_valid(item))
            }
            Value::Object(map) => self.object(map),
        }
    }

    fn allows(&self, kind: u8) -> bool {
        self.types & kind != 0
    }

    /// Arrays and objects: of an allowed type, and no `enum`/`const` (whose
    /// values are all scalars) to match.
    fn container(&self, kind: u8) -> bool {
        self.allows(kind) && self.allowed.is_empty()
    }

    fn scalar(&self, kind: u8, value: &Value) -> bool {
        self.allows(kind) && self.allowed.iter().all(|list| list.contains(value))
    }

    fn number(&self, n: &Number) -> bool {
        (self.allows(NUMBER) || (self.allows(INTEGER) && number_is_integer(n)))
            && self.allowed.iter().all(|list| {
                list.iter()
                    .any(|v| matches!(v, Value::Number(m) if equal_numbers(n, m)))
            })
            && self.bounds.iter().all(|bound| check_bound(bound, n))
    }

    /// Whether a number's value is needed (the text reader reads it only then).
    fn needs_number(&self) -> bool {
        (self.types & NUMBER == 0 && self.types & INTEGER != 0)
            || !self.allowed.is_empty()
            || !self.bounds.is_empty()
    }

    fn string(&self, s: &str) -> bool {
        self.allows(STRING)
            && self
                .allowed
                .iter()
                .all(|list| list.iter().any(|v| v.as_str() == Some(s)))
            && self.length_within(s)
    }

    fn needs_string(&self) -> bool {
        !self.allowed.is_empty() || self.min_length > 0 || self.max_length < u64::MAX
    }

    fn length_within(&self, s: &str) -> bool {
        if self.min_length == 0 && self.max_length == u64::MAX {
            return true;
        }
        let length = s.chars().count() as u64;
        self.min_length <= length && length <= self.max_length
    }

    fn item_count(&self, count: usize) -> bool {
        let count = count as u64;
        self.min_items <= count && count <= self.max_items
    }

    fn property_count(&self, count: usize) -> bool {
        let count = count as u64;
        self.min_properties <= count && count <= self.max_properties
    }

    /// The index of property `name`, trying `hint` first: answers tend
    /// to write the keys in the schema's order, so the next key is most
    /// often the next property.
    fn property(&self, name: &str, hint: usize) -> Option<usize> {
        match self.properties.get(hint) {
            Some((n, _)) if n == name => Some(hint),
            _ => self.properties.iter().position(|(n, _)| n == name),
        }
    }

    fn object(&self, map: &Map<String, Value>) -> bool {
        if !self.container(OBJECT) || !self.property_count(map.len()) {
            return false;
        }
        // One pass over the entries; the required names are then checked
        // against the properties seen, without hashing a name again.
        let mut seen = Seen::new(self.properties.len());
        let mut hint = 0;
        for (name, value) in map {
            let valid = match self.property(name, hint) {
                Some(i) => {
                    seen.insert(i);
                    hint = i + 1;
                    self.properties
                        .get(i)
                        .is_some_and(|(_, p)| p.is_valid(value))
                }
                None => self.additional.is_valid(value),
            };
            if !valid {
                return false;
            }
        }
        self.required_known.iter().all(|&i| seen.contains(i))
            && self.required_other.iter().all(|n| map.contains_key(n))
    }
}

/// Which of an object's properties were seen: bits for up to 64, else a
/// flag each.
enum Seen {
    Bits(u64),
    Flags(Vec<bool>),
}

impl Seen {
    fn new(count: usize) -> Self {
        if count <= 64 {
            Seen::Bits(0)
        } else {
            Seen::Flags(vec![false; count])
        }
    }

    /// Marks property `i`; false when it was already seen.
    fn insert(&mut self, i: usize) -> bool {
        match self {
            Seen::Bits(bits) => {
                let bit = 1u64 << (i & 63);
                let first = *bits & bit == 0;
                *bits |= bit;
                first
            }
            Seen::Flags(flags) => flags
                .get_mut(i)
                .is_some_and(|f| !std::mem::replace(f, true)),
        }
    }

    fn contains(&self, i: usize) -> bool {
        match self {
            Seen::Bits(bits) => *bits & (1u64 << (i & 63)) != 0,
            Seen::Flags(flags) => flags.get(i) == Some(&true),
        }
    }
}

/// Reads JSON text as `serde_json` does, judging each value as it goes.
/// Every method returns `None` where the text leaves the plan's reading.
struct Reader<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            self.pos += 1;
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.pos + word.len();
        (self.bytes.get(self.pos..end) == Some(word)).then(|| self.pos = end)
    }

    /// One value, judged by `node`: `Some(valid)`, or `None` to leave it
    /// to `serde_json`.
    fn value(&mut self, node: &Node, depth: u32) -> Option<bool> {
        let check = match node {
            Node::Check(check) => Some(check.as_ref()),
            Node::Any | Node::Never => None,
        };
        let verdict = match self.peek()? {
            b'n' => {
                self.literal(b"null")?;
                check.is_none_or(|c| c.scalar(NULL, &Value::Null))
            }
            b't' => {
                self.literal(b"true")?;
                check.is_none_or(|c| c.scalar(BOOLEAN, &Value::Bool(true)))
            }
            b'f' => {
                self.literal(b"false")?;
                check.is_none_or(|c| c.scalar(BOOLEAN, &Value::Bool(false)))
            }
            b'"' => {
                let needed = check.is_some_and(Check::needs_string);
                let s = self.string(needed)?;
                check.is_none_or(|c| {
                    if needed {
                        c.string(&s)
                    } else {
                        c.allows(STRING)
                    }
                })
            }
            b'-' | b'0'..=b'9' => {
                let needed = check.is_some_and(Check::needs_number);
                match (self.number(needed)?, check) {
                    (Some(n), Some(c)) => c.number(&n),
                    (_, c) => c.is_none_or(|c| c.allows(NUMBER)),
                }
            }
            b'[' => {
                if depth >= MAX_TEXT_DEPTH {
                    return None;
                }
                self.array(check, depth + 1)?
            }
            b'{' => {
                if depth >= MAX_TEXT_DEPTH {
                    return None;
                }
                self.object(check, depth + 1)?
            }
            _ => return None,
        };
        Some(verdict && !matches!(node, Node::Never))
    }

    fn array(&mut self, check: Option<&Check>, depth: u32) -> Option<bool> {
        self.pos += 1;
        let items = check.map_or(&Node::Any, |c| &c.items);
        let mut valid = check.is_none_or(|c| c.container(ARRAY));
        let mut count = 0usize;
        self.skip_space();
        if self.peek()? == b']' {
            self.pos += 1;
        } else {
            loop {
                self.skip_space();
                valid &= self.value(items, depth)?;
                count += 1;
                self.skip_space();
                match self.peek()? {
                    b',' => self.pos += 1,
                    b']' => {
                        self.pos += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        Some(valid && check.is_none_or(|c| c.item_count(count)))
    }

    fn object(&mut self, check: Option<&Check>, depth: u32) -> Option<bool> {
        self.pos += 1;
        let mut valid = check.is_none_or(|c| c.container(OBJECT));
        // Which properties were seen; the other names, when they matter
        // (a key written twice counts once in `serde_json`'s map, which
        // keeps the last value).
        let mut seen = Seen::new(check.map_or(0, |c| c.properties.len()));
        let track_others = check.is_some_and(|c| {
            !matches!(c.additional, Node::Any | Node::Never)
                || c.min_properties > 0
                || c.max_properties < u64::MAX
                || !c.required_other.is_empty()
        });
        let mut others: Vec<Cow<'a, str>> = Vec::new();
        let mut hint = 0;
        let mut count = 0usize;
        self.skip_space();
        if self.peek()? == b'}' {
            self.pos += 1;
        } else {
            loop {
                self.skip_space();
                if self.peek()? != b'"' {
                    return None;
                }
                let key = self.string(check.is_some())?;
                self.skip_space();
                if self.peek()? != b':' {
                    return None;
                }
                self.pos += 1;
                self.skip_space();
                let node = match check {
                    None => &Node::Any,
                    Some(c) => match c.property(&key, hint) {
                        Some(i) => {
                            if !seen.insert(i) {
                                return None;
                            }
                            hint = i + 1;
                            &c.properties.get(i)?.1
                        }
                        None => {
                            if track_others {
                                if others.contains(&key) {
                                    return None;
                                }
                                others.push(key);
                            }
                            &c.additional
                        }
                    },
                };
                valid &= self.value(node, depth)?;
                count += 1;
                self.skip_space();
                match self.peek()? {
                    b',' => self.pos += 1,
                    b'}' => {
                        self.pos += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        Some(
            valid
                && check.is_none_or(|c| {
                    c.property_count(count)
                        && c.required_known.iter().all(|&i| seen.contains(i))
                        && c.required_other
                            .iter()
                            .all(|n| others.iter().any(|o| o == n))
                }),
        )
    }

    /// A string (at its opening quote); its content when `needed` (keys
    /// and strings a keyword reads), else an empty one once checked.
    fn string(&mut self, needed: bool) -> Option<Cow<'a, str>> {
        self.pos += 1;
        let start = self.pos;
        let rest = self.bytes.get(start..)?;
        let stop = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        let end = start + stop;
        if self.bytes.get(end) == Some(&b'"') {
            self.pos = end + 1;
            return Some(if needed {
                Cow::Borrowed(self.text.get(start..end)?)
            } else {
                Cow::Borrowed("")
            });
        }
        let mut out = String::from(self.text.get(start..end)?);
        self.pos = end;
        loop {
            let b = self.peek()?;
            match b {
                b'"' => {
                    self.pos += 1;
                    return Some(Cow::Owned(out));
                }
                b'\\' => {
                    self.pos += 1;
                    let escape = self.peek()?;
                    self.pos += 1;
                    let c = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return None,
                    };
                    out.push(c);
                }
                0..=0x1f => return None,
                _ => {
                    let run_start = self.pos;
                    let run = self.bytes.get(run_start..)?;
                    let len = run
                        .iter()
                        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
                    out.push_str(self.text.get(run_start..run_start + len)?);
                    self.pos = run_start + len;
                }
            }
        }
    }

    /// The character of a `\uXXXX` escape (after the `u`), a surrogate
    /// pair joined; a lone surrogate is left to `serde_json`.
    fn unicode_escape(&mut self) -> Option<char> {
        let first = self.hex4()?;
        match first {
            0xD800..=0xDBFF => {
                self.literal(b"\\u")?;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return None;
                }
                char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            }
            0xDC00..=0xDFFF => None,
            code => char::from_u32(code),
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.text.get(self.pos..self.pos + 4)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.pos += 4;
        u32::from_str_radix(digits, 16).ok()
    }

    /// A number; its value when `needed` (and whenever `serde_json` might
    /// refuse it: an exponent or a long run of digits can overflow).
    fn number(&mut self, needed: bool) -> Option<Option<Number>> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek()? {
            b'0' => self.pos += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        let int_end = self.pos;
        let mut plain = true;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !self.peek()?.is_ascii_digit() {
                return None;
            }
            self.digits();
            plain = false;
        }
        let mut exponent = false;
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !self.peek()?.is_ascii_digit() {
                return None;
            }
            self.digits();
            exponent = true;
        }
        let token = self.text.get(start..self.pos)?;
        if !needed && !exponent && int_end - start < 300 {
            return Some(None);
        }
        // The common case, read directly: a short integer, not `-0`.
        if plain && int_end - start <= 18 && !token.starts_with("-0") {
            let n: i64 = token.parse().ok()?;
            return Some(Some(match u64::try_from(n) {
                Ok(u) => Number::from(u),
                Err(_) => Number::from(n),
            }));
        }
        token.parse::<Number>().ok().map(Some)
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan(schema: Value) -> Plan {
        Plan::compile(&schema).expect("a plan")
    }

    #[test]
    fn keywords_outside_the_plan_leave_it_to_the_validator() {
        for schema in [
            json!({"$ref": "#/$defs/a"}),
            json!({"pattern": "^a"}),
            json!({"format": "email"}),
            json!({"items": [{"type": "string"}]}),
            json!({"enum": [[1]]}),
            json!({"$schema": "http://json-schema.org/draft-04/schema#"}),
            json!({"properties": {"a": {"uniqueItems": true}}}),
            json!({"x-vendor": 1}),
        ] {
            assert!(Plan::compile(&schema).is_none(), "{schema}");
        }
        assert!(
            Plan::compile(
                &json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"})
            )
            .is_some()
        );
    }

    #[test]
    fn values_and_text_get_one_verdict() {
        let p = plan(json!({
            "type": "object",
            "required": ["n", "tag"],
            "properties": {
                "n": {"type": "integer", "minimum": 0, "exclusiveMaximum": 10},
                "tag": {"enum": ["a", "b\u{e9}"]},
                "list": {"type": "array", "items": {"type": "string", "maxLength": 2}, "maxItems": 2}
            },
            "additionalProperties": false
        }));
        let cases = [
            (r#"{"n": 3, "tag": "a"}"#, true),
            (r#"{"n": 3.0, "tag": "b\u00e9"}"#, true),
            (r#"{"n": 3.5, "tag": "a"}"#, false),
            (r#"{"n": 10, "tag": "a"}"#, false),
            (r#"{"n": -1, "tag": "a"}"#, false),
            (r#"{"n": 1, "tag": "c"}"#, false),
            (r#"{"n": 1}"#, false),
            (r#"{"n": 1, "tag": "a", "x": null}"#, false),
            (
                r#"{"n": 1, "tag": "a", "list": ["ab", "\u00e9\u00e9"]}"#,
                true,
            ),
            (r#"{"n": 1, "tag": "a", "list": ["abc"]}"#, false),
            (r#"{"n": 1, "tag": "a", "list": ["a", "b", "c"]}"#, false),
            (r#"[1, 2]"#, false),
            (r#""a""#, false),
        ];
        for (text, expected) in cases {
            let value: Value = serde_json::from_str(text).unwrap();
            assert_eq!(p.is_valid(&value), expected, "{text}");
            assert_eq!(p.is_valid_text(text), Some(expected), "{text}");
        }
    }

    #[test]
    fn text_serde_json_might_read_otherwise_gets_no_verdict() {
        let p = plan(json!({"type": "object", "properties": {"a": {"type": "integer"}}}));
        for text in [
            r#"{"a": 1, "a": "x"}"#,
            r#"{"a": 1"#,
            r#"{"a": 01}"#,
            r#"{"a": 1} x"#,
            r#"{"a": 1e400}"#,
            r#"{"b": "\ud800"}"#,
            "{\"b\": \"tab\there\"}",
            r#"{"b": tru}"#,
            "\u{feff}{}",
            "",
        ] {
            assert_eq!(p.is_valid_text(text), None, "{text:?}");
        }
        let deep = format!("{}{}", "[".repeat(150), "]".repeat(150));
        assert_eq!(p.is_valid_text(&deep), None);
        assert_eq!(
            p.is_valid_text(r#"{"b": "\ud83d\ude00", "a": -0}"#),
            Some(true)
        );
    }

    #[test]
    fn repeated_other_keys_count_once() {
        let p = plan(json!({"maxProperties": 1}));
        assert_eq!(p.is_valid_text(r#"{"x": 1, "x": 2}"#), None);
        assert_eq!(p.is_valid_text(r#"{"x": 1}"#), Some(true));
        let required = plan(json!({"required": ["x"]}));
        assert_eq!(required.is_valid_text(r#"{"y": 1, "x": 2}"#), Some(true));
        assert_eq!(required.is_valid_text(r#"{"y": 1}"#), Some(false));
    }
}
