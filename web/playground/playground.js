// The playground page: sends the spec and the answer to the worker as the
// user types, and shows what comes back. No network but this folder.
const $ = (id) => document.getElementById(id);
const specInput = $("spec");
const answerInput = $("answer");
const marks = $("marks");
const status = $("status");

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
let requested = 0;
let shown = 0;
let last = null;
let tab = "check";
let timer = null;
let ready = false;
const startedAt = performance.now();

function setState() {
  // For the browser test: the page shows the reply to the latest input.
  document.body.dataset.requested = String(requested);
  document.body.dataset.shown = String(shown);
}

function send() {
  timer = null;
  if (!ready) return; // sent once the worker is ready
  status.textContent = "checking…";
  worker.postMessage({ id: requested, spec: specInput.value, answer: answerInput.value });
}

function schedule() {
  // The input changed: replies to earlier inputs are out of date.
  requested += 1;
  setState();
  // Short pause while typing; a long answer is read by the worker anyway.
  if (timer) clearTimeout(timer);
  timer = setTimeout(send, 120);
}

const escape = (text) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

const pretty = (value) => JSON.stringify(value, null, 2);

/** The answer with `ranges` ({start, end, kind}) underlined; overlaps keep the first. */
function underline(text, ranges) {
  const sorted = ranges
    .filter((r) => r.end > r.start && r.start >= 0 && r.end <= text.length)
    .sort((a, b) => a.start - b.start);
  let html = "";
  let at = 0;
  for (const r of sorted) {
    if (r.start < at) continue;
    html += escape(text.slice(at, r.start));
    html += `<mark class="${r.kind}" title="${escape(r.title)}">${escape(text.slice(r.start, r.end))}</mark>`;
    at = r.end;
  }
  // A final line break needs a character after it to take up its line.
  return html + escape(text.slice(at)) + "\n";
}

/** A one-character range at least, so a place with no width still shows. */
function visible(span, text) {
  const end = span.end > span.start ? span.end : Math.min(span.start + 1, text.length);
  return { start: span.start, end };
}

function issueRanges(reply, text) {
  const report = reply.check?.value?.report;
  if (!report) return [];
  const ranges = [];
  for (const [kind, list] of [["error", report.details.errors], ["warning", report.details.warnings]]) {
    for (const issue of list) {
      if (issue.span.end === 0 && issue.span.start === 0 && issue.code.startsWith("missing_")) continue;
      ranges.push({ ...visible(issue.span, text), kind, title: `${issue.code}: ${issue.message}` });
    }
  }
  return ranges;
}

function repairRanges(reply, text) {
  const ranges = [];
  for (const found of reply.json?.value ?? []) {
    for (const repair of found.repairs) {
      ranges.push({ ...visible({ start: repair.offset, end: repair.offset }, text), kind: "repair", title: repair.kind });
    }
  }
  return ranges;
}

function renderMarks() {
  if (!last) return;
  const text = answerInput.value;
  const ranges = tab === "json" ? repairRanges(last, text) : issueRanges(last, text);
  marks.innerHTML = underline(text, ranges);
  marks.scrollTop = answerInput.scrollTop;
}

function showError(element, failure) {
  element.textContent = `${failure.name}${failure.code ? ` (${failure.code})` : ""}: ${failure.message}`;
}

function renderCheck(reply) {
  const verdict = $("verdict");
  const issues = $("issues");
  issues.replaceChildren();
  if (reply.spec.error) {
    showError(verdict, reply.spec.error);
    verdict.className = "verdict-invalid";
    $("extracted").textContent = "";
    return;
  }
  if (reply.check.error) {
    showError(verdict, reply.check.error);
    return;
  }
  const { report, result } = reply.check.value;
  verdict.className = report.ok ? "verdict-valid" : "verdict-invalid";
  verdict.textContent = report.ok
    ? `Valid (${report.warnings.length} warnings)`
    : `Invalid: ${report.errors.length} errors, ${report.warnings.length} warnings`;
  for (const [kind, list] of [["error", report.details.errors], ["warning", report.details.warnings]]) {
    for (const issue of list) {
      const item = document.createElement("li");
      item.className = kind;
      item.dataset.code = issue.code;
      item.textContent = `${issue.line}:${issue.column} ${issue.code}${issue.section ? `:${issue.section}` : ""} — ${issue.message}`;
      item.addEventListener("click", () => {
        answerInput.focus();
        answerInput.setSelectionRange(issue.span.start, Math.max(issue.span.end, issue.span.start + 1));
      });
      issues.append(item);
    }
  }
  $("extracted").textContent = pretty(result);
}

