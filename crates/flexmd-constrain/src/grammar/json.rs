//! A JSON Schema as grammar rules: the JSON values the schema accepts, with
//! what a grammar cannot say left to validation and reported.

use serde_json::{Map, Value};

use crate::error::ConstrainError;
use crate::grammar::ir::{Coverage, Expr, Rules};
use crate::provider::{MAX_EXPORTED_NODES, check_type, kind_of};
use crate::refs::{escape, merge_all_of, resolve_local};

/// The most items (or string characters) a bound is written out for: a
/// repetition `{m,n}` is expanded by some engines, so larger bounds are
/// left to validation.
pub const MAX_BOUND: u64 = 64;

/// Keywords a grammar enforces where they appear (checked per keyword
/// below); any other keyword is reported as left to validation.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$defs",
    "definitions",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// How deep a value of any kind nests in the `regex` format, which cannot
/// recurse: objects and arrays inside it at most this deep.
pub const REGEX_ANY_DEPTH: u32 = 2;

pub(crate) struct JsonRules<'a> {
    root: &'a Value,
    /// For a dialect without recursion: how deep "any value" nests.
    any_depth: Option<u32>,
    pub(crate) rules: Rules,
    pub(crate) coverage: Vec<Coverage>,
    nodes: usize,
    /// How many schemas deep the walk is (a bound on the stack it uses).
    depth: usize,
    ws: usize,
    string_char: usize,
    any_value: Option<usize>,
}

