// "How to play": a game's rules at #/rules/<game>[/<section>], in the reader's language. The rules are one markdown
// file per game and language (docs/rules/, served at /web/rules/<lang>/<game>.md), drawn by markdown.js: their
// "In short" part first, then a table of contents and the full rules. Following the contents moves the focus to
// the section without adding to the history, so that "Back" returns where the reader came from. This module,
// markdown.js and rules.css load with the first rules shown (app.js imports it then): the page's first load does
// not carry them.

import {h, useStyle} from "./dom.js";
import {t} from "./i18n.js";
import {markdown} from "./markdown.js";

const WRITTEN = ["en", "fr"]; // the languages the rules are written in

/** The rules' language: the page's (which its i18n sets on `<html lang>`), else the browser's first language the
 * rules are written in, else English. The page's few words around them (back, contents) come from its i18n. */
function rulesLanguage() {
  const wanted = [document.documentElement.lang, ...navigator.languages].map((each) => each.toLowerCase().split("-")[0]);
  return wanted.find((each) => WRITTEN.includes(each)) || "en";
}

export function mountRules(root, {gameId, section}) {
  const lang = rulesLanguage();
  const title = document.title;
  let shown = true;
  useStyle("/web/rules.css");
  root.replaceChildren(h("p", {lang}, "…"));
  load(lang, gameId).then(
    (text) => shown && draw(root, {lang, game: gameId, text, section}),
    (error) => shown && root.replaceChildren(h("article", {class: "rules", lang},
      backLink(gameId), h("p", {class: "error", role: "alert"}, `${t("rules.failed")} ${error.message}`))));
  return () => {
    shown = false;
    document.title = title;
  };
}

async function load(lang, game) {
  const answer = await fetch(`/web/rules/${lang}/${encodeURIComponent(game)}.md`);
  if (!answer.ok) throw new Error((await answer.json()).message);
  return answer.text();
}

function draw(root, {lang, game, text, section}) {
  const slugs = new Map();
  const headings = [];
  const heading = (level, words, content) => {
    const slug = unique(slugs, slugOf(words));
    const element = h(`h${Math.min(level + 1, 6)}`, {id: `rule-${slug}`, tabindex: "-1"}, content);
    headings.push({level, words, slug, element});
    return element;
  };
  const link = (href, content) => href.startsWith("#")
    ? h("a", {href: `#/rules/${game}/${href.slice(1)}`, onclick: follow}, content)
    : /^https:\/\//.test(href) ? h("a", {href}, content) : h("span", {}, content);
  const nodes = markdown(lang === "fr" ? frenchSpaces(text) : text, {heading, link});
  const sections = headings.filter((each) => each.level === 2);
  const contents = h("nav", {class: "rules-contents", "aria-labelledby": "rules-contents"},
    h("h3", {id: "rules-contents"}, t("rules.contents")),
    h("ol", {}, sections.map((each) => h("li", {},
      h("a", {href: `#/rules/${game}/${each.slug}`, onclick: follow}, each.words)))));
  const full = nodes.indexOf(sections[1]?.element); // the contents go after "In short", before the full rules
  if (full > 0) nodes.splice(full, 0, contents);
  const article = h("article", {class: "rules", lang, "aria-labelledby": headings[0]?.element.id},
    backLink(game), nodes);
  root.replaceChildren(article);
  document.title = headings[0]?.words || document.title;
  const target = section && document.getElementById(`rule-${decode(section)}`);
  show(target || headings[0]?.element, Boolean(target));
}

/** A contents (or in-text) link: the section is shown and focused; the address names it without a new history
 * entry. */
function follow(event) {
  event.preventDefault();
  const href = event.currentTarget.getAttribute("href");
  history.replaceState(history.state, "", href);
  show(document.getElementById(`rule-${decode(href.split("/")[3])}`), true);
}

/** A section's name as the address holds it (browsers encode its accents). */
function decode(section) {
  try {
    return decodeURIComponent(section);
  } catch {
    return section;
  }
}

function show(target, scroll) {
  if (!target) return;
  target.focus({preventScroll: !scroll});
  if (scroll) target.scrollIntoView({block: "start"});
}

/** "Back": to the page of ours the reader came from, or to the lobby when the page was opened on these rules (a
 * shared link, a new tab, a reload), where the history holds none of ours before them. */
function backLink(game) {
  const [opened] = performance.getEntriesByType("navigation");
  const [, screen, id] = (opened ? new URL(opened.name).hash : "").split("/");
  const cameFromPage = !(screen === "rules" && id === game);
  return h("p", {class: "rules-back"}, h("a", {href: "#/", onclick: (event) => {
    if (!cameFromPage) return;
    event.preventDefault();
    history.back();
  }}, h("span", {"aria-hidden": "true"}, "← "), t("rules.back")));
}

/** French puts a space before : ; ? ! and inside « », which must not start a line: a no-break space. */
function frenchSpaces(text) {
  return text.replace(/ ([:;?!»])/g, "\u00a0$1").replace(/« /g, "«\u00a0");
}

/** A heading's anchor as GitHub makes it, so that links between the rules files work here too. */
function slugOf(words) {
  return words.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").trim().replace(/\s/g, "-");
}

function unique(seen, slug) {
  const count = seen.get(slug) || 0;
  seen.set(slug, count + 1);
  return count ? `${slug}-${count}` : slug;
}
