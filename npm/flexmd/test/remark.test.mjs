// md_links and md_text against the JavaScript libraries the ADK's
// SpooledMarkdownArtifact uses (remark-parse + remark-gfm, and
// mdast-util-to-string), on the same documents: release notes, READMEs,
// tables, lists of sources, quoted and emphasised URLs, e-mail addresses,
// code that holds URLs (not links), emoji and CJK before a URL.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkGfm from "remark-gfm";
import remarkFrontmatter from "remark-frontmatter";
import { toString } from "mdast-util-to-string";
import { visit } from "unist-util-visit";

import { SpooledMarkdownArtifact } from "flexmd";

const documents = JSON.parse(readFileSync(new URL("./fixtures/markdown-links.json", import.meta.url), "utf8"));

function tree(md) {
  const processor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter);
  return processor.runSync(processor.parse(md));
}

test("md_links finds the links remark-gfm finds, autolink literals included", async () => {
  assert.ok(documents.length >= 30);
  for (const md of documents) {
    const expected = [];
    visit(tree(md), "link", (node) => {
      expected.push({ text: toString(node), url: node.url, ...(node.title ? { title: node.title } : {}) });
    });
    const found = await new SpooledMarkdownArtifact(md).md_links();
    assert.deepEqual(found, expected, md);
  }
});

test("md_text is mdast-util-to-string's text with the blocks kept apart", async () => {
  for (const md of documents) {
    const text = await new SpooledMarkdownArtifact(md).md_text();
    // flexmd puts a blank line between blocks and a tab between table
    // cells where mdast-util-to-string runs them together; HTML is markup.
    assert.equal(text.replaceAll("\n\n", "").replaceAll("\t", ""), toString(tree(md), { includeHtml: false }), md);
  }
});