function renderSpec(reply) {
  if (reply.spec.error) {
    showError($("prompt"), reply.spec.error);
    $("schema").textContent = "";
    return;
  }
  $("prompt").textContent = reply.prompt.value ?? "";
  $("schema").textContent = pretty(reply.schema.value);
}

function renderJson(reply) {
  const found = reply.json.value ?? [];
  const repairs = $("repairs");
  repairs.replaceChildren();
  $("json-summary").textContent = found.length
    ? `${found.length} JSON value${found.length > 1 ? "s" : ""}; repairs are underlined in the answer`
    : "No JSON value in the answer.";
  for (const f of found) {
    for (const repair of f.repairs) {
      const item = document.createElement("li");
      item.dataset.kind = repair.kind;
      item.textContent = `${repair.kind} at ${repair.offset}`;
      repairs.append(item);
    }
  }
  $("json").textContent = found.map((f) => pretty(f.value)).join("\n\n");
}

function renderFrames(reply) {
  const { value, error } = reply.frames;
  if (error) showError($("frames"), error);
  else $("frames").textContent = pretty(value);
}

worker.onmessage = ({ data }) => {
  if (data.ready) {
    ready = true;
    status.textContent = `ready in ${Math.round(performance.now() - startedAt)} ms`;
    document.body.dataset.ready = "true";
    if (requested === 0) requested = 1;
    send();
    return;
  }
  if (data.id < requested) return; // an older input: a newer reply is coming
  last = data;
  shown = data.id;
  renderCheck(data);
  renderSpec(data);
  renderJson(data);
  renderFrames(data);
  renderMarks();
  status.textContent = `read in ${data.tookMs.toFixed(1)} ms`;
  setState();
};

worker.onerror = (event) => {
  status.textContent = `flexmd could not start: ${event.message ?? "see the console"}`;
};

for (const button of document.querySelectorAll("[data-tab]")) {
  button.addEventListener("click", () => {
    tab = button.dataset.tab;
    for (const b of document.querySelectorAll("[data-tab]")) b.setAttribute("aria-selected", String(b === button));
    for (const panel of document.querySelectorAll("[data-panel]")) panel.hidden = panel.dataset.panel !== tab;
    renderMarks();
  });
}

specInput.addEventListener("input", schedule);
/** Past this size the backdrop waits for the worker's reply: laying out a
 * second copy of a long text on every keystroke is what would stall typing. */
const MIRROR_LIMIT = 100_000;

answerInput.addEventListener("input", () => {
  // The underlines follow the text at once; the worker's reply updates them.
  marks.textContent = answerInput.value.length < MIRROR_LIMIT ? `${answerInput.value}\n` : "";
  schedule();
});
answerInput.addEventListener("scroll", () => {
  marks.scrollTop = answerInput.scrollTop;
});

const examples = await fetch(new URL("./examples/examples.json", import.meta.url)).then((r) => r.json());
const select = $("example");
for (const [index, example] of examples.entries()) {
  select.append(new Option(example.name, String(index)));
}
function load(index) {
  const example = examples[index];
  specInput.value = example.spec;
  answerInput.value = example.answer;
  marks.textContent = example.answer.length < MIRROR_LIMIT ? `${example.answer}\n` : "";
  schedule();
}
select.addEventListener("change", () => load(Number(select.value)));
load(0);
