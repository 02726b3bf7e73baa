// The page's language: the same gettext catalog as the terminal game (thirtyone/i18n/locale/*.po),
// served as JSON by /i18n/{lang}.json. Chosen by ?lang=, then the switch's choice (localStorage),
// then the browser's languages; English when none is available, with a one-line notice. Messages
// are keys with {name} placeholders; a plural is {cldr category: form}, picked by Intl.PluralRules.
const STORE = "thirtyone.lang";
const SUPPORTED = ["en", "de", "cs", "ms", "km", "ur", "ko"];

function base(code) {
  const match = /^([A-Za-z]{2,8})(?:[-_][A-Za-z0-9]{1,8})*$/.exec(String(code || "").trim());
  return match ? match[1].toLowerCase() : null;
}

function stored() {
  try {
    return localStorage.getItem(STORE);
  } catch {
    return null;
  }
}

/** The language asked for and why it may not be given: {lang, asked}. */
function wanted() {
  const query = new URLSearchParams(location.search).get("lang");
  if (query) return { lang: base(query), asked: query };
  const kept = stored();
  if (kept) return { lang: base(kept), asked: kept };
  for (const code of navigator.languages || [navigator.language]) {
    if (SUPPORTED.includes(base(code))) return { lang: base(code), asked: null };
  }
  return { lang: "en", asked: null }; // the browser asks for none of ours: English, no notice needed
}

async function load(lang) {
  const response = await fetch(`/i18n/${lang}.json`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`catalog ${lang}: ${response.status}`);
  return response.json();
}

const ask = wanted();
let catalog;
let notice = null;
try {
  catalog = await load(SUPPORTED.includes(ask.lang) ? ask.lang : "en");
} catch {
  catalog = { lang: "en", dir: "ltr", messages: {}, languages: { en: "English" }, notice: null };
}
if (ask.asked && !SUPPORTED.includes(ask.lang)) notice = catalog.messages["lang.unknown"] || null;
if (catalog.notice) notice = catalog.notice;
if (notice && ask.asked) notice = notice.replace("{code}", String(ask.asked).slice(0, 20));

/** The page's language code. */
export const lang = catalog.lang;
/** True when the page reads right to left (Urdu). */
export const rtl = catalog.dir === "rtl";
const plurals = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);
const lists = typeof Intl.ListFormat === "function" ? new Intl.ListFormat(lang, { type: "conjunction" }) : null;

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/** The message `key` with its {placeholders} filled (the key itself if the catalog lacks it). */
export function t(key, values = {}) {
  const text = catalog.messages[key];
  if (typeof text !== "string") return key;
  return fill(text, values);
}

/** The form of `key` for `count` ({count} written the language's way), placeholders filled. */
export function tn(key, count, values = {}) {
  const forms = catalog.messages[key];
  if (!forms || typeof forms !== "object") return key;
  const text = forms[plurals.select(count)] ?? forms.other ?? Object.values(forms)[0];
  return fill(text, { count: numbers.format(count), ...values });
}

/** A number the language's way. */
export function num(value) {
  return numbers.format(value);
}

/** Items joined the language's way ("Ada, Bea and Cy"; "Ada, Bea a Cy"). */
export function list(items) {
  const all = [...items].map(String);
  return lists ? lists.format(all) : all.join(", ");
}

/** Whether the language has the message (for data such as server error codes). */
export function has(key) {
  return key in catalog.messages;
}

/** Put the language into the page: <html lang dir>, every [data-i18n] element's text (and the
 * attributes [data-i18n-attr="title:key;aria-label:key"] name), the language switch and the notice. */
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  document.documentElement.dir = catalog.dir;
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const values = node.dataset.i18nValues ? JSON.parse(node.dataset.i18nValues) : {};
    // the element's own first text, so that children (a badge, a <kbd>, a link) stay
    const text = [...node.childNodes].find((child) => child.nodeType === Node.TEXT_NODE && child.data.trim());
    if (text) text.data = t(node.dataset.i18n, values);
    else node.textContent = t(node.dataset.i18n, values);
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) node.setAttribute(attr.trim(), t(key.trim()));
    }
  }
  const title = document.body.dataset.title;
  if (title) document.title = t(title, { code: document.body.dataset.code || "" });
  addSwitch();
  if (notice) {
    const line = document.createElement("p");
    line.className = "lang-notice";
    line.setAttribute("role", "status");
    line.textContent = notice;
    document.body.prepend(line);
  }
}

function addSwitch() {
  if (document.getElementById("lang-switch")) return;
  const host = document.querySelector("header");
  if (!host) return;
  const label = document.createElement("label");
  label.className = "lang-switch";
  const text = document.createElement("span");
  text.className = "sr-only";
  text.textContent = t("lang.switch");
  const select = document.createElement("select");
  select.id = "lang-switch";
  select.setAttribute("aria-label", t("lang.switch"));
  for (const [code, own] of Object.entries(catalog.languages || { en: "English" })) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = own;
    if (code === lang) option.selected = true;
    select.append(option);
  }
  select.addEventListener("change", () => {
    try {
      localStorage.setItem(STORE, select.value);
    } catch {
      /* private mode: this page only */
    }
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    location.replace(url.href);
  });
  label.append(text, select);
  host.append(label);
}
