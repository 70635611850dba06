// `cargo xtask install-test`'s browser step. APP_DIR holds index.html, the
// README's JavaScript example as main.js and the npm tarball installed in
// its node_modules. Vite bundles it for the browser (the package's
// "default" export, the WebAssembly module emitted as an asset), the
// bundle is served on localhost and opened in Chromium (CHROMIUM); what the
// page logs is printed, one line each, once LINES lines have arrived. Any
// page error, console error or failed request fails the step.
import { join } from "node:path";
import { build } from "vite";
import { chromium } from "playwright-core";
import { serve } from "../../web/playground/serve.mjs";

const app = process.env.APP_DIR;
const wanted = Number(process.env.LINES ?? 1);
const out = join(app, "dist");
await build({ root: app, logLevel: "warn", build: { outDir: out, emptyOutDir: true } });

const server = await serve(out);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
});
const lines = [];
const failures = [];
try {
  const page = await browser.newPage();
  page.on("console", (message) => {
    if (message.type() === "log") lines.push(message.text());
    else if (message.type() === "error") failures.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => failures.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => failures.push(`request failed: ${request.url()}`));
  page.on("response", (response) => {
    if (response.status() >= 400) failures.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  const deadline = Date.now() + 60_000;
  while (lines.length < wanted && failures.length === 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 50));
  }
} finally {
  await browser.close();
  server.close();
}
if (failures.length > 0 || lines.length < wanted) {
  console.error(failures.join("\n") || `the page logged ${lines.length} of ${wanted} lines in 60 s`);
  process.exit(1);
}
console.log(lines.join("\n"));