impl<'a> JsonRules<'a> {
    /// The rules for `schema`; rule 0 is the value itself.
    pub(crate) fn build(
        schema: &'a Value,
        any_depth: Option<u32>,
    ) -> Result<JsonRules<'a>, ConstrainError> {
        let mut rules = Rules::default();
        let (start, _) = rules.declare("#", "root");
        let (ws, _) = rules.declare("ws", "ws");
        // A space, or a line break and some indentation: pretty-printed
        // JSON, but never unbounded whitespace.
        rules.define(
            ws,
            Expr::opt(Expr::alt(vec![
                Expr::lit(" "),
                Expr::seq(vec![
                    Expr::lit("\n"),
                    Expr::rep(Expr::class(&[(' ', ' '), ('\t', '\t')]), 0, Some(20)),
                ]),
            ])),
        );
        rules.mark_lexical(ws);
        let (string_char, _) = rules.declare("char", "char");
        rules.mark_lexical(string_char);
        rules.define(
            string_char,
            Expr::alt(vec![
                Expr::not_class(&[('"', '"'), ('\\', '\\'), ('\u{0}', '\u{1f}')]),
                Expr::seq(vec![
                    Expr::lit("\\"),
                    Expr::alt(vec![
                        Expr::class(&[
                            ('"', '"'),
                            ('\\', '\\'),
                            ('/', '/'),
                            ('b', 'b'),
                            ('f', 'f'),
                            ('n', 'n'),
                            ('r', 'r'),
                            ('t', 't'),
                        ]),
                        Expr::seq(vec![
                            Expr::lit("u"),
                            Expr::rep(
                                Expr::class(&[('0', '9'), ('a', 'f'), ('A', 'F')]),
                                4,
                                Some(4),
                            ),
                        ]),
                    ]),
                ]),
            ]),
        );
        let mut this = JsonRules {
            root: schema,
            any_depth,
            rules,
            coverage: Vec::new(),
            nodes: 0,
            depth: 0,
            ws,
            string_char,
            any_value: None,
        };
        let body = this.value(schema, "")?;
        this.rules.define(start, body);
        Ok(this)
    }

    fn value(&mut self, schema: &Value, pointer: &str) -> Result<Expr, ConstrainError> {
        if self.depth >= MAX_SCHEMA_DEPTH {
            return Err(ConstrainError::TooLarge {
                what: "the grammar",
                max: MAX_SCHEMA_DEPTH,
                unit: "levels of nested schemas",
            });
        }
        self.depth += 1;
        let expr = self.value_at_depth(schema, pointer);
        self.depth -= 1;
        expr
    }

    fn value_at_depth(&mut self, schema: &Value, pointer: &str) -> Result<Expr, ConstrainError> {
        self.nodes += 1;
        if self.nodes > MAX_EXPORTED_NODES {
            return Err(ConstrainError::TooLarge {
                what: "the grammar",
                max: MAX_EXPORTED_NODES,
                unit: "subschemas",
            });
        }
        let map = match schema {
            Value::Bool(true) => return Ok(self.any(pointer)),
            Value::Object(map) => map,
            Value::Bool(false) => {
                return Err(ConstrainError::Unsupported {
                    provider: "grammar",
                    pointer: pointer.to_owned(),
                    reason: "it accepts no value (`false`)".to_owned(),
                });
            }
            other => {
                return Err(ConstrainError::NotASchema {
                    pointer: pointer.to_owned(),
                    found: kind_of(other).to_owned(),
                });
            }
        };
        if let Some(reference) = map.get("$ref") {
            let Some(reference) = reference.as_str() else {
                return Err(ConstrainError::NotASchema {
                    pointer: format!("{pointer}/$ref"),
                    found: kind_of(reference).to_owned(),
                });
            };
            let (target, target_pointer) =
                resolve_local(self.root, reference).ok_or_else(|| {
                    ConstrainError::UnresolvedRef {
                        pointer: pointer.to_owned(),
                        reference: reference.to_owned(),
                    }
                })?;
            let siblings: Vec<&String> = map
                .keys()
                .filter(|k| !ANNOTATIONS.contains(&k.as_str()) && *k != "$ref")
                .collect();
            if !siblings.is_empty() {
                // `$ref` with constraints beside it: both apply, merged.
                let mut merged = map.clone();
                merged.remove("$ref");
                let all_of = Value::Array(vec![target.clone()]);
                let merged = merge_all_of(self.root, &merged, &all_of, pointer).map_err(
                    |(at, reason)| ConstrainError::Unsupported {
                        provider: "grammar",
                        pointer: at,
                        reason,
                    },
                )?;
                return self.value(&Value::Object(merged), pointer);
            }
            let key = format!("#{target_pointer}");
            let name = target_pointer
                .rsplit('/')
                .next()
                .unwrap_or("def")
                .to_owned();
            let (id, new) = self.rules.declare(&key, &crate::refs::unescape(&name));
            if new {
                let body = self.value(target, &target_pointer)?;
                self.rules.define(id, body);
            }
            return Ok(Expr::Ref(id));
        }
        if let Some(all_of) = map.get("allOf") {
            let merged =
                merge_all_of(self.root, map, all_of, pointer).map_err(|(at, reason)| {
                    ConstrainError::Unsupported {
                        provider: "grammar",
                        pointer: at,
                        reason,
                    }
                })?;
            return self.value(&Value::Object(merged), pointer);
        }
        let mut enforced: Vec<String> = Vec::new();
        let mut left: Vec<String> = Vec::new();
        let expr = self.typed(map, pointer, &mut enforced, &mut left)?;
        for keyword in map.keys() {
            let keyword = keyword.as_str();
            if !ANNOTATIONS.contains(&keyword)
                && !enforced.iter().any(|k| k == keyword)
                && !left.iter().any(|k| k == keyword)
            {
                left.push(keyword.to_owned());
            }
        }
        self.coverage.push(Coverage {
            place: pointer.to_owned(),
            enforced,
            unenforced: left,
        });
        Ok(expr)
    }

    /// The alternatives the schema's `type`, `enum`, `const`, `anyOf` and
    /// `oneOf` allow, each with its type's keywords.
    fn typed(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        enforced: &mut Vec<String>,
        left: &mut Vec<String>,
    ) -> Result<Expr, ConstrainError> {
        if let Some(value) = map.get("const") {
            enforced.push("const".to_owned());
            return Ok(Expr::lit(value.to_string()));
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array) {
            enforced.push("enum".to_owned());
            if map.contains_key("type") {
                enforced.push("type".to_owned());
            }
            return Ok(Expr::alt(
                values.iter().map(|v| Expr::lit(v.to_string())).collect(),
            ));
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(branches) = map.get(keyword).and_then(Value::as_array) {
                if keyword == "oneOf" {
                    left.push("oneOf".to_owned());
                } else {
                    enforced.push(keyword.to_owned());
                }
                let mut alternatives = Vec::with_capacity(branches.len());
                for (i, branch) in branches.iter().enumerate() {
                    // Keywords beside the union apply to every branch.
                    let mut branch = branch.clone();
                    if let Value::Object(b) = &mut branch {
                        for (k, v) in map {
                            if !matches!(k.as_str(), "anyOf" | "oneOf")
                                && !ANNOTATIONS.contains(&k.as_str())
                            {
                                b.entry(k.clone()).or_insert_with(|| v.clone());
                            }
                        }
                    }
                    alternatives.push(self.value(&branch, &format!("{pointer}/{keyword}/{i}"))?);
                }
                // The keywords beside were checked inside each branch.
                for k in map.keys() {
                    if !ANNOTATIONS.contains(&k.as_str())
                        && !enforced.contains(k)
                        && !left.contains(k)
                    {
                        enforced.push(k.clone());
                    }
                }
                return Ok(Expr::alt(alternatives));
            }
        }
        if let Some(ty) = map.get("type") {
            check_type(ty, pointer)?;
        }
        let types: Vec<&str> = match map.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => {
                // No type: any value, unless the keywords of one type say which.
                if map.contains_key("properties") {
                    vec!["object"]
                } else if map.contains_key("items") || map.contains_key("prefixItems") {
                    vec!["array"]
                } else {
                    return Ok(self.any(pointer));
                }
            }
        };
        if map.contains_key("type") {
            enforced.push("type".to_owned());
        }
        let mut alternatives = Vec::with_capacity(types.len());
        for ty in types {
            alternatives.push(match ty {
                "null" => Expr::lit("null"),
                "boolean" => Expr::alt(vec![Expr::lit("true"), Expr::lit("false")]),
                "string" => self.string(map, enforced, left),
                "integer" => integer(map, enforced, left),
                "number" => number(map, enforced, left),
                "array" => self.array(map, pointer, enforced, left)?,
                "object" => self.object(map, pointer, enforced, left)?,
                other => {
                    return Err(ConstrainError::NotASchema {
                        pointer: format!("{pointer}/type"),
                        found: format!("the type `{other}`"),
                    });
                }
            });
        }
        Ok(Expr::alt(alternatives))
    }

    fn string(
        &mut self,
        map: &Map<String, Value>,
        enforced: &mut Vec<String>,
        left: &mut Vec<String>,
    ) -> Expr {
        let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(0);
        let max = map.get("maxLength").and_then(Value::as_u64);
        let (min, max) = bounded(min, max, "minLength", "maxLength", enforced, left);
        for keyword in ["pattern", "format"] {
            if map.contains_key(keyword) && !left.iter().any(|k| k == keyword) {
                left.push(keyword.to_owned());
            }
        }
        Expr::token(Expr::seq(vec![
            Expr::lit("\""),
            Expr::rep(Expr::Ref(self.string_char), min, max),
            Expr::lit("\""),
        ]))
    }

    /// `expr`, about to be written in two places: a rule of its own (and a
    /// reference to it) when it is large, so that a value nested in values
    /// costs one copy a level, not twice as many at each level.
    fn shared(&mut self, expr: Expr, key: &str, name: &str) -> Expr {
        if size_at_most(&expr, SHARED_FROM) < SHARED_FROM {
            return expr;
        }
        let (id, _) = self.rules.declare(key, name);
        self.rules.define(id, expr);
        Expr::Ref(id)
    }

    fn array(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        enforced: &mut Vec<String>,
        left: &mut Vec<String>,
    ) -> Result<Expr, ConstrainError> {
        let ws = Expr::Ref(self.ws);
        let mut prefix = Vec::new();
        if let Some(items) = map.get("prefixItems").and_then(Value::as_array) {
            enforced.push("prefixItems".to_owned());
            for (i, item) in items.iter().enumerate() {
                prefix.push(self.value(item, &format!("{pointer}/prefixItems/{i}"))?);
            }
        }
        let rest = match map.get("items") {
            Some(items) => {
                enforced.push("items".to_owned());
                Some(self.value(items, &format!("{pointer}/items"))?)
            }
            // With prefixItems and no items, more items are anything.
            None => Some(self.any(&format!("{pointer}/items"))),
        };
        let min = map.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        let max = map.get("maxItems").and_then(Value::as_u64);
        let (min, max) = if prefix.is_empty() {
            bounded(min, max, "minItems", "maxItems", enforced, left)
        } else {
            for keyword in ["minItems", "maxItems"] {
                if map.contains_key(keyword) {
                    left.push(keyword.to_owned());
                }
            }
            (0, None)
        };
        for keyword in [
            "uniqueItems",
            "contains",
            "minContains",
            "maxContains",
            "unevaluatedItems",
        ] {
            if map.contains_key(keyword) {
                left.push(keyword.to_owned());
            }
        }
        let sep = Expr::seq(vec![ws.clone(), Expr::lit(","), ws.clone()]);
        let body = if prefix.is_empty() {
            let item = rest.unwrap_or_else(|| self.any(pointer));
            // Written twice below: a rule of its own when large, so nested
            // arrays do not double the grammar at each level.
            let item = self.shared(
                item,
                &format!("{pointer}#item"),
                &format!("{}-item", rule_stem(pointer)),
            );
            // item ("," item){min-1,max-1}, optional when min is 0.
            let more = Expr::rep(
                Expr::seq(vec![sep, item.clone()]),
                min.saturating_sub(1),
                max.map(|m| m.saturating_sub(1)),
            );
            let list = Expr::seq(vec![item, more]);
            if min == 0 { Expr::opt(list) } else { list }
        } else {
            // The prefix items, each optional after the first given, then
            // the rest.
            let mut tail = rest.map(|item| Expr::star(Expr::seq(vec![sep.clone(), item])));
            let mut body: Option<Expr> = None;
            for item in prefix.into_iter().rev() {
                let after = match (body.take(), tail.take()) {
                    (Some(b), _) => Expr::opt(Expr::seq(vec![sep.clone(), b])),
                    (None, Some(t)) => t,
                    (None, None) => Expr::Seq(Vec::new()),
                };
                body = Some(Expr::seq(vec![item, after]));
            }
            body.map(Expr::opt).unwrap_or(Expr::Seq(Vec::new()))
        };
        Ok(Expr::seq(vec![
            Expr::lit("["),
            ws.clone(),
            body,
            ws,
            Expr::lit("]"),
        ]))
    }

    fn object(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        enforced: &mut Vec<String>,
        left: &mut Vec<String>,
    ) -> Result<Expr, ConstrainError> {
        let ws = Expr::Ref(self.ws);
        for keyword in [
            "patternProperties",
            "propertyNames",
            "minProperties",
            "maxProperties",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
            "unevaluatedProperties",
        ] {
            if map.contains_key(keyword) {
                left.push(keyword.to_owned());
            }
        }
        let Some(properties) = map.get("properties").and_then(Value::as_object) else {
            // A map: any keys, values of `additionalProperties`.
            let value = match map.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    enforced.push("additionalProperties".to_owned());
                    return Ok(Expr::seq(vec![Expr::lit("{"), ws.clone(), Expr::lit("}")]));
                }
                Some(schema @ Value::Object(_)) => {
                    enforced.push("additionalProperties".to_owned());
                    self.value(schema, &format!("{pointer}/additionalProperties"))?
                }
                _ => self.any(&format!("{pointer}/additionalProperties")),
            };
            let pair = Expr::seq(vec![
                self.key(),
                ws.clone(),
                Expr::lit(":"),
                ws.clone(),
                value,
            ]);
            let more = Expr::star(Expr::seq(vec![
                ws.clone(),
                Expr::lit(","),
                ws.clone(),
                pair.clone(),
            ]));
            return Ok(Expr::seq(vec![
                Expr::lit("{"),
                ws.clone(),
                Expr::opt(Expr::seq(vec![pair, more])),
                ws,
                Expr::lit("}"),
            ]));
        };
        enforced.push("properties".to_owned());
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if map.contains_key("required") {
            enforced.push("required".to_owned());
        }
        if map.contains_key("additionalProperties") {
            // Closed or not, only the declared properties are produced.
            enforced.push("additionalProperties".to_owned());
        }
        let mut pairs = Vec::with_capacity(properties.len());
        for (name, schema) in properties {
            let at = format!("{pointer}/properties/{}", escape(name));
            let value = self.value(schema, &at)?;
            let pair = Expr::seq(vec![
                Expr::lit(Value::String(name.clone()).to_string()),
                ws.clone(),
                Expr::lit(":"),
                ws.clone(),
                value,
            ]);
            pairs.push((pair, required.contains(&name.as_str())));
        }
        // In the schema's order; `first` (no pair written yet) and `rest`
        // (a pair written: each next one after a comma) from the end, so
        // optional properties cost one rule each, not a power of two.
        let sep = Expr::seq(vec![ws.clone(), Expr::lit(","), ws.clone()]);
        let mut rest = Expr::Seq(Vec::new());
        let mut first = Expr::Seq(Vec::new());
        let key = format!("{pointer}#object");
        for (i, (pair, is_required)) in pairs.into_iter().enumerate().rev() {
            // Written twice below: see `shared`.
            let pair = self.shared(
                pair,
                &format!("{key}/pair/{i}"),
                &format!("{}-pair-{i}", rule_stem(pointer)),
            );
            let (rest_id, _) = self.rules.declare(
                &format!("{key}/rest/{i}"),
                &format!("{}-rest-{i}", rule_stem(pointer)),
            );
            let (first_id, _) = self.rules.declare(
                &format!("{key}/first/{i}"),
                &format!("{}-first-{i}", rule_stem(pointer)),
            );
            let new_rest = if is_required {
                Expr::seq(vec![sep.clone(), pair.clone(), rest.clone()])
            } else {
                Expr::seq(vec![
                    Expr::opt(Expr::seq(vec![sep.clone(), pair.clone()])),
                    rest.clone(),
                ])
            };
            let new_first = if is_required {
                Expr::seq(vec![pair, rest.clone()])
            } else {
                Expr::alt(vec![Expr::seq(vec![pair, rest.clone()]), first.clone()])
            };
            self.rules.define(rest_id, new_rest);
            self.rules.define(first_id, new_first);
            rest = Expr::Ref(rest_id);
            first = Expr::Ref(first_id);
        }
        Ok(Expr::seq(vec![
            Expr::lit("{"),
            ws.clone(),
            first,
            ws,
            Expr::lit("}"),
        ]))
    }

    /// A JSON string used as an object key.
    fn key(&self) -> Expr {
        Expr::token(Expr::seq(vec![
            Expr::lit("\""),
            Expr::star(Expr::Ref(self.string_char)),
            Expr::lit("\""),
        ]))
    }

    /// Any JSON value, first needed at `pointer`: a recursive rule, or
    /// (without recursion) one nested at most `any_depth` deep.
    fn any(&mut self, pointer: &str) -> Expr {
        if let Some(id) = self.any_value {
            return Expr::Ref(id);
        }
        let (id, _) = self.rules.declare(&format!("#{pointer}"), "value");
        self.any_value = Some(id);
        let body = match self.any_depth {
            None => self.any_body(Expr::Ref(id)),
            Some(depth) => {
                let mut inner = self.scalars();
                for level in 0..depth {
                    let (level_id, _) = self.rules.declare(
                        &format!("#{pointer}#any/{level}"),
                        &format!("value-{level}"),
                    );
                    self.rules.define(level_id, inner);
                    inner = self.any_body(Expr::Ref(level_id));
                }
                inner
            }
        };
        self.rules.define(id, body);
        Expr::Ref(id)
    }

    /// A string, number, boolean or null.
    fn scalars(&self) -> Expr {
        let empty = Map::new();
        let number = number(&empty, &mut Vec::new(), &mut Vec::new());
        Expr::alt(vec![
            self.key(),
            number,
            Expr::lit("true"),
            Expr::lit("false"),
            Expr::lit("null"),
        ])
    }

    /// Any value whose members are `member`.
    fn any_body(&self, member: Expr) -> Expr {
        let ws = Expr::Ref(self.ws);
        let sep = Expr::seq(vec![ws.clone(), Expr::lit(","), ws.clone()]);
        let pair = Expr::seq(vec![
            self.key(),
            ws.clone(),
            Expr::lit(":"),
            ws.clone(),
            member.clone(),
        ]);
        let object = Expr::seq(vec![
            Expr::lit("{"),
            ws.clone(),
            Expr::opt(Expr::seq(vec![
                pair.clone(),
                Expr::star(Expr::seq(vec![sep.clone(), pair])),
            ])),
            ws.clone(),
            Expr::lit("}"),
        ]);
        let array = Expr::seq(vec![
            Expr::lit("["),
            ws.clone(),
            Expr::opt(Expr::seq(vec![
                member.clone(),
                Expr::star(Expr::seq(vec![sep, member])),
            ])),
            ws,
            Expr::lit("]"),
        ]);
        Expr::alt(vec![object, array, self.scalars()])
    }
}

