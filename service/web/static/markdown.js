// The markdown the rules (docs/rules/*.md) are written in, drawn as elements: headings, paragraphs, lists (nested,
// with tables or paragraphs inside items), tables, fenced code, and inline code, strong, emphasis and links. Every
// piece of text is set as text (dom.js's `h`), never parsed as HTML, so a file can carry no markup or script. Some
// 120 lines for exactly the subset the rules use: a general markdown library would be ten times larger and would
// produce HTML strings the page's policy keeps out.

import {h} from "./dom.js";

const HEADING = /^(#{1,6})\s+(.*)$/;
const ITEM = /^( *)([-*]|\d+\.)\s+/;
const RULE_ROW = /^\s*\|?\s*:?-{3,}/;
const INLINE = /`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s](?:[^*]*[^*\s])?)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** The elements of a markdown `text`. `options.heading(level, text, content)` builds a heading (`text`: its plain
 * words, `content`: its inline nodes); `options.link(href, content)` builds a link, or returns `content` alone. */
export function markdown(text, options) {
  return blocks(text.replace(/\r\n?/g, "\n").split("\n"), options);
}

/** The plain words of an inline markdown text (what a heading's anchor is made from). */
export function plain(text) {
  return text.replace(INLINE, (...match) => match[1] ?? plain(match[2] ?? match[3] ?? match[4]));
}

function blocks(lines, options) {
  const nodes = [];
  let at = 0;
  while (at < lines.length) {
    const line = lines[at];
    const heading = HEADING.exec(line);
    if (!line.trim()) at += 1;
    else if (heading) {
      nodes.push(options.heading(heading[1].length, plain(heading[2]), inline(heading[2], options)));
      at += 1;
    } else if (line.startsWith("```")) {
      const end = findFrom(lines, at + 1, (each) => each.startsWith("```"));
      nodes.push(h("pre", {}, h("code", {}, lines.slice(at + 1, end).join("\n"))));
      at = end + 1;
    } else if (tableAt(lines, at)) {
      const end = findFrom(lines, at, (each) => !each.trim().startsWith("|"));
      nodes.push(table(lines.slice(at, end), options));
      at = end;
    } else if (ITEM.test(line)) {
      const [list, end] = listAt(lines, at, options);
      nodes.push(list);
      at = end;
    } else {
      const end = findFrom(lines, at + 1, (each, index) => !each.trim() || startsBlock(lines, index));
      nodes.push(h("p", {}, inline(lines.slice(at, end).map((each) => each.trim()).join(" "), options)));
      at = end;
    }
  }
  return nodes;
}

/** The index of the first line from `start` on that `test` accepts (`lines.length` when none does). */
function findFrom(lines, start, test) {
  const found = lines.findIndex((each, index) => index >= start && test(each, index));
  return found < 0 ? lines.length : found;
}

function startsBlock(lines, at) {
  return HEADING.test(lines[at]) || lines[at].startsWith("```") || ITEM.test(lines[at]) || tableAt(lines, at);
}

function tableAt(lines, at) {
  return lines[at].trim().startsWith("|") && RULE_ROW.test(lines[at + 1] || "");
}

function table(rows, options) {
  const cells = (row) => row.trim().replace(/^\||\|$/g, "").split("|").map((each) => each.trim());
  const [head, , ...body] = rows;
  return h("table", {},
    h("thead", {}, h("tr", {}, cells(head).map((cell) => h("th", {scope: "col"}, inline(cell, options))))),
    h("tbody", {}, body.map((row) => h("tr", {}, cells(row).map((cell) => h("td", {}, inline(cell, options)))))));
}

/** The list starting at line `at` and the index of the line after it. An item holds the lines indented under its
 * marker (blank lines included when more indented lines follow), read again as blocks of their own. */
function listAt(lines, at, options) {
  const [, indent, marker] = ITEM.exec(lines[at]);
  const ordered = /\d/.test(marker);
  const sibling = (line) => {
    const match = ITEM.exec(line || "");
    return match && match[1].length === indent.length && /\d/.test(match[2]) === ordered;
  };
  const items = [];
  while (sibling(lines[at])) {
    const width = ITEM.exec(lines[at])[0].length;
    const body = [lines[at].slice(width)];
    at += 1;
    for (; at < lines.length; at += 1) {
      const line = lines[at];
      const next = lines[findFrom(lines, at, (each) => each.trim())] || "";
      if (!line.trim() && indentOf(next) >= width) body.push("");
      else if (line.trim() && indentOf(line) >= width) body.push(line.slice(width));
      else if (line.trim() && body.at(-1) && indentOf(line) > indent.length && !ITEM.test(line)) body.push(line.trim());
      else break;
    }
    items.push(h("li", {}, unwrap(blocks(body, options))));
    if (!lines[at]?.trim() && sibling(lines[findFrom(lines, at, (each) => each.trim())])) {
      at = findFrom(lines, at, (each) => each.trim());
    }
  }
  return [h(ordered ? "ol" : "ul", {}, items), at];
}

const indentOf = (line) => line.length - line.trimStart().length;

/** An item holding one paragraph shows its words alone (a tight list). */
function unwrap(nodes) {
  return nodes.length === 1 && nodes[0].tagName === "P" ? [...nodes[0].childNodes] : nodes;
}

function inline(text, options) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    nodes.push(text.slice(last, match.index));
    const [, code, strong, emphasis, label, href] = match;
    if (code !== undefined) nodes.push(h("code", {}, code));
    else if (strong !== undefined) nodes.push(h("strong", {}, inline(strong, options)));
    else if (emphasis !== undefined) nodes.push(h("em", {}, inline(emphasis, options)));
    else nodes.push(options.link(href, inline(label, options)));
    last = match.index + match[0].length;
  }
  nodes.push(text.slice(last));
  return nodes.filter((each) => each !== "");
}
