// The page's words in the person's language: the message files `locales/<lang>/page.json` (the page's own words) and
// `locales/<lang>/games.json` (each game's: titles, options, bots, moves), i18next-style JSON that translators' tools
// read: nested keys, `{{var}}` interpolation, plural forms by suffix (`_one`, `_other`, and French's `_many`) chosen
// by the browser's `Intl.PluralRules`, and a context suffix (`_you`: the sentence said to the seat itself). Only the
// active language's files are loaded. Numbers and lists are written by `Intl` in that language.

export const LANGUAGES = {en: "English", fr: "Français"};
const KEPT = "tg.lang";
const NAMESPACES = ["page", "games"];

let language = "en";
let messages = {};
let plurals = new Intl.PluralRules("en");

/** The language: the one chosen on this browser, else the first of the browser's languages the page speaks. */
export function preferred() {
  const kept = localStorage.getItem(KEPT);
  if (kept in LANGUAGES) return kept;
  const asked = (navigator.languages || [navigator.language]).map((tag) => tag.toLowerCase().split("-")[0]);
  return asked.find((tag) => tag in LANGUAGES) || "en";
}

/** Load `lang`'s message files (the remembered or preferred language by default); `<html lang>` follows. */
export async function load(lang = preferred()) {
  const files = await Promise.all(NAMESPACES.map(async (namespace) => {
    const answer = await fetch(`/web/locales/${lang}/${namespace}.json`);
    if (!answer.ok) throw new Error(`the page's words (${lang}/${namespace}) cannot be loaded: ${answer.status}`);
    return answer.json();
  }));
  messages = Object.fromEntries(NAMESPACES.map((namespace, index) => [namespace, files[index]]));
  language = lang;
  plurals = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
}

/** Choose `lang` on this browser (remembered), and load its words. */
export async function choose(lang) {
  localStorage.setItem(KEPT, lang);
  await load(lang);
}

export const current = () => language;

function lookup(key) {
  const [namespace, path] = key.includes(":") ? key.split(":", 2) : ["page", key];
  let node = messages[namespace];
  for (const part of path.split(".")) node = node?.[part];
  return typeof node === "string" ? node : undefined;
}

/** The words of `key` (`"lobby.title"`, or another namespace's: `"games:ninja.title"`) with `vars` put in: a
 * `count` picks the plural form, a `context` the context form (`key_you`), each falling back to the plain key. */
export function t(key, vars = {}) {
  const found = find(key, vars);
  if (found === undefined) {
    console.error(`no words for "${key}" in ${language}`); // a browser test fails on it
    return key;
  }
  return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name) => format(vars[name]));
}

/** Whether `key` has words (with `vars`' plural or context form): for the page's optional words (an error code the
 * page knows, a game's option help). */
export const has = (key, vars = {}) => find(key, vars) !== undefined;

function find(key, vars) {
  const bases = vars.context ? [`${key}_${vars.context}`, key] : [key]; // i18next's order: key_context_plural
  const keys = bases.flatMap((base) => (vars.count === undefined ? [base]
    : [`${base}_${plurals.select(vars.count)}`, `${base}_other`, base]));
  for (const each of keys) {
    const found = lookup(each);
    if (found !== undefined) return found;
  }
  return undefined;
}

function format(value) {
  if (typeof value === "number") return number(value);
  return value === undefined || value === null ? "" : String(value);
}

/** A number in the language's way (`1 234,5` in French). */
export const number = (value, options) => new Intl.NumberFormat(language, options).format(value);

/** Items joined as a list (`A, B and C`; `A, B et C`). */
export const list = (items) => new Intl.ListFormat(language, {type: "conjunction"}).format(items.map(String));

/** A date and time, short. */
export const when = (date) => new Intl.DateTimeFormat(language, {dateStyle: "medium", timeStyle: "short"}).format(date);

/** A refusal in words: the page's words for the server's `code` when it has them (the page's own, then the game's),
 * else the server's `message`. */
export function explain(error, game) {
  const vars = {message: error.message};
  if (error.code && has(`errors.${error.code}`)) return t(`errors.${error.code}`, vars);
  if (error.code && game && has(`games:${game}.errors.${error.code}`)) return t(`games:${game}.errors.${error.code}`);
  return error.message;
}

/** A refusal (an ApiError) or a failure, in the person's words. */
export function refusal(caught, game) {
  return caught?.status !== undefined ? t("errors.refused", {reason: explain(caught, game)}) : String(caught);
}

/** A game's words (`games:<game>.<path>`), else the words every game shares (`games:shared.<path>`). */
export function gameWords(game, path, vars) {
  return has(`games:${game}.${path}`, vars) ? t(`games:${game}.${path}`, vars) : t(`games:shared.${path}`, vars);
}