/// The most schemas nested in schemas a grammar is written for (JSON read
/// by flexmd nests at most 128 values; a schema level is two or three).
const MAX_SCHEMA_DEPTH: usize = 96;

/// From this many nodes, an expression written twice becomes a rule.
const SHARED_FROM: usize = 24;

/// How many nodes an expression has, counting at most to `limit`.
fn size_at_most(expr: &Expr, limit: usize) -> usize {
    let mut count = 0;
    let mut stack = vec![expr];
    while let Some(next) = stack.pop() {
        count += 1;
        if count >= limit {
            return limit;
        }
        match next {
            Expr::Seq(items) | Expr::Alt(items) => stack.extend(items.iter()),
            Expr::Rep { expr, .. } | Expr::Token(expr) => stack.push(expr),
            Expr::Lit(_) | Expr::Class { .. } | Expr::Ref(_) => {}
        }
    }
    count
}

/// A rule name's stem from a pointer (`/properties/a` → `properties-a`).
fn rule_stem(pointer: &str) -> String {
    let stem = pointer.trim_start_matches('/').replace('/', "-");
    if stem.is_empty() {
        "object".to_owned()
    } else {
        stem
    }
}

/// `min`/`max` as repetition bounds when small enough to write out; else
/// left to validation.
fn bounded(
    min: u64,
    max: Option<u64>,
    min_keyword: &str,
    max_keyword: &str,
    enforced: &mut Vec<String>,
    left: &mut Vec<String>,
) -> (u32, Option<u32>) {
    let min = if min <= MAX_BOUND {
        if min > 0 {
            enforced.push(min_keyword.to_owned());
        }
        u32::try_from(min).unwrap_or(0)
    } else {
        left.push(min_keyword.to_owned());
        0
    };
    let max = match max {
        Some(m) if m <= MAX_BOUND && u64::from(min) <= m => {
            enforced.push(max_keyword.to_owned());
            u32::try_from(m).ok()
        }
        Some(_) => {
            left.push(max_keyword.to_owned());
            None
        }
        None => None,
    };
    (min, max)
}

