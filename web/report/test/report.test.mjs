// `flexmd report`'s page in a real browser: Playwright (playwright-core)
// drives the system's Chromium headless against pages the CLI writes, opened
// from file:// with every network request refused. FLEXMD_BIN names the CLI
// (default target/debug/flexmd), CHROMIUM the browser (default
// /usr/bin/chromium), SCREENSHOTS the folder for the screenshots (default
// target/report-test).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

import { chromium } from "playwright-core";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const flexmd = process.env.FLEXMD_BIN ?? `${root}target/debug/flexmd`;
const shots = process.env.SCREENSHOTS ?? `${root}target/report-test`;
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
// Relative to the repository, as a user would type them (the page names its input).
const fixture = "examples/report/answers.jsonl";
const spec = "examples/specs/answer.md";

let browser;

/** Runs `flexmd report` with `args`; its standard output. */
function report(...args) {
  return execFileSync(flexmd, ["report", ...args], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Opens `file` in a new page that may fetch nothing; the page and what went wrong in it. */
async function open(file) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const failures = [];
  page.on("pageerror", (error) => failures.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") failures.push(message.text());
  });
  // No network: anything but the file itself is refused, and noted.
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file://")) return route.continue();
    failures.push(`request to ${url}`);
    return route.abort();
  });
  await page.goto(pathToFileURL(file).href);
  return { page, failures };
}

/** A share as the page prints it. */
const pct = (share) => `${(share * 100).toFixed(1)}%`;

before(async () => {
  mkdirSync(shots, { recursive: true });
  browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
});

after(async () => {
  await browser?.close();
});

