// The playground in a real browser: Playwright (playwright-core) drives the
// system's Chromium headless against the built page (target/playground,
// made by `cargo xtask js`) served from localhost. CHROMIUM names the
// browser (default /usr/bin/chromium), SCREENSHOTS the folder for the
// screenshots (default target/playground-test).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { serve } from "../serve.mjs";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const site = process.env.PLAYGROUND_DIR ?? `${root}target/playground`;
const shots = process.env.SCREENSHOTS ?? `${root}target/playground-test`;
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const example = (path) => readFileSync(`${root}examples/${path}`, "utf8");

let server;
let browser;
let page;

before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await serve(site);
  browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const failures = [];
  page.on("pageerror", (error) => failures.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") failures.push(message.text());
  });
  page.on("request", (request) => {
    // Everything is bundled: the page asks nothing of any other host.
    const url = new URL(request.url());
    if (url.hostname !== "127.0.0.1") failures.push(`request to ${url.href}`);
  });
  page.failures = failures;
  const started = Date.now();
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForSelector("body[data-ready='true']");
  await settled();
  // Reported, not asserted: time depends on the machine.
  console.log(`playground ready and first answer checked in ${Date.now() - started} ms`);
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Waits until the page shows the reply to the latest input. */
async function settled() {
  await page.waitForFunction(
    () => document.body.dataset.requested && document.body.dataset.requested === document.body.dataset.shown,
    null,
    { timeout: 30_000 },
  );
}

async function typeInto(selector, text) {
  await page.fill(selector, text);
  await settled();
}

const issueCodes = () => page.$$eval("#issues li", (items) => items.map((li) => li.textContent));

test("the bundled lenient answer shows its warnings underlined and its JSON", async () => {
  await typeInto("#spec", example("specs/answer.md"));
  await typeInto("#answer", example("responses/quirks.md"));
  assert.match(await page.textContent("#verdict"), /^Valid \(3 warnings\)/);
  const issues = await issueCodes();
  assert.equal(issues.length, 3);
  assert.match(issues[0], /^3:1 lenient_heading:Short answer — /);
  assert.equal(await page.locator("#marks mark.warning").count(), 3);
  const first = await page.textContent("#marks mark.warning");
  assert.equal(first, "**Short answer:**");
  const extracted = JSON.parse(await page.textContent("#extracted"));
  assert.equal(extracted["Short answer"], "Cache the exchange rates for 10 minutes.");
  assert.ok(Array.isArray(extracted.Reasoning));
  await page.screenshot({ path: `${shots}/check-quirks.png`, fullPage: true });
  assert.deepEqual(page.failures, []);
});

test("a broken answer shows its errors at their place, live as it is edited", async () => {
  const answer = "## Short answer\nUse a cache 😀.\n\n## Assumptions\nRates are stable.\n";
  await typeInto("#answer", answer);
  assert.match(await page.textContent("#verdict"), /^Invalid: /);
  const issues = await issueCodes();
  assert.ok(issues.some((i) => /missing_section:Reasoning/.test(i)), issues.join("\n"));
  assert.ok(issues.some((i) => /section_not_bullets:Assumptions/.test(i)), issues.join("\n"));
  const marked = await page.$$eval("#marks mark.error", (m) => m.map((x) => x.textContent));
  // The span counts UTF-16 units: the emoji before it does not shift it.
  assert.ok(marked.some((m) => m.trim() === "Rates are stable."), marked.join("|"));
  // Fixing the section clears its error.
  await typeInto("#answer", answer.replace("Rates are stable.", "- Rates are stable."));
  assert.ok(!(await issueCodes()).some((i) => /section_not_bullets/.test(i)));
  await page.screenshot({ path: `${shots}/check-errors.png`, fullPage: true });
});

test("the spec tab shows the prompt text and the JSON Schema", async () => {
  await page.click("[data-tab='spec']");
  assert.match(await page.textContent("#prompt"), /Short answer — prose/);
  const schema = JSON.parse(await page.textContent("#schema"));
  assert.deepEqual(Object.keys(schema.properties).slice(0, 2), ["Short answer", "Long answer"]);
  await typeInto("#spec", "- Résumé — orderd list\n");
  assert.match(await page.textContent("#prompt"), /SpecError \(ofs::invalid_spec_line\)/);
  await typeInto("#spec", example("specs/answer.md"));
});

test("find JSON highlights the repairs", async () => {
  await page.click("[data-tab='json']");
  await typeInto("#answer", "Here you go: {name: 'Zoë', tags: ['a', 'b',], done: True");
  assert.match(await page.textContent("#json-summary"), /^1 JSON value/);
  const kinds = await page.$$eval("#repairs li", (items) => items.map((li) => li.dataset.kind));
  assert.deepEqual(kinds, ["python_literal", "unclosed_object"]);
  assert.deepEqual(JSON.parse(await page.textContent("#json")), { name: "Zoë", tags: ["a", "b"], done: true });
  const marked = await page.$$eval("#marks mark.repair", (m) => m.map((x) => x.textContent));
  assert.equal(marked[0], "T", "the repaired `True` is underlined");
  await page.screenshot({ path: `${shots}/find-json.png`, fullPage: true });
});

test("the FlexMD frames tab reads frames", async () => {
  await page.click("[data-tab='frames']");
  await typeInto("#answer", example("frames/chat.md"));
  const doc = JSON.parse(await page.textContent("#frames"));
  assert.equal(doc.title, "Refund conversation");
  assert.equal(doc.frames[0].role, "user");
});

test("a 1 MB answer is read off the page's thread", async () => {
  await page.click("[data-tab='check']");
  const big = `${example("responses/clean.md")}\n`.repeat(Math.ceil(1_048_576 / 2000)).slice(0, 1_048_576);
  await page.evaluate((text) => {
    const answer = document.getElementById("answer");
    answer.value = text;
    answer.dispatchEvent(new Event("input"));
  }, big);
  // The page answers while the worker reads: typing never waits for flexmd.
  const probe = Date.now();
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
  console.log(`a frame painted ${Date.now() - probe} ms after a 1 MB paste`);
  await settled();
  assert.match(await page.textContent("#status"), /^read in /);
  assert.match(await page.textContent("#verdict"), /Valid|Invalid/);
  await page.screenshot({ path: `${shots}/one-megabyte.png` });
  assert.deepEqual(page.failures, []);
});