/// Digits without leading zeros.
fn digits() -> Expr {
    Expr::alt(vec![
        Expr::lit("0"),
        Expr::seq(vec![
            Expr::class(&[('1', '9')]),
            Expr::rep(Expr::class(&[('0', '9')]), 0, Some(15)),
        ]),
    ])
}

/// A minimum of zero or more makes the sign impossible: that much a
/// grammar enforces; the bound itself only when it is 0.
fn sign(map: &Map<String, Value>, enforced: &mut Vec<String>, left: &mut Vec<String>) -> Expr {
    let minimum = map.get("minimum").and_then(Value::as_f64);
    let exclusive = map.get("exclusiveMinimum").and_then(Value::as_f64);
    for keyword in ["maximum", "exclusiveMaximum", "multipleOf"] {
        if map.contains_key(keyword) {
            left.push(keyword.to_owned());
        }
    }
    match (minimum, exclusive) {
        (Some(0.0), _) => {
            enforced.push("minimum".to_owned());
            Expr::Seq(Vec::new())
        }
        (Some(m), _) if m > 0.0 => {
            left.push("minimum".to_owned());
            Expr::Seq(Vec::new())
        }
        (Some(_), _) => {
            left.push("minimum".to_owned());
            Expr::opt(Expr::lit("-"))
        }
        (None, Some(e)) if e >= 0.0 => {
            left.push("exclusiveMinimum".to_owned());
            Expr::Seq(Vec::new())
        }
        (None, Some(_)) => {
            left.push("exclusiveMinimum".to_owned());
            Expr::opt(Expr::lit("-"))
        }
        (None, None) => Expr::opt(Expr::lit("-")),
    }
}

fn integer(map: &Map<String, Value>, enforced: &mut Vec<String>, left: &mut Vec<String>) -> Expr {
    Expr::token(Expr::seq(vec![sign(map, enforced, left), digits()]))
}

fn number(map: &Map<String, Value>, enforced: &mut Vec<String>, left: &mut Vec<String>) -> Expr {
    Expr::token(Expr::seq(vec![
        sign(map, enforced, left),
        digits(),
        Expr::opt(Expr::seq(vec![
            Expr::lit("."),
            Expr::rep(Expr::class(&[('0', '9')]), 1, Some(16)),
        ])),
        Expr::opt(Expr::seq(vec![
            Expr::class(&[('e', 'e'), ('E', 'E')]),
            Expr::opt(Expr::class(&[('+', '+'), ('-', '-')])),
            Expr::rep(Expr::class(&[('0', '9')]), 1, Some(3)),
        ])),
    ]))
}
