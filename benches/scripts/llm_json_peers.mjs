// JS jsonrepair on the llm-json cases, scored and timed like flexmd.
//
//   node benches/scripts/llm_json_peers.mjs CASES_JSONL
//
// Prints one JSON line like benches/python/llm_json_peers.py. Run from a
// folder where `jsonrepair` is installed (benches/scripts/llm_json_peers.sh
// does this).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(process.cwd() + '/')
const { jsonrepair } = require('jsonrepair')
const version = JSON.parse(readFileSync('node_modules/jsonrepair/package.json', 'utf8')).version

function same(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a === b
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]))
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a)
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]))
  }
  return a === b
}

const run = (input) => {
  try {
    return JSON.parse(jsonrepair(input))
  } catch {
    return undefined
  }
}

const cases = readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))
const byKind = {}
let passed = 0
for (const c of cases) {
  // `"found": false`: no JSON may be returned (an error, or an empty string).
  const got = run(c.input)
  const ok = 'expected' in c ? same(got, c.expected) : got === undefined || got === ''

  const kind = c.category.replace(/^json\//, '')
  byKind[kind] ??= [0, 0]
  byKind[kind][0] += ok ? 1 : 0
  byKind[kind][1] += 1
  passed += ok ? 1 : 0
}
let best = Infinity
for (let round = 0; round < 5; round++) {
  const start = process.hrtime.bigint()
  for (const c of cases) run(c.input)
  best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9)
}
console.log(JSON.stringify({
  name: `jsonrepair ${version} (JavaScript)`,
  passed,
  total: cases.length,
  by_kind: byKind,
  seconds_per_case: best / cases.length
}))