test("the three models' report: every chart and table, the numbers of --json, filters that work", async () => {
  const html = `${shots}/three-models.html`;
  const aggregates = JSON.parse(
    report("--spec", spec, "--group-by", "model", fixture, "-o", html, "--json"),
  );
  const { page, failures } = await open(html);
  await page.screenshot({ path: `${shots}/three-models.png` });
  await page.screenshot({ path: `${shots}/three-models-full.png`, fullPage: true });

  // The headline: one row per group, the same figures as --json.
  const rows = await page.$$eval("#headline tbody tr", (trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
  );
  assert.deepEqual(
    rows,
    aggregates.groups.map((g) => [
      g.group.model,
      String(g.answers),
      String(g.valid),
      pct(g.valid_share),
      `${pct(g.valid_interval.low)} – ${pct(g.valid_interval.high)}`,
      String(g.lenient),
      pct(g.lenient_share),
    ]),
  );
  assert.deepEqual(rows.map((r) => r[0]), ["bullets", "drops", "json", "tidy"]);

  // Exactly the known habits: drops misses Unknowns, bullets reads leniently,
  // json needs repairs, tidy has nothing.
  const codes = await page.$$eval("#codes-table tbody tr", (trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent).join(" ")),
  );
  assert.deepEqual(codes, [
    "missing_section error 0 4 0 0",
    "lenient_bullets warning 4 0 0 0",
    "lenient_heading warning 4 0 0 0",
    "missing_comma repair 0 0 2 0",
    "json5 repair 0 0 1 0",
    "python_literal repair 0 0 1 0",
    "unescaped_newline repair 0 0 1 0",
  ]);
  const sections = await page.$$eval("#sections-table tbody tr", (trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
  );
  assert.deepEqual(sections, [
    ["bullets", "0 / 0 / 0 / 0"],
    ["drops", "4 / 0 / 0 / 0"],
    ["json", "0 / 0 / 0 / 0"],
    ["tidy", "0 / 0 / 0 / 0"],
  ]);
  assert.deepEqual(await page.$$eval("#sections-table thead th", (th) => th.map((t) => t.textContent)), ["group", "Unknowns"]);

  // Every chart is drawn: the valid shares, one code chart per group, the
  // heat map, the repairs, the lengths.
  for (const [selector, count] of [
    ["#valid svg", 1],
    ["#codes svg", 4],
    ["#sections svg", 1],
    ["#repairs svg", 1],
    ["#lengths svg", 1],
  ]) {
    const drawn = await page.$$eval(selector, (svgs) =>
      svgs.map((svg) => svg.getBoundingClientRect().height > 50 && svg.querySelectorAll("rect, polyline, path").length > 3),
    );
    assert.deepEqual(drawn, Array(count).fill(true), selector);
  }
  assert.equal(await page.$$eval(".note", (n) => n.filter((e) => e.textContent.includes("could not be drawn")).length), 0);

  // The worst answers: the failing places marked.
  const worst = await page.$$eval("#worst article", (a) => a.length);
  assert.equal(worst, aggregates.groups.reduce((n, g) => n + g.worst.length, 0));
  assert.equal(worst, 12);
  assert.ok(await page.$$eval("#worst mark.warning", (m) => m.length) >= 8);
  assert.ok(await page.$$eval("#worst mark.at.repair", (m) => m.length) >= 4);

  // A group filter hides that group everywhere; a code filter keeps only
  // the answers that have the code.
  const shown = () => page.$eval("#worst-shown", (e) => e.textContent);
  assert.equal(await shown(), "12");
  await page.click("button[data-filter-group='g0']");
  assert.equal(await page.isHidden("#headline tr[data-group='g0']"), true);
  assert.equal(await page.isVisible("#headline tr[data-group='g1']"), true);
  assert.equal(await page.isHidden("#sections-table tr[data-group='g0']"), true);
  assert.equal(await shown(), "8");
  await page.click("button[data-filter-code='missing_comma']");
  assert.equal(await shown(), "2");
  assert.equal(await page.isHidden("#codes-table tr[data-codes='lenient_bullets']"), true);
  await page.screenshot({ path: `${shots}/three-models-filtered.png` });
  await page.click("#show-all");
  assert.equal(await shown(), "12");

  assert.deepEqual(failures, []);
});

test("an answer's HTML and script are shown, never run; bad lines are listed", async () => {
  const answers = `${shots}/hostile.jsonl`;
  const html = `${shots}/hostile.html`;
  writeFileSync(
    answers,
    [
      JSON.stringify({ model: "<script>window.pwned = 'group'</script>", response: "## Short answer\n<script>window.pwned = 'answer'</script>\n<img src=x onerror=\"window.pwned = 'img'\">\n" }),
      "{not json",
      JSON.stringify({ model: "m", text: "no response field" }),
      JSON.stringify({ model: "m", response: "## Short answer\n</td></tr></table><b onclick=x>bold</b>\n" }),
    ].join("\n") + "\n",
  );
  const aggregates = JSON.parse(report("--spec", spec, "--group-by", "model", answers, "-o", html, "--json"));
  assert.equal(aggregates.invalid_lines.count, 2);
  const { page, failures } = await open(html);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.$$eval("img", (i) => i.length), 0);
  assert.equal(await page.$$eval("b[onclick]", (b) => b.length), 0);
  const text = await page.$eval("#worst", (w) => w.textContent);
  assert.ok(text.includes("<script>window.pwned = 'answer'</script>"), "the script is shown as text");
  assert.ok(text.includes("</td></tr></table><b onclick=x>bold</b>"));
  assert.equal(await page.$eval("#headline tbody tr td", (td) => td.textContent), "<script>window.pwned = 'group'</script>");
  const invalid = await page.$$eval("#invalid-table tbody tr", (trs) => trs.map((tr) => tr.querySelector("td").textContent + " " + tr.querySelector("code").textContent));
  assert.deepEqual(invalid, ["2 invalid_json", "3 missing_field"]);
  assert.equal(await page.$eval("#invalid-count", (e) => e.textContent), "2");
  assert.deepEqual(failures, []);
  assert.ok(statSync(html).size < 200_000);
});
